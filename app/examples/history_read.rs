//! Reads the histories of a data directory as the app does at start-up, from this thread (the
//! lines read and replayed on every core): each line parsed, each record replayed from its seed
//! and moves and checked
//! ([`tilebox::store::history::read_trusted`]), the figures and chart data worked out; prints, for
//! each game with a history, its games trusted and left out and the time it took.
//!
//! `cargo run --release -p tilebox --example history_read -- <dir>`
//! (`/usr/bin/time -v` in front gives its peak memory.)
#![allow(clippy::print_stdout, clippy::print_stderr)]

use tilebox::store::history::{history_file_name, read_trusted};
use tilebox::store::storage::Storage;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: history_read <data dir>");
        std::process::exit(2);
    };
    let registry = tilebox_games::registry();
    let storage = Storage::new(&dir);
    let start = std::time::Instant::now();
    let mut histories = Vec::new();
    for entry in registry
        .entries()
        .iter()
        .cloned()
        .chain(registry.combinations())
    {
        if !storage.path(&history_file_name(entry.id())).exists() {
            continue;
        }
        let began = std::time::Instant::now();
        let (history, notice) = read_trusted(&storage, &entry);
        println!(
            "{}: {} games trusted, {} left out, read and checked in {:.2} s",
            entry.id(),
            history.len(),
            history.left_out(),
            began.elapsed().as_secs_f64()
        );
        if let Some(notice) = notice {
            println!("  {notice}");
        }
        histories.push(history);
    }
    let games: usize = histories.iter().map(|h| h.len()).sum();
    println!("{games} games in {:.2} s", start.elapsed().as_secs_f64());
}
