//! The [`Puzzle`] trait: a game as a backend of pure functions.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{MoveError, ParamsError, ParseMoveError};

/// What a game kind says of itself: the id, title and description of its standard entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameInfo {
    /// Stable identifier, used on the command line and in save files (`2048`, `threes`).
    pub id: &'static str,
    /// Name shown to players.
    pub title: &'static str,
    /// One line saying what the game is.
    pub description: &'static str,
}

/// Where a game stands.
///
/// `won` and `over` are independent: 2048 may be won and still playing, and a won game of 2048
/// ends like any other when no move is left.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Status {
    /// The game's win condition has been reached.
    pub won: bool,
    /// No further move is possible.
    pub over: bool,
}

impl Status {
    /// A game in progress that has not been won.
    pub const PLAYING: Status = Status {
        won: false,
        over: false,
    };
}

/// A game, as a backend: parameters, states, moves and the pure functions between them.
///
/// A rule is a pure function: [`Puzzle::apply`] takes a state and a move and returns the next
/// state, never touching anything else. Randomness comes from a [`crate::GameRng`] stored in the
/// state, so the same seed and the same moves give the same states everywhere.
///
/// Implementors are usually unit structs; the state types carry the data.
pub trait Puzzle: 'static {
    /// How a game is set up (board size, say). `Default` is the standard game.
    type Params: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// Everything a game is at one moment, including its random generator. `Display` is the text
    /// form used by golden tests and bug reports.
    type State: Clone + Debug + Display + PartialEq + Send + Sync;
    /// One move. `Display` and `FromStr` are its text form, used by replays and saves, and must
    /// round-trip.
    type Move: Clone + Debug + Display + FromStr<Err = ParseMoveError> + PartialEq + Send + Sync;

    /// Id, title and description.
    const INFO: GameInfo;

    /// The fields of the params' JSON that name a game rather than make its rules (a sliding
    /// variant's id, title and description): two params that differ only in them play the
    /// same game. A game code of a player's own entry leaves them out
    /// ([`crate::Registry::code_of`]). None by default.
    const NAME_FIELDS: &'static [&'static str] = &[];

    /// The start of a game with these parameters and this seed.
    fn new_game(params: &Self::Params, seed: u64) -> Result<Self::State, ParamsError>;

    /// The state after `mv`, or why `mv` is refused. Never changes `state`.
    fn apply(state: &Self::State, mv: &Self::Move) -> Result<Self::State, MoveError>;

    /// Won, over, or still playing.
    fn status(state: &Self::State) -> Status;

    /// The score of this state, the number the best-score table keeps.
    fn score(state: &Self::State) -> u64;

    /// Whether a lower score is the better one in games with these parameters (a golf score):
    /// the best-score table then keeps the lowest score of a finished game. `false` by default.
    fn lower_is_better(params: &Self::Params) -> bool {
        let _ = params;
        false
    }

    /// Every move [`Puzzle::apply`] accepts in this state; empty exactly when the game is over.
    fn legal_moves(state: &Self::State) -> Vec<Self::Move>;

    /// What a player can see of the state, as JSON fields (the board, the next card, the dice).
    /// Hidden things, such as the deck's order or the random generator, stay out.
    fn view(state: &Self::State) -> serde_json::Map<String, serde_json::Value>;

    /// The highest tile on the board, for games whose tiles have values (2048, Threes): what a
    /// benchmark or a game's history reports as the tile reached. `None` by default.
    fn top_tile(state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// How many tiles are still to be cleared, for games whose aim is to clear them (Strike 9:
    /// the tiles still open): what a game's history reports as the tiles left. `None` by
    /// default.
    fn tiles_left(state: &Self::State) -> Option<u32> {
        let _ = state;
        None
    }

    /// Reads parameters given as JSON (a save's, or a host's choice) for an entry whose preset
    /// is `preset`. By default the JSON is the whole params, as `Serialize` writes them; a kind
    /// may read it relative to the preset instead (the sliding kind lays a save's fields over
    /// the preset's variant, so that old saves of a few fields still read).
    fn read_params(
        preset: &Self::Params,
        json: &serde_json::Value,
    ) -> Result<Self::Params, ParamsError> {
        let _ = preset;
        serde_json::from_value(json.clone()).map_err(|e| ParamsError(e.to_string()))
    }

    /// Splits a written list of moves into the text of each move. By default moves are separated
    /// by white space; games whose moves are single letters may read `"LLUR"`.
    fn split_moves(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }
}
