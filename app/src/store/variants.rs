//! A player's own sliding variants: the `*.json` files in `variants/` of the data directory,
//! read once at start with [`tilebox_games::registry_with_variants`]. Each file refused is one
//! notice in the launcher, naming the file and the field; the app never stops for one, and
//! never changes, moves or deletes a variant file. The one file it creates there is a code's
//! game the player adds ([`code_game`]), never over a file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tilebox_ai::ntuple::players::Players;

use serde_json::Value;
use tilebox_core::{Entry, EntryInfo, Registry};
use tilebox_sliding::{Refusal, Sliding, Variant, free_id};

/// The folder of the player's variant files in the data directory.
pub const VARIANTS_FOLDER: &str = "variants";

/// `<data dir>/variants`: where the player's variant files are read from.
pub fn variants_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(VARIANTS_FOLDER)
}

/// The catalogue with the player's variants of `data_dir` (each in the group of the root of its
/// `based_on` chain), whose sliding games' hints and autoplay use the networks trained in its
/// `players/` folder (trained in the app or by `tilebox-cli train`), and one launcher notice per
/// file refused; and that folder's players, to be told of each save of a training run (the app
/// shares them with its trainer).
pub fn player_registry(data_dir: &Path) -> (Registry, Vec<String>, Arc<Players>) {
    let players = Arc::new(Players::new(&Players::in_app_dir(data_dir)));
    let (registry, refused) =
        tilebox_games::registry_with_players(&variants_dir(data_dir), Arc::clone(&players));
    let notices = refused.iter().map(refusal_notice).collect();
    (registry, notices, players)
}

/// The launcher's line for a refused file: `Variant file variants/my.json not loaded: side: 9
/// is not from 2 to 8 (the file is left as it is).`
///
/// The folder itself refused (a file, a named pipe, a symbolic link to nothing where it should
/// be): `Variant folder variants/ not read: it is a file, not a folder, so no variant is read
/// (it is left as it is).`
pub fn refusal_notice(refusal: &Refusal) -> String {
    let line = if refusal.is_folder() {
        format!(
            "Variant folder {VARIANTS_FOLDER}/ not read: {} (it is left as it is).",
            refusal.error
        )
    } else {
        format!(
            "Variant file {VARIANTS_FOLDER}/{} not loaded: {} (the file is left as it is).",
            refusal.file, refusal.error
        )
    };
    // One line, whatever the file's name or the message holds.
    line.replace(['\n', '\r'], " ")
}

/// A game from a code whose rules no game here has ("Play a code"): the variant to add to the
/// player's `variants/` folder, under an id and a title of its own, in the group of the game the
/// code names, and the name of its file.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeGame {
    /// The rules, with the new id and title.
    pub variant: Variant,
    /// The built-in the code names, which the file is based on; `None` for a player's own.
    pub based_on: Option<String>,
    /// The id of the game the code names.
    pub named: String,
    /// The entry's names and group.
    pub info: EntryInfo,
    /// The file, in the data directory: `variants/<id>.json` ([`code_game_file`]).
    pub file: String,
}

/// The game to add for a code of `named` (a sliding game) whose rules, `params`, no game here
/// has: the id `<named>-code` (or `-code-2`, `-code-3` … when `taken`), the title "<named's
/// title> (from a code)"; `None` when `named` is not a sliding game or the rules do not read.
pub fn code_game(named: &Entry, params: &Value, taken: impl Fn(&str) -> bool) -> Option<CodeGame> {
    named.params::<Sliding>()?;
    let Value::Object(map) = params else {
        return None;
    };
    let mut variant = Variant::from_json(map).ok()?;
    let id = free_id(&format!("{}-code", named.id()), taken);
    let title = format!("{} (from a code)", named.title());
    variant.id.clone_from(&id);
    variant.title.clone_from(&title);
    variant.description = format!(
        "{}'s game with rules of its own, added from a game code.",
        named.title()
    );
    let info = EntryInfo {
        id: id.clone(),
        title,
        description: variant.description.clone(),
        group: named.info().group.clone(),
        section: named.info().section.clone(),
    };
    let based_on = tilebox_sliding::builtin_variant(named.id()).map(|_| named.id().to_string());
    Some(CodeGame {
        variant,
        based_on,
        named: named.id().to_string(),
        info,
        file: code_game_file(&id),
    })
}

/// The file, in the data directory, that holds the rules of game `id` added from a code.
pub fn code_game_file(id: &str) -> String {
    format!("{VARIANTS_FOLDER}/{id}.json")
}

/// The text of a variant file holding `variant` in full, in the format's order, indented as a
/// person would write it. With `based_on` (a built-in), the file names it after its
/// description: every field is still the file's own, and the game keeps the base's group in
/// the launcher at every start.
pub fn variant_file_text(variant: &Variant, based_on: Option<&str>) -> Vec<u8> {
    let mut fields = serde_json::Map::new();
    if let Value::Object(all) = variant.to_json() {
        for (name, value) in all {
            let after_description = name == "description";
            fields.insert(name, value);
            if let (true, Some(base)) = (after_description, based_on) {
                fields.insert(tilebox_sliding::variant::BASED_ON.to_string(), base.into());
            }
        }
    }
    let mut text = serde_json::to_vec_pretty(&fields).unwrap_or_default();
    text.push(b'\n');
    text
}

/// The names of the files in the player's `variants/` folder of `data_dir` (none when it cannot
/// be read): read once at start, so that a code's game never takes a name a file has.
pub fn file_names(data_dir: &Path) -> std::collections::BTreeSet<String> {
    std::fs::read_dir(variants_dir(data_dir))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The catalogue with the player's variant files kept in `keys` (a browser page's storage,
/// `tilebox/variants/<name>.json`, as [`crate::store::storage::Storage::in_keys`] keeps files),
/// a launcher notice per file refused, and the files' names (so that a code's game never takes
/// one): what [`player_registry`] and [`file_names`] give of a folder.
pub fn registry_in_keys(
    keys: &dyn crate::store::keys::Keys,
) -> (Registry, Vec<String>, std::collections::BTreeSet<String>) {
    let folder = format!("{}{VARIANTS_FOLDER}/", crate::store::keys::PREFIX);
    let mut texts = Vec::new();
    for key in keys.keys() {
        let Some(name) = key.strip_prefix(&folder) else {
            continue;
        };
        // Only the folder's own files, as a folder is read: none of a folder inside it.
        if name.contains('/') {
            continue;
        }
        if let Ok(Some(text)) = keys.get(&key) {
            texts.push((name.to_string(), text));
        }
    }
    let names = texts.iter().map(|(name, _)| name.clone()).collect();
    let (registry, refused) = tilebox_games::registry_with_variant_texts(texts);
    let notices = refused.iter().map(refusal_notice).collect();
    (registry, notices, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_codes_game_takes_a_free_id_in_the_group_of_the_game_it_names() {
        let registry = tilebox_games::registry();
        let named = registry.get("2048").unwrap();
        let mut params = tilebox_sliding::builtin_variant("2048").unwrap().to_json();
        params["side"] = 7.into();
        let taken = |id: &str| ["2048-code", "2048-code-2"].contains(&id);
        let game = code_game(named, &params, taken).unwrap();
        assert_eq!(game.info.id, "2048-code-3");
        assert_eq!(game.variant.id, "2048-code-3");
        assert_eq!(game.file, "variants/2048-code-3.json");
        assert_eq!(game.info.group, named.info().group);
        assert_eq!(game.variant.side, 7);
        // The file reads back as the same variant.
        assert_eq!(game.based_on.as_deref(), Some("2048"));
        let text = String::from_utf8(variant_file_text(&game.variant, None)).unwrap();
        assert_eq!(Variant::from_text(&text).unwrap(), game.variant);
        // Not a sliding game, or rules that do not read: nothing to add.
        let strike9 = registry.get("strike9").unwrap();
        assert!(code_game(strike9, &strike9.params_json(), |_| false).is_none());
        assert!(code_game(named, &serde_json::json!({"side": 7}), |_| false).is_none());
    }

    #[test]
    fn a_players_variants_kept_by_name_join_the_catalogue_and_a_bad_one_is_a_notice() {
        use crate::store::keys::{Keys as _, MemoryKeys};
        let keys = MemoryKeys::default();
        let mine = r#"{"format": 1, "id": "mine", "based_on": "2048", "title": "Mine", "side": 5}"#;
        keys.set("tilebox/variants/mine.json", mine).unwrap();
        keys.set(
            "tilebox/variants/bad.json",
            r#"{"format": 1, "id": "bad", "based_on": "2048", "side": 9}"#,
        )
        .unwrap();
        keys.set("tilebox/variants/old/x.json", mine).unwrap();
        keys.set("tilebox/saves/mine.json", "{}").unwrap();
        let (registry, notices, names) = registry_in_keys(&keys);
        assert_eq!(registry.get("mine").unwrap().title(), "Mine");
        assert_eq!(
            notices,
            [
                "Variant file variants/bad.json not loaded: side: 9 is not from 2 to 8 (the file is \
              left as it is)."
            ]
        );
        assert_eq!(
            names.into_iter().collect::<Vec<_>>(),
            ["bad.json", "mine.json"]
        );
    }
}
