//! The generic player's search ([`SlidingPlayer`] on variants no bitboard player plays): one
//! search three plies deep, with no time limit (so the work is the same on every run), from
//! positions of real games. The player keeps its tables between searches, as in play.
//!
//! Run: `cargo bench -p tilebox-ai --bench generic -- --warm-up-time 1 --measurement-time 4`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tilebox_ai::{Limits, SlidingPlayer};
use tilebox_core::Puzzle;
use tilebox_sliding::{Sliding, SlidingState, builtin_variant};

/// Positions of `id`: games of seeds 1 to 8, each played 200 moves by the player itself at depth
/// 2, every fourth position kept.
fn positions(id: &str) -> Vec<SlidingState> {
    let Some(variant) = builtin_variant(id) else {
        return Vec::new();
    };
    let mut player = SlidingPlayer::new();
    let quick = Limits {
        time: None,
        max_depth: 2,
        min_probability: Limits::DEFAULT_MIN_PROBABILITY,
    };
    let mut out = Vec::new();
    for seed in 1..=8 {
        let Ok(mut state) = Sliding::new_game(&variant, seed) else {
            continue;
        };
        for turn in 0..200 {
            let Some(advice) = player.advise(&state, &quick) else {
                break;
            };
            let Ok(next) = Sliding::apply(&state, &advice.best) else {
                break;
            };
            state = next;
            if turn % 4 == 0 {
                out.push(state.clone());
            }
        }
    }
    out
}

fn bench_generic(c: &mut Criterion) {
    let mut group = c.benchmark_group("generic");
    let limits = Limits {
        time: None,
        max_depth: 3,
        min_probability: Limits::DEFAULT_MIN_PROBABILITY,
    };
    // Fibonacci merges on 4×4; a longer ladder with triples on 5×5; 2048 on 6×6; pairs and
    // triples on alternate moves (each move of the search by its own rules).
    for id in ["2584", "1024", "2048-6x6", "2592", "1845"] {
        let states = positions(id);
        group.throughput(Throughput::Elements(states.len() as u64));
        let mut player = SlidingPlayer::new();
        group.bench_function(id, |b| {
            b.iter(|| {
                let mut nodes = 0u64;
                for state in black_box(&states) {
                    if let Some(advice) = player.advise(state, &limits) {
                        nodes += advice.nodes;
                    }
                }
                nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_generic);
criterion_main!(benches);
