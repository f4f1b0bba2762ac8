//! The shell: screens, commands, scores and saves. Game rules stay in the game crates; undo,
//! redo and saves come from [`DynSession`].

use std::path::PathBuf;

use egui::{Align2, Color32, FontId, Id, Key, Modifiers, RichText, Vec2};
use serde::{Deserialize, Serialize};
use tilebox_core::{DynSession, GameEntry, Registry, SAVE_FORMAT, SavedGame};

use crate::advisor::{self, Advisor, Speed};
use crate::help;
use crate::launcher;
use crate::scores::Scores;
use crate::storage::{ReadOutcome, Storage, notice};
use crate::theme::ThemeChoice;
use crate::views::{self, KeyPress, ViewState};

/// The settings file (theme choice).
pub const SETTINGS_FILE: &str = "settings.json";

/// How long the rising "+N" above the score lasts, in seconds.
const SCORE_POP_SECONDS: f64 = 0.8;

/// Which screen is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The list of games.
    Launcher,
    /// The game at this index of the registry.
    Game(usize),
}

/// What `settings.json` holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Settings {
    version: u32,
    #[serde(default)]
    theme: ThemeChoice,
}

/// One registered game and everything the app holds for it.
pub(crate) struct GameSlot {
    /// How to make and load sessions of this game.
    pub entry: GameEntry,
    /// The game being played, made when the game is first opened.
    pub session: Option<Box<dyn DynSession>>,
    /// This game has been counted in `played` already.
    pub counted_played: bool,
    /// This game has been counted in `won` already.
    pub counted_won: bool,
    /// The player has seen the win and chose to keep going.
    pub win_acknowledged: bool,
    /// The "start a new game?" question is open.
    pub confirm_new: bool,
    /// The "How to play" panel is open.
    pub show_help: bool,
    /// The view's own state (animations, selection, drag).
    pub view: ViewState,
    /// The rising "+N" of the score: (start time, points).
    pub score_pop: Option<(f64, u64)>,
    /// A short message under the board (refused input, a write that failed).
    pub message: Option<String>,
    /// Autoplay is on.
    pub autoplay: bool,
}

impl GameSlot {
    fn id(&self) -> &'static str {
        self.entry.info.id
    }

    /// Marks a fresh or just loaded session: counts and the win screen follow its status.
    fn reset_for_session(&mut self) {
        let status = self
            .session
            .as_ref()
            .map(|s| s.status())
            .unwrap_or_default();
        self.counted_played = status.over;
        self.counted_won = status.won;
        self.win_acknowledged = status.won;
        self.confirm_new = false;
        self.score_pop = None;
        self.message = None;
        self.autoplay = false;
        self.view = self
            .session
            .as_deref()
            .map(ViewState::for_session)
            .unwrap_or_default();
    }
}

/// A command the shell understands, from a key or a button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Back,
    NewGame,
    Undo,
    Redo,
    ToggleHelp,
    ToggleTheme,
    Hint,
    ToggleAutoplay,
}

/// What the question in flight to the [`Advisor`] is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    /// The game asked about.
    index: usize,
    /// Its move count when asked: an answer for another position is dropped.
    moves: usize,
    /// A hint to show (else a move for autoplay).
    hint: bool,
}

/// The Tilebox app: the launcher and every game of the registry.
pub struct TileboxApp {
    registry: Registry,
    storage: Storage,
    scores: Scores,
    slots: Vec<GameSlot>,
    screen: Screen,
    notices: Vec<String>,
    theme: ThemeChoice,
    theme_applied: Option<ThemeChoice>,
    /// The AI for hints and autoplay, on its own thread.
    advisor: Advisor,
    /// What the advisor is working on.
    asked: Option<Asked>,
    /// Autoplay's speed.
    speed: Speed,
    /// When autoplay may ask for its next move (app time, seconds).
    next_auto_at: f64,
}

impl TileboxApp {
    /// The app over the games of [`tilebox_games::registry`], keeping its files in `data_dir`,
    /// opening game `start_game` directly if given (an unknown id opens the launcher).
    pub fn new(data_dir: impl Into<PathBuf>, start_game: Option<&str>) -> Self {
        Self::with_registry(tilebox_games::registry(), data_dir, start_game)
    }

    /// The app over the games of `registry`.
    pub fn with_registry(
        registry: Registry,
        data_dir: impl Into<PathBuf>,
        start_game: Option<&str>,
    ) -> Self {
        let storage = Storage::new(data_dir);
        let mut notices = Vec::new();
        let (scores, scores_notice) = Scores::load(&storage);
        notices.extend(scores_notice);

        let settings_outcome = storage.read_json(SETTINGS_FILE, |s: &Settings| {
            if s.version == 1 {
                Ok(())
            } else {
                Err(format!("version {} is not supported", s.version))
            }
        });
        notices.extend(notice("The settings (settings.json)", &settings_outcome));
        let theme = match settings_outcome {
            ReadOutcome::Loaded(s) => s.theme,
            _ => ThemeChoice::System,
        };

        let slots = registry
            .games()
            .iter()
            .map(|entry| {
                let session = load_saved_game(&storage, entry, &mut notices);
                let mut slot = GameSlot {
                    entry: *entry,
                    session,
                    counted_played: false,
                    counted_won: false,
                    win_acknowledged: false,
                    confirm_new: false,
                    show_help: false,
                    view: ViewState::default(),
                    score_pop: None,
                    message: None,
                    autoplay: false,
                };
                slot.reset_for_session();
                slot
            })
            .collect();

        let mut app = Self {
            registry,
            storage,
            scores,
            slots,
            screen: Screen::Launcher,
            notices,
            theme,
            theme_applied: None,
            advisor: Advisor::new(),
            asked: None,
            speed: Speed::default(),
            next_auto_at: 0.0,
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

    /// The screen shown now.
    pub fn screen(&self) -> Screen {
        self.screen
    }

    /// The id of the game shown now, if any.
    pub fn current_game(&self) -> Option<&'static str> {
        match self.screen {
            Screen::Game(i) => self.slots.get(i).map(GameSlot::id),
            Screen::Launcher => None,
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

    /// Whether autoplay is on in game `id`.
    pub fn autoplay(&self, id: &str) -> bool {
        self.slot_by_id(id).is_some_and(|s| s.autoplay)
    }

    /// Whether the AI is thinking about a hint or an autoplay move.
    pub fn thinking(&self) -> bool {
        self.asked.is_some()
    }

    /// The theme choice.
    pub fn theme(&self) -> ThemeChoice {
        self.theme
    }

    /// The games, as the launcher lists them.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    fn index_of(&self, id: &str) -> Option<usize> {
        self.slots.iter().position(|s| s.id() == id)
    }

    fn slot_by_id(&self, id: &str) -> Option<&GameSlot> {
        self.slots.iter().find(|s| s.id() == id)
    }

    /// Opens game `index`, starting a game if none is in progress.
    pub(crate) fn open(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if slot.session.is_none() {
            match slot.entry.new_session(rand::random::<u64>()) {
                Ok(session) => {
                    slot.session = Some(session);
                    slot.reset_for_session();
                }
                Err(e) => {
                    self.notices
                        .push(format!("{} cannot start: {e}", slot.entry.info.title));
                    return;
                }
            }
        }
        self.screen = Screen::Game(index);
        self.save_game(index);
    }

    /// Draws the whole app into `ui` and handles its input. `eframe::App::ui` calls this.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if self.theme_applied != Some(self.theme) {
            ui.ctx().set_theme(self.theme.preference());
            self.theme_applied = Some(self.theme);
        }
        match self.screen {
            Screen::Launcher => self.show_launcher(ui),
            Screen::Game(index) => self.show_game(ui, index),
        }
    }

    fn show_launcher(&mut self, ui: &mut egui::Ui) {
        let keys = read_keys(ui.ctx());
        let mut open = None;
        let mut toggle_theme = false;
        for k in &keys {
            if k.modifiers.is_none() || k.modifiers == Modifiers::SHIFT {
                if let Some(d) = views::digit_of(k.key) {
                    let i = usize::from(d).wrapping_sub(1);
                    if i < self.slots.len() {
                        open = Some(i);
                    }
                }
                if k.key == Key::T {
                    toggle_theme = true;
                }
            }
        }
        let action = launcher::show(ui, &self.slots, &self.scores, &mut self.notices, self.theme);
        match action {
            launcher::Action::Open(i) => open = Some(i),
            launcher::Action::ToggleTheme => toggle_theme = true,
            launcher::Action::None => {}
        }
        if toggle_theme {
            self.toggle_theme();
        }
        if let Some(i) = open {
            self.open(i);
        }
    }

    fn toggle_theme(&mut self) {
        self.theme = self.theme.next();
        let settings = Settings {
            version: 1,
            theme: self.theme,
        };
        if let Err(e) = self.storage.write_json(SETTINGS_FILE, &settings) {
            self.notices
                .push(format!("The theme could not be saved: {e}"));
        }
    }

    fn show_game(&mut self, ui: &mut egui::Ui, index: usize) {
        let ctx = ui.ctx().clone();
        let Some(slot) = self.slots.get(index) else {
            self.screen = Screen::Launcher;
            return;
        };
        let modal_open = slot.confirm_new;
        let mut keys = if modal_open {
            Vec::new()
        } else {
            read_keys(&ctx)
        };
        let mut commands = Vec::new();
        // In a game without hjkl moves, a plain H asks for a hint too.
        let plain_h_hints = matches!(slot.view, ViewState::Strike9(_));
        keys.retain(|k| match command_of(*k) {
            Some(c) => {
                commands.push(c);
                false
            }
            None if plain_h_hints && k.key == Key::H && k.modifiers.is_none() => {
                commands.push(Command::Hint);
                false
            }
            None => true,
        });

        // The top bar.
        let best = self.scores.get(slot.id()).best;
        egui::Panel::top("game-top").show(ui, |ui| {
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                if ui
                    .button("Back")
                    .on_hover_text("Back to the games (Escape)")
                    .clicked()
                {
                    commands.push(Command::Back);
                }
                ui.heading(RichText::new(slot.entry.info.title).strong());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui
                        .button(self.theme.label())
                        .on_hover_text("Switch between the system's, a light and a dark theme (T)")
                        .clicked()
                    {
                        commands.push(Command::ToggleTheme);
                    }
                    if ui
                        .selectable_label(slot.show_help, "How to play")
                        .on_hover_text("Rules and controls (F1)")
                        .clicked()
                    {
                        commands.push(Command::ToggleHelp);
                    }
                    let session = slot.session.as_deref();
                    let can_redo = session.is_some_and(|s| s.can_redo());
                    let can_undo = session.is_some_and(|s| s.can_undo());
                    if ui
                        .add_enabled(can_redo, egui::Button::new("Redo"))
                        .on_hover_text("Ctrl+Y or Shift+U")
                        .clicked()
                    {
                        commands.push(Command::Redo);
                    }
                    if ui
                        .add_enabled(can_undo, egui::Button::new("Undo"))
                        .on_hover_text("Ctrl+Z or U")
                        .clicked()
                    {
                        commands.push(Command::Undo);
                    }
                    if ui
                        .button("New game")
                        .on_hover_text("Start a new game (N)")
                        .clicked()
                    {
                        commands.push(Command::NewGame);
                    }
                });
            });
            ui.add_space(2.0);
            ui.horizontal(|ui| {
                let score = slot.session.as_ref().map_or(0, |s| s.score());
                score_box(ui, "Score", score, slot.score_pop);
                score_box(ui, "Best", best.max(score), None);
                let session = slot.session.as_deref();
                let over = session.is_none_or(|s| s.status().over);
                let plays = session.is_some_and(Advisor::plays);
                let hints = plays || matches!(slot.view, ViewState::Strike9(_));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if plays {
                        let mut speed = self.speed;
                        egui::ComboBox::from_id_salt("autoplay-speed")
                            .selected_text(speed.label())
                            .width(80.0)
                            .show_ui(ui, |ui| {
                                for s in Speed::ALL {
                                    ui.selectable_value(&mut speed, s, s.label());
                                }
                            })
                            .response
                            .on_hover_text("Autoplay's speed")
                            .widget_info(|| {
                                egui::WidgetInfo::labeled(
                                    egui::Role::ComboBox,
                                    true,
                                    "Autoplay speed",
                                )
                            });
                        self.speed = speed;
                        if ui
                            .add_enabled(
                                !over || slot.autoplay,
                                egui::Button::selectable(slot.autoplay, "Autoplay"),
                            )
                            .on_hover_text("Let the AI play until you stop it (Shift+A)")
                            .clicked()
                        {
                            commands.push(Command::ToggleAutoplay);
                        }
                    }
                    if hints
                        && ui
                            .add_enabled(!over && !slot.autoplay, egui::Button::new("Hint"))
                            .on_hover_text("Show the best move (Shift+H)")
                            .clicked()
                    {
                        commands.push(Command::Hint);
                    }
                    if self.asked.is_some_and(|a| a.index == index && a.hint) {
                        ui.spinner();
                        ui.label("Thinking...");
                    }
                });
            });
            ui.add_space(4.0);
        });

        if slot.show_help {
            egui::Panel::bottom("game-help").show(ui, |ui| {
                ui.add_space(4.0);
                ui.label(RichText::new("How to play").strong());
                ui.label(help::how_to_play(slot.id()));
                ui.add_space(2.0);
                ui.label(RichText::new(help::COMMON_CONTROLS).small());
                if let Some(text) = help::assist_controls(slot.id()) {
                    ui.label(RichText::new(text).small());
                }
                ui.add_space(4.0);
            });
        }

        let now = ctx.input(|i| i.time);
        self.drive_assist(&ctx, index, now);

        let mut played = false;
        let mut gained = 0;
        let mut overlay_action = None;
        let slot = &mut self.slots[index];
        egui::CentralPanel::default().show(ui, |ui| {
            let Some(session) = slot.session.as_deref_mut() else {
                ui.label("This game could not be started.");
                return;
            };
            let before = session.score();
            let out = views::show(ui, session, &mut slot.view, &keys);
            played = out.played;
            gained = session.score().saturating_sub(before);
            if let Some(m) = out.message {
                slot.message = Some(m);
            } else if out.played {
                slot.message = None;
            }
            if let Some(m) = &slot.message {
                ui.vertical_centered(|ui| {
                    ui.label(RichText::new(m.as_str()).color(ui.visuals().warn_fg_color));
                });
            }
            overlay_action = end_overlay(ui, out.board, session, slot.win_acknowledged);
        });
        if let Some(pop) = slot.score_pop
            && ctx.input(|i| i.time) - pop.0 < SCORE_POP_SECONDS
        {
            ctx.request_repaint();
        }

        if played {
            self.after_move(index, gained, now);
        }
        match overlay_action {
            Some(OverlayAction::KeepGoing) => self.slots[index].win_acknowledged = true,
            Some(OverlayAction::NewGame) => self.new_game(index),
            Some(OverlayAction::Undo) => commands.push(Command::Undo),
            None => {}
        }
        for command in commands {
            self.run(&ctx, index, command);
        }
        self.show_confirm_new(&ctx, index);
    }

    fn run(&mut self, ctx: &egui::Context, index: usize, command: Command) {
        if command != Command::ToggleHelp && command != Command::ToggleTheme {
            // Anything else the player does takes the game back from the AI.
            if command != Command::ToggleAutoplay {
                self.stop_autoplay(index);
            }
        }
        match command {
            Command::Back => self.screen = Screen::Launcher,
            Command::Hint => self.hint(ctx, index),
            Command::ToggleAutoplay => {
                if self.slots.get(index).is_some_and(|s| s.autoplay) {
                    self.stop_autoplay(index);
                } else {
                    self.start_autoplay(index);
                }
            }
            Command::ToggleTheme => self.toggle_theme(),
            Command::ToggleHelp => {
                if let Some(slot) = self.slots.get_mut(index) {
                    slot.show_help = !slot.show_help;
                }
            }
            Command::NewGame => self.ask_new_game(index),
            Command::Undo | Command::Redo => {
                let Some(slot) = self.slots.get_mut(index) else {
                    return;
                };
                let Some(session) = slot.session.as_deref_mut() else {
                    return;
                };
                let changed = if command == Command::Undo {
                    session.undo()
                } else {
                    session.redo()
                };
                if changed {
                    slot.view = ViewState::for_session(session);
                    slot.score_pop = None;
                    slot.message = None;
                    if command == Command::Redo {
                        // A redone move can end or win the game like any other.
                        self.record_status(index);
                    }
                    self.save_game(index);
                }
            }
        }
    }

    /// Shows the best move: at once for Strike 9 (the exact table), after a search on the
    /// advisor's thread for the sliding games.
    fn hint(&mut self, ctx: &egui::Context, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if session.status().over {
            slot.message = Some("The game is over: no hint to give.".to_string());
            return;
        }
        if let ViewState::Strike9(view) = &mut slot.view {
            slot.message = view.show_hint(session);
        } else if self
            .advisor
            .ask(session, advisor::HINT_TIME, Some(ctx.clone()))
        {
            self.asked = Some(Asked {
                index,
                moves: session.move_count(),
                hint: true,
            });
        } else {
            slot.message = Some(format!("No hints for {}.", slot.entry.info.title));
        }
    }

    fn start_autoplay(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if slot.session.as_deref().is_some_and(Advisor::plays) {
            slot.autoplay = true;
            slot.message = None;
            self.next_auto_at = 0.0;
        }
    }

    /// Stops autoplay in game `index` and drops any answer on its way.
    fn stop_autoplay(&mut self, index: usize) {
        if let Some(slot) = self.slots.get_mut(index) {
            slot.autoplay = false;
        }
        if self.asked.is_some_and(|a| a.index == index) {
            self.asked = None;
            self.advisor.cancel();
        }
    }

    /// Takes the advisor's answer, if one came, and asks for autoplay's next move when its time
    /// has come.
    fn drive_assist(&mut self, ctx: &egui::Context, index: usize, now: f64) {
        if let Some(answer) = self.advisor.poll()
            && let Some(asked) = self.asked.take()
            && let Some(slot) = self.slots.get_mut(asked.index)
            && let Some(session) = slot.session.as_deref()
            && session.move_count() == asked.moves
            && let ViewState::Sliding(view) = &mut slot.view
        {
            match (answer, asked.hint) {
                (Some(dir), true) => view.set_hint(dir),
                (Some(dir), false) => {
                    view.queue(dir);
                    ctx.request_repaint();
                }
                (None, _) => slot.autoplay = false,
            }
        }
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if !slot.autoplay || self.asked.is_some() {
            return;
        }
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        let status = session.status();
        if status.over {
            slot.autoplay = false;
            return;
        }
        if (status.won && !slot.win_acknowledged) || slot.confirm_new {
            // Wait for the player's answer to the win or the question.
            return;
        }
        let ViewState::Sliding(view) = &slot.view else {
            return;
        };
        if let Some(pause) = self.speed.pause() {
            if view.busy(now) {
                // The pause runs from the end of the move's animation.
                self.next_auto_at = now + pause;
                return;
            }
            if now < self.next_auto_at {
                ctx.request_repaint_after(std::time::Duration::from_secs_f64(
                    self.next_auto_at - now,
                ));
                return;
            }
        }
        if self
            .advisor
            .ask(session, self.speed.think(), Some(ctx.clone()))
        {
            self.asked = Some(Asked {
                index,
                moves: session.move_count(),
                hint: false,
            });
        } else {
            slot.autoplay = false;
        }
    }

    /// New game: at once when nothing would be lost, else after the player says yes.
    fn ask_new_game(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let in_progress = slot
            .session
            .as_deref()
            .is_some_and(|s| s.move_count() > 0 && !s.status().over);
        if in_progress {
            slot.confirm_new = true;
        } else {
            self.new_game(index);
        }
    }

    fn show_confirm_new(&mut self, ctx: &egui::Context, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        if !slot.confirm_new {
            return;
        }
        let mut answer = None;
        let modal = egui::Modal::new(Id::unique(("confirm-new", index))).show(ctx, |ui| {
            ui.set_max_width(320.0);
            ui.heading("Start a new game?");
            ui.label(format!(
                "The game in progress (score {}) will end and count as played.",
                slot.session.as_ref().map_or(0, |s| s.score())
            ));
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Yes, start a new game").clicked() {
                    answer = Some(true);
                }
                if ui.button("No, keep playing").clicked() {
                    answer = Some(false);
                }
            });
            if ui.input(|i| i.key_pressed(Key::Enter)) {
                answer = Some(true);
            }
        });
        if modal.should_close() && answer.is_none() {
            answer = Some(false);
        }
        match answer {
            Some(true) => {
                slot.confirm_new = false;
                self.new_game(index);
            }
            Some(false) => slot.confirm_new = false,
            None => {}
        }
    }

    /// Starts a new game of game `index`; the one it replaces counts as played if it had a move.
    fn new_game(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let id = slot.id();
        if let Some(session) = slot.session.as_deref()
            && session.move_count() > 0
            && !slot.counted_played
        {
            self.scores.entry(id).played += 1;
            slot.counted_played = true;
            self.write_scores();
        }
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let seed = rand::random::<u64>();
        match slot.session.as_deref_mut() {
            Some(session) => {
                if let Err(e) = session.restart(seed) {
                    slot.message = Some(format!("A new game cannot start: {e}"));
                    return;
                }
            }
            None => match slot.entry.new_session(seed) {
                Ok(session) => slot.session = Some(session),
                Err(e) => {
                    slot.message = Some(format!("A new game cannot start: {e}"));
                    return;
                }
            },
        }
        slot.reset_for_session();
        self.save_game(index);
    }

    /// After a move: the "+N", the best score, played and won counts, and the save.
    fn after_move(&mut self, index: usize, gained: u64, now: f64) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        slot.score_pop = (gained > 0).then_some((now, gained));
        self.record_status(index);
        self.save_game(index);
    }

    /// Brings the score table up to date with game `index`: a new best is written at once.
    fn record_status(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        let id = slot.id();
        let status = session.status();
        let score = session.score();
        let stats = self.scores.entry(id);
        let mut dirty = false;
        if score > stats.best {
            stats.best = score;
            dirty = true;
        }
        if status.won && !slot.counted_won {
            stats.won += 1;
            slot.counted_won = true;
            dirty = true;
        }
        if status.over && !slot.counted_played {
            stats.played += 1;
            slot.counted_played = true;
            dirty = true;
        }
        if dirty {
            self.write_scores();
        }
    }

    fn write_scores(&mut self) {
        match self.scores.save_merged(&self.storage) {
            Ok(Some(message)) => self.notices.push(message),
            Ok(None) => {}
            Err(e) => self
                .notices
                .push(format!("The scores could not be saved: {e}")),
        }
    }

    /// Writes the game in progress of game `index` to `saves/<id>.json`.
    fn save_game(&mut self, index: usize) {
        let Some(slot) = self.slots.get_mut(index) else {
            return;
        };
        let Some(session) = slot.session.as_deref() else {
            return;
        };
        if let Err(e) = self
            .storage
            .write_json(&save_file_name(slot.id()), &session.save())
        {
            slot.message = Some(format!("The game could not be saved: {e}"));
        }
    }
}

impl eframe::App for TileboxApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// The file, inside the data directory, that holds the game in progress of game `id`.
pub fn save_file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("saves/{safe}.json")
}

/// Reads the saved game of `entry`, moving the file aside if it cannot be resumed.
fn load_saved_game(
    storage: &Storage,
    entry: &GameEntry,
    notices: &mut Vec<String>,
) -> Option<Box<dyn DynSession>> {
    let name = save_file_name(entry.info.id);
    let what = format!("The saved game of {}", entry.info.title);
    let outcome = storage.read_json(&name, |saved: &SavedGame| {
        if saved.format != SAVE_FORMAT {
            Err(format!("save format {} is not supported", saved.format))
        } else if saved.game != entry.info.id {
            Err(format!("it is a game of '{}'", saved.game))
        } else {
            Ok(())
        }
    });
    let outcome = match outcome {
        ReadOutcome::Loaded(saved) => match entry.load(&saved) {
            Ok(session) => return Some(session),
            Err(e) => storage.quarantine::<SavedGame>(&name, e.to_string()),
        },
        other => other,
    };
    notices.extend(notice(&what, &outcome));
    None
}

/// The key presses of this frame, in order.
fn read_keys(ctx: &egui::Context) -> Vec<KeyPress> {
    ctx.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Key {
                    key,
                    pressed: true,
                    modifiers,
                    ..
                } => Some(KeyPress {
                    key: *key,
                    modifiers: *modifiers,
                }),
                _ => None,
            })
            .collect()
    })
}

/// The shell's command for a key, if it is one.
fn command_of(k: KeyPress) -> Option<Command> {
    let m = k.modifiers;
    let ctrl = m.ctrl || m.command || m.mac_cmd;
    match k.key {
        Key::Escape => Some(Command::Back),
        Key::Z if ctrl && m.shift => Some(Command::Redo),
        Key::Z if ctrl => Some(Command::Undo),
        Key::Y if ctrl => Some(Command::Redo),
        Key::U if m.shift && !ctrl => Some(Command::Redo),
        Key::U if !ctrl => Some(Command::Undo),
        Key::N if !ctrl => Some(Command::NewGame),
        Key::F1 => Some(Command::ToggleHelp),
        Key::T if !ctrl => Some(Command::ToggleTheme),
        Key::H if m.shift && !ctrl => Some(Command::Hint),
        Key::A if m.shift && !ctrl => Some(Command::ToggleAutoplay),
        _ => None,
    }
}

/// A score box: name and number, with a rising "+N" after points are won.
fn score_box(ui: &mut egui::Ui, name: &str, value: u64, pop: Option<(f64, u64)>) {
    let text = format!("{name}: {value}");
    let frame = egui::Frame::group(ui.style()).inner_margin(Vec2::new(10.0, 4.0));
    let response = frame
        .show(ui, |ui| {
            ui.label(RichText::new(text).size(18.0).strong());
        })
        .response;
    if let Some((start, gained)) = pop {
        let t = ui.input(|i| i.time) - start;
        if (0.0..SCORE_POP_SECONDS).contains(&t) {
            let p = (t / SCORE_POP_SECONDS) as f32;
            let alpha = ((1.0 - p) * 255.0) as u8;
            let pos = response.rect.right_center() + Vec2::new(8.0, -14.0 * p);
            ui.painter().text(
                pos,
                Align2::LEFT_CENTER,
                format!("+{gained}"),
                FontId::proportional(18.0),
                Color32::from_rgba_unmultiplied(237, 160, 40, alpha),
            );
        }
    }
}

/// What the player chose on the game-over or win overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OverlayAction {
    KeepGoing,
    NewGame,
    Undo,
}

/// Draws the win (once) or game-over message over the board.
fn end_overlay(
    ui: &mut egui::Ui,
    board: Option<egui::Rect>,
    session: &dyn DynSession,
    win_acknowledged: bool,
) -> Option<OverlayAction> {
    let board = board?;
    let status = session.status();
    let show_win = status.won && !win_acknowledged && !status.over;
    if !status.over && !show_win {
        return None;
    }
    let dark = ui.visuals().dark_mode;
    let veil = if dark {
        Color32::from_black_alpha(150)
    } else {
        Color32::from_white_alpha(170)
    };
    ui.painter().rect_filled(board, 8.0, veil);
    let (title, detail) = if show_win {
        (
            "You win!".to_string(),
            format!("Score {}. Keep going for a higher score?", session.score()),
        )
    } else {
        let title = if status.won { "You win!" } else { "Game over" };
        (
            title.to_string(),
            format!(
                "{} Final score: {}.",
                views::end_text(session),
                session.score()
            ),
        )
    };
    let mut action = None;
    let inner =
        egui::Rect::from_center_size(board.center(), Vec2::new(board.width().min(340.0), 170.0));
    ui.scope_builder(egui::UiBuilder::new().max_rect(inner), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.heading(RichText::new(title).size(26.0).strong());
                ui.label(detail);
                ui.add_space(6.0);
                // One button under the other, both centred.
                let buttons = if show_win {
                    [
                        ("Keep going", OverlayAction::KeepGoing),
                        ("Start a new game", OverlayAction::NewGame),
                    ]
                } else {
                    [
                        ("Play again", OverlayAction::NewGame),
                        ("Take back the last move", OverlayAction::Undo),
                    ]
                };
                for (label, choice) in buttons {
                    if ui.button(label).clicked() {
                        action = Some(choice);
                    }
                }
            });
        });
    });
    action
}
