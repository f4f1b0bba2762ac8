//! The generic player's search ([`SlidingPlayer`] on variants no bitboard player plays): one
//! search three plies deep, with no time limit (so the work is the same on every run), from
//! positions of real games. The player keeps its tables between searches, as in play.
//!
//! Also the cost of one line miss (`line_miss`): a line the player has not met before, moved
//! by the variant's own rules through the engine, as the search does once per new line.
//!
//! Run: `cargo bench -p tilebox-ai --bench generic -- --warm-up-time 1 --measurement-time 4`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tilebox_ai::{Grid, Limits, SlidingModel, SlidingPlayer, VariantModel};
use tilebox_core::Puzzle;
use tilebox_sliding::{Sliding, SlidingState, builtin_variant};

/// Positions of `id`: games of seeds 1 to `games`, each played 200 moves by the player itself
/// at depth 2, every fourth position kept.
fn positions(id: &str, games: u64) -> Vec<SlidingState> {
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
    for seed in 1..=games {
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
    // triples on alternate moves (each move of the search by its own rules); counters carried
    // from node to node (378's goal, mod 27's modulus, 2058's maximum, Wildcard's highest bit).
    for id in [
        "2584",
        "1024",
        "2048-6x6",
        "2592",
        "1845",
        "378",
        "mod-27",
        "2058",
        "2-4-8-wildcard-2048",
    ] {
        let states = positions(id, 8);
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

/// The lines of `id`'s positions as its model numbers them, each in both orders (a row read
/// from either wall, so a column too on a board of the same tiles), with the model of the
/// first position.
fn lines(id: &str) -> Option<(VariantModel, Vec<Vec<u8>>)> {
    let states = positions(id, 2);
    let first = states.first()?;
    let model = VariantModel::of_state(first);
    let mut out = Vec::new();
    for state in &states {
        let grid = Grid::from_board_by(state.board(), |r| model.grid_rank(r));
        for row in grid.rows() {
            let mut back = row.clone();
            back.reverse();
            out.push(row);
            out.push(back);
        }
    }
    Some((model, out))
}

/// One line miss: the model's line move, uncached, over every line of the positions.
fn bench_line_miss(c: &mut Criterion) {
    let mut group = c.benchmark_group("line_miss");
    // A ladder (2048 on 6×6), a range of integers with `gcd` (1845), records (232-240,
    // Pro-Add-Uct), rules that read a counter (mod 27, 2058), rules of up to four tiles
    // summing to a perfect power (X^Y), six tiles on a ladder (XXXX) and a hook (DIVE).
    for id in [
        "2048-6x6",
        "1845",
        "232-240",
        "pro-add-uct",
        "mod-27",
        "2058",
        "xy",
        "xxxx",
        "dive",
    ] {
        let Some((model, lines)) = lines(id) else {
            continue;
        };
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.bench_function(id, |b| {
            b.iter(|| {
                let mut points = 0u64;
                let mut moved = [0u8; 8];
                for line in black_box(&lines) {
                    let moved = &mut moved[..line.len()];
                    moved.copy_from_slice(line);
                    points += model.slide_line_scored(moved);
                    black_box(moved);
                }
                points
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_generic, bench_line_miss);
criterion_main!(benches);
