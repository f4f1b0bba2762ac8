//! A player's own sliding variants through the `tilebox-cli` binary, as a player would use them:
//! `*.json` files in `<data dir>/tilebox/variants/` (the data directory moved by
//! `XDG_DATA_HOME`), listed by `list` and played by `new`, `play`, `slide`, `hint` and `bench`;
//! every kind of bad file refused by `variant check` and by `list` (on stderr) while the others
//! still load; and `variant show` of every built-in accepted by `variant check`.

// Helpers outside #[test] functions panic too: in a test, a panic is the failure report.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tilebox_sliding::builtin_variants;

/// A data directory of its own, removed at the end of the test.
struct DataDir(PathBuf);

impl DataDir {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "tilebox-cli-variants-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(path.join("tilebox").join("variants")).unwrap();
        DataDir(path)
    }

    /// The player's variants folder.
    fn variants(&self) -> PathBuf {
        self.0.join("tilebox").join("variants")
    }

    /// Writes a player's variant file.
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.variants().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Runs the binary with this data directory.
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
            .args(args)
            .env("XDG_DATA_HOME", &self.0)
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs")
    }

    /// Runs a command that must succeed with nothing on stderr; returns stdout.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stderr), "", "{args:?}");
        text(&out.stdout)
    }

    /// Runs a command that must succeed and print one line of JSON.
    fn json(&self, args: &[&str]) -> Value {
        let out = self.ok(args);
        assert_eq!(out.lines().count(), 1, "{args:?}: {out}");
        serde_json::from_str(&out).unwrap()
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The full form of the built-in `id`.
fn builtin(id: &str) -> Value {
    builtin_variants()
        .into_iter()
        .find(|v| v.id == id)
        .unwrap()
        .to_json()
}

/// A player's file based on 2584: Fibonacci on a 5×5 board.
const MY_FIB: &str = r#"{"format": 1, "id": "my-fib", "title": "My Fibonacci", "description": "Fibonacci on five by five.", "based_on": "2584", "side": 5}"#;

/// A player's file with every field written out: Fibonacci on 3×3 won at 89, with 1s and 2s.
fn fully_written() -> String {
    let mut v = builtin("2584");
    v["id"] = json!("small-fib");
    v["title"] = json!("Small Fibonacci");
    v["description"] = json!("Fibonacci on three by three: make 89.");
    v["side"] = json!(3);
    v["tiles"] = json!([1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233]);
    v["spawn"] = json!({"weights": {"1": 3, "2": 1}});
    v["win"] = json!(89);
    serde_json::to_string_pretty(&v).unwrap()
}

fn board(state: &Value) -> Vec<Vec<u64>> {
    serde_json::from_value(state["board"].clone()).unwrap()
}

#[test]
fn a_based_on_file_and_a_fully_written_one_are_listed_and_played() {
    let dir = DataDir::new();
    dir.write("my-fib.json", MY_FIB);
    dir.write("small-fib.json", &fully_written());

    // `list`: the built-ins, then the player's files in file-name order; nothing refused.
    let listed = dir.ok(&["list"]);
    let mut expected: String = tilebox_games::registry()
        .entries()
        .iter()
        .map(|e| format!("{}\t{}\n", e.id(), e.title()))
        .collect();
    expected.push_str("my-fib\tMy Fibonacci\nsmall-fib\tSmall Fibonacci\n");
    assert_eq!(listed, expected);

    for (id, side) in [("my-fib", 5), ("small-fib", 3)] {
        let new = dir.json(&["new", id, "--seed", "4"]);
        assert_eq!(new["game"], id);
        let rows = board(&new);
        assert_eq!(rows.len(), side, "{id}");
        assert!(rows.iter().all(|r| r.len() == side), "{id}");
        assert_eq!(
            rows.iter().flatten().filter(|&&t| t != 0).count(),
            2,
            "{id}"
        );
        assert!(
            rows.iter().flatten().all(|t| [0, 1, 2, 3].contains(t)),
            "{id}: {rows:?}"
        );

        let played = dir.json(&["play", id, "--seed", "4", "--moves", "LURDLURD"]);
        assert_eq!(played["game"], id);
        assert!(played["moves"].as_u64().unwrap() > 0, "{id}: {played}");
        assert_eq!(board(&played).len(), side);

        let hint = dir.ok(&["hint", id, "--seed", "4", "--moves", "LU", "--ms", "20"]);
        assert!(
            ["L\n", "R\n", "U\n", "D\n"].contains(&hint.as_str()),
            "{id}: {hint:?}"
        );
    }

    // The Fibonacci rule of the base: 1 and 2 make 3 (either order), on the player's board.
    let slid = dir.json(&[
        "slide",
        "my-fib",
        "left",
        "--board",
        "[[2,1,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]]",
    ]);
    assert_eq!(slid["board"][0], json!([3, 0, 0, 0, 0]));
    assert_eq!(slid["gained"], 3);

    // A short game of the small board, played to its end by the AI.
    let bench = dir.json(&[
        "bench",
        "small-fib",
        "--games",
        "1",
        "--ms-per-move",
        "1",
        "--seed",
        "1",
    ]);
    assert_eq!(bench["game"], "small-fib");
    assert_eq!(bench["unfinished"], 0);
}

#[test]
fn variant_show_resolves_based_on_and_every_built_in_round_trips_through_check() {
    let dir = DataDir::new();
    dir.write("my-fib.json", MY_FIB);
    for v in builtin_variants() {
        let shown = dir.json(&["variant", "show", &v.id]);
        assert_eq!(shown, v.to_json(), "{}", v.id);
        let path = dir.0.join(format!("{}.json", v.id));
        std::fs::write(&path, dir.ok(&["variant", "show", &v.id])).unwrap();
        assert_eq!(
            dir.ok(&["variant", "check", path.to_str().unwrap()]),
            format!("{}\n", v.id)
        );
    }
    // The player's variant, based_on resolved: every field, 2584's rules on a 5×5 board.
    let shown = dir.json(&["variant", "show", "my-fib"]);
    let object = shown.as_object().unwrap();
    assert!(!object.contains_key("based_on"), "{shown}");
    for field in tilebox_sliding::variant::FIELDS {
        assert!(object.contains_key(field), "{field}: {shown}");
    }
    let mut want = builtin("2584");
    want["id"] = json!("my-fib");
    want["title"] = json!("My Fibonacci");
    want["description"] = json!("Fibonacci on five by five.");
    want["side"] = json!(5);
    assert_eq!(shown, want);
    let path = dir.0.join("shown.json");
    std::fs::write(&path, dir.ok(&["variant", "show", "my-fib"])).unwrap();
    assert_eq!(
        dir.ok(&["variant", "check", path.to_str().unwrap()]),
        "my-fib\n"
    );
    // The player's own file checks as it loads, and the built-in files of the repository too.
    let mine = dir.variants().join("my-fib.json");
    assert_eq!(
        dir.ok(&["variant", "check", mine.to_str().unwrap()]),
        "my-fib\n"
    );
    let builtins = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tilebox-sliding/variants");
    for v in builtin_variants() {
        let file = builtins.join(format!("{}.json", v.id));
        assert_eq!(
            dir.ok(&["variant", "check", file.to_str().unwrap()]),
            format!("{}\n", v.id)
        );
    }
}

#[test]
fn variant_show_refuses_an_unknown_or_non_sliding_id() {
    let dir = DataDir::new();
    for (id, says) in [
        ("nope", "unknown variant 'nope'"),
        ("strike9", "'strike9' is not a sliding variant"),
    ] {
        let out = dir.run(&["variant", "show", id]);
        assert_eq!(out.status.code(), Some(2), "{id}");
        assert_eq!(text(&out.stdout), "", "{id}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("error: {says}")), "{err}");
        assert!(err.contains("2048, 2048-3x3"), "{err}");
    }
}

#[test]
fn variant_check_of_a_taken_id_accepts_only_the_registered_variant() {
    let dir = DataDir::new();
    dir.write("my-fib.json", MY_FIB);
    // Based on a player's variant: accepted.
    let over = dir.0.join("over.json");
    std::fs::write(
        &over,
        r#"{"format": 1, "id": "my-fib-6", "based_on": "my-fib", "side": 6}"#,
    )
    .unwrap();
    assert_eq!(
        dir.ok(&["variant", "check", over.to_str().unwrap()]),
        "my-fib-6\n"
    );
    // The id of a built-in or of a player's variant with other rules: taken.
    for (name, body) in [
        (
            "as-2048.json",
            r#"{"format": 1, "id": "2048", "based_on": "2048", "side": 5}"#,
        ),
        (
            "as-mine.json",
            r#"{"format": 1, "id": "my-fib", "based_on": "2584", "side": 6}"#,
        ),
    ] {
        let path = dir.0.join(name);
        std::fs::write(&path, body).unwrap();
        let out = dir.run(&["variant", "check", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert_eq!(text(&out.stdout), "");
        let err = text(&out.stderr);
        assert!(err.starts_with(&format!("error: {name}: id: ")), "{err}");
        assert!(err.contains("is taken"), "{err}");
    }
}

/// Every kind of bad file of the issue's list: file name, text, and the field the refusal
/// names (`None`: the file as a whole).
fn bad_files() -> Vec<(&'static str, String, Option<&'static str>)> {
    let fib = |over: Value| {
        let mut v = builtin("2584");
        for (k, x) in over.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let mut missing = fib(json!({"id": "missing-field"}));
    missing.as_object_mut().unwrap().remove("motion");
    // Each file has an id of its own (its name), so that only its own fault refuses it.
    let based = |id: &str, over: &str| {
        format!(r#"{{"format": 1, "id": "{id}", "based_on": "2048"{over}}}"#)
    };
    vec![
        (
            "malformed.json",
            r#"{"format": 1, "id": "x","#.to_string(),
            None,
        ),
        (
            "unknown-field.json",
            based("unknown-field", r#", "colour": "red""#),
            Some("colour"),
        ),
        ("missing-field.json", missing.to_string(), Some("motion")),
        (
            "future-format.json",
            fib(json!({"id": "future-format", "format": 4})).to_string(),
            Some("format"),
        ),
        (
            "taken-id.json",
            r#"{"format": 1, "id": "2048", "based_on": "2584"}"#.to_string(),
            Some("id"),
        ),
        (
            "bad-id.json",
            r#"{"format": 1, "id": "My Fib", "based_on": "2584"}"#.to_string(),
            Some("id"),
        ),
        (
            "side-9.json",
            based("side-9", r#", "side": 9"#),
            Some("side"),
        ),
        (
            "side-1.json",
            based("side-1", r#", "side": 1"#),
            Some("side"),
        ),
        (
            "empty-ladder.json",
            based("empty-ladder", r#", "tiles": []"#),
            Some("tiles"),
        ),
        (
            "not-increasing.json",
            based("not-increasing", r#", "tiles": [2, 4, 4, 8]"#),
            Some("tiles"),
        ),
        (
            "long-ladder.json",
            fib(
                json!({"id": "long-ladder", "tiles": (1..=256).collect::<Vec<u64>>(), "win": null}),
            )
            .to_string(),
            Some("tiles"),
        ),
        (
            "merge-off-ladder.json",
            based(
                "merge-off-ladder",
                r#", "merges": [{"tiles": [70, 70], "makes": 71}]"#,
            ),
            Some("merges"),
        ),
        (
            "spawn-off-ladder.json",
            based("spawn-off-ladder", r#", "spawn": {"weights": {"3": 1}}"#),
            Some("spawn"),
        ),
        (
            "too-many-start.json",
            based("too-many-start", r#", "side": 2, "start": 5"#),
            Some("start"),
        ),
        (
            "unknown-base.json",
            r#"{"format": 1, "id": "orphan", "based_on": "nope"}"#.to_string(),
            Some("based_on"),
        ),
        (
            "self-loop.json",
            r#"{"format": 1, "id": "self-loop", "based_on": "self-loop"}"#.to_string(),
            Some("based_on"),
        ),
    ]
}

#[test]
fn every_bad_file_is_refused_by_variant_check_naming_the_file_and_the_field() {
    let dir = DataDir::new();
    for (name, body, field) in bad_files() {
        let path = dir.0.join(name);
        std::fs::write(&path, &body).unwrap();
        let out = dir.run(&["variant", "check", path.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert_eq!(text(&out.stdout), "", "{name}: nothing on stdout");
        assert_eq!(err.lines().count(), 1, "{name}: one line: {err}");
        let head = match field {
            Some(field) => format!("error: {name}: {field}: "),
            None => format!("error: {name}: "),
        };
        assert!(err.starts_with(&head), "{name}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A file that is not there, and one that is not a variant file at all.
    let none = dir.0.join("none.json");
    let out = dir.run(&["variant", "check", none.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    assert!(text(&out.stderr).starts_with("error: none.json: cannot be read"));
}

#[test]
fn list_prints_each_refusal_on_stderr_and_still_loads_the_good_files() {
    let dir = DataDir::new();
    let bad = bad_files();
    for (name, body, _) in &bad {
        dir.write(name, body);
    }
    // A loop of two files: both refused.
    dir.write(
        "loop-a.json",
        r#"{"format": 1, "id": "loop-a", "based_on": "loop-b"}"#,
    );
    dir.write(
        "loop-b.json",
        r#"{"format": 1, "id": "loop-b", "based_on": "loop-a"}"#,
    );
    // A file too big to read, and one that is not UTF-8.
    dir.write("huge.json", &" ".repeat(2 << 20));
    std::fs::write(dir.variants().join("latin1.json"), b"{\"id\": \"caf\xe9\"}").unwrap();
    dir.write("my-fib.json", MY_FIB);
    dir.write("small-fib.json", &fully_written());
    // Not a variant file: ignored.
    dir.write("notes.txt", "not json");

    let before: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir.variants())
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();

    let out = dir.run(&["list"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "only a player's files are refused"
    );
    let listed = text(&out.stdout);
    assert!(listed.contains("\nmy-fib\tMy Fibonacci\n"), "{listed}");
    assert!(
        listed.ends_with("\nsmall-fib\tSmall Fibonacci\n"),
        "{listed}"
    );
    assert_eq!(
        listed.lines().count(),
        tilebox_games::registry().entries().len() + 2
    );
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let mut expected: Vec<(String, Option<&str>)> = bad
        .iter()
        .map(|(name, _, field)| (name.to_string(), *field))
        .collect();
    expected.extend([
        ("loop-a.json".to_string(), Some("based_on")),
        ("loop-b.json".to_string(), Some("based_on")),
        ("huge.json".to_string(), None),
        ("latin1.json".to_string(), None),
    ]);
    assert_eq!(lines.len(), expected.len(), "{err}");
    for (name, field) in expected {
        let head = match field {
            Some(field) => format!("refused: {name}: {field}: "),
            None => format!("refused: {name}: "),
        };
        assert_eq!(
            lines.iter().filter(|l| l.starts_with(&head)).count(),
            1,
            "{head}: {err}"
        );
    }
    // Nothing was changed, moved or deleted.
    for (path, bytes) in before {
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{}", path.display());
    }
    // The good ones play, the refused ones are no games.
    dir.json(&["new", "my-fib", "--seed", "1"]);
    let out = dir.run(&["new", "side-9", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Runs the binary with this data directory and `stdin`, failing the test if it has not ended
/// within a minute (it blocked, or read without end) instead of hanging.
fn run_bounded(dir: &DataDir, args: &[&str], stdin: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .args(args)
        .env("XDG_DATA_HOME", &dir.0)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("tilebox-cli {args:?} did not end");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_in_the_folder_is_refused_and_no_command_hangs() {
    let dir = DataDir::new();
    dir.write(
        "good.json",
        r#"{"format": 1, "id": "good", "based_on": "2048"}"#,
    );
    let made = Command::new("mkfifo")
        .arg(dir.variants().join("x.json"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = run_bounded(&dir, &["list"], Stdio::null());
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("good\t"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        text(&out.stderr),
        "refused: x.json: it is a named pipe (FIFO), not a regular file, so it is not opened\n"
    );
}

#[cfg(unix)]
#[test]
fn variant_check_reads_a_device_or_a_pipe_within_the_bound_and_says_so_in_one_line() {
    let dir = DataDir::new();
    let limit = tilebox_sliding::MAX_FILE_BYTES;
    let out = run_bounded(&dir, &["variant", "check", "/dev/zero"], Stdio::null());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!("error: zero: larger than {limit} bytes\n")
    );
    assert!(out.stdout.is_empty());
    // A pipe that never ends: `yes` into /dev/stdin.
    let mut yes = Command::new("yes").stdout(Stdio::piped()).spawn().unwrap();
    let pipe = Stdio::from(yes.stdout.take().unwrap());
    let out = run_bounded(&dir, &["variant", "check", "/dev/stdin"], pipe);
    let _ = yes.kill();
    let _ = yes.wait();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!("error: stdin: larger than {limit} bytes\n")
    );
}

/// `variant check` reads its file once: a file given as `/dev/stdin`, through a pipe, gives
/// the same message as the file on disk (a taken id, found in the text the check read).
#[cfg(unix)]
#[test]
fn variant_check_of_a_pipe_says_what_it_says_of_the_file_on_disk() {
    let dir = DataDir::new();
    let body = r#"{"format": 1, "id": "2048", "based_on": "2048", "side": 5}"#;
    let path = dir.0.join("as-2048.json");
    std::fs::write(&path, body).unwrap();
    let on_disk = dir.run(&["variant", "check", path.to_str().unwrap()]);
    assert_eq!(on_disk.status.code(), Some(2));
    let said = text(&on_disk.stderr);
    assert!(said.contains("is taken"), "{said}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .args(["variant", "check", "/dev/stdin"])
        .env("XDG_DATA_HOME", &dir.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(body.as_bytes()).unwrap();
    }
    let piped = child.wait_with_output().unwrap();
    assert_eq!(piped.status.code(), Some(2));
    assert_eq!(
        text(&piped.stderr),
        said.replacen("as-2048.json", "stdin", 1)
    );
    assert!(piped.stdout.is_empty());
}

/// `variant check` of a named pipe no one writes into ends at once (status 2, one line), where
/// it waited for a writer for ever.
#[cfg(unix)]
#[test]
fn variant_check_of_a_named_pipe_without_a_writer_ends_at_once() {
    let dir = DataDir::new();
    let fifo = dir.0.join("x.json");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let out = run_bounded(
        &dir,
        &["variant", "check", fifo.to_str().unwrap()],
        Stdio::null(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: x.json: it is a named pipe (FIFO) that nothing was written into, so nothing was read\n"
    );
    assert!(out.stdout.is_empty());
}

/// A chain of 3,000 files, each based on the next in name order, loads without a stack
/// overflow; a refusal at its foot is one line for each file above it, and a loop is refused
/// file by file.
#[test]
fn a_long_chain_of_based_on_loads_and_its_refusals_are_one_line_each() {
    const N: usize = 3000;
    let dir = DataDir::new();
    let name = |i: usize| format!("c{i:05}");
    for i in 0..N {
        let base = if i + 1 == N {
            "2048".to_string()
        } else {
            name(i + 1)
        };
        dir.write(
            &format!("{}.json", name(i)),
            &format!(
                r#"{{"format": 1, "id": "{}", "based_on": "{base}"}}"#,
                name(i)
            ),
        );
    }
    let out = dir.run(&["list"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    let listed = text(&out.stdout);
    assert!(listed.contains("c00000\t") && listed.contains(&format!("{}\t", name(N - 1))));
    // The foot refused: every file refused, one short line each.
    dir.write(
        &format!("{}.json", name(N - 1)),
        &format!(
            r#"{{"format": 1, "id": "{}", "based_on": "2048", "side": 9}}"#,
            name(N - 1)
        ),
    );
    let out = dir.run(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    let refused = text(&out.stderr);
    assert_eq!(refused.lines().count(), N, "{}", &refused[..500]);
    assert!(
        refused.lines().all(|l| l.len() < 120),
        "{}",
        &refused[..500]
    );
    assert_eq!(
        refused.lines().next().unwrap(),
        r#"refused: c00000.json: based_on: "c00001" is refused (its based_on is)"#
    );
    assert!(refused.contains(&format!(
        "refused: {}.json: based_on: \"{}\" is refused (side: 9 is not from 2 to 8)\n",
        name(N - 2),
        name(N - 1)
    )));
    // A loop: the foot based on the head.
    dir.write(
        &format!("{}.json", name(N - 1)),
        &format!(
            r#"{{"format": 1, "id": "{}", "based_on": "c00000"}}"#,
            name(N - 1)
        ),
    );
    let out = dir.run(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    let refused = text(&out.stderr);
    assert_eq!(refused.lines().count(), N);
    assert!(
        refused
            .lines()
            .all(|l| l.ends_with(".json: based_on: a loop of based_on")),
        "{}",
        &refused[..500]
    );
}

/// A `variants` that is not a folder, or one that cannot be read, is one line on `list`'s
/// stderr, and the built-ins still list. (The tests run as root, for whom a folder without
/// permissions can still be read: a file, a named pipe and a symbolic link to nothing stand
/// for it.)
#[cfg(unix)]
#[test]
fn a_variants_folder_that_is_not_one_is_one_line_on_stderr() {
    for (case, says) in [
        ("file", "it is a file, not a folder, so no variant is read"),
        (
            "fifo",
            "it is a named pipe (FIFO), not a folder, so no variant is read",
        ),
        ("dangling", "which does not exist, so no variant is read"),
    ] {
        let dir = DataDir::new();
        let folder = dir.variants();
        std::fs::remove_dir(&folder).unwrap();
        match case {
            "file" => std::fs::write(&folder, "{}").unwrap(),
            "fifo" => assert!(
                Command::new("mkfifo")
                    .arg(&folder)
                    .status()
                    .unwrap()
                    .success()
            ),
            _ => std::os::unix::fs::symlink(dir.0.join("nowhere"), &folder).unwrap(),
        }
        let out = run_bounded(&dir, &["list"], Stdio::null());
        assert_eq!(out.status.code(), Some(0), "{case}");
        assert!(text(&out.stdout).contains("2048\t"), "{case}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{case}: {err}");
        assert!(
            err.starts_with("refused: variants/: ") && err.trim_end().ends_with(says),
            "{case}: {err}"
        );
    }
}

/// A code of a player's own variant names the built-in it is based on, with the rules that
/// differ: `new --code` and `play --code` play it where the file is not, the very game; where
/// the file is, the same. The code of a game without the file is its own code again.
#[test]
fn a_code_of_a_players_variant_plays_where_the_file_is_not() {
    let mine = DataDir::new();
    mine.write("my-fib.json", MY_FIB);
    let code = mine.ok(&["code", "my-fib", "--seed", "7"]);
    let code = code.trim_end();
    assert!(code.starts_with("2584.7."), "{code}");
    let read: tilebox_core::GameCode = code.parse().unwrap();
    assert_eq!(read.params, Some(json!({"side": 5})));
    let at_home = mine.json(&["new", "my-fib", "--seed", "7"]);
    let elsewhere = DataDir::new();
    let there = elsewhere.json(&["new", "--code", code]);
    assert_eq!(board(&there), board(&at_home));
    assert_eq!(board(&there).len(), 5);
    assert_eq!(mine.json(&["new", "--code", code]), at_home);
    // Played on, the same moves give the same game.
    let played = elsewhere.json(&["play", "--code", code, "--moves", "LURD"]);
    let home = mine.json(&["play", "my-fib", "--seed", "7", "--moves", "LURD"]);
    assert_eq!(board(&played), board(&home));
    assert_eq!(played["score"], home["score"]);
    // Without the file, the code's game has the same code.
    let again = elsewhere.ok(&["code", "2584", "--seed", "7", "--params", r#"{"side":5}"#]);
    assert_eq!(again.trim_end(), code);
}

/// The daily code of a player's own variant is the day's game of it (its seed from the
/// variant's own id, as it always was), written as its other codes are: it names the built-in
/// with the rules that differ, so that it plays that very game where the file is not.
#[test]
fn the_daily_code_of_a_players_variant_plays_where_the_file_is_not() {
    let mine = DataDir::new();
    mine.write("my-fib.json", MY_FIB);
    let date = tilebox_core::date::Date::new(2026, 12, 2).unwrap();
    let code = mine.ok(&["daily", "my-fib", "--date", "2026-12-02"]);
    let code = code.trim_end();
    let read: tilebox_core::GameCode = code.parse().unwrap();
    assert_eq!(read.entry, "2584", "{code}");
    assert_eq!(read.params, Some(json!({"side": 5})), "{code}");
    assert_eq!(read.seed, tilebox_core::daily_seed("my-fib", date));
    let seed = read.seed.to_string();
    let at_home = mine.json(&["new", "my-fib", "--seed", &seed]);
    let elsewhere = DataDir::new();
    assert_eq!(
        board(&elsewhere.json(&["new", "--code", code])),
        board(&at_home)
    );
    assert_eq!(mine.json(&["new", "--code", code]), at_home);
    // A built-in's daily code is as it always was: its id and the day's seed.
    let plain = mine.ok(&["daily", "2584", "--date", "2026-12-02"]);
    let plain: tilebox_core::GameCode = plain.trim_end().parse().unwrap();
    assert_eq!(plain.entry, "2584");
    assert_eq!(plain.params, None);
    assert_eq!(plain.seed, tilebox_core::daily_seed("2584", date));
}

/// A format-1 and a format-2 description of the same rules are the same game: the same code,
/// and a code of either lands in the player's file of the other.
#[test]
fn a_format_1_and_a_format_2_file_of_the_same_rules_have_the_same_code_and_game() {
    let one = DataDir::new();
    one.write("my-fib.json", MY_FIB);
    let two = DataDir::new();
    two.write(
        "fib-two.json",
        r#"{"format": 2, "id": "fib-two", "title": "Fibonacci, format 2", "based_on": "2584", "side": 5}"#,
    );
    let code_one = one.ok(&["code", "my-fib", "--seed", "7"]);
    let code_two = two.ok(&["code", "fib-two", "--seed", "7"]);
    assert_eq!(code_one, code_two);
    let code = code_one.trim_end();
    let read: tilebox_core::GameCode = code.parse().unwrap();
    assert_eq!(
        read.params,
        Some(json!({"side": 5})),
        "no format in it: {code}"
    );
    // Played where the other file is, in that file's game.
    let there = two.json(&["new", "--code", code]);
    assert_eq!(there, two.json(&["new", "fib-two", "--seed", "7"]));
    assert_eq!(there["game"], "fib-two");
    let here = one.json(&["new", "--code", code]);
    assert_eq!(here["game"], "my-fib");
    assert_eq!(board(&here), board(&there));
}

/// Format 3's expressions, random and written, through `variant check`, `slide` and `hint`: each
/// file is accepted, or refused in one line naming the file and the field; what is accepted
/// slides on any move number and gets a legal hint; nothing panics or hangs.
#[test]
fn random_format_3_expressions_go_through_check_slide_and_hint() {
    const TOKENS: [&str; 30] = [
        "a",
        "b",
        "z",
        "t",
        "1",
        "2",
        "4",
        "0",
        "-",
        "+",
        "*",
        "/",
        "mod",
        "(",
        ")",
        "|",
        "=",
        "<",
        ">=",
        "and",
        "or",
        "not",
        "divides",
        "gcd(",
        "is_prime(",
        "divisors(",
        ",",
        "if(",
        "next_prime(",
        "9223372036854775807",
    ];
    // A fixed generator, so that the test is the same every run.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut random = || {
        let len = 1 + next(10);
        (0..len)
            .map(|_| TOKENS[next(TOKENS.len())])
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut files: Vec<(String, String, String)> =
        (0..6).map(|_| (random(), random(), random())).collect();
    // And some that are sure to load: Turatin's rule, and conditions of the library.
    files.push((
        "a >= b and b divides a and a / b divides t / 4 + 1".into(),
        "a + b".into(),
        "a / b".into(),
    ));
    files.push((
        "a = b or is_prime((a + b) / gcd(a, b))".into(),
        "a + b".into(),
        "|made| + t mod 3".into(),
    ));
    files.push((
        "not band(a, b) != 0 or a = b".into(),
        "if(a > b, a, b) * 2".into(),
        "divisors(a)".into(),
    ));
    let dir = DataDir::new();
    let mut loaded = 0;
    for (i, (when, makes, scores)) in files.iter().enumerate() {
        let id = format!("expr-{i}");
        let name = format!("{id}.json");
        let body = json!({
            "format": 3, "id": id, "based_on": "1845",
            "merges": [{"tiles": ["a", "b"], "makes": makes, "when": [when], "scores": scores, "any_order": true}]
        })
        .to_string();
        let path = dir.write(&name, &body);
        let out = dir.run(&["variant", "check", path.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert!(!err.contains("panicked"), "{body}: {err}");
        if out.status.code() != Some(0) {
            assert_eq!(out.status.code(), Some(2), "{body}: {err}");
            assert_eq!(err.lines().count(), 1, "{body}: one line: {err}");
            assert!(
                err.starts_with(&format!("error: {name}: merges: rule 1: ")),
                "{err}"
            );
            std::fs::remove_file(&path).unwrap();
            continue;
        }
        loaded += 1;
        for turn in ["0", "5", "4095"] {
            let slid = dir.json(&[
                "slide",
                &id,
                "left",
                "--board",
                "[[1,1,2,3],[4,2,6,3],[0,5,5,0],[12,4,1,1]]",
                "--turn",
                turn,
            ]);
            assert!(slid["moved"].is_boolean(), "{slid}");
        }
        let hint = dir.ok(&["hint", &id, "--seed", "3", "--ms", "20"]);
        assert!(
            ["L\n", "R\n", "U\n", "D\n"].contains(&hint.as_str()),
            "{body}: {hint:?}"
        );
        let played = dir.json(&["play", &id, "--seed", "3", "--moves", hint.trim()]);
        assert_eq!(played["moves"], 1, "the hint is a legal move: {body}");
    }
    assert!(loaded >= 3, "the written files load");
}
