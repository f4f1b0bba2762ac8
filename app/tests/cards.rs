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

#[test]
fn a_card_of_several_versions_reads_its_first_versions_description() {
    // 2584 with a player's 5×5 version is a card of two versions, of the same kind as 2048: its
    // description is 2584's own, not the kind's (2048's).
    let dir = temp_dir("cards-group");
    let variants = dir.join("variants");
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(
        variants.join("my-fib.json"),
        r#"{"format": 1, "id": "my-fib", "title": "My Fibonacci", "description": "2584 on 5x5.", "based_on": "2584", "side": 5}"#,
    )
    .unwrap();
    let (registry, refused) = tilebox_games::registry_with_variants(&variants);
    assert!(refused.is_empty(), "{refused:?}");
    let h = common::harness_over(registry, &dir, None);
    let text = description(&h, "Play 2584");
    let own = common::variant("2584").description;
    assert!(text.starts_with(&own), "{text:?}");
    assert!(text.contains("2 versions"), "{text:?}");
}
