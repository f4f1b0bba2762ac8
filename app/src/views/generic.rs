//! The plain view of a game with no view of its own: its text form and one button per legal
//! move, so that a newly registered game can be played before it gets a board. A hint, for a
//! kind with an assistant, is named under the moves.

use egui::RichText;
use tilebox_core::DynSession;

use super::{GameView, PlayInput, ViewOutcome};
use crate::ui::input::KeyPress;
use crate::ui::theme;

/// The most move buttons shown.
const MAX_BUTTONS: usize = 60;

/// The accessible label of the button that plays `mv`.
pub fn move_label(mv: &str) -> String {
    format!("Move {mv}")
}

/// The line under the moves that names the hinted move `mv`.
pub fn hint_label(mv: &str) -> String {
    format!("Hint: {mv}")
}

/// The plain view: it keeps only the hint shown.
#[derive(Debug, Default, Clone)]
pub struct GenericView {
    hint: Option<String>,
}

impl GameView for GenericView {
    fn show(
        &mut self,
        ui: &mut egui::Ui,
        session: &dyn DynSession,
        _keys: &[KeyPress],
        accepts_moves: bool,
    ) -> ViewOutcome {
        let mut out = ViewOutcome::default();
        let top = ui.cursor().min;
        ui.label(RichText::new(session.text()).monospace().size(18.0));
        ui.add_space(8.0);
        ui.horizontal_wrapped(|ui| {
            for mv in session.legal_moves().into_iter().take(MAX_BUTTONS) {
                if ui
                    .add_enabled(accepts_moves, egui::Button::new(move_label(&mv)))
                    .clicked()
                {
                    out.player_moved = true;
                    out.moves.push(mv);
                }
            }
        });
        if let Some(mv) = &self.hint {
            ui.label(
                RichText::new(hint_label(mv))
                    .size(16.0)
                    .strong()
                    .color(theme::Palette::of(ui.visuals().dark_mode).hint_text),
            );
        }
        out.board = Some(egui::Rect::from_min_max(
            top,
            ui.cursor().min.max(top + egui::vec2(300.0, 120.0)),
        ));
        out
    }

    fn reset(&mut self) {
        self.hint = None;
    }

    fn show_hint(&mut self, mv: &str, _trained: bool) {
        self.hint = Some(mv.to_string());
    }

    fn hint_label(&self, mv: &str) -> Option<String> {
        Some(hint_label(mv))
    }

    fn inputs_for(&self, mv: &str) -> Vec<PlayInput> {
        vec![PlayInput::Click(move_label(mv))]
    }
}
