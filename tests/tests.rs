//! Tests across the crates, in one test binary (as ripgrep does): every registered game played
//! through the object-safe layer, bad saves and arbitrary input, and golden text forms that pin
//! what a seed means.

// Helpers outside #[test] functions panic too: in a test, a panic is the failure report.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod catalogue;
mod golden;
mod saves;

/// A small deterministic stream for choosing moves in tests (SplitMix64), kept apart from the
/// games' own generator so that tests do not lean on its internals.
pub struct Picker(u64);

impl Picker {
    /// A stream from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A number in `0..n` (`n` > 0); a little modulo bias is harmless here.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}
