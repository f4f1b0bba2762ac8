//! Helpers shared by the unit tests of the rule sets and of the two games.

use std::ops::RangeInclusive;

use proptest::prelude::*;

use super::RuleSet;
use crate::{Board, Cell, Rank};

/// A board from rows of values; every value must be a tile `rules` can hold.
pub(crate) fn board(rules: RuleSet, rows: &[&[u64]]) -> Board {
    let rows: Vec<Vec<u64>> = rows.iter().map(|r| r.to_vec()).collect();
    rules.board_from_values(&rows).unwrap()
}

/// Random boards with a side in `sides`, each cell's rank drawn from `rank` (0 is empty). Ranks
/// are set as drawn, so `rank` decides which rule set the boards suit.
pub(crate) fn boards(
    sides: RangeInclusive<usize>,
    rank: impl Strategy<Value = Rank> + Clone + 'static,
) -> impl Strategy<Value = Board> {
    sides.prop_flat_map(move |side| {
        proptest::collection::vec(rank.clone(), side * side).prop_map(move |ranks| {
            let mut b = Board::empty(side).unwrap();
            for (i, r) in ranks.into_iter().enumerate() {
                b.set(Cell::new(i / side, i % side), r);
            }
            b
        })
    })
}
