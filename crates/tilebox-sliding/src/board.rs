//! The square grid both games play on. It holds tile ranks, not values, so that one grid and one
//! sliding routine serve every rule set; [`crate::RuleSet`] says what a rank is worth.

use thiserror::Error;

/// A tile's rank: its position on its variant's ladder, from 1; 0 is an empty cell. A ladder is
/// at most [`crate::variant::MAX_TILES`] long today; a rank has sixteen bits so that tiles that
/// are integers rather than rungs of a table-driven ladder (planned) can share the board.
pub type Rank = u16;

/// A cell of the board, counted from 0 at the top left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Row, from 0 at the top.
    pub row: usize,
    /// Column, from 0 at the left.
    pub col: usize,
}

impl Cell {
    /// The cell at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Self { row, col }
    }
}

/// Why a board could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Rows of different lengths.
    #[error("row {row} has {len} cells but row 0 has {expected}")]
    Ragged {
        /// The first row whose length differs from row 0's (from 0).
        row: usize,
        /// Its length.
        len: usize,
        /// The length of row 0.
        expected: usize,
    },
    /// Rows all of one length, but not as many rows as columns.
    #[error("the board is {rows}×{cols}; it must be square")]
    NotSquare {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// A side outside [`Board::MIN_SIDE`]`..=`[`Board::MAX_SIDE`].
    #[error(
        "a board side of {0} is out of range ({min} to {max})",
        min = Board::MIN_SIDE,
        max = Board::MAX_SIDE
    )]
    SideOutOfRange(usize),
    /// A value this game's tiles can never take (row and column from 0).
    #[error("{value} at row {row}, column {col} is not a tile this game can hold")]
    BadValue {
        /// Row of the value, from 0.
        row: usize,
        /// Column of the value, from 0.
        col: usize,
        /// The value read.
        value: u64,
    },
}

/// A square board, `side`×`side` with `side` in 2..=8, each cell holding a tile rank (0 = empty).
///
/// Ranks rather than values keep the sliding rules one function per rule set and make overflow
/// impossible inside the board: see [`crate::RuleSet::max_rank`]. Only this crate can change a
/// board, so a board from a game always holds ranks its rule set allows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    side: usize,
    /// Row-major, `side * side` long.
    cells: Vec<Rank>,
}

impl Board {
    /// The smallest side a board can have.
    pub const MIN_SIDE: usize = 2;
    /// The largest side a board can have.
    pub const MAX_SIDE: usize = 8;

    /// An empty board of this side, or [`BoardError::SideOutOfRange`].
    pub fn empty(side: usize) -> Result<Board, BoardError> {
        if !(Self::MIN_SIDE..=Self::MAX_SIDE).contains(&side) {
            return Err(BoardError::SideOutOfRange(side));
        }
        Ok(Board {
            side,
            cells: vec![0; side * side],
        })
    }

    /// The number of rows, which is also the number of columns.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The rank at `cell`: 0 for an empty cell and for a cell off the board.
    pub fn rank(&self, cell: Cell) -> Rank {
        self.index(cell)
            .and_then(|i| self.cells.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Every empty cell, in row-major order (not collected: a move counts them, then finds the
    /// one drawn, without a list).
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells_with_ranks()
            .filter(|&(_, rank)| rank == 0)
            .map(|(cell, _)| cell)
    }

    /// Every cell with its rank, in row-major order.
    pub fn cells_with_ranks(&self) -> impl Iterator<Item = (Cell, Rank)> + '_ {
        let side = self.side;
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, &rank)| (Cell::new(i / side, i % side), rank))
    }

    /// The ranks row by row.
    pub fn rows(&self) -> impl Iterator<Item = &[Rank]> + '_ {
        self.cells.chunks(self.side)
    }

    /// The highest rank on the board, 0 for an empty board.
    pub fn max_rank(&self) -> Rank {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// How many cells hold a tile.
    pub fn tile_count(&self) -> usize {
        self.cells.iter().filter(|&&rank| rank != 0).count()
    }

    /// Puts `rank` at `cell`; a cell off the board is ignored. Crate-only, see [`Board`].
    pub(crate) fn set(&mut self, cell: Cell, rank: Rank) {
        if let Some(slot) = self.index(cell).and_then(|i| self.cells.get_mut(i)) {
            *slot = rank;
        }
    }

    /// A board from rows of ranks, checking the shape only. Crate-only: callers outside build
    /// boards from values, which also checks each value against a rule set.
    pub(crate) fn from_rank_rows<T>(
        rows: &[Vec<T>],
        mut rank: impl FnMut(Cell, &T) -> Result<Rank, BoardError>,
    ) -> Result<Board, BoardError> {
        let cols = rows.first().map_or(0, Vec::len);
        if let Some((row, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != cols) {
            return Err(BoardError::Ragged {
                row,
                len: r.len(),
                expected: cols,
            });
        }
        if rows.len() != cols {
            return Err(BoardError::NotSquare {
                rows: rows.len(),
                cols,
            });
        }
        let mut board = Board::empty(rows.len())?;
        for (r, row) in rows.iter().enumerate() {
            for (c, item) in row.iter().enumerate() {
                let cell = Cell::new(r, c);
                board.set(cell, rank(cell, item)?);
            }
        }
        Ok(board)
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        (cell.row < self.side && cell.col < self.side).then(|| cell.row * self.side + cell.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_boards_have_a_side_in_range() {
        assert_eq!(Board::empty(1), Err(BoardError::SideOutOfRange(1)));
        assert_eq!(Board::empty(9), Err(BoardError::SideOutOfRange(9)));
        assert_eq!(Board::empty(0), Err(BoardError::SideOutOfRange(0)));
        assert_eq!(
            BoardError::SideOutOfRange(9).to_string(),
            "a board side of 9 is out of range (2 to 8)"
        );
        for side in 2..=8 {
            let board = Board::empty(side).unwrap();
            assert_eq!(board.side(), side);
            assert_eq!(board.empty_cells().count(), side * side);
            assert_eq!(board.max_rank(), 0);
            assert_eq!(board.tile_count(), 0);
        }
    }

    #[test]
    fn reading_off_the_board_gives_empty_and_writing_there_does_nothing() {
        let mut board = Board::empty(3).unwrap();
        board.set(Cell::new(1, 2), 5);
        board.set(Cell::new(3, 0), 7);
        board.set(Cell::new(0, usize::MAX), 7);
        assert_eq!(board.rank(Cell::new(1, 2)), 5);
        assert_eq!(board.rank(Cell::new(3, 0)), 0);
        assert_eq!(board.rank(Cell::new(usize::MAX, usize::MAX)), 0);
        assert_eq!(board.tile_count(), 1);
        assert_eq!(board.max_rank(), 5);
        assert!(!board.empty_cells().any(|c| c == Cell::new(1, 2)));
        assert_eq!(board.rows().nth(1), Some(&[0, 0, 5][..]));
    }

    #[test]
    fn shape_is_checked_before_values() {
        let ok = |_: Cell, v: &Rank| Ok(*v);
        assert_eq!(
            Board::from_rank_rows(&[vec![0, 0], vec![0]], ok),
            Err(BoardError::Ragged {
                row: 1,
                len: 1,
                expected: 2
            })
        );
        assert_eq!(
            Board::from_rank_rows(&[vec![0, 0, 0], vec![0, 0, 0]], ok),
            Err(BoardError::NotSquare { rows: 2, cols: 3 })
        );
        assert_eq!(
            Board::from_rank_rows(&[vec![0]], ok),
            Err(BoardError::SideOutOfRange(1))
        );
        let none: [Vec<Rank>; 0] = [];
        assert_eq!(
            Board::from_rank_rows(&none, ok),
            Err(BoardError::SideOutOfRange(0))
        );
        let board = Board::from_rank_rows(&[vec![1, 0], vec![0, 2]], ok).unwrap();
        assert_eq!(board.rank(Cell::new(1, 1)), 2);
    }
}
