//! One sliding-tile engine for 2048 and Threes.
//!
//! A board ([`Board`]) is a square grid of tile *ranks* (0 = empty), not values, so that one grid
//! and one sliding routine serve both games and no value can overflow. A [`RuleSet`] says what a
//! rank is worth and how a single line moves, written once per rule set over a slice of ranks
//! ordered from the wall outward; a single routine maps the four [`Direction`]s onto that line
//! move and reports what moved ([`Slide`], [`Motion`]).
//!
//! On top sit the two games, each a [`tilebox_core::Puzzle`]: [`Game2048`] and [`Threes`]. Their
//! states carry their own [`tilebox_core::GameRng`], so a seed and a list of moves replay a game
//! exactly. The rules are those of `docs/rules.md`.

mod board;
mod builtin;
mod deck;
mod direction;
mod engine;
mod game2048;
mod line;
mod load;
mod rules;
mod slide;
mod sliding;
#[cfg(test)]
mod test_util;
mod threes;
pub mod variant;

pub use board::{Board, BoardError, Cell};
pub use builtin::{builtin_variants, builtins};
pub use direction::Direction;
pub use engine::Rules;
pub use game2048::{Game2048, Game2048Params, Game2048State, STANDARD_WIN};
pub use load::{Loaded, MAX_FILE_BYTES, Refusal, load_dir};
pub use rules::RuleSet;
pub use slide::{LineMotion, Motion, Slide, slide_board};
pub use sliding::{Sliding, SlidingState};
pub use threes::{NextCard, Threes, ThreesParams, ThreesState};
pub use variant::{Variant, VariantError};

use serde::{Deserialize, Serialize};
use tilebox_core::{Entry, MoveError, ParamsError, Puzzle};

/// What a sliding view needs of a sliding game, whichever it is: its rule set, its board, and
/// the next tile when the game shows it.
pub trait SlidingGame: Puzzle<Move = Direction> {
    /// The rule set its lines move by.
    const RULES: RuleSet;

    /// The board of a state.
    fn board(state: &Self::State) -> &Board;

    /// The next tile, as shown above the board (Threes' next card, "+" for a bonus card);
    /// `None` for games that do not show it.
    fn next_card(state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }
}

/// The rule set of a registry entry of a sliding game, `None` for an entry of another kind.
pub fn rules_of(entry: &Entry) -> Option<RuleSet> {
    if entry.is::<Game2048>() {
        Some(Game2048::RULES)
    } else if entry.is::<Threes>() {
        Some(Threes::RULES)
    } else {
        None
    }
}

/// How a game of Threes is set up ([`ThreesParams`] is this type). Its JSON form is
/// `{"side": 4}`; a missing `side` is 4.
///
/// Unknown fields are refused, as Strike 9's are, so that a save made with a variant this build
/// does not know is not replayed under the wrong rules.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SlidingParams {
    /// Rows and columns of the board, 2 to 8; 4 is the original game.
    pub side: usize,
}

impl Default for SlidingParams {
    fn default() -> Self {
        Self { side: 4 }
    }
}

/// The empty board a game with this `side` starts from, or the parameter error to report.
fn start_board(side: usize) -> Result<Board, ParamsError> {
    Board::empty(side).map_err(|e| ParamsError(e.to_string()))
}

/// Why a swipe that moved nothing is refused: the game is over when no swipe moves anything,
/// otherwise this one swipe just has no effect.
fn refusal(rules: RuleSet, board: &Board) -> MoveError {
    if rules.can_move(board) {
        MoveError::NoEffect
    } else {
        MoveError::GameOver
    }
}

/// The `board` field of a game's view: rows of values, 0 for an empty cell.
fn board_view(rules: RuleSet, board: &Board) -> serde_json::Value {
    serde_json::Value::from(rules.values(board))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn params_read_side_default_to_four_and_refuse_unknown_fields() {
        assert_eq!(SlidingParams::default().side, 4);
        // The JSON form is the one saves have always had.
        assert_eq!(
            serde_json::to_value(SlidingParams { side: 6 }).unwrap(),
            json!({ "side": 6 })
        );
        let read = |v| serde_json::from_value::<SlidingParams>(v);
        assert_eq!(read(json!({})).unwrap(), SlidingParams::default());
        assert_eq!(read(json!({ "side": 6 })).unwrap().side, 6);
        for bad in [
            json!({ "side": 4, "bonus": false }),
            json!({ "tiles": 12 }),
            json!({ "side": "x" }),
            json!({ "side": -1 }),
            json!(null),
            json!(4),
        ] {
            assert!(read(bad.clone()).is_err(), "{bad}");
        }
    }
}
