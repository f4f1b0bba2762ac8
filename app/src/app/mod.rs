//! The shell: it holds the screen shown, the store, the registry and every game's slot, and
//! carries out what the screens ask for. Each frame it hands the frame's input to the screen
//! shown (keeping the keys after one that changes the screen for the screen it opens), lets it
//! draw itself, then carries out the `Action`s it returned, in order,
//! in one place: open and back, play a move, start a game, write. Game rules stay in the game
//! crates; undo, redo and the save form come from [`tilebox_core::DynSession`]; the files are
//! the `Store`'s.
//!
//! This module holds the shell's state and its frame; the rest is in its parts, each a block of
//! `impl TileboxApp`: `navigate` (the screen shown, opening one, Back, drawing it with what it is
//! lent), `actions` (carrying out each action and command), `games` (moves played, games
//! started after the new-game question, scores, history and saves kept up to date), `codes`
//! ("Play a code", and a code's game added), `quit` (failed writes, and the window that waits
//! for the writes at quitting) and `queries` (what `main`, the tests and the tools ask).

mod actions;
mod codes;
mod games;
mod navigate;
mod queries;
mod quit;
mod tab;

use std::path::PathBuf;

use tilebox_core::Registry;

use crate::Screen;
use crate::screens::dialogs::{Dialog, QuitWindow};
use crate::screens::game::GameScreen;
use crate::screens::launcher::LauncherScreen;
use crate::screens::replay::ReplayScreen;
use crate::screens::stats::StatsScreen;
use crate::slot::GameSlot;
use crate::store::Store;
use crate::store::settings::ThemeChoice;
use crate::store::storage::Storage;
use crate::store::writer::Writer;
use crate::ui::input;
use crate::ui::theme::Zoom;
use crate::work::assist::Assist;
use crate::work::trainer::Trainer;
use navigate::keep_focus_off_arrows;
pub use tab::TAB_LOST;

/// How long quitting waits for the writes still pending before it says what was not saved.
pub const QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// How long the app, once its window is gone, still waits for a player in training to be saved
/// (the window waited for it already, as for the files, up to [`QUIT_WAIT`] before it offered
/// to quit without it): past it, the run loses what it learned since its last save, a minute
/// at most.
pub const TRAINING_QUIT_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The screen shown, with its own state (the launcher's is the app's [`LauncherScreen`], which
/// lasts as long as the app).
enum Current {
    Launcher,
    Game(GameScreen),
    Stats(Box<StatsScreen>),
    Replay(ReplayScreen),
}

impl Current {
    /// Which screen this is; `launcher` is the app's launcher.
    fn id(&self, launcher: &LauncherScreen) -> Screen {
        match self {
            Current::Launcher => launcher.id(),
            Current::Game(s) => s.id(),
            Current::Stats(s) => s.id(),
            Current::Replay(s) => s.id(),
        }
    }

    /// The slot the screen shows, if it shows a game's.
    fn index(&self) -> Option<usize> {
        match self {
            Current::Launcher => None,
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
    /// The launcher, shown or not: it keeps the choices picked in its menus of options.
    launcher: LauncherScreen,
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
    /// The game whose board the last frame showed, and that frame's time: the time between
    /// frames is added to the game's duration.
    game_clock: Option<(usize, f64)>,
    /// The window that waits for the writes pending at quitting.
    quit_window: QuitWindow,
    /// The games' learning players, trained from their statistics screens.
    trainer: Trainer,
    /// The names of the files in the player's `variants/` folder, read at start, and of those
    /// the app created since: a game added from a code takes a name none of them has.
    variant_files: std::collections::BTreeSet<String>,
    /// Each frame's cost, logged when `TILEBOX_FRAME_TIMES` asks for it.
    frame_times: Option<crate::work::frame_times::FrameTimes>,
    /// In a page, the tab's lock on the browser's storage ([`crate::store::lock::TabLock`]).
    tab: Option<crate::store::lock::TabLock>,
    /// Moves played since the start: whether a frame played one.
    moves_played: u64,
}

impl TileboxApp {
    /// The app over the games of [`tilebox_games::registry`] and the player's variant files of
    /// `data_dir` (`variants/`, each file refused a notice: [`crate::store::variants`]), keeping
    /// its files in `data_dir`, opening game `start_game` directly if given (an unknown id opens
    /// the launcher).
    pub fn new(data_dir: impl Into<PathBuf>, start_game: Option<&str>) -> Self {
        Self::with_player_variants(data_dir, start_game)
    }

    /// The app over the catalogue with the player's variants of `data_dir`
    /// ([`crate::store::variants::player_registry`], a notice per file refused), keeping its
    /// files in `data_dir`, opening game `start_game` directly if given.
    pub fn with_player_variants(data_dir: impl Into<PathBuf>, start_game: Option<&str>) -> Self {
        let data_dir = data_dir.into();
        let (registry, notices, players) = crate::store::variants::player_registry(&data_dir);
        let files = crate::store::variants::file_names(&data_dir);
        let mut app = Self::with_registry(registry, data_dir, start_game);
        app.know_variant_files(files);
        app.share_players(players);
        for notice in notices {
            app.notify(notice);
        }
        app
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
    /// start-up (`Store::open`). The caller holds the data directory's lock
    /// ([`crate::store::lock`]), or gives a storage that writes nothing. The AI works as the
    /// writer does ([`Writer::mode`]): on threads, or on the frame.
    pub fn with_writer(registry: Registry, writer: Writer, start_game: Option<&str>) -> Self {
        let mut notices = Vec::new();
        let entries = registry
            .entries()
            .iter()
            .cloned()
            .chain(registry.combinations())
            .collect::<Vec<_>>();
        let mode = writer.mode();
        let (store, games) = Store::open(writer, entries, &mut notices);
        let slots: Vec<GameSlot> = games
            .into_iter()
            .map(|(entry, resumed)| GameSlot::resumed(entry, resumed))
            .collect();
        // Nothing is trained where nothing is saved.
        let players = store
            .nothing_saved()
            .is_none()
            .then(|| tilebox_ai::ntuple::players::Players::in_app_dir(store.dir()));
        let mut assist = Assist::in_mode(mode);
        assist.speed = store.settings.speed;
        let zoom = Zoom::from_percent(store.settings.zoom);
        let mut app = Self {
            groups: crate::slot::groups(&registry, &slots),
            registry,
            store,
            slots,
            launcher: LauncherScreen::new(None),
            current: Current::Launcher,
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
            game_clock: None,
            quit_window: QuitWindow::default(),
            trainer: Trainer::new(players),
            variant_files: std::collections::BTreeSet::new(),
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
        crate::ui::theme::hold_focus_in_dialog(&ctx);
        self.store.set_waker(&ctx);
        // The lock first: a tab that lost it retries no held write.
        self.renew_tab(&ctx);
        self.store.tick();
        let arrived = self.store.arrived_histories();
        self.take_histories(arrived);
        self.count_time(&ctx);
        self.report_failures();
        self.trainer.receive();
        let theme = self.store.settings.theme;
        if self.theme_applied != Some(theme) {
            crate::ui::theme::install(&ctx);
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
mod tests;
