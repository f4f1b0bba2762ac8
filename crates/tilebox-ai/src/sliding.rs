//! The AI for the data-driven sliding engine: any [`Variant`], any [`SlidingState`].
//!
//! [`SlidingPlayer`] answers with the bitboard players where they apply — a 4×4 board whose
//! rules play exactly as 2048's or Threes' ([`Bitboard::of`]; the winning tile, the start and
//! the score do not matter to the play) and tiles that fit four bits — and with the
//! [`GenericEngine`] everywhere else: other sides, other ladders, triple merges, a player's own
//! variant file. [`VariantModel`] is the engine's rules seen as a [`SlidingModel`]. Where rules
//! hold on some moves or directions only (2592, 2295, Directional Merges), every move of the
//! search is played by the rules of that move toward its direction ([`SlidingModel::phase`]).

use std::any::Any;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use tilebox_sliding::variant::Counters;
use tilebox_sliding::variant::SpawnAt as VariantSpawnAt;
use tilebox_sliding::{
    Board, Direction, NextCard, Rank, Rules, SlidingState, Variant, builtin_variant, move_order,
};

use crate::generic::{CountedMove, GenericEngine, Grid, SlidingModel, SpawnAt, grid_rank};
use crate::threes::Deck;
use crate::{Advice, Engine, Limits, bitboard};

/// Which bitboard player plays a variant exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bitboard {
    /// 4×4 2048: the ladder, merges, spawns and motion of the original.
    Twenty48,
    /// 4×4 Threes: its cards, merges, bag with bonus, moved-edge entry and preview.
    Threes,
}

impl Bitboard {
    /// The bitboard player for `variant`, if one plays it exactly: a 4×4 board whose ladder,
    /// merges, motion, spawns, spawn cells and preview are those of the built-in `2048` or
    /// `threes` (its id, names, start, win and score do not matter to the play).
    pub fn of(variant: &Variant) -> Option<Bitboard> {
        static BASES: OnceLock<Vec<(Bitboard, Variant)>> = OnceLock::new();
        let bases = BASES.get_or_init(|| {
            [(Bitboard::Twenty48, "2048"), (Bitboard::Threes, "threes")]
                .into_iter()
                .filter_map(|(kind, id)| Some((kind, builtin_variant(id)?)))
                .collect()
        });
        bases
            .iter()
            .find(|(_, base)| {
                variant.side == 4
                    && base.side == 4
                    && variant.plays_like(base)
                    && variant.pipeline.is_empty()
            })
            .map(|&(kind, _)| kind)
    }
}

/// A variant's rules as the generic player needs them, with the next tile's distribution as
/// one state knows it.
#[derive(Debug, Clone)]
pub struct VariantModel {
    rules: Rules,
    side: usize,
    next: Vec<(u8, f64)>,
    later: Vec<(u8, f64)>,
    /// Which ranks merge in a run of two to five equal tiles by the rules the pair table does not
    /// hold (bit per rank).
    triple: [u64; 4],
    key: u64,
    /// Where rules hold on some moves or directions only: the rules of each move of a search.
    moves: Option<Arc<MoveModels>>,
    /// The move number this model slides by, where the rules read it (`t`, format 3); 0
    /// elsewhere.
    turn: u64,
    /// For a range of integers (thousands of tiles, more than a byte can name): the engine
    /// ranks this model numbers 1, 2 … in order, the tiles a search from the state can meet
    /// ([`VariantModel::alphabet`]). `None` for a ladder, whose ranks are this player's.
    alphabet: Option<Arc<[Rank]>>,
    /// The turn pipeline as the search reads it, where the variant has one.
    after: Option<Arc<AfterSlide>>,
    /// Where the variant has counters: what the search needs to carry them from node to node
    /// ([`SlidingModel::counters`]).
    counting: Option<Arc<Counting>>,
}

/// The searched state's rules, counters and move number, from which a search plays every move
/// with its own node's counters, as the engine does ([`SlidingModel::slide_counted`]).
#[derive(Debug)]
struct Counting {
    /// The state's rules (at its counters; [`Rules::at`] gives those of others).
    rules: Rules,
    counters: Counters,
    turn: u64,
    /// The pipeline's tests, one-tile rules and `made` as tables, one set for each set of
    /// counters met, where they read no `t` (a turn after the slide is then table reads,
    /// [`SlidingModel::after_counted`], [`SlidingModel::made_with`]); `None` where they do
    /// (the engine's own pipeline then).
    tables: Option<Mutex<HashMap<Counters, Arc<CounterTables>>>>,
}

/// The turn pipeline's tests and one-tile rules read with one set of counters, in a model's
/// numbers.
#[derive(Debug)]
struct CounterTables {
    /// Whether each event's test holds of each tile (a test of the counters alone: of every
    /// tile alike), as [`Rules::event_holds_of_tile`] says.
    events: Vec<[bool; 256]>,
    /// The ticks and `lose` with these counters as the turn's.
    after: Arc<AfterSlide>,
    /// The counters after a merge made each tile ([`Rules::made_tile`]; these counters where
    /// the variant has no `made`).
    made: Box<[Counters; 256]>,
}

impl Counting {
    /// The most sets of counters whose tables are kept at once.
    const MOST_TABLES: usize = 256;

    /// The counting of `state`, whose rules have counters.
    fn of_state(state: &SlidingState) -> Self {
        let rules = state.rules();
        let p = &rules.variant().pipeline;
        let reads_turn = p
            .events
            .iter()
            .map(|e| &e.test)
            .chain(&p.lose)
            .any(|t| t.cond.expr().reads_turn())
            || p.made.iter().any(|(_, e)| e.reads_turn());
        Counting {
            rules: rules.clone(),
            counters: state.counters(),
            turn: state.turn(),
            tables: (!reads_turn).then(Mutex::default),
        }
    }
}

/// A turn pipeline's one-tile rules and `lose`, read with the counters of one state (a variant
/// without counters reads them alike on every move; one with counters is searched by the
/// engine's own pipeline, node by node: [`Counting`]), in this model's numbers.
#[derive(Debug)]
struct AfterSlide {
    /// What each tile becomes (0: it vanishes).
    tick: [u8; 256],
    /// Whether a tile loses the game.
    loses: [bool; 256],
    /// Whether the game is lost whatever the board (a `lose` on the counters alone).
    always: bool,
    /// The counters, as a key.
    key: u64,
}

/// The rules of each move of a search from one state, where they change from move to move or by
/// direction.
#[derive(Debug)]
struct MoveModels {
    /// A model of each set of rules the moves play by, in the order first met (move by move,
    /// each in [`Direction::ALL`] order); each moves every line alike.
    models: Vec<VariantModel>,
    /// `phase[ahead][d]`: the model of the move `ahead` moves after the state's, toward `d`,
    /// for every move a search reaches.
    phase: Vec<[u8; 4]>,
}

impl VariantModel {
    /// The model of `state`: its rules, and the next tile as the state knows it (the preview,
    /// a bag's remaining tiles, the weights); the tiles after it from the full bag or the
    /// weights, the bonus's share as at the state's highest tile.
    /// Where rules hold on some moves or directions only, every move of a search plays by the
    /// rules of its own number and direction ([`SlidingModel::phase`]), counted on from the
    /// state's.
    pub fn of_state(state: &SlidingState) -> Self {
        let rules = state.rules();
        let alphabet = Self::alphabet(rules, Some(state));
        // A `draw` (format 3) may spread its share over thousands of tiles: the search reads
        // the likeliest few, with the state's counters, for this move and every later one.
        let drawn = rules.variant().pipeline.draw.is_some();
        let next = if drawn {
            likeliest(state.spawn_chances(), Self::MOST_DRAWN)
        } else {
            state.spawn_chances()
        };
        let model_of = |rules: &Rules, turn: u64| {
            let model =
                Self::with_alphabet(rules, state.board().max_rank(), alphabet.clone(), turn);
            let after = model.after_slide_of(&state.counters(), turn);
            // A hook's pool (DIVE's seeds) is what spawns, now and (frozen at the searched
            // state, as a bag's remaining tiles are) deeper down.
            let later = if drawn || rules.variant().hook.is_some() {
                model.tiles(next.clone())
            } else {
                model.later.clone()
            };
            Self {
                next: model.tiles(next.clone()),
                later,
                after,
                ..model
            }
        };
        let counting = (!rules.variant().pipeline.counters.is_empty())
            .then(|| Arc::new(Counting::of_state(state)));
        let reads_turn = rules.variant().reads_turn();
        if !rules.has_move_rules() && !reads_turn {
            return Self {
                counting,
                ..model_of(rules, 0)
            };
        }
        // Every move a search reaches: a move and the game's answer are two plies. Moves share
        // a model when they play by the same rules and their rules read the same of `t`.
        let mut sets: Vec<(&Rules, Vec<Option<i64>>, u64)> = Vec::new();
        let mut phase = Vec::new();
        for ahead in 0..=u64::from(crate::MAX_DEPTH) {
            let turn = state.turn().saturating_add(ahead);
            let parts = rules.variant().turn_parts(turn);
            let mut row = [0u8; 4];
            for (slot, dir) in row.iter_mut().zip(Direction::ALL) {
                let own = rules.on_move(dir, turn);
                let i = match sets
                    .iter()
                    .position(|(r, p, _)| std::ptr::eq(*r, own) && *p == parts)
                {
                    Some(i) => i,
                    None => {
                        sets.push((own, parts.clone(), turn));
                        sets.len() - 1
                    }
                };
                *slot = u8::try_from(i).unwrap_or(u8::MAX);
            }
            phase.push(row);
        }
        let models: Vec<VariantModel> = sets
            .into_iter()
            .map(|(rules, _, turn)| model_of(rules, turn))
            .collect();
        let mut model = models
            .first()
            .cloned()
            .unwrap_or_else(|| model_of(rules, 0));
        model.moves = Some(Arc::new(MoveModels { models, phase }));
        model.counting = counting;
        model
    }

    /// The most tiles of a `draw`'s spawn the search reads ([`likeliest`]).
    const MOST_DRAWN: usize = 16;

    /// A tile distribution of the engine's, in this player's ranks.
    fn tiles(&self, chances: Vec<(Rank, f64)>) -> Vec<(u8, f64)> {
        chances
            .into_iter()
            .map(|(r, p)| (self.code(r), p))
            .collect()
    }

    /// The most tiles of a range of integers a model names: a byte's.
    const ALPHABET: usize = crate::generic::MAX_RANK as usize;

    /// For a range of integers, the tiles a search from `state` can meet, in order: those on
    /// its board, those its four moves make (so that the first move of a search is the
    /// engine's, whatever its rules), those that spawn, and then what the rules of two or
    /// three tiles make of them, twice over, as many as a byte can number. A search that makes
    /// a tile beyond them (deep down) takes it for the nearest below. `None` for a ladder.
    fn alphabet(rules: &Rules, state: Option<&SlidingState>) -> Option<Arc<[Rank]>> {
        if !rules.variant().tiles.is_numbered() {
            return None;
        }
        let mut known = std::collections::BTreeSet::new();
        let turn = state.map_or(0, SlidingState::turn);
        if let Some(state) = state {
            let board = state.board();
            known.extend(board.cells_with_ranks().map(|(_, r)| r));
            for dir in Direction::ALL {
                let slide = rules.slide_on(board, dir, state.turn());
                known.extend(slide.board.cells_with_ranks().map(|(_, r)| r));
            }
            // A hook's pool (DIVE's seeds): the tiles that spawn.
            if rules.variant().hook.is_some() {
                known.extend(state.spawn_chances().into_iter().map(|(r, _)| r));
            }
        }
        known.extend(rules.spawn_weights().iter().map(|&(r, _)| r));
        if let Some(state) = state.filter(|_| rules.variant().pipeline.draw.is_some()) {
            let drawn = likeliest(state.spawn_chances(), Self::MOST_DRAWN);
            known.extend(drawn.iter().map(|&(r, _)| r));
        }
        known.extend(rules.full_bag().iter().copied());
        known.remove(&0);
        let longest = rules
            .variant()
            .merges
            .iter()
            .map(|r| r.tiles.len())
            .max()
            .unwrap_or(2);
        for _ in 0..2 {
            let have: Vec<Rank> = known.iter().copied().collect();
            let mut made = Vec::new();
            for &a in &have {
                for &b in &have {
                    made.extend(rules.integer_merge(&[a, b], turn));
                    if longest >= 3 && have.len() <= 40 {
                        for &c in &have {
                            made.extend(rules.integer_merge(&[a, b, c], turn));
                        }
                    }
                }
            }
            for r in made {
                if known.len() >= Self::ALPHABET {
                    break;
                }
                known.insert(r);
            }
        }
        Some(known.into_iter().take(Self::ALPHABET).collect())
    }

    /// This model's number of an engine rank: itself on a ladder; in a range of integers its
    /// place in the alphabet, or the nearest below it there.
    fn code(&self, rank: Rank) -> u8 {
        match &self.alphabet {
            None => grid_rank(rank),
            Some(_) if rank == 0 => 0,
            Some(a) => {
                let i = match a.binary_search(&rank) {
                    Ok(i) => i + 1,
                    Err(i) => i.max(1),
                };
                u8::try_from(i).unwrap_or(u8::MAX)
            }
        }
    }

    /// The engine rank of this model's number `code`.
    fn rank(&self, code: u8) -> Rank {
        match &self.alphabet {
            None => Rank::from(code),
            Some(_) if code == 0 => 0,
            Some(a) => a
                .get(usize::from(code) - 1)
                .or(a.last())
                .copied()
                .unwrap_or(0),
        }
    }

    /// The model of `rules` before any state is known: every tile drawn from the full bag or
    /// the weights, on a board whose highest rank is `highest` (for the bonus). A model moves
    /// every line alike: where rules hold on some moves or directions only, give it the rules
    /// of one move ([`Rules::on_move`]; [`VariantModel::of_state`] gives each move its own);
    /// the whole rules play as the first move toward the left.
    pub fn new(rules: &Rules, highest: Rank) -> Self {
        let model = Self::with_alphabet(rules, highest, Self::alphabet(rules, None), 0);
        let after = model.after_slide_of(&rules.start_counters(), 0);
        Self { after, ..model }
    }

    /// The turn pipeline of this model's rules read with `counters` on move `turn`; `None`
    /// where the variant has none.
    fn after_slide_of(&self, counters: &Counters, turn: u64) -> Option<Arc<AfterSlide>> {
        if !self.rules.has_pipeline() {
            return None;
        }
        let row = self.rules.tick_row(counters);
        let mut tick = [0u8; 256];
        let mut loses = [false; 256];
        for code in 1..=u8::MAX {
            let rank = self.rank(code);
            let slot = usize::from(code);
            tick[slot] = match row {
                Some(row) => match row.get(usize::from(rank)).copied() {
                    Some(0) => 0,
                    Some(to) => self.code(to),
                    None => code,
                },
                None => code,
            };
            loses[slot] = self.rules.loses_with(rank, counters, turn);
        }
        let mut hasher = DefaultHasher::new();
        counters.hash(&mut hasher);
        Some(Arc::new(AfterSlide {
            tick,
            loses,
            always: self.rules.loses_with(0, counters, turn),
            key: hasher.finish(),
        }))
    }

    /// [`VariantModel::new`] numbering a range of integers by `alphabet`, sliding as move
    /// `turn` does.
    fn with_alphabet(
        rules: &Rules,
        highest: Rank,
        alphabet: Option<Arc<[Rank]>>,
        turn: u64,
    ) -> Self {
        let variant = rules.variant();
        let mut later: Vec<(Rank, f64)> = rules
            .spawn_weights()
            .iter()
            .map(|&(r, w)| (r, f64::from(w)))
            .collect();
        if later.is_empty() {
            let bag = rules.full_bag();
            let bonus = rules.bonus_ranks(highest);
            let share = match rules.bonus_chance() {
                Some([num, den]) if !bonus.is_empty() && den > 0 => f64::from(num) / f64::from(den),
                _ => 0.0,
            };
            for &rank in bag {
                match later.last_mut() {
                    Some((r, n)) if *r == rank => *n += 1.0,
                    _ => later.push((rank, 1.0)),
                }
            }
            let total: f64 = later.iter().map(|t| t.1).sum::<f64>().max(1.0);
            for t in &mut later {
                t.1 *= (1.0 - share) / total;
            }
            let n = bonus.clone().count().max(1) as f64;
            later.extend(bonus.map(|r| (r, share / n)));
        }
        let mut hasher = DefaultHasher::new();
        (
            &variant.tiles,
            &variant.merges,
            variant.motion,
            variant.side,
            &variant.score,
            &alphabet,
            variant.turn_parts(turn),
            // Merge rules that read counters slide by the state's ([`Rules::at`]).
            rules.merge_counters(),
        )
            .hash(&mut hasher);
        let mut model = Self {
            rules: rules.clone(),
            side: variant.side,
            next: Vec::new(),
            later: Vec::new(),
            triple: [0; 4],
            key: hasher.finish(),
            moves: None,
            turn,
            alphabet,
            after: None,
            counting: None,
        };
        let later: Vec<(u8, f64)> = later
            .into_iter()
            .map(|(r, p)| (model.code(Rank::from(r)), p))
            .collect();
        model.next = later.clone();
        model.later = later;
        if rules.has_triples() {
            // A run of 2 to 6 equal tiles (as far as the side allows) that merges: fewer tiles,
            // or others (a merge that leaves a tile keeps the count).
            let top = match &model.alphabet {
                Some(a) => Rank::try_from(a.len()).unwrap_or(Rank::MAX),
                None => rules.max_rank(),
            };
            for rank in (1..=top).map(grid_rank) {
                for run in 2..=model.side.min(tilebox_sliding::variant::MAX_RULE_TILES) {
                    let mut line = vec![0; model.side];
                    line[..run].fill(rank);
                    let before = line.clone();
                    model.slide_line(&mut line);
                    if line != before {
                        model.triple[usize::from(rank >> 6)] |= 1 << (rank & 63);
                        break;
                    }
                }
            }
        }
        model
    }
}

impl VariantModel {
    /// [`SlidingModel::slide_line_scored`] by `rules` (this model's, or those of other
    /// counters, [`Rules::at`]) on this model's move; whether this model numbers every tile
    /// the move leaves (a range of integers numbers some only: [`VariantModel::code`]); and
    /// the places (from the wall, a bit each) of the tiles merges made.
    fn slide_line_by(&self, rules: &Rules, line: &mut [u8]) -> (u64, bool, u8) {
        let side = self.side;
        if line.len() != side {
            return (0, true, 0);
        }
        let mut rows = vec![vec![0u64; side]; side];
        for (slot, &rank) in rows[0].iter_mut().zip(line.iter()) {
            *slot = rules.value(self.rank(rank));
        }
        let Ok(board) = rules.board_from_values(&rows) else {
            return (0, true, 0);
        };
        let slide = rules.slide_on(&board, Direction::Left, self.turn);
        let made = slide
            .motions
            .iter()
            .filter(|m| m.merged && m.to.row == 0 && m.to.col < 8)
            .fold(0u8, |bits, m| bits | 1 << m.to.col);
        let mut exact = true;
        if let Some(row) = slide.board.rows().next() {
            for (slot, &rank) in line.iter_mut().zip(row) {
                *slot = self.code(rank);
                exact &= self.rank(*slot) == rank;
            }
        }
        (slide.gained, exact, made)
    }

    /// The tables of `counters` ([`Counting::tables`]), made when first asked for; `None`
    /// where the variant has no pipeline.
    fn counter_tables(
        &self,
        c: &Counting,
        tables: &Mutex<HashMap<Counters, Arc<CounterTables>>>,
        counters: &Counters,
    ) -> Option<Arc<CounterTables>> {
        let mut held = tables.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = held.get(counters) {
            return Some(found.clone());
        }
        let after = self.after_slide_of(counters, c.turn)?;
        let events = (0..c.rules.variant().pipeline.events.len())
            .map(|i| *self.by_code(|rank| c.rules.event_holds_of_tile(i, rank, counters, c.turn)))
            .collect();
        let made = if c.rules.variant().pipeline.made.is_empty() {
            Box::new([*counters; 256])
        } else {
            self.by_code(|rank| c.rules.made_tile(rank, counters, c.turn))
        };
        let tables = Arc::new(CounterTables {
            events,
            after,
            made,
        });
        if held.len() >= Counting::MOST_TABLES {
            held.clear();
        }
        held.insert(*counters, tables.clone());
        Some(tables)
    }

    /// `of(rank)` of the tile of each of this model's numbers (0: an empty cell), asked once
    /// for each tile the model numbers (a number past them reads as the last).
    fn by_code<T: Copy>(&self, of: impl Fn(Rank) -> T) -> Box<[T; 256]> {
        let codes = self
            .alphabet
            .as_ref()
            .map_or(usize::from(u8::MAX), |a| a.len().min(usize::from(u8::MAX)));
        let mut row = Box::new([of(0); 256]);
        for (code, slot) in row.iter_mut().enumerate().take(codes + 1).skip(1) {
            *slot = of(u8::try_from(code).map_or(0, |code| self.rank(code)));
        }
        let last = row[codes];
        row[codes..].fill(last);
        row
    }

    /// The engine's board of `grid` by `rules`; `None` if a tile is not one of theirs.
    fn board_of(&self, rules: &Rules, grid: &Grid) -> Option<Board> {
        let rows: Vec<Vec<u64>> = grid
            .rows()
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|code| rules.value(self.rank(code)))
                    .collect()
            })
            .collect();
        rules.board_from_values(&rows).ok()
    }
}

/// The `most` likeliest tiles of `chances`, their chances scaled to add up to 1 (all of them,
/// in their order, when there are no more).
fn likeliest(mut chances: Vec<(Rank, f64)>, most: usize) -> Vec<(Rank, f64)> {
    if chances.len() <= most {
        return chances;
    }
    chances.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    chances.truncate(most);
    let total: f64 = chances.iter().map(|t| t.1).sum();
    if total > 0.0 {
        for t in &mut chances {
            t.1 /= total;
        }
    }
    chances
}

impl SlidingModel for VariantModel {
    /// The engine's own line move: the line as the top row of an otherwise empty board, swiped
    /// left (the generic player caches each line's move, so this runs once per line).
    fn slide_line(&self, line: &mut [u8]) {
        self.slide_line_scored(line);
    }

    /// What the line's move adds to the score, by the engine's rules (the whole board's, the
    /// rest being empty): the merges' points, or where the score is read off the board
    /// (Threes), the line's points after the move less before (the engine's `gained`).
    fn slide_line_scored(&self, line: &mut [u8]) -> u64 {
        self.slide_line_by(&self.rules, line).0
    }

    fn spawn_at(&self) -> SpawnAt {
        match self.rules.variant().spawn_at {
            VariantSpawnAt::Anywhere => SpawnAt::Anywhere,
            VariantSpawnAt::MovedEdge => SpawnAt::MovedEdge,
        }
    }

    fn next_tiles(&self) -> Vec<(u8, f64)> {
        self.next.clone()
    }

    fn later_tiles(&self) -> Vec<(u8, f64)> {
        self.later.clone()
    }

    fn phases(&self) -> usize {
        self.moves.as_ref().map_or(1, |m| m.models.len().max(1))
    }

    fn phase(&self, ahead: u32, d: usize) -> usize {
        let Some(moves) = &self.moves else {
            return 0;
        };
        let row = usize::try_from(ahead)
            .ok()
            .and_then(|i| moves.phase.get(i))
            .or(moves.phase.last());
        row.map_or(0, |row| usize::from(row[d & 3]))
    }

    fn slide_line_in(&self, phase: usize, line: &mut [u8]) -> u64 {
        match self.moves.as_ref().and_then(|m| m.models.get(phase)) {
            Some(model) => model.slide_line_scored(line),
            None => self.slide_line_scored(line),
        }
    }

    /// A 2-tile merge in either order, or two equal tiles of a rank a run of two to five of
    /// which merges; where rules change from move to move, by the rules of any move.
    fn merges_with(&self, a: u8, b: u8) -> bool {
        if let Some(moves) = &self.moves {
            return moves.models.iter().any(|m| m.merges_with(a, b));
        }
        self.rules.merges_with(self.rank(a), self.rank(b))
            || (a == b && self.triple[usize::from(a >> 6)] & (1 << (a & 63)) != 0)
    }

    fn value(&self, rank: u8) -> u64 {
        self.rules.value(self.rank(rank))
    }

    fn grid_rank(&self, rank: Rank) -> u8 {
        self.code(rank)
    }

    fn line_rule_key(&self) -> Option<u64> {
        Some(self.key)
    }

    /// The ticks, then `lose`: the counters as the searched state has them. `lose` reads the
    /// board after the spawn in the game; here it reads the board before it (the spawned tile,
    /// one of the lowest, is taken not to lose).
    fn after_slide(&self, grid: &mut Grid) -> bool {
        let Some(after) = &self.after else {
            return false;
        };
        grid.map_cells(&after.tick);
        after.always || grid.any_cell(&after.loses)
    }

    fn state_key(&self) -> u64 {
        self.after.as_ref().map_or(0, |a| a.key)
    }

    fn counters(&self) -> Option<Counters> {
        self.counting.as_ref().map(|c| c.counters)
    }

    /// The engine's own move of the board: the slide by the rules of `counters` ([`Rules::at`])
    /// on move `turn + ahead`, then the turn pipeline before the spawn
    /// ([`Rules::before_spawn`]: `made`, the events, the ticks) and its `lose`. `lose` reads
    /// the board in the game after the spawn; here before it (the spawned tile, one of the
    /// lowest, is taken not to lose).
    fn slide_counted(
        &self,
        grid: &Grid,
        d: usize,
        ahead: u32,
        counters: &Counters,
    ) -> Option<CountedMove> {
        let c = self.counting.as_ref()?;
        let dir = *Direction::ALL.get(d)?;
        let rules = c.rules.at(counters);
        let board = self.board_of(&rules, grid)?;
        let turn = c.turn.saturating_add(u64::from(ahead));
        let mut slide = rules.slide_on(&board, dir, turn);
        if !slide.moved {
            return None;
        }
        let (now, next) = rules.before_spawn(&mut slide, counters, turn, dir);
        let moved = slide
            .moved_lines
            .iter()
            .filter(|&&line| line < 8)
            .fold(0u8, |bits, &line| bits | 1 << line);
        Some(CountedMove {
            grid: Grid::from_board_by(&slide.board, |r| self.code(r)),
            moved,
            gained: slide.gained,
            lost: rules.is_lost(&slide.board, &now, turn),
            now,
            next,
        })
    }

    /// Where the rules are those of every move: the search moves the lines itself, by the rules
    /// of the counters ([`Rules::at`]), and reads `made` off the tiles the merges made
    /// ([`SlidingModel::made_with`]).
    fn lines_with_counters(&self) -> bool {
        let variant = self.rules.variant();
        self.counting.is_some() && self.moves.is_none() && variant.hook.is_none()
    }

    /// The counters the merge rules read, as [`Rules::at`] holds them: those the line rule
    /// reads.
    fn line_key_with(&self, counters: &Counters) -> u64 {
        let Some(c) = &self.counting else {
            return 0;
        };
        if !c.rules.has_counter_merges() {
            return 0;
        }
        let mut hasher = DefaultHasher::new();
        c.rules.at(counters).merge_counters().hash(&mut hasher);
        hasher.finish()
    }

    fn slide_line_with(&self, counters: &Counters, line: &mut [u8]) -> Option<(u64, u8)> {
        let (gained, exact, made) = match &self.counting {
            Some(c) => self.slide_line_by(&c.rules.at(counters), line),
            None => self.slide_line_by(&self.rules, line),
        };
        exact.then_some((gained, made))
    }

    /// [`Rules::made_tile`] of the tile numbered `code`, read from the tables of `counters`
    /// where there are tables ([`Counting::tables`]).
    fn made_with(&self, counters: &Counters, code: u8, ahead: u32) -> Counters {
        let Some(c) = &self.counting else {
            return *counters;
        };
        if let Some(tables) = &c.tables
            && let Some(t) = self.counter_tables(c, tables, counters)
        {
            return t.made.get(usize::from(code)).copied().unwrap_or(*counters);
        }
        let turn = c.turn.saturating_add(u64::from(ahead));
        c.rules.made_tile(self.rank(code), counters, turn)
    }

    /// The turn pipeline before the spawn on the slid `grid` ([`Rules::after_move`]: the events
    /// and the ticks; there is no `made` where the search moves the lines itself), then `lose`:
    /// read from the tables of the counters met ([`Counting::tables`]) where the tests read no
    /// `t`, the events combined by the engine's own [`Rules::events_by`]; else by the engine
    /// on the board.
    fn after_counted(
        &self,
        grid: &mut Grid,
        d: usize,
        ahead: u32,
        counters: &Counters,
    ) -> Option<(bool, Counters, Counters)> {
        let c = self.counting.as_ref()?;
        let dir = *Direction::ALL.get(d)?;
        let turn = c.turn.saturating_add(u64::from(ahead));
        if let Some(tables) = &c.tables {
            let mut held = (*counters, self.counter_tables(c, tables, counters)?);
            let side = grid.side();
            let cells = &*grid;
            let (now, next) = c.rules.events_by(
                counters,
                turn,
                || move_order(dir, side).map(|cell| cells.rank(cell)),
                |i, code, running| {
                    if *running != held.0
                        && let Some(t) = self.counter_tables(c, tables, running)
                    {
                        held = (*running, t);
                    }
                    *running == held.0
                        && held
                            .1
                            .events
                            .get(i)
                            .is_some_and(|row| row[usize::from(code)])
                },
            );
            let after = self.counter_tables(c, tables, &now)?.after.clone();
            grid.map_cells(&after.tick);
            return Some((after.always || grid.any_cell(&after.loses), now, next));
        }
        let rules = c.rules.at(counters);
        let mut board = self.board_of(&rules, grid)?;
        let (now, next) = rules.after_move(&mut board, counters, turn, dir);
        *grid = Grid::from_board_by(&board, |r| self.code(r));
        Some((rules.is_lost(&board, &now, turn), now, next))
    }

    /// The spawn as the engine draws it with `counters` (the weights, and a `draw`'s likeliest
    /// tiles); the state's knowledge after its own move where the variant previews or fills a
    /// bag, the full bag or the weights deeper, as without counters.
    fn tiles_with(&self, counters: &Counters, first: bool) -> Vec<(u8, f64)> {
        let variant = self.rules.variant();
        let from_state =
            variant.preview || variant.hook.is_some() || !self.rules.full_bag().is_empty();
        if self.counting.is_none() || from_state {
            return if first {
                self.next.clone()
            } else {
                self.later.clone()
            };
        }
        let chances = self.rules.spawn_chances_with(counters);
        let chances = if variant.pipeline.draw.is_some() {
            likeliest(chances, Self::MOST_DRAWN)
        } else {
            chances
        };
        self.tiles(chances)
    }

    fn phase_key(&self, phase: usize) -> Option<u64> {
        match &self.moves {
            Some(moves) => moves.models.get(phase).map(|m| m.key),
            None => (phase == 0).then_some(self.key),
        }
    }
}

/// The assistant's player for the sliding engine: the bitboard players where they play the
/// variant exactly, the generic player everywhere else. Keeps its tables between questions.
/// Its searches with a network are `ntuple::play`'s ([`SlidingPlayer::advise_learned`]).
#[derive(Debug, Clone, Default)]
pub struct SlidingPlayer {
    pub(crate) bitboard: Option<Engine>,
    pub(crate) generic: Option<GenericEngine>,
    /// What the network's bitboard search knows of the last variant it played, by
    /// `ntuple::play`, which alone reads it.
    pub(crate) learned: Option<(Variant, Arc<dyn Any + Send + Sync>)>,
}

impl SlidingPlayer {
    /// A player; its tables are allocated on first use, by the engine that needs them.
    pub fn new() -> Self {
        Self::default()
    }

    /// The best move for `state` within `limits`; `None` only when no swipe moves.
    pub fn advise(&mut self, state: &SlidingState, limits: &Limits) -> Option<Advice> {
        // A game the turn pipeline lost takes no move, whatever still slides.
        if state.lost() {
            return None;
        }
        let board = state.board();
        if let Some(advice) = self.advise_bitboard(state, board, limits) {
            return Some(advice);
        }
        let model = VariantModel::of_state(state);
        self.generic
            .get_or_insert_with(GenericEngine::new)
            .advise_board(&model, board, limits)
    }

    /// The bitboard players' answer, when one plays this variant and the board fits.
    fn advise_bitboard(
        &mut self,
        state: &SlidingState,
        board: &Board,
        limits: &Limits,
    ) -> Option<Advice> {
        let kind = Bitboard::of(state.rules().variant())?;
        let bits = bitboard::encode(board)?;
        let engine = self.bitboard.get_or_insert_with(Engine::new);
        match kind {
            Bitboard::Twenty48 => engine.advise_2048_bits(bits, limits),
            Bitboard::Threes => {
                let (deck, preview) = threes_known(state)?;
                engine.advise_threes_bits(bits, deck, preview, limits)
            }
        }
    }
}

/// What a Threes player counting cards knows of `state` besides the board: the deck left and
/// the preview; `None` for a state with no preview or a deck no Threes game holds.
pub(crate) fn threes_known(state: &SlidingState) -> Option<(Deck, NextCard)> {
    let deck = Deck::new(crate::threes::deck_counts(state)).ok()?;
    Some((deck, state.next_threes_card()?))
}

#[cfg(test)]
mod tests {
    use tilebox_core::{Puzzle, Session};
    use tilebox_sliding::{Sliding, builtin_variants};

    use super::*;

    fn variant(id: &str) -> Variant {
        tilebox_sliding::builtin_variant(id).unwrap()
    }

    /// Plays a seeded game of `variant` for `moves` moves, choosing moves by a fixed cycle
    /// (whatever moves), and calls `each` on every state reached.
    fn walk(variant: &Variant, seed: u64, moves: usize, mut each: impl FnMut(&SlidingState)) {
        let mut game = Session::<Sliding>::new(variant.clone(), seed).unwrap();
        for i in 0..moves {
            each(game.state());
            let legal = Sliding::legal_moves(game.state());
            let Some(&dir) = legal.get(i % legal.len().max(1)) else {
                break;
            };
            game.play(dir).unwrap();
        }
    }

    /// The network's search plays 2048, Threes and a kin of 2048 (2584) on bitboards, and only
    /// legal moves, every legal move valued; searched to a fixed depth, it gives the same
    /// answer again and from a fresh player. (The networks are made up, not trained.)
    #[test]
    fn the_network_search_plays_legal_moves_on_bitboards_and_answers_alike() {
        for (id, preview) in [("2048", false), ("threes", true), ("2584", false)] {
            let network = Arc::new(crate::testing::small_network(preview, 7));
            let mut player = SlidingPlayer::new();
            let mut game = Session::<Sliding>::new(variant(id), 11).unwrap();
            for (i, depth) in (0..120).zip([1, 3, 2].into_iter().cycle()) {
                let limits = Limits::fixed_depth(depth);
                let state = game.state();
                let legal = Sliding::legal_moves(state);
                let Some(advice) = player.advise_learned(state, &limits, &network) else {
                    assert!(legal.is_empty(), "{id} move {i}");
                    break;
                };
                let bitboard = player.advise_learned_bitboard(state, &limits, &network);
                assert_eq!(bitboard.as_ref(), Some(&advice), "{id} move {i}");
                assert!(legal.contains(&advice.best), "{id} move {i}");
                let listed: Vec<Direction> = advice.values.iter().map(|&(d, _)| d).collect();
                assert_eq!(listed, legal, "{id} move {i}");
                if i % 10 == 0 {
                    let fresh = SlidingPlayer::new().advise_learned(state, &limits, &network);
                    assert_eq!(fresh.as_ref(), Some(&advice), "{id} move {i}");
                }
                game.play(advice.best).unwrap();
            }
            assert!(game.state().turn() >= 30, "{id}: {}", game.state().turn());
        }
    }

    /// Where rules hold on some moves or directions only, the advice is always a legal move of
    /// the rules of that move: 2592 (pairs, then triples) under a time budget, and a 2048
    /// whose pairs merge only moving left or right, searched two plies deep.
    #[test]
    fn rules_for_some_moves_or_directions_are_played_legally() {
        let mut sideways = variant("2048");
        sideways.format = 2;
        sideways.merges[0].directions = vec![Direction::Left, Direction::Right];
        for (v, limits) in [
            (
                variant("2592"),
                Limits::per_move(std::time::Duration::from_millis(3)),
            ),
            (
                sideways,
                Limits {
                    time: None,
                    max_depth: 2,
                    min_probability: Limits::DEFAULT_MIN_PROBABILITY,
                },
            ),
        ] {
            let mut player = SlidingPlayer::new();
            let mut game = Session::<Sliding>::new(v.clone(), 3).unwrap();
            for i in 0..40 {
                let legal = Sliding::legal_moves(game.state());
                if legal.is_empty() {
                    break;
                }
                let advice = player.advise(game.state(), &limits).unwrap();
                assert!(legal.contains(&advice.best), "{} move {i}", v.id);
                let listed: Vec<Direction> = advice.values.iter().map(|&(d, _)| d).collect();
                assert!(
                    listed.iter().all(|d| legal.contains(d)),
                    "{} move {i}",
                    v.id
                );
                game.play(advice.best).unwrap();
            }
        }
    }

    /// Where rules hold on some moves or directions only, the model moves every move of a
    /// search by the rules of its own number and direction: the line the search moves `ahead`
    /// moves on toward `d` is the engine's by the rules of move `turn + ahead`.
    #[test]
    fn each_move_of_a_search_is_moved_by_the_rules_of_its_number_and_direction() {
        for (id, sets) in [("2592", 2), ("directional-merges", 4), ("2295", 13)] {
            let v = variant(id);
            let rules = Rules::new(&v).unwrap();
            let mut most = 0;
            walk(&v, 5, 30, |state| {
                let model = VariantModel::of_state(state);
                most = most.max(model.phases());
                assert!(model.phases() <= sets, "{id}: {} sets", model.phases());
                let side = v.side;
                for ahead in 0..12u32 {
                    for (d, dir) in Direction::ALL.into_iter().enumerate() {
                        let phase = model.phase(ahead, d);
                        assert!(phase < model.phases(), "{id}");
                        let turn = state.turn() + u64::from(ahead);
                        let slid = rules.slide_on(state.board(), dir, turn);
                        for line in 0..side {
                            let at = |board: &Board, pos| {
                                grid_rank(board.rank(dir.cell(side, line, pos)))
                            };
                            let mut ranks: Vec<u8> =
                                (0..side).map(|p| at(state.board(), p)).collect();
                            model.slide_line_in(phase, &mut ranks);
                            let want: Vec<u8> = (0..side).map(|p| at(&slid.board, p)).collect();
                            assert_eq!(ranks, want, "{id} move {turn} {dir:?} line {line}");
                        }
                    }
                }
            });
            // 2592's pairs and triples alternate; Directional Merges has a set for each
            // direction; 2295's moves ahead of a state meet several of its 13.
            assert!(most >= 2, "{id}: {most}");
        }
    }

    /// A model whose move `stuck_at` (counted from the searched position's, 0) moves nothing at
    /// all, every other move playing as `inner`; with `spawns` false, no tile ever arrives.
    struct StuckOn {
        inner: VariantModel,
        spawns: bool,
        stuck_at: u32,
    }

    impl SlidingModel for StuckOn {
        fn slide_line(&self, line: &mut [u8]) {
            self.inner.slide_line(line);
        }
        fn spawn_at(&self) -> SpawnAt {
            self.inner.spawn_at()
        }
        fn next_tiles(&self) -> Vec<(u8, f64)> {
            if self.spawns {
                self.inner.next_tiles()
            } else {
                Vec::new()
            }
        }
        fn merges_with(&self, a: u8, b: u8) -> bool {
            self.inner.merges_with(a, b)
        }
        fn value(&self, rank: u8) -> u64 {
            self.inner.value(rank)
        }
        fn phases(&self) -> usize {
            2
        }
        fn phase(&self, ahead: u32, _: usize) -> usize {
            usize::from(ahead == self.stuck_at)
        }
        fn slide_line_in(&self, phase: usize, line: &mut [u8]) -> u64 {
            if phase == 0 {
                self.inner.slide_line_scored(line)
            } else {
                0
            }
        }
    }

    /// The search asks the model for the rules of each move by how many moves ahead of the
    /// searched position's it is. When nothing moves on the second move, every first move leads
    /// to a lost game three plies deep (move, tile, the stuck move), though not one ply deep;
    /// when nothing moves on the third, five plies deep and not three. So too when no tile
    /// arrives and the player moves again at once. A move counted twice, or the count started
    /// again after the game's answer, would meet the stuck move elsewhere.
    #[test]
    fn the_search_moves_each_ply_by_the_rules_of_its_move() {
        let v = variant("2048-5x5");
        let rules = Rules::new(&v).unwrap();
        let mut game = Session::<Sliding>::new(v.clone(), 7).unwrap();
        for _ in 0..10 {
            let first = Sliding::legal_moves(game.state())[0];
            game.play(first).unwrap();
        }
        let highest = game.state().board().max_rank();
        let grid = Grid::from_board(game.state().board());
        let at = |depth| Limits {
            time: None,
            max_depth: depth,
            min_probability: 0.0,
        };
        let values = |a: Advice| a.values.iter().map(|&(_, v)| v).collect::<Vec<_>>();
        let mut engine = GenericEngine::new();
        let lost = |v: &[f64]| v.len() >= 2 && v.windows(2).all(|w| w[0] == w[1]);
        for spawns in [true, false] {
            for (stuck_at, free_at, lost_at) in [(1, 1, 3), (2, 3, 5)] {
                let model = StuckOn {
                    inner: VariantModel::new(&rules, highest),
                    spawns,
                    stuck_at,
                };
                let free = values(engine.advise(&model, &grid, &at(free_at)).unwrap());
                let deep = values(engine.advise(&model, &grid, &at(lost_at)).unwrap());
                let case = format!("spawns {spawns}, stuck at move {stuck_at}");
                assert!(lost(&deep), "{case}, {lost_at} plies: {deep:?}");
                assert!(!lost(&free), "{case}, {free_at} plies: {free:?}");
            }
        }
        // The same rules on every move are not lost three plies deep.
        let plain = VariantModel::new(&rules, highest);
        let free = values(engine.advise(&plain, &grid, &at(3)).unwrap());
        assert!(free.windows(2).any(|w| w[0] != w[1]), "{free:?}");
    }

    /// A ladder of 255 tiles played at its top: Directional Merges with its highest ranks on
    /// the board (up to 255, the last), where a rank's bits and the evaluation's tables reach
    /// their ends. The advice is a legal move, and the model moves the lines as the engine.
    #[test]
    fn the_top_of_a_255_tile_ladder_is_played_legally() {
        let v = variant("directional-merges");
        let rules = Rules::new(&v).unwrap();
        assert_eq!(rules.max_rank(), 255);
        let side = v.side;
        let mut rows = vec![vec![0u64; side]; side];
        for (i, cell) in rows.iter_mut().flatten().enumerate() {
            // Every third cell empty; the others the top tiles, some side by side equal.
            if i % 3 != 2 {
                *cell = v.tiles[v.tiles.len() - 1 - (i / 2) % 12];
            }
        }
        let board = rules.board_from_values(&rows).unwrap();
        assert_eq!(board.max_rank(), 255);
        let state = SlidingState::from_board(&rules, board, None, 1);
        let legal = Sliding::legal_moves(&state);
        assert!(!legal.is_empty());
        let limits = Limits {
            time: None,
            max_depth: 2,
            min_probability: Limits::DEFAULT_MIN_PROBABILITY,
        };
        let advice = SlidingPlayer::new().advise(&state, &limits).unwrap();
        assert!(
            legal.contains(&advice.best),
            "{:?} not in {legal:?}",
            advice.best
        );
        let model = VariantModel::of_state(&state);
        for (d, dir) in Direction::ALL.into_iter().enumerate() {
            let slid = rules.slide_on(state.board(), dir, state.turn());
            for line in 0..side {
                let mut ranks: Vec<u8> = (0..side)
                    .map(|pos| grid_rank(state.board().rank(dir.cell(side, line, pos))))
                    .collect();
                model.slide_line_in(model.phase(0, d), &mut ranks);
                let want: Vec<u8> = (0..side)
                    .map(|pos| grid_rank(slid.board.rank(dir.cell(side, line, pos))))
                    .collect();
                assert_eq!(ranks, want, "{dir:?} line {line}");
            }
        }
    }

    #[test]
    fn a_move_earns_what_the_score_gains_merges_or_board() {
        // At each move of a game, the points the model gives the lines add up to what the
        // engine's slide adds to the score before the spawn (Threes' score is read off the
        // board, 2048's is its merges).
        for id in ["2048", "threes"] {
            let v = variant(id);
            let rules = Rules::new(&v).unwrap();
            let model = VariantModel::new(&rules, 1);
            let mut game = Session::<Sliding>::new(v.clone(), 9).unwrap();
            for i in 0..200 {
                let legal = Sliding::legal_moves(game.state());
                let Some(&dir) = legal.get(i % legal.len().max(1)) else {
                    break;
                };
                let before = game.state().board().clone();
                let mut earned = 0u64;
                for line in 0..v.side {
                    let mut ranks: Vec<u8> = (0..v.side)
                        .map(|pos| grid_rank(before.rank(dir.cell(v.side, line, pos))))
                        .collect();
                    earned += model.slide_line_scored(&mut ranks);
                }
                let slide = rules.slide(&before, dir);
                let expected = if rules.scores_board() {
                    rules.board_score(&slide.board) - rules.board_score(&before)
                } else {
                    slide.gained
                };
                assert_eq!(earned, expected, "{id}, move {i}");
                game.play(dir).unwrap();
            }
        }
    }

    #[test]
    fn the_model_moves_lines_and_picks_spawn_cells_as_the_engine_does() {
        for v in builtin_variants() {
            for seed in 0..3 {
                walk(&v, seed, 120, |state| {
                    // Each swipe by the rules of this move toward it (2592's switch on each move).
                    let model = VariantModel::of_state(state);
                    let grid = Grid::from_board_by(state.board(), |r| model.grid_rank(r));
                    for dir in Direction::ALL {
                        let slide = state.rules().slide_on(state.board(), dir, state.turn());
                        match grid.slide(&model, dir) {
                            Some((after, moved)) => {
                                assert!(slide.moved, "{}: {dir:?}", v.id);
                                // Every tile a first move makes is one the model numbers (a
                                // range of integers numbers only some).
                                for (_, r) in slide.board.cells_with_ranks() {
                                    assert_eq!(model.rank(model.grid_rank(r)), r, "{}", v.id);
                                }
                                let want =
                                    Grid::from_board_by(&slide.board, |r| model.grid_rank(r));
                                assert_eq!(after, want, "{}", v.id);
                                let lines: Vec<usize> =
                                    (0..8).filter(|l| moved & (1 << l) != 0).collect();
                                assert_eq!(lines, slide.moved_lines, "{}", v.id);
                                let mut cells = after.spawn_cells(model.spawn_at(), dir, moved);
                                let mut expected = state.spawn_cells(&slide, dir);
                                cells.sort();
                                expected.sort();
                                assert_eq!(cells, expected, "{}", v.id);
                            }
                            None => assert!(!slide.moved, "{}: {dir:?}", v.id),
                        }
                    }
                });
            }
        }
    }

    #[test]
    fn the_model_knows_the_next_tile_as_the_state_does() {
        let threes = variant("threes");
        walk(&threes, 1, 40, |state| {
            let model = VariantModel::of_state(state);
            assert_eq!(model.next_tiles(), model.tiles(state.spawn_chances()));
            let later: f64 = model.later_tiles().iter().map(|t| t.1).sum();
            assert!((later - 1.0).abs() < 1e-9, "{later}");
        });
        let fib = VariantModel::new(&Rules::new(&variant("2584")).unwrap(), 1);
        assert_eq!(fib.later_tiles(), [(1, 85.0), (2, 10.0), (3, 5.0)]);
        // 1024: three equal powers of four merge, so a pair of them counts toward a merge; a
        // pair of triples (3·4^k) does not.
        let m = VariantModel::new(&Rules::new(&variant("1024")).unwrap(), 1);
        assert!(m.merges_with(1, 1) && m.merges_with(3, 3));
        assert!(!m.merges_with(2, 2));
        assert!(m.merges_with(1, 2) && m.merges_with(2, 1));
        // 6561: four equal powers of nine merge, so a pair of them counts; fours do not.
        let m = VariantModel::new(&Rules::new(&variant("6561")).unwrap(), 1);
        assert!(m.merges_with(1, 1) && m.merges_with(3, 3));
        assert!(!m.merges_with(2, 2) && !m.merges_with(1, 3));
    }

    #[test]
    fn the_bitboard_players_take_exactly_the_4x4_games_of_2048_and_threes() {
        assert_eq!(Bitboard::of(&variant("2048")), Some(Bitboard::Twenty48));
        assert_eq!(Bitboard::of(&variant("threes")), Some(Bitboard::Threes));
        for id in [
            "2048-3x3", "2048-5x5", "2048-6x6", "2048-8x8", "2584", "2187", "1024",
        ] {
            assert_eq!(Bitboard::of(&variant(id)), None, "{id}");
        }
        // Another goal or name plays the same game; another spawn does not.
        let mut mine = variant("2048");
        mine.id = "mine".into();
        mine.win = tilebox_sliding::variant::Win::one(4096);
        assert_eq!(Bitboard::of(&mine), Some(Bitboard::Twenty48));
        mine.spawn = variant("2584").spawn;
        assert_eq!(Bitboard::of(&mine), None);
        let mut big = variant("threes");
        big.side = 5;
        assert_eq!(Bitboard::of(&big), None);
    }

    /// A small game of the turn pipeline (as `tilebox-sliding`'s tests have it): triangular
    /// numbers by ladder position (1 + 3 makes 10, over the first goal, 6), a goal that
    /// vanishes and advances, a tile above it losing.
    const GOALS: &str = r#"{"format": 3, "id": "goals", "title": "Goals", "description": "d",
        "side": 3, "tiles": [1, 3, 6, 10, 15, 21, 28, 36, 45, 55],
        "merges": [{"tiles": [1, 1], "makes": 2}, {"tiles": [2, 2], "makes": 3},
                   {"tiles": [1, 2], "makes": 4, "any_order": true},
                   {"tiles": [3, 3], "makes": 4}, {"tiles": [4, 4], "makes": 5}],
        "motion": "slide", "spawn": {"weights": {"1": 9, "3": 1}}, "spawn_at": "anywhere",
        "start": 2, "preview": false, "win": null, "score": "merges",
        "counters": {"g": {"start": 3, "values": [3, 10]}},
        "events": [{"if": "any(a = tri(g))", "then": {"g": "g + 1"}}],
        "tick": [{"when": ["a = tri(g)"], "makes": null}],
        "lose": "any(a > tri(g))"}"#;

    /// The search reads the ticks and `lose` with the state's counters: its model leaves the
    /// board the engine leaves before the spawn, it never chooses a move that loses when one
    /// does not, and a lost game takes no advice.
    #[test]
    fn the_search_reads_the_turn_pipeline_and_takes_a_loss_for_a_loss() {
        let v = Variant::from_text(GOALS).unwrap();
        let mut player = SlidingPlayer::new();
        let mut avoided = 0;
        for seed in 0..12 {
            let mut game = Session::<Sliding>::new(v.clone(), seed).unwrap();
            for _ in 0..80 {
                let state = game.state().clone();
                let rules = state.rules();
                let model = VariantModel::of_state(&state);
                let mut safe = Vec::new();
                for dir in Sliding::legal_moves(&state) {
                    let mut slide = rules.slide_on(state.board(), dir, state.turn());
                    rules.after_slide(&mut slide.board, &state.counters(), state.turn());
                    let loses = slide
                        .board
                        .cells_with_ranks()
                        .any(|(_, r)| rules.loses_with(r, &state.counters(), state.turn()));
                    let slid = rules.slide_on(state.board(), dir, state.turn());
                    let mut grid = Grid::from_board(&slid.board);
                    let model_loses = model.after_slide(&mut grid);
                    assert_eq!(grid, Grid::from_board(&slide.board), "seed {seed}");
                    assert_eq!(model_loses, loses, "seed {seed}");
                    if !loses {
                        safe.push(dir);
                    }
                }
                match player.advise(&state, &Limits::fixed_depth(2)) {
                    Some(a) => {
                        assert!(Sliding::legal_moves(&state).contains(&a.best));
                        let legal = Sliding::legal_moves(&state).len();
                        if !safe.is_empty() {
                            assert!(safe.contains(&a.best), "seed {seed}: {:?} loses", a.best);
                            avoided += usize::from(safe.len() < legal);
                        }
                        game.play(a.best).unwrap();
                    }
                    None => {
                        assert!(Sliding::legal_moves(&state).is_empty());
                        break;
                    }
                }
            }
        }
        // Positions where some move loses and another does not are met.
        assert!(avoided > 0);
    }

    /// A small game whose counter changes what a move two plies down does: making a 4 loses
    /// while `k` is 0, `k` turns 1 at the end of a move that leaves a 3 on the board, and from
    /// then on the 1s vanish after every move. Only 1s spawn; 2 + 2 makes 3, 1 + 3 makes 4, and
    /// 1 + 1 does not merge.
    const UNLOCK: &str = r#"{"format": 3, "id": "unlock", "title": "Unlock", "description": "d",
        "side": 3, "tiles": [1, 2, 3, 4],
        "merges": [{"tiles": [2, 2], "makes": 3},
                   {"tiles": [1, 3], "makes": 4, "any_order": true}],
        "motion": "slide", "spawn": {"weights": {"1": 1}}, "spawn_at": "anywhere",
        "start": 0, "preview": false, "win": null, "score": "merges",
        "counters": {"k": {"start": 0, "values": [0, 1]}},
        "events": [{"if": "any(a = 3)", "then": {"k": "1"}}],
        "tick": [{"when": ["a = 1", "k = 1"], "makes": null}],
        "lose": "any(a = 4 and k = 0)"}"#;

    /// A game whose `made` reads the tiles in the move's order (each step multiplies by 3), with
    /// an event `at_once`, one tile by tile, a tick and a `lose` that read the counters: the
    /// search's tables must follow the engine's order and its combination of events.
    const ORDERED: &str = r#"{"format": 3, "id": "ordered", "title": "Ordered", "description": "d",
        "side": 4, "tiles": {"integers": [1, 64]},
        "merges": [{"tiles": ["a", "b"], "makes": "a + b", "when": ["a = b"]}],
        "motion": "slide", "spawn": {"weights": {"1": 3, "2": 1}}, "spawn_at": "anywhere",
        "start": 2, "preview": false, "win": null, "score": "merges",
        "counters": {"g": {"start": 0, "values": [0, 60]}, "h": {"start": 0, "values": [0, 9]}},
        "made": {"g": "(3 * g + a) mod 61"},
        "events": [{"if": "any(a = 4)", "then": {"h": "(h + g) mod 10"}, "at_once": true},
                   {"if": "any(a > h)", "then": {"g": "g + 1"}, "each_tile": true}],
        "tick": [{"when": ["a = 16", "h > 4"], "makes": null}],
        "lose": "any(a = 32 and h = 9)"}"#;

    /// The search carries the counters from node to node. On `1 1 1 / . 2 2 / . . .` (k = 0)
    /// a swipe left or right makes a 3 under a 1, and k turns 1 at the move's end: on the next
    /// move a 4 made does not lose, and the 1s vanish. Down makes nothing. Read with the
    /// counters frozen at the state's (as the search did before), left and right lead, two
    /// plies down, to many a 4 made while k is 0, a loss, and to no 1 vanishing: that search
    /// goes down. Carrying them, the search takes the merge.
    #[test]
    fn the_search_carries_the_counters_and_sees_a_loss_lifted_two_plies_down() {
        let v = Variant::from_text(UNLOCK).unwrap();
        let rules = Rules::new(&v).unwrap();
        let board = rules
            .board_from_values(&[vec![1, 1, 1], vec![0, 2, 2], vec![0, 0, 0]])
            .unwrap();
        let state = SlidingState::from_board(&rules, board, None, 1);
        assert_eq!(state.counters()[0], 0);
        // The engine: left leaves a 3 under a 1 and k = 1; then up makes a 4, which does not
        // lose, and the 1s vanish.
        let left = Sliding::apply(&state, &Direction::Left).unwrap();
        assert_eq!((left.counters()[0], left.lost()), (1, false));
        assert_eq!(Grid::from_board(left.board()).rows()[1][0], 3);
        let mut slid = rules.slide_on(left.board(), Direction::Up, 1);
        let (now, _) = rules.before_spawn(&mut slid, &left.counters(), 1, Direction::Up);
        assert!(slid.board.cells_with_ranks().any(|(_, r)| r == 4));
        assert!(slid.board.cells_with_ranks().all(|(_, r)| r != 1));
        assert!(!rules.is_lost(&slid.board, &now, 1));
        // The same move with k frozen at 0 loses.
        let mut slid = rules.slide_on(left.board(), Direction::Up, 1);
        let (now, _) = rules.before_spawn(&mut slid, &state.counters(), 1, Direction::Up);
        assert!(rules.is_lost(&slid.board, &now, 1));

        let limits = Limits::fixed_depth(3);
        let carried = SlidingPlayer::new().advise(&state, &limits).unwrap();
        let model = VariantModel::of_state(&state);
        assert_eq!(model.counters(), Some(state.counters()));
        let frozen = VariantModel {
            counting: None,
            ..model
        };
        let before = GenericEngine::new()
            .advise_board(&frozen, state.board(), &limits)
            .unwrap();
        let merges = [Direction::Left, Direction::Right];
        assert!(merges.contains(&carried.best), "{carried:?}");
        assert_eq!(before.best, Direction::Down, "{before:?}");
    }

    /// Where the search carries counters, the model of a state plays its first move and the
    /// next as the engine does, the search moving the lines itself and reading the pipeline
    /// from its tables (`made` off the tiles the merges made) as the model moving the whole
    /// board does: for every move of games of each built-in with counters and of
    /// [`ORDERED`], and every move after it, the board before the spawn, the lines moved, the
    /// loss and the counters the turn ends with are the engine's, the second move read with
    /// the counters the model's first left.
    #[test]
    fn the_counted_moves_are_the_engines_two_moves_deep() {
        let modes = builtin_variants()
            .into_iter()
            .filter(|v| !v.pipeline.counters.is_empty())
            .chain([Variant::from_text(ORDERED).unwrap()]);
        let mut seconds = 0;
        let mut own_lines = 0;
        for v in modes {
            walk(&v, 2, 60, |state| {
                let model = VariantModel::of_state(state);
                own_lines += usize::from(model.lines_with_counters());
                // The search's move, which is the model's whole move.
                let play = |grid: &Grid, d, ahead, counters: &Counters| {
                    let m = crate::generic::counted_move(&model, grid, d, ahead, counters);
                    assert_eq!(m, model.slide_counted(grid, d, ahead, counters), "{}", v.id);
                    m
                };
                let code = |board: &Board| Grid::from_board_by(board, |r| model.grid_rank(r));
                let numbered = |board: &Board| {
                    board
                        .cells_with_ranks()
                        .all(|(_, r)| model.rank(model.grid_rank(r)) == r)
                };
                for (d, dir) in Direction::ALL.into_iter().enumerate() {
                    let counters = state.counters();
                    let first = play(&code(state.board()), d, 0, &counters);
                    let Ok(after) = Sliding::apply(state, &dir) else {
                        assert!(first.is_none(), "{}", v.id);
                        continue;
                    };
                    let first = first.unwrap();
                    // The board before the spawn: a moved slide leaves an empty cell, and the
                    // tile lands on one.
                    let spawned = after.last_spawn().unwrap();
                    let want = code(after.board()).with(spawned, 0);
                    assert_eq!(first.grid, want, "{} {dir:?}", v.id);
                    let moved: Vec<usize> =
                        (0..8).filter(|l| first.moved & (1 << l) != 0).collect();
                    let slid = state.rules().slide_on(state.board(), dir, state.turn());
                    assert_eq!(moved, slid.moved_lines, "{} {dir:?}", v.id);
                    assert_eq!(first.next, after.counters(), "{} {dir:?}", v.id);
                    assert_eq!(first.lost, after.lost(), "{} {dir:?}", v.id);
                    if after.lost() || !numbered(after.board()) {
                        continue;
                    }
                    // The move after, from the board the spawn left.
                    for (e, toward) in Direction::ALL.into_iter().enumerate() {
                        let second = play(&code(after.board()), e, 1, &first.next);
                        match Sliding::apply(&after, &toward) {
                            Ok(next) => {
                                let second = second.unwrap();
                                let want = code(next.board()).with(next.last_spawn().unwrap(), 0);
                                assert_eq!(second.grid, want, "{} {toward:?}", v.id);
                                assert_eq!(second.next, next.counters(), "{} {toward:?}", v.id);
                                assert_eq!(second.lost, next.lost(), "{}", v.id);
                                seconds += 1;
                            }
                            Err(_) => assert!(second.is_none(), "{} {toward:?}", v.id),
                        }
                    }
                }
            });
        }
        assert!(seconds > 100, "{seconds}");
        assert!(own_lines > 100, "{own_lines}");
    }

    /// Every built-in with counters (378, Mod 27, 2058, Wildcard 2048) is played by the
    /// player, its search carrying them from the state's, with legal moves only, to the end of
    /// two games each (a few hundred moves; 2058's near a thousand), and its hints under a time
    /// budget are legal moves.
    #[test]
    fn every_mode_with_counters_is_played_legally_to_its_end() {
        let modes: Vec<Variant> = builtin_variants()
            .into_iter()
            .filter(|v| !v.pipeline.counters.is_empty())
            .collect();
        assert!(modes.len() >= 4, "{}", modes.len());
        let mut player = SlidingPlayer::new();
        for v in &modes {
            for seed in 1..=2 {
                let mut game = Session::<Sliding>::new(v.clone(), seed).unwrap();
                for _ in 0..3000 {
                    let state = game.state();
                    let legal = Sliding::legal_moves(state);
                    let model = VariantModel::of_state(state);
                    assert_eq!(model.counters(), Some(state.counters()), "{}", v.id);
                    match player.advise(state, &Limits::fixed_depth(2)) {
                        Some(a) => {
                            assert!(legal.contains(&a.best), "{} seed {seed}", v.id);
                            assert!(a.values.iter().all(|(d, _)| legal.contains(d)), "{}", v.id);
                            game.play(a.best).unwrap();
                        }
                        None => {
                            assert!(legal.is_empty(), "{} seed {seed}", v.id);
                            break;
                        }
                    }
                }
                let over = Sliding::legal_moves(game.state()).is_empty();
                assert!(over, "{} seed {seed}: not over", v.id);
            }
            // Hints under a time budget, as the app asks them (iterative deepening, cut off).
            let mut game = Session::<Sliding>::new(v.clone(), 3).unwrap();
            let limits = Limits::per_move(std::time::Duration::from_millis(3));
            for _ in 0..20 {
                let legal = Sliding::legal_moves(game.state());
                let Some(a) = player.advise(game.state(), &limits) else {
                    assert!(legal.is_empty(), "{}", v.id);
                    break;
                };
                assert!(legal.contains(&a.best), "{}", v.id);
                game.play(a.best).unwrap();
            }
        }
    }

    #[test]
    fn every_built_in_is_played_with_legal_moves_until_it_is_over() {
        let mut player = SlidingPlayer::new();
        for v in builtin_variants() {
            let mut game = Session::<Sliding>::new(v.clone(), 3).unwrap();
            for _ in 0..60 {
                let legal = Sliding::legal_moves(game.state());
                match player.advise(game.state(), &Limits::fixed_depth(2)) {
                    Some(a) => {
                        assert!(legal.contains(&a.best), "{}", v.id);
                        game.play(a.best).unwrap();
                    }
                    None => {
                        assert!(legal.is_empty(), "{}", v.id);
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn on_2048_and_threes_the_bitboard_players_answer_as_before() {
        let limits = Limits::fixed_depth(3);
        let mut player = SlidingPlayer::new();
        let mut engine = Engine::with_table_bits(20);
        let mut game = Session::<Sliding>::new(variant("2048"), 4).unwrap();
        for _ in 0..40 {
            let bits = bitboard::encode(game.state().board()).unwrap();
            let a = player.advise(game.state(), &limits).unwrap();
            assert_eq!(Some(&a), engine.advise_2048_bits(bits, &limits).as_ref());
            game.play(a.best).unwrap();
        }
        // Threes: the deck and the preview reach the player as Engine::advise_threes reads them
        // (the first release's kind is gone; tilebox-sliding's tests show the same seed gives
        // the same game).
        let mut sliding = Session::<Sliding>::new(variant("threes"), 4).unwrap();
        let mut threes = Session::<Sliding>::new(variant("threes"), 4).unwrap();
        for _ in 0..40 {
            let a = player.advise(sliding.state(), &limits).unwrap();
            let b = engine.advise_threes(threes.state(), &limits).unwrap();
            assert_eq!(a, b);
            sliding.play(a.best).unwrap();
            threes.play(b.best).unwrap();
        }
    }
}
