//! The trained players a host has: the networks of `players/<id>.weights`, each read once and
//! shared by every player that asks (two bench threads hold one copy, within the 160 MiB).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use tilebox_sliding::Variant;

use super::file::{self, fingerprint};
use super::{PlayNetwork, SIDE};

/// What the players folder has for a variant.
#[derive(Debug, Clone)]
pub enum Found {
    /// Its network, read.
    Network(Arc<PlayNetwork>),
    /// No file: nothing has been trained for it (or it is not 4×4).
    Missing,
    /// A file that was refused: one line naming it and the cause.
    Refused(String),
}

/// The networks of a players folder (`<data dir>/tilebox/players`), read on first ask and kept.
/// A file is read on the thread that first asks for it, never before; ask from a thread of
/// your own (the AI's), not a window's.
#[derive(Debug)]
pub struct Players {
    dir: PathBuf,
    found: Mutex<HashMap<(String, u64), Found>>,
}

impl Players {
    /// The players of the folder `dir`.
    pub fn new(dir: &Path) -> Players {
        Players {
            dir: dir.to_path_buf(),
            found: Mutex::new(HashMap::new()),
        }
    }

    /// The players folder of the data directory `data_dir`: `<data dir>/tilebox/players`.
    pub fn dir_of(data_dir: &Path) -> PathBuf {
        data_dir.join("tilebox").join("players")
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Forgets what was read for variant `id`: its file is read again when next asked for
    /// (after a training run saved it).
    pub fn forget(&self, id: &str) {
        if let Ok(mut found) = self.found.lock() {
            found.retain(|(key, _), _| key != id);
        }
    }

    /// What the folder has for `variant`: read the first time it is asked (one reader at a
    /// time, so a file is never read twice), then kept until [`Players::forget`].
    pub fn find(&self, variant: &Variant) -> Found {
        if variant.side != SIDE {
            return Found::Missing;
        }
        let key = (variant.id.clone(), fingerprint(variant));
        let Ok(mut found) = self.found.lock() else {
            return Found::Missing;
        };
        found
            .entry(key)
            .or_insert_with(|| {
                let path = self.dir.join(file::file_name(&variant.id));
                match file::load_player(&path, variant) {
                    Ok(network) => Found::Network(Arc::new(network)),
                    Err(e) if e.is_missing() => Found::Missing,
                    Err(e) => Found::Refused(e.to_string()),
                }
            })
            .clone()
    }
}
