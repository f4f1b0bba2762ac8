//! Strike 9 solved exactly: the chance of shutting the box from every position with best play.
//!
//! A position before the roll is the set of open tiles. With `P(∅) = 1`,
//!
//! ```text
//! P(open) = Σ over totals t of  chance(t) · max over moves m for t of P(open − m)
//! ```
//!
//! where the max over no move is 0 (the game is lost). Every move shuts at least one tile, so
//! `open − m` is a smaller bit pattern than `open`, and one pass over the 512 sets in increasing
//! order fills the table. The moves are [`addends`], the same enumerator the game uses.

use std::sync::OnceLock;

use crate::{TileSet, addends};

/// The chance of each total with two fair dice: `(6 − |t − 7|) / 36` for 2 to 12, else 0.
pub fn roll_chance(total: u32) -> f64 {
    let ways = 6_i64 - (i64::from(total) - 7).abs();
    if (2..=12).contains(&total) && ways > 0 {
        ways as f64 / 36.0
    } else {
        0.0
    }
}

/// The chance of shutting the box with best play, for every set of open tiles.
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    /// Indexed by `open.bits() >> 1`: bit t of a [`TileSet`] is tile t, and tile 0 does not exist.
    shut: Vec<f64>,
}

impl Odds {
    /// Solves the game: 512 positions, each over 11 totals and their moves.
    pub fn solve() -> Odds {
        let mut shut = vec![0.0; 1 << 9];
        shut[0] = 1.0;
        for index in 1..shut.len() {
            let open = set_at(index);
            shut[index] = (2..=12)
                .map(|total| roll_chance(total) * best_after(&shut, open, total))
                .sum();
        }
        Odds { shut }
    }

    /// The table, solved once per process and shared.
    pub fn shared() -> &'static Odds {
        static ODDS: OnceLock<Odds> = OnceLock::new();
        ODDS.get_or_init(Odds::solve)
    }

    /// The chance of shutting the box from `open`, before the dice are rolled.
    pub fn before_roll(&self, open: TileSet) -> f64 {
        lookup(&self.shut, open)
    }

    /// The chance of shutting the box from `open` once `total` has been rolled, playing the best
    /// move: 0 when no move makes the total.
    pub fn after_roll(&self, open: TileSet, total: u32) -> f64 {
        best_after(&self.shut, open, total)
    }

    /// The chance of shutting the box after shutting `mv` from `open`.
    pub fn after_move(&self, open: TileSet, mv: TileSet) -> f64 {
        self.before_roll(open.difference(mv))
    }

    /// The best move for `total` from `open`, or `None` when no move makes the total. Of moves
    /// that are equally good, the first in the enumerator's (lexicographic) order.
    pub fn best_move(&self, open: TileSet, total: u32) -> Option<TileSet> {
        let mut best: Option<(TileSet, f64)> = None;
        for (mv, chance) in self.moves(open, total) {
            if best.is_none_or(|(_, b)| chance > b) {
                best = Some((mv, chance));
            }
        }
        best.map(|(mv, _)| mv)
    }

    /// Every move for `total` from `open`, each with the chance of shutting the box after it, in
    /// the enumerator's order.
    pub fn moves(&self, open: TileSet, total: u32) -> Vec<(TileSet, f64)> {
        addends(total, open)
            .into_iter()
            .map(|mv| (mv, self.after_move(open, mv)))
            .collect()
    }
}

/// The set whose table index is `index` (tiles 1 to 9 as bits 1 to 9).
fn set_at(index: usize) -> TileSet {
    // Indices are below 512, so the shifted bits are always a valid set.
    u16::try_from(index << 1)
        .ok()
        .and_then(TileSet::from_bits)
        .unwrap_or(TileSet::EMPTY)
}

fn lookup(table: &[f64], open: TileSet) -> f64 {
    table
        .get(usize::from(open.bits() >> 1))
        .copied()
        .unwrap_or(0.0)
}

fn best_after(table: &[f64], open: TileSet, total: u32) -> f64 {
    addends(total, open)
        .into_iter()
        .map(|mv| lookup(table, open.difference(mv)))
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// A fraction in lowest terms, for exact arithmetic on small boxes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Frac(u128, u128);

    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }

    impl Frac {
        fn new(n: u128, d: u128) -> Frac {
            let g = gcd(n, d).max(1);
            Frac(n / g, d / g)
        }
        fn add(self, o: Frac) -> Frac {
            Frac::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
        }
        fn max(self, o: Frac) -> Frac {
            if self.0 * o.1 >= o.0 * self.1 {
                self
            } else {
                o
            }
        }
        fn to_f64(self) -> f64 {
            self.0 as f64 / self.1 as f64
        }
    }

    /// Independent of the solver: all 36 dice pairs, every subset of the open bits (not the
    /// enumerator), top-down recursion.
    fn brute_exact(open: u16, memo: &mut HashMap<u16, Frac>) -> Frac {
        if open == 0 {
            return Frac(1, 1);
        }
        if let Some(&f) = memo.get(&open) {
            return f;
        }
        let mut total = Frac(0, 1);
        for a in 1..=6u32 {
            for b in 1..=6u32 {
                let mut best = Frac(0, 1);
                let mut sub = open;
                while sub != 0 {
                    let sum: u32 = (1..=9).filter(|t| sub & (1 << t) != 0).sum();
                    if sum == a + b {
                        best = best.max(brute_exact(open & !sub, memo));
                    }
                    sub = (sub - 1) & open;
                }
                total = total.add(Frac::new(best.0, best.1 * 36));
            }
        }
        memo.insert(open, total);
        total
    }

    fn brute_float(open: u16, memo: &mut HashMap<u16, f64>) -> f64 {
        if open == 0 {
            return 1.0;
        }
        if let Some(&f) = memo.get(&open) {
            return f;
        }
        let mut total = 0.0;
        for a in 1..=6u32 {
            for b in 1..=6u32 {
                let mut best: f64 = 0.0;
                let mut sub = open;
                while sub != 0 {
                    let sum: u32 = (1..=9).filter(|t| sub & (1 << t) != 0).sum();
                    if sum == a + b {
                        best = best.max(brute_float(open & !sub, memo));
                    }
                    sub = (sub - 1) & open;
                }
                total += best / 36.0;
            }
        }
        memo.insert(open, total);
        total
    }

    fn set(bits: u16) -> TileSet {
        TileSet::from_bits(bits).unwrap()
    }

    #[test]
    fn roll_chances_are_the_two_dice_distribution() {
        let sum: f64 = (0..20).map(roll_chance).sum();
        assert!((sum - 1.0).abs() < 1e-15);
        // 7 is made six ways of 36; 2 and 12 one way each.
        assert_eq!(roll_chance(7), 6.0 / 36.0);
        assert_eq!(roll_chance(2), roll_chance(12));
        assert_eq!(roll_chance(1), 0.0);
        assert_eq!(roll_chance(13), 0.0);
    }

    #[test]
    fn small_boxes_match_exact_fractions() {
        let odds = Odds::solve();
        let mut memo = HashMap::new();
        // Every set of tiles from 1 to 7.
        for bits in (0..(1u16 << 8)).step_by(2) {
            let exact = brute_exact(bits, &mut memo);
            let got = odds.before_roll(set(bits));
            assert!(
                (got - exact.to_f64()).abs() < 1e-15,
                "{}: {got} vs {}/{}",
                set(bits),
                exact.0,
                exact.1
            );
        }
    }

    #[test]
    fn nine_tiles_match_a_floating_brute_force_to_1e12() {
        let odds = Odds::solve();
        let mut memo = HashMap::new();
        for bits in (0..(1u16 << 10)).step_by(2) {
            let brute = brute_float(bits, &mut memo);
            assert!((odds.before_roll(set(bits)) - brute).abs() < 1e-12);
        }
        assert!(odds.before_roll(TileSet::ALL) > 0.0 && odds.before_roll(TileSet::ALL) < 1.0);
    }

    #[test]
    fn the_best_move_is_as_good_as_every_other_and_reaches_after_roll() {
        let odds = Odds::shared();
        for bits in (2..(1u16 << 10)).step_by(2) {
            let open = set(bits);
            for total in 2..=12 {
                let moves = odds.moves(open, total);
                match odds.best_move(open, total) {
                    None => {
                        assert!(moves.is_empty());
                        assert_eq!(odds.after_roll(open, total), 0.0);
                    }
                    Some(best) => {
                        let value = odds.after_move(open, best);
                        assert!(moves.iter().all(|&(_, c)| c <= value));
                        assert_eq!(value, odds.after_roll(open, total));
                        // ties go to the first move in the enumerator's order
                        let first = moves.iter().find(|&&(_, c)| c == value).unwrap().0;
                        assert_eq!(best, first);
                    }
                }
            }
        }
    }

    #[test]
    fn before_roll_is_the_roll_weighted_after_roll() {
        let odds = Odds::shared();
        let open = TileSet::from_tiles([1, 4, 6, 9]).unwrap();
        let weighted: f64 = (2..=12)
            .map(|t| roll_chance(t) * odds.after_roll(open, t))
            .sum();
        assert!((weighted - odds.before_roll(open)).abs() < 1e-15);
        assert_eq!(odds.before_roll(TileSet::EMPTY), 1.0);
        // One tile: only a roll equal to it shuts the box.
        assert_eq!(
            odds.before_roll(TileSet::from_tiles([7]).unwrap()),
            roll_chance(7)
        );
        assert_eq!(odds.before_roll(TileSet::from_tiles([1]).unwrap()), 0.0);
    }
}
