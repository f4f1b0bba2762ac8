//! What both players share: the clock, the iterative-deepening driver, and the 2048 search.

use std::time::{Duration, Instant};

use tilebox_sliding::Direction;

use crate::bitboard::{Bits, count_empty, tables_2048};
use crate::heuristic::eval_2048;
use crate::table::TransTable;
use crate::{Advice, Limits};

/// How many nodes pass between two looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// A search's deadline.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    start: Instant,
    /// `None`: no time limit.
    budget: Option<Duration>,
}

impl Clock {
    pub(crate) fn start(budget: Option<Duration>) -> Self {
        Self {
            start: Instant::now(),
            budget,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the budget is spent.
    pub(crate) fn expired(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed() >= b)
    }
}

/// Counts nodes and decides, now and then, whether the search must stop.
#[derive(Debug)]
pub(crate) struct Stopper {
    pub(crate) clock: Clock,
    pub(crate) nodes: u64,
    /// Whether this iteration may be cut short (the first one never is, so there is always an
    /// answer).
    pub(crate) may_abort: bool,
    pub(crate) aborted: bool,
    /// Whether the iteration evaluated some position because the depth ran out (rather than
    /// because it was too unlikely). When none did, a deeper search would change nothing.
    pub(crate) depth_cut: bool,
}

impl Stopper {
    /// A stopper for a search within `budget` (`None`: no limit).
    pub(crate) fn new(budget: Option<Duration>) -> Self {
        Self {
            clock: Clock::start(budget),
            nodes: 0,
            may_abort: false,
            aborted: false,
            depth_cut: false,
        }
    }

    /// Counts a node; true when the search must unwind now.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.may_abort && self.nodes.is_multiple_of(CLOCK_EVERY) && self.clock.expired() {
            self.aborted = true;
        }
        self.aborted
    }
}

/// One iteration: the value of each root move (indexed like [`Direction::ALL`], `None` when
/// illegal).
pub(crate) type RootValues = [Option<f32>; 4];

/// Growth assumed from one depth to the next before two of the same kind have been timed.
const DEFAULT_GROWTH: f64 = 16.0;

/// Runs `iteration` at increasing depths while the next one is expected to fit the budget.
///
/// Without a time limit it runs `limits.max_depth` once (deterministic). With one it starts at
/// depth 1 and deepens while `elapsed + predicted <= budget`. Odd and even depths grow the tree
/// differently (a player's move multiplies it by up to 4, the game's answer by the number of
/// its outcomes), so the prediction for depth `d + 1` is the time of depth `d` multiplied by
/// the growth from `d - 2` to `d - 1`, the last step of the same kind
/// ([`DEFAULT_GROWTH`] before there is one). An iteration that overruns anyway is abandoned at
/// the deadline and the last complete one answers; the first iteration always completes.
/// Deepening also stops once an iteration reached no leaf by running out of depth: the
/// probability cut-off bounded the whole tree, so going deeper would change nothing.
pub(crate) fn deepen(
    limits: &Limits,
    stopper: &mut Stopper,
    mut iteration: impl FnMut(u32, &mut Stopper) -> RootValues,
) -> Option<(RootValues, u32)> {
    let max_depth = limits.max_depth.clamp(1, crate::MAX_DEPTH);
    let Some(budget) = limits.time else {
        stopper.may_abort = false;
        let values = iteration(max_depth, stopper);
        return Some((values, max_depth));
    };
    let budget = budget.as_secs_f64();
    let mut best: Option<(RootValues, u32)> = None;
    // Seconds taken by each completed depth, from depth 1.
    let mut took: Vec<f64> = Vec::new();
    for depth in 1..=max_depth {
        stopper.may_abort = depth > 1;
        stopper.depth_cut = false;
        let started = stopper.clock.elapsed().as_secs_f64();
        let values = iteration(depth, stopper);
        if stopper.aborted {
            break;
        }
        best = Some((values, depth));
        if !stopper.depth_cut {
            // Every leaf was cut for its probability: deeper searches give the same values.
            break;
        }
        let now = stopper.clock.elapsed().as_secs_f64();
        let last = (now - started).max(1e-7);
        took.push(last);
        let growth = match took.len() {
            n if n >= 3 => (took[n - 2] / took[n - 3]).clamp(1.5, 200.0),
            _ => DEFAULT_GROWTH,
        };
        if now + last * growth > budget {
            break;
        }
    }
    best
}

/// Turns root values into advice: the best legal move (first in [`Direction::ALL`] order among
/// equals) and every legal move's value.
pub(crate) fn advice(values: &RootValues, depth: u32, nodes: u64) -> Option<Advice> {
    let scored: Vec<(Direction, f64)> = Direction::ALL
        .iter()
        .zip(values)
        .filter_map(|(&d, v)| v.map(|v| (d, f64::from(v))))
        .collect();
    let mut best: Option<(Direction, f64)> = None;
    for &(d, v) in &scored {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((d, v));
        }
    }
    best.map(|(best, _)| Advice {
        best,
        values: scored,
        depth,
        nodes,
    })
}

/// The 2048 expectimax search.
pub(crate) struct Search2048<'a> {
    pub(crate) tt: &'a mut TransTable,
    pub(crate) stop: &'a mut Stopper,
    /// Below this probability of being reached, a position is evaluated, not searched.
    pub(crate) min_probability: f32,
    /// The value of a lost position.
    pub(crate) loss: f32,
}

impl Search2048<'_> {
    /// Values of the four root moves searched `plies` plies deep (at least 1).
    pub(crate) fn root(&mut self, board: Bits, plies: u32) -> RootValues {
        let tables = tables_2048();
        let mut out = [None; 4];
        for (slot, dir) in out.iter_mut().zip(Direction::ALL) {
            let after = tables.shift(board, dir);
            if after != board {
                *slot = Some(self.spawn(after, plies.saturating_sub(1), 1.0));
            }
        }
        out
    }

    /// A player's turn with `plies` plies left, reached with probability `prob`.
    fn turn(&mut self, board: Bits, plies: u32, prob: f32) -> f32 {
        if prob < self.min_probability {
            return eval_2048(board);
        }
        if plies == 0 {
            self.stop.depth_cut = true;
            return eval_2048(board);
        }
        let d = plies.min(255) as u8;
        if let Some(v) = self.tt.get(board, 0, d) {
            return v;
        }
        if self.stop.tick() {
            return 0.0;
        }
        let tables = tables_2048();
        let mut best = f32::NEG_INFINITY;
        for dir in Direction::ALL {
            let after = tables.shift(board, dir);
            if after != board {
                best = best.max(self.spawn(after, plies - 1, prob));
            }
        }
        if best == f32::NEG_INFINITY {
            best = self.loss;
        }
        if !self.stop.aborted {
            self.tt.put(board, 0, d, best);
        }
        best
    }

    /// The tile's arrival after a move, with `plies` plies left: every empty cell alike, a 2
    /// nine times in ten, else a 4. With no ply left the board is evaluated as it is.
    fn spawn(&mut self, board: Bits, plies: u32, prob: f32) -> f32 {
        let empty = count_empty(board);
        if plies == 0 || empty == 0 {
            // (No empty cell cannot follow a move that changed the board.)
            self.stop.depth_cut = true;
            return eval_2048(board);
        }
        let share = prob / empty as f32;
        let mut total = 0.0f32;
        let mut free = board;
        let mut tile: u64 = 1;
        for _ in 0..16 {
            if free & 0xF == 0 {
                total += 0.9 * self.turn(board | tile, plies - 1, share * 0.9);
                total += 0.1 * self.turn(board | (tile << 1), plies - 1, share * 0.1);
            }
            free >>= 4;
            tile <<= 4;
        }
        total / empty as f32
    }
}
