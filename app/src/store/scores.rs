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
//! Only the copy of the app that holds the data directory ([`crate::store::lock`]) writes it, so
//! the table it holds is the table on disk: a write is the whole table, with nothing to merge. The
//! writer thread keeps its own copy ([`ScoresFile`]), sharing the games read from the file with the
//! window's ([`Scores`]); the window sends it each game that changes, and it writes the file from
//! its copy, a piece at a time, so that a new best costs the window the same with a table of ten
//! games or of hundreds of thousands.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::store::storage::{Layout, ReadOutcome, Storage, StorageError, encode, notice};

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

/// The whole score table.
///
/// Held in two parts, so that a table of hundreds of thousands of games costs little more than
/// its file and a change to one game never copies the rest: the games as read from the file,
/// packed ([`Packed`]: each id and its figures as compact JSON, in one text), shared by the
/// window and the writer thread and never changed; and the games changed since, each in full,
/// which override them. Read field by field ([`Deserialize`] by hand, not serde's `flatten`,
/// which would first copy the whole file into a tree of its own). A clone shares the packed
/// games: it costs the games changed since the file was read, not the table.
#[derive(Debug)]
pub struct Scores {
    /// Format version, [`SCORES_VERSION`].
    pub version: u32,
    /// The games as read from the file, by id.
    read: Arc<Packed>,
    /// The games changed since, by id: they override `read`.
    changed: BTreeMap<String, GameStats>,
    /// Fields a newer Tilebox wrote that this build does not know: kept, unchanged, on every
    /// rewrite.
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

impl Default for Scores {
    fn default() -> Self {
        Self {
            version: SCORES_VERSION,
            read: Arc::default(),
            changed: BTreeMap::new(),
            unknown: serde_json::Map::new(),
        }
    }
}

impl Clone for Scores {
    fn clone(&self) -> Self {
        #[cfg(test)]
        whole::count();
        Self {
            version: self.version,
            read: Arc::clone(&self.read),
            changed: self.changed.clone(),
            unknown: self.unknown.clone(),
        }
    }
}

/// The games of a score table as read from its file, packed: each id, then its figures as
/// compact JSON, one after another in one text; and where each game's id and figures start,
/// in the order of the ids, each id once (the last of a file that names one twice, as serde
/// reads a map). About 50 bytes a game, where a map of [`GameStats`] takes over 300.
#[derive(Debug, Default)]
struct Packed {
    text: String,
    /// Per game, in order of id: where its id starts in `text`, where its figures start, and
    /// where they end.
    at: Vec<[u32; 3]>,
}

impl Packed {
    /// The id of game `i` (of `at`).
    fn id(&self, [start, mid, _]: [u32; 3]) -> &str {
        self.text
            .get(start as usize..mid as usize)
            .unwrap_or_default()
    }

    /// The figures of game `i` (of `at`), read from their JSON: zeros should it not read, which
    /// cannot happen, since they were written from figures read.
    fn figures(&self, [_, mid, end]: [u32; 3]) -> GameStats {
        let json = self
            .text
            .get(mid as usize..end as usize)
            .unwrap_or_default();
        serde_json::from_str(json).unwrap_or_default()
    }

    /// Where game `id` is in `at`, if it is there.
    fn find(&self, id: &str) -> Option<[u32; 3]> {
        self.at
            .binary_search_by(|&at| self.id(at).cmp(id))
            .ok()
            .and_then(|i| self.at.get(i).copied())
    }

    /// Adds game `id` with `figures` (read in the order of the file; [`Packed::finish`] puts
    /// them in order).
    fn push(&mut self, id: &str, figures: &GameStats) -> Result<(), String> {
        let offset = |len: usize| u32::try_from(len).map_err(|_| "too many games".to_string());
        let start = offset(self.text.len())?;
        self.text.push_str(id);
        let mid = offset(self.text.len())?;
        let json = serde_json::to_string(figures).map_err(|e| e.to_string())?;
        self.text.push_str(&json);
        self.at.push([start, mid, offset(self.text.len())?]);
        Ok(())
    }

    /// Puts the games in order of id, and keeps the last of each id named twice.
    fn finish(&mut self) {
        let text = &self.text;
        let id = |&[start, mid, _]: &[u32; 3]| text.get(start as usize..mid as usize);
        if !self.at.is_sorted_by(|a, b| id(a) < id(b)) {
            // Stable: of one id named twice, the last read stays last.
            self.at.sort_by(|a, b| id(a).cmp(&id(b)));
            let mut kept: Vec<[u32; 3]> = Vec::with_capacity(self.at.len());
            for at in self.at.drain(..) {
                match kept.last_mut() {
                    Some(last) if id(last) == id(&at) => *last = at,
                    _ => kept.push(at),
                }
            }
            self.at = kept;
        }
        self.at.shrink_to_fit();
    }
}

/// One game of the table, as [`Scores::games`] gives it: packed, or changed since.
enum Game<'a> {
    Read(&'a Packed, [u32; 3]),
    Changed(&'a GameStats),
}

impl Game<'_> {
    fn figures(&self) -> std::borrow::Cow<'_, GameStats> {
        match self {
            Game::Read(packed, at) => std::borrow::Cow::Owned(packed.figures(*at)),
            Game::Changed(stats) => std::borrow::Cow::Borrowed(stats),
        }
    }
}

impl Serialize for Game<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.figures().serialize(s)
    }
}

/// The games of a table, in order of id (what [`Scores`] serializes as `games`).
struct Games<'a>(&'a Scores);

impl Serialize for Games<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.games())
    }
}

impl Serialize for Scores {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        #[cfg(test)]
        whole::count();
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("version", &self.version)?;
        map.serialize_entry("games", &Games(self))?;
        for (key, value) in &self.unknown {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl PartialEq for Scores {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
            && self.unknown == other.unknown
            && self
                .games()
                .map(|(id, game)| (id, game.figures().into_owned()))
                .eq(other
                    .games()
                    .map(|(id, game)| (id, game.figures().into_owned())))
    }
}

impl Eq for Scores {}

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
        let mut games: Option<PackedGames> = None;
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
            read: Arc::new(games.map(|g| g.0).unwrap_or_default()),
            changed: BTreeMap::new(),
            unknown,
        })
    }
}

/// The `games` of a file, read a game at a time into [`Packed`].
struct PackedGames(Packed);

impl<'de> Deserialize<'de> for PackedGames {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(PackedGamesVisitor)
    }
}

struct PackedGamesVisitor;

impl<'de> serde::de::Visitor<'de> for PackedGamesVisitor {
    type Value = PackedGames;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the games (an object of each game's figures)")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<PackedGames, A::Error> {
        let mut packed = Packed::default();
        while let Some(id) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let figures: GameStats = map.next_value()?;
            packed
                .push(&id, &figures)
                .map_err(serde::de::Error::custom)?;
        }
        packed.finish();
        Ok(PackedGames(packed))
    }
}

impl Scores {
    /// The stats of game `id` (zeros when it was never played).
    pub fn get(&self, id: &str) -> GameStats {
        match self.changed.get(id) {
            Some(stats) => stats.clone(),
            None => self
                .read
                .find(id)
                .map(|at| self.read.figures(at))
                .unwrap_or_default(),
        }
    }

    /// The stats of game `id`, to change.
    pub fn entry(&mut self, id: &str) -> &mut GameStats {
        if !self.changed.contains_key(id) {
            let stats = self.get(id);
            self.changed.insert(id.to_string(), stats);
        }
        self.changed.entry(id.to_string()).or_default()
    }

    /// Sets the stats of game `id` (what the writer's copy of the table is sent when the
    /// window's changes).
    pub fn set(&mut self, id: String, stats: GameStats) {
        self.changed.insert(id, stats);
    }

    /// How many games the table holds.
    pub fn len(&self) -> usize {
        let read_too = self
            .changed
            .keys()
            .filter(|id| self.read.find(id).is_some())
            .count();
        self.read.at.len() + self.changed.len() - read_too
    }

    /// Whether the table holds no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every game, in order of id.
    fn games(&self) -> impl Iterator<Item = (&str, Game<'_>)> {
        let read = &*self.read;
        let mut packed = read.at.iter().copied().peekable();
        let mut changed = self.changed.iter().peekable();
        std::iter::from_fn(move || {
            let next_read = packed.peek().map(|&at| read.id(at));
            let next_changed = changed.peek().map(|(id, _)| id.as_str());
            match (next_read, next_changed) {
                (None, None) => None,
                (Some(r), Some(c)) if c <= r => {
                    if c == r {
                        packed.next();
                    }
                    changed
                        .next()
                        .map(|(id, s)| (id.as_str(), Game::Changed(s)))
                }
                (Some(_), _) => packed.next().map(|at| (read.id(at), Game::Read(read, at))),
                (None, Some(_)) => changed
                    .next()
                    .map(|(id, s)| (id.as_str(), Game::Changed(s))),
            }
        })
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

/// The score table as the writer thread keeps it ([`crate::store::writer::Document`]): the window
/// sends it each game that changed, never the table, and it writes the file from it, as it is
/// made ([`Storage::write_json_streamed`]).
#[derive(Debug)]
pub struct ScoresFile {
    scores: Scores,
    /// The layout to write: compact once the pretty file passed the bound (a table only grows).
    layout: Layout,
}

impl ScoresFile {
    /// The writer's copy of `scores` (sharing its packed games).
    pub fn new(scores: &Scores) -> Self {
        Self {
            scores: Scores {
                version: SCORES_VERSION,
                ..scores.clone()
            },
            layout: Layout::Pretty,
        }
    }

    /// The table as it will be written.
    pub fn scores(&self) -> &Scores {
        &self.scores
    }

    /// Game `id` has the figures `stats` now.
    pub fn set(&mut self, id: String, stats: GameStats) {
        self.scores.set(id, stats);
    }
}

impl crate::store::writer::Document for ScoresFile {
    fn write(&mut self, storage: &Storage, name: &str) -> Result<(), StorageError> {
        self.layout = storage.write_json_streamed(name, &self.scores, self.layout)?;
        Ok(())
    }
}

/// How often this thread has serialized or copied a whole score table: the tests' witness that
/// a move costs the window's thread no such thing.
#[cfg(test)]
pub(crate) mod whole {
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    pub(crate) fn count() {
        COUNT.with(|c| c.set(c.get() + 1));
    }

    /// How often this thread did so.
    pub(crate) fn times() -> u64 {
        COUNT.with(Cell::get)
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
        assert!(empty.is_empty());
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
    fn the_games_read_are_packed_in_order_of_id_and_changes_override_them() {
        // Out of order, and one id twice (the last counts, as serde reads a map).
        let text = r#"{"version":1,"games":{"b":{"best":2,"played":1,"won":0},"a":{"best":1,"played":1,"won":0,"x":"y"},"b":{"best":3,"played":2,"won":1}}}"#;
        let mut scores: Scores = serde_json::from_str(text).unwrap();
        assert_eq!(scores.len(), 2);
        assert_eq!(scores.get("b").best, 3);
        assert_eq!(scores.get("a").unknown["x"], "y");
        assert_eq!(scores.get("c"), GameStats::default());
        // A change overrides the game read; a new game goes in its place.
        scores.entry("a").best = 10;
        scores.entry("c").played = 1;
        scores.entry("0").won = 0;
        assert_eq!(scores.len(), 4);
        assert_eq!(
            serde_json::to_string(&scores).unwrap(),
            r#"{"version":1,"games":{"0":{"best":0,"played":0,"won":0},"a":{"best":10,"played":1,"won":0,"x":"y"},"b":{"best":3,"played":2,"won":1},"c":{"best":0,"played":1,"won":0}}}"#
        );
        // A clone shares the games read: the writer's copy, sent one game.
        let mut file = ScoresFile::new(&scores);
        assert!(Arc::ptr_eq(&file.scores().read, &scores.read));
        scores.entry("b").best = 99;
        file.set("b".to_string(), scores.get("b"));
        assert_eq!(file.scores(), &scores);
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
