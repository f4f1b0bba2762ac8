//! The statistics screen, opened from the launcher and from a game, driven by its keys.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use tilebox::{Screen, TileboxApp};

fn index_of(h: &egui_kittest::Harness<'_, TileboxApp>, id: &str) -> usize {
    h.state()
        .registry()
        .entries()
        .iter()
        .position(|e| e.id() == id)
        .unwrap()
}

#[test]
fn an_entry_with_no_history_shows_the_empty_state_from_the_launcher_and_back() {
    let dir = common::temp_dir("stats-empty");
    let mut h = common::harness(&dir, None);
    // Threes is a game of its own: its card in the launcher has its statistics.
    let title = h
        .state()
        .registry()
        .get("threes")
        .unwrap()
        .title()
        .to_string();
    h.get_by_label(&tilebox::launcher::stats_label(&title))
        .click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index_of(&h, "threes")));
    h.get_by_label(&format!("Statistics: {title}"));
    h.get_by_label(tilebox::stats_view::EMPTY_TEXT);
    assert!(
        h.query_by_label(tilebox::stats_view::REPLAY_BEST_LABEL)
            .is_none()
    );
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);
    // No game was started by looking.
    assert!(h.state().session("threes").is_none());
}

#[test]
fn the_statistics_open_from_a_game_by_key_and_by_its_button_and_go_back_to_it() {
    let dir = common::temp_dir("stats-from-game");
    let mut h = common::harness(&dir, Some("2048"));
    let index = index_of(&h, "2048");
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index));
    h.get_by_label(tilebox::stats_view::EMPTY_TEXT);
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Game(index));
    h.get_by_label(tilebox::STATS_LABEL).click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Game(index));
}
