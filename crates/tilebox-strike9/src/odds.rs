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
//!
//! The table is exact, in integers. Each chance is `ways(t) / 36`, so by induction on the number
//! of open tiles `P(open)` is a fraction whose denominator divides `36^|open|`, and
//! `S(open) = P(open) · 36^9` is an integer below 2^47. The recurrence becomes
//!
//! ```text
//! S(open) = Σ over totals t of  ways(t) · (max over m of S(open − m)) / 36
//! ```
//!
//! and the division is exact, since `open − m` has at most eight tiles and so `S(open − m)` is a
//! multiple of 36. Moves are compared on these integers: two moves that are equally good in
//! exact arithmetic compare equal, so ties go to the first move in the enumerator's order as
//! documented, never to a rounding error. Probabilities become `f64` only on the way out.

use std::sync::OnceLock;

use crate::{TileSet, addends};

/// The scale of the table: `S(open) = P(open) · 36^9` is an integer (see the module docs).
const SCALE: u64 = 36u64.pow(9);

/// How many of the 36 rolls of two dice make `total`: `6 − |t − 7|` for 2 to 12, else 0.
fn ways(total: u32) -> u64 {
    if (2..=12).contains(&total) {
        6 - u64::from(total.abs_diff(7))
    } else {
        0
    }
}

/// The chance of each total with two fair dice: `(6 − |t − 7|) / 36` for 2 to 12, else 0.
pub fn roll_chance(total: u32) -> f64 {
    ways(total) as f64 / 36.0
}

/// A scaled table entry as a probability: both integers are below 2^53, so each converts
/// exactly and the quotient is the `f64` nearest to the exact probability.
fn probability(scaled: u64) -> f64 {
    scaled as f64 / SCALE as f64
}

/// The chance of shutting the box with best play, for every set of open tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    /// `S(open) = P(open) · 36^9`, indexed by `open.bits() >> 1`: bit t of a [`TileSet`] is tile
    /// t, and tile 0 does not exist.
    scaled: Vec<u64>,
}

impl Odds {
    /// Solves the game: 512 positions, each over 11 totals and their moves.
    pub fn solve() -> Odds {
        let mut scaled = vec![0; 1 << 9];
        scaled[0] = SCALE;
        for index in 1..scaled.len() {
            let open = set_at(index);
            scaled[index] = (2..=12)
                .map(|total| ways(total) * (best_after(&scaled, open, total) / 36))
                .sum();
        }
        Odds { scaled }
    }

    /// The table, solved once per process and shared.
    pub fn shared() -> &'static Odds {
        static ODDS: OnceLock<Odds> = OnceLock::new();
        ODDS.get_or_init(Odds::solve)
    }

    /// The chance of shutting the box from `open`, before the dice are rolled.
    pub fn before_roll(&self, open: TileSet) -> f64 {
        probability(lookup(&self.scaled, open))
    }

    /// The chance of shutting the box from `open` once `total` has been rolled, playing the best
    /// move: 0 when no move makes the total, and for a total two dice cannot make (outside 2 to
    /// 12).
    pub fn after_roll(&self, open: TileSet, total: u32) -> f64 {
        probability(best_after(&self.scaled, open, total))
    }

    /// The chance of shutting the box after shutting `mv` from `open`.
    pub fn after_move(&self, open: TileSet, mv: TileSet) -> f64 {
        self.before_roll(open.difference(mv))
    }

    /// The best move for `total` from `open`, or `None` when no move makes the total or two dice
    /// cannot make it (outside 2 to 12). Of moves that are equally good (exactly: see the module
    /// docs), the first in the enumerator's (lexicographic) order.
    pub fn best_move(&self, open: TileSet, total: u32) -> Option<TileSet> {
        let mut best: Option<(TileSet, u64)> = None;
        for mv in legal_moves(open, total) {
            let after = lookup(&self.scaled, open.difference(mv));
            if best.is_none_or(|(_, b)| after > b) {
                best = Some((mv, after));
            }
        }
        best.map(|(mv, _)| mv)
    }

    /// Every move for `total` from `open`, each with the chance of shutting the box after it, in
    /// the enumerator's order; none for a total outside 2 to 12.
    pub fn moves(&self, open: TileSet, total: u32) -> Vec<(TileSet, f64)> {
        legal_moves(open, total)
            .into_iter()
            .map(|mv| (mv, self.after_move(open, mv)))
            .collect()
    }
}

/// The moves for a roll of `total`: none when two dice cannot make it.
fn legal_moves(open: TileSet, total: u32) -> Vec<TileSet> {
    if ways(total) == 0 {
        return Vec::new();
    }
    addends(total, open)
}

/// The set whose table index is `index` (tiles 1 to 9 as bits 1 to 9).
fn set_at(index: usize) -> TileSet {
    // Indices are below 512, so the shifted bits are always a valid set.
    u16::try_from(index << 1)
        .ok()
        .and_then(TileSet::from_bits)
        .unwrap_or(TileSet::EMPTY)
}

fn lookup(table: &[u64], open: TileSet) -> u64 {
    table
        .get(usize::from(open.bits() >> 1))
        .copied()
        .unwrap_or(0)
}

/// The best scaled value after rolling `total` from `open` (0 when no move makes it).
fn best_after(table: &[u64], open: TileSet, total: u32) -> u64 {
    legal_moves(open, total)
        .into_iter()
        .map(|mv| lookup(table, open.difference(mv)))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

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
            let scaled = lookup(&odds.scaled, set(bits));
            assert_eq!(exact.0 * u128::from(SCALE), u128::from(scaled) * exact.1);
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
