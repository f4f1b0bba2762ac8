//! What frames a game's board: the top bar with its buttons and score boxes, the "How to play"
//! panel, the win and game-over message over the board, and the new-game question. Each draws
//! and says what the player chose; the shell acts on it.

use egui::{Align2, Color32, FontId, Id, Key, RichText, Vec2};
use tilebox_core::DynSession;

use crate::screens::help;
use crate::slot::GameSlot;
use crate::store::scores::Best;
use crate::store::settings::Speed;
use crate::store::settings::ThemeChoice;
use crate::store::tally::Tally;
use crate::ui::input::Command;
use crate::views;

/// How long the rising "+N" above the score lasts, in seconds.
pub const SCORE_POP_SECONDS: f64 = 0.8;

/// What the top bar shows besides the game.
pub struct TopBar {
    /// The best score on record for this game, of unassisted games.
    pub best: Best,
    /// The best of assisted games, if any.
    pub assisted_best: Option<u64>,
    /// The theme choice, named on its button.
    pub theme: ThemeChoice,
    /// Autoplay's speed, the one of the bar's buttons selected.
    pub speed: Speed,
    /// A hint is being worked out.
    pub thinking: bool,
}

/// The labels of the bar's buttons after Back and the title, in order.
fn bar_buttons(theme: ThemeChoice) -> [&'static str; 5] {
    ["New game", "Undo", "Redo", HELP_HEADING, theme.label()]
}

/// The narrowest title the first row keeps beside the buttons before they move to a row of
/// their own.
const TITLE_ROOM: f32 = 180.0;

/// What the player chose in the bar: its commands, in order, and a speed of autoplay picked.
#[derive(Debug, Default)]
pub struct BarChoice {
    /// The commands of the bar's buttons clicked.
    pub commands: Vec<Command>,
    /// The speed of autoplay picked, if one was.
    pub speed: Option<Speed>,
}

/// The top bar of a game. Back is always first, at the top left, then the title; New game,
/// Undo, Redo, How to play and Theme follow on the same row when they fit beside a readable
/// title, else on a row of their own that wraps; then the score and best, and Hint and
/// Autoplay where the game has them, on a row that wraps too. So every control stays whole and
/// inside the window, whatever its width. Returns the commands clicked.
pub fn top_bar(ui: &mut egui::Ui, slot: &GameSlot, bar: TopBar) -> BarChoice {
    let mut commands = Vec::new();
    let mut speed = None;
    let session = slot.session.as_deref();
    // Unfilled: the window is cleared to the panels' colour (`TileboxApp::clear_color`).
    let frame = egui::Frame::side_top_panel(ui.style()).fill(Color32::TRANSPARENT);
    egui::Panel::top("game-top").frame(frame).show(ui, |ui| {
        ui.add_space(4.0);
        let labels = bar_buttons(bar.theme);
        let spacing = ui.spacing().item_spacing.x;
        let buttons_width: f32 = labels
            .iter()
            .map(|l| crate::ui::theme::button_width(ui, l) + spacing)
            .sum::<f32>();
        let one_row = ui.available_width()
            >= crate::ui::theme::button_width(ui, "Back") + spacing + TITLE_ROOM + buttons_width;
        let can_redo = session.is_some_and(|s| s.can_redo());
        let can_undo = session.is_some_and(|s| s.can_undo());
        let controls = |ui: &mut egui::Ui, commands: &mut Vec<Command>| {
            if button(ui, true, "New game", "Start a new game (N)") {
                commands.push(Command::NewGame);
            }
            if button(ui, can_undo, "Undo", "Ctrl+Z or U") {
                commands.push(Command::Undo);
            }
            if button(ui, can_redo, "Redo", "Ctrl+Y or Shift+U") {
                commands.push(Command::Redo);
            }
            if ui
                .add(egui::Button::new(HELP_HEADING).selected(slot.show_help))
                .on_hover_text("Rules and controls (F1)")
                .clicked()
            {
                commands.push(Command::ToggleHelp);
            }
            if theme_button(ui, bar.theme) {
                commands.push(Command::ToggleTheme);
            }
        };
        ui.horizontal(|ui| {
            if button(
                ui,
                true,
                "Back",
                "Back to the list you chose this game from (Escape)",
            ) {
                commands.push(Command::Back);
            }
            let title = slot.entry.title();
            if one_row {
                // The buttons at the right, in reading order; the title takes the room between.
                let title_width = ui.available_width() - buttons_width;
                ui.allocate_ui_with_layout(
                    Vec2::new(title_width, ui.spacing().interact_size.y),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        ui.set_min_width(title_width);
                        ui.add(
                            egui::Label::new(RichText::new(title).heading().strong()).truncate(),
                        )
                        .on_hover_text(title);
                    },
                );
                controls(ui, &mut commands);
            } else {
                ui.add(egui::Label::new(RichText::new(title).heading().strong()).truncate())
                    .on_hover_text(title);
            }
        });
        if !one_row {
            ui.horizontal_wrapped(|ui| controls(ui, &mut commands));
        }
        ui.add_space(2.0);
        ui.horizontal_wrapped(|ui| {
            let score = session.map_or(0, |s| s.score());
            let sign = if session.is_some_and(|s| s.lower_is_better()) {
                '\u{2212}'
            } else {
                '+'
            };
            score_box(ui, format!("Score: {score}"), Some((slot.score_pop, sign)));
            // Beside the score it qualifies, its room kept while the game is not assisted: it
            // never moves when the best beside it widens, nor moves the boxes after it.
            assisted_mark(ui, slot.tally.assisted);
            // A higher score counts as it is reached, once a move is made, for the best of its
            // kind (assisted or not); a lower-is-better one when the game ends.
            let moved = session.is_some_and(|s| s.move_count() > 0 || s.can_redo());
            let live = |best: u64| if moved { best.max(score) } else { best };
            let (best, assisted_best) = match bar.best {
                Best::Highest(best) if slot.tally.assisted => (
                    Best::Highest(best),
                    bar.assisted_best
                        .map(live)
                        .or((moved && score > 0).then_some(score)),
                ),
                Best::Highest(best) => (Best::Highest(live(best)), bar.assisted_best),
                lowest @ Best::Lowest(_) => (lowest, bar.assisted_best),
            };
            score_box(
                ui,
                crate::store::scores::with_assisted(best.bar_text(), assisted_best),
                None,
            );
            let over = session.is_none_or(|s| s.status().over);
            // The game's own params decide (a save may carry others than the entry's preset).
            let assistant = session.and_then(|s| s.assistant());
            let hints = assistant.is_some();
            let plays = assistant.is_some_and(|a| a.autoplays());
            if hints
                && ui
                    .add_enabled(!over && !slot.autoplay, egui::Button::new("Hint"))
                    .on_hover_text("Show the best move (Shift+H)")
                    .clicked()
            {
                commands.push(Command::Hint);
            }
            if plays {
                if ui
                    .add_enabled(
                        !over || slot.autoplay,
                        egui::Button::new("Autoplay").selected(slot.autoplay),
                    )
                    .on_hover_text("Let the AI play until you stop it (Shift+A)")
                    .clicked()
                {
                    commands.push(Command::ToggleAutoplay);
                }
                speed = speed_menu(ui, bar.speed);
            }
            if button(ui, true, STATS_LABEL, "This game's statistics (Shift+S)") {
                commands.push(Command::Statistics);
            }
            let moved = session.is_some_and(|s| s.move_count() > 0);
            if button(
                ui,
                moved,
                REPLAY_LABEL,
                "Replay this game from its start (Shift+R)",
            ) {
                commands.push(Command::Replay);
            }
            if button(
                ui,
                session.is_some(),
                CODE_LABEL,
                "This game's code, to share it (Shift+C)",
            ) {
                commands.push(Command::ShowCode);
            }
            if button(
                ui,
                true,
                DAILY_LABEL,
                "Today's daily game: one game a day, the same for everyone (Shift+D)",
            ) {
                commands.push(Command::DailyGame);
            }
            // Always laid out, shown only while the AI thinks, so that the bar (and the board
            // under it) does not move each time a search starts or ends.
            ui.add_visible(bar.thinking, egui::Spinner::new());
            ui.add_visible(bar.thinking, egui::Label::new("Thinking...").extend());
            // Last, so that the controls before them stay where they are when they appear.
            if let Some(date) = slot.daily {
                ui.add(egui::Label::new(RichText::new(daily_mark(date)).strong()).extend());
            }
        });
        ui.add_space(4.0);
    });
    BarChoice { commands, speed }
}

/// The label of the bar's button that opens the game's statistics.
pub const STATS_LABEL: &str = "Statistics";

/// The label of the bar's button that replays the game in progress from its start.
pub const REPLAY_LABEL: &str = "Replay";

/// The bar's button that shows the game's code.
pub const CODE_LABEL: &str = "Code";

/// The bar's button that starts today's daily game.
pub const DAILY_LABEL: &str = "Daily game";

/// What the bar says while the daily game of `date` is played: "Daily 2026-11-23".
pub fn daily_mark(date: tilebox_core::date::Date) -> String {
    format!("Daily {date}")
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

/// What the assisted mark says when hovered, and to a screen reader.
pub const ASSISTED_WHY: &str = "Assisted game: undo, a hint or autoplay was used in it, or it \
     was started again from your history, so its score and result count apart from your \
     unassisted records";

/// The small mark of an assisted game, in the bar while it is played (`shown`); else the
/// room it takes, empty.
fn assisted_mark(ui: &mut egui::Ui, shown: bool) {
    let text = RichText::new("Assisted").strong();
    if !shown {
        let size = egui::WidgetText::from(text)
            .into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Body,
            )
            .size();
        ui.allocate_space(size);
        return;
    }
    // Never broken over two rows of the wrapping bar: it moves to the next row whole.
    ui.add(egui::Label::new(text).extend().sense(egui::Sense::hover()))
        .on_hover_text(ASSISTED_WHY)
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, ASSISTED_WHY));
}

/// Autoplay's speeds, a button each, the one in force selected; returns the speed picked.
fn speed_menu(ui: &mut egui::Ui, speed: Speed) -> Option<Speed> {
    let current = Speed::ALL.iter().position(|&s| s == speed).unwrap_or(0);
    let labels = Speed::ALL.map(Speed::label);
    // The speeds are one control: they go to the next row together, never split over two.
    let spacing = ui.spacing().item_spacing.x;
    let width: f32 = labels
        .iter()
        .map(|l| crate::ui::theme::button_width(ui, l) + spacing)
        .sum();
    let row = ui.max_rect();
    let row_started = ui.cursor().left() > row.left() + 1.0;
    if row_started && row.right() - ui.cursor().left() < width - spacing {
        ui.end_row();
    }
    crate::ui::theme::choice_buttons(ui, labels, current, speed_label)
        .and_then(|picked| Speed::ALL.get(picked).copied())
}

/// The accessible label of the button of autoplay's speed `speed` ("Slow"): "Autoplay speed:
/// Slow".
pub fn speed_label(speed: &str) -> String {
    format!("Autoplay speed: {speed}")
}

/// The heading of "How to play", on the bar's button that shows it.
pub const HELP_HEADING: &str = help::HEADING;

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

/// Where the rising "+N" of a score box is drawn, `p` (0 to 1) of the way through its rise,
/// for text of size `text`: at the right of `room`, the place the score box keeps for it
/// inside itself, after the widest score it keeps room for, rising from the room's bottom to
/// its top (as the original 2048's rises from its score), so that it covers nothing: not the
/// score's digits, not the title or the buttons above the row, not the boxes after it, whatever
/// the window's width.
pub fn pop_rect(room: egui::Rect, p: f32, text: Vec2) -> egui::Rect {
    let p = p.clamp(0.0, 1.0);
    let bottom = room.bottom() - (room.height() - text.y).max(0.0) * p;
    // A gain too long for the room goes on past the box's right, never into the digits.
    let left = (room.right() - text.x).max(room.left());
    egui::Rect::from_min_max(
        egui::pos2(left, bottom - text.y),
        egui::pos2(left + text.x, bottom),
    )
}

/// The digits of the gain the room of the rising "+N" is as wide as.
pub const POP_DIGITS: usize = 6;

/// The digits a score box keeps room for, whatever its number.
pub const SCORE_DIGITS: usize = 7;

/// `text` with every number in it written as at least [`SCORE_DIGITS`] of `digit`: the widest
/// the box's text is while its numbers are that short.
pub fn stable_text(text: &str, digit: char) -> String {
    let mut out = String::with_capacity(text.len() + SCORE_DIGITS);
    let mut run = 0;
    let end_run = |out: &mut String, run: &mut usize| {
        if *run > 0 {
            out.extend(std::iter::repeat_n(digit, (*run).max(SCORE_DIGITS)));
        }
        *run = 0;
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            run += 1;
        } else {
            end_run(&mut out, &mut run);
            out.push(c);
        }
    }
    end_run(&mut out, &mut run);
    out
}

/// A score box: name and number; with `pop`, a room at its right for the rising "+N" after
/// points are won (the time they were and how many, and the sign '+'), or "−N" after they are
/// taken off where lower is better (sign '−').
fn score_box(ui: &mut egui::Ui, text: String, pop: Option<(Option<(f64, u64)>, char)>) {
    let frame = egui::Frame::group(ui.style())
        .fill(ui.visuals().faint_bg_color)
        .inner_margin(Vec2::new(10.0, 4.0));
    let font = FontId::proportional(18.0);
    let width = |ui: &egui::Ui, text: &str| {
        ui.painter()
            .layout_no_wrap(text.to_string(), font.clone(), Color32::WHITE)
            .size()
            .x
    };
    // As wide as the text with every number of 7 digits, the widest digit each: the boxes and
    // the controls after them keep their places while the score grows up to there.
    let widest_digit = ('0'..='9')
        .max_by(|&a, &b| width(ui, &a.to_string()).total_cmp(&width(ui, &b.to_string())))
        .unwrap_or('0');
    let room = width(ui, &stable_text(&text, widest_digit));
    // The rising "+N" has a room of its own at the box's right, kept whether or not it shows.
    let pop_width = pop.map_or(0.0, |(_, sign)| {
        let digits: String = std::iter::repeat_n(widest_digit, POP_DIGITS).collect();
        width(ui, &format!(" {sign}{digits}"))
    });
    // A box that does not fit in what is left of the row starts the next one (a frame is not
    // wrapped by the row itself: it would squeeze its text into a column).
    let needed =
        room + pop_width + 2.0 * 10.0 + 2.0 * ui.visuals().widgets.noninteractive.bg_stroke.width;
    // (In a wrapping row, the available width is the whole row's.)
    let left = ui.max_rect().right() - ui.cursor().left();
    let row_started = ui.cursor().left() > ui.max_rect().left() + 1.0;
    if row_started && left < needed {
        ui.end_row();
    }
    let shown = frame.show(ui, |ui| {
        // Never wider than the row has room for: a long text still wraps in a narrow window.
        ui.set_min_width((room + pop_width).min(ui.available_width()));
        ui.label(RichText::new(text).font(font.clone()).strong());
        ui.min_rect()
    });
    let Some((pop, sign)) = pop else {
        return;
    };
    // At the right of the box's text, the box's whole height: the room to rise in.
    let (inner, outer) = (shown.inner, shown.response.rect);
    let pop_room = egui::Rect::from_min_max(
        egui::pos2(inner.right() - pop_width, outer.top()),
        egui::pos2(inner.right(), outer.bottom()),
    );
    if let Some((start, gained)) = pop {
        let t = ui.input(|i| i.time) - start;
        if (0.0..SCORE_POP_SECONDS).contains(&t) {
            let p = (t / SCORE_POP_SECONDS) as f32;
            let palette = crate::ui::theme::Palette::of(ui.visuals().dark_mode);
            let text = RichText::new(format!("{sign}{gained}"))
                .font(font)
                .strong()
                .color(palette.pop(p));
            let galley = egui::WidgetText::from(text.clone()).into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Body,
            );
            let rect = pop_rect(pop_room, p, galley.size());
            // Above what it rises over, and never in the way of a click; a label, so that
            // a screen reader (and a test) finds it where it is drawn.
            egui::Area::new(Id::unique("score-pop"))
                .order(egui::Order::Foreground)
                .interactable(false)
                .fixed_pos(rect.min)
                .show(ui.ctx(), |ui| {
                    ui.add(egui::Label::new(text).extend());
                });
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

/// A dialog's button: its label (also what a screen reader reads), with its key written on it
/// at its right, and given to screen readers as its keyboard shortcut.
pub(crate) fn keyed_button(ui: &mut egui::Ui, label: &str, key: &str) -> egui::Response {
    let text = RichText::new(key).color(ui.visuals().weak_text_color());
    let response = ui.add(
        egui::Button::new(label)
            .shortcut_text(text)
            .min_size(Vec2::new(260.0, 0.0)),
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label));
    let shortcut = key.to_string();
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_keyboard_shortcut(shortcut);
    });
    response
}

/// The buttons of a dialog: (label, key written on it, answer); the first is the default,
/// answered by Return, and has the focus when the dialog opens.
pub(crate) fn dialog_buttons<T: Copy>(
    ui: &mut egui::Ui,
    dialog: Id,
    buttons: &[(&str, &str, T)],
) -> Option<T> {
    let mut choice = None;
    let mut ids = Vec::new();
    for &(label, key, answer) in buttons {
        let response = keyed_button(ui, label, key);
        if response.clicked() {
            choice = Some(answer);
        }
        // Arrow keys are the game's (a move after the end is no answer): they do not move
        // the focus off the answer; Tab does.
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                response.id,
                egui::EventFilter {
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    ..Default::default()
                },
            );
        });
        ids.push(response.id);
    }
    let ctx = ui.ctx().clone();
    // Tab and Shift+Tab go round the buttons, never to the screen behind.
    crate::ui::theme::trap_focus(&ctx, ids.clone());
    // Focus starts on the default answer when the dialog opens.
    let opened = ctx.data(|d| d.get_temp::<bool>(dialog)).is_none();
    if opened && let Some(&first) = ids.first() {
        ctx.memory_mut(|m| m.request_focus(first));
        ctx.data_mut(|d| d.insert_temp(dialog, true));
    }
    // Return answers with the default, unless the focus is on a button (which Return clicks).
    let focused = ctx.memory(|m| m.focused());
    if choice.is_none()
        && focused.is_none_or(|f| ids.first() == Some(&f))
        && ctx.input(|i| i.key_pressed(Key::Enter))
        && let Some(&(_, _, answer)) = buttons.first()
    {
        choice = Some(answer);
    }
    choice
}

/// The id under which dialog `name`'s buttons keep their focus ([`dialog_closed`]).
pub(crate) fn dialog_focus(name: &str) -> Id {
    Id::unique((name, "focus"))
}

/// A dialog of a heading, `body` and `buttons` ([`dialog_buttons`], their focus kept under
/// [`dialog_focus`] of `name`), `width` points wide at most; a click outside (or Escape)
/// answers `dismissed`. The caller forgets the focus ([`dialog_closed`]) once it closes.
pub(crate) fn button_dialog<T: Copy>(
    ctx: &egui::Context,
    name: &str,
    width: f32,
    heading: &str,
    body: impl FnOnce(&mut egui::Ui),
    buttons: &[(&str, &str, T)],
    dismissed: T,
) -> Option<T> {
    let mut answer = None;
    let modal = egui::Modal::new(Id::unique(name)).show(ctx, |ui| {
        crate::ui::theme::dialog_scroll(ui, |ui| {
            ui.set_max_width(width);
            ui.heading(heading);
            body(ui);
            ui.add_space(8.0);
            answer = dialog_buttons(ui, dialog_focus(name), buttons);
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(dismissed);
    }
    answer
}

/// Forgets that dialog `dialog` was open, so that it takes the focus when it opens again.
pub(crate) fn dialog_closed(ctx: &egui::Context, dialog: Id) {
    ctx.data_mut(|d| d.remove::<bool>(dialog));
}

/// The id of the win and game-over dialog.
fn end_dialog_id() -> Id {
    Id::unique("end-dialog")
}

/// Draws the win (once) or the end of the game over `board`, where the view wants it (over a
/// sliding board; under Strike 9's dice and tiles, which stay in sight). The default answers
/// are on Return: Keep going, and Play again. Escape on the win keeps going; Escape on the end
/// goes back as anywhere else (the game is kept).
pub fn end_overlay(
    ui: &mut egui::Ui,
    board: Option<egui::Rect>,
    session: &dyn DynSession,
    tally: Tally,
) -> Option<EndChoice> {
    let dialog = end_dialog_id();
    let status = session.status();
    let win_waits = win_waits(session, tally);
    let Some(board) = board.filter(|_| status.over || win_waits) else {
        dialog_closed(ui.ctx(), dialog);
        return None;
    };
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
    egui::Area::new(views::end_message_area())
        .order(egui::Order::Foreground)
        .fixed_pos(board.center())
        .pivot(Align2::CENTER_CENTER)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(board.width().clamp(280.0, 380.0));
                ui.vertical_centered(|ui| {
                    ui.heading(RichText::new(title).size(26.0).strong());
                    ui.add(egui::Label::new(detail).wrap());
                    ui.add_space(6.0);
                    // One button under the other, both centred; the default first.
                    let buttons: [(&str, &str, EndChoice); 2] = if win_waits {
                        [
                            ("Keep going", "Return", EndChoice::KeepGoing),
                            ("Start a new game", "N", EndChoice::NewGame),
                        ]
                    } else {
                        [
                            ("Play again", "Return", EndChoice::NewGame),
                            ("Take back the last move", "U", EndChoice::Undo),
                        ]
                    };
                    choice = dialog_buttons(ui, dialog, &buttons);
                });
            });
        });
    if win_waits && choice.is_none() && ui.input(|i| i.key_pressed(Key::Escape)) {
        choice = Some(EndChoice::KeepGoing);
    }
    choice
}

/// The "start a new game?" question over game `index`. `listening`: the question was already
/// open when this frame began, so this frame's keys are answers to it (and not the N that
/// opened it). Returns the answer once given: Y or the first button for yes; N, Return (the
/// default, which has the focus), Escape, a click outside or the second button for no.
pub fn confirm_new_game(
    ctx: &egui::Context,
    index: usize,
    score: u64,
    listening: bool,
) -> Option<bool> {
    let dialog = Id::unique(("confirm-new-focus", index));
    let mut answer = None;
    let modal = egui::Modal::new(Id::unique(("confirm-new", index))).show(ctx, |ui| {
        crate::ui::theme::dialog_scroll(ui, |ui| {
            ui.set_max_width(340.0);
            ui.heading("Start a new game?");
            ui.add(
                egui::Label::new(format!(
                    "The game in progress (score {score}) will end and count as played."
                ))
                .wrap(),
            );
            ui.add_space(8.0);
            let buttons = [
                ("No, keep playing", "N or Return", false),
                ("Yes, start a new game", "Y", true),
            ];
            // The first frame's Return is the one that may have opened nothing: only keys of a
            // question already open answer it.
            let picked = dialog_buttons(ui, dialog, &buttons);
            if listening {
                answer = picked;
                ui.input(|i| {
                    if i.key_pressed(Key::Y) {
                        answer = Some(true);
                    } else if i.key_pressed(Key::N) {
                        answer = Some(false);
                    }
                });
            } else if let Some(picked) = picked
                && !ctx.input(|i| i.key_pressed(Key::Enter))
            {
                answer = Some(picked);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(false);
    }
    if answer.is_some() {
        dialog_closed(ctx, dialog);
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pop_rises_in_its_own_room_clear_of_the_score_and_the_next_box() {
        let score = egui::Rect::from_min_size(egui::pos2(10.0, 80.0), Vec2::new(130.0, 34.0));
        let room = egui::Rect::from_min_size(egui::pos2(144.0, 80.0), Vec2::new(70.0, 34.0));
        let best = egui::Rect::from_min_size(egui::pos2(218.0, 80.0), Vec2::new(120.0, 34.0));
        let text = Vec2::new(60.0, 20.0);
        let mut last_y = f32::INFINITY;
        for step in 0..=10 {
            let rect = pop_rect(room, step as f32 / 10.0, text);
            assert!(room.contains_rect(rect), "{rect:?}");
            assert!(!rect.intersects(score), "{rect:?}");
            assert!(!rect.intersects(best), "{rect:?}");
            assert!(rect.center().y < last_y, "it rises at each step");
            last_y = rect.center().y;
        }
        // Wider than its room: it goes on to the right, never left into the digits.
        let wide = Vec2::new(90.0, 20.0);
        assert_eq!(pop_rect(room, 0.5, wide).left(), room.left());
        assert_eq!(pop_rect(room, 0.0, text).bottom(), room.bottom());
        assert_eq!(pop_rect(room, 1.0, text).top(), room.top());
        // Text taller than the room stays at its bottom.
        let tall = Vec2::new(60.0, 40.0);
        assert_eq!(pop_rect(room, 1.0, tall).bottom(), room.bottom());
    }

    #[test]
    fn a_box_keeps_room_for_seven_digits_per_number_and_grows_past_them() {
        assert_eq!(stable_text("Score: 0", '8'), "Score: 8888888");
        assert_eq!(stable_text("Score: 131072", '8'), "Score: 8888888");
        assert_eq!(stable_text("Score: 123456789", '8'), "Score: 888888888");
        assert_eq!(
            stable_text("Best: 12 \u{b7} assisted 4096", '0'),
            "Best: 0000000 \u{b7} assisted 0000000"
        );
        assert_eq!(
            stable_text("Best: none yet, lower is better", '0'),
            "Best: none yet, lower is better"
        );
    }
}
