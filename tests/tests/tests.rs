//! Tests across the crates, in one test binary (as ripgrep does): every registered entry played
//! through the object-safe layer, each kind's fixtures, bad saves and arbitrary input, the
//! previous release's files, and golden text forms that pin what a seed means.
//!
//! The checks over a catalogue are functions of a `&Registry`, run by `on_both_registries!`
//! once on the real catalogue and once on the real catalogue with the toy kind of the tests
//! (`tilebox_tests::toy`), so that they are known to take any kind, not just today's.

// Helpers outside #[test] functions panic too: in a test, a panic is the failure report.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

/// Two tests per check `fn name(registry: &Registry)` named: `real::name`, on
/// `tilebox_games::registry()`, and `with_toy::name`, on the real catalogue followed by the toy.
macro_rules! on_both_registries {
    ($($check:ident),* $(,)?) => {
        mod real {
            $(
                #[test]
                fn $check() {
                    super::$check(&tilebox_games::registry());
                }
            )*
        }
        mod with_toy {
            $(
                #[test]
                fn $check() {
                    super::$check(&tilebox_tests::toy::catalogue_with_toy());
                }
            )*
        }
    };
}

mod catalogue;
mod circles;
mod codes;
mod docs;
mod fixtures;
mod golden;
mod release;
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
