//! The game screen: the bar, "How to play", the board drawn by the entry's view, the
//! assistant's lines, the message under the board and the win or game-over message. The keys
//! the shell hands it are its commands (`input::command_of`) and the view's moves; the moves,
//! the commands and the answer to the end's message go back to the shell as [`Action`]s, which
//! plays them in one place.

use egui::RichText;

use super::{Action, Screen};
use crate::screens::chrome::{self, EndChoice, TopBar};
use crate::slot::GameSlot;
use crate::store::scores::Best;
use crate::store::settings::Speed;
use crate::store::settings::ThemeChoice;
use crate::ui::input::{self, Command, KeyPress};

/// What the game screen is lent for a frame besides its slot.
pub(crate) struct Lent {
    /// The best on record of this game, of unassisted games.
    pub best: Best,
    /// The best of assisted games, if any.
    pub assisted_best: Option<u64>,
    /// The theme choice, named on its button.
    pub theme: ThemeChoice,
    /// Autoplay's speed, shown in the bar.
    pub speed: Speed,
    /// A hint is being worked out for this game.
    pub thinking: bool,
    /// Why nothing will be saved, if nothing will (an unusable lock).
    pub nothing_saved: Option<String>,
}

/// The screen of the game at an index of the slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GameScreen {
    /// The slot shown.
    pub index: usize,
}

impl GameScreen {
    /// Which screen this is.
    pub(crate) fn id(self) -> Screen {
        Screen::Game(self.index)
    }

    /// Draws the game of `slot` and reads `keys`. Returns, in the order the shell carries them
    /// out: the moves made (always, possibly none), the answer to the end's message, the
    /// commands given.
    pub(crate) fn show(
        self,
        ui: &mut egui::Ui,
        slot: &mut GameSlot,
        lent: Lent,
        keys: &[KeyPress],
    ) -> Vec<Action> {
        // Keys: the shell's commands first; the rest are the view's (moves, tiles).
        let plain_h_hints = slot.view.plain_h_hints();
        let mut keys = keys.to_vec();
        let mut commands = Vec::new();
        // While the win waits for its answer, Escape answers it (keep going), not Back.
        let win_waits = slot
            .session
            .as_deref()
            .is_some_and(|s| chrome::win_waits(s, slot.tally));
        keys.retain(|&k| match input::command_of(k, plain_h_hints) {
            Some(Command::Back) if win_waits => false,
            Some(c) => {
                commands.push(c);
                false
            }
            None => true,
        });

        let bar = TopBar {
            best: lent.best,
            assisted_best: lent.assisted_best,
            theme: lent.theme,
            speed: lent.speed,
            thinking: lent.thinking,
        };
        let chosen = chrome::top_bar(ui, slot, bar);
        commands.extend(chosen.commands);
        // How to play: a panel under the board, or in a small window a page in its place.
        let help_page = slot.show_help
            && crate::screens::help::panel(ui, &crate::screens::help::Shown::of(slot));

        let mut outcome = None;
        let mut end_choice = None;
        // Unfilled: the window is cleared to the panels' colour (`TileboxApp::clear_color`).
        let frame = egui::Frame::central_panel(ui.style()).fill(egui::Color32::TRANSPARENT);
        egui::CentralPanel::default().frame(frame).show(ui, |ui| {
            if help_page {
                return crate::screens::help::page(ui, &crate::screens::help::Shown::of(slot));
            }
            let Some(session) = slot.session.as_deref() else {
                ui.label("This game could not be started.");
                return;
            };
            // While the win waits for an answer, the board is drawn and takes no move.
            let accepts_moves = !chrome::win_waits(session, slot.tally);
            let keys = if accepts_moves { keys.as_slice() } else { &[] };
            let out = slot.view.show(ui, session, keys, accepts_moves);
            chrome::commentary(ui, session);
            if let Some(m) = &out.message {
                slot.message = Some(m.clone());
            }
            for m in slot.message.iter().chain(&lent.nothing_saved) {
                ui.vertical_centered(|ui| {
                    ui.label(RichText::new(m.as_str()).color(ui.visuals().warn_fg_color));
                });
            }
            end_choice = chrome::end_overlay(ui, out.board, session, slot.tally);
            outcome = Some(out);
        });

        let outcome = outcome.unwrap_or_default();
        let mut actions = vec![Action::Moves {
            moves: outcome.moves,
            by_player: outcome.player_moved,
        }];
        if let Some(speed) = chosen.speed {
            actions.push(Action::SetSpeed(speed));
        }
        match end_choice {
            Some(EndChoice::Undo) => commands.push(Command::Undo),
            Some(choice) => actions.push(Action::End(choice)),
            None => {}
        }
        actions.extend(commands.into_iter().map(Action::Command));
        actions
    }
}
