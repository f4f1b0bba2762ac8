//! The statistics screen, opened from the launcher and from a game, driven by its keys.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::screens::stats::view::{figure_text, number};
use tilebox::store::history::{Record, history_file_name};
use tilebox::{Screen, TileboxApp};
use tilebox_core::DynSession;

fn index_of(h: &egui_kittest::Harness<'_, TileboxApp>, id: &str) -> usize {
    h.state()
        .registry()
        .entries()
        .iter()
        .position(|e| e.id() == id)
        .unwrap()
}

#[test]
fn an_entry_with_no_history_shows_the_empty_state_from_the_launcher_and_back() {
    let dir = common::temp_dir("stats-empty");
    let mut h = common::harness(&dir, None);
    // Threes is a game of its own: its card in the launcher has its statistics.
    let title = h
        .state()
        .registry()
        .get("threes")
        .unwrap()
        .title()
        .to_string();
    h.get_by_label(&tilebox::screens::launcher::cards::stats_label(&title))
        .click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index_of(&h, "threes")));
    h.get_by_label(&format!("Statistics: {title}"));
    h.get_by_label(tilebox::screens::stats::view::EMPTY_TEXT);
    assert!(
        h.query_by_label(tilebox::screens::stats::view::REPLAY_BEST_LABEL)
            .is_none()
    );
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);
    // No game was started by looking.
    assert!(h.state().session("threes").is_none());
}

#[test]
fn the_statistics_open_from_a_game_by_key_and_by_its_button_and_go_back_to_it() {
    let dir = common::temp_dir("stats-from-game");
    let mut h = common::harness(&dir, Some("2048"));
    let index = index_of(&h, "2048");
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index));
    h.get_by_label(tilebox::screens::stats::view::EMPTY_TEXT);
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Game(index));
    h.get_by_label(tilebox::STATS_LABEL).click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Game(index));
}

/// The entry the histories of these tests are of: short games.
const ID: &str = "2048-3x3";

/// A game of `ID` from `seed` played by the tests' simple player to its end, or for `moves`
/// moves, as the app's sessions are.
fn played(seed: u64, moves: Option<usize>) -> Box<dyn DynSession> {
    let registry = tilebox_games::registry();
    let mut s = registry.get(ID).unwrap().new_session(seed).unwrap();
    let order = ["D", "L", "R", "U"];
    while moves.is_none_or(|n| s.move_count() < n) {
        let legal = s.legal_moves();
        let Some(mv) = order.iter().find(|m| legal.iter().any(|l| l == *m)) else {
            break;
        };
        s.play_text(mv).unwrap();
    }
    s
}

/// The record of `session`, ended on day `day` of November 2026, assisted or not, a daily game
/// of that day if `daily` (the session then is that day's game).
fn record(session: &dyn DynSession, day: u32, assisted: bool, daily: bool) -> Record {
    let tally = tilebox::store::tally::Tally {
        assisted,
        ..Default::default()
    };
    let date = format!("2026-11-{day:02}");
    Record {
        daily: daily.then(|| date.clone()),
        ..Record::of(ID, session, &tally, None, 1000, format!("{date}T12:00:00Z"))
    }
}

/// The daily game of day `day` of November 2026, played to its end.
fn daily(day: u8) -> Box<dyn DynSession> {
    let date = tilebox_core::date::Date::new(2026, 11, day).unwrap();
    played(tilebox_core::daily_seed(ID, date), None)
}

/// Won games of `ID`, as the app would have recorded them: made by the assistant with
/// `cargo run --release -p tilebox --example history_write -- <dir> 2048-3x3 3 --won`. (A
/// record is trusted only if its moves make what it says, so a won game must be one.)
const WINS: &str = include_str!("fixtures/wins-2048-3x3.jsonl");

/// Won game `n` (0 to 2) of [`WINS`], replayed.
fn won(n: usize) -> Box<dyn DynSession> {
    let line = WINS.lines().nth(n).unwrap();
    let record: Record = serde_json::from_str(line).unwrap();
    let registry = tilebox_games::registry();
    let entry = registry.get(ID).unwrap();
    let session = entry.load(&record.saved_game(entry)).unwrap();
    assert!(session.status().won);
    session
}

/// A history of seven games: lost, won, abandoned, assisted and daily ones.
fn history() -> Vec<Record> {
    vec![
        record(played(1, None).as_ref(), 1, false, false),
        record(won(0).as_ref(), 2, false, false),
        record(won(1).as_ref(), 3, false, false),
        record(played(4, Some(5)).as_ref(), 4, false, false),
        record(played(5, None).as_ref(), 5, true, false),
        record(daily(6).as_ref(), 6, false, true),
        record(won(2).as_ref(), 7, true, false),
    ]
}

/// Writes `records` as the history of `ID` in `dir`.
fn write_history(dir: &Path, records: &[Record]) {
    common::write_history(dir, ID, records);
}

/// The best game of `records` as a player counts it: the first unassisted game with the
/// highest score.
fn best_of(records: &[Record]) -> usize {
    let best = records
        .iter()
        .filter(|r| !r.assisted)
        .map(|r| r.score)
        .max()
        .unwrap();
    records
        .iter()
        .position(|r| !r.assisted && r.score == best)
        .unwrap()
}

/// `record` after its first `n` moves, as the app's sessions are.
fn after(record: &Record, n: usize) -> Box<dyn DynSession> {
    let registry = tilebox_games::registry();
    let entry = registry.get(ID).unwrap();
    let mut saved = record.saved_game(entry);
    saved.moves.truncate(n);
    entry.load(&saved).unwrap()
}

fn replay_position(h: &Harness<'_, TileboxApp>) -> (usize, usize) {
    h.state().replay().expect("a replay is shown").1
}

/// Opens the statistics of `ID` from the launcher: its group's card, then its own card's
/// statistics button.
fn open_from_launcher(h: &mut Harness<'_, TileboxApp>) {
    let registry = tilebox_games::registry();
    let entry = registry.get(ID).unwrap();
    h.get_by_label(&format!("Play {}", entry.info().group))
        .click();
    h.run();
    h.get_by_label(&tilebox::screens::launcher::cards::stats_label(
        entry.title(),
    ))
    .click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Stats(index_of(h, ID)));
}

#[test]
fn the_figures_shown_are_those_of_the_history() {
    let dir = common::temp_dir("stats-figures");
    let records = history();
    write_history(&dir, &records);
    let mut h = common::harness(&dir, None);
    open_from_launcher(&mut h);

    let unassisted: Vec<&Record> = records.iter().filter(|r| !r.assisted).collect();
    let assisted: Vec<&Record> = records.iter().filter(|r| r.assisted).collect();
    let count = |set: &[&Record], f: fn(&Record) -> bool| set.iter().filter(|r| f(r)).count();
    let scores: Vec<u64> = unassisted.iter().map(|r| r.score).collect();
    let mut sorted = scores.clone();
    sorted.sort_unstable();
    let median = if sorted.len() % 2 == 1 {
        sorted[sorted.len() / 2] as f64
    } else {
        (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) as f64 / 2.0
    };
    let mean = scores.iter().sum::<u64>() as f64 / scores.len() as f64;
    let (mut current, mut longest) = (0, 0);
    for r in &unassisted {
        current = if r.won { current + 1 } else { 0 };
        longest = longest.max(current);
    }
    let won = count(&unassisted, |r| r.won);
    for (name, value) in [
        ("Played", unassisted.len().to_string()),
        ("Won", won.to_string()),
        (
            "Win rate",
            format!("{:.0}%", 100.0 * won as f64 / unassisted.len() as f64),
        ),
        ("Best", scores.iter().max().unwrap().to_string()),
        ("Mean", number(mean)),
        ("Median", number(median)),
        ("Current streak", current.to_string()),
        ("Longest streak", longest.to_string()),
    ] {
        h.get_by_label(&figure_text(name, &value));
    }
    // The assisted games apart, with their own best.
    h.get_by_label(&figure_text("Played", &assisted.len().to_string()));
    let assisted_best = assisted.iter().map(|r| r.score).max().unwrap();
    h.get_by_label(&figure_text("Best", &assisted_best.to_string()));
    // The daily game, with its own best.
    let daily = records.iter().find(|r| r.daily.is_some()).unwrap();
    assert_eq!(
        h.query_all_by_label(&figure_text("Best", &daily.score.to_string()))
            .count(),
        1 + usize::from(daily.score == *scores.iter().max().unwrap())
            + usize::from(daily.score == assisted_best)
    );
    h.get_by_label("Daily games");
    // The charts, and a replay button per game.
    h.get_by_label("Score of each game");
    h.get_by_label("Highest tile reached");
    for n in 1..=records.len() {
        h.get_by_label(&tilebox::screens::stats::view::replay_label(n));
    }
    h.key_press(Key::Escape);
    h.run();
    assert!(matches!(h.state().screen(), Screen::Group(_)));
}

#[test]
fn replay_my_best_game_starts_at_its_first_move_steps_and_plays_to_its_score() {
    let dir = common::temp_dir("stats-best");
    let records = history();
    write_history(&dir, &records);
    let best = &records[best_of(&records)];
    let mut h = common::harness(&dir, Some(ID));
    let before = h.state().session(ID).unwrap().save();
    let scores_before = h.state().scores().get(ID);
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.run();
    h.key_press(Key::R);
    h.run();
    assert!(matches!(h.state().screen(), Screen::Replay(_)));
    assert_eq!(replay_position(&h), (0, best.moves.len()));
    assert_eq!(h.state().replay().unwrap().0.text(), after(best, 0).text());
    for n in 1..=3 {
        h.key_press(Key::ArrowRight);
        h.run();
        assert_eq!(replay_position(&h), (n, best.moves.len()));
        assert_eq!(h.state().replay().unwrap().0.text(), after(best, n).text());
    }
    h.key_press(Key::Space);
    h.step();
    h.step();
    assert!(h.state().replay_playing());
    let mut frames = 0;
    while replay_position(&h).0 < best.moves.len() {
        h.step();
        frames += 1;
        assert!(
            frames < 10 * best.moves.len(),
            "stopped at {:?}",
            replay_position(&h)
        );
    }
    h.run();
    assert_eq!(h.state().replay().unwrap().0.score(), best.score);
    // Back to the statistics, then to the game, which is as it was; so are the scores and
    // the history.
    h.key_press(Key::Escape);
    h.run();
    assert!(matches!(h.state().screen(), Screen::Stats(_)));
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().current_game(), Some(ID));
    assert_eq!(h.state().session(ID).unwrap().save(), before);
    assert_eq!(h.state().scores().get(ID), scores_before);
    common::settle();
    let text = std::fs::read_to_string(dir.join(history_file_name(ID))).unwrap();
    assert_eq!(text.lines().count(), records.len());
}

#[test]
fn each_game_of_the_list_replays_from_its_start() {
    let dir = common::temp_dir("stats-list");
    let records = history();
    write_history(&dir, &records);
    let mut h = common::harness(&dir, Some(ID));
    h.get_by_label(tilebox::STATS_LABEL).click();
    h.run();
    // The abandoned game, fourth in the history, below the charts: Tab to its button (after
    // Back, "Replay my best game", the three buttons of the charts' range and the games after
    // it, the list being most recent first), then Return.
    for _ in 0..2 + 3 + records.len() - 4 + 1 {
        h.key_press(Key::Tab);
        h.run();
    }
    let label = tilebox::screens::stats::view::replay_label(4);
    let focused = h.get_by_label(&label);
    assert!(focused.is_focused());
    // The page scrolled to it: it is in the window.
    let screen = h.ctx.content_rect();
    assert!(
        screen.contains_rect(focused.rect()),
        "{:?} in {screen:?}",
        focused.rect()
    );
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(replay_position(&h), (0, records[3].moves.len()));
    h.key_press(Key::End);
    h.run();
    assert_eq!(
        h.state().replay().unwrap().0.text(),
        after(&records[3], 5).text()
    );
    assert_eq!(h.state().replay().unwrap().0.score(), records[3].score);
}

#[test]
fn the_statistics_fit_the_width_of_a_narrow_and_a_wide_window() {
    for pixels in [
        egui::Vec2::new(360.0, 640.0),
        egui::Vec2::new(1920.0, 1080.0),
    ] {
        let dir = common::temp_dir("stats-widths");
        let records = history();
        write_history(&dir, &records);
        let dir2 = dir.to_path_buf();
        let mut h = Harness::builder()
            .with_size(pixels)
            .with_max_steps(40)
            .build_eframe(move |_cc| TileboxApp::new(dir2, Some(ID)));
        common::read_histories(&mut h);
        // As eframe runs a window: the screen is the window's pixels over the zoom.
        for _ in 0..5 {
            h.run();
            let zoom = h.ctx.zoom_factor();
            h.set_size(pixels / zoom);
        }
        h.run();
        h.key_press_modifiers(Modifiers::SHIFT, Key::S);
        h.run();
        let width = pixels.x / h.ctx.zoom_factor();
        let items: Vec<(String, egui::Rect)> = common::spoken_all(&h)
            .into_iter()
            .filter(|(s, _)| {
                s.contains('\n') || s.starts_with("Replay") || s.starts_with('#') || s == "Back"
            })
            .collect();
        // Eight figures of the unassisted games, four of the assisted, three of the daily.
        let figures = items.iter().filter(|(s, _)| s.contains('\n')).count();
        assert_eq!(figures, 8 + 4 + 3, "{items:?}");
        for (name, rect) in &items {
            assert!(
                rect.left() >= 0.0 && rect.right() <= width + 0.5 && rect.width() >= 8.0,
                "at {pixels:?}: {name:?} at {rect:?} is not whole inside the width {width}"
            );
        }
        for (i, (a, ra)) in items.iter().enumerate() {
            for (b, rb) in &items[i + 1..] {
                let overlap = ra.intersect(*rb);
                assert!(
                    !overlap.is_positive() || overlap.area() < 1.0,
                    "at {pixels:?}: {a:?} {ra:?} overlaps {b:?} {rb:?}"
                );
            }
        }
    }
}

/// A history with forged records: one edited to say 99999, and one of real moves replayed on an
/// 8×8 board of its own choosing (its record naming those rules), which scores more than any
/// game of 3×3. Neither is the best, nor the game "Replay my best game" shows.
#[test]
fn a_forged_best_counts_in_no_figure_and_is_not_the_best_game_replayed() {
    let dir = common::temp_dir("stats-forged-best");
    let records = history();
    let honest_best = records
        .iter()
        .filter(|r| !r.assisted)
        .map(|r| r.score)
        .max()
        .unwrap();
    let best = records[best_of(&records)].clone();
    let edited = Record {
        score: 99_999,
        ..records[0].clone()
    };
    let registry = tilebox_games::registry();
    let entry = registry.get(ID).unwrap();
    let mut params = entry.params_json();
    params["side"] = 8.into();
    let mut on_8 = entry.with_params(&params, 3).unwrap();
    while on_8.move_count() < 2000 {
        let Some(mv) = on_8.legal_moves().into_iter().next() else {
            break;
        };
        on_8.play_text(&mv).unwrap();
    }
    let own_rules = record(on_8.as_ref(), 8, false, false);
    assert!(own_rules.params.is_some());
    assert!(own_rules.score > honest_best, "{}", own_rules.score);
    let mut all = records.clone();
    all.push(edited);
    all.push(own_rules.clone());
    write_history(&dir, &all);
    let mut h = common::harness(&dir, Some(ID));
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.run();
    h.get_by_label(&figure_text("Best", &honest_best.to_string()));
    for forged in ["99999".to_string(), own_rules.score.to_string()] {
        assert!(
            h.query_by_label(&figure_text("Best", &forged)).is_none(),
            "{forged}"
        );
    }
    h.get_by_label(&figure_text(
        "Played",
        &records.iter().filter(|r| !r.assisted).count().to_string(),
    ));
    h.get_by_label(&tilebox::screens::stats::view::left_out_text(2));
    // "Replay my best game" replays the honest best, to its score.
    h.key_press(Key::R);
    h.run();
    assert_eq!(replay_position(&h), (0, best.moves.len()));
    h.key_press(Key::End);
    h.run();
    assert_eq!(h.state().replay().unwrap().0.score(), best.score);
}

#[test]
fn counts_are_written_with_their_thousands_separated_as_the_trained_moves_are() {
    // "Played 1,200" beside the training's "1,750 million", never "Played 1200".
    let dir = common::temp_dir("stats-thousands");
    let records: Vec<Record> = (0..1200)
        .map(|i| {
            record(
                played(i, Some(1)).as_ref(),
                1 + (i % 28) as u32,
                false,
                false,
            )
        })
        .collect();
    write_history(&dir, &records);
    let mut h = common::harness(&dir, None);
    open_from_launcher(&mut h);
    h.get_by_label(&figure_text("Played", "1,200"));
    assert_eq!(
        tilebox::ui::theme::thousands(1_750_000_000u64),
        "1,750,000,000"
    );
    assert_eq!(tilebox::ui::theme::thousands(999u64), "999");
    assert_eq!(tilebox::ui::theme::thousands(20_000usize), "20,000");
}
