//! Reading variant files: a player's `*.json` files in a folder, and the built-ins, with the
//! same code. A file that can't be read or breaks a rule is refused with one line naming the
//! file and the field ([`Refusal`]); the others still load, and no file is ever changed,
//! deleted or moved.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};
pub use tilebox_core::files::Kinds;
use tilebox_core::files::{self, FileError};
use tilebox_core::json_words::quote;

use crate::builtin::Builtin;
use crate::variant::{BASED_ON, Variant, VariantError, parse_object, resolve};

/// The largest variant file read; a larger one is refused unread.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A variant read from a file, with the id of the root of its `based_on` chain (its own id when
/// it has no `based_on`): the launcher groups entries by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The complete variant, as its file gives it.
    pub variant: Variant,
    /// The id its game is played under: the variant's own, but for a player's file whose id a
    /// built-in added later took ([`renamed_id`]): its game keeps its rules under this id.
    pub id: String,
    /// The id of the variant at the root of its `based_on` chain.
    pub root: String,
    /// The name of the file it was read from.
    pub file: String,
}

/// A file refused: its name and why. Displays as one line, `my-fib.json: side: 9 is not from 2
/// to 8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The file's name (not its whole path).
    pub file: String,
    /// Why, naming the field at fault.
    pub error: VariantError,
}

impl Refusal {
    /// The refusal of the folder `dir` as a whole: its name with a `/` after it
    /// (`variants/`), which no file in it has.
    pub fn folder(dir: &Path, error: VariantError) -> Refusal {
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Refusal {
            file: format!("{name}/"),
            error,
        }
    }

    /// Whether this is the refusal of the folder as a whole ([`Refusal::folder`]).
    pub fn is_folder(&self) -> bool {
        self.file.ends_with('/')
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the message holds.
        let text = format!("{}: {}", self.file, self.error);
        f.write_str(&text.replace(['\n', '\r'], " "))
    }
}

/// The variants a player's files are read over (the built-ins): each one's id is taken, and a
/// file's `based_on` may name one. A variant is asked for only when a file is based on it, so
/// that a built-in ([`crate::builtins`]) is read only when a file needs it.
pub trait Bases {
    /// Whether one of them has the id `id`.
    fn has(&self, id: &str) -> bool;
    /// The one whose id is `id`.
    fn get(&self, id: &str) -> Option<Variant>;
}

impl Bases for [Variant] {
    fn has(&self, id: &str) -> bool {
        self.iter().any(|v| v.id == id)
    }

    fn get(&self, id: &str) -> Option<Variant> {
        self.iter().find(|v| v.id == id).cloned()
    }
}

impl Bases for [Builtin] {
    fn has(&self, id: &str) -> bool {
        self.iter().any(|b| b.id() == id)
    }

    fn get(&self, id: &str) -> Option<Variant> {
        self.iter()
            .find(|b| b.id() == id)
            .map(|b| b.variant().clone())
    }
}

/// Reads every `*.json` file in `dir`, in file-name order, as a player's variants over
/// `builtins` (a file's `based_on` may name a built-in or another file in `dir`). A missing
/// folder is no error: it gives nothing. A file refused doesn't stop the others.
///
/// A file whose id one of the built-ins players' files came with has (`2048`, `threes` …) is
/// refused, as it always was. A file whose id a later built-in took still loads, its game under
/// a new id ([`Loaded::id`], see [`renamed_id`]), and a `based_on` naming the id in the
/// player's other files still means that file, as it did when they were written.
///
/// A folder that is there but cannot be read (a file, a named pipe, a symbolic link to
/// nothing, no permission) is one refusal of the folder ([`Refusal::folder`]), so that its
/// variants do not vanish without a word.
pub fn load_dir(dir: &Path, builtins: &(impl Bases + ?Sized)) -> (Vec<Loaded>, Vec<Refusal>) {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) => return (Vec::new(), folder_refusal(dir, &e).into_iter().collect()),
    };
    let mut files: Vec<(String, std::path::PathBuf)> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            Some((name, p))
        })
        .collect();
    files.sort();
    resolve_all(
        files
            .into_iter()
            .map(|(name, path)| (name, read_bounded(&path, Kinds::Regular))),
        builtins,
    )
}

/// [`load_dir`] over files already read: each file's name and text (a browser page keeps the
/// player's files in its storage, not in a folder). Taken in file-name order, as a folder is.
pub fn load_texts(
    files: impl IntoIterator<Item = (String, String)>,
    builtins: &(impl Bases + ?Sized),
) -> (Vec<Loaded>, Vec<Refusal>) {
    let mut files: Vec<(String, String)> = files
        .into_iter()
        .filter(|(name, _)| name.ends_with(".json"))
        .collect();
    files.sort();
    resolve_all(
        files.into_iter().map(|(name, text)| (name, Ok(text))),
        builtins,
    )
}

/// Reads and checks one variant file at `path` whose `based_on` may name any of `known`: what
/// `tilebox-cli variant check` needs. Unlike [`load_dir`], an id that one of `known` has is
/// not refused (a file printed by `variant show` checks), but the file may not be based on
/// itself.
pub fn check_file(path: &Path, known: &[Variant]) -> Result<Variant, Refusal> {
    check_file_with_id(path, known).1
}

/// [`check_file`], with the id the file gives (if it is a JSON object with a string `id`),
/// whether or not it checks: the file is read once (a pipe cannot be read again).
pub fn check_file_with_id(
    path: &Path,
    known: &[Variant],
) -> (Option<String>, Result<Variant, Refusal>) {
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let text = read_bounded(path, Kinds::Any);
    let id = text
        .as_ref()
        .ok()
        .and_then(|t| parse_object(t).ok())
        .and_then(|o| o.get("id").and_then(Value::as_str).map(str::to_string));
    let others: Vec<Variant> = known
        .iter()
        .filter(|v| Some(&v.id) != id.as_ref())
        .cloned()
        .collect();
    let (mut loaded, mut refused) = resolve_all([(file.clone(), text)], others.as_slice());
    let checked = match (loaded.pop(), refused.pop()) {
        (Some(l), _) => Ok(l.variant),
        (None, Some(r)) => Err(r),
        (None, None) => Err(Refusal {
            file,
            error: VariantError::whole("nothing was read"),
        }),
    };
    (id, checked)
}

/// The text of `path`, refusing a file over [`MAX_FILE_BYTES`] without reading it all, and,
/// unless `kinds` is [`Kinds::Any`], anything but a regular file without opening it (a named
/// pipe would block): one reader for the folder's files and for `variant check`.
pub fn read_bounded(path: &Path, kinds: Kinds) -> Result<String, VariantError> {
    let bytes = files::read_bounded(path, MAX_FILE_BYTES, kinds).map_err(|e| match e {
        FileError::TooLarge { .. } => {
            VariantError::whole(format!("larger than {MAX_FILE_BYTES} bytes"))
        }
        FileError::NotAFile(_) | FileError::NoWriter => VariantError::whole(e.to_string()),
        other => VariantError::whole(format!("cannot be read: {other}")),
    })?;
    String::from_utf8(bytes).map_err(|_| VariantError::whole("not UTF-8 text"))
}

/// Resolves files (name and text, or why the text could not be read), in the order given, over
/// `taken` variants (whose ids are taken and which `based_on` may name).
pub(crate) fn resolve_all(
    files: impl IntoIterator<Item = (String, Result<String, VariantError>)>,
    taken: &(impl Bases + ?Sized),
) -> (Vec<Loaded>, Vec<Refusal>) {
    let mut refused = Vec::new();
    // The files that are JSON objects with a usable id, by id; the first file with an id wins.
    let mut parsed: Vec<(String, Map<String, Value>)> = Vec::new();
    let mut by_id: BTreeMap<String, usize> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for (file, text) in files {
        order.push(file.clone());
        let object = text.and_then(|t| parse_object(&t));
        let object = object.and_then(|o| {
            let id = match o.get("id") {
                Some(Value::String(id)) => id.clone(),
                Some(_) => return Err(VariantError::field("id", "not a string")),
                None => return Err(VariantError::field("id", "missing field")),
            };
            if let Some(why) = crate::variant::id_refusal(&id) {
                return Err(VariantError::field("id", why));
            }
            let first = crate::builtin::FIRST_IDS.contains(&id.as_str());
            if (first && taken.has(&id)) || by_id.contains_key(&id) {
                return Err(VariantError::field(
                    "id",
                    format!("{} is taken", quote(&id)),
                ));
            }
            Ok((id, o))
        });
        match object {
            Ok((id, o)) => {
                by_id.insert(id, parsed.len());
                parsed.push((file, o));
            }
            Err(error) => refused.push(Refusal { file, error }),
        }
    }
    // The ids the games are played under: a file's own, or a new one where a built-in took it.
    let mut ids: Vec<String> = Vec::with_capacity(parsed.len());
    for (_, object) in &parsed {
        let own = object
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let id = if taken.has(&own) {
            renamed_id(&own, |candidate| {
                taken.has(candidate)
                    || by_id.contains_key(candidate)
                    || ids.iter().any(|i| i == candidate)
            })
        } else {
            own
        };
        ids.push(id);
    }
    let mut resolver = Resolver {
        parsed: &parsed,
        ids: &ids,
        by_id: &by_id,
        taken,
        done: vec![None; parsed.len()],
    };
    let mut loaded = Vec::new();
    for (i, (file, _)) in parsed.iter().enumerate() {
        match resolver.resolve(i) {
            Ok(l) => loaded.push(l),
            Err(error) => refused.push(Refusal {
                file: file.clone(),
                error,
            }),
        }
    }
    // Refusals in file order, as the files were read.
    refused.sort_by_key(|r| order.iter().position(|f| *f == r.file));
    (loaded, refused)
}

/// Why the folder `dir` could not be read (`e`), as a refusal of the folder; none when it is
/// simply not there (no variants yet).
fn folder_refusal(dir: &Path, e: &std::io::Error) -> Option<Refusal> {
    let why = if e.kind() == std::io::ErrorKind::NotFound {
        // A symbolic link to nothing is a folder the player meant to be there.
        let target = std::fs::read_link(dir).ok()?;
        format!(
            "it is a symbolic link to {}, which does not exist, so no variant is read",
            target.display()
        )
    } else {
        let kind = std::fs::metadata(dir).ok().map(|m| m.file_type());
        match kind.map(|k| (k.is_file(), files::not_a_file(k))) {
            Some((true, _)) => "it is a file, not a folder, so no variant is read".to_string(),
            Some((false, Some(what))) if what != "a folder" => {
                format!("it is {what}, not a folder, so no variant is read")
            }
            _ => format!(
                "it cannot be read ({}), so no variant is read",
                files::io_words(e)
            ),
        }
    };
    Some(Refusal::folder(dir, VariantError::whole(why)))
}

/// The id the game of a player's variant `id` is played under once a built-in has taken `id`:
/// `<id>-own`, or `<id>-own-2`, `<id>-own-3` … if that is `taken` too. The same files give the
/// same ids at every start.
pub fn renamed_id(id: &str, taken: impl Fn(&str) -> bool) -> String {
    free_id(&format!("{id}-own"), taken)
}

/// `base` if it is not `taken`, or else the first of `<base>-2`, `<base>-3` … that is not.
pub fn free_id(base: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut candidate = base.to_string();
    let mut n = 2;
    while taken(&candidate) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    candidate
}

struct Resolver<'a, B: Bases + ?Sized> {
    parsed: &'a [(String, Map<String, Value>)],
    /// The id each file's game is played under.
    ids: &'a [String],
    by_id: &'a BTreeMap<String, usize>,
    taken: &'a B,
    done: Vec<Option<Result<Loaded, VariantError>>>,
}

impl<B: Bases + ?Sized> Resolver<'_, B> {
    /// The file a file's `based_on` names among the player's files, if it does: a player's
    /// own file first, as [`Resolver::resolve_one`] looks.
    fn base_file(&self, i: usize) -> Option<usize> {
        let (_, file) = self.parsed.get(i)?;
        let base = file.get(BASED_ON)?.as_str()?;
        self.by_id.get(base).copied()
    }

    /// Resolves file `i` and every file of its `based_on` chain below it, without recursion:
    /// the chain is walked down to a file resolved before, a built-in, or a file met twice (a
    /// loop), then resolved from its foot up, so that no chain is too long.
    fn resolve(&mut self, i: usize) -> Result<Loaded, VariantError> {
        if let Some(done) = self.done.get(i).cloned().flatten() {
            return done;
        }
        let mut chain = vec![i];
        let mut on_chain = HashSet::from([i]);
        let mut last = i;
        while let Some(j) = self.base_file(last) {
            if self.done.get(j).is_some_and(Option::is_some) || !on_chain.insert(j) {
                break;
            }
            chain.push(j);
            last = j;
        }
        let mut result = Err(VariantError::whole("no such file"));
        for &k in chain.iter().rev() {
            result = self.resolve_one(k);
            if let Some(slot) = self.done.get_mut(k) {
                *slot = Some(result.clone());
            }
        }
        result
    }

    /// Resolves file `i`, whose base among the player's files is resolved already; one not
    /// yet resolved is on the chain being resolved: a loop.
    fn resolve_one(&self, i: usize) -> Result<Loaded, VariantError> {
        let Some((name, file)) = self.parsed.get(i) else {
            return Err(VariantError::whole("no such file"));
        };
        let mut root = None;
        let id = self.ids.get(i).cloned().unwrap_or_default();
        resolve(file, |base| {
            // A player's own file first: a built-in that took its id came after the files
            // based on it were written.
            if !self.by_id.contains_key(base)
                && let Some(v) = self.taken.get(base)
            {
                root = Some(v.id.clone());
                return Ok(v);
            }
            let Some(j) = self.by_id.get(base).copied() else {
                return Err(VariantError::field(
                    BASED_ON,
                    format!("{} is not a known variant", quote(base)),
                ));
            };
            match self.done.get(j).cloned().flatten() {
                None => Err(loop_error()),
                Some(Ok(l)) => {
                    root = Some(l.root.clone());
                    Ok(l.variant)
                }
                Some(Err(e)) if e == loop_error() => Err(e),
                // Its own refusal is a line of its own: one step of the chain is told here.
                Some(Err(e)) if e.field.as_deref() == Some(BASED_ON) => Err(VariantError::field(
                    BASED_ON,
                    format!("{} is refused (its based_on is)", quote(base)),
                )),
                Some(Err(e)) => Err(VariantError::field(
                    BASED_ON,
                    format!("{} is refused ({e})", quote(base)),
                )),
            }
        })
        .map(|variant| Loaded {
            root: root.unwrap_or_else(|| id.clone()),
            variant,
            id,
            file: name.clone(),
        })
    }
}

/// The refusal of a file whose `based_on` chain comes back to a file on it.
fn loop_error() -> VariantError {
    VariantError::field(BASED_ON, "a loop of based_on")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{builtin_variants, builtins};

    /// The refusal of one file `text` over the built-ins (with `others` before it), as a line.
    fn refuse(text: &str) -> Refusal {
        let (ok, refused) =
            resolve_all([("my.json".to_string(), Ok(text.to_string()))], builtins());
        assert!(ok.is_empty(), "{ok:?}");
        assert_eq!(refused.len(), 1);
        refused[0].clone()
    }

    /// Asserts `over` (laid over a full fib variant `my-fib`) is refused naming `field`.
    fn refused_field(over: serde_json::Value, field: Option<&str>) -> String {
        let mut full = crate::builtin_variant("2584").unwrap().to_json();
        full["id"] = json!("my-fib");
        for (k, v) in over.as_object().unwrap() {
            if v.is_null() && k != "win" {
                full.as_object_mut().unwrap().remove(k);
            } else {
                full[k] = v.clone();
            }
        }
        let r = refuse(&full.to_string());
        assert_eq!(r.error.field.as_deref(), field, "{r}");
        assert!(!r.to_string().contains('\n'));
        assert!(r.to_string().starts_with("my.json: "), "{r}");
        r.to_string()
    }

    #[test]
    fn a_based_on_file_and_a_full_file_load() {
        let (ok, refused) = resolve_all(
            [
                (
                    "a.json".to_string(),
                    Ok(r#"{"format": 1, "id": "my-fib", "title": "Mine", "description": "d", "based_on": "2584", "side": 5}"#.to_string()),
                ),
                (
                    "b.json".to_string(),
                    Ok(r#"{"format": 1, "id": "my-fib-2", "based_on": "my-fib", "side": 6}"#.to_string()),
                ),
            ],
            builtins(),
        );
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!(ok[0].variant.side, 5);
        assert_eq!(ok[0].root, "2584");
        assert_eq!(ok[1].variant.side, 6);
        assert_eq!(ok[1].variant.title, "Mine");
        assert_eq!(ok[1].root, "2584");
        let mut full = crate::builtin_variant("2584").unwrap().to_json();
        full["id"] = json!("mine");
        let (ok, refused) = resolve_all([("c.json".into(), Ok(full.to_string()))], builtins());
        assert!(refused.is_empty());
        assert_eq!(ok[0].root, "mine");
    }

    #[test]
    fn the_line_names_the_file_and_the_field() {
        assert_eq!(
            refused_field(json!({ "side": 9 }), Some("side")),
            "my.json: side: 9 is not from 2 to 8"
        );
    }

    #[test]
    fn malformed_json_is_refused() {
        let r = refuse("{ not json");
        assert!(r.to_string().starts_with("my.json: malformed JSON"), "{r}");
        assert!(refuse("[1, 2]").to_string().contains("not a JSON object"));
    }

    #[test]
    fn unknown_and_missing_fields_are_refused() {
        refused_field(json!({ "colour": "red" }), Some("colour"));
        refused_field(json!({ "merges": null }), Some("merges"));
        refused_field(json!({ "preview": null }), Some("preview"));
    }

    #[test]
    fn a_future_format_is_refused() {
        let s = refused_field(json!({ "format": 4 }), Some("format"));
        assert!(s.contains("newer than this build reads (3)"), "{s}");
        let s = refused_field(json!({ "format": 0 }), Some("format"));
        assert!(s.contains("0 is not a format (1, 2 or 3)"), "{s}");
    }

    /// Every misuse of format 2's fields is one line naming the file and the field.
    #[test]
    fn format_2_fields_are_refused_one_line_each() {
        let dir = std::env::temp_dir().join(format!("tilebox-format-2-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let four = r#"[{"tiles": ["n", "n", "n", "n"], "makes": "n+2"}]"#;
        let six = r#"[{"tiles": ["n", "n", "n", "n", "n", "n"], "makes": "n+2"}]"#;
        // A file based on `base` giving `field` that value is refused in one line, `expected`.
        let refused_as = |format: u32, base: &str, field: &str, value: &str, expected: &str| {
            let text = format!(
                r#"{{"format": {format}, "id": "w", "based_on": "{base}", "{field}": {value}}}"#
            );
            let line = refusal_of(&dir, "w.json", &text);
            assert_eq!(line, format!("w.json: {expected}"), "{field} = {value}");
            assert!(!line.contains('\n'), "{line}");
        };
        for (format, base, field, value, expected) in [
            (
                1,
                "2048",
                "merges",
                four,
                r#"merges: rule 1: 4 tiles; a rule of 4 or 5 tiles needs "format": 2"#,
            ),
            (
                2,
                "2048",
                "merges",
                six,
                r#"merges: rule 1: 6 tiles; a rule of 6 tiles needs "format": 3"#,
            ),
            (
                2,
                "threes",
                "merges",
                four,
                r#"merges: rule 1: "step" motion takes 2-tile rules only"#,
            ),
            (
                1,
                "2048",
                "win",
                "[2048, 4096]",
                r#"win: a list of winning tiles needs "format": 2"#,
            ),
            (
                2,
                "2048",
                "win",
                "[]",
                "win: [] is not a tile value, a list of tile values (format 2) or null",
            ),
            (
                2,
                "2048",
                "win",
                r#"[2048, "4096"]"#,
                "win: [2048,\"4096\"] is not a tile value, a list of tile values (format 2) or null",
            ),
            (
                2,
                "2048",
                "win",
                "[4096, 2048]",
                "win: not strictly increasing (4096 then 2048)",
            ),
            (
                2,
                "2048",
                "win",
                "[2048, 2048]",
                "win: not strictly increasing (2048 then 2048)",
            ),
            (
                2,
                "2048",
                "win",
                "[2048, 8192]",
                "win: 2048 and 8192 are not neighbours on the ladder: the tiles of a list of wins follow one another",
            ),
            (
                2,
                "2048",
                "win",
                "[2048, 3000]",
                "win: 3000 is not a tile of the ladder",
            ),
            (
                1,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [1]}]"#,
                r#"merges: rule 1: leaves needs "format": 2"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [1, 1]}]"#,
                "merges: rule 1: 2 tiles in make 3 out; a merge leaves fewer tiles than it takes",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": 1}]"#,
                "merges: rule 1: leaves: 1 is not a list of ladder positions",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [true]}]"#,
                r#"merges: rule 1: leaves: true is not a ladder position (a number, "n" or "n+k")"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [99]}]"#,
                "merges: rule 1: leaves: position 99 is off the ladder (1 to 57)",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": [1, 1], "makes": 2, "leaves": ["n"]}]"#,
                "merges: rule 1: it makes a tile relative to n but no tile in names n",
            ),
            (
                2,
                "threes",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [1]}]"#,
                r#"merges: rule 1: "step" motion takes no leaves"#,
            ),
            (
                1,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "run": true}]"#,
                r#"merges: rule 1: run needs "format": 2"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n+1"], "makes": "n+2", "run": true}]"#,
                "merges: rule 1: run takes equal tiles: every position in tiles the same",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "run": "yes"}]"#,
                r#"merges: rule 1: run: "yes" is not true or false"#,
            ),
            (
                2,
                "threes",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "run": true}]"#,
                r#"merges: rule 1: "step" motion takes no runs"#,
            ),
            (
                1,
                "6561",
                "merges",
                four,
                r#"merges: rule 1: 4 tiles; a rule of 4 or 5 tiles needs "format": 2"#,
            ),
            (
                3,
                "2048",
                "merges",
                r#"[{"tiles": [1, 1, 1, 1, 1, 1, 1], "makes": 2}]"#,
                "merges: rule 1: tiles: a list is not a list of 2 to 6 ladder positions (2 or 3 in format 1, 2 to 5 in format 2)",
            ),
            (
                3,
                "2048",
                "merges",
                r#"[{"tiles": [1, 1, 1, 1, 1, 2], "makes": 3, "any_order": true}]"#,
                "merges: rule 1: 6 tiles in any order; a rule of more than 5 tiles takes them as listed",
            ),
            (
                3,
                "3385",
                "merges",
                r#"[{"tiles": ["a", "b", "c", "d", "e", "f"], "makes": "a"}]"#,
                r#"merges: rule 1: tiles: "f" is not a ladder position (a number, "n" or "n+k")"#,
            ),
            (
                1,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": null}]"#,
                r#"merges: rule 1: "makes": null needs "format": 2"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": null, "leaves": [1]}]"#,
                "merges: rule 1: a merge that makes nothing leaves nothing: give makes or drop leaves",
            ),
            (
                2,
                "threes",
                "merges",
                r#"[{"tiles": [1, 2], "makes": null}]"#,
                r#"merges: rule 1: "step" motion takes no merges that make nothing"#,
            ),
            (
                1,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [2, 0]}]"#,
                r#"merges: rule 1: on_moves and directions need "format": 2"#,
            ),
            (
                1,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "directions": ["left"]}]"#,
                r#"merges: rule 1: on_moves and directions need "format": 2"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [2, 2]}]"#,
                "merges: rule 1: on_moves [m, r] needs m from 1 to 4096 and r < m",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [4097, 0]}]"#,
                "merges: rule 1: on_moves [m, r] needs m from 1 to 4096 and r < m",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": 2}]"#,
                "merges: rule 1: on_moves: 2 is not [m, r], two whole numbers",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [64, 0]}, {"tiles": ["n", "n"], "makes": "n+1", "on_moves": [81, 1]}]"#,
                "merges: the rules' on_moves cycles repeat together every 5184 moves, more than 4096",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [2, 0]}, {"tiles": ["n", "n"], "makes": "n+1", "on_moves": [3, 0]}, {"tiles": ["n", "n"], "makes": "n+1", "on_moves": [5, 0]}, {"tiles": ["n", "n"], "makes": "n+1", "on_moves": [7, 0]}, {"tiles": ["n", "n"], "makes": "n+1", "on_moves": [11, 0]}, {"tiles": ["n", "n"], "makes": "n+1", "directions": ["left"]}, {"tiles": ["n", "n"], "makes": "n+1", "directions": ["up"]}]"#,
                "merges: the rules' on_moves and directions make more than 64 different sets of rules over their cycle",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "directions": ["north"]}]"#,
                r#"merges: rule 1: directions: a list is not a list of directions ("left", "right", "up", "down")"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "directions": "left"}]"#,
                r#"merges: rule 1: directions: "left" is not a list of directions ("left", "right", "up", "down")"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "directions": ["up", "up"]}]"#,
                "merges: rule 1: directions: up is given twice",
            ),
            (
                2,
                "threes",
                "merges",
                r#"[{"tiles": [1, 2], "makes": 3, "on_moves": [2, 0]}]"#,
                r#"merges: rule 1: "step" motion takes no rules for some moves or directions"#,
            ),
            (
                1,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [2]}]"#,
                r#"merges: rule 1: spent needs "format": 2"#,
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": 2}]"#,
                "merges: rule 1: spent: 2 is not a list of places among the rule's tiles (0 to 4)",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [5]}]"#,
                "merges: rule 1: spent: 5 is not a place among the rule's tiles (0 to 4)",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [0]}]"#,
                "merges: rule 1: spent: place 0 is not a cell the merge empties (1 to 2)",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "leaves": [1], "spent": [1]}]"#,
                "merges: rule 1: spent: place 1 is not a cell the merge empties (2 to 2)",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [3]}]"#,
                "merges: rule 1: spent: place 3 is not a cell the merge empties (1 to 2)",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [2, 2]}]"#,
                "merges: rule 1: spent: place 2 is given twice",
            ),
            (
                2,
                "2048",
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [1], "spent": [1]}]"#,
                "merges: rule 1: spent: this merge empties no cell (it leaves as many tiles as it takes)",
            ),
            (
                2,
                "threes",
                "merges",
                r#"[{"tiles": [1, 2], "makes": 3, "spent": [1]}]"#,
                r#"merges: rule 1: "step" motion takes no spent cells"#,
            ),
        ] {
            refused_as(format, base, field, value, expected);
        }
        // Labels and the points of the tiles merges make: 2048 has 57 tiles, so these name 57.
        let labels = |change: &dyn Fn(&mut Vec<String>)| {
            let mut l: Vec<String> = (1..=57).map(|i| format!("t{i}")).collect();
            change(&mut l);
            serde_json::to_string(&l).unwrap()
        };
        let points = |n: usize| serde_json::to_string(&vec![1; n]).unwrap();
        for (format, field, value, expected) in [
            (
                1,
                "labels",
                labels(&|_| {}),
                r#"labels: labels need "format": 2"#,
            ),
            (
                2,
                "labels",
                r#""t1""#.to_string(),
                r#"labels: "t1" is not a list of texts"#,
            ),
            (
                2,
                "labels",
                "[1, 2]".to_string(),
                "labels: [1,2] is not a list of texts",
            ),
            (
                2,
                "labels",
                labels(&|l| l.truncate(3)),
                "labels: 3 labels for 57 ladder tiles; give one per tile",
            ),
            (
                2,
                "labels",
                labels(&|l| l[4] = String::new()),
                r#"labels: label 5 ("") is empty or ".", which shows an empty cell"#,
            ),
            (
                2,
                "labels",
                labels(&|l| l[0] = ".".into()),
                r#"labels: label 1 (".") is empty or ".", which shows an empty cell"#,
            ),
            (
                2,
                "labels",
                labels(&|l| l[1] = "1 + i".into()),
                r#"labels: label 2 ("1 + i") holds ' '; a label has no spaces, commas, semicolons, slashes or colons"#,
            ),
            (
                2,
                "labels",
                labels(&|l| l[2] = "3,5".into()),
                r#"labels: label 3 ("3,5") holds ','; a label has no spaces, commas, semicolons, slashes or colons"#,
            ),
            (
                2,
                "labels",
                labels(&|l| l[6] = "12345678901234567".into()),
                r#"labels: label 7 ("12345678901234567") is longer than 16 characters"#,
            ),
            (
                2,
                "labels",
                labels(&|l| l[9] = "t2".into()),
                r#"labels: labels 2 and 10 are both "t2"; each tile shows its own"#,
            ),
            (
                1,
                "score",
                format!(r#"{{"merges": {}}}"#, points(57)),
                r#"score: points for the tiles merges make need "format": 2"#,
            ),
            (
                2,
                "score",
                format!(r#"{{"merges": {}}}"#, points(2)),
                "score: 2 points for 57 ladder tiles; give one per tile",
            ),
            (
                2,
                "score",
                r#"{"merges": "all"}"#.to_string(),
                r#"score: {"merges":"all"} is not "merges", {"board": [...]} or {"merges": [...]} (format 2)"#,
            ),
        ] {
            refused_as(format, "2048", field, &value, expected);
        }
        // The same fields, used as format 2 says, load.
        let leaves = r#"[{"tiles": ["n", "n"], "makes": "n+1", "leaves": [1]}]"#;
        let run = r#"[{"tiles": ["n", "n"], "makes": "n+1", "run": true}]"#;
        let nothing = r#"[{"tiles": [1, 2], "makes": null, "any_order": true}]"#;
        let some_moves = r#"[{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [2, 1], "directions": ["left", "down"]}]"#;
        let spent = r#"[{"tiles": ["n", "n", "n"], "makes": "n+2", "spent": [1, 2]}, {"tiles": [1, 1], "makes": null, "spent": [0, 1]}]"#;
        for (field, value) in [
            ("merges", spent.to_string()),
            ("merges", some_moves.to_string()),
            ("labels", labels(&|_| {})),
            ("score", format!(r#"{{"merges": {}}}"#, points(57))),
            ("merges", nothing.to_string()),
            ("merges", four.to_string()),
            ("merges", leaves.to_string()),
            ("merges", run.to_string()),
            ("win", "[2048, 4096]".to_string()),
        ] {
            let text =
                format!(r#"{{"format": 2, "id": "w", "based_on": "2048", "{field}": {value}}}"#);
            let (loaded, refused) = resolve_all([("w.json".to_string(), Ok(text))], builtins());
            assert!(refused.is_empty(), "{field}: {refused:?}");
            assert_eq!(loaded.len(), 1);
        }
        // A format-1 file based on a variant that is format 2 now (5040 took its merges of four
        // after players could base files on it) reads as before, as a format-2 variant.
        let text = r#"{"format": 1, "id": "w", "based_on": "5040", "side": 6}"#.to_string();
        let (loaded, refused) = resolve_all([("w.json".to_string(), Ok(text))], builtins());
        assert!(refused.is_empty(), "{refused:?}");
        assert_eq!((loaded[0].variant.format, loaded[0].variant.side), (2, 6));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every misuse of a range of integers (format 2) is one line naming the file and the field;
    /// the same fields used as the format says load, and name their tiles by their numbers.
    #[test]
    fn integer_tiles_are_refused_one_line_each() {
        let dir = std::env::temp_dir().join(format!("tilebox-integers-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rule = |r: &str| format!("[{r}]");
        for (format, base, field, value, expected) in [
            (
                1,
                "2048",
                "tiles",
                r#"{"integers": [1, 100]}"#.to_string(),
                r#"tiles: a range of integers needs "format": 2"#,
            ),
            (
                2,
                "1762",
                "tiles",
                r#"{"integers": [10, 1]}"#.to_string(),
                "tiles: [10, 1] is not a range of 1 to 65535 integers, the lower first",
            ),
            (
                2,
                "1762",
                "tiles",
                r#"{"integers": [1, 65536]}"#.to_string(),
                "tiles: [1, 65536] is not a range of 1 to 65535 integers, the lower first",
            ),
            (
                2,
                "1429",
                "tiles",
                r#"{"integers": [-2, 65535]}"#.to_string(),
                "tiles: [-2, 65535] is not a range of 1 to 65535 integers, the lower first",
            ),
            (
                2,
                "1762",
                "tiles",
                r#"{"integers": [1]}"#.to_string(),
                r#"tiles: {"integers":[1]} is not a list of whole numbers or {"integers": [from, to]} (format 2)"#,
            ),
            (
                2,
                "1762",
                "tiles",
                r#"{"integers": [1, 9], "step": 2}"#.to_string(),
                r#"tiles: {"integers":[1,9],"step":2} is not a list of whole numbers or {"integers": [from, to]} (format 2)"#,
            ),
            (
                2,
                "1762",
                "motion",
                r#""step""#.to_string(),
                r#"motion: "step" motion takes a ladder, not a range of integers"#,
            ),
            (
                2,
                "1762",
                "labels",
                r#"["a"]"#.to_string(),
                "labels: a range of integers shows its numbers: give no labels",
            ),
            (
                2,
                "1762",
                "score",
                r#"{"board": [1]}"#.to_string(),
                r#"score: a range of integers scores "merges""#,
            ),
            (
                2,
                "1762",
                "spawn",
                r#"{"bag": {"1": 2}, "bonus": {"chance": [1, 2], "top_at_least": 4, "lowest": 2, "top_divided_by": 2}}"#.to_string(),
                "spawn: a range of integers takes no bonus",
            ),
            (
                2,
                "1762",
                "spawn",
                r#"{"weights": {"0": 1}}"#.to_string(),
                "spawn: 0 is not a tile: the tiles are the integers from 1 to 65535",
            ),
            (
                2,
                "1429",
                "win",
                "-1430".to_string(),
                "win: -1430 is not a tile: the tiles are the integers from -1429 to 64105",
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "c"], "makes": "a + c"}"#),
                r#"merges: rule 1: tiles: in a range of integers, the tiles are the letters "a", "b" … in order"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["n", "n"], "makes": "n+1"}"#),
                r#"merges: rule 1: tiles: in a range of integers, the tiles are the letters "a", "b" … in order"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": 3}"#),
                r#"merges: rule 1: makes: in a range of integers, a rule makes a sum of its tiles ("a + b") or null"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + c"}"#),
                r#"merges: rule 1: makes: in a range of integers, a rule makes a sum of its tiles ("a + b") or null"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b", "n_from": 2}"#),
                "merges: rule 1: n_from is a ladder's: a range of integers merges by when",
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b", "leaves": ["a"]}"#),
                "merges: rule 1: leaves is a ladder's: a range of integers merges by when",
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b", "when": ["a = c"]}"#),
                r#"merges: rule 1: when: "a = c" names a tile the rule does not take"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b", "when": "a = b"}"#),
                r#"merges: rule 1: when: "a = b" is not a list of conditions"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b", "when": [1]}"#),
                r#"merges: rule 1: when: 1 is not a condition (a text such as "|a - b| <= 1")"#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b", "when": ["a < b < 3"]}"#),
                r#"merges: rule 1: when: "a < b < 3": more than one comparison: "<" and "<""#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a +"}"#),
                r#"merges: rule 1: makes: "a +": an expression ends with "+""#,
            ),
            (
                2,
                "1762",
                "merges",
                rule(r#"{"tiles": ["a", "b", "c"], "makes": "2a + b + c", "any_order": true}"#),
                r#"merges: rule 1: makes: "2a + b + c" counts the tiles unlike, but any_order lets them lie in any order; make a sum that counts each alike ("a + b")"#,
            ),
            (
                2,
                "1762",
                "spawn",
                r#"{"weights": {"1": 90, "01": 10}}"#.to_string(),
                r#"spawn: "01" names a tile named before (each tile once)"#,
            ),
            (
                2,
                "1429",
                "win",
                "[1429, -1429]".to_string(),
                "win: not strictly increasing (1429 then -1429)",
            ),
            (
                2,
                "1762",
                "win",
                r#"["7"]"#.to_string(),
                r#"win: ["7"] is not a tile value, a list of tile values (format 2) or null"#,
            ),
            (
                2,
                "2048",
                "merges",
                rule(r#"{"tiles": ["n", "n"], "makes": "n+1", "when": ["a = b"]}"#),
                r#"merges: rule 1: tile letters and when need "tiles": {"integers": [from, to]}"#,
            ),
            (
                2,
                "2048",
                "merges",
                rule(r#"{"tiles": ["a", "b"], "makes": "a + b"}"#),
                r#"merges: rule 1: tile letters and when need "tiles": {"integers": [from, to]}"#,
            ),
        ] {
            let text = format!(
                r#"{{"format": {format}, "id": "w", "based_on": "{base}", "{field}": {value}}}"#
            );
            let line = refusal_of(&dir, "w.json", &text);
            assert_eq!(line, format!("w.json: {expected}"), "{field} = {value}");
        }
        // Used as the format says, they load; a negative tile is named by its number.
        let text = r#"{"format": 2, "id": "w", "based_on": "1429", "spawn": {"weights": {"-1": 1, "3": 1}}, "win": 7}"#;
        let (loaded, refused) =
            resolve_all([("w.json".to_string(), Ok(text.to_string()))], builtins());
        assert!(refused.is_empty(), "{refused:?}");
        let v = &loaded[0].variant;
        let named: Vec<String> = v
            .spawn
            .weights
            .iter()
            .flatten()
            .map(|(&t, _)| v.tile_text(t))
            .collect();
        assert_eq!(named, ["-1", "3"]);
        assert_eq!(v.win_words().as_deref(), Some("7"));
        let json = v.to_json();
        assert_eq!(
            json["spawn"]["weights"],
            serde_json::json!({"-1": 1, "3": 1})
        );
        assert_eq!(
            (&json["win"], &json["tiles"]),
            (
                &serde_json::json!(7),
                &serde_json::json!({"integers": [-1429, 64105]})
            )
        );
        assert_eq!(&Variant::from_json(json.as_object().unwrap()).unwrap(), v);
        // serde reads what it writes.
        assert_eq!(&serde_json::from_value::<Variant>(json.clone()).unwrap(), v);
        assert_eq!(serde_json::to_value(v).unwrap(), json);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_taken_or_bad_id_is_refused() {
        refused_field(json!({ "id": "2048" }), Some("id"));
        refused_field(json!({ "id": "My Fib" }), Some("id"));
        refused_field(json!({ "id": "" }), Some("id"));
        // Two files with one id: the second is refused.
        let text = r#"{"format": 1, "id": "x", "based_on": "2048"}"#;
        let (ok, refused) = resolve_all(
            [
                ("a.json".into(), Ok(text.into())),
                ("b.json".into(), Ok(text.into())),
            ],
            builtins(),
        );
        assert_eq!(ok.len(), 1);
        assert_eq!(refused[0].file, "b.json");
        assert_eq!(refused[0].error.field.as_deref(), Some("id"));
    }

    #[test]
    fn a_side_out_of_range_is_refused() {
        refused_field(json!({ "side": 1 }), Some("side"));
        refused_field(json!({ "side": 9 }), Some("side"));
        refused_field(json!({ "side": "4" }), Some("side"));
    }

    #[test]
    fn bad_ladders_are_refused() {
        refused_field(json!({ "tiles": [] }), Some("tiles"));
        refused_field(json!({ "tiles": [1, 2, 2, 3] }), Some("tiles"));
        refused_field(json!({ "tiles": [3, 2, 1] }), Some("tiles"));
        let long: Vec<u64> = (1..=256).collect();
        refused_field(json!({ "tiles": long }), Some("tiles"));
    }

    #[test]
    fn a_merge_off_the_ladder_is_refused_but_relative_ones_are_fine() {
        refused_field(
            json!({ "merges": [{ "tiles": [1, 70], "makes": 2 }] }),
            Some("merges"),
        );
        refused_field(
            json!({ "merges": [{ "tiles": [1, 1], "makes": 99 }] }),
            Some("merges"),
        );
        refused_field(
            json!({ "merges": [{ "tiles": [1], "makes": 2 }] }),
            Some("merges"),
        );
        refused_field(
            json!({ "merges": [{ "tiles": ["m"], "makes": 2 }] }),
            Some("merges"),
        );
    }

    #[test]
    fn step_with_a_three_tile_rule_is_refused() {
        refused_field(
            json!({ "motion": "step", "merges": [{ "tiles": ["n", "n", "n"], "makes": "n+1" }] }),
            Some("merges"),
        );
    }

    #[test]
    fn spawns_off_the_ladder_are_refused() {
        refused_field(json!({ "spawn": { "weights": { "4": 1 } } }), Some("spawn"));
        refused_field(json!({ "spawn": { "bag": { "7": 1 } } }), Some("spawn"));
        refused_field(json!({ "spawn": {} }), Some("spawn"));
    }

    #[test]
    fn a_bad_bonus_is_refused() {
        let bonus = |b: serde_json::Value| json!({ "spawn": { "bag": { "1": 2 }, "bonus": b } });
        refused_field(
            bonus(json!({ "chance": [1, 0], "top_at_least": 8, "lowest": 2, "top_divided_by": 2 })),
            Some("spawn"),
        );
        refused_field(
            bonus(json!({ "chance": [1, 9], "top_at_least": 8, "lowest": 4, "top_divided_by": 2 })),
            Some("spawn"),
        );
        refused_field(
            bonus(json!({ "chance": [1, 9], "top_at_least": 8, "lowest": 2, "top_divided_by": 0 })),
            Some("spawn"),
        );
        refused_field(
            json!({ "spawn": { "weights": { "1": 1 }, "bonus": { "chance": [1, 9], "top_at_least": 8, "lowest": 2, "top_divided_by": 2 } } }),
            Some("spawn"),
        );
    }

    #[test]
    fn more_start_tiles_than_cells_are_refused() {
        refused_field(json!({ "side": 2, "start": 5 }), Some("start"));
    }

    #[test]
    fn an_unknown_base_and_a_loop_are_refused() {
        let r = refuse(r#"{"format": 1, "id": "x", "based_on": "nope"}"#);
        assert_eq!(r.error.field.as_deref(), Some("based_on"));
        let (ok, refused) = resolve_all(
            [
                (
                    "a.json".into(),
                    Ok(r#"{"format": 1, "id": "a", "based_on": "b"}"#.into()),
                ),
                (
                    "b.json".into(),
                    Ok(r#"{"format": 1, "id": "b", "based_on": "a"}"#.into()),
                ),
                (
                    "c.json".into(),
                    Ok(r#"{"format": 1, "id": "c", "based_on": "c"}"#.into()),
                ),
            ],
            builtins(),
        );
        assert!(ok.is_empty());
        assert_eq!(refused.len(), 3);
        for r in refused {
            assert_eq!(r.error.field.as_deref(), Some("based_on"), "{r}");
            assert!(r.to_string().contains("loop"), "{r}");
        }
    }

    #[test]
    fn a_win_off_the_ladder_is_refused() {
        refused_field(json!({ "win": 1000 }), Some("win"));
    }

    #[test]
    fn a_board_score_not_one_per_tile_is_refused() {
        refused_field(json!({ "score": { "board": [0, 1] } }), Some("score"));
        refused_field(json!({ "score": "tiles" }), Some("score"));
    }

    #[test]
    fn check_file_accepts_a_full_form_of_a_builtin_and_refuses_a_bad_file() {
        let dir = std::env::temp_dir().join(format!("tilebox-check-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let builtins = builtin_variants();
        for v in &builtins {
            let path = dir.join(format!("{}.json", v.id));
            std::fs::write(&path, v.to_json().to_string()).unwrap();
            assert_eq!(check_file(&path, &builtins).as_ref(), Ok(v));
        }
        let path = dir.join("mine.json");
        std::fs::write(
            &path,
            r#"{"format": 1, "id": "mine", "based_on": "2584", "side": 5}"#,
        )
        .unwrap();
        assert_eq!(check_file(&path, &builtins).unwrap().side, 5);
        std::fs::write(
            &path,
            r#"{"format": 1, "id": "mine", "based_on": "2584", "side": 9}"#,
        )
        .unwrap();
        assert_eq!(
            check_file(&path, &builtins).unwrap_err().to_string(),
            "mine.json: side: 9 is not from 2 to 8"
        );
        let missing = check_file(&dir.join("none.json"), &builtins).unwrap_err();
        assert!(
            missing.to_string().starts_with("none.json: cannot be read"),
            "{missing}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_loads_sorted_refuses_bad_files_and_touches_nothing() {
        let dir = std::env::temp_dir().join(format!("tilebox-variants-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (ok, refused) = load_dir(&dir, builtins());
        assert!(
            ok.is_empty() && refused.is_empty(),
            "a missing folder is no error"
        );
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("b.json"),
            r#"{"format": 1, "id": "b-fib", "based_on": "2584", "side": 5}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("a.json"),
            r#"{"format": 1, "id": "a", "based_on": "2048", "side": 9}"#,
        )
        .unwrap();
        std::fs::write(
            dir.join("c.json"),
            r#"{"format": 1, "id": "c", "based_on": "b-fib", "side": 6}"#,
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "not a variant").unwrap();
        let big = vec![b' '; (MAX_FILE_BYTES + 10) as usize];
        std::fs::write(dir.join("d.json"), big).unwrap();
        let (ok, refused) = load_dir(&dir, builtins());
        let ids: Vec<&str> = ok.iter().map(|l| l.variant.id.as_str()).collect();
        assert_eq!(ids, ["b-fib", "c"]);
        let lines: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(lines[0], "a.json: side: 9 is not from 2 to 8");
        assert!(lines[1].starts_with("d.json: larger than"), "{lines:?}");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a.json", "b.json", "c.json", "d.json", "notes.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn refusal_of(dir: &Path, name: &str, text: &str) -> String {
        std::fs::write(dir.join(name), text).unwrap();
        let (_, refused) = load_dir(dir, builtins());
        let line = refused
            .iter()
            .find(|r| r.file == name)
            .map(ToString::to_string)
            .unwrap_or_else(|| panic!("{name} was not refused"));
        std::fs::remove_file(dir.join(name)).unwrap();
        line
    }

    /// Every misuse of format 3 (expressions, `scores`, `t`) is one line naming the file, the
    /// rule and the field; a format-2 file that writes one is refused as needing format 3.
    #[test]
    fn format_3_is_refused_one_line_each() {
        let dir = std::env::temp_dir().join(format!("tilebox-format-3-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let long = vec!["a"; 70].join(" + ");
        let needs = r#"needs "format": 3 (format 2 reads sums such as "2a - b + 1", one comparison or "divides")"#;
        for (format, base, rule, expected) in [
            (2, "1762", r#""makes": "a + b", "when": ["a * b = 4"]"#.to_string(), format!(r#"when: "a * b = 4" {needs}"#)),
            (2, "1762", r#""makes": "a + b", "when": ["a = b or a = 1"]"#.to_string(), format!(r#"when: "a = b or a = 1" {needs}"#)),
            (2, "1762", r#""makes": "a + b", "when": ["t > 1"]"#.to_string(), format!(r#"when: "t > 1" {needs}"#)),
            (2, "1762", r#""makes": "a * b""#.to_string(), format!(r#"makes: "a * b" {needs}"#)),
            (2, "1762", r#""makes": "a + b", "scores": "a""#.to_string(), r#"scores: "a" needs "format": 3"#.to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["foo(a) = 1"]"#.to_string(), r#"when: "foo(a) = 1": unknown function "foo" (they are gcd, lcm, min, max, pow, is_prime, next_prime, divisors, is_square, isqrt, power_exp, tri, is_tri, band, bor, bxor, popcount, highbit, if)"#.to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["gcd(a) = 1"]"#.to_string(), r#"when: "gcd(a) = 1": gcd takes 2 arguments, not 1"#.to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["c = 1"]"#.to_string(), r#"when: "c = 1" names a tile the rule does not take"#.to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["made = 1"]"#.to_string(), r#"when: "made = 1": "made" is the tile a merge made: only a rule's scores reads it"#.to_string()),
            (3, "1762", r#""makes": "made""#.to_string(), r#"makes: "made": "made" is the tile a merge made: only a rule's scores reads it"#.to_string()),
            (3, "1762", format!(r#""makes": "a + b", "when": ["{long} > 0"]"#), "more than 128 numbers, letters, operators and calls".to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["a ! b"]"#.to_string(), r#"when: "a ! b": unexpected "!" at column 3"#.to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["a + b"]"#.to_string(), r#"when: "a + b": "a + b" is a number, not a condition (a comparison such as "a = b", or "divides")"#.to_string()),
            (3, "1762", r#""makes": "a = b""#.to_string(), r#"makes: "a = b": "a = b" is a condition, not a number"#.to_string()),
            (3, "1762", r#""makes": "a + b", "scores": 5"#.to_string(), r#"scores: 5 is not an expression (a text such as "a / b")"#.to_string()),
            (3, "1762", r#""makes": "a + b", "scores": "|a""#.to_string(), r#"scores: "|a": "|" is not closed"#.to_string()),
            (3, "1762", r#""makes": "a + b", "scores": "c""#.to_string(), r#"scores: "c" names a tile the rule does not take"#.to_string()),
            (3, "1762", r#""makes": "a + b", "scores": "a = b""#.to_string(), r#"scores: "a = b": "a = b" is a condition, not a number"#.to_string()),
            (3, "1762", r#""makes": "a + b", "when": ["a = 99999999999999999999"]"#.to_string(), r#"when: "a = 99999999999999999999": the number "99999999999999999999" is too large"#.to_string()),
            (3, "1762", format!(r#""makes": "a + b", "when": ["{}a = 1{}"]"#, "(".repeat(100), ")".repeat(100)), "nested more than 64 deep".to_string()),
        ] {
            let tiles = if base == "2048" { r#"["n", "n"]"# } else { r#"["a", "b"]"# };
            let text = format!(
                r#"{{"format": {format}, "id": "w", "based_on": "{base}", "merges": [{{"tiles": {tiles}, {rule}}}]}}"#
            );
            let line = refusal_of(&dir, "w.json", &text);
            assert!(!line.contains('\n'), "{line}");
            assert!(line.starts_with("w.json: merges: rule 1: "), "{line}");
            assert!(line.ends_with(&expected), "{rule}: {line}");
        }
        // A ladder's rule has no scores; a ladder has no letters either.
        let text = r#"{"format": 3, "id": "w", "based_on": "2048", "merges": [{"tiles": ["n", "n"], "makes": "n+1", "scores": "1"}]}"#;
        assert_eq!(
            refusal_of(&dir, "w.json", text),
            r#"w.json: merges: rule 1: scores needs "tiles": {"integers": [from, to]} (a ladder scores by "score")"#
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every misuse of records is one line naming the file and the field (and the rule).
    #[test]
    fn records_are_refused_one_line_each() {
        let dir = std::env::temp_dir().join(format!("tilebox-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rule = r#"{"tiles": ["a", "b"], "when": ["a.x = b.x"], "makes": "(a.x + b.x, a.y)"}"#;
        let file = |format: u32, tiles: &str, rule: &str, spawn: &str, win: &str| {
            format!(
                r#"{{"format": {format}, "id": "w", "title": "W", "description": "W.", "side": 4, "tiles": {tiles}, "merges": [{rule}], "motion": "slide", "spawn": {{"weights": {spawn}}}, "spawn_at": "anywhere", "start": 2, "preview": false, "win": {win}, "score": "merges"}}"#
            )
        };
        let pairs = r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "worth": "x + y", "label": "{x}|{y}"}"#;
        let spawn = r#"{"(1, 0)": 1}"#;
        for (text, expected) in [
            (file(2, pairs, rule, spawn, "null"), r#"tiles: records need "format": 3"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y", "u", "v", "w"], "ranges": [[0, 1], [0, 1], [0, 1], [0, 1], [0, 1]]}}"#, rule, spawn, "null"), "tiles: records: 5 fields; a record has 1 to 4".to_string()),
            (file(3, r#"{"records": {"fields": [], "list": [[1]]}}"#, rule, spawn, "null"), "tiles: records: 0 fields; a record has 1 to 4".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 300], [0, 300]]}}"#, rule, spawn, "null"), "tiles: records: the ranges hold 90601 records, more than 65535".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9]]}}"#, rule, spawn, "null"), "tiles: records: 1 ranges for 2 fields".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[5, 4], [0, 9]]}}"#, rule, spawn, "null"), r#"tiles: records: the range of "x" is empty"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "x"], "ranges": [[0, 9], [0, 9]]}}"#, rule, spawn, "null"), r#"tiles: records: field "x" is named twice"#.to_string()),
            (file(3, r#"{"records": {"fields": ["a", "y"], "ranges": [[0, 9], [0, 9]]}}"#, rule, spawn, "null"), r#"tiles: records: field "a" is not a name (1 to 8 small letters, not a tile letter or t)"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "list": [[1, 0], [2]]}}"#, rule, spawn, "null"), "tiles: records: list item 2 has 1 fields, not 2".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "list": [[1, 0], [1, 0]]}}"#, rule, spawn, "null"), "tiles: records: (1, 0) is listed twice".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]], "list": [[1, 0]]}}"#, rule, spawn, "null"), "tiles: records: give one of ranges and list".to_string()),
            (file(3, r#"{"records": {"fields": ["x"], "list": [[1]], "sizes": 1}}"#, rule, spawn, "null"), r#"tiles: records: "sizes" is not fields, ranges or list"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "worth": "x + q"}"#, rule, spawn, "null"), r#"tiles: worth: "q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "worth": "x / (y - y)"}"#, rule, spawn, "null"), "tiles: worth: undefined for the record (0, 0)".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "{x}|{q}"}"#, rule, spawn, "null"), r#"tiles: label: "q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "{x"}"#, rule, spawn, "null"), r#"tiles: label: "{x" has a "{" that is not closed"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "pair"}"#, rule, spawn, "null"), r#"tiles: label: "pair" shows no field: every tile would look alike"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": 5}"#, rule, spawn, "null"), r#"tiles: label is a text, or a list of {"if": condition, "text": text}"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": []}"#, rule, spawn, "null"), r#"tiles: label: an empty list; give a text, or labels each with its "if""#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": ["{x}"]}"#, rule, spawn, "null"), r#"tiles: label 1: give {"if": condition, "text": text}"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "y = 1", "show": "+{x}"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: "show" is not if or text"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "y = 1"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: its "text" is missing or not a text"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "y = 1", "text": "+{x}"}, {"if": "y = 0", "text": "{x}"}]}"#, rule, spawn, "null"), r#"tiles: label 2: the last label takes no "if", so that every tile has a label"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"text": "+{x}"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: only the last label goes without "if" (those after it would never show)"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": 1, "text": "+{x}"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), "tiles: label 1: if is a condition, as a text".to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "y + 1", "text": "+{x}"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: if: "a.y + 1" is a number, not a condition"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "q = 1", "text": "+{x}"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: if: "q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "b.y = 1", "text": "+{x}"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: if: "b.y = 1" reads a tile letter; name the fields"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": [{"if": "y = 1", "text": "+"}, {"text": "{x}|{y}"}]}"#, rule, spawn, "null"), r#"tiles: label 1: "+" shows no field: every tile would look alike"#.to_string()),
            (file(3, pairs, rule, r#"{"(10, 0)": 1}"#, "null"), r#"spawn: "(10, 0)" is not a tile: name a record by its fields, as "(1, 0)""#.to_string()),
            (file(3, pairs, rule, spawn, r#"["(1, 2, 3)"]"#), r#"win: "(1, 2, 3)" is not a tile: name a record by its fields, as "(1, 0)""#.to_string()),
            (file(3, pairs, r#"{"tiles": ["a", "b"], "when": ["a.q = b.x"], "makes": "(a.x, a.y)"}"#, spawn, "null"), r#"merges: rule 1: when: "a.q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, pairs, r#"{"tiles": ["a", "b"], "makes": "(a.x, a.y, b.x)"}"#, spawn, "null"), r#"merges: rule 1: makes: "(a.x, a.y, b.x)" has 3 fields; a record here has 2"#.to_string()),
            (file(3, pairs, r#"{"tiles": ["a", "b"], "makes": "a.x + b.x"}"#, spawn, "null"), r#"merges: rule 1: makes: "a.x + b.x" is one number; a record here has 2 fields: make (x, y, …)"#.to_string()),
            (file(3, pairs, r#"{"tiles": ["a", "b"], "makes": "(a.x, a.y)", "scores": "(a.x, b.x)"}"#, spawn, "null"), r#"merges: rule 1: scores: "(a.x, b.x)""#.to_string()),
            (file(3, r#"{"integers": [1, 100]}"#, r#"{"tiles": ["a", "b"], "makes": "a.x + b"}"#, r#"{"1": 1}"#, "null"), r#"merges: rule 1: makes: "a.x" reads a field, but the tiles are not records"#.to_string()),
            (file(3, r#"{"integers": [1, 100]}"#, r#"{"tiles": ["a", "b"], "makes": "(a, b)"}"#, r#"{"1": 1}"#, "null"), r#"merges: rule 1: makes: "(a, b)" is a record, but the tiles are not records"#.to_string()),
            // A label's groups in brackets, shown when their fields are not 0.
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "{x}[{y}"}"#, rule, spawn, "null"), r#"tiles: label: "{x}[{y}" has a "[" that is not closed"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "{x}]"}"#, rule, spawn, "null"), r#"tiles: label: "{x}]" has a "]" with no "[""#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "{x}[[{y}]]"}"#, rule, spawn, "null"), r#"tiles: label: "{x}[[{y}]]" has a "[" inside a "[…]""#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "[{x}|{y}]"}"#, rule, spawn, "null"), r#"tiles: label: "[{x}|{y}]" shows no field outside "[…]": some tiles would look alike"#.to_string()),
            (file(3, r#"{"records": {"fields": ["x", "y"], "ranges": [[0, 9], [0, 9]]}, "label": "{x}|{y}[()]"}"#, rule, spawn, "null"), r#"tiles: label: "{x}|{y}[()]" has a group "[…]" that shows no field"#.to_string()),
            // The turn pipeline reads the fields of records, and only of records.
            (file(3, pairs, rule, spawn, "null").replace(r#""motion""#, r#""tick": [{"when": ["a.q = 1"], "makes": null}], "motion""#), r#"tick: rule 1: when: "a.q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, pairs, rule, spawn, "null").replace(r#""motion""#, r#""tick": [{"when": ["a.x = 1"], "makes": "(a.x, a.y, 1)"}], "motion""#), r#"tick: rule 1: makes: "(a.x, a.y, 1)" has 3 fields; a record here has 2"#.to_string()),
            (file(3, pairs, rule, spawn, "null").replace(r#""motion""#, r#""counters": {"g": {"start": 0, "values": [0, 3]}}, "events": [{"if": "any(a.q = 1)", "then": {"g": "1"}}], "motion""#), r#"events: event 1: if: "a.q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, pairs, rule, spawn, "null").replace(r#""motion""#, r#""lose": "any(a.q > 1)", "motion""#), r#"lose: "a.q" is not a field (the fields are x, y)"#.to_string()),
            (file(3, r#"{"integers": [1, 100]}"#, r#"{"tiles": ["a", "b"], "when": ["a = b"], "makes": "a + b"}"#, r#"{"1": 1}"#, "null").replace(r#""motion""#, r#""tick": [{"when": ["a.x = 1"], "makes": null}], "motion""#), r#"tick: rule 1: when: "a.x" reads a field, but the tiles are not records"#.to_string()),
            // Merge rules that read counters are compiled for each state of them.
            (file(3, pairs, r#"{"tiles": ["a", "b"], "when": ["a.x = p + q + r"], "makes": "(a.x, a.y)"}"#, spawn, "null").replace(r#""motion""#, r#""counters": {"p": {"start": 0, "values": [0, 63]}, "q": {"start": 0, "values": [0, 63]}, "r": {"start": 0, "values": [0, 63]}}, "motion""#), "merges: the rules read counters of 262144 states, more than 4096".to_string()),
            (file(3, pairs, r#"{"tiles": ["a", "b"], "when": ["a.x = top"], "makes": "(a.x, a.y)"}"#, spawn, "null"), r#"merges: rule 1: when: "a.x = top": unknown word "top""#.to_string()),
        ] {
            let line = refusal_of(&dir, "w.json", &text);
            assert!(!line.contains('\n'), "{line}");
            assert!(line.starts_with("w.json: "), "{line}");
            assert!(line.contains(&expected), "{expected}\n{line}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Random records (fields, ranges or lists, worths, labels and rules reading them) load or
    /// are refused in one line; what loads plays every direction and reads back as written.
    #[test]
    fn random_records_load_or_are_refused_and_play() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let word = prop::sample::select(vec![
            "x", "y", "q", "a.x", "b.x", "a.y", "b.y", "a.q", "a", "b", "1", "0", "2", "+", "-",
            "*", "/", "=", "or", "(", ")", ",", "|", "gcd(",
        ]);
        let text = move || prop::collection::vec(word.clone(), 1..8).prop_map(|t| t.join(" "));
        let range = (-3i64..=0, 1i64..300).prop_map(|(a, d)| serde_json::json!([a, a + d]));
        let some = |good: &'static str| prop_oneof![Just(good.to_string()), text()];
        let mut runner = TestRunner::new(Config {
            cases: 150,
            ..Config::default()
        });
        let strategy = (
            prop::collection::vec(range, 2),
            prop::bool::ANY,
            some("x + y"),
            some("x"),
            some("a.x = b.x"),
            some("a.y + b.y"),
            prop::collection::vec(0u64..40, 16),
        );
        let loaded = std::cell::Cell::new(0);
        runner
            .run(&strategy, |(ranges, list, worth, label, when, makes, cells)| {
                let fields = ["x", "y"];
                let tiles = if list {
                    let rows: Vec<Vec<i64>> = (0..5)
                        .map(|i| vec![i, i + 1])
                        .collect();
                    serde_json::json!({"records": {"fields": fields, "list": rows}, "worth": worth, "label": format!("<{{{label}}}>")})
                } else {
                    serde_json::json!({"records": {"fields": fields, "ranges": ranges}, "worth": worth, "label": format!("<{{{label}}}>")})
                };
                let file = serde_json::json!({
                    "format": 3, "id": "w", "title": "W", "description": "W.", "side": 4, "tiles": tiles,
                    "merges": [{"tiles": ["a", "b"], "when": [when], "makes": format!("({makes}, a.x)")},
                               {"tiles": ["a", "b"], "makes": format!("(a.x, {makes})")}],
                    "motion": "slide", "spawn": {"weights": {"(0, 1)": 1}}, "spawn_at": "anywhere",
                    "start": 2, "preview": false, "win": null, "score": "merges"
                });
                match load_one(&file.to_string()) {
                    Err(line) => prop_assert!(!line.contains('\n') && line.starts_with("my.json: "), "{}", line),
                    Ok(v) => {
                        let rules = crate::Rules::new(&v).unwrap();
                        let n = v.tiles.len() as u64;
                        let rows: Vec<Vec<u64>> = cells.chunks(4).map(|r| r.iter().map(|&c| c % (n + 1)).collect()).collect();
                        let board = rules.board_from_values(&rows).unwrap();
                        for dir in crate::Direction::ALL {
                            let _ = rules.slide_on(&board, dir, 0);
                        }
                        for r in 1..=n.min(50) {
                            prop_assert!(!v.tile_text(r).is_empty());
                        }
                        let json = v.to_json();
                        prop_assert_eq!(&Variant::from_json(json.as_object().unwrap()).unwrap(), &v);
                        loaded.set(loaded.get() + 1);
                    }
                }
                Ok(())
            })
            .unwrap();
        // Some load and play, not only refusals.
        assert!(loaded.get() > 0);
    }

    /// A random expression in a format-3 file loads or is refused in one line; what loads plays
    /// (every direction, any move number) without a panic.
    #[test]
    fn random_expressions_load_or_are_refused_and_play() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, TestRunner};
        let token = prop::sample::select(vec![
            "a",
            "b",
            "z",
            "t",
            "1",
            "2",
            "4",
            "0",
            "65535",
            "-",
            "+",
            "*",
            "/",
            "mod",
            "(",
            ")",
            "|",
            "=",
            "<",
            ">=",
            "!=",
            "and",
            "or",
            "not",
            "divides",
            "gcd(",
            "is_prime(",
            "next_prime(",
            "divisors(",
            ",",
            "if(",
            "pow(",
            "band(",
            "made",
            "9223372036854775807",
        ]);
        let text = || prop::collection::vec(token.clone(), 1..14).prop_map(|t| t.join(" "));
        let mut runner = TestRunner::new(Config {
            cases: 200,
            ..Config::default()
        });
        let board =
            prop::collection::vec(prop::sample::select(vec![0u64, 1, 2, 3, 4, 6, 9, 12]), 16);
        runner
            .run(&(text(), text(), text(), board, 0u64..10_000), |(when, makes, scores, cells, turn)| {
                let file = serde_json::json!({
                    "format": 3, "id": "w", "based_on": "1845",
                    "merges": [{"tiles": ["a", "b"], "makes": makes, "when": [when], "scores": scores, "any_order": true},
                               {"tiles": ["a", "b"], "makes": "a + b", "when": ["a = b"]}]
                });
                match load_one(&file.to_string()) {
                    Err(line) => prop_assert!(!line.contains('\n') && line.starts_with("my.json: "), "{}", line),
                    Ok(v) => {
                        let rules = crate::Rules::new(&v).unwrap();
                        let rows: Vec<Vec<u64>> = cells.chunks(4).map(<[u64]>::to_vec).collect();
                        let board = rules.board_from_values(&rows).unwrap();
                        for dir in crate::Direction::ALL {
                            let _ = rules.slide_on(&board, dir, turn);
                        }
                        // What it writes reads back to the same variant.
                        let json = v.to_json();
                        prop_assert_eq!(&Variant::from_json(json.as_object().unwrap()).unwrap(), &v);
                    }
                }
                Ok(())
            })
            .unwrap();
    }

    /// Loads one file of `text` over the built-ins: the variant, or the refusal as a line.
    fn load_one(text: &str) -> Result<Variant, String> {
        let (mut ok, refused) =
            resolve_all([("my.json".to_string(), Ok(text.to_string()))], builtins());
        match (ok.pop(), refused.first()) {
            (Some(l), None) => Ok(l.variant),
            (None, Some(r)) => Err(r.to_string()),
            other => panic!("{other:?}"),
        }
    }

    /// A refusal quotes a player's text bounded: a 500,000-character condition, field name, id
    /// or tile is a short line, its first characters and its length.
    #[test]
    fn a_refusal_quotes_at_most_a_few_dozen_characters() {
        let long = "9".repeat(500_000);
        let when = format!(
            r#"{{"format": 2, "id": "w", "based_on": "1762", "merges": [{{"tiles": ["a", "b"], "makes": "a + b", "when": ["a = {long}"]}}]}}"#
        );
        let key = format!(r#"{{"format": 1, "id": "w", "based_on": "2048", "x{long}": 1}}"#);
        let id = format!(r#"{{"format": 1, "id": "w{long}", "based_on": "2048"}}"#);
        let tile = format!(
            r#"{{"format": 1, "id": "w", "based_on": "2048", "spawn": {{"weights": {{"x{long}": 1}}}}}}"#
        );
        let mut labels: Vec<String> = (1..=57).map(|i| format!("t{i}")).collect();
        labels[56].clone_from(&long);
        let label =
            json!({"format": 2, "id": "w", "based_on": "2048", "labels": labels}).to_string();
        for text in [when, key, id, tile, label] {
            let line = load_one(&text).unwrap_err();
            assert!(
                line.len() < 200,
                "{} characters: {}",
                line.len(),
                &line[..300]
            );
            assert!(line.contains(&"9".repeat(30)), "{line}");
            assert!(
                line.contains(&format!("…\" ({} characters)", 500_001))
                    || line.contains("(500000 characters)")
                    || line.contains("(500001 characters)"),
                "{line}"
            );
        }
    }

    /// An id of more than 64 characters is refused in one line: a game's files are named by
    /// it, and from 239 characters the names are longer than a disk allows.
    #[test]
    fn an_id_longer_than_64_characters_is_refused() {
        let id = |n: usize| "a".repeat(n);
        let text =
            |id: &str| format!(r#"{{"format": 1, "id": "{id}", "based_on": "2048", "side": 5}}"#);
        assert_eq!(load_one(&text(&id(64))).unwrap().id, id(64));
        let line = load_one(&text(&id(65))).unwrap_err();
        assert!(
            line.starts_with("my.json: id: \"aaaa")
                && line.ends_with("\" (65 characters) is longer than 64 characters"),
            "{line}"
        );
        let line = load_one(&text(&id(100_000))).unwrap_err();
        assert!(line.len() < 200, "{line}");
        // No built-in comes near.
        assert!(
            builtins().iter().all(|b| b.id().len() <= 19),
            "a built-in id is longer than 19"
        );
    }

    /// The length bound is in characters: an id of 33 non-ASCII letters (66 bytes) is refused
    /// for its letters, not as longer than 64 characters.
    #[test]
    fn a_short_non_ascii_id_is_refused_for_its_letters() {
        let id = "é".repeat(33);
        assert_eq!((id.chars().count(), id.len()), (33, 66));
        let text = format!(r#"{{"format": 1, "id": "{id}", "based_on": "2048", "side": 5}}"#);
        let line = load_one(&text).unwrap_err();
        assert!(
            line.starts_with("my.json: id: \"ééé")
                && line.ends_with("is not lowercase letters, digits and '-'"),
            "{line}"
        );
    }

    /// A ladder reads its spawn keys as a range of integers does: `"02"` and `"+2"` are the
    /// tile 2; `"00"` is 0, which no ladder holds; a tile named twice is refused naming spawn.
    #[test]
    fn spawn_keys_read_alike_on_a_ladder_and_a_range() {
        let ladder = |keys: &str| {
            load_one(&format!(
                r#"{{"format": 1, "id": "w", "based_on": "2048", "spawn": {{"weights": {keys}}}}}"#
            ))
        };
        let range = |keys: &str| {
            load_one(&format!(
                r#"{{"format": 2, "id": "w", "based_on": "1762", "spawn": {{"weights": {keys}}}}}"#
            ))
        };
        let plain = ladder(r#"{"2": 9, "4": 1}"#).unwrap();
        for keys in [r#"{"02": 9, "4": 1}"#, r#"{"+2": 9, "004": 1}"#] {
            assert_eq!(ladder(keys).unwrap(), plain, "{keys}");
        }
        assert_eq!(
            range(r#"{"02": 3, "+1": 1}"#).unwrap(),
            range(r#"{"2": 3, "1": 1}"#).unwrap()
        );
        assert_eq!(
            ladder(r#"{"00": 1}"#).unwrap_err(),
            "my.json: spawn: 0 is not a tile of the ladder"
        );
        for twice in [
            ladder(r#"{"2": 1, "02": 1}"#),
            range(r#"{"1": 1, "01": 1}"#),
        ] {
            let line = twice.unwrap_err();
            assert!(line.starts_with("my.json: spawn: \""), "{line}");
            assert!(
                line.ends_with("names a tile named before (each tile once)"),
                "{line}"
            );
        }
        assert_eq!(
            ladder(r#"{"two": 1}"#).unwrap_err(),
            r#"my.json: spawn: weights: "two" is not a tile value"#
        );
        assert_eq!(
            ladder(r#"{"99999999999999999999": 1}"#).unwrap_err(),
            r#"my.json: spawn: weights: "99999999999999999999" is out of range (a tile value is at most 18446744073709551615)"#
        );
    }

    /// A whole number too large for its field is said to be out of range, not "not a whole
    /// number".
    #[test]
    fn a_whole_number_too_large_is_out_of_range() {
        let big = "18446744073709551615";
        let weights = format!(
            r#"{{"format": 1, "id": "w", "based_on": "2048", "spawn": {{"weights": {{"2": {big}}}}}}}"#
        );
        assert_eq!(
            load_one(&weights).unwrap_err(),
            format!("my.json: spawn: weights: 2: {big} is out of range (at most 4294967295)")
        );
        let n_from = r#"{"format": 1, "id": "w", "based_on": "2048", "merges": [{"tiles": ["n", "n"], "makes": "n+1", "n_from": 18446744073709551616}]}"#;
        let line = load_one(n_from).unwrap_err();
        assert!(
            line.starts_with("my.json: merges: rule 1: n_from: ")
                && line.ends_with("is out of range (at most 4294967295)"),
            "{line}"
        );
        let on_moves = r#"{"format": 2, "id": "w", "based_on": "2048", "merges": [{"tiles": ["n", "n"], "makes": "n+1", "on_moves": [4294967296, 0]}]}"#;
        assert_eq!(
            load_one(on_moves).unwrap_err(),
            "my.json: merges: rule 1: on_moves: 4294967296 is out of range (at most 4294967295)"
        );
        let not_whole = r#"{"format": 1, "id": "w", "based_on": "2048", "merges": [{"tiles": ["n", "n"], "makes": "n+1", "n_from": 1.5}]}"#;
        assert_eq!(
            load_one(not_whole).unwrap_err(),
            "my.json: merges: rule 1: n_from: 1.5 is not a whole number"
        );
    }

    /// A position off the ladder names the part of the rule it is in.
    #[test]
    fn a_position_off_the_ladder_names_tiles_makes_or_leaves() {
        for (field, rule) in [
            ("tiles", r#"{"tiles": [99, 99], "makes": 1}"#),
            ("makes", r#"{"tiles": [1, 1], "makes": 99}"#),
        ] {
            let text =
                format!(r#"{{"format": 1, "id": "w", "based_on": "2048", "merges": [{rule}]}}"#);
            assert_eq!(
                load_one(&text).unwrap_err(),
                format!(
                    "my.json: merges: rule 1: {field}: position 99 is off the ladder (1 to 57)"
                )
            );
        }
    }

    #[test]
    fn ids_that_look_like_options_are_refused() {
        let dir = std::env::temp_dir().join(format!("tilebox-dash-ids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for id in ["--version", "-h", "-1"] {
            let text = format!(r#"{{"format": 1, "id": "{id}", "based_on": "2048"}}"#);
            assert_eq!(
                refusal_of(&dir, "x.json", &text),
                format!(
                    "x.json: id: {id:?} starts with '-', so a command line would take it for an \
                     option"
                )
            );
        }
        // A '-' inside an id is fine.
        let text = r#"{"format": 1, "id": "my-2048", "based_on": "2048"}"#;
        std::fs::write(dir.join("ok.json"), text).unwrap();
        let (ok, refused) = load_dir(&dir, builtins());
        assert_eq!((ok.len(), refused.len()), (1, 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refusals_name_the_rule_and_its_field_in_words() {
        let dir = std::env::temp_dir().join(format!("tilebox-words-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let over = |field: &str, value: &str| {
            format!(r#"{{"format": 1, "id": "w", "based_on": "2048", "{field}": {value}}}"#)
        };
        let rule = r#"{"tiles": ["n", "n"], "makes": "n+1"}"#;
        for (field, value, expected) in [
            ("merges", "5", "merges: 5 is not a list of merge rules"),
            ("merges", "[1]", "merges: rule 1: 1 is not a rule"),
            (
                "merges",
                &format!(r#"[{rule}, {{"tiles": [true, "n"], "makes": "n+1"}}]"#),
                r#"merges: rule 2: tiles: true is not a ladder position (a number, "n" or "n+k")"#,
            ),
            (
                "merges",
                r#"[{"tiles": ["n"], "makes": "n+1"}]"#,
                "merges: rule 1: tiles: a list is not a list of 2 to 6 ladder positions (2 or 3 in format 1, 2 to 5 in format 2)",
            ),
            (
                "merges",
                r#"[{"tiles": ["n", "n"]}]"#,
                "merges: rule 1: makes: missing",
            ),
            (
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "m"}]"#,
                r#"merges: rule 1: makes: "m" is not a ladder position"#,
            ),
            (
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "if": 1}]"#,
                r#"merges: rule 1: "if" is not a field of a rule"#,
            ),
            (
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "n_every": [2]}]"#,
                "merges: rule 1: n_every: a list is not [m, r]",
            ),
            (
                "merges",
                r#"[{"tiles": ["n", "n"], "makes": "n+1", "any_order": "yes"}]"#,
                r#"merges: rule 1: any_order: "yes" is not true or false"#,
            ),
            (
                "spawn",
                "5",
                r#"spawn: 5 is not {"weights": {...}} or {"bag": {...}}"#,
            ),
            (
                "spawn",
                r#"{"chances": {}}"#,
                r#"spawn: "chances" is not a field of spawn"#,
            ),
            (
                "spawn",
                r#"{"weights": [2, 4]}"#,
                "spawn: weights: a list is not an object",
            ),
            (
                "spawn",
                r#"{"weights": {"two": 9}}"#,
                r#"spawn: weights: "two" is not a tile value"#,
            ),
            (
                "spawn",
                r#"{"bag": {"2": -1}}"#,
                "spawn: bag: 2: -1 is not a whole number",
            ),
            (
                "spawn",
                r#"{"bag": {"2": 1}, "bonus": {"chance": [1, 2]}}"#,
                "spawn: bonus: top_at_least: missing",
            ),
            (
                "spawn",
                r#"{"bag": {"2": 1}, "bonus": {"chance": 1, "top_at_least": 4, "lowest": 2, "top_divided_by": 2}}"#,
                "spawn: bonus: chance: 1 is not [numerator, denominator]",
            ),
        ] {
            let line = refusal_of(&dir, "w.json", &over(field, value));
            assert!(
                line.starts_with(&format!("w.json: {expected}")),
                "{field} = {value}: {line}"
            );
            for serde_words in [
                "untagged",
                "expected struct",
                "did not match",
                "invalid type",
            ] {
                assert!(!line.contains(serde_words), "{line}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_in_the_folder_is_refused_without_blocking_and_a_device_is_read_within_the_bound()
     {
        let dir = std::env::temp_dir().join(format!("tilebox-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("x.json"))
            .status()
            .unwrap();
        assert!(made.success());
        let (ok, refused) = load_dir(&dir, builtins());
        assert!(ok.is_empty());
        assert_eq!(
            refused[0].to_string(),
            "x.json: it is a named pipe (FIFO), not a regular file, so it is not opened"
        );
        // Named on a command line, /dev/zero is read no further than the bound.
        assert_eq!(
            check_file(Path::new("/dev/zero"), &builtin_variants())
                .unwrap_err()
                .to_string(),
            format!("zero: larger than {MAX_FILE_BYTES} bytes")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A built-in added after a player wrote a file with its id (here `3125`, standing for
    /// any built-in not among the first ones) leaves the player's game under a new id, with the
    /// file's rules, and the player's files based on that id still mean the player's file. The
    /// first built-ins' ids are refused as they always were.
    #[test]
    fn a_later_builtin_that_takes_a_players_id_leaves_the_players_game_under_a_new_id() {
        let mut taken = builtin_variants();
        let mut later = crate::builtin_variant("2048").unwrap();
        later.id = "3125".into();
        later.title = "3125".into();
        taken.push(later);
        let file = |name: &str, text: &str| (name.to_string(), Ok(text.to_string()));
        let (ok, refused) = resolve_all(
            [
                file(
                    "a.json",
                    r#"{"format": 1, "id": "3125", "title": "Mine", "based_on": "2584", "side": 5}"#,
                ),
                file(
                    "b.json",
                    r#"{"format": 1, "id": "3125-own", "based_on": "2048"}"#,
                ),
                file(
                    "c.json",
                    r#"{"format": 1, "id": "mine-6", "based_on": "3125", "side": 6}"#,
                ),
                file(
                    "d.json",
                    r#"{"format": 1, "id": "threes", "based_on": "2048"}"#,
                ),
            ],
            taken.as_slice(),
        );
        let lines: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(lines, [r#"d.json: id: "threes" is taken"#]);
        let got: Vec<(&str, &str, &str)> = ok
            .iter()
            .map(|l| (l.file.as_str(), l.id.as_str(), l.root.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                // `3125-own` is another file's: the next free id.
                ("a.json", "3125-own-2", "2584"),
                ("b.json", "3125-own", "2048"),
                ("c.json", "mine-6", "2584"),
            ]
        );
        // The file's game is as the file says: its own id and rules.
        let fib = crate::builtin_variant("2584").unwrap();
        assert_eq!(ok[0].variant.id, "3125");
        assert_eq!(
            (ok[0].variant.title.as_str(), ok[0].variant.side),
            ("Mine", 5)
        );
        assert_eq!(ok[0].variant.tiles, fib.tiles);
        // Based on the player's 3125, not the built-in one.
        assert_eq!((ok[2].variant.side, &ok[2].variant.tiles), (6, &fib.tiles));
        // The same files give the same ids.
        assert_eq!(
            renamed_id("3125", |id| ["3125-own", "3125-own-2"].contains(&id)),
            "3125-own-3"
        );
    }
}
