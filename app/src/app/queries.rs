//! What the app answers about itself, and what it is told from outside: for `main`, the tests
//! and the tools. The window itself never waits on these.

use tilebox_core::{DynSession, Registry};

use crate::screens::Screen;
use crate::slot::GameSlot;
use crate::store::history::HistoryView;
use crate::store::scores::Scores;
use crate::store::settings::ThemeChoice;
use crate::work::trainer::{NetworkSize, Standing};

use super::{Current, TileboxApp};

impl TileboxApp {
    /// Logs each frame's cost to stderr ([`crate::work::frame_times`]), where `log` is given.
    pub fn log_frame_times(&mut self, log: Option<crate::work::frame_times::FrameTimes>) {
        self.frame_times = log;
    }

    /// Adds a message for the player, shown in the launcher (once, however often it is said).
    pub fn notify(&mut self, text: impl Into<String>) {
        let text = text.into();
        if !self.notices.contains(&text) {
            self.notices.push(text);
        }
    }

    /// The screen shown now.
    pub fn screen(&self) -> Screen {
        self.current.id(&self.launcher)
    }

    /// The dialog open now, by name: `new-game`, `code`, `add-game`, `play-code` or `quit`.
    pub fn dialog_shown(&self) -> Option<&'static str> {
        match &self.dialog {
            Some(dialog) => Some(dialog.name()),
            None => self.quit_window.is_open().then_some("quit"),
        }
    }

    /// The id of the entry shown now, if any.
    pub fn current_game(&self) -> Option<&str> {
        match &self.current {
            Current::Game(s) => self.slots.get(s.index).map(GameSlot::id),
            Current::Launcher | Current::Stats(_) | Current::Replay(_) => None,
        }
    }

    /// The session of game `id`, if it has been opened or resumed.
    pub fn session(&self, id: &str) -> Option<&dyn DynSession> {
        self.slot_by_id(id).and_then(|s| s.session.as_deref())
    }

    /// The score table as the app holds it.
    pub fn scores(&self) -> &Scores {
        &self.store.scores
    }

    /// Messages for the player shown in the launcher (files moved aside, failed writes).
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// The message shown under the board of game `id`, if any.
    pub fn message(&self, id: &str) -> Option<&str> {
        self.slot_by_id(id).and_then(|s| s.message.as_deref())
    }

    /// Whether autoplay is on in game `id`.
    pub fn autoplay(&self, id: &str) -> bool {
        self.slot_by_id(id).is_some_and(|s| s.autoplay)
    }

    /// Whether game `id` is assisted: undo, a hint or autoplay was used in it.
    pub fn assisted(&self, id: &str) -> bool {
        self.slot_by_id(id).is_some_and(|s| s.tally.assisted)
    }

    /// Whether the AI is thinking about a hint or an autoplay move.
    pub fn thinking(&self) -> bool {
        self.assist.thinking()
    }

    /// How many of autoplay's moves the AI has played ahead and are not yet due.
    pub fn autoplay_ahead(&self) -> usize {
        self.assist.ahead()
    }

    /// Autoplay's speed, as picked in the bar's menu (kept in `settings.json`).
    pub fn autoplay_speed(&self) -> crate::store::settings::Speed {
        self.assist.speed
    }

    /// The theme choice.
    pub fn theme(&self) -> ThemeChoice {
        self.store.settings.theme
    }

    /// The player's zoom, 1 for none.
    pub fn zoom(&self) -> f32 {
        self.zoom.player
    }

    /// The games, as the launcher lists them.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Where the AI player of game `id` stands ([`Standing`]); `None` for a game whose player
    /// is not trained (not a 4×4 sliding game). Asks for its file to be read the first time.
    pub fn training(&mut self, id: &str) -> Option<Standing> {
        let variant = self
            .slot_by_id(id)
            .and_then(|s| crate::work::trainer::trainable(&s.entry))?
            .clone();
        Some(self.trainer.standing(&variant))
    }

    /// New training runs train a network of `size` (the standard one unless told: tests train
    /// the small one).
    pub fn set_training_network(&mut self, size: NetworkSize) {
        self.trainer.set_size(size);
    }

    /// A trained player plays hints and autoplay once it has learned from `moves` moves
    /// ([`crate::work::trainer::MOVES_A_RUN`] unless told: tests lower it).
    pub fn set_trained_from(&mut self, moves: u64) {
        self.trainer.set_plays_from(moves);
    }

    /// Lets the AI's players folder know of each save of a training run, so that hints use the
    /// network as it learns.
    pub fn share_players(&mut self, players: std::sync::Arc<tilebox_ai::ntuple::players::Players>) {
        self.trainer.share(players);
    }

    /// The history of entry `id`: every game of it that ended or was abandoned after a move,
    /// oldest first, with those recorded this run; [`HistoryView::Loading`] until its file has
    /// been read (off the window's thread). An unknown id has an empty history.
    pub fn history(&self, id: &str) -> HistoryView<'_> {
        self.slot_by_id(id)
            .map_or(HistoryView::empty(), |s| s.history.view())
    }

    /// Waits until every history has been read, or `bound` has passed; returns whether all
    /// were. For tests and tools: the window never calls it (it takes them as they arrive).
    pub fn wait_for_histories(&mut self, bound: std::time::Duration) -> bool {
        let arrived = self.store.wait_for_histories(bound);
        self.take_histories(arrived);
        self.store.histories_read()
    }

    /// The replay being watched, if the replay screen is shown: its session, and its position
    /// (moves replayed, moves in the game).
    pub fn replay(&self) -> Option<(&dyn DynSession, (usize, usize))> {
        match &self.current {
            Current::Replay(s) => Some((s.replay.session(), s.replay.position())),
            _ => None,
        }
    }

    /// Whether the replay shown is playing.
    pub fn replay_playing(&self) -> bool {
        matches!(&self.current, Current::Replay(s) if s.replay.playing())
    }

    /// Waits until the writes queued so far are on disk, or `bound` has passed; returns what
    /// was still not written. For quitting and for tests: the window never calls it.
    pub fn flush_writes(&self, bound: std::time::Duration) -> Vec<String> {
        self.store.flush(bound)
    }

    /// Whether writes are still waiting for the disk.
    pub fn writes_pending(&self) -> bool {
        self.store.in_flight()
    }
}
