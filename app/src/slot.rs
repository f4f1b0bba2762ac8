//! A game of the registry as the app holds it ([`GameSlot`]): its entry, the game in progress,
//! what the score table knows of it, its view and its history. The shell owns the slots; the
//! screens are given the slot they show, and the store writes what a slot holds.

use tilebox_core::date::Date;
use tilebox_core::{DynSession, Entry};

use crate::store::Store;
use crate::store::history::Kept;
use crate::store::history::Record;
use crate::store::saves;
use crate::store::tally::Tally;
use crate::views::{self, GameView};

/// What a game a newer Tilebox saved says when it is asked to move.
pub(crate) const NEWER_SAVE: &str =
    "A newer Tilebox saved this game: it can be looked at here, not played.";

/// One registered entry and everything the app holds for it.
pub(crate) struct GameSlot {
    /// The entry: how to make and load its sessions, its help, colours and assistant.
    pub entry: Entry,
    /// The game being played, made when the game is first opened.
    pub session: Option<Box<dyn DynSession>>,
    /// What the score table has been told of this game.
    pub tally: Tally,
    /// The "start a new game?" question is open.
    pub confirm_new: bool,
    /// The "How to play" panel is open.
    pub show_help: bool,
    /// How many times "How to play" was shown: each showing opens at its top.
    pub help_shown: u32,
    /// The view of the entry's kind, with its own state (animations, selection, drag).
    pub view: Box<dyn GameView>,
    /// The rising "+N" of the score: (start time, points).
    pub score_pop: Option<(f64, u64)>,
    /// A short message under the board (refused input, a write that failed).
    pub message: Option<String>,
    /// Autoplay is on.
    pub autoplay: bool,
    /// The fields of the save file this build does not know, kept on every rewrite.
    pub save_unknown: serde_json::Map<String, serde_json::Value>,
    /// A newer Tilebox wrote the save: the game is shown, not played, and its file not written.
    pub newer_save: bool,
    /// The date whose daily game is on the board; `None` for any other game.
    pub daily: Option<Date>,
    /// How long the game's board has been on screen while the game was not over, in
    /// milliseconds (kept in the save, for its record in the history).
    pub duration_ms: u64,
    /// The entry's history: the games read from its file, and those recorded this run.
    pub history: Kept,
    /// The state of the sample game its launcher card shows when none is in progress, made the
    /// first time it is shown (a catalogue's page shows dozens).
    pub sample: std::sync::OnceLock<Option<serde_json::Value>>,
}

impl GameSlot {
    /// The slot of `entry`, with its resumed game and tally if there is one.
    #[cfg(test)]
    pub(crate) fn new(entry: Entry, resumed: Option<(Box<dyn DynSession>, Tally)>) -> Self {
        Self::resumed(
            entry,
            resumed.map(|(session, tally)| saves::Resumed {
                session,
                tally,
                daily: None,
                duration_ms: 0,
                unknown: serde_json::Map::new(),
                newer: false,
            }),
        )
    }

    /// The slot of `entry`, with the game read from its save if there is one.
    pub(crate) fn resumed(entry: Entry, resumed: Option<saves::Resumed>) -> Self {
        let (session, tally, daily, duration_ms, save_unknown, newer_save) = match resumed {
            Some(r) => (
                Some(r.session),
                Some(r.tally),
                r.daily,
                r.duration_ms,
                r.unknown,
                r.newer,
            ),
            None => (None, None, None, 0, serde_json::Map::new(), false),
        };
        let view = views::for_entry(&entry);
        let mut slot = Self {
            entry,
            session,
            tally: Tally::default(),
            confirm_new: false,
            show_help: false,
            help_shown: 0,
            view,
            score_pop: None,
            message: None,
            autoplay: false,
            save_unknown,
            newer_save,
            daily,
            duration_ms,
            history: Kept::default(),
            sample: std::sync::OnceLock::new(),
        };
        slot.reset_for_session(tally.unwrap_or_default());
        slot
    }

    /// The state of the entry's sample game, the one of `seed` (made once).
    pub(crate) fn sample(&self, seed: u64) -> Option<&serde_json::Value> {
        self.sample
            .get_or_init(|| self.entry.new_session(seed).ok().map(|s| s.state_json()))
            .as_ref()
    }

    /// The entry's id.
    pub(crate) fn id(&self) -> &str {
        self.entry.id()
    }

    /// Whether a move was made in the game on the board: played, or taken back and not yet
    /// redone.
    pub(crate) fn moved(&self) -> bool {
        self.session
            .as_deref()
            .is_some_and(|s| s.move_count() > 0 || s.can_redo())
    }

    /// Whether the slot has a game in progress that a new one would end: a move made, and the
    /// game not over.
    pub(crate) fn in_progress(&self) -> bool {
        self.moved() && self.session.as_deref().is_some_and(|s| !s.status().over)
    }

    /// Queues a write of the game in progress, with its tally, through `store`. A game a newer
    /// Tilebox saved is not written.
    pub(crate) fn save(&self, store: &mut Store) {
        let Some(session) = self.session.as_deref() else {
            return;
        };
        if self.newer_save {
            return;
        }
        let save = saves::save_of(
            session,
            self.tally,
            self.daily,
            self.duration_ms,
            self.save_unknown.clone(),
        );
        store.write_save(self.id(), self.entry.title(), save);
    }

    /// Brings `store`'s score table up to date with the game: a new best is written at once.
    /// Returns whether the game is over.
    pub(crate) fn count(&mut self, store: &mut Store) -> bool {
        let Some(session) = self.session.as_deref() else {
            return false;
        };
        let lower = self.entry.lower_is_better();
        let moved = session.move_count() > 0 || session.can_redo();
        let stats = store.scores.entry(self.entry.id());
        if self
            .tally
            .record(session.status(), session.score(), moved, lower, stats)
        {
            store.write_scores(self.entry.id());
        }
        session.status().over
    }

    /// The game is being replaced: it counts as played if `moved`.
    pub(crate) fn abandon(&mut self, store: &mut Store, moved: bool) {
        if self.session.is_some()
            && self
                .tally
                .abandon(moved, store.scores.entry(self.entry.id()))
        {
            store.write_scores(self.entry.id());
        }
    }

    /// Records the game as it stands in its history, unless it is there already: the
    /// record is kept for this run and its line queued for the file, then the game's save,
    /// which says it is recorded (so a start that finds a finished game not yet recorded, after
    /// a kill between the two writes, records it once and not at every start).
    pub(crate) fn record(&mut self, store: &mut Store) {
        let Some(session) = self.session.as_deref() else {
            return;
        };
        if self.newer_save || !self.tally.mark_recorded() {
            return;
        }
        let now = crate::store::clock::unix_seconds();
        let record = Record::of(
            self.entry.id(),
            session,
            &self.tally,
            self.daily,
            self.duration_ms,
            tilebox_core::date::rfc3339(now),
        );
        match record.line() {
            Ok(line) => {
                store.append_history(self.entry.id(), self.entry.title(), line);
            }
            Err(e) => self.message = Some(format!("The game could not be recorded: {e}")),
        }
        self.history.push(record);
        self.save(store);
    }

    /// Marks a fresh or just loaded session, with what the score table knows of it.
    pub(crate) fn reset_for_session(&mut self, tally: Tally) {
        self.tally = tally;
        self.confirm_new = false;
        self.score_pop = None;
        self.message = None;
        self.autoplay = false;
        self.view.reset();
    }
}

/// A game to start in a slot: a new game, a code's, or a daily game.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Start {
    /// The slot.
    pub index: usize,
    /// The seed.
    pub seed: u64,
    /// The date whose daily game it is, if it is one.
    pub daily: Option<Date>,
}

/// A group of games as the launcher lists it: its title and the indices of its entries' slots.
pub(crate) type Group = (String, Vec<usize>);

/// The registry's groups ([`tilebox_core::Registry::groups`]), each entry given as the index of
/// its slot in `slots`, found by id: the launcher's cards open slots, and a game added while the
/// app runs (a code's game) is an entry whose slot comes after those of the combinations, so
/// that its index in the registry is not its slot's.
pub(crate) fn groups(registry: &tilebox_core::Registry, slots: &[GameSlot]) -> Vec<Group> {
    let slot_of: std::collections::HashMap<&str, usize> = slots
        .iter()
        .enumerate()
        .map(|(i, slot)| (slot.id(), i))
        .collect();
    let entries = registry.entries();
    registry
        .groups()
        .into_iter()
        .map(|(title, members)| {
            let slots = members
                .iter()
                .filter_map(|&e| slot_of.get(entries.get(e)?.id()).copied())
                .collect();
            (title.to_string(), slots)
        })
        .collect()
}
