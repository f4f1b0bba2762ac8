//! Helpers shared by the app's tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use egui_kittest::Harness;
use tilebox::TileboxApp;
use tilebox_core::SavedGame;

/// A fresh, empty directory under the system's temporary directory.
pub fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let dir = std::env::temp_dir().join(format!(
        "tilebox-test-{name}-{}-{nanos}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
        .with_max_steps(40)
        .with_step_dt(step_dt)
        .build_eframe(move |_cc| TileboxApp::new(dir, game.as_deref()));
    h.run();
    h
}

/// Writes `saved` as the game in progress of its game in `dir`.
pub fn write_save(dir: &Path, saved: &SavedGame) {
    let path = dir.join(tilebox::saves::save_file_name(&saved.game));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec(saved).unwrap()).unwrap();
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

/// The simple 2048 player of these tests: down, else left, else right, else up.
pub fn by_order(state: &tilebox_sliding::Game2048State) -> Option<tilebox_sliding::Direction> {
    use tilebox_core::Puzzle;
    use tilebox_sliding::Direction::{Down, Left, Right, Up};
    let legal = tilebox_sliding::Game2048::legal_moves(state);
    [Down, Left, Right, Up]
        .into_iter()
        .find(|d| legal.contains(d))
}

/// A game of 2048 on an 8×8 board (where the simple player wins), one move before it makes
/// 2048, and that move.
pub fn nearly_2048() -> (tilebox_core::Session<tilebox_sliding::Game2048>, String) {
    let params = tilebox_sliding::Game2048Params { side: 8 };
    play_until::<tilebox_sliding::Game2048>(params, 1, by_order, |st| st.won).unwrap()
}
