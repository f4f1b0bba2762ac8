//! The data-driven line move against the first release's hand-written 2048 line move, on the
//! same 4×4 2048 boards in all four directions, in one run:
//! `cargo bench -p tilebox-sliding --bench slide`. The generic engine must stay within 1.5× of
//! the hand-written one. A second group times the other kinds of rules on boards of their own
//! games: rules of three, four and more tiles, rules written rung by rung, wins on any of several
//! tiles, rules that leave tiles, rules of whole runs, rules for some moves or directions, spent
//! cells, a ladder of 255 tiles, thousands of rules of three (3240, Ratio-Fill 3375: the rules
//! of three or more tiles are found by their first tile), and Threes' step.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tilebox_core::Puzzle;
use tilebox_sliding::{
    Board, Direction, LineMotion, Rank, Rules, Sliding, builtin_variant, slide_board,
};

/// The highest 2048 rank of the first release.
const MAX_RANK_2048: Rank = 57;

/// The first release's 2048 line move (`line.rs`, `slide_2048`), copied here as the baseline.
fn slide_2048(line: &mut [Rank], motions: &mut Vec<LineMotion>) {
    let mut out: usize = 0;
    let mut open = false;
    for from in 0..line.len() {
        let rank = line[from];
        if rank == 0 {
            continue;
        }
        line[from] = 0;
        match out.checked_sub(1) {
            Some(to) if open && line[to] == rank && rank < MAX_RANK_2048 => {
                line[to] = rank + 1;
                open = false;
                motions.push(LineMotion {
                    from,
                    to,
                    merged: true,
                });
            }
            _ => {
                line[out] = rank;
                if out != from {
                    motions.push(LineMotion {
                        from,
                        to: out,
                        merged: false,
                    });
                }
                out += 1;
                open = true;
            }
        }
    }
}

/// The first release's `RuleSet::Twenty48.slide`: the line move over the board, then the merge
/// score from the motions.
fn old_slide(rules: &Rules, board: &Board, dir: Direction) -> tilebox_sliding::Slide {
    let mut slide = slide_board(board, dir, |line, motions| {
        slide_2048(line, motions);
        0
    });
    slide.gained = slide
        .motions
        .iter()
        .filter(|m| m.merged)
        .map(|m| rules.value(slide.board.rank(m.to)))
        .fold(0, u64::saturating_add);
    slide
}

/// Boards met in play of the built-in `id`: the first 64 positions of each of 8 seeded games
/// (fewer if a game ends sooner), played with a fixed cycle of the legal moves.
fn boards_of(id: &str) -> Vec<Board> {
    let variant = builtin_variant(id).unwrap();
    let mut out = Vec::new();
    for seed in 0..8 {
        let mut state = Sliding::new_game(&variant, seed).unwrap();
        let mut i = 0;
        while out.len() < (seed as usize + 1) * 64 {
            out.push(state.board().clone());
            let moves = Sliding::legal_moves(&state);
            let Some(mv) = moves.get(i % moves.len().max(1)) else {
                break;
            };
            state = Sliding::apply(&state, mv).unwrap();
            i += 1;
        }
    }
    out
}

/// The 2048 boards of [`boards_of`], checked against the first release's ladder.
fn boards(rules: &Rules) -> Vec<Board> {
    assert_eq!(rules.max_rank(), MAX_RANK_2048);
    boards_of("2048")
}

fn bench(c: &mut Criterion) {
    let rules = Rules::new(&builtin_variant("2048").unwrap()).unwrap();
    let boards = boards(&rules);
    // Both give the same slides.
    for b in &boards {
        for dir in Direction::ALL {
            assert_eq!(old_slide(&rules, b, dir), rules.slide(b, dir));
        }
    }
    let mut group = c.benchmark_group("slide 4x4 2048, 4 directions");
    group.bench_function("first release (hand-written 2048 line)", |bench| {
        bench.iter(|| {
            for b in &boards {
                for dir in Direction::ALL {
                    black_box(old_slide(&rules, black_box(b), dir));
                }
            }
        });
    });
    group.bench_function("generic engine (Rules::slide)", |bench| {
        bench.iter(|| {
            for b in &boards {
                for dir in Direction::ALL {
                    black_box(rules.slide(black_box(b), dir));
                }
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("slide, other kinds of rules, 4 directions");
    for (id, kind) in [
        ("2187", "2-tile rules relative to n"),
        ("1024", "3-tile rules"),
        ("6561", "4-tile rules, 6x6"),
        ("5040", "rules rung by rung, 2 to 4 tiles, 5x5"),
        ("1365-1366", "rules rung by rung, any of two wins"),
        ("partial-absorb-257", "a rule that leaves a tile, 5x5"),
        ("900", "rules of whole runs, 7x7"),
        ("2049", "labels and a rule that makes nothing, 5x5"),
        ("2592", "rules for some moves, 6x6"),
        ("2378", "a rule that leaves a cell spent, 5x5"),
        ("3240", "189 rules of three, 255 labelled tiles"),
        (
            "ratio-fill-3375",
            "2,568 rules of three, labelled tiles, 5x5",
        ),
        (
            "directional-merges",
            "rules for some directions, 255 tiles, 6x6",
        ),
        ("1762", "a range of integers, 4x4"),
        ("1429", "a range of integers, rules of three, 5x5"),
        (
            "1845",
            "a range of integers, format 3: gcd in a condition, 4x4",
        ),
        (
            "turatin",
            "a range of integers, format 3: reads the move's number, 4x4",
        ),
        ("threes", "step"),
    ] {
        let rules = Rules::new(&builtin_variant(id).unwrap()).unwrap();
        let boards = boards_of(id);
        group.bench_function(format!("{id} ({kind})"), |bench| {
            bench.iter(|| {
                // Each board on a move of its own number, so that 2592's pairs and triples
                // both count (the same rules on every move elsewhere).
                for (turn, b) in (0u64..).zip(&boards) {
                    for dir in Direction::ALL {
                        black_box(rules.slide_on(black_box(b), dir, turn));
                    }
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
