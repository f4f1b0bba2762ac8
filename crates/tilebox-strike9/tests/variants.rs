//! The variants of Strike 9 against an independent brute force, and random play of each.
//!
//! The brute force below is written from the rules as `docs/variants.md` states them, not from
//! the solver: a plain top-down recursion over the open tiles, every one of the 36 throws of two
//! dice (or 6 of one die) in turn, every subset of the open tiles tried for each throw, its own
//! one-die rule and scores (the digits read by formatting the tiles as text), and exact fractions
//! of its own. It checks, for every combination of box, one-die rule and scoring, the value of
//! every position, of each choice of dice and of each roll, the best dice and the best move.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::cmp::Ordering;
use std::collections::HashMap;

use proptest::prelude::*;
use tilebox_core::{MoveError, Puzzle, Session};
use tilebox_strike9::{
    Dice, OneDie, Scoring, Strike9, Strike9Move, Strike9Params, Strike9State, Table, TileSet,
};

/// A fraction in lowest terms. Denominators divide 36^12 < 2^63 and values stay below 2^47, so
/// sums over a common denominator fit a u128; comparisons never multiply (see [`Frac::cmp`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frac {
    n: u128,
    d: u128,
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl Frac {
    fn new(n: u128, d: u128) -> Frac {
        let g = gcd(n, d).max(1);
        Frac { n: n / g, d: d / g }
    }

    fn int(n: u128) -> Frac {
        Frac { n, d: 1 }
    }

    fn add(self, o: Frac) -> Frac {
        let l = self.d / gcd(self.d, o.d) * o.d;
        Frac::new(self.n * (l / self.d) + o.n * (l / o.d), l)
    }

    fn div(self, k: u128) -> Frac {
        Frac::new(self.n, self.d * k)
    }

    /// Compares a/b with c/d by their continued fractions, never multiplying: whole parts
    /// first; on equal whole parts, r/b against s/d (the remainders), which orders as d/s
    /// against b/r.
    fn cmp(self, o: Frac) -> Ordering {
        let (mut a, mut b, mut c, mut d) = (self.n, self.d, o.n, o.d);
        loop {
            let order = (a / b).cmp(&(c / d));
            if order != Ordering::Equal {
                return order;
            }
            let (r, s) = (a % b, c % d);
            if r == 0 || s == 0 {
                return r.cmp(&s);
            }
            (a, b, c, d) = (d, s, b, r);
        }
    }
}

#[test]
fn fractions_compare_and_add_exactly() {
    let f = Frac::new;
    assert_eq!(f(1, 3).cmp(f(1, 2)), Ordering::Less);
    assert_eq!(f(2, 4).cmp(f(1, 2)), Ordering::Equal);
    assert_eq!(f(5, 7).cmp(f(7, 10)), Ordering::Greater);
    assert_eq!(f(7, 10).cmp(f(5, 7)), Ordering::Less);
    assert_eq!(f(3, 1).cmp(f(3, 2)), Ordering::Greater);
    assert_eq!(f(0, 1).cmp(f(0, 5)), Ordering::Equal);
    assert_eq!(f(13, 21).cmp(f(21, 34)), Ordering::Greater);
    assert_eq!(f(1, 6).add(f(1, 4)), f(5, 12));
    assert_eq!(f(5, 12).div(5), f(1, 12));
    // Against cross-multiplication on small numbers.
    for a in 0..12u128 {
        for b in 1..12u128 {
            for c in 0..12u128 {
                for d in 1..12u128 {
                    assert_eq!(
                        f(a, b).cmp(f(c, d)),
                        (a * d).cmp(&(c * b)),
                        "{a}/{b} {c}/{d}"
                    );
                }
            }
        }
    }
}

/// The rules of one variant, as the brute force reads them.
struct Rules {
    tiles: u8,
    one_die: OneDie,
    score: Scoring,
}

/// The open tiles as a list, ascending; bit t is tile t.
fn list(open: u16) -> Vec<u8> {
    (1u8..=12).filter(|&t| open & (1 << t) != 0).collect()
}

fn sum(open: u16) -> u32 {
    (1u32..=12).filter(|&t| open & (1 << t) != 0).sum()
}

impl Rules {
    fn chance(&self) -> bool {
        self.score == Scoring::Shut
    }

    /// One die may be rolled: once every tile above 6 is shut, or once the open tiles total 6
    /// or less; never with the box shut.
    fn one_die_allowed(&self, open: u16) -> bool {
        open != 0
            && match self.one_die {
                OneDie::Never => false,
                OneDie::HighShut => list(open).iter().all(|&t| t <= 6),
                OneDie::LowTotal => sum(open) <= 6,
            }
    }

    /// The final score with these tiles left open, for golf and digits.
    fn final_score(&self, open: u16) -> u128 {
        match self.score {
            Scoring::Golf => u128::from(sum(open)),
            Scoring::Digits => {
                let text: String = list(open).iter().map(|t| t.to_string()).collect();
                if text.is_empty() {
                    0
                } else {
                    text.parse().unwrap()
                }
            }
            Scoring::Shut => unreachable!(),
        }
    }

    /// Whether `a` is strictly better than `b` for this variant's objective.
    fn better(&self, a: Frac, b: Frac) -> bool {
        if self.chance() {
            a.cmp(b) == Ordering::Greater
        } else {
            a.cmp(b) == Ordering::Less
        }
    }

    /// The value of a game that ends with `open` open: shut or lost.
    fn end_value(&self, open: u16) -> Frac {
        match (self.chance(), open == 0) {
            (true, true) => Frac::int(1),
            (true, false) => Frac::int(0),
            (false, _) => Frac::int(self.final_score(open)),
        }
    }
}

/// The brute force of one variant, memoised on the open tiles.
struct Brute {
    rules: Rules,
    memo: HashMap<u16, Frac>,
    rolls: HashMap<(u16, u32), (Option<u16>, Frac)>,
}

impl Brute {
    fn new(rules: Rules) -> Brute {
        Brute {
            rules,
            memo: HashMap::new(),
            rolls: HashMap::new(),
        }
    }

    /// Every subset of `open` whose tiles add up to `total`, in lexicographic order of the
    /// ascending tile lists.
    fn subsets(open: u16, total: u32) -> Vec<u16> {
        let mut found = Vec::new();
        let mut sub = open;
        while sub != 0 {
            if sum(sub) == total {
                found.push(sub);
            }
            sub = (sub - 1) & open;
        }
        found.sort_by_key(|&s| list(s));
        found
    }

    /// The value before the roll, with the best choice of dice.
    fn value(&mut self, open: u16) -> Frac {
        if open == 0 {
            return self.rules.end_value(0);
        }
        if let Some(&v) = self.memo.get(&open) {
            return v;
        }
        let two = self.choice(open, 2);
        let v = if self.rules.one_die_allowed(open) {
            let one = self.choice(open, 1);
            if self.rules.better(one, two) {
                one
            } else {
                two
            }
        } else {
            two
        };
        self.memo.insert(open, v);
        v
    }

    /// The value once `dice` dice are chosen: every throw in turn, equally likely.
    fn choice(&mut self, open: u16, dice: u32) -> Frac {
        let throws: Vec<u32> = if dice == 1 {
            (1..=6).collect()
        } else {
            (1..=6).flat_map(|a| (1..=6).map(move |b| a + b)).collect()
        };
        let count = throws.len() as u128;
        let mut total = Frac::int(0);
        for t in throws {
            total = total.add(self.after_roll(open, t).1.div(count));
        }
        total
    }

    /// The first best move for a roll of `total` and the value after it, or no move and the
    /// value of the lost game.
    fn after_roll(&mut self, open: u16, total: u32) -> (Option<u16>, Frac) {
        if let Some(&known) = self.rolls.get(&(open, total)) {
            return known;
        }
        let mut best: Option<(u16, Frac)> = None;
        for sub in Brute::subsets(open, total) {
            let v = self.value(open & !sub);
            if best.is_none_or(|(_, b)| self.rules.better(v, b)) {
                best = Some((sub, v));
            }
        }
        let answer = match best {
            Some((m, v)) => (Some(m), v),
            None => (None, self.rules.end_value(open)),
        };
        self.rolls.insert((open, total), answer);
        answer
    }
}

fn params_list() -> Vec<Strike9Params> {
    Strike9Params::every().collect()
}

fn same(exact: tilebox_strike9::Exact, frac: Frac) -> bool {
    exact.reduced() == (frac.n, frac.d)
}

fn set(bits: u16) -> TileSet {
    TileSet::from_bits(bits).unwrap()
}

/// Checks one variant's table at `open` against the brute force; returns how many exact ties of
/// moves were met.
fn check_position(table: &Table, brute: &mut Brute, open: u16) -> usize {
    let p = *table.params();
    let at = set(open);
    let value = brute.value(open);
    assert!(
        same(table.before_roll(at).unwrap(), value),
        "{p:?} {at}: {:?} vs {value:?}",
        table.before_roll(at)
    );
    if open == 0 {
        assert_eq!(table.best_dice(at), None);
        return 0;
    }
    let allowed = brute.rules.one_die_allowed(open);
    let two = brute.choice(open, 2);
    assert!(same(table.after_choice(at, Dice::Two).unwrap(), two));
    if allowed {
        let one = brute.choice(open, 1);
        assert!(same(table.after_choice(at, Dice::One).unwrap(), one));
        let best = if brute.rules.better(one, two) {
            Dice::One
        } else {
            Dice::Two
        };
        assert_eq!(table.best_dice(at), Some(best), "{p:?} {at}");
    } else {
        assert_eq!(table.after_choice(at, Dice::One), None);
        assert_eq!(table.best_dice(at), None, "{p:?} {at}");
    }
    let mut ties = 0;
    let dice: &[(Dice, std::ops::RangeInclusive<u32>)] = if allowed {
        &[(Dice::One, 1..=6), (Dice::Two, 2..=12)]
    } else {
        &[(Dice::Two, 2..=12)]
    };
    for (d, totals) in dice {
        for total in totals.clone() {
            let (best, v) = brute.after_roll(open, total);
            assert!(
                same(table.after_roll(at, *d, total).unwrap(), v),
                "{p:?} {at} {total}"
            );
            assert_eq!(
                table.best_move(at, *d, total).map(TileSet::bits),
                best,
                "{p:?} {at} {d} {total}"
            );
            let moves = table.moves(at, *d, total);
            let subsets = Brute::subsets(open, total);
            assert_eq!(
                moves.iter().map(|(m, _)| m.bits()).collect::<Vec<_>>(),
                subsets
            );
            for (m, after) in moves {
                let b = brute.value(open & !m.bits());
                assert!(same(after, b));
                ties += usize::from(Some(m.bits()) != best && b == v);
            }
        }
        assert_eq!(table.after_roll(at, *d, 13), None);
    }
    ties
}

#[test]
fn every_variant_matches_the_brute_force() {
    let mut ties = 0;
    let mut dice_choices = 0;
    for p in params_list() {
        let table = Table::solve(&p).unwrap();
        let mut brute = Brute::new(Rules {
            tiles: p.tiles,
            one_die: p.one_die,
            score: p.score,
        });
        let n = brute.rules.tiles;
        let size = 1u16 << n;
        // Every position of every box.
        for index in 0..size {
            let open = index << 1;
            ties += check_position(&table, &mut brute, open);
            dice_choices += usize::from(table.best_dice(set(open)).is_some());
        }
        assert!(same(
            table.before_roll(TileSet::first(n)).unwrap(),
            brute.value(TileSet::first(n).bits())
        ));
    }
    // Exact ties of moves do occur, so the tie-break is exercised, and so do choices of dice.
    assert!(ties > 0);
    assert!(dice_choices > 0);
}

#[test]
fn the_chance_table_of_a_golf_variant_is_its_shut_twin() {
    let golf = Strike9Params {
        tiles: 9,
        one_die: OneDie::HighShut,
        score: Scoring::Golf,
    };
    let chance = Table::shared_chance(&golf).unwrap();
    let shut = Table::solve(&golf.with_score(Scoring::Shut)).unwrap();
    assert_eq!(chance, &shut);
}

/// The dice a move or a new game may leave, by the rules: none while one die is allowed (the
/// player chooses), else two; the roll that shut the box stays shown.
fn check_state(state: &Strike9State, params: &Strike9Params) {
    let rules = Rules {
        tiles: params.tiles,
        one_die: params.one_die,
        score: params.score,
    };
    let open = state.open().bits();
    assert!(state.open().is_subset(TileSet::first(params.tiles)));
    let score = match params.score {
        Scoring::Shut => u128::from(sum(TileSet::first(params.tiles).bits() & !open)),
        _ => rules.final_score(open),
    };
    assert_eq!(u128::from(Strike9::score(state)), score);
    let json = serde_json::Value::Object(Strike9::view(state));
    assert_eq!(json["open"], serde_json::json!(list(open)));
    assert_eq!(json["total"], state.total());
    assert_eq!(json["dice"], serde_json::json!(state.dice()));
    assert!(state.dice().iter().all(|d| (1..=6).contains(d)));
    let status = Strike9::status(state);
    assert_eq!(status.won, open == 0);
    let moves = Strike9::legal_moves(state);
    assert_eq!(status.over, moves.is_empty());
    for mv in &moves {
        assert_eq!(mv.to_string().parse::<Strike9Move>().as_ref(), Ok(mv));
    }
    if state.choosing_dice() {
        assert!(rules.one_die_allowed(open));
        assert_eq!(json["dice"], serde_json::json!([]));
        assert_eq!(json["total"], 0);
        assert_eq!(
            moves,
            [Strike9Move::Roll(Dice::One), Strike9Move::Roll(Dice::Two)]
        );
        assert!(state.to_string().contains("to choose: 1d"));
        let any_tile = set(open & open.wrapping_neg());
        assert!(matches!(
            Strike9::apply(state, &Strike9Move::Shut(any_tile)),
            Err(MoveError::Illegal(_))
        ));
    } else if open != 0 {
        let total = state.total();
        let subsets = Brute::subsets(open, total);
        assert_eq!(status.over, subsets.is_empty());
        if !status.over {
            assert_eq!(
                moves,
                subsets
                    .iter()
                    .map(|&s| Strike9Move::Shut(set(s)))
                    .collect::<Vec<_>>()
            );
        }
        let rolled = state.dice().len();
        assert!(rolled == 2 || (rolled == 1 && rules.one_die_allowed(open)));
        if !status.over {
            assert!(matches!(
                Strike9::apply(state, &Strike9Move::Roll(Dice::Two)),
                Err(MoveError::Illegal(_))
            ));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every combination, played at random from a seed: each state follows the rules, every move
    /// reads back from its text, and replaying the seed and the moves' texts gives the same game.
    #[test]
    fn random_play_of_every_variant_follows_the_rules_and_replays(
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<usize>(), 30),
    ) {
        for params in params_list() {
            let mut state = Strike9::new_game(&params, seed).unwrap();
            let mut states = vec![state.clone()];
            let mut texts = Vec::new();
            for &choice in &choices {
                check_state(&state, &params);
                let moves = Strike9::legal_moves(&state);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[choice % moves.len()];
                state = Strike9::apply(&state, &mv).unwrap();
                texts.push(mv.to_string());
                states.push(state.clone());
            }
            check_state(&state, &params);
            prop_assert!(state.is_over(), "{params:?}: not over after {} moves", texts.len());
            let mut session = Session::<Strike9>::new(params, seed).unwrap();
            prop_assert_eq!(session.play_text(&texts.join(" ")), Ok(texts.len()));
            prop_assert_eq!(session.history(), &states[..]);
            let back = Session::<Strike9>::load(&session.save()).unwrap();
            prop_assert_eq!(back.history(), session.history());
        }
    }
}
