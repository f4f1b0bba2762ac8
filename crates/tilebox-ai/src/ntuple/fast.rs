//! The trainer's fast path: a game of a 4×4 ladder variant whose spawns are weighted tiles on
//! any empty cell, with no preview (2048 and its kin), played on a bitboard ([`Bits`]).
//!
//! The rules come from the same place as the engine's path ([`super::train`]): each line's
//! move is the variant's own ([`VariantModel::slide_line_scored`], the line as the top row of
//! an empty board), asked once for each of the 65,536 lines of four nibbles when the table
//! is built, with its points; a move is then four lookups (the columns' on the transposed
//! board, the other way's on the mirrored one). A spawn draws the variant's weights and the cell from the game's own
//! [`GameRng`], in the engine's order (the tile, then the `k`-th empty cell in row-major
//! order), and a restart reseeds it as [`SlidingState::reseeded`] does, so a game makes the
//! same moves, the same random numbers and the same weights as on the engine, bit for bit
//! (the tests compare the two). The features of the standard 4×6-tuples are read straight
//! off the eight images of the board ([`images`]); another layout's from its compiled
//! cells. Each afterstate's indices are computed once: the chosen one's are kept for its TD
//! step, and its value read again from them after the step before (which may have moved its
//! weights), as the engine's path reads it. Nothing is allocated a move: the positions kept
//! for restarts are `u64`s in a vector the mover keeps from game to game.
//!
//! A tile beyond rank 15 has no room in a nibble: when one of the four moves would make it
//! (two 32768s in 2048), the game goes on on the engine's path from that very position,
//! rebuilt by replaying the game's moves and reseeds from its seed ([`Handover`]).
//!
//! [`SlidingState::reseeded`]: tilebox_sliding::SlidingState::reseeded

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tilebox_core::GameRng;
use tilebox_sliding::variant::SpawnAt;
use tilebox_sliding::{Board, Rules, Variant};

use super::course::{Course, restart_seed};
use crate::bitboard::{Bits, count_empty, flip, max_rank, mirror, transpose};
use crate::generic::SlidingModel;
use crate::network::{
    Compiled, Layout, MAX_FEATURES, MAX_STAGES, Network, SIDE, SYMMETRIES, adjust_at, cohere,
    value_at,
};
use crate::sliding::VariantModel;

/// Lines of four nibbles.
const LINES: usize = 1 << 16;

/// The highest rank a nibble holds.
const TOP: u8 = 15;

/// One line's move toward the wall at nibble 0, in 32 bits (the tables stay small enough to
/// sit in the caches beside the weights): the line after it (bits 0 to 15), whether it makes a
/// rank beyond [`TOP`] (bit 16), and the number of its points in [`LineTables::gains`] (bits
/// 17 to 31).
type LineMove = u32;

/// The bit of a line move that makes a rank beyond [`TOP`].
const OVER: u32 = 1 << 16;

/// The most distinct points a variant's line moves earn on the fast path.
const GAINS: usize = 1 << 15;

/// A variant's moves as a bitboard table: each line's move toward nibble 0, shared by every
/// mover of the variant's line rule. The other moves read it on the board turned (transposed
/// for up and down, mirrored for right and down): one table of 256 KiB, not two, so more of
/// it stays in the caches beside the weights.
#[derive(Debug)]
pub(crate) struct LineTables {
    key: u64,
    /// Toward nibble 0 (left on rows, up on the transposed board's rows).
    near: Box<[LineMove; LINES]>,
    /// The points a line move earns, by number: as a reward (`f32`, as the engine's path adds
    /// them) and as the score counts them. Number 0 is none (a line that does not move).
    rewards: Vec<f32>,
    points: Vec<u64>,
}

impl LineTables {
    /// The tables of `model`'s line rule, built once a rule (the last one built is kept);
    /// `None` when its lines earn more distinct points than [`GAINS`].
    fn of(model: &VariantModel) -> Option<Arc<LineTables>> {
        static LAST: Mutex<Option<Arc<LineTables>>> = Mutex::new(None);
        let key = model.line_rule_key()?;
        let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = last.as_ref().filter(|t| t.key == key) {
            return Some(Arc::clone(t));
        }
        let tables = Arc::new(Self::build(model, key)?);
        *last = Some(Arc::clone(&tables));
        Some(tables)
    }

    fn build(model: &VariantModel, key: u64) -> Option<LineTables> {
        let mut near: Box<[LineMove; LINES]> = vec![0; LINES].into_boxed_slice().try_into().ok()?;
        let mut points = vec![0u64];
        let mut numbers = std::collections::HashMap::from([(0u64, 0u32)]);
        for row in 0..=u16::MAX {
            let mut line = [0u8; SIDE];
            for (i, cell) in line.iter_mut().enumerate() {
                *cell = ((row >> (4 * i)) & 0xF) as u8;
            }
            let before = line;
            let gained = model.slide_line_scored(&mut line);
            let gained = if line != before { gained } else { 0 };
            let over = line.iter().any(|&r| r > TOP);
            let after = if over {
                row
            } else {
                line.iter()
                    .enumerate()
                    .fold(0u16, |a, (i, &r)| a | (u16::from(r & 0xF) << (4 * i)))
            };
            let next = u32::try_from(points.len()).ok()?;
            let number = *numbers.entry(gained).or_insert(next);
            if number == next {
                points.push(gained);
            }
            if points.len() > GAINS {
                return None;
            }
            near[usize::from(row)] =
                u32::from(after) | if over { OVER } else { 0 } | (number << 17);
        }
        Some(LineTables {
            key,
            near,
            rewards: points.iter().map(|&p| p as f32).collect(),
            points,
        })
    }

    /// The four rows of `board` moved toward nibble 0: the board after, the reward, and
    /// whether a rank beyond [`TOP`] would be made.
    #[inline(always)]
    fn rows(&self, board: Bits) -> (Bits, f32, bool) {
        let mut out = 0u64;
        let mut reward = 0f32;
        let mut over = 0;
        for i in 0..4 {
            let m = self.near[usize::from((board >> (16 * i)) as u16)];
            out |= u64::from(m & 0xFFFF) << (16 * i);
            reward += self.rewards.get((m >> 17) as usize).copied().unwrap_or(0.0);
            over |= m & OVER;
        }
        (out, reward, over != 0)
    }

    /// `board` turned so that the move `d` (in `Direction::ALL` order: left, right, up, down)
    /// is toward nibble 0 of each row; [`LineTables::unturn`] turns it back.
    #[inline(always)]
    fn turn(board: Bits, d: usize) -> Bits {
        let b = if d >= 2 { transpose(board) } else { board };
        if d % 2 == 1 { mirror(b) } else { b }
    }

    /// [`LineTables::turn`] undone.
    #[inline(always)]
    fn unturn(board: Bits, d: usize) -> Bits {
        let b = if d % 2 == 1 { mirror(board) } else { board };
        if d >= 2 { transpose(b) } else { b }
    }

    /// The move `d` of `board`: see [`LineTables::rows`].
    #[inline(always)]
    fn slide(&self, board: Bits, d: usize) -> (Bits, f32, bool) {
        let (t, reward, over) = self.rows(Self::turn(board, d));
        (Self::unturn(t, d), reward, over)
    }

    /// The points the move `d` of `board` earns, as the score counts them.
    fn points(&self, board: Bits, d: usize) -> u64 {
        let lines = Self::turn(board, d);
        (0..4).fold(0u64, |total, i| {
            let m = self.near[usize::from((lines >> (16 * i)) as u16)];
            total.saturating_add(self.points.get((m >> 17) as usize).copied().unwrap_or(0))
        })
    }
}

/// What the fast path knows of a variant: its moves, spawns, start, win and score.
#[derive(Debug, Clone)]
pub(crate) struct Fast {
    lines: Arc<LineTables>,
    /// The spawn weights, in ladder order, and their total.
    weights: Vec<(u8, u32)>,
    total: u32,
    start: usize,
    /// The rank whose making wins, if a nibble holds it.
    win: Option<u8>,
    rules: Rules,
}

impl Fast {
    /// The fast path of `variant` (a trainable 4×4 one, its line rule `model`'s), if it has
    /// one: weighted spawns of ranks 1 to 15 on any empty cell, no preview, scored by merges
    /// or off the board.
    pub(crate) fn new(variant: &Variant, rules: &Rules, model: &VariantModel) -> Option<Fast> {
        if variant.side != SIDE
            || variant.preview
            || variant.spawn_at != SpawnAt::Anywhere
            || !rules.full_bag().is_empty()
        {
            return None;
        }
        let weights: Vec<(u8, u32)> = rules
            .spawn_weights()
            .iter()
            .map(|&(r, w)| Some((u8::try_from(r).ok().filter(|r| (1..=TOP).contains(r))?, w)))
            .collect::<Option<_>>()?;
        let total = weights
            .iter()
            .try_fold(0u32, |t, &(_, w)| t.checked_add(w))?;
        if weights.is_empty() || total == 0 {
            return None;
        }
        Some(Fast {
            lines: LineTables::of(model)?,
            weights,
            total,
            start: variant.start,
            win: rules.win_rank().and_then(|w| u8::try_from(w).ok()),
            rules: rules.clone(),
        })
    }

    /// Draws a tile as the engine does for weighted spawns: one number below the total.
    #[inline]
    fn draw(&self, rng: &mut GameRng) -> u8 {
        let mut x = rng.below(self.total);
        for &(rank, w) in &self.weights {
            if x < w {
                return rank;
            }
            x -= w;
        }
        self.weights.first().map_or(1, |&(r, _)| r)
    }

    /// Adds a tile to `board` as the engine does after a move: the tile drawn, then the
    /// `k`-th of the empty cells in row-major order; none when no cell is empty.
    #[inline]
    fn spawn(&self, board: Bits, rng: &mut GameRng) -> Bits {
        let empty = count_empty(board);
        if empty == 0 {
            return board;
        }
        let tile = self.draw(rng);
        let pick = rng.index(empty as usize);
        board | u64::from(tile) << (4 * nth_empty(board, pick))
    }

    /// The start of a game, as the engine deals it: each start tile drawn, then its cell.
    fn start(&self, rng: &mut GameRng) -> Bits {
        let mut board = 0u64;
        for _ in 0..self.start {
            let empty = count_empty(board);
            if empty == 0 {
                break;
            }
            let tile = self.draw(rng);
            let pick = rng.index(empty as usize);
            board |= u64::from(tile) << (4 * nth_empty(board, pick));
        }
        board
    }

    /// The score of a game that ended on `board` with `merged` points of merges, as the
    /// engine counts it.
    fn score(&self, board: Bits, merged: u64) -> u64 {
        if !self.rules.scores_board() {
            return merged;
        }
        let rows: Vec<Vec<u64>> = (0..SIDE)
            .map(|r| {
                (0..SIDE)
                    .map(|c| {
                        self.rules
                            .value(u16::from((board >> (16 * r + 4 * c)) as u8 & 0xF))
                    })
                    .collect()
            })
            .collect();
        self.rules
            .board_from_values(&rows)
            .map_or(0, |b: Board| self.rules.board_score(&b))
    }
}

/// What the network's bitboard search reads of the fast path ([`crate::twenty48::LadderNet`]).
impl Fast {
    /// The move `d` (in `Direction::ALL` order) of `board`: the board after, the points it
    /// earns, and whether it would make a rank beyond 15 (the board then unchanged).
    #[inline]
    pub(crate) fn slide(&self, board: Bits, d: usize) -> (Bits, f32, bool) {
        self.lines.slide(board, d)
    }

    /// The tiles that spawn, as ranks with their weights, and the weights' total.
    pub(crate) fn spawns(&self) -> (&[(u8, u32)], u32) {
        (&self.weights, self.total)
    }
}

/// The cell (0 to 15, row-major) of the `k`-th empty cell of `board`, counting from 0; 15
/// when there are not that many.
#[inline]
fn nth_empty(board: Bits, k: usize) -> u32 {
    // One bit a cell, set where the cell is empty.
    let mut y = board | (board >> 2);
    y |= y >> 1;
    let mut empty = !y & 0x1111_1111_1111_1111;
    for _ in 0..k {
        empty &= empty.wrapping_sub(1);
    }
    if empty == 0 {
        15
    } else {
        empty.trailing_zeros() / 4
    }
}

/// The eight images of `board` under the symmetries of the square, in the network's order:
/// image `s` holds at cell `c` the board's cell that symmetry `s` sends `c` to (a quarter
/// turn three times, then each of those mirrored), so a tuple's cells read off image `s` are
/// its feature under symmetry `s`.
#[inline]
pub(crate) fn images(board: Bits) -> [Bits; SYMMETRIES] {
    let turn = |b: Bits| flip(transpose(b));
    let r1 = turn(board);
    let r2 = turn(r1);
    let r3 = turn(r2);
    [
        board,
        r1,
        r2,
        r3,
        mirror(board),
        mirror(r1),
        mirror(r2),
        mirror(r3),
    ]
}

/// A network's features and weights, as the fast path reads them.
pub(crate) trait Features {
    /// The weight indices of one board, in the network's order.
    type Indices: Copy;
    /// The indices of `board` (preview class 0).
    fn indices(&self, board: Bits) -> Self::Indices;
    /// The value of the board whose indices are `at`: [`value_at`]'s, bit for bit.
    fn value(&self, at: &Self::Indices) -> f32;
    /// Adds `delta` to the weights at `at`, as [`adjust_at`] does.
    fn adjust(&self, at: &Self::Indices, delta: f32);
    /// The values of `N` boards, each [`Features::value`]'s.
    #[inline(always)]
    fn values<const N: usize>(&self, at: [&Self::Indices; N]) -> [f32; N] {
        at.map(|at| self.value(at))
    }
}

/// The weights of one 6-tuple.
type Tuple6 = [AtomicU32; 1 << 24];

/// The blocks of weights of the standard network: a tuple's in a stage.
const BLOCKS: usize = 4 * MAX_STAGES;

/// The standard 4×6-tuples ([`Layout::standard`] without the preview, in any stages): their
/// features read straight off the images, each tuple one or two runs of cells, and their
/// weights a fixed block each, tuple `t` of stage `s` the block `4s + t` (so no read is
/// checked against the end).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Standard<'a> {
    /// The blocks of the stages it has; the rest repeat the first (never read).
    blocks: [&'a Tuple6; BLOCKS],
    network: &'a Network,
    coherence: Option<&'a [AtomicU64]>,
}

/// The standard network's weight indices of `board`: tuple by tuple, each under the eight
/// symmetries in order, each tuple's block at `t << 24`.
#[inline(always)]
pub(crate) fn standard_indices(board: Bits) -> [u32; 4 * SYMMETRIES] {
    let images = images(board);
    let mut out = [0u32; 4 * SYMMETRIES];
    for (s, &b) in images.iter().enumerate() {
        // Cells 0 1 2 3 4 5; 4 5 6 7 8 9; 0 1 2 4 5 6; 4 5 6 8 9 10.
        out[s] = (b & 0xFF_FFFF) as u32;
        out[SYMMETRIES + s] = (1 << 24) | ((b >> 16) & 0xFF_FFFF) as u32;
        out[2 * SYMMETRIES + s] = (2 << 24) | ((b & 0xFFF) | ((b >> 4) & 0xFF_F000)) as u32;
        out[3 * SYMMETRIES + s] =
            (3 << 24) | (((b >> 16) & 0xFFF) | ((b >> 20) & 0xFF_F000)) as u32;
    }
    out
}

impl<'a> Standard<'a> {
    /// The standard features of `network`, if its layout is the standard one.
    pub(crate) fn of(network: &'a Network) -> Option<Standard<'a>> {
        if !network.layout().reads_as(&Layout::standard(false)) {
            return None;
        }
        let weights = network.cells();
        let block = |t: usize| -> Option<&'a Tuple6> {
            weights.get(t << 24..(t + 1) << 24)?.try_into().ok()
        };
        let first = block(0)?;
        let mut blocks = [first; BLOCKS];
        for (t, slot) in blocks
            .iter_mut()
            .enumerate()
            .take(4 * network.layout().stages().len())
        {
            *slot = block(t)?;
        }
        Some(Standard {
            blocks,
            network,
            coherence: network.coherence(),
        })
    }

    /// The block of index `i` (bits 24 and up): every index of one tuple of one board is in
    /// the same block, so a sum looks it up once a tuple, not once a weight (that kept the
    /// TD(0) trainer's speed as it was before stages).
    #[inline(always)]
    fn block(&self, i: u32) -> &Tuple6 {
        self.blocks[(i >> 24) as usize % BLOCKS]
    }
}

impl Features for Standard<'_> {
    type Indices = [u32; 4 * SYMMETRIES];

    /// The board's indices in its stage, begun first ([`Network::reach`]).
    #[inline(always)]
    fn indices(&self, board: Bits) -> [u32; 4 * SYMMETRIES] {
        let mut at = standard_indices(board);
        let stage = self.network.reach(board) as u32;
        if stage > 0 {
            for i in &mut at {
                *i += (4 * stage) << 24;
            }
        }
        at
    }

    #[inline(always)]
    fn value(&self, at: &[u32; 4 * SYMMETRIES]) -> f32 {
        let [sum] = self.values([at]);
        sum
    }

    /// The `N` sums in step, weight by weight: each one's additions are in its own order (so
    /// each is [`Features::value`]'s, bit for bit), and the chains of additions and their
    /// reads overlap instead of waiting one for another.
    #[inline(always)]
    fn values<const N: usize>(&self, at: [&[u32; 4 * SYMMETRIES]; N]) -> [f32; N] {
        let mut sums = [-0.0f32; N];
        for t in 0..4 {
            let blocks = at.map(|at| self.block(at[t * SYMMETRIES]));
            for k in t * SYMMETRIES..(t + 1) * SYMMETRIES {
                for ((sum, at), block) in sums.iter_mut().zip(at).zip(blocks) {
                    *sum +=
                        f32::from_bits(block[(at[k] & 0xFF_FFFF) as usize].load(Ordering::Relaxed));
                }
            }
        }
        sums
    }

    #[inline(always)]
    fn adjust(&self, at: &[u32; 4 * SYMMETRIES], delta: f32) {
        match self.coherence {
            None => {
                for tuple in at.chunks_exact(SYMMETRIES) {
                    let block = self.block(tuple[0]);
                    for &i in tuple {
                        let w = &block[(i & 0xFF_FFFF) as usize];
                        let old = f32::from_bits(w.load(Ordering::Relaxed));
                        w.store((old + delta).to_bits(), Ordering::Relaxed);
                    }
                }
            }
            Some(c) => {
                // Through the flat weights, where block `b` starts at `b << 24`: an index is
                // its flat one. The same rule as every other path's.
                let weights = self.network.cells();
                for &i in at {
                    cohere(weights, c, i as usize, delta);
                }
            }
        }
    }
}

/// Any layout's features, through its compiled cells, and its weights.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AnyLayout<'a> {
    compiled: &'a Compiled,
    weights: &'a [AtomicU32],
    network: &'a Network,
}

impl<'a> AnyLayout<'a> {
    /// The features of `network`.
    pub(crate) fn of(network: &'a Network) -> AnyLayout<'a> {
        AnyLayout {
            compiled: network.compiled(),
            weights: network.cells(),
            network,
        }
    }
}

/// The indices of a layout's features: as many as it reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Indices {
    at: [u32; MAX_FEATURES],
    n: usize,
}

impl AsRef<[u32]> for Indices {
    fn as_ref(&self) -> &[u32] {
        &self.at[..self.n.min(MAX_FEATURES)]
    }
}

impl Features for AnyLayout<'_> {
    type Indices = Indices;

    #[inline]
    fn indices(&self, board: Bits) -> Indices {
        self.network.reach(board);
        let mut at = [0u32; MAX_FEATURES];
        let n = self.compiled.indices_into(board, 0, &mut at);
        Indices { at, n }
    }

    #[inline]
    fn value(&self, at: &Indices) -> f32 {
        value_at(self.weights, at.as_ref())
    }

    #[inline]
    fn adjust(&self, at: &Indices, delta: f32) {
        adjust_at(self.weights, self.network.coherence(), at.as_ref(), delta);
    }
}

/// The moves of the game under way, for its restarts and its hand-over: the position after
/// each move of the path since the start (the path a restart cut back), the move each made
/// (`Direction::ALL`'s index), and where the path was reseeded, by which restart.
#[derive(Debug, Clone, Default)]
pub(crate) struct Path {
    pub(crate) boards: Vec<Bits>,
    pub(crate) moves: Vec<u8>,
    pub(crate) reseeds: Vec<(usize, u64)>,
}

/// A game the fast path cannot go on with (a move would make a rank beyond 15): where it
/// stands, for the engine's path to go on from the same position (rebuilt from
/// [`Path::moves`] and [`Path::reseeds`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handover {
    /// The game so far, its stretches before this one counted.
    pub(crate) course: Course,
    /// The stretch under way: its last afterstate, not yet learned from, and its moves.
    pub(crate) previous: Option<Bits>,
    pub(crate) played: u64,
}

/// Plays a game seeded `seed` on `network` with `features` (its layout's), learning at
/// `rate`, restarting when `keep`: the game, or where it must go on on the engine's path.
pub(crate) fn play<F: Features>(
    fast: &Fast,
    features: &F,
    rate: f32,
    keep: bool,
    mut course: Course,
    path: &mut Path,
) -> Result<super::course::Game, Handover> {
    let Path {
        boards,
        moves,
        reseeds,
    } = path;
    boards.clear();
    moves.clear();
    reseeds.clear();
    let mut rng = GameRng::from_seed(course.seed);
    let mut board = fast.start(&mut rng);
    loop {
        if keep {
            boards.push(board);
        }
        let first = course.first.is_none();
        let (mut merged, mut won) = (0u64, false);
        let mut previous: Option<(Bits, F::Indices)> = None;
        let mut played = 0u64;
        loop {
            // The four afterstates and their indices first, then their values: the weights'
            // reads are all in flight at once, before any choice waits on one.
            let mut afterstates = [(0u64, 0f32, None::<F::Indices>); 4];
            let mut over = false;
            for (d, slot) in afterstates.iter_mut().enumerate() {
                let (after, reward, o) = fast.lines.slide(board, d);
                over |= o;
                if after != board {
                    *slot = (after, reward, Some(features.indices(after)));
                }
            }
            if over {
                return Err(Handover {
                    course,
                    previous: previous.map(|(b, _)| b),
                    played,
                });
            }
            // Only the moves that move are valued, at once, in their order; with none, the
            // game is over.
            let Some(any) = afterstates.iter().find_map(|a| a.2.as_ref()) else {
                break;
            };
            let mut moving = [any; 4];
            let mut n = 0;
            for at in afterstates.iter().filter_map(|a| a.2.as_ref()) {
                moving[n] = at;
                n += 1;
            }
            let [m0, m1, m2, _] = moving;
            let values: [f32; 4] = match n {
                4 => features.values(moving),
                3 => {
                    let [v0, v1, v2] = features.values([m0, m1, m2]);
                    [v0, v1, v2, 0.0]
                }
                2 => {
                    let [v0, v1] = features.values([m0, m1]);
                    [v0, v1, 0.0, 0.0]
                }
                _ => [features.value(m0), 0.0, 0.0, 0.0],
            };
            let mut best: Option<(f32, usize, Bits, F::Indices)> = None;
            let mut k = 0;
            for (d, &(after, reward, at)) in afterstates.iter().enumerate() {
                let Some(at) = at else { continue };
                let v = reward + values[k];
                k += 1;
                if best.as_ref().is_none_or(|b| v > b.0) {
                    best = Some((v, d, after, at));
                }
            }
            let Some((target, d, after, at)) = best else {
                break;
            };
            if let Some((_, p)) = &previous {
                features.adjust(p, rate * (target - features.value(p)));
            }
            previous = Some((after, at));
            if first {
                merged = merged.saturating_add(fast.lines.points(board, d));
                won |= fast.win.is_some_and(|w| max_rank(after) >= w);
            }
            board = fast.spawn(after, &mut rng);
            if keep {
                boards.push(board);
            }
            moves.push(d as u8);
            played += 1;
        }
        if let Some((_, p)) = &previous {
            features.adjust(p, rate * -features.value(p));
        }
        let Some(middle) = course.stretch_done(played, keep, || (fast.score(board, merged), won))
        else {
            return Ok(course.game());
        };
        boards.truncate(middle + 1);
        moves.truncate(middle);
        reseeds.retain(|&(at, _)| at < middle);
        reseeds.push((middle, course.restarts));
        board = boards.pop().unwrap_or(board);
        rng = GameRng::from_seed(restart_seed(course.seed, course.restarts));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use proptest::prelude::*;
    use tilebox_sliding::builtin_variant;

    use super::super::train::{Method, Mover, TrainOptions, game_seed, play_game};
    use super::*;

    /// The plain reference: the cell symmetry `s` sends `(row, col)` to, by turning the
    /// coordinates (mirrored first for `s` from 4), and a tuple's index read cell by cell.
    fn reference_cell(row: usize, col: usize, s: usize) -> usize {
        let (mut r, mut c) = (row, if s >= 4 { 3 - col } else { col });
        for _ in 0..s % 4 {
            (r, c) = (c, 3 - r);
        }
        4 * r + c
    }

    fn reference_indices(layout: &Layout, board: Bits) -> Vec<u32> {
        let rank = |cell: usize| ((board >> (4 * cell)) & 0xF) as u32;
        let mut out = Vec::new();
        let mut base = 0u32;
        for tuple in layout.tuples() {
            for s in 0..SYMMETRIES {
                let mut index = 0u32;
                for (k, &cell) in tuple.iter().enumerate() {
                    let image = reference_cell(usize::from(cell) / 4, usize::from(cell) % 4, s);
                    index |= rank(image) << (4 * k);
                }
                out.push(base + index);
            }
            base += 1 << (4 * tuple.len());
        }
        out
    }

    /// Boards seen in play: full ones, sparse ones, and every rank.
    const BOARDS: [Bits; 5] = [
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
        0x0000_0000_0000_0001,
        0x1000_0200_0030_0004,
        0x2113_0a21_5b00_1c02,
    ];

    #[test]
    fn the_standard_features_are_the_reference_ones_on_fixed_boards() {
        let layout = Layout::standard(false);
        for board in BOARDS {
            assert_eq!(
                standard_indices(board).to_vec(),
                reference_indices(&layout, board),
                "{board:016x}"
            );
        }
        // Another layout's, through its compiled cells, too.
        let small = Network::new(&Layout::small(false), 0.0);
        for board in BOARDS {
            let any = AnyLayout::of(&small).indices(board);
            assert_eq!(
                any.as_ref(),
                reference_indices(small.layout(), board).as_slice()
            );
        }
    }

    proptest! {
        #[test]
        fn the_standard_features_are_the_reference_ones(board in any::<u64>()) {
            let layout = Layout::standard(false);
            prop_assert_eq!(standard_indices(board).to_vec(), reference_indices(&layout, board));
            let compiled = Compiled::new(&layout);
            let mut at = [0u32; MAX_FEATURES];
            let n = compiled.indices_into(board, 0, &mut at);
            let any = &at[..n];
            let standard = standard_indices(board);
            prop_assert_eq!(any, standard.as_slice());
        }
    }

    /// The valuation and one TD step on the standard network, against a plain sum and a plain
    /// update of the weights the reference features pick.
    #[test]
    fn a_valuation_and_a_td_step_are_the_reference_ones() {
        let layout = Layout::standard(false);
        let network = Network::new(&layout, 0.0);
        let weights = network.cells();
        // Weights that differ from one another, where the boards read them.
        for (n, board) in BOARDS.into_iter().enumerate() {
            for (k, i) in reference_indices(&layout, board).into_iter().enumerate() {
                let w = 0.25 * (n * 32 + k) as f32 - 3.0;
                weights[i as usize].store(w.to_bits(), Ordering::Relaxed);
            }
        }
        let read = |i: u32| f32::from_bits(weights[i as usize].load(Ordering::Relaxed));
        let standard = Standard::of(&network).unwrap();
        let plain_value = |board: Bits| -> f32 {
            reference_indices(&layout, board)
                .into_iter()
                .map(|i| f32::from_bits(weights[i as usize].load(Ordering::Relaxed)))
                .sum()
        };
        for board in BOARDS {
            let at = standard.indices(board);
            assert_eq!(standard.value(&at), plain_value(board));
            assert_eq!(value_at(weights, &at), plain_value(board));
            assert_eq!(standard.value(&at), network.value(board, 0));
        }
        // One TD step from the first board toward the second's value and a reward of 8.
        let (s, next) = (BOARDS[4], BOARDS[1]);
        let rate = 0.1 / 32.0;
        let target = 8.0 + plain_value(next);
        let delta = rate * (target - plain_value(s));
        let mut expected: Vec<(u32, f32)> = Vec::new();
        for i in reference_indices(&layout, s) {
            match expected.iter_mut().find(|e| e.0 == i) {
                Some(e) => e.1 += delta,
                None => expected.push((i, read(i) + delta)),
            }
        }
        let at = standard.indices(s);
        let fast_target = 8.0 + standard.value(&standard.indices(next));
        standard.adjust(&at, rate * (fast_target - standard.value(&at)));
        for (i, w) in expected {
            assert_eq!(read(i), w, "weight {i}");
        }
    }

    /// The plain reference of 2048's move `d` (left, right, up, down) of `board`: each line
    /// read from the wall its tiles move toward, its tiles packed against it, each pair of
    /// equal neighbours merged once into the next rank, earning that tile's value.
    fn reference_slide(board: Bits, d: usize) -> (Bits, f32) {
        let rank = |r: usize, c: usize| ((board >> (4 * (4 * r + c))) & 0xF) as u8;
        let (mut out, mut reward) = (0u64, 0f32);
        for k in 0..4 {
            let at = |i: usize| match d {
                0 => (k, i),
                1 => (k, 3 - i),
                2 => (i, k),
                _ => (3 - i, k),
            };
            let tiles: Vec<u8> = (0..4)
                .map(|i| rank(at(i).0, at(i).1))
                .filter(|&t| t != 0)
                .collect();
            let mut moved = Vec::new();
            let mut i = 0;
            while i < tiles.len() {
                if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
                    moved.push(tiles[i] + 1);
                    reward += 2f32.powi(i32::from(tiles[i]) + 1);
                    i += 2;
                } else {
                    moved.push(tiles[i]);
                    i += 1;
                }
            }
            for (i, &t) in moved.iter().enumerate() {
                let (r, c) = at(i);
                out |= u64::from(t) << (4 * (4 * r + c));
            }
        }
        (out, reward)
    }

    /// Boards with merges in every direction, and none (a full board of distinct tiles).
    const MOVING: [Bits; 6] = [
        0x0123_4567_89ab_cde0,
        0x1111_2222_0330_4004,
        0x0000_0000_0000_0011,
        0x1120_0231_2b2b_0aa0,
        0x1000_1000_2000_2000,
        0x2113_0a21_5b00_1c02,
    ];

    /// Item 6 of issue 36: the fast trainer's pieces against plain references on fixed boards.
    /// A move of the line tables is the plain slide, with its reward; and one training move
    /// (the four afterstates valued four at a time, the best chosen, the previous
    /// afterstate's TD step toward it) gives the target and the weights that a plain
    /// reference gives: its features read cell by cell, its values summed weight by weight,
    /// its step added weight by weight.
    #[test]
    fn one_training_move_is_the_reference_one_on_fixed_boards() {
        let variant = builtin_variant("2048").unwrap();
        let rules = Rules::new(&variant).unwrap();
        let fast = Fast::new(&variant, &rules, &VariantModel::new(&rules, 1)).unwrap();
        for board in MOVING.into_iter().chain(BOARDS) {
            for d in 0..4 {
                let (after, reward, over) = fast.lines.slide(board, d);
                if over {
                    continue;
                }
                assert_eq!(
                    (after, reward),
                    reference_slide(board, d),
                    "{board:016x} {d}"
                );
            }
        }

        let layout = Layout::standard(false);
        let network = Network::new(&layout, 0.0);
        let weights = network.cells();
        let read = |i: u32| f32::from_bits(weights[i as usize].load(Ordering::Relaxed));
        let plain_value = |board: Bits| -> f32 {
            reference_indices(&layout, board)
                .into_iter()
                .map(read)
                .sum()
        };
        let standard = Standard::of(&network).unwrap();
        let rate = 0.1 / 32.0;
        for (n, pair) in MOVING.windows(2).enumerate() {
            let (previous, board) = (pair[0], pair[1]);
            // Weights that differ from one another wherever this move reads them.
            let reads = (0..4)
                .map(|d| reference_slide(board, d).0)
                .chain([previous])
                .flat_map(|b| reference_indices(&layout, b));
            for i in reads {
                let w = (i.wrapping_mul(2_654_435_761) % 1000) as f32 / 8.0 - 60.0 + n as f32;
                weights[i as usize].store(w.to_bits(), Ordering::Relaxed);
            }

            // The reference: each move that moves, its reward plus its afterstate's value; the
            // first best; the previous afterstate's step toward it, weight by weight.
            let mut best: Option<f32> = None;
            for d in 0..4 {
                let (after, reward) = reference_slide(board, d);
                let v = reward + plain_value(after);
                if after != board && best.is_none_or(|b| v > b) {
                    best = Some(v);
                }
            }
            let target = best.unwrap();
            let delta = rate * (target - plain_value(previous));
            let mut expected: Vec<(u32, f32)> = Vec::new();
            for i in reference_indices(&layout, previous) {
                match expected.iter_mut().find(|e| e.0 == i) {
                    Some(e) => e.1 += delta,
                    None => expected.push((i, read(i) + delta)),
                }
            }

            // The fast path's pieces, as `play` makes a move: the line table, the eight images'
            // indices, the values at once (here all four, a move that moves nothing valued as
            // the first that does and left out; `play` values only those that move, each sum
            // the same), then the step.
            let afterstates = [0, 1, 2, 3].map(|d| {
                let (after, reward, _) = fast.lines.slide(board, d);
                (after, reward, standard.indices(after))
            });
            let any = afterstates.iter().find(|a| a.0 != board).unwrap().2;
            let values = standard.values(
                afterstates
                    .each_ref()
                    .map(|a| if a.0 != board { &a.2 } else { &any }),
            );
            let mut fast_best: Option<f32> = None;
            for (&(after, reward, _), v) in afterstates.iter().zip(values) {
                let v = reward + v;
                if after != board && fast_best.is_none_or(|b| v > b) {
                    fast_best = Some(v);
                }
            }
            assert_eq!(fast_best.map(f32::to_bits), Some(target.to_bits()));
            let at = standard.indices(previous);
            standard.adjust(&at, rate * (target - standard.value(&at)));
            for (i, w) in expected {
                assert_eq!(
                    read(i).to_bits(),
                    w.to_bits(),
                    "weight {i} after {board:016x}"
                );
            }
        }
    }

    /// Games played on bitboards and on the engine learn the same weights, bit for bit, and
    /// end alike, with restarts and without, in 2048 and three of its kin (other ladders,
    /// weights and merges); so too a game that makes a tile beyond a nibble (a 2048 that spawns
    /// 16384s and 32768s), which the engine's path finishes.
    #[test]
    fn the_fast_path_trains_as_the_engine_does() {
        let big = crate::testing::big_spawning_2048();
        let kin = ["2584", "3125", "4096"].map(|id| (builtin_variant(id).unwrap(), 3));
        for (variant, games) in [(builtin_variant("2048").unwrap(), 12), (big, 6)]
            .into_iter()
            .chain(kin)
        {
            for method in [Method::Restarts, Method::FromStart] {
                let layout = Layout::small(false);
                let options = TrainOptions {
                    seed: 11,
                    method,
                    ..TrainOptions::default()
                };
                let (fast, engine) = (Network::new(&layout, 0.0), Network::new(&layout, 0.0));
                let mut on_bits = Mover::new(&variant).unwrap();
                let mut on_engine = Mover::engine_only(&variant).unwrap();
                assert!(on_bits.is_fast() && !on_engine.is_fast());
                for index in 0..games {
                    let a = play_game(&fast, &variant, &options, index, &mut on_bits).unwrap();
                    let b = play_game(&engine, &variant, &options, index, &mut on_engine).unwrap();
                    assert_eq!(a, b, "{} game {index}", variant.id);
                    assert!(
                        fast.weights()
                            .map(f32::to_bits)
                            .eq(engine.weights().map(f32::to_bits))
                    );
                }
            }
            // Whether the fast path handed a game over to the engine's.
            let rules = Rules::new(&variant).unwrap();
            let fast = Fast::new(&variant, &rules, &VariantModel::new(&rules, 1)).unwrap();
            let network = Network::new(&Layout::small(false), 0.0);
            let course = Course::new(0, game_seed(11, 0));
            let features = AnyLayout::of(&network);
            let played = play(&fast, &features, 0.01, true, course, &mut Path::default());
            // 2048's first game stays on bitboards; the big one's is handed over (as are
            // games of ladders whose win lies past rank 15, 2584's 1597 and up).
            match variant.id.as_str() {
                "2048" => assert!(played.is_ok()),
                "big" => assert!(played.is_err()),
                _ => {}
            }
        }
    }
}
