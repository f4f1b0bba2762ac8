//! Strike 9's standard box solved exactly: [`Odds`], the chance of shutting the box from every
//! position with best play, and the best move for a roll (hints).
//!
//! It is the face of the [`Table`] of the default parameters (nine tiles, two dice, the `shut`
//! scoring) that the hosts of the standard game use: the same exact table (see
//! [`crate::table`]'s docs), read as probabilities. The chance of shutting the box with all nine
//! tiles open, before the roll, is [`Odds::before_roll`] of [`TileSet::ALL`].

use std::sync::OnceLock;

use crate::{Dice, Strike9Params, Table, TileSet};

/// The chance of each total with two fair dice: `(6 − |t − 7|) / 36` for 2 to 12, else 0.
pub fn roll_chance(total: u32) -> f64 {
    Dice::Two.chance(total)
}

/// The chance of shutting the standard box (nine tiles, two dice) with best play, for every set
/// of open tiles. Sets holding a tile above 9 have no chance (0) and no move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    table: Table,
}

impl Odds {
    /// Solves the game: 512 positions, each over 11 totals and their moves.
    pub fn solve() -> Odds {
        Odds {
            table: Table::solve_checked(Strike9Params::default()),
        }
    }

    /// The table, solved once per process and shared.
    pub fn shared() -> &'static Odds {
        static ODDS: OnceLock<Odds> = OnceLock::new();
        ODDS.get_or_init(Odds::solve)
    }

    /// The exact table behind these odds.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The chance of shutting the box from `open`, before the dice are rolled.
    pub fn before_roll(&self, open: TileSet) -> f64 {
        self.table.before_roll(open).map_or(0.0, |v| v.to_f64())
    }

    /// The chance of shutting the box from `open` once `total` has been rolled, playing the best
    /// move: 0 when no move makes the total, and for a total two dice cannot make (outside 2 to
    /// 12).
    pub fn after_roll(&self, open: TileSet, total: u32) -> f64 {
        self.table
            .after_roll(open, Dice::Two, total)
            .map_or(0.0, |v| v.to_f64())
    }

    /// The chance of shutting the box after shutting `mv` from `open`.
    pub fn after_move(&self, open: TileSet, mv: TileSet) -> f64 {
        self.before_roll(open.difference(mv))
    }

    /// The best move for `total` from `open`, or `None` when no move makes the total or two dice
    /// cannot make it (outside 2 to 12). Of moves that are equally good (exactly: see the
    /// table's docs), the first in the enumerator's (lexicographic) order.
    pub fn best_move(&self, open: TileSet, total: u32) -> Option<TileSet> {
        self.table.best_move(open, Dice::Two, total)
    }

    /// Every move for `total` from `open`, each with the chance of shutting the box after it, in
    /// the enumerator's order; none for a total outside 2 to 12.
    pub fn moves(&self, open: TileSet, total: u32) -> Vec<(TileSet, f64)> {
        self.table
            .moves(open, Dice::Two, total)
            .into_iter()
            .map(|(mv, v)| (mv, v.to_f64()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::addends;

    /// A fraction in lowest terms, for exact arithmetic. On the nine-tile box denominators
    /// divide 36^9 < 2^47, so every product below stays far inside a u128.
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
        fn greater(self, o: Frac) -> bool {
            self.0 * o.1 > o.0 * self.1
        }
        fn max(self, o: Frac) -> Frac {
            if o.greater(self) { o } else { self }
        }
    }

    /// The tiles of a mask (bit t for tile t), ascending, without `TileSet`.
    fn tiles_of(mask: u16) -> Vec<u8> {
        (1u8..=9).filter(|&t| mask & (1 << t) != 0).collect()
    }

    /// Every non-empty subset of `open` adding up to `total`, in lexicographic order of the
    /// ascending tile lists: found by trying every subset and sorting, not by the enumerator.
    fn subsets_making(open: u16, total: u32) -> Vec<u16> {
        let mut found = Vec::new();
        let mut sub = open;
        while sub != 0 {
            if tiles_of(sub).iter().map(|&t| u32::from(t)).sum::<u32>() == total {
                found.push(sub);
            }
            sub = (sub - 1) & open;
        }
        found.sort_by_key(|&s| tiles_of(s));
        found
    }

    /// Independent of the solver: all 36 dice pairs, every subset of the open bits (not the
    /// enumerator), top-down recursion, exact fractions.
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
                for sub in subsets_making(open, a + b) {
                    best = best.max(brute_exact(open & !sub, memo));
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
                for sub in subsets_making(open, a + b) {
                    best = best.max(brute_float(open & !sub, memo));
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

    fn tiles(list: &[u8]) -> TileSet {
        TileSet::from_tiles(list.iter().copied()).unwrap()
    }

    #[test]
    fn roll_chances_are_the_two_dice_distribution() {
        let sum: f64 = (0..20).map(roll_chance).sum();
        assert!((sum - 1.0).abs() < 1e-15);
        // 7 is made six ways of 36; 2 and 12 one way each.
        assert_eq!(roll_chance(7), 6.0 / 36.0);
        assert_eq!(roll_chance(2), 1.0 / 36.0);
        assert_eq!(roll_chance(2), roll_chance(12));
        assert_eq!(roll_chance(1), 0.0);
        assert_eq!(roll_chance(13), 0.0);
        assert_eq!(roll_chance(u32::MAX), 0.0);
    }

    #[test]
    fn every_box_matches_exact_fractions_and_the_best_move_is_the_first_exact_maximiser() {
        let odds = Odds::solve();
        let mut memo = HashMap::new();
        let mut ties = 0;
        for bits in (0..(1u16 << 10)).step_by(2) {
            let exact = brute_exact(bits, &mut memo);
            // The table holds P · 36^9 exactly: n / d = S / 36^9.
            let value = odds.table().before_roll(set(bits)).unwrap();
            assert_eq!(value.denominator(), 36u128.pow(9));
            assert_eq!(exact.0 * value.denominator(), value.numerator() * exact.1);
            // Both sides are the same rational rounded once, so they agree to the last bit.
            assert_eq!(
                odds.before_roll(set(bits)),
                exact.0 as f64 / exact.1 as f64,
                "{}",
                set(bits)
            );
            for total in 2..=12 {
                let subsets = subsets_making(bits, total);
                let moves = odds.moves(set(bits), total);
                let listed: Vec<u16> = moves.iter().map(|(m, _)| m.bits()).collect();
                assert_eq!(listed, subsets, "{} {total}", set(bits));
                let mut first_best: Option<(u16, Frac)> = None;
                for &sub in &subsets {
                    let value = brute_exact(bits & !sub, &mut memo);
                    match first_best {
                        Some((_, b)) if !value.greater(b) => ties += usize::from(value == b),
                        _ => first_best = Some((sub, value)),
                    }
                }
                let best = odds.best_move(set(bits), total);
                assert_eq!(best.map(TileSet::bits), first_best.map(|(m, _)| m));
                let after = first_best.map_or(0.0, |(_, v)| v.0 as f64 / v.1 as f64);
                assert_eq!(odds.after_roll(set(bits), total), after);
            }
        }
        // Exact ties do occur, so the tie-break is exercised.
        assert!(ties > 0);
        assert!(odds.before_roll(TileSet::ALL) > 0.0 && odds.before_roll(TileSet::ALL) < 1.0);
    }

    #[test]
    fn nine_tiles_match_a_floating_brute_force_to_1e12() {
        let odds = Odds::solve();
        let mut memo = HashMap::new();
        for bits in (0..(1u16 << 10)).step_by(2) {
            let brute = brute_float(bits, &mut memo);
            assert!((odds.before_roll(set(bits)) - brute).abs() < 1e-12);
        }
    }

    #[test]
    fn an_exact_tie_goes_to_the_first_move_not_to_rounding() {
        // With 1, 2, 3, 4, 5, 7 open and a 9 rolled, 2+7 leaves {1, 3, 4, 5} and 4+5 leaves
        // {1, 2, 3, 7}: both exactly 0.1131687242798354 (checked in fractions here), though
        // a solver in f64 puts the second one ulp higher.
        let open = tiles(&[1, 2, 3, 4, 5, 7]);
        let mut memo = HashMap::new();
        let via_27 = brute_exact(tiles(&[1, 3, 4, 5]).bits(), &mut memo);
        let via_45 = brute_exact(tiles(&[1, 2, 3, 7]).bits(), &mut memo);
        assert_eq!(via_27, via_45);
        let odds = Odds::shared();
        assert_eq!(odds.best_move(open, 9), Some(tiles(&[2, 7])));
        assert_eq!(
            odds.after_move(open, tiles(&[2, 7])),
            odds.after_move(open, tiles(&[4, 5]))
        );
    }

    #[test]
    fn totals_two_dice_cannot_make_have_no_move() {
        let odds = Odds::shared();
        for open in [TileSet::ALL, tiles(&[1]), tiles(&[4, 9])] {
            for total in [0, 1, 13, 14, 17, 45, u32::MAX] {
                assert_eq!(odds.after_roll(open, total), 0.0, "{open} {total}");
                assert_eq!(odds.best_move(open, total), None, "{open} {total}");
                assert!(odds.moves(open, total).is_empty());
            }
        }
        // 1 and 13 are made by tiles that are open, yet no roll makes them.
        assert!(!addends(13, TileSet::ALL).is_empty());
        assert!(!addends(1, TileSet::ALL).is_empty());
    }

    #[test]
    fn before_roll_is_the_roll_weighted_after_roll() {
        let odds = Odds::shared();
        let open = tiles(&[1, 4, 6, 9]);
        let weighted: f64 = (2..=12)
            .map(|t| roll_chance(t) * odds.after_roll(open, t))
            .sum();
        assert!((weighted - odds.before_roll(open)).abs() < 1e-15);
        assert_eq!(odds.before_roll(TileSet::EMPTY), 1.0);
        // One tile: only a roll equal to it shuts the box.
        assert_eq!(odds.before_roll(tiles(&[7])), roll_chance(7));
        assert_eq!(odds.before_roll(tiles(&[1])), 0.0);
    }
}
