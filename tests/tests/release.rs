//! What players have keeps working: the files of the previous release (0.1.0), made by its app
//! and kept byte for byte in `fixtures/release-0.1.0/` (its README says how), load in this build
//! on the boards that release's command-line tool gives for the same seeds and moves.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tilebox_core::SavedGame;

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/release-0.1.0")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What the old `tilebox-cli` printed, from `cli/<name>.json`: the parsed JSON and the line.
fn old_cli(name: &str) -> (Value, String) {
    let text = read(&folder().join("cli").join(format!("{name}.json")));
    let line = text.strip_suffix('\n').expect("one line").to_string();
    (serde_json::from_str(&line).expect("JSON"), line)
}

/// The saves of the old app, by game id (the file's name).
fn old_saves() -> Vec<(String, String)> {
    let mut saves: Vec<(String, String)> = fs::read_dir(folder().join("saves"))
        .expect("the saves folder")
        .map(|f| f.expect("a file").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let id = p
                .file_stem()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (id, read(&p))
        })
        .collect();
    saves.sort();
    saves
}

/// Each save of the old app loads, through the registry, to the state the old CLI printed for
/// its seed and moves, with its redo list intact: redone, it gives the state the old CLI printed
/// for the moves and the redo list. Saved again, it is the same save less the app's tally.
#[test]
fn the_previous_releases_saves_load_on_the_same_boards_with_their_redo_lists() {
    let registry = tilebox_games::registry();
    let saves = old_saves();
    assert!(!saves.is_empty());
    for (id, text) in saves {
        let saved = SavedGame::from_json(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(saved.game, id);
        assert!(!saved.redo.is_empty(), "{id}: made with an undo");
        let mut game = registry
            .load(&saved)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(game.info().id, id);

        let (state, line) = old_cli(&id);
        assert_eq!(game.state_json(), state, "{id}");
        assert_eq!(game.state_json().to_string(), line, "{id}: key order");

        let mut old: Value = serde_json::from_str(&text).expect("JSON");
        let old = old.as_object_mut().expect("an object");
        assert!(old.remove("tally").is_some(), "{id}: the app's tally");
        let mut again = serde_json::to_value(game.save()).expect("a save serialises");
        // The params are written out in full now (a sliding game keeps its whole variant, so
        // that it keeps its rules); they read back to the same game, and the rest is as it was.
        let params = again
            .as_object_mut()
            .and_then(|m| m.remove("params"))
            .expect("params");
        let old_params = old.remove("params").expect("params");
        assert_eq!(&again, &Value::Object(old.clone()), "{id}");
        let entry = registry.get(&id).expect("the entry");
        let from_new = entry
            .with_params(&params, saved.seed)
            .expect("the new params read");
        let from_old = entry
            .with_params(&old_params, saved.seed)
            .expect("the old params read");
        assert_eq!(from_new.text(), from_old.text(), "{id}");
        assert_eq!(from_new.params_json(), from_old.params_json(), "{id}");

        assert!(game.can_redo());
        for mv in &saved.redo {
            assert!(game.redo(), "{id}");
            assert_eq!(game.last_move().as_ref(), Some(mv), "{id}");
        }
        assert!(!game.redo());
        let (state, line) = old_cli(&format!("{id}-redone"));
        assert_eq!(game.state_json(), state, "{id} redone");
        assert_eq!(game.state_json().to_string(), line, "{id} redone");
    }
}

/// Every game the old release listed is still an entry, under the same id (its saves and scores
/// are filed by it) and title, and has a save here.
#[test]
fn every_game_the_previous_release_listed_is_still_registered_under_its_id_and_title() {
    let registry = tilebox_games::registry();
    let list = read(&folder().join("cli/list.txt"));
    let saves: Vec<String> = old_saves().into_iter().map(|(id, _)| id).collect();
    assert!(!list.is_empty());
    for line in list.lines() {
        let (id, title) = line.split_once('\t').expect("<id><TAB><title>");
        let entry = registry.get(id).unwrap_or_else(|| panic!("{id} is gone"));
        assert_eq!(entry.title(), title);
        assert!(saves.iter().any(|s| s == id), "no save of {id} here");
    }
}

/// The score table and the settings are the app's to read (its tests use these copies); here:
/// they are here, and the scores are filed under entries this build has.
#[test]
fn the_previous_releases_scores_are_filed_under_entries_this_build_has() {
    let registry = tilebox_games::registry();
    let scores: Value = serde_json::from_str(&read(&folder().join("scores.json"))).expect("JSON");
    let games = scores["games"].as_object().expect("games");
    assert!(!games.is_empty());
    for (id, score) in games {
        assert!(registry.get(id).is_some(), "{id}");
        assert!(score["best"].as_u64().is_some(), "{id}: {score}");
    }
    assert!(games.values().any(|s| s["played"].as_u64() > Some(0)));
    let settings: Value =
        serde_json::from_str(&read(&folder().join("settings.json"))).expect("JSON");
    assert!(settings["theme"].is_string(), "{settings}");
}
