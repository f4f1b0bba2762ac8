//! The search engine behind hints and autoplay in 2048 and Threes.
//!
//! Boards are packed into a `u64` (four bits a cell, [`bitboard`]) and moved with precomputed
//! row tables. The players are expectimax searches: the player's turns take the best move, the
//! game's turns (where the new tile or card lands, and what it is) take the expectation. Each
//! search has
//! - a transposition table ([`Engine`] owns one and reuses its memory between searches),
//! - a probability cut-off: a position reached with probability below
//!   [`Limits::min_probability`] is evaluated by the heuristic instead of searched,
//! - a time budget by iterative deepening: depth 1, 2, 3, … while the next depth is expected to
//!   fit the budget, cut short at the deadline (the last complete depth answers),
//! - or, without a time limit, a single fixed-depth search, which is deterministic.
//!
//! With a trained network as the evaluation (`SlidingPlayer::advise_learned`), the same
//! search deepens by whole moves (depth 1, 3, 5 …: a move and the game's answer) and spends
//! its budget: the next depth starts while time is left, and one the deadline cuts short
//! answers for the root moves it finished, the last best first.
//!
//! The Threes player counts cards: it knows how many 1s, 2s and 3s are left in the deck, the
//! bonus odds, and treats the preview as a player sees it (a "+" is any of its possible values).
//!
//! The AI serves 4×4 boards with ranks up to 15, four bits a cell: 2048 tiles up to 32768, and
//! every Threes card (12288 is the highest). For anything else (another size, or a 2048 board
//! holding a 65536 or more) the `advise_*` functions return `None`: no move. Two 32768 tiles do
//! not merge in the AI's model (a 65536 does not fit in four bits); elsewhere it follows the
//! rules exactly.
//!
//! Every other sliding variant (another side, another ladder, triple merges) is played by
//! [`generic`]'s [`GenericEngine`]: the same search over boards of any side, with the rules
//! brought by a [`SlidingModel`]. [`SlidingPlayer`] plays any state of the data-driven sliding
//! engine (`tilebox_sliding::Sliding`), choosing between them ([`sliding`]).
//!
//! Everything is pure: the only global state is the immutable tables, built once on first use.
//! No threads are started; run searches on a thread of your own to keep a UI responsive.

pub mod bitboard;
pub mod generic;
mod heuristic;
mod network;
pub mod ntuple;
#[cfg(test)]
mod sample;
mod search;
pub mod sliding;
mod table;
#[cfg(test)]
mod testing;
pub mod threes;
mod twenty48;

use std::time::Duration;

use tilebox_sliding::{Direction, NextCard, SlidingState};

pub use generic::{CountedMove, GenericEngine, Grid, Learned, SlidingModel, SpawnAt};
pub use heuristic::{eval_2048, eval_threes};
pub use sliding::{Bitboard, SlidingPlayer, VariantModel};
pub use threes::{CardOdds, Deck, DeckError, bonus_ranks, card_odds};

use crate::bitboard::Bits;
use crate::search::{Expectimax, Rules, Stopper, advice, deepen};
use crate::table::{MAX_TABLE_DEPTH, TransTable};
use crate::threes::RulesThrees;
use crate::twenty48::Rules2048;

/// The deepest search [`Limits::max_depth`] may ask for, in plies.
pub const MAX_DEPTH: u32 = 40;

// Every depth a search reaches fits the transposition table's depth field.
const _: () = assert!(MAX_DEPTH <= MAX_TABLE_DEPTH as u32);

/// How long and how deep one search may go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Time budget for the move. `None`: no limit; search exactly `max_depth` deep, which is
    /// deterministic (the same input always gives the same advice). The budget may be overrun
    /// by about the time of the last 1024 nodes: the clock is read that often.
    pub time: Option<Duration>,
    /// Deepest search, in plies, 1 to [`MAX_DEPTH`]. A ply is a player's move or the game's
    /// answer (the new tile; in Threes the card's arrival and the next preview): depth 1
    /// evaluates the boards the moves leave, depth 2 the boards after the new tile, depth 3 the
    /// boards after the next move, and so on.
    pub max_depth: u32,
    /// Positions reached with a lower probability are evaluated, not searched further.
    pub min_probability: f32,
}

impl Limits {
    /// The default probability cut-off.
    pub const DEFAULT_MIN_PROBABILITY: f32 = 1e-4;

    /// Iterative deepening within `time` (up to [`MAX_DEPTH`]).
    pub fn per_move(time: Duration) -> Self {
        Self {
            time: Some(time),
            max_depth: MAX_DEPTH,
            min_probability: Self::DEFAULT_MIN_PROBABILITY,
        }
    }

    /// A deterministic search exactly `depth` plies deep, with no time limit.
    pub fn fixed_depth(depth: u32) -> Self {
        Self {
            time: None,
            max_depth: depth,
            min_probability: Self::DEFAULT_MIN_PROBABILITY,
        }
    }
}

impl Default for Limits {
    /// 20 ms a move.
    fn default() -> Self {
        Self::per_move(Duration::from_millis(20))
    }
}

/// What the search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The move with the highest expected value (the first in [`Direction::ALL`] order among
    /// equals).
    pub best: Direction,
    /// Every legal move with its expected heuristic value, in [`Direction::ALL`] order. Values
    /// compare moves of one search; they are not scores.
    pub values: Vec<(Direction, f64)>,
    /// Depth of the deepest complete search, in plies (see [`Limits::max_depth`]).
    pub depth: u32,
    /// Player turns searched, over all depths.
    pub nodes: u64,
}

/// A player that keeps its transposition table between searches (to save allocating it).
///
/// Its advice does not depend on earlier searches: each search ignores what the ones before it
/// stored.
#[derive(Debug, Clone)]
pub struct Engine {
    tt: TransTable,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine with a 2^20-slot (16 MiB) transposition table.
    pub fn new() -> Self {
        Self::with_table_bits(20)
    }

    /// An engine with a `2^bits`-slot transposition table (16 bytes a slot; `bits` is clamped
    /// to 10..=26).
    pub fn with_table_bits(bits: u32) -> Self {
        Self {
            tt: TransTable::new(bits),
        }
    }

    /// The best 2048 move for this state; `None` when no move is legal or the board is not a
    /// 4×4 board with tiles up to 32768.
    pub fn advise_2048(&mut self, state: &SlidingState, limits: &Limits) -> Option<Advice> {
        self.advise_2048_bits(bitboard::encode(state.board())?, limits)
    }

    /// The best 2048 move for a packed board ([`bitboard`]); `None` when no move is legal.
    pub fn advise_2048_bits(&mut self, board: Bits, limits: &Limits) -> Option<Advice> {
        self.advise(&Rules2048, board, (), limits)
    }

    /// The best Threes move for this state, counting cards; `None` when no move is legal or
    /// the board is not a 4×4 board with cards up to 12288.
    pub fn advise_threes(&mut self, state: &SlidingState, limits: &Limits) -> Option<Advice> {
        let board = bitboard::encode(state.board())?;
        // The engine's deck never holds more than four of a card.
        let deck = Deck::new(threes::deck_counts(state)).ok()?;
        self.advise_threes_bits(board, deck, threes::preview(state), limits)
    }

    /// The best Threes move for a packed board ([`bitboard`]), the deck left (the preview
    /// already drawn from it) and the preview; `None` when no move is legal.
    pub fn advise_threes_bits(
        &mut self,
        board: Bits,
        deck: Deck,
        preview: NextCard,
        limits: &Limits,
    ) -> Option<Advice> {
        self.advise(&RulesThrees, board, (deck, preview), limits)
    }

    /// Iterative deepening (or one fixed-depth search) of `game` from `board`.
    pub(crate) fn advise<G: Rules>(
        &mut self,
        game: &G,
        board: Bits,
        known: G::Known,
        limits: &Limits,
    ) -> Option<Advice> {
        self.tt.new_search();
        // The tables are built on first use; that is set-up, not thinking time.
        game.prepare();
        let mut stop = Stopper::new(limits.time).every(G::CLOCK_EVERY);
        let tt = &mut self.tt;
        let deepened = deepen(limits, &mut stop, G::DEEPENING, |depth, stop, order| {
            Expectimax::new(game, &mut *tt, stop, limits.min_probability, board)
                .root(board, known, depth, order)
        })?;
        advice(deepened, stop.nodes)
    }
}

/// The best 2048 move for this state within `limits`, with a fresh [`Engine`]; `None` when no
/// move is legal or the board is not a 4×4 board with tiles up to 32768.
pub fn advise_2048(state: &SlidingState, limits: &Limits) -> Option<Advice> {
    Engine::with_table_bits(18).advise_2048(state, limits)
}

/// The best Threes move for this state within `limits`, with a fresh [`Engine`]; `None` when
/// no move is legal or the board is not 4×4.
pub fn advise_threes(state: &SlidingState, limits: &Limits) -> Option<Advice> {
    Engine::with_table_bits(18).advise_threes(state, limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::{count_empty, entry_offset, from_ranks, move_2048, move_threes};
    use crate::sample::boards;
    use tilebox_core::Puzzle;
    use tilebox_core::Session;
    use tilebox_sliding::{Sliding, Variant, builtin_variant};

    fn variant(id: &str) -> Variant {
        builtin_variant(id).unwrap()
    }

    fn legal_2048(b: Bits) -> Vec<Direction> {
        Direction::ALL
            .into_iter()
            .filter(|&d| move_2048(b, d) != b)
            .collect()
    }

    /// After the move, every tile that may arrive anywhere leaves no legal move.
    fn certain_death_2048(after: Bits) -> bool {
        (0..16).filter(|i| (after >> (4 * i)) & 0xF == 0).all(|i| {
            [1u64, 2]
                .iter()
                .all(|&t| legal_2048(after | (t << (4 * i))).is_empty())
        })
    }

    #[test]
    fn the_only_legal_2048_move_is_chosen() {
        // Rows 0-2 full with no pair anywhere, row 3 empty: only Down moves anything.
        let b = from_ranks(&[[1, 2, 1, 2], [2, 1, 2, 1], [1, 2, 1, 2], [0, 0, 0, 0]]);
        assert_eq!(legal_2048(b), [Direction::Down]);
        for depth in 1..=5 {
            let advice = Engine::new()
                .advise_2048_bits(b, &Limits::fixed_depth(depth))
                .unwrap();
            assert_eq!(advice.best, Direction::Down);
            assert_eq!(advice.values.len(), 1);
            assert_eq!(advice.depth, depth);
        }
    }

    #[test]
    fn the_only_legal_threes_move_is_chosen() {
        // No 1–2 pair, no equal neighbours ≥ 3, only the bottom row empty: only Down moves.
        let b = from_ranks(&[[3, 4, 3, 4], [4, 3, 4, 3], [3, 4, 3, 4], [0, 0, 0, 0]]);
        let legal: Vec<Direction> = Direction::ALL
            .into_iter()
            .filter(|&d| move_threes(b, d).1 != 0)
            .collect();
        assert_eq!(legal, [Direction::Down]);
        for preview in [NextCard::One, NextCard::Three, NextCard::Bonus] {
            let deck = Deck::new([1, 2, 0]).unwrap();
            let advice = Engine::new()
                .advise_threes_bits(b, deck, preview, &Limits::fixed_depth(3))
                .unwrap();
            assert_eq!(advice.best, Direction::Down);
            assert_eq!(advice.values.len(), 1);
        }
    }

    /// Checks that `advice` for board `b` is one of the `safe` moves and counts the board;
    /// true once 20 boards have been checked.
    fn avoided(b: Bits, safe: &[Direction], advice: &Advice, found: &mut u32) -> bool {
        assert!(
            safe.contains(&advice.best),
            "{:?}: {advice:?}",
            bitboard::decode(b)
        );
        *found += 1;
        *found == 20
    }

    #[test]
    fn a_2048_move_into_certain_defeat_is_avoided() {
        let mut found = 0;
        for b in boards(7, 1, 7).take(200_000) {
            let legal = legal_2048(b);
            let (deadly, safe): (Vec<Direction>, Vec<Direction>) = legal
                .iter()
                .partition(|&&d| certain_death_2048(move_2048(b, d)));
            if deadly.is_empty() || safe.is_empty() {
                continue;
            }
            let advice = Engine::new()
                .advise_2048_bits(b, &Limits::fixed_depth(3))
                .unwrap();
            if avoided(b, &safe, &advice, &mut found) {
                break;
            }
        }
        assert_eq!(found, 20, "too few test boards");
    }

    #[test]
    fn a_threes_move_into_certain_defeat_is_avoided() {
        let dead = |b: Bits| Direction::ALL.iter().all(|&d| move_threes(b, d).1 == 0);
        let mut found = 0;
        // Low ranks so that 1s, 2s and 3s meet; the preview is a known 3.
        for b in boards(11, 1, 6).take(400_000) {
            let mut deadly = Vec::new();
            let mut safe = Vec::new();
            for d in Direction::ALL {
                let (after, moved) = move_threes(b, d);
                if moved == 0 {
                    continue;
                }
                let all_dead = (0..4)
                    .filter(|l| moved & (1 << l) != 0)
                    .all(|l| dead(after | (3u64 << entry_offset(d, l))));
                if all_dead {
                    deadly.push(d)
                } else {
                    safe.push(d)
                }
            }
            if deadly.is_empty() || safe.is_empty() {
                continue;
            }
            let deck = Deck::new([2, 2, 2]).unwrap();
            let advice = Engine::new()
                .advise_threes_bits(b, deck, NextCard::Three, &Limits::fixed_depth(3))
                .unwrap();
            if avoided(b, &safe, &advice, &mut found) {
                break;
            }
        }
        assert_eq!(found, 20, "too few test boards");
    }

    #[test]
    fn no_advice_when_over_or_not_4x4() {
        let over = from_ranks(&[[1, 2, 1, 2], [2, 1, 2, 1], [1, 2, 1, 2], [2, 1, 2, 1]]);
        assert_eq!(count_empty(over), 0);
        assert!(
            Engine::new()
                .advise_2048_bits(over, &Limits::fixed_depth(3))
                .is_none()
        );
        let stuck = from_ranks(&[[1, 1, 3, 4], [1, 1, 4, 3], [1, 1, 3, 4], [1, 1, 4, 3]]);
        assert!(
            Engine::new()
                .advise_threes_bits(stuck, Deck::FULL, NextCard::One, &Limits::default())
                .is_none()
        );
        let small = Session::<Sliding>::new(variant("2048-3x3"), 1).unwrap();
        assert!(advise_2048(small.state(), &Limits::fixed_depth(2)).is_none());
        let big = Session::<Sliding>::new(
            Variant {
                side: 5,
                ..variant("threes")
            },
            1,
        )
        .unwrap();
        assert!(advise_threes(big.state(), &Limits::fixed_depth(2)).is_none());
    }

    #[test]
    fn fixed_depth_is_deterministic_and_independent_of_earlier_searches() {
        let mut engine = Engine::with_table_bits(12);
        for b in boards(3, 6, 9).take(10) {
            let first = engine.advise_2048_bits(b, &Limits::fixed_depth(5));
            let again = engine.advise_2048_bits(b, &Limits::fixed_depth(5));
            // The table's size matters (collisions decide what it keeps), not its history.
            let fresh = Engine::with_table_bits(12).advise_2048_bits(b, &Limits::fixed_depth(5));
            assert_eq!(first, again);
            assert_eq!(first, fresh);
        }
    }

    #[test]
    fn advice_for_real_games_is_legal() {
        let limits = Limits::per_move(Duration::from_millis(2));
        let mut game = Session::<Sliding>::new(variant("2048"), 5).unwrap();
        let mut threes = Session::<Sliding>::new(variant("threes"), 5).unwrap();
        for _ in 0..30 {
            let a = advise_2048(game.state(), &limits).unwrap();
            assert!(Sliding::legal_moves(game.state()).contains(&a.best));
            assert!(a.depth >= 1);
            game.play(a.best).unwrap();
            let a = advise_threes(threes.state(), &limits).unwrap();
            assert!(Sliding::legal_moves(threes.state()).contains(&a.best));
            threes.play(a.best).unwrap();
        }
    }

    #[test]
    fn a_zero_budget_still_answers_at_depth_1() {
        let b = from_ranks(&[[1, 1, 0, 0], [0; 4], [0; 4], [0, 0, 0, 2]]);
        let advice = Engine::new()
            .advise_2048_bits(b, &Limits::per_move(Duration::ZERO))
            .unwrap();
        assert_eq!(advice.depth, 1);
    }
}
