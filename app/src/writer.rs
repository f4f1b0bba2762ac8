//! The one writer thread: every write of the app (saves, the score table, the settings) goes
//! through it, in the order given, so the window never waits for the disk. A write that fails
//! or is refused comes back as a [`Failure`] the window shows; quitting waits a bounded time
//! for what is still pending ([`Writer::flush`]) and says what could not be saved.
//!
//! Writes to one file that queue up while the disk is slow are taken together: only the
//! newest of them is written, since each holds the whole file.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::storage::{Storage, StorageError};

/// What a write makes of its value: the file's bytes, computed on the writer thread.
type Encode = Box<dyn FnOnce() -> Result<Vec<u8>, StorageError> + Send>;

struct Job {
    /// The file, inside the data directory.
    name: String,
    /// What it holds, for the player ("the game of 2048", "the scores").
    what: String,
    encode: Encode,
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
    /// Writes given and not yet done, oldest first: (file, what it holds).
    pending: Mutex<VecDeque<(String, String)>>,
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
        lock(&self.shared.pending).push_back((name.to_string(), what.to_string()));
        let job = Job {
            name: name.to_string(),
            what: what.to_string(),
            encode: Box::new(encode),
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
        for (_, what) in lock(&self.shared.pending).iter() {
            if !seen.contains(what) {
                seen.push(what.clone());
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
        left.extend(pending.iter().map(|(_, what)| what.clone()));
    }
    left
}

/// Marks one write of `name` done.
fn finish(shared: &Shared, name: &str) {
    let mut pending = lock(&shared.pending);
    if let Some(i) = pending.iter().position(|(n, _)| n == name) {
        pending.remove(i);
    }
    drop(pending);
    shared.done.notify_all();
}

/// The writer thread: takes what is queued, writes the newest write of each file, in order.
fn run(storage: &Storage, shared: &Shared, rx: &Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        let count = batch.len();
        for (i, job) in batch.into_iter().enumerate() {
            // A later write of the same file holds all of it: this one is not needed.
            let superseded = {
                let pending = lock(&shared.pending);
                pending
                    .iter()
                    .skip(1)
                    .take(count - i - 1)
                    .any(|(n, _)| *n == job.name)
            };
            if !superseded {
                let result =
                    (job.encode)().and_then(|bytes| storage.write_atomic(&job.name, &bytes));
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
