//! `tilebox-cli`: play, replay and inspect Tilebox games from the command line.
//!
//! A thin shell over the game crates, for scripts, replays and bug reports. Its commands and
//! output are a stable interface, documented in the README. Exit status: 0 on success, 2 on bad
//! input of any kind (with a one-line message on stderr), 1 when writing the output fails.

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
            eprintln!("error: {err}");
            ExitCode::from(err.exit_code())
        }
    }
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
            eprintln!(
                "error: a command is needed: list, new, play, slide, addends, hint, odds or bench (see tilebox-cli --help)"
            );
            ExitCode::from(2)
        }
        _ => {
            // clap's message runs over several lines before its usage block: join them.
            let text = err.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more"))
                .filter(|line| !line.is_empty() && !line.starts_with("tip:"))
                .collect();
            eprintln!("{} (see tilebox-cli --help)", message.join(" "));
            ExitCode::from(2)
        }
    }
}
