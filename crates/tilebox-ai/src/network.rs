//! The n-tuple network itself, below the search that plays with it (`generic`) and the
//! learning player that trains it (`ntuple`, which names these items as its own): its layout,
//! its weights while training and while playing, and the board as it reads it.
//!
//! - A board is read as 16 cells of 4 bits: the tile's ladder position (rank), empty = 0,
//!   clamped at 15. Any sliding variant of side 4 is read so ([`pack`]).
//! - A [`Layout`] is a list of tuples (cell lists, 1 to 6 cells each); each is looked up under
//!   the 8 symmetries of the square, so a tuple of `k` cells owns `16^k` weights, shared by
//!   its 8 images. A variant with a preview (Threes) adds one more family: the outer row keyed
//!   by the previewed tile ([`preview_class`]), `16 × 16^4` weights.
//! - The value of an afterstate (the board after a swipe, before the new tile) is the sum of
//!   the weights its features pick ([`Compiled::value`]); one TD step adds the same amount to
//!   each of them ([`Network::adjust`]). Both walk a fixed table of cells: nothing is
//!   allocated per call.
//!
//! Weights are `f32` while training ([`Network`]: atomics, so that threads may share them
//! lock-free, "Hogwild"), and 16-bit integers with one scale while playing ([`PlayNetwork`]),
//! which keeps the standard 4×6-tuple network at 130 MiB instead of 260.

use std::sync::atomic::{AtomicU32, Ordering};

use thiserror::Error;
use tilebox_sliding::{Board, SlidingState};

/// The board side the networks read.
pub const SIDE: usize = 4;

/// The most cells a tuple has.
pub const MAX_TUPLE: usize = 6;

/// The most tuples a layout has (the preview's family not counted).
pub const MAX_TUPLES: usize = 16;

/// The most weights a network has: at 16 bits a weight, 160 MiB, the most a player holds.
pub const MAX_WEIGHTS: usize = 80 << 20;

/// The symmetries of the square: each tuple is looked up under all of them.
pub const SYMMETRIES: usize = 8;

/// The most features a network reads: every tuple and the preview's family, under every
/// symmetry.
pub(crate) const MAX_FEATURES: usize = (MAX_TUPLES + 1) * SYMMETRIES;

/// The cells of the outer row, which the preview's family reads.
const PREVIEW_TUPLE: [u8; 4] = [0, 1, 2, 3];

/// Weights of the preview's family: 16 preview classes times 16^4.
const PREVIEW_WEIGHTS: usize = 16 << 16;

/// Why a layout is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutError {
    /// No tuple, or more than [`MAX_TUPLES`].
    #[error("{0} tuples, not 1 to {MAX_TUPLES}")]
    TupleCount(usize),
    /// A tuple of no cell or more than [`MAX_TUPLE`].
    #[error("a tuple of {0} cells, not 1 to {MAX_TUPLE}")]
    TupleLength(usize),
    /// A cell off the 4×4 board, or twice in one tuple.
    #[error("tuple {0} names a cell off the board or twice")]
    BadCell(usize),
    /// More weights than [`MAX_WEIGHTS`].
    #[error("{0} weights, more than {MAX_WEIGHTS}")]
    TooBig(usize),
}

/// Which tuples a network reads: cell lists on the 4×4 board (cell `row * 4 + col`), and
/// whether it reads the previewed tile too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    tuples: Vec<Vec<u8>>,
    preview: bool,
}

impl Layout {
    /// A layout of these tuples, checked: 1 to [`MAX_TUPLES`] tuples of 1 to [`MAX_TUPLE`]
    /// distinct cells of 0 to 15, at most [`MAX_WEIGHTS`] weights in all.
    pub fn new(tuples: Vec<Vec<u8>>, preview: bool) -> Result<Layout, LayoutError> {
        if tuples.is_empty() || tuples.len() > MAX_TUPLES {
            return Err(LayoutError::TupleCount(tuples.len()));
        }
        for (i, t) in tuples.iter().enumerate() {
            if t.is_empty() || t.len() > MAX_TUPLE {
                return Err(LayoutError::TupleLength(t.len()));
            }
            let mut seen = 0u16;
            for &c in t {
                if c >= 16 || seen & (1 << c) != 0 {
                    return Err(LayoutError::BadCell(i));
                }
                seen |= 1 << c;
            }
        }
        let layout = Layout { tuples, preview };
        let n = layout.weight_count();
        if n > MAX_WEIGHTS {
            return Err(LayoutError::TooBig(n));
        }
        Ok(layout)
    }

    /// The usual 4×6-tuples (Yeh et al. 2016; TDL2048's `4x6patt`), 67 million weights, and
    /// the preview's family when `preview`.
    pub fn standard(preview: bool) -> Layout {
        Layout {
            tuples: vec![
                vec![0, 1, 2, 3, 4, 5],
                vec![4, 5, 6, 7, 8, 9],
                vec![0, 1, 2, 4, 5, 6],
                vec![4, 5, 6, 8, 9, 10],
            ],
            preview,
        }
    }

    /// A small layout for tests and quick trials: the outer and the inner row as 4-tuples
    /// (131,072 weights), and the preview's family when `preview`.
    pub fn small(preview: bool) -> Layout {
        Layout {
            tuples: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
            preview,
        }
    }

    /// The tuples, as cell lists.
    pub fn tuples(&self) -> &[Vec<u8>] {
        &self.tuples
    }

    /// Whether the network reads the previewed tile.
    pub fn preview(&self) -> bool {
        self.preview
    }

    /// How many weights the network has.
    pub fn weight_count(&self) -> usize {
        let tuples: usize = self.tuples.iter().map(|t| 1usize << (4 * t.len())).sum();
        tuples + if self.preview { PREVIEW_WEIGHTS } else { 0 }
    }

    /// How many weights one evaluation reads.
    pub fn feature_count(&self) -> usize {
        (self.tuples.len() + usize::from(self.preview)) * SYMMETRIES
    }
}

/// The cell a symmetry sends `cell` to: `sym` 0 to 3 rotate by quarter turns, 4 to 7 mirror
/// first.
fn transform(cell: u8, sym: usize) -> u8 {
    let (mut r, mut c) = (cell / 4, cell % 4);
    if sym >= 4 {
        c = 3 - c;
    }
    for _ in 0..sym % 4 {
        (r, c) = (c, 3 - r);
    }
    r * 4 + c
}

/// One feature: where its weights start, and the board's nibble shifts it reads, in order.
#[derive(Debug, Clone, Copy)]
struct Feature {
    base: u32,
    len: u8,
    /// Whether the preview class leads the index.
    preview: bool,
    shifts: [u8; MAX_TUPLE],
}

/// A layout turned into features: every tuple under every symmetry, with its weights' offset.
#[derive(Debug, Clone)]
pub struct Compiled {
    layout: Layout,
    features: Vec<Feature>,
}

impl Compiled {
    /// The features of `layout`.
    pub fn new(layout: &Layout) -> Compiled {
        let mut features = Vec::with_capacity(layout.feature_count());
        let mut base = 0usize;
        let families = layout
            .tuples
            .iter()
            .map(|t| (t.as_slice(), false))
            .chain(layout.preview.then_some((&PREVIEW_TUPLE[..], true)));
        for (tuple, preview) in families {
            for sym in 0..SYMMETRIES {
                let mut shifts = [0u8; MAX_TUPLE];
                for (slot, &cell) in shifts.iter_mut().zip(tuple) {
                    *slot = 4 * transform(cell, sym);
                }
                features.push(Feature {
                    // At most MAX_WEIGHTS (checked by Layout::new), well within u32.
                    base: base as u32,
                    len: tuple.len() as u8,
                    preview,
                    shifts,
                });
            }
            base += (1usize << (4 * tuple.len())) * if preview { 16 } else { 1 };
        }
        Compiled {
            layout: layout.clone(),
            features,
        }
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The weight index of each feature of `board` with preview class `preview`, in order.
    #[inline]
    fn indices(&self, board: u64, preview: u8) -> impl Iterator<Item = usize> + '_ {
        self.features.iter().map(move |f| {
            let mut idx = 0usize;
            for (k, &s) in f.shifts[..usize::from(f.len)].iter().enumerate() {
                idx |= (((board >> s) & 0xF) as usize) << (4 * k);
            }
            if f.preview {
                idx |= usize::from(preview & 0xF) << (4 * usize::from(f.len));
            }
            f.base as usize + idx
        })
    }

    /// The value of `board` (packed, [`pack`]) with preview class `preview` under `weights`.
    #[inline]
    pub fn value<W: WeightTable + ?Sized>(&self, weights: &W, board: u64, preview: u8) -> f32 {
        let (at, n) = self.index_array(board, preview);
        at[..n].iter().map(|&i| weights.weight(i)).sum()
    }

    /// Every feature's weight index into `out`, in order, as the trainer's fast path keeps them
    /// (`u32`: a network has at most [`MAX_WEIGHTS`]); returns how many.
    #[inline]
    pub(crate) fn indices_into(
        &self,
        board: u64,
        preview: u8,
        out: &mut [u32; MAX_FEATURES],
    ) -> usize {
        let mut n = 0;
        for (slot, i) in out.iter_mut().zip(self.indices(board, preview)) {
            *slot = i as u32;
            n += 1;
        }
        n
    }

    /// Every feature's weight index, computed before any weight is read: the reads are then
    /// independent, and the processor has all of them in flight at once instead of waiting
    /// for one cache miss after another (3× faster on the standard network).
    #[inline]
    fn index_array(&self, board: u64, preview: u8) -> ([usize; MAX_FEATURES], usize) {
        let mut at = [0usize; MAX_FEATURES];
        let mut n = 0;
        for (slot, i) in at.iter_mut().zip(self.indices(board, preview)) {
            *slot = i;
            n += 1;
        }
        (at, n)
    }
}

/// Weights as the evaluation reads them.
pub trait WeightTable {
    /// The weight at `index`; 0 past the end.
    fn weight(&self, index: usize) -> f32;
}

impl WeightTable for [AtomicU32] {
    #[inline(always)]
    fn weight(&self, index: usize) -> f32 {
        self.get(index)
            .map_or(0.0, |w| f32::from_bits(w.load(Ordering::Relaxed)))
    }
}

/// 16-bit weights and the scale that turns them back into values.
#[derive(Debug, Clone)]
pub struct Quantized {
    weights: Vec<i16>,
    scale: f32,
}

impl WeightTable for Quantized {
    #[inline]
    fn weight(&self, index: usize) -> f32 {
        self.weights
            .get(index)
            .map_or(0.0, |&w| f32::from(w) * self.scale)
    }
}

/// Whether a network can be trained for `variant`: a board of side [`SIDE`], whose rules are
/// the same on every move (a network learns one position's worth whatever the move's number or
/// direction), on a ladder (a cell is 4 bits of ladder position: a range of integers' tiles,
/// 1762's, are thousands of numbers whose order says little of how they merge).
pub fn trainable(variant: &tilebox_sliding::Variant) -> bool {
    variant.side == SIDE && !variant.has_move_rules() && !variant.tiles.is_numbered()
}

/// The networks a run can train, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NetworkSize {
    /// The 4×6-tuples ([`Layout::standard`]), 67 million weights: 256 MiB while training.
    #[default]
    Standard,
    /// The outer and inner rows as 4-tuples ([`Layout::small`]), 131,072 weights: quick and
    /// weak, for tests and trials.
    Small,
}

impl NetworkSize {
    /// Both, the standard first.
    pub const ALL: [NetworkSize; 2] = [NetworkSize::Standard, NetworkSize::Small];

    /// Its name: `standard` or `small`.
    pub fn name(self) -> &'static str {
        match self {
            NetworkSize::Standard => "standard",
            NetworkSize::Small => "small",
        }
    }

    /// Its layout, with the preview's family when `preview`.
    pub fn layout(self, preview: bool) -> Layout {
        match self {
            NetworkSize::Standard => Layout::standard(preview),
            NetworkSize::Small => Layout::small(preview),
        }
    }

    /// The size whose layout `layout` is, if it is one of them.
    pub fn of(layout: &Layout) -> Option<NetworkSize> {
        NetworkSize::ALL
            .into_iter()
            .find(|s| s.layout(layout.preview()) == *layout)
    }
}

/// The 4×4 board packed for the network: 4 bits a cell (rank clamped at 15), cell `i` at bits
/// `4i..4i+4`, row-major; `None` for a board of another side.
pub fn pack(board: &Board) -> Option<u64> {
    if board.side() != SIDE {
        return None;
    }
    let mut packed = 0u64;
    for (i, (_, rank)) in board.cells_with_ranks().enumerate().take(16) {
        packed |= u64::from(rank.min(15)) << (4 * i);
    }
    Some(packed)
}

/// The previewed tile as the network reads it: its rank clamped to 1..=15, or 0 when there is
/// no preview or it is a hidden bonus tile.
pub fn preview_class(state: &SlidingState) -> u8 {
    state
        .next_rank()
        .map_or(0, |r| u8::try_from(r.clamp(1, 15)).unwrap_or(15))
}

/// A network being trained: `f32` weights, shared lock-free by training threads.
#[derive(Debug)]
pub struct Network {
    compiled: Compiled,
    weights: Vec<AtomicU32>,
}

impl Network {
    /// A network of `layout` with every weight `init`. (Optimistic initialisation would start
    /// them high; 0 is the plain start.)
    pub fn new(layout: &Layout, init: f32) -> Network {
        let bits = init.to_bits();
        Network {
            compiled: Compiled::new(layout),
            weights: (0..layout.weight_count())
                .map(|_| AtomicU32::new(bits))
                .collect(),
        }
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        self.compiled.layout()
    }

    /// The value of a packed afterstate with preview class `preview`.
    #[inline]
    pub fn value(&self, board: u64, preview: u8) -> f32 {
        self.compiled.value(&self.weights[..], board, preview)
    }

    /// The compiled layout.
    pub(crate) fn compiled(&self) -> &Compiled {
        &self.compiled
    }

    /// The weights themselves, for the trainer's fast path, which computes the indices
    /// ([`value_at`], [`adjust_at`]).
    pub(crate) fn cells(&self) -> &[AtomicU32] {
        &self.weights
    }

    /// Adds `delta` to every weight the afterstate's features pick (one TD step). With
    /// several threads, updates of one weight may race and one of them be lost (Hogwild).
    #[inline]
    pub fn adjust(&self, board: u64, preview: u8, delta: f32) {
        let (at, n) = self.compiled.index_array(board, preview);
        for &i in &at[..n] {
            add(&self.weights, i, delta);
        }
    }

    /// The weights, in order.
    pub fn weights(&self) -> impl ExactSizeIterator<Item = f32> + '_ {
        self.weights
            .iter()
            .map(|w| f32::from_bits(w.load(Ordering::Relaxed)))
    }

    /// A network of `layout` holding `weights`; `None` unless there are exactly as many as the
    /// layout has.
    pub fn from_weights(layout: &Layout, weights: Vec<f32>) -> Option<Network> {
        (weights.len() == layout.weight_count()).then(|| Network {
            compiled: Compiled::new(layout),
            weights: weights
                .into_iter()
                .map(|w| AtomicU32::new(w.to_bits()))
                .collect(),
        })
    }
}

/// Adds `delta` to the weight at `index` (nothing past the end): one weight's share of a TD
/// step, as [`Network::adjust`] and the trainer's fast path make it.
#[inline(always)]
fn add(weights: &[AtomicU32], index: usize, delta: f32) {
    if let Some(w) = weights.get(index) {
        let old = f32::from_bits(w.load(Ordering::Relaxed));
        w.store((old + delta).to_bits(), Ordering::Relaxed);
    }
}

/// The value the features at `indices` give under `weights`: [`Compiled::value`]'s sum, in
/// the same order and from the same start (`-0.0`, as `Iterator::sum` starts), bit for bit,
/// from indices computed beforehand (the trainer's fast path); a plain loop, which the
/// compiler keeps inline where the iterator's closure was a call a weight.
#[inline(always)]
pub(crate) fn value_at(weights: &[AtomicU32], indices: &[u32]) -> f32 {
    let mut sum = -0.0f32;
    for &i in indices {
        sum += weights.weight(i as usize);
    }
    sum
}

/// [`Network::adjust`] on the features at `indices`, in the same order.
#[inline(always)]
pub(crate) fn adjust_at(weights: &[AtomicU32], indices: &[u32], delta: f32) {
    for &i in indices {
        add(weights, i as usize, delta);
    }
}

/// A network for playing: 16-bit weights (2 bytes each: the standard layout holds 130 MiB).
#[derive(Debug, Clone)]
pub struct PlayNetwork {
    compiled: Compiled,
    weights: Quantized,
}

impl PlayNetwork {
    /// The value of a packed afterstate with preview class `preview`.
    #[inline]
    pub fn value(&self, board: u64, preview: u8) -> f32 {
        self.compiled.value(&self.weights, board, preview)
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        self.compiled.layout()
    }

    /// Whether its layout is the standard one without the preview's family
    /// ([`Layout::standard`]), whose features a search may read straight off a board's images
    /// ([`crate::ntuple::standard_indices`]) and value with [`PlayNetwork::value_at`].
    pub(crate) fn is_standard(&self) -> bool {
        *self.layout() == Layout::standard(false)
    }

    /// The sum of the weights at `indices`, in their order: [`PlayNetwork::value`]'s, bit for
    /// bit, when they are the board's features in the network's order.
    #[inline]
    pub(crate) fn value_at(&self, indices: &[u32]) -> f32 {
        indices
            .iter()
            .map(|&i| self.weights.weight(i as usize))
            .sum()
    }

    /// Bytes of weights held.
    pub fn weight_bytes(&self) -> usize {
        self.weights.weights.len() * 2
    }

    /// `network`'s weights rounded to 16 bits, with one scale: the largest weight in size
    /// becomes ±32767.
    pub fn quantize(network: &Network) -> PlayNetwork {
        let max = network.weights().fold(0f32, |m, w| m.max(w.abs()));
        let mut q = Quantizer::new(network.layout(), max);
        for w in network.weights() {
            q.push(w);
        }
        q.finish()
    }
}

/// Builds a [`PlayNetwork`] a weight at a time (so a file is read without holding its `f32`
/// weights).
#[derive(Debug)]
pub(crate) struct Quantizer {
    compiled: Compiled,
    weights: Vec<i16>,
    inverse: f32,
    scale: f32,
}

impl Quantizer {
    /// A quantizer for `layout`'s weights, the largest in size being `max_abs`.
    pub(crate) fn new(layout: &Layout, max_abs: f32) -> Quantizer {
        let scale = if max_abs.is_finite() && max_abs > 0.0 {
            max_abs / f32::from(i16::MAX)
        } else {
            1.0
        };
        Quantizer {
            compiled: Compiled::new(layout),
            weights: Vec::with_capacity(layout.weight_count()),
            inverse: 1.0 / scale,
            scale,
        }
    }

    /// The next weight.
    #[inline]
    pub(crate) fn push(&mut self, w: f32) {
        // `as` saturates, and a NaN becomes 0.
        self.weights.push((w * self.inverse).round() as i16);
    }

    /// The network.
    pub(crate) fn finish(self) -> PlayNetwork {
        PlayNetwork {
            compiled: self.compiled,
            weights: Quantized {
                weights: self.weights,
                scale: self.scale,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        let mut images: Vec<Vec<u8>> = (0..SYMMETRIES)
            .map(|s| (0..16).map(|c| transform(c, s)).collect())
            .collect();
        for image in &images {
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, (0..16).collect::<Vec<u8>>(), "a permutation");
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        // A quarter turn sends the top-left corner to the top-right.
        assert_eq!(transform(0, 1), 3);
    }

    #[test]
    fn a_board_and_its_mirror_images_have_one_value() {
        let layout = Layout::small(false);
        let network = Network::new(&layout, 0.0);
        let board = 0x0123_4567_89ab_cdefu64;
        network.adjust(board, 0, 1.0);
        let v = network.value(board, 0);
        assert!(v > 0.0);
        let compiled = Compiled::new(&layout);
        for sym in 0..SYMMETRIES {
            let mut image = 0u64;
            for c in 0..16u8 {
                image |= ((board >> (4 * c)) & 0xF) << (4 * transform(c, sym));
            }
            assert_eq!(compiled.value(&network.weights[..], image, 0), v, "{sym}");
        }
    }

    /// A player's value of a board's features' indices is its value of the board, bit for bit
    /// (the standard network's search reads the indices off the board's images instead, which
    /// the trainer's tests hold to the compiled ones).
    #[test]
    fn a_players_value_at_the_indices_is_its_value_of_the_board() {
        for preview in [false, true] {
            let player = crate::testing::small_network(preview, 9);
            let compiled = Compiled::new(player.layout());
            assert!(!player.is_standard());
            let mut valued = 0;
            for (i, board) in crate::sample::boards(5, 6, 7).take(200).enumerate() {
                let class = if preview { (i % 4) as u8 } else { 0 };
                let mut at = [0u32; MAX_FEATURES];
                let n = compiled.indices_into(board, class, &mut at);
                let value = player.value(board, class);
                valued += usize::from(value != 0.0);
                assert_eq!(player.value_at(&at[..n]).to_bits(), value.to_bits());
            }
            assert!(valued > 150, "{valued}");
        }
    }
}
