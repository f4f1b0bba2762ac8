//! Scores and games in progress on disk: atomic writes, unreadable files, resume, two writers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::{files_starting_with, harness, key_of, temp_dir};

/// How long a test lets the writer thread finish (it takes milliseconds).
const WAIT: std::time::Duration = std::time::Duration::from_secs(60);
use egui::Key;
use egui_kittest::kittest::Queryable;
use tilebox::TileboxApp;
use tilebox::store::scores::{SCORES_FILE, Scores};
use tilebox::store::storage::{Layout, Storage};

#[test]
fn an_atomic_write_leaves_the_old_or_the_new_file_never_a_broken_one() {
    let dir = temp_dir("atomic");
    let storage = Storage::new(&dir);
    let big = |n: u64| -> Scores {
        let mut s = Scores::default();
        for i in 0..2000 {
            s.entry(&format!("game{i}")).best = n;
        }
        s
    };
    let (a, b) = (big(1), big(2));
    storage.write_json(SCORES_FILE, &a, Layout::Pretty).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let storage = storage.clone();
        let stop = stop.clone();
        let (a, b) = (a.clone(), b.clone());
        std::thread::spawn(move || {
            let mut i = 0u32;
            while !stop.load(Ordering::Relaxed) {
                storage
                    .write_json(
                        SCORES_FILE,
                        if i.is_multiple_of(2) { &b } else { &a },
                        Layout::Pretty,
                    )
                    .unwrap();
                i += 1;
            }
            i
        })
    };
    for _ in 0..300 {
        let bytes = std::fs::read(dir.join(SCORES_FILE)).unwrap();
        let read: Scores = serde_json::from_slice(&bytes).expect("a whole file");
        assert!(read == a || read == b);
    }
    stop.store(true, Ordering::Relaxed);
    assert!(writer.join().unwrap() > 0);
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from(SCORES_FILE)]);
}

#[test]
fn a_write_that_dies_before_the_rename_leaves_the_old_file() {
    let dir = temp_dir("crash");
    let storage = Storage::new(&dir);
    storage
        .write_json("scores.json", &Scores::default(), Layout::Pretty)
        .unwrap();
    // What a kill between "write temporary file" and "rename" leaves: a half temporary file,
    // as the first release named them and as the tempfile crate names them now.
    std::fs::write(dir.join(".scores.json.tmp-1-2"), b"{\"version\":1,\"ga").unwrap();
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    std::fs::write(dir.join("saves/.2048.json.tmp-Xy12ab"), b"{\"format\":1").unwrap();
    // Files that are not the app's temporary files are never touched.
    let others = [
        ".notes.txt.tmp-1",
        "scores.json.bad-17",
        ".hidden",
        "scores.json.tmp-1",
    ];
    for name in others {
        std::fs::write(dir.join(name), name).unwrap();
    }
    let (scores, notice) = Scores::load(&storage);
    assert_eq!(scores, Scores::default());
    assert!(notice.is_none());
    // The next start removes the app's own temporary files, and only them.
    let app = TileboxApp::new(&dir, None);
    assert!(app.notices().is_empty(), "{:?}", app.notices());
    drop(app);
    assert!(!dir.join(".scores.json.tmp-1-2").exists());
    assert!(!dir.join("saves/.2048.json.tmp-Xy12ab").exists());
    for name in others {
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), name);
    }
}

#[test]
fn a_corrupt_score_file_is_moved_aside_and_the_launcher_says_so() {
    for (name, content) in [
        ("garbage", &b"\x00\x01 not json"[..]),
        (
            "truncated",
            &b"{\"version\":1,\"games\":{\"2048\":{\"best\":25"[..],
        ),
        ("no-version", &b"{\"games\":{}}"[..]),
    ] {
        let dir = temp_dir(name);
        std::fs::write(dir.join(SCORES_FILE), content).unwrap();
        let h = harness(&dir, None);
        let app = h.state();
        assert_eq!(app.scores(), &Scores::default(), "{name}");
        assert_eq!(app.notices().len(), 1, "{name}");
        h.get_by_label_contains("could not be read");
        let bad = files_starting_with(&dir, "scores.json.bad-");
        assert_eq!(bad.len(), 1, "{name}");
        assert_eq!(std::fs::read(&bad[0]).unwrap(), content, "{name}");
        assert!(!dir.join(SCORES_FILE).exists(), "{name}");
    }
}

#[test]
fn the_app_starts_fresh_after_a_corrupt_file_and_never_overwrites_it() {
    let dir = temp_dir("corrupt-play");
    std::fs::write(dir.join(SCORES_FILE), b"{oops").unwrap();
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    std::fs::write(
        dir.join("saves/2048.json"),
        b"{\"format\":1,\"game\":\"2048\"",
    )
    .unwrap();
    let mut h = harness(&dir, Some("2048"));
    assert_eq!(h.state().notices().len(), 2);
    // A fresh game was started and can be played; its score goes to a new file.
    while h.state().session("2048").unwrap().score() == 0 {
        for k in ["L", "D", "R", "U"] {
            h.key_press(key_of(k));
            h.run();
        }
    }
    assert!(h.state().session("2048").unwrap().move_count() > 0);
    assert!(h.state().flush_writes(WAIT).is_empty());
    let bad = files_starting_with(&dir, "scores.json.bad-");
    assert_eq!(std::fs::read(&bad[0]).unwrap(), b"{oops");
    assert_eq!(
        files_starting_with(&dir.join("saves"), "2048.json.bad-").len(),
        1
    );
    assert!(dir.join(SCORES_FILE).exists());
    assert!(dir.join("saves/2048.json").exists());
    h.key_press(Key::Escape);
    h.run();
    h.get_by_label_contains("The saved game of 2048 could not be read");
    h.get_by_label("Dismiss notice 1").click();
    h.run();
    assert_eq!(h.state().notices().len(), 1);
}

#[test]
fn a_save_that_does_not_replay_is_moved_aside() {
    let dir = temp_dir("bad-replay");
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    let save = r#"{"format":1,"game":"threes","params":{},"seed":5,"moves":["L","X"]}"#;
    std::fs::write(dir.join("saves/threes.json"), save).unwrap();
    let app = TileboxApp::new(&dir, None);
    assert!(app.session("threes").is_none());
    assert_eq!(app.notices().len(), 1);
    assert_eq!(
        files_starting_with(&dir.join("saves"), "threes.json.bad-").len(),
        1
    );
}

#[test]
fn a_game_resumes_with_its_undo_history_after_a_restart() {
    let dir = temp_dir("resume");
    let (text, moves) = {
        let mut h = harness(&dir, Some("2048"));
        for k in ["L", "D", "R", "U", "L", "D"] {
            h.key_press(key_of(k));
            h.run();
        }
        // One move undone: it stays redoable after the restart too.
        h.key_press(Key::U);
        h.run();
        let s = h.state().session("2048").unwrap();
        (s.text(), s.save())
    };
    assert!(moves.moves.len() >= 2, "{moves:?}");

    let mut h = harness(&dir, None);
    {
        let s = h.state().session("2048").unwrap();
        assert_eq!(s.text(), text);
        assert_eq!(s.save(), moves);
    }
    h.get_by_label_contains("In progress");
    // The 2048 card, then the 4×4 board's.
    h.key_press(Key::Num1);
    h.run();
    h.get_by_label_contains("In progress: score");
    h.key_press(Key::Num1);
    h.run();
    assert_eq!(h.state().current_game(), Some("2048"));
    h.key_press_modifiers(egui::Modifiers::SHIFT, Key::U);
    h.run();
    assert_eq!(
        h.state().session("2048").unwrap().move_count(),
        moves.moves.len() + 1
    );
    for _ in 0..=moves.moves.len() {
        h.key_press(Key::U);
        h.run();
    }
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);
}

#[test]
fn a_new_best_is_written_at_once() {
    let dir = temp_dir("best");
    let mut h = harness(&dir, Some("2048"));
    while h.state().session("2048").unwrap().score() == 0 {
        for k in ["L", "D", "R", "U"] {
            h.key_press(key_of(k));
            h.run();
        }
    }
    let score = h.state().session("2048").unwrap().score();
    assert!(h.state().flush_writes(WAIT).is_empty());
    common::settle();
    let (on_disk, _) = Scores::load(&Storage::new(&dir));
    assert!(on_disk.get("2048").best >= score);
    assert_eq!(on_disk.get("2048").played, 0);
}

#[test]
fn a_resumed_game_counts_for_the_best_even_when_the_score_file_was_lost() {
    let dir = temp_dir("best-from-save");
    let score = {
        let mut h = harness(&dir, Some("threes"));
        for k in ["L", "D", "R", "U", "L", "D", "R", "U"] {
            h.key_press(key_of(k));
            h.run();
        }
        h.state().session("threes").unwrap().score()
    };
    assert!(score > 0);
    std::fs::remove_file(dir.join(SCORES_FILE)).unwrap();

    let h = harness(&dir, None);
    assert_eq!(h.state().scores().get("threes").best, score);
    common::settle();
    let (on_disk, _) = Scores::load(&Storage::new(&dir));
    assert_eq!(on_disk.get("threes").best, score);
    assert_eq!(on_disk.get("threes").played, 0);
}

/// A 2048 game one move before its end, and that move.
fn nearly_over_2048() -> (tilebox_core::Session<tilebox_sliding::Sliding>, String) {
    use tilebox_sliding::Sliding;
    common::play_until::<Sliding>(
        Default::default(),
        7,
        common::first_legal::<Sliding>,
        |st| st.over,
    )
    .unwrap()
}

#[test]
fn a_game_counts_once_across_undo_quit_resume_and_redo() {
    let dir = temp_dir("count-once");
    let (session, last) = nearly_over_2048();
    common::write_save(&dir, &session.save());
    {
        let mut h = harness(&dir, Some("2048"));
        h.key_press(key_of(&last));
        h.run();
        assert_eq!(h.state().scores().get("2048").played, 1);
        h.get_by_label("Take back the last move").click();
        h.run();
    }
    // Quit, start again: the game resumes one move before its end, already counted.
    {
        let mut h = harness(&dir, Some("2048"));
        assert!(!h.state().session("2048").unwrap().status().over);
        h.key_press_modifiers(egui::Modifiers::SHIFT, Key::U);
        h.run();
        assert!(h.state().session("2048").unwrap().status().over);
        h.get_by_label("Game over");
        assert_eq!(h.state().scores().get("2048").played, 1);
        // A new game after it does not count it again either.
        h.get_by_label("Play again").click();
        h.run();
        assert_eq!(h.state().scores().get("2048").played, 1);
    }
    common::settle();
    let (on_disk, _) = Scores::load(&Storage::new(&dir));
    assert_eq!(on_disk.get("2048").played, 1);
}

#[test]
fn a_resumed_game_that_was_won_and_kept_going_does_not_announce_the_win_again() {
    let (session, last) = common::nearly_2048();
    let dir = temp_dir("resume-won");
    let id = common::write_entry_save(&dir, &session);
    {
        let mut h = harness(&dir, Some(&id));
        h.key_press(key_of(&last));
        h.run();
        h.get_by_label("You win!");
        h.get_by_label("Keep going").click();
        h.run();
    }
    let h = harness(&dir, Some(&id));
    assert!(h.state().session(&id).unwrap().status().won);
    assert!(h.query_by_label("You win!").is_none());
    assert_eq!(h.state().scores().get(&id).won, 1);
}

#[test]
fn a_score_file_that_can_be_neither_read_nor_moved_is_left_alone_and_the_game_says_so() {
    let dir = temp_dir("scores-kept");
    // A directory where scores.json should be: it can't be read as a file, nor written over.
    std::fs::create_dir_all(dir.join(SCORES_FILE).join("inside")).unwrap();
    let mut h = harness(&dir, Some("2048"));
    assert!(
        h.state()
            .notices()
            .iter()
            .any(|n| n.contains("could not be read")),
        "{:?}",
        h.state().notices()
    );
    // The first points make a best score; it can't be written, and the player is told at once.
    while h.state().session("2048").unwrap().score() == 0 {
        let mv = h.state().session("2048").unwrap().legal_moves()[0].clone();
        h.key_press(key_of(&mv));
        h.run();
    }
    h.get_by_label_contains("The scores could not be saved");
    assert!(dir.join(SCORES_FILE).join("inside").is_dir());
    // Said once in the launcher, however many moves fail to write.
    for _ in 0..4 {
        let mv = h.state().session("2048").unwrap().legal_moves()[0].clone();
        h.key_press(key_of(&mv));
        h.run();
    }
    let failures = h
        .state()
        .notices()
        .iter()
        .filter(|n| n.starts_with("The scores could not be saved"))
        .count();
    assert_eq!(failures, 1);
}

#[test]
fn a_save_of_another_game_is_moved_aside_with_the_engines_reason() {
    let dir = temp_dir("bad-format");
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    let other = r#"{"format":1,"game":"strike9","params":{},"seed":5,"moves":[]}"#;
    let older = r#"{"format":0,"game":"2048","params":{},"seed":5,"moves":[]}"#;
    std::fs::write(dir.join("saves/threes.json"), other).unwrap();
    std::fs::write(dir.join("saves/2048.json"), older).unwrap();
    let app = TileboxApp::new(&dir, None);
    assert!(app.session("threes").is_none() && app.session("2048").is_none());
    let notices = app.notices().join("\n");
    assert!(
        notices.contains("this save is for 'strike9', not 'threes'"),
        "{notices}"
    );
    assert!(
        notices.contains("format 0 is not supported (this build reads 1)"),
        "{notices}"
    );
    for name in ["threes.json.bad-", "2048.json.bad-"] {
        assert_eq!(files_starting_with(&dir.join("saves"), name).len(), 1);
    }
}

#[test]
fn every_entry_resumes_from_its_save_with_its_undo_and_redo_history() {
    let dir = temp_dir("resume-every");
    let registry = tilebox_games::registry();
    assert!(!registry.entries().is_empty());
    // Each entry's game: a few moves, the last one taken back (so there is one to redo).
    let mut games = Vec::new();
    for entry in registry.entries() {
        // A seed of the entry's own id, so that no entry's game changes when another is added.
        let seed = entry.id().bytes().fold(40u64, |seed, b| {
            seed.wrapping_mul(31).wrapping_add(u64::from(b))
        });
        let mut session = entry.new_session(seed).unwrap();
        for _ in 0..3 {
            let Some(mv) = session.legal_moves().first().cloned() else {
                break;
            };
            session.play_text(&mv).unwrap();
        }
        assert!(session.move_count() >= 2, "{}", entry.id());
        assert!(session.undo());
        let saved = session.save();
        assert_eq!(saved.game, entry.id());
        assert_eq!(saved.redo.len(), 1);
        common::write_save(&dir, &saved);
        games.push((saved, session.text()));
    }

    let h = harness(&dir, None);
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    for (saved, text) in &games {
        let s = h.state().session(&saved.game).unwrap();
        assert_eq!(s.save(), *saved);
        assert_eq!(s.text(), *text, "{}", saved.game);
    }
    drop(h);

    // In each game, redo plays the move taken back and undo takes moves back.
    for (saved, text) in &games {
        let id = saved.game.as_str();
        let mut h = harness(&dir, Some(id));
        assert_eq!(h.state().current_game(), Some(id));
        h.key_press_modifiers(egui::Modifiers::SHIFT, Key::U);
        h.run();
        let s = h.state().session(id).unwrap();
        assert_eq!(s.move_count(), saved.moves.len() + 1, "{id}");
        assert_eq!(s.last_move().as_ref(), saved.redo.first(), "{id}");
        assert!(!s.can_redo(), "{id}");
        h.key_press(Key::U);
        h.run();
        h.key_press(Key::U);
        h.run();
        let s = h.state().session(id).unwrap();
        assert_eq!(s.save().moves, saved.moves[..saved.moves.len() - 1], "{id}");
        assert_ne!(s.text(), *text, "{id}");
    }
}

/// The files the app of the previous release (0.1.0) wrote, as it wrote them.
fn release_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/release-0.1.0")
}

/// The previous release's saves: each file's name and content.
fn release_saves() -> Vec<(String, String)> {
    let mut saves: Vec<(String, String)> = std::fs::read_dir(release_dir().join("saves"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    saves.sort();
    saves
}

/// A data directory holding a copy of the previous release's files.
fn with_release_files(name: &str) -> common::TestDir {
    let dir = temp_dir(name);
    for file in ["scores.json", "settings.json"] {
        std::fs::copy(release_dir().join(file), dir.join(file)).unwrap();
    }
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    for (name, text) in release_saves() {
        std::fs::write(dir.join("saves").join(name), text).unwrap();
    }
    dir
}

#[test]
fn the_files_of_the_previous_release_load_unchanged() {
    let saves = release_saves();
    // The release had three games, each with a game in progress.
    assert_eq!(saves.len(), 3, "{saves:?}");
    let dir = with_release_files("release");
    let registry = tilebox_games::registry();

    // What each game must be: what the previous release's command-line tool printed for the
    // save's seed and moves (`cli/<game>.json`), and for them followed by the redo list
    // (`cli/<game>-redone.json`), not what today's engine makes of them.
    struct Expected {
        id: String,
        saved: tilebox_core::SavedGame,
        at: serde_json::Value,
        redone: serde_json::Value,
    }
    let expected: Vec<Expected> = saves
        .iter()
        .map(|(name, text)| {
            let saved: tilebox_core::SavedGame = serde_json::from_str(text).unwrap();
            assert_eq!(format!("{}.json", saved.game), *name);
            assert!(!saved.moves.is_empty() && !saved.redo.is_empty(), "{name}");
            assert!(registry.get(&saved.game).is_some(), "{name}");
            let cli = |file: String| common::read_json_file(&release_dir().join("cli").join(file));
            let at = cli(format!("{}.json", saved.game));
            let redone = cli(format!("{}-redone.json", saved.game));
            assert_eq!(at["seed"], saved.seed, "{name}");
            assert_eq!(at["moves"], saved.moves.len(), "{name}");
            assert_eq!(
                redone["moves"],
                saved.moves.len() + saved.redo.len(),
                "{name}"
            );
            Expected {
                id: saved.game.clone(),
                saved,
                at,
                redone,
            }
        })
        .collect();

    let mut h = harness(&dir, None);
    // Nothing is moved aside, and there is nothing to tell.
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    assert!(common::moved_aside(&dir).is_empty());
    // Loading writes nothing over the games and the settings.
    for (name, text) in &saves {
        let now = std::fs::read_to_string(dir.join("saves").join(name)).unwrap();
        assert_eq!(now, *text, "{name}");
    }
    assert_eq!(
        std::fs::read(dir.join("settings.json")).unwrap(),
        std::fs::read(release_dir().join("settings.json")).unwrap()
    );

    // The theme is the one in settings.json, on its button and in force.
    let settings = common::read_json_file(&release_dir().join("settings.json"));
    let theme: tilebox::store::settings::ThemeChoice =
        serde_json::from_value(settings["theme"].clone()).unwrap();
    assert_eq!(h.state().theme(), theme);
    h.get_by_label(theme.label());
    assert_eq!(h.ctx.options(|o| o.theme_preference), theme.preference());

    // Every game resumes where it was: the same board, the same moves.
    for e in &expected {
        let s = h.state().session(&e.id).unwrap();
        assert_eq!(s.move_count(), e.saved.moves.len(), "{}", e.id);
        assert_eq!(s.state_json(), e.at, "{}", e.id);
        assert_eq!(s.score(), e.at["score"].as_u64().unwrap(), "{}", e.id);
        assert!(s.can_redo(), "{}", e.id);
    }

    // The launcher shows the scores of scores.json (a game in progress with a higher score
    // would raise its best: none of these has one, but the rule is the app's).
    let scores = common::read_json_file(&release_dir().join("scores.json"));
    let games = scores["games"].as_object().unwrap();
    assert!(!games.is_empty());
    for (id, stats) in games {
        let number = |field: &str| stats[field].as_u64().unwrap();
        let resumed = expected
            .iter()
            .find(|e| e.id == *id)
            .map_or(0, |e| e.at["score"].as_u64().unwrap());
        let best = number("best").max(resumed);
        let (played, won) = (number("played"), number("won"));
        let held = h.state().scores().get(id);
        assert_eq!(
            (held.best, held.played, held.won),
            (best, played, won),
            "{id}"
        );
        let lines = common::entry_card_lines(&mut h, &registry, id);
        let line = format!("Best {best}   ·   Played {played}   ·   Won {won}");
        assert!(
            lines.iter().any(|l| l.starts_with(&line)),
            "{id}: {lines:?}"
        );
    }
    drop(h);

    // In each game, the redo list plays on to where the player had been, and undo takes it
    // all back again.
    for e in &expected {
        let id = e.id.as_str();
        let mut h = harness(&dir, Some(id));
        if !e.at["board"].is_null() {
            // The board on the screen is that board, cell by cell.
            common::assert_cells_speak(&h, id);
        }
        for _ in &e.saved.redo {
            h.key_press_modifiers(egui::Modifiers::SHIFT, Key::U);
            h.run();
        }
        let s = h.state().session(id).unwrap();
        assert_eq!(s.state_json(), e.redone, "{id}");
        assert_eq!(
            s.save().moves,
            [e.saved.moves.clone(), e.saved.redo.clone()].concat(),
            "{id}"
        );
        assert!(!s.can_redo(), "{id}");
        for _ in 0..e.saved.moves.len() + e.saved.redo.len() {
            h.key_press(Key::U);
            h.run();
        }
        let s = h.state().session(id).unwrap();
        assert_eq!(s.move_count(), 0, "{id}");
        assert_eq!(s.seed(), e.saved.seed, "{id}");
        assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    }
    assert!(common::moved_aside(&dir).is_empty());
}

#[test]
fn the_autoplay_speed_and_the_theme_survive_a_restart() {
    use tilebox::store::settings::Speed;
    let dir = temp_dir("speed");
    {
        let mut h = harness(&dir, Some("2048"));
        assert_eq!(h.state().autoplay_speed(), Speed::Normal);
        h.get_by_label(&tilebox::speed_label("Fast")).click();
        h.run();
        assert_eq!(h.state().autoplay_speed(), Speed::Fast);
        // The theme, from the bar's button (T).
        h.key_press(Key::T);
        h.run();
        assert!(h.state().flush_writes(WAIT).is_empty());
    }
    let settings = common::read_json_file(&dir.join("settings.json"));
    assert_eq!(settings["speed"], "fast", "{settings}");
    let theme = tilebox::store::settings::ThemeChoice::default().next();
    assert_eq!(settings["theme"], serde_json::to_value(theme).unwrap());
    // The app started again on the same data directory: the same speed and theme.
    let h = harness(&dir, Some("2048"));
    assert_eq!(h.state().autoplay_speed(), Speed::Fast);
    assert_eq!(h.state().theme(), theme);
}
