//! The statistics screen of one entry: the figures of its history ([`crate::stats`]),
//! unassisted games first and the assisted and daily games beside, a chart of every game's
//! score with the best marked, a chart of the highest tiles reached (or the tiles left), and
//! the list of games, each with its replay.

use egui::{RichText, Vec2};
use egui_plot::{Bar, BarChart, GridMark, Line, MarkerShape, Plot, PlotPoints, Points};
use tilebox_core::Entry;

use crate::history::{HistoryView, Record};
use crate::input;
use crate::stats::{Figures, Measure, Stats};
use crate::theme::Palette;

/// What the player did on the statistics screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Nothing.
    None,
    /// Back to where the screen was opened from.
    Back,
    /// Replay the game at this index of the history.
    Replay(usize),
}

/// The accessible label of the button that replays the best game.
pub const REPLAY_BEST_LABEL: &str = "Replay my best game";

/// What the screen says when the history has no game.
pub const EMPTY_TEXT: &str = "No games finished yet — play one and it will show here.";

/// What the screen says while the history is read.
pub const LOADING_TEXT: &str = "Reading the history…";

/// The keys of the screen, written on it.
pub const KEYS_TEXT: &str =
    "R: replay my best game    Tab: the games' Replay buttons    Escape: back";

/// The text of one figure as the screen shows it (and a screen reader reads it): its name,
/// then its value on the line below.
pub fn figure_text(name: &str, value: &str) -> String {
    format!("{name}\n{value}")
}

/// The accessible label of the button that replays game `number` (from 1, oldest first).
pub fn replay_label(number: usize) -> String {
    format!("Replay game {number}")
}

/// A score or a mean as shown: whole numbers without decimals, others to one place.
pub fn number(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// A best as shown: "—" when there is none.
pub fn best_text(best: Option<u64>) -> String {
    best.map_or_else(|| "—".to_string(), |b| b.to_string())
}

/// A share as shown: "80%"; "—" when there is none.
pub fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "—".to_string(), |r| format!("{:.0}%", r * 100.0))
}

/// Shows where the keyboard's focus is on `response`, a control of the statistics or replay
/// screen: a ring in the focus colour, and the page scrolled to it when it gains the focus.
pub(crate) fn show_focus(ui: &egui::Ui, response: &egui::Response) {
    crate::theme::focus_ring(ui, response);
}

/// The statistics last worked out, by entry and number of games: a history only grows, so
/// they are worked out again only when a game is added or another entry's are shown, not at
/// every frame.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    key: Option<(String, usize)>,
    stats: Option<Stats>,
}

impl Memo {
    /// The statistics of `records`, the history of `entry`.
    fn of(&mut self, entry: &Entry, records: &[Record]) -> &Stats {
        let key = (entry.id().to_string(), records.len());
        let stats = match self.stats.take() {
            Some(stats) if self.key.as_ref() == Some(&key) => stats,
            _ => Stats::of(records, entry.lower_is_better()),
        };
        self.key = Some(key);
        self.stats.insert(stats)
    }
}

/// Draws the statistics of `entry` from its history; returns what the player asked for.
pub(crate) fn show(
    ui: &mut egui::Ui,
    entry: &Entry,
    history: HistoryView<'_>,
    memo: &mut Memo,
) -> Action {
    let mut action = Action::None;
    let records = match history {
        HistoryView::Ready(records) => Some(records),
        HistoryView::Loading => None,
    };
    let stats = records.map(|r| memo.of(entry, r));
    let best = stats.and_then(|s| s.best_game);

    for k in input::read_keys(ui.ctx()) {
        if k.repeat || k.has_command_modifier() {
            continue;
        }
        match k.key {
            egui::Key::Escape => action = Action::Back,
            egui::Key::R => {
                if let Some(i) = best {
                    action = Action::Replay(i);
                }
            }
            _ => {}
        }
    }

    egui::Panel::top("stats-top").show(ui, |ui| {
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let back = ui
                .button("Back")
                .on_hover_text("Back to where you came from (Escape)");
            show_focus(ui, &back);
            if back.clicked() {
                action = Action::Back;
            }
            ui.add(
                egui::Label::new(
                    RichText::new(format!("Statistics: {}", entry.title()))
                        .heading()
                        .strong(),
                )
                .truncate(),
            );
        });
        ui.add_space(4.0);
    });

    egui::CentralPanel::default().show(ui, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            let (Some(records), Some(stats)) = (records, stats) else {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(LOADING_TEXT);
                });
                return;
            };
            if records.is_empty() {
                ui.add_space(24.0);
                ui.vertical_centered(|ui| {
                    ui.add(egui::Label::new(RichText::new(EMPTY_TEXT).size(18.0)).wrap());
                });
                ui.add_space(8.0);
                ui.label(RichText::new("Escape: back").small());
                return;
            }
            if let Some(i) = figures_and_lists(ui, entry, records, stats) {
                action = Action::Replay(i);
            }
        });
    });
    action
}

/// The screen of a history with games in it; returns the game whose replay was asked for.
fn figures_and_lists(
    ui: &mut egui::Ui,
    entry: &Entry,
    records: &[Record],
    stats: &Stats,
) -> Option<usize> {
    let mut replay = None;
    let palette = Palette::of(ui.visuals().dark_mode);
    ui.horizontal_wrapped(|ui| {
        let button = ui
            .add_enabled(
                stats.best_game.is_some(),
                egui::Button::new(REPLAY_BEST_LABEL),
            )
            .on_hover_text("Watch your best game from its start (R)");
        show_focus(ui, &button);
        if button.clicked() {
            replay = stats.best_game;
        }
        ui.label(RichText::new(KEYS_TEXT).color(palette.weak));
    });
    ui.add_space(6.0);

    section(ui, "Your games", "Without undo, hints or autoplay");
    figures_row(ui, &stats.unassisted, true);
    if stats.assisted.played > 0 {
        section(ui, "Assisted games", "With undo, a hint or autoplay");
        figures_row(ui, &stats.assisted, false);
    }
    if stats.daily.played + stats.daily_assisted.played > 0 {
        section(
            ui,
            "Daily games",
            "The game of the day, the same for everyone",
        );
        ui.horizontal_wrapped(|ui| {
            let d = &stats.daily;
            figure(ui, "Played", &d.played.to_string());
            figure(ui, "Won", &d.won.to_string());
            figure(ui, "Best", &best_text(d.best));
            if stats.daily_assisted.played > 0 {
                figure(ui, "Best assisted", &best_text(stats.daily_assisted.best));
            }
        });
    }

    ui.add_space(8.0);
    ui.label(RichText::new("Score of each game").strong().size(18.0));
    score_chart(ui, entry, stats, palette);
    if let Some((measure, counts)) = &stats.histogram {
        ui.add_space(8.0);
        ui.label(RichText::new(measure.title()).strong().size(18.0));
        histogram_chart(ui, *measure, counts, palette);
    }

    ui.add_space(8.0);
    ui.label(
        RichText::new("Games, most recent first")
            .strong()
            .size(18.0),
    );
    if let Some(i) = games_list(ui, records, stats.best_game) {
        replay = Some(i);
    }
    replay
}

/// A heading and a line under it saying what it covers.
fn section(ui: &mut egui::Ui, title: &str, what: &str) {
    ui.add_space(6.0);
    ui.label(RichText::new(title).strong().size(18.0));
    ui.label(RichText::new(what).color(Palette::of(ui.visuals().dark_mode).weak));
}

/// The figures of one set of games, as boxes that wrap; `all`: every figure, else the few
/// an assisted set shows.
fn figures_row(ui: &mut egui::Ui, f: &Figures, all: bool) {
    ui.horizontal_wrapped(|ui| {
        figure(ui, "Played", &f.played.to_string());
        figure(ui, "Won", &f.won.to_string());
        figure(ui, "Win rate", &percent(f.win_rate()));
        figure(ui, "Best", &best_text(f.best));
        if all {
            figure(ui, "Mean", &f.mean.map_or_else(|| "—".into(), number));
            figure(ui, "Median", &f.median.map_or_else(|| "—".into(), number));
            figure(ui, "Current streak", &f.current_streak.to_string());
            figure(ui, "Longest streak", &f.longest_streak.to_string());
        }
    });
}

/// One figure in its box: its name small, its value large, read as one label.
fn figure(ui: &mut egui::Ui, name: &str, value: &str) {
    let palette = Palette::of(ui.visuals().dark_mode);
    let mut job = egui::text::LayoutJob::default();
    job.append(
        &format!("{name}\n"),
        0.0,
        egui::TextFormat::simple(egui::FontId::proportional(13.0), palette.text),
    );
    job.append(
        value,
        0.0,
        egui::TextFormat::simple(egui::FontId::proportional(22.0), palette.figures),
    );
    // A box is a container, which a wrapping row cannot wrap by itself: it starts a new row
    // when it would not fit whole on this one.
    let margin = Vec2::new(10.0, 4.0);
    let outer = FIGURE_WIDTH + 2.0 * margin.x + 2.0;
    if ui.available_size_before_wrap().x < outer && ui.cursor().min.x > ui.max_rect().min.x + 1.0 {
        ui.end_row();
    }
    egui::Frame::group(ui.style())
        .fill(palette.card)
        .inner_margin(margin)
        .show(ui, |ui| {
            ui.set_width(FIGURE_WIDTH);
            ui.add(egui::Label::new(job).extend());
        });
}

/// The width of the inside of a figure's box.
const FIGURE_WIDTH: f32 = 100.0;

/// A plot that shows and does not move: no zoom, drag or scroll, so the page scrolls over it;
/// it only answers the pointer's hover, so it is no stop of Tab either. Its key is written
/// under it, as text a screen reader reads.
fn still_plot(id: &str) -> Plot<'static> {
    Plot::new(id)
        .height(220.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .allow_axis_zoom_drag(false)
        .show_crosshair(false)
        .sense(egui::Sense::hover())
}

/// The score of every game, in order, with the best marked. The series is drawn in the focus
/// ring's colour, which stands out 3:1 and more from the window and the plot in both themes.
fn score_chart(ui: &mut egui::Ui, entry: &Entry, stats: &Stats, palette: &Palette) {
    let point = |p: &crate::stats::Point| [p.index as f64 + 1.0, p.score as f64];
    let line: Vec<[f64; 2]> = stats.series.iter().map(point).collect();
    let unassisted: Vec<[f64; 2]> = stats
        .series
        .iter()
        .filter(|p| !p.assisted)
        .map(point)
        .collect();
    let assisted: Vec<[f64; 2]> = stats
        .series
        .iter()
        .filter(|p| p.assisted)
        .map(point)
        .collect();
    let best = stats.best_game.and_then(|i| stats.series.get(i)).map(point);
    let series = stats.series.clone();
    let lower = entry.lower_is_better();
    still_plot("stats-scores")
        .x_axis_label("Game")
        .y_axis_label(if lower {
            "Score (lower is better)"
        } else {
            "Score"
        })
        .label_formatter(move |hover| {
            let egui_plot::HoverPosition::NearDataPoint { position, .. } = hover else {
                return None;
            };
            let game = position.x.round();
            let p = series.get((game as usize).checked_sub(1)?)?;
            let when = p
                .ended
                .map(|t| tilebox_core::date::rfc3339(t).replace('T', " "))
                .unwrap_or_default();
            Some(format!("Game {game}: {}\n{when}", p.score))
        })
        .show(ui, |plot| {
            plot.line(Line::new("Score", PlotPoints::from(line)).color(palette.weak));
            plot.add(
                Points::new("Unassisted", PlotPoints::from(unassisted))
                    .color(palette.focus)
                    .radius(3.5)
                    .filled(true),
            );
            if !assisted.is_empty() {
                plot.add(
                    Points::new("Assisted", PlotPoints::from(assisted))
                        .color(palette.weak)
                        .radius(3.5)
                        .filled(false),
                );
            }
            if let Some(best) = best {
                plot.add(
                    Points::new("Best", vec![best])
                        .color(palette.figures)
                        .shape(MarkerShape::Diamond)
                        .radius(8.0)
                        .filled(true),
                );
            }
        });
    // The chart's key.
    ui.horizontal_wrapped(|ui| {
        key(ui, Mark::Dot, palette.focus, "Unassisted game".into());
        if stats.assisted.played > 0 {
            key(ui, Mark::Ring, palette.weak, "Assisted game".into());
        }
        if let Some(best) = best {
            key(
                ui,
                Mark::Diamond,
                palette.figures,
                format!("Best: {} (game {})", number(best[1]), number(best[0])),
            );
        }
    });
}

/// The marks of the chart's points, as its key draws them.
#[derive(Debug, Clone, Copy)]
enum Mark {
    Dot,
    Ring,
    Diamond,
}

/// One entry of a chart's key: its mark, drawn, and what it stands for.
fn key(ui: &mut egui::Ui, mark: Mark, color: egui::Color32, text: String) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(14.0), egui::Sense::hover());
    let c = rect.center();
    let painter = ui.painter();
    match mark {
        Mark::Dot => painter.circle_filled(c, 4.0, color),
        Mark::Ring => painter.circle_stroke(c, 4.0, egui::Stroke::new(1.5, color)),
        Mark::Diamond => painter.add(egui::Shape::convex_polygon(
            vec![
                c + Vec2::new(0.0, -6.0),
                c + Vec2::new(6.0, 0.0),
                c + Vec2::new(0.0, 6.0),
                c + Vec2::new(-6.0, 0.0),
            ],
            color,
            egui::Stroke::NONE,
        )),
    };
    ui.add(egui::Label::new(text).extend());
    ui.add_space(8.0);
}

/// How many games reached each value of `measure`, one bar per value.
fn histogram_chart(ui: &mut egui::Ui, measure: Measure, counts: &[(u64, u64)], palette: &Palette) {
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &(value, count))| {
            Bar::new(i as f64, count as f64)
                .name(measure.bar_name(value))
                .width(0.7)
                .fill(palette.focus)
        })
        .collect();
    let values: Vec<u64> = counts.iter().map(|&(v, _)| v).collect();
    let marks = values.len();
    still_plot("stats-histogram")
        .x_axis_label(measure.title())
        .y_axis_label("Games")
        .show_grid([false, true])
        .x_grid_spacer(move |_| {
            (0..marks)
                .map(|i| GridMark {
                    value: i as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            values
                .get(i as usize)
                .map_or_else(String::new, ToString::to_string)
        })
        .include_y(0.0)
        .show(ui, |plot| {
            plot.add(BarChart::new("Games", bars).color(palette.focus));
        });
}

/// The most games the list shows, the most recent (the figures and charts count them all).
pub const LIST_LIMIT: usize = 500;

/// The games, most recent first (at most [`LIST_LIMIT`]), each with its replay; returns the one
/// asked for. They are part of the page, which scrolls: Tab moves through their buttons.
fn games_list(ui: &mut egui::Ui, records: &[Record], best: Option<usize>) -> Option<usize> {
    let mut replay = None;
    for (index, record) in records.iter().enumerate().rev().take(LIST_LIMIT) {
        ui.horizontal(|ui| {
            let button = ui
                .button("Replay")
                .on_hover_text("Watch this game from its start");
            button.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Button, true, replay_label(index + 1))
            });
            show_focus(ui, &button);
            if button.clicked() {
                replay = Some(index);
            }
            ui.add(egui::Label::new(game_line(index, record, best == Some(index))).truncate());
        });
    }
    if records.len() > LIST_LIMIT {
        ui.label(
            RichText::new(format!(
                "The {LIST_LIMIT} most recent of your {} games are listed; the figures and \
                 charts count them all.",
                records.len()
            ))
            .color(Palette::of(ui.visuals().dark_mode).weak),
        );
    }
    replay
}

/// The line of game `index` in the list: its number, when it ended, its score and marks.
pub fn game_line(index: usize, record: &Record, best: bool) -> String {
    let when = record
        .ended
        .get(..16)
        .map_or_else(|| record.ended.clone(), |t| t.replace('T', " "));
    let mut line = format!("#{}  {when}  Score {}", index + 1, record.score);
    if record.won {
        line.push_str("  · Won");
    } else if !record.over {
        line.push_str("  · Abandoned");
    }
    if record.assisted {
        line.push_str("  · Assisted");
    }
    if record.daily.is_some() {
        line.push_str("  · Daily");
    }
    if best {
        line.push_str("  · Best");
    }
    line
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn record(game: &str, score: u64) -> Record {
        serde_json::from_value(serde_json::json!({
            "format": 1, "game": game, "params": {}, "seed": score, "moves": ["L"],
            "score": score, "won": false, "over": true,
            "ended": "2026-11-23T10:00:00Z", "duration_ms": 1000,
        }))
        .unwrap()
    }

    #[test]
    fn the_memo_works_out_again_when_the_history_grows_or_the_entry_changes() {
        let registry = tilebox_games::registry();
        let (a, b) = (
            registry.get("2048").unwrap(),
            registry.get("threes").unwrap(),
        );
        let mut memo = Memo::default();
        let mut records = vec![record("2048", 10)];
        assert_eq!(memo.of(a, &records), &Stats::of(&records, false));
        records.push(record("2048", 30));
        assert_eq!(memo.of(a, &records), &Stats::of(&records, false));
        assert_eq!(memo.of(a, &records).unassisted.best, Some(30));
        let other = vec![record("threes", 5), record("threes", 6)];
        assert_eq!(memo.of(b, &other), &Stats::of(&other, false));
    }
}
