//! The store: every file the app keeps, behind one type. The score table, the games in
//! progress, the histories and the settings are read here at start-up, and every write goes
//! from here to the one writer thread ([`Writer`]), so the window never touches the disk.
//! Screens never hold the store: they return actions, and the shell asks the store to write.

pub mod clock;
pub mod history;
pub mod keys;
pub mod lock;
pub mod record;
pub mod saves;
pub mod scores;
pub mod settings;
pub mod stats;
pub mod storage;
pub mod tally;
pub mod variants;
pub mod writer;

use tilebox_core::Entry;

use crate::store::history::{Loaded, Loading, history_file_name};
use crate::store::settings::{SETTINGS_FILE, SETTINGS_VERSION, Settings};

use crate::store::scores::{SCORES_FILE, Scores, ScoresFile};
use crate::store::storage::{Layout, ReadOutcome, encode, notice};
use crate::store::writer::{Failure, Writer};

/// The app's files: the score table, the settings and the histories as they arrive, and the
/// writer every write goes through.
pub(crate) struct Store {
    /// Every write goes through it, off the UI thread.
    writer: Writer,
    /// The score table.
    pub scores: Scores,
    /// The settings, as last read or written.
    pub settings: Settings,
    /// The histories being read at start-up, until every one has arrived.
    histories: Option<Loading>,
}

impl Store {
    /// Reads the files of `writer`'s storage (temporary files a crash left are removed first): the
    /// score table, the settings, and the game in progress of each of `entries`, given back with
    /// its entry; starts reading their histories on a thread of its own. What could not be read is
    /// said in `notices`.
    pub(crate) fn open(
        writer: Writer,
        entries: impl IntoIterator<Item = Entry>,
        notices: &mut Vec<String>,
    ) -> (Self, Vec<(Entry, Option<saves::Resumed>)>) {
        let storage = writer.storage().clone();
        // A data directory that cannot be used is one notice, not one per file.
        notices.extend(storage.unusable_reason().map(str::to_string));
        storage.sweep_debris();
        let (scores, scores_notice) = Scores::load(&storage);
        notices.extend(scores_notice);
        // The writer keeps its own copy, sharing the games read: the window sends it each game
        // that changes, never the table.
        writer.keep(SCORES_FILE, ScoresFile::new(&scores));

        let settings_outcome: ReadOutcome<Settings> =
            storage.read_json(SETTINGS_FILE, "version", u64::from(SETTINGS_VERSION));
        notices.extend(notice("The settings (settings.json)", &settings_outcome));
        let settings = match settings_outcome {
            ReadOutcome::Loaded(s) | ReadOutcome::Newer { value: Some(s), .. } => s,
            _ => Settings::default(),
        };

        let games: Vec<(Entry, Option<saves::Resumed>)> = entries
            .into_iter()
            .map(|entry| {
                let resumed = saves::read(&storage, &entry, notices);
                (entry, resumed)
            })
            .collect();
        let histories = Loading::start(
            storage,
            games.iter().map(|(e, _)| e.clone()).collect(),
            writer.mode(),
        );
        let store = Self {
            writer,
            scores,
            settings,
            histories: Some(histories),
        };
        (store, games)
    }

    /// Queues the creation of file `name` (holding `what`, for messages) with `bytes`, never
    /// over a file that is there ([`Writer::create`]).
    pub(crate) fn create_file(&self, name: &str, what: &str, bytes: Vec<u8>) {
        self.writer.create(name, what, bytes);
    }

    /// Wakes the window when a write fails or a history arrives.
    pub(crate) fn set_waker(&self, ctx: &egui::Context) {
        self.writer.set_waker(ctx);
        if let Some(loading) = &self.histories {
            loading.set_waker(ctx);
        }
    }

    /// The frame's turn of the writer on the frame ([`Writer::tick`]).
    pub(crate) fn tick(&self) {
        self.writer.tick();
    }

    /// Writes nothing more, at once ([`Writer::stop_writing`]): another tab writes the games.
    pub(crate) fn stop_writes(&self) {
        self.writer.stop_writing();
    }

    /// The histories that have arrived from the reading thread since the last call.
    pub(crate) fn arrived_histories(&mut self) -> Vec<Loaded> {
        let arrived = self
            .histories
            .as_mut()
            .map(Loading::arrived)
            .unwrap_or_default();
        self.forget_done();
        arrived
    }

    /// Waits until every history has been read, or `bound` has passed; returns those that
    /// arrived. For tests and tools: the window never calls it.
    pub(crate) fn wait_for_histories(&mut self, bound: std::time::Duration) -> Vec<Loaded> {
        let arrived = self
            .histories
            .as_mut()
            .map(|loading| loading.wait(bound))
            .unwrap_or_default();
        self.forget_done();
        arrived
    }

    /// Whether every history has arrived.
    pub(crate) fn histories_read(&self) -> bool {
        self.histories.is_none()
    }

    fn forget_done(&mut self) {
        if self.histories.as_ref().is_some_and(Loading::done) {
            self.histories = None;
        }
    }

    /// Sends the writer game `id`'s figures, as they are now, and queues a write of the score
    /// table: the game's figures alone cross to the writer thread, which keeps the table and
    /// writes it from its copy ([`ScoresFile`]).
    pub(crate) fn write_scores(&mut self, id: &str) {
        let stats = self.scores.get(id);
        let id = id.to_string();
        self.writer
            .change(SCORES_FILE, "the scores", move |file: &mut ScoresFile| {
                file.set(id, stats);
            });
    }

    /// Queues a write of the settings.
    pub(crate) fn write_settings(&mut self) {
        let settings = self.settings.to_write();
        let path = self.writer.storage().path(SETTINGS_FILE);
        self.writer.submit(SETTINGS_FILE, "the settings", move || {
            encode(&path, &settings, Layout::Pretty)
        });
    }

    /// Queues a write of `save`, the game in progress of entry `id` (titled `title`, for
    /// messages).
    pub(crate) fn write_save(&mut self, id: &str, title: &str, save: saves::AppSave) {
        let storage = self.writer.storage().clone();
        let what = format!("the game of {title}");
        self.writer
            .submit(&saves::save_file_name(id), &what, move || {
                saves::encode_save(&storage, &save)
            });
    }

    /// Queues `line`, a game of entry `id` (titled `title`, for messages), for the end of its
    /// history file.
    pub(crate) fn append_history(&mut self, id: &str, title: &str, line: Vec<u8>) {
        let what = format!("the history of {title}");
        self.writer.append(&history_file_name(id), &what, line);
    }

    /// The writes that failed since the last call.
    pub(crate) fn take_failures(&self) -> Vec<Failure> {
        self.writer.take_failures()
    }

    /// What is not on disk yet: the writes in flight and those the disk refused, held to be
    /// tried again (what quitting would lose).
    pub(crate) fn unsaved(&self) -> Vec<String> {
        self.writer.unsaved()
    }

    /// Whether writes are in flight (queued or being written), not counting those held after
    /// the disk refused them.
    pub(crate) fn in_flight(&self) -> bool {
        !self.writer.pending().is_empty()
    }

    /// Waits until the writes queued so far are on disk, or `bound` has passed; returns what
    /// was still not written.
    pub(crate) fn flush(&self, bound: std::time::Duration) -> Vec<String> {
        self.writer.flush(bound)
    }

    /// The data directory.
    pub(crate) fn dir(&self) -> &std::path::Path {
        self.writer.storage().dir()
    }

    /// Why nothing will be saved, in words, if nothing will (the data directory's lock could
    /// not be taken): the game screen's line.
    pub(crate) fn nothing_saved(&self) -> Option<String> {
        crate::store::lock::nothing_saved_line(self.writer.storage())
    }

    /// Whether the player chose to quit without the writes still pending.
    pub(crate) fn writes_abandoned(&self) -> bool {
        self.writer.abandoned()
    }

    /// Gives up the writes still pending (the player quits without them).
    pub(crate) fn abandon_writes(&self) {
        self.writer.abandon();
    }
}
