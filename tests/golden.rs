//! Golden text forms: a seeded game and a fixed list of moves must give, move after move, the
//! texts stored in `tests/golden/`. They pin what a seed means, on every platform and release.
//! After an intended change of the rules or the text form, regenerate them with
//! `UPDATE_GOLDEN=1 cargo test -p tilebox-tests` and review the diff.

use std::path::PathBuf;

/// The text of every state of `game` from `seed` through `moves`, one block per state.
fn transcript(game: &str, seed: u64, moves: &str) -> String {
    let registry = tilebox_games::registry();
    let entry = registry.get(game).expect("registered");
    let mut session = entry.new_session(seed).expect("valid");
    let mut out = format!("# {game}, seed {seed}\n\n{}\n", session.text());
    for mv in moves.split_whitespace() {
        let played = session.play_text(mv).expect("the golden moves are legal");
        let note = if played == 0 {
            " (changes nothing)"
        } else {
            ""
        };
        out.push_str(&format!("\n> {mv}{note}\n{}\n", session.text()));
    }
    out
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
    check("2048.txt", &transcript("2048", 2048, "L U R D L L U U R D"));
}

#[test]
fn golden_threes() {
    check(
        "threes.txt",
        &transcript("threes", 3, "L U R D L L U U R D"),
    );
}

#[test]
fn golden_strike9() {
    // Strike 9's moves depend on the rolls, so the transcript plays the first legal set each
    // time, which the catalogue test shows is always accepted.
    let registry = tilebox_games::registry();
    let mut session = registry
        .get("strike9")
        .expect("registered")
        .new_session(9)
        .expect("valid");
    let mut moves = Vec::new();
    while let Some(mv) = session.legal_moves().first().cloned() {
        session.play_text(&mv).expect("legal");
        moves.push(mv);
    }
    check("strike9.txt", &transcript("strike9", 9, &moves.join(" ")));
}
