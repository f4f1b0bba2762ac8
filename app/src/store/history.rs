//! Every game remembered: `history/<entry-id>.jsonl`, one [`Record`] a line, appended when a
//! game ends or is abandoned for a new one after a move.
//!
//! Lines are only ever appended ([`crate::store::storage::Storage::append_line`], through the writer
//! thread), never rewritten. Reading ([`read`]) takes the file line by line: a torn last line (a
//! crash during an append) is ignored, other lines that are not records are skipped and
//! counted, and records a newer Tilebox wrote (a higher `format`) stay in the file, unshown. A
//! file that cannot be read at all (an I/O error, bytes that are not UTF-8 text) is moved aside
//! like any other bad file, and the next game starts a new one. A file that has grown past
//! [`MAX_HISTORY_BYTES`] stays where it is and goes on growing: its newest games, the last
//! [`MAX_HISTORY_BYTES`] of it, are read, and one notice says so.
//!
//! A record keeps its entry's parameters once: it names them only when they are not its
//! entry's ([`Record::params`]), so a line is its seed, moves and results, however long the
//! entry's rules are (a sliding variant's ladder of 63 tiles). Records the first form wrote,
//! each with its parameters in full, read as they always did; those equal to the entry's are
//! dropped as they are read, so no copy of them stays in memory.
//!
//! Records are trusted only once replayed: on the reading thread ([`read_trusted`]) each one
//! is replayed from its seed and moves through its entry's rules, and one whose score, win,
//! end, highest tile, tiles left or daily date differ from its replay, or that names rules
//! other than its entry's ([`check`]), or that repeats a game already kept (the same seed,
//! rules and moves, [`Record::game_key`]) is left out of the statistics and replays (and stays
//! in its file, untouched); one notice per entry says how many were.

use std::io::{BufRead, BufReader, Read as _, Seek as _, SeekFrom};

use tilebox_core::Entry;
use tilebox_core::date::Date;

use crate::store::record::FIRST_FORMAT;
pub use crate::store::record::{GameKey, HISTORY_FORMAT, Moves, Record};
use crate::store::stats::Stats;
use crate::store::storage::{NotRead, Storage, notice};
use crate::store::tally::Tally;
use crate::work_mode::WorkMode;

/// The most of a history file Tilebox reads: 256 MiB, more than other files (a history only
/// grows: a thousand long games of 2048 with their moves are about 20 MB). Of a larger file,
/// only its last 256 MiB are read: its newest games.
pub const MAX_HISTORY_BYTES: u64 = 256 * 1024 * 1024;

/// The folder, inside the data directory, of the histories.
pub const HISTORY_FOLDER: &str = "history";

/// The file, inside the data directory, that holds the history of game `id`.
pub fn history_file_name(id: &str) -> String {
    format!(
        "{HISTORY_FOLDER}/{}.jsonl",
        crate::store::saves::safe_file_stem(id)
    )
}

/// What the player is told when the histories' folder cannot be read, for `problem` (its path
/// and why): the same for every game, so said once.
fn folder_notice(problem: &str) -> String {
    format!(
        "The histories ({HISTORY_FOLDER}/) cannot be read: {problem}. They are left as they are, \
         and no game is recorded there while Tilebox runs."
    )
}

/// Game `n` (from 1) of a made-up history of `entry`, for measuring and tools: played from seed
/// `n` by a seeded random player to its end (at most 3,000 moves), every tenth assisted, every
/// seventh the daily game of its date (its seed), ending a day after the one before. It is a
/// real game: it replays to its record. `None` if the entry cannot start a game.
pub fn sample_record(entry: &Entry, n: u64) -> Option<Record> {
    let day = Date::of_days(20_000 + i64::try_from(n).unwrap_or(0));
    let daily = n.is_multiple_of(7).then_some(day);
    let seed = daily.map_or(n, |d| tilebox_core::daily_seed(entry.id(), d));
    let mut session = entry.new_session(seed).ok()?;
    let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
    while session.move_count() < 3000 {
        let legal = session.legal_moves();
        // SplitMix64: the same player on every machine.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let pick = usize::try_from(z % legal.len().max(1) as u64).unwrap_or(0);
        let Some(mv) = legal.get(pick) else {
            break;
        };
        if session.play_text(mv).is_err() {
            break;
        }
    }
    let tally = Tally {
        assisted: n.is_multiple_of(10),
        ..Tally::default()
    };
    let ended = format!("{day}T12:00:00Z");
    Some(Record::of(
        entry.id(),
        &*session,
        &tally,
        daily,
        60_000,
        ended,
    ))
}

/// Why a record is not trusted: what its replay from its seed and moves says differs from it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    /// It is filed under another game.
    #[error("it is a game of {0}")]
    OtherGame(String),
    /// Its moves do not replay (one is not a move, or not legal where it is played).
    #[error("its moves do not replay: {0}")]
    Moves(String),
    /// Its score is not the replay's.
    #[error("it says the score was {claimed}, its moves make {replayed}")]
    Score {
        /// What the record says.
        claimed: u64,
        /// What the replay gives.
        replayed: u64,
    },
    /// It says it was won and the replay never wins, or the other way round.
    #[error("its win does not match its moves")]
    Won,
    /// It says it reached its end and the replay does not, or the other way round.
    #[error("its end does not match its moves")]
    Over,
    /// Its highest tile or tiles left are not the replay's.
    #[error("its highest tile or tiles left do not match its moves")]
    Tiles,
    /// It says it was a daily game, and its seed is not that day's (or the date is no date).
    #[error("it is not the daily game of the date it names")]
    Daily,
    /// It names parameters that are not its entry's: its moves, replayed under rules of its
    /// own choosing, would count in the entry's figures.
    #[error("its rules are not those of its game")]
    Params,
}

/// Whether `record`, a game of `entry`, is what its seed and moves make: the same game, rules
/// (it names none, or its entry's), score, win, end, highest tile or tiles left (when it names
/// them) and, for a daily game, the seed of its date. Replays it through `entry`'s rules.
pub fn check(entry: &Entry, record: &Record) -> Result<(), Mismatch> {
    if record.game != entry.id() {
        return Err(Mismatch::OtherGame(record.game.clone()));
    }
    if record
        .params
        .as_deref()
        .is_some_and(|p| *p != entry.params_json())
    {
        return Err(Mismatch::Params);
    }
    if let Some(date) = &record.daily {
        let date: Date = date.parse().map_err(|_| Mismatch::Daily)?;
        if record.seed != tilebox_core::daily_seed(entry.id(), date) {
            return Err(Mismatch::Daily);
        }
    }
    // It names no params, or its entry's: its game is the entry's, replayed as its save
    // would load.
    let end = entry
        .replay_end(record.seed, record.moves.iter())
        .map_err(|e| Mismatch::Moves(e.to_string()))?;
    if end.score != record.score {
        return Err(Mismatch::Score {
            claimed: record.score,
            replayed: end.score,
        });
    }
    if end.status.over != record.over {
        return Err(Mismatch::Over);
    }
    // A won game is won at its end in the games here; should a game's win not last to its
    // end, a record saying "won" is checked move by move.
    if record.won != end.status.won && !(record.won && won_on_the_way(entry, record)) {
        return Err(Mismatch::Won);
    }
    let tiles_match = record.top_tile.is_none_or(|t| end.top_tile == Some(t))
        && record.tiles_left.is_none_or(|t| end.tiles_left == Some(t));
    if !tiles_match {
        return Err(Mismatch::Tiles);
    }
    Ok(())
}

/// Whether the game of `record` was won at some move of its replay.
fn won_on_the_way(entry: &Entry, record: &Record) -> bool {
    let mut saved = record.saved_game(entry);
    let moves = std::mem::take(&mut saved.moves);
    let Ok(mut session) = entry.load(&saved) else {
        return false;
    };
    for mv in &moves {
        if session.play_text(mv).is_err() {
            return false;
        }
        if session.status().won {
            return true;
        }
    }
    false
}

/// What the app holds of one entry's history, for the statistics and replays.
#[derive(Debug, Clone, Copy)]
pub enum HistoryView<'a> {
    /// The file is still being read (off the window's thread).
    Loading,
    /// Every game recorded and trusted, oldest first, with those appended since the file was
    /// read, and their statistics. It reads as the slice of its records.
    Ready(&'a History),
}

/// A set of seeds (with a hasher that can be made in a `const`).
type Seeds =
    std::collections::HashSet<u64, std::hash::BuildHasherDefault<std::hash::DefaultHasher>>;

/// A history with no game, for a game the app does not know.
static NO_HISTORY: History = History::EMPTY;

impl HistoryView<'_> {
    /// The view of a history with no game.
    pub fn empty() -> HistoryView<'static> {
        HistoryView::Ready(&NO_HISTORY)
    }
}

/// The trusted games of one entry's history, oldest first, and their statistics, worked out
/// as the records come (on the reading thread for those of the file, then one game at a time):
/// the window never works them out again.
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    records: Vec<Record>,
    stats: Stats,
    /// The seeds of its games, so that a game about to start is known as one played before
    /// without a look at every record.
    seeds: Seeds,
    /// Records of the file left out: they do not match their replay.
    left_out: usize,
}

impl History {
    /// The history of no game.
    pub const EMPTY: History = History {
        records: Vec::new(),
        stats: Stats::EMPTY,
        seeds: Seeds::with_hasher(std::hash::BuildHasherDefault::new()),
        left_out: 0,
    };

    /// The history of `records` (oldest first, trusted), of a game where a lower score is
    /// better if `lower_is_better`; `left_out` records of its file were not trusted.
    pub fn new(records: Vec<Record>, lower_is_better: bool, left_out: usize) -> Self {
        let stats = Stats::of(&records, lower_is_better);
        let seeds = records.iter().map(|r| r.seed).collect();
        Self {
            records,
            stats,
            seeds,
            left_out,
        }
    }

    /// Adds a game at the end, its statistics with it.
    pub fn push(&mut self, record: Record) {
        self.stats.push(&record);
        self.seeds.insert(record.seed);
        self.records.push(record);
    }

    /// Whether a game of it started from `seed`.
    pub fn has_seed(&self, seed: u64) -> bool {
        self.seeds.contains(&seed)
    }

    /// The records, oldest first.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Their statistics.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// How many records of the file were left out, not matching their replay.
    pub fn left_out(&self) -> usize {
        self.left_out
    }
}

impl std::ops::Deref for History {
    type Target = [Record];

    fn deref(&self) -> &[Record] {
        &self.records
    }
}

impl PartialEq<[Record]> for History {
    fn eq(&self, other: &[Record]) -> bool {
        self.records == other
    }
}

/// What the app holds of one entry's history: the records read from its file, once the reading
/// thread has sent them, and those appended this run. A game recorded before the file's records
/// arrive is kept apart, then added unless the reading already found it on disk, so that it is
/// neither lost nor shown twice.
#[derive(Debug, Default)]
pub struct Kept {
    read: Option<History>,
    appended: Vec<Record>,
    /// The seeds of games started before the file's records arrived.
    started: Vec<u64>,
}

impl Kept {
    /// A game is starting from `seed`: whether a game of the history started from it (then
    /// it is played knowing its tiles to come). While the file is being read, only the games
    /// recorded this run are known: the seed is kept, and [`Kept::arrive`] says if the file
    /// held it.
    pub fn start(&mut self, seed: u64) -> bool {
        match &self.read {
            Some(history) => history.has_seed(seed),
            None => {
                self.started.push(seed);
                self.appended.iter().any(|r| r.seed == seed)
            }
        }
    }

    /// The records read from the file have arrived. Returns the seeds of the games started
    /// before they did ([`Kept::start`]) that the file holds: games played before.
    pub fn arrive(&mut self, mut read: History) -> Vec<u64> {
        let mut held: Vec<u64> = std::mem::take(&mut self.started);
        held.retain(|seed| read.has_seed(*seed));
        for record in self.appended.drain(..) {
            // Found on disk if the same game is there, whatever its `ended` says (a game
            // recorded again after a kill between its record and its save).
            if !read.iter().any(|r| r.game_key() == record.game_key()) {
                read.push(record);
            }
        }
        self.read = Some(read);
        held
    }

    /// A game was recorded (and its line queued for the file).
    pub fn push(&mut self, record: Record) {
        match &mut self.read {
            Some(history) => history.push(record),
            None => self.appended.push(record),
        }
    }

    /// What statistics and replays see.
    pub fn view(&self) -> HistoryView<'_> {
        match &self.read {
            Some(history) => HistoryView::Ready(history),
            None => HistoryView::Loading,
        }
    }
}

/// The history of one entry, read: its id, its trusted records with their statistics, and a
/// notice for the player if any.
pub type Loaded = (String, History, Option<String>);

/// The histories being read at start-up, on a thread of their own: each entry's arrives on
/// the channel, and wakes the window. Where there is no thread (a page), they are read on the
/// frame instead, a slice of [`FRAME_SLICE`] at a time, so that the first frame never waits for
/// them.
pub struct Loading {
    rx: std::sync::mpsc::Receiver<Loaded>,
    /// How many entries have not arrived.
    left: usize,
    /// The window to wake when one arrives (set by the first frame).
    waker: Waker,
    /// On the frame: the storage and the entries still to read, in order.
    on_frame: Option<(Storage, std::collections::VecDeque<Entry>)>,
}

/// The most of a frame that reading histories takes on the frame: the entries with no history
/// cost next to nothing, so a frame reads many; a long history is read whole in one frame.
pub const FRAME_SLICE: std::time::Duration = std::time::Duration::from_millis(10);

/// The window to wake, once there is one.
type Waker = std::sync::Arc<std::sync::Mutex<Option<egui::Context>>>;

/// Reads the history of each of `entries`, checks each record against its replay, works out
/// the statistics, and sends them, waking the window.
fn read_all(
    storage: &Storage,
    entries: Vec<Entry>,
    tx: &std::sync::mpsc::Sender<Loaded>,
    waker: &Waker,
) {
    for entry in entries {
        let (history, notice) = read_trusted(storage, &entry);
        if tx.send((entry.id().to_string(), history, notice)).is_err() {
            return;
        }
        // Sent first, then the waker looked at: the window sets it before it looks at the
        // channel, so one of the two sees the other.
        let waker = waker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(ctx) = waker.as_ref() {
            ctx.request_repaint();
        }
    }
}

impl Loading {
    /// Starts reading the histories of `entries` from `storage`: on a thread of its own, or on
    /// the frame ([`WorkMode::Frame`], or where the system refuses a thread), a slice at each
    /// [`Loading::arrived`].
    pub fn start(storage: Storage, entries: Vec<Entry>, mode: WorkMode) -> Loading {
        let (tx, rx) = std::sync::mpsc::channel::<Loaded>();
        let waker = Waker::default();
        let left = entries.len();
        let mut loading = Loading {
            rx,
            left,
            waker,
            on_frame: None,
        };
        if mode == WorkMode::Threads {
            let (thread_storage, thread_entries) = (storage.clone(), entries.clone());
            let thread_waker = std::sync::Arc::clone(&loading.waker);
            let spawned = std::thread::Builder::new()
                .name("tilebox-history".into())
                .spawn(move || read_all(&thread_storage, thread_entries, &tx, &thread_waker));
            if spawned.is_ok() {
                return loading;
            }
        }
        loading.on_frame = Some((storage, entries.into()));
        loading
    }

    /// On the frame, the next histories, read for at most `slice` (one at least).
    fn read_on_frame(&mut self, slice: std::time::Duration) -> Vec<Loaded> {
        let Some((storage, entries)) = self.on_frame.as_mut() else {
            return Vec::new();
        };
        let start = web_time::Instant::now();
        let mut read = Vec::new();
        while let Some(entry) = entries.front() {
            if !read.is_empty() && start.elapsed() >= slice {
                break;
            }
            let (history, notice) = read_trusted(storage, entry);
            read.push((entry.id().to_string(), history, notice));
            entries.pop_front();
        }
        if !entries.is_empty() {
            // The next frame reads on.
            let waker = self
                .waker
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(ctx) = waker.as_ref() {
                ctx.request_repaint();
            }
        }
        read
    }

    /// The window to wake when a history arrives.
    pub fn set_waker(&self, ctx: &egui::Context) {
        let mut waker = self
            .waker
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if waker.is_none() {
            *waker = Some(ctx.clone());
        }
    }

    /// The histories that have arrived since the last call, without waiting; on the frame, the
    /// next ones read, for [`FRAME_SLICE`] at most.
    pub fn arrived(&mut self) -> Vec<Loaded> {
        let mut arrived: Vec<Loaded> = self.rx.try_iter().collect();
        arrived.extend(self.read_on_frame(FRAME_SLICE));
        self.left = self.left.saturating_sub(arrived.len());
        arrived
    }

    /// The histories still to arrive, waiting up to `bound` for them (for tests and tools; the
    /// window never waits).
    pub fn wait(&mut self, bound: std::time::Duration) -> Vec<Loaded> {
        let deadline = web_time::Instant::now() + bound;
        let mut arrived = self.read_on_frame(bound);
        self.left = self.left.saturating_sub(arrived.len());
        while self.left > 0 && self.on_frame.is_none() {
            let now = web_time::Instant::now();
            let Some(wait) = deadline.checked_duration_since(now) else {
                break;
            };
            match self.rx.recv_timeout(wait) {
                Ok(loaded) => {
                    self.left -= 1;
                    arrived.push(loaded);
                }
                Err(_) => break,
            }
        }
        arrived
    }

    /// Whether every history has arrived.
    pub fn done(&self) -> bool {
        self.left == 0
    }
}

/// What reading the lines of a history found.
#[derive(Debug, Default, PartialEq)]
pub struct Lines {
    /// The records this build shows, in the file's order (oldest first).
    pub records: Vec<Record>,
    /// Lines that are not records (a torn last line is not counted).
    pub skipped: usize,
    /// Records a newer Tilebox wrote: left in the file, not shown.
    pub newer: usize,
    /// Records left out by the reader's check (they do not match their replay).
    pub left_out: usize,
}

/// What one line is.
enum Line {
    Blank,
    Record(Box<Record>),
    Newer,
    /// Not a record: not JSON, not a record's fields, or bytes that are not UTF-8 text.
    Bad,
}

fn parse_line(bytes: &[u8]) -> Line {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // Not text, or a character cut short at the end (a line torn by a crash, then ended by
        // an append): a bad line, skipped as any other.
        Err(_) => return Line::Bad,
    };
    if text.trim().is_empty() {
        return Line::Blank;
    }
    // Nearly every line is a record of a form this build reads: read straight into one,
    // without a tree of the line first. Whatever that does not read (a newer form, a field
    // twice, a first-form record without its params …) is read through the tree, which
    // decides as it always did.
    if let Ok(record) = serde_json::from_str::<Record>(text)
        && (FIRST_FORMAT..=HISTORY_FORMAT).contains(&record.format)
        && (record.format != FIRST_FORMAT || record.params.is_some())
    {
        return Line::Record(Box::new(record));
    }
    parse_tree(text)
}

/// A line that is not blank, read through a tree of its JSON: the form of each format decides.
fn parse_tree(text: &str) -> Line {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Line::Bad;
    };
    match value.get("format").and_then(serde_json::Value::as_u64) {
        Some(f) if f > u64::from(HISTORY_FORMAT) => Line::Newer,
        // The first form always names the parameters.
        Some(f) if f == u64::from(FIRST_FORMAT) && value.get("params").is_none() => Line::Bad,
        Some(f) if (u64::from(FIRST_FORMAT)..=u64::from(HISTORY_FORMAT)).contains(&f) => {
            match serde_json::from_value(value) {
                Ok(record) => Line::Record(Box::new(record)),
                Err(_) => Line::Bad,
            }
        }
        _ => Line::Bad,
    }
}

/// Why a history cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// The system could not read it.
    #[error("{}", tilebox_core::files::io_words(.0))]
    Io(#[from] std::io::Error),
}

/// Reads the lines of a history from `reader`: records, lines skipped, newer records. The last
/// line, if it is not a record (or is cut short: no line break and not a whole record), is a
/// line torn by a crash and is ignored, not counted.
pub fn read_lines(reader: impl BufRead) -> Result<Lines, Unreadable> {
    read_lines_kept(reader, &|_| true)
}

/// Says whether a record read is kept (it may change it first).
type Keep<'a> = dyn Fn(&mut Record) -> bool + Sync + 'a;

/// [`read_lines`], each record kept only if `keep` says so (it may change it first), the others
/// counted as left out: a record is let go as soon as it is read, so a long history of records
/// left out never fills the memory. The lines are read and kept on every core (each record's
/// replay is the long part), a batch of them at a time, and taken in the file's order: the
/// same records, in the same order, as on one core.
fn read_lines_kept(reader: impl BufRead, keep: &Keep<'_>) -> Result<Lines, Unreadable> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    read_lines_on(reader, keep, cores.min(MAX_READERS), BATCH_BYTES)
}

/// The most threads that read a history at once.
const MAX_READERS: usize = 8;

/// About how many bytes of lines a thread is handed at a time.
const BATCH_BYTES: usize = 256 * 1024;

/// Lines of a history, without their line breaks, as one text.
#[derive(Default)]
struct Batch {
    text: Vec<u8>,
    /// Where each line ends in `text`.
    ends: Vec<usize>,
}

impl Batch {
    /// The next lines of `reader`, about `bytes` of them (at least one line, unless the file
    /// has ended: then none).
    fn read(reader: &mut impl BufRead, bytes: usize) -> std::io::Result<Batch> {
        let mut batch = Batch::default();
        while batch.text.len() < bytes {
            if reader.read_until(b'\n', &mut batch.text)? == 0 {
                break;
            }
            if batch.text.last() == Some(&b'\n') {
                batch.text.pop();
            }
            batch.ends.push(batch.text.len());
        }
        Ok(batch)
    }

    /// What each of its lines comes to, in order.
    fn read_each(&self, keep: &Keep<'_>) -> Vec<Outcome> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(start, end)| Outcome::of(self.text.get(start..end).unwrap_or_default(), keep))
            .collect()
    }
}

/// What a thread made of a batch: what each line came to, or how the thread failed.
type Read = std::thread::Result<Vec<Outcome>>;

/// What one line of a history comes to, read and, if a record, kept or not.
enum Outcome {
    Blank,
    Kept(Box<Record>),
    LeftOut,
    Newer,
    Bad,
}

impl Outcome {
    fn of(line: &[u8], keep: &Keep<'_>) -> Outcome {
        match parse_line(line) {
            Line::Blank => Outcome::Blank,
            Line::Record(mut record) => {
                if keep(&mut record) {
                    Outcome::Kept(record)
                } else {
                    Outcome::LeftOut
                }
            }
            Line::Newer => Outcome::Newer,
            Line::Bad => Outcome::Bad,
        }
    }
}

/// The lines read so far, taken one at a time in the file's order.
#[derive(Default)]
struct Taken {
    lines: Lines,
    /// A bad line is counted once a line follows it: the last one is ignored.
    bad_pending: bool,
}

impl Taken {
    fn take(&mut self, read: Outcome) {
        if !matches!(read, Outcome::Blank) && std::mem::take(&mut self.bad_pending) {
            self.lines.skipped += 1;
        }
        match read {
            Outcome::Blank => {}
            Outcome::Kept(record) => self.lines.records.push(*record),
            Outcome::LeftOut => self.lines.left_out += 1,
            Outcome::Newer => self.lines.newer += 1,
            Outcome::Bad => self.bad_pending = true,
        }
    }
}

/// [`read_lines_kept`] on `threads` threads beside this one (on this one alone if fewer than
/// two), handed about `batch_bytes` of lines at a time.
fn read_lines_on(
    mut reader: impl BufRead,
    keep: &Keep<'_>,
    threads: usize,
    batch_bytes: usize,
) -> Result<Lines, Unreadable> {
    let mut taken = Taken::default();
    if threads < 2 {
        loop {
            let batch = Batch::read(&mut reader, batch_bytes)?;
            if batch.ends.is_empty() {
                return Ok(taken.lines);
            }
            batch
                .read_each(keep)
                .into_iter()
                .for_each(|r| taken.take(r));
        }
    }
    let (batches, to_read) = std::sync::mpsc::channel::<(usize, Batch)>();
    let to_read = std::sync::Mutex::new(to_read);
    std::thread::scope(|scope| {
        let (done, read) = std::sync::mpsc::channel::<(usize, Read)>();
        for _ in 0..threads {
            let (to_read, done) = (&to_read, done.clone());
            scope.spawn(move || {
                loop {
                    // The lock is held only to take a batch, not while it is read.
                    let next = match to_read.lock() {
                        Ok(to_read) => to_read.recv(),
                        Err(_) => return,
                    };
                    let Ok((n, batch)) = next else {
                        return;
                    };
                    let reads = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        batch.read_each(keep)
                    }));
                    if done.send((n, reads)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        // Batches handed out, and taken back in order; those back early wait their turn. At
        // most two a thread are out at once, so the memory held stays small.
        let (mut sent, mut next) = (0usize, 0usize);
        let mut early = std::collections::BTreeMap::<usize, Read>::new();
        let outcome = loop {
            let batch = match Batch::read(&mut reader, batch_bytes) {
                Ok(batch) => batch,
                Err(e) => break Err(Unreadable::from(e)),
            };
            let last = batch.ends.is_empty();
            if !last {
                if batches.send((sent, batch)).is_err() {
                    break Ok(());
                }
                sent += 1;
            }
            while next < sent && (last || sent - next >= 2 * threads) {
                if let Some(reads) = early.remove(&next) {
                    match reads {
                        Ok(reads) => reads.into_iter().for_each(|r| taken.take(r)),
                        // A thread that failed fails this one, as if it had read the batch.
                        Err(payload) => std::panic::resume_unwind(payload),
                    }
                    next += 1;
                    continue;
                }
                match read.recv() {
                    Ok((n, reads)) => {
                        early.insert(n, reads);
                    }
                    // Every thread has ended: none will.
                    Err(_) => break,
                }
            }
            if last {
                break Ok(());
            }
        };
        // The threads end once the batches are all handed out.
        drop(batches);
        outcome.map(|()| taken.lines)
    })
}

/// The history of entry `id` (titled `title`) as read from `storage`, every record as it is
/// written (unchecked), with a notice for the player if some of it could not be read: lines
/// skipped, or the whole file moved aside (then the history is empty, and the next game starts
/// a new file).
pub fn read(storage: &Storage, id: &str, title: &str) -> (Vec<Record>, Option<String>) {
    let (lines, notice) = read_kept(storage, id, title, &|_| true);
    (lines.records, notice)
}

/// The history of `entry` as read from `storage`, each record checked against its replay
/// ([`check`]) and left out if it does not match or repeats a game already kept (the same
/// [`Record::game_key`]), with its statistics; a notice for the player if some of it could
/// not be read or was left out. Records that name the entry's own parameters (the first
/// form's) are kept without them; those that name others are left out.
pub fn read_trusted(storage: &Storage, entry: &Entry) -> (History, Option<String>) {
    // The entry's params, made at its first record: most entries have no history, and a
    // built-in's params are read from its file.
    let params = std::sync::OnceLock::new();
    let keep = |record: &mut Record| {
        if record.params.is_some() {
            let params = params.get_or_init(|| entry.params_json());
            if record.params.as_deref() == Some(params) {
                record.params = None;
            }
        }
        check(entry, record).is_ok()
    };
    let (mut lines, notice) = read_kept(storage, entry.id(), entry.title(), &keep);
    let repeats = {
        let mut seen = std::collections::HashSet::with_capacity(lines.records.len());
        let first: Vec<bool> = lines
            .records
            .iter()
            .map(|r| seen.insert(r.game_key()))
            .collect();
        let mut first = first.into_iter();
        let before = lines.records.len();
        lines.records.retain(|_| first.next().unwrap_or(true));
        before - lines.records.len()
    };
    // The room the records grew into, let go of: up to half of a long history's.
    lines.records.shrink_to_fit();
    let left_out = lines.left_out + repeats;
    let notice = match (notice, left_out) {
        (notice, 0) => notice,
        (notice, n) => {
            let (count, them) = match n {
                1 => ("1 game".to_string(), "it is"),
                n => (format!("{n} games"), "they are"),
            };
            let left = format!(
                "The history of {} ({}): {count} cannot be trusted (the score, win, tiles or \
                 rules said differ from a replay of the moves, or the game is one already \
                 counted), so {them} left out of the statistics and replays, and left in the \
                 file as written.",
                entry.title(),
                history_file_name(entry.id()),
            );
            Some(notice.map_or(left.clone(), |n| format!("{n} {left}")))
        }
    };
    (
        History::new(lines.records, entry.lower_is_better(), left_out),
        notice,
    )
}

/// [`read`], each record kept only if `keep` says so (see [`read_lines_kept`]).
fn read_kept(storage: &Storage, id: &str, title: &str, keep: &Keep<'_>) -> (Lines, Option<String>) {
    if storage.unusable_reason().is_some() {
        return (Lines::default(), None);
    }
    // A folder that cannot be read is one notice, not one per game (most have no history).
    if let Some(problem) = storage.folder_problem(HISTORY_FOLDER) {
        return (Lines::default(), Some(folder_notice(&problem)));
    }
    let name = history_file_name(id);
    let what = format!("The history of {title} ({name})");
    let quarantine = |reason: String| {
        let outcome = storage.quarantine::<()>(&name, reason);
        (Lines::default(), notice(&what, &outcome))
    };
    // Never blocks: a named pipe there is refused, and never written to.
    let file = match storage.open_to_read(&name) {
        Ok(Some(opened)) => opened,
        Ok(None) => return (Lines::default(), None),
        Err(NotRead::Folder(problem)) => return (Lines::default(), Some(folder_notice(&problem))),
        Err(NotRead::File(refused)) => return (Lines::default(), notice(&what, &refused)),
    };
    let len = file.len;
    let mut reader = BufReader::new(file.reader);
    // Of a file past the bound, the newest games: from the first line that starts in its last
    // MAX_HISTORY_BYTES (the byte before them ends a line, or is in the line cut, skipped).
    let older = len.saturating_sub(MAX_HISTORY_BYTES);
    if older > 0 {
        let skipped = reader
            .seek(SeekFrom::Start(older - 1))
            .and_then(|_| reader.skip_until(b'\n'));
        if let Err(e) = skipped {
            return quarantine(tilebox_core::files::io_words(&e));
        }
    }
    match read_lines_kept(reader.take(MAX_HISTORY_BYTES), keep) {
        Ok(lines) => {
            let older = (older > 0).then(|| {
                format!(
                    "{what} is {} MB, more than the {} MB Tilebox reads of a history: the \
                     statistics and replays are of its newest {} games, the last {} MB of it. \
                     The older games stay in the file as written.",
                    len.div_ceil(1024 * 1024),
                    MAX_HISTORY_BYTES / (1024 * 1024),
                    lines.records.len() + lines.left_out,
                    MAX_HISTORY_BYTES / (1024 * 1024),
                )
            });
            let skipped = (lines.skipped > 0).then(|| {
                let (count, verb) = match lines.skipped {
                    1 => ("1 line".to_string(), "is"),
                    n => (format!("{n} lines"), "are"),
                };
                format!(
                    "{what}: {count} {verb} not a game this Tilebox can read; skipped, and left \
                     in the file as {}.",
                    if lines.skipped == 1 {
                        "it is"
                    } else {
                        "they are"
                    }
                )
            });
            let notice = match (older, skipped) {
                (Some(older), Some(skipped)) => Some(format!("{older} {skipped}")),
                (older, skipped) => older.or(skipped),
            };
            (lines, notice)
        }
        Err(e) => quarantine(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use std::sync::Arc;

    /// A record of a real game of 2048 from `seed`, `moves` moves long.
    fn record(seed: u64, moves: usize) -> Record {
        let registry = tilebox_games::registry();
        let mut session = registry.get("2048").unwrap().new_session(seed).unwrap();
        for _ in 0..moves {
            let mv = session.legal_moves().into_iter().next().unwrap();
            session.play_text(&mv).unwrap();
        }
        Record::of(
            "2048",
            &*session,
            &Tally::default(),
            None,
            1000,
            tilebox_core::date::rfc3339(1_700_000_000),
        )
    }

    fn line_of(r: &Record) -> String {
        String::from_utf8(r.line().unwrap()).unwrap()
    }

    /// On the frame (a page), nothing is read when the reading starts: each call reads on for
    /// a slice, one history at least, and every history arrives, the same as from the thread.
    #[test]
    fn on_the_frame_the_histories_are_read_a_slice_at_each_call_and_all_arrive() {
        use crate::store::keys::{Keys as _, MemoryKeys};
        let keys = std::sync::Arc::new(MemoryKeys::default());
        let text = format!("{}\n{}\n", line_of(&record(1, 3)), line_of(&record(2, 5)));
        keys.set("tilebox/history/2048.jsonl", &text).unwrap();
        let storage = Storage::in_keys(keys);
        let registry = tilebox_games::registry();
        let entries: Vec<Entry> = registry.entries().to_vec();
        let mut loading = Loading::start(storage.clone(), entries.clone(), WorkMode::Frame);
        assert_eq!(loading.left, entries.len(), "nothing is read at the start");
        let mut arrived = Vec::new();
        let mut calls = 0;
        while arrived.len() < entries.len() {
            let some = loading.arrived();
            assert!(!some.is_empty(), "each call reads one history at least");
            arrived.extend(some);
            calls += 1;
        }
        assert!(calls >= 1);
        assert_eq!(loading.left, 0);
        assert!(loading.arrived().is_empty());
        let ids: Vec<&str> = arrived.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, registry.ids());
        let (_, history, notice) = arrived.iter().find(|(id, _, _)| id == "2048").unwrap();
        assert_eq!((history.records().len(), notice), (2, &None));
        // What `wait` gives on the frame: every history at once.
        let mut waited = Loading::start(storage, entries.clone(), WorkMode::Frame);
        let all = waited.wait(std::time::Duration::from_secs(60));
        assert_eq!(all.len(), entries.len());
    }

    #[test]
    fn a_torn_last_line_is_ignored() {
        let (a, b) = (record(1, 3), record(2, 5));
        let whole = format!("{}\n{}\n", line_of(&a), line_of(&b));
        let torn = format!("{whole}{}", &line_of(&a)[..20]);
        let lines = read_lines(torn.as_bytes()).unwrap();
        assert_eq!(lines.records, vec![a.clone(), b.clone()]);
        assert_eq!(lines.skipped, 0);
        // A last line that is not a record, even with its line break, is torn too.
        let bad_last = format!("{whole}{{\"format\":1,\n");
        let lines = read_lines(bad_last.as_bytes()).unwrap();
        assert_eq!((lines.records.len(), lines.skipped), (2, 0));
        // Torn in the middle of a character: still only the torn line is ignored.
        let mut bytes = whole.into_bytes();
        bytes.extend_from_slice(&"{\"game\":\"\u{e9}".as_bytes()[..10]);
        let lines = read_lines(bytes.as_slice()).unwrap();
        assert_eq!(lines.records, vec![a, b]);
    }

    #[test]
    fn a_bad_line_in_the_middle_is_skipped_and_counted() {
        let (a, b) = (record(1, 3), record(2, 5));
        let text = format!(
            "{}\nnot json\n{{\"format\":1}}\n\n{}\n",
            line_of(&a),
            line_of(&b)
        );
        let lines = read_lines(text.as_bytes()).unwrap();
        assert_eq!(lines.records, vec![a, b]);
        assert_eq!((lines.skipped, lines.newer), (2, 0));
    }

    /// What a line reads as, to compare.
    fn read_as(line: Line) -> (&'static str, Option<Record>) {
        match line {
            Line::Blank => ("blank", None),
            Line::Record(record) => ("record", Some(*record)),
            Line::Newer => ("newer", None),
            Line::Bad => ("bad", None),
        }
    }

    /// Lines of every kind: records of both forms (of the entry's params, of others), records
    /// forged, repeated, cut short, written twice over in a field, of a newer format, blank
    /// lines and lines that are no record, and a torn last line.
    fn lines_of_every_kind() -> Vec<String> {
        let (a, b, c) = (record(1, 30), record(2, 0), record(3, 12));
        let mut forged = c.clone();
        forged.score += 4;
        let params = tilebox_games::registry().get("2048").unwrap().params_json();
        let first_form = {
            let mut value = serde_json::to_value(&a).unwrap();
            value["format"] = 1.into();
            value["params"] = params.clone();
            value.to_string()
        };
        let mut other_params = params;
        other_params["side"] = 5.into();
        let other = Record {
            params: Some(Arc::new(other_params)),
            ..b.clone()
        };
        let line = line_of(&c);
        let mut lines = vec![
            line_of(&a),
            "not json".into(),
            String::new(),
            "   ".into(),
            line_of(&b),
            line_of(&forged),
            first_form.clone(),
            first_form.replace("\"format\":1", "\"format\":1,\"params\":null"),
            line_of(&other),
            line.clone(),
            line.replacen("{", "{\"score\":1,", 1),
            line.replacen("{", "{\"seed\":3,", 1),
            line.replacen("{", "{\"new\":[1,2.5,\"x\"],\"new\":true,", 1),
            line.replace("\"format\":2", "\"format\":3"),
            line.replace("\"format\":2", "\"format\":0"),
            line.replace("\"format\":2", "\"format\":4294967298"),
            line.replace("\"moves\":[", "\"moves\":[3,"),
            line_of(&a),
            "{\"format\":1}".into(),
            line[..line.len() / 2].to_string(),
        ];
        lines.extend((0..40).map(|i| line_of(&record(10 + i, usize::try_from(i).unwrap()))));
        lines.push(line[..line.len() / 3].to_string());
        lines
    }

    #[test]
    fn a_line_reads_the_same_straight_or_through_its_tree() {
        for line in lines_of_every_kind() {
            let tree = if line.trim().is_empty() {
                Line::Blank
            } else {
                parse_tree(&line)
            };
            assert_eq!(
                read_as(parse_line(line.as_bytes())),
                read_as(tree),
                "{line}"
            );
        }
    }

    #[test]
    fn reading_on_several_threads_keeps_what_one_thread_keeps_in_its_order() {
        let registry = tilebox_games::registry();
        let entry = registry.get("2048").unwrap();
        let text = lines_of_every_kind().join("\n");
        let keep = |record: &mut Record| check(entry, record).is_ok();
        // Line by line, as the reading always went.
        let mut one_by_one = Taken::default();
        for line in text.split('\n') {
            one_by_one.take(Outcome::of(line.as_bytes(), &keep));
        }
        let expected = one_by_one.lines;
        assert!(expected.records.len() > 40 && expected.left_out > 0);
        assert!(expected.skipped > 0 && expected.newer > 0);
        for (threads, batch_bytes) in [(1, 1), (1, 1 << 20), (2, 1), (3, 1), (3, 700), (8, 5000)] {
            let lines = read_lines_on(text.as_bytes(), &keep, threads, batch_bytes).unwrap();
            assert_eq!(
                lines, expected,
                "{threads} threads, batches of {batch_bytes} bytes"
            );
        }
    }

    #[test]
    fn records_of_a_newer_format_are_not_shown() {
        let a = record(1, 3);
        let mut newer = serde_json::to_value(&a).unwrap();
        newer["format"] = (HISTORY_FORMAT + 1).into();
        let text = format!("{newer}\n{}\n", line_of(&a));
        let lines = read_lines(text.as_bytes()).unwrap();
        assert_eq!((lines.records, lines.skipped, lines.newer), (vec![a], 0, 1));
    }

    #[test]
    fn a_line_of_bytes_that_are_not_text_is_skipped_as_a_bad_line() {
        let a = record(1, 3);
        let b = record(2, 4);
        let mut bytes = line_of(&a).into_bytes();
        bytes.extend_from_slice(b"\n\xff\xfe garbage\n");
        bytes.extend_from_slice(line_of(&b).as_bytes());
        bytes.push(b'\n');
        let lines = read_lines(bytes.as_slice()).unwrap();
        assert_eq!(lines.records, vec![a, b]);
        assert_eq!(lines.skipped, 1);
    }

    #[test]
    fn an_append_after_a_torn_line_leaves_every_whole_record_readable() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::new(dir.path());
        let name = history_file_name("2048");
        let (a, b, c) = (record(1, 3), record(2, 5), record(3, 7));
        storage.append_line(&name, &a.line().unwrap()).unwrap();
        storage.append_line(&name, &b.line().unwrap()).unwrap();
        // A crash tore the third append halfway.
        let path = storage.path(&name);
        let mut bytes = std::fs::read(&path).unwrap();
        let third = c.line().unwrap();
        bytes.extend_from_slice(&third[..third.len() / 2]);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read(&storage, "2048", "2048").0, vec![a.clone(), b.clone()]);
        // The next game's record is whole; the torn line is now a bad line of its own.
        storage.append_line(&name, &c.line().unwrap()).unwrap();
        let (records, notice) = read(&storage, "2048", "2048");
        assert_eq!(records, vec![a, b, c]);
        assert!(notice.unwrap().contains("1 line is not a game"));
    }

    #[test]
    fn a_record_reads_back_and_replays_to_its_score() {
        let r = record(9, 40);
        let back: Record = serde_json::from_slice(&r.line().unwrap()).unwrap();
        assert_eq!(back, r);
        let registry = tilebox_games::registry();
        let entry = registry.get("2048").unwrap();
        let session = entry.load(&r.saved_game(entry)).unwrap();
        assert_eq!((session.score(), session.top_tile()), (r.score, r.top_tile));
        assert_eq!(r.moves.len(), 40);
    }

    #[test]
    fn a_strike9_game_records_the_tiles_left_and_a_sliding_game_its_top_tile() {
        let registry = tilebox_games::registry();
        let mut session = registry.get("strike9").unwrap().new_session(11).unwrap();
        while let Some(mv) = session.legal_moves().into_iter().next() {
            session.play_text(&mv).unwrap();
        }
        assert!(session.status().over);
        let r = Record::of(
            "strike9",
            &*session,
            &Tally::default(),
            None,
            0,
            String::new(),
        );
        let open = session.state_json()["open"].as_array().unwrap().len();
        assert_eq!(r.tiles_left, Some(u32::try_from(open).unwrap()));
        assert_eq!(r.top_tile, None);
        let sliding = record(1, 3);
        assert_eq!(sliding.tiles_left, None);
        assert!(sliding.top_tile.is_some());
    }

    #[test]
    fn a_game_recorded_before_the_file_is_read_is_neither_lost_nor_doubled() {
        let (a, b, c) = (record(1, 3), record(2, 5), record(3, 7));
        let mut kept = Kept::default();
        assert!(matches!(kept.view(), HistoryView::Loading));
        kept.push(b.clone());
        kept.push(c.clone());
        // The reading found b on disk (appended before it read), not c.
        kept.arrive(History::new(vec![a.clone(), b.clone()], false, 0));
        let HistoryView::Ready(history) = kept.view() else {
            panic!("not ready")
        };
        assert_eq!(history.records(), [a.clone(), b.clone(), c.clone()]);
        let d = record(4, 2);
        kept.push(d.clone());
        let HistoryView::Ready(history) = kept.view() else {
            panic!("not ready")
        };
        let all = [a, b, c, d];
        assert_eq!(history.records(), all);
        // Its statistics are those of its records, worked out as they came.
        assert_eq!(history.stats(), &Stats::of(&all, false));
    }

    #[test]
    fn a_record_names_no_parameters_when_they_are_its_entrys() {
        let r = record(3, 10);
        assert_eq!(r.params, None);
        let line = line_of(&r);
        assert!(!line.contains("params"), "{line}");
        assert!(line.contains(r#""format":2"#), "{line}");
        assert!(line.len() < 400, "{} bytes: {line}", line.len());
        // A game with parameters of its own names them.
        let registry = tilebox_games::registry();
        let entry = registry.get("2048").unwrap();
        let own = entry
            .with_params(&serde_json::json!({"side": 5}), 4)
            .unwrap();
        let r = Record::of("2048", &*own, &Tally::default(), None, 0, String::new());
        assert_eq!(r.params, Some(Arc::new(own.params_json())));
        assert_eq!(
            entry.load(&r.saved_game(entry)).unwrap().params_json(),
            own.params_json()
        );
        let back: Record = serde_json::from_slice(&r.line().unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn moves_read_and_write_as_a_list_of_strings() {
        let moves = Moves::from(vec!["L", "", "Up", "é"]);
        assert_eq!(moves.len(), 4);
        assert_eq!(moves.iter().collect::<Vec<_>>(), ["L", "", "Up", "é"]);
        let json = serde_json::to_string(&moves).unwrap();
        assert_eq!(json, r#"["L","","Up","é"]"#);
        assert_eq!(serde_json::from_str::<Moves>(&json).unwrap(), moves);
        assert_eq!(
            serde_json::from_str::<Moves>("[]").unwrap(),
            Moves::default()
        );
        assert!(serde_json::from_str::<Moves>(r#"["L", 3]"#).is_err());
        assert!(serde_json::from_str::<Moves>(r#""L""#).is_err());
        assert_eq!(format!("{moves:?}"), r#"["L", "", "Up", "é"]"#);
    }

    #[test]
    fn a_first_form_record_without_parameters_is_a_bad_line() {
        let a = record(1, 3);
        let mut first = serde_json::to_value(&a).unwrap();
        first["format"] = 1.into();
        let text = format!("{first}\n{}\n", line_of(&a));
        let lines = read_lines(text.as_bytes()).unwrap();
        assert_eq!((lines.records, lines.skipped), (vec![a], 1));
    }

    /// The history the previous release wrote (format 1, each record with its parameters in full),
    /// kept as it was written: 2048, 2584 (a ladder of 63 tiles), Strike 9 and Full House.
    const FIRST_RELEASE: &str = "tests/fixtures/history-format-1";

    #[test]
    fn a_history_the_first_release_wrote_reads_unchanged_every_game_trusted() {
        let registry = tilebox_games::registry();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIRST_RELEASE);
        let storage = Storage::new(&dir);
        let mut games = 0;
        for id in ["2048", "2584", "strike9", "full-house"] {
            let entry = registry.get(id).unwrap();
            let path = storage.path(&history_file_name(id));
            let before = std::fs::read(&path).unwrap();
            let (raw, notice) = read(&storage, id, entry.title());
            assert_eq!(notice, None, "{id}");
            assert!(raw.len() >= 5, "{id}: {}", raw.len());
            let full = Some(Arc::new(entry.params_json()));
            assert!(raw.iter().all(|r| r.format == 1 && r.params == full));
            let (history, notice) = read_trusted(&storage, entry);
            assert_eq!(notice, None, "{id}");
            assert_eq!(history.left_out(), 0, "{id}");
            assert_eq!(history.len(), raw.len(), "{id}");
            for (kept, raw) in history.iter().zip(&raw) {
                // The parameters, the entry's, are not kept; all else is as written.
                assert_eq!(kept.params, None);
                assert_eq!(
                    &Record {
                        params: raw.params.clone(),
                        ..kept.clone()
                    },
                    raw
                );
                // It replays to what it says.
                let session = entry.load(&kept.saved_game(entry)).unwrap();
                assert_eq!(session.score(), kept.score);
            }
            assert_eq!(history.stats(), &Stats::of(&raw, entry.lower_is_better()));
            // The file is as it was.
            assert_eq!(std::fs::read(&path).unwrap(), before, "{id}");
            games += history.len();
        }
        assert!(games >= 20);
    }

    #[test]
    fn records_that_do_not_match_their_replay_are_left_out_with_one_notice() {
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::new(dir.path());
        let name = history_file_name("2048");
        let registry = tilebox_games::registry();
        let entry = registry.get("2048").unwrap();
        let (a, b, c) = (record(1, 30), record(2, 50), record(3, 70));
        let forged = [
            Record {
                score: 99_999,
                ..a.clone()
            },
            Record {
                won: true,
                ..b.clone()
            },
            Record {
                top_tile: Some(4096),
                ..c.clone()
            },
            Record {
                over: true,
                ..a.clone()
            },
            Record {
                moves: Moves::from(vec!["L"; 200]),
                ..a.clone()
            },
            Record {
                game: "threes".into(),
                ..a.clone()
            },
            Record {
                daily: Some("2026-11-23".into()),
                ..a.clone()
            },
            // Real moves under rules of its own: an 8×8 board.
            Record {
                params: Some(Arc::new(side_8(entry))),
                ..a.clone()
            },
        ];
        for r in [&a, &b].into_iter().chain(&forged).chain([&c]) {
            storage.append_line(&name, &r.line().unwrap()).unwrap();
        }
        let before = std::fs::read(storage.path(&name)).unwrap();
        let (history, notice) = read_trusted(&storage, entry);
        assert_eq!(history.records(), [a, b, c.clone()]);
        assert_eq!(history.left_out(), forged.len());
        assert_eq!(history.stats().unassisted.played, 3);
        let notice = notice.unwrap();
        assert!(
            notice.contains("8 games cannot be trusted (the score, win, tiles or rules said"),
            "{notice}"
        );
        assert!(notice.contains("history/2048.jsonl"), "{notice}");
        assert_eq!(std::fs::read(storage.path(&name)).unwrap(), before);
        for r in &forged {
            assert!(check(entry, r).is_err(), "{r:?}");
        }
        assert_eq!(check(entry, &c), Ok(()));
    }

    /// 2048's parameters with an 8×8 board.
    fn side_8(entry: &Entry) -> serde_json::Value {
        let mut params = entry.params_json();
        params["side"] = 8.into();
        params
    }

    #[test]
    fn real_moves_under_rules_of_their_own_do_not_count() {
        let registry = tilebox_games::registry();
        let entry = registry.get("2048").unwrap();
        let real = record(5, 40);
        // The reviewer's forgery: 2048's moves replayed on an 8×8 board, scored as they make.
        let mut forged = Record {
            params: Some(Arc::new(side_8(entry))),
            ..real.clone()
        };
        let on_8 = entry.load(&forged.saved_game(entry)).unwrap();
        forged.score = on_8.score();
        forged.top_tile = on_8.top_tile();
        forged.over = on_8.status().over;
        assert_eq!(check(entry, &forged), Err(Mismatch::Params));
        // Its entry's own parameters, named in full (the first form), are no forgery.
        let first = Record {
            params: Some(Arc::new(entry.params_json())),
            ..real.clone()
        };
        assert_eq!(check(entry, &first), Ok(()));
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::new(dir.path());
        let name = history_file_name("2048");
        for r in [&forged, &real] {
            storage.append_line(&name, &r.line().unwrap()).unwrap();
        }
        let (history, notice) = read_trusted(&storage, entry);
        assert_eq!(history.records(), [real]);
        assert_eq!(history.left_out(), 1);
        assert!(notice.unwrap().contains("1 game cannot be trusted"));
    }

    #[test]
    fn a_game_started_from_a_seed_of_the_history_is_known_before_and_after_it_arrives() {
        let (a, b, c) = (record(1, 3), record(2, 5), record(3, 7));
        let history = History::new(vec![a.clone(), b.clone()], false, 0);
        assert!(history.has_seed(1) && history.has_seed(2) && !history.has_seed(3));
        let mut kept = Kept::default();
        // While the file is read: seed 2 (in the file) and 3 (recorded this run, then started
        // again) and 4 (new).
        assert!(!kept.start(2));
        kept.push(c.clone());
        assert!(kept.start(3));
        assert!(!kept.start(4));
        // The file held seed 2: the game started from it was played before.
        assert_eq!(kept.arrive(history), vec![2]);
        let HistoryView::Ready(history) = kept.view() else {
            panic!("not ready")
        };
        assert!(history.has_seed(3));
        assert!(kept.start(1) && kept.start(3) && !kept.start(4));
        kept.push(record(4, 2));
        assert!(kept.start(4));
        // Arrived once: nothing is left to say.
        assert_eq!(kept.arrive(History::EMPTY.clone()), Vec::<u64>::new());
    }

    #[test]
    fn a_game_recorded_twice_counts_once() {
        let registry = tilebox_games::registry();
        let entry = registry.get("2048").unwrap();
        let (a, b) = (record(1, 30), record(2, 50));
        // The same game again, ended later (a kill between the record and the save), and a
        // line copied three times.
        let again = Record {
            ended: tilebox_core::date::rfc3339(1_700_000_100),
            duration_ms: 2000,
            assisted: true,
            ..a.clone()
        };
        let dir = tempfile::tempdir().unwrap();
        let storage = Storage::new(dir.path());
        let name = history_file_name("2048");
        for r in [&a, &b, &again, &b, &b, &b] {
            storage.append_line(&name, &r.line().unwrap()).unwrap();
        }
        let before = std::fs::read(storage.path(&name)).unwrap();
        let (history, notice) = read_trusted(&storage, entry);
        assert_eq!(history.records(), [a.clone(), b.clone()]);
        assert_eq!(history.left_out(), 4);
        assert_eq!(history.stats(), &Stats::of(&[a.clone(), b], false));
        assert!(notice.unwrap().contains("4 games cannot be trusted"));
        assert_eq!(std::fs::read(storage.path(&name)).unwrap(), before);
        // A game recorded again while the file was being read is not added twice.
        let mut kept = Kept::default();
        kept.push(again);
        kept.arrive(history);
        let HistoryView::Ready(history) = kept.view() else {
            panic!("not ready")
        };
        assert_eq!(history.len(), 2);
    }

    /// A record of 2048 or Strike 9 from `seed`, played `moves` moves (or to its end).
    fn any_record(strike9: bool, seed: u64, moves: usize) -> (Entry, Record) {
        let id = if strike9 { "strike9" } else { "2048" };
        let registry = tilebox_games::registry();
        let entry = registry.get(id).unwrap().clone();
        let mut session = entry.new_session(seed).unwrap();
        for i in 0..moves {
            let legal = session.legal_moves();
            let Some(mv) = legal.get(i % legal.len().max(1)) else {
                break;
            };
            session.play_text(mv).unwrap();
        }
        let r = Record::of(id, &*session, &Tally::default(), None, 0, String::new());
        (entry, r)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// A real record is trusted; one with a field forged (score, win, end, highest tile or
        /// tiles left, moves, parameters, daily date, game, or a copy of it with only its
        /// assistance changed) or copied again is not, and counts in no figure.
        #[test]
        fn a_forged_record_never_counts(
            strike9 in proptest::prelude::any::<bool>(),
            seed in 0u64..1000,
            moves in 0usize..60,
            field in 0usize..10,
            by in 1u64..100_000,
            cut in 1usize..10,
        ) {
            let (entry, real) = any_record(strike9, seed, moves);
            proptest::prop_assert_eq!(check(&entry, &real), Ok(()));
            let mut forged = real.clone();
            // How many lines are written after the real one: one forged record, or copies.
            let mut lines = 1;
            match field {
                0 => forged.score = real.score.wrapping_add(by),
                1 => forged.won = !real.won,
                2 => forged.over = !real.over,
                3 => {
                    forged.top_tile = real.top_tile.map(|t| t.wrapping_add(by));
                    forged.tiles_left = real.tiles_left.map(|t| t.wrapping_add(by as u32 % 13 + 1));
                }
                4 => {
                    // Moves cut short, or one more than the game had.
                    let mut list = real.moves.to_vec();
                    if list.len() >= cut && !real.over {
                        list.truncate(list.len() - cut);
                    } else {
                        list.push(if strike9 { "9".into() } else { "L".into() });
                        list.push("L".into());
                    }
                    forged.moves = Moves::from(list);
                }
                5 => {
                    // Rules of its own: a bigger board, or more tiles.
                    let mut params = entry.params_json();
                    if strike9 {
                        params["tiles"] = 12.into();
                    } else {
                        params["side"] = (by % 6 + 3).into();
                    }
                    proptest::prop_assume!(params != entry.params_json());
                    forged.params = Some(Arc::new(params));
                }
                6 => {
                    let day = Date::of_days(20_000 + i64::try_from(by).unwrap());
                    proptest::prop_assume!(real.seed != tilebox_core::daily_seed(entry.id(), day));
                    forged.daily = Some(day.to_string());
                }
                7 => forged.game = if strike9 { "full-house" } else { "2584" }.into(),
                8 => forged.assisted = !real.assisted,
                _ => lines = usize::try_from(by % 5 + 1).unwrap(),
            }
            if field == 4 && check(&entry, &forged).is_ok() {
                // Only moves can be changed into another honest game: it is then its own.
                let session = entry.load(&forged.saved_game(&entry)).unwrap();
                proptest::prop_assert_eq!(session.score(), forged.score);
                proptest::prop_assert_eq!(session.status().over, forged.over);
                proptest::prop_assert_ne!(forged.game_key(), real.game_key());
            } else {
                let dir = tempfile::tempdir().unwrap();
                let storage = Storage::new(dir.path());
                let name = history_file_name(entry.id());
                storage.append_line(&name, &real.line().unwrap()).unwrap();
                for _ in 0..lines {
                    storage.append_line(&name, &forged.line().unwrap()).unwrap();
                }
                let (history, notice) = read_trusted(&storage, &entry);
                proptest::prop_assert_eq!(history.records(), std::slice::from_ref(&real));
                proptest::prop_assert_eq!(history.left_out(), lines);
                proptest::prop_assert!(notice.is_some());
                let stats = history.stats();
                proptest::prop_assert_eq!(stats, &Stats::of(std::slice::from_ref(&real), entry.lower_is_better()));
                proptest::prop_assert_eq!(stats.best_game, Some(0).filter(|_| stats.unassisted.best.is_some()));
            }
        }
    }
}
