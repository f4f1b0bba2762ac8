//! The statistics screen's part on the game's AI player ([`crate::work::trainer`]): which player
//! hints and autoplay use, and "Train a stronger player", with the run's progress while it
//! trains (the figures `tilebox-cli train` shows, worded by the same function), and its stop.

use egui::RichText;
use tilebox_ai::ntuple::file::RunState;
use tilebox_ai::ntuple::run::{Figures, Target};

use crate::ui::theme::{Palette, thousands};
use crate::work::trainer::{MOVES_A_RUN, Standing, ended_a_run, target_after};

/// The label of the button that starts training a game's player.
pub const TRAIN_LABEL: &str = "Train a stronger player";

/// The label of the button that resumes a run stopped before its games were played.
pub const RESUME_LABEL: &str = "Resume training";

/// The label of the button that stops the run under way.
pub const STOP_LABEL: &str = "Stop training";

/// What the part says where this build does not train ([`crate::work::trainer::AVAILABLE`]: a
/// page), in place of the button.
pub const DESKTOP_ONLY_TEXT: &str = "Training runs in the desktop app.";

/// The accessible label of the run's progress bar.
pub const PROGRESS_LABEL: &str = "Training progress";

/// What the part shows.
pub(crate) struct Panel {
    /// Where the game's player stands.
    pub standing: Standing,
    /// The title of another game whose player is training now, if one is.
    pub other: Option<String>,
    /// Why nothing can be trained, if nothing can (nothing is saved).
    pub blocked: Option<String>,
    /// The moves a player must have learned from before hints and autoplay use it.
    pub plays_from: u64,
    /// Whether this build trains ([`crate::work::trainer::AVAILABLE`]); else the part says where
    /// training runs, instead of its button.
    pub available: bool,
}

/// What the player asked of the part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asked {
    /// Train (or resume training) this game's player.
    Train,
    /// Stop the run under way.
    Stop,
}

/// The line saying which player hints and autoplay use: the one trained as `state` says.
pub fn trained_text(state: &RunState) -> String {
    format!(
        "Hints and autoplay use the player trained on {} moves ({} games).",
        millions(state.moves),
        thousands(state.games)
    )
}

/// The line saying that hints and autoplay use the built-in player until the trained one has
/// learned from `from` moves; it has learned from `moves`.
pub fn learning_text(moves: u64, from: u64) -> String {
    format!(
        "Hints and autoplay use the built-in player until this one has trained on {} moves ({} so far).",
        millions(from),
        millions(moves)
    )
}

/// What the part says of a game not trained yet.
pub const UNTRAINED_TEXT: &str = "Hints and autoplay use the built-in player. Train one that \
learns this game by playing it: it trains in the background on one core, and can be stopped and \
resumed at any time.";

/// A count of moves in millions, rounded down, or whole below ten million: "1,750 million",
/// "412 million", "8,517,999".
pub fn millions(moves: u64) -> String {
    if moves < 10_000_000 {
        thousands(moves)
    } else {
        format!("{} million", thousands(moves / 1_000_000))
    }
}

/// The progress bar's text: "412 million of 1,750 million moves".
pub fn progress_text(figures: &Figures) -> String {
    match figures.target {
        Target::Moves(target) => {
            format!("{} of {} moves", millions(figures.moves), millions(target))
        }
        Target::Games(target) => format!(
            "{} of {} games",
            thousands(figures.games),
            thousands(target)
        ),
    }
}

/// Draws the part; returns what the player asked for.
pub(crate) fn show(ui: &mut egui::Ui, panel: &Panel) -> Option<Asked> {
    let palette = Palette::of(ui.visuals().dark_mode);
    let mut asked = None;
    ui.add_space(6.0);
    ui.label(RichText::new("The AI player").strong().size(18.0));
    let mut button = |ui: &mut egui::Ui, label: &str, hover: &str, enabled: bool, what: Asked| {
        let response = ui
            .add_enabled(enabled, egui::Button::new(label))
            .on_hover_text(hover);
        crate::ui::theme::focus_ring(ui, &response);
        if response.clicked() {
            asked = Some(what);
        }
    };
    if !panel.available {
        ui.add(egui::Label::new("Hints and autoplay use the built-in player.").wrap());
        ui.add(egui::Label::new(RichText::new(DESKTOP_ONLY_TEXT).color(palette.weak)).wrap());
        return None;
    }
    let free = panel.blocked.is_none() && panel.other.is_none();
    let why_not = |ui: &mut egui::Ui| {
        if let Some(blocked) = &panel.blocked {
            ui.add(egui::Label::new(RichText::new(blocked.as_str()).color(palette.warn)).wrap());
        } else if let Some(other) = &panel.other {
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "The player of {other} is training now: stop it on its statistics \
                         screen to train this one."
                    ))
                    .color(palette.weak),
                )
                .wrap(),
            );
        }
    };
    match &panel.standing {
        Standing::Reading => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reading the trained player…");
            });
        }
        Standing::Untrained => {
            ui.add(egui::Label::new(UNTRAINED_TEXT).wrap());
            why_not(ui);
            button(
                ui,
                TRAIN_LABEL,
                &format!(
                    "Train on {} moves, in the background",
                    millions(MOVES_A_RUN)
                ),
                free,
                Asked::Train,
            );
        }
        Standing::Trained(state) => {
            let text = if state.moves >= panel.plays_from {
                trained_text(state)
            } else {
                learning_text(state.moves, panel.plays_from)
            };
            ui.add(egui::Label::new(text).wrap());
            why_not(ui);
            let target = target_after(state.moves);
            let (label, hover) = if ended_a_run(state.moves) {
                (
                    TRAIN_LABEL,
                    format!("Train on to {} moves, in the background", millions(target)),
                )
            } else {
                (
                    RESUME_LABEL,
                    format!(
                        "Go on from {} to {} moves, in the background",
                        millions(state.moves),
                        millions(target)
                    ),
                )
            };
            button(ui, label, &hover, free, Asked::Train);
        }
        Standing::Training { figures, stopping } => {
            let (fraction, text) = match figures {
                Some(f) => (f.fraction() as f32, progress_text(f)),
                None => (0.0, "Starting…".to_string()),
            };
            // The count above the bar, not on it: text on the bar would cross its fill and its
            // track, and could not contrast with both in either theme.
            ui.label(RichText::new(text).strong());
            let bar = ui.add(
                egui::ProgressBar::new(fraction).desired_width(ui.available_width().min(480.0)),
            );
            // egui draws the track in the window's own shade and the fill, at the start, as a
            // dot: the outline (3:1 against the window, as a button's) shows the whole bar from 0%.
            ui.painter().rect_stroke(
                bar.rect,
                bar.rect.height() / 2.0,
                egui::Stroke::new(1.0, palette.outline),
                egui::StrokeKind::Inside,
            );
            bar.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::ProgressIndicator, true, PROGRESS_LABEL)
            });
            if let Some(f) = figures {
                ui.add(egui::Label::new(RichText::new(f.line()).color(palette.weak)).wrap());
            }
            ui.add(
                egui::Label::new(
                    "Training goes on in the background while you play, and is saved every \
                     minute.",
                )
                .wrap(),
            );
            let label = if *stopping { "Stopping…" } else { STOP_LABEL };
            button(
                ui,
                label,
                "Stop after the games under way; what was learned is kept",
                !stopping,
                Asked::Stop,
            );
            // The figures come twice a second; nothing else would draw them.
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(500));
        }
        Standing::Failed(why) => {
            ui.add(
                egui::Label::new(
                    RichText::new(format!("The player cannot be trained: {why}"))
                        .color(palette.warn),
                )
                .wrap(),
            );
            // The same cause is said once.
            if panel.blocked.as_deref() != Some(why.as_str()) {
                why_not(ui);
            }
            button(ui, TRAIN_LABEL, "Try again", free, Asked::Train);
        }
    }
    asked
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::kittest::Queryable;

    #[test]
    fn where_training_is_not_available_the_part_says_so_instead_of_its_button() {
        for available in [true, false] {
            let panel = Panel {
                standing: Standing::Untrained,
                other: None,
                blocked: None,
                plays_from: MOVES_A_RUN,
                available,
            };
            let mut h = egui_kittest::Harness::new_ui(|ui| {
                show(ui, &panel);
            });
            h.run();
            assert_eq!(h.query_by_label(TRAIN_LABEL).is_some(), available);
            assert_eq!(h.query_by_label(DESKTOP_ONLY_TEXT).is_some(), !available);
        }
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(41_793), "41,793");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn moves_are_counted_in_millions_or_whole() {
        assert_eq!(millions(0), "0");
        assert_eq!(millions(8_517_999), "8,517,999");
        assert_eq!(millions(10_000_000), "10 million");
        assert_eq!(millions(412_345_678), "412 million");
        assert_eq!(millions(MOVES_A_RUN), "1,750 million");
    }
}
