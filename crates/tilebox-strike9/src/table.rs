//! Every variant of Strike 9 solved exactly: [`Table`], the value of every position with best
//! play, the best dice and the best move.
//!
//! A position before the roll is the set of open tiles. What a table holds is its
//! [`Objective`]: the chance of shutting the box (maximised) for the `shut` scoring, the expected
//! final score (minimised) for `golf` and `digits`. With `V(∅)` the value of a shut box (1, or a
//! score of 0) and `L(open)` the value of a lost game (0, or the score with those tiles open):
//!
//! ```text
//! A(open, t)   = best over moves m for t of V(open − m), or L(open) when no move makes t
//! E(open, d)   = Σ over totals t of  ways_d(t) / outcomes_d · A(open, t)      (d: one die or two)
//! V(open)      = best of E(open, 1) and E(open, 2) where one die is allowed, else E(open, 2)
//! ```
//!
//! Every move shuts at least one tile, so `open − m` is a smaller bit pattern than `open`, and
//! one pass over the sets in increasing order fills the table.
//!
//! The table is exact, in integers. A roll's chances are sixths or thirty-sixths, and a game
//! rolls at most once per tile, so by induction the value of a position with `k` open tiles is a
//! fraction whose denominator divides `36^k`. The table holds `S(open) = V(open) · 36^n` for a
//! box of `n` tiles, an integer (below 2^110 for the largest expected score of 12 tiles), and
//!
//! ```text
//! E(open, d) · 36^n = Σ over totals t of  ways_d(t) · (A(open, t) · 36^n / outcomes_d)
//! ```
//!
//! where each division is exact: after a move at most `k − 1` tiles are open, so
//! `S(open − m)` is a multiple of `36^(n−k+1)`, and `L(open) · 36^n` of `36^n`. Positions, dice
//! and moves are compared on these integers, so two that are equally good in exact arithmetic
//! compare equal and ties follow the documented rules, never a rounding error: of equal moves the
//! first in the enumerator's ([`addends`]) order, of equal dice two dice. Values become `f64`
//! only on the way out ([`Exact::to_f64`]).
//!
//! Filling the table does not list moves: for each open set it walks every subset once (3^n
//! steps over the whole table) and keeps the best value left for each total a roll can make.
//! Queries ([`Table::best_move`], [`Table::moves`]) use the enumerator, whose order breaks ties.

use std::sync::OnceLock;

use tilebox_core::ParamsError;

use crate::{Dice, OneDie, Scoring, Strike9Move, Strike9Params, Strike9State, TileSet, addends};

/// What a table optimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Objective {
    /// The chance of shutting the box, maximised (the `shut` scoring).
    ShutChance,
    /// The expected final score, minimised (the `golf` and `digits` scorings).
    ExpectedScore,
}

impl Objective {
    /// The objective of a scoring.
    pub fn of(score: Scoring) -> Objective {
        if score.lower_is_better() {
            Objective::ExpectedScore
        } else {
            Objective::ShutChance
        }
    }

    /// Whether `a` is strictly better than `b`.
    fn better(self, a: u128, b: u128) -> bool {
        match self {
            Objective::ShutChance => a > b,
            Objective::ExpectedScore => a < b,
        }
    }
}

/// An exact value of a table: `numerator / denominator`, with the denominator `36^n` for a box
/// of `n` tiles (not reduced; [`Exact::reduced`] gives lowest terms). A chance of shutting the
/// box or an expected score, as the table's [`Objective`] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Exact {
    numerator: u128,
    denominator: u128,
}

impl Exact {
    /// The numerator.
    pub fn numerator(self) -> u128 {
        self.numerator
    }

    /// The denominator, `36^n`.
    pub fn denominator(self) -> u128 {
        self.denominator
    }

    /// The same value in lowest terms, as (numerator, denominator).
    pub fn reduced(self) -> (u128, u128) {
        let g = gcd(self.numerator, self.denominator).max(1);
        (self.numerator / g, self.denominator / g)
    }

    /// The value as the nearest `f64` when the reduced numerator and denominator are below 2^53
    /// (always for chances of 9 and 10 tiles), else within a few units in the last place.
    pub fn to_f64(self) -> f64 {
        let (n, d) = self.reduced();
        n as f64 / d as f64
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// One variant of Strike 9 solved exactly: the value of every position with best play (see the
/// module docs), the best dice and the best move, for the objective of the variant's scoring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    params: Strike9Params,
    objective: Objective,
    /// `36^n` for a box of `n` tiles.
    scale: u128,
    /// `S(open) = V(open) · 36^n`, indexed by `open.bits() >> 1` (tile t is bit t − 1).
    before: Vec<u128>,
}

/// The tables solved so far, one per combination of box, one-die rule and scoring.
static TABLES: [OnceLock<Table>; 27] = [const { OnceLock::new() }; 27];

/// The place of valid parameters in [`TABLES`].
fn slot(params: &Strike9Params) -> usize {
    let tiles = match params.tiles {
        9 => 0,
        10 => 1,
        _ => 2,
    };
    let one_die = match params.one_die {
        OneDie::Never => 0,
        OneDie::HighShut => 1,
        OneDie::LowTotal => 2,
    };
    let score = match params.score {
        Scoring::Shut => 0,
        Scoring::Golf => 1,
        Scoring::Digits => 2,
    };
    tiles * 9 + one_die * 3 + score
}

impl Table {
    /// Solves the variant of `params`; fails when they are not valid
    /// ([`Strike9Params::check`]).
    pub fn solve(params: &Strike9Params) -> Result<Table, ParamsError> {
        params.check()?;
        Ok(Table::solve_checked(*params))
    }

    /// The table of `params`, solved once per process and shared; fails when they are not valid.
    pub fn shared(params: &Strike9Params) -> Result<&'static Table, ParamsError> {
        params.check()?;
        Ok(Table::shared_checked(*params))
    }

    /// The table of the chance of shutting the box in the variant of `params`, whatever its
    /// scoring: the same box and one-die rule, scored `shut`.
    pub fn shared_chance(params: &Strike9Params) -> Result<&'static Table, ParamsError> {
        Table::shared(&params.with_score(Scoring::Shut))
    }

    /// [`Table::shared`] for parameters already checked.
    pub(crate) fn shared_checked(params: Strike9Params) -> &'static Table {
        let cell = TABLES.get(slot(&params)).unwrap_or(&TABLES[0]);
        cell.get_or_init(|| Table::solve_checked(params))
    }

    /// Solves a variant whose parameters are valid.
    pub(crate) fn solve_checked(params: Strike9Params) -> Table {
        let objective = Objective::of(params.score);
        let n = u32::from(params.tiles.min(crate::MAX_TILE));
        let scale = 36u128.pow(n);
        let size = 1usize << n;
        // The sum of the tiles of each index (tile t is bit t − 1).
        let mut sums = vec![0u32; size];
        for index in 1..size {
            let low = index.trailing_zeros();
            sums[index] = sums[index & (index - 1)] + low + 1;
        }
        let won = match objective {
            Objective::ShutChance => scale,
            Objective::ExpectedScore => 0,
        };
        let mut before = vec![0u128; size];
        before[0] = won;
        for index in 1..size {
            let open = set_at(index);
            // The best value left after each total from 1 to 12; None when no move makes it.
            let mut best: [Option<u128>; 13] = [None; 13];
            let mut sub = index;
            while sub != 0 {
                let total = sums[sub];
                if let Some(slot) = best.get_mut(total as usize) {
                    let value = before[index ^ sub];
                    if slot.is_none_or(|b| objective.better(value, b)) {
                        *slot = Some(value);
                    }
                }
                sub = (sub - 1) & index;
            }
            let lost = lost_value(&params, objective, scale, open);
            let expected = |dice: Dice| -> u128 {
                let outcomes = u128::from(dice.outcomes());
                dice.totals()
                    .map(|t| {
                        let after = best.get(t as usize).copied().flatten().unwrap_or(lost);
                        u128::from(dice.ways(t)) * (after / outcomes)
                    })
                    .sum()
            };
            let two = expected(Dice::Two);
            before[index] = if params.one_die_allowed(open) {
                let one = expected(Dice::One);
                if objective.better(one, two) { one } else { two }
            } else {
                two
            };
        }
        Table {
            params,
            objective,
            scale,
            before,
        }
    }

    /// The parameters solved (the scoring says the objective).
    pub fn params(&self) -> &Strike9Params {
        &self.params
    }

    /// What the table optimises.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    fn exact(&self, scaled: u128) -> Exact {
        Exact {
            numerator: scaled,
            denominator: self.scale,
        }
    }

    /// The scaled value of `open` before the roll, or `None` when it holds a tile outside the
    /// box.
    fn scaled(&self, open: TileSet) -> Option<u128> {
        if !open.is_subset(self.params.full_box()) {
            return None;
        }
        self.before.get(usize::from(open.bits() >> 1)).copied()
    }

    /// The value of `open` before the roll, with best play, the choice of dice included: the
    /// chance of shutting the box, or the expected final score. `None` when `open` holds a tile
    /// outside the box.
    pub fn before_roll(&self, open: TileSet) -> Option<Exact> {
        self.scaled(open).map(|s| self.exact(s))
    }

    /// The value of `open` once `dice` are chosen, before they roll, with best play after; `None`
    /// when that choice is not the player's (one die where it is not allowed, any dice once the
    /// box is shut) or `open` holds a tile outside the box. Two dice where one die is not
    /// allowed is the roll that comes anyway: [`Table::before_roll`].
    pub fn after_choice(&self, open: TileSet, dice: Dice) -> Option<Exact> {
        self.scaled(open)?;
        if open.is_empty() || (dice == Dice::One && !self.params.one_die_allowed(open)) {
            return None;
        }
        let outcomes = u128::from(dice.outcomes());
        let mut sum = 0u128;
        for total in dice.totals() {
            let after = self.best_after(open, total)?.1;
            sum += u128::from(dice.ways(total)) * (after / outcomes);
        }
        Some(self.exact(sum))
    }

    /// The value of `open` once `dice` have rolled `total`, playing the best move (the value of a
    /// lost game when no move makes the total). `None` when these dice cannot make `total` or
    /// `open` holds a tile outside the box or is empty.
    pub fn after_roll(&self, open: TileSet, dice: Dice, total: u32) -> Option<Exact> {
        if dice.ways(total) == 0 || open.is_empty() {
            return None;
        }
        self.best_after(open, total).map(|(_, v)| self.exact(v))
    }

    /// The value after shutting `mv` from `open` (before the next roll); `None` when a tile of
    /// either is outside the box.
    pub fn after_move(&self, open: TileSet, mv: TileSet) -> Option<Exact> {
        self.scaled(mv)?;
        self.before_roll(open.difference(mv))
    }

    /// The best choice of dice from `open`, or `None` when the player has no choice there (one
    /// die is not allowed, the box is shut, or a tile is outside the box). Of two equally good
    /// choices (exactly), two dice.
    pub fn best_dice(&self, open: TileSet) -> Option<Dice> {
        let one = self.after_choice(open, Dice::One)?;
        let two = self.after_choice(open, Dice::Two)?;
        Some(if self.objective.better(one.numerator, two.numerator) {
            Dice::One
        } else {
            Dice::Two
        })
    }

    /// The best move for a roll of `total` with `dice` from `open`, or `None` when no move makes
    /// the total, these dice cannot make it, or `open` holds a tile outside the box. Of moves that
    /// are equally good (exactly), the first in the enumerator's (lexicographic) order.
    pub fn best_move(&self, open: TileSet, dice: Dice, total: u32) -> Option<TileSet> {
        if dice.ways(total) == 0 {
            return None;
        }
        self.best_after(open, total)?.0
    }

    /// The best move in `state`, a game of this table's params: the choice of dice while it is
    /// pending, else the best tiles for the roll; `None` when the game is over.
    pub fn best_in(&self, state: &Strike9State) -> Option<Strike9Move> {
        if state.choosing_dice() {
            return self.best_dice(state.open()).map(Strike9Move::Roll);
        }
        let dice = state.rolled_dice()?;
        self.best_move(state.open(), dice, state.total())
            .map(Strike9Move::Shut)
    }

    /// Every move for a roll of `total` with `dice` from `open`, each with the value after it, in
    /// the enumerator's order; none when these dice cannot make the total or `open` holds a tile
    /// outside the box.
    pub fn moves(&self, open: TileSet, dice: Dice, total: u32) -> Vec<(TileSet, Exact)> {
        if dice.ways(total) == 0 || self.scaled(open).is_none() {
            return Vec::new();
        }
        addends(total, open)
            .into_iter()
            .filter_map(|mv| Some((mv, self.after_move(open, mv)?)))
            .collect()
    }

    /// The first best move for `total` from `open` and the scaled value it leaves, or the value
    /// of a lost game and no move. `None` when `open` holds a tile outside the box.
    fn best_after(&self, open: TileSet, total: u32) -> Option<(Option<TileSet>, u128)> {
        self.scaled(open)?;
        let mut best: Option<(TileSet, u128)> = None;
        for mv in addends(total, open) {
            let after = self.scaled(open.difference(mv))?;
            if best.is_none_or(|(_, b)| self.objective.better(after, b)) {
                best = Some((mv, after));
            }
        }
        Some(match best {
            Some((mv, value)) => (Some(mv), value),
            None => (
                None,
                lost_value(&self.params, self.objective, self.scale, open),
            ),
        })
    }
}

/// The scaled value of a game lost with `open` open: no chance, or the score then.
fn lost_value(params: &Strike9Params, objective: Objective, scale: u128, open: TileSet) -> u128 {
    match objective {
        Objective::ShutChance => 0,
        Objective::ExpectedScore => u128::from(params.score_of(open)) * scale,
    }
}

/// The set whose table index is `index` (tile t is bit t − 1).
fn set_at(index: usize) -> TileSet {
    u16::try_from(index << 1)
        .ok()
        .and_then(TileSet::from_bits)
        .unwrap_or(TileSet::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(list: &[u8]) -> TileSet {
        TileSet::from_tiles(list.iter().copied()).unwrap()
    }

    fn params(tiles: u8, one_die: OneDie, score: Scoring) -> Strike9Params {
        Strike9Params {
            tiles,
            one_die,
            score,
        }
    }

    fn all_params() -> Vec<Strike9Params> {
        Strike9Params::every().collect()
    }

    #[test]
    fn every_combination_has_its_own_slot_and_shared_table() {
        let mut slots: Vec<usize> = all_params().iter().map(slot).collect();
        slots.sort_unstable();
        assert_eq!(slots, (0..27).collect::<Vec<_>>());
        for p in all_params().into_iter().filter(|p| p.tiles < 12) {
            let table = Table::shared(&p).unwrap();
            assert_eq!(table.params(), &p);
            assert_eq!(table.objective(), Objective::of(p.score));
            assert!(std::ptr::eq(table, Table::shared(&p).unwrap()));
            let chance = Table::shared_chance(&p).unwrap();
            assert_eq!(chance.objective(), Objective::ShutChance);
            assert_eq!(chance.params().one_die, p.one_die);
        }
    }

    #[test]
    fn invalid_boxes_are_refused() {
        for n in [0, 1, 8, 11, 13, 255] {
            let p = params(n, OneDie::Never, Scoring::Shut);
            let err = Table::solve(&p).unwrap_err();
            assert!(err.0.contains(&n.to_string()), "{err:?}");
            assert!(Table::shared(&p).is_err());
        }
    }

    #[test]
    fn ends_of_the_game_have_their_values() {
        let shut = Table::shared(&Strike9Params::default()).unwrap();
        let one = shut.before_roll(TileSet::EMPTY).unwrap();
        assert_eq!(one.reduced(), (1, 1));
        assert_eq!(shut.before_roll(tiles(&[1])).unwrap().numerator(), 0);
        assert_eq!(shut.before_roll(tiles(&[10])), None);
        assert_eq!(shut.after_choice(TileSet::ALL, Dice::One), None);
        assert_eq!(
            shut.after_choice(TileSet::ALL, Dice::Two),
            shut.before_roll(TileSet::ALL)
        );
        assert_eq!(shut.best_dice(TileSet::ALL), None);
        assert_eq!(shut.after_roll(TileSet::ALL, Dice::Two, 13), None);
        assert_eq!(shut.after_roll(TileSet::ALL, Dice::One, 7), None);
        assert_eq!(shut.best_move(TileSet::ALL, Dice::One, 7), None);
        assert_eq!(shut.best_move(tiles(&[1, 10]), Dice::Two, 11), None);
        assert!(shut.moves(tiles(&[1, 10]), Dice::Two, 11).is_empty());
        assert!(shut.moves(TileSet::ALL, Dice::Two, 1).is_empty());
        let golf = Table::shared(&params(9, OneDie::HighShut, Scoring::Golf)).unwrap();
        assert_eq!(golf.before_roll(TileSet::EMPTY).unwrap().numerator(), 0);
        // 1 alone: two dice never make 1 (a score of 1), one die does one time in six.
        assert_eq!(golf.before_roll(tiles(&[1])).unwrap().reduced(), (5, 6));
        let two = golf.after_choice(tiles(&[1]), Dice::Two).unwrap();
        assert_eq!(two.reduced(), (1, 1));
        assert_eq!(golf.best_dice(tiles(&[1])), Some(Dice::One));
        // One die: 1 to 6, each a sixth; 6 shuts the box, any other total leaves 6.
        let six = golf.after_choice(tiles(&[6]), Dice::One).unwrap();
        assert_eq!(six.reduced(), (5, 1));
        assert_eq!(golf.best_dice(tiles(&[6])), Some(Dice::One));
        let digits = Table::shared(&params(12, OneDie::Never, Scoring::Digits)).unwrap();
        assert_eq!(
            digits
                .after_roll(tiles(&[1, 10]), Dice::Two, 12)
                .unwrap()
                .reduced(),
            (110, 1)
        );
        assert_eq!(
            digits
                .after_roll(tiles(&[1, 10]), Dice::Two, 11)
                .unwrap()
                .reduced(),
            (0, 1)
        );
    }

    #[test]
    fn before_roll_is_the_best_choice_and_each_choice_the_weighted_rolls() {
        for p in all_params().into_iter().filter(|p| p.tiles == 9) {
            let table = Table::solve(&p).unwrap();
            for index in 1..512usize {
                let open = set_at(index);
                let before = table.before_roll(open).unwrap();
                let mut choices = Vec::new();
                for dice in Dice::BOTH {
                    let Some(value) = table.after_choice(open, dice) else {
                        continue;
                    };
                    let sum: u128 = dice
                        .totals()
                        .map(|t| {
                            let after = table.after_roll(open, dice, t).unwrap().numerator();
                            u128::from(dice.ways(t)) * after / u128::from(dice.outcomes())
                        })
                        .sum();
                    assert_eq!(sum, value.numerator());
                    choices.push(value.numerator());
                }
                let best = match table.objective() {
                    Objective::ShutChance => choices.iter().max(),
                    Objective::ExpectedScore => choices.iter().min(),
                };
                assert_eq!(Some(&before.numerator()), best, "{p:?} {open}");
                assert_eq!(
                    table.best_dice(open).is_some(),
                    p.one_die_allowed(open),
                    "{p:?} {open}"
                );
            }
        }
    }

    #[test]
    fn exact_values_convert_to_the_nearest_float() {
        let e = Exact {
            numerator: 6,
            denominator: 36,
        };
        assert_eq!(e.reduced(), (1, 6));
        assert_eq!(e.to_f64(), 1.0 / 6.0);
        let zero = Exact {
            numerator: 0,
            denominator: 36,
        };
        assert_eq!(zero.reduced(), (0, 1));
        assert_eq!(zero.to_f64(), 0.0);
    }

    /// `best_in` is the dice choice while it is pending and the best tiles for the dice rolled
    /// otherwise, and nothing once the game is over.
    #[test]
    fn the_best_move_in_a_state_is_the_dice_or_the_tiles_it_is_waiting_for() {
        use tilebox_core::Puzzle;

        use crate::Strike9;
        let mut choices = 0;
        for params in Strike9Params::every() {
            let table = Table::shared(&params).unwrap();
            for seed in 0..6 {
                let mut state = Strike9::new_game(&params, seed).unwrap();
                while let Some(mv) = table.best_in(&state) {
                    let expected = match state.rolled_dice() {
                        None => {
                            choices += 1;
                            Strike9Move::Roll(table.best_dice(state.open()).unwrap())
                        }
                        Some(dice) => Strike9Move::Shut(
                            table.best_move(state.open(), dice, state.total()).unwrap(),
                        ),
                    };
                    assert_eq!(mv, expected);
                    assert_eq!(
                        state.rolled_dice().map(|d| d == Dice::One),
                        match state.dice().len() {
                            0 => None,
                            n => Some(n == 1),
                        }
                    );
                    state = Strike9::apply(&state, &mv).unwrap();
                }
                assert!(Strike9::status(&state).over);
            }
        }
        assert!(choices > 0, "no game reached a choice of dice");
    }
}
