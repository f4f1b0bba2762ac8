//! The dialogs over a screen: the new-game question, a game's code, "Play a code" (and its offer
//! to add a game whose rules no game here has), and the
//! window that says what is still being saved when the player quits. Each owns its state and
//! returns the player's answer as an [`Action`]; the shell holds at most one open, and while it
//! is, the screen under it gets no keys.

use super::Action;
use crate::screens::{chrome, codes};
use crate::slot::Start;

/// A dialog open over the screen.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Dialog {
    /// "Start a new game?" over game `index`, asked before a new game, a code's or a daily
    /// game ends the game in progress.
    NewGame {
        /// The slot of the game in progress.
        index: usize,
        /// The game to start on yes (`None`: a new game).
        start: Option<Start>,
        /// The score of the game in progress.
        score: u64,
        /// The question was open when the frame began: this frame's keys answer it (and not
        /// the N that opened it).
        listening: bool,
    },
    /// A game's code, over its game, and whether it has been copied.
    ShowCode {
        /// The code.
        code: String,
        /// Copy was pressed.
        copied: bool,
    },
    /// The offer to add a code's game whose rules no game here has, over the launcher.
    AddGame {
        /// The game to add.
        game: Box<crate::store::variants::CodeGame>,
        /// The code's seed, the game to start once it is added.
        seed: u64,
    },
    /// "Play a code", over the launcher: the text typed, and why the code played last was
    /// refused.
    PlayCode {
        /// The text in the field.
        text: String,
        /// The refusal's message, until the text changes.
        refused: Option<String>,
    },
}

impl Dialog {
    /// Its name, for those who watch the app from outside (a page's tests).
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Dialog::NewGame { .. } => "new-game",
            Dialog::ShowCode { .. } => "code",
            Dialog::AddGame { .. } => "add-game",
            Dialog::PlayCode { .. } => "play-code",
        }
    }

    /// The empty "Play a code" dialog.
    pub(crate) fn play_code() -> Self {
        Dialog::PlayCode {
            text: String::new(),
            refused: None,
        }
    }

    /// Draws the dialog; returns the player's answer, if given this frame. Copying the code is
    /// the code dialog's own business.
    pub(crate) fn show(&mut self, ctx: &egui::Context) -> Option<Action> {
        match self {
            Dialog::NewGame {
                index,
                score,
                listening,
                ..
            } => {
                let answer = chrome::confirm_new_game(ctx, *index, *score, *listening);
                *listening = true;
                answer.map(Action::NewGameAnswer)
            }
            Dialog::ShowCode { code, copied } => match codes::show_code(ctx, code, *copied) {
                Some(codes::ShowAnswer::Copy) => {
                    ctx.copy_text(code.clone());
                    *copied = true;
                    None
                }
                Some(codes::ShowAnswer::Close) => Some(Action::CloseDialog),
                None => None,
            },
            Dialog::AddGame { game, .. } => match codes::add_game(ctx, game)? {
                codes::AddAnswer::Add => Some(Action::AddCodeGame),
                codes::AddAnswer::Cancel => Some(Action::CloseDialog),
            },
            Dialog::PlayCode { text, refused } => {
                let before = text.clone();
                let answer = codes::play_code(ctx, text, refused.as_deref());
                if *text != before {
                    *refused = None;
                }
                match answer {
                    Some(codes::PlayAnswer::Play) => Some(Action::PlayCode(text.clone())),
                    Some(codes::PlayAnswer::Cancel) => Some(Action::CloseDialog),
                    None => None,
                }
            }
        }
    }

    /// Says in the "Play a code" dialog why its code was refused.
    pub(crate) fn refuse(&mut self, why: String) {
        if let Dialog::PlayCode { refused, .. } = self {
            *refused = Some(why);
        }
    }

    /// The dialog is closed: it forgets what it kept in egui's memory, so that it takes the
    /// focus again when it opens next.
    pub(crate) fn closed(&self, ctx: &egui::Context) {
        if matches!(self, Dialog::PlayCode { .. }) {
            codes::play_code_closed(ctx);
        }
    }
}

/// The window that waits for the writes still pending at quitting ([`saving`]): since when it
/// is open (the frame's time), if it is, and the training run quitting stopped, to start again
/// if the player keeps playing.
#[derive(Debug, Default)]
pub(crate) struct QuitWindow {
    since: Option<f64>,
    stopped: Option<tilebox_sliding::Variant>,
}

impl QuitWindow {
    /// Whether the window is open.
    pub(crate) fn is_open(&self) -> bool {
        self.since.is_some()
    }

    /// Opens the window at time `now`; quitting stopped the training of `stopped`, if any.
    pub(crate) fn open(&mut self, now: f64, stopped: Option<tilebox_sliding::Variant>) {
        self.since = Some(now);
        self.stopped = stopped;
    }

    /// Closes the window: nothing is left to wait for.
    pub(crate) fn close(&mut self) {
        self.since = None;
    }

    /// The training run quitting stopped, once, to start again: the player keeps playing.
    pub(crate) fn take_stopped(&mut self) -> Option<tilebox_sliding::Variant> {
        self.stopped.take()
    }

    /// Shows the window, if open, at time `now` for the writes `pending`: "Saving …" until
    /// `wait` has passed since it opened, then what could not be saved, and the player's
    /// answer, which closes it: quit without them (true) or keep playing (false).
    pub(crate) fn show(
        &mut self,
        ctx: &egui::Context,
        pending: &[String],
        now: f64,
        wait: std::time::Duration,
    ) -> Option<bool> {
        let since = self.since?;
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
        let waited = now - since >= wait.as_secs_f64();
        let answer = saving(ctx, pending, waited);
        if answer.is_some() {
            self.since = None;
        }
        answer
    }
}

/// The window shown while quitting waits for writes still pending (`pending`, named): "Saving
/// …", and once the wait is over (`waited`), what could not be saved with "Quit without saving
/// them" (true) and "Keep playing" (false).
fn saving(ctx: &egui::Context, pending: &[String], waited: bool) -> Option<bool> {
    let mut choice = None;
    egui::Window::new("Saving")
        // Over every other dialog, and the win and game-over messages.
        .order(egui::Order::Foreground)
        .collapsible(false)
        .resizable(false)
        // A long list of files scrolls in a small window.
        .vscroll(true)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            if waited {
                ui.label(format!(
                    "These could not be saved yet: {}. The disk does not answer, or is \
                     full.",
                    pending.join(", ")
                ));
                ui.horizontal(|ui| {
                    let quit = ui.button("Quit without saving them");
                    if quit.clicked() {
                        choice = Some(true);
                    }
                    let keep = ui.button("Keep playing");
                    if keep.clicked() {
                        choice = Some(false);
                    }
                    crate::ui::theme::trap_focus(ui.ctx(), vec![quit.id, keep.id]);
                });
            } else {
                ui.label(format!("Saving {}…", pending.join(", ")));
                crate::ui::theme::trap_focus(ui.ctx(), Vec::new());
            }
        });
    choice
}
