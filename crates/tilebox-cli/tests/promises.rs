//! The exit statuses `docs/cli.md` promises, where the first release broke them: a closed stdout,
//! malformed tile lists, a negative tile.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output, Stdio};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilebox-cli"))
        .args(args)
        .output()
        .expect("the binary starts")
}

/// Status 2, nothing on stdout, `message` as the whole of stderr.
fn assert_refused(out: &Output, message: &str) {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{message}\n"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_an_output_that_cannot_be_written_status_1() {
    // The shell closes the descriptor exactly as a player would.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("'{}' list >&-", env!("CARGO_BIN_EXE_tilebox-cli")))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write the output: stdout is closed\n"
    );
    // A reader that goes away early is still not an error (`| head`).
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' list | head -c 1 >/dev/null",
            env!("CARGO_BIN_EXE_tilebox-cli")
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Nor is a stdout sent to /dev/null.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' list >/dev/null",
            env!("CARGO_BIN_EXE_tilebox-cli")
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn empty_items_in_a_tile_list_are_refused_with_status_2() {
    for list in [",,,", "1,,2", "1,", ",9", " , "] {
        let quoted = format!("'{list}'");
        let message = format!(
            "error: --open: {quoted} is not a list of tiles: an item between commas is empty \
             (write tiles as 1,2,3)"
        );
        assert_refused(&cli(&["addends", "10", "--open", list]), &message);
        assert_refused(&cli(&["odds", "--open", list]), &message);
        assert_refused(
            &cli(&["hint", "strike9", "--open", list, "--total", "3"]),
            &message,
        );
    }
    // An empty list is no open tile, as before.
    let out = cli(&["odds", "--open", ""]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn a_negative_tile_is_named_without_suggesting_a_form_that_fails_too() {
    for args in [
        &["addends", "10", "--open", "-1"][..],
        &["odds", "--open", "-1"],
        &["odds", "--open", "-1,2"],
        &["hint", "strike9", "--open", "-1", "--total", "3"],
    ] {
        let out = cli(args);
        assert_refused(&out, "error: --open: '-1' is not a tile (tiles are 1 to 9)");
    }
}
