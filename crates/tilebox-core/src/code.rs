//! Game codes: a game as a short text a player can read aloud, copy and type, such as
//! `2048-5x5.7K3Q-Z9M2.X4P`; and the seed of each entry's daily game.
//!
//! A code is, separated by dots:
//! 1. the entry's id, as it is (`2048-5x5`; ids are lower-case letters, digits, `-` and `_`, so
//!    never a dot);
//! 2. the seed in Crockford's base 32 (digits and upper-case letters but I, L, O and U), most
//!    significant first, in groups of four joined by dashes;
//! 3. only when the game's parameters differ from the entry's preset: their JSON (as
//!    `serde_json` writes it, compact) in the same base 32, five bits a character, grouped
//!    likewise;
//! 4. three check characters over everything before them.
//!
//! Reading ignores case, white space and the dashes between characters of the seed, the
//! parameters and the check (not those of the id, which are part of it), and reads O as 0 and I
//! and L as 1, as Crockford's base 32 does.
//!
//! **The check.** The text before the check, lower-cased, with the seed's and parameters' own
//! characters only (their grouping dashes left out), is read as values: `0`–`9` are 1–10, `a`–`z`
//! 11–36, `-` 37, `_` 38 and `.` 39. With `v₁ … vₙ` those values, the check is the number
//! `(Σ vᵢ mod 41) · 797 + (Σ i·vᵢ mod 797)`, below 32 768, written as three characters of the base
//! 32. Since 41 and 797 are primes above every difference of two values, a single character
//! changed, left out or added changes the first sum, and two neighbours swapped change the
//! second: a code with one such mistake is refused ([`CodeError::Mistyped`]) rather than read as
//! another game. A mistake that moves a dot makes the parts the wrong shape, or changes the text
//! before the check in the same ways (the check characters are a part of their own, of a fixed
//! length), with one exception: in a code with parameters short enough to read as a seed, a
//! mistake that turns the dot after the id into a character of an id joins the seed to the id,
//! so that its grouping dashes become the id's own and count in the check. For a seed of k
//! groups, one character in 41 can then pass the first sum (the one worth 39 − 37·(k − 1) mod
//! 41), and it passes the second once in 797 times; the code then names another game (`2048.
//! 1234-…` read as the game `204891234-…`), which a registry refuses as unknown unless it has a
//! game of exactly that id, without parameters. The tests at the end of this file make every
//! single mistake in random codes: each is refused, reads the same game, or names another game
//! in that way.
//!
//! The code's format and [`daily_seed`] are promises to players (a code shared today starts the
//! same game in every later release): neither may change.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use crate::date::Date;
use crate::{DynSession, Entry, ParamsError, Registry, rules_without};

/// A game as a code: the entry, the seed, and the parameters where they differ from the
/// entry's preset. `Display` writes the code and `FromStr` reads it back, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCode {
    /// The id of the entry (a combination's id included, see [`Registry::combinations`]).
    pub entry: String,
    /// The seed the game starts from.
    pub seed: u64,
    /// The game's parameters as JSON, when they are not the entry's preset.
    pub params: Option<Value>,
}

/// The part of a code a [`CodeError::Malformed`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodePart {
    /// The whole: not the parts a code has.
    Whole,
    /// The entry's id.
    Id,
    /// The seed.
    Seed,
    /// The parameters.
    Params,
    /// The check characters.
    Check,
}

/// Why a text is not the code of a game this registry can start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Nothing was given.
    #[error("the code is empty")]
    Empty,
    /// The text is not in a code's form: `why` names the part and says what is wrong with it.
    #[error("not a game code: {why}")]
    Malformed {
        /// The part.
        part: CodePart,
        /// What is wrong, in a sentence starting with the part's name.
        why: String,
    },
    /// The check characters do not match the rest: a character was mistyped, left out, added
    /// or swapped with its neighbour.
    #[error("mistyped? the check characters do not match")]
    Mistyped,
    /// The code is well formed, but of an entry this registry does not have.
    #[error("the code is of a game this Tilebox does not have: '{0}'")]
    UnknownGame(String),
    /// The code's parameters are not ones its game takes.
    #[error("the code's game cannot start: {0}")]
    Params(ParamsError),
}

/// Crockford's base 32: digits, then the letters but I, L, O and U.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// How many check characters end a code.
const CHECK_LEN: usize = 3;

/// The moduli of the check: primes above every difference of two values, and their product
/// below 32³.
const SUM_MODULUS: u64 = 41;
const WEIGHTED_MODULUS: u64 = 797;

/// Characters of the base 32 between two dashes, as written.
const GROUP: usize = 4;

/// The daily game's seeds are below 2^40: eight characters at most.
pub const DAILY_SEED_BITS: u32 = 40;

impl GameCode {
    /// The code of `session`'s game: its entry, its seed, and its parameters when they are not
    /// the entry's preset, as short as they read back ([`GameCode::difference`]).
    pub fn of(session: &dyn DynSession) -> GameCode {
        Self::of_game(session.entry(), &session.params_json(), session.seed())
    }

    /// The code of the game of `entry` with `params` from `seed` ([`GameCode::of`]).
    fn of_game(entry: &Entry, params: &Value, seed: u64) -> GameCode {
        let preset = entry.params_json();
        GameCode {
            entry: entry.id().to_string(),
            seed,
            params: (*params != preset).then(|| Self::difference(entry, &preset, params, &[])),
        }
    }

    /// What a code carries of `params`, a game of `entry` (whose preset is `preset`): only the
    /// fields that differ from the preset's, where the entry reads them back as `params` (the
    /// sliding kind lays a game's params over its entry's variant: 2048 on a 5×5 board is
    /// `{"side":5}`); else `params` whole, as codes always carried them. Of the fields `names`
    /// (given for a player's own entry, whose code names the built-in it is based on: see
    /// [`Registry::code_of`]) it keeps only those without which the code would not read back
    /// as the same rules ([`rules_without`]): a sliding variant's `format` where its rules need
    /// format 2, never its id or title. Reading a code does not change
    /// ([`Entry::with_params`]), so the codes of every release read the same.
    fn difference(entry: &Entry, preset: &Value, params: &Value, names: &[&str]) -> Value {
        let rules = rules_without(params, names);
        let reads_back = |code: &Value| {
            entry
                .with_params(code, 0)
                .is_ok_and(|game| rules_without(&game.params_json(), names) == rules)
        };
        // The names the code can do without, left out one by one.
        let unnamed = |mut code: Value| {
            for name in names {
                let mut without = code.clone();
                if let Value::Object(fields) = &mut without
                    && fields.remove(*name).is_some()
                    && reads_back(&without)
                {
                    code = without;
                }
            }
            code
        };
        if let (Value::Object(preset), Value::Object(all)) = (preset, params) {
            let changed: serde_json::Map<String, Value> = all
                .iter()
                .filter(|(field, value)| preset.get(*field) != Some(*value))
                .map(|(field, value)| (field.clone(), value.clone()))
                .collect();
            let changed = Value::Object(changed);
            if reads_back(&changed) {
                return unnamed(changed);
            }
        }
        unnamed(params.clone())
    }

    /// A new game of this code on `entry`, which must be the code's entry: with the code's
    /// parameters when it has some ([`Entry::with_params`]), else the entry's preset.
    pub fn start(&self, entry: &Entry) -> Result<Box<dyn DynSession>, CodeError> {
        if entry.id() != self.entry {
            return Err(CodeError::UnknownGame(self.entry.clone()));
        }
        self.start_on(entry)
    }

    /// A new game of this code on `entry`, whatever its id.
    fn start_on(&self, entry: &Entry) -> Result<Box<dyn DynSession>, CodeError> {
        match &self.params {
            None => entry.new_session(self.seed),
            Some(params) => entry.with_params(params, self.seed),
        }
        .map_err(CodeError::Params)
    }

    /// The text before the check characters, without grouping: the id, the seed's characters
    /// and the parameters' characters, separated by dots.
    fn payload(&self) -> String {
        let mut text = format!("{}.{}", self.entry, seed_symbols(self.seed));
        if let Some(params) = &self.params {
            text.push('.');
            text.push_str(&bytes_symbols(params.to_string().as_bytes()));
        }
        text
    }
}

impl fmt::Display for GameCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.entry, grouped(&seed_symbols(self.seed)))?;
        if let Some(params) = &self.params {
            write!(
                f,
                ".{}",
                grouped(&bytes_symbols(params.to_string().as_bytes()))
            )?;
        }
        let check = check_of(self.payload().as_bytes());
        write!(f, ".{}", fixed_symbols(check, CHECK_LEN))
    }
}

impl FromStr for GameCode {
    type Err = CodeError;

    fn from_str(text: &str) -> Result<GameCode, CodeError> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(CodeError::Empty);
        }
        let parts: Vec<&str> = compact.split('.').collect();
        let (id, seed, params, check) = match parts.as_slice() {
            [id, seed, check] => (*id, *seed, None, *check),
            [id, seed, params, check] => (*id, *seed, Some(*params), *check),
            _ => {
                return Err(malformed(
                    CodePart::Whole,
                    format!(
                        "a code is the game's id, its seed and check characters (and its \
                         parameters, before the check, when they are not the game's own), \
                         separated by dots; this has {} part{}",
                        parts.len(),
                        if parts.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
        };
        let id = read_id(id)?;
        let seed_digits = read_symbols(seed, CodePart::Seed)?;
        let param_digits = params
            .map(|p| read_symbols(p, CodePart::Params))
            .transpose()?;
        let check_digits = read_symbols(check, CodePart::Check)?;
        if check_digits.len() != CHECK_LEN {
            return Err(malformed(
                CodePart::Check,
                format!(
                    "the check characters are {CHECK_LEN}, not {}",
                    check_digits.len()
                ),
            ));
        }
        let mut payload = format!("{id}.{}", symbols_text(&seed_digits));
        if let Some(digits) = &param_digits {
            payload.push('.');
            payload.push_str(&symbols_text(digits));
        }
        let check = check_digits
            .iter()
            .fold(0u64, |n, &d| n * 32 + u64::from(d));
        if check != check_of(payload.as_bytes()) {
            return Err(CodeError::Mistyped);
        }
        let seed = seed_digits
            .iter()
            .try_fold(0u64, |n, &d| n.checked_mul(32)?.checked_add(u64::from(d)))
            .ok_or_else(|| malformed(CodePart::Seed, "the seed is too large".into()))?;
        let params = param_digits.map(|d| read_params(&d)).transpose()?;
        Ok(GameCode {
            entry: id,
            seed,
            params,
        })
    }
}

impl Registry {
    /// A new game of `code`: its entry (or combination, or the entry its game was renamed to,
    /// see [`Registry::entry_or_combination`]) from its seed, with its parameters when it has
    /// some. A code with parameters that are exactly the rules of a player's own entry based
    /// on the entry it names ([`Registry::set_code_base`]) starts a game of that entry: its
    /// own code ([`Registry::code_of`]) lands where it was made.
    pub fn start_code(&self, code: &GameCode) -> Result<Box<dyn DynSession>, CodeError> {
        let entry = self
            .entry_or_combination(&code.entry)
            .ok_or_else(|| CodeError::UnknownGame(code.entry.clone()))?;
        let game = code.start_on(&entry)?;
        if code.params.is_some() {
            let rules = entry.rules_json(&game.params_json());
            let own = self
                .based_on_in_codes(entry.id())
                .find(|own| own.rules_json(&own.params_json()) == rules);
            if let Some(own) = own {
                return own.new_session(code.seed).map_err(CodeError::Params);
            }
        }
        Ok(game)
    }

    /// The code of `session`'s game ([`GameCode::of`]); but a game of a player's own entry,
    /// which another Tilebox may not have, is written as a game of the entry its codes name
    /// ([`Registry::set_code_base`]: the built-in it is based on) with the rules where they
    /// differ from that entry's, its names ([`Entry::name_fields`]) left out, so that the code
    /// plays anywhere. Codes of other games are as they always were.
    pub fn code_of(&self, session: &dyn DynSession) -> GameCode {
        self.code_of_game(session.entry(), &session.params_json(), session.seed())
    }

    /// The code of the daily game of `entry` on `date`: its game from [`daily_seed`] of the
    /// entry's own id (a player's own entry's too, so that a daily game already played stays
    /// that day's), written as [`Registry::code_of`] writes every code, so that it plays the
    /// same game where the entry is not.
    pub fn daily_code(&self, entry: &Entry, date: Date) -> GameCode {
        self.code_of_game(entry, &entry.params_json(), daily_seed(entry.id(), date))
    }

    /// The code of the game of `entry` with `params` from `seed` ([`Registry::code_of`]).
    fn code_of_game(&self, entry: &Entry, params: &Value, seed: u64) -> GameCode {
        let Some(base) = self.code_base(entry.id()) else {
            return GameCode::of_game(entry, params, seed);
        };
        let preset = base.params_json();
        let changed = GameCode::difference(base, &preset, params, base.name_fields());
        let same = base.rules_json(&preset) == base.rules_json(&changed)
            || changed.as_object().is_some_and(serde_json::Map::is_empty);
        GameCode {
            entry: base.id().to_string(),
            seed,
            params: (!same).then_some(changed),
        }
    }
}

/// The seed of the daily game of entry `entry_id` on `date`, the same for every player: a
/// fixed hash of the text `tilebox daily <date> <entry id>` (FNV-1a, 64 bits), spread by
/// SplitMix64's finaliser and cut to its top [`DAILY_SEED_BITS`] bits, so that a daily code
/// stays short. Written out here, and pinned by a test: it must never change.
pub fn daily_seed(entry_id: &str, date: Date) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("tilebox daily {date} {entry_id}").bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = hash.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    z >> (64 - DAILY_SEED_BITS)
}

fn malformed(part: CodePart, why: String) -> CodeError {
    CodeError::Malformed { part, why }
}

/// The value of a character of the checked text (lower-cased), 1 to 39; 0 for any other.
fn check_value(byte: u8) -> u64 {
    match byte {
        b'0'..=b'9' => u64::from(byte - b'0') + 1,
        b'a'..=b'z' => u64::from(byte - b'a') + 11,
        b'A'..=b'Z' => u64::from(byte - b'A') + 11,
        b'-' => 37,
        b'_' => 38,
        b'.' => 39,
        _ => 0,
    }
}

/// The check of `payload` (see the module's documentation), below 41 · 797.
fn check_of(payload: &[u8]) -> u64 {
    let (mut sum, mut weighted) = (0u64, 0u64);
    for (i, &byte) in payload.iter().enumerate() {
        let value = check_value(byte);
        sum = (sum + value) % SUM_MODULUS;
        let weight = (i as u64 + 1) % WEIGHTED_MODULUS;
        weighted = (weighted + weight * value) % WEIGHTED_MODULUS;
    }
    sum * WEIGHTED_MODULUS + weighted
}

/// The characters of the base 32 for these digit values (each below 32).
fn symbols_text(digits: &[u8]) -> String {
    digits
        .iter()
        .map(|&d| char::from(ALPHABET[usize::from(d & 31)]))
        .collect()
}

/// `seed` in the base 32, most significant first, without leading zeros ("0" for 0).
fn seed_symbols(seed: u64) -> String {
    let mut digits = Vec::new();
    let mut rest = seed;
    loop {
        digits.push((rest % 32) as u8);
        rest /= 32;
        if rest == 0 {
            break;
        }
    }
    digits.reverse();
    symbols_text(&digits)
}

/// `n` in exactly `len` characters of the base 32, leading zeros kept.
fn fixed_symbols(n: u64, len: usize) -> String {
    let digits: Vec<u8> = (0..len)
        .rev()
        .map(|i| ((n >> (5 * i)) % 32) as u8)
        .collect();
    symbols_text(&digits)
}

/// `bytes` in the base 32, five bits a character, the last one padded with zero bits.
fn bytes_symbols(bytes: &[u8]) -> String {
    let mut digits = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            digits.push(((buffer >> bits) & 31) as u8);
        }
        buffer &= (1 << bits) - 1;
    }
    if bits > 0 {
        digits.push(((buffer << (5 - bits)) & 31) as u8);
    }
    symbols_text(&digits)
}

/// The bytes `digits` (five bits each) spell, if they are what [`bytes_symbols`] writes: no
/// whole character of padding, and padding bits of zero.
fn symbols_bytes(digits: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &digit in digits {
        buffer = (buffer << 5) | u32::from(digit);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            bytes.push(((buffer >> bits) & 0xff) as u8);
        }
        buffer &= (1 << bits) - 1;
    }
    (bits < 5 && buffer == 0).then_some(bytes)
}

/// Groups of four characters joined by dashes.
fn grouped(symbols: &str) -> String {
    symbols
        .as_bytes()
        .chunks(GROUP)
        .map(|chunk| String::from_utf8_lossy(chunk).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

/// The id part: lower-cased, of lower-case letters, digits, `-` and `_`.
fn read_id(text: &str) -> Result<String, CodeError> {
    if text.is_empty() {
        return Err(malformed(
            CodePart::Id,
            "the game's id is missing before the first dot".into(),
        ));
    }
    let id = text.to_ascii_lowercase();
    if let Some(c) = id
        .chars()
        .find(|&c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'))
    {
        return Err(malformed(
            CodePart::Id,
            format!(
                "the game's id '{}' has '{}', which no game's id has",
                text.escape_debug(),
                c.escape_debug()
            ),
        ));
    }
    Ok(id)
}

/// The digit values of a part in the base 32: dashes left out, either case, O read as 0 and
/// I and L as 1.
fn read_symbols(text: &str, part: CodePart) -> Result<Vec<u8>, CodeError> {
    let name = match part {
        CodePart::Seed => "the seed",
        CodePart::Params => "the parameters",
        _ => "the check characters",
    };
    let mut digits = Vec::new();
    for c in text.chars().filter(|&c| c != '-') {
        let upper = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        };
        let digit = ALPHABET
            .iter()
            .position(|&a| char::from(a) == upper)
            .ok_or_else(|| {
                malformed(
                    part,
                    format!(
                        "{name} has '{}', which is not a code character (codes use digits \
                         and letters but U)",
                        c.escape_debug()
                    ),
                )
            })?;
        digits.push(digit as u8);
    }
    if digits.is_empty() {
        return Err(malformed(part, format!("{name} is missing")));
    }
    Ok(digits)
}

/// The parameters' JSON from their digits.
fn read_params(digits: &[u8]) -> Result<Value, CodeError> {
    let bad = || {
        malformed(
            CodePart::Params,
            "the parameters are not a game's parameters".into(),
        )
    };
    let bytes = symbols_bytes(digits).ok_or_else(bad)?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    serde_json::from_str(&text).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tests::Counter;
    use proptest::prelude::*;
    use serde_json::json;

    fn code(entry: &str, seed: u64, params: Option<Value>) -> GameCode {
        GameCode {
            entry: entry.into(),
            seed,
            params,
        }
    }

    fn date(text: &str) -> Date {
        text.parse().unwrap()
    }

    #[test]
    fn a_code_is_the_id_the_seed_in_groups_and_three_check_characters() {
        let text = code("2048-5x5", 0x1234_5678_9abc, None).to_string();
        let parts: Vec<&str> = text.split('.').collect();
        assert_eq!(parts.len(), 3, "{text}");
        assert_eq!(parts[0], "2048-5x5");
        // 0x1234_5678_9abc is 45 bits long: nine characters, in groups of four.
        assert_eq!(parts[1].len(), 11, "{text}");
        assert_eq!(parts[1].matches('-').count(), 2, "{text}");
        assert_eq!(parts[2].len(), CHECK_LEN, "{text}");
        // The seed's characters are the number in base 32.
        let value = parts[1].chars().filter(|&c| c != '-').fold(0u64, |n, c| {
            n * 32 + ALPHABET.iter().position(|&a| char::from(a) == c).unwrap() as u64
        });
        assert_eq!(value, 0x1234_5678_9abc);
        assert_eq!(
            text.parse::<GameCode>(),
            Ok(code("2048-5x5", 0x1234_5678_9abc, None))
        );
    }

    #[test]
    fn seeds_from_zero_to_the_largest_read_back() {
        for seed in [0, 1, 31, 32, 1 << 40, u64::MAX - 1, u64::MAX] {
            let game = code("strike9-12-low_total-digits", seed, None);
            assert_eq!(game.to_string().parse::<GameCode>(), Ok(game.clone()));
        }
        assert!(code("x", 0, None).to_string().starts_with("x.0."));
    }

    #[test]
    fn parameters_are_written_only_when_given_and_read_back() {
        let plain = code("strike9", 3, None).to_string();
        let with = code("strike9", 3, Some(json!({"tiles": 12, "score": "golf"}))).to_string();
        assert_eq!(plain.split('.').count(), 3);
        assert_eq!(with.split('.').count(), 4);
        assert_eq!(
            with.parse::<GameCode>().unwrap().params,
            Some(json!({"tiles": 12, "score": "golf"}))
        );
    }

    #[test]
    fn reading_ignores_case_spaces_and_extra_dashes_and_reads_o_i_l_as_digits() {
        let game = code("2048", 32 * 32 + 1, None);
        let text = game.to_string();
        let loose = format!("  {}  ", text.to_lowercase().replace('.', " . "));
        assert_eq!(loose.parse::<GameCode>(), Ok(game.clone()));
        // Seed 1·32² + 0·32 + 1 is written "101"; typed with letters for the digits.
        let (id, rest) = text.split_once('.').unwrap();
        let (seed, check) = rest.split_once('.').unwrap();
        assert_eq!(seed, "101");
        for typed in ["lOi", "IoL", "1-0-1", "-1--01-"] {
            let variant = format!("{id}.{typed}.{check}");
            assert_eq!(variant.parse::<GameCode>(), Ok(game.clone()), "{variant}");
        }
        let dashed_check = format!("{id}.{seed}.{}-{}", &check[..1], &check[1..]);
        assert_eq!(dashed_check.parse::<GameCode>(), Ok(game));
    }

    #[test]
    fn bad_codes_say_what_is_wrong() {
        let good = code("2048", 77, None).to_string();
        assert_eq!("".parse::<GameCode>(), Err(CodeError::Empty));
        assert_eq!("  \n".parse::<GameCode>(), Err(CodeError::Empty));
        let part = |text: &str| match text.parse::<GameCode>() {
            Err(CodeError::Malformed { part, why }) => {
                assert!(!why.is_empty());
                part
            }
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(part("2048"), CodePart::Whole);
        assert_eq!(part("a.b.c.d.e"), CodePart::Whole);
        assert_eq!(part(".1.ABC"), CodePart::Id);
        assert_eq!(part("20!8.1.ABC"), CodePart::Id);
        assert_eq!(part("2048.U1.ABC"), CodePart::Seed);
        assert_eq!(part("2048..ABC"), CodePart::Seed);
        assert_eq!(part("2048.1.*.ABC"), CodePart::Params);
        assert_eq!(part("2048.1.AB"), CodePart::Check);
        assert_eq!(part("2048.1.ABCD"), CodePart::Check);
        let message = "2048.U1.ABC".parse::<GameCode>().unwrap_err().to_string();
        assert!(message.contains("the seed has 'U'"), "{message}");
        // The right shape with the wrong check.
        let (body, check) = good.rsplit_once('.').unwrap();
        let other = if check.starts_with('0') { "1" } else { "0" };
        let wrong = format!("{body}.{other}{}", &check[1..]);
        let err = wrong.parse::<GameCode>().unwrap_err();
        assert_eq!(err, CodeError::Mistyped);
        assert_eq!(
            err.to_string(),
            "mistyped? the check characters do not match"
        );
    }

    #[test]
    fn a_seed_beyond_64_bits_or_parameters_that_are_not_json_are_refused_even_when_checked() {
        // Fourteen characters of Z: too large for 64 bits, with a right check.
        let payload = format!("2048.{}", "Z".repeat(14));
        let text = format!(
            "{payload}.{}",
            fixed_symbols(check_of(payload.as_bytes()), 3)
        );
        let err = text.parse::<GameCode>().unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
        // "{" alone is not JSON.
        let payload = format!("2048.1.{}", bytes_symbols(b"{"));
        let text = format!(
            "{payload}.{}",
            fixed_symbols(check_of(payload.as_bytes()), 3)
        );
        assert!(matches!(
            text.parse::<GameCode>(),
            Err(CodeError::Malformed {
                part: CodePart::Params,
                ..
            })
        ));
    }

    #[test]
    fn bytes_and_base32_round_trip_and_only_the_written_form_is_read() {
        for bytes in [&b""[..], b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar"] {
            let text = bytes_symbols(bytes);
            let digits = read_symbols(&format!("{text}0"), CodePart::Params).unwrap();
            let digits = &digits[..digits.len() - 1];
            assert_eq!(symbols_bytes(digits).as_deref(), Some(bytes), "{text}");
        }
        // RFC 4648's vector, in Crockford's alphabet: "foobar" is CSQPYRK1E8.
        assert_eq!(bytes_symbols(b"foobar"), "CSQPYRK1E8");
        // A character of padding more, or padding bits that are not zero, is not written.
        assert_eq!(symbols_bytes(&[12, 0]), Some(vec![0x60]));
        assert_eq!(symbols_bytes(&[12, 0, 0]), None);
        assert_eq!(symbols_bytes(&[12, 1]), None);
    }

    #[test]
    fn a_dot_after_the_id_typed_as_a_character_may_join_the_seed_to_the_id() {
        // Found by the tests below: the one kind of single mistake the check lets through.
        let game = code("-a_0_a", 15_359_195_225_388_338_517, Some(json!(40443)));
        let text = game.to_string();
        assert_eq!(text, "-a_0_a.DA9P-JNSA-JBKA-N.6GR3-8D1K.CPH");
        let read: GameCode = text.replacen('.', "9", 1).parse().unwrap();
        assert_eq!(read.entry, "-a_0_a9da9p-jnsa-jbka-n");
        assert!(same_or_joined(&read, &game));
        // Another game: a registry without that id refuses it.
        assert!(matches!(
            registry().start_code(&read),
            Err(CodeError::UnknownGame(_))
        ));
    }

    #[test]
    fn the_daily_seed_is_fixed_forever() {
        // Computed once by this function (and by a separate script, which agreed) and then
        // frozen, as the golden text files are: these are a promise to players (a daily code of a date starts the same game in every
        // release). If this test fails, the function changed: change it back.
        let pinned = [
            ("2048", "2026-11-23", 370_200_878_588),
            ("2048", "2026-11-24", 673_201_690_700),
            ("strike9", "2026-11-23", 482_784_770_899),
            ("2048-5x5", "2000-02-29", 686_202_995_028),
        ];
        for (entry, day, seed) in pinned {
            assert_eq!(daily_seed(entry, date(day)), seed, "{entry} {day}");
        }
    }

    #[test]
    fn codes_are_written_as_they_were_first_written() {
        // Computed once (by a separate script following the module's documentation, which
        // agreed with this code) and then frozen, like the daily seeds above: codes that
        // players shared must keep reading as the same games.
        let pinned = [
            (code("2048", 370_200_878_588, None), "2048.ARRV-27FW.8Q9"),
            (
                code("strike9-12-low_total-digits", 0, None),
                "strike9-12-low_total-digits.0.CY9",
            ),
            (
                code("strike9", 3, Some(json!({"tiles": 12}))),
                "strike9.3.FCH7-8TBC-CNSJ-4EHH-69YG.R9K",
            ),
        ];
        for (game, text) in pinned {
            assert_eq!(game.to_string(), text);
            assert_eq!(text.parse::<GameCode>(), Ok(game));
        }
    }

    #[test]
    fn daily_seeds_differ_by_date_and_entry_and_stay_below_2_to_the_40() {
        let mut seeds = Vec::new();
        let first = date("2026-01-01");
        for entry in ["2048", "2048-5x5", "threes", "strike9"] {
            for day in 0..366 {
                seeds.push(daily_seed(entry, Date::of_days(first.days() + day)));
            }
        }
        assert!(seeds.iter().all(|&s| s < 1 << DAILY_SEED_BITS));
        let count = seeds.len();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), count, "two days or entries share a seed");
        let registry = registry();
        let daily = registry.daily_code(registry.get("counter").unwrap(), first);
        assert_eq!(daily.seed, daily_seed("counter", first));
        assert_eq!(daily.params, None);
        // At most eight characters of seed.
        let text = daily.to_string();
        assert!(
            text.split('.').nth(1).unwrap().replace('-', "").len() <= 8,
            "{text}"
        );
    }

    fn registry() -> Registry {
        Registry::new().with::<Counter>().preset::<Counter>(
            "counter-30",
            "Counter to 30",
            "Count further.",
            30,
        )
    }

    #[test]
    fn a_game_s_code_starts_the_same_game_with_its_params_only_when_they_differ() {
        let registry = registry();
        let entry = registry.get("counter-30").unwrap();
        let game = entry.new_session(9).unwrap();
        let plain = GameCode::of(&*game);
        assert_eq!(plain, code("counter-30", 9, None));
        let again = registry
            .start_code(&plain.to_string().parse().unwrap())
            .unwrap();
        assert_eq!(again.text(), game.text());
        assert_eq!(again.info().id, "counter-30");

        let other = registry
            .get("counter")
            .unwrap()
            .with_params(&json!(25), 4)
            .unwrap();
        let with = GameCode::of(&*other);
        assert_eq!(with.params, Some(json!(25)));
        let again = registry
            .start_code(&with.to_string().parse().unwrap())
            .unwrap();
        assert_eq!(again.params_json(), json!(25));
        assert_eq!(again.text(), other.text());
        assert_eq!(again.info().id, "counter");
    }

    #[test]
    fn a_code_of_a_players_own_entry_names_its_base_and_lands_back_in_it() {
        let mut registry = registry();
        let game = registry.get("counter-30").unwrap().new_session(9).unwrap();
        // Not a player's own: its code is as it always was.
        assert_eq!(registry.code_of(&*game), code("counter-30", 9, None));
        // A player's own entry, whose codes name the built-in "counter": its params go along.
        registry.set_code_base("counter-30", "counter");
        let shared = registry.code_of(&*game);
        assert_eq!(shared, code("counter", 9, Some(json!(30))));
        let read: GameCode = shared.to_string().parse().unwrap();
        // Where that entry is, the code plays in it.
        let again = registry.start_code(&read).unwrap();
        assert_eq!(again.info().id, "counter-30");
        assert_eq!(again.text(), game.text());
        // Elsewhere, the same game in the entry it names.
        let there = Registry::new().with::<Counter>().start_code(&read).unwrap();
        assert_eq!(there.info().id, "counter");
        assert_eq!(there.text(), game.text());
        // The old code of the entry still plays in it.
        let old = registry.start_code(&code("counter-30", 9, None)).unwrap();
        assert_eq!(old.info().id, "counter-30");
        // A base that is no entry, or an entry that is none, changes nothing.
        registry.set_code_base("counter-30", "nope");
        registry.set_code_base("nope", "counter");
        assert_eq!(registry.code_base("counter-30").unwrap().id(), "counter");
        assert!(registry.code_base("nope").is_none());
        // Its own params, when they are the base's, make a code of the base alone.
        let plain = registry.get("counter").unwrap().new_session(4).unwrap();
        let own = registry
            .get("counter-30")
            .unwrap()
            .with_params(&json!(0), 4)
            .unwrap();
        assert_eq!(plain.params_json(), own.params_json());
        assert_eq!(registry.code_of(&*own), code("counter", 4, None));
        // Its daily code: the seed of its own id (as it always was), written as its other
        // codes are, which plays the day's game of it where it is and the same game elsewhere.
        let day = Date::new(2026, 12, 2).unwrap();
        let daily = registry.daily_code(registry.get("counter-30").unwrap(), day);
        let seed = daily_seed("counter-30", day);
        assert_eq!(daily, code("counter", seed, Some(json!(30))));
        let read: GameCode = daily.to_string().parse().unwrap();
        let here = registry.start_code(&read).unwrap();
        assert_eq!((here.info().id.as_str(), here.seed()), ("counter-30", seed));
        // A built-in's daily code is its id and the day's seed, as it always was.
        let plain = registry.daily_code(registry.get("counter").unwrap(), day);
        assert_eq!(plain, code("counter", daily_seed("counter", day), None));
    }

    #[test]
    fn an_unknown_game_or_refused_params_are_errors_naming_them() {
        let registry = registry();
        let err = registry.start_code(&code("nope", 1, None)).err().unwrap();
        assert_eq!(err, CodeError::UnknownGame("nope".into()));
        assert!(err.to_string().contains("'nope'"), "{err}");
        let err = registry
            .start_code(&code("counter", 1, Some(json!("many"))))
            .err()
            .unwrap();
        assert!(matches!(err, CodeError::Params(_)), "{err}");
        let entry = registry.get("counter").unwrap();
        assert!(matches!(
            code("counter-30", 1, None).start(entry),
            Err(CodeError::UnknownGame(_))
        ));
    }

    /// Ids as the catalogue and a player's variants write them, with the letters Crockford
    /// reads as digits and dashes, so that mistakes moving a dot are tried on them too.
    fn id() -> impl Strategy<Value = String> {
        "[a-z0-9_-]{1,12}"
    }

    fn params() -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            Just(None),
            any::<u16>().prop_map(|n| Some(json!(n))),
            ("[a-z_]{1,8}", any::<u8>()).prop_map(|(k, v)| Some(json!({ k: v }))),
        ]
    }

    fn game_code() -> impl Strategy<Value = GameCode> {
        (id(), any::<u64>(), params()).prop_map(|(entry, seed, params)| GameCode {
            entry,
            seed,
            params,
        })
    }

    /// A character a player might type by mistake: any of the code's own, a space, and a few
    /// others.
    fn typed() -> impl Strategy<Value = char> {
        prop::sample::select(
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_. ,/"
                .chars()
                .collect::<Vec<_>>(),
        )
    }

    /// The single mistakes: a character changed, left out, added, or swapped with the next.
    #[derive(Debug, Clone)]
    enum Mistake {
        Change(usize, char),
        Drop(usize),
        Add(usize, char),
        Swap(usize),
    }

    fn mistake() -> impl Strategy<Value = Mistake> {
        prop_oneof![
            (any::<usize>(), typed()).prop_map(|(i, c)| Mistake::Change(i, c)),
            any::<usize>().prop_map(Mistake::Drop),
            (any::<usize>(), typed()).prop_map(|(i, c)| Mistake::Add(i, c)),
            any::<usize>().prop_map(Mistake::Swap),
        ]
    }

    fn make(text: &str, mistake: &Mistake) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        let n = chars.len();
        match *mistake {
            Mistake::Change(i, c) => chars[i % n] = c,
            Mistake::Drop(i) => {
                chars.remove(i % n);
            }
            Mistake::Add(i, c) => chars.insert(i % (n + 1), c),
            Mistake::Swap(i) => chars.swap(i % (n - 1), i % (n - 1) + 1),
        }
        chars.into_iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn every_code_reads_back(game in game_code()) {
            prop_assert_eq!(game.to_string().parse::<GameCode>(), Ok(game.clone()));
        }

        #[test]
        fn one_mistake_is_refused_or_reads_the_same_game(game in game_code(), mistake in mistake()) {
            let text = game.to_string();
            let typo = make(&text, &mistake);
            if let Ok(read) = typo.parse::<GameCode>() {
                prop_assert!(same_or_joined(&read, &game), "{} read from {}", typo, text);
            }
        }

    }

    /// Whether `read`, read from a code of `game` with one mistake, is `game`, or names
    /// another game whose id is `game`'s joined by one character to its seed's text, where
    /// `game` had parameters (read as the seed) and `read` has none (the one mistake the check
    /// lets through, rarely: see the module's text).
    fn same_or_joined(read: &GameCode, game: &GameCode) -> bool {
        let joined = || {
            let text = game.to_string();
            let mut parts = text.split('.');
            let (_, seed, params) = (parts.next(), parts.next(), parts.next());
            let (Some(seed), Some(params)) = (seed, params) else {
                return false;
            };
            let Some(rest) = read.entry.strip_prefix(game.entry.as_str()) else {
                return false;
            };
            let mut rest = rest.chars();
            rest.next().is_some()
                && rest.as_str() == seed.to_lowercase()
                && !params.is_empty()
                && read.params.is_none()
                && game.params.is_some()
        };
        read == game || joined()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn every_single_change_and_swap_of_a_code_is_refused_or_the_same(game in game_code()) {
            // Exhaustively for one code: every position, every character typed instead, every
            // swap of neighbours.
            let text = game.to_string();
            let n = text.chars().count();
            let mut mistakes: Vec<Mistake> = (0..n - 1).map(Mistake::Swap).collect();
            for i in 0..n {
                mistakes.push(Mistake::Drop(i));
                for c in "0123456789abcdefghijklmnopqrstuvwxyz-_.".chars() {
                    mistakes.push(Mistake::Change(i, c));
                    mistakes.push(Mistake::Add(i, c));
                }
            }
            for mistake in &mistakes {
                let typo = make(&text, mistake);
                if let Ok(read) = typo.parse::<GameCode>() {
                    prop_assert!(same_or_joined(&read, &game), "{} read from {}", typo, text);
                }
            }
        }
    }
}
