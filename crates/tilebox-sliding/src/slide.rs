//! The one routine that applies a line move to a whole board in any direction, and what it
//! reports.

use crate::line::LineMotion;
use crate::{Board, Cell, Direction, Rank};

/// A tile that moved during a slide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Motion {
    /// Where the tile was before the slide.
    pub from: Cell,
    /// Where it is after, alone or merged into the tile now at `to`.
    pub to: Cell,
    /// The tile merged into the tile that ended at `to`. Each merge shows as exactly one such
    /// motion (the tile farther from the wall moves into the other), so the cells where merges
    /// happened are the `to` of the merged motions.
    pub merged: bool,
}

/// What a slide did: the board after it (before any new tile), and how it got there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slide {
    /// The board after the slide. No tile has been added.
    pub board: Board,
    /// Whether any tile moved. A slide that moved nothing is not a move.
    pub moved: bool,
    /// Points the slide earned: for 2048 the sum of the tiles made by merges, for Threes the
    /// change in the board's score.
    pub gained: u64,
    /// Every tile that moved; tiles that stayed put are not listed.
    pub motions: Vec<Motion>,
    /// The lines (rows for left and right, columns for up and down, see [`Direction::cell`])
    /// that changed, in increasing order. Threes draws where its new card enters from these.
    pub moved_lines: Vec<usize>,
}

/// Applies `line_move` to every line of `board` for the swipe `dir`. The direction only decides
/// which cells make up each line and in what order ([`Direction::cell`]), so each motion
/// writes its line move once. A line move takes ranks ordered from the wall outward, changes
/// them in place, appends the tiles' motions and returns the points it made; `gained` is their
/// sum.
///
/// Public (hidden) only for the crate's benchmark, which runs the first release's line move
/// through it.
#[doc(hidden)]
pub fn slide_board(
    board: &Board,
    dir: Direction,
    mut line_move: impl FnMut(&mut [Rank], &mut Vec<LineMotion>) -> u64,
) -> Slide {
    let side = board.side();
    let mut after = board.clone();
    let mut motions = Vec::new();
    let mut moved_lines = Vec::new();
    // A line's ranks, on the stack: a board is at most `Board::MAX_SIDE` wide.
    let mut on_stack = [0; Board::MAX_SIDE];
    let mut wider;
    let ranks = match on_stack.get_mut(..side) {
        Some(ranks) => ranks,
        None => {
            wider = vec![0; side];
            &mut wider[..]
        }
    };
    let mut line_motions = Vec::new();
    let mut gained = 0u64;
    for line in 0..side {
        for (pos, rank) in ranks.iter_mut().enumerate() {
            *rank = board.rank(dir.cell(side, line, pos));
        }
        line_motions.clear();
        gained = gained.saturating_add(line_move(ranks, &mut line_motions));
        if line_motions.is_empty() {
            continue;
        }
        moved_lines.push(line);
        for (pos, &rank) in ranks.iter().enumerate() {
            after.set(dir.cell(side, line, pos), rank);
        }
        motions.extend(line_motions.iter().map(|m| Motion {
            from: dir.cell(side, line, m.from),
            to: dir.cell(side, line, m.to),
            merged: m.merged,
        }));
    }
    Slide {
        board: after,
        moved: !motions.is_empty(),
        gained,
        motions,
        moved_lines,
    }
}
