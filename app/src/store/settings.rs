//! The settings the player picks, kept in `settings.json`: the theme, the zoom and autoplay's
//! speed.

use std::time::Duration;

use egui::ThemePreference;
use serde::{Deserialize, Serialize};

/// The settings file (theme, zoom, autoplay's speed).
pub const SETTINGS_FILE: &str = "settings.json";

/// The version of `settings.json` this build reads and writes.
pub(crate) const SETTINGS_VERSION: u32 = 1;

/// What `settings.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Settings {
    version: u32,
    /// The theme choice.
    #[serde(default)]
    pub theme: ThemeChoice,
    /// The player's zoom, in percent (Ctrl+= / Ctrl+- / Ctrl+0).
    #[serde(default = "hundred")]
    pub zoom: u32,
    /// Autoplay's speed (files written before it was kept read as the default, Normal).
    #[serde(default)]
    pub speed: Speed,
    /// Fields a newer Tilebox wrote that this build does not know: kept on every rewrite.
    #[serde(flatten)]
    unknown: serde_json::Map<String, serde_json::Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            version: SETTINGS_VERSION,
            theme: ThemeChoice::System,
            zoom: hundred(),
            speed: Speed::default(),
            unknown: serde_json::Map::new(),
        }
    }
}

impl Settings {
    /// The settings as this build writes them: its version, whatever version was read.
    pub(crate) fn to_write(&self) -> Self {
        Settings {
            version: SETTINGS_VERSION,
            ..self.clone()
        }
    }
}

fn hundred() -> u32 {
    100
}

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

/// How fast autoplay plays; kept in `settings.json` as `"slow"`, `"normal"` or `"fast"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    /// A move each 0.7 s, to watch and learn from.
    Slow,
    /// A move each 0.3 s: each move's animation plays out.
    #[default]
    Normal,
    /// As fast as it thinks, up to a move each 20 ms (50 a second): animations are cut short,
    /// and where frames are slower than moves, a frame plays several.
    Fast,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 3] = [Speed::Slow, Speed::Normal, Speed::Fast];

    /// Its name in the speed menu.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Slow => "Slow",
            Speed::Normal => "Normal",
            Speed::Fast => "Fast",
        }
    }

    /// The time from one move to the next, in seconds, by the clock whatever the frame rate:
    /// at Fast the least, for the AI may take longer to answer.
    pub fn interval(self) -> f64 {
        match self {
            Speed::Slow => 0.7,
            Speed::Normal => 0.3,
            Speed::Fast => 0.02,
        }
    }

    /// How many moves the AI may play ahead of the board: two seconds of moves, so that a
    /// frame as slow as a second still finds every move due in it.
    pub fn ahead(self) -> usize {
        // At most 100 (Fast); a few at least.
        ((2.0 / self.interval()).ceil() as usize).clamp(4, 100)
    }

    /// How long each move thinks.
    pub fn think(self) -> Duration {
        match self {
            Speed::Slow => Duration::from_millis(150),
            Speed::Normal => Duration::from_millis(60),
            Speed::Fast => Duration::from_millis(20),
        }
    }
}
