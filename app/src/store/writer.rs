//! The one writer thread: every write of the app (saves, the score table, the settings) goes
//! through it, in the order given, so the window never waits for the disk. In a page, which has
//! no threads ([`WorkMode::Frame`]), the same writer writes on the frame's thread instead, each
//! write as it is given (the browser's storage takes a text at once), and what it refused is
//! tried again from the frame ([`Writer::tick`]). A write that fails
//! or is refused comes back as a [`Failure`] the window shows; quitting waits a bounded time
//! for what is still pending ([`Writer::flush`]) and says what could not be saved.
//!
//! Writes to one file that queue up while the disk is slow are taken together: only the
//! newest of them is written, since each holds the whole file. Appends (a line of the history,
//! [`Writer::append`]) are never taken together nor dropped: each is written, in its place in
//! the order.
//!
//! A write the disk refuses (a full disk, say) is reported once and held, not dropped: it is
//! tried again before every later write and every [`RETRY`] while it waits, silently, until the
//! disk takes it; a newer write of the same file replaces a held one, and an append waits
//! behind the held appends of its file, so the history's lines stay in order. What is held
//! counts as not saved at quit ([`Writer::unsaved`]). An append whose line reached the file
//! before a later step failed is not tried again (the line would be there twice).

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;
use web_time::Instant;

use crate::store::storage::{Storage, StorageError};
use crate::work_mode::WorkMode;

/// What a write makes of its value: the file's bytes, computed on the writer thread.
type Encode = Box<dyn FnOnce() -> Result<Vec<u8>, StorageError> + Send>;

/// A file the writer thread keeps whole and writes again after each change it is sent
/// ([`Writer::keep`], [`Writer::change`]): the window sends the change alone (a game of the
/// score table), never the whole file, so that what a change costs the window does not grow
/// with the file.
pub trait Document: std::any::Any + Send {
    /// Writes the whole file `name` through `storage`.
    fn write(&mut self, storage: &Storage, name: &str) -> Result<(), StorageError>;
}

/// A change to a [`Document`], made on the writer thread.
type Change = Box<dyn FnOnce(&mut dyn std::any::Any) + Send>;

/// What a job does to its file.
enum Work {
    /// Replaces the whole file with the bytes made.
    Replace(Encode),
    /// Hands the writer thread the file's [`Document`]; writes nothing.
    Keep(Box<dyn Document>),
    /// Changes the file's [`Document`], then writes the file from it.
    Change(Change),
    /// Appends this line (without its line break) to the file.
    Append(Vec<u8>),
    /// Creates the file with these bytes, unless a file has its name: then it is left as it is
    /// and the write fails.
    Create(Vec<u8>),
}

struct Job {
    /// The file, inside the data directory.
    name: String,
    /// What it holds, for the player ("the game of 2048", "the scores").
    what: String,
    work: Work,
}

/// A job as the queue of pending work knows it.
struct Pending {
    name: String,
    what: String,
    /// An append or a creation: never superseded by a later write of its file.
    append: bool,
}

/// How often held writes are tried again while nothing else is written.
pub const RETRY: Duration = Duration::from_secs(2);

/// A write the disk refused, kept to be tried again.
struct Held {
    name: String,
    what: String,
    /// The whole file's bytes, or a line to append (empty for a [`Document`], which is written
    /// again from what the thread keeps).
    bytes: Vec<u8>,
    append: bool,
    /// The file is a [`Document`] the thread keeps.
    document: bool,
}

/// A write that failed or was refused.
#[derive(Debug)]
pub struct Failure {
    /// What it held, for the player.
    pub what: String,
    /// The file, inside the data directory.
    pub name: String,
    /// Why.
    pub error: StorageError,
}

#[derive(Default)]
struct Shared {
    /// Writes given and not yet done, oldest first.
    pending: Mutex<VecDeque<Pending>>,
    /// Signalled whenever a write is done.
    done: Condvar,
    failures: Mutex<Vec<Failure>>,
    /// The window to wake when a write fails.
    waker: Mutex<Option<egui::Context>>,
    /// What the writer thread holds to try again ([`Held`]): what each holds, per file.
    held: Mutex<Vec<(String, String)>>,
    /// The player chose to quit without what is pending: flushing waits no more.
    abandoned: std::sync::atomic::AtomicBool,
    /// Nothing more is written ([`Writer::stop_writing`]).
    stopped: std::sync::atomic::AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The handle of the writer thread (clones share it). Dropping the last one lets the thread
/// finish what is queued.
#[derive(Clone)]
pub struct Writer {
    tx: Option<Sender<Job>>,
    /// The writer on the frame ([`WorkMode::Frame`]): what its thread would hold, written to
    /// as each write is given.
    frame: Option<Arc<Mutex<Thread>>>,
    shared: Arc<Shared>,
    storage: Storage,
}

impl Writer {
    /// Starts the writer over `storage` in this build's mode ([`WorkMode::native`]).
    pub fn start(storage: Storage) -> Writer {
        Self::in_mode(storage, WorkMode::native())
    }

    /// The writer on the frame's thread over `storage`, as in a page: what the desktop's tests
    /// run too.
    pub fn on_frame(storage: Storage) -> Writer {
        Self::in_mode(storage, WorkMode::Frame)
    }

    /// Starts the writer over `storage` in `mode`. Should the system refuse a thread, every
    /// write fails with a message instead.
    pub fn in_mode(storage: Storage, mode: WorkMode) -> Writer {
        let shared = Arc::new(Shared::default());
        lock(&LIVE).push(Arc::downgrade(&shared));
        let desk = Thread::new(storage.clone(), Arc::clone(&shared));
        let (tx, frame) = match mode {
            WorkMode::Frame => (None, Some(Arc::new(Mutex::new(desk)))),
            WorkMode::Threads => {
                let (tx, rx) = mpsc::channel::<Job>();
                let started = std::thread::Builder::new()
                    .name("tilebox-writer".into())
                    .spawn(move || run(desk, &rx))
                    .is_ok();
                (started.then_some(tx), None)
            }
        };
        Writer {
            tx,
            frame,
            shared,
            storage,
        }
    }

    /// On the frame: tries again what the storage refused, once [`RETRY`] has passed since it
    /// last tried. The shell calls it each frame; a writer thread does it by itself (then this
    /// does nothing).
    pub fn tick(&self) {
        if let Some(desk) = &self.frame {
            let mut desk = lock(desk);
            if desk.tried.elapsed() >= RETRY {
                desk.retry();
            }
        }
    }

    /// Writes nothing more, at once: what is queued or held is dropped, later writes are
    /// ignored, and quitting waits for nothing. For a page that lost its lock to another tab
    /// ([`crate::store::lock::TabLock`]), whose games that tab now writes.
    pub fn stop_writing(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        self.shared.stopped.store(true, Relaxed);
        self.shared.abandoned.store(true, Relaxed);
        if let Some(desk) = &self.frame {
            let mut desk = lock(desk);
            desk.held.clear();
            share_held(&self.shared, &desk.held);
        }
    }

    /// Whether it writes nothing more ([`Writer::stop_writing`]).
    pub fn stopped(&self) -> bool {
        self.shared
            .stopped
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Where it writes: on a thread of its own, or on the frame.
    pub fn mode(&self) -> WorkMode {
        if self.frame.is_some() {
            WorkMode::Frame
        } else {
            WorkMode::Threads
        }
    }

    /// The storage written to.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// The window to wake when a write fails, so that it says so at once.
    pub fn set_waker(&self, ctx: &egui::Context) {
        let mut waker = lock(&self.shared.waker);
        if waker.is_none() {
            *waker = Some(ctx.clone());
        }
    }

    /// Queues a write of file `name` (holding `what`, for messages) with the bytes `encode`
    /// makes. Never waits. A file that is left alone ([`Storage::kept_reason`]) is refused at
    /// once, as a failure.
    pub fn submit(
        &self,
        name: &str,
        what: &str,
        encode: impl FnOnce() -> Result<Vec<u8>, StorageError> + Send + 'static,
    ) {
        self.queue(name, what, Work::Replace(Box::new(encode)));
    }

    /// Hands the writer thread `document`, the content of file `name`, to keep: later changes
    /// ([`Writer::change`]) are made to it there, and the file written from it. Writes nothing.
    pub fn keep(&self, name: &str, document: impl Document) {
        self.queue(name, "", Work::Keep(Box::new(document)));
    }

    /// Queues `change` to the [`Document`] of file `name` (holding `what`, for messages) that
    /// the writer thread keeps ([`Writer::keep`]), of type `D`, and a write of the file from it.
    /// Never waits. Changes queued while the disk is slow are all made, in order, and the file
    /// written once after them. A change to a document not kept, or of another type, is
    /// dropped.
    pub fn change<D: Document>(
        &self,
        name: &str,
        what: &str,
        change: impl FnOnce(&mut D) + Send + 'static,
    ) {
        let change: Change = Box::new(move |document: &mut dyn std::any::Any| {
            if let Some(document) = document.downcast_mut::<D>() {
                change(document);
            }
        });
        self.queue(name, what, Work::Change(change));
    }

    /// Queues the append of `line` (without its line break) to file `name` (holding `what`, for
    /// messages): never superseded nor merged with another write, and done in its place in the
    /// order of every write given. Never waits.
    pub fn append(&self, name: &str, what: &str, line: Vec<u8>) {
        self.queue(name, what, Work::Append(line));
    }

    /// Queues the creation of file `name` (holding `what`, for messages) with `bytes`: written
    /// only if no file has that name, never over one (a failure says so). Never waits.
    pub fn create(&self, name: &str, what: &str, bytes: Vec<u8>) {
        self.queue(name, what, Work::Create(bytes));
    }

    fn queue(&self, name: &str, what: &str, work: Work) {
        if self.storage.unusable_reason().is_some() || self.stopped() {
            // The launcher said once that nothing is saved: no message per write.
            return;
        }
        let keep = matches!(work, Work::Keep(_));
        if !keep && let Some(reason) = self.storage.kept_reason(name) {
            let error = StorageError::Kept {
                path: self.storage.path(name),
                reason,
            };
            self.fail(name, what, error);
            return;
        }
        lock(&self.shared.pending).push_back(Pending {
            name: name.to_string(),
            what: what.to_string(),
            append: matches!(work, Work::Append(_) | Work::Create(_) | Work::Keep(_)),
        });
        let job = Job {
            name: name.to_string(),
            what: what.to_string(),
            work,
        };
        let sent = match (&self.frame, &self.tx) {
            (Some(desk), _) => {
                lock(desk).batch(vec![job]);
                Ok(())
            }
            (None, Some(tx)) => tx.send(job).map_err(|e| e.0),
            (None, None) => Err(job),
        };
        if let Err(job) = sent {
            finish(&self.shared, &job.name);
            let error = StorageError::Io {
                path: self.storage.path(&job.name),
                source: std::io::Error::other("the writer thread is not running"),
            };
            self.fail(&job.name, &job.what, error);
        }
    }

    fn fail(&self, name: &str, what: &str, error: StorageError) {
        lock(&self.shared.failures).push(Failure {
            what: what.to_string(),
            name: name.to_string(),
            error,
        });
    }

    /// The writes that failed or were refused since the last call, oldest first.
    pub fn take_failures(&self) -> Vec<Failure> {
        std::mem::take(&mut *lock(&self.shared.failures))
    }

    /// What is queued or being written, oldest first: what each write holds, once each.
    pub fn pending(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for p in lock(&self.shared.pending).iter() {
            if !seen.contains(&p.what) {
                seen.push(p.what.clone());
            }
        }
        seen
    }

    /// What is not on disk yet: what is queued or being written ([`Writer::pending`]), then
    /// what the disk refused and is held to be tried again, once each. What quitting lists.
    pub fn unsaved(&self) -> Vec<String> {
        let mut unsaved = self.pending();
        for (_, what) in lock(&self.shared.held).iter() {
            if !unsaved.contains(what) {
                unsaved.push(what.clone());
            }
        }
        unsaved
    }

    /// Whether the player chose to quit without what is not saved ([`Writer::abandon`]).
    pub fn abandoned(&self) -> bool {
        self.shared
            .abandoned
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The player quits without what is still pending: [`Writer::flush`] no longer waits.
    pub fn abandon(&self) {
        self.shared
            .abandoned
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Waits until every queued write is done, or `bound` has passed. Returns what was still
    /// not written (empty when all was). On the frame, what was given is written already, and
    /// what is held is tried again once more, at once.
    pub fn flush(&self, bound: Duration) -> Vec<String> {
        if self
            .shared
            .abandoned
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            return self.pending();
        }
        if let Some(desk) = &self.frame {
            lock(desk).retry();
            return self.pending();
        }
        let deadline = Instant::now() + bound;
        let mut pending = lock(&self.shared.pending);
        while !pending.is_empty() {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            pending = self
                .shared
                .done
                .wait_timeout(pending, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        drop(pending);
        self.pending()
    }
}

/// Every writer of the process, for [`flush_all`].
static LIVE: Mutex<Vec<std::sync::Weak<Shared>>> = Mutex::new(Vec::new());

/// Waits until every writer of the process has written what it was given, or `bound` has
/// passed; returns what was not written. For tests that read the files an app wrote.
pub fn flush_all(bound: Duration) -> Vec<String> {
    let shared: Vec<Arc<Shared>> = {
        let mut live = lock(&LIVE);
        live.retain(|w| w.strong_count() > 0);
        live.iter().filter_map(std::sync::Weak::upgrade).collect()
    };
    let deadline = Instant::now() + bound;
    let mut left = Vec::new();
    for s in shared {
        let mut pending = lock(&s.pending);
        while !pending.is_empty() {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            pending = s
                .done
                .wait_timeout(pending, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        left.extend(pending.iter().map(|p| p.what.clone()));
    }
    left
}

/// Marks one write of `name` done.
fn finish(shared: &Shared, name: &str) {
    let mut pending = lock(&shared.pending);
    if let Some(i) = pending.iter().position(|p| p.name == name) {
        pending.remove(i);
    }
    drop(pending);
    shared.done.notify_all();
}

/// What the writer thread (or the writer on the frame) holds between jobs.
struct Thread {
    storage: Storage,
    shared: Arc<Shared>,
    /// The writes the disk refused, to try again.
    held: Vec<Held>,
    /// The files it keeps whole ([`Document`]), by name.
    documents: Vec<(String, Box<dyn Document>)>,
    /// When held writes were last tried again (on the frame: [`Writer::tick`]).
    tried: Instant,
}

/// A write, as the thread does it.
enum Write {
    Replace(Encode),
    Append(Vec<u8>),
    Create(Vec<u8>),
    /// Writes the file from its [`Document`].
    Document,
}

/// The writer thread: takes what is queued and writes it ([`Thread::batch`]); tries again what
/// the disk refused ([`Held`]) before each batch, and every [`RETRY`] while some is held.
fn run(mut thread: Thread, rx: &Receiver<Job>) {
    loop {
        let first = if thread.held.is_empty() {
            rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        } else {
            rx.recv_timeout(RETRY)
        };
        let first = match first {
            Ok(job) => job,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                thread.retry();
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        thread.batch(batch);
    }
}

impl Thread {
    fn new(storage: Storage, shared: Arc<Shared>) -> Thread {
        Thread {
            storage,
            shared,
            held: Vec::new(),
            documents: Vec::new(),
            tried: Instant::now(),
        }
    }

    /// Writes a batch of jobs, after trying again what is held: the newest write of each file,
    /// and every append, in order; makes every change to a [`Document`] and writes it once
    /// after the batch's changes.
    fn batch(&mut self, batch: Vec<Job>) {
        self.retry();
        let shared = Arc::clone(&self.shared);
        let stopped = shared.stopped.load(std::sync::atomic::Ordering::Relaxed);
        let count = batch.len();
        for (i, job) in batch.into_iter().enumerate() {
            if stopped {
                finish(&shared, &job.name);
                continue;
            }
            // A later write of the same file holds all of it: this one is not needed. (An append
            // is never superseded, nor does it supersede: it holds one line.)
            let superseded = match &job.work {
                Work::Append(_) | Work::Create(_) | Work::Keep(_) => false,
                Work::Replace(_) | Work::Change(_) => lock(&shared.pending)
                    .iter()
                    .skip(1)
                    .take(count - i - 1)
                    .any(|p| p.name == job.name && !p.append),
            };
            let write = match job.work {
                Work::Keep(document) => {
                    self.documents.retain(|(name, _)| *name != job.name);
                    self.documents.push((job.name.clone(), document));
                    None
                }
                Work::Change(change) => {
                    // Every change is made; the last of a file's in the batch writes it.
                    if let Some((_, document)) =
                        self.documents.iter_mut().find(|(n, _)| *n == job.name)
                    {
                        let document: &mut dyn std::any::Any = document.as_mut();
                        change(document);
                    }
                    (!superseded).then_some(Write::Document)
                }
                Work::Replace(encode) => (!superseded).then_some(Write::Replace(encode)),
                Work::Append(line) => Some(Write::Append(line)),
                Work::Create(bytes) => Some(Write::Create(bytes)),
            };
            if let Some(write) = write {
                self.write(job.name.clone(), job.what, write);
            }
            finish(&shared, &job.name);
        }
    }

    /// Writes file `name` from its document; `Ok(false)` if it has none.
    fn write_document(&mut self, name: &str) -> Result<bool, StorageError> {
        match self.documents.iter_mut().find(|(n, _)| n == name) {
            Some((_, document)) => document.write(&self.storage, name).map(|()| true),
            None => Ok(false),
        }
    }

    /// Writes one job; a failure is reported, and held if the disk may take it later.
    fn write(&mut self, name: String, what: String, write: Write) {
        let storage = self.storage.clone();
        let document = matches!(write, Write::Document);
        let (result, bytes, append) = match write {
            Write::Replace(encode) => {
                // A newer whole file replaces one held.
                self.held.retain(|h| h.append || h.name != name);
                match encode() {
                    Ok(bytes) => {
                        let result = storage.write_atomic(&name, &bytes);
                        let again = matches!(result, Err(StorageError::Io { .. }));
                        (result.map_err(|e| (e, again)), bytes, false)
                    }
                    Err(e) => (Err((e, false)), Vec::new(), false),
                }
            }
            Write::Document => {
                self.held.retain(|h| h.append || h.name != name);
                let result = self.write_document(&name).map(drop);
                let again = matches!(result, Err(StorageError::Io { .. }));
                (result.map_err(|e| (e, again)), Vec::new(), false)
            }
            Write::Append(line) => {
                if self.held.iter().any(|h| h.append && h.name == name) {
                    // Behind the lines of its file that wait: in order, or not at all.
                    self.held.push(Held {
                        name,
                        what,
                        bytes: line,
                        append: true,
                        document: false,
                    });
                    share_held(&self.shared, &self.held);
                    return;
                }
                (storage.append_line_or_retry(&name, &line), line, true)
            }
            // Not held when it fails: a file there already stays, and one the disk refuses is
            // the player's to try again.
            Write::Create(bytes) => (
                storage.write_new(&name, &bytes).map_err(|e| (e, false)),
                bytes,
                false,
            ),
        };
        if let Err((error, again)) = result {
            lock(&self.shared.failures).push(Failure {
                what: what.clone(),
                name: name.clone(),
                error,
            });
            if again {
                self.held.push(Held {
                    name,
                    what,
                    bytes,
                    append,
                    document,
                });
            }
            if let Some(ctx) = lock(&self.shared.waker).as_ref() {
                ctx.request_repaint();
            }
        }
        share_held(&self.shared, &self.held);
    }

    /// Tries again every write held, in order, silently (each was reported when it failed); an
    /// append whose file has an earlier one still held waits behind it.
    fn retry(&mut self) {
        self.tried = Instant::now();
        if self
            .shared
            .stopped
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            self.held.clear();
        }
        if self.held.is_empty() {
            share_held(&self.shared, &self.held);
            return;
        }
        let mut blocked: Vec<String> = Vec::new();
        let mut still = Vec::new();
        for h in std::mem::take(&mut self.held) {
            if blocked.contains(&h.name) {
                still.push(h);
                continue;
            }
            let again = if h.append {
                match self.storage.append_line_or_retry(&h.name, &h.bytes) {
                    Ok(()) => false,
                    Err((_, again)) => again,
                }
            } else if h.document {
                matches!(self.write_document(&h.name), Err(StorageError::Io { .. }))
            } else {
                matches!(
                    self.storage.write_atomic(&h.name, &h.bytes),
                    Err(StorageError::Io { .. })
                )
            };
            if again {
                blocked.push(h.name.clone());
                still.push(h);
            }
        }
        self.held = still;
        share_held(&self.shared, &self.held);
    }
}

/// Tells the handles what is held.
fn share_held(shared: &Shared, held: &[Held]) {
    *lock(&shared.held) = held
        .iter()
        .map(|h| (h.name.clone(), h.what.clone()))
        .collect();
    shared.done.notify_all();
}
