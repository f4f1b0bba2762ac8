//! `tilebox-cli`: play, replay and inspect Tilebox games from the command line.
//!
//! A thin shell over the game crates, for scripts, replays and bug reports. Its commands and
//! output are a stable interface, documented in `docs/cli.md`. Exit status: 0 on success (also when
//! the reader of the output goes away early); 2 on bad input of any kind, with a one-line message
//! on stderr and nothing on stdout; 1, with a one-line message, when the work cannot be done for
//! another reason (stdin unreadable, output unwritable, a bench thread, a board the AI cannot
//! search).
//!
//! The tool knows no game by its id. It takes its games from a [`Registry`] and asks each entry
//! what it can do: `list`, `new`, `play`, `code` and `daily` work on every entry (a game code
//! may name one of the registry's combinations of options too, [`Registry::combinations`]); `slide` on the entries whose
//! kind is a sliding game ([`tilebox_sliding::rules_of`]); `hint` and `bench` on the entries
//! with an AI player ([`tilebox_core::Entry::assistant`]); `hint --open/--total` and `odds` on
//! the entries of the Strike 9 kind, from the exact table of their variant. `--params JSON` on
//! `new`, `play`, `hint`, `odds` and `bench` plays an entry with other parameters of its kind
//! ([`tilebox_core::Entry::with_params`]).
//!
//! # In-process use
//!
//! The binary is [`run_with`] on the catalogue's games (`tilebox_games::registry()`) and the
//! process's own stdin, stdout and stderr. [`run`] runs the same tool on any registry and any
//! streams, for tests of game kinds the catalogue does not have:
//!
//! ```
//! let registry = tilebox_games::registry();
//! let first = registry.entries()[0].id().to_string();
//! let (mut out, mut err) = (Vec::new(), Vec::new());
//! let status = tilebox_cli::run(
//!     &registry,
//!     ["tilebox-cli", "new", first.as_str(), "--seed", "7"],
//!     &mut std::io::empty(),
//!     &mut out,
//!     &mut err,
//! );
//! assert_eq!(status, 0);
//! let state: serde_json::Value = serde_json::from_slice(&out).unwrap();
//! assert_eq!(state["game"], first.as_str());
//! assert_eq!(state["seed"], 7);
//! assert!(err.is_empty());
//! ```
//!
//! What differs from the binary in [`run`]: `--help` and `--version` are written to the given
//! stdout as plain text (the binary lets clap print them, styled on a terminal); and a panic in a
//! bench thread, still reported as that bench's one-line error and status 1, is also told by the
//! process's panic hook unless [`quiet_bench_panics`] was called, as the binary does.

mod args;
mod bench;
mod commands;
mod error;
mod train;
mod variant;

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal, Write};
#[cfg(target_os = "linux")]
use std::path::Path;

use clap::Parser;
use clap::error::ErrorKind;
use tilebox_core::Registry;

use crate::args::{Cli, Command};
use crate::error::CliError;

pub use tilebox_sliding::Refusal;
pub use variant::{player_registry, variants_dir};

/// Where `--help` and `--version` text goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HelpOutput {
    /// To the stdout given to [`run_with`], as plain text.
    #[default]
    Plain,
    /// Printed by clap on the process's own stdout, styled as clap styles it when that is a
    /// terminal that takes colour. The binary's way.
    ProcessStdout,
}

/// Runs the tool on the games of `registry`: `args` is the command line, the program's name
/// first (as [`std::env::args_os`] gives it); the command reads `stdin` and writes `stdout`,
/// and a failure is one line on `stderr`. Returns the exit status: 0, 1 or 2, as `docs/cli.md`
/// says. Help and version are plain text on `stdout` ([`HelpOutput::Plain`]).
pub fn run<I, T>(
    registry: &Registry,
    args: I,
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(registry, args, stdin, stdout, stderr, HelpOutput::Plain)
}

/// [`run`], with help and version shown as `help` says.
pub fn run_with<I, T>(
    registry: &Registry,
    args: I,
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    help: HelpOutput,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with_refused(registry, &[], args, stdin, stdout, stderr, help)
}

/// [`run_with`] on a registry made with a player's variant files, `refused` being the files
/// refused ([`player_registry`]): `list` prints each refusal on `stderr`, one line
/// `refused: <file>: <field>: <why>`, and still exits with status 0.
pub fn run_with_refused<I, T>(
    registry: &Registry,
    refused: &[Refusal],
    args: I,
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    help: HelpOutput,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => return report_usage(&err, help, stdout, stderr),
    };
    if matches!(cli.command, Command::List) {
        for refusal in refused {
            complain(stderr, &format!("refused: {refusal}"));
        }
    }
    // The binary redraws `train`'s progress line on a terminal; in-process runs write lines.
    let notes = commands::Notes {
        stderr: &mut *stderr,
        terminal: help == HelpOutput::ProcessStdout && io::stderr().is_terminal(),
    };
    let result = commands::run(registry, cli.command, stdin, stdout, notes).and_then(|()| {
        stdout.flush()?;
        Ok(())
    });
    match result {
        Ok(()) => 0,
        // The reader went away (`| head`): not an error of ours.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(err) => {
            complain(stderr, &format!("error: {err}"));
            err.exit_code()
        }
    }
}

/// The process's stdout for [`run_with`]. Rust's standard output takes a closed descriptor
/// (`tilebox-cli list >&-`) for a sink that swallows everything; here a closed stdout is an
/// output that cannot be written, so the command fails with status 1 as `docs/cli.md` says.
pub fn process_stdout() -> Box<dyn Write> {
    if stdout_is_closed() {
        Box::new(ClosedStdout)
    } else {
        Box::new(io::stdout().lock())
    }
}

/// Whether the process was started with its stdout closed. Rust's runtime opens `/dev/null`
/// read-write in place of a closed standard descriptor before `main`, so on Linux a stdout that
/// is `/dev/null` opened read-write is one that was closed (a shell's `>/dev/null` opens it
/// write-only).
#[cfg(target_os = "linux")]
fn stdout_is_closed() -> bool {
    let is_null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == Path::new("/dev/null"));
    let read_write = std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .is_some_and(|flags| flags & 0o3 == 0o2)
    });
    is_null && read_write
}

#[cfg(not(target_os = "linux"))]
fn stdout_is_closed() -> bool {
    false
}

/// A stdout that is closed: every write fails.
struct ClosedStdout;

impl Write for ClosedStdout {
    fn write(&mut self, _buf: &[u8]) -> io::Result<usize> {
        Err(io::Error::other("stdout is closed"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Sets a panic hook that keeps quiet for `bench`'s game threads, whose panic [`run`] reports
/// as that bench's one-line error, and speaks as the hook before it did for every other thread.
/// The binary calls it once, at its start.
pub fn quiet_bench_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(bench::WORKER_NAME) {
            default(info);
        }
    }));
}

/// Writes a message line to stderr. If stderr is closed there is no one left to tell, and the
/// exit status still says what happened.
fn complain(stderr: &mut dyn Write, message: &str) {
    let _ = writeln!(stderr, "{message}");
    let _ = stderr.flush();
}

/// Prints help and version as asked; turns every usage error into one line and status 2.
fn report_usage(
    err: &clap::Error,
    help: HelpOutput,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Nothing useful is left to do if stdout is closed.
            match help {
                HelpOutput::Plain => {
                    let _ = write!(stdout, "{}", err.render());
                    let _ = stdout.flush();
                }
                HelpOutput::ProcessStdout => {
                    let _ = err.print();
                }
            }
            0
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            if err
                .render()
                .to_string()
                .contains("tilebox-cli variant <COMMAND>") =>
        {
            complain(
                stderr,
                "error: variant needs a command: show <id> or check <file> (see tilebox-cli variant --help)",
            );
            2
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            complain(
                stderr,
                "error: a command is needed: list, new, play, code, daily, slide, addends, hint, odds, bench, train or variant (see tilebox-cli --help)",
            );
            2
        }
        _ => {
            // clap's message runs over several lines before its usage block: join them, its
            // tips included.
            let text = err.render().to_string();
            let mut message = String::new();
            for line in text
                .lines()
                .map(str::trim)
                .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
                .filter(|line| !line.is_empty())
            {
                if !message.is_empty() {
                    message.push_str(if line.starts_with("tip:") { "; " } else { " " });
                }
                message.push_str(line);
            }
            complain(stderr, &format!("{message} (see tilebox-cli --help)"));
            2
        }
    }
}

#[cfg(test)]
mod tests;
