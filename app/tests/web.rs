//! The web side of the app, run on the desktop: the page's app ([`TileboxApp::for_the_web`])
//! keeps its files in a storage of keys (here in memory, as the browser's `localStorage` in a
//! page), writes and searches on the frame's thread (no thread of its own), and holds the tab's
//! lock: a second tab is refused, and a tab whose lock another took saves nothing more.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::TileboxApp;
use tilebox::store::clock::unix_ms as now_ms;
use tilebox::store::keys::{Keys, MemoryKeys};
use tilebox::store::lock::{TAB_LOCK_KEY, TAB_RENEW_MS};

type App = Harness<'static, TileboxApp>;

/// The page's app over `keys` as tab `tab`, opened on `game`, its frames 1/60 s apart.
fn page(keys: &Arc<MemoryKeys>, tab: &str, game: &str) -> App {
    let keys: Arc<dyn Keys> = keys.clone();
    let (tab, game) = (tab.to_string(), game.to_string());
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(600.0, 760.0))
        .with_max_steps(200)
        .with_step_dt(1.0 / 60.0)
        .build_eframe(move |_cc| {
            TileboxApp::for_the_web(tilebox_games::registry(), keys, &tab, now_ms(), Some(&game))
                .unwrap()
        });
    h.run();
    h
}

/// Steps frames until `done` holds; fails after a minute of real time.
fn step_until(h: &mut App, mut done: impl FnMut(&App) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(start.elapsed() < Duration::from_secs(60), "gave up waiting");
        h.step();
    }
}

fn move_count(h: &App) -> usize {
    h.state().session("2048").map_or(0, |s| s.move_count())
}

#[test]
fn on_the_frame_a_hint_comes_autoplay_plays_and_the_game_is_kept_in_the_keys() {
    let keys = Arc::new(MemoryKeys::default());
    let mut h = page(&keys, "tab-a", "2048");
    let registry = tilebox_games::registry();
    let entry = registry.get("2048").unwrap();
    // A hint, searched on the frame: it names a legal move.
    h.key_press_modifiers(Modifiers::SHIFT, Key::H);
    step_until(&mut h, |h| h.query_by_label_contains("Hint: ").is_some());
    let shown = h
        .get_by_label_contains("Hint: ")
        .value()
        .unwrap_or_default();
    let legal = h.state().session("2048").unwrap().legal_moves();
    assert!(
        legal.iter().any(
            |mv| tilebox::views::for_entry(entry).hint_label(mv).as_deref() == Some(shown.as_str())
        ),
        "{shown:?} names no legal move of {legal:?}"
    );
    assert_eq!(move_count(&h), 0);
    // Autoplay at Fast, as many of the AI's moves a frame as fit in its slice.
    h.get_by_label("Autoplay").click();
    h.step();
    h.get_by_label(&tilebox::speed_label("Fast")).click();
    h.step();
    assert!(h.state().autoplay("2048"));
    step_until(&mut h, |h| move_count(h) >= 20);
    assert!(h.state().autoplay("2048"));
    // Written as it was played: nothing waits, and the save is in the keys.
    assert!(!h.state().writes_pending());
    let saved: serde_json::Value =
        serde_json::from_str(&keys.get("tilebox/saves/2048.json").unwrap().unwrap()).unwrap();
    assert_eq!(
        saved["moves"].as_array().map(Vec::len),
        Some(move_count(&h))
    );
}

#[test]
fn a_second_tab_is_refused_with_the_window_for_tabs_until_the_first_is_closed() {
    let keys = Arc::new(MemoryKeys::default());
    let first = page(&keys, "tab-a", "2048");
    let second = TileboxApp::for_the_web(
        tilebox_games::registry(),
        keys.clone(),
        "tab-b",
        now_ms(),
        None,
    );
    let window = match second {
        Err(window) => window,
        Ok(_) => panic!("a second tab was let in"),
    };
    assert!(
        window
            .text()
            .starts_with("Tilebox is open in another tab of this browser."),
        "{}",
        window.text()
    );
    let mut h = Harness::builder()
        .with_size(egui::Vec2::from(tilebox::ui::refusal::WINDOW_SIZE))
        .build_eframe(move |_cc| window);
    h.run();
    h.run();
    h.get_by_label("Tilebox is open in another tab");
    h.get_by_label_contains("This tab saves nothing");
    // A page cannot close its tab: no Quit button.
    assert!(h.query_by_label("Quit").is_none());
    // The first tab is closed: its lock is given back, and the next tab is let in.
    drop(first);
    assert_eq!(keys.get(TAB_LOCK_KEY).unwrap(), None);
    let _third = page(&keys, "tab-b", "2048");
}

#[test]
fn a_tab_whose_lock_another_took_while_it_slept_saves_nothing_more_and_says_so() {
    let keys = Arc::new(MemoryKeys::default());
    let mut h = page(&keys, "tab-a", "2048");
    h.key_press(Key::ArrowLeft);
    h.key_press(Key::ArrowDown);
    h.run();
    let kept = keys.get("tilebox/saves/2048.json").unwrap().unwrap();
    // Another tab took the lock while this one drew no frames.
    std::thread::sleep(Duration::from_millis(TAB_RENEW_MS + 100));
    let stamp = serde_json::json!({"tab": "tab-b", "at": now_ms()}).to_string();
    keys.set(TAB_LOCK_KEY, &stamp).unwrap();
    h.step();
    assert!(
        h.state()
            .notices()
            .iter()
            .any(|n| n == tilebox::app::TAB_LOST),
        "{:?}",
        h.state().notices()
    );
    assert_eq!(h.state().message("2048"), Some(tilebox::app::TAB_LOST));
    // Moves still play, and nothing is written over the other tab's games.
    let before = move_count(&h);
    for key in [
        Key::ArrowRight,
        Key::ArrowUp,
        Key::ArrowLeft,
        Key::ArrowDown,
    ] {
        h.key_press(key);
        h.run();
    }
    assert!(move_count(&h) > before);
    assert_eq!(keys.get("tilebox/saves/2048.json").unwrap().unwrap(), kept);
    assert_eq!(keys.get(TAB_LOCK_KEY).unwrap().unwrap(), stamp);
    // Closing it leaves the other tab's lock alone.
    drop(h);
    assert_eq!(keys.get(TAB_LOCK_KEY).unwrap().unwrap(), stamp);
}

/// A storage that does not take the lock's stamp (full): the tab reads what is kept and plays,
/// saves nothing, and says why.
#[test]
fn a_tab_whose_storage_refuses_the_lock_plays_what_is_kept_saves_nothing_and_says_so() {
    let keys = Arc::new(MemoryKeys::default());
    let mut first = page(&keys, "tab-a", "2048");
    first.key_press(Key::ArrowLeft);
    first.key_press(Key::ArrowDown);
    first.run();
    let kept_moves = move_count(&first);
    assert!(kept_moves > 0);
    drop(first);
    // The same texts in a store with no room for more.
    let texts: Vec<(String, String)> = keys
        .keys()
        .into_iter()
        .map(|k| (k.clone(), keys.get(&k).unwrap().unwrap()))
        .collect();
    let limit = texts.iter().map(|(k, t)| k.len() + t.len()).sum();
    let full_keys = Arc::new(MemoryKeys::with_limit(limit));
    for (k, t) in &texts {
        full_keys.set(k, t).unwrap();
    }
    let mut h = page(&full_keys, "tab-b", "2048");
    assert_eq!(move_count(&h), kept_moves, "what is kept is read");
    assert!(
        h.state()
            .notices()
            .iter()
            .any(|n| n.starts_with("The browser's storage does not take Tilebox's lock")),
        "{:?}",
        h.state().notices()
    );
    let save = full_keys.get("tilebox/saves/2048.json").unwrap();
    h.key_press(Key::ArrowRight);
    h.key_press(Key::ArrowUp);
    h.run();
    assert_eq!(full_keys.get("tilebox/saves/2048.json").unwrap(), save);
    assert_eq!(full_keys.get(TAB_LOCK_KEY).unwrap(), None);
}
