//! The shell made of screens: keys pressed while a screen changes reach the screen they open,
//! in order, and each screen opens at its top.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::store::history::Record;
use tilebox::{Screen, TileboxApp};
use tilebox_core::DynSession;

/// The moves `keys` (arrows) play from the start of `session`'s game, as its entry plays them
/// one by one: the moves that change the board.
fn moves_played_by(h: &Harness<'_, TileboxApp>, id: &str, arrows: &[&str]) -> Vec<String> {
    let seed = h.state().session(id).unwrap().save().seed;
    let registry = tilebox_games::registry();
    let mut session = registry.get(id).unwrap().new_session(seed).unwrap();
    arrows
        .iter()
        .filter(|mv| session.play_text(mv).is_ok_and(|changed| changed > 0))
        .map(|mv| mv.to_string())
        .collect()
}

const ARROWS: [&str; 4] = ["L", "D", "R", "U"];

/// Puts `keys` into the harness's next frame, all of them, as a window does when keys come
/// faster than its frames: each is pressed and released, and a key that types (a digit, a
/// letter) brings its text, as winit sends it. Then runs that one frame and the ones after.
/// (`Harness::key_press` would give each event a frame of its own, which never loses a key.)
fn press_in_one_frame(h: &mut Harness<'_, TileboxApp>, keys: &[(Modifiers, Key)]) {
    let events = &mut h.input_mut().events;
    for &(modifiers, key) in keys {
        events.push(egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers,
        });
        let name = key.name();
        if name.chars().count() == 1 {
            let text = if modifiers.shift {
                name.to_string()
            } else {
                name.to_lowercase()
            };
            events.push(egui::Event::Text(text));
        }
        events.push(egui::Event::Key {
            key,
            physical_key: None,
            pressed: false,
            repeat: false,
            modifiers,
        });
    }
    h.step();
    h.run();
}

/// `keys` with no modifier, for [`press_in_one_frame`].
fn plain(keys: impl IntoIterator<Item = Key>) -> Vec<(Modifiers, Key)> {
    keys.into_iter().map(|k| (Modifiers::NONE, k)).collect()
}

#[test]
fn a_cards_number_then_four_arrows_in_one_frame_plays_four_moves_in_the_game_it_opens() {
    let dir = common::temp_dir("screens-keys");
    let mut h = common::harness(&dir, None);
    assert_eq!(h.state().screen(), Screen::Launcher);
    // Card 2 is Threes, a game of its own; all five keys go in one frame.
    let keys = std::iter::once(Key::Num2).chain(ARROWS.map(common::key_of));
    press_in_one_frame(&mut h, &plain(keys));
    assert_eq!(h.state().current_game(), Some("threes"));
    let played = h.state().session("threes").unwrap().save().moves;
    let expected = moves_played_by(&h, "threes", &ARROWS);
    assert!(expected.len() >= 2, "{expected:?}");
    assert_eq!(played, expected);
    assert_eq!(
        h.state().session("threes").unwrap().move_count(),
        expected.len()
    );
}

#[test]
fn keys_go_on_through_a_group_to_its_game_in_order() {
    let dir = common::temp_dir("screens-chain");
    let mut h = common::harness(&dir, None);
    let registry = tilebox_games::registry();
    let groups = registry.groups();
    let (_, members) = &groups[0];
    assert!(members.len() > 1, "the first card is a group");
    let first = registry.entries()[members[0]].id().to_string();
    // The group's card, its first entry's card, then the arrows: one frame.
    let keys = [Key::Num1, Key::Num1]
        .into_iter()
        .chain(ARROWS.map(common::key_of));
    press_in_one_frame(&mut h, &plain(keys));
    assert_eq!(h.state().current_game(), Some(first.as_str()));
    let played = h.state().session(&first).unwrap().save().moves;
    let expected = moves_played_by(&h, &first, &ARROWS);
    assert!(expected.len() >= 2, "{expected:?}");
    assert_eq!(played, expected);
}

/// The entry of the history in the replay test: short games.
const ID: &str = "2048-3x3";

/// A game of `ID` from `seed` played to its end by a simple player.
fn played(seed: u64) -> Box<dyn DynSession> {
    let registry = tilebox_games::registry();
    let mut s = registry.get(ID).unwrap().new_session(seed).unwrap();
    let order = ["D", "L", "R", "U"];
    loop {
        let legal = s.legal_moves();
        let Some(mv) = order.iter().find(|m| legal.iter().any(|l| l == *m)) else {
            break;
        };
        s.play_text(mv).unwrap();
    }
    s
}

#[test]
fn statistics_then_r_in_one_frame_replays_the_best_game() {
    let dir = common::temp_dir("screens-replay");
    let records: Vec<Record> = (1..=3)
        .map(|seed| {
            Record::of(
                ID,
                played(seed).as_ref(),
                &tilebox::store::tally::Tally::default(),
                None,
                1000,
                format!("2026-11-0{seed}T12:00:00Z"),
            )
        })
        .collect();
    common::write_history(&dir, ID, &records);
    let best = records.iter().map(|r| r.score).max().unwrap();
    let best = records.iter().find(|r| r.score == best).unwrap();

    let mut h = common::harness(&dir, Some(ID));
    let index = h
        .state()
        .registry()
        .entries()
        .iter()
        .position(|e| e.id() == ID)
        .unwrap();
    assert_eq!(h.state().screen(), Screen::Game(index));
    press_in_one_frame(
        &mut h,
        &[(Modifiers::SHIFT, Key::S), (Modifiers::NONE, Key::R)],
    );
    assert_eq!(h.state().screen(), Screen::Replay(index));
    let (session, position) = h.state().replay().unwrap();
    assert_eq!(position, (0, best.moves.len()));
    assert_eq!(session.save().seed, best.seed);
}

#[test]
fn a_group_opens_at_its_top_after_the_launcher_was_scrolled_down() {
    let dir = common::temp_dir("screens-scroll");
    let size = Vec2::new(360.0, 600.0);
    let mut h = Harness::builder()
        .with_size(size)
        .with_max_steps(40)
        .with_step_dt(0.25)
        .build_eframe({
            let dir = dir.to_path_buf();
            move |_cc| TileboxApp::new(dir, None)
        });
    common::read_histories(&mut h);
    h.run();
    // Scroll the list of games to its end.
    h.hover_at(egui::pos2(180.0, 400.0));
    for _ in 0..4 {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: Vec2::new(0.0, -2000.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: Modifiers::NONE,
        });
        h.run();
    }
    let heading = h.get_by_label("Tilebox").rect();
    assert!(
        heading.bottom() < 0.0,
        "the launcher is scrolled: {heading:?}"
    );

    // The first card is a group (2048's boards): its page opens at its top.
    let registry = tilebox_games::registry();
    let title = registry.groups()[0].0.to_string();
    h.key_press(Key::Num1);
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(0));
    let in_view = |r: egui::Rect| r.top() >= 0.0 && r.bottom() <= size.y;
    let back = h.get_by_label("Back").rect();
    assert!(in_view(back), "Back is out of view: {back:?}");
    let heading = h
        .get_all_by_label(&title)
        .map(|n| n.rect())
        .min_by(|a, b| a.top().total_cmp(&b.top()))
        .unwrap();
    assert!(in_view(heading), "the title is out of view: {heading:?}");
}

/// A game of 2048 with one move played, so that a new game asks first.
fn a_game_with_a_move(name: &str) -> (common::TestDir, Harness<'static, TileboxApp>) {
    let dir = common::temp_dir(name);
    let mut h = common::harness(&dir, Some("2048"));
    for mv in ARROWS {
        h.key_press(common::key_of(mv));
        h.run();
        if h.state().session("2048").unwrap().move_count() > 0 {
            return (dir, h);
        }
    }
    panic!("no arrow moved the first board");
}

#[test]
fn keys_after_the_answer_to_the_new_game_question_play_in_the_new_game() {
    let (_dir, mut h) = a_game_with_a_move("screens-new-game");
    let old_seed = h.state().session("2048").unwrap().save().seed;
    let keys = [Key::N, Key::Y]
        .into_iter()
        .chain(ARROWS.map(common::key_of));
    press_in_one_frame(&mut h, &plain(keys));
    let session = h.state().session("2048").unwrap();
    assert_ne!(session.save().seed, old_seed, "a new game started");
    let expected = moves_played_by(&h, "2048", &ARROWS);
    assert!(expected.len() >= 2, "{expected:?}");
    assert_eq!(session.save().moves, expected);
}

#[test]
fn keys_after_closing_the_code_dialog_play_in_the_game() {
    let (_dir, mut h) = a_game_with_a_move("screens-code");
    let before = h.state().session("2048").unwrap().save().moves;
    let mut keys = vec![(Modifiers::SHIFT, Key::C), (Modifiers::NONE, Key::Escape)];
    keys.extend(plain(ARROWS.map(common::key_of)));
    press_in_one_frame(&mut h, &keys);
    assert_eq!(h.state().current_game(), Some("2048"));
    let after = h.state().session("2048").unwrap().save().moves;
    assert!(after.starts_with(&before), "{before:?} then {after:?}");
    // The arrows after Escape are played, each one that moves the board.
    let seed = h.state().session("2048").unwrap().save().seed;
    let registry = tilebox_games::registry();
    let mut replay = registry.get("2048").unwrap().new_session(seed).unwrap();
    for mv in &before {
        replay.play_text(mv).unwrap();
    }
    let expected: Vec<String> = ARROWS
        .iter()
        .filter(|mv| replay.play_text(mv).is_ok_and(|changed| changed > 0))
        .map(|mv| mv.to_string())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(after[before.len()..], expected[..]);
}

#[test]
fn a_tab_pressed_with_the_key_that_opens_a_game_moves_the_focus_in_the_game() {
    let dir = common::temp_dir("screens-tab");
    let mut h = common::harness(&dir, None);
    let events = &mut h.input_mut().events;
    for key in [Key::Num2, Key::Tab] {
        for pressed in [true, false] {
            events.push(egui::Event::Key {
                key,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers: Modifiers::NONE,
            });
            if key == Key::Num2 && pressed {
                events.push(egui::Event::Text("2".into()));
            }
        }
    }
    for _ in 0..4 {
        common::step_as_the_window(&mut h);
    }
    assert_eq!(h.state().current_game(), Some("threes"));
    // egui moved the focus by the Tab in the game's screen, not in the launcher's.
    let focused = h
        .query_all(egui_kittest::kittest::By::new())
        .find(|n| n.is_focused())
        .and_then(|n| common::spoken(&n));
    assert_eq!(focused.as_deref(), Some("Back"));
}
