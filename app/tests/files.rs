//! Players' files under odd conditions: fields and versions of a newer Tilebox, files too large to
//! read, a data directory that is a file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::{harness, key_of, read_json_file, temp_dir};
use egui::Key;
use egui_kittest::kittest::Queryable;
use serde_json::json;
use tilebox::TileboxApp;
use tilebox::store::storage::{MAX_FILE_BYTES, Storage};

const WAIT: Duration = Duration::from_secs(60);

/// A 2048 save of `seed` with no move, as JSON, with `extra` fields added at the top.
fn save_json(seed: u64, extra: serde_json::Value) -> serde_json::Value {
    let session = tilebox_games::registry()
        .get("2048")
        .unwrap()
        .new_session(seed)
        .unwrap();
    let mut save = serde_json::to_value(session.save()).unwrap();
    for (k, v) in extra.as_object().unwrap() {
        save[k] = v.clone();
    }
    save
}

fn write(path: &Path, value: &serde_json::Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

/// Plays moves in 2048 until its score is above 0 (a new best, so the table is written).
fn score_something(h: &mut egui_kittest::Harness<'_, TileboxApp>) {
    while h.state().session("2048").unwrap().score() == 0 {
        for k in ["L", "D", "R", "U"] {
            h.key_press(key_of(k));
            h.run();
        }
    }
}

#[test]
fn fields_this_build_does_not_know_survive_every_rewrite() {
    let dir = temp_dir("unknown-fields");
    let future = json!({"colour": "teal", "nested": {"a": [1, 2, {"b": null}]}});
    write(
        &dir.join("scores.json"),
        &json!({"version": 1, "games": {"threes": {"best": 5, "played": 1, "won": 0,
            "streak": 4, "history": [1, 2]}}, "profile": future}),
    );
    write(
        &dir.join("settings.json"),
        &json!({"version": 1, "theme": "dark", "sound": {"volume": 3}}),
    );
    write(
        &dir.join("saves/2048.json"),
        &save_json(11, json!({"notes": future, "timer": 12.5})),
    );

    let mut h = harness(&dir, Some("2048"));
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    // A move rewrites the save; the first points rewrite the table; T rewrites the settings.
    score_something(&mut h);
    h.key_press(Key::T);
    h.run();
    assert!(h.state().flush_writes(WAIT).is_empty());

    let scores = read_json_file(&dir.join("scores.json"));
    assert_eq!(scores["profile"], future);
    assert_eq!(scores["games"]["threes"]["streak"], 4);
    assert_eq!(scores["games"]["threes"]["history"], json!([1, 2]));
    assert_eq!(scores["games"]["threes"]["best"], 5);
    assert!(scores["games"]["2048"]["best"].as_u64().unwrap() > 0);
    let settings = read_json_file(&dir.join("settings.json"));
    assert_eq!(settings["sound"], json!({"volume": 3}));
    assert_ne!(settings["theme"], "dark");
    let save = read_json_file(&dir.join("saves/2048.json"));
    assert_eq!(save["notes"], future);
    assert_eq!(save["timer"], 12.5);
    assert!(!save["moves"].as_array().unwrap().is_empty());
    assert!(common::moved_aside(&dir).is_empty());
}

#[test]
fn files_a_newer_tilebox_wrote_are_left_untouched_and_said_so() {
    let dir = temp_dir("newer");
    let scores = json!({"version": 2, "games": {"2048": {"best": 8, "played": 1, "won": 0}},
        "new_thing": true});
    let settings = json!({"version": 2, "theme": "dark"});
    let save = save_json(12, json!({"format": 2, "undo_limit": 5}));
    write(&dir.join("scores.json"), &scores);
    write(&dir.join("settings.json"), &settings);
    write(&dir.join("saves/2048.json"), &save);
    let bytes = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let before = ["scores.json", "settings.json", "saves/2048.json"].map(bytes);

    let mut h = harness(&dir, Some("2048"));
    let notices = h.state().notices().to_vec();
    assert_eq!(notices.len(), 3, "{notices:?}");
    for (what, file) in [
        ("The score table (scores.json)", "scores.json"),
        ("The settings (settings.json)", "settings.json"),
        ("The saved game of 2048", "saves/2048.json"),
    ] {
        let expected = format!(
            "{what} was written by a newer Tilebox (version 2; this one reads version 1). It is \
             left as it is at {}, and nothing is written to it until you quit.",
            dir.join(file).display()
        );
        assert!(
            notices.iter().any(|n| n.starts_with(&expected)),
            "{expected}\n{notices:?}"
        );
    }
    assert!(
        notices
            .iter()
            .any(|n| n.ends_with("The game can be looked at but not played."))
    );
    // What this build reads of them is shown: the theme, the best, the game.
    assert_eq!(
        h.state().theme(),
        tilebox::store::settings::ThemeChoice::Dark
    );
    assert_eq!(h.state().scores().get("2048").best, 8);
    let session = h.state().session("2048").unwrap();
    assert_eq!(session.seed(), 12);
    // The game is looked at, not played; a new game is not started over it either.
    for key in [Key::ArrowLeft, Key::ArrowDown, Key::N] {
        h.key_press(key);
        h.run();
    }
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);
    assert_eq!(h.state().session("2048").unwrap().seed(), 12);
    h.get_by_label_contains("A newer Tilebox saved this game");
    // Other games play and save as usual; the theme changes for this run only.
    h.key_press(Key::Escape);
    h.run();
    h.key_press(Key::T);
    h.run();
    assert!(h.state().flush_writes(WAIT).is_empty());
    drop(h);
    let mut h = harness(&dir, Some("threes"));
    for k in ["L", "D", "R", "U"] {
        h.key_press(key_of(k));
        h.run();
    }
    assert!(h.state().flush_writes(WAIT).is_empty());
    drop(h);
    assert!(dir.join("saves/threes.json").exists());
    let after = ["scores.json", "settings.json", "saves/2048.json"].map(bytes);
    assert_eq!(before, after);
    assert!(common::moved_aside(&dir).is_empty());
}

/// Makes `path` a file of `len` bytes (sparse: nothing is written).
fn sparse(path: &Path, len: u64, head: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::File::create(path).unwrap();
    use std::io::Write;
    (&file).write_all(head).unwrap();
    file.set_len(len).unwrap();
}

#[test]
fn a_file_over_the_limit_is_not_read_and_is_kept_byte_identical() {
    let dir = temp_dir("too-large");
    let len = MAX_FILE_BYTES + 1;
    sparse(&dir.join("scores.json"), len, b"{\"version\":1,\"games\":{");
    sparse(&dir.join("saves/2048.json"), len, b"{\"format\":1,");
    let h = harness(&dir, None);
    let notices = h.state().notices().to_vec();
    assert_eq!(notices.len(), 2, "{notices:?}");
    for n in &notices {
        assert!(
            n.contains(
                "(it is 32.0 MB, larger than the 32.0 MB a Tilebox file can be, so it was not read)"
            ),
            "{n}"
        );
    }
    assert!(h.state().session("2048").is_none());
    drop(h);
    for (dir, name) in [
        (dir.to_path_buf(), "scores.json"),
        (dir.join("saves"), "2048.json"),
    ] {
        let moved = common::files_starting_with(&dir, &format!("{name}.bad-"));
        assert_eq!(moved.len(), 1, "{name}");
        let kept = std::fs::read(&moved[0]).unwrap();
        assert_eq!(kept.len() as u64, len, "{name}");
        let head: &[u8] = if name == "scores.json" {
            b"{\"version\":1,\"games\":{"
        } else {
            b"{\"format\":1,"
        };
        assert!(kept.starts_with(head));
        assert!(kept[head.len()..].iter().all(|&b| b == 0), "{name}");
    }
}

#[test]
fn a_save_of_a_million_moves_is_under_the_limit() {
    // A million moves played and a million to redo, each as long as the longest move any game
    // offers at its start (2048 and Threes, the games that go on that long, have one-letter
    // moves; Strike 9's tile sets are longer, and its games are a dozen moves).
    let registry = tilebox_games::registry();
    let mut longest = 0;
    for entry in registry.entries() {
        let session = entry.new_session(1).unwrap();
        for mv in session.legal_moves() {
            longest = longest.max(mv.len());
        }
    }
    assert!(longest >= 3, "{longest}");
    let million = vec!["9".repeat(longest); 1_000_000];
    let session = registry.get("2048").unwrap().new_session(1).unwrap();
    let mut save = session.save();
    save.moves = million.clone();
    save.redo = million;
    let size = serde_json::to_vec(&save).unwrap().len() as u64;
    assert!(size < MAX_FILE_BYTES, "{size}");
    // The one-letter moves of 2048: a tenth of the limit.
    save.moves = vec!["L".to_string(); 1_000_000];
    save.redo = Vec::new();
    let size = serde_json::to_vec(&save).unwrap().len() as u64;
    assert!(size * 8 < MAX_FILE_BYTES, "{size}");
}

#[test]
fn a_data_folder_that_is_a_file_is_one_notice_in_words() {
    let base = temp_dir("dir-is-file");
    let dir = base.join("tilebox");
    std::fs::write(&dir, b"I am a file").unwrap();
    let reason = match tilebox::store::lock::DataDirLock::acquire(&dir) {
        Err(e @ tilebox::store::lock::LockError::Unusable(_)) => e.to_string(),
        other => panic!("{other:?}"),
    };
    let writer = tilebox::store::writer::Writer::start(Storage::unusable(&dir, reason.clone()));
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .build_eframe(move |_cc| {
            TileboxApp::with_writer(tilebox_games::registry(), writer, Some("2048"))
        });
    h.run();
    for k in ["L", "D", "R", "U"] {
        h.key_press(key_of(k));
        h.run();
    }
    assert!(h.state().session("2048").unwrap().move_count() > 0);
    assert_eq!(h.state().notices(), std::slice::from_ref(&reason));
    assert!(
        reason.starts_with(&format!("{} is a file, not a folder", dir.display())),
        "{reason}"
    );
    h.key_press(Key::Escape);
    h.run();
    h.get_by_label_contains("is a file, not a folder");
    assert_eq!(std::fs::read(&dir).unwrap(), b"I am a file");
}
