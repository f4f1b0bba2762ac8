//! Runs the `tilebox-cli` binary as a user would and checks its output and exit status against
//! the interface documented in the README.

// Helpers outside #[test] functions panic too: in a test, a panic is the failure report.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn run_with_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
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
        .write_all(stdin.as_bytes())
        .expect("stdin takes the input");
    child.wait_with_output().expect("the binary finishes")
}

fn run(args: &[&str]) -> Output {
    run_with_stdin(args, "")
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
    bad_with_stdin(args, "")
}

fn bad_with_stdin(args: &[&str], stdin: &str) -> String {
    let out = run_with_stdin(args, stdin);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one-line message: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn board(v: &Value) -> Vec<Vec<u64>> {
    serde_json::from_value(v["board"].clone()).expect("board is rows of numbers")
}

#[test]
fn list_prints_id_tab_title_for_each_game() {
    let out = run(&["list"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out),
        "2048\t2048\nthrees\tThrees\nstrike9\tStrike 9\n"
    );
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
        "[[2,2],[0,0]]\n\n[[0,4],[4,4]]\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(board(&lines[0]), [[4, 0], [0, 0]]);
    assert_eq!(board(&lines[1]), [[4, 0], [8, 0]]);
    let err = bad_with_stdin(
        &["slide", "2048", "left", "--board", "-"],
        "[[2,2],[0,0]]\n[[3,0],[0,0]]\n",
    );
    assert!(err.contains("line 2"), "{err}");
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
    ] {
        bad(&args);
    }
    assert!(bad(&["new", "chess"]).contains("2048, threes, strike9"));
}

#[test]
fn help_and_version_succeed() {
    let out = run(&["--help"]);
    assert!(out.status.success());
    for command in ["list", "new", "play", "slide", "addends"] {
        assert!(stdout(&out).contains(command));
    }
    assert!(run(&["--version"]).status.success());
}

/// The README's examples are run as written (through `sh`, with this build first on the PATH) and
/// must print exactly what the README shows, so the reference cannot drift from the tool.
#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the top of the workspace");
    let block = readme
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
            .output()
            .expect("sh runs");
        let shown = format!("{}{}", stdout(&out), stderr(&out));
        assert_eq!(shown, expected, "$ {command}");
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
fn hint_2048_and_threes_name_a_move_that_changes_the_board() {
    for game in ["2048", "threes"] {
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

    bad(&["bench", "threes", "--games", "1", "--seed", "1"]);
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
