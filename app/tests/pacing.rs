//! Autoplay and replays paced by the clock, not by frames: in a harness whose frames are a
//! second apart (as a big window without a GPU draws them), one frame makes every move due in
//! it. Time is the harness's input time, set by each test: nothing here depends on how fast
//! the machine is, and the AI's thread is only waited for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::TileboxApp;
use tilebox::store::settings::Speed;
use tilebox_core::Session;
use tilebox_sliding::Sliding;

type App = Harness<'static, TileboxApp>;

/// Sets the time of the harness's next frames (they stay at it until set again).
fn set_time(h: &mut App, t: f64) {
    h.input_mut().time = Some(t);
}

/// The time of the last frame.
fn time(h: &App) -> f64 {
    h.ctx.input(|i| i.time)
}

fn move_count(h: &App, id: &str) -> usize {
    h.state().session(id).map_or(0, |s| s.move_count())
}

/// Steps frames at the time set, with a short real pause for the AI's thread, until `done`;
/// fails after a minute of real time.
fn step_until(h: &mut App, mut done: impl FnMut(&App) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "gave up waiting for the AI"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Picks autoplay's speed with its button in the bar.
fn pick_speed(h: &mut App, speed: Speed) {
    h.get_by_label(&tilebox::speed_label(speed.label())).click();
    h.step();
    assert_eq!(h.state().autoplay_speed(), speed);
}

/// Turns autoplay on in `id` at time `t` and waits (the clock standing still) until its first
/// move is played and the AI has played `ahead` more: those are not due until the clock moves.
/// Returns how many moves the game has then.
fn start_autoplay(h: &mut App, id: &str, t: f64, ahead: usize) -> usize {
    let before = move_count(h, id);
    set_time(h, t);
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(h.state().autoplay(id));
    assert!(h.state().assisted(id), "autoplay marks the game assisted");
    step_until(h, |h| move_count(h, id) > before);
    step_until(h, |h| h.state().autoplay_ahead() >= ahead);
    // The clock stood still: only the first move, due at once, was played.
    assert_eq!(move_count(h, id), before + 1);
    before + 1
}

/// The moves of game `id` replay from its seed in a session of their own, to the same board.
fn assert_moves_replay(h: &App, id: &str) -> Vec<String> {
    let session = h.state().session(id).unwrap();
    let saved = session.save();
    let replayed: Session<Sliding> = Session::replay(
        common::variant(id),
        saved.seed,
        saved
            .moves
            .iter()
            .map(|m| m.parse::<tilebox_sliding::Direction>().unwrap())
            .collect::<Vec<_>>(),
    )
    .expect("every move autoplay made is legal, in order");
    assert_eq!(replayed.state().to_string(), session.text());
    saved.moves
}

#[test]
fn one_slow_frame_of_fast_autoplay_plays_every_move_due_in_it() {
    let dir = common::temp_dir("pace-fast");
    let mut h = common::harness(&dir, Some("2048"));
    pick_speed(&mut h, Speed::Fast);
    let t = time(&h) + 1.0;
    start_autoplay(&mut h, "2048", t, 60);

    // One frame a second later: 50 moves (20 ms a move), not one.
    set_time(&mut h, t + 1.0);
    h.step();
    assert_eq!(move_count(&h, "2048"), 51);
    let moves = assert_moves_replay(&h, "2048");
    assert_eq!(moves.len(), 51);
    assert!(h.state().assisted("2048"));
    assert!(h.state().autoplay("2048"));

    // And so on, frame after frame: the AI plays ahead while the frames are drawn.
    step_until(&mut h, |h| h.state().autoplay_ahead() >= 60);
    set_time(&mut h, t + 2.0);
    h.step();
    assert_eq!(move_count(&h, "2048"), 101);
    assert_moves_replay(&h, "2048");

    // The save has every move.
    h.key_press_modifiers(Modifiers::SHIFT, Key::A);
    h.step();
    assert!(!h.state().autoplay("2048"));
    let played = h.state().session("2048").unwrap().save().moves;
    let saved = common::read_json_file(&dir.join(tilebox::store::saves::save_file_name("2048")));
    let on_disk: Vec<String> = serde_json::from_value(saved["moves"].clone()).unwrap();
    assert_eq!(on_disk, played);
    assert_eq!(saved["tally"]["assisted"], true, "{saved}");
}

#[test]
fn normal_and_slow_autoplay_keep_their_pace_by_the_clock_in_slow_frames() {
    for (speed, per_second) in [(Speed::Normal, 3), (Speed::Slow, 1)] {
        let dir = common::temp_dir("pace-normal");
        let mut h = common::harness(&dir, Some("2048"));
        if speed != Speed::Normal {
            pick_speed(&mut h, speed);
        }
        let t = time(&h) + 1.0;
        start_autoplay(&mut h, "2048", t, 4);
        // A move every 0.3 s (Normal) or 0.7 s (Slow): a frame a second later makes the moves
        // due in that second, never more.
        set_time(&mut h, t + 1.0);
        h.step();
        assert_eq!(move_count(&h, "2048"), 1 + per_second, "{speed:?}");
        assert_moves_replay(&h, "2048");
        // A frame before the next is due plays nothing.
        let next = t + speed.interval() * (per_second + 1) as f64;
        set_time(&mut h, next - 0.01);
        h.step();
        assert_eq!(move_count(&h, "2048"), 1 + per_second, "{speed:?}");
        step_until(&mut h, |h| h.state().autoplay_ahead() >= 1);
        set_time(&mut h, next);
        h.step();
        assert_eq!(move_count(&h, "2048"), 2 + per_second, "{speed:?}");
    }
}

#[test]
fn moves_played_ahead_are_dropped_when_the_player_takes_the_game_back() {
    let dir = common::temp_dir("pace-undo");
    let mut h = common::harness(&dir, Some("2048"));
    pick_speed(&mut h, Speed::Fast);
    let t = time(&h) + 1.0;
    start_autoplay(&mut h, "2048", t, 30);
    // Undo in a frame where 50 moves are due: they are not played, now or later.
    set_time(&mut h, t + 1.0);
    h.key_press(Key::U);
    h.step();
    assert!(!h.state().autoplay("2048"));
    assert_eq!(h.state().autoplay_ahead(), 0);
    // The game is where the undo takes it: before autoplay's first move.
    let after = move_count(&h, "2048");
    assert_eq!(after, 0);
    for n in 2..10 {
        set_time(&mut h, t + f64::from(n));
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(move_count(&h, "2048"), after);

    // Autoplay again: it plays on from the board as it is now, not the moves of before.
    let t = t + 10.0;
    let first = start_autoplay(&mut h, "2048", t, 10);
    assert_eq!(first, after + 1);
    set_time(&mut h, t + 0.1);
    h.step();
    assert_eq!(move_count(&h, "2048"), first + 5);
    assert_moves_replay(&h, "2048");
}

/// A game of 2048, `n` moves into it, played by the tests' simple player from the first seed
/// whose game lasts that long.
fn game_of(n: usize) -> Session<Sliding> {
    (0..1000u64)
        .find_map(|seed| {
            let mut s = Session::<Sliding>::new(common::variant("2048"), seed).unwrap();
            for _ in 0..n {
                let mv = common::by_order(s.state())?;
                s.play(mv).unwrap();
            }
            Some(s)
        })
        .unwrap()
}

/// The replay's position: moves replayed, moves in the game.
fn position(h: &App) -> (usize, usize) {
    h.state().replay().expect("a replay is shown").1
}

/// The replay's board, as text.
fn replay_text(h: &App) -> String {
    h.state().replay().unwrap().0.text()
}

#[test]
fn a_replay_at_64_moves_a_second_steps_64_moves_in_a_one_second_frame() {
    let dir = common::temp_dir("pace-replay");
    let game = game_of(150);
    let id = common::write_entry_save(&dir, &game);
    let mut h = common::harness(&dir, Some(&id));
    h.key_press_modifiers(Modifiers::SHIFT, Key::R);
    h.run();
    assert_eq!(position(&h), (0, 150));
    for _ in 0..4 {
        h.key_press(Key::Plus);
        h.run();
    }
    h.get_by_label(&tilebox::screens::replay::view::speed_text(64.0));

    // Where stepping one move at a time lands, after 64 and 128 moves.
    let mut stepped = Vec::new();
    for n in 1..=128 {
        h.key_press(Key::ArrowRight);
        h.step();
        assert_eq!(position(&h).0, n);
        stepped.push(replay_text(&h));
    }
    h.key_press(Key::Home);
    h.run();
    assert_eq!(position(&h), (0, 150));

    // Play, in frames a second apart: 64 moves a frame, each landing where stepping lands.
    let t = time(&h) + 1.0;
    set_time(&mut h, t);
    h.key_press(Key::Space);
    h.step();
    assert!(h.state().replay_playing());
    assert_eq!(position(&h).0, 0);
    set_time(&mut h, t + 1.0);
    h.step();
    assert_eq!(position(&h).0, 64);
    assert_eq!(replay_text(&h), stepped[63]);
    set_time(&mut h, t + 2.0);
    h.step();
    assert_eq!(position(&h).0, 128);
    assert_eq!(replay_text(&h), stepped[127]);
    // The next frame reaches the end (22 moves left) and stops there, at the game's board.
    set_time(&mut h, t + 3.0);
    h.step();
    assert_eq!(position(&h), (150, 150));
    assert!(!h.state().replay_playing());
    assert_eq!(replay_text(&h), game.state().to_string());

    // At 1 move a second, a frame 3.5 s after Play makes 3 moves.
    h.key_press(Key::Home);
    h.step();
    for _ in 0..6 {
        h.key_press(Key::Minus);
    }
    h.step();
    h.get_by_label(&tilebox::screens::replay::view::speed_text(1.0));
    let t = t + 10.0;
    set_time(&mut h, t);
    h.key_press(Key::Space);
    h.step();
    set_time(&mut h, t + 3.5);
    h.step();
    assert_eq!(position(&h).0, 3);
    assert_eq!(replay_text(&h), stepped[2]);
}

/// The values painted on the board in the last frame, each with the centre of its text.
fn painted_tiles(h: &App) -> Vec<(String, egui::Pos2)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, egui::Pos2)>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(t) => {
                out.push((
                    t.galley.text().to_string(),
                    t.visual_bounding_rect().center(),
                ));
            }
            _ => {}
        }
    }
    let board = h.get_by_label(tilebox::views::sliding::BOARD_LABEL).rect();
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out.retain(|(text, at)| board.contains(*at) && text.parse::<u64>().is_ok());
    out
}

/// Whether every tile painted on the board sits in a cell (the board at rest).
fn tiles_at_rest(h: &App) -> bool {
    let centres: Vec<egui::Pos2> = common::spoken_all(h)
        .into_iter()
        .filter(|(text, _)| common::is_cell_label(text))
        .map(|(_, rect)| rect.center())
        .collect();
    painted_tiles(h)
        .iter()
        .all(|(_, at)| centres.iter().any(|c| c.distance(*at) < 2.0))
}

/// The rising "+N" shown, if any.
fn pops(h: &App) -> Vec<String> {
    common::spoken_all(h)
        .into_iter()
        .map(|(text, _)| text)
        .filter(|text| text.starts_with('+'))
        .collect()
}

/// A key is answered by the frame that reads it, however slow the frames: where they are a
/// second apart (a big window without a GPU under load), longer than the tiles' slide and the
/// rising "+N" last, the key's own frame shows the board after the move, its tiles on their
/// way, and the points won; the next frame shows the board at rest.
#[test]
fn a_key_is_answered_by_its_own_frame_with_the_slide_and_the_points_when_frames_are_a_second_apart()
{
    let dir = common::temp_dir("pace-answer");
    let mut h = common::harness(&dir, Some("2048"));
    let mut t = time(&h) + 1.0;
    let mut scored = 0;
    for _ in 0..60 {
        let session = h.state().session("2048").unwrap();
        let (before, score) = (session.text(), session.score());
        let mv = session.legal_moves()[0].clone();
        set_time(&mut h, t);
        h.key_press(common::key_of(&mv));
        h.step();
        let session = h.state().session("2048").unwrap();
        assert_ne!(session.text(), before, "the key played {mv}");
        let gained = session.score() - score;
        // The key's own frame: the board after the move (each cell says what it holds now),
        // its tiles drawn on their way, and the "+N" of the points won.
        common::assert_cells_speak(&h, "2048");
        assert!(
            !tiles_at_rest(&h),
            "{mv}: the key's frame shows the tiles sliding: {:?}",
            painted_tiles(&h)
        );
        if gained > 0 {
            assert_eq!(pops(&h), vec![format!("+{gained}")], "{mv}");
            scored += 1;
        } else {
            assert_eq!(pops(&h), Vec::<String>::new(), "{mv}");
        }
        // A second later: the tiles at rest in their cells, the "+N" gone.
        t += 1.0;
        set_time(&mut h, t);
        h.step();
        assert!(tiles_at_rest(&h), "{mv}: {:?}", painted_tiles(&h));
        assert_eq!(pops(&h), Vec::<String>::new(), "{mv}");
        common::assert_cells_speak(&h, "2048");
        t += 1.0;
        if scored == 3 {
            break;
        }
    }
    assert_eq!(scored, 3, "three moves that won points");
}

/// Without a GPU each pixel painted costs time in every frame: the game screen's panels leave
/// the window to its clear, which is their colour, in both themes, and the only fill as large
/// as a quarter of the window is the board's.
#[test]
fn the_game_screen_paints_no_panel_fill_over_the_windows_clear() {
    use eframe::App as _;
    fn large_fills(shape: &egui::Shape, least: f32, out: &mut Vec<egui::Rect>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| large_fills(s, least, out)),
            egui::Shape::Rect(r) if r.fill.a() > 0 && r.rect.area() > least => out.push(r.rect),
            _ => {}
        }
    }
    let dir = common::temp_dir("pace-fill");
    let path = dir.to_path_buf();
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1200.0))
        .with_max_steps(common::MAX_STEPS)
        .build_eframe(move |_cc| TileboxApp::new(path, Some("2048")));
    h.run();
    let mut themes = Vec::new();
    for _ in 0..3 {
        let visuals = h.ctx.global_style().visuals.clone();
        themes.push(visuals.dark_mode);
        assert_eq!(
            h.state().clear_color(&visuals),
            visuals.panel_fill.to_normalized_gamma_f32()
        );
        let least = h.ctx.content_rect().area() / 4.0;
        let board = h.get_by_label(tilebox::views::sliding::BOARD_LABEL).rect();
        let mut large = Vec::new();
        for clipped in &h.output().shapes {
            large_fills(&clipped.shape, least, &mut large);
        }
        // The board's fill, to a hundredth of a point (its rect and its label's are worked out
        // apart, in floating point).
        let near =
            |r: &egui::Rect| (r.min - board.min).length() + (r.max - board.max).length() < 0.01;
        assert!(
            large.len() == 1 && large.iter().all(near),
            "dark mode {}: {large:?} beside the board {board:?}",
            visuals.dark_mode
        );
        // The next theme.
        h.key_press(Key::T);
        h.run();
    }
    assert!(
        themes.contains(&true) && themes.contains(&false),
        "{themes:?}"
    );
}
