//! The launcher's cards from the keyboard and to a screen reader: Tab reaches every card (the
//! focused one is ringed) and Return opens it; each card's description reads out its game, its
//! best and its game in progress.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{harness, key_of, temp_dir};
use egui::Key;
use egui_kittest::kittest::{NodeT, Queryable};

fn description(h: &egui_kittest::Harness<'_, tilebox::TileboxApp>, label: &str) -> String {
    h.get_by_label(label)
        .accesskit_node()
        .description()
        .unwrap_or_default()
}

#[test]
fn a_card_reads_out_its_game_its_best_and_its_game_in_progress() {
    let dir = temp_dir("cards-speak");
    let mut h = harness(&dir, Some("threes"));
    for _ in 0..4 {
        let moves = h.state().session("threes").unwrap().legal_moves();
        let Some(mv) = moves.first() else { break };
        h.key_press(key_of(mv));
        h.run();
    }
    h.key_press(Key::Escape);
    h.run();
    let text = description(&h, "Play Threes");
    assert!(text.starts_with("Slide cards"), "{text:?}");
    assert!(text.contains("Best "), "{text:?}");
    let score = h.state().session("threes").unwrap().score();
    assert!(
        text.contains(&format!("In progress: score {score}")),
        "{text:?}"
    );
    assert!(description(&h, "Play Strike 9").contains("Best "));
}

#[test]
fn tab_reaches_a_card_and_return_opens_it() {
    let dir = temp_dir("cards-tab");
    let mut h = harness(&dir, None);
    let mut reached = false;
    for _ in 0..12 {
        h.key_press(Key::Tab);
        h.run();
        if h.get_by_label("Play Threes").accesskit_node().is_focused() {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached the Threes card");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().current_game(), Some("threes"));
}
