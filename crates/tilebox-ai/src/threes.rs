//! The Threes search: expectimax over card positions, bonus values and the counted deck.
//!
//! A turn knows the board, what is left of the deck and the preview. For each legal move, the
//! previewed card enters at the far edge of one of the lines that moved, each alike; a known
//! 1, 2 or 3 is itself, while "+" is averaged over the bonus values it may be (6 up to the
//! highest tile / 8, each alike). Then the next preview is drawn: a bonus card with probability
//! 1/21 once the highest tile is 48 or more (the deck untouched), otherwise one of the deck's
//! cards in proportion to how many of each are left (the deck is rebuilt when empty).

use tilebox_sliding::Direction;

use crate::bitboard::{Bits, MAX_RANK, entry_shift, max_rank, tables_threes};
use crate::heuristic::eval_threes;
use crate::search::{RootValues, Stopper};
use crate::table::TransTable;

/// The highest tile from which bonus cards appear: rank 7, the tile 48.
pub const BONUS_FROM_RANK: u8 = 7;

/// A bonus card comes instead of a deck card with probability 1 in this.
pub const BONUS_ODDS: u32 = 21;

/// The lowest bonus card: rank 4, the tile 6.
pub const BONUS_MIN_RANK: u8 = 4;

/// How many of each card a full deck holds.
pub const FULL_DECK: [u8; 3] = [4, 4, 4];

/// The card shown as the preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preview {
    /// A 1, 2 or 3 (the rank, equal to the value for these).
    Card(u8),
    /// A bonus card ("+"): its value is hidden.
    Bonus,
}

impl Preview {
    /// A small code for transposition-table keys: 0 for bonus, else the rank (1..=3).
    fn code(self) -> u16 {
        match self {
            Preview::Card(r) => u16::from(r & 3),
            Preview::Bonus => 0,
        }
    }
}

/// The possible next previews, with their probabilities and the deck each leaves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardOdds {
    outcomes: [(Preview, f32, [u8; 3]); 4],
    len: usize,
}

impl CardOdds {
    /// The outcomes with non-zero probability: the preview, its probability, the deck after.
    pub fn outcomes(&self) -> &[(Preview, f32, [u8; 3])] {
        &self.outcomes[..self.len.min(4)]
    }
}

/// The odds of the next card drawn from `deck` (how many 1s, 2s and 3s are left) on a board
/// whose highest rank is `highest`. An empty deck is rebuilt first, as the game does.
pub fn card_odds(deck: [u8; 3], highest: u8) -> CardOdds {
    let deck = if deck == [0, 0, 0] { FULL_DECK } else { deck };
    let total: u32 = deck.iter().map(|&n| u32::from(n)).sum();
    let bonus = if highest >= BONUS_FROM_RANK {
        1.0 / BONUS_ODDS as f32
    } else {
        0.0
    };
    let mut odds = CardOdds {
        outcomes: [(Preview::Bonus, 0.0, deck); 4],
        len: 0,
    };
    for (i, &count) in deck.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let mut after = deck;
        after[i] -= 1;
        let p = (1.0 - bonus) * f32::from(count) / total as f32;
        odds.outcomes[odds.len] = (Preview::Card(i as u8 + 1), p, after);
        odds.len += 1;
    }
    if bonus > 0.0 {
        odds.outcomes[odds.len] = (Preview::Bonus, bonus, deck);
        odds.len += 1;
    }
    odds
}

/// The ranks a "+" preview may hide on a board whose highest rank is `highest`: 6 (rank 4) up
/// to highest / 8 (three ranks down), at least one.
pub fn bonus_ranks(highest: u8) -> std::ops::RangeInclusive<u8> {
    let top = highest.saturating_sub(3).max(BONUS_MIN_RANK);
    BONUS_MIN_RANK..=top
}

/// Packs the deck and the preview into the table's extra key.
fn key(deck: [u8; 3], preview: Preview) -> u16 {
    let d = |i: usize| u16::from(deck[i].min(7));
    (d(0) | (d(1) << 3) | (d(2) << 6)) << 2 | preview.code()
}

/// The Threes expectimax search.
pub(crate) struct SearchThrees<'a> {
    pub(crate) tt: &'a mut TransTable,
    pub(crate) stop: &'a mut Stopper,
    pub(crate) min_probability: f32,
    /// The value of a lost position.
    pub(crate) loss: f32,
}

impl SearchThrees<'_> {
    /// Values of the four root moves searched `plies` plies deep (at least 1).
    pub(crate) fn root(
        &mut self,
        board: Bits,
        deck: [u8; 3],
        preview: Preview,
        plies: u32,
    ) -> RootValues {
        let mut out = [None; 4];
        for (slot, dir) in out.iter_mut().zip(Direction::ALL) {
            if let Some(next) = Move::new(board, dir) {
                *slot = Some(self.place(next, deck, preview, plies.saturating_sub(1), 1.0));
            }
        }
        out
    }

    /// A player's turn seeing `preview`, with `plies` plies left, reached with probability
    /// `prob`.
    fn turn(&mut self, board: Bits, deck: [u8; 3], preview: Preview, plies: u32, prob: f32) -> f32 {
        if prob < self.min_probability {
            return eval_threes(board);
        }
        if plies == 0 {
            self.stop.depth_cut = true;
            return eval_threes(board);
        }
        let k = key(deck, preview);
        let d = plies.min(255) as u8;
        if let Some(v) = self.tt.get(board, k, d) {
            return v;
        }
        if self.stop.tick() {
            return 0.0;
        }
        let mut best = f32::NEG_INFINITY;
        for next in Direction::ALL
            .into_iter()
            .filter_map(|dir| Move::new(board, dir))
        {
            best = best.max(self.place(next, deck, preview, plies - 1, prob));
        }
        if best == f32::NEG_INFINITY {
            best = self.loss;
        }
        if !self.stop.aborted {
            self.tt.put(board, k, d, best);
        }
        best
    }

    /// The previewed card entering after a move, with `plies` plies left: each moved line
    /// alike, and for "+" each possible bonus value alike. With no ply left the board is
    /// evaluated as the move left it.
    fn place(&mut self, mv: Move, deck: [u8; 3], preview: Preview, plies: u32, prob: f32) -> f32 {
        if plies == 0 {
            self.stop.depth_cut = true;
            return eval_threes(mv.after);
        }
        let ranks = match preview {
            // (A rank above 15 cannot be on the board; clamp rather than spill into a neighbour.)
            Preview::Card(r) => r.min(MAX_RANK)..=r.min(MAX_RANK),
            Preview::Bonus => bonus_ranks(max_rank(mv.before)),
        };
        let values = u32::from(ranks.end().saturating_sub(*ranks.start())) + 1;
        let ways = mv.moved.count_ones() * values;
        let share = prob / ways as f32;
        let mut total = 0.0f32;
        for line in 0..4 {
            if mv.moved & (1 << line) == 0 {
                continue;
            }
            let at = entry_shift(mv.dir, line);
            for rank in ranks.clone() {
                let board = mv.after | (u64::from(rank) << at);
                total += self.draw(board, deck, plies - 1, share);
            }
        }
        total / ways as f32
    }

    /// The next preview being drawn, then the turn that sees it (the draw takes no ply of its
    /// own: it belongs with the card's arrival).
    fn draw(&mut self, board: Bits, deck: [u8; 3], plies: u32, prob: f32) -> f32 {
        if prob < self.min_probability {
            return eval_threes(board);
        }
        if plies == 0 {
            self.stop.depth_cut = true;
            return eval_threes(board);
        }
        let odds = card_odds(deck, max_rank(board));
        let mut total = 0.0f32;
        for &(preview, p, after) in odds.outcomes() {
            total += p * self.turn(board, after, preview, plies, prob * p);
        }
        total
    }
}

/// A move made: the boards before and after, the lines that moved, the direction.
#[derive(Debug, Clone, Copy)]
struct Move {
    before: Bits,
    after: Bits,
    moved: u8,
    dir: Direction,
}

impl Move {
    /// The move `dir` from `board`, or `None` when it changes nothing.
    fn new(board: Bits, dir: Direction) -> Option<Move> {
        let (after, moved) = tables_threes().shift_lines(board, dir);
        (moved != 0).then_some(Move {
            before: board,
            after,
            moved,
            dir,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_odds_sum_to_one_for_every_deck_and_highest_tile() {
        for ones in 0..=4u8 {
            for twos in 0..=4u8 {
                for threes in 0..=4u8 {
                    for highest in 0..=15u8 {
                        let deck = [ones, twos, threes];
                        let odds = card_odds(deck, highest);
                        let sum: f64 = odds.outcomes().iter().map(|o| f64::from(o.1)).sum();
                        assert!((sum - 1.0).abs() < 1e-6, "{deck:?} {highest}: {sum}");
                        for &(preview, p, after) in odds.outcomes() {
                            assert!(p > 0.0);
                            let full = if deck == [0, 0, 0] { FULL_DECK } else { deck };
                            match preview {
                                Preview::Card(r) => {
                                    let i = usize::from(r - 1);
                                    assert!(full[i] > 0);
                                    assert_eq!(after[i] + 1, full[i]);
                                    let expected = f32::from(full[i])
                                        / full.iter().map(|&n| f32::from(n)).sum::<f32>();
                                    let scale = if highest >= 7 { 20.0 / 21.0 } else { 1.0 };
                                    assert!((p - expected * scale).abs() < 1e-6);
                                }
                                Preview::Bonus => {
                                    assert!(highest >= BONUS_FROM_RANK);
                                    assert_eq!(after, full);
                                    assert!((p - 1.0 / 21.0).abs() < 1e-7);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bonus_values_run_from_6_to_an_eighth_of_the_highest() {
        assert_eq!(bonus_ranks(7), 4..=4); // 48: 6
        assert_eq!(bonus_ranks(8), 4..=5); // 96: 6, 12
        assert_eq!(bonus_ranks(9), 4..=6); // 192: 6, 12, 24
        assert_eq!(bonus_ranks(15), 4..=12);
        assert_eq!(bonus_ranks(0), 4..=4);
    }

    #[test]
    fn keys_differ_by_deck_and_preview() {
        let mut seen = std::collections::HashSet::new();
        for a in 0..=4 {
            for b in 0..=4 {
                for c in 0..=4 {
                    for p in [
                        Preview::Card(1),
                        Preview::Card(2),
                        Preview::Card(3),
                        Preview::Bonus,
                    ] {
                        assert!(seen.insert(key([a, b, c], p)));
                    }
                }
            }
        }
    }
}
