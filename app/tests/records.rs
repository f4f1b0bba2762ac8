//! Honest records (issue 14, part 6), played through the real app: a game with undo, a hint or
//! autoplay is assisted and keeps its figures apart; won never exceeds played; a game without a
//! move sets no best; the first release's scores read as unassisted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{harness, key_of, temp_dir};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use tilebox::store::scores::{SCORES_FILE, Scores};
use tilebox::store::storage::Storage;

/// The score table on disk in `dir`, once the app's writes are done.
fn on_disk(dir: &std::path::Path) -> Scores {
    common::settle();
    Scores::load(&Storage::new(dir)).0
}

/// Plays the four arrows in turn in game `id` until its score is over `above` or it ends (at
/// most `rounds` rounds).
fn play_past(h: &mut egui_kittest::Harness<'_, tilebox::TileboxApp>, id: &str, above: u64) {
    for _ in 0..300 {
        let s = h.state().session(id).unwrap();
        if s.score() > above || s.status().over {
            return;
        }
        for k in ["L", "D", "R", "U"] {
            h.key_press(key_of(k));
            h.run();
        }
    }
}

#[test]
fn an_undo_marks_the_game_assisted_and_its_later_score_does_not_raise_the_best() {
    let dir = temp_dir("assisted-undo");
    let mut h = harness(&dir, Some("2048"));
    assert!(!h.state().assisted("2048"));
    assert!(h.query_by_label_contains("Assisted").is_none());
    play_past(&mut h, "2048", 0);
    let best = h.state().scores().get("2048").best;
    assert!(best > 0);

    h.key_press(Key::U);
    h.run();
    assert!(h.state().assisted("2048"));
    // The mark in the bar, with why on hover and to a screen reader.
    h.get_by_label_contains("Assisted game: undo, a hint or autoplay");
    // A redo leaves it assisted.
    h.key_press_modifiers(Modifiers::SHIFT, Key::U);
    h.run();
    assert!(h.state().assisted("2048"));

    play_past(&mut h, "2048", best);
    let score = h.state().session("2048").unwrap().score();
    assert!(
        score > best,
        "the game ended at {score} before passing {best}"
    );
    let held = h.state().scores().get("2048");
    assert_eq!((held.best, held.assisted_best), (best, score));
    // The bar shows both: the unassisted best first.
    h.get_by_label(&format!("Best: {best} \u{b7} assisted {score}"));

    // A new game starts unassisted; the assisted one counts as an assisted game played.
    h.key_press(Key::N);
    h.run();
    h.get_by_label("Yes, start a new game").click();
    h.run();
    assert!(!h.state().assisted("2048"));
    assert!(h.query_by_label_contains("Assisted game").is_none());
    drop(h);

    let scores = on_disk(&dir);
    let stats = scores.get("2048");
    assert_eq!((stats.best, stats.played, stats.won), (best, 0, 0));
    assert_eq!((stats.assisted_best, stats.assisted_played), (score, 1));
    let json = common::read_json_file(&dir.join(SCORES_FILE));
    assert_eq!(json["games"]["2048"]["best"], best);
    assert_eq!(json["games"]["2048"]["assisted_best"], score);
}

#[test]
fn an_assisted_game_stays_assisted_after_a_restart_and_its_card_shows_both_bests() {
    let dir = temp_dir("assisted-restart");
    let best = {
        let mut h = harness(&dir, Some("2048"));
        play_past(&mut h, "2048", 0);
        h.key_press(Key::U);
        h.run();
        assert!(h.state().assisted("2048"));
        h.state().scores().get("2048").best
    };
    let mut h = harness(&dir, Some("2048"));
    assert!(h.state().assisted("2048"));
    play_past(&mut h, "2048", best);
    let score = h.state().session("2048").unwrap().score();
    assert!(score > best);
    drop(h);
    let mut h = harness(&dir, None);
    let registry = tilebox_games::registry();
    let lines = common::entry_card_lines(&mut h, &registry, "2048");
    let line = format!("Best {best} \u{b7} assisted {score}   ·   Played 0   ·   Won 0");
    assert!(lines.iter().any(|l| l.starts_with(&line)), "{lines:?}");
}

#[test]
fn a_hint_and_autoplay_mark_the_game_assisted() {
    let dir = temp_dir("assisted-hint");
    let mut h = harness(&dir, Some("2048"));
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    // Asking is what marks it, whatever the answer: the frames of the key, not the AI's search
    // (which, on a busy machine, outlasts the harness's bound on `run` while its spinner turns).
    h.step();
    assert!(h.state().assisted("2048"));

    let dir = temp_dir("assisted-autoplay");
    let mut h = harness(&dir, Some("threes"));
    assert!(!h.state().assisted("threes"));
    // Autoplay's moves keep coming, paced by the clock, so the frames never settle: the frame
    // of the key is what marks the game.
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(h.state().autoplay("threes"));
    assert!(h.state().assisted("threes"));
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(!h.state().autoplay("threes"));
    // Stopping autoplay does not make it unassisted.
    assert!(h.state().assisted("threes"));
}

#[test]
fn a_2048_win_in_a_game_that_goes_on_leaves_won_at_most_played() {
    let (session, last) = common::nearly_2048();
    let dir = temp_dir("won-played");
    let id = common::write_entry_save(&dir, &session);
    {
        let mut h = harness(&dir, Some(&id));
        h.key_press(key_of(&last));
        h.run();
        h.get_by_label("You win!");
        h.get_by_label("Keep going").click();
        h.run();
        assert!(!h.state().session(&id).unwrap().status().over);
        let held = h.state().scores().get(&id);
        assert_eq!((held.played, held.won), (1, 1));
        // The game goes on, and is then given up for a new one: still one game played.
        for k in ["L", "R"] {
            h.key_press(key_of(k));
            h.run();
        }
        h.key_press(Key::N);
        h.run();
        h.get_by_label("Yes, start a new game").click();
        h.run();
    }
    let json = common::read_json_file(&dir.join(SCORES_FILE));
    let game = &json["games"][&id];
    assert_eq!(
        (game["played"].as_u64(), game["won"].as_u64()),
        (Some(1), Some(1)),
        "{json}"
    );
}

#[test]
fn opening_threes_without_a_move_records_no_best() {
    let dir = temp_dir("no-move");
    let mut h = harness(&dir, Some("threes"));
    assert!(h.state().session("threes").unwrap().score() > 0);
    // Re-dealing with N (no question: nothing to lose) records nothing either.
    for _ in 0..3 {
        h.key_press(Key::N);
        h.run();
    }
    let held = h.state().scores().get("threes");
    assert_eq!((held.best, held.played), (0, 0));
    h.get_by_label("Best: 0");
    drop(h);
    let stats = on_disk(&dir).get("threes");
    assert_eq!((stats.best, stats.played, stats.assisted_best), (0, 0, 0));
    // Nor does a restart over the game with no move.
    let h = harness(&dir, None);
    assert_eq!(h.state().scores().get("threes").best, 0);
}

#[test]
fn the_first_releases_scores_load_as_unassisted() {
    let release =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/release-0.1.0");
    let dir = temp_dir("release-records");
    for file in ["scores.json", "settings.json"] {
        std::fs::copy(release.join(file), dir.join(file)).unwrap();
    }
    let mut h = harness(&dir, None);
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    let scores = common::read_json_file(&release.join(SCORES_FILE));
    let registry = tilebox_games::registry();
    for (id, stats) in scores["games"].as_object().unwrap() {
        let held = h.state().scores().get(id);
        let number = |field: &str| stats[field].as_u64().unwrap();
        assert_eq!(
            (held.best, held.played, held.won),
            (number("best"), number("played"), number("won")),
            "{id}"
        );
        assert_eq!(
            (held.assisted_best, held.assisted_played, held.assisted_won),
            (0, 0, 0),
            "{id}"
        );
        assert_eq!(held.assisted_lowest, None, "{id}");
        let lines = common::entry_card_lines(&mut h, &registry, id);
        assert!(
            !lines.iter().any(|l| l.contains("assisted")),
            "{id}: {lines:?}"
        );
    }
    // Nothing was rewritten: the file is the release's, byte for byte.
    drop(h);
    common::settle();
    assert_eq!(
        std::fs::read(dir.join(SCORES_FILE)).unwrap(),
        std::fs::read(release.join(SCORES_FILE)).unwrap()
    );
}
