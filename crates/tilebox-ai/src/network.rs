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
//!   each of them ([`Network::adjust`]), or, learning by temporal coherence, that amount times
//!   each weight's own rate ([`cohere`]). Both walk a fixed table of cells: nothing is
//!   allocated per call.
//! - A layout may have stages ([`Layout::with_stages`]): a whole set of weights for each, the
//!   stage of a board being the last whose lowest rank its largest tile reaches
//!   ([`Layout::stage_of`]). The standard run's second stage starts at rank
//!   [`SECOND_STAGE`] (16384 in 2048, 6144 in Threes).
//!
//! Weights are `f32` while training ([`Network`]: atomics, so that threads may share them
//! lock-free, "Hogwild"), and 16-bit integers with one scale while playing ([`PlayNetwork`]),
//! which keeps the standard 4×6-tuple network at 128 MiB a stage instead of 256.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use thiserror::Error;
use tilebox_sliding::{Board, SlidingState};

/// The board side the networks read.
pub const SIDE: usize = 4;

/// The most cells a tuple has.
pub const MAX_TUPLE: usize = 6;

/// The most tuples a layout has (the preview's family not counted).
pub const MAX_TUPLES: usize = 16;

/// The most weights a network has, its stages together: at 16 bits a weight, 320 MiB, the
/// most a player holds.
pub const MAX_WEIGHTS: usize = 160 << 20;

/// The most stages a layout has.
pub const MAX_STAGES: usize = 4;

/// The lowest rank of the standard run's second stage: a board whose largest tile is the
/// ladder's 14th (16384 in 2048, 6144 in Threes) or higher is valued by its own weights.
pub const SECOND_STAGE: u8 = 14;

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
    /// Stages that do not start at rank 0 and rise, up to 15, or more than [`MAX_STAGES`].
    #[error("stages from ranks {0:?}: not 1 to {MAX_STAGES} rising from 0 to at most 15")]
    BadStages(Vec<u8>),
}

/// Which tuples a network reads: cell lists on the 4×4 board (cell `row * 4 + col`), and
/// whether it reads the previewed tile too; and its stages, by the lowest rank of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    tuples: Vec<Vec<u8>>,
    preview: bool,
    /// The lowest largest rank of each stage's boards: `[0]` for one stage.
    stages: Vec<u8>,
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
        Layout {
            tuples,
            preview,
            stages: vec![0],
        }
        .checked()
    }

    /// The layout with a stage from each of `stages`' ranks (the first 0, rising, at most 15),
    /// a whole set of weights each; checked as [`Layout::new`] checks.
    pub fn with_stages(self, stages: Vec<u8>) -> Result<Layout, LayoutError> {
        let rising = stages.windows(2).all(|w| w[0] < w[1]);
        if stages.first() != Some(&0)
            || stages.len() > MAX_STAGES
            || !rising
            || stages.iter().any(|&r| r > 15)
        {
            return Err(LayoutError::BadStages(stages));
        }
        Layout { stages, ..self }.checked()
    }

    /// The layout in the standard run's two stages, from rank 0 and from [`SECOND_STAGE`];
    /// itself, in one, if two would hold more than [`MAX_WEIGHTS`].
    pub fn staged(self) -> Layout {
        self.clone()
            .with_stages(vec![0, SECOND_STAGE])
            .unwrap_or(self)
    }

    /// Itself, if it has at most [`MAX_WEIGHTS`].
    fn checked(self) -> Result<Layout, LayoutError> {
        let n = self.weight_count();
        if n > MAX_WEIGHTS {
            return Err(LayoutError::TooBig(n));
        }
        Ok(self)
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
            stages: vec![0],
        }
    }

    /// A small layout for tests and quick trials: the outer and the inner row as 4-tuples
    /// (131,072 weights), and the preview's family when `preview`.
    pub fn small(preview: bool) -> Layout {
        Layout {
            tuples: vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
            preview,
            stages: vec![0],
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

    /// The lowest rank of each stage: `[0]` for one stage.
    pub fn stages(&self) -> &[u8] {
        &self.stages
    }

    /// Whether it has the same tuples and preview as `other`, whatever the stages.
    pub fn reads_as(&self, other: &Layout) -> bool {
        self.tuples == other.tuples && self.preview == other.preview
    }

    /// The stage of a packed board: the last whose lowest rank its largest tile reaches.
    #[inline]
    pub fn stage_of(&self, board: u64) -> usize {
        if self.stages.len() == 1 {
            return 0;
        }
        let top = crate::bitboard::max_rank(board);
        self.stages[1..].iter().filter(|&&r| r <= top).count()
    }

    /// How many weights one stage has.
    pub fn stage_weight_count(&self) -> usize {
        let tuples: usize = self.tuples.iter().map(|t| 1usize << (4 * t.len())).sum();
        tuples + if self.preview { PREVIEW_WEIGHTS } else { 0 }
    }

    /// How many weights the network has, its stages together.
    pub fn weight_count(&self) -> usize {
        self.stage_weight_count() * self.stages.len()
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
    /// Weights of one stage: a board's indices are offset by its stage times these.
    stage_weights: usize,
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
            stage_weights: layout.stage_weight_count(),
        }
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The weight index of each feature of `board` with preview class `preview`, in order.
    #[inline]
    fn indices(&self, board: u64, preview: u8) -> impl Iterator<Item = usize> + '_ {
        let stage = self.layout.stage_of(board) * self.stage_weights;
        self.features.iter().map(move |f| {
            let mut idx = 0usize;
            for (k, &s) in f.shifts[..usize::from(f.len)].iter().enumerate() {
                idx |= (((board >> s) & 0xF) as usize) << (4 * k);
            }
            if f.preview {
                idx |= usize::from(preview & 0xF) << (4 * usize::from(f.len));
            }
            stage + f.base as usize + idx
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
    /// The 4×6-tuples ([`Layout::standard`]), 67 million weights a stage: 256 MiB a stage while
    /// training by TD(0), 768 MiB by temporal coherence (with its accumulators).
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
            .find(|s| s.layout(layout.preview()).reads_as(layout))
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

/// A network being trained: `f32` weights, shared lock-free by training threads, and, when it
/// learns by temporal coherence, each weight's two accumulators.
#[derive(Debug)]
pub struct Network {
    compiled: Compiled,
    weights: Cells,
    /// Temporal coherence's accumulators, a weight's in one word ([`cohere`]): `None` for TD(0).
    coherence: Option<Vec<AtomicU64>>,
    /// The stages begun (at least the first): a stage begins as a copy of the one before when
    /// training first values a board of it ([`Network::reach`]).
    begun: AtomicUsize,
}

/// Where a training network's weights are kept.
#[derive(Debug)]
enum Cells {
    /// On the heap, in the system's pages (4 KiB).
    Heap(Box<[AtomicU32]>),
    /// In huge pages ([`train_on_huge_pages`]), kept until the process ends.
    Huge(&'static [AtomicU32]),
}

impl std::ops::Deref for Cells {
    type Target = [AtomicU32];

    #[inline(always)]
    fn deref(&self) -> &[AtomicU32] {
        match self {
            Cells::Heap(cells) => cells,
            Cells::Huge(cells) => cells,
        }
    }
}

/// Whether networks of [`HUGE_FROM`] bytes or more are made in huge pages.
static HUGE_PAGES: AtomicBool = AtomicBool::new(false);

/// The least weights' bytes held in huge pages (the standard network's 256 MiB are; the small
/// one's 512 KiB are not).
const HUGE_FROM: usize = 64 << 20;

/// From now on, holds the weights of each large network (64 MiB or more) made in this process
/// in memory the system is asked to back with transparent huge pages (2 MiB on x86-64, where
/// Linux's `transparent_hugepage` setting is `always` or `madvise`), and never gives it back
/// before the process ends. A training move reads 128 weights at random in 256 MiB: in 4 KiB
/// pages nearly each read also walks the page tables, in 2 MiB pages the 128 translations stay
/// in the processor's TLB (docs/learning.md gives the gain). For a process that trains one
/// network and ends (`tilebox-cli train`): memory that is kept so cannot be freed without
/// `unsafe` code (the map is advised, then viewed as atomics, and a view cannot be kept beside
/// the map it borrows), so a process that makes network after network must not call it.
/// Elsewhere than on Linux, or when the map fails, the weights stay on the heap.
pub fn train_on_huge_pages() {
    HUGE_PAGES.store(true, Ordering::Relaxed);
}

/// `len` weights, all 0, in huge pages, if [`train_on_huge_pages`] asked for them and they
/// are many enough.
fn huge_cells(len: usize) -> Option<&'static [AtomicU32]> {
    let bytes = len.checked_mul(4)?;
    if !HUGE_PAGES.load(Ordering::Relaxed) || bytes < HUGE_FROM {
        return None;
    }
    huge_map(bytes)
}

/// `bytes` of zeros in an anonymous map advised to be backed by huge pages, viewed as weights.
#[cfg(target_os = "linux")]
fn huge_map(bytes: usize) -> Option<&'static [AtomicU32]> {
    use zerocopy::FromBytes;
    // A fresh anonymous map reads as zeros.
    let map = memmap2::MmapMut::map_anon(bytes).ok()?;
    // Only advice: the kernel may still back it in small pages.
    let _ = map.advise(memmap2::Advice::HugePage);
    let map: &'static mut memmap2::MmapMut = Box::leak(Box::new(map));
    let cells: &'static mut [AtomicU32] = <[AtomicU32]>::mut_from_bytes(&mut map[..]).ok()?;
    Some(cells)
}

#[cfg(not(target_os = "linux"))]
fn huge_map(_bytes: usize) -> Option<&'static [AtomicU32]> {
    None
}

impl Network {
    /// A network of `layout` with every weight `init`, learning by TD(0). (Optimistic
    /// initialisation would start them high; 0 is the plain start.)
    pub fn new(layout: &Layout, init: f32) -> Network {
        let bits = init.to_bits();
        let len = layout.weight_count();
        let weights = match huge_cells(len) {
            Some(cells) => {
                if bits != 0 {
                    cells.iter().for_each(|w| w.store(bits, Ordering::Relaxed));
                }
                Cells::Huge(cells)
            }
            None => Cells::Heap((0..len).map(|_| AtomicU32::new(bits)).collect()),
        };
        Network {
            compiled: Compiled::new(layout),
            weights,
            coherence: None,
            begun: AtomicUsize::new(1),
        }
    }

    /// The network learning by temporal coherence, every accumulator 0.
    pub fn coherent(self) -> Network {
        let n = self.weights.len();
        Network {
            coherence: Some((0..n).map(|_| AtomicU64::new(0)).collect()),
            ..self
        }
    }

    /// The network learning by temporal coherence with these accumulators (one word a
    /// weight, [`cohere`]'s); `None` unless there is one a weight.
    pub(crate) fn with_accumulators(self, accumulators: Vec<AtomicU64>) -> Option<Network> {
        (accumulators.len() == self.weights.len()).then_some(Network {
            coherence: Some(accumulators),
            ..self
        })
    }

    /// Whether it learns by temporal coherence.
    pub fn coheres(&self) -> bool {
        self.coherence.is_some()
    }

    /// Each weight's accumulators, in order: the sum of its steps and of their sizes (`None`
    /// for TD(0)).
    pub fn accumulators(&self) -> Option<impl ExactSizeIterator<Item = (f32, f32)> + '_> {
        self.coherence.as_ref().map(|c| {
            c.iter().map(|a| {
                let bits = a.load(Ordering::Relaxed);
                (
                    f32::from_bits(bits as u32),
                    f32::from_bits((bits >> 32) as u32),
                )
            })
        })
    }

    /// The stages begun, at least 1.
    pub fn begun(&self) -> usize {
        self.begun.load(Ordering::Relaxed)
    }

    /// The network with its first `begun` stages begun (1 to its stages).
    pub fn with_begun(self, begun: usize) -> Network {
        let begun = begun.clamp(1, self.layout().stages().len());
        self.begun.store(begun, Ordering::Relaxed);
        self
    }

    /// The stage of the packed board `board`, begun first if it was not: each stage up to it
    /// not yet begun starts as a copy of the weights of the one before (Jaśkowski's weight
    /// promotion, a whole stage at once), so that a board just past a stage's bound is valued
    /// as it was before. Its accumulators start at 0.
    #[inline]
    pub(crate) fn reach(&self, board: u64) -> usize {
        let stage = self.layout().stage_of(board);
        if stage >= self.begun.load(Ordering::Relaxed) {
            self.begin(stage);
        }
        stage
    }

    #[cold]
    fn begin(&self, stage: usize) {
        let n = self.layout().stage_weight_count();
        for s in self.begun.load(Ordering::Relaxed).max(1)..=stage {
            let (before, this) = self.weights.split_at(s * n);
            for (to, from) in this.iter().zip(&before[(s - 1) * n..]).take(n) {
                to.store(from.load(Ordering::Relaxed), Ordering::Relaxed);
            }
        }
        self.begun.fetch_max(stage + 1, Ordering::Relaxed);
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        self.compiled.layout()
    }

    /// The value of a packed afterstate with preview class `preview` (its stage begun first,
    /// [`Network::reach`]).
    #[inline]
    pub fn value(&self, board: u64, preview: u8) -> f32 {
        self.reach(board);
        self.compiled.value(&self.weights[..], board, preview)
    }

    /// The accumulators, for the trainer's fast path ([`adjust_at`]).
    pub(crate) fn coherence(&self) -> Option<&[AtomicU64]> {
        self.coherence.as_deref()
    }

    /// The compiled layout.
    pub(crate) fn compiled(&self) -> &Compiled {
        &self.compiled
    }

    /// The weights themselves, for the trainer's fast path, which computes the indices
    /// ([`value_at`], [`adjust_at`]).
    pub(crate) fn cells(&self) -> &[AtomicU32] {
        &self.weights[..]
    }

    /// Adds `delta` to every weight the afterstate's features pick (one TD step), or, learning
    /// by temporal coherence, `delta` times each weight's own rate ([`cohere`]). With several
    /// threads, updates of one weight may race and one of them be lost (Hogwild).
    #[inline]
    pub fn adjust(&self, board: u64, preview: u8, delta: f32) {
        let (at, n) = self.compiled.index_array(board, preview);
        for &i in &at[..n] {
            match &self.coherence {
                None => add(&self.weights[..], i, delta),
                Some(c) => cohere(&self.weights[..], c, i, delta),
            }
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
        if weights.len() != layout.weight_count() {
            return None;
        }
        let cells = match huge_cells(weights.len()) {
            Some(cells) => {
                for (cell, w) in cells.iter().zip(weights) {
                    cell.store(w.to_bits(), Ordering::Relaxed);
                }
                Cells::Huge(cells)
            }
            None => Cells::Heap(
                weights
                    .into_iter()
                    .map(|w| AtomicU32::new(w.to_bits()))
                    .collect(),
            ),
        };
        Some(Network {
            compiled: Compiled::new(layout),
            weights: cells,
            coherence: None,
            begun: AtomicUsize::new(1),
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

/// One weight's share of a step by temporal coherence (Beal and Smith's TC, as Jaśkowski's
/// "Mastering 2048 with delayed temporal coherence learning…" applies it to n-tuple networks):
/// the weight at `index` moves by `delta` times its own rate `|E| / A` (1 while `A` is 0),
/// where `E` is the sum of the steps it was given and `A` the sum of their sizes; then `delta`
/// is added to `E` and `|delta|` to `A`. So a weight whose steps keep one sign keeps learning
/// fast, and one whose steps cancel out slows down. `E` and `A` are one word: `E`'s `f32` bits
/// low, `A`'s high. Nothing past the end.
#[inline(always)]
pub(crate) fn cohere(weights: &[AtomicU32], coherence: &[AtomicU64], index: usize, delta: f32) {
    if let (Some(w), Some(c)) = (weights.get(index), coherence.get(index)) {
        let bits = c.load(Ordering::Relaxed);
        let (e, a) = (
            f32::from_bits(bits as u32),
            f32::from_bits((bits >> 32) as u32),
        );
        let rate = if a > 0.0 { e.abs() / a } else { 1.0 };
        let old = f32::from_bits(w.load(Ordering::Relaxed));
        w.store((old + delta * rate).to_bits(), Ordering::Relaxed);
        let (e, a) = (e + delta, a + delta.abs());
        c.store(
            u64::from(e.to_bits()) | u64::from(a.to_bits()) << 32,
            Ordering::Relaxed,
        );
    }
}

/// [`Network::adjust`] on the features at `indices`, in the same order: by TD(0), or by
/// temporal coherence with the accumulators `coherence`.
#[inline(always)]
pub(crate) fn adjust_at(
    weights: &[AtomicU32],
    coherence: Option<&[AtomicU64]>,
    indices: &[u32],
    delta: f32,
) {
    match coherence {
        None => {
            for &i in indices {
                add(weights, i as usize, delta);
            }
        }
        Some(c) => {
            for &i in indices {
                cohere(weights, c, i as usize, delta);
            }
        }
    }
}

/// A network for playing: 16-bit weights (2 bytes each: the standard layout holds 128 MiB a
/// stage, 130 MiB with the preview's family).
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

    /// Whether its layout reads the standard tuples without the preview's family
    /// ([`Layout::standard`], in any stages), whose features a search may read straight off a
    /// board's images ([`crate::ntuple::standard_indices`], moved to the board's stage) and
    /// value with [`PlayNetwork::value_at`].
    pub(crate) fn is_standard(&self) -> bool {
        self.layout().reads_as(&Layout::standard(false))
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
        let mut q = Quantizer::new(network.layout(), max, network.begun());
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
    begun: usize,
}

impl Quantizer {
    /// A quantizer for `layout`'s weights, the largest in size being `max_abs`, of which the
    /// first `begun` stages were begun: a stage not begun plays as the one before it (as
    /// training would begin it).
    pub(crate) fn new(layout: &Layout, max_abs: f32, begun: usize) -> Quantizer {
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
            begun: begun.max(1),
        }
    }

    /// The next weight.
    #[inline]
    pub(crate) fn push(&mut self, w: f32) {
        // `as` saturates, and a NaN becomes 0.
        self.weights.push((w * self.inverse).round() as i16);
    }

    /// The network.
    pub(crate) fn finish(mut self) -> PlayNetwork {
        let n = self.compiled.stage_weights;
        for s in self.begun..self.compiled.layout.stages().len() {
            if self.weights.len() >= (s + 1) * n {
                self.weights.copy_within((s - 1) * n..s * n, s * n);
            }
        }
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
