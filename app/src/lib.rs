//! Tilebox, the desktop app: a launcher over every registered game, a view per kind of game, and
//! scores and games in progress kept safely on disk.
//!
//! - [`app`]: the shell ([`TileboxApp`]): screens, commands (new game, undo, redo, back), the
//!   score table and the saves.
//! - [`launcher`]: one card per game of [`tilebox_games::registry`].
//! - [`views`]: the sliding-board view (2048, Threes), the Strike 9 view, and a plain view for
//!   any other game.
//! - [`storage`] and [`scores`]: atomic JSON files, quarantine of unreadable ones, merge on write.
//! - [`theme`] and [`help`]: colours and the "How to play" texts.

pub mod advisor;
pub mod app;
pub mod help;
pub mod launcher;
pub mod scores;
pub mod storage;
pub mod theme;
pub mod views;

pub use app::{Screen, TileboxApp};

/// The directory Tilebox keeps its files in: `<data dir>/tilebox` (on Linux
/// `$XDG_DATA_HOME/tilebox`, by default `~/.local/share/tilebox`).
pub fn default_data_dir() -> Option<std::path::PathBuf> {
    dirs::data_dir().map(|d| d.join("tilebox"))
}
