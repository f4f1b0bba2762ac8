//! One writer per data directory: a running app holds an exclusive lock on `<data dir>/lock`, as
//! Firefox holds its profile's. The lock is the operating system's (`File::try_lock`), so it goes
//! with the process: a copy killed with `kill -9` never blocks the next start. A second copy
//! started on the same directory finds the lock taken and writes nothing.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// The lock file inside the data directory.
pub const LOCK_FILE: &str = "lock";

/// The data directory, held: nobody else writes in it while this lives.
#[derive(Debug)]
pub struct DataDirLock {
    /// The open lock file; closing it releases the lock.
    _file: File,
    dir: PathBuf,
}

/// Why the data directory could not be held.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another copy of Tilebox holds it.
    #[error("Tilebox is already running with the data folder {}", .0.display())]
    Held(PathBuf),
    /// The directory cannot be used at all (it is a file, or may not be written); the sentence
    /// says why in words.
    #[error("{0}")]
    Unusable(String),
}

impl DataDirLock {
    /// Takes the lock on `dir`, creating the directory if need be. Never waits: a lock held by
    /// another process is [`LockError::Held`]. Where the platform has no file locks, the lock is
    /// taken as held by this copy.
    pub fn acquire(dir: &Path) -> Result<DataDirLock, LockError> {
        if let Err(e) = fs::create_dir_all(dir) {
            return Err(LockError::Unusable(unusable(dir, &e)));
        }
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| LockError::Unusable(unusable(dir, &e)))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => return Err(LockError::Held(dir.to_path_buf())),
            Err(fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => {}
            Err(fs::TryLockError::Error(e)) => {
                return Err(LockError::Unusable(format!(
                    "The data folder {} cannot be locked for this copy of Tilebox ({e}), so \
                     nothing is saved while it runs.",
                    dir.display()
                )));
            }
        }
        Ok(DataDirLock {
            _file: file,
            dir: dir.to_path_buf(),
        })
    }

    /// The directory held.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// What is wrong with `dir`, in words, from the error of creating it or a file in it.
pub fn unusable(dir: &Path, e: &io::Error) -> String {
    let tail = "so nothing is saved while Tilebox runs";
    // The first ancestor that exists and is not a folder is the culprit.
    if let Some(file) = dir.ancestors().find(|p| p.exists() && !p.is_dir()) {
        return format!(
            "{} is a file, not a folder: Tilebox keeps its scores and games in {}, {tail}.",
            file.display(),
            dir.display()
        );
    }
    match e.kind() {
        io::ErrorKind::PermissionDenied => format!(
            "Tilebox may not write in {} (permission denied), {tail}.",
            dir.display()
        ),
        io::ErrorKind::ReadOnlyFilesystem => {
            format!("{} is on a read-only disk, {tail}.", dir.display())
        }
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
            format!("The disk of {} is full, {tail}.", dir.display())
        }
        _ => format!(
            "The data folder {} cannot be used ({e}), {tail}.",
            dir.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_where_the_folder_should_be_is_named_in_words() {
        let base = std::env::temp_dir().join(format!("tilebox-lock-file-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(&base).unwrap();
        let dir = base.join("tilebox");
        fs::write(&dir, b"not a folder").unwrap();
        let err = DataDirLock::acquire(&dir).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("{} is a file, not a folder", dir.display())),
            "{text}"
        );
        assert_eq!(fs::read(&dir).unwrap(), b"not a folder");
        let _ = fs::remove_dir_all(&base);
    }
}
