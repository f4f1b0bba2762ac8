//! A player's own sliding variants: the `*.json` files in `variants/` of the data directory,
//! read once at start with [`tilebox_games::registry_with_variants`]. Each file refused is one
//! notice in the launcher, naming the file and the field; the app never stops for one, and
//! never changes, moves or deletes a variant file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tilebox_ai::ntuple::players::Players;

use tilebox_core::Registry;
use tilebox_sliding::Refusal;

use crate::TileboxApp;

/// The folder of the player's variant files in the data directory.
pub const VARIANTS_FOLDER: &str = "variants";

/// `<data dir>/variants`: where the player's variant files are read from.
pub fn variants_dir(data_dir: &Path) -> PathBuf {
    data_dir.join(VARIANTS_FOLDER)
}

/// The catalogue with the player's variants of `data_dir` (each in the group of the root of its
/// `based_on` chain), whose sliding games' hints and autoplay use the networks trained in its
/// `players/` folder ([`crate::trainer`], `tilebox-cli train`), and one launcher notice per file
/// refused; and that folder's players, to be told of each save of a training run
/// ([`TileboxApp::share_players`]).
pub fn player_registry(data_dir: &Path) -> (Registry, Vec<String>, Arc<Players>) {
    let players = Arc::new(Players::new(&Players::in_app_dir(data_dir)));
    let (registry, refused) =
        tilebox_games::registry_with_players(&variants_dir(data_dir), Arc::clone(&players));
    let notices = refused.iter().map(refusal_notice).collect();
    (registry, notices, players)
}

/// The launcher's line for a refused file: `Variant file variants/my.json not loaded: side: 9
/// is not from 2 to 8 (the file is left as it is).`
pub fn refusal_notice(refusal: &Refusal) -> String {
    let line = format!(
        "Variant file {VARIANTS_FOLDER}/{} not loaded: {} (the file is left as it is).",
        refusal.file, refusal.error
    );
    // One line, whatever the file's name or the message holds.
    line.replace(['\n', '\r'], " ")
}

impl TileboxApp {
    /// The app over the catalogue with the player's variants of `data_dir` ([`player_registry`],
    /// a notice per file refused), keeping its files in `data_dir`, opening game `start_game`
    /// directly if given.
    pub fn with_player_variants(data_dir: impl Into<PathBuf>, start_game: Option<&str>) -> Self {
        let data_dir = data_dir.into();
        let (registry, notices, players) = player_registry(&data_dir);
        let mut app = Self::with_registry(registry, data_dir, start_game);
        app.share_players(players);
        for notice in notices {
            app.notify(notice);
        }
        app
    }
}
