//! The launcher: one card per group of entries (a game), and for a game with several entries
//! (2048's board sizes, a game's versions) a second screen with a card per entry; each card
//! shows its best score, games played and won, and what is in progress.

use egui::{Align2, Color32, FontId, Rect, RichText, Sense, Stroke, Vec2, WidgetInfo};
use tilebox_core::{ParamOption, Registry};

use crate::app::GameSlot;
use crate::chrome;
use crate::scores::{Best, Scores};
use crate::theme::ThemeChoice;

/// What a card leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Card {
    /// The entry at this index of the registry.
    Entry(usize),
    /// The group at this index of [`Registry::groups`].
    Group(usize),
}

/// What the player did in the launcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Nothing.
    None,
    /// Open what this card leads to.
    Choose(Card),
    /// Switch theme.
    ToggleTheme,
    /// Back from a group's entries to the games.
    Back,
    /// In the menu of options, option `option` (an index into [`Options::options`]) was set
    /// to its choice `choice`.
    Pick {
        /// The option.
        option: usize,
        /// Its new choice.
        choice: usize,
    },
}

/// The menu of options of a group whose kind has some ([`tilebox_core::FrontEnd::options`]):
/// the options, the choice picked in each, and the game those choices make, if any.
pub(crate) struct Options<'a> {
    pub options: &'a [ParamOption],
    pub picks: &'a [usize],
    /// The slot of the game the picks make.
    pub game: Option<usize>,
}

/// The accessible label of the drop-down of option `name` showing its choice `shown`, as a
/// screen reader says it: "Tiles: 12 tiles".
pub fn option_label(name: &str, shown: &str) -> String {
    format!("{name}: {shown}")
}

/// The accessible label of the button that plays the options picked.
pub const PLAY_OPTIONS_LABEL: &str = "Start a game with these options";

/// What the launcher shows.
pub(crate) struct Screen<'a> {
    /// The group whose entries are shown; `None` for the list of games.
    pub title: Option<&'a str>,
    /// The cards, in order: card i answers to key i + 1.
    pub cards: &'a [Card],
    pub registry: &'a Registry,
    pub slots: &'a [GameSlot],
    pub scores: &'a Scores,
    pub theme: ThemeChoice,
    /// The menu of options, on a group's screen whose kind has some.
    pub options: Option<Options<'a>>,
}

/// The accessible label of the card of the game titled `title`.
pub fn card_label(title: &str) -> String {
    format!("Play {title}")
}

/// The accessible label of the launcher's Back button, on a group's screen.
pub const BACK_LABEL: &str = "Back";

/// Draws the launcher.
pub(crate) fn show(ui: &mut egui::Ui, screen: &Screen<'_>, notices: &mut Vec<String>) -> Action {
    let mut action = Action::None;
    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if screen.title.is_some()
                    && ui
                        .button(BACK_LABEL)
                        .on_hover_text("Back to the games (Escape)")
                        .clicked()
                {
                    action = Action::Back;
                }
                let heading = screen.title.unwrap_or("Tilebox");
                ui.heading(RichText::new(heading).size(32.0).strong());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if chrome::theme_button(ui, screen.theme) {
                        action = Action::ToggleTheme;
                    }
                });
            });
            ui.label(if screen.title.is_some() {
                "Pick a version: click its card or press its number. Escape: back."
            } else {
                "Pick a game: click its card or press its number."
            });
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

            for (i, &c) in screen.cards.iter().enumerate() {
                let face = match c {
                    Card::Entry(e) => screen
                        .slots
                        .get(e)
                        .map(|slot| entry_face(slot, screen.scores)),
                    Card::Group(g) => group_face(screen, g),
                };
                if let Some(face) = face
                    && card(ui, i, &face)
                {
                    action = Action::Choose(c);
                }
                ui.add_space(10.0);
            }
            if let Some(options) = &screen.options {
                let picked = options_menu(ui, options, screen.slots, screen.scores);
                if picked != Action::None {
                    action = picked;
                }
            }
        });
    });
    action
}

/// The menu of options: a drop-down per option, what the game they make has on record, and a
/// button that plays it.
fn options_menu(
    ui: &mut egui::Ui,
    menu: &Options<'_>,
    slots: &[GameSlot],
    scores: &Scores,
) -> Action {
    let mut action = Action::None;
    let width = ui.available_width().min(640.0);
    ui.allocate_ui(Vec2::new(width, 0.0), |ui| {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(width - 16.0);
            ui.label(RichText::new("Or combine the options").size(20.0).strong());
            egui::Grid::new("options-menu")
                .num_columns(2)
                .spacing(Vec2::new(12.0, 6.0))
                .show(ui, |ui| {
                    for (i, option) in menu.options.iter().enumerate() {
                        ui.label(&option.name);
                        let current = menu.picks.get(i).copied().unwrap_or(0);
                        let shown = option
                            .choices
                            .get(current)
                            .map_or("", |(label, _)| label.as_str());
                        egui::ComboBox::from_id_salt(("option", i))
                            .selected_text(shown)
                            .width(260.0)
                            .show_ui(ui, |ui| {
                                for (c, (label, _)) in option.choices.iter().enumerate() {
                                    if ui.selectable_label(c == current, label).clicked() {
                                        action = Action::Pick {
                                            option: i,
                                            choice: c,
                                        };
                                    }
                                }
                            })
                            .response
                            .widget_info(|| {
                                WidgetInfo::labeled(
                                    egui::Role::ComboBox,
                                    true,
                                    option_label(&option.name, shown),
                                )
                            });
                        ui.end_row();
                    }
                });
            let game = menu.game.and_then(|i| slots.get(i));
            if let Some(slot) = game {
                let face = entry_face(slot, scores);
                ui.label(RichText::new(&face.title).strong());
                ui.label(
                    RichText::new(face.line)
                        .size(14.0)
                        .color(Color32::from_rgb(0xc0, 0x8a, 0x30)),
                );
            }
            if ui
                .add_enabled(game.is_some(), egui::Button::new(PLAY_OPTIONS_LABEL))
                .clicked()
                && let Some(i) = menu.game
            {
                action = Action::Choose(Card::Entry(i));
            }
        });
    });
    action
}

/// What a card says.
struct Face {
    title: String,
    description: String,
    line: String,
}

/// The card of one entry: its title, description, best, counts and game in progress.
fn entry_face(slot: &GameSlot, scores: &Scores) -> Face {
    let info = slot.entry.info();
    let stats = scores.get(&info.id);
    let best = stats.best_for(slot.entry.lower_is_better()).card_text();
    let mut line = format!(
        "{best}   ·   Played {}   ·   Won {}",
        stats.played, stats.won
    );
    if let Some(session) = slot.session.as_deref()
        && session.move_count() > 0
        && !session.status().over
    {
        line.push_str(&format!("   ·   In progress: score {}", session.score()));
    }
    Face {
        title: info.title.clone(),
        description: info.description.clone(),
        line,
    }
}

/// The card of a group of entries: the game, how many versions of it there are, the highest
/// best among them and which version it was made in, and what its entries add up to.
fn group_face(screen: &Screen<'_>, group: usize) -> Option<Face> {
    let groups = screen.registry.groups();
    let (title, members) = groups.get(group)?;
    let first = screen.registry.entries().get(*members.first()?)?;
    let (mut played, mut won, mut going) = (0, 0, 0);
    // The highest best of the versions scored higher-is-better, and the lowest of those scored
    // lower-is-better, each with the entry that holds it (the first of equals): the two are
    // never compared.
    let mut best: Option<(u64, &str)> = None;
    let mut lowest: Option<(u64, &str)> = None;
    let mut any_higher = false;
    for &i in members {
        let entry = screen.registry.entries().get(i)?;
        let stats = screen.scores.get(entry.id());
        played += stats.played;
        won += stats.won;
        if entry.lower_is_better() {
            if let Some(points) = stats.lowest
                && lowest.is_none_or(|(l, _)| points < l)
            {
                lowest = Some((points, entry.title()));
            }
        } else {
            any_higher = true;
            if stats.best > best.map_or(0, |(b, _)| b) {
                best = Some((stats.best, entry.title()));
            }
        }
        let in_progress = screen
            .slots
            .get(i)
            .and_then(|s| s.session.as_deref())
            .is_some_and(|s| s.move_count() > 0 && !s.status().over);
        going += usize::from(in_progress);
    }
    let mut bests = Vec::new();
    if let Some((points, title)) = best {
        bests.push(group_best(points, title));
    }
    if let Some((points, title)) = lowest {
        bests.push(format!(
            "{} in {title}",
            Best::Lowest(Some(points)).card_text()
        ));
    }
    if bests.is_empty() {
        let none = if any_higher {
            Best::Highest(0)
        } else {
            Best::Lowest(None)
        };
        bests.push(none.card_text());
    }
    let best = bests.join("   ·   ");
    let mut line = format!(
        "{}   ·   {best}   ·   Played {played}   ·   Won {won}",
        versions(members.len())
    );
    if going > 0 {
        line.push_str(&format!("   ·   In progress: {going}"));
    }
    Some(Face {
        title: title.to_string(),
        description: first.kind().description.to_string(),
        line,
    })
}

/// How many versions a game has: "5 versions".
pub fn versions(n: usize) -> String {
    if n == 1 {
        "1 version".to_string()
    } else {
        format!("{n} versions")
    }
}

/// The best of a game of several versions, and the version (titled `title`) it was made in:
/// "Best 2516 in 2048 (5×5)".
pub fn group_best(points: u64, title: &str) -> String {
    format!("Best {points} in {title}")
}

/// One card, numbered `index` + 1; true when clicked.
fn card(ui: &mut egui::Ui, index: usize, face: &Face) -> bool {
    let width = ui.available_width().min(640.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, 96.0), Sense::click());
    let label = card_label(&face.title);
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
    let text_rect = Rect::from_min_max(
        rect.min + Vec2::new(76.0, 8.0),
        rect.max - Vec2::new(10.0, 6.0),
    );
    {
        let ui = &mut ui.new_child(egui::UiBuilder::new().max_rect(text_rect));
        ui.style_mut().interaction.selectable_labels = false;
        ui.spacing_mut().item_spacing.y = 3.0;
        ui.label(RichText::new(&face.title).size(22.0).strong());
        ui.add(egui::Label::new(RichText::new(&face.description).weak()).truncate());
        ui.label(
            RichText::new(&face.line)
                .size(14.0)
                .color(Color32::from_rgb(0xc0, 0x8a, 0x30)),
        );
    }
    response.clicked()
}
