//! The window of a second copy of Tilebox started on a data directory another copy holds
//! ([`crate::store::lock`]): it says so, names the directory, writes nothing, and quits with a
//! button.

use std::path::PathBuf;

/// The size of the window, in points: room for its text in the app's type at zoom 1.
pub const WINDOW_SIZE: [f32; 2] = [460.0, 250.0];

/// The small window a second copy shows instead of the app, in the app's theme.
pub struct AlreadyRunning {
    dir: PathBuf,
    styled: bool,
    focused: bool,
    quit: bool,
}

impl AlreadyRunning {
    /// The window for the data directory `dir`, held by another copy.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            styled: false,
            focused: false,
            quit: false,
        }
    }

    /// The sentence the window shows.
    pub fn text(&self) -> String {
        format!(
            "Tilebox is already running with the data folder {}.\n\nThis copy saves nothing: \
             play in the window that is already open.",
            self.dir.display()
        )
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
            ui.heading("Tilebox is already running");
            ui.add_space(8.0);
            ui.label(self.text());
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
