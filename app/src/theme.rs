//! Colours: the light/dark preference, and egui's colours for the palettes the game kinds' front
//! ends give ([`tilebox_core::FrontEnd::tile_colors`]).

use egui::{Color32, ThemePreference};
use serde::{Deserialize, Serialize};
use tilebox_core::Rgb;

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

const fn hex(rgb: u32) -> Color32 {
    Color32::from_rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

/// egui's colour for a front end's [`Rgb`].
pub const fn color(rgb: Rgb) -> Color32 {
    Color32::from_rgb(rgb.0, rgb.1, rgb.2)
}

/// The colour of hints: the arrow over a sliding board, the ring around Strike 9's best tiles.
/// A violet that no tile uses, readable on light and dark backgrounds.
pub const HINT: Color32 = hex(0x8a4fff);

/// A font size at which `text` fits in a tile of side `side`, whatever its length.
pub fn tile_font_size(text: &str, side: f32) -> f32 {
    let len = text.chars().count().max(1) as f32;
    side * (0.5f32).min(1.1 / len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_numbers_get_smaller_fonts() {
        assert!(tile_font_size("131072", 100.0) * 6.0 * 0.6 < 100.0);
        assert!(tile_font_size("2", 100.0) <= 50.0);
    }
}
