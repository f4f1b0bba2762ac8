//! The game views: each turns input into moves (keys, clicks, drags) and draws its game.
//!
//! One sliding-board view serves 2048, Threes and any later sliding game; Strike 9 has its own;
//! a game with no view of its own gets a plain one (its text and a button per legal move), so a
//! newly registered game is playable at once.

pub mod generic;
pub mod sliding;
pub mod strike9;

use egui::{Key, Modifiers, Rect};
use tilebox_core::DynSession;

/// A key pressed this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyPress {
    /// The key.
    pub key: Key,
    /// Shift, Ctrl... held with it.
    pub modifiers: Modifiers,
}

/// What a view did this frame.
#[derive(Debug, Default)]
pub struct ViewOutcome {
    /// A move was played.
    pub played: bool,
    /// Something to tell the player (a refused choice).
    pub message: Option<String>,
    /// Where the board is, for the game-over and win messages.
    pub board: Option<Rect>,
}

/// The state of the view of one game.
#[derive(Debug, Default)]
pub enum ViewState {
    /// A plain view.
    #[default]
    Generic,
    /// A sliding board.
    Sliding(sliding::SlidingState),
    /// Strike 9.
    Strike9(strike9::Strike9View),
}

impl ViewState {
    /// A fresh view state for the game of `session`.
    pub fn for_session(session: &dyn DynSession) -> Self {
        if sliding::supports(session) {
            Self::Sliding(sliding::SlidingState::default())
        } else if strike9::supports(session) {
            Self::Strike9(strike9::Strike9View::default())
        } else {
            Self::Generic
        }
    }
}

/// Draws the game of `session` and plays the moves the player makes.
pub fn show(
    ui: &mut egui::Ui,
    session: &mut dyn DynSession,
    state: &mut ViewState,
    keys: &[KeyPress],
) -> ViewOutcome {
    match state {
        ViewState::Sliding(s) => sliding::show(ui, session, s, keys),
        ViewState::Strike9(s) => strike9::show(ui, session, s, keys),
        ViewState::Generic => generic::show(ui, session),
    }
}

/// Why the game ended, in a sentence, for the game-over message.
pub fn end_text(session: &dyn DynSession) -> String {
    if let Some(text) = strike9::end_text(session) {
        return text;
    }
    if session.status().won {
        "Well played.".to_string()
    } else {
        "No move is left.".to_string()
    }
}

/// The digit 1 to 9 of a key, if it is one.
pub fn digit_of(key: Key) -> Option<u8> {
    Some(match key {
        Key::Num1 => 1,
        Key::Num2 => 2,
        Key::Num3 => 3,
        Key::Num4 => 4,
        Key::Num5 => 5,
        Key::Num6 => 6,
        Key::Num7 => 7,
        Key::Num8 => 8,
        Key::Num9 => 9,
        _ => return None,
    })
}
