//! A training run kept in its weights file, as `tilebox-cli train` and the app's "Train a
//! stronger player" both drive it: the run is opened from its file (or begun), trained until it
//! reaches its [`Target`] (games for the CLI, moves for the app) or is told to stop, saved at
//! least every [`SAVE_EVERY`] and at the end, and its progress given as [`Figures`], worded
//! once ([`Figures::line`]).

use std::fs::{File, OpenOptions, TryLockError};

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tilebox_core::files::open_regular;
use web_time::Instant;

use thiserror::Error;
use tilebox_sliding::Variant;

use super::file::{self, RunState, WeightsError};
use super::train::{self, Flow, Game, Method, Recent, Rule, TrainOptions};
use super::{Layout, Network};

/// The longest a run goes without saving: a kill loses at most this much.
pub const SAVE_EVERY: Duration = Duration::from_secs(60);

/// The games the mean score and the share of wins are taken over.
pub const RECENT: usize = 1000;

/// How far a run trains, counted over the whole run (every earlier session of it included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Until the run has played this many games (`tilebox-cli train --games`).
    Games(u64),
    /// Until the run has learned from this many moves (the app's runs): a game of Threes,
    /// restarts and all, is about a fifteenth of one of 2048 in moves, while a move costs much
    /// the same in either (170 k and 217 k to 271 k a second in the network bench), so moves
    /// measure training alike in every variant, and its time too.
    Moves(u64),
}

impl Target {
    /// A run of `games` games and `moves` moves toward it: (how far it is, the target), in the
    /// target's unit.
    fn count(self, games: u64, moves: u64) -> (u64, u64) {
        match self {
            Target::Games(target) => (games, target),
            Target::Moves(target) => (moves, target),
        }
    }

    /// Whether a run of `games` games and `moves` moves has reached it.
    pub fn reached(self, games: u64, moves: u64) -> bool {
        let (done, target) = self.count(games, moves);
        done >= target
    }
}

/// Why a run cannot go on.
#[derive(Debug, Error)]
pub enum RunError {
    /// The weights file is there but refused: it is left alone.
    #[error("{0} (remove it to train afresh)")]
    Refused(WeightsError),
    /// The weights file cannot be written.
    #[error("cannot save: {0}")]
    Save(WeightsError),
    /// Another run (another `tilebox-cli train`, or the app) is training the same file.
    #[error("{}: another run is training it (tilebox-cli train, or the app)", .0.display())]
    Busy(PathBuf),
}

/// A run: the network, where it stands, and its file.
#[derive(Debug)]
pub struct Run {
    variant: Variant,
    path: PathBuf,
    /// `<file>.lock`, locked for the run's life: one run writes a file at a time (`None` where
    /// the system has no file locks).
    _lock: Option<File>,
    network: Network,
    state: RunState,
    /// Whether the file holds what the run holds.
    saved: bool,
}

impl Run {
    /// The run in the file at `path` (of `variant`'s weights), or, when there is no file, a
    /// new run of seed `seed` on a network of `layout` (its weights all 0), not yet saved,
    /// learning by the default rule (temporal coherence, in two stages). A file that is there
    /// but refused is left alone.
    pub fn open(
        path: &Path,
        variant: &Variant,
        seed: u64,
        layout: &Layout,
    ) -> Result<Run, RunError> {
        Run::open_with(path, variant, seed, layout, Rule::default())
    }

    /// [`Run::open`], a new run learning by `rule` (a run in its file goes on by its own).
    pub fn open_with(
        path: &Path,
        variant: &Variant,
        seed: u64,
        layout: &Layout,
        rule: Rule,
    ) -> Result<Run, RunError> {
        let lock = lock(path)?;
        if lock.is_some() {
            // What a save cut short left (a kill, a full disk): no run is writing it now.
            let _ = std::fs::remove_file(file::temp_path(path));
        }
        let (network, state, saved) = match file::load_training(path, variant) {
            Ok((network, state)) => (network, state, true),
            Err(e) if e.is_missing() => {
                let state = RunState {
                    seed,
                    games: 0,
                    moves: 0,
                    method: Method::default(),
                    rule,
                };
                (rule.network(layout), state, false)
            }
            Err(e) => return Err(RunError::Refused(e)),
        };
        Ok(Run {
            variant: variant.clone(),
            path: path.to_path_buf(),
            _lock: lock,
            network,
            state,
            saved,
        })
    }

    /// Where the run stands.
    pub fn state(&self) -> RunState {
        self.state
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The weights file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Trains on `threads` threads until the run reaches `target`, or `each`, called after every
    /// game with the progress so far, says [`Flow::Stop`] (the games under way end first; with
    /// one thread a run stops after the game that reaches a target of moves, so it is as
    /// reproducible as one of games). Saves at least every [`SAVE_EVERY`] and at the end, and a
    /// new run even when it played nothing; `saved` is told each time. Returns the progress at
    /// the end.
    pub fn train(
        &mut self,
        threads: usize,
        target: Target,
        mut each: impl FnMut(&Progress) -> Flow,
        mut saved: impl FnMut(&Progress),
    ) -> Result<Progress, RunError> {
        let options = TrainOptions {
            seed: self.state.seed,
            rate: self.state.rule.rate(),
            threads: threads.max(1),
            method: self.state.method,
        };
        let mut progress = Progress::new(self.state.games, self.state.moves, target);
        let mut failed = None;
        let mut last_save = Instant::now();
        let Run {
            variant,
            path,
            network,
            state,
            saved: in_file,
            ..
        } = self;
        let from = state.games;
        // A target of moves ends through the flow, after the game that reaches it.
        let to = match target {
            _ if target.reached(state.games, state.moves) => from,
            Target::Games(games) => games,
            Target::Moves(_) => u64::MAX,
        };
        let done = train::train(network, variant, &options, from, to, |game, done| {
            state.games = done;
            state.moves = state.moves.saturating_add(game.moves);
            *in_file = false;
            progress.count(game);
            if last_save.elapsed() >= SAVE_EVERY {
                last_save = Instant::now();
                if let Err(e) = file::save(path, variant, network, state) {
                    failed = Some(e);
                    return Flow::Stop;
                }
                *in_file = true;
                saved(&progress);
            }
            match each(&progress) {
                _ if target.reached(state.games, state.moves) => Flow::Stop,
                flow => flow,
            }
        });
        if let Some(e) = failed {
            return Err(RunError::Save(e));
        }
        state.games = done;
        if !*in_file {
            file::save(path, variant, network, state).map_err(RunError::Save)?;
            *in_file = true;
            saved(&progress);
        }
        Ok(progress)
    }
}

/// Takes the lock of the weights file at `path`, `<file>.lock` beside it (made, with its
/// folder, if missing: so a folder where nothing can be written is found before training).
/// The system drops the lock when the file is closed, the process killed included. Where the
/// system has no file locks, there is none to take (`None`), as for the data directory's.
fn lock(path: &Path) -> Result<Option<File>, RunError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock_path = PathBuf::from(name);
    let fail = |at: &Path, cause: file::Cause| {
        RunError::Save(WeightsError {
            path: at.to_path_buf(),
            cause,
        })
    };
    if let Some(dir) = path.parent() {
        file::make_folder(dir).map_err(RunError::Save)?;
    }
    // A regular file only: never a pipe that would hold the thread.
    let lock = open_regular(
        &lock_path,
        OpenOptions::new().create(true).truncate(false).write(true),
    )
    .map_err(|e| fail(&lock_path, file::Cause::Open(e)))?;
    match lock.try_lock() {
        Ok(()) => Ok(Some(lock)),
        Err(TryLockError::WouldBlock) => Err(RunError::Busy(path.to_path_buf())),
        Err(TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => Ok(None),
        Err(TryLockError::Error(e)) => Err(fail(&lock_path, file::Cause::Io(e))),
    }
}

/// A run's progress since it was (re)started: games and moves, the run's in all and since the
/// start, the last [`RECENT`] games' figures, and the time taken.
#[derive(Debug, Clone)]
pub struct Progress {
    started: Instant,
    target: Target,
    /// Games and moves in all at the start.
    from: (u64, u64),
    /// Games and moves in all now.
    now: (u64, u64),
    recent: Recent,
}

impl Progress {
    /// Progress toward `target` of a run that has played `games` games and `moves` moves.
    pub fn new(games: u64, moves: u64, target: Target) -> Progress {
        Progress {
            started: Instant::now(),
            target,
            from: (games, moves),
            now: (games, moves),
            recent: Recent::new(RECENT),
        }
    }

    /// Counts a game.
    pub fn count(&mut self, game: &Game) {
        self.now.0 = self.now.0.saturating_add(1);
        self.now.1 = self.now.1.saturating_add(game.moves);
        self.recent.push(game);
    }

    /// Games done in all, the run's.
    pub fn done(&self) -> u64 {
        self.now.0
    }

    /// Moves learned from in all, the run's.
    pub fn moves(&self) -> u64 {
        self.now.1
    }

    /// The last games' figures.
    pub fn recent(&self) -> &Recent {
        &self.recent
    }

    /// The figures as they stand.
    pub fn figures(&self) -> Figures {
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        let (games, moves) = self.now;
        let (done, target) = self.target.count(games, moves);
        let (from, _) = self.target.count(self.from.0, self.from.1);
        let played = done.saturating_sub(from);
        let left = target.saturating_sub(done);
        Figures {
            games,
            moves,
            target: self.target,
            moves_per_second: moves.saturating_sub(self.from.1) as f64 / secs,
            mean_score: self.recent.mean_score(),
            win_share: self.recent.win_share(),
            recent: self.recent.len(),
            left: (played > 0).then(|| secs * left as f64 / played as f64),
        }
    }
}

/// What a run's progress shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    /// Games done in all, the run's.
    pub games: u64,
    /// Moves learned from in all, the run's.
    pub moves: u64,
    /// Where the run goes.
    pub target: Target,
    /// Moves a second since the run was (re)started.
    pub moves_per_second: f64,
    /// The mean score of the last games.
    pub mean_score: f64,
    /// The share of the last games that made the winning tile, 0 to 1.
    pub win_share: f64,
    /// How many games those are (at most [`RECENT`]).
    pub recent: usize,
    /// Seconds left at the pace so far, once a game was played.
    pub left: Option<f64>,
}

impl Figures {
    /// The share of the run done, 0 to 1.
    pub fn fraction(&self) -> f64 {
        let (done, target) = self.target.count(self.games, self.moves);
        (done as f64 / target.max(1) as f64).clamp(0.0, 1.0)
    }

    /// The figures in one line: `games 2000/100000 (2.0%), 216000 moves/s, mean score 14312
    /// and win tile 12.5% over the last 1000, 1h02m left`; toward a target of moves, it begins
    /// `moves 412345678/1750000000 (23.6%) in 451003 games`.
    pub fn line(&self) -> String {
        let eta = self.left.map_or_else(|| "?".to_string(), duration_words);
        let percent = 100.0 * self.fraction();
        let count = match self.target {
            Target::Games(target) => format!("games {}/{target} ({percent:.1}%)", self.games),
            Target::Moves(target) => format!(
                "moves {}/{target} ({percent:.1}%) in {} games",
                self.moves, self.games
            ),
        };
        format!(
            "{count}, {:.0} moves/s, mean score {:.0} and win tile {:.1}% over the last {}, {eta} left",
            self.moves_per_second,
            self.mean_score,
            100.0 * self.win_share,
            self.recent,
        )
    }
}

/// Seconds as `1h02m`, `3m05s` or `42s`.
pub fn duration_words(secs: f64) -> String {
    let s = secs.round().clamp(0.0, 1e9) as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use tilebox_sliding::builtin_variant;

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration_words(42.4), "42s");
        assert_eq!(duration_words(185.0), "3m05s");
        assert_eq!(duration_words(3720.0), "1h02m");
        assert_eq!(duration_words(-5.0), "0s");
        assert_eq!(duration_words(f64::NAN), "0s");
    }

    #[test]
    fn the_line_gives_every_figure() {
        let figures = Figures {
            games: 2000,
            moves: 412_345_678,
            target: Target::Games(100_000),
            moves_per_second: 216_000.4,
            mean_score: 14_312.2,
            win_share: 0.125,
            recent: 1000,
            left: Some(3720.0),
        };
        assert_eq!(
            figures.line(),
            "games 2000/100000 (2.0%), 216000 moves/s, mean score 14312 and win tile 12.5% over the last 1000, 1h02m left"
        );
        assert_eq!(figures.fraction(), 0.02);
        let first = Figures {
            left: None,
            ..figures
        };
        assert!(first.line().ends_with(", ? left"), "{}", first.line());
        let moves = Figures {
            target: Target::Moves(1_750_000_000),
            ..figures
        };
        assert_eq!(
            moves.line(),
            "moves 412345678/1750000000 (23.6%) in 2000 games, 216000 moves/s, mean score 14312 and win tile 12.5% over the last 1000, 1h02m left"
        );
        assert!((moves.fraction() - 0.235_626_1).abs() < 1e-6);
    }

    #[test]
    fn a_run_toward_moves_stops_after_the_game_that_reaches_them() {
        let dir = tempfile::tempdir().unwrap();
        let variant = builtin_variant("threes").unwrap();
        let layout = Layout::small(true);
        let path = dir.path().join("threes.weights");
        let mut run = Run::open(&path, &variant, 3, &layout).unwrap();
        let mut seen = 0;
        let progress = run
            .train(
                1,
                Target::Moves(2_000),
                |p| {
                    seen = p.moves();
                    Flow::Continue
                },
                |_| {},
            )
            .unwrap();
        let state = run.state();
        assert!(state.moves >= 2_000, "{state:?}");
        assert_eq!(
            (progress.done(), progress.moves()),
            (state.games, state.moves)
        );
        assert!(state.games >= 2, "{state:?}");
        assert_eq!(seen, state.moves, "each saw the last game");
        assert_eq!(progress.figures().fraction(), 1.0);
        // The game before the last was short of the target: the run stopped at the first
        // game that reached it. The same games toward their number make the same file.
        let other = dir.path().join("by-games.weights");
        let mut by_games = Run::open(&other, &variant, 3, &layout).unwrap();
        by_games
            .train(
                1,
                Target::Games(state.games - 1),
                |_| Flow::Continue,
                |_| {},
            )
            .unwrap();
        assert!(by_games.state().moves < 2_000, "{:?}", by_games.state());
        by_games
            .train(1, Target::Games(state.games), |_| Flow::Continue, |_| {})
            .unwrap();
        assert_eq!(by_games.state(), state);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&other).unwrap()
        );
        // A target already reached plays nothing.
        let progress = run
            .train(1, Target::Moves(1_000), |_| Flow::Continue, |_| {})
            .unwrap();
        assert_eq!(progress.done(), state.games);
        assert_eq!(run.state(), state);
    }

    #[test]
    fn a_stopped_run_is_saved_and_resumes_where_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let variant = builtin_variant("2048").unwrap();
        let path = dir.path().join("2048.weights");
        let layout = Layout::small(false);
        let mut run = Run::open(&path, &variant, 7, &layout).unwrap();
        assert!(!path.exists(), "nothing is written before training");
        let mut saves = 0;
        let progress = run
            .train(
                1,
                Target::Games(1000),
                |p| {
                    if p.done() >= 30 {
                        Flow::Stop
                    } else {
                        Flow::Continue
                    }
                },
                |_| saves += 1,
            )
            .unwrap();
        assert_eq!(progress.done(), 30);
        assert_eq!(saves, 1, "saved once, at the stop");
        let (state, read_layout) = file::read_run(&path, &variant).unwrap();
        assert_eq!(state, run.state());
        assert_eq!((state.seed, state.games), (7, 30));
        // A new run learns by temporal coherence, in two stages.
        assert_eq!(read_layout, layout.clone().staged());

        // Reopened with another seed and layout: the file's run goes on.
        drop(run);
        let mut again = Run::open(&path, &variant, 99, &Layout::standard(false)).unwrap();
        assert_eq!(again.state(), state);
        assert_eq!(again.network().layout(), &read_layout);
        let progress = again
            .train(1, Target::Games(40), |_| Flow::Continue, |_| {})
            .unwrap();
        assert_eq!((progress.done(), again.state().games), (40, 40));
        assert_eq!(progress.figures().recent, 10);

        // The same 40 games in one go make the same file.
        let other = dir.path().join("one-go.weights");
        let mut whole = Run::open(&other, &variant, 7, &layout).unwrap();
        whole
            .train(1, Target::Games(40), |_| Flow::Continue, |_| {})
            .unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&other).unwrap()
        );
    }

    #[test]
    fn one_run_trains_a_file_at_a_time_and_a_torn_save_is_swept() {
        let dir = tempfile::tempdir().unwrap();
        let variant = builtin_variant("2048").unwrap();
        let path = dir.path().join("players").join("2048.weights");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(file::temp_path(&path), b"half a save").unwrap();
        let layout = Layout::small(false);
        let first = Run::open(&path, &variant, 0, &layout).unwrap();
        assert!(!file::temp_path(&path).exists(), "the torn save is swept");
        let err = Run::open(&path, &variant, 0, &layout).unwrap_err();
        assert!(matches!(err, RunError::Busy(_)), "{err}");
        assert!(
            err.to_string().contains("another run is training it"),
            "{err}"
        );
        drop(first);
        Run::open(&path, &variant, 0, &layout).unwrap();
    }

    #[test]
    fn a_refused_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let variant = builtin_variant("2048").unwrap();
        let path = dir.path().join("2048.weights");
        std::fs::write(&path, b"not weights").unwrap();
        let err = Run::open(&path, &variant, 0, &Layout::small(false)).unwrap_err();
        assert!(matches!(err, RunError::Refused(_)), "{err}");
        assert!(
            err.to_string().ends_with("(remove it to train afresh)"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"not weights");
        assert!(file::read_run(&path, &variant).is_err());
    }
}
