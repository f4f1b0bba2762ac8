//! Training: afterstate TD(0) self-play (Szubert & Jaśkowski 2014).
//!
//! Each game is played by the sliding engine itself (`tilebox_sliding::Sliding`: its spawns,
//! its score), greedily: the four afterstates are the engine's own line move read from a cache
//! of the lines met (as the generic player reads them, [`VariantModel`]), and at each turn the
//! move with the highest
//! `reward + V(afterstate)` is played (the first in `Direction::ALL` order among equals), and the
//! previous afterstate's value is moved toward that figure,
//! `V(s'ₜ) += α (rₜ₊₁ + V(s'ₜ₊₁) − V(s'ₜ))`; at the end of the game toward 0. The rate given to
//! each weight is `α / features` ([`TrainOptions::rate`], TDL2048's convention).
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
use tilebox_sliding::{Direction, Rules, Sliding, Variant};

use super::{Network, SIDE, preview_class};
use crate::VariantModel;
use crate::generic::{Grid, Slider};

/// How a run trains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainOptions {
    /// The run's seed.
    pub seed: u64,
    /// The learning rate α, shared among the features: each weight moves by
    /// `α / features × error`.
    pub rate: f32,
    /// Threads playing at once (1: reproducible).
    pub threads: usize,
}

impl Default for TrainOptions {
    /// Seed 0, α = 0.1, one thread.
    fn default() -> Self {
        TrainOptions {
            seed: 0,
            rate: 0.1,
            threads: 1,
        }
    }
}

/// One game played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// Its index in the run (its seed's position).
    pub index: u64,
    /// Its final score.
    pub score: u64,
    /// Whether it made the winning tile.
    pub won: bool,
    /// Moves played.
    pub moves: u64,
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
/// game to game: a line is moved by the engine once).
#[derive(Debug, Clone)]
pub struct Mover {
    model: VariantModel,
    slider: Slider,
}

impl Mover {
    /// The mover of `variant`; `None` when the engine refuses it or its side is not 4.
    pub fn new(variant: &Variant) -> Option<Mover> {
        let rules = Rules::new(variant).ok()?;
        (variant.side == SIDE).then(|| Mover {
            model: VariantModel::new(&rules, 1),
            slider: Slider::new(SIDE),
        })
    }
}

/// Plays game `index` of the run with `mover` (made for this variant) and learns from it.
pub fn play_game(
    network: &Network,
    variant: &Variant,
    options: &TrainOptions,
    index: u64,
    mover: &mut Mover,
) -> Option<Game> {
    let mut state = Sliding::new_game(variant, game_seed(options.seed, index)).ok()?;
    if state.board().side() != SIDE {
        return None;
    }
    let Mover { model, slider } = mover;
    let rate = options.rate / network.layout().feature_count() as f32;
    let mut previous: Option<(u64, u8)> = None;
    let mut moves = 0u64;
    loop {
        let preview = preview_class(&state);
        let grid = Grid::from_board(state.board());
        let mut best: Option<(f32, Direction, u64)> = None;
        for dir in Direction::ALL {
            let Some((after, gained)) = slider.slide(&*model, &grid, dir) else {
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
        moves += 1;
    }
    if let Some((b, p)) = previous {
        network.adjust(b, p, rate * -network.value(b, p));
    }
    Some(Game {
        index,
        score: state.score(),
        won: state.won(),
        moves,
    })
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
