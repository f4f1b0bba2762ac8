//! A variant's tiles: a ladder of values, (format 2) a range of integers, or (format 3)
//! records of named integer fields.

use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use tilebox_core::json_words::quote;

use crate::condition::{Cond, Env, Expr, MAX_FIELDS, field_name};

/// The most tiles a range of integers may hold: ranks are 1 to 65,535 (0 is an empty cell).
pub const MAX_INTEGER_TILES: u64 = 65_535;

/// The tiles of a variant, in order. A ladder lists its values (`[2, 4, 8, …]`); a range of
/// integers (`{"integers": [from, to]}`, format 2: 1762's tiles are every whole number) holds
/// every integer from `from` to `to`, tile `i` of the range (counted from 1) being worth
/// `from + i - 1`. Either way ladder position `p` is rank `p` on the board, and a tile is named
/// by a value: the ladder's own, or for a range the tile's position in it, so that the value
/// of an integer is the integer itself when the range starts at 1. Derefs to the values,
/// which copies share (a range's are thousands); two ranges are equal when their ends are.
#[derive(Debug, Clone, Default)]
pub struct Ladder {
    values: Arc<[u64]>,
    integers: Option<[i64; 2]>,
    records: Option<Arc<Records>>,
}

impl PartialEq for Ladder {
    fn eq(&self, other: &Self) -> bool {
        match (self.integers, other.integers) {
            (Some(a), Some(b)) => a == b,
            (None, None) => match (&self.records, &other.records) {
                (Some(a), Some(b)) => a.source == b.source,
                (None, None) => self.values == other.values,
                _ => false,
            },
            _ => false,
        }
    }
}

impl Eq for Ladder {}

impl Hash for Ladder {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match (self.integers, &self.records) {
            (Some(range), _) => range.hash(state),
            (None, Some(r)) => r.source.to_string().hash(state),
            (None, None) => self.values.hash(state),
        }
    }
}

/// The most tiles a set of records may hold, as a range of integers.
pub const MAX_RECORD_TILES: u64 = MAX_INTEGER_TILES;

/// Tiles that are records (format 3): 1 to [`MAX_FIELDS`] named integer fields, every record of
/// a product of ranges (`"ranges"`, the first field varying slowest) or a list of them
/// (`"list"`, written by a generator, kept sorted by worth so that the nearest tile below one
/// is the one worth the most less); each has a worth (`"worth"`, an expression of the fields:
/// what a merge that makes it scores where its rule gives no score, and the AI's scale) and a
/// label (`"label"`, text with expressions of the fields in braces: `"({x}, {y})"`, or a list
/// of them each but the last chosen by a condition, `[{"if": "p = 1", "text": "+{v}"},
/// {"text": "{v}"}]`). Tile `i`
/// (from 1) of the set is rank `i`, and its value in the file's other fields is written as the
/// record, `"(1, 0)"`.
#[derive(Debug)]
pub struct Records {
    /// The fields' names.
    pub fields: Vec<String>,
    /// The ranges of the fields, when the records are their product.
    ranges: Option<Vec<[i64; 2]>>,
    /// Each tile's fields, by rank - 1.
    list: Vec<[i64; MAX_FIELDS]>,
    /// Each tile's worth, by rank - 1.
    worths: Vec<i64>,
    /// The rank of a listed record.
    index: std::collections::HashMap<[i64; MAX_FIELDS], u16>,
    /// The labels, each with the condition that chooses it (none for the last): a tile shows
    /// the first whose condition it meets.
    label: Vec<(Option<Cond>, Template)>,
    /// The JSON it was read from.
    source: Value,
    /// The rank of each label, made the first time a label is looked up.
    by_label: std::sync::OnceLock<std::collections::HashMap<String, u64>>,
}

impl Records {
    /// Reads `{"records": {"fields": [...], "ranges" | "list": [...]}, "worth": "...",
    /// "label": "..."}`; the refusal is one line naming the part that is wrong.
    pub fn from_json(value: &Value) -> Result<Records, String> {
        let obj = value.as_object().ok_or("records are an object")?;
        if let Some(k) = obj
            .keys()
            .find(|k| !["records", "worth", "label"].contains(&k.as_str()))
        {
            return Err(format!(
                "{} is not a part of records (records, worth, label)",
                quote(k)
            ));
        }
        let rec = obj
            .get("records")
            .and_then(Value::as_object)
            .ok_or("records: give {\"fields\": [...], \"ranges\" or \"list\": [...]}")?;
        if let Some(k) = rec
            .keys()
            .find(|k| !["fields", "ranges", "list"].contains(&k.as_str()))
        {
            return Err(format!(
                "records: {} is not fields, ranges or list",
                quote(k)
            ));
        }
        let fields: Vec<String> = rec
            .get("fields")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().map(|f| f.as_str().map(String::from)).collect())
            .ok_or("records: fields is a list of names")?;
        if fields.is_empty() || fields.len() > MAX_FIELDS {
            return Err(format!(
                "records: {} fields; a record has 1 to {MAX_FIELDS}",
                fields.len()
            ));
        }
        for (i, f) in fields.iter().enumerate() {
            if field_name(f).is_none()
                || f.len() == 1
                    && crate::condition::LETTERS.contains(&f.chars().next().unwrap_or('a'))
                || f == "t"
            {
                return Err(format!(
                    "records: field {} is not a name (1 to 8 small letters, not a tile letter or t)",
                    quote(f)
                ));
            }
            if fields[..i].contains(f) {
                return Err(format!("records: field {} is named twice", quote(f)));
            }
        }
        let width = fields.len();
        let (ranges, mut list) = match (rec.get("ranges"), rec.get("list")) {
            (Some(r), None) => {
                let ranges: Vec<[i64; 2]> = serde_json::from_value(r.clone())
                    .map_err(|_| "records: ranges is a list of [from, to], one per field")?;
                if ranges.len() != width {
                    return Err(format!(
                        "records: {} ranges for {width} fields",
                        ranges.len()
                    ));
                }
                let mut count: u64 = 1;
                for (f, &[from, to]) in fields.iter().zip(&ranges) {
                    let len = to
                        .checked_sub(from)
                        .and_then(|d| u64::try_from(d).ok())
                        .and_then(|d| d.checked_add(1))
                        .ok_or_else(|| format!("records: the range of {} is empty", quote(f)))?;
                    count = count.saturating_mul(len);
                }
                if count > MAX_RECORD_TILES {
                    return Err(format!(
                        "records: the ranges hold {count} records, more than {MAX_RECORD_TILES}"
                    ));
                }
                let mut list = Vec::with_capacity(count as usize);
                let mut cur: Vec<i64> = ranges.iter().map(|r| r[0]).collect();
                for _ in 0..count {
                    let mut rec = [0; MAX_FIELDS];
                    rec[..width].copy_from_slice(&cur);
                    list.push(rec);
                    for k in (0..width).rev() {
                        if cur[k] < ranges[k][1] {
                            cur[k] += 1;
                            break;
                        }
                        cur[k] = ranges[k][0];
                    }
                }
                (Some(ranges), list)
            }
            (None, Some(l)) => {
                let rows: Vec<Vec<i64>> = serde_json::from_value(l.clone())
                    .map_err(|_| "records: list is a list of records, each a list of integers")?;
                if rows.is_empty() || rows.len() as u64 > MAX_RECORD_TILES {
                    return Err(format!(
                        "records: a list of {} records; give 1 to {MAX_RECORD_TILES}",
                        rows.len()
                    ));
                }
                let mut list = Vec::with_capacity(rows.len());
                for (i, row) in rows.iter().enumerate() {
                    if row.len() != width {
                        return Err(format!(
                            "records: list item {} has {} fields, not {width}",
                            i + 1,
                            row.len()
                        ));
                    }
                    let mut rec = [0; MAX_FIELDS];
                    rec[..width].copy_from_slice(row);
                    list.push(rec);
                }
                (None, list)
            }
            _ => return Err("records: give one of ranges and list".into()),
        };
        let text = |k: &str| {
            obj.get(k)
                .map(|v| v.as_str().ok_or(format!("{k} is a text")))
                .transpose()
        };
        let worth_text = text("worth")?.unwrap_or(fields[0].as_str()).to_string();
        let worth =
            Expr::parse_of_fields(&worth_text, &fields).map_err(|m| format!("worth: {m}"))?;
        if worth.letters() & !1 != 0 {
            return Err("worth: reads one tile, by its fields".into());
        }
        let label = match obj.get("label") {
            Some(Value::Array(choices)) => parse_labels(choices, &fields)?,
            Some(Value::String(l)) => {
                vec![(
                    None,
                    parse_label(l, &fields).map_err(|m| format!("label: {m}"))?,
                )]
            }
            Some(_) => {
                return Err(
                    "label is a text, or a list of {\"if\": condition, \"text\": text}".into(),
                );
            }
            None => {
                let parts: Vec<String> = fields.iter().map(|f| format!("{{{f}}}")).collect();
                let text = if width == 1 {
                    parts.concat()
                } else {
                    format!("({})", parts.join(", "))
                };
                vec![(
                    None,
                    parse_label(&text, &fields).map_err(|m| format!("label: {m}"))?,
                )]
            }
        };
        let of = |r: &[i64; MAX_FIELDS]| {
            let mut env = Env::default();
            env.fields[0] = *r;
            env
        };
        let mut keyed = Vec::with_capacity(list.len());
        for r in list.drain(..) {
            let w = worth.eval(&of(&r)).ok_or_else(|| {
                format!(
                    "worth: undefined for the record {}",
                    record_text(&r[..width])
                )
            })?;
            keyed.push((w, r));
        }
        if ranges.is_none() {
            keyed.sort_by_key(|&(w, _)| w);
        }
        let (worths, list): (Vec<i64>, Vec<[i64; MAX_FIELDS]>) = keyed.into_iter().unzip();
        let mut index = std::collections::HashMap::new();
        if ranges.is_none() {
            for (i, r) in list.iter().enumerate() {
                if index
                    .insert(*r, u16::try_from(i + 1).unwrap_or(u16::MAX))
                    .is_some()
                {
                    return Err(format!(
                        "records: {} is listed twice",
                        record_text(&r[..width])
                    ));
                }
            }
        }
        Ok(Records {
            fields,
            ranges,
            list,
            worths,
            index,
            label,
            source: value.clone(),
            by_label: std::sync::OnceLock::new(),
        })
    }

    /// How many tiles.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The fields of the tile of rank `rank`.
    pub fn fields_of(&self, rank: u64) -> Option<[i64; MAX_FIELDS]> {
        self.list
            .get(usize::try_from(rank.checked_sub(1)?).ok()?)
            .copied()
    }

    /// The worth of the tile of rank `rank`.
    pub fn worth_of(&self, rank: u64) -> Option<i64> {
        self.worths
            .get(usize::try_from(rank.checked_sub(1)?).ok()?)
            .copied()
    }

    /// The rank of the record `fields` (as many as it has), if it is a tile.
    pub fn rank_of(&self, fields: &[i64]) -> Option<u64> {
        if fields.len() != self.fields.len() {
            return None;
        }
        match &self.ranges {
            Some(ranges) => {
                let mut at: u64 = 0;
                for (&v, &[from, to]) in fields.iter().zip(ranges) {
                    if v < from || v > to {
                        return None;
                    }
                    let size = u64::try_from(to - from + 1).ok()?;
                    at = at * size + u64::try_from(v - from).ok()?;
                }
                Some(at + 1)
            }
            None => {
                let mut rec = [0; MAX_FIELDS];
                rec[..fields.len()].copy_from_slice(fields);
                self.index.get(&rec).map(|&r| u64::from(r))
            }
        }
    }

    /// The label of the tile of rank `rank`.
    pub fn label_of(&self, rank: u64) -> Option<String> {
        let fields = self.fields_of(rank)?;
        let mut env = Env::default();
        env.fields[0] = fields;
        let template = self
            .label
            .iter()
            .find(|(cond, _)| cond.as_ref().is_none_or(|c| c.holds(&env)))
            .map(|(_, t)| t)?;
        // An optional group shows only when each of its expressions is defined and not 0.
        let hidden = |group: u16| {
            group != 0
                && template
                    .iter()
                    .filter(|p| p.2 == group)
                    .filter_map(|p| p.1.as_ref())
                    .any(|e| e.eval(&env).is_none_or(|v| v == 0))
        };
        let mut out = String::new();
        for (text, e, group) in template {
            if hidden(*group) {
                continue;
            }
            out.push_str(text);
            if let Some(e) = e {
                match e.eval(&env) {
                    Some(v) => out.push_str(&v.to_string()),
                    None => out.push('?'),
                }
            }
        }
        Some(out)
    }

    /// The rank of the tile whose label is `text`.
    pub fn rank_of_label(&self, text: &str) -> Option<u64> {
        self.by_label
            .get_or_init(|| {
                (1..=self.len() as u64)
                    .filter_map(|r| Some((self.label_of(r)?, r)))
                    .collect()
            })
            .get(text)
            .copied()
    }

    /// The rank of a tile named as a record in a file's text (`"(1, 0)"`, or `"5"` for a
    /// record of one field).
    pub fn rank_of_text(&self, text: &str) -> Option<u64> {
        let t = text.trim();
        let inner = t
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .unwrap_or(t);
        let fields: Option<Vec<i64>> = inner.split(',').map(|p| p.trim().parse().ok()).collect();
        self.rank_of(&fields?)
    }

    /// The record of the tile of rank `rank`, as a file names it: `(1, 0)`.
    pub fn text_of(&self, rank: u64) -> Option<String> {
        let f = self.fields_of(rank)?;
        Some(record_text(&f[..self.fields.len()]))
    }
}

/// A record written as a file names it: `(1, 0)`, or `5` for one field.
fn record_text(fields: &[i64]) -> String {
    let parts: Vec<String> = fields.iter().map(i64::to_string).collect();
    if parts.len() == 1 {
        parts.concat()
    } else {
        format!("({})", parts.join(", "))
    }
}

/// A label: text and expressions of the fields, alternately (text first), each part with the
/// number of the optional group (`[…]`) it is in, 0 for none.
type Template = Vec<(String, Option<Expr>, u16)>;

/// Labels chosen by conditions: `[{"if": "p = 1", "text": "+{v}"}, {"text": "{v}"}]`, each but
/// the last with a condition of the fields, the last with none (so every tile has a label);
/// the refusal names the label by its place.
fn parse_labels(
    choices: &[Value],
    fields: &[String],
) -> Result<Vec<(Option<Cond>, Template)>, String> {
    if choices.is_empty() {
        return Err("label: an empty list; give a text, or labels each with its \"if\"".into());
    }
    let mut out = Vec::with_capacity(choices.len());
    for (i, choice) in choices.iter().enumerate() {
        let n = i + 1;
        let obj = choice
            .as_object()
            .ok_or_else(|| format!("label {n}: give {{\"if\": condition, \"text\": text}}"))?;
        if let Some(k) = obj.keys().find(|k| !["if", "text"].contains(&k.as_str())) {
            return Err(format!("label {n}: {} is not if or text", quote(k)));
        }
        let text = obj
            .get("text")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("label {n}: its \"text\" is missing or not a text"))?;
        let template = parse_label(text, fields).map_err(|m| format!("label {n}: {m}"))?;
        let last = n == choices.len();
        let cond = match (obj.get("if"), last) {
            (None, true) => None,
            (Some(_), true) => {
                return Err(format!(
                    "label {n}: the last label takes no \"if\", so that every tile has a label"
                ));
            }
            (None, false) => {
                return Err(format!(
                    "label {n}: only the last label goes without \"if\" (those after it would never show)"
                ));
            }
            (Some(c), false) => {
                let c = c
                    .as_str()
                    .ok_or_else(|| format!("label {n}: if is a condition, as a text"))?;
                let cond =
                    Cond::parse_of_fields(c, fields).map_err(|m| format!("label {n}: if: {m}"))?;
                if cond.letters() & !1 != 0 {
                    return Err(format!(
                        "label {n}: if: {} reads a tile letter; name the fields",
                        quote(c)
                    ));
                }
                Some(cond)
            }
        };
        out.push((cond, template));
    }
    Ok(out)
}

/// A label template: text, with an expression of the fields in each pair of braces, and
/// optional groups in brackets (`"{pow(2, e)}[({c})]"`: a group shows only when each of its
/// expressions is not 0). Each part comes with its group's number (0 outside any).
fn parse_label(text: &str, fields: &[String]) -> Result<Template, String> {
    let mut out = Vec::new();
    let mut group = 0u16;
    let mut open = false;
    let mut rest = text;
    while !rest.is_empty() {
        // The next bracket outside braces ends this stretch.
        let mut depth = 0;
        let cut = rest.char_indices().find_map(|(i, ch)| match ch {
            '{' => {
                depth += 1;
                None
            }
            '}' => {
                depth -= 1;
                None
            }
            '[' | ']' if depth == 0 => Some((i, ch)),
            _ => None,
        });
        let (stretch, bracket) = match cut {
            Some((i, ch)) => (&rest[..i], Some(ch)),
            None => (rest, None),
        };
        let here = if open { group } else { 0 };
        out.extend(
            parse_parts(stretch, text, fields)?
                .into_iter()
                .map(|(t, e)| (t, e, here)),
        );
        match (bracket, open) {
            (Some('['), false) => {
                group = group.saturating_add(1);
                open = true;
            }
            (Some(']'), true) => {
                if !out.iter().any(|p| p.2 == group && p.1.is_some()) {
                    return Err(format!(
                        "{} has a group \"[…]\" that shows no field",
                        quote(text)
                    ));
                }
                open = false;
            }
            (Some('['), true) => {
                return Err(format!("{} has a \"[\" inside a \"[…]\"", quote(text)));
            }
            (Some(_), _) => {
                return Err(format!("{} has a \"]\" with no \"[\"", quote(text)));
            }
            (None, _) => {}
        }
        rest = match cut {
            Some((i, _)) => &rest[i + 1..],
            None => "",
        };
    }
    if open {
        return Err(format!("{} has a \"[\" that is not closed", quote(text)));
    }
    if out.iter().all(|(_, e, _)| e.is_none()) {
        return Err(format!(
            "{} shows no field: every tile would look alike",
            quote(text)
        ));
    }
    if out.iter().all(|(_, e, g)| e.is_none() || *g != 0) {
        return Err(format!(
            "{} shows no field outside \"[…]\": some tiles would look alike",
            quote(text)
        ));
    }
    Ok(out)
}

/// A stretch of a label template (`text` is the whole, for a refusal): text, with an
/// expression of the fields in each pair of braces.
fn parse_parts(
    stretch: &str,
    text: &str,
    fields: &[String],
) -> Result<Vec<(String, Option<Expr>)>, String> {
    let mut out = Vec::new();
    let mut rest = stretch;
    while !rest.is_empty() {
        match rest.find(['{', '}']) {
            None => {
                out.push((rest.to_string(), None));
                break;
            }
            Some(i) if rest[i..].starts_with('}') => {
                return Err(format!("{} has a \"}}\" with no \"{{\"", quote(text)));
            }
            Some(i) => {
                let close = rest[i..]
                    .find('}')
                    .ok_or_else(|| format!("{} has a \"{{\" that is not closed", quote(text)))?;
                let e = Expr::parse_of_fields(&rest[i + 1..i + close], fields)?;
                if e.letters() & !1 != 0 {
                    return Err(format!(
                        "{} reads a tile letter; name the fields",
                        quote(text)
                    ));
                }
                out.push((rest[..i].to_string(), Some(e)));
                rest = &rest[i + close + 1..];
            }
        }
    }
    Ok(out)
}

impl Ladder {
    /// The integers from `from` to `to`. A range that is empty or longer than
    /// [`MAX_INTEGER_TILES`] holds no tile (and is refused by [`crate::Variant::validate`]).
    pub fn integers(from: i64, to: i64) -> Ladder {
        let len = range_len([from, to]).unwrap_or(0);
        Ladder {
            values: (1..=len).collect(),
            integers: Some([from, to]),
            records: None,
        }
    }

    /// Tiles that are records.
    pub fn records(records: Records) -> Ladder {
        let len = records.len() as u64;
        Ladder {
            values: (1..=len).collect(),
            integers: None,
            records: Some(Arc::new(records)),
        }
    }

    /// The records, when the tiles are records.
    pub fn as_records(&self) -> Option<&Records> {
        self.records.as_deref()
    }

    /// Whether the tiles are numbered by position, their rules walked as conditions: a range of
    /// integers or records (a ladder has a pair table).
    pub fn is_numbered(&self) -> bool {
        self.integers.is_some() || self.records.is_some()
    }

    /// `[from, to]` for a range of integers.
    pub fn integer_range(&self) -> Option<[i64; 2]> {
        self.integers
    }

    /// Whether the tiles are a range of integers.
    pub fn is_integers(&self) -> bool {
        self.integers.is_some()
    }

    /// The integer a tile of `value` is, in a range of integers, or its worth when the tiles
    /// are records (`None` for a ladder, or for a value outside the range).
    pub fn integer(&self, value: u64) -> Option<i64> {
        if let Some(r) = &self.records {
            return r.worth_of(value);
        }
        let [from, _] = self.integers?;
        if value == 0 || value > self.values.len() as u64 {
            return None;
        }
        from.checked_add(i64::try_from(value).ok()? - 1)
    }

    /// The value of the tile that is the integer `i`, in a range of integers.
    pub fn value_of_integer(&self, i: i64) -> Option<u64> {
        place(self.integers?, i)
    }
}

/// How many integers `[from, to]` holds, when that is 1 to [`MAX_INTEGER_TILES`].
pub(crate) fn range_len([from, to]: [i64; 2]) -> Option<u64> {
    to.checked_sub(from)
        .and_then(|d| u64::try_from(d).ok())
        .and_then(|d| d.checked_add(1))
        .filter(|&n| n <= MAX_INTEGER_TILES)
}

/// The refusal of `[from, to]` that holds no tile or more than [`MAX_INTEGER_TILES`].
pub(crate) fn not_a_range([from, to]: [i64; 2]) -> String {
    format!("[{from}, {to}] is not a range of 1 to {MAX_INTEGER_TILES} integers, the lower first")
}

/// The place (from 1) of the integer `i` in `[from, to]`, if it is there.
pub(crate) fn place([from, to]: [i64; 2], i: i64) -> Option<u64> {
    if i < from || i > to {
        return None;
    }
    u64::try_from(i.checked_sub(from)?.checked_add(1)?).ok()
}

impl Deref for Ladder {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.values
    }
}

impl<'a> IntoIterator for &'a Ladder {
    type Item = &'a u64;
    type IntoIter = std::slice::Iter<'a, u64>;
    fn into_iter(self) -> Self::IntoIter {
        self.values.iter()
    }
}

impl From<Vec<u64>> for Ladder {
    fn from(values: Vec<u64>) -> Ladder {
        Ladder {
            values: values.into(),
            integers: None,
            records: None,
        }
    }
}

impl FromIterator<u64> for Ladder {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Ladder {
        Ladder::from(iter.into_iter().collect::<Vec<_>>())
    }
}

/// The JSON of a range of integers, read on its own where the tiles it holds are not needed.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Range {
    pub(crate) integers: [i64; 2],
}

impl Serialize for Ladder {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.integers, &self.records) {
            (Some(integers), _) => Range { integers }.serialize(s),
            (None, Some(r)) => r.source.serialize(s),
            (None, None) => self.values[..].serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Ladder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Values(Vec<u64>),
            Range(Range),
            Records(Map<String, Value>),
        }
        Ok(match Raw::deserialize(d)? {
            Raw::Values(values) => Ladder::from(values),
            Raw::Range(Range {
                integers: [from, to],
            }) => Ladder::integers(from, to),
            Raw::Records(map) => Records::from_json(&Value::Object(map))
                .map(Ladder::records)
                .map_err(serde::de::Error::custom)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_names_its_integers_by_position() {
        let l = Ladder::integers(-1, 10);
        assert_eq!(l.len(), 12);
        assert_eq!(l.integer(1), Some(-1));
        assert_eq!(l.integer(3), Some(1));
        assert_eq!(l.integer(12), Some(10));
        assert_eq!((l.integer(0), l.integer(13)), (None, None));
        assert_eq!(l.value_of_integer(-1), Some(1));
        assert_eq!(l.value_of_integer(10), Some(12));
        assert_eq!(l.value_of_integer(11), None);
        let from_one = Ladder::integers(1, 100);
        assert!((1..=100).all(|v| from_one.integer(v) == Some(v as i64)));
    }

    #[test]
    fn a_record_shows_the_first_label_whose_condition_it_meets() {
        let json = serde_json::json!({
            "records": {"fields": ["v", "p"], "ranges": [[1, 20], [0, 2]]},
            "label": [
                {"if": "p = 1", "text": "+{v}"},
                {"if": "p = 2 and v mod 2 = 0", "text": "{v}e"},
                {"text": "{v}"}
            ]
        });
        let r = Records::from_json(&json).unwrap();
        let label = |v: i64, p: i64| r.label_of(r.rank_of(&[v, p]).unwrap()).unwrap();
        assert_eq!(label(5, 0), "5");
        assert_eq!(label(5, 1), "+5");
        assert_eq!(label(6, 2), "6e");
        // A condition that does not hold (or is undefined) passes to the next label.
        assert_eq!(label(7, 2), "7");
        assert_eq!(r.rank_of_label("+5"), r.rank_of(&[5, 1]));
        assert_eq!(r.rank_of_label("6e"), r.rank_of(&[6, 2]));
        // Read back from its JSON, it is the same tiles.
        let again: Ladder = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(again, Ladder::records(Records::from_json(&json).unwrap()));
    }

    #[test]
    fn json_round_trips_both_forms_and_a_bad_range_holds_nothing() {
        for l in [Ladder::integers(1, 60_000), Ladder::from(vec![2, 4, 8])] {
            let json = serde_json::to_value(&l).unwrap();
            assert_eq!(serde_json::from_value::<Ladder>(json).unwrap(), l);
        }
        assert_eq!(
            serde_json::to_string(&Ladder::integers(1, 9)).unwrap(),
            r#"{"integers":[1,9]}"#
        );
        assert!(Ladder::integers(5, 4).is_empty());
        assert!(Ladder::integers(0, i64::MAX).is_empty());
        assert!(Ladder::integers(i64::MIN, i64::MAX).is_empty());
        assert_eq!(Ladder::integers(1, 65_535).len(), 65_535);
        assert!(Ladder::integers(1, 65_536).is_empty());
        // A range is its ends; a ladder of the same numbers is another thing.
        assert_eq!(Ladder::integers(1, 9), Ladder::integers(1, 9));
        assert_ne!(
            Ladder::integers(1, 9),
            Ladder::from((1..=9).collect::<Vec<u64>>())
        );
        assert_ne!(Ladder::integers(1, 9), Ladder::integers(0, 8));
        let range = Ladder::integers(1, 60_000);
        assert!(
            std::ptr::eq(&range.clone()[..], &range[..]),
            "copies share the tiles"
        );
    }
}
