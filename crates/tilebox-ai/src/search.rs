//! What both players share: the clock, the iterative-deepening driver, and the expectimax
//! search itself, generic over the game ([`Rules`]): the player's turn, the transposition table
//! and the cut-offs are written once, and each game brings its evaluation and its answer to a
//! move (the chance node). Monomorphised, each game's search is as fast as one written out for
//! it.

use std::marker::PhantomData;
use std::time::Duration;
use web_time::Instant;

use tilebox_sliding::Direction;

use crate::bitboard::Bits;
use crate::table::{Entry, MAX_TABLE_DEPTH, TransTable};
use crate::{Advice, Limits};

/// How many nodes (player turns) pass between two looks at the clock: a search may overrun its
/// budget by about the time this many take.
pub(crate) const CLOCK_EVERY: u64 = 1024;

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
    /// because it was too unlikely), or reused a table entry whose search did. When neither
    /// happened, a deeper search would change nothing.
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

/// What a game brings to the shared expectimax search.
pub(crate) trait Rules: Sized {
    /// What the player knows besides the board (Threes: the deck and the preview).
    type Known: Copy;

    /// Builds the tables the search uses, so that building them is not counted as thinking.
    fn prepare();

    /// The heuristic value of a board.
    fn eval(board: Bits) -> f32;

    /// The value of a lost position, in a search from `root`.
    fn loss(root: Bits) -> f32;

    /// What `known` adds to the transposition table's key.
    fn key(known: Self::Known) -> u16;

    /// A move made, as the chance node needs it.
    type Moved: Copy;

    /// The move `dir` from `board`, or `None` when it changes nothing.
    fn slide(board: Bits, dir: Direction) -> Option<Self::Moved>;

    /// The chance node after a move: the expected value of the game's answer (the new tile or
    /// card), with `plies` plies left after the move, reached with probability `prob`.
    fn chance(
        search: &mut Expectimax<'_, Self>,
        moved: Self::Moved,
        known: Self::Known,
        plies: u32,
        prob: f32,
    ) -> f32;
}

/// One expectimax search of game `G`.
///
/// With no probability cut-off and no position met at two different depths it is plain
/// expectimax (the tests compare it, at depths 1 to 4, with one written from the rules on the
/// engine's boards). Otherwise the transposition table makes two known approximations, both
/// for speed:
/// - an entry answers requests at or below the depth it was searched to, so a position met
///   again closer to the horizon gets a deeper (better informed) value than a search from there
///   would give;
/// - values are stored without the probability they were searched at, and the cut-off depends
///   on it: a position met again along a likelier path reuses a value whose tree was cut
///   sooner, and one met along a less likely path one whose tree went further.
///
/// Whether an entry's search was cut by depth is stored with it, so reusing it tells deepening
/// the truth about depth-limited leaves (judged at the probability the entry was searched at).
pub(crate) struct Expectimax<'a, G> {
    pub(crate) tt: &'a mut TransTable,
    pub(crate) stop: &'a mut Stopper,
    /// Below this probability of being reached, a position is evaluated, not searched.
    pub(crate) min_probability: f32,
    /// The value of a lost position.
    pub(crate) loss: f32,
    game: PhantomData<G>,
}

impl<'a, G: Rules> Expectimax<'a, G> {
    /// A search from `root`, sharing the table and the stopper with the other iterations.
    pub(crate) fn new(
        tt: &'a mut TransTable,
        stop: &'a mut Stopper,
        min_probability: f32,
        root: Bits,
    ) -> Self {
        Self {
            tt,
            stop,
            min_probability,
            loss: G::loss(root),
            game: PhantomData,
        }
    }

    /// Values of the four root moves searched `plies` plies deep (at least 1).
    pub(crate) fn root(&mut self, board: Bits, known: G::Known, plies: u32) -> RootValues {
        let mut out = [None; 4];
        for (slot, dir) in out.iter_mut().zip(Direction::ALL) {
            *slot = G::slide(board, dir)
                .map(|moved| G::chance(self, moved, known, plies.saturating_sub(1), 1.0));
        }
        out
    }

    /// A player's turn with `plies` plies left, reached with probability `prob`: the best
    /// move's value, or the loss when no move is legal.
    #[inline]
    pub(crate) fn turn(&mut self, board: Bits, known: G::Known, plies: u32, prob: f32) -> f32 {
        if prob < self.min_probability {
            return G::eval(board);
        }
        if plies == 0 {
            self.stop.depth_cut = true;
            return G::eval(board);
        }
        let key = G::key(known);
        // Depths are at most MAX_DEPTH, below the table's limit (checked in lib.rs).
        let depth = plies.min(u32::from(MAX_TABLE_DEPTH)) as u8;
        if let Some(hit) = self.tt.get(board, key, depth) {
            // An entry from an earlier, shallower iteration may stand for depth-limited leaves
            // that this iteration would otherwise not see: deepening must not stop on its
            // account.
            self.stop.depth_cut |= !hit.complete;
            return hit.value;
        }
        if self.stop.tick() {
            return 0.0;
        }
        // Track whether this subtree alone is cut by depth, to store with its value.
        let cut_before = std::mem::replace(&mut self.stop.depth_cut, false);
        let mut best = f32::NEG_INFINITY;
        for dir in Direction::ALL {
            if let Some(moved) = G::slide(board, dir) {
                best = best.max(G::chance(self, moved, known, plies - 1, prob));
            }
        }
        if best == f32::NEG_INFINITY {
            best = self.loss;
        }
        let complete = !self.stop.depth_cut;
        self.stop.depth_cut |= cut_before;
        if !self.stop.aborted {
            let entry = Entry {
                value: best,
                complete,
            };
            self.tt.put(board, key, depth, entry);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use tilebox_core::Session;
    use tilebox_sliding::{Sliding, builtin_variant};

    use super::*;
    use crate::Engine;
    use crate::bitboard::{encode, from_ranks, move_2048};
    use crate::threes::{Deck, RulesThrees};
    use crate::twenty48::Rules2048;

    /// An iteration that reuses a table entry stands for the entry's leaves: if the entry's
    /// search had depth-limited leaves, so does the iteration (before, a hit never said so, and
    /// deepening could stop on the strength of an entry from a shallower iteration).
    #[test]
    fn a_table_hit_passes_on_whether_its_search_was_cut_by_depth() {
        // Only Down is legal; it leaves four empty cells. With a cut-off of 0.2 the four boards
        // with a new 2 (0.225 each) are searched and those with a 4 (0.025) only evaluated.
        let board = from_ranks(&[[1, 2, 1, 2], [2, 1, 2, 1], [1, 2, 1, 2], [0, 0, 0, 0]]);
        let after = move_2048(board, Direction::Down);
        let with_two: Vec<Bits> = (0..4).map(|col| after | 1 << (4 * col)).collect();
        for (complete, expect_cut) in [(false, true), (true, false)] {
            let mut tt = TransTable::new(12);
            tt.new_search();
            // As an earlier iteration might have left them: the four boards, 2 plies deep.
            for &b in &with_two {
                let entry = Entry {
                    value: 1.0,
                    complete,
                };
                tt.put(b, 0, 2, entry);
            }
            let mut stop = Stopper::new(None);
            // Depth 3: the four boards are reached with 1 ply left, and all four are hits.
            let values =
                Expectimax::<Rules2048>::new(&mut tt, &mut stop, 0.2, board).root(board, (), 3);
            assert_eq!(stop.nodes, 0, "every turn below the root was a hit");
            assert_eq!(stop.depth_cut, expect_cut, "entries complete: {complete}");
            assert!(values[3].is_some());
            // Without the entries, the search itself meets the depth limit below them.
            tt.new_search();
            stop.depth_cut = false;
            Expectimax::<Rules2048>::new(&mut tt, &mut stop, 0.2, board).root(board, (), 3);
            assert!(stop.depth_cut);
        }
    }

    /// Deepens from `board` until no leaf is cut by depth, then runs the next two iterations
    /// anyway, on the same table: they must give the same values, or the deepening stopped
    /// too early. Returns the depth it stopped at, `None` if it never stopped early.
    fn check_stop<G: Rules>(board: Bits, known: G::Known, min_probability: f32) -> Option<u32> {
        let limits = Limits {
            time: Some(Duration::from_secs(3600)),
            max_depth: 12,
            min_probability,
        };
        let mut tt = TransTable::new(16);
        tt.new_search();
        let mut stop = Stopper::new(limits.time);
        let (values, depth) = deepen(&limits, &mut stop, |depth, stop| {
            Expectimax::<G>::new(&mut tt, stop, min_probability, board).root(board, known, depth)
        })?;
        if stop.depth_cut {
            return None;
        }
        for deeper in depth + 1..=depth + 2 {
            let again = Expectimax::<G>::new(&mut tt, &mut stop, min_probability, board)
                .root(board, known, deeper);
            assert_eq!(again, values, "stopped at {depth}, {deeper} differs");
        }
        Some(depth)
    }

    #[test]
    fn deepening_stops_only_where_deeper_iterations_change_nothing() {
        let mut engine = Engine::with_table_bits(14);
        let quick = Limits::fixed_depth(2);
        let mut stops = [0; 2];
        for seed in 0..2 {
            let mut game = Session::<Sliding>::new(builtin_variant("2048").unwrap(), seed).unwrap();
            let mut threes =
                Session::<Sliding>::new(builtin_variant("threes").unwrap(), seed).unwrap();
            for step in 0..200 {
                if step % 8 == 0 {
                    for min_probability in [0.01, 0.03] {
                        if let Some(b) = encode(game.state().board()) {
                            stops[0] +=
                                check_stop::<Rules2048>(b, (), min_probability).is_some() as u32;
                        }
                        let s = threes.state();
                        let known = (
                            Deck::new(crate::threes::deck_counts(s)).unwrap(),
                            crate::threes::preview(s),
                        );
                        let b = encode(s.board()).unwrap();
                        stops[1] +=
                            check_stop::<RulesThrees>(b, known, min_probability).is_some() as u32;
                    }
                }
                if let Some(a) = engine.advise_2048(game.state(), &quick) {
                    game.play(a.best).unwrap();
                }
                if let Some(a) = engine.advise_threes(threes.state(), &quick) {
                    threes.play(a.best).unwrap();
                }
            }
        }
        // Enough early stops were checked in both games.
        assert!(stops[0] >= 5 && stops[1] >= 5, "{stops:?}");
    }
}
