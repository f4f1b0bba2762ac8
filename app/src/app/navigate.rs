//! The screens shown: opening one, one over another and back, where a frame's input is cut,
//! and drawing the screen shown with what it is lent.

use crate::screens::game::{self, GameScreen};
use crate::screens::launcher;
use crate::screens::replay::ReplayScreen;
use crate::screens::stats::StatsScreen;
use crate::screens::{self, Action, Screen};
use crate::ui::input::{self, KeyPress};

use super::{Current, TileboxApp};

impl TileboxApp {
    /// Whether a dialog is open over the screen, the window that waits for writes at quitting
    /// included: the keys are its own.
    pub(super) fn dialog_open(&self) -> bool {
        self.dialog.is_some() || self.quit_window.is_open()
    }

    /// Where this frame's input is cut ([`input::cut_events`]): after a key that answers or
    /// closes the dialog open, else after one that changes the screen shown.
    pub(super) fn input_cut(&self) -> impl Fn(input::KeyPress) -> bool + use<> {
        let shown = self.screen();
        let dialog_open = self.dialog_open();
        move |k| {
            if dialog_open {
                screens::closes_dialog(k)
            } else {
                screens::changes_screen(shown, k)
            }
        }
    }

    /// Cuts the frame's raw input before egui reads it (`eframe::App::raw_input_hook`): the
    /// events after a key that changes the screen wait for the next frame, egui's own uses of
    /// them (Tab, which moves the focus) included.
    pub fn cut_raw_input(&mut self, raw: &mut egui::RawInput) {
        let cuts = self.input_cut();
        input::cut_events(&mut raw.events, &mut self.held, cuts);
        self.cut_before_frame = true;
    }

    /// Draws the screen shown, lending it what it shows; returns what it asked for.
    pub(super) fn draw(&mut self, ui: &mut egui::Ui, keys: &[KeyPress]) -> Vec<Action> {
        let theme = self.store.settings.theme;
        let panel = match &self.current {
            Current::Stats(screen) => self.player_panel(screen.index),
            _ => None,
        };
        match &mut self.current {
            Current::Launcher => {
                let lent = launcher::Lent {
                    groups: &self.groups,
                    slots: &self.slots,
                    scores: &self.store.scores,
                    theme,
                    notices: &self.notices,
                };
                self.launcher.show(ui, &lent, keys)
            }
            Current::Game(screen) => {
                let index = screen.index;
                // The AI's answer is taken before the bar is drawn, so that the bar never shows
                // "Thinking..." over a hint already given (no frame may follow to take it away).
                let now = ui.input(|i| i.time);
                let autoplay_moves = self.assist.drive(ui.ctx(), index, &mut self.slots, now);
                let thinking = self.assist.thinking_of_hint(index);
                let Some(slot) = self.slots.get_mut(index) else {
                    return vec![Action::Open(Screen::Launcher)];
                };
                let stats = self.store.scores.get(slot.id());
                let lower = slot.entry.lower_is_better();
                let lent = game::Lent {
                    best: stats.best_for(lower),
                    assisted_best: stats.assisted_best_for(lower),
                    theme,
                    speed: self.assist.speed,
                    thinking,
                    nothing_saved: self.store.nothing_saved(),
                };
                let mut actions = screen.show(ui, slot, lent, keys);
                // A command that takes the game back (undo, autoplay off) comes before the moves
                // autoplay had due in the same frame, which are dropped.
                let taken_back = actions.iter().any(
                    |a| matches!(a, Action::Command(c) if crate::work::assist::stops_autoplay(*c)),
                );
                let mut autoplay_moves = Some(autoplay_moves).filter(|_| !taken_back);
                // Autoplay's moves are played where the player made none.
                for action in &mut actions {
                    if let Action::Moves {
                        moves,
                        by_player: false,
                    } = action
                    {
                        *moves = autoplay_moves.take().unwrap_or_default();
                    }
                }
                actions
            }
            Current::Stats(screen) => match self.slots.get(screen.index) {
                Some(slot) => screen.show(ui, slot, panel.as_ref()),
                None => vec![Action::Open(Screen::Launcher)],
            },
            Current::Replay(screen) => screen.show(ui),
        }
    }

    /// The statistics screen's part on the AI player of slot `index`, if it has one.
    pub(super) fn player_panel(
        &mut self,
        index: usize,
    ) -> Option<crate::screens::stats::training::Panel> {
        let variant = crate::work::trainer::trainable(&self.slots.get(index)?.entry)?.clone();
        let standing = self.trainer.standing(&variant);
        let other = self
            .trainer
            .running()
            .filter(|id| *id != variant.id)
            .map(|id| {
                self.slots
                    .iter()
                    .find(|s| s.id() == id)
                    .map_or(id, |s| s.entry.title())
                    .to_string()
            });
        let blocked = self
            .store
            .nothing_saved()
            .or_else(|| self.trainer.broken().map(str::to_string));
        Some(crate::screens::stats::training::Panel {
            standing,
            other,
            blocked,
            plays_from: self.trainer.plays_from(),
            available: crate::work::trainer::AVAILABLE,
        })
    }

    /// Shows `screen` (a launcher's page, or a game as it stands), at its top.
    pub(super) fn go(&mut self, screen: Screen) {
        let current = match screen {
            Screen::Launcher => {
                self.launcher.open(None);
                Current::Launcher
            }
            Screen::Group(g) => {
                self.launcher.open(Some(g));
                Current::Launcher
            }
            Screen::Game(index) => Current::Game(GameScreen { index }),
            Screen::Stats(index) => Current::Stats(Box::new(StatsScreen::new(index))),
            // A replay is opened with its game ([`Self::start_replay`]).
            Screen::Replay(_) => return,
        };
        self.under.clear();
        self.show_screen(current);
    }

    /// Shows `current`, a screen just opened, at its top.
    pub(super) fn show_screen(&mut self, current: Current) {
        self.current = current;
        self.opened += 1;
        self.serial = self.opened;
    }

    /// Shows `current` over the screen shown now, which Back returns to.
    pub(super) fn show_over(&mut self, current: Current) {
        let under = std::mem::replace(&mut self.current, current);
        self.under.push((under, self.serial));
        self.opened += 1;
        self.serial = self.opened;
    }

    /// Back from the screen shown: from a statistics or replay screen to the screen it was
    /// opened over; from a game to its group's page ([`Self::back_from`]); from a group's page
    /// to the list of games.
    pub(super) fn back(&mut self) {
        match &self.current {
            Current::Stats(_) | Current::Replay(_) => match self.under.pop() {
                Some((under, serial)) => {
                    self.current = under;
                    self.serial = serial;
                }
                None => self.go(Screen::Launcher),
            },
            Current::Game(s) => {
                let to = self.back_from(s.index);
                self.go(to);
            }
            Current::Launcher => self.go(Screen::Launcher),
        }
    }

    /// Where Back leads from game `index`: the screen of its group when the group has several
    /// entries (2048's boards) or the game is a combination of options, else the launcher.
    pub(super) fn back_from(&self, index: usize) -> Screen {
        let slot = self.slots.get(index);
        let combination = slot.is_some_and(|s| self.registry.get(s.id()).is_none());
        let group = slot.map(|s| s.entry.info().group.clone());
        self.groups
            .iter()
            .position(|(title, members)| {
                (members.len() > 1 && members.contains(&index))
                    || (combination && group.as_deref() == Some(title.as_str()))
            })
            .map_or(Screen::Launcher, Screen::Group)
    }

    /// Opens the game `id` as its card does (its game in progress, or a new one), from wherever
    /// the app is, a dialog open there put away: a page opened at `#2048` opens 2048, as
    /// `tilebox 2048` does. False where no game has that id.
    pub fn open_game(&mut self, id: &str) -> bool {
        let Some(index) = self.index_of(id) else {
            return false;
        };
        self.dialog = None;
        self.open(index);
        true
    }

    /// Opens game `index`, starting a game if none is in progress.
    pub(super) fn open(&mut self, index: usize) {
        let Some(slot) = self.slots.get(index) else {
            return;
        };
        if slot.session.is_none() {
            self.new_game(index);
            let Some(slot) = self.slots.get_mut(index) else {
                return;
            };
            if slot.session.is_none() {
                let text = format!(
                    "{}: {}",
                    slot.entry.title(),
                    slot.message.take().unwrap_or_default()
                );
                self.notify(text);
                return;
            }
        }
        self.go(Screen::Game(index));
    }

    /// Opens the statistics of game `index`; Back returns to the screen shown now.
    pub(super) fn open_stats(&mut self, index: usize) {
        if index < self.slots.len() {
            self.show_over(Current::Stats(Box::new(StatsScreen::new(index))));
        }
    }

    /// Replays `saved`, a game of game `index`, from its start; Back returns to the screen
    /// shown now.
    pub(super) fn start_replay(
        &mut self,
        index: usize,
        saved: &tilebox_core::SavedGame,
        title: String,
    ) {
        let Some(slot) = self.slots.get(index) else {
            return;
        };
        match crate::screens::replay::view::Replay::new(&slot.entry, saved, title) {
            Ok(replay) => self.show_over(Current::Replay(ReplayScreen { index, replay })),
            Err(text) => self.notify(text),
        }
    }
}

/// On a board the arrow keys are moves (or a replay's steps), never egui's moves of the keyboard
/// focus: else a player who keeps pressing arrows after the game ends moves the focus from the
/// dialog's default answer ("Play again") to another ("Take back the last move"), and Return then
/// answers that. Tab still moves the focus.
pub(super) fn keep_focus_off_arrows(ctx: &egui::Context) {
    let arrow = ctx.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::Key {
                    key: egui::Key::ArrowUp
                        | egui::Key::ArrowDown
                        | egui::Key::ArrowLeft
                        | egui::Key::ArrowRight,
                    pressed: true,
                    ..
                }
            )
        })
    });
    if arrow {
        ctx.memory_mut(|m| m.move_focus(egui::FocusDirection::None));
    }
}
