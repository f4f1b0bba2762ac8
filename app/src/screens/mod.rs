//! The screens: the launcher (its list of games and a group's page with its menu of options),
//! a game, its statistics, a replay, and the dialogs over them. Each screen owns its state,
//! draws itself and returns `Action`s, values the shell ([`crate::TileboxApp`]) carries out
//! in one place; a screen never reaches into the shell or the store. What a screen shows of the
//! app's data (the slots, the scores) it is lent for the frame.
//!
//! Each screen's drawing is its own ([`launcher::cards`], [`stats::view`] and
//! [`stats::training`], [`replay::view`]); what several share is here too: `chrome` (the bar,
//! the messages and the questions around a board), [`help`] ("How to play") and [`codes`] (a
//! game's code, "Play a code"). The arrows point down the app's layers: the screens use the
//! work ([`crate::work`]), the game slots (`crate::slot`), the views ([`crate::views`]), the
//! drawing pieces ([`crate::ui`]) and the store's types; nothing here uses the shell.

pub(crate) mod chrome;
pub mod codes;
pub(crate) mod dialogs;
pub(crate) mod game;
pub mod help;
pub mod launcher;
pub mod replay;
pub mod stats;

use tilebox_core::SavedGame;

use crate::screens::chrome::EndChoice;
use crate::ui::input::{Command, KeyPress};

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The list of games: one card per group of entries ([`tilebox_core::Registry::groups`]).
    Launcher,
    /// The entries of the group at this index of [`tilebox_core::Registry::groups`] (2048's
    /// board sizes).
    Group(usize),
    /// The game of the slot at this index (the registry's entries, then its combinations,
    /// then the games added while the app runs).
    Game(usize),
    /// The statistics of the entry at this index ([`crate::screens::stats::view`]).
    Stats(usize),
    /// A game of the entry at this index replayed ([`crate::screens::replay::view`]).
    Replay(usize),
}

/// What a screen or a dialog asks the shell to do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Action {
    /// Open a screen: a group's page, a game (a game starts if none is in progress), a game's
    /// statistics (Back returns to the screen shown now), the launcher.
    Open(Screen),
    /// Back from the screen shown, to where it leads.
    Back,
    /// Switch theme.
    ToggleTheme,
    /// Dismiss the launcher's notice at this index.
    Dismiss(usize),
    /// Dismiss every notice of the launcher.
    DismissAll,
    /// Train the AI player of the game at this index of the slots (from its statistics).
    Train(usize),
    /// Stop training the AI player trained now.
    StopTraining,
    /// Open the "Play a code" dialog.
    OpenPlayCode,
    /// Play the code typed in the "Play a code" dialog.
    PlayCode(String),
    /// Add the game the open "Add this game?" dialog offers, and play its code there.
    AddCodeGame,
    /// Close the dialog open.
    CloseDialog,
    /// The answer to the new-game question: yes (start it) or no.
    NewGameAnswer(bool),
    /// The moves the game screen's view made this frame, to play in order in the game shown;
    /// `by_player`: the player made them, or tried to (which takes the game back from the AI).
    Moves {
        /// The moves, in their text form.
        moves: Vec<String>,
        /// The player made them.
        by_player: bool,
    },
    /// A command in the game shown (New game, Undo, Statistics...).
    Command(Command),
    /// The answer to the win or game-over message.
    End(EndChoice),
    /// Autoplay's speed picked in the bar.
    SetSpeed(crate::store::settings::Speed),
    /// Replay `saved`, a game of the entry shown, from its start, under the heading `title`.
    Replay {
        /// The game.
        saved: SavedGame,
        /// The replay's heading.
        title: String,
    },
}

/// Whether `key` is one that opens or leaves a screen in a screen of kind `screen` (a card's
/// digit, Escape, Statistics...): the keys after it in the same frame are kept for the next
/// frame, so that the screen it opens gets them, in order ([`crate::ui::input::hand_over`]).
pub(crate) fn changes_screen(screen: Screen, key: KeyPress) -> bool {
    use egui::Key;
    if key.has_command_modifier() {
        return false;
    }
    // Return and Space click the focused control, which may open a screen.
    let clicks = matches!(key.key, Key::Enter | Key::Space);
    match screen {
        Screen::Launcher | Screen::Group(_) => {
            clicks
                || matches!(key.key, Key::Escape | Key::C)
                || crate::ui::input::digit_of(key.key).is_some()
        }
        // F1 may put "How to play" in the board's place, in a small window.
        Screen::Game(_) => {
            clicks
                || matches!(
                    crate::ui::input::command_of(key, false),
                    Some(
                        Command::Back
                            | Command::Statistics
                            | Command::Replay
                            | Command::ShowCode
                            | Command::NewGame
                            | Command::DailyGame
                            | Command::ToggleHelp
                    )
                )
        }
        Screen::Stats(_) => clicks || matches!(key.key, Key::Escape | Key::R),
        Screen::Replay(_) => clicks || matches!(key.key, Key::Escape),
    }
}

/// Whether `key` may answer or close the dialog open over a screen (Return, Space, Escape, or
/// the new-game question's Y and N): the keys after it in the same frame wait for the next,
/// which the dialog, if it is still open, or the screen under it gets, in order.
pub(crate) fn closes_dialog(key: KeyPress) -> bool {
    use egui::Key;
    !key.has_command_modifier()
        && matches!(
            key.key,
            Key::Enter | Key::Space | Key::Escape | Key::Y | Key::N
        )
}
