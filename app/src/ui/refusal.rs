//! The window of a second copy of Tilebox started on a data directory another copy holds
//! ([`crate::store::lock`]): it says so, names the directory, writes nothing, and quits with a button.
//! In a page, the same window says that Tilebox is open in another tab
//! ([`crate::store::lock::TabLock`]); a page cannot close its own tab, so it has no button.

use std::path::PathBuf;

/// The size of the window, in points: room for its text in the app's type at zoom 1.
pub const WINDOW_SIZE: [f32; 2] = [460.0, 250.0];

/// Who holds what this copy would write.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Holder {
    /// Another copy of the desktop app, holding this data directory.
    Copy(PathBuf),
    /// Another tab of the browser.
    Tab,
}

/// The small window a second copy shows instead of the app, in the app's theme.
#[derive(Debug)]
pub struct AlreadyRunning {
    holder: Holder,
    styled: bool,
    focused: bool,
    quit: bool,
}

impl AlreadyRunning {
    /// The window for the data directory `dir`, held by another copy.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self::held_by(Holder::Copy(dir.into()))
    }

    /// The window for a page whose storage another tab of the browser holds.
    pub fn in_another_tab() -> Self {
        Self::held_by(Holder::Tab)
    }

    fn held_by(holder: Holder) -> Self {
        Self {
            holder,
            styled: false,
            focused: false,
            quit: false,
        }
    }

    /// The sentence the window shows.
    pub fn text(&self) -> String {
        match &self.holder {
            Holder::Copy(dir) => format!(
                "Tilebox is already running with the data folder {}.\n\nThis copy saves \
                 nothing: play in the window that is already open.",
                dir.display()
            ),
            Holder::Tab => "Tilebox is open in another tab of this browser.\n\nThis tab saves \
                            nothing: play in the other tab, or close it and reload this one."
                .to_string(),
        }
    }

    /// The window's heading.
    pub fn heading(&self) -> &'static str {
        match self.holder {
            Holder::Copy(_) => "Tilebox is already running",
            Holder::Tab => "Tilebox is open in another tab",
        }
    }

    /// Whether Quit was pressed.
    pub fn quit_pressed(&self) -> bool {
        self.quit
    }

    /// Draws the window into `ui`.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        if !self.styled {
            // The app's look (its colours, its type), before anything is drawn in it.
            crate::ui::theme::install(ui.ctx());
            self.styled = true;
            ui.ctx().request_discard("the app's theme");
            return;
        }
        egui::CentralPanel::default().show(ui, |ui| {
            ui.add_space(8.0);
            ui.heading(self.heading());
            ui.add_space(8.0);
            ui.label(self.text());
            if self.holder == Holder::Tab {
                return;
            }
            ui.add_space(12.0);
            let quit = ui.button("Quit");
            // Keyboard first: Enter or Space presses Quit at once, Tab reaches it again.
            if !self.focused {
                quit.request_focus();
                self.focused = true;
            }
            let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
            if quit.clicked() || escape {
                self.quit = true;
                ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
            }
        });
    }
}

impl eframe::App for AlreadyRunning {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
