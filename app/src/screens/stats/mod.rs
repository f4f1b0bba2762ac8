//! The statistics screen of one game: drawn by [`crate::screens::stats::view`] from the game's
//! history; Back leaves it (the shell returns to the screen it was opened from), and a game of the
//! history can be replayed.

pub mod training;
pub mod view;

use super::{Action, Screen};
use crate::screens::stats::training::{Asked, Panel};
use crate::slot::GameSlot;
use crate::store::history::HistoryView;
use view::Memo;

/// The statistics of the game at an index of the slots.
pub(crate) struct StatsScreen {
    /// The slot whose statistics are shown.
    pub index: usize,
    /// The figures last worked out, kept until the history grows.
    memo: Memo,
}

impl StatsScreen {
    /// The statistics of slot `index`.
    pub(crate) fn new(index: usize) -> Self {
        Self {
            index,
            memo: Memo::default(),
        }
    }

    /// Which screen this is.
    pub(crate) fn id(&self) -> Screen {
        Screen::Stats(self.index)
    }

    /// Draws the statistics of `slot`, with its AI player's part when it has one; returns
    /// what the player asked for.
    pub(crate) fn show(
        &mut self,
        ui: &mut egui::Ui,
        slot: &GameSlot,
        player: Option<&Panel>,
    ) -> Vec<Action> {
        let history = slot.history.view();
        match view::show(ui, &slot.entry, history, &mut self.memo, player) {
            view::Action::Replay(i) => {
                let HistoryView::Ready(records) = history else {
                    return Vec::new();
                };
                let Some(record) = records.get(i) else {
                    return Vec::new();
                };
                let title = format!(
                    "Replay: {}, game {} (score {})",
                    slot.entry.title(),
                    i + 1,
                    record.score
                );
                vec![Action::Replay {
                    saved: record.saved_game(&slot.entry),
                    title,
                }]
            }
            view::Action::Back => vec![Action::Back],
            view::Action::Player(Asked::Train) => vec![Action::Train(self.index)],
            view::Action::Player(Asked::Stop) => vec![Action::StopTraining],
            view::Action::None => Vec::new(),
        }
    }
}
