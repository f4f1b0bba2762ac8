//! Colours: the light/dark preference, and egui's colours for the palettes the game kinds' front
//! ends give ([`tilebox_core::FrontEnd::tile_colors`]).

use egui::Color32;
use tilebox_core::Rgb;

const fn hex(rgb: u32) -> Color32 {
    Color32::from_rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

/// egui's colour for a front end's [`Rgb`].
pub const fn color(rgb: Rgb) -> Color32 {
    Color32::from_rgb(rgb.0, rgb.1, rgb.2)
}

/// The colour of hints: the arrow over a sliding board, the ring around Strike 9's best tiles.
/// A violet that no tile uses, readable on light and dark backgrounds.
pub const HINT: Color32 = hex(0x8a4fff);

/// The colours of the app's text and what it stands on, in one theme. Every pair of a text
/// colour and a background the app draws it on is in [`Palette::text_pairs`], which a test
/// holds to WCAG 2.1 AA contrast.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// Dark or light.
    pub dark: bool,
    /// The window's background.
    pub panel: Color32,
    /// Cards, score boxes and groups.
    pub card: Color32,
    /// A card under the pointer.
    pub card_hover: Color32,
    /// Dialogs.
    pub popup: Color32,
    /// A button at rest, under the pointer, and pressed.
    pub button: Color32,
    /// A button under the pointer.
    pub button_hover: Color32,
    /// A button pressed.
    pub button_active: Color32,
    /// The outline of buttons and cards (3:1 against the window: they look like buttons).
    pub outline: Color32,
    /// A selected button (and a card's number badge), and its text.
    pub selected: Color32,
    /// The text on a selected button.
    pub selected_text: Color32,
    /// Body text.
    pub text: Color32,
    /// Headings and strong text.
    pub strong: Color32,
    /// Secondary text (descriptions, the second line of the commentary).
    pub weak: Color32,
    /// Figures: bests, counts, what is in progress.
    pub figures: Color32,
    /// Messages (a refused move, a failed write).
    pub warn: Color32,
    /// The text that names a hint.
    pub hint_text: Color32,
    /// The keyboard focus ring.
    pub focus: Color32,
}

/// The light theme's colours.
pub const LIGHT: Palette = Palette {
    dark: false,
    panel: hex(0xf7f5f2),
    card: hex(0xebe7e1),
    card_hover: hex(0xe0dbd3),
    popup: hex(0xffffff),
    button: hex(0xdedad3),
    button_hover: hex(0xcfcac1),
    button_active: hex(0xbfb9ae),
    outline: hex(0x6e6a64),
    selected: hex(0x2f5fb3),
    selected_text: hex(0xffffff),
    text: hex(0x1c1b19),
    strong: hex(0x000000),
    weak: hex(0x4a4640),
    figures: hex(0x8a4b00),
    warn: hex(0x9c3d00),
    hint_text: hex(0x5b21b6),
    focus: hex(0x1d4ed8),
};

/// The dark theme's colours.
pub const DARK: Palette = Palette {
    dark: true,
    panel: hex(0x1b1b1d),
    card: hex(0x28282b),
    card_hover: hex(0x333337),
    popup: hex(0x232326),
    button: hex(0x36363b),
    button_hover: hex(0x404046),
    button_active: hex(0x48484f),
    outline: hex(0x8d8d95),
    selected: hex(0x2d5fb0),
    selected_text: hex(0xffffff),
    text: hex(0xe8e6e3),
    strong: hex(0xffffff),
    weak: hex(0xc2bfba),
    figures: hex(0xf0b35a),
    warn: hex(0xffb14d),
    hint_text: hex(0xc7a8ff),
    focus: hex(0x7fb0ff),
};

/// How much of its rise the score box's "+N" is meant to be read in, whole ([`Palette::pop`]):
/// the rest of the rise, it fades out.
pub const POP_READ: f32 = 0.6;

/// `top`, a colour with its alpha premultiplied, drawn over the opaque `bottom`.
pub fn over(top: Color32, bottom: Color32) -> Color32 {
    let clear = 1.0 - f32::from(top.a()) / 255.0;
    let mix = |t: u8, b: u8| {
        (f32::from(t) + f32::from(b) * clear)
            .round()
            .clamp(0.0, 255.0) as u8
    };
    Color32::from_rgb(
        mix(top.r(), bottom.r()),
        mix(top.g(), bottom.g()),
        mix(top.b(), bottom.b()),
    )
}

/// One text colour on one background, as the app draws it; `large` text (18 pt, or 14 pt bold:
/// 24 px, or 18.66 px bold) needs 3:1, the rest 4.5:1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextPair {
    /// What is written where, for the test's message.
    pub what: &'static str,
    /// The text's colour.
    pub text: Color32,
    /// The background's colour.
    pub background: Color32,
    /// Large text.
    pub large: bool,
}

impl Palette {
    /// The palette of the dark or the light theme.
    pub fn of(dark: bool) -> &'static Self {
        if dark { &DARK } else { &LIGHT }
    }

    /// The colour of the rising "+N" of the score box `p` (0 to 1) of the way through its
    /// rise: the figures' colour, whole while it is meant to be read (to [`POP_READ`]), then
    /// fading out over the rest of its rise.
    pub fn pop(&self, p: f32) -> Color32 {
        let fade = ((p - POP_READ) / (1.0 - POP_READ)).clamp(0.0, 1.0);
        self.figures.gamma_multiply(1.0 - fade)
    }

    /// Every text colour the app draws, on every background it draws it on.
    pub fn text_pairs(&self) -> Vec<TextPair> {
        let p = self;
        let pair = |what, text, background, large| TextPair {
            what,
            text,
            background,
            large,
        };
        let mut pairs = Vec::new();
        for (bg_name, bg) in [
            ("window", p.panel),
            ("card", p.card),
            ("card under the pointer", p.card_hover),
            ("dialog", p.popup),
        ] {
            let _ = bg_name;
            pairs.push(pair("body text", p.text, bg, false));
            pairs.push(pair("strong text", p.strong, bg, false));
            pairs.push(pair("secondary text", p.weak, bg, false));
            pairs.push(pair("figures", p.figures, bg, false));
            pairs.push(pair("message", p.warn, bg, false));
            pairs.push(pair("hint", p.hint_text, bg, false));
        }
        for bg in [p.button, p.button_hover, p.button_active] {
            pairs.push(pair("button text", p.text, bg, false));
            pairs.push(pair("key on a button", p.weak, bg, false));
        }
        // The rising "+N" on the score box, at the last moment it is meant to be read, as it
        // is drawn over the box.
        pairs.push(pair(
            "rising score gain",
            over(p.pop(POP_READ), p.card),
            p.card,
            false,
        ));
        pairs.push(pair("selected button", p.selected_text, p.selected, false));
        pairs.push(pair("card number", p.selected_text, p.selected, true));
        let s9 = Strike9Colors::of(p.dark);
        pairs.push(pair("Strike 9 open tile", s9.ink, s9.wood, true));
        pairs.push(pair(
            "Strike 9 tile under the pointer",
            s9.ink,
            s9.wood_hover,
            true,
        ));
        pairs.push(pair(
            "Strike 9 picked tile",
            s9.picked_text,
            s9.picked,
            true,
        ));
        pairs.push(pair(
            "Strike 9 tile out of reach",
            s9.out_ink,
            s9.out,
            false,
        ));
        pairs.push(pair("Strike 9 shut tile", s9.shut_ink, s9.shut, false));
        pairs.push(pair("Strike 9 dice total", s9.total, s9.felt, true));
        pairs
    }

    /// Non-text contrast (WCAG 1.4.11, 3:1): what must stand out from the window to be seen as
    /// a control: a button's outline, the focus ring.
    pub fn outline_pairs(&self) -> Vec<TextPair> {
        let p = self;
        let mut pairs: Vec<TextPair> = [p.panel, p.card]
            .map(|background| TextPair {
                what: "button outline",
                text: p.outline,
                background,
                large: true,
            })
            .to_vec();
        pairs.extend(self.focus_pairs());
        pairs
    }

    /// The focus ring (WCAG 2.4.7 and 1.4.11, 3:1) against every colour it is drawn beside: the
    /// window, a card (and a card under the pointer), a dialog, and the fill of the focused
    /// button it rings (egui draws a focused button as pressed).
    pub fn focus_pairs(&self) -> Vec<TextPair> {
        let p = self;
        [
            ("focus ring on the window", p.panel),
            ("focus ring on a card", p.card),
            ("focus ring on a card under the pointer", p.card_hover),
            ("focus ring on a dialog", p.popup),
            ("focus ring around a focused button", p.button_active),
        ]
        .into_iter()
        .map(|(what, background)| TextPair {
            what,
            text: p.focus,
            background,
            large: true,
        })
        .collect()
    }

    /// egui's visuals for this palette.
    pub fn visuals(&self) -> egui::Visuals {
        let p = self;
        let mut v = if p.dark {
            egui::Visuals::dark()
        } else {
            egui::Visuals::light()
        };
        v.panel_fill = p.panel;
        v.window_fill = p.popup;
        v.faint_bg_color = p.card;
        v.extreme_bg_color = p.popup;
        v.override_text_color = None;
        v.weak_text_color = Some(p.weak);
        v.warn_fg_color = p.warn;
        v.hyperlink_color = p.focus;
        v.button_frame = true;
        v.selection.bg_fill = p.selected;
        v.selection.stroke = egui::Stroke::new(1.5, p.selected_text);
        let w = &mut v.widgets;
        w.noninteractive.fg_stroke = egui::Stroke::new(1.0, p.text);
        w.noninteractive.bg_stroke = egui::Stroke::new(1.0, p.outline);
        w.noninteractive.bg_fill = p.panel;
        w.noninteractive.weak_bg_fill = p.card;
        for (widget, fill) in [
            (&mut w.inactive, p.button),
            (&mut w.hovered, p.button_hover),
            (&mut w.active, p.button_active),
            (&mut w.open, p.button_hover),
        ] {
            widget.bg_fill = fill;
            widget.weak_bg_fill = fill;
            widget.fg_stroke = egui::Stroke::new(1.5, p.text);
            widget.bg_stroke = egui::Stroke::new(1.0, p.outline);
        }
        w.hovered.bg_stroke = egui::Stroke::new(1.5, p.strong);
        w.active.fg_stroke = egui::Stroke::new(2.0, p.strong);
        // egui draws a focused control as an active one: its outline is the focus ring.
        w.active.bg_stroke = egui::Stroke::new(FOCUS_WIDTH, p.focus);
        v
    }
}

/// The width of the keyboard focus ring, in points.
pub const FOCUS_WIDTH: f32 = 2.5;

/// Shows where the keyboard's focus is on `response`, a control the app draws itself (a card,
/// a tile, the board, a text field): a ring in the focus colour just outside it, and the
/// scroll area it is in scrolled to it when it gains the focus. egui's own buttons get their
/// ring from the visuals ([`Palette::visuals`]) and are scrolled to by [`keep_focus_in_view`].
pub fn focus_ring(ui: &egui::Ui, response: &egui::Response) {
    if response.gained_focus() {
        response.scroll_to_me(None);
    }
    if response.has_focus() {
        ui.painter().rect_stroke(
            response.rect.expand(2.0),
            6.0,
            egui::Stroke::new(FOCUS_WIDTH, Palette::of(ui.visuals().dark_mode).focus),
            egui::StrokeKind::Outside,
        );
    }
}

/// Brings the control that gained the keyboard's focus in this frame into view, if it is in
/// the scroll area whose contents `ui` draws: called last in a scroll area's contents, so that
/// Tab never leaves the focus out of sight, whichever control has it.
pub fn keep_focus_in_view(ui: &egui::Ui) {
    let ctx = ui.ctx();
    let Some(focused) = ctx.memory(|m| m.focused()) else {
        return;
    };
    if let Some(response) = ctx.read_response(focused)
        && response.gained_focus()
        && response.layer_id == ui.layer_id()
        && ui.min_rect().contains_rect(response.rect)
    {
        ui.scroll_to_rect(response.rect, None);
    }
}

/// A count as the app writes it to the player, its thousands separated by commas: 41,793;
/// the one way every count shown is written (games played and won, streaks, moves).
pub fn thousands(n: impl std::fmt::Display) -> String {
    let text = n.to_string();
    let (sign, digits) = text.split_at(usize::from(text.starts_with('-')));
    let mut out = sign.to_string();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Where the dialog drawn last keeps the controls its keyboard focus cycles through.
fn trapped_focus_key() -> egui::Id {
    egui::Id::unique("tilebox-dialog-focus")
}

/// Traps the keyboard's focus in the dialog drawn now, whose controls are `controls`, in the
/// order Tab walks them (none for a dialog without one): in the next frame
/// [`hold_focus_in_dialog`] keeps the focus among them. Every dialog calls it each frame it is
/// drawn; of two drawn in one frame, the one drawn last, on top, has the focus.
pub fn trap_focus(ctx: &egui::Context, controls: Vec<egui::Id>) {
    ctx.data_mut(|d| d.insert_temp(trapped_focus_key(), controls));
}

/// Called at the start of each frame, before anything is drawn. While a dialog was open in the
/// last frame ([`trap_focus`]), the focus stays in it: Tab and Shift+Tab cycle through its
/// controls and never reach the screen behind, egui's own moves of the focus (Tab, the arrows)
/// are cancelled, and a focus that is somewhere else comes back to the dialog's first control,
/// so that Return and Space never act behind it.
pub fn hold_focus_in_dialog(ctx: &egui::Context) {
    let Some(controls) = ctx.data_mut(|d| d.remove_temp::<Vec<egui::Id>>(trapped_focus_key()))
    else {
        return;
    };
    let steps: Vec<bool> = ctx.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Key {
                    key: egui::Key::Tab,
                    pressed: true,
                    modifiers,
                    ..
                } if !modifiers.any() || modifiers.shift_only() => Some(!modifiers.shift),
                _ => None,
            })
            .collect()
    });
    ctx.memory_mut(|m| {
        m.move_focus(egui::FocusDirection::None);
        let focused = m.focused();
        let mut at = focused.and_then(|f| controls.iter().position(|&c| c == f));
        let count = controls.len();
        if count == 0 {
            if let Some(f) = focused {
                m.surrender_focus(f);
            }
            return;
        }
        for &forward in &steps {
            at = Some(match (at, forward) {
                (Some(i), true) => (i + 1) % count,
                (Some(i), false) => (i + count - 1) % count,
                (None, true) => 0,
                (None, false) => count - 1,
            });
        }
        // Focus behind the dialog comes back into it.
        if at.is_none() && focused.is_some() {
            at = Some(0);
        }
        if let Some(&control) = at.and_then(|i| controls.get(i))
            && focused != Some(control)
        {
            m.request_focus(control);
        }
    });
}

/// A dialog's contents, `add`, in a scroll area no taller than the window leaves room for:
/// in a small window (360×600, or zoomed in) a long dialog scrolls, and its first and last
/// lines can be reached.
///
/// A dialog's area lends its contents the size they had the frame before: a dialog that grows
/// (a refusal under a code's field) is given the whole room again, or its scroll area would keep
/// the old height and hide the buttons at its end, where a click closes the dialog.
pub fn dialog_scroll<R>(ui: &mut egui::Ui, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let room = ui.ctx().content_rect().height() - 96.0;
    ui.set_max_height(room.max(120.0));
    egui::ScrollArea::vertical()
        .id_salt("dialog-scroll")
        .max_height(room.max(120.0))
        .show(ui, add)
        .inner
}

/// The width a button with `text` takes in `ui`.
pub(crate) fn button_width(ui: &egui::Ui, text: &str) -> f32 {
    let galley = egui::WidgetText::from(text).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Button,
    );
    galley.size().x + 2.0 * ui.spacing().button_padding.x
}

/// A row of buttons, one per choice of `choices`, the one at `current` selected: a choice is
/// made with a click, or with Tab and then Space or Return, and never hides in a list that has
/// to be opened (as egui's drop-downs do, which answer no arrow and no Return). Each button's
/// accessible label is `spoken(choice)`, and it is said to be selected or not. Added to `ui`,
/// a row that wraps (`horizontal_wrapped`); a choice longer than the row wraps its text.
/// Returns the choice clicked.
pub fn choice_buttons<'a>(
    ui: &mut egui::Ui,
    choices: impl IntoIterator<Item = &'a str>,
    current: usize,
    spoken: impl Fn(&str) -> String,
) -> Option<usize> {
    let mut picked = None;
    let row = ui.max_rect().width();
    for (i, choice) in choices.into_iter().enumerate() {
        let selected = i == current;
        // A choice that fits a row moves to the next one whole; a longer one wraps.
        let mode = if button_width(ui, choice) > row {
            egui::TextWrapMode::Wrap
        } else {
            egui::TextWrapMode::Extend
        };
        let response = ui.add(egui::Button::new(choice).selected(selected).wrap_mode(mode));
        let label = spoken(choice);
        // A toggle button, said to be pressed or not (a radio button would promise arrows).
        response
            .widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, selected, &label));
        // The ring outside, with a gap: egui's own outline of a focused button lies on its
        // fill, which for the choice made is the selection's blue.
        focus_ring(ui, &response);
        if response.clicked() {
            picked = Some(i);
        }
    }
    picked
}

/// The colours of Strike 9's box, in one theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strike9Colors {
    /// The felt of the tray.
    pub felt: Color32,
    /// The dice's total, on the felt.
    pub total: Color32,
    /// An open tile's face and its number.
    pub wood: Color32,
    /// An open tile under the pointer.
    pub wood_hover: Color32,
    /// An open tile's edge.
    pub wood_edge: Color32,
    /// The number on an open tile.
    pub ink: Color32,
    /// A picked tile and its number.
    pub picked: Color32,
    /// A picked tile's edge.
    pub picked_edge: Color32,
    /// The number on a picked tile.
    pub picked_text: Color32,
    /// An open tile this roll can't use: the same wood, dimmed, still standing.
    pub out: Color32,
    /// Its number.
    pub out_ink: Color32,
    /// A shut tile: flipped face down, its back showing.
    pub shut: Color32,
    /// The number on a shut tile's back.
    pub shut_ink: Color32,
}

impl Strike9Colors {
    /// The colours of the dark or the light theme.
    pub fn of(dark: bool) -> Self {
        Self {
            felt: if dark { hex(0x1f4d33) } else { hex(0x2f6e4a) },
            total: hex(0xf5f0e0),
            wood: hex(0xf3e0b5),
            wood_hover: hex(0xfbecc8),
            wood_edge: hex(0xb88a4a),
            ink: hex(0x3a2a1a),
            picked: hex(0x3b8eea),
            picked_edge: hex(0x1d5fa8),
            picked_text: hex(0x0b1a33),
            out: hex(0xcdbf9f),
            out_ink: hex(0x5a4a36),
            shut: hex(0x5b3a1e),
            shut_ink: hex(0xd9c39a),
        }
    }
}

/// WCAG 2.1's contrast ratio of two colours, 1 to 21 (their alpha ignored), as the games'
/// palettes are measured ([`tilebox_core::Rgb::contrast`]).
pub fn contrast(a: Color32, b: Color32) -> f64 {
    let rgb = |c: Color32| tilebox_core::Rgb(c.r(), c.g(), c.b());
    rgb(a).contrast(rgb(b))
}

/// The smallest text the app writes at zoom 1, in points.
pub const SMALLEST_TEXT: f32 = 12.0;

/// The app's style in the dark or the light theme: its palette, and text no smaller than
/// [`SMALLEST_TEXT`].
pub fn style(dark: bool) -> egui::Style {
    use egui::{FontFamily, FontId, TextStyle};
    let mut style = egui::Style {
        visuals: Palette::of(dark).visuals(),
        ..egui::Style::default()
    };
    style.text_styles = [
        (
            TextStyle::Small,
            FontId::new(SMALLEST_TEXT + 1.0, FontFamily::Proportional),
        ),
        (TextStyle::Body, FontId::new(15.0, FontFamily::Proportional)),
        (
            TextStyle::Button,
            FontId::new(15.0, FontFamily::Proportional),
        ),
        (
            TextStyle::Monospace,
            FontId::new(14.0, FontFamily::Monospace),
        ),
        (
            TextStyle::Heading,
            FontId::new(22.0, FontFamily::Proportional),
        ),
    ]
    .into();
    style.spacing.button_padding = egui::vec2(10.0, 5.0);
    style.spacing.interact_size.y = 26.0;
    style
}

/// Gives `ctx` the app's styles, light and dark.
pub fn install(ctx: &egui::Context) {
    ctx.set_style_of(egui::Theme::Light, style(false));
    ctx.set_style_of(egui::Theme::Dark, style(true));
}

/// The zoom that follows the window: 1 up to a window of 760 × 900 points (at zoom 1), growing
/// with the window's smaller proportion beyond, up to [`MAX_AUTO_ZOOM`].
pub fn auto_zoom(window: egui::Vec2) -> f32 {
    (window.x / 760.0)
        .min(window.y / 900.0)
        .clamp(1.0, MAX_AUTO_ZOOM)
}

/// The most the window's size zooms the app.
pub const MAX_AUTO_ZOOM: f32 = 2.5;

/// The player's own zoom, on top of the window's: Ctrl+= (or Ctrl++) and Ctrl+- step it by a
/// tenth, Ctrl+0 resets it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Zoom {
    /// The player's zoom, 1 for none.
    pub player: f32,
}

impl Default for Zoom {
    fn default() -> Self {
        Self { player: 1.0 }
    }
}

impl Zoom {
    /// The player's zoom's limits.
    pub const RANGE: std::ops::RangeInclusive<f32> = 0.5..=3.0;

    /// The zoom of a player's `percent` (from settings), within [`Zoom::RANGE`].
    pub fn from_percent(percent: u32) -> Self {
        let player = (percent as f32 / 100.0).clamp(*Self::RANGE.start(), *Self::RANGE.end());
        Self { player }
    }

    /// The player's zoom as a whole percentage, for settings.
    pub fn percent(self) -> u32 {
        (self.player * 100.0).round() as u32
    }

    /// Reads this frame's zoom keys (taking them, so no game sees them) and sets `ctx`'s zoom to
    /// the window's times the player's. Returns true when the player's zoom changed.
    pub fn frame(&mut self, ctx: &egui::Context) -> bool {
        use egui::gui_zoom::kb_shortcuts::{ZOOM_IN, ZOOM_IN_SECONDARY, ZOOM_OUT, ZOOM_RESET};
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
        let before = self.player;
        ctx.input_mut(|i| {
            if i.consume_shortcut(&ZOOM_RESET) {
                self.player = 1.0;
            }
            if i.consume_shortcut(&ZOOM_IN) || i.consume_shortcut(&ZOOM_IN_SECONDARY) {
                self.player += 0.1;
            }
            if i.consume_shortcut(&ZOOM_OUT) {
                self.player -= 0.1;
            }
        });
        self.player =
            ((self.player * 10.0).round() / 10.0).clamp(*Self::RANGE.start(), *Self::RANGE.end());
        // The window's size at zoom 1: egui's screen is in zoomed points.
        let current = ctx.zoom_factor();
        let window = ctx.content_rect().size() * current;
        let wanted = auto_zoom(window) * self.player;
        if (wanted - current).abs() > 0.01 {
            ctx.set_zoom_factor(wanted);
        }
        self.player != before
    }
}

/// A font size at which `text` fits in a tile of side `side`, whatever its length.
pub fn tile_font_size(text: &str, side: f32) -> f32 {
    let len = text.chars().count().max(1) as f32;
    side * (0.5f32).min(1.1 / len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_numbers_get_smaller_fonts() {
        assert!(tile_font_size("131072", 100.0) * 6.0 * 0.6 < 100.0);
        assert!(tile_font_size("2", 100.0) <= 50.0);
    }
}
