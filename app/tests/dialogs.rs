//! The win, game-over and new-game messages answer from the keyboard: each has a default
//! answer on Return (Keep going; Play again; No, keep playing), its keys written on its
//! buttons, Escape doing the safe thing, and the focus inside it from the start. Strike 9's
//! game over leaves the dice and the tiles in sight.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{harness, key_of, temp_dir, write_save};
use egui::Key;
use egui_kittest::kittest::{NodeT, Queryable};
use tilebox_core::{Puzzle, Session};
use tilebox_strike9::{Strike9, TileSet};

/// The key a dialog's button shows and gives screen readers.
fn shortcut(h: &egui_kittest::Harness<'_, tilebox::TileboxApp>, label: &str) -> String {
    h.get_by_label(label)
        .accesskit_node()
        .data()
        .keyboard_shortcut()
        .map(str::to_string)
        .unwrap_or_default()
}

/// A 2048 game (on the 8×8 board) with the win on the screen; returns its id.
fn win_shown(
    h_dir: &std::path::Path,
) -> (egui_kittest::Harness<'static, tilebox::TileboxApp>, String) {
    let (session, last) = common::nearly_2048();
    let id = common::write_entry_save(h_dir, &session);
    let mut h = harness(h_dir, Some(&id));
    h.key_press(key_of(&last));
    h.run();
    h.get_by_label("You win!");
    (h, id)
}

/// Presses Return on the message `heading` over game `id`: it is gone, and the game is still
/// shown, with its `moves` (Keep going, No, keep playing).
fn return_keeps_the_game(
    h: &mut egui_kittest::Harness<'_, tilebox::TileboxApp>,
    heading: &str,
    id: &str,
    moves: usize,
) {
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label(heading).is_none());
    assert_eq!(h.state().current_game(), Some(id));
    assert_eq!(h.state().session(id).unwrap().move_count(), moves);
}

#[test]
fn return_keeps_going_after_the_win_and_the_keys_are_on_the_buttons() {
    let dir = temp_dir("dialog-win-return");
    let (mut h, id) = win_shown(&dir);
    assert_eq!(shortcut(&h, "Keep going"), "Return");
    assert_eq!(shortcut(&h, "Start a new game"), "N");
    let moves = h.state().session(&id).unwrap().move_count();
    return_keeps_the_game(&mut h, "You win!", &id, moves);
}

#[test]
fn escape_keeps_going_after_the_win_and_stays_in_the_game() {
    let dir = temp_dir("dialog-win-escape");
    let (mut h, id) = win_shown(&dir);
    h.key_press(Key::Escape);
    h.run();
    assert!(h.query_by_label("You win!").is_none());
    assert_eq!(h.state().current_game(), Some(id.as_str()));
}

#[test]
fn the_focus_starts_in_the_win_message_so_tab_and_return_never_reach_back() {
    let dir = temp_dir("dialog-win-tab");
    let (mut h, id) = win_shown(&dir);
    assert!(h.get_by_label("Keep going").accesskit_node().is_focused());
    // Tab moves to the second answer, and Return gives it: a new game, in the same game.
    h.key_press(Key::Tab);
    h.run();
    assert!(
        h.get_by_label("Start a new game")
            .accesskit_node()
            .is_focused()
    );
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().current_game(), Some(id.as_str()));
    assert_eq!(h.state().session(&id).unwrap().move_count(), 0);
    assert!(h.query_by_label("You win!").is_none());
}

/// Plays the first legal move until the game is over; returns the session one move before.
fn nearly_over<P: Puzzle>(seed: u64) -> (Session<P>, String) {
    common::play_until::<P>(P::Params::default(), seed, common::first_legal::<P>, |st| {
        st.over
    })
    .unwrap()
}

/// A game of 2048 over `dir` with its game-over message on the screen.
fn game_over_shown(dir: &std::path::Path) -> egui_kittest::Harness<'static, tilebox::TileboxApp> {
    let (session, last) = nearly_over::<tilebox_sliding::Sliding>(7);
    write_save(dir, &session.save());
    let mut h = harness(dir, Some("2048"));
    h.key_press(key_of(&last));
    h.run();
    h.get_by_label("Game over");
    h
}

#[test]
fn return_plays_again_after_game_over() {
    let dir = temp_dir("dialog-over-return");
    let mut h = game_over_shown(&dir);
    assert_eq!(shortcut(&h, "Play again"), "Return");
    assert_eq!(shortcut(&h, "Take back the last move"), "U");
    assert!(h.get_by_label("Play again").accesskit_node().is_focused());
    // A move after the end is not refused in a message of its own: the end says it.
    for key in [
        Key::ArrowLeft,
        Key::ArrowRight,
        Key::ArrowUp,
        Key::ArrowDown,
    ] {
        h.key_press(key);
        h.run();
    }
    assert_eq!(h.state().message("2048"), None);
    // The arrows were moves, not moves of the focus: Return still answers "Play again".
    assert!(h.get_by_label("Play again").accesskit_node().is_focused());
    assert!(!h.state().assisted("2048"));
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label("Game over").is_none());
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);
    assert_eq!(h.state().current_game(), Some("2048"));
}

#[test]
fn the_new_game_question_has_its_keys_on_its_buttons_and_the_focus_on_no() {
    let dir = temp_dir("dialog-question");
    let mut h = harness(&dir, Some("2048"));
    let mv = h.state().session("2048").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    h.key_press(Key::N);
    h.run();
    h.get_by_label("Start a new game?");
    assert_eq!(shortcut(&h, "No, keep playing"), "N or Return");
    assert_eq!(shortcut(&h, "Yes, start a new game"), "Y");
    assert!(
        h.get_by_label("No, keep playing")
            .accesskit_node()
            .is_focused()
    );
    // Said once: the keys are on the buttons, not in a line of their own too.
    assert!(h.query_by_label_contains("Escape: no").is_none());
}

#[test]
fn strike9_game_over_leaves_the_dice_and_tiles_in_sight_and_says_it_once() {
    let dir = temp_dir("dialog-strike9");
    let (session, last) = nearly_over::<Strike9>(3);
    write_save(&dir, &session.save());
    let mut h = harness(&dir, Some("strike9"));
    let tiles: TileSet = last.parse().unwrap();
    for t in tiles.tiles() {
        h.get_by_label(&format!("tile {t}, open")).click();
        h.run();
    }
    assert!(h.state().session("strike9").unwrap().status().over);
    let message = h
        .get_by_label("Game over")
        .rect()
        .union(h.get_by_label("Play again").rect())
        .union(h.get_by_label("Take back the last move").rect());
    let mut seen = 0;
    for (text, rect) in common::spoken_all(&h) {
        if text.starts_with("tile ") || text.starts_with("Dice ") || text.starts_with("Die ") {
            seen += 1;
            assert!(
                !rect.intersects(message),
                "{text:?} at {rect:?} is under the message at {message:?}"
            );
        }
    }
    assert!(seen >= 10, "{seen}");
    // A tile clicked after the end adds no message of its own under the board.
    let open = common::spoken_all(&h)
        .into_iter()
        .map(|(text, _)| text)
        .find(|text| text.starts_with("tile ") && text.ends_with(", open"))
        .unwrap();
    h.get_by_label(&open).click();
    h.run();
    assert_eq!(h.state().message("strike9"), None);
}

#[test]
fn arrows_on_the_board_never_move_the_keyboard_focus() {
    // On a board the arrows are moves. Were they also egui's moves of the focus, a player who
    // had tabbed to a button would walk the focus onto another (Undo) while playing, and Return
    // would then press that.
    let dir = temp_dir("dialog-arrows-focus");
    let mut h = harness(&dir, Some("2048"));
    h.key_press(Key::Tab);
    h.run();
    let focused = |h: &egui_kittest::Harness<'_, tilebox::TileboxApp>| {
        h.query_by(|node| node.is_focused())
            .and_then(|node| node.accesskit_node().label())
    };
    let before = focused(&h);
    assert!(before.is_some(), "Tab focuses a control");
    for key in [
        Key::ArrowDown,
        Key::ArrowRight,
        Key::ArrowDown,
        Key::ArrowLeft,
        Key::ArrowUp,
    ] {
        h.key_press(key);
        h.run();
        assert_eq!(focused(&h), before);
    }
}

/// What the control with the keyboard focus says, if one has it.
fn focused(h: &egui_kittest::Harness<'_, tilebox::TileboxApp>) -> Option<String> {
    h.query_by(|node| node.is_focused())
        .and_then(|node| common::spoken(&node))
}

/// Presses Tab, then Shift+Tab, many times each over the open dialog whose controls are
/// `inside`: after each, the focus is on one of them, never on anything behind the dialog, and
/// every one of them is reached both ways.
fn tab_around(h: &mut egui_kittest::Harness<'_, tilebox::TileboxApp>, inside: &[&str]) {
    for shift in [false, true] {
        let mut reached = std::collections::BTreeSet::new();
        for press in 0..3 * inside.len() + 1 {
            if shift {
                h.key_press_modifiers(egui::Modifiers::SHIFT, Key::Tab);
            } else {
                h.key_press(Key::Tab);
            }
            h.run();
            let at = focused(h);
            assert!(
                at.as_deref().is_some_and(|at| inside.contains(&at)),
                "{} {press}: the focus is on {at:?}, outside the dialog's {inside:?}",
                if shift { "Shift+Tab" } else { "Tab" },
            );
            reached.extend(at);
        }
        assert_eq!(reached.len(), inside.len(), "{reached:?} of {inside:?}");
    }
}

/// Presses Tab until the focus is on `label` (in the dialog, by [`tab_around`]).
fn tab_to(h: &mut egui_kittest::Harness<'_, tilebox::TileboxApp>, label: &str) {
    for _ in 0..10 {
        if focused(h).as_deref() == Some(label) {
            return;
        }
        h.key_press(Key::Tab);
        h.run();
    }
    panic!("Tab never reached {label}");
}

#[test]
fn tab_stays_in_the_win_message_and_return_never_leaves_the_game() {
    let dir = temp_dir("dialog-win-trap");
    let (mut h, id) = win_shown(&dir);
    let moves = h.state().session(&id).unwrap().move_count();
    // The third Tab once rang Back in the bar behind, and Return then left the game.
    tab_around(&mut h, &["Keep going", "Start a new game"]);
    tab_to(&mut h, "Keep going");
    return_keeps_the_game(&mut h, "You win!", &id, moves);
}

#[test]
fn tab_stays_in_the_game_over_message() {
    let dir = temp_dir("dialog-over-trap");
    let mut h = game_over_shown(&dir);
    tab_around(&mut h, &["Play again", "Take back the last move"]);
    tab_to(&mut h, "Take back the last move");
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label("Game over").is_none());
    assert_eq!(h.state().current_game(), Some("2048"));
    assert!(!h.state().session("2048").unwrap().status().over);
}

/// Game `id` opened with a move played, so that a new game is asked about first.
fn game_with_a_move(
    dir: &std::path::Path,
    id: &str,
) -> egui_kittest::Harness<'static, tilebox::TileboxApp> {
    let mut h = harness(dir, Some(id));
    let mv = h.state().session(id).unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    h
}

#[test]
fn tab_stays_in_the_new_game_and_daily_game_questions() {
    let dir = temp_dir("dialog-question-trap");
    let mut h = game_with_a_move(&dir, "2048");
    let moves = h.state().session("2048").unwrap().move_count();
    for open in [Key::N, Key::D] {
        if open == Key::D {
            h.key_press_modifiers(egui::Modifiers::SHIFT, open);
        } else {
            h.key_press(open);
        }
        h.run();
        h.get_by_label("Start a new game?");
        tab_around(&mut h, &["No, keep playing", "Yes, start a new game"]);
        tab_to(&mut h, "No, keep playing");
        return_keeps_the_game(&mut h, "Start a new game?", "2048", moves);
    }
}

/// A Tab pressed with the Escape that closes a dialog (in the same step, as the window gets
/// them: its input cut before egui reads it) moves the focus in the screen behind: the dialog's
/// hold on the focus ends with it, not a frame later.
#[test]
fn tab_with_the_escape_that_closes_a_dialog_moves_the_focus_behind() {
    let dir = temp_dir("dialog-close-tab");
    let mut h = game_with_a_move(&dir, "2048");
    h.key_press(Key::N);
    h.run();
    h.get_by_label("Start a new game?");
    h.key_press(Key::Escape);
    h.key_press(Key::Tab);
    for _ in 0..4 {
        common::step_as_the_window(&mut h);
    }
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_eq!(h.state().current_game(), Some("2048"));
    assert_eq!(focused(&h).as_deref(), Some("Back"), "the Tab went nowhere");
}

#[test]
fn tab_stays_in_the_code_dialog() {
    use tilebox::screens::codes::{CLOSE_LABEL, CODE_HEADING, COPY_LABEL};
    let dir = temp_dir("dialog-code-trap");
    let mut h = game_with_a_move(&dir, "2048");
    h.key_press_modifiers(egui::Modifiers::SHIFT, Key::C);
    h.run();
    h.get_by_label(CODE_HEADING);
    tab_around(&mut h, &[COPY_LABEL, CLOSE_LABEL]);
    tab_to(&mut h, CLOSE_LABEL);
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label(CODE_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("2048"));
}

#[test]
fn tab_stays_in_play_a_code_and_add_this_game() {
    use tilebox::screens::codes::{
        ADD_GAME_HEADING, ADD_LABEL, CANCEL_LABEL, CODE_FIELD_LABEL, DONT_ADD_LABEL, PLAY_LABEL,
    };
    let dir = temp_dir("dialog-play-code-trap");
    let mut h = harness(&dir, None);
    h.key_press(Key::C);
    h.run();
    h.get_by_label(CODE_FIELD_LABEL);
    tab_around(&mut h, &[CODE_FIELD_LABEL, PLAY_LABEL, CANCEL_LABEL]);
    tab_to(&mut h, CANCEL_LABEL);
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label(CODE_FIELD_LABEL).is_none());
    assert_eq!(h.state().current_game(), None);
    // A 7×7 board of 2048: rules no game here has, offered as a game of one's own.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["code", "2048", "--seed", "5", "--params", r#"{"side":7}"#];
    let status = tilebox_cli::run(
        &tilebox_games::registry(),
        std::iter::once("tilebox-cli").chain(args),
        &mut std::io::empty(),
        &mut out,
        &mut err,
    );
    assert_eq!(status, 0, "{}", String::from_utf8_lossy(&err));
    let code = String::from_utf8(out).unwrap();
    h.key_press(Key::C);
    h.run();
    h.get_by_label(CODE_FIELD_LABEL).type_text(code.trim_end());
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.get_by_label(ADD_GAME_HEADING);
    tab_around(&mut h, &[ADD_LABEL, DONT_ADD_LABEL]);
    tab_to(&mut h, DONT_ADD_LABEL);
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), None);
    assert!(h.state().registry().get("2048-code").is_none());
}

/// A disk whose writes never come back, so that quitting waits for them.
struct StuckDisk;

impl tilebox::store::storage::Disk for StuckDisk {
    fn write(&self, _file: &mut tempfile::NamedTempFile, _bytes: &[u8]) -> std::io::Result<()> {
        loop {
            std::thread::park();
        }
    }
}

#[test]
fn tab_stays_in_the_quit_window_and_return_never_acts_behind_it() {
    let dir = temp_dir("dialog-quit-trap");
    let storage = tilebox::store::storage::Storage::with_disk(&dir, std::sync::Arc::new(StuckDisk));
    let mut h = common::harness_with_writer(tilebox::store::writer::Writer::start(storage), "2048");
    let mv = h.state().session("2048").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    common::close_window(&mut h);
    // While it says what it is saving, it has no control, and Tab focuses nothing behind it.
    h.key_press(Key::Tab);
    h.step();
    assert_eq!(focused(&h), None);
    for _ in 0..40 {
        if h.query_by_label("Keep playing").is_some() {
            break;
        }
        h.step();
    }
    tab_around(&mut h, &["Quit without saving them", "Keep playing"]);
    tab_to(&mut h, "Keep playing");
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label("Keep playing").is_none());
    assert_eq!(h.state().current_game(), Some("2048"));
    assert!(!common::asked_to_close(&h));
}

#[test]
fn at_380_px_strike9_over_shows_its_last_line_whole() {
    let dir = temp_dir("dialog-strike9-380");
    let (session, last) = nearly_over::<Strike9>(3);
    write_save(&dir, &session.save());
    let app_dir = dir.to_path_buf();
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(380.0, 600.0))
        .with_max_steps(common::MAX_STEPS)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| tilebox::TileboxApp::new(app_dir, Some("strike9")));
    common::read_histories(&mut h);
    h.run();
    let tiles: TileSet = last.parse().unwrap();
    for t in tiles.tiles() {
        h.get_by_label(&format!("tile {t}, open")).click();
        h.run();
    }
    let over = h.state().session("strike9").unwrap();
    assert!(over.status().over);
    let lines = over.commentary();
    assert!(!lines.is_empty(), "the last move's line");
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::Vec2::new(380.0, 600.0));
    for line in lines.iter().chain(
        ["Game over", "Play again", "Take back the last move"]
            .map(String::from)
            .iter(),
    ) {
        let rect = h.get_by_label(line).rect();
        assert!(
            window.contains_rect(rect),
            "{line:?} at {rect:?} is cut by the window"
        );
    }
}
