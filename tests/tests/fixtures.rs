//! Each kind's own fixtures (`FrontEnd::fixtures`, in `crates/tilebox-games` for the real kinds):
//! nonsense typed into a new standard game gives exactly the outcome the kind expects, its valid
//! parameters start games and load from saves, its invalid ones are refused with a
//! `ParamsError`, and a save carrying them with `LoadError::Params`. A kind without fixtures
//! (the plain front end's) has nothing checked here; the toy is checked with fixtures of its own
//! below, which also shows that wrong expectations fail.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::{Value, json};
use tilebox_core::{
    Entry, Fixtures, FrontEnd, Kind, LoadError, MoveError, Outcome, PlayErrorKind, Registry,
    SAVE_FORMAT, SavedGame,
};
use tilebox_tests::toy::Toy;

on_both_registries!(
    each_kinds_nonsense_gives_exactly_the_expected_outcome_and_changes_nothing_else,
    each_kinds_valid_params_start_games_and_its_invalid_ones_are_refused,
    each_kinds_bad_moves_in_a_save_are_named,
);

/// The entry registered under `kind`'s own id, which must be of that kind.
pub fn standard<'r>(registry: &'r Registry, kind: &Kind) -> &'r Entry {
    let entry = registry
        .get(kind.info().id)
        .unwrap_or_else(|| panic!("{:?} has no standard entry", kind.info()));
    assert_eq!(entry.kind_type(), kind.kind_type());
    entry
}

/// A save of entry `id` from `seed` with these parameters and moves.
pub fn save_of(id: &str, params: Value, seed: u64, moves: &[&str]) -> SavedGame {
    SavedGame {
        format: SAVE_FORMAT,
        game: id.into(),
        params,
        seed,
        moves: moves.iter().map(|m| m.to_string()).collect(),
        redo: Vec::new(),
    }
}

fn each_kinds_nonsense_gives_exactly_the_expected_outcome_and_changes_nothing_else(
    registry: &Registry,
) {
    for kind in registry.kinds() {
        let entry = standard(registry, kind);
        let Fixtures { seed, nonsense, .. } = kind.fixtures();
        for (input, expected) in nonsense {
            // A fresh game for each input, so that every outcome is known from the start.
            let mut game = entry.new_session(seed).expect("valid");
            let before = game.text();
            let got = game.play_text(&input);
            let context = format!("{} {input:?}: {got:?}", entry.id());
            let played = match (&expected, &got) {
                (Outcome::Played(n), Ok(m)) => {
                    assert_eq!(m, n, "{context}");
                    *n
                }
                (
                    Outcome::Unreadable {
                        position,
                        text,
                        played,
                    },
                    Err(e),
                ) => {
                    assert_eq!((e.position, &e.text), (*position, text), "{context}");
                    match &e.kind {
                        PlayErrorKind::Parse(p) => assert_eq!(&p.input, text, "{context}"),
                        other => panic!("{context}: expected a parse error, got {other:?}"),
                    }
                    *played
                }
                (Outcome::Illegal(reason), Err(e)) => {
                    assert_eq!(e.position, 1, "{context}");
                    assert_eq!(
                        e.kind,
                        PlayErrorKind::Move(MoveError::Illegal(reason.clone())),
                        "{context}"
                    );
                    0
                }
                _ => panic!("{context}: expected {expected:?}"),
            };
            if let Err(e) = &got {
                assert!(!e.to_string().contains('\n'), "{context}");
            }
            assert_eq!(game.move_count(), played, "{context}");
            if played == 0 {
                assert_eq!(game.text(), before, "{context}");
            }
        }
    }
}

fn each_kinds_valid_params_start_games_and_its_invalid_ones_are_refused(registry: &Registry) {
    for kind in registry.kinds() {
        let entry = standard(registry, kind);
        let id = entry.id();
        let fixtures = kind.fixtures();
        for params in &fixtures.valid_params {
            let game = entry
                .with_params(params, 3)
                .unwrap_or_else(|e| panic!("{id} {params}: {e}"));
            // Counted under the entry; its params written out read back to the same game.
            assert_eq!(game.info(), entry.info());
            let again = entry
                .with_params(&game.params_json(), 3)
                .expect("reads back");
            assert_eq!(again.text(), game.text(), "{id} {params}");
            // A save carrying them loads to the same game.
            let loaded = registry
                .load(&save_of(id, params.clone(), 3, &[]))
                .unwrap_or_else(|e| panic!("{id} {params}: {e}"));
            assert_eq!(loaded.text(), game.text(), "{id} {params}");
        }
        // Every entry of the kind, presets included, refuses the invalid ones in a save.
        let of_kind = registry
            .entries()
            .iter()
            .filter(|e| e.kind_type() == kind.kind_type());
        for params in &fixtures.invalid_params {
            let refused = entry
                .with_params(params, 3)
                .err()
                .unwrap_or_else(|| panic!("{id} {params}: accepted"));
            assert!(!refused.to_string().contains('\n'), "{refused}");
            for e in of_kind.clone() {
                let got = registry.load(&save_of(e.id(), params.clone(), 3, &[]));
                assert!(
                    matches!(got, Err(LoadError::Params(_))),
                    "{} {params}: {:?}",
                    e.id(),
                    got.err()
                );
            }
        }
    }
}

/// Each kind's nonsense that is refused when typed is refused in a save too: a save of the moves
/// played before it and the refused move names that move, for the same reason. A move that cannot
/// be read cannot be read whatever the parameters: every entry of the kind names it.
fn each_kinds_bad_moves_in_a_save_are_named(registry: &Registry) {
    for kind in registry.kinds() {
        let standard = standard(registry, kind);
        let Fixtures { seed, nonsense, .. } = kind.fixtures();
        for (input, outcome) in nonsense {
            let mut game = standard.new_session(seed).expect("valid");
            let Err(refused) = game.play_text(&input) else {
                continue;
            };
            let mut saved = game.save();
            saved.moves.push(refused.text.clone());
            let context = format!("{} {:?}", saved.game, saved.moves);
            match registry.load(&saved).err() {
                Some(LoadError::Replay(e)) => {
                    assert_eq!(e.position, saved.moves.len(), "{context}");
                    assert_eq!(
                        (&e.text, &e.kind),
                        (&refused.text, &refused.kind),
                        "{context}"
                    );
                }
                other => panic!("{context}: {other:?}"),
            }
            if let Outcome::Unreadable { text, .. } = outcome {
                let of_kind = registry
                    .entries()
                    .iter()
                    .filter(|e| e.kind_type() == kind.kind_type());
                for entry in of_kind {
                    let saved = save_of(entry.id(), entry.params_json(), seed, &[&text]);
                    match registry.load(&saved).err() {
                        Some(LoadError::Replay(e)) => {
                            assert_eq!((e.position, &e.text), (1, &text), "{}", entry.id());
                            assert!(matches!(e.kind, PlayErrorKind::Parse(_)), "{e:?}");
                        }
                        other => panic!("{} {text:?}: {other:?}", entry.id()),
                    }
                }
            }
        }
    }
}

/// The toy registered with a front end that supplies `fixtures`.
fn toy_with(fixtures: Fixtures) -> Registry {
    struct WithFixtures(Fixtures);
    impl FrontEnd<Toy> for WithFixtures {
        fn fixtures(&self) -> Fixtures {
            self.0.clone()
        }
    }
    tilebox_tests::toy::with_toy_front_end(Registry::new(), WithFixtures(fixtures))
}

/// The toy's fixtures, from its rules: every cell of a new row has a pebble, so `1` and `2`
/// take one; a move is a single digit 1 to 9; the standard row has 4 cells, and 1 to 9 are
/// allowed.
fn toy_fixtures() -> Fixtures {
    let unreadable = Outcome::unreadable;
    Fixtures {
        seed: 5,
        nonsense: vec![
            ("".into(), Outcome::Played(0)),
            (" \t ".into(), Outcome::Played(0)),
            ("?".into(), unreadable("?")),
            ("0".into(), unreadable("0")),
            ("10".into(), unreadable("10")),
            ("1+1".into(), unreadable("1+1")),
            ("L".into(), unreadable("L")),
            (
                "5".into(),
                Outcome::Illegal("there is no cell 5: the row has 4".into()),
            ),
            ("1".into(), Outcome::Played(1)),
            (
                "2 x".into(),
                Outcome::Unreadable {
                    position: 2,
                    text: "x".into(),
                    played: 1,
                },
            ),
        ],
        valid_params: vec![json!({}), json!({ "cells": 1 }), json!({ "cells": 9 })],
        invalid_params: vec![
            json!({ "cells": 0 }),
            json!({ "cells": 10 }),
            json!({ "cells": "4" }),
            json!({ "side": 4 }),
            json!(null),
        ],
    }
}

#[test]
fn the_fixture_checks_pass_on_the_toy_with_its_fixtures() {
    let registry = toy_with(toy_fixtures());
    each_kinds_nonsense_gives_exactly_the_expected_outcome_and_changes_nothing_else(&registry);
    each_kinds_valid_params_start_games_and_its_invalid_ones_are_refused(&registry);
    each_kinds_bad_moves_in_a_save_are_named(&registry);
}

/// A change that makes the toy's fixtures wrong.
type Spoil = fn(&mut Fixtures);

#[test]
fn the_fixture_checks_fail_on_wrong_expectations() {
    let wrong: Vec<(&str, Spoil)> = vec![
        ("a move said to play nothing", |f| {
            f.nonsense.push(("1".into(), Outcome::Played(0)))
        }),
        ("nonsense said to play", |f| {
            f.nonsense.push(("?".into(), Outcome::Played(0)))
        }),
        ("the wrong position", |f| {
            f.nonsense.push((
                "1 2 x".into(),
                Outcome::Unreadable {
                    position: 2,
                    text: "x".into(),
                    played: 2,
                },
            ))
        }),
        ("another reason", |f| {
            f.nonsense
                .push(("6".into(), Outcome::Illegal("no cell 6".into())))
        }),
        ("another move named", |f| {
            f.nonsense.push(("x".into(), Outcome::unreadable("y")))
        }),
        ("invalid params said to be valid", |f| {
            f.valid_params.push(json!({ "cells": 10 }))
        }),
        ("valid params said to be invalid", |f| {
            f.invalid_params.push(json!({ "cells": 2 }))
        }),
    ];
    for (what, spoil) in wrong {
        let mut fixtures = toy_fixtures();
        spoil(&mut fixtures);
        let registry = toy_with(fixtures);
        let failed = catch_unwind(AssertUnwindSafe(|| {
            each_kinds_nonsense_gives_exactly_the_expected_outcome_and_changes_nothing_else(
                &registry,
            );
            each_kinds_valid_params_start_games_and_its_invalid_ones_are_refused(&registry);
        }));
        assert!(failed.is_err(), "{what}: passed");
    }
}

/// The checks above are not empty on the real catalogue: its kinds supply fixtures of each sort.
#[test]
fn the_real_kinds_supply_fixtures_of_each_sort() {
    let registry = tilebox_games::registry();
    let all: Vec<Fixtures> = registry.kinds().iter().map(Kind::fixtures).collect();
    assert!(all.iter().any(|f| !f.nonsense.is_empty()));
    assert!(all.iter().any(|f| !f.valid_params.is_empty()));
    assert!(all.iter().any(|f| !f.invalid_params.is_empty()));
}
