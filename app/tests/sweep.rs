//! The faults of issue 19's sweep, each with the test that fails without its fix: quitting while
//! the writer is stuck or the disk is full, a history line refused for lack of space, files
//! that are not regular files (named pipes), an unusable lock said on the game screen, an
//! unreadable `saves/` folder said once, many notices dismissed at once, and settings and saves
//! that lie.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{asked_to_close, close_window, key_of, temp_dir};
use egui::{ViewportCommand, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tempfile::NamedTempFile;
use tilebox::TileboxApp;
use tilebox::store::storage::{Disk, RealDisk, Storage};
use tilebox::store::writer::Writer;
use tilebox::work_mode::WorkMode;

const WAIT: Duration = Duration::from_secs(60);

/// The app over `dir` writing through `disk`, opened on `game`.
fn app_over(dir: &Path, disk: Arc<dyn Disk>, game: &str) -> Harness<'static, TileboxApp> {
    let writer = Writer::start(Storage::with_disk(dir, disk));
    common::harness_with_writer(writer, game)
}

/// Whether the last frame asked the window to stay open after a close.
fn cancelled_close(h: &Harness<'_, TileboxApp>) -> bool {
    h.output().viewport_output[&ViewportId::ROOT]
        .commands
        .contains(&ViewportCommand::CancelClose)
}

/// Frames until "Quit without saving them" is offered (the quit dialog waits a few seconds of
/// the frames' time first), then a click on it.
fn quit_without_saving(h: &mut Harness<'_, TileboxApp>) {
    wait_for_quit_button(h);
    h.get_by_label("Quit without saving them").click();
    h.step();
    h.step();
}

/// Frames until "Quit without saving them" is offered and the dialog has taken its size.
fn wait_for_quit_button(h: &mut Harness<'_, TileboxApp>) {
    for _ in 0..40 {
        if h.query_by_label("Quit without saving them").is_some() {
            break;
        }
        h.step();
    }
    // The dialog grew with its longer text: a frame or two to settle where its buttons are.
    h.step();
    h.step();
}

/// Four moves' keys, one of which at least moves a fresh board.
fn play_a_little(h: &mut Harness<'_, TileboxApp>) {
    for k in ["L", "D", "R", "U"] {
        h.key_press(key_of(k));
        h.run();
    }
    assert!(h.state().session("2048").unwrap().move_count() > 0);
}

/// A disk whose writes never come back, as on a frozen file system.
struct StuckDisk;

impl Disk for StuckDisk {
    fn write(&self, _file: &mut NamedTempFile, _bytes: &[u8]) -> io::Result<()> {
        loop {
            std::thread::park();
        }
    }
}

#[test]
fn quit_without_saving_closes_the_window_while_the_writer_is_stuck() {
    let dir = temp_dir("stuck-quit");
    let mut h = app_over(&dir, Arc::new(StuckDisk), "2048");
    play_a_little(&mut h);
    assert!(h.state().writes_pending());
    close_window(&mut h);
    // The first close waits for the writes.
    assert!(cancelled_close(&h));
    quit_without_saving(&mut h);
    // eframe answers the app's Close with a close request: this time the window goes.
    close_window(&mut h);
    assert!(!cancelled_close(&h), "the window was kept open again");
    assert!(
        h.query_by_label_contains("These could not be saved")
            .is_none()
    );
    // What was not saved is known at once, for stderr: flushing no longer waits (the writer
    // stays stuck, so a flush that waited would take the whole bound).
    let started = std::time::Instant::now();
    let unsaved = h.state().flush_writes(WAIT);
    assert!(
        started.elapsed() < WAIT,
        "quitting waited {:?}",
        started.elapsed()
    );
    assert!(
        unsaved.contains(&"the game of 2048".to_string()),
        "{unsaved:?}"
    );
}

/// A disk that is full while `full` is set: every write and append fails as a full disk does.
struct FullDisk {
    full: AtomicBool,
}

impl FullDisk {
    fn check(&self) -> io::Result<()> {
        if self.full.load(Ordering::SeqCst) {
            Err(io::Error::from(io::ErrorKind::StorageFull))
        } else {
            Ok(())
        }
    }
}

impl Disk for FullDisk {
    fn write(&self, file: &mut NamedTempFile, bytes: &[u8]) -> io::Result<()> {
        self.check()?;
        RealDisk.write(file, bytes)
    }
    fn append(&self, file: &mut std::fs::File, bytes: &[u8]) -> io::Result<()> {
        self.check()?;
        RealDisk.append(file, bytes)
    }
}

#[test]
fn quitting_with_a_full_disk_lists_the_last_moves_as_unsaved() {
    let dir = temp_dir("full-quit");
    let disk = Arc::new(FullDisk {
        full: AtomicBool::new(true),
    });
    let mut h = app_over(&dir, disk, "2048");
    play_a_little(&mut h);
    h.state().flush_writes(WAIT);
    h.run();
    // Nothing is in flight: the write failed. Quitting still asks.
    assert!(!h.state().writes_pending());
    close_window(&mut h);
    assert!(cancelled_close(&h), "the window closed without a word");
    wait_for_quit_button(&mut h);
    let said = common::spoken(&h.get_by_label_contains("These could not be saved yet:")).unwrap();
    assert!(said.contains("the game of 2048"), "{said}");
    // Why, in words: the game's message and the notices say the disk is full, never the
    // system's "(os error 28)".
    let shown: Vec<String> = common::spoken_all(&h)
        .into_iter()
        .map(|(text, _)| text)
        .chain(h.state().notices().iter().cloned())
        .collect();
    assert!(
        shown.iter().any(|t| t.contains("the disk is full")),
        "{shown:?}"
    );
    assert!(shown.iter().all(|t| !t.contains("os error")), "{shown:?}");
    h.get_by_label("Quit without saving them").click();
    h.step();
    assert!(asked_to_close(&h));
    assert!(!dir.join("saves/2048.json").exists());
}

/// Runs `test` with a writer on a thread of its own and one on the frame (as in a page).
fn in_both_modes(test: impl Fn(WorkMode)) {
    test(WorkMode::Threads);
    test(WorkMode::Frame);
}

#[test]
fn a_full_disk_keeps_history_lines_queued_and_writes_them_when_space_returns() {
    in_both_modes(full_history);
}

fn full_history(mode: WorkMode) {
    let dir = temp_dir("full-history");
    let disk = Arc::new(FullDisk {
        full: AtomicBool::new(true),
    });
    let writer = Writer::in_mode(Storage::with_disk(&dir, disk.clone()), mode);
    let name = tilebox::store::history::history_file_name("2048");
    writer.append(&name, "the history of 2048", b"one".to_vec());
    writer.append(&name, "the history of 2048", b"two".to_vec());
    assert!(writer.flush(WAIT).is_empty());
    // Said once, and kept: not saved yet.
    let failures = writer.take_failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    // (The folder's own name has "full" in it: the words are looked for whole.)
    let said = failures[0].error.to_string();
    assert!(said.contains("the disk is full"), "{said}");
    assert!(!said.contains("os error"), "{said}");
    assert_eq!(writer.unsaved(), vec!["the history of 2048".to_string()]);
    assert!(!dir.join(&name).exists() || std::fs::read(dir.join(&name)).unwrap().is_empty());
    // Space returns: the next write takes the held lines first, in their order.
    disk.full.store(false, Ordering::SeqCst);
    writer.submit("scores.json", "the scores", || Ok(b"{}\n".to_vec()));
    assert!(writer.flush(WAIT).is_empty());
    assert_eq!(
        std::fs::read_to_string(dir.join(&name)).unwrap(),
        "one\ntwo\n"
    );
    assert!(writer.unsaved().is_empty());
    assert!(writer.take_failures().is_empty());
}

#[test]
fn a_held_write_is_tried_again_on_its_own_while_nothing_else_is_written() {
    in_both_modes(held_retried);
}

fn held_retried(mode: WorkMode) {
    let dir = temp_dir("full-retry");
    let disk = Arc::new(FullDisk {
        full: AtomicBool::new(true),
    });
    let writer = Writer::in_mode(Storage::with_disk(&dir, disk.clone()), mode);
    writer.submit("scores.json", "the scores", || Ok(b"{}\n".to_vec()));
    writer.flush(WAIT);
    assert_eq!(writer.unsaved(), vec!["the scores".to_string()]);
    disk.full.store(false, Ordering::SeqCst);
    // No other write comes: the writer tries again by itself (every RETRY; on the frame, at the
    // frame's call once RETRY has passed).
    let mut waited = Duration::ZERO;
    while !writer.unsaved().is_empty() && waited < WAIT {
        writer.tick();
        std::thread::sleep(Duration::from_millis(50));
        waited += Duration::from_millis(50);
    }
    assert!(writer.unsaved().is_empty());
    assert_eq!(std::fs::read(dir.join("scores.json")).unwrap(), b"{}\n");
}

/// Makes a named pipe at `path`.
fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Runs `f` on a thread of its own and gives its result, or fails the test if it has not come
/// back within a minute (it blocked, as an `open()` of a named pipe does).
fn without_blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(WAIT).expect("it blocked")
}

#[test]
fn named_pipes_in_the_data_folder_are_refused_in_words_and_never_written() {
    let dir = temp_dir("fifos");
    let pipes: Vec<PathBuf> = [
        "saves/2048.json",
        "scores.json",
        "settings.json",
        "history/2048.jsonl",
        "variants/x.json",
    ]
    .iter()
    .map(|name| dir.join(name))
    .collect();
    for pipe in &pipes {
        mkfifo(pipe);
    }
    let app_dir = dir.to_path_buf();
    let notices = without_blocking(move || {
        let mut app = TileboxApp::new(&app_dir, None);
        assert!(app.wait_for_histories(WAIT));
        app.notices().to_vec()
    });
    let all = notices.join("\n");
    for name in [
        "saves/2048.json",
        "scores.json",
        "settings.json",
        "history/2048.jsonl",
        "x.json",
    ] {
        assert!(
            notices
                .iter()
                .any(|n| n.contains(name) && n.contains("named pipe (FIFO), not a regular file")),
            "{name}: {all}"
        );
    }
    // A record appended to the history's pipe is refused, never written into it.
    let storage = Storage::new(&dir);
    let name = tilebox::store::history::history_file_name("2048");
    let refused = without_blocking(move || storage.append_line(&name, b"{}"));
    assert!(refused.is_err());
    // Every pipe is still a pipe (a write would have replaced it with a file).
    let app_dir = dir.to_path_buf();
    without_blocking(move || {
        let app = TileboxApp::new(&app_dir, Some("2048"));
        app.flush_writes(WAIT);
        drop(app);
    });
    for pipe in &pipes {
        assert!(is_fifo(pipe), "{}", pipe.display());
    }
}

#[test]
fn a_named_pipe_in_the_history_takes_no_record_when_a_game_is_played() {
    let dir = temp_dir("fifo-history");
    let pipe = dir.join(tilebox::store::history::history_file_name("2048"));
    mkfifo(&pipe);
    // A reader holds the pipe open: a record written to it would go in.
    let reader = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&pipe)
        .unwrap();
    let mut h = common::harness(&dir, Some("2048"));
    for k in ["L", "D", "R", "U"] {
        h.key_press(key_of(k));
        h.run();
    }
    // A new game over one with moves records it.
    h.key_press(egui::Key::N);
    h.run();
    h.key_press(egui::Key::Y);
    h.run();
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);
    h.state().flush_writes(WAIT);
    h.run();
    assert!(is_fifo(&pipe));
    h.get_by_label_contains("named pipe (FIFO)");
    // Nothing went into the pipe.
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut peek = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(0o4000) // O_NONBLOCK on Linux
        .open(&pipe)
        .unwrap();
    let mut buf = [0u8; 16];
    let read = peek.read(&mut buf);
    assert!(
        matches!(&read, Err(e) if e.kind() == io::ErrorKind::WouldBlock),
        "{read:?}"
    );
    drop(reader);
}

#[test]
fn an_unusable_lock_is_said_on_the_game_screen_with_its_cause() {
    let base = temp_dir("lock-folder");
    let dir = base.join("tilebox");
    std::fs::create_dir_all(dir.join(tilebox::store::lock::LOCK_FILE)).unwrap();
    let reason = match tilebox::store::lock::DataDirLock::acquire(&dir) {
        Err(e @ tilebox::store::lock::LockError::Unusable(_)) => e.to_string(),
        other => panic!("{other:?}"),
    };
    let mut h = common::harness_with_writer(Writer::start(Storage::unusable(&dir, reason)), "2048");
    h.key_press(key_of("L"));
    h.run();
    h.get_by_label(&format!(
        "Nothing will be saved: the lock file {} cannot be used (it is a folder, not a file).",
        dir.join(tilebox::store::lock::LOCK_FILE).display()
    ));
}

#[test]
fn an_unreadable_saves_folder_is_one_notice_and_left_alone() {
    let dir = temp_dir("saves-file");
    std::fs::write(dir.join("saves"), b"not a folder").unwrap();
    let mut h = common::harness(&dir, None);
    let notices = h.state().notices().to_vec();
    let about_saves: Vec<&String> = notices.iter().filter(|n| n.contains("saves")).collect();
    assert_eq!(about_saves.len(), 1, "{notices:?}");
    assert!(
        about_saves[0].starts_with("The saved games (saves/) cannot be read: "),
        "{notices:?}"
    );
    assert!(about_saves[0].contains("it is not a folder"), "{notices:?}");
    // Playing saves nothing there, and the file stays as it was.
    h.key_press(egui::Key::Num1);
    h.run();
    h.key_press(key_of("L"));
    h.run();
    h.state().flush_writes(WAIT);
    assert_eq!(std::fs::read(dir.join("saves")).unwrap(), b"not a folder");
}

#[test]
fn many_refused_files_are_dismissed_at_once_from_the_keyboard() {
    let dir = temp_dir("many-refused");
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    for i in 0..30 {
        std::fs::write(dir.join(format!("variants/v{i:02}.json")), "{}").unwrap();
    }
    let mut h = common::harness(&dir, None);
    assert_eq!(h.state().notices().len(), 30);
    let label = tilebox::store::storage::dismiss_all_label(30);
    assert_eq!(label, "Dismiss all 30 notices");
    let mut reached = false;
    for _ in 0..10 {
        h.key_press(egui::Key::Tab);
        h.run();
        if h.get_by_label(&label).accesskit_node().is_focused() {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached {label}");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    assert!(h.query_by_label(&label).is_none());
}

/// The app over `dir` with `settings` as settings.json: it starts, says what is wrong in words,
/// and leaves the file's bytes as they were (moved aside, never rewritten).
#[test]
fn settings_that_lie_never_stop_the_app_and_are_never_rewritten() {
    for (case, text) in [
        ("wrong types", r#"{"version":1,"theme":42,"zoom":"big"}"#),
        ("torn", r#"{"version":1,"theme":"dark","zo"#),
        ("a list", "[1, 2, 3]"),
        ("no version", r#"{"theme":"dark"}"#),
        ("a speed that is none", r#"{"version":1,"speed":"warp"}"#),
    ] {
        let dir = temp_dir("settings-lie");
        std::fs::write(dir.join("settings.json"), text).unwrap();
        plays_and_moves_aside(&dir, case, text, "The settings (settings.json)");
    }
    // An impossible zoom is held to what the app can show; the file is not rewritten.
    let dir = temp_dir("settings-zoom");
    let text = r#"{"version":1,"zoom":4000000000}"#;
    std::fs::write(dir.join("settings.json"), text).unwrap();
    let h = common::harness(&dir, Some("2048"));
    assert!(h.state().zoom() <= 4.0, "{}", h.state().zoom());
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    h.state().flush_writes(WAIT);
    assert_eq!(
        std::fs::read_to_string(dir.join("settings.json")).unwrap(),
        text
    );
}

#[test]
fn saves_that_lie_never_stop_the_app_and_are_never_rewritten() {
    let session = tilebox_games::registry()
        .get("2048")
        .unwrap()
        .new_session(9)
        .unwrap();
    let good = serde_json::to_value(session.save()).unwrap();
    let with = |k: &str, v: serde_json::Value| {
        let mut save = good.clone();
        save[k] = v;
        save.to_string()
    };
    let whole = good.to_string();
    for (case, text) in [
        ("a seed that is text", with("seed", "nine".into())),
        (
            "moves that are no moves",
            with("moves", serde_json::json!(["L", "jump"])),
        ),
        (
            "moves that are numbers",
            with("moves", serde_json::json!([1, 2])),
        ),
        (
            "a tally of the wrong type",
            with("tally", serde_json::json!({"played": "yes"})),
        ),
        (
            "a negative time",
            with("duration_ms", serde_json::json!(-5)),
        ),
        ("another game", with("game", "threes".into())),
        ("torn", whole[..whole.len() / 2].to_string()),
    ] {
        let dir = temp_dir("save-lie");
        std::fs::create_dir_all(dir.join("saves")).unwrap();
        std::fs::write(dir.join("saves/2048.json"), &text).unwrap();
        plays_and_moves_aside(&dir, case, &text, "The saved game of 2048");
    }
}

/// The app over `dir` opens 2048 and plays (the game fresh), says that `what` could not be
/// read and was moved aside, and the file moved aside holds `text` unchanged.
fn plays_and_moves_aside(dir: &Path, case: &str, text: &str, what: &str) {
    let mut h = common::harness(dir, Some("2048"));
    play_a_little(&mut h);
    let notice = h
        .state()
        .notices()
        .iter()
        .find(|n| n.starts_with(&format!("{what} could not be read (")))
        .cloned()
        .unwrap_or_else(|| panic!("{case}: {:?}", h.state().notices()));
    assert!(notice.contains("It was moved to"), "{case}: {notice}");
    h.state().flush_writes(WAIT);
    let moved = common::moved_aside(dir);
    assert_eq!(moved.len(), 1, "{case}");
    assert_eq!(std::fs::read_to_string(&moved[0]).unwrap(), text, "{case}");
}

/// The notices of the app about the histories.
fn about_history(h: &Harness<'_, TileboxApp>) -> Vec<String> {
    let notices = h.state().notices().to_vec();
    notices
        .into_iter()
        .filter(|n| n.contains("histor"))
        .collect()
}

#[test]
fn an_unreadable_history_folder_is_one_notice_in_words_and_left_alone() {
    // A file where the folder should be (tests run as root, to whom every folder is
    // readable: a file is a folder no one can read in).
    let dir = temp_dir("history-file");
    std::fs::write(dir.join("history"), b"not a folder").unwrap();
    let mut h = common::harness(&dir, Some("2048"));
    let about = about_history(&h);
    assert_eq!(about.len(), 1, "{:?}", h.state().notices());
    assert!(
        about[0].starts_with("The histories (history/) cannot be read: "),
        "{about:?}"
    );
    assert!(about[0].contains("it is not a folder"), "{about:?}");
    assert!(
        h.state().notices().iter().all(|n| !n.contains("os error")),
        "{:?}",
        h.state().notices()
    );
    // A game played and abandoned for a new one records nothing there; the file stays.
    play_a_little(&mut h);
    h.key_press(egui::Key::N);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.state().flush_writes(WAIT);
    assert_eq!(std::fs::read(dir.join("history")).unwrap(), b"not a folder");
    assert!(common::moved_aside(&dir).is_empty());

    // History files this user may not read: the folder's problem, said once.
    let dir = temp_dir("history-denied");
    std::fs::create_dir_all(dir.join("history")).unwrap();
    for id in ["2048", "threes", "strike9"] {
        let path = dir.join(tilebox::store::history::history_file_name(id));
        std::fs::write(&path, b"{}\n").unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    if std::fs::File::open(dir.join("history/2048.jsonl")).is_ok() {
        // Root reads it all the same: nothing to see here.
        return;
    }
    let h = common::harness(&dir, None);
    let about = about_history(&h);
    assert_eq!(about.len(), 1, "{:?}", h.state().notices());
    assert!(about[0].contains("permission denied"), "{about:?}");
    assert!(!about[0].contains("os error"), "{about:?}");
    assert!(common::moved_aside(&dir).is_empty());
}

#[test]
fn settings_and_saves_refused_are_said_in_words_naming_the_field() {
    let serde_words = ["invalid type", "expected", "line 1 column", "u32", "u64"];
    let dir = temp_dir("settings-words");
    std::fs::write(
        dir.join("settings.json"),
        r#"{"version":1,"theme":"dark","zoom":"big"}"#,
    )
    .unwrap();
    let h = common::harness(&dir, Some("2048"));
    let notice = h
        .state()
        .notices()
        .iter()
        .find(|n| n.starts_with("The settings (settings.json) could not be read ("))
        .cloned()
        .unwrap_or_else(|| panic!("{:?}", h.state().notices()));
    assert!(
        notice.contains(r#"(zoom: "big" is not a whole number from 0 to 4294967295)"#),
        "{notice}"
    );
    // The notice names where the file was moved: the directory's random name is not the notice's.
    let words = notice.replace(&*dir.to_string_lossy(), "<data>");
    for serde in serde_words {
        assert!(!words.contains(serde), "{notice}");
    }
    // A save whose seed is text.
    let session = tilebox_games::registry()
        .get("2048")
        .unwrap()
        .new_session(9)
        .unwrap();
    let mut save = serde_json::to_value(session.save()).unwrap();
    save["seed"] = "nine".into();
    let dir = temp_dir("save-words");
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    std::fs::write(dir.join("saves/2048.json"), save.to_string()).unwrap();
    let h = common::harness(&dir, Some("2048"));
    let notice = h
        .state()
        .notices()
        .iter()
        .find(|n| n.starts_with("The saved game of 2048 could not be read ("))
        .cloned()
        .unwrap_or_else(|| panic!("{:?}", h.state().notices()));
    assert!(
        notice.contains(r#"(seed: "nine" is not a whole number from 0)"#),
        "{notice}"
    );
    // The notice names where the file was moved: the directory's random name is not the notice's.
    let words = notice.replace(&*dir.to_string_lossy(), "<data>");
    for serde in serde_words {
        assert!(!words.contains(serde), "{notice}");
    }
}
