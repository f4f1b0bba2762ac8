//! What both players share: the clock, the iterative-deepening driver, and the expectimax
//! search itself, generic over the game ([`Rules`]): the player's turn, the transposition table
//! and the cut-offs are written once, and each game brings its evaluation and its answer to a
//! move (the chance node). Monomorphised, each game's search is as fast as one written out for
//! it.

use std::time::Duration;
use web_time::Instant;

use tilebox_sliding::Direction;

use crate::bitboard::Bits;
use crate::network::{PlayNetwork, SYMMETRIES};
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
    /// Nodes (and [`Stopper::poll`]s) between two looks at the clock: a power of two.
    every: u64,
    /// Calls of [`Stopper::poll`].
    polls: u64,
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
            every: CLOCK_EVERY,
            polls: 0,
            may_abort: false,
            aborted: false,
            depth_cut: false,
        }
    }

    /// The same stopper looking at the clock every `every` nodes (rounded up to a power of
    /// two), for searches whose nodes cost more than the heuristic's.
    pub(crate) fn every(mut self, every: u64) -> Self {
        self.every = every.max(1).next_power_of_two();
        self
    }

    /// Counts a node; true when the search must unwind now.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.may_abort && self.nodes & (self.every - 1) == 0 && self.clock.expired() {
            self.aborted = true;
        }
        self.aborted
    }

    /// As [`Stopper::tick`], for work that is not a player's turn (a chance node whose
    /// children are all evaluated): counted apart from the nodes.
    #[inline]
    pub(crate) fn poll(&mut self) -> bool {
        self.polls += 1;
        if self.may_abort && self.polls & (self.every - 1) == 0 && self.clock.expired() {
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

/// How iterative deepening steps and spends its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Deepening {
    /// A ply at a time. Without `spend`, each depth is started only while it is expected to
    /// fit the budget (the bitboard heuristic players). With it, the budget is spent as
    /// [`Deepening::ByMove`] spends it: the next depth starts whenever time is left, the last
    /// best move first, and one cut short at the deadline answers for the moves it finished,
    /// the best of them by the values of that depth (the generic search with the heuristic,
    /// whose values compare within one depth only).
    ByPly { spend: bool },
    /// A whole move at a time (a move and the game's answer: depths 1, 3, 5 …), and the budget
    /// spent: the next depth starts whenever time is left, and one cut short at the deadline
    /// still answers for the moves it finished (the network's searches, whose values at any
    /// depth estimate the same thing, the points still to come).
    ByMove,
}

/// What deepening found: the root values, the deepest complete depth, and the best move
/// when an iteration cut short chose it (its index in [`Direction::ALL`]).
pub(crate) type Deepened = (RootValues, u32, Option<usize>);

/// Runs `iteration` at increasing depths while the next one is expected to fit the budget, or
/// while time is left.
///
/// `iteration(depth, stopper, order)` searches the root moves in `order` (indices in
/// [`Direction::ALL`]), and leaves a move it did not finish before the stopper aborted at
/// `None`.
///
/// Without a time limit it runs `limits.max_depth` once (deterministic). With one it starts at
/// depth 1 and deepens by `how`. [`Deepening::ByPly`] without `spend` deepens while `elapsed + predicted <=
/// budget`: odd and even depths grow the tree differently (a player's move multiplies it by up
/// to 4, the game's answer by the number of its outcomes), so the prediction for depth `d + 1`
/// is the time of depth `d` multiplied by the growth from `d - 2` to `d - 1`, the last step of
/// the same kind ([`DEFAULT_GROWTH`] before there is one); an iteration that overruns anyway is
/// abandoned at the deadline and the last complete one answers. [`Deepening::ByMove`] deepens
/// two plies at a time while time is left, the best move of the last complete iteration
/// searched first: when the deadline cuts an iteration short after it finished that move, the
/// best of the moves it finished answers, with their deeper values.
/// [`Deepening::ByPly`] with `spend` spends the budget alike, a ply at a time. The first
/// iteration always completes. Deepening also stops once an iteration reached no leaf by running out of depth:
/// the probability cut-off bounded the whole tree, so going deeper would change nothing.
pub(crate) fn deepen(
    limits: &Limits,
    stopper: &mut Stopper,
    how: Deepening,
    mut iteration: impl FnMut(u32, &mut Stopper, [usize; 4]) -> RootValues,
) -> Option<Deepened> {
    let max_depth = limits.max_depth.clamp(1, crate::MAX_DEPTH);
    let in_order = [0, 1, 2, 3];
    let Some(budget) = limits.time else {
        stopper.may_abort = false;
        let values = iteration(max_depth, stopper, in_order);
        return Some((values, max_depth, None));
    };
    let budget = budget.as_secs_f64();
    let step = match how {
        Deepening::ByPly { .. } => 1,
        Deepening::ByMove => 2,
    };
    let mut best: Option<Deepened> = None;
    // Seconds taken by each completed depth, from depth 1.
    let mut took: Vec<f64> = Vec::new();
    for depth in (1..=max_depth).step_by(step) {
        stopper.may_abort = depth > 1;
        stopper.depth_cut = false;
        let started = stopper.clock.elapsed().as_secs_f64();
        let order = match (&best, how) {
            // The last best move first, where a depth cut short may answer. (The table's
            // approximations make values depend on the order moves are searched in: a search
            // that never answers from a depth cut short keeps one order.)
            (Some((values, _, _)), Deepening::ByMove | Deepening::ByPly { spend: true }) => {
                ranked(values)
            }
            _ => in_order,
        };
        let values = iteration(depth, stopper, order);
        if stopper.aborted {
            if how != (Deepening::ByPly { spend: false }) {
                best = best.map(|last| cut_short(last, &values));
            }
            break;
        }
        best = Some((values, depth, None));
        if !stopper.depth_cut {
            // Every leaf was cut for its probability: deeper searches give the same values.
            break;
        }
        let now = stopper.clock.elapsed().as_secs_f64();
        let last = (now - started).max(1e-7);
        took.push(last);
        let n = took.len();
        let growth = match how {
            Deepening::ByPly { .. } if n >= 3 => (took[n - 2] / took[n - 3]).clamp(1.5, 200.0),
            _ => DEFAULT_GROWTH,
        };
        let next = match how {
            Deepening::ByPly { spend: false } => now + last * growth,
            // Whatever is left is spent: a cut-short iteration still answers.
            Deepening::ByMove | Deepening::ByPly { spend: true } => now,
        };
        if next >= budget {
            break;
        }
    }
    best
}

/// The indices of the legal moves of `values`, best first (the first in [`Direction::ALL`]
/// order among equals), then the illegal ones.
fn ranked(values: &RootValues) -> [usize; 4] {
    let mut order = [0, 1, 2, 3];
    order.sort_by(|&a, &b| match (values[a], values[b]) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    order
}

/// The last complete iteration `last`, amended by one cut short that searched its best move
/// first and finished the moves of `deeper` that are `Some`: if it finished that best move,
/// the best of the moves it finished answers, and their values are the deeper ones.
fn cut_short(last: Deepened, deeper: &RootValues) -> Deepened {
    let (mut values, depth, chosen) = last;
    let best = chosen.or_else(|| {
        ranked(&values)
            .first()
            .copied()
            .filter(|&i| values[i].is_some())
    });
    let Some(best) = best.filter(|&i| deeper[i].is_some()) else {
        return (values, depth, chosen);
    };
    let mut pick = best;
    for (i, v) in deeper.iter().enumerate() {
        if let (Some(v), Some(b)) = (v, deeper[pick])
            && (*v > b || (*v == b && i < pick))
        {
            pick = i;
        }
    }
    for (slot, v) in values.iter_mut().zip(deeper) {
        if v.is_some() && slot.is_some() {
            *slot = *v;
        }
    }
    (values, depth, Some(pick))
}

/// Turns what deepening found into advice: the best legal move (the one deepening chose from a
/// depth cut short, an index in [`Direction::ALL`]; otherwise the best value, the first in
/// [`Direction::ALL`] order among equals) and every legal move's value. It takes the whole of
/// [`Deepened`], so that no search drops the choice.
pub(crate) fn advice(deepened: Deepened, nodes: u64) -> Option<Advice> {
    let (values, depth, chosen) = deepened;
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
    if let Some(i) = chosen.filter(|&i| values.get(i).is_some_and(Option::is_some)) {
        best = best.map(|(_, v)| (Direction::ALL[i], v));
    }
    best.map(|(best, _)| Advice {
        best,
        values: scored,
        depth,
        nodes,
    })
}

/// What a game brings to the shared expectimax search. A game is a value: the heuristic
/// players' are unit types; a network's search carries its network and tables.
pub(crate) trait Rules: Sized {
    /// What the player knows besides the board (Threes: the deck and the preview).
    type Known: Copy;

    /// How deepening steps ([`deepen`]).
    const DEEPENING: Deepening = Deepening::ByPly { spend: false };

    /// Nodes between two looks at the clock ([`Stopper::every`]).
    const CLOCK_EVERY: u64 = CLOCK_EVERY;

    /// Builds the tables the search uses, so that building them is not counted as thinking.
    fn prepare(&self);

    /// The value of a board where the player is to move, knowing `known`.
    fn eval(&self, board: Bits, known: Self::Known) -> f32;

    /// The value of a lost position, in a search from `root`.
    fn loss(&self, root: Bits) -> f32;

    /// What `known` adds to the transposition table's key.
    fn key(known: Self::Known) -> u16;

    /// A move made, as the chance node needs it.
    type Moved: Copy;

    /// The move `dir` from `board`, or `None` when it changes nothing.
    fn slide(&self, board: Bits, dir: Direction) -> Option<Self::Moved>;

    /// What a move earns, as the values count it: nothing for a heuristic (it values boards,
    /// not the points on the way); the points for a network, whose values are the points
    /// still to come.
    #[inline]
    fn points(&self, _moved: &Self::Moved) -> f32 {
        0.0
    }

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

/// The standard network's features' indices read straight off a board
/// (`ntuple::standard_indices`, handed down by the player: the searches sit below the
/// learning player's modules).
pub(crate) type StandardIndices = fn(Bits) -> [u32; 4 * SYMMETRIES];

/// A network as the bitboard searches read it ([`crate::twenty48::LadderNet`],
/// [`crate::threes::ThreesNet`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NetworkValue<'a> {
    network: &'a PlayNetwork,
    /// The standard features' indices, when the network's layout is the standard one.
    standard: Option<StandardIndices>,
}

impl<'a> NetworkValue<'a> {
    /// `network`, its features read by `standard` if its layout is the standard one
    /// ([`PlayNetwork::is_standard`]), through its compiled cells otherwise.
    pub(crate) fn new(network: &'a PlayNetwork, standard: StandardIndices) -> Self {
        Self {
            network,
            standard: network.is_standard().then_some(standard),
        }
    }

    /// The network's value of a bitboard afterstate (the board after a move, before the
    /// game's answer) with preview class `class` ([`crate::network::preview_class`]): the one
    /// valuation of the network's bitboard searches, [`PlayNetwork::value`]'s bit for bit.
    #[inline]
    pub(crate) fn value(&self, after: Bits, class: u8) -> f32 {
        match self.standard {
            Some(indices) => {
                // The board's stage's blocks: tuple `t` of stage `s` is block `4s + t`.
                let mut at = indices(after);
                let stage = self.network.layout().stage_of(after) as u32;
                if stage > 0 {
                    for i in &mut at {
                        *i += (4 * stage) << 24;
                    }
                }
                self.network.value_at(&at)
            }
            None => self.network.value(after, class),
        }
    }
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
    /// The game.
    pub(crate) game: &'a G,
    pub(crate) tt: &'a mut TransTable,
    pub(crate) stop: &'a mut Stopper,
    /// Below this probability of being reached, a position is evaluated, not searched.
    pub(crate) min_probability: f32,
    /// The value of a lost position.
    pub(crate) loss: f32,
}

impl<'a, G: Rules> Expectimax<'a, G> {
    /// A search from `root`, sharing the table and the stopper with the other iterations.
    pub(crate) fn new(
        game: &'a G,
        tt: &'a mut TransTable,
        stop: &'a mut Stopper,
        min_probability: f32,
        root: Bits,
    ) -> Self {
        Self {
            game,
            tt,
            stop,
            min_probability,
            loss: game.loss(root),
        }
    }

    /// Values of the four root moves searched `plies` plies deep (at least 1), in `order`
    /// (indices in [`Direction::ALL`]); once the stopper aborts, the move under way and those
    /// after it are left at `None`.
    pub(crate) fn root(
        &mut self,
        board: Bits,
        known: G::Known,
        plies: u32,
        order: [usize; 4],
    ) -> RootValues {
        let mut out = [None; 4];
        for d in order {
            let Some(moved) = self.game.slide(board, Direction::ALL[d & 3]) else {
                continue;
            };
            let value = self.game.points(&moved)
                + G::chance(self, moved, known, plies.saturating_sub(1), 1.0);
            if self.stop.aborted {
                break;
            }
            out[d & 3] = Some(value);
        }
        out
    }

    /// A player's turn with `plies` plies left, reached with probability `prob`: the best
    /// move's value, or the loss when no move is legal.
    #[inline]
    pub(crate) fn turn(&mut self, board: Bits, known: G::Known, plies: u32, prob: f32) -> f32 {
        if prob < self.min_probability {
            return self.game.eval(board, known);
        }
        if plies == 0 {
            self.stop.depth_cut = true;
            return self.game.eval(board, known);
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
        let game = self.game;
        for dir in Direction::ALL {
            if let Some(moved) = game.slide(board, dir) {
                best =
                    best.max(game.points(&moved) + G::chance(self, moved, known, plies - 1, prob));
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
            let values = Expectimax::new(&Rules2048, &mut tt, &mut stop, 0.2, board).root(
                board,
                (),
                3,
                [0, 1, 2, 3],
            );
            assert_eq!(stop.nodes, 0, "every turn below the root was a hit");
            assert_eq!(stop.depth_cut, expect_cut, "entries complete: {complete}");
            assert!(values[3].is_some());
            // Without the entries, the search itself meets the depth limit below them.
            tt.new_search();
            stop.depth_cut = false;
            Expectimax::new(&Rules2048, &mut tt, &mut stop, 0.2, board).root(
                board,
                (),
                3,
                [0, 1, 2, 3],
            );
            assert!(stop.depth_cut);
        }
    }

    /// Deepens from `board` until no leaf is cut by depth, then runs the next two iterations
    /// anyway, on the same table: they must give the same values, or the deepening stopped
    /// too early. Returns the depth it stopped at, `None` if it never stopped early.
    fn check_stop<G: Rules>(
        game: &G,
        board: Bits,
        known: G::Known,
        min_probability: f32,
    ) -> Option<u32> {
        let limits = Limits {
            time: Some(Duration::from_secs(3600)),
            max_depth: 12,
            min_probability,
        };
        let mut tt = TransTable::new(16);
        tt.new_search();
        let mut stop = Stopper::new(limits.time);
        let (values, depth, _) = deepen(&limits, &mut stop, G::DEEPENING, |depth, stop, order| {
            Expectimax::new(game, &mut tt, stop, min_probability, board)
                .root(board, known, depth, order)
        })?;
        if stop.depth_cut {
            return None;
        }
        for deeper in depth + 1..=depth + 2 {
            let again = Expectimax::new(game, &mut tt, &mut stop, min_probability, board).root(
                board,
                known,
                deeper,
                [0, 1, 2, 3],
            );
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
                                check_stop(&Rules2048, b, (), min_probability).is_some() as u32;
                        }
                        let s = threes.state();
                        let known = (
                            Deck::new(crate::threes::deck_counts(s)).unwrap(),
                            crate::threes::preview(s),
                        );
                        let b = encode(s.board()).unwrap();
                        stops[1] +=
                            check_stop(&RulesThrees, b, known, min_probability).is_some() as u32;
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

    /// Deepening by whole moves searches depths 1, 3, 5 … (a ply at a time, 1, 2, 3 …), the
    /// last iteration's best move first; an iteration the deadline cuts short answers for the
    /// moves it finished when it finished that best move, and not otherwise; by plies to the
    /// deadline, alike a ply at a time. (The iterations
    /// here are made up, and the deadline is theirs to call: no clock decides anything.)
    #[test]
    fn deepening_by_moves_steps_whole_moves_and_uses_an_iteration_cut_short() {
        let limits = Limits {
            time: Some(Duration::from_secs(3600)),
            max_depth: 40,
            min_probability: 0.0,
        };
        let cases = [
            // Cut inside the best move (2): the last complete iteration answers.
            ([None; 4], [Some(1.0), None, Some(4.0), Some(2.0)], None),
            // The best move finished, lower than before, and the next one finished above it.
            (
                [None, None, Some(3.5), Some(5.0)],
                [Some(1.0), None, Some(3.5), Some(5.0)],
                Some(3),
            ),
            // The best move alone finished.
            (
                [None, None, Some(3.5), None],
                [Some(1.0), None, Some(3.5), Some(2.0)],
                Some(2),
            ),
        ];
        for (partial, values, chosen) in cases {
            let mut stop = Stopper::new(limits.time);
            let mut seen = Vec::new();
            let found = deepen(
                &limits,
                &mut stop,
                Deepening::ByMove,
                |depth, stop, order| {
                    seen.push((depth, order));
                    stop.depth_cut = true;
                    match depth {
                        1 => [Some(1.0), None, Some(3.0), Some(2.0)],
                        3 => [Some(1.0), None, Some(4.0), Some(2.0)],
                        _ => {
                            stop.aborted = true;
                            partial
                        }
                    }
                },
            );
            assert_eq!(
                seen,
                [(1, [0, 1, 2, 3]), (3, [2, 3, 0, 1]), (5, [2, 3, 0, 1])]
            );
            assert_eq!(found, Some((values, 3, chosen)));
            let advice = advice((values, 3, chosen), 0).unwrap();
            let best = chosen.unwrap_or(2);
            assert_eq!(advice.best, Direction::ALL[best]);
        }
        // By ply: every depth, always in the same order.
        let mut seen = Vec::new();
        let limits = Limits {
            max_depth: 4,
            ..limits
        };
        let mut stop = Stopper::new(limits.time);
        deepen(
            &limits,
            &mut stop,
            Deepening::ByPly { spend: false },
            |depth, stop, order| {
                seen.push((depth, order));
                stop.depth_cut = true;
                [Some(depth as f32), None, Some(3.0), None]
            },
        );
        let expected: Vec<(u32, [usize; 4])> = (1..=4).map(|d| (d, [0, 1, 2, 3])).collect();
        assert_eq!(seen, expected);
        // By ply to the deadline: every depth while time is left, the last best move first,
        // and an iteration cut short after that move answers with the best of those finished,
        // by their values of that depth (3 had been best; 2 beats it at depth 3).
        let mut seen = Vec::new();
        let limits = Limits {
            max_depth: 40,
            ..limits
        };
        let mut stop = Stopper::new(limits.time);
        let found = deepen(
            &limits,
            &mut stop,
            Deepening::ByPly { spend: true },
            |depth, stop, order| {
                seen.push((depth, order));
                stop.depth_cut = true;
                match depth {
                    1 => [Some(1.0), None, Some(3.0), Some(2.0)],
                    2 => [Some(1.0), None, Some(2.0), Some(4.0)],
                    _ => {
                        stop.aborted = true;
                        [None, None, Some(2.5), Some(0.5)]
                    }
                }
            },
        );
        assert_eq!(
            seen,
            [(1, [0, 1, 2, 3]), (2, [2, 3, 0, 1]), (3, [3, 2, 0, 1])]
        );
        let values = [Some(1.0), None, Some(2.5), Some(0.5)];
        assert_eq!(found, Some((values, 2, Some(2))));
    }
}
