//! `train`: trains a variant's n-tuple network by self-play (`tilebox_ai::ntuple`), saving it
//! to `players/<id>.weights` in the data directory as it goes, and resuming from that file.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use thiserror::Error;
use tilebox_ai::ntuple::file::{self, RunState, WeightsError};
use tilebox_ai::ntuple::train::{self, Flow, Recent, TrainOptions};
use tilebox_ai::ntuple::{Layout, Network, SIDE};
use tilebox_core::Registry;
use tilebox_sliding::{Sliding, Variant};

use crate::args::NetworkSize;
use crate::commands::{CliError, Quoted};

/// The longest a run goes without saving.
pub const SAVE_EVERY: Duration = Duration::from_secs(60);

/// How often the progress line is redrawn on a terminal.
const REDRAW_EVERY: Duration = Duration::from_millis(500);

/// How often a progress line is written when stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// The games the mean score and the share of wins are taken over.
const RECENT: usize = 1000;

/// Why a run cannot go on.
#[derive(Debug, Error)]
pub enum TrainError {
    /// The weights file is there but refused: it is left alone.
    #[error("{0} (remove it to train afresh)")]
    Refused(WeightsError),
    /// The weights file cannot be written.
    #[error("cannot save: {0}")]
    Save(WeightsError),
}

/// What `train` was asked.
#[derive(Debug, Clone)]
pub struct Request {
    /// The game's id.
    pub game: String,
    /// The games the run is to have done in all.
    pub games: u64,
    /// Threads playing at once.
    pub threads: u32,
    /// The seed of a new run (a resumed run keeps its own; another one given is refused).
    pub seed: Option<u64>,
    /// The network of a new run (a resumed run keeps its own).
    pub network: Option<NetworkSize>,
}

/// The layout of a network size.
fn layout_of(size: NetworkSize, preview: bool) -> Layout {
    match size {
        NetworkSize::Standard => Layout::standard(preview),
        NetworkSize::Small => Layout::small(preview),
    }
}

/// The size name of a layout, if it is one of the named ones.
fn size_of(layout: &Layout) -> Option<NetworkSize> {
    [NetworkSize::Standard, NetworkSize::Small]
        .into_iter()
        .find(|&s| layout_of(s, layout.preview()) == *layout)
}

fn size_name(size: Option<NetworkSize>) -> &'static str {
    match size {
        Some(NetworkSize::Standard) => "standard",
        Some(NetworkSize::Small) => "small",
        None => "custom",
    }
}

/// The 4×4 sliding games of `registry`, comma-separated.
fn trainable(registry: &Registry) -> String {
    registry
        .entries()
        .iter()
        .filter(|e| e.params::<Sliding>().is_some_and(|v| v.side == SIDE))
        .map(|e| e.id().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `train` on `registry`'s game, the weights in `data_dir`; progress goes to `stderr`, a
/// line redrawn in place when `terminal`, else a line every [`LINE_EVERY`]; the summary, one
/// line of JSON, to `out`.
pub fn run(
    registry: &Registry,
    request: &Request,
    data_dir: &Path,
    terminal: bool,
    out: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), CliError> {
    let variant = registry
        .get(&request.game)
        .and_then(|e| e.params::<Sliding>())
        .filter(|v| v.side == SIDE)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{} is not a 4×4 sliding game (train works on: {})",
                Quoted(&request.game),
                trainable(registry)
            ))
        })?
        .clone();
    let path = file::weights_path(data_dir, &variant.id);
    let (network, mut state) = open(&path, &variant, request)?;
    let options = TrainOptions {
        seed: state.seed,
        threads: request.threads.max(1) as usize,
        ..TrainOptions::default()
    };
    let mut progress = Progress::new(state.games, request.games, terminal);
    let mut failed: Option<TrainError> = None;
    let from = state.games;
    let mut last_save = Instant::now();
    let done = train::train(
        &network,
        &variant,
        &options,
        from,
        request.games,
        |game, done| {
            state.games = done;
            state.moves += game.moves;
            progress.count(game, stderr);
            if last_save.elapsed() >= SAVE_EVERY {
                last_save = Instant::now();
                if let Err(e) = file::save(&path, &variant, &network, &state) {
                    failed = Some(TrainError::Save(e));
                    return Flow::Stop;
                }
            }
            Flow::Continue
        },
    );
    progress.finish(stderr);
    if let Some(e) = failed {
        return Err(CliError::Train(e));
    }
    state.games = done;
    if done > from || !path.exists() {
        file::save(&path, &variant, &network, &state)
            .map_err(|e| CliError::Train(TrainError::Save(e)))?;
    }
    let summary = json!({
        "game": variant.id,
        "file": path.display().to_string(),
        "network": size_name(size_of(network.layout())),
        "seed": state.seed,
        "games": state.games,
        "moves": state.moves,
        "mean_score": round4(progress.recent.mean_score()),
        "win_rate": round4(progress.recent.win_share()),
    });
    writeln!(out, "{summary}")?;
    Ok(())
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// The run in the file at `path`, or a new one as `request` says when there is no file.
fn open(
    path: &Path,
    variant: &Variant,
    request: &Request,
) -> Result<(Network, RunState), CliError> {
    match file::load_training(path, variant) {
        Ok((network, state)) => {
            if let Some(seed) = request.seed.filter(|&s| s != state.seed) {
                return Err(CliError::Usage(format!(
                    "--seed {seed}: {} continues the run of seed {} (remove it to train afresh)",
                    path.display(),
                    state.seed
                )));
            }
            let size = size_of(network.layout());
            if let Some(asked) = request.network.filter(|&n| Some(n) != size) {
                return Err(CliError::Usage(format!(
                    "--network {}: {} holds a {} network (remove it to train afresh)",
                    size_name(Some(asked)),
                    path.display(),
                    size_name(size)
                )));
            }
            Ok((network, state))
        }
        Err(e) if e.is_missing() => {
            let size = request.network.unwrap_or(NetworkSize::Standard);
            let layout = layout_of(size, variant.preview);
            let state = RunState {
                seed: request.seed.unwrap_or(0),
                games: 0,
                moves: 0,
            };
            Ok((Network::new(&layout, 0.0), state))
        }
        Err(e) => Err(CliError::Train(TrainError::Refused(e))),
    }
}

/// The progress shown on stderr.
struct Progress {
    started: Instant,
    from: u64,
    target: u64,
    done: u64,
    moves: u64,
    recent: Recent,
    terminal: bool,
    shown: Option<Instant>,
    drawn: bool,
}

impl Progress {
    fn new(from: u64, target: u64, terminal: bool) -> Progress {
        Progress {
            started: Instant::now(),
            from,
            target,
            done: from,
            moves: 0,
            recent: Recent::new(RECENT),
            terminal,
            shown: None,
            drawn: false,
        }
    }

    /// Counts a game, and shows the figures when it is time.
    fn count(&mut self, game: &train::Game, stderr: &mut dyn Write) {
        self.done += 1;
        self.moves += game.moves;
        self.recent.push(game);
        let every = if self.terminal {
            REDRAW_EVERY
        } else {
            LINE_EVERY
        };
        let due = self.shown.is_none_or(|t| t.elapsed() >= every);
        if due {
            self.shown = Some(Instant::now());
            self.show(stderr);
        }
    }

    fn show(&mut self, stderr: &mut dyn Write) {
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let played = self.done.saturating_sub(self.from);
        let left = self.target.saturating_sub(self.done);
        let eta = if played > 0 {
            duration_words(secs * left as f64 / played as f64)
        } else {
            "?".to_string()
        };
        let share = 100.0 * self.done as f64 / self.target.max(1) as f64;
        let line = format!(
            "games {}/{} ({share:.1}%), {:.0} moves/s, mean score {:.0} and win tile {:.1}% over the last {}, {eta} left",
            self.done,
            self.target,
            self.moves as f64 / secs,
            self.recent.mean_score(),
            100.0 * self.recent.win_share(),
            self.recent.len(),
        );
        // Nothing is left to do if stderr is closed.
        let _ = if self.terminal {
            self.drawn = true;
            write!(stderr, "\r{line}\x1b[K")
        } else {
            writeln!(stderr, "{line}")
        };
        let _ = stderr.flush();
    }

    /// Shows the last figures, and ends the redrawn line.
    fn finish(&mut self, stderr: &mut dyn Write) {
        if self.done > self.from {
            self.show(stderr);
        }
        if self.drawn {
            let _ = writeln!(stderr);
        }
    }
}

/// Seconds as `1h02m`, `3m05s` or `42s`.
fn duration_words(secs: f64) -> String {
    let s = secs.round().min(1e9) as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}
