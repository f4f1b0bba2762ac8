//! Tilebox, the desktop app: a launcher over every registered game, a view per kind of game, and
//! scores and games in progress kept safely on disk.
//!
//! The modules are layers, each using only those below it (ARCHITECTURE.md, "The app's
//! layers"):
//!
//! - `web` (in a browser page only): the page's shell around [`TileboxApp`], over the
//!   browser's storage; `web/` is the page's entry.
//! - [`app`]: the shell ([`TileboxApp`]): it holds what the screens share (the screen shown,
//!   the store, the registry and the games' slots), hands each frame's input to the screen
//!   shown, and carries out the actions the screens return (open, back, play a move, start a
//!   game, write), once for all.
//! - [`screens`]: the screens as types (the launcher and its cards, a game, statistics, a
//!   replay, and the dialogs, "How to play" and the bar around a board); each owns its state,
//!   draws itself and returns actions, and never uses the shell.
//! - [`work`]: what runs beside the window: the AI on a thread of its own ([`work::advisor`]),
//!   the trainer, hints and autoplay, the pace of autoplay and replays, and each frame's cost in
//!   the log.
//! - `slot`: a game as the app holds it (entry, session, tally, view, history).
//! - [`views`]: the sliding-board view (2048, Threes), the Strike 9 view, and a plain view for
//!   any other game.
//! - [`ui`]: keys turned into commands, colours and the look of widgets, what a sliding tile
//!   writes at its size, and the window of a second copy.
//! - [`store`]: every file behind one type: the settings, the score table, games in progress,
//!   the histories and their statistics, the player's variant files, the one-writer lock and
//!   the one writer thread every write goes through, so the window never waits (in a
//!   page, the same writer on the frame; one tab per browser writes: `store::lock::TabLock`).
//! - [`work_mode`]: whether work runs on threads of its own (the desktop) or on the frame (a
//!   page): the writer and the AI ask it.

pub mod app;
pub mod screens;
mod slot;
pub mod store;
pub mod ui;
pub mod views;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod work;
pub mod work_mode;

pub use app::TileboxApp;
pub use screens::Screen;
pub use screens::chrome::{REPLAY_LABEL, STATS_LABEL, speed_label};

/// The directory Tilebox keeps its files in: `<data dir>/tilebox` (on Linux
/// `$XDG_DATA_HOME/tilebox`, by default `~/.local/share/tilebox`).
pub fn default_data_dir() -> Option<std::path::PathBuf> {
    dirs::data_dir().map(|d| d.join("tilebox"))
}
