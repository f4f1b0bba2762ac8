//! [`Dice`]: one die or two, the player's choice before a roll where the variant allows one die,
//! and the chances of the totals each makes.

use std::fmt;
use std::str::FromStr;

use tilebox_core::ParseMoveError;

/// How many dice a roll throws: the standard two, or one where the variant allows it.
///
/// As a move (the choice before the roll) its text is `1d` or `2d`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dice {
    /// One die: totals 1 to 6, each one way in 6.
    One,
    /// Two dice: totals 2 to 12, `6 − |t − 7|` ways in 36.
    Two,
}

impl Dice {
    /// Both choices, one die first: the order of the legal moves while the choice is pending.
    pub const BOTH: [Dice; 2] = [Dice::One, Dice::Two];

    /// How many dice: 1 or 2.
    pub fn count(self) -> usize {
        match self {
            Dice::One => 1,
            Dice::Two => 2,
        }
    }

    /// How many equally likely outcomes a roll has: 6 or 36.
    pub fn outcomes(self) -> u64 {
        match self {
            Dice::One => 6,
            Dice::Two => 36,
        }
    }

    /// In how many of the [`Dice::outcomes`] the dice make `total`: 1 for 1 to 6 with one die;
    /// `6 − |t − 7|` for 2 to 12 with two; 0 for a total these dice cannot make.
    pub fn ways(self, total: u32) -> u64 {
        match self {
            Dice::One if (1..=6).contains(&total) => 1,
            Dice::Two if (2..=12).contains(&total) => 6 - u64::from(total.abs_diff(7)),
            _ => 0,
        }
    }

    /// The totals these dice make, lowest first.
    pub fn totals(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Dice::One => 1..=6,
            Dice::Two => 2..=12,
        }
    }

    /// The chance that these dice make `total`, `ways / outcomes`, for display.
    pub fn chance(self, total: u32) -> f64 {
        self.ways(total) as f64 / self.outcomes() as f64
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dice::One => "1d",
            Dice::Two => "2d",
        })
    }
}

impl FromStr for Dice {
    type Err = ParseMoveError;

    /// Reads `1d` or `2d` (surrounding white space ignored).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "1d" => Ok(Dice::One),
            "2d" => Ok(Dice::Two),
            _ => Err(ParseMoveError::new(
                s,
                "expected 1d (one die) or 2d (two dice)",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ways_add_up_to_the_outcomes_and_match_every_throw() {
        for dice in Dice::BOTH {
            let sum: u64 = (0..=20).map(|t| dice.ways(t)).sum();
            assert_eq!(sum, dice.outcomes());
            let sum: u64 = dice.totals().map(|t| dice.ways(t)).sum();
            assert_eq!(sum, dice.outcomes());
        }
        for total in 0..=20u32 {
            let one = (1..=6u32).filter(|&a| a == total).count() as u64;
            assert_eq!(Dice::One.ways(total), one);
            let two = (1..=6u32)
                .flat_map(|a| (1..=6u32).map(move |b| a + b))
                .filter(|&s| s == total)
                .count() as u64;
            assert_eq!(Dice::Two.ways(total), two);
        }
        assert_eq!(Dice::Two.ways(u32::MAX), 0);
        assert_eq!(Dice::Two.chance(7), 6.0 / 36.0);
        assert_eq!(Dice::One.chance(7), 0.0);
        assert_eq!(Dice::One.count() + Dice::Two.count(), 3);
    }

    #[test]
    fn text_round_trips_and_refuses_anything_else() {
        for dice in Dice::BOTH {
            assert_eq!(dice.to_string().parse::<Dice>(), Ok(dice));
        }
        assert_eq!(" 1d ".parse::<Dice>(), Ok(Dice::One));
        for bad in ["", "1", "d", "3d", "1D", "1 d", "2d2"] {
            let err = bad.parse::<Dice>().unwrap_err();
            assert_eq!(err.input, bad);
            assert!(err.reason.contains("1d"), "{}", err.reason);
        }
    }
}
