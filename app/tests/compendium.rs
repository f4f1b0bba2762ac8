//! The 2048 Power Compendium's catalogue: one card on the launcher opens its modes under the
//! headings of its menu's pages; typing finds a mode by its name or number, the arrows move
//! from card to card and Return opens one; Escape clears what was typed, then goes back. At a
//! phone's 360 px and a desktop's 1920 px.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{card_count, temp_dir};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tilebox::TileboxApp;
use tilebox_sliding::{COMPENDIUM, COMPENDIUM_PAGES};

const CARD: &str = "Play 2048 Power Compendium";

/// The most games a group lists by number (the launcher's number keys, 1 to 9).
const NUMBERED: usize = 9;

fn harness_sized(
    name: &str,
    width: f32,
    height: f32,
) -> (common::TestDir, Harness<'static, TileboxApp>) {
    let dir = temp_dir(name);
    let app_dir = dir.to_path_buf();
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(width, height))
        .with_max_steps(40)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::new(app_dir, None));
    common::read_histories(&mut h);
    h.run();
    (dir, h)
}

fn press(h: &mut Harness<'static, TileboxApp>, keys: &[Key]) {
    for &k in keys {
        h.key_press(k);
        h.run();
    }
}

/// The modes in the Compendium's group of the real catalogue.
fn modes() -> usize {
    tilebox_games::registry()
        .entries()
        .iter()
        .filter(|e| e.info().group == COMPENDIUM)
        .count()
}

/// Everything shown (the title, the cards, their text) lies within the window's width.
fn cards_fit(h: &Harness<'static, TileboxApp>, width: f32) {
    for (text, rect) in common::spoken_all(h) {
        assert!(
            rect.left() >= 0.0 && rect.right() <= width + 0.5,
            "{text} at {rect:?} in a window {width} wide"
        );
    }
}

/// Tab to the catalogue's card (below the fold on a phone: the focus scrolls it into view),
/// then Return.
fn open_catalogue(h: &mut Harness<'static, TileboxApp>) {
    for _ in 0..20 {
        if h.get_by_label(CARD).accesskit_node().is_focused() {
            break;
        }
        press(h, &[Key::Tab]);
    }
    assert!(
        h.get_by_label(CARD).accesskit_node().is_focused(),
        "Tab reaches the card"
    );
    press(h, &[Key::Enter]);
}

fn typing_finds_a_mode_and_the_keys_open_it(width: f32, height: f32) {
    let (_dir, mut h) = harness_sized(&format!("compendium-{width}"), width, height);
    assert!(
        modes() > NUMBERED,
        "a catalogue has more games than numbers"
    );
    open_catalogue(&mut h);
    // Its pages under their headings, every mode a card.
    assert!(h.query_by_label(COMPENDIUM_PAGES[0]).is_some());
    assert_eq!(card_count(&h), modes());
    cards_fit(&h, width);

    // "3125" finds 3125, Harder 3125 and Interleaved 3125, and nothing else.
    press(&mut h, &[Key::Num3, Key::Num1, Key::Num2, Key::Num5]);
    for title in ["3125", "Harder 3125", "Interleaved 3125"] {
        assert!(
            h.query_by_label(&format!("Play {title}")).is_some(),
            "{title}"
        );
    }
    assert_eq!(card_count(&h), 3);
    assert!(h.query_by_label("Play 1296").is_none());
    cards_fit(&h, width);
    // Escape shows them all again (the games come back after the second, below).
    press(&mut h, &[Key::Escape]);
    assert_eq!(card_count(&h), modes());
    assert_eq!(h.state().current_game(), None);

    // A name typed after the arrows moved to a card, a space included: the card gives up the
    // focus (a space does not open it), and Return opens the first game found.
    press(&mut h, &[Key::ArrowDown, Key::ArrowDown]);
    press(
        &mut h,
        &[Key::H, Key::A, Key::R, Key::D, Key::E, Key::R, Key::Space],
    );
    assert_eq!(h.state().current_game(), None);
    assert_eq!(card_count(&h), 2, "Harder 3125, Harder 3375");
    press(&mut h, &[Key::Enter]);
    assert_eq!(h.state().current_game(), Some("harder-3125"));

    // Back on the catalogue (its filter cleared), the arrows move to the second card.
    press(&mut h, &[Key::Escape]);
    assert_eq!(card_count(&h), modes());
    press(&mut h, &[Key::ArrowDown, Key::ArrowDown, Key::Enter]);
    let second = tilebox_games::registry()
        .entries()
        .iter()
        .filter(|e| e.info().group == COMPENDIUM)
        .nth(1)
        .map(|e| e.id().to_string());
    assert_eq!(h.state().current_game().map(str::to_string), second);

    // Escape from the game, then from the catalogue: the games again.
    press(&mut h, &[Key::Escape, Key::Escape]);
    assert!(h.query_by_label(CARD).is_some());
    assert!(h.query_by_label(COMPENDIUM_PAGES[0]).is_none());
}

#[test]
fn at_360_px_typing_finds_a_mode_and_the_keys_open_it() {
    typing_finds_a_mode_and_the_keys_open_it(360.0, 720.0);
}

#[test]
fn at_1920_px_typing_finds_a_mode_and_the_keys_open_it() {
    typing_finds_a_mode_and_the_keys_open_it(1920.0, 1080.0);
}

#[test]
fn the_catalogues_card_names_its_first_modes() {
    let (_dir, h) = harness_sized("compendium-card", 600.0, 760.0);
    let text = h
        .get_by_label(CARD)
        .accesskit_node()
        .description()
        .unwrap_or_default();
    assert!(text.starts_with("2048, 3125, 1296"), "{text:?}");
    assert!(text.contains(&format!("{} versions", modes())), "{text:?}");
}

#[test]
fn at_380_px_a_name_with_a_plus_or_commas_is_found_by_typing_it() {
    let (_dir, mut h) = harness_sized("compendium-signs", 380.0, 720.0);
    open_catalogue(&mut h);
    // "16+16i", as typed: the plus with Shift (a US keyboard's Shift+=).
    press(&mut h, &[Key::Num1, Key::Num6]);
    h.key_press_modifiers(egui::Modifiers::SHIFT, Key::Plus);
    h.run();
    press(&mut h, &[Key::Num1, Key::Num6, Key::I]);
    assert!(h.query_by_label("Play 16+16i").is_some());
    assert_eq!(card_count(&h), 1);
    press(&mut h, &[Key::Escape]);
    // "3,188,646", commas and all; and "2216.838", its point.
    press(
        &mut h,
        &[
            Key::Num3,
            Key::Comma,
            Key::Num1,
            Key::Num8,
            Key::Num8,
            Key::Comma,
        ],
    );
    assert!(h.query_by_label("Play 3,188,646").is_some());
    assert_eq!(card_count(&h), 1);
    press(&mut h, &[Key::Escape]);
    press(
        &mut h,
        &[Key::Num2, Key::Num2, Key::Num1, Key::Num6, Key::Period],
    );
    assert!(h.query_by_label("Play 2216.838").is_some());
    assert_eq!(card_count(&h), 1);
    press(&mut h, &[Key::Enter]);
    assert_eq!(h.state().current_game(), Some("2216-838"));
}
