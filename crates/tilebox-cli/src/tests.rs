//! The tool run in-process on registries of the tests' toy kind (`tilebox_tests::toy`), which
//! the catalogue does not have: every command decides what a game can do by asking its entry,
//! never by its id.

use std::time::Duration;

use serde_json::{Value, json};
use tilebox_core::{Assistant, Entry, FrontEnd, Player, Puzzle, Registry, Session};
use tilebox_games::Strike9FrontEnd;
use tilebox_strike9::{Odds, Strike9, Strike9Params, TileSet};
use tilebox_tests::toy::{self, Take, Toy, ToyCoach, ToyParams};

use super::*;

/// What the binary's tests check too: the order of `bench`'s keys.
#[path = "../tests/common/mod.rs"]
pub(crate) mod common;

use common::{bench_keys, keys_of};

/// The toy with [`ToyCoach`]'s assistant: `toy` has a player, which refuses a row of more than
/// 8 pebbles; `toy-9` has none.
fn coached() -> Registry {
    toy::with_toy_front_end(Registry::new(), ToyCoach)
}

/// What `list` prints for `registry`: `<id><TAB><title>` a line, every entry in order.
fn listing(registry: &Registry) -> String {
    registry
        .entries()
        .iter()
        .map(|e| format!("{}\t{}\n", e.id(), e.title()))
        .collect()
}

/// The ids of the entries of `registry` that pass `keep`, as messages list them.
fn ids(registry: &Registry, keep: impl Fn(&Entry) -> bool) -> String {
    let ids: Vec<&str> = registry
        .entries()
        .iter()
        .filter(|e| keep(e))
        .map(Entry::id)
        .collect();
    ids.join(", ")
}

/// The pebbles a game of `toy` starts with, from `seed`.
fn pebbles(seed: u64) -> u64 {
    Toy::new_game(&ToyParams::default(), seed)
        .expect("the default row")
        .pebbles_left()
}

/// Runs the tool on `registry` in-process: status, stdout, stderr.
fn call(registry: &Registry, args: &[&str]) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = run(
        registry,
        std::iter::once("tilebox-cli").chain(args.iter().copied()),
        &mut io::empty(),
        &mut out,
        &mut err,
    );
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8");
    (status, text(out), text(err))
}

/// A failure: the status, nothing on stdout, and the one-line message.
fn fails(registry: &Registry, args: &[&str], status: u8) -> String {
    let (code, out, err) = call(registry, args);
    assert_eq!(code, status, "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

fn json(registry: &Registry, args: &[&str]) -> Value {
    let (code, out, err) = call(registry, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    serde_json::from_str(&out).expect("JSON")
}

/// Checks that the state JSON `v` shows `game`, a toy game played by the toy's own rules.
fn shows(v: &Value, game: &Session<Toy>) {
    assert_eq!(v["pebbles"], json!(game.state().pebbles()), "{v}");
    assert_eq!(v["moves"], game.moves().len(), "{v}");
    assert_eq!(v["score"], game.score(), "{v}");
    assert_eq!(v["over"], game.status().over, "{v}");
}

#[test]
fn list_new_and_play_work_on_any_kind() {
    let toys = coached();
    let (code, out, _) = call(&toys, &["list"]);
    assert_eq!(code, 0);
    assert_eq!(out, listing(&toys));
    assert_eq!(out.lines().count(), 2, "{out}");
    let v = json(&toys, &["new", "toy-9", "--seed", "3"]);
    assert_eq!(v["game"], "toy-9");
    shows(
        &v,
        &Session::new(ToyParams { cells: 9 }, 3).expect("nine cells"),
    );
    let v = json(&toys, &["play", "toy", "--seed", "3", "--moves", "1 2 1"]);
    let mut game = Session::<Toy>::with_seed(3).expect("the default row");
    game.play_text("1 2 1").expect("cells of the row");
    assert_eq!(game.score(), 3);
    shows(&v, &game);
    let err = fails(&toys, &["play", "toy", "--seed", "3", "--moves", "2 0"], 2);
    assert!(err.contains("move 2"), "{err}");
    // A game of the catalogue is unknown to a registry without it.
    let real = tilebox_games::registry();
    let elsewhere = real.entries()[0].id();
    let err = fails(&toys, &["new", elsewhere], 2);
    assert_eq!(
        err,
        format!(
            "error: unknown game '{elsewhere}' (the games are: {})\n",
            ids(&toys, |_| true)
        )
    );
}

#[test]
fn codes_and_daily_codes_work_on_any_kind() {
    let toys = coached();
    let (status, code, err) = call(&toys, &["code", "toy-9", "--seed", "3"]);
    assert_eq!(status, 0, "{err}");
    let code = code.trim_end();
    assert_eq!(
        json(&toys, &["new", "--code", code]),
        json(&toys, &["new", "toy-9", "--seed", "3"])
    );
    assert_eq!(
        json(&toys, &["play", "--code", code, "--moves", "1 2"]),
        json(&toys, &["play", "toy-9", "--seed", "3", "--moves", "1 2"])
    );
    // The toy's own params travel in the code.
    let (_, with, _) = call(
        &toys,
        &["code", "toy", "--seed", "4", "--params", r#"{"cells":6}"#],
    );
    let v = json(&toys, &["new", "--code", with.trim_end()]);
    assert_eq!(v["game"], "toy");
    shows(
        &v,
        &Session::new(ToyParams { cells: 6 }, 4).expect("six cells"),
    );
    let (status, daily, _) = call(&toys, &["daily", "toy", "--date", "2026-11-23"]);
    assert_eq!(status, 0);
    let parsed: tilebox_core::GameCode = daily.trim_end().parse().expect("a code");
    let date = "2026-11-23".parse().expect("a date");
    assert_eq!(parsed.seed, tilebox_core::daily_seed("toy", date));
    // A code of the catalogue's is of a game this registry does not have.
    let (_, real, _) = call(
        &tilebox_games::registry(),
        &["code", "strike9", "--seed", "1"],
    );
    let err = fails(&toys, &["new", "--code", real.trim_end()], 2);
    assert!(err.contains("does not have: 'strike9'"), "{err}");
}

#[test]
fn hint_asks_the_entrys_player() {
    let toys = coached();
    // Seed 1's row holds 7 pebbles, which the player counts: the hint is its move in every
    // position of the game, to the end.
    assert_eq!(pebbles(1), 7);
    let mut game = Session::<Toy>::with_seed(1).expect("the default row");
    let mut player = ToyCoach.player();
    let mut moves = Vec::new();
    while !game.status().over {
        let played = moves.join(" ");
        let (code, out, err) = call(&toys, &["hint", "toy", "--seed", "1", "--moves", &played]);
        let best: Take = player
            .best_move(game.state(), Duration::ZERO)
            .expect("it counts this row")
            .expect("a move in a game in play");
        assert_eq!((code, out, err.as_str()), (0, format!("{best}\n"), ""));
        game.play(best).expect("a legal move");
        moves.push(best.to_string());
    }
    assert_eq!(moves.len(), 7);
    let err = fails(
        &toys,
        &["hint", "toy", "--seed", "1", "--moves", &moves.join(" ")],
        2,
    );
    assert!(err.contains("the game is over"), "{err}");
    // A row the player cannot count, seed 2's 10 pebbles: status 1 and its reason.
    assert_eq!(pebbles(2), 10);
    let err = fails(&toys, &["hint", "toy", "--seed", "2"], 1);
    assert_eq!(err, "error: the toy's player counts to 8 pebbles only\n");
    // Two pebbles fewer, and it can.
    let mut game = Session::<Toy>::with_seed(2).expect("the default row");
    game.play_text("1 2").expect("cells of the row");
    assert_eq!(game.score(), 2);
    let best = player
        .best_move(game.state(), Duration::ZERO)
        .expect("it counts 8")
        .expect("a move");
    let (_, out, _) = call(&toys, &["hint", "toy", "--seed", "2", "--moves", "1 2"]);
    assert_eq!(out, format!("{best}\n"));
    // No player plays a row of nine cells: bad input, naming the games that have one.
    for args in [
        &["hint", "toy-9", "--seed", "1"][..],
        &["bench", "toy-9", "--games", "1", "--seed", "1"],
    ] {
        let err = fails(&toys, args, 2);
        assert_eq!(
            err,
            format!(
                "error: 'toy-9' has no AI player ({} works on: toy)\n",
                args[0]
            )
        );
    }
    let err = fails(&toys, &["hint", "toy"], 2);
    assert!(err.contains("--seed"), "{err}");
    // The Strike 9 table is for the Strike 9 kind, and this registry has none.
    let err = fails(&toys, &["hint", "toy", "--total", "7"], 2);
    assert!(err.contains("(games: none)"), "{err}");
    let err = fails(&toys, &["slide", "toy", "left", "--board", "[[0]]"], 2);
    assert!(err.contains("(slide works on: none)"), "{err}");
}

#[test]
fn bench_plays_with_the_entrys_player_and_reports_its_top_tiles() {
    let toys = coached();
    // Three games of `toy` from `seed`, with one more option.
    let bench = |seed: &str, option: &str, value: &str| {
        json(
            &toys,
            &[
                "bench", "toy", "--games", "3", "--seed", seed, option, value,
            ],
        )
    };
    // Seeds 28, 29 and 30 start with 5, 6 and 4 pebbles, all counted: every game takes them all,
    // and its top tile is what it took.
    assert_eq!([28, 29, 30].map(pebbles), [5, 6, 4]);
    let v = bench("28", "--ms-per-move", "0");
    assert_eq!(
        keys_of(v.as_object().expect("an object")),
        bench_keys("reach", false)
    );
    assert_eq!(v["unfinished"], 0);
    assert_eq!(v["moves"], 15);
    assert_eq!(v["max_score"], 6);
    assert_eq!(v["median_score"], 5.0);
    // Without a sliding rule set, `reach` lists the top tiles the games made.
    assert_eq!(v["reach"], json!({"4": 1.0, "5": 0.6667, "6": 0.3333}));
    // The player gives up on the games of 10 pebbles at once: unfinished, with the figures at
    // that, beside the game of 8 it plays to its end.
    assert_eq!([2, 3, 4].map(pebbles), [10, 8, 10]);
    let v = bench("2", "--threads", "2");
    assert_eq!(v["unfinished"], 2);
    assert_eq!(v["moves"], 8);
    assert_eq!(v["max_score"], 8);
    assert_eq!(v["ms_per_move"], 200);
    assert_eq!(v["threads"], 2);
    assert_eq!(v["reach"], json!({"0": 1.0, "8": 0.3333}));
}

#[test]
fn help_and_version_are_plain_text_on_the_given_stdout() {
    let (code, out, err) = call(&coached(), &["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("tilebox-cli {}\n", env!("CARGO_PKG_VERSION")));
    assert_eq!(err, "");
    let (code, out, _) = call(&coached(), &["hint", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage: tilebox-cli hint"), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
    let err = fails(&coached(), &[], 2);
    assert!(err.contains("a command is needed"), "{err}");
}

/// The real catalogue followed by the toy, as a host's test takes it: every entry is listed,
/// started and played, the toy's by its own rules and the real ones exactly as without the toy.
#[test]
fn the_catalogue_with_the_toy_plays_the_toys_entries_and_the_real_ones_as_before() {
    let real = tilebox_games::registry();
    let both = toy::catalogue_with_toy();
    let (code, listed, _) = call(&both, &["list"]);
    assert_eq!(code, 0);
    let expected: String = real
        .entries()
        .iter()
        .chain(toy::registry().entries())
        .map(|e| format!("{}\t{}\n", e.id(), e.title()))
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(
        listed,
        call(&real, &["list"]).1 + &listing(&toy::registry())
    );
    for entry in both.entries() {
        let id = entry.id();
        let session = entry.new_session(5).expect("its preset");
        // The tool asks the entry for its assistant; its games start from the entry's preset,
        // so that is the one their sessions would give.
        assert_eq!(
            entry.assistant().is_some(),
            session.assistant().is_some(),
            "{id}"
        );
        let first = session.legal_moves()[0].clone();
        let new = ["new", id, "--seed", "5"];
        let play = ["play", id, "--seed", "5", "--moves", &first];
        let (started, played) = (json(&both, &new), json(&both, &play));
        assert_eq!(
            (&started["game"], &played["game"]),
            (&json!(id), &json!(id))
        );
        assert_eq!(
            (&started["moves"], &played["moves"]),
            (&json!(0), &json!(1))
        );
        if let Some(params) = entry.params::<Toy>() {
            let mut game = Session::<Toy>::new(*params, 5).expect("its preset");
            shows(&started, &game);
            game.play_text(&first).expect("a legal move");
            shows(&played, &game);
        } else {
            assert_eq!(started, json(&real, &new), "{id}");
            assert_eq!(played, json(&real, &play), "{id}");
        }
    }
    // The toy has no player here; the games with one are the real ones, as before.
    let err = fails(&both, &["hint", "toy", "--seed", "1"], 2);
    assert_eq!(
        err,
        format!(
            "error: 'toy' has no AI player (hint works on: {})\n",
            ids(&real, |e| e.assistant().is_some())
        )
    );
}

/// Strike 9 with an assistant that plays no parameters: what a box the exact table is not solved
/// for (10 or 12 tiles, say) is to the tool.
struct Untabled;

impl FrontEnd<Strike9> for Untabled {
    fn assistant(&self) -> Option<&dyn Assistant<Strike9>> {
        Some(self)
    }
}

impl Assistant<Strike9> for Untabled {
    fn plays(&self, _: &Strike9Params) -> bool {
        false
    }

    fn player(&self) -> Box<dyn Player<Strike9>> {
        Strike9FrontEnd.player()
    }
}

/// `hint --open/--total` answers from the table for the Strike 9 entries whose assistant plays
/// their parameters, and for no other entry, whatever its kind.
#[test]
fn the_strike9_table_answers_for_the_entries_its_assistant_plays() {
    let table = Odds::shared()
        .best_move(TileSet::ALL, 7)
        .expect("a roll of 7 can be made");
    let real = tilebox_games::registry();
    let covered = ids(&real, |e| e.is::<Strike9>() && e.assistant().is_some());
    assert!(
        !covered.is_empty(),
        "the catalogue's Strike 9 has the table"
    );
    for entry in real.entries() {
        let id = entry.id();
        let args = ["hint", id, "--total", "7"];
        if entry.is::<Strike9>() && entry.assistant().is_some() {
            assert_eq!(call(&real, &args), (0, format!("{table}\n"), String::new()));
        } else {
            let err = fails(&real, &args, 2);
            assert!(err.contains(&format!("(games: {covered})")), "{err}");
        }
    }
    // A Strike 9 entry its assistant does not play: no table, and the message says why.
    let untabled = toy::with_toy_front_end(Registry::new().kind::<Strike9>(Untabled), ToyCoach);
    let id = Strike9::INFO.id;
    let entry = untabled.get(id).expect("the kind's standard entry");
    assert!(entry.is::<Strike9>() && entry.assistant().is_none());
    for args in [
        &["hint", id, "--total", "7"][..],
        &["hint", id, "--open", "1,2,4", "--total", "7"],
    ] {
        let err = fails(&untabled, args, 2);
        assert_eq!(
            err,
            format!(
                "error: --open and --total are for the Strike 9 table, which does not cover '{id}' (it covers the games its assistant plays: none)\n"
            )
        );
    }
    // Nor does its player give hints: it plays no game of the registry but the toy's.
    let err = fails(&untabled, &["hint", id, "--seed", "1"], 2);
    assert_eq!(
        err,
        format!("error: '{id}' has no AI player (hint works on: toy)\n")
    );
}
