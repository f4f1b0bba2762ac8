//! One writer per data directory: a running app holds an exclusive lock on `<data dir>/lock`, as
//! Firefox holds its profile's. The lock is the operating system's (`File::try_lock`), so it goes
//! with the process: a copy killed with `kill -9` never blocks the next start. A second copy
//! started on the same directory finds the lock taken and writes nothing.
//!
//! In a page, where there is no OS lock, the one writer is a tab ([`TabLock`]): a lock kept in
//! the browser's storage under [`TAB_LOCK_KEY`], renewed from the frame, which a second tab
//! finds and is refused by, and which a tab that slept and lost it finds taken.

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

/// The key of the web's lock in the storage of keys ([`crate::store::keys`]).
pub const TAB_LOCK_KEY: &str = "tilebox/lock";

/// How often a tab renews its lock, in milliseconds ([`TabLock::renew`] writes no more often).
pub const TAB_RENEW_MS: u64 = 1_000;

/// How old a tab's lock may be before another tab takes it, in milliseconds: five renewals, so
/// that a frame late by a few seconds (a long search, a busy browser) keeps it, while a tab
/// that closed without giving it back (a crash) blocks a new one for five seconds at most. A
/// tab the browser puts to sleep (hidden, it draws no frames) loses it after these five seconds
/// to a tab opened then, and is told so when it wakes.
pub const TAB_STALE_MS: u64 = 5_000;

/// What the lock's key holds: the tab and when it last renewed (milliseconds since 1970).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct TabStamp {
    tab: String,
    at: u64,
}

/// The stamp kept under [`TAB_LOCK_KEY`], if there is a readable one.
fn tab_stamp(keys: &dyn crate::store::keys::Keys) -> Option<TabStamp> {
    let text = keys.get(TAB_LOCK_KEY).ok()??;
    serde_json::from_str(&text).ok()
}

/// Why a tab could not take the lock.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TabHeld {
    /// Another tab of this browser holds it: this one writes nothing
    /// (`AlreadyRunning::in_another_tab`, in the ui).
    #[error("Tilebox is open in another tab of this browser")]
    Held,
    /// The browser's storage does not take the lock's stamp (it is full, or refused): the tab
    /// plays but saves nothing, since it could not keep other tabs from writing. The words say
    /// why.
    #[error("{0}")]
    Unwritable(String),
}

/// What a renewal found ([`TabLock::renew`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Renewal {
    /// The lock is still this tab's.
    Kept,
    /// Another tab took it while this one slept: this tab must write nothing more. Said once;
    /// later renewals are [`Renewal::Gone`].
    Lost,
    /// Lost before: nothing is written or checked any more.
    Gone,
}

/// One writer per browser: the lock of a tab, kept in the storage of keys under
/// [`TAB_LOCK_KEY`] as this tab's id and the time it last renewed. The tab's id and the time
/// are the caller's (the page makes them from a random number and the browser's clock), so it
/// is tested with [`crate::store::keys::MemoryKeys`] and a made-up clock. Dropping it gives it
/// back.
pub struct TabLock {
    keys: std::sync::Arc<dyn crate::store::keys::Keys>,
    tab: String,
    /// When it last wrote its stamp.
    renewed: u64,
    lost: bool,
}

impl std::fmt::Debug for TabLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TabLock")
            .field("tab", &self.tab)
            .field("renewed", &self.renewed)
            .field("lost", &self.lost)
            .finish_non_exhaustive()
    }
}

impl TabLock {
    /// Takes the lock for tab `tab` at `now_ms`: where no tab holds it, its holder's stamp is
    /// older than [`TAB_STALE_MS`], or it is this tab's own. Another tab's fresh lock is
    /// [`TabHeld::Held`]; a store that does not take the stamp, [`TabHeld::Unwritable`].
    pub fn take(
        keys: std::sync::Arc<dyn crate::store::keys::Keys>,
        tab: impl Into<String>,
        now_ms: u64,
    ) -> Result<TabLock, TabHeld> {
        let tab = tab.into();
        if let Some(stamp) = tab_stamp(keys.as_ref())
            && stamp.tab != tab
            && now_ms.saturating_sub(stamp.at) < TAB_STALE_MS
        {
            return Err(TabHeld::Held);
        }
        let mut lock = TabLock {
            keys,
            tab,
            renewed: now_ms,
            lost: false,
        };
        if let Err(why) = lock.stamp(now_ms) {
            // Nothing of this tab's is there to give back.
            lock.lost = true;
            return Err(TabHeld::Unwritable(format!(
                "The browser's storage does not take Tilebox's lock ({why}), so nothing is \
                 saved in this tab."
            )));
        }
        Ok(lock)
    }

    /// Writes this tab's stamp at `now_ms`; `Err` says why the store refused it.
    fn stamp(&mut self, now_ms: u64) -> Result<(), String> {
        let stamp = TabStamp {
            tab: self.tab.clone(),
            at: now_ms,
        };
        let text = serde_json::to_string(&stamp).map_err(|e| e.to_string())?;
        self.keys.set(TAB_LOCK_KEY, &text)?;
        self.renewed = now_ms;
        Ok(())
    }

    /// The tab's id.
    pub fn tab(&self) -> &str {
        &self.tab
    }

    /// Called each frame: once [`TAB_RENEW_MS`] has passed since the last renewal, checks the
    /// lock is still this tab's and renews it at `now_ms`; else does nothing. [`Renewal::Lost`],
    /// once, where it is not: another tab's stamp (it took the lock while this tab slept), no
    /// stamp at all (another tab took it and gave it back, or the storage was cleared: what
    /// this tab holds of the games may be older than what is kept), or a stamp the store no
    /// longer takes (full: another tab could take the lock once it goes stale).
    pub fn renew(&mut self, now_ms: u64) -> Renewal {
        if self.lost {
            return Renewal::Gone;
        }
        if now_ms.saturating_sub(self.renewed) < TAB_RENEW_MS {
            return Renewal::Kept;
        }
        let still_ours = tab_stamp(self.keys.as_ref()).is_some_and(|stamp| stamp.tab == self.tab);
        if !still_ours || self.stamp(now_ms).is_err() {
            self.lost = true;
            return Renewal::Lost;
        }
        Renewal::Kept
    }

    /// Gives the lock back, if it is still this tab's: another tab may take it at once. What
    /// dropping it does; the page calls it too when it is closed.
    pub fn release(&mut self) {
        if !self.lost {
            release_tab(self.keys.as_ref(), &self.tab);
            self.lost = true;
        }
    }
}

impl Drop for TabLock {
    fn drop(&mut self) {
        self.release();
    }
}

/// Gives back tab `tab`'s lock in `keys`, if that tab holds it: for a page's "closed" event,
/// which has no hold of the app.
pub fn release_tab(keys: &dyn crate::store::keys::Keys, tab: &str) {
    if tab_stamp(keys).is_some_and(|stamp| stamp.tab == tab) {
        let _ = keys.remove(TAB_LOCK_KEY);
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
    use crate::store::keys::{Keys, MemoryKeys};
    use std::sync::Arc;

    fn memory() -> Arc<MemoryKeys> {
        Arc::new(MemoryKeys::default())
    }

    #[test]
    fn a_second_tab_is_refused_while_the_first_renews() {
        let keys = memory();
        let mut first = TabLock::take(keys.clone(), "a", 1_000).unwrap();
        // Every frame for a minute, by a made-up clock: a second tab is refused throughout.
        for now in (1_000..61_000).step_by(250) {
            assert_eq!(first.renew(now), Renewal::Kept);
            assert_eq!(
                TabLock::take(keys.clone(), "b", now).unwrap_err(),
                TabHeld::Held
            );
        }
        // Its own lock is its to take again (the same tab starting over).
        drop(TabLock::take(keys.clone(), "a", 61_000).unwrap());
    }

    #[test]
    fn a_stale_lock_is_taken() {
        let keys = memory();
        let first = TabLock::take(keys.clone(), "a", 1_000).unwrap();
        // The first tab sleeps (no frames): its stamp goes stale.
        assert!(TabLock::take(keys.clone(), "b", 1_000 + TAB_STALE_MS - 1).is_err());
        let second = TabLock::take(keys.clone(), "b", 1_000 + TAB_STALE_MS).unwrap();
        assert_eq!(tab_stamp(keys.as_ref()).unwrap().tab, "b");
        // Dropping the first, which lost it, leaves the second's alone.
        drop(first);
        assert_eq!(tab_stamp(keys.as_ref()).unwrap().tab, second.tab());
        // An unreadable stamp is no holder.
        drop(second);
        keys.set(TAB_LOCK_KEY, "not a stamp").unwrap();
        TabLock::take(keys.clone(), "c", 0).unwrap();
    }

    #[test]
    fn a_tab_that_lost_its_lock_is_told_so_at_its_next_renewal() {
        let keys = memory();
        let mut first = TabLock::take(keys.clone(), "a", 0).unwrap();
        let _second = TabLock::take(keys.clone(), "b", TAB_STALE_MS + 10).unwrap();
        // Not yet due: nothing is checked or written.
        first.renewed = TAB_STALE_MS + 10;
        assert_eq!(first.renew(TAB_STALE_MS + 20), Renewal::Kept);
        assert_eq!(first.renew(TAB_STALE_MS + 10 + TAB_RENEW_MS), Renewal::Lost);
        assert_eq!(
            first.renew(TAB_STALE_MS + 10 + 3 * TAB_RENEW_MS),
            Renewal::Gone
        );
        // It never wrote over the second's stamp.
        assert_eq!(tab_stamp(keys.as_ref()).unwrap().tab, "b");
    }

    /// A tab whose stamp is gone when it wakes (another tab took the lock, played and gave it
    /// back; or the page came back from the browser's back-forward cache after giving it back)
    /// holds games older than those kept: it writes nothing more.
    #[test]
    fn a_tab_whose_stamp_is_gone_when_it_wakes_has_lost_its_lock() {
        let keys = memory();
        let mut first = TabLock::take(keys.clone(), "a", 0).unwrap();
        let second = TabLock::take(keys.clone(), "b", TAB_STALE_MS).unwrap();
        drop(second);
        assert_eq!(keys.get(TAB_LOCK_KEY).unwrap(), None);
        assert_eq!(first.renew(TAB_STALE_MS + TAB_RENEW_MS), Renewal::Lost);
        // Nor does it stamp the key again.
        assert_eq!(keys.get(TAB_LOCK_KEY).unwrap(), None);
    }

    /// A store that does not take the stamp (full): no lock at the start, and a lock that
    /// cannot be renewed is lost, before another tab could take it once it went stale.
    #[test]
    fn a_store_that_refuses_the_stamp_gives_no_lock_and_loses_a_held_one() {
        let full = Arc::new(MemoryKeys::with_limit(8));
        let refused = TabLock::take(full.clone(), "a", 0).unwrap_err();
        assert!(
            matches!(&refused, TabHeld::Unwritable(why) if why.contains("full")),
            "{refused:?}"
        );
        assert_eq!(full.get(TAB_LOCK_KEY).unwrap(), None);

        // Room for one stamp of "a", then the store fills.
        let keys = Arc::new(MemoryKeys::with_limit(60));
        let mut first = TabLock::take(keys.clone(), "a", 0).unwrap();
        keys.set("tilebox/x", &"x".repeat(20)).unwrap();
        assert_eq!(first.renew(TAB_RENEW_MS * 1_000_000_000), Renewal::Lost);
    }

    #[test]
    fn a_released_lock_is_free_at_once() {
        let keys = memory();
        let mut first = TabLock::take(keys.clone(), "a", 0).unwrap();
        first.release();
        assert_eq!(keys.get(TAB_LOCK_KEY).unwrap(), None);
        TabLock::take(keys.clone(), "b", 1).unwrap();
        // By the page's event too, and only for the tab that holds it.
        let keys = memory();
        let _a = TabLock::take(keys.clone(), "a", 0).unwrap();
        release_tab(keys.as_ref(), "b");
        assert!(TabLock::take(keys.clone(), "b", 1).is_err());
        release_tab(keys.as_ref(), "a");
        TabLock::take(keys.clone(), "b", 1).unwrap();
    }

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
