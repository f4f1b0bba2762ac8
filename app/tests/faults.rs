//! Fault injection through the file-system seam ([`tilebox::store::storage::Disk`]): each step of a write
//! (create the folder, create the temporary file, write, sync, rename, sync the folder) fails in
//! turn, and a child process is killed (`abort`, no clean-up of any kind) just before and just
//! after each step. After a restart nothing already saved is lost, the file holds the old or the
//! new content whole, and no temporary file is left. The same for an append to the history (open,
//! write, sync), and a write torn halfway: every whole record reads back and the app starts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use common::temp_dir;
use tempfile::NamedTempFile;
use tilebox::store::scores::{SCORES_FILE, Scores};
use tilebox::store::storage::{Disk, Layout, RealDisk, Storage};

/// The steps of a write, in order.
const STEPS: [&str; 6] = [
    "create_dir",
    "create_temp",
    "write",
    "sync",
    "rename",
    "sync_dir",
];

/// What happens at the chosen step.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// The step fails with an error.
    Fail,
    /// The process dies before the step.
    KillBefore,
    /// The process dies right after the step.
    KillAfter,
    /// The step writes half of its bytes, then the process dies (a torn write).
    Tear,
}

/// The real disk, with `fault` at step `at`.
struct FaultDisk {
    at: &'static str,
    fault: Fault,
}

impl FaultDisk {
    fn step<T>(&self, name: &str, run: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
        if name != self.at {
            return run();
        }
        match self.fault {
            Fault::Fail => Err(io::Error::other(format!("injected failure at {name}"))),
            Fault::KillBefore => std::process::abort(),
            Fault::KillAfter | Fault::Tear => {
                let _ = run();
                std::process::abort()
            }
        }
    }
}

impl Disk for FaultDisk {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.step("create_dir", || RealDisk.create_dir_all(dir))
    }
    fn create_temp(&self, dir: &Path, prefix: &str) -> io::Result<NamedTempFile> {
        self.step("create_temp", || RealDisk.create_temp(dir, prefix))
    }
    fn write(&self, file: &mut NamedTempFile, bytes: &[u8]) -> io::Result<()> {
        self.step("write", || RealDisk.write(file, bytes))
    }
    fn sync(&self, file: &NamedTempFile) -> io::Result<()> {
        self.step("sync", || RealDisk.sync(file))
    }
    fn rename(&self, file: NamedTempFile, to: &Path) -> io::Result<()> {
        if self.at == "rename" && matches!(self.fault, Fault::KillBefore) {
            // Dying with the temporary file still there: nothing may remove it.
            std::mem::forget(file);
            std::process::abort();
        }
        self.step("rename", || RealDisk.rename(file, to))
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.step("sync_dir", || RealDisk.sync_dir(dir))
    }
    fn open_append(&self, path: &Path) -> io::Result<std::fs::File> {
        self.step("open_append", || RealDisk.open_append(path))
    }
    fn append(&self, file: &mut std::fs::File, bytes: &[u8]) -> io::Result<()> {
        if self.at == "append" && matches!(self.fault, Fault::Tear) {
            let _ = RealDisk.append(file, &bytes[..bytes.len() / 2]);
            let _ = file.sync_all();
            std::process::abort();
        }
        self.step("append", || RealDisk.append(file, bytes))
    }
    fn sync_appended(&self, file: &std::fs::File) -> io::Result<()> {
        self.step("sync_appended", || RealDisk.sync_appended(file))
    }
}

/// The score table before the write (on disk) and the one the write brings.
fn tables() -> (Scores, Scores) {
    let mut old = Scores::default();
    old.entry("2048").best = 1000;
    let mut new = old.clone();
    new.entry("2048").best = 2000;
    new.entry("threes").played = 3;
    (old, new)
}

/// Every temporary file of the app under `dir`.
fn temporary_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for sub in [dir.to_path_buf(), dir.join("saves")] {
        let Ok(entries) = std::fs::read_dir(&sub) else {
            continue;
        };
        for e in entries {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            if name.contains(".tmp") || name.starts_with(".scores") {
                found.push(name);
            }
        }
    }
    found
}

/// A data directory with the old table and a game in progress already saved.
fn saved_dir(name: &str) -> (common::TestDir, Vec<u8>) {
    let dir = temp_dir(name);
    let (old, _) = tables();
    Storage::new(&dir)
        .write_json(SCORES_FILE, &old, Layout::Pretty)
        .unwrap();
    let session = tilebox_games::registry()
        .get("2048")
        .unwrap()
        .new_session(3)
        .unwrap();
    common::write_save(&dir, &session.save());
    let save = std::fs::read(dir.join("saves/2048.json")).unwrap();
    (dir, save)
}

/// After a restart: the table is the old or the new one, whole; the save is untouched; no
/// temporary file is left; nothing was moved aside.
fn check_after_restart(dir: &Path, save: &[u8], what: &str) -> Scores {
    let app = tilebox::TileboxApp::new(dir, None);
    assert!(app.notices().is_empty(), "{what}: {:?}", app.notices());
    assert!(
        temporary_files(dir).is_empty(),
        "{what}: {:?}",
        temporary_files(dir)
    );
    assert!(common::moved_aside(dir).is_empty(), "{what}");
    let (old, new) = tables();
    let held = app.scores().clone();
    drop(app);
    let (on_disk, notice) = Scores::load(&Storage::new(dir));
    assert!(notice.is_none(), "{what}: {notice:?}");
    assert!(on_disk == old || on_disk == new, "{what}: {on_disk:?}");
    assert_eq!(held.get("2048").best, on_disk.get("2048").best, "{what}");
    assert_eq!(
        std::fs::read(dir.join("saves/2048.json")).unwrap(),
        save,
        "{what}: the save already made is kept"
    );
    on_disk
}

#[test]
fn a_write_that_fails_at_any_step_leaves_the_old_or_the_new_file_and_no_temporary_file() {
    for at in STEPS {
        let (dir, save) = saved_dir(&format!("fail-{at}"));
        let storage = Storage::with_disk(
            &dir,
            Arc::new(FaultDisk {
                at,
                fault: Fault::Fail,
            }),
        );
        let (old, new) = tables();
        let result = storage.write_json(SCORES_FILE, &new, Layout::Pretty);
        assert!(result.is_err(), "{at}: the failure is reported");
        // No temporary file even before a restart.
        assert!(
            temporary_files(&dir).is_empty(),
            "{at}: {:?}",
            temporary_files(&dir)
        );
        let on_disk = check_after_restart(&dir, &save, at);
        // Up to the rename, the old file is there; a failure after it leaves the new one.
        let expected = if at == "sync_dir" { &new } else { &old };
        assert_eq!(&on_disk, expected, "{at}");
    }
}

/// The variables that turn [`child_writes_and_dies`] into a copy of the app dying mid-write.
const KILL_AT: &str = "TILEBOX_TEST_KILL_AT";
const KILL_DIR: &str = "TILEBOX_TEST_KILL_DIR";
const KILL_AFTER: &str = "TILEBOX_TEST_KILL_AFTER";

/// Not a test of its own: run by [`a_copy_killed_at_any_step_of_a_write_loses_nothing`] in a
/// child process, it writes the new table through a disk that kills it at the step named.
#[test]
fn child_writes_and_dies() {
    let (Ok(at), Some(dir)) = (std::env::var(KILL_AT), std::env::var_os(KILL_DIR)) else {
        return;
    };
    let at = STEPS.into_iter().find(|s| *s == at).unwrap();
    let fault = if std::env::var_os(KILL_AFTER).is_some() {
        Fault::KillAfter
    } else {
        Fault::KillBefore
    };
    let storage = Storage::with_disk(&dir, Arc::new(FaultDisk { at, fault }));
    let (_, new) = tables();
    let _ = storage.write_json(SCORES_FILE, &new, Layout::Pretty);
    // Not reached: the disk killed the process.
    std::process::exit(0);
}

#[test]
fn a_copy_killed_at_any_step_of_a_write_loses_nothing() {
    let (old, new) = tables();
    for at in STEPS {
        for after in [false, true] {
            let what = format!("{} {at}", if after { "after" } else { "before" });
            let (dir, save) = saved_dir(&format!("kill-{at}-{after}"));
            let mut child = Command::new(std::env::current_exe().unwrap());
            child
                .args(["--exact", "child_writes_and_dies", "--nocapture"])
                .env(KILL_AT, at)
                .env(KILL_DIR, dir.as_os_str())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            if after {
                child.env(KILL_AFTER, "1");
            }
            let status = child.status().unwrap();
            assert!(!status.success(), "{what}: the child was not killed");
            let on_disk = check_after_restart(&dir, &save, &what);
            // Before the rename is done the old table is there; once it is, the new one.
            let renamed = STEPS.iter().position(|s| *s == at).unwrap() + usize::from(after)
                > STEPS.iter().position(|s| *s == "rename").unwrap();
            assert_eq!(
                on_disk,
                if renamed { new.clone() } else { old.clone() },
                "{what}"
            );
        }
    }
}

/// The steps of an append to a file that exists, in order.
const APPEND_STEPS: [&str; 4] = ["create_dir", "open_append", "append", "sync_appended"];

const APPEND_KILL_AT: &str = "TILEBOX_TEST_APPEND_KILL_AT";
const APPEND_KILL_DIR: &str = "TILEBOX_TEST_APPEND_KILL_DIR";
const APPEND_FAULT: &str = "TILEBOX_TEST_APPEND_FAULT";

/// A record of a real game of 2048 from `seed`, played `moves` moves.
fn record(seed: u64, moves: usize) -> tilebox::store::history::Record {
    let mut session = tilebox_games::registry()
        .get("2048")
        .unwrap()
        .new_session(seed)
        .unwrap();
    for _ in 0..moves {
        let mv = session.legal_moves()[0].clone();
        session.play_text(&mv).unwrap();
    }
    tilebox::store::history::Record::of(
        "2048",
        &*session,
        &tilebox::store::tally::Tally::default(),
        None,
        5000,
        tilebox_core::date::rfc3339(1_800_000_000),
    )
}

/// Not a test of its own: run by [`a_copy_killed_during_an_append_loses_no_whole_record`] in a
/// child process, it appends a third record through a disk that kills it at the step named.
#[test]
fn child_appends_and_dies() {
    let (Ok(at), Ok(fault), Some(dir)) = (
        std::env::var(APPEND_KILL_AT),
        std::env::var(APPEND_FAULT),
        std::env::var_os(APPEND_KILL_DIR),
    ) else {
        return;
    };
    let at = APPEND_STEPS.into_iter().find(|s| *s == at).unwrap();
    let fault = match fault.as_str() {
        "before" => Fault::KillBefore,
        "after" => Fault::KillAfter,
        _ => Fault::Tear,
    };
    let storage = Storage::with_disk(&dir, Arc::new(FaultDisk { at, fault }));
    let name = tilebox::store::history::history_file_name("2048");
    let _ = storage.append_line(&name, &record(3, 30).line().unwrap());
    // Not reached: the disk killed the process.
    std::process::exit(0);
}

#[test]
fn a_copy_killed_during_an_append_loses_no_whole_record() {
    use tilebox::store::history::{HistoryView, history_file_name};
    let name = history_file_name("2048");
    let (first, second, third, fourth) =
        (record(1, 10), record(2, 20), record(3, 30), record(4, 5));
    let mut cases: Vec<(&str, &str)> = APPEND_STEPS
        .iter()
        .flat_map(|at| [(*at, "before"), (*at, "after")])
        .collect();
    cases.push(("append", "tear"));
    for (at, fault) in cases {
        let what = format!("{fault} {at}");
        let dir = temp_dir(&format!("append-kill-{at}-{fault}"));
        let storage = Storage::new(&dir);
        storage.append_line(&name, &first.line().unwrap()).unwrap();
        storage.append_line(&name, &second.line().unwrap()).unwrap();
        let status = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_appends_and_dies", "--nocapture"])
            .env(APPEND_KILL_AT, at)
            .env(APPEND_FAULT, fault)
            .env(APPEND_KILL_DIR, dir.as_os_str())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success(), "{what}: the child was not killed");
        // The third record is there once its write is done, whole; torn, it is ignored.
        let written = fault == "after" && (at == "append" || at == "sync_appended")
            || fault == "before" && at == "sync_appended";
        let mut expected = vec![first.clone(), second.clone()];
        if written {
            expected.push(third.clone());
        }
        let (records, notice) = tilebox::store::history::read(&storage, "2048", "2048");
        assert_eq!(records, expected, "{what}");
        assert!(notice.is_none(), "{what}: {notice:?}");

        // The app starts fine over it and sees the same; the next record is whole.
        let mut app = tilebox::TileboxApp::new(&dir, None);
        assert!(app.notices().is_empty(), "{what}: {:?}", app.notices());
        assert!(app.wait_for_histories(std::time::Duration::from_secs(60)));
        match app.history("2048") {
            HistoryView::Ready(held) => assert_eq!(held, expected.as_slice(), "{what}"),
            HistoryView::Loading => panic!("{what}: still loading"),
        }
        drop(app);
        assert!(common::moved_aside(&dir).is_empty(), "{what}");
        storage.append_line(&name, &fourth.line().unwrap()).unwrap();
        expected.push(fourth.clone());
        let (records, notice) = tilebox::store::history::read(&storage, "2048", "2048");
        assert_eq!(records, expected, "{what}");
        // A torn line, now followed by another, is counted as a line skipped.
        assert_eq!(notice.is_some(), fault == "tear", "{what}: {notice:?}");
    }
}

#[test]
fn an_append_that_fails_at_any_step_is_reported_and_leaves_the_records_there() {
    let name = tilebox::store::history::history_file_name("2048");
    let (first, second) = (record(1, 10), record(2, 20));
    for at in APPEND_STEPS {
        let dir = temp_dir(&format!("append-fail-{at}"));
        Storage::new(&dir)
            .append_line(&name, &first.line().unwrap())
            .unwrap();
        let storage = Storage::with_disk(
            &dir,
            Arc::new(FaultDisk {
                at,
                fault: Fault::Fail,
            }),
        );
        // Through the writer, as the app appends: the failure comes back to be shown.
        let writer = tilebox::store::writer::Writer::start(storage);
        writer.append(&name, "the history of 2048", second.line().unwrap());
        assert!(writer.flush(std::time::Duration::from_secs(60)).is_empty());
        let failures = writer.take_failures();
        assert_eq!(failures.len(), 1, "{at}");
        assert_eq!(failures[0].name, name, "{at}");
        // Up to the write, the file is as it was; a failed sync leaves the line written.
        let mut expected = vec![first.clone()];
        if at == "sync_appended" {
            expected.push(second.clone());
        }
        let (records, notice) = tilebox::store::history::read(&Storage::new(&dir), "2048", "2048");
        assert_eq!(records, expected, "{at}");
        assert!(notice.is_none(), "{at}");
    }
}
