//! The Strike 9 view: nine tiles to click (or toggle with keys 1 to 9), two dice, the selection
//! and its running sum. The selection rules are the engine's [`Selection`]; a finished selection
//! is a move, which the view returns for the shell to play. Tiles picked in the same frame after
//! the one that completes a selection are kept and picked on the next frame, from the next roll,
//! so no key press is lost. The odds and what a move gave up are the assistant's commentary,
//! drawn by the shell under the board.

use egui::{Align2, Color32, FontId, Pos2, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tilebox_core::{DynSession, Session};
use tilebox_strike9::{SelectError, Selection, SelectionStep, Strike9, TileSet};

use super::{GameView, PlayInput, ViewOutcome};
use crate::input::{KeyPress, digit_of};
use crate::theme;

/// The view's state: the tiles picked so far for this roll, the picks made after a selection
/// was complete (for the next roll), and the hint shown.
#[derive(Debug, Default)]
pub struct Strike9View {
    selection: Selection,
    pending: Vec<u8>,
    hint: Option<TileSet>,
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

/// The accessible label of tile `t`, open or shut, as a screen reader says it: "tile 7, open".
pub fn tile_label(t: u8, shut: bool) -> String {
    format!("tile {t}, {}", if shut { "shut" } else { "open" })
}

impl GameView for Strike9View {
    fn show(
        &mut self,
        ui: &mut egui::Ui,
        session: &dyn DynSession,
        keys: &[KeyPress],
        accepts_moves: bool,
    ) -> ViewOutcome {
        show(ui, session, self, keys, accepts_moves)
    }

    fn played(&mut self, _: &dyn DynSession, _: f64) {
        // The picks made after the move belong to the next roll: they are kept.
        self.selection = Selection::default();
        self.hint = None;
    }

    fn reset(&mut self) {
        self.selection = Selection::default();
        self.pending.clear();
        self.hint = None;
    }

    fn show_hint(&mut self, mv: &str) {
        self.hint = mv.parse().ok();
    }

    fn plain_h_hints(&self) -> bool {
        true
    }

    fn hint_looks(&self) -> &'static str {
        "a ring around the best tiles to shut, from the exact odds"
    }

    fn commentary_help(&self) -> Option<&'static str> {
        Some(
            "The line under the tiles gives your chance of shutting the box with best play, \
and what your last move gave up against the best one.",
        )
    }

    fn hint_label(&self, mv: &str) -> Option<String> {
        mv.parse().ok().map(hint_label)
    }

    fn inputs_for(&self, mv: &str) -> Vec<PlayInput> {
        let tiles: TileSet = mv.parse().unwrap_or(TileSet::EMPTY);
        tiles
            .tiles()
            .map(|t| PlayInput::Click(tile_label(t, false)))
            .collect()
    }
}

/// Draws the game and returns the tiles the player shuts.
fn show(
    ui: &mut egui::Ui,
    session: &dyn DynSession,
    view: &mut Strike9View,
    keys: &[KeyPress],
    accepts_moves: bool,
) -> ViewOutcome {
    let mut out = ViewOutcome::default();
    let Some(s) = session.as_any().downcast_ref::<Session<Strike9>>() else {
        return out;
    };
    let state = s.state().clone();
    // The picks left over from the last frame's move come first; a held digit toggles its tile
    // once, not back and forth.
    let mut clicks: Vec<u8> = if accepts_moves {
        std::mem::take(&mut view.pending)
    } else {
        Vec::new()
    };
    clicks.extend(
        keys.iter()
            .filter(|k| !k.has_command_modifier() && !k.repeat)
            .filter_map(|k| digit_of(k.key)),
    );

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
        // The standard game rolls two dice; the variants' choice of dice is drawn later.
        let (d1, d2) = match *state.dice() {
            [a, b] => (a, b),
            [a] => (a, 0),
            _ => (0, 0),
        };
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
        }
    });
    out.board = Some(board);
    out.player_moved = !clicks.is_empty();

    let mut clicks = clicks.into_iter();
    for t in clicks.by_ref() {
        match view.selection.toggle(&state, t) {
            Ok(SelectionStep::Selecting(next)) => {
                view.selection = next;
                out.message = None;
            }
            Ok(SelectionStep::Shut(tiles)) => {
                // The shell plays it; the later clicks belong to the next roll, and are picked
                // on the next frame, from it.
                view.selection = Selection::default();
                out.moves.push(tiles.to_string());
                break;
            }
            Err(e) => out.message = Some(refusal(e)),
        }
    }
    // The shell repaints after playing the move, so the next frame comes at once.
    view.pending.extend(clicks);
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
        SelectError::ChooseDice => "Choose one die or two first.".to_string(),
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
