//! Threes' front end: how to play, the blue, red and white cards, and the card-counting AI.

use serde_json::json;
use tilebox_core::{Assistant, BoardColors, Fixtures, FrontEnd, Player, Rgb, TileColors};
use tilebox_sliding::{Threes, ThreesParams};

use crate::sliding::{AiPlayer, NONSENSE_SEED, nonsense};

/// What the player is told when the AI cannot search a Threes board.
pub const CANNOT_PLAY: &str =
    "the AI cannot play this board: it knows 4×4 boards with cards up to 12288";

/// The front end of Threes.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThreesFrontEnd;

impl FrontEnd<Threes> for ThreesFrontEnd {
    fn how_to_play(&self, _: &ThreesParams) -> String {
        "Slide the cards with the arrow keys, WASD or hjkl, or drag (swipe) on the board. \
Cards move one step at most. A 1 and a 2 make a 3; from 3 up, two equal cards make their double. \
A new card comes in from the edge you slid away from: the next one is shown above the board \
(\"+\" is a bonus card, worth 6 or more). The game ends when no move is left; the score counts \
every card of 3 and up."
            .to_string()
    }

    fn tile_colors(&self, value: u64) -> TileColors {
        match value {
            1 => TileColors {
                fill: Rgb::hex(0x66ccff),
                text: Rgb::hex(0xffffff),
                accent: Some(Rgb::hex(0x5aa9d6)),
            },
            2 => TileColors {
                fill: Rgb::hex(0xff6680),
                text: Rgb::hex(0xffffff),
                accent: Some(Rgb::hex(0xcc4f66)),
            },
            _ => {
                // White cards; the number turns red from 48 up, as in Threes, and the foot of
                // the card has a colour per value so that big cards are told apart at a glance.
                const FEET: [u32; 12] = [
                    0xffcc66, 0xffaa55, 0xff8844, 0xee6633, 0xcc4422, 0xaa3366, 0x884499, 0x5544aa,
                    0x3366bb, 0x2288aa, 0x229977, 0x111111,
                ];
                let step = (value.max(3) / 3).ilog2() as usize;
                TileColors {
                    fill: Rgb::hex(0xffffff),
                    text: if value >= 48 {
                        Rgb::hex(0xff3355)
                    } else {
                        Rgb::hex(0x222222)
                    },
                    accent: Some(Rgb::hex(FEET[step.min(FEET.len() - 1)])),
                }
            }
        }
    }

    fn board_colors(&self, dark: bool) -> BoardColors {
        if dark {
            BoardColors {
                frame: Rgb::hex(0x2f4a4f),
                empty: Rgb::hex(0x3b5b60),
            }
        } else {
            BoardColors {
                frame: Rgb::hex(0xbbd9d9),
                empty: Rgb::hex(0xcce6e6),
            }
        }
    }

    fn assistant(&self) -> Option<&dyn Assistant<Threes>> {
        Some(self)
    }

    fn fixtures(&self) -> Fixtures {
        Fixtures {
            seed: NONSENSE_SEED,
            nonsense: nonsense(),
            valid_params: vec![json!({}), json!({ "side": 2 }), json!({ "side": 8 })],
            invalid_params: vec![
                json!({ "side": 1 }),
                json!({ "side": 9 }),
                json!({ "side": 4, "win": 2048 }),
                json!({ "side": "x" }),
                json!(null),
            ],
        }
    }
}

impl Assistant<Threes> for ThreesFrontEnd {
    /// The AI's bitboards hold 4×4 boards.
    fn plays(&self, params: &ThreesParams) -> bool {
        params.side == 4
    }

    fn player(&self) -> Box<dyn Player<Threes>> {
        Box::new(AiPlayer::<Threes>::new(
            |engine, state, limits| engine.advise_threes(state, limits),
            CANNOT_PLAY,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_cards_have_distinct_feet() {
        let feet: Vec<_> = [3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144]
            .iter()
            .map(|&v| ThreesFrontEnd.tile_colors(v).accent)
            .collect();
        for (i, a) in feet.iter().enumerate() {
            for b in &feet[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
