//! Every game remembered: `history/<entry-id>.jsonl`, one [`Record`] a line, appended when a
//! game ends or is abandoned for a new one after a move.
//!
//! Lines are only ever appended ([`crate::storage::Storage::append_line`], through the writer
//! thread), never rewritten. Reading ([`read`]) takes the file line by line: a torn last line (a
//! crash during an append) is ignored, other lines that are not records are skipped and
//! counted, and records a newer Tilebox wrote (a higher `format`) stay in the file, unshown. A
//! file that cannot be read at all (an I/O error, bytes that are not UTF-8 text, over
//! [`MAX_HISTORY_BYTES`]) is moved aside like any other bad file, and the next game starts a
//! new one.

use std::io::{BufRead, BufReader, Read as _};

use serde::{Deserialize, Serialize};
use tilebox_core::date::Date;
use tilebox_core::{DynSession, SAVE_FORMAT, SavedGame};

use crate::storage::{Storage, notice};
use crate::tally::Tally;

/// The largest history file Tilebox reads: 256 MiB, larger than other files (a history only
/// grows: a thousand long games of 2048 with their moves are about 20 MB). A larger file is
/// moved aside without being read.
pub const MAX_HISTORY_BYTES: u64 = 256 * 1024 * 1024;

/// The file, inside the data directory, that holds the history of game `id`.
pub fn history_file_name(id: &str) -> String {
    format!("history/{}.jsonl", crate::saves::safe_file_stem(id))
}

/// The version of the history's line form written by this build.
pub const HISTORY_FORMAT: u32 = 1;

/// One game of the history: everything needed to replay it (its entry, parameters, seed and
/// moves) and what it came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The version of this form, [`HISTORY_FORMAT`] when written by this build.
    pub format: u32,
    /// The entry's id.
    pub game: String,
    /// The game's parameters, in the game's own serde form (as in saves).
    pub params: serde_json::Value,
    /// The seed the game started from.
    pub seed: u64,
    /// The moves played, in order, in their text form (as in saves).
    pub moves: Vec<String>,
    /// The final score.
    pub score: u64,
    /// The game was won (in 2048, reached its win and maybe went on).
    pub won: bool,
    /// The game reached its end; `false`: it was abandoned for a new game.
    pub over: bool,
    /// When the game ended or was abandoned: UTC, RFC 3339 (`2026-11-23T16:27:11Z`).
    pub ended: String,
    /// How long it was played, in milliseconds (the time its board was on screen).
    pub duration_ms: u64,
    /// The highest tile on the board at the end (sliding games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_tile: Option<u64>,
    /// How many tiles were left open at the end (Strike 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles_left: Option<u32>,
    /// Undo, a hint or autoplay was used in the game.
    #[serde(default)]
    pub assisted: bool,
    /// The date (`YYYY-MM-DD`, UTC) whose daily game this was; absent for any other game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub daily: Option<String>,
    /// Fields a newer Tilebox wrote that this build does not know.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

impl Record {
    /// The record of the game of `session` (of entry `id`) as it stands, with what the score
    /// table counted of it (`tally`), the date of its daily game if it is one, how long its
    /// board was on screen, and when it ended (`ended`, RFC 3339).
    pub fn of(
        id: &str,
        session: &dyn DynSession,
        tally: &Tally,
        daily: Option<Date>,
        duration_ms: u64,
        ended: String,
    ) -> Record {
        let status = session.status();
        Record {
            format: HISTORY_FORMAT,
            game: id.to_string(),
            params: session.params_json(),
            seed: session.seed(),
            moves: session.save().moves,
            score: session.score(),
            won: status.won || tally.won,
            over: status.over,
            ended,
            duration_ms,
            top_tile: session.top_tile(),
            tiles_left: session.tiles_left(),
            assisted: tally.assisted,
            daily: daily.map(|d| d.to_string()),
            unknown: serde_json::Map::new(),
        }
    }

    /// The record as one line of its file, without the line break.
    pub fn line(&self) -> Result<Vec<u8>, serde_json::Error> {
        serde_json::to_vec(self)
    }

    /// The game as a save with every move played, which [`tilebox_core::Entry::load`] replays
    /// to the recorded end.
    pub fn saved_game(&self) -> SavedGame {
        SavedGame {
            format: SAVE_FORMAT,
            game: self.game.clone(),
            params: self.params.clone(),
            seed: self.seed,
            moves: self.moves.clone(),
            redo: Vec::new(),
        }
    }
}

/// What the app holds of one entry's history, for the statistics and replays.
#[derive(Debug, Clone, Copy)]
pub enum HistoryView<'a> {
    /// The file is still being read (off the window's thread).
    Loading,
    /// Every game recorded, oldest first, with those appended since the file was read.
    Ready(&'a [Record]),
}

/// What the app holds of one entry's history: the records read from its file, once the reading
/// thread has sent them, and those appended this run. A game recorded before the file's records
/// arrive is kept apart, then added unless the reading already found it on disk, so that it is
/// neither lost nor shown twice.
#[derive(Debug, Default)]
pub struct Kept {
    read: Option<Vec<Record>>,
    appended: Vec<Record>,
}

impl Kept {
    /// The records read from the file have arrived.
    pub fn arrive(&mut self, mut read: Vec<Record>) {
        for record in self.appended.drain(..) {
            if !read.contains(&record) {
                read.push(record);
            }
        }
        self.read = Some(read);
    }

    /// A game was recorded (and its line queued for the file).
    pub fn push(&mut self, record: Record) {
        match &mut self.read {
            Some(records) => records.push(record),
            None => self.appended.push(record),
        }
    }

    /// What statistics and replays see.
    pub fn view(&self) -> HistoryView<'_> {
        match &self.read {
            Some(records) => HistoryView::Ready(records),
            None => HistoryView::Loading,
        }
    }
}

/// The history of one entry, read: its id, its records, and a notice for the player if any.
pub type Loaded = (String, Vec<Record>, Option<String>);

/// The histories being read at start-up, on a thread of their own: each entry's arrives on
/// the channel, and wakes the window.
pub struct Loading {
    rx: std::sync::mpsc::Receiver<Loaded>,
    /// How many entries have not arrived.
    left: usize,
    /// The window to wake when one arrives (set by the first frame).
    waker: Waker,
}

/// The window to wake, once there is one.
type Waker = std::sync::Arc<std::sync::Mutex<Option<egui::Context>>>;

/// Reads the history of each of `entries` (id, title) and sends it, waking the window.
fn read_all(
    storage: &Storage,
    entries: Vec<(String, String)>,
    tx: &std::sync::mpsc::Sender<Loaded>,
    waker: &Waker,
) {
    for (id, title) in entries {
        let (records, notice) = read(storage, &id, &title);
        if tx.send((id, records, notice)).is_err() {
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
    /// Starts reading the histories of `entries` (id, title) from `storage`. Should the system
    /// refuse a thread, they are read here (the app is starting: there is no window yet).
    pub fn start(storage: Storage, entries: Vec<(String, String)>) -> Loading {
        let (tx, rx) = std::sync::mpsc::channel::<Loaded>();
        let waker = Waker::default();
        let left = entries.len();
        let (thread_storage, thread_entries) = (storage.clone(), entries.clone());
        let (thread_tx, thread_waker) = (tx.clone(), std::sync::Arc::clone(&waker));
        let spawned = std::thread::Builder::new()
            .name("tilebox-history".into())
            .spawn(move || read_all(&thread_storage, thread_entries, &thread_tx, &thread_waker));
        if spawned.is_err() {
            read_all(&storage, entries, &tx, &waker);
        }
        Loading { rx, left, waker }
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

    /// The histories that have arrived since the last call, without waiting.
    pub fn arrived(&mut self) -> Vec<Loaded> {
        let arrived: Vec<Loaded> = self.rx.try_iter().collect();
        self.left = self.left.saturating_sub(arrived.len());
        arrived
    }

    /// The histories still to arrive, waiting up to `bound` for them (for tests and tools; the
    /// window never waits).
    pub fn wait(&mut self, bound: std::time::Duration) -> Vec<Loaded> {
        let deadline = std::time::Instant::now() + bound;
        let mut arrived = Vec::new();
        while self.left > 0 {
            let now = std::time::Instant::now();
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
}

/// What one line is.
enum Line {
    Blank,
    Record(Box<Record>),
    Newer,
    Bad,
    /// Bytes that are not UTF-8 (and not a character cut at the line's end by a torn write).
    NotText,
}

fn parse_line(bytes: &[u8]) -> Line {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // A character cut short at the end: a line torn by a crash, then ended by an append.
        Err(e) if e.error_len().is_none() => return Line::Bad,
        Err(_) => return Line::NotText,
    };
    if text.trim().is_empty() {
        return Line::Blank;
    }
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Line::Bad;
    };
    match value.get("format").and_then(serde_json::Value::as_u64) {
        Some(f) if f > u64::from(HISTORY_FORMAT) => Line::Newer,
        Some(f) if f == u64::from(HISTORY_FORMAT) => match serde_json::from_value(value) {
            Ok(record) => Line::Record(Box::new(record)),
            Err(_) => Line::Bad,
        },
        _ => Line::Bad,
    }
}

/// Why a history cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// The system could not read it.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It is not text.
    #[error("line {0} is not UTF-8 text")]
    NotText(usize),
}

/// Reads the lines of a history from `reader`: records, lines skipped, newer records. The last
/// line, if it is not a record (or is cut short: no line break and not a whole record), is a
/// line torn by a crash and is ignored, not counted.
pub fn read_lines(mut reader: impl BufRead) -> Result<Lines, Unreadable> {
    let mut lines = Lines::default();
    let mut buf = Vec::new();
    // A bad line is counted once a line follows it: the last one is ignored.
    let mut bad_pending = false;
    let mut number = 0;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        number += 1;
        let complete = buf.last() == Some(&b'\n');
        if complete {
            buf.pop();
        }
        let line = parse_line(&buf);
        if !matches!(line, Line::Blank) && std::mem::take(&mut bad_pending) {
            lines.skipped += 1;
        }
        match line {
            Line::Blank => {}
            Line::Record(record) => lines.records.push(*record),
            Line::Newer => lines.newer += 1,
            Line::Bad => bad_pending = true,
            // Cut short: torn, and so ignored, whatever it holds.
            Line::NotText if !complete => {}
            Line::NotText => return Err(Unreadable::NotText(number)),
        }
    }
    Ok(lines)
}

/// The history of entry `id` (titled `title`) as read from `storage`, with a notice for the
/// player if some of it could not be read: lines skipped, or the whole file moved aside
/// (then the history is empty, and the next game starts a new file).
pub fn read(storage: &Storage, id: &str, title: &str) -> (Vec<Record>, Option<String>) {
    if storage.unusable_reason().is_some() {
        return (Vec::new(), None);
    }
    let name = history_file_name(id);
    let what = format!("The history of {title} ({name})");
    let quarantine = |reason: String| {
        let outcome = storage.quarantine::<()>(&name, reason);
        (Vec::new(), notice(&what, &outcome))
    };
    // Never blocks: a named pipe there is refused, and never written to.
    let file = match storage.open_to_read(&name) {
        Ok(Some(file)) => file,
        Ok(None) => return (Vec::new(), None),
        Err(refused) => return (Vec::new(), notice(&what, &refused)),
    };
    let len = match file.metadata() {
        Ok(m) if m.is_dir() => return quarantine("it is a folder, not a file".to_string()),
        Ok(m) => m.len(),
        Err(e) => return quarantine(e.to_string()),
    };
    if len > MAX_HISTORY_BYTES {
        return quarantine(format!(
            "it is {} MB, larger than the {} MB a history can be, so it was not read",
            len / (1024 * 1024),
            MAX_HISTORY_BYTES / (1024 * 1024)
        ));
    }
    match read_lines(BufReader::new(file.take(MAX_HISTORY_BYTES))) {
        Ok(lines) => {
            let notice = (lines.skipped > 0).then(|| {
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
            (lines.records, notice)
        }
        Err(e) => quarantine(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

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

    #[test]
    fn records_of_a_newer_format_are_not_shown() {
        let a = record(1, 3);
        let mut newer = serde_json::to_value(&a).unwrap();
        newer["format"] = 2.into();
        let text = format!("{newer}\n{}\n", line_of(&a));
        let lines = read_lines(text.as_bytes()).unwrap();
        assert_eq!((lines.records, lines.skipped, lines.newer), (vec![a], 0, 1));
    }

    #[test]
    fn bytes_that_are_not_text_make_the_file_unreadable() {
        let a = record(1, 3);
        let mut bytes = line_of(&a).into_bytes();
        bytes.extend_from_slice(b"\n\xff\xfe garbage\n");
        bytes.extend_from_slice(line_of(&a).as_bytes());
        bytes.push(b'\n');
        assert!(matches!(
            read_lines(bytes.as_slice()),
            Err(Unreadable::NotText(2))
        ));
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
        let session = registry.get("2048").unwrap().load(&r.saved_game()).unwrap();
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
        kept.arrive(vec![a.clone(), b.clone()]);
        let HistoryView::Ready(records) = kept.view() else {
            panic!("not ready")
        };
        assert_eq!(records, [a.clone(), b.clone(), c.clone()]);
        let d = record(4, 2);
        kept.push(d.clone());
        let HistoryView::Ready(records) = kept.view() else {
            panic!("not ready")
        };
        assert_eq!(records, [a, b, c, d]);
    }
}
