//! The raw bitboard moves of 2048 and Threes: moves a second over a fixed set of 4,096 boards,
//! all four directions each. `2048` and `threes` make independent moves (throughput);
//! `2048-chained` and `threes-chained` feed each result into the next move (latency).
//!
//! Run: `cargo bench -p tilebox-ai --bench moves`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tilebox_ai::bitboard::{Bits, move_2048, move_threes, tables_2048, tables_threes};
use tilebox_sliding::Direction;

/// The seeded board generator the crate's tests use too.
#[path = "../src/sample.rs"]
mod sample;

/// Number of boards in the fixed set.
const BOARDS: usize = 4096;

/// A fixed set of game-like boards: five cells of sixteen emptied (some twice, so about a
/// quarter to a third of the cells are empty), ranks up to `max`.
fn boards(max: u64) -> Vec<Bits> {
    sample::boards(0x2545_F491_4F6C_DD1D, 5, max)
        .take(BOARDS)
        .collect()
}

fn bench_moves(c: &mut Criterion) {
    // Build the tables outside the measurement.
    let _ = (tables_2048(), tables_threes());
    let mut group = c.benchmark_group("moves");
    group.throughput(Throughput::Elements((BOARDS * 4) as u64));

    let set = boards(11);
    group.bench_function("2048", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &board in black_box(&set) {
                for dir in Direction::ALL {
                    acc ^= move_2048(board, dir);
                }
            }
            acc
        })
    });

    let set = boards(12);
    group.bench_function("threes", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &board in black_box(&set) {
                for dir in Direction::ALL {
                    let (after, moved) = move_threes(board, dir);
                    acc ^= after ^ u64::from(moved);
                }
            }
            acc
        })
    });
    // The same moves made one after another, each on a board that depends on the last result:
    // the latency of a move rather than the throughput of many independent ones.
    let set = boards(11);
    group.bench_function("2048-chained", |b| {
        b.iter(|| {
            let mut last = 0u64;
            for &board in black_box(&set) {
                for dir in Direction::ALL {
                    last = move_2048(board ^ (last & 0xF), dir);
                }
            }
            last
        })
    });
    let set = boards(12);
    group.bench_function("threes-chained", |b| {
        b.iter(|| {
            let mut last = 0u64;
            for &board in black_box(&set) {
                for dir in Direction::ALL {
                    last = move_threes(board ^ (last & 0xF), dir).0;
                }
            }
            last
        })
    });
    group.finish();
}

criterion_group!(benches, bench_moves);
criterion_main!(benches);
