//! Walks a registry and plays every entry, presets included, through `DynSession` only: a new
//! kind or preset is checked by adding its registration line. Nothing here names a game.

use std::collections::HashSet;

use tilebox_core::{DynSession, Entry, GameEnd, LoadError, PlayErrorKind, Registry};

use crate::Picker;

on_both_registries!(
    entries_are_listed_once_each_under_their_kinds_group,
    every_entry_plays_to_its_end_through_the_object_safe_layer,
    every_entry_undoes_to_the_start_and_redoes_to_the_end,
    every_entry_saves_loads_and_replays_from_seed_and_moves,
);

/// Plays random legal moves until the game ends or `limit` moves; returns the texts seen.
pub fn play_randomly(game: &mut dyn DynSession, picker: &mut Picker, limit: usize) -> Vec<String> {
    play(game, limit, |_, legal| picker.below(legal.len()))
}

/// Plays to the end, quickly: each move is, of the legal ones, one that gains the least score,
/// found by trying each and taking it back (ties broken by `picker`). On a big 2048 board random
/// moves would merge for a very long time; this player avoids merging, so the board fills.
pub fn play_to_the_end(game: &mut dyn DynSession, picker: &mut Picker, limit: usize) {
    play(game, limit, |game, legal| {
        let mut least: Vec<usize> = Vec::new();
        let mut least_gain = u64::MAX;
        for (i, mv) in legal.iter().enumerate() {
            let before = game.score();
            assert_eq!(
                game.play_text(mv),
                Ok(1),
                "{}: {mv} refused",
                game.info().id
            );
            let gain = game.score().saturating_sub(before);
            assert!(game.undo());
            if gain < least_gain {
                (least_gain, least) = (gain, vec![i]);
            } else if gain == least_gain {
                least.push(i);
            }
        }
        least[picker.below(least.len())]
    });
}

/// Plays the legal move that `choose` picks (by its index in the legal moves) until the game
/// ends or `limit` moves; returns the texts seen. Each move must be accepted, counted,
/// remembered as the last move and give a new revision.
fn play(
    game: &mut dyn DynSession,
    limit: usize,
    mut choose: impl FnMut(&mut dyn DynSession, &[String]) -> usize,
) -> Vec<String> {
    let mut texts = vec![game.text()];
    for _ in 0..limit {
        let legal = game.legal_moves();
        assert_eq!(legal.is_empty(), game.status().over, "{}", game.text());
        if legal.is_empty() {
            break;
        }
        let (before, text) = (game.move_count(), game.text());
        let mv = &legal[choose(game, &legal)];
        assert_eq!(game.text(), text, "choosing changed the game");
        let revision = game.revision();
        assert_eq!(
            game.play_text(mv),
            Ok(1),
            "{}: legal move {mv} refused:\n{}",
            game.info().id,
            game.text()
        );
        assert_eq!(game.move_count(), before + 1);
        assert_eq!(game.last_move().as_deref(), Some(mv.as_str()));
        assert_ne!(game.revision(), revision);
        texts.push(game.text());
    }
    texts
}

/// The entries of `registry`, which must have some.
fn entries(registry: &Registry) -> &[Entry] {
    assert!(!registry.entries().is_empty(), "an empty registry");
    registry.entries()
}

fn entries_are_listed_once_each_under_their_kinds_group(registry: &Registry) {
    let ids: Vec<&str> = registry.ids();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "ids taken twice: {ids:?}");
    for entry in entries(registry) {
        let info = entry.info();
        assert!(
            !info.title.is_empty() && !info.description.is_empty(),
            "{info:?}"
        );
        assert_eq!(info.id, entry.id());
        assert_eq!(
            registry.get(entry.id()).map(Entry::info),
            Some(info),
            "{}",
            entry.id()
        );
        // Its group is its kind's title, or the title of an entry of its kind that heads a
        // group of its own (a sliding variant's group is the root of its `based_on` chain:
        // Threes, 2584), or a catalogue's, whose entries are listed under headings (the 2048
        // Power Compendium's); and its kind is registered.
        let heads = |e: &Entry| {
            e.kind_type() == entry.kind_type()
                && e.title() == info.group
                && e.info().group == info.group
        };
        assert!(
            info.group == entry.kind().title
                || registry.entries().iter().any(heads)
                || info.section.as_deref().is_some_and(|s| !s.is_empty()),
            "{}: group {}",
            entry.id(),
            info.group
        );
        assert!(
            registry
                .kinds()
                .iter()
                .any(|k| k.kind_type() == entry.kind_type()),
            "{}: its kind is not registered",
            entry.id()
        );
        // Its preset plays, as itself and given back as JSON.
        let game = entry
            .new_session(1)
            .expect("an entry's own params are valid");
        assert_eq!(game.info(), info);
        assert_eq!(game.entry().id(), entry.id());
        assert_eq!(game.params_json(), entry.params_json(), "{}", entry.id());
        let again = entry
            .with_params(&entry.params_json(), 1)
            .expect("an entry's params read back");
        assert_eq!(again.text(), game.text(), "{}", entry.id());
        assert_eq!(again.params_json(), entry.params_json());
    }
    // Each kind's standard entry is listed under the kind's id, first of the kind's entries.
    for kind in registry.kinds() {
        let info = kind.info();
        let standard = registry
            .get(info.id)
            .unwrap_or_else(|| panic!("kind {info:?} has no standard entry"));
        assert_eq!(standard.kind_type(), kind.kind_type(), "{}", info.id);
        assert_eq!(standard.kind(), info);
        assert_eq!(
            (standard.title(), standard.info().description.as_str()),
            (info.title, info.description)
        );
        let first = entries(registry)
            .iter()
            .find(|e| e.kind_type() == kind.kind_type());
        assert_eq!(first.map(Entry::id), Some(info.id));
    }
    // The groups hold every entry once, in order, each group one title.
    let groups = registry.groups();
    let listed: Vec<usize> = groups.iter().flat_map(|(_, i)| i.iter().copied()).collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..ids.len()).collect::<Vec<_>>(), "{groups:?}");
    let titles: HashSet<&str> = groups.iter().map(|(title, _)| *title).collect();
    assert_eq!(titles.len(), groups.len(), "{groups:?}");
    for (title, members) in &groups {
        assert!(members.windows(2).all(|w| w[0] < w[1]), "{groups:?}");
        for &i in members {
            assert_eq!(registry.entries()[i].info().group, *title);
        }
    }
    let firsts: Vec<usize> = groups.iter().map(|(_, members)| members[0]).collect();
    assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{groups:?}");
}

fn every_entry_plays_to_its_end_through_the_object_safe_layer(registry: &Registry) {
    for entry in entries(registry) {
        let id = entry.id();
        for seed in 0..3 {
            let mut game = entry
                .new_session(seed)
                .expect("an entry's params are valid");
            assert_eq!((game.seed(), game.move_count()), (seed, 0), "{id}");
            assert!(!game.can_undo() && !game.can_redo() && game.last_move().is_none());
            assert_eq!(game.end_text(), None, "{id}: not ended yet");
            check_lines(&game.commentary(), id);
            // Random moves for a while, then the quick way to the end.
            let mut picker = Picker::new(seed);
            play_randomly(game.as_mut(), &mut picker, 300);
            play_to_the_end(game.as_mut(), &mut picker, 100_000);
            assert!(game.status().over, "{id} seed {seed} did not end");
            assert!(game.legal_moves().is_empty());
            check_lines(&game.commentary(), id);
            if let Some(text) = game.end_text() {
                check_lines(&[text], id);
            }
            let json = game.state_json();
            assert_eq!(json["game"], id);
            assert_eq!(json["seed"], seed);
            assert_eq!(json["over"], true);
            assert_eq!(json["won"], game.status().won);
            assert_eq!(json["score"], game.score());
            assert_eq!(json["moves"], game.move_count());
            let saved = game.save();
            assert_eq!(game.last_move().as_ref(), saved.moves.last(), "{id}");
            // After the end the last move, legal once, is refused and changes nothing.
            if let Some(last) = game.last_move() {
                let (text, revision) = (game.text(), game.revision());
                let refused = game.play_text(&last).expect_err("no move after the end");
                assert!(
                    matches!(refused.kind, PlayErrorKind::Move(_)),
                    "{id}: {refused:?}"
                );
                assert_eq!((game.text(), game.revision()), (text, revision));
            }
        }
    }
}

/// Lines shown to a player are single, non-empty lines.
fn check_lines(lines: &[String], id: &str) {
    for line in lines {
        assert!(
            !line.trim().is_empty() && !line.contains('\n'),
            "{id}: {line:?}"
        );
    }
}

fn every_entry_undoes_to_the_start_and_redoes_to_the_end(registry: &Registry) {
    for entry in entries(registry) {
        let mut game = entry.new_session(77).expect("valid");
        let texts = play_randomly(game.as_mut(), &mut Picker::new(1), 60);
        assert!(texts.len() > 1, "{}: no move played", entry.id());
        let mut revisions = HashSet::from([game.revision()]);
        for expected in texts.iter().rev().skip(1) {
            assert!(game.undo());
            assert_eq!(&game.text(), expected);
            assert!(revisions.insert(game.revision()), "a revision came back");
        }
        assert!(!game.undo() && !game.can_undo());
        for expected in texts.iter().skip(1) {
            assert!(game.redo());
            assert_eq!(&game.text(), expected);
            assert!(revisions.insert(game.revision()), "a revision came back");
        }
        assert!(!game.redo());
    }
}

fn every_entry_saves_loads_and_replays_from_seed_and_moves(registry: &Registry) {
    for entry in entries(registry) {
        let id = entry.id();
        let mut game = entry.new_session(1234).expect("valid");
        let played = play_randomly(game.as_mut(), &mut Picker::new(9), 40).len() - 1;
        game.undo();
        game.undo();
        let saved = game.save();
        assert_eq!(saved.game, id);
        assert_eq!(saved.params, entry.params_json(), "{id}");
        assert_eq!(saved.redo.len(), played.min(2), "{id}");
        assert_eq!(saved.moves.len(), played - played.min(2), "{id}");

        // Through its text form, by the registry and by the entry.
        let text = serde_json::to_string(&saved).expect("a save serialises");
        let read = tilebox_core::SavedGame::from_json(&text).expect("and reads back");
        assert_eq!(read, saved);
        for mut back in [
            registry.load(&read).expect("and loads"),
            entry.load(&read).expect("and loads"),
        ] {
            assert_eq!(back.info(), entry.info());
            assert_eq!(back.text(), game.text());
            assert_eq!(back.state_json(), game.state_json());
            assert_eq!(back.save(), saved);
            // The redo list is intact: redoing gives what the saved game's redo gives.
            let mut original = entry.load(&saved).expect("loads");
            while original.redo() {
                assert!(back.redo(), "{id}");
                assert_eq!(back.text(), original.text());
            }
            assert!(!back.redo());
        }

        // Other entries refuse it, presets of the same kind included.
        for other in entries(registry).iter().filter(|e| e.id() != id) {
            assert_eq!(
                other.load(&saved).err(),
                Some(LoadError::WrongGame {
                    expected: other.id().into(),
                    found: id.into()
                })
            );
        }

        // (seed, moves) alone gives the same game, through a fresh session.
        let mut fresh = entry.new_session(saved.seed).expect("valid");
        for mv in &saved.moves {
            assert_eq!(fresh.play_text(mv), Ok(1));
        }
        assert_eq!(fresh.text(), game.text());

        // And replayed as strictly as a save loads, without its params read back from JSON
        // (as the history is checked): the same end, refusing what the load refuses.
        let end_of = |moves: &[String]| {
            let end = entry.replay_end(saved.seed, moves.iter().map(String::as_str));
            let mut save = saved.clone();
            save.moves = moves.to_vec();
            save.redo.clear();
            let loaded = entry.load(&save).map(|g| GameEnd {
                score: g.score(),
                status: g.status(),
                top_tile: g.top_tile(),
                tiles_left: g.tiles_left(),
            });
            assert_eq!(end, loaded, "{id}");
            end
        };
        let end = end_of(&saved.moves).expect("replays");
        assert_eq!(end.score, game.score(), "{id}");
        assert_eq!(end.status, game.status(), "{id}");
        let mut moves = saved.moves.clone();
        moves.push("?".into());
        assert!(end_of(&moves).is_err(), "{id}");
        if let Some(last) = saved.moves.last() {
            // Once more the last move, which changes nothing or does something else.
            moves.pop();
            moves.push(last.clone());
            end_of(&moves).ok();
        }
    }
}

/// The real catalogue with the toy (the hosts' tests take it) holds exactly the real entries
/// first, then the toy's.
#[test]
fn the_catalogue_with_the_toy_is_the_real_one_followed_by_the_toys_entries() {
    let real = tilebox_games::registry();
    let toy = tilebox_tests::toy::registry();
    let both = tilebox_tests::toy::catalogue_with_toy();
    let expected: Vec<&Entry> = real.entries().iter().chain(toy.entries()).collect();
    assert_eq!(both.entries().len(), expected.len(), "{both:?}");
    for (got, want) in both.entries().iter().zip(expected) {
        assert_eq!(got.info(), want.info());
        assert_eq!(got.kind_type(), want.kind_type(), "{}", want.id());
        assert_eq!(got.params_json(), want.params_json(), "{}", want.id());
        assert_eq!(got.how_to_play(), want.how_to_play(), "{}", want.id());
        assert_eq!(got.tile_colors(8), want.tile_colors(8), "{}", want.id());
        assert_eq!(got.board_colors(true), want.board_colors(true));
        assert_eq!(
            got.assistant().map(|a| a.autoplays()),
            want.assistant().map(|a| a.autoplays()),
            "{}",
            want.id()
        );
    }
    let kinds = |r: &Registry| r.kinds().iter().map(|k| k.kind_type()).collect::<Vec<_>>();
    let mut expected_kinds = kinds(&real);
    expected_kinds.extend(kinds(&toy));
    assert_eq!(kinds(&both), expected_kinds);
    let fixtures = |r: &Registry| r.kinds().iter().map(|k| k.fixtures()).collect::<Vec<_>>();
    assert_eq!(fixtures(&both)[..real.kinds().len()], fixtures(&real)[..]);
}
