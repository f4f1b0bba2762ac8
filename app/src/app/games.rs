//! The games in their slots: the one path of every move, a game started (new, a code's, the
//! daily game) after the new-game question where one is in progress, the score table and the
//! history kept up to date, the saves queued, a game's time counted, and the histories taken as
//! they arrive.

use tilebox_core::date::Date;

use crate::screens::dialogs::Dialog;
use crate::screens::game::GameScreen;
use crate::slot::{GameSlot, NEWER_SAVE, Start};
use crate::store::history::Loaded;

use super::{Current, TileboxApp};

/// The most of a gap between two frames that counts in a game's time, in seconds.
const THINKING_CAP: f64 = 60.0;

impl TileboxApp {
    pub(super) fn index_of(&self, id: &str) -> Option<usize> {
        self.slots.iter().position(|s| s.id() == id)
    }

    pub(super) fn slot_by_id(&self, id: &str) -> Option<&GameSlot> {
        self.slots.iter().find(|s| s.id() == id)
    }

    /// Plays `mv`, a move in its text form, in game `index`: the one path every move of every
    /// game takes, the player's and autoplay's. A move that changes nothing is no move; a
    /// refused one is told under the board. A move played is animated by the view, counted in
    /// the score table ("+N", the best, played and won) and saved.
    pub(super) fn play(&mut self, index: usize, mv: &str, now: f64) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref_mut() else {
            return;
        };
        if crate::screens::chrome::win_waits(session, slot.tally) {
            // Moves wait under the win, as in the original 2048.
            return;
        }
        if slot.newer_save {
            slot.message = Some(NEWER_SAVE.to_string());
            return;
        }
        let before = session.score();
        match session.play_text(mv) {
            Ok(0) => {}
            Ok(_) => {
                // Points gained, or, where lower is better, points taken off.
                let after = session.score();
                let gained = if session.lower_is_better() {
                    before.saturating_sub(after)
                } else {
                    after.saturating_sub(before)
                };
                slot.view.played(session, now);
                slot.message = None;
                self.moves_played += 1;
                slot.score_pop = (gained > 0).then_some((now, gained));
                self.record_status(index);
                self.played.insert(index);
            }
            // After the end, the end's message already says so: a move is not refused twice.
            Err(_) if session.status().over => {}
            Err(e) => slot.message = Some(e.kind.to_string()),
        }
    }

    /// New game: at once when nothing would be lost, else after the player says yes. A game
    /// with a move played, or taken back and not yet redone, is in progress until it ends.
    pub(super) fn ask_new_game(&mut self, index: usize) {
        if self.slots.get(index).is_some_and(GameSlot::in_progress) {
            self.ask(index, None);
        } else {
            self.new_game(index);
        }
    }

    /// Starts `start` (a code's game, or a daily game), as New game does: at once when nothing
    /// would be lost, else after the player says yes to the new-game question.
    pub(super) fn ask_start(&mut self, start: Start) {
        let Some(slot) = self.slots.get_mut(start.index) else {
            return;
        };
        if slot.newer_save {
            slot.message = Some(NEWER_SAVE.to_string());
            return;
        }
        if slot.in_progress() {
            self.ask(start.index, Some(start));
        } else {
            self.start(start);
        }
    }

    /// Opens the new-game question over game `index`, which starts `start` (or a new game) on
    /// yes.
    pub(super) fn ask(&mut self, index: usize, start: Option<Start>) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        // Autoplay waits while the question is open.
        slot.confirm_new = true;
        let score = slot.session.as_deref().map_or(0, |s| s.score());
        self.dialog = Some(Dialog::NewGame {
            index,
            start,
            score,
            listening: false,
        });
    }

    /// The player answered the new-game question: yes starts its game.
    pub(super) fn answer_new_game(&mut self, yes: bool) {
        let Some(Dialog::NewGame { index, start, .. }) = self.dialog.take() else {
            return;
        };
        if let Some(slot) = self.slots.get_mut(index) {
            slot.confirm_new = false;
        }
        match (yes, start) {
            (true, Some(start)) => self.start(start),
            (true, None) => self.new_game(index),
            (false, _) => {}
        }
    }

    /// Starts `start` at once.
    pub(super) fn start(&mut self, start: Start) {
        self.start_game(start.index, start.seed, start.daily);
    }

    /// Starts a new game of game `index` from a fresh seed ([`fresh_seed`]).
    pub(super) fn new_game(&mut self, index: usize) {
        self.start_game(index, fresh_seed(), None);
    }

    /// Starts the game of game `index` from `seed`, the daily game of `daily` if given: the one
    /// path by which a slot gets a fresh game (a new game, a game code, the daily game, the
    /// first game of an entry opened). The game it replaces counts as played, and goes into the
    /// history (unless it is there already), if a move was made in it. A game that cannot start
    /// says why under the board (and the old one stays).
    pub(crate) fn start_game(&mut self, index: usize, seed: u64, daily: Option<Date>) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let moved = slot.moved();
        if moved {
            slot.record(&mut self.store);
        }
        slot.abandon(&mut self.store, moved);
        let started = match slot.session.as_deref_mut() {
            Some(session) => session.restart(seed),
            None => slot.entry.new_session(seed).map(|s| {
                slot.session = Some(s);
            }),
        };
        if let Err(e) = started {
            slot.message = Some(format!("A new game cannot start: {e}"));
            // The old game stays, counted and recorded: its save says so.
            slot.save(&mut self.store);
            return;
        }
        slot.daily = daily;
        slot.duration_ms = 0;
        // A game already in the history (a daily game again, a code of a game played before)
        // is played knowing its tiles to come: it counts as assisted, so that no best, win or
        // daily best comes from foresight.
        // (Started while the history is read, it is known as such once it arrives.)
        let seen = slot.history.start(seed);
        let mut tally = crate::store::tally::Tally::default();
        if seen {
            tally.assist();
        }
        slot.reset_for_session(tally);
        slot.save(&mut self.store);
    }

    /// Brings the score table up to date with game `index`: a new best is written at once. A game
    /// that has ended goes into the history (once: see [`crate::store::tally::Tally::recorded`]).
    pub(super) fn record_status(&mut self, index: usize) {
        if let Some(slot) = self.slots.get_mut(index)
            && slot.count(&mut self.store)
        {
            slot.record(&mut self.store);
        }
    }

    /// Queues a write of the game in progress of game `index`, with its tally.
    pub(super) fn save_game(&mut self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            slot.save(&mut self.store);
        }
    }

    /// Saves each game with moves played in this frame, once: the save holds every move, so a
    /// frame in which autoplay plays fifty copies the game once, not fifty times.
    pub(super) fn save_played(&mut self) {
        for index in std::mem::take(&mut self.played) {
            self.save_game(index);
        }
    }

    /// Adds the time since the last frame to the duration of the game shown, if it showed in
    /// that frame too and is not over. No frame is drawn while the player thinks, so a gap
    /// counts whole, up to [`THINKING_CAP`]: a longer one (the machine slept, the player went
    /// away) counts as that.
    pub(super) fn count_time(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        let Current::Game(GameScreen { index }) = self.current else {
            self.game_clock = None;
            return;
        };
        if let Some((shown, then)) = self.game_clock
            && shown == index
            && let Some(slot) = self.slots.get_mut(index)
            && slot.session.as_deref().is_some_and(|s| !s.status().over)
        {
            let seconds = (now - then).clamp(0.0, THINKING_CAP);
            // At most a minute: the cast cannot overflow.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let ms = (seconds * 1000.0).round() as u64;
            slot.duration_ms = slot.duration_ms.saturating_add(ms);
        }
        self.game_clock = Some((index, now));
    }

    pub(super) fn take_histories(&mut self, arrived: Vec<Loaded>) {
        for (id, records, notice) in arrived {
            if let Some(slot) = self.slots.iter_mut().find(|s| s.id() == id) {
                let held = slot.history.arrive(records);
                // The game in progress was started, while the history was read, from a seed
                // the history holds (a daily game again): it was played knowing its tiles, so
                // it is assisted, as it would have been had the history been read.
                let replayed = slot
                    .session
                    .as_deref()
                    .is_some_and(|s| held.contains(&s.seed()));
                if replayed && slot.tally.assist() {
                    slot.save(&mut self.store);
                }
            }
            if let Some(text) = notice {
                self.notify(text);
            }
        }
    }
}

/// The seed of a new game: random, below 2^40. Any seed plays, but a game code carries the seed
/// (with the entry), so 40 bits keep codes short to read out and type, while a trillion games
/// per entry are still more than anyone plays; a daily game's seed comes from its date instead.
fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 24
}
