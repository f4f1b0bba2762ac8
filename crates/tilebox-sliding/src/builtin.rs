//! The built-in variants: the data files in `crates/tilebox-sliding/variants/`, compiled in and
//! read by the same code as a player's own files ([`crate::load`]). Their names are read when
//! the crate is built (`build.rs`), so that every start lists them without reading one; a
//! built-in's file is read when something first needs its rules ([`Builtin::variant`]).

use std::fmt;
use std::sync::OnceLock;

use crate::Rules;
use crate::variant::{
    BASED_ON, MergeRule, Movement, Pos, Scoring, Spawn, SpawnAt, Variant, VariantError, Win,
    parse_object, resolve,
};

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
    mode!("xxxx", 1),
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
    mode!("ratio-fill-1296", 2),
    mode!("ratio-fill-1024", 2),
    mode!("ratio-fill-3375", 2),
    mode!("ratio-fill-9261", 2),
    mode!("180", 2),
    mode!("3888", 3),
    mode!("2000", 3),
    mode!("3645", 3),
    mode!("2700", 3),
    mode!("2205", 3),
    mode!("1762", 3),
    mode!("1668", 3),
    mode!("1847", 3),
    mode!("1429", 3),
    mode!("bitwise-2048", 3),
    mode!("2496", 3),
    mode!("3026", 3),
    mode!("3069", 3),
    mode!("3240", 3),
    mode!("1845", 3),
    mode!("squart", 3),
    mode!("factup", 3),
    mode!("trigat", 3),
    mode!("3385", 3),
    mode!("3307", 3),
    mode!("2669", 3),
    mode!("locef", 3),
    mode!("scaprim", 3),
    mode!("10", 3),
    mode!("xy", 3),
    mode!("isotopic-256", 4),
    mode!("378", 4),
    mode!("2058", 4),
    mode!("1716", 4),
    mode!("2-4-8-wildcard-2048", 4),
    mode!("1321", 4),
    mode!("1825", 4),
    mode!("16-16i", 4),
    mode!("232-240", 4),
    mode!("pro-add-uct", 4),
    mode!("partial-absorb-243", 4),
    mode!("partial-absorb-377", 4),
    mode!("partial-absorb-257", 4),
    mode!("partial-absorb-270", 4),
    mode!("partial-absorb-361", 4),
    mode!("2216-838", 4),
    mode!("3-188-646", 4),
    mode!("2592", 4),
    mode!("2295", 4),
    mode!("four-sides-625", 4),
    mode!("directional-merges", 4),
    mode!("turatin", 4),
    mode!("dive", 4),
    mode!("mod-27", 4),
    mode!("alternate-5040", 4),
];

/// The ids of the built-ins there were when players' own files came: a player's file could never
/// take one (it was refused, and still is). A built-in added since may take the id of a player's
/// file, whose game then keeps its rules under a new id ([`crate::load::renamed_id`]).
pub(crate) const FIRST_IDS: &[&str] = &[
    "2048", "2048-3x3", "2048-5x5", "2048-6x6", "2048-8x8", "threes", "2584", "2187", "1024",
];

/// The names a built-in file gives, read when the crate is built (`build.rs`): its id, and its
/// title, description and `based_on` where it gives them (a file based on another may leave its
/// names to its base).
struct Header {
    id: &'static str,
    title: Option<&'static str>,
    description: Option<&'static str>,
    based_on: Option<&'static str>,
}

/// The header of every file in `variants/`, by file name, in name order (`build.rs` writes it).
const HEADERS: &[(&str, Header)] = include!(concat!(env!("OUT_DIR"), "/headers.rs"));

/// A built-in variant: its names, known without reading its file, and its rules, read from the
/// file the first time something needs them (a new game, a player's file based on it, its
/// palette), once, by whichever thread asks first.
pub struct Builtin {
    id: &'static str,
    title: &'static str,
    description: &'static str,
    root: &'static str,
    file: &'static str,
    text: &'static str,
    /// The built-in its file is based on: its place in [`builtins`], before this one's.
    base: Option<usize>,
    variant: OnceLock<Variant>,
    rules: OnceLock<Option<Rules>>,
}

impl fmt::Debug for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builtin")
            .field("id", &self.id)
            .field("file", &self.file)
            .field("read", &self.is_read())
            .finish_non_exhaustive()
    }
}

impl Builtin {
    /// The variant's id.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The variant's title.
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// The variant's description.
    pub fn description(&self) -> &'static str {
        self.description
    }

    /// The id of the built-in at the root of its `based_on` chain (its own id when it has no
    /// `based_on`): the launcher groups entries by it.
    pub fn root(&self) -> &'static str {
        self.root
    }

    /// The name of its file in `variants/`.
    pub fn file(&self) -> &'static str {
        self.file
    }

    /// The variant, read from its file the first time it is asked for. Should the file not
    /// read (the tests make sure each does), the original 2048 under this built-in's names.
    pub fn variant(&self) -> &Variant {
        self.variant.get_or_init(|| {
            let read = self.read();
            debug_assert!(read.is_some(), "the built-in {} does not read", self.file);
            read.unwrap_or_else(|| Variant {
                id: self.id.into(),
                title: self.title.into(),
                description: self.description.into(),
                ..written_out()
            })
        })
    }

    /// Whether its file has been read: a host that lists the built-ins reads none.
    pub fn is_read(&self) -> bool {
        self.variant.get().is_some()
    }

    /// The variant compiled, compiled the first time it is asked for and shared; `None` if its
    /// rules do not compile (the tests make sure each does).
    pub fn rules(&self) -> Option<Rules> {
        self.rules
            .get_or_init(|| Rules::new(self.variant()).ok())
            .clone()
    }

    /// Reads the file. One written out in full is read straight into its [`Variant`] and checked
    /// ([`Variant::validate`]), the quick way: the checks in words that a player's file gets
    /// (which read it as JSON values first, three times slower) are for files a person writes.
    /// One based on another (2048's sizes), a range of integers, or a full one that does not
    /// read the quick way, is resolved as a player's file is, over its base.
    fn read(&self) -> Option<Variant> {
        // The derived form names tiles by their values: a ladder's file does too, but a range of
        // integers' names them by their numbers, which only the checks in words read.
        let mut json = serde_json::Deserializer::from_str(self.text);
        if let Some(variant) = Variant::deserialize(&mut json)
            .ok()
            .filter(|_| json.end().is_ok())
            .filter(|v| !v.tiles.is_numbered())
            .filter(|v| v.validate().is_ok())
        {
            return Some(variant);
        }
        let base = self.base.and_then(|i| builtins().get(i));
        let variant = resolve(&parse_object(self.text).ok()?, |id| match base {
            Some(base) if base.id == id => Ok(base.variant().clone()),
            _ => Err(VariantError::field(
                BASED_ON,
                format!("{id:?} is not a built-in before this one"),
            )),
        })
        .ok()?;
        (variant.id == self.id).then_some(variant)
    }
}

/// The built-in variants, in launcher order, each read only when something needs its rules.
pub fn builtins() -> &'static [Builtin] {
    static ALL: OnceLock<Vec<Builtin>> = OnceLock::new();
    ALL.get_or_init(table)
}

/// The built-ins from [`HEADERS`], in the order of [`FILES`] then [`COMPENDIUM_FILES`]. A file
/// may be based on one of the first built-ins ([`FILES`]) listed before it, whose names it
/// takes where it leaves its own out. A file without a header, or based on any other, is a bug
/// the tests catch: it is left out.
fn table() -> Vec<Builtin> {
    let files = FILES
        .iter()
        .copied()
        .chain(COMPENDIUM_FILES.iter().map(|&(name, text, _)| (name, text)));
    let mut all: Vec<Builtin> = Vec::with_capacity(FILES.len() + COMPENDIUM_FILES.len());
    for (file, text) in files {
        let header = HEADERS
            .binary_search_by_key(&file, |&(name, _)| name)
            .ok()
            .and_then(|i| HEADERS.get(i))
            .map(|(_, header)| header);
        let Some(header) = header else {
            debug_assert!(false, "no header for the built-in {file}");
            continue;
        };
        // Its base, among the first built-ins before it.
        let base = match header
            .based_on
            .map(|id| all.iter().take(FILES.len()).position(|b| b.id == id))
        {
            None => None,
            Some(Some(i)) => Some(i),
            Some(None) => {
                debug_assert!(false, "{file}: its base is not a first built-in before it");
                continue;
            }
        };
        let names = base.and_then(|i| all.get(i));
        all.push(Builtin {
            id: header.id,
            title: header.title.or(names.map(|b| b.title)).unwrap_or(header.id),
            description: header
                .description
                .or(names.map(|b| b.description))
                .unwrap_or_default(),
            root: names.map_or(header.id, |b| b.root),
            file,
            text,
            base,
            variant: OnceLock::new(),
            rules: OnceLock::new(),
        });
    }
    all
}

/// The built-in `id`, if there is one.
pub fn builtin(id: &str) -> Option<&'static Builtin> {
    // By id, sorted once: a start asks for each of the hundred and more built-ins by its id.
    static BY_ID: OnceLock<Vec<(&'static str, usize)>> = OnceLock::new();
    let all = builtins();
    let by_id = BY_ID.get_or_init(|| {
        let mut v: Vec<(&'static str, usize)> =
            all.iter().enumerate().map(|(i, b)| (b.id, i)).collect();
        v.sort_unstable();
        v
    });
    let at = by_id.binary_search_by(|(k, _)| (*k).cmp(id)).ok()?;
    by_id.get(at).and_then(|&(_, i)| all.get(i))
}

/// The launcher group of the built-in `id` when it is not its own, and the heading it is listed
/// under there: [`COMPENDIUM`] and its menu page for the Compendium's modes. `None` for any
/// other id.
pub fn builtin_group(id: &str) -> Option<(&'static str, &'static str)> {
    // Each mode's page by its id, sorted once: a start asks for every built-in's group.
    static PAGES: OnceLock<Vec<(&'static str, usize)>> = OnceLock::new();
    let pages = PAGES.get_or_init(|| {
        let mut v: Vec<(&'static str, usize)> = COMPENDIUM_FILES
            .iter()
            .filter_map(|&(name, _, page)| Some((name.strip_suffix(".json")?, page)))
            .collect();
        v.sort_unstable();
        v
    });
    let at = pages.binary_search_by(|(k, _)| (*k).cmp(id)).ok()?;
    pages
        .get(at)
        .and_then(|&(_, page)| COMPENDIUM_PAGES.get(page.wrapping_sub(1)))
        .map(|&page| (COMPENDIUM, page))
}

/// Every built-in variant, in launcher order: `2048`, its sizes, `threes`, `2584`, `2187`,
/// `1024`, then the Compendium's modes. Reads every file: for tests and tools that go over them
/// all.
pub fn builtin_variants() -> Vec<Variant> {
    builtins().iter().map(|b| b.variant().clone()).collect()
}

/// The built-in variant `id`, if there is one: how tests and tools pick a built-in (never by its
/// place in the list, which grows).
pub fn builtin_variant(id: &str) -> Option<Variant> {
    builtin(id).map(|b| b.variant().clone())
}

/// The ladder of the built-in variant `id` (its tile values), without copying it: how a host
/// tells a variant on 2048's or Threes' ladder, for each tile it draws.
pub fn builtin_ladder(id: &str) -> Option<&'static [u64]> {
    builtin(id).map(|b| &*b.variant().tiles)
}

/// The compiled rules of the built-in variant `id`, compiled once and shared; `None` for an id
/// that is not a built-in.
pub fn builtin_rules(id: &str) -> Option<Rules> {
    builtin(id).and_then(Builtin::rules)
}

/// The original 2048 ([`Variant`]'s default), read from its built-in file.
fn standard() -> Variant {
    builtins()
        .first()
        .map_or_else(written_out, |b| b.variant().clone())
}

impl Default for Variant {
    /// The original 2048.
    fn default() -> Self {
        standard()
    }
}

/// The original 2048 written out: what a built-in file that does not read stands in for.
fn written_out() -> Variant {
    Variant {
        format: crate::variant::FORMAT_1,
        id: "2048".into(),
        title: "2048".into(),
        description: "Slide the tiles and merge equal pairs to make a 2048 tile.".into(),
        side: 4,
        tiles: (1..=57).map(|k| 1u64 << k).collect(),
        // n + n → n+1.
        merges: vec![MergeRule {
            tiles: vec![Pos::Rel(0), Pos::Rel(0)],
            makes: Some(Pos::Rel(1)),
            n_from: None,
            n_to: None,
            n_every: None,
            any_order: false,
            leaves: Vec::new(),
            run: false,
            on_moves: None,
            directions: Vec::new(),
            spent: Vec::new(),
            when: Vec::new(),
            scores: None,
        }],
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
        pipeline: crate::variant::Pipeline::default(),
        hook: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::resolve_all;
    use crate::variant::FIELDS;

    /// The built-ins' names, known without reading their files, and their variants, read the
    /// quick way, are what the player's reading of the files makes: the same ids, names, roots,
    /// files, variants and order. Every file in `variants/` is a built-in.
    #[test]
    fn the_builtins_names_and_quick_reading_are_what_the_players_reading_makes() {
        let files = FILES
            .iter()
            .copied()
            .chain(COMPENDIUM_FILES.iter().map(|&(name, text, _)| (name, text)))
            .map(|(name, text)| (name.to_string(), Ok(text.to_string())));
        let none: &[Variant] = &[];
        let (slow, refused) = resolve_all(files, none);
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(slow.len(), FILES.len() + COMPENDIUM_FILES.len());
        assert_eq!(HEADERS.len(), slow.len());
        assert_eq!(builtins().len(), slow.len());
        for (l, b) in slow.iter().zip(builtins()) {
            let names = |v: &Variant| (v.id.clone(), v.title.clone(), v.description.clone());
            let given = (b.id().into(), b.title().into(), b.description().into());
            assert_eq!(names(&l.variant), given);
            assert_eq!((l.root.as_str(), l.file.as_str()), (b.root(), b.file()));
            assert_eq!(&l.variant, b.variant());
        }
    }

    #[test]
    fn every_builtin_reads_in_launcher_order_and_its_full_form_round_trips() {
        let all = builtins();
        assert_eq!(
            all.len(),
            FILES.len() + COMPENDIUM_FILES.len(),
            "a built-in file is left out"
        );
        let ids: Vec<&str> = all.iter().map(Builtin::id).collect();
        assert_eq!(
            ids[..FILES.len()],
            [
                "2048", "2048-3x3", "2048-5x5", "2048-6x6", "2048-8x8", "threes", "2584", "2187",
                "1024"
            ]
        );
        let roots: Vec<&str> = all.iter().map(Builtin::root).collect();
        assert_eq!(
            roots[..FILES.len()],
            [
                "2048", "2048", "2048", "2048", "2048", "threes", "2584", "2187", "1024"
            ]
        );
        // The Compendium's modes follow, each its own root, named by its file, in its group.
        for ((name, _, page), b) in COMPENDIUM_FILES.iter().zip(&all[FILES.len()..]) {
            assert_eq!(name.strip_suffix(".json"), Some(b.id()));
            assert_eq!(b.root(), b.id());
            assert_eq!(
                builtin_group(b.id()),
                Some((COMPENDIUM, COMPENDIUM_PAGES[page - 1]))
            );
        }
        // In menu order: the pages never go back.
        assert!(COMPENDIUM_FILES.windows(2).all(|w| w[0].2 <= w[1].2));
        assert_eq!(builtin_group("2584"), None);
        assert_eq!(builtin_group("2048"), None);
        for b in all {
            let json = b.variant().to_json();
            // Every field, and the optional ones a variant uses (format 2's labels, format 3's
            // pipeline besides its win, and hook).
            let pipeline = b.variant().pipeline.source();
            let optional = usize::from(!b.variant().labels.is_empty())
                + pipeline.keys().filter(|k| *k != "win").count()
                + usize::from(b.variant().hook.is_some());
            assert_eq!(json.as_object().unwrap().len(), FIELDS.len() + optional);
            assert_eq!(
                &Variant::from_json(json.as_object().unwrap()).unwrap(),
                b.variant()
            );
        }
        assert_eq!(&Variant::default(), all[0].variant());
        assert_eq!(&standard(), all[0].variant());
        assert_eq!(&written_out(), all[0].variant());
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
            assert!(x.tiles.len() <= crate::variant::MAX_TILES || x.tiles.is_numbered());
            // A full 8×8 board of the top tile sums within a u64.
            assert!(
                x.tiles.last().unwrap().checked_mul(64).is_some(),
                "{}",
                x.id
            );
        }
    }
}
