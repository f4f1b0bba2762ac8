//! The catalogue of games Tilebox ships.
//!
//! Hosts (the app, the CLI) take their list of games from [`registry`] and nowhere else, so
//! adding a game is one new crate plus one line below.

use tilebox_core::Registry;

/// Every game, in the order the launcher and `tilebox-cli list` show them.
pub fn registry() -> Registry {
    Registry::new()
        .with::<tilebox_sliding::Game2048>()
        .with::<tilebox_sliding::Threes>()
        .with::<tilebox_strike9::Strike9>()
}
