//! [`Rules`]: a [`Variant`] compiled for play. Ranks on the board are ladder positions (1 is the
//! ladder's first tile, 0 an empty cell); merge rules become lookup tables, so a line move is a
//! table walk whatever the variant; one line routine per motion serves all four directions
//! through [`crate::slide`].

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use tilebox_core::GameRng;

use crate::condition::Env;
use crate::line::LineMotion;
use crate::slide::slide_board;
use crate::variant::{
    Counters, MAX_MOVE_SETS, MAX_RULE_TILES, Made, MergeRule, Movement, Pos, Scoring, SpawnAt,
    Test, Variant,
};
use crate::{Board, BoardError, Cell, Direction, Rank, Slide};

/// The slot of ranks `a` (nearer the wall) and `b` in a pair table `2^shift` square.
fn slot(shift: u32, a: Rank, b: Rank) -> usize {
    usize::from(a) << shift | usize::from(b)
}

// A ladder's ranks index its pair table.
const _: () = assert!(crate::variant::MAX_TILES < 256);

/// The pair table of a ladder of `len` tiles is `2^shift` square, the least power of two above
/// its ranks 0 to `len`: 64 for a ladder of 63 tiles or fewer (2048's is 57), 256 for the
/// longest, 255 ([`crate::variant::MAX_TILES`], which keeps every table this small).
fn table_shift(len: Rank) -> u32 {
    (u32::from(len) + 1)
        .next_power_of_two()
        .trailing_zeros()
        .max(6)
}

/// A variant's rules, compiled: what a rank is worth, how lines move, what spawns. Cheap to clone
/// (the tables are shared). Two `Rules` are equal when their variants are.
#[derive(Clone)]
pub struct Rules(Arc<Compiled>);

struct Compiled {
    variant: Variant,
    /// The ladder's length: the highest rank.
    len: Rank,
    /// `pair[slot(shift, a, b)]`: the rank made by the first 2-tile rule that matches `a` (nearer
    /// the wall) and `b`, 0 for none.
    pair: Vec<Rank>,
    /// The pair table's side, as a power of two ([`table_shift`]).
    shift: u32,
    /// The index among the merge rules of that rule, `u32::MAX` for none: the longer rules
    /// listed before it are tried first.
    pair_rule: Vec<u32>,
    /// The indices of the rules the pair table does not hold, in order: rules of 3 to 5 tiles,
    /// rules that leave tiles besides the one they make, rules of whole runs, rules that make
    /// nothing and rules that leave cells spent.
    longer: Vec<usize>,
    /// `longer_at[a]`: the rules of `longer` that can take a tile of rank `a` first (nearest
    /// the wall), in order: a rule of exact positions names its first tile (any of its tiles
    /// when they may lie in any order), any other is listed under every rank. The walk tries
    /// only those at each tile, so that 3375's 2,568 rules of three cost a few each. Empty for
    /// a range of integers, whose rules are tried as conditions ([`integer_merge_at`]).
    longer_at: Vec<Vec<usize>>,
    /// Board scoring: the points of each rank (index 0, an empty cell, scores 0).
    points: Option<Vec<u64>>,
    /// Weighted spawns: rank and weight, in ladder order, and the total weight.
    weights: Vec<(Rank, u32)>,
    total_weight: u32,
    /// A bag's full contents, in ladder order (refilled and shuffled when empty).
    full_bag: Vec<Rank>,
    /// The bonus, in ranks: the least highest rank, the lowest bonus rank, the divisor, the
    /// chance.
    bonus: Option<BonusRanks>,
    win_rank: Option<Rank>,
    /// For a variant whose rules hold on some moves or directions only: the rules of each move,
    /// `by_move[phase[dir.index() * cycle + turn % cycle]]`, each a variant of the rules that
    /// hold then, compiled once for each set of rules that hold together
    /// ([`Variant::move_sets`]: 2295's cycle is 4,096 moves long, and its moves have 13 sets
    /// of rules, the 12 powers of two and none). Empty for every other variant.
    by_move: Vec<Rules>,
    /// The index into `by_move` of each direction and move of the cycle.
    phase: Vec<u16>,
    /// How many moves it takes the rules to come round again ([`Variant::move_cycle`]).
    cycle: u32,
    /// The turn pipeline's ticks, compiled: for each state of the counters they read, what each
    /// rank becomes (0: the tile vanishes), `ticks[state * (len + 1) + rank]`. Empty without
    /// ticks.
    ticks: Vec<Rank>,
    /// The counters the ticks read: index, least value and number of values (the state is
    /// their values in mixed radix, the first the most significant).
    tick_counters: Vec<(usize, i64, i64)>,
    /// The counters' values its merge rules read as it slides (mod 27's modulus `m`): the
    /// start's for [`Rules::new`], another state's for [`Rules::at`].
    counters: Counters,
    /// The counters its merge rules read, as `tick_counters`; empty where they read none.
    merge_counters: Vec<(usize, i64, i64)>,
    /// The compilations of the variant for each state of `merge_counters`, made when first
    /// asked for ([`Rules::at`]) and shared by all of them; held weakly, so that none keeps
    /// another alive. Empty where the merge rules read no counter.
    family: Arc<Mutex<Vec<Weak<Compiled>>>>,
    /// The `draw` tables made so far, by the counters that made them (at most
    /// [`MAX_DRAW_TABLES`] kept; see [`Rules::draw_table`]).
    draws: std::sync::Mutex<Vec<(Counters, Arc<DrawTable>)>>,
}

/// The counters (index, least value, number of values) that `reads(i)` says are read.
fn read_counters(variant: &Variant, reads: impl Fn(usize) -> bool) -> Vec<(usize, i64, i64)> {
    variant
        .pipeline
        .counters
        .iter()
        .enumerate()
        .filter(|&(i, _)| reads(i))
        .map(|(i, c)| (i, c.values[0], c.values[1] - c.values[0] + 1))
        .collect()
}

/// The state of `counters` among those of `read` (their values in mixed radix, the first the
/// most significant, each held within its values).
fn counter_state(read: &[(usize, i64, i64)], counters: &Counters) -> usize {
    let mut state = 0usize;
    for &(i, from, size) in read {
        let v = counters.get(i).copied().unwrap_or(from);
        let digit = usize::try_from(v.saturating_sub(from).clamp(0, size - 1)).unwrap_or(0);
        state = state * usize::try_from(size).unwrap_or(1) + digit;
    }
    state
}

/// The environment in which the turn pipeline reads the tile `rank` as `a`: its number (a
/// record's worth) and, for a record, its fields; `None` for a rank that is no tile.
fn tile_env(variant: &Variant, rank: Rank, mut env: Env) -> Option<Env> {
    match variant.tiles.as_records() {
        Some(rec) => {
            env.tiles[0] = rec.worth_of(u64::from(rank))?;
            env.fields[0] = rec.fields_of(u64::from(rank))?;
        }
        None => env.tiles[0] = variant.number(rank)?,
    }
    Some(env)
}

/// The rank of the tile that a one-tile rule's `makes` gives in `env`: a record where the
/// tiles are records, else a number; `None` where it is no tile.
fn tile_made(variant: &Variant, makes: &crate::condition::Expr, env: &Env) -> Option<Rank> {
    match variant.tiles.as_records() {
        Some(rec) => {
            let (fields, n) = makes.eval_record(env)?;
            Rank::try_from(rec.rank_of(&fields[..n])?).ok()
        }
        None => makes.eval(env).and_then(|n| variant.rank_of_number(n)),
    }
}

/// The cells of a board of side `side` in the order in which the Compendium's engine takes the
/// tiles of a move toward `dir` (its `TileOrder`): the row or column nearest the wall first,
/// and along it, up: right to left; down: left to right; left: top to bottom; right: bottom
/// to top.
pub fn move_order(dir: Direction, side: usize) -> impl Iterator<Item = Cell> {
    (0..side * side).map(move |i| {
        let (line, along) = (i / side, i % side);
        let far = side - 1;
        match dir {
            Direction::Up => Cell::new(line, far - along),
            Direction::Down => Cell::new(far - line, along),
            Direction::Left => Cell::new(along, line),
            Direction::Right => Cell::new(far - along, far - line),
        }
    })
}

/// The most `draw` tables a variant's rules keep made ([`Compiled::draws`]).
const MAX_DRAW_TABLES: usize = 64;

/// A `draw`'s table for one state of the counters: ranks and weights, in rank order, and their
/// total (at most 2^32 - 1: larger weights are scaled down alike).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DrawTable {
    /// Rank and weight of each tile the draw may give.
    pub weights: Vec<(Rank, u32)>,
    /// Their total.
    pub total: u32,
}

/// The most entries of a tick table ([`Compiled::ticks`]): states of the counters the ticks
/// read times the tiles.
pub const MAX_TICK_TABLE: usize = 1 << 20;

/// The tick table of `variant`'s pipeline and the counters it reads (see [`Compiled::ticks`]).
#[allow(clippy::type_complexity)]
fn compile_ticks(
    variant: &Variant,
    len: Rank,
) -> Result<(Vec<Rank>, Vec<(usize, i64, i64)>), crate::VariantError> {
    let p = &variant.pipeline;
    if p.ticks.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let err = |m: String| crate::VariantError::field("tick", m);
    let reads = |i: usize| {
        p.ticks.iter().any(|t| {
            t.when.iter().any(|c| c.expr().reads_counter(i))
                || t.makes.as_ref().is_some_and(|e| e.reads_counter(i))
        })
    };
    if p.ticks.iter().any(|t| {
        t.when.iter().any(|c| c.expr().reads_turn())
            || t.makes.as_ref().is_some_and(|e| e.reads_turn())
    }) {
        return Err(err(
            "a one-tile rule reads the tile and the counters, not t".into(),
        ));
    }
    let read = read_counters(variant, reads);
    let states: i64 = read.iter().map(|r| r.2).product();
    let width = usize::from(len) + 1;
    let states = usize::try_from(states).unwrap_or(usize::MAX);
    if states.saturating_mul(width) > MAX_TICK_TABLE {
        return Err(err(format!(
            "{states} states of the counters the one-tile rules read times {width} tiles is more \
             than {MAX_TICK_TABLE}"
        )));
    }
    let mut table = vec![0; states * width];
    for state in 0..states {
        let mut env = Env::default();
        let mut rest = state;
        for &(i, from, size) in read.iter().rev() {
            let size = usize::try_from(size).unwrap_or(1);
            env.counters[i] = from + i64::try_from(rest % size).unwrap_or(0);
            rest /= size;
        }
        for rank in 1..=len {
            let Some(env) = tile_env(variant, rank, env) else {
                continue;
            };
            let made = p
                .ticks
                .iter()
                .find(|t| t.when.iter().all(|c| c.holds(&env)))
                .map_or(rank, |t| match &t.makes {
                    None => 0,
                    // A tile that is no tile of the variant: the tile stays.
                    Some(e) => tile_made(variant, e, &env).unwrap_or(rank),
                });
            table[state * width + usize::from(rank)] = made;
        }
    }
    Ok((table, read))
}

#[derive(Clone, Copy)]
struct BonusRanks {
    top_at_least: u64,
    lowest: u64,
    divided_by: u64,
    chance: [u32; 2],
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({})", self.0.variant.id)
    }
}

impl PartialEq for Rules {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.variant == other.0.variant
    }
}

impl Eq for Rules {}

impl Rules {
    /// Checks `variant` ([`Variant::validate`]) and compiles it, its merge rules reading the
    /// counters' start values.
    pub fn new(variant: &Variant) -> Result<Rules, crate::VariantError> {
        Rules::new_at(variant, variant.pipeline.start(), None)
    }

    /// [`Rules::new`] with the merge rules reading `counters`, one of the compilations of
    /// `family` (a new family when `None`).
    fn new_at(
        variant: &Variant,
        counters: Counters,
        family: Option<&Arc<Mutex<Vec<Weak<Compiled>>>>>,
    ) -> Result<Rules, crate::VariantError> {
        variant.validate()?;
        let len = Rank::try_from(variant.tiles.len()).unwrap_or(Rank::MAX);
        let n = usize::from(len);
        let integers = variant.tiles.is_numbered();
        // A range of integers has no pair table (thousands of tiles; its rules are conditions
        // on their numbers): every rule is tried as the walk meets it ([`slide_line`]).
        let shift = if integers { 0 } else { table_shift(len) };
        let mut pair = vec![0; 1 << (2 * shift)];
        let mut pair_rule = vec![u32::MAX; 1 << (2 * shift)];
        // Each pair takes the first 2-tile rule that matches it. A rule can only match the
        // pairs its positions name for some n (either way round when any order), so those are
        // the pairs tried: a rule costs the ladder's length, not its square.
        for (i, rule) in variant.merges.iter().enumerate() {
            let [first, second] = rule.tiles.as_slice() else {
                continue;
            };
            if !rule.leaves.is_empty()
                || rule.run
                || rule.makes.is_none()
                || !rule.spent.is_empty()
                || integers
            {
                continue;
            }
            let at = |p: &Pos, k: Rank| match *p {
                Pos::Exact(e) => Rank::try_from(e).ok(),
                Pos::Rel(off) => u32::from(k)
                    .checked_add(off)
                    .and_then(|r| Rank::try_from(r).ok()),
                Pos::Int(_) => None,
            };
            // A rule of exact positions names one pair, whatever n is.
            let relative = matches!(first, Pos::Rel(_)) || matches!(second, Pos::Rel(_));
            let last_n = if relative { len } else { 1 };
            for k in 1..=last_n {
                let (Some(a), Some(b)) = (at(first, k), at(second, k)) else {
                    continue;
                };
                for (a, b) in [(a, b), (b, a)] {
                    if a == 0 || b == 0 || a > len || b > len {
                        continue;
                    }
                    let slot = slot(shift, a, b);
                    if pair[slot] != 0 {
                        continue;
                    }
                    if let Some(made) = rule.made(&[a, b], n) {
                        pair[slot] = made;
                        pair_rule[slot] = u32::try_from(i).unwrap_or(u32::MAX - 1);
                    }
                }
            }
        }
        let longer: Vec<usize> = variant
            .merges
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                integers
                    || r.tiles.len() >= 3
                    || !r.leaves.is_empty()
                    || r.run
                    || r.makes.is_none()
                    || !r.spent.is_empty()
            })
            .map(|(i, _)| i)
            .collect();
        let longer_at = if integers {
            Vec::new()
        } else {
            longer_index(&variant.merges, &longer, len)
        };
        let points = match &variant.score {
            Scoring::Merges | Scoring::Made(_) => None,
            Scoring::Board(p) => Some(std::iter::once(0).chain(p.iter().copied()).collect()),
        };
        let rank = |v: &u64| variant.rank_of(*v).unwrap_or(0);
        let weights: Vec<(Rank, u32)> = variant
            .spawn
            .weights
            .iter()
            .flatten()
            .map(|(v, &w)| (rank(v), w))
            .filter(|&(_, w)| w > 0)
            .collect();
        let total_weight = weights.iter().map(|&(_, w)| w).sum();
        let full_bag = variant
            .spawn
            .bag
            .iter()
            .flatten()
            .flat_map(|(v, &count)| std::iter::repeat_n(rank(v), count as usize))
            .collect();
        let bonus = variant.spawn.bonus.map(|b| BonusRanks {
            top_at_least: b.top_at_least,
            lowest: b.lowest,
            divided_by: b.top_divided_by.max(1),
            chance: b.chance,
        });
        let win_rank = variant
            .win
            .lowest()
            .and_then(|w| variant.rank_of(w))
            .filter(|_| !integers);
        let cycle = variant.move_cycle();
        let sets = variant.move_sets().ok_or_else(|| {
            crate::VariantError::field(
                "merges",
                format!("more than {MAX_MOVE_SETS} different sets of rules"),
            )
        })?;
        let by_move = sets
            .first
            .iter()
            .map(|&(dir, turn)| Rules::new_at(&variant.on_move(dir, turn), counters, None))
            .collect::<Result<Vec<_>, _>>()?;
        let (ticks, tick_counters) = compile_ticks(variant, len)?;
        let merge_counters = read_counters(variant, |i| {
            variant
                .merges
                .iter()
                .any(|r| r.exprs().any(|e| e.reads_counter(i)))
        });
        // At most `MAX_MERGE_STATES` ([`Variant::validate`]).
        let states: i64 = merge_counters.iter().map(|r| r.2).product();
        let family = match family {
            Some(f) => Arc::clone(f),
            None if merge_counters.is_empty() => Arc::default(),
            None => Arc::new(Mutex::new(
                (0..usize::try_from(states).unwrap_or(0))
                    .map(|_| Weak::new())
                    .collect(),
            )),
        };
        let rules = Rules(Arc::new(Compiled {
            variant: variant.clone(),
            len,
            pair,
            shift,
            pair_rule,
            longer,
            longer_at,
            points,
            weights,
            total_weight,
            full_bag,
            bonus,
            win_rank,
            by_move,
            phase: sets.of_move,
            cycle,
            ticks,
            tick_counters,
            draws: std::sync::Mutex::new(Vec::new()),
            counters,
            merge_counters,
            family,
        }));
        let c = &*rules.0;
        if !c.merge_counters.is_empty() {
            let state = counter_state(&c.merge_counters, &c.counters);
            let mut family = c.family.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(slot) = family.get_mut(state)
                && slot.upgrade().is_none()
            {
                *slot = Arc::downgrade(&rules.0);
            }
        }
        Ok(rules)
    }

    /// These rules with the merge rules reading `counters` (mod 27's modulus `m`, 2058's
    /// maximum): themselves where the merge rules read no counter or read them as these do,
    /// else the compilation for those values, made the first time it is asked for and shared
    /// while something holds it. A game's state holds the rules of its counters.
    pub fn at(&self, counters: &Counters) -> Rules {
        let c = &*self.0;
        if c.merge_counters.is_empty() {
            return self.clone();
        }
        let state = counter_state(&c.merge_counters, counters);
        if state == counter_state(&c.merge_counters, &c.counters) {
            return self.clone();
        }
        let family = c.family.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = family.get(state).and_then(Weak::upgrade) {
            return Rules(found);
        }
        let mut held = c.counters;
        for &(i, from, size) in &c.merge_counters {
            if let (Some(h), Some(&v)) = (held.get_mut(i), counters.get(i)) {
                *h = v.clamp(from, from + size - 1);
            }
        }
        drop(family);
        // The variant compiled once already: only the counters differ.
        match Rules::new_at(&c.variant, held, Some(&c.family)) {
            Ok(rules) => rules,
            Err(_) => self.clone(),
        }
    }

    /// Whether the merge rules read some counter, so that the rules of a game depend on its
    /// counters ([`Rules::at`]).
    pub fn has_counter_merges(&self) -> bool {
        !self.0.merge_counters.is_empty()
    }

    /// The values of the counters that the merge rules read as these rules slide (the others
    /// at their start): the key of these rules among those of [`Rules::at`].
    pub fn merge_counters(&self) -> Counters {
        let c = &*self.0;
        let mut out = [0; crate::variant::MAX_COUNTERS];
        for &(i, _, _) in &c.merge_counters {
            if let (Some(o), Some(&v)) = (out.get_mut(i), c.counters.get(i)) {
                *o = v;
            }
        }
        out
    }

    /// [`Rules::new`], remembering the last few variants compiled on this thread: a new game,
    /// a replay or a code asks for the rules of the game at hand again and again, and the
    /// biggest (Directional Merges: 752 rules, five tables of 256 × 256) take milliseconds to
    /// compile. Each thread keeps its own, so no thread ever waits for another.
    pub fn cached(variant: &Variant) -> Result<Rules, crate::VariantError> {
        const KEPT: usize = 8;
        thread_local! {
            static RECENT: std::cell::RefCell<Vec<Rules>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        if let Some(found) =
            RECENT.with_borrow(|recent| recent.iter().find(|r| r.0.variant == *variant).cloned())
        {
            return Ok(found);
        }
        let rules = Rules::new(variant)?;
        RECENT.with_borrow_mut(|recent| {
            if recent.len() >= KEPT {
                recent.remove(0);
            }
            recent.push(rules.clone());
        });
        Ok(rules)
    }

    /// The rules of a move toward `dir` numbered `turn` (the moves played before it, from 0):
    /// these rules themselves, unless some of them hold on some moves or directions only.
    pub fn on_move(&self, dir: Direction, turn: u64) -> &Rules {
        let c = &*self.0;
        if c.by_move.is_empty() {
            return self;
        }
        let at = dir.index() * c.cycle as usize + (turn % u64::from(c.cycle.max(1))) as usize;
        c.phase
            .get(at)
            .and_then(|&i| c.by_move.get(usize::from(i)))
            .unwrap_or(self)
    }

    /// Whether some rules hold on some moves or directions only, so that a move's rules depend
    /// on its number and direction ([`Rules::on_move`]).
    pub fn has_move_rules(&self) -> bool {
        !self.0.by_move.is_empty()
    }

    /// The variant these rules were compiled from.
    pub fn variant(&self) -> &Variant {
        &self.0.variant
    }

    /// The highest rank a tile can reach: the ladder's length.
    pub fn max_rank(&self) -> Rank {
        self.0.len
    }

    /// The rank whose making wins, if the variant has a win: the lowest of a list of wins, which
    /// the highest tile reaches by making it. A range of integers has none (its merges pass over
    /// numbers: any of its wins on the board wins, [`Rules::is_won`]).
    pub fn win_rank(&self) -> Option<Rank> {
        self.0.win_rank
    }

    /// The value of a tile of `rank` (0 for an empty cell; `u64::MAX` for a rank off the
    /// ladder, which no game of these rules holds).
    pub fn value(&self, rank: Rank) -> u64 {
        match rank {
            0 => 0,
            r => self
                .0
                .variant
                .tiles
                .get(usize::from(r) - 1)
                .copied()
                .unwrap_or(u64::MAX),
        }
    }

    /// The rank of a tile worth `value` (0 for 0, an empty cell), or `None` for a value that is
    /// not on the ladder.
    pub fn rank_of(&self, value: u64) -> Option<Rank> {
        if value == 0 {
            Some(0)
        } else {
            self.0.variant.rank_of(value)
        }
    }

    /// The rank two neighbouring tiles make by a 2-tile rule, `a` nearer the wall than `b`.
    pub fn pair_merge(&self, a: Rank, b: Rank) -> Option<Rank> {
        let c = &*self.0;
        if c.variant.tiles.is_numbered() {
            return self.integer_merge(&[a, b], 0);
        }
        let side = 1usize << c.shift;
        if usize::from(a) >= side || usize::from(b) >= side {
            return None;
        }
        match c.pair[slot(c.shift, a, b)] {
            0 => None,
            made => Some(made),
        }
    }

    /// Whether tiles of ranks `a` and `b` side by side merge, in either order, by a 2-tile rule.
    pub fn merges_with(&self, a: Rank, b: Rank) -> bool {
        self.pair_merge(a, b).is_some() || self.pair_merge(b, a).is_some()
    }

    /// In a range of integers, the tile that `ranks` (from the wall outward) make on move
    /// `turn` by the first rule of as many tiles that takes them with no tile behind them;
    /// `None` for a ladder, for tiles no rule takes, and for tiles that destroy one another.
    pub fn integer_merge(&self, ranks: &[Rank], turn: u64) -> Option<Rank> {
        let v = &self.0.variant;
        if !v.tiles.is_numbered() {
            return None;
        }
        v.merges
            .iter()
            .filter(|r| r.tiles.len() == ranks.len())
            .find_map(|r| r.integer_outputs(ranks, &v.tiles, 0, turn, &self.0.counters))
            .and_then(|made| made.ranks().first().copied())
    }

    /// Whether `board` holds a winning tile: its highest reaches the lowest of the win on a
    /// ladder (the tiles of a list of wins follow one another there); in a range of integers,
    /// whose merges may pass over a number, a tile is one of them.
    pub fn is_won(&self, board: &Board) -> bool {
        let c = &*self.0;
        if !c.variant.tiles.is_numbered() {
            return c.win_rank.is_some_and(|w| board.max_rank() >= w);
        }
        let wins = c.variant.win.values();
        board
            .cells_with_ranks()
            .any(|(_, r)| wins.contains(&u64::from(r)))
    }

    /// Whether the variant has a turn pipeline (format 3's `counters`, `events`, `tick`, `lose`,
    /// `"win": {"when": …}`): something besides the spawn happens after a slide.
    pub fn has_pipeline(&self) -> bool {
        !self.0.variant.pipeline.is_empty()
    }

    /// The counters at the start of a game (0 for counters the variant does not have).
    pub fn start_counters(&self) -> Counters {
        self.0.variant.pipeline.start()
    }

    /// Whether `test` holds of `board` and `counters` on move `turn`.
    fn test_holds(&self, test: &Test, board: &Board, counters: &Counters, turn: u64) -> bool {
        if !test.any {
            return self.holds_of_tile(test, 0, counters, turn);
        }
        board
            .cells_with_ranks()
            .any(|(_, r)| self.holds_of_tile(test, r, counters, turn))
    }

    /// Whether `test` holds of the tile `rank` with `counters` on move `turn`: for `any(…)`,
    /// whether that tile meets it (never for rank 0, an empty cell); for a test of the counters
    /// alone, whether it holds, whatever `rank` is.
    fn holds_of_tile(&self, test: &Test, rank: Rank, counters: &Counters, turn: u64) -> bool {
        let env = Env {
            counters: *counters,
            turn: i64::try_from(turn).unwrap_or(i64::MAX),
            ..Default::default()
        };
        if !test.any {
            return test.cond.holds(&env);
        }
        rank != 0 && tile_env(&self.0.variant, rank, env).is_some_and(|env| test.cond.holds(&env))
    }

    /// The turn pipeline's events on `board`, just slid by move `turn` toward `dir`, with the
    /// counters as they were before the move: the counters' values for the rest of the turn
    /// (changed by the events `at_once`) and their new values, which they take at the turn's
    /// end; each held within its values (the later event wins when two change one counter).
    /// An event reads the counters as they were before the move, but one tried tile by tile
    /// (`each_tile`, in the order the move took the tiles: [`move_order`]) reads its own
    /// changes as it goes.
    pub fn events_toward(
        &self,
        board: &Board,
        counters: &Counters,
        turn: u64,
        dir: Direction,
    ) -> (Counters, Counters) {
        self.events_by(
            counters,
            turn,
            || move_order(dir, board.side()).map(|cell| board.rank(cell)),
            |i, rank, counters| self.event_holds_of_tile(i, rank, counters, turn),
        )
    }

    /// [`Rules::events_toward`] on a board whose tiles come from `tiles` (a fresh iterator at
    /// each call, the tiles of the slid board in the order the move took them, any tile type),
    /// tested by `holds(i, tile, counters)`: whether event `i`'s test holds of that tile with
    /// those counters on this move, as [`Rules::event_holds_of_tile`] says (a player reads it
    /// from a table). A test of the counters alone is asked once, of the board's first tile.
    /// The events' order, `each_tile`, `at_once` and the counters' bounds are read here alone.
    pub fn events_by<T, I: Iterator<Item = T>>(
        &self,
        counters: &Counters,
        turn: u64,
        tiles: impl Fn() -> I,
        mut holds: impl FnMut(usize, T, &Counters) -> bool,
    ) -> (Counters, Counters) {
        let p = &self.0.variant.pipeline;
        let (mut now, mut next) = (*counters, *counters);
        let turn_env = i64::try_from(turn).unwrap_or(i64::MAX);
        // The new values of `event` with the counters `from`, into `into`.
        let apply = |event: &crate::variant::Event, from: &Counters, into: &mut Counters| {
            let env = Env {
                counters: *from,
                turn: turn_env,
                ..Default::default()
            };
            for (i, value) in &event.then {
                let (Some(counter), Some(slot)) = (p.counters.get(*i), into.get_mut(*i)) else {
                    continue;
                };
                // An undefined new value leaves the counter as it was.
                if let Some(v) = value.eval(&env) {
                    *slot = v.clamp(counter.values[0], counter.values[1]);
                }
            }
        };
        for (e, event) in p.events.iter().enumerate() {
            let changed = if event.each_tile {
                let mut running = *counters;
                let mut fired = false;
                for tile in tiles() {
                    if holds(e, tile, &running) {
                        let from = running;
                        apply(event, &from, &mut running);
                        fired = true;
                    }
                }
                fired.then_some(running)
            } else {
                let fires = if event.test.any {
                    tiles().any(|tile| holds(e, tile, counters))
                } else {
                    tiles().next().is_some_and(|tile| holds(e, tile, counters))
                };
                fires.then(|| {
                    let mut changed = *counters;
                    apply(event, counters, &mut changed);
                    changed
                })
            };
            let Some(changed) = changed else { continue };
            for (i, _) in &event.then {
                let Some(&v) = changed.get(*i) else { continue };
                if let Some(slot) = next.get_mut(*i) {
                    *slot = v;
                }
                if event.at_once
                    && let Some(slot) = now.get_mut(*i)
                {
                    *slot = v;
                }
            }
        }
        (now, next)
    }

    /// Whether event `i`'s test holds of the tile `rank` with `counters` on move `turn`: for
    /// `any(…)`, whether that tile meets it (never for rank 0, an empty cell); for a test of
    /// the counters alone, whether it holds, whatever `rank` is. `false` past the events.
    pub fn event_holds_of_tile(
        &self,
        i: usize,
        rank: Rank,
        counters: &Counters,
        turn: u64,
    ) -> bool {
        self.0
            .variant
            .pipeline
            .events
            .get(i)
            .is_some_and(|e| self.holds_of_tile(&e.test, rank, counters, turn))
    }

    /// [`Rules::events_toward`] of a move toward the left: the counters' new values.
    pub fn events(&self, board: &Board, counters: &Counters, turn: u64) -> Counters {
        self.events_toward(board, counters, turn, Direction::Left).1
    }

    /// The turn pipeline's first half on `board`, just slid by move `turn` toward `dir`
    /// (before the spawn): the events, then the ticks, read with the counters as the events
    /// `at_once` leave them. Returns the counters' values for the rest of the turn (its
    /// `lose` and `win` read them) and their new values, which they take at the turn's end.
    pub fn after_move(
        &self,
        board: &mut Board,
        counters: &Counters,
        turn: u64,
        dir: Direction,
    ) -> (Counters, Counters) {
        let (now, next) = self.events_toward(board, counters, turn, dir);
        self.tick(board, &now);
        (now, next)
    }

    /// The turn pipeline before the spawn on `slide` (a slide of move `turn` toward `dir`,
    /// the counters `counters` before it), in the Compendium's order: what the tiles made do
    /// to the counters (`made`, at once, as the Compendium sets its variables during the
    /// merge), then the events and the ticks on the slide's board ([`Rules::after_move`]).
    /// Returns the counters' values for the rest of the turn (the spawn, `lose` and `win` read
    /// them) and their new values, which they take at the turn's end. A game's move and the
    /// AI's search both run it. Without a pipeline: the counters as they are, twice.
    pub fn before_spawn(
        &self,
        slide: &mut Slide,
        counters: &Counters,
        turn: u64,
        dir: Direction,
    ) -> (Counters, Counters) {
        if !self.has_pipeline() {
            return (*counters, *counters);
        }
        let made = self.after_made(slide, counters, turn);
        self.after_move(&mut slide.board, &made, turn, dir)
    }

    /// [`Rules::after_move`] of a move toward the left: the counters' new values.
    pub fn after_slide(&self, board: &mut Board, counters: &Counters, turn: u64) -> Counters {
        self.after_move(board, counters, turn, Direction::Left).1
    }

    /// The tick table's row for `counters` (see [`Compiled::ticks`]); `None` without ticks.
    pub fn tick_row(&self, counters: &Counters) -> Option<&[Rank]> {
        let c = &*self.0;
        if c.ticks.is_empty() {
            return None;
        }
        let state = counter_state(&c.tick_counters, counters);
        let width = usize::from(c.len) + 1;
        c.ticks.get(state * width..(state + 1) * width)
    }

    /// Applies the ticks (one-tile rules) to every tile of `board`, read with `counters`.
    pub fn tick(&self, board: &mut Board, counters: &Counters) {
        let Some(row) = self.tick_row(counters) else {
            return;
        };
        let changed: Vec<(Cell, Rank)> = board
            .cells_with_ranks()
            .filter(|&(_, r)| r != 0)
            .filter_map(|(cell, r)| {
                let to = row.get(usize::from(r)).copied().unwrap_or(r);
                (to != r).then_some((cell, to))
            })
            .collect();
        for (cell, to) in changed {
            board.set(cell, to);
        }
    }

    /// Whether the game is lost on `board` with `counters` after move `turn` (the pipeline's
    /// `lose`).
    pub fn is_lost(&self, board: &Board, counters: &Counters, turn: u64) -> bool {
        self.0
            .variant
            .pipeline
            .lose
            .as_ref()
            .is_some_and(|t| self.test_holds(t, board, counters, turn))
    }

    /// Whether the pipeline's `lose` holds of a board that holds the tile `rank` with `counters`
    /// after move `turn`, as a player reads it tile by tile: for `any(…)`, whether that tile
    /// meets it (never for rank 0, an empty cell); for a test of the counters alone, whether it
    /// holds, whatever `rank` is.
    pub fn loses_with(&self, rank: Rank, counters: &Counters, turn: u64) -> bool {
        self.0
            .variant
            .pipeline
            .lose
            .as_ref()
            .is_some_and(|t| self.holds_of_tile(t, rank, counters, turn))
    }

    /// Whether the pipeline's win (`"win": {"when": …}`) holds of `board` and `counters` after
    /// move `turn`.
    pub fn is_won_by_test(&self, board: &Board, counters: &Counters, turn: u64) -> bool {
        self.0
            .variant
            .pipeline
            .win
            .as_ref()
            .is_some_and(|t| self.test_holds(t, board, counters, turn))
    }

    /// What the pipeline's `shown` tells the player with `counters` before move `turn`: each
    /// line's label and value (`None` where the value is undefined).
    pub fn shown(&self, counters: &Counters, turn: u64) -> Vec<(&str, Option<i64>)> {
        let env = Env {
            counters: *counters,
            turn: i64::try_from(turn).unwrap_or(i64::MAX),
            ..Default::default()
        };
        self.0
            .variant
            .pipeline
            .shown
            .iter()
            .map(|line| (line.label.as_str(), line.value.eval(&env)))
            .collect()
    }

    /// The number of different tiles a `distinct` win asks for; `None` without one.
    pub fn distinct_goal(&self) -> Option<usize> {
        self.0.variant.pipeline.distinct.as_ref().map(|d| d.count)
    }

    /// Adds to `found` (kept sorted) the tiles of `board` that meet the `distinct` win's
    /// condition with `counters` after move `turn`, each once.
    pub fn find_distinct(
        &self,
        board: &Board,
        counters: &Counters,
        turn: u64,
        found: &mut Vec<Rank>,
    ) {
        for (_, r) in board.cells_with_ranks() {
            if let Err(at) = found.binary_search(&r)
                && self.counts_toward_distinct(r, counters, turn)
            {
                found.insert(at, r);
            }
        }
    }

    /// Whether the tile `rank` meets the `distinct` win's condition with `counters` after move
    /// `turn` (never rank 0, an empty cell, nor without such a win).
    pub fn counts_toward_distinct(&self, rank: Rank, counters: &Counters, turn: u64) -> bool {
        self.0
            .variant
            .pipeline
            .distinct
            .as_ref()
            .is_some_and(|d| self.holds_of_tile(&d.test, rank, counters, turn))
    }

    /// The counters after `slide` (a slide of move `turn`) with `made`'s changes: for each tile
    /// a merge made, in the move's order (line by line from the first, each from the wall),
    /// every counter `made` names takes its value, read with the tile as `a` and the counters as
    /// the tiles before it left them; an undefined value leaves a counter as it was.
    pub fn after_made(&self, slide: &Slide, counters: &Counters, turn: u64) -> Counters {
        let mut next = *counters;
        if self.0.variant.pipeline.made.is_empty() {
            return next;
        }
        let mut seen: Vec<Cell> = Vec::new();
        for m in slide.motions.iter().filter(|m| m.merged) {
            if seen.contains(&m.to) {
                continue;
            }
            seen.push(m.to);
            next = self.made_tile(slide.board.rank(m.to), &next, turn);
        }
        next
    }

    /// The counters after a merge of move `turn` made the tile `rank` with `counters` (one step
    /// of [`Rules::after_made`]): every counter `made` names takes its value, read with the
    /// tile as `a`; an undefined value leaves a counter as it was, and so does an empty cell or
    /// a tile that is no number.
    pub fn made_tile(&self, rank: Rank, counters: &Counters, turn: u64) -> Counters {
        let p = &self.0.variant.pipeline;
        let mut next = *counters;
        let Some(n) = (rank != 0).then(|| self.0.variant.number(rank)).flatten() else {
            return next;
        };
        let env = crate::condition::Env {
            tiles: [n, 0, 0, 0, 0, 0],
            counters: next,
            turn: i64::try_from(turn).unwrap_or(i64::MAX),
            ..Default::default()
        };
        for (i, value) in &p.made {
            let (Some(counter), Some(slot)) = (p.counters.get(*i), next.get_mut(*i)) else {
                continue;
            };
            if let Some(v) = value.eval(&env) {
                *slot = v.clamp(counter.values[0], counter.values[1]);
            }
        }
        next
    }

    /// Whether the variant has rules of 3 tiles or more (or rules that leave tiles).
    pub fn has_triples(&self) -> bool {
        !self.0.longer.is_empty()
    }

    /// A board from rows of values (0 for an empty cell). Checks the shape (rows of one length,
    /// square, side 2 to 8) and then every value, row by row.
    pub fn board_from_values(&self, rows: &[Vec<u64>]) -> Result<Board, BoardError> {
        Board::from_rank_rows(rows, |cell, &value| {
            self.rank_of(value).ok_or(BoardError::BadValue {
                row: cell.row,
                col: cell.col,
                value,
            })
        })
    }

    /// The board as rows of values, 0 for an empty cell.
    pub fn values(&self, board: &Board) -> Vec<Vec<u64>> {
        board
            .rows()
            .map(|row| row.iter().map(|&rank| self.value(rank)).collect())
            .collect()
    }

    /// Slides every line of `board` toward `dir` as a game's first move does (move 0; the
    /// same on every move but for rules that hold on some moves only: [`Rules::slide_on`]).
    /// Adds no tile: spawning is the game's part. `gained` is the sum of the tiles made by
    /// merges (`"merges"` scoring) or how much the board's score grew (`"board"` scoring).
    pub fn slide(&self, board: &Board, dir: Direction) -> Slide {
        self.slide_on(board, dir, 0)
    }

    /// Slides `board` toward `dir` on the move numbered `turn` (the moves played before it),
    /// by the rules that hold on that move.
    pub fn slide_on(&self, board: &Board, dir: Direction, turn: u64) -> Slide {
        let c = &*self.on_move(dir, turn).0;
        let mut slide = match c.variant.motion {
            // A range of integers has no pair table: it walks by its rules even when a move
            // has none (a rule for some directions only).
            Movement::Slide if c.longer.is_empty() && !c.variant.tiles.is_numbered() => {
                slide_board(board, dir, |line, motions| slide_pairs(c, line, motions))
            }
            Movement::Slide => slide_board(board, dir, |line, motions| {
                slide_line(c, line, motions, turn)
            }),
            Movement::Step => slide_board(board, dir, |line, motions| step_line(c, line, motions)),
        };
        if c.points.is_some() {
            slide.gained = self
                .board_score(&slide.board)
                .saturating_sub(self.board_score(board));
        }
        slide
    }

    /// Whether any swipe changes the board on move `turn`; a game is over exactly when none
    /// does.
    pub fn can_move(&self, board: &Board, turn: u64) -> bool {
        self.moving_directions(board, turn).next().is_some()
    }

    /// The swipes that change `board` on move `turn`, in the order of [`Direction::ALL`].
    pub fn moving_directions<'a>(
        &'a self,
        board: &'a Board,
        turn: u64,
    ) -> impl Iterator<Item = Direction> + 'a {
        Direction::ALL
            .into_iter()
            .filter(move |&dir| self.slide_on(board, dir, turn).moved)
    }

    /// The score counted on the board (`"board"` scoring); 0 for `"merges"` scoring, whose score
    /// is accumulated from merges, not read off the board.
    pub fn board_score(&self, board: &Board) -> u64 {
        match &self.0.points {
            None => 0,
            Some(points) => board
                .cells_with_ranks()
                .map(|(_, rank)| points.get(usize::from(rank)).copied().unwrap_or(0))
                .fold(0, u64::saturating_add),
        }
    }

    /// Whether the score is read off the board.
    pub fn scores_board(&self) -> bool {
        self.0.points.is_some()
    }

    /// The board as a grid of right-aligned tiles (their labels, or values), `.` for an empty cell,
    /// one line per row.
    /// Columns are at least four characters wide, wider when a value needs it.
    pub fn grid(&self, board: &Board) -> String {
        let values = self.values(board);
        let text = |v: u64| self.0.variant.tile_text(v);
        let width = values
            .iter()
            .flatten()
            .map(|&v| text(v).len())
            .max()
            .unwrap_or(0)
            .max(4);
        let mut out = String::new();
        for row in &values {
            let cells: Vec<String> = row
                .iter()
                .map(|&v| format!("{:>width$}", text(v)))
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    /// The cells a spawn may take after `slide` (a slide of `dir` that moved): every empty cell
    /// (`"anywhere"`), or the far edge of each moved line (`"moved_edge"`).
    pub fn spawn_cells(&self, slide: &Slide, dir: Direction) -> Vec<Cell> {
        match self.0.variant.spawn_at {
            SpawnAt::Anywhere => slide.board.empty_cells().collect(),
            SpawnAt::MovedEdge => slide
                .moved_lines
                .iter()
                .map(|&line| dir.entry_cell(slide.board.side(), line))
                .collect(),
        }
    }

    /// The bonus ranks a board whose highest rank is `highest` may get, lowest first; empty when
    /// the variant has no bonus or the board's highest tile is too low.
    pub fn bonus_ranks(&self, highest: Rank) -> std::ops::RangeInclusive<Rank> {
        let Some(b) = self.0.bonus else {
            #[allow(clippy::reversed_empty_ranges)]
            return 1..=0;
        };
        let top = self.value(highest);
        if highest == 0 || top < b.top_at_least {
            #[allow(clippy::reversed_empty_ranges)]
            return 1..=0;
        }
        let ceiling = top / b.divided_by;
        let tiles = &self.0.variant.tiles;
        let first = tiles.iter().position(|&v| v >= b.lowest);
        let last = tiles.iter().rposition(|&v| v <= ceiling);
        match (first, last) {
            (Some(f), Some(l)) if f <= l => {
                let f = Rank::try_from(f + 1).unwrap_or(Rank::MAX);
                let l = Rank::try_from(l + 1).unwrap_or(Rank::MAX);
                f..=l
            }
            #[allow(clippy::reversed_empty_ranges)]
            _ => 1..=0,
        }
    }

    /// The bonus chance `[numerator, denominator]`, if the variant has a bonus.
    pub fn bonus_chance(&self) -> Option<[u32; 2]> {
        self.0.bonus.map(|b| b.chance)
    }

    /// The ranks and weights of weighted spawns, in ladder order (empty for a bag).
    pub fn spawn_weights(&self) -> &[(Rank, u32)] {
        &self.0.weights
    }

    /// The `draw` table (format 3) for `counters`: each tile numbered from the draw's `from` to
    /// its `to` with its weight `each`, read with `counters`; `None` without a draw. A range
    /// wider than [`crate::variant::MAX_DRAW_TILES`] or undefined draws nothing (an empty
    /// table). Made once for each state of the counters and kept.
    pub fn draw_table(&self, counters: &Counters) -> Option<Arc<DrawTable>> {
        let c = &*self.0;
        let d = c.variant.pipeline.draw.as_ref()?;
        if let Ok(made) = c.draws.lock()
            && let Some((_, t)) = made.iter().find(|(k, _)| k == counters)
        {
            return Some(t.clone());
        }
        let mut env = crate::condition::Env {
            counters: *counters,
            ..Default::default()
        };
        let mut weights: Vec<(Rank, u64)> = Vec::new();
        if let (Some(from), Some(to)) = (d.from.eval(&env), d.to.eval(&env))
            && to
                .checked_sub(from)
                .is_some_and(|n| (0..crate::variant::MAX_DRAW_TILES).contains(&n))
        {
            for n in from..=to {
                env.tiles[0] = n;
                let Some(rank) = c.variant.rank_of_number(n) else {
                    continue;
                };
                if let Some(w) = d.each.eval(&env).and_then(|w| u64::try_from(w).ok())
                    && w > 0
                {
                    weights.push((rank, w));
                }
            }
        }
        weights.sort_unstable();
        let sum: u64 = weights.iter().map(|&(_, w)| w).sum();
        let scale = sum / u64::from(u32::MAX) + 1;
        let weights: Vec<(Rank, u32)> = weights
            .into_iter()
            .filter_map(|(r, w)| {
                u32::try_from(w / scale)
                    .ok()
                    .filter(|&w| w > 0)
                    .map(|w| (r, w))
            })
            .collect();
        let total = weights
            .iter()
            .map(|&(_, w)| w)
            .fold(0u32, u32::saturating_add);
        let table = Arc::new(DrawTable { weights, total });
        if let Ok(mut made) = c.draws.lock() {
            if made.len() >= MAX_DRAW_TABLES {
                made.clear();
            }
            made.push((*counters, table.clone()));
        }
        Some(table)
    }

    /// The chances of each tile of the next spawn from weights and a `draw` with `counters`
    /// (empty for a bag), in rank order of the weights, then the draw's.
    pub fn spawn_chances_with(&self, counters: &Counters) -> Vec<(Rank, f64)> {
        let c = &*self.0;
        let table = self.draw_table(counters).filter(|t| t.total > 0);
        let share = match (&table, &c.variant.pipeline.draw) {
            (Some(_), Some(d)) => f64::from(d.weight),
            _ => 0.0,
        };
        let total = f64::from(c.total_weight) + share;
        if total <= 0.0 {
            return Vec::new();
        }
        let mut out: Vec<(Rank, f64)> = c
            .weights
            .iter()
            .map(|&(r, w)| (r, f64::from(w) / total))
            .collect();
        let base = out.len();
        if let Some(t) = table {
            for &(r, w) in &t.weights {
                let p = share / total * f64::from(w) / f64::from(t.total);
                match out[..base].iter_mut().find(|(x, _)| *x == r) {
                    Some(slot) => slot.1 += p,
                    None => out.push((r, p)),
                }
            }
        }
        out
    }

    /// A full bag, in ladder order (empty for weighted spawns).
    pub fn full_bag(&self) -> &[Rank] {
        &self.0.full_bag
    }

    /// Draws a tile for a board whose highest rank is `highest`: from the weights, or from the
    /// bag (refilled and shuffled when empty), or now and then a bonus tile. Returns the rank and
    /// whether it is a bonus tile.
    ///
    /// The draws are those of the first release: weights draw one number below the total weight
    /// (2048's `{2: 9, 4: 1}` is its "2 with probability 9 in 10"); a bag pops its last tile,
    /// refilling with the full bag in ladder order shuffled; a bonus is tried first, only when
    /// the highest tile is high enough (Threes' bonus card).
    ///
    /// A `draw` (format 3) adds its weight to the total: a number past the weights' total then
    /// draws a second number below the `draw` table's total, for `counters` ([`Rules::draw_table`]).
    pub(crate) fn draw(
        &self,
        bag: &mut Bag,
        highest: Rank,
        counters: &Counters,
        rng: &mut GameRng,
    ) -> (Rank, bool) {
        let c = &*self.0;
        if c.full_bag.is_empty() {
            let table = self.draw_table(counters);
            let share = match (&table, &c.variant.pipeline.draw) {
                (Some(t), Some(d)) if t.total > 0 => d.weight,
                _ => 0,
            };
            let mut x = rng.below(c.total_weight.saturating_add(share));
            for &(rank, w) in &c.weights {
                if x < w {
                    return (rank, false);
                }
                x -= w;
            }
            if let Some(t) = table.filter(|_| share > 0) {
                let mut y = rng.below(t.total);
                for &(rank, w) in &t.weights {
                    if y < w {
                        return (rank, false);
                    }
                    y -= w;
                }
            }
            return (c.weights.first().map_or(1, |&(r, _)| r), false);
        }
        if let Some(b) = c.bonus {
            let range = self.bonus_ranks(highest);
            if self.value(highest) >= b.top_at_least
                && highest > 0
                && rng.chance(b.chance[0], b.chance[1])
                && !range.is_empty()
            {
                let count = u32::from(range.end() - range.start() + 1);
                let offset = Rank::try_from(rng.below(count)).unwrap_or(0);
                return (range.start() + offset, true);
            }
        }
        loop {
            if let Some(tile) = bag.pop() {
                return (tile, false);
            }
            // Refilling puts the full bag in (not empty: checked above), so this runs twice at
            // most.
            bag.refill(&c.full_bag, rng);
        }
    }
}

/// The tiles of a bag not yet drawn: the bag as shuffled when it was filled, shared by every
/// state drawn from it, and how many of its tiles are left, the next one drawn last. A state is
/// one of the many a game keeps for undo or a search looks at: each holding a copy of a bag
/// of 100,000 tiles (the most a variant may have), memory grew by 200 kB a move.
#[derive(Clone, Default)]
pub(crate) struct Bag {
    tiles: Arc<[Rank]>,
    left: usize,
}

impl Bag {
    /// Draws the last tile left, if there is one.
    pub(crate) fn pop(&mut self) -> Option<Rank> {
        let last = self.left.checked_sub(1)?;
        let tile = *self.tiles.get(last)?;
        self.left = last;
        Some(tile)
    }

    /// The tiles left, in the order they will come, last first.
    pub(crate) fn left(&self) -> &[Rank] {
        self.tiles.get(..self.left).unwrap_or_default()
    }

    /// Fills it with `full` (the tiles in ladder order) shuffled by `rng`: a new bag, which the
    /// states before it do not see.
    fn refill(&mut self, full: &[Rank], rng: &mut GameRng) {
        let mut tiles = full.to_vec();
        rng.shuffle(&mut tiles);
        self.left = tiles.len();
        self.tiles = tiles.into();
    }
}

/// Two bags are equal when the same tiles are left in the same order, whoever shares them.
impl PartialEq for Bag {
    fn eq(&self, other: &Self) -> bool {
        self.left() == other.left()
    }
}

impl fmt::Debug for Bag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.left()).finish()
    }
}

/// A slide with 2-tile rules only: compact toward the wall, then walking outward merge each
/// pair the table allows, once. Returns the sum of the values made.
fn slide_pairs(c: &Compiled, line: &mut [Rank], motions: &mut Vec<LineMotion>) -> u64 {
    // `out` is the next free position; `open` is true while the tile at `out - 1` may still take
    // a merge (it is neither the result of one nor already past).
    let mut out: usize = 0;
    let mut open = false;
    let mut gained = 0u64;
    for from in 0..line.len() {
        let rank = line[from];
        if rank == 0 {
            continue;
        }
        line[from] = 0;
        if open {
            let to = out - 1;
            let made = c.pair[slot(c.shift, line[to], rank)];
            if made != 0 {
                line[to] = made;
                open = false;
                gained = gained.saturating_add(value_of(c, made));
                motions.push(LineMotion {
                    from,
                    to,
                    merged: true,
                });
                continue;
            }
        }
        line[out] = rank;
        if out != from {
            motions.push(LineMotion {
                from,
                to: out,
                merged: false,
            });
        }
        out += 1;
        open = true;
    }
    gained
}

/// What making a tile of `rank` scores: its value, or its points under `{"merges": [...]}`.
fn value_of(c: &Compiled, rank: Rank) -> u64 {
    c.variant.worth(rank)
}

/// The index of `longer` (indices into `merges`) by the rank of a rule's first tile, for ranks
/// 0 to `len`: each list in the rules' order. A rule whose tiles are all exact positions can
/// start only at its first tile (at any of its tiles when it takes them in any order); a rule
/// with relative or integer positions is listed under every rank.
fn longer_index(merges: &[MergeRule], longer: &[usize], len: Rank) -> Vec<Vec<usize>> {
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); usize::from(len) + 1];
    for &i in longer {
        let Some(rule) = merges.get(i) else { continue };
        let exact: Option<Vec<usize>> = rule
            .tiles
            .iter()
            .map(|p| match *p {
                Pos::Exact(e) => usize::try_from(e).ok(),
                _ => None,
            })
            .collect();
        match exact {
            Some(tiles) => {
                let firsts = if rule.any_order {
                    &tiles[..]
                } else {
                    &tiles[..1.min(tiles.len())]
                };
                for &r in firsts {
                    if let Some(list) = at.get_mut(r)
                        && list.last() != Some(&i)
                    {
                        list.push(i);
                    }
                }
            }
            None => at.iter_mut().for_each(|list| list.push(i)),
        }
    }
    at
}

/// A slide with rules of 3 to 5 tiles or rules that leave tiles: compact, then walk from the
/// wall; at each tile try the rules in order on the tiles that start there (the longer rules
/// that can start with that tile, [`longer_index`]); a match replaces
/// them with the tile it makes and any it leaves, and the walk goes on after them. Tiles that
/// destroy one another (a rule that makes nothing) leave a gap that closes: the tiles before
/// them that no merge has touched this move meet the tiles after them, so the walk goes back
/// to the first of those. A cell a merge leaves spent (format 2's `spent`) is the far cell of
/// no merge for the rest of the walk.
/// `turn` is the move's number, which a range of integers' rules may read (`t`).
fn slide_line(c: &Compiled, line: &mut [Rank], motions: &mut Vec<LineMotion>, turn: u64) -> u64 {
    let mut tiles = [(0, 0usize); 8];
    let mut m = 0;
    for (from, &rank) in line.iter().enumerate() {
        if rank != 0 && m < tiles.len() {
            tiles[m] = (rank, from);
            m += 1;
        }
    }
    line.fill(0);
    let n = usize::from(c.len);
    let integers = c.variant.tiles.is_numbered();
    let mut gained = 0u64;
    let mut out = 0;
    let mut j = 0;
    // The output from `open` on is tiles that took no merge (each one input tile), and
    // `marks[i]` is how many motions there were before output tile `i` was placed.
    let mut open = 0;
    let mut marks = [0usize; 8];
    // Bit i: output cell i is spent, so that a merge whose far tile would stand there is no
    // merge.
    let mut spent = 0u32;
    let free = |spent: u32, far: usize| spent & (1u32 << far.min(31)) == 0;
    while j < m {
        let (a, from_a) = tiles[j];
        let pair = (j + 1 < m && free(spent, out + 1)).then(|| {
            let k = slot(c.shift, a, tiles[j + 1].0);
            // A range of integers has no table: its rules are all among `longer`.
            (
                c.pair_rule.get(k).copied().unwrap_or(u32::MAX),
                c.pair.get(k).copied().unwrap_or(0),
            )
        });
        let pair_index = pair.map_or(usize::MAX, |(i, _)| {
            usize::try_from(i)
                .ok()
                .filter(|_| i != u32::MAX)
                .unwrap_or(usize::MAX)
        });
        let mut ranks: [Rank; 8] = [0; 8];
        for (r, &(rank, _)) in ranks.iter_mut().zip(&tiles[j..m]) {
            *r = rank;
        }
        let longer = if integers {
            integer_merge_at(c, &tiles[..m], j, turn, |first, last| {
                (out + first..=out + last).all(|cell| free(spent, cell))
            })
        } else {
            c.longer_at
                .get(usize::from(a))
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .take_while(|&&i| i < pair_index)
                .find_map(|&i| {
                    let rule = c.variant.merges.get(i)?;
                    let k = rule.tiles.len();
                    // A whole run: neither the tile before (as the move has left it) nor the one
                    // after is the run's.
                    let after = (j + k < m).then(|| tiles[j + k].0);
                    let whole = !rule.run || ((out == 0 || line[out - 1] != a) && after != Some(a));
                    (j + k <= m && whole && free(spent, out + k - 1))
                        .then(|| rule.outputs(&ranks[..k], n))
                        .flatten()
                        .map(|made| (made, k, &rule.spent[..]))
                })
        };
        let single = |rank: Rank| {
            let mut one: [Rank; MAX_RULE_TILES] = [0; MAX_RULE_TILES];
            one[0] = rank;
            (one, 1)
        };
        let mut score = None;
        let ((made, count), used) = match (longer, pair) {
            (Some((made, k, cells)), _) => {
                score = made.score();
                for &p in cells {
                    spent |= 1u32 << (out + usize::from(p)).min(31);
                }
                let mut ranks: [Rank; MAX_RULE_TILES] = [0; MAX_RULE_TILES];
                ranks[..made.ranks().len()].copy_from_slice(made.ranks());
                ((ranks, made.ranks().len()), k)
            }
            (None, Some((_, made))) if made != 0 => (single(made), 2),
            _ => (single(a), 1),
        };
        if used > 1 && count == 0 {
            // They destroy one another: the untouched tiles before them go back into the walk,
            // to meet the tiles after them (their motions are made again). The vanished tiles
            // slide to where the first of those stands, and merge into nothing there.
            let back = out - open;
            if back > 0 {
                motions.truncate(marks[open]);
            }
            for &(_, from) in &tiles[j..j + used] {
                motions.push(LineMotion {
                    from,
                    to: open,
                    merged: false,
                });
            }
            tiles.copy_within(j + used..m, j);
            m -= used;
            j -= back;
            line[open..out].fill(0);
            out = open;
            continue;
        }
        if let Some(mark) = marks.get_mut(out) {
            *mark = motions.len();
        }
        line[out..out + count].copy_from_slice(&made[..count]);
        if from_a != out {
            motions.push(LineMotion {
                from: from_a,
                to: out,
                merged: false,
            });
        }
        // The tiles taken go into the tile made, the last ones into the tiles left; tiles that
        // destroy one another meet where the first one went.
        for (i, &(_, from)) in tiles[j + 1..j + used].iter().enumerate() {
            motions.push(LineMotion {
                from,
                to: out + (i + 1).min(count.saturating_sub(1)),
                merged: true,
            });
        }
        if used > 1 {
            let points = score.unwrap_or_else(|| value_of(c, made[0]));
            gained = gained.saturating_add(points);
        }
        out += count;
        j += used;
        if used > 1 {
            open = out;
        }
    }
    gained
}

/// In a range of integers, the merge the walk makes at tile `j` of `tiles` (wall outward, as
/// the move found them): what it makes, how many tiles it takes and the cells it leaves spent.
/// The Compendium's walk takes the tiles from the wall one by one and at each tries the rules in
/// order on the tiles that end there (`z` being the tile after them, not yet moved); so of the
/// merges of the tiles from `j` on, the one that ends first (at the same end, by the rule
/// listed first) is made, and tile `j` takes part only when that merge starts at it (1429's 1,
/// 1 and -1: the 1 and the -1 destroy each other before the three would merge). A merge is
/// tried only where `free(first, last)` says that none of the cells its tiles stand in, from
/// `first` to `last` after tile `j`'s, is spent: a spent cell takes part in no merge (2058's
/// vanishing merges leave the nearer cell so, as the Compendium's engine marks it not mergeable).
fn integer_merge_at<'c>(
    c: &'c Compiled,
    tiles: &[(Rank, usize)],
    j: usize,
    turn: u64,
    free: impl Fn(usize, usize) -> bool,
) -> Option<(Made, usize, &'c [u8])> {
    for end in j + 1..tiles.len() {
        for rule in &c.variant.merges {
            let k = rule.tiles.len();
            let Some(start) = (end + 1).checked_sub(k).filter(|&s| s >= j) else {
                continue;
            };
            if !free(start - j, end - j) {
                continue;
            }
            let mut ranks: [Rank; MAX_RULE_TILES] = [0; MAX_RULE_TILES];
            for (r, &(rank, _)) in ranks.iter_mut().zip(&tiles[start..=end]) {
                *r = rank;
            }
            let after = tiles.get(end + 1).map_or(0, |t| t.0);
            if let Some(made) =
                rule.integer_outputs(&ranks[..k], &c.variant.tiles, after, turn, &c.counters)
            {
                return (start == j).then_some((made, k, &rule.spent[..]));
            }
        }
    }
    None
}

/// A step: walking from the wall, the first position that is empty with a tile behind it, or
/// whose tile merges with the next one, takes the next tile; every tile behind moves one cell;
/// the far cell empties. One merge at most.
fn step_line(c: &Compiled, line: &mut [Rank], motions: &mut Vec<LineMotion>) -> u64 {
    let n = line.len();
    let Some(i) = (0..n.saturating_sub(1)).find(|&i| {
        let here = line[i];
        if here == 0 {
            line[i + 1..].iter().any(|&r| r != 0)
        } else {
            c.pair[slot(c.shift, here, line[i + 1])] != 0
        }
    }) else {
        return 0;
    };
    let target = line[i];
    let made = if target == 0 {
        0
    } else {
        c.pair[slot(c.shift, target, line[i + 1])]
    };
    line[i] = if made != 0 { made } else { line[i + 1] };
    for from in i + 1..n {
        if line[from] != 0 {
            motions.push(LineMotion {
                from,
                to: from - 1,
                merged: from == i + 1 && target != 0,
            });
        }
        if from > i + 1 {
            line[from - 1] = line[from];
        }
    }
    line[n - 1] = 0;
    if made != 0 { value_of(c, made) } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin_variants;
    use crate::variant::{MergeRule, Pos};

    /// The reference, written from `docs/variants.md` apart from the engine: does `rule` match
    /// the ladder positions `ps` (wall outward), and what does it make and leave?
    fn reference_match(rule: &MergeRule, ps: &[usize], len: usize) -> Option<Vec<usize>> {
        let orders: Vec<Vec<usize>> = if rule.any_order {
            permutations(ps)
        } else {
            vec![ps.to_vec()]
        };
        'orders: for order in orders {
            let mut n: Option<i64> = None;
            for (pat, &p) in rule.tiles.iter().zip(&order) {
                match *pat {
                    Pos::Exact(e) => {
                        if e as usize != p {
                            continue 'orders;
                        }
                    }
                    Pos::Rel(k) => {
                        let this = p as i64 - i64::from(k);
                        if n.is_some_and(|n| n != this) {
                            continue 'orders;
                        }
                        n = Some(this);
                    }
                    // The ladder rules this reference checks name no tile letters.
                    Pos::Int(_) => continue 'orders,
                }
            }
            if let Some(n) = n
                && (n < 1
                    || rule.n_from.is_some_and(|f| n < i64::from(f))
                    || rule.n_to.is_some_and(|t| n > i64::from(t))
                    || rule
                        .n_every
                        .is_some_and(|[m, r]| n % i64::from(m) != i64::from(r)))
            {
                continue;
            }
            let at = |pos: &Pos| match *pos {
                Pos::Exact(e) => e as i64,
                Pos::Rel(k) => n.unwrap_or(-100) + i64::from(k),
                Pos::Int(_) => -100,
            };
            let out: Vec<i64> = rule.makes.iter().chain(&rule.leaves).map(at).collect();
            if out.iter().all(|&o| o >= 1 && o as usize <= len) {
                return Some(out.into_iter().map(|o| o as usize).collect());
            }
        }
        None
    }

    /// The reference for a rule of a range of integers, from `docs/variants.md`: do the tiles
    /// at positions `ps` (wall outward; in any order when the rule says so) meet its `when`,
    /// `z` being the tile `after` them (0 for none), and what does it make (nothing for tiles
    /// that destroy one another)? An order whose sum is off the range is no match.
    fn reference_integer_match(
        rule: &MergeRule,
        ps: &[usize],
        v: &Variant,
        after: usize,
    ) -> Option<(Vec<usize>, Option<u64>)> {
        let int = |p: usize| v.tiles.integer(p as u64);
        let rec = v.tiles.as_records();
        let fields = |p: usize| rec.and_then(|r| r.fields_of(p as u64)).unwrap_or_default();
        let z = if after == 0 { 0 } else { int(after)? };
        let orders = if rule.any_order {
            permutations(ps)
        } else {
            vec![ps.to_vec()]
        };
        for order in orders {
            let mut vals = [0i64; 6];
            vals[5] = z;
            for (slot, &p) in vals.iter_mut().zip(&order) {
                *slot = int(p)?;
            }
            // On move 0 (the built-ins that read `t` are checked on move 0), with the counters
            // at their start.
            let mut env = crate::condition::Env::of(vals);
            env.counters = v.pipeline.start();
            env.fields[5] = if after == 0 { [0; 4] } else { fields(after) };
            for (slot, &p) in env.fields.iter_mut().zip(&order) {
                *slot = fields(p);
            }
            if !rule.when.iter().all(|c| c.holds(&env)) {
                continue;
            }
            match &rule.makes {
                None => return Some((Vec::new(), None)),
                Some(Pos::Int(e)) => {
                    let (made, p) = match rec {
                        // A record: its rank, and the worth a score reads as `made`.
                        Some(r) => {
                            let p = e.eval_record(&env).and_then(|(f, n)| r.rank_of(&f[..n]));
                            (p.and_then(|p| r.worth_of(p)), p)
                        }
                        None => {
                            let made = e.eval(&env);
                            (made, made.and_then(|i| v.tiles.value_of_integer(i)))
                        }
                    };
                    if let Some(p) = p {
                        // The rule's score, of the tiles in the order that matched.
                        env.made = made.unwrap_or(0);
                        let score = rule.scores.as_ref().map(|s| {
                            s.eval(&env)
                                .and_then(|x| u64::try_from(x).ok())
                                .unwrap_or(0)
                        });
                        return Some((vec![p as usize], score));
                    }
                }
                Some(_) => return None,
            }
        }
        None
    }

    /// In a range of integers, the merge the walk makes at tile `i` of `tiles`, as the document
    /// says: of the merges of the tiles from `i` on, the one whose last tile comes first (at
    /// the same last tile, by the rule listed first; `z` the tile after them); none at `i` when
    /// that one starts after it.
    /// A merge whose tiles would stand in a spent cell (`spent(c)`, `c` counted from tile
    /// `i`'s) is none.
    fn integer_rule<'v>(
        v: &'v Variant,
        tiles: &[usize],
        i: usize,
        spent: &dyn Fn(usize) -> bool,
    ) -> Option<(Vec<usize>, usize, &'v MergeRule, Option<u64>)> {
        let found = (i..tiles.len()).flat_map(|s| {
            v.merges.iter().enumerate().filter_map(move |(ri, r)| {
                let end = s + r.tiles.len();
                if (s - i..end - i).any(spent) {
                    return None;
                }
                let after = tiles.get(end).copied().unwrap_or(0);
                let out = reference_integer_match(r, tiles.get(s..end)?, v, after)?;
                Some((end, ri, s, out, r))
            })
        });
        found
            .min_by_key(|&(end, ri, ..)| (end, ri))
            .filter(|&(_, _, s, ..)| s == i)
            .map(|(_, _, _, (out, score), r)| (out, r.tiles.len(), r, score))
    }

    fn permutations(v: &[usize]) -> Vec<Vec<usize>> {
        if v.len() <= 1 {
            return vec![v.to_vec()];
        }
        let mut all = Vec::new();
        for i in 0..v.len() {
            let mut rest = v.to_vec();
            let x = rest.remove(i);
            for mut p in permutations(&rest) {
                p.insert(0, x);
                all.push(p);
            }
        }
        all
    }

    /// The first rule matching the tiles at the start of `ps`, whose far tile would not stop
    /// in a spent cell (`spent(k)` for a rule of k tiles): what it makes and leaves, how many
    /// tiles it takes, and the rule.
    fn first_rule<'v>(
        v: &'v Variant,
        ps: &[usize],
        prev: Option<usize>,
        spent: &dyn Fn(usize) -> bool,
    ) -> Option<(Vec<usize>, usize, &'v MergeRule)> {
        v.merges.iter().find_map(|r| {
            let k = r.tiles.len();
            let whole = !r.run || (prev != ps.first().copied() && ps.get(k) != ps.first());
            (ps.len() >= k && whole && !spent(k))
                .then(|| reference_match(r, &ps[..k], v.tiles.len()))
                .flatten()
                .map(|out| (out, k, r))
        })
    }

    /// A line of positions (0 empty), wall outward, moved by the doc's rules; and the value of
    /// the tiles merges made.
    fn reference_line(v: &Variant, line: &[usize]) -> (Vec<usize>, u64) {
        let value = |p: usize| v.worth(p as Rank);
        let mut made = 0;
        match v.motion {
            Movement::Slide => {
                let mut tiles: Vec<usize> = line.iter().copied().filter(|&p| p != 0).collect();
                let mut out = Vec::new();
                // `out[open..]` took no merge.
                let mut open = 0;
                let mut i = 0;
                // The output cells merges left spent.
                let mut spent: Vec<usize> = Vec::new();
                while i < tiles.len() {
                    let far_spent = |k: usize| spent.contains(&(out.len() + k - 1));
                    let found = if v.tiles.is_numbered() {
                        integer_rule(v, &tiles, i, &|c| spent.contains(&(out.len() + c)))
                    } else {
                        first_rule(v, &tiles[i..], out.last().copied(), &far_spent)
                            .map(|(ps, k, r)| (ps, k, r, None))
                    };
                    match found {
                        // Tiles that destroy one another: the gap closes, and the untouched
                        // tiles before it walk again with the tiles after it.
                        Some((ps, k, r, _)) if ps.is_empty() => {
                            spent.extend(r.spent.iter().map(|&p| out.len() + usize::from(p)));
                            tiles.drain(i..i + k);
                            i -= out.len() - open;
                            out.truncate(open);
                        }
                        Some((ps, k, r, score)) => {
                            spent.extend(r.spent.iter().map(|&p| out.len() + usize::from(p)));
                            made += score.unwrap_or_else(|| value(ps[0]));
                            out.extend(ps);
                            i += k;
                            open = out.len();
                        }
                        None => {
                            out.push(tiles[i]);
                            i += 1;
                        }
                    }
                }
                out.resize(line.len(), 0);
                (out, made)
            }
            Movement::Step => {
                let mut out = line.to_vec();
                for i in 0..line.len() - 1 {
                    let behind = line[i + 1..].iter().any(|&p| p != 0);
                    let merged = if line[i] != 0 && line[i + 1] != 0 {
                        first_rule(v, &line[i..i + 2], None, &|_| false).map(|(ps, _, _)| ps[0])
                    } else {
                        None
                    };
                    if (line[i] == 0 && behind) || merged.is_some() {
                        out[i] = merged.unwrap_or(line[i + 1]);
                        if let Some(p) = merged {
                            made += value(p);
                        }
                        out[i + 1..line.len() - 1].copy_from_slice(&line[i + 2..]);
                        out[line.len() - 1] = 0;
                        break;
                    }
                }
                (out, made)
            }
        }
    }

    /// Every row over `alphabet` (positions, 0 empty), in all four directions, on each move
    /// of the rules' cycle that brings a set of rules no move before it had, for `v`. Past
    /// `most` rows in all, as many of them, spread over all and shared among those moves (512
    /// a move at least).
    fn check_every_row(v: &Variant, alphabet: &[usize], most: usize) {
        let rules = Rules::new(v).unwrap();
        let mut turns = std::collections::BTreeSet::from([0]);
        turns.extend(v.move_sets().unwrap().first.iter().map(|&(_, turn)| turn));
        let most = (most / turns.len()).max(512);
        for turn in turns {
            check_every_row_on(v, &rules, alphabet, turn, most);
        }
    }

    /// [`check_every_row`] on move `turn`, by `rules`, `v`'s compiled: the reference reads
    /// only the rules that hold on it.
    fn check_every_row_on(v: &Variant, rules: &Rules, alphabet: &[usize], turn: u64, most: usize) {
        // The variant of each direction on this move (the variant itself where no rule holds
        // on some moves or directions only).
        let on_move: Vec<Variant> = Direction::ALL
            .iter()
            .map(|&dir| {
                if v.has_move_rules() {
                    v.on_move(dir, turn)
                } else {
                    v.clone()
                }
            })
            .collect();
        let n = v.side;
        let rows = alphabet.len().pow(n as u32);
        // Every row, or, past `most`, as many spread over them all by a step prime to their
        // number (a prime above any number of rows), so that no row comes twice.
        const STEP: usize = 65_537;
        let codes = (0..rows.min(most)).map(|i| if rows <= most { i } else { i * STEP % rows });
        for code in codes {
            let mut c = code;
            let line: Vec<usize> = (0..n)
                .map(|_| {
                    let p = alphabet[c % alphabet.len()];
                    c /= alphabet.len();
                    p
                })
                .collect();
            // One reference for all four directions, unless their rules differ.
            let same = (!v.has_move_rules()).then(|| reference_line(v, &line));
            for dir in Direction::ALL {
                let (want, made) = same
                    .clone()
                    .unwrap_or_else(|| reference_line(&on_move[dir.index()], &line));
                let mut board = Board::empty(n).unwrap();
                for (pos, &p) in line.iter().enumerate() {
                    board.set(dir.cell(n, 0, pos), p as Rank);
                }
                let slide = rules.slide_on(&board, dir, turn);
                let got: Vec<usize> = (0..n)
                    .map(|pos| usize::from(slide.board.rank(dir.cell(n, 0, pos))))
                    .collect();
                assert_eq!(got, want, "{} {dir:?} {line:?}", v.id);
                assert_eq!(
                    slide.board.tile_count(),
                    want.iter().filter(|&&p| p != 0).count()
                );
                assert_eq!(slide.moved, want != line, "{} {dir:?} {line:?}", v.id);
                if rules.scores_board() {
                    let before = rules.board_score(&board);
                    assert_eq!(
                        slide.gained,
                        rules.board_score(&slide.board).saturating_sub(before)
                    );
                } else {
                    assert_eq!(slide.gained, made, "{} {dir:?} {line:?}", v.id);
                }
            }
        }
    }

    /// The pair table, filled rule by rule from the pairs each rule names, is the first 2-tile
    /// rule that matches each pair of ranks (of those that leave nothing and take any pair: the
    /// others are tried as the longer ones are), as every pair tried against every rule finds.
    #[test]
    fn the_pair_table_holds_the_first_rule_that_matches_each_pair() {
        for v in crate::builtin_variants() {
            let rules = Rules::new(&v).unwrap();
            let n = v.tiles.len();
            // A range of integers: its first tiles (and 1429's around 0).
            let ranks: Vec<Rank> = if v.tiles.as_records().is_some() {
                small_records(&v)
            } else if v.tiles.is_integers() {
                (-3..40)
                    .filter_map(|i| v.tiles.value_of_integer(i))
                    .map(|p| Rank::try_from(p).unwrap())
                    .collect()
            } else {
                (1..=Rank::try_from(n).unwrap()).collect()
            };
            for &a in &ranks {
                for &b in &ranks {
                    // A rule of a range or of records that leaves cells spent still makes
                    // what it makes of a pair.
                    let pairs = v.merges.iter().filter(|r| {
                        r.tiles.len() == 2
                            && r.leaves.is_empty()
                            && !r.run
                            && (r.spent.is_empty() || v.tiles.is_numbered())
                    });
                    let want = if v.tiles.is_numbered() {
                        pairs
                            .clone()
                            .find_map(|r| reference_integer_match(r, &[a.into(), b.into()], &v, 0))
                            .and_then(|(out, _)| out.first().map(|&p| p as Rank))
                    } else {
                        pairs.clone().find_map(|r| r.made(&[a, b], n))
                    };
                    assert_eq!(rules.pair_merge(a, b), want, "{}: {a}, {b}", v.id);
                }
            }
        }
    }

    /// Records' small tiles: the spawns, and what two of them make by the reference.
    fn small_records(v: &Variant) -> Vec<Rank> {
        let spawns: Vec<usize> = v
            .spawn
            .weights
            .iter()
            .flatten()
            .map(|(&r, _)| r as usize)
            .collect();
        let mut out = spawns.clone();
        for &a in &spawns {
            for &b in &spawns {
                let made = v
                    .merges
                    .iter()
                    .find_map(|r| reference_integer_match(r, &[a, b], v, 0))
                    .and_then(|(o, _)| o.first().copied());
                out.extend(made.filter(|m| !out.contains(m)));
            }
        }
        out.into_iter().map(|r| r as Rank).collect()
    }

    #[test]
    fn every_builtin_moves_rows_of_small_tiles_as_the_document_says() {
        // Some 75 variants, each up to 4,096 rows of its 8^4 to 4^8 in four directions against
        // the reference: the variants are shared out over the machine's cores.
        let variants = builtin_variants();
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        std::thread::scope(|scope| {
            for k in 0..cores {
                let variants = &variants;
                scope.spawn(move || {
                    for v in variants.iter().skip(k).step_by(cores) {
                        let top = v.tiles.len();
                        let alphabet: Vec<usize> = if v.tiles.as_records().is_some() {
                            // The spawns and what two of them make, and the last record.
                            std::iter::once(0)
                                .chain(small_records(v).into_iter().map(usize::from).take(6))
                                .chain([top])
                                .collect()
                        } else if v.tiles.is_integers() {
                            // Small numbers (and -1), which merge, and the range's last.
                            std::iter::once(0)
                                .chain(
                                    [-1, 1, 2, 3, 4, 6]
                                        .into_iter()
                                        .filter_map(|i| v.tiles.value_of_integer(i))
                                        .map(|p| p as usize),
                                )
                                .chain([top])
                                .collect()
                        } else if v.side <= 5 {
                            vec![0, 1, 2, 3, 4, 5, top - 1, top]
                        } else {
                            vec![0, 1, 2, top]
                        };
                        check_every_row(v, &alphabet, 4096);
                    }
                });
            }
        });
    }

    /// The index of the longer rules by first tile ([`longer_index`]) finds the rule the
    /// reference finds: for each built-in with twenty or more such rules (of three or more
    /// tiles, or that leave tiles, take runs, make nothing: 3375's 2,568, 3240's 189 …), rows
    /// of the tiles named by rules spread over its list, so that rows hold tiles that merge by
    /// them, in any order.
    #[test]
    fn the_longer_rules_found_by_first_tile_are_the_references() {
        let mut checked = 0;
        for v in builtin_variants() {
            let rules = Rules::new(&v).unwrap();
            // The modes with many such rules, where the index is what a move reads.
            if v.tiles.is_integers() || rules.0.longer.len() < 20 {
                continue;
            }
            let longer = &rules.0.longer;
            let mut alphabet = vec![0usize];
            for k in 0..4 {
                let rule = &v.merges[longer[k * (longer.len() - 1) / 3]];
                for p in &rule.tiles {
                    if let Pos::Exact(e) = *p
                        && !alphabet.contains(&(e as usize))
                        && alphabet.len() < 6
                    {
                        alphabet.push(e as usize);
                    }
                }
            }
            if alphabet.len() > 1 {
                check_every_row(&v, &alphabet, 512);
                checked += 1;
            }
        }
        assert!(
            checked >= 4,
            "{checked} variants with many longer rules of exact tiles"
        );
    }

    /// A range of integers whose move has no rule (none at all, or only rules for other moves
    /// or directions) slides its tiles to the wall and merges nothing.
    #[test]
    fn a_range_of_integers_with_no_rule_on_a_move_only_slides() {
        let base = crate::builtin_variant("1762").unwrap();
        let mut none = base.clone();
        none.merges.clear();
        let mut left_only = base.clone();
        left_only.merges[0].directions = vec![Direction::Left];
        let mut odd_moves = base.clone();
        odd_moves.merges[0].on_moves = Some([2, 1]);
        let row = |r: &Rules, dir: Direction, turn: u64| {
            let mut rows = vec![vec![0; 4]; 4];
            rows[0] = vec![3, 0, 4, 0];
            let s = r.slide_on(&r.board_from_values(&rows).unwrap(), dir, turn);
            (r.values(&s.board)[0].clone(), s.gained)
        };
        for v in [&none, &left_only, &odd_moves] {
            let r = Rules::new(v).unwrap();
            assert_eq!(row(&r, Direction::Right, 0), (vec![0, 0, 3, 4], 0));
        }
        let r = Rules::new(&left_only).unwrap();
        assert_eq!(row(&r, Direction::Left, 0), (vec![7, 0, 0, 0], 7));
        let r = Rules::new(&odd_moves).unwrap();
        assert_eq!(row(&r, Direction::Left, 0), (vec![3, 4, 0, 0], 0));
        assert_eq!(row(&r, Direction::Left, 1), (vec![7, 0, 0, 0], 7));
    }

    #[test]
    fn the_rules_examples_of_2048_and_threes() {
        let t48 = Rules::new(&crate::builtin_variant("2048").unwrap()).unwrap();
        let th = Rules::new(&crate::builtin_variant("threes").unwrap()).unwrap();
        let left = |r: &Rules, row: &[u64]| {
            let mut rows = vec![vec![0; 4]; 4];
            rows[0] = row.to_vec();
            let s = r.slide(&r.board_from_values(&rows).unwrap(), Direction::Left);
            (r.values(&s.board)[0].clone(), s.gained)
        };
        assert_eq!(left(&t48, &[2, 2, 2, 2]), (vec![4, 4, 0, 0], 8));
        assert_eq!(left(&t48, &[4, 4, 8, 0]), (vec![8, 8, 0, 0], 8));
        assert_eq!(left(&t48, &[2, 0, 2, 4]), (vec![4, 4, 0, 0], 4));
        assert_eq!(left(&t48, &[2, 2, 2, 0]), (vec![4, 2, 0, 0], 4));
        assert_eq!(left(&th, &[0, 0, 0, 3]).0, [0, 0, 3, 0]);
        assert_eq!(left(&th, &[3, 0, 0, 3]).0, [3, 0, 3, 0]);
        assert_eq!(left(&th, &[0, 3, 3, 0]).0, [3, 3, 0, 0]);
        assert_eq!(left(&th, &[3, 3, 3, 3]).0, [6, 3, 3, 0]);
        assert_eq!(left(&th, &[1, 2, 1, 2]).0, [3, 1, 2, 0]);
        assert_eq!(left(&th, &[12288, 12288, 0, 0]).0, [12288, 12288, 0, 0]);
    }

    /// Format 2's merges of four and five tiles: 6561's four equal powers of nine, and a rule
    /// of five tiles in any order, checked against the document's reference on every row.
    #[test]
    fn merges_of_four_and_five_tiles() {
        let v = crate::builtin_variant("6561").unwrap();
        let r = Rules::new(&v).unwrap();
        let left = |row: &[u64]| {
            let mut rows = vec![vec![0; 6]; 6];
            rows[0] = row.to_vec();
            let s = r.slide(&r.board_from_values(&rows).unwrap(), Direction::Left);
            (r.values(&s.board)[0].clone(), s.gained)
        };
        assert_eq!(left(&[1, 1, 1, 1, 1, 0]), (vec![4, 1, 0, 0, 0, 0], 4));
        assert_eq!(left(&[1, 1, 1, 0, 0, 0]).0, [1, 1, 1, 0, 0, 0]);
        assert_eq!(left(&[4, 1, 4, 9, 9, 9]), (vec![9, 9, 9, 9, 0, 0], 9));
        assert_eq!(left(&[9, 9, 9, 9, 36, 36]), (vec![36, 36, 36, 0, 0, 0], 36));
        let mut five = crate::builtin_variant("2048").unwrap();
        five.format = 2;
        five.id = "five".into();
        five.merges = vec![MergeRule {
            tiles: vec![
                Pos::Rel(0),
                Pos::Rel(1),
                Pos::Rel(2),
                Pos::Rel(3),
                Pos::Rel(4),
            ],
            makes: Some(Pos::Rel(5)),
            n_from: None,
            n_to: None,
            n_every: None,
            any_order: true,
            leaves: Vec::new(),
            spent: Vec::new(),
            when: Vec::new(),
            scores: None,
            run: false,
            on_moves: None,
            directions: Vec::new(),
        }];
        five.side = 6;
        let r = Rules::new(&five).unwrap();
        let ranks = |values: &[u64]| -> Vec<Rank> {
            values.iter().map(|&v| r.rank_of(v).unwrap()).collect()
        };
        let rule = &five.merges[0];
        assert_eq!(rule.made(&ranks(&[32, 2, 8, 16, 4]), 57), r.rank_of(64));
        assert_eq!(rule.made(&ranks(&[32, 2, 8, 16, 2]), 57), None);
        check_every_row(&five, &[0, 1, 2, 3, 4, 5], usize::MAX);
    }

    /// Format 2's merges that leave tiles: Partial Absorb 257's two equal tiles leave a 1, and
    /// 361's 4 and two neighbouring squares leave a square; what is left merges no more in that
    /// move, and the score is the tile made.
    #[test]
    fn merges_that_leave_tiles() {
        let left = |id: &str, row: &[u64]| {
            let r = Rules::new(&crate::builtin_variant(id).unwrap()).unwrap();
            let mut rows = vec![vec![0; 5]; 5];
            rows[0] = row.to_vec();
            let s = r.slide(&r.board_from_values(&rows).unwrap(), Direction::Left);
            (r.values(&s.board)[0].clone(), s.gained)
        };
        let pa257 = "partial-absorb-257";
        assert_eq!(left(pa257, &[1, 1, 0, 0, 0]), (vec![2, 0, 0, 0, 0], 2));
        assert_eq!(left(pa257, &[2, 2, 2, 2, 0]), (vec![3, 1, 3, 1, 0], 6));
        assert_eq!(left(pa257, &[5, 5, 1, 1, 0]), (vec![9, 1, 2, 0, 0], 11));
        assert_eq!(left(pa257, &[3, 3, 3, 0, 0]), (vec![5, 1, 3, 0, 0], 5));
        let pa361 = "partial-absorb-361";
        assert_eq!(left(pa361, &[16, 4, 9, 0, 0]), (vec![25, 4, 0, 0, 0], 25));
        assert_eq!(left(pa361, &[4, 9, 4, 0, 0]), (vec![16, 1, 0, 0, 0], 16));
        assert_eq!(left(pa361, &[1, 4, 4, 2, 2]), (vec![9, 4, 0, 0, 0], 13));
    }

    /// Format 2's labels: a labelled tile shows its label (in the grid, and as the variant
    /// reads it back) and a merge scores the points of the tile it makes, not its number.
    #[test]
    fn labelled_tiles_show_their_labels_and_score_their_points() {
        let ten = crate::builtin_variant("10").unwrap();
        let r = Rules::new(&ten).unwrap();
        let id = |label: &str| ten.value_of_text(label).unwrap();
        assert_eq!((id("1"), id("-1"), id("2"), id("-10")), (1, 2, 3, 20));
        assert_eq!(ten.tile_text(id("-3")), "-3");
        assert_eq!(ten.tile_text(0), ".");
        assert_eq!(ten.value_of_text("3"), Some(5));
        assert_eq!(ten.value_of_text("x"), None);
        assert_eq!(ten.win_words().as_deref(), Some("10 or -10"));
        // 2 + 2 + -1 = 3, scoring 3; -1 + -1 = -2, scoring 2.
        let (shown, gained, slide) = left_by_labels("10", &["2", "2", "-1", "-1", "-1"]);
        assert_eq!((shown.as_str(), gained), ("3 -2 . . .", 3 + 2));
        assert!(r.grid(&slide.board).starts_with("   3   -2    .    .    ."));
        // In 16+16i, 1 and i make 1+i, scoring its norm, 2; -1-i and 1-i (i times it) make
        // (1 + i)(-1 - i) = -2i, scoring 4.
        let (shown, gained, _) = left_by_labels("16-16i", &["i", "1", "1-i", "-1-i", "."]);
        assert_eq!((shown.as_str(), gained), ("1+i -2i . . .", 2 + 4));
    }

    /// The first row of a board of the built-in `id` holding the tiles labelled `row` (`.` for
    /// an empty cell), moved left: the labels it shows then, joined by spaces, the score it
    /// made, and the slide.
    fn left_by_labels(id: &str, row: &[&str]) -> (String, u64, Slide) {
        let v = crate::builtin_variant(id).unwrap();
        let r = Rules::new(&v).unwrap();
        let mut rows = vec![vec![0; v.side]; v.side];
        for (cell, label) in rows[0].iter_mut().zip(row) {
            *cell = v.value_of_text(label).unwrap();
        }
        let s = r.slide(&r.board_from_values(&rows).unwrap(), Direction::Left);
        let shown: Vec<String> = r.values(&s.board)[0]
            .iter()
            .map(|&x| v.tile_text(x))
            .collect();
        (shown.join(" "), s.gained, s)
    }

    /// Format 2's rules for some moves or directions: 2592's pairs merge on moves 0, 2, 4 …
    /// and its triples on moves 1, 3, 5 …; a rule for some directions merges on those alone.
    #[test]
    fn rules_for_some_moves_or_directions_hold_on_those_alone() {
        let v = crate::builtin_variant("2592").unwrap();
        let r = Rules::new(&v).unwrap();
        assert!(r.has_move_rules());
        let mut rows = vec![vec![0; 6]; 6];
        rows[0] = vec![1, 1, 1, 0, 0, 0];
        let board = r.board_from_values(&rows).unwrap();
        let first =
            |turn: u64| r.values(&r.slide_on(&board, Direction::Left, turn).board)[0][..3].to_vec();
        assert_eq!(first(0), [2, 1, 0]);
        assert_eq!(first(1), [3, 0, 0]);
        assert_eq!(first(2), [2, 1, 0]);
        assert_eq!(first(7), [3, 0, 0]);
        // `slide` is the first move's.
        assert_eq!(
            r.slide(&board, Direction::Left),
            r.slide_on(&board, Direction::Left, 4)
        );
        // 2048 whose pairs merge only when moving left or right.
        let mut sideways = crate::builtin_variant("2048").unwrap();
        sideways.format = 2;
        sideways.merges[0].directions = vec![Direction::Left, Direction::Right];
        let r = Rules::new(&sideways).unwrap();
        let mut rows = vec![vec![0; 4]; 4];
        rows[0] = vec![2, 2, 0, 0];
        rows[1] = vec![2, 0, 0, 0];
        let board = r.board_from_values(&rows).unwrap();
        assert_eq!(
            r.values(&r.slide(&board, Direction::Left).board)[0],
            [4, 0, 0, 0]
        );
        assert_eq!(
            r.values(&r.slide(&board, Direction::Up).board)[..2],
            [[2, 2, 0, 0], [2, 0, 0, 0]]
        );
        assert!(!r.slide(&board, Direction::Up).moved);
        assert_eq!(
            r.moving_directions(&board, 0).collect::<Vec<_>>(),
            [Direction::Left, Direction::Right, Direction::Down]
        );
    }

    /// Format 2's merges that make nothing: in 2049 a 1 and a -1 destroy each other, and the
    /// gap closes: the untouched tiles before them meet the tiles after them.
    #[test]
    fn tiles_that_destroy_one_another_close_the_gap() {
        let left = |row: [&str; 5]| {
            let (shown, gained, slide) = left_by_labels("2049", &row);
            (shown, gained, slide.motions.len())
        };
        // 1 and -1 go; 3 + 3 + -1 make 5, scoring 3 (two less than 5).
        assert_eq!(left(["3", "3", "1", "-1", "-1"]).0, "5 . . . .");
        assert_eq!(left(["3", "3", "1", "-1", "-1"]).1, 3);
        assert_eq!(left(["-1", "-1", "1", "3", "3"]).0, "5 . . . .");
        // Nothing but the pair: it scores nothing; the 1 and the 2 after close up.
        assert_eq!(left(["1", "-1", "2", "1", "."]), ("2 1 . . .".into(), 0, 4));
        // A merge before them stays made: 1 + 1 = 2, then -1 and 1 go; the 3 closes up.
        assert_eq!(left(["1", "1", "-1", "1", "3"]).0, "2 3 . . .");
    }

    /// Format 2's whole runs: in 900, exactly two, three or five equal tiles merge, and a run
    /// of four or six not at all; in 1728 (no runs), the most equal tiles merge first.
    #[test]
    fn rules_of_whole_runs() {
        let left = |id: &str, row: &[u64]| {
            let r = Rules::new(&crate::builtin_variant(id).unwrap()).unwrap();
            let side = r.variant().side;
            let mut rows = vec![vec![0; side]; side];
            rows[0][..row.len()].copy_from_slice(row);
            let s = r.slide(&r.board_from_values(&rows).unwrap(), Direction::Left);
            let mut got = r.values(&s.board)[0].clone();
            got.truncate(row.len());
            (got, s.gained)
        };
        assert_eq!(left("900", &[1, 1]), (vec![2, 0], 2));
        assert_eq!(left("900", &[1, 1, 1]), (vec![3, 0, 0], 3));
        assert_eq!(left("900", &[1, 1, 1, 1]), (vec![1, 1, 1, 1], 0));
        assert_eq!(left("900", &[1, 1, 1, 1, 1]), (vec![5, 0, 0, 0, 0], 5));
        assert_eq!(left("900", &[1, 1, 1, 1, 1, 1]), (vec![1; 6], 0));
        // The 2 made is before the next two 2s: they are no whole run.
        assert_eq!(left("900", &[2, 1, 1, 2, 2]), (vec![2, 2, 2, 2, 0], 2));
        assert_eq!(left("1728", &[1, 1, 1, 1, 1]), (vec![4, 1, 0, 0, 0], 4));
        assert_eq!(left("1728", &[3, 3, 3]), (vec![6, 3, 0], 6));
    }

    /// Format 2's spent cells: after 2378's merge of three (two 2s and a 1 make 5), the cell
    /// of the third tile is spent, so the tile that stops there starts no merge that move.
    #[test]
    fn a_spent_cell_starts_no_merge() {
        let left = |rules: &Rules, row: &[u64]| {
            let side = rules.variant().side;
            let mut rows = vec![vec![0; side]; side];
            rows[0][..row.len()].copy_from_slice(row);
            let s = rules.slide(&rules.board_from_values(&rows).unwrap(), Direction::Left);
            (rules.values(&s.board)[0][..row.len()].to_vec(), s.gained)
        };
        let pell = Rules::new(&crate::builtin_variant("2378").unwrap()).unwrap();
        // The two 1s after the merge: the second stops in the spent cell.
        assert_eq!(left(&pell, &[2, 2, 1, 1, 1]), (vec![5, 1, 1, 0, 0], 5));
        // With no merge of three before them, they merge.
        assert_eq!(left(&pell, &[5, 1, 1, 1, 1]), (vec![5, 2, 2, 0, 0], 4));
        // A merge whose far tile stops past the spent cell is made: here 2 + 2 + 1 = 5 is made
        // over it (a 2 in the cell after the made 5, a 2 in the spent cell, the 1 after).
        let mut v = crate::builtin_variant("2048").unwrap();
        v.format = 2;
        v.side = 6;
        v.merges = serde_json::from_str(
            r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [2]},
                {"tiles": ["n", "n"], "makes": "n+1"}]"#,
        )
        .unwrap();
        let spent = Rules::new(&v).unwrap();
        // Three 2s make 8; the 4s stop after it, the second in the spent cell.
        assert_eq!(left(&spent, &[2, 2, 2, 4, 4]), (vec![8, 4, 4, 0, 0], 8));
        // Three 4s there: the merge of three ends past the spent cell, so it is made.
        assert_eq!(
            left(&spent, &[2, 2, 2, 4, 4, 4]),
            (vec![8, 16, 0, 0, 0, 0], 24)
        );
        // A merge of two whose far tile is past it too.
        assert_eq!(
            left(&spent, &[2, 2, 2, 8, 4, 4]),
            (vec![8, 8, 8, 0, 0, 0], 16)
        );
    }

    /// A cycle of 4,096 moves, whose moves share 13 sets of rules: on move k, 2295's tiles
    /// merge with 2^j times themselves, 2^j the largest power of two dividing k + 1, for j up
    /// to 11; on move 4,095 (and every 4,096th after it) no rule holds.
    #[test]
    fn a_long_cycle_of_rules_is_compiled_once_for_each_set_of_rules() {
        let v = crate::builtin_variant("2295").unwrap();
        assert_eq!(v.move_cycle(), 4096);
        let r = Rules::new(&v).unwrap();
        assert_eq!(r.0.phase.len(), 4 * 4096);
        assert_eq!(r.0.by_move.len(), 13);
        let row = |a: u64, b: u64| {
            let mut rows = vec![vec![0; 4]; 4];
            rows[0] = vec![a, b, 0, 0];
            r.board_from_values(&rows).unwrap()
        };
        let first = |board: &Board, turn: u64| {
            r.values(&r.slide_on(board, Direction::Left, turn).board)[0][..2].to_vec()
        };
        for (j, turn) in [
            (0u32, 0u64),
            (1, 1),
            (2, 3),
            (3, 7),
            (3, 23),
            (10, 1023),
            (11, 2047),
        ] {
            let b = 1u64 << j;
            assert_eq!(
                first(&row(1, b), turn),
                [1 + b, 0],
                "1 and {b} on move {turn}"
            );
            assert_eq!(
                first(&row(b, 1), turn),
                [1 + b, 0],
                "{b} and 1 on move {turn}"
            );
            // The move before and the move after hold other rules.
            for other in [turn + 1, turn + 4096 - 1] {
                if j > 0 {
                    assert_eq!(first(&row(1, b), other % 4096), [1, b], "move {other}");
                }
            }
        }
        // Move 4095 would take 4,096 times a tile, off the ladder: nothing merges.
        let top = *v.tiles.last().unwrap();
        assert_eq!(first(&row(1, 1), 4095), [1, 1]);
        assert_eq!(first(&row(1, 2), 4095 + 4096), [1, 2]);
        assert!(top < 4096);
    }

    /// The rules compiled for a variant are kept for the next ask on the thread, and never
    /// given for another variant.
    #[test]
    fn cached_rules_are_shared_for_one_variant_only() {
        let dm = crate::builtin_variant("directional-merges").unwrap();
        let first = Rules::cached(&dm).unwrap();
        assert!(Arc::ptr_eq(&first.0, &Rules::cached(&dm).unwrap().0));
        let mut other = dm.clone();
        other.side = 5;
        let second = Rules::cached(&other).unwrap();
        assert!(!Arc::ptr_eq(&first.0, &second.0));
        assert_eq!(second.variant().side, 5);
        // Asking for more variants than are kept compiles the first again, alike.
        for side in 2..=8 {
            let v = Variant {
                side,
                ..crate::builtin_variant("2048").unwrap()
            };
            assert_eq!(Rules::cached(&v).unwrap().variant(), &v);
        }
        let again = Rules::cached(&dm).unwrap();
        assert!(!Arc::ptr_eq(&first.0, &again.0));
        assert_eq!(again.variant(), &dm);
        assert!(Rules::cached(&Variant { side: 1, ..dm }).is_err());
    }

    #[test]
    fn merges_with_reads_the_table() {
        let th = Rules::new(&crate::builtin_variant("threes").unwrap()).unwrap();
        assert!(th.merges_with(1, 2) && th.merges_with(2, 1) && th.merges_with(3, 3));
        assert!(!th.merges_with(1, 1) && !th.merges_with(2, 2) && !th.merges_with(15, 15));
        let fib = Rules::new(&crate::builtin_variant("2584").unwrap()).unwrap();
        assert!(fib.merges_with(1, 1) && fib.merges_with(4, 3) && !fib.merges_with(2, 2));
    }

    /// The first release's bag, a `Vec` each state copied: pop the last tile, or refill with
    /// the full bag in ladder order and shuffle.
    fn first_release_draw(full: &[Rank], bag: &mut Vec<Rank>, rng: &mut GameRng) -> Rank {
        loop {
            if let Some(tile) = bag.pop() {
                return tile;
            }
            bag.extend_from_slice(full);
            rng.shuffle(bag);
        }
    }

    proptest::proptest! {
        /// The shared bag draws exactly the first release's tiles, over many refills, and a
        /// copy taken at any draw goes on with the same tiles as the bag it was copied from,
        /// whatever either draws after the copy (a state kept for undo and the state played on
        /// from it).
        #[test]
        fn a_shared_bag_draws_the_first_releases_tiles(
            counts in proptest::collection::vec(1u32..6, 1..5),
            seed in 0u64..1_000,
            copy_at in 0usize..40,
        ) {
            let full: Vec<Rank> = counts
                .iter()
                .zip(1..)
                .flat_map(|(&n, rank)| std::iter::repeat_n(rank, n as usize))
                .collect();
            let (mut rng, mut old_rng) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
            let (mut bag, mut old) = (Bag::default(), Vec::new());
            let draw = |bag: &mut Bag, rng: &mut GameRng| loop {
                if let Some(tile) = bag.pop() {
                    return tile;
                }
                bag.refill(&full, rng);
            };
            let mut copy = None;
            for i in 0..80 {
                if i == copy_at {
                    copy = Some((bag.clone(), rng.clone(), old.clone(), old_rng.clone()));
                }
                proptest::prop_assert_eq!(bag.left(), old.as_slice());
                let tile = draw(&mut bag, &mut rng);
                proptest::prop_assert_eq!(tile, first_release_draw(&full, &mut old, &mut old_rng));
            }
            let (mut bag, mut rng, mut old, mut old_rng) = copy.unwrap();
            for _ in 0..80 {
                let tile = draw(&mut bag, &mut rng);
                proptest::prop_assert_eq!(tile, first_release_draw(&full, &mut old, &mut old_rng));
            }
        }
    }
}
