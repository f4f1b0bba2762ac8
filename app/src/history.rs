//! Every game remembered: `history/<entry-id>.jsonl`, one [`Record`] a line, appended when a
//! game ends or is abandoned for a new one after a move.

use serde::{Deserialize, Serialize};
use tilebox_core::{SAVE_FORMAT, SavedGame};

/// The version of the history's line form written by this build.
pub const HISTORY_FORMAT: u32 = 1;

/// One game of the history: everything needed to replay it (its entry, parameters, seed and
/// moves) and what it came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The version of this form, [`HISTORY_FORMAT`] when written by this build.
    pub format: u32,
    /// The entry's id.
    pub game: String,
    /// The game's parameters, in the game's own serde form (as in saves).
    pub params: serde_json::Value,
    /// The seed the game started from.
    pub seed: u64,
    /// The moves played, in order, in their text form (as in saves).
    pub moves: Vec<String>,
    /// The final score.
    pub score: u64,
    /// The game was won (in 2048, reached its win and maybe went on).
    pub won: bool,
    /// The game reached its end; `false`: it was abandoned for a new game.
    pub over: bool,
    /// When the game ended or was abandoned: UTC, RFC 3339 (`2026-11-23T16:27:11Z`).
    pub ended: String,
    /// How long it was played, in milliseconds (the time its board was on screen).
    pub duration_ms: u64,
    /// The highest tile on the board at the end (sliding games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_tile: Option<u64>,
    /// How many tiles were left open at the end (Strike 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles_left: Option<u32>,
    /// Undo, a hint or autoplay was used in the game.
    #[serde(default)]
    pub assisted: bool,
    /// The date (`YYYY-MM-DD`, UTC) whose daily game this was; absent for any other game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<String>,
    /// Fields a newer Tilebox wrote that this build does not know.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

impl Record {
    /// The game as a save with every move played, which [`tilebox_core::Entry::load`] replays
    /// to the recorded end.
    pub fn saved_game(&self) -> SavedGame {
        SavedGame {
            format: SAVE_FORMAT,
            game: self.game.clone(),
            params: self.params.clone(),
            seed: self.seed,
            moves: self.moves.clone(),
            redo: Vec::new(),
        }
    }
}

/// What the app holds of one entry's history, for the statistics and replays.
#[derive(Debug, Clone, Copy)]
pub enum HistoryView<'a> {
    /// The file is still being read (off the window's thread).
    Loading,
    /// Every game recorded, oldest first, with those appended since the file was read.
    Ready(&'a [Record]),
}
