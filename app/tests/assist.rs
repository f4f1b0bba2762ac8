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
use tilebox_core::{Puzzle, Session};
use tilebox_sliding::Game2048;
use tilebox_strike9::{Odds, Strike9, TileSet};

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
    h.get_by_label("Hint").click();
    h.run();
    h.get_by_label(&format!("Hint: shut {}", spaced(best)));
    // The H key asks too (it does nothing more when the hint is up).
    h.key_press(Key::H);
    h.run();
    h.get_by_label(&format!("Hint: shut {}", spaced(best)));

    // Shut the worst set instead: the view says what it gave up, and the hint goes away.
    for t in worst.tiles() {
        h.get_by_label(&format!("Tile {t}")).click();
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
        h.get_by_label(&format!("Tile {t}")).click();
        h.run();
    }
    h.get_by_label(&format!(
        "Shutting {} was the best play for {total}.",
        spaced(best)
    ));
}

#[test]
fn a_sliding_hint_arrives_from_the_ai_thread_and_goes_with_the_move() {
    for id in ["2048", "threes"] {
        let dir = temp_dir("hint-sliding");
        let mut h = harness(&dir, Some(id));
        h.key_press_modifiers(Modifiers::SHIFT, Key::H);
        h.step();
        assert!(h.state().thinking());
        step_until(&mut h, Duration::from_secs(30), |h| {
            h.query_by_label_contains("Hint: slide").is_some()
        });
        assert!(!h.state().thinking());
        let label = h
            .get_by_label_contains("Hint: slide")
            .value()
            .unwrap_or_default();
        let mv = ["left", "right", "up", "down"]
            .iter()
            .zip(["L", "R", "U", "D"])
            .find(|(name, _)| label.contains(*name))
            .map(|(_, mv)| mv)
            .unwrap();
        let legal = h.state().session(id).unwrap().legal_moves();
        assert!(legal.iter().any(|m| m == mv), "{id}: {mv} not in {legal:?}");
        // The Shift+H did not move the board (plain h is a move to the left).
        assert_eq!(move_count(&h, id), 0);

        // Following the hint plays it, and the hint goes.
        h.key_press(key_of(mv));
        h.run();
        assert_eq!(move_count(&h, id), 1);
        assert!(h.query_by_label_contains("Hint: slide").is_none());
    }
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

    h.get_by_label("Autoplay speed").click();
    for _ in 0..3 {
        h.step();
    }
    h.get_by_label("Fast").click();
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
fn shift_a_toggles_autoplay_in_2048() {
    let dir = temp_dir("autoplay-2048");
    let mut h = harness(&dir, Some("2048"));
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(h.state().autoplay("2048"));
    step_until(&mut h, Duration::from_secs(60), |h| {
        move_count(h, "2048") >= 3
    });
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(!h.state().autoplay("2048"));
    let stopped_at = move_count(&h, "2048");
    for _ in 0..20 {
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(move_count(&h, "2048"), stopped_at);
}

#[test]
fn autoplay_does_not_start_on_a_finished_game() {
    let dir = temp_dir("autoplay-over");
    let mut s = Session::<Game2048>::with_seed(7).unwrap();
    while let Some(mv) = Game2048::legal_moves(s.state()).first().copied() {
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

#[test]
fn a_board_the_ai_cannot_play_says_so_instead_of_thinking_forever() {
    use tilebox_sliding::Game2048Params;
    let dir = temp_dir("hint-8x8");
    // The rules play 2048 on 8×8; the AI's bitboards hold 4×4 only.
    let session = Session::<Game2048>::new(Game2048Params { side: 8 }, 2).unwrap();
    write_save(&dir, &session.save());
    let mut h = harness(&dir, Some("2048"));
    for ask in [0, 1] {
        let before = move_count(&h, "2048");
        if ask == 0 {
            h.key_press_modifiers(Modifiers::SHIFT, Key::H);
        } else {
            h.key_press_modifiers(Modifiers::SHIFT, Key::A);
        }
        step_until(&mut h, Duration::from_secs(30), |h| {
            h.state()
                .message("2048")
                .is_some_and(|m| m.starts_with("The AI cannot play this board"))
        });
        assert!(!h.state().thinking());
        assert!(!h.state().autoplay("2048"));
        assert_eq!(move_count(&h, "2048"), before);
        h.get_by_label_contains("The AI cannot play this board");
        // A move clears the message before the next question.
        let mv = h.state().session("2048").unwrap().legal_moves()[0].clone();
        h.key_press(key_of(&mv));
        h.run();
        assert_eq!(h.state().message("2048"), None);
    }
}
