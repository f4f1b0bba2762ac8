//! The launcher: one card per registered game, with its best score and games played.

use egui::{Align2, Color32, FontId, Rect, RichText, Sense, Stroke, Vec2, WidgetInfo};

use crate::app::GameSlot;
use crate::chrome;
use crate::scores::Scores;
use crate::theme::ThemeChoice;

/// What the player did in the launcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Nothing.
    None,
    /// Open the game at this index.
    Open(usize),
    /// Switch theme.
    ToggleTheme,
}

/// The accessible label of the card of the game titled `title`.
pub fn card_label(title: &str) -> String {
    format!("Play {title}")
}

/// Draws the launcher.
pub(crate) fn show(
    ui: &mut egui::Ui,
    slots: &[GameSlot],
    scores: &Scores,
    notices: &mut Vec<String>,
    theme: ThemeChoice,
) -> Action {
    let mut action = Action::None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                ui.heading(RichText::new("Tilebox").size(32.0).strong());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if chrome::theme_button(ui, theme) {
                        action = Action::ToggleTheme;
                    }
                });
            });
            ui.label("Pick a game: click its card or press its number.");
            ui.add_space(8.0);

            let mut dismiss = None;
            for (i, text) in notices.iter().enumerate() {
                egui::Frame::group(ui.style())
                    .fill(ui.visuals().warn_fg_color.gamma_multiply(0.15))
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            ui.label(
                                RichText::new("Notice")
                                    .strong()
                                    .color(ui.visuals().warn_fg_color),
                            );
                            ui.add(egui::Label::new(text.as_str()).wrap());
                        });
                        if ui.button(format!("Dismiss notice {}", i + 1)).clicked() {
                            dismiss = Some(i);
                        }
                    });
                ui.add_space(6.0);
            }
            if let Some(i) = dismiss {
                notices.remove(i);
            }

            for (i, slot) in slots.iter().enumerate() {
                if card(ui, i, slot, scores) {
                    action = Action::Open(i);
                }
                ui.add_space(10.0);
            }
        });
    });
    action
}

/// One game's card; true when clicked.
fn card(ui: &mut egui::Ui, index: usize, slot: &GameSlot, scores: &Scores) -> bool {
    let info = slot.entry.info;
    let stats = scores.get(info.id);
    let width = ui.available_width().min(640.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, 96.0), Sense::click());
    let label = card_label(info.title);
    response.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, &label));

    let visuals = ui.visuals().clone();
    let fill = if response.hovered() {
        visuals.widgets.hovered.weak_bg_fill
    } else {
        visuals.faint_bg_color
    };
    let painter = ui.painter();
    painter.rect_filled(rect, 10.0, fill);
    painter.rect_stroke(
        rect,
        10.0,
        Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
        egui::StrokeKind::Inside,
    );

    // The number badge.
    let badge =
        Rect::from_center_size(rect.left_center() + Vec2::new(36.0, 0.0), Vec2::splat(44.0));
    painter.rect_filled(badge, 8.0, visuals.selection.bg_fill);
    painter.text(
        badge.center(),
        Align2::CENTER_CENTER,
        (index + 1).to_string(),
        FontId::proportional(24.0),
        visuals.selection.stroke.color,
    );

    // The text, as labels (read by screen readers), over the card; they take no clicks.
    let mut line = format!(
        "Best {}   ·   Played {}   ·   Won {}",
        stats.best, stats.played, stats.won
    );
    if let Some(session) = slot.session.as_deref()
        && session.move_count() > 0
        && !session.status().over
    {
        line.push_str(&format!("   ·   In progress: score {}", session.score()));
    }
    let text_rect = Rect::from_min_max(
        rect.min + Vec2::new(76.0, 8.0),
        rect.max - Vec2::new(10.0, 6.0),
    );
    {
        let ui = &mut ui.new_child(egui::UiBuilder::new().max_rect(text_rect));
        ui.style_mut().interaction.selectable_labels = false;
        ui.spacing_mut().item_spacing.y = 3.0;
        ui.label(RichText::new(info.title).size(22.0).strong());
        ui.add(egui::Label::new(RichText::new(info.description).weak()).truncate());
        ui.label(
            RichText::new(line)
                .size(14.0)
                .color(Color32::from_rgb(0xc0, 0x8a, 0x30)),
        );
    }
    response.clicked()
}
