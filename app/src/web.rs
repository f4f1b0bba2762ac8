//! The app in a browser page: the same [`TileboxApp`] as on the desktop, its files kept in the
//! browser's storage (`Storage::in_keys` over [`LocalStorage`]), its work on the frame, one tab
//! at a time writing ([`TileboxApp::for_the_web`]). The web entry (`web/src/page.rs`) runs
//! [`WebApp`].
//!
//! The page's address's fragment opens a game: `index.html#threes` opens Threes, as `tilebox
//! threes` does on the desktop. Each frame the page's `<body>` is told what the app shows, as
//! attributes that a test (`tools/web/test_page.py`) or a browser extension reads without
//! looking into the canvas:
//! - `data-frames`: frames drawn; `data-first-frame-ms`: when the first was, in milliseconds
//!   from the start of the page's navigation;
//! - `data-screen`: `launcher`, `group`, `game`, `stats`, `replay` (or `refused` in a second
//!   tab); `data-dialog`: the dialog open, if one is (`new-game`, `code`, `play-code`,
//!   `add-game`);
//! - `data-game`, `data-moves`, `data-score`: the id of the game shown, and its moves and score
//!   so far;
//! - `data-games`, once: every game's id.
//!
//! The tab's title names the game shown.

use std::sync::Arc;

use crate::TileboxApp;
use crate::screens::Screen;
use crate::store::keys::{Keys, LocalStorage};
use crate::ui::refusal::AlreadyRunning;

/// The app of a page: the app, or, where another tab of the browser has it open, the window
/// that says so.
pub struct WebApp {
    shown: Shown,
    frames: u64,
    /// The page's address's fragment as last read (`#2048`): a new one opens that game.
    hash: String,
    /// What the body's attributes and the title say, as last set.
    told: Option<Told>,
}

/// What the page's `<body>` is told of the app shown.
#[derive(Debug, Clone, PartialEq)]
struct Told {
    screen: Screen,
    game: Option<String>,
    moves: usize,
    score: u64,
    dialog: Option<&'static str>,
}

/// What a page shows.
enum Shown {
    App(Box<TileboxApp>),
    Refused(AlreadyRunning),
}

impl WebApp {
    /// The app of the page of tab `tab` (an id of its own), over the browser's storage: the
    /// catalogue with the player's variant files kept there, the writes and the AI's searches on
    /// the frame, and the tab's lock; or the window saying another tab has it.
    pub fn new(tab: &str) -> Self {
        let keys: Arc<dyn Keys> = Arc::new(LocalStorage);
        let (registry, notices, names) = crate::store::variants::registry_in_keys(&*keys);
        let shown = match TileboxApp::for_the_web(
            registry,
            keys,
            tab,
            crate::store::clock::unix_ms(),
            None,
        ) {
            Ok(mut app) => {
                app.know_variant_files(names);
                for notice in notices {
                    app.notify(notice);
                }
                Shown::App(Box::new(app))
            }
            Err(window) => Shown::Refused(window),
        };
        Self {
            shown,
            frames: 0,
            hash: String::new(),
            told: None,
        }
    }

    /// Opens the game the page's address names after `#` (`index.html#threes`), when it
    /// changes: a link to a game, as `tilebox threes` is on the desktop. An id no game has is
    /// said in the launcher.
    fn follow_hash(&mut self) {
        let Shown::App(app) = &mut self.shown else {
            return;
        };
        let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else {
            return;
        };
        if hash == self.hash {
            return;
        }
        self.hash = hash;
        let id = self.hash.trim_start_matches('#');
        if !id.is_empty() && !app.open_game(id) {
            app.notify(format!(
                "The page's address names the game {}, which Tilebox does not have.",
                tilebox_core::json_words::quote(id)
            ));
        }
    }

    /// Sets the body's attributes and the title to what the app shows, where that changed.
    fn tell(&mut self) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Some(body) = document.body() else {
            return;
        };
        let _ = body.set_attribute("data-frames", &self.frames.to_string());
        if self.frames == 1
            && let Shown::App(app) = &self.shown
        {
            // Every game's id, as `tilebox-cli list` gives them.
            let _ = body.set_attribute("data-games", &app.registry().ids().join(" "));
        }
        if self.frames == 1
            && let Some(now) = web_sys::window()
                .and_then(|w| w.performance())
                .map(|p| p.now())
        {
            // The page's own clock, from the start of its navigation.
            let _ = body.set_attribute("data-first-frame-ms", &format!("{now:.0}"));
        }
        let Shown::App(app) = &self.shown else {
            let _ = body.set_attribute("data-screen", "refused");
            return;
        };
        let game = app.current_game().map(str::to_string);
        let (moves, score) = game
            .as_deref()
            .and_then(|id| app.session(id))
            .map_or((0, 0), |s| (s.move_count(), s.score()));
        let now = Told {
            screen: app.screen(),
            game,
            moves,
            score,
            dialog: app.dialog_shown(),
        };
        if self.told.as_ref() == Some(&now) {
            return;
        }
        let name = match now.screen {
            Screen::Launcher => "launcher",
            Screen::Group(_) => "group",
            Screen::Game(_) => "game",
            Screen::Stats(_) => "stats",
            Screen::Replay(_) => "replay",
        };
        let _ = body.set_attribute("data-screen", name);
        let _ = body.set_attribute("data-dialog", now.dialog.unwrap_or(""));
        let _ = body.set_attribute("data-game", now.game.as_deref().unwrap_or(""));
        let _ = body.set_attribute("data-moves", &now.moves.to_string());
        let _ = body.set_attribute("data-score", &now.score.to_string());
        let title = now
            .game
            .as_deref()
            .and_then(|id| app.registry().get(id))
            .map_or_else(
                || "Tilebox".to_string(),
                |e| format!("{} · Tilebox", e.title()),
            );
        document.set_title(&title);
        self.told = Some(now);
    }
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.follow_hash();
        match &mut self.shown {
            Shown::App(app) => app.ui(ui, frame),
            Shown::Refused(window) => window.ui(ui, frame),
        }
        self.frames += 1;
        self.tell();
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        match &self.shown {
            Shown::App(app) => app.clear_color(visuals),
            Shown::Refused(window) => window.clear_color(visuals),
        }
    }

    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        if let Shown::App(app) = &mut self.shown {
            app.raw_input_hook(ctx, raw_input);
        }
    }
}
