//! The catalogue of games Tilebox ships: each game kind with its front end (how to play, its
//! colours, its assistant), and the entries the hosts list.
//!
//! Hosts (the app, the CLI) take their games from [`registry`] and nowhere else. Adding a preset
//! of a kind is one `.preset` line below; adding a game kind is its crate plus one `.kind` (or
//! `.with`, for the plain front end) line.

mod sliding;
mod strike9;

use std::path::Path;
use std::sync::Arc;

use tilebox_ai::ntuple::players::Players;
use tilebox_core::{EntryInfo, Puzzle, Registry, Renamed};
use tilebox_sliding::{
    Bases, Builtin, Loaded, Refusal, Sliding, VariantError, builtin, builtins, load_dir, load_texts,
};
use tilebox_strike9::{OneDie, Scoring, Strike9, Strike9Params};

pub use sliding::{
    HEURISTIC, NETWORK, SlidingAssistant, SlidingFrontEnd, generated_colors, how_to_play, this_move,
};
pub use strike9::Strike9FrontEnd;

/// Every game, in the order the launcher and `tilebox-cli list` show them.
pub fn registry() -> Registry {
    register(Registry::new())
}

/// [`registry`] with a player's own variants: the `*.json` files in `dir` (a missing folder
/// is none), added after the built-ins, each in the group of the root of its `based_on` chain.
/// A file refused (it can't be read, breaks a rule, or its id is taken) is left out and reported
/// with one line naming the file and the field.
///
/// A file whose id a built-in added since has taken keeps its game under a new id
/// ([`tilebox_sliding::renamed_id`]), recorded in the registry ([`Registry::renamed`]) with the
/// notice a host says once.
pub fn registry_with_variants(dir: &Path) -> (Registry, Vec<Refusal>) {
    with_variants(registry(), builtins(), dir)
}

/// [`registry_with_variants`] whose sliding games' assistant plays a 4×4 variant with its
/// trained network when `players` has one (`tilebox-cli train`), and with the heuristic
/// otherwise.
pub fn registry_with_players(dir: &Path, players: Arc<Players>) -> (Registry, Vec<Refusal>) {
    let registry = register_with(Registry::new(), SlidingFrontEnd::with_players(players));
    with_variants(registry, builtins(), dir)
}

/// [`registry_with_variants`] over files already read, each file's name and text: a browser
/// page's player files, kept in its storage.
pub fn registry_with_variant_texts(
    files: impl IntoIterator<Item = (String, String)>,
) -> (Registry, Vec<Refusal>) {
    let loaded = load_texts(files, builtins());
    with_loaded(registry(), loaded)
}

/// `registry`, which holds the built-ins `builtins`, with the player's variant files in `dir`.
/// A built-in is read only if a file is based on it.
fn with_variants(
    registry: Registry,
    builtins: &(impl Bases + ?Sized),
    dir: &Path,
) -> (Registry, Vec<Refusal>) {
    with_loaded(registry, load_dir(dir, builtins))
}

/// `registry` with the player's variants `loaded`, and the files refused.
fn with_loaded(
    mut registry: Registry,
    (loaded, mut refused): (Vec<Loaded>, Vec<Refusal>),
) -> (Registry, Vec<Refusal>) {
    // The titles of the games a file's group may be named after: the registry's and the files'.
    let titles: Vec<(String, String)> = registry
        .entries()
        .iter()
        .filter(|e| e.is::<Sliding>())
        .map(|e| (e.id().to_string(), e.title().to_string()))
        .chain(
            loaded
                .iter()
                .map(|l| (l.id.clone(), l.variant.title.clone())),
        )
        .collect();
    for l in loaded {
        let root_title = titles
            .iter()
            .find(|(id, _)| *id == l.root)
            .map(|(_, title)| title.as_str());
        let info = variant_info(
            &l.id,
            &l.variant.title,
            &l.variant.description,
            &l.root,
            root_title,
        );
        let renamed = (l.id != l.variant.id).then(|| Renamed {
            from: l.variant.id.clone(),
            to: l.id.clone(),
            notice: format!(
                "Your variant variants/{} is now the game \"{}\": a built-in game took its id \
                 \"{}\"; its game in progress, scores and history went with it (the file is \
                 left as it is).",
                l.file, l.id, l.variant.id
            ),
        });
        // Its codes name the built-in at the root of its chain (2048 when it has none), which
        // every Tilebox has, with the rules where they differ from it.
        let base = if builtin(&l.root).is_some() {
            l.root.as_str()
        } else {
            Sliding::INFO.id
        };
        match registry.add_preset::<Sliding>(info, l.variant) {
            Ok(()) => {
                registry.set_code_base(&l.id, base);
                if let Some(renamed) = renamed {
                    registry.rename(renamed);
                }
            }
            Err(e) => refused.push(Refusal {
                file: l.file,
                error: VariantError::field("id", e.to_string()),
            }),
        }
    }
    (registry, refused)
}

/// The entry info of the variant `id`, named `title` and `description`, in the group of
/// `root`, the root of its `based_on` chain, titled `root_title` (its own title when it is its
/// own root): the Compendium's modes, and files based on them, are in
/// [`tilebox_sliding::COMPENDIUM`]'s group, under their page.
fn variant_info(
    id: &str,
    title: &str,
    description: &str,
    root: &str,
    root_title: Option<&str>,
) -> EntryInfo {
    let (group, section) = match tilebox_sliding::builtin_group(root) {
        Some((group, page)) => (group.to_string(), Some(page.to_string())),
        None => (root_title.unwrap_or(title).to_string(), None),
    };
    EntryInfo {
        id: id.to_string(),
        title: title.to_string(),
        description: description.to_string(),
        group,
        section,
    }
}

/// `registry` with the built-in sliding variants added: the kind's standard entry is the
/// original 2048 ([`Sliding::INFO`]), every other built-in a preset in its group, whose file is
/// read when something first needs its rules ([`Registry::lazy_preset_in`]), so that listing
/// the games reads none.
fn with_builtin_variants(mut registry: Registry) -> Registry {
    for b in builtins().iter().filter(|b| b.id() != Sliding::INFO.id) {
        let root_title = builtin(b.root()).map(Builtin::title);
        let info = variant_info(b.id(), b.title(), b.description(), b.root(), root_title);
        // No sliding game has a lower best score: the kind keeps `Puzzle::lower_is_better`'s
        // default (a test holds every entry to it).
        registry = registry.lazy_preset_in::<Sliding>(info, false, move || b.variant().clone());
    }
    registry
}

/// `registry` with every game Tilebox ships added after what it holds (a test adds a kind of
/// its own to the real catalogue this way).
pub fn register(registry: Registry) -> Registry {
    register_with(registry, SlidingFrontEnd::default())
}

/// [`register`] with this front end for the sliding games.
#[rustfmt::skip]
fn register_with(registry: Registry, sliding: SlidingFrontEnd) -> Registry {
    with_builtin_variants(registry.kind::<Sliding>(sliding))
        .kind::<Strike9>(Strike9FrontEnd)
        .preset::<Strike9>("shut-the-box", "Shut the Box", "The pub game: one die once 7, 8 and 9 are shut; lowest total left wins.", Strike9Params { one_die: OneDie::HighShut, score: Scoring::Golf, ..Strike9Params::default() })
        .preset::<Strike9>("full-house", "Full House", "Twelve tiles and two dice: shut them all.", Strike9Params { tiles: 12, ..Strike9Params::default() })
}

#[cfg(test)]
mod tests {
    use tilebox_core::{GameCode, Puzzle};

    use super::*;

    /// The boards the 2048 seam issue asks for, each an entry of the sliding kind in 2048's
    /// group (more may come: this checks these are there, not that nothing else is).
    #[test]
    fn the_2048_sizes_are_presets_grouped_under_2048() {
        let registry = registry();
        let required = [
            ("2048", 4, 2048),
            ("2048-3x3", 3, 512),
            ("2048-5x5", 5, 2048),
            ("2048-6x6", 6, 2048),
            ("2048-8x8", 8, 2048),
        ];
        let group = registry
            .groups()
            .into_iter()
            .find(|(title, _)| *title == "2048")
            .map(|(_, members)| members)
            .expect("a 2048 group");
        for (id, side, win) in required {
            let entry = registry.get(id).expect(id);
            let params = entry.params::<Sliding>().expect("a sliding entry");
            assert_eq!(
                (params.side, params.win.lowest()),
                (side, Some(win)),
                "{id}"
            );
            let index = registry.entries().iter().position(|e| e.id() == id);
            assert!(group.contains(&index.unwrap()), "{id} is in 2048's group");
        }
        // Every entry of the kind starts a game on a board of its own side.
        for entry in registry.entries().iter().filter(|e| e.is::<Sliding>()) {
            let side = entry.params::<Sliding>().unwrap().side;
            let game = entry.new_session(1).unwrap();
            let rows = game.state_json()["board"].as_array().unwrap().len();
            assert_eq!(rows, side, "{}", entry.id());
        }
    }

    /// Every built-in entry says, without reading its file, the names its variant gives and
    /// what the kind says of whether its lower score is the better.
    #[test]
    fn every_builtin_entry_has_its_variants_names_and_lower_is_better() {
        let registry = registry();
        for b in builtins() {
            let entry = registry.get(b.id()).unwrap();
            let v = entry.params::<Sliding>().expect("a sliding entry");
            let info = entry.info();
            assert_eq!(
                (info.id.as_str(), info.title.as_str()),
                (v.id.as_str(), v.title.as_str())
            );
            assert_eq!(info.description, v.description);
            assert_eq!(entry.lower_is_better(), Sliding::lower_is_better(v));
        }
    }

    /// Writes three files of a player's in `dir`: `my-fib`, based on 2584 on a 5×5 board;
    /// `my-fib-6`, based on it on 6×6; and `own`, 2187's rules written out in full.
    fn write_players_files(dir: &std::path::Path) {
        let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
        write(
            "a.json",
            r#"{"format": 1, "id": "my-fib", "title": "My Fibonacci", "description": "Mine.", "based_on": "2584", "side": 5}"#,
        );
        write(
            "b.json",
            r#"{"format": 1, "id": "my-fib-6", "title": "Mine on 6x6", "based_on": "my-fib", "side": 6}"#,
        );
        let mut own = tilebox_sliding::builtin_variant("2187").unwrap().to_json();
        own["id"] = serde_json::json!("own");
        own["title"] = serde_json::json!("Own");
        write("c.json", &own.to_string());
    }

    /// A player's files join the catalogue after the built-ins, each in the group of the root
    /// of its `based_on` chain (a fully written file heads its own); a bad file is refused with
    /// one line and the others still load.
    #[test]
    fn a_players_variants_join_the_registry_in_their_groups() {
        let dir = empty_dir("variants");
        write_players_files(&dir);
        std::fs::write(
            dir.join("d.json"),
            r#"{"format": 1, "id": "bad", "based_on": "2048", "side": 9}"#,
        )
        .unwrap();
        let (registry, refused) = registry_with_variants(&dir);
        let lines: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(lines, ["d.json: side: 9 is not from 2 to 8"]);
        let group_of = |id: &str| registry.get(id).unwrap().info().group.clone();
        assert_eq!(group_of("my-fib"), "2584");
        assert_eq!(group_of("my-fib-6"), "2584");
        assert_eq!(group_of("own"), "Own");
        assert_eq!(group_of("2048-5x5"), "2048");
        assert_eq!(group_of("threes"), "Threes");
        let game = registry.get("my-fib-6").unwrap().new_session(1).unwrap();
        assert_eq!(game.state_json()["board"].as_array().unwrap().len(), 6);
        assert_eq!(game.save().game, "my-fib-6");
        assert_eq!(
            registry.entries().len(),
            super::registry().entries().len() + 3
        );
        // A missing folder gives the built-ins alone.
        std::fs::remove_dir_all(&dir).unwrap();
        let (registry, refused) = registry_with_variants(&dir);
        assert!(refused.is_empty());
        assert_eq!(registry.ids(), super::registry().ids());
    }

    /// The same files given as texts (a browser page's storage) make the same registry and the
    /// same refusals as in a folder.
    #[test]
    fn a_players_variants_as_texts_join_the_registry_as_from_a_folder() {
        let dir = empty_dir("variant-texts");
        write_players_files(&dir);
        std::fs::write(
            dir.join("d.json"),
            r#"{"format": 1, "id": "bad", "side": 9}"#,
        )
        .unwrap();
        let mut texts: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        // Not in the folder's order, and a file that is not a variant.
        texts.sort();
        texts.reverse();
        texts.push(("notes.txt".to_string(), "not json".to_string()));
        let (from_folder, refused_in_folder) = registry_with_variants(&dir);
        let (from_texts, refused_in_texts) = registry_with_variant_texts(texts);
        assert_eq!(from_texts.ids(), from_folder.ids());
        assert!(from_texts.get("my-fib-6").is_some());
        let lines = |r: &[Refusal]| r.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(lines(&refused_in_texts), lines(&refused_in_folder));
        assert_eq!(lines(&refused_in_texts).len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A player's variant's code names the built-in at the root of its `based_on` chain (2048
    /// for a fully written file) with the rules where they differ, its names left out: it plays
    /// the same game where the file is not, and in the file's game where it is.
    #[test]
    fn a_players_variants_code_names_its_built_in_and_plays_anywhere() {
        let dir = empty_dir("variant-codes");
        write_players_files(&dir);
        let (registry, refused) = registry_with_variants(&dir);
        assert!(refused.is_empty(), "{refused:?}");
        let elsewhere = super::registry();
        // The same game, whatever the entry it is played under.
        let unnamed = |mut state: serde_json::Value| {
            state.as_object_mut().unwrap().remove("game");
            state
        };
        // The fully written file carries every rule of 2187 that 2048 has otherwise, and
        // nothing else: no id, title, description or format (2187's side and start are 2048's).
        let rules_2187 = tilebox_sliding::builtin_variant("2187").unwrap().to_json();
        let own: serde_json::Map<String, serde_json::Value> = ["win", "spawn", "merges", "tiles"]
            .into_iter()
            .map(|field| (field.to_string(), rules_2187[field].clone()))
            .collect();
        for (id, base, params) in [
            ("my-fib", "2584", serde_json::json!({"side": 5})),
            ("my-fib-6", "2584", serde_json::json!({"side": 6})),
            ("own", "2048", serde_json::Value::Object(own)),
        ] {
            let game = registry.get(id).unwrap().new_session(7).unwrap();
            let code = registry.code_of(&*game);
            assert_eq!(code.entry, base, "{id}");
            assert_eq!(code.params, Some(params), "{id}");
            let read: GameCode = code.to_string().parse().unwrap();
            let here = registry.start_code(&read).unwrap();
            assert_eq!(here.entry().id(), id, "{id}: {code}");
            assert_eq!(here.state_json(), game.state_json(), "{id}");
            let there = elsewhere.start_code(&read).unwrap();
            assert_eq!(there.entry().id(), base, "{id}");
            assert_eq!(
                unnamed(there.state_json()),
                unnamed(game.state_json()),
                "{id}"
            );
        }
        // The built-ins' codes are as they were.
        let five = registry.get("2048-5x5").unwrap().new_session(7).unwrap();
        assert_eq!(registry.code_of(&*five), GameCode::of(&*five));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every combination of Strike 9's options is a game of its own, apart from those a named
    /// entry plays: the ids are unique and stable, the params are those picked, and a game
    /// starts and saves under the combination's id.
    #[test]
    fn every_combination_of_strike9s_options_is_an_entry_unless_a_named_one_plays_it() {
        let registry = registry();
        let combos = registry.combinations();
        let named: Vec<Strike9Params> = registry
            .entries()
            .iter()
            .filter_map(|e| e.params::<Strike9>().copied())
            .collect();
        let mut expected: Vec<Strike9Params> = Strike9Params::every()
            .filter(|p| !named.contains(p))
            .collect();
        let mut got: Vec<Strike9Params> = combos
            .iter()
            .map(|e| *e.params::<Strike9>().expect("a Strike 9 entry"))
            .collect();
        let key = |p: &Strike9Params| serde_json::to_string(p).unwrap();
        expected.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, expected);
        for entry in &combos {
            let params = entry.params::<Strike9>().unwrap();
            let id = format!(
                "strike9-{}-{}-{}",
                params.tiles,
                serde_json::to_value(params.one_die)
                    .unwrap()
                    .as_str()
                    .unwrap(),
                serde_json::to_value(params.score)
                    .unwrap()
                    .as_str()
                    .unwrap()
            );
            assert_eq!(entry.id(), id);
            assert!(registry.get(&id).is_none(), "{id} is not a listed entry");
            assert_eq!(entry.info().group, Strike9::INFO.title);
            let game = entry.new_session(3).unwrap();
            assert_eq!(game.save().game, id);
            assert_eq!(entry.load(&game.save()).unwrap().text(), game.text());
        }
        let ids: Vec<&str> = combos.iter().map(|e| e.id()).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        // Kinds without options have no combinations.
        assert!(combos.iter().all(|e| e.is::<Strike9>()));
    }

    /// An empty folder of this test process's own, named `what`.
    fn empty_dir(what: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tilebox-games-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A fresh folder of variants holding one player's file, `mine.json`: the variant `id`,
    /// titled "My <id>", 2584's rules on a 5×5 board.
    fn own_file(what: &str, id: &str) -> std::path::PathBuf {
        let dir = empty_dir(what);
        let text = format!(
            r#"{{"format": 1, "id": "{id}", "title": "My {id}", "based_on": "2584", "side": 5}}"#
        );
        std::fs::write(dir.join("mine.json"), text).unwrap();
        dir
    }

    /// The one rename of the id `from` in `registry`.
    fn the_rename_of(registry: &Registry, from: &str) -> Renamed {
        let all: Vec<Renamed> = registry
            .renamed()
            .into_iter()
            .filter(|r| r.from == from)
            .collect();
        assert_eq!(all.len(), 1, "{all:?}");
        all[0].clone()
    }

    /// A built-in added in a later release that takes the id of a player's variant file
    /// (`12345`, an id no built-in has, stands for it here): the file's game keeps its rules under a new id, said in a
    /// notice; the game in progress saved under the old id loads there, and so do the lines of
    /// history by their params, while the built-in's own games stay the built-in's.
    #[test]
    fn a_players_game_whose_id_a_new_builtin_takes_stays_reachable_under_a_new_id() {
        let dir = own_file("renamed", "12345");
        // Today's release: the player's game is `12345`, with a game in progress.
        let (before, refused) = registry_with_variants(&dir);
        assert!(refused.is_empty(), "{refused:?}");
        assert!(before.renamed().iter().all(|r| r.from != "12345"));
        let mut game = before.get("12345").unwrap().new_session(7).unwrap();
        for mv in ["left", "up", "right", "down", "left", "up"] {
            let _ = game.play_text(mv);
        }
        assert!(game.move_count() > 0);
        let saved = game.save();
        assert_eq!(saved.game, "12345");

        // A later release with a built-in `12345`.
        let mut later = tilebox_sliding::builtin_variant("2048").unwrap();
        later.id = "12345".into();
        later.title = "12345".into();
        let info = variant_info("12345", "12345", &later.description, "12345", None);
        let with_it = registry().preset_in::<Sliding>(info, later.clone());
        let mut all = tilebox_sliding::builtin_variants();
        all.push(later);
        let (after, refused) = with_variants(with_it, all.as_slice(), &dir);
        assert!(refused.is_empty(), "{refused:?}");
        let renamed = [the_rename_of(&after, "12345")];
        assert_eq!(renamed[0].to, "12345-own");
        assert!(
            renamed[0].notice.contains("variants/mine.json"),
            "{renamed:?}"
        );
        assert!(!renamed[0].notice.contains('\n'));
        let own = after.get("12345-own").unwrap();
        assert_eq!(own.title(), "My 12345");
        assert_eq!(own.info().group, "2584");
        assert_eq!(after.get("12345").unwrap().title(), "12345");
        // The game in progress loads under the new id, the same game.
        let loaded = after.load(&saved).unwrap();
        assert_eq!(loaded.entry().id(), "12345-own");
        assert_eq!(loaded.text(), game.text());
        assert_eq!(loaded.save().game, "12345-own");
        // A line of history (a game's id and params) goes the same way; the built-in's own
        // games stay its own.
        let record = |g: &dyn tilebox_core::DynSession| {
            after
                .entry_for(&g.save().game, &g.params_json())
                .map(|e| e.id().to_string())
        };
        assert_eq!(record(&*game).as_deref(), Some("12345-own"));
        let theirs = after.get("12345").unwrap().new_session(7).unwrap();
        assert_eq!(record(&*theirs).as_deref(), Some("12345"));
        assert_eq!(after.load(&theirs.save()).unwrap().entry().id(), "12345");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The Compendium's modes took ids players could have used: a player's own `3125` keeps its
    /// game under `3125-own`, said once, and `3125` is the Compendium's.
    #[test]
    fn a_players_3125_is_kept_under_3125_own_beside_the_compendiums() {
        let dir = own_file("own-3125", "3125");
        let (registry, refused) = registry_with_variants(&dir);
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(the_rename_of(&registry, "3125").to, "3125-own");
        let own = registry.get("3125-own").unwrap();
        assert_eq!(
            (own.title(), own.info().group.as_str()),
            ("My 3125", "2584")
        );
        let theirs = registry.get("3125").unwrap();
        assert_eq!(theirs.info().group, tilebox_sliding::COMPENDIUM);
        assert_eq!(
            theirs.params::<Sliding>(),
            tilebox_sliding::builtin_variant("3125").as_ref()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A preset added in a later release that plays a combination of Strike 9's options takes
    /// the combination's games: its id is renamed to the preset's, and its saves and codes
    /// start there.
    #[test]
    fn a_combination_a_new_preset_plays_is_renamed_to_the_preset() {
        let before = registry();
        let combination = before
            .combinations()
            .into_iter()
            .find(|e| e.id() == "strike9-12-never-golf")
            .expect("a combination of today's options");
        let mut game = combination.new_session(5).unwrap();
        let mv = game.legal_moves().first().cloned().unwrap();
        game.play_text(&mv).unwrap();
        let saved = game.save();
        let code = tilebox_core::GameCode::of(&*game);
        assert_eq!(code.entry, "strike9-12-never-golf");

        let params = *combination.params::<Strike9>().unwrap();
        let after = registry().preset::<Strike9>("twelve-golf", "Twelve Golf", "New.", params);
        assert!(
            after
                .combinations()
                .iter()
                .all(|e| e.id() != combination.id())
        );
        let renamed = [the_rename_of(&after, "strike9-12-never-golf")];
        assert_eq!(renamed[0].to, "twelve-golf");
        assert!(renamed[0].notice.contains("Twelve Golf"), "{renamed:?}");
        assert_eq!(
            after
                .entry_or_combination("strike9-12-never-golf")
                .map(|e| e.id().to_string())
                .as_deref(),
            Some("twelve-golf")
        );
        let loaded = after.load(&saved).unwrap();
        assert_eq!(loaded.entry().id(), "twelve-golf");
        assert_eq!(loaded.text(), game.text());
        let started = after.start_code(&code).unwrap();
        assert_eq!(started.entry().id(), "twelve-golf");
        assert_eq!(started.seed(), 5);
        // Today's named entries' own combinations are renamed too, which nothing ever used.
        assert!(before.renamed().iter().all(|r| before.get(&r.to).is_some()));
    }
}
