//! The shell: it holds the screen shown, the store, the registry and every game's slot, and
//! carries out what the screens ask for. Each frame it hands the frame's input to the screen
//! shown (keeping the keys after one that changes the screen for the screen it opens), lets it
//! draw itself, then carries out the [`Action`]s it returned, in order, in one place: open and
//! back, play a move, start a game, write. Game rules stay in the game crates; undo, redo and
//! the save form come from [`DynSession`]; the files are the [`Store`]'s.

use std::collections::HashMap;
use std::path::PathBuf;

use tilebox_core::date::Date;
use tilebox_core::{CodeError, DynSession, GameCode, Registry, daily_seed};

use crate::assist::Assist;
use crate::chrome::EndChoice;
use crate::codes;
use crate::history::{HistoryView, Loaded, history_file_name};
use crate::input::{self, Command, KeyPress};
use crate::saves;
use crate::scores::{SCORES_FILE, Scores};
use crate::screens::dialogs::{self, Dialog};
use crate::screens::game::{self, GameScreen};
use crate::screens::launcher::{self, LauncherScreen};
use crate::screens::replay::ReplayScreen;
use crate::screens::stats::StatsScreen;
use crate::screens::{self, Action, Screen};
use crate::slot::{GameSlot, NEWER_SAVE, Start};
use crate::storage::Storage;
use crate::store::Store;
use crate::theme::{ThemeChoice, Zoom};
use crate::trainer::{NetworkSize, Standing, Trainer};
use crate::writer::Writer;

/// The most of a gap between two frames that counts in a game's time, in seconds.
const THINKING_CAP: f64 = 60.0;

/// How long quitting waits for the writes still pending before it says what was not saved.
pub const QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// How long the app, once its window is gone, still waits for a player in training to be saved
/// (the window waited for it already, as for the files, up to [`QUIT_WAIT`] before it offered
/// to quit without it): past it, the run loses what it learned since its last save, a minute
/// at most.
pub const TRAINING_QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// What a page says when another tab took its lock while it slept ([`crate::lock::TabLock`]).
pub const TAB_LOST: &str = "Tilebox was opened in another tab of this browser, which now keeps \
the games: this tab saves nothing more. Play in the other tab.";

/// The screen shown, with its own state.
enum Current {
    Launcher(LauncherScreen),
    Game(GameScreen),
    Stats(Box<StatsScreen>),
    Replay(ReplayScreen),
}

impl Current {
    fn id(&self) -> Screen {
        match self {
            Current::Launcher(s) => s.id(),
            Current::Game(s) => s.id(),
            Current::Stats(s) => s.id(),
            Current::Replay(s) => s.id(),
        }
    }

    /// The slot the screen shows, if it shows a game's.
    fn index(&self) -> Option<usize> {
        match self {
            Current::Launcher(_) => None,
            Current::Game(s) => Some(s.index),
            Current::Stats(s) => Some(s.index),
            Current::Replay(s) => Some(s.index),
        }
    }
}

/// The Tilebox app: the launcher and every game of the registry.
pub struct TileboxApp {
    registry: Registry,
    /// The files: scores, saves, histories, settings, and the writer.
    store: Store,
    /// The registry's entries, in its order, then the combinations of options
    /// ([`Registry::combinations`]), which the launcher offers through its menu of options, then
    /// the games added while the app runs (a code's game, [`TileboxApp::add_code_game`]).
    slots: Vec<GameSlot>,
    /// The registry's groups, each entry by the index of its slot ([`crate::slot::groups`]):
    /// the launcher's cards. Made again when a game is added.
    groups: Vec<crate::slot::Group>,
    /// The screen shown.
    current: Current,
    /// The serial number of the screen shown: its widgets' ids are salted with it, so a screen
    /// opens at its top, never scrolled as another was.
    serial: u64,
    /// How many screens have been opened: the next one's serial follows.
    opened: u64,
    /// The screens a statistics or replay screen was opened over, with their serials: Back
    /// returns to them as they were.
    under: Vec<(Current, u64)>,
    /// The dialog open over the screen, if any.
    dialog: Option<Dialog>,
    /// Input events held back from a frame whose screen changed, for the screen it opened.
    held: Vec<egui::Event>,
    /// The games with moves played in this frame: each is saved once, at the frame's end
    /// ([`TileboxApp::save_played`]), however many moves autoplay played in it.
    played: std::collections::BTreeSet<usize>,
    /// The window's hook cut this frame's raw input already ([`TileboxApp::cut_raw_input`]).
    cut_before_frame: bool,
    notices: Vec<String>,
    theme_applied: Option<ThemeChoice>,
    /// The player's zoom on top of the window's.
    zoom: Zoom,
    assist: Assist,
    /// The choices picked in the launcher's menu of options, per group.
    option_picks: HashMap<usize, Vec<usize>>,
    /// The game whose board the last frame showed, and that frame's time: the time between
    /// frames is added to the game's duration.
    game_clock: Option<(usize, f64)>,
    /// Quitting was asked for while writes were pending: since when (the frame's time).
    quitting: Option<f64>,
    /// The games' learning players, trained from their statistics screens.
    trainer: Trainer,
    /// The names of the files in the player's `variants/` folder, read at start, and of those
    /// the app created since: a game added from a code takes a name none of them has.
    variant_files: std::collections::BTreeSet<String>,
    /// The variant whose training the window's close stopped, to go on if the player keeps
    /// playing after all.
    stopped_for_quit: Option<tilebox_sliding::Variant>,
    /// Each frame's cost, logged when `TILEBOX_FRAME_TIMES` asks for it.
    frame_times: Option<crate::frame_times::FrameTimes>,
    /// Moves played since the start: whether a frame played one.
    moves_played: u64,
    /// In a page, the tab's lock on the browser's storage ([`crate::lock::TabLock`]).
    tab: Option<crate::lock::TabLock>,
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

    /// The app in a page (and in the desktop's tests of the web side): its files kept in the
    /// storage of keys `keys` (the browser's `localStorage`), its writes and the AI's searches
    /// on the frame ([`crate::work_mode::WorkMode::Frame`]), and one tab at a time writing
    /// them: the tab `tab` takes the lock at `now_ms` (milliseconds since 1970), or is refused
    /// with the window to show instead
    /// ([`crate::refusal::AlreadyRunning::in_another_tab`]). The app renews
    /// the lock each second from its frames and gives it back when dropped.
    pub fn for_the_web(
        registry: Registry,
        keys: std::sync::Arc<dyn crate::store::keys::Keys>,
        tab: &str,
        now_ms: u64,
        start_game: Option<&str>,
    ) -> Result<Self, crate::refusal::AlreadyRunning> {
        let lock = crate::lock::TabLock::take(std::sync::Arc::clone(&keys), tab, now_ms)
            .map_err(|_| crate::refusal::AlreadyRunning::in_another_tab())?;
        let writer = Writer::on_frame(Storage::in_keys(keys));
        let mut app = Self::with_writer(registry, writer, start_game);
        app.tab = Some(lock);
        Ok(app)
    }

    /// The app over the games of `registry`, writing through `writer`. Files are read here, at
    /// start-up ([`Store::open`]). The caller holds the data directory's lock
    /// ([`crate::lock`]), or gives a storage that writes nothing. The AI works as the writer
    /// does ([`Writer::mode`]): on threads, or on the frame.
    pub fn with_writer(registry: Registry, writer: Writer, start_game: Option<&str>) -> Self {
        let mut notices = Vec::new();
        let entries = registry
            .entries()
            .iter()
            .cloned()
            .chain(registry.combinations())
            .collect::<Vec<_>>();
        let mut assist = Assist::in_mode(writer.mode());
        let (store, slots) = Store::open(writer, entries, &mut notices);
        // Nothing is trained where nothing is saved.
        let players = store
            .nothing_saved()
            .is_none()
            .then(|| tilebox_ai::ntuple::players::Players::in_app_dir(store.dir()));
        assist.speed = store.settings.speed;
        let zoom = Zoom::from_percent(store.settings.zoom);
        let mut app = Self {
            groups: crate::slot::groups(&registry, &slots),
            registry,
            store,
            slots,
            current: Current::Launcher(LauncherScreen::new(None)),
            serial: 0,
            opened: 0,
            under: Vec::new(),
            dialog: None,
            held: Vec::new(),
            played: std::collections::BTreeSet::new(),
            cut_before_frame: false,
            notices,
            theme_applied: None,
            zoom,
            assist,
            option_picks: HashMap::new(),
            game_clock: None,
            quitting: None,
            trainer: Trainer::new(players),
            variant_files: std::collections::BTreeSet::new(),
            stopped_for_quit: None,
            frame_times: None,
            moves_played: 0,
            tab: None,
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

    /// Logs each frame's cost to stderr ([`crate::frame_times`]), where `log` is given.
    pub fn log_frame_times(&mut self, log: Option<crate::frame_times::FrameTimes>) {
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
        self.current.id()
    }

    /// The id of the entry shown now, if any.
    pub fn current_game(&self) -> Option<&str> {
        match &self.current {
            Current::Game(s) => self.slots.get(s.index).map(GameSlot::id),
            Current::Launcher(_) | Current::Stats(_) | Current::Replay(_) => None,
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
    pub fn autoplay_speed(&self) -> crate::advisor::Speed {
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
            .and_then(|s| crate::trainer::trainable(&s.entry))?
            .clone();
        Some(self.trainer.standing(&variant))
    }

    /// New training runs train a network of `size` (the standard one unless told: tests train
    /// the small one).
    pub fn set_training_network(&mut self, size: NetworkSize) {
        self.trainer.set_size(size);
    }

    /// A trained player plays hints and autoplay once it has learned from `moves` moves
    /// ([`crate::trainer::MOVES_A_RUN`] unless told: tests lower it).
    pub fn set_trained_from(&mut self, moves: u64) {
        self.trainer.set_plays_from(moves);
    }

    /// Lets the AI's players folder know of each save of a training run, so that hints use the
    /// network as it learns.
    pub fn share_players(&mut self, players: std::sync::Arc<tilebox_ai::ntuple::players::Players>) {
        self.trainer.share(players);
    }

    /// The statistics screen's part on the AI player of slot `index`, if it has one.
    fn player_panel(&mut self, index: usize) -> Option<crate::train_view::Panel> {
        let variant = crate::trainer::trainable(&self.slots.get(index)?.entry)?.clone();
        let standing = self.trainer.standing(&variant);
        let other = self
            .trainer
            .running()
            .filter(|id| *id != variant.id)
            .map(|id| {
                self.slots
                    .iter()
                    .find(|s| s.id() == id)
                    .map_or(id, |s| s.entry.title())
                    .to_string()
            });
        let blocked = self
            .store
            .nothing_saved()
            .or_else(|| self.trainer.broken().map(str::to_string));
        Some(crate::train_view::Panel {
            standing,
            other,
            blocked,
            plays_from: self.trainer.plays_from(),
            available: crate::trainer::AVAILABLE,
        })
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

    /// Whether a dialog is open over the screen, the window that waits for writes at quitting
    /// included: the keys are its own.
    fn dialog_open(&self) -> bool {
        self.dialog.is_some() || self.quitting.is_some()
    }

    /// Where this frame's input is cut ([`input::cut_events`]): after a key that answers or
    /// closes the dialog open, else after one that changes the screen shown.
    fn input_cut(&self) -> impl Fn(input::KeyPress) -> bool + use<> {
        let shown = self.screen();
        let dialog_open = self.dialog_open();
        move |k| {
            if dialog_open {
                screens::closes_dialog(k)
            } else {
                screens::changes_screen(shown, k)
            }
        }
    }

    /// Cuts the frame's raw input before egui reads it (`eframe::App::raw_input_hook`): the
    /// events after a key that changes the screen wait for the next frame, egui's own uses of
    /// them (Tab, which moves the focus) included.
    pub fn cut_raw_input(&mut self, raw: &mut egui::RawInput) {
        let cuts = self.input_cut();
        input::cut_events(&mut raw.events, &mut self.held, cuts);
        self.cut_before_frame = true;
    }

    /// Draws the whole app into `ui` and handles its input. `eframe::App::ui` calls this.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        // Before anything reads this frame's input: the events after a key that changes the
        // screen wait for the next frame, and the screen that key opens.
        let shown = self.screen();
        let dialog_open = self.dialog_open();
        if std::mem::take(&mut self.cut_before_frame) {
            // The window's hook cut this frame's input before egui read it.
            if !self.held.is_empty() {
                ctx.request_repaint();
            }
        } else {
            let cuts = self.input_cut();
            input::hand_over(&ctx, &mut self.held, cuts);
        }
        // Before anything is drawn: the focus stays in the dialog open in the last frame.
        crate::theme::hold_focus_in_dialog(&ctx);
        self.store.set_waker(&ctx);
        self.store.tick();
        self.renew_tab(&ctx);
        let arrived = self.store.arrived_histories();
        self.take_histories(arrived);
        self.count_time(&ctx);
        self.report_failures();
        self.trainer.receive();
        let theme = self.store.settings.theme;
        if self.theme_applied != Some(theme) {
            crate::theme::install(&ctx);
            ctx.set_theme(theme.preference());
            self.theme_applied = Some(theme);
        }
        if self.zoom.frame(&ctx) {
            self.write_settings();
        }
        if matches!(shown, Screen::Game(_) | Screen::Replay(_)) {
            keep_focus_off_arrows(&ctx);
        }
        // While a dialog is open, keys are its own.
        let keys = if dialog_open {
            Vec::new()
        } else {
            input::read_keys(&ctx)
        };
        let index = self.current.index();
        let salt = ("screen", self.serial);
        let actions = ui
            .scope_builder(egui::UiBuilder::new().id_salt(salt), |ui| {
                self.draw(ui, &keys)
            })
            .inner;
        self.carry_out(&ctx, index, actions);
        if let Some(answer) = self.dialog.as_mut().and_then(|d| d.show(&ctx)) {
            self.carry_out(&ctx, index, vec![answer]);
        }
        self.save_played();
        // Last: the window that waits for the saves at quitting is over everything, dialogs
        // included, and has the keyboard's focus.
        self.handle_quit(&ctx);
    }

    /// Saves each game with moves played in this frame, once: the save holds every move, so a
    /// frame in which autoplay plays fifty copies the game once, not fifty times.
    fn save_played(&mut self) {
        for index in std::mem::take(&mut self.played) {
            self.save_game(index);
        }
    }

    /// Draws the screen shown, lending it what it shows; returns what it asked for.
    fn draw(&mut self, ui: &mut egui::Ui, keys: &[KeyPress]) -> Vec<Action> {
        let theme = self.store.settings.theme;
        let panel = match &self.current {
            Current::Stats(screen) => self.player_panel(screen.index),
            _ => None,
        };
        match &mut self.current {
            Current::Launcher(screen) => {
                let lent = launcher::Lent {
                    groups: &self.groups,
                    slots: &self.slots,
                    scores: &self.store.scores,
                    theme,
                    notices: &self.notices,
                    picks: screen
                        .group
                        .and_then(|g| self.option_picks.get(&g))
                        .map(Vec::as_slice),
                };
                screen.show(ui, &lent, keys)
            }
            Current::Game(screen) => {
                let index = screen.index;
                // The AI's answer is taken before the bar is drawn, so that the bar never shows
                // "Thinking..." over a hint already given (no frame may follow to take it away).
                let now = ui.input(|i| i.time);
                let autoplay_moves = self.assist.drive(ui.ctx(), index, &mut self.slots, now);
                let thinking = self.assist.thinking_of_hint(index);
                let Some(slot) = self.slots.get_mut(index) else {
                    return vec![Action::Open(Screen::Launcher)];
                };
                let stats = self.store.scores.get(slot.id());
                let lower = slot.entry.lower_is_better();
                let lent = game::Lent {
                    best: stats.best_for(lower),
                    assisted_best: stats.assisted_best_for(lower),
                    theme,
                    speed: self.assist.speed,
                    thinking,
                    nothing_saved: self.store.nothing_saved(),
                };
                let mut actions = screen.show(ui, slot, lent, keys);
                // A command that takes the game back (undo, autoplay off) comes before the moves
                // autoplay had due in the same frame, which are dropped.
                let taken_back = actions
                    .iter()
                    .any(|a| matches!(a, Action::Command(c) if crate::assist::stops_autoplay(*c)));
                let mut autoplay_moves = Some(autoplay_moves).filter(|_| !taken_back);
                // Autoplay's moves are played where the player made none.
                for action in &mut actions {
                    if let Action::Moves {
                        moves,
                        by_player: false,
                    } = action
                    {
                        *moves = autoplay_moves.take().unwrap_or_default();
                    }
                }
                actions
            }
            Current::Stats(screen) => match self.slots.get(screen.index) {
                Some(slot) => screen.show(ui, slot, panel.as_ref()),
                None => vec![Action::Open(Screen::Launcher)],
            },
            Current::Replay(screen) => screen.show(ui),
        }
    }

    /// Carries out `actions`, in order; `index` is the slot of the screen that asked for them,
    /// if it shows a game's.
    fn carry_out(&mut self, ctx: &egui::Context, index: Option<usize>, actions: Vec<Action>) {
        let now = ctx.input(|i| i.time);
        for action in actions {
            match action {
                Action::Open(Screen::Game(i)) => self.open(i),
                Action::Open(Screen::Stats(i)) => self.open_stats(i),
                Action::Open(screen) => self.go(screen),
                Action::Back => self.back(),
                Action::ToggleTheme => self.toggle_theme(),
                Action::Dismiss(i) => {
                    if i < self.notices.len() {
                        self.notices.remove(i);
                    }
                }
                Action::DismissAll => self.notices.clear(),
                Action::Train(i) => {
                    if let Some(variant) = self
                        .slots
                        .get(i)
                        .and_then(|s| crate::trainer::trainable(&s.entry))
                    {
                        self.trainer.start(&variant.clone());
                    }
                }
                Action::StopTraining => self.trainer.stop(),
                Action::Picks { group, picks } => {
                    self.option_picks.insert(group, picks);
                }
                Action::OpenPlayCode => {
                    if self.dialog.is_none() {
                        self.dialog = Some(Dialog::play_code());
                    }
                }
                Action::PlayCode(text) => {
                    let dialog = self.dialog.take();
                    match self.play_code(&text) {
                        Ok(()) => {
                            if let Some(dialog) = dialog {
                                dialog.closed(ctx);
                            }
                        }
                        Err(e) => {
                            self.dialog = dialog.map(|mut d| {
                                d.refuse(crate::chrome::capitalized(&e));
                                d
                            });
                        }
                    }
                }
                Action::AddCodeGame => {
                    if let Some(Dialog::AddGame { game, seed }) = self.dialog.take() {
                        self.add_code_game(*game, seed);
                    }
                }
                Action::CloseDialog => {
                    if let Some(dialog) = self.dialog.take() {
                        dialog.closed(ctx);
                    }
                }
                Action::NewGameAnswer(yes) => self.answer_new_game(yes),
                Action::Replay { saved, title } => {
                    if let Some(i) = index {
                        self.start_replay(i, &saved, title);
                    }
                }
                Action::SetSpeed(speed) => {
                    self.assist.speed = speed;
                    self.write_settings();
                }
                Action::Moves { moves, by_player } => {
                    let Some(i) = index else { continue };
                    if by_player && let Some(slot) = self.slots.get_mut(i) {
                        // The player's own move takes the game back from the AI, whose move
                        // is dropped.
                        self.assist.stop(i, slot);
                    }
                    if !moves.is_empty() {
                        let before = self.moves_played;
                        for mv in moves {
                            self.play(i, &mv, now);
                        }
                        // The pass just drawn showed the board before the moves. The player's
                        // move is drawn by a second pass of this same frame, whose picture
                        // goes to the screen instead: a key is answered by the frame that
                        // reads it, not by the one after, however long a frame takes (a
                        // second a frame without a GPU). Autoplay's moves, and keys held back
                        // for the next frame, wait for the next frame, which comes at once.
                        if by_player && self.moves_played > before && self.held.is_empty() {
                            ctx.request_discard("the player's move is drawn in its key's frame");
                        }
                        ctx.request_repaint();
                    }
                }
                Action::End(choice) => {
                    let Some(i) = index else { continue };
                    match choice {
                        EndChoice::KeepGoing => {
                            if let Some(slot) = self.slots.get_mut(i) {
                                slot.tally.win_seen = true;
                            }
                            self.save_game(i);
                        }
                        EndChoice::NewGame => self.new_game(i),
                        EndChoice::Undo => self.run(ctx, i, Command::Undo),
                    }
                }
                Action::Command(command) => {
                    if let Some(i) = index {
                        self.run(ctx, i, command);
                    }
                }
            }
        }
    }

    /// Shows `screen` (a launcher's page, or a game as it stands), at its top.
    fn go(&mut self, screen: Screen) {
        let current = match screen {
            Screen::Launcher => Current::Launcher(LauncherScreen::new(None)),
            Screen::Group(g) => Current::Launcher(LauncherScreen::new(Some(g))),
            Screen::Game(index) => Current::Game(GameScreen { index }),
            Screen::Stats(index) => Current::Stats(Box::new(StatsScreen::new(index))),
            // A replay is opened with its game ([`Self::start_replay`]).
            Screen::Replay(_) => return,
        };
        self.under.clear();
        self.show_screen(current);
    }

    /// Shows `current`, a screen just opened, at its top.
    fn show_screen(&mut self, current: Current) {
        self.current = current;
        self.opened += 1;
        self.serial = self.opened;
    }

    /// Shows `current` over the screen shown now, which Back returns to.
    fn show_over(&mut self, current: Current) {
        let under = std::mem::replace(&mut self.current, current);
        self.under.push((under, self.serial));
        self.opened += 1;
        self.serial = self.opened;
    }

    /// Back from the screen shown: from a statistics or replay screen to the screen it was
    /// opened over; from a game to its group's page ([`Self::back_from`]); from a group's page
    /// to the list of games.
    fn back(&mut self) {
        match &self.current {
            Current::Stats(_) | Current::Replay(_) => match self.under.pop() {
                Some((under, serial)) => {
                    self.current = under;
                    self.serial = serial;
                }
                None => self.go(Screen::Launcher),
            },
            Current::Game(s) => {
                let to = self.back_from(s.index);
                self.go(to);
            }
            Current::Launcher(_) => self.go(Screen::Launcher),
        }
    }

    fn take_histories(&mut self, arrived: Vec<Loaded>) {
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
                    self.store.save_game(slot);
                }
            }
            if let Some(text) = notice {
                self.notify(text);
            }
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
        self.go(Screen::Game(index));
    }

    /// Adds the time since the last frame to the duration of the game shown, if it showed in
    /// that frame too and is not over. No frame is drawn while the player thinks, so a gap
    /// counts whole, up to [`THINKING_CAP`]: a longer one (the machine slept, the player went
    /// away) counts as that.
    fn count_time(&mut self, ctx: &egui::Context) {
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

    /// Opens the statistics of game `index`; Back returns to the screen shown now.
    fn open_stats(&mut self, index: usize) {
        if index < self.slots.len() {
            self.show_over(Current::Stats(Box::new(StatsScreen::new(index))));
        }
    }

    /// Replays `saved`, a game of game `index`, from its start; Back returns to the screen
    /// shown now.
    fn start_replay(&mut self, index: usize, saved: &tilebox_core::SavedGame, title: String) {
        let Some(slot) = self.slots.get(index) else {
            return;
        };
        match crate::replay::Replay::new(&slot.entry, saved, title) {
            Ok(replay) => self.show_over(Current::Replay(ReplayScreen { index, replay })),
            Err(text) => self.notify(text),
        }
    }

    /// Plays the game of the code `text`: opens its game and starts it there (after the
    /// new-game question if a game of it is in progress). A code of today's daily game of the
    /// game it lands in (its seed that game's [`daily_seed`], however the code names the game)
    /// starts it as the daily game. A code that carries rules of its own (made with `tilebox-cli code
    /// --params`) plays in the game whose rules they are, a board or a combination of options,
    /// so that its scores and history go there and never to the entry it names. Sliding rules
    /// that no game here has open the offer to add them as a game of the player's own
    /// ([`Dialog::AddGame`]); other rules no game has are refused, as nothing could count the
    /// game honestly. Nothing starts when the code is refused.
    fn play_code(&mut self, text: &str) -> Result<(), String> {
        let code: GameCode = text.parse().map_err(|e: CodeError| e.to_string())?;
        let unknown = || CodeError::UnknownGame(code.entry.clone()).to_string();
        let named = self.index_of(&code.entry).ok_or_else(unknown)?;
        let named_entry = &self.slots.get(named).ok_or_else(unknown)?.entry;
        // The parameters are checked before anything changes.
        let session = code.start(named_entry).map_err(|e| e.to_string())?;
        let index = match &code.params {
            None => named,
            Some(_) => {
                let (kind, params) = (named_entry.kind_type(), session.params_json());
                let rules = named_entry.rules_json(&params);
                let alike: Vec<usize> = (0..self.slots.len())
                    .filter(|&i| {
                        self.slots.get(i).is_some_and(|s| {
                            s.entry.kind_type() == kind
                                && s.entry.rules_json(&s.entry.params_json()) == rules
                        })
                    })
                    .collect();
                // A player's own game whose codes name the code's game first: the code of a
                // variant of one's own comes back to it, even where a built-in has its rules.
                let own = alike.iter().copied().find(|&i| {
                    self.slots.get(i).is_some_and(|s| {
                        self.registry
                            .code_base(s.id())
                            .is_some_and(|base| base.id() == code.entry)
                    })
                });
                let same = own.or_else(|| alike.first().copied());
                match same {
                    Some(index) => index,
                    None => {
                        // Not an id a game has, nor one whose file name a file in variants/ has.
                        let taken = |id: &str| {
                            self.registry.entry_or_combination(id).is_some()
                                || self.variant_files.contains(&format!("{id}.json"))
                        };
                        let game = crate::variants::code_game(named_entry, &params, taken)
                            .ok_or_else(|| {
                                "this code has rules of its own that none of the games here \
                                 has (tilebox-cli new --code plays it)"
                                    .to_string()
                            })?;
                        self.dialog = Some(Dialog::AddGame {
                            game: Box::new(game),
                            seed: code.seed,
                        });
                        return Ok(());
                    }
                }
            }
        };
        // Today's daily game of the game the code lands in, whichever way the code names it
        // (a player's own variant's daily code names its built-in, with the rules that differ).
        let today = codes::today();
        let daily = self
            .slots
            .get(index)
            .is_some_and(|slot| code.seed == daily_seed(slot.id(), today))
            .then_some(today);
        self.go(Screen::Game(index));
        self.ask_start(Start {
            index,
            seed: code.seed,
            daily,
        });
        Ok(())
    }

    /// Adds the game the "Add this game?" dialog offers, `game`, to the catalogue and to the
    /// player's `variants/` folder (a new file, never written over: a write that fails is said
    /// like any other, and the game is played all the same), then plays its code's game, seed
    /// `seed`, there.
    fn add_code_game(&mut self, game: crate::variants::CodeGame, seed: u64) {
        let crate::variants::CodeGame {
            variant,
            based_on,
            named,
            info,
            file,
        } = game;
        let id = info.id.clone();
        let title = info.title.clone();
        let bytes = crate::variants::variant_file_text(&variant, based_on.as_deref());
        if let Err(e) = self
            .registry
            .add_preset::<tilebox_sliding::Sliding>(info, variant)
        {
            self.notify(format!("The game could not be added: {e}."));
            return;
        }
        // Its codes name what the code named, or what that game's codes name.
        let base = self
            .registry
            .code_base(&named)
            .map_or(named, |b| b.id().to_string());
        self.registry.set_code_base(&id, &base);
        let Some(entry) = self.registry.get(&id).cloned() else {
            return;
        };
        self.store
            .create_file(&file, &format!("the rules of {title}"), bytes);
        if let Some(name) = file.rsplit('/').next() {
            self.variant_files.insert(name.to_string());
        }
        self.slots.push(GameSlot::resumed(entry, None));
        self.groups = crate::slot::groups(&self.registry, &self.slots);
        let index = self.slots.len() - 1;
        self.go(Screen::Game(index));
        self.ask_start(Start {
            index,
            seed,
            daily: None,
        });
    }

    /// Tells the app the names of the files in the player's `variants/` folder, as read at
    /// start ([`crate::variants::file_names`]).
    pub(crate) fn know_variant_files(&mut self, names: std::collections::BTreeSet<String>) {
        self.variant_files = names;
    }

    fn toggle_theme(&mut self) {
        self.store.settings.theme = self.store.settings.theme.next();
        self.write_settings();
    }

    /// Queues a write of the settings as they stand (theme, zoom, autoplay's speed).
    fn write_settings(&mut self) {
        self.store.settings.zoom = self.zoom.percent();
        self.store.settings.speed = self.assist.speed;
        self.store.write_settings();
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
        if crate::chrome::win_waits(session, slot.tally) {
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

    /// Carries out `command` in game `index`.
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
            Command::Back => {
                let to = self.back_from(index);
                self.go(to);
            }
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
            Command::ToggleHelp => {
                slot.show_help = !slot.show_help;
                slot.help_shown = slot.help_shown.wrapping_add(u32::from(slot.show_help));
            }
            Command::NewGame => self.ask_new_game(index),
            Command::ShowCode => {
                if let Some(session) = slot.session.as_deref() {
                    self.dialog = Some(Dialog::ShowCode {
                        code: self.registry.code_of(session).to_string(),
                        copied: false,
                    });
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
        let slot = self.slots.get(index);
        let combination = slot.is_some_and(|s| self.registry.get(s.id()).is_none());
        let group = slot.map(|s| s.entry.info().group.clone());
        self.groups
            .iter()
            .position(|(title, members)| {
                (members.len() > 1 && members.contains(&index))
                    || (combination && group.as_deref() == Some(title.as_str()))
            })
            .map_or(Screen::Launcher, Screen::Group)
    }

    /// New game: at once when nothing would be lost, else after the player says yes. A game
    /// with a move played, or taken back and not yet redone, is in progress until it ends.
    fn ask_new_game(&mut self, index: usize) {
        if self.slots.get(index).is_some_and(GameSlot::in_progress) {
            self.ask(index, None);
        } else {
            self.new_game(index);
        }
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
        if slot.in_progress() {
            self.ask(start.index, Some(start));
        } else {
            self.start(start);
        }
    }

    /// Opens the new-game question over game `index`, which starts `start` (or a new game) on
    /// yes.
    fn ask(&mut self, index: usize, start: Option<Start>) {
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
    fn answer_new_game(&mut self, yes: bool) {
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
    fn start(&mut self, start: Start) {
        self.start_game(start.index, start.seed, start.daily);
    }

    /// Starts a new game of game `index` from a fresh seed ([`fresh_seed`]).
    fn new_game(&mut self, index: usize) {
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
            self.store.record_game(slot);
        }
        self.store.abandon(slot, moved);
        let started = match slot.session.as_deref_mut() {
            Some(session) => session.restart(seed),
            None => slot.entry.new_session(seed).map(|s| {
                slot.session = Some(s);
            }),
        };
        if let Err(e) = started {
            slot.message = Some(format!("A new game cannot start: {e}"));
            // The old game stays, counted and recorded: its save says so.
            self.store.save_game(slot);
            return;
        }
        slot.daily = daily;
        slot.duration_ms = 0;
        // A game already in the history (a daily game again, a code of a game played before)
        // is played knowing its tiles to come: it counts as assisted, so that no best, win or
        // daily best comes from foresight.
        // (Started while the history is read, it is known as such once it arrives.)
        let seen = slot.history.start(seed);
        let mut tally = crate::tally::Tally::default();
        if seen {
            tally.assist();
        }
        slot.reset_for_session(tally);
        self.store.save_game(slot);
    }

    /// Brings the score table up to date with game `index`: a new best is written at once. A
    /// game that has ended goes into the history (once: see [`crate::tally::Tally::recorded`]).
    fn record_status(&mut self, index: usize) {
        if let Some(slot) = self.slots.get_mut(index)
            && self.store.count(slot)
        {
            self.store.record_game(slot);
        }
    }

    /// Queues a write of the game in progress of game `index`, with its tally.
    fn save_game(&mut self, index: usize) {
        if let Some(slot) = self.slots.get(index) {
            self.store.save_game(slot);
        }
    }

    /// Shows the writes that failed since the last frame: under the board of the game they
    /// concern (or the game shown, for the scores), and in the launcher.
    fn report_failures(&mut self) {
        for failure in self.store.take_failures() {
            let text = format!(
                "{} could not be saved: {}",
                crate::chrome::capitalized(&failure.what),
                failure.error
            );
            let slot = self
                .slots
                .iter()
                .position(|s| {
                    saves::save_file_name(s.id()) == failure.name
                        || history_file_name(s.id()) == failure.name
                        || crate::variants::code_game_file(s.id()) == failure.name
                })
                .or(match self.current {
                    Current::Game(GameScreen { index }) if failure.name == SCORES_FILE => {
                        Some(index)
                    }
                    _ => None,
                });
            if let Some(slot) = slot.and_then(|i| self.slots.get_mut(i)) {
                slot.message = Some(text.clone());
            }
            self.notify(text);
        }
    }

    /// Quitting: while writes are pending, the window stays open (up to [`QUIT_WAIT`]), then
    /// says what could not be saved and lets the player quit anyway or keep playing.
    /// What is not saved yet, in words: the writer's files, and a player in training.
    fn unsaved(&self) -> Vec<String> {
        let mut unsaved = self.store.unsaved();
        if let Some(id) = self.trainer.running() {
            let title = self
                .slots
                .iter()
                .find(|s| s.id() == id)
                .map_or(id, |s| s.entry.title());
            unsaved.push(format!("the trained player of {title}"));
        }
        unsaved
    }

    /// In a page, renews the tab's lock (once a second); a tab that finds another took it while
    /// it slept writes nothing more from now on, and says so.
    fn renew_tab(&mut self, ctx: &egui::Context) {
        let Some(tab) = self.tab.as_mut() else {
            return;
        };
        // A frame each second at least, so that an idle tab keeps its lock.
        ctx.request_repaint_after(std::time::Duration::from_millis(crate::lock::TAB_RENEW_MS));
        if tab.renew(crate::lock::now_ms()) != crate::lock::Renewal::Lost {
            return;
        }
        self.store.stop_writes();
        self.notify(TAB_LOST);
        if let Current::Game(screen) = &self.current
            && let Some(slot) = self.slots.get_mut(screen.index)
        {
            slot.message = Some(TAB_LOST.to_string());
        }
    }

    fn handle_quit(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        // The player chose to quit without them: the window goes, whatever the writer does.
        if self.store.writes_abandoned() {
            return;
        }
        if ctx.input(|i| i.viewport().close_requested()) && self.quitting.is_none() {
            // A player in training is stopped and saved before the window goes (and trains on
            // if the player keeps playing after all).
            if let Some(id) = self.trainer.running() {
                self.stopped_for_quit = self
                    .slots
                    .iter()
                    .find(|s| s.id() == id)
                    .and_then(|s| crate::trainer::trainable(&s.entry))
                    .cloned();
                self.trainer.stop();
            }
            if self.unsaved().is_empty() {
                return;
            }
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.quitting = Some(now);
        }
        let Some(since) = self.quitting else {
            return;
        };
        let pending = self.unsaved();
        if pending.is_empty() {
            self.quitting = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        }
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
        let waited = now - since >= QUIT_WAIT.as_secs_f64();
        match dialogs::saving(ctx, &pending, waited) {
            Some(true) => {
                self.quitting = None;
                self.store.abandon_writes();
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
            Some(false) => {
                self.quitting = None;
                if let Some(variant) = self.stopped_for_quit.take() {
                    self.trainer.start(&variant);
                }
            }
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

impl Drop for TileboxApp {
    /// The window is gone (it waited for pending writes when it was closed): what is still
    /// queued gets one more bounded wait, so that the next start reads it, and a player in
    /// training is stopped and saved (a bounded wait too: past it, the run loses at most the
    /// minute since its last save).
    fn drop(&mut self) {
        self.store.flush(QUIT_WAIT);
        self.trainer.finish(TRAINING_QUIT_WAIT);
    }
}

impl eframe::App for TileboxApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let Some(log) = self.frame_times.as_mut() else {
            self.show(ui);
            return;
        };
        let lines = log.pass_begins(frame.info().cpu_usage);
        if !lines.is_empty() {
            use std::io::Write;
            let _ = writeln!(std::io::stderr().lock(), "{}", lines.join("\n"));
        }
        let (began, moves) = (web_time::Instant::now(), self.moves_played);
        self.show(ui);
        if let Some(log) = self.frame_times.as_mut() {
            log.pass_ends(began.elapsed(), self.moves_played > moves);
        }
    }

    /// The window is cleared to the panels' colour, so that the game screen's panels need not
    /// paint it again: without a GPU, each pixel painted costs time in every frame (a whole
    /// 1600×1200 window of panel fill was nearly half of the pixels of a game's frame).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        if let Some(log) = self.frame_times.as_mut() {
            log.begin(web_time::Instant::now(), raw_input);
        }
        self.cut_raw_input(raw_input);
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
    fn a_new_best_sends_the_writer_the_game_alone_never_the_table() {
        // A table of many games, with unknown fields of a newer release at both levels.
        let dir = tempfile::tempdir().unwrap();
        let mut games = serde_json::Map::new();
        for i in 0..5_000 {
            games.insert(
                format!("old-{i:05}"),
                serde_json::json!({"best": i, "played": 1, "won": 0, "later": [i]}),
            );
        }
        let file = serde_json::json!({"version": 1, "games": games, "newer": {"a": 1}});
        std::fs::write(dir.path().join(SCORES_FILE), file.to_string()).unwrap();
        let mut app = app_over(dir.path());
        let index = app.index_of("2048").unwrap();
        app.start_game(index, 1, None);
        let before = crate::scores::whole::times();
        // Play until the score rises: every rise is a new best of 2048, sent to the writer.
        let mut bests = 0;
        while app.scores().get("2048").best < 16 {
            let legal = app.slots[index].session.as_ref().unwrap().legal_moves();
            let best = app.scores().get("2048").best;
            app.play(index, &legal[0], 0.0);
            bests += usize::from(app.scores().get("2048").best > best);
        }
        assert!(bests > 0);
        // The window's thread neither copied nor serialized the table for any of them.
        assert_eq!(crate::scores::whole::times(), before);
        assert!(app.flush_writes(QUIT_WAIT).is_empty());
        let best = app.scores().get("2048").best;
        drop(app);
        let on_disk: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join(SCORES_FILE)).unwrap()).unwrap();
        // The writer wrote the new best into its copy of the whole table, every field kept.
        assert_eq!(on_disk["games"]["2048"]["best"], best);
        assert_eq!(on_disk["games"].as_object().unwrap().len(), 5_001);
        assert_eq!(
            on_disk["games"]["old-04321"]["later"],
            serde_json::json!([4321])
        );
        assert_eq!(on_disk["games"]["old-04321"]["best"], 4321);
        assert_eq!(on_disk["newer"], serde_json::json!({"a": 1}));
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
