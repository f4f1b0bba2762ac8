//! "Train a stronger player" on a game's statistics screen: started, followed, stopped and
//! resumed after a restart, by its buttons; and the hints of a game with a trained player say
//! so. The runs train the small network, a few dozen games.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tilebox::TileboxApp;
use tilebox::screens::stats::training::{
    PROGRESS_LABEL, RESUME_LABEL, STOP_LABEL, TRAIN_LABEL, UNTRAINED_TEXT, learning_text,
    trained_text,
};
use tilebox::views::sliding::TRAINED_NOTE;
use tilebox::work::trainer::{MOVES_A_RUN, NetworkSize, Standing};
use tilebox_ai::ntuple::file::RunState;

type App = Harness<'static, TileboxApp>;

/// Steps the app until `done`, for at most 60 s.
fn step_until(h: &mut App, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what}: timed out"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
}

/// The games done of 2048's run while it trains.
fn training_done(h: &mut App) -> Option<u64> {
    match h.state_mut().training("2048") {
        Some(Standing::Training {
            figures: Some(f), ..
        }) => Some(f.games),
        _ => None,
    }
}

/// Where 2048's run stands when it is not training.
fn trained(h: &mut App) -> Option<RunState> {
    match h.state_mut().training("2048") {
        Some(Standing::Trained(state)) => Some(state),
        _ => None,
    }
}

/// The app over `dir` on 2048's statistics, training the small network.
fn stats_of_2048(dir: &std::path::Path) -> App {
    let mut h = common::harness(dir, Some("2048"));
    h.state_mut().set_training_network(NetworkSize::Small);
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.step();
    step_until(&mut h, "the player's file read", |h| {
        !matches!(h.state_mut().training("2048"), Some(Standing::Reading))
    });
    h.run();
    h
}

#[test]
fn a_player_is_trained_from_the_statistics_stopped_and_resumed_after_a_restart() {
    let dir = common::temp_dir("training");
    let mut h = stats_of_2048(&dir);
    h.get_by_label(UNTRAINED_TEXT);
    assert!(h.query_by_label(PROGRESS_LABEL).is_none());
    h.get_by_label(TRAIN_LABEL).click();
    h.run();
    step_until(&mut h, "20 games trained", |h| {
        training_done(h).is_some_and(|d| d >= 20)
    });
    h.run();
    // The bar, the CLI's figures, and the stop.
    h.get_by_label(PROGRESS_LABEL);
    let line = common::spoken(&h.get_by_label_contains("moves/s")).unwrap_or_default();
    assert!(
        line.starts_with("moves ") && line.contains("/1750000000") && line.contains("win tile"),
        "{line}"
    );
    assert!(h.query_by_label(TRAIN_LABEL).is_none());
    h.get_by_label(STOP_LABEL).click();
    h.run();
    step_until(&mut h, "the run saved", |h| trained(h).is_some());
    h.run();
    let state = trained(&mut h).unwrap();
    let games = state.games;
    assert!(games >= 20, "{games}");
    h.get_by_label(&learning_text(state.moves, MOVES_A_RUN));
    h.get_by_label(RESUME_LABEL);
    assert!(dir.join("players").join("2048.weights").is_file());
    drop(h);

    // After a restart, the run stands where it was saved, and resumes from there.
    let mut h = stats_of_2048(&dir);
    assert_eq!(trained(&mut h), Some(state));
    h.get_by_label(&learning_text(state.moves, MOVES_A_RUN));
    h.get_by_label(RESUME_LABEL).click();
    h.run();
    step_until(&mut h, "10 more games", |h| {
        training_done(h).is_some_and(|d| d >= games + 10)
    });
    // Escape leaves the screen; the run goes on in the background.
    h.key_press(Key::Escape);
    h.run();
    let before = training_done(&mut h).unwrap();
    step_until(&mut h, "training in the background", |h| {
        training_done(h).is_some_and(|d| d > before)
    });
    // Quitting stops it and saves it.
    drop(h);
    let mut h = stats_of_2048(&dir);
    let after = trained(&mut h).unwrap().games;
    assert!(after > before, "{after} games saved, {before} seen before");
}

#[test]
fn another_game_s_run_is_named_and_this_one_waits() {
    let dir = common::temp_dir("training-other");
    let mut h = stats_of_2048(&dir);
    h.get_by_label(TRAIN_LABEL).click();
    h.run();
    step_until(&mut h, "a game trained", |h| training_done(h).is_some());
    // Threes' statistics, from the launcher's first page (Escape leads there, a step each).
    let title = h
        .state()
        .registry()
        .get("threes")
        .unwrap()
        .title()
        .to_string();
    let label = tilebox::screens::launcher::cards::stats_label(&title);
    // While 2048's run goes on, its spinner repaints every frame: a few frames a key, not a
    // wait for the window to settle (which a loaded machine may not reach in time).
    for _ in 0..3 {
        if h.query_by_label(&label).is_some() {
            break;
        }
        h.key_press(Key::Escape);
        h.run_steps(4);
    }
    h.get_by_label(&label).click();
    h.run_steps(4);
    step_until(&mut h, "Threes' file read", |h| {
        !matches!(h.state_mut().training("threes"), Some(Standing::Reading))
    });
    h.run();
    h.get_by_label_contains("The player of 2048 is training now");
    assert!(h.get_by_label(TRAIN_LABEL).accesskit_node().is_disabled());
}

#[test]
fn a_game_with_a_trained_player_says_so_in_its_hints() {
    use tilebox_ai::ntuple::Layout;
    use tilebox_ai::ntuple::run::{Run, Target};
    use tilebox_ai::ntuple::train::Flow;
    let dir = common::temp_dir("training-hint");
    let variant = common::variant("2048");
    let path = dir.join("players").join("2048.weights");
    let mut run = Run::open(&path, &variant, 1, &Layout::small(false)).unwrap();
    run.train(1, Target::Games(20), |_| Flow::Continue, |_| {})
        .unwrap();
    let state = run.state();
    drop(run);

    // By default a network plays once it has learned from 1,750 million moves: not this one.
    let mut h = common::harness(&dir, Some("2048"));
    assert!(!hint(&mut h).ends_with(TRAINED_NOTE));
    open_stats(&mut h);
    h.get_by_label(&learning_text(state.moves, MOVES_A_RUN));
    drop(h);

    // One move short of what is asked: still the built-in player.
    let mut h = common::harness(&dir, Some("2048"));
    h.state_mut().set_trained_from(state.moves + 1);
    assert!(!hint(&mut h).ends_with(TRAINED_NOTE));
    drop(h);

    let mut h = common::harness(&dir, Some("2048"));
    h.state_mut().set_trained_from(state.moves);
    let said = hint(&mut h);
    assert!(said.ends_with(TRAINED_NOTE), "{said}");
    open_stats(&mut h);
    h.get_by_label(&trained_text(&state));
}

/// Asks for a hint with Shift+H in the game shown, and returns what it says.
fn hint(h: &mut App) -> String {
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    // Step by step: the bar shows a spinner while the AI thinks (it may read the file first).
    h.step();
    step_until(h, "the hint", |h| {
        h.query_by_label_contains("Hint: ").is_some()
    });
    common::spoken(&h.get_by_label_contains("Hint: ")).unwrap_or_default()
}

/// Opens the statistics of the game shown, and waits for its player's file to be read.
fn open_stats(h: &mut App) {
    h.key_press_modifiers(Modifiers::SHIFT, Key::S);
    h.step();
    step_until(h, "the player's file read", |h| {
        !matches!(h.state_mut().training("2048"), Some(Standing::Reading))
    });
    h.run();
}

#[test]
fn once_a_run_in_the_app_is_saved_the_hints_use_it() {
    let dir = common::temp_dir("training-then-hint");
    let mut h = common::harness(&dir, Some("2048"));
    h.state_mut().set_training_network(NetworkSize::Small);
    h.state_mut().set_trained_from(1);
    // The AI has read the folder: nothing there.
    assert!(!hint(&mut h).ends_with(TRAINED_NOTE));
    open_stats(&mut h);
    h.get_by_label(TRAIN_LABEL).click();
    h.run();
    step_until(&mut h, "5 games trained", |h| {
        training_done(h).is_some_and(|d| d >= 5)
    });
    h.get_by_label(STOP_LABEL).click();
    h.run();
    step_until(&mut h, "the run saved", |h| trained(h).is_some());
    h.key_press(Key::Escape);
    h.run();
    // A move, so that the next hint is a new question.
    let legal = h.state().session("2048").unwrap().legal_moves();
    h.key_press(common::key_of(&legal[0]));
    h.run();
    let said = hint(&mut h);
    assert!(said.ends_with(TRAINED_NOTE), "{said}");
}

#[test]
fn a_second_run_of_the_same_file_is_refused_while_one_trains() {
    use tilebox_ai::ntuple::Layout;
    use tilebox_ai::ntuple::run::Run;
    let dir = common::temp_dir("training-busy");
    let variant = common::variant("2048");
    // The CLI's run holds the file.
    let path = dir.join("players").join("2048.weights");
    let _cli = Run::open(&path, &variant, 0, &Layout::small(false)).unwrap();
    let mut h = stats_of_2048(&dir);
    h.get_by_label(TRAIN_LABEL).click();
    h.run();
    step_until(&mut h, "the refusal", |h| {
        matches!(h.state_mut().training("2048"), Some(Standing::Failed(_)))
    });
    h.run();
    h.get_by_label_contains("another run is training it");
    assert_eq!(h.state().screen(), tilebox::Screen::Stats(index_2048(&h)));
}

fn index_2048(h: &App) -> usize {
    h.state()
        .registry()
        .entries()
        .iter()
        .position(|e| e.id() == "2048")
        .unwrap()
}

#[test]
fn closing_the_window_waits_for_the_run_to_be_saved() {
    let dir = common::temp_dir("training-quit");
    let mut h = stats_of_2048(&dir);
    h.get_by_label(TRAIN_LABEL).click();
    h.run();
    step_until(&mut h, "10 games trained", |h| {
        training_done(h).is_some_and(|d| d >= 10)
    });
    let seen = training_done(&mut h).unwrap();
    common::close_window(&mut h);
    let closing = |h: &App| common::asked_to_close(h);
    // The window stays while the run saves (the small network's save takes milliseconds, so
    // the Saving window may have no frame to show in), then closes.
    assert!(!closing(&h));
    step_until(&mut h, "the window closed", |h| closing(h));
    // The run was saved before it went.
    assert!(trained(&mut h).is_some_and(|s| s.games >= seen));
    let (saved, _) = tilebox_ai::ntuple::file::read_run(
        &dir.join("players").join("2048.weights"),
        &common::variant("2048"),
    )
    .unwrap();
    assert!(saved.games >= seen, "{} saved, {seen} seen", saved.games);
}
