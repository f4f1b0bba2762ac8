//! Times fixed-depth searches on positions from real games: a tool for tuning the search (see
//! "Tuning and profiling" in the crate's README).
//!
//! ```text
//! cargo run --release -p tilebox-ai --example probe -- [2048|threes] [depth] [table-bits] [positions]
//! ```
//!
//! Defaults: `2048 4 20 40`. Positions come from one seeded game (seed 1) played at depth 2,
//! sampled every 25 moves (2048) or 10 moves (Threes), so runs with the same arguments search
//! the same positions. It prints the mean time per search, the time per node (a player's turn)
//! and the nodes per search. Bad arguments are an error (exit status 2), never a silent default.

use std::process::ExitCode;
use std::time::Instant;

use tilebox_ai::{Engine, Limits, MAX_DEPTH};
use tilebox_core::Session;
use tilebox_sliding::{Sliding, builtin_variant};

const USAGE: &str =
    "usage: probe [2048|threes] [depth 1..=40] [table-bits 10..=26] [positions >= 1]";

/// What to time.
struct Args {
    threes: bool,
    depth: u32,
    bits: u32,
    count: usize,
}

/// Reads argument `i` as a number in `range`, or its default when absent.
fn number(
    args: &[String],
    i: usize,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
    default: u64,
) -> Result<u64, String> {
    let Some(text) = args.get(i) else {
        return Ok(default);
    };
    match text.parse::<u64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{name} must be a whole number from {} to {}, not {text:?}",
            range.start(),
            range.end()
        )),
    }
}

fn parse(args: &[String]) -> Result<Args, String> {
    if args.len() > 4 {
        return Err(format!("too many arguments: {}", args.len()));
    }
    let threes = match args.first().map(String::as_str) {
        None | Some("2048") => false,
        Some("threes") => true,
        Some(other) => return Err(format!("the game is 2048 or threes, not {other:?}")),
    };
    let depth = number(args, 1, "depth", 1..=u64::from(MAX_DEPTH), 4)?;
    let bits = number(args, 2, "table-bits", 10..=26, 20)?;
    let count = number(args, 3, "positions", 1..=100_000, 40)?;
    // All three are bounded above, so they fit.
    Ok(Args {
        threes,
        depth: depth as u32,
        bits: bits as u32,
        count: count as usize,
    })
}

/// Totals over the searches timed.
#[derive(Default)]
struct Timed {
    nodes: u64,
    seconds: f64,
    searches: usize,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let args = match parse(&args) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("probe: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut engine = Engine::with_table_bits(args.bits);
    let quick = Limits::fixed_depth(2);
    let probe = Limits::fixed_depth(args.depth);
    let mut timed = Timed::default();
    let result = if args.threes {
        Session::<Sliding>::new(builtin_variant("threes").unwrap_or_default(), 1).map(|mut s| {
            let mut i = 0;
            while timed.searches < args.count && !s.status().over {
                if i % 10 == 0 {
                    let t = Instant::now();
                    if let Some(a) = engine.advise_threes(s.state(), &probe) {
                        timed.seconds += t.elapsed().as_secs_f64();
                        timed.nodes += a.nodes;
                        timed.searches += 1;
                    }
                }
                let Some(a) = engine.advise_threes(s.state(), &quick) else {
                    break;
                };
                if s.play(a.best).is_err() {
                    break;
                }
                i += 1;
            }
        })
    } else {
        Session::<Sliding>::new(builtin_variant("2048").unwrap_or_default(), 1).map(|mut s| {
            let mut i = 0;
            while timed.searches < args.count && !s.status().over {
                if i % 25 == 0 {
                    let t = Instant::now();
                    if let Some(a) = engine.advise_2048(s.state(), &probe) {
                        timed.seconds += t.elapsed().as_secs_f64();
                        timed.nodes += a.nodes;
                        timed.searches += 1;
                    }
                }
                let Some(a) = engine.advise_2048(s.state(), &quick) else {
                    break;
                };
                if s.play(a.best).is_err() {
                    break;
                }
                i += 1;
            }
        })
    };
    if let Err(e) = result {
        eprintln!("probe: {e}");
        return ExitCode::FAILURE;
    }
    let searches = timed.searches.max(1);
    println!(
        "{} depth {} table 2^{}: {} searches, {:.2} ms each, {:.0} ns/node, {} nodes each",
        if args.threes { "threes" } else { "2048" },
        args.depth,
        args.bits,
        timed.searches,
        1000.0 * timed.seconds / searches as f64,
        1e9 * timed.seconds / timed.nodes.max(1) as f64,
        timed.nodes / searches as u64
    );
    ExitCode::SUCCESS
}
