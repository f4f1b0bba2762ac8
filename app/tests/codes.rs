//! Game codes and the daily game in the app: a game's code shown and copied from its bar, the
//! launcher's "Play a code" (the same board on another machine, a mistyped code refused, a game
//! in progress asked about first), codes that go both ways between the app and the command-line
//! tool, and today's daily game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{harness, key_of, temp_dir};
use std::time::Duration;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tilebox::screens::codes::{
    ADD_GAME_HEADING, ADD_LABEL, CANCEL_LABEL, CODE_FIELD_LABEL, CODE_HEADING, CODE_LABEL,
    COPIED_TEXT, DAILY_LABEL, PLAY_CODE_LABEL, PLAY_LABEL, daily_mark,
};
use tilebox::{Screen, TileboxApp};
use tilebox_core::date::Date;
use tilebox_core::{GameCode, daily_seed};

/// The code the open code dialog shows: the one text on the screen that reads as a code.
fn shown_code(h: &Harness<'_, TileboxApp>) -> String {
    let codes: Vec<String> = common::spoken_all(h)
        .into_iter()
        .map(|(text, _)| text)
        .filter(|text| text.parse::<GameCode>().is_ok())
        .collect();
    assert_eq!(codes.len(), 1, "{codes:?}");
    codes[0].clone()
}

/// Plays the first legal move of game `id`, by its key.
fn play_a_move(h: &mut Harness<'_, TileboxApp>, id: &str) {
    let mv = h.state().session(id).unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    assert!(h.state().session(id).unwrap().move_count() > 0);
}

/// Opens "Play a code" in the launcher by its key, types `code` and plays it with Return.
fn play_code(h: &mut Harness<'_, TileboxApp>, code: &str) {
    h.key_press(Key::C);
    h.run();
    let field = h.get_by_label(CODE_FIELD_LABEL);
    assert!(
        field.accesskit_node().is_focused(),
        "the field has the focus"
    );
    field.type_text(code);
    h.run();
    h.key_press(Key::Enter);
    h.run();
}

/// Today, in UTC, as the app reads it.
fn today() -> Date {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    Date::of_unix(seconds as i64)
}

#[test]
fn a_games_code_is_shown_copied_and_plays_the_same_board_elsewhere() {
    let dir = temp_dir("codes-show");
    let mut h = harness(&dir, Some("2048"));
    let start = h.state().session("2048").unwrap().text();
    play_a_move(&mut h, "2048");
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    h.get_by_label(CODE_HEADING);
    let code = shown_code(&h);
    let session = h.state().session("2048").unwrap();
    let parsed: GameCode = code.parse().unwrap();
    assert_eq!(parsed.entry, "2048");
    assert_eq!(parsed.seed, session.seed());
    assert_eq!(parsed.params, None);
    // The focus is on Copy, whose key is Return: Return copies the code.
    assert!(h.get_by_label("Copy").accesskit_node().is_focused());
    // The frame of the key's press is the one that copies.
    h.key_down(Key::Enter);
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .any(|c| matches!(c, egui::OutputCommand::CopyText(text) if *text == code));
    assert!(copied, "{:?}", h.output().platform_output.commands);
    h.key_up(Key::Enter);
    h.run();
    h.get_by_label(COPIED_TEXT);
    // Keys are the dialog's while it is open: an arrow moves nothing.
    let moves = h.state().session("2048").unwrap().move_count();
    h.key_press(Key::ArrowUp);
    h.key_press(Key::ArrowLeft);
    h.run();
    assert_eq!(h.state().session("2048").unwrap().move_count(), moves);
    // Escape closes the dialog, and only the dialog.
    h.key_press(Key::Escape);
    h.run();
    assert!(h.query_by_label(CODE_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("2048"));

    // On another machine (another data directory): the same board, from its start.
    let other = temp_dir("codes-show-elsewhere");
    let mut h = harness(&other, None);
    play_code(&mut h, &code);
    assert!(
        h.query_by_label(CODE_FIELD_LABEL).is_none(),
        "the dialog closed"
    );
    assert_eq!(h.state().current_game(), Some("2048"));
    let played = h.state().session("2048").unwrap();
    assert_eq!(played.text(), start);
    assert_eq!(played.seed(), parsed.seed);
    assert_eq!(played.move_count(), 0);
}

#[test]
fn the_code_button_opens_the_dialog_and_close_closes_it() {
    let dir = temp_dir("codes-button");
    let mut h = harness(&dir, Some("strike9"));
    h.get_by_label(CODE_LABEL).click();
    h.run();
    let code = shown_code(&h);
    let seed = h.state().session("strike9").unwrap().seed();
    assert_eq!(
        code.parse::<GameCode>().unwrap(),
        GameCode {
            entry: "strike9".into(),
            seed,
            params: None
        }
    );
    // Tab reaches Close; Return on it closes.
    h.key_press(Key::Tab);
    h.run();
    assert!(h.get_by_label("Close").accesskit_node().is_focused());
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label(CODE_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("strike9"));
}

#[test]
fn a_mistyped_or_unknown_code_is_refused_in_the_dialog_and_starts_nothing() {
    let dir = temp_dir("codes-refused");
    let mut h = harness(&dir, None);
    let good = GameCode {
        entry: "threes".into(),
        seed: 123_456,
        params: None,
    }
    .to_string();
    // One character of the seed changed.
    let (id, rest) = good.split_once('.').unwrap();
    let changed = if rest.starts_with('X') { 'Y' } else { 'X' };
    let typo = format!("{id}.{changed}{}", &rest[1..]);
    play_code(&mut h, &typo);
    h.get_by_label(CODE_FIELD_LABEL);
    h.get_by_label("Mistyped? the check characters do not match");
    assert_eq!(h.state().screen(), Screen::Launcher);
    assert!(h.state().session("threes").is_none(), "no game started");
    // The field keeps the focus, to mend the code: a code of a game this Tilebox does not have.
    assert!(
        h.get_by_label(CODE_FIELD_LABEL)
            .accesskit_node()
            .is_focused()
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    let unknown = GameCode {
        entry: "no-such-game".into(),
        seed: 1,
        params: None,
    }
    .to_string();
    h.get_by_label(CODE_FIELD_LABEL).type_text(&unknown);
    h.run();
    // The refusal goes when the text changes.
    assert!(
        h.query_by_label("Mistyped? the check characters do not match")
            .is_none()
    );
    h.get_by_label("Play this code").click();
    h.run();
    h.get_by_label_contains("does not have: 'no-such-game'");
    assert_eq!(h.state().screen(), Screen::Launcher);
    // Cancel closes it, still in the launcher, and every game as it was.
    h.get_by_label(CANCEL_LABEL).click();
    h.run();
    assert!(h.query_by_label(CODE_FIELD_LABEL).is_none());
    assert_eq!(h.state().screen(), Screen::Launcher);
    assert!(h.state().session("threes").is_none());
    // Its button opens it too, the field with the focus, empty again; Escape closes it and
    // stays in the launcher.
    h.get_by_label(PLAY_CODE_LABEL).click();
    h.run();
    let field = h.get_by_label(CODE_FIELD_LABEL);
    assert!(field.accesskit_node().is_focused());
    assert_eq!(field.value().unwrap_or_default(), "");
    h.key_press(Key::Escape);
    h.run();
    assert!(h.query_by_label(CODE_FIELD_LABEL).is_none());
    assert_eq!(h.state().screen(), Screen::Launcher);
    // Keys are the launcher's again: 1 opens the first card.
    h.key_press(Key::Num1);
    h.run();
    assert_ne!(h.state().screen(), Screen::Launcher);
}

#[test]
fn a_code_over_a_game_in_progress_asks_first() {
    let dir = temp_dir("codes-ask");
    let mut h = harness(&dir, Some("threes"));
    play_a_move(&mut h, "threes");
    let kept = h.state().session("threes").unwrap().text();
    h.key_press(Key::Escape);
    h.run();
    let code = GameCode {
        entry: "threes".into(),
        seed: 77,
        params: None,
    }
    .to_string();
    // No: the game in progress stays.
    play_code(&mut h, &code);
    assert_eq!(h.state().current_game(), Some("threes"));
    h.get_by_label("Start a new game?");
    h.key_press(Key::N);
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_eq!(h.state().session("threes").unwrap().text(), kept);
    // Yes: the code's game, counted as any new game.
    h.key_press(Key::Escape);
    h.run();
    play_code(&mut h, &code);
    h.key_press(Key::Y);
    h.run();
    let session = h.state().session("threes").unwrap();
    assert_eq!(session.seed(), 77);
    assert_eq!(session.move_count(), 0);
    assert_eq!(h.state().scores().get("threes").played, 1);
}

/// Runs the command-line tool in-process on the catalogue: its stdout, which must be a
/// success's.
fn cli(args: &[&str]) -> String {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = tilebox_cli::run(
        &tilebox_games::registry(),
        std::iter::once("tilebox-cli").chain(args.iter().copied()),
        &mut std::io::empty(),
        &mut out,
        &mut err,
    );
    assert_eq!(status, 0, "{args:?}: {}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
}

#[test]
fn codes_go_both_ways_between_the_app_and_the_command_line_tool() {
    // The app's code, as the dialog shows it, starts the same game in the tool.
    for id in ["2048-5x5", "threes", "shut-the-box"] {
        let dir = temp_dir("codes-cli");
        let mut h = harness(&dir, Some(id));
        let start = h.state().session(id).unwrap().state_json();
        h.key_press_modifiers(Modifiers::SHIFT, Key::C);
        h.run();
        let code = shown_code(&h);
        let by_tool: serde_json::Value =
            serde_json::from_str(&cli(&["new", "--code", &code])).unwrap();
        assert_eq!(by_tool, start, "{id}: {code}");
    }
    // The tool's code, parameters and all, starts the same game in the app.
    let code = cli(&[
        "code",
        "strike9",
        "--seed",
        "5",
        "--params",
        r#"{"tiles":12,"score":"golf"}"#,
    ]);
    let code = code.trim_end();
    let by_tool: serde_json::Value = serde_json::from_str(&cli(&["new", "--code", code])).unwrap();
    let dir = temp_dir("codes-cli-params");
    let mut h = harness(&dir, None);
    play_code(&mut h, code);
    // It plays in the game whose rules it has (the combination of twelve tiles and golf), so
    // its scores and history go there and not to the standard Strike 9.
    let played_in = h.state().current_game().unwrap().to_string();
    assert_ne!(played_in, "strike9");
    assert!(h.state().session("strike9").is_none());
    let session = h.state().session(&played_in).unwrap();
    // The same game: everything but the name of the entry it is played under.
    let without_name = |mut state: serde_json::Value| {
        state.as_object_mut().unwrap().remove("game");
        state
    };
    assert_eq!(
        without_name(session.state_json()),
        without_name(by_tool.clone())
    );
    assert_eq!(session.state_json()["game"], played_in.as_str());
    assert_eq!(session.params_json()["tiles"], 12);
    assert_eq!(session.params_json()["score"], "golf");
    assert!(session.lower_is_better());
    // Its code in the app names that game, and gives the tool the same game.
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    let shown = shown_code(&h);
    assert!(shown.starts_with(&format!("{played_in}.")), "{shown}");
    let again: serde_json::Value = serde_json::from_str(&cli(&["new", "--code", &shown])).unwrap();
    assert_eq!(without_name(again), without_name(by_tool));
}

/// The variant a file added from a code of 2048 holds: based on 2048 (so that it stays in its
/// group), with every field of its own.
fn added_file(path: &std::path::Path) -> tilebox_sliding::Variant {
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let base = json.as_object_mut().unwrap().remove("based_on");
    assert_eq!(base, Some("2048".into()), "{}", path.display());
    serde_json::from_value(json).unwrap()
}

/// The code of a 7×7 board of 2048, seed 5: valid rules, which the tool plays, but no game of
/// the catalogue has them.
fn seven_by_seven_code() -> String {
    let code = cli(&["code", "2048", "--seed", "5", "--params", r#"{"side":7}"#]);
    code.trim_end().to_string()
}

#[test]
fn a_code_with_rules_no_game_here_has_is_offered_as_a_game_of_ones_own() {
    let code = seven_by_seven_code();
    let by_tool: serde_json::Value = serde_json::from_str(&cli(&["new", "--code", &code])).unwrap();
    let dir = temp_dir("codes-foreign-rules");
    let file = dir.join("variants").join("2048-code.json");
    let mut h = harness(&dir, None);
    // Asked first: the offer names the game and the file; Escape adds nothing.
    play_code(&mut h, &code);
    h.get_by_label(ADD_GAME_HEADING);
    h.get_by_label_contains("variants/2048-code.json");
    h.key_press(Key::Escape);
    h.run();
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), None);
    assert!(h.state().registry().get("2048-code").is_none());
    assert!(h.state().flush_writes(Duration::from_secs(10)).is_empty());
    assert!(!file.exists(), "nothing is written without a yes");
    // Yes: the game is added and the code's game starts there, the tool's very game.
    play_code(&mut h, &code);
    h.get_by_label(ADD_LABEL).click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2048-code"));
    let session = h.state().session("2048-code").unwrap();
    let without_name = |mut state: serde_json::Value| {
        state.as_object_mut().unwrap().remove("game");
        state
    };
    assert_eq!(without_name(session.state_json()), without_name(by_tool));
    assert!(h.state().session("2048").is_none());
    assert!(h.state().flush_writes(Duration::from_secs(10)).is_empty());
    let written = added_file(&file);
    assert_eq!((written.id.as_str(), written.side), ("2048-code", 7));
    assert_eq!(written.title, "2048 (from a code)");
    let mut standard = tilebox_sliding::builtin_variant("2048").unwrap();
    standard.side = 7;
    assert!(written.same_rules(&standard), "{written:?}");
    // At the next start the file is one of the player's games, and the code plays there.
    drop(h);
    let mut h = harness(&dir, None);
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    let added = h.state().registry().get("2048-code").unwrap();
    assert_eq!(added.title(), "2048 (from a code)");
    assert_eq!(
        added.info().group,
        "2048",
        "in the group of the game it named"
    );
    play_code(&mut h, &code);
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("2048-code"));
}

#[test]
fn a_code_finds_its_game_by_its_rules_whatever_its_name() {
    // 2048's rules on a 5×5 board are 2048 (5×5)'s: played there, and nothing is offered.
    let code = cli(&["code", "2048", "--seed", "5", "--params", r#"{"side":5}"#]);
    let dir = temp_dir("codes-same-rules");
    let mut h = harness(&dir, None);
    play_code(&mut h, code.trim_end());
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("2048-5x5"));
    assert!(!dir.join("variants").exists());
}

#[test]
fn adding_a_codes_game_never_writes_over_a_file() {
    // A file of that name is there, and is not a variant Tilebox reads: it is the player's,
    // and stays as it is; the game takes another name.
    let code = seven_by_seven_code();
    let dir = temp_dir("codes-no-overwrite");
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    let file = dir.join("variants").join("2048-code.json");
    std::fs::write(&file, "my notes, not JSON").unwrap();
    let mut h = harness(&dir, None);
    play_code(&mut h, &code);
    h.get_by_label_contains("variants/2048-code-2.json");
    h.get_by_label(ADD_LABEL).click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2048-code-2"));
    assert!(h.state().flush_writes(Duration::from_secs(10)).is_empty());
    h.run();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "my notes, not JSON"
    );
    assert!(h.state().message("2048-code-2").is_none());
    let written = added_file(&dir.join("variants").join("2048-code-2.json"));
    assert_eq!(written.id, "2048-code-2");
}

#[test]
fn the_daily_game_starts_from_todays_seed_is_marked_and_stays() {
    let dir = temp_dir("codes-daily");
    let mut h = harness(&dir, Some("2048"));
    let before = today();
    h.key_press_modifiers(Modifiers::SHIFT, Key::D);
    h.run();
    let after = today();
    let session = h.state().session("2048").unwrap();
    let day = [before, after]
        .into_iter()
        .find(|&d| session.seed() == daily_seed("2048", d))
        .expect("the seed of today's daily game");
    assert_eq!(session.move_count(), 0);
    h.get_by_label(&daily_mark(day));
    // Again: the daily game on the board stays as it is, moves and all.
    play_a_move(&mut h, "2048");
    let moved = h.state().session("2048").unwrap().text();
    h.get_by_label(DAILY_LABEL).click();
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_eq!(h.state().session("2048").unwrap().text(), moved);
    h.get_by_label(&daily_mark(day));
    // A new game is no daily game.
    h.key_press(Key::N);
    h.run();
    h.key_press(Key::Y);
    h.run();
    assert!(h.query_by_label(&daily_mark(day)).is_none());
    assert_ne!(
        h.state().session("2048").unwrap().seed(),
        daily_seed("2048", day)
    );
}

#[test]
fn the_daily_game_over_a_game_in_progress_asks_first_and_its_code_is_the_tools() {
    let dir = temp_dir("codes-daily-ask");
    let mut h = harness(&dir, Some("threes"));
    play_a_move(&mut h, "threes");
    h.get_by_label(DAILY_LABEL).click();
    h.run();
    h.get_by_label("Start a new game?");
    h.key_press(Key::Y);
    h.run();
    let day = today();
    let seed = h.state().session("threes").unwrap().seed();
    assert_eq!(seed, daily_seed("threes", day));
    h.get_by_label(&daily_mark(day));
    // The daily game's code is the one the tool prints for the day.
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    let printed = cli(&["daily", "threes", "--date", &day.to_string()]);
    assert_eq!(shown_code(&h), printed.trim_end());
}

#[test]
fn how_to_play_lists_the_keys_of_codes_and_the_daily_game() {
    let dir = temp_dir("codes-help");
    let mut h = harness(&dir, Some("2048"));
    h.key_press(Key::F1);
    h.run();
    h.get_by_label_contains("Shift+C: this game's code");
    h.get_by_label_contains("Shift+D: today's daily game");
}

#[test]
fn a_code_of_a_game_in_the_history_is_played_assisted() {
    // Whoever has played a game (or watched its replay) knows its tiles to come: starting it
    // again from its code counts as assisted, so no best or win comes from foresight.
    let dir = temp_dir("codes-seen-before");
    let entry = tilebox_games::registry().get("2048").unwrap().clone();
    let record = serde_json::json!({
        "format": 1, "game": "2048", "params": entry.params_json(), "seed": 77,
        "moves": [], "score": 0, "won": false, "over": false,
        "ended": "2026-11-22T10:00:00Z", "duration_ms": 0,
    });
    let history = dir.join(tilebox::store::history::history_file_name("2048"));
    std::fs::create_dir_all(history.parent().unwrap()).unwrap();
    std::fs::write(&history, format!("{record}\n")).unwrap();
    let mut h = harness(&dir, None);
    for (seed, seen) in [("78", false), ("77", true)] {
        let code = cli(&["code", "2048", "--seed", seed]);
        play_code(&mut h, code.trim_end());
        assert_eq!(h.state().session("2048").unwrap().seed().to_string(), seed);
        assert_eq!(h.state().assisted("2048"), seen, "seed {seed}");
        h.key_press(Key::Escape);
        h.run();
    }
}

/// A player's file based on 2584, as the issue wrote it: Fibonacci on a 5×5 board.
const MY_FIB: &str =
    r#"{"format":1,"id":"my-fib","title":"Fibonacci 5×5","based_on":"2584","side":5}"#;

/// A data directory of the test's own with `variants/my-fib.json` in it.
fn with_my_fib(name: &str) -> common::TestDir {
    let dir = temp_dir(name);
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    std::fs::write(dir.join("variants").join("my-fib.json"), MY_FIB).unwrap();
    dir
}

/// `code` read: it must name 2584 with a 5×5 board (my-fib's rules), and nothing else.
fn fib_on_five(code: &str) -> GameCode {
    let parsed: GameCode = code.parse().unwrap();
    assert_eq!(parsed.entry, "2584", "{code}");
    assert_eq!(
        parsed.params,
        Some(serde_json::json!({"side": 5})),
        "{code}"
    );
    parsed
}

/// A game's state without the name of the entry it is played under.
fn unnamed(mut state: serde_json::Value) -> serde_json::Value {
    state.as_object_mut().unwrap().remove("game");
    state
}

#[test]
fn a_code_of_a_players_own_variant_plays_anywhere_and_in_the_variant_where_it_is() {
    // The code names the built-in the file is based on, with the rules that differ.
    let dir = with_my_fib("codes-own-variant");
    let mut h = harness(&dir, Some("my-fib"));
    let start = h.state().session("my-fib").unwrap().state_json();
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    let code = shown_code(&h);
    let parsed = fib_on_five(&code);
    // The tool without the file plays that very game.
    let by_tool: serde_json::Value = serde_json::from_str(&cli(&["new", "--code", &code])).unwrap();
    assert_eq!(unnamed(by_tool), unnamed(start.clone()));
    // Where the file is, the code plays in it.
    h.key_press(Key::Escape);
    h.run();
    h.key_press(Key::Escape);
    h.run();
    assert!(h.state().current_game().is_none());
    play_code(&mut h, &code);
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("my-fib"));
    assert_eq!(h.state().session("my-fib").unwrap().state_json(), start);
    // Its old code, which names the file's id, still reads as it did, there.
    let old = GameCode {
        entry: "my-fib".into(),
        seed: parsed.seed,
        params: None,
    }
    .to_string();
    drop(h);
    let mut h = harness(&dir, None);
    play_code(&mut h, &old);
    assert_eq!(h.state().current_game(), Some("my-fib"));
    assert_eq!(h.state().session("my-fib").unwrap().state_json(), start);
    // Where the file is not, the game is offered, and added plays that very game.
    let other = temp_dir("codes-own-variant-elsewhere");
    let mut h = harness(&other, None);
    play_code(&mut h, &code);
    h.get_by_label(ADD_GAME_HEADING);
    h.get_by_label(ADD_LABEL).click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2584-code"));
    let added = h.state().session("2584-code").unwrap().state_json();
    assert_eq!(unnamed(added), unnamed(start));
    // Its code there is the same code: it names 2584 too.
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    assert_eq!(shown_code(&h), code);
}

#[test]
fn after_add_and_play_the_group_lists_the_added_game_and_its_number_plays_it() {
    let dir = temp_dir("codes-added-card");
    let mut h = harness(&dir, None);
    play_code(&mut h, &seven_by_seven_code());
    h.get_by_label(ADD_GAME_HEADING);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().current_game(), Some("2048-code"));
    // Back: 2048's page, which lists the game added, last, under its own title.
    h.key_press(Key::Escape);
    h.run();
    assert!(matches!(h.state().screen(), Screen::Group(_)));
    h.get_by_label("Play 2048 (from a code)");
    let titles: Vec<String> = common::spoken_all(&h)
        .into_iter()
        .map(|(text, _)| text)
        .filter(|text| text.starts_with("Play ") && text != PLAY_CODE_LABEL)
        .collect();
    assert!(!titles.iter().any(|t| t.contains("Strike 9")), "{titles:?}");
    assert_eq!(
        titles.last().map(String::as_str),
        Some("Play 2048 (from a code)")
    );
    // Its number opens it, and no other game starts.
    let number = common::card_count(&h);
    h.key_press(Key::from_name(&number.to_string()).unwrap());
    h.run();
    assert_eq!(h.state().current_game(), Some("2048-code"));
    assert!(h.state().flush_writes(Duration::from_secs(10)).is_empty());
    let saves: Vec<String> = std::fs::read_dir(dir.join("saves"))
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        !saves.iter().any(|name| name.starts_with("strike9")),
        "{saves:?}"
    );
}

#[test]
fn every_button_of_play_a_code_stays_in_sight_and_answers_with_a_refusal() {
    for size in [egui::vec2(900.0, 800.0), egui::vec2(380.0, 600.0)] {
        let dir = temp_dir("codes-refusal-buttons");
        let mut h = harness(&dir, None);
        h.set_size(size);
        h.run();
        play_code(&mut h, "nonsense");
        h.get_by_label_contains("Not a game code");
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, size);
        for label in [PLAY_LABEL, CANCEL_LABEL] {
            let rect = h.get_by_label(label).rect();
            assert!(window.contains_rect(rect), "{size:?}: {label} at {rect:?}");
        }
        // Play by a click (a click where the button is drawn): refused again, still open.
        h.get_by_label(PLAY_LABEL).click();
        h.run();
        h.get_by_label_contains("Not a game code");
        // Cancel by a click: closed.
        h.get_by_label(CANCEL_LABEL).click();
        h.run();
        assert!(
            h.query_by_label(CODE_FIELD_LABEL).is_none(),
            "{size:?}: Cancel closes the dialog"
        );
        assert_eq!(h.state().screen(), Screen::Launcher);
    }
}

#[test]
fn a_code_of_a_players_variant_comes_back_to_it_even_where_a_built_in_has_its_rules() {
    // 2048's rules on 5×5, as 2048 (5×5) has them, in a file of the player's own.
    let dir = temp_dir("codes-own-like-a-built-in");
    std::fs::create_dir_all(dir.join("variants")).unwrap();
    std::fs::write(
        dir.join("variants").join("my-five.json"),
        r#"{"format":1,"id":"my-five","title":"My five","based_on":"2048","side":5}"#,
    )
    .unwrap();
    let mut h = harness(&dir, Some("my-five"));
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    let code = shown_code(&h);
    assert!(code.starts_with("2048."), "{code}");
    h.key_press(Key::Escape);
    h.run();
    h.key_press(Key::Escape);
    h.run();
    play_code(&mut h, &code);
    assert_eq!(h.state().current_game(), Some("my-five"));
    // Elsewhere it is 2048 (5×5)'s game.
    let other = temp_dir("codes-own-like-a-built-in-elsewhere");
    let mut h = harness(&other, None);
    play_code(&mut h, &code);
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("2048-5x5"));
}

/// Plays the daily game of the game shown with Shift+D and returns its code (Shift+C) and the
/// day whose daily game it is; the dialog is closed again.
fn daily_code_of(h: &mut Harness<'_, TileboxApp>, id: &str) -> (String, Date) {
    let before = today();
    h.key_press_modifiers(Modifiers::SHIFT, Key::D);
    h.run();
    let after = today();
    let seed = h.state().session(id).unwrap().seed();
    let day = [before, after]
        .into_iter()
        .find(|&d| seed == daily_seed(id, d))
        .expect("the seed of today's daily game");
    h.key_press_modifiers(Modifiers::SHIFT, Key::C);
    h.run();
    let code = shown_code(h);
    h.key_press(Key::Escape);
    h.run();
    (code, day)
}

#[test]
fn the_daily_code_of_a_players_variant_is_the_daily_game_where_it_is_and_plays_anywhere() {
    let dir = with_my_fib("codes-own-daily");
    let mut h = harness(&dir, Some("my-fib"));
    let (code, day) = daily_code_of(&mut h, "my-fib");
    let start = h.state().session("my-fib").unwrap().state_json();
    // Its seed is the variant's own (a daily game already played stays that day's), and the
    // code names the built-in with the rules that differ: the tool's daily code of it.
    assert_eq!(fib_on_five(&code).seed, daily_seed("my-fib", day));
    let registry = h.state().registry();
    let daily = registry.daily_code(registry.get("my-fib").unwrap(), day);
    assert_eq!(code, daily.to_string());
    // Where the file is, the code is the daily game of the variant, marked as one.
    drop(h);
    let mut h = harness(&dir, None);
    play_code(&mut h, &code);
    assert_eq!(h.state().current_game(), Some("my-fib"));
    assert_eq!(h.state().session("my-fib").unwrap().state_json(), start);
    h.get_by_label(&daily_mark(day));
    // Where it is not, the very game, added as a game of one's own: no daily game there (the
    // daily game of the added game is another).
    let other = temp_dir("codes-own-daily-elsewhere");
    let mut h = harness(&other, None);
    play_code(&mut h, &code);
    h.get_by_label(ADD_LABEL).click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2584-code"));
    let added = h.state().session("2584-code").unwrap().state_json();
    assert_eq!(unnamed(added), unnamed(start));
    assert!(h.query_by_label(&daily_mark(day)).is_none());
}

#[test]
fn a_format_1_and_a_format_2_file_of_the_same_rules_have_the_same_code_and_game() {
    let one = with_my_fib("codes-format-1");
    let two = temp_dir("codes-format-2");
    std::fs::create_dir_all(two.join("variants")).unwrap();
    std::fs::write(
        two.join("variants").join("fib-two.json"),
        r#"{"format":2,"id":"fib-two","title":"Fibonacci, format 2","based_on":"2584","side":5}"#,
    )
    .unwrap();
    let code_of = |dir: &std::path::Path, id: &str| {
        let mut h = harness(dir, Some(id));
        h.key_press_modifiers(Modifiers::SHIFT, Key::C);
        h.run();
        let code = shown_code(&h);
        let seed = h.state().session(id).unwrap().seed();
        (code, seed)
    };
    let (code_one, seed) = code_of(&one, "my-fib");
    let code_two = GameCode {
        entry: "2584".into(),
        seed,
        params: Some(serde_json::json!({"side": 5})),
    }
    .to_string();
    assert_eq!(code_one, code_two);
    let (own_two, _) = code_of(&two, "fib-two");
    fib_on_five(&own_two);
    // The format-1 file's code lands in the format-2 file's game.
    let mut h = harness(&two, None);
    play_code(&mut h, &code_one);
    assert!(h.query_by_label(ADD_GAME_HEADING).is_none());
    assert_eq!(h.state().current_game(), Some("fib-two"));
}
