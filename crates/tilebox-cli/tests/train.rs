//! `train`, run as the binary: it saves the network to `players/<id>.weights` in the data
//! directory, resumes from it exactly, and refuses a bad file in one line.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn train(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .arg("train")
        .args(args)
        .env("XDG_DATA_HOME", data)
        .output()
        .expect("the binary runs")
}

fn weights(data: &Path, id: &str) -> PathBuf {
    data.join("tilebox")
        .join("players")
        .join(format!("{id}.weights"))
}

fn summary(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one line of JSON")
}

/// A new run of 2048's small network with `seed`, trained to `games` games: its summary.
fn new_small_run(data: &Path, games: u64, seed: u64) -> serde_json::Value {
    let (games, seed) = (games.to_string(), seed.to_string());
    summary(&train(
        data,
        &[
            "2048",
            "--games",
            &games,
            "--network",
            "small",
            "--seed",
            &seed,
        ],
    ))
}

#[test]
fn a_resumed_run_makes_the_file_one_run_makes() {
    let once = tempfile::tempdir().unwrap();
    let split = tempfile::tempdir().unwrap();
    let whole = new_small_run(once.path(), 40, 5);
    assert_eq!(whole["games"], 40);
    assert_eq!(whole["network"], "small");
    assert_eq!(
        whole["method"], "restarts",
        "a new run plays its games again"
    );
    let half = new_small_run(split.path(), 20, 5);
    assert_eq!(half["games"], 20);
    // The rerun takes the seed and the network from the file.
    let rest = summary(&train(split.path(), &["2048", "--games", "40"]));
    assert_eq!(rest["games"], 40);
    assert_eq!(rest["seed"], 5);
    assert_eq!(rest["moves"], whole["moves"]);
    let a = std::fs::read(weights(once.path(), "2048")).unwrap();
    let b = std::fs::read(weights(split.path(), "2048")).unwrap();
    assert!(a == b, "the files differ");
    assert_eq!(
        (&whole["learning"], &whole["stages"]),
        (&serde_json::json!("tc"), &serde_json::json!(2)),
        "a new run learns by temporal coherence in two stages"
    );
    assert_eq!(rest["learning"], "tc");
    // Progress went to stderr, a line at a time (not a terminal).
    let err = String::from_utf8(train(split.path(), &["2048", "--games", "41"]).stderr).unwrap();
    assert!(err.starts_with("games "), "{err}");
    assert!(err.contains("moves/s") && err.contains("left"), "{err}");
}

/// `--learning td0` has a new run learn by TD(0) in one stage, as the releases before did; the
/// run keeps it, and another rule asked of it is refused.
#[test]
fn a_run_learns_by_td0_when_asked_and_keeps_its_rule() {
    let data = tempfile::tempdir().unwrap();
    let td = summary(&train(
        data.path(),
        &[
            "2048",
            "--games",
            "3",
            "--network",
            "small",
            "--learning",
            "td0",
        ],
    ));
    assert_eq!(
        (&td["learning"], &td["stages"]),
        (&serde_json::json!("td0"), &serde_json::json!(1))
    );
    let on = summary(&train(data.path(), &["2048", "--games", "5"]));
    assert_eq!(
        (&on["learning"], &on["games"]),
        (&serde_json::json!("td0"), &serde_json::json!(5))
    );
    let out = train(data.path(), &["2048", "--games", "6", "--learning", "tc"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: --learning tc: ")
            && err.ends_with("continues a run learning by td0 (remove it to train afresh)\n"),
        "{err}"
    );
}

/// A run killed (SIGKILL: no handler runs) between two saves leaves its last save whole and
/// its lock free; the rerun goes on from that save and makes the file one run makes.
#[test]
fn a_killed_run_resumes_from_its_last_save() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let once = tempfile::tempdir().unwrap();
    let killed = tempfile::tempdir().unwrap();
    let whole = new_small_run(once.path(), 30, 3);
    new_small_run(killed.path(), 15, 3);
    let saved = std::fs::read(weights(killed.path(), "2048")).unwrap();
    // A run toward far more games, killed once it has played a game past its file (its first
    // line of progress), long before its first save a minute in.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .args(["train", "2048", "--games", "100000000"])
        .env("XDG_DATA_HOME", killed.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("games 16/100000000"), "{first}");
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success());
    assert!(
        std::fs::read(weights(killed.path(), "2048")).unwrap() == saved,
        "the last save is whole"
    );
    let rest = summary(&train(killed.path(), &["2048", "--games", "30"]));
    assert_eq!(rest["games"], 30);
    assert_eq!(rest["moves"], whole["moves"]);
    let a = std::fs::read(weights(once.path(), "2048")).unwrap();
    let b = std::fs::read(weights(killed.path(), "2048")).unwrap();
    assert!(a == b, "the files differ");
}

#[test]
fn a_refused_file_stops_training_in_one_line_and_is_left_alone() {
    let data = tempfile::tempdir().unwrap();
    summary(&train(
        data.path(),
        &["2048", "--games", "3", "--network", "small"],
    ));
    let path = weights(data.path(), "2048");
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let out = train(data.path(), &["2048", "--games", "6"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("2048.weights: corrupt"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "left alone");

    // Another seed or network than the file's is refused; so is a game that is not 4×4.
    std::fs::remove_file(&path).unwrap();
    summary(&train(
        data.path(),
        &["2048", "--games", "1", "--network", "small"],
    ));
    for args in [
        &["2048", "--seed", "9"][..],
        &["2048", "--network", "standard"][..],
        &["2048-5x5", "--network", "small"][..],
        &["strike9"][..],
        // 4×4, but a range of integers: no network learns it.
        &["1762", "--network", "small"][..],
    ] {
        let out = train(data.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let err = String::from_utf8(train(data.path(), &["1762"]).stderr).unwrap();
    assert!(
        err.contains("'1762' is not a game a network can learn"),
        "{err}"
    );
    assert!(!err.contains("1762,") && err.contains("2584"), "{err}");
}

/// One quick game of `game` (up to the small winning tile `win`: the same rules, so the same
/// network) benched with the players of `data`.
fn bench_of(data: &Path, game: &str, win: u64) -> (serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .args([
            "bench",
            game,
            "--games",
            "1",
            "--seed",
            "3",
            "--ms-per-move",
            "1",
        ])
        .args(["--until-win", "--params", &format!(r#"{{"win":{win}}}"#)])
        .env("XDG_DATA_HOME", data)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{err}");
    (serde_json::from_slice(&out.stdout).unwrap(), err)
}

fn bench(data: &Path) -> (serde_json::Value, String) {
    bench_of(data, "2048", 64)
}

/// Without a file the players use the heuristic; with one, the network; with a refused one,
/// the heuristic again, and `bench` says why in one line.
#[test]
fn bench_plays_with_the_network_when_its_file_is_there() {
    let data = tempfile::tempdir().unwrap();
    let (report, err) = bench(data.path());
    assert_eq!(report["player"], "heuristic");
    assert_eq!(err, "");

    summary(&train(
        data.path(),
        &["2048", "--games", "20", "--network", "small"],
    ));
    let (report, err) = bench(data.path());
    assert_eq!(report["player"], "network", "{err}");
    assert_eq!(err, "");
    assert!(report["moves"].as_u64().unwrap() > 0);
    // Another game's players are not 2048's.
    let (other, _) = bench_of(data.path(), "2584", 21);
    assert_eq!(other["player"], "heuristic");

    let path = weights(data.path(), "2048");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let (report, err) = bench(data.path());
    assert_eq!(report["player"], "heuristic");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("warning: "), "{err}");
    assert!(err.contains("2048.weights: too short"), "{err}");
    assert!(
        err.trim_end().ends_with("playing with the heuristic"),
        "{err}"
    );
    // hint says so too, and still answers.
    let out = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .args(["hint", "2048", "--seed", "3", "--ms", "1"])
        .env("XDG_DATA_HOME", data.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stderr).unwrap(), err);
    assert_eq!(out.stdout.len(), 2, "one move and a line break");
}

#[test]
fn a_second_run_of_the_same_file_is_refused_while_the_first_holds_it() {
    use tilebox_ai::ntuple::{Layout, run::Run};
    let data = tempfile::tempdir().unwrap();
    let path = weights(data.path(), "2048");
    let variant = tilebox_sliding::builtin_variant("2048").unwrap();
    // Another run (the app's, say) is training the file.
    let first = Run::open(&path, &variant, 0, &Layout::small(false)).unwrap();
    let out = train(data.path(), &["2048", "--games", "5", "--network", "small"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: another run is training it (tilebox-cli train, or the app)",
            path.display()
        )
    );
    assert!(!path.exists(), "nothing was written");
    // Once it ends, the file is free.
    drop(first);
    let done = summary(&train(
        data.path(),
        &["2048", "--games", "5", "--network", "small"],
    ));
    assert_eq!(done["games"], 5);
}

/// `--games 0` reads where a run stands; with no run, it refuses in one line and writes
/// nothing (it wrote an untrained network of 268 MB).
#[test]
fn games_0_without_a_run_writes_nothing() {
    let data = tempfile::tempdir().unwrap();
    let out = train(data.path(), &["2048", "--games", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: --games 0 trains nothing, and 2048 has no network yet")
            && err.trim_end().ends_with("nothing is written"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(
        !data.path().join("tilebox").exists(),
        "something was written"
    );
    // With a run, it tells where the run stands.
    new_small_run(data.path(), 2, 1);
    let read = summary(&train(data.path(), &["2048", "--games", "0"]));
    assert_eq!(read["games"], 2);
}

/// A `players` that is a file, and a temporary file that is a folder, are said in words under
/// their own names.
#[test]
fn a_players_file_and_a_temporary_folder_are_named_in_words() {
    let data = tempfile::tempdir().unwrap();
    let players = data.path().join("tilebox").join("players");
    std::fs::create_dir_all(players.parent().unwrap()).unwrap();
    std::fs::write(&players, "").unwrap();
    let out = train(data.path(), &["2048", "--games", "1", "--network", "small"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "error: cannot save: {}: it is a file, not a folder\n",
            players.display()
        )
    );
    std::fs::remove_file(&players).unwrap();
    let tmp = players.join("2048.weights.tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = train(data.path(), &["2048", "--games", "1", "--network", "small"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.lines().last().unwrap(),
        format!(
            "error: cannot save: {}: it is a folder, not a file",
            tmp.display()
        )
    );
}
