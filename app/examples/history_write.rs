//! Writes a history of real games, for measuring and for fixtures: `N` games of entry `ID`
//! ([`tilebox::store::history::sample_record`]: a seeded random player, every tenth game assisted,
//! every seventh a daily game), appended to `<dir>/history/<ID>.jsonl` in the record form of
//! this build.
//!
//! `cargo run --release -p tilebox --example history_write -- <dir> <ID> <N>`
//!
//! With `--won` after them, the games are played by the entry's assistant (3 ms a move) to
//! their end instead, and only the games it wins are written, N of them (for the tests'
//! fixtures of won games).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write as _;
use std::process::exit;

use tilebox::store::history::{Record, history_file_name, sample_record};
use tilebox::store::tally::Tally;
use tilebox_core::Entry;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, id, count, won_only) = match args.as_slice() {
        [dir, id, count] => (dir, id, count, false),
        [dir, id, count, won] if won == "--won" => (dir, id, count, true),
        _ => {
            eprintln!("usage: history_write <dir> <entry id> <number of games> [--won]");
            exit(2);
        }
    };
    let Ok(count) = count.parse::<u64>() else {
        eprintln!("{count} is not a number of games");
        exit(2);
    };
    let registry = tilebox_games::registry();
    let Some(entry) = registry.get(id) else {
        eprintln!("no game {id}");
        exit(2);
    };
    let path = std::path::Path::new(dir).join(history_file_name(id));
    if let Some(parent) = path.parent()
        && let Err(e) = std::fs::create_dir_all(parent)
    {
        eprintln!("{}: {e}", parent.display());
        exit(1);
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path);
    let mut out = match file {
        Ok(file) => std::io::BufWriter::new(file),
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            exit(1);
        }
    };
    let (mut written, mut moves) = (0u64, 0usize);
    for n in 1u64.. {
        if written == count {
            break;
        }
        let record = if won_only {
            won_by_the_assistant(entry, n)
        } else {
            sample_record(entry, n)
        };
        let Some(record) = record else {
            continue;
        };
        written += 1;
        moves += record.moves.len();
        let line = match record.line() {
            Ok(line) => line,
            Err(e) => {
                eprintln!("{e}");
                exit(1);
            }
        };
        if out
            .write_all(&line)
            .and_then(|()| out.write_all(b"\n"))
            .is_err()
        {
            eprintln!("{}: cannot write", path.display());
            exit(1);
        }
    }
    if out.flush().is_err() {
        eprintln!("{}: cannot write", path.display());
        exit(1);
    }
    println!(
        "{written} games of {id}, {moves} moves, in {}",
        path.display()
    );
}

/// The game of `entry` from seed `n` played by its assistant to its end, if it wins it.
fn won_by_the_assistant(entry: &Entry, n: u64) -> Option<Record> {
    let mut player = entry.assistant()?.player();
    let mut session = entry.new_session(n).ok()?;
    let budget = std::time::Duration::from_millis(3);
    while let Ok(Some(mv)) = player.best_move(&session.position(), budget) {
        if session.play_text(&mv).is_err() {
            break;
        }
    }
    if !session.status().won {
        return None;
    }
    let ended = tilebox_core::date::rfc3339(1_790_000_000 + i64::try_from(n).unwrap_or(0));
    Some(Record::of(
        entry.id(),
        &*session,
        &Tally::default(),
        None,
        60_000,
        ended,
    ))
}
