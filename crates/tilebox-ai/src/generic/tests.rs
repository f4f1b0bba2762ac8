//! Tests of the generic player on self-contained models: plain 2048, Fibonacci (2584), and a
//! stepping 2048 whose tiles enter at the moved edge; each with its own line rule written here.

use std::time::Duration;

use tilebox_sliding::{Cell, Direction};

use super::*;

/// Plain 2048: n + n → n + 1, tiles slide to the wall, 2 (rank 1) nine times in ten, else 4.
struct Plain;

/// Compacts a line toward position 0, then merges from the wall outward with `merge`, a tile
/// made by a merge not merging again.
fn slide_with(line: &mut [u8], merge: impl Fn(u8, u8) -> Option<u8>) {
    let tiles: Vec<u8> = line.iter().copied().filter(|&r| r != 0).collect();
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < tiles.len() {
        match tiles.get(i + 1).and_then(|&b| merge(tiles[i], b)) {
            Some(made) => {
                out.push(made);
                i += 2;
            }
            None => {
                out.push(tiles[i]);
                i += 1;
            }
        }
    }
    out.resize(line.len(), 0);
    line.copy_from_slice(&out);
}

impl SlidingModel for Plain {
    fn slide_line(&self, line: &mut [u8]) {
        slide_with(line, |a, b| (a == b && a < 57).then_some(a + 1));
    }
    fn spawn_at(&self) -> SpawnAt {
        SpawnAt::Anywhere
    }
    fn next_tiles(&self) -> Vec<(u8, f64)> {
        vec![(1, 9.0), (2, 1.0)]
    }
    fn merges_with(&self, a: u8, b: u8) -> bool {
        a == b
    }
    fn value(&self, rank: u8) -> u64 {
        1u64.checked_shl(u32::from(rank)).unwrap_or(0)
    }
}

/// Fibonacci (the 2584 variant): ladder 1, 2, 3, 5, 8 …; 1 + 1 → 2, and neighbours on the
/// ladder n, n + 1 → n + 2 in either order; 1: 85, 2: 10, 3: 5.
struct Fibonacci;

fn fib_merge(a: u8, b: u8) -> Option<u8> {
    if a == 1 && b == 1 {
        Some(2)
    } else if a.abs_diff(b) == 1 && a.max(b) < 63 {
        Some(a.max(b) + 1)
    } else {
        None
    }
}

impl SlidingModel for Fibonacci {
    fn slide_line(&self, line: &mut [u8]) {
        slide_with(line, fib_merge);
    }
    fn spawn_at(&self) -> SpawnAt {
        SpawnAt::Anywhere
    }
    fn next_tiles(&self) -> Vec<(u8, f64)> {
        vec![(1, 85.0), (2, 10.0), (3, 5.0)]
    }
    fn merges_with(&self, a: u8, b: u8) -> bool {
        fib_merge(a, b).is_some()
    }
    fn value(&self, rank: u8) -> u64 {
        let (mut a, mut b) = (1u64, 2u64);
        for _ in 1..rank {
            (a, b) = (b, a.saturating_add(b));
        }
        a
    }
}

/// 2048 merges with Threes' motion: every line moves at most one cell, and the new tile (a 2
/// or, with a preview of it, a known tile) enters at the far edge of a line that moved.
struct Stepping {
    preview: Option<u8>,
}

impl SlidingModel for Stepping {
    fn slide_line(&self, line: &mut [u8]) {
        for i in 0..line.len().saturating_sub(1) {
            let (a, b) = (line[i], line[i + 1]);
            let step = (a == 0 && line[i + 1..].iter().any(|&r| r != 0)) || (a != 0 && a == b);
            if step {
                line[i] = if a == 0 { b } else { a + 1 };
                for j in i + 1..line.len() - 1 {
                    line[j] = line[j + 1];
                }
                if let Some(last) = line.last_mut() {
                    *last = 0;
                }
                return;
            }
        }
    }
    fn spawn_at(&self) -> SpawnAt {
        SpawnAt::MovedEdge
    }
    fn next_tiles(&self) -> Vec<(u8, f64)> {
        match self.preview {
            Some(r) => vec![(r, 1.0)],
            None => self.later_tiles(),
        }
    }
    fn later_tiles(&self) -> Vec<(u8, f64)> {
        vec![(1, 2.0), (2, 1.0)]
    }
    fn merges_with(&self, a: u8, b: u8) -> bool {
        a == b
    }
    fn value(&self, rank: u8) -> u64 {
        1u64.checked_shl(u32::from(rank)).unwrap_or(0)
    }
}

/// A model that answers nonsense: lines filled with ranks past the top, no tiles, no values.
struct Broken;

impl SlidingModel for Broken {
    fn slide_line(&self, line: &mut [u8]) {
        if line.contains(&0) {
            line.fill(200);
        }
    }
    fn spawn_at(&self) -> SpawnAt {
        SpawnAt::Anywhere
    }
    fn next_tiles(&self) -> Vec<(u8, f64)> {
        vec![(0, 1.0), (99, 2.0), (1, f64::NAN), (2, -1.0)]
    }
    fn merges_with(&self, _: u8, _: u8) -> bool {
        true
    }
    fn value(&self, _: u8) -> u64 {
        0
    }
}

/// SplitMix64: a seeded generator for the tests' boards and games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A tile from a distribution.
    fn tile(&mut self, tiles: &[(u8, f64)]) -> u8 {
        let total: f64 = tiles.iter().map(|t| t.1).sum();
        let mut x = self.unit() * total;
        for &(r, p) in tiles {
            if x < p {
                return r;
            }
            x -= p;
        }
        tiles.last().map_or(1, |t| t.0)
    }
}

/// A random grid: every cell a rank in `1..=max`, then about `empties` cells emptied.
fn random_grid(rng: &mut Rng, side: usize, max: u8, empties: usize) -> Grid {
    let mut rows: Vec<Vec<u8>> = (0..side)
        .map(|_| {
            (0..side)
                .map(|_| 1 + rng.below(usize::from(max)) as u8)
                .collect()
        })
        .collect();
    for _ in 0..empties {
        let (r, c) = (rng.below(side), rng.below(side));
        rows[r][c] = 0;
    }
    Grid::from_ranks(&rows).unwrap()
}

/// The swipe `dir` written out naively over rows and columns with the model's line rule,
/// independent of the grid's line tables.
fn naive_slide(model: &impl SlidingModel, grid: &Grid, dir: Direction) -> Grid {
    let mut rows = grid.rows();
    let side = rows.len();
    for line in 0..side {
        let mut ranks: Vec<u8> = match dir {
            Direction::Left => rows[line].clone(),
            Direction::Right => rows[line].iter().rev().copied().collect(),
            Direction::Up => (0..side).map(|r| rows[r][line]).collect(),
            Direction::Down => (0..side).rev().map(|r| rows[r][line]).collect(),
        };
        model.slide_line(&mut ranks);
        for (pos, &rank) in ranks.iter().enumerate() {
            let (r, c) = match dir {
                Direction::Left => (line, pos),
                Direction::Right => (line, side - 1 - pos),
                Direction::Up => (pos, line),
                Direction::Down => (side - 1 - pos, line),
            };
            rows[r][c] = rank;
        }
    }
    Grid::from_ranks(&rows).unwrap()
}

fn legal(model: &impl SlidingModel, grid: &Grid) -> Vec<Direction> {
    Direction::ALL
        .into_iter()
        .filter(|&d| grid.slide(model, d).is_some())
        .collect()
}

#[test]
fn grid_slides_match_a_naive_slide_in_all_four_directions() {
    let mut rng = Rng(1);
    for side in 2..=8 {
        for _ in 0..50 {
            let grid = random_grid(&mut rng, side, 5, side * side / 2);
            for dir in Direction::ALL {
                let naive = naive_slide(&Plain, &grid, dir);
                match grid.slide(&Plain, dir) {
                    Some((after, moved)) => {
                        assert_eq!(after, naive, "{side} {dir:?}");
                        for line in 0..side {
                            let cells = (0..side).map(|pos| dir.cell(side, line, pos));
                            let changed = cells.clone().any(|c| grid.rank(c) != after.rank(c));
                            assert_eq!(moved & (1 << line) != 0, changed);
                        }
                    }
                    None => assert_eq!(naive, grid),
                }
            }
        }
    }
}

#[test]
fn a_move_that_moves_is_always_returned_when_one_exists() {
    let mut rng = Rng(2);
    let mut engine = GenericEngine::with_table_bits(14);
    let models: [&dyn SlidingModel; 4] =
        [&Plain, &Fibonacci, &Stepping { preview: Some(2) }, &Broken];
    let mut none = 0;
    for side in 2..=8 {
        for round in 0..12 {
            // From nearly full boards (often stuck) to half empty ones.
            let empties = [0, 1, 2, side * side / 2][round % 4];
            let grid = random_grid(&mut rng, side, 4, empties);
            for model in models {
                let can = legal(&model, &grid);
                let advice = engine.advise(model, &grid, &Limits::fixed_depth(2));
                match advice {
                    Some(a) => {
                        assert!(can.contains(&a.best), "{side} {grid:?} {a:?}");
                        let listed: Vec<Direction> = a.values.iter().map(|v| v.0).collect();
                        assert_eq!(listed, can);
                        assert!(a.values.iter().all(|v| !v.1.is_nan()));
                    }
                    None => {
                        assert!(can.is_empty(), "{side} {grid:?}");
                        none += 1;
                    }
                }
            }
        }
    }
    assert!(none > 0, "no stuck board was tried");
}

impl SlidingModel for &dyn SlidingModel {
    fn slide_line(&self, line: &mut [u8]) {
        (**self).slide_line(line)
    }
    fn spawn_at(&self) -> SpawnAt {
        (**self).spawn_at()
    }
    fn next_tiles(&self) -> Vec<(u8, f64)> {
        (**self).next_tiles()
    }
    fn later_tiles(&self) -> Vec<(u8, f64)> {
        (**self).later_tiles()
    }
    fn merges_with(&self, a: u8, b: u8) -> bool {
        (**self).merges_with(a, b)
    }
    fn value(&self, rank: u8) -> u64 {
        (**self).value(rank)
    }
}

#[test]
fn the_only_move_that_survives_is_chosen() {
    // Only Left and Right move (the 8s); after Left a 2 lands bottom right and nothing moves,
    // after Right every new tile leaves a merge.
    let grid = Grid::from_ranks(&[
        vec![1, 2, 1, 2],
        vec![2, 1, 2, 1],
        vec![1, 2, 1, 2],
        vec![2, 1, 3, 3],
    ])
    .unwrap();
    assert_eq!(legal(&Plain, &grid), [Direction::Left, Direction::Right]);
    for depth in 2..=4 {
        let a = GenericEngine::new()
            .advise(&Plain, &grid, &Limits::fixed_depth(depth))
            .unwrap();
        assert_eq!(a.best, Direction::Right, "depth {depth}: {a:?}");
    }
}

#[test]
fn the_big_merge_into_the_corner_is_chosen() {
    // Two 1024s side by side in the top row, the rest ordered: Left makes the 2048 in the
    // corner and keeps the order.
    let grid = Grid::from_ranks(&[
        vec![10, 10, 4, 3],
        vec![6, 5, 2, 1],
        vec![1, 2, 0, 0],
        vec![0, 0, 0, 0],
    ])
    .unwrap();
    for depth in 1..=3 {
        let a = GenericEngine::new()
            .advise(&Plain, &grid, &Limits::fixed_depth(depth))
            .unwrap();
        assert_eq!(a.best, Direction::Left, "depth {depth}: {a:?}");
    }
}

/// Whether every tile that may arrive after the move leaves no legal move.
fn certain_death(model: &impl SlidingModel, after: &Grid, dir: Direction, moved: u8) -> bool {
    after
        .spawn_cells(model.spawn_at(), dir, moved)
        .into_iter()
        .all(|cell| {
            model
                .later_tiles()
                .iter()
                .all(|&(t, _)| legal(model, &after.with(cell, t)).is_empty())
        })
}

fn avoids_certain_death(model: &impl SlidingModel, seed: u64, max: u8) {
    let mut rng = Rng(seed);
    let mut engine = GenericEngine::with_table_bits(16);
    let mut found = 0;
    for side in 3..=5 {
        let mut here = 0;
        for _ in 0..200_000 {
            let empties = 1 + rng.below(2);
            let grid = random_grid(&mut rng, side, max, empties);
            let (mut deadly, mut safe) = (Vec::new(), Vec::new());
            for dir in legal(model, &grid) {
                if let Some((after, moved)) = grid.slide(model, dir) {
                    if certain_death(model, &after, dir, moved) {
                        deadly.push(dir);
                    } else {
                        safe.push(dir);
                    }
                }
            }
            if deadly.is_empty() || safe.is_empty() {
                continue;
            }
            let a = engine
                .advise(model, &grid, &Limits::fixed_depth(3))
                .unwrap();
            assert!(safe.contains(&a.best), "{grid:?} {a:?}");
            here += 1;
            if here == 8 {
                break;
            }
        }
        found += here;
    }
    assert!(found >= 12, "too few test boards: {found}");
}

#[test]
fn a_move_into_certain_defeat_is_avoided() {
    avoids_certain_death(&Plain, 3, 6);
    avoids_certain_death(&Fibonacci, 4, 6);
    avoids_certain_death(&Stepping { preview: None }, 5, 5);
}

/// Plays a seeded game at a fixed depth until `goal` is made or `moves` are played; the
/// highest rank made and the moves played.
fn play(
    model: &impl SlidingModel,
    side: usize,
    seed: u64,
    depth: u32,
    goal: u8,
    moves: usize,
) -> (u8, usize) {
    let mut rng = Rng(seed);
    let mut engine = GenericEngine::with_table_bits(18);
    let mut grid = Grid::from_ranks(&vec![vec![0; side]; side]).unwrap();
    for _ in 0..2 {
        let empty: Vec<Cell> = (0..side * side)
            .map(|i| Cell::new(i / side, i % side))
            .filter(|&c| grid.rank(c) == 0)
            .collect();
        let cell = empty[rng.below(empty.len())];
        grid = grid.with(cell, rng.tile(&model.later_tiles()));
    }
    for played in 0..moves {
        if grid.max_rank() >= goal {
            return (grid.max_rank(), played);
        }
        let Some(a) = engine.advise(model, &grid, &Limits::fixed_depth(depth)) else {
            return (grid.max_rank(), played);
        };
        let (after, moved) = grid.slide(model, a.best).unwrap();
        let cells = after.spawn_cells(model.spawn_at(), a.best, moved);
        grid = after;
        if !cells.is_empty() {
            let cell = cells[rng.below(cells.len())];
            grid = grid.with(cell, rng.tile(&model.later_tiles()));
        }
    }
    (grid.max_rank(), moves)
}

#[test]
fn a_seeded_5x5_game_of_2048_reaches_256() {
    // 256 is rank 8; about 120 tiles must arrive, so some 130 moves.
    let (top, moves) = play(&Plain, 5, 7, 3, 8, 400);
    assert!(top >= 8, "reached rank {top} in {moves} moves");
}

#[test]
fn a_seeded_game_of_fibonacci_reaches_144() {
    // 144 is rank 11 of the ladder 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144.
    let (top, moves) = play(&Fibonacci, 4, 8, 3, 11, 600);
    assert!(top >= 11, "reached rank {top} in {moves} moves");
}

#[test]
fn big_boards_are_sampled_and_stay_cheap() {
    // An open 8×8 board: a chance node has up to 60 cells, sampled down to 8.
    let mut rng = Rng(9);
    let grid = random_grid(&mut rng, 8, 3, 200);
    let a = GenericEngine::new()
        .advise(&Plain, &grid, &Limits::fixed_depth(4))
        .unwrap();
    // Two moves and two arrivals of 2 tiles each at 8 sampled cells: 4 + 4·16·4 turns at most.
    assert!(a.nodes <= 4 * 16 * 4 + 4, "{a:?}");
}

#[test]
fn fixed_depth_is_deterministic_and_independent_of_earlier_searches() {
    let mut rng = Rng(10);
    let mut engine = GenericEngine::with_table_bits(12);
    for side in [3, 5, 6] {
        for _ in 0..5 {
            let grid = random_grid(&mut rng, side, 6, side);
            let first = engine.advise(&Fibonacci, &grid, &Limits::fixed_depth(3));
            let again = engine.advise(&Fibonacci, &grid, &Limits::fixed_depth(3));
            let fresh = GenericEngine::with_table_bits(12).advise(
                &Fibonacci,
                &grid,
                &Limits::fixed_depth(3),
            );
            assert_eq!(first, again);
            assert_eq!(first, fresh);
        }
    }
}

#[test]
fn a_zero_budget_still_answers_and_one_legal_move_is_answered_at_once() {
    let grid = Grid::from_ranks(&[vec![1, 1, 0], vec![0, 0, 0], vec![0, 0, 2]]).unwrap();
    let a = GenericEngine::new()
        .advise(&Plain, &grid, &Limits::per_move(Duration::ZERO))
        .unwrap();
    assert_eq!(a.depth, 1);
    let only_down = Grid::from_ranks(&[vec![1, 2, 1], vec![2, 1, 2], vec![0, 0, 0]]).unwrap();
    assert_eq!(legal(&Plain, &only_down), [Direction::Down]);
    let a = GenericEngine::new()
        .advise(
            &Plain,
            &only_down,
            &Limits::per_move(Duration::from_secs(60)),
        )
        .unwrap();
    assert_eq!((a.best, a.depth), (Direction::Down, 1));
}

#[test]
fn the_heuristic_prefers_order_and_merges_on_any_ladder() {
    let index = LineIndex::new(4);
    for model in [&Plain as &dyn SlidingModel, &Fibonacci] {
        let root = Grid::from_ranks(&vec![vec![9; 4]; 4]).unwrap();
        let e = eval::Evaluator::new(model, &root, Weights::DEFAULT);
        assert!(e.line(&[9, 7, 5, 3]) > e.line(&[7, 9, 3, 5]));
        let corner = Grid::from_ranks(&[
            vec![9, 8, 7, 6],
            vec![2, 3, 4, 5],
            vec![1, 0, 0, 0],
            vec![0, 0, 0, 0],
        ])
        .unwrap();
        let scattered = Grid::from_ranks(&[
            vec![2, 8, 1, 6],
            vec![9, 0, 4, 0],
            vec![0, 7, 0, 3],
            vec![5, 0, 0, 0],
        ])
        .unwrap();
        let mut cache = EvalCache::default();
        assert!(e.board(&corner, &index, &mut cache) > e.board(&scattered, &index, &mut cache));
        assert!(e.loss(&corner) < e.board(&corner, &index, &mut cache));
    }
    // The merge term alone: neighbours on the ladder merge in Fibonacci, equal tiles above 1
    // do not; in 2048 the other way round.
    let root = Grid::from_ranks(&vec![vec![5; 4]; 4]).unwrap();
    let merges_only = Weights {
        mono: 0.0,
        sum: 0.0,
        ..Weights::DEFAULT
    };
    let fib = eval::Evaluator::new(&Fibonacci, &root, merges_only);
    assert!(fib.line(&[4, 5, 0, 0]) > fib.line(&[4, 4, 0, 0]));
    let plain = eval::Evaluator::new(&Plain, &root, merges_only);
    assert!(plain.line(&[4, 4, 0, 0]) > plain.line(&[4, 5, 0, 0]));
}

/// Where rules change from move to move, the lines a search moved by one set of rules are kept
/// for the next search that meets that set, wherever it comes in it: 2592's pairs are the
/// first set of an even move's search and the second of an odd move's.
#[test]
fn lines_moved_by_a_set_of_rules_are_kept_for_the_next_search_of_it() {
    use tilebox_core::Session;
    use tilebox_sliding::{Sliding, builtin_variant};

    let v = builtin_variant("2592").unwrap();
    let mut game = Session::<Sliding>::new(v, 3).unwrap();
    let limits = Limits {
        time: None,
        max_depth: 3,
        min_probability: Limits::DEFAULT_MIN_PROBABILITY,
    };
    let mut engine = GenericEngine::new();
    let model = crate::VariantModel::of_state(game.state());
    let advice = engine
        .advise_board(&model, game.state().board(), &limits)
        .unwrap();
    let before: Vec<_> = engine
        .lines_for
        .iter()
        .copied()
        .zip(engine.lines.iter().map(HashMap::len))
        .collect();
    assert_eq!(before.len(), 2, "{before:?}");
    assert!(before.iter().all(|&(key, len)| key.is_some() && len > 0));
    game.play(advice.best).unwrap();
    let model = crate::VariantModel::of_state(game.state());
    engine
        .advise_board(&model, game.state().board(), &limits)
        .unwrap();
    assert_eq!(engine.lines_for, vec![before[1].0, before[0].0]);
    for (key, len) in before {
        let at = engine.lines_for.iter().position(|&k| k == key).unwrap();
        assert!(engine.lines[at].len() >= len, "{key:?}: {len}");
    }
}

/// The transposition key of a player's turn carries the counters the search carries: the same
/// grid with other counters is another position (and the same counters the same one).
#[test]
fn the_transposition_key_differs_by_the_counters() {
    let grid = Grid::from_ranks(&[vec![1, 2, 0], vec![0, 0, 0], vec![3, 0, 1]]).unwrap();
    let mut carried = Carried::new(Some([3, 0, 0, 0]));
    let other = carried.id([4, 0, 0, 0]);
    assert_ne!(other, 0);
    assert_eq!(carried.id([3, 0, 0, 0]), 0);
    assert_eq!(carried.id([4, 0, 0, 0]), other);
    for ahead in [None, Some(2)] {
        let at = |id| node_key(&grid, ahead, carried.key(id));
        assert_ne!(at(0), at(other), "{ahead:?}");
        assert_eq!(at(other), node_key(&grid, ahead, carried.key(other)));
    }
    // Counters that differ in any place.
    let keys: Vec<u64> = (0..4)
        .map(|i| {
            let mut c = [3, 0, 0, 0];
            c[i] += 1;
            let id = carried.id(c);
            carried.key(id)
        })
        .collect();
    for (i, a) in keys.iter().enumerate() {
        assert!(keys[i + 1..].iter().all(|b| a != b), "{keys:?}");
        assert_ne!(*a, carried.key(0));
    }
    // A search that carries nothing keeps the key it had.
    assert!(!Carried::new(None).on);
}
