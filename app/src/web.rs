//! The app in a browser page: the same [`TileboxApp`] as on the desktop, its files kept in the
//! browser's storage ([`Storage::in_keys`] over [`LocalStorage`]). The web entry
//! (`web/src/page.rs`) runs [`WebApp`].
//!
//! Each frame the page's `<body>` is told what the app shows, as attributes a test or a
//! browser extension reads without looking into the canvas: `data-frames` (frames drawn), `data-first-frame-ms` (when the first was, in milliseconds from
//! the start of the page's navigation),
//! `data-screen` (`launcher`, `group`, `game`, `stats` or `replay`), `data-game` (the id of the
//! game shown, if one is) and `data-moves` (the moves of its game so far); and the tab's title
//! names the game.

use std::sync::Arc;

use crate::TileboxApp;
use crate::screens::Screen;
use crate::store::keys::LocalStorage;
use crate::store::storage::Storage;
use crate::store::writer::Writer;

/// The app of a page.
pub struct WebApp {
    app: TileboxApp,
    frames: u64,
    /// What the body's attributes and the title say, as last set.
    told: Option<(Screen, Option<String>, (usize, u64))>,
}

impl WebApp {
    /// The app of the page, over the browser's storage.
    pub fn new() -> Self {
        let storage = Storage::in_keys(Arc::new(LocalStorage));
        let app = TileboxApp::with_writer(tilebox_games::registry(), Writer::start(storage), None);
        Self {
            app,
            frames: 0,
            told: None,
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
            && let Some(now) = web_sys::window()
                .and_then(|w| w.performance())
                .map(|p| p.now())
        {
            // The page's own clock, from the start of its navigation.
            let _ = body.set_attribute("data-first-frame-ms", &format!("{now:.0}"));
        }
        let screen = self.app.screen();
        let game = self.app.current_game().map(str::to_string);
        let moves = game
            .as_deref()
            .and_then(|id| self.app.session(id))
            .map_or((0, 0), |s| (s.move_count(), s.score()));
        let now = (screen, game, moves);
        if self.told.as_ref() == Some(&now) {
            return;
        }
        let (screen, game, moves) = &now;
        let name = match screen {
            Screen::Launcher => "launcher",
            Screen::Group(_) => "group",
            Screen::Game(_) => "game",
            Screen::Stats(_) => "stats",
            Screen::Replay(_) => "replay",
        };
        let _ = body.set_attribute("data-screen", name);
        let _ = body.set_attribute("data-game", game.as_deref().unwrap_or(""));
        let _ = body.set_attribute("data-moves", &moves.0.to_string());
        let _ = body.set_attribute("data-score", &moves.1.to_string());
        let title = game
            .as_deref()
            .and_then(|id| self.app.registry().get(id))
            .map_or_else(
                || "Tilebox".to_string(),
                |e| format!("{} · Tilebox", e.title()),
            );
        document.set_title(&title);
        self.told = Some(now);
    }
}

impl Default for WebApp {
    fn default() -> Self {
        Self::new()
    }
}

impl eframe::App for WebApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        self.app.ui(ui, frame);
        self.frames += 1;
        self.tell();
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        self.app.clear_color(visuals)
    }

    fn raw_input_hook(&mut self, ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.app.raw_input_hook(ctx, raw_input);
    }
}
