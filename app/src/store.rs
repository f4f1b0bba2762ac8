//! The store: every file the app keeps, behind one type. The score table, the games in
//! progress, the histories and the settings are read here at start-up, and every write goes
//! from here to the one writer thread ([`Writer`]), so the window never touches the disk.
//! Screens never hold the store: they return actions, and the shell asks the store to write.

pub mod keys;

use serde::{Deserialize, Serialize};
use tilebox_core::Entry;

use crate::advisor::Speed;
use crate::history::{Loaded, Loading, Record, history_file_name};
use crate::saves;
use crate::scores::{SCORES_FILE, Scores, ScoresFile};
use crate::slot::GameSlot;
use crate::storage::{Layout, ReadOutcome, encode, notice};
use crate::theme::ThemeChoice;
use crate::writer::{Failure, Writer};

/// The settings file (theme, zoom, autoplay's speed).
pub const SETTINGS_FILE: &str = "settings.json";

/// The version of `settings.json` this build reads and writes.
const SETTINGS_VERSION: u32 = 1;

/// What `settings.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Settings {
    version: u32,
    /// The theme choice.
    #[serde(default)]
    pub theme: ThemeChoice,
    /// The player's zoom, in percent (Ctrl+= / Ctrl+- / Ctrl+0).
    #[serde(default = "hundred")]
    pub zoom: u32,
    /// Autoplay's speed (files written before it was kept read as the default, Normal).
    #[serde(default)]
    pub speed: Speed,
    /// Fields a newer Tilebox wrote that this build does not know: kept on every rewrite.
    #[serde(flatten)]
    unknown: serde_json::Map<String, serde_json::Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            version: SETTINGS_VERSION,
            theme: ThemeChoice::System,
            zoom: hundred(),
            speed: Speed::default(),
            unknown: serde_json::Map::new(),
        }
    }
}

fn hundred() -> u32 {
    100
}

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
    /// Reads the files of `writer`'s storage (temporary files a crash left are removed first):
    /// the score table, the settings, and the game in progress of each of `entries`, one slot
    /// each; starts reading their histories on a thread of its own. What could not be read is
    /// said in `notices`.
    pub(crate) fn open(
        writer: Writer,
        entries: impl IntoIterator<Item = Entry>,
        notices: &mut Vec<String>,
    ) -> (Self, Vec<GameSlot>) {
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

        let slots: Vec<GameSlot> = entries
            .into_iter()
            .map(|entry| {
                let resumed = saves::read(&storage, &entry, notices);
                GameSlot::resumed(entry, resumed)
            })
            .collect();
        let histories = Loading::start(storage, slots.iter().map(|s| s.entry.clone()).collect());
        let store = Self {
            writer,
            scores,
            settings,
            histories: Some(histories),
        };
        (store, slots)
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
        let settings = Settings {
            version: SETTINGS_VERSION,
            ..self.settings.clone()
        };
        let path = self.writer.storage().path(SETTINGS_FILE);
        self.writer.submit(SETTINGS_FILE, "the settings", move || {
            encode(&path, &settings, Layout::Pretty)
        });
    }

    /// Queues a write of the game in progress of `slot`, with its tally. A game a newer
    /// Tilebox saved is not written.
    pub(crate) fn save_game(&mut self, slot: &GameSlot) {
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if slot.newer_save {
            return;
        }
        let save = saves::save_of(
            session,
            slot.tally,
            slot.daily,
            slot.duration_ms,
            slot.save_unknown.clone(),
        );
        let storage = self.writer.storage().clone();
        let what = format!("the game of {}", slot.entry.title());
        self.writer
            .submit(&saves::save_file_name(slot.id()), &what, move || {
                saves::encode_save(&storage, &save)
            });
    }

    /// Brings the score table up to date with the game of `slot`: a new best is written at
    /// once. Returns whether the game is over.
    pub(crate) fn count(&mut self, slot: &mut GameSlot) -> bool {
        let Some(session) = slot.session.as_deref() else {
            return false;
        };
        let lower = slot.entry.lower_is_better();
        let moved = session.move_count() > 0 || session.can_redo();
        let stats = self.scores.entry(slot.entry.id());
        if slot
            .tally
            .record(session.status(), session.score(), moved, lower, stats)
        {
            self.write_scores(slot.entry.id());
        }
        session.status().over
    }

    /// The game of `slot` is being replaced: it counts as played if `moved`.
    pub(crate) fn abandon(&mut self, slot: &mut GameSlot, moved: bool) {
        if slot.session.is_some()
            && slot
                .tally
                .abandon(moved, self.scores.entry(slot.entry.id()))
        {
            self.write_scores(slot.entry.id());
        }
    }

    /// Records the game of `slot` as it stands in its history, unless it is there already: the
    /// record is kept for this run and its line queued for the file, then the game's save,
    /// which says it is recorded (so a start that finds a finished game not yet recorded, after
    /// a kill between the two writes, records it once and not at every start).
    pub(crate) fn record_game(&mut self, slot: &mut GameSlot) {
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if slot.newer_save || !slot.tally.mark_recorded() {
            return;
        }
        let now = web_time::SystemTime::now()
            .duration_since(web_time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let record = Record::of(
            slot.entry.id(),
            session,
            &slot.tally,
            slot.daily,
            slot.duration_ms,
            tilebox_core::date::rfc3339(now),
        );
        match record.line() {
            Ok(line) => {
                let what = format!("the history of {}", slot.entry.title());
                self.writer
                    .append(&history_file_name(slot.entry.id()), &what, line);
            }
            Err(e) => slot.message = Some(format!("The game could not be recorded: {e}")),
        }
        slot.history.push(record);
        self.save_game(slot);
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
        crate::lock::nothing_saved_line(self.writer.storage())
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
