//! The history, played through the real app with keys: a game is recorded once, when it first
//! ends or when it is given up for a new one after a move, and replays to its recorded score;
//! undo and redo across the end never record it twice; the assisted mark and the daily date
//! are kept; the history survives a restart; a history that cannot be read is moved aside.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::time::Duration;

use common::{harness, harness_stepping, key_of, temp_dir};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use tilebox::TileboxApp;
use tilebox::store::history::{HistoryView, Record, history_file_name};
use tilebox_sliding::Sliding;

/// A game of 2048 on a 3×3 board one move before its end, and that move.
fn nearly_over() -> (tilebox_core::Session<Sliding>, String) {
    common::play_until::<Sliding>(common::variant("2048-3x3"), 4, common::by_order, |st| {
        st.over
    })
    .unwrap()
}

/// The history of `id` as the app holds it, once every file has been read.
fn history_of(h: &mut Harness<'_, TileboxApp>, id: &str) -> Vec<Record> {
    assert!(h.state_mut().wait_for_histories(Duration::from_secs(60)));
    match h.state().history(id) {
        HistoryView::Ready(records) => records.to_vec(),
        HistoryView::Loading => panic!("{id}: still loading"),
    }
}

/// The lines of the history file of `id` in `dir`, once the writes are done.
fn lines_on_disk(dir: &Path, id: &str) -> Vec<String> {
    common::settle();
    match std::fs::read_to_string(dir.join(history_file_name(id))) {
        Ok(text) => text.lines().map(str::to_string).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => panic!("{e}"),
    }
}

/// Plays `last` in game `id` of `h`, which ends it.
fn end_with(h: &mut Harness<'_, TileboxApp>, id: &str, last: &str) {
    h.key_press(key_of(last));
    h.run();
    assert!(h.state().session(id).unwrap().status().over);
}

#[test]
fn a_finished_game_is_recorded_once_replays_to_its_score_and_survives_a_restart() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-finished");
    let id = common::write_entry_save(&dir, &session);
    let mut h = harness(&dir, Some(&id));
    assert!(history_of(&mut h, &id).is_empty());
    end_with(&mut h, &id, &last);
    let game = h.state().session(&id).unwrap();
    let (score, top, moves) = (game.score(), game.top_tile(), game.save().moves);

    let records = history_of(&mut h, &id);
    assert_eq!(records.len(), 1, "{records:?}");
    let r = &records[0];
    assert_eq!((r.game.as_str(), r.seed), (id.as_str(), session.seed()));
    assert_eq!(
        (r.score, r.top_tile, &r.moves.to_vec()),
        (score, top, &moves)
    );
    assert!(r.over && !r.assisted && r.daily.is_none());
    assert!(
        tilebox_core::date::parse_rfc3339(&r.ended).is_some(),
        "{}",
        r.ended
    );
    // The record replays to its score and highest tile.
    let entry = tilebox_games::registry().get(&id).unwrap().clone();
    let replayed = entry.load(&r.saved_game(&entry)).unwrap();
    assert_eq!(
        (replayed.score(), replayed.top_tile()),
        (r.score, r.top_tile)
    );
    assert!(replayed.status().over);

    // On disk: one line, the same record.
    let lines = lines_on_disk(&dir, &id);
    assert_eq!(lines.len(), 1);
    assert_eq!(&serde_json::from_str::<Record>(&lines[0]).unwrap(), r);
    drop(h);

    // A restart reads it back, and resuming the finished game records nothing more.
    let mut h = harness(&dir, Some(&id));
    assert!(h.state().notices().is_empty(), "{:?}", h.state().notices());
    assert_eq!(history_of(&mut h, &id), records);
    // A new game after it (no question: the game is over) does not record it again.
    h.key_press(Key::N);
    h.run();
    assert_eq!(h.state().session(&id).unwrap().move_count(), 0);
    assert_eq!(history_of(&mut h, &id), records);
    drop(h);
    assert_eq!(lines_on_disk(&dir, &id).len(), 1);
}

#[test]
fn undo_across_the_end_then_redo_still_records_the_game_once() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-undo");
    let id = common::write_entry_save(&dir, &session);
    let mut h = harness(&dir, Some(&id));
    end_with(&mut h, &id, &last);
    assert_eq!(history_of(&mut h, &id).len(), 1);
    for _ in 0..2 {
        h.key_press(Key::U);
        h.run();
        assert!(!h.state().session(&id).unwrap().status().over);
        h.key_press_modifiers(Modifiers::SHIFT, Key::U);
        h.run();
        assert!(h.state().session(&id).unwrap().status().over);
    }
    // Undone once more and played to the end again: still the one record, of its first end.
    h.key_press(Key::U);
    h.run();
    end_with(&mut h, &id, &last);
    let records = history_of(&mut h, &id);
    assert_eq!(records.len(), 1, "{records:?}");
    assert!(
        !records[0].assisted,
        "recorded at its first end, before the undo"
    );
    drop(h);
    assert_eq!(lines_on_disk(&dir, &id).len(), 1);
    // After a restart, too.
    let mut h = harness(&dir, Some(&id));
    h.key_press(Key::U);
    h.run();
    h.key_press_modifiers(Modifiers::SHIFT, Key::U);
    h.run();
    assert_eq!(history_of(&mut h, &id).len(), 1);
    drop(h);
    assert_eq!(lines_on_disk(&dir, &id).len(), 1);
}

#[test]
fn a_game_given_up_after_a_move_is_recorded_not_over_and_one_without_a_move_is_not() {
    let dir = temp_dir("history-abandon");
    let mut h = harness(&dir, Some("2048"));
    // Opened, and a new game started at once (nothing to lose): nothing recorded.
    h.key_press(Key::N);
    h.run();
    assert!(history_of(&mut h, "2048").is_empty());

    let mv = h.state().session("2048").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    let game = h.state().session("2048").unwrap();
    let (seed, score, moves) = (game.seed(), game.score(), game.save().moves);
    assert_eq!(moves.len(), 1);
    h.key_press(Key::N);
    h.run();
    h.key_press(Key::Y);
    h.run();
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);

    let records = history_of(&mut h, "2048");
    assert_eq!(records.len(), 1, "{records:?}");
    let r = &records[0];
    assert!(!r.over && !r.won);
    assert_eq!((r.seed, r.score, &r.moves.to_vec()), (seed, score, &moves));
    // Starting yet another game from the new one, without a move: nothing more.
    h.key_press(Key::N);
    h.run();
    assert_eq!(history_of(&mut h, "2048").len(), 1);
    drop(h);
    assert_eq!(lines_on_disk(&dir, "2048").len(), 1);
}

#[test]
fn an_assisted_game_is_recorded_as_assisted() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-assisted");
    let id = common::write_entry_save(&dir, &session);
    let mut h = harness(&dir, Some(&id));
    h.key_press(Key::U);
    h.run();
    h.key_press_modifiers(Modifiers::SHIFT, Key::U);
    h.run();
    assert!(h.state().assisted(&id));
    end_with(&mut h, &id, &last);
    let records = history_of(&mut h, &id);
    assert_eq!(records.len(), 1);
    assert!(records[0].assisted);
    drop(h);
    let line: serde_json::Value = serde_json::from_str(&lines_on_disk(&dir, &id)[0]).unwrap();
    assert_eq!(line["assisted"], true);
}

#[test]
fn a_daily_game_is_recorded_with_its_date() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-daily");
    let id = common::entry_for::<Sliding>(session.params());
    // The save of a daily game: the engine's form with the date beside it.
    let mut save = serde_json::to_value(session.save()).unwrap();
    save["game"] = id.clone().into();
    save["daily"] = "2026-11-23".into();
    let path = dir.join(tilebox::store::saves::save_file_name(&id));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, save.to_string()).unwrap();

    let mut h = harness(&dir, Some(&id));
    end_with(&mut h, &id, &last);
    let records = history_of(&mut h, &id);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].daily.as_deref(), Some("2026-11-23"));
    // The next game is not a daily game.
    h.key_press(Key::N);
    h.run();
    let mv = h.state().session(&id).unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    h.key_press(Key::N);
    h.run();
    h.key_press(Key::Y);
    h.run();
    let records = history_of(&mut h, &id);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].daily, None);
}

#[test]
fn the_time_a_game_is_on_screen_is_recorded() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-duration");
    let id = common::write_entry_save(&dir, &session);
    // Frames a quarter of a second apart: every frame with the board shown adds its time.
    let mut h = harness(&dir, Some(&id));
    for _ in 0..8 {
        h.step();
    }
    end_with(&mut h, &id, &last);
    let r = history_of(&mut h, &id).remove(0);
    assert!(r.duration_ms >= 2000, "{}", r.duration_ms);
    // Not a minute: the gaps are capped, and frames after the end do not count.
    assert!(r.duration_ms < 60_000, "{}", r.duration_ms);
}

#[test]
fn time_the_player_thinks_without_a_frame_counts_up_to_a_minute_a_gap() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-thinking");
    let id = common::write_entry_save(&dir, &session);
    // The frames of the app's start, before the test sets the time, count too: a millisecond
    // apart, so that their number (which the threads reading the files sway) barely does.
    let mut h = harness_stepping(&dir, Some(&id), 0.001);
    // No frame is drawn while the player thinks: 10 s, then 20 s, between two frames.
    let start = h.ctx.input(|i| i.time);
    for t in [10.0, 30.0] {
        h.input_mut().time = Some(start + t);
        h.step();
    }
    // Then the window was left for an hour, and the last move played, its frames a tenth of a
    // second apart.
    h.input_mut().time = Some(start + 3630.0);
    h.step();
    h.key_press(key_of(&last));
    for n in 1..=10 {
        h.input_mut().time = Some(start + 3630.0 + 0.1 * f64::from(n));
        h.step();
    }
    assert!(h.state().session(&id).unwrap().status().over);
    let r = history_of(&mut h, &id).remove(0);
    // 30 s of thought, a minute for the hour away, the tenth of a second before the last move,
    // and the start's few frames (a millisecond each): the move ends the game in its frame, so
    // the frames after it count nothing.
    assert!(
        (90_100..=90_150).contains(&r.duration_ms),
        "{}",
        r.duration_ms
    );
}

#[test]
fn bad_lines_are_skipped_with_a_notice_naming_the_file() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-bad-line");
    let id = common::write_entry_save(&dir, &session);
    let path = dir.join(history_file_name(&id));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "this is not a record\n{\"format\":1,\"torn").unwrap();
    let mut h = harness(&dir, Some(&id));
    assert!(history_of(&mut h, &id).is_empty());
    let name = history_file_name(&id);
    assert!(
        h.state()
            .notices()
            .iter()
            .any(|n| n.contains(&name) && n.contains("1 line is not a game")),
        "{:?}",
        h.state().notices()
    );
    // The file stays; the next record is whole after the torn line.
    end_with(&mut h, &id, &last);
    drop(h);
    let lines = lines_on_disk(&dir, &id);
    assert_eq!(lines.len(), 3);
    assert!(common::moved_aside(&dir).is_empty());
    let mut h = harness(&dir, Some(&id));
    assert_eq!(history_of(&mut h, &id).len(), 1);
}

#[test]
fn lines_that_are_not_text_are_skipped_and_the_file_is_kept_and_goes_on() {
    let (session, last) = nearly_over();
    let dir = temp_dir("history-not-text");
    let id = common::write_entry_save(&dir, &session);
    let name = history_file_name(&id);
    let path = dir.join(&name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Two lines of bytes that are not UTF-8, the last one cut short (torn).
    std::fs::write(&path, b"\xff\xfe\x00 not text\n\xc0\n").unwrap();
    let before = std::fs::read(&path).unwrap();

    let mut h = harness(&dir, Some(&id));
    assert!(history_of(&mut h, &id).is_empty());
    let notices = h.state().notices().to_vec();
    assert!(
        notices
            .iter()
            .any(|n| n.contains(&name) && n.contains("1 line is not a game")),
        "{notices:?}"
    );
    assert!(common::moved_aside(&dir).is_empty());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // The app goes on: the next game is appended to the same file, after its lines.
    end_with(&mut h, &id, &last);
    assert_eq!(history_of(&mut h, &id).len(), 1);
    drop(h);
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&before));
    let record = &after[before.len()..];
    assert_eq!(record.iter().filter(|&&b| b == b'\n').count(), 1);
    assert!(serde_json::from_slice::<serde_json::Value>(record).is_ok());
}

#[test]
fn a_history_past_the_bound_stays_in_place_and_its_newest_games_are_read() {
    use std::io::Write as _;
    let (session, last) = nearly_over();
    let dir = temp_dir("history-past-the-bound");
    let id = common::write_entry_save(&dir, &session);
    let name = history_file_name(&id);
    let path = dir.join(&name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Years of games: a hole of zeros past the bound (sparse, so nothing is written), a line
    // cut by the bound, then the newest games.
    let newest: Vec<Record> = (1..=3)
        .map(|seed| {
            let mut s = tilebox_games::registry()
                .get(&id)
                .unwrap()
                .new_session(seed)
                .unwrap();
            for mv in ["L", "D", "R", "U"] {
                s.play_text(mv).unwrap();
            }
            Record::of(
                &id,
                s.as_ref(),
                &tilebox::store::tally::Tally::default(),
                None,
                1000,
                format!("2026-11-0{seed}T12:00:00Z"),
            )
        })
        .collect();
    let hole = tilebox::store::history::MAX_HISTORY_BYTES + 10;
    {
        let mut file = std::fs::File::create(&path).unwrap();
        file.set_len(hole).unwrap();
        use std::io::Seek as _;
        file.seek(std::io::SeekFrom::End(0)).unwrap();
        file.write_all(b"\n").unwrap();
        for r in &newest {
            file.write_all(&r.line().unwrap()).unwrap();
            file.write_all(b"\n").unwrap();
        }
    }
    let before = std::fs::metadata(&path).unwrap().len();

    let mut h = harness(&dir, Some(&id));
    let read = history_of(&mut h, &id);
    assert_eq!(
        read.iter().map(|r| r.seed).collect::<Vec<_>>(),
        newest.iter().map(|r| r.seed).collect::<Vec<_>>()
    );
    let notices = h.state().notices().to_vec();
    assert!(
        notices
            .iter()
            .any(|n| n.contains(&name) && n.contains("its newest 3 games")),
        "{notices:?}"
    );
    assert!(
        !notices.iter().any(|n| n.contains("was moved to")),
        "{notices:?}"
    );
    assert!(common::moved_aside(&dir).is_empty());
    assert_eq!(std::fs::metadata(&path).unwrap().len(), before);
    // The game played now goes on the end of the same file.
    end_with(&mut h, &id, &last);
    assert_eq!(history_of(&mut h, &id).len(), 4);
    drop(h);
    assert!(std::fs::metadata(&path).unwrap().len() > before);
}

#[test]
fn a_finished_game_found_unrecorded_at_start_is_recorded_once_not_at_every_start() {
    // The app was killed after the history's line was queued and before the save that says
    // so: the save holds a finished game not yet recorded. The first start records it and
    // saves that it has; the next start records nothing more.
    let (mut session, last) = nearly_over();
    session.play_text(&last).unwrap();
    assert!(session.status().over);
    let dir = temp_dir("history-unrecorded-at-start");
    let id = common::write_entry_save(&dir, &session);
    let save_path = dir.join(tilebox::store::saves::save_file_name(&id));
    let mut save = common::read_json_file(&save_path);
    save["tally"] = serde_json::json!({"played": true, "recorded": false});
    std::fs::write(&save_path, save.to_string()).unwrap();
    for start in 0..3 {
        let mut h = harness(&dir, None);
        assert_eq!(history_of(&mut h, &id).len(), 1, "start {start}");
        drop(h);
        assert_eq!(lines_on_disk(&dir, &id).len(), 1, "start {start}");
    }
}

/// Today's daily game of Strike 9 is in the history; the app starts while the histories are
/// still being read (a long history of 2048, read first, holds the reading up) and the player
/// starts today's daily game again at once: once Strike 9's history arrives, the game knows its
/// dice to come, and is assisted, as it is when started after the history was read.
#[test]
fn a_daily_game_started_again_while_the_history_is_read_is_assisted_once_it_arrives() {
    let dir = temp_dir("history-daily-again");
    let registry = tilebox_games::registry();
    let id = "strike9";
    let entry = registry.get(id).unwrap();
    // A long history of 2048: one real game copied many times, each copy replayed to be checked.
    let long = tilebox::store::history::sample_record(registry.get("2048").unwrap(), 1).unwrap();
    let mut line = long.line().unwrap();
    line.push(b'\n');
    let copies = line.repeat(20_000);
    std::fs::create_dir_all(dir.join("history")).unwrap();
    std::fs::write(dir.join(history_file_name("2048")), copies).unwrap();
    // Today's daily game of Strike 9, played once to its end.
    let (today, mut played) = loop {
        let today = tilebox::screens::codes::today();
        let session = entry
            .new_session(tilebox_core::daily_seed(id, today))
            .unwrap();
        if tilebox::screens::codes::today() == today {
            break (today, session);
        }
    };
    while let Some(mv) = played.legal_moves().into_iter().next() {
        played.play_text(&mv).unwrap();
    }
    let record = Record::of(
        id,
        &*played,
        &tilebox::store::tally::Tally::default(),
        Some(today),
        1000,
        format!("{today}T08:00:00Z"),
    );
    common::write_history(&dir, id, &[record]);

    let dir2 = dir.to_path_buf();
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .with_max_steps(40)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::new(dir2, Some(id)));
    h.key_press_modifiers(Modifiers::SHIFT, Key::D);
    h.run();
    assert!(
        matches!(h.state().history(id), HistoryView::Loading),
        "the histories were read before the daily game started: the test shows nothing"
    );
    let session = h.state().session(id).unwrap();
    assert_eq!(session.seed(), tilebox_core::daily_seed(id, today));
    assert_eq!(session.move_count(), 0);
    assert!(!h.state().assisted(id));
    // The histories arrive: the game was played before.
    assert!(h.state_mut().wait_for_histories(Duration::from_secs(120)));
    h.run();
    assert!(h.state().assisted(id));
}
