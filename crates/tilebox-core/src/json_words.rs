//! Why a JSON file was refused, in words that name the field at fault: "zoom: \"big\" is not a
//! whole number", not serde's "invalid type: string \"big\", expected u32 at line 1 column 36".
//! One reading of serde's errors for every file Tilebox reads (settings, saves, variants).

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Why `bytes` could not be read as a `T` (`error`, from reading them): the field at fault
/// named, when the file is an object and one field is at fault, and the problem in words.
pub fn refusal_words<T: DeserializeOwned>(bytes: &[u8], error: &serde_json::Error) -> String {
    let words = error_words(error);
    if !error.is_data() {
        return words;
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => match field_at_fault::<T>(map) {
            Some(field) => format!("{field}: {words}"),
            None => words,
        },
        _ => words,
    }
}

/// The field of `map` that keeps it from being read as a `T`: the first one without which it
/// is read, or without which it lacks only that field. None if the object, as read, is a `T`
/// (what was wrong was not a field's value: a field given twice).
fn field_at_fault<T: DeserializeOwned>(map: serde_json::Map<String, Value>) -> Option<String> {
    let keys: Vec<String> = map.keys().cloned().collect();
    let mut object = Value::Object(map);
    if T::deserialize(&object).is_ok() {
        return None;
    }
    for key in keys {
        let value = object.as_object_mut()?.remove(&key)?;
        let without = T::deserialize(&object);
        object.as_object_mut()?.insert(key.clone(), value);
        match without {
            Ok(_) => return Some(key),
            Err(e) if e.to_string().starts_with(&format!("missing field `{key}`")) => {
                return Some(key);
            }
            Err(_) => {}
        }
    }
    None
}

/// A serde_json error in words, without its line and column for a type or value that does not
/// fit (the field is named instead).
pub fn error_words(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match error.classify() {
        Category::Io => "it could not be read".to_string(),
        Category::Eof => "it is cut short (the JSON ends too soon)".to_string(),
        Category::Syntax => format!(
            "it is not valid JSON (at line {}, column {})",
            error.line(),
            error.column()
        ),
        Category::Data => message_words(&error.to_string()),
    }
}

/// serde's message of a value that does not fit, in words.
pub fn message_words(message: &str) -> String {
    // "… at line 1 column 36"
    let message = match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    };
    let split = |rest: &str| -> Option<(String, String)> {
        let (found, expected) = rest.rsplit_once(", expected ")?;
        Some((found_words(found), expected_words(expected)))
    };
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        && let Some((found, expected)) = split(rest)
    {
        return format!("{found} is not {expected}");
    }
    if let Some(rest) = message.strip_prefix("unknown variant ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!("{} is not {}", quoted(found), expected_words(expected));
    }
    if let Some(rest) = message.strip_prefix("invalid length ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        return format!("{found} items is not {}", expected_words(expected));
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("{} is missing", field.trim_matches('`'));
    }
    if let Some(field) = message.strip_prefix("duplicate field ") {
        return format!("{} is given twice", field.trim_matches('`'));
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let field = rest.split_once(", expected").map_or(rest, |(f, _)| f);
        return format!("{} is not a field Tilebox knows", field.trim_matches('`'));
    }
    message.replace('`', "\"")
}

/// What serde found (`string "big"`, `integer \`5\``, `map`), in words (`"big"`, `5`, `an
/// object`).
fn found_words(found: &str) -> String {
    for kind in [
        "string ",
        "integer ",
        "floating point ",
        "boolean ",
        "character ",
    ] {
        if let Some(value) = found.strip_prefix(kind) {
            return bounded(value.trim_matches('`'));
        }
    }
    match found {
        "map" => "an object".to_string(),
        "sequence" => "a list".to_string(),
        "unit" | "null" => "null".to_string(),
        other => bounded(&other.replace('`', "\"")),
    }
}

/// What serde expected (`u32`, `a boolean`, `struct Tally`, `` one of `slow`, `fast` ``), in
/// words.
fn expected_words(expected: &str) -> String {
    match expected {
        "u8" => format!("a whole number from 0 to {}", u8::MAX),
        "u16" => format!("a whole number from 0 to {}", u16::MAX),
        "u32" => format!("a whole number from 0 to {}", u32::MAX),
        "u64" | "u128" | "usize" => "a whole number from 0".to_string(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a sequence" => "a list".to_string(),
        "a map" => "an object".to_string(),
        e if e.starts_with("struct ") => "an object".to_string(),
        e if e.starts_with("one of ") || e.contains('`') => e.replace('`', "\""),
        e => e.to_string(),
    }
}

/// `` `warp` `` as `"warp"`, bounded as [`quote`] bounds it.
fn quoted(text: &str) -> String {
    quote(text.trim_matches('`'))
}

/// The most characters of a player's text a refusal quotes ([`quote`], [`bounded`]).
pub const QUOTE_CHARS: usize = 40;

/// Text a player gave, as a refusal quotes it: in double quotes, escaped as Rust escapes a
/// string (so a line break stays on the line), and bounded: past [`QUOTE_CHARS`] characters
/// its first ones, `…`, and its length, `"aaaa…" (500000 characters)`. The one way every
/// refusal of a variant, a save or a setting quotes what it refuses, so that a refusal stays a
/// line whatever the file holds.
pub fn quote(text: &str) -> String {
    match cut(text) {
        None => format!("{text:?}"),
        Some(head) => format!(
            "{}…\" ({} characters)",
            format!("{head:?}").trim_end_matches('"'),
            text.chars().count()
        ),
    }
}

/// Text to show as it is (a JSON value, a number), bounded as [`quote`] bounds it: past
/// [`QUOTE_CHARS`] characters, its first ones and `… (n characters)`.
pub fn bounded(text: &str) -> String {
    match cut(text) {
        None => text.to_string(),
        Some(head) => format!("{head}… ({} characters)", text.chars().count()),
    }
}

/// The first [`QUOTE_CHARS`] characters of `text`, if it has more.
fn cut(text: &str) -> Option<&str> {
    let (end, _) = text.char_indices().nth(QUOTE_CHARS)?;
    text.get(..end)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn a_quote_is_bounded_and_stays_on_one_line() {
        assert_eq!(quote("my-fib"), "\"my-fib\"");
        assert_eq!(quote("a\nb"), "\"a\\nb\"");
        let long = "é".repeat(500_000);
        let q = quote(&long);
        assert_eq!(
            q,
            format!("\"{}…\" (500000 characters)", "é".repeat(QUOTE_CHARS))
        );
        assert_eq!(
            quote(&"x".repeat(QUOTE_CHARS)),
            format!("{:?}", "x".repeat(QUOTE_CHARS))
        );
        assert_eq!(bounded("[1,2]"), "[1,2]");
        assert_eq!(
            bounded(&"9".repeat(100)),
            format!("{}… (100 characters)", "9".repeat(QUOTE_CHARS))
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Settings {
        version: u32,
        #[serde(default)]
        zoom: u32,
        #[serde(default)]
        speed: Speed,
        #[serde(default)]
        shown: bool,
    }

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Speed {
        #[default]
        Slow,
        Fast,
    }

    fn words(text: &str) -> String {
        let error = serde_json::from_str::<Settings>(text).unwrap_err();
        refusal_words::<Settings>(text.as_bytes(), &error)
    }

    #[test]
    fn a_field_that_does_not_fit_is_named_in_words() {
        assert_eq!(
            words(r#"{"version":1,"zoom":"big"}"#),
            r#"zoom: "big" is not a whole number from 0 to 4294967295"#
        );
        assert_eq!(
            words(r#"{"version":1,"speed":"warp"}"#),
            r#"speed: "warp" is not "slow" or "fast""#
        );
        assert_eq!(
            words(r#"{"version":1,"shown":3}"#),
            "shown: 3 is not true or false"
        );
        assert_eq!(words(r#"{"zoom":3}"#), "version is missing");
        assert_eq!(
            words(r#"{"version":1,"zoom":1,"zoom":2}"#),
            "zoom is given twice"
        );
        assert_eq!(
            words(r#"{"version":[1]}"#),
            "version: a list is not a whole number from 0 to 4294967295"
        );
        assert_eq!(words("3"), "3 is not an object");
        assert_eq!(
            words(r#"{"version":1,"#),
            "it is cut short (the JSON ends too soon)"
        );
        assert_eq!(
            words(r#"{"version":1 x"#),
            "it is not valid JSON (at line 1, column 14)"
        );
        for text in [
            r#"{"version":1,"zoom":"big"}"#,
            r#"{"version":1,"speed":"warp"}"#,
            r#"{"version":-1}"#,
        ] {
            let said = words(text);
            for serde in [
                "invalid",
                "expected",
                "line 1 column",
                "u32",
                "integer",
                "`",
            ] {
                assert!(!said.contains(serde), "{said}");
            }
        }
    }
}
