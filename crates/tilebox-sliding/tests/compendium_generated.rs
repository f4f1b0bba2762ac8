//! The variant files of the 2048 Power Compendium's "A*" modes, generated.
//!
//! Most Compendium modes fit `docs/variants.md`'s relative merge rules (`"n"`, `"n+1"` with
//! `n_every`), because their ladders repeat: 2187's ladder is 3^k, 2·3^k, 3^(k+1) … and one rule
//! serves each rung of a kind. The modes here have ladders with no repeating pattern (3-smooth
//! numbers, factorial bands, primorials, products of Fibonacci numbers, places of Pascal's
//! triangle …), so their merges are written out rung by rung, as exact ladder positions: a few
//! hundred rules that no one should type or check by hand. Each mode below is a short
//! mathematical description (its tiles, and which tiles merge); the helpers enumerate the ladder,
//! cut it to the format's limits (63 tiles for the modes built while that was the limit, 255
//! since; the top one times 64 within a `u64`), find each value's position and write the file.
//! A merge makes the sum of its tiles, so a rule is given by its tiles alone, but in 1716, whose
//! file numbers its tiles and labels them, and which says what each merge makes.
//!
//! The rules are listed in the order the Compendium tries them, except where a merge of three
//! tiles must come before a merge of two of them (the Compendium gets that with a look at the tile
//! behind, "unless a third equal tile follows"; a slide here tries the rules in order at each tile
//! from the wall, so listing the triple first does the same).
//!
//! The test below checks that the committed files are what this generates, and that each is a
//! valid variant. Regenerate them after changing a mode here:
//!
//! ```sh
//! TILEBOX_BLESS=1 cargo test -p tilebox-sliding --test compendium_generated
//! ```
//!
//! `tests/compendium.rs` checks each file against the Compendium's own engine, move by move.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tilebox_sliding::Variant;

/// The most tiles a generated ladder has: the 63 the format held until it took 255, which the
/// modes built before keep (their files stay as they were).
const MAX_TILES: usize = 63;

/// The most tiles a ladder may have.
const MOST_TILES: usize = tilebox_sliding::variant::MAX_TILES;

/// The highest tile a ladder may have: 64 times it must fit in a `u64`.
const TOP: u128 = (u64::MAX / 64) as u128;

/// A mode's variant file, before it is written.
struct Mode {
    id: &'static str,
    /// The Compendium's name, where the id's words are not it ("3,188,646").
    title: Option<&'static str>,
    /// The Compendium's mode number.
    number: u32,
    description: &'static str,
    side: u32,
    /// Tile value and weight.
    spawn: &'static [(u64, u32)],
    /// The winning tiles: one, or (format 2) any of several.
    win: Vec<u64>,
    /// The ladder, increasing.
    tiles: Vec<u64>,
    /// The merges, in order: each the tiles (as values) that merge into their sum.
    merges: Vec<Vec<u64>>,
    /// Why and where the ladder was cut, for the report below; `None` when it was not.
    cut: Option<String>,
    /// Whether each rule takes only a whole run of equal tiles (format 2's `run`).
    runs: bool,
    /// The moves on which each merge holds (format 2's `on_moves`), by the merge's index; none
    /// (or no entry): every move.
    on_moves: Vec<Option<[u32; 2]>>,
    /// The cells the merges of k tiles leave spent (format 2's `spent`), for each k that leaves
    /// any.
    spent: &'static [(usize, &'static [u8])],
    /// The directions each merge holds on (format 2's `directions`), by the merge's index; none
    /// listed (or no entry): every direction.
    directions: Vec<&'static [&'static str]>,
    /// What each merge makes, by the merge's index, where that is not the sum of its tiles: a
    /// tile, or nothing (`"makes": null`, the tiles destroy one another). Empty: the sums.
    makes: Vec<Option<u64>>,
    /// The labels the tiles show (format 2's `labels`), one a tile; empty for none.
    labels: Vec<String>,
    /// The points of each tile a merge makes (format 2's `{"merges": [...]}`); empty: its value.
    points: Vec<u64>,
    /// The tiles each merge leaves besides the one it makes (format 2's `leaves`), by the
    /// merge's index; no entry: none.
    leaves: Vec<Vec<u64>>,
    /// The merges that take their tiles only in the order listed, from the wall outward, by
    /// the merge's index (no entry: false); any other merge of tiles that are not all equal
    /// takes them in any order.
    ordered: Vec<bool>,
    /// A win on different tiles (format 3's `{"distinct": n, "when": …}`) in place of `win`.
    distinct: Option<(u32, String)>,
}

impl Default for Mode {
    /// A mode's fields that most modes leave as they are: no whole runs, no rules for some moves
    /// or directions, no spent cells, merges that make their sums, no labels, scores by value.
    fn default() -> Self {
        Mode {
            id: "",
            title: None,
            number: 0,
            description: "",
            side: 4,
            spawn: &[],
            win: Vec::new(),
            tiles: Vec::new(),
            merges: Vec::new(),
            cut: None,
            runs: false,
            on_moves: Vec::new(),
            spent: &[],
            directions: Vec::new(),
            makes: Vec::new(),
            labels: Vec::new(),
            points: Vec::new(),
            leaves: Vec::new(),
            ordered: Vec::new(),
            distinct: None,
        }
    }
}

/// The ladder made of `values` (in any order, each at most once), cut to the format's limits: the
/// values up to [`TOP`], then the smallest [`MAX_TILES`] of them. Returns the ladder and, if it
/// was cut, the first value left off.
fn ladder(values: impl IntoIterator<Item = u128>) -> (Vec<u64>, Option<u128>) {
    ladder_of(values, MAX_TILES)
}

/// [`ladder`], of at most `most` tiles.
fn ladder_of(values: impl IntoIterator<Item = u128>, most: usize) -> (Vec<u64>, Option<u128>) {
    let all: BTreeSet<u128> = values.into_iter().collect();
    let mut fitting = all.iter().copied().filter(|&v| v <= TOP);
    let tiles: Vec<u64> = fitting
        .by_ref()
        .take(most)
        .filter_map(|v| u64::try_from(v).ok())
        .collect();
    let next = fitting
        .next()
        .or_else(|| all.iter().copied().find(|&v| v > TOP));
    (tiles, next)
}

/// A note on a cut ladder: its length and the first value left off.
fn cut_note(tiles: &[u64], next: Option<u128>) -> Option<String> {
    next.map(|v| {
        format!(
            "{} tiles, cut after {}; {v} is the first value left off",
            tiles.len(),
            tiles.last().copied().unwrap_or(0)
        )
    })
}

/// The numbers from 1 whose prime factors are all in `primes`, up to [`TOP`].
fn smooth(primes: &[u128]) -> BTreeSet<u128> {
    products(primes, TOP)
}

/// The numbers from 1 that are products of `factors` (each any number of times), up to `top`.
fn products(factors: &[u128], top: u128) -> BTreeSet<u128> {
    let mut found = BTreeSet::from([1u128]);
    let mut todo = vec![1u128];
    while let Some(x) = todo.pop() {
        for &p in factors {
            let y = x * p;
            if y <= top && found.insert(y) {
                todo.push(y);
            }
        }
    }
    found
}

/// The first `count` primes: 2, 3, 5 ….
fn primes(count: usize) -> Vec<u128> {
    let mut found: Vec<u128> = Vec::new();
    let mut n = 2u128;
    while found.len() < count {
        if found.iter().all(|p| !n.is_multiple_of(*p)) {
            found.push(n);
        }
        n += 1;
    }
    found
}

/// The merges of a mode, as they are found: each rule whose tiles and sum are all on the ladder,
/// once (a later rule for the same tiles could never apply).
struct Merges<'a> {
    ladder: &'a [u64],
    rules: Vec<Vec<u64>>,
    seen: HashSet<Vec<u64>>,
}

impl<'a> Merges<'a> {
    fn new(ladder: &'a [u64]) -> Self {
        Merges {
            ladder,
            rules: Vec::new(),
            seen: HashSet::new(),
        }
    }

    fn on_ladder(&self, v: u128) -> Option<u64> {
        u64::try_from(v)
            .ok()
            .filter(|v| self.ladder.binary_search(v).is_ok())
    }

    /// The tiles `tiles` (2 to 5 of them, in any order) merge into their sum.
    fn add(&mut self, tiles: &[u128]) {
        assert!((2..=5).contains(&tiles.len()), "a merge takes 2 to 5 tiles");
        let sum: u128 = tiles.iter().sum();
        let Some(ins) = tiles
            .iter()
            .map(|&t| self.on_ladder(t))
            .collect::<Option<Vec<u64>>>()
        else {
            return;
        };
        if self.on_ladder(sum).is_none() {
            return;
        }
        let mut key = ins.clone();
        key.sort_unstable();
        if self.seen.insert(key) {
            self.rules.push(ins);
        }
    }
}

/// A title from an id: its words, each begun with a capital ("directional-merges" is
/// "Directional Merges", "1365-1366" is "1365 1366").
fn title(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ladder position (from 1) of a tile value; 0 (which the variant check refuses) for a value
/// off the ladder.
fn position(tiles: &[u64], v: u64) -> u64 {
    tiles.binary_search(&v).map_or(0, |i| i as u64 + 1)
}

/// The number (from 1) of `tile` in `tiles`, the ladder of a mode whose tiles are numbered
/// (1716, 3240, 3,188,646); `None` off it.
fn number_in<T: PartialEq>(tiles: &[T], tile: &T) -> Option<u64> {
    tiles.iter().position(|t| t == tile).map(|i| i as u64 + 1)
}

/// Checks that reaching the win's place on a numbered ladder is making the win (as the
/// Compendium reads a win): no merge makes a tile at or past it (but the win itself) from tiles
/// all before it.
fn assert_win_is_made(id: &str, merges: &[Vec<u64>], makes: &[Option<u64>], win: u64) {
    for (ins, made) in merges.iter().zip(makes) {
        if let Some(made) = *made {
            assert!(
                made <= win || ins.iter().any(|&t| t >= win),
                "{id}: {ins:?} make {made}, at or past the win {win}, without it"
            );
        }
    }
}

/// A JSON value on one line, with a space after each comma and colon, as the hand-written files
/// have it.
fn compact(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(compact).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), compact(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        other => other.to_string(),
    }
}

impl Mode {
    /// Merge `i` as the file writes it: exact positions, in any order unless all equal.
    fn rule(&self, i: usize) -> Value {
        let tiles = &self.merges[i];
        let positions: Vec<u64> = tiles.iter().map(|&t| position(&self.tiles, t)).collect();
        let makes = match self.makes.get(i) {
            Some(Some(made)) => json!(position(&self.tiles, *made)),
            Some(None) => Value::Null,
            None => json!(position(&self.tiles, tiles.iter().sum())),
        };
        let mut rule = json!({"tiles": positions, "makes": makes});
        if let Some(left) = self.leaves.get(i).filter(|l| !l.is_empty()) {
            let left: Vec<u64> = left.iter().map(|&t| position(&self.tiles, t)).collect();
            rule["leaves"] = json!(left);
        }
        let ordered = self.ordered.get(i).copied().unwrap_or(false);
        if !ordered && !tiles.iter().all(|&t| t == tiles[0]) {
            rule["any_order"] = json!(true);
        } else if self.runs {
            rule["run"] = json!(true);
        }
        if let Some(Some(moves)) = self.on_moves.get(i) {
            rule["on_moves"] = json!(moves);
        }
        if let Some((_, cells)) = self.spent.iter().find(|(k, _)| *k == tiles.len()) {
            rule["spent"] = json!(cells);
        }
        if let Some(dirs) = self.directions.get(i).filter(|d| !d.is_empty()) {
            rule["directions"] = json!(dirs);
        }
        rule
    }

    /// The format the file needs: 2 for any of its fields (a merge of more than three tiles,
    /// several wins, whole runs, rules for some moves or directions, spent cells, labels, a
    /// merge that makes nothing or leaves tiles).
    fn format(&self) -> u32 {
        if self.distinct.is_some() || self.merges.iter().any(|r| r.len() > 5) {
            3
        } else if self.win.len() > 1
            || self.runs
            || self.on_moves.iter().any(Option::is_some)
            || !self.spent.is_empty()
            || self.directions.iter().any(|d| !d.is_empty())
            || !self.labels.is_empty()
            || self.makes.iter().any(Option::is_none)
            || self.leaves.iter().any(|l| !l.is_empty())
            || self.merges.iter().any(|r| r.len() > 3)
        {
            2
        } else {
            1
        }
    }

    /// The variant file's text: its fields one a line, in the order of the hand-written files,
    /// and the merges one a line.
    fn text(&self) -> String {
        let weights: serde_json::Map<String, Value> = self
            .spawn
            .iter()
            .map(|&(v, w)| (v.to_string(), Value::from(w)))
            .collect();
        let fields = [
            ("format", json!(self.format())),
            ("id", json!(self.id)),
            (
                "title",
                json!(self.title.map_or_else(|| title(self.id), String::from)),
            ),
            (
                "description",
                json!(format!(
                    "{} Mode {} of the 2048 Power Compendium.",
                    self.description, self.number
                )),
            ),
            ("side", json!(self.side)),
            ("tiles", json!(self.tiles)),
            ("labels", json!(self.labels)),
            ("merges", Value::Null),
            ("motion", json!("slide")),
            ("spawn", json!({ "weights": weights })),
            ("spawn_at", json!("anywhere")),
            ("start", json!(2)),
            ("preview", json!(false)),
            (
                "win",
                match (&self.distinct, self.win.as_slice()) {
                    (Some((n, when)), _) => json!({"distinct": n, "when": when}),
                    (None, [one]) => json!(one),
                    (None, many) => json!(many),
                },
            ),
            (
                "score",
                if self.points.is_empty() {
                    json!("merges")
                } else {
                    json!({ "merges": self.points })
                },
            ),
        ];
        let lines: Vec<String> = fields
            .iter()
            .filter(|(name, _)| *name != "labels" || !self.labels.is_empty())
            .map(|(name, value)| {
                let value = if *name == "merges" {
                    let rules: Vec<String> = (0..self.merges.len())
                        .map(|i| format!("    {}", compact(&self.rule(i))))
                        .collect();
                    format!("[\n{}\n  ]", rules.join(",\n"))
                } else {
                    compact(value)
                };
                format!("  {}: {value}", Value::from(*name))
            })
            .collect();
        format!("{{\n{}\n}}\n", lines.join(",\n"))
    }
}

/// Mode 15, 5040: factorial bands. The tiles from n! up to (n+1)! are n!·m for the multipliers
/// m of the powers-of-(n+1) game, and merge as that game's 1, 2, 3 … do, the band's top merge
/// making (n+1)!. The ladder is the Compendium's 32 tiles, 1 to 12!.
///
/// Its merges of four tiles (four 8! make 4·8!, four 11! make 4·11! and four 3·11! make 12!)
/// make the file format 2.
fn mode_5040() -> Mode {
    let bands: [(u32, &[u128]); 12] = [
        (1, &[1]),
        (2, &[1, 2]),
        (3, &[1, 3]),
        (4, &[1, 2, 3, 4]),
        (5, &[1, 2, 3]),
        (6, &[1, 2, 3, 4]),
        (7, &[1, 2, 3, 5]),
        (8, &[1, 4]),
        (9, &[1, 2, 5]),
        (10, &[1, 2, 3, 6]),
        (11, &[1, 2, 3, 4, 6]),
        (12, &[1]),
    ];
    let f = |n: u32, m: u128| (1..=u128::from(n)).product::<u128>() * m;
    let (tiles, next) = ladder(
        bands
            .iter()
            .flat_map(|&(n, ms)| ms.iter().map(move |&m| f(n, m))),
    );
    let mut m = Merges::new(&tiles);
    // 1!, 2!: 1 + 1; 2 + 2, 2 + 4 (2048's).
    m.add(&[f(1, 1), f(1, 1)]);
    m.add(&[f(2, 1), f(2, 1)]);
    m.add(&[f(2, 1), f(2, 2)]);
    // 3!: three 6s, 6 + 18 (2187's).
    m.add(&[f(3, 1), f(3, 1), f(3, 1)]);
    m.add(&[f(3, 1), f(3, 3)]);
    // 4!: two multipliers adding up to 5 or less (3125's).
    for a in 1..=4 {
        for b in a..=4 {
            if a + b <= 5 {
                m.add(&[f(4, a), f(4, b)]);
            }
        }
    }
    // 5!: three 1s, three 2s, two 1s, two 3s (1296's), the triples first.
    m.add(&[f(5, 1), f(5, 1), f(5, 1)]);
    m.add(&[f(5, 2), f(5, 2), f(5, 2)]);
    m.add(&[f(5, 1), f(5, 1)]);
    m.add(&[f(5, 3), f(5, 3)]);
    // 6!: three 1s, two 1s, two 2s, 3 + 4 (2401's).
    m.add(&[f(6, 1), f(6, 1), f(6, 1)]);
    m.add(&[f(6, 1), f(6, 1)]);
    m.add(&[f(6, 2), f(6, 2)]);
    m.add(&[f(6, 3), f(6, 4)]);
    // 7!: 1 + 1, 1 + 2, 2 + 3, 3 + 5 (Fibonacci).
    m.add(&[f(7, 1), f(7, 1)]);
    m.add(&[f(7, 1), f(7, 2)]);
    m.add(&[f(7, 2), f(7, 3)]);
    m.add(&[f(7, 3), f(7, 5)]);
    // 8!: four 1s, 1 + 4 + 4.
    m.add(&[f(8, 1), f(8, 1), f(8, 1), f(8, 1)]);
    m.add(&[f(8, 1), f(8, 4), f(8, 4)]);
    // 9!: 1 + 1, 1 + 2 + 2, 5 + 5.
    m.add(&[f(9, 1), f(9, 1)]);
    m.add(&[f(9, 1), f(9, 2), f(9, 2)]);
    m.add(&[f(9, 5), f(9, 5)]);
    // 10!: 1 + 2 + 3, 2 + 3 + 6, 1 + 1, 1 + 2.
    m.add(&[f(10, 1), f(10, 2), f(10, 3)]);
    m.add(&[f(10, 2), f(10, 3), f(10, 6)]);
    m.add(&[f(10, 1), f(10, 1)]);
    m.add(&[f(10, 1), f(10, 2)]);
    // 11!: four 1s, four 3s, three 1s, three 2s, three 4s, two 1s, two 2s, two 3s, two 6s.
    for k in [1, 3] {
        m.add(&[f(11, k), f(11, k), f(11, k), f(11, k)]);
    }
    for k in [1, 2, 4] {
        m.add(&[f(11, k), f(11, k), f(11, k)]);
    }
    for k in [1, 2, 3, 6] {
        m.add(&[f(11, k), f(11, k)]);
    }
    let merges = m.rules;
    Mode {
        id: "5040",
        number: 15,
        description: "Factorial bands: the tiles from n! up to (n+1)! merge as the powers-of-(n+1) game's tiles do, with n! in the place of 1. Make 5040 (7!) to win.",
        side: 5,
        spawn: &[(1, 100)],
        win: vec![5040],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 23, 2059: the tiles 2^n, 3^n − 2^n and 3·(3^n − 2^n) for n ≥ 1. Two equal 2^n make
/// 2^(n+1); three equal 3^n − 2^n make their triple; 3·(3^n − 2^n) and 2^n make 3^(n+1) −
/// 2^(n+1); two 1s make 2, unless a third 1 is there to make 3 (so the triples come first).
fn mode_2059() -> Mode {
    let two = |n: u32| 2u128.pow(n);
    let diff = |n: u32| 3u128.pow(n) - 2u128.pow(n);
    let ns = 1..=60u32;
    let (tiles, next) = ladder(ns.clone().flat_map(|n| {
        let mut v = vec![two(n)];
        if n <= 40 {
            v.extend([diff(n), 3 * diff(n)]);
        }
        v
    }));
    let mut m = Merges::new(&tiles);
    for n in 1..=40 {
        m.add(&[diff(n), diff(n), diff(n)]);
    }
    for n in ns.clone() {
        m.add(&[two(n), two(n)]);
    }
    for n in 1..=40 {
        m.add(&[3 * diff(n), two(n)]);
    }
    m.add(&[1, 1]);
    let merges = m.rules;
    Mode {
        id: "2059",
        number: 23,
        description: "Tiles are 2^n, 3^n − 2^n and three times 3^n − 2^n. Two equal powers of two merge, three equal 3^n − 2^n merge, and three times 3^n − 2^n merges with 2^n. Make 2059 to win.",
        side: 5,
        spawn: &[(1, 90), (2, 6), (3, 4)],
        win: vec![2059],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 48, 2310: primorial tiers. With p_1 = 2, p_2 = 3 … and P_k = p_1·…·p_k (P_0 = 1), tier
/// k holds P_k·p_j for j = 0 to k (p_0 = 1); its top, P_k·p_k, is followed by P_(k+1). A tier's
/// tiles merge into its next tile P_k·p_(j+1): P_k·p_j with P_k (j = 0, 1), with 2·P_k (p_j and
/// p_(j+1) twin primes), or with two tiles P_k·p_a, P_k·p_b, 1 ≤ a, b < j, p_a + p_b =
/// p_(j+1) − p_j.
///
/// (The Compendium's merge of three leaves one emptied cell unable to start a merge for the rest
/// of the move, as in mode 55, 2000; on a 4×4 board no tile can use it, so the games agree.)
fn mode_2310() -> Mode {
    let p: Vec<u128> = std::iter::once(1).chain(primes(20)).collect();
    let big_p = |k: usize| p[1..=k].iter().product::<u128>();
    let tiers = 0..16usize;
    let (tiles, next) = ladder(
        tiers
            .clone()
            .flat_map(|k| (0..=k).map(move |j| (k, j)))
            .map(|(k, j)| big_p(k) * p[j]),
    );
    let mut m = Merges::new(&tiles);
    for k in tiers.clone() {
        m.add(&[big_p(k), big_p(k)]);
        if k >= 1 {
            m.add(&[2 * big_p(k), big_p(k)]);
        }
    }
    for k in tiers.clone() {
        for j in 2..=k {
            if p[j] + 2 == p[j + 1] {
                m.add(&[big_p(k) * p[j], 2 * big_p(k)]);
            }
        }
    }
    for k in tiers {
        for j in 2..=k {
            for a in 1..j {
                for b in a..j {
                    if p[a] + p[b] == p[j + 1] - p[j] {
                        m.add(&[big_p(k) * p[j], big_p(k) * p[a], big_p(k) * p[b]]);
                    }
                }
            }
        }
    }
    let merges = m.rules;
    Mode {
        id: "2310",
        number: 48,
        description: "Tiles are a primorial (1, 2, 6, 30, 210 …) times 1 or a prime up to its largest factor. Two or three tiles of one primorial merge when they add up to the next tile of its row. Make 2310 = 2·3·5·7·11 to win.",
        side: 4,
        spawn: &[(1, 85), (2, 12), (4, 3)],
        win: vec![2310],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 87, 3120: products of the first Fibonacci numbers. With F = 2, 3, 5, 8 … (F_0 = 2) and
/// Q_k = F_1·…·F_(k−1), tier k ≥ 1 holds Q_k·F_j for j = 0 to k, tier 0 the tile 1. Two equal
/// tops Q_k·F_k make Q_(k+1)·2 (two 1s make 2); a tier's first tile Q_k·2 and the tier below's top
/// make Q_k·3; Q_k·F_j and Q_k·F_(j−1) make Q_k·F_(j+1), for j < k.
fn mode_3120() -> Mode {
    let mut fib: Vec<u128> = vec![2, 3];
    while fib.len() < 40 {
        let n = fib[fib.len() - 1] + fib[fib.len() - 2];
        fib.push(n);
    }
    let q = |k: usize| fib[1..k.max(1)].iter().product::<u128>();
    let tile = |k: usize, j: usize| if k == 0 { 1 } else { q(k) * fib[j] };
    let tiers = 0..14usize;
    let (tiles, next) = ladder(tiers.clone().flat_map(|k| (0..=k).map(move |j| tile(k, j))));
    let mut m = Merges::new(&tiles);
    for k in tiers.clone() {
        m.add(&[tile(k, k), tile(k, k)]);
    }
    for k in 1..tiers.end {
        m.add(&[tile(k, 0), tile(k - 1, k - 1)]);
    }
    for k in tiers {
        for j in 1..k {
            m.add(&[tile(k, j), tile(k, j - 1)]);
        }
    }
    let merges = m.rules;
    Mode {
        id: "3120",
        number: 87,
        description: "Tiles are products of the first Fibonacci numbers 2, 3, 5, 8 … (1, 2, 6, 30, 240 …) and the steps between them. A tile merges with the one just below it into the next, and two equal tiles at the top of a step make the next product. Make 3120 = 2·3·5·8·13 to win.",
        side: 4,
        spawn: &[(1, 85), (2, 10), (3, 5)],
        win: vec![3120],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 54, 3888: the 3-smooth numbers 2^a·3^b. Two 1s make 2; x and 2x make 3x; x and 3x make
/// 4x.
fn mode_3888() -> Mode {
    let (tiles, next) = ladder(smooth(&[2, 3]));
    let mut m = Merges::new(&tiles);
    m.add(&[1, 1]);
    for &x in &tiles {
        m.add(&[u128::from(x), 2 * u128::from(x)]);
    }
    for &x in &tiles {
        m.add(&[u128::from(x), 3 * u128::from(x)]);
    }
    let merges = m.rules;
    Mode {
        id: "3888",
        number: 54,
        description: "Tiles are 2^a·3^b. Two 1s merge, and a tile merges with its double or its triple. Make 3888 to win.",
        side: 4,
        spawn: &[(1, 100)],
        win: vec![3888],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 56, 3645: the numbers 3^a·5^b. Three 1s make 3; x, x and 3x make 5x; x, 3x and 5x make
/// 9x; x, 5x and 9x make 15x (the Compendium's default "n+5n+9n" option).
///
/// The boards are the Compendium's, not quite the score: it scores x + 5x + 9x as 2^a·5^b·15
/// instead of the 15x it makes (x = 3^a·5^b), so with a ≥ 1 such a merge scores more here. (Its
/// merges of three leave a cell spent, as 2000's do; but after a merge of three, two tiles are
/// left in a line of five at most, and it has no merges of two, so nothing tells, and the file
/// leaves them out.)
fn mode_3645() -> Mode {
    let (tiles, next) = ladder(smooth(&[3, 5]));
    let mut m = Merges::new(&tiles);
    m.add(&[1, 1, 1]);
    for &x in &tiles {
        let x = u128::from(x);
        m.add(&[x, x, 3 * x]);
    }
    for &x in &tiles {
        let x = u128::from(x);
        m.add(&[x, 3 * x, 5 * x]);
    }
    for &x in &tiles {
        let x = u128::from(x);
        m.add(&[x, 5 * x, 9 * x]);
    }
    let merges = m.rules;
    Mode {
        id: "3645",
        number: 56,
        description: "Tiles are 3^a·5^b. Three 1s merge; two equal tiles merge with their triple; a tile merges with its triple and its quintuple, or with its quintuple and nine times itself. Make 3645 to win.",
        side: 5,
        spawn: &[(1, 100)],
        win: vec![3645],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 55, 2000 (its defaults: no random goals, no merge of x, 5x and 10x): the numbers
/// 2^a·5^b. Two 1s make 2 and two 2s make 4; a tile and its quadruple make five times it; x, 2x
/// and 5x make 8x.
///
/// The Compendium's merge of three marks two of its three cells (its rule's list of whether
/// each cell may merge again has two entries), so the third, emptied, stays spent for the rest
/// of the move: a tile that stops there starts no merge. The file says so with `spent`, and the
/// fixture's moves agree only with it.
fn mode_2000() -> Mode {
    let (tiles, next) = ladder(smooth(&[2, 5]));
    let mut m = Merges::new(&tiles);
    for &x in &tiles {
        let x = u128::from(x);
        m.add(&[x, 2 * x, 5 * x]);
    }
    m.add(&[1, 1]);
    m.add(&[2, 2]);
    for &x in &tiles {
        let x = u128::from(x);
        m.add(&[x, 4 * x]);
    }
    let merges = m.rules;
    Mode {
        id: "2000",
        number: 55,
        description: "Tiles are 2^a·5^b. Two 1s merge, and so do two 2s; a tile merges with its quadruple, or with its double and its quintuple together. As in the Compendium, after a merge of three, a tile that stops where the third of them was starts no merge that move. Make 2000 to win.",
        side: 5,
        spawn: &[(1, 100)],
        win: vec![2000],
        cut: cut_note(&tiles, next),
        spent: &[(3, &[2])],
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 68, 2205 (its default level 1): the numbers 3^a·5^b·7^c. Three 1s make 3; x, x and 3x
/// make 5x; x, x and 5x make 7x; x, x and 7x make 9x.
fn mode_2205() -> Mode {
    let (tiles, next) = ladder(smooth(&[3, 5, 7]));
    let mut m = Merges::new(&tiles);
    m.add(&[1, 1, 1]);
    for k in [3, 5, 7] {
        for &x in &tiles {
            let x = u128::from(x);
            m.add(&[x, x, k * x]);
        }
    }
    let merges = m.rules;
    Mode {
        id: "2205",
        number: 68,
        description: "Tiles are 3^a·5^b·7^c. Three 1s merge, and two equal tiles merge with a tile three, five or seven times as big. Make 2205 to win.",
        side: 5,
        spawn: &[(1, 100)],
        win: vec![2205],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 89, 2496: a tile is a pair (a, b) with a ≤ b, worth a·b, and two tiles of the same b
/// merge into (a + a', b), written smaller first: 1×2 and 1×2 make 2×2, 3×8 and 7×8 make 8×10.
/// The pairs reached from the spawns, 1×1 and 1×2, are worth different numbers, so a tile is
/// its worth, and a merge makes the sum of its tiles; each shows its pair under it, as the
/// Compendium's do: its label is "24(4×6)". The ladder is the smallest, up to the last whose
/// label fits the format's limit; the win, 2496, is 39×64.
fn mode_2496() -> Mode {
    // Far above the 255 smallest worths.
    const CAP: u64 = 1 << 16;
    // The pairs reached, as (b, a): those of one b together.
    let mut pairs = BTreeSet::from([(1u64, 1u64), (2, 1)]);
    loop {
        let mut new = Vec::new();
        for &(b, a) in &pairs {
            for &(_, c) in pairs.range((b, a)..(b + 1, 0)) {
                let made = ((a + c).max(b), (a + c).min(b));
                if made.0 * made.1 <= CAP && !pairs.contains(&made) {
                    new.push(made);
                }
            }
        }
        if new.is_empty() {
            break;
        }
        pairs.extend(new);
    }
    let worth = |&(b, a): &(u64, u64)| a * b;
    let label = |&(b, a): &(u64, u64)| format!("{}({a}×{b})", a * b);
    let values: BTreeSet<u128> = pairs.iter().map(|p| u128::from(worth(p))).collect();
    assert_eq!(values.len(), pairs.len(), "2496: two pairs of one worth");
    // The ladder ends before the first tile whose label would pass the format's limit.
    let by_worth: BTreeSet<(u64, String)> = pairs.iter().map(|p| (worth(p), label(p))).collect();
    let fitting = by_worth
        .iter()
        .take_while(|(_, l)| l.chars().count() <= tilebox_sliding::variant::MAX_LABEL)
        .map(|&(w, _)| u128::from(w));
    let (tiles, _) = ladder_of(fitting, MOST_TILES);
    let next = by_worth
        .iter()
        .nth(tiles.len())
        .map(|&(w, _)| u128::from(w));
    let labels = by_worth
        .iter()
        .take(tiles.len())
        .map(|(_, l)| l.clone())
        .collect();
    let mut m = Merges::new(&tiles);
    for p in &pairs {
        for q in pairs.range(*p..(p.0 + 1, 0)) {
            m.add(&[u128::from(worth(p)), u128::from(worth(q))]);
        }
    }
    // Two tiles match one rule, so the order is free: equal tiles first, then the others, each
    // by the tile made, as How to play tells them.
    let mut merges = m.rules;
    merges.sort_by_key(|t| (t[0] != t[1], t.iter().sum::<u64>(), t[0]));
    Mode {
        id: "2496",
        number: 89,
        description: "Each tile is a product of two numbers, shown under its worth: 1 is 1×1, 2 is 1×2, 6 is 2×3. Two tiles with the same larger number merge, adding their smaller numbers (1×2 and 1×2 make 2×2, 3×8 and 7×8 make 8×10), into the sum of their worths. Make 2496 (39×64) to win.",
        spawn: &[(1, 90), (2, 10)],
        win: vec![2496],
        cut: cut_note(&tiles, next),
        tiles,
        labels,
        merges,
        ..Mode::default()
    }
}

/// Mode 72, 3026: products G_i·G_j of two Fibonacci numbers, G = 1, 2, 3, 5, 8 … (G_0 = 1), i ≤ j
/// (the Compendium can make no other order of the two: a tile [i, j] with i > j never appears).
/// Two tiles sharing a factor merge when their other factors are both 1 (1 + 1, G_j + G_j) or
/// neighbours (G_i·G_j and G_i·G_(j−1) make G_i·G_(j+1), either factor).
///
/// All the products up to 3026 = 34·89 are 78, more than a ladder holds, so the ladder is cut by
/// factor: the products of factors up to 144 (66 of them), the 63 smallest. The win is on it.
fn mode_3026() -> Mode {
    let mut g: Vec<u128> = vec![1, 2];
    while g.len() < 30 {
        let n = g[g.len() - 1] + g[g.len() - 2];
        g.push(n);
    }
    let most = 10;
    assert_eq!(g[most], 144, "G_10 is 144");
    let keys: Vec<(usize, usize)> = (0..=most)
        .flat_map(|j| (0..=j).map(move |i| (i, j)))
        .collect();
    let all = keys.len();
    let value = |(i, j): (usize, usize)| g[i] * g[j];
    let (tiles, next) = ladder(keys.iter().map(|&k| value(k)));
    assert_eq!(
        tiles.len(),
        all.min(MAX_TILES),
        "products of Fibonacci numbers are distinct"
    );
    let is_key = |i: usize, j: usize| i <= j && j <= most;
    let mut m = Merges::new(&tiles);
    // 1 + 1; G_j + G_j (the Compendium's [0, j] twice makes [1, j]).
    m.add(&[1, 1]);
    for &x in &g[1..=most] {
        m.add(&[x, x]);
    }
    // [k, k] and [k−1, k] make [k, k+1].
    for k in 1..most {
        m.add(&[value((k, k)), value((k - 1, k))]);
    }
    // [i, j] and [i, j−1] make [i, j+1].
    for &(i, j) in &keys {
        if j >= 1 && is_key(i, j - 1) && is_key(i, j + 1) {
            m.add(&[value((i, j)), value((i, j - 1))]);
        }
    }
    // [i, j] and [i−1, j] make [i+1, j].
    for &(i, j) in &keys {
        if i >= 1 && is_key(i + 1, j) {
            m.add(&[value((i, j)), value((i - 1, j))]);
        }
    }
    let merges = m.rules;
    let cut = next.map(|v| {
        format!(
            "the products of Fibonacci factors up to 144 ({all}), the smallest {}, cut after {}; \
             {v} is the first left off",
            tiles.len(),
            tiles.last().copied().unwrap_or(0)
        )
    });
    Mode {
        id: "3026",
        number: 72,
        description: "Tiles are products of two Fibonacci numbers. Two tiles with a factor in common merge when their other factors are both 1 or are neighbours in the sequence. Make 3026 = 34 × 89 to win.",
        side: 4,
        spawn: &[(1, 90), (2, 10)],
        win: vec![3026],
        cut,
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 51, 1365 1366: the odd tiles a_k = (2^(k+2) − (−1)^k) / 3 (1, 3, 5, 11, 21, 43 …, each
/// twice the last, one more or one less) and their doubles. Two equal odd tiles make their double;
/// 1 and 2 make 3; an even tile 2·a_k and the odd tile a_(k+1) next above it make a_(k+2) (their
/// sum: 6 + 5 = 11). The ladder has no repeating pattern, since a_(k+1) lies above 2·a_k for
/// even k and below it for odd k.
fn mode_1365() -> Mode {
    let odd = |k: u32| {
        let p = 2u128.pow(k + 2);
        if k.is_multiple_of(2) {
            (p - 1) / 3
        } else {
            (p + 1) / 3
        }
    };
    let ks = 0..=62u32;
    let (tiles, next) = ladder(ks.clone().flat_map(|k| [odd(k), 2 * odd(k)]));
    let mut m = Merges::new(&tiles);
    for k in ks.clone() {
        m.add(&[odd(k), odd(k)]);
    }
    m.add(&[1, 2]);
    for k in ks {
        m.add(&[2 * odd(k), odd(k + 1)]);
    }
    let merges = m.rules;
    Mode {
        id: "1365-1366",
        number: 51,
        description: "The odd tiles 1, 3, 5, 11, 21, 43 … each lie one away from twice the last. Two equal odd tiles make their double; an even tile and the odd tile one away from it make their sum (1 + 2 = 3, 6 + 5 = 11). Make 1365 or 1366 to win.",
        side: 4,
        spawn: &[(1, 85), (2, 10), (3, 5)],
        win: vec![1365, 1366],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 38, 180: the 5-smooth numbers 2^a·3^b·5^c. Exactly two, three or five equal tiles merge
/// into their sum (so a run of four or six merges not at all), the five first. The ladder is the
/// 63 smallest: it ends at 432, 2.4 times the win.
fn mode_180() -> Mode {
    let (tiles, next) = ladder(smooth(&[2, 3, 5]));
    let mut m = Merges::new(&tiles);
    for count in [5usize, 3, 2] {
        for &t in &tiles {
            m.add(&vec![u128::from(t); count]);
        }
    }
    let merges = m.rules;
    Mode {
        id: "180",
        number: 38,
        description: "Tiles are the numbers whose only prime factors are 2, 3 and 5. Exactly two, three or five equal tiles in a row merge into their sum; a run of four or six equal tiles merges not at all. Make 180 to win.",
        side: 7,
        spawn: &[(1, 100)],
        win: vec![180],
        cut: cut_note(&tiles, next),
        runs: true,
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 39, 2592: the 3-smooth numbers 2^a·3^b, whose rules switch on each move: two equal
/// tiles merge into their sum on moves 0, 2, 4 … (the first, the third …), three equal tiles on
/// moves 1, 3, 5 ….
fn mode_2592() -> Mode {
    let (tiles, next) = ladder(smooth(&[2, 3]));
    let mut m = Merges::new(&tiles);
    for count in [3usize, 2] {
        for &t in &tiles {
            m.add(&vec![u128::from(t); count]);
        }
    }
    let merges = m.rules;
    Mode {
        id: "2592",
        number: 39,
        description: "Tiles are the numbers whose only prime factors are 2 and 3, and the rules switch on each move: on the first move and every other one after it, two equal tiles merge into their sum; on the others, three equal tiles do. Make 2592 to win.",
        side: 6,
        spawn: &[(1, 90), (2, 5), (3, 5)],
        win: vec![2592],
        cut: cut_note(&tiles, next),
        on_moves: merges
            .iter()
            .map(|tiles| Some(if tiles.len() == 2 { [2, 0] } else { [2, 1] }))
            .collect(),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 60, 2295: the numbers that are products of numbers 2^j + 1 (2, 3, 5, 9, 17 …), with
/// rules that change on every move. On move k (counted from 0) a tile merges with 2^j times
/// itself, into their sum, where 2^j is the largest power of two dividing k + 1: two equal
/// tiles on moves 0, 2, 4 …, a tile and its double on moves 1, 5, 9 …, and its quadruple on
/// moves 3, 11, 19 …: the rule of 2^j holds on the moves k with k mod 2^(j+1) = 2^j − 1. The
/// ladder's 255 tiles end at 2,570, so no merge of 2^12 times a tile is ever on it, and the
/// rules come round every 4,096 moves as the Compendium's, which never do, play within it.
/// Its win, 2295 = 3^3·5·17, is the 240th tile.
fn mode_2295() -> Mode {
    // The 255 smallest lie far below 2^16.
    let factors: Vec<u128> = (0..16).map(|j| (1u128 << j) + 1).collect();
    let (tiles, next) = ladder_of(products(&factors, 1 << 16), MOST_TILES);
    assert_eq!(tiles.len(), MOST_TILES);
    let mut merges: Vec<Vec<u64>> = Vec::new();
    let mut on_moves = Vec::new();
    for j in 0..12u32 {
        let mut m = Merges::new(&tiles);
        for &x in &tiles {
            let x = u128::from(x);
            m.add(&[x, x << j]);
        }
        on_moves.extend(std::iter::repeat_n(
            Some([2 << j, (1 << j) - 1]),
            m.rules.len(),
        ));
        merges.extend(m.rules);
    }
    // No tile and 2^12 times it both lie on the ladder: the rules end at j = 11.
    assert!(tiles.iter().all(|&x| position(&tiles, x << 12) == 0));
    Mode {
        id: "2295",
        number: 60,
        description: "The rules change on every move. On the first move and every other one after it, two equal tiles merge; on the second and every fourth one after it, a tile and its double; on the fourth and every eighth one after it, a tile and four times it; and so on, each power of two in its turn. Each merge makes the sum. Make 2295 to win.",
        spawn: &[(1, 100)],
        win: vec![2295],
        cut: cut_note(&tiles, next),
        on_moves,
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 45, Directional Merges (its default, Medium): the 5-smooth numbers, with a rule for
/// each direction: moving right, two equal tiles merge; down, a tile and its double; left, a
/// tile and its triple; up, a tile and one and a half times it (2x and 3x). Each makes the sum.
/// Its win, 2160, is the 111th of these numbers, so the ladder takes the format's 255, up to
/// 41,472 (19 times the win).
fn mode_directional_merges() -> Mode {
    let (tiles, next) = ladder_of(smooth(&[2, 3, 5]), MOST_TILES);
    let mut merges = Vec::new();
    let mut directions: Vec<&'static [&'static str]> = Vec::new();
    for (dir, [a, b]) in [
        ("right", [1, 1]),
        ("down", [1, 2]),
        ("left", [1, 3]),
        ("up", [2, 3]),
    ] {
        let mut m = Merges::new(&tiles);
        for &x in &tiles {
            let x = u128::from(x);
            if x % a == 0 {
                m.add(&[x, x / a * b]);
            }
        }
        directions.extend(std::iter::repeat_n(
            match dir {
                "right" => &["right"][..],
                "down" => &["down"][..],
                "left" => &["left"][..],
                _ => &["up"][..],
            },
            m.rules.len(),
        ));
        merges.extend(m.rules);
    }
    Mode {
        id: "directional-merges",
        number: 45,
        description: "Tiles are the numbers whose only prime factors are 2, 3 and 5, and each direction has its own merge: moving right, two equal tiles merge; moving down, a tile and its double; moving left, a tile and its triple; moving up, a tile and one and a half times it. Make 2160 to win.",
        side: 6,
        spawn: &[(1, 100)],
        win: vec![2160],
        cut: cut_note(&tiles, next),
        directions,
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 57, 2700 (its default, Level 1): the 5-smooth numbers 2^a·3^b·5^c. Two 1s make a 2, and
/// a tile merges with its double, with its triple, a 2x with a 3x and a 3x with a 5x, each into
/// their sum. Its win, 2700, is the 120th of these numbers, so the ladder takes the format's
/// 255, as Directional Merges does.
fn mode_2700() -> Mode {
    let (tiles, next) = ladder_of(smooth(&[2, 3, 5]), MOST_TILES);
    let mut m = Merges::new(&tiles);
    m.add(&[1, 1]);
    for [a, b] in [[1, 2], [1, 3], [2, 3], [3, 5]] {
        for &x in &tiles {
            let x = u128::from(x);
            if x % a == 0 {
                m.add(&[x, x / a * b]);
            }
        }
    }
    // No two rules take the same two tiles, so their order is free: by the tile each makes,
    // which is how How to play shows them (1 + 2 = 3, 1 + 3 = 4, 2 + 3 = 5, …).
    let mut merges = m.rules;
    merges.sort_by_key(|tiles| (tiles.iter().sum::<u64>(), tiles.clone()));
    Mode {
        id: "2700",
        number: 57,
        description: "Tiles are the numbers whose only prime factors are 2, 3 and 5. Two 1s make a 2; after that a tile merges with its double or its triple, and two tiles merge when they are 2 and 3, or 3 and 5, times the same number. Each merge makes the sum. Make 2700 to win.",
        spawn: &[(1, 100)],
        win: vec![2700],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 36, Partial Absorb 270 (its default, two merges between splits): the tiles are
/// 3^a·5^b·2^c with c at most 2. Two equal tiles with c below 2 make their double; two equal
/// tiles 4y (c = 2) make 5y and leave 3y beside it. Each merge scores the sum of its two
/// tiles: the double scores itself and 5y (which no other merge makes, being odd) scores 8y.
fn mode_partial_absorb_270() -> Mode {
    let values = smooth(&[3, 5])
        .into_iter()
        .flat_map(|y| [y, 2 * y, 4 * y])
        .filter(|&v| v <= TOP);
    let (tiles, next) = ladder_of(values, MOST_TILES);
    let mut merges = Vec::new();
    let mut makes = Vec::new();
    let mut leaves = Vec::new();
    // Two equal tiles match one rule, so the order is free: the doubles, then the splits, as
    // How to play tells them.
    let mut by_kind = tiles.clone();
    by_kind.sort_by_key(|&t| (t % 4 == 0, t));
    for &t in &by_kind {
        let (made, left) = if t % 4 == 0 {
            (t / 4 * 5, vec![t / 4 * 3])
        } else {
            (2 * t, Vec::new())
        };
        if position(&tiles, made) != 0 && left.iter().all(|&l| position(&tiles, l) != 0) {
            merges.push(vec![t, t]);
            makes.push(Some(made));
            leaves.push(left);
        }
    }
    let points = tiles
        .iter()
        .map(|&t| {
            if t % 2 == 0 {
                t
            } else if t % 5 == 0 {
                t / 5 * 8
            } else {
                0
            }
        })
        .collect();
    Mode {
        id: "partial-absorb-270",
        number: 36,
        description: "Tiles are a power of 3 times a power of 5, times 1, 2 or 4. Two equal tiles make their double, but two equal tiles of four times such a number split: 20 + 20 make 25 and leave 15 beside it. Each merge scores the sum of its two tiles (20 + 20 scores 40). Make 270 to win.",
        side: 6,
        spawn: &[(1, 100)],
        win: vec![270],
        cut: cut_note(&tiles, next),
        tiles,
        merges,
        makes,
        leaves,
        points,
        ..Mode::default()
    }
}

/// Mode 71, 3,188,646 (its default: the × tile stands between the tiles it multiplies): the
/// tiles are 2·3^k, 4·3^k and a × tile, which spawns as often as a 2. A tile 2·3^a, a × and a
/// tile 2·3^b, in that order along the line, multiply into 4·3^(a+b), scoring nothing; 2·3^k
/// and 4·3^k merge in either order into 2·3^(k+1), which scores its value. Two × tiles merge
/// into one, which may merge again in the same move: a run of them becomes one × (rules of
/// five, four, three and two × tiles, the longest first), and a run between two tiles of
/// 2·3^k multiplies them (rules of three to five tiles).
///
/// The tiles are numbered, and labelled: the × first, "×", then the others by worth, showing
/// it, but for the win's line, 2·3^13 and the 2·3^k above it, which come last (as 1716's win
/// does), so that reaching the win's place is making it. The ladder stops at 2·3^24 and
/// 4·3^23, twelve digits, far past the win, 2·3^13.
fn mode_3188646() -> Mode {
    const TOP_POWER: u32 = 24;
    const TIMES: u64 = 0;
    let twice = |k: u32| 2 * 3u64.pow(k);
    let four = |k: u32| 4 * 3u64.pow(k);
    // The tiles by worth (× as 0), but the win's line, 2·3^k from k = 13, last: none of them
    // is made but from the one before it, so the board's highest tile reaches the win exactly
    // when a 2·3^13 is made (a product past it, 4·3^13 and up, comes first).
    let late = |w: u64| w >= twice(13) && (w / 2) % 2 == 1;
    let mut worths: Vec<u64> = std::iter::once(TIMES)
        .chain((0..=TOP_POWER).map(twice))
        .chain((0..TOP_POWER).map(four))
        .collect();
    worths.sort_unstable_by_key(|&w| (late(w), w));
    let number = |w: u64| number_in(&worths, &w).unwrap_or(0);
    let labels = worths
        .iter()
        .map(|&w| {
            if w == TIMES {
                "×".to_string()
            } else {
                w.to_string()
            }
        })
        .collect();
    // Only a 2·3^k made from its half and its double scores.
    let points = worths
        .iter()
        .map(|&w| if w != TIMES && (w / 2) % 2 == 1 { w } else { 0 })
        .collect();
    let mut merges: Vec<Vec<u64>> = Vec::new();
    let mut makes = Vec::new();
    for k in 0..TOP_POWER {
        merges.push(vec![number(twice(k)), number(four(k))]);
        makes.push(Some(number(twice(k + 1))));
    }
    let pairs = merges.len();
    // The × tiles between two others merge first, into one that multiplies them: on a side
    // of 5, one to three of them.
    for times in 1..=3 {
        for a in 0..TOP_POWER {
            for b in 0..TOP_POWER - a {
                let mut tiles = vec![number(twice(a))];
                tiles.extend(std::iter::repeat_n(number(TIMES), times));
                tiles.push(number(twice(b)));
                merges.push(tiles);
                makes.push(Some(number(four(a + b))));
            }
        }
    }
    for count in (2..=5).rev() {
        merges.push(vec![number(TIMES); count]);
        makes.push(Some(number(TIMES)));
    }
    // Every tile at or after the win is made only from the one before it on its line.
    let win = number(twice(13));
    assert_win_is_made("3,188,646", &merges, &makes, win);
    // The spawns, × and 2, are the first two tiles.
    assert_eq!([number(TIMES), number(2)], [1, 2]);
    Mode {
        id: "3-188-646",
        title: Some("3,188,646"),
        number: 71,
        description: "Besides tiles of twice and four times a power of three there are × tiles. Two tiles of twice a power of three with a × between them multiply into four times a power of three (6 × 18 = 4·27 = 108); a tile of four times a power of three merges with its half into the next tile of twice a power of three (18 + 36 = 54), the only merge that scores. Two × tiles merge into one. Make 3,188,646 (2·3^13) to win.",
        side: 5,
        spawn: &[(1, 50), (2, 50)],
        win: vec![win],
        tiles: (1..=worths.len() as u64).collect(),
        labels,
        points,
        merges,
        ordered: (0..makes.len()).map(|i| i >= pairs).collect(),
        makes,
        ..Mode::default()
    }
}

/// Mode 79, 3240 (its default: 4·9 and 6·6 are two tiles): a tile is a product of 4, 6, 9, 10,
/// 14 and 15, each any number of times, and is those factors, not only their worth: 36 is 4·9
/// or 6², two tiles. Besides them, 2, half a 4, which merges only with another 2. The merges,
/// in any order, each into the sum: 4n, n and n make 6n, and 4n, 4n and n make 9n; then
/// 6n + 4n make 10n, 10n + 4n make 14n, 14n + n and 9n + 6n make 15n, and 15n + n make 16n
/// (4²n); then 1 + 1 make 2 and 2 + 2 make 4. (The Compendium's 1 + 1 does not merge when the
/// tile behind is a 4: the triples' coming first does the same.)
///
/// The tiles are numbered by worth, those of one worth in the order of their factors, and
/// labelled by worth, with the factors of a product of two or more under it, as the Compendium
/// shows them: "36(4·9)", "36(6²)". The ladder is the smallest, up to the last whose label fits
/// the format's limit; the win is any of the four tiles worth 3240.
fn mode_3240() -> Mode {
    const BASES: [u64; 6] = [4, 6, 9, 10, 14, 15];
    const SUPERSCRIPTS: [&str; 10] = ["", "", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"];
    // Far above the ladder's top; no factor comes more than nine times below it.
    const CAP: u64 = 1_000_000;
    type Factors = [u32; 6];
    let worth = |f: &Factors| -> u64 { BASES.iter().zip(f).map(|(b, &e)| b.pow(e)).product() };
    let with = |f: &Factors, i: usize, k: u32| {
        let mut g = *f;
        g[i] += k;
        g
    };
    let mut all: Vec<Factors> = vec![[0; 6]];
    for i in 0..BASES.len() {
        let mut more = Vec::new();
        for f in &all {
            let mut g = with(f, i, 1);
            while worth(&g) <= CAP {
                more.push(g);
                g = with(&g, i, 1);
            }
        }
        all.extend(more);
    }
    // A tile: its factors, or `None` for the 2.
    let label = |t: &Option<Factors>| match t {
        None => "2".to_string(),
        Some(f) if f.iter().sum::<u32>() <= 1 => worth(f).to_string(),
        Some(f) => {
            let parts: Vec<String> = BASES
                .iter()
                .zip(f)
                .filter(|&(_, &e)| e > 0)
                .map(|(b, &e)| format!("{b}{}", SUPERSCRIPTS[e as usize]))
                .collect();
            format!("{}({})", worth(f), parts.join("·"))
        }
    };
    let worth_of = |t: &Option<Factors>| t.as_ref().map_or(2, worth);
    let mut tiles: Vec<Option<Factors>> = std::iter::once(None)
        .chain(all.iter().map(|&f| Some(f)))
        .collect();
    tiles.sort_by_key(|t| (worth_of(t), *t));
    let mut fits = tiles
        .iter()
        .take_while(|t| label(t).chars().count() <= tilebox_sliding::variant::MAX_LABEL)
        .count()
        .min(MOST_TILES);
    // Tiles of one worth are all on the ladder or all off it.
    while fits > 0 && worth_of(&tiles[fits - 1]) == worth_of(&tiles[fits]) {
        fits -= 1;
    }
    let cut = tiles.get(fits).map(|t| {
        format!(
            "{fits} tiles, cut after {}; {} is the first label left off",
            label(&tiles[fits - 1]),
            label(t)
        )
    });
    tiles.truncate(fits);
    let number = |t: &Option<Factors>| number_in(&tiles, t);
    let mut merges: Vec<Vec<u64>> = Vec::new();
    let mut makes = Vec::new();
    let mut seen = HashSet::new();
    let mut rule = |ins: &[Option<Factors>], out: Option<Factors>| {
        let (Some(ins), Some(made)) = (
            ins.iter().map(number).collect::<Option<Vec<u64>>>(),
            number(&out),
        ) else {
            return;
        };
        let mut key = ins.clone();
        key.sort_unstable();
        if seen.insert(key) {
            merges.push(ins);
            makes.push(Some(made));
        }
    };
    let (e4, e6, e9, e10, e14, e15) = (0, 1, 2, 3, 4, 5);
    for y in &all {
        rule(
            &[Some(with(y, e4, 1)), Some(*y), Some(*y)],
            Some(with(y, e6, 1)),
        );
        rule(
            &[Some(with(y, e4, 1)), Some(with(y, e4, 1)), Some(*y)],
            Some(with(y, e9, 1)),
        );
    }
    for m in &all {
        for (a, b, made) in [
            (with(m, e6, 1), with(m, e4, 1), with(m, e10, 1)),
            (with(m, e10, 1), with(m, e4, 1), with(m, e14, 1)),
            (with(m, e14, 1), *m, with(m, e15, 1)),
            (with(m, e9, 1), with(m, e6, 1), with(m, e15, 1)),
            (with(m, e15, 1), *m, with(m, e4, 2)),
        ] {
            rule(&[Some(a), Some(b)], Some(made));
        }
    }
    // 1 + 1 make the 2 (`None`), and 2 + 2 make a 4.
    rule(&[Some([0; 6]), Some([0; 6])], None);
    rule(&[None, None], Some(with(&[0; 6], e4, 1)));
    let points = tiles.iter().map(worth_of).collect();
    let labels = tiles.iter().map(label).collect();
    let win: Vec<u64> = tiles
        .iter()
        .filter(|t| worth_of(t) == 3240)
        .filter_map(&number)
        .collect();
    assert_eq!(win.len(), 4, "3240: four tiles worth 3240");
    assert_eq!(number(&Some([0; 6])), Some(1), "3240: 1 is the first tile");
    Mode {
        id: "3240",
        number: 79,
        description: "Tiles are products of 4, 6, 9, 10, 14 and 15, and which they are products of counts: 4·9 and 6·6 are two different 36s, each showing its factors under its worth. Four times a tile and two of it make six times it, and two of four times it and one of it make nine times it; 6n and 4n make 10n, 10n and 4n make 14n, 14n and n, or 9n and 6n, make 15n, and 15n and n make 16n. Two 1s make a 2, and two 2s a 4. Make a 3240 to win.",
        spawn: &[(1, 100)],
        tiles: (1..=tiles.len() as u64).collect(),
        win,
        cut,
        labels,
        points,
        merges,
        makes,
        ..Mode::default()
    }
}

/// Mode 82, 1716 (its default: equal tiles no rule merges destroy one another): Pascal's
/// triangle. A tile is a place (a, b) of the triangle, worth C(a + b − 2, a − 1), and shows its
/// worth and its place, "6(3|3)" (two places can be worth the same: 6 is also (2, 6)). Two 1s
/// make (2, 2); a 1 joins (2, x) to make (2, x + 1); (a, b − 1) and (a − 1, b) make (a, b), as
/// Pascal's rule adds them; two (a, a + 1) make (a + 1, a + 1); any other two equal tiles
/// destroy one another. Only (2, x) and the 1s score nothing; every other merge scores the
/// tile it makes, as the Compendium does.
///
/// The ladder is every place of the Compendium's games with b at most 50 (84 for a = 2, a line
/// random play took to 41) and a worth of at most 99,999 (so that a label had at most 12
/// characters, the format's limit when it came), 255 tiles: first the places the win,
/// (7, 8), is not needed for (a up to 6, and (7, 7)), then (7, 8) and the places made from it
/// (a from 7, b from 8), each part by worth. So the board's highest tile reaches (7, 8) exactly
/// when (7, 8) has been made, as a win is read. The places with a > b are never made.
fn mode_1716() -> Mode {
    fn worth(a: u64, b: u64) -> u64 {
        // C(a + b − 2, a − 1), multiplied out term by term (exact at each step); u64::MAX for
        // the worths far past the ladder's.
        (1..a)
            .try_fold(1u128, |c, i| {
                Some(c.checked_mul(u128::from(b - 1 + i))? / u128::from(i))
            })
            .and_then(|c| u64::try_from(c).ok())
            .unwrap_or(u64::MAX)
    }
    const B: u64 = 50;
    // The line of (2, x), which every 1 that joins it lengthens, goes further: to the format's
    // 255 tiles.
    const B2: u64 = 84;
    const MOST: u64 = 99_999;
    let fits = |&(a, b): &(u64, u64)| b <= if a == 2 { B2 } else { B } && worth(a, b) <= MOST;
    let by_worth = |places: &mut Vec<(u64, u64)>| {
        places.sort_by_key(|&(a, b)| (worth(a, b), a));
    };
    let mut before: Vec<(u64, u64)> = std::iter::once((1, 1))
        .chain((2..=6).flat_map(|a| (a..=B2).map(move |b| (a, b))))
        .chain(std::iter::once((7, 7)))
        .filter(fits)
        .collect();
    by_worth(&mut before);
    let mut after: Vec<(u64, u64)> = (7..=B)
        .flat_map(|a| (a.max(8)..=B).map(move |b| (a, b)))
        .filter(fits)
        .collect();
    by_worth(&mut after);
    let places: Vec<(u64, u64)> = before.into_iter().chain(after).collect();
    // A tile's number in the file is its place on the ladder.
    let id = |p: (u64, u64)| number_in(&places, &p);
    let tiles: Vec<u64> = (1..=places.len() as u64).collect();
    let labels = places
        .iter()
        .map(|&(a, b)| {
            if (a, b) == (1, 1) {
                "1".to_string()
            } else {
                format!("{}({a}|{b})", worth(a, b))
            }
        })
        .collect();
    let points = places
        .iter()
        .map(|&(a, b)| if a <= 2 { 0 } else { worth(a, b) })
        .collect();
    let mut merges = Vec::new();
    let mut makes = Vec::new();
    // A merge of places on the ladder into one on it (or into nothing); others are left out.
    let mut rule = |ins: &[(u64, u64)], out: Option<(u64, u64)>| {
        let Some(ins) = ins.iter().map(|&p| id(p)).collect::<Option<Vec<u64>>>() else {
            return;
        };
        let made = match out.map(id) {
            Some(None) => return,
            Some(Some(m)) => Some(m),
            None => None,
        };
        merges.push(ins);
        makes.push(made);
    };
    rule(&[(1, 1), (1, 1)], Some((2, 2)));
    for x in 2..B2 {
        rule(&[(2, x), (1, 1)], Some((2, x + 1)));
    }
    for &(a, b) in &places {
        if a >= 3 && b > a {
            rule(&[(a, b - 1), (a - 1, b)], Some((a, b)));
        }
    }
    for a in 2..B {
        rule(&[(a, a + 1), (a, a + 1)], Some((a + 1, a + 1)));
    }
    // Any other two equal tiles destroy one another: not two 1s nor two (a, a + 1), which
    // merge by the rules above (or, at the top of the ladder, not at all).
    for &(a, b) in &places {
        if (a, b) != (1, 1) && b != a + 1 {
            rule(&[(a, b), (a, b)], None);
        }
    }
    // The win is reached on the ladder only by making it, and no rule makes a tile below it
    // from one at or above it.
    let win = id((7, 8)).unwrap_or(0);
    assert_win_is_made("1716", &merges, &makes, win);
    for (ins, made) in merges.iter().zip(&makes) {
        if let Some(made) = *made {
            assert!(
                !(ins.iter().any(|&t| t >= win) && made < win),
                "1716: {ins:?} make {made}, below the win {win}"
            );
        }
    }
    // The spawns, 1, 2(2|2) and 3(2|3), are the first three places.
    assert_eq!(
        [id((1, 1)), id((2, 2)), id((2, 3))],
        [Some(1), Some(2), Some(3)]
    );
    Mode {
        id: "1716",
        number: 82,
        description: "Tiles are places in Pascal's triangle, each showing its number and its place (a|b): 6(3|3) and 6(2|6) are two different 6s. Two 1s make 2(2|2), and a 1 joins x(2|x) to make the next of that line, x+1(2|x+1); the two places above a place, (a|b-1) and (a-1|b), make it, their sum, as in the triangle; two equal tiles (a|a+1) make (a+1|a+1); any other two equal tiles destroy one another. Make 1716(7|8) to win.",
        side: 4,
        spawn: &[(1, 84), (2, 8), (3, 8)],
        win: vec![id((7, 8)).unwrap_or(0)],
        cut: None,
        makes,
        labels,
        points,
        tiles,
        merges,
        ..Mode::default()
    }
}

/// The orders in which the Compendium's engine tries the tiles of a rule that takes them in any
/// order (its `orders(n)`, in its order): order `o` reads the rule's tile `q` (`@This`, `@Next 1`
/// …) from the cell `o[q]` cells ahead of the moving tile.
fn engine_orders(n: usize) -> Vec<Vec<usize>> {
    if n == 1 {
        return vec![vec![0]];
    }
    let prev = engine_orders(n - 1);
    let mut out = Vec::new();
    for pos in (0..n).rev() {
        for p in &prev {
            let mut entry = p.clone();
            entry.insert(pos, n - 1);
            out.push(entry);
        }
    }
    out
}

/// A rule of the engine, read: what it makes of the tiles it reads (`@This`, `@Next 1` …), if
/// it holds.
type Rule<'a, T, R> = dyn Fn(&[T]) -> Option<R> + 'a;

/// A line of tiles as the engine reads it (the moving tile first), and what each direction
/// makes of it and scores.
type Found<T> = (Vec<T>, [Option<(T, u64)>; 4]);

/// [`engine_orders`] of 2 and 3 tiles, written out (a test checks them), so that trying a rule
/// allocates nothing.
const ORDERS: [&[&[usize]]; 4] = [
    &[],
    &[&[0]],
    &[&[0, 1], &[1, 0]],
    &[
        &[0, 1, 2],
        &[1, 0, 2],
        &[0, 2, 1],
        &[1, 2, 0],
        &[2, 0, 1],
        &[2, 1, 0],
    ],
];

/// What the first of `rules` that holds makes of the tiles `cells` (the moving tile first, then
/// the tiles ahead of it toward the wall; 1 to 3 of them), each rule tried in every order of
/// [`engine_orders`] before the next, as the engine's `mergeRuleApplies` does for a rule whose
/// `in_order` is false.
fn first_in_any_order<T: Copy, R>(cells: &[T], rules: &[&Rule<'_, T, R>]) -> Option<R> {
    let orders = ORDERS[cells.len()];
    let mut read = [cells[0]; 3];
    rules.iter().find_map(|rule| {
        orders.iter().find_map(|o| {
            for (q, &i) in o.iter().enumerate() {
                read[q] = cells[i];
            }
            rule(&read[..cells.len()])
        })
    })
}

#[test]
fn the_orders_written_out_are_the_engines() {
    for (n, orders) in ORDERS.iter().enumerate().skip(1) {
        let written: Vec<Vec<usize>> = orders.iter().map(|o| o.to_vec()).collect();
        assert_eq!(written, engine_orders(n), "{n} tiles");
    }
}

/// Each set of the four directions as format 2's `directions` names it, by the bits of the
/// Compendium's numbers for them (0 up, 1 down, 2 left, 3 right).
const DIRECTION_SETS: [&[&str]; 16] = [
    &[],
    &["up"],
    &["down"],
    &["up", "down"],
    &["left"],
    &["up", "left"],
    &["down", "left"],
    &["up", "down", "left"],
    &["right"],
    &["up", "right"],
    &["down", "right"],
    &["up", "down", "right"],
    &["left", "right"],
    &["up", "left", "right"],
    &["down", "left", "right"],
    &["up", "down", "left", "right"],
];

/// A mode whose tiles are records (a level, flags, a worth), closed over its rules: the tiles
/// its spawns lead to, numbered by worth, and its merges as exact, numbered rules.
struct Records<T> {
    /// Every tile reached (that `keep` kept), by worth, then by label.
    tiles: Vec<T>,
    merges: Vec<Vec<u64>>,
    makes: Vec<Option<u64>>,
    ordered: Vec<bool>,
    directions: Vec<&'static [&'static str]>,
    /// The points of making each tile, by its number less one.
    points: Vec<u64>,
}

impl<T: Copy + Ord + std::hash::Hash + std::fmt::Debug> Records<T> {
    /// The tiles `spawns` lead to under `merge`, which gives what the engine makes of the
    /// tiles in a line (the moving tile first, then those ahead of it toward the wall) on a
    /// move in a direction (0 to 3; only 0 unless `directional`), and the score, or `None`.
    /// Merges of each of `sizes` tiles are tried (in the file, in that order); a tile `keep`
    /// refuses is off the ladder, and so are the merges that make it.
    fn close(
        spawns: &[T],
        sizes: &[usize],
        directional: bool,
        keep: impl Fn(&T) -> bool,
        worth: impl Fn(&T) -> u64,
        label: impl Fn(&T) -> String,
        merge: impl Fn(&[T], usize) -> Option<(T, u64)>,
    ) -> Self {
        let directions = if directional { 4 } else { 1 };
        let mut all: Vec<T> = Vec::new();
        let mut known = HashSet::new();
        for s in spawns {
            if known.insert(*s) {
                all.push(*s);
            }
        }
        // Each line of tiles (as the engine reads it) that merges: what each direction makes.
        let mut found: Vec<Found<T>> = Vec::new();
        let mut start = 0;
        while start < all.len() {
            let end = all.len();
            for &n in sizes {
                let mut idx = vec![0usize; n];
                'tuples: loop {
                    if idx.iter().any(|&i| i >= start) {
                        let cells: Vec<T> = idx.iter().map(|&i| all[i]).collect();
                        let mut made = [None; 4];
                        for (d, m) in made.iter_mut().enumerate().take(directions) {
                            *m = merge(&cells, d).filter(|(t, _)| keep(t));
                        }
                        if made.iter().any(Option::is_some) {
                            for (t, _) in made.iter().flatten() {
                                if known.insert(*t) {
                                    all.push(*t);
                                }
                            }
                            found.push((cells, made));
                        }
                    }
                    for k in (0..n).rev() {
                        idx[k] += 1;
                        if idx[k] < end {
                            continue 'tuples;
                        }
                        idx[k] = 0;
                    }
                    break;
                }
            }
            start = end;
        }
        all.sort_by_key(|t| (worth(t), label(t)));
        let number = |t: &T| number_in(&all, t).unwrap_or(0);
        let mut points = vec![0; all.len()];
        let mut merges = Vec::new();
        let mut makes = Vec::new();
        let mut ordered = Vec::new();
        let mut dirs: Vec<&'static [&'static str]> = Vec::new();
        // The lines of one size and one multiset of tiles: one rule in any order when every
        // order of them makes the same, else a rule for each order.
        let mut by_set: Vec<(Vec<T>, Vec<Found<T>>)> = Vec::new();
        for (cells, made) in found {
            let mut set = cells.clone();
            set.sort();
            match by_set
                .iter_mut()
                .find(|(s, _)| s.len() == set.len() && *s == set)
            {
                Some((_, lines)) => lines.push((cells, made)),
                None => by_set.push((set, vec![(cells, made)])),
            }
        }
        // Longer rules first: a merge of two tiles gives way to one of three with the tile
        // behind them.
        by_set.sort_by_key(|(s, _)| std::cmp::Reverse(s.len()));
        for (set, lines) in by_set {
            let arrangements = {
                let mut a: Vec<Vec<T>> = Vec::new();
                for o in engine_orders(set.len()) {
                    let cells: Vec<T> = o.iter().map(|&q| set[q]).collect();
                    if !a.contains(&cells) {
                        a.push(cells);
                    }
                }
                a
            };
            let same =
                lines.len() == arrangements.len() && lines.iter().all(|(_, m)| *m == lines[0].1);
            let chosen: Vec<Found<T>> = if same {
                vec![(set.clone(), lines[0].1)]
            } else {
                lines
            };
            for (cells, made) in chosen {
                // One rule for each tile made, on the directions that make it.
                let mut outs: Vec<(T, u64, usize)> = Vec::new();
                for (d, m) in made.iter().enumerate().take(directions) {
                    if let Some((t, score)) = m {
                        match outs.iter_mut().find(|(u, s, _)| u == t && s == score) {
                            Some((_, _, mask)) => *mask |= 1 << d,
                            None => outs.push((*t, *score, 1 << d)),
                        }
                    }
                }
                for (t, score, mask) in outs {
                    let n = number(&t);
                    let p = &mut points[n as usize - 1];
                    assert!(*p == 0 || *p == score, "{t:?} scores {p} and {score}");
                    *p = score;
                    // The file lists a rule's tiles from the wall outward.
                    merges.push(cells.iter().rev().map(number).collect());
                    makes.push(Some(n));
                    ordered.push(!same);
                    let all_ways = (1 << directions) - 1;
                    dirs.push(if mask == all_ways || !directional {
                        &[]
                    } else {
                        DIRECTION_SETS[mask]
                    });
                }
            }
        }
        // A spawned tile that no merge makes scores its worth, as shown.
        for (i, t) in all.iter().enumerate() {
            if points[i] == 0 {
                points[i] = worth(t);
            }
        }
        Records {
            tiles: all,
            merges,
            makes,
            ordered,
            directions: dirs,
            points,
        }
    }
}

/// A Ratio-Fill tile: its level (the power of the base it has reached), its flags (bit i: the
/// i-th ratio taken this level) and its worth.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Ratio {
    level: u32,
    flags: u32,
    worth: u64,
}

fn ratio(level: u32, flags: u32, worth: u64) -> Ratio {
    Ratio {
        level,
        flags,
        worth,
    }
}

/// A Ratio-Fill tile as it shows: its worth, then the ratios it has taken this level as digits
/// from `first` (`18(12)`), except on level 0 when its flags are all set there (`flags_at_zero`).
/// `tools/compendium/fixtures.js` labels the engine's tiles the same way.
fn ratio_label(t: &Ratio, first: u32, flags_at_zero: bool) -> String {
    if t.flags == 0 || (t.level == 0 && flags_at_zero) {
        return t.worth.to_string();
    }
    let digits: String = (0..8)
        .filter(|i| t.flags & (1 << i) != 0)
        .map(|i| (i + first).to_string())
        .collect();
    format!("{}({digits})", t.worth)
}

/// The first flag not set (the engine's `arr_indexOf false`).
fn first_unset(flags: u32) -> u32 {
    (!flags).trailing_zeros()
}

/// A Ratio-Fill mode's file from its records: tiles numbered by worth, labelled.
#[allow(clippy::too_many_arguments)]
fn ratio_fill_mode(
    id: &'static str,
    title: &'static str,
    number: u32,
    description: &'static str,
    side: u32,
    spawn: &'static [(u64, u32)],
    spawned: &[Ratio],
    win: Ratio,
    r: Records<Ratio>,
    first: u32,
    flags_at_zero: bool,
) -> Mode {
    let numbered = |t: &Ratio| number_in(&r.tiles, t);
    for (k, s) in spawned.iter().enumerate() {
        assert_eq!(numbered(s), Some(spawn[k].0), "{id}: the spawn {s:?}");
    }
    let win = numbered(&win).unwrap_or(0);
    assert_win_is_made(id, &r.merges, &r.makes, win);
    Mode {
        id,
        title: Some(title),
        number,
        description,
        side,
        spawn,
        win: vec![win],
        tiles: (1..=r.tiles.len() as u64).collect(),
        labels: r
            .tiles
            .iter()
            .map(|t| ratio_label(t, first, flags_at_zero))
            .collect(),
        points: r.points,
        merges: r.merges,
        makes: r.makes,
        ordered: r.ordered,
        ..Mode::default()
    }
}

/// Ratio-Fill 1296 and 1024 (modes 83 and 84): two tiles merge. Below the base `b` (6, 4) the
/// mode's own rules merge small tiles (`below`, whose merge that makes `b` makes it level 1 with
/// no flags). From a power of `b`, a tile takes a tile worth 1/r of itself for each r of
/// `ratios` once (flag r − first), growing by that much; the last makes the next power of `b`,
/// flags cleared (the engine's third rule, tried before the fourth).
fn ratio_fill_pairs(
    flags: u32,
    first: u64,
    top_level: u32,
    spawns: &[Ratio],
    below: &Rule<'_, Ratio, (Ratio, u64)>,
    worth_limit: u64,
) -> Records<Ratio> {
    let complete = |r: &[Ratio]| {
        let (a, n) = (r[0], r[1]);
        (n.flags.count_ones() == flags - 1
            && a.worth * (u64::from(first_unset(n.flags)) + first) == n.worth)
            .then(|| (ratio(n.level + 1, 0, a.worth + n.worth), a.worth + n.worth))
    };
    let absorb = |r: &[Ratio]| {
        let (a, n) = (r[0], r[1]);
        if n.worth % a.worth != 0 {
            return None;
        }
        let g = (n.worth / a.worth).checked_sub(first)?;
        (g < u64::from(flags) && n.flags & (1 << g) == 0).then(|| {
            (
                ratio(n.level, n.flags | 1 << g, a.worth + n.worth),
                a.worth + n.worth,
            )
        })
    };
    Records::close(
        spawns,
        &[2],
        false,
        |t| t.level <= top_level && t.worth <= worth_limit,
        |t| t.worth,
        |t| format!("{:?}", (t.level, t.flags)),
        |cells, _| first_in_any_order(cells, &[below, &complete, &absorb]),
    )
}

/// Mode 83, Ratio-Fill 1296. Below 6, two tiles merge when one is a multiple of the other and
/// their sum is less than 6 (it makes the sum) or 6 (it makes the 6 of level 1); from a power
/// of 6 a tile takes a tile worth 1/r of itself for r = 1 … 5, once each, the fifth making the
/// next power of 6. The ladder is every tile up to level 4, the win's.
fn mode_ratio_fill_1296() -> Mode {
    const ALL: u32 = 0b1_1111;
    let spawns = [ratio(0, ALL, 1), ratio(0, ALL, 2), ratio(0, ALL, 3)];
    let below = |r: &[Ratio]| {
        let (a, b) = (r[0], r[1]);
        let sum = a.worth + b.worth;
        if a.worth % b.worth != 0 {
            return None;
        }
        match sum {
            ..6 => Some((ratio(0, a.flags, sum), sum)),
            6 => Some((ratio(1, 0, 6), 6)),
            _ => None,
        }
    };
    let r = ratio_fill_pairs(5, 1, 4, &spawns, &below, u64::MAX);
    ratio_fill_mode(
        "ratio-fill-1296",
        "Ratio-Fill 1296",
        83,
        "Below 6, two tiles merge when one is a multiple of the other and their sum is at most 6. From a power of 6, a tile takes a tile worth a whole, a half, a third, a fourth and a fifth of itself, once each in any order, and the fifth it takes makes the next power of 6; each tile shows its worth and, in brackets, the ratios it has taken (18(12) has taken a 6 and then a 6 that was half of 12). Make 1296 to win.",
        4,
        &[(1, 85), (2, 10), (3, 5)],
        &spawns,
        ratio(4, 0, 1296),
        r,
        1,
        true,
    )
}

/// Mode 84, Ratio-Fill 1024: as 1296 with base 4 and r = 2 … 7; below 4, any two tiles merge
/// when their sum is less than 4 (the sum) or 4 (the 4 of level 1, which also spawns).
fn mode_ratio_fill_1024() -> Mode {
    const ALL: u32 = 0b11_1111;
    let spawns = [
        ratio(0, ALL, 1),
        ratio(0, ALL, 2),
        ratio(0, ALL, 3),
        ratio(1, 0, 4),
    ];
    let below = |r: &[Ratio]| {
        let (a, b) = (r[0], r[1]);
        let sum = a.worth + b.worth;
        match sum {
            ..4 => Some((ratio(0, a.flags, sum), sum)),
            4 => Some((ratio(1, 0, 4), 4)),
            _ => None,
        }
    };
    let r = ratio_fill_pairs(6, 2, 5, &spawns, &below, u64::MAX);
    ratio_fill_mode(
        "ratio-fill-1024",
        "Ratio-Fill 1024",
        84,
        "Below 4, two tiles merge when their sum is at most 4. From a power of 4, a tile takes a tile worth a half, a third, a fourth, a fifth, a sixth and a seventh of itself, once each in any order, and the sixth it takes makes the next power of 4; each tile shows its worth and, in brackets, the ratios it has taken (6(2) has taken a 2, half of 4). Make 1024 to win.",
        4,
        &[(1, 85), (2, 8), (3, 5), (4, 2)],
        &spawns,
        ratio(5, 0, 1024),
        r,
        2,
        true,
    )
}

/// Mode 90, Ratio-Fill 3375 (its default, with the rule that the taken tiles are no larger than
/// the taker): three tiles merge. Below 15, one that is a multiple of the other two, summing to
/// less than 15 (the sum) or 15 (the 15 of level 1, which the engine scores 6, as its second rule
/// says). From a power of 15, a tile takes two tiles no larger than itself that sum to 2/(2d − 1)
/// of it, d = 1 … 7, once each (flag d − 1), the seventh making the next power of 15.
fn mode_ratio_fill_3375() -> Mode {
    const ALL: u32 = 0b111_1111;
    let spawns = [ratio(0, ALL, 1), ratio(0, ALL, 3)];
    let below = |r: &[Ratio]| {
        let (a, b, c) = (r[0], r[1], r[2]);
        let sum = a.worth + b.worth + c.worth;
        if a.worth % b.worth != 0 || a.worth % c.worth != 0 {
            return None;
        }
        match sum {
            ..15 => Some((ratio(0, a.flags, sum), sum)),
            15 => Some((ratio(1, 0, 15), 6)),
            _ => None,
        }
    };
    let complete = |r: &[Ratio]| {
        let (a, b, c) = (r[0], r[1], r[2]);
        let pair = a.worth + b.worth;
        (c.flags.count_ones() == 6
            && a.worth <= c.worth
            && b.worth <= c.worth
            && pair % 2 == 0
            && pair * (2 * u64::from(first_unset(c.flags)) + 1) / 2 == c.worth)
            .then(|| (ratio(c.level + 1, 0, pair + c.worth), pair + c.worth))
    };
    let absorb = |r: &[Ratio]| {
        let (a, b, c) = (r[0], r[1], r[2]);
        let pair = a.worth + b.worth;
        if a.worth > c.worth || b.worth > c.worth || (2 * c.worth) % pair != 0 {
            return None;
        }
        let x = 2 * c.worth / pair;
        let i = (x % 2 == 1).then_some((x - 1) / 2)?;
        (i < 7 && c.flags & (1 << i) == 0).then(|| {
            (
                ratio(c.level, c.flags | 1 << i, pair + c.worth),
                pair + c.worth,
            )
        })
    };
    let r = Records::close(
        &spawns,
        &[3],
        false,
        |t| t.level <= 3,
        |t| t.worth,
        |t| format!("{:?}", (t.level, t.flags)),
        |cells, _| first_in_any_order(cells, &[&below, &complete, &absorb]),
    );
    ratio_fill_mode(
        "ratio-fill-3375",
        "Ratio-Fill 3375",
        90,
        "Three tiles merge. Below 15, one tile that is a multiple of the other two merges with them when the three sum to at most 15 (making 15 scores 6, as the Compendium counts it). From a power of 15, a tile takes two tiles no larger than itself that sum to 2, 2/3, 2/5, 2/7, 2/9, 2/11 and 2/13 of it, once each in any order, and the seventh makes the next power of 15; each tile shows its worth and, in brackets, which of the seven it has taken (1 for 2, 2 for 2/3 …). Make 3375 to win.",
        5,
        &[(1, 90), (2, 10)],
        &spawns,
        ratio(3, 0, 3375),
        r,
        1,
        true,
    )
}

/// Mode 94, Ratio-Fill 9261: a tile takes one tile, or two, no larger than itself that are
/// worth (together) 2/d of it, d = 1 … 5, once each (flag d − 1), the fifth making the next
/// power of 21. Its 1s spawn with no flags (they take tiles too). A pair merges only when no
/// triple with the tile behind it does, which listing the triples first gives.
fn mode_ratio_fill_9261() -> Mode {
    let spawns = [ratio(0, 0, 1)];
    let complete3 = |r: &[Ratio]| {
        let (a, b, c) = (r[0], r[1], r[2]);
        let pair = a.worth + b.worth;
        let idx = u64::from(first_unset(c.flags));
        (c.flags.count_ones() == 4
            && a.worth <= c.worth
            && b.worth <= c.worth
            && (pair % 2 == 0 || idx % 2 == 1)
            && pair * (idx + 1) / 2 == c.worth)
            .then(|| (ratio(c.level + 1, 0, pair + c.worth), pair + c.worth))
    };
    let absorb3 = |r: &[Ratio]| {
        let (a, b, c) = (r[0], r[1], r[2]);
        let pair = a.worth + b.worth;
        if a.worth > c.worth || b.worth > c.worth || (2 * c.worth) % pair != 0 {
            return None;
        }
        let g = (2 * c.worth / pair).checked_sub(1)?;
        (g < 5 && c.flags & (1 << g) == 0).then(|| {
            (
                ratio(c.level, c.flags | 1 << g, pair + c.worth),
                pair + c.worth,
            )
        })
    };
    let complete2 = |r: &[Ratio]| {
        let (a, n) = (r[0], r[1]);
        let idx = u64::from(first_unset(n.flags));
        (n.flags.count_ones() == 4
            && a.worth <= n.worth
            && (a.worth % 2 == 0 || idx % 2 == 1)
            && a.worth * (idx + 1) / 2 == n.worth)
            .then(|| (ratio(n.level + 1, 0, a.worth + n.worth), a.worth + n.worth))
    };
    let absorb2 = |r: &[Ratio]| {
        let (a, n) = (r[0], r[1]);
        if a.worth > n.worth || (2 * n.worth) % a.worth != 0 {
            return None;
        }
        let g = (2 * n.worth / a.worth).checked_sub(1)?;
        (g < 5 && n.flags & (1 << g) == 0).then(|| {
            (
                ratio(n.level, n.flags | 1 << g, a.worth + n.worth),
                a.worth + n.worth,
            )
        })
    };
    let r = Records::close(
        &spawns,
        &[3, 2],
        false,
        |t| t.level <= 3,
        |t| t.worth,
        |t| format!("{:?}", (t.level, t.flags)),
        |cells, _| {
            if cells.len() == 3 {
                first_in_any_order(cells, &[&complete3, &absorb3])
            } else {
                first_in_any_order(cells, &[&complete2, &absorb2])
            }
        },
    );
    ratio_fill_mode(
        "ratio-fill-9261",
        "Ratio-Fill 9261",
        94,
        "A tile takes one tile, or two, no larger than itself that are worth (together) 2, 1, 2/3, 1/2 and 2/5 of it, once each in any order, and the fifth makes the next power of 21; three tiles merge before two. Each tile shows its worth and, in brackets, which of the five it has taken (1 for 2, 2 for 1 …). Make 9261 to win.",
        5,
        &[(1, 100)],
        &spawns,
        ratio(3, 0, 9261),
        r,
        1,
        false,
    )
}

/// A Four-Sides 625 tile: its level k and its flags (bit d: merged into from direction d, 0 up,
/// 1 down, 2 left, 3 right), worth 5^k·(1 + the flags set).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
struct Sided {
    level: u32,
    flags: u32,
}

fn sided_worth(t: &Sided) -> u64 {
    5u64.pow(t.level) * (1 + u64::from(t.flags.count_ones()))
}

/// Its label: the worth, then the flags as U, D, L, R (`375(UL)`), as fixtures.js writes it.
fn sided_label(t: &Sided) -> String {
    if t.flags == 0 {
        return sided_worth(t).to_string();
    }
    let letters: String = "UDLR"
        .chars()
        .enumerate()
        .filter(|(i, _)| t.flags & (1 << i) != 0)
        .map(|(_, c)| c)
        .collect();
    format!("{}({letters})", sided_worth(t))
}

/// Mode 99, Four-Sides 625 (its rules, built in the engine's `loadModifiers`, hold the move's
/// direction): two tiles of one level merge when one has no flags and the other lacks the
/// flag of the side the fresh one comes from: the move's direction when the one with the
/// flags is nearer the wall, the opposite when it is farther. It takes that flag; holding the
/// other three, it makes the next level instead. Every merge scores the tile made. The win is
/// any tile of level 4 (625 and up); the ladder goes to level 8.
fn mode_four_sides_625() -> Mode {
    let next = |t: &Sided| Sided {
        level: t.level + 1,
        flags: 0,
    };
    let merge = |cells: &[Sided], d: usize| -> Option<(Sided, u64)> {
        // The engine's `@This` is the moving tile (farther from the wall), `@Next 1` the tile
        // ahead of it; the rules take them in that order only.
        let (o, w) = (cells[0], cells[1]);
        let opposite = d ^ 1;
        let missing = |t: &Sided| first_unset(t.flags) as usize;
        if o.level != w.level {
            return None;
        }
        let made = if o.flags == 0 && w.flags.count_ones() == 3 && missing(&w) == d {
            next(&w)
        } else if w.flags == 0 && o.flags.count_ones() == 3 && missing(&o) == opposite {
            next(&o)
        } else if o.flags == 0 && w.flags & (1 << d) == 0 {
            Sided {
                level: w.level,
                flags: w.flags | 1 << d,
            }
        } else if w.flags == 0 && o.flags & (1 << opposite) == 0 {
            Sided {
                level: o.level,
                flags: o.flags | 1 << opposite,
            }
        } else {
            return None;
        };
        Some((made, sided_worth(&made)))
    };
    let spawn = Sided { level: 0, flags: 0 };
    let r = Records::close(
        &[spawn],
        &[2],
        true,
        |t| t.level <= 8,
        sided_worth,
        sided_label,
        merge,
    );
    let numbered = |t: &Sided| number_in(&r.tiles, t);
    assert_eq!(
        numbered(&spawn),
        Some(1),
        "four-sides-625: 1 is the first tile"
    );
    let win: Vec<u64> = r
        .tiles
        .iter()
        .filter(|t| t.level == 4)
        .filter_map(numbered)
        .collect();
    assert_eq!(win.len(), 15, "four-sides-625: every tile of level 4");
    // The ladder is in worth, so the lowest tile of level 4 is reached only by making it.
    assert_win_is_made("four-sides-625", &r.merges, &r.makes, win[0]);
    Mode {
        id: "four-sides-625",
        title: Some("Four-Sides 625"),
        number: 99,
        description: "Two tiles of one level merge when one has no flags and the other lacks the flag of the side the fresh tile comes into it from (the move's direction when it is nearer the wall, the opposite when it is farther): it takes that flag, worth another power of 5, shown as U, D, L or R (375(UL) is 125 merged into from above and from the left). Holding the other three, it makes the next power of 5 instead. Make a 625 to win.",
        side: 5,
        spawn: &[(1, 100)],
        win,
        tiles: (1..=r.tiles.len() as u64).collect(),
        labels: r.tiles.iter().map(sided_label).collect(),
        points: r.points,
        merges: r.merges,
        makes: r.makes,
        ordered: r.ordered,
        directions: r.directions,
        ..Mode::default()
    }
}

/// Mode 100, Alternate 5040 (its default sub-mode, the "1762 variant"): tiles n!·c, 1 ≤ c ≤ n.
/// Two tiles of one tier n whose c differ by at most 1 merge into their sum when c1 + c2 is
/// n + 1 (making (n + 1)!) or lies on 1762's path to n + 1: |(n + 1) − (c1 + c2)·P| < P, where
/// P = 2^(⌊log2((n + 1) div (c1 + c2 + 1))⌋ + 1). The engine's rules give no score (`[]`); the
/// mode's setup then fills it with the worth of the tile made (`(n)! · c` of its output), so
/// every merge scores its sum. The ladder goes to tier 9.
fn mode_alternate_5040() -> Mode {
    let worth = |&(n, c): &(u64, u64)| (1..=n).product::<u64>() * c;
    let merge = |cells: &[(u64, u64)], _: usize| -> Option<((u64, u64), u64)> {
        let ((n, c1), (m, c2)) = (cells[0], cells[1]);
        if n != m || c1.abs_diff(c2) >= 2 {
            return None;
        }
        let s = c1 + c2;
        let made = if s == n + 1 {
            (n + 1, 1)
        } else if s < n + 1 {
            let p = 2u64.pow(((n + 1) / (s + 1)).ilog2() + 1);
            if (n + 1).abs_diff(s * p) >= p {
                return None;
            }
            (n, s)
        } else {
            return None;
        };
        Some((made, worth(&made)))
    };
    let r = Records::close(
        &[(1, 1)],
        &[2],
        false,
        |&(n, _)| n <= 9,
        worth,
        |t| worth(t).to_string(),
        merge,
    );
    let tiles: Vec<u64> = r.tiles.iter().map(worth).collect();
    assert!(
        tiles.windows(2).all(|w| w[0] < w[1]),
        "alternate-5040: one tile a worth"
    );
    let merges: Vec<Vec<u64>> = r
        .merges
        .iter()
        .map(|m| m.iter().map(|&k| tiles[k as usize - 1]).collect())
        .collect();
    for (ins, made) in merges.iter().zip(&r.makes) {
        let made = made.map(|k| tiles[k as usize - 1]);
        assert_eq!(Some(ins.iter().sum::<u64>()), made, "alternate-5040: sums");
    }
    Mode {
        id: "alternate-5040",
        title: Some("Alternate 5040"),
        number: 100,
        description: "Tiles are n!·c for c from 1 to n. Two tiles of one tier whose c differ by at most 1 merge into their sum when it is the next factorial, (n + 1)!, or when c1 + c2 is on 1762's path from 1 to n + 1 (as if n! were 1). Its default, the 1762 variant; the Compendium's other variants are not here. Make 5040 to win.",
        spawn: &[(1, 100)],
        win: vec![5040],
        tiles,
        merges,
        ..Mode::default()
    }
}

/// Mode 25, XXXX: k ones in a row (k = 2 … 6) make a base-k tile, k^1; k equal base-k tiles
/// make the next power, k^(e+1); win: four different tiles worth 1000 or more. A tile is (base,
/// exponent), so 64 = 2^6 and 64 = 4^3 are different tiles (2^6 merges with one more, 4^3 with
/// three), as are 4 = 2^2 and the base-4 tile 4 = 4^1. The ladder is 1 and every k^e up to
/// [`TOP`] (168 tiles), numbered by worth (the lower base first), each labelled by its worth
/// and, from e = 2, its base and exponent (`64(2^6)`), or by k^e alone where that is too long
/// for a label (`2^40`). The longest run of ones goes first, as the Compendium expands its rule
/// of 2 to 6 ones longest first; its check that the tile before a run is not a 1 holds of every
/// run a walk from the wall meets, so the rules need no `run`. A merge scores the worth of the
/// tile it makes. The win is on places: the tiles worth 1000 or more are the last ones.
fn mode_xxxx() -> Mode {
    let worth = |(k, e): (u128, u32)| k.pow(e);
    let mut places: Vec<(u128, u32)> = vec![(1, 0)];
    for k in 2..=6u128 {
        let mut e = 1;
        while k.checked_pow(e).is_some_and(|w| w <= TOP) {
            places.push((k, e));
            e += 1;
        }
    }
    places.sort_by_key(|&p| (worth(p), p.0));
    let id = |p: (u128, u32)| number_in(&places, &p);
    let tiles: Vec<u64> = (1..=places.len() as u64).collect();
    let labels: Vec<String> = places
        .iter()
        .map(|&(k, e)| {
            let w = worth((k, e));
            match e {
                0 | 1 => w.to_string(),
                _ => {
                    let full = format!("{w}({k}^{e})");
                    if full.chars().count() <= 16 {
                        full
                    } else {
                        format!("{k}^{e}")
                    }
                }
            }
        })
        .collect();
    let points: Vec<u64> = places
        .iter()
        .map(|&p| u64::try_from(worth(p)).unwrap_or(u64::MAX))
        .collect();
    let mut merges = Vec::new();
    let mut makes = Vec::new();
    for k in (2..=6usize).rev() {
        if let Some(made) = id((k as u128, 1)) {
            merges.push(vec![1; k]);
            makes.push(Some(made));
        }
    }
    for &(k, e) in &places {
        if let (true, Some(from), Some(to)) = (k >= 2, id((k, e)), id((k, e + 1))) {
            merges.push(vec![from; k as usize]);
            makes.push(Some(to));
        }
    }
    let first_win = places
        .iter()
        .position(|&p| worth(p) >= 1000)
        .map_or(0, |i| i + 1);
    Mode {
        id: "xxxx",
        title: Some("XXXX"),
        number: 25,
        description: "Any run of two to six 1s in a row merges, the longest first: k 1s make a k. From then on a tile of base k merges only with k - 1 more like it, into the next power of k (two 2s make 4, three 3s make 9, three 9s make 27). So 64 as 2^6 and 64 as 4^3 are different tiles, labelled by base and power. Make four different tiles worth 1000 or more to win.",
        side: 6,
        spawn: &[(1, 100)],
        win: Vec::new(),
        tiles,
        merges,
        makes,
        labels,
        points,
        distinct: Some((4, format!("a >= {first_win}"))),
        ..Mode::default()
    }
}

/// Every generated mode, in the Compendium's menu order.
fn modes() -> Vec<Mode> {
    vec![
        mode_5040(),
        mode_2059(),
        mode_xxxx(),
        mode_1365(),
        mode_2310(),
        mode_3120(),
        mode_ratio_fill_1296(),
        mode_ratio_fill_1024(),
        mode_ratio_fill_3375(),
        mode_ratio_fill_9261(),
        mode_180(),
        mode_3888(),
        mode_2000(),
        mode_3645(),
        mode_2700(),
        mode_2205(),
        mode_2496(),
        mode_3026(),
        mode_3240(),
        mode_1716(),
        mode_partial_absorb_270(),
        mode_3188646(),
        mode_2592(),
        mode_2295(),
        mode_four_sides_625(),
        mode_directional_merges(),
        mode_alternate_5040(),
    ]
}

fn variants_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")
}

#[test]
fn the_generated_variant_files_are_the_committed_ones() {
    let bless = std::env::var("TILEBOX_BLESS").is_ok_and(|v| v == "1");
    let mut stale = Vec::new();
    for mode in modes() {
        let text = mode.text();
        let variant = Variant::from_text(&text).unwrap_or_else(|e| panic!("{}: {e}", mode.id));
        assert!(
            variant.tiles.last().is_some_and(|&t| u128::from(t) <= TOP),
            "{}: the top tile times 64 overflows",
            mode.id
        );
        assert_eq!(variant.win.values(), mode.win, "{}: the win", mode.id);
        eprintln!(
            "{} (mode {}): {} tiles, {} merges{}",
            mode.id,
            mode.number,
            variant.tiles.len(),
            variant.merges.len(),
            mode.cut
                .as_deref()
                .map_or(String::new(), |c| format!("; {c}"))
        );
        let path = variants_folder().join(format!("{}.json", mode.id));
        if bless {
            std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "not what tests/compendium_generated.rs makes: {}; regenerate with \
         TILEBOX_BLESS=1 cargo test -p tilebox-sliding --test compendium_generated",
        stale.join(", ")
    );
}

/// The highest tile of 2669's file: its records run to 5,000, about twice its win.
const TOP_2669: i64 = 5_000;

/// Mode 85, 2669: a tile is a record (v, p, q, s): worth v = p + q, made when a tile worth p
/// took one worth q, s times running (1 or 2). Of two tiles side by side (either first), one
/// takes the other when the other is worth its q and s < 2, making (v + q, v, q, s + 1), or
/// else when the other is worth its p, making (v + p, v, p, 1). (Only 1 and 1 could merge
/// either way round, into one tile; so the order in which the Compendium tries the rules and
/// the tiles' two orders never tells.) Its tiles are every record those rules make from
/// its spawns (1, 1, 0, 1), (2, 1, 1, 1) and (3, 2, 1, 2) up to [`TOP_2669`], in order.
fn records_2669() -> Vec<[i64; 4]> {
    let mut all: BTreeSet<[i64; 4]> = [[1, 1, 0, 1], [2, 1, 1, 1], [3, 2, 1, 2]].into();
    loop {
        let worths: HashSet<i64> = all.iter().map(|t| t[0]).collect();
        let mut fresh = Vec::new();
        for &[v, p, q, s] in &all {
            if s < 2 && worths.contains(&q) && v + q <= TOP_2669 {
                fresh.push([v + q, v, q, s + 1]);
            }
            if worths.contains(&p) && v + p <= TOP_2669 {
                fresh.push([v + p, v, p, 1]);
            }
        }
        fresh.retain(|t| !all.contains(t));
        if fresh.is_empty() {
            return all.into_iter().collect();
        }
        all.extend(fresh);
    }
}

/// 2669's variant file (format 3: records listed, rules as expressions of their fields).
fn file_2669() -> String {
    let records = records_2669();
    for &[v, p, q, _] in &records {
        assert_eq!(v, p + q, "2669: a tile is worth the sum of its two numbers");
    }
    let list: Vec<String> = records
        .chunks(8)
        .map(|row| {
            let items: Vec<String> = row.iter().map(|r| compact(&json!(r))).collect();
            format!("      {}", items.join(", "))
        })
        .collect();
    let win: Vec<String> = records
        .iter()
        .filter(|r| r[0] == 2669)
        .map(|[v, p, q, s]| format!("({v}, {p}, {q}, {s})"))
        .collect();
    let description = format!(
        "Each tile remembers the two numbers it was made of: 13(8+5) is a 13 made when an 8 took a 5. A tile takes a tile next to it, on either side, that is worth its second number (13(8+5) takes a 5, making 18(13+5)), unless it took that number on its last two merges, as a * says (18(13+5*) takes no 5); or one worth its first number (13(8+5) takes an 8, making 21(13+8)). A merge scores the tile it makes. Make 2669 to win. Tiles go up to {}. Mode 85 of the 2048 Power Compendium.",
        TOP_2669
    );
    let rules = [
        json!({"tiles": ["a", "b"], "when": ["b.v = a.q", "a.s < 2"], "makes": "(a.v + b.v, a.v, a.q, a.s + 1)", "any_order": true}),
        json!({"tiles": ["a", "b"], "when": ["b.v = a.p"], "makes": "(a.v + b.v, a.v, a.p, 1)", "any_order": true}),
    ];
    let rules: Vec<String> = rules
        .iter()
        .map(|r| format!("    {}", compact(r)))
        .collect();
    format!(
        r#"{{
  "format": 3,
  "id": "2669",
  "title": "2669",
  "description": {},
  "side": 4,
  "tiles": {{
    "records": {{"fields": ["v", "p", "q", "s"], "list": [
{}
    ]}},
    "worth": "v",
    "label": [{{"if": "s = 2", "text": "{{v}}({{p}}+{{q}}*)"}}, {{"text": "{{v}}({{p}}+{{q}})"}}]
  }},
  "merges": [
{}
  ],
  "motion": "slide",
  "spawn": {{"weights": {{"(1, 1, 0, 1)": 85, "(2, 1, 1, 1)": 10, "(3, 2, 1, 2)": 5}}}},
  "spawn_at": "anywhere",
  "start": 2,
  "preview": false,
  "win": {},
  "score": "merges"
}}
"#,
        json!(description),
        list.join(",\n"),
        rules.join(",\n"),
        compact(&json!(win)),
    )
}

#[test]
fn the_2669_file_is_what_its_generator_makes() {
    let text = file_2669();
    let variant = Variant::from_text(&text).unwrap_or_else(|e| panic!("2669: {e}"));
    let records = records_2669();
    assert_eq!(
        variant.tiles.len(),
        records.len(),
        "2669: every record a tile"
    );
    assert_eq!(
        variant.win.values().len(),
        6,
        "2669: the six tiles worth 2669 win"
    );
    eprintln!("2669 (mode 85): {} records to {TOP_2669}", records.len());
    let path = variants_folder().join("2669.json");
    if std::env::var("TILEBOX_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    } else {
        assert!(
            std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()),
            "{} is not what tests/compendium_generated.rs makes; regenerate with \
             TILEBOX_BLESS=1 cargo test -p tilebox-sliding --test compendium_generated",
            path.display()
        );
    }
}
