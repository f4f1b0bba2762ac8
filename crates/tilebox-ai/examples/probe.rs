//! Times fixed-depth searches on positions from real games: a tool for tuning the search.
//!
//! ```text
//! cargo run --release -p tilebox-ai --example probe -- <2048|threes> [depth] [table-bits] [positions]
//! ```
//!
//! Positions come from one seeded game played at depth 2, sampled every few moves.

use std::time::Instant;

use tilebox_ai::{Engine, Limits};
use tilebox_core::Session;
use tilebox_sliding::{Game2048, Threes};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
    };
    let game = args.first().map_or("2048", String::as_str).to_owned();
    let depth = arg(1, 4) as u32;
    let bits = arg(2, 20) as u32;
    let count = arg(3, 40) as usize;
    let mut engine = Engine::with_table_bits(bits);
    let quick = Limits::fixed_depth(2);
    let probe = Limits::fixed_depth(depth);
    let (mut nodes, mut seconds, mut searches) = (0u64, 0.0f64, 0usize);
    if game == "threes" {
        let Ok(mut s) = Session::<Threes>::with_seed(1) else {
            return;
        };
        let mut i = 0;
        while searches < count && !s.status().over {
            if i % 10 == 0 {
                let t = Instant::now();
                if let Some(a) = engine.advise_threes(s.state(), &probe) {
                    seconds += t.elapsed().as_secs_f64();
                    nodes += a.nodes;
                    searches += 1;
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
    } else {
        let Ok(mut s) = Session::<Game2048>::with_seed(1) else {
            return;
        };
        let mut i = 0;
        while searches < count && !s.status().over {
            if i % 25 == 0 {
                let t = Instant::now();
                if let Some(a) = engine.advise_2048(s.state(), &probe) {
                    seconds += t.elapsed().as_secs_f64();
                    nodes += a.nodes;
                    searches += 1;
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
    }
    println!(
        "{game} depth {depth} table 2^{bits}: {searches} searches, {:.2} ms each, {:.0} ns/node, {} nodes each",
        1000.0 * seconds / searches.max(1) as f64,
        1e9 * seconds / nodes.max(1) as f64,
        nodes / searches.max(1) as u64
    );
}
