//! Opening a player's files without ever blocking, and reading them within a bound: the one
//! place the app and the command-line tool open what they find in the data directory.
//!
//! Anything that is not a regular file (a named pipe, a socket, a device, a folder) is refused
//! in words ([`FileError::NotAFile`]) before it is read or written: a pipe would block `open()`
//! until someone writes into it, and a device such as `/dev/zero` never ends. The type is looked
//! at first (following symbolic links), and the file is then opened with `O_NONBLOCK` and its
//! type looked at again on the open file, so that one swapped in meanwhile cannot block either.
//! On a regular file `O_NONBLOCK` changes nothing.

use std::fs::{self, File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Why a file was not opened or read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// There is no such file (or a symbolic link to nothing; see [`FileError::Dangling`]).
    #[error("there is no such file")]
    Missing,
    /// A symbolic link whose target does not exist.
    #[error("it is a symbolic link to {target}, which does not exist")]
    Dangling {
        /// Where the link points.
        target: String,
    },
    /// Not a regular file: what it is, in words ("a named pipe (FIFO)", "a folder").
    #[error("{}", not_a_file_words(.0))]
    NotAFile(&'static str),
    /// Larger than the bound: its length (at least), and the bound.
    #[error("it is larger than {limit} bytes, so it is not read")]
    TooLarge {
        /// Its length, or as much as was read of it.
        len: u64,
        /// The bound.
        limit: u64,
    },
    /// A named pipe that no one was writing into when it was opened: nothing is waited for.
    #[error("it is a named pipe (FIFO) that nothing was written into, so nothing was read")]
    NoWriter,
    /// The system refused, for a reason said in words where it has one.
    #[error("{}", io_words(.0))]
    Io(io::Error),
}

impl FileError {
    /// The error of opening or reading `path`: a missing file, a dangling link, or the system's.
    fn of(path: &Path, e: io::Error) -> FileError {
        if e.kind() == io::ErrorKind::NotFound {
            if let Ok(target) = fs::read_link(path) {
                return FileError::Dangling {
                    target: target.display().to_string(),
                };
            }
            return FileError::Missing;
        }
        FileError::Io(e)
    }
}

/// "it is a folder, not a file", "it is a named pipe (FIFO), not a regular file, so it is not
/// opened".
fn not_a_file_words(what: &str) -> String {
    if what == "a folder" {
        "it is a folder, not a file".to_string()
    } else {
        format!("it is {what}, not a regular file, so it is not opened")
    }
}

/// The system's error in words, for the errors a player's folder gives most: a loop of
/// symbolic links, a folder, no permission, a full or read-only disk. Others are the system's
/// own text.
pub fn io_words(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::PermissionDenied => {
            "permission denied (or the file may not be changed)".to_string()
        }
        io::ErrorKind::IsADirectory => "it is a folder, not a file".to_string(),
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => "the disk is full".to_string(),
        io::ErrorKind::ReadOnlyFilesystem => "the disk is read-only".to_string(),
        // ELOOP has no stable kind of its own.
        _ if e.raw_os_error() == Some(ELOOP) => "it is a loop of symbolic links".to_string(),
        // The system's own words, without its error number: "No such file or directory".
        _ => {
            let text = e.to_string();
            match e.raw_os_error() {
                Some(code) => text
                    .strip_suffix(&format!(" (os error {code})"))
                    .map_or(text.clone(), str::to_string),
                None => text,
            }
        }
    }
}

/// The system's number for "too many levels of symbolic links".
#[cfg(any(target_os = "linux", target_os = "android"))]
const ELOOP: i32 = 40;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const ELOOP: i32 = 62;

/// What a file that is not a regular file is, in words; `None` for a regular file.
pub fn not_a_file(kind: FileType) -> Option<&'static str> {
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_block_device() || kind.is_char_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Opens `path` with `options`, only if it is a regular file, never blocking: a file of another
/// type is [`FileError::NotAFile`], looked at before the open and again on the open file. A
/// missing file is [`FileError::Missing`] (unless `options` create it).
pub fn open_regular(path: &Path, options: &OpenOptions) -> Result<File, FileError> {
    match fs::metadata(path) {
        Ok(meta) => {
            if let Some(what) = not_a_file(meta.file_type()) {
                return Err(FileError::NotAFile(what));
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileError::of(path, e)),
    }
    let mut options = options.clone();
    non_blocking(&mut options);
    let file = options.open(path).map_err(|e| FileError::of(path, e))?;
    let kind = file.metadata().map_err(FileError::Io)?.file_type();
    match not_a_file(kind) {
        Some(what) => Err(FileError::NotAFile(what)),
        None => Ok(file),
    }
}

#[cfg(unix)]
fn non_blocking(options: &mut OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NONBLOCK);
}

#[cfg(not(unix))]
fn non_blocking(_options: &mut OpenOptions) {}

/// Which files [`read_bounded`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kinds {
    /// Regular files only: what a folder holds.
    Regular,
    /// Anything that can be read, a pipe or a device too: a file the player names on a command
    /// line (`/dev/stdin`). It is opened without blocking all the same, so that a named pipe
    /// no one writes into is [`FileError::NoWriter`] at once rather than a wait for ever; a
    /// pipe with a writer (the shell's, `… | tilebox-cli variant check /dev/stdin`) is read to
    /// its end, as `cat` reads it, and anything is read within the bound.
    Any,
}

/// The bytes of `path`, if it holds no more than `limit`: the length is looked at before
/// anything is read, and no more than `limit + 1` bytes are ever read (should it grow meanwhile,
/// or be a pipe or a device that never ends).
pub fn read_bounded(path: &Path, limit: u64, kinds: Kinds) -> Result<Vec<u8>, FileError> {
    let mut options = OpenOptions::new();
    options.read(true);
    let file = match kinds {
        Kinds::Regular => open_regular(path, &options)?,
        Kinds::Any => {
            non_blocking(&mut options);
            options.open(path).map_err(|e| FileError::of(path, e))?
        }
    };
    let meta = file.metadata().ok();
    let pipe = meta.as_ref().is_some_and(|m| is_pipe(m.file_type()));
    let len = meta.map_or(0, |m| m.len());
    if len > limit {
        return Err(FileError::TooLarge { len, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    read_waiting(file.take(limit.saturating_add(1)), &mut bytes).map_err(FileError::Io)?;
    if pipe && bytes.is_empty() {
        return Err(FileError::NoWriter);
    }
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            len: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Whether a file of type `kind` is a pipe, named or not (`/dev/stdin` under `|`).
fn is_pipe(kind: FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        kind.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = kind;
        false
    }
}

/// How long a read of a pipe opened without blocking waits before it asks again, while its
/// writer has written nothing new and not yet closed it.
const PIPE_WAIT: std::time::Duration = std::time::Duration::from_millis(5);

/// Reads `from` to its end into `bytes`. Opened without blocking, a pipe whose writer has not
/// written yet says "would block": the read waits a moment and asks again, until the writer
/// closes it (a pipe without a writer ends at once).
fn read_waiting(mut from: impl Read, bytes: &mut Vec<u8>) -> io::Result<()> {
    loop {
        match from.read_to_end(bytes) {
            Ok(_) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(PIPE_WAIT),
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn the_systems_words_come_without_its_error_number() {
        let gone = io::Error::from_raw_os_error(2);
        assert!(gone.to_string().contains("os error 2"));
        let words = io_words(&gone);
        assert!(!words.contains("os error"), "{words}");
        assert!(words.starts_with("No such file"), "{words}");
        let full = io::Error::from(io::ErrorKind::StorageFull);
        assert_eq!(io_words(&full), "the disk is full");
    }

    fn temp_dir(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tilebox-core-files-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_without_blocking() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("x.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Were it opened as a file, the read would wait for a writer for ever.
        let err = read_bounded(&fifo, 10, Kinds::Regular).unwrap_err();
        assert!(
            matches!(err, FileError::NotAFile("a named pipe (FIFO)")),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "it is a named pipe (FIFO), not a regular file, so it is not opened"
        );
        // Named on a command line, it is opened without waiting for a writer: with none, it
        // is said at once.
        let err = read_bounded(&fifo, 10, Kinds::Any).unwrap_err();
        assert!(matches!(err, FileError::NoWriter), "{err:?}");
        let mut append = OpenOptions::new();
        append.append(true).create(true);
        assert!(matches!(
            open_regular(&fifo, &append),
            Err(FileError::NotAFile(_))
        ));
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_refused_or_read_within_the_bound() {
        let zero = Path::new("/dev/zero");
        assert!(matches!(
            read_bounded(zero, 100, Kinds::Regular),
            Err(FileError::NotAFile("a device"))
        ));
        // Named on a command line, it is read, but never past the bound.
        assert!(matches!(
            read_bounded(zero, 100, Kinds::Any),
            Err(FileError::TooLarge {
                len: 101,
                limit: 100
            })
        ));
    }

    #[test]
    fn missing_dangling_large_and_folders_are_told_apart() {
        let dir = temp_dir("kinds");
        assert!(matches!(
            read_bounded(&dir.join("none"), 10, Kinds::Regular),
            Err(FileError::Missing)
        ));
        assert!(matches!(
            read_bounded(&dir, 10, Kinds::Regular),
            Err(FileError::NotAFile("a folder"))
        ));
        fs::write(dir.join("big"), [b'x'; 11]).unwrap();
        assert!(matches!(
            read_bounded(&dir.join("big"), 10, Kinds::Regular),
            Err(FileError::TooLarge { len: 11, limit: 10 })
        ));
        assert_eq!(
            read_bounded(&dir.join("big"), 11, Kinds::Regular).unwrap(),
            [b'x'; 11]
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("nowhere"), dir.join("link")).unwrap();
            let err = read_bounded(&dir.join("link"), 10, Kinds::Regular).unwrap_err();
            assert!(
                err.to_string().starts_with("it is a symbolic link to ")
                    && err.to_string().ends_with("nowhere, which does not exist"),
                "{err}"
            );
            std::os::unix::fs::symlink(dir.join("loop"), dir.join("loop")).unwrap();
            let err = read_bounded(&dir.join("loop"), 10, Kinds::Regular).unwrap_err();
            assert_eq!(err.to_string(), "it is a loop of symbolic links");
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
