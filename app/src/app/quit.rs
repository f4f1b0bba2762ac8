//! Failed writes said where they belong, and quitting: the window waits for the writes still
//! pending, then says what could not be saved.

use crate::screens::game::GameScreen;
use crate::store::history::history_file_name;
use crate::store::saves;
use crate::store::scores::SCORES_FILE;

use super::{Current, QUIT_WAIT, TileboxApp};

impl TileboxApp {
    /// Shows the writes that failed since the last frame: under the board of the game they
    /// concern (or the game shown, for the scores), and in the launcher.
    pub(super) fn report_failures(&mut self) {
        for failure in self.store.take_failures() {
            let text = format!(
                "{} could not be saved: {}",
                crate::ui::capitalized(&failure.what),
                failure.error
            );
            let slot = self
                .slots
                .iter()
                .position(|s| {
                    saves::save_file_name(s.id()) == failure.name
                        || history_file_name(s.id()) == failure.name
                        || crate::store::variants::code_game_file(s.id()) == failure.name
                })
                .or(match self.current {
                    Current::Game(GameScreen { index }) if failure.name == SCORES_FILE => {
                        Some(index)
                    }
                    _ => None,
                });
            if let Some(slot) = slot.and_then(|i| self.slots.get_mut(i)) {
                slot.message = Some(text.clone());
            }
            self.notify(text);
        }
    }

    /// What is not saved yet, in words: the writer's files, and a player in training.
    pub(super) fn unsaved(&self) -> Vec<String> {
        let mut unsaved = self.store.unsaved();
        if let Some(id) = self.trainer.running() {
            let title = self
                .slots
                .iter()
                .find(|s| s.id() == id)
                .map_or(id, |s| s.entry.title());
            unsaved.push(format!("the trained player of {title}"));
        }
        unsaved
    }

    /// Quitting: while writes are pending, the window stays open (up to [`QUIT_WAIT`]), then
    /// says what could not be saved and lets the player quit anyway or keep playing.
    pub(super) fn handle_quit(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        // The player chose to quit without them: the window goes, whatever the writer does.
        if self.store.writes_abandoned() {
            return;
        }
        if ctx.input(|i| i.viewport().close_requested()) && !self.quit_window.is_open() {
            // A player in training is stopped and saved before the window goes (and trains on
            // if the player keeps playing after all).
            let mut stopped = None;
            if let Some(id) = self.trainer.running() {
                stopped = self
                    .slots
                    .iter()
                    .find(|s| s.id() == id)
                    .and_then(|s| crate::work::trainer::trainable(&s.entry))
                    .cloned();
                self.trainer.stop();
            }
            if self.unsaved().is_empty() {
                return;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.quit_window.open(now, stopped);
        }
        if !self.quit_window.is_open() {
            return;
        }
        let pending = self.unsaved();
        if pending.is_empty() {
            self.quit_window.close();
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        match self.quit_window.show(ctx, &pending, now, QUIT_WAIT) {
            Some(true) => {
                self.store.abandon_writes();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Some(false) => {
                if let Some(variant) = self.quit_window.take_stopped() {
                    self.trainer.start(&variant);
                }
            }
            None => {}
        }
    }
}
