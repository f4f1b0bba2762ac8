//! Tilebox, the desktop app: a launcher over every registered game, a view per kind of game, and
//! scores and games in progress kept safely on disk.
//!
//! - [`app`]: the shell ([`TileboxApp`]): it holds the screen shown, the store, the registry and
//!   the games' slots (`slot`), hands each frame's input to the screen shown, and carries out
//!   the actions the screens return (open, back, play a move, start a game, write), once for
//!   all. [`input`] reads keys, turns them into commands and hands them over between screens;
//!   `assist` drives hints and autoplay.
//! - `screens`: the screens as types (the launcher, a game, statistics, a replay, and the
//!   dialogs); each owns its state, draws itself and returns actions, and never uses the shell.
//!   They draw with `chrome` (the bar, the messages and the questions around a board),
//!   [`launcher`] (one card per game of [`tilebox_games::registry`]), [`stats_view`],
//!   [`replay`] and [`views`].
//! - `store`: every file behind one type (scores, saves, histories, settings, and the writer).
//!   Arrows point one way: shell → screens → drawing modules and slots; shell → store → files.
//! - [`views`]: the sliding-board view (2048, Threes), the Strike 9 view, and a plain view for
//!   any other game.
//! - [`advisor`]: the AI on a thread of its own, so the window never waits for a search (in a
//!   page, a search at a time on the frame: [`work_mode`]).
//! - [`pace`]: the clock of autoplay's moves and a replay's steps, so that a slow frame makes
//!   every step due in it.
//! - [`lock`]: one writer per data directory (in a page, one tab per browser:
//!   [`lock::TabLock`]); [`refusal`]: the window of a second copy (or tab).
//! - [`storage`], [`scores`], [`saves`] and [`tally`]: atomic JSON files, quarantine of
//!   unreadable ones, the score table, games in progress, and what each game has counted in the
//!   table.
//! - [`history`]: every game that ended or was abandoned after a move, one line each, appended
//!   to `history/<id>.jsonl` and read at start-up on a thread of its own.
//! - [`writer`]: the one writer thread every write goes through, so the window never waits (in
//!   a page, the same writer on the frame).
//! - [`variants`]: the player's own sliding variant files, and a notice per file refused.
//! - [`history`], [`stats`], [`stats_view`] and [`replay`]: the games remembered, their
//!   statistics and charts, and any game watched again from its start.
//! - [`codes`]: a game's code shown and copied, "Play a code", and the daily game's mark.
//! - [`frame_times`]: each frame's cost in the program's log, for `TILEBOX_FRAME_TIMES=1`.
//! - [`theme`] and [`help`]: colours, and the controls "How to play" adds to each game's rules.
//! - [`tile_label`]: what a sliding tile writes at its size (whole, wrapped or short).

pub mod advisor;
pub mod app;
mod assist;
mod chrome;
pub mod codes;
pub mod frame_times;
pub mod help;
pub mod history;
pub mod input;
pub mod launcher;
pub mod lock;
pub mod pace;
pub mod record;
pub mod refusal;
pub mod replay;
pub mod saves;
pub mod scores;
mod screens;
mod slot;
pub mod stats;
pub mod stats_view;
pub mod storage;
pub mod store;
pub mod tally;
pub mod theme;
pub mod tile_label;
pub mod train_view;
pub mod trainer;
pub mod variants;
pub mod views;
pub mod work_mode;
pub mod writer;

pub use app::TileboxApp;
pub use chrome::{REPLAY_LABEL, STATS_LABEL, speed_label};
pub use screens::Screen;

/// The directory Tilebox keeps its files in: `<data dir>/tilebox` (on Linux
/// `$XDG_DATA_HOME/tilebox`, by default `~/.local/share/tilebox`).
pub fn default_data_dir() -> Option<std::path::PathBuf> {
    dirs::data_dir().map(|d| d.join("tilebox"))
}
