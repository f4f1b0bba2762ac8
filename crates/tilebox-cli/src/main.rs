//! `tilebox-cli`: play, replay and inspect Tilebox games from the command line.
//!
//! A thin shell over the game crates, for scripts, replays and bug reports. Its commands and
//! output are a stable interface, documented in the README. Exit status: 0 on success (also when
//! the reader of the output goes away early); 2 on bad input of any kind, with a one-line message
//! on stderr and nothing on stdout; 1, with a one-line message, when the work cannot be done for
//! another reason (stdin unreadable, output unwritable, a bench thread, a board the AI cannot
//! search).

mod args;
mod bench;
mod commands;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use crate::args::Cli;
use crate::commands::CliError;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return report_usage(&err),
    };
    quiet_bench_panics();
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = commands::run(cli.command, &mut stdin.lock(), &mut out).and_then(|()| {
        out.flush()?;
        Ok(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`| head`): not an error of ours.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            complain(&format!("error: {err}"));
            ExitCode::from(err.exit_code())
        }
    }
}

/// Writes a message line to stderr. If stderr is closed there is no one left to tell, and the
/// exit status still says what happened.
fn complain(message: &str) {
    let _ = writeln!(io::stderr(), "{message}");
}

/// A panic in a bench thread is reported as that bench's one-line error, so the panic hook stays
/// quiet for those threads (and speaks as usual for any other).
fn quiet_bench_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(bench::WORKER_NAME) {
            default(info);
        }
    }));
}

/// Prints help and version as clap does; turns every usage error into one line and status 2.
fn report_usage(err: &clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Nothing useful is left to do if stdout is closed.
            let _ = err.print();
            ExitCode::SUCCESS
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            complain(
                "error: a command is needed: list, new, play, slide, addends, hint, odds or bench (see tilebox-cli --help)",
            );
            ExitCode::from(2)
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
            complain(&format!("{message} (see tilebox-cli --help)"));
            ExitCode::from(2)
        }
    }
}
