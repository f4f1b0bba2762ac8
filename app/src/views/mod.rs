//! The game views: each turns input into moves (keys, clicks, drags) and draws its game.
//!
//! One sliding-board view serves 2048, Threes and any later sliding game; Strike 9 has its own;
//! a game with no view of its own gets a plain one (its text and a button per legal move), so a
//! newly registered game is playable at once.

pub mod generic;
pub mod sliding;
pub mod strike9;

use egui::Rect;
use tilebox_core::DynSession;

use crate::input::KeyPress;

/// What a view did this frame.
#[derive(Debug, Default)]
pub struct ViewOutcome {
    /// A move was played.
    pub played: bool,
    /// The player made a move, or tried to, with a key, a click or a swipe (as opposed to a move
    /// queued by autoplay): the player takes the game back from the AI.
    pub player_moved: bool,
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

/// Draws the game of `session` and plays the moves the player makes. With `accepts_moves`
/// false (a message waits for an answer over the board) the board is drawn and no move is
/// played.
pub fn show(
    ui: &mut egui::Ui,
    session: &mut dyn DynSession,
    state: &mut ViewState,
    keys: &[KeyPress],
    accepts_moves: bool,
) -> ViewOutcome {
    let keys = if accepts_moves { keys } else { &[] };
    match state {
        ViewState::Sliding(s) => sliding::show(ui, session, s, keys, accepts_moves),
        ViewState::Strike9(s) => strike9::show(ui, session, s, keys, accepts_moves),
        ViewState::Generic => generic::show(ui, session, accepts_moves),
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
