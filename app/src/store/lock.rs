//! One writer per data directory: a running app holds an exclusive lock on `<data dir>/lock`, as
//! Firefox holds its profile's. The lock is the operating system's (`File::try_lock`), so it goes
//! with the process: a copy killed with `kill -9` never blocks the next start. A second copy
//! started on the same directory finds the lock taken and writes nothing.

use std::fs::{self, File, OpenOptions};

use std::io;
use std::path::{Path, PathBuf};
use tilebox_core::files::{self, FileError};

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
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        // Never blocks, and refuses a lock that is not a regular file (a folder, a named pipe, a
        // link in a loop), saying why.
        let file = files::open_regular(&path, &options).map_err(|e| {
            LockError::Unusable(format!(
                "The lock file {} cannot be used ({}), {NOTHING_SAVED_TAIL}.",
                path.display(),
                lock_words(&e)
            ))
        })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => return Err(LockError::Held(dir.to_path_buf())),
            Err(fs::TryLockError::Error(e)) if e.kind() == io::ErrorKind::Unsupported => {}
            Err(fs::TryLockError::Error(e)) => {
                return Err(LockError::Unusable(unlockable(dir, &e)));
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

/// How every sentence of a data folder that cannot be used ends (before its full stop): the
/// game screen's line ([`nothing_saved`]) says it its own way.
const NOTHING_SAVED_TAIL: &str = "so nothing is saved while Tilebox runs";

/// The data folder `dir` cannot be locked (`e`), in words.
fn unlockable(dir: &Path, e: &io::Error) -> String {
    format!(
        "The data folder {} cannot be locked for this copy of Tilebox ({}), {NOTHING_SAVED_TAIL}.",
        dir.display(),
        tilebox_core::files::io_words(e)
    )
}

/// What is wrong with `dir`, in words, from the error of creating it or a file in it.
pub fn unusable(dir: &Path, e: &io::Error) -> String {
    let tail = NOTHING_SAVED_TAIL;
    // A link to a folder that is not there: `create_dir_all` says only "File exists".
    if let Ok(target) = fs::read_link(dir)
        && !dir.exists()
    {
        return format!(
            "The data folder {} is a symbolic link to {}, which does not exist, {tail}.",
            dir.display(),
            target.display()
        );
    }
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
            "The data folder {} cannot be used ({}), {tail}.",
            dir.display(),
            tilebox_core::files::io_words(e)
        ),
    }
}

/// Why the lock file cannot be used, in words: an immutable file is "may not be changed".
fn lock_words(e: &FileError) -> String {
    match e {
        FileError::Io(io) if io.kind() == io::ErrorKind::PermissionDenied => {
            "Tilebox may not write it: permission denied, or it is marked immutable".to_string()
        }
        other => other.to_string(),
    }
}

/// The line the game screen shows while nothing is saved: "Nothing will be saved: " and the
/// cause, from the sentence `reason` the launcher shows ([`LockError::Unusable`]), without its
/// own "so nothing is saved" and with a small letter where it starts with "The".
pub fn nothing_saved(reason: &str) -> String {
    let cause = reason.trim_end_matches('.');
    let cause = cause
        .strip_suffix(NOTHING_SAVED_TAIL)
        .map_or(cause, |c| c.trim_end_matches([',', ' ']));
    let cause = match cause.strip_prefix("The ") {
        Some(rest) => format!("the {rest}"),
        None => cause.to_string(),
    };
    format!("Nothing will be saved: {cause}.")
}

/// [`nothing_saved`] for `storage`, if it writes nothing: the game screen's line.
pub fn nothing_saved_line(storage: &crate::store::storage::Storage) -> Option<String> {
    storage.unusable_reason().map(nothing_saved)
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

    fn base(name: &str) -> PathBuf {
        let base = std::env::temp_dir().join(format!("tilebox-lock-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(&base).unwrap();
        base
    }

    fn unusable_text(dir: &Path) -> String {
        match DataDirLock::acquire(dir) {
            Err(LockError::Unusable(text)) => text,
            other => panic!("{other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_as_the_data_folder_is_named_in_words() {
        let base = base("dangling");
        let dir = base.join("tilebox");
        std::os::unix::fs::symlink(base.join("gone"), &dir).unwrap();
        let text = unusable_text(&dir);
        assert_eq!(
            text,
            format!(
                "The data folder {} is a symbolic link to {}, which does not exist, so nothing \
                 is saved while Tilebox runs.",
                dir.display(),
                base.join("gone").display()
            )
        );
        assert!(!text.contains("os error"), "{text}");
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn an_unusable_lock_file_is_named_with_its_cause() {
        let base = base("lock-kinds");
        // A folder where the lock file should be.
        let dir = base.join("folder");
        fs::create_dir_all(dir.join(LOCK_FILE)).unwrap();
        let text = unusable_text(&dir);
        assert!(text.contains("(it is a folder, not a file)"), "{text}");
        assert_eq!(
            nothing_saved(&text),
            format!(
                "Nothing will be saved: the lock file {} cannot be used (it is a folder, not a \
                 file).",
                dir.join(LOCK_FILE).display()
            )
        );
        // A folder the system does not let this copy lock: said once, in the same words.
        let refused = unlockable(&dir, &io::Error::from(io::ErrorKind::PermissionDenied));
        assert_eq!(
            nothing_saved(&refused),
            format!(
                "Nothing will be saved: the data folder {} cannot be locked for this copy of \
                 Tilebox (permission denied (or the file may not be changed)).",
                dir.display()
            )
        );
        #[cfg(unix)]
        {
            // A link in a loop.
            let dir = base.join("loop");
            fs::create_dir_all(&dir).unwrap();
            std::os::unix::fs::symlink(dir.join(LOCK_FILE), dir.join(LOCK_FILE)).unwrap();
            let text = unusable_text(&dir);
            assert!(text.contains("(it is a loop of symbolic links)"), "{text}");
            // A named pipe: refused at once, never waited on.
            let dir = base.join("fifo");
            fs::create_dir_all(&dir).unwrap();
            let made = std::process::Command::new("mkfifo")
                .arg(dir.join(LOCK_FILE))
                .status()
                .unwrap();
            assert!(made.success());
            let text = unusable_text(&dir);
            assert!(
                text.contains("(it is a named pipe (FIFO), not a regular file"),
                "{text}"
            );
        }
        let _ = fs::remove_dir_all(&base);
    }
}
