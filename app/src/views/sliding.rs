//! The sliding-board view, for every sliding variant (2048, Threes, Fibonacci…): arrow keys, WASD, hjkl
//! or a swipe on the board slide the tiles; tiles glide, merged tiles pop, new tiles grow in.
//! The colours are the entry's ([`tilebox_core::Entry::tile_colors`]).
//!
//! Where every tile moves one cell at most (the `step` motion: Threes, and a player's variant
//! that moves so), a drag is Threes' own: the tiles that would move follow it, as far as one
//! cell, and letting go past [`PREVIEW_PLAYS`] of a cell plays the move, from where they are;
//! short of that they slide back. Which tiles move is the engine's answer ([`Rules::slide`]).
//! Where tiles slide to the wall (2048 and the other built-ins) a drag is a swipe, played when
//! let go, as in the original 2048.

use egui::{Align2, Color32, CornerRadius, FontId, Key, Painter, Pos2, Rect, Sense, Vec2};
use tilebox_core::{DynSession, Entry, Session, TileColors};
use tilebox_sliding::variant::Movement;
use tilebox_sliding::{Board, Cell, Direction, Motion, Rank, Rules, Sliding};

use super::{GameView, PlayInput, ViewOutcome};
use crate::ui::input::KeyPress;
use crate::ui::theme;

/// How long tiles take to slide, in seconds.
pub const SLIDE_SECONDS: f64 = 0.10;
/// How far into its slide a move is drawn by the frame that plays it, in seconds: one frame
/// at 60 a second, so that the frame that answers a key already shows the tiles on their way
/// (as egui's own animations take their first step at once), not the board as it was.
pub const ANSWER_LEAD: f64 = 1.0 / 60.0;
/// How long merged tiles pop and new tiles grow, in seconds.
pub const POP_SECONDS: f64 = 0.12;
/// The shortest drag, in points, that counts as a swipe.
pub const SWIPE_MIN: f32 = 24.0;
/// How far, in cells, tiles dragged in a `step` variant must have followed the drag for
/// letting go to play the move.
pub const PREVIEW_PLAYS: f32 = 1.0 / 3.0;
/// How long tiles let go short of [`PREVIEW_PLAYS`] take to slide back, in seconds.
pub const SNAP_BACK_SECONDS: f64 = 0.12;

/// The accessible label of the board (a drag on it is a move).
pub const BOARD_LABEL: &str = "Board: swipe to move";
/// The text size of the next move's rules above the board (2592, Directional Merges).
const RULES_SIZE: f32 = 17.0;

/// The view of the sliding kind, every variant: the running animation, the drag in progress
/// and the hint shown.
#[derive(Default)]
pub struct SlidingView {
    anim: Option<Anim>,
    drag_start: Option<Pos2>,
    drag_last: Option<Pos2>,
    hint: Option<Direction>,
    /// The hint shown was found by the game's trained player.
    hint_trained: bool,
    /// Tiles let go past [`PREVIEW_PLAYS`]: the move's direction and how far (in cells) they
    /// had followed the drag, for the move's animation to go on from there.
    released: Option<Preview>,
    /// Tiles let go short, sliding back: how far they were, and when they were let go.
    snap_back: Option<(Preview, f64)>,
}

/// Tiles of a `step` variant following a drag: the way they go and how far, 0 to 1 cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preview {
    /// The move the drag would make.
    pub dir: Direction,
    /// How far the tiles that would move have gone, in cells (0 to 1).
    pub cells: f32,
}

/// The preview of a drag by `delta` on a board whose cells are `pitch` apart (from one cell's
/// edge to the next's): along the drag's main axis, in proportion to it, one cell at most. None
/// for no drag.
pub fn drag_preview(delta: Vec2, pitch: f32) -> Option<Preview> {
    if pitch <= 0.0 || delta == Vec2::ZERO {
        return None;
    }
    let (dir, along) = if delta.x.abs() > delta.y.abs() {
        let dir = if delta.x > 0.0 {
            Direction::Right
        } else {
            Direction::Left
        };
        (dir, delta.x.abs())
    } else {
        let dir = if delta.y > 0.0 {
            Direction::Down
        } else {
            Direction::Up
        };
        (dir, delta.y.abs())
    };
    Some(Preview {
        dir,
        cells: (along / pitch).min(1.0),
    })
}

/// Whether letting go of `preview` plays its move.
pub fn preview_plays(preview: Preview) -> bool {
    preview.cells >= PREVIEW_PLAYS
}

/// Whether a drag on the board of `rules` moves the tiles with it: only where every tile moves
/// one cell at most (the `step` motion), so that following the drag shows the move exactly.
pub fn drag_previews(rules: &Rules) -> bool {
    rules.variant().motion == Movement::Step
}

/// The tiles a drag towards `dir` would move on `board`, as the engine moves them; none where
/// the board cannot move that way, or the variant's drags do not preview ([`drag_previews`]).
pub fn preview_motions(rules: &Rules, board: &Board, dir: Direction) -> Vec<Motion> {
    if !drag_previews(rules) {
        return Vec::new();
    }
    rules.slide(board, dir).motions
}

/// The accessible label of the cell in row `row` and column `col` (from 0) showing `tile` (its
/// text as [`tilebox_sliding::Variant::tile_text`] gives it: `"."` when empty), as a screen
/// reader says it: "row 2, column 3: 48".
pub fn cell_label(row: usize, col: usize, tile: &str) -> String {
    let what = if tile == "." { "empty" } else { tile };
    format!("row {}, column {}: {what}", row + 1, col + 1)
}

/// What the hint says when the game's trained player found it, after the move.
pub const TRAINED_NOTE: &str = " (by the trained player)";

/// The accessible label of the hint shown under the board; `trained`: found by the game's
/// trained player, which it says.
pub fn hint_label_by(dir: Direction, trained: bool) -> String {
    let mut label = hint_label(dir);
    if trained {
        label.push_str(TRAINED_NOTE);
    }
    label
}

/// The accessible label of the hint shown under the board.
pub fn hint_label(dir: Direction) -> String {
    let name = match dir {
        Direction::Left => "left",
        Direction::Right => "right",
        Direction::Up => "up",
        Direction::Down => "down",
    };
    format!("Hint: slide {name}")
}

/// The animation of the last move.
#[derive(Debug)]
struct Anim {
    start: f64,
    /// How far the tiles had already gone when the move was played (a drag let go), 0 to 1.
    begun: f32,
    from: Board,
    motions: Vec<Motion>,
    merged: Vec<Cell>,
    spawned: Vec<Cell>,
}

/// What the view needs of a sliding game, whichever it is.
struct Snapshot {
    entry: Entry,
    rules: Rules,
    board: Board,
    previous: Option<Board>,
    last_move: Option<Direction>,
    /// The moves played (the last one was move `turn - 1`), for rules that hold on some moves
    /// only.
    turn: u64,
    next: Option<String>,
    /// The next move's rules, where they change from move to move (2592) or from direction to
    /// direction (Directional Merges).
    this_move: Option<String>,
}

/// [`tilebox_games::this_move`] of `state`, written once a move, not every frame: the words are
/// kept with the game and the move they are for.
fn this_move_of(
    ctx: &egui::Context,
    entry: &str,
    state: &tilebox_sliding::SlidingState,
) -> Option<String> {
    // A hook's pool (DIVE's seeds) and the counters shown (378's goal): a few numbers, written
    // each frame (a game loaded at the same move may have others).
    let variant = state.rules().variant();
    if variant.hook.is_some() || !variant.pipeline.shown.is_empty() {
        return tilebox_games::this_move(state);
    }
    // Most games have no such rules, and the rules say so at once.
    if !state.rules().has_move_rules() {
        return None;
    }
    let key = egui::Id::unique(("this move", entry));
    let turn = state.turn();
    if let Some((at, text)) = ctx.data(|d| d.get_temp::<(u64, Option<String>)>(key))
        && at == turn
    {
        return text;
    }
    let text = tilebox_games::this_move(state);
    ctx.data_mut(|d| d.insert_temp(key, (turn, text.clone())));
    text
}

/// The board of `session`, a game of the sliding kind (the next move's rules left out:
/// [`this_move_of`]).
fn snapshot(session: &dyn DynSession) -> Option<Snapshot> {
    let s = session.as_any().downcast_ref::<Session<Sliding>>()?;
    Some(Snapshot {
        entry: session.entry().clone(),
        rules: s.state().rules().clone(),
        board: s.state().board().clone(),
        previous: s.previous_state().map(|p| p.board().clone()),
        last_move: s.moves().last().copied(),
        turn: s.state().turn(),
        next: s.state().next_card(),
        this_move: None,
    })
}

/// The direction of a key: arrows, WASD and hjkl.
pub fn direction_of(key: Key) -> Option<Direction> {
    Some(match key {
        Key::ArrowLeft | Key::A | Key::H => Direction::Left,
        Key::ArrowRight | Key::D | Key::L => Direction::Right,
        Key::ArrowUp | Key::W | Key::K => Direction::Up,
        Key::ArrowDown | Key::S | Key::J => Direction::Down,
        _ => return None,
    })
}

/// The direction of a swipe from `a` to `b`, if it is long enough.
pub fn swipe_direction(a: Pos2, b: Pos2) -> Option<Direction> {
    let d = b - a;
    if d.length() < SWIPE_MIN {
        return None;
    }
    Some(if d.x.abs() > d.y.abs() {
        if d.x > 0.0 {
            Direction::Right
        } else {
            Direction::Left
        }
    } else if d.y > 0.0 {
        Direction::Down
    } else {
        Direction::Up
    })
}

impl GameView for SlidingView {
    fn show(
        &mut self,
        ui: &mut egui::Ui,
        session: &dyn DynSession,
        keys: &[KeyPress],
        accepts_moves: bool,
    ) -> ViewOutcome {
        let mut out = ViewOutcome::default();
        let Some(mut snap) = snapshot(session) else {
            return out;
        };
        if let Some(s) = session.as_any().downcast_ref::<Session<Sliding>>() {
            snap.this_move = this_move_of(ui.ctx(), session.entry().id(), s.state());
        }
        let now = ui.input(|i| i.time);
        let dark = ui.visuals().dark_mode;

        // Moves from the keyboard. A move made during an animation is played at once: the
        // running animation jumps to its end and the new one starts, so no key press is lost.
        let mut moves: Vec<Direction> = keys
            .iter()
            .filter(|k| !k.has_command_modifier())
            .filter_map(|k| direction_of(k.key))
            .collect();

        // Layout: the next card (Threes), then the square board, as large as the window allows.
        let avail = ui.available_size();
        // The next move's rules take as many lines as the width gives them (Directional
        // Merges' four examples wrap to three or four at 360 px).
        let rules_height = snap.this_move.as_ref().map_or(0.0, |rules| {
            ui.painter()
                .layout(
                    rules.clone(),
                    egui::FontId::proportional(RULES_SIZE),
                    egui::Color32::PLACEHOLDER,
                    avail.x,
                )
                .size()
                .y
                + ui.spacing().item_spacing.y
        });
        let header = if snap.next.is_some() { 64.0 } else { 0.0 } + rules_height;
        let side = (avail.x - 16.0)
            .min(avail.y - header - 48.0)
            .clamp(160.0, 900.0);
        let mut board_response = None;
        ui.vertical_centered(|ui| {
            if let Some(next) = &snap.next {
                next_card(ui, &snap.entry, next, 64.0);
            }
            if let Some(rules) = &snap.this_move {
                ui.add(
                    egui::Label::new(egui::RichText::new(rules).size(RULES_SIZE).strong()).wrap(),
                );
            }
            let (rect, response) =
                ui.allocate_exact_size(Vec2::splat(side), Sense::click_and_drag());
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, BOARD_LABEL));
            theme::focus_ring(ui, &response);
            board_response = Some((rect, response));
            match self.hint {
                Some(dir) => {
                    ui.label(
                        egui::RichText::new(hint_label_by(dir, self.hint_trained))
                            .size(17.0)
                            .strong()
                            .color(theme::Palette::of(ui.visuals().dark_mode).hint_text),
                    );
                }
                None => {
                    let how = if drag_previews(&snap.rules) {
                        "Arrow keys, WASD or hjkl, or drag the cards on the board"
                    } else {
                        "Arrow keys, WASD or hjkl, or swipe on the board"
                    };
                    // Only where moves are taken (not in a replay, nor under the win's
                    // message); its room is kept, so that the board never moves.
                    ui.add_visible(
                        accepts_moves,
                        egui::Label::new(egui::RichText::new(how).small().weak()),
                    );
                }
            }
        });
        let Some((rect, response)) = board_response else {
            return out;
        };
        out.board = Some(rect);
        let focused_cell = cell_labels(ui, rect, &snap);

        // A drag on the board: a swipe, or in a `step` variant the tiles following it.
        if let Some(left) = self.released.take() {
            // Let go past the threshold, but the move was not played: the tiles go back.
            self.snap_back = Some((left, now));
        }
        if response.drag_started() {
            self.drag_start = ui
                .input(|i| i.pointer.press_origin())
                .or_else(|| response.interact_pointer_pos());
            self.drag_last = self.drag_start;
            self.snap_back = None;
        }
        if (response.dragged() || response.drag_stopped())
            && let Some(p) = ui.input(|i| i.pointer.latest_pos())
        {
            self.drag_last = Some(p);
        }
        let follows = drag_previews(&snap.rules) && accepts_moves;
        let pitch = cell_pitch(rect, snap.board.side());
        let dragged = match (self.drag_start, self.drag_last) {
            (Some(a), Some(b)) if follows => drag_preview(b - a, pitch)
                .filter(|p| !preview_motions(&snap.rules, &snap.board, p.dir).is_empty()),
            _ => None,
        };
        let mut preview = None;
        if response.drag_stopped() {
            let (start, last) = (self.drag_start.take(), self.drag_last.take());
            if follows {
                // Drawn where they were let go: the move's animation, or their way back, goes
                // on from there.
                preview = dragged;
                match dragged {
                    Some(p) if preview_plays(p) => {
                        moves.push(p.dir);
                        self.released = Some(p);
                    }
                    Some(p) => self.snap_back = Some((p, now)),
                    None => {}
                }
            } else if let (Some(a), Some(b)) = (start, last)
                && let Some(dir) = swipe_direction(a, b)
                && accepts_moves
            {
                moves.push(dir);
            }
        } else if response.dragged() {
            preview = dragged;
        } else if let Some((p, since)) = self.snap_back {
            let t = ((now - since) / SNAP_BACK_SECONDS) as f32;
            if t < 1.0 {
                preview = Some(Preview {
                    cells: p.cells * (1.0 - ease_out(t)),
                    ..p
                });
                ui.ctx().request_repaint();
            } else {
                self.snap_back = None;
            }
        }
        if preview.is_some() {
            // The tiles follow the finger from the board as it stands: the last move's
            // animation jumps to its end.
            self.anim = None;
        }
        out.player_moved = !moves.is_empty();
        out.moves = moves.iter().map(ToString::to_string).collect();

        draw(
            ui.painter(),
            rect,
            &snap,
            &mut self.anim,
            now,
            dark,
            preview,
        );
        if let Some(dir) = self.hint
            && self.anim.is_none()
        {
            draw_hint(ui.painter(), rect, dir);
        }
        // Over the tiles, so that the ring shows whole.
        if let Some(cell) = focused_cell {
            theme::focus_ring(ui, &cell);
        }
        if self.anim.is_some() {
            ui.ctx().request_repaint();
        }
        out
    }

    fn played(&mut self, session: &dyn DynSession, now: f64) {
        self.hint = None;
        let released = self.released.take();
        self.snap_back = None;
        self.anim = snapshot(session).and_then(|snap| {
            // The move of tiles let go past the threshold goes on from where they were.
            let begun = released
                .filter(|p| Some(p.dir) == snap.last_move)
                .map_or(0.0, |p| p.cells);
            start_anim(&snap, now - ANSWER_LEAD, begun)
        });
    }

    fn reset(&mut self) {
        // A swipe begun on the board before the game changed is not played on the new one.
        self.anim = None;
        self.hint = None;
        self.drag_start = None;
        self.drag_last = None;
        self.released = None;
        self.snap_back = None;
    }

    fn show_hint(&mut self, mv: &str, trained: bool) {
        self.hint = mv.parse().ok();
        self.hint_trained = trained;
    }

    fn hint_looks(&self) -> &'static str {
        "the best move, as an arrow on the board"
    }

    fn hint_label(&self, mv: &str) -> Option<String> {
        mv.parse()
            .ok()
            .map(|dir| hint_label_by(dir, self.hint_trained))
    }

    fn inputs_for(&self, mv: &str) -> Vec<PlayInput> {
        mv.parse()
            .ok()
            .map(|dir| PlayInput::Key(arrow_of(dir)))
            .into_iter()
            .collect()
    }
}

/// The arrow key of a direction.
pub fn arrow_of(dir: Direction) -> Key {
    match dir {
        Direction::Left => Key::ArrowLeft,
        Direction::Right => Key::ArrowRight,
        Direction::Up => Key::ArrowUp,
        Direction::Down => Key::ArrowDown,
    }
}

/// One accessible label per cell, over the board: its position and what it holds. A cell
/// whose tile is not written whole at its size (a number in short, `16k`; see
/// [`crate::ui::tile_label`]), or is written smaller than [`crate::ui::tile_label::LEAST`], shows
/// the tile's whole text on hover, and is a stop of Tab that shows it on focus. Returns such
/// a cell if it has the focus, for its ring.
fn cell_labels(ui: &egui::Ui, rect: Rect, snap: &Snapshot) -> Option<egui::Response> {
    let mut focused = None;
    let side = snap.board.side();
    for (cell, rank) in cells(&snap.board) {
        let r = cell_rect(rect, side, cell.row as f32, cell.col as f32);
        let id = ui.scope_id().with(("cell", cell.row, cell.col));
        let tile = snap.rules.variant().tile_text(snap.rules.value(rank));
        let cut = rank != 0 && {
            let written = tile_label(ui.painter(), &tile, r.width());
            !written.whole || written.smallest() < crate::ui::tile_label::LEAST
        };
        let sense = if cut {
            Sense::focusable_noninteractive()
        } else {
            Sense::hover()
        };
        let response = ui.interact(r, id, sense);
        let label = cell_label(cell.row, cell.col, &tile);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &label));
        if cut {
            if response.has_focus() {
                response.show_tooltip_text(tile);
                focused = Some(response);
            } else {
                response.on_hover_text(tile);
            }
        }
    }
    focused
}

/// The animation of the move that led to the board of `snap`, its tiles `begun` (0 to 1) of
/// the way already.
fn start_anim(snap: &Snapshot, now: f64, begun: f32) -> Option<Anim> {
    let from = snap.previous.clone()?;
    let dir = snap.last_move?;
    let slide = snap.rules.slide_on(&from, dir, snap.turn.saturating_sub(1));
    let spawned = tiles(&snap.board)
        .filter(|&(c, rank)| rank != slide.board.rank(c))
        .map(|(c, _)| c)
        .collect();
    let merged = slide
        .motions
        .iter()
        .filter(|m| m.merged)
        .map(|m| m.to)
        .collect();
    Some(Anim {
        start: now,
        begun: begun.clamp(0.0, 1.0),
        from,
        motions: slide.motions,
        merged,
        spawned,
    })
}

/// Where cell `(row, col)` is on a board drawn in `rect`.
fn cell_rect(rect: Rect, side: usize, row: f32, col: f32) -> Rect {
    let n = side.max(1) as f32;
    // A fortieth of the board between cells up to 4×4, thinner on bigger boards (8×8's are
    // half that), so that their tiles keep room for their text.
    let gap = rect.width() * 0.025 * (4.0 / n).min(1.0);
    let cell = (rect.width() - gap * (n + 1.0)) / n;
    let min = rect.min + Vec2::new(gap + col * (cell + gap), gap + row * (cell + gap));
    Rect::from_min_size(min, Vec2::splat(cell))
}

/// How far apart the cells of a board drawn in `rect` are, from one cell's edge to the next's.
fn cell_pitch(rect: Rect, side: usize) -> f32 {
    cell_rect(rect, side, 0.0, 1.0).min.x - cell_rect(rect, side, 0.0, 0.0).min.x
}

fn ease_out(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    1.0 - (1.0 - t) * (1.0 - t)
}

/// Draws the board of `snap`: the running animation, else the tiles at rest, those `preview`
/// moves shifted the way of its drag.
fn draw(
    painter: &Painter,
    rect: Rect,
    snap: &Snapshot,
    anim: &mut Option<Anim>,
    now: f64,
    dark: bool,
    preview: Option<Preview>,
) {
    let side = snap.board.side();
    let colors = snap.entry.board_colors(dark);
    let (board_fill, empty_fill) = (theme::color(colors.frame), theme::color(colors.empty));
    painter.rect_filled(rect, CornerRadius::same(8), board_fill);
    for row in 0..side {
        for col in 0..side {
            let r = cell_rect(rect, side, row as f32, col as f32);
            painter.rect_filled(r, r.width() * 0.07, empty_fill);
        }
    }

    let t = anim.as_ref().map(|a| now - a.start);
    match (&*anim, t) {
        (Some(anim), Some(t)) if t < SLIDE_SECONDS => {
            // Tiles glide from where they were to where they go.
            let p = anim.begun + (1.0 - anim.begun) * ease_out((t / SLIDE_SECONDS) as f32);
            for (cell, rank) in tiles(&anim.from) {
                let (r, c) = match anim.motions.iter().find(|m| m.from == cell) {
                    Some(m) => (lerp(m.from.row, m.to.row, p), lerp(m.from.col, m.to.col, p)),
                    None => (cell.row as f32, cell.col as f32),
                };
                let value = snap.rules.value(rank);
                let colors = snap.entry.tile_colors(value);
                let text = snap.rules.variant().tile_text(value);
                draw_tile(painter, cell_rect(rect, side, r, c), colors, &text, 1.0);
            }
        }
        _ if let Some(preview) = preview => {
            // Tiles following a drag: those that would move, on top, the way of the drag.
            let moving = preview_motions(&snap.rules, &snap.board, preview.dir);
            let (still, shifted): (Vec<_>, Vec<_>) =
                tiles(&snap.board).partition(|(cell, _)| moving.iter().all(|m| m.from != *cell));
            for (cell, rank) in still.into_iter().chain(shifted) {
                let (r, c) = match moving.iter().find(|m| m.from == cell) {
                    Some(m) => (
                        lerp(m.from.row, m.to.row, preview.cells),
                        lerp(m.from.col, m.to.col, preview.cells),
                    ),
                    None => (cell.row as f32, cell.col as f32),
                };
                let value = snap.rules.value(rank);
                let colors = snap.entry.tile_colors(value);
                let text = snap.rules.variant().tile_text(value);
                draw_tile(painter, cell_rect(rect, side, r, c), colors, &text, 1.0);
            }
            *anim = None;
        }
        _ => {
            let pop = match (&*anim, t) {
                (Some(anim), Some(t)) if t < SLIDE_SECONDS + POP_SECONDS => {
                    Some((anim, ((t - SLIDE_SECONDS) / POP_SECONDS) as f32))
                }
                _ => None,
            };
            for (cell, rank) in tiles(&snap.board) {
                let scale = match pop {
                    Some((anim, p)) if anim.spawned.contains(&cell) => 0.3 + 0.7 * ease_out(p),
                    Some((anim, p)) if anim.merged.contains(&cell) => {
                        1.0 + 0.15 * (p * std::f32::consts::PI).sin()
                    }
                    _ => 1.0,
                };
                let value = snap.rules.value(rank);
                let r = cell_rect(rect, side, cell.row as f32, cell.col as f32);
                let text = snap.rules.variant().tile_text(value);
                draw_tile(painter, r, snap.entry.tile_colors(value), &text, scale);
            }
            if pop.is_none() {
                *anim = None;
            }
        }
    }
}

/// A large arrow across the board pointing the way of the hint.
fn draw_hint(painter: &Painter, rect: Rect, dir: Direction) {
    let (dx, dy) = match dir {
        Direction::Left => (-1.0, 0.0),
        Direction::Right => (1.0, 0.0),
        Direction::Up => (0.0, -1.0),
        Direction::Down => (0.0, 1.0),
    };
    let along = Vec2::new(dx, dy);
    let across = Vec2::new(-dy, dx);
    let c = rect.center();
    let len = rect.width() * 0.30;
    let tip = c + along * len;
    let tail = c - along * len;
    let head = rect.width() * 0.13;
    let color = theme::HINT.gamma_multiply(0.85);
    painter.line_segment(
        [tail, tip - along * head * 0.5],
        egui::Stroke::new(rect.width() * 0.035, color),
    );
    painter.add(egui::Shape::convex_polygon(
        vec![
            tip,
            tip - along * head + across * head * 0.7,
            tip - along * head - across * head * 0.7,
        ],
        color,
        egui::Stroke::NONE,
    ));
}

/// Every cell of `board` with its rank (0: empty), row by row.
fn cells(board: &Board) -> impl Iterator<Item = (Cell, Rank)> + '_ {
    let side = board.side();
    (0..side)
        .flat_map(move |row| (0..side).map(move |col| Cell { row, col }))
        .map(|cell| (cell, board.rank(cell)))
}

/// The tiles of `board`: each occupied cell with its rank.
fn tiles(board: &Board) -> impl Iterator<Item = (Cell, Rank)> + '_ {
    cells(board).filter(|&(_, rank)| rank != 0)
}

fn lerp(a: usize, b: usize, t: f32) -> f32 {
    a as f32 + (b as f32 - a as f32) * t
}

/// One tile showing `text` in `cell`, in `colors`, scaled by `scale` about its centre.
pub fn draw_tile(painter: &Painter, cell: Rect, colors: TileColors, text: &str, scale: f32) {
    let r = Rect::from_center_size(cell.center(), cell.size() * scale);
    let radius = r.width() * 0.08;
    if let Some(accent) = colors.accent {
        // A card with a coloured foot: the foot shows below the face.
        painter.rect_filled(r, radius, theme::color(accent));
        let face = Rect::from_min_max(r.min, Pos2::new(r.max.x, r.max.y - r.height() * 0.1));
        painter.rect_filled(face, radius, theme::color(colors.fill));
    } else {
        painter.rect_filled(r, radius, theme::color(colors.fill));
    }
    let center = if colors.accent.is_some() {
        r.center() - Vec2::new(0.0, r.height() * 0.05)
    } else {
        r.center()
    };
    // The text's form and sizes as the tile at rest has them: a tile that pops or grows
    // keeps its form, scaled.
    let label = tile_label(painter, text, cell.width());
    let color = theme::color(colors.text);
    let galleys: Vec<_> = label
        .lines
        .iter()
        .map(|line| {
            painter.layout_no_wrap(
                line.text.clone(),
                FontId::proportional(line.size * scale),
                color,
            )
        })
        .collect();
    let tall: f32 = galleys.iter().map(|g| g.size().y).sum();
    let mut top = center.y - tall / 2.0;
    for galley in galleys {
        let size = galley.size();
        painter.galley(Pos2::new(center.x - size.x / 2.0, top), galley, color);
        top += size.y;
    }
}

/// What a tile showing `text` in a cell `side` points wide writes ([`crate::ui::tile_label`]), in
/// the fonts `painter` writes with.
pub fn tile_label(painter: &Painter, text: &str, side: f32) -> crate::ui::tile_label::TileLabel {
    crate::ui::tile_label::fit(text, side, |line, size| {
        painter
            .layout_no_wrap(line.to_string(), FontId::proportional(size), Color32::WHITE)
            .size()
            .x
    })
}

/// The next tile (Threes' next card), above the board.
fn next_card(ui: &mut egui::Ui, entry: &Entry, next: &str, height: f32) {
    let (rect, response) = ui.allocate_exact_size(Vec2::new(160.0, height), Sense::hover());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Label, true, format!("Next card: {next}"))
    });
    let painter = ui.painter();
    painter.text(
        Pos2::new(rect.center().x - 30.0, rect.center().y),
        Align2::RIGHT_CENTER,
        "Next",
        FontId::proportional(18.0),
        ui.visuals().text_color(),
    );
    let card = Rect::from_center_size(
        Pos2::new(rect.center().x + 10.0, rect.center().y),
        Vec2::new(height * 0.62, height * 0.85),
    );
    let value: u64 = next.parse().unwrap_or(6);
    let colors = entry.tile_colors(value);
    painter.rect_filled(
        card,
        5.0,
        theme::color(colors.accent.unwrap_or(colors.fill)),
    );
    let face = Rect::from_min_max(
        card.min,
        Pos2::new(card.max.x, card.max.y - card.height() * 0.1),
    );
    painter.rect_filled(face, 5.0, theme::color(colors.fill));
    painter.text(
        face.center(),
        Align2::CENTER_CENTER,
        next,
        FontId::proportional(22.0),
        if next == "+" {
            Color32::from_rgb(0x22, 0x22, 0x22)
        } else {
            theme::color(colors.text)
        },
    );
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use tilebox_sliding::builtin_rules;

    fn preview(dir: Direction, cells: f32) -> Option<Preview> {
        Some(Preview { dir, cells })
    }

    #[test]
    fn a_place_in_brackets_goes_under_the_worth() {
        use crate::ui::tile_label::bracketed;
        assert_eq!(bracketed("6(3|3)"), Some(("6", "(3|3)")));
        assert_eq!(bracketed("1716(7|8)"), Some(("1716", "(7|8)")));
        assert_eq!(bracketed("24(4×6)"), Some(("24", "(4×6)")));
        // Every label of 1716 but its 1 has one, every label of 2496 (its pairs), the labels
        // of 3240's products of two factors or more, and the labels of Four-Sides' and the
        // Ratio-Fills' tiles with flags (`375(UL)`, `18(12)`), and XXXX's powers with their
        // base (`64(2^6)`); no label of the other built-ins does.
        for v in tilebox_sliding::builtin_variants() {
            for (i, label) in v.labels.iter().enumerate() {
                let split = bracketed(label).is_some();
                let wanted = match v.id.as_str() {
                    "1716" => i > 0,
                    "2496" => true,
                    "3240" => label.contains('·') || label.contains(['²', '³', '⁴', '⁵', '⁶', '⁷']),
                    "four-sides-625" | "ratio-fill-1296" | "ratio-fill-1024"
                    | "ratio-fill-3375" | "ratio-fill-9261" | "xxxx" => label.contains('('),
                    _ => false,
                };
                assert_eq!(split, wanted, "{}: {label}", v.id);
            }
        }
        for plain in ["1", "-1", "1+i", "(x)", "2216.84", "÷2", "3r"] {
            assert_eq!(bracketed(plain), None, "{plain}");
        }
    }

    #[test]
    fn a_drag_previews_along_its_main_axis_in_proportion_one_cell_at_most() {
        assert_eq!(
            drag_preview(Vec2::new(30.0, 5.0), 60.0),
            preview(Direction::Right, 0.5)
        );
        assert_eq!(
            drag_preview(Vec2::new(-200.0, 10.0), 60.0),
            preview(Direction::Left, 1.0)
        );
        assert_eq!(
            drag_preview(Vec2::new(3.0, -15.0), 60.0),
            preview(Direction::Up, 0.25)
        );
        assert_eq!(
            drag_preview(Vec2::new(-20.0, 45.0), 90.0),
            preview(Direction::Down, 0.5)
        );
        assert_eq!(drag_preview(Vec2::ZERO, 60.0), None);
        assert_eq!(drag_preview(Vec2::new(10.0, 0.0), 0.0), None);
    }

    #[test]
    fn letting_go_plays_from_a_third_of_a_cell() {
        let at = |cells| Preview {
            dir: Direction::Left,
            cells,
        };
        assert!(!preview_plays(at(0.0)));
        assert!(!preview_plays(at(0.3)));
        assert!(preview_plays(at(0.34)));
        assert!(preview_plays(at(1.0)));
    }

    /// The cells the motions leave, each checked to go exactly one cell `dir`'s way.
    fn moved_one_cell(motions: &[Motion], dir: Direction) -> Vec<(usize, usize)> {
        let (dr, dc): (isize, isize) = match dir {
            Direction::Left => (0, -1),
            Direction::Right => (0, 1),
            Direction::Up => (-1, 0),
            Direction::Down => (1, 0),
        };
        let mut from: Vec<_> = motions
            .iter()
            .map(|m| {
                assert_eq!(m.to.row as isize - m.from.row as isize, dr, "{m:?}");
                assert_eq!(m.to.col as isize - m.from.col as isize, dc, "{m:?}");
                (m.from.row, m.from.col)
            })
            .collect();
        from.sort_unstable();
        from
    }

    #[test]
    fn the_cards_that_would_move_are_the_engines_one_cell_each() {
        let rules = builtin_rules("threes").unwrap();
        assert!(drag_previews(&rules));
        let board = rules
            .board_from_values(&[
                vec![1, 2, 0, 3],
                vec![3, 3, 3, 3],
                vec![0, 0, 0, 0],
                vec![6, 12, 24, 48],
            ])
            .unwrap();
        // Left: the 2 merges into the 1 and the 3 behind the gap follows; in the row of 3s the
        // first pair merges and the rest follow; the last row is full and cannot merge.
        let left = preview_motions(&rules, &board, Direction::Left);
        assert_eq!(
            moved_one_cell(&left, Direction::Left),
            vec![(0, 1), (0, 3), (1, 1), (1, 2), (1, 3)]
        );
        // Down: the two top rows step into the empty row; the bottom row stays.
        let down = preview_motions(&rules, &board, Direction::Down);
        assert_eq!(
            moved_one_cell(&down, Direction::Down),
            vec![(0, 0), (0, 1), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]
        );
    }

    #[test]
    fn a_way_the_board_cannot_move_previews_nothing() {
        let rules = builtin_rules("threes").unwrap();
        let board = rules
            .board_from_values(&[
                vec![0, 0, 0, 0],
                vec![0, 0, 0, 0],
                vec![0, 0, 0, 0],
                vec![6, 12, 24, 48],
            ])
            .unwrap();
        for dir in [Direction::Left, Direction::Right, Direction::Down] {
            assert!(preview_motions(&rules, &board, dir).is_empty(), "{dir:?}");
        }
        let up = preview_motions(&rules, &board, Direction::Up);
        assert_eq!(
            moved_one_cell(&up, Direction::Up),
            vec![(3, 0), (3, 1), (3, 2), (3, 3)]
        );
    }

    #[test]
    fn tiles_that_slide_to_the_wall_have_no_preview() {
        let rules = builtin_rules("2048").unwrap();
        assert!(!drag_previews(&rules));
        let board = rules
            .board_from_values(&[
                vec![0, 0, 0, 2],
                vec![0, 0, 0, 0],
                vec![0, 0, 0, 0],
                vec![0, 0, 0, 0],
            ])
            .unwrap();
        assert!(rules.slide(&board, Direction::Left).moved);
        assert!(preview_motions(&rules, &board, Direction::Left).is_empty());
    }

    #[test]
    fn the_pitch_is_a_cell_and_a_gap() {
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::splat(400.0));
        let pitch = cell_pitch(rect, 4);
        let (a, b) = (cell_rect(rect, 4, 0.0, 0.0), cell_rect(rect, 4, 0.0, 1.0));
        assert!((pitch - (b.min.x - a.min.x)).abs() < 1e-4);
        assert!(pitch > a.width() && pitch < 400.0 / 4.0 + 1.0, "{pitch}");
    }
}
