//! One writer per data directory: the lock, the second copy's window, and a start right after a
//! copy was killed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::temp_dir;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::store::lock::{DataDirLock, LockError};
use tilebox::ui::refusal::AlreadyRunning;

/// The variable that turns [`child_holds_the_lock`] into a copy of the app holding a directory.
const HOLD: &str = "TILEBOX_TEST_HOLD_LOCK";

#[test]
fn a_second_copy_on_the_same_directory_is_refused_and_a_released_lock_is_free_again() {
    let dir = temp_dir("lock-twice");
    let first = DataDirLock::acquire(&dir).unwrap();
    match DataDirLock::acquire(&dir) {
        Err(LockError::Held(held)) => assert_eq!(held, *dir),
        other => panic!("a second lock was not refused: {other:?}"),
    }
    // Another directory is another writer's.
    let other = temp_dir("lock-other");
    let _second = DataDirLock::acquire(&other).unwrap();
    drop(first);
    // Free again. A test beside this one starts child processes: between a fork and its exec
    // the child holds a copy of every descriptor, this lock's included, so a moment may pass
    // before the lock is free; it must not stay held.
    let mut again = DataDirLock::acquire(&dir);
    for _ in 0..200 {
        if again.is_ok() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        again = DataDirLock::acquire(&dir);
    }
    again.unwrap();
}

/// Not a test of its own: run by
/// [`a_copy_killed_while_holding_the_lock_does_not_block_the_next_start`] in a child process, it
/// holds the directory named by [`HOLD`] and waits to be killed.
#[test]
fn child_holds_the_lock() {
    let Some(dir) = std::env::var_os(HOLD) else {
        return;
    };
    let _lock = DataDirLock::acquire(std::path::Path::new(&dir)).unwrap();
    println!("locked");
    loop {
        std::thread::park();
    }
}

#[test]
fn a_copy_killed_while_holding_the_lock_does_not_block_the_next_start() {
    let dir = temp_dir("lock-killed");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_holds_the_lock", "--nocapture"])
        .env(HOLD, dir.as_os_str())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(
        lines.any(|l| l.is_ok_and(|l| l == "locked")),
        "the child never took the lock"
    );
    // While it runs, this copy is refused.
    assert!(matches!(
        DataDirLock::acquire(&dir),
        Err(LockError::Held(_))
    ));
    // kill -9: no clean-up of any kind runs in the child.
    child.kill().unwrap();
    child.wait().unwrap();
    let _lock = DataDirLock::acquire(&dir).unwrap();
    // And the app starts normally on it.
    let app = tilebox::TileboxApp::new(&dir, None);
    assert!(app.notices().is_empty(), "{:?}", app.notices());
}

fn refusal_window(dir: &std::path::Path) -> Harness<'static, AlreadyRunning> {
    let dir = dir.to_path_buf();
    let mut h = Harness::builder()
        .with_size(egui::Vec2::from(tilebox::ui::refusal::WINDOW_SIZE))
        .build_eframe(move |_cc| AlreadyRunning::new(dir));
    h.run();
    h
}

#[test]
fn the_second_copys_window_names_the_directory_and_quits_with_its_button() {
    let dir = temp_dir("refusal");
    let mut h = refusal_window(&dir);
    h.get_by_label("Tilebox is already running");
    h.get_by_label_contains(&format!(
        "Tilebox is already running with the data folder {}.",
        dir.display()
    ));
    assert!(!h.state().quit_pressed());
    h.get_by_label("Quit").click();
    h.run();
    assert!(h.state().quit_pressed());
    // It wrote nothing in the directory.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn the_second_copys_quit_button_is_reached_by_the_keyboard() {
    let dir = temp_dir("refusal-keys");
    let mut h = refusal_window(&dir);
    // The button has the focus from the start: Enter presses it.
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state().quit_pressed());
}

#[test]
fn the_second_copys_window_has_the_apps_look_and_its_text_fits() {
    use tilebox::ui::theme::Palette;
    let dir = temp_dir("refusal-theme");
    let h = refusal_window(&dir);
    for (theme, dark) in [(egui::Theme::Light, false), (egui::Theme::Dark, true)] {
        let style = h.ctx.style_of(theme);
        assert_eq!(
            style.visuals.panel_fill,
            Palette::of(dark).panel,
            "{theme:?}"
        );
        assert_eq!(
            style.visuals.text_color(),
            Palette::of(dark).text,
            "{theme:?}"
        );
        let app = tilebox::ui::theme::style(dark);
        assert_eq!(style.visuals, app.visuals, "{theme:?}");
        assert_eq!(style.text_styles, app.text_styles, "{theme:?}");
    }
    // Everything it says, and its button, inside the window.
    let window = egui::Rect::from_min_size(
        egui::Pos2::ZERO,
        egui::Vec2::from(tilebox::ui::refusal::WINDOW_SIZE),
    );
    for label in ["Tilebox is already running", "Quit"] {
        let rect = h.get_by_label(label).rect();
        assert!(window.contains_rect(rect), "{label} at {rect:?}");
    }
    let text = h.get_by_label_contains("This copy saves nothing").rect();
    assert!(window.contains_rect(text), "{text:?}");
}
