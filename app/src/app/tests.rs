//! The shell's own tests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use super::*;
use crate::store::scores::SCORES_FILE;
use tilebox_core::date::Date;

fn app_over(dir: &std::path::Path) -> TileboxApp {
    TileboxApp::new(dir, None)
}

#[test]
fn a_daily_game_started_on_a_slot_is_kept_in_its_save_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let date = Date::new(2026, 11, 23).unwrap();
    let mut app = app_over(dir.path());
    let index = app.index_of("2048").unwrap();
    app.start_game(index, 12_345, Some(date));
    assert_eq!(app.slots[index].daily, Some(date));
    assert_eq!(app.session("2048").unwrap().save().seed, 12_345);
    assert!(app.flush_writes(QUIT_WAIT).is_empty());
    drop(app);

    let mut app = app_over(dir.path());
    let index = app.index_of("2048").unwrap();
    assert_eq!(app.slots[index].daily, Some(date));
    assert_eq!(app.session("2048").unwrap().save().seed, 12_345);
    // A new game is no daily game, and its fresh seed is below 2^40.
    app.new_game(index);
    assert_eq!(app.slots[index].daily, None);
    assert!(app.session("2048").unwrap().save().seed < 1 << 40);
    assert!(app.flush_writes(QUIT_WAIT).is_empty());
    drop(app);
    let app = app_over(dir.path());
    assert_eq!(app.slot_by_id("2048").unwrap().daily, None);
}

#[test]
fn a_new_best_sends_the_writer_the_game_alone_never_the_table() {
    // A table of many games, with unknown fields of a newer release at both levels.
    let dir = tempfile::tempdir().unwrap();
    let mut games = serde_json::Map::new();
    for i in 0..5_000 {
        games.insert(
            format!("old-{i:05}"),
            serde_json::json!({"best": i, "played": 1, "won": 0, "later": [i]}),
        );
    }
    let file = serde_json::json!({"version": 1, "games": games, "newer": {"a": 1}});
    std::fs::write(dir.path().join(SCORES_FILE), file.to_string()).unwrap();
    let mut app = app_over(dir.path());
    let index = app.index_of("2048").unwrap();
    app.start_game(index, 1, None);
    let before = crate::store::scores::whole::times();
    // Play until the score rises: every rise is a new best of 2048, sent to the writer.
    let mut bests = 0;
    while app.scores().get("2048").best < 16 {
        let legal = app.slots[index].session.as_ref().unwrap().legal_moves();
        let best = app.scores().get("2048").best;
        app.play(index, &legal[0], 0.0);
        bests += usize::from(app.scores().get("2048").best > best);
    }
    assert!(bests > 0);
    // The window's thread neither copied nor serialized the table for any of them.
    assert_eq!(crate::store::scores::whole::times(), before);
    assert!(app.flush_writes(QUIT_WAIT).is_empty());
    let best = app.scores().get("2048").best;
    drop(app);
    let on_disk: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(SCORES_FILE)).unwrap()).unwrap();
    // The writer wrote the new best into its copy of the whole table, every field kept.
    assert_eq!(on_disk["games"]["2048"]["best"], best);
    assert_eq!(on_disk["games"].as_object().unwrap().len(), 5_001);
    assert_eq!(
        on_disk["games"]["old-04321"]["later"],
        serde_json::json!([4321])
    );
    assert_eq!(on_disk["games"]["old-04321"]["best"], 4321);
    assert_eq!(on_disk["newer"], serde_json::json!({"a": 1}));
}

#[test]
fn starting_a_game_over_one_with_a_move_counts_it_as_played_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_over(dir.path());
    let index = app.index_of("2048").unwrap();
    app.start_game(index, 1, None);
    // Without a move, replacing it counts nothing.
    app.start_game(index, 2, None);
    assert_eq!(app.scores().get("2048").played, 0);
    let legal = app.slots[index].session.as_ref().unwrap().legal_moves();
    app.play(index, &legal[0], 0.0);
    app.start_game(index, 3, Some(Date::new(2026, 1, 2).unwrap()));
    assert_eq!(app.scores().get("2048").played, 1);
    assert_eq!(app.session("2048").unwrap().move_count(), 0);
}
