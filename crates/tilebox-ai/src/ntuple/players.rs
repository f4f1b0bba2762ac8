//! The trained players a host has: the networks of `players/<id>.weights`, each read once and
//! shared by every player that asks (two bench threads hold one copy, within the 320 MiB).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tilebox_sliding::Variant;

use super::file::{self, fingerprint};
use super::{PlayNetwork, trainable};

/// What the players folder has for a variant.
#[derive(Debug, Clone)]
pub enum Found {
    /// Its network, read.
    Network(Arc<PlayNetwork>),
    /// No file: nothing has been trained for it (or it is not 4×4).
    Missing,
    /// A network trained on fewer moves than the folder asks of a player
    /// ([`Players::set_min_moves`]): these many.
    Learning(u64),
    /// A file that was refused: one line naming it and the cause.
    Refused(String),
}

/// The networks of a players folder (`<data dir>/tilebox/players`), read on first ask and kept:
/// one network at a time (a player of another variant asked for takes its place), so that a
/// host holds at most one network's 16-bit weights, within the 320 MiB. A file is read on the
/// thread that first asks for it, never before; ask from a thread of your own (the AI's), not a
/// window's.
#[derive(Debug)]
pub struct Players {
    dir: PathBuf,
    found: Mutex<HashMap<(String, u64), Found>>,
    /// The moves a network must have learned from to play.
    min_moves: AtomicU64,
}

impl Players {
    /// The players of the folder `dir`.
    pub fn new(dir: &Path) -> Players {
        Players {
            dir: dir.to_path_buf(),
            found: Mutex::new(HashMap::new()),
            min_moves: AtomicU64::new(0),
        }
    }

    /// The players folder of the data directory `data_dir`: `<data dir>/tilebox/players`
    /// ([`file::players_dir`]).
    pub fn dir_of(data_dir: &Path) -> PathBuf {
        file::players_dir(data_dir)
    }

    /// The players folder of the app's own folder `app_dir` (`<data dir>/tilebox`).
    pub fn in_app_dir(app_dir: &Path) -> PathBuf {
        app_dir.join(file::FOLDER)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// From now on, a network plays only once it has learned from `moves` moves (0, the
    /// default: any network); one trained on fewer is [`Found::Learning`], and the heuristic
    /// plays.
    pub fn set_min_moves(&self, moves: u64) {
        self.min_moves.store(moves, Ordering::Relaxed);
        if let Ok(mut found) = self.found.lock() {
            found.clear();
        }
    }

    /// Forgets what was read for variant `id`: its file is read again when next asked for
    /// (after a training run saved it).
    pub fn forget(&self, id: &str) {
        if let Ok(mut found) = self.found.lock() {
            found.retain(|(key, _), _| key != id);
        }
    }

    /// What the folder has for `variant`: read the first time it is asked (one reader at a
    /// time, so a file is never read twice), then kept until [`Players::forget`] or until
    /// another variant's network is read.
    pub fn find(&self, variant: &Variant) -> Found {
        if !trainable(variant) {
            return Found::Missing;
        }
        let key = (variant.id.clone(), fingerprint(variant));
        let Ok(mut found) = self.found.lock() else {
            return Found::Missing;
        };
        if let Some(known) = found.get(&key) {
            return known.clone();
        }
        // The network held is let go before another is read: never two at once.
        found.retain(|_, f| !matches!(f, Found::Network(_)));
        let read = self.read(variant);
        found.insert(key, read.clone());
        read
    }

    /// Reads `variant`'s file: its header first, and its weights only if it is to play.
    fn read(&self, variant: &Variant) -> Found {
        let path = self.dir.join(file::file_name(&variant.id));
        let min = self.min_moves.load(Ordering::Relaxed);
        let loaded = file::read_run(&path, variant).and_then(|(run, _)| {
            if run.moves < min {
                Ok(Found::Learning(run.moves))
            } else {
                file::load_player(&path, variant).map(|n| Found::Network(Arc::new(n)))
            }
        });
        match loaded {
            Ok(found) => found,
            Err(e) if e.is_missing() => Found::Missing,
            Err(e) => Found::Refused(e.to_string()),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::ntuple::Layout;
    use crate::ntuple::run::{Run, Target};
    use crate::ntuple::train::Flow;
    use tilebox_sliding::builtin_variant;

    /// Trains `id`'s small network in `dir` up to `games` games.
    fn train(dir: &Path, id: &str, games: u64) {
        let variant = builtin_variant(id).unwrap();
        let path = dir.join(file::file_name(id));
        let mut run = Run::open(&path, &variant, 1, &Layout::small(variant.preview)).unwrap();
        run.train(1, Target::Games(games), |_| Flow::Continue, |_| {})
            .unwrap();
    }

    /// The moves `id`'s run in `dir` has learned from.
    fn moves(dir: &Path, id: &str) -> u64 {
        let variant = builtin_variant(id).unwrap();
        file::read_run(&dir.join(file::file_name(id)), &variant)
            .unwrap()
            .0
            .moves
    }

    #[test]
    fn a_network_plays_once_trained_on_the_moves_asked_and_is_read_again_when_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let v = builtin_variant("2048").unwrap();
        let players = Players::new(dir.path());
        assert!(matches!(players.find(&v), Found::Missing));
        train(dir.path(), "2048", 10);
        // What was read is kept until forgotten.
        assert!(matches!(players.find(&v), Found::Missing));
        players.forget("2048");
        assert!(matches!(players.find(&v), Found::Network(_)));
        let ten = moves(dir.path(), "2048");
        players.set_min_moves(ten + 1);
        assert!(matches!(players.find(&v), Found::Learning(m) if m == ten));
        train(dir.path(), "2048", 11);
        players.forget("2048");
        assert!(matches!(players.find(&v), Found::Network(_)));
    }

    #[test]
    fn one_network_is_held_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        train(dir.path(), "2048", 3);
        train(dir.path(), "2584", 3);
        let players = Players::new(dir.path());
        let Found::Network(first) = players.find(&builtin_variant("2048").unwrap()) else {
            panic!("no network for 2048");
        };
        assert_eq!(Arc::strong_count(&first), 2, "the folder holds it too");
        let Found::Network(_) = players.find(&builtin_variant("2584").unwrap()) else {
            panic!("no network for 2584");
        };
        assert_eq!(Arc::strong_count(&first), 1, "the folder let 2048's go");
    }
}
