//! The Strike 9 view: nine tiles to click (or toggle with keys 1 to 9), two dice, the selection
//! and its running sum. The selection rules are the engine's [`Selection`].

use egui::{Align2, Color32, FontId, Pos2, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tilebox_core::{DynSession, Session};
use tilebox_strike9::{
    Odds, SelectError, Selection, SelectionStep, Strike9, Strike9State, TileSet,
};

use super::ViewOutcome;
use crate::input::{KeyPress, digit_of};
use crate::theme;

/// The view's state: the tiles picked so far for this roll, and the hint shown.
#[derive(Debug, Default)]
pub struct Strike9View {
    selection: Selection,
    hint: Option<TileSet>,
}

impl Strike9View {
    /// Rings the best set for the current roll of `session`, from the exact solver (nothing
    /// once the roll can't be made).
    pub fn show_hint(&mut self, session: &dyn DynSession) {
        if let Some(s) = typed(session) {
            let state = s.state();
            self.hint = Odds::shared().best_move(state.open(), state.total());
        }
    }
}

/// The line that names the hinted set.
pub fn hint_label(tiles: TileSet) -> String {
    format!("Hint: shut {}", spaced(tiles))
}

/// A set as "4 + 5".
fn spaced(tiles: TileSet) -> String {
    let parts: Vec<String> = tiles.tiles().map(|t| t.to_string()).collect();
    parts.join(" + ")
}

/// A probability as a percentage, with more digits when it is small.
fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if pct != 0.0 && pct.abs() < 0.1 {
        format!("{pct:.3}%")
    } else {
        format!("{pct:.1}%")
    }
}

/// The chance of shutting the box from the current position with best play, as a sentence.
pub fn odds_line(state: &Strike9State) -> String {
    let p = Odds::shared().after_roll(state.open(), state.total());
    format!("{} to shut the box with best play", percent(p))
}

/// What the last move of `s` gave up against the best one, as a sentence.
pub fn last_move_line(s: &Session<Strike9>) -> Option<String> {
    let before = s.previous_state()?;
    let played = *s.moves().last()?;
    let odds = Odds::shared();
    let open = before.open();
    let best = odds.best_move(open, before.total())?;
    let best_p = odds.after_move(open, best);
    let played_p = odds.after_move(open, played);
    Some(if best_p - played_p <= 1e-12 {
        format!(
            "Shutting {} was the best play for {}.",
            spaced(played),
            before.total()
        )
    } else {
        format!(
            "Shutting {} gave up {} percentage points: {} would have kept {}, yours kept {}.",
            spaced(played),
            percent(best_p - played_p).trim_end_matches('%'),
            spaced(best),
            percent(best_p),
            percent(played_p)
        )
    })
}

/// The accessible label of tile `t`, open or shut.
pub fn tile_label(t: u8, shut: bool) -> String {
    if shut {
        format!("Tile {t} (shut)")
    } else {
        format!("Tile {t}")
    }
}

fn typed(session: &dyn DynSession) -> Option<&Session<Strike9>> {
    session.as_any().downcast_ref::<Session<Strike9>>()
}

/// Whether this view can show the game of `session`.
pub fn supports(session: &dyn DynSession) -> bool {
    typed(session).is_some()
}

/// Why a game of Strike 9 ended, or `None` for another game or one still playing.
pub fn end_text(session: &dyn DynSession) -> Option<String> {
    let state = typed(session)?.state();
    if state.is_won() {
        Some("Box shut!".to_string())
    } else if state.is_over() {
        Some(cannot_make(state))
    } else {
        None
    }
}

fn cannot_make(state: &Strike9State) -> String {
    let total = state.total();
    format!("Rolled {total}: no open tiles add up to {total}.")
}

/// Draws the game and plays the tiles the player shuts.
pub fn show(
    ui: &mut egui::Ui,
    session: &mut dyn DynSession,
    view: &mut Strike9View,
    keys: &[KeyPress],
    accepts_moves: bool,
) -> ViewOutcome {
    let mut out = ViewOutcome::default();
    let Some(s) = typed(session) else {
        return out;
    };
    let state = s.state().clone();
    // A held digit toggles its tile once, not back and forth.
    let mut clicks: Vec<u8> = keys
        .iter()
        .filter(|k| !k.has_command_modifier() && !k.repeat)
        .filter_map(|k| digit_of(k.key))
        .collect();

    let avail = ui.available_size();
    let tile = ((avail.x - 24.0) / 9.0 - 6.0).clamp(36.0, 96.0);
    let dark = ui.visuals().dark_mode;
    let mut board = Rect::NOTHING;

    ui.vertical_centered(|ui| {
        ui.add_space(12.0);
        // The box: a felt tray behind the dice and the tiles, painted once their place is known.
        let tray = ui.painter().add(egui::Shape::Noop);
        let top = ui.cursor().top();
        ui.add_space(14.0);
        // The dice and their total.
        let die = (tile * 1.1).clamp(56.0, 96.0);
        let [d1, d2] = state.dice();
        let total = state.total();
        let font = FontId::proportional(die * 0.6);
        let total_text = format!("= {total}");
        let text_width = ui
            .painter()
            .layout_no_wrap(total_text.clone(), font.clone(), Color32::WHITE)
            .size()
            .x;
        let (dice_rect, dice_resp) = ui.allocate_exact_size(
            Vec2::new(die * 2.0 + 12.0 + 20.0 + text_width, die),
            Sense::hover(),
        );
        dice_resp.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Label,
                true,
                format!("Dice {d1} and {d2}: total {total}"),
            )
        });
        let left = dice_rect.left();
        draw_die(
            ui,
            Rect::from_min_size(Pos2::new(left, dice_rect.top()), Vec2::splat(die)),
            d1,
        );
        draw_die(
            ui,
            Rect::from_min_size(
                Pos2::new(left + die + 12.0, dice_rect.top()),
                Vec2::splat(die),
            ),
            d2,
        );
        ui.painter().text(
            Pos2::new(left + die * 2.0 + 32.0, dice_rect.center().y),
            Align2::LEFT_CENTER,
            total_text,
            font,
            Color32::from_rgb(0xf5, 0xf0, 0xe0),
        );
        ui.add_space(20.0);

        // The tiles.
        let selected = view.selection.current(&state);
        let selectable = view.selection.selectable(&state);
        let hint = if state.is_over() {
            TileSet::EMPTY
        } else {
            view.hint.unwrap_or(TileSet::EMPTY)
        };
        let row_width = tile * 9.0 + 6.0 * 8.0;
        let (row, _) = ui.allocate_exact_size(Vec2::new(row_width, tile * 1.3), Sense::hover());
        for t in 1..=9u8 {
            let x = row.left() + f32::from(t - 1) * (tile + 6.0);
            let rect = Rect::from_min_size(Pos2::new(x, row.top()), Vec2::new(tile, tile * 1.3));
            let is_shut = !state.open().contains(t);
            let is_selected = selected.contains(t);
            let enabled = is_selected || selectable.contains(t);
            let response = ui.interact(rect, ui.scope_id().with(("tile", t)), Sense::click());
            response.widget_info(|| {
                egui::WidgetInfo::selected(
                    egui::Role::Button,
                    enabled,
                    is_selected,
                    tile_label(t, is_shut),
                )
            });
            if response.clicked() && accepts_moves {
                clicks.push(t);
            }
            let look = if is_shut {
                TileLook::Shut
            } else if is_selected {
                TileLook::Selected
            } else if enabled {
                TileLook::Open {
                    hovered: response.hovered(),
                }
            } else {
                TileLook::Disabled
            };
            draw_tile(ui, rect, t, look, dark);
            if hint.contains(t) && !is_shut {
                ui.painter().rect_stroke(
                    rect.expand(3.0),
                    tile * 0.14,
                    Stroke::new(4.0, theme::HINT),
                    StrokeKind::Outside,
                );
            }
        }
        ui.add_space(16.0);
        let felt = Rect::from_min_max(
            Pos2::new(row.left() - 14.0, top),
            Pos2::new(row.right() + 14.0, ui.cursor().top()),
        );
        board = felt;
        ui.painter().set(
            tray,
            egui::epaint::RectShape::filled(
                felt,
                14.0,
                if dark {
                    Color32::from_rgb(0x1f, 0x4d, 0x33)
                } else {
                    Color32::from_rgb(0x2f, 0x6e, 0x4a)
                },
            ),
        );
        ui.add_space(12.0);

        // The selection and its running sum; the result is on the board once the game is over.
        if !state.is_over() {
            let line = if selected.is_empty() {
                format!("Pick open tiles that add up to {total}.")
            } else {
                format!(
                    "Selected {} = {} of {total}",
                    spaced(selected),
                    selected.sum()
                )
            };
            ui.label(RichText::new(line).size(20.0).strong());
            if let Some(h) = view.hint {
                ui.label(
                    RichText::new(hint_label(h))
                        .size(16.0)
                        .strong()
                        .color(theme::HINT),
                );
            }
            ui.add_space(6.0);
            ui.label(RichText::new(odds_line(&state)).size(16.0));
        }
        if let Some(line) = typed(session).and_then(last_move_line) {
            ui.label(RichText::new(line).weak());
        }
    });
    out.board = Some(board);
    out.player_moved = !clicks.is_empty();

    for t in clicks {
        let Some(s) = typed(session) else {
            break;
        };
        match view.selection.toggle(s.state(), t) {
            Ok(SelectionStep::Selecting(next)) => {
                view.selection = next;
                out.message = None;
            }
            Ok(SelectionStep::Shut(tiles)) => {
                view.selection = Selection::default();
                if let Some(s) = session.as_any_mut().downcast_mut::<Session<Strike9>>() {
                    match s.play(tiles) {
                        Ok(_) => {
                            out.played = true;
                            view.hint = None;
                            out.message = None;
                        }
                        Err(e) => out.message = Some(e.to_string()),
                    }
                }
            }
            Err(e) => out.message = Some(refusal(e)),
        }
    }
    out
}

/// A refused click, as a sentence.
fn refusal(e: SelectError) -> String {
    match e {
        SelectError::Overshoot { tile, sum, total } => {
            format!("{tile} can't be picked: {sum} + {tile} would go past {total}.")
        }
        SelectError::Shut(t) => format!("Tile {t} is already shut."),
        SelectError::GameOver => "The game is over: start a new one (N).".to_string(),
        SelectError::NoSuchTile(t) => format!("There is no tile {t}."),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TileLook {
    Open { hovered: bool },
    Selected,
    Disabled,
    Shut,
}

fn draw_tile(ui: &egui::Ui, rect: Rect, t: u8, look: TileLook, dark: bool) {
    let painter = ui.painter();
    let wood = Color32::from_rgb(0xf3, 0xe0, 0xb5);
    let ink = Color32::from_rgb(0x3a, 0x2a, 0x1a);
    let radius = rect.width() * 0.12;
    match look {
        TileLook::Open { hovered } => {
            painter.rect_filled(rect, radius, Color32::from_rgb(0xb8, 0x8a, 0x4a));
            let face =
                Rect::from_min_max(rect.min, rect.max - Vec2::new(0.0, rect.height() * 0.08));
            let fill = if hovered {
                Color32::from_rgb(0xfb, 0xec, 0xc8)
            } else {
                wood
            };
            painter.rect_filled(face, radius, fill);
            number(painter, face, t, ink);
        }
        TileLook::Selected => {
            let lifted = rect.translate(Vec2::new(0.0, -rect.height() * 0.08));
            painter.rect_filled(rect, radius, Color32::from_rgb(0x1d, 0x5f, 0xa8));
            painter.rect_filled(lifted, radius, Color32::from_rgb(0x3b, 0x8e, 0xea));
            painter.rect_stroke(
                lifted,
                radius,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Inside,
            );
            number(painter, lifted, t, Color32::WHITE);
        }
        TileLook::Disabled => {
            let fill = if dark {
                Color32::from_rgb(0x55, 0x50, 0x48)
            } else {
                Color32::from_rgb(0xe4, 0xdf, 0xd6)
            };
            painter.rect_filled(rect, radius, fill);
            number(painter, rect, t, Color32::from_gray(0x99));
        }
        TileLook::Shut => {
            // A shut tile lies flat: a low, dark slab with its number faint.
            let slab = Rect::from_min_max(
                Pos2::new(rect.left(), rect.bottom() - rect.height() * 0.3),
                rect.max,
            );
            let hole = if dark {
                Color32::from_gray(0x25)
            } else {
                Color32::from_rgb(0x6b, 0x55, 0x3a)
            };
            painter.rect_filled(rect, radius, hole.gamma_multiply(0.35));
            painter.rect_filled(slab, radius * 0.5, hole);
            painter.text(
                slab.center(),
                Align2::CENTER_CENTER,
                t.to_string(),
                FontId::proportional(slab.height() * 0.7),
                Color32::from_gray(0xaa),
            );
        }
    }
}

fn number(painter: &egui::Painter, rect: Rect, t: u8, color: Color32) {
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        t.to_string(),
        FontId::proportional(rect.width() * 0.6),
        color,
    );
}

/// A die showing `n` pips.
fn draw_die(ui: &egui::Ui, rect: Rect, n: u8) {
    let painter = ui.painter();
    painter.rect_filled(
        rect,
        rect.width() * 0.16,
        Color32::from_rgb(0xfa, 0xfa, 0xf5),
    );
    painter.rect_stroke(
        rect,
        rect.width() * 0.16,
        Stroke::new(1.5, Color32::from_gray(0x88)),
        StrokeKind::Inside,
    );
    let c = rect.center();
    let o = rect.width() * 0.27;
    let pips: &[(f32, f32)] = match n {
        1 => &[(0.0, 0.0)],
        2 => &[(-1.0, -1.0), (1.0, 1.0)],
        3 => &[(-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)],
        4 => &[(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)],
        5 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        6 => &[
            (-1.0, -1.0),
            (1.0, -1.0),
            (-1.0, 0.0),
            (1.0, 0.0),
            (-1.0, 1.0),
            (1.0, 1.0),
        ],
        _ => &[],
    };
    for (dx, dy) in pips {
        painter.circle_filled(
            c + Vec2::new(dx * o, dy * o),
            rect.width() * 0.09,
            Color32::from_rgb(0x22, 0x22, 0x22),
        );
    }
}
