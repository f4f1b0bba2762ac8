//! Files on disk: atomic JSON writes, bounded reads, quarantine for files that cannot be read,
//! and files a newer Tilebox wrote left alone.
//!
//! Every file lives under one directory given to [`Storage::new`] (the app passes
//! `dirs::data_dir()/tilebox`, tests pass a temporary directory). A write goes through
//! [`Storage::write_atomic`], on the writer thread only (the `writer` module's): a temporary file in
//! the same directory (the `tempfile` crate), written, synced, renamed over the old file
//! (`NamedTempFile::persist`), and the directory synced, so a crash at any moment leaves either
//! the old or the new file. Each of those steps goes through a [`Disk`], the narrow seam the
//! fault-injection tests replace. A temporary file a crash left behind is removed at the next
//! start ([`Storage::sweep_debris`]). The history is appended to instead, a line at a time
//! ([`Storage::append_line`], its steps through the same seam): a crash leaves every line
//! already there as it was, and at worst a torn last line, which the reader ignores.
//!
//! Only regular files are opened, never blocking ([`tilebox_core::files`]): a named pipe, a
//! socket, a device or a folder where a file should be is refused in words, left as it is, and
//! never written to (nor replaced) while the app runs. A read checks the file's length before
//! reading it: a file larger than [`MAX_FILE_BYTES`] is not read. It is read into one buffer and
//! parsed from it straight into its type (its version number read first on its own), with no
//! tree of the whole file on the way. No file larger than [`MAX_FILE_BYTES`] is ever written
//! ([`encode`]): a pretty file that would be is written compact, and one still too large is
//! refused, the file on disk kept. A file that cannot be read is never overwritten: it is renamed to
//! `<name>.bad-<unix seconds>`, its content unchanged, and the caller is told; should even that
//! fail, the file is left alone and every later write to it is refused. A file a newer Tilebox
//! wrote (a higher version or format number) is neither moved nor written: it is read for what
//! this build understands, if it can be, and every write to it is refused until the app quits.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;
use serde::de::{DeserializeOwned, Deserializer as _, IgnoredAny, MapAccess, Visitor};
use tempfile::NamedTempFile;
use tilebox_core::files::{self, FileError, Kinds};
use tilebox_core::json_words;

use crate::store::keys::Keys;

/// The largest data file Tilebox reads: 32 MiB. A save of a million moves of 2048 is 4 MB, and
/// one of a million moves as long as the longest move of any game, with a million more to redo,
/// is still under it (a test checks), so no real player's file comes near it; a larger file is
/// treated as a bad one without being read.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// What temporary files are called: `.<name>.tmp-<random>`, next to the file `<name>`.
const TEMP_MARK: &str = ".tmp-";

/// What went wrong with a file.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The file system refused (permissions, full disk, ...).
    #[error("{path}: {}", tilebox_core::files::io_words(.source))]
    Io {
        /// The file concerned.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A write to a file that is left alone (it could not be read nor moved aside, a newer
    /// Tilebox wrote it, or the data directory cannot be used): refused, so that what the player
    /// had in it is not lost. The text says why.
    #[error("{} is left alone: {reason}", path.display())]
    Kept {
        /// The file concerned.
        path: PathBuf,
        /// Why it is left alone.
        reason: String,
    },
    /// The file would be larger than Tilebox reads back ([`MAX_FILE_BYTES`]): it is not
    /// written, and the file on disk stays as it was.
    #[error(
        "{} is not written: it would be {}, more than the {} Tilebox reads back, so the file \
         on disk is kept as it was",
        path.display(),
        size_text(*size),
        size_text(MAX_FILE_BYTES)
    )]
    TooLarge {
        /// The file concerned.
        path: PathBuf,
        /// How large it would be.
        size: u64,
    },
    /// A file that is only ever created ([`Storage::write_new`]) is there already: it is left
    /// as it is.
    #[error("{} is there already, and Tilebox never writes over it", path.display())]
    Exists {
        /// The file concerned.
        path: PathBuf,
    },
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
    /// A newer Tilebox wrote the file: it is left in place and never written while the app runs.
    /// `value` is what this build makes of it, if anything.
    Newer {
        /// The file as this build reads it, if it can.
        value: Option<T>,
        /// The number the file has, and the one this build reads.
        found: u64,
        /// The highest number this build reads.
        supported: u64,
        /// The file.
        path: PathBuf,
    },
    /// The file could not be understood (or was too large to read); it was moved aside,
    /// unchanged.
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

/// The steps of an atomic write and of an append, one method each: the seam through which the
/// fault-injection tests fail or kill a write at each step. [`RealDisk`] takes every default,
/// the real file system.
pub trait Disk: Send + Sync {
    /// Creates `dir` and its parents.
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }

    /// Creates an empty temporary file in `dir` whose name starts with `prefix`, readable as a
    /// file made by `File::create` is (not only by its owner, as `tempfile` makes them).
    fn create_temp(&self, dir: &Path, prefix: &str) -> io::Result<NamedTempFile> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(prefix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The umask applies, as to `File::create`.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        builder.tempfile_in(dir)
    }

    /// Writes `bytes` at the end of the temporary file: once for a file made whole, once a piece
    /// for a file written as it is made ([`Storage::write_json_streamed`]).
    fn write(&self, file: &mut NamedTempFile, bytes: &[u8]) -> io::Result<()> {
        file.write_all(bytes)?;
        file.flush()
    }

    /// Syncs the temporary file's content to the disk.
    fn sync(&self, file: &NamedTempFile) -> io::Result<()> {
        file.as_file().sync_all()
    }

    /// Renames the temporary file over `to`. On failure the temporary file is removed.
    fn rename(&self, file: NamedTempFile, to: &Path) -> io::Result<()> {
        file.persist(to).map(drop).map_err(|e| e.error)
    }

    /// Gives the temporary file the name `to` only if no file has it, in one step (an error of
    /// kind `AlreadyExists` if one has). On failure the temporary file is removed.
    fn rename_new(&self, file: NamedTempFile, to: &Path) -> io::Result<()> {
        file.persist_noclobber(to).map(drop).map_err(|e| e.error)
    }

    /// Opens `path` to append to it (and read it), creating it if need be.
    /// Only a regular file is opened, never blocking: a named pipe, a socket or a device there
    /// is refused (a record never goes into a pipe).
    fn open_append(&self, path: &Path) -> io::Result<File> {
        let mut options = fs::OpenOptions::new();
        options.read(true).append(true).create(true);
        files::open_regular(path, &options).map_err(|e| match e {
            FileError::Io(e) => e,
            other => io::Error::other(other),
        })
    }

    /// Appends `bytes` to the end of `file`, in one write.
    fn append(&self, file: &mut File, bytes: &[u8]) -> io::Result<()> {
        file.write_all(bytes)?;
        file.flush()
    }

    /// Syncs an appended file's content to the disk.
    fn sync_appended(&self, file: &File) -> io::Result<()> {
        file.sync_all()
    }

    /// Syncs the directory, so that the rename itself is on the disk.
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        match File::open(dir).and_then(|d| d.sync_all()) {
            // Some platforms and file systems cannot sync a directory: nothing more to do there.
            Err(e) if matches!(e.kind(), io::ErrorKind::Unsupported) => Ok(()),
            other => other,
        }
    }
}

/// Something a history can be read from ([`Storage::open_to_read`]): a file, or a text.
pub trait ReadSeek: Read + Seek + Send {}

impl<T: Read + Seek + Send> ReadSeek for T {}

/// A file opened to read: its length, and its bytes from the start.
pub struct Opened {
    /// Its length in bytes.
    pub len: u64,
    /// Its bytes.
    pub reader: Box<dyn ReadSeek>,
}

/// Why a file was not opened to read ([`Storage::open_to_read`]).
#[derive(Debug)]
pub enum NotRead {
    /// The file's own fault: the outcome to tell the player.
    File(ReadOutcome<()>),
    /// Its folder's: the system does not let this user read in it. The words (its path and
    /// why), as [`Storage::folder_problem`] gives them; every file in it is left alone.
    Folder(String),
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealDisk;

impl Disk for RealDisk {}

/// A directory of JSON files: on the disk, or kept by name in a store of keys (the browser's
/// storage, [`Storage::in_keys`]).
#[derive(Clone)]
pub struct Storage {
    dir: PathBuf,
    disk: Arc<dyn Disk>,
    /// Where the files are kept by name instead of on the disk, if they are.
    keys: Option<Arc<dyn Keys>>,
    /// Files never to be written while the app runs, with why.
    kept: Arc<Mutex<BTreeMap<PathBuf, String>>>,
    /// Why nothing at all may be written, if so (the data directory cannot be used).
    unusable: Option<String>,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("dir", &self.dir)
            .field("unusable", &self.unusable)
            .finish_non_exhaustive()
    }
}

impl Storage {
    /// Files under `dir` (created on the first write), on the real disk.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self::with_disk(dir, Arc::new(RealDisk))
    }

    /// Files under `dir`, written through `disk`.
    pub fn with_disk(dir: impl Into<PathBuf>, disk: Arc<dyn Disk>) -> Self {
        Self {
            dir: dir.into(),
            disk,
            keys: None,
            kept: Arc::default(),
            unusable: None,
        }
    }

    /// Files kept by name in `keys` (the browser's storage), under the folder name
    /// `tilebox`: file `saves/2048.json` is the key `tilebox/saves/2048.json`, its text the
    /// file's bytes. Everything else is as on the disk: bounded reads, files a newer Tilebox
    /// wrote left alone, unreadable ones moved aside, a write replacing a file whole or not at
    /// all.
    pub fn in_keys(keys: Arc<dyn Keys>) -> Self {
        Self {
            keys: Some(keys),
            ..Self::new(crate::store::keys::PREFIX.trim_end_matches('/'))
        }
    }

    /// The key of the file at `path`, where the files are kept by name.
    fn key(path: &Path) -> String {
        path.to_string_lossy().replace('\\', "/")
    }

    /// The text of the file at `path` from `keys`: `Ok(None)` if there is none.
    fn get(keys: &dyn Keys, path: &Path) -> io::Result<Option<String>> {
        keys.get(&Self::key(path)).map_err(io::Error::other)
    }

    /// Keeps `bytes` (UTF-8, as every file Tilebox writes is) as the text of the file at `path`.
    fn set(keys: &dyn Keys, path: &Path, bytes: Vec<u8>) -> io::Result<()> {
        let text = String::from_utf8(bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))?;
        keys.set(&Self::key(path), &text).map_err(io::Error::other)
    }

    /// Storage over a data directory that cannot be used, for `reason` (a sentence saying what
    /// is wrong): nothing is read, every write is refused.
    pub fn unusable(dir: impl Into<PathBuf>, reason: impl Into<String>) -> Self {
        Self {
            unusable: Some(reason.into()),
            ..Self::new(dir)
        }
    }

    /// Why the data directory cannot be used, if it cannot.
    pub fn unusable_reason(&self) -> Option<&str> {
        self.unusable.as_deref()
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The full path of file `name` (which may contain `/`).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn keep(&self, path: PathBuf, reason: String) {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path, reason);
    }

    /// Why file `name` is left alone, if it is.
    pub fn kept_reason(&self, name: &str) -> Option<String> {
        if let Some(reason) = &self.unusable {
            return Some(reason.clone());
        }
        let path = self.path(name);
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        // A file, or the folder it is in.
        kept.get(&path)
            .or_else(|| path.parent().and_then(|folder| kept.get(folder)))
            .cloned()
    }

    /// The path of `name` and its folder, made if need be: the first step of every write.
    /// Refuses a file that is left alone.
    fn prepare(&self, name: &str) -> Result<(PathBuf, PathBuf), StorageError> {
        let path = self.path(name);
        if let Some(reason) = self.kept_reason(name) {
            return Err(StorageError::Kept { path, reason });
        }
        let parent = path.parent().unwrap_or(&self.dir).to_path_buf();
        if self.keys.is_some() {
            // Kept by name: no folders, and nothing but texts.
            return Ok((path, parent));
        }
        // A named pipe, a socket, a device or a folder where the file should be is not
        // replaced nor written into.
        if let Some(what) = fs::metadata(&path)
            .ok()
            .and_then(|m| files::not_a_file(m.file_type()))
        {
            let reason = FileError::NotAFile(what).to_string();
            self.keep(path.clone(), reason.clone());
            return Err(StorageError::Kept { path, reason });
        }
        self.disk
            .create_dir_all(&parent)
            .map_err(|source| StorageError::Io {
                path: path.clone(),
                source,
            })?;
        Ok((path, parent))
    }

    /// Writes `bytes` to `name` atomically: a temporary file, written, synced, renamed over the
    /// old file, the directory synced. Refuses a file that is left alone. A failure at any step
    /// leaves the old file as it was and no temporary file.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> Result<(), StorageError> {
        self.write_through_temp(name, false, |out| out.write_all(bytes).map_err(Filled::Io))
    }

    /// Writes `bytes` to a new file `name`, as [`Storage::write_atomic`] does, but only if no
    /// file has that name: a file there already is never written over ([`StorageError::Exists`]).
    pub fn write_new(&self, name: &str, bytes: &[u8]) -> Result<(), StorageError> {
        self.write_through_temp(name, true, |out| out.write_all(bytes).map_err(Filled::Io))
    }

    /// Writes `value` as JSON to `name`, atomically as [`Storage::write_atomic`] does, but made
    /// as it is written: the JSON goes into the temporary file a piece at a time, never whole in
    /// memory (the score table of a player of hundreds of thousands of games). Laid out and
    /// bounded as [`encode`] lays out and bounds a file: a pretty file that would pass
    /// [`MAX_FILE_BYTES`] is written compact instead, and one still too large is refused, the
    /// file on disk kept. Returns the layout written.
    pub fn write_json_streamed<T: Serialize + ?Sized>(
        &self,
        name: &str,
        value: &T,
        layout: Layout,
    ) -> Result<Layout, StorageError> {
        self.stream_within(name, value, layout, MAX_FILE_BYTES)
    }

    /// [`Storage::write_json_streamed`] within `limit` bytes.
    fn stream_within<T: Serialize + ?Sized>(
        &self,
        name: &str,
        value: &T,
        layout: Layout,
        limit: u64,
    ) -> Result<Layout, StorageError> {
        let once = |layout: Layout| {
            self.write_through_temp(name, false, |out| {
                let mut out = Bounded {
                    out,
                    written: 0,
                    limit,
                };
                json_into(&mut out, value, layout)?;
                out.write_all(b"\n").map_err(Filled::Io)
            })
        };
        let mut written = once(layout).map(|()| layout);
        if layout == Layout::Pretty && matches!(written, Err(StorageError::TooLarge { .. })) {
            written = once(Layout::Compact).map(|()| Layout::Compact);
        }
        match written {
            Err(StorageError::TooLarge { path, .. }) => {
                // The size it would have, for the message: counted, not kept.
                let mut count = Bounded {
                    out: &mut io::sink(),
                    written: 0,
                    limit: u64::MAX,
                };
                let _ = json_into(&mut count, value, Layout::Compact);
                Err(StorageError::TooLarge {
                    path,
                    size: count.written + 1,
                })
            }
            other => other,
        }
    }

    /// The steps of every whole-file write: the temporary file, filled by `fill` (through
    /// [`Disk::write`], a piece at a time) and synced, then given the name (over a file there,
    /// or only if none is: `only_new`), and the directory synced.
    fn write_through_temp(
        &self,
        name: &str,
        only_new: bool,
        fill: impl FnOnce(&mut dyn Write) -> Result<(), Filled>,
    ) -> Result<(), StorageError> {
        let (path, parent) = self.prepare(name)?;
        let io_err = |source| StorageError::Io {
            path: path.clone(),
            source,
        };
        if let Some(keys) = &self.keys {
            // Made whole in memory, then set in one step.
            let mut bytes = Vec::new();
            match fill(&mut bytes) {
                Ok(()) => {}
                Err(Filled::Io(e)) => return Err(io_err(e)),
                Err(Filled::Encode(source)) => return Err(StorageError::Encode { path, source }),
                Err(Filled::Over) => return Err(StorageError::TooLarge { path, size: 0 }),
            }
            if only_new && Self::get(&**keys, &path).map_err(io_err)?.is_some() {
                return Err(StorageError::Exists { path });
            }
            return Self::set(&**keys, &path, bytes).map_err(io_err);
        }
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let disk = &*self.disk;
        // Dropping the temporary file on an error removes it.
        let mut tmp = disk
            .create_temp(&parent, &format!(".{file_name}{TEMP_MARK}"))
            .map_err(io_err)?;
        let mut out = Pieces {
            disk,
            file: &mut tmp,
            buf: Vec::new(),
        };
        let filled = fill(&mut out).and_then(|()| out.finish().map_err(Filled::Io));
        match filled {
            Ok(()) => {}
            Err(Filled::Io(e)) => return Err(io_err(e)),
            Err(Filled::Encode(source)) => return Err(StorageError::Encode { path, source }),
            Err(Filled::Over) => return Err(StorageError::TooLarge { path, size: 0 }),
        }
        disk.sync(&tmp).map_err(io_err)?;
        if only_new {
            disk.rename_new(tmp, &path).map_err(|source| {
                if source.kind() == io::ErrorKind::AlreadyExists {
                    StorageError::Exists { path: path.clone() }
                } else {
                    io_err(source)
                }
            })?;
        } else {
            disk.rename(tmp, &path).map_err(io_err)?;
        }
        disk.sync_dir(&parent).map_err(io_err)
    }

    /// Appends `line` (without its line break) to `name` as one line, and syncs it: the folder
    /// is made, the file opened for appending (created if need be), and if it does not end with
    /// a line break (a line torn by a crash), one is written first, so that the torn line stays
    /// a bad line of its own and the new one is whole; then the line and its break go in one
    /// write, and the file is synced (and its folder, when the file is new). Refuses a file that
    /// is left alone. A crash at any moment leaves every line already there as it was.
    pub fn append_line(&self, name: &str, line: &[u8]) -> Result<(), StorageError> {
        self.append_line_or_retry(name, line)
            .map_err(|(error, _)| error)
    }

    /// [`Storage::append_line`], telling on failure whether the line may be appended again:
    /// `true` when the line is not in the file (a step up to the write failed: a full disk, say,
    /// or the write itself, which leaves at most a torn line that the next append closes),
    /// `false` when it is there already (only the sync failed) or the file is left alone.
    pub fn append_line_or_retry(
        &self,
        name: &str,
        line: &[u8],
    ) -> Result<(), (StorageError, bool)> {
        let (path, parent) = self.prepare(name).map_err(|e| {
            let retry = matches!(e, StorageError::Io { .. });
            (e, retry)
        })?;
        let io_err = |source| StorageError::Io {
            path: path.clone(),
            source,
        };
        let retry = |source| (io_err(source), true);
        if let Some(keys) = &self.keys {
            // The text with the line added, set in one step: a torn line cannot happen here,
            // but one in a text copied from a file is closed as on the disk.
            let mut text = Self::get(&**keys, &path)
                .map_err(retry)?
                .unwrap_or_default();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            let mut bytes = text.into_bytes();
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
            return Self::set(&**keys, &path, bytes).map_err(retry);
        }
        let disk = &*self.disk;
        let mut file = disk.open_append(&path).map_err(retry)?;
        let len = file.metadata().map_err(retry)?.len();
        let mut bytes = Vec::with_capacity(line.len() + 2);
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::End(-1)).map_err(retry)?;
            file.read_exact(&mut last).map_err(retry)?;
            if last[0] != b'\n' {
                bytes.push(b'\n');
            }
        }
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
        disk.append(&mut file, &bytes).map_err(retry)?;
        let written = |source| (io_err(source), false);
        disk.sync_appended(&file).map_err(written)?;
        if len == 0 {
            disk.sync_dir(&parent).map_err(written)?;
        }
        Ok(())
    }

    /// Writes `value` as JSON to `name`, atomically.
    pub fn write_json<T: Serialize + ?Sized>(
        &self,
        name: &str,
        value: &T,
        layout: Layout,
    ) -> Result<(), StorageError> {
        let bytes = encode(&self.path(name), value, layout)?;
        self.write_atomic(name, &bytes)
    }

    /// Removes the temporary files a crash or a kill left in the directory and in `saves/`:
    /// only the app's own, named `.<name>.json.tmp-…`. Returns how many were removed. Only the
    /// copy that holds the directory's lock may call this (no other copy is writing).
    pub fn sweep_debris(&self) -> usize {
        if self.unusable.is_some() || self.keys.is_some() {
            return 0;
        }
        let mut removed = 0;
        for dir in [self.dir.clone(), self.dir.join("saves")] {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let is_file = entry.file_type().is_ok_and(|t| t.is_file());
                if is_file
                    && name.to_str().is_some_and(is_temp_name)
                    && fs::remove_file(entry.path()).is_ok()
                {
                    removed += 1;
                }
            }
        }
        removed
    }

    /// Reads `name` as JSON whose number `version_field` (`"version"`, or `"format"` for saves)
    /// this build reads up to `supported`. A file larger than [`MAX_FILE_BYTES`] is not read and
    /// is moved aside; so is one that is not JSON of that shape or has no such number. A file
    /// with a higher number is left in place and never written ([`ReadOutcome::Newer`]).
    pub fn read_json<T: DeserializeOwned>(
        &self,
        name: &str,
        version_field: &str,
        supported: u64,
    ) -> ReadOutcome<T> {
        if self.unusable.is_some() {
            return ReadOutcome::Missing;
        }
        let path = self.path(name);
        let bytes = match self.read_bounded(&path) {
            Ok(bytes) => bytes,
            Err(FileError::Missing) => return ReadOutcome::Missing,
            Err(FileError::TooLarge { len, .. }) => {
                return self.quarantine(
                    name,
                    format!(
                        "it is {}, larger than the {} a Tilebox file can be, so it was not read",
                        size_text(len),
                        size_text(MAX_FILE_BYTES)
                    ),
                );
            }
            Err(e) => return self.refuse(path, &e),
        };
        // The number first, read alone (the rest of the file skipped, not kept); then the file
        // straight into its type: no tree of the whole file in memory on the way.
        let found = match version_of(&bytes, version_field) {
            Ok(Some(found)) => found,
            Ok(None) => {
                return self.quarantine(name, format!("it has no \"{version_field}\" number"));
            }
            Err(e) => return self.quarantine(name, json_words::error_words(&e)),
        };
        if found > supported {
            self.keep(
                path.clone(),
                format!("a newer Tilebox wrote it ({version_field} {found})"),
            );
            return ReadOutcome::Newer {
                value: serde_json::from_slice(&bytes).ok(),
                found,
                supported,
                path,
            };
        }
        if found < supported {
            return self.quarantine(
                name,
                format!("{version_field} {found} is not supported (this build reads {supported})"),
            );
        }
        match serde_json::from_slice(&bytes) {
            Ok(value) => ReadOutcome::Loaded(value),
            // In words, naming the field at fault: not serde's own text.
            Err(e) => self.quarantine(name, json_words::refusal_words::<T>(&bytes, &e)),
        }
    }

    /// The bytes of the file at `path`, if it is no larger than [`MAX_FILE_BYTES`].
    fn read_bounded(&self, path: &Path) -> Result<Vec<u8>, FileError> {
        let Some(keys) = &self.keys else {
            return files::read_bounded(path, MAX_FILE_BYTES, Kinds::Regular);
        };
        match Self::get(&**keys, path) {
            Ok(None) => Err(FileError::Missing),
            Ok(Some(text)) if text.len() as u64 > MAX_FILE_BYTES => Err(FileError::TooLarge {
                len: text.len() as u64,
                limit: MAX_FILE_BYTES,
            }),
            Ok(Some(text)) => Ok(text.into_bytes()),
            Err(e) => Err(FileError::Io(e)),
        }
    }

    /// A file that is not read, and so never written while the app runs, for `error` (not a
    /// regular file, a dangling link, the system refused): the outcome that says so.
    fn refuse<T>(&self, path: PathBuf, error: &FileError) -> ReadOutcome<T> {
        let reason = error.to_string();
        let message = format!("{}: {reason}", path.display());
        self.keep(path, format!("it could not be read ({reason})"));
        ReadOutcome::Failed(message)
    }

    /// Opens `name` to read it, only if it is a regular file, never blocking (a named pipe
    /// there would block): `Ok(None)` if there is no such file. A file that is not a regular
    /// file, or a link to nothing, is refused and never written while the app runs; one the
    /// system refuses to open is moved aside, but one it does not let this user read
    /// (permission denied) is its folder's problem, as [`Storage::folder_problem`] says it.
    pub fn open_to_read(&self, name: &str) -> Result<Option<Opened>, NotRead> {
        let path = self.path(name);
        if let Some(keys) = &self.keys {
            return match Self::get(&**keys, &path) {
                Ok(None) => Ok(None),
                Ok(Some(text)) => Ok(Some(Opened {
                    len: text.len() as u64,
                    reader: Box::new(io::Cursor::new(text.into_bytes())),
                })),
                Err(e) => Err(NotRead::File(self.refuse(path, &FileError::Io(e)))),
            };
        }
        let opened =
            files::open_regular(&path, fs::OpenOptions::new().read(true)).and_then(|file| {
                let meta = file.metadata().map_err(FileError::Io)?;
                if meta.is_dir() {
                    return Err(FileError::NotAFile("a folder"));
                }
                Ok(Opened {
                    len: meta.len(),
                    reader: Box::new(file),
                })
            });
        match opened {
            Ok(opened) => Ok(Some(opened)),
            Err(FileError::Missing) => Ok(None),
            Err(e @ (FileError::NotAFile(_) | FileError::Dangling { .. })) => {
                Err(NotRead::File(self.refuse(path, &e)))
            }
            Err(FileError::Io(e)) if e.kind() == io::ErrorKind::PermissionDenied => {
                let folder = path
                    .parent()
                    .map_or_else(|| self.dir.clone(), Path::to_path_buf);
                Err(NotRead::Folder(
                    self.folder_refused(folder, files::io_words(&e)),
                ))
            }
            Err(e) => Err(NotRead::File(self.quarantine(name, e.to_string()))),
        }
    }

    /// Why folder `folder` (`"saves"`) cannot be read, in words, if it exists and cannot be:
    /// then every file in it is left alone (never written while the app runs), and it is one
    /// notice, not one per file.
    pub fn folder_problem(&self, folder: &str) -> Option<String> {
        if self.unusable.is_some() || self.keys.is_some() {
            return None;
        }
        let path = self.path(folder);
        let problem = match fs::metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
            Err(e) => files::io_words(&e),
            Ok(meta) if !meta.is_dir() => "it is not a folder".to_string(),
            Ok(_) => match fs::read_dir(&path) {
                Ok(_) => return None,
                Err(e) => files::io_words(&e),
            },
        };
        Some(self.folder_refused(path, problem))
    }

    /// Folder `path` cannot be read, for `problem`: every file in it is left alone, and the
    /// words to say so (its path and the problem).
    fn folder_refused(&self, path: PathBuf, problem: String) -> String {
        let words = format!("{}: {problem}", path.display());
        self.keep(path, format!("its folder cannot be read ({problem})"));
        words
    }

    /// Moves `name` aside to `<name>.bad-<unix seconds>` because of `reason`.
    pub fn quarantine<T>(&self, name: &str, reason: String) -> ReadOutcome<T> {
        let path = self.path(name);
        let secs = crate::store::clock::unix_seconds();
        let taken = |target: &Path| match &self.keys {
            Some(keys) => !matches!(Self::get(&**keys, target), Ok(None)),
            None => target.exists(),
        };
        let mut target = PathBuf::from(format!("{}.bad-{secs}", path.display()));
        let mut n = 1;
        while taken(&target) {
            target = PathBuf::from(format!("{}.bad-{secs}-{n}", path.display()));
            n += 1;
        }
        let moved = match &self.keys {
            // The text under its new key first, then the old key forgotten: at no step is it
            // lost.
            Some(keys) => Self::get(&**keys, &path).and_then(|text| {
                Self::set(&**keys, &target, text.unwrap_or_default().into_bytes())?;
                keys.remove(&Self::key(&path)).map_err(io::Error::other)
            }),
            None => fs::rename(&path, &target),
        };
        match moved {
            Ok(()) => ReadOutcome::Quarantined {
                moved_to: target,
                reason,
            },
            Err(e) => {
                let message = format!(
                    "{} cannot be read ({reason}) nor moved aside ({}); it is left alone",
                    path.display(),
                    tilebox_core::files::io_words(&e)
                );
                self.keep(path, "it could not be read nor moved aside".to_string());
                ReadOutcome::Failed(message)
            }
        }
    }
}

/// `value` as the bytes of a JSON file laid out as `layout`, with a final line break, if they
/// are no larger than Tilebox reads back ([`MAX_FILE_BYTES`]): a pretty file that would be
/// larger is written compact instead, and one still too large is refused
/// ([`StorageError::TooLarge`]), so that the file on disk is kept.
pub fn encode<T: Serialize + ?Sized>(
    path: &Path,
    value: &T,
    layout: Layout,
) -> Result<Vec<u8>, StorageError> {
    encode_within(path, value, layout, MAX_FILE_BYTES)
}

/// [`encode`] within `limit` bytes.
fn encode_within<T: Serialize + ?Sized>(
    path: &Path,
    value: &T,
    layout: Layout,
    limit: u64,
) -> Result<Vec<u8>, StorageError> {
    let error = |source| StorageError::Encode {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = match layout {
        Layout::Pretty => serde_json::to_vec_pretty(value).map_err(error)?,
        Layout::Compact => serde_json::to_vec(value).map_err(error)?,
    };
    if layout == Layout::Pretty && bytes.len() as u64 >= limit {
        bytes = serde_json::to_vec(value).map_err(error)?;
    }
    bytes.push(b'\n');
    if bytes.len() as u64 > limit {
        return Err(StorageError::TooLarge {
            path: path.to_path_buf(),
            size: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// Why filling a temporary file stopped.
enum Filled {
    /// The disk refused.
    Io(io::Error),
    /// The value could not be turned into JSON.
    Encode(serde_json::Error),
    /// The file would pass its bound ([`Bounded`]).
    Over,
}

/// The size of a piece of a file written as it is made ([`Pieces`]).
const PIECE: usize = 64 * 1024;

/// The temporary file as a writer: what is written goes to [`Disk::write`] a piece of
/// [`PIECE`] bytes at a time (bytes given whole in one write go in one piece).
struct Pieces<'a> {
    disk: &'a dyn Disk,
    file: &'a mut NamedTempFile,
    buf: Vec<u8>,
}

impl Pieces<'_> {
    /// Writes what is still buffered.
    fn finish(&mut self) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.disk.write(self.file, &self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

impl Write for Pieces<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.buf.len() + bytes.len() > PIECE {
            self.finish()?;
        }
        if bytes.len() >= PIECE {
            self.disk.write(self.file, bytes)?;
        } else {
            self.buf.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer that refuses to pass `limit` bytes ([`Filled::Over`]), counting what it took.
struct Bounded<'a> {
    out: &'a mut dyn Write,
    written: u64,
    limit: u64,
}

/// The error a [`Bounded`] writer gives past its limit.
#[derive(Debug)]
struct OverLimit;

impl std::fmt::Display for OverLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the file would pass its bound")
    }
}

impl std::error::Error for OverLimit {}

impl Write for Bounded<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.written += bytes.len() as u64;
        if self.written > self.limit {
            return Err(io::Error::other(OverLimit));
        }
        self.out.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// `value` as JSON laid out as `layout`, written into `out` as it is made.
fn json_into<T: Serialize + ?Sized>(
    out: &mut Bounded<'_>,
    value: &T,
    layout: Layout,
) -> Result<(), Filled> {
    let written = match layout {
        Layout::Pretty => serde_json::to_writer_pretty(&mut *out, value),
        Layout::Compact => serde_json::to_writer(&mut *out, value),
    };
    written.map_err(|e| {
        if !e.is_io() {
            return Filled::Encode(e);
        }
        let e = io::Error::from(e);
        if e.get_ref().is_some_and(|inner| inner.is::<OverLimit>()) {
            Filled::Over
        } else {
            Filled::Io(e)
        }
    })
}

/// Whether `name` is one of the app's temporary files: `.<something>.json.tmp-<anything>`.
pub fn is_temp_name(name: &str) -> bool {
    name.strip_prefix('.')
        .and_then(|rest| rest.split_once(TEMP_MARK))
        .is_some_and(|(target, _)| target.ends_with(".json") && target.len() > ".json".len())
}

/// Reads the number `field` of the JSON object in `bytes`, if it is a whole number; every
/// other field is skipped, not kept (no tree of the file is built).
fn version_of(bytes: &[u8], field: &str) -> Result<Option<u64>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let found = de.deserialize_map(VersionOf(field))?;
    de.end()?;
    Ok(found)
}

/// The visitor of [`version_of`].
struct VersionOf<'a>(&'a str);

impl<'de> Visitor<'de> for VersionOf<'_> {
    type Value = Option<u64>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<u64>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == self.0 && found.is_none() {
                found = Some(map.next_value::<serde_json::Value>()?.as_u64());
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found.flatten())
    }
}

/// A size in words: "200.0 MB", "32.0 MB", "512 bytes".
fn size_text(bytes: u64) -> String {
    if bytes < 1024 * 1024 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    }
}

/// The label of the launcher's button that dismisses every notice at once, shown when there are
/// `count` of them (more than one, as a folder of refused files gives): "Dismiss all 3
/// notices".
pub fn dismiss_all_label(count: usize) -> String {
    format!("Dismiss all {count} notices")
}

/// A message for the launcher about a file that was moved aside, could not be read, or that a
/// newer Tilebox wrote, if any. `what` names the file for the player ("The score table
/// (scores.json)"); `newer_too` ends the sentence of a newer file.
pub fn notice<T>(what: &str, outcome: &ReadOutcome<T>) -> Option<String> {
    notice_with(what, outcome, "")
}

/// [`notice`], with `newer_too` added to the sentence of a file a newer Tilebox wrote.
pub fn notice_with<T>(what: &str, outcome: &ReadOutcome<T>, newer_too: &str) -> Option<String> {
    match outcome {
        ReadOutcome::Missing | ReadOutcome::Loaded(_) => None,
        ReadOutcome::Newer {
            found,
            supported,
            path,
            ..
        } => Some(format!(
            "{what} was written by a newer Tilebox (version {found}; this one reads version \
             {supported}). It is left as it is at {}, and nothing is written to it until you \
             quit.{newer_too}",
            path.display()
        )),
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

    /// The web side: files kept by name, as in a browser's storage.
    fn in_memory() -> (Arc<crate::store::keys::MemoryKeys>, Storage) {
        let keys = Arc::new(crate::store::keys::MemoryKeys::default());
        (Arc::clone(&keys), Storage::in_keys(keys))
    }

    #[test]
    fn kept_by_name_a_file_is_written_whole_read_back_and_appended_to() {
        use crate::store::keys::Keys as _;
        let (keys, storage) = in_memory();
        storage
            .write_json(
                "saves/2048.json",
                &serde_json::json!({"format": 1, "n": 2}),
                Layout::Compact,
            )
            .unwrap();
        assert_eq!(
            keys.get("tilebox/saves/2048.json").unwrap().as_deref(),
            Some("{\"format\":1,\"n\":2}\n")
        );
        let read: ReadOutcome<serde_json::Value> =
            storage.read_json("saves/2048.json", "format", 1);
        assert!(matches!(read, ReadOutcome::Loaded(v) if v["n"] == 2));
        storage
            .append_line("history/2048.jsonl", b"{\"a\":1}")
            .unwrap();
        // A torn line (a text copied from a file) is closed before the next.
        keys.set("tilebox/history/x.jsonl", "{\"torn").unwrap();
        storage
            .append_line("history/x.jsonl", b"{\"b\":2}")
            .unwrap();
        storage
            .append_line("history/2048.jsonl", b"{\"b\":2}")
            .unwrap();
        assert_eq!(
            keys.get("tilebox/history/2048.jsonl").unwrap().as_deref(),
            Some("{\"a\":1}\n{\"b\":2}\n")
        );
        assert_eq!(
            keys.get("tilebox/history/x.jsonl").unwrap().as_deref(),
            Some("{\"torn\n{\"b\":2}\n")
        );
        let mut opened = storage.open_to_read("history/2048.jsonl").unwrap().unwrap();
        let mut text = String::new();
        opened.reader.read_to_string(&mut text).unwrap();
        assert_eq!((opened.len, text.as_str()), (16, "{\"a\":1}\n{\"b\":2}\n"));
        assert!(
            storage
                .open_to_read("history/none.jsonl")
                .unwrap()
                .is_none()
        );
        // Created once, never written over.
        storage.write_new("variants/x.json", b"first").unwrap();
        let again = storage.write_new("variants/x.json", b"second");
        assert!(
            matches!(again, Err(StorageError::Exists { .. })),
            "{again:?}"
        );
        assert_eq!(
            keys.get("tilebox/variants/x.json").unwrap().as_deref(),
            Some("first")
        );
    }

    #[test]
    fn kept_by_name_a_bad_file_is_moved_aside_and_a_newer_one_left_alone() {
        use crate::store::keys::Keys as _;
        let (keys, storage) = in_memory();
        keys.set("tilebox/scores.json", "not json").unwrap();
        let read: ReadOutcome<serde_json::Value> = storage.read_json("scores.json", "version", 1);
        let ReadOutcome::Quarantined { moved_to, .. } = read else {
            panic!("{read:?}");
        };
        let moved = moved_to.to_string_lossy().into_owned();
        assert!(moved.starts_with("tilebox/scores.json.bad-"), "{moved}");
        assert_eq!(keys.get(&moved).unwrap().as_deref(), Some("not json"));
        assert_eq!(keys.get("tilebox/scores.json").unwrap(), None);

        keys.set(
            "tilebox/settings.json",
            r#"{"version": 9, "theme": "dark", "new": 1}"#,
        )
        .unwrap();
        let read: ReadOutcome<serde_json::Value> = storage.read_json("settings.json", "version", 1);
        assert!(
            matches!(read, ReadOutcome::Newer { found: 9, .. }),
            "{read:?}"
        );
        let write = storage.write_atomic("settings.json", b"{}");
        assert!(matches!(write, Err(StorageError::Kept { .. })), "{write:?}");
        assert_eq!(
            keys.get("tilebox/settings.json").unwrap().as_deref(),
            Some(r#"{"version": 9, "theme": "dark", "new": 1}"#)
        );
    }

    #[test]
    fn kept_by_name_a_full_store_refuses_the_write_and_keeps_the_file_before_it() {
        use crate::store::keys::Keys as _;
        let keys = Arc::new(crate::store::keys::MemoryKeys::with_limit(100));
        let storage = Storage::in_keys(Arc::clone(&keys) as Arc<dyn Keys>);
        storage
            .write_atomic("saves/a.json", b"{\"format\":1}")
            .unwrap();
        let big = vec![b'x'; 200];
        let write = storage.write_atomic("saves/a.json", &big);
        assert!(
            matches!(&write, Err(StorageError::Io { source, .. }) if source.to_string().contains("full")),
            "{write:?}"
        );
        assert_eq!(
            keys.get("tilebox/saves/a.json").unwrap().as_deref(),
            Some("{\"format\":1}")
        );
        assert!(
            storage
                .append_line_or_retry("history/a.jsonl", &big)
                .is_err_and(|(_, retry)| retry)
        );
    }

    /// A fresh directory of the test's own, removed when the test lets go of it.
    fn temp_dir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("tilebox-storage-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn a_new_file_is_created_in_its_folder_and_never_written_over() {
        let tmp = temp_dir("new");
        let dir = tmp.path();
        let storage = Storage::new(dir);
        storage.write_new("variants/x.json", b"first").unwrap();
        assert_eq!(fs::read(dir.join("variants/x.json")).unwrap(), b"first");
        let again = storage.write_new("variants/x.json", b"second");
        assert!(
            matches!(again, Err(StorageError::Exists { .. })),
            "{again:?}"
        );
        assert_eq!(fs::read(dir.join("variants/x.json")).unwrap(), b"first");
        // No temporary file is left beside it.
        assert_eq!(fs::read_dir(dir.join("variants")).unwrap().count(), 1);
    }

    #[test]
    fn a_file_that_cannot_be_moved_aside_is_never_written_afterwards() {
        let tmp = temp_dir("kept");
        let dir = tmp.path();
        let storage = Storage::new(dir);
        // Nothing to rename: the move aside fails, as it would on a read-only directory.
        let outcome = storage.quarantine::<()>("gone.json", "bad".to_string());
        assert!(matches!(outcome, ReadOutcome::Failed(_)), "{outcome:?}");
        let refused = storage.write_json("gone.json", &1, Layout::Compact);
        assert!(
            matches!(refused, Err(StorageError::Kept { .. })),
            "{refused:?}"
        );
        assert!(!dir.join("gone.json").exists());
        // Other files are written as usual.
        storage
            .write_json("other.json", &2, Layout::Compact)
            .unwrap();
        assert_eq!(fs::read_to_string(dir.join("other.json")).unwrap(), "2\n");
    }

    #[test]
    fn a_file_that_cannot_be_read_is_kept_as_it_is() {
        let tmp = temp_dir("unreadable");
        let dir = tmp.path();
        let storage = Storage::new(dir);
        fs::create_dir_all(dir.join("scores.json")).unwrap();
        let outcome = storage.read_json::<u32>("scores.json", "version", 1);
        match &outcome {
            ReadOutcome::Failed(text) => assert!(text.ends_with("it is a folder, not a file")),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            storage.write_atomic("scores.json", b"{}"),
            Err(StorageError::Kept { .. })
        ));
        assert!(dir.join("scores.json").is_dir());
    }

    #[test]
    fn an_append_after_a_torn_line_starts_a_line_of_its_own() {
        let tmp = temp_dir("append");
        let dir = tmp.path();
        let storage = Storage::new(dir);
        storage.append_line("h/a.jsonl", b"one").unwrap();
        storage.append_line("h/a.jsonl", b"two").unwrap();
        assert_eq!(fs::read(dir.join("h/a.jsonl")).unwrap(), b"one\ntwo\n");
        // A crash tore the next line: the one after it is still a line of its own.
        let mut file = fs::OpenOptions::new()
            .append(true)
            .open(dir.join("h/a.jsonl"))
            .unwrap();
        file.write_all(b"{\"torn").unwrap();
        drop(file);
        storage.append_line("h/a.jsonl", b"three").unwrap();
        assert_eq!(
            fs::read(dir.join("h/a.jsonl")).unwrap(),
            b"one\ntwo\n{\"torn\nthree\n"
        );
    }

    #[test]
    fn layouts() {
        let tmp = temp_dir("layouts");
        let dir = tmp.path();
        let storage = Storage::new(dir);
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

    #[test]
    fn temporary_names_are_the_apps_own_only() {
        assert!(is_temp_name(".scores.json.tmp-AbC123"));
        assert!(is_temp_name(".2048.json.tmp-17-99"));
        for other in [
            "scores.json",
            ".scores.json",
            ".json.tmp-x",
            "scores.json.tmp-1",
            ".notes.txt.tmp-1",
            "scores.json.bad-17",
            ".hidden",
        ] {
            assert!(!is_temp_name(other), "{other}");
        }
    }

    #[test]
    fn nothing_larger_than_the_bound_is_written() {
        let value = serde_json::json!({"games": {"a": [1, 2, 3], "b": [4, 5, 6]}});
        let path = Path::new("scores.json");
        let compact = encode_within(path, &value, Layout::Compact, 1000).unwrap();
        let pretty = encode_within(path, &value, Layout::Pretty, 1000).unwrap();
        assert!(pretty.len() > compact.len());
        // Pretty would be over the bound: compact instead, which reads back the same.
        let limit = compact.len() as u64 + 1;
        let within = encode_within(path, &value, Layout::Pretty, limit).unwrap();
        assert_eq!(within, compact);
        // Over the bound even compact: refused, in words.
        let err = encode_within(path, &value, Layout::Pretty, 10).unwrap_err();
        assert!(matches!(err, StorageError::TooLarge { size, .. } if size == compact.len() as u64));
        assert!(
            err.to_string()
                .starts_with("scores.json is not written: it would be "),
            "{err}"
        );
    }

    #[test]
    fn a_file_written_as_it_is_made_is_the_file_encoded_whole_and_as_bounded() {
        let tmp = temp_dir("streamed");
        let dir = tmp.path();
        let storage = Storage::new(dir);
        let games: serde_json::Map<String, serde_json::Value> = (0..20_000)
            .map(|i| (format!("g{i}"), serde_json::json!({"best": i})))
            .collect();
        let value = serde_json::json!({"version": 1, "games": games});
        let path = dir.join("s.json");
        // More than a piece: written a piece at a time, the same bytes as made whole.
        let layout = storage.write_json_streamed("s.json", &value, Layout::Pretty);
        assert_eq!(layout.unwrap(), Layout::Pretty);
        let whole = encode(&path, &value, Layout::Pretty).unwrap();
        assert!(whole.len() > 2 * PIECE);
        assert_eq!(fs::read(&path).unwrap(), whole);
        // Pretty would pass the bound: compact, as `encode` does.
        let compact = encode_within(&path, &value, Layout::Compact, u64::MAX).unwrap();
        let limit = compact.len() as u64 + 10;
        let layout = storage.stream_within("s.json", &value, Layout::Pretty, limit);
        assert_eq!(layout.unwrap(), Layout::Compact);
        assert_eq!(fs::read(&path).unwrap(), compact);
        // Compact would pass it too: refused with the size it would have, the file kept.
        let err = storage
            .stream_within("s.json", &value, Layout::Pretty, 1000)
            .unwrap_err();
        assert!(
            matches!(err, StorageError::TooLarge { size, .. } if size == compact.len() as u64),
            "{err}"
        );
        assert_eq!(fs::read(&path).unwrap(), compact);
        assert_eq!(
            fs::read_dir(dir).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn the_version_is_read_without_the_rest() {
        assert_eq!(
            version_of(br#"{"a":[1,{"b":2}],"version":3}"#, "version").unwrap(),
            Some(3)
        );
        assert_eq!(version_of(br#"{"version":"3"}"#, "version").unwrap(), None);
        assert_eq!(version_of(br#"{"format":1}"#, "version").unwrap(), None);
        assert!(version_of(br#"[1]"#, "version").is_err());
        assert!(version_of(br#"{"version":1} x"#, "version").is_err());
    }

    #[test]
    fn sizes_read_in_words() {
        assert_eq!(size_text(200 * 1024 * 1024), "200.0 MB");
        assert_eq!(size_text(MAX_FILE_BYTES), "32.0 MB");
        assert_eq!(size_text(12), "12 bytes");
    }
}
