//! What the statistics screen costs with a history of 20,000 games of 2048
//! ([`tilebox::store::history::sample_record`]: real games, every tenth assisted, every seventh a
//! daily game): the figures and chart data worked out at once (on the reading thread, when the
//! history is read), a game added to them (at the end of a game), the chart data of each range and
//! the histogram (at each frame), and a whole frame of the screen through the app.
//!
//! `cargo bench -p tilebox --bench stats`
//!
//! `TILEBOX_STATS_GAMES=1000000 cargo bench -p tilebox --bench stats` measures a longer history
//! of as many different games (writing them takes minutes), to show that a frame does not grow
//! with the history.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use tilebox::store::history::{Record, history_file_name, sample_record};
use tilebox::store::stats::{Range, Stats};

/// The games of the history measured, unless `TILEBOX_STATS_GAMES` says otherwise.
const GAMES: u64 = 20_000;

/// The lines of the history measured: `TILEBOX_STATS_GAMES`, or [`GAMES`].
fn lines() -> u64 {
    std::env::var("TILEBOX_STATS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(GAMES)
}

fn history() -> Vec<Record> {
    let registry = tilebox_games::registry();
    let entry = registry.get("2048").unwrap();
    (1..=lines())
        .map(|n| sample_record(entry, n).unwrap())
        .collect()
}

fn figures(c: &mut Criterion) {
    let records = history();
    let name = format!("stats-{}", records.len());
    let mut group = c.benchmark_group(&name);
    group.sample_size(20);
    group.bench_function("figures and chart data, at once", |b| {
        b.iter(|| Stats::of(black_box(&records), false));
    });
    let stats = Stats::of(&records, false);
    let last = records.last().unwrap().clone();
    group.bench_function("a game added", |b| {
        b.iter_batched_ref(
            || stats.clone(),
            |stats| stats.push(black_box(&last)),
            BatchSize::LargeInput,
        );
    });
    for range in Range::ALL {
        group.bench_function(format!("chart data, {}", range.label()), |b| {
            b.iter(|| {
                (
                    stats.chart(black_box(range), 1600.0),
                    stats.histogram_of(&records, range),
                )
            });
        });
    }
    group.finish();

    // A frame of the statistics screen, through the app, its history read from a file.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(history_file_name("2048"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: Vec<u8> = records
        .iter()
        .flat_map(|r| {
            let mut line = r.line().unwrap();
            line.push(b'\n');
            line
        })
        .collect();
    std::fs::write(&path, text).unwrap();
    drop(records);
    let data = dir.path().to_path_buf();
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(1600.0, 1200.0))
        .build_eframe(move |_cc| tilebox::TileboxApp::new(data, Some("2048")));
    assert!(
        h.state_mut()
            .wait_for_histories(std::time::Duration::from_secs(3600))
    );
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::S);
    h.run();
    assert!(matches!(h.state().screen(), tilebox::Screen::Stats(_)));
    let mut group = c.benchmark_group(&name);
    group.sample_size(20);
    group.bench_function("a frame of the statistics screen, 1600 x 1200", |b| {
        b.iter(|| h.step());
    });
    group.finish();
}

criterion_group!(benches, figures);
criterion_main!(benches);
