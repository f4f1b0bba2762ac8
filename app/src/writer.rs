//! The one writer thread: every write of the app (saves, the score table, the settings) goes
//! through it, in the order given, so the window never waits for the disk. A write that fails
//! or is refused comes back as a [`Failure`] the window shows; quitting waits a bounded time
//! for what is still pending ([`Writer::flush`]) and says what could not be saved.
//!
//! Writes to one file that queue up while the disk is slow are taken together: only the
//! newest of them is written, since each holds the whole file. Appends (a line of the history,
//! [`Writer::append`]) are never taken together nor dropped: each is written, in its place in
//! the order.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::storage::{Storage, StorageError};

/// What a write makes of its value: the file's bytes, computed on the writer thread.
type Encode = Box<dyn FnOnce() -> Result<Vec<u8>, StorageError> + Send>;

/// What a job does to its file.
enum Work {
    /// Replaces the whole file with the bytes made.
    Replace(Encode),
    /// Appends this line (without its line break) to the file.
    Append(Vec<u8>),
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
    /// An append: never superseded by a later write of its file.
    append: bool,
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
    /// The player chose to quit without what is pending: flushing waits no more.
    abandoned: std::sync::atomic::AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The handle of the writer thread (clones share it). Dropping the last one lets the thread
/// finish what is queued.
#[derive(Clone)]
pub struct Writer {
    tx: Option<Sender<Job>>,
    shared: Arc<Shared>,
    storage: Storage,
}

impl Writer {
    /// Starts the writer thread over `storage`. Should the system refuse a thread, every write
    /// fails with a message instead.
    pub fn start(storage: Storage) -> Writer {
        let shared = Arc::new(Shared::default());
        let (tx, rx) = mpsc::channel::<Job>();
        let thread_storage = storage.clone();
        let thread_shared = Arc::clone(&shared);
        lock(&LIVE).push(Arc::downgrade(&shared));
        let started = std::thread::Builder::new()
            .name("tilebox-writer".into())
            .spawn(move || run(&thread_storage, &thread_shared, &rx))
            .is_ok();
        Writer {
            tx: started.then_some(tx),
            shared,
            storage,
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

    /// Queues the append of `line` (without its line break) to file `name` (holding `what`, for
    /// messages): never superseded nor merged with another write, and done in its place in the
    /// order of every write given. Never waits.
    pub fn append(&self, name: &str, what: &str, line: Vec<u8>) {
        self.queue(name, what, Work::Append(line));
    }

    fn queue(&self, name: &str, what: &str, work: Work) {
        if self.storage.unusable_reason().is_some() {
            // The launcher said once that nothing is saved: no message per write.
            return;
        }
        if let Some(reason) = self.storage.kept_reason(name) {
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
            append: matches!(work, Work::Append(_)),
        });
        let job = Job {
            name: name.to_string(),
            what: what.to_string(),
            work,
        };
        let sent = match &self.tx {
            Some(tx) => tx.send(job).map_err(|e| e.0),
            None => Err(job),
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

    /// The player quits without what is still pending: [`Writer::flush`] no longer waits.
    pub fn abandon(&self) {
        self.shared
            .abandoned
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Waits until every queued write is done, or `bound` has passed. Returns what was still
    /// not written (empty when all was).
    pub fn flush(&self, bound: Duration) -> Vec<String> {
        if self
            .shared
            .abandoned
            .load(std::sync::atomic::Ordering::Relaxed)
        {
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

/// The writer thread: takes what is queued, writes the newest write of each file, and every
/// append, in order.
fn run(storage: &Storage, shared: &Shared, rx: &Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        let count = batch.len();
        for (i, job) in batch.into_iter().enumerate() {
            // A later write of the same file holds all of it: this one is not needed. (An append
            // is never superseded, nor does it supersede: it holds one line.)
            let superseded = match &job.work {
                Work::Append(_) => false,
                Work::Replace(_) => lock(&shared.pending)
                    .iter()
                    .skip(1)
                    .take(count - i - 1)
                    .any(|p| p.name == job.name && !p.append),
            };
            if !superseded {
                let result = match job.work {
                    Work::Replace(encode) => {
                        encode().and_then(|bytes| storage.write_atomic(&job.name, &bytes))
                    }
                    Work::Append(line) => storage.append_line(&job.name, &line),
                };
                if let Err(error) = result {
                    lock(&shared.failures).push(Failure {
                        what: job.what.clone(),
                        name: job.name.clone(),
                        error,
                    });
                    if let Some(ctx) = lock(&shared.waker).as_ref() {
                        ctx.request_repaint();
                    }
                }
            }
            finish(shared, &job.name);
        }
    }
}
