//! The statistics screen of one game: drawn by [`crate::stats_view`] from the game's history;
//! Back leaves it (the shell returns to the screen it was opened from), and a game of the history can be replayed.

use super::{Action, Screen};
use crate::history::HistoryView;
use crate::slot::GameSlot;
use crate::stats_view::{self, Memo};
use crate::train_view::{Asked, Panel};

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
        match stats_view::show(ui, &slot.entry, history, &mut self.memo, player) {
            stats_view::Action::Replay(i) => {
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
            stats_view::Action::Back => vec![Action::Back],
            stats_view::Action::Player(Asked::Train) => vec![Action::Train(self.index)],
            stats_view::Action::Player(Asked::Stop) => vec![Action::StopTraining],
            stats_view::Action::None => Vec::new(),
        }
    }
}
