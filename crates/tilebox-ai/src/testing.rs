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

/// A small network ([`crate::network::Layout::small`], with the preview's family when
/// `preview`) whose weights are set by a fixed walk over pseudo-random boards: no training, yet
/// every board has a value of its own, so that moves differ.
pub fn small_network(preview: bool, seed: u64) -> crate::network::PlayNetwork {
    use crate::network::{Layout, Network, PlayNetwork};
    let network = Network::new(&Layout::small(preview), 0.0);
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..20_000 {
        // xorshift64*
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let r = x.wrapping_mul(0x2545_F491_4F6C_DD1D);
        // Ranks 0 to 7 in each cell; the preview class in 0 to 3.
        let board = r & 0x7777_7777_7777_7777;
        let class = (r >> 61) as u8 & 3;
        let delta = ((r >> 40) & 0xFF) as f32 - 100.0;
        network.adjust(board, if preview { class } else { 0 }, delta);
    }
    PlayNetwork::quantize(&network)
}

/// Checks a search's values of the moves against a plain computation's, in order, each within
/// `relative` of its size (at least 1); returns how many were compared. `what` names the
/// position in a failure.
pub fn assert_values_match(
    got: &[(tilebox_sliding::Direction, f64)],
    want: &[f64],
    relative: f64,
    what: &dyn std::fmt::Display,
) -> usize {
    assert_eq!(got.len(), want.len(), "{what}");
    for (&(dir, got), &want) in got.iter().zip(want) {
        let tolerance = relative * want.abs().max(1.0);
        assert!(
            (got - want).abs() <= tolerance,
            "{what} {dir:?}: {got} vs {want}"
        );
    }
    got.len()
}

/// 2048 whose tiles spawn as 16384s and 32768s: a game that begins a second stage at once and
/// makes a tile beyond a nibble (the fast trainer hands it to the engine's path).
pub fn big_spawning_2048() -> tilebox_sliding::Variant {
    tilebox_sliding::Variant::from_text(
        &include_str!("../../tilebox-sliding/variants/2048.json")
            .replace(r#""id": "2048""#, r#""id": "big""#)
            .replace(r#"{"2": 9, "4": 1}"#, r#"{"16384": 1, "32768": 1}"#),
    )
    .unwrap()
}
