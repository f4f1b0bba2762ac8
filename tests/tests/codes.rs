//! Game codes keep their meaning: the codes of earlier releases (kept in
//! `fixtures/codes-before-0.2/`, made when a code carried its parameters whole) start the game
//! they started then, and today's codes carry only the parameters that differ from their
//! entry's and start the same game as the parameters in full.

use std::path::Path;

use serde_json::{Value, json};
use tilebox_core::GameCode;

/// The fixture's lines: a code and what that release's `tilebox-cli new --code` printed.
fn old_codes() -> Vec<(String, Value)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codes-before-0.2/codes.tsv");
    let text = std::fs::read_to_string(&path).expect("the fixture");
    text.lines()
        .map(|line| {
            let (code, state) = line.split_once('\t').expect("a code, a tab, a state");
            (code.to_string(), serde_json::from_str(state).expect("JSON"))
        })
        .collect()
}

#[test]
fn the_codes_of_earlier_releases_start_the_same_games() {
    let registry = tilebox_games::registry();
    let codes = old_codes();
    assert_eq!(codes.len(), 7);
    for (text, state) in &codes {
        let code: GameCode = text.parse().expect("an old code reads");
        let game = registry.start_code(&code).expect("an old code starts");
        assert_eq!(game.state_json(), *state, "{text}");
        assert_eq!(game.entry().id(), code.entry, "{text}");
        // Written again today, it is as short as it can be and starts the same game.
        let again = GameCode::of(&*game);
        assert!(again.to_string().len() <= text.len(), "{again} {text}");
        let replayed = registry.start_code(&again).expect("today's code starts");
        assert_eq!(replayed.state_json(), *state, "{again}");
        assert_eq!(replayed.params_json(), game.params_json(), "{again}");
    }
}

#[test]
fn a_code_carries_only_the_parameters_that_differ_from_its_entrys() {
    let registry = tilebox_games::registry();
    let cases = [
        ("2048", json!({"side": 5}), json!({"side": 5})),
        (
            "threes",
            json!({"side": 5, "start": 4}),
            json!({"side": 5, "start": 4}),
        ),
        // Strike 9 reads its parameters whole (a field left out is its default, not the
        // entry's), so a code of it carries them whole, as its kind writes them.
        (
            "shut-the-box",
            json!({"score": "golf"}),
            json!({"score": "golf"}),
        ),
        (
            "full-house",
            json!({"tiles": 12, "score": "golf"}),
            json!({"tiles": 12, "score": "golf"}),
        ),
    ];
    for (id, params, carried) in cases {
        let entry = registry.get(id).expect("an entry");
        let game = entry
            .with_params(&params, 41)
            .expect("the params start a game");
        let code = GameCode::of(&*game);
        assert_eq!(code.params.as_ref(), Some(&carried), "{id}");
        let text = code.to_string();
        let back = registry
            .start_code(&text.parse().expect("the code reads"))
            .expect("the code starts");
        assert_eq!(back.params_json(), game.params_json(), "{text}");
        assert_eq!(back.state_json(), game.state_json(), "{text}");
    }
    // The example: 1,790 characters before, a few dozen now.
    let five = registry
        .get("2048")
        .unwrap()
        .with_params(&json!({"side": 5}), 7)
        .unwrap();
    let text = GameCode::of(&*five).to_string();
    assert!(text.len() < 40, "{text}");
}
