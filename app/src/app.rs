//! The shell: screens, commands, the score table and the saves. Game rules stay in the game
//! crates; undo, redo and the save form come from [`DynSession`]. Each frame reads the keys,
//! draws the screen, then carries out what the player asked for.

use std::path::PathBuf;

use egui::RichText;
use serde::{Deserialize, Serialize};
use tilebox_core::date::Date;
use tilebox_core::{CodeError, DynSession, Entry, GameCode, ParamOption, Registry, daily_seed};

use crate::assist::Assist;
use crate::chrome::{self, EndChoice, TopBar};
use crate::codes;
use crate::history::{HistoryView, Kept, Loading, Record, history_file_name};
use crate::input::{self, Command};
use crate::launcher;
use crate::saves;
use crate::scores::SCORES_FILE;
use crate::scores::Scores;
use crate::storage::{Layout, ReadOutcome, Storage, encode, notice};
use crate::tally::Tally;
use crate::theme::ThemeChoice;
use crate::views::{self, GameView};
use crate::writer::Writer;

/// The settings file (theme choice).
pub const SETTINGS_FILE: &str = "settings.json";

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The list of games: one card per group of entries ([`Registry::groups`]).
    Launcher,
    /// The entries of the group at this index of [`Registry::groups`] (2048's board sizes).
    Group(usize),
    /// The entry at this index of the registry.
    Game(usize),
    /// The statistics of the entry at this index ([`crate::stats_view`]).
    Stats(usize),
    /// A game of the entry at this index replayed ([`crate::replay`]).
    Replay(usize),
}

/// What `settings.json` holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Settings {
    version: u32,
    #[serde(default)]
    theme: ThemeChoice,
    /// The player's zoom, in percent (Ctrl+= / Ctrl+- / Ctrl+0).
    #[serde(default = "hundred")]
    zoom: u32,
    /// Autoplay's speed (files written before it was kept read as the default, Normal).
    #[serde(default)]
    speed: crate::advisor::Speed,
    /// Fields a newer Tilebox wrote that this build does not know: kept on every rewrite.
    #[serde(flatten)]
    unknown: serde_json::Map<String, serde_json::Value>,
}

/// What a game a newer Tilebox saved says when it is asked to move.
const NEWER_SAVE: &str = "A newer Tilebox saved this game: it can be looked at here, not played.";

/// The version of `settings.json` this build reads and writes.
const SETTINGS_VERSION: u32 = 1;

/// How long quitting waits for the writes still pending before it says what was not saved.
pub const QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

fn hundred() -> u32 {
    100
}

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
            view,
            score_pop: None,
            message: None,
            autoplay: false,
            save_unknown,
            newer_save,
            daily,
            duration_ms,
            history: Kept::default(),
        };
        slot.reset_for_session(tally.unwrap_or_default());
        slot
    }

    fn id(&self) -> &str {
        self.entry.id()
    }

    /// Marks a fresh or just loaded session, with what the score table knows of it.
    fn reset_for_session(&mut self, tally: Tally) {
        self.tally = tally;
        self.confirm_new = false;
        self.score_pop = None;
        self.message = None;
        self.autoplay = false;
        self.view.reset();
    }
}

/// The Tilebox app: the launcher and every game of the registry.
pub struct TileboxApp {
    registry: Registry,
    /// Every write goes through it, off the UI thread.
    writer: Writer,
    scores: Scores,
    /// The fields of `settings.json` this build does not know, kept on every rewrite.
    settings_unknown: serde_json::Map<String, serde_json::Value>,
    /// Quitting was asked for while writes were pending: since when (the frame's time).
    quitting: Option<f64>,
    /// The registry's entries, in its order, then the combinations of options
    /// ([`Registry::combinations`]), which the launcher offers through its menu of options.
    slots: Vec<GameSlot>,
    screen: Screen,
    notices: Vec<String>,
    theme: ThemeChoice,
    theme_applied: Option<ThemeChoice>,
    /// The player's zoom on top of the window's.
    zoom: crate::theme::Zoom,
    assist: Assist,
    /// The choices picked in the launcher's menu of options, per group.
    option_picks: std::collections::HashMap<usize, Vec<usize>>,
    /// The histories being read at start-up, until every one has arrived.
    histories: Option<Loading>,
    /// The game whose board the last frame showed, and that frame's time: the time between
    /// frames is added to the game's duration.
    game_clock: Option<(usize, f64)>,
    /// Where Back leads from the statistics screen: the screen it was opened from.
    stats_back: Screen,
    /// The game being replayed, on [`Screen::Replay`].
    replay: Option<crate::replay::Replay>,
    /// The statistics last shown, kept until their history grows.
    stats_memo: crate::stats_view::Memo,
    /// The dialog of codes open: a game's code, or "Play a code".
    codes: codes::Dialog,
    /// The game to start once the player says yes to the new-game question: a code's, or the
    /// daily game (`None`: a new game).
    pending: Option<Start>,
}

/// A game to start in a slot ([`TileboxApp::start_game`]).
#[derive(Debug, Clone, PartialEq)]
struct Start {
    /// The slot.
    index: usize,
    /// The seed.
    seed: u64,
    /// The date whose daily game it is, if it is one.
    daily: Option<Date>,
}

impl TileboxApp {
    /// The app over the games of [`tilebox_games::registry`] and the player's variant files of
    /// `data_dir` (`variants/`, each file refused a notice: [`crate::variants`]), keeping its
    /// files in `data_dir`, opening game `start_game` directly if given (an unknown id opens the
    /// launcher).
    pub fn new(data_dir: impl Into<PathBuf>, start_game: Option<&str>) -> Self {
        Self::with_player_variants(data_dir, start_game)
    }

    /// The app over the games of `registry`, keeping its files in `data_dir` (written by a
    /// writer thread of its own).
    pub fn with_registry(
        registry: Registry,
        data_dir: impl Into<PathBuf>,
        start_game: Option<&str>,
    ) -> Self {
        Self::with_writer(registry, Writer::start(Storage::new(data_dir)), start_game)
    }

    /// The app over the games of `registry`, writing through `writer`. Files are read here, at
    /// start-up; temporary files a crash left are removed first. The caller holds the data
    /// directory's lock ([`crate::lock`]), or gives a storage that writes nothing.
    pub fn with_writer(registry: Registry, writer: Writer, start_game: Option<&str>) -> Self {
        let storage = writer.storage().clone();
        let mut notices = Vec::new();
        // A data directory that cannot be used is one notice, not one per file.
        notices.extend(storage.unusable_reason().map(str::to_string));
        storage.sweep_debris();
        let (scores, scores_notice) = Scores::load(&storage);
        notices.extend(scores_notice);

        let settings_outcome: ReadOutcome<Settings> =
            storage.read_json(SETTINGS_FILE, "version", u64::from(SETTINGS_VERSION));
        notices.extend(notice("The settings (settings.json)", &settings_outcome));
        let settings = match settings_outcome {
            ReadOutcome::Loaded(s) | ReadOutcome::Newer { value: Some(s), .. } => Some(s),
            _ => None,
        };
        let (theme, zoom, speed, settings_unknown) = match settings {
            Some(s) => (
                s.theme,
                crate::theme::Zoom::from_percent(s.zoom),
                s.speed,
                s.unknown,
            ),
            None => (
                ThemeChoice::System,
                crate::theme::Zoom::default(),
                crate::advisor::Speed::default(),
                serde_json::Map::new(),
            ),
        };

        let slots: Vec<GameSlot> = registry
            .entries()
            .iter()
            .cloned()
            .chain(registry.combinations())
            .map(|entry| {
                let resumed = saves::read(&storage, &entry, &mut notices);
                GameSlot::resumed(entry, resumed)
            })
            .collect();

        let histories = Loading::start(
            storage.clone(),
            slots.iter().map(|s: &GameSlot| s.entry.clone()).collect(),
        );
        let mut assist = Assist::default();
        assist.speed = speed;
        let mut app = Self {
            registry,
            writer,
            scores,
            settings_unknown,
            quitting: None,
            slots,
            screen: Screen::Launcher,
            notices,
            theme,
            theme_applied: None,
            zoom,
            assist,
            option_picks: std::collections::HashMap::new(),
            histories: Some(histories),
            game_clock: None,
            stats_back: Screen::Launcher,
            replay: None,
            stats_memo: crate::stats_view::Memo::default(),
            codes: codes::Dialog::Closed,
            pending: None,
        };
        // A resumed game's score counts for the best even if the score file was lost.
        for index in 0..app.slots.len() {
            app.record_status(index);
        }
        if let Some(index) = start_game.and_then(|id| app.index_of(id)) {
            app.open(index);
        }
        app
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
        self.screen
    }

    /// The id of the entry shown now, if any.
    pub fn current_game(&self) -> Option<&str> {
        match self.screen {
            Screen::Game(i) => self.slots.get(i).map(GameSlot::id),
            Screen::Launcher | Screen::Group(_) | Screen::Stats(_) | Screen::Replay(_) => None,
        }
    }

    /// The session of game `id`, if it has been opened or resumed.
    pub fn session(&self, id: &str) -> Option<&dyn DynSession> {
        self.slot_by_id(id).and_then(|s| s.session.as_deref())
    }

    /// The score table as the app holds it.
    pub fn scores(&self) -> &Scores {
        &self.scores
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
    pub fn autoplay_speed(&self) -> crate::advisor::Speed {
        self.assist.speed
    }

    /// The theme choice.
    pub fn theme(&self) -> ThemeChoice {
        self.theme
    }

    /// The games, as the launcher lists them.
    pub fn registry(&self) -> &Registry {
        &self.registry
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
        let arrived = self
            .histories
            .as_mut()
            .map(|loading| loading.wait(bound))
            .unwrap_or_default();
        self.take_histories(arrived);
        self.histories.is_none()
    }

    /// Takes the histories that have arrived from the reading thread.
    fn receive_histories(&mut self) {
        let arrived = self
            .histories
            .as_mut()
            .map(Loading::arrived)
            .unwrap_or_default();
        self.take_histories(arrived);
    }

    fn take_histories(&mut self, arrived: Vec<crate::history::Loaded>) {
        for (id, records, notice) in arrived {
            if let Some(slot) = self.slots.iter_mut().find(|s| s.id() == id) {
                slot.history.arrive(records);
            }
            if let Some(text) = notice {
                self.notify(text);
            }
        }
        if self.histories.as_ref().is_some_and(Loading::done) {
            self.histories = None;
        }
    }

    fn index_of(&self, id: &str) -> Option<usize> {
        self.slots.iter().position(|s| s.id() == id)
    }

    fn slot_by_id(&self, id: &str) -> Option<&GameSlot> {
        self.slots.iter().find(|s| s.id() == id)
    }

    /// Opens game `index`, starting a game if none is in progress.
    fn open(&mut self, index: usize) {
        let Some(slot) = self.slots.get(index) else {
            return;
        };
        if slot.session.is_none() {
            self.start_game(index, fresh_seed(), None);
            let Some(slot) = self.slots.get_mut(index) else {
                return;
            };
            if slot.session.is_none() {
                let text = format!(
                    "{}: {}",
                    slot.entry.title(),
                    slot.message.take().unwrap_or_default()
                );
                self.notify(text);
                return;
            }
        }
        self.screen = Screen::Game(index);
    }

    /// Draws the whole app into `ui` and handles its input. `eframe::App::ui` calls this.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.writer.set_waker(ui.ctx());
        if let Some(loading) = &self.histories {
            loading.set_waker(ui.ctx());
        }
        self.receive_histories();
        self.count_time(ui.ctx());
        self.report_failures();
        self.handle_quit(ui);
        if self.theme_applied != Some(self.theme) {
            crate::theme::install(ui.ctx());
            ui.ctx().set_theme(self.theme.preference());
            self.theme_applied = Some(self.theme);
        }
        if self.zoom.frame(ui.ctx()) {
            self.write_settings();
        }
        if matches!(self.screen, Screen::Game(_) | Screen::Replay(_)) {
            keep_focus_off_arrows(ui.ctx());
        }
        match self.screen {
            Screen::Launcher => self.show_launcher(ui, None),
            Screen::Group(group) => self.show_launcher(ui, Some(group)),
            Screen::Game(index) => self.show_game(ui, index),
            Screen::Stats(index) => self.show_stats(ui, index),
            Screen::Replay(index) => self.show_replay(ui, index),
        }
    }

    /// Adds the time since the last frame to the duration of the game shown, if it showed in
    /// that frame too and is not over. A gap over a second (the machine slept, the window was
    /// hidden) counts as a second.
    fn count_time(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        let Screen::Game(index) = self.screen else {
            self.game_clock = None;
            return;
        };
        if let Some((shown, then)) = self.game_clock
            && shown == index
            && let Some(slot) = self.slots.get_mut(index)
            && slot.session.as_deref().is_some_and(|s| !s.status().over)
        {
            let seconds = (now - then).clamp(0.0, 1.0);
            // At most 1000 ms: the cast cannot overflow.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let ms = (seconds * 1000.0).round() as u64;
            slot.duration_ms = slot.duration_ms.saturating_add(ms);
        }
        self.game_clock = Some((index, now));
    }

    /// Opens the statistics of game `index`; Back returns to the screen shown now.
    fn open_stats(&mut self, index: usize) {
        if index < self.slots.len() {
            self.stats_back = self.screen;
            self.screen = Screen::Stats(index);
        }
    }

    /// The statistics screen of game `index`.
    fn show_stats(&mut self, ui: &mut egui::Ui, index: usize) {
        let Some(slot) = self.slots.get(index) else {
            self.screen = Screen::Launcher;
            return;
        };
        let entry = slot.entry.clone();
        // The slot's own history (what `history` gives), borrowed apart from the memo.
        let history = slot.history.view();
        let (action, record) =
            match crate::stats_view::show(ui, &entry, history, &mut self.stats_memo) {
                crate::stats_view::Action::Replay(i) => {
                    let record = match history {
                        crate::history::HistoryView::Ready(records) => records.get(i).cloned(),
                        crate::history::HistoryView::Loading => None,
                    };
                    (Some(i), record)
                }
                crate::stats_view::Action::Back => {
                    self.screen = self.stats_back;
                    return;
                }
                crate::stats_view::Action::None => (None, None),
            };
        if let (Some(i), Some(record)) = (action, record) {
            let title = format!(
                "Replay: {}, game {} (score {})",
                entry.title(),
                i + 1,
                record.score
            );
            self.start_replay(index, &record.saved_game(&entry), title);
        }
    }

    /// Replays `saved`, a game of game `index`, from its start; Back returns to the screen
    /// shown now.
    fn start_replay(&mut self, index: usize, saved: &tilebox_core::SavedGame, title: String) {
        let Some(slot) = self.slots.get(index) else {
            return;
        };
        match crate::replay::Replay::new(&slot.entry, saved, title, self.screen) {
            Ok(replay) => {
                self.replay = Some(replay);
                self.screen = Screen::Replay(index);
            }
            Err(text) => self.notify(text),
        }
    }

    /// The replay screen.
    fn show_replay(&mut self, ui: &mut egui::Ui, index: usize) {
        let Some(replay) = self.replay.as_mut() else {
            self.screen = Screen::Game(index);
            return;
        };
        if replay.show(ui) {
            self.screen = replay.back;
            self.replay = None;
        }
    }

    /// The replay being watched, if the replay screen is shown: its session, and its position
    /// (moves replayed, moves in the game).
    pub fn replay(&self) -> Option<(&dyn DynSession, (usize, usize))> {
        self.replay
            .as_ref()
            .filter(|_| matches!(self.screen, Screen::Replay(_)))
            .map(|r| (r.session(), r.position()))
    }

    /// Whether the replay shown is playing.
    pub fn replay_playing(&self) -> bool {
        self.replay
            .as_ref()
            .is_some_and(crate::replay::Replay::playing)
    }

    /// The launcher: the groups of entries, or the entries of one group.
    fn show_launcher(&mut self, ui: &mut egui::Ui, group: Option<usize>) {
        let groups = self.registry.groups();
        // What the cards shown lead to: a group (of several entries) or an entry.
        let cards: Vec<launcher::Card> = match group {
            None => groups
                .iter()
                .enumerate()
                .map(|(g, (_, members))| match members.as_slice() {
                    [only] => launcher::Card::Entry(*only),
                    _ => launcher::Card::Group(g),
                })
                .collect(),
            Some(g) => groups
                .get(g)
                .map(|(_, members)| members.iter().map(|&i| launcher::Card::Entry(i)).collect())
                .unwrap_or_default(),
        };
        let title = group
            .and_then(|g| groups.get(g))
            .map(|(t, _)| t.to_string());
        // A group whose kind has options offers them too (Strike 9's box, dice and scoring).
        let options = group
            .and_then(|g| groups.get(g))
            .and_then(|(_, members)| members.first())
            .and_then(|&i| self.slots.get(i))
            .map(|slot| slot.entry.options())
            .unwrap_or_default();
        drop(groups);
        let picks = match group {
            Some(g) if !options.is_empty() => self
                .option_picks
                .entry(g)
                .or_insert_with(|| vec![0; options.len()])
                .clone(),
            _ => Vec::new(),
        };
        let picked_game = title
            .as_deref()
            .and_then(|t| self.slot_of_options(t, &options, &picks));

        let mut chosen = None;
        let mut toggle_theme = false;
        let mut back = false;
        let mut play_code = false;
        // While "Play a code" is open, keys are its field's.
        let keys = if matches!(self.codes, codes::Dialog::Play { .. }) {
            Vec::new()
        } else {
            input::read_keys(ui.ctx())
        };
        for k in keys {
            if k.repeat || k.has_command_modifier() {
                continue;
            }
            play_code |= k.key == egui::Key::C;
            if let Some(d) = input::digit_of(k.key)
                && let Some(card) = cards.get(usize::from(d) - 1)
            {
                chosen = Some(*card);
            }
            toggle_theme |= k.key == egui::Key::T;
            back |= k.key == egui::Key::Escape;
        }
        let screen = launcher::Screen {
            title: title.as_deref(),
            cards: &cards,
            registry: &self.registry,
            slots: &self.slots,
            scores: &self.scores,
            theme: self.theme,
            options: (!options.is_empty()).then_some(launcher::Options {
                options: &options,
                picks: &picks,
                game: picked_game,
            }),
        };
        match launcher::show(ui, &screen, &mut self.notices) {
            launcher::Action::Choose(card) => chosen = Some(card),
            launcher::Action::ToggleTheme => toggle_theme = true,
            launcher::Action::Back => back = true,
            launcher::Action::Stats(i) => {
                self.open_stats(i);
                return;
            }
            launcher::Action::PlayCode => play_code = true,
            launcher::Action::Pick { option, choice } => {
                if let Some(picks) = group.and_then(|g| self.option_picks.get_mut(&g))
                    && let Some(pick) = picks.get_mut(option)
                {
                    *pick = choice;
                }
            }
            launcher::Action::None => {}
        }
        if toggle_theme {
            self.toggle_theme();
        }
        match chosen {
            Some(launcher::Card::Entry(i)) => self.open(i),
            Some(launcher::Card::Group(g)) => self.screen = Screen::Group(g),
            None if back && group.is_some() => self.screen = Screen::Launcher,
            None => {}
        }
        if play_code && self.codes == codes::Dialog::Closed {
            self.codes = codes::Dialog::Play {
                text: String::new(),
                refused: None,
            };
        }
        self.show_play_code(ui.ctx());
    }

    /// The "Play a code" dialog, if it is open: a code played opens its game at its start
    /// (asking first if a game of it is in progress); a code refused says why in the dialog.
    fn show_play_code(&mut self, ctx: &egui::Context) {
        let codes::Dialog::Play { text, refused } = &mut self.codes else {
            return;
        };
        let before = text.clone();
        let answer = codes::play_code(ctx, text, refused.as_deref());
        if *text != before {
            *refused = None;
        }
        let typed = text.clone();
        match answer {
            Some(codes::PlayAnswer::Play) => match self.play_code(&typed) {
                Ok(()) => {
                    self.codes = codes::Dialog::Closed;
                    codes::play_code_closed(ctx);
                }
                Err(e) => {
                    if let codes::Dialog::Play { refused, .. } = &mut self.codes {
                        *refused = Some(capitalized(&e));
                    }
                }
            },
            Some(codes::PlayAnswer::Cancel) => {
                self.codes = codes::Dialog::Closed;
                codes::play_code_closed(ctx);
            }
            None => {}
        }
    }

    /// Plays the game of the code `text`: opens its game and starts it there (after the
    /// new-game question if a game of it is in progress). Today's daily code of an entry starts
    /// its daily game. A code that carries rules of its own (made with `tilebox-cli code
    /// --params`) plays in the game whose rules they are, a board or a combination of options,
    /// so that its scores and history go there and never to the entry it names; rules that no
    /// game here has are refused, as nothing could count it honestly. Nothing starts when the
    /// code is refused.
    fn play_code(&mut self, text: &str) -> Result<(), String> {
        let code: GameCode = text.parse().map_err(|e: CodeError| e.to_string())?;
        let unknown = || CodeError::UnknownGame(code.entry.clone()).to_string();
        let named = self.index_of(&code.entry).ok_or_else(unknown)?;
        // The parameters are checked before anything changes.
        let session = code
            .start(&self.slots[named].entry)
            .map_err(|e| e.to_string())?;
        let index = match &code.params {
            None => named,
            Some(_) => {
                let (kind, params) = (self.slots[named].entry.kind_type(), session.params_json());
                self.slots
                    .iter()
                    .position(|s| s.entry.kind_type() == kind && s.entry.params_json() == params)
                    .ok_or_else(|| {
                        "this code has rules of its own that none of the games here has \
                         (tilebox-cli new --code plays it)"
                            .to_string()
                    })?
            }
        };
        let today = codes::today();
        let daily =
            (code.params.is_none() && code.seed == daily_seed(&code.entry, today)).then_some(today);
        self.screen = Screen::Game(index);
        self.ask_start(Start {
            index,
            seed: code.seed,
            daily,
        });
        Ok(())
    }

    fn toggle_theme(&mut self) {
        self.theme = self.theme.next();
        self.write_settings();
    }

    /// The player's zoom, 1 for none.
    pub fn zoom(&self) -> f32 {
        self.zoom.player
    }

    fn write_settings(&mut self) {
        let settings = Settings {
            version: SETTINGS_VERSION,
            theme: self.theme,
            zoom: self.zoom.percent(),
            speed: self.assist.speed,
            unknown: self.settings_unknown.clone(),
        };
        let path = self.writer.storage().path(SETTINGS_FILE);
        self.writer.submit(SETTINGS_FILE, "the settings", move || {
            encode(&path, &settings, Layout::Pretty)
        });
    }

    fn show_game(&mut self, ui: &mut egui::Ui, index: usize) {
        let ctx = ui.ctx().clone();
        // The AI's answer is taken before the bar is drawn, so that the bar never shows
        // "Thinking..." over a hint already given (no frame may follow to take it away).
        let now = ctx.input(|i| i.time);
        let autoplay_moves = self.assist.drive(&ctx, index, &mut self.slots, now);
        let Some(slot) = self.slots.get(index) else {
            self.screen = Screen::Launcher;
            return;
        };

        // Keys: the shell's commands first; the rest are the view's (moves, tiles). While the
        // new-game question is open, keys answer it instead.
        let question_was_open = slot.confirm_new;
        let plain_h_hints = slot.view.plain_h_hints();
        let mut keys = if question_was_open || self.codes != codes::Dialog::Closed {
            Vec::new()
        } else {
            input::read_keys(&ctx)
        };
        let mut commands = Vec::new();
        // While the win waits for its answer, Escape answers it (keep going), not Back.
        let win_waits = slot
            .session
            .as_deref()
            .is_some_and(|s| chrome::win_waits(s, slot.tally));
        keys.retain(|&k| match input::command_of(k, plain_h_hints) {
            Some(Command::Back) if win_waits => false,
            Some(c) => {
                commands.push(c);
                false
            }
            None => true,
        });

        let thinking = self.assist.thinking_of_hint(index);
        let speed_before = self.assist.speed;
        let stats = self.scores.get(slot.id());
        let lower = slot.entry.lower_is_better();
        let bar = TopBar {
            best: stats.best_for(lower),
            assisted_best: stats.assisted_best_for(lower),
            theme: self.theme,
            speed: &mut self.assist.speed,
            thinking,
        };
        commands.extend(chrome::top_bar(ui, slot, bar));
        // How to play: a panel under the board, or in a small window a page in its place.
        let help_page = slot.show_help
            && crate::help::panel(ui, &slot.entry, slot.session.as_deref(), slot.view.as_ref());
        // A speed picked in the bar's menu is remembered.
        if self.assist.speed != speed_before {
            self.write_settings();
        }

        let nothing_saved = crate::lock::nothing_saved_line(self.writer.storage());
        let slot = &mut self.slots[index];
        let mut outcome = None;
        let mut end_choice = None;
        egui::CentralPanel::default().show(ui, |ui| {
            if help_page {
                let (entry, view) = (&slot.entry, slot.view.as_ref());
                return crate::help::page(ui, entry, slot.session.as_deref(), view);
            }
            let Some(session) = slot.session.as_deref() else {
                ui.label("This game could not be started.");
                return;
            };
            // While the win waits for an answer, the board is drawn and takes no move.
            let accepts_moves = !chrome::win_waits(session, slot.tally);
            let keys = if accepts_moves { keys.as_slice() } else { &[] };
            let out = slot.view.show(ui, session, keys, accepts_moves);
            chrome::commentary(ui, session);
            if let Some(m) = &out.message {
                slot.message = Some(m.clone());
            }
            for m in slot.message.iter().chain(&nothing_saved) {
                ui.vertical_centered(|ui| {
                    ui.label(RichText::new(m.as_str()).color(ui.visuals().warn_fg_color));
                });
            }
            end_choice = chrome::end_overlay(ui, out.board, session, slot.tally);
            outcome = Some(out);
        });

        let outcome = outcome.unwrap_or_default();
        if outcome.player_moved {
            // The player's own move takes the game back from the AI, whose move is dropped.
            self.assist.stop(index, &mut self.slots[index]);
        }
        let moves = if outcome.player_moved {
            outcome.moves
        } else if commands.iter().any(|&c| crate::assist::stops_autoplay(c)) {
            // A command that takes the game back (undo, autoplay off) comes before the moves
            // autoplay had due in the same frame, which are dropped.
            Vec::new()
        } else {
            autoplay_moves
        };
        if !moves.is_empty() {
            for mv in moves {
                self.play(index, &mv, now);
            }
            // The frame just drawn showed the board before the moves: the next one comes at once.
            ctx.request_repaint();
        }
        match end_choice {
            Some(EndChoice::KeepGoing) => {
                self.slots[index].tally.win_seen = true;
                self.save_game(index);
            }
            Some(EndChoice::NewGame) => self.new_game(index),
            Some(EndChoice::Undo) => commands.push(Command::Undo),
            None => {}
        }
        for command in commands {
            self.run(&ctx, index, command);
        }

        let slot = &self.slots[index];
        if slot.confirm_new {
            let score = slot.session.as_ref().map_or(0, |s| s.score());
            match chrome::confirm_new_game(&ctx, index, score, question_was_open) {
                Some(true) => match self.pending.take().filter(|p| p.index == index) {
                    Some(start) => self.start(start),
                    None => self.new_game(index),
                },
                Some(false) => {
                    self.slots[index].confirm_new = false;
                    self.pending = None;
                }
                None => {}
            }
        }
        if let codes::Dialog::Show { code, copied } = &mut self.codes {
            match codes::show_code(&ctx, code, *copied) {
                Some(codes::ShowAnswer::Copy) => {
                    ctx.copy_text(code.clone());
                    *copied = true;
                }
                Some(codes::ShowAnswer::Close) => self.codes = codes::Dialog::Closed,
                None => {}
            }
        }
    }

    /// Plays `mv`, a move in its text form, in game `index`: the one path every move of every
    /// game takes, the player's and autoplay's. A move that changes nothing is no move; a
    /// refused one is told under the board. A move played is animated by the view, counted in
    /// the score table ("+N", the best, played and won) and saved.
    fn play(&mut self, index: usize, mv: &str, now: f64) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref_mut() else {
            return;
        };
        if chrome::win_waits(session, slot.tally) {
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
                slot.score_pop = (gained > 0).then_some((now, gained));
                self.record_status(index);
                self.save_game(index);
            }
            // After the end, the end's message already says so: a move is not refused twice.
            Err(_) if session.status().over => {}
            Err(e) => slot.message = Some(e.kind.to_string()),
        }
    }

    fn run(&mut self, ctx: &egui::Context, index: usize, command: Command) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if command.takes_over() {
            self.assist.stop(index, slot);
        }
        let changes_game = matches!(
            command,
            Command::Undo
                | Command::Redo
                | Command::NewGame
                | Command::DailyGame
                | Command::Hint
                | Command::ToggleAutoplay
        );
        if slot.newer_save && changes_game {
            slot.message = Some(NEWER_SAVE.to_string());
            return;
        }
        match command {
            Command::Back => self.screen = self.back_from(index),
            Command::Hint => {
                // Asking for a hint the game gives makes it assisted, whatever the answer.
                let helps = slot
                    .session
                    .as_deref()
                    .is_some_and(|s| !s.status().over && s.assistant().is_some());
                self.assist.hint(ctx, index, slot);
                if helps && slot.tally.assist() {
                    self.save_game(index);
                }
            }
            Command::ToggleAutoplay => {
                self.assist.toggle_autoplay(index, slot);
                if slot.autoplay && slot.tally.assist() {
                    self.save_game(index);
                }
            }
            Command::ToggleTheme => self.toggle_theme(),
            Command::Statistics => self.open_stats(index),
            Command::Replay => {
                if let Some(session) = slot.session.as_deref() {
                    let saved = session.save();
                    let title = format!("Replay: {}, the game in progress", slot.entry.title());
                    self.start_replay(index, &saved, title);
                }
            }
            Command::ToggleHelp => slot.show_help = !slot.show_help,
            Command::NewGame => self.ask_new_game(index),
            Command::ShowCode => {
                if let Some(session) = slot.session.as_deref() {
                    self.codes = codes::Dialog::Show {
                        code: GameCode::of(session).to_string(),
                        copied: false,
                    };
                }
            }
            Command::DailyGame => {
                // Today's daily game stays where it is on the board.
                let today = codes::today();
                if slot.daily != Some(today) || slot.session.is_none() {
                    let seed = daily_seed(slot.entry.id(), today);
                    self.ask_start(Start {
                        index,
                        seed,
                        daily: Some(today),
                    });
                }
            }
            Command::Undo | Command::Redo => {
                let Some(session) = slot.session.as_deref_mut() else {
                    return;
                };
                let changed = if command == Command::Undo {
                    session.undo()
                } else {
                    session.redo()
                };
                if changed {
                    // Undo makes the game assisted; it stays so after a redo.
                    if command == Command::Undo {
                        slot.tally.assist();
                    }
                    slot.view.reset();
                    slot.score_pop = None;
                    slot.message = None;
                    // A redone move can end or win the game like any other.
                    self.record_status(index);
                    self.save_game(index);
                }
            }
        }
    }

    /// Where Back leads from game `index`: the screen of its group when the group has several
    /// entries (2048's boards) or the game is a combination of options, else the launcher.
    fn back_from(&self, index: usize) -> Screen {
        let combination = index >= self.registry.entries().len();
        let group = self.slots.get(index).map(|s| s.entry.info().group.clone());
        self.registry
            .groups()
            .iter()
            .position(|(title, members)| {
                (members.len() > 1 && members.contains(&index))
                    || (combination && group.as_deref() == Some(*title))
            })
            .map_or(Screen::Launcher, Screen::Group)
    }

    /// The game of group `group` whose params have the choices `picks` of `options`: a named
    /// entry or a combination (a field a game's params leave out has the first choice, the
    /// standard game's).
    fn slot_of_options(
        &self,
        group: &str,
        options: &[ParamOption],
        picks: &[usize],
    ) -> Option<usize> {
        let wanted: Vec<&serde_json::Value> = options
            .iter()
            .zip(picks)
            .map(|(option, &pick)| option.choices.get(pick).map(|(_, value)| value))
            .collect::<Option<_>>()?;
        self.slots.iter().position(|slot| {
            let params = slot.entry.params_json();
            slot.entry.info().group == group
                && !slot.entry.options().is_empty()
                && options.iter().zip(&wanted).all(|(option, &value)| {
                    let first = option.choices.first().map(|(_, v)| v);
                    params.get(&option.field).or(first) == Some(value)
                })
        })
    }

    /// New game: at once when nothing would be lost, else after the player says yes. A game
    /// with a move played, or taken back and not yet redone, is in progress until it ends.
    fn ask_new_game(&mut self, index: usize) {
        self.pending = None;
        if self.in_progress(index) {
            if let Some(slot) = self.slots.get_mut(index) {
                slot.confirm_new = true;
            }
        } else {
            self.new_game(index);
        }
    }

    /// Whether game `index` has a game in progress that a new one would end: a move played,
    /// or taken back and not yet redone, and the game not over.
    fn in_progress(&self, index: usize) -> bool {
        self.slots.get(index).is_some_and(|slot| {
            slot.session
                .as_deref()
                .is_some_and(|s| (s.move_count() > 0 || s.can_redo()) && !s.status().over)
        })
    }

    /// Starts `start` (a code's game, or a daily game), as New game does: at once when nothing
    /// would be lost, else after the player says yes to the new-game question.
    fn ask_start(&mut self, start: Start) {
        let Some(slot) = self.slots.get_mut(start.index) else {
            return;
        };
        if slot.newer_save {
            slot.message = Some(NEWER_SAVE.to_string());
            return;
        }
        if self.in_progress(start.index) {
            if let Some(slot) = self.slots.get_mut(start.index) {
                slot.confirm_new = true;
            }
            self.pending = Some(start);
        } else {
            self.start(start);
        }
    }

    /// Starts `start` at once.
    fn start(&mut self, start: Start) {
        self.start_game(start.index, start.seed, start.daily);
    }

    /// Starts a new game of game `index` from a fresh seed ([`fresh_seed`]).
    fn new_game(&mut self, index: usize) {
        self.start_game(index, fresh_seed(), None);
    }

    /// Starts the game of game `index` from `seed`, the daily game of `daily` if given: the one path by
    /// which a slot gets a fresh game (a new game, a game code, the daily game, the first game of
    /// an entry opened). The game it replaces counts as played, and goes into the history (unless it
    /// is there already), if a move was made in it. A game that cannot start says why under the
    /// board (and the old one stays).
    pub(crate) fn start_game(&mut self, index: usize, seed: u64, daily: Option<Date>) {
        let Some(slot) = self.slots.get(index) else {
            return;
        };
        let moved = slot
            .session
            .as_deref()
            .is_some_and(|s| s.move_count() > 0 || s.can_redo());
        if moved {
            self.record_game(index);
        }
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if slot.session.is_some()
            && slot
                .tally
                .abandon(moved, self.scores.entry(slot.entry.id()))
        {
            self.write_scores();
        }
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let started = match slot.session.as_deref_mut() {
            Some(session) => session.restart(seed),
            None => slot.entry.new_session(seed).map(|s| {
                slot.session = Some(s);
            }),
        };
        if let Err(e) = started {
            slot.message = Some(format!("A new game cannot start: {e}"));
            // The old game stays, counted and recorded: its save says so.
            self.save_game(index);
            return;
        }
        slot.daily = daily;
        slot.duration_ms = 0;
        // A game already in the history (a daily game again, a code of a game played before)
        // is played knowing its tiles to come: it counts as assisted, so that no best, win or
        // daily best comes from foresight.
        let seen = match slot.history.view() {
            HistoryView::Ready(records) => records.iter().any(|r| r.seed == seed),
            HistoryView::Loading => false,
        };
        let mut tally = Tally::default();
        if seen {
            tally.assist();
        }
        slot.reset_for_session(tally);
        self.save_game(index);
    }

    /// Brings the score table up to date with game `index`: a new best is written at once. A
    /// game that has ended goes into the history (once: see [`Tally::recorded`]).
    fn record_status(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        let lower = slot.entry.lower_is_better();
        let moved = session.move_count() > 0 || session.can_redo();
        let over = session.status().over;
        let stats = self.scores.entry(slot.entry.id());
        if slot
            .tally
            .record(session.status(), session.score(), moved, lower, stats)
        {
            self.write_scores();
        }
        if over {
            self.record_game(index);
        }
    }

    /// Records game `index` as it stands in its history, unless it is there already: the
    /// record is kept for this run and its line queued for the file, then the game's save,
    /// which says it is recorded (so a start that finds a finished game not yet recorded, after
    /// a kill between the two writes, records it once and not at every start).
    fn record_game(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if slot.newer_save || !slot.tally.mark_recorded() {
            return;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
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
        self.save_game(index);
    }

    /// Queues a write of the whole score table.
    fn write_scores(&mut self) {
        let scores = self.scores.clone();
        let storage = self.writer.storage().clone();
        self.writer
            .submit(SCORES_FILE, "the scores", move || scores.encode(&storage));
    }

    /// Queues a write of the game in progress of game `index`, with its tally. A game a newer
    /// Tilebox saved is not written.
    fn save_game(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
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

    /// Shows the writes that failed since the last frame: under the board of the game they
    /// concern (or the game shown, for the scores), and in the launcher.
    fn report_failures(&mut self) {
        for failure in self.writer.take_failures() {
            let text = format!(
                "{} could not be saved: {}",
                capitalized(&failure.what),
                failure.error
            );
            let slot = self
                .slots
                .iter()
                .position(|s| {
                    saves::save_file_name(s.id()) == failure.name
                        || history_file_name(s.id()) == failure.name
                })
                .or(match self.screen {
                    Screen::Game(i) if failure.name == SCORES_FILE => Some(i),
                    _ => None,
                });
            if let Some(slot) = slot.and_then(|i| self.slots.get_mut(i)) {
                slot.message = Some(text.clone());
            }
            self.notify(text);
        }
    }

    /// Waits until the writes queued so far are on disk, or `bound` has passed; returns what
    /// was still not written. For quitting and for tests: the window never calls it.
    pub fn flush_writes(&self, bound: std::time::Duration) -> Vec<String> {
        self.writer.flush(bound)
    }

    /// Whether writes are still waiting for the disk.
    pub fn writes_pending(&self) -> bool {
        !self.writer.pending().is_empty()
    }

    /// Quitting: while writes are pending, the window stays open (up to [`QUIT_WAIT`]), then
    /// says what could not be saved and lets the player quit anyway or keep playing.
    fn handle_quit(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let now = ctx.input(|i| i.time);
        // The player chose to quit without them: the window goes, whatever the writer does.
        if self.writer.abandoned() {
            return;
        }
        if ctx.input(|i| i.viewport().close_requested()) && self.quitting.is_none() {
            if self.writer.unsaved().is_empty() {
                return;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.quitting = Some(now);
        }
        let Some(since) = self.quitting else {
            return;
        };
        let pending = self.writer.unsaved();
        if pending.is_empty() {
            self.quitting = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
        let waited = now - since >= QUIT_WAIT.as_secs_f64();
        let mut choice = None;
        egui::Window::new("Saving")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(&ctx, |ui| {
                if waited {
                    ui.label(format!(
                        "These could not be saved yet: {}. The disk does not answer, or is \
                         full.",
                        pending.join(", ")
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Quit without saving them").clicked() {
                            choice = Some(true);
                        }
                        if ui.button("Keep playing").clicked() {
                            choice = Some(false);
                        }
                    });
                } else {
                    ui.label(format!("Saving {}…", pending.join(", ")));
                }
            });
        match choice {
            Some(true) => {
                self.quitting = None;
                self.writer.abandon();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Some(false) => self.quitting = None,
            None => {}
        }
    }
}

/// The seed of a new game: random, below 2^40. Any seed plays, but a game code carries the seed
/// (with the entry), so 40 bits keep codes short to read out and type, while a trillion games
/// per entry are still more than anyone plays; a daily game's seed comes from its date instead.
fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 24
}

/// On a board the arrow keys are moves (or a replay's steps), never egui's moves of the keyboard
/// focus: else a player who keeps pressing arrows after the game ends moves the focus from the
/// dialog's default answer ("Play again") to another ("Take back the last move"), and Return then
/// answers that. Tab still moves the focus.
fn keep_focus_off_arrows(ctx: &egui::Context) {
    let arrow = ctx.input(|i| {
        i.events.iter().any(|e| {
            matches!(
                e,
                egui::Event::Key {
                    key: egui::Key::ArrowUp
                        | egui::Key::ArrowDown
                        | egui::Key::ArrowLeft
                        | egui::Key::ArrowRight,
                    pressed: true,
                    ..
                }
            )
        })
    });
    if arrow {
        ctx.memory_mut(|m| m.move_focus(egui::FocusDirection::None));
    }
}

/// `text` with its first letter a capital.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

impl Drop for TileboxApp {
    /// The window is gone (it waited for pending writes when it was closed): what is still
    /// queued gets one more bounded wait, so that the next start reads it.
    fn drop(&mut self) {
        self.writer.flush(QUIT_WAIT);
    }
}

impl eframe::App for TileboxApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    fn app_over(dir: &std::path::Path) -> TileboxApp {
        TileboxApp::new(dir, None)
    }

    #[test]
    fn a_daily_game_started_on_a_slot_is_kept_in_its_save_and_resumed() {
        let dir = tempfile::tempdir().unwrap();
        let date = Date::new(2026, 11, 23).unwrap();
        let mut app = app_over(dir.path());
        let index = app.index_of("2048").unwrap();
        app.start_game(index, 12_345, Some(date));
        assert_eq!(app.slots[index].daily, Some(date));
        assert_eq!(app.session("2048").unwrap().save().seed, 12_345);
        assert!(app.flush_writes(QUIT_WAIT).is_empty());
        drop(app);

        let mut app = app_over(dir.path());
        let index = app.index_of("2048").unwrap();
        assert_eq!(app.slots[index].daily, Some(date));
        assert_eq!(app.session("2048").unwrap().save().seed, 12_345);
        // A new game is no daily game, and its fresh seed is below 2^40.
        app.new_game(index);
        assert_eq!(app.slots[index].daily, None);
        assert!(app.session("2048").unwrap().save().seed < 1 << 40);
        assert!(app.flush_writes(QUIT_WAIT).is_empty());
        drop(app);
        let app = app_over(dir.path());
        assert_eq!(app.slot_by_id("2048").unwrap().daily, None);
    }

    #[test]
    fn starting_a_game_over_one_with_a_move_counts_it_as_played_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut app = app_over(dir.path());
        let index = app.index_of("2048").unwrap();
        app.start_game(index, 1, None);
        // Without a move, replacing it counts nothing.
        app.start_game(index, 2, None);
        assert_eq!(app.scores().get("2048").played, 0);
        let legal = app.slots[index].session.as_ref().unwrap().legal_moves();
        app.play(index, &legal[0], 0.0);
        app.start_game(index, 3, Some(Date::new(2026, 1, 2).unwrap()));
        assert_eq!(app.scores().get("2048").played, 1);
        assert_eq!(app.session("2048").unwrap().move_count(), 0);
    }
}
