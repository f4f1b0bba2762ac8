//! Files on disk: atomic JSON writes, and quarantine for files that cannot be read.
//!
//! Every file lives under one directory given to [`Storage::new`] (the app passes
//! `dirs::data_dir()/tilebox`, tests pass a temporary directory). A write goes to a temporary
//! file in the same directory, is flushed and synced, then renamed over the old file, so a crash
//! at any moment leaves either the old or the new file. A file that cannot be read is never
//! overwritten: it is renamed to `<name>.bad-<unix seconds>` and the caller is told; should even
//! that fail, the file is left alone and every later write to it is refused.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// What went wrong with a file.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The file system refused (permissions, full disk, ...).
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A file that could not be read nor moved aside, so it is left alone.
    #[error("{0}")]
    Unreadable(String),
    /// A write to a file that could not be read nor moved aside earlier: refused, so that what
    /// the player had in it is not lost.
    #[error("{} is left alone: it could not be read nor moved aside", .0.display())]
    Kept(PathBuf),
    /// The value could not be turned into JSON.
    #[error("cannot encode {path}: {source}")]
    Encode {
        /// The file concerned.
        path: PathBuf,
        /// The encoder's error.
        source: serde_json::Error,
    },
}

/// The result of reading a JSON file.
#[derive(Debug)]
pub enum ReadOutcome<T> {
    /// There is no such file yet.
    Missing,
    /// The file was read.
    Loaded(T),
    /// The file could not be understood; it was moved aside.
    Quarantined {
        /// Where the unreadable file now is.
        moved_to: PathBuf,
        /// Why it could not be read.
        reason: String,
    },
    /// The file could not be read nor moved (permissions, say). It was left where it is.
    Failed(String),
}

/// How a JSON file is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Indented, for files a person may open (scores, settings).
    Pretty,
    /// One line, for files rewritten after every move (saves).
    Compact,
}

/// A directory of JSON files.
#[derive(Debug, Clone)]
pub struct Storage {
    dir: PathBuf,
    /// Files that could not be read nor moved aside: never written.
    kept: RefCell<BTreeSet<PathBuf>>,
}

impl Storage {
    /// Files under `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            kept: RefCell::default(),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The full path of file `name` (which may contain `/`).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes `bytes` to `name` atomically: temporary file, flush, sync, rename. Refuses a file
    /// that could not be read nor moved aside.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> Result<(), StorageError> {
        let path = self.path(name);
        if self.kept.borrow().contains(&path) {
            return Err(StorageError::Kept(path));
        }
        let io_err = |source| StorageError::Io {
            path: path.clone(),
            source,
        };
        let parent = path.parent().unwrap_or(&self.dir).to_path_buf();
        fs::create_dir_all(&parent).map_err(io_err)?;
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = parent.join(format!(
            ".{file_name}.tmp-{}-{}",
            std::process::id(),
            unique_suffix()
        ));
        let result = (|| {
            let mut file = File::create(&tmp)?;
            file.write_all(bytes)?;
            file.flush()?;
            file.sync_all()?;
            drop(file);
            fs::rename(&tmp, &path)?;
            // Make the rename itself durable where the platform allows it.
            if let Ok(dir) = File::open(&parent) {
                let _ = dir.sync_all();
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result.map_err(io_err)
    }

    /// Writes `value` as JSON to `name`, atomically.
    pub fn write_json<T: Serialize>(
        &self,
        name: &str,
        value: &T,
        layout: Layout,
    ) -> Result<(), StorageError> {
        let encoded = match layout {
            Layout::Pretty => serde_json::to_vec_pretty(value),
            Layout::Compact => serde_json::to_vec(value),
        };
        let mut bytes = encoded.map_err(|source| StorageError::Encode {
            path: self.path(name),
            source,
        })?;
        bytes.push(b'\n');
        self.write_atomic(name, &bytes)
    }

    /// Holds an exclusive lock on `name` (a lock file, created if need be) until the returned
    /// file is dropped, so that two copies of the app take turns. Where the platform has no
    /// file locks, returns the file unlocked.
    pub fn lock(&self, name: &str) -> Result<File, StorageError> {
        let path = self.path(name);
        let io_err = |source| StorageError::Io {
            path: path.clone(),
            source,
        };
        fs::create_dir_all(&self.dir).map_err(io_err)?;
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io_err)?;
        match file.lock() {
            Err(e) if e.kind() != io::ErrorKind::Unsupported => Err(io_err(e)),
            _ => Ok(file),
        }
    }

    /// Reads `name` as JSON and checks it with `check`. A file that is not JSON of that shape, or
    /// that `check` refuses (a future version, say), is moved aside.
    pub fn read_json<T: DeserializeOwned>(
        &self,
        name: &str,
        check: impl FnOnce(&T) -> Result<(), String>,
    ) -> ReadOutcome<T> {
        let path = self.path(name);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return ReadOutcome::Missing,
            Err(e) => {
                self.kept.borrow_mut().insert(path.clone());
                return ReadOutcome::Failed(format!("{}: {e}", path.display()));
            }
        };
        let reason = match serde_json::from_slice::<T>(&bytes) {
            Ok(value) => match check(&value) {
                Ok(()) => return ReadOutcome::Loaded(value),
                Err(reason) => reason,
            },
            Err(e) => e.to_string(),
        };
        self.quarantine(name, reason)
    }

    /// Moves `name` aside to `<name>.bad-<unix seconds>` because of `reason`.
    pub fn quarantine<T>(&self, name: &str, reason: String) -> ReadOutcome<T> {
        let path = self.path(name);
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let mut target = PathBuf::from(format!("{}.bad-{secs}", path.display()));
        let mut n = 1;
        while target.exists() {
            target = PathBuf::from(format!("{}.bad-{secs}-{n}", path.display()));
            n += 1;
        }
        match fs::rename(&path, &target) {
            Ok(()) => ReadOutcome::Quarantined {
                moved_to: target,
                reason,
            },
            Err(e) => {
                let message = format!(
                    "{} cannot be read ({reason}) nor moved aside ({e}); it is left alone",
                    path.display()
                );
                self.kept.borrow_mut().insert(path);
                ReadOutcome::Failed(message)
            }
        }
    }
}

/// A number that differs between calls, for temporary file names.
fn unique_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    (COUNTER.fetch_add(1, Ordering::Relaxed) << 32) | u64::from(nanos)
}

/// A message for the launcher about a file that was moved aside or could not be read, if any.
pub fn notice<T>(what: &str, outcome: &ReadOutcome<T>) -> Option<String> {
    match outcome {
        ReadOutcome::Missing | ReadOutcome::Loaded(_) => None,
        ReadOutcome::Quarantined { moved_to, reason } => Some(format!(
            "{what} could not be read ({reason}). It was moved to {} and a fresh one was started.",
            moved_to.display()
        )),
        ReadOutcome::Failed(reason) => Some(format!("{what} could not be read: {reason}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tilebox-storage-{name}-{}-{}",
            std::process::id(),
            unique_suffix()
        ));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_that_cannot_be_moved_aside_is_never_written_afterwards() {
        let dir = temp_dir("kept");
        let storage = Storage::new(&dir);
        // Nothing to rename: the move aside fails, as it would on a read-only directory.
        let outcome = storage.quarantine::<()>("gone.json", "bad".to_string());
        assert!(matches!(outcome, ReadOutcome::Failed(_)), "{outcome:?}");
        let refused = storage.write_json("gone.json", &1, Layout::Compact);
        assert!(matches!(refused, Err(StorageError::Kept(_))), "{refused:?}");
        assert!(!dir.join("gone.json").exists());
        // Other files are written as usual.
        storage
            .write_json("other.json", &2, Layout::Compact)
            .unwrap();
        assert_eq!(fs::read_to_string(dir.join("other.json")).unwrap(), "2\n");
    }

    #[test]
    fn a_file_that_cannot_be_read_is_kept_as_it_is() {
        let dir = temp_dir("unreadable");
        let storage = Storage::new(&dir);
        fs::create_dir_all(dir.join("scores.json")).unwrap();
        let outcome = storage.read_json::<u32>("scores.json", |_| Ok(()));
        assert!(matches!(outcome, ReadOutcome::Failed(_)), "{outcome:?}");
        assert!(matches!(
            storage.write_atomic("scores.json", b"{}"),
            Err(StorageError::Kept(_))
        ));
        assert!(dir.join("scores.json").is_dir());
    }

    #[test]
    fn layouts() {
        let dir = temp_dir("layouts");
        let storage = Storage::new(&dir);
        let value = serde_json::json!({"a": [1, 2]});
        storage
            .write_json("c.json", &value, Layout::Compact)
            .unwrap();
        storage
            .write_json("p.json", &value, Layout::Pretty)
            .unwrap();
        let compact = fs::read_to_string(dir.join("c.json")).unwrap();
        let pretty = fs::read_to_string(dir.join("p.json")).unwrap();
        assert_eq!(compact, "{\"a\":[1,2]}\n");
        assert!(pretty.lines().count() > 2);
        let back: serde_json::Value = serde_json::from_str(&pretty).unwrap();
        assert_eq!(back, value);
    }
}
