//! The built-in variants: the data files in `crates/tilebox-sliding/variants/`, compiled in and
//! read by the same code as a player's own files ([`crate::load`]).

use std::sync::OnceLock;

use crate::Rules;
use crate::load::{Loaded, resolve_all};
use crate::variant::{Movement, Scoring, Spawn, SpawnAt, Variant, Win};

/// The built-in files, in launcher order: file name and text. Adding one is a line here; the
/// tests find each built-in by its id, never by its place in this list.
pub(crate) const FILES: &[(&str, &str)] = &[
    ("2048.json", include_str!("../variants/2048.json")),
    ("2048-3x3.json", include_str!("../variants/2048-3x3.json")),
    ("2048-5x5.json", include_str!("../variants/2048-5x5.json")),
    ("2048-6x6.json", include_str!("../variants/2048-6x6.json")),
    ("2048-8x8.json", include_str!("../variants/2048-8x8.json")),
    ("threes.json", include_str!("../variants/threes.json")),
    ("2584.json", include_str!("../variants/2584.json")),
    ("2187.json", include_str!("../variants/2187.json")),
    ("1024.json", include_str!("../variants/1024.json")),
];

/// The group of the 2048 Power Compendium's modes in the launcher.
pub const COMPENDIUM: &str = "2048 Power Compendium";

/// The headings of the Compendium's four menu pages, in our words.
pub const COMPENDIUM_PAGES: [&str; 4] = [
    "Page 1: powers of numbers",
    "Page 2: other ladders",
    "Page 3: many ways to merge",
    "Page 4: odd rules",
];

/// A Compendium mode's entry of [`COMPENDIUM_FILES`]: its file's name and text, and its page.
macro_rules! mode {
    ($id:literal, $page:literal) => {
        (
            concat!($id, ".json"),
            include_str!(concat!("../variants/", $id, ".json")),
            $page,
        )
    };
}

/// The 2048 Power Compendium's modes that are built-ins of their own, in its menu order, each
/// with the page of its menu it is on (`2187`, `1024` and `2584`, its modes 2, 3 and 26, came
/// first and stay in [`FILES`]). Each agrees with the Compendium's own engine move by move:
/// `tests/compendium.rs`.
pub(crate) const COMPENDIUM_FILES: &[(&str, &str, usize)] = &[
    mode!("2048-pc", 1),
    mode!("3125", 1),
    mode!("1296", 1),
    mode!("2401", 1),
    mode!("4096", 1),
    mode!("6561", 1),
    mode!("1000", 1),
    mode!("1331", 1),
    mode!("1728", 1),
    mode!("2047", 1),
    mode!("2186", 1),
    mode!("2049", 1),
    mode!("5040", 1),
    mode!("2197", 1),
    mode!("3375", 1),
    mode!("4913", 1),
    mode!("8000", 1),
    mode!("9261", 1),
    mode!("625", 1),
    mode!("900", 1),
    mode!("2059", 1),
    mode!("2315", 1),
    mode!("2745", 2),
    mode!("1705", 2),
    mode!("2378", 2),
    mode!("2583", 2),
    mode!("harder-3125", 2),
    mode!("easier-2401", 2),
    mode!("harder-3375", 2),
    mode!("2131", 2),
    mode!("3072", 2),
    mode!("interleaved-3125", 2),
    mode!("interleaved-3375", 2),
    mode!("interleaved-5832", 2),
    mode!("bicolor-2187", 2),
    mode!("bicolor-2584", 2),
    mode!("1535-1536-1537", 2),
    mode!("1093-1094", 2),
    mode!("1365-1366", 2),
    mode!("2310", 2),
    mode!("3120", 2),
    mode!("180", 2),
    mode!("3888", 3),
    mode!("2000", 3),
    mode!("3645", 3),
    mode!("2700", 3),
    mode!("2205", 3),
    mode!("2496", 3),
    mode!("3026", 3),
    mode!("10", 3),
    mode!("1716", 4),
    mode!("16-16i", 4),
    mode!("partial-absorb-243", 4),
    mode!("partial-absorb-377", 4),
    mode!("partial-absorb-257", 4),
    mode!("partial-absorb-270", 4),
    mode!("partial-absorb-361", 4),
    mode!("2216-838", 4),
    mode!("3-188-646", 4),
    mode!("2592", 4),
    mode!("2295", 4),
    mode!("directional-merges", 4),
];

/// The ids of the built-ins there were when players' own files came: a player's file could never
/// take one (it was refused, and still is). A built-in added since may take the id of a player's
/// file, whose game then keeps its rules under a new id ([`crate::load::renamed_id`]).
pub(crate) const FIRST_IDS: &[&str] = &[
    "2048", "2048-3x3", "2048-5x5", "2048-6x6", "2048-8x8", "threes", "2584", "2187", "1024",
];

/// The built-in variants with the root of each one's `based_on` chain, in launcher order.
pub fn builtins() -> &'static [Loaded] {
    all()
}

/// The built-ins, read once: every host asks for them often (a tile's colours ask which
/// ladder it is on), and reading the files each time would cost a frame its smoothness.
fn all() -> &'static [Loaded] {
    static ALL: OnceLock<Vec<Loaded>> = OnceLock::new();
    ALL.get_or_init(read_all)
}

/// Reads and resolves the built-in files. A file written out in full is read straight into its
/// [`Variant`] and checked ([`Variant::validate`]), the quick way: every start of the app and
/// of each `tilebox-cli` command reads them all, and the checks in words that a player's file
/// gets (which read it as JSON values first, three times slower) are for files a person
/// writes. The files based on another (2048's sizes) are resolved as a player's are, over the
/// full ones; a full file that does not read the quick way goes that way too. The order is
/// the files' own.
fn read_all() -> Vec<Loaded> {
    let files: Vec<(&str, &str)> = FILES
        .iter()
        .copied()
        .chain(COMPENDIUM_FILES.iter().map(|&(name, text, _)| (name, text)))
        .collect();
    let mut full: Vec<Loaded> = Vec::new();
    let mut rest = Vec::new();
    for &(name, text) in &files {
        match serde_json::from_str::<Variant>(text)
            .ok()
            .filter(|v| v.validate().is_ok())
        {
            Some(variant) => full.push(Loaded {
                id: variant.id.clone(),
                root: variant.id.clone(),
                file: name.to_string(),
                variant,
            }),
            None => rest.push((name.to_string(), Ok(text.to_string()))),
        }
    }
    // The files based on another are 2048's sizes, based on 2048; the bases offered are the
    // first built-ins, not the Compendium's (the test below holds the reading to the player's).
    let bases: Vec<Variant> = full
        .iter()
        .filter(|l| FILES.iter().any(|&(name, _)| name == l.file))
        .map(|l| l.variant.clone())
        .collect();
    let (based, refused) = resolve_all(rest, &bases);
    // The files are part of the build and tested; a refusal here is a bug caught by the tests.
    debug_assert!(refused.is_empty(), "{refused:?}");
    let mut loaded: Vec<Loaded> = full.into_iter().chain(based).collect();
    loaded.sort_by_key(|l| files.iter().position(|&(name, _)| name == l.file));
    loaded
}

/// The launcher group of the built-in `id` when it is not its own, and the heading it is listed
/// under there: [`COMPENDIUM`] and its menu page for the Compendium's modes. `None` for any
/// other id.
pub fn builtin_group(id: &str) -> Option<(&'static str, &'static str)> {
    COMPENDIUM_FILES
        .iter()
        .find(|(name, _, _)| name.strip_suffix(".json") == Some(id))
        .and_then(|&(_, _, page)| COMPENDIUM_PAGES.get(page.wrapping_sub(1)))
        .map(|&page| (COMPENDIUM, page))
}

/// Every built-in variant, in launcher order: `2048`, its sizes, `threes`, `2584`, `2187`,
/// `1024`.
pub fn builtin_variants() -> Vec<Variant> {
    all().iter().map(|l| l.variant.clone()).collect()
}

/// The built-in variant `id`, if there is one: how tests and tools pick a built-in (never by its
/// place in the list, which grows).
pub fn builtin_variant(id: &str) -> Option<Variant> {
    all()
        .iter()
        .find(|l| l.variant.id == id)
        .map(|l| l.variant.clone())
}

/// The ladder of the built-in variant `id` (its tile values), without copying it: how a host
/// tells a variant on 2048's or Threes' ladder, for each tile it draws.
pub fn builtin_ladder(id: &str) -> Option<&'static [u64]> {
    all()
        .iter()
        .find(|l| l.variant.id == id)
        .map(|l| l.variant.tiles.as_slice())
}

/// The compiled rules of the built-in variant `id`, compiled once and shared; `None` for an id
/// that is not a built-in.
pub fn builtin_rules(id: &str) -> Option<Rules> {
    static RULES: OnceLock<Vec<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            builtin_variants()
                .iter()
                .filter_map(|v| Rules::new(v).ok())
                .collect()
        })
        .iter()
        .find(|r| r.variant().id == id)
        .cloned()
}

/// The original 2048 ([`Variant`]'s default), read from its built-in file. Should the file ever
/// fail to read (the tests make sure it does not), the same game written out here.
pub(crate) fn standard() -> Variant {
    FILES
        .first()
        .and_then(|(_, text)| Variant::from_text(text).ok())
        .unwrap_or_else(|| Variant {
            format: crate::variant::FORMAT_1,
            id: "2048".into(),
            title: "2048".into(),
            description: "Slide the tiles and merge equal pairs to make a 2048 tile.".into(),
            side: 4,
            tiles: (1..=57).map(|k| 1u64 << k).collect(),
            merges: Vec::new(),
            motion: Movement::Slide,
            spawn: Spawn {
                weights: Some([(2, 9), (4, 1)].into_iter().collect()),
                bag: None,
                bonus: None,
            },
            spawn_at: SpawnAt::Anywhere,
            start: 2,
            preview: false,
            win: Win::one(2048),
            score: Scoring::Merges,
            labels: Vec::new(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::FIELDS;

    /// The quick reading of the built-in files is the one a player's files get: the same
    /// variants, roots, files and order.
    #[test]
    fn the_builtins_read_the_quick_way_are_what_the_players_reading_makes() {
        let files = FILES
            .iter()
            .copied()
            .chain(COMPENDIUM_FILES.iter().map(|&(name, text, _)| (name, text)))
            .map(|(name, text)| (name.to_string(), Ok(text.to_string())));
        let (slow, refused) = resolve_all(files, &[]);
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(slow.len(), FILES.len() + COMPENDIUM_FILES.len());
        assert_eq!(slow, builtins());
    }

    #[test]
    fn every_builtin_reads_in_launcher_order_and_its_full_form_round_trips() {
        let all = builtins();
        assert_eq!(
            all.len(),
            FILES.len() + COMPENDIUM_FILES.len(),
            "a built-in file is refused"
        );
        let ids: Vec<&str> = all.iter().map(|l| l.variant.id.as_str()).collect();
        assert_eq!(
            ids[..FILES.len()],
            [
                "2048", "2048-3x3", "2048-5x5", "2048-6x6", "2048-8x8", "threes", "2584", "2187",
                "1024"
            ]
        );
        let roots: Vec<&str> = all.iter().map(|l| l.root.as_str()).collect();
        assert_eq!(
            roots[..FILES.len()],
            [
                "2048", "2048", "2048", "2048", "2048", "threes", "2584", "2187", "1024"
            ]
        );
        // The Compendium's modes follow, each its own root, named by its file, in its group.
        for ((name, _, page), l) in COMPENDIUM_FILES.iter().zip(&all[FILES.len()..]) {
            assert_eq!(name.strip_suffix(".json"), Some(l.variant.id.as_str()));
            assert_eq!(l.root, l.variant.id);
            assert_eq!(
                builtin_group(&l.variant.id),
                Some((COMPENDIUM, COMPENDIUM_PAGES[page - 1]))
            );
        }
        // In menu order: the pages never go back.
        assert!(COMPENDIUM_FILES.windows(2).all(|w| w[0].2 <= w[1].2));
        assert_eq!(builtin_group("2584"), None);
        assert_eq!(builtin_group("2048"), None);
        for l in all {
            let json = l.variant.to_json();
            // Every field, and the optional ones a variant uses (format 2's labels).
            let optional = usize::from(!l.variant.labels.is_empty());
            assert_eq!(json.as_object().unwrap().len(), FIELDS.len() + optional);
            assert_eq!(
                Variant::from_json(json.as_object().unwrap()).unwrap(),
                l.variant
            );
        }
        assert_eq!(Variant::default(), all[0].variant);
        assert_eq!(standard(), all[0].variant);
    }

    #[test]
    fn the_table_of_variants_md() {
        let v = builtin_variants();
        let get = |id: &str| v.iter().find(|x| x.id == id).unwrap();
        assert_eq!(
            (get("2048-3x3").side, get("2048-3x3").win.lowest()),
            (3, Some(512))
        );
        for (id, side) in [("2048-5x5", 5), ("2048-6x6", 6), ("2048-8x8", 8)] {
            assert_eq!((get(id).side, get(id).win.lowest()), (side, Some(2048)));
            assert!(get("2048").same_rules(&Variant {
                side: 4,
                ..get(id).clone()
            }));
        }
        let t48 = get("2048");
        assert_eq!(t48.tiles.len(), 57);
        assert_eq!(t48.tiles[56], 1 << 57);
        let th = get("threes");
        assert_eq!(th.tiles.last(), Some(&12288));
        assert_eq!((th.win.lowest(), th.start, th.preview), (None, 9, true));
        assert_eq!(get("2584").tiles[..6], [1, 2, 3, 5, 8, 13]);
        assert!(get("2584").tiles.contains(&2584));
        assert_eq!(get("2187").tiles[..6], [1, 2, 3, 6, 9, 18]);
        assert!(get("2187").tiles.contains(&2187));
        assert_eq!(get("1024").tiles[..6], [1, 3, 4, 12, 16, 48]);
        assert_eq!(get("1024").side, 5);
        for x in &v {
            assert!(x.tiles.len() <= crate::variant::MAX_TILES);
            // A full 8×8 board of the top tile sums within a u64.
            assert!(
                x.tiles.last().unwrap().checked_mul(64).is_some(),
                "{}",
                x.id
            );
        }
    }
}
