//! Training: afterstate self-play by temporal coherence or TD(0) (Szubert & Jaśkowski 2014;
//! Jaśkowski, "Mastering 2048 with delayed temporal coherence learning, multi-stage weight
//! promotion, redundant encoding and carousel shaping", 2018).
//!
//! Each game is played by the sliding engine itself (`tilebox_sliding::Sliding`: its spawns,
//! its score), greedily: the four afterstates are the engine's own line move read from a cache
//! of the lines met (as the generic player reads them, [`VariantModel`]), and at each turn the
//! move with the highest
//! `reward + V(afterstate)` is played (the first in `Direction::ALL` order among equals), and the
//! previous afterstate's value is moved toward that figure,
//! `V(s'ₜ) += α (rₜ₊₁ + V(s'ₜ₊₁) − V(s'ₜ))`; at the end of the game toward 0. The rate given to
//! each weight is `α / features` ([`TrainOptions::rate`], TDL2048's convention). With
//! [`Rule::Coherence`] (every new run's) each weight's step is further scaled by its own
//! coherence, `|E| / A` (`crate::network::cohere`), with α = [`COHERENCE_RATE`], and the
//! network has two stages, the second for the boards whose largest tile is the ladder's 14th or
//! higher, begun as a copy of the first when training first meets one.
//!
//! With [`Method::Restarts`] (every new run's), a game that ends is played again from the
//! middle of its last stretch with another future, as Matsuzaki's restarts do ("Developing a
//! 2048 player with backward temporal coherence learning and restart", 2017): the position
//! half way between where the stretch began and where it ended, reseeded
//! ([`SlidingState::reseeded`], with [`restart_seed`]). So the late positions a greedy player
//! rarely reaches are learned many times over, with other tiles to come. A game restarts at
//! most [`MAX_RESTARTS`] times, and not from a stretch shorter than [`MIN_STRETCH`] moves. Its
//! score and win are those of its first play, from the start, so that the figures of a run
//! say what greedy play makes of a new game; its moves are all those it learned from.
//!
//! Game `i` of a run is seeded with the `i`-th 64-bit output of a ChaCha8 generator seeded with
//! the run's seed (`rand_chacha::ChaCha8Rng::seed_from_u64`), read at word position `2i`: the
//! generator's state is the seed and the number of games done, so a run resumes exactly. With
//! one thread, the same seed and the same games give the same weights, bit for bit, however the
//! run was split. With more, threads take games in turn and update the shared weights without
//! locks (Hogwild): faster, not reproducible.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use tilebox_core::Puzzle;
use tilebox_sliding::{Direction, Rules, Sliding, SlidingState, Variant};

use super::course::Course;
pub use super::course::{Game, MAX_RESTARTS, MIN_STRETCH, restart_seed};
use super::fast::{self, AnyLayout, Fast, Path, Standard};
use super::{Network, SIDE, preview_class, trainable};
use crate::VariantModel;
use crate::generic::{Grid, Slider};

/// The learning rate α of temporal coherence (Jaśkowski's): each weight's own rate, at most 1,
/// makes it smaller.
pub const COHERENCE_RATE: f32 = 1.0;

/// The learning rate α of TD(0) (TDL2048's default).
pub const TD_RATE: f32 = 0.1;

/// How a run learns: kept in the weights file, so that a run resumes as it began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rule {
    /// TD(0), one stage: the runs of the file's formats 1 and 2, and `tilebox-cli train
    /// --learning td0` (TDL2048's `-t` run).
    Td0,
    /// Temporal coherence, in two stages ([`crate::network::Layout::staged`]). Every new run's.
    #[default]
    Coherence,
    /// A rule of a newer release, by its byte: its network plays, but this build cannot go on
    /// training it ([`crate::ntuple::file::load_training`] refuses it).
    Newer(u8),
}

impl Rule {
    /// The byte the weights file keeps.
    pub fn byte(self) -> u8 {
        match self {
            Rule::Td0 => 0,
            Rule::Coherence => 1,
            Rule::Newer(byte) => byte,
        }
    }

    /// The rule of a byte of the weights file.
    pub fn from_byte(byte: u8) -> Rule {
        match byte {
            0 => Rule::Td0,
            1 => Rule::Coherence,
            _ => Rule::Newer(byte),
        }
    }

    /// Its name: `td0`, `tc`, or `newer` for one this build does not know.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Td0 => "td0",
            Rule::Coherence => "tc",
            Rule::Newer(_) => "newer",
        }
    }

    /// Its learning rate α: [`TD_RATE`] or [`COHERENCE_RATE`].
    pub fn rate(self) -> f32 {
        match self {
            Rule::Coherence => COHERENCE_RATE,
            _ => TD_RATE,
        }
    }

    /// A new network of it on `layout`: TD(0)'s as the layout is, temporal coherence's in two
    /// stages, with its accumulators.
    pub fn network(self, layout: &crate::network::Layout) -> Network {
        match self {
            Rule::Coherence => Network::new(&layout.clone().staged(), 0.0).coherent(),
            _ => Network::new(layout, 0.0),
        }
    }
}

/// How a run trains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainOptions {
    /// The run's seed.
    pub seed: u64,
    /// The learning rate α, shared among the features: each weight moves by
    /// `α / features × error` (times its coherence, when the network learns by it).
    pub rate: f32,
    /// Threads playing at once (1: reproducible).
    pub threads: usize,
    /// How each game is played.
    pub method: Method,
}

/// How a run plays each game: kept in the weights file, so that a run resumes as it began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// From its start to its end, once (the runs of the file's format 1).
    FromStart,
    /// From its start to its end, then again from the middle of its last stretch, with another
    /// future (see the module's notes). Every new run's.
    #[default]
    Restarts,
    /// A method of a newer release, by its byte: its network plays, but this build cannot go on
    /// training it ([`crate::ntuple::file::load_training`] refuses it), and plays none of its
    /// games.
    Newer(u8),
}

impl Method {
    /// The byte the weights file keeps.
    pub fn byte(self) -> u8 {
        match self {
            Method::FromStart => 0,
            Method::Restarts => 1,
            Method::Newer(byte) => byte,
        }
    }

    /// The method of a byte of the weights file.
    pub fn from_byte(byte: u8) -> Method {
        match byte {
            0 => Method::FromStart,
            1 => Method::Restarts,
            _ => Method::Newer(byte),
        }
    }

    /// Its name: `from start`, `restarts`, or `newer` for one this build does not know.
    pub fn name(self) -> &'static str {
        match self {
            Method::FromStart => "from start",
            Method::Restarts => "restarts",
            Method::Newer(_) => "newer",
        }
    }
}

impl Default for TrainOptions {
    /// Seed 0, α = [`TD_RATE`], one thread, restarts.
    fn default() -> Self {
        TrainOptions {
            seed: 0,
            rate: TD_RATE,
            threads: 1,
            method: Method::default(),
        }
    }
}

/// What the caller of [`train`] says after each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Stop once the games under way end.
    Stop,
}

/// The seed of game `index` of the run seeded `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_word_pos(u128::from(index) * 2);
    rng.next_u64()
}

/// A variant's moves as training makes them: its rules, and the lines moved so far (kept from
/// game to game: a line is moved by the engine once); its bitboard tables where it has them
/// ([`super::fast`]); and the positions of the game under way, for its restarts.
#[derive(Debug, Clone)]
pub struct Mover {
    model: VariantModel,
    slider: Slider,
    positions: Vec<SlidingState>,
    fast: Option<Fast>,
    path: Path,
}

impl Mover {
    /// The mover of `variant`; `None` when the engine refuses it or its side is not 4.
    pub fn new(variant: &Variant) -> Option<Mover> {
        let rules = Rules::new(variant).ok()?;
        let model = VariantModel::new(&rules, 1);
        (variant.side == SIDE).then(|| Mover {
            fast: trainable(variant)
                .then(|| Fast::new(variant, &rules, &model))
                .flatten(),
            model,
            slider: Slider::new(SIDE),
            positions: Vec::new(),
            path: Path::default(),
        })
    }

    /// The mover of `variant` that plays every game on the engine's path, never on bitboards
    /// (the reference the fast path is held to).
    #[cfg(test)]
    pub(crate) fn engine_only(variant: &Variant) -> Option<Mover> {
        Mover::new(variant).map(|m| Mover { fast: None, ..m })
    }

    /// Whether its games are played on bitboards.
    pub fn is_fast(&self) -> bool {
        self.fast.is_some()
    }
}

/// Plays game `index` of the run with `mover` (made for this variant) and learns from it: once
/// from its start, then, with [`Method::Restarts`], again from the middle of each stretch.
/// `None` (nothing played) for a variant of another side, or a method of a newer release.
pub fn play_game(
    network: &Network,
    variant: &Variant,
    options: &TrainOptions,
    index: u64,
    mover: &mut Mover,
) -> Option<Game> {
    if matches!(options.method, Method::Newer(_)) {
        return None;
    }
    let seed = game_seed(options.seed, index);
    let keep = options.method == Method::Restarts;
    let rate = options.rate / network.layout().feature_count() as f32;
    let course = Course::new(index, seed);
    let Mover {
        model,
        slider,
        positions,
        fast,
        path,
    } = mover;
    let (state, mut course, resume) = match fast {
        Some(fast) => {
            let played = match Standard::of(network) {
                Some(standard) => fast::play(fast, &standard, rate, keep, course, path),
                None => fast::play(fast, &AnyLayout::of(network), rate, keep, course, path),
            };
            let handover = match played {
                Ok(game) => return Some(game),
                Err(handover) => handover,
            };
            // The position the fast path could not go on from, rebuilt on the engine.
            let mut state = Sliding::new_game(variant, seed).ok()?;
            positions.clear();
            let mut reseeds = path.reseeds.iter().peekable();
            for at in 0..=path.moves.len() {
                if let Some(&(_, restart)) = reseeds.next_if(|r| r.0 == at) {
                    state = state.reseeded(restart_seed(seed, restart));
                }
                if keep {
                    positions.push(state.clone());
                }
                if let Some(&d) = path.moves.get(at) {
                    state = Sliding::apply(&state, Direction::ALL.get(usize::from(d))?).ok()?;
                }
            }
            let previous = handover.previous.map(|b| (b, preview_class(&state)));
            (state, handover.course, Some((previous, handover.played)))
        }
        None => {
            let state = Sliding::new_game(variant, seed).ok()?;
            if state.board().side() != SIDE {
                return None;
            }
            positions.clear();
            (state, course, None)
        }
    };
    play_on(
        network,
        model,
        slider,
        positions,
        state,
        rate,
        keep,
        &mut course,
        resume,
    )
}

/// Plays the game of `course` from `state` on the engine to its end, learning; `positions`
/// holds the path to `state` when the game goes on from the middle of a stretch (`resume`: its
/// last afterstate not yet learned from, and its moves so far), and is empty otherwise.
#[allow(clippy::too_many_arguments)]
fn play_on(
    network: &Network,
    model: &VariantModel,
    slider: &mut Slider,
    positions: &mut Vec<SlidingState>,
    mut state: SlidingState,
    rate: f32,
    keep: bool,
    course: &mut Course,
    mut resume: Option<(Option<(u64, u8)>, u64)>,
) -> Option<Game> {
    loop {
        let (previous, before) = match resume.take() {
            Some(resumed) => resumed,
            None => {
                if keep {
                    positions.push(state.clone());
                }
                (None, 0)
            }
        };
        let (end, played) = play_stretch(network, model, slider, state, rate, previous, |s| {
            if keep {
                positions.push(s.clone());
            }
        });
        let Some(middle) = course.stretch_done(before + played, keep, || (end.score(), end.won()))
        else {
            return Some(course.game());
        };
        // The stretch's middle, played again: it is pushed anew at the loop's head.
        positions.truncate(middle + 1);
        state = positions
            .pop()?
            .reseeded(restart_seed(course.seed, course.restarts));
    }
}

/// Plays greedily from `state` to the end of the game, learning (from `previous` on, the
/// afterstate before `state` when the stretch began earlier): returns the last position and
/// the moves played. `each` sees every position after a move.
fn play_stretch(
    network: &Network,
    model: &VariantModel,
    slider: &mut Slider,
    mut state: SlidingState,
    rate: f32,
    mut previous: Option<(u64, u8)>,
    mut each: impl FnMut(&SlidingState),
) -> (SlidingState, u64) {
    let mut moves = 0u64;
    loop {
        let preview = preview_class(&state);
        let grid = Grid::from_board(state.board());
        let mut best: Option<(f32, Direction, u64)> = None;
        for dir in Direction::ALL {
            let Some((after, gained)) = slider.slide(model, &grid, dir) else {
                continue;
            };
            let after = after.packed();
            let v = gained + network.value(after, preview);
            if best.is_none_or(|(b, _, _)| v > b) {
                best = Some((v, dir, after));
            }
        }
        let Some((target, dir, after)) = best else {
            break;
        };
        if let Some((b, p)) = previous {
            network.adjust(b, p, rate * (target - network.value(b, p)));
        }
        previous = Some((after, preview));
        let Ok(next) = Sliding::apply(&state, &dir) else {
            break;
        };
        state = next;
        each(&state);
        moves += 1;
    }
    if let Some((b, p)) = previous {
        network.adjust(b, p, rate * -network.value(b, p));
    }
    (state, moves)
}

/// Plays games `from..to` of the run on `network`, learning from each; after each game calls
/// `each`, on the calling thread, with the game and the number of games done (counting from 0,
/// so `from` are done at the start). With one thread the games are played on the calling
/// thread too, so `each` may save the network between two games and nothing moves it
/// meanwhile; with more, they go on while `each` runs. Returns the games done. A game the
/// engine cannot start (a variant of another side) ends the run.
pub fn train(
    network: &Network,
    variant: &Variant,
    options: &TrainOptions,
    from: u64,
    to: u64,
    mut each: impl FnMut(&Game, u64) -> Flow,
) -> u64 {
    let mut done = from;
    let Some(mover) = Mover::new(variant) else {
        return done;
    };
    if options.threads <= 1 {
        let mut mover = mover;
        for index in from..to {
            let Some(game) = play_game(network, variant, options, index, &mut mover) else {
                break;
            };
            done += 1;
            if each(&game, done) == Flow::Stop {
                break;
            }
        }
        return done;
    }
    let next = AtomicU64::new(from);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let (send, receive) = mpsc::channel();
        for _ in 0..options.threads {
            let send = send.clone();
            let (next, stop) = (&next, &stop);
            let mut mover = mover.clone();
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= to {
                        break;
                    }
                    let game = play_game(network, variant, options, index, &mut mover);
                    if game.is_none() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if send.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for game in receive {
            let Some(game) = game else {
                continue;
            };
            done += 1;
            if each(&game, done) == Flow::Stop {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    done
}

/// The figures of the last games: mean score and share winning, over at most `capacity`.
#[derive(Debug, Clone)]
pub struct Recent {
    capacity: usize,
    games: std::collections::VecDeque<(u64, bool)>,
}

impl Recent {
    /// Figures over the last `capacity` games (at least 1).
    pub fn new(capacity: usize) -> Recent {
        Recent {
            capacity: capacity.max(1),
            games: std::collections::VecDeque::with_capacity(capacity.max(1)),
        }
    }

    /// Counts a game.
    pub fn push(&mut self, game: &Game) {
        if self.games.len() == self.capacity {
            self.games.pop_front();
        }
        self.games.push_back((game.score, game.won));
    }

    /// How many games are counted.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game is counted.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The mean score, 0 with no game.
    pub fn mean_score(&self) -> f64 {
        if self.games.is_empty() {
            return 0.0;
        }
        let total: u64 = self.games.iter().fold(0u64, |t, g| t.saturating_add(g.0));
        total as f64 / self.games.len() as f64
    }

    /// The share of games won, 0 with no game.
    pub fn win_share(&self) -> f64 {
        if self.games.is_empty() {
            return 0.0;
        }
        self.games.iter().filter(|g| g.1).count() as f64 / self.games.len() as f64
    }
}
