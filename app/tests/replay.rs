//! The replay screen, driven by its keys: the game in progress watched from its start, move by
//! move and played to its end, without touching the player's game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::{Screen, TileboxApp};
use tilebox_core::{DynSession, Session};
use tilebox_sliding::Sliding;

/// A game of 2048 from `seed`, `n` moves into it, played by the tests' simple player.
fn game_of(seed: u64, n: usize) -> Session<Sliding> {
    let mut s = Session::<Sliding>::new(common::variant("2048"), seed).unwrap();
    for _ in 0..n {
        let mv = common::by_order(s.state()).unwrap();
        s.play(mv).unwrap();
    }
    s
}

/// `game` (of entry `id`) after its first `n` moves, as the app's sessions are.
fn after(game: &Session<Sliding>, id: &str, n: usize) -> Box<dyn DynSession> {
    let mut saved = game.save();
    saved.game = id.to_string();
    saved.moves.truncate(n);
    tilebox_games::registry()
        .get(id)
        .unwrap()
        .load(&saved)
        .unwrap()
}

/// The cells of the board of `state` (a `state_json()`) each speak on the screen.
fn assert_board_shown(h: &Harness<'_, TileboxApp>, state: &serde_json::Value) {
    for (r, row) in state["board"].as_array().unwrap().iter().enumerate() {
        for (c, value) in row.as_array().unwrap().iter().enumerate() {
            h.get_by_label(&common::expected_cell_label(r, c, value.as_u64().unwrap()));
        }
    }
}

fn position(h: &Harness<'_, TileboxApp>) -> (usize, usize) {
    h.state().replay().expect("a replay is shown").1
}

#[test]
fn the_game_in_progress_replays_step_by_step_and_to_its_end_untouched() {
    let dir = common::temp_dir("replay-progress");
    let game = game_of(7, 30);
    let id = common::write_entry_save(&dir, &game);
    let mut h = common::harness(&dir, Some(&id));
    let before = h.state().session(&id).unwrap().save();
    let scores_before = h.state().scores().get(&id);

    // The game says how to play a move; the replay, which takes none, does not.
    let how = "Arrow keys, WASD or hjkl, or swipe on the board";
    h.get_by_label(how);
    h.key_press_modifiers(Modifiers::SHIFT, Key::R);
    h.run();
    assert!(matches!(h.state().screen(), Screen::Replay(_)));
    assert!(h.query_by_label(how).is_none());
    let moves = game.moves().to_vec();
    assert_eq!(position(&h), (0, moves.len()));
    h.get_by_label(&tilebox::screens::replay::view::counter_text(
        0,
        moves.len(),
    ));
    let start = after(&game, &id, 0);
    assert_board_shown(&h, &start.state_json());

    // Forward by Right and by '.', back by Left and by ','.
    for (n, key) in [Key::ArrowRight, Key::Period, Key::ArrowRight, Key::Period]
        .into_iter()
        .enumerate()
    {
        h.key_press(key);
        h.run();
        let expected = after(&game, &id, n + 1);
        assert_eq!(position(&h), (n + 1, moves.len()));
        assert_eq!(h.state().replay().unwrap().0.text(), expected.text());
        assert_board_shown(&h, &expected.state_json());
        h.get_by_label(&tilebox::screens::replay::view::counter_text(
            n + 1,
            moves.len(),
        ));
    }
    h.key_press(Key::ArrowLeft);
    h.run();
    h.key_press(Key::Comma);
    h.run();
    assert_eq!(position(&h), (2, moves.len()));
    let two = after(&game, &id, 2);
    assert_board_shown(&h, &two.state_json());

    h.key_press(Key::End);
    h.run();
    assert_eq!(position(&h), (moves.len(), moves.len()));
    assert_eq!(h.state().replay().unwrap().0.score(), game.score());
    h.key_press(Key::Home);
    h.run();
    assert_eq!(position(&h), (0, moves.len()));

    // Faster, then play: it runs to the end on its own, at the game's score.
    let speed =
        tilebox::screens::replay::view::speed_text(tilebox::screens::replay::view::SPEEDS[3]);
    for _ in 0..4 {
        h.key_press(Key::Plus);
        h.run();
    }
    h.get_by_label(&tilebox::screens::replay::view::speed_text(
        tilebox::screens::replay::view::SPEEDS[6],
    ));
    h.key_press(Key::Minus);
    h.key_press(Key::Minus);
    h.key_press(Key::Minus);
    h.run();
    h.get_by_label(&speed);
    h.key_press(Key::Space);
    h.step();
    h.step();
    assert!(h.state().replay_playing());
    h.get_by_label(tilebox::screens::replay::view::PAUSE_LABEL);
    let mut frames = 0;
    while position(&h).0 < moves.len() {
        h.step();
        frames += 1;
        assert!(
            frames < 10 * moves.len(),
            "the replay stopped at {:?}",
            position(&h)
        );
    }
    h.run();
    assert!(!h.state().replay_playing());
    assert_eq!(h.state().replay().unwrap().0.score(), game.score());
    assert_eq!(
        h.state().replay().unwrap().0.text(),
        after(&game, &id, moves.len()).text()
    );

    // Escape leaves to the game, which is as it was.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().current_game(), Some(id.as_str()));
    assert_eq!(h.state().session(&id).unwrap().save(), before);
    assert_eq!(h.state().scores().get(&id), scores_before);
    common::settle();
    let on_disk: tilebox_core::SavedGame = serde_json::from_value(common::read_json_file(
        &dir.join(tilebox::store::saves::save_file_name(&id)),
    ))
    .unwrap();
    assert_eq!(on_disk.moves, before.moves);
}

#[test]
fn the_replay_buttons_play_pause_and_step() {
    let dir = common::temp_dir("replay-buttons");
    let game = game_of(11, 12);
    let id = common::write_entry_save(&dir, &game);
    let mut h = common::harness(&dir, Some(&id));
    h.get_by_label(tilebox::REPLAY_LABEL).click();
    h.run();
    assert_eq!(position(&h), (0, 12));
    h.get_by_label(tilebox::screens::replay::view::FORWARD_LABEL)
        .click();
    h.run();
    assert_eq!(position(&h), (1, 12));
    h.get_by_label(tilebox::screens::replay::view::END_LABEL)
        .click();
    h.run();
    assert_eq!(position(&h), (12, 12));
    h.get_by_label(tilebox::screens::replay::view::BACK_STEP_LABEL)
        .click();
    h.run();
    assert_eq!(position(&h), (11, 12));
    h.get_by_label(tilebox::screens::replay::view::START_LABEL)
        .click();
    h.run();
    assert_eq!(position(&h), (0, 12));
    h.get_by_label(tilebox::screens::replay::view::PLAY_LABEL)
        .click();
    h.step();
    h.step();
    assert!(h.state().replay_playing());
    h.get_by_label(tilebox::screens::replay::view::PAUSE_LABEL)
        .click();
    h.run();
    assert!(!h.state().replay_playing());
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().current_game(), Some(id.as_str()));
}
