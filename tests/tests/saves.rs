//! Bad saves and arbitrary input, for every registered entry through the registry: each gives a
//! typed error or a working game, never a panic. The proptests run on the real catalogue with the
//! toy, which holds every real entry (see `catalogue.rs`).

use proptest::prelude::*;
use serde_json::{Value, json};
use tilebox_core::{Entry, LoadError, Registry, SAVE_FORMAT, SavedGame};
use tilebox_tests::toy::catalogue_with_toy;

on_both_registries!(other_bad_saves_say_what_is_wrong);

/// A save of `entry` from seed 3 with its own parameters and no moves.
fn save_of(entry: &Entry) -> SavedGame {
    SavedGame {
        format: SAVE_FORMAT,
        game: entry.id().into(),
        params: entry.params_json(),
        seed: 3,
        moves: Vec::new(),
        redo: Vec::new(),
    }
}

/// A newer format, a game this build does not know: each named, for every entry. (Bad
/// parameters and bad moves come from each kind's fixtures, see `fixtures.rs`.)
fn other_bad_saves_say_what_is_wrong(registry: &Registry) {
    for entry in registry.entries() {
        let id = entry.id();
        assert!(registry.load(&save_of(entry)).is_ok(), "{id}");
        let mut saved = save_of(entry);
        saved.format = SAVE_FORMAT + 1;
        assert_eq!(
            registry.load(&saved).err(),
            Some(LoadError::UnsupportedFormat(SAVE_FORMAT + 1))
        );
        assert_eq!(
            entry.load(&saved).err(),
            Some(LoadError::UnsupportedFormat(SAVE_FORMAT + 1))
        );
        let mut saved = save_of(entry);
        saved.game = format!("{id}-deluxe");
        assert!(registry.get(&saved.game).is_none());
        assert_eq!(
            registry.load(&saved).err(),
            Some(LoadError::UnknownGame(format!("{id}-deluxe")))
        );
        // The same save read from text: a newer format is named even when its shape changed.
        let newer = format!(
            r#"{{"format":{},"game":"{id}","state":[]}}"#,
            SAVE_FORMAT + 1
        );
        assert_eq!(
            SavedGame::from_json(&newer).err(),
            Some(LoadError::UnsupportedFormat(SAVE_FORMAT + 1))
        );
        // This format without its moves, or with the seed as text, cannot be read.
        let mut value = serde_json::to_value(save_of(entry)).expect("a save serialises");
        value["seed"] = Value::from("3");
        assert!(matches!(
            SavedGame::from_json(&value.to_string()),
            Err(LoadError::Malformed(_))
        ));
        value.as_object_mut().expect("an object").remove("moves");
        assert!(matches!(
            SavedGame::from_json(&value.to_string()),
            Err(LoadError::Malformed(_))
        ));
    }
}

/// Text that is mostly made of what moves are made of, with some of anything.
fn move_text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[LRUDlrud0-9+ \\-]{0,40}",
        1 => "(left|right|up|down|[LRUD]|[1-9](\\+[1-9]){0,3}| )*",
        1 => "\\PC{0,30}",
    ]
}

/// Any JSON, small, with the keys parameters use showing up often.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..12).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        // Quarters: floats that survive a trip through JSON text exactly.
        (-400i32..400).prop_map(|n| Value::from(f64::from(n) / 4.0)),
        "[a-z0-9]{0,4}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec(("side|win|tiles|cells|[a-z]{1,4}", inner), 0..3)
                .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

/// Parameters of any kind, or nonsense.
fn params() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(json!({})),
        1 => (0usize..10).prop_map(|side| json!({ "side": side })),
        1 => (0usize..11).prop_map(|cells| json!({ "cells": cells })),
        2 => json_value(),
    ]
}

/// Saves that are nearly right: a known entry with its own parameters or others, or an unknown
/// one; this format or not; any seed; and moves that are often a game's own (mostly swipes, so
/// that many sliding saves load).
fn saved_game() -> impl Strategy<Value = SavedGame> {
    let registry = catalogue_with_toy();
    let own: Vec<(String, Value)> = registry
        .entries()
        .iter()
        .map(|e| (e.id().to_string(), e.params_json()))
        .collect();
    let ids: Vec<String> = own.iter().map(|(id, _)| id.clone()).collect();
    let one_move = prop_oneof![
        12 => "[LRUD]",
        2 => "[1-9](\\+[1-9]){0,2}",
        1 => move_text(),
    ];
    let moves = move || proptest::collection::vec(one_move.clone(), 0..6);
    (
        prop_oneof![
            3 => proptest::sample::select(own),
            2 => (proptest::sample::select(ids), params()),
            1 => ("\\PC{0,8}", params()),
        ],
        prop_oneof![4 => Just(SAVE_FORMAT), 1 => any::<u32>()],
        any::<u64>(),
        moves(),
        moves(),
    )
        .prop_map(|((game, params), format, seed, moves, redo)| SavedGame {
            format,
            game,
            params,
            seed,
            moves,
            redo,
        })
}

proptest! {
    #[test]
    fn any_text_played_into_any_game_is_played_or_refused_with_a_reason(
        seed in any::<u64>(),
        texts in proptest::collection::vec(move_text(), 1..4),
    ) {
        for entry in catalogue_with_toy().entries() {
            let mut game = entry.new_session(seed).expect("valid");
            for text in &texts {
                let before = game.move_count();
                match game.play_text(text) {
                    Ok(played) => prop_assert_eq!(game.move_count(), before + played),
                    Err(e) => {
                        prop_assert!(e.position >= 1);
                        // Moves are split at white space, so the move named is never blank.
                        prop_assert!(!e.text.is_empty() && !e.text.contains(char::is_whitespace));
                        prop_assert!(game.move_count() < before + e.position);
                        prop_assert!(!e.to_string().contains('\n'), "{}", e);
                    }
                }
                prop_assert_eq!(game.legal_moves().is_empty(), game.status().over);
            }
        }
    }

    #[test]
    fn any_save_loads_to_a_game_that_saves_back_or_gives_a_load_error(saved in saved_game()) {
        let registry = catalogue_with_toy();
        match registry.load(&saved) {
            Ok(game) => {
                prop_assert_eq!(game.info().id.as_str(), saved.game.as_str());
                prop_assert_eq!(game.move_count(), saved.moves.len());
                let again = registry.load(&game.save());
                prop_assert!(again.is_ok(), "{:?}", again.err());
                if let Ok(again) = again {
                    prop_assert_eq!(again.text(), game.text());
                }
            }
            Err(e) => prop_assert!(!e.to_string().contains('\n'), "{}", e),
        }
        // Through its text form too: `from_json` then `load` agree with `load` alone.
        let text = serde_json::to_string(&saved).expect("a save serialises");
        let read = SavedGame::from_json(&text);
        if saved.format == SAVE_FORMAT {
            prop_assert_eq!(read, Ok(saved));
        } else {
            prop_assert_eq!(read, Err(LoadError::UnsupportedFormat(saved.format)));
        }
    }

    #[test]
    fn any_text_read_as_a_save_gives_a_save_or_a_load_error(text in "\\PC{0,60}") {
        if let Err(e) = SavedGame::from_json(&text) {
            prop_assert!(matches!(e, LoadError::Malformed(_) | LoadError::UnsupportedFormat(_)));
        }
    }
}
