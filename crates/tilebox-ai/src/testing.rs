//! Test helpers shared by the modules' tests: engine boards, chi-square.

use tilebox_sliding::{Board, Rules};

use crate::bitboard::{Bits, decode, encode};

/// The engine board of a packed board.
pub fn to_board(rules: &Rules, bits: Bits) -> Board {
    let values: Vec<Vec<u64>> = decode(bits)
        .iter()
        .map(|row| row.iter().map(|&r| rules.value(r.into())).collect())
        .collect();
    rules.board_from_values(&values).unwrap()
}

/// The packed board of an engine board (4×4, ranks up to 15).
pub fn bits_of(board: &Board) -> Bits {
    encode(board).unwrap()
}

/// Pearson's chi-square statistic of observed counts against expected ones, over the
/// categories expected at least `min_expected` times; a category expected never must not be
/// seen.
pub fn chi_square(seen: &[f64], expected: &[f64], min_expected: f64) -> f64 {
    assert_eq!(seen.len(), expected.len());
    let mut stat = 0.0;
    for (&o, &e) in seen.iter().zip(expected) {
        if e == 0.0 {
            assert_eq!(o, 0.0, "seen {o} times, expected never");
        } else if e >= min_expected {
            stat += (o - e) * (o - e) / e;
        }
    }
    stat
}
