//! `tilebox [game-id]`: the arguments the binary takes, checked without opening a window.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

/// Runs the app binary with `args` (it exits before opening a window on all of these).
fn tilebox(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilebox"))
        .args(args)
        .output()
        .expect("the app binary starts")
}

/// Every game id of the registry, as the messages list them.
fn ids() -> String {
    let registry = tilebox_games::registry();
    assert!(!registry.entries().is_empty());
    registry.ids().join(", ")
}

/// Asserts a refusal: status 2, nothing on stdout, and `message` as the whole of stderr.
fn assert_refused(out: &Output, message: &str) {
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&out.stderr), message);
}

#[test]
fn an_unknown_game_id_lists_the_valid_ids_and_exits_with_status_2() {
    let out = tilebox(&["tetris".as_ref()]);
    assert_refused(
        &out,
        &format!("tilebox: unknown game 'tetris'; the games are: {}\n", ids()),
    );
}

#[test]
fn help_names_the_usage_and_every_game() {
    let out = tilebox(&["--help".as_ref()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        format!(
            "usage: tilebox [game-id]\n       tilebox --version\ngames: {}\n",
            ids()
        )
    );
}

#[test]
fn more_than_one_argument_is_refused_with_status_2() {
    let out = tilebox(&["2048".as_ref(), "threes".as_ref()]);
    assert_refused(
        &out,
        &format!(
            "tilebox: expected one game id at most; the games are: {}\n",
            ids()
        ),
    );
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_text_is_refused_without_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let out = tilebox(&[std::ffi::OsStr::from_bytes(b"20\xff48\n")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    // One line, the bad byte shown as the replacement character, the newline escaped.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("tilebox: unknown game '20\u{fffd}48\\n'"),
        "{err}"
    );
}

#[test]
fn version_and_v_print_the_version() {
    for flag in ["--version", "-V"] {
        let out = tilebox(&[flag.as_ref()]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert!(out.stderr.is_empty(), "{flag}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("tilebox {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
    }
}
