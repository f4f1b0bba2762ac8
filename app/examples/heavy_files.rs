//! Heavy files, for measuring what they cost: a score table of hundreds of thousands of games
//! and a save of millions of moves, each near the 32 MB bound, and the real app playing over
//! them.
//!
//! `heavy_files make <dir>` writes `<dir>/scores.json` (695,555 games, about 31 MB, one line,
//! every tenth game with a field of a newer release; 2048's best 0, so that every rise of a game's
//! score is a new best) and `<dir>/saves/threes.json` (a save of Threes with 7.8 million
//! moves, about 31 MB, which do not replay past the game's end, so the app moves it aside).
//!
//! `heavy_files play <dir> <moves>` opens the app over `<dir>` on 2048 (in the test harness,
//! as the window runs it), plays `<moves>` moves by the arrow keys, and prints the CPU time the
//! window's thread took a move (from `/proc/thread-self/schedstat`), on average and at most,
//! and how many of the moves were new bests; then waits for the writes. Its peak memory:
//!
//! ```text
//! cargo build --release -p tilebox --example heavy_files
//! target/release/examples/heavy_files make /tmp/heavy
//! /usr/bin/time -v target/release/examples/heavy_files play /tmp/heavy 200  # Maximum resident set size
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::Write as _;
use std::process::ExitCode;

use egui_kittest::Harness;
use tilebox::TileboxApp;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let done = match args.as_slice() {
        [make, dir] if make == "make" => make_files(std::path::Path::new(dir)),
        [play, dir, moves] if play == "play" => match moves.parse() {
            Ok(moves) => play_moves(std::path::Path::new(dir), moves),
            Err(_) => Err(format!("{moves} is not a number of moves")),
        },
        _ => Err("usage: heavy_files make <dir> | heavy_files play <dir> <moves>".to_string()),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The games of the table made.
const GAMES: u32 = 695_555;

/// The moves of the save made.
const MOVES: usize = 7_800_000;

fn make_files(dir: &std::path::Path) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir.join("saves")).map_err(io)?;
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(dir.join("scores.json")).map_err(io)?);
    write!(
        out,
        r#"{{"version":1,"games":{{"2048":{{"best":0,"played":0,"won":0}}"#
    )
    .map_err(io)?;
    for i in 0..GAMES {
        // Every tenth game with a field of a newer release.
        let newer = if i % 10 == 0 { r#","n":1"# } else { "" };
        write!(
            out,
            r#","g{i:06}":{{"best":{},"played":{},"won":0{newer}}}"#,
            i % 4096,
            i % 97
        )
        .map_err(io)?;
    }
    writeln!(out, "}}}}").map_err(io)?;
    out.flush().map_err(io)?;
    let mut save =
        std::io::BufWriter::new(std::fs::File::create(dir.join("saves/threes.json")).map_err(io)?);
    write!(
        save,
        r#"{{"format":1,"game":"threes","params":{{}},"seed":1,"moves":["#
    )
    .map_err(io)?;
    for i in 0..MOVES {
        let mv = ["L", "U", "R", "D"][i % 4];
        let comma = if i == 0 { "" } else { "," };
        write!(save, r#"{comma}"{mv}""#).map_err(io)?;
    }
    writeln!(save, "]}}").map_err(io)?;
    save.flush().map_err(io)?;
    println!(
        "{GAMES} games in scores.json, {MOVES} moves in saves/threes.json, in {}",
        dir.display()
    );
    Ok(())
}

/// The CPU time this thread has taken, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0)
}

fn play_moves(dir: &std::path::Path, moves: usize) -> Result<(), String> {
    let data = dir.to_path_buf();
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .with_max_steps(1000)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::new(data, Some("2048")));
    h.run();
    let keys = [
        egui::Key::ArrowLeft,
        egui::Key::ArrowUp,
        egui::Key::ArrowRight,
        egui::Key::ArrowDown,
    ];
    let (mut total, mut most, mut bests, mut best_total) = (0u64, 0u64, 0usize, 0u64);
    for i in 0..moves {
        let best = h.state().scores().get("2048").best;
        let start = thread_cpu_ns();
        h.key_press(keys[i % 4]);
        h.run();
        let took = thread_cpu_ns().saturating_sub(start);
        total += took;
        most = most.max(took);
        if h.state().scores().get("2048").best > best {
            bests += 1;
            best_total += took;
        }
        if h.state().session("2048").is_some_and(|s| s.status().over) {
            h.state_mut().notify("over");
        }
    }
    let ms = |ns: u64| ns as f64 / 1e6;
    println!(
        "{moves} moves, {bests} new bests: the window's thread took {:.2} ms a move on average, \
         {:.2} ms at most, {:.2} ms a new best on average",
        ms(total / moves.max(1) as u64),
        ms(most),
        ms(best_total / bests.max(1) as u64)
    );
    let left = h.state().flush_writes(std::time::Duration::from_secs(120));
    println!(
        "not written: {left:?}; notices: {}",
        h.state().notices().len()
    );
    Ok(())
}
