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
use tilebox_sliding::{Direction, Rules, Sliding, Variant, builtin_variant};

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
        assert_eq!(
            v.pipeline.win.is_some(),
            f.win_when,
            "{at}: a win on counters"
        );
        if f.bag.is_empty() {
            assert!(
                f.other.is_empty(),
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
        let expected = if f.bag.is_empty() {
            f.weights.clone()
        } else {
            f.bag.clone()
        };
        let rules = Rules::new(&v).expect("rules");
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

/// The modes whose score Tilebox counts its own way, the board of every move being the
/// Compendium's (`docs/compendium.md`): Tilebox scores every merge the value of
/// the tile it makes, as in all its games, where the Compendium scores three 3^k in 2315 as
/// 3^k and two 3^k + 2^k with a 3^k as 6^(k+1), in 2745 a tile merged with the one two places
/// below it on the ladder as the larger tile merged, in 3645 x + 5x + 9x (x = 3^a·5^b) as
/// 2^a·5^b·15, and in Partial Absorb 257 two 2^k + 1 (which make 2^(k+1) + 1 and leave a 1) as
/// 2^(k+1) − 1.
const OWN_SCORE: &[&str] = &["2315", "2745", "3645", "partial-absorb-257"];

/// The modes whose tiles are worth fractions (2216.838's powers of 1.5 and their halves; (232,
/// 240)'s pairs, worth their length √(x² + y²)): the Compendium scores a merge the fraction the
/// tile it makes is worth, Tilebox that rounded to a
/// whole number of points (half up), so the score of a move is within half a point a merge of
/// the Compendium's.
const ROUNDED_SCORE: &[&str] = &["2216-838", "232-240"];

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
        let x = &vars[var];
        let value = x
            .as_i64()
            .or_else(|| x.as_str()?.strip_prefix("@BigInt ")?.parse().ok())
            .unwrap_or_else(|| panic!("{id}: the variable {var}, {x}, is not a whole number"));
        out[i] = value;
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
        let mut scratch: Vec<usize> = SCRATCH_VARS
            .iter()
            .find(|(id, _)| *id == f.id)
            .map_or(Vec::new(), |(_, s)| s.to_vec());
        scratch.extend(counter_vars(&f.id));
        // Every variant that keeps counters says which variables they are.
        let v = variant_file(&f.id);
        assert_eq!(
            counter_vars(&f.id).len(),
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
