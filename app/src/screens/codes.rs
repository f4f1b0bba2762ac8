//! Game codes and the daily game in the app: the dialog that shows a game's code with a Copy
//! button, the "Play a code" dialog of the launcher, and the daily game's mark. The codes are
//! [`tilebox_core::GameCode`]s, the same as the command-line tool's.

use egui::{Id, Key, RichText};
use tilebox_core::date::Date;

use crate::screens::chrome;
// The bar's buttons and mark, drawn by the bar (which does not use this module).
pub use crate::screens::chrome::{CODE_LABEL, DAILY_LABEL, daily_mark};

/// The launcher's button, and the heading of its dialog, that plays a code.
pub const PLAY_CODE_LABEL: &str = "Play a code";

/// The heading of the dialog that shows a game's code.
pub const CODE_HEADING: &str = "This game's code";

/// The code dialog's button that copies the code.
pub const COPY_LABEL: &str = "Copy";

/// The code dialog's button that closes it.
pub const CLOSE_LABEL: &str = "Close";

/// What the code dialog says once the code is copied.
pub const COPIED_TEXT: &str = "Copied to the clipboard.";

/// The accessible label of the field a code is typed in.
pub const CODE_FIELD_LABEL: &str = "Game code";

/// The "Play a code" dialog's button that plays it.
pub const PLAY_LABEL: &str = "Play this code";

/// The "Play a code" dialog's button that closes it.
pub const CANCEL_LABEL: &str = "Cancel";

/// The heading of the dialog that offers to add a code's game whose rules no game here has.
pub const ADD_GAME_HEADING: &str = "Add this game?";

/// That dialog's button that adds the game and plays the code.
pub const ADD_LABEL: &str = "Add and play";

/// That dialog's button that adds nothing.
pub const DONT_ADD_LABEL: &str = "Don't add";

/// Today, in UTC, by the system's clock.
pub fn today() -> Date {
    Date::of_unix(crate::store::clock::unix_seconds())
}

/// The width of a dialog's content: `wanted`, or less in a narrow window, so that the dialog
/// stays inside it with its frame and a margin.
fn dialog_width(ctx: &egui::Context, wanted: f32) -> f32 {
    wanted.min((ctx.content_rect().width() - 64.0).max(160.0))
}

/// What the player did in the code dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShowAnswer {
    /// Copy the code.
    Copy,
    /// Close the dialog.
    Close,
}

/// The dialog showing `code`: the code, what it is for, and Copy (the default: Return) and
/// Close (Escape, or a click outside).
pub(crate) fn show_code(ctx: &egui::Context, code: &str, copied: bool) -> Option<ShowAnswer> {
    let answer = chrome::button_dialog(
        ctx,
        "code-dialog",
        dialog_width(ctx, 380.0),
        CODE_HEADING,
        |ui| {
            ui.add(egui::Label::new(RichText::new(code).monospace().size(22.0).strong()).wrap());
            ui.add(
                egui::Label::new(
                    "Whoever plays this code gets this very game, from its start: the same board \
                     and the same tiles to come (\"Play a code\" in Tilebox's list of games, or \
                     tilebox-cli new --code).",
                )
                .wrap(),
            );
            if copied {
                ui.label(RichText::new(COPIED_TEXT).strong());
            }
        },
        &[
            (COPY_LABEL, "Return", ShowAnswer::Copy),
            (CLOSE_LABEL, "Escape", ShowAnswer::Close),
        ],
        ShowAnswer::Close,
    );
    if answer == Some(ShowAnswer::Close) {
        chrome::dialog_closed(ctx, chrome::dialog_focus("code-dialog"));
    }
    answer
}

/// What the player did in the dialog that offers to add a code's game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AddAnswer {
    /// Add the game and play the code.
    Add,
    /// Add nothing.
    Cancel,
}

/// The dialog that offers to add the game of a code whose rules no game here has (`game`):
/// what it is and the file that would hold its rules, Add and play (the default: Return) and
/// Don't add (Escape, or a click outside).
pub(crate) fn add_game(
    ctx: &egui::Context,
    game: &crate::store::variants::CodeGame,
) -> Option<AddAnswer> {
    let v = &game.variant;
    let answer = chrome::button_dialog(
        ctx,
        "add-game-dialog",
        dialog_width(ctx, 420.0),
        ADD_GAME_HEADING,
        |ui| {
            let win = v
                .win_words()
                .map_or_else(|| "no win".to_string(), |w| format!("won at {w}"));
            ui.add(
                egui::Label::new(format!(
                    "This code's game has rules that none of your games has ({side}×{side} board, \
                     {win}). Tilebox can add it to your games as \"{title}\", under {group}, and \
                     play the code there; its scores and history are kept under it.",
                    side = v.side,
                    title = game.info.title,
                    group = game.info.group,
                ))
                .wrap(),
            );
            ui.add(
                egui::Label::new(format!(
                    "Its rules are saved as a new file, {}, in Tilebox's data folder; no file \
                     there is ever written over.",
                    game.file
                ))
                .wrap(),
            );
        },
        &[
            (ADD_LABEL, "Return", AddAnswer::Add),
            (DONT_ADD_LABEL, "Escape", AddAnswer::Cancel),
        ],
        AddAnswer::Cancel,
    );
    if answer.is_some() {
        chrome::dialog_closed(ctx, chrome::dialog_focus("add-game-dialog"));
    }
    answer
}

/// What the player did in the "Play a code" dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlayAnswer {
    /// Play the code typed.
    Play,
    /// Close the dialog.
    Cancel,
}

/// The "Play a code" dialog: a field for the code (which has the focus when the dialog opens),
/// why the code played last was refused, and Play (Return) and Cancel (Escape, or a click
/// outside). `text` is the field's text, edited in place.
pub(crate) fn play_code(
    ctx: &egui::Context,
    text: &mut String,
    refused: Option<&str>,
) -> Option<PlayAnswer> {
    let opened_key = Id::unique("play-code-opened");
    let mut answer = None;
    let modal = egui::Modal::new(Id::unique("play-code-dialog")).show(ctx, |ui| {
        crate::ui::theme::dialog_scroll(ui, |ui| {
            ui.set_max_width(dialog_width(ctx, 400.0));
            ui.heading(PLAY_CODE_LABEL);
            ui.add(
                egui::Label::new(
                    "Type or paste the code of a game someone shared (a game's Code button shows \
                     it): you get that very game, from its start.",
                )
                .wrap(),
            );
            ui.add_space(4.0);
            let field = ui.add(
                egui::TextEdit::singleline(text)
                    .id(Id::unique("play-code-field"))
                    .desired_width(ui.available_width())
                    .font(egui::TextStyle::Monospace),
            );
            ui.ctx().accesskit_node_builder(field.id, |node| {
                node.set_label(CODE_FIELD_LABEL);
            });
            crate::ui::theme::focus_ring(ui, &field);
            // The field has the focus when the dialog opens.
            if ui.ctx().data(|d| d.get_temp::<bool>(opened_key)).is_none() {
                field.request_focus();
                ui.ctx().data_mut(|d| d.insert_temp(opened_key, true));
            }
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                answer = Some(PlayAnswer::Play);
                // Return took the focus off the field: it goes back, so that a code refused can be
                // mended at once.
                field.request_focus();
            }
            if let Some(why) = refused {
                ui.add(
                    egui::Label::new(RichText::new(why).color(ui.visuals().warn_fg_color)).wrap(),
                );
            }
            ui.add_space(8.0);
            let play = chrome::keyed_button(ui, PLAY_LABEL, "Return");
            if play.clicked() {
                answer = Some(PlayAnswer::Play);
            }
            let cancel = chrome::keyed_button(ui, CANCEL_LABEL, "Escape");
            if cancel.clicked() {
                answer = Some(PlayAnswer::Cancel);
            }
            crate::ui::theme::trap_focus(ui.ctx(), vec![field.id, play.id, cancel.id]);
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(PlayAnswer::Cancel);
    }
    answer
}

/// Forgets that the "Play a code" dialog was open, so that its field takes the focus when it
/// opens again.
pub(crate) fn play_code_closed(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove::<bool>(Id::unique("play-code-opened")));
}
