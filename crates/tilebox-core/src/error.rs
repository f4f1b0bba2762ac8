//! Typed errors. Every way a game can refuse its input has a variant here (a save it cannot
//! restore, `LoadError`, is beside the save form in `session`), so hosts can print a clear
//! message and nothing ever panics.

use thiserror::Error;

/// A move that could not be read from its text form.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{input}' is not a move: {reason}")]
pub struct ParseMoveError {
    /// The text that was read.
    pub input: String,
    /// What a move looks like, or what was wrong.
    pub reason: String,
}

impl ParseMoveError {
    /// A parse error for `input`, explained by `reason`.
    pub fn new(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            input: input.into(),
            reason: reason.into(),
        }
    }
}

/// Why a game refused a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The move would change nothing. It is not a move: nothing spawns, nothing is counted.
    #[error("the move changes nothing")]
    NoEffect,
    /// The game has ended; no move is accepted.
    #[error("the game is over")]
    GameOver,
    /// The move breaks a rule of the game; the text says which.
    #[error("{0}")]
    Illegal(String),
}

/// Parameters a game cannot be set up with.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid game parameters: {0}")]
pub struct ParamsError(pub String);

/// What went wrong with a move inside a sequence, see [`PlayError`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayErrorKind {
    /// The move's text could not be read.
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    /// The game refused the move.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A move in a sequence that could not be played, with its position (1-based) in that sequence.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("move {position} ('{text}'): {kind}")]
pub struct PlayError {
    /// 1-based position of the move in the sequence given.
    pub position: usize,
    /// The move as written.
    pub text: String,
    /// What was wrong with it.
    pub kind: PlayErrorKind,
}
