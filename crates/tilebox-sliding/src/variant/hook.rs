//! Format 3's hooks: a rule no data of the format can say, written in Rust and named by a file
//! (`"hook": "dive"`), never defined by one. The list is closed: a file names one of
//! [`Hook::ALL`] or is refused.
//!
//! One hook exists, `dive`: the 2048 Power Compendium's DIVE (mode 50) keeps a pool of seeds,
//! the tiles that spawn. After every move that moved (before the spawn), each tile's residue,
//! the tile with every seed divided out as often as it goes, the largest seed first, joins the
//! pool when it is above 1; a seed of the pool before the move with no multiple left on the
//! board leaves it, scoring its value, unless every seed would leave (the pool counted with the
//! seeds that joined). Each spawn is drawn evenly from the pool. The pool starts as the spawn's
//! tiles (DIVE's `{"2": 1}`), and is part of the game's state.

use serde_json::{Map, Value};
use tilebox_core::json_words::quote;

use crate::variant::{FORMAT_3, Variant, VariantError, kind_of};

/// The field that names a hook.
pub const HOOK_FIELD: &str = "hook";

/// A hook: a named rule written in Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hook {
    /// DIVE's seed pool: spawns drawn evenly from it, residues joining it, seeds with no
    /// multiple leaving it and scoring their value.
    Dive,
}

impl Hook {
    /// Every hook, by the name a file gives it.
    pub const ALL: [(&'static str, Hook); 1] = [("dive", Hook::Dive)];

    /// The name a file gives it.
    pub fn name(self) -> &'static str {
        match self {
            Hook::Dive => "dive",
        }
    }

    /// Reads the `hook` field of a full form written in `format`, if it has one; the refusal
    /// names the field.
    pub fn read(map: &Map<String, Value>, format: u32) -> Result<Option<Hook>, VariantError> {
        let Some(v) = map.get(HOOK_FIELD) else {
            return Ok(None);
        };
        let err = |m: String| VariantError::field(HOOK_FIELD, m);
        if format < FORMAT_3 {
            return Err(err("needs \"format\": 3".into()));
        }
        let Value::String(name) = v else {
            return Err(err(format!(
                "{} is not a hook's name (text, such as \"dive\")",
                kind_of(v)
            )));
        };
        Self::ALL
            .iter()
            .find(|(n, _)| *n == name.as_str())
            .map(|&(_, h)| Some(h))
            .ok_or_else(|| {
                let known: Vec<String> = Self::ALL.iter().map(|(n, _)| quote(n)).collect();
                err(format!(
                    "{} is not a hook (the hooks: {})",
                    quote(name),
                    known.join(", ")
                ))
            })
    }

    /// Checks that `variant` gives the hook what it needs; the refusal names the field.
    pub fn check(self, variant: &Variant) -> Result<(), VariantError> {
        let err = |m: &str| VariantError::field(HOOK_FIELD, format!("\"{}\" {m}", self.name()));
        match self {
            Hook::Dive => {
                if variant
                    .tiles
                    .integer_range()
                    .is_none_or(|[from, _]| from < 1)
                {
                    return Err(err(
                        "needs tiles that are a range of positive integers ({\"integers\": [1, 65535]})",
                    ));
                }
                let weights = variant.spawn.weights.as_ref().filter(|w| !w.is_empty());
                let even = weights.is_some_and(|w| {
                    let first = w.values().next().copied();
                    w.values().all(|&x| Some(x) == first)
                });
                if variant.spawn.bag.is_some() || !even {
                    return Err(err(
                        "draws its spawns evenly from its pool of seeds, which starts as the \
                         spawn's tiles: give it weights, all equal ({\"weights\": {\"2\": 1}})",
                    ));
                }
                if variant.preview {
                    return Err(err(
                        "draws each tile as it spawns, from the pool of that move: no preview",
                    ));
                }
                Ok(())
            }
        }
    }
}

/// What remains of `tile` with every seed of `seeds` divided out of it as often as it goes, the
/// largest seed first (the Compendium's `DIVESeedUnlock`, its order 0); seeds below 2 are passed
/// over.
pub fn residue(tile: i64, seeds: &[i64]) -> i64 {
    let mut sorted: Vec<i64> = seeds.iter().copied().filter(|&s| s >= 2).collect();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut rest = tile.checked_abs().unwrap_or(0);
    if rest == 0 {
        return 1;
    }
    for s in sorted {
        while rest % s == 0 {
            rest /= s;
        }
    }
    rest
}

/// DIVE's pool after a move that moved: `tiles` are the numbers of the board's tiles in
/// row-major order (after the slide, before the spawn), `pool` the seeds before the move, in
/// their order. Returns the new pool (the seeds kept, in order, then those that joined, in the
/// order their tiles came) and the points the seeds that left score (their values).
pub fn dive_pool(tiles: &[i64], pool: &[i64]) -> (Vec<i64>, u64) {
    let mut joined: Vec<i64> = Vec::new();
    for &t in tiles.iter().filter(|&&t| t != 0) {
        let r = residue(t, pool);
        if r > 1 && !joined.contains(&r) {
            joined.push(r);
        }
    }
    let leaves = |s: i64| s != 0 && !tiles.iter().any(|&t| t != 0 && t % s == 0);
    let leaving = pool.iter().filter(|&&s| leaves(s)).count();
    let everyone = pool.len() + joined.len();
    let mut scored = 0u64;
    let mut next: Vec<i64> = Vec::with_capacity(everyone);
    for &s in pool {
        if leaving > 0 && leaving < everyone && leaves(s) {
            scored = scored.saturating_add(s.unsigned_abs());
        } else {
            next.push(s);
        }
    }
    next.extend(joined);
    (next, scored)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The reference: a residue by trial of every order of the seeds would differ; this one
    /// divides the largest first, as the Compendium's order 0 does.
    #[test]
    fn a_residue_divides_the_largest_seed_first() {
        assert_eq!(residue(12, &[2]), 3);
        assert_eq!(residue(48, &[4, 6]), 2, "48 / 6 = 8, 8 / 4 = 2");
        assert_eq!(residue(48, &[2, 3]), 1);
        assert_eq!(residue(35, &[2, 3]), 35);
        assert_eq!(residue(8, &[1, 2]), 1, "a seed of 1 is passed over");
        assert_eq!(residue(0, &[2]), 1);
        // No seed divides a residue.
        for t in 1..2000 {
            for pool in [&[2, 3][..], &[4, 6, 9], &[10, 4], &[7]] {
                let r = residue(t, pool);
                assert!(r >= 1 && t % r == 0);
                assert!(pool.iter().all(|&s| r % s != 0 || r == 1), "{t} {pool:?}");
            }
        }
    }

    #[test]
    fn residues_join_and_seeds_without_multiples_leave_scoring_their_value() {
        // 2 and 6 on the board, pool {2}: 6's residue 3 joins; 2 stays.
        assert_eq!(dive_pool(&[2, 0, 6], &[2]), (vec![2, 3], 0));
        // Pool {2, 3}, board 9 and 3: 2 has no multiple and leaves (scoring 2).
        assert_eq!(dive_pool(&[9, 3], &[2, 3]), (vec![3], 2));
        // Every seed would leave and none joins: all stay.
        assert_eq!(dive_pool(&[1], &[2, 3]), (vec![2, 3], 0));
        // Unless a seed joined: then they may all leave.
        assert_eq!(dive_pool(&[5], &[2, 3]), (vec![5], 5));
        assert_eq!(dive_pool(&[25], &[5]), (vec![5], 0));
        assert_eq!(dive_pool(&[7], &[2]), (vec![7], 2), "2 leaves: 7 joined");
        assert_eq!(dive_pool(&[3], &[2]), (vec![3], 2));
        assert_eq!(
            dive_pool(&[1], &[2]),
            (vec![2], 0),
            "1 adds nothing; 2 is all"
        );
        // Residues join once, in the order of their tiles.
        assert_eq!(dive_pool(&[10, 5, 20, 3], &[2]), (vec![2, 5, 3], 0));
    }

    fn dive() -> Variant {
        crate::builtin_variant("dive").unwrap()
    }

    /// A file of DIVE's with `change` laid over it, read.
    fn dive_with(change: Value) -> Result<Variant, String> {
        let mut json = dive().to_json();
        if let (Value::Object(map), Value::Object(change)) = (&mut json, change) {
            for (k, v) in change {
                if v.is_null() {
                    map.remove(&k);
                } else {
                    map.insert(k, v);
                }
            }
        }
        Variant::from_text(&json.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn dives_file_names_its_hook_and_writes_it_back() {
        let v = dive();
        assert_eq!(v.hook, Some(Hook::Dive));
        assert_eq!(v.to_json()["hook"], json!("dive"));
        assert_eq!(Variant::from_text(&v.to_json().to_string()).unwrap(), v);
        // Without its hook it is another game.
        let plain = dive_with(json!({"hook": null})).unwrap();
        assert!(!plain.same_rules(&v) && !plain.plays_like(&v));
        assert_eq!(plain.hook, None);
        // No other built-in names a hook.
        for b in crate::builtin_variants() {
            assert_eq!(b.hook.is_some(), b.id == "dive", "{}", b.id);
        }
    }

    #[test]
    fn every_misuse_of_a_hook_is_refused_in_one_line_naming_its_field() {
        for (change, want) in [
            (
                json!({"hook": "dove"}),
                "hook: \"dove\" is not a hook (the hooks: \"dive\")",
            ),
            (json!({"hook": 1}), "hook: 1 is not a hook's name"),
            (
                json!({"hook": ["dive"]}),
                "hook: a list is not a hook's name",
            ),
            (json!({"format": 2}), "hook: needs \"format\": 3"),
            (json!({"format": 1}), "hook: needs \"format\": 3"),
            (
                json!({"spawn": {"weights": {"2": 3, "3": 1}}}),
                "hook: \"dive\" draws its spawns evenly from its pool of seeds",
            ),
            (
                json!({"spawn": {"bag": {"2": 3}}}),
                "hook: \"dive\" draws its spawns evenly from its pool of seeds",
            ),
            (
                json!({"preview": true}),
                "hook: \"dive\" draws each tile as it spawns",
            ),
            (
                json!({"tiles": [2, 4, 8], "merges": [{"tiles": ["n", "n"], "makes": "n+1"}], "spawn": {"weights": {"2": 1}}}),
                "hook: \"dive\" needs tiles that are a range of positive integers",
            ),
            (
                json!({"tiles": {"integers": [-5, 100]}}),
                "hook: \"dive\" needs tiles that are a range of positive integers",
            ),
        ] {
            let got = dive_with(change.clone()).unwrap_err();
            assert!(got.contains(want), "{change}: {got}, wanted {want}");
            assert!(!got.contains('\n'), "{got}");
        }
        // The same file with its hook field refused by a file of its own, naming the file.
        let dir = std::env::temp_dir().join(format!("tilebox-hook-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("mine.json");
        let mut json = dive().to_json();
        json["hook"] = json!("mine");
        json["id"] = json!("mine");
        std::fs::write(&file, json.to_string()).unwrap();
        let got = crate::load::check_file(&file, &[])
            .map(|_| ())
            .unwrap_err()
            .to_string();
        std::fs::remove_dir_all(&dir).ok();
        assert!(
            got.starts_with("mine.json: hook: \"mine\" is not a hook"),
            "{got}"
        );
        assert!(!got.contains('\n'), "{got}");
    }

    /// A game of DIVE from `seed`, `moves` random legal moves long (fewer if it ends).
    fn dive_game(seed: u64, moves: usize) -> Vec<crate::SlidingState> {
        use tilebox_core::Puzzle;
        let v = dive();
        let mut state = crate::Sliding::new_game(&v, seed).unwrap();
        let mut rng = tilebox_core::GameRng::from_seed(seed ^ 0x5eed);
        let mut states = vec![state.clone()];
        for _ in 0..moves {
            let legal = crate::Sliding::legal_moves(&state);
            if legal.is_empty() {
                break;
            }
            state = crate::Sliding::apply(&state, &legal[rng.index(legal.len())]).unwrap();
            states.push(state.clone());
        }
        states
    }

    #[test]
    fn dive_spawns_from_its_pool_which_follows_the_board() {
        use tilebox_core::Puzzle;
        let mut grew = false;
        for seed in 0..30 {
            let states = dive_game(seed, 300);
            assert_eq!(
                states[0].pool(),
                vec![2],
                "the pool starts as the spawn's tiles"
            );
            for pair in states.windows(2) {
                let [before, after] = pair else { continue };
                // The pool after a move is dive_pool of the slid board and the pool before; the
                // spawn is one of its seeds; the score grows by the merges and the seeds that left.
                let rules = before.rules();
                let v = rules.variant();
                let cell = after.last_spawn().unwrap();
                let spawned = rules.value(after.board().rank(cell));
                assert!(
                    after.pool().contains(&spawned),
                    "{spawned} from {:?}",
                    after.pool()
                );
                let mut slid = after.board().clone();
                slid.set(cell, 0);
                let tiles: Vec<i64> = slid
                    .cells_with_ranks()
                    .map(|(_, r)| v.number(r).unwrap_or(0))
                    .collect();
                let pool_before: Vec<i64> = before.pool().iter().map(|&x| x as i64).collect();
                let (want, scored) = dive_pool(&tiles, &pool_before);
                let got: Vec<i64> = after.pool().iter().map(|&x| x as i64).collect();
                assert_eq!(got, want);
                assert!(after.score() >= before.score() + scored);
                grew |= after.pool().len() > 2;
                assert!(!after.pool().is_empty());
                let chances = after.spawn_chances();
                assert_eq!(chances.len(), after.pool().len());
                assert!((chances.iter().map(|c| c.1).sum::<f64>() - 1.0).abs() < 1e-9);
                assert_eq!(
                    crate::Sliding::view(after)["seeds"],
                    json!(after.pool()),
                    "the view shows the seeds"
                );
            }
        }
        assert!(grew, "some game's pool grows past two seeds");
    }

    #[test]
    fn the_same_seed_and_moves_give_the_same_dive_and_saves_and_undo_carry_its_pool() {
        for seed in 0..10 {
            let a = dive_game(seed, 150);
            let b = dive_game(seed, 150);
            assert_eq!(a, b);
            let last = crate::sliding::tests::saves_and_undo_round_trip(&dive(), seed, 120);
            assert!(
                !last.pool().is_empty(),
                "seed {seed}: a pool is never empty"
            );
        }
    }

    #[test]
    fn a_hook_is_named_never_defined() {
        let read = |v: Value, format: u32| {
            let Value::Object(map) = v else {
                unreachable!()
            };
            Hook::read(&map, format).map_err(|e| e.to_string())
        };
        assert_eq!(read(json!({"hook": "dive"}), 3), Ok(Some(Hook::Dive)));
        assert_eq!(read(json!({}), 3), Ok(None));
        for (v, format, want) in [
            (
                json!({"hook": "dives"}),
                3,
                "hook: \"dives\" is not a hook (the hooks: \"dive\")",
            ),
            (json!({"hook": "dive"}), 2, "hook: needs \"format\": 3"),
            (json!({"hook": "dive"}), 1, "hook: needs \"format\": 3"),
            (
                json!({"hook": {"fn": "x"}}),
                3,
                "hook: an object is not a hook's name (text, such as \"dive\")",
            ),
        ] {
            let got = read(v, format).unwrap_err();
            assert_eq!(got, want);
            assert!(!got.contains('\n'));
        }
    }
}
