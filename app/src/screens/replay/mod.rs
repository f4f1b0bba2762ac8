//! The replay screen: a game watched from its start (`view::Replay` steps and draws
//! it); Back leaves it (the shell returns to the screen it was opened from).

pub mod view;

use super::{Action, Screen};
use crate::screens::replay::view::Replay;

/// A game of the slot at an index replayed.
pub(crate) struct ReplayScreen {
    /// The slot whose game is replayed.
    pub index: usize,
    /// The replay.
    pub replay: Replay,
}

impl ReplayScreen {
    /// Which screen this is.
    pub(crate) fn id(&self) -> Screen {
        Screen::Replay(self.index)
    }

    /// Draws the replay and steps it; returns what the player asked for.
    pub(crate) fn show(&mut self, ui: &mut egui::Ui) -> Vec<Action> {
        if self.replay.show(ui) {
            vec![Action::Back]
        } else {
            Vec::new()
        }
    }
}
