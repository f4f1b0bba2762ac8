//! A variant's tiles: a ladder of values, or (format 2) a range of integers.

use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
}

impl PartialEq for Ladder {
    fn eq(&self, other: &Self) -> bool {
        match (self.integers, other.integers) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.values == other.values,
            _ => false,
        }
    }
}

impl Eq for Ladder {}

impl Hash for Ladder {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self.integers {
            Some(range) => range.hash(state),
            None => self.values.hash(state),
        }
    }
}

impl Ladder {
    /// The integers from `from` to `to`. A range that is empty or longer than
    /// [`MAX_INTEGER_TILES`] holds no tile (and is refused by [`crate::Variant::validate`]).
    pub fn integers(from: i64, to: i64) -> Ladder {
        let len = range_len([from, to]).unwrap_or(0);
        Ladder {
            values: (1..=len).collect(),
            integers: Some([from, to]),
        }
    }

    /// `[from, to]` for a range of integers.
    pub fn integer_range(&self) -> Option<[i64; 2]> {
        self.integers
    }

    /// Whether the tiles are a range of integers.
    pub fn is_integers(&self) -> bool {
        self.integers.is_some()
    }

    /// The integer a tile of `value` is, in a range of integers (`None` for a ladder, or for a
    /// value outside the range).
    pub fn integer(&self, value: u64) -> Option<i64> {
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
        match self.integers {
            Some(integers) => Range { integers }.serialize(s),
            None => self.values[..].serialize(s),
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
        }
        Ok(match Raw::deserialize(d)? {
            Raw::Values(values) => Ladder::from(values),
            Raw::Range(Range {
                integers: [from, to],
            }) => Ladder::integers(from, to),
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
