//! Carrying out what the screens ask for: each [`Action`] a screen or a dialog returned, and
//! each command of a game's screen, in one place.

use tilebox_core::daily_seed;

use crate::screens::chrome::EndChoice;
use crate::screens::codes;
use crate::screens::dialogs::Dialog;
use crate::screens::{Action, Screen};
use crate::slot::{NEWER_SAVE, Start};
use crate::ui::input::Command;

use super::TileboxApp;

impl TileboxApp {
    /// Carries out `actions`, in order; `index` is the slot of the screen that asked for them,
    /// if it shows a game's.
    pub(super) fn carry_out(
        &mut self,
        ctx: &egui::Context,
        index: Option<usize>,
        actions: Vec<Action>,
    ) {
        let now = ctx.input(|i| i.time);
        for action in actions {
            match action {
                Action::Open(Screen::Game(i)) => self.open(i),
                Action::Open(Screen::Stats(i)) => self.open_stats(i),
                Action::Open(screen) => self.go(screen),
                Action::Back => self.back(),
                Action::ToggleTheme => self.toggle_theme(),
                Action::Dismiss(i) => {
                    if i < self.notices.len() {
                        self.notices.remove(i);
                    }
                }
                Action::DismissAll => self.notices.clear(),
                Action::Train(i) => {
                    if let Some(variant) = self
                        .slots
                        .get(i)
                        .and_then(|s| crate::work::trainer::trainable(&s.entry))
                    {
                        self.trainer.start(&variant.clone());
                    }
                }
                Action::StopTraining => self.trainer.stop(),
                Action::OpenPlayCode => {
                    if self.dialog.is_none() {
                        self.dialog = Some(Dialog::play_code());
                    }
                }
                Action::PlayCode(text) => {
                    let dialog = self.dialog.take();
                    match self.play_code(&text) {
                        Ok(()) => {
                            if let Some(dialog) = dialog {
                                dialog.closed(ctx);
                            }
                        }
                        Err(e) => {
                            self.dialog = dialog.map(|mut d| {
                                d.refuse(crate::ui::capitalized(&e));
                                d
                            });
                        }
                    }
                }
                Action::AddCodeGame => {
                    if let Some(Dialog::AddGame { game, seed }) = self.dialog.take() {
                        self.add_code_game(*game, seed);
                    }
                }
                Action::CloseDialog => {
                    if let Some(dialog) = self.dialog.take() {
                        dialog.closed(ctx);
                    }
                }
                Action::NewGameAnswer(yes) => self.answer_new_game(yes),
                Action::Replay { saved, title } => {
                    if let Some(i) = index {
                        self.start_replay(i, &saved, title);
                    }
                }
                Action::SetSpeed(speed) => {
                    self.assist.speed = speed;
                    self.write_settings();
                }
                Action::Moves { moves, by_player } => {
                    let Some(i) = index else { continue };
                    if by_player && let Some(slot) = self.slots.get_mut(i) {
                        // The player's own move takes the game back from the AI, whose move
                        // is dropped.
                        self.assist.stop(i, slot);
                    }
                    if !moves.is_empty() {
                        let before = self.moves_played;
                        for mv in moves {
                            self.play(i, &mv, now);
                        }
                        // The pass just drawn showed the board before the moves. The player's
                        // move is drawn by a second pass of this same frame, whose picture
                        // goes to the screen instead: a key is answered by the frame that
                        // reads it, not by the one after, however long a frame takes (a
                        // second a frame without a GPU). Autoplay's moves, and keys held back
                        // for the next frame, wait for the next frame, which comes at once.
                        if by_player && self.moves_played > before && self.held.is_empty() {
                            ctx.request_discard("the player's move is drawn in its key's frame");
                        }
                        ctx.request_repaint();
                    }
                }
                Action::End(choice) => {
                    let Some(i) = index else { continue };
                    match choice {
                        EndChoice::KeepGoing => {
                            if let Some(slot) = self.slots.get_mut(i) {
                                slot.tally.win_seen = true;
                            }
                            self.save_game(i);
                        }
                        EndChoice::NewGame => self.new_game(i),
                        EndChoice::Undo => self.run(ctx, i, Command::Undo),
                    }
                }
                Action::Command(command) => {
                    if let Some(i) = index {
                        self.run(ctx, i, command);
                    }
                }
            }
        }
    }

    /// Carries out `command` in game `index`.
    pub(super) fn run(&mut self, ctx: &egui::Context, index: usize, command: Command) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if command.takes_over() {
            self.assist.stop(index, slot);
        }
        let changes_game = matches!(
            command,
            Command::Undo
                | Command::Redo
                | Command::NewGame
                | Command::DailyGame
                | Command::Hint
                | Command::ToggleAutoplay
        );
        if slot.newer_save && changes_game {
            slot.message = Some(NEWER_SAVE.to_string());
            return;
        }
        match command {
            Command::Back => {
                let to = self.back_from(index);
                self.go(to);
            }
            Command::Hint => {
                // Asking for a hint the game gives makes it assisted, whatever the answer.
                let helps = slot
                    .session
                    .as_deref()
                    .is_some_and(|s| !s.status().over && s.assistant().is_some());
                self.assist.hint(ctx, index, slot);
                if helps && slot.tally.assist() {
                    self.save_game(index);
                }
            }
            Command::ToggleAutoplay => {
                self.assist.toggle_autoplay(index, slot);
                if slot.autoplay && slot.tally.assist() {
                    self.save_game(index);
                }
            }
            Command::ToggleTheme => self.toggle_theme(),
            Command::Statistics => self.open_stats(index),
            Command::Replay => {
                if let Some(session) = slot.session.as_deref() {
                    let saved = session.save();
                    let title = format!("Replay: {}, the game in progress", slot.entry.title());
                    self.start_replay(index, &saved, title);
                }
            }
            Command::ToggleHelp => {
                slot.show_help = !slot.show_help;
                slot.help_shown = slot.help_shown.wrapping_add(u32::from(slot.show_help));
            }
            Command::NewGame => self.ask_new_game(index),
            Command::ShowCode => {
                if let Some(session) = slot.session.as_deref() {
                    self.dialog = Some(Dialog::ShowCode {
                        code: self.registry.code_of(session).to_string(),
                        copied: false,
                    });
                }
            }
            Command::DailyGame => {
                // Today's daily game stays where it is on the board.
                let today = codes::today();
                if slot.daily != Some(today) || slot.session.is_none() {
                    let seed = daily_seed(slot.entry.id(), today);
                    self.ask_start(Start {
                        index,
                        seed,
                        daily: Some(today),
                    });
                }
            }
            Command::Undo | Command::Redo => {
                let Some(session) = slot.session.as_deref_mut() else {
                    return;
                };
                let changed = if command == Command::Undo {
                    session.undo()
                } else {
                    session.redo()
                };
                if changed {
                    // Undo makes the game assisted; it stays so after a redo.
                    if command == Command::Undo {
                        slot.tally.assist();
                    }
                    slot.view.reset();
                    slot.score_pop = None;
                    slot.message = None;
                    // A redone move can end or win the game like any other.
                    self.record_status(index);
                    self.save_game(index);
                }
            }
        }
    }

    pub(super) fn toggle_theme(&mut self) {
        self.store.settings.theme = self.store.settings.theme.next();
        self.write_settings();
    }

    /// Queues a write of the settings as they stand (theme, zoom, autoplay's speed).
    pub(super) fn write_settings(&mut self) {
        self.store.settings.zoom = self.zoom.percent();
        self.store.settings.speed = self.assist.speed;
        self.store.write_settings();
    }
}
