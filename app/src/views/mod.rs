//! The game views: each draws its kind of game and turns input (keys, clicks, drags) into moves,
//! which it returns as text; the shell plays them (as sgt-puzzles' `interpret_move` and
//! `execute_move`), so one path counts, saves and animates every move of every game.
//!
//! A view belongs to a game kind, found by the kind's type in [`VIEWS`]: one generic sliding
//! view serves 2048 and Threes, Strike 9 has its own, and a kind with no view of its own gets
//! the plain one (its text and a button per legal move), so a newly registered kind is playable
//! at once.

pub mod generic;
pub mod sliding;
pub mod strike9;

use std::any::TypeId;

use egui::Rect;
use tilebox_core::{DynSession, Entry, Puzzle};
use tilebox_sliding::Sliding;
use tilebox_strike9::Strike9;

use crate::ui::input::KeyPress;

/// What a view did this frame.
#[derive(Debug, Default)]
pub struct ViewOutcome {
    /// The moves the player made, in their text form, for the shell to play in order.
    pub moves: Vec<String>,
    /// The player made a move, or tried to, with a key, a click or a swipe: the player takes
    /// the game back from the AI.
    pub player_moved: bool,
    /// Something to tell the player (a refused choice).
    pub message: Option<String>,
    /// Where the board is, for the game-over and win messages.
    pub board: Option<Rect>,
}

/// A view of one kind of game.
pub trait GameView: Send {
    /// Draws the game of `session` and reads the player's input (`keys` are this frame's keys
    /// that are not the shell's commands). With `accepts_moves` false (a message waits for an
    /// answer over the board) the board is drawn and no move is made.
    fn show(
        &mut self,
        ui: &mut egui::Ui,
        session: &dyn DynSession,
        keys: &[KeyPress],
        accepts_moves: bool,
    ) -> ViewOutcome;

    /// A move was just played on `session` (the player's or autoplay's), at time `now`: start
    /// its animation, forget the hint and any half-made choice.
    fn played(&mut self, session: &dyn DynSession, now: f64) {
        let _ = (session, now);
        self.reset();
    }

    /// The game changed otherwise (undo, redo, a new game): forget animations, hints and
    /// choices.
    fn reset(&mut self) {}

    /// Shows `mv`, a move in its text form, as the best move until the game changes;
    /// `trained`: the game's trained player found it (the app's trainer), which the hint says.
    fn show_hint(&mut self, mv: &str, trained: bool) {
        let _ = (mv, trained);
    }

    /// Whether H without Shift asks for a hint (in the sliding games h is a move, as in vi).
    fn plain_h_hints(&self) -> bool {
        false
    }

    /// How this view shows a hint, for How to play: a phrase that follows "hint" ("the best
    /// move, as an arrow on the board").
    fn hint_looks(&self) -> &'static str {
        "the best move, named under the board"
    }

    /// What the assistant's lines under the board tell, for How to play, in a sentence; none
    /// when the view has nothing to say about them. The rules and the controls are the entry's
    /// ([`tilebox_core::Entry::how_to_play`]), so a view does not repeat them.
    fn commentary_help(&self) -> Option<&'static str> {
        None
    }

    /// The controls of the game of `session` beyond what its rules say, for How to play (keys
    /// of a bigger box, a choice the player makes with buttons); none by default.
    fn controls_help(&self, session: &dyn DynSession) -> Option<String> {
        let _ = session;
        None
    }

    /// The accessible label of the line that names `mv` (a move in its text form) as the hint;
    /// none if `mv` is not a move of this view's kind.
    fn hint_label(&self, mv: &str) -> Option<String>;

    /// What a player does to play `mv` (a move in its text form) in this view: the keys to
    /// press and the controls to click, in order; empty if `mv` is not a move of this view's
    /// kind.
    fn inputs_for(&self, mv: &str) -> Vec<PlayInput>;
}

/// One thing a player does towards a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayInput {
    /// Press this key.
    Key(egui::Key),
    /// Click the control with this accessible label.
    Click(String),
}

/// A new view for the game kind of `P`.
type MakeView = fn() -> Box<dyn GameView>;

fn view_of<P: Puzzle>(make: MakeView) -> (TypeId, MakeView) {
    (TypeId::of::<P>(), make)
}

/// The kinds with a view of their own, a line each. A kind not listed gets the plain view.
static VIEWS: std::sync::LazyLock<Vec<(TypeId, MakeView)>> = std::sync::LazyLock::new(|| {
    vec![
        view_of::<Sliding>(|| Box::new(sliding::SlidingView::default())),
        view_of::<Strike9>(|| Box::new(strike9::Strike9View::default())),
    ]
});

/// A fresh view for the games of `entry`.
pub fn for_entry(entry: &Entry) -> Box<dyn GameView> {
    let kind = entry.kind_type();
    VIEWS.iter().find(|(t, _)| *t == kind).map_or_else(
        || Box::new(generic::GenericView::default()) as Box<dyn GameView>,
        |(_, make)| make(),
    )
}

/// The id of the area of the win or game-over message (the game screen's end overlay).
pub(crate) fn end_message_area() -> egui::Id {
    egui::Id::unique("end-message-area")
}

/// The height the win or game-over message took when it was last drawn, if it has been: a
/// view that keeps room for it under its board (Strike 9's) keeps as much.
pub(crate) fn end_message_height(ctx: &egui::Context) -> Option<f32> {
    ctx.memory(|m| m.area_rect(end_message_area()))
        .map(|r| r.height())
}

/// Why the game ended, in a sentence, for the game-over message.
pub fn end_text(session: &dyn DynSession) -> String {
    if let Some(text) = session.end_text() {
        return text;
    }
    if session.status().won {
        "Well played.".to_string()
    } else {
        "No move is left.".to_string()
    }
}
