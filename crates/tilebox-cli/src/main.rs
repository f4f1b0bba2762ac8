//! `tilebox-cli`: play, replay and inspect Tilebox games from the command line.
//!
//! The tool itself is the library ([`tilebox_cli::run_with`]); this is the tool on the
//! catalogue's games and the process's own stdin, stdout and stderr. Its commands, output and
//! exit statuses are documented in `docs/cli.md`.

use std::io;
use std::process::ExitCode;

use tilebox_cli::HelpOutput;

fn main() -> ExitCode {
    tilebox_cli::quiet_bench_panics();
    // The catalogue with the player's variant files; `list` tells the refused ones.
    let (registry, refused) = tilebox_cli::player_registry();
    let status = tilebox_cli::run_with_refused(
        &registry,
        &refused,
        std::env::args_os(),
        &mut io::stdin().lock(),
        // A closed stdout fails the command (status 1) instead of swallowing its output.
        &mut tilebox_cli::process_stdout(),
        // Not locked: a panic in another thread must be able to speak.
        &mut io::stderr(),
        HelpOutput::ProcessStdout,
    );
    // The process ends here and its memory with it: the catalogue's hundred-odd entries are not
    // freed one by one on the way out (a tenth of a `list`'s instructions).
    std::mem::forget(registry);
    ExitCode::from(status)
}
