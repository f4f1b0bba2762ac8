//! A sliding variant as data: the description of `docs/variants.md` ("Sliding variants"), its
//! JSON forms, and the checks that refuse a bad one with the field at fault.
//!
//! The *full form* has every field and nothing else. A *file form* may name a base with
//! `based_on` and give only the fields that differ: [`resolve`] lays its fields over the base's
//! full form (field by field, a field given replaces the base's whole field) and checks the
//! result.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use thiserror::Error;

use tilebox_core::json_words::{bounded, quote};

use crate::Rank;
use crate::condition::{Cond, Env, Expr};

mod hook;
mod ladder;
mod pipeline;

pub use hook::{HOOK_FIELD, Hook, dive_pool, residue};
pub use ladder::{Ladder, MAX_INTEGER_TILES};
pub use pipeline::{
    Counter, Counters, Distinct, Draw, Event, MAX_COUNTER_VALUES, MAX_COUNTERS, MAX_DISTINCT,
    MAX_DRAW_TILES, PIPELINE_FIELDS, Pipeline, Shown, Test, Tick,
};

/// The most states of the counters that a variant's merge rules may read: each is compiled
/// when a game first reaches it (`Rules::at`); [`Variant::validate`] refuses more.
pub const MAX_MERGE_STATES: i64 = 4096;

/// The newest format this build reads. Format 1 is the first; format 2 adds merges of four and
/// five tiles and a win on any of several tiles; format 3 adds expressions ([`Expr`]: products,
/// division, `and`/`or`/`not`, the move number `t`, a closed library of functions) to a range
/// of integers' `when` and `makes`, and a rule's `scores`. A file says the format it needs, and
/// a format-1 or format-2 file reads exactly as it did before the next format existed.
pub const FORMAT: u32 = 3;

/// The format that brought expressions ([`Expr`]) and a rule's `scores`.
pub const FORMAT_3: u32 = 3;

/// The first format, which every variant that uses nothing of format 2 keeps.
pub const FORMAT_1: u32 = 1;

/// The most tiles a merge rule takes: 3 in format 1, 5 in format 2, 6 in format 3 (a ladder's
/// rules of exact positions, for XXXX's runs of six; a rule that takes any order or a range of
/// integers' rule stays at [`MAX_FORMAT_2_RULE_TILES`]).
pub const MAX_RULE_TILES: usize = 6;

/// The most tiles a merge rule takes in format 2, and a rule that takes its tiles in any order
/// or reads them by letters in any format.
pub const MAX_FORMAT_2_RULE_TILES: usize = 5;

/// The most tiles a ladder may have: ranks are 1 to 255 (0 is an empty cell), so that a
/// ladder's pair table is at most 256 × 256 and the AI keeps a rank in a byte.
pub const MAX_TILES: usize = 255;

/// Every field of the full form, in the order it is written.
pub const FIELDS: [&str; 14] = [
    "format",
    "id",
    "title",
    "description",
    "side",
    "tiles",
    "merges",
    "motion",
    "spawn",
    "spawn_at",
    "start",
    "preview",
    "win",
    "score",
];

/// The fields a full form may leave out, each with its default: `labels` (format 2; none, so
/// every tile shows its number).
pub const OPTIONAL_FIELDS: [&str; 1] = ["labels"];

/// A variant's names, and the format it is written in (a format-1 and a format-2 description of
/// the same rules are the same game): its rules are the rest ([`Variant::same_rules`]), the
/// sliding kind's `Puzzle::NAME_FIELDS`.
pub const NAME_FIELDS: &[&str] = &["id", "title", "description", "format"];

/// The longest label a tile may show, in characters: 16 since 3240's tiles show their
/// factors, `10080(4·6·14·15)` (12 before).
pub const MAX_LABEL: usize = 16;

/// The field a file form may add: the id of the variant it changes.
pub const BASED_ON: &str = "based_on";

/// A sliding variant, complete: the rule set of a 2048-like game with its id and names. Build
/// one from JSON with [`Variant::from_json`] (which checks it) or take a built-in
/// ([`crate::builtin_variants`]). `Default` is the original 2048.
///
/// Its JSON is the full form, a range of integers' tiles named by their numbers (1429's `"-1"`)
/// as its files name them: `Serialize` writes it and `Deserialize` reads and checks it
/// ([`Variant::from_json`]). The derived forms, `Variant::serialize` and `Variant::deserialize`
/// (serde's `remote = "Self"`), name every tile by its value: the file form is made from them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Variant {
    /// The format of the description, [`FORMAT`].
    pub format: u32,
    /// Lowercase letters, digits and `-`: the entry's id everywhere.
    pub id: String,
    /// Shown in the launcher and in How to play.
    pub title: String,
    /// One line saying what the game is.
    pub description: String,
    /// The board's side, 2 to 8.
    pub side: usize,
    /// The ladder: tile values, strictly increasing, 1 to 255 of them; or (format 2) a range of
    /// integers ([`Ladder`]). Ladder position `p` (counted from 1) is rank `p` on the board.
    pub tiles: Ladder,
    /// The merge rules, tried in order.
    pub merges: Vec<MergeRule>,
    /// How a line moves.
    pub motion: Movement,
    /// What appears after a move.
    pub spawn: Spawn,
    /// Where it appears.
    pub spawn_at: SpawnAt,
    /// How many tiles a new board has, each from `spawn`, on distinct random cells.
    pub start: usize,
    /// Whether the next tile is drawn before the move and shown.
    pub preview: bool,
    /// The tile values whose making wins (announced once, play goes on).
    pub win: Win,
    /// How the score is counted.
    pub score: Scoring,
    /// Format 2: what each tile of the ladder shows, in the order of `tiles` (`"-1"`, `"1+i"`,
    /// `"3r"`), when it is not its number. The numbers in `tiles` still name the tiles in the
    /// file (spawns, win) and order them. Empty: every tile shows its number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// Format 3: the turn pipeline (`counters`, `events`, `tick`, `lose`, `"win": {"when": …}`),
    /// empty for none. Read and written beside the derived form ([`Variant::from_json`]).
    #[serde(skip)]
    pub pipeline: Pipeline,
    /// Format 3: the hook the file names (`"hook": "dive"`), a rule written in Rust; `None` for
    /// none. Read and written beside the derived form, as the pipeline is.
    #[serde(skip)]
    pub hook: Option<Hook>,
}

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The derived form (values), then a range's tiles renamed by their numbers.
        let mut json = Variant::serialize(self, serde_json::value::Serializer)
            .map_err(serde::ser::Error::custom)?;
        if let (Some(r), Value::Object(map)) = (self.tiles.as_records(), &mut json) {
            rename_tiles(map, |_, v| {
                let value = v.as_u64().or_else(|| v.as_str()?.parse().ok())?;
                r.text_of(value).map(Value::from)
            });
        } else if self.tiles.is_integers()
            && let Value::Object(map) = &mut json
        {
            rename_tiles(map, |_, v| {
                let value = v.as_u64().or_else(|| v.as_str()?.parse().ok())?;
                self.tiles.integer(value).map(Value::from)
            });
        }
        if let Value::Object(map) = &mut json {
            for (k, v) in self.pipeline.source() {
                map.insert(k.clone(), v.clone());
            }
            if let Some(h) = self.hook {
                map.insert(HOOK_FIELD.to_string(), Value::from(h.name()));
            }
        }
        json.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        Variant::from_json(&map).map_err(serde::de::Error::custom)
    }
}

/// How every line moves on a swipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Movement {
    /// Every tile travels to the wall, as in 2048.
    Slide,
    /// Every line moves at most one cell, as in Threes.
    Step,
}

/// Where a spawned tile goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpawnAt {
    /// A uniformly random empty cell.
    Anywhere,
    /// The far edge (opposite the swipe) of a line that moved, the line chosen uniformly.
    MovedEdge,
}

/// What appears after a move: `{"weights": {"2": 9, "4": 1}}` or `{"bag": {...}}` with an
/// optional `bonus`. Exactly one of `weights` and `bag`; maps are keyed by tile value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spawn {
    /// Tile value to weight: each spawn is drawn with these chances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<BTreeMap<u64, u32>>,
    /// Tile value to count: a bag drawn without replacement, refilled when empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bag: Option<BTreeMap<u64, u32>>,
    /// With a bag: the bonus tiles that now and then replace a bag tile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<Bonus>,
}

/// A bag's bonus: when the board's highest tile is at least `top_at_least`, each draw is, with
/// probability `chance[0] / chance[1]`, a bonus tile instead of a bag tile (the bag is left as it
/// is), uniform among the ladder values from `lowest` up to highest ÷ `top_divided_by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bonus {
    /// Numerator and denominator of the chance of a bonus tile.
    pub chance: [u32; 2],
    /// The highest tile from which bonus tiles come.
    pub top_at_least: u64,
    /// The lowest bonus tile.
    pub lowest: u64,
    /// The highest bonus tile is the board's highest divided by this.
    pub top_divided_by: u64,
}

/// The tiles whose making wins: none, one (`"win": 2048`) or, in format 2, any of several
/// (`"win": [1535, 1536, 1537]`). The game is won once the board's highest tile reaches the
/// lowest of them: a tile above it was made from one of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Win(Vec<u64>);

impl Win {
    /// No win: the game goes on to its end.
    pub const NONE: Win = Win(Vec::new());

    /// Making `value` wins.
    pub fn one(value: u64) -> Win {
        Win(vec![value])
    }

    /// Making any of `values` wins (sorted, without repeats).
    pub fn any_of(values: impl IntoIterator<Item = u64>) -> Win {
        let mut values: Vec<u64> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        Win(values)
    }

    /// The winning tiles, lowest first.
    pub fn values(&self) -> &[u64] {
        &self.0
    }

    /// The lowest winning tile: reaching it wins. `None` when there is no win.
    pub fn lowest(&self) -> Option<u64> {
        self.0.first().copied()
    }

    /// Whether there is no win.
    pub fn is_none(&self) -> bool {
        self.0.is_empty()
    }

    /// The winning tiles in words: `2048`, `1365 or 1366`, `1535, 1536 or 1537`; `None` when
    /// there is no win.
    pub fn words(&self) -> Option<String> {
        self.words_by(|v| v.to_string())
    }

    /// As [`Win::words`], each tile written by `text` (a labelled variant's labels).
    pub fn words_by(&self, text: impl Fn(u64) -> String) -> Option<String> {
        let (last, rest) = self.0.split_last()?;
        let rest: Vec<String> = rest.iter().map(|&v| text(v)).collect();
        Some(if rest.is_empty() {
            text(*last)
        } else {
            format!("{} or {}", rest.join(", "), text(*last))
        })
    }
}

impl From<Option<u64>> for Win {
    fn from(value: Option<u64>) -> Self {
        Win(value.into_iter().collect())
    }
}

impl Serialize for Win {
    /// `null` for none, the value for one (as format 1 writes it), a list for several.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.as_slice() {
            [] => s.serialize_none(),
            [one] => s.serialize_u64(*one),
            many => many.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Win {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(Option<u64>),
            Many(Vec<u64>),
        }
        Ok(match Raw::deserialize(d)? {
            Raw::One(one) => Win::from(one),
            // Kept as written, so that validation can refuse an empty list or a repeat.
            Raw::Many(many) => Win(many),
        })
    }
}

/// How the score is counted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// `"merges"`: the score grows by the value of every tile a merge makes.
    Merges,
    /// `{"board": [p0, p1, …]}`: the score is read off the board, ladder tile i scoring `p_i`.
    Board(Vec<u64>),
    /// Format 2, `{"merges": [p0, p1, …]}`: the score grows by `p_i` for every ladder tile i a
    /// merge makes (a labelled tile's worth: 2 for a made `-2`).
    Made(Vec<u64>),
}

/// A ladder position in a merge rule: an exact position (1 is the first tile) or `n + k`; in a
/// range of integers, a tile's letter or what the rule makes of them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Pos {
    /// This ladder position, counted from 1.
    Exact(u32),
    /// The rule's variable n plus this offset (`"n"` is `Rel(0)`, `"n+2"` is `Rel(2)`).
    Rel(u32),
    /// Format 2, a range of integers: in `tiles`, the letter naming a tile (`"a"` nearest the
    /// wall, then `"b"` …); in `makes`, a sum of them (`"a + b"`, `"2a + 1"`) or, in format 3,
    /// any expression ([`Expr`]: `"a * b"`, `"next_prime(a)"`).
    Int(Expr),
}

/// A merge rule: these tiles, next to each other along a line, make that one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergeRule {
    /// The tiles in, from the wall outward: 2 or 3 of them (format 1), up to 5 (format 2).
    pub tiles: Vec<Pos>,
    /// The tile out; `None` (`"makes": null`, format 2): the tiles destroy one another and
    /// leave nothing (2049's 1 and -1).
    pub makes: Option<Pos>,
    /// The least n (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_from: Option<u32>,
    /// The greatest n (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_to: Option<u32>,
    /// `[m, r]`: n mod m = r.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_every: Option<[u32; 2]>,
    /// The tiles may lie in any order along the line.
    #[serde(default, skip_serializing_if = "is_false")]
    pub any_order: bool,
    /// Format 2: the tiles the merge leaves besides the one it makes, placed after it from the
    /// wall outward (a remainder: Partial Absorb 257's 3 + 3 → 5 and 1). Fewer than the tiles
    /// in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leaves: Vec<Pos>,
    /// Format 2: the rule takes only a whole run of equal tiles: the tile before them (nearer
    /// the wall, as the move has left it) and the tile after them are not theirs, so that a
    /// run of four merges by no rule of two or three (900, 180).
    #[serde(default, skip_serializing_if = "is_false")]
    pub run: bool,
    /// Format 2: `[m, r]`, the rule holds only on the moves whose number (the moves played
    /// before it, from 0) is r mod m: 2592's pairs merge on moves 0, 2, 4 … (`[2, 0]`), its
    /// triples on moves 1, 3, 5 … (`[2, 1]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_moves: Option<[u32; 2]>,
    /// Format 2: the rule holds only on moves toward these directions (empty: every move).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directions: Vec<crate::Direction>,
    /// Format 2: places among the tiles in (0 is the one nearest the wall) whose cells, emptied
    /// by the merge, stay spent for the rest of the move: the tile that comes to rest in such a
    /// cell starts no merge, that is, it is the far tile of none. The Compendium's 2378 and 2000
    /// do this after their merges of three (`[2]`): their rules mark two of the three cells.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent: Vec<u8>,
    /// Format 2, a range of integers: what must hold of the tiles, named by their letters
    /// (`"a = b"`, `"|a - b| <= 1"`, `"|2a - b| <= 1"`, `"c divides a"`; `z` is the tile after
    /// them, farther from the wall, not yet moved, 0 when there is none). All of them hold for
    /// the tiles to merge.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "cond_texts")]
    pub when: Vec<Cond>,
    /// Format 3, a range of integers: what the merge adds to the score, an expression of the
    /// tiles, `t` and `made` (the tile made): `"|made|"`, `"a / b"`. Without it a merge scores
    /// the tile made (nothing for a tile below 0). A negative or undefined score adds nothing.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "score_text")]
    pub scores: Option<Expr>,
}

/// `scores` as a text: the expression as [`Expr`] displays it.
mod score_text {
    use super::Expr;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(e: &Option<Expr>, s: S) -> Result<S::Ok, S::Error> {
        match e {
            Some(e) => s.collect_str(e),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Expr>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|t| Expr::parse_score(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

/// `when` as texts: each condition written as [`Cond`] displays it.
mod cond_texts {
    use super::Cond;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(conds: &[Cond], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(conds.iter().map(Cond::to_string))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Cond>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| Cond::parse(t).map_err(serde::de::Error::custom))
            .collect()
    }
}

/// The longest cycle of moves over which a variant's rules may change (`on_moves`): the rules
/// of every move are worked out in advance, for each direction and each move of the cycle
/// (once for each set of rules that hold together). 2295's rules, a tile merging with 2^j
/// times itself on the moves whose number plus one 2^j divides oddly, come round every 4,096.
pub const MAX_MOVE_CYCLE: u32 = 4096;

/// The most sets of rules a variant's moves may hold among them (`on_moves`, `directions`):
/// each is compiled into tables of its own, so a few rules on cycles of many lengths must not
/// make thousands. 2295 has 13, Directional Merges 4.
pub const MAX_MOVE_SETS: usize = 64;

/// Which rules hold on each move of a variant whose rules hold on some moves or directions
/// only ([`Variant::move_sets`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MoveSets {
    /// For each direction and move of the cycle, `dir.index() * cycle + turn`, the number of its
    /// set of rules.
    pub(crate) of_move: Vec<u16>,
    /// For each set, the first direction and move that hold it.
    pub(crate) first: Vec<(crate::Direction, u64)>,
}

/// The tiles a merge rule makes, as ranks: the tile made first, then the tiles it leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Made {
    ranks: [Rank; MAX_RULE_TILES],
    count: usize,
    /// What the merge scores when its rule says (`scores`); `None`: the tile made's worth.
    score: Option<u64>,
}

impl Made {
    /// What the merge scores when its rule says so (`scores`); `None`: the tile made's worth.
    pub(crate) fn score(&self) -> Option<u64> {
        self.score
    }

    /// The ranks made, the tile made first.
    pub(crate) fn ranks(&self) -> &[Rank] {
        &self.ranks[..self.count]
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl MergeRule {
    /// Whether the rule holds on a move toward `dir` whose number (moves played before it) is
    /// `turn`.
    pub fn holds_on(&self, dir: crate::Direction, turn: u64) -> bool {
        (self.directions.is_empty() || self.directions.contains(&dir))
            && self
                .on_moves
                .is_none_or(|[m, r]| m > 0 && turn % u64::from(m) == u64::from(r))
    }

    /// Its expressions: its conditions, what it makes (in a range of integers) and its score.
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        let makes = match &self.makes {
            Some(Pos::Int(e)) => Some(e),
            _ => None,
        };
        self.when
            .iter()
            .map(Cond::expr)
            .chain(makes)
            .chain(&self.scores)
    }

    /// Whether the rule holds on some moves or directions only.
    pub fn is_conditional(&self) -> bool {
        self.on_moves.is_some() || !self.directions.is_empty()
    }

    /// The value of n with which `ranks` (from the wall outward, as many as the rule's tiles)
    /// match this rule in its listed order: `Some(None)` for a rule that names no n, `None` if
    /// they don't match.
    fn bind(&self, ranks: &[Rank]) -> Option<Option<u32>> {
        if ranks.len() != self.tiles.len() {
            return None;
        }
        let mut n: Option<u32> = None;
        for (pos, &rank) in self.tiles.iter().zip(ranks) {
            let rank = u32::from(rank);
            if rank == 0 {
                return None;
            }
            match *pos {
                Pos::Exact(p) if p == rank => {}
                Pos::Exact(_) => return None,
                // A tile's letter takes any tile: the rule's `when` says which.
                Pos::Int(_) => {}
                Pos::Rel(k) => {
                    let this = rank.checked_sub(k)?;
                    if n.is_some_and(|n| n != this) {
                        return None;
                    }
                    n = Some(this);
                }
            }
        }
        if let Some(n) = n
            && (n == 0
                || self.n_from.is_some_and(|f| n < f)
                || self.n_to.is_some_and(|t| n > t)
                || self.n_every.is_some_and(|[m, r]| m == 0 || n % m != r))
        {
            return None;
        }
        Some(n)
    }

    /// The rank at `pos` for this n, on a ladder of `len` tiles; `None` off the ladder.
    fn rank_at(pos: &Pos, n: Option<u32>, len: usize) -> Option<Rank> {
        let out = match *pos {
            Pos::Exact(p) => p,
            Pos::Rel(k) => n?.checked_add(k)?,
            Pos::Int(_) => return None,
        };
        if out == 0 || out as usize > len {
            return None;
        }
        Rank::try_from(out).ok()
    }

    /// The rank made when `ranks` (from the wall outward, as many as the rule's tiles) match
    /// this rule in its listed order, on a ladder of `len` tiles; `None` if they don't or the
    /// output falls off the ladder.
    pub(crate) fn made_in_order(&self, ranks: &[Rank], len: usize) -> Option<Rank> {
        Self::rank_at(self.makes.as_ref()?, self.bind(ranks)?, len)
    }

    /// As [`MergeRule::made_in_order`], with the tiles the rule leaves: `None` if any of them
    /// falls off the ladder too.
    fn outputs_in_order(&self, ranks: &[Rank], len: usize) -> Option<Made> {
        let n = self.bind(ranks)?;
        let mut made = Made {
            ranks: [0; MAX_RULE_TILES],
            count: 0,
            score: None,
        };
        for pos in self.makes.iter().chain(&self.leaves) {
            *made.ranks.get_mut(made.count)? = Self::rank_at(pos, n, len)?;
            made.count += 1;
        }
        Some(made)
    }

    /// The rank made, in any order when the rule says so.
    pub(crate) fn made(&self, ranks: &[Rank], len: usize) -> Option<Rank> {
        self.in_any_order(ranks, |order| self.made_in_order(order, len))
    }

    /// Whether `ranks` (from the wall outward) match this rule by its own terms (positions,
    /// `n_from`, `n_to`, `n_every`, order) on a ladder of `len` tiles, with everything it makes
    /// on the ladder.
    pub fn matches(&self, ranks: &[Rank], len: usize) -> bool {
        self.outputs(ranks, len).is_some()
    }

    /// The ranks made and left, in any order when the rule says so.
    pub(crate) fn outputs(&self, ranks: &[Rank], len: usize) -> Option<Made> {
        self.in_any_order(ranks, |order| self.outputs_in_order(order, len))
    }

    /// Whether `ranks` (from the wall outward, as many as the rule's tiles) meet this rule of a
    /// range of integers by its own terms, with no tile after them and what they make in the
    /// range, on move 0.
    pub fn takes_integers(&self, ranks: &[Rank], tiles: &Ladder) -> bool {
        self.integer_outputs(ranks, tiles, 0, 0, &[0; MAX_COUNTERS])
            .is_some()
    }

    /// A rule of a range of integers: the tile made when `ranks` (from the wall outward, as
    /// many as the rule's tiles, in any order when the rule says so) meet its `when`, `after`
    /// being the tile after them (0 for none); none made (an empty [`Made`]) when the rule
    /// makes nothing. `None` if they don't match or what they make is off the range. The rule
    /// reads `t` as `turn` and the pipeline's counters as `counters`.
    pub(crate) fn integer_outputs(
        &self,
        ranks: &[Rank],
        tiles: &Ladder,
        after: Rank,
        turn: u64,
        counters: &Counters,
    ) -> Option<Made> {
        if ranks.len() != self.tiles.len() {
            return None;
        }
        let z = match after {
            0 => 0,
            r => tiles.integer(u64::from(r))?,
        };
        let records = tiles.as_records();
        let z_fields = match (records, after) {
            (Some(rec), r) if r != 0 => rec.fields_of(u64::from(r))?,
            _ => Default::default(),
        };
        self.in_any_order(ranks, |order| {
            let mut env = Env {
                turn: i64::try_from(turn).unwrap_or(i64::MAX),
                counters: *counters,
                ..Env::default()
            };
            env.tiles[5] = z;
            env.fields[5] = z_fields;
            for (i, &rank) in order.iter().enumerate() {
                if rank == 0 {
                    return None;
                }
                env.tiles[i] = tiles.integer(u64::from(rank))?;
                if let Some(rec) = records {
                    env.fields[i] = rec.fields_of(u64::from(rank))?;
                }
            }
            if !self.when.iter().all(|c| c.holds(&env)) {
                return None;
            }
            let mut made = Made {
                ranks: [0; MAX_RULE_TILES],
                count: 0,
                score: None,
            };
            if let Some(Pos::Int(e)) = &self.makes {
                let value = match records {
                    Some(rec) => {
                        let (fields, n) = e.eval_record(&env)?;
                        let rank = rec.rank_of(&fields[..n])?;
                        env.made = rec.worth_of(rank)?;
                        rank
                    }
                    None => {
                        env.made = e.eval(&env)?;
                        tiles.value_of_integer(env.made)?
                    }
                };
                made.ranks[0] = Rank::try_from(value).ok()?;
                made.count = 1;
            }
            made.score = self.scores.as_ref().map(|e| {
                e.eval(&env)
                    .and_then(|s| u64::try_from(s).ok())
                    .unwrap_or(0)
            });
            Some(made)
        })
    }

    /// `matched` of `ranks` as they lie, or when the rule takes any order, of the first of their
    /// other orders that it accepts.
    fn in_any_order<T>(&self, ranks: &[Rank], matched: impl Fn(&[Rank]) -> Option<T>) -> Option<T> {
        if let Some(out) = matched(ranks) {
            return Some(out);
        }
        if !self.any_order || ranks.len() > MAX_RULE_TILES {
            return None;
        }
        // Every other order (at most 5! = 120 of them), by Heap's algorithm on a copy.
        let mut order: [Rank; MAX_RULE_TILES] = [0; MAX_RULE_TILES];
        let order = &mut order[..ranks.len()];
        order.copy_from_slice(ranks);
        let mut c = [0usize; MAX_RULE_TILES];
        let mut i = 1;
        while i < order.len() {
            if c[i] < i {
                let j = if i % 2 == 0 { 0 } else { c[i] };
                order.swap(j, i);
                if let Some(out) = matched(order) {
                    return Some(out);
                }
                c[i] += 1;
                i = 1;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        None
    }
}

impl Serialize for Pos {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Pos::Exact(p) => s.serialize_u32(*p),
            Pos::Rel(0) => s.serialize_str("n"),
            Pos::Rel(k) => s.serialize_str(&format!("n+{k}")),
            Pos::Int(e) => s.collect_str(e),
        }
    }
}

impl<'de> Deserialize<'de> for Pos {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// Reads a number or a text as [`pos_of`] does, without making a JSON value of it
        /// first: the built-ins hold thousands of positions, read at every start.
        struct PosVisitor;
        impl serde::de::Visitor<'_> for PosVisitor {
            type Value = Pos;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a ladder position (a number, \"n\" or \"n+k\")")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Pos, E> {
                pos_of(&Value::from(v)).map_err(E::custom)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Pos, E> {
                pos_of(&Value::from(v)).map_err(E::custom)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Pos, E> {
                pos_of(&Value::from(v)).map_err(E::custom)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Pos, E> {
                pos_of_text(v).map_err(E::custom)
            }
        }
        d.deserialize_any(PosVisitor)
    }
}

/// A ladder position read from JSON: a number (1 is the first tile), `"n"` or `"n+k"`; or why
/// not, in words.
fn pos_of(value: &Value) -> Result<Pos, String> {
    let found = match value {
        Value::Number(n) => n
            .as_u64()
            .and_then(|p| u32::try_from(p).ok())
            .map(Pos::Exact),
        Value::String(t) => return pos_of_text(t),
        _ => None,
    };
    found.ok_or_else(|| not_a_position(value))
}

/// A ladder position written as text: `"n"` or `"n+k"` (spaces allowed); or in a range of
/// integers a tile's letter or a sum of them (`"a"`, `"a + b"`).
fn pos_of_text(text: &str) -> Result<Pos, String> {
    let t = text.replace(' ', "");
    if t == "n" {
        return Ok(Pos::Rel(0));
    }
    if let Some(k) = t.strip_prefix("n+") {
        return k
            .parse::<u32>()
            .map(Pos::Rel)
            .map_err(|_| not_a_position(&Value::from(text)));
    }
    if t.chars()
        .any(|c| crate::condition::LETTERS.contains(&c) || c == 't' || c == '(')
    {
        return Expr::parse_makes(text)
            .map(Pos::Int)
            .map_err(|m| format!("{}: {m}", quote(text)));
    }
    Err(not_a_position(&Value::from(text)))
}

/// The refusal of a value that is not a ladder position.
fn not_a_position(value: &Value) -> String {
    format!(
        "{} is not a ladder position (a number, \"n\" or \"n+k\")",
        bounded(&value.to_string())
    )
}

/// What a JSON value is, in words, for a refusal: `"a list"`, `"the text \"x\""`.
pub(crate) fn kind_of(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => bounded(&n.to_string()),
        Value::String(t) => quote(t),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// The fields of a merge rule, in the order the format lists them.
const RULE_FIELDS: [&str; 13] = [
    "tiles",
    "makes",
    "n_from",
    "n_to",
    "n_every",
    "any_order",
    "leaves",
    "run",
    "on_moves",
    "directions",
    "spent",
    "when",
    "scores",
];

/// Checks `merges` by hand, so that a refusal names the rule and its field in words:
/// `rule 2: tiles: true is not a ladder position (a number, "n" or "n+k")`.
fn check_merges(value: &Value) -> Result<(), String> {
    let Value::Array(rules) = value else {
        return Err(format!("{} is not a list of merge rules", kind_of(value)));
    };
    for (i, rule) in rules.iter().enumerate() {
        let n = i + 1;
        let Value::Object(rule) = rule else {
            return Err(format!(
                "rule {n}: {} is not a rule ({{\"tiles\": [...], \"makes\": ...}})",
                kind_of(rule)
            ));
        };
        if let Some(k) = rule.keys().find(|k| !RULE_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "rule {n}: {} is not a field of a rule (they are {})",
                quote(k),
                RULE_FIELDS.join(", ")
            ));
        }
        let within = |field: &str, m: String| format!("rule {n}: {field}: {m}");
        match rule.get("tiles") {
            None => return Err(format!("rule {n}: tiles: missing")),
            Some(Value::Array(tiles)) if (2..=MAX_RULE_TILES).contains(&tiles.len()) => {
                for t in tiles {
                    pos_of(t).map_err(|m| within("tiles", m))?;
                }
            }
            Some(other) => {
                return Err(within(
                    "tiles",
                    format!(
                        "{} is not a list of 2 to {MAX_RULE_TILES} ladder positions (2 or 3 in \
                         format 1, 2 to {MAX_FORMAT_2_RULE_TILES} in format 2)",
                        kind_of(other)
                    ),
                ));
            }
        }
        match rule.get("makes") {
            None => return Err(format!("rule {n}: makes: missing")),
            // Nothing: the tiles destroy one another (format 2, checked with the rest).
            Some(Value::Null) => {}
            Some(makes) => {
                pos_of(makes).map_err(|m| within("makes", m))?;
            }
        }
        for field in ["n_from", "n_to"] {
            if let Some(v) = rule.get(field) {
                whole_u32(v).map_err(|m| within(field, m))?;
            }
        }
        for field in ["n_every", "on_moves"] {
            if let Some(v) = rule.get(field) {
                match v.as_array().map(Vec::as_slice) {
                    Some([m, r]) => {
                        for x in [m, r] {
                            whole_u32(x).map_err(|m| within(field, m))?;
                        }
                    }
                    _ => {
                        return Err(within(
                            field,
                            format!("{} is not [m, r], two whole numbers", kind_of(v)),
                        ));
                    }
                }
            }
        }
        if let Some(v) = rule.get("directions") {
            let words = v.as_array().filter(|a| {
                a.iter().all(|d| {
                    d.as_str()
                        .is_some_and(|w| crate::Direction::ALL.iter().any(|x| x.word() == w))
                })
            });
            if words.is_none() {
                return Err(within(
                    "directions",
                    format!(
                        "{} is not a list of directions (\"left\", \"right\", \"up\", \"down\")",
                        kind_of(v)
                    ),
                ));
            }
        }
        if let Some(v) = rule.get("leaves") {
            let Value::Array(left) = v else {
                return Err(within(
                    "leaves",
                    format!("{} is not a list of ladder positions", kind_of(v)),
                ));
            };
            for t in left {
                pos_of(t).map_err(|m| within("leaves", m))?;
            }
        }
        if let Some(v) = rule.get("spent") {
            let Value::Array(places) = v else {
                return Err(within(
                    "spent",
                    format!(
                        "{} is not a list of places among the rule's tiles (0 to {})",
                        kind_of(v),
                        MAX_FORMAT_2_RULE_TILES - 1
                    ),
                ));
            };
            if let Some(bad) = places.iter().find(|x| {
                x.as_u64()
                    .is_none_or(|x| x >= MAX_FORMAT_2_RULE_TILES as u64)
            }) {
                return Err(within(
                    "spent",
                    format!(
                        "{} is not a place among the rule's tiles (0 to {})",
                        kind_of(bad),
                        MAX_FORMAT_2_RULE_TILES - 1
                    ),
                ));
            }
        }
        if let Some(v) = rule.get("when") {
            let Value::Array(conds) = v else {
                return Err(within(
                    "when",
                    format!("{} is not a list of conditions", kind_of(v)),
                ));
            };
            for c in conds {
                let Value::String(text) = c else {
                    return Err(within(
                        "when",
                        format!(
                            "{} is not a condition (a text such as \"|a - b| <= 1\")",
                            kind_of(c)
                        ),
                    ));
                };
                Cond::parse(text).map_err(|m| within("when", format!("{}: {m}", quote(text))))?;
            }
        }
        if let Some(v) = rule.get("scores") {
            let Value::String(text) = v else {
                return Err(within(
                    "scores",
                    format!(
                        "{} is not an expression (a text such as \"a / b\")",
                        kind_of(v)
                    ),
                ));
            };
            Expr::parse_score(text)
                .map_err(|m| within("scores", format!("{}: {m}", quote(text))))?;
        }
        for field in ["any_order", "run"] {
            if let Some(v) = rule.get(field)
                && !v.is_boolean()
            {
                return Err(within(
                    field,
                    format!("{} is not true or false", kind_of(v)),
                ));
            }
        }
    }
    Ok(())
}

/// A whole number that fits in 32 bits, or why not: `"x" is not a whole number`, or
/// `18446744073709551615 is out of range (at most 4294967295)`.
fn whole_u32(v: &Value) -> Result<u32, String> {
    let whole = v.as_u64().map(u128::from).or_else(|| {
        // A whole number past 2^64 reads as a float.
        v.as_f64()
            .filter(|x| x.fract() == 0.0 && *x >= 0.0)
            .map(|x| x as u128)
    });
    match whole {
        Some(n) => u32::try_from(n).map_err(|_| {
            format!(
                "{} is out of range (at most {})",
                bounded(&v.to_string()),
                u32::MAX
            )
        }),
        None => Err(format!("{} is not a whole number", kind_of(v))),
    }
}

/// A tile named as a key of `spawn`'s weights or bag: a whole number, written in decimal
/// (`"2"`; `"02"` and `"+2"` are 2, as a range of integers reads them), or why not.
fn tile_key(key: &str) -> Result<u64, String> {
    let digits = key.strip_prefix('+').unwrap_or(key);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return key.parse::<u64>().map_err(|_| {
            format!(
                "{} is out of range (a tile value is at most {})",
                quote(key),
                u64::MAX
            )
        });
    }
    Err(format!("{} is not a tile value", quote(key)))
}

/// The fields of `spawn` and of its `bonus`.
const SPAWN_FIELDS: [&str; 3] = ["weights", "bag", "bonus"];
const BONUS_FIELDS: [&str; 4] = ["chance", "top_at_least", "lowest", "top_divided_by"];

/// Checks `spawn` by hand, so that a refusal names its field in words: `weights: "x" is not a
/// tile value`.
fn check_spawn(value: &Value) -> Result<(), String> {
    let Value::Object(spawn) = value else {
        return Err(format!(
            "{} is not {{\"weights\": {{...}}}} or {{\"bag\": {{...}}}}",
            kind_of(value)
        ));
    };
    if let Some(k) = spawn.keys().find(|k| !SPAWN_FIELDS.contains(&k.as_str())) {
        return Err(format!(
            "{} is not a field of spawn (they are weights, bag and bonus)",
            quote(k)
        ));
    }
    for field in ["weights", "bag"] {
        let Some(table) = spawn.get(field) else {
            continue;
        };
        let Value::Object(table) = table else {
            return Err(format!(
                "{field}: {} is not an object of tile values and numbers ({{\"2\": 9}})",
                kind_of(table)
            ));
        };
        for (tile, n) in table {
            tile_key(tile).map_err(|m| format!("{field}: {m}"))?;
            whole_u32(n).map_err(|m| format!("{field}: {tile}: {m}"))?;
        }
    }
    if let Some(bonus) = spawn.get("bonus") {
        let Value::Object(bonus) = bonus else {
            return Err(format!("bonus: {} is not an object", kind_of(bonus)));
        };
        if let Some(k) = bonus.keys().find(|k| !BONUS_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "bonus: {} is not a field of a bonus (they are {})",
                quote(k),
                BONUS_FIELDS.join(", ")
            ));
        }
        for field in BONUS_FIELDS {
            let Some(v) = bonus.get(field) else {
                return Err(format!("bonus: {field}: missing"));
            };
            if let (true, Some([num, den])) = (field == "chance", v.as_array().map(Vec::as_slice)) {
                for x in [num, den] {
                    whole_u32(x).map_err(|m| format!("bonus: chance: {m}"))?;
                }
            }
            let fits = if field == "chance" {
                v.as_array().is_some_and(|a| a.len() == 2)
            } else {
                v.as_u64().is_some()
            };
            if !fits {
                let expected = if field == "chance" {
                    "[numerator, denominator], two whole numbers"
                } else {
                    "a whole number"
                };
                return Err(format!("bonus: {field}: {} is not {expected}", kind_of(v)));
            }
        }
    }
    Ok(())
}

impl Serialize for Scoring {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Scoring::Merges => s.serialize_str("merges"),
            Scoring::Board(points) => {
                let mut map = BTreeMap::new();
                map.insert("board", points);
                map.serialize(s)
            }
            Scoring::Made(points) => {
                let mut map = BTreeMap::new();
                map.insert("merges", points);
                map.serialize(s)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Scoring {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Board {
            board: Vec<u64>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Made {
            merges: Vec<u64>,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Board(Board),
            Made(Made),
        }
        match Raw::deserialize(d) {
            Ok(Raw::Text(t)) if t == "merges" => Ok(Scoring::Merges),
            Ok(Raw::Board(b)) => Ok(Scoring::Board(b.board)),
            Ok(Raw::Made(m)) => Ok(Scoring::Made(m.merges)),
            _ => Err(serde::de::Error::custom(
                "expected \"merges\", {\"board\": [points per ladder tile]} or {\"merges\": [points per ladder tile]}",
            )),
        }
    }
}

/// Why a variant is refused: the field at fault (none for JSON that cannot be read at all) and
/// what is wrong with it. Displays as `field: message`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct VariantError {
    /// The field at fault, as written in the file (`side`, `merges`); `None` when the text is
    /// not a JSON object.
    pub field: Option<String>,
    /// What is wrong, in a few words.
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl VariantError {
    /// An error in `field`.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        Self {
            // A field's name may be a player's text (an unknown field): bounded.
            field: Some(bounded(field)),
            message: message.into(),
        }
    }

    /// An error in the file as a whole (not JSON, not an object).
    pub fn whole(message: impl Into<String>) -> Self {
        Self {
            field: None,
            message: message.into(),
        }
    }
}

/// Whether `id` is a variant id: lowercase ASCII letters, digits and `-`, not empty, and not
/// starting with `-` (a command line would take it for an option: `--version`, `-1`).
pub fn valid_id(id: &str) -> bool {
    id_refusal(id).is_none()
}

/// The longest variant id, in characters: a game's files are named by its id
/// (`saves/<id>.json`, `history/<id>.jsonl`, `players/<id>.weights.lock`), and a longer id
/// would soon be a name longer than a disk allows (255 bytes). The longest built-in id has 18.
pub const MAX_ID_LEN: usize = 64;

/// Why `id` is not a variant id, in words, if it is not one.
pub fn id_refusal(id: &str) -> Option<String> {
    // Counted in characters, as the refusal says: an id of other characters is refused for them.
    if id.chars().count() > MAX_ID_LEN {
        return Some(format!(
            "{} is longer than {MAX_ID_LEN} characters",
            quote(id)
        ));
    }
    if id.starts_with('-') {
        return Some(format!(
            "{} starts with '-', so a command line would take it for an option",
            quote(id)
        ));
    }
    (!id_chars(id)).then(|| format!("{} is not lowercase letters, digits and '-'", quote(id)))
}

/// Whether `id` is lowercase ASCII letters, digits and `-`, not empty.
fn id_chars(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Reads the object `obj` as the text of a file, refusing malformed JSON and anything but an
/// object.
pub fn parse_object(text: &str) -> Result<Map<String, Value>, VariantError> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(VariantError::whole("not a JSON object")),
        Err(e) => Err(VariantError::whole(format!("malformed JSON: {e}"))),
    }
}

/// Lays the fields of `over` (a file form, `based_on` removed) over `base` (a full form).
pub fn overlay(base: &Variant, over: &Map<String, Value>) -> Map<String, Value> {
    let mut map = match serde_json::to_value(base) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    for (k, v) in over {
        if k != BASED_ON {
            map.insert(k.clone(), v.clone());
        }
    }
    map
}

/// Resolves a file form: refuses unknown fields and a future format, finds the base named by
/// `based_on` with `base_of` (which says why a base is unknown), lays the file over it and checks
/// the result ([`Variant::from_json`]). A file without `based_on` must have every field.
pub fn resolve(
    file: &Map<String, Value>,
    base_of: impl FnOnce(&str) -> Result<Variant, VariantError>,
) -> Result<Variant, VariantError> {
    if let Some(k) = file.keys().find(|k| *k != BASED_ON && !is_field(k)) {
        return Err(VariantError::field(k, "unknown field"));
    }
    let format = check_format(file)?;
    match file.get(BASED_ON) {
        None => Variant::from_json(file),
        Some(Value::String(base)) => {
            for required in ["id"] {
                if !file.contains_key(required) {
                    return Err(VariantError::field(required, "missing field"));
                }
            }
            let base = base_of(base)?;
            if base.format <= format {
                return Variant::from_json(&overlay(&base, file));
            }
            // A file of an older format based on a newer variant (a format-1 file based on 5040,
            // written before 5040 took its merges of four) reads as it did: the variant it makes
            // has the base's format, and only the fields the file gives itself must keep to the
            // file's own format.
            let mut newer = file.clone();
            newer.insert("format".to_string(), Value::from(base.format));
            let resolved = Variant::from_json(&overlay(&base, &newer))?;
            let mut own = Variant {
                format,
                ..resolved.clone()
            };
            if !file.contains_key("merges") {
                own.merges.clear();
            }
            if !file.contains_key("win") {
                own.win = Win::NONE;
            }
            own.validate()?;
            Ok(resolved)
        }
        Some(_) => Err(VariantError::field(BASED_ON, "not a variant id")),
    }
}

/// Why a merge rule cannot be a rule of a range of integers, if it cannot: its tiles are the
/// letters `a`, `b` … in order; it makes a sum of them or nothing; its `when` names no other
/// tile but `z`; and it has none of a ladder's fields.
fn integer_rule_refusal(rule: &MergeRule, format_3: bool) -> Option<String> {
    let k = rule.tiles.len();
    let letter = |i: usize| Pos::Int(Expr::letter(u8::try_from(i).unwrap_or(u8::MAX)));
    if rule.tiles.iter().enumerate().any(|(i, p)| *p != letter(i)) || k > 5 {
        return Some(
            "tiles: in a range of integers, the tiles are the letters \"a\", \"b\" … in order"
                .into(),
        );
    }
    let own = (1u8 << k) - 1;
    match &rule.makes {
        None => {}
        // Tiles in any order make one thing whichever order matched: each of format 2's sums
        // counts them alike (format 3's expressions may tell the order that matched).
        Some(Pos::Int(e)) if rule.any_order && e.is_linear() && !counts_alike(e, k) => {
            return Some(format!(
                "makes: \"{e}\" counts the tiles unlike, but any_order lets them lie in any order; make a sum that counts each alike (\"a + b\")"
            ));
        }
        Some(Pos::Int(e)) if e.letters() & !own == 0 => {}
        Some(_) => {
            return Some(
                "makes: in a range of integers, a rule makes a sum of its tiles (\"a + b\") or null"
                    .into(),
            );
        }
    }
    for (field, given) in [
        ("leaves", !rule.leaves.is_empty()),
        ("run", rule.run),
        // Format 3: a cell left spent takes part in no merge (2058's vanishing merges).
        ("spent", !rule.spent.is_empty() && !format_3),
        ("n_from", rule.n_from.is_some()),
        ("n_to", rule.n_to.is_some()),
        ("n_every", rule.n_every.is_some()),
    ] {
        if given {
            return Some(format!(
                "{field} is a ladder's: a range of integers merges by when"
            ));
        }
    }
    let z = 1u8 << 5;
    if let Some(c) = rule.when.iter().find(|c| c.letters() & !(own | z) != 0) {
        return Some(format!("when: \"{c}\" names a tile the rule does not take"));
    }
    rule.scores
        .as_ref()
        .filter(|e| e.letters() & !(own | z) != 0)
        .map(|e| format!("scores: \"{e}\" names a tile the rule does not take"))
}

/// Why a merge rule needs format 3, if it does: a `when` or `makes` beyond format 2's linear
/// forms ([`Cond::is_linear`], [`Expr::is_linear`]), or `scores`.
fn format_3_refusal(rule: &MergeRule) -> Option<String> {
    let needs = |field: &str, text: String| {
        Some(format!(
            "{field}: {} needs \"format\": 3 (format 2 reads sums such as \"2a - b + 1\", one comparison or \"divides\")",
            quote(&text)
        ))
    };
    if let Some(c) = rule.when.iter().find(|c| !c.is_linear()) {
        return needs("when", c.to_string());
    }
    if let Some(Pos::Int(e)) = &rule.makes
        && !e.is_linear()
    {
        return needs("makes", e.to_string());
    }
    rule.scores
        .as_ref()
        .map(|e| format!("scores: {} needs \"format\": 3", quote(&e.to_string())))
}

/// Whether a sum of whole multiples of the tiles (format 2's) counts its first `k` tiles alike.
fn counts_alike(e: &Expr, k: usize) -> bool {
    let coef = |i: usize| {
        let mut env = Env::default();
        env.tiles[i] = 1;
        e.eval(&env)
    };
    (1..k).all(|i| coef(i) == coef(0))
}

/// A range of integers names its tiles in a file by their numbers (1429's `"-1"`); the variant
/// holds each as its value, its position in the range ([`Ladder`]). The full form `map` with its
/// spawns and win as values, when its tiles are a range (`None` when they are not), or which
/// is off the range.
fn integers_to_values(
    map: &Map<String, Value>,
) -> Result<Option<Map<String, Value>>, VariantError> {
    // The range's ends only: its thousands of tiles are not needed here.
    let Some(range) = map
        .get("tiles")
        .and_then(|t| serde_json::from_value::<ladder::Range>(t.clone()).ok())
        .map(|r| r.integers)
    else {
        return ladder_keys(map);
    };
    // A range in a format-1 file is refused as such ([`Variant::validate`]).
    if check_format(map)? < 2 {
        return Ok(None);
    }
    if ladder::range_len(range).is_none() {
        return Err(VariantError::field("tiles", ladder::not_a_range(range)));
    }
    let mut out = map.clone();
    let mut off = None;
    // A spawn key is text; a win is a number, as a ladder's are.
    let twice = rename_tiles(&mut out, |field, v| {
        let i = match field {
            "spawn" => v.as_str()?.parse().ok()?,
            _ => v.as_i64()?,
        };
        let value = ladder::place(range, i);
        if value.is_none() {
            off.get_or_insert((field, i));
        }
        value.map(Value::from)
    });
    if let (Some((field, i)), [from, to]) = (off, range) {
        return Err(VariantError::field(
            field,
            format!("{i} is not a tile: the tiles are the integers from {from} to {to}"),
        ));
    }
    match twice {
        Some(key) => Err(VariantError::field(
            "spawn",
            format!("{} names a tile named before (each tile once)", quote(&key)),
        )),
        None => Ok(Some(out)),
    }
}

/// A ladder's spawn keys as a range's are read: `"02"` and `"+2"` are the tile 2, written
/// `"2"`. The full form `map` with its keys so written, when one was written otherwise (`None`
/// when none was: the built-ins' thousands of keys are not copied), or the key that names a
/// tile named before. A key that is not a tile value is left for [`check_spawn`] to refuse.
fn ladder_keys(map: &Map<String, Value>) -> Result<Option<Map<String, Value>>, VariantError> {
    let other_form = |k: &String| tile_key(k).is_ok_and(|v| v.to_string() != *k);
    let tables = map.get("spawn").and_then(Value::as_object);
    let written_otherwise = tables.is_some_and(|spawn| {
        ["weights", "bag"].iter().any(|t| {
            spawn
                .get(*t)
                .and_then(Value::as_object)
                .is_some_and(|t| t.keys().any(other_form))
        })
    });
    if !written_otherwise {
        return Ok(None);
    }
    let mut out = map.clone();
    let twice = rename_tiles(&mut out, |field, v| match field {
        "spawn" => tile_key(v.as_str()?).ok().map(Value::from),
        _ => None,
    });
    match twice {
        Some(key) => Err(VariantError::field(
            "spawn",
            format!("{} names a tile named before (each tile once)", quote(&key)),
        )),
        None => Ok(Some(out)),
    }
}

/// Renames the tiles a full form names outside its ladder (the keys of `spawn`'s weights and
/// bag, and `win`) by `rename` (told the field), leaving any it gives no new name as they are.
/// Returns a spawn key that two keys came to (`"1"` and `"01"` both naming 1), if any: the
/// second is dropped.
fn rename_tiles(
    map: &mut Map<String, Value>,
    mut rename: impl FnMut(&'static str, &Value) -> Option<Value>,
) -> Option<String> {
    let mut twice = None;
    if let Some(Value::Object(spawn)) = map.get_mut("spawn") {
        for table in ["weights", "bag"] {
            if let Some(Value::Object(t)) = spawn.get_mut(table) {
                let mut renamed = Map::new();
                for (k, n) in std::mem::take(t) {
                    let key = match rename("spawn", &Value::from(k.as_str())) {
                        Some(new) => new.to_string().trim_matches('"').to_string(),
                        None => k.clone(),
                    };
                    if renamed.contains_key(&key) {
                        twice.get_or_insert(k);
                    } else {
                        renamed.insert(key, n);
                    }
                }
                *t = renamed;
            }
        }
    }
    match map.get_mut("win") {
        Some(Value::Array(wins)) => {
            for w in wins.iter_mut() {
                if let Some(new) = rename("win", w) {
                    *w = new;
                }
            }
        }
        Some(w @ (Value::Number(_) | Value::String(_))) => {
            if let Some(new) = rename("win", w) {
                *w = new;
            }
        }
        _ => {}
    }
    twice
}

/// Whether `k` is a field of the full form, required or optional.
fn is_field(k: &str) -> bool {
    FIELDS.contains(&k)
        || OPTIONAL_FIELDS.contains(&k)
        || PIPELINE_FIELDS.contains(&k)
        || k == HOOK_FIELD
}

/// The format a file says, if it is one this build reads.
fn check_format(map: &Map<String, Value>) -> Result<u32, VariantError> {
    match map.get("format") {
        None => Err(VariantError::field("format", "missing field")),
        Some(v) => match v.as_u64() {
            Some(f) if (u64::from(FORMAT_1)..=u64::from(FORMAT)).contains(&f) => {
                Ok(u32::try_from(f).unwrap_or(FORMAT))
            }
            Some(f) if f > u64::from(FORMAT) => Err(VariantError::field(
                "format",
                format!("format {f} is newer than this build reads ({FORMAT})"),
            )),
            _ => Err(VariantError::field(
                "format",
                format!("{} is not a format (1, 2 or 3)", bounded(&v.to_string())),
            )),
        },
    }
}

/// Records' tiles named in a file's spawns and win (`"(1, 0)"`) renamed by their ranks, as
/// [`integers_to_values`] does for a range; `None` when the tiles are not records.
fn records_to_values(map: &Map<String, Value>) -> Result<Option<Map<String, Value>>, VariantError> {
    let Some(tiles) = map
        .get("tiles")
        .filter(|t| t.as_object().is_some_and(|o| o.contains_key("records")))
    else {
        return Ok(None);
    };
    if check_format(map)? < FORMAT_3 {
        return Err(VariantError::field("tiles", "records need \"format\": 3"));
    }
    let records = ladder::Records::from_json(tiles).map_err(|m| VariantError::field("tiles", m))?;
    let mut out = map.clone();
    let mut off = None;
    let twice = rename_tiles(&mut out, |field, v| {
        let text = match v {
            Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        let rank = records.rank_of_text(&text);
        if rank.is_none() {
            off.get_or_insert((field, text));
        }
        rank.map(Value::from)
    });
    if let Some((field, text)) = off {
        return Err(VariantError::field(
            field,
            format!(
                "{} is not a tile: name a record by its fields, as \"(1, 0)\"",
                quote(&text)
            ),
        ));
    }
    match twice {
        Some(key) => Err(VariantError::field(
            "spawn",
            format!("{} names a tile named before (each tile once)", quote(&key)),
        )),
        None => Ok(Some(out)),
    }
}

impl Variant {
    /// Finds the fields its rules read (`a.x`) among the records' fields; the refusal names the
    /// rule and the field.
    fn bind_fields(&mut self) -> Result<(), VariantError> {
        let fields = self
            .tiles
            .as_records()
            .map(|r| r.fields.clone())
            .unwrap_or_default();
        for (i, rule) in self.merges.iter_mut().enumerate() {
            let at = |m: String| VariantError::field("merges", format!("rule {}: {m}", i + 1));
            for c in &mut rule.when {
                c.bind(&fields).map_err(|m| at(format!("when: {m}")))?;
            }
            if let Some(Pos::Int(e)) = &mut rule.makes {
                e.bind(&fields).map_err(|m| at(format!("makes: {m}")))?;
            }
            if let Some(e) = &mut rule.scores {
                e.bind(&fields).map_err(|m| at(format!("scores: {m}")))?;
            }
            for p in rule.tiles.iter_mut().chain(&mut rule.leaves) {
                if let Pos::Int(e) = p {
                    e.bind(&fields).map_err(|m| at(format!("tiles: {m}")))?;
                }
            }
        }
        self.pipeline.bind(&fields)
    }

    /// Reads and checks a full form: every field, nothing else.
    pub fn from_json(map: &Map<String, Value>) -> Result<Variant, VariantError> {
        if let Some(k) = map.keys().find(|k| !is_field(k)) {
            return Err(VariantError::field(k, "unknown field"));
        }
        let format = check_format(map)?;
        let pipeline = Pipeline::read(map, format)?;
        let hook = Hook::read(map, format)?;
        if let Some(k) = FIELDS.iter().find(|k| !map.contains_key(**k)) {
            return Err(VariantError::field(k, "missing field"));
        }
        let converted = match records_to_values(map)? {
            Some(m) => Some(m),
            None => integers_to_values(map)?,
        };
        let map = converted.as_ref().unwrap_or(map);
        // The merge rules may read the pipeline's counters (mod 27's `m`).
        crate::condition::with_counters(&pipeline.names(), || Self::typed(map, pipeline, hook))
    }

    /// [`Variant::from_json`] past its pipeline and hook: the fields read one by one and checked.
    fn typed(
        map: &Map<String, Value>,
        pipeline: Pipeline,
        hook: Option<Hook>,
    ) -> Result<Variant, VariantError> {
        // Field by field, so that a type error names its field.
        let mut typed = Map::new();
        for field in FIELDS {
            let value = match map.get(field) {
                // `"win": {"when": …}` is the pipeline's: no winning tile.
                Some(Value::Object(_)) if field == "win" => Value::Null,
                v => v.cloned().unwrap_or(Value::Null),
            };
            check_type(field, &value)?;
            typed.insert(field.to_string(), value);
        }
        for field in OPTIONAL_FIELDS {
            if let Some(value) = map.get(field) {
                check_type(field, value)?;
                typed.insert(field.to_string(), value.clone());
            }
        }
        let mut variant = Variant::deserialize(Value::Object(typed))
            .map_err(|e| VariantError::whole(tilebox_core::json_words::error_words(&e)))?;
        variant.pipeline = pipeline;
        variant.hook = hook;
        variant.bind_fields()?;
        variant.validate()?;
        if let Some(h) = variant.hook {
            h.check(&variant)?;
        }
        Ok(variant)
    }

    /// Reads and checks the text of a full form.
    pub fn from_text(text: &str) -> Result<Variant, VariantError> {
        Self::from_json(&parse_object(text)?)
    }

    /// The full form as JSON.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// Whether two variants have the same rules, whatever their ids, names and formats: their
    /// JSON without the fields that name a game ([`tilebox_core::rules_without`] of
    /// [`NAME_FIELDS`]), as game codes compare them.
    pub fn same_rules(&self, other: &Variant) -> bool {
        let rules = |v: &Variant| tilebox_core::rules_without(&v.to_json(), NAME_FIELDS);
        rules(self) == rules(other)
    }

    /// Whether two variants play alike on a board of the same side: the same ladder, merges,
    /// motion, spawns, spawn cells and preview (the side, win, start, score and names aside).
    /// The AI's bitboards and the front end's palettes and help ask it of the built-ins.
    pub fn plays_like(&self, other: &Variant) -> bool {
        self.tiles == other.tiles
            && self.merges == other.merges
            && self.motion == other.motion
            && self.spawn == other.spawn
            && self.spawn_at == other.spawn_at
            && self.preview == other.preview
            && self.hook == other.hook
    }

    /// The ladder position (rank, from 1) of a tile value, if it is on the ladder.
    pub fn rank_of(&self, value: u64) -> Option<Rank> {
        self.tiles
            .binary_search(&value)
            .ok()
            .and_then(|i| Rank::try_from(i + 1).ok())
    }

    /// Checks every rule of `docs/variants.md` on a description read field by field.
    pub fn validate(&self) -> Result<(), VariantError> {
        let err = |f: &str, m: String| VariantError::field(f, m);
        if !(FORMAT_1..=FORMAT).contains(&self.format) {
            return Err(err(
                "format",
                format!("{} is not a format (1, 2 or 3)", self.format),
            ));
        }
        // Merge rules that read counters are compiled for each state of them.
        let states: i64 = self
            .pipeline
            .counters
            .iter()
            .enumerate()
            .filter(|&(i, _)| {
                self.merges
                    .iter()
                    .any(|r| r.exprs().any(|e| e.reads_counter(i)))
            })
            .map(|(_, c)| c.values[1] - c.values[0] + 1)
            .fold(1i64, i64::saturating_mul);
        if states > MAX_MERGE_STATES {
            return Err(err(
                "merges",
                format!(
                    "the rules read counters of {states} states, more than {}",
                    MAX_MERGE_STATES
                ),
            ));
        }
        let format_2 = self.format >= 2;
        if let Some(why) = id_refusal(&self.id) {
            return Err(err("id", why));
        }
        if !(2..=8).contains(&self.side) {
            return Err(err("side", format!("{} is not from 2 to 8", self.side)));
        }
        let len = self.tiles.len();
        if let Some([from, to]) = self.tiles.integer_range() {
            if !format_2 {
                return Err(err(
                    "tiles",
                    "a range of integers needs \"format\": 2".into(),
                ));
            }
            if len == 0 {
                return Err(err("tiles", ladder::not_a_range([from, to])));
            }
            if self.motion == Movement::Step {
                return Err(err(
                    "motion",
                    "\"step\" motion takes a ladder, not a range of integers".into(),
                ));
            }
            if !self.labels.is_empty() {
                return Err(err(
                    "labels",
                    "a range of integers shows its numbers: give no labels".into(),
                ));
            }
            if self.score != Scoring::Merges {
                return Err(err("score", "a range of integers scores \"merges\"".into()));
            }
            if self.spawn.bonus.is_some() {
                return Err(err("spawn", "a range of integers takes no bonus".into()));
            }
        }
        if self.tiles.as_records().is_some() {
            if self.format < FORMAT_3 {
                return Err(err("tiles", "records need \"format\": 3".into()));
            }
            if self.motion == Movement::Step {
                return Err(err(
                    "motion",
                    "\"step\" motion takes a ladder, not records".into(),
                ));
            }
            if !self.labels.is_empty() {
                return Err(err(
                    "labels",
                    "records show their \"label\": give no labels".into(),
                ));
            }
            if self.score != Scoring::Merges {
                return Err(err("score", "records score \"merges\"".into()));
            }
            if self.spawn.bonus.is_some() {
                return Err(err("spawn", "records take no bonus".into()));
            }
        }
        if len == 0 {
            return Err(err("tiles", "the ladder is empty".into()));
        }
        if len > MAX_TILES && !self.tiles.is_numbered() {
            return Err(err("tiles", format!("{len} tiles, more than {MAX_TILES}")));
        }
        if let Some(w) = self.tiles.windows(2).find(|w| w[0] >= w[1]) {
            return Err(err(
                "tiles",
                format!("not strictly increasing ({} then {})", w[0], w[1]),
            ));
        }
        if self.tiles[0] == 0 {
            return Err(err("tiles", "0 is an empty cell, not a tile".into()));
        }
        for (i, rule) in self.merges.iter().enumerate() {
            let at = |m: String| err("merges", format!("rule {}: {m}", i + 1));
            if self.format < FORMAT_3
                && let Some(why) = format_3_refusal(rule)
            {
                return Err(at(why));
            }
            let fields = self.tiles.as_records().map_or(0, |r| r.fields.len());
            if let Some(field) = rule.exprs().find_map(Expr::unbound_field) {
                return Err(at(format!(
                    "{} reads a field, but the tiles are not records",
                    quote(&field)
                )));
            }
            if let Some(Pos::Int(e)) = &rule.makes
                && e.arity() > 1
                && e.arity() != fields
            {
                return Err(at(if fields == 0 {
                    format!("makes: \"{e}\" is a record, but the tiles are not records")
                } else {
                    format!(
                        "makes: \"{e}\" has {} fields; a record here has {fields}",
                        e.arity()
                    )
                }));
            }
            if let Some(Pos::Int(e)) = &rule.makes
                && fields > 1
                && e.arity() == 1
            {
                return Err(at(format!(
                    "makes: \"{e}\" is one number; a record here has {fields} fields: make (x, y, …)"
                )));
            }
            if rule
                .tiles
                .iter()
                .chain(&rule.leaves)
                .any(|p| matches!(p, Pos::Int(e) if e.arity() > 1))
                || rule.scores.as_ref().is_some_and(|e| e.arity() > 1)
            {
                return Err(at("a record (x, y, …) is only what a rule makes".into()));
            }
            if self.tiles.is_numbered() {
                if let Some(why) = integer_rule_refusal(rule, self.format >= FORMAT_3) {
                    return Err(at(why));
                }
            } else if rule
                .tiles
                .iter()
                .chain(&rule.makes)
                .chain(&rule.leaves)
                .any(|p| matches!(p, Pos::Int(_)))
                || !rule.when.is_empty()
            {
                return Err(at(
                    "tile letters and when need \"tiles\": {\"integers\": [from, to]}".into(),
                ));
            } else if rule.scores.is_some() {
                return Err(at(
                    "scores needs \"tiles\": {\"integers\": [from, to]} (a ladder scores by \"score\")".into(),
                ));
            }
            let most = if self.format >= FORMAT_3 {
                MAX_RULE_TILES
            } else if format_2 {
                MAX_FORMAT_2_RULE_TILES
            } else {
                3
            };
            match rule.tiles.len() {
                k if (2..=most).contains(&k) => {}
                k @ 4..=MAX_FORMAT_2_RULE_TILES => {
                    return Err(at(format!(
                        "{k} tiles; a rule of 4 or 5 tiles needs \"format\": 2"
                    )));
                }
                k @ 6..=MAX_RULE_TILES => {
                    return Err(at(format!(
                        "{k} tiles; a rule of 6 tiles needs \"format\": 3"
                    )));
                }
                k => {
                    return Err(at(format!("{k} tiles; a rule takes 2 to {most}")));
                }
            }
            if rule.tiles.len() > MAX_FORMAT_2_RULE_TILES {
                if rule.any_order {
                    return Err(at(format!(
                        "{} tiles in any order; a rule of more than {MAX_FORMAT_2_RULE_TILES} tiles takes them as listed",
                        rule.tiles.len()
                    )));
                }
                if self.tiles.is_numbered() {
                    return Err(at(format!(
                        "{} tiles; a rule of a range of integers or of records takes 2 to {MAX_FORMAT_2_RULE_TILES}",
                        rule.tiles.len()
                    )));
                }
            }
            if self.motion == Movement::Step && rule.tiles.len() != 2 {
                return Err(at("\"step\" motion takes 2-tile rules only".into()));
            }
            if !rule.leaves.is_empty() {
                if !format_2 {
                    return Err(at("leaves needs \"format\": 2".into()));
                }
                if self.motion == Movement::Step {
                    return Err(at("\"step\" motion takes no leaves".into()));
                }
                if rule.leaves.len() >= rule.tiles.len() {
                    return Err(at(format!(
                        "{} tiles in make {} out; a merge leaves fewer tiles than it takes",
                        rule.tiles.len(),
                        rule.leaves.len() + 1
                    )));
                }
            }
            if rule.run {
                if !format_2 {
                    return Err(at("run needs \"format\": 2".into()));
                }
                if self.motion == Movement::Step {
                    return Err(at("\"step\" motion takes no runs".into()));
                }
                if rule.tiles.windows(2).any(|w| w[0] != w[1]) {
                    return Err(at(
                        "run takes equal tiles: every position in tiles the same".into(),
                    ));
                }
            }
            if rule.makes.is_none() {
                if !format_2 {
                    return Err(at("\"makes\": null needs \"format\": 2".into()));
                }
                if self.motion == Movement::Step {
                    return Err(at(
                        "\"step\" motion takes no merges that make nothing".into()
                    ));
                }
                if !rule.leaves.is_empty() {
                    return Err(at(
                        "a merge that makes nothing leaves nothing: give makes or drop leaves"
                            .into(),
                    ));
                }
            }
            for (field, places) in [
                ("tiles", &rule.tiles[..]),
                ("makes", rule.makes.as_slice()),
                ("leaves", &rule.leaves[..]),
            ] {
                if let Some(p) = places.iter().find_map(|pos| match *pos {
                    Pos::Exact(p) if p == 0 || p as usize > len => Some(p),
                    _ => None,
                }) {
                    return Err(at(format!(
                        "{field}: position {p} is off the ladder (1 to {len})"
                    )));
                }
            }
            let relative = rule.tiles.iter().any(|p| matches!(p, Pos::Rel(_)));
            if rule
                .makes
                .iter()
                .chain(&rule.leaves)
                .any(|p| matches!(p, Pos::Rel(_)))
                && !relative
            {
                return Err(at(
                    "it makes a tile relative to n but no tile in names n".into()
                ));
            }
            if rule.n_every.is_some_and(|[m, r]| m == 0 || r >= m) {
                return Err(at("n_every [m, r] needs m > 0 and r < m".into()));
            }
            if rule.is_conditional() {
                if !format_2 {
                    return Err(at("on_moves and directions need \"format\": 2".into()));
                }
                if self.motion == Movement::Step {
                    return Err(at(
                        "\"step\" motion takes no rules for some moves or directions".into(),
                    ));
                }
            }
            if !rule.spent.is_empty() {
                if !format_2 {
                    return Err(at("spent needs \"format\": 2".into()));
                }
                if self.motion == Movement::Step {
                    return Err(at("\"step\" motion takes no spent cells".into()));
                }
                // The cells the merge empties: those after the tiles it makes and leaves.
                let kept = usize::from(rule.makes.is_some()) + rule.leaves.len();
                let k = rule.tiles.len();
                if kept >= k {
                    return Err(at(
                        "spent: this merge empties no cell (it leaves as many tiles as it takes)"
                            .into(),
                    ));
                }
                if let Some(&p) = rule
                    .spent
                    .iter()
                    .find(|&&p| !(kept..k).contains(&usize::from(p)))
                {
                    return Err(at(format!(
                        "spent: place {p} is not a cell the merge empties ({kept} to {})",
                        k - 1
                    )));
                }
                if let Some(p) = rule
                    .spent
                    .iter()
                    .enumerate()
                    .find_map(|(i, p)| rule.spent[..i].contains(p).then_some(p))
                {
                    return Err(at(format!("spent: place {p} is given twice")));
                }
            }
            if let Some([m, r]) = rule.on_moves
                && (m == 0 || r >= m || m > MAX_MOVE_CYCLE)
            {
                return Err(at(format!(
                    "on_moves [m, r] needs m from 1 to {MAX_MOVE_CYCLE} and r < m"
                )));
            }
            if let Some(d) = rule
                .directions
                .iter()
                .enumerate()
                .find_map(|(i, d)| rule.directions[..i].contains(d).then_some(d))
            {
                return Err(at(format!("directions: {} is given twice", d.word())));
            }
        }
        if self.move_cycle() > MAX_MOVE_CYCLE {
            return Err(err(
                "merges",
                format!(
                    "the rules' on_moves cycles repeat together every {} moves, more than {MAX_MOVE_CYCLE}",
                    self.move_cycle()
                ),
            ));
        }
        if self.move_sets().is_none() {
            return Err(err(
                "merges",
                format!(
                    "the rules' on_moves and directions make more than {MAX_MOVE_SETS} different sets of rules over their cycle"
                ),
            ));
        }
        self.validate_spawn()?;
        if self.pipeline.draw.is_some() && self.spawn.bag.is_some() {
            return Err(VariantError::field(
                "draw",
                "a draw goes with spawn's weights, not with a bag",
            ));
        }
        if self.start > self.side * self.side {
            return Err(err(
                "start",
                format!(
                    "{} tiles on a board of {} cells",
                    self.start,
                    self.side * self.side
                ),
            ));
        }
        let wins = self.win.values();
        if wins.len() > 1 && !format_2 {
            return Err(err(
                "win",
                "a list of winning tiles needs \"format\": 2".into(),
            ));
        }
        if let Some(win) = wins.iter().find(|&&w| self.rank_of(w).is_none()) {
            return Err(err("win", format!("{win} is not a tile of the ladder")));
        }
        if let Some(w) = wins.windows(2).find(|w| w[0] >= w[1]) {
            return Err(err(
                "win",
                format!(
                    "not strictly increasing ({} then {})",
                    self.tile_text(w[0]),
                    self.tile_text(w[1])
                ),
            ));
        }
        // The game is won once the highest tile reaches the lowest: so that this is making one
        // of them, they are neighbours on the ladder.
        // A range of integers wins on any of them (its merges may pass over a number).
        if let Some(w) = wins
            .windows(2)
            .filter(|_| !self.tiles.is_numbered())
            .find(|w| self.rank_of(w[1]) != self.rank_of(w[0]).map(|r| r + 1))
        {
            return Err(err(
                "win",
                format!(
                    "{} and {} are not neighbours on the ladder: the tiles of a list of wins follow one another",
                    w[0], w[1]
                ),
            ));
        }
        match &self.score {
            Scoring::Merges => {}
            Scoring::Made(_) if !format_2 => {
                return Err(err(
                    "score",
                    "points for the tiles merges make need \"format\": 2".into(),
                ));
            }
            Scoring::Board(points) | Scoring::Made(points) => {
                if points.len() != len {
                    return Err(err(
                        "score",
                        format!(
                            "{} points for {len} ladder tiles; give one per tile",
                            points.len()
                        ),
                    ));
                }
            }
        }
        self.validate_labels()
    }

    /// How many moves it takes the rules of every move to come round again: the least common
    /// multiple of the rules' `on_moves` cycles (1 when no rule has one).
    pub fn move_cycle(&self) -> u32 {
        fn gcd(a: u32, b: u32) -> u32 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        self.merges
            .iter()
            .filter_map(|r| r.on_moves.map(|[m, _]| m.max(1)))
            .fold(1u32, |l, m| (l / gcd(l, m)).saturating_mul(m))
    }

    /// Which rules hold on each move and direction, where some hold on some moves or
    /// directions only: moves whose rules' conditions hold alike share a set. Empty sets for
    /// every other variant; `None` past [`MAX_MOVE_SETS`] sets (or a cycle past
    /// [`MAX_MOVE_CYCLE`]), which [`Variant::validate`] refuses.
    pub(crate) fn move_sets(&self) -> Option<MoveSets> {
        let mut sets = MoveSets {
            of_move: Vec::new(),
            first: Vec::new(),
        };
        let cycle = self.move_cycle();
        if !self.has_move_rules() {
            return Some(sets);
        }
        if cycle > MAX_MOVE_CYCLE {
            return None;
        }
        // The rules' conditions, each once: which of them hold names a move's set.
        let mut conditions: Vec<&MergeRule> = Vec::new();
        for rule in &self.merges {
            if !conditions
                .iter()
                .any(|c| c.on_moves == rule.on_moves && c.directions == rule.directions)
            {
                conditions.push(rule);
            }
        }
        // Which conditions hold, a bit each.
        let mut seen: BTreeMap<Vec<u64>, u16> = BTreeMap::new();
        let mut holding = vec![0u64; conditions.len().div_ceil(64)];
        // Without rules for some directions, every direction of a move holds the same set.
        let by_direction = conditions.iter().any(|c| !c.directions.is_empty());
        for dir in crate::Direction::ALL {
            if !by_direction && !sets.of_move.is_empty() {
                sets.of_move.extend_from_within(..cycle as usize);
                continue;
            }
            for turn in 0..u64::from(cycle) {
                holding.fill(0);
                for (i, c) in conditions.iter().enumerate() {
                    if c.holds_on(dir, turn) {
                        holding[i / 64] |= 1 << (i % 64);
                    }
                }
                let set = match seen.get(&holding) {
                    Some(&set) => set,
                    None if sets.first.len() < MAX_MOVE_SETS => {
                        let set = u16::try_from(sets.first.len()).ok()?;
                        sets.first.push((dir, turn));
                        seen.insert(holding.clone(), set);
                        set
                    }
                    None => return None,
                };
                sets.of_move.push(set);
            }
        }
        Some(sets)
    }

    /// Whether some rule reads the move's number `t` (format 3).
    pub fn reads_turn(&self) -> bool {
        self.merges.iter().any(|r| r.exprs().any(Expr::reads_turn))
    }

    /// What the rules read of move `turn`: the values of their parts that read `t` and no tile
    /// ([`Expr::turn_parts`]). Two moves with the same values play alike (Turatin's `t / 4 + 1`
    /// is the same for moves 4 to 7); empty when no rule reads `t`.
    pub fn turn_parts(&self, turn: u64) -> Vec<Option<i64>> {
        let mut out = Vec::new();
        let turn = i64::try_from(turn).unwrap_or(i64::MAX);
        for e in self.merges.iter().flat_map(MergeRule::exprs) {
            e.turn_parts(turn, &mut out);
        }
        out
    }

    /// Whether some rule holds on some moves or directions only.
    pub fn has_move_rules(&self) -> bool {
        self.merges.iter().any(MergeRule::is_conditional)
    }

    /// The variant as it plays on a move toward `dir` numbered `turn`: the rules that hold
    /// then, with their conditions dropped.
    pub fn on_move(&self, dir: crate::Direction, turn: u64) -> Variant {
        let merges = self
            .merges
            .iter()
            .filter(|r| r.holds_on(dir, turn))
            .map(|r| MergeRule {
                on_moves: None,
                directions: Vec::new(),
                ..r.clone()
            })
            .collect();
        Variant {
            merges,
            ..self.clone()
        }
    }

    /// Checks `labels`: format 2, one per tile, each short, plain and its own.
    fn validate_labels(&self) -> Result<(), VariantError> {
        let err = |m: String| VariantError::field("labels", m);
        if self.labels.is_empty() {
            return Ok(());
        }
        if self.format < 2 {
            return Err(err("labels need \"format\": 2".into()));
        }
        if self.labels.len() != self.tiles.len() {
            return Err(err(format!(
                "{} labels for {} ladder tiles; give one per tile",
                self.labels.len(),
                self.tiles.len()
            )));
        }
        for (i, label) in self.labels.iter().enumerate() {
            let n = i + 1;
            if label.is_empty() || label == "." {
                return Err(err(format!(
                    "label {n} ({}) is empty or \".\", which shows an empty cell",
                    quote(label)
                )));
            }
            if label.chars().count() > MAX_LABEL {
                return Err(err(format!(
                    "label {n} ({}) is longer than {MAX_LABEL} characters",
                    quote(label)
                )));
            }
            if let Some(c) = label
                .chars()
                .find(|c| c.is_whitespace() || c.is_control() || ",;/:".contains(*c))
            {
                return Err(err(format!(
                    "label {n} ({label:?}) holds {c:?}; a label has no spaces, commas, \
                     semicolons, slashes or colons"
                )));
            }
            if let Some(j) = self.labels[..i].iter().position(|l| l == label) {
                return Err(err(format!(
                    "labels {} and {n} are both {label:?}; each tile shows its own",
                    j + 1
                )));
            }
        }
        Ok(())
    }

    /// The winning tiles in words, as the board shows them ([`Win::words`]).
    pub fn win_words(&self) -> Option<String> {
        self.win.words_by(|v| self.tile_text(v))
    }

    /// What a tile of `value` shows: its label, or its number. `"."` for 0, an empty cell.
    pub fn tile_text(&self, value: u64) -> String {
        if value == 0 {
            return ".".to_string();
        }
        if let Some(r) = self.tiles.as_records() {
            return r.label_of(value).unwrap_or_else(|| "?".into());
        }
        if let Some(i) = self.tiles.integer(value) {
            return i.to_string();
        }
        self.rank_of(value)
            .and_then(|r| self.labels.get(usize::from(r) - 1))
            .cloned()
            .unwrap_or_else(|| value.to_string())
    }

    /// The tile value whose text ([`Variant::tile_text`]) is `text`: a label, or a number
    /// when the variant has no labels.
    pub fn value_of_text(&self, text: &str) -> Option<u64> {
        if text == "." {
            return Some(0);
        }
        if let Some(r) = self.tiles.as_records() {
            return r.rank_of_label(text);
        }
        if self.tiles.is_integers() {
            return self.tiles.value_of_integer(text.parse().ok()?);
        }
        if self.labels.is_empty() {
            return text.parse().ok().filter(|v| self.rank_of(*v).is_some());
        }
        let i = self.labels.iter().position(|l| l == text)?;
        self.tiles.get(i).copied()
    }

    /// The number of the tile of `rank`, as expressions read it: its value on a ladder, its
    /// integer in a range of integers; `None` off the ladder.
    pub fn number(&self, rank: Rank) -> Option<i64> {
        if self.tiles.is_integers() {
            return self.tiles.integer(u64::from(rank));
        }
        let i = usize::from(rank).checked_sub(1)?;
        self.tiles.get(i).and_then(|&v| i64::try_from(v).ok())
    }

    /// The rank of the tile whose number is `n` ([`Variant::number`]), if it is a tile.
    pub fn rank_of_number(&self, n: i64) -> Option<Rank> {
        if self.tiles.is_integers() {
            return self
                .tiles
                .value_of_integer(n)
                .and_then(|v| Rank::try_from(v).ok());
        }
        self.rank_of(u64::try_from(n).ok()?)
    }

    /// What a merge that makes a tile of ladder position `rank` scores under `"merges"` or
    /// `{"merges": [...]}` scoring: its points, or its value (in a range of integers the
    /// integer, 0 below 1).
    pub fn worth(&self, rank: Rank) -> u64 {
        let i = usize::from(rank).wrapping_sub(1);
        match &self.score {
            Scoring::Made(points) => points.get(i).copied().unwrap_or(0),
            _ if self.tiles.is_numbered() => self
                .tiles
                .integer(u64::from(rank))
                .and_then(|i| u64::try_from(i).ok())
                .unwrap_or(0),
            _ => self.tiles.get(i).copied().unwrap_or(0),
        }
    }

    fn validate_spawn(&self) -> Result<(), VariantError> {
        let err = |m: String| VariantError::field("spawn", m);
        let table = match (&self.spawn.weights, &self.spawn.bag) {
            (Some(w), None) => {
                if self.spawn.bonus.is_some() {
                    return Err(err("a bonus goes with a bag, not with weights".into()));
                }
                w
            }
            (None, Some(b)) => b,
            _ => return Err(err("give exactly one of \"weights\" and \"bag\"".into())),
        };
        if table.values().all(|&n| n == 0) {
            return Err(err("nothing can spawn (every weight or count is 0)".into()));
        }
        if table.values().map(|&n| u64::from(n)).sum::<u64>() > u64::from(u32::MAX) {
            return Err(err("the weights or counts add up past 2^32".into()));
        }
        if table.values().map(|&n| u64::from(n)).sum::<u64>() > 100_000 && self.spawn.bag.is_some()
        {
            return Err(err("a bag of more than 100000 tiles".into()));
        }
        if let Some(v) = table.keys().find(|&&v| self.rank_of(v).is_none()) {
            return Err(err(format!("{v} is not a tile of the ladder")));
        }
        if let Some(bonus) = self.spawn.bonus {
            let [num, den] = bonus.chance;
            if den == 0 || num > den {
                return Err(err(format!("bonus chance [{num}, {den}] is not a chance")));
            }
            if bonus.top_divided_by == 0 {
                return Err(err("bonus top_divided_by is 0".into()));
            }
            if self.rank_of(bonus.lowest).is_none() {
                return Err(err(format!(
                    "bonus lowest {} is not a tile of the ladder",
                    bonus.lowest
                )));
            }
        }
        Ok(())
    }
}

/// Checks the JSON type of one field, so that a wrong type is refused naming its field.
fn check_type(field: &str, value: &Value) -> Result<(), VariantError> {
    let fits = match field {
        "format" | "side" | "start" => value.as_u64().is_some(),
        "id" | "title" | "description" => value.is_string(),
        "tiles" => {
            value
                .as_array()
                .is_some_and(|a| a.iter().all(|v| v.as_u64().is_some()))
                || serde_json::from_value::<ladder::Range>(value.clone()).is_ok()
                || value.as_object().is_some_and(|o| o.contains_key("records"))
        }
        "merges" => check_merges(value)
            .map_err(|m| VariantError::field(field, m))
            .map(|()| true)?,
        "motion" => serde_json::from_value::<Movement>(value.clone()).is_ok(),
        "spawn" => check_spawn(value)
            .map_err(|m| VariantError::field(field, m))
            .map(|()| true)?,
        "spawn_at" => serde_json::from_value::<SpawnAt>(value.clone()).is_ok(),
        "preview" => value.is_boolean(),
        "win" => {
            value.is_null()
                || value.as_u64().is_some()
                || value
                    .as_array()
                    .is_some_and(|a| !a.is_empty() && a.iter().all(|v| v.as_u64().is_some()))
        }
        "score" => serde_json::from_value::<Scoring>(value.clone()).is_ok(),
        "labels" => value
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        _ => true,
    };
    if fits {
        Ok(())
    } else {
        let expected = match field {
            "format" | "side" | "start" => "a whole number",
            "id" | "title" | "description" => "a string",
            "tiles" => "a list of whole numbers or {\"integers\": [from, to]} (format 2)",
            "motion" => "\"slide\" or \"step\"",
            "spawn_at" => "\"anywhere\" or \"moved_edge\"",
            "preview" => "true or false",
            "win" => "a tile value, a list of tile values (format 2) or null",
            "score" => "\"merges\", {\"board\": [...]} or {\"merges\": [...]} (format 2)",
            "labels" => "a list of texts",
            _ => "something else",
        };
        Err(VariantError::field(
            field,
            format!("{} is not {expected}", bounded(&value.to_string())),
        ))
    }
}
