//! Bad saves and arbitrary input, for every registered game through the registry: each gives a
//! typed error or a working game, never a panic.

use proptest::prelude::*;
use serde_json::{Value, json};
use tilebox_core::{LoadError, PlayErrorKind, SAVE_FORMAT, SavedGame};

/// A save of `game` from seed 3 with no moves and these parameters.
fn save_with(game: &str, params: Value) -> SavedGame {
    SavedGame {
        format: SAVE_FORMAT,
        game: game.into(),
        params,
        seed: 3,
        moves: Vec::new(),
        redo: Vec::new(),
    }
}

#[test]
fn bad_parameters_in_a_save_give_a_params_error_for_every_game() {
    let registry = tilebox_games::registry();
    for id in registry.ids() {
        let sliding = id != "strike9";
        for (params, valid) in [
            (json!({}), true),
            (json!({ "side": 4 }), sliding),
            (json!({ "side": 8 }), sliding),
            (json!({ "side": 1 }), false),
            (json!({ "side": 9 }), false),
            (json!({ "side": "x" }), false),
            (json!({ "side": -4 }), false),
            (json!({ "side": 4, "bonus": true }), false),
            (json!({ "tiles": 12 }), false),
            (json!(null), false),
            (json!("4"), false),
        ] {
            let got = registry.load(&save_with(id, params.clone()));
            if valid {
                assert!(got.is_ok(), "{id} {params}: {:?}", got.err());
            } else {
                let err = got.err();
                assert!(
                    matches!(err, Some(LoadError::Params(_))),
                    "{id} {params}: {err:?}"
                );
            }
        }
    }
}

#[test]
fn other_bad_saves_say_what_is_wrong() {
    let registry = tilebox_games::registry();
    for id in registry.ids() {
        let mut saved = save_with(id, json!({}));
        saved.format = SAVE_FORMAT + 1;
        assert_eq!(
            registry.load(&saved).err(),
            Some(LoadError::UnsupportedFormat(SAVE_FORMAT + 1))
        );
        let mut saved = save_with(id, json!({}));
        saved.game = format!("{id}-deluxe");
        assert_eq!(
            registry.load(&saved).err(),
            Some(LoadError::UnknownGame(format!("{id}-deluxe")))
        );
        let mut saved = save_with(id, json!({}));
        saved.moves = vec!["?".into()];
        match registry.load(&saved).err() {
            Some(LoadError::Replay(e)) => {
                assert_eq!((e.position, e.text.as_str()), (1, "?"), "{id}");
                assert!(matches!(e.kind, PlayErrorKind::Parse(_)), "{id}: {e:?}");
            }
            other => panic!("{id}: {other:?}"),
        }
        // The same save read from text: a newer format is named even when its shape changed.
        let newer = format!(
            r#"{{"format":{},"game":"{id}","state":[]}}"#,
            SAVE_FORMAT + 1
        );
        assert_eq!(
            SavedGame::from_json(&newer).err(),
            Some(LoadError::UnsupportedFormat(SAVE_FORMAT + 1))
        );
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
            proptest::collection::vec(("side|tiles|[a-z]{1,4}", inner), 0..3)
                .prop_map(|fields| Value::Object(fields.into_iter().collect())),
        ]
    })
}

/// Saves that are nearly right: a known game or not, this format or not, any parameters, any
/// seed, and moves that are often the game's own (mostly swipes, so that many sliding saves
/// load).
fn saved_game() -> impl Strategy<Value = SavedGame> {
    let one_move = prop_oneof![
        12 => "[LRUD]",
        1 => "[1-9](\\+[1-9]){0,2}",
        1 => move_text(),
    ];
    let moves = move || proptest::collection::vec(one_move.clone(), 0..6);
    (
        prop_oneof![
            4 => proptest::sample::select(tilebox_games::registry().ids()).prop_map(String::from),
            1 => "\\PC{0,8}",
        ],
        prop_oneof![4 => Just(SAVE_FORMAT), 1 => any::<u32>()],
        prop_oneof![
            3 => Just(json!({})),
            1 => (0usize..10).prop_map(|side| json!({ "side": side })),
            2 => json_value(),
        ],
        any::<u64>(),
        moves(),
        moves(),
    )
        .prop_map(|(game, format, params, seed, moves, redo)| SavedGame {
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
        for entry in tilebox_games::registry().games() {
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
        let registry = tilebox_games::registry();
        match registry.load(&saved) {
            Ok(game) => {
                prop_assert_eq!(game.info().id, saved.game.as_str());
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
