//! What the binary's tests (`tests/cli.rs`) and the in-process ones check alike: `docs/cli.md`'s
//! order of the keys of `bench`'s JSON. `src/tests.rs` takes this file by its path, for its own
//! tests and for those of `src/bench.rs`.

use serde_json::{Map, Value};

/// The keys of `bench`'s summary of the games, in `docs/cli.md`'s order: `figure` is `reach` for
/// games whose sessions report a top tile, `win_rate` for the others.
pub fn summary_keys(figure: &str) -> Vec<&str> {
    vec![
        "games",
        "unfinished",
        "mean_score",
        "median_score",
        "max_score",
        figure,
        "moves",
        "mean_ms_per_move",
    ]
}

/// The keys of a game's line of `bench --each`, in `docs/cli.md`'s order: `top_tile` for games
/// whose sessions report one.
pub fn game_keys(top_tile: bool) -> Vec<&'static str> {
    let mut keys = vec!["seed", "finished", "score"];
    if top_tile {
        keys.push("top_tile");
    }
    keys.extend(["won", "moves", "ms_per_move"]);
    keys
}

/// Every key of `bench`'s JSON, in `docs/cli.md`'s order: what it was asked (`game`, `seed`,
/// `ms_per_move`, `threads`), when `player` (the sliding games) which evaluation their player
/// used, then the [`summary_keys`].
pub fn bench_keys(figure: &str, player: bool) -> Vec<&str> {
    let mut keys = vec!["game", "seed", "ms_per_move", "threads"];
    if player {
        keys.push("player");
    }
    keys.extend(summary_keys(figure));
    keys
}

/// The keys of a JSON object, in their order.
pub fn keys_of(object: &Map<String, Value>) -> Vec<&str> {
    object.keys().map(String::as_str).collect()
}
