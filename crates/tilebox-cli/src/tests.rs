//! The tool run in-process on a registry of a toy kind the catalogue does not have: every
//! command decides what a game can do by asking its entry, never by its id.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde_json::Value;
use tilebox_core::{
    AssistError, Assistant, FrontEnd, GameInfo, MoveError, ParamsError, ParseMoveError, Player,
    Puzzle, Registry, Status,
};

use super::*;

/// Take 1 or 2 tokens from a pile (its params: the pile's size, 0 meaning 7) until none is
/// left. The score and the top tile are the tokens taken.
struct Pile;

#[derive(Debug, Clone, PartialEq)]
struct PileState {
    left: u32,
    taken: u32,
}

impl fmt::Display for PileState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} left", self.left)
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Take(u32);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Take {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse() {
            Ok(n @ 1..=2) => Ok(Take(n)),
            _ => Err(ParseMoveError::new(s, "expected 1 or 2")),
        }
    }
}

impl Puzzle for Pile {
    type Params = u32;
    type State = PileState;
    type Move = Take;
    const INFO: GameInfo = GameInfo {
        id: "pile",
        title: "Pile",
        description: "Take the pile.",
    };

    fn new_game(size: &u32, _: u64) -> Result<PileState, ParamsError> {
        Ok(PileState {
            left: if *size == 0 { 7 } else { *size },
            taken: 0,
        })
    }

    fn apply(state: &PileState, mv: &Take) -> Result<PileState, MoveError> {
        if state.left == 0 {
            return Err(MoveError::GameOver);
        }
        if mv.0 > state.left {
            return Err(MoveError::Illegal("not that many left".into()));
        }
        Ok(PileState {
            left: state.left - mv.0,
            taken: state.taken + mv.0,
        })
    }

    fn status(state: &PileState) -> Status {
        Status {
            won: state.left == 0,
            over: state.left == 0,
        }
    }

    fn score(state: &PileState) -> u64 {
        u64::from(state.taken)
    }

    fn legal_moves(state: &PileState) -> Vec<Take> {
        (1..=state.left.min(2)).map(Take).collect()
    }

    fn view(state: &PileState) -> serde_json::Map<String, Value> {
        let mut map = serde_json::Map::new();
        map.insert("left".into(), state.left.into());
        map
    }

    fn top_tile(state: &PileState) -> Option<u64> {
        Some(u64::from(state.taken))
    }
}

/// The pile's front end: an assistant for piles up to 20, whose player takes 2 when it can and
/// cannot search a pile of more than 10.
struct PileFront;

struct Greedy;

impl Player<Pile> for Greedy {
    fn best_move(&mut self, state: &PileState, _: Duration) -> Result<Option<Take>, AssistError> {
        if state.left > 10 {
            return Err(AssistError::CannotPlay(
                "the pile player counts to 10 only".into(),
            ));
        }
        Ok(Pile::legal_moves(state).last().copied())
    }
}

impl Assistant<Pile> for PileFront {
    fn plays(&self, size: &u32) -> bool {
        *size <= 20
    }
    fn player(&self) -> Box<dyn Player<Pile>> {
        Box::new(Greedy)
    }
}

impl FrontEnd<Pile> for PileFront {
    fn assistant(&self) -> Option<&dyn Assistant<Pile>> {
        Some(self)
    }
}

fn toys() -> Registry {
    Registry::new()
        .kind::<Pile>(PileFront)
        .preset::<Pile>("pile-12", "Pile of 12", "Too big for its player.", 12)
        .preset::<Pile>("pile-30", "Pile of 30", "No player at all.", 30)
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

#[test]
fn list_new_and_play_work_on_any_kind() {
    let toys = toys();
    let (code, out, _) = call(&toys, &["list"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "pile\tPile\npile-12\tPile of 12\npile-30\tPile of 30\n"
    );
    let v = json(&toys, &["new", "pile-12", "--seed", "3"]);
    assert_eq!(v["game"], "pile-12");
    assert_eq!(v["left"], 12);
    let v = json(&toys, &["play", "pile", "--seed", "3", "--moves", "2 2 1"]);
    assert_eq!(
        (v["left"].clone(), v["score"].clone()),
        (2.into(), 5.into())
    );
    let err = fails(&toys, &["play", "pile", "--seed", "3", "--moves", "2 3"], 2);
    assert!(err.contains("move 2"), "{err}");
    let err = fails(&toys, &["new", "2048"], 2);
    assert!(
        err.contains("the games are: pile, pile-12, pile-30"),
        "{err}"
    );
}

#[test]
fn hint_asks_the_entrys_player() {
    let toys = toys();
    let (code, out, err) = call(&toys, &["hint", "pile", "--seed", "1", "--moves", "2 2"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "2\n", ""));
    let (_, out, _) = call(&toys, &["hint", "pile", "--seed", "1", "--moves", "2 2 2"]);
    assert_eq!(out, "1\n");
    let err = fails(
        &toys,
        &["hint", "pile", "--seed", "1", "--moves", "2 2 2 1"],
        2,
    );
    assert!(err.contains("the game is over"), "{err}");
    // A position the player cannot search: status 1 and its reason.
    let err = fails(&toys, &["hint", "pile-12", "--seed", "1"], 1);
    assert_eq!(err, "error: the pile player counts to 10 only\n");
    // Two tokens fewer, and it can.
    let (_, out, _) = call(&toys, &["hint", "pile-12", "--seed", "1", "--moves", "2"]);
    assert_eq!(out, "2\n");
    // No player plays a pile of 30: bad input, naming the games that have one.
    for args in [
        &["hint", "pile-30", "--seed", "1"][..],
        &["bench", "pile-30", "--games", "1", "--seed", "1"],
    ] {
        let err = fails(&toys, args, 2);
        assert_eq!(
            err,
            format!(
                "error: 'pile-30' has no AI player ({} works on: pile, pile-12)\n",
                args[0]
            )
        );
    }
    let err = fails(&toys, &["hint", "pile"], 2);
    assert!(err.contains("--seed"), "{err}");
    // The Strike 9 table is for the Strike 9 kind, and this registry has none.
    let err = fails(&toys, &["hint", "pile", "--total", "7"], 2);
    assert!(err.contains("(games: none)"), "{err}");
    let err = fails(&toys, &["slide", "pile", "left", "--board", "[[0]]"], 2);
    assert!(err.contains("(slide works on: none)"), "{err}");
}

#[test]
fn bench_plays_with_the_entrys_player_and_reports_its_top_tiles() {
    let toys = toys();
    let v = json(
        &toys,
        &[
            "bench",
            "pile",
            "--games",
            "3",
            "--seed",
            "4",
            "--ms-per-move",
            "0",
        ],
    );
    let keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "game",
            "seed",
            "ms_per_move",
            "threads",
            "games",
            "unfinished",
            "mean_score",
            "median_score",
            "max_score",
            "reach",
            "moves",
            "mean_ms_per_move"
        ]
    );
    // 7 taken as 2 + 2 + 2 + 1, in every game.
    assert_eq!(v["unfinished"], 0);
    assert_eq!(v["moves"], 12);
    assert_eq!(v["max_score"], 7);
    assert_eq!(v["reach"], serde_json::json!({"7": 1.0}));
    // The player gives up on every game of 12 at once: unfinished, with the figures at that.
    let v = json(
        &toys,
        &[
            "bench",
            "pile-12",
            "--games",
            "2",
            "--seed",
            "1",
            "--threads",
            "2",
        ],
    );
    assert_eq!(v["unfinished"], 2);
    assert_eq!(v["moves"], 0);
    assert_eq!(v["ms_per_move"], 200);
    assert_eq!(v["reach"], serde_json::json!({"0": 1.0}));
}

#[test]
fn help_and_version_are_plain_text_on_the_given_stdout() {
    let (code, out, err) = call(&toys(), &["--version"]);
    assert_eq!(code, 0);
    assert_eq!(out, format!("tilebox-cli {}\n", env!("CARGO_PKG_VERSION")));
    assert_eq!(err, "");
    let (code, out, _) = call(&toys(), &["hint", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Usage: tilebox-cli hint"), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
    let err = fails(&toys(), &[], 2);
    assert!(err.contains("a command is needed"), "{err}");
}
