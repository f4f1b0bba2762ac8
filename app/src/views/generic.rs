//! The plain view of a game with no view of its own: its text form and one button per legal
//! move, so that a newly registered game can be played before it gets a board.

use egui::RichText;
use tilebox_core::DynSession;

use super::ViewOutcome;

/// The most move buttons shown.
const MAX_BUTTONS: usize = 60;

/// Draws the text of the game and a button per legal move.
pub fn show(ui: &mut egui::Ui, session: &mut dyn DynSession, accepts_moves: bool) -> ViewOutcome {
    let mut out = ViewOutcome::default();
    let top = ui.cursor().min;
    ui.label(RichText::new(session.text()).monospace().size(18.0));
    ui.add_space(8.0);
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        for mv in session.legal_moves().into_iter().take(MAX_BUTTONS) {
            if ui
                .add_enabled(accepts_moves, egui::Button::new(format!("Move {mv}")))
                .clicked()
            {
                chosen = Some(mv);
            }
        }
    });
    if let Some(mv) = chosen {
        out.player_moved = true;
        match session.play_text(&mv) {
            Ok(n) => out.played = n > 0,
            Err(e) => out.message = Some(e.to_string()),
        }
    }
    out.board = Some(egui::Rect::from_min_max(
        top,
        ui.cursor().min.max(top + egui::vec2(300.0, 120.0)),
    ));
    out
}
