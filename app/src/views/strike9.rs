//! The Strike 9 view: the box's 9, 10 or 12 tiles to click (or toggle with keys 1 to 9, 0 for
//! 10, `-` for 11 and `=` for 12), the dice as rolled (two, or one), and, where the variant lets
//! the player choose one die or two before a roll, the buttons "Roll one die (O)" and "Roll two
//! dice (W)". The selection rules are the engine's [`Selection`]; a finished selection or a
//! choice of dice is a move, which the view returns for the shell to play. Picks made in the same
//! frame after the one that completes a move are kept and made on the next frame, from the next
//! roll, so no key press is lost. The odds and what a move gave up are the assistant's
//! commentary, drawn by the shell under the board.

use egui::{Align2, Color32, FontId, Key, Pos2, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use tilebox_core::{DynSession, Session};
use tilebox_strike9::{
    Dice, OneDie, SelectError, Selection, SelectionStep, Strike9, Strike9Move, Strike9Params,
    TileSet,
};

use super::{GameView, PlayInput, ViewOutcome};
use crate::ui::input::{KeyPress, digit_of};
use crate::ui::theme;

/// One thing the player picked: a tile, or the dice to roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    Tile(u8),
    Dice(Dice),
}

/// The view's state: the tiles picked so far for this roll, the picks made after a move was
/// complete (for the next roll), and the hint shown.
#[derive(Debug, Default)]
pub struct Strike9View {
    selection: Selection,
    pending: Vec<Pick>,
    hint: Option<Strike9Move>,
}

/// The key that rolls one die while the choice is pending: O, for One.
pub const ONE_DIE_KEY: Key = Key::O;
/// The key that rolls two dice while the choice is pending: W, for tWo.
pub const TWO_DICE_KEY: Key = Key::W;

/// The button (and its accessible label) that rolls `dice`, with its key: "Roll one die (O)".
pub fn dice_button_label(dice: Dice) -> &'static str {
    match dice {
        Dice::One => "Roll one die (O)",
        Dice::Two => "Roll two dice (W)",
    }
}

/// The key of a choice of dice.
pub fn dice_key(dice: Dice) -> Key {
    match dice {
        Dice::One => ONE_DIE_KEY,
        Dice::Two => TWO_DICE_KEY,
    }
}

/// The key that picks tile `t`: 1 to 9, 0 for 10, `-` for 11, `=` for 12 (the number row, in
/// order).
pub fn tile_key(t: u8) -> Option<Key> {
    Some(match t {
        1 => Key::Num1,
        2 => Key::Num2,
        3 => Key::Num3,
        4 => Key::Num4,
        5 => Key::Num5,
        6 => Key::Num6,
        7 => Key::Num7,
        8 => Key::Num8,
        9 => Key::Num9,
        10 => Key::Num0,
        11 => Key::Minus,
        12 => Key::Equals,
        _ => return None,
    })
}

/// The tile a key picks (see [`tile_key`]; `+`, Shift and `=` on many keyboards, picks 12 too).
fn tile_of(key: Key) -> Option<u8> {
    match key {
        Key::Num0 => Some(10),
        Key::Minus => Some(11),
        Key::Equals | Key::Plus => Some(12),
        _ => digit_of(key),
    }
}

/// The line that names the hinted move: "Hint: shut 4 + 5", "Hint: roll one die".
pub fn hint_text(mv: Strike9Move) -> String {
    match mv {
        Strike9Move::Shut(tiles) => hint_label(tiles),
        Strike9Move::Roll(Dice::One) => "Hint: roll one die".to_string(),
        Strike9Move::Roll(Dice::Two) => "Hint: roll two dice".to_string(),
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

/// The accessible label of tile `t`, open or shut, as a screen reader says it: "tile 7, open".
pub fn tile_label(t: u8, shut: bool) -> String {
    format!("tile {t}, {}", if shut { "shut" } else { "open" })
}

/// The controls of a box of these parameters beyond the standard one's (tiles 10 to 12, the
/// choice of dice), for How to play; none for the standard box.
pub fn controls_text(params: &Strike9Params) -> Option<String> {
    let mut lines = Vec::new();
    match params.tiles {
        10 => lines.push("Keys: 1 to 9 pick tiles 1 to 9, and 0 picks tile 10.".to_string()),
        11.. => lines.push(
            "Keys: 1 to 9 pick tiles 1 to 9, 0 picks 10, - (minus) picks 11 and = (equals) \
picks 12, as on the number row."
                .to_string(),
        ),
        _ => {}
    }
    if params.one_die != OneDie::Never {
        lines.push(
            "When one die is allowed, choose before the roll: O or \"Roll one die\", W or \
\"Roll two dice\". A hint rings the better choice."
                .to_string(),
        );
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
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

    fn show_hint(&mut self, mv: &str, _trained: bool) {
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

    fn controls_help(&self, session: &dyn DynSession) -> Option<String> {
        let s = session.as_any().downcast_ref::<Session<Strike9>>()?;
        controls_text(s.params())
    }

    fn hint_label(&self, mv: &str) -> Option<String> {
        mv.parse().ok().map(hint_text)
    }

    fn inputs_for(&self, mv: &str) -> Vec<PlayInput> {
        match mv.parse::<Strike9Move>() {
            Ok(Strike9Move::Roll(dice)) => {
                vec![PlayInput::Click(dice_button_label(dice).to_string())]
            }
            Ok(Strike9Move::Shut(tiles)) => tiles
                .tiles()
                .map(|t| PlayInput::Click(tile_label(t, false)))
                .collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// Draws the game and returns the tiles the player shuts, or the dice the player rolls.
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
    let params = *state.params();
    let tiles = params.tiles;
    let chooses = params.one_die != OneDie::Never;
    // The picks left over from the last frame's move come first; a held key picks once, not
    // back and forth. Keys of tiles beyond the box, and of dice in a box without the choice,
    // are no picks.
    let mut picks: Vec<Pick> = if accepts_moves {
        std::mem::take(&mut view.pending)
    } else {
        Vec::new()
    };
    picks.extend(
        keys.iter()
            .filter(|k| !k.has_command_modifier() && !k.repeat)
            .filter_map(|k| match k.key {
                ONE_DIE_KEY if chooses => Some(Pick::Dice(Dice::One)),
                TWO_DICE_KEY if chooses => Some(Pick::Dice(Dice::Two)),
                key => tile_of(key).filter(|&t| t <= tiles).map(Pick::Tile),
            }),
    );

    let avail = ui.available_size();
    let count = f32::from(tiles);
    // The standard box as it always was; a bigger box may take smaller tiles to fit.
    let smallest = if tiles <= 9 { 30.0 } else { 22.0 };
    let tile = ((avail.x - 24.0) / count - 6.0).clamp(smallest, 96.0);
    let dark = ui.visuals().dark_mode;
    let mut board = Rect::NOTHING;
    let row_width = tile * count + 6.0 * (count - 1.0);
    let total = state.total();

    ui.vertical_centered(|ui| {
        ui.add_space(12.0);
        // The box: a felt tray behind the dice and the tiles, painted once their place is known.
        let tray = ui.painter().add(egui::Shape::Noop);
        let top = ui.cursor().top();
        ui.add_space(14.0);
        let die = (tile * 1.1).clamp(56.0, 96.0);
        if state.choosing_dice() {
            // The choice of dice, in the dice's place.
            let gap = 16.0;
            // Wide enough for the longer label on one line.
            let label_width = Dice::BOTH
                .into_iter()
                .map(|d| {
                    ui.painter()
                        .layout_no_wrap(
                            dice_button_label(d).to_string(),
                            FontId::proportional(18.0),
                            Color32::WHITE,
                        )
                        .size()
                        .x
                })
                .fold(0.0, f32::max);
            let width = (die * 2.8)
                .min((row_width - gap) / 2.0)
                .max(label_width + 28.0);
            let (area, _) =
                ui.allocate_exact_size(Vec2::new(width * 2.0 + gap, die), Sense::hover());
            let height = (die * 0.75).min(area.height());
            for (i, dice) in Dice::BOTH.into_iter().enumerate() {
                let x = area.left() + (width + gap) * i as f32;
                let rect = Rect::from_min_size(
                    Pos2::new(x, area.center().y - height / 2.0),
                    Vec2::new(width, height),
                );
                let text = RichText::new(dice_button_label(dice)).size(18.0).strong();
                let response = ui.put(rect, egui::Button::new(text));
                if response.clicked() && accepts_moves {
                    picks.push(Pick::Dice(dice));
                }
                if view.hint == Some(Strike9Move::Roll(dice)) {
                    ui.painter().rect_stroke(
                        rect.expand(3.0),
                        8.0,
                        Stroke::new(4.0, theme::HINT),
                        StrokeKind::Outside,
                    );
                }
            }
        } else {
            draw_dice(ui, state.dice(), total, die);
        }
        ui.add_space(20.0);

        // The tiles.
        let selected = view.selection.current(&state);
        let selectable = view.selection.selectable(&state);
        let hint = match view.hint {
            Some(Strike9Move::Shut(set)) if !state.is_over() => set,
            _ => TileSet::EMPTY,
        };
        let (row, _) = ui.allocate_exact_size(Vec2::new(row_width, tile * 1.3), Sense::hover());
        for t in 1..=tiles {
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
                picks.push(Pick::Tile(t));
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
            theme::focus_ring(ui, &response);
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
        let colors = theme::Strike9Colors::of(dark);
        let felt = Rect::from_min_max(
            Pos2::new(row.left() - 14.0, top),
            Pos2::new(row.right() + 14.0, ui.cursor().top()),
        );
        board = felt;
        ui.painter().set(
            tray,
            egui::epaint::RectShape::filled(felt, 14.0, colors.felt),
        );
        ui.add_space(12.0);
        if state.is_over() {
            // The end's message goes here, under the box: the dice that ended the game and the
            // tiles stay in sight.
            // As tall as the message was when last drawn (the first time, a height it fits
            // in), so that the lines under it stay in a small window.
            let height =
                super::end_message_height(ui.ctx()).map_or(END_MESSAGE_HEIGHT, |h| h + 8.0);
            let (room, _) =
                ui.allocate_exact_size(Vec2::new(row_width.max(300.0), height), Sense::hover());
            // No veil over an empty room: the message is centred in it, as a line.
            board = Rect::from_center_size(room.center(), Vec2::new(room.width(), 0.0));
        }

        // The selection and its running sum; the result is on the board once the game is over.
        if !state.is_over() {
            let line = if state.choosing_dice() {
                "Roll one die or two: press O or W, or click a button.".to_string()
            } else if selected.is_empty() {
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
                    RichText::new(hint_text(h))
                        .size(16.0)
                        .strong()
                        .color(theme::Palette::of(dark).hint_text),
                );
            }
        }
    });
    out.board = Some(board);
    if state.is_over() {
        // The end's message says the game is over: a pick after it is not told again.
        picks.clear();
    }
    out.player_moved = !picks.is_empty();

    let mut picks = picks.into_iter();
    for pick in picks.by_ref() {
        match pick {
            Pick::Tile(t) => match view.selection.toggle(&state, t) {
                Ok(SelectionStep::Selecting(next)) => {
                    view.selection = next;
                    out.message = None;
                }
                Ok(SelectionStep::Shut(tiles)) => {
                    // The shell plays it; the later picks belong to the next roll, and are
                    // made on the next frame, from it.
                    view.selection = Selection::default();
                    out.moves.push(Strike9Move::Shut(tiles).to_string());
                    break;
                }
                Err(e) => out.message = Some(refusal(e)),
            },
            Pick::Dice(dice) => {
                if state.choosing_dice() {
                    view.selection = Selection::default();
                    out.moves.push(Strike9Move::Roll(dice).to_string());
                    break;
                }
                out.message = Some(if state.is_over() {
                    refusal(SelectError::GameOver)
                } else {
                    format!(
                        "The dice are rolled: pick open tiles that add up to {total}. \
You choose the dice before a roll, once one die is allowed."
                    )
                });
            }
        }
    }
    // The shell repaints after playing the move, so the next frame comes at once.
    view.pending.extend(picks);
    out
}

/// The dice as rolled, two or one, and their total, with a label for screen readers: "Dice 3
/// and 4: total 7", "Die 4: total 4".
fn draw_dice(ui: &mut egui::Ui, dice: &[u8], total: u32, die: f32) {
    // Two dice, one die; a roll not made yet shows two blank dice.
    let (faces, label): (Vec<u8>, String) = match *dice {
        [a] => (vec![a], format!("Die {a}: total {total}")),
        [a, b] => (vec![a, b], format!("Dice {a} and {b}: total {total}")),
        _ => (vec![0, 0], format!("Dice 0 and 0: total {total}")),
    };
    let font = FontId::proportional(die * 0.6);
    let total_text = format!("= {total}");
    let text_width = ui
        .painter()
        .layout_no_wrap(total_text.clone(), font.clone(), Color32::WHITE)
        .size()
        .x;
    let n = faces.len() as f32;
    let dice_width = die * n + 12.0 * (n - 1.0);
    let (dice_rect, dice_resp) = ui.allocate_exact_size(
        Vec2::new(dice_width + 20.0 + text_width, die),
        Sense::hover(),
    );
    dice_resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
    let left = dice_rect.left();
    for (i, &face) in faces.iter().enumerate() {
        let x = left + (die + 12.0) * i as f32;
        draw_die(
            ui,
            Rect::from_min_size(Pos2::new(x, dice_rect.top()), Vec2::splat(die)),
            face,
        );
    }
    ui.painter().text(
        Pos2::new(left + dice_width + 20.0, dice_rect.center().y),
        Align2::LEFT_CENTER,
        total_text,
        font,
        theme::Strike9Colors::of(ui.visuals().dark_mode).total,
    );
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

/// The height kept under the box for the end's message once the game is over, until it has
/// been drawn once.
const END_MESSAGE_HEIGHT: f32 = 200.0;

/// Draws tile `t`. Open tiles stand up, wooden faces with their numbers; an open tile this
/// roll can't use still stands, its face a little dimmed; a picked one is lifted and blue. A
/// shut tile is flipped face down, as in a real box: it lies flat, low and dark, its back's
/// grain showing and its number small on its edge, so it can't be taken for a standing one.
fn draw_tile(ui: &egui::Ui, rect: Rect, t: u8, look: TileLook, dark: bool) {
    let painter = ui.painter();
    let c = theme::Strike9Colors::of(dark);
    let radius = rect.width() * 0.12;
    let edge = rect.height() * 0.08;
    match look {
        TileLook::Open { hovered } => {
            painter.rect_filled(rect, radius, c.wood_edge);
            let face = Rect::from_min_max(rect.min, rect.max - Vec2::new(0.0, edge));
            painter.rect_filled(face, radius, if hovered { c.wood_hover } else { c.wood });
            number(painter, face, t, c.ink);
        }
        TileLook::Selected => {
            let lifted = rect.translate(Vec2::new(0.0, -edge));
            painter.rect_filled(rect, radius, c.picked_edge);
            painter.rect_filled(lifted, radius, c.picked);
            painter.rect_stroke(
                lifted,
                radius,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Inside,
            );
            number(painter, lifted, t, c.picked_text);
        }
        TileLook::Disabled => {
            painter.rect_filled(rect, radius, c.wood_edge.gamma_multiply(0.8));
            let face = Rect::from_min_max(rect.min, rect.max - Vec2::new(0.0, edge));
            painter.rect_filled(face, radius, c.out);
            number(painter, face, t, c.out_ink);
        }
        TileLook::Shut => {
            // Flipped down: the back of the tile lies in the bottom third of its place.
            let back = Rect::from_min_max(
                Pos2::new(rect.left(), rect.bottom() - rect.height() * 0.4),
                rect.max,
            );
            painter.rect_stroke(
                rect,
                radius,
                Stroke::new(1.0, c.shut.gamma_multiply(0.6)),
                StrokeKind::Inside,
            );
            painter.rect_filled(back, radius * 0.5, c.shut);
            // The grain of the back.
            for i in 1..3 {
                let y = back.top() + back.height() * i as f32 / 3.0;
                painter.line_segment(
                    [
                        Pos2::new(back.left() + 3.0, y),
                        Pos2::new(back.right() - 3.0, y),
                    ],
                    Stroke::new(1.0, c.shut.gamma_multiply(0.55)),
                );
            }
            painter.text(
                back.center(),
                Align2::CENTER_CENTER,
                t.to_string(),
                FontId::proportional(
                    (back.height() * if t >= 10 { 0.5 } else { 0.62 }).max(theme::SMALLEST_TEXT),
                ),
                c.shut_ink,
            );
        }
    }
}

fn number(painter: &egui::Painter, rect: Rect, t: u8, color: Color32) {
    // Two digits take a smaller face to fit the tile.
    let size = if t >= 10 { 0.45 } else { 0.6 };
    painter.text(
        rect.center(),
        Align2::CENTER_CENTER,
        t.to_string(),
        FontId::proportional((rect.width() * size).max(theme::SMALLEST_TEXT)),
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

#[cfg(test)]
mod tests {
    use tilebox_core::{PlainFrontEnd, Puzzle, Registry};
    use tilebox_strike9::Scoring;

    use super::*;

    /// A game of a golf box with one die once 7 to 9 are shut, where the choice of dice is
    /// pending, as a session of an entry.
    fn choosing() -> Box<dyn DynSession> {
        let params = Strike9Params {
            tiles: 9,
            one_die: OneDie::HighShut,
            score: Scoring::Golf,
        };
        let registry = Registry::new()
            .kind::<Strike9>(PlainFrontEnd)
            .preset::<Strike9>("golf", "Golf", "Golf.", params);
        let entry = registry.get("golf").unwrap().clone();
        for seed in 0..1000 {
            let mut s = Session::<Strike9>::new(params, seed).unwrap();
            while !s.state().choosing_dice() && !s.status().over {
                let mv = Strike9::legal_moves(s.state())
                    .into_iter()
                    .max_by_key(|m| m.tiles().tiles().max())
                    .unwrap();
                s.play(mv).unwrap();
            }
            if s.state().choosing_dice() {
                let mut saved = s.save();
                saved.game = "golf".into();
                return entry.load(&saved).unwrap();
            }
        }
        panic!("no game reached the choice of dice");
    }

    /// The rectangles outlined in the hint's colour in one frame of `view` over `session`.
    fn hint_rings(view: &mut Strike9View, session: &dyn DynSession) -> Vec<Rect> {
        let ctx = egui::Context::default();
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                view.show(ui, session, &[], true);
            });
        });
        // No renderer takes the fonts' texture here.
        output.textures_delta.clear();
        let mut rings = Vec::new();
        fn collect(shape: &egui::Shape, rings: &mut Vec<Rect>) {
            match shape {
                egui::Shape::Rect(r) if r.stroke.color == theme::HINT => rings.push(r.rect),
                egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| collect(s, rings)),
                _ => {}
            }
        }
        for clipped in &output.shapes {
            collect(&clipped.shape, &mut rings);
        }
        rings
    }

    #[test]
    fn the_hint_rings_the_button_of_the_best_dice_and_nothing_else() {
        let session = choosing();
        let mut view = Strike9View::default();
        assert!(hint_rings(&mut view, session.as_ref()).is_empty());
        view.show_hint("1d", false);
        let one = hint_rings(&mut view, session.as_ref());
        view.show_hint("2d", false);
        let two = hint_rings(&mut view, session.as_ref());
        assert_eq!((one.len(), two.len()), (1, 1));
        // The one die's button is on the left, the two dice's on the right.
        assert!(one[0].center().x < two[0].center().x, "{one:?} {two:?}");
        assert_eq!(view.hint_label("1d").as_deref(), Some("Hint: roll one die"));
    }

    #[test]
    fn tile_keys_follow_the_number_row() {
        for t in 1..=12 {
            assert_eq!(tile_of(tile_key(t).unwrap()), Some(t));
        }
        assert_eq!(tile_key(13), None);
        assert_eq!(tile_of(Key::Plus), Some(12));
        assert_eq!(controls_text(&Strike9Params::default()), None);
    }
}
