//! [`TileSet`]: a set of the tiles 1 to 12, the board of Strike 9 and its moves.

use std::cmp::Ordering;
use std::fmt;
use std::iter::FusedIterator;
use std::str::FromStr;

use thiserror::Error;
use tilebox_core::ParseMoveError;

/// The lowest tile.
pub const MIN_TILE: u8 = 1;
/// The highest tile of the largest box (12 tiles).
pub const MAX_TILE: u8 = 12;

/// The tiles of the standard box, 1 to 9.
const NINE_BITS: u16 = 0b11_1111_1110;

/// Bits 1 to 12: the only bits a [`TileSet`] may hold.
const ALL_BITS: u16 = 0b1_1111_1111_1110;

/// What a first reading of a move says when the text is not tiles joined by `+`.
const MOVE_SHAPE: &str = "expected tiles 1 to 12 joined by '+', such as 4+5";

/// A tile that cannot be put in a [`TileSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum TileError {
    /// The number is not one of the tiles of the box (1 to `tiles`).
    #[error("there is no tile {tile}: the tiles are 1 to {tiles}")]
    OutOfRange {
        /// The number given.
        tile: u8,
        /// The highest tile of the box.
        tiles: u8,
    },
    /// The tile was given more than once.
    #[error("tile {0} is given twice")]
    Repeated(u8),
}

/// A set of tiles 1 to 12, as a bitmask: bit `t` stands for tile `t`.
///
/// It is the board's open (or shut) tiles, and it is the move of Strike 9: the tiles to shut for
/// the current roll. Sets are ordered by their ascending tile lists, lexicographically, so
/// `1+2+6 < 1+3+5 < 1+8 < 2+3+4 < 2+7 < 9`; the empty set comes first.
///
/// The text form joins the tiles in ascending order with `+` (`1+2+6`); the empty set is `-`.
/// Reading accepts the tiles in any order (`5+4`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TileSet(u16);

impl TileSet {
    /// No tile.
    pub const EMPTY: TileSet = TileSet(0);
    /// Every tile of the standard box, 1 to 9 (see [`TileSet::first`] for the other boxes).
    pub const ALL: TileSet = TileSet(NINE_BITS);

    /// The tiles 1 to `n` (for `n` above 12, 1 to 12): the full box of `n` tiles.
    pub fn first(n: u8) -> TileSet {
        let n = n.min(MAX_TILE);
        TileSet(((1u16 << n) - 1) << 1)
    }

    /// The bit of `tile`, or `None` outside 1 to 12.
    fn bit(tile: u8) -> Option<u16> {
        (MIN_TILE..=MAX_TILE).contains(&tile).then(|| 1u16 << tile)
    }

    /// The set of these tiles. Fails on a tile outside 1 to 12 or a tile given twice.
    pub fn from_tiles(tiles: impl IntoIterator<Item = u8>) -> Result<TileSet, TileError> {
        TileSet::from_tiles_in(tiles, MAX_TILE)
    }

    /// The set of these tiles of a box of `n` tiles. Fails on a tile outside 1 to `n` (1 to 12
    /// when `n` is above 12) or a tile given twice.
    pub fn from_tiles_in(tiles: impl IntoIterator<Item = u8>, n: u8) -> Result<TileSet, TileError> {
        let n = n.min(MAX_TILE);
        let mut set = TileSet::EMPTY;
        for tile in tiles {
            set.insert_new(tile, n)?;
        }
        Ok(set)
    }

    /// Adds `tile`, refusing a number outside 1 to `n` and a tile already in the set: the checks
    /// of every list of tiles a player writes.
    fn insert_new(&mut self, tile: u8, n: u8) -> Result<(), TileError> {
        let bit = Self::bit(tile)
            .filter(|_| tile <= n)
            .ok_or(TileError::OutOfRange { tile, tiles: n })?;
        if self.0 & bit != 0 {
            return Err(TileError::Repeated(tile));
        }
        self.0 |= bit;
        Ok(())
    }

    /// Whether `tile` is in the set; false for any number outside 1 to 12.
    pub fn contains(self, tile: u8) -> bool {
        Self::bit(tile).is_some_and(|bit| self.0 & bit != 0)
    }

    /// The set with `tile` added; a number outside 1 to 12 is ignored.
    #[must_use]
    pub fn with(self, tile: u8) -> TileSet {
        TileSet(self.0 | Self::bit(tile).unwrap_or(0))
    }

    /// The set with `tile` taken out; a number outside 1 to 12 is ignored.
    #[must_use]
    pub fn without(self, tile: u8) -> TileSet {
        TileSet(self.0 & !Self::bit(tile).unwrap_or(0))
    }

    /// The tiles, in ascending order.
    pub fn tiles(self) -> Tiles {
        Tiles(self.0)
    }

    /// The sum of the tiles, 0 to 78.
    pub fn sum(self) -> u32 {
        self.tiles().map(u32::from).sum()
    }

    /// How many tiles the set holds, 0 to 12.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set holds no tile.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every tile of `self` is in `other`.
    pub fn is_subset(self, other: TileSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The tiles in either set.
    #[must_use]
    pub fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// The tiles in both sets.
    #[must_use]
    pub fn intersection(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    /// The tiles of `self` that are not in `other`.
    #[must_use]
    pub fn difference(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    /// The tiles 1 to 9 that are not in `self`: the complement in the standard box (for a box of
    /// `n` tiles, `TileSet::first(n).difference(set)`).
    #[must_use]
    pub fn complement(self) -> TileSet {
        TileSet(NINE_BITS & !self.0)
    }

    /// The bitmask: bit `t` set for tile `t`, bits 0 and 13 to 15 clear.
    pub fn bits(self) -> u16 {
        self.0
    }

    /// The set of bitmask `bits` (bit `t` for tile `t`), or `None` when bit 0 or any of bits 13
    /// to 15 is set.
    pub fn from_bits(bits: u16) -> Option<TileSet> {
        (bits & !ALL_BITS == 0).then_some(TileSet(bits))
    }
}

impl Ord for TileSet {
    /// Lexicographic order of the ascending tile lists.
    fn cmp(&self, other: &Self) -> Ordering {
        self.tiles().cmp(other.tiles())
    }
}

impl PartialOrd for TileSet {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl IntoIterator for TileSet {
    type Item = u8;
    type IntoIter = Tiles;

    fn into_iter(self) -> Tiles {
        self.tiles()
    }
}

impl fmt::Display for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (i, tile) in self.tiles().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{tile}")?;
        }
        Ok(())
    }
}

impl FromStr for TileSet {
    type Err = ParseMoveError;

    /// Reads tiles joined by `+`, in any order (`4+5`, `5+4`, `9`), or `-` for the empty set
    /// (the text form of [`TileSet::EMPTY`], which is never a legal move).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        if text.is_empty() {
            return Err(ParseMoveError::new(s, MOVE_SHAPE));
        }
        if text == "-" {
            return Ok(TileSet::EMPTY);
        }
        let mut set = TileSet::EMPTY;
        for part in text.split('+').map(str::trim) {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseMoveError::new(s, MOVE_SHAPE));
            }
            // Digits only, so the one way to fail is a number too long for a u8: not a tile.
            let tile = part.parse::<u8>().map_err(|_| {
                ParseMoveError::new(s, format!("there is no tile {part}: the tiles are 1 to 12"))
            })?;
            set.insert_new(tile, MAX_TILE)
                .map_err(|e| ParseMoveError::new(s, e.to_string()))?;
        }
        Ok(set)
    }
}

/// The tiles of a [`TileSet`], ascending (see [`TileSet::tiles`]).
#[derive(Debug, Clone)]
pub struct Tiles(u16);

impl Iterator for Tiles {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        // At most 15, so the conversion never fails; tile bits are 1 to 12.
        let tile = u8::try_from(self.0.trailing_zeros()).ok()?;
        self.0 &= self.0 - 1;
        Some(tile)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Tiles {
    fn next_back(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let tile = u8::try_from(15 - self.0.leading_zeros()).ok()?;
        self.0 &= !(1u16 << tile);
        Some(tile)
    }
}

impl ExactSizeIterator for Tiles {}

impl FusedIterator for Tiles {}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Every set, from its bits (tile `t` is bit `t`), written here without `TileSet`'s methods.
    fn all_sets() -> impl Iterator<Item = (TileSet, Vec<u8>)> {
        (0u16..512).map(|mask| {
            let list: Vec<u8> = (1u8..=9).filter(|t| mask & (1 << (t - 1)) != 0).collect();
            (TileSet::from_bits(mask << 1).unwrap(), list)
        })
    }

    #[test]
    fn constants_and_basic_queries() {
        assert!(TileSet::EMPTY.is_empty());
        assert_eq!(TileSet::default(), TileSet::EMPTY);
        assert_eq!(TileSet::ALL.len(), 9);
        assert_eq!(TileSet::ALL.sum(), 45);
        assert_eq!(
            TileSet::ALL.tiles().collect::<Vec<_>>(),
            [1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
        assert_eq!(TileSet::ALL.complement(), TileSet::EMPTY);
        let s = TileSet::from_tiles([6, 2, 1]).unwrap();
        assert_eq!(s.tiles().collect::<Vec<_>>(), [1, 2, 6]);
        assert_eq!(s.tiles().rev().collect::<Vec<_>>(), [6, 2, 1]);
        assert_eq!(s.tiles().len(), 3);
        assert_eq!(s.sum(), 9);
        assert_eq!(s.len(), 3);
        assert_eq!(s.bits(), 0b100_0110);
        assert!(s.is_subset(TileSet::ALL));
        assert!(!TileSet::ALL.is_subset(s));
        assert!(TileSet::EMPTY.is_subset(s));
        assert_eq!(
            s.complement(),
            TileSet::from_tiles([3, 4, 5, 7, 8, 9]).unwrap()
        );
    }

    #[test]
    fn contains_with_and_without_ignore_numbers_that_are_not_tiles() {
        let s = TileSet::from_tiles([1, 9]).unwrap();
        for t in [0u8, 13, 15, 16, 100, 255] {
            assert!(!s.contains(t));
            assert!(!TileSet::ALL.contains(t));
            assert_eq!(s.with(t), s);
            assert_eq!(s.without(t), s);
        }
        assert!(s.contains(1) && s.contains(9) && !s.contains(5));
        assert_eq!(s.with(5).without(1).tiles().collect::<Vec<_>>(), [5, 9]);
        assert_eq!(s.with(9), s);
        assert_eq!(s.without(5), s);
    }

    #[test]
    fn from_tiles_refuses_numbers_that_are_not_tiles_and_repeats() {
        assert_eq!(TileSet::from_tiles([]), Ok(TileSet::EMPTY));
        let out = |tile, tiles| Err(TileError::OutOfRange { tile, tiles });
        assert_eq!(TileSet::from_tiles([0]), out(0, 12));
        assert_eq!(TileSet::from_tiles([3, 13]), out(13, 12));
        assert_eq!(TileSet::from_tiles([3, 10, 12]).map(TileSet::len), Ok(3));
        assert_eq!(TileSet::from_tiles_in([3, 10], 9), out(10, 9));
        assert_eq!(TileSet::from_tiles_in([3, 10], 10).map(TileSet::len), Ok(2));
        assert_eq!(TileSet::from_tiles_in([11], 10), out(11, 10));
        assert_eq!(TileSet::from_tiles_in([13], 200), out(13, 12));
        assert_eq!(TileSet::from_tiles([4, 2, 4]), Err(TileError::Repeated(4)));
        assert_eq!(
            TileError::OutOfRange { tile: 12, tiles: 9 }.to_string(),
            "there is no tile 12: the tiles are 1 to 9"
        );
        assert_eq!(TileError::Repeated(4).to_string(), "tile 4 is given twice");
    }

    #[test]
    fn first_is_the_full_box() {
        assert_eq!(TileSet::first(9), TileSet::ALL);
        assert_eq!(TileSet::first(0), TileSet::EMPTY);
        assert_eq!(TileSet::first(10).to_string(), "1+2+3+4+5+6+7+8+9+10");
        assert_eq!(TileSet::first(12).sum(), 78);
        assert_eq!(TileSet::first(255), TileSet::first(12));
        assert_eq!("12+1+11".parse::<TileSet>().unwrap().to_string(), "1+11+12");
        let high = TileSet::first(12).tiles().rev().collect::<Vec<_>>();
        assert_eq!(high, [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    }

    #[test]
    fn from_bits_accepts_exactly_the_tile_bits() {
        for bits in 0..=u16::MAX {
            let ok = bits & 1 == 0 && bits < 1 << 13;
            assert_eq!(TileSet::from_bits(bits).is_some(), ok, "{bits:#b}");
            if let Some(s) = TileSet::from_bits(bits) {
                assert_eq!(s.bits(), bits);
            }
        }
    }

    #[test]
    fn sets_agree_with_their_tile_lists() {
        for (set, list) in all_sets() {
            assert_eq!(set.tiles().collect::<Vec<_>>(), list);
            assert_eq!(set.tiles().rev().collect::<Vec<_>>(), {
                let mut r = list.clone();
                r.reverse();
                r
            });
            assert_eq!(set.len(), list.len());
            assert_eq!(set.sum(), list.iter().map(|&t| u32::from(t)).sum::<u32>());
            assert_eq!(TileSet::from_tiles(list.iter().copied()), Ok(set));
            for t in 0..=20u8 {
                assert_eq!(set.contains(t), list.contains(&t));
            }
        }
    }

    #[test]
    fn order_is_lexicographic_on_ascending_tile_lists() {
        let sets: Vec<_> = all_sets().collect();
        for (a, la) in &sets {
            for (b, lb) in &sets {
                assert_eq!(a.cmp(b), la.cmp(lb), "{a} vs {b}");
                assert_eq!(a.partial_cmp(b), Some(la.cmp(lb)));
            }
        }
        let p = |s: &str| s.parse::<TileSet>().unwrap();
        assert!(p("1+2+6") < p("1+3+5"));
        assert!(p("1+3+5") < p("1+8"));
        assert!(p("1+8") < p("2+3+4"));
        assert!(p("2+3+4") < p("2+7"));
        assert!(TileSet::EMPTY < p("1"));
    }

    #[test]
    fn display_joins_ascending_tiles_with_plus() {
        assert_eq!(TileSet::EMPTY.to_string(), "-");
        assert_eq!(TileSet::from_tiles([6, 1, 2]).unwrap().to_string(), "1+2+6");
        assert_eq!(TileSet::from_tiles([9]).unwrap().to_string(), "9");
        assert_eq!(TileSet::ALL.to_string(), "1+2+3+4+5+6+7+8+9");
    }

    #[test]
    fn parse_reads_tiles_in_any_order() {
        let four_five = TileSet::from_tiles([4, 5]).unwrap();
        assert_eq!("4+5".parse(), Ok(four_five));
        assert_eq!("5+4".parse(), Ok(four_five));
        assert_eq!(" 5 + 4 ".parse(), Ok(four_five));
        assert_eq!("9".parse(), Ok(TileSet::from_tiles([9]).unwrap()));
        assert_eq!("-".parse(), Ok(TileSet::EMPTY));
    }

    #[test]
    fn parse_errors_say_what_is_wrong_in_one_line() {
        let cases = [
            ("", "expected tiles 1 to 12 joined by '+'"),
            ("   ", "expected tiles 1 to 12 joined by '+'"),
            ("x", "expected tiles 1 to 12 joined by '+'"),
            ("4+five", "expected tiles 1 to 12 joined by '+'"),
            ("4+", "expected tiles 1 to 12 joined by '+'"),
            ("+4", "expected tiles 1 to 12 joined by '+'"),
            ("4++5", "expected tiles 1 to 12 joined by '+'"),
            ("4,5", "expected tiles 1 to 12 joined by '+'"),
            ("-4", "expected tiles 1 to 12 joined by '+'"),
            ("--", "expected tiles 1 to 12 joined by '+'"),
            ("4.0", "expected tiles 1 to 12 joined by '+'"),
            ("0", "there is no tile 0: the tiles are 1 to 12"),
            ("3+13", "there is no tile 13: the tiles are 1 to 12"),
            ("256", "there is no tile 256: the tiles are 1 to 12"),
            (
                "99999999999999999999",
                "there is no tile 99999999999999999999",
            ),
            ("4+5+4", "tile 4 is given twice"),
        ];
        for (input, reason) in cases {
            let err = input.parse::<TileSet>().unwrap_err();
            assert_eq!(err.input, input);
            assert!(err.reason.contains(reason), "{input:?}: {}", err.reason);
            assert!(!err.to_string().contains('\n'), "{err}");
        }
    }

    proptest! {
        #[test]
        fn display_and_parse_round_trip(mask in 0u16..4096) {
            let set = TileSet::from_bits(mask << 1).unwrap();
            let text = set.to_string();
            prop_assert_eq!(text.parse::<TileSet>(), Ok(set));
        }

        #[test]
        fn parse_takes_the_tiles_in_any_order(
            tiles in Just((1u8..=9).collect::<Vec<_>>()).prop_shuffle(),
            keep in 1usize..=9,
        ) {
            let chosen = &tiles[..keep];
            let text = chosen.iter().map(ToString::to_string).collect::<Vec<_>>().join("+");
            let set: TileSet = text.parse().unwrap();
            let mut sorted = chosen.to_vec();
            sorted.sort_unstable();
            prop_assert_eq!(set.tiles().collect::<Vec<_>>(), sorted);
        }

        #[test]
        fn parse_never_panics(text in "\\PC{0,20}") {
            let _ = text.parse::<TileSet>();
        }
    }
}
