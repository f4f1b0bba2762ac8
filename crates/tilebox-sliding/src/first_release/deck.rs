//! Where Threes cards come from: the 12-card deck and the occasional bonus card.

use tilebox_core::GameRng;

use crate::Rank;

/// Ranks of a full deck: four each of 1, 2 and 3 (ranks equal the values for these).
const FULL_DECK: [Rank; 12] = [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3];

/// The lowest highest tile for which bonus cards appear: rank 7, the tile 48.
const BONUS_FROM_RANK: Rank = 7;

/// A bonus card replaces a deck card with probability 1 in this.
const BONUS_ODDS: u32 = 21;

/// The lowest bonus card: rank 4, the tile 6.
const BONUS_MIN_RANK: Rank = 4;

/// The Threes deck: the cards not yet drawn, in the order they will come, last first.
/// Rebuilt and reshuffled when empty, so it never runs out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Deck {
    cards: Vec<Rank>,
}

impl Deck {
    /// An empty deck; the first draw builds and shuffles a full one.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Takes the top card, first rebuilding and shuffling the deck if it is empty.
    pub(crate) fn draw(&mut self, rng: &mut GameRng) -> Rank {
        loop {
            if let Some(card) = self.cards.pop() {
                return card;
            }
            // Refilling puts twelve cards in, so the loop runs at most twice.
            self.cards.extend_from_slice(&FULL_DECK);
            rng.shuffle(&mut self.cards);
        }
    }

    /// How many 1s, 2s and 3s are left before the next rebuild; `[0, 0, 0]` means the next
    /// draw starts a fresh deck.
    pub(crate) fn counts(&self) -> [u8; 3] {
        let mut counts = [0u8; 3];
        for &card in &self.cards {
            // Deck cards are ranks 1 to 3; anything else would not be counted.
            if let Some(n) = usize::from(card)
                .checked_sub(1)
                .and_then(|i| counts.get_mut(i))
            {
                *n += 1;
            }
        }
        counts
    }

    /// How many cards are left before the next rebuild.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.cards.len()
    }
}

/// Draws the next Threes card, as a rank, for a board whose highest rank is `highest`.
///
/// When the highest tile is at least 48, the card is with probability 1/21 a bonus card, uniform
/// among 6, 12, … up to highest/8, and the deck is left untouched; otherwise it is the deck's
/// next card. Both sources agree on this (Threesus `Game.cs` `DrawNextCard` and
/// `GetPossibleBonusCards`; nneonneo/threes-ai `threes.cpp` `play_game`).
pub(crate) fn draw_card(deck: &mut Deck, highest: Rank, rng: &mut GameRng) -> Rank {
    if highest >= BONUS_FROM_RANK && rng.chance(1, BONUS_ODDS) {
        // highest/8 is three ranks down; from 6 (rank 4) to it are `highest - 6` choices, at
        // least 1 here.
        let choices = u32::from(highest.saturating_sub(BONUS_MIN_RANK + 2));
        let offset = Rank::try_from(rng.below(choices)).unwrap_or(0);
        BONUS_MIN_RANK + offset
    } else {
        deck.draw(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::super::RuleSet;
    use super::*;

    /// How many 1s, 2s and 3s `cards` holds; fails on any other card, a bonus card included.
    fn counts(cards: &[Rank]) -> [usize; 3] {
        let mut n = [0; 3];
        for &c in cards {
            assert!((1..=3).contains(&c), "{c} is not a deck card: {cards:?}");
            n[usize::from(c - 1)] += 1;
        }
        n
    }

    #[test]
    fn every_twelve_draws_hold_four_of_each() {
        let mut rng = GameRng::from_seed(11);
        let mut deck = Deck::new();
        assert_eq!(deck.counts(), [0, 0, 0]);
        for _ in 0..50 {
            let mut cards = Vec::new();
            for drawn in 1..=12 {
                let card = deck.draw(&mut rng);
                cards.push(card);
                // The counts left are a full deck less the cards drawn since the rebuild.
                let [ones, twos, threes] = counts(&cards);
                let left = |n: usize| u8::try_from(4 - n).unwrap();
                assert_eq!(deck.counts(), [left(ones), left(twos), left(threes)]);
                assert_eq!(deck.len(), 12 - drawn);
            }
            assert_eq!(counts(&cards), [4, 4, 4], "{cards:?}");
        }
    }

    #[test]
    fn below_48_there_is_never_a_bonus() {
        let mut rng = GameRng::from_seed(12);
        let mut deck = Deck::new();
        for highest in 0..BONUS_FROM_RANK {
            // rank 6 is 24, the highest tile that still gives plain deck cards
            let cards: Vec<Rank> = (0..1200)
                .map(|_| draw_card(&mut deck, highest, &mut rng))
                .collect();
            // Each card by itself first: a bonus card (rank 4 or more) must never come.
            assert!(
                cards.iter().all(|&card| (1..=3).contains(&card)),
                "highest rank {highest}: {cards:?}"
            );
            for block in cards.chunks(12) {
                assert_eq!(counts(block), [4, 4, 4], "highest rank {highest}");
            }
        }
    }

    #[test]
    fn bonus_cards_come_one_in_21_in_range_without_using_the_deck() {
        let rules = RuleSet::Threes;
        let mut rng = GameRng::from_seed(13);
        for highest in [7, 8, 9, 12, 15] {
            let mut deck = Deck::new();
            let draws = 21_000;
            let mut bonus = Vec::new();
            let mut plain = Vec::new();
            for _ in 0..draws {
                let card = draw_card(&mut deck, highest, &mut rng);
                if card >= BONUS_MIN_RANK {
                    bonus.push(rules.value(card));
                } else {
                    plain.push(card);
                }
            }
            // Expected 1000; the standard deviation is about 31.
            assert!(
                (850..1150).contains(&bonus.len()),
                "{} bonus cards",
                bonus.len()
            );
            let top = rules.value(highest) / 8;
            let allowed: Vec<u64> = std::iter::successors(Some(6u64), |v| Some(v * 2))
                .take_while(|&v| v <= top)
                .collect();
            assert!(
                bonus.iter().all(|v| allowed.contains(v)),
                "{highest}: {allowed:?}"
            );
            // Every allowed value turns up, roughly equally often.
            for v in &allowed {
                let n = bonus.iter().filter(|&b| b == v).count();
                let expected = bonus.len() / allowed.len();
                assert!(
                    n * 10 > expected * 6 && n * 10 < expected * 14,
                    "{v}: {n} of {expected}"
                );
            }
            // Bonus cards skip the deck: the deck cards still come four of each per twelve.
            for block in plain.chunks_exact(12) {
                assert_eq!(counts(block), [4, 4, 4]);
            }
        }
    }

    #[test]
    fn at_48_the_only_bonus_is_6_and_at_96_it_is_6_or_12() {
        let mut rng = GameRng::from_seed(14);
        let mut deck = Deck::new();
        let at_48: Vec<Rank> = (0..2000)
            .map(|_| draw_card(&mut deck, 7, &mut rng))
            .collect();
        assert!(at_48.iter().all(|&c| c <= 4));
        assert!(at_48.contains(&4));
        let at_96: Vec<Rank> = (0..2000)
            .map(|_| draw_card(&mut deck, 8, &mut rng))
            .collect();
        assert!(at_96.iter().all(|&c| c <= 5));
        assert!(at_96.contains(&4) && at_96.contains(&5));
    }
}
