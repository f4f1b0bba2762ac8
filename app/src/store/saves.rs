//! Games in progress on disk: `saves/<game-id>.json` holds the engine's save form (parameters,
//! seed, moves, redo list) and the game's [`Tally`], so a game resumes with its whole history and
//! is never counted twice in the score table.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tilebox_core::date::Date;
use tilebox_core::{DynSession, Entry, SAVE_FORMAT, SavedGame};

use crate::store::storage::{
    Layout, ReadOutcome, Storage, StorageError, encode, notice, notice_with,
};
use crate::store::tally::Tally;

/// What a save file holds. Read field by field (a [`Deserialize`] by hand, not serde's
/// `flatten`, which would first copy the whole file, moves and all, into a tree of its own); the
/// app reads its saves at start with their moves kept compact ([`read`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppSave {
    /// The engine's save form, its fields at the top level of the file.
    #[serde(flatten)]
    pub game: SavedGame,
    /// What the score table has been told of this game; missing in saves from before it was
    /// kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tally: Option<Tally>,
    /// The date whose daily game this is, written `YYYY-MM-DD`; absent for any other game and in
    /// saves from before daily games (a text that is not a date reads as absent).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "write_date")]
    pub daily: Option<Date>,
    /// How long the game's board has been on screen while the game was not over, in
    /// milliseconds (for its record in the history); absent in saves from before it was kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Fields a newer Tilebox wrote that this build does not know: kept, unchanged, on every
    /// rewrite.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

// `serialize_with` hands the field by reference.
#[allow(clippy::ref_option)]
fn write_date<S: Serializer>(date: &Option<Date>, serializer: S) -> Result<S::Ok, S::Error> {
    date.map(|d| d.to_string()).serialize(serializer)
}

/// The fields of the engine's save form ([`SavedGame`]) but its moves, which are read straight
/// into their lists.
const ENGINE_FIELDS: [&str; 4] = ["format", "game", "params", "seed"];

/// An [`AppSave`] with its moves as strings, for the tests of the file form: the app itself
/// reads saves through [`Read`].
#[cfg(test)]
impl<'de> Deserialize<'de> for AppSave {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = Read::deserialize(d)?;
        let mut game = read.game;
        game.moves = read.moves.iter().map(str::to_string).collect();
        game.redo = read.redo.iter().map(str::to_string).collect();
        Ok(AppSave {
            game,
            tally: read.tally,
            daily: read.daily,
            duration_ms: read.duration_ms,
            unknown: read.unknown,
        })
    }
}

/// A save as the app reads it at start: an [`AppSave`] whose moves and redo list are kept
/// compact ([`Texts`]), not a string each (a save of millions of moves would take many times
/// its size in strings); the game's own lists are empty.
struct Read {
    game: SavedGame,
    moves: Texts,
    redo: Texts,
    tally: Option<Tally>,
    daily: Option<Date>,
    duration_ms: Option<u64>,
    unknown: serde_json::Map<String, serde_json::Value>,
}

/// Move texts kept compact: one after another in one text, and where each ends.
#[derive(Debug, Default)]
struct Texts {
    text: String,
    ends: Vec<u32>,
}

impl Texts {
    /// Each text, in order.
    fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(start, end)| self.text.get(start as usize..end as usize).unwrap_or(""))
    }
}

impl<'de> Deserialize<'de> for Texts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(TextsVisitor)
    }
}

struct TextsVisitor;

impl<'de> serde::de::Visitor<'de> for TextsVisitor {
    type Value = Texts;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of moves")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Texts, A::Error> {
        let mut texts = Texts::default();
        while let Some(text) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
            texts.text.push_str(&text);
            let end = u32::try_from(texts.text.len())
                .map_err(|_| serde::de::Error::custom("the moves are too long"))?;
            texts.ends.push(end);
        }
        texts.text.shrink_to_fit();
        texts.ends.shrink_to_fit();
        Ok(texts)
    }
}

impl<'de> Deserialize<'de> for Read {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ReadVisitor)
    }
}

struct ReadVisitor;

impl<'de> serde::de::Visitor<'de> for ReadVisitor {
    type Value = Read;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a saved game (an object)")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Read, A::Error> {
        use serde::de::Error;
        let mut moves: Option<Texts> = None;
        let mut redo: Option<Texts> = None;
        let mut tally = None;
        let mut daily = None;
        let mut duration_ms = None;
        let mut engine = serde_json::Map::new();
        let mut unknown = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let twice = |seen: bool| {
                if seen {
                    Err(A::Error::custom(format!("duplicate field `{key}`")))
                } else {
                    Ok(())
                }
            };
            match key.as_str() {
                "moves" => {
                    twice(moves.is_some())?;
                    moves = Some(map.next_value()?);
                }
                "redo" => {
                    twice(redo.is_some())?;
                    redo = Some(map.next_value()?);
                }
                "tally" => tally = map.next_value::<Option<Tally>>()?,
                // A text that is not a date reads as no daily game.
                "daily" => {
                    daily = map
                        .next_value::<Option<String>>()?
                        .and_then(|t| t.parse::<Date>().ok());
                }
                "duration_ms" => duration_ms = map.next_value::<Option<u64>>()?,
                k if ENGINE_FIELDS.contains(&k) => {
                    twice(engine.contains_key(k))?;
                    let value = map.next_value()?;
                    engine.insert(key, value);
                }
                _ => {
                    let value = map.next_value()?;
                    unknown.insert(key, value);
                }
            }
        }
        // The small fields through the engine's own reading; the moves are kept apart.
        engine.insert("moves".to_string(), serde_json::Value::Array(Vec::new()));
        let game: SavedGame =
            serde_json::from_value(serde_json::Value::Object(engine)).map_err(A::Error::custom)?;
        Ok(Read {
            game,
            moves: moves.ok_or_else(|| A::Error::missing_field("moves"))?,
            redo: redo.unwrap_or_default(),
            tally,
            daily,
            duration_ms,
            unknown,
        })
    }
}

impl Read {
    /// The game of `entry` this save holds, replayed.
    fn load(&self, entry: &Entry) -> Result<Box<dyn DynSession>, tilebox_core::LoadError> {
        entry.load_texts(&self.game, &mut self.moves.iter(), &mut self.redo.iter())
    }
}

/// `id` made safe as a file name: every character but ASCII letters, digits, `-` and `_` is
/// `_`. Saves and histories name their files by it.
pub fn safe_file_stem(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The folder of the games in progress, inside the data directory.
pub const SAVES_FOLDER: &str = "saves";

/// The file, inside the data directory, that holds the game in progress of game `id`.
pub fn save_file_name(id: &str) -> String {
    format!("{SAVES_FOLDER}/{}.json", safe_file_stem(id))
}

/// The save of `session` with its tally, the date of its daily game if it is one, how long it
/// has been played (ms), and the fields of its file this build does not know.
pub fn save_of(
    session: &dyn DynSession,
    tally: Tally,
    daily: Option<Date>,
    duration_ms: u64,
    unknown: serde_json::Map<String, serde_json::Value>,
) -> AppSave {
    AppSave {
        game: session.save(),
        tally: Some(tally),
        daily,
        duration_ms: Some(duration_ms),
        unknown,
    }
}

/// The bytes of the file of `save`.
pub fn encode_save(storage: &Storage, save: &AppSave) -> Result<Vec<u8>, StorageError> {
    encode(
        &storage.path(&save_file_name(&save.game.game)),
        save,
        Layout::Compact,
    )
}

/// A game read from its save.
pub struct Resumed {
    /// The game, with its undo and redo history.
    pub session: Box<dyn DynSession>,
    /// What the score table has been told of it.
    pub tally: Tally,
    /// The date whose daily game it is, if it is one.
    pub daily: Option<Date>,
    /// How long it has been played, in milliseconds (0 in saves from before it was kept).
    pub duration_ms: u64,
    /// The fields of the file this build does not know, to keep.
    pub unknown: serde_json::Map<String, serde_json::Value>,
    /// A newer Tilebox wrote the save: the game can be looked at, not played, and its file is
    /// not written.
    pub newer: bool,
}

/// Reads the saved game of `entry` and its tally, moving the file aside if it cannot be resumed;
/// `notices` gets a sentence saying so. A save a newer Tilebox wrote is left in place: it is
/// read as this build reads saves, to be looked at, if it can be.
pub fn read(storage: &Storage, entry: &Entry, notices: &mut Vec<String>) -> Option<Resumed> {
    // A folder that cannot be read is one notice, not one per game (most have no save).
    if let Some(problem) = storage.folder_problem(SAVES_FOLDER) {
        let text = format!(
            "The saved games ({SAVES_FOLDER}/) cannot be read: {problem}. They are left as they \
             are, and no game is saved there while Tilebox runs."
        );
        if !notices.contains(&text) {
            notices.push(text);
        }
        return None;
    }
    let name = save_file_name(entry.id());
    let what = format!("The saved game of {}", entry.title());
    let outcome = storage.read_json::<Read>(&name, "format", u64::from(SAVE_FORMAT));
    let save = match outcome {
        ReadOutcome::Loaded(save) => save,
        ReadOutcome::Newer {
            value,
            found,
            supported,
            path,
        } => {
            let shown = value.and_then(|mut save| {
                save.game.format = SAVE_FORMAT;
                save.load(entry).ok().map(|session| (save, session))
            });
            let tail = if shown.is_some() {
                " The game can be looked at but not played."
            } else {
                " This build cannot show the game."
            };
            let outcome = ReadOutcome::<()>::Newer {
                value: None,
                found,
                supported,
                path,
            };
            notices.extend(notice_with(&what, &outcome, tail));
            let (save, session) = shown?;
            let tally = save.tally.map_or_else(
                || Tally::assumed(session.status()),
                |t| t.resumed_at(session.status()),
            );
            return Some(Resumed {
                session,
                tally,
                daily: save.daily,
                duration_ms: save.duration_ms.unwrap_or(0),
                unknown: save.unknown,
                newer: true,
            });
        }
        other => {
            notices.extend(notice(&what, &other));
            return None;
        }
    };
    // The game and the moves are the engine's to check: `entry.load` refuses a save of
    // another game, and one whose moves do not replay.
    match save.load(entry) {
        Ok(session) => {
            let tally = save.tally.map_or_else(
                || Tally::assumed(session.status()),
                |t| t.resumed_at(session.status()),
            );
            Some(Resumed {
                session,
                tally,
                daily: save.daily,
                duration_ms: save.duration_ms.unwrap_or(0),
                unknown: save.unknown,
                newer: false,
            })
        }
        Err(e) => {
            let outcome = storage.quarantine::<()>(&name, e.to_string());
            notices.extend(notice(&what, &outcome));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_is_the_engine_form_with_the_tally_beside_it() {
        let registry = tilebox_games::registry();
        let mut session = registry.get("2048").unwrap().new_session(5).unwrap();
        session.play_text("L U").unwrap();
        let tally = Tally {
            played: false,
            won: true,
            win_seen: true,
            ..Tally::default()
        };
        let save = AppSave {
            game: session.save(),
            tally: Some(tally),
            daily: None,
            duration_ms: None,
            unknown: serde_json::Map::new(),
        };
        let json = serde_json::to_value(&save).unwrap();
        // The engine's fields stay at the top, so the file is still a plain SavedGame.
        let engine: SavedGame = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(engine, session.save());
        assert_eq!(json["tally"]["won"], true);
        let back: AppSave = serde_json::from_value(json).unwrap();
        assert_eq!(back, save);
    }

    #[test]
    fn a_save_from_before_tallies_reads_with_none() {
        let session = tilebox_games::registry()
            .get("threes")
            .unwrap()
            .new_session(1)
            .unwrap();
        let json = serde_json::to_string(&session.save()).unwrap();
        let back: AppSave = serde_json::from_str(&json).unwrap();
        assert_eq!(back.tally, None);
        assert_eq!(back.daily, None);
        assert_eq!(back.game, session.save());
    }

    #[test]
    fn a_daily_game_keeps_its_date_and_an_old_save_has_none() {
        let session = tilebox_games::registry()
            .get("2048")
            .unwrap()
            .new_session(7)
            .unwrap();
        let date = Date::new(2026, 11, 23).unwrap();
        let save = save_of(
            &*session,
            Tally::default(),
            Some(date),
            1500,
            serde_json::Map::new(),
        );
        let json = serde_json::to_value(&save).unwrap();
        assert_eq!(json["daily"], "2026-11-23");
        let back: AppSave = serde_json::from_value(json).unwrap();
        assert_eq!(back, save);
        assert_eq!(back.daily, Some(date));
        assert_eq!(back.duration_ms, Some(1500));
        // Not a daily game: no field at all, so the file is as before daily games.
        let plain = save_of(&*session, Tally::default(), None, 0, serde_json::Map::new());
        let json = serde_json::to_value(&plain).unwrap();
        assert!(json.get("daily").is_none(), "{json}");
        // A save from before daily games (a tally, no date) reads as no daily game.
        let mut old = serde_json::to_value(session.save()).unwrap();
        old["tally"] = serde_json::to_value(Tally::default()).unwrap();
        let back: AppSave = serde_json::from_value(old).unwrap();
        assert_eq!((back.daily, back.duration_ms), (None, None));
        assert_eq!(back.tally, Some(Tally::default()));
        // A text that is not a date reads as no daily game, not as a bad save.
        let mut odd = serde_json::to_value(session.save()).unwrap();
        odd["daily"] = "someday".into();
        let back: AppSave = serde_json::from_value(odd).unwrap();
        assert_eq!(back.daily, None);
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(save_file_name("2048"), "saves/2048.json");
        assert_eq!(save_file_name("../x y"), "saves/___x_y.json");
    }
}
