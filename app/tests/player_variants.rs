//! A player's own sliding variants in the real app, as a player would meet them: `*.json`
//! files in `variants/` of the data directory, read at start. A file based on a built-in and a
//! fully written one appear in the launcher in their group (the root of their `based_on` chain)
//! and play, with hints and autoplay; a bad file is one notice in the launcher, naming the file
//! and the field, while the others still load and the file is left as it is. The app is built
//! as it starts (`TileboxApp::new` over a data directory of the test's own).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{cell_count, harness, temp_dir};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::json;
use tilebox::TileboxApp;
use tilebox_sliding::builtin_variants;

type App = Harness<'static, TileboxApp>;

/// Based on 2584 (Fibonacci): a 5×5 board.
const MY_FIB: &str = r#"{"format": 1, "id": "my-fib", "title": "My Fibonacci", "description": "Fibonacci on five by five.", "based_on": "2584", "side": 5}"#;

/// Every field written out: Fibonacci on 3×3, won at 89.
fn small_fib() -> String {
    let mut v = builtin_variants()
        .into_iter()
        .find(|v| v.id == "2584")
        .unwrap()
        .to_json();
    v["id"] = json!("small-fib");
    v["title"] = json!("Small Fibonacci");
    v["description"] = json!("Fibonacci on three by three: make 89.");
    v["side"] = json!(3);
    v["tiles"] = json!([1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233]);
    v["spawn"] = json!({"weights": {"1": 3, "2": 1}});
    v["win"] = json!(89);
    serde_json::to_string_pretty(&v).unwrap()
}

/// The side-9 file: refused, naming `side`.
const SIDE_9: &str = r#"{"format": 1, "id": "too-big", "based_on": "2048", "side": 9}"#;

fn write_variant(dir: &Path, name: &str, text: &str) {
    let folder = dir.join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join(name), text).unwrap();
}

/// Steps frames (with a short real pause, for the AI's thread) until `done` holds.
fn step_until(h: &mut App, limit: Duration, mut done: impl FnMut(&App) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(start.elapsed() < limit, "gave up waiting after {limit:?}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The launcher group of entry `id`.
fn group_of<'r>(registry: &'r tilebox_core::Registry, id: &str) -> &'r str {
    let index = registry.ids().iter().position(|&i| i == id).unwrap();
    registry
        .groups()
        .into_iter()
        .find(|(_, members)| members.contains(&index))
        .unwrap()
        .0
}

fn move_count(h: &App, id: &str) -> usize {
    h.state().session(id).map_or(0, |s| s.move_count())
}

/// Opens `title` from the 2584 group of the launcher and plays it: a move by the keys, a hint
/// by Shift+H, then autoplay for a few moves.
fn open_and_play(h: &mut App, title: &str, id: &str, side: usize) {
    h.get_by_label("Play 2584").click();
    h.run();
    h.get_by_label(&format!("Play {title}")).click();
    h.run();
    assert_eq!(h.state().current_game(), Some(id));
    assert_eq!(cell_count(h), side * side, "{id}");

    // A move by the keys: some arrow moves the new board.
    for key in [
        Key::ArrowLeft,
        Key::ArrowUp,
        Key::ArrowRight,
        Key::ArrowDown,
    ] {
        if move_count(h, id) > 0 {
            break;
        }
        h.key_press(key);
        h.run();
    }
    assert!(move_count(h, id) > 0, "{id}: no arrow moved");

    // A hint, from the AI's thread, naming a move.
    h.get_by_label("Hint");
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    step_until(h, Duration::from_secs(30), |h| {
        h.query_by_label_contains("Hint: ").is_some()
    });

    // Autoplay plays on its own until stopped.
    let before = move_count(h, id);
    h.get_by_label("Autoplay").click();
    h.step();
    assert!(h.state().autoplay(id), "{id}");
    step_until(h, Duration::from_secs(60), |h| {
        move_count(h, id) >= before + 3 || h.state().session(id).unwrap().status().over
    });
    // Stopped from the keyboard: the button moves along its wrapping row as the score grows,
    // so a click aimed where it was a frame ago may miss it.
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(!h.state().autoplay(id), "{id}");

    // Back to the group, and to the games.
    h.key_press(Key::Escape);
    h.run();
    h.key_press(Key::Escape);
    h.run();
}

#[test]
fn a_based_on_file_appears_in_its_group_and_plays_with_hints_and_autoplay() {
    let dir = temp_dir("player-variants");
    write_variant(&dir, "my-fib.json", MY_FIB);
    write_variant(&dir, "small-fib.json", &small_fib());
    let mut h = harness(&dir, None);
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    let registry = h.state().registry();
    for id in ["my-fib", "small-fib"] {
        assert!(registry.get(id).unwrap().assistant().is_some(), "{id}");
    }
    // Each in the group of the root of its based_on chain: my-fib under 2584 (its card now
    // opens the versions), small-fib, based on nothing, a game of its own.
    assert_eq!(group_of(registry, "my-fib"), "2584");
    assert_eq!(group_of(registry, "small-fib"), "Small Fibonacci");
    open_and_play(&mut h, "My Fibonacci", "my-fib", 5);
}

#[test]
fn a_fully_written_file_is_a_game_of_its_own_and_plays() {
    let dir = temp_dir("player-variants-full");
    write_variant(&dir, "small-fib.json", &small_fib());
    let mut h = harness(&dir, None);
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    assert_eq!(
        group_of(h.state().registry(), "small-fib"),
        "Small Fibonacci"
    );
    // Its card is the last of the launcher, maybe below the window: its number opens it.
    h.get_by_label("Play Small Fibonacci");
    let groups = h.state().registry().groups();
    let number = groups
        .iter()
        .position(|(title, _)| *title == "Small Fibonacci")
        .unwrap()
        + 1;
    let keys = [
        Key::Num1,
        Key::Num2,
        Key::Num3,
        Key::Num4,
        Key::Num5,
        Key::Num6,
        Key::Num7,
        Key::Num8,
        Key::Num9,
    ];
    h.key_press(keys[number - 1]);
    h.run();
    assert_eq!(h.state().current_game(), Some("small-fib"));
    assert_eq!(cell_count(&h), 9);
    for key in [
        Key::ArrowLeft,
        Key::ArrowUp,
        Key::ArrowRight,
        Key::ArrowDown,
    ] {
        if move_count(&h, "small-fib") > 0 {
            break;
        }
        h.key_press(key);
        h.run();
    }
    assert!(move_count(&h, "small-fib") > 0);
    h.get_by_label("Hint");
    h.get_by_label("Autoplay").click();
    h.step();
    step_until(&mut h, Duration::from_secs(60), |h| {
        move_count(h, "small-fib") >= 4 || h.state().session("small-fib").unwrap().status().over
    });
}

#[test]
fn a_bad_file_is_one_notice_naming_file_and_field_and_the_good_ones_still_load() {
    let dir = temp_dir("player-variants-bad");
    write_variant(&dir, "my-fib.json", MY_FIB);
    write_variant(&dir, "too-big.json", SIDE_9);
    write_variant(&dir, "broken.json", "{\"format\": 1,");
    let h = harness(&dir, None);
    let notices = h.state().notices().to_vec();
    assert_eq!(notices.len(), 2, "{notices:?}");
    for (file, field) in [("broken.json", None), ("too-big.json", Some("side: "))] {
        let line = notices
            .iter()
            .find(|n| n.contains(&format!("variants/{file}")))
            .unwrap_or_else(|| panic!("{file}: {notices:?}"));
        assert!(!line.contains('\n'), "{line}");
        if let Some(field) = field {
            assert!(line.contains(field), "{line}");
        }
        // Shown in the launcher.
        h.get_by_label(line);
    }
    // The good one loads, the bad ones are left exactly as they were.
    assert!(h.state().registry().get("my-fib").is_some());
    assert!(h.state().registry().get("too-big").is_none());
    assert_eq!(
        std::fs::read_to_string(dir.join("variants/too-big.json")).unwrap(),
        SIDE_9
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("variants/broken.json")).unwrap(),
        "{\"format\": 1,"
    );
    let names: Vec<_> = std::fs::read_dir(dir.join("variants"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

/// A `variants` that is not a folder (a file, a named pipe, a symbolic link to nothing) is one
/// notice in the launcher, naming the folder, and the app starts with its own games. (The tests
/// run as root, for whom no folder is unreadable: a folder the system refuses to read goes the
/// same way, "it cannot be read (permission denied …)".)
#[cfg(unix)]
#[test]
fn a_variants_folder_that_is_not_one_is_a_notice_in_the_launcher() {
    /// A name, how to put it where the folder goes, and what the notice says.
    type Case = (&'static str, fn(&Path) -> bool, &'static str);
    let cases: [Case; 3] = [
        (
            "file",
            |p| std::fs::write(p, "{}").is_ok(),
            "it is a file, not a folder, so no variant is read",
        ),
        (
            "fifo",
            |p| {
                std::process::Command::new("mkfifo")
                    .arg(p)
                    .status()
                    .is_ok_and(|s| s.success())
            },
            "it is a named pipe (FIFO), not a folder, so no variant is read",
        ),
        (
            "dangling",
            |p| std::os::unix::fs::symlink(p.with_file_name("nowhere"), p).is_ok(),
            "which does not exist, so no variant is read",
        ),
    ];
    for (name, make, says) in cases {
        let dir = temp_dir(&format!("player-variants-folder-{name}"));
        assert!(make(&dir.join("variants")), "{name}");
        let h = harness(&dir, None);
        let notices = h.state().notices().to_vec();
        assert_eq!(notices.len(), 1, "{name}: {notices:?}");
        let line = &notices[0];
        assert!(
            line.starts_with("Variant folder variants/ not read: ") && line.contains(says),
            "{name}: {line}"
        );
        assert!(!line.contains('\n'), "{line}");
        // Shown in the launcher, and the built-ins are there.
        h.get_by_label(line);
        assert!(h.state().registry().get("2048").is_some());
    }
}

/// A chain of 3,000 files, each based on the next in name order, no longer aborts the app with
/// a stack overflow: it starts with every one of them and no notice.
#[test]
fn a_long_chain_of_based_on_starts_the_app() {
    const N: usize = 3000;
    let dir = temp_dir("player-variants-chain");
    for i in 0..N {
        let base = if i + 1 == N {
            "2048".to_string()
        } else {
            format!("c{:05}", i + 1)
        };
        write_variant(
            &dir,
            &format!("c{i:05}.json"),
            &format!(r#"{{"format": 1, "id": "c{i:05}", "based_on": "{base}"}}"#),
        );
    }
    let h = harness(&dir, None);
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    let registry = h.state().registry();
    assert!(registry.get("c00000").is_some() && registry.get("c02999").is_some());
    assert_eq!(group_of(registry, "c00000"), group_of(registry, "2048"));
}
