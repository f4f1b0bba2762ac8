//! Reads the score table of a data directory as the app reads it at start, and prints how many
//! games it holds: `read_file <data dir>`. For measuring the memory a large file costs:
//!
//! ```text
//! /usr/bin/time -v target/debug/examples/read_file <data dir>   # "Maximum resident set size"
//! ```
//!
//! `read_file <data dir> --tree` reads it as Tilebox did before (a `serde_json::Value` of the
//! whole file, then the table from it), for the figure it is compared with.

use std::io::Write;
use std::process::ExitCode;

use tilebox::store::scores::{GameStats, Scores};
use tilebox::store::storage::Storage;

/// The score table as it was read before: serde's derive, with `flatten`.
#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Tree {
    version: u32,
    #[serde(default)]
    games: std::collections::BTreeMap<String, GameStats>,
    #[serde(flatten)]
    unknown: serde_json::Map<String, serde_json::Value>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        let _ = writeln!(std::io::stderr(), "usage: read_file <data dir> [--tree]");
        return ExitCode::from(2);
    };
    let games = if args.get(1).is_some_and(|a| a == "--tree") {
        let Ok(bytes) = std::fs::read(std::path::Path::new(dir).join("scores.json")) else {
            return ExitCode::FAILURE;
        };
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
        drop(bytes);
        serde_json::from_value::<Tree>(value).map_or(0, |t| t.games.len())
    } else {
        let (scores, notice) = Scores::load(&Storage::new(dir));
        if let Some(notice) = notice {
            let _ = writeln!(std::io::stderr(), "{notice}");
        }
        scores.len()
    };
    let _ = writeln!(std::io::stdout(), "{games} games");
    ExitCode::SUCCESS
}
