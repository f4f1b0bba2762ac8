//! What frames a game's board: the top bar with its buttons and score boxes, the "How to play"
//! panel, the win and game-over message over the board, and the new-game question. Each draws
//! and says what the player chose; the shell acts on it.

use egui::{Align2, Color32, FontId, Id, Key, RichText, Vec2};
use tilebox_core::DynSession;

use crate::advisor::Speed;
use crate::app::GameSlot;
use crate::help;
use crate::input::Command;
use crate::scores::Best;
use crate::tally::Tally;
use crate::theme::ThemeChoice;
use crate::views;

/// How long the rising "+N" above the score lasts, in seconds.
pub const SCORE_POP_SECONDS: f64 = 0.8;

/// What the top bar shows besides the game.
pub struct TopBar<'a> {
    /// The best score on record for this game.
    pub best: Best,
    /// The theme choice, named on its button.
    pub theme: ThemeChoice,
    /// Autoplay's speed, which the bar's menu changes.
    pub speed: &'a mut Speed,
    /// A hint is being worked out.
    pub thinking: bool,
}

/// The top bar of a game: Back, the title, New game, Undo, Redo, How to play, Theme; then the
/// score and best, and Hint and Autoplay where the game has them. Returns the commands clicked.
pub fn top_bar(ui: &mut egui::Ui, slot: &GameSlot, bar: TopBar<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    let session = slot.session.as_deref();
    egui::Panel::top("game-top").show(ui, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            if button(
                ui,
                true,
                "Back",
                "Back to the list you chose this game from (Escape)",
            ) {
                commands.push(Command::Back);
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if theme_button(ui, bar.theme) {
                    commands.push(Command::ToggleTheme);
                }
                if ui
                    .selectable_label(slot.show_help, "How to play")
                    .on_hover_text("Rules and controls (F1)")
                    .clicked()
                {
                    commands.push(Command::ToggleHelp);
                }
                let can_redo = session.is_some_and(|s| s.can_redo());
                let can_undo = session.is_some_and(|s| s.can_undo());
                if button(ui, can_redo, "Redo", "Ctrl+Y or Shift+U") {
                    commands.push(Command::Redo);
                }
                if button(ui, can_undo, "Undo", "Ctrl+Z or U") {
                    commands.push(Command::Undo);
                }
                if button(ui, true, "New game", "Start a new game (N)") {
                    commands.push(Command::NewGame);
                }
                // The title takes the room the buttons leave, cut short with "…" if it must
                // be (a combination of options has a long one); the full title is its hover.
                ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                    let title = slot.entry.title();
                    ui.add(egui::Label::new(RichText::new(title).heading().strong()).truncate())
                        .on_hover_text(title);
                });
            });
        });
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            let score = session.map_or(0, |s| s.score());
            let sign = if session.is_some_and(|s| s.lower_is_better()) {
                '\u{2212}'
            } else {
                '+'
            };
            score_box(ui, format!("Score: {score}"), slot.score_pop, sign);
            // A higher score counts as it is reached; a lower-is-better one when the game ends.
            let best = match bar.best {
                Best::Highest(best) => Best::Highest(best.max(score)),
                lowest @ Best::Lowest(_) => lowest,
            };
            score_box(ui, best.bar_text(), None, '+');
            let over = session.is_none_or(|s| s.status().over);
            // The game's own params decide (a save may carry others than the entry's preset).
            let assistant = session.and_then(|s| s.assistant());
            let hints = assistant.is_some();
            let plays = assistant.is_some_and(|a| a.autoplays());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if plays {
                    speed_menu(ui, bar.speed);
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
                if bar.thinking {
                    ui.spinner();
                    ui.label("Thinking...");
                }
            });
        });
        ui.add_space(4.0);
    });
    commands
}

/// The theme button, named after the choice in force; true when clicked.
pub fn theme_button(ui: &mut egui::Ui, theme: ThemeChoice) -> bool {
    let hover = "Switch between the system's, a light and a dark theme (T)";
    button(ui, true, theme.label(), hover)
}

/// A button with a hover text; true when clicked.
fn button(ui: &mut egui::Ui, enabled: bool, text: &str, hover: &str) -> bool {
    ui.add_enabled(enabled, egui::Button::new(text))
        .on_hover_text(hover)
        .clicked()
}

/// The menu of autoplay's speeds.
fn speed_menu(ui: &mut egui::Ui, speed: &mut Speed) {
    egui::ComboBox::from_id_salt("autoplay-speed")
        .selected_text(speed.label())
        .width(80.0)
        .show_ui(ui, |ui| {
            for s in Speed::ALL {
                ui.selectable_value(speed, s, s.label());
            }
        })
        .response
        .on_hover_text("Autoplay's speed")
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::ComboBox, true, "Autoplay speed"));
}

/// The heading of the "How to play" panel.
pub const HELP_HEADING: &str = "How to play";

/// The "How to play" panel of the game of `slot`, under the board: the entry's rules (which say
/// how to play a move), the controls every game shares, and the assistant's, if the game has
/// one.
pub fn help_panel(ui: &mut egui::Ui, slot: &GameSlot) {
    egui::Panel::bottom("game-help").show(ui, |ui| {
        ui.add_space(4.0);
        ui.label(RichText::new(HELP_HEADING).strong());
        ui.label(slot.entry.how_to_play());
        if let Some(controls) = slot
            .session
            .as_deref()
            .and_then(|s| slot.view.controls_help(s))
        {
            ui.label(controls);
        }
        ui.add_space(2.0);
        ui.label(RichText::new(help::COMMON_CONTROLS).small());
        if let Some(assistant) = slot.session.as_deref().and_then(|s| s.assistant()) {
            let text = help::assist_controls(
                slot.view.plain_h_hints(),
                slot.view.hint_looks(),
                assistant.autoplays(),
                slot.view.commentary_help(),
            );
            ui.label(RichText::new(text).small());
        }
        ui.add_space(4.0);
    });
}

/// The assistant's lines about the position (the odds, what the last move gave up), centred
/// under the board.
pub fn commentary(ui: &mut egui::Ui, session: &dyn DynSession) {
    let lines = session.commentary();
    if lines.is_empty() {
        return;
    }
    ui.vertical_centered(|ui| {
        for (i, line) in lines.into_iter().enumerate() {
            let text = RichText::new(line).size(16.0);
            ui.label(if i == 0 { text } else { text.weak() });
        }
    });
}

/// A score box: name and number, with a rising "+N" after points are won (`sign` '+'), or
/// "−N" after they are taken off where lower is better (`sign` '−').
fn score_box(ui: &mut egui::Ui, text: String, pop: Option<(f64, u64)>, sign: char) {
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
                format!("{sign}{gained}"),
                FontId::proportional(18.0),
                Color32::from_rgba_unmultiplied(237, 160, 40, alpha),
            );
            ui.ctx().request_repaint();
        }
    }
}

/// What the player chose on the win or game-over message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndChoice {
    /// Go on playing after the win.
    KeepGoing,
    /// Start a new game.
    NewGame,
    /// Take back the last move.
    Undo,
}

/// Whether the win is on the board now, waiting for "Keep going": moves wait too, as in the
/// original 2048.
pub fn win_waits(session: &dyn DynSession, tally: Tally) -> bool {
    let status = session.status();
    tally.announces_win(status) && !status.over
}

/// Draws the win (once) or the end of the game over the board.
pub fn end_overlay(
    ui: &mut egui::Ui,
    board: Option<egui::Rect>,
    session: &dyn DynSession,
    tally: Tally,
) -> Option<EndChoice> {
    let board = board?;
    let status = session.status();
    let win_waits = win_waits(session, tally);
    if !status.over && !win_waits {
        return None;
    }
    let dark = ui.visuals().dark_mode;
    let veil = if dark {
        Color32::from_black_alpha(150)
    } else {
        Color32::from_white_alpha(170)
    };
    ui.painter().rect_filled(board, 8.0, veil);
    let (title, detail) = if win_waits {
        (
            "You win!",
            format!("Score {}. Keep going for a higher score?", session.score()),
        )
    } else {
        // A win is announced once: a game that went on after it ends as any other.
        let title = if tally.announces_win(status) {
            "You win!"
        } else {
            "Game over"
        };
        (
            title,
            format!(
                "{} Final score: {}.",
                views::end_text(session),
                session.score()
            ),
        )
    };
    let mut choice = None;
    let inner =
        egui::Rect::from_center_size(board.center(), Vec2::new(board.width().min(340.0), 170.0));
    ui.scope_builder(egui::UiBuilder::new().max_rect(inner), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.heading(RichText::new(title).size(26.0).strong());
                ui.label(detail);
                ui.add_space(6.0);
                // One button under the other, both centred.
                let buttons = if win_waits {
                    [
                        ("Keep going", EndChoice::KeepGoing),
                        ("Start a new game", EndChoice::NewGame),
                    ]
                } else {
                    [
                        ("Play again", EndChoice::NewGame),
                        ("Take back the last move", EndChoice::Undo),
                    ]
                };
                for (label, c) in buttons {
                    if ui.button(label).clicked() {
                        choice = Some(c);
                    }
                }
            });
        });
    });
    choice
}

/// The "start a new game?" question over game `index`. `listening`: the question was already
/// open when this frame began, so this frame's keys are answers to it (and not the N that
/// opened it). Returns the answer once given: Y or the first button for yes; N, Escape, a click
/// outside or the second button for no.
pub fn confirm_new_game(
    ctx: &egui::Context,
    index: usize,
    score: u64,
    listening: bool,
) -> Option<bool> {
    let mut answer = None;
    let modal = egui::Modal::new(Id::unique(("confirm-new", index))).show(ctx, |ui| {
        ui.set_max_width(320.0);
        ui.heading("Start a new game?");
        ui.label(format!(
            "The game in progress (score {score}) will end and count as played."
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
        ui.label(RichText::new("Y: yes    N or Escape: no").weak());
        if listening {
            ui.input(|i| {
                if i.key_pressed(Key::Y) {
                    answer = Some(true);
                } else if i.key_pressed(Key::N) {
                    answer = Some(false);
                }
            });
        }
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(false);
    }
    answer
}
