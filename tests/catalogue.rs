//! Walks the registry and plays every registered game through `DynSession` only, so a new game
//! is checked by adding its registration line.

use tilebox_core::{DynSession, GameEntry, MoveError, PlayErrorKind};

use crate::Picker;

/// Plays random legal moves until the game ends or `limit` moves; returns the texts seen.
fn play_randomly(game: &mut dyn DynSession, picker: &mut Picker, limit: usize) -> Vec<String> {
    let mut texts = vec![game.text()];
    for _ in 0..limit {
        let legal = game.legal_moves();
        assert_eq!(legal.is_empty(), game.status().over, "{}", game.text());
        if legal.is_empty() {
            break;
        }
        let mv = &legal[picker.below(legal.len())];
        let before = game.move_count();
        assert_eq!(
            game.play_text(mv),
            Ok(1),
            "legal move {mv} refused:\n{}",
            game.text()
        );
        assert_eq!(game.move_count(), before + 1);
        texts.push(game.text());
    }
    texts
}

fn entries() -> Vec<GameEntry> {
    tilebox_games::registry().games().to_vec()
}

#[test]
fn the_catalogue_has_the_three_games_with_unique_ids() {
    let ids: Vec<_> = entries().iter().map(|e| e.info.id).collect();
    assert_eq!(ids, ["2048", "threes", "strike9"]);
    for e in entries() {
        assert!(!e.info.title.is_empty() && !e.info.description.is_empty());
    }
}

#[test]
fn every_game_plays_to_its_end_through_the_object_safe_layer() {
    for entry in entries() {
        for seed in 0..4 {
            let mut game = entry
                .new_session(seed)
                .expect("standard parameters are valid");
            play_randomly(game.as_mut(), &mut Picker::new(seed), 5000);
            assert!(
                game.status().over,
                "{} seed {seed} did not end",
                entry.info.id
            );
            assert!(game.legal_moves().is_empty());
            let json = game.state_json();
            assert_eq!(json["game"], entry.info.id);
            assert_eq!(json["over"], true);
            assert_eq!(json["score"], game.score());
            assert_eq!(json["moves"], game.move_count());
        }
    }
}

#[test]
fn every_game_undoes_to_the_start_and_redoes_to_the_end() {
    for entry in entries() {
        let mut game = entry.new_session(77).expect("valid");
        let texts = play_randomly(game.as_mut(), &mut Picker::new(1), 60);
        for expected in texts.iter().rev().skip(1) {
            assert!(game.undo());
            assert_eq!(&game.text(), expected);
        }
        assert!(!game.undo() && !game.can_undo());
        for expected in texts.iter().skip(1) {
            assert!(game.redo());
            assert_eq!(&game.text(), expected);
        }
        assert!(!game.redo());
    }
}

#[test]
fn every_game_replays_from_its_save_and_from_seed_and_moves() {
    let registry = tilebox_games::registry();
    for entry in entries() {
        let mut game = entry.new_session(1234).expect("valid");
        play_randomly(game.as_mut(), &mut Picker::new(9), 40);
        game.undo();
        let saved = game.save();
        let text = serde_json::to_string(&saved).expect("a save serialises");
        let back = registry
            .load(&serde_json::from_str(&text).expect("and reads back"))
            .expect("and loads");
        assert_eq!(back.text(), game.text());
        assert_eq!(back.state_json(), game.state_json());
        assert_eq!(back.can_redo(), game.can_redo());

        // (seed, moves) alone gives the same game, through a fresh session.
        let mut fresh = entry.new_session(saved.seed).expect("valid");
        for mv in &saved.moves {
            assert_eq!(fresh.play_text(mv), Ok(1));
        }
        assert_eq!(fresh.text(), game.text());
    }
}

/// What a line of text typed into a fresh game should do.
#[derive(Debug, Clone, Copy)]
enum Outcome {
    /// Accepted, with this many moves played.
    Played(usize),
    /// Refused at `position`, on the move written `text`, which cannot be read; `played` moves
    /// before it stay played.
    Unreadable {
        position: usize,
        text: &'static str,
        played: usize,
    },
    /// The first move is read but the game refuses it, with this message.
    Illegal(&'static str),
}

use Outcome::{Illegal, Played, Unreadable};

/// `text` as the only move, unreadable.
const fn unreadable(text: &'static str) -> Outcome {
    Unreadable {
        position: 1,
        text,
        played: 0,
    }
}

/// Nonsense typed into each game's seed-5 start, and what each must give. Sliding games read
/// every character as a move (a whole direction word excepted); Strike 9 reads tile sets
/// separated by white space. From both sliding starts a left swipe moves tiles:
/// 2048 `[[0,0,0,0],[0,2,0,0],[0,0,4,0],[0,0,0,0]]`, Threes `[[3,3,3,0],[1,0,0,2],[1,0,1,0],
/// [0,0,2,1]]` (the 3s merge); Strike 9 starts with a roll of 2 + 3.
fn nonsense(game: &str) -> Vec<(&'static str, Outcome)> {
    let sliding = vec![
        ("", Played(0)),
        (" \t ", Played(0)),
        ("?", unreadable("?")),
        ("0", unreadable("0")),
        ("-", unreadable("-")),
        ("99", unreadable("9")),
        ("1+1", unreadable("1")),
        (
            "L+R",
            Unreadable {
                position: 2,
                text: "+",
                played: 1,
            },
        ),
        ("left", Played(1)),
        ("\u{1F600}", unreadable("\u{1F600}")),
        ("+", unreadable("+")),
        ("10", unreadable("1")),
    ];
    match game {
        "2048" | "threes" => sliding,
        "strike9" => vec![
            ("", Played(0)),
            (" \t ", Played(0)),
            ("?", unreadable("?")),
            ("0", unreadable("0")),
            (
                "-",
                Illegal("no tiles chosen: shut open tiles that add up to 5"),
            ),
            ("99", unreadable("99")),
            ("1+1", unreadable("1+1")),
            ("L+R", unreadable("L+R")),
            ("left", unreadable("left")),
            ("\u{1F600}", unreadable("\u{1F600}")),
            ("+", unreadable("+")),
            ("10", unreadable("10")),
            ("2+3", Played(1)),
            (
                "3+2 x",
                Unreadable {
                    position: 2,
                    text: "x",
                    played: 1,
                },
            ),
        ],
        other => panic!("no nonsense written for game '{other}'"),
    }
}

#[test]
fn nonsense_moves_give_exactly_the_expected_outcome_and_change_nothing_else() {
    for entry in entries() {
        for (input, expected) in nonsense(entry.info.id) {
            // A fresh game for each input, so that every outcome is known from the start.
            let mut game = entry.new_session(5).expect("valid");
            let before = game.text();
            let got = game.play_text(input);
            let context = format!("{} {input:?}: {got:?}", entry.info.id);
            let played = match (expected, &got) {
                (Played(n), Ok(m)) => {
                    assert_eq!(*m, n, "{context}");
                    n
                }
                (
                    Unreadable {
                        position,
                        text,
                        played,
                    },
                    Err(e),
                ) => {
                    assert_eq!((e.position, e.text.as_str()), (position, text), "{context}");
                    match &e.kind {
                        PlayErrorKind::Parse(p) => assert_eq!(p.input, text, "{context}"),
                        other => panic!("{context}: expected a parse error, got {other:?}"),
                    }
                    played
                }
                (Illegal(reason), Err(e)) => {
                    assert_eq!(e.position, 1, "{context}");
                    assert_eq!(
                        e.kind,
                        PlayErrorKind::Move(MoveError::Illegal(reason.into())),
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
