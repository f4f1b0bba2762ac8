//! Golden text forms: a seeded game and its moves must give, move after move, the texts stored in
//! `tests/golden/`. They pin what a seed means, on every platform and release. After an intended
//! change of the rules or the text form, regenerate them with
//! `UPDATE_GOLDEN=1 cargo test -p tilebox-tests` and review the diff.
//!
//! The sliding games are played to their end with directions drawn by the test's own [`Picker`]
//! among all four, so that moves which change nothing (marked in the transcript) come up too.
//! The Strike 9 games are written out: one that shuts the box in eight rolls, and one lost with
//! only the 1 open.

use std::path::PathBuf;

use tilebox_core::DynSession;

use crate::Picker;

/// The text of every state of `game` from `seed`, one block per state, with the moves that
/// `next_move` chooses until it says `None`. Each move must be accepted or change nothing.
fn transcript(
    game: &str,
    seed: u64,
    next_move: impl FnMut(&dyn DynSession) -> Option<String>,
) -> (String, Box<dyn DynSession>) {
    let registry = tilebox_games::registry();
    let entry = registry.get(game).expect("registered");
    let session = entry.new_session(seed).expect("valid");
    played(format!("# {game}, seed {seed}"), session, next_move)
}

/// [`transcript`] of `session`, under the heading `title`.
fn played(
    title: String,
    mut session: Box<dyn DynSession>,
    mut next_move: impl FnMut(&dyn DynSession) -> Option<String>,
) -> (String, Box<dyn DynSession>) {
    let mut out = format!("{title}\n\n{}\n", session.text());
    while let Some(mv) = next_move(session.as_ref()) {
        let played = session.play_text(&mv).expect("the golden moves are legal");
        let note = if played == 0 {
            " (changes nothing)"
        } else {
            ""
        };
        out.push_str(&format!("\n> {mv}{note}\n{}\n", session.text()));
    }
    (out, session)
}

/// Random directions, each of the four equally likely, until the game is over.
fn random_directions(seed: u64) -> impl FnMut(&dyn DynSession) -> Option<String> {
    let mut picker = Picker::new(seed);
    move |game| (!game.status().over).then(|| ["L", "R", "U", "D"][picker.below(4)].to_string())
}

/// The moves of `list`, in order.
fn written(list: &str) -> impl FnMut(&dyn DynSession) -> Option<String> {
    let mut moves = list.split_whitespace().map(str::to_string);
    move |_| moves.next()
}

fn check(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, text).expect("golden file written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    assert_eq!(text, expected, "{name} differs from its golden file");
}

#[test]
fn golden_2048() {
    let (text, game) = transcript("2048", 2, random_directions(2));
    assert!(game.status().over && !game.status().won);
    assert!(text.contains(" (changes nothing)\n"));
    check("2048.txt", &text);
}

#[test]
fn golden_threes() {
    let (text, game) = transcript("threes", 2, random_directions(2));
    assert!(game.status().over);
    assert!(text.contains(" (changes nothing)\n"));
    assert!(text.contains("\nnext +\n"), "a bonus card comes up");
    check("threes.txt", &text);
}

#[test]
fn golden_strike9_shut_the_box() {
    let (text, game) = transcript("strike9", 119, written("1+7 4 3 9 2 5 8 6"));
    assert!(game.status().won && game.status().over);
    assert_eq!(game.score(), 45);
    check("strike9.txt", &text);
}

#[test]
fn golden_strike9_lost_with_the_1_open() {
    let (text, game) = transcript("strike9", 134, written("3 7 5 9 4 8 6 2"));
    assert!(game.status().over && !game.status().won);
    assert_eq!(game.score(), 44);
    check("strike9-lost.txt", &text);
}

/// 2048 with a bag of tiles instead of its weights, played to its end: a bag of three tiles
/// (refilled and shuffled every third spawn), and one of 100,000 tiles, the most a variant may
/// have. These pin the bag's draws (a state shares its bag with the states before it rather
/// than holding a copy, and draws exactly the tiles the first release drew).
#[test]
fn golden_bags() {
    let registry = tilebox_games::registry();
    let entry = registry.get("2048").expect("registered");
    for (name, bag, seed) in [
        ("bag-3.txt", serde_json::json!({"2": 2, "4": 1}), 3),
        (
            "bag-100000.txt",
            serde_json::json!({"2": 60_000, "4": 40_000}),
            4,
        ),
    ] {
        let params = serde_json::json!({ "spawn": { "bag": bag } });
        let session = entry
            .with_params(&params, seed)
            .expect("a bag of 2s and 4s");
        let (text, game) = played(
            format!("# 2048 with the bag {bag}, seed {seed}"),
            session,
            random_directions(seed),
        );
        assert!(game.status().over);
        check(name, &text);
    }
}
