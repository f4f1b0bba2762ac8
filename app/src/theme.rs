//! Colours: the light/dark preference, and the tile palettes of each game.

use egui::{Color32, ThemePreference};
use serde::{Deserialize, Serialize};

/// The player's theme choice, kept in `settings.json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeChoice {
    /// Follow the system's light or dark mode.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl ThemeChoice {
    /// The next choice, for the toggle button: system, light, dark, system...
    pub fn next(self) -> Self {
        match self {
            Self::System => Self::Light,
            Self::Light => Self::Dark,
            Self::Dark => Self::System,
        }
    }

    /// The button's text (also its accessible label).
    pub fn label(self) -> &'static str {
        match self {
            Self::System => "Theme: system",
            Self::Light => "Theme: light",
            Self::Dark => "Theme: dark",
        }
    }

    /// egui's preference for this choice.
    pub fn preference(self) -> ThemePreference {
        match self {
            Self::System => ThemePreference::System,
            Self::Light => ThemePreference::Light,
            Self::Dark => ThemePreference::Dark,
        }
    }
}

/// The colours of one tile: background and number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileColors {
    /// The tile's face.
    pub fill: Color32,
    /// The number on it.
    pub text: Color32,
    /// An accent stripe at the foot of the tile, for values that share a face colour.
    pub accent: Option<Color32>,
}

const fn hex(rgb: u32) -> Color32 {
    Color32::from_rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

/// The colour of hints: the arrow over a sliding board, the ring around Strike 9's best tiles.
/// A violet that no tile uses, readable on light and dark backgrounds.
pub const HINT: Color32 = hex(0x8a4fff);

/// The colours of the board behind the tiles: (board, empty cell).
pub fn board_colors(game: &str, dark: bool) -> (Color32, Color32) {
    match (game, dark) {
        ("threes", false) => (hex(0xbbd9d9), hex(0xcce6e6)),
        ("threes", true) => (hex(0x2f4a4f), hex(0x3b5b60)),
        (_, false) => (hex(0xbbada0), hex(0xcdc1b4)),
        (_, true) => (hex(0x4a423b), hex(0x5e554c)),
    }
}

/// The colours of a tile of `value` in game `game` (2048's warm palette, Threes' blue 1, red 2
/// and white 3+). Every value above 2048 gets its own colour, so big tiles stay distinguishable.
pub fn tile_colors(game: &str, value: u64) -> TileColors {
    if game == "threes" {
        return threes_colors(value);
    }
    const DARK_TEXT: Color32 = hex(0x776e65);
    const LIGHT_TEXT: Color32 = hex(0xf9f6f2);
    let (fill, text) = match value {
        2 => (hex(0xeee4da), DARK_TEXT),
        4 => (hex(0xede0c8), DARK_TEXT),
        8 => (hex(0xf2b179), LIGHT_TEXT),
        16 => (hex(0xf59563), LIGHT_TEXT),
        32 => (hex(0xf67c5f), LIGHT_TEXT),
        64 => (hex(0xf65e3b), LIGHT_TEXT),
        128 => (hex(0xedcf72), LIGHT_TEXT),
        256 => (hex(0xedcc61), LIGHT_TEXT),
        512 => (hex(0xedc850), LIGHT_TEXT),
        1024 => (hex(0xedc53f), LIGHT_TEXT),
        2048 => (hex(0xedc22e), LIGHT_TEXT),
        _ => {
            // 4096 and up: dark tiles, a different hue for each doubling.
            const BIG: [u32; 8] = [
                0x3c3a32, 0x5b3a7a, 0x2a5d8f, 0x1f7a5a, 0x8a2b4f, 0x7a5a1f, 0x2b2b6e, 0x000000,
            ];
            let step = value.max(4096).ilog2().saturating_sub(12) as usize;
            (hex(BIG[step.min(BIG.len() - 1)]), LIGHT_TEXT)
        }
    };
    TileColors {
        fill,
        text,
        accent: None,
    }
}

fn threes_colors(value: u64) -> TileColors {
    match value {
        1 => TileColors {
            fill: hex(0x66ccff),
            text: Color32::WHITE,
            accent: Some(hex(0x5aa9d6)),
        },
        2 => TileColors {
            fill: hex(0xff6680),
            text: Color32::WHITE,
            accent: Some(hex(0xcc4f66)),
        },
        _ => {
            // White cards; the number turns red from 48 up, as in Threes, and the foot of the
            // card has a colour per value so that big cards are told apart at a glance.
            const FEET: [u32; 12] = [
                0xffcc66, 0xffaa55, 0xff8844, 0xee6633, 0xcc4422, 0xaa3366, 0x884499, 0x5544aa,
                0x3366bb, 0x2288aa, 0x229977, 0x111111,
            ];
            let step = (value.max(3) / 3).ilog2() as usize;
            TileColors {
                fill: Color32::WHITE,
                text: if value >= 48 {
                    hex(0xff3355)
                } else {
                    hex(0x222222)
                },
                accent: Some(hex(FEET[step.min(FEET.len() - 1)])),
            }
        }
    }
}

/// A font size at which `text` fits in a tile of side `side`, whatever its length.
pub fn tile_font_size(text: &str, side: f32) -> f32 {
    let len = text.chars().count().max(1) as f32;
    side * (0.5f32).min(1.1 / len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_2048_tiles_are_all_different() {
        let fills: Vec<_> = (12..=19)
            .map(|p| tile_colors("2048", 1 << p).fill)
            .collect();
        for (i, a) in fills.iter().enumerate() {
            for b in &fills[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_ne!(tile_colors("2048", 2048).fill, fills[0]);
    }

    #[test]
    fn threes_big_cards_have_distinct_feet() {
        let feet: Vec<_> = [3, 6, 12, 24, 48, 96, 192, 384, 768, 1536, 3072, 6144]
            .iter()
            .map(|&v| tile_colors("threes", v).accent)
            .collect();
        for (i, a) in feet.iter().enumerate() {
            for b in &feet[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn long_numbers_get_smaller_fonts() {
        assert!(tile_font_size("131072", 100.0) * 6.0 * 0.6 < 100.0);
        assert!(tile_font_size("2", 100.0) <= 50.0);
    }
}
