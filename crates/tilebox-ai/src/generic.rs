//! A player for any sliding variant: expectimax over boards of any side (2 to 8) and any ladder,
//! with the rules brought by a [`SlidingModel`].
//!
//! The bitboard players ([`crate::Engine`]) are faster but know only 4×4 2048 and Threes. This
//! one asks the model for the line rule (each distinct line is moved once a search and then
//! read from a cache), where the next tile may land and what it may be, and which tiles merge;
//! everything else is shared with them: [`Limits`], [`Advice`], the transposition table, the
//! probability cut-off and iterative deepening under a time budget. On top of that it
//! - samples the spawn cells when a move leaves more than [`Options::max_spawn_cells`] of
//!   them (big boards), spread evenly over the empty cells, so that a search two moves deep
//!   stays affordable on an 8×8 board;
//! - caps the depth in timed searches by how much is going on ([`Options::depth_cap`]): an
//!   open board early in a game is decided in a few plies, and the budget is not burnt on it;
//! - answers at once when only one move is legal.
//!
//! Its heuristic ([`eval`]) works for any ladder and merge rule: it reads tiles by their
//! *level* (`1 + log2(value / lowest value)`, so 2048's levels are its ranks and every ladder
//! has the same scale), and scores empty cells, mergeable neighbours (the model's own rule),
//! monotonicity of every row and column, the sum of the levels, and a penalty when the largest
//! tile leaves the corners.
//!
//! Pure and single-threaded, like the rest of the crate; it never panics on any board or model
//! answer, and returns `None` only when no move changes the board.

pub mod eval;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;

use tilebox_sliding::variant::Counters;
use tilebox_sliding::{Board, Cell, Direction, Rank};

use crate::network::{self, PlayNetwork};
use crate::search::{Deepening, RootValues, Stopper, advice, deepen};
use crate::table::{Entry, MAX_TABLE_DEPTH, TransTable};
use crate::{Advice, Limits};

pub use eval::Weights;

/// The most cells a board has (8×8).
pub const MAX_CELLS: usize = 64;

/// The highest rank a cell holds (ranks 1 to 255; 0 is an empty cell).
pub const MAX_RANK: u8 = u8::MAX;

/// An engine's rank as this player holds it, in a byte: a ladder's rules are tables of at most
/// 255 tiles, so every rank of such a game fits (one that does not reads as [`MAX_RANK`]).
pub fn grid_rank(rank: Rank) -> u8 {
    u8::try_from(rank).unwrap_or(MAX_RANK)
}

const _: () = assert!(tilebox_sliding::variant::MAX_TILES <= MAX_RANK as usize);

/// Where the next tile may land after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpawnAt {
    /// Any empty cell, all alike (2048).
    Anywhere,
    /// The far edge (opposite the swipe) of a line that moved, all such lines alike (Threes).
    MovedEdge,
}

/// The rules of a sliding variant, as the generic player needs them. Tiles are ranks: 1 is the
/// lowest tile of the ladder, 0 an empty cell.
pub trait SlidingModel {
    /// Moves one line: `line` holds the ranks from the wall outward and is changed in place.
    /// A line that comes back unchanged did not move.
    fn slide_line(&self, line: &mut [u8]);

    /// [`SlidingModel::slide_line`], returning the points the move earned (as the variant
    /// scores them; a learned evaluation adds them up along a line of play). By default 0:
    /// the heuristic does not count points.
    fn slide_line_scored(&self, line: &mut [u8]) -> u64 {
        self.slide_line(line);
        0
    }

    /// Where the next tile may land.
    fn spawn_at(&self) -> SpawnAt;

    /// The next tile's distribution as the current state knows it, `(rank, probability)`: the
    /// preview when the game shows one (one rank with probability 1, or the ranks a bonus may
    /// be), a bag's remaining tiles, or the spawn weights. Probabilities are normalised by the
    /// player; rank 0 (no tile) is ignored.
    fn next_tiles(&self) -> Vec<(u8, f64)>;

    /// The distribution of the tiles after the next one (deeper in the search), by default
    /// the same as [`SlidingModel::next_tiles`].
    fn later_tiles(&self) -> Vec<(u8, f64)> {
        self.next_tiles()
    }

    /// Whether tiles `a` and `b`, side by side in this order from the wall, can merge or take
    /// part in a merge together (for the heuristic only).
    fn merges_with(&self, a: u8, b: u8) -> bool;

    /// The value of a tile of this rank (for the heuristic's scale only).
    fn value(&self, rank: u8) -> u64;

    /// How many sets of rules the moves of a search play by: 1 (the default) where every move
    /// plays alike; more where rules hold on some moves or directions only (2592's pairs and
    /// triples on alternate moves), each a line rule of its own ([`SlidingModel::slide_line_in`]).
    fn phases(&self) -> usize {
        1
    }

    /// The set of rules, below [`SlidingModel::phases`], of the move `ahead` moves after the
    /// searched position's own (0: that move) toward direction `d` (in [`Direction::ALL`]
    /// order).
    fn phase(&self, ahead: u32, d: usize) -> usize {
        let _ = (ahead, d);
        0
    }

    /// [`SlidingModel::slide_line_scored`] by the rules of `phase`; set 0 is the model's own
    /// line rule.
    fn slide_line_in(&self, phase: usize, line: &mut [u8]) -> u64 {
        let _ = phase;
        self.slide_line_scored(line)
    }

    /// [`SlidingModel::line_rule_key`] of the rules of `phase` (set 0 is the model's own).
    fn phase_key(&self, phase: usize) -> Option<u64> {
        if phase == 0 {
            self.line_rule_key()
        } else {
            None
        }
    }

    /// The turn pipeline after a slide (format 3's one-tile rules, then its `lose`), on `grid`
    /// in place: whether the position is then lost. By default nothing happens.
    fn after_slide(&self, grid: &mut Grid) -> bool {
        let _ = grid;
        false
    }

    /// A key of what the search reads besides the board (a pipeline's counters), mixed into
    /// the transposition key; 0 by default.
    fn state_key(&self) -> u64 {
        0
    }

    /// The counters of the searched position, where the search carries them from node to node
    /// (a turn pipeline's, format 3): every move of the search is then played by
    /// [`SlidingModel::slide_counted`] with the counters of its node, each spawn drawn by
    /// [`SlidingModel::tiles_with`] with the counters its move left, and the counters are part
    /// of every node's transposition key. `None` (the default): the search carries nothing
    /// but the board.
    fn counters(&self) -> Option<Counters> {
        None
    }

    /// The move toward `d` (in [`Direction::ALL`] order), `ahead` moves after the searched
    /// position's own (0), of `grid` whose counters are `counters`: the slide, the turn
    /// pipeline before the spawn and its `lose`, as the engine plays them. `None` when nothing
    /// moved, and by default (a model whose [`SlidingModel::counters`] are `None`).
    fn slide_counted(
        &self,
        grid: &Grid,
        d: usize,
        ahead: u32,
        counters: &Counters,
    ) -> Option<CountedMove> {
        let _ = (grid, d, ahead, counters);
        None
    }

    /// Where the search carries counters: whether it may move the lines itself, each line once
    /// for each state of the counters the merge rules read ([`SlidingModel::line_key_with`],
    /// [`SlidingModel::slide_line_with`]), and leave the rest of the move to
    /// [`SlidingModel::after_counted`]. False (the default): every move is
    /// [`SlidingModel::slide_counted`].
    fn lines_with_counters(&self) -> bool {
        false
    }

    /// A key of the line rule with `counters`: equal keys move every line alike.
    fn line_key_with(&self, counters: &Counters) -> u64 {
        let _ = counters;
        0
    }

    /// [`SlidingModel::slide_line_scored`] by the rules of `counters`, and the places of the
    /// tiles its merges made (from the wall, a bit each; `made` reads them); `None` when the
    /// move makes a tile the model numbers only approximately (the search then plays the whole
    /// move by [`SlidingModel::slide_counted`], whose pipeline reads the tile made).
    fn slide_line_with(&self, counters: &Counters, line: &mut [u8]) -> Option<(u64, u8)> {
        let _ = counters;
        Some((self.slide_line_scored(line), 0))
    }

    /// The counters after a merge of the move `ahead` moves after the searched position's
    /// made the tile `code` with `counters` (the pipeline's `made`, tile by tile in the move's
    /// order: line by line from the first, each from the wall). The counters as they are by
    /// default.
    fn made_with(&self, counters: &Counters, code: u8, ahead: u32) -> Counters {
        let _ = (code, ahead);
        *counters
    }

    /// The rest of [`SlidingModel::slide_counted`] on `grid` just slid toward `d` (the lines by
    /// [`SlidingModel::slide_line_with`]), in place: whether `lose` holds, and the counters
    /// for the rest of the turn and at its end. `None` by default.
    fn after_counted(
        &self,
        grid: &mut Grid,
        d: usize,
        ahead: u32,
        counters: &Counters,
    ) -> Option<(bool, Counters, Counters)> {
        let _ = (grid, d, ahead, counters);
        None
    }

    /// The next tile's distribution after a move that left `counters` for the rest of its
    /// turn (`first`: the searched position's own move, whose next tile the state may show),
    /// where the search carries counters. By default [`SlidingModel::next_tiles`] or
    /// [`SlidingModel::later_tiles`].
    fn tiles_with(&self, counters: &Counters, first: bool) -> Vec<(u8, f64)> {
        let _ = counters;
        if first {
            self.next_tiles()
        } else {
            self.later_tiles()
        }
    }

    /// This player's rank of an engine rank: the same number, as a byte, for a ladder (255
    /// tiles at most); for a range of integers, the model's own numbering of the tiles a
    /// search can meet ([`crate::sliding::VariantModel`]).
    fn grid_rank(&self, rank: Rank) -> u8 {
        grid_rank(rank)
    }

    /// A key of the line rule ([`SlidingModel::slide_line`]): a model giving the same key as
    /// the one before on a board of the same side lets the engine keep the lines it moved
    /// between searches. `None` (the default): every search starts afresh.
    fn line_rule_key(&self) -> Option<u64> {
        None
    }
}

/// A move of a search that carries counters ([`SlidingModel::slide_counted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountedMove {
    /// The grid after the slide and the turn pipeline's one-tile rules, before the spawn.
    pub grid: Grid,
    /// The lines that moved, a bit per line ([`Direction::cell`]).
    pub moved: u8,
    /// The points the move earned.
    pub gained: u64,
    /// Whether the pipeline's `lose` holds after the move.
    pub lost: bool,
    /// The counters for the rest of the move's turn: the spawn reads them.
    pub now: Counters,
    /// The counters at the turn's end: the next move plays by them.
    pub next: Counters,
}

/// A board of ranks for the search: any side from 2 to 8, copied by value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    side: u8,
    /// Row-major, `side * side` used; the rest stays 0.
    cells: [u8; MAX_CELLS],
}

impl Grid {
    /// Every cell's rank replaced by `map[rank]` (empty cells stay empty).
    pub(crate) fn map_cells(&mut self, map: &[u8; 256]) {
        for cell in self.cells.iter_mut().filter(|c| **c != 0) {
            *cell = map[usize::from(*cell)];
        }
    }

    /// Whether some tile's rank is one `flag` marks.
    pub(crate) fn any_cell(&self, flag: &[bool; 256]) -> bool {
        self.cells.iter().any(|&c| c != 0 && flag[usize::from(c)])
    }

    /// The ranks of an engine board.
    pub fn from_board(board: &Board) -> Grid {
        Self::from_board_by(board, grid_rank)
    }

    /// The ranks of an engine board, each as `rank` gives it ([`SlidingModel::grid_rank`]).
    pub fn from_board_by(board: &Board, rank: impl Fn(Rank) -> u8) -> Grid {
        let side = board.side().clamp(Board::MIN_SIDE, Board::MAX_SIDE);
        let mut cells = [0; MAX_CELLS];
        for (cell, r) in board.cells_with_ranks() {
            if cell.row < side && cell.col < side {
                cells[cell.row * side + cell.col] = rank(r);
            }
        }
        Grid {
            side: side as u8,
            cells,
        }
    }

    /// A grid from rows of ranks; `None` unless it is square with a side of 2 to 8.
    pub fn from_ranks(rows: &[Vec<u8>]) -> Option<Grid> {
        let side = rows.len();
        if !(Board::MIN_SIDE..=Board::MAX_SIDE).contains(&side) {
            return None;
        }
        let mut cells = [0; MAX_CELLS];
        for (r, row) in rows.iter().enumerate() {
            if row.len() != side {
                return None;
            }
            for (c, &rank) in row.iter().enumerate() {
                cells[r * side + c] = rank;
            }
        }
        Some(Grid {
            side: side as u8,
            cells,
        })
    }

    /// Rows and columns.
    pub fn side(&self) -> usize {
        usize::from(self.side)
    }

    /// The rank at `cell`, 0 when empty or off the grid.
    pub fn rank(&self, cell: Cell) -> u8 {
        let side = self.side();
        if cell.row < side && cell.col < side {
            self.cells[cell.row * side + cell.col]
        } else {
            0
        }
    }

    /// The ranks row by row.
    pub fn rows(&self) -> Vec<Vec<u8>> {
        let side = self.side();
        self.cells[..side * side]
            .chunks(side)
            .map(<[u8]>::to_vec)
            .collect()
    }

    /// The highest rank on the grid.
    pub fn max_rank(&self) -> u8 {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// The grid with `rank` put at `cell` (unchanged if the cell is off the grid).
    pub fn with(&self, cell: Cell, rank: u8) -> Grid {
        let side = self.side();
        let mut out = *self;
        if cell.row < side && cell.col < side {
            out.cells[cell.row * side + cell.col] = rank;
        }
        out
    }

    /// The grid after the swipe `dir` under `model`'s line rule (of the searched position's own
    /// move toward `dir`, [`SlidingModel::phase`]), with the lines that moved (a bit per line,
    /// see [`Direction::cell`]); `None` when nothing moved.
    pub fn slide<M: SlidingModel + ?Sized>(&self, model: &M, dir: Direction) -> Option<(Grid, u8)> {
        let lines = LineIndex::new(self.side());
        let mut cache = LineCache::default();
        let d = dir_index(dir);
        let phase = model.phase(0, d);
        slide_grid(self, &lines, d, &mut |key| {
            line_move(model, phase, self.side(), &mut cache, key)
        })
        .map(|(grid, moved, _)| (grid, moved))
    }

    /// The cells where the next tile may land after the swipe `dir` made `after`, moving the
    /// lines in `moved` (a bit per line).
    pub fn spawn_cells(&self, spawn_at: SpawnAt, dir: Direction, moved: u8) -> Vec<Cell> {
        let side = self.side();
        let lines = LineIndex::new(side);
        let mut buf = [0u8; MAX_CELLS];
        let n = spawn_cells(self, &lines, spawn_at, dir_index(dir), moved, &mut buf);
        buf[..n]
            .iter()
            .map(|&i| Cell::new(usize::from(i) / side, usize::from(i) % side))
            .collect()
    }

    /// The grid packed for an n-tuple network ([`crate::ntuple::pack`]): 4 bits a cell, ranks
    /// clamped at 15, for the first 16 cells row-major (the whole of a 4×4 grid).
    pub(crate) fn packed(&self) -> u64 {
        let side = self.side();
        let mut packed = 0u64;
        for (i, &rank) in self.cells[..side * side].iter().take(16).enumerate() {
            packed |= u64::from(rank.min(15)) << (4 * i);
        }
        packed
    }

    /// A 64-bit key of the position for the transposition table.
    fn key(&self) -> u64 {
        let mut h = u64::from(self.side).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for chunk in self.cells.chunks_exact(8) {
            let mut word = 0u64;
            for (i, &b) in chunk.iter().enumerate() {
                word |= u64::from(b) << (8 * i);
            }
            h = (h ^ word).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            h ^= h >> 32;
        }
        h
    }
}

/// A learned evaluation for the search ([`GenericEngine::advise_learned`]): an n-tuple network
/// of a 4×4 variant, and the preview classes ([`crate::ntuple::preview_class`]) its afterstates
/// are valued with.
#[derive(Debug, Clone)]
pub struct Learned {
    /// The network.
    pub network: Arc<PlayNetwork>,
    /// The preview class after a move from the root (the state's preview).
    pub first: u8,
    /// The preview class deeper in the search (0 where nothing is previewed).
    pub later: u8,
}

/// How the generic player searches, beside [`Limits`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// The most spawn cells a chance node looks at; more are sampled down to this many.
    pub max_spawn_cells: usize,
    /// In timed searches, the deepest search in plies is this plus twice the number of
    /// distinct ranks on the board (and at most [`Limits::max_depth`]).
    pub depth_cap: u32,
    /// The heuristic's weights.
    pub weights: Weights,
}

impl Options {
    /// The defaults for a board of this side.
    pub fn for_side(side: usize) -> Options {
        Options {
            max_spawn_cells: match side {
                0..=4 => 16,
                5 => 10,
                _ => 8,
            },
            depth_cap: 0,
            weights: Weights::DEFAULT,
        }
    }
}

/// The generic player. It keeps its transposition table and caches between searches (to save
/// allocating them); its advice does not depend on earlier searches.
#[derive(Debug, Clone)]
pub struct GenericEngine {
    tt: TransTable,
    /// The moved lines of each set of rules ([`SlidingModel::phases`]).
    lines: Vec<LineCache>,
    evals: HashMap<u64, f32, BuildHasherDefault<KeyHasher>>,
    /// For each cache of `lines`, the line rule's key and the side its lines were moved for.
    lines_for: Vec<Option<(u64, usize)>>,
    /// `None`: [`Options::for_side`] of the board searched.
    options: Option<Options>,
}

impl Default for GenericEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl GenericEngine {
    /// An engine with a 2^20-slot (16 MiB) transposition table.
    pub fn new() -> Self {
        Self::with_table_bits(20)
    }

    /// An engine with a `2^bits`-slot transposition table (16 bytes a slot; `bits` is clamped
    /// to 10..=26).
    pub fn with_table_bits(bits: u32) -> Self {
        Self {
            tt: TransTable::new(bits),
            lines: Vec::new(),
            evals: HashMap::default(),
            lines_for: Vec::new(),
            options: None,
        }
    }

    /// The same engine searching with these options on every board.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = Some(options);
        self
    }

    /// The best move on `board` under `model`'s rules within `limits`; `None` only when no
    /// move changes the board.
    pub fn advise_board<M: SlidingModel + ?Sized>(
        &mut self,
        model: &M,
        board: &Board,
        limits: &Limits,
    ) -> Option<Advice> {
        self.advise(
            model,
            &Grid::from_board_by(board, |r| model.grid_rank(r)),
            limits,
        )
    }

    /// The best move on `grid` under `model`'s rules within `limits`; `None` only when no move
    /// changes the grid.
    pub fn advise<M: SlidingModel + ?Sized>(
        &mut self,
        model: &M,
        grid: &Grid,
        limits: &Limits,
    ) -> Option<Advice> {
        self.search(model, grid, limits, None)
    }

    /// [`GenericEngine::advise`] with a learned evaluation instead of the heuristic: the same
    /// search, whose leaves are valued by `learned`'s network, and which adds up the points
    /// each move earns along the way (the network's values are the points still to come). A
    /// grid of another side than the network's is searched with the heuristic.
    pub fn advise_learned<M: SlidingModel + ?Sized>(
        &mut self,
        model: &M,
        grid: &Grid,
        limits: &Limits,
        learned: &Learned,
    ) -> Option<Advice> {
        let learned = (grid.side() == network::SIDE).then_some(learned);
        self.search(model, grid, limits, learned)
    }

    fn search<M: SlidingModel + ?Sized>(
        &mut self,
        model: &M,
        grid: &Grid,
        limits: &Limits,
        learned: Option<&Learned>,
    ) -> Option<Advice> {
        let options = self
            .options
            .unwrap_or_else(|| Options::for_side(grid.side()));
        let GenericEngine {
            tt,
            lines,
            evals,
            lines_for,
            ..
        } = self;
        // A cache for each set of rules the moves play by. The caches of an earlier search are
        // kept for the sets of rules (the same line rule on the same side) it met too, wherever
        // they come now (2592's pairs are the first set on even moves, the second on odd
        // ones); the others start afresh, keeping their memory.
        let phases = model.phases().clamp(1, MAX_PHASES);
        let cached: usize = lines.iter().map(HashMap::len).sum();
        lines.resize_with(phases.max(lines.len()), LineCache::default);
        lines_for.resize(lines.len(), None);
        for p in 0..phases {
            let rule = model.phase_key(p).map(|key| (key, grid.side()));
            if let Some(q) = (p..lines.len()).find(|&q| rule.is_some() && lines_for[q] == rule) {
                lines.swap(p, q);
                lines_for.swap(p, q);
            }
            if rule.is_none() || lines_for[p] != rule || cached > LINE_CACHE_LIMIT {
                lines[p].clear();
            }
            lines_for[p] = rule;
        }
        lines.truncate(phases);
        lines_for.truncate(phases);
        evals.clear();
        tt.new_search();
        let mut stop = Stopper::new(limits.time);
        let prep = Prepared::new(model, grid, &options, limits, learned);
        let mut limits = *limits;
        if limits.time.is_some() {
            let legal = Direction::ALL
                .into_iter()
                .filter(|&d| {
                    let d = dir_index(d);
                    let phase = model.phase(0, d).min(phases - 1);
                    slide_grid(grid, &prep.index, d, &mut |key| {
                        line_move(model, phase, grid.side(), &mut lines[phase], key)
                    })
                    .is_some()
                })
                .count();
            let cap = options
                .depth_cap
                .saturating_add(2 * distinct_ranks(grid))
                .max(2);
            limits.max_depth = limits.max_depth.min(cap);
            if legal == 1 {
                // Nothing to weigh.
                limits.max_depth = 1;
            }
        }
        let mut carried = Carried::new(model.counters());
        // Both spend the time, an iteration cut short answering for the moves it finished, the
        // last best first. With a network, values at every depth compare: deepen a whole move
        // at a time. The heuristic's values compare within one depth only: a ply at a time,
        // the moves an iteration cut short finished compared by that depth's values.
        let how = if prep.learned.is_some() {
            Deepening::ByMove
        } else {
            Deepening::ByPly { spend: true }
        };
        let deepened = deepen(&limits, &mut stop, how, |depth, stop, order| {
            Search {
                model,
                prep: &prep,
                tt: &mut *tt,
                lines: &mut lines[..],
                evals: &mut *evals,
                carried: &mut carried,
                stop,
            }
            .root(grid, depth, order)
        })?;
        // A depth cut short chose among the moves it finished, by that depth's values: the
        // advice takes the whole of what deepening found.
        advice(deepened, stop.nodes)
    }
}

/// The number of different ranks on the grid.
fn distinct_ranks(grid: &Grid) -> u32 {
    let mut seen = [0u64; 4];
    for &r in &grid.cells {
        if r != 0 {
            seen[usize::from(r >> 6)] |= 1 << (r & 63);
        }
    }
    seen.iter().map(|s| s.count_ones()).sum()
}

/// A hasher for keys that are already well spread or packed (lines, board keys).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    /// Eight bytes at a time (a grid's 64 cells in eight rounds, not 64).
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut w = [0u8; 8];
            w.copy_from_slice(word);
            self.write_u64(u64::from_le_bytes(w));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 56));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 31);
    }
}

/// Swipes of grids of one side under one model's line rule, each distinct line moved once by
/// the model and then read from a cache (the trainer's moves).
#[derive(Debug, Clone)]
pub(crate) struct Slider {
    index: LineIndex,
    lines: LineCache,
}

impl Slider {
    /// A slider for grids of `side`.
    pub(crate) fn new(side: usize) -> Self {
        Self {
            index: LineIndex::new(side),
            lines: LineCache::default(),
        }
    }

    /// The grid after the swipe `dir` under `model`'s line rule and the points it earned;
    /// `None` when nothing moved. The model must be the same at every call.
    pub(crate) fn slide<M: SlidingModel + ?Sized>(
        &mut self,
        model: &M,
        grid: &Grid,
        dir: Direction,
    ) -> Option<(Grid, f32)> {
        if self.lines.len() > LINE_CACHE_LIMIT {
            self.lines.clear();
        }
        let (side, lines) = (grid.side(), &mut self.lines);
        slide_grid(grid, &self.index, dir_index(dir), &mut |key| {
            line_move(model, 0, side, lines, key)
        })
        .map(|(grid, _, gained)| (grid, gained))
    }
}

/// The most sets of rules a search plays by ([`SlidingModel::phases`]); a model's others play
/// as its last. A variant has at most 64 ([`tilebox_sliding::variant::MAX_MOVE_SETS`]).
const MAX_PHASES: usize = 64;

/// The most moved lines kept between searches.
const LINE_CACHE_LIMIT: usize = 1 << 20;

/// Line moves already asked of the model: packed line (a byte a cell, from the wall) to the
/// line after the move and the points it earned, `None` when it did not move.
type LineCache = HashMap<u64, Option<(u64, f32)>, BuildHasherDefault<KeyHasher>>;

/// Packs `side` ranks into a key, a byte each, the wall's cell lowest.
fn pack(ranks: &[u8]) -> u64 {
    ranks
        .iter()
        .enumerate()
        .fold(0, |key, (i, &r)| key | u64::from(r) << (8 * i))
}

/// The move of a packed line under the model's rules of `phase`, cached (one cache a phase).
fn line_move<M: SlidingModel + ?Sized>(
    model: &M,
    phase: usize,
    side: usize,
    cache: &mut LineCache,
    key: u64,
) -> Option<(u64, f32)> {
    if let Some(&hit) = cache.get(&key) {
        return hit;
    }
    let mut buf = [0u8; 8];
    let side = side.min(8);
    for (i, slot) in buf.iter_mut().enumerate().take(side) {
        *slot = (key >> (8 * i)) as u8;
    }
    let gained = model.slide_line_in(phase, &mut buf[..side]);
    let after = pack(&buf[..side]);
    let result = (after != key).then_some((after, gained as f32));
    cache.insert(key, result);
    result
}

/// For each direction (in [`Direction::ALL`] order), the cell index of each line's positions,
/// `8 * line + pos`, from the wall outward.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    side: usize,
    cells: [[u8; MAX_CELLS]; 4],
}

impl LineIndex {
    fn new(side: usize) -> Self {
        let side = side.clamp(Board::MIN_SIDE, Board::MAX_SIDE);
        let mut cells = [[0u8; MAX_CELLS]; 4];
        for (d, dir) in Direction::ALL.into_iter().enumerate() {
            for line in 0..side {
                for pos in 0..side {
                    let Cell { row, col } = dir.cell(side, line, pos);
                    cells[d][8 * line + pos] = (row * side + col).min(MAX_CELLS - 1) as u8;
                }
            }
        }
        Self { side, cells }
    }

    /// The index in a grid's cells of place `pos` (from the wall) of line `line` of a move
    /// toward `d`.
    fn cell(&self, d: usize, line: usize, pos: usize) -> usize {
        usize::from(self.cells[d & 3][(8 * line + pos).min(MAX_CELLS - 1)])
    }
}

fn dir_index(dir: Direction) -> usize {
    Direction::ALL.iter().position(|&d| d == dir).unwrap_or(0)
}

/// Slides every line of `grid` toward direction `d` with `mv` (a packed line to the moved
/// line and its points, `None` when unmoved); the grid after, the moved lines and the points,
/// `None` if nothing moved.
fn slide_grid(
    grid: &Grid,
    lines: &LineIndex,
    d: usize,
    mv: &mut impl FnMut(u64) -> Option<(u64, f32)>,
) -> Option<(Grid, u8, f32)> {
    let side = lines.side;
    let idx = &lines.cells[d & 3];
    let mut out = *grid;
    let mut moved = 0u8;
    let mut gained = 0f32;
    for line in 0..side {
        let at = &idx[8 * line..8 * line + side];
        let key = at.iter().enumerate().fold(0u64, |k, (pos, &i)| {
            k | u64::from(grid.cells[usize::from(i)]) << (8 * pos)
        });
        if let Some((after, points)) = mv(key) {
            moved |= 1 << line;
            gained += points;
            for (pos, &i) in at.iter().enumerate() {
                out.cells[usize::from(i)] = (after >> (8 * pos)) as u8;
            }
        }
    }
    (moved != 0).then_some((out, moved, gained))
}

/// Writes the cell indices where a tile may land into `out`; returns how many.
fn spawn_cells(
    after: &Grid,
    lines: &LineIndex,
    spawn_at: SpawnAt,
    d: usize,
    moved: u8,
    out: &mut [u8; MAX_CELLS],
) -> usize {
    let side = lines.side;
    let mut n = 0;
    match spawn_at {
        SpawnAt::Anywhere => {
            for (i, &r) in after.cells[..side * side].iter().enumerate() {
                if r == 0 {
                    out[n] = i as u8;
                    n += 1;
                }
            }
        }
        SpawnAt::MovedEdge => {
            for line in (0..side).filter(|l| moved & (1 << l) != 0) {
                let i = lines.cells[d & 3][8 * line + side - 1];
                if after.cells[usize::from(i)] == 0 {
                    out[n] = i;
                    n += 1;
                }
            }
        }
    }
    n
}

/// A tile distribution, normalised, with the ranks out of range dropped.
fn normalise(tiles: Vec<(u8, f64)>) -> Vec<(u8, f32)> {
    let tiles: Vec<(u8, f64)> = tiles
        .into_iter()
        .filter(|&(r, p)| r != 0 && p.is_finite() && p > 0.0)
        .collect();
    let total: f64 = tiles.iter().map(|&(_, p)| p).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    tiles
        .into_iter()
        .map(|(r, p)| (r, (p / total) as f32))
        .collect()
}

/// What a search works out once from the model and the root.
struct Prepared {
    index: LineIndex,
    eval: eval::Evaluator,
    spawn_at: SpawnAt,
    /// The next tile's distribution and the later tiles'.
    next: Vec<(u8, f32)>,
    later: Vec<(u8, f32)>,
    max_spawn_cells: usize,
    min_probability: f32,
    /// The value of a lost position.
    loss: f32,
    /// The learned evaluation, when the search uses one instead of the heuristic.
    learned: Option<Learned>,
}

impl Prepared {
    fn new<M: SlidingModel + ?Sized>(
        model: &M,
        root: &Grid,
        options: &Options,
        limits: &Limits,
        learned: Option<&Learned>,
    ) -> Self {
        let eval = eval::Evaluator::new(model, root, options.weights);
        // A lost game earns nothing more: the learned values count the points still to come.
        let loss = if learned.is_some() {
            0.0
        } else {
            eval.loss(root)
        };
        Self {
            index: LineIndex::new(root.side()),
            eval,
            spawn_at: model.spawn_at(),
            next: normalise(model.next_tiles()),
            later: normalise(model.later_tiles()),
            max_spawn_cells: options.max_spawn_cells.clamp(1, MAX_CELLS),
            min_probability: limits.min_probability,
            loss,
            learned: learned.cloned(),
        }
    }
}

/// The counters a search carries from node to node ([`SlidingModel::counters`]): each set met
/// numbered (0: the searched position's), with its transposition key and the spawn it draws.
#[derive(Debug, Default)]
struct Carried {
    /// Whether the search carries counters at all; when not, every node's number is 0.
    on: bool,
    /// The counters of each number.
    states: Vec<Counters>,
    /// The number of each set met.
    ids: HashMap<Counters, u32, BuildHasherDefault<KeyHasher>>,
    /// The key of each number's counters, mixed into its nodes' transposition keys.
    keys: Vec<u64>,
    /// The spawn after a move that left each number's counters, normalised: after the
    /// searched position's own move, and deeper (asked of the model when first needed).
    tiles: Vec<[Option<Tiles>; 2]>,
    /// The key of the line rule of each number's counters ([`SlidingModel::line_key_with`]),
    /// where the search moves the lines itself.
    line_keys: Vec<Option<u64>>,
    /// The lines moved, by the line rule's key and the packed line; `Err` for a line whose
    /// move makes a tile the model does not number exactly.
    lines: CountedLines,
    /// The moves played, by the node's grid, counters' number, direction and move: the moves
    /// of every iteration of iterative deepening are the same.
    moves: HashMap<(Grid, u32, u8, u32), Option<Carry>, BuildHasherDefault<KeyHasher>>,
}

/// Lines moved by the rules of some counters: by the line rule's key and the packed line, the
/// line after the move, its points and the places of the tiles its merges made (`None`: it did
/// not move), or `Err` when the move makes a tile the model does not number exactly.
type CountedLines =
    HashMap<(u64, u64), Result<Option<(u64, f32, u8)>, ()>, BuildHasherDefault<KeyHasher>>;

/// A spawn's tiles and their chances, normalised, shared.
type Tiles = Rc<[(u8, f32)]>;

/// A move of a search that carries counters, the counters numbered ([`Carried`]).
#[derive(Debug, Clone, Copy)]
struct Carry {
    grid: Grid,
    moved: u8,
    gained: f32,
    lost: bool,
    now: u32,
    next: u32,
}

impl Carried {
    /// The most moves kept ([`Carried::moves`]) before they are forgotten.
    const MOST_MOVES: usize = 1 << 16;

    /// Carries `counters` (the searched position's), or nothing.
    fn new(counters: Option<Counters>) -> Self {
        let mut carried = Carried::default();
        if let Some(counters) = counters {
            carried.on = true;
            carried.id(counters);
        }
        carried
    }

    /// The number of `counters`, numbering them when first met.
    fn id(&mut self, counters: Counters) -> u32 {
        if let Some(&id) = self.ids.get(&counters) {
            return id;
        }
        let id = u32::try_from(self.states.len()).unwrap_or(u32::MAX);
        let mut h = 0x2545_F491_4F6C_DD1Du64;
        for &c in &counters {
            h = (h ^ c as u64).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            h ^= h >> 32;
        }
        self.states.push(counters);
        self.keys.push(h);
        self.tiles.push([None, None]);
        self.line_keys.push(None);
        self.ids.insert(counters, id);
        id
    }

    /// The counters of number `id` (the searched position's for a number never given).
    fn counters(&self, id: u32) -> Counters {
        let i = usize::try_from(id).unwrap_or(0);
        self.states
            .get(i)
            .or(self.states.first())
            .copied()
            .unwrap_or_default()
    }

    /// The move toward `d` of `grid`, `ahead` moves after the searched position's, with
    /// number `id`'s counters, as the model plays it: the lines moved here, each once for each
    /// line rule, where the model lets the search ([`SlidingModel::lines_with_counters`]);
    /// else the model's whole move ([`SlidingModel::slide_counted`]).
    fn play<M: SlidingModel + ?Sized>(
        &mut self,
        model: &M,
        index: &LineIndex,
        grid: &Grid,
        d: usize,
        ahead: u32,
        id: u32,
    ) -> Option<Carry> {
        let counters = self.counters(id);
        let whole = |carried: &mut Carried| {
            let m = model.slide_counted(grid, d, ahead, &counters)?;
            Some(Carry {
                grid: m.grid,
                moved: m.moved,
                gained: m.gained as f32,
                lost: m.lost,
                now: carried.id(m.now),
                next: carried.id(m.next),
            })
        };
        if !model.lines_with_counters() {
            return whole(self);
        }
        let i = usize::try_from(id).unwrap_or(0);
        let rule = match self.line_keys.get(i).copied().flatten() {
            Some(rule) => rule,
            None => {
                let rule = model.line_key_with(&counters);
                if let Some(slot) = self.line_keys.get_mut(i) {
                    *slot = Some(rule);
                }
                rule
            }
        };
        if self.lines.len() > LINE_CACHE_LIMIT {
            self.lines.clear();
        }
        let (side, lines) = (grid.side(), &mut self.lines);
        let mut exact = true;
        // The places of the tiles merges made, line by line (slide_grid moves them in order).
        let (mut made, mut line) = ([0u8; 8], 0);
        let slid = slide_grid(grid, index, d, &mut |key| {
            let moved = match lines.get(&(rule, key)) {
                Some(&hit) => hit,
                None => {
                    let mut buf = [0u8; 8];
                    let side = side.min(8);
                    for (i, slot) in buf.iter_mut().enumerate().take(side) {
                        *slot = (key >> (8 * i)) as u8;
                    }
                    let moved = model
                        .slide_line_with(&counters, &mut buf[..side])
                        .map(|(gained, made)| {
                            let after = pack(&buf[..side]);
                            (after != key).then_some((after, gained as f32, made))
                        })
                        .ok_or(());
                    lines.insert((rule, key), moved);
                    moved
                }
            };
            exact &= moved.is_ok();
            let moved = moved.ok().flatten();
            if let (Some(slot), Some((_, _, bits))) = (made.get_mut(line), moved) {
                *slot = bits;
            }
            line += 1;
            moved.map(|(after, gained, _)| (after, gained))
        });
        if !exact {
            return whole(self);
        }
        let (mut after, moved, gained) = slid?;
        // `made`, tile by tile in the move's order, before the events.
        let mut counters = counters;
        for (line, &bits) in made.iter().enumerate().take(side) {
            for pos in (0..side).filter(|&pos| bits & (1 << pos) != 0) {
                let cell = index.cell(d, line, pos);
                counters = model.made_with(&counters, after.cells[cell], ahead);
            }
        }
        let (lost, now, next) = model.after_counted(&mut after, d, ahead, &counters)?;
        Some(Carry {
            grid: after,
            moved,
            gained,
            lost,
            now: self.id(now),
            next: self.id(next),
        })
    }

    /// The transposition key of number `id`'s counters.
    fn key(&self, id: u32) -> u64 {
        let i = usize::try_from(id).unwrap_or(0);
        self.keys.get(i).copied().unwrap_or(0)
    }

    /// The spawn, normalised, after a move that left number `id`'s counters (`first`: the
    /// searched position's own move).
    fn tiles<M: SlidingModel + ?Sized>(&mut self, model: &M, id: u32, first: bool) -> Tiles {
        let counters = self.counters(id);
        let i = usize::try_from(id).unwrap_or(0);
        let Some(slot) = self.tiles.get_mut(i).map(|t| &mut t[usize::from(!first)]) else {
            return normalise(model.tiles_with(&counters, first)).into();
        };
        slot.get_or_insert_with(|| normalise(model.tiles_with(&counters, first)).into())
            .clone()
    }
}

/// The move toward `d` a search that carries counters plays from `grid` with `counters`,
/// `ahead` moves after the searched position's ([`Carried::play`]).
#[cfg(test)]
pub(crate) fn counted_move<M: SlidingModel + ?Sized>(
    model: &M,
    grid: &Grid,
    d: usize,
    ahead: u32,
    counters: &Counters,
) -> Option<CountedMove> {
    let mut carried = Carried::new(Some(*counters));
    let index = LineIndex::new(grid.side());
    let m = carried.play(model, &index, grid, d, ahead, 0)?;
    Some(CountedMove {
        grid: m.grid,
        moved: m.moved,
        gained: m.gained as u64,
        lost: m.lost,
        now: carried.counters(m.now),
        next: carried.counters(m.next),
    })
}

/// The transposition key of a player's turn on `grid`: the move it is met at (`ahead`, where
/// the rules change from move to move) and the key of what the search reads besides the board
/// (`state`: the counters) mixed in.
fn node_key(grid: &Grid, ahead: Option<u32>, state: u64) -> u64 {
    let key = match ahead {
        Some(ahead) => grid.key() ^ u64::from(ahead).wrapping_mul(0xD6E8_FEB8_6659_FD93),
        None => grid.key(),
    };
    key ^ state
}

/// The caches of evaluated lines.
pub(crate) type EvalCache = HashMap<u64, f32, BuildHasherDefault<KeyHasher>>;

/// One iteration of the search.
struct Search<'a, M: ?Sized> {
    model: &'a M,
    prep: &'a Prepared,
    tt: &'a mut TransTable,
    /// The moved lines of each set of rules ([`SlidingModel::phases`]), at least one.
    lines: &'a mut [LineCache],
    evals: &'a mut EvalCache,
    /// The counters carried from node to node, where the model has them.
    carried: &'a mut Carried,
    stop: &'a mut Stopper,
}

impl<M: SlidingModel + ?Sized> Search<'_, M> {
    /// The values of the four root moves searched `plies` deep (at least 1).
    fn root(&mut self, grid: &Grid, plies: u32, order: [usize; 4]) -> RootValues {
        let mut out = [None; 4];
        for d in order {
            let Some(m) = self.slide(grid, d, 0, 0) else {
                continue;
            };
            let value = if m.lost {
                self.prep.loss
            } else {
                let later = self.chance(&m, d, plies.saturating_sub(1), 1.0, 0);
                self.points(m.gained) + later
            };
            // A move the deadline cut short has no value: the moves before it are finished.
            if self.stop.aborted {
                break;
            }
            if let Some(slot) = out.get_mut(d) {
                *slot = Some(value);
            }
        }
        out
    }

    /// The swipe toward `d` of the move `ahead` moves after the root's, by its rules, from
    /// `grid` whose counters are number `counters` ([`Carried`]; 0 where the search carries
    /// none). Says whether the turn pipeline lost the game after the slide
    /// ([`SlidingModel::after_slide`], or the engine's own where counters are carried).
    fn slide(&mut self, grid: &Grid, d: usize, ahead: u32, counters: u32) -> Option<Carry> {
        let model = self.model;
        if self.carried.on {
            return self.slide_counted(grid, d, ahead, counters);
        }
        let last = self.lines.len().saturating_sub(1);
        let phase = model.phase(ahead, d).min(last);
        let lines = self.lines.get_mut(phase)?;
        let side = grid.side();
        let (mut after, moved, gained) = slide_grid(grid, &self.prep.index, d, &mut |key| {
            line_move(model, phase, side, lines, key)
        })?;
        let lost = model.after_slide(&mut after);
        Some(Carry {
            grid: after,
            moved,
            gained,
            lost,
            now: 0,
            next: 0,
        })
    }

    /// [`Search::slide`] where the search carries counters: the model's move with the node's
    /// counters ([`SlidingModel::slide_counted`]), remembered for the next iterations.
    #[cold]
    fn slide_counted(&mut self, grid: &Grid, d: usize, ahead: u32, counters: u32) -> Option<Carry> {
        let key = (*grid, counters, d as u8, ahead);
        if let Some(&hit) = self.carried.moves.get(&key) {
            return hit;
        }
        let index = &self.prep.index;
        let carry = self
            .carried
            .play(self.model, index, grid, d, ahead, counters);
        if self.carried.moves.len() >= Carried::MOST_MOVES {
            self.carried.moves.clear();
        }
        self.carried.moves.insert(key, carry);
        carry
    }

    /// The points a move earned, as the evaluation counts them: the learned evaluation adds
    /// them up along a line of play; the heuristic does not count them.
    #[inline]
    fn points(&self, gained: f32) -> f32 {
        if self.prep.learned.is_some() {
            gained
        } else {
            0.0
        }
    }

    /// The value of a position where the player is to move, the move `ahead` moves after the
    /// root's, with the counters numbered `counters`.
    fn eval(&mut self, grid: &Grid, ahead: u32, counters: u32) -> f32 {
        let prep = self.prep;
        let Some(learned) = &prep.learned else {
            return prep.eval.board(grid, &prep.index, self.evals);
        };
        // The learned values are of afterstates: the best move's points and afterstate.
        let mut best = f32::NEG_INFINITY;
        for d in 0..4 {
            if let Some(m) = self.slide(grid, d, ahead, counters) {
                if m.lost {
                    best = best.max(self.prep.loss);
                    continue;
                }
                let value = learned.network.value(m.grid.packed(), learned.later);
                best = best.max(m.gained + value);
            }
        }
        if best == f32::NEG_INFINITY {
            self.prep.loss
        } else {
            best
        }
    }

    /// The value of the board the move `ahead` moves after the root's left, before the game's
    /// answer (the root's own move, 0, is the one whose next tile the state may show), the
    /// counters at the turn's end numbered `counters`.
    fn eval_after(&mut self, after: &Grid, ahead: u32, counters: u32) -> f32 {
        match &self.prep.learned {
            Some(learned) => {
                let class = if ahead == 0 {
                    learned.first
                } else {
                    learned.later
                };
                learned.network.value(after.packed(), class)
            }
            None => self.eval(after, ahead + 1, counters),
        }
    }

    /// A player's turn, the move `ahead` moves after the root's, with `plies` plies left,
    /// reached with probability `prob`, the counters numbered `counters` ([`Carried`]).
    fn turn(&mut self, grid: &Grid, plies: u32, prob: f32, ahead: u32, counters: u32) -> f32 {
        if prob < self.prep.min_probability {
            return self.eval(grid, ahead, counters);
        }
        if plies == 0 {
            self.stop.depth_cut = true;
            return self.eval(grid, ahead, counters);
        }
        // Where the rules change from move to move, a board is worth more or less by the move
        // it is met at; where the search carries counters, by its counters.
        let state = if self.carried.on {
            self.carried.key(counters)
        } else {
            self.model.state_key()
        };
        let key = node_key(grid, (self.lines.len() > 1).then_some(ahead), state);
        let depth = plies.min(u32::from(MAX_TABLE_DEPTH)) as u8;
        if let Some(hit) = self.tt.get(key, 0, depth) {
            self.stop.depth_cut |= !hit.complete;
            return hit.value;
        }
        // A turn here costs microseconds (every line of a big board is looked up), not the
        // bitboards' nanoseconds: read the clock at every turn, not every 1024.
        if self.stop.tick() || (self.stop.may_abort && self.stop.clock.expired()) {
            self.stop.aborted = true;
            return 0.0;
        }
        let cut_before = std::mem::replace(&mut self.stop.depth_cut, false);
        let mut best = f32::NEG_INFINITY;
        for d in 0..4 {
            if let Some(m) = self.slide(grid, d, ahead, counters) {
                if m.lost {
                    best = best.max(self.prep.loss);
                    continue;
                }
                let later = self.chance(&m, d, plies - 1, prob, ahead);
                best = best.max(self.points(m.gained) + later);
            }
        }
        if best == f32::NEG_INFINITY {
            best = self.prep.loss;
        }
        let complete = !self.stop.depth_cut;
        self.stop.depth_cut |= cut_before;
        if !self.stop.aborted {
            self.tt.put(
                key,
                0,
                depth,
                Entry {
                    value: best,
                    complete,
                },
            );
        }
        best
    }

    /// The game's answer to the move `ahead` moves after the root's (0: the root's own, whose
    /// next tile the state may show), toward `d`, that left `m`'s grid (moving its lines
    /// `moved`, its counters `now` for the spawn and `next` after it): the expected value
    /// over where the tile lands and what it is, `plies` plies left.
    fn chance(&mut self, m: &Carry, d: usize, plies: u32, prob: f32, ahead: u32) -> f32 {
        let (after, moved, counters) = (&m.grid, m.moved, m.next);
        if plies == 0 {
            self.stop.depth_cut = true;
            return self.eval_after(after, ahead, counters);
        }
        let mut cells = [0u8; MAX_CELLS];
        let n = spawn_cells(
            after,
            &self.prep.index,
            self.prep.spawn_at,
            d,
            moved,
            &mut cells,
        );
        let prep = self.prep;
        let carried;
        let tiles: &[(u8, f32)] = if self.carried.on {
            carried = self.carried.tiles(self.model, m.now, ahead == 0);
            &carried
        } else if ahead == 0 {
            &prep.next
        } else {
            &prep.later
        };
        if n == 0 || tiles.is_empty() {
            // Nothing arrives: the player moves again.
            return self.turn(after, plies - 1, prob, ahead + 1, counters);
        }
        // Sample evenly spread cells on big boards, from a start the position decides.
        let used = n.min(self.prep.max_spawn_cells);
        let start = if used < n {
            (after.key() % n as u64) as usize
        } else {
            0
        };
        let share = prob / used as f32;
        let mut total = 0.0f32;
        for k in 0..used {
            let i = usize::from(cells[(start + k * n / used) % n]);
            for &(rank, p) in tiles {
                let mut next = *after;
                next.cells[i] = rank;
                total += p * self.turn(&next, plies - 1, share * p, ahead + 1, counters);
            }
        }
        total / used as f32
    }
}
