//! Format 3's turn pipeline: what happens after a slide that moved, in the 2048 Power
//! Compendium's order. Counter events are tested on the slid board; then the ticks (one-tile
//! rules) change every tile; then the spawn; then the lose and win tests; then the counters
//! take the values the events gave them. Every part is optional; a variant without any has no
//! pipeline and plays exactly as before.
//!
//! ```json
//! "counters": {"g": {"start": 3, "values": [3, 27]}},
//! "events": [{"if": "any(a = tri(g))", "then": {"g": "g + 1"}}],
//! "tick": [{"when": ["a = tri(g)"], "makes": null}],
//! "lose": "any(a > tri(g))",
//! "win": {"when": "g = 27"},
//! "shown": [{"label": "Goal", "value": "tri(g)"}]
//! ```
//!
//! A test (an event's `if`, `lose`, a win's `when`) is a condition on the counters and `t`, or
//! `any(…)`: a condition that holds for some tile `a` of the board. A tick's `when` and `makes`
//! read the tile `a`, the counters and `t`.

use serde_json::{Map, Value};
use tilebox_core::json_words::{bounded, quote};

use crate::condition::{Cond, Expr};
use crate::variant::{FORMAT_3, VariantError, kind_of};

/// The most counters a variant may keep.
pub const MAX_COUNTERS: usize = 4;

/// The most values a counter may take.
pub const MAX_COUNTER_VALUES: i64 = 64;

/// The counters' values, in the order of their names (unused ones 0).
pub type Counters = [i64; MAX_COUNTERS];

/// The top-level fields of the pipeline (besides `win`'s object form).
pub const PIPELINE_FIELDS: [&str; 7] = [
    "counters", "events", "tick", "lose", "made", "draw", "shown",
];

/// A counter: its name, the value a game starts with and the values it may take (a new value
/// past them is held at the nearer end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// Its name, as expressions read it.
    pub name: String,
    /// Its value at the start of a game.
    pub start: i64,
    /// The least and the greatest value it may take.
    pub values: [i64; 2],
}

/// A test of a board and the counters: a condition on the counters, or one that some tile
/// (`a`) of the board meets (`any(…)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    /// Whether it is `any(…)`, a condition on each tile.
    pub any: bool,
    /// The condition.
    pub cond: Cond,
}

/// A counter event: when `test` holds of the slid board, the counters take new values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// When it happens.
    pub test: Test,
    /// Each counter it changes (by index) and its new value, read with the counters as they were
    /// before the move.
    pub then: Vec<(usize, Expr)>,
    /// `"each_tile": true`: `test` (an `any(…)`) is tried on each tile of the slid board in
    /// turn, in the order the move took them (2058's maximum, raised once by each tile that
    /// reaches it); each time it holds the counters change, and the next tile's test and new
    /// values read them as changed.
    pub each_tile: bool,
    /// `"at_once": true`: the counters take its new values at once, so that this turn's
    /// one-tile rules, `lose` and `win` read them (mod 27's modulus, which wins the turn it
    /// reaches 27); without it they take them at the turn's end (378's goal, which a tile
    /// above the old goal loses to).
    pub at_once: bool,
}

/// The fields of an event.
const EVENT_FIELDS: [&str; 4] = ["if", "then", "each_tile", "at_once"];

/// A one-tile rule: each tile `a` that meets every condition of `when` becomes `makes` (`None`:
/// it vanishes). The first tick that matches a tile applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// The conditions on the tile `a`.
    pub when: Vec<Cond>,
    /// The tile it becomes, or `None` for an empty cell.
    pub makes: Option<Expr>,
}

/// A variant's turn pipeline, compiled from its fields, which it keeps as written.
#[derive(Debug, Clone, Default)]
pub struct Pipeline {
    /// The fields as written (`counters`, `events`, `tick`, `lose`, and `win` in its object
    /// form), which the full form writes back.
    source: Map<String, Value>,
    /// The counters, in the order written.
    pub counters: Vec<Counter>,
    /// The events, in order.
    pub events: Vec<Event>,
    /// The ticks, in order.
    pub ticks: Vec<Tick>,
    /// When the game is lost.
    pub lose: Option<Test>,
    /// When the game is won besides its winning tiles (`"win": {"when": …}`).
    pub win: Option<Test>,
    /// A win on different tiles made (`"win": {"distinct": 12, "when": "power_exp(a) >= 3"}`).
    pub distinct: Option<Distinct>,
    /// What each tile a merge makes does to the counters (`"made": {"g": "max(g, highbit(a))"}`).
    pub made: Vec<(usize, Expr)>,
    /// A spawn drawn beside `spawn`'s weights from a range of tiles the counters choose.
    pub draw: Option<Draw>,
    /// What the player is shown of the counters, line by line.
    pub shown: Vec<Shown>,
}

/// A line the player is shown beside the board (`"shown"`): a label and a value read from the
/// counters and `t` (378's goal: `{"label": "Goal", "value": "tri(g)"}` shows "Goal: 10").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The words before the value.
    pub label: String,
    /// The value, an expression of the counters and `t`.
    pub value: Expr,
}

/// The most lines `shown` may hold.
pub const MAX_SHOWN: usize = 4;

/// The most characters of a `shown` line's label.
pub const MAX_SHOWN_LABEL: usize = 32;

/// A share of the spawn drawn from a table the counters make (`"draw"`): with weight `weight`
/// beside `spawn`'s weights, a tile numbered from `from` to `to` (expressions of the counters),
/// each tile `a` with the weight `each` (an expression of `a` and the counters; a weight below
/// 1, undefined, or a number that is no tile gives it none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The share's weight, on the scale of `spawn`'s weights.
    pub weight: u32,
    /// The lowest tile number drawn.
    pub from: Expr,
    /// The highest tile number drawn.
    pub to: Expr,
    /// The weight of the tile `a`.
    pub each: Expr,
}

/// The most tiles a `draw` table takes (from `from` to `to`); a wider range draws nothing.
pub const MAX_DRAW_TILES: i64 = 65_536;

/// A win on different tiles: the game is won when `count` different tiles that meet `test` (an
/// `any(…)` test of the tile `a`) have been on the board after a move's spawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distinct {
    /// How many different tiles win.
    pub count: usize,
    /// What a tile meets to count (`any` is set: it reads the tile `a`).
    pub test: Test,
}

/// The most different tiles a `distinct` win may ask for.
pub const MAX_DISTINCT: u64 = 65_535;

impl PartialEq for Pipeline {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for Pipeline {}

impl std::hash::Hash for Pipeline {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        Value::Object(self.source.clone()).to_string().hash(state);
    }
}

impl Pipeline {
    /// Whether there is no pipeline: nothing happens after a slide but the spawn.
    pub fn is_empty(&self) -> bool {
        self.source.is_empty()
    }

    /// The fields as written, for the full form.
    pub fn source(&self) -> &Map<String, Value> {
        &self.source
    }

    /// The counters' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.counters.iter().map(|c| c.name.clone()).collect()
    }

    /// The counters' values at the start of a game (unused ones 0).
    pub fn start(&self) -> Counters {
        let mut start = [0; MAX_COUNTERS];
        for (s, c) in start.iter_mut().zip(&self.counters) {
            *s = c.start;
        }
        start
    }

    /// Finds the fields of the records that its tests, events and one-tile rules read
    /// (`a.c`) among `fields` (none when the tiles are not records); the refusal names the
    /// pipeline's field.
    pub(crate) fn bind(&mut self, fields: &[String]) -> Result<(), VariantError> {
        for (i, e) in self.events.iter_mut().enumerate() {
            let at = |m: String| VariantError::field("events", format!("event {}: {m}", i + 1));
            e.test
                .cond
                .bind(fields)
                .map_err(|m| at(format!("if: {m}")))?;
            for (_, x) in &mut e.then {
                x.bind(fields).map_err(|m| at(format!("then: {m}")))?;
            }
        }
        for (i, t) in self.ticks.iter_mut().enumerate() {
            let at = |m: String| VariantError::field("tick", format!("rule {}: {m}", i + 1));
            for c in &mut t.when {
                c.bind(fields).map_err(|m| at(format!("when: {m}")))?;
            }
            if let Some(e) = &mut t.makes {
                e.bind(fields).map_err(|m| at(format!("makes: {m}")))?;
                // A record of as many fields as the tiles have; one number for other tiles.
                let want = fields.len().max(1);
                if e.arity() != want {
                    let why = match (fields.is_empty(), e.arity()) {
                        (true, _) => "is a record, but the tiles are not records".to_string(),
                        (false, 1) => format!(
                            "is one number; a record here has {want} fields: make (x, y, …)"
                        ),
                        (false, n) => format!("has {n} fields; a record here has {want}"),
                    };
                    return Err(at(format!("makes: \"{e}\" {why}")));
                }
            }
        }
        if let Some(t) = &mut self.lose {
            t.cond
                .bind(fields)
                .map_err(|m| VariantError::field("lose", m))?;
        }
        if let Some(t) = &mut self.win {
            t.cond
                .bind(fields)
                .map_err(|m| VariantError::field("win", format!("when: {m}")))?;
        }
        Ok(())
    }

    /// Reads the pipeline's fields of a full form written in `format` (`win` only in its object
    /// form, `{"when": …}`); each refusal names its field.
    pub fn read(map: &Map<String, Value>, format: u32) -> Result<Pipeline, VariantError> {
        let mut source = Map::new();
        for field in PIPELINE_FIELDS {
            if let Some(v) = map.get(field) {
                source.insert(field.to_string(), v.clone());
            }
        }
        if let Some(win @ Value::Object(_)) = map.get("win") {
            source.insert("win".to_string(), win.clone());
        }
        if source.is_empty() {
            return Ok(Pipeline::default());
        }
        if format < FORMAT_3 {
            let field = source.keys().next().map_or("counters", |k| k.as_str());
            return Err(VariantError::field(field, "needs \"format\": 3"));
        }
        let mut p = Pipeline {
            source: source.clone(),
            ..Pipeline::default()
        };
        if let Some(v) = source.get("counters") {
            p.counters = counters(v).map_err(|m| VariantError::field("counters", m))?;
        }
        let names = p.names();
        if let Some(v) = source.get("events") {
            p.events = events(v, &names).map_err(|m| VariantError::field("events", m))?;
        }
        if let Some(v) = source.get("tick") {
            p.ticks = ticks(v, &names).map_err(|m| VariantError::field("tick", m))?;
        }
        if let Some(v) = source.get("lose") {
            p.lose = Some(test(v, &names).map_err(|m| VariantError::field("lose", m))?);
        }
        if let Some(v) = source.get("draw") {
            p.draw = Some(draw(v, &names).map_err(|m| VariantError::field("draw", m))?);
        }
        if let Some(v) = source.get("made") {
            p.made = made(v, &names).map_err(|m| VariantError::field("made", m))?;
        }
        if let Some(v) = source.get("shown") {
            if p.counters.is_empty() {
                return Err(VariantError::field(
                    "shown",
                    "shows the counters, and the file has none",
                ));
            }
            p.shown = shown(v, &names).map_err(|m| VariantError::field("shown", m))?;
        }
        if let Some(Value::Object(win)) = source.get("win") {
            let err = |m: String| VariantError::field("win", m);
            if let Some(k) = win.keys().find(|k| *k != "when" && *k != "distinct") {
                return Err(err(format!("unknown field {}", quote(k))));
            }
            let when = win.get("when").ok_or_else(|| err("when: missing".into()))?;
            match win.get("distinct") {
                None => p.win = Some(test(when, &names).map_err(|m| err(format!("when: {m}")))?),
                Some(n) => {
                    let count = n
                        .as_u64()
                        .filter(|n| (1..=MAX_DISTINCT).contains(n))
                        .and_then(|n| usize::try_from(n).ok())
                        .ok_or_else(|| {
                            err(format!(
                                "distinct: {} is not a number of tiles from 1 to {MAX_DISTINCT}",
                                kind_of(n)
                            ))
                        })?;
                    let test = tile_test(when, &names).map_err(|m| err(format!("when: {m}")))?;
                    p.distinct = Some(Distinct { count, test });
                }
            }
        }
        Ok(p)
    }
}

fn counters(v: &Value) -> Result<Vec<Counter>, String> {
    let Value::Object(map) = v else {
        return Err(format!(
            "{} is not an object of counters ({{\"g\": {{\"start\": 3, \"values\": [3, 27]}}}})",
            kind_of(v)
        ));
    };
    if map.len() > MAX_COUNTERS {
        return Err(format!("{} counters, more than {MAX_COUNTERS}", map.len()));
    }
    let mut out = Vec::new();
    for (name, c) in map {
        let at = |m: String| format!("{}: {m}", quote(&bounded(name)));
        let letters_ok = name.len() <= 16
            && name.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')
            && !name.is_empty();
        // A name must read as a word of its own: not a tile letter, `t`, `made`, a keyword
        // or a function.
        if !letters_ok || Cond::parse(&format!("{name} = 0")).is_ok() || Expr::parse(name).is_ok() {
            return Err(at(
                "is not a counter's name (lowercase letters and _, at most 16, not a tile \
                 letter, t, made, a keyword or a function)"
                    .into(),
            ));
        }
        if is_reserved(name) {
            return Err(at(
                "is a word of the expressions, not a counter's name".into()
            ));
        }
        let Value::Object(fields) = c else {
            return Err(at(format!(
                "{} is not {{\"start\": n, \"values\": [from, to]}}",
                kind_of(c)
            )));
        };
        if let Some(k) = fields.keys().find(|k| *k != "start" && *k != "values") {
            return Err(at(format!("unknown field {}", quote(&bounded(k)))));
        }
        let start = fields
            .get("start")
            .ok_or_else(|| at("start: missing".into()))?
            .as_i64()
            .ok_or_else(|| at("start: not a whole number".into()))?;
        let values = fields
            .get("values")
            .ok_or_else(|| at("values: missing".into()))?;
        let range = values
            .as_array()
            .and_then(|a| match a.as_slice() {
                [from, to] => Some([from.as_i64()?, to.as_i64()?]),
                _ => None,
            })
            .ok_or_else(|| at(format!("values: {} is not [from, to]", kind_of(values))))?;
        let [from, to] = range;
        if from > to || to.checked_sub(from).is_none_or(|d| d >= MAX_COUNTER_VALUES) {
            return Err(at(format!(
                "values: [{from}, {to}] is not 1 to {MAX_COUNTER_VALUES} values from the first to the last"
            )));
        }
        if !(from..=to).contains(&start) {
            return Err(at(format!("start: {start} is not in [{from}, {to}]")));
        }
        out.push(Counter {
            name: name.clone(),
            start,
            values: range,
        });
    }
    Ok(out)
}

/// Whether `name` is a word the expressions give a meaning of their own.
fn is_reserved(name: &str) -> bool {
    ["t", "made", "and", "or", "not", "mod", "divides", "any"].contains(&name)
        || crate::condition::Func::ALL.iter().any(|(n, _)| *n == name)
        || crate::condition::LETTERS
            .iter()
            .any(|&l| name.len() == 1 && name.starts_with(l))
}

/// Reads a test: `any(…)` of a condition on the tile `a`, or a condition on the counters.
fn test(v: &Value, names: &[String]) -> Result<Test, String> {
    let Value::String(text) = v else {
        return Err(format!(
            "{} is not a condition (text such as \"any(a > tri(g))\" or \"m = 27\")",
            kind_of(v)
        ));
    };
    let trimmed = text.trim();
    let inner = trimmed
        .strip_prefix("any")
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix('('))
        .and_then(|r| r.strip_suffix(')'));
    let (any, body) = match inner {
        Some(body) => (true, body),
        None => (false, trimmed),
    };
    let cond = Cond::parse_with(body, names).map_err(|m| format!("{}: {m}", quote(text)))?;
    let letters = cond.letters();
    if any && letters & !1 != 0 {
        return Err(format!("{}: any(…) reads the tile a alone", quote(text)));
    }
    if !any && letters != 0 {
        return Err(format!(
            "{}: reads a tile outside any(…) (write \"any(a > 5)\")",
            quote(text)
        ));
    }
    Ok(Test { any, cond })
}

/// Reads a condition on one tile `a` and the counters (a `distinct` win's `when`), as an
/// `any(…)` test.
fn tile_test(v: &Value, names: &[String]) -> Result<Test, String> {
    let Value::String(text) = v else {
        return Err(format!(
            "{} is not a condition on the tile a (text such as \"power_exp(a) >= 3\")",
            kind_of(v)
        ));
    };
    let cond = Cond::parse_with(text, names).map_err(|m| format!("{}: {m}", quote(text)))?;
    if cond.letters() & !1 != 0 {
        return Err(format!("{}: reads a tile other than a", quote(text)));
    }
    if cond.letters() == 0 {
        return Err(format!(
            "{}: reads no tile (write a condition on a)",
            quote(text)
        ));
    }
    Ok(Test { any: true, cond })
}

/// The fields of a `draw`.
const DRAW_FIELDS: [&str; 4] = ["weight", "from", "to", "each"];

/// `shown`: a list of at most [`MAX_SHOWN`] lines, each `{"label": …, "value": …}`.
fn shown(v: &Value, names: &[String]) -> Result<Vec<Shown>, String> {
    const EXAMPLE: &str = "[{\"label\": \"Goal\", \"value\": \"tri(g)\"}]";
    let Value::Array(lines) = v else {
        return Err(format!("{} is not a list of lines ({EXAMPLE})", kind_of(v)));
    };
    if lines.is_empty() || lines.len() > MAX_SHOWN {
        return Err(format!("{} lines; 1 to {MAX_SHOWN} are shown", lines.len()));
    }
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let at = |m: String| format!("line {}: {m}", i + 1);
        let Value::Object(fields) = line else {
            return Err(at(format!(
                "{} is not a line ({{\"label\": \"Goal\", \"value\": \"tri(g)\"}})",
                kind_of(line)
            )));
        };
        if let Some(k) = fields.keys().find(|k| *k != "label" && *k != "value") {
            return Err(at(format!(
                "unknown field {} (they are label, value)",
                quote(&bounded(k))
            )));
        }
        let label = match fields.get("label") {
            None => return Err(at("label: missing".into())),
            Some(Value::String(text)) => text,
            Some(other) => return Err(at(format!("label: {} is not text", kind_of(other)))),
        };
        let chars = label.chars().count();
        if chars == 0 || chars > MAX_SHOWN_LABEL || label.chars().any(char::is_control) {
            return Err(at(format!(
                "label: {} is not 1 to {MAX_SHOWN_LABEL} characters on one line",
                quote(&bounded(label))
            )));
        }
        let text = match fields.get("value") {
            None => return Err(at("value: missing".into())),
            Some(Value::String(text)) => text,
            Some(other) => {
                return Err(at(format!(
                    "value: {} is not an expression",
                    kind_of(other)
                )));
            }
        };
        let value = Expr::parse_with(text, names)
            .map_err(|m| at(format!("value: {}: {m}", quote(text))))?;
        if value.letters() != 0 || value.reads_made() {
            return Err(at(format!(
                "value: {}: reads a tile; it reads the counters and t",
                quote(text)
            )));
        }
        out.push(Shown {
            label: label.clone(),
            value,
        });
    }
    Ok(out)
}

/// Reads a `draw`: its weight and three expressions.
fn draw(v: &Value, names: &[String]) -> Result<Draw, String> {
    let Value::Object(fields) = v else {
        return Err(format!(
            "{} is not {{\"weight\": 4, \"from\": \"1\", \"to\": \"g\", \"each\": \"1\"}}",
            kind_of(v)
        ));
    };
    if let Some(k) = fields.keys().find(|k| !DRAW_FIELDS.contains(&k.as_str())) {
        return Err(format!(
            "unknown field {} (they are {})",
            quote(&bounded(k)),
            DRAW_FIELDS.join(", ")
        ));
    }
    let w = fields.get("weight").ok_or("weight: missing")?;
    let weight = w
        .as_u64()
        .filter(|&n| n >= 1)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| {
            format!(
                "weight: {} is not a whole number from 1 to 2^32 - 1",
                kind_of(w)
            )
        })?;
    let expr = |field: &str, tile: bool| -> Result<Expr, String> {
        let v = fields
            .get(field)
            .ok_or_else(|| format!("{field}: missing"))?;
        let Value::String(text) = v else {
            return Err(format!("{field}: {} is not an expression", kind_of(v)));
        };
        let e =
            Expr::parse_with(text, names).map_err(|m| format!("{field}: {}: {m}", quote(text)))?;
        let allowed = if tile { 1 } else { 0 };
        if e.letters() & !allowed != 0 {
            return Err(format!(
                "{field}: {}: {}",
                quote(text),
                if tile {
                    "reads a tile other than a, the tile drawn"
                } else {
                    "reads a tile; it reads the counters"
                }
            ));
        }
        if e.reads_turn() {
            return Err(format!(
                "{field}: {}: reads t; a draw reads the counters",
                quote(text)
            ));
        }
        Ok(e)
    };
    Ok(Draw {
        weight,
        from: expr("from", false)?,
        to: expr("to", false)?,
        each: expr("each", true)?,
    })
}

/// Reads `made`: each counter named and its new value, an expression of the tile made `a` and
/// the counters.
fn made(v: &Value, names: &[String]) -> Result<Vec<(usize, Expr)>, String> {
    let Value::Object(sets) = v else {
        return Err(format!(
            "{} is not {{counter: expression}} ({{\"g\": \"max(g, highbit(a))\"}})",
            kind_of(v)
        ));
    };
    if sets.is_empty() {
        return Err("changes no counter".into());
    }
    let mut out = Vec::new();
    for (name, value) in sets {
        let Some(c) = names.iter().position(|n| n == name) else {
            return Err(format!("{} is not a counter", quote(&bounded(name))));
        };
        let Value::String(text) = value else {
            return Err(format!(
                "{}: {} is not an expression",
                quote(name),
                kind_of(value)
            ));
        };
        let expr = Expr::parse_with(text, names)
            .map_err(|m| format!("{}: {}: {m}", quote(name), quote(text)))?;
        if expr.letters() & !1 != 0 {
            return Err(format!(
                "{}: {}: reads a tile other than a, the tile made",
                quote(name),
                quote(text)
            ));
        }
        out.push((c, expr));
    }
    Ok(out)
}

fn events(v: &Value, names: &[String]) -> Result<Vec<Event>, String> {
    let Value::Array(list) = v else {
        return Err(format!("{} is not a list of events", kind_of(v)));
    };
    let mut out = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let at = |m: String| format!("event {}: {m}", i + 1);
        let Value::Object(fields) = e else {
            return Err(at(format!(
                "{} is not {{\"if\": condition, \"then\": {{counter: expression}}}}",
                kind_of(e)
            )));
        };
        if let Some(k) = fields.keys().find(|k| !EVENT_FIELDS.contains(&k.as_str())) {
            return Err(at(format!("unknown field {}", quote(&bounded(k)))));
        }
        let cond = fields.get("if").ok_or_else(|| at("if: missing".into()))?;
        let test = test(cond, names).map_err(|m| at(format!("if: {m}")))?;
        let flag = |name: &str| match fields.get(name) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(at(format!(
                "{name}: {} is not true or false",
                kind_of(other)
            ))),
        };
        let each_tile = flag("each_tile")?;
        let at_once = flag("at_once")?;
        if each_tile && !test.any {
            return Err(at(
                "each_tile: the event is tried tile by tile, so its if is any(…)".into(),
            ));
        }
        let then = fields
            .get("then")
            .ok_or_else(|| at("then: missing".into()))?;
        let Value::Object(sets) = then else {
            return Err(at(format!(
                "then: {} is not {{counter: expression}}",
                kind_of(then)
            )));
        };
        if sets.is_empty() {
            return Err(at("then: changes no counter".into()));
        }
        let mut then = Vec::new();
        for (name, value) in sets {
            let Some(c) = names.iter().position(|n| n == name) else {
                return Err(at(format!(
                    "then: {} is not a counter",
                    quote(&bounded(name))
                )));
            };
            let Value::String(text) = value else {
                return Err(at(format!(
                    "then: {}: {} is not an expression",
                    quote(name),
                    kind_of(value)
                )));
            };
            let expr = Expr::parse_with(text, names)
                .map_err(|m| at(format!("then: {}: {}: {m}", quote(name), quote(text))))?;
            if expr.letters() != 0 {
                return Err(at(format!(
                    "then: {}: {}: reads a tile; a counter's new value reads the counters and t",
                    quote(name),
                    quote(text)
                )));
            }
            then.push((c, expr));
        }
        out.push(Event {
            test,
            then,
            each_tile,
            at_once,
        });
    }
    Ok(out)
}

fn ticks(v: &Value, names: &[String]) -> Result<Vec<Tick>, String> {
    let Value::Array(list) = v else {
        return Err(format!("{} is not a list of one-tile rules", kind_of(v)));
    };
    let mut out = Vec::new();
    for (i, t) in list.iter().enumerate() {
        let at = |m: String| format!("rule {}: {m}", i + 1);
        let Value::Object(fields) = t else {
            return Err(at(format!(
                "{} is not {{\"when\": [conditions], \"makes\": expression or null}}",
                kind_of(t)
            )));
        };
        if let Some(k) = fields.keys().find(|k| *k != "when" && *k != "makes") {
            return Err(at(format!("unknown field {}", quote(&bounded(k)))));
        }
        let when = match fields.get("when") {
            None => return Err(at("when: missing".into())),
            Some(Value::Array(conds)) => conds
                .iter()
                .map(|c| {
                    let Value::String(text) = c else {
                        return Err(at(format!("when: {} is not a condition", kind_of(c))));
                    };
                    let cond = Cond::parse_with(text, names)
                        .map_err(|m| at(format!("when: {}: {m}", quote(text))))?;
                    if cond.letters() & !1 != 0 {
                        return Err(at(format!(
                            "when: {}: a one-tile rule reads the tile a alone",
                            quote(text)
                        )));
                    }
                    Ok(cond)
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(other) => {
                return Err(at(format!(
                    "when: {} is not a list of conditions",
                    kind_of(other)
                )));
            }
        };
        let makes = match fields.get("makes") {
            None => return Err(at("makes: missing (null: the tile vanishes)".into())),
            Some(Value::Null) => None,
            Some(Value::String(text)) => {
                // A record, `(a.e, a.c - 1)`, where the tiles are records.
                let e = crate::condition::with_counters(names, || Expr::parse_makes(text))
                    .map_err(|m| at(format!("makes: {}: {m}", quote(text))))?;
                if e.letters() & !1 != 0 {
                    return Err(at(format!(
                        "makes: {}: a one-tile rule reads the tile a alone",
                        quote(text)
                    )));
                }
                Some(e)
            }
            Some(other) => {
                return Err(at(format!(
                    "makes: {} is not an expression or null",
                    kind_of(other)
                )));
            }
        };
        out.push(Tick { when, makes });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(v: Value) -> Result<Pipeline, String> {
        let Value::Object(map) = v else {
            return Err("not an object".into());
        };
        Pipeline::read(&map, 3).map_err(|e| e.to_string())
    }

    #[test]
    fn the_378_pipeline_reads_and_tests_tiles_and_counters() {
        let p = read(json!({
            "counters": {"g": {"start": 3, "values": [3, 27]}},
            "events": [{"if": "any(a = tri(g))", "then": {"g": "g + 1"}}],
            "tick": [{"when": ["a = tri(g)"], "makes": null}],
            "lose": "any(a > tri(g))",
            "win": {"when": "g = 27"}
        }))
        .unwrap();
        assert_eq!(p.start(), [3, 0, 0, 0]);
        let lose = p.lose.as_ref().unwrap();
        assert!(lose.any);
        let env = |a: i64, g: i64| crate::condition::Env {
            tiles: [a, 0, 0, 0, 0, 0],
            counters: [g, 0, 0, 0],
            ..Default::default()
        };
        // tri(3) = 6: 10 is above the goal, 6 is not.
        assert!(lose.cond.holds(&env(10, 3)));
        assert!(!lose.cond.holds(&env(6, 3)));
        assert!(p.ticks[0].when[0].holds(&env(6, 3)));
        assert_eq!(p.events[0].then[0].1.eval(&env(0, 7)), Some(8));
        assert!(!p.win.as_ref().unwrap().any);
        assert_eq!(p.events[0].then[0].1.to_string(), "g + 1");
    }

    #[test]
    fn every_misuse_of_the_pipeline_is_refused_naming_its_field() {
        let g = json!({"g": {"start": 3, "values": [3, 27]}});
        let cases = [
            (
                json!({"counters": 5}),
                "counters: 5 is not an object of counters",
            ),
            (
                json!({"counters": {"a": {"start": 0, "values": [0, 1]}}}),
                "counters: \"a\": is not a counter's name",
            ),
            (
                json!({"counters": {"gcd": {"start": 0, "values": [0, 1]}}}),
                "counters: \"gcd\": is a word of the expressions",
            ),
            (
                json!({"counters": {"g": {"start": 0, "values": [0, 64]}}}),
                "counters: \"g\": values: [0, 64] is not 1 to 64 values",
            ),
            (
                json!({"counters": {"g": {"start": 9, "values": [0, 3]}}}),
                "counters: \"g\": start: 9 is not in [0, 3]",
            ),
            (
                json!({"counters": {"g": {"values": [0, 3]}}}),
                "counters: \"g\": start: missing",
            ),
            (
                json!({"counters": {"g": {"start": 0, "values": [0, 3], "x": 1}}}),
                "counters: \"g\": unknown field \"x\"",
            ),
            (
                json!({"counters": {"p": {"start": 0, "values": [0, 1]}, "q": {"start": 0, "values": [0, 1]}, "r": {"start": 0, "values": [0, 1]}, "s": {"start": 0, "values": [0, 1]}, "u": {"start": 0, "values": [0, 1]}}}),
                "counters: 5 counters, more than 4",
            ),
            (
                json!({"counters": g, "events": [{"if": "any(a = 1)", "then": {"h": "1"}}]}),
                "events: event 1: then: \"h\" is not a counter",
            ),
            (
                json!({"counters": g, "events": [{"if": "any(a = 1)"}]}),
                "events: event 1: then: missing",
            ),
            (
                json!({"counters": g, "events": [{"if": "a = 1", "then": {"g": "1"}}]}),
                "events: event 1: if: \"a = 1\": reads a tile outside any(…)",
            ),
            (
                json!({"counters": g, "events": [{"if": "any(b = 1)", "then": {"g": "1"}}]}),
                "events: event 1: if: \"any(b = 1)\": any(…) reads the tile a alone",
            ),
            (
                json!({"counters": g, "events": [{"if": "g = 1", "then": {"g": "a"}}]}),
                "events: event 1: then: \"g\": \"a\": reads a tile",
            ),
            (
                json!({"counters": g, "events": [{"if": "g = 1", "then": {}}]}),
                "events: event 1: then: changes no counter",
            ),
            (json!({"events": 1}), "events: 1 is not a list of events"),
            (
                json!({"counters": g, "events": [{"if": "any(a = 1)", "then": {"g": "1"}, "at_once": 1}]}),
                "events: event 1: at_once: 1 is not true or false",
            ),
            (
                json!({"counters": g, "events": [{"if": "any(a = 1)", "then": {"g": "1"}, "each_tile": "yes"}]}),
                "events: event 1: each_tile: \"yes\" is not true or false",
            ),
            (
                json!({"counters": g, "events": [{"if": "g = 1", "then": {"g": "1"}, "each_tile": true}]}),
                "events: event 1: each_tile: the event is tried tile by tile, so its if is any(…)",
            ),
            (
                json!({"tick": {}}),
                "tick: an object is not a list of one-tile rules",
            ),
            (
                json!({"tick": [{"when": ["a = 1"]}]}),
                "tick: rule 1: makes: missing",
            ),
            (
                json!({"tick": [{"makes": null}]}),
                "tick: rule 1: when: missing",
            ),
            (
                json!({"tick": [{"when": ["b = 1"], "makes": null}]}),
                "tick: rule 1: when: \"b = 1\": a one-tile rule reads the tile a alone",
            ),
            (
                json!({"tick": [{"when": ["a = h"], "makes": null}]}),
                "tick: rule 1: when: \"a = h\":",
            ),
            (
                json!({"tick": [{"when": [], "makes": 3}]}),
                "tick: rule 1: makes: 3 is not an expression or null",
            ),
            (
                json!({"tick": [{"when": [], "makes": "b"}]}),
                "tick: rule 1: makes: \"b\": a one-tile rule reads the tile a alone",
            ),
            (json!({"lose": 3}), "lose: 3 is not a condition"),
            (
                json!({"lose": "a > 3"}),
                "lose: \"a > 3\": reads a tile outside any(…)",
            ),
            (
                json!({"win": {"when": "any(a >"}}),
                "win: when: \"any(a >\"",
            ),
            (json!({"win": {"what": 1}}), "win: unknown field \"what\""),
            (json!({"win": {}}), "win: when: missing"),
            (
                json!({"win": {"distinct": 0, "when": "a > 3"}}),
                "win: distinct: 0 is not a number of tiles from 1 to 65535",
            ),
            (
                json!({"win": {"distinct": "4", "when": "a > 3"}}),
                "win: distinct: \"4\" is not a number of tiles",
            ),
            (json!({"win": {"distinct": 4}}), "win: when: missing"),
            (
                json!({"win": {"distinct": 4, "when": "b > 3"}}),
                "win: when: \"b > 3\": reads a tile other than a",
            ),
            (
                json!({"win": {"distinct": 4, "when": "t > 3"}}),
                "win: when: \"t > 3\": reads no tile",
            ),
            (
                json!({"win": {"distinct": 4, "when": 3}}),
                "win: when: 3 is not a condition on the tile a",
            ),
            (
                json!({"win": {"distinct": 4, "when": "a +"}}),
                "win: when: \"a +\":",
            ),
            (json!({"made": 3}), "made: 3 is not {counter: expression}"),
            (
                json!({"counters": g, "made": {}}),
                "made: changes no counter",
            ),
            (
                json!({"counters": g, "made": {"h": "a"}}),
                "made: \"h\" is not a counter",
            ),
            (
                json!({"counters": g, "made": {"g": 1}}),
                "made: \"g\": 1 is not an expression",
            ),
            (
                json!({"counters": g, "made": {"g": "b"}}),
                "made: \"g\": \"b\": reads a tile other than a",
            ),
            (
                json!({"counters": g, "made": {"g": "a +"}}),
                "made: \"g\": \"a +\":",
            ),
            (
                json!({"shown": [{"label": "Moves", "value": "t"}]}),
                "shown: shows the counters, and the file has none",
            ),
            (
                json!({"counters": g, "shown": {}}),
                "shown: an object is not a list of lines",
            ),
            (
                json!({"counters": g, "shown": []}),
                "shown: 0 lines; 1 to 4 are shown",
            ),
            (
                json!({"counters": g, "shown": vec![json!({"label": "G", "value": "g"}); 5]}),
                "shown: 5 lines; 1 to 4 are shown",
            ),
            (
                json!({"counters": g, "shown": [3]}),
                "shown: line 1: 3 is not a line",
            ),
            (
                json!({"counters": g, "shown": [{"label": "G", "value": "g", "x": 1}]}),
                "shown: line 1: unknown field \"x\" (they are label, value)",
            ),
            (
                json!({"counters": g, "shown": [{"value": "g"}]}),
                "shown: line 1: label: missing",
            ),
            (
                json!({"counters": g, "shown": [{"label": 3, "value": "g"}]}),
                "shown: line 1: label: 3 is not text",
            ),
            (
                json!({"counters": g, "shown": [{"label": "", "value": "g"}]}),
                "shown: line 1: label: \"\" is not 1 to 32 characters on one line",
            ),
            (
                json!({"counters": g, "shown": [{"label": "a\nb", "value": "g"}]}),
                "shown: line 1: label: \"a\\nb\" is not 1 to 32 characters on one line",
            ),
            (
                json!({"counters": g, "shown": [{"label": "x".repeat(33), "value": "g"}]}),
                "shown: line 1: label: \"xxxxxxxxxx",
            ),
            (
                json!({"counters": g, "shown": [{"label": "G"}]}),
                "shown: line 1: value: missing",
            ),
            (
                json!({"counters": g, "shown": [{"label": "G", "value": 3}]}),
                "shown: line 1: value: 3 is not an expression",
            ),
            (
                json!({"counters": g, "shown": [{"label": "G", "value": "a + g"}]}),
                "shown: line 1: value: \"a + g\": reads a tile; it reads the counters and t",
            ),
            (
                json!({"counters": g, "shown": [{"label": "G", "value": "h"}]}),
                "shown: line 1: value: \"h\":",
            ),
            (json!({"draw": []}), "draw: a list is not {\"weight\""),
            (
                json!({"draw": {"weight": 4, "from": "1", "to": "2", "each": "1", "x": 1}}),
                "draw: unknown field \"x\"",
            ),
            (
                json!({"draw": {"from": "1", "to": "2", "each": "1"}}),
                "draw: weight: missing",
            ),
            (
                json!({"draw": {"weight": 0, "from": "1", "to": "2", "each": "1"}}),
                "draw: weight: 0 is not a whole number from 1",
            ),
            (
                json!({"draw": {"weight": 4, "to": "2", "each": "1"}}),
                "draw: from: missing",
            ),
            (
                json!({"draw": {"weight": 4, "from": 1, "to": "2", "each": "1"}}),
                "draw: from: 1 is not an expression",
            ),
            (
                json!({"draw": {"weight": 4, "from": "a", "to": "2", "each": "1"}}),
                "draw: from: \"a\": reads a tile; it reads the counters",
            ),
            (
                json!({"draw": {"weight": 4, "from": "1", "to": "2", "each": "b"}}),
                "draw: each: \"b\": reads a tile other than a",
            ),
            (
                json!({"draw": {"weight": 4, "from": "1", "to": "t", "each": "1"}}),
                "draw: to: \"t\": reads t",
            ),
            (
                json!({"draw": {"weight": 4, "from": "1", "to": "h", "each": "1"}}),
                "draw: to: \"h\":",
            ),
        ];
        for (v, want) in cases {
            let got = read(v.clone()).map(|_| ()).unwrap_err();
            assert!(got.starts_with(want), "{v}: {got}, wanted {want}");
            assert!(!got.contains('\n'), "{got}");
        }
        let Value::Object(map) = json!({"lose": "any(a > 3)"}) else {
            unreachable!()
        };
        assert_eq!(
            Pipeline::read(&map, 2).unwrap_err().to_string(),
            "lose: needs \"format\": 3"
        );
    }
}
