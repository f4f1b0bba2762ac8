//! The replay screen: a game watched from its start (a game of the history, or the game in
//! progress), move by move, in the entry's own view, animated as in play.
//!
//! The replay is a session of its own, loaded with no move played and every move to redo, so
//! stepping forward is the session's redo and stepping back its undo: the replay is the session
//! layer's, never written again here. Nothing of it is saved or counted: the player's game,
//! scores and history stay as they are.

use egui::RichText;
use tilebox_core::{DynSession, Entry, SavedGame};

use crate::ui::input;
use crate::ui::theme::Palette;
use crate::views::{self, GameView};
use crate::work::pace::Pace;

/// The speeds a replay plays at, in moves a second.
pub const SPEEDS: [f64; 7] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// The speed a replay starts at (an index into [`SPEEDS`]).
const START_SPEED: usize = 2;

/// The keys of the replay screen, written on it (and in How to play).
pub const KEYS_TEXT: &str = "Space: play or pause    Right or .: a move forward    Left or ,: a \
     move back    Home / End: the start / the end    - / +: slower / faster    Escape: back";

/// The accessible labels of the replay's buttons.
pub const PLAY_LABEL: &str = "Play";
/// The label of the button that pauses.
pub const PAUSE_LABEL: &str = "Pause";
/// The label of the button that steps a move forward.
pub const FORWARD_LABEL: &str = "Step forward";
/// The label of the button that steps a move back.
pub const BACK_STEP_LABEL: &str = "Step back";
/// The label of the button that goes to the start.
pub const START_LABEL: &str = "To the start";
/// The label of the button that goes to the end.
pub const END_LABEL: &str = "To the end";
/// The label of the button that slows the replay down.
pub const SLOWER_LABEL: &str = "Slower";
/// The label of the button that speeds the replay up.
pub const FASTER_LABEL: &str = "Faster";

/// The move counter as shown: "Move 12 of 340".
pub fn counter_text(position: usize, total: usize) -> String {
    format!("Move {position} of {total}")
}

/// The speed as shown: "Speed: 4 moves a second".
pub fn speed_text(moves_a_second: f64) -> String {
    if moves_a_second == 1.0 {
        "Speed: 1 move a second".to_string()
    } else {
        format!("Speed: {moves_a_second} moves a second")
    }
}

/// One game being replayed.
pub(crate) struct Replay {
    /// The replay's own session: the moves before the position played, the rest to redo.
    session: Box<dyn DynSession>,
    view: Box<dyn GameView>,
    /// How many moves the game has.
    total: usize,
    playing: bool,
    speed: usize,
    /// When the next move is due while playing: by the clock, so a slow frame steps every
    /// move due since the last one.
    pace: Pace,
    /// What the replay is of, in its heading.
    title: String,
}

/// What the player did on the replay screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Forward,
    Back,
    Start,
    End,
    TogglePlay,
    Slower,
    Faster,
    Leave,
}

impl Replay {
    /// The replay of `saved` (its moves; its redo list is not part of the game) in `entry`'s
    /// view, at its start; `title` says what it is.
    pub fn new(entry: &Entry, saved: &SavedGame, title: String) -> Result<Self, String> {
        let at_start = SavedGame {
            moves: Vec::new(),
            redo: saved.moves.clone(),
            ..saved.clone()
        };
        let session = entry
            .load(&at_start)
            .map_err(|e| format!("This game cannot be replayed: {e}"))?;
        Ok(Self {
            session,
            view: views::for_entry(entry),
            total: saved.moves.len(),
            playing: false,
            speed: START_SPEED,
            pace: Pace::now(),
            title,
        })
    }

    /// The session as replayed so far.
    pub fn session(&self) -> &dyn DynSession {
        self.session.as_ref()
    }

    /// How many moves have been replayed, and how many the game has.
    pub fn position(&self) -> (usize, usize) {
        (self.session.move_count(), self.total)
    }

    /// Whether the replay is playing.
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Steps one move forward at time `now`, animated; false at the end.
    fn forward(&mut self, now: f64) -> bool {
        let stepped = self.session.redo();
        if stepped {
            self.view.played(self.session.as_ref(), now);
        }
        stepped
    }

    /// The time between two moves at the speed chosen, in seconds.
    fn interval(&self) -> f64 {
        1.0 / SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// While playing, steps every move due at `now` (several in a frame slower than the
    /// speed), animating the last; stops at the end. Returns how long until the next is due.
    fn play_due(&mut self, now: f64) -> Option<f64> {
        if !self.playing {
            return None;
        }
        let left = self.total.saturating_sub(self.session.move_count());
        let due = self.pace.take(self.interval(), now, left);
        for _ in 0..due {
            if !self.forward(now) {
                break;
            }
        }
        if self.session.move_count() >= self.total || !self.session.can_redo() {
            self.playing = false;
            return None;
        }
        Some(self.pace.wait(now).unwrap_or(0.0))
    }

    fn step(&mut self, step: Step, now: f64) {
        match step {
            Step::Forward => {
                self.playing = false;
                self.forward(now);
            }
            Step::Back => {
                self.playing = false;
                if self.session.undo() {
                    self.view.reset();
                }
            }
            Step::Start => {
                self.playing = false;
                while self.session.undo() {}
                self.view.reset();
            }
            Step::End => {
                self.playing = false;
                while self.session.redo() {}
                self.view.reset();
            }
            Step::TogglePlay => {
                self.playing = !self.playing;
                if self.playing && self.session.move_count() >= self.total {
                    // Play at the end plays the game again from its start.
                    while self.session.undo() {}
                    self.view.reset();
                }
                self.pace = Pace::at(now + self.interval());
            }
            Step::Slower | Step::Faster => {
                self.speed = if step == Step::Slower {
                    self.speed.saturating_sub(1)
                } else {
                    (self.speed + 1).min(SPEEDS.len() - 1)
                };
                // The next move comes at the new speed, not at the old one's time.
                let at = now + self.interval();
                if self.pace.next().is_none_or(|next| next > at) {
                    self.pace = Pace::at(at);
                }
            }
            Step::Leave => {}
        }
    }

    /// Draws the replay and handles its keys and buttons; returns true when the player leaves.
    pub fn show(&mut self, ui: &mut egui::Ui) -> bool {
        let ctx = ui.ctx().clone();
        let now = ctx.input(|i| i.time);
        // A focused button takes Space itself (egui clicks it): the key is not taken twice.
        let focused = ctx.memory(|m| m.focused()).is_some();
        let mut steps: Vec<Step> = input::read_keys(&ctx)
            .into_iter()
            .filter(|k| !k.has_command_modifier())
            .filter_map(|k| {
                Some(match k.key {
                    egui::Key::Escape if !k.repeat => Step::Leave,
                    egui::Key::Space if !k.repeat && !focused => Step::TogglePlay,
                    egui::Key::ArrowRight | egui::Key::Period => Step::Forward,
                    egui::Key::ArrowLeft | egui::Key::Comma => Step::Back,
                    egui::Key::Home => Step::Start,
                    egui::Key::End => Step::End,
                    egui::Key::Minus => Step::Slower,
                    egui::Key::Plus | egui::Key::Equals => Step::Faster,
                    _ => return None,
                })
            })
            .collect();

        let (position, total) = self.position();
        egui::Panel::top("replay-top").show(ui, |ui| {
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                let back = ui.button("Back").on_hover_text("Leave the replay (Escape)");
                crate::ui::theme::focus_ring(ui, &back);
                if back.clicked() {
                    steps.push(Step::Leave);
                }
                ui.add(egui::Label::new(RichText::new(&self.title).heading().strong()).truncate());
            });
            ui.horizontal_wrapped(|ui| {
                let mut control = |ui: &mut egui::Ui, enabled, label: &str, key: &str, step| {
                    let button = ui
                        .add_enabled(enabled, egui::Button::new(label))
                        .on_hover_text(key);
                    crate::ui::theme::focus_ring(ui, &button);
                    if button.clicked() {
                        steps.push(step);
                    }
                };
                control(ui, position > 0, START_LABEL, "Home", Step::Start);
                control(ui, position > 0, BACK_STEP_LABEL, "Left or ,", Step::Back);
                let play = if self.playing {
                    PAUSE_LABEL
                } else {
                    PLAY_LABEL
                };
                control(ui, total > 0, play, "Space", Step::TogglePlay);
                control(
                    ui,
                    position < total,
                    FORWARD_LABEL,
                    "Right or .",
                    Step::Forward,
                );
                control(ui, position < total, END_LABEL, "End", Step::End);
                control(ui, self.speed > 0, SLOWER_LABEL, "-", Step::Slower);
                ui.add(egui::Label::new(speed_text(SPEEDS[self.speed])).extend());
                control(
                    ui,
                    self.speed + 1 < SPEEDS.len(),
                    FASTER_LABEL,
                    "+",
                    Step::Faster,
                );
            });
            ui.horizontal_wrapped(|ui| {
                let figure = |text: String| {
                    egui::Label::new(RichText::new(text).size(18.0).strong()).extend()
                };
                ui.add(figure(counter_text(position, total)));
                ui.add(figure(format!("Score: {}", self.session.score())));
            });
            let weak = Palette::of(ui.visuals().dark_mode).weak;
            ui.add(egui::Label::new(RichText::new(KEYS_TEXT).color(weak)).wrap());
            ui.add_space(4.0);
        });

        let mut leave = false;
        for step in steps {
            leave |= step == Step::Leave;
            self.step(step, now);
        }
        if let Some(wait) = self.play_due(now) {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(wait));
        }

        egui::CentralPanel::default().show(ui, |ui| {
            let session = self.session.as_ref();
            self.view.show(ui, session, &[], false);
            if session.move_count() >= self.total && session.status().over {
                ui.vertical_centered(|ui| {
                    ui.label(
                        RichText::new(format!(
                            "{} Final score: {}.",
                            views::end_text(session),
                            session.score()
                        ))
                        .size(16.0),
                    );
                });
            }
        });
        leave
    }
}
