//! The statistics screen of one entry: the figures of its history ([`crate::store::stats`]),
//! unassisted games first and the assisted and daily games beside, a chart of the scores of the
//! last 100, the last 1,000 or all games (a point each, or bins of games with their mean where
//! points would overlap) with the best, the assisted and the daily games marked, a chart of the
//! highest tiles reached (or the tiles left), and the list of games a page at a time, each with
//! its replay.
//!
//! Nothing here costs more with a longer history: the figures come worked out with the history
//! ([`crate::store::history::History`]), a chart draws at most [`crate::store::stats::MAX_POINTS`]
//! points or bins, fewer on a narrow plot (one every [`crate::store::stats::POINT_SPACING`] of its
//! width, so that no two marks overlap: [`crate::store::stats::max_points`]), and the list shows
//! [`PAGE`] games.

use egui::{RichText, Vec2};
use egui_plot::{Bar, BarChart, GridInput, GridMark, Line, MarkerShape, Plot, PlotPoints, Points};
use tilebox_core::Entry;

use crate::store::history::{History, HistoryView, Record};
use crate::store::stats::{Bin, Chart, Figures, Kind, Measure, Range, Stats};
use crate::ui::input;
use crate::ui::theme::{Palette, thousands};

/// What the player did on the statistics screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// Nothing.
    None,
    /// Back to where the screen was opened from.
    Back,
    /// Replay the game at this index of the history.
    Replay(usize),
    /// Something of the game's AI player ([`crate::screens::stats::training`]).
    Player(crate::screens::stats::training::Asked),
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

/// What the statistics screen keeps between frames: the entry shown, the range of its charts
/// and the page of its list of games. (The figures themselves come with the history.)
#[derive(Debug, Default)]
pub(crate) struct Memo {
    entry: Option<String>,
    range: Range,
    page: usize,
}

impl Memo {
    /// The screen shows `entry`: the list starts again at its first page for another entry.
    fn showing(&mut self, entry: &Entry) {
        if self.entry.as_deref() != Some(entry.id()) {
            self.entry = Some(entry.id().to_string());
            self.page = 0;
        }
    }
}

/// Draws the statistics of `entry` from its history; returns what the player asked for.
pub(crate) fn show(
    ui: &mut egui::Ui,
    entry: &Entry,
    history: HistoryView<'_>,
    memo: &mut Memo,
    player: Option<&crate::screens::stats::training::Panel>,
) -> Action {
    let mut action = Action::None;
    memo.showing(entry);
    let history = match history {
        HistoryView::Ready(history) => Some(history),
        HistoryView::Loading => None,
    };
    let best = history.and_then(|h| h.stats().best_game);

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
            crate::ui::theme::focus_ring(ui, &back);
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
            if let Some(asked) = player.and_then(|p| crate::screens::stats::training::show(ui, p)) {
                action = Action::Player(asked);
            }
            let Some(history) = history else {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(LOADING_TEXT);
                });
                return;
            };
            if history.is_empty() {
                ui.add_space(24.0);
                ui.vertical_centered(|ui| {
                    ui.add(egui::Label::new(RichText::new(EMPTY_TEXT).size(18.0)).wrap());
                });
                if history.left_out() > 0 {
                    ui.label(left_out_text(history.left_out()));
                }
                ui.add_space(8.0);
                ui.label(RichText::new("Escape: back").small());
                return;
            }
            if let Some(i) = figures_and_lists(ui, entry, history, memo) {
                action = Action::Replay(i);
            }
        });
    });
    action
}

/// What the screen says of `n` records of the file left out: not matching their moves, or
/// repeating a game already counted.
pub fn left_out_text(n: usize) -> String {
    let (games, are) = match n {
        1 => (
            "1 game of the file is".to_string(),
            "its record does not match a replay of its moves, or repeats a game already counted",
        ),
        n => (
            format!("{} games of the file are", thousands(n)),
            "their records do not match a replay of their moves, or repeat a game already counted",
        ),
    };
    format!("{games} left out: {are}.")
}

/// The screen of a history with games in it; returns the game whose replay was asked for.
fn figures_and_lists(
    ui: &mut egui::Ui,
    entry: &Entry,
    history: &History,
    memo: &mut Memo,
) -> Option<usize> {
    let mut replay = None;
    let stats = history.stats();
    let palette = Palette::of(ui.visuals().dark_mode);
    ui.horizontal_wrapped(|ui| {
        let button = ui
            .add_enabled(
                stats.best_game.is_some(),
                egui::Button::new(REPLAY_BEST_LABEL),
            )
            .on_hover_text("Watch your best game from its start (R)");
        crate::ui::theme::focus_ring(ui, &button);
        if button.clicked() {
            replay = stats.best_game;
        }
        ui.label(RichText::new(KEYS_TEXT).color(palette.weak));
    });
    if history.left_out() > 0 {
        ui.add(
            egui::Label::new(RichText::new(left_out_text(history.left_out())).color(palette.warn))
                .wrap(),
        );
    }
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
            figure(ui, "Played", &thousands(d.played));
            figure(ui, "Won", &thousands(d.won));
            figure(ui, "Best", &best_text(d.best));
            if stats.daily_assisted.played > 0 {
                figure(ui, "Best assisted", &best_text(stats.daily_assisted.best));
            }
        });
    }

    ui.add_space(8.0);
    ui.label(RichText::new("Score of each game").strong().size(18.0));
    range_buttons(ui, &mut memo.range, history.len());
    score_chart(ui, entry, stats, memo.range, palette);
    if let Some((measure, counts)) = stats.histogram_of(history, memo.range) {
        ui.add_space(8.0);
        ui.label(RichText::new(measure.title()).strong().size(18.0));
        histogram_chart(ui, entry, measure, &counts, palette);
    }

    ui.add_space(8.0);
    ui.label(
        RichText::new("Games, most recent first")
            .strong()
            .size(18.0),
    );
    if let Some(i) = games_list(ui, history, stats.best_game, &mut memo.page) {
        replay = Some(i);
    }
    replay
}

/// The accessible label of the button that shows `range` in the charts.
pub fn range_label(range: Range) -> String {
    format!("Charts: {}", range.label().to_lowercase())
}

/// The buttons that choose the games the charts show (Tab reaches them, Space or Return
/// chooses); the chosen one is drawn selected. `len`: the games in the history.
fn range_buttons(ui: &mut egui::Ui, range: &mut Range, len: usize) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Show:");
        for choice in Range::ALL {
            let chosen = *range == choice;
            let button = ui
                .add(egui::Button::new(choice.label()).selected(chosen))
                .on_hover_text(format!(
                    "The charts show {} of your {} games",
                    match choice {
                        Range::All => "all".to_string(),
                        other => other.label().to_lowercase().replace(" games", ""),
                    },
                    thousands(len)
                ));
            button.widget_info(|| {
                egui::WidgetInfo::selected(egui::Role::Button, true, chosen, range_label(choice))
            });
            crate::ui::theme::focus_ring(ui, &button);
            if button.clicked() {
                *range = choice;
            }
        }
    });
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
        figure(ui, "Played", &thousands(f.played));
        figure(ui, "Won", &thousands(f.won));
        figure(ui, "Win rate", &percent(f.win_rate()));
        figure(ui, "Best", &best_text(f.best));
        if all {
            figure(ui, "Mean", &f.mean.map_or_else(|| "—".into(), number));
            figure(ui, "Median", &f.median.map_or_else(|| "—".into(), number));
            figure(ui, "Current streak", &thousands(f.current_streak));
            figure(ui, "Longest streak", &thousands(f.longest_streak));
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
        .grid_spacing(egui::Rangef::new(GRID_SPACING, 300.0))
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .allow_axis_zoom_drag(false)
        .show_crosshair(false)
        .sense(egui::Sense::hover())
}

/// The scores of the games in `range`, in order, with the best marked: a point per game, or
/// where they would overlap bins of games, drawn as the line of their means and, for each kind
/// of game in a bin, a mark at its best. Unassisted games are dots, assisted games rings, daily
/// games squares; the series is drawn in the focus ring's colour, which stands out 3:1 and more
/// from the window and the plot in both themes.
fn score_chart(ui: &mut egui::Ui, entry: &Entry, stats: &Stats, range: Range, palette: &Palette) {
    let lower = entry.lower_is_better();
    // As many points as the plot's width holds apart; bins where more would overlap.
    let chart = stats.chart(range, ui.available_width());
    let games = range.of(stats.series.len());
    let best = stats
        .best_game
        .filter(|i| games.contains(i))
        .and_then(|i| stats.series.get(i))
        .map(|p| [p.index as f64 + 1.0, p.score as f64]);
    // The line, and the marks of each kind of game.
    let mut line = Vec::new();
    let mut marks: [Vec<[f64; 2]>; 3] = Default::default();
    let mut bin_size = None;
    match &chart {
        Chart::Games(points) => {
            for p in points {
                let at = [p.index as f64 + 1.0, p.score as f64];
                line.push(at);
                let kind = Kind::ALL.iter().position(|&k| k == p.kind()).unwrap_or(0);
                if let Some(marks) = marks.get_mut(kind) {
                    marks.push(at);
                }
            }
        }
        Chart::Bins(bins) => {
            bin_size = Some(bins.size());
            for bin in bins.bins() {
                let x = bin_middle(bin);
                line.push([x, bin.mean()]);
                for (marks, span) in marks.iter_mut().zip(bin.spans) {
                    if let Some((lo, hi)) = span {
                        marks.push([x, if lower { lo } else { hi } as f64]);
                    }
                }
            }
        }
    }
    let [unassisted, assisted, daily] = marks;
    let (has_assisted, has_daily) = (!assisted.is_empty(), !daily.is_empty());
    let hover = chart.clone();
    let radius = if bin_size.is_some() { 3.0 } else { 3.5 };
    still_plot("stats-scores")
        .x_axis_label("Game (oldest first)")
        .y_axis_label(if lower {
            "Score (lower is better)"
        } else {
            "Score"
        })
        .include_y(0.0)
        .x_grid_spacer(|input| whole_marks(input, X_LABEL_ROOM))
        .y_grid_spacer(|input| whole_marks(input, Y_LABEL_ROOM))
        .x_axis_formatter(|mark, _| whole_text(mark.value))
        .y_axis_formatter(|mark, _| whole_text(mark.value))
        .label_formatter(move |position| hover_text(&hover, position, lower))
        .show(ui, |plot| {
            let name = if bin_size.is_some() { "Mean" } else { "Score" };
            plot.line(Line::new(name, PlotPoints::from(line)).color(palette.weak));
            plot.add(
                Points::new("Unassisted", PlotPoints::from(unassisted))
                    .color(palette.focus)
                    .radius(radius)
                    .filled(true),
            );
            if has_assisted {
                plot.add(
                    Points::new("Assisted", PlotPoints::from(assisted))
                        .color(palette.text)
                        .radius(radius)
                        .filled(false),
                );
            }
            if has_daily {
                plot.add(
                    Points::new("Daily", PlotPoints::from(daily))
                        .color(palette.warn)
                        .shape(MarkerShape::Square)
                        .radius(radius)
                        .filled(true),
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
        let each = if bin_size.is_some() {
            " (the best of each span)"
        } else {
            ""
        };
        key(
            ui,
            Mark::Dot,
            palette.focus,
            format!("Unassisted game{each}"),
        );
        if has_assisted {
            key(ui, Mark::Ring, palette.text, format!("Assisted game{each}"));
        }
        if has_daily {
            key(ui, Mark::Square, palette.warn, format!("Daily game{each}"));
        }
        if let Some(best) = best {
            key(
                ui,
                Mark::Diamond,
                palette.figures,
                format!("Best: {} (game {})", number(best[1]), number(best[0])),
            );
        }
        if let Some(size) = bin_size {
            key(
                ui,
                Mark::Line,
                palette.weak,
                format!("Mean score of each span of {size} games"),
            );
        }
    });
}

/// Where a bin is drawn on the chart of scores: the middle of its games' numbers.
fn bin_middle(bin: &Bin) -> f64 {
    bin.first as f64 + 1.0 + (bin.count.max(1) - 1) as f64 / 2.0
}

/// What hovering the chart of scores near a point says: the game, its score and when it ended;
/// or the span of games, their mean and best.
fn hover_text(
    chart: &Chart,
    position: &egui_plot::HoverPosition<'_>,
    lower: bool,
) -> Option<String> {
    let egui_plot::HoverPosition::NearDataPoint { position, .. } = position else {
        return None;
    };
    match chart {
        Chart::Games(points) => {
            let game = position.x.round();
            let p = points.iter().find(|p| p.index as f64 + 1.0 == game)?;
            let when = p
                .ended
                .map(|t| tilebox_core::date::rfc3339(t).replace('T', " "))
                .unwrap_or_default();
            Some(format!("Game {game}: {}\n{when}", p.score))
        }
        Chart::Bins(bins) => {
            let bin = bins.bins().iter().min_by(|a, b| {
                (bin_middle(a) - position.x)
                    .abs()
                    .total_cmp(&(bin_middle(b) - position.x).abs())
            })?;
            let best = bin
                .spans
                .iter()
                .flatten()
                .map(|&(lo, hi)| if lower { lo } else { hi })
                .reduce(|a, b| if lower { a.min(b) } else { a.max(b) })?;
            Some(format!(
                "Games {} to {}: mean {}, best {best}",
                bin.first + 1,
                bin.first + bin.count,
                number((bin.mean() * 10.0).round() / 10.0),
            ))
        }
    }
}

/// The marks of the chart's points, as its key draws them.
#[derive(Debug, Clone, Copy)]
enum Mark {
    Dot,
    Ring,
    Square,
    Diamond,
    Line,
}

/// One entry of a chart's key: its mark, drawn, and what it stands for.
fn key(ui: &mut egui::Ui, mark: Mark, color: egui::Color32, text: String) {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(14.0), egui::Sense::hover());
    let c = rect.center();
    let painter = ui.painter();
    match mark {
        Mark::Dot => painter.circle_filled(c, 4.0, color),
        Mark::Ring => painter.circle_stroke(c, 4.0, egui::Stroke::new(1.5, color)),
        Mark::Square => painter.rect_filled(
            egui::Rect::from_center_size(c, Vec2::splat(8.0)),
            0.0,
            color,
        ),
        Mark::Line => painter.line_segment(
            [c - Vec2::new(6.0, 0.0), c + Vec2::new(6.0, 0.0)],
            egui::Stroke::new(2.0, color),
        ),
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

/// How many games reached each value of `measure`, one bar per value; the values are written
/// under as many bars as they fit under, evenly spaced (a ladder of 63 tiles has no room for
/// each), and each bar says its value and count when hovered.
fn histogram_chart(
    ui: &mut egui::Ui,
    entry: &Entry,
    measure: Measure,
    counts: &[(u64, u64)],
    palette: &Palette,
) {
    // A tile as it shows (a label: `-8`, `1+i`), or a number in a few characters.
    let text = |v: u64| match measure {
        Measure::TopTile if entry.tile_text(v) != v.to_string() => entry.tile_text(v),
        _ => short_number(v),
    };
    let bars: Vec<Bar> = counts
        .iter()
        .enumerate()
        .map(|(i, &(value, count))| {
            Bar::new(i as f64, count as f64)
                .name(measure.bar_name(value, &entry.tile_text(value)))
                .width(0.7)
                .fill(palette.focus)
        })
        .collect();
    let values: Vec<String> = counts.iter().map(|&(v, _)| text(v)).collect();
    let widest = values.iter().map(|v| v.chars().count()).max().unwrap_or(1);
    // The room a value's label needs, in points: wider than the axis's least spacing.
    let room = (widest as f64 * 9.0 + 12.0).max(64.0);
    let marks = values.len();
    still_plot("stats-histogram")
        .x_axis_label(measure.title())
        .y_axis_label("Games")
        .show_grid([false, true])
        .x_grid_spacer(move |input| {
            let per_point = input.base_step_size / f64::from(GRID_SPACING);
            let every = ((room * per_point).ceil() as usize).max(1);
            (0..marks)
                .step_by(every)
                .map(|i| GridMark {
                    value: i as f64,
                    step_size: every as f64,
                })
                .collect()
        })
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            values.get(i as usize).cloned().unwrap_or_default()
        })
        .y_grid_spacer(|input| whole_marks(input, Y_LABEL_ROOM))
        .y_axis_formatter(|mark, _| whole_text(mark.value))
        .include_y(0.0)
        .show(ui, |plot| {
            plot.add(BarChart::new("Games", bars).color(palette.focus));
        });
}

/// The least spacing of egui_plot's grid, in points: the `base_step_size` a grid spacer is
/// given is the value of this many points.
const GRID_SPACING: f32 = 8.0;

/// The room, in points, between two marks of an axis of whole numbers written up the side (a
/// score, a count of games): egui_plot writes no mark closer than 20 points to the next and
/// writes them faint up to 30, so 32 keeps every mark written and at full contrast.
pub const Y_LABEL_ROOM: f64 = 32.0;

/// The same along the bottom, where egui_plot writes no mark closer than 60 points and fades
/// them up to 80 (and a mark such as "20000" is 40 points wide). An axis 2.7 times as long
/// or more (a chart's in a window 360 px wide is about 280) writes 0 and one mark or more.
pub const X_LABEL_ROOM: f64 = 80.0;

/// The marks of an axis of whole numbers (games, scores, counts) over `input.bounds`: every
/// multiple of one step, the least of 1, 2 or 5 times a power of ten (never less than 1) that
/// puts them `room` points apart or more. egui_plot's own spacer steps by powers of ten only,
/// so an axis from 0 to 9,000 found its marks of 1,000 too close to write and those of 10,000
/// past its end, and wrote only "0".
pub fn whole_marks(input: GridInput, room: f64) -> Vec<GridMark> {
    let per_point = input.base_step_size / f64::from(GRID_SPACING);
    let step = nice_step(per_point * room);
    let (lo, hi) = input.bounds;
    if !(step.is_finite() && lo.is_finite() && hi.is_finite()) || hi < lo {
        return Vec::new();
    }
    let first = (lo / step).ceil();
    let last = (hi / step).floor();
    // Bounded: a plot is a few hundred points, and the step puts marks `room` apart.
    let count = (last - first).clamp(-1.0, 1_000.0) as i64;
    (0..=count)
        .map(|i| GridMark {
            value: (first + i as f64) * step,
            step_size: step,
        })
        .collect()
}

/// The least of 1, 2 or 5 times a power of ten that is `at_least` or more, and 1 or more.
pub fn nice_step(at_least: f64) -> f64 {
    if !at_least.is_finite() || at_least <= 1.0 {
        return 1.0;
    }
    let power = 10f64.powf(at_least.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&step| step >= at_least)
        .unwrap_or(10.0 * power)
}

/// The text of a mark of an axis of whole numbers: the number in a few characters
/// ([`short_number`]); none below 0, where a plot's margin reaches (no game, score or count
/// is negative), nor between whole numbers.
pub fn whole_text(value: f64) -> String {
    let whole = value.round();
    if whole < 0.0 || (value - whole).abs() > 1e-6 || !whole.is_finite() {
        return String::new();
    }
    short_number(whole as u64)
}

/// A number in a few characters, for an axis: 2048, 121k, 5.7M, 1.8G.
pub fn short_number(value: u64) -> String {
    const UNITS: [(u64, &str); 5] = [
        (1_000_000_000_000_000, "P"),
        (1_000_000_000_000, "T"),
        (1_000_000_000, "G"),
        (1_000_000, "M"),
        (1_000, "k"),
    ];
    if value < 100_000 {
        return value.to_string();
    }
    for (unit, suffix) in UNITS {
        if value >= unit {
            let scaled = value as f64 / unit as f64;
            return if scaled < 10.0 {
                format!("{scaled:.1}{suffix}")
            } else {
                format!("{scaled:.0}{suffix}")
            };
        }
    }
    value.to_string()
}

/// How many games a page of the list shows (the figures and charts count them all).
pub const PAGE: usize = 50;

/// The accessible labels of the buttons that turn the pages of the list.
pub const NEWER_LABEL: &str = "Newer games";
/// See [`NEWER_LABEL`].
pub const OLDER_LABEL: &str = "Older games";

/// The games of page `page` (from 0, the most recent), most recent first, each with its
/// replay; returns the one asked for. They are part of the page, which scrolls: Tab moves
/// through their buttons, then to the buttons that turn the pages.
fn games_list(
    ui: &mut egui::Ui,
    records: &[Record],
    best: Option<usize>,
    page: &mut usize,
) -> Option<usize> {
    let mut replay = None;
    let pages = records.len().div_ceil(PAGE).max(1);
    *page = (*page).min(pages - 1);
    let newest = records.len() - (*page * PAGE).min(records.len());
    let oldest = newest.saturating_sub(PAGE);
    for (index, record) in records.iter().enumerate().take(newest).skip(oldest).rev() {
        ui.horizontal(|ui| {
            let button = ui
                .button("Replay")
                .on_hover_text("Watch this game from its start");
            button.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Button, true, replay_label(index + 1))
            });
            crate::ui::theme::focus_ring(ui, &button);
            if button.clicked() {
                replay = Some(index);
            }
            ui.add(egui::Label::new(game_line(index, record, best == Some(index))).truncate());
        });
    }
    if pages > 1 {
        ui.horizontal_wrapped(|ui| {
            let newer = ui.add_enabled(*page > 0, egui::Button::new(NEWER_LABEL));
            crate::ui::theme::focus_ring(ui, &newer);
            if newer.clicked() {
                *page -= 1;
            }
            let older = ui.add_enabled(*page + 1 < pages, egui::Button::new(OLDER_LABEL));
            crate::ui::theme::focus_ring(ui, &older);
            if older.clicked() {
                *page += 1;
            }
            ui.label(
                RichText::new(page_text(oldest, newest, records.len()))
                    .color(Palette::of(ui.visuals().dark_mode).weak),
            );
        });
    }
    replay
}

/// What the list says of the page that shows games `oldest` to `newest` (from 0, `newest` not
/// shown) of `len`.
pub fn page_text(oldest: usize, newest: usize, len: usize) -> String {
    format!(
        "Games {} to {} of {}, most recent first",
        thousands(newest),
        thousands(oldest + 1),
        thousands(len)
    )
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
    fn the_memo_turns_back_to_the_first_page_for_another_entry() {
        let registry = tilebox_games::registry();
        let (a, b) = (
            registry.get("2048").unwrap(),
            registry.get("threes").unwrap(),
        );
        let mut memo = Memo::default();
        memo.showing(a);
        memo.page = 3;
        memo.showing(a);
        assert_eq!(memo.page, 3);
        memo.showing(b);
        assert_eq!(memo.page, 0);
        assert_eq!(record("2048", 10).score, 10);
    }

    #[test]
    fn short_numbers_fit_an_axis() {
        assert_eq!(short_number(2048), "2048");
        assert_eq!(short_number(99_999), "99999");
        assert_eq!(short_number(121_393), "121k");
        assert_eq!(short_number(5_702_887), "5.7M");
        assert_eq!(short_number(1_836_311_903), "1.8G");
        assert_eq!(short_number(u64::MAX), "18447P");
    }

    /// The texts egui_plot writes on an axis `points` long showing `bounds` with the marks of
    /// [`whole_marks`] `room` apart: those of the marks it does not leave out as too close
    /// (`least` points, its `label_spacing.min`), each with its place in points.
    fn written(bounds: (f64, f64), points: f64, room: f64, least: f64) -> Vec<(String, f64)> {
        let per_point = (bounds.1 - bounds.0) / points;
        let input = GridInput {
            bounds,
            base_step_size: per_point * f64::from(GRID_SPACING),
        };
        whole_marks(input, room)
            .into_iter()
            .filter(|m| m.step_size / per_point > least)
            .map(|m| (whole_text(m.value), (m.value - bounds.0) / per_point))
            .filter(|(text, _)| !text.is_empty())
            .collect()
    }

    #[test]
    fn steps_are_one_two_or_five_times_a_power_of_ten() {
        assert_eq!(nice_step(0.3), 1.0);
        assert_eq!(nice_step(1.5), 2.0);
        assert_eq!(nice_step(2.0), 2.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(nice_step(1_840.0), 2_000.0);
        assert_eq!(nice_step(f64::NAN), 1.0);
        assert_eq!(whole_text(-2_000.0), "");
        assert_eq!(whole_text(0.5), "");
        assert_eq!(whole_text(8_000.0), "8000");
        assert_eq!(whole_text(1_500_000.0), "1.5M");
    }

    #[test]
    fn the_axes_of_twenty_thousand_games_write_their_marks() {
        // The chart of all 20,000 games (scores to 9,300, as a plot's margins widen them) and
        // the histogram of their highest tiles (9,300 of them at one tile), a plot of 170
        // points high and 300 wide: egui_plot's own marks wrote "0" alone up the side.
        let up = written((-465.0, 9_765.0), 170.0, Y_LABEL_ROOM, 20.0);
        let texts: Vec<&str> = up.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["0", "2000", "4000", "6000", "8000"]);
        let along = written((-1_000.0, 21_000.0), 300.0, X_LABEL_ROOM, 60.0);
        let texts: Vec<&str> = along.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["0", "10000", "20000"]);
    }

    #[test]
    fn every_axis_of_whole_numbers_writes_several_marks_at_full_contrast() {
        let highs = [
            1.0, 3.0, 7.0, 9.5, 12.0, 95.0, 180.0, 950.0, 3_100.0, 9_300.0, 20_000.0, 88_000.0,
            99_999.0, 123_456.0, 950_000.0, 9.9e6, 4.2e9, 1e12, 1.8e19,
        ];
        for high in highs {
            for points in [100.0, 170.0, 280.0, 400.0, 900.0] {
                for (room, least, full) in [(Y_LABEL_ROOM, 20.0, 30.0), (X_LABEL_ROOM, 60.0, 80.0)]
                {
                    // A step of 2 then 5 may be 2.5 times the room: the axis holds two marks
                    // when it is 2.5 times the room, and its margins.
                    if points < 2.7 * room {
                        continue;
                    }
                    let margin = high * 0.05;
                    let marks = written((-margin, high + margin), points, room, least);
                    let what = format!("0 to {high} over {points} points: {marks:?}");
                    // 0 and at least one more (a tenth of the axis' marks at worst).
                    assert!(marks.len() >= 2, "{what}");
                    assert_eq!(marks[0].0, "0", "{what}");
                    for pair in marks.windows(2) {
                        let apart = pair[1].1 - pair[0].1;
                        assert!(apart >= full, "{what}");
                        // Not needlessly far apart either: at most 2.5 times the room, but
                        // where whole numbers are that far apart.
                        let step = apart * (high + 2.0 * margin) / points;
                        assert!(apart <= 2.5 * room + 1e-6 || step < 1.5, "{what}");
                        assert_ne!(pair[0].0, pair[1].0, "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_page_names_its_games() {
        assert_eq!(
            page_text(19_950, 20_000, 20_000),
            "Games 20,000 to 19,951 of 20,000, most recent first"
        );
    }
}
