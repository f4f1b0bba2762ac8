//! The random generator every game draws from, with a fixed algorithm so that a seed means the
//! same game on every platform and every release.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A seeded random stream, stored inside game states.
///
/// The algorithm is fixed and documented, so that a seed means the same game forever:
/// - the 64-bit seed is expanded to a 32-byte ChaCha key by SplitMix64 (four outputs, each
///   written little-endian);
/// - numbers come from ChaCha8 (`rand_chacha::ChaCha8Rng`, stream 0);
/// - [`GameRng::below`] draws a 32-bit word and rejects the few values that would bias the
///   result, then takes the remainder;
/// - [`GameRng::shuffle`] is Fisher–Yates from the last element down, using [`GameRng::below`].
///
/// None of this goes through `rand`'s distributions, whose exact outputs may change between
/// `rand` releases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// The stream for `seed`.
    pub fn from_seed(seed: u64) -> Self {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        Self(ChaCha8Rng::from_seed(key))
    }

    /// A uniformly random number in `0..n`. Returns 0 when `n` is 0.
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        // Values below `2^32 mod n` would make small results more likely; draw again.
        let threshold = n.wrapping_neg() % n;
        loop {
            let x = self.0.next_u32();
            if x >= threshold {
                return x % n;
            }
        }
    }

    /// A uniformly random index into a slice of `len` elements. Returns 0 when `len` is 0.
    pub fn index(&mut self, len: usize) -> usize {
        // Game collections are tiny; saturating keeps this total for absurd lengths.
        self.below(u32::try_from(len).unwrap_or(u32::MAX)) as usize
    }

    /// True with probability `numerator / denominator` (false when `denominator` is 0).
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        denominator != 0 && self.below(denominator) < numerator
    }

    /// Shuffles `items` in place, every order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

/// One step of SplitMix64 (Steele, Lea and Flood), the usual way to spread a 64-bit seed.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_different_seeds_differ() {
        let draw = |seed| {
            let mut rng = GameRng::from_seed(seed);
            (0..16).map(|_| rng.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    #[test]
    fn splitmix_matches_the_reference_outputs() {
        // Reference values from the SplitMix64 paper's C code, seed 0.
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = GameRng::from_seed(1);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let x = rng.below(6) as usize;
            assert!(x < 6);
            seen[x] += 1;
        }
        // Each face within 20% of its expected 1000.
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn chance_edges() {
        let mut rng = GameRng::from_seed(2);
        assert!((0..100).all(|_| !rng.chance(0, 10)));
        assert!((0..100).all(|_| rng.chance(10, 10)));
        assert!(!rng.chance(1, 0));
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = GameRng::from_seed(3);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
        rng.shuffle::<u8>(&mut []);
    }

    #[test]
    fn survives_a_serde_round_trip_mid_stream() {
        let mut rng = GameRng::from_seed(4);
        rng.below(10);
        let json = serde_json::to_string(&rng).unwrap();
        let mut back: GameRng = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rng);
        assert_eq!(back.below(1 << 30), rng.below(1 << 30));
    }
}
