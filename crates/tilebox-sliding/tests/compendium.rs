//! Tilebox's Compendium modes against the 2048 Power Compendium's own engine.
//!
//! `tests/compendium/<id>.txt` holds what the Compendium's JavaScript engine did in mode `<id>`
//! (recorded by `tools/compendium/record.js`, written by `tools/compendium/fixtures.js`): the
//! board, the start, the spawn table, the win, and on 1,000 boards reached in random play the
//! result of each of the four moves before its spawn, with the score it made. Each built-in
//! variant of that id must do exactly the same, and draw its tiles from the same table.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tilebox_core::Puzzle;
use tilebox_sliding::{Direction, Rules, Sliding, SlidingState, Variant, builtin_variant};

/// One mode's fixture, read.
struct Fixture {
    id: String,
    mode: u32,
    side: usize,
    start: usize,
    /// `(spawns a move, where, tiles shown ahead)`.
    spawns: (u32, String, u32),
    /// Tile value and weight.
    weights: Vec<(u64, u64)>,
    /// A spawn box: its tiles and counts.
    bag: Vec<(u64, u64)>,
    /// Entries the engine writes as expressions (Threes' bonus), as text.
    other: Vec<String>,
    win: Vec<u64>,
    /// A win on different tiles (`win n distinct bound tiles…`): how many, the highest tile the
    /// list goes to, and the tiles up to it that meet the engine's condition.
    distinct: Option<(usize, u64, Vec<u64>)>,
    /// Whether the engine's win is a condition on its game variables (mod 27's modulus), which
    /// the variant's `"win": {"when": …}` says.
    win_when: bool,
    /// How often each value spawned in the engine's random play.
    spawned: BTreeMap<u64, u64>,
    boards: Vec<Recorded>,
}

/// A recorded board and the engine's result of each move, in the order up, down, left, right:
/// the board after the move and the score it made, or `None` for a move that changes nothing.
struct Recorded {
    line: usize,
    /// The board's tiles: their values, or for a mode whose fixture gives its tiles (`tiles`),
    /// those tiles as the variant's tile values.
    board: Vec<Vec<u64>>,
    /// The score each move made: a whole number, but for 2216.838's halves and powers of 1.5.
    results: [Option<(Vec<Vec<u64>>, f64)>; 4],
    /// Where the fixture gives the tiles (`tiles`), the worth of each tile of the board and of
    /// each result, as the engine counts it; `board` and `results` are then the tiles.
    worths: Option<[Option<Vec<Vec<u64>>>; 5]>,
    /// The moves its game had played, where the fixture gives it (2592); else 0.
    turn: u64,
    /// The engine's game variables, where the fixture gives them: before the move and after
    /// each (`null` for a move that changes nothing).
    vars: Option<serde_json::Value>,
}

const DIRECTIONS: [Direction; 4] = [
    Direction::Up,
    Direction::Down,
    Direction::Left,
    Direction::Right,
];

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compendium")
}

/// A tile as a fixture writes it: its value, or for a mode with labels (format 2) its label,
/// read as the tile's value in `v` (`.` is an empty cell, 0).
fn tile(v: &Variant, text: &str) -> u64 {
    if v.labels.is_empty() && !v.tiles.is_numbered() {
        match text {
            "." => 0,
            t => t
                .parse()
                .unwrap_or_else(|_| panic!("{t:?} is not a whole tile value")),
        }
    } else {
        v.value_of_text(text)
            .unwrap_or_else(|| panic!("{text:?} is not a label of {}", v.id))
    }
}

fn values(v: &Variant, text: &str) -> Vec<Vec<u64>> {
    text.split('/')
        .map(|row| row.split(',').map(|t| tile(v, t)).collect())
        .collect()
}

/// A board of worths, as a fixture that gives its tiles beside them writes it (`.` is 0).
fn worths(text: &str) -> Vec<Vec<u64>> {
    text.split('/')
        .map(|row| {
            row.split(',')
                .map(|t| match t {
                    "." => 0,
                    t => t.parse().unwrap_or_else(|_| panic!("{t:?} is not a worth")),
                })
                .collect()
        })
        .collect()
}

/// The worth a tile's label shows: its leading number (`375(UL)` is worth 375); 0 for an empty
/// cell.
fn shown_worth(v: &Variant, value: u64) -> u64 {
    let text = v.tile_text(value);
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}

fn pairs(v: &Variant, words: &[&str]) -> Vec<(u64, u64)> {
    words
        .iter()
        .map(|w| {
            let (t, n) = w.rsplit_once(':').expect("value:count");
            (tile(v, t), n.parse().expect("count"))
        })
        .collect()
}

fn read(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).expect("a fixture");
    let mut f = Fixture {
        id: String::new(),
        mode: 0,
        side: 0,
        start: 0,
        spawns: (0, String::new(), 0),
        weights: Vec::new(),
        bag: Vec::new(),
        other: Vec::new(),
        win: Vec::new(),
        distinct: None,
        win_when: false,
        spawned: BTreeMap::new(),
        boards: Vec::new(),
    };
    // The mode's variant, which reads its tiles: the `id` line comes first.
    let mut v = Variant::default();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if line.contains(';') {
            f.boards.push(board_line(&v, line, i + 1));
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["id", id] => {
                f.id = id.to_string();
                v = variant_file(id);
            }
            ["mode", n] => f.mode = n.parse().expect("mode"),
            ["menu", _] | ["games", _] => {}
            ["side", wh] => {
                let (w, h) = wh.split_once('x').expect("WxH");
                assert_eq!(w, h, "{}: a board that is not square", path.display());
                f.side = w.parse().expect("side");
            }
            ["start", n] => f.start = n.parse().expect("start"),
            ["spawns", n, at, "next", ahead] => {
                f.spawns = (
                    n.parse().expect("spawns"),
                    at.to_string(),
                    ahead.parse().expect("next"),
                )
            }
            ["spawn", "weight", pair] => f.weights.extend(pairs(&v, &[pair])),
            ["spawn", "bag", _, tiles @ ..] => f.bag = pairs(&v, tiles),
            ["spawn", "other", rest @ ..] => f.other.push(rest.join(" ")),
            ["win", "1", tiles @ ..] => f.win = tiles.iter().map(|t| tile(&v, t)).collect(),
            ["win", n, "distinct", bound, tiles @ ..] => {
                f.distinct = Some((
                    n.parse().expect("a number of tiles"),
                    tile(&v, bound),
                    tiles.iter().map(|t| tile(&v, t)).collect(),
                ))
            }
            // A condition on the engine's game variables (mod 27's `["@GVar 0", "=", 27]`).
            ["win", "when", ..] => f.win_when = true,
            // Winning is off (LOCEF): the tiles after it are a goal the mode's options set.
            ["win", "false", ..] => f.win = Vec::new(),
            ["spawned", tiles @ ..] => f.spawned = pairs(&v, tiles).into_iter().collect(),
            _ => panic!(
                "{}:{}: {line:?} is not a fixture line",
                path.display(),
                i + 1
            ),
        }
    }
    f
}

/// A board's line: the board, then up, down, left and right (a board and its score, or `-`),
/// then, each where the fixture has it, `tiles` (the board and the results as labels), `turn N`
/// and `vars` (the engine's game variables as JSON, last).
fn board_line(v: &Variant, line: &str, number: usize) -> Recorded {
    let fields: Vec<&str> = line.split(" ; ").collect();
    assert!(fields.len() >= 5, "line {number}: a board and four results");
    let extra = |name: &str| {
        fields[5..]
            .iter()
            .find_map(|f| f.strip_prefix(name).and_then(|f| f.strip_prefix(' ')))
    };
    let tiles = extra("tiles").map(|t| t.split(' ').collect::<Vec<&str>>());
    let boards = |k: usize, worth: &str| match &tiles {
        Some(t) => values(v, t[k]),
        None => values(v, worth),
    };
    let board = boards(0, fields[0]);
    let results = std::array::from_fn(|d| {
        let field = fields[1 + d];
        (field != "-").then(|| {
            let (b, gained) = field.split_once(' ').expect("a board and a score");
            (boards(1 + d, b), gained.parse().expect("a score"))
        })
    });
    let worths = tiles.as_ref().map(|t| {
        assert_eq!(
            t.len(),
            5,
            "line {number}: tiles of a board and four results"
        );
        std::array::from_fn(|k| {
            let field = fields[k];
            (field != "-").then(|| worths(field.split(' ').next().unwrap_or(field)))
        })
    });
    let turn = extra("turn").map_or(0, |n| n.parse().expect("turn N"));
    let vars = extra("vars").map(|j| serde_json::from_str(j).expect("vars as JSON"));
    Recorded {
        line: number,
        board,
        results,
        worths,
        turn,
        vars,
    }
}

/// Every fixture, in file-name order; while a variant file is being written, only those whose
/// ids `TILEBOX_COMPENDIUM` lists (`TILEBOX_COMPENDIUM=3125,1296`).
fn fixtures() -> Vec<(PathBuf, Fixture)> {
    let only = std::env::var("TILEBOX_COMPENDIUM").ok();
    let wanted = |p: &Path| {
        let id = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        only.as_deref()
            .is_none_or(|ids| ids.split(',').any(|x| x == id))
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(folder())
        .expect("the fixtures folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt") && wanted(p))
        .collect();
    paths.sort();
    paths.into_iter().map(|p| (p.clone(), read(&p))).collect()
}

/// The variant file of the built-in `id`, read from the repository (so that the agreement can
/// be checked while a file is written, before it is compiled in).
fn variant_file(id: &str) -> Variant {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("variants/{id}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (every fixture is a built-in)", path.display()));
    Variant::from_text(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The χ² statistic of `observed` counts against `expected` weights, and its degrees of freedom.
fn chi_square(observed: &BTreeMap<u64, u64>, expected: &[(u64, u64)]) -> (f64, usize) {
    // A value drawn that the table cannot give fails at once.
    for value in observed.keys() {
        assert!(
            expected.iter().any(|&(v, w)| v == *value && w > 0),
            "{value} was drawn, and the table {expected:?} has no weight for it"
        );
    }
    let expected: Vec<(u64, u64)> = expected.iter().copied().filter(|&(_, w)| w > 0).collect();
    let total: u64 = observed.values().sum();
    let weight: u64 = expected.iter().map(|&(_, w)| w).sum();
    let mut chi = 0.0;
    for &(value, w) in &expected {
        let e = total as f64 * w as f64 / weight as f64;
        let o = observed.get(&value).copied().unwrap_or(0) as f64;
        chi += (o - e) * (o - e) / e;
    }
    (chi, expected.len().saturating_sub(1))
}

/// The χ² value a statistic of `k` degrees of freedom passes with probability 1 in 10,000
/// (Wilson and Hilferty's approximation, z = 3.72).
fn chi_limit(k: usize) -> f64 {
    let k = k.max(1) as f64;
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + 3.72 * a.sqrt()).powi(3)
}

/// The spawn table Tilebox's variant draws from, as value and weight (a bag's counts).
fn table(v: &Variant) -> Vec<(u64, u64)> {
    let map = v.spawn.weights.as_ref().or(v.spawn.bag.as_ref());
    map.into_iter()
        .flatten()
        .map(|(&value, &w)| (value, u64::from(w)))
        .collect()
}

/// Weights as exact fractions of their total, so that 85:12:3 equals 170:24:6.
fn normalised(t: &[(u64, u64)]) -> Vec<(u64, u64, u64)> {
    let total: u64 = t.iter().map(|&(_, w)| w).sum();
    let mut out: Vec<(u64, u64, u64)> = t
        .iter()
        .filter(|&&(_, w)| w > 0)
        .map(|&(v, w)| {
            let g = gcd(w, total);
            (v, w / g, total / g)
        })
        .collect();
    out.sort();
    out
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

#[test]
fn every_fixture_is_a_builtin_with_the_same_rules_as_its_file() {
    let all = fixtures();
    assert!(!all.is_empty(), "no fixtures in {}", folder().display());
    for (path, f) in &all {
        assert_eq!(
            path.file_stem().and_then(|s| s.to_str()),
            Some(f.id.as_str()),
            "a fixture is named by its id"
        );
        let built = builtin_variant(&f.id).unwrap_or_else(|| panic!("{} is not a built-in", f.id));
        assert!(built.same_rules(&variant_file(&f.id)), "{}", f.id);
    }
    // And every mode built in has its fixture.
    if std::env::var("TILEBOX_COMPENDIUM").is_err() {
        for v in tilebox_sliding::builtin_variants() {
            if tilebox_sliding::builtin_group(&v.id).is_some() {
                assert!(
                    all.iter().any(|(_, f)| f.id == v.id),
                    "{} has no fixture",
                    v.id
                );
            }
        }
    }
}

#[test]
fn every_mode_starts_spawns_and_wins_as_the_compendium_does() {
    for (path, f) in fixtures() {
        let v = variant_file(&f.id);
        let at = path.display();
        assert_eq!(v.side, f.side, "{at}: side");
        assert_eq!(v.start, f.start, "{at}: start tiles");
        assert_eq!(f.spawns.0, 1, "{at}: one spawn a move is all Tilebox does");
        assert_eq!(f.spawns.1, "All", "{at}: spawns anywhere");
        assert_eq!(v.preview, f.spawns.2 > 0, "{at}: preview");
        let mut win = f.win.clone();
        win.sort_unstable();
        assert_eq!(v.win.values().to_vec(), win, "{at}: win");
        if let Some((count, bound, tiles)) = &f.distinct {
            // Tilebox's condition holds of exactly the engine's tiles, up to the bound.
            let d = v.pipeline.distinct.as_ref().expect("a distinct win");
            assert_eq!(d.count, *count, "{at}: how many different tiles win");
            let rules = Rules::new(&v).expect("rules");
            let counters = rules.start_counters();
            let mut met = Vec::new();
            for value in 1..=*bound {
                if let Some(rank) = v.rank_of(value)
                    && rules.counts_toward_distinct(rank, &counters, 0)
                {
                    met.push(value);
                }
            }
            assert_eq!(&met, tiles, "{at}: the tiles that count toward the win");
        }
        // The entries the engine writes as expressions: a draw (Wildcard 2048's mask), which
        // Tilebox's `draw` plays with the same weight; `draws_fit_the_engines_spawns` holds it
        // to the engine's spawns.
        let draws: Vec<u32> = f
            .other
            .iter()
            .filter_map(|o| o.strip_prefix("draw:"))
            .map(|o| {
                o.split(' ')
                    .next()
                    .unwrap_or("")
                    .parse()
                    .expect("draw:weight")
            })
            .collect();
        assert_eq!(
            draws,
            v.pipeline.draw.iter().map(|d| d.weight).collect::<Vec<_>>(),
            "{at}: a draw and its weight"
        );
        // A hook's spawns (DIVE's pool) are held to the engine's variables instead
        // (`dive_spawns_are_drawn_evenly_from_the_engines_pool`).
        if v.hook.is_some() {
            continue;
        }
        assert_eq!(
            v.pipeline.win.is_some(),
            f.win_when,
            "{at}: a win on counters"
        );
        if f.bag.is_empty() {
            assert!(
                f.other.len() == draws.len(),
                "{at}: an entry written as an expression"
            );
            assert!(v.spawn.weights.is_some(), "{at}: weighted spawns");
            assert_eq!(
                normalised(&table(&v)),
                normalised(&f.weights),
                "{at}: spawn table"
            );
        } else {
            assert!(v.spawn.bag.is_some(), "{at}: a bag");
            assert_eq!(normalised(&table(&v)), normalised(&f.bag), "{at}: the bag");
        }
    }
}

/// Tilebox's draws (the start tiles of 5,000 games) and the engine's (its spawns in the recorded
/// play) both fit the recorded table.
#[test]
fn spawns_fit_the_recorded_tables() {
    for (path, f) in fixtures() {
        let at = path.display();
        let v = variant_file(&f.id);
        if v.hook.is_some() {
            continue;
        }
        let expected = if f.bag.is_empty() {
            f.weights.clone()
        } else {
            f.bag.clone()
        };
        let rules = Rules::new(&v).expect("rules");
        // A draw's share, at the start's counters, beside the weights.
        let expected = if v.pipeline.draw.is_some() {
            as_weights(&rules, &rules.spawn_chances_with(&rules.start_counters()))
        } else {
            expected
        };
        let mut drawn = BTreeMap::new();
        for seed in 0..5_000 {
            let state = Sliding::new_game(&v, seed).expect("a new game");
            for row in rules.values(state.board()) {
                for value in row.into_iter().filter(|&x| x > 0) {
                    *drawn.entry(value).or_insert(0u64) += 1;
                }
            }
        }
        let (chi, k) = chi_square(&drawn, &expected);
        assert!(
            chi < chi_limit(k),
            "{at}: Tilebox's draws {drawn:?}, χ² {chi:.1}"
        );
        if f.other.is_empty() {
            let (chi, k) = chi_square(&f.spawned, &expected);
            assert!(
                chi < chi_limit(k),
                "{at}: the engine's spawns {:?}, χ² {chi:.1}",
                f.spawned
            );
        }
    }
}

/// Chances as whole weights (in millionths), by tile value.
fn as_weights(rules: &Rules, chances: &[(u16, f64)]) -> Vec<(u64, u64)> {
    chances
        .iter()
        .map(|&(r, p)| (rules.value(r), (p * 1e6).round() as u64))
        .collect()
}

/// A counter as the engine writes it in its variables: a number, or a big integer as text
/// (`"@BigInt 3"`).
fn counter_value(v: &serde_json::Value) -> i64 {
    match v {
        serde_json::Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().map(|x| x as i64))
            .expect("a whole number"),
        serde_json::Value::String(s) => s
            .trim_start_matches("@BigInt ")
            .parse()
            .unwrap_or_else(|_| panic!("{s:?} is not a counter")),
        other => panic!("{other} is not a counter"),
    }
}

/// The modes whose engine keeps a counter that Tilebox keeps as one of its variant's but reads
/// only approximately, held on a share of the moves ([`COUNTERS_AGREE`]) where
/// [`COUNTER_VARS`]'s are held on every one: the engine's variable and Tilebox's counter, by
/// index, by id. Wildcard 2048's G, the top bit of any tile made.
const APPROXIMATE_COUNTER_VARS: &[(&str, &[(usize, usize)])] =
    &[("2-4-8-wildcard-2048", &[(0, 0)])];

/// The share of the recorded moves whose counters must be the engine's, by id, where Tilebox's
/// reading is an approximation. Wildcard 2048's G is set inside the merge's score by
/// `["@Parent -2", "logB", 2n, "max", "@GVar 0"]`, whose `@Parent -2` re-reads a variable of
/// another context: it is the top bit of the tile made on most moves, one less on some, and on
/// a few stays as it was (`docs/compendium.md`); Tilebox takes the top bit of the tile made.
const COUNTERS_AGREE: &[(&str, f64)] = &[("2-4-8-wildcard-2048", 0.95)];

/// In the modes that keep counters, the recorded moves leave Tilebox's counters as they leave
/// the engine's variables, from the recorded board and variables: every one, or the share
/// [`COUNTERS_AGREE`] gives.
#[test]
fn the_counters_are_the_engines_after_every_recorded_move() {
    for (path, f) in fixtures() {
        let Some((_, pairs)) = APPROXIMATE_COUNTER_VARS.iter().find(|(id, _)| *id == f.id) else {
            continue;
        };
        let v = variant_file(&f.id);
        let rules = Rules::new(&v).expect("rules");
        let (mut moves, mut wrong) = (0usize, Vec::new());
        for rec in &f.boards {
            let at = format!("{}:{}", path.display(), rec.line);
            let vars = rec
                .vars
                .as_ref()
                .expect("a fixture that gives the variables");
            let all = vars.as_array().expect("[before, up, down, left, right]");
            let mut counters = rules.start_counters();
            for &(var, c) in *pairs {
                counters[c] = counter_value(&all[0][var]);
            }
            let board = rules.board_from_values(&rec.board).expect("a board");
            for (d, dir) in DIRECTIONS.iter().enumerate() {
                let after = &all[1 + d];
                if after.is_null() {
                    continue;
                }
                let mut slide = rules.slide_on(&board, *dir, rec.turn);
                let now = rules.after_made(&slide, &counters, rec.turn);
                let next = rules.after_slide(&mut slide.board, &now, rec.turn);
                moves += 1;
                for &(var, c) in *pairs {
                    let theirs = counter_value(&after[var]);
                    if next[c] != theirs {
                        wrong.push(format!(
                            "{at} {dir:?}: counter {c}: {} for {theirs}",
                            next[c]
                        ));
                        break;
                    }
                }
            }
        }
        let share = COUNTERS_AGREE
            .iter()
            .find(|(id, _)| *id == f.id)
            .map_or(1.0, |&(_, s)| s);
        let agree = (moves - wrong.len()) as f64 / moves.max(1) as f64;
        eprintln!(
            "{}: counters agree on {} of {moves} moves",
            f.id,
            moves - wrong.len()
        );
        assert!(moves >= 1000, "{}: {moves} moves' counters checked", f.id);
        assert!(
            agree >= share,
            "{}: counters agree on {agree:.3} of the moves, less than {share}; the first:\n{}",
            f.id,
            wrong[..wrong.len().min(5)].join("\n")
        );
    }
}

/// Where a mode draws some spawns from a table its counters make (Wildcard 2048's 4 %, a mask
/// drawn from a float, which Tilebox's `draw` approximates), the engine's spawns fit Tilebox's
/// tables: their mixture over the recorded boards' counters (the boards are the positions its
/// random play met, move by move), cells expected fewer than 5 times pooled.
#[test]
fn draws_fit_the_engines_spawns() {
    for (path, f) in fixtures() {
        let Some((_, pairs)) = APPROXIMATE_COUNTER_VARS.iter().find(|(id, _)| *id == f.id) else {
            continue;
        };
        let v = variant_file(&f.id);
        if v.pipeline.draw.is_none() {
            continue;
        }
        let rules = Rules::new(&v).expect("rules");
        let mut mixture: BTreeMap<u64, f64> = BTreeMap::new();
        let mut boards = 0.0;
        for rec in &f.boards {
            let all = rec
                .vars
                .as_ref()
                .and_then(|x| x.as_array())
                .expect("variables");
            let mut counters = rules.start_counters();
            for &(var, c) in *pairs {
                counters[c] = counter_value(&all[0][var]);
            }
            for (r, p) in rules.spawn_chances_with(&counters) {
                *mixture.entry(rules.value(r)).or_default() += p;
            }
            boards += 1.0;
        }
        let total: u64 = f.spawned.values().sum();
        // Cells in value order; those expected fewer than 5 times pooled with the next.
        let mut cells: Vec<(f64, u64)> = Vec::new();
        let mut pool = (0.0, 0u64);
        for value in mixture
            .keys()
            .chain(f.spawned.keys())
            .collect::<std::collections::BTreeSet<_>>()
        {
            let e = mixture.get(value).copied().unwrap_or(0.0) / boards * total as f64;
            assert!(
                e > 0.0 || !f.spawned.contains_key(value),
                "{}: the engine spawned {value}, which no table of Tilebox's gives",
                path.display()
            );
            pool.0 += e;
            pool.1 += f.spawned.get(value).copied().unwrap_or(0);
            if pool.0 >= 5.0 {
                cells.push(pool);
                pool = (0.0, 0);
            }
        }
        if let Some(last) = cells.last_mut() {
            last.0 += pool.0;
            last.1 += pool.1;
        }
        let chi: f64 = cells
            .iter()
            .map(|&(e, o)| (o as f64 - e) * (o as f64 - e) / e)
            .sum();
        let k = cells.len().saturating_sub(1);
        eprintln!("{}: χ² {chi:.1} over {} cells", f.id, cells.len());
        assert!(
            chi < chi_limit(k),
            "{}: the engine's spawns {:?}, χ² {chi:.1} over {} cells",
            path.display(),
            f.spawned,
            cells.len()
        );
    }
}

/// The modes whose score Tilebox counts its own way, the board of every move being the
/// Compendium's (`docs/compendium.md`): Tilebox scores every merge the value of
/// the tile it makes, as in all its games, where the Compendium scores three 3^k in 2315 as
/// 3^k and two 3^k + 2^k with a 3^k as 6^(k+1), in 2745 a tile merged with the one two places
/// below it on the ladder as the larger tile merged, in 3645 x + 5x + 9x (x = 3^a·5^b) as
/// 2^a·5^b·15, and in Partial Absorb 257 two 2^k + 1 (which make 2^(k+1) + 1 and leave a 1) as
/// 2^(k+1) − 1.
const OWN_SCORE: &[&str] = &["2315", "2745", "3645", "partial-absorb-257"];

/// The modes whose tiles are worth fractions (2216.838's powers of 1.5 and their halves; (232,
/// 240)'s pairs, worth their length √(x² + y²)), or whose merges score them (Pro-Add-Uct's
/// products added and divided by a gcd squared): the Compendium scores a merge that fraction,
/// Tilebox that rounded to a
/// whole number of points (half up), so the score of a move is within half a point a merge of
/// the Compendium's.
const ROUNDED_SCORE: &[&str] = &["2216-838", "232-240", "pro-add-uct"];

#[test]
fn every_move_of_every_recorded_board_is_the_compendiums() {
    let mut checked = 0;
    for (path, f) in fixtures() {
        let v = variant_file(&f.id);
        let base = Rules::new(&v).expect("rules");
        let mut wrong = Vec::new();
        for rec in &f.boards {
            let at = format!("{}:{}", path.display(), rec.line);
            // The counters as the engine had them before the move, and the rules that read them.
            let counters = rec.vars.as_ref().map_or(base.start_counters(), |vars| {
                counters_of(&f.id, &v, &vars[0], &base.start_counters())
            });
            let rules = base.at(&counters);
            let board = rules
                .board_from_values(&rec.board)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            // Where the fixture gives the tiles beside their worths, each label shows the worth
            // the engine counts, on the board and after each move.
            let shown = |b: &Vec<Vec<u64>>| -> Vec<Vec<u64>> {
                b.iter()
                    .map(|row| row.iter().map(|&t| shown_worth(&v, t)).collect())
                    .collect()
            };
            if let Some(w) = &rec.worths {
                assert_eq!(Some(shown(&rec.board)), w[0], "{at}: the board's worths");
            }
            for (d, (dir, expected)) in DIRECTIONS.iter().zip(&rec.results).enumerate() {
                let mut slide = rules.slide_on(&board, *dir, rec.turn);
                // The turn pipeline, up to the spawn (the engine's probe spawns nothing): the
                // events and the one-tile rules; and the counters' values at the turn's end.
                if slide.moved && rules.has_pipeline() {
                    let (_, next) = rules.after_move(&mut slide.board, &counters, rec.turn, *dir);
                    if let Some(vars) = &rec.vars {
                        let theirs = counters_of(&f.id, &v, &vars[1 + d], &counters);
                        if next != theirs {
                            wrong.push(format!(
                                "{at} {dir:?}: counters {next:?}, the Compendium {theirs:?}"
                            ));
                        }
                    }
                }
                let mut got = slide
                    .moved
                    .then(|| (rules.values(&slide.board), slide.gained as f64));
                // A hook (DIVE's seeds): the move as the game plays it from the recorded pool,
                // whose seeds that leave score too, and whose pool after it is the engine's.
                if v.hook.is_some()
                    && let Some(got) = &mut got
                {
                    let (score, pool) = hooked_move(&rules, &board, rec, *dir);
                    got.1 = score;
                    let theirs = rec.vars.as_ref().and_then(|x| engine_pool(x, 1 + d));
                    if Some(&pool) != theirs.as_ref() {
                        wrong.push(format!(
                            "{at} {dir:?}: Tilebox's pool {pool:?}, the Compendium's {theirs:?}"
                        ));
                    }
                }
                // A mode that scores its own way still scores exactly the moves that merge.
                if OWN_SCORE.contains(&f.id.as_str())
                    && let (Some(got), Some((_, theirs))) = (&mut got, expected)
                    && (got.1 > 0.0) == (*theirs > 0.0)
                {
                    got.1 = *theirs;
                }
                // Each of its merges takes two tiles and makes one.
                if ROUNDED_SCORE.contains(&f.id.as_str())
                    && let (Some(got), Some((_, theirs))) = (&mut got, expected)
                {
                    let merges = board.tile_count() - slide.board.tile_count();
                    if (got.1 - theirs).abs() <= 0.5 * merges as f64 {
                        got.1 = *theirs;
                    }
                }
                if let (Some(w), Some((tiles, _))) = (&rec.worths, &got)
                    && Some(shown(tiles)) != w[1 + d]
                {
                    wrong.push(format!("{at} {dir:?}: the worths of {tiles:?}"));
                }
                if got != *expected {
                    wrong.push(format!(
                        "{at} {dir:?}: Tilebox {got:?}, the Compendium {expected:?}"
                    ));
                }
                checked += 1;
            }
        }
        assert!(
            wrong.is_empty(),
            "{} (mode {}): {} of {} moves differ; the first:\n{}",
            f.id,
            f.mode,
            wrong.len(),
            f.boards.len() * 4,
            wrong[..wrong.len().min(5)].join("\n")
        );
        assert!(f.boards.len() >= 1000, "{}: 1,000 boards", path.display());
    }
    assert!(checked >= 4000);
}

/// The game variables each mode keeps as scratch, set while a merge is tested and read by no
/// later move (Four-Sides 625's direction being tried, the Ratio-Fills' ratio), or as a tally
/// that only its display reads (Isotopic 256's tiles decayed, 2058's tiles that disappeared),
/// by id.
const SCRATCH_VARS: &[(&str, &[usize])] = &[
    ("four-sides-625", &[3]),
    ("ratio-fill-1296", &[0]),
    ("ratio-fill-1024", &[0]),
    ("ratio-fill-3375", &[0]),
    ("ratio-fill-9261", &[0]),
    ("isotopic-256", &[0]),
    ("2058", &[1]),
];

/// The modes whose variants keep counters (format 3's turn pipeline): each counter, by name,
/// and the engine's game variable that it is, by index. Every recorded move holds each counter
/// to its variable, before and after.
const COUNTER_VARS: &[(&str, &[(&str, usize)])] = &[
    ("378", &[("g", 0)]),
    ("mod-27", &[("m", 0)]),
    ("2058", &[("top", 0)]),
];

/// The counters of the variant `v` (of the fixture `id`) that the engine's game variables
/// `vars` give ([`COUNTER_VARS`]); those they do not give as in `others`.
fn counters_of(
    id: &str,
    v: &Variant,
    vars: &serde_json::Value,
    others: &tilebox_sliding::variant::Counters,
) -> tilebox_sliding::variant::Counters {
    let mut out = *others;
    let Some((_, table)) = COUNTER_VARS.iter().find(|(i, _)| *i == id) else {
        return out;
    };
    let names = v.pipeline.names();
    for &(name, var) in *table {
        let i = names
            .iter()
            .position(|n| n == name)
            .unwrap_or_else(|| panic!("{id}: no counter {name}"));
        out[i] = counter_value(&vars[var]);
    }
    out
}

/// The game variables of the fixture `id` that are its variant's counters ([`COUNTER_VARS`]).
fn counter_vars(id: &str) -> Vec<usize> {
    COUNTER_VARS
        .iter()
        .find(|(i, _)| *i == id)
        .map_or(Vec::new(), |(_, t)| t.iter().map(|&(_, var)| var).collect())
}

/// A fixture that gives the engine's game variables is of a mode that keeps no state beside its
/// board and its counters: every variable but its scratch and its counters (which
/// [`every_move_of_every_recorded_board_is_the_compendiums`] holds to the variant's) is the
/// same before and after every recorded move, on every board.
#[test]
fn the_engine_keeps_no_counters_in_the_modes_whose_fixtures_give_its_variables() {
    let mut checked = 0;
    for (path, f) in fixtures() {
        // A hook keeps a state of its own (DIVE's pool), held to the engine's by
        // `every_move_of_every_recorded_board_is_the_compendiums`.
        if variant_file(&f.id).hook.is_some() {
            continue;
        }
        let approximate: Vec<usize> = APPROXIMATE_COUNTER_VARS
            .iter()
            .filter(|(id, _)| *id == f.id)
            .flat_map(|(_, pairs)| pairs.iter().map(|&(var, _)| var))
            .collect();
        let mut scratch: Vec<usize> = SCRATCH_VARS
            .iter()
            .find(|(id, _)| *id == f.id)
            .map_or(Vec::new(), |(_, s)| s.to_vec());
        scratch.extend(counter_vars(&f.id));
        scratch.extend(&approximate);
        // Every variant that keeps counters says which variables they are.
        let v = variant_file(&f.id);
        assert_eq!(
            counter_vars(&f.id).len() + approximate.len(),
            v.pipeline.counters.len(),
            "{}: its counters' variables",
            path.display()
        );
        let kept = |vars: &serde_json::Value| -> Vec<serde_json::Value> {
            vars.as_array()
                .expect("the variables are a list")
                .iter()
                .enumerate()
                .filter(|(i, _)| !scratch.contains(i))
                .map(|(_, x)| x.clone())
                .collect()
        };
        let mut first = None;
        for rec in &f.boards {
            let Some(vars) = &rec.vars else { continue };
            let all = vars.as_array().expect("[before, up, down, left, right]");
            assert_eq!(all.len(), 5, "{}:{}", path.display(), rec.line);
            for (k, x) in all.iter().enumerate() {
                if x.is_null() {
                    assert!(
                        k > 0 && rec.results[k - 1].is_none(),
                        "{}:{}",
                        path.display(),
                        rec.line
                    );
                    continue;
                }
                let x = kept(x);
                let first = first.get_or_insert_with(|| x.clone());
                assert_eq!(
                    &x,
                    first,
                    "{}:{}: the engine's variables changed",
                    path.display(),
                    rec.line
                );
                checked += 1;
            }
        }
    }
    // The six modes of design step 1 give them (and, when all fixtures are read, at least those).
    if std::env::var("TILEBOX_COMPENDIUM").is_err() {
        assert!(checked >= 6 * 1000, "{checked} variables checked");
    }
}

/// The pool of seeds in the engine's variables `vars` (`[before, up, down, left, right]`) at
/// `k`: DIVE's first game variable, a list of `"@BigInt n"`.
fn engine_pool(vars: &serde_json::Value, k: usize) -> Option<Vec<u64>> {
    vars.get(k)?
        .get(0)?
        .as_array()?
        .iter()
        .map(|s| s.as_str()?.strip_prefix("@BigInt ")?.parse().ok())
        .collect()
}

/// A hook's move `dir` of the recorded board `rec`, played by the game from the engine's pool
/// before it: the score it makes (the merges', and the seeds' that leave) and the pool after it.
fn hooked_move(
    rules: &Rules,
    board: &tilebox_sliding::Board,
    rec: &Recorded,
    dir: Direction,
) -> (f64, Vec<u64>) {
    let before = rec
        .vars
        .as_ref()
        .and_then(|x| engine_pool(x, 0))
        .expect("a hook's fixture gives the engine's pool");
    let state = SlidingState::from_board(rules, board.clone(), None, 1).with_pool(&before);
    assert_eq!(state.pool(), before, "line {}: the pool is tiles", rec.line);
    let next = Sliding::apply(&state, &dir).expect("a move that moved");
    (next.score() as f64, next.pool())
}

/// The χ² statistic of spawns, each drawn from a pool: `draws` holds each spawn's value and
/// pool. Each value is expected as often as the sum, over the spawns, of its chance in that
/// spawn's pool (1 in the pool's size); every spawn must be of its pool.
fn pool_chi_square(draws: &[(u64, Vec<u64>)]) -> (f64, usize) {
    let mut observed: BTreeMap<u64, f64> = BTreeMap::new();
    let mut expected: BTreeMap<u64, f64> = BTreeMap::new();
    for (value, pool) in draws {
        assert!(
            pool.contains(value),
            "{value} spawned from the pool {pool:?}"
        );
        *observed.entry(*value).or_default() += 1.0;
        for seed in pool {
            *expected.entry(*seed).or_default() += 1.0 / pool.len() as f64;
        }
    }
    let mut chi = 0.0;
    for (seed, e) in &expected {
        let o = observed.get(seed).copied().unwrap_or(0.0);
        chi += (o - e) * (o - e) / e;
    }
    (chi, expected.len().saturating_sub(1))
}

/// DIVE's spawns, the engine's and Tilebox's, are drawn evenly from the pool of their move. The
/// engine's are read off its recorded play: each board after the first of a game is the result
/// of a recorded move of the board before, with one tile spawned, drawn from the pool the
/// engine's variables give after that move. Tilebox's are those of 300 random games. Both fit
/// by χ²; the start tiles are the start pool's.
#[test]
fn dive_spawns_are_drawn_evenly_from_the_engines_pool() {
    for (path, f) in fixtures() {
        let v = variant_file(&f.id);
        if v.hook.is_none() {
            continue;
        }
        let at = path.display();
        let rules = Rules::new(&v).expect("rules");
        let mut engine = Vec::new();
        for pair in f.boards.windows(2) {
            let [a, b] = pair else { continue };
            if b.turn != a.turn + 1 {
                continue;
            }
            let found = a.results.iter().enumerate().find_map(|(d, r)| {
                let (after, _) = r.as_ref()?;
                let mut spawned = Vec::new();
                for (row_a, row_b) in after.iter().zip(&b.board) {
                    for (&x, &y) in row_a.iter().zip(row_b) {
                        if x != y {
                            spawned.push((x, y));
                        }
                    }
                }
                match spawned.as_slice() {
                    [(0, y)] => Some((*y, d)),
                    _ => None,
                }
            });
            let (value, d) = found.unwrap_or_else(|| {
                panic!("{at}:{}: no recorded move and one spawn make it", b.line)
            });
            let pool = a
                .vars
                .as_ref()
                .and_then(|x| engine_pool(x, 1 + d))
                .expect("the pool");
            engine.push((value, pool));
        }
        assert!(engine.len() >= 900, "{at}: {} spawns found", engine.len());
        let (chi, k) = pool_chi_square(&engine);
        assert!(chi < chi_limit(k), "{at}: the engine's spawns, χ² {chi:.1}");
        let mut ours = Vec::new();
        let mut seen_seeds = std::collections::BTreeSet::new();
        for seed in 0..300u64 {
            let mut state = Sliding::new_game(&v, seed).expect("a new game");
            for row in rules.values(state.board()) {
                for value in row.into_iter().filter(|&x| x > 0) {
                    ours.push((value, state.pool()));
                }
            }
            let mut pick = tilebox_core::GameRng::from_seed(seed);
            for _ in 0..200 {
                let legal = Sliding::legal_moves(&state);
                if legal.is_empty() {
                    break;
                }
                let next = Sliding::apply(&state, &legal[pick.index(legal.len())]).expect("legal");
                let cell = next.last_spawn().expect("a spawn");
                ours.push((rules.value(next.board().rank(cell)), next.pool()));
                seen_seeds.extend(next.pool());
                state = next;
            }
        }
        let (chi, k) = pool_chi_square(&ours);
        assert!(chi < chi_limit(k), "{at}: Tilebox's spawns, χ² {chi:.1}");
        assert!(seen_seeds.len() > 3, "{at}: the pool grows: {seen_seeds:?}");
    }
}
