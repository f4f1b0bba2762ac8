//! Hints and autoplay in the real app, driven by labels and keys. The AI thinks on its own
//! thread, so these tests step frames while they wait for it, as the window would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use common::{harness, harness_stepping, key_of, temp_dir, write_save};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::TileboxApp;
use tilebox_core::{Puzzle, Registry, Session};
use tilebox_sliding::Sliding;
use tilebox_strike9::{Odds, Strike9, TileSet};
use tilebox_tests::toy::{self, Toy, ToyCoach};

type App = Harness<'static, TileboxApp>;

/// Steps frames (with a short real pause, for the AI's thread) until `done` holds; fails after
/// `limit` of real time.
fn step_until(h: &mut App, limit: Duration, mut done: impl FnMut(&App) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(start.elapsed() < limit, "gave up waiting after {limit:?}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn move_count(h: &App, id: &str) -> usize {
    h.state().session(id).map_or(0, |s| s.move_count())
}

fn strike9_state(h: &App) -> tilebox_strike9::Strike9State {
    h.state()
        .session("strike9")
        .unwrap()
        .as_any()
        .downcast_ref::<Session<Strike9>>()
        .unwrap()
        .state()
        .clone()
}

/// A seed whose first roll has moves that differ in their chance of shutting the box.
fn strike9_choice_seed() -> u64 {
    (0..1000u64)
        .find(|&seed| {
            let s = Session::<Strike9>::with_seed(seed).unwrap();
            let chances: Vec<f64> = Odds::shared()
                .moves(s.state().open(), s.state().total())
                .into_iter()
                .map(|(_, p)| p)
                .collect();
            chances.iter().any(|&p| p + 1e-9 < chances[0])
                || chances.iter().any(|&p| p > chances[0] + 1e-9)
        })
        .unwrap()
}

fn spaced(tiles: TileSet) -> String {
    let parts: Vec<String> = tiles.tiles().map(|t| t.to_string()).collect();
    parts.join(" + ")
}

#[test]
fn strike9_hint_shows_the_best_set_the_odds_and_what_a_worse_set_gave_up() {
    let dir = temp_dir("hint9");
    let seed = strike9_choice_seed();
    write_save(&dir, &Session::<Strike9>::with_seed(seed).unwrap().save());
    let mut h = harness(&dir, Some("strike9"));
    let state = strike9_state(&h);
    let (open, total) = (state.open(), state.total());
    let moves = Odds::shared().moves(open, total);
    let (best, best_p) = moves
        .iter()
        .copied()
        .fold(moves[0], |a, b| if b.1 > a.1 { b } else { a });
    let (worst, worst_p) = moves
        .iter()
        .copied()
        .fold(moves[0], |a, b| if b.1 < a.1 { b } else { a });
    assert!(best_p > worst_p);

    // The chance with best play for this roll: the roll's best move's chance.
    h.get_by_label(&format!(
        "{:.1}% to shut the box with best play",
        best_p * 100.0
    ));
    assert!(h.query_by_label_contains("Hint: shut").is_none());
    // The hint comes from the AI's thread, as in every game with an assistant.
    h.get_by_label("Hint").click();
    step_until(&mut h, Duration::from_secs(30), |h| {
        h.query_by_label_contains("Hint: shut").is_some()
    });
    h.get_by_label(&format!("Hint: shut {}", spaced(best)));
    // The H key asks too (it does nothing more when the hint is up).
    h.key_press(Key::H);
    h.step();
    step_until(&mut h, Duration::from_secs(30), |h| !h.state().thinking());
    h.get_by_label(&format!("Hint: shut {}", spaced(best)));

    // Shut the worst set instead: the view says what it gave up, and the hint goes away.
    for t in worst.tiles() {
        h.get_by_label(&format!("tile {t}, open")).click();
        h.run();
    }
    assert_eq!(move_count(&h, "strike9"), 1);
    assert!(h.query_by_label_contains("Hint: shut").is_none());
    let line = h
        .get_by_label_contains(&format!("Shutting {} gave up", spaced(worst)))
        .value()
        .unwrap_or_default();
    assert!(line.contains(&format!("{:.1}%", best_p * 100.0)), "{line}");
    assert!(line.contains(&format!("{:.1}%", worst_p * 100.0)), "{line}");

    // Undo, and shut the best set: that was the best play.
    h.key_press(Key::U);
    h.run();
    for t in best.tiles() {
        h.get_by_label(&format!("tile {t}, open")).click();
        h.run();
    }
    h.get_by_label(&format!(
        "Shutting {} was the best play for {total}.",
        spaced(best)
    ));
}

/// Asks for a hint with Shift+H in game `entry` (open in `h`, no move played) and waits for
/// it: it comes from the AI's thread, names a legal move, moves nothing; following it plays
/// it and the hint goes.
fn hint_arrives_and_goes_with_the_move(h: &mut App, entry: &tilebox_core::Entry) {
    let id = entry.id();
    assert_eq!(move_count(h, id), 0, "{id}");
    assert!(h.query_by_label_contains("Hint: ").is_none(), "{id}");
    h.get_by_label("Hint");
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    h.step();
    // The question is with the AI's thread, or (a quick player) already answered.
    assert!(
        h.state().thinking() || h.query_by_label_contains("Hint: ").is_some(),
        "{id}"
    );
    step_until(h, Duration::from_secs(30), |h| {
        h.query_by_label_contains("Hint: ").is_some()
    });
    assert!(!h.state().thinking(), "{id}");
    let shown = h
        .get_by_label_contains("Hint: ")
        .value()
        .unwrap_or_default();
    let legal = h.state().session(id).unwrap().legal_moves();
    let hinted: Vec<&String> = legal
        .iter()
        .filter(|mv| common::hint_label(entry, mv) == shown)
        .collect();
    assert_eq!(
        hinted.len(),
        1,
        "{id}: {shown:?} names no legal move of {legal:?}"
    );
    let mv = hinted[0].clone();
    // Shift+H did not move the board (plain h is a move to the left in the sliding games).
    assert_eq!(move_count(h, id), 0, "{id}");

    // Following the hint plays it, and the hint goes.
    common::play_as_player(h, entry, &mv);
    assert_eq!(move_count(h, id), 1, "{id}");
    assert_eq!(
        h.state().session(id).unwrap().last_move().as_deref(),
        Some(mv.as_str())
    );
    assert!(h.query_by_label_contains("Hint: ").is_none(), "{id}");
}

#[test]
fn every_entry_with_an_assistant_gets_a_hint_from_the_ai_thread_that_goes_with_the_move() {
    let registry = tilebox_games::registry();
    let mut hinted = 0;
    for entry in registry.entries() {
        if entry.assistant().is_none() {
            continue;
        }
        let dir = temp_dir("hint");
        let mut h = harness(&dir, Some(entry.id()));
        hint_arrives_and_goes_with_the_move(&mut h, entry);
        hinted += 1;
    }
    assert!(hinted > 0, "no entry has an assistant");
}

#[test]
fn an_entry_without_an_assistant_has_no_hint_nor_autoplay_and_says_so() {
    // Every entry of the catalogue has a player; the coached toy's `toy-9` (a row longer than
    // its player plays) has none.
    let registry = || toy::with_toy_front_end(tilebox_games::register(Registry::new()), ToyCoach);
    let mut checked = 0;
    for entry in registry().entries() {
        if entry.assistant().is_some() {
            continue;
        }
        checked += 1;
        let id = entry.id();
        let dir = temp_dir("no-hint");
        let mut h = common::harness_over(registry(), &dir, Some(id));
        assert!(h.query_by_label("Hint").is_none(), "{id}");
        assert!(h.query_by_label("Autoplay").is_none(), "{id}");
        h.key_press_modifiers(Modifiers::SHIFT, Key::H);
        h.run();
        assert!(!h.state().thinking(), "{id}");
        let told = format!("No hints for {}.", entry.title());
        assert_eq!(h.state().message(id), Some(told.as_str()));
        h.get_by_label(&told);
        h.key_press_modifiers(Modifiers::SHIFT, Key::A);
        for _ in 0..10 {
            h.step();
        }
        assert!(!h.state().autoplay(id), "{id}");
        assert!(!h.state().thinking(), "{id}");
        assert_eq!(move_count(&h, id), 0, "{id}");
    }
    assert!(
        checked > 0,
        "every entry has an assistant: nothing was checked"
    );
}

#[test]
fn a_save_carrying_params_the_ai_does_not_play_has_no_hint_until_a_new_game_of_the_preset() {
    let dir = temp_dir("save-params");
    // A save of the coached toy's four-cell entry holding a nine-cell game (a save keeps the
    // params it was started with): its player plays four cells only. (Every entry of the
    // catalogue has a player for every board it can hold.)
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    std::fs::write(
        dir.join("saves/toy.json"),
        r#"{"format":1,"game":"toy","params":{"cells":9},"seed":2,"moves":[]}"#,
    )
    .unwrap();
    let mut h = common::harness_over(coached_toy(), &dir, Some("toy"));
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    assert_eq!(common::pebbles(&h, "toy").len(), 9);
    assert!(h.state().session("toy").unwrap().assistant().is_none());
    assert!(h.query_by_label("Hint").is_none());
    assert!(h.query_by_label("Autoplay").is_none());
    // The keys say so, and ask the AI nothing.
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    h.run();
    assert!(!h.state().thinking());
    assert_eq!(h.state().message("toy"), Some("No hints for Toy."));
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.run();
    assert!(!h.state().autoplay("toy"));
    // How to play has no line for the assistant.
    h.key_press(Key::F1);
    h.run();
    assert!(h.query_by_label_contains("Shift+H: hint").is_none());

    // A new game is the entry's preset, four cells, with the AI's buttons and help.
    h.key_press(Key::N);
    h.run();
    assert_eq!(common::pebbles(&h, "toy").len(), 4);
    assert!(h.state().session("toy").unwrap().assistant().is_some());
    h.get_by_label("Hint");
    h.get_by_label("Autoplay");
    h.get_by_label_contains("Shift+H: hint");
    let saved = common::read_json_file(&dir.join("saves/toy.json"));
    assert_eq!(saved["params"]["cells"], 4);
}

/// Runs autoplay in game `id` (already on) until it has made `n` moves; returns how many frames
/// passed between one move and the next.
fn frames_between_moves(h: &mut App, id: &str, n: usize) -> Vec<usize> {
    let start = Instant::now();
    let mut gaps = Vec::new();
    let mut since = 0;
    let mut seen = move_count(h, id);
    while gaps.len() < n {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "autoplay stalled"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(5));
        since += 1;
        let now = move_count(h, id);
        if now > seen {
            assert_eq!(now, seen + 1, "one move a frame at most");
            if seen > 0 {
                gaps.push(since);
            }
            seen = now;
            since = 0;
        }
    }
    gaps
}

#[test]
fn autoplay_normal_waits_for_each_animation_fast_does_not_and_any_command_stops_it() {
    let dir = temp_dir("autoplay");
    // Frames 1/60 s apart: a slide and its pop (0.22 s) last 13 frames.
    let mut h = harness_stepping(&dir, Some("threes"), 1.0 / 60.0);
    h.get_by_label("Autoplay").click();
    h.step();
    assert!(h.state().autoplay("threes"));
    let normal = frames_between_moves(&mut h, "threes", 4);
    assert!(normal.iter().all(|&g| g >= 13), "{normal:?}");

    h.get_by_label(&tilebox::speed_label("Fast")).click();
    h.step();
    assert!(h.state().autoplay("threes"));
    let fast = frames_between_moves(&mut h, "threes", 6);
    assert!(fast.iter().any(|&g| g < 13), "{fast:?}");

    // The window answers while the AI plays: the help opens at once, autoplay goes on.
    h.key_press(Key::F1);
    h.step();
    h.get_by_label_contains("Shift+A: autoplay");
    assert!(h.state().autoplay("threes"));

    // Undo takes the game back from the AI, and takes back autoplay's last move.
    let before = move_count(&h, "threes");
    h.key_press(Key::U);
    h.step();
    assert!(!h.state().autoplay("threes"));
    let stopped_at = move_count(&h, "threes");
    assert!(stopped_at + 1 >= before && stopped_at <= before);
    // Nothing more is played, not even an answer that was on its way.
    for _ in 0..60 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(move_count(&h, "threes"), stopped_at);
}

#[test]
fn shift_a_toggles_autoplay_in_every_entry_whose_assistant_plays_on_its_own() {
    let registry = tilebox_games::registry();
    let mut played = 0;
    for entry in registry.entries() {
        let id = entry.id();
        let autoplays = entry.assistant().is_some_and(|a| a.autoplays());
        let dir = temp_dir("autoplay-toggle");
        let mut h = harness(&dir, Some(id));
        assert_eq!(h.query_by_label("Autoplay").is_some(), autoplays, "{id}");
        if !autoplays {
            continue;
        }
        h.key_press_modifiers(Modifiers::SHIFT, Key::A);
        h.step();
        assert!(h.state().autoplay(id), "{id}");
        step_until(&mut h, Duration::from_secs(60), |h| move_count(h, id) >= 3);
        h.key_press_modifiers(Modifiers::SHIFT, Key::A);
        h.step();
        assert!(!h.state().autoplay(id), "{id}");
        let stopped_at = move_count(&h, id);
        for _ in 0..20 {
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(move_count(&h, id), stopped_at, "{id}");
        played += 1;
    }
    assert!(played > 0, "no entry autoplays");
}

#[test]
fn strike9_leaves_every_choice_to_the_player() {
    let dir = temp_dir("autoplay-strike9");
    let mut h = harness(&dir, Some("strike9"));
    h.get_by_label("Hint");
    assert!(h.query_by_label("Autoplay").is_none());
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!h.state().autoplay("strike9"));
    assert!(!h.state().thinking());
    assert_eq!(move_count(&h, "strike9"), 0);
}

#[test]
fn autoplay_does_not_start_on_a_finished_game() {
    let dir = temp_dir("autoplay-over");
    let mut s = Session::<Sliding>::with_seed(7).unwrap();
    while let Some(mv) = Sliding::legal_moves(s.state()).first().copied() {
        s.play(mv).unwrap();
    }
    write_save(&dir, &s.save());
    let mut h = harness(&dir, Some("2048"));
    assert!(h.state().session("2048").unwrap().status().over);
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    for _ in 0..10 {
        h.step();
    }
    assert!(!h.state().autoplay("2048"));
    assert!(!h.state().thinking());
    assert_eq!(move_count(&h, "2048"), s.moves().len());
}

#[test]
fn the_players_own_move_takes_the_game_back_from_autoplay() {
    let dir = temp_dir("autoplay-takeover");
    let mut h = harness_stepping(&dir, Some("2048"), 1.0 / 60.0);
    h.get_by_label("Autoplay").click();
    h.step();
    step_until(&mut h, Duration::from_secs(60), |h| {
        move_count(h, "2048") >= 2
    });
    assert!(h.state().autoplay("2048"));
    let before = move_count(&h, "2048");
    let mine = h.state().session("2048").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mine));
    h.step();
    assert!(!h.state().autoplay("2048"));
    // Exactly the player's move was played, and nothing after it: no AI move was queued behind
    // it, nor arrives later.
    let moves = h.state().session("2048").unwrap().save().moves;
    assert_eq!(moves.len(), before + 1);
    assert_eq!(moves.last(), Some(&mine));
    for _ in 0..60 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(move_count(&h, "2048"), before + 1);
}

/// A seed of the toy's standard entry (four cells) whose row starts with a number of pebbles
/// that `fits`.
fn toy_seed(fits: impl Fn(u64) -> bool) -> u64 {
    (0..1000u64)
        .find(|&seed| {
            fits(
                Session::<Toy>::with_seed(seed)
                    .unwrap()
                    .state()
                    .pebbles_left(),
            )
        })
        .unwrap()
}

/// The toy with [`ToyCoach`], its test front end with an assistant: its player plays the entry
/// `toy` (four cells) and refuses a row of more than [`ToyCoach::MAX_PEBBLES`] pebbles.
fn coached_toy() -> Registry {
    toy::with_toy_front_end(Registry::new(), ToyCoach)
}

#[test]
fn a_position_the_ai_cannot_play_says_so_instead_of_thinking_forever() {
    let dir = temp_dir("hint-refused");
    // Ten pebbles or more: more than the toy's player counts, after the two moves played here.
    let seed = toy_seed(|n| n >= ToyCoach::MAX_PEBBLES + 2);
    write_save(&dir, &Session::<Toy>::with_seed(seed).unwrap().save());
    let mut h = common::harness_over(coached_toy(), &dir, Some("toy"));
    h.get_by_label("Hint");
    for ask in [0, 1] {
        let before = move_count(&h, "toy");
        if ask == 0 {
            h.key_press_modifiers(Modifiers::SHIFT, Key::H);
        } else {
            h.key_press_modifiers(Modifiers::SHIFT, Key::A);
        }
        let told = format!(
            "The toy's player counts to {} pebbles only.",
            ToyCoach::MAX_PEBBLES
        );
        step_until(&mut h, Duration::from_secs(30), |h| {
            h.state().message("toy") == Some(told.as_str())
        });
        assert!(!h.state().thinking());
        assert!(!h.state().autoplay("toy"));
        assert_eq!(move_count(&h, "toy"), before);
        h.get_by_label(&told);
        // A move clears the message before the next question.
        let mv = h.state().session("toy").unwrap().legal_moves()[0].clone();
        h.get_by_label(&format!("Move {mv}")).click();
        h.run();
        assert_eq!(move_count(&h, "toy"), before + 1);
        assert_eq!(h.state().message("toy"), None);
    }
}
/// The cell (from 1) with the most pebbles, the first of equals; none when the row is empty.
fn fullest(pebbles: &[u64]) -> Option<usize> {
    let most = *pebbles.iter().max()?;
    (most > 0).then(|| pebbles.iter().position(|&n| n == most).unwrap() + 1)
}

#[test]
fn a_kind_with_an_assistant_and_no_view_of_its_own_gets_hints_and_autoplay_in_the_plain_view() {
    let registry = coached_toy();
    let entry = registry.get("toy").unwrap().clone();
    let dir = temp_dir("toy-coach");
    // A row the toy's player counts: it plays the game to its end.
    let seed = toy_seed(|n| n <= ToyCoach::MAX_PEBBLES);
    write_save(&dir, &Session::<Toy>::with_seed(seed).unwrap().save());
    let mut h = common::harness_over(registry, &dir, Some("toy"));
    h.get_by_label("Autoplay");

    // The hint names the player's move under the moves; following it plays it.
    let best = fullest(&common::pebbles(&h, "toy")).unwrap().to_string();
    hint_arrives_and_goes_with_the_move(&mut h, &entry);
    assert_eq!(
        h.state().session("toy").unwrap().last_move(),
        Some(best.clone())
    );

    // Autoplay plays the game to its end, every move the player's choice.
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(h.state().autoplay("toy"));
    step_until(&mut h, Duration::from_secs(60), |h| {
        h.state().session("toy").unwrap().status().over
    });
    let (save, seed, score) = {
        let s = h.state().session("toy").unwrap();
        (s.save(), s.seed(), s.score())
    };
    let mut replay = entry.new_session(seed).unwrap();
    for mv in &save.moves {
        let expected = fullest(&{
            let json = replay.state_json();
            json["pebbles"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .collect::<Vec<_>>()
        })
        .unwrap();
        assert_eq!(*mv, expected.to_string(), "{save:?}");
        replay.play_text(mv).unwrap();
    }
    assert!(replay.status().over);
    h.step();
    assert!(!h.state().autoplay("toy"));
    // Autoplay made the game assisted: it counts among the assisted games only.
    let stats = h.state().scores().get("toy");
    assert_eq!((stats.played, stats.won, stats.best), (0, 0, 0));
    assert_eq!(
        (
            stats.assisted_played,
            stats.assisted_won,
            stats.assisted_best
        ),
        (1, 1, score)
    );
}

#[test]
fn thinking_goes_in_the_frame_the_hint_comes() {
    let dir = temp_dir("hint-thinking");
    let mut h = harness(&dir, Some("strike9"));
    assert!(h.query_by_label("Thinking...").is_none());
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    step_until(&mut h, Duration::from_secs(30), |h| {
        h.query_by_label_contains("Hint: ").is_some()
    });
    // The frame that shows the hint no longer says the AI is thinking: no later frame may come
    // to take it away (the window repaints on input only).
    assert!(h.query_by_label("Thinking...").is_none());
    assert!(!h.state().thinking());
}
