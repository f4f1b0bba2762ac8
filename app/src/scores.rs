//! The score table, `scores.json`: best score, games played and games won, per game id.
//!
//! ```json
//! {"version":1,"games":{"2048":{"best":2516,"played":3,"won":0}}}
//! ```
//!
//! A game whose score is better lower (a golf score, [`tilebox_core::Entry::lower_is_better`])
//! keeps its best as `lowest`, the lowest score of a finished game, absent until one is
//! finished; `best` stays the highest score reached, so a file written before `lowest` existed
//! reads as it always did:
//!
//! ```json
//! {"version":1,"games":{"shut-the-box":{"best":0,"played":2,"won":0,"lowest":7}}}
//! ```
//!
//! Only the copy of the app that holds the data directory ([`crate::lock`]) writes it, so the
//! table it holds is the table on disk: a write is the whole table, with nothing to merge.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::storage::{Layout, ReadOutcome, Storage, StorageError, encode, notice};

/// The file name of the score table inside the data directory.
pub const SCORES_FILE: &str = "scores.json";
/// The version of the score table this build writes and reads.
pub const SCORES_VERSION: u32 = 1;

/// What the table keeps for one game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The lowest final score of a finished game, for games whose score is better lower;
    /// `None` until one is finished (and in files written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lowest: Option<u64>,
    /// The figures of assisted games (undo, a hint or autoplay used), kept apart from the ones
    /// above, which count unassisted games only; absent (zero, none) in files written before
    /// they were kept, whose figures are all unassisted. The highest score an assisted game
    /// reached.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub assisted_best: u64,
    /// Assisted games finished, won, or abandoned after a move.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub assisted_played: u64,
    /// Assisted games won.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub assisted_won: u64,
    /// The lowest final score of a finished assisted game, where lower is better.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assisted_lowest: Option<u64>,
    /// Fields a newer Tilebox wrote that this build does not know: kept, unchanged, on every
    /// rewrite.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The best score of a game, as the player is shown it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Best {
    /// The highest score reached (0 before any).
    Highest(u64),
    /// The lowest final score of a finished game, none before one is finished.
    Lowest(Option<u64>),
}

impl Best {
    /// The top bar's box: "Best: 2516", "Best: 7, lower is better", "Best: none yet, lower is
    /// better".
    pub fn bar_text(self) -> String {
        match self {
            Best::Highest(points) => format!("Best: {points}"),
            Best::Lowest(Some(points)) => format!("Best: {points}, lower is better"),
            Best::Lowest(None) => "Best: none yet, lower is better".to_string(),
        }
    }

    /// A launcher card's: "Best 2516", "Best 7 (lower is better)", "Best none yet (lower is
    /// better)".
    pub fn card_text(self) -> String {
        match self {
            Best::Highest(points) => format!("Best {points}"),
            Best::Lowest(Some(points)) => format!("Best {points} (lower is better)"),
            Best::Lowest(None) => "Best none yet (lower is better)".to_string(),
        }
    }
}

impl GameStats {
    /// The best of a game whose score is better lower if `lower_is_better`, else higher:
    /// unassisted games' only.
    pub fn best_for(&self, lower_is_better: bool) -> Best {
        if lower_is_better {
            Best::Lowest(self.lowest)
        } else {
            Best::Highest(self.best)
        }
    }

    /// The best of the assisted games, if one set any.
    pub fn assisted_best_for(&self, lower_is_better: bool) -> Option<u64> {
        if lower_is_better {
            self.assisted_lowest
        } else {
            (self.assisted_best > 0).then_some(self.assisted_best)
        }
    }
}

/// `text` (a best, as [`Best::bar_text`] or [`Best::card_text`] write it) with the assisted
/// games' best beside it, if there is one: "Best 2048 · assisted 4096".
pub fn with_assisted(text: String, assisted: Option<u64>) -> String {
    match assisted {
        Some(points) => format!("{text} \u{b7} assisted {points}"),
        None => text,
    }
}

/// The whole score table. Read field by field ([`Deserialize`] by hand, not serde's
/// `flatten`, which would first copy the whole file into a tree of its own): a table near the
/// bound costs little more than itself in memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scores {
    /// Format version, [`SCORES_VERSION`].
    pub version: u32,
    /// Per game id.
    #[serde(default)]
    pub games: BTreeMap<String, GameStats>,
    /// Fields a newer Tilebox wrote that this build does not know: kept, unchanged, on every
    /// rewrite.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

impl Default for Scores {
    fn default() -> Self {
        Self {
            version: SCORES_VERSION,
            games: BTreeMap::new(),
            unknown: serde_json::Map::new(),
        }
    }
}

impl<'de> Deserialize<'de> for Scores {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ScoresVisitor)
    }
}

struct ScoresVisitor;

impl<'de> serde::de::Visitor<'de> for ScoresVisitor {
    type Value = Scores;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a score table (an object with \"version\" and \"games\")")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Scores, A::Error> {
        let mut version = None;
        let mut games = None;
        let mut unknown = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "version" if version.is_none() => version = Some(map.next_value()?),
                "version" => return Err(serde::de::Error::duplicate_field("version")),
                "games" if games.is_none() => games = Some(map.next_value()?),
                "games" => return Err(serde::de::Error::duplicate_field("games")),
                _ => {
                    let value = map.next_value()?;
                    unknown.insert(key, value);
                }
            }
        }
        Ok(Scores {
            version: version.ok_or_else(|| serde::de::Error::missing_field("version"))?,
            games: games.unwrap_or_default(),
            unknown,
        })
    }
}

impl Scores {
    /// The stats of game `id` (zeros when it was never played).
    pub fn get(&self, id: &str) -> GameStats {
        self.games.get(id).cloned().unwrap_or_default()
    }

    /// The stats of game `id`, to change.
    pub fn entry(&mut self, id: &str) -> &mut GameStats {
        self.games.entry(id.to_string()).or_default()
    }

    /// Reads the table from `storage`. An unreadable file (corrupt, truncated, too large) is
    /// moved aside and an empty table returned, with a notice for the player. A file a newer
    /// Tilebox wrote is shown as far as this build reads it, and never written.
    pub fn load(storage: &Storage) -> (Scores, Option<String>) {
        let outcome = storage.read_json(SCORES_FILE, "version", u64::from(SCORES_VERSION));
        let message = notice("The score table (scores.json)", &outcome);
        match outcome {
            ReadOutcome::Loaded(scores) => (scores, message),
            ReadOutcome::Newer {
                value: Some(scores),
                ..
            } => (scores, message),
            _ => (Scores::default(), message),
        }
    }

    /// The bytes of the file that holds the table.
    pub fn encode(&self, storage: &Storage) -> Result<Vec<u8>, StorageError> {
        encode(&storage.path(SCORES_FILE), self, Layout::Pretty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_lowest_reads_and_writes_as_before() {
        let text = r#"{"version":1,"games":{"strike9":{"best":45,"played":1,"won":1}}}"#;
        let scores: Scores = serde_json::from_str(text).unwrap();
        let stats = scores.get("strike9");
        assert_eq!(stats.lowest, None);
        assert_eq!(stats.best_for(false), Best::Highest(45));
        assert_eq!(serde_json::to_string(&scores).unwrap(), text);
    }

    #[test]
    fn the_assisted_figures_are_new_fields_that_old_files_lack() {
        let old = r#"{"version":1,"games":{"2048":{"best":20,"played":1,"won":0}}}"#;
        let mut scores: Scores = serde_json::from_str(old).unwrap();
        let stats = scores.get("2048");
        assert_eq!(stats.assisted_best_for(false), None);
        assert_eq!((stats.assisted_played, stats.assisted_won), (0, 0));
        scores.entry("2048").assisted_best = 64;
        scores.entry("2048").assisted_played = 1;
        let text = serde_json::to_string(&scores).unwrap();
        assert!(
            text.contains(r#""assisted_best":64,"assisted_played":1"#),
            "{text}"
        );
        let back: Scores = serde_json::from_str(&text).unwrap();
        assert_eq!(back, scores);
        assert_eq!(
            with_assisted(Best::Highest(20).card_text(), Some(64)),
            "Best 20 \u{b7} assisted 64"
        );
    }

    #[test]
    fn the_table_reads_field_by_field_keeping_what_it_does_not_know() {
        let text = r#"{"version":1,"games":{"2048":{"best":4,"played":1,"won":0,"x":[1]}},"extra":{"a":true}}"#;
        let scores: Scores = serde_json::from_str(text).unwrap();
        assert_eq!(scores.get("2048").best, 4);
        assert_eq!(scores.get("2048").unknown["x"], serde_json::json!([1]));
        assert_eq!(scores.unknown["extra"], serde_json::json!({"a": true}));
        assert_eq!(serde_json::to_string(&scores).unwrap(), text);
        // No games: an empty table; no version, or a version twice: refused.
        let empty: Scores = serde_json::from_str(r#"{"version":1}"#).unwrap();
        assert!(empty.games.is_empty());
        for bad in [
            r#"{"games":{}}"#,
            r#"{"version":1,"version":1}"#,
            "[1]",
            r#"{"version":"1"}"#,
        ] {
            assert!(serde_json::from_str::<Scores>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_best_reads_by_its_direction() {
        assert_eq!(Best::Highest(0).bar_text(), "Best: 0");
        assert_eq!(Best::Lowest(Some(7)).bar_text(), "Best: 7, lower is better");
        assert_eq!(
            Best::Lowest(Some(7)).card_text(),
            "Best 7 (lower is better)"
        );
        assert_eq!(
            Best::Lowest(None).card_text(),
            "Best none yet (lower is better)"
        );
        assert_eq!(Best::Highest(2516).card_text(), "Best 2516");
    }
}
