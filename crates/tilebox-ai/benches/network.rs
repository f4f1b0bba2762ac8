//! The n-tuple network (`tilebox_ai::ntuple`): evaluations a second of the standard 4×6-tuple
//! network, in `f32` (training) and 16-bit (playing), over a fixed set of 4,096 game-like
//! boards; and whole training moves a second (choose the move among the four afterstates,
//! one TD update, the move and the spawn), on 2048 (on bitboards, the trainer's fast path) and
//! Threes (on the engine), and on 2048 with the small network (which fits the caches: the rest
//! of a move's cost).
//!
//! Run: `cargo bench -p tilebox-ai --bench network`

// A benchmark's set-up may stop at a missing built-in variant.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tilebox_ai::ntuple::train::{Method, Mover, TrainOptions, play_game};
use tilebox_ai::ntuple::{Layout, Network, PlayNetwork};
use tilebox_sliding::builtin_variant;

/// The seeded board generator the crate's tests use too.
#[path = "../src/sample.rs"]
mod sample;

/// Number of boards in the fixed set.
const BOARDS: usize = 4096;

fn bench_network(c: &mut Criterion) {
    let boards: Vec<u64> = sample::boards(0x2545_F491_4F6C_DD1D, 5, 11)
        .take(BOARDS)
        .collect();
    // Weights that are not all zero, so that nothing is optimised away by the values.
    let network = Network::new(&Layout::standard(false), 0.25);
    let player = PlayNetwork::quantize(&network);

    let mut group = c.benchmark_group("network");
    group.throughput(Throughput::Elements(BOARDS as u64));
    group.bench_function("eval-f32", |b| {
        b.iter(|| {
            let mut acc = 0f32;
            for &board in black_box(&boards) {
                acc += network.value(board, 0);
            }
            acc
        })
    });
    group.bench_function("eval-i16", |b| {
        b.iter(|| {
            let mut acc = 0f32;
            for &board in black_box(&boards) {
                acc += player.value(board, 0);
            }
            acc
        })
    });
    group.finish();
    drop(player);
    drop(network);

    // Whole training moves: games from fresh seeds, timed per move.
    let mut group = c.benchmark_group("train");
    group.throughput(Throughput::Elements(1));
    group.measurement_time(Duration::from_secs(10));
    // The small network fits the caches: what is left is the engine's moves and the search
    // for the best move, beside the standard network's memory traffic.
    for (id, size) in [
        ("2048", "standard"),
        ("threes", "standard"),
        ("2048", "small"),
    ] {
        let variant = builtin_variant(id).unwrap();
        let layout = match size {
            "small" => Layout::small(variant.preview),
            _ => Layout::standard(variant.preview),
        };
        let network = Network::new(&layout, 0.0);
        // Each game once from its start: the cost of a move alone (restarts keep the position
        // after each move, which the training runs' moves a second show).
        let options = TrainOptions {
            method: Method::FromStart,
            ..TrainOptions::default()
        };
        let mut index = 0u64;
        let mut mover = Mover::new(&variant).unwrap();
        let name = match size {
            "small" => format!("move-{id}-small"),
            _ => format!("move-{id}"),
        };
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut moves = 0u64;
                let start = Instant::now();
                while moves < iters {
                    let game = play_game(&network, &variant, &options, index, &mut mover).unwrap();
                    moves += game.moves.max(1);
                    index += 1;
                }
                start.elapsed().mul_f64(iters as f64 / moves as f64)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_network);
criterion_main!(benches);
