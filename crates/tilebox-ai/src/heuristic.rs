//! Static evaluation of boards, one table lookup per row and per column.
//!
//! Both games score a line with the same kinds of terms, weighted per game; a board's value is
//! the sum over its four rows and four columns:
//! - empty cells (room to move);
//! - mergeable neighbours, empty cells between them ignored (moves that free room);
//! - monotonicity: the smaller of the two one-way "disorders" of the line, where going the
//!   wrong way from rank `a` to rank `b` costs `b^p - a^p` — so a line sorted either way costs
//!   nothing and a big tile trapped between small ones costs a lot;
//! - a small penalty on `Σ rank^q`, which makes the search prefer merging now to later.
//!
//! A lost position is worth the root board's value minus a fixed penalty ([`loss_2048`],
//! [`loss_threes`]), not a constant: the sum term grows without bound as the tiles grow, so a
//! fixed "lost = 0" would, late in a game, rank defeat above every living board.
//!
//! The terms and the 2048 weights follow the analysis of nneonneo/2048-ai (its README and
//! `2048.cpp`); the Threes weights start from the CMA-ES results published with
//! nneonneo/threes-ai, retuned here, and the merge terms use Threes' own rule (1 + 2, equal
//! tiles from 3 up).

use std::sync::OnceLock;

use crate::bitboard::{Bits, MAX_RANK, threes_merge, transpose, unpack_row};

/// Weights of the line terms.
#[derive(Debug, Clone, Copy)]
struct Weights {
    /// How much worse than the root board a lost position is.
    loss: f32,
    /// Per empty cell.
    empty: f32,
    /// Per tile in a mergeable group of equal ranks.
    merges: f32,
    /// Per adjacent 1–2 pair (Threes only).
    one_two: f32,
    /// Exponent of the monotonicity term.
    mono_power: f32,
    /// Weight of the monotonicity term.
    mono: f32,
    /// Exponent of the rank sum.
    sum_power: f32,
    /// Weight of the rank sum.
    sum: f32,
}

/// 2048 weights (nneonneo/2048-ai's published tuning).
const WEIGHTS_2048: Weights = Weights {
    loss: 200_000.0,
    empty: 270.0,
    merges: 700.0,
    one_two: 0.0,
    mono_power: 4.0,
    mono: 47.0,
    sum_power: 3.5,
    sum: 11.0,
};

/// Threes weights: started from the CMA-ES results published with nneonneo/threes-ai, then
/// tuned by hand on 40-game runs at 3 ms a move (empty cells weigh much more here, and the
/// monotonicity term less).
const WEIGHTS_THREES: Weights = Weights {
    loss: 200_000.0,
    empty: 3000.0,
    merges: 589.0,
    one_two: 589.0,
    mono_power: 2.89,
    mono: 30.0,
    sum_power: 1.02,
    sum: 41.3,
};

/// Which game's merge rule the merge term uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Game {
    Twenty48,
    Threes,
}

/// The value of one line of four ranks.
fn line_value(line: [u8; 4], w: &Weights, game: Game) -> f32 {
    let mut empty = 0u32;
    let mut sum = 0.0f32;
    let mut merges = 0u32;
    // Length of the current run of equal, mergeable ranks (empty cells skipped).
    let mut run = 0u32;
    let mut prev = 0u8;
    for &rank in &line {
        sum += f32::from(rank).powf(w.sum_power);
        if rank == 0 {
            empty += 1;
            continue;
        }
        let mergeable = match game {
            Game::Twenty48 => prev == rank && rank < MAX_RANK,
            Game::Threes => prev == rank && threes_merge(prev, rank).is_some(),
        };
        if mergeable {
            run = if run == 0 { 2 } else { run + 1 };
        } else {
            merges += run;
            run = 0;
        }
        prev = rank;
    }
    merges += run;

    let mut one_two = 0u32;
    if game == Game::Threes {
        for pair in line.windows(2) {
            if matches!((pair[0], pair[1]), (1, 2) | (2, 1)) {
                one_two += 1;
            }
        }
    }

    let mut toward_start = 0.0f32;
    let mut toward_end = 0.0f32;
    for pair in line.windows(2) {
        let a = f32::from(pair[0]).powf(w.mono_power);
        let b = f32::from(pair[1]).powf(w.mono_power);
        if pair[0] > pair[1] {
            toward_start += a - b;
        } else {
            toward_end += b - a;
        }
    }

    w.empty * empty as f32 + w.merges * merges as f32 + w.one_two * one_two as f32
        - w.mono * toward_start.min(toward_end)
        - w.sum * sum
}

/// A table of line values for every 16-bit row.
fn build(w: &Weights, game: Game) -> Box<[f32; 1 << 16]> {
    let mut table = Box::new([0.0f32; 1 << 16]);
    for (slot, row) in table.iter_mut().zip(0..=u16::MAX) {
        *slot = line_value(unpack_row(row), w, game);
    }
    table
}

/// Sums a line table over the rows and the columns of a board.
#[inline]
fn board_value(table: &[f32; 1 << 16], board: Bits) -> f32 {
    let t = transpose(board);
    let mut v = 0.0;
    for i in 0..4 {
        v += table[((board >> (16 * i)) & 0xFFFF) as usize];
        v += table[((t >> (16 * i)) & 0xFFFF) as usize];
    }
    v
}

/// The heuristic value of a 2048 board (higher is better).
#[inline]
pub fn eval_2048(board: Bits) -> f32 {
    static TABLE: OnceLock<Box<[f32; 1 << 16]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| build(&WEIGHTS_2048, Game::Twenty48));
    board_value(table, board)
}

/// The heuristic value of a Threes board (higher is better).
#[inline]
pub fn eval_threes(board: Bits) -> f32 {
    static TABLE: OnceLock<Box<[f32; 1 << 16]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| build(&WEIGHTS_THREES, Game::Threes));
    board_value(table, board)
}

/// The value of losing, in a 2048 search from `root`.
pub fn loss_2048(root: Bits) -> f32 {
    eval_2048(root) - WEIGHTS_2048.loss
}

/// The value of losing, in a Threes search from `root`.
pub fn loss_threes(root: Bits) -> f32 {
    eval_threes(root) - WEIGHTS_THREES.loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::from_ranks;

    #[test]
    fn ordered_lines_beat_disordered_ones() {
        let w = &WEIGHTS_2048;
        let sorted = line_value([9, 7, 5, 3], w, Game::Twenty48);
        let trapped = line_value([7, 9, 3, 5], w, Game::Twenty48);
        assert!(sorted > trapped);
        // Mergeable pairs count, empty cells between them ignored.
        let pair = line_value([3, 0, 3, 0], w, Game::Twenty48);
        let apart = line_value([3, 0, 4, 0], w, Game::Twenty48);
        assert!(pair > apart);
    }

    #[test]
    fn threes_counts_its_own_merges() {
        let w = &WEIGHTS_THREES;
        // 1 and 1 never merge; 1 and 2 do.
        assert!(
            line_value([1, 2, 0, 0], w, Game::Threes) > line_value([1, 1, 0, 0], w, Game::Threes)
        );
        assert!(
            line_value([3, 3, 0, 0], w, Game::Threes) > line_value([3, 4, 0, 0], w, Game::Threes)
        );
    }

    #[test]
    fn a_corner_board_beats_a_scattered_one() {
        let corner = from_ranks(&[[8, 7, 6, 5], [1, 2, 3, 4], [0, 0, 0, 1], [0, 0, 0, 0]]);
        let scattered = from_ranks(&[[1, 7, 2, 5], [8, 0, 3, 0], [0, 6, 0, 1], [4, 0, 0, 0]]);
        assert!(eval_2048(corner) > eval_2048(scattered));
        assert!(loss_threes(0) < eval_threes(0));
        assert!(loss_2048(corner) < eval_2048(corner));
    }
}
