//! The four swipes, their text form, and the one mapping from "line and position from the wall"
//! to a board cell that lets every rule be written for a single line.

use std::fmt;
use std::str::FromStr;

use tilebox_core::ParseMoveError;

use crate::Cell;

/// A swipe: every tile is pushed toward the wall on this side. The move of both games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward column 0.
    Left,
    /// Toward the last column.
    Right,
    /// Toward row 0.
    Up,
    /// Toward the last row.
    Down,
}

impl Direction {
    /// Every direction, in the order legal moves are listed.
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    /// The cell at `pos` steps from the wall on line `line` of a `side`×`side` board.
    ///
    /// Lines are rows for [`Direction::Left`] and [`Direction::Right`] and columns for
    /// [`Direction::Up`] and [`Direction::Down`], numbered from 0 like rows and columns. Position 0
    /// is the cell against the wall the tiles move toward. This is the only place the four
    /// directions differ: the rules walk a line from the wall outward and this mapping turns
    /// that walk into cells. A `line` or `pos` of `side` or more gives a cell off the board (a row
    /// or column of `side` or more), never a panic and never a real cell.
    pub fn cell(self, side: usize, line: usize, pos: usize) -> Cell {
        // Counting from the far wall. A `pos` past the line has no such cell: it maps to
        // `usize::MAX`, off any board, rather than clamping onto the cell against the wall.
        let back = side
            .checked_sub(pos)
            .and_then(|room| room.checked_sub(1))
            .unwrap_or(usize::MAX);
        match self {
            Direction::Left => Cell::new(line, pos),
            Direction::Right => Cell::new(line, back),
            Direction::Up => Cell::new(pos, line),
            Direction::Down => Cell::new(back, line),
        }
    }

    /// The far edge of line `line`, opposite the wall: where a Threes card enters after a swipe.
    pub fn entry_cell(self, side: usize, line: usize) -> Cell {
        self.cell(side, line, side.saturating_sub(1))
    }

    /// The line (row or column, see [`Direction::cell`]) that `cell` lies on for this swipe.
    pub fn line_of(self, cell: Cell) -> usize {
        match self {
            Direction::Left | Direction::Right => cell.row,
            Direction::Up | Direction::Down => cell.col,
        }
    }

    /// The word for it, as a variant file writes it: `left`, `right`, `up`, `down`.
    pub fn word(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    /// Its place in [`Direction::ALL`], 0 to 3.
    pub fn index(self) -> usize {
        match self {
            Direction::Left => 0,
            Direction::Right => 1,
            Direction::Up => 2,
            Direction::Down => 3,
        }
    }

    /// The one-letter text form, as in saves and replays.
    pub fn letter(self) -> char {
        match self {
            Direction::Left => 'L',
            Direction::Right => 'R',
            Direction::Up => 'U',
            Direction::Down => 'D',
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A direction in a variant file is its word: `"left"`.
impl serde::Serialize for Direction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl<'de> serde::Deserialize<'de> for Direction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = String::deserialize(d)?;
        Direction::ALL
            .into_iter()
            .find(|dir| dir.word() == word)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{word:?} is not a direction (left, right, up or down)"
                ))
            })
    }
}

impl FromStr for Direction {
    type Err = ParseMoveError;

    /// Reads `L`, `R`, `U`, `D` or `left`, `right`, `up`, `down`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let word = s.trim();
        for dir in Direction::ALL {
            let name = dir.word();
            let letter = dir.letter().to_string();
            if word.eq_ignore_ascii_case(&letter) || word.eq_ignore_ascii_case(name) {
                return Ok(dir);
            }
        }
        Err(ParseMoveError::new(
            s,
            "expected L, R, U or D (or left, right, up, down)",
        ))
    }
}

/// Splits written moves for both sliding games: every character that is not white space is one
/// move, so `"LLur"` and `"L L U R"` are both four moves.
///
/// A whole word that names a direction (`left`, `Down`) stays one move. No run of move letters
/// spells such a word (`e`, `f`, `t`, `i`, `g`, `h`, `p`, `o`, `w`, `n` are not moves), so this
/// reading never changes what a string of letters means; it only lets words through.
pub(crate) fn split_moves(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    for word in text.split_whitespace() {
        if word.len() > 1 && word.parse::<Direction>().is_ok() {
            tokens.push(word);
            continue;
        }
        tokens.extend(
            word.char_indices()
                .map(|(i, c)| word.get(i..i + c.len_utf8()).unwrap_or_default()),
        );
    }
    tokens
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn letters_and_words_in_any_case() {
        for (text, dir) in [
            ("L", Direction::Left),
            ("l", Direction::Left),
            ("left", Direction::Left),
            ("LEFT", Direction::Left),
            ("R", Direction::Right),
            ("Right", Direction::Right),
            ("u", Direction::Up),
            ("uP", Direction::Up),
            ("D", Direction::Down),
            ("down", Direction::Down),
        ] {
            assert_eq!(text.parse::<Direction>(), Ok(dir), "{text}");
        }
        for bad in ["", "x", "LL", "lef", "north", "1"] {
            let err = bad.parse::<Direction>().unwrap_err();
            assert_eq!(err.input, bad);
        }
    }

    #[test]
    fn display_is_one_letter() {
        let shown: Vec<String> = Direction::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["L", "R", "U", "D"]);
    }

    #[test]
    fn split_reads_packed_and_spaced_moves_alike() {
        assert_eq!(split_moves("LLur"), ["L", "L", "u", "r"]);
        assert_eq!(split_moves("L L U R"), ["L", "L", "U", "R"]);
        assert_eq!(split_moves("  left Up\tDr "), ["left", "Up", "D", "r"]);
        assert_eq!(split_moves("upL"), ["u", "p", "L"]);
        assert_eq!(split_moves("Lé"), ["L", "é"]);
        assert!(split_moves(" \n").is_empty());
    }

    #[test]
    fn the_mapping_walks_each_line_from_its_wall() {
        let side = 4;
        // Position 0 touches the wall of the swipe; the last position is the entry edge.
        assert_eq!(Direction::Left.cell(side, 2, 0), Cell::new(2, 0));
        assert_eq!(Direction::Right.cell(side, 2, 0), Cell::new(2, 3));
        assert_eq!(Direction::Up.cell(side, 2, 0), Cell::new(0, 2));
        assert_eq!(Direction::Down.cell(side, 2, 0), Cell::new(3, 2));
        assert_eq!(Direction::Left.entry_cell(side, 1), Cell::new(1, 3));
        assert_eq!(Direction::Right.entry_cell(side, 1), Cell::new(1, 0));
        assert_eq!(Direction::Up.entry_cell(side, 1), Cell::new(3, 1));
        assert_eq!(Direction::Down.entry_cell(side, 1), Cell::new(0, 1));
    }

    #[test]
    fn positions_and_lines_past_the_board_give_cells_off_it() {
        // Before the fix, Right and Down clamped `pos` 4 of a side-4 board onto column/row 0.
        assert_eq!(Direction::Right.cell(4, 0, 4), Cell::new(0, usize::MAX));
        assert_eq!(Direction::Down.cell(4, 0, 4), Cell::new(usize::MAX, 0));
        assert_eq!(Direction::Left.cell(4, 0, 4), Cell::new(0, 4));
        assert_eq!(Direction::Up.cell(4, 0, 4), Cell::new(4, 0));
        assert_eq!(
            Direction::Right.cell(4, 0, usize::MAX),
            Cell::new(0, usize::MAX)
        );
    }

    proptest! {
        #[test]
        fn out_of_range_arguments_never_give_a_cell_on_the_board(
            side in 0usize..=9,
            line in 0usize..=12,
            pos in prop_oneof![0usize..=12, Just(usize::MAX)],
            i in 0usize..4,
        ) {
            let cell = Direction::ALL[i].cell(side, line, pos);
            let on_board = cell.row < side && cell.col < side;
            prop_assert_eq!(on_board, line < side && pos < side, "{:?}", cell);
        }

        #[test]
        fn display_and_parse_round_trip(i in 0usize..4) {
            let dir = Direction::ALL[i];
            prop_assert_eq!(dir.to_string().parse::<Direction>(), Ok(dir));
            prop_assert_eq!(dir.to_string().to_lowercase().parse::<Direction>(), Ok(dir));
        }

        #[test]
        fn each_direction_maps_lines_onto_every_cell_once(side in 2usize..=8, i in 0usize..4) {
            let dir = Direction::ALL[i];
            let mut seen = vec![false; side * side];
            for line in 0..side {
                for pos in 0..side {
                    let cell = dir.cell(side, line, pos);
                    prop_assert!(cell.row < side && cell.col < side);
                    prop_assert_eq!(dir.line_of(cell), line);
                    let k = cell.row * side + cell.col;
                    prop_assert!(!seen[k]);
                    seen[k] = true;
                }
            }
        }
    }
}
