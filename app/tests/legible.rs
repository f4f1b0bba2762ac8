//! Text a player must be able to read: every axis of the statistics writes its marks, whatever
//! the history (20,000 games), and every tile of every built-in sliding game writes its text in
//! 12-point type or more in a window 360 px wide, in a short form where it must be, with its
//! whole text on hover and on the keyboard's focus.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use egui::{Key, Modifiers, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use tilebox::TileboxApp;
use tilebox::store::history::Record;
use tilebox::ui::tile_label::LEAST;
use tilebox_sliding::builtin_variants;

type App = Harness<'static, TileboxApp>;

/// Every text painted in the last frame, with where it is.
fn painted_texts(h: &App) -> Vec<(String, Rect)> {
    fn walk(shape: &egui::Shape, out: &mut Vec<(String, Rect)>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(t) => out.push((
                t.galley.text().to_string(),
                t.galley.rect.translate(t.pos.to_vec2()),
            )),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

/// The app over `dir` opened on `game`, in a window of `size`.
fn app_at(dir: &std::path::Path, game: Option<&str>, size: (f32, f32)) -> App {
    let dir = dir.to_path_buf();
    let game = game.map(str::to_string);
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(size.0, size.1))
        .with_max_steps(common::MAX_STEPS)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::new(dir, game.as_deref()));
    common::read_histories(&mut h);
    h.run();
    h
}

/// Game `n` of 2048 played by the tests' simple player until its highest tile is `top`.
fn game_to(n: u64, top: u64) -> Record {
    let registry = tilebox_games::registry();
    let mut s = registry.get("2048").unwrap().new_session(n).unwrap();
    while s.top_tile().is_some_and(|t| t < top) {
        let legal = s.legal_moves();
        let Some(mv) = ["D", "L", "R", "U"]
            .into_iter()
            .find(|m| legal.iter().any(|l| l == m))
        else {
            break;
        };
        s.play_text(mv).unwrap();
    }
    assert_eq!(s.top_tile(), Some(top), "game {n}");
    Record::of(
        "2048",
        s.as_ref(),
        &tilebox::store::tally::Tally::default(),
        None,
        1000,
        "2026-11-23T12:00:00Z".to_string(),
    )
}

/// The numbers written in `band` of the screen (a chart's), with where they are: the axes'
/// marks (a tile of these games is at most 16, so the marks of counts and games are those of
/// 1,000 or more).
fn numbers_in(texts: &[(String, Rect)], band: Rect) -> Vec<(u64, Rect)> {
    texts
        .iter()
        .filter(|(_, r)| band.contains_rect(*r))
        .filter_map(|(t, r)| t.parse::<u64>().ok().map(|n| (n, *r)))
        .collect()
}

/// The marks written up the side of a chart: numbers of 1,000 or more in `band`, in one column
/// (their right edges together), rising up the screen.
fn side_marks(texts: &[(String, Rect)], band: Rect) -> Vec<u64> {
    let mut marks: Vec<(u64, Rect)> = numbers_in(texts, band)
        .into_iter()
        .filter(|(n, _)| *n >= 1000)
        .collect();
    marks.sort_by(|a, b| b.1.center().y.total_cmp(&a.1.center().y));
    let right = marks.first().map(|(_, r)| r.right()).unwrap_or_default();
    let astray: Vec<&(u64, Rect)> = marks
        .iter()
        .filter(|(_, r)| (r.right() - right).abs() > 1.0)
        .collect();
    assert!(
        astray.is_empty(),
        "{astray:?} not in the column of {marks:?}"
    );
    marks.into_iter().map(|(n, _)| n).collect()
}

#[test]
fn the_axes_of_twenty_thousand_games_write_their_marks() {
    // 20,000 games of 2048 (4×4): 9,300 whose highest tile is 8, 6,000 of 4 and 4,700 of 16,
    // so that the histogram's count of games goes to 9,300, where egui_plot's own marks,
    // which step by powers of ten, wrote "0" alone up its side.
    let records: Vec<Record> = (1..=20_000u64)
        .map(|n| {
            let top = match n {
                1..=9_300 => 8,
                9_301..=15_300 => 4,
                _ => 16,
            };
            game_to(n, top)
        })
        .collect();
    let dir = common::temp_dir("legible-axes");
    common::write_history(&dir, "2048", &records);
    let mut h = app_at(&dir, Some("2048"), (380.0, 1600.0));
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.run();
    h.get_by_label(&tilebox::screens::stats::view::range_label(
        tilebox::store::stats::Range::All,
    ))
    .click();
    h.run();
    let texts = painted_texts(&h);
    let band_under = |title: &str| {
        let top = h.get_by_label(title).rect().bottom();
        Rect::from_x_y_ranges(0.0..=380.0, top..=top + 300.0)
    };

    // The score of each game: along the bottom the games, up to 20,000, and up the side the
    // scores (each of these games scores under 1,000: its marks are checked by number).
    let scores = band_under("Score of each game");
    let along: Vec<u64> = numbers_in(&texts, scores)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| *n >= 1000)
        .collect();
    assert!(
        along.contains(&10_000) && along.contains(&20_000),
        "{along:?}"
    );
    let up: Vec<u64> = numbers_in(&texts, scores)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| *n > 0 && *n < 1000)
        .collect();
    assert!(up.len() >= 2, "the scores' marks: {up:?}");

    // The highest tile reached: up the side the games, 0 to 9,300.
    let tiles = band_under(tilebox::store::stats::Measure::TopTile.title());
    let marks = side_marks(&texts, tiles);
    assert!(marks.len() >= 3, "the games' marks: {marks:?}");
    assert!(marks.windows(2).all(|w| w[0] < w[1]), "{marks:?}");
    assert!(marks.iter().all(|&m| m <= 9_300), "{marks:?}");
}

/// The side of a cell of a board of `side` in a window 360 px wide and 600 high, as the app
/// draws it: found by the accessible label of the first cell of `game`.
fn cell_side(game: &str) -> f32 {
    let dir = common::temp_dir("legible-cell");
    let h = app_at(&dir, Some(game), (360.0, 600.0));
    let cells: Vec<Rect> = common::spoken_all(&h)
        .into_iter()
        .filter(|(s, _)| s.starts_with("row 1, column 1: "))
        .map(|(_, r)| r)
        .collect();
    assert_eq!(cells.len(), 1, "{game}: {cells:?}");
    cells[0].width()
}

#[test]
fn every_tile_of_every_built_in_game_writes_12_point_text_at_360_px() {
    let variants = builtin_variants();
    // One game of each side to find its cells' size.
    let mut sides: BTreeMap<usize, f32> = BTreeMap::new();
    for v in &variants {
        sides.entry(v.side).or_insert_with(|| cell_side(&v.id));
    }
    // The app's fonts, to measure with.
    let dir = common::temp_dir("legible-tiles");
    let h = app_at(&dir, None, (360.0, 600.0));
    let painter = egui::Painter::new(h.ctx.clone(), egui::LayerId::background(), Rect::EVERYTHING);
    let mut small = Vec::new();
    let mut short = 0;
    let mut short_by: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tiles = 0;
    for v in &variants {
        let cell = sides[&v.side];
        // Every tile of the ladder; of a range of integers, every length and sign of number
        // there is, at its ends and around 0.
        let values: Vec<u64> = match v.tiles.integer_range() {
            Some(_) => {
                let n = v.tiles.len() as u64;
                let mut picked: Vec<u64> =
                    (1..=n.min(40)).chain(n.saturating_sub(40)..=n).collect();
                picked.retain(|&x| x >= 1);
                picked
            }
            None => v.tiles.to_vec(),
        };
        for value in values {
            let text = v.tile_text(value);
            let label = tilebox::views::sliding::tile_label(&painter, &text, cell);
            tiles += 1;
            // Its lines, as the app lays them out, within the tile.
            let lines: Vec<egui::Vec2> = label
                .lines
                .iter()
                .map(|l| {
                    painter
                        .layout_no_wrap(
                            l.text.clone(),
                            egui::FontId::proportional(l.size),
                            egui::Color32::WHITE,
                        )
                        .size()
                })
                .collect();
            let tall: f32 = lines.iter().map(|l| l.y).sum();
            let wide = lines.iter().map(|l| l.x).fold(0.0, f32::max);
            assert!(
                tall <= cell && wide <= cell,
                "{} {text:?}: {wide} × {tall} in a cell of {cell}",
                v.id
            );
            if !label.whole {
                short += 1;
                *short_by.entry(v.id.as_str()).or_insert(0) += 1;
            }
            if label.smallest() < LEAST {
                small.push(format!(
                    "{} ({}×{}, cells of {cell:.1}): {text:?} at {:.1}",
                    v.id,
                    v.side,
                    v.side,
                    label.smallest()
                ));
            }
        }
    }
    eprintln!("{tiles} tiles, {short} in a short form; cells {sides:?}");
    let mut most: Vec<(&str, usize)> = short_by.into_iter().collect();
    most.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    eprintln!("written short, most first: {most:?}");
    assert!(
        small.is_empty(),
        "{} tiles under 12 points:\n{}",
        small.len(),
        small.join("\n")
    );
}

/// Based on 2048 (8×8): every tile 131072 or 262144, two on the board from the start.
const LONG_TILES: &str = r#"{"format": 1, "id": "long-tiles", "title": "Long tiles", "description": "Big numbers on a big board.", "based_on": "2048-8x8", "tiles": [131072, 262144], "spawn": {"weights": {"131072": 1}}, "start": 2, "win": null}"#;

#[test]
fn a_tile_written_short_shows_its_whole_value_on_hover_and_on_focus() {
    let dir = common::temp_dir("legible-short");
    let folder = dir.join("variants");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("long-tiles.json"), LONG_TILES).unwrap();
    let mut h = app_at(&dir, Some("long-tiles"), (360.0, 600.0));
    let tiles: Vec<(String, Rect)> = common::spoken_all(&h)
        .into_iter()
        .filter(|(s, _)| s.ends_with(": 131072"))
        .collect();
    // The cells say the whole value; the board writes it short.
    assert_eq!(tiles.len(), 2, "{tiles:?}");
    let texts = painted_texts(&h);
    let written: Vec<&String> = texts
        .iter()
        .filter(|(_, r)| tiles.iter().any(|(_, cell)| cell.contains_rect(*r)))
        .map(|(t, _)| t)
        .collect();
    assert_eq!(written, ["131k", "131k"], "{texts:?}");
    assert!(h.query_by_label("131072").is_none());

    // Hovered: the whole value.
    h.get_by_label(&tiles[0].0).hover();
    h.run();
    h.get_by_label("131072");

    // Away from it, then Tab to the other cell: the whole value again, while it has the focus.
    h.hover_at(egui::pos2(5.0, 595.0));
    h.run();
    assert!(h.query_by_label("131072").is_none());
    let mut found = false;
    for _ in 0..40 {
        h.key_press(Key::Tab);
        h.run();
        let focused = h
            .query_all(By::new())
            .find(|n| n.is_focused())
            .and_then(|n| common::spoken(&n));
        if focused.is_some_and(|f| f.ends_with(": 131072")) {
            found = true;
            break;
        }
    }
    assert!(found, "Tab never reached a cell written short");
    h.get_by_label("131072");
}
