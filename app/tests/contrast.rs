//! Every text the app writes meets WCAG 2.1 AA contrast against what it is written on, in both
//! themes; controls stand out from the window; no text style is under 12 px at zoom 1.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use tilebox::ui::theme::{Palette, SMALLEST_TEXT, contrast, style};

#[test]
fn the_formula_matches_wcag() {
    let black = egui::Color32::BLACK;
    let white = egui::Color32::WHITE;
    assert!((contrast(black, white) - 21.0).abs() < 1e-9);
    assert!((contrast(white, white) - 1.0).abs() < 1e-9);
    // #767676 on white is the classic 4.54:1.
    let grey = egui::Color32::from_gray(0x76);
    assert!(
        (contrast(grey, white) - 4.54).abs() < 0.01,
        "{}",
        contrast(grey, white)
    );
}

#[test]
fn every_text_meets_aa_in_both_themes() {
    let mut failures = Vec::new();
    for dark in [false, true] {
        let palette = Palette::of(dark);
        let pairs = palette.text_pairs();
        assert!(pairs.len() > 20, "{pairs:?}");
        for pair in pairs {
            let needed = if pair.large { 3.0 } else { 4.5 };
            let ratio = contrast(pair.text, pair.background);
            if ratio < needed {
                failures.push(format!(
                    "{} theme, {}: {:?} on {:?} is {ratio:.2}:1, needs {needed}:1",
                    if dark { "dark" } else { "light" },
                    pair.what,
                    pair.text,
                    pair.background
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn buttons_and_the_focus_ring_stand_out_from_the_window() {
    for dark in [false, true] {
        for pair in Palette::of(dark).outline_pairs() {
            let ratio = contrast(pair.text, pair.background);
            assert!(ratio >= 3.0, "dark {dark}: {} is {ratio:.2}:1", pair.what);
        }
        // A button is filled and outlined, as a button, not bare text.
        let visuals = style(dark).visuals;
        assert!(visuals.button_frame);
        assert!(visuals.widgets.inactive.bg_stroke.width >= 1.0);
        assert_ne!(visuals.widgets.inactive.weak_bg_fill, visuals.panel_fill);
    }
}

#[test]
fn the_styles_use_the_palettes_colours() {
    for dark in [false, true] {
        let palette = Palette::of(dark);
        let visuals = style(dark).visuals;
        assert_eq!(visuals.dark_mode, dark);
        assert_eq!(visuals.text_color(), palette.text);
        assert_eq!(visuals.weak_text_color(), palette.weak);
        assert_eq!(visuals.panel_fill, palette.panel);
        assert_eq!(visuals.faint_bg_color, palette.card);
        assert_eq!(visuals.window_fill, palette.popup);
        assert_eq!(visuals.warn_fg_color, palette.warn);
        assert_eq!(visuals.widgets.inactive.text_color(), palette.text);
        assert_eq!(visuals.widgets.inactive.weak_bg_fill, palette.button);
        assert_eq!(visuals.selection.bg_fill, palette.selected);
    }
}

#[test]
fn no_text_style_is_under_12_px() {
    for dark in [false, true] {
        for (text_style, font) in &style(dark).text_styles {
            assert!(font.size >= SMALLEST_TEXT, "{text_style:?}: {}", font.size);
        }
    }
}

#[test]
fn the_focus_ring_is_drawn_on_every_control_and_stands_out_3_to_1_wherever_it_is() {
    use tilebox::ui::theme::FOCUS_WIDTH;
    for dark in [false, true] {
        let palette = Palette::of(dark);
        let pairs = palette.focus_pairs();
        // The window, a card, a card under the pointer, a dialog, the focused button's fill.
        assert!(pairs.len() >= 5, "{pairs:?}");
        for pair in pairs {
            let ratio = contrast(pair.text, pair.background);
            assert!(
                ratio >= 3.0,
                "{} theme: {} {:?} on {:?} is {ratio:.2}:1",
                if dark { "dark" } else { "light" },
                pair.what,
                pair.text,
                pair.background
            );
        }
        // egui draws a button, a choice and a field with the focus as active: its outline is
        // the ring, in the focus colour, as wide as the rings the app draws itself.
        let visuals = style(dark).visuals;
        let ring = visuals.widgets.active.bg_stroke;
        assert_eq!(ring.color, palette.focus, "dark {dark}");
        assert!(
            ring.width >= 2.0 && ring.width == FOCUS_WIDTH,
            "{}",
            ring.width
        );
        // Focus shows as more than a change of fill (#36363B to #48484F was 1.3:1).
        let fill_change = contrast(
            visuals.widgets.inactive.weak_bg_fill,
            visuals.widgets.active.weak_bg_fill,
        );
        assert!(contrast(ring.color, palette.button_active) > fill_change);
    }
}

#[test]
fn the_rising_score_gain_reads_at_4_5_to_1_until_it_fades_out() {
    use tilebox::ui::theme::{POP_READ, over};
    // Read for most of its rise (0.8 s): it once faded from its first moment, to 2.1:1 in the
    // light theme while it was still being read.
    const { assert!(POP_READ >= 0.5) };
    for dark in [false, true] {
        let palette = Palette::of(dark);
        // The score box is drawn in the card's colour; the gain rises inside it.
        let box_fill = style(dark).visuals.faint_bg_color;
        let mut last = f64::INFINITY;
        for step in 0..=100 {
            let p = step as f32 / 100.0;
            let ratio = contrast(over(palette.pop(p), box_fill), box_fill);
            if p <= POP_READ {
                assert!(
                    ratio >= 4.5,
                    "dark {dark}: at {p} of its rise, {ratio:.2}:1"
                );
            }
            assert!(
                ratio <= last + 1e-9,
                "dark {dark}: it fades, never darkens again"
            );
            last = ratio;
        }
        assert_eq!(palette.pop(1.0).a(), 0, "gone at the end of its rise");
    }
}
