//! The window never waits for the disk: every write goes through the writer thread. A disk that
//! blocks leaves frames coming and moves playing; a disk that fails is reported under the board
//! and in the launcher while play goes on. Frames and moves are counted, never timed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use common::{key_of, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tempfile::NamedTempFile;
use tilebox::TileboxApp;
use tilebox::store::keys::{Keys, MemoryKeys};
use tilebox::store::storage::{Disk, RealDisk, Storage};
use tilebox::store::writer::Writer;

/// The real disk behind a gate: every step waits until the gate opens. It notes the threads
/// that called it and how many calls are waiting.
struct GatedDisk {
    open: Mutex<bool>,
    opened: Condvar,
    waiting: AtomicUsize,
    callers: Mutex<Vec<ThreadId>>,
}

impl GatedDisk {
    fn closed() -> Arc<Self> {
        Arc::new(Self {
            open: Mutex::new(false),
            opened: Condvar::new(),
            waiting: AtomicUsize::new(0),
            callers: Mutex::new(Vec::new()),
        })
    }

    fn gate(&self) {
        self.callers
            .lock()
            .unwrap()
            .push(std::thread::current().id());
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.opened.wait(open).unwrap();
        }
        self.waiting.fetch_sub(1, Ordering::SeqCst);
    }

    fn release(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }
}

impl Disk for GatedDisk {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.gate();
        RealDisk.create_dir_all(dir)
    }
    fn create_temp(&self, dir: &Path, prefix: &str) -> io::Result<NamedTempFile> {
        self.gate();
        RealDisk.create_temp(dir, prefix)
    }
    fn write(&self, file: &mut NamedTempFile, bytes: &[u8]) -> io::Result<()> {
        self.gate();
        RealDisk.write(file, bytes)
    }
    fn sync(&self, file: &NamedTempFile) -> io::Result<()> {
        self.gate();
        RealDisk.sync(file)
    }
    fn rename(&self, file: NamedTempFile, to: &Path) -> io::Result<()> {
        self.gate();
        RealDisk.rename(file, to)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.gate();
        RealDisk.sync_dir(dir)
    }
}

/// The app over `dir` writing through `disk`, opened on `game`.
fn app_over(dir: &Path, disk: Arc<dyn Disk>, game: &str) -> Harness<'static, TileboxApp> {
    common::harness_with_writer(Writer::start(Storage::with_disk(dir, disk)), game)
}

#[test]
fn while_the_disk_blocks_frames_keep_coming_and_moves_keep_playing() {
    let dir = temp_dir("blocked-disk");
    let disk = GatedDisk::closed();
    let mut h = app_over(&dir, disk.clone(), "2048");
    let test_thread = std::thread::current().id();

    let first_frame = h.ctx.cumulative_frame_nr();
    let mut frames = 0;
    let mut played = 0;
    for k in ["L", "D", "R", "U"].iter().cycle().take(40) {
        let before = h.state().session("2048").unwrap().move_count();
        h.key_press(key_of(k));
        h.step();
        frames += 1;
        played += h.state().session("2048").unwrap().move_count() - before;
    }
    // Every frame asked for was drawn, and the moves were played, while the writer thread is
    // still held at the disk's gate with the first write.
    // (A key press may draw a frame of its own: at least one frame per step.)
    let drawn = h.ctx.cumulative_frame_nr() - first_frame;
    assert!(drawn >= frames, "{drawn} frames for {frames} steps");
    assert!(played >= 20, "only {played} moves of 40 key presses");
    assert!(h.state().writes_pending());
    assert_eq!(disk.waiting.load(Ordering::SeqCst), 1);
    assert!(!dir.join("saves/2048.json").exists());
    // The disk was never touched from the window's thread.
    assert!(
        disk.callers
            .lock()
            .unwrap()
            .iter()
            .all(|t| *t != test_thread)
    );

    // The disk answers again: the writes land, the newest game last.
    disk.release();
    assert!(h.state().flush_writes(Duration::from_secs(60)).is_empty());
    let saved = common::read_json_file(&dir.join("saves/2048.json"));
    let session = h.state().session("2048").unwrap().save();
    assert_eq!(
        saved["moves"],
        serde_json::to_value(&session.moves).unwrap()
    );
    assert!(dir.join("scores.json").exists());
    assert!(
        disk.callers
            .lock()
            .unwrap()
            .iter()
            .all(|t| *t != test_thread)
    );
}

/// A disk whose renames all fail.
struct FailingDisk;

impl Disk for FailingDisk {
    fn rename(&self, _file: NamedTempFile, _to: &Path) -> io::Result<()> {
        Err(io::Error::other("the disk refuses"))
    }
}

#[test]
fn a_failed_write_is_reported_in_the_window_and_play_goes_on() {
    let dir = temp_dir("failing-disk");
    let mut h = app_over(&dir, Arc::new(FailingDisk), "2048");
    for k in ["L", "D", "R", "U", "L", "D"] {
        h.key_press(key_of(k));
        h.run();
        h.state().flush_writes(Duration::from_secs(60));
        h.run();
    }
    assert!(h.state().session("2048").unwrap().move_count() >= 3);
    h.get_by_label_contains("The game of 2048 could not be saved:");
    h.get_by_label_contains("the disk refuses");
    // Said once in the launcher, however many writes failed.
    let said = h
        .state()
        .notices()
        .iter()
        .filter(|n| n.starts_with("The game of 2048 could not be saved"))
        .count();
    assert_eq!(said, 1, "{:?}", h.state().notices());
    assert!(!dir.join("saves/2048.json").exists());
    assert!(common::files_starting_with(&dir.join("saves"), ".").is_empty());
}

#[test]
fn the_writer_reports_what_a_bounded_flush_could_not_write() {
    let dir = temp_dir("flush-bound");
    let disk = GatedDisk::closed();
    let writer = Writer::start(Storage::with_disk(&dir, disk.clone()));
    writer.submit("scores.json", "the scores", || Ok(b"{}\n".to_vec()));
    writer.submit("settings.json", "the settings", || Ok(b"{}\n".to_vec()));
    assert_eq!(
        writer.flush(Duration::ZERO),
        vec!["the scores".to_string(), "the settings".to_string()]
    );
    disk.release();
    assert!(writer.flush(Duration::from_secs(60)).is_empty());
    assert_eq!(std::fs::read(dir.join("settings.json")).unwrap(), b"{}\n");
}

#[test]
fn appends_queued_behind_a_slow_disk_are_all_written_in_order_and_never_merged() {
    let dir = temp_dir("appends");
    let disk = GatedDisk::closed();
    let writer = Writer::start(Storage::with_disk(&dir, disk.clone()));
    let whole = |text: &'static str| move || Ok(text.as_bytes().to_vec());
    writer.submit("a.json", "a", whole("1\n"));
    writer.append("history/h.jsonl", "h", b"one".to_vec());
    writer.submit("a.json", "a", whole("2\n"));
    writer.append("history/h.jsonl", "h", b"two".to_vec());
    writer.append("history/h.jsonl", "h", b"three".to_vec());
    writer.submit("a.json", "a", whole("3\n"));
    disk.release();
    assert!(writer.flush(Duration::from_secs(60)).is_empty());
    assert!(writer.take_failures().is_empty());
    assert_eq!(
        std::fs::read_to_string(dir.join("history/h.jsonl")).unwrap(),
        "one\ntwo\nthree\n"
    );
    assert_eq!(std::fs::read_to_string(dir.join("a.json")).unwrap(), "3\n");
}

#[test]
fn on_the_frame_each_write_is_done_as_it_is_given_in_order() {
    let keys = Arc::new(MemoryKeys::default());
    let writer = Writer::on_frame(Storage::in_keys(keys.clone()));
    let whole = |text: &'static str| move || Ok(text.as_bytes().to_vec());
    writer.submit("a.json", "a", whole("1\n"));
    writer.append("history/h.jsonl", "h", b"one".to_vec());
    writer.submit("a.json", "a", whole("2\n"));
    writer.append("history/h.jsonl", "h", b"two".to_vec());
    writer.create("c.json", "c", b"{}\n".to_vec());
    // Nothing waits: each was written when it was given.
    assert!(writer.pending().is_empty());
    assert!(writer.unsaved().is_empty());
    assert!(writer.take_failures().is_empty());
    assert_eq!(keys.get("tilebox/a.json").unwrap().as_deref(), Some("2\n"));
    assert_eq!(
        keys.get("tilebox/history/h.jsonl").unwrap().as_deref(),
        Some("one\ntwo\n")
    );
    // A creation never writes over a file.
    writer.create("c.json", "c", b"[]\n".to_vec());
    assert_eq!(writer.take_failures().len(), 1);
    assert_eq!(keys.get("tilebox/c.json").unwrap().as_deref(), Some("{}\n"));
    assert!(writer.flush(Duration::ZERO).is_empty());
}

#[test]
fn on_the_frame_a_write_the_full_storage_refuses_is_held_and_written_once_there_is_room() {
    let keys = Arc::new(MemoryKeys::with_limit(200));
    keys.set("other-page", &"x".repeat(150)).unwrap();
    let writer = Writer::on_frame(Storage::in_keys(keys.clone()));
    let text = "{\"best\": 1024}\n".repeat(4);
    let bytes = text.clone().into_bytes();
    writer.submit("scores.json", "the scores", move || Ok(bytes));
    // Said once, and held: not saved yet.
    let failures = writer.take_failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].error.to_string().contains("full"),
        "{}",
        failures[0].error
    );
    assert_eq!(writer.unsaved(), vec!["the scores".to_string()]);
    // Tried again at the frame's call and at a flush, silently, while there is no room.
    writer.tick();
    assert_eq!(writer.flush(Duration::ZERO), Vec::<String>::new());
    assert_eq!(writer.unsaved(), vec!["the scores".to_string()]);
    assert!(writer.take_failures().is_empty());
    // Room again: the next flush (or the frame's call, once RETRY has passed) writes it.
    keys.remove("other-page").unwrap();
    writer.flush(Duration::ZERO);
    assert!(writer.unsaved().is_empty());
    assert_eq!(keys.get("tilebox/scores.json").unwrap(), Some(text));
}

#[test]
fn a_writer_told_to_stop_writes_nothing_more_in_either_mode() {
    for on_frame in [false, true] {
        let keys = Arc::new(MemoryKeys::default());
        let storage = Storage::in_keys(keys.clone());
        let writer = if on_frame {
            Writer::on_frame(storage)
        } else {
            Writer::start(storage)
        };
        writer.submit("a.json", "a", || Ok(b"1\n".to_vec()));
        assert!(writer.flush(Duration::from_secs(60)).is_empty());
        writer.stop_writing();
        assert!(writer.stopped());
        writer.submit("a.json", "a", || Ok(b"2\n".to_vec()));
        writer.append("history/h.jsonl", "h", b"one".to_vec());
        assert!(writer.flush(Duration::from_secs(60)).is_empty());
        assert!(writer.take_failures().is_empty());
        assert_eq!(keys.get("tilebox/a.json").unwrap().as_deref(), Some("1\n"));
        assert_eq!(keys.get("tilebox/history/h.jsonl").unwrap(), None);
    }
}
