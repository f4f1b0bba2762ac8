//! "How to play": the controls every game shares, those of the assistant, and the panel (or,
//! in a small window, the page) that shows them with the game's rules. The rules of each game
//! are its front end's ([`tilebox_core::Entry::how_to_play`]).

use egui::{Key, RichText};
use tilebox_core::{DynSession, Entry};

use crate::slot::GameSlot;
use crate::views::GameView;

/// The heading of "How to play", and the bar's button that shows or hides it.
pub const HEADING: &str = "How to play";

/// The least height, in points, the board keeps beside "How to play": in a window with less
/// room under the bar, "How to play" is a page of its own instead of a panel under the board.
pub const BOARD_ROOM: f32 = 360.0;

/// The most of the room under the bar the panel under the board takes; it scrolls beyond.
const PANEL_SHARE: f32 = 0.4;

/// "How to play" as shown: the game's entry, its session and view, and which showing it is
/// (each opens at its top: its scroll is its own).
pub struct Shown<'a> {
    /// The game's entry.
    pub entry: &'a Entry,
    /// The game in progress, if it could start.
    pub session: Option<&'a dyn DynSession>,
    /// The game's view.
    pub view: &'a dyn GameView,
    /// How many times "How to play" was shown before, this one counted.
    pub time: u32,
}

impl<'a> Shown<'a> {
    /// "How to play" of the game of `slot`, as shown now.
    pub(crate) fn of(slot: &'a GameSlot) -> Self {
        Shown {
            entry: &slot.entry,
            session: slot.session.as_deref(),
            view: slot.view.as_ref(),
            time: slot.help_shown,
        }
    }
}

/// Shows "How to play" (`shown`) under the bar just drawn in `ui`, as a panel under the board
/// that scrolls, if the board keeps [`BOARD_ROOM`] beside it. Returns true if it does not:
/// "How to play" is then a page of its own in the board's place ([`page`]).
pub fn panel(ui: &mut egui::Ui, shown: &Shown<'_>) -> bool {
    let room = ui.available_rect_before_wrap().height();
    if room * (1.0 - PANEL_SHARE) < BOARD_ROOM {
        return true;
    }
    // Unfilled: the window is cleared to the panels' colour (`TileboxApp::clear_color`).
    let frame = egui::Frame::side_top_panel(ui.style()).fill(egui::Color32::TRANSPARENT);
    egui::Panel::bottom("game-help")
        .frame(frame)
        .resizable(false)
        .exact_size(room * PANEL_SHARE)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt(("game-help-scroll", shown.time))
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    contents(ui, shown.entry, shown.session, shown.view);
                    crate::ui::theme::keep_focus_in_view(ui);
                });
        });
    false
}

/// The page of "How to play" in the board's place, in a window too small for both: it opens at
/// its top and scrolls by the wheel, the arrows, Page Up, Page Down, Home and End; F1 (or the
/// bar's button) takes the board back.
pub fn page(ui: &mut egui::Ui, shown: &Shown<'_>) {
    let keys = scroll_keys(ui, ui.available_height());
    let mut area = egui::ScrollArea::vertical()
        .id_salt(("game-help-page", shown.time))
        .auto_shrink([false, false]);
    if let Some(offset) = keys.offset {
        area = area.vertical_scroll_offset(offset);
    }
    area.show(ui, |ui| {
        if keys.delta != 0.0 {
            ui.scroll_with_delta(egui::vec2(0.0, keys.delta));
        }
        contents(ui, shown.entry, shown.session, shown.view);
        if keys.to_end {
            ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
        }
        crate::ui::theme::keep_focus_in_view(ui);
    });
}

/// What this frame's keys do to the page of "How to play" of height `page`.
struct ScrollKeys {
    /// Scroll by this much (positive: towards the top).
    delta: f32,
    /// Scroll to this offset (Home).
    offset: Option<f32>,
    /// Scroll to the end (End).
    to_end: bool,
}

/// Reads (and takes) the keys that scroll the page of "How to play": the arrows up and down by
/// a line or two, Page Up and Page Down by a page, Home and End to either end.
fn scroll_keys(ui: &egui::Ui, page: f32) -> ScrollKeys {
    let step = 48.0;
    let page = (page - step).max(step);
    let mut keys = ScrollKeys {
        delta: 0.0,
        offset: None,
        to_end: false,
    };
    ui.input_mut(|i| {
        for (key, delta) in [
            (Key::ArrowUp, step),
            (Key::ArrowDown, -step),
            (Key::PageUp, page),
            (Key::PageDown, -page),
        ] {
            while i.consume_key(egui::Modifiers::NONE, key) {
                keys.delta += delta;
            }
        }
        if i.consume_key(egui::Modifiers::NONE, Key::Home) {
            keys.offset = Some(0.0);
        }
        if i.consume_key(egui::Modifiers::NONE, Key::End) {
            keys.to_end = true;
        }
    });
    keys
}

/// What "How to play" says: the heading, the entry's rules (which say how to play a move), the
/// view's own controls, the controls every game shares, and the assistant's, if the game has
/// one.
fn contents(
    ui: &mut egui::Ui,
    entry: &Entry,
    session: Option<&dyn DynSession>,
    view: &dyn GameView,
) {
    ui.add_space(4.0);
    ui.label(RichText::new(HEADING).strong());
    // Written from the entry's rules once, not every frame (Directional Merges and 1716 have
    // hundreds of rules, each shown by sliding an example).
    let key = egui::Id::unique(("how to play", entry.id()));
    let text = ui
        .ctx()
        .data(|d| d.get_temp::<String>(key))
        .unwrap_or_else(|| {
            let text = entry.how_to_play();
            ui.ctx().data_mut(|d| d.insert_temp(key, text.clone()));
            text
        });
    ui.add(egui::Label::new(text).wrap());
    if let Some(controls) = session.and_then(|s| view.controls_help(s)) {
        ui.add(egui::Label::new(controls).wrap());
    }
    ui.add_space(2.0);
    ui.add(egui::Label::new(RichText::new(COMMON_CONTROLS).small()).wrap());
    if let Some(assistant) = session.and_then(|s| s.assistant()) {
        let text = assist_controls(
            view.plain_h_hints(),
            view.hint_looks(),
            assistant.autoplays(),
            view.commentary_help(),
        );
        ui.add(egui::Label::new(RichText::new(text).small()).wrap());
    }
    ui.add_space(4.0);
}

/// The controls every game shares.
pub const COMMON_CONTROLS: &str = "N: new game (asks first when a game is in progress: Y yes, N or Escape no)\n\
Ctrl+Z or U: undo    Ctrl+Y or Shift+U: redo (without limit)\n\
Escape: back to the list you chose the game from (the game is kept)\n\
F1: show or hide How to play (in a small window it takes the board's place: the arrows, \
Page Up, Page Down, Home and End scroll it)    T: light / dark / system theme\n\
Shift+S: this game's statistics    Shift+R: replay the game in progress from its start\n\
Shift+C: this game's code, to share it (Return copies it)    Shift+D: today's daily game \
(the same for everyone; asks first when a game is in progress)\n\
Ctrl+= or Ctrl++: zoom in    Ctrl+-: zoom out    Ctrl+0: the window's own zoom\n\
In a message: Return gives the answer that has the focus (Keep going; Play again; No, keep \
playing), Tab moves between the answers, Escape keeps going or goes back";

/// The controls of the assistant, in the games that have one: how a hint is asked for and
/// what it looks like (`looks`, from the view), autoplay if the assistant plays on its own, and
/// what the lines under the board tell (`commentary`, from the view), if anything.
pub fn assist_controls(
    plain_h: bool,
    looks: &str,
    autoplays: bool,
    commentary: Option<&str>,
) -> String {
    let key = if plain_h { "H or Shift+H" } else { "Shift+H" };
    let mut text = format!("{key}: hint ({looks})");
    if autoplays {
        text.push_str(
            "    Shift+A: autoplay on or off (speed: the Slow, Normal and Fast buttons beside it)",
        );
    }
    if let Some(commentary) = commentary {
        text.push('\n');
        text.push_str(commentary);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_key_and_autoplay_follow_the_game() {
        let sliding = assist_controls(false, "an arrow", true, None);
        assert!(sliding.starts_with("Shift+H: hint (an arrow)"), "{sliding}");
        assert!(sliding.contains("Shift+A"), "{sliding}");
        assert!(!sliding.contains('\n'), "{sliding}");
        let plain = assist_controls(true, "rings", false, Some("The odds are shown."));
        assert!(plain.starts_with("H or Shift+H: hint (rings)"), "{plain}");
        assert!(!plain.contains("autoplay"), "{plain}");
        assert!(plain.ends_with("\nThe odds are shown."), "{plain}");
    }
}
