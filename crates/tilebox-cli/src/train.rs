//! `train`: trains a variant's n-tuple network by self-play (`tilebox_ai::ntuple`), saving it
//! to `players/<id>.weights` in the data directory as it goes, and resuming from that file.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use tilebox_ai::ntuple::file;
use tilebox_ai::ntuple::run::{Progress, Run, Target};
use tilebox_ai::ntuple::train::{Flow, Rule};
use tilebox_ai::ntuple::{Layout, NetworkSize, train_on_huge_pages, trainable};
use tilebox_core::Registry;
use tilebox_sliding::Sliding;

use crate::error::{CliError, Quoted};

/// How often the progress line is redrawn on a terminal.
const REDRAW_EVERY: Duration = Duration::from_millis(500);

/// How often a progress line is written when stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

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
    /// How a new run learns (a resumed run keeps its own).
    pub learning: Option<Rule>,
}

/// The name of a network of `layout`: `standard`, `small`, or `custom` for another layout.
fn size_name(layout: &Layout) -> &'static str {
    NetworkSize::of(layout).map_or("custom", NetworkSize::name)
}

/// The 4×4 sliding games of `registry`, comma-separated.
fn trainable_games(registry: &Registry) -> String {
    registry
        .entries()
        .iter()
        .filter(|e| e.params::<Sliding>().is_some_and(trainable))
        .map(|e| e.id().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `train` on `registry`'s game, the weights in `data_dir`; progress goes to `stderr`, a
/// bar and a line redrawn in place when `terminal`, else a line every [`LINE_EVERY`]; the
/// summary, one line of JSON, to `out`.
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
        .filter(|v| trainable(v))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{} is not a game a network can learn: a 4×4 sliding game on a ladder, its rules the same on every move (train works on: {})",
                Quoted(&request.game),
                trainable_games(registry)
            ))
        })?
        .clone();
    let path = file::weights_path(data_dir, &variant.id);
    // `--games 0` reads where a run stands; with no run, it would write an untrained network.
    if request.games == 0 && file::read_run(&path, &variant).is_err_and(|e| e.is_missing()) {
        return Err(CliError::Usage(format!(
            "--games 0 trains nothing, and {} has no network yet ({} is not there): nothing is written",
            variant.id,
            path.display()
        )));
    }
    let size = request.network.unwrap_or(NetworkSize::Standard);
    // The process trains this one network, then ends: its weights may stay in huge pages.
    train_on_huge_pages();
    let mut run = Run::open_with(
        &path,
        &variant,
        request.seed.unwrap_or(0),
        &size.layout(variant.preview),
        request.learning.unwrap_or_default(),
    )
    .map_err(CliError::Train)?;
    check_asked(&run, request)?;
    let mut shown = Shown::new(terminal);
    let end = run.train(
        request.threads.max(1) as usize,
        Target::Games(request.games),
        |progress| {
            shown.count(progress, stderr);
            Flow::Continue
        },
        |_| {},
    );
    shown.finish(end.as_ref().ok(), stderr);
    let end = end.map_err(CliError::Train)?;
    let state = run.state();
    let summary = json!({
        "game": variant.id,
        "file": path.display().to_string(),
        "network": size_name(run.network().layout()),
        "method": state.method.name(),
        "learning": state.rule.name(),
        "stages": run.network().layout().stages().len(),
        "seed": state.seed,
        "games": state.games,
        "moves": state.moves,
        "mean_score": round4(end.recent().mean_score()),
        "win_rate": round4(end.recent().win_share()),
    });
    writeln!(out, "{summary}")?;
    Ok(())
}

fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// Refuses a `--seed` or `--network` other than those of the run resumed from its file.
fn check_asked(run: &Run, request: &Request) -> Result<(), CliError> {
    let state = run.state();
    if let Some(seed) = request.seed.filter(|&s| s != state.seed) {
        return Err(CliError::Usage(format!(
            "--seed {seed}: {} continues the run of seed {} (remove it to train afresh)",
            run.path().display(),
            state.seed
        )));
    }
    if let Some(asked) = request.learning.filter(|&r| r != state.rule) {
        return Err(CliError::Usage(format!(
            "--learning {}: {} continues a run learning by {} (remove it to train afresh)",
            asked.name(),
            run.path().display(),
            state.rule.name()
        )));
    }
    let layout = run.network().layout();
    if let Some(asked) = request
        .network
        .filter(|&n| Some(n) != NetworkSize::of(layout))
    {
        return Err(CliError::Usage(format!(
            "--network {}: {} holds a {} network (remove it to train afresh)",
            asked.name(),
            run.path().display(),
            size_name(layout)
        )));
    }
    Ok(())
}

/// Cells of the bar drawn before the redrawn line.
const BAR_CELLS: usize = 20;

/// The share `done` (0 to 1) as a bar of [`BAR_CELLS`] cells, `[#####---------------]`; a
/// cell is filled once the share covers it whole.
fn bar(done: f64) -> String {
    let filled = ((done.clamp(0.0, 1.0) * BAR_CELLS as f64).floor() as usize).min(BAR_CELLS);
    format!("[{}{}]", "#".repeat(filled), "-".repeat(BAR_CELLS - filled))
}

/// The progress shown on stderr: a bar and a line redrawn on a terminal, else a line now and
/// then.
struct Shown {
    terminal: bool,
    at: Option<Instant>,
    /// Whether a game came since the line was last shown.
    due: bool,
    drawn: bool,
}

impl Shown {
    fn new(terminal: bool) -> Shown {
        Shown {
            terminal,
            at: None,
            due: false,
            drawn: false,
        }
    }

    /// Shows the figures after a game when it is time.
    fn count(&mut self, progress: &Progress, stderr: &mut dyn Write) {
        let every = if self.terminal {
            REDRAW_EVERY
        } else {
            LINE_EVERY
        };
        self.due = true;
        if self.at.is_none_or(|t| t.elapsed() >= every) {
            self.at = Some(Instant::now());
            self.show(progress, stderr);
        }
    }

    fn show(&mut self, progress: &Progress, stderr: &mut dyn Write) {
        self.due = false;
        let figures = progress.figures();
        let line = figures.line();
        // Nothing is left to do if stderr is closed.
        let _ = if self.terminal {
            self.drawn = true;
            write!(stderr, "\r{} {line}\x1b[K", bar(figures.fraction()))
        } else {
            writeln!(stderr, "{line}")
        };
        let _ = stderr.flush();
    }

    /// Shows the last figures (the run's end, when it came to one) if a game came since they
    /// were shown, and ends the redrawn line.
    fn finish(&mut self, end: Option<&Progress>, stderr: &mut dyn Write) {
        if let Some(end) = end.filter(|_| self.due) {
            self.show(end, stderr);
        }
        if self.drawn {
            let _ = writeln!(stderr);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_terminal_gets_the_bar_before_the_line_redrawn_in_place() {
        let mut shown = Shown::new(true);
        let mut err = Vec::new();
        let progress = Progress::new(25, 1000, Target::Games(100));
        shown.count(&progress, &mut err);
        shown.finish(None, &mut err);
        let line = progress.figures().line();
        assert!(line.starts_with("games 25/100 (25.0%)"), "{line}");
        let bar = format!("[#####{}]", "-".repeat(15));
        assert_eq!(
            String::from_utf8(err).unwrap(),
            format!("\r{bar} {line}\x1b[K\n")
        );
    }

    #[test]
    fn the_bar_fills_a_cell_for_each_twentieth_done() {
        assert_eq!(bar(0.0), format!("[{}]", "-".repeat(20)));
        assert_eq!(bar(0.049), format!("[{}]", "-".repeat(20)));
        assert_eq!(bar(0.25), format!("[#####{}]", "-".repeat(15)));
        assert_eq!(bar(1.0), format!("[{}]", "#".repeat(20)));
        // Whatever the share, the bar keeps its width.
        for done in [-1.0, 0.999, 2.0, f64::NAN] {
            assert_eq!(bar(done).chars().count(), 22, "{done}");
        }
    }
}
