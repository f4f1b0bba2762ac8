//! Walks the registry and plays every registered game through `DynSession` only, so a new game
//! is checked by adding its registration line.

use tilebox_core::{DynSession, GameEntry};

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

#[test]
fn no_game_panics_or_changes_on_nonsense_moves() {
    for entry in entries() {
        let mut game = entry.new_session(5).expect("valid");
        let before = game.text();
        for junk in [
            "",
            " ",
            "?",
            "0",
            "-",
            "99",
            "1+1",
            "L+R",
            "left",
            "\u{1F600}",
            "+",
            "10",
        ] {
            let _ = game.play_text(junk);
        }
        // A move that was refused changed nothing; one that was accepted can be undone.
        while game.undo() {}
        assert_eq!(game.text(), before, "{}", entry.info.id);
    }
}
