//! Games in progress on disk: `saves/<game-id>.json` holds the engine's save form (parameters,
//! seed, moves, redo list) and the game's [`Tally`], so a game resumes with its whole history and
//! is never counted twice in the score table.

use serde::{Deserialize, Serialize};
use tilebox_core::{DynSession, Entry, SavedGame};

use crate::storage::{Layout, ReadOutcome, Storage, StorageError, notice};
use crate::tally::Tally;

/// What a save file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppSave {
    /// The engine's save form, its fields at the top level of the file.
    #[serde(flatten)]
    pub game: SavedGame,
    /// What the score table has been told of this game; missing in saves from before it was
    /// kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<Tally>,
}

/// The file, inside the data directory, that holds the game in progress of game `id`.
pub fn save_file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("saves/{safe}.json")
}

/// Writes the game in progress of `session` with its tally.
pub fn write(
    storage: &Storage,
    session: &dyn DynSession,
    tally: Tally,
) -> Result<(), StorageError> {
    let save = AppSave {
        game: session.save(),
        tally: Some(tally),
    };
    storage.write_json(&save_file_name(&session.info().id), &save, Layout::Compact)
}

/// Reads the saved game of `entry` and its tally, moving the file aside if it cannot be resumed;
/// `notices` gets a sentence saying so.
pub fn read(
    storage: &Storage,
    entry: &Entry,
    notices: &mut Vec<String>,
) -> Option<(Box<dyn DynSession>, Tally)> {
    let name = save_file_name(entry.id());
    // The format, the game and the moves are the engine's to check: `entry.load` refuses a save
    // of a newer format or of another game, and one whose moves do not replay.
    let outcome = match storage.read_json(&name, |_: &AppSave| Ok(())) {
        ReadOutcome::Loaded(save) => match entry.load(&save.game) {
            Ok(session) => {
                let tally = save
                    .tally
                    .unwrap_or_else(|| Tally::assumed(session.status()));
                return Some((session, tally));
            }
            Err(e) => storage.quarantine::<AppSave>(&name, e.to_string()),
        },
        other => other,
    };
    let what = format!("The saved game of {}", entry.title());
    notices.extend(notice(&what, &outcome));
    None
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
        };
        let save = AppSave {
            game: session.save(),
            tally: Some(tally),
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
        assert_eq!(back.game, session.save());
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(save_file_name("2048"), "saves/2048.json");
        assert_eq!(save_file_name("../x y"), "saves/___x_y.json");
    }
}
