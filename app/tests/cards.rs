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

/// The launcher in a window `width` points wide, over `dir`.
fn launcher_at(
    dir: &std::path::Path,
    width: f32,
) -> egui_kittest::Harness<'static, tilebox::TileboxApp> {
    let dir = dir.to_path_buf();
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(width, 700.0))
        .with_max_steps(common::MAX_STEPS)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| tilebox::TileboxApp::new(dir, None));
    common::read_histories(&mut h);
    h.run();
    h
}

/// Checks that each card's line of figures on the screen, laid out as the card lays it out (its
/// width, its type), breaks between figures, never between a figure's name and its number
/// ("Played / 0"); returns how many lines were checked.
fn figures_kept_whole(h: &egui_kittest::Harness<'_, tilebox::TileboxApp>) -> usize {
    let mut checked = 0;
    for (text, rect) in common::spoken_all(h) {
        if !text.contains("Played") || text.starts_with("Play ") {
            continue;
        }
        let galley = h.ctx.fonts_mut(|f| {
            f.layout(
                text.clone(),
                egui::FontId::proportional(14.0),
                egui::Color32::WHITE,
                rect.width() + 0.5,
            )
        });
        for (i, row) in galley.rows.iter().enumerate() {
            let row_text: String = row.glyphs.iter().map(|g| g.chr).collect();
            let row_text = row_text.trim();
            assert!(
                i == 0 || !row_text.starts_with(|c: char| c.is_ascii_digit()),
                "a row begins with a number cut from its name: {row_text:?} of {text:?}"
            );
            for name in ["Best", "Played", "Won"] {
                assert!(!row_text.ends_with(name), "{row_text:?} of {text:?}");
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn at_380_px_a_cards_figures_keep_their_names_and_counts_have_thousands_separated() {
    // A first start: every count 0.
    let fresh = temp_dir("cards-figures-fresh");
    let h = launcher_at(&fresh, 380.0);
    assert!(figures_kept_whole(&h) >= 4, "every card's line was checked");
    let dir = temp_dir("cards-figures");
    std::fs::write(
        dir.join("scores.json"),
        r#"{"version": 1, "games": {"threes": {"best": 131072, "played": 20000, "won": 1234}}}"#,
    )
    .unwrap();
    let h = launcher_at(&dir, 380.0);
    // Written one way, the way the statistics write their counts of moves (1,750 million).
    let lines = common::card_lines(&h, "Play Threes");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Played 20,000   ·   Won 1,234")),
        "{lines:?}"
    );
    assert!(figures_kept_whole(&h) >= 4, "every card's line was checked");
}
