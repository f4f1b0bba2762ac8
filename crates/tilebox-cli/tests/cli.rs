//! Runs the `tilebox-cli` binary as a user would and checks its output and exit status against
//! the interface documented in `docs/cli.md`.

// Helpers outside #[test] functions panic too: in a test, a panic is the failure report.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use tilebox_core::{Puzzle, Session};
use tilebox_sliding::{Sliding, Variant};
use tilebox_strike9::{Odds, Strike9, TileSet};

mod common;

use common::{bench_keys, game_keys, keys_of};

/// The ids of the catalogue's entries that pass `keep`, comma-separated, as messages list them.
fn ids_where(keep: impl Fn(&tilebox_core::Entry) -> bool) -> String {
    tilebox_games::registry()
        .entries()
        .iter()
        .filter(|e| keep(e))
        .map(|e| e.id().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A data directory that is not there, as on a fresh machine: no variant files of a player's
/// and no trained player, so that the games are the catalogue's and the AI the heuristic
/// whatever the machine's own data directory holds (`tests/variants.rs` tests a player's
/// files). Nothing these tests run writes to it, so it is never made.
fn empty_data_dir() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        std::env::temp_dir().join(format!("tilebox-cli-no-data-{}", std::process::id()))
    })
}

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"));
    command.env("XDG_DATA_HOME", empty_data_dir());
    command
}

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin)
        .expect("stdin takes the input");
    child.wait_with_output().expect("the binary finishes")
}

fn run(args: &[&str]) -> Output {
    run_with_stdin(args, b"")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs a command that must succeed and print one line of JSON; returns it parsed.
fn json(args: &[&str]) -> Value {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one line of JSON: {text}");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Runs a command that must fail with status 2, a one-line message and nothing on stdout;
/// returns the message.
fn bad(args: &[&str]) -> String {
    bad_with_stdin(args, b"")
}

fn bad_with_stdin(args: &[&str], stdin: &[u8]) -> String {
    failure(&run_with_stdin(args, stdin), 2, args)
}

/// Checks that a run failed with `code`, one line on stderr and nothing on stdout; returns the
/// line.
fn failure(out: &Output, code: i32, args: &[&str]) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one-line message: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(stdout(out), "", "{args:?}: nothing on stdout");
    err
}

fn board(v: &Value) -> Vec<Vec<u64>> {
    serde_json::from_value(v["board"].clone()).expect("board is rows of numbers")
}

#[test]
fn list_prints_id_tab_title_for_every_entry_the_2048_sizes_included() {
    let out = run(&["list"]);
    assert!(out.status.success());
    let registry = tilebox_games::registry();
    let expected: String = registry
        .entries()
        .iter()
        .map(|e| format!("{}\t{}\n", e.id(), e.title()))
        .collect();
    assert_eq!(stdout(&out), expected);
    // Every entry of a sliding kind (each 2048 size, Threes) starts a game on its own board:
    // the side of its preset's parameters.
    let mut of_2048 = 0;
    for entry in registry.entries() {
        let Some(params) = entry.params::<Sliding>() else {
            continue;
        };
        of_2048 += 1;
        let side = params.side;
        let rows = board(&json(&["new", entry.id(), "--seed", "1"]));
        assert_eq!(rows.len(), side, "{}", entry.id());
        assert!(rows.iter().all(|row| row.len() == side), "{}", entry.id());
    }
    assert!(of_2048 > 0, "no entry of the sliding kind");
}

/// The state JSON of a 2048 game with these params, played directly on the engine.
fn direct_2048(params: Variant, seed: u64, moves: &str) -> Value {
    let mut session = Session::<Sliding>::new(params, seed).expect("valid params");
    session.play_text(moves).expect("legal moves");
    let status = session.status();
    let mut map = serde_json::Map::new();
    map.insert("seed".into(), seed.into());
    map.insert("moves".into(), session.moves().len().into());
    map.insert("score".into(), session.score().into());
    map.insert("won".into(), status.won.into());
    map.insert("over".into(), status.over.into());
    map.extend(Sliding::view(session.state()));
    Value::Object(map)
}

/// `v` without its `game` field, which names the entry.
fn without_game(v: &Value, game: &str) -> Value {
    let mut map = v.as_object().expect("an object").clone();
    assert_eq!(map.remove("game"), Some(Value::from(game)));
    Value::Object(map)
}

/// The catalogue's entries of the sliding kind (2048 and every other variant), each with its
/// preset's parameters.
fn entries_of_2048() -> Vec<(String, Variant)> {
    tilebox_games::registry()
        .entries()
        .iter()
        .filter_map(|e| Some((e.id().to_string(), e.params::<Sliding>()?.clone())))
        .collect()
}

#[test]
fn every_2048_entry_plays_the_engines_game_of_its_params() {
    let entries = entries_of_2048();
    assert!(!entries.is_empty());
    let moves = "LURDLLDR";
    for (id, params) in entries {
        let v = json(&["new", &id, "--seed", "1"]);
        assert_eq!(board(&v).len(), params.side, "{id}");
        assert_eq!(
            without_game(&v, &id),
            direct_2048(params.clone(), 1, ""),
            "{id}"
        );
        let v = json(&["play", &id, "--seed", "8", "--moves", moves]);
        assert_eq!(without_game(&v, &id), direct_2048(params, 8, moves), "{id}");
    }
}

#[test]
fn play_2048_replays_the_engines_game_to_its_end() {
    // The smallest board ends soonest.
    let (id, params) = entries_of_2048()
        .into_iter()
        .min_by_key(|(_, params)| params.side)
        .expect("an entry of the 2048 kind");
    let id = id.as_str();
    // Played on to its end, a game is the engine's as well, over and refusing more.
    let mut game = Session::<Sliding>::new(params.clone(), 8).expect("its preset");
    let mut all = String::new();
    for round in 0..100_000 {
        if game.status().over {
            break;
        }
        let letter = if round / 4 % 2 == 0 { "LURD" } else { "DRUL" }
            .chars()
            .nth(round % 4)
            .expect("four letters");
        game.play_text(&letter.to_string()).expect("a game in play");
        all.push(letter);
    }
    let end = json(&["play", id, "--seed", "8", "--moves", &all]);
    assert_eq!(end["over"], true, "{id}");
    assert_eq!(without_game(&end, id), direct_2048(params, 8, &all));
    let err = bad(&["play", id, "--seed", "8", "--moves", &format!("{all}L")]);
    assert!(err.contains("the game is over"), "{err}");
}

#[test]
fn new_2048_has_two_tiles_and_the_state_fields() {
    let v = json(&["new", "2048", "--seed", "7"]);
    assert_eq!(v["game"], "2048");
    assert_eq!(v["seed"], 7);
    assert_eq!(v["moves"], 0);
    assert_eq!(v["score"], 0);
    assert_eq!(v["won"], false);
    assert_eq!(v["over"], false);
    let tiles: Vec<u64> = board(&v).concat().into_iter().filter(|&t| t != 0).collect();
    assert_eq!(tiles.len(), 2);
    assert!(tiles.iter().all(|t| [2, 4].contains(t)));
    assert_eq!(board(&v).len(), 4);
}

#[test]
fn new_is_deterministic_for_a_seed_and_random_without_one() {
    let a = json(&["new", "threes", "--seed", "42"]);
    assert_eq!(a, json(&["new", "threes", "--seed", "42"]));
    assert_ne!(a, json(&["new", "threes", "--seed", "43"]));
    let r1 = json(&["new", "2048"]);
    let r2 = json(&["new", "2048"]);
    assert!(r1["seed"].is_u64());
    assert_ne!(r1["seed"], r2["seed"]);
    // the printed seed reproduces the game
    let seed = r1["seed"].to_string();
    assert_eq!(json(&["new", "2048", "--seed", &seed]), r1);
}

#[test]
fn new_threes_deals_nine_cards_and_shows_the_next() {
    let v = json(&["new", "threes", "--seed", "3"]);
    let cards: Vec<u64> = board(&v).concat().into_iter().filter(|&t| t != 0).collect();
    assert_eq!(cards.len(), 9);
    for value in 1..=3 {
        assert!(cards.iter().filter(|&&c| c == value).count() <= 4);
    }
    assert!(["1", "2", "3"].contains(&v["next"].as_str().expect("next is a string")));
    assert_eq!(v["won"], false);
}

#[test]
fn new_strike9_has_all_tiles_open_and_a_roll() {
    let v = json(&["new", "strike9", "--seed", "5"]);
    assert_eq!(v["open"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    let dice: Vec<u64> = serde_json::from_value(v["dice"].clone()).expect("two dice");
    assert_eq!(dice.len(), 2);
    assert!(dice.iter().all(|d| (1..=6).contains(d)));
    assert_eq!(v["total"], dice[0] + dice[1]);
    assert_eq!(v["score"], 0);
}

#[test]
fn play_ignores_spaces_and_case_and_skips_moves_that_change_nothing() {
    let a = json(&["play", "2048", "--seed", "11", "--moves", "LURD LURD"]);
    assert_eq!(
        a,
        json(&["play", "2048", "--seed", "11", "--moves", "lurdlurd"])
    );
    assert!(a["moves"].as_u64().expect("a count") <= 8);
    // From the start only two tiles are on the board, so at least one of the directions moves.
    assert!(a["moves"].as_u64().expect("a count") >= 1);
    // Repeating a move until nothing changes: the repeats are skipped, not counted.
    let many = json(&["play", "2048", "--seed", "11", "--moves", &"L".repeat(40)]);
    assert!(many["moves"].as_u64().expect("a count") < 40);
}

/// Games whose tiles come from a bag give the states the release before gave them, a tile
/// for a tile (each printed by its `tilebox-cli play`, dd769e8): a bag of three tiles refilled
/// and shuffled every third spawn, with a bonus on a 5×5 board, and a bag of 100,000 tiles,
/// the most a variant may have, played 10,000 moves on an 8×8 board. (The states now share
/// their bag instead of each holding a copy: that release took 1.8 GB for the last.)
#[test]
fn games_of_a_bag_play_as_the_release_before_played_them() {
    let cases = [
        (
            r#"{"spawn":{"bag":{"2":2,"4":1}}}"#,
            "5",
            37,
            r#"{"game":"2048","seed":5,"moves":147,"score":1672,"won":false,"over":false,"board":[[4,2,16,4],[32,4,32,64],[2,128,8,32],[0,2,64,4]]}"#,
        ),
        (
            r#"{"side":5,"spawn":{"bag":{"2":2,"4":1},"bonus":{"chance":[1,3],"top_at_least":16,"lowest":2,"top_divided_by":4}}}"#,
            "5",
            62,
            r#"{"game":"2048","seed":5,"moves":248,"score":11320,"won":false,"over":true,"board":[[8,2,8,16,8],[32,128,1024,32,2],[8,16,4,128,16],[2,128,512,1024,4],[64,256,2,16,2]]}"#,
        ),
        (
            r#"{"side":8,"spawn":{"bag":{"2":75000,"4":25000}}}"#,
            "1",
            2_500,
            r#"{"game":"2048","seed":1,"moves":10000,"score":303812,"won":true,"over":false,"board":[[0,8,8,8192,2,2,8,4],[0,0,4,8,16,4,4,16],[0,0,0,0,64,256,64,16384],[0,0,0,0,0,2,0,8],[0,0,0,0,0,0,0,4],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,2,0,0]]}"#,
        ),
    ];
    for (params, seed, rounds, then) in cases {
        let moves = "LDRU".repeat(rounds);
        let now = json(&[
            "play", "2048", "--seed", seed, "--params", params, "--moves", &moves,
        ]);
        assert_eq!(
            now,
            serde_json::from_str::<Value>(then).unwrap(),
            "{params}"
        );
    }
}

#[test]
fn play_threes_then_replaying_the_same_moves_gives_the_same_state() {
    let a = json(&["play", "threes", "--seed", "9", "--moves", "LDRU LDRU LDRU"]);
    let b = json(&["play", "threes", "--seed", "9", "--moves", "LDRULDRULDRU"]);
    assert_eq!(a, b);
    assert_eq!(a["game"], "threes");
}

#[test]
fn play_strike9_shuts_a_legal_set_and_refuses_an_illegal_one() {
    let start = json(&["new", "strike9", "--seed", "21"]);
    let total = start["total"].as_u64().expect("a total");
    // The first legal set for the roll, from the enumerator.
    let sets = run(&["addends", &total.to_string()]);
    let first = stdout(&sets)
        .lines()
        .next()
        .expect("a roll of 2..12 can always be made from 1..9")
        .to_string();
    let after = json(&["play", "strike9", "--seed", "21", "--moves", &first]);
    assert_eq!(after["moves"], 1);
    assert_eq!(after["score"], total);
    let shut: Vec<u64> = first
        .split('+')
        .map(|t| t.parse().expect("a tile"))
        .collect();
    let open: Vec<u64> = serde_json::from_value(after["open"].clone()).expect("open tiles");
    assert!(shut.iter().all(|t| !open.contains(t)));
    assert_eq!(open.len(), 9 - shut.len());

    // Two dice roll 2 to 12, so the set {1} never matches the roll.
    let err = bad(&["play", "strike9", "--seed", "21", "--moves", "1"]);
    assert!(err.contains("move 1"), "{err}");
    // The same tile twice is not a set.
    let err = bad(&[
        "play",
        "strike9",
        "--seed",
        "21",
        "--moves",
        &format!("{first} 3+3"),
    ]);
    assert!(err.contains("move 2"), "{err}");
}

#[test]
fn play_strike9_refuses_moves_after_the_game_has_ended() {
    // Find a seed whose game ends at once or soon, by playing the first legal set each roll.
    for seed in 0..200u64 {
        let mut moves: Vec<String> = Vec::new();
        let mut state = json(&["new", "strike9", "--seed", &seed.to_string()]);
        while state["over"] == false {
            let out = run(&[
                "addends",
                &state["total"].to_string(),
                "--open",
                &join(&state["open"]),
            ]);
            let set = stdout(&out)
                .lines()
                .next()
                .expect("a game in play has a legal set")
                .to_string();
            moves.push(set);
            state = json(&[
                "play",
                "strike9",
                "--seed",
                &seed.to_string(),
                "--moves",
                &moves.join(" "),
            ]);
        }
        if state["won"] == true {
            continue;
        }
        moves.push("1".into());
        let err = bad(&[
            "play",
            "strike9",
            "--seed",
            &seed.to_string(),
            "--moves",
            &moves.join(" "),
        ]);
        assert!(err.contains(&format!("move {}", moves.len())), "{err}");
        assert!(err.contains("over"), "{err}");
        return;
    }
    panic!("no lost game in 200 seeds");
}

fn join(tiles: &Value) -> String {
    let tiles: Vec<u64> = serde_json::from_value(tiles.clone()).expect("tiles");
    tiles
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn play_reports_a_bad_move_by_position_with_nothing_on_stdout() {
    let err = bad(&["play", "2048", "--seed", "1", "--moves", "LRX"]);
    assert!(err.contains("move 3") && err.contains('X'), "{err}");
    let err = bad(&["play", "strike9", "--seed", "1", "--moves", "4+x"]);
    assert!(err.contains("move 1"), "{err}");
}

#[test]
fn slide_2048_follows_the_rules_examples() {
    let slide = |dir: &str, b: &str| json(&["slide", "2048", dir, "--board", b]);
    let v = slide("left", "[[2,2,2,2],[4,4,8,0],[2,0,2,4],[2,2,2,0]]");
    assert_eq!(
        board(&v),
        [[4, 4, 0, 0], [8, 8, 0, 0], [4, 4, 0, 0], [4, 2, 0, 0]]
    );
    assert_eq!(v["moved"], true);
    assert_eq!(v["gained"], 8 + 8 + 4 + 4);
    let v = slide("right", "[[2,2,2,2],[0,8,4,4],[4,2,0,2],[0,2,2,2]]");
    assert_eq!(
        board(&v),
        [[0, 0, 4, 4], [0, 0, 8, 8], [0, 0, 4, 4], [0, 0, 2, 4]]
    );
    let v = slide("up", "[[2,0],[2,0]]");
    assert_eq!(board(&v), [[4, 0], [0, 0]]);
    assert_eq!(v["gained"], 4);
    let v = slide("D", "[[2,4],[4,2]]");
    assert_eq!(board(&v), [[2, 4], [4, 2]]);
    assert_eq!(v["moved"], false);
    assert_eq!(v["gained"], 0);
}

/// `--turn`: the move's number, for rules that hold on some moves only. 2592's pairs merge on
/// moves 0, 2, 4 … and its triples on moves 1, 3, 5 …; without `--turn`, the first move's.
#[test]
fn slide_plays_the_rules_of_the_move_turn_names() {
    let rows = "[[1,1,1,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]";
    let slide = |turn: &[&str]| {
        let mut args = vec!["slide", "2592", "left", "--board", rows];
        args.extend_from_slice(turn);
        board(&json(&args))
    };
    assert_eq!(slide(&[])[0], [2, 1, 0, 0]);
    assert_eq!(slide(&["--turn", "0"])[0], [2, 1, 0, 0]);
    assert_eq!(slide(&["--turn", "1"])[0], [3, 0, 0, 0]);
    assert_eq!(slide(&["--turn", "12"])[0], [2, 1, 0, 0]);
    // Other variants are the same on every move.
    let v = json(&[
        "slide",
        "2048",
        "left",
        "--board",
        "[[2,2],[0,0]]",
        "--turn",
        "3",
    ]);
    assert_eq!(board(&v), [[4, 0], [0, 0]]);
    let out = run(&["slide", "2592", "left", "--board", rows, "--turn", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    // From stdin too, every line by the rules of that move.
    let out = run_with_stdin(
        &["slide", "2592", "left", "--board", "-", "--turn", "1"],
        format!("{rows}\n{rows}\n").as_bytes(),
    );
    assert!(out.status.success());
    let lines = json_lines_of(&out);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|v| board(v)[0] == [3, 0, 0, 0]));
}

#[test]
fn slide_threes_follows_the_rules_examples() {
    let v = json(&[
        "slide",
        "threes",
        "left",
        "--board",
        "[[0,0,0,3],[3,0,0,3],[0,3,3,0],[3,3,3,3]]",
    ]);
    assert_eq!(
        board(&v),
        [[0, 0, 3, 0], [3, 0, 3, 0], [3, 3, 0, 0], [6, 3, 3, 0]]
    );
    // Only the last row merges: 3+3 (score 3+3) becomes 6 (score 9).
    assert_eq!(v["gained"], 3);
    let v = json(&[
        "slide",
        "threes",
        "left",
        "--board",
        "[[1,2,1,2],[0,0,0,0],[0,0,0,0],[0,0,0,0]]",
    ]);
    assert_eq!(board(&v)[0], [3, 1, 2, 0]);
    assert_eq!(v["gained"], 3);
    let v = json(&["slide", "threes", "up", "--board", "[[1,0],[1,0]]"]);
    assert_eq!(v["moved"], false);
}

#[test]
fn slide_reads_one_board_per_line_from_stdin() {
    let out = run_with_stdin(
        &["slide", "2048", "left", "--board", "-"],
        b"[[2,2],[0,0]]\n\n[[0,4],[4,4]]\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines_of(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(board(&lines[0]), [[4, 0], [0, 0]]);
    assert_eq!(board(&lines[1]), [[4, 0], [8, 0]]);
}

#[test]
fn slide_from_stdin_prints_nothing_unless_every_line_is_good() {
    let args = ["slide", "2048", "left", "--board", "-"];
    // The first line is good; the bad second one must keep its answer off stdout too.
    let err = bad_with_stdin(&args, b"[[2,2],[0,0]]\n[[3,0],[0,0]]\n");
    assert!(err.starts_with("error: line 2: "), "{err}");
    // Blank lines are skipped but counted.
    let err = bad_with_stdin(&args, b"[[2,2],[0,0]]\n\noops\n[[2,2],[0,0]]\n");
    assert!(err.starts_with("error: line 3: "), "{err}");
    // `o` starts no JSON value.
    assert!(err.contains("expected value at character 1"), "{err}");
    // Bytes that are not UTF-8 are bad input, found by line.
    let err = bad_with_stdin(&args, b"\xff\n");
    assert!(
        err.starts_with("error: line 1: ") && err.contains("UTF-8"),
        "{err}"
    );
    let err = bad_with_stdin(&args, b"[[2,2],[0,0]]\n[[2,2],\xff[0,0]]\n");
    assert!(
        err.starts_with("error: line 2: ") && err.contains("UTF-8"),
        "{err}"
    );
}

/// Reading a directory fails with a system error (EISDIR), which is not bad input: status 1.
#[cfg(target_os = "linux")]
#[test]
fn slide_reports_stdin_it_cannot_read_with_status_1() {
    let args = ["slide", "2048", "left", "--board", "-"];
    let dir = std::fs::File::open("/").expect("the root folder opens");
    let out = binary()
        .args(args)
        .stdin(dir)
        .output()
        .expect("the binary runs");
    let err = failure(&out, 1, &args);
    assert!(
        err.starts_with("error: line 1: cannot read stdin: "),
        "{err}"
    );
}

/// /dev/full refuses every write.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_gives_status_1() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full opens");
    let out = binary()
        .arg("list")
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot write the output: "), "{err}");
}

/// A reader that goes away early (`| head`) is not an error. The tool reads all of stdin before
/// it writes, so closing the reading end of its stdout first makes the write fail for sure.
#[cfg(unix)]
#[test]
fn a_reader_that_goes_away_is_not_an_error() {
    let mut child = binary()
        .args(["slide", "2048", "left", "--board", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    drop(child.stdout.take());
    let boards = "[[2,2],[0,0]]\n".repeat(1000);
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(boards.as_bytes())
        .expect("stdin takes the input");
    let out = child.wait_with_output().expect("the binary finishes");
    assert_eq!(stderr(&out), "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn slide_refuses_bad_boards_games_and_directions() {
    let b = "[[0,2],[2,0]]";
    for (args, needle) in [
        (
            vec!["slide", "2048", "left", "--board", "[[2,2],[2]]"],
            "row",
        ),
        (
            vec!["slide", "2048", "left", "--board", "[[2,2,2],[2,2,2]]"],
            "square",
        ),
        (vec!["slide", "2048", "left", "--board", "[[2]]"], "side"),
        (
            vec!["slide", "2048", "left", "--board", "[[3,0],[0,0]]"],
            "3",
        ),
        (
            vec!["slide", "threes", "left", "--board", "[[4,0],[0,0]]"],
            "4",
        ),
        (
            vec!["slide", "2048", "left", "--board", "[[2,-2],[0,0]]"],
            "json",
        ),
        (vec!["slide", "2048", "left", "--board", "nonsense"], "json"),
        (vec!["slide", "2048", "sideways", "--board", b], "direction"),
        (vec!["slide", "strike9", "left", "--board", b], "sliding"),
        (vec!["slide", "chess", "left", "--board", b], "unknown game"),
    ] {
        let err = bad(&args);
        assert!(err.to_lowercase().contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn slide_works_on_every_sliding_entry_by_its_rules() {
    let sliding = ids_where(|e| tilebox_sliding::rules_of(e).is_some());
    // Every 2048 size slides by 2048's rules, every Threes entry by Threes', whatever the size
    // of the board given; every other entry is told which games slide.
    let registry = tilebox_games::registry();
    let b = "[[1,2,2],[3,3,0],[0,0,6]]";
    let rows: Vec<Vec<u64>> = serde_json::from_str(b).expect("rows");
    let (mut held, mut refused) = (0, 0);
    for entry in registry.entries() {
        let id = entry.id();
        let args = ["slide", id, "right", "--board", b];
        let Some(rules) = tilebox_sliding::rules_of(entry) else {
            let err = bad(&args);
            assert_eq!(
                err,
                format!("error: '{id}' is not a sliding game (slide works on: {sliding})\n")
            );
            continue;
        };
        match rules.board_from_values(&rows) {
            Ok(parsed) => {
                let slid = rules.slide(&parsed, tilebox_sliding::Direction::Right);
                let v = json(&args);
                assert_eq!(board(&v), rules.values(&slid.board), "{id}");
                assert_eq!(v["moved"], slid.moved, "{id}");
                assert_eq!(v["gained"], slid.gained, "{id}");
                held += 1;
            }
            Err(_) => {
                let err = bad(&args);
                assert!(err.contains("not a tile this game can hold"), "{id}: {err}");
                refused += 1;
            }
        }
    }
    // The two rule sets differ on this board: Threes holds it, 2048 does not.
    assert!(held > 0 && refused > 0, "{held} held, {refused} refused");
}

#[test]
fn addends_lists_sets_in_lexicographic_order() {
    let out = run(&["addends", "9"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "1+2+6\n1+3+5\n1+8\n2+3+4\n2+7\n3+6\n4+5\n9\n");
    let out = run(&["addends", "9", "--open", "1,2,3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "");
    let out = run(&["addends", "45"]);
    assert_eq!(stdout(&out), "1+2+3+4+5+6+7+8+9\n");
    let out = run(&["addends", "7", "--open", "7,3,4"]);
    assert_eq!(stdout(&out), "3+4\n7\n");
}

#[test]
fn bad_arguments_get_status_2_and_one_line() {
    for args in [
        vec![],
        vec!["fly"],
        vec!["new"],
        vec!["new", "chess"],
        vec!["new", "2048", "--seed", "-1"],
        vec!["new", "2048", "--seed", "x"],
        vec!["play", "2048", "--moves", "L"],
        vec!["play", "2048", "--seed", "1"],
        vec!["addends", "x"],
        vec!["addends", "-3"],
        vec!["addends", "9", "--open", "1,10"],
        vec!["addends", "9", "--open", "1,1"],
        vec!["addends", "9", "--open", "a"],
        vec!["addends", "9", "--open", "0"],
        vec!["new", "2048", "--seed", "18446744073709551616"],
    ] {
        bad(&args);
    }
    let err = bad(&["new", "chess"]);
    assert!(
        err.contains(&format!("(the games are: {})", ids_where(|_| true))),
        "{err}"
    );
    // A negative number is a bad value, not an unknown option.
    for args in [
        vec!["new", "2048", "--seed", "-1"],
        vec!["addends", "-3"],
        vec!["hint", "2048", "--seed", "1", "--ms", "-5"],
    ] {
        let err = bad(&args);
        assert!(err.contains("invalid value '-"), "{err}");
    }
    // clap's tip stays, on the same line.
    let err = bad(&["plya"]);
    assert!(err.contains("tip:") && err.contains("'play'"), "{err}");
}

#[test]
fn the_largest_seed_is_accepted() {
    let seed = u64::MAX.to_string();
    assert_eq!(json(&["new", "2048", "--seed", &seed])["seed"], u64::MAX);
}

#[test]
fn text_from_the_user_is_escaped_so_the_message_stays_one_line() {
    for (args, shown) in [
        (vec!["new", "a\nb"], "'a\\nb'"),
        (vec!["hint", "x\ry", "--seed", "1"], "'x\\ry'"),
        (
            vec!["slide", "2048", "up\ndown", "--board", "[[0,0],[0,0]]"],
            "'up\\ndown'",
        ),
        (vec!["addends", "3", "--open", "1,a\nb"], "'a\\nb'"),
        (vec!["odds", "--open", "1,x\u{2028}y"], "'x\\u{2028}y'"),
    ] {
        let err = bad(&args);
        assert!(err.contains(shown), "{args:?}: {err}");
    }
    // clap's own messages are joined into one line.
    bad(&["new", "2048", "--seed", "1\n2"]);
}

#[test]
fn help_and_version_succeed() {
    let commands = [
        "list", "new", "play", "code", "daily", "slide", "addends", "hint", "odds", "bench",
    ];
    let out = run(&["--help"]);
    assert!(out.status.success());
    for command in commands {
        assert!(stdout(&out).contains(command), "{command}");
    }
    for command in commands {
        let out = run(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert_eq!(stderr(&out), "", "{command}");
        let help = stdout(&out);
        assert!(
            help.contains(&format!("Usage: tilebox-cli {command}")),
            "{command}: {help}"
        );
        // Only real defaults are shown.
        assert!(!help.contains("[default: ]"), "{command}: {help}");
        assert!(!help.contains("[default: \"\"]"), "{command}: {help}");
    }
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        format!("tilebox-cli {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// The CLI reference's examples (`docs/cli.md`) are run as written (through `sh`, with this build
/// first on the PATH) and must print exactly what it shows, so the reference cannot drift from
/// the tool.
#[test]
fn the_reference_examples_print_what_the_reference_shows() {
    let reference =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md"))
            .expect("docs/cli.md, the CLI reference");
    let block = reference
        .split("```console\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a console block of examples");
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .parent()
        .expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut examples = 0;
    for example in block.split("$ ").skip(1) {
        let (command, expected) = example.split_once('\n').expect("a command line");
        let out = Command::new("sh")
            .args(["-c", command])
            .env("PATH", &path)
            .env("XDG_DATA_HOME", empty_data_dir())
            .output()
            .expect("sh runs");
        let shown = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(shown, expected, "$ {command}");
        let status = if expected.starts_with("error:") { 2 } else { 0 };
        assert_eq!(out.status.code(), Some(status), "$ {command}");
        examples += 1;
    }
    assert!(examples >= 10, "only {examples} examples found");
}

fn line(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    text.trim_end().to_string()
}

#[test]
fn odds_prints_six_decimals_and_matches_hand_computed_boxes() {
    // Derived by hand: an empty box is shut; {7} needs a 7 (6 ways of 36); {1} can never be
    // shut; {1,2} only by a 3 (2 ways), since a 2 would leave the 1 alone.
    assert_eq!(line(&["odds", "--open", ""]), "1.000000");
    assert_eq!(line(&["odds", "--open", "7"]), "0.166667");
    assert_eq!(line(&["odds", "--open", "1"]), "0.000000");
    assert_eq!(line(&["odds", "--open", "2,1"]), "0.055556");
    let full: f64 = line(&["odds"]).parse().expect("a number");
    assert!(full > 0.0 && full < 0.5);
    bad(&["odds", "--open", "0"]);
}

#[test]
fn hint_strike9_picks_the_set_that_leaves_the_best_odds() {
    let open = "1,2,3,4,5,6,8";
    for total in 2..=12u32 {
        let total_text = total.to_string();
        let hint_args = ["hint", "strike9", "--open", open, "--total", &total_text];
        let sets = stdout(&run(&["addends", &total_text, "--open", open]));
        if sets.is_empty() {
            let err = bad(&hint_args);
            assert!(err.contains("no open tiles add up to"), "{err}");
            continue;
        }
        let odds_after = |set: &str| -> f64 {
            let rest: Vec<&str> = open
                .split(',')
                .filter(|t| !set.split('+').any(|s| s == *t))
                .collect();
            line(&["odds", "--open", &rest.join(",")])
                .parse()
                .expect("a number")
        };
        let best = sets.lines().map(odds_after).fold(0.0, f64::max);
        let hint = line(&hint_args);
        assert!(sets.lines().any(|s| s == hint), "{hint} is not a legal set");
        assert_eq!(odds_after(&hint), best, "total {total}: {hint}");
    }
    bad(&["hint", "strike9", "--open", open]);
}

#[test]
fn hint_strike9_takes_only_totals_two_dice_can_make() {
    // Two dice make 2 to 12. Tile 1 alone sums to 1 and 4+9 to 13, yet neither is a roll.
    for total in ["0", "1", "13", "45"] {
        let err = bad(&["hint", "strike9", "--total", total]);
        assert!(err.contains("2..=12"), "{total}: {err}");
    }
    assert_eq!(line(&["hint", "strike9", "--total", "2"]), "2");
    // Only 9+3 and 9+2+1 (and 8+4, 8+3+1, …) make 12; the table picks one of them.
    let best = line(&["hint", "strike9", "--total", "12"]);
    let sum: u32 = best
        .split('+')
        .map(|t| t.parse::<u32>().expect("a tile"))
        .sum();
    assert_eq!(sum, 12);
    // `addends` is the enumerator, not a roll: any total, nothing when there is no set.
    assert_eq!(stdout(&run(&["addends", "1"])), "1\n");
    assert_eq!(stdout(&run(&["addends", "46"])), "");
}

#[test]
fn hint_keeps_the_table_and_the_replay_options_apart() {
    // The table answers for the Strike 9 entries its assistant plays; every entry of another
    // kind is told so, whichever options it is given.
    let table = ids_where(|e| e.is::<Strike9>() && e.assistant().is_some());
    assert!(!table.is_empty(), "the catalogue's Strike 9 has the table");
    let registry = tilebox_games::registry();
    let others: Vec<&str> = registry
        .entries()
        .iter()
        .filter(|e| !e.is::<Strike9>())
        .map(|e| e.id())
        .collect();
    assert!(!others.is_empty());
    for id in others {
        for args in [
            vec!["hint", id, "--seed", "1", "--open", "1,2"],
            vec!["hint", id, "--seed", "1", "--total", "7"],
            vec!["hint", id, "--total", "7"],
        ] {
            let err = bad(&args);
            let expected = format!(
                "error: --open and --total are for the Strike 9 table (games: {table}); hint '{id}' takes --seed, --moves and --ms\n"
            );
            assert_eq!(err, expected, "{args:?}");
        }
    }
    for args in [
        vec!["hint", "strike9", "--total", "7", "--seed", "1"],
        vec!["hint", "strike9", "--open", "1,2", "--moves", "3"],
        vec!["hint", "strike9", "--total", "7", "--ms", "20"],
    ] {
        let err = bad(&args);
        assert!(err.contains("give one or the other"), "{args:?}: {err}");
    }
    // Neither a game to replay nor a position.
    let err = bad(&["hint", "strike9"]);
    assert!(
        err.contains("--seed N") && err.contains("--total N"),
        "{err}"
    );
    let err = bad(&["hint", "threes"]);
    assert!(
        err.contains("--seed N") && !err.contains("--total"),
        "{err}"
    );
}

#[test]
fn hint_strike9_replays_a_seeded_game_and_asks_the_exact_table() {
    for seed in 0..20u64 {
        let seed_text = seed.to_string();
        let mut moves: Vec<String> = Vec::new();
        loop {
            let played = moves.join(" ");
            let state = json(&["play", "strike9", "--seed", &seed_text, "--moves", &played]);
            let args = ["hint", "strike9", "--seed", &seed_text, "--moves", &played];
            if state["over"] == true {
                let err = bad(&args);
                assert!(err.contains("the game is over"), "{err}");
                break;
            }
            let hint = line(&args);
            // The same answer as the table given the position, and as the table itself.
            let total = state["total"].to_string();
            let open = join(&state["open"]);
            assert_eq!(
                hint,
                line(&["hint", "strike9", "--open", &open, "--total", &total])
            );
            let tiles: Vec<u8> = serde_json::from_value(state["open"].clone()).expect("tiles");
            let open_set = TileSet::from_tiles(tiles).expect("open tiles");
            let table = Odds::shared()
                .best_move(open_set, state["total"].as_u64().expect("a total") as u32)
                .expect("a game in play has a move");
            assert_eq!(hint, table.to_string());
            moves.push(hint);
        }
    }
}

#[test]
fn every_catalogue_entry_has_a_player_whose_hint_is_a_legal_move() {
    // A game without a player is refused by `hint` and `bench`: `src/tests.rs` checks that on
    // the toy's `toy-9`, since every entry of the catalogue now has a player.
    let registry = tilebox_games::registry();
    for entry in registry.entries() {
        let id = entry.id();
        assert!(entry.assistant().is_some(), "{id} has no player");
        let hint = line(&["hint", id, "--seed", "1", "--ms", "5"]);
        // The move is one the game takes from that position.
        json(&["play", id, "--seed", "1", "--moves", &hint]);
    }
}

/// The moves of `game` from `seed` that end it, found by repeating LURD: the tool names the first
/// move after the end, and everything before it is the game played out. `None` when 8,000 moves
/// of LURD leave the game in play (the big boards).
fn moves_to_the_end(game: &str, seed: &str) -> Option<String> {
    let many = "LURD".repeat(2000);
    let args = ["play", game, "--seed", seed, "--moves", &many];
    if run(&args).status.success() {
        return None;
    }
    let err = bad(&args);
    assert!(err.contains("the game is over"), "{err}");
    let position: usize = err
        .strip_prefix("error: move ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no move position in {err}"));
    Some(many[..position - 1].to_string())
}

/// The ids of the catalogue's sliding entries that have an AI player.
fn sliding_with_a_player() -> Vec<String> {
    let ids: Vec<String> = tilebox_games::registry()
        .entries()
        .iter()
        .filter(|e| tilebox_sliding::rules_of(e).is_some() && e.assistant().is_some())
        .map(|e| e.id().to_string())
        .collect();
    assert!(!ids.is_empty(), "a sliding game with a player");
    ids
}

#[test]
fn a_move_after_a_sliding_game_has_ended_is_refused() {
    let mut ended = 0;
    for game in sliding_with_a_player() {
        let game = game.as_str();
        let Some(moves) = moves_to_the_end(game, "3") else {
            continue;
        };
        ended += 1;
        let end = json(&["play", game, "--seed", "3", "--moves", &moves]);
        assert_eq!(end["over"], true, "{game}");
        // Every one of the four moves is refused, each at the next position.
        for extra in ["L", "R", "U", "D"] {
            let err = bad(&[
                "play",
                game,
                "--seed",
                "3",
                "--moves",
                &format!("{moves}{extra}"),
            ]);
            let expected = format!(
                "error: move {} ('{extra}'): the game is over",
                moves.len() + 1
            );
            assert_eq!(err.trim_end(), expected, "{game}");
        }
        // And there is no hint to give.
        let err = bad(&["hint", game, "--seed", "3", "--moves", &moves, "--ms", "1"]);
        assert!(err.contains("the game is over"), "{game}: {err}");
    }
    // 2048 and Threes at least (4×4 boards) end within the moves tried.
    assert!(ended >= 2, "only {ended} games ended");
}

#[test]
fn hint_names_a_move_that_changes_the_board_in_every_sliding_game_with_a_player() {
    for game in sliding_with_a_player() {
        let game = game.as_str();
        let hint = line(&["hint", game, "--seed", "4", "--moves", "LU", "--ms", "20"]);
        assert!(["L", "R", "U", "D"].contains(&hint.as_str()), "{hint}");
        let before = json(&["play", game, "--seed", "4", "--moves", "LU"]);
        let after = json(&["play", game, "--seed", "4", "--moves", &format!("LU{hint}")]);
        assert_eq!(
            after["moves"],
            before["moves"].as_u64().expect("a count") + 1
        );
    }
    bad(&["hint", "2048", "--moves", "L"]);
    bad(&["hint", "threes", "--seed", "1", "--moves", "LX"]);
    bad(&["hint", "chess", "--seed", "1"]);
}

#[test]
fn bench_reports_the_games_it_played() {
    let v = json(&[
        "bench",
        "strike9",
        "--games",
        "3000",
        "--seed",
        "1",
        "--threads",
        "2",
    ]);
    assert_eq!(v["game"], "strike9");
    assert_eq!(v["games"], 3000);
    let win_rate = v["win_rate"].as_f64().expect("a rate");
    // The exact table's chance is about 7%; 3000 games land well within 3% to 12%.
    assert!((0.03..0.12).contains(&win_rate), "{win_rate}");
    assert!(v["max_score"].as_u64().expect("a score") <= 45);
    assert!(v["moves"].as_u64().expect("moves") >= 3000);

    let v = json(&[
        "bench",
        "2048",
        "--games",
        "2",
        "--ms-per-move",
        "1",
        "--seed",
        "7",
        "--threads",
        "2",
    ]);
    assert_eq!(v["games"], 2);
    assert_eq!(v["unfinished"], 0);
    assert_eq!(
        keys_of(v.as_object().expect("an object")),
        bench_keys("reach", true)
    );
    let reach = v["reach"].as_object().expect("reach by tile");
    assert!(!reach.is_empty());
    // Shares never grow with the tile value, and the lowest is reached by every game.
    let shares: Vec<f64> = reach
        .values()
        .map(|s| s.as_f64().expect("a share"))
        .collect();
    assert_eq!(shares[0], 1.0);
    assert!(shares.windows(2).all(|w| w[0] >= w[1]));
    assert!(v["mean_score"].as_f64().expect("a mean") <= v["max_score"].as_f64().expect("a max"));
    assert!(v["mean_ms_per_move"].as_f64().is_some());

    // Without --ms-per-move the player is given 200 ms a move, and the JSON says so.
    let v = json(&["bench", "strike9", "--games", "1", "--seed", "1"]);
    assert_eq!(v["ms_per_move"], 200);
    for threads in ["0", "65", "-1", "100000000000"] {
        bad(&[
            "bench",
            "strike9",
            "--games",
            "1",
            "--seed",
            "1",
            "--threads",
            threads,
        ]);
    }
    bad(&[
        "bench",
        "2048",
        "--games",
        "0",
        "--ms-per-move",
        "1",
        "--seed",
        "1",
    ]);
}

/// Runs a command that must succeed and print lines of JSON; returns them parsed.
fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    json_lines_of(&out)
}

/// The lines of JSON a run printed, parsed.
fn json_lines_of(out: &Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|line| serde_json::from_str(line).expect("valid JSON"))
        .collect()
}

#[test]
fn bench_each_gives_every_games_line_and_they_sum_up_to_the_summary() {
    let args = [
        "bench",
        "2048",
        "--games",
        "4",
        "--ms-per-move",
        "1",
        "--seed",
        "7",
        "--threads",
        "2",
        "--until-win",
        "--params",
        r#"{"win":64}"#,
        "--each",
    ];
    let lines = json_lines(&args);
    assert_eq!(lines.len(), 5, "{lines:?}");
    let (games, summary) = lines.split_at(4);
    let summary = &summary[0];
    let mut seeds: Vec<u64> = games.iter().filter_map(|g| g["seed"].as_u64()).collect();
    seeds.sort_unstable();
    assert_eq!(seeds, [7, 8, 9, 10]);
    for game in games {
        assert_eq!(
            keys_of(game.as_object().expect("an object")),
            game_keys(true)
        );
        assert_eq!(game["finished"], true);
        // Played to the win of 64, or lost before it.
        assert_eq!(game["won"], game["top_tile"] == "64", "{game}");
    }
    let mut scores: Vec<u64> = games.iter().filter_map(|g| g["score"].as_u64()).collect();
    scores.sort_unstable();
    let median = (scores[1] + scores[2]) as f64 / 2.0;
    let mean = scores.iter().sum::<u64>() as f64 / 4.0;
    assert_eq!(summary["mean_score"].as_f64(), Some(mean), "{summary}");
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["unfinished"], 0);
    assert_eq!(summary["median_score"].as_f64(), Some(median), "{summary}");
    assert_eq!(summary["max_score"].as_u64(), Some(scores[3]));
    let moves: u64 = games.iter().filter_map(|g| g["moves"].as_u64()).sum();
    assert_eq!(summary["moves"].as_u64(), Some(moves));
    for (tile, share) in summary["reach"].as_object().expect("reach by tile") {
        let value: u64 = tile.parse().expect("2048's tiles are numbers");
        let made = games
            .iter()
            .filter(|g| {
                let top: u64 = g["top_tile"]
                    .as_str()
                    .and_then(|t| t.parse().ok())
                    .expect("a tile");
                top >= value
            })
            .count();
        assert_eq!(share.as_f64(), Some(made as f64 / 4.0), "{tile}: {summary}");
    }
    // Without `--each`, the summary alone.
    let plain = json(&args[..args.len() - 1]);
    assert_eq!(plain["games"], 4);
    assert_eq!(plain["until_win"], true);
}

#[test]
fn bench_until_win_stops_every_game_at_its_winning_tile() {
    // 2048 won at 8: stopped at the win, no game goes past its first 8 (a 16 needs two of
    // them); played to the end, the games go on long after it.
    let args = |until: bool| {
        let mut a = vec![
            "bench",
            "2048",
            "--params",
            r#"{"win":8}"#,
            "--games",
            "3",
            "--seed",
            "1",
            "--ms-per-move",
            "1",
        ];
        if until {
            a.push("--until-win");
        }
        a
    };
    let stopped = json(&args(true));
    assert_eq!(stopped["until_win"], true);
    assert_eq!(stopped["reach"]["8"], 1.0, "{stopped}");
    assert!(stopped["reach"].get("16").is_none(), "{stopped}");
    let whole = json(&args(false));
    assert!(whole.get("until_win").is_none());
    assert!(
        whole["max_score"].as_u64() > stopped["max_score"].as_u64(),
        "{whole} {stopped}"
    );
    assert!(
        whole["moves"].as_u64() > stopped["moves"].as_u64(),
        "{whole} {stopped}"
    );
}

#[test]
fn bench_strike9_reports_its_keys_in_order_and_the_threads_it_used() {
    let args = [
        "bench",
        "strike9",
        "--games",
        "3",
        "--seed",
        "5",
        "--threads",
        "64",
    ];
    let v = json(&args);
    assert_eq!(
        keys_of(v.as_object().expect("an object")),
        bench_keys("win_rate", false)
    );
    // Three games keep at most three threads busy.
    assert_eq!(v["threads"], 3);
    assert_eq!(v["unfinished"], 0);
    assert_eq!(v["games"], 3);
    // Games 5, 6 and 7 played again through `hint` and `play`: the summary must be theirs.
    let mut scores = Vec::new();
    let (mut wins, mut moves_played) = (0, 0);
    // The same bench with `--each`: a line for each game, then the same summary (but for the
    // thinking time, which is the clock's).
    let mut lines = json_lines(&[&args[..], &["--each"]].concat());
    assert_eq!(lines.len(), 4, "{lines:?}");
    let mut again = lines.pop().expect("the summary");
    again["mean_ms_per_move"] = v["mean_ms_per_move"].clone();
    assert_eq!(again, v);
    let mut each: Vec<&Value> = lines.iter().collect();
    each.sort_by_key(|game| game["seed"].as_u64());
    for seed in ["5", "6", "7"] {
        let mut moves: Vec<String> = Vec::new();
        let mut state = json(&["new", "strike9", "--seed", seed]);
        while state["over"] == false {
            let total = state["total"].to_string();
            moves.push(line(&[
                "hint",
                "strike9",
                "--open",
                &join(&state["open"]),
                "--total",
                &total,
            ]));
            state = json(&[
                "play",
                "strike9",
                "--seed",
                seed,
                "--moves",
                &moves.join(" "),
            ]);
        }
        scores.push(state["score"].as_u64().expect("a score"));
        wins += u64::from(state["won"] == true);
        moves_played += state["moves"].as_u64().expect("a count");
        // That seed's line says how its game went.
        let game = each.remove(0);
        assert_eq!(game["seed"].to_string(), seed);
        assert_eq!(game["finished"], true);
        for key in ["score", "won", "moves"] {
            assert_eq!(game[key], state[key], "{key} of seed {seed}: {game}");
        }
        assert_eq!(
            keys_of(game.as_object().expect("an object")),
            game_keys(false)
        );
    }
    scores.sort_unstable();
    let sum: u64 = scores.iter().sum();
    assert_eq!(v["max_score"], scores[2]);
    assert_eq!(v["median_score"].as_f64(), Some(scores[1] as f64));
    let mean = v["mean_score"].as_f64().expect("a mean");
    assert!((mean - sum as f64 / 3.0).abs() < 1e-4, "{mean}");
    let win_rate = v["win_rate"].as_f64().expect("a rate");
    assert!((win_rate - wins as f64 / 3.0).abs() < 1e-4, "{win_rate}");
    assert_eq!(v["moves"], moves_played);
}

// Strike 9's variants through `--params`, checked against `tilebox_strike9::Table` (the
// tests' own questions to the solver, not the tool's code path).

use tilebox_strike9::{Dice, OneDie, Scoring, Strike9Move, Strike9Params, Table};

/// Every valid combination of Strike 9's parameters, with its `--params` JSON.
fn strike9_variants() -> Vec<(Strike9Params, String)> {
    let mut all = Vec::new();
    for params in Strike9Params::every() {
        let text = serde_json::to_string(&params).expect("params serialise");
        all.push((params, text));
    }
    all
}

/// The tiles as `--open` takes them.
fn open_arg(tiles: TileSet) -> String {
    tiles
        .tiles()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// What `odds` must print for `params` with `open` open, from the tables.
fn expected_odds(params: &Strike9Params, open: TileSet) -> String {
    let chance = Table::shared_chance(params)
        .unwrap()
        .before_roll(open)
        .unwrap()
        .to_f64();
    let mut text = format!("{chance:.6}\n");
    if params.score.lower_is_better() {
        let expected = Table::shared(params)
            .unwrap()
            .before_roll(open)
            .unwrap()
            .to_f64();
        text.push_str(&format!("{expected:.4}\n"));
    }
    text
}

#[test]
fn odds_of_every_variant_match_the_tables() {
    for (params, json) in strike9_variants() {
        let full = params.full_box();
        let out = run(&["odds", "strike9", "--params", &json]);
        assert!(out.status.success(), "{json}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected_odds(&params, full), "{json}");
        // A box with a few tiles shut, the highest of the box still open.
        let open = full.difference(TileSet::first(3));
        let out = run(&[
            "odds",
            "strike9",
            "--params",
            &json,
            "--open",
            &open_arg(open),
        ]);
        assert!(out.status.success(), "{json}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected_odds(&params, open), "{json}");
        // Without an id, the same parameters of the Strike 9 kind.
        let out = run(&["odds", "--params", &json]);
        assert_eq!(stdout(&out), expected_odds(&params, full), "{json}");
    }
}

#[test]
fn odds_keeps_its_output_for_the_standard_game_and_refuses_other_games() {
    assert_eq!(line(&["odds"]), "0.071432");
    assert_eq!(line(&["odds", "strike9"]), "0.071432");
    assert_eq!(line(&["odds", "strike9", "--params", "{}"]), "0.071432");
    assert_eq!(line(&["odds", "strike9", "--open", "7"]), "0.166667");
    // Golf with one die once 7, 8 and 9 are shut: two lines.
    let golf = r#"{"one_die":"high_shut","score":"golf"}"#;
    let out = run(&["odds", "strike9", "--params", golf]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0].split('.').nth(1).map(str::len), Some(6), "{text}");
    assert_eq!(lines[1].split('.').nth(1).map(str::len), Some(4), "{text}");
    // {1} open with one die allowed: one roll in six shuts it, else 1 is left.
    let out = run(&["odds", "strike9", "--params", golf, "--open", "1"]);
    assert_eq!(stdout(&out), "0.166667\n0.8333\n");
    for entry in tilebox_games::registry().entries() {
        if !entry.is::<Strike9>() {
            let err = bad(&["odds", entry.id()]);
            assert!(err.contains("Strike 9"), "{err}");
        }
    }
    bad(&["odds", "no-such-game"]);
    // Tiles of the variant's box only.
    bad(&["odds", "strike9", "--open", "10"]);
    assert_eq!(
        line(&[
            "odds",
            "strike9",
            "--params",
            r#"{"tiles":10}"#,
            "--open",
            "10"
        ]),
        "0.083333"
    );
    bad(&[
        "odds",
        "strike9",
        "--params",
        r#"{"tiles":10}"#,
        "--open",
        "11",
    ]);
    assert_eq!(
        line(&[
            "odds",
            "strike9",
            "--params",
            r#"{"tiles":12}"#,
            "--open",
            "12"
        ]),
        "0.027778"
    );
}

#[test]
fn params_that_are_not_the_kinds_exit_2_with_one_line_on_every_command() {
    let bad_params = [
        r#"{"tiles":11}"#,
        r#"{"one_die":"sometimes"}"#,
        r#"{"score":"par"}"#,
        r#"{"colour":9}"#,
        "[9]",
        "null",
        "{tiles",
        "",
    ];
    for params in bad_params {
        for args in [
            vec!["new", "strike9", "--seed", "1"],
            vec!["play", "strike9", "--seed", "1", "--moves", ""],
            vec!["hint", "strike9", "--total", "7"],
            vec!["hint", "strike9", "--seed", "1"],
            vec!["odds", "strike9"],
            vec!["odds"],
            vec!["bench", "strike9", "--games", "1", "--seed", "1"],
        ] {
            let mut args = args;
            args.extend(["--params", params]);
            let err = bad(&args);
            assert!(err.starts_with("error: --params: "), "{args:?}: {err}");
        }
    }
    let err = bad(&["new", "strike9", "--params", r#"{"colour":9}"#]);
    assert!(err.contains("unknown field `colour`"), "{err}");
    let err = bad(&["new", "2048", "--params", r#"{"side":99}"#]);
    assert!(err.starts_with("error: --params: "), "{err}");
}

#[test]
fn new_and_play_take_params_for_any_entry() {
    // 2048 on another board, as the engine plays it.
    let params = Variant {
        side: 5,
        ..Variant::default()
    };
    let text = serde_json::to_string(&params).unwrap();
    let got = json(&[
        "play", "2048", "--seed", "4", "--moves", "LURD", "--params", &text,
    ]);
    assert_eq!(without_game(&got, "2048"), direct_2048(params, 4, "LURD"));
    // Strike 9 with twelve tiles and one die.
    let p = Strike9Params {
        tiles: 12,
        one_die: OneDie::LowTotal,
        score: Scoring::Digits,
    };
    let text = serde_json::to_string(&p).unwrap();
    let state = json(&["new", "strike9", "--seed", "9", "--params", &text]);
    assert_eq!(
        state["open"],
        serde_json::json!((1..=12).collect::<Vec<u8>>())
    );
    // A game played to a choice of dice with the table's moves, then one die, as the engine
    // plays it.
    let table = Table::shared(&p).unwrap();
    let (seed, moves) = (0..500u64)
        .find_map(|seed| {
            let mut session = Session::<Strike9>::new(p, seed).unwrap();
            let mut moves = Vec::new();
            while !session.state().is_over() {
                let state = session.state();
                if state.choosing_dice() {
                    moves.push("1d".to_string());
                    session.play_text("1d").unwrap();
                    return Some((seed, moves.join(" ")));
                }
                let best = table.best_move(state.open(), state.rolled_dice()?, state.total())?;
                moves.push(best.to_string());
                session.play(Strike9Move::Shut(best)).unwrap();
            }
            None
        })
        .expect("a game that reaches the choice of dice");
    let mut session = Session::<Strike9>::new(p, seed).unwrap();
    session.play_text(&moves).unwrap();
    let got = json(&[
        "play",
        "strike9",
        "--seed",
        &seed.to_string(),
        "--moves",
        &moves,
        "--params",
        &text,
    ]);
    assert_eq!(got["dice"].as_array().map(Vec::len), Some(1), "{got}");
    assert_eq!(got["open"], Strike9::view(session.state())["open"]);
    assert_eq!(got["dice"], Strike9::view(session.state())["dice"]);
    // 1d where the standard game rolls two dice at once is refused.
    bad(&["play", "strike9", "--seed", "5", "--moves", "1d"]);
}

#[test]
fn hint_of_every_variant_answers_the_tables_dice_and_tiles() {
    for (params, json) in strike9_variants() {
        let table = Table::shared(&params).unwrap();
        let full = params.full_box();
        // A few positions: the whole box, and the box with its highest tiles shut.
        let positions = [
            full,
            TileSet::first(6),
            TileSet::first(4),
            full.difference(TileSet::first(2)),
        ];
        for open in positions {
            let open_text = open_arg(open);
            for total in 1..=12u32 {
                let total_text = total.to_string();
                let args = [
                    "hint",
                    "strike9",
                    "--params",
                    &json,
                    "--open",
                    &open_text,
                    "--total",
                    &total_text,
                ];
                let dice = if total >= 2 { Dice::Two } else { Dice::One };
                let allowed = total >= 2 || params.one_die_allowed(open);
                match table.best_move(open, dice, total).filter(|_| allowed) {
                    Some(best) => assert_eq!(line(&args), best.to_string(), "{args:?}"),
                    None => {
                        bad(&args);
                    }
                }
            }
            let args = ["hint", "strike9", "--params", &json, "--open", &open_text];
            match table.best_dice(open) {
                Some(dice) => assert_eq!(line(&args), dice.to_string(), "{args:?}"),
                None => {
                    let err = bad(&args);
                    assert!(err.contains("--total"), "{err}");
                }
            }
        }
    }
}

#[test]
fn hint_of_a_game_replayed_with_params_is_the_tables_move() {
    let p = Strike9Params {
        tiles: 9,
        one_die: OneDie::HighShut,
        score: Scoring::Golf,
    };
    let text = serde_json::to_string(&p).unwrap();
    let table = Table::shared(&p).unwrap();
    let mut checked_dice = false;
    for seed in 0..40u64 {
        let mut session = Session::<Strike9>::new(p, seed).unwrap();
        let mut moves: Vec<String> = Vec::new();
        while !session.state().is_over() {
            let state = session.state();
            checked_dice |= state.choosing_dice();
            let want = table.best_in(state).unwrap();
            if seed < 4 || state.choosing_dice() {
                let joined = moves.join(" ");
                let seed_text = seed.to_string();
                let args = [
                    "hint", "strike9", "--params", &text, "--seed", &seed_text, "--moves", &joined,
                ];
                assert_eq!(line(&args), want.to_string(), "{args:?}");
            }
            moves.push(want.to_string());
            session.play(want).unwrap();
        }
    }
    assert!(checked_dice, "no game reached a choice of dice");
}

#[test]
fn bench_plays_the_table_of_any_variant_with_params() {
    let p = Strike9Params {
        tiles: 9,
        one_die: OneDie::HighShut,
        score: Scoring::Golf,
    };
    let text = serde_json::to_string(&p).unwrap();
    let report = json(&[
        "bench", "strike9", "--games", "30", "--seed", "11", "--params", &text,
    ]);
    assert_eq!(report["params"], serde_json::to_value(p).unwrap());
    // The same games played here with the table's moves.
    let table = Table::shared(&p).unwrap();
    let (mut total, mut wins, mut moves) = (0u64, 0u64, 0u64);
    for seed in 11..41u64 {
        let mut session = Session::<Strike9>::new(p, seed).unwrap();
        while !session.state().is_over() {
            let state = session.state();
            let mv = table.best_in(state).unwrap();
            session.play(mv).unwrap();
        }
        total += session.state().score();
        wins += u64::from(session.state().is_won());
        moves += session.moves().len() as u64;
    }
    let near = |got: &Value, want: f64| {
        let got = got.as_f64().expect("a number");
        assert!((got - want).abs() < 1e-4, "{got} {want}");
    };
    near(&report["mean_score"], total as f64 / 30.0);
    near(&report["win_rate"], wins as f64 / 30.0);
    assert_eq!(report["moves"].as_u64(), Some(moves));
    // Without --params the report is today's: no params key.
    let report = json(&["bench", "strike9", "--games", "2", "--seed", "1"]);
    assert!(report.get("params").is_none(), "{report}");
}

#[test]
fn entries_registered_with_variant_presets_answer_as_params_on_strike9() {
    let golf = Strike9Params {
        tiles: 9,
        one_die: OneDie::HighShut,
        score: Scoring::Golf,
    };
    let twelve = Strike9Params {
        tiles: 12,
        ..Strike9Params::default()
    };
    // The presets as the catalogue will register them; once it does, its own.
    let mut registry = tilebox_games::register(tilebox_core::Registry::new());
    for (id, params) in [("shut-the-box", golf), ("full-house", twelve)] {
        match registry.get(id) {
            Some(entry) => assert_eq!(entry.params::<Strike9>(), Some(&params), "{id}"),
            None => registry = registry.preset::<Strike9>(id, id, "A variant.", params),
        }
    }
    let in_process = |args: &[&str]| -> (u8, String) {
        let mut argv = vec!["tilebox-cli"];
        argv.extend_from_slice(args);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = tilebox_cli::run(&registry, argv, &mut std::io::empty(), &mut out, &mut err);
        (status, String::from_utf8(out).unwrap())
    };
    for (id, params) in [("shut-the-box", golf), ("full-house", twelve)] {
        let (status, text) = in_process(&["odds", id]);
        assert_eq!(status, 0);
        assert_eq!(text, expected_odds(&params, params.full_box()), "{id}");
        let json = serde_json::to_string(&params).unwrap();
        assert_eq!(in_process(&["odds", "strike9", "--params", &json]).1, text);
        // Hints by the table of the entry's own preset.
        let table = Table::shared(&params).unwrap();
        let (status, text) = in_process(&["hint", id, "--total", "12"]);
        assert_eq!(status, 0);
        let best = table.best_move(params.full_box(), Dice::Two, 12).unwrap();
        assert_eq!(text, format!("{best}\n"));
        let (status, text) = in_process(&["bench", id, "--games", "3", "--seed", "2"]);
        assert_eq!(status, 0, "{text}");
        let report: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(report["game"], id);
    }
    // The golf box of tiles 1 to 4: one die or two, as the table says.
    let (status, text) = in_process(&["hint", "shut-the-box", "--open", "1,2,3,4"]);
    assert_eq!(status, 0);
    let dice = Table::shared(&golf)
        .unwrap()
        .best_dice(TileSet::first(4))
        .unwrap();
    assert_eq!(text, format!("{dice}\n"));
    // --open takes tiles up to twelve on the twelve-tile entry.
    let (status, _) = in_process(&["odds", "full-house", "--open", "11,12"]);
    assert_eq!(status, 0);
}

/// The CLI reference's table of Strike 9 variants: each row's command prints the row's figures, and
/// they are the tables' own.
#[test]
fn the_reference_table_of_strike9_variants_is_what_the_tables_say() {
    let reference =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md"))
            .expect("docs/cli.md, the CLI reference");
    let section = reference
        .split("## Strike 9 variants\n")
        .nth(1)
        .expect("a section of the Strike 9 variants");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .skip_while(|l| !l.starts_with("| game"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    let ids: Vec<&str> = rows.iter().map(|r| r[0].trim_matches('`')).collect();
    assert_eq!(ids, ["strike9", "shut-the-box", "full-house"]);
    for row in &rows {
        let one_die: OneDie = serde_json::from_value(Value::from(row[2])).expect("a rule");
        let score: Scoring = serde_json::from_value(Value::from(row[3])).expect("a scoring");
        let params = Strike9Params {
            tiles: row[1].parse().expect("tiles"),
            one_die,
            score,
        };
        let mut want = format!("{}\n", row[4]);
        if !row[5].is_empty() {
            want.push_str(&format!("{}\n", row[5]));
        }
        assert_eq!(want, expected_odds(&params, params.full_box()), "{row:?}");
        let command = row[6].trim_matches('`');
        let args = command
            .strip_prefix("tilebox-cli ")
            .expect("a tilebox-cli command");
        // The arguments as a shell splits them: JSON in single quotes.
        let mut argv: Vec<&str> = Vec::new();
        for (i, part) in args.split('\'').enumerate() {
            if i % 2 == 1 {
                argv.push(part);
            } else {
                argv.extend(part.split_whitespace());
            }
        }
        let out = run(&argv);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        assert_eq!(stdout(&out), want, "{command}");
    }
}

/// The code `code` prints for these arguments.
fn code_of(args: &[&str]) -> String {
    let mut all = vec!["code"];
    all.extend_from_slice(args);
    line(&all)
}

#[test]
fn a_games_code_starts_the_same_game_as_its_id_and_seed() {
    let registry = tilebox_games::registry();
    let combination = registry
        .combinations()
        .into_iter()
        .next()
        .expect("a combination");
    let mut ids: Vec<String> = registry.ids().iter().map(|id| id.to_string()).collect();
    ids.push(combination.id().to_string());
    for id in &ids {
        for seed in ["0", "7", "1099511627775", &u64::MAX.to_string()] {
            let code = code_of(&[id, "--seed", seed]);
            let parsed: tilebox_core::GameCode = code.parse().expect("the code reads back");
            assert_eq!(parsed.entry, *id, "{code}");
            assert_eq!(parsed.seed.to_string(), seed, "{code}");
            assert_eq!(
                parsed.params, None,
                "{code}: the preset's params are not written"
            );
            let by_code = json(&["new", "--code", &code]);
            if registry.get(id).is_some() {
                assert_eq!(by_code, json(&["new", id, "--seed", seed]), "{code}");
            } else {
                // A combination is not an id `new` takes: its game is the entry's.
                let game = combination.new_session(seed.parse().unwrap()).unwrap();
                assert_eq!(by_code, game.state_json(), "{code}");
            }
        }
    }
    // With other params than the preset's, the code carries them.
    let params = r#"{"tiles":12,"score":"golf"}"#;
    let code = code_of(&["strike9", "--seed", "3", "--params", params]);
    assert!(code.split('.').count() == 4, "{code}");
    assert_eq!(
        json(&["new", "--code", &code]),
        json(&["new", "strike9", "--seed", "3", "--params", params])
    );
    // Lower case, spaces and a dash more read the same.
    let loose = format!(" {} ", code.to_lowercase().replacen('.', ". -", 1));
    assert_eq!(
        json(&["new", "--code", &loose]),
        json(&["new", "--code", &code])
    );
}

#[test]
fn play_with_a_code_replays_its_game() {
    for (id, seed, moves) in [
        ("2048", "7", "LURDLL"),
        ("threes", "1", "LURD"),
        ("strike9", "3", "7"),
    ] {
        let code = code_of(&[id, "--seed", seed]);
        assert_eq!(
            json(&["play", "--code", &code, "--moves", moves]),
            json(&["play", id, "--seed", seed, "--moves", moves]),
            "{id}"
        );
    }
    let code = code_of(&["strike9", "--seed", "3"]);
    let err = bad(&["play", "--code", &code, "--moves", "7 3+6"]);
    assert!(err.contains("move 2"), "{err}");
}

#[test]
fn a_mistyped_or_unknown_code_exits_2_with_its_reason() {
    let code = code_of(&["2048-5x5", "--seed", "123456789"]);
    // Each character of the seed changed in turn, and two neighbours swapped.
    let (id, rest) = code.split_once('.').unwrap();
    let seed_len = rest.find('.').unwrap();
    for i in 0..seed_len {
        let mut chars: Vec<char> = rest.chars().collect();
        if chars[i] == '-' {
            continue;
        }
        chars[i] = if chars[i] == 'X' { 'Y' } else { 'X' };
        let typo = format!("{id}.{}", chars.iter().collect::<String>());
        let err = bad(&["new", "--code", &typo]);
        assert_eq!(
            err, "error: --code: mistyped? the check characters do not match\n",
            "{typo}"
        );
    }
    let swapped = format!("{}.{}", id, {
        let mut chars: Vec<char> = rest.chars().collect();
        let at = chars.iter().position(|&c| c != chars[0]).unwrap();
        chars.swap(at - 1, at);
        chars.into_iter().collect::<String>()
    });
    let err = bad(&["play", "--code", &swapped, "--moves", "L"]);
    assert!(err.contains("mistyped?"), "{swapped}: {err}");
    // Not a code at all, or none.
    for text in ["", "2048", "2048.U.ABC", "2048.1.AB"] {
        let err = bad(&["new", "--code", text]);
        assert!(err.starts_with("error: --code: "), "{text:?}: {err}");
    }
    // A well-formed code of a game there is not.
    let unknown = tilebox_core::GameCode {
        entry: "no-such-game".into(),
        seed: 1,
        params: None,
    }
    .to_string();
    let err = bad(&["new", "--code", &unknown]);
    assert!(err.contains("'no-such-game'"), "{err}");
    // The code is instead of the id, the seed and the params.
    let good = code_of(&["2048", "--seed", "1"]);
    bad(&["new", "2048", "--code", &good]);
    bad(&["play", "--code", &good, "--seed", "1", "--moves", "L"]);
    bad(&["new", "--code", &good, "--params", "{}"]);
    bad(&["code", "no-such-game", "--seed", "1"]);
    bad(&["code", "2048"]);
}

#[test]
fn the_daily_code_is_fixed_for_a_date_and_entry() {
    let registry = tilebox_games::registry();
    for id in registry.ids() {
        let day = line(&["daily", id, "--date", "2026-11-23"]);
        assert_eq!(line(&["daily", id, "--date", "2026-11-23"]), day, "{id}");
        let next = line(&["daily", id, "--date", "2026-11-24"]);
        assert_ne!(next, day, "{id}");
        let parsed: tilebox_core::GameCode = day.parse().unwrap();
        let date: tilebox_core::date::Date = "2026-11-23".parse().unwrap();
        assert_eq!(parsed.entry, id);
        assert_eq!(parsed.seed, tilebox_core::daily_seed(id, date), "{id}");
        assert_eq!(parsed.params, None);
        // It is a code like any other.
        assert_eq!(
            json(&["new", "--code", &day]),
            json(&["new", id, "--seed", &parsed.seed.to_string()])
        );
    }
    let a = line(&["daily", "2048", "--date", "2026-11-23"]);
    assert_ne!(a, line(&["daily", "threes", "--date", "2026-11-23"]));
    // Without --date: today, in UTC (read before and after, in case midnight passes).
    let today = || {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        tilebox_core::date::Date::of_unix(now as i64).to_string()
    };
    let before = today();
    let shown = line(&["daily", "strike9"]);
    let after = today();
    assert!(
        [before, after]
            .iter()
            .any(|d| line(&["daily", "strike9", "--date", d]) == shown),
        "{shown}"
    );
    for date in ["2026-02-30", "23-11-2026", "today", ""] {
        let err = bad(&["daily", "2048", "--date", date]);
        assert!(err.starts_with("error: --date: "), "{date}: {err}");
    }
    bad(&["daily", "no-such-game"]);
}

/// A range of integers that does not start at 1 (1429's): the boards take and print each tile's place in the
/// range, and the state shows the integers beside them; `slide` plays the Compendium's walk
/// (1, 1, -1 moved left: the 1 and the -1 destroy each other, scoring nothing).
#[test]
fn a_range_of_integers_from_below_1_names_its_tiles_by_place_and_labels_them() {
    let state = json(&["new", "1429", "--seed", "3"]);
    let (values, labels) = (board(&state), state["labels"].clone());
    let mut seen = 0;
    for (r, row) in values.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            let label = labels[r][c].as_str().unwrap();
            if v == 0 {
                assert_eq!(label, ".");
            } else {
                // Place p in a range from -1,429 is the integer p - 1,430.
                assert_eq!(label, (v as i64 - 1430).to_string());
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 2, "{state}");
    let row = "[[1431,1431,1429,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]";
    let slid = json(&["slide", "1429", "left", "--board", row]);
    assert_eq!(board(&slid)[0], [1431, 0, 0, 0, 0]);
    assert_eq!(
        (slid["moved"].as_bool(), slid["gained"].as_u64()),
        (Some(true), Some(0))
    );
    // 1762's tiles are their own numbers: 3 and 4 make 7, which scores 7.
    let row = "[[3,4,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]";
    let slid = json(&["slide", "1762", "left", "--board", row]);
    assert_eq!(
        (board(&slid)[0].clone(), slid["gained"].as_u64()),
        (vec![7, 0, 0, 0], Some(7))
    );
    assert!(
        bad(&[
            "slide",
            "1762",
            "left",
            "--board",
            "[[70000,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]"
        ])
        .contains("70000 at row 0, column 0 is not a tile this game can hold")
    );
}
