//! How long solving Strike 9 exactly takes: the whole table of a box, every position.
//!
//! `cargo bench -p tilebox-strike9 --bench odds`
//!
//! Targets: the nine-tile table under 5 ms, a 12-tile table under 50 ms.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tilebox_strike9::{Odds, OneDie, Scoring, Strike9Params, Table, TileSet};

fn solve(c: &mut Criterion) {
    c.bench_function("strike9 odds table, 9 tiles", |b| {
        b.iter(|| black_box(Odds::solve()).before_roll(black_box(TileSet::ALL)))
    });
    let variants = [
        ("10 tiles, never, shut", 10, OneDie::Never, Scoring::Shut),
        ("12 tiles, never, shut", 12, OneDie::Never, Scoring::Shut),
        (
            "12 tiles, high_shut, golf",
            12,
            OneDie::HighShut,
            Scoring::Golf,
        ),
        (
            "12 tiles, low_total, digits",
            12,
            OneDie::LowTotal,
            Scoring::Digits,
        ),
    ];
    for (name, tiles, one_die, score) in variants {
        let params = Strike9Params {
            tiles,
            one_die,
            score,
        };
        let full = TileSet::first(tiles);
        c.bench_function(&format!("strike9 table, {name}"), |b| {
            b.iter(|| {
                Table::solve(black_box(&params))
                    .ok()
                    .and_then(|t| t.before_roll(full))
            })
        });
    }
}

criterion_group!(benches, solve);
criterion_main!(benches);
