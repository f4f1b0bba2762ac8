//! [`Sliding`]: the one sliding game kind, played by any [`Variant`]. 2048 and Threes are two of
//! its variants and give exactly the games of the first release: every draw from the
//! [`GameRng`] is the one the first release made, in the same order.

use std::fmt;

use serde_json::{Map, Value};
use tilebox_core::{GameInfo, GameRng, MoveError, ParamsError, Puzzle, Status};

use crate::engine::Bag;
use crate::variant::{Counters, Hook, SpawnAt, Variant, overlay};
use crate::{Board, Cell, Direction, Rank, Rules, Slide};

/// A previewed tile of a ladder that starts 1, 2, 3 (Threes') as the player sees it: a bonus
/// tile's value stays hidden. What the Threes AI reads of the preview.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NextCard {
    /// A 1.
    One,
    /// A 2.
    Two,
    /// A 3.
    Three,
    /// A bonus tile, its value hidden; shown as "+".
    Bonus,
}

impl fmt::Display for NextCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NextCard::One => "1",
            NextCard::Two => "2",
            NextCard::Three => "3",
            NextCard::Bonus => "+",
        })
    }
}

/// The sliding game kind: params are a [`Variant`], moves are swipes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sliding;

/// A sliding game at one moment: the board, the rules, the score, the generator and what the
/// spawns keep between moves (the bag, the previewed tile).
#[derive(Debug, Clone, PartialEq)]
pub struct SlidingState {
    rules: Rules,
    board: Board,
    /// The score accumulated from merges (`"merges"` scoring).
    merged: u64,
    won: bool,
    /// The previewed tile's rank, when the variant previews.
    next: Option<Rank>,
    /// The previewed tile is a bonus tile (shown as "+").
    next_bonus: bool,
    /// The bag's tiles not yet drawn, in the order they will come, last first (shared with the
    /// states before, never copied).
    bag: Bag,
    last_spawn: Option<Cell>,
    rng: GameRng,
    /// The moves played: the number of the next move, whose rules may depend on it
    /// ([`crate::variant::MergeRule::on_moves`]).
    turn: u64,
    /// The turn pipeline's counters (all 0 for a variant without).
    counters: Counters,
    /// Whether the pipeline's `lose` held after the last move: the game is over.
    lost: bool,
    /// The different tiles found so far that meet a `distinct` win's condition, in rank order
    /// (empty without one).
    found: Vec<Rank>,
    /// A hook's state: DIVE's pool of seeds, the ranks that spawn, in the order they joined
    /// (empty for a variant without a hook).
    pool: Vec<Rank>,
}

impl SlidingState {
    /// The rules the game is played by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The score: merged tiles so far (`"merges"`) or the board's score (`"board"`).
    pub fn score(&self) -> u64 {
        if self.rules.scores_board() {
            self.rules.board_score(&self.board)
        } else {
            self.merged
        }
    }

    /// Whether the winning tile has been made. Stays true once it is.
    pub fn won(&self) -> bool {
        self.won
    }

    /// The turn pipeline's counters, in the order the variant names them (unused ones 0).
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The different tiles that met a `distinct` win's condition on the board after a move's
    /// spawn, in rank order (empty for a variant without one).
    pub fn found(&self) -> &[Rank] {
        &self.found
    }

    /// Whether the game was lost by the pipeline's `lose` (it is then over).
    pub fn lost(&self) -> bool {
        self.lost
    }

    /// The values of the tiles a hook's pool spawns (DIVE's seeds), in the order they joined;
    /// empty for a variant without a hook.
    pub fn pool(&self) -> Vec<u64> {
        self.pool.iter().map(|&r| self.rules.value(r)).collect()
    }

    /// This position with the pool of seeds `values` (a hook's state, DIVE's), those that are
    /// tiles of its rules, in that order: for tests and fixtures that start from a recorded
    /// position. A variant without a hook keeps none.
    pub fn with_pool(&self, values: &[u64]) -> Self {
        let pool = if self.rules.variant().hook.is_some() {
            values
                .iter()
                .filter_map(|&v| self.rules.rank_of(v))
                .filter(|&r| r != 0)
                .collect()
        } else {
            Vec::new()
        };
        Self {
            pool,
            ..self.clone()
        }
    }

    /// This position with the counters `counters`, each held within its values: for tests and
    /// fixtures that start from a recorded position.
    pub fn with_counters(&self, counters: Counters) -> Self {
        let mut held = counters;
        for (v, c) in held.iter_mut().zip(&self.rules.variant().pipeline.counters) {
            *v = (*v).clamp(c.values[0], c.values[1]);
        }
        Self {
            counters: held,
            rules: self.rules.at(&held),
            ..self.clone()
        }
    }

    /// The moves played so far: the next move is move `turn` (from 0), which matters to rules
    /// that hold on some moves only ([`Rules::slide_on`]).
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// The cell of the tile added after the last move; `None` at the start of a game.
    pub fn last_spawn(&self) -> Option<Cell> {
        self.last_spawn
    }

    /// The next tile as the player sees it: its value, or "+" for a bonus tile; `None` when the
    /// variant does not preview.
    pub fn next_card(&self) -> Option<String> {
        let next = self.next?;
        Some(if self.next_bonus {
            "+".to_string()
        } else {
            self.rules.variant().tile_text(self.rules.value(next))
        })
    }

    /// The previewed tile's rank, when the variant previews and it is not a hidden bonus tile.
    pub fn next_rank(&self) -> Option<Rank> {
        self.next.filter(|_| !self.next_bonus)
    }

    /// The previewed tile as a Threes card (ranks 1, 2 and 3; anything else, and a bonus tile,
    /// is [`NextCard::Bonus`]); `None` when the variant does not preview.
    pub fn next_threes_card(&self) -> Option<NextCard> {
        let next = self.next?;
        Some(match (self.next_bonus, next) {
            (false, 1) => NextCard::One,
            (false, 2) => NextCard::Two,
            (false, 3) => NextCard::Three,
            _ => NextCard::Bonus,
        })
    }

    /// Whether the previewed tile is a bonus tile (its value hidden).
    pub fn next_is_bonus(&self) -> bool {
        self.next.is_some() && self.next_bonus
    }

    /// How many of each rank are left in the bag, the previewed tile already drawn, in ladder
    /// order of the full bag's ranks; all 0 when the next bag draw starts a fresh bag. Empty for
    /// weighted spawns. Only the counts, never the order: what a player counting tiles knows.
    pub fn bag_remaining(&self) -> Vec<(Rank, u32)> {
        let mut counts: Vec<(Rank, u32)> = Vec::new();
        for &rank in self.rules.full_bag() {
            if counts.last().is_none_or(|&(r, _)| r != rank) {
                counts.push((rank, 0));
            }
        }
        for &tile in self.bag.left() {
            if let Some(slot) = counts.iter_mut().find(|(r, _)| *r == tile) {
                slot.1 += 1;
            }
        }
        counts
    }

    /// What the next spawn may be, with its chance, as this state knows it: certain when
    /// previewed (a bonus tile spread evenly over the bonus tiles it may be); otherwise the
    /// weights, or the bag's remaining tiles (a full bag when it is empty) with the bonus's share
    /// spread evenly over the bonus tiles.
    pub fn spawn_chances(&self) -> Vec<(Rank, f64)> {
        let highest = self.board.max_rank();
        let bonus = self.rules.bonus_ranks(highest);
        let spread = |share: f64| -> Vec<(Rank, f64)> {
            let n = bonus.clone().count();
            bonus
                .clone()
                .map(|r| (r, share / n.max(1) as f64))
                .collect()
        };
        if let Some(next) = self.next {
            return if self.next_bonus {
                spread(1.0)
            } else {
                vec![(next, 1.0)]
            };
        }
        // A hook's pool (DIVE's seeds): each equally likely.
        if !self.pool.is_empty() {
            let share = 1.0 / self.pool.len() as f64;
            return self.pool.iter().map(|&r| (r, share)).collect();
        }
        if self.rules.variant().pipeline.draw.is_some() {
            return self.rules.spawn_chances_with(&self.counters);
        }
        let weights = self.rules.spawn_weights();
        if !weights.is_empty() {
            let total: f64 = weights.iter().map(|&(_, w)| f64::from(w)).sum();
            return weights
                .iter()
                .map(|&(r, w)| (r, f64::from(w) / total))
                .collect();
        }
        let mut counts = self.bag_remaining();
        if counts.iter().all(|&(_, n)| n == 0) {
            counts.clear();
            for &rank in self.rules.full_bag() {
                match counts.last_mut() {
                    Some((r, n)) if *r == rank => *n += 1,
                    _ => counts.push((rank, 1)),
                }
            }
        }
        let bonus_share = match self.rules.bonus_chance() {
            Some([num, den]) if !bonus.is_empty() && den > 0 => f64::from(num) / f64::from(den),
            _ => 0.0,
        };
        let total: f64 = counts.iter().map(|&(_, n)| f64::from(n)).sum();
        let mut chances: Vec<(Rank, f64)> = counts
            .iter()
            .filter(|&&(_, n)| n > 0)
            .map(|&(r, n)| (r, (1.0 - bonus_share) * f64::from(n) / total))
            .collect();
        if bonus_share > 0.0 {
            chances.extend(spread(bonus_share));
        }
        chances
    }

    /// The cells a spawn may take after `slide`, a slide of this state's board toward `dir`.
    pub fn spawn_cells(&self, slide: &Slide, dir: Direction) -> Vec<Cell> {
        self.rules.spawn_cells(slide, dir)
    }

    /// A state holding `board` under `rules`, for tests that need a position no seed is known to
    /// reach; `next` is the previewed rank for variants that preview.
    pub fn from_board(rules: &Rules, board: Board, next: Option<Rank>, seed: u64) -> Self {
        let won = rules.is_won(&board);
        Self {
            rules: rules.at(&rules.start_counters()),
            board,
            merged: 0,
            won,
            next: if rules.variant().preview {
                next.or(Some(1))
            } else {
                None
            },
            next_bonus: false,
            bag: Bag::default(),
            last_spawn: None,
            rng: GameRng::from_seed(seed),
            turn: 0,
            counters: rules.start_counters(),
            lost: false,
            found: Vec::new(),
            pool: start_pool(rules),
        }
    }

    /// This position with its randomness from now on drawn from `seed`: the same board, score,
    /// move number, preview and bag, but other tiles to come. Training uses it to play a
    /// position again with another future (a restart); a game never changes its generator.
    pub fn reseeded(&self, seed: u64) -> Self {
        Self {
            rng: GameRng::from_seed(seed),
            ..self.clone()
        }
    }

    /// Draws a tile for this board (see [`Rules::draw`]); with a hook's pool (DIVE's seeds),
    /// one of its seeds, each equally likely: one draw of the generator below its size.
    fn draw(&mut self) -> (Rank, bool) {
        if !self.pool.is_empty() {
            let i = self.rng.index(self.pool.len());
            return (self.pool.get(i).copied().unwrap_or(1), false);
        }
        let highest = self.board.max_rank();
        self.rules
            .draw(&mut self.bag, highest, &self.counters, &mut self.rng)
    }

    /// Puts a spawned tile at `cell`: the previewed tile, then draws the next one; or a tile
    /// drawn now.
    fn place(&mut self, cell: Cell, drawn: Option<Rank>) {
        let tile = match (drawn, self.next) {
            (Some(tile), _) => tile,
            (None, Some(next)) => next,
            (None, None) => self.draw().0,
        };
        self.board.set(cell, tile);
        self.last_spawn = Some(cell);
        if self.next.is_some() {
            let (next, bonus) = self.draw();
            self.next = Some(next);
            self.next_bonus = bonus;
        }
    }
}

impl fmt::Display for SlidingState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "score {}", self.score())?;
        if let Some(next) = self.next_card() {
            writeln!(f, "next {next}")?;
        }
        write!(f, "{}", self.rules.grid(&self.board))
    }
}

/// The pool of seeds a game of `rules` starts with: for a hook that keeps one (DIVE), the
/// spawn's tiles in ladder order; empty otherwise.
fn start_pool(rules: &Rules) -> Vec<Rank> {
    match rules.variant().hook {
        Some(Hook::Dive) => rules.spawn_weights().iter().map(|&(r, _)| r).collect(),
        None => Vec::new(),
    }
}

/// A hook's work after a slide that moved, before the spawn: DIVE's new pool of seeds from the
/// slid `board` and the pool before the move, and the points the seeds that left score.
fn hook_after_slide(rules: &Rules, board: &Board, pool: &[Rank]) -> (Vec<Rank>, u64) {
    let variant = rules.variant();
    match variant.hook {
        Some(Hook::Dive) => {
            let number = |r: Rank| variant.number(r).unwrap_or(0);
            let tiles: Vec<i64> = board.cells_with_ranks().map(|(_, r)| number(r)).collect();
            let seeds: Vec<i64> = pool.iter().map(|&r| number(r)).collect();
            let (next, scored) = crate::variant::dive_pool(&tiles, &seeds);
            let next = next
                .into_iter()
                .filter_map(|n| variant.rank_of_number(n))
                .filter(|&r| r != 0)
                .collect();
            (next, scored)
        }
        None => (pool.to_vec(), 0),
    }
}

/// Why a swipe that moved nothing is refused: the game is over when no swipe moves anything,
/// otherwise this one swipe just has no effect.
fn refusal(rules: &Rules, board: &Board, turn: u64) -> MoveError {
    if rules.can_move(board, turn) {
        MoveError::NoEffect
    } else {
        MoveError::GameOver
    }
}

impl Puzzle for Sliding {
    type Params = Variant;
    type State = SlidingState;
    type Move = Direction;

    /// The kind's standard entry is the original 2048 ([`Variant`]'s default).
    const INFO: GameInfo = GameInfo {
        id: "2048",
        title: "2048",
        description: "Slide the tiles and merge equal pairs to make a 2048 tile.",
    };

    /// A variant's names, and the format it is written in ([`crate::variant::NAME_FIELDS`]).
    const NAME_FIELDS: &'static [&'static str] = crate::variant::NAME_FIELDS;

    fn new_game(params: &Variant, seed: u64) -> Result<SlidingState, ParamsError> {
        let rules = Rules::cached(params).map_err(|e| ParamsError(e.to_string()))?;
        let board = Board::empty(params.side).map_err(|e| ParamsError(e.to_string()))?;
        let counters = rules.start_counters();
        let pool = start_pool(&rules);
        let mut state = SlidingState {
            rules,
            board,
            merged: 0,
            won: false,
            next: None,
            next_bonus: false,
            bag: Bag::default(),
            last_spawn: None,
            rng: GameRng::from_seed(seed),
            turn: 0,
            counters,
            lost: false,
            found: Vec::new(),
            pool,
        };
        match params.spawn_at {
            // Each start tile as a spawn: the tile, then a random empty cell (2048's
            // `addRandomTile`).
            SpawnAt::Anywhere => {
                for _ in 0..params.start {
                    let empty: Vec<Cell> = state.board.empty_cells().collect();
                    if empty.is_empty() {
                        break;
                    }
                    let (tile, _) = state.draw();
                    let cell = empty[state.rng.index(empty.len())];
                    state.board.set(cell, tile);
                }
            }
            // A shuffled list of every cell, dealt from the front (Threes' deal).
            SpawnAt::MovedEdge => {
                let mut cells: Vec<Cell> = state.board.empty_cells().collect();
                state.rng.shuffle(&mut cells);
                for &cell in cells.iter().take(params.start) {
                    let (tile, _) = state.draw();
                    state.board.set(cell, tile);
                }
            }
        }
        if params.preview {
            let (next, bonus) = state.draw();
            state.next = Some(next);
            state.next_bonus = bonus;
        }
        Ok(state)
    }

    fn apply(state: &SlidingState, mv: &Direction) -> Result<SlidingState, MoveError> {
        if state.lost {
            return Err(MoveError::GameOver);
        }
        let mut slide = state.rules.slide_on(&state.board, *mv, state.turn);
        if !slide.moved {
            return Err(refusal(&state.rules, &state.board, state.turn));
        }
        // The turn pipeline, in the Compendium's order: the events on the slid board, then the
        // ticks; the spawn; the lose and win tests; then the counters' new values.
        let pipeline = state.rules.has_pipeline();
        // The counters for the rest of the turn (the spawn, its `lose` and `win`), and their
        // new values.
        let (now, counters) =
            state
                .rules
                .before_spawn(&mut slide, &state.counters, state.turn, *mv);
        // A hook (DIVE's seeds) after the pipeline's ticks, before the spawn, which draws from
        // the pool it leaves.
        let (pool, hook_scored) = if state.rules.variant().hook.is_some() {
            hook_after_slide(&state.rules, &slide.board, &state.pool)
        } else {
            (Vec::new(), 0)
        };
        let side = state.board.side();
        // The state after the slide, its board the slide's (the state's own is not copied).
        let mut next = SlidingState {
            rules: state.rules.clone(),
            // The win is a tile made by the slide, measured before the spawn.
            won: state.won || state.rules.is_won(&slide.board),
            board: slide.board,
            merged: state
                .merged
                .saturating_add(slide.gained)
                .saturating_add(hook_scored),
            next: state.next,
            next_bonus: state.next_bonus,
            bag: state.bag.clone(),
            last_spawn: state.last_spawn,
            rng: state.rng.clone(),
            turn: state.turn.saturating_add(1),
            counters: now,
            lost: false,
            found: state.found.clone(),
            pool,
        };
        match state.rules.variant().spawn_at {
            SpawnAt::MovedEdge => {
                let pick = next.rng.index(slide.moved_lines.len());
                if let Some(&line) = slide.moved_lines.get(pick) {
                    // The far edge of a moved line is empty: the line moved toward the wall.
                    next.place(mv.entry_cell(side, line), None);
                }
            }
            SpawnAt::Anywhere => {
                // The empty cells in row-major order, counted, then the one drawn found.
                let count = next.board.empty_cells().count();
                if count > 0 {
                    // Without a preview the tile is drawn before the cell (2048's order).
                    let drawn = next.next.is_none().then(|| next.draw().0);
                    let pick = next.rng.index(count);
                    let cell = next.board.empty_cells().nth(pick);
                    if let Some(cell) = cell {
                        next.place(cell, drawn);
                    }
                }
            }
        }
        if pipeline {
            next.lost = next.rules.is_lost(&next.board, &now, state.turn);
            next.won = next.won || next.rules.is_won_by_test(&next.board, &now, state.turn);
            if let Some(goal) = next.rules.distinct_goal() {
                let mut found = std::mem::take(&mut next.found);
                next.rules
                    .find_distinct(&next.board, &now, state.turn, &mut found);
                next.won = next.won || found.len() >= goal;
                next.found = found;
            }
            // A loss outranks a win made on the same move (378's tile above the goal).
            if next.lost {
                next.won = state.won;
            }
            next.counters = counters;
            next.rules = next.rules.at(&counters);
        }
        Ok(next)
    }

    fn status(state: &SlidingState) -> Status {
        Status {
            won: state.won,
            over: state.lost || !state.rules.can_move(&state.board, state.turn),
        }
    }

    fn score(state: &SlidingState) -> u64 {
        state.score()
    }

    fn legal_moves(state: &SlidingState) -> Vec<Direction> {
        if state.lost {
            return Vec::new();
        }
        state
            .rules
            .moving_directions(&state.board, state.turn)
            .collect()
    }

    fn view(state: &SlidingState) -> Map<String, Value> {
        let mut map = Map::new();
        let values = state.rules.values(&state.board);
        // A labelled variant's tiles as the board shows them, beside their numbers; so too a
        // range of integers not from 1, whose values are the tiles' places in it (1429's -1),
        // and records, whose values are their places in the product or the list.
        let variant = state.rules.variant();
        let named = !variant.labels.is_empty()
            || variant.tiles.as_records().is_some()
            || variant
                .tiles
                .integer_range()
                .is_some_and(|[from, _]| from != 1);
        let shown: Option<Vec<Vec<String>>> = named.then(|| {
            values
                .iter()
                .map(|row| row.iter().map(|&v| variant.tile_text(v)).collect())
                .collect()
        });
        map.insert("board".into(), Value::from(values));
        if let Some(shown) = shown {
            map.insert("labels".into(), Value::from(shown));
        }
        if let Some(next) = state.next_card() {
            map.insert("next".into(), next.into());
        }
        let counters = &variant.pipeline.counters;
        if !counters.is_empty() {
            let values: Map<String, Value> = counters
                .iter()
                .zip(state.counters)
                .map(|(c, v)| (c.name.clone(), Value::from(v)))
                .collect();
            map.insert("counters".into(), Value::Object(values));
        }
        if let Some(goal) = state.rules.distinct_goal() {
            let found: Vec<Value> = state
                .found
                .iter()
                .map(|&r| Value::from(variant.tile_text(state.rules.value(r))))
                .collect();
            let mut d = Map::new();
            d.insert("goal".into(), Value::from(goal));
            d.insert("tiles".into(), Value::from(found));
            map.insert("found".into(), Value::Object(d));
        }
        // A hook's pool (DIVE's seeds): the tiles that may spawn next.
        if variant.hook.is_some() {
            map.insert("seeds".into(), Value::from(state.pool()));
        }
        map
    }

    fn top_tile(state: &SlidingState) -> Option<u64> {
        Some(state.rules.value(state.board.max_rank()))
    }

    fn split_moves(text: &str) -> Vec<&str> {
        crate::direction::split_moves(text)
    }

    /// Laid over `preset`'s full form field by field (as `based_on` is), then checked: old saves
    /// carry `{"side": 4}` or `{"side": 3, "win": 512}` and new ones the full form.
    fn read_params(preset: &Variant, json: &Value) -> Result<Variant, ParamsError> {
        let Value::Object(fields) = json else {
            return Err(ParamsError(format!(
                "{json} is not a variant (a JSON object)"
            )));
        };
        Variant::from_json(&overlay(preset, fields)).map_err(|e| ParamsError(e.to_string()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use proptest::prelude::*;
    use tilebox_core::Session;

    use super::*;
    use crate::builtin_variants;
    use crate::first_release::{Game2048, Game2048Params, Threes, ThreesParams};

    fn variant(id: &str) -> Variant {
        builtin_variants().into_iter().find(|v| v.id == id).unwrap()
    }

    /// A state counts its moves, and each move, its legal moves and the end of the game follow
    /// the rules of that move: 2592's pairs merge on moves 0, 2, 4 …, its triples on 1, 3, 5 ….
    #[test]
    fn each_move_is_played_by_its_own_rules() {
        let mut game = Session::<Sliding>::new(variant("2592"), 5).unwrap();
        for i in 0..40u64 {
            let state = game.state().clone();
            assert_eq!(state.turn(), i);
            let legal = Sliding::legal_moves(&state);
            let rules = state.rules();
            for dir in Direction::ALL {
                assert_eq!(
                    legal.contains(&dir),
                    rules.slide_on(state.board(), dir, i).moved,
                    "move {i} {dir:?}"
                );
            }
            let Some(&dir) = legal.first() else {
                break;
            };
            let expected = rules.slide_on(state.board(), dir, i);
            game.play(dir).unwrap();
            assert_eq!(
                game.state().score(),
                state.score() + expected.gained,
                "move {i}"
            );
        }
    }

    /// A reseeded position keeps everything but its future: the same board, score, move
    /// number, preview and bag; the same seed gives the same future, another seed another.
    #[test]
    fn a_reseeded_position_keeps_all_but_its_future() {
        for id in ["2048", "threes"] {
            let mut game = Session::<Sliding>::new(variant(id), 11).unwrap();
            for i in 0..30 {
                let legal = Sliding::legal_moves(game.state());
                let Some(&dir) = legal.get(i % 2).or(legal.first()) else {
                    break;
                };
                game.play(dir).unwrap();
            }
            let state = game.state();
            let again = state.reseeded(99);
            assert_eq!(again.to_string(), state.to_string(), "{id}");
            assert_eq!(again.score(), state.score());
            assert_eq!(again.turn(), state.turn());
            assert_eq!(again.next_card(), state.next_card());
            assert_eq!(again.bag_remaining(), state.bag_remaining());
            assert_eq!(again, state.reseeded(99), "{id}: a seed is one future");
            // Over ten moves the spawns of the two futures differ somewhere.
            let futures = |s: &SlidingState| {
                let mut s = s.clone();
                let mut boards = Vec::new();
                for _ in 0..10 {
                    let Some(&dir) = Sliding::legal_moves(&s).first() else {
                        break;
                    };
                    s = Sliding::apply(&s, &dir).unwrap();
                    boards.push(s.to_string());
                }
                boards
            };
            assert_ne!(futures(&again), futures(&state.reseeded(100)), "{id}");
        }
    }

    /// Plays `moves` from `seed` in the first release's kind `P` and in `Sliding` with `v`,
    /// checking that every state reads the same: text, view, score, status, legal moves.
    fn same_games<P: Puzzle<Move = Direction>>(
        params: &P::Params,
        v: &Variant,
        seed: u64,
        moves: &[Direction],
    ) {
        let mut old = P::new_game(params, seed).unwrap();
        let mut new = Sliding::new_game(v, seed).unwrap();
        for (i, mv) in moves.iter().enumerate() {
            assert_eq!(
                old.to_string(),
                new.to_string(),
                "{} seed {seed} move {i}",
                v.id
            );
            assert_eq!(P::view(&old), Sliding::view(&new));
            assert_eq!(P::score(&old), Sliding::score(&new));
            assert_eq!(P::status(&old), Sliding::status(&new));
            assert_eq!(P::legal_moves(&old), Sliding::legal_moves(&new));
            match (P::apply(&old, mv), Sliding::apply(&new, mv)) {
                (Ok(a), Ok(b)) => {
                    old = a;
                    new = b;
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!("{} seed {seed} move {i}: {a:?} vs {b:?}", v.id),
            }
        }
        assert_eq!(old.to_string(), new.to_string());
    }

    fn moves(seed: u64, n: usize) -> Vec<Direction> {
        let mut rng = GameRng::from_seed(seed ^ 0xabcdef);
        (0..n).map(|_| Direction::ALL[rng.index(4)]).collect()
    }

    #[test]
    fn the_2048_variants_play_the_first_releases_games() {
        for (id, side, win) in [
            ("2048", 4, 2048),
            ("2048-3x3", 3, 512),
            ("2048-5x5", 5, 2048),
            ("2048-6x6", 6, 2048),
            ("2048-8x8", 8, 2048),
        ] {
            let v = variant(id);
            for seed in 0..40 {
                same_games::<Game2048>(&Game2048Params { side, win }, &v, seed, &moves(seed, 400));
            }
        }
    }

    #[test]
    fn threes_plays_the_first_releases_games() {
        let v = variant("threes");
        for seed in 0..200 {
            same_games::<Threes>(&ThreesParams { side: 4 }, &v, seed, &moves(seed, 600));
        }
    }

    /// A small game of the turn pipeline on a ladder of triangular numbers (ladder positions
    /// merge: 1 + 1 makes 3, 3 + 3 makes 6, 6 + 6 makes 10): 378's goal that vanishes and
    /// advances, and a tile above it losing.
    fn goal_game() -> Variant {
        Variant::from_text(
            r#"{"format": 3, "id": "goals", "title": "Goals", "description": "d", "side": 4,
                "tiles": [1, 3, 6, 10, 15, 21, 28, 36, 45, 55],
                "merges": [{"tiles": [1, 1], "makes": 2}, {"tiles": [2, 2], "makes": 3},
                           {"tiles": [3, 3], "makes": 4}],
                "motion": "slide", "spawn": {"weights": {"1": 9, "3": 1}},
                "spawn_at": "anywhere", "start": 2, "preview": false, "win": null,
                "score": "merges",
                "counters": {"g": {"start": 3, "values": [3, 10]}},
                "events": [{"if": "any(a = tri(g))", "then": {"g": "g + 1"}}],
                "tick": [{"when": ["a = tri(g)"], "makes": null}],
                "lose": "any(a > tri(g))",
                "win": {"when": "g = 5"}}"#,
        )
        .unwrap()
    }

    #[test]
    fn the_pipeline_runs_events_then_ticks_then_the_spawn_then_lose_and_win_then_counters() {
        let v = goal_game();
        let rules = Rules::new(&v).unwrap();
        let board = |rows: &[Vec<u64>]| rules.board_from_values(rows).unwrap();
        // 3 + 3 makes the goal 6 (g = 3): it scores, vanishes, and the goal becomes 10.
        let start = SlidingState::from_board(
            &rules,
            board(&[vec![3, 3, 0, 0], vec![0; 4], vec![0; 4], vec![0; 4]]),
            None,
            7,
        );
        assert_eq!(start.counters(), [3, 0, 0, 0]);
        let next = Sliding::apply(&start, &Direction::Left).unwrap();
        assert_eq!(next.counters(), [4, 0, 0, 0]);
        assert_eq!(next.score(), 6);
        assert_eq!(next.board().tile_count(), 1, "the 6 vanished; one spawn");
        assert!(!next.lost() && !next.won());
        // A 10 with the goal 6 loses: over, and no move is played.
        let above = SlidingState::from_board(
            &rules,
            board(&[vec![10, 0, 0, 1], vec![0; 4], vec![0; 4], vec![0; 4]]),
            None,
            7,
        );
        let lost = Sliding::apply(&above, &Direction::Left).unwrap();
        assert!(lost.lost());
        assert!(Sliding::status(&lost).over);
        assert!(Sliding::legal_moves(&lost).is_empty());
        assert_eq!(
            Sliding::apply(&lost, &Direction::Right),
            Err(MoveError::GameOver)
        );
        // The win reads the counters as they were before the move: g = 5 wins on the move
        // after the one that made it 5.
        let at_4 = SlidingState::from_board(
            &rules,
            board(&[vec![1, 0, 0, 1], vec![10, 0, 0, 0], vec![0; 4], vec![0; 4]]),
            None,
            7,
        )
        .with_counters([4, 0, 0, 0]);
        let at_5 = Sliding::apply(&at_4, &Direction::Right).unwrap();
        assert_eq!((at_5.counters()[0], at_5.won()), (5, false));
        assert_eq!(
            at_5.board().tile_count(),
            2,
            "the 10 vanished, 1 + 1 made 3, one spawn"
        );
        let moved = Sliding::legal_moves(&at_5)[0];
        assert!(Sliding::apply(&at_5, &moved).unwrap().won());
        // A counter is held within its values.
        assert_eq!(at_4.with_counters([99, 0, 0, 0]).counters(), [10, 0, 0, 0]);
        assert_eq!(
            Sliding::view(&at_5)["counters"],
            serde_json::json!({"g": 5})
        );
    }

    /// Merge rules that read a counter, a counter raised tile by tile (`each_tile`) and one
    /// changed at once (`at_once`), which the move's own win reads.
    fn counter_game() -> Variant {
        Variant::from_text(
            r#"{"format": 3, "id": "ks", "title": "Ks", "description": "d", "side": 4,
                "tiles": {"integers": [1, 100]},
                "merges": [{"tiles": ["a", "b"], "when": ["a = b", "a < k"], "makes": "a + b"}],
                "motion": "slide", "spawn": {"weights": {"1": 1}},
                "spawn_at": "anywhere", "start": 2, "preview": false, "score": "merges",
                "counters": {"k": {"start": 3, "values": [3, 9]}, "w": {"start": 0, "values": [0, 1]}},
                "events": [{"if": "any(a >= k)", "then": {"k": "k + 1"}, "each_tile": true},
                           {"if": "any(a = 8)", "then": {"w": "1"}, "at_once": true}],
                "win": {"when": "w = 1"}}"#,
        )
        .unwrap()
    }

    #[test]
    fn merge_rules_read_the_counters_and_events_run_tile_by_tile_or_at_once() {
        let v = counter_game();
        let rules = Rules::new(&v).unwrap();
        assert!(rules.has_counter_merges());
        let board = |rows: &[Vec<u64>]| rules.board_from_values(rows).unwrap();
        let start = SlidingState::from_board(
            &rules,
            board(&[vec![2, 2, 4, 4], vec![0; 4], vec![0; 4], vec![0; 4]]),
            None,
            7,
        );
        // With k = 3 the 2s merge (2 < 3) and the 4s do not; then each 4 at least k raises it,
        // the second reading the first rise (4 >= 4) and the third not (4 < 5).
        let next = Sliding::apply(&start, &Direction::Left).unwrap();
        assert_eq!(next.counters(), [5, 0, 0, 0]);
        assert_eq!(&rules.values(next.board())[0][..3], &[4, 4, 4]);
        // The next move's rules read k = 5: the 4s merge now, as the state's rules say.
        assert_eq!(next.rules().merge_counters(), [5, 0, 0, 0]);
        let row = board(&[vec![4, 4, 0, 0], vec![0; 4], vec![0; 4], vec![0; 4]]);
        assert!(!rules.slide(&row, Direction::Left).moved);
        assert_eq!(
            rules
                .at(&next.counters())
                .slide(&row, Direction::Left)
                .gained,
            8
        );
        // The 8 made wins on its own move: w changes at once, and the win reads it.
        let eights = next.with_counters([5, 0, 0, 0]);
        let won = Sliding::apply(&eights, &Direction::Left).unwrap();
        assert!(won.won());
        assert_eq!(won.counters()[1], 1);
        // The order the move took the tiles: nearest the wall first.
        let order = |d| {
            crate::move_order(d, 3)
                .map(|c| (c.row, c.col))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            &order(Direction::Up)[..4],
            &[(0, 2), (0, 1), (0, 0), (1, 2)]
        );
        assert_eq!(
            &order(Direction::Down)[..4],
            &[(2, 0), (2, 1), (2, 2), (1, 0)]
        );
        assert_eq!(
            &order(Direction::Left)[..4],
            &[(0, 0), (1, 0), (2, 0), (0, 1)]
        );
        assert_eq!(
            &order(Direction::Right)[..4],
            &[(2, 2), (1, 2), (0, 2), (2, 1)]
        );
    }

    /// A game of `v` from `seed`, `moves` random moves long: saved, loaded back the same (its
    /// counters, its pool and the rest of its state), and undone move by move to each state it
    /// passed. Its last state, as loaded.
    pub(crate) fn saves_and_undo_round_trip(v: &Variant, seed: u64, moves: usize) -> SlidingState {
        let mut session = Session::<Sliding>::new(v.clone(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        let mut seen = Vec::new();
        for _ in 0..moves {
            let legal = Sliding::legal_moves(session.state());
            if legal.is_empty() {
                break;
            }
            seen.push(session.state().clone());
            session.play(legal[rng.index(legal.len())]).unwrap();
        }
        let text = serde_json::to_string(&session.save()).unwrap();
        let saved = tilebox_core::SavedGame::from_json(&text).unwrap();
        let loaded = Session::<Sliding>::load(&saved).unwrap();
        assert_eq!(loaded.state(), session.state(), "seed {seed}");
        assert_eq!(loaded.state().counters(), session.state().counters());
        assert_eq!(loaded.state().pool(), session.state().pool());
        let last = loaded.state().clone();
        for before in seen.iter().rev() {
            assert!(session.undo());
            assert_eq!(session.state(), before);
        }
        last
    }

    #[test]
    fn saves_replays_and_undo_carry_the_counters() {
        let v = goal_game();
        for seed in 0..20 {
            saves_and_undo_round_trip(&v, seed, 60);
        }
        // Some game reaches a later goal.
        let mut reached = false;
        for seed in 0..50 {
            let mut state = Sliding::new_game(&v, seed).unwrap();
            for mv in moves(seed, 300) {
                if let Ok(next) = Sliding::apply(&state, &mv) {
                    state = next;
                }
            }
            reached |= state.counters()[0] > 3;
        }
        assert!(reached);
    }

    /// A small game of `made`, `draw` and a `distinct` win: tiles are bit masks, two sharing a
    /// bit make twice their common bits (Wildcard 2048's rule), the counter g is the top bit of
    /// any tile made, a tenth of the spawns come from 1 to 2^g - 1, and two different tiles of 4
    /// or more win.
    fn masks_game() -> Variant {
        Variant::from_text(
            r#"{"format": 3, "id": "masks", "title": "Masks", "description": "d", "side": 4,
                "tiles": {"integers": [1, 65535]},
                "merges": [{"tiles": ["a", "b"], "when": ["band(a, b) > 0"],
                            "makes": "2 * band(a, b)"}],
                "motion": "slide", "spawn": {"weights": {"1": 8, "2": 1}},
                "spawn_at": "anywhere", "start": 2, "preview": false, "score": "merges",
                "counters": {"g": {"start": 1, "values": [1, 15]}},
                "made": {"g": "max(g, highbit(a))"},
                "draw": {"weight": 1, "from": "1", "to": "pow(2, g) - 1", "each": "a"},
                "win": {"distinct": 2, "when": "a >= 4"}}"#,
        )
        .unwrap()
    }

    #[test]
    fn made_sets_the_counters_at_once_the_draw_reads_them_and_distinct_tiles_win() {
        let v = masks_game();
        let rules = Rules::new(&v).unwrap();
        let board = |rows: &[Vec<u64>]| rules.board_from_values(rows).unwrap();
        let start = SlidingState::from_board(
            &rules,
            board(&[
                vec![2, 2, 0, 0],
                vec![12, 4, 0, 0],
                vec![0, 0, 0, 0],
                vec![0, 0, 0, 0],
            ]),
            None,
            1,
        );
        assert_eq!(start.counters(), [1, 0, 0, 0]);
        // At g = 1 the draw gives 1 alone: 9 of 10 for 1, 1 of 10 for 2.
        let chances = start.spawn_chances();
        assert_eq!(chances.len(), 2);
        assert!((chances[0].1 - 0.9).abs() < 1e-9, "{chances:?}");
        let next = Sliding::apply(&start, &Direction::Left).unwrap();
        // 2 + 2 makes 4 (top bit 2) and 12 + 4 makes 8 (top bit 3): g is 3, and the draw gives
        // 1 to 7 by weight a.
        assert_eq!(next.counters(), [3, 0, 0, 0]);
        let chances = next.spawn_chances();
        assert_eq!(chances.len(), 7);
        let seven = chances
            .iter()
            .find(|&&(r, _)| rules.value(r) == 7)
            .unwrap()
            .1;
        assert!((seven - 0.1 * 7.0 / 28.0).abs() < 1e-9, "{chances:?}");
        // 4 and 8: two different tiles of 4 or more, so the game is won.
        assert_eq!(next.found().len(), 2);
        assert!(next.won());
        assert_eq!(
            Sliding::view(&next)["found"],
            serde_json::json!({"goal": 2, "tiles": ["4", "8"]})
        );
        // One is not enough.
        let one = SlidingState::from_board(
            &rules,
            board(&[vec![2, 2, 0, 0], vec![0; 4], vec![0; 4], vec![0; 4]]),
            None,
            1,
        );
        let after = Sliding::apply(&one, &Direction::Left).unwrap();
        assert_eq!(
            (after.found().len(), after.won(), after.counters()[0]),
            (1, false, 2)
        );
        // The draw's tiles come: over many games, some tile above 2 spawns.
        let mut drawn = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let mut state = Sliding::new_game(&v, seed).unwrap();
            for mv in moves(seed, 60) {
                if let Ok(n) = Sliding::apply(&state, &mv) {
                    if let Some(cell) = n.last_spawn() {
                        drawn.insert(rules.value(n.board().rank(cell)));
                    }
                    state = n;
                }
            }
            // Saves and replays carry the counters and the tiles found.
            let mut session = Session::<Sliding>::new(v.clone(), seed).unwrap();
            for mv in moves(seed, 30) {
                let _ = session.play(mv);
            }
            let text = serde_json::to_string(&session.save()).unwrap();
            let saved = tilebox_core::SavedGame::from_json(&text).unwrap();
            let loaded = Session::<Sliding>::load(&saved).unwrap();
            assert_eq!(loaded.state(), session.state(), "seed {seed}");
        }
        assert!(drawn.iter().any(|&x| x > 2), "{drawn:?}");
    }

    #[test]
    fn a_draw_goes_with_weights_only() {
        let mut text = serde_json::to_value(masks_game()).unwrap();
        text["spawn"] = serde_json::json!({"bag": {"1": 2}});
        let err = Variant::from_json(text.as_object().unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("draw: a draw goes with spawn's weights"),
            "{err}"
        );
    }

    #[test]
    fn a_variant_without_a_pipeline_keeps_no_counters_and_writes_no_pipeline() {
        for v in crate::builtin_variants() {
            if v.pipeline.is_empty() {
                let state = Sliding::new_game(&v, 1).unwrap();
                assert_eq!(state.counters(), [0; 4]);
                let json = v.to_json();
                for field in crate::variant::PIPELINE_FIELDS {
                    assert!(json.get(field).is_none(), "{}: {field}", v.id);
                }
            }
        }
        let goals = goal_game();
        let json = goals.to_json();
        assert_eq!(json["win"], serde_json::json!({"when": "g = 5"}));
        assert_eq!(json["lose"], "any(a > tri(g))");
        let back = Variant::from_json(json.as_object().unwrap()).unwrap();
        assert_eq!(back, goals);
        assert_eq!(back.pipeline.counters, goals.pipeline.counters);
    }

    #[test]
    fn old_saves_params_read_over_the_preset() {
        let t = variant("threes");
        let p = Sliding::read_params(&t, &serde_json::json!({ "side": 4 })).unwrap();
        assert_eq!(p, t);
        let v = variant("2048");
        let p = Sliding::read_params(&v, &serde_json::json!({ "side": 3, "win": 512 })).unwrap();
        assert_eq!(
            (p.side, p.win.lowest(), p.id.as_str()),
            (3, Some(512), "2048")
        );
        assert!(Sliding::read_params(&v, &serde_json::json!({ "side": 9 })).is_err());
        assert!(Sliding::read_params(&v, &serde_json::json!({ "bonus": 1 })).is_err());
        assert!(Sliding::read_params(&v, &serde_json::json!(4)).is_err());
        // A full form reads as itself, whatever the preset.
        let full = t.to_json();
        assert_eq!(Sliding::read_params(&v, &full).unwrap(), t);
    }

    #[test]
    fn the_doc_examples_of_1024() {
        let rules = Rules::new(&variant("1024")).unwrap();
        let row = |vals: &[u64]| {
            let mut rows = vec![vec![0; 5]; 5];
            rows[0] = vals.to_vec();
            rules.board_from_values(&rows).unwrap()
        };
        let slid = rules.slide(&row(&[1, 1, 1, 1, 0]), Direction::Left);
        assert_eq!(rules.values(&slid.board)[0], [3, 1, 0, 0, 0]);
        assert_eq!(slid.gained, 3);
        let slid = rules.slide(&row(&[1, 3, 1, 1, 0]), Direction::Left);
        assert_eq!(rules.values(&slid.board)[0], [4, 1, 1, 0, 0]);
        assert_eq!(slid.gained, 4);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn random_play_of_every_builtin_keeps_its_rules(
            which in any::<prop::sample::Index>(),
            seed in any::<u64>(),
            dirs in proptest::collection::vec(0usize..4, 0..150),
        ) {
            // Any built-in, however many there are.
            let all = builtin_variants();
            let v = all[which.index(all.len())].clone();
            let mut session = Session::<Sliding>::new(v.clone(), seed).unwrap();
            let mut played = Vec::new();
            for i in dirs {
                let before = session.state().clone();
                let mv = Direction::ALL[i];
                if session.play(mv).is_ok() {
                    played.push(mv);
                    let after = session.state();
                    prop_assert!(after.score() >= before.score());
                    prop_assert!(after.board().cells_with_ranks().all(|(_, r)| r <= after.rules().max_rank()));
                    prop_assert!(after.won() || !before.won());
                }
            }
            let replay = Session::<Sliding>::replay(v, seed, played).unwrap();
            prop_assert_eq!(replay.state(), session.state());
        }
    }
}
