//! The generic player's heuristic: one value per row and column, summed, for any ladder and
//! merge rule.
//!
//! Tiles are read by *level*, `1 + log2(value / lowest value)`: 2048's levels are its ranks, and
//! every other ladder gets the same scale (a Fibonacci 2584 is level 12.3, a 2048 level 11), so
//! one set of weights serves them all. A line scores
//! - its empty cells (room to move);
//! - its mergeable neighbours, empty cells between them ignored, by the model's own rule
//!   ([`SlidingModel::merges_with`], either order, since a line is swiped both ways);
//! - minus its monotonicity: the smaller of the two one-way disorders, where going the wrong
//!   way from level `a` to level `b` costs `b^p - a^p`;
//! - minus a small `Σ level^q`, which prefers merging now to merging later.
//!
//! The board adds a penalty when its largest tile is not in a corner. A lost position is worth
//! the root's value minus [`Weights::loss`] and minus the root's own size, so that losing stays
//! below every living board however large the tiles grow. The terms and the starting weights
//! follow nneonneo/2048-ai, as the bitboard players' do.

use tilebox_sliding::Board;

use super::{EvalCache, Grid, LineIndex, MAX_RANK, SlidingModel};

/// The heuristic's weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// How much worse than the root a lost position is (beside the root's own magnitude).
    pub loss: f32,
    /// Per empty cell of a line.
    pub empty: f32,
    /// Per mergeable pair of neighbours in a line.
    pub merges: f32,
    /// Exponent of the monotonicity term.
    pub mono_power: f32,
    /// Weight of the monotonicity term.
    pub mono: f32,
    /// Exponent of the level sum.
    pub sum_power: f32,
    /// Weight of the level sum.
    pub sum: f32,
    /// Times `level^mono_power` of the largest tile, when no corner holds it.
    pub corner: f32,
}

impl Weights {
    /// The weights the player uses unless told otherwise.
    pub const DEFAULT: Weights = Weights {
        loss: 200_000.0,
        empty: 270.0,
        merges: 700.0,
        mono_power: 4.0,
        mono: 47.0,
        sum_power: 3.5,
        sum: 11.0,
        corner: 10.0,
    };
}

/// How many ranks a cell may hold, the empty cell's 0 among them.
const RANKS: usize = MAX_RANK as usize + 1;

/// The heuristic prepared for one model and one search.
#[derive(Debug, Clone)]
pub(crate) struct Evaluator {
    side: usize,
    w: Weights,
    /// `level^mono_power` and `level^sum_power` of each rank (0 for an empty cell).
    mono: [f32; RANKS],
    sum: [f32; RANKS],
    /// Bit `b % 64` of `merges[a][b / 64]`: `a` and `b` side by side can merge, in either order.
    merges: Box<[[u64; 4]; RANKS]>,
}

impl Evaluator {
    pub(crate) fn new<M: SlidingModel + ?Sized>(model: &M, root: &Grid, w: Weights) -> Self {
        let levels = levels(model);
        let mut mono = [0.0; RANKS];
        let mut sum = [0.0; RANKS];
        for r in 1..RANKS {
            mono[r] = levels[r].powf(w.mono_power);
            sum[r] = levels[r].powf(w.sum_power);
        }
        // Ranks far above the root's highest cannot appear within a search.
        let top = usize::from(root.max_rank().saturating_add(8));
        let mut merges = Box::new([[0u64; 4]; RANKS]);
        for (a, row) in merges.iter_mut().enumerate().take(top + 1).skip(1) {
            for b in 1..=top {
                let (ra, rb) = (a as u8, b as u8);
                if model.merges_with(ra, rb) || model.merges_with(rb, ra) {
                    row[b >> 6] |= 1 << (b & 63);
                }
            }
        }
        Self {
            side: root.side().clamp(Board::MIN_SIDE, Board::MAX_SIDE),
            w,
            mono,
            sum,
            merges,
        }
    }

    /// The value of a line of ranks, from one end to the other.
    pub(crate) fn line(&self, line: &[u8]) -> f32 {
        let w = &self.w;
        let mut empty = 0u32;
        let mut pairs = 0u32;
        let mut sum = 0.0f32;
        let mut prev = 0u8;
        for &r in line {
            sum += self.sum[usize::from(r)];
            if r == 0 {
                empty += 1;
                continue;
            }
            if prev != 0
                && self.merges[usize::from(prev)][usize::from(r >> 6)] & (1 << (r & 63)) != 0
            {
                pairs += 1;
            }
            prev = r;
        }
        let mut toward_start = 0.0f32;
        let mut toward_end = 0.0f32;
        for pair in line.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ma, mb) = (self.mono[usize::from(a)], self.mono[usize::from(b)]);
            if a > b {
                toward_start += ma - mb;
            } else {
                toward_end += mb - ma;
            }
        }
        w.empty * empty as f32 + w.merges * pairs as f32
            - w.mono * toward_start.min(toward_end)
            - w.sum * sum
    }

    /// The value of a board: its rows and columns (each line's value cached by its ranks),
    /// and the corner term.
    pub(crate) fn board(&self, grid: &Grid, index: &LineIndex, cache: &mut EvalCache) -> f32 {
        let side = self.side;
        let mut total = 0.0;
        // Left: the rows; Up: the columns (see `Direction::ALL`).
        for d in [0, 2] {
            for line in 0..side {
                let at = &index.cells[d][8 * line..8 * line + side];
                let mut ranks = [0u8; 8];
                for (slot, &i) in ranks.iter_mut().zip(at) {
                    *slot = grid.cells[usize::from(i)];
                }
                let key = super::pack(&ranks[..side]);
                total += match cache.get(&key) {
                    Some(&v) => v,
                    None => {
                        let v = self.line(&ranks[..side]);
                        cache.insert(key, v);
                        v
                    }
                };
            }
        }
        let top = grid.max_rank();
        let last = side - 1;
        let corners = [0, last, last * side, last * side + last];
        if top != 0 && !corners.iter().any(|&i| grid.cells[i] == top) {
            total -= self.w.corner * self.mono[usize::from(top)];
        }
        total
    }

    /// The value of a lost position in a search from `root`.
    pub(crate) fn loss(&self, root: &Grid) -> f32 {
        let mut cache = EvalCache::default();
        let index = LineIndex::new(self.side);
        let v = self.board(root, &index, &mut cache);
        v - self.w.loss - v.abs()
    }
}

/// Each rank's level, `1 + log2(value / value of rank 1)`; where the values stop increasing
/// (past the top of a ladder, or a model that answers nonsense) each rank is one level above
/// the one before. 0 for an empty cell.
fn levels<M: SlidingModel + ?Sized>(model: &M) -> [f32; RANKS] {
    let mut levels = [0.0f32; RANKS];
    let lowest = model.value(1).max(1) as f64;
    for r in 1..=MAX_RANK {
        let i = usize::from(r);
        let below = levels[i - 1];
        let level = (1.0 + (model.value(r) as f64 / lowest).log2()) as f32;
        levels[i] = if level.is_finite() && level >= 1.0 && level > below {
            level
        } else {
            below + 1.0
        };
    }
    levels
}
