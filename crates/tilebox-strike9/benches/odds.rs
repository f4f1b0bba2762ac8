//! How long solving Strike 9 exactly takes: the whole table of 512 positions.
//!
//! `cargo bench -p tilebox-strike9 --bench odds`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tilebox_strike9::{Odds, TileSet};

fn solve(c: &mut Criterion) {
    c.bench_function("strike9 odds table, 9 tiles", |b| {
        b.iter(|| black_box(Odds::solve()).before_roll(black_box(TileSet::ALL)))
    });
}

criterion_group!(benches, solve);
criterion_main!(benches);
