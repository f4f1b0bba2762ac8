//! 4×4 boards packed in a `u64`, four bits a cell, and table-driven moves.
//!
//! Layout (the one of nneonneo/2048-ai): the cell at `row`, `col` is the nibble at bit
//! `4 * (4 * row + col)`. Row `r` is therefore the 16-bit word at bit `16 * r`, with column 0 in
//! its lowest nibble. A nibble holds the tile's rank (0 = empty), as in `tilebox-sliding`: for
//! 2048 rank `k` is the tile `2^k`; for Threes rank 1 is 1, 2 is 2 and `r >= 3` is `3·2^(r-3)`.
//!
//! A line move is written once per rule set, as a function on four ranks ordered from the wall
//! outward ([`line_2048`], [`line_threes`]). [`MoveTables::build`] runs it on all 65,536 rows
//! and stores, for each, what must be XORed into the board to make the move, in four tables
//! (left and right on rows; up and down on columns, unpacked so that a column read from the
//! transposed board XORs straight into the original one). A move is then four lookups.

use std::sync::OnceLock;

use tilebox_sliding::{Board, Cell, Direction, Rank};

/// A 4×4 board, four bits a cell; see the [module documentation](self) for the layout.
pub type Bits = u64;

/// The mask of one row (the low 16 bits).
const ROW_MASK: u64 = 0xFFFF;

/// The mask of column 0 (one nibble in each row).
const COL_MASK: u64 = 0x000F_000F_000F_000F;

/// Number of distinct rows: 16 bits.
const ROWS: usize = 1 << 16;

/// The highest rank a nibble holds.
pub const MAX_RANK: u8 = 15;

/// Packs a `tilebox-sliding` board. `None` unless the board is 4×4 with every rank at most 15.
pub fn encode(board: &Board) -> Option<Bits> {
    if board.side() != 4 {
        return None;
    }
    let mut bits = 0;
    for row in 0..4 {
        for col in 0..4 {
            let rank = board.rank(Cell { row, col });
            if rank > Rank::from(MAX_RANK) {
                return None;
            }
            bits |= u64::from(rank) << cell_offset(row, col);
        }
    }
    Some(bits)
}

/// The ranks of a packed board, row by row.
pub fn decode(bits: Bits) -> [[u8; 4]; 4] {
    let mut out = [[0; 4]; 4];
    for (row, ranks) in out.iter_mut().enumerate() {
        for (col, rank) in ranks.iter_mut().enumerate() {
            *rank = rank_at(bits, row, col);
        }
    }
    out
}

/// Packs ranks given row by row. Ranks above 15 keep their low four bits only.
pub fn from_ranks(ranks: &[[u8; 4]; 4]) -> Bits {
    let mut bits = 0;
    for (row, line) in ranks.iter().enumerate() {
        for (col, &rank) in line.iter().enumerate() {
            bits |= u64::from(rank & 0xF) << cell_offset(row, col);
        }
    }
    bits
}

/// The bit offset of a cell's nibble. Rows and columns are taken modulo 4.
#[inline]
pub fn cell_offset(row: usize, col: usize) -> u32 {
    // Both are below 4 after masking, so the product fits easily.
    (4 * (4 * (row & 3) + (col & 3))) as u32
}

/// The rank at a cell. Rows and columns are taken modulo 4.
#[inline]
pub fn rank_at(bits: Bits, row: usize, col: usize) -> u8 {
    ((bits >> cell_offset(row, col)) & 0xF) as u8
}

/// Swaps rows and columns: the cell at `(r, c)` goes to `(c, r)`.
#[inline]
pub fn transpose(x: Bits) -> Bits {
    // Swap the off-diagonal nibbles inside each 2×2 block, then the off-diagonal 2×2 blocks.
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// Mirrors the board left to right: the cell at `(r, c)` goes to `(r, 3 - c)`.
#[inline]
pub fn mirror(x: Bits) -> Bits {
    ((x & 0x000F_000F_000F_000F) << 12)
        | ((x & 0x00F0_00F0_00F0_00F0) << 4)
        | ((x & 0x0F00_0F00_0F00_0F00) >> 4)
        | ((x & 0xF000_F000_F000_F000) >> 12)
}

/// Flips the board upside down: the cell at `(r, c)` goes to `(3 - r, c)`.
#[inline]
pub fn flip(x: Bits) -> Bits {
    (x << 48)
        | ((x << 16) & 0x0000_FFFF_0000_0000)
        | ((x >> 16) & 0x0000_0000_FFFF_0000)
        | (x >> 48)
}

/// Number of empty cells.
#[inline]
pub fn count_empty(x: Bits) -> u32 {
    // Fold each nibble onto its lowest bit: 1 where the nibble is non-zero.
    let mut y = x | (x >> 2);
    y |= y >> 1;
    (!y & 0x1111_1111_1111_1111).count_ones()
}

/// The highest rank on the board (0 for an empty board).
#[inline]
pub fn max_rank(mut x: Bits) -> u8 {
    let mut best = 0;
    while x != 0 {
        best = best.max((x & 0xF) as u8);
        x >>= 4;
    }
    best
}

/// The four ranks of a row, from column 0.
#[inline]
pub(crate) fn unpack_row(row: u16) -> [u8; 4] {
    [
        (row & 0xF) as u8,
        ((row >> 4) & 0xF) as u8,
        ((row >> 8) & 0xF) as u8,
        ((row >> 12) & 0xF) as u8,
    ]
}

/// A row from four ranks (low four bits of each).
#[inline]
fn pack_row(line: [u8; 4]) -> u16 {
    u16::from(line[0] & 0xF)
        | (u16::from(line[1] & 0xF) << 4)
        | (u16::from(line[2] & 0xF) << 8)
        | (u16::from(line[3] & 0xF) << 12)
}

/// A row laid out as column 0 of a board: nibble `i` goes to row `i`.
#[inline]
fn row_as_column(row: u16) -> u64 {
    let r = u64::from(row);
    (r | (r << 12) | (r << 24) | (r << 36)) & COL_MASK
}

/// The row with its cells in the opposite order.
#[inline]
fn reverse_row(row: u16) -> u16 {
    (row >> 12) | ((row >> 4) & 0x00F0) | ((row << 4) & 0x0F00) | (row << 12)
}

/// The 2048 line move toward position 0: compact, then merge equal neighbours from the wall
/// outward, each tile at most once. Rank 15 does not merge (it has no room in a nibble).
pub fn line_2048(line: [u8; 4]) -> [u8; 4] {
    let mut out = [0u8; 4];
    let mut len = 0;
    // Whether `out[len - 1]` may still take a merge.
    let mut open = false;
    for rank in line.into_iter().filter(|&r| r != 0) {
        if open && len > 0 && out[len - 1] == rank && rank < MAX_RANK {
            out[len - 1] = rank + 1;
            open = false;
        } else {
            out[len] = rank;
            len += 1;
            open = true;
        }
    }
    out
}

/// The rank two adjacent Threes tiles make, if they merge: 1 + 2 = 3, and two equal ranks from
/// 3 up to 14 make the next rank. Rank 15 (12288) is the highest card and does not merge.
#[inline]
pub fn threes_merge(a: u8, b: u8) -> Option<u8> {
    match (a, b) {
        (1, 2) | (2, 1) => Some(3),
        _ if a == b && (3..MAX_RANK).contains(&a) => Some(a + 1),
        _ => None,
    }
}

/// The Threes line move toward position 0: the first position that is empty with a tile behind
/// it, or holds a tile the next one merges with, takes the next tile; every tile behind steps
/// one cell toward the wall; the far cell empties. At most one merge.
pub fn line_threes(line: [u8; 4]) -> [u8; 4] {
    let mut out = line;
    for i in 0..3 {
        let here = line[i];
        let next = line[i + 1];
        let merged = if here == 0 {
            if line[i + 1..].iter().all(|&r| r == 0) {
                // Nothing behind: the line is settled.
                return line;
            }
            next
        } else if let Some(m) = threes_merge(here, next) {
            m
        } else {
            continue;
        };
        out[i] = merged;
        out[i + 1..3].copy_from_slice(&line[i + 2..4]);
        out[3] = 0;
        return out;
    }
    line
}

/// The move tables of one rule set: for each of the 65,536 rows, the XOR that makes the move.
///
/// A zero entry means the line does not move. Left and right are stored for rows; up and down
/// for columns, already unpacked to column 0 of a board.
pub struct MoveTables {
    left: Box<[u16; ROWS]>,
    right: Box<[u16; ROWS]>,
    up: Box<[u64; ROWS]>,
    down: Box<[u64; ROWS]>,
}

impl std::fmt::Debug for MoveTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveTables").finish_non_exhaustive()
    }
}

impl MoveTables {
    /// Builds the tables from one line move (ranks from the wall outward, toward position 0).
    pub fn build(line_move: fn([u8; 4]) -> [u8; 4]) -> Self {
        let mut left = Box::new([0u16; ROWS]);
        let mut right = Box::new([0u16; ROWS]);
        let mut up = Box::new([0u64; ROWS]);
        let mut down = Box::new([0u64; ROWS]);
        for row in 0..=u16::MAX {
            let line = unpack_row(row);
            let result = pack_row(line_move(line));
            let rev_row = reverse_row(row);
            let rev_result = reverse_row(result);
            left[usize::from(row)] = row ^ result;
            right[usize::from(rev_row)] = rev_row ^ rev_result;
            up[usize::from(row)] = row_as_column(row) ^ row_as_column(result);
            down[usize::from(rev_row)] = row_as_column(rev_row) ^ row_as_column(rev_result);
        }
        Self {
            left,
            right,
            up,
            down,
        }
    }

    /// The board after the move `dir`, with no tile added. Equal to `board` when nothing moves.
    #[inline]
    pub fn slide(&self, board: Bits, dir: Direction) -> Bits {
        self.slide_lines(board, dir).0
    }

    /// The board after the move `dir`, and which lines moved: bit `i` is set when line `i`
    /// changed (rows for left and right, columns for up and down, numbered from 0).
    #[inline]
    pub fn slide_lines(&self, board: Bits, dir: Direction) -> (Bits, u8) {
        let mut ret = board;
        let mut moved = 0u8;
        match dir {
            Direction::Left | Direction::Right => {
                let table = if dir == Direction::Left {
                    &self.left
                } else {
                    &self.right
                };
                for i in 0..4 {
                    let x = table[((board >> (16 * i)) & ROW_MASK) as usize];
                    moved |= u8::from(x != 0) << i;
                    ret ^= u64::from(x) << (16 * i);
                }
            }
            Direction::Up | Direction::Down => {
                let table = if dir == Direction::Up {
                    &self.up
                } else {
                    &self.down
                };
                let t = transpose(board);
                for i in 0..4 {
                    let x = table[((t >> (16 * i)) & ROW_MASK) as usize];
                    moved |= u8::from(x != 0) << i;
                    ret ^= x << (4 * i);
                }
            }
        }
        (ret, moved)
    }
}

/// The 2048 tables, built on first use.
pub fn tables_2048() -> &'static MoveTables {
    static TABLES: OnceLock<MoveTables> = OnceLock::new();
    TABLES.get_or_init(|| MoveTables::build(line_2048))
}

/// The Threes tables, built on first use.
pub fn tables_threes() -> &'static MoveTables {
    static TABLES: OnceLock<MoveTables> = OnceLock::new();
    TABLES.get_or_init(|| MoveTables::build(line_threes))
}

/// A 2048 move on a bitboard: the board after sliding toward `dir`, no tile added.
#[inline]
pub fn move_2048(board: Bits, dir: Direction) -> Bits {
    tables_2048().slide(board, dir)
}

/// A Threes move on a bitboard: the board after shifting toward `dir`, no card added, and the
/// mask of the lines that moved (see [`MoveTables::slide_lines`]).
#[inline]
pub fn move_threes(board: Bits, dir: Direction) -> (Bits, u8) {
    tables_threes().slide_lines(board, dir)
}

/// The bit offset of the cell where a Threes card enters line `line` after the move `dir`: the
/// far edge, opposite the wall.
#[inline]
pub fn entry_offset(dir: Direction, line: usize) -> u32 {
    match dir {
        Direction::Left => cell_offset(line, 3),
        Direction::Right => cell_offset(line, 0),
        Direction::Up => cell_offset(3, line),
        Direction::Down => cell_offset(0, line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::to_board;
    use proptest::prelude::*;
    use tilebox_sliding::{Rules, builtin_rules};

    fn rules(id: &str) -> Rules {
        builtin_rules(id).unwrap()
    }

    fn board_strategy(max: u8) -> impl Strategy<Value = Bits> {
        proptest::collection::vec(0..=max, 16).prop_map(|ranks| {
            let mut grid = [[0u8; 4]; 4];
            for (i, r) in ranks.into_iter().enumerate() {
                grid[i / 4][i % 4] = r;
            }
            from_ranks(&grid)
        })
    }

    /// Compares the bitboard move with the sliding crate's `slide` on one board.
    fn check(rules: Rules, tables: &MoveTables, bits: Bits) -> Result<(), TestCaseError> {
        let board = to_board(&rules, bits);
        for dir in Direction::ALL {
            let slide = rules.slide(&board, dir);
            // A 2048 merge of two 32768s makes a rank the nibbles cannot hold; the AI treats
            // such tiles as unmergeable, and this comparison skips them.
            if slide.board.max_rank() > Rank::from(MAX_RANK) {
                continue;
            }
            let expected = encode(&slide.board).unwrap();
            let (got, moved) = tables.slide_lines(bits, dir);
            prop_assert_eq!(got, expected, "{:?} {:?}", dir, decode(bits));
            prop_assert_eq!(got != bits, slide.moved);
            let lines: Vec<usize> = (0..4).filter(|i| moved & (1 << i) != 0).collect();
            prop_assert_eq!(lines, slide.moved_lines.clone());
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn move_2048_matches_the_sliding_crate(bits in board_strategy(15)) {
            check(rules("2048"), tables_2048(), bits)?;
        }

        #[test]
        fn move_2048_matches_on_crowded_low_boards(bits in board_strategy(4)) {
            check(rules("2048"), tables_2048(), bits)?;
        }

        #[test]
        fn move_threes_matches_the_sliding_crate(bits in board_strategy(15)) {
            check(rules("threes"), tables_threes(), bits)?;
        }

        #[test]
        fn move_threes_matches_on_crowded_low_boards(bits in board_strategy(4)) {
            check(rules("threes"), tables_threes(), bits)?;
        }

        #[test]
        fn transpose_round_trips_and_swaps_cells(bits in any::<u64>()) {
            let t = transpose(bits);
            prop_assert_eq!(transpose(t), bits);
            for row in 0..4 {
                for col in 0..4 {
                    prop_assert_eq!(rank_at(t, col, row), rank_at(bits, row, col));
                }
            }
        }

        #[test]
        fn mirror_and_flip_move_every_cell(bits in any::<u64>()) {
            let (m, f) = (mirror(bits), flip(bits));
            prop_assert_eq!(mirror(m), bits);
            prop_assert_eq!(flip(f), bits);
            for row in 0..4 {
                for col in 0..4 {
                    prop_assert_eq!(rank_at(m, row, 3 - col), rank_at(bits, row, col));
                    prop_assert_eq!(rank_at(f, 3 - row, col), rank_at(bits, row, col));
                }
            }
        }

        #[test]
        fn encode_decode_round_trip(bits in board_strategy(15)) {
            let board = to_board(&rules("2048"), bits);
            prop_assert_eq!(encode(&board), Some(bits));
            prop_assert_eq!(from_ranks(&decode(bits)), bits);
            prop_assert_eq!(count_empty(bits) as usize, board.empty_cells().count());
            prop_assert_eq!(Rank::from(max_rank(bits)), board.max_rank());
        }
    }

    #[test]
    fn line_moves_follow_the_rule_examples() {
        // 2048, ranks: [2,2,2,2] -> [4,4,0,0]; [4,4,8,0] -> [8,8,0,0]; [2,0,2,4] -> [4,4,0,0].
        assert_eq!(line_2048([1, 1, 1, 1]), [2, 2, 0, 0]);
        assert_eq!(line_2048([2, 2, 3, 0]), [3, 3, 0, 0]);
        assert_eq!(line_2048([1, 0, 1, 2]), [2, 2, 0, 0]);
        assert_eq!(line_2048([1, 1, 1, 0]), [2, 1, 0, 0]);
        assert_eq!(line_2048([15, 15, 0, 0]), [15, 15, 0, 0]);
        // Threes: [0,0,0,3] -> [0,0,3,0]; [3,3,3,3] -> [6,3,3,0]; [1,2,1,2] -> [3,1,2,0].
        assert_eq!(line_threes([0, 0, 0, 3]), [0, 0, 3, 0]);
        assert_eq!(line_threes([3, 0, 0, 3]), [3, 0, 3, 0]);
        assert_eq!(line_threes([0, 3, 3, 0]), [3, 3, 0, 0]);
        assert_eq!(line_threes([3, 3, 3, 3]), [4, 3, 3, 0]);
        assert_eq!(line_threes([1, 2, 1, 2]), [3, 1, 2, 0]);
        assert_eq!(line_threes([3, 0, 0, 0]), [3, 0, 0, 0]);
        assert_eq!(line_threes([1, 1, 2, 2]), [1, 3, 2, 0]);
        assert_eq!(line_threes([1, 1, 1, 1]), [1, 1, 1, 1]);
        assert_eq!(line_threes([3, 4, 3, 4]), [3, 4, 3, 4]);
        assert_eq!(line_threes([15, 15, 0, 0]), [15, 15, 0, 0]);
    }

    #[test]
    fn encode_refuses_other_sides() {
        let board = rules("2048")
            .board_from_values(&[vec![0, 2, 0], vec![0; 3], vec![4, 0, 0]])
            .unwrap();
        assert_eq!(encode(&board), None);
        let big = rules("2048")
            .board_from_values(&[vec![65536, 0, 0, 0], vec![0; 4], vec![0; 4], vec![0; 4]])
            .unwrap();
        assert_eq!(encode(&big), None);
    }

    #[test]
    fn helpers_count_and_place() {
        let bits = from_ranks(&[[1, 0, 0, 0], [0, 3, 0, 0], [0, 0, 3, 0], [0, 0, 0, 9]]);
        assert_eq!(count_empty(bits), 12);
        assert_eq!(count_empty(0), 16);
        assert_eq!(max_rank(bits), 9);
        assert_eq!(rank_at(bits, 3, 3), 9);
        assert_eq!(cell_offset(3, 3), 60);
    }

    #[test]
    fn cards_enter_where_the_engine_puts_them() {
        for dir in Direction::ALL {
            for line in 0..4 {
                let cell = dir.entry_cell(4, line);
                assert_eq!(
                    entry_offset(dir, line),
                    cell_offset(cell.row, cell.col),
                    "{dir:?} line {line}"
                );
            }
        }
    }
}
