//! The score table, `scores.json`: best score, games played and games won, per game id.
//!
//! ```json
//! {"version":1,"games":{"2048":{"best":2516,"played":3,"won":0}}}
//! ```
//!
//! Writes merge with what is on disk (the higher best, the larger counts), under a lock on
//! `scores.lock`, so two instances of the app running at once never lower a best score.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::storage::{Layout, ReadOutcome, Storage, StorageError, notice};

/// The file name of the score table inside the data directory.
pub const SCORES_FILE: &str = "scores.json";
/// The lock file that two instances take turns on while they read, merge and write the table.
pub const SCORES_LOCK: &str = "scores.lock";
/// The version of the score table this build writes and reads.
pub const SCORES_VERSION: u32 = 1;

/// What the table keeps for one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStats {
    /// The highest score reached.
    #[serde(default)]
    pub best: u64,
    /// Games finished, or abandoned for a new one after at least one move.
    #[serde(default)]
    pub played: u64,
    /// Games won.
    #[serde(default)]
    pub won: u64,
}

impl GameStats {
    /// The higher best and the larger counts of both.
    pub fn merged(self, other: GameStats) -> GameStats {
        GameStats {
            best: self.best.max(other.best),
            played: self.played.max(other.played),
            won: self.won.max(other.won),
        }
    }
}

/// The whole score table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    /// Format version, [`SCORES_VERSION`].
    pub version: u32,
    /// Per game id.
    #[serde(default)]
    pub games: BTreeMap<String, GameStats>,
}

impl Default for Scores {
    fn default() -> Self {
        Self {
            version: SCORES_VERSION,
            games: BTreeMap::new(),
        }
    }
}

impl Scores {
    /// The stats of game `id` (zeros when it was never played).
    pub fn get(&self, id: &str) -> GameStats {
        self.games.get(id).copied().unwrap_or_default()
    }

    /// The stats of game `id`, to change.
    pub fn entry(&mut self, id: &str) -> &mut GameStats {
        self.games.entry(id.to_string()).or_default()
    }

    /// Takes in `other`: per game, the higher best and the larger counts.
    pub fn merge(&mut self, other: &Scores) {
        for (id, stats) in &other.games {
            let mine = self.entry(id);
            *mine = mine.merged(*stats);
        }
    }

    /// Reads the table from `storage`. An unreadable file (corrupt, truncated, from a future
    /// version) is moved aside and an empty table returned, with a notice for the player.
    pub fn load(storage: &Storage) -> (Scores, Option<String>) {
        let outcome = read(storage);
        let message = notice("The score table (scores.json)", &outcome);
        match outcome {
            ReadOutcome::Loaded(scores) => (scores, message),
            _ => (Scores::default(), message),
        }
    }

    /// Writes the table, merged first with the one on disk (which another instance may have
    /// written since), and keeps the merged table. Returns a notice if the file on disk had to
    /// be moved aside.
    pub fn save_merged(&mut self, storage: &Storage) -> Result<Option<String>, StorageError> {
        // No other instance writes between our read and our write.
        let _lock = storage.lock(SCORES_LOCK)?;
        let outcome = read(storage);
        let message = notice("The score table (scores.json)", &outcome);
        match &outcome {
            ReadOutcome::Loaded(on_disk) => self.merge(on_disk),
            // Never write over a file that could not be read nor moved aside.
            ReadOutcome::Failed(reason) => return Err(StorageError::Unreadable(reason.clone())),
            ReadOutcome::Missing | ReadOutcome::Quarantined { .. } => {}
        }
        self.version = SCORES_VERSION;
        storage.write_json(SCORES_FILE, self, Layout::Pretty)?;
        Ok(message)
    }
}

fn read(storage: &Storage) -> ReadOutcome<Scores> {
    storage.read_json(SCORES_FILE, |s: &Scores| {
        if s.version == SCORES_VERSION {
            Ok(())
        } else {
            Err(format!(
                "version {} is not supported (this build reads version {SCORES_VERSION})",
                s.version
            ))
        }
    })
}
