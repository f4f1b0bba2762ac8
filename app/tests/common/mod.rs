//! Helpers shared by the app's tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use tilebox::TileboxApp;
use tilebox_core::SavedGame;

/// A fresh, empty directory under the system's temporary directory, removed with everything
/// in it when the test lets go of it (a test's app and its writer, declared after it, are
/// dropped before it).
pub fn temp_dir(name: &str) -> TestDir {
    TestDir(
        tempfile::Builder::new()
            .prefix(&format!("tilebox-test-{name}-"))
            .tempdir()
            .unwrap(),
    )
}

/// A test's own directory (see [`temp_dir`]); it reads as the [`Path`] it holds.
#[derive(Debug)]
pub struct TestDir(tempfile::TempDir);

impl std::ops::Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl From<&TestDir> for PathBuf {
    fn from(dir: &TestDir) -> PathBuf {
        dir.0.path().to_path_buf()
    }
}

/// The frames `Harness::run` may take to settle. A screen that reads a file on a thread of its
/// own (the statistics screen's trained player) shows a spinner until the thread answers, and
/// on a loaded machine that takes more frames than a settled screen needs.
pub const MAX_STEPS: u64 = 200;

/// The app over `registry` and `dir`, opened on `game` if given, in a test harness.
pub fn harness_over(
    registry: tilebox_core::Registry,
    dir: &Path,
    game: Option<&str>,
) -> Harness<'static, TileboxApp> {
    let dir = dir.to_path_buf();
    let game = game.map(str::to_string);
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .with_max_steps(MAX_STEPS)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::with_registry(registry, dir, game.as_deref()));
    read_histories(&mut h);
    h.run();
    h
}

/// The app of the real catalogue writing through `writer`, opened on `game`, in a test harness.
pub fn harness_with_writer(
    writer: tilebox::store::writer::Writer,
    game: &str,
) -> Harness<'static, TileboxApp> {
    let game = game.to_string();
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .with_max_steps(MAX_STEPS)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| {
            TileboxApp::with_writer(tilebox_games::registry(), writer, Some(&game))
        });
    h.run();
    h
}

/// Waits for the app's histories, read at start-up on a thread of their own, so that a test
/// sees them from its first frame (the window itself never waits: it takes them as they come).
pub fn read_histories(h: &mut Harness<'static, TileboxApp>) {
    assert!(
        h.state_mut()
            .wait_for_histories(std::time::Duration::from_secs(60)),
        "the histories were not read"
    );
}

/// The real app over `dir`, opened on `game` if given, in a test harness.
pub fn harness(dir: &Path, game: Option<&str>) -> Harness<'static, TileboxApp> {
    harness_stepping(dir, game, 0.25)
}

/// The real app over `dir` in a test harness whose frames are `step_dt` seconds apart.
pub fn harness_stepping(
    dir: &Path,
    game: Option<&str>,
    step_dt: f32,
) -> Harness<'static, TileboxApp> {
    let dir = dir.to_path_buf();
    let game = game.map(str::to_string);
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .with_max_steps(MAX_STEPS)
        .with_step_dt(step_dt)
        .build_eframe(move |_cc| TileboxApp::new(dir, game.as_deref()));
    read_histories(&mut h);
    h.run();
    h
}

/// Writes `saved` as the game in progress of its game in `dir`.
pub fn write_save(dir: &Path, saved: &SavedGame) {
    let path = dir.join(tilebox::store::saves::save_file_name(&saved.game));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec(saved).unwrap()).unwrap();
}

/// Writes `records` as the history of entry `id` in `dir`, one line each.
pub fn write_history(dir: &Path, id: &str, records: &[tilebox::store::history::Record]) {
    let path = dir.join(tilebox::store::history::history_file_name(id));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: String = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect();
    std::fs::write(path, text).unwrap();
}

/// The key that plays a sliding move written `L`, `R`, `U` or `D`.
pub fn key_of(mv: &str) -> egui::Key {
    match mv {
        "L" => egui::Key::ArrowLeft,
        "R" => egui::Key::ArrowRight,
        "U" => egui::Key::ArrowUp,
        "D" => egui::Key::ArrowDown,
        other => panic!("not a sliding move: {other}"),
    }
}

/// Files in `dir` whose name starts with `prefix`.
pub fn files_starting_with(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        })
        .collect();
    v.sort();
    v
}

/// A game of `P` from `seed` with `params`, played by `pick`, up to the move after which `done`
/// holds: returns the game one move before, and that move. None if the game ends first.
pub fn play_until<P>(
    params: P::Params,
    seed: u64,
    pick: impl Fn(&P::State) -> Option<P::Move>,
    done: impl Fn(tilebox_core::Status) -> bool,
) -> Option<(tilebox_core::Session<P>, String)>
where
    P: tilebox_core::Puzzle,
{
    let mut s = tilebox_core::Session::<P>::new(params.clone(), seed).unwrap();
    loop {
        let mv = pick(s.state())?;
        s.play(mv.clone()).unwrap();
        if done(s.status()) {
            // The game one move before, without the redo entry an undo would leave.
            let before = s.moves()[..s.moves().len() - 1].to_vec();
            let s = tilebox_core::Session::<P>::replay(params, seed, before).unwrap();
            return Some((s, mv.to_string()));
        }
    }
}

/// The first legal move of `P` in `state`.
pub fn first_legal<P: tilebox_core::Puzzle>(state: &P::State) -> Option<P::Move> {
    P::legal_moves(state).into_iter().next()
}

/// The built-in sliding variant `id`.
pub fn variant(id: &str) -> tilebox_sliding::Variant {
    tilebox_sliding::builtin_variants()
        .into_iter()
        .find(|v| v.id == id)
        .unwrap()
}

/// The simple 2048 player of these tests: down, else left, else right, else up.
pub fn by_order(state: &tilebox_sliding::SlidingState) -> Option<tilebox_sliding::Direction> {
    use tilebox_core::Puzzle;
    use tilebox_sliding::Direction::{Down, Left, Right, Up};
    let legal = tilebox_sliding::Sliding::legal_moves(state);
    [Down, Left, Right, Up]
        .into_iter()
        .find(|d| legal.contains(d))
}

/// A game of 2048 on an 8×8 board (where the simple player wins), one move before it makes
/// 2048, and that move.
pub fn nearly_2048() -> (tilebox_core::Session<tilebox_sliding::Sliding>, String) {
    play_until::<tilebox_sliding::Sliding>(variant("2048-8x8"), 1, by_order, |st| st.won).unwrap()
}

/// The id of the registry's entry of kind `P` whose preset is `params`.
pub fn entry_for<P: tilebox_core::Puzzle>(params: &P::Params) -> String {
    tilebox_games::registry()
        .entries()
        .iter()
        .find(|e| e.params::<P>() == Some(params))
        .unwrap_or_else(|| panic!("no entry plays {params:?}"))
        .id()
        .to_string()
}

/// Writes the game of `session` as the game in progress of the registry's entry with its
/// parameters (a typed session saves under its kind's id); returns that entry's id.
pub fn write_entry_save<P: tilebox_core::Puzzle>(
    dir: &Path,
    session: &tilebox_core::Session<P>,
) -> String {
    let id = entry_for::<P>(session.params());
    let mut saved = session.save();
    saved.game.clone_from(&id);
    write_save(dir, &saved);
    id
}

/// What a screen reader says of `node`: the value of a label, the label of anything else.
pub fn spoken(node: &egui_kittest::Node<'_>) -> Option<String> {
    use egui_kittest::kittest::NodeT;
    let ak = node.accesskit_node();
    if ak.role() == egui::accesskit::Role::Label {
        ak.value()
    } else {
        ak.label()
    }
}

/// Everything the app says, with where it is on the screen.
pub fn spoken_all(h: &Harness<'_, TileboxApp>) -> Vec<(String, egui::Rect)> {
    use egui_kittest::kittest::{By, Queryable};
    h.query_all(By::new())
        .filter_map(|n| spoken(&n).map(|s| (s, n.rect())))
        .collect()
}

/// The lines of text on the launcher card labelled `card`.
pub fn card_lines(h: &Harness<'_, TileboxApp>, card: &str) -> Vec<String> {
    use egui_kittest::kittest::Queryable;
    let rect = h.get_by_label(card).rect();
    spoken_all(h)
        .into_iter()
        .filter(|(text, r)| text != card && rect.contains_rect(*r))
        // A figure's name and number are joined by a no-break space, said as a space.
        .map(|(text, _)| text.replace('\u{a0}', " "))
        .collect()
}

/// How many launcher cards are shown ("Play …" buttons, "Play a code" aside).
pub fn card_count(h: &Harness<'_, TileboxApp>) -> usize {
    use egui_kittest::kittest::{By, Queryable};
    h.query_all(By::new().role(egui::accesskit::Role::Button))
        .filter(|n| {
            spoken(n).is_some_and(|s| {
                s.starts_with("Play ") && s != tilebox::screens::codes::PLAY_CODE_LABEL
            })
        })
        .count()
}

/// Whether `text` is a sliding cell's label: "row R, column C: V", V a number or a tile's
/// label (`-1`, `1+i`, `3r`).
pub fn is_cell_label(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("row ") else {
        return false;
    };
    let Some((row, rest)) = rest.split_once(", column ") else {
        return false;
    };
    let Some((col, value)) = rest.split_once(": ") else {
        return false;
    };
    row.parse::<usize>().is_ok()
        && col.parse::<usize>().is_ok()
        && !value.is_empty()
        && !value.contains(char::is_whitespace)
}

/// How many sliding cells speak.
pub fn cell_count(h: &Harness<'_, TileboxApp>) -> usize {
    spoken_all(h)
        .iter()
        .filter(|(text, _)| is_cell_label(text))
        .count()
}

/// The label a sliding cell must have: rows and columns from 1, "empty" for 0.
pub fn expected_cell_label(row: usize, col: usize, value: u64) -> String {
    let what = if value == 0 {
        "empty".to_string()
    } else {
        value.to_string()
    };
    format!("row {}, column {}: {what}", row + 1, col + 1)
}

/// Checks that every cell of game `id`'s board (its `state_json()["board"]`, or the labels its
/// tiles show, `["labels"]`) speaks its row, column and value, and that no other cell speaks.
pub fn assert_cells_speak(h: &Harness<'_, TileboxApp>, id: &str) {
    use egui_kittest::kittest::Queryable;
    let state = h.state().session(id).unwrap().state_json();
    let labels = state["labels"].as_array().cloned();
    let board = state["board"].clone();
    let rows = board.as_array().expect("a board");
    for (r, row) in rows.iter().enumerate() {
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), rows.len(), "{id}: a square board");
        for (c, value) in row.iter().enumerate() {
            let expected = match &labels {
                Some(labels) => match labels[r][c].as_str().unwrap() {
                    "." => expected_cell_label(r, c, 0),
                    label => format!("row {}, column {}: {label}", r + 1, c + 1),
                },
                None => expected_cell_label(r, c, value.as_u64().unwrap()),
            };
            h.get_by_label(&expected);
        }
    }
    assert_eq!(cell_count(h), rows.len() * rows.len(), "{id}");
}

/// The lines of the launcher card of entry `id` of `registry`, read from the launcher (where
/// `h` must be): the games' list when the entry is a game of its own, else its group's list
/// (opened, then left with Back).
pub fn entry_card_lines(
    h: &mut Harness<'_, TileboxApp>,
    registry: &tilebox_core::Registry,
    id: &str,
) -> Vec<String> {
    use egui_kittest::kittest::Queryable;
    let index = registry.ids().iter().position(|&i| i == id).unwrap();
    let groups = registry.groups();
    let (title, members) = groups
        .iter()
        .find(|(_, members)| members.contains(&index))
        .unwrap();
    let group_card = format!("Play {title}");
    if members.len() == 1 {
        return card_lines(h, &group_card);
    }
    // By its accessible action: the card may be below the fold.
    h.get_by_label(&group_card).click_accesskit();
    h.run();
    let lines = card_lines(h, &format!("Play {}", registry.entries()[index].title()));
    h.get_by_label("Back").click();
    h.run();
    lines
}

/// Every file under `dir` whose name has `.bad-` in it (a file moved aside).
pub fn moved_aside(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(moved_aside(&path));
        } else if path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.contains(".bad-"))
        {
            found.push(path);
        }
    }
    found
}

/// Waits until every app of the test has written what it was given (writes go through a
/// writer thread; this takes milliseconds).
pub fn settle() {
    let left = tilebox::store::writer::flush_all(std::time::Duration::from_secs(60));
    assert!(left.is_empty(), "not written: {left:?}");
}

/// A JSON file, read once the apps' writes are done.
pub fn read_json_file(path: &Path) -> serde_json::Value {
    settle();
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The label under the board that names `mv` as the hint, as the view of `entry`'s kind says it.
pub fn hint_label(entry: &tilebox_core::Entry, mv: &str) -> String {
    tilebox::views::for_entry(entry)
        .hint_label(mv)
        .unwrap_or_else(|| panic!("{}: {mv:?} is not a move", entry.id()))
}

/// Plays `mv` in game `entry` as a player would, by the inputs the view of its kind names: its
/// keys, its tiles, or its button.
pub fn play_as_player(h: &mut Harness<'_, TileboxApp>, entry: &tilebox_core::Entry, mv: &str) {
    use egui_kittest::kittest::Queryable;
    use tilebox::views::PlayInput;
    let inputs = tilebox::views::for_entry(entry).inputs_for(mv);
    assert!(!inputs.is_empty(), "{}: {mv:?} is not a move", entry.id());
    for input in inputs {
        match input {
            PlayInput::Key(key) => h.key_press(key),
            PlayInput::Click(label) => h.get_by_label(&label).click(),
        }
        h.run();
    }
}

/// The toy kind of the tests (`tilebox_tests::toy`): the pebbles in each cell of game `id`.
pub fn pebbles(h: &Harness<'_, TileboxApp>, id: &str) -> Vec<u64> {
    h.state().session(id).unwrap().state_json()["pebbles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// Whether the last frame asked the window to close.
pub fn asked_to_close(h: &Harness<'_, TileboxApp>) -> bool {
    h.output().viewport_output[&egui::ViewportId::ROOT]
        .commands
        .contains(&egui::ViewportCommand::Close)
}

/// The player (or eframe, after the app's own Close) closes the window: one frame with the
/// close request.
pub fn close_window(h: &mut Harness<'_, TileboxApp>) {
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
}

/// One frame as the window runs it: the app's `raw_input_hook` cuts the raw input before egui
/// reads it, then the frame.
pub fn step_as_the_window(h: &mut Harness<'_, TileboxApp>) {
    let mut raw = std::mem::take(h.input_mut());
    h.state_mut().cut_raw_input(&mut raw);
    *h.input_mut() = raw;
    h.step();
}
