//! 2048's front end: how to play (with the winning tile of the entry), the original's warm
//! palette, and the expectimax AI.

use serde_json::json;
use tilebox_core::{Assistant, Fixtures, FrontEnd, Player, Rgb, TileColors};
use tilebox_sliding::{Game2048, Game2048Params};

use crate::sliding::{AiPlayer, NONSENSE_SEED, nonsense};

/// What the player is told when the AI cannot search a 2048 board.
pub const CANNOT_PLAY: &str =
    "the AI cannot play this board: it knows 4×4 boards with tiles up to 32768";

/// The front end of 2048 and its board sizes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Twenty48FrontEnd;

impl FrontEnd<Game2048> for Twenty48FrontEnd {
    fn how_to_play(&self, params: &Game2048Params) -> String {
        format!(
            "Slide all tiles with the arrow keys, WASD or hjkl, or drag (swipe) on the board. \
Two tiles of the same number that meet merge into their sum, and the sum is added to your score. \
After every move a 2 or a 4 appears. Make a {win} tile to win, then keep going if you like; the \
game ends when no move is left. This board is {side}×{side}.",
            win = params.win,
            side = params.side
        )
    }

    fn tile_colors(&self, value: u64) -> TileColors {
        const DARK_TEXT: Rgb = Rgb::hex(0x776e65);
        const LIGHT_TEXT: Rgb = Rgb::hex(0xf9f6f2);
        let (fill, text) = match value {
            2 => (Rgb::hex(0xeee4da), DARK_TEXT),
            4 => (Rgb::hex(0xede0c8), DARK_TEXT),
            8 => (Rgb::hex(0xf2b179), LIGHT_TEXT),
            16 => (Rgb::hex(0xf59563), LIGHT_TEXT),
            32 => (Rgb::hex(0xf67c5f), LIGHT_TEXT),
            64 => (Rgb::hex(0xf65e3b), LIGHT_TEXT),
            128 => (Rgb::hex(0xedcf72), LIGHT_TEXT),
            256 => (Rgb::hex(0xedcc61), LIGHT_TEXT),
            512 => (Rgb::hex(0xedc850), LIGHT_TEXT),
            1024 => (Rgb::hex(0xedc53f), LIGHT_TEXT),
            2048 => (Rgb::hex(0xedc22e), LIGHT_TEXT),
            _ => {
                // 4096 and up: dark tiles, a different hue for each doubling.
                const BIG: [u32; 8] = [
                    0x3c3a32, 0x5b3a7a, 0x2a5d8f, 0x1f7a5a, 0x8a2b4f, 0x7a5a1f, 0x2b2b6e, 0x000000,
                ];
                let step = value.max(4096).ilog2().saturating_sub(12) as usize;
                (Rgb::hex(BIG[step.min(BIG.len() - 1)]), LIGHT_TEXT)
            }
        };
        TileColors {
            fill,
            text,
            accent: None,
        }
    }

    fn assistant(&self) -> Option<&dyn Assistant<Game2048>> {
        Some(self)
    }

    fn fixtures(&self) -> Fixtures {
        Fixtures {
            seed: NONSENSE_SEED,
            nonsense: nonsense(),
            valid_params: vec![
                json!({}),
                json!({ "side": 2 }),
                json!({ "side": 8, "win": 8 }),
                json!({ "side": 3, "win": 512 }),
            ],
            invalid_params: vec![
                json!({ "side": 1 }),
                json!({ "side": 9 }),
                json!({ "win": 3 }),
                json!({ "win": 2 }),
                json!({ "win": 4 }),
                json!({ "side": 4, "bonus": true }),
                json!(null),
                json!("4x4"),
            ],
        }
    }
}

impl Assistant<Game2048> for Twenty48FrontEnd {
    /// The AI's bitboards hold 4×4 boards.
    fn plays(&self, params: &Game2048Params) -> bool {
        params.side == 4
    }

    fn player(&self) -> Box<dyn Player<Game2048>> {
        Box::new(AiPlayer::<Game2048>::new(
            |engine, state, limits| engine.advise_2048(state, limits),
            CANNOT_PLAY,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_tiles_are_all_different() {
        let front = Twenty48FrontEnd;
        let fills: Vec<_> = (12..=19).map(|p| front.tile_colors(1 << p).fill).collect();
        for (i, a) in fills.iter().enumerate() {
            for b in &fills[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_ne!(front.tile_colors(2048).fill, fills[0]);
    }

    #[test]
    fn the_help_names_the_entrys_winning_tile_and_board() {
        let help = Twenty48FrontEnd.how_to_play(&Game2048Params { side: 3, win: 512 });
        assert!(help.contains("Make a 512 tile to win"), "{help}");
        assert!(help.contains("3×3"), "{help}");
    }
}
