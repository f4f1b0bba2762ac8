//! The first release's 2048 and Threes, written in code, kept for the tests only: the
//! [`crate::Sliding`] kind must give exactly their games (`sliding.rs` plays both side by side
//! from many seeds). Nothing outside the tests uses them.

#![allow(dead_code)]

mod deck;
mod game2048;
mod line;
mod rules;
mod test_util;
mod threes;

pub(crate) use game2048::{Game2048, Game2048Params};
pub(crate) use rules::RuleSet;
pub(crate) use threes::{Threes, ThreesParams};

use serde::{Deserialize, Serialize};
use tilebox_core::{MoveError, ParamsError, Puzzle};

use crate::{Board, Direction};

/// What a sliding view needed of a sliding game in the first release.
pub(crate) trait SlidingGame: Puzzle<Move = Direction> {
    /// The rule set its lines move by.
    const RULES: RuleSet;

    /// The board of a state.
    fn board(state: &Self::State) -> &Board;

    /// The next tile, as shown above the board.
    fn next_card(state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }
}

/// The first release's Threes params: `{"side": 4}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SlidingParams {
    pub side: usize,
}

impl Default for SlidingParams {
    fn default() -> Self {
        Self { side: 4 }
    }
}

fn start_board(side: usize) -> Result<Board, ParamsError> {
    Board::empty(side).map_err(|e| ParamsError(e.to_string()))
}

fn refusal(rules: RuleSet, board: &Board) -> MoveError {
    if rules.can_move(board) {
        MoveError::NoEffect
    } else {
        MoveError::GameOver
    }
}

fn board_view(rules: RuleSet, board: &Board) -> serde_json::Value {
    serde_json::Value::from(rules.values(board))
}
