//! The game bar at every window width, 360 px to 1920 px: Back at the top left, and every
//! control and box of the bar whole, inside the window, and clear of every other.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use egui::{Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use tilebox::TileboxApp;

/// The window sizes tried, in pixels.
const WINDOWS: [(f32, f32); 4] = [
    (360.0, 640.0),
    (480.0, 720.0),
    (900.0, 800.0),
    (1920.0, 1080.0),
];

/// The app opened on `game` in a window of `window` pixels, with the zoom it settles on. egui's
/// screen is in zoomed points, as eframe gives it: the window's pixels over the zoom.
fn harness_at(
    dir: &std::path::Path,
    game: &str,
    window: (f32, f32),
) -> (Harness<'static, TileboxApp>, f32) {
    let dir = dir.to_path_buf();
    let game = game.to_string();
    let mut h = Harness::builder()
        .with_size(Vec2::new(window.0, window.1))
        .with_max_steps(40)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::new(dir, Some(&game)));
    let zoom = settle(&mut h, window);
    (h, zoom)
}

/// Runs `h` as eframe would a window of `window` pixels: after each change of zoom, the screen
/// is the window over the new zoom. Returns the zoom settled on.
fn settle(h: &mut Harness<'static, TileboxApp>, window: (f32, f32)) -> f32 {
    let pixels = Vec2::new(window.0, window.1);
    for _ in 0..5 {
        h.run();
        let zoom = h.ctx.zoom_factor();
        h.set_size(pixels / zoom);
        h.run();
        if (h.ctx.zoom_factor() - zoom).abs() < 1e-4 {
            return zoom;
        }
    }
    panic!("the zoom does not settle at {window:?}");
}

/// The bar's controls and boxes, by what a screen reader says of them, with their places.
fn bar_items(h: &Harness<'_, TileboxApp>, title: &str) -> Vec<(String, Rect)> {
    let buttons = [
        "Back",
        "New game",
        "Undo",
        "Redo",
        "How to play",
        "Theme: system",
        "Hint",
        "Autoplay",
        tilebox::STATS_LABEL,
        tilebox::REPLAY_LABEL,
        tilebox::screens::codes::CODE_LABEL,
        tilebox::screens::codes::DAILY_LABEL,
    ];
    h.query_all(By::new())
        .filter_map(|n| common::spoken(&n).map(|s| (s, n.rect())))
        .filter(|(s, _)| {
            buttons.contains(&s.as_str())
                || s == title
                || s.starts_with("Score: ")
                || s.starts_with("Best: ")
                || s.starts_with("Assisted")
                || s.starts_with("Daily ")
                || s.starts_with(&tilebox::speed_label(""))
        })
        .collect()
}

fn check_bar(h: &Harness<'_, TileboxApp>, game: &str, title: &str, window: (f32, f32), zoom: f32) {
    let screen = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(window.0, window.1) / zoom);
    let items = bar_items(h, title);
    let names: Vec<&str> = items.iter().map(|(s, _)| s.as_str()).collect();
    for wanted in [
        "Back",
        "New game",
        "Undo",
        "Redo",
        "How to play",
        "Theme: system",
        tilebox::STATS_LABEL,
        tilebox::REPLAY_LABEL,
        tilebox::screens::codes::CODE_LABEL,
        tilebox::screens::codes::DAILY_LABEL,
        title,
    ] {
        assert!(
            names.contains(&wanted),
            "{game} at {window:?}: no {wanted:?} in {names:?}"
        );
    }
    assert!(names.iter().any(|n| n.starts_with("Score: ")), "{names:?}");
    assert!(names.iter().any(|n| n.starts_with("Best: ")), "{names:?}");
    for (name, rect) in &items {
        assert!(
            screen.expand(0.5).contains_rect(*rect),
            "{game} at {window:?}: {name:?} at {rect:?} is not inside the window {screen:?}"
        );
        assert!(
            rect.width() >= 8.0,
            "{game} at {window:?}: {name:?} is cut to {rect:?}"
        );
    }
    for (i, (a, ra)) in items.iter().enumerate() {
        for (b, rb) in &items[i + 1..] {
            let overlap = ra.intersect(*rb);
            assert!(
                !overlap.is_positive() || overlap.area() < 1.0,
                "{game} at {window:?}: {a:?} {ra:?} overlaps {b:?} {rb:?}"
            );
        }
    }
    // Back is the first thing at the top left.
    let back = items.iter().find(|(s, _)| s == "Back").unwrap().1;
    for (name, rect) in &items {
        if name != "Back" {
            assert!(
                rect.top() >= back.top() - 1.0
                    && (rect.left() >= back.right() || rect.top() >= back.bottom()),
                "{game} at {window:?}: {name:?} at {rect:?} comes before Back at {back:?}"
            );
        }
    }
    assert!(
        back.left() < 16.0 && back.top() < 16.0,
        "{game} at {window:?}: Back at {back:?}"
    );
}

#[test]
fn the_bar_fits_every_width() {
    let registry = tilebox_games::registry();
    // The games with the most in their bar, and the longest title a game has.
    let mut games = vec!["2048", "threes", "strike9", "full-house"];
    let longest = registry
        .combinations()
        .into_iter()
        .max_by_key(|e| e.title().len())
        .unwrap();
    let longest_id = longest.id().to_string();
    games.push(&longest_id);
    for game in games {
        let title = registry
            .entries()
            .iter()
            .cloned()
            .chain(registry.combinations())
            .find(|e| e.id() == game)
            .unwrap()
            .title()
            .to_string();
        for window in WINDOWS {
            let dir = common::temp_dir("layout");
            let (mut h, zoom) = harness_at(&dir, game, window);
            check_bar(&h, game, &title, window, zoom);
            // With How to play open, the bar is the same.
            h.key_press(egui::Key::F1);
            h.run();
            check_bar(&h, game, &title, window, zoom);
        }
    }
}

#[test]
fn back_at_360_px_goes_back() {
    let dir = common::temp_dir("layout-back");
    let (mut h, _) = harness_at(&dir, "2048", (360.0, 640.0));
    h.get_by_label("Back").click();
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_ne!(h.state().current_game(), Some("2048"));
}

#[test]
fn the_zoom_follows_the_window_within_limits() {
    use tilebox::ui::theme::{MAX_AUTO_ZOOM, auto_zoom};
    assert_eq!(auto_zoom(Vec2::new(360.0, 640.0)), 1.0);
    assert_eq!(auto_zoom(Vec2::new(900.0, 800.0)), 1.0);
    let large = auto_zoom(Vec2::new(1600.0, 1200.0));
    assert!(large > 1.2 && large < 1.5, "{large}");
    assert_eq!(auto_zoom(Vec2::new(7680.0, 4320.0)), MAX_AUTO_ZOOM);
    // In the app: a 1920 × 1080 window zooms the whole app.
    let dir = common::temp_dir("layout-zoom");
    let (h, zoom) = harness_at(&dir, "2048", (1920.0, 1080.0));
    assert!(
        (zoom - auto_zoom(Vec2::new(1920.0, 1080.0))).abs() < 0.01,
        "{zoom}"
    );
    assert!(zoom > 1.1, "{zoom}");
    assert!(
        (h.ctx.zoom_factor() - zoom).abs() < 0.01,
        "{} {zoom}",
        h.ctx.zoom_factor()
    );
}

/// The player's zoom is `want`.
fn assert_zoom(h: &Harness<'_, TileboxApp>, want: f32) {
    let zoom = h.state().zoom();
    assert!((zoom - want).abs() < 1e-4, "{zoom}, not {want}");
}

#[test]
fn ctrl_plus_minus_and_zero_zoom_and_the_zoom_is_remembered() {
    let dir = common::temp_dir("layout-keys");
    let (mut h, _) = harness_at(&dir, "2048", (900.0, 800.0));
    let ctrl = egui::Modifiers::COMMAND;
    h.key_press_modifiers(ctrl, egui::Key::Equals);
    h.run();
    h.key_press_modifiers(ctrl, egui::Key::Plus);
    h.run();
    assert_zoom(&h, 1.2);
    assert!(
        (h.ctx.zoom_factor() - 1.2).abs() < 0.01,
        "{}",
        h.ctx.zoom_factor()
    );
    // The zoom keys are no moves.
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);
    h.key_press_modifiers(ctrl, egui::Key::Minus);
    h.run();
    assert_zoom(&h, 1.1);
    drop(h);
    let (mut h, _) = harness_at(&dir, "2048", (900.0, 800.0));
    assert!(
        (h.state().zoom() - 1.1).abs() < 1e-4,
        "remembered: {}",
        h.state().zoom()
    );
    h.key_press_modifiers(ctrl, egui::Key::Num0);
    h.run();
    assert!(
        (h.state().zoom() - 1.0).abs() < 1e-4,
        "{}",
        h.state().zoom()
    );
}

#[test]
fn the_launcher_is_centred_with_a_comfortable_width() {
    let dir = common::temp_dir("layout-launcher");
    let pixels = Vec2::new(1920.0, 1080.0);
    let dir2 = dir.to_path_buf();
    let mut h = Harness::builder()
        .with_size(pixels)
        .with_max_steps(40)
        .build_eframe(move |_cc| TileboxApp::new(dir2, None));
    let zoom = settle(&mut h, (pixels.x, pixels.y));
    let screen_width = pixels.x / zoom;
    let card = h.get_by_label("Play Threes").rect();
    assert!(card.width() <= 760.0, "{card:?}");
    let centre = card.center().x;
    assert!(
        (centre - screen_width / 2.0).abs() < 24.0,
        "{card:?} in {screen_width}"
    );
    // The theme button is beside the cards, not at the far edge.
    let theme = h.get_by_label("Theme: system").rect();
    assert!(theme.right() <= card.right() + 1.0, "{theme:?} {card:?}");
    // At 360 px the cards fill the window and stay inside it.
    let dir2 = dir.to_path_buf();
    let mut h = Harness::builder()
        .with_size(Vec2::new(360.0, 640.0))
        .with_max_steps(40)
        .build_eframe(move |_cc| TileboxApp::new(dir2, None));
    h.run();
    let card = h.get_by_label("Play Threes").rect();
    assert!(card.left() >= 0.0 && card.right() <= 360.0, "{card:?}");
}

#[test]
fn strike9_boxes_fit_a_360_px_window() {
    let registry = tilebox_games::registry();
    // The three named boxes, and a box of 10 tiles from the combinations of options.
    let mut boxes: Vec<String> = ["strike9", "shut-the-box", "full-house"]
        .map(str::to_string)
        .to_vec();
    let ten = registry
        .combinations()
        .into_iter()
        .find(|e| e.params_json().get("tiles") == Some(&serde_json::json!(10)))
        .unwrap();
    boxes.push(ten.id().to_string());
    assert_eq!(boxes.len(), 4, "{boxes:?}");
    for game in &boxes {
        let dir = common::temp_dir("layout-strike9");
        let (h, zoom) = harness_at(&dir, game, (360.0, 640.0));
        let screen = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(360.0, 640.0) / zoom);
        let tiles: Vec<(String, Rect)> = common::spoken_all(&h)
            .into_iter()
            .filter(|(s, _)| s.starts_with("tile "))
            .collect();
        assert!(tiles.len() >= 9, "{game}: {tiles:?}");
        for (name, rect) in tiles {
            assert!(
                screen.contains_rect(rect),
                "{game}: {name:?} at {rect:?} is outside the window {screen:?}"
            );
        }
    }
}

/// Four moves of 2048, then an undo: the game is assisted.
fn make_assisted(h: &mut Harness<'static, TileboxApp>) {
    for k in ["L", "D", "R", "U"] {
        h.key_press(common::key_of(k));
        h.run();
    }
    h.key_press(egui::Key::U);
    h.run();
    assert!(h.state().assisted("2048"));
}

#[test]
fn the_assisted_mark_fits_the_bar_at_every_width() {
    for window in WINDOWS {
        let dir = common::temp_dir("layout-assisted");
        let (mut h, zoom) = harness_at(&dir, "2048", window);
        // A move, then undo: the game is assisted, and the mark joins the bar.
        make_assisted(&mut h);
        let items = bar_items(&h, "2048");
        assert!(
            items.iter().any(|(s, _)| s.starts_with("Assisted")),
            "at {window:?}: {items:?}"
        );
        check_bar(&h, "2048", "2048", window, zoom);
    }
}

/// Checks that the controls and figures `wanted` are on the screen, whole, inside the window
/// and clear of each other.
fn check_screen(
    h: &Harness<'_, TileboxApp>,
    what: &str,
    wanted: &[String],
    window: (f32, f32),
    zoom: f32,
) {
    let screen = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(window.0, window.1) / zoom);
    let items: Vec<(String, Rect)> = common::spoken_all(h)
        .into_iter()
        .filter(|(s, _)| wanted.contains(s))
        .collect();
    for name in wanted {
        assert!(
            items.iter().any(|(s, _)| s == name),
            "{what} at {window:?}: no {name:?} in {items:?}"
        );
    }
    for (name, rect) in &items {
        assert!(
            screen.expand(0.5).contains_rect(*rect) && rect.width() >= 8.0,
            "{what} at {window:?}: {name:?} at {rect:?} is not whole inside {screen:?}"
        );
    }
    for (i, (a, ra)) in items.iter().enumerate() {
        for (b, rb) in &items[i + 1..] {
            let overlap = ra.intersect(*rb);
            assert!(
                !overlap.is_positive() || overlap.area() < 1.0,
                "{what} at {window:?}: {a:?} {ra:?} overlaps {b:?} {rb:?}"
            );
        }
    }
}

#[test]
fn the_replay_screen_fits_every_width() {
    use tilebox::screens::replay::view as replay;
    for window in WINDOWS {
        let dir = common::temp_dir("layout-replay");
        let (mut h, zoom) = harness_at(&dir, "2048", window);
        for k in ["L", "D", "R", "U"] {
            h.key_press(common::key_of(k));
            h.run();
        }
        let moves = h.state().session("2048").unwrap().move_count();
        h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::R);
        h.run();
        // One move in, so that every control is enabled.
        h.key_press(egui::Key::ArrowRight);
        h.run();
        let wanted: Vec<String> = [
            "Back",
            replay::START_LABEL,
            replay::BACK_STEP_LABEL,
            replay::PLAY_LABEL,
            replay::FORWARD_LABEL,
            replay::END_LABEL,
            replay::SLOWER_LABEL,
            replay::FASTER_LABEL,
        ]
        .map(str::to_string)
        .into_iter()
        .chain([
            replay::counter_text(1, moves),
            replay::speed_text(replay::SPEEDS[2]),
        ])
        .collect();
        check_screen(&h, "replay", &wanted, window, zoom);
    }
}

#[test]
fn the_statistics_buttons_of_the_cards_fit_a_360_px_window() {
    let dir = common::temp_dir("layout-card-stats");
    let (h, zoom) = harness_at(&dir, "unknown-game", (360.0, 640.0));
    let wanted = [
        "Play Threes".to_string(),
        tilebox::screens::launcher::cards::stats_label("Threes"),
    ];
    let screen = Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(360.0, 640.0) / zoom);
    let card = h.get_by_label(&wanted[0]).rect();
    let button = h.get_by_label(&wanted[1]).rect();
    assert!(card.contains_rect(button), "{button:?} in {card:?}");
    assert!(screen.contains_rect(card), "{card:?} in {screen:?}");
}

#[test]
fn the_daily_mark_fits_the_bar_at_every_width() {
    for window in WINDOWS {
        let dir = common::temp_dir("layout-daily");
        let (mut h, zoom) = harness_at(&dir, "strike9", window);
        h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::D);
        h.run();
        let items = bar_items(&h, "Strike 9");
        assert!(
            items.iter().any(|(s, _)| s.starts_with("Daily ")),
            "at {window:?}: {items:?}"
        );
        check_bar(&h, "strike9", "Strike 9", window, zoom);
    }
}

#[test]
fn the_code_dialogs_and_play_a_code_fit_every_width() {
    use tilebox::screens::codes;
    for window in WINDOWS {
        // The launcher's button, clear of the heading and the theme button.
        let dir = common::temp_dir("layout-codes");
        let (mut h, zoom) = harness_at(&dir, "unknown-game", window);
        let wanted = [
            "Tilebox".to_string(),
            codes::PLAY_CODE_LABEL.to_string(),
            "Theme: system".to_string(),
        ];
        check_screen(&h, "launcher", &wanted, window, zoom);
        // Its dialog.
        h.key_press(egui::Key::C);
        h.run();
        let wanted = [
            codes::CODE_FIELD_LABEL.to_string(),
            codes::PLAY_LABEL.to_string(),
            codes::CANCEL_LABEL.to_string(),
        ];
        check_screen(&h, "play a code", &wanted, window, zoom);
        // A game's code, over its bar.
        let (mut h, zoom) = harness_at(&dir, "full-house", window);
        h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::C);
        h.run();
        let code = tilebox_core::GameCode::of(h.state().session("full-house").unwrap());
        let wanted = [
            codes::CODE_HEADING.to_string(),
            code.to_string(),
            codes::COPY_LABEL.to_string(),
            codes::CLOSE_LABEL.to_string(),
        ];
        check_screen(&h, "code", &wanted, window, zoom);
    }
}

#[test]
fn the_bar_keeps_its_places_while_the_score_grows_from_0_past_100000() {
    use tilebox_core::Session;
    use tilebox_sliding::Sliding;
    // 2048 whose new tiles are 65536s: the first merge scores 131072.
    let mut big = common::variant("2048");
    big.spawn.weights = Some([(65536, 1)].into_iter().collect());
    big.win = tilebox_sliding::variant::Win::NONE;
    for window in WINDOWS {
        let dir = common::temp_dir("layout-score");
        let mut saved = Session::<Sliding>::new(big.clone(), 3).unwrap().save();
        saved.game = "2048".to_string();
        common::write_save(&dir, &saved);
        let (mut h, _) = harness_at(&dir, "2048", window);
        let places = |h: &Harness<'_, TileboxApp>| -> Vec<(String, Rect)> {
            bar_items(h, "2048")
                .into_iter()
                .map(|(s, r)| {
                    let name = if s.starts_with("Score: ") || s.starts_with("Best: ") {
                        s.split(':').next().unwrap().to_string()
                    } else {
                        s
                    };
                    (name, r)
                })
                .collect()
        };
        let score = |h: &Harness<'_, TileboxApp>| h.state().session("2048").unwrap().score();
        assert_eq!(score(&h), 0);
        let before = places(&h);
        assert!(before.len() >= 9, "at {window:?}: {before:?}");
        for _ in 0..40 {
            if score(&h) >= 100_000 {
                break;
            }
            let legal = h.state().session("2048").unwrap().legal_moves();
            h.key_press(common::key_of(&legal[0]));
            h.run();
        }
        assert!(score(&h) >= 100_000, "at {window:?}: {}", score(&h));
        let after = places(&h);
        assert_eq!(before.len(), after.len(), "at {window:?}");
        for ((a, ra), (b, rb)) in before.iter().zip(&after) {
            assert_eq!(a, b, "at {window:?}");
            // A box's text is as wide as its number; the box, and what follows, stay put.
            let boxed = a == "Score" || a == "Best";
            assert!(
                (ra.min - rb.min).length() < 0.5 && (boxed || (ra.max - rb.max).length() < 0.5),
                "at {window:?}: {a} moved from {ra:?} to {rb:?} as the score grew to {}",
                score(&h)
            );
        }
    }
}

/// The app over `registry` opened on `game` in a window of `window` pixels, with the zoom it
/// settles on.
fn harness_over_at(
    registry: tilebox_core::Registry,
    dir: &std::path::Path,
    game: Option<&str>,
    window: (f32, f32),
) -> (Harness<'static, TileboxApp>, f32) {
    let dir = dir.to_path_buf();
    let game = game.map(str::to_string);
    let mut h = Harness::builder()
        .with_size(Vec2::new(window.0, window.1))
        .with_max_steps(40)
        .with_step_dt(0.25)
        .build_eframe(move |_cc| TileboxApp::with_registry(registry, dir, game.as_deref()));
    common::read_histories(&mut h);
    let zoom = settle(&mut h, window);
    (h, zoom)
}

/// The window's rect in egui's points.
fn screen_of(window: (f32, f32), zoom: f32) -> Rect {
    Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(window.0, window.1) / zoom)
}

/// The places of the text labels (not the buttons) whose text satisfies `wanted`.
fn labels_where(h: &Harness<'_, TileboxApp>, wanted: impl Fn(&str) -> bool) -> Vec<Rect> {
    h.query_all(By::new().role(egui::accesskit::Role::Label))
        .filter(|n| common::spoken(n).is_some_and(|s| wanted(&s)))
        .map(|n| n.rect())
        .collect()
}

/// The lowest edge of the game's bar.
fn bar_bottom(h: &Harness<'_, TileboxApp>, title: &str) -> f32 {
    bar_items(h, title)
        .iter()
        .map(|(_, r)| r.bottom())
        .fold(0.0, f32::max)
}

/// `rect` is wholly in sight: inside the window and under the bar.
fn in_sight(rect: Rect, screen: Rect, top: f32) -> bool {
    screen.expand(0.5).contains_rect(rect) && rect.top() >= top - 0.5
}

/// Turns the mouse wheel over `at` by `delta` points (negative: towards the end).
fn wheel(h: &mut Harness<'static, TileboxApp>, at: egui::Pos2, delta: f32) {
    h.event(egui::Event::PointerMoved(at));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: Vec2::new(0.0, delta),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
}

#[test]
fn how_to_play_is_a_page_of_its_own_at_360x600_whose_first_and_last_lines_can_be_reached() {
    use tilebox::screens::help::{COMMON_CONTROLS, HEADING};
    let registry = tilebox_tests::toy::catalogue_with_toy();
    // A game of each view: sliding, Strike 9, and the plain view of the toy.
    for (game, title) in [("2048", "2048"), ("strike9", "Strike 9"), ("toy", "Toy")] {
        let window = (360.0, 600.0);
        let dir = common::temp_dir("layout-help");
        let (mut h, zoom) = harness_over_at(registry.clone(), &dir, Some(game), window);
        let screen = screen_of(window, zoom);
        // The bar is the same with How to play open (the_bar_fits_every_width).
        let top = bar_bottom(&h, title);
        h.key_press(egui::Key::F1);
        h.run();
        let first = |h: &Harness<'_, TileboxApp>| {
            labels_where(h, |s| s == HEADING)
                .first()
                .copied()
                .unwrap_or_else(|| panic!("{game}: no heading"))
        };
        // The last line: the assistant's keys where the game has an assistant, else the keys
        // every game shares.
        let last = |h: &Harness<'_, TileboxApp>| {
            labels_where(h, |s| s == COMMON_CONTROLS || s.contains(": hint ("))
                .into_iter()
                .max_by(|a, b| a.bottom().total_cmp(&b.bottom()))
                .unwrap_or_else(|| panic!("{game}: no keys"))
        };
        // It opens at its top, in the board's place: the heading in sight, under the bar.
        assert!(in_sight(first(&h), screen, top), "{game}: {:?}", first(&h));
        assert!(
            h.query_by_label(tilebox::views::sliding::BOARD_LABEL)
                .is_none(),
            "{game}: the board is drawn under the page"
        );
        // Its end is out of sight (but in the toy's, whose page is short), and comes into sight
        // by End, by Page Down, by the wheel.
        let long = game != "toy";
        assert_eq!(
            !in_sight(last(&h), screen, top),
            long,
            "{game}: {:?}",
            last(&h)
        );
        h.key_press(egui::Key::End);
        h.run();
        assert!(
            in_sight(last(&h), screen, top),
            "{game} End: {:?}",
            last(&h)
        );
        h.key_press(egui::Key::Home);
        h.run();
        assert!(
            in_sight(first(&h), screen, top),
            "{game} Home: {:?}",
            first(&h)
        );
        assert_eq!(
            !in_sight(last(&h), screen, top),
            long,
            "{game} Home: {:?}",
            last(&h)
        );
        for _ in 0..20 {
            h.key_press(egui::Key::PageDown);
            h.run();
        }
        assert!(
            in_sight(last(&h), screen, top),
            "{game} Page Down: {:?}",
            last(&h)
        );
        for _ in 0..20 {
            h.key_press(egui::Key::ArrowUp);
            h.run();
        }
        assert!(
            in_sight(first(&h), screen, top),
            "{game} Up: {:?}",
            first(&h)
        );
        wheel(&mut h, screen.center(), -5000.0);
        assert!(
            in_sight(last(&h), screen, top),
            "{game} wheel: {:?}",
            last(&h)
        );
        // No key of the page played a move.
        assert_eq!(h.state().session(game).unwrap().move_count(), 0, "{game}");
        // F1 takes the board back.
        h.key_press(egui::Key::F1);
        h.run();
        assert!(labels_where(&h, |s| s == HEADING).is_empty(), "{game}");
        // Shown again, after it was left at its end, it opens at its top.
        h.key_press(egui::Key::F1);
        h.run();
        assert!(
            in_sight(first(&h), screen, top),
            "{game} again: {:?}",
            first(&h)
        );
    }
}

#[test]
fn how_to_play_scrolls_under_the_board_in_a_large_window() {
    use tilebox::screens::help::HEADING;
    let window = (1920.0, 1080.0);
    let dir = common::temp_dir("layout-help-large");
    let (mut h, zoom) = harness_at(&dir, "2048", window);
    let screen = screen_of(window, zoom);
    h.key_press(egui::Key::F1);
    h.run();
    // The board and How to play together, the board above, clear of it.
    let board = h.get_by_label(tilebox::views::sliding::BOARD_LABEL).rect();
    let heading = labels_where(&h, |s| s == HEADING)[0];
    assert!(screen.contains_rect(board), "{board:?}");
    assert!(
        in_sight(heading, screen, board.bottom()),
        "{heading:?} {board:?}"
    );
    // Its last line, the assistant's keys, is reached by the wheel over it.
    let last =
        |h: &Harness<'_, TileboxApp>| labels_where(h, |s| s.contains("Shift+A: autoplay"))[0];
    wheel(&mut h, heading.center(), -5000.0);
    assert!(in_sight(last(&h), screen, board.bottom()), "{:?}", last(&h));
    // The wheel moved no tile.
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);
}

/// The label of the node that has the keyboard's focus, and its place.
fn focused(h: &Harness<'_, TileboxApp>) -> Option<(String, Rect)> {
    h.query_all(By::new())
        .find(|n| n.is_focused())
        .map(|n| (common::spoken(&n).unwrap_or_default(), n.rect()))
}

/// Presses Tab until the focus is on the control labelled `label`; false if it never is.
fn tab_to(h: &mut Harness<'static, TileboxApp>, label: &str) -> bool {
    for _ in 0..60 {
        if focused(h).is_some_and(|(s, _)| s == label) {
            return true;
        }
        h.key_press(egui::Key::Tab);
        h.run();
    }
    false
}

#[test]
fn tab_brings_every_card_into_view_at_360_px() {
    let window = (360.0, 600.0);
    let dir = common::temp_dir("layout-tab");
    let (mut h, zoom) = harness_at(&dir, "unknown-game", window);
    let screen = screen_of(window, zoom);
    let cards: Vec<(String, Rect)> = common::spoken_all(&h)
        .into_iter()
        .filter(|(s, _)| s.starts_with("Play ") && s != tilebox::screens::codes::PLAY_CODE_LABEL)
        .collect();
    // The last card starts out of sight: the list is longer than the window.
    let (last, rect) = cards.last().unwrap().clone();
    assert!(
        !screen.contains_rect(rect),
        "{last} at {rect:?} in {screen:?}"
    );
    let mut seen = 0;
    for _ in 0..60 {
        h.key_press(egui::Key::Tab);
        h.run();
        if let Some((name, rect)) = focused(&h)
            && cards.iter().any(|(c, _)| *c == name)
        {
            assert!(
                screen.expand(0.5).contains_rect(rect),
                "{name} at {rect:?} in {screen:?}"
            );
            seen += 1;
            if name == last {
                break;
            }
        }
    }
    assert!(
        seen >= cards.len(),
        "{seen} of {} cards focused",
        cards.len()
    );
}

#[test]
fn the_autoplay_speed_and_the_options_are_chosen_by_keys() {
    use tilebox::screens::launcher::cards::{PLAY_OPTIONS_LABEL, card_label, option_label};
    use tilebox::store::settings::Speed;
    // The speed: Tab to a speed, then Return or Space.
    let dir = common::temp_dir("layout-keys-speed");
    let (mut h, _) = harness_at(&dir, "2048", (360.0, 600.0));
    assert_eq!(h.state().autoplay_speed(), Speed::Normal);
    assert!(tab_to(&mut h, &tilebox::speed_label("Fast")));
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().autoplay_speed(), Speed::Fast);
    assert!(tab_to(&mut h, &tilebox::speed_label("Slow")));
    h.key_press(egui::Key::Space);
    h.run();
    assert_eq!(h.state().autoplay_speed(), Speed::Slow);
    // Neither key played a move.
    assert_eq!(h.state().session("2048").unwrap().move_count(), 0);

    // The options: Strike 9's group, twelve tiles by keys, then Play by keys.
    let dir = common::temp_dir("layout-keys-options");
    let (mut h, _) = harness_at(&dir, "unknown-game", (360.0, 600.0));
    h.get_by_label(&card_label("Strike 9")).click_accesskit();
    h.run();
    assert!(tab_to(&mut h, &option_label("Tiles", "12 tiles")));
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(tab_to(&mut h, PLAY_OPTIONS_LABEL));
    h.key_press(egui::Key::Enter);
    h.run();
    let game = h.state().current_game().unwrap().to_string();
    let session = h.state().session(&game).unwrap();
    assert_eq!(session.params_json()["tiles"], 12, "{game}");
}

#[test]
fn the_rising_score_covers_nothing_shown() {
    use tilebox_core::Session;
    use tilebox_sliding::Sliding;
    // 2048 whose new tiles are 65536s: each merge scores six digits or more.
    let mut big = common::variant("2048");
    big.spawn.weights = Some([(65536, 1)].into_iter().collect());
    big.win = tilebox_sliding::variant::Win::NONE;
    for window in [(360.0, 640.0), (1920.0, 1080.0)] {
        let dir = common::temp_dir("layout-pop");
        let mut saved = Session::<Sliding>::new(big.clone(), 3).unwrap().save();
        saved.game = "2048".to_string();
        common::write_save(&dir, &saved);
        let (mut h, zoom) = harness_at(&dir, "2048", window);
        let screen = screen_of(window, zoom);
        let mut pops = 0;
        let mut rose = false;
        for _ in 0..40 {
            let legal = h.state().session("2048").unwrap().legal_moves();
            let before = h.state().session("2048").unwrap().score();
            h.key_press(common::key_of(&legal[0]));
            // Frame by frame through the pop's rise.
            let mut first_top: Option<f32> = None;
            for _ in 0..4 {
                h.step();
                let spoken = shown_items(&h);
                for (text, rect) in spoken.iter().filter(|(s, _)| s.starts_with('+')) {
                    pops += 1;
                    let top = *first_top.get_or_insert(rect.top());
                    rose |= rect.top() < top - 2.0;
                    // Nothing else shown is under it: not the score, not the title, not a
                    // button or a box.
                    for (other, at) in spoken.iter().filter(|(s, _)| s != text) {
                        assert!(
                            !rect.intersects(*at),
                            "at {window:?}: {text} at {rect:?} covers {other:?} at {at:?}"
                        );
                    }
                    assert!(
                        screen.contains_rect(*rect),
                        "at {window:?}: {text} at {rect:?}"
                    );
                }
            }
            h.run();
            let after = h.state().session("2048").unwrap().score();
            if after >= 100_000 && after > before {
                break;
            }
        }
        assert!(pops > 0, "at {window:?}: no pop seen");
        assert!(rose, "at {window:?}: the pop never rose");
        assert!(h.state().session("2048").unwrap().score() >= 100_000);
    }
}

/// Whether a node is something the player reads or uses: a control, a field, a text.
fn is_shown_item(role: egui::accesskit::Role) -> bool {
    use egui::accesskit::Role;
    matches!(
        role,
        Role::Button
            | Role::RadioButton
            | Role::CheckBox
            | Role::ComboBox
            | Role::TextInput
            | Role::Label
            | Role::Heading
    )
}

/// Every control and text shown, with what a screen reader says of it and where it is.
fn shown_items(h: &Harness<'_, TileboxApp>) -> Vec<(String, Rect)> {
    use egui_kittest::kittest::NodeT;
    h.query_all(By::new())
        .filter(|n| is_shown_item(n.accesskit_node().role()))
        .filter_map(|n| common::spoken(&n).map(|s| (s, n.rect())))
        .filter(|(s, _)| !s.trim().is_empty())
        .collect()
}

/// Checks everything the screen shows: each control and text whole (at least 8 points wide),
/// inside the window's width, and clear of every other (one inside another, as a card's
/// Statistics button in its card, is no overlap). A screen that `scrolls` may have items below
/// the window's bottom; any other has every item inside the window.
fn check_all(
    h: &Harness<'_, TileboxApp>,
    what: &str,
    window: (f32, f32),
    zoom: f32,
    scrolls: bool,
) {
    let screen = screen_of(window, zoom).expand(0.5);
    let items = shown_items(h);
    assert!(items.len() >= 3, "{what} at {window:?}: {items:?}");
    for (name, rect) in &items {
        let inside = if scrolls {
            rect.left() >= screen.left() && rect.right() <= screen.right() && rect.top() >= 0.0
        } else {
            screen.contains_rect(*rect)
        };
        assert!(
            inside && rect.width() >= 8.0,
            "{what} at {window:?}: {name:?} at {rect:?} is not whole inside {screen:?}"
        );
    }
    for (i, (a, ra)) in items.iter().enumerate() {
        for (b, rb) in &items[i + 1..] {
            let overlap = ra.intersect(*rb);
            let nested = ra.expand(0.5).contains_rect(*rb) || rb.expand(0.5).contains_rect(*ra);
            assert!(
                !overlap.is_positive() || overlap.area() < 1.0 || nested,
                "{what} at {window:?}: {a:?} {ra:?} overlaps {b:?} {rb:?}"
            );
        }
    }
}

#[test]
fn every_screen_fits_360_1920_and_3840_px() {
    use egui::{Key, Modifiers};
    use tilebox::screens::launcher::cards::card_label;
    let registry = tilebox_tests::toy::catalogue_with_toy();
    for window in [(360.0, 600.0), (1920.0, 1080.0), (3840.0, 2160.0)] {
        let dir = common::temp_dir("layout-every");
        // The launcher, a group, a group with the menu of options.
        let (mut h, zoom) = harness_over_at(registry.clone(), &dir, None, window);
        check_all(&h, "launcher", window, zoom, true);
        h.get_by_label(&card_label("2048")).click();
        h.run();
        check_all(&h, "2048's group", window, zoom, true);
        h.key_press(Key::Escape);
        h.run();
        h.get_by_label(&card_label("Strike 9")).click_accesskit();
        h.run();
        assert!(
            h.query_by_label(tilebox::screens::launcher::cards::PLAY_OPTIONS_LABEL)
                .is_some()
        );
        check_all(&h, "Strike 9's group and its options", window, zoom, true);

        // A game of each view, with How to play.
        for game in ["2048", "strike9", "toy"] {
            let (mut h, zoom) = harness_over_at(registry.clone(), &dir, Some(game), window);
            check_all(&h, game, window, zoom, false);
            h.key_press(Key::F1);
            h.run();
            check_all(&h, &format!("{game} with How to play"), window, zoom, true);
        }

        // A game with moves: its statistics, its replay, its dialogs.
        let (mut h, zoom) = harness_over_at(registry.clone(), &dir, Some("2048"), window);
        for k in ["L", "D", "R", "U", "L", "D"] {
            h.key_press(common::key_of(k));
            h.run();
        }
        h.key_press(Key::N);
        h.run();
        assert!(h.query_by_label("Yes, start a new game").is_some());
        let wanted = ["No, keep playing", "Yes, start a new game"].map(str::to_string);
        check_screen(&h, "the new-game question", &wanted, window, zoom);
        h.key_press(Key::Y);
        h.run();
        for k in ["L", "D", "R", "U"] {
            h.key_press(common::key_of(k));
            h.run();
        }
        h.key_press_modifiers(Modifiers::SHIFT, Key::S);
        h.run();
        h.state_mut()
            .wait_for_histories(std::time::Duration::from_secs(30));
        h.run();
        check_all(&h, "statistics", window, zoom, true);
        h.key_press(Key::Escape);
        h.run();
        h.key_press_modifiers(Modifiers::SHIFT, Key::R);
        h.run();
        h.key_press(Key::ArrowRight);
        h.run();
        check_all(&h, "replay", window, zoom, false);
        h.key_press(Key::Escape);
        h.run();
        assert_eq!(h.state().current_game(), Some("2048"));

        // The end of a game and the win, over the board.
        let (session, winning) = common::nearly_2048();
        let id = common::entry_for::<tilebox_sliding::Sliding>(&common::variant("2048-8x8"));
        let dir = common::temp_dir("layout-every-end");
        let mut saved = session.save();
        saved.game = id.clone();
        common::write_save(&dir, &saved);
        let (mut h, zoom) = harness_over_at(registry.clone(), &dir, Some(&id), window);
        h.key_press(common::key_of(&winning));
        h.run();
        let wanted = ["You win!", "Keep going", "Start a new game"].map(str::to_string);
        check_screen(&h, "the win", &wanted, window, zoom);
    }
}

/// Every rectangle outline painted in the last frame, in `color`: (the rectangle, as painted
/// with its stroke outside it).
fn outlines_in(h: &Harness<'_, TileboxApp>, color: egui::Color32) -> Vec<Rect> {
    fn walk(shape: &egui::Shape, color: egui::Color32, out: &mut Vec<Rect>) {
        match shape {
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, color, out)),
            egui::Shape::Rect(r) if r.stroke.color == color && r.stroke.width > 0.0 => {
                let outside = match r.stroke_kind {
                    egui::StrokeKind::Outside => r.stroke.width,
                    egui::StrokeKind::Middle => r.stroke.width / 2.0,
                    egui::StrokeKind::Inside => 0.0,
                };
                out.push(r.rect.expand(outside));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        walk(&clipped.shape, color, &mut out);
    }
    out
}

#[test]
fn a_focused_choice_is_ringed_clear_of_its_fill_when_it_is_the_choice_made() {
    use tilebox::ui::theme::Palette;
    let mut themes = Vec::new();
    for theme_key in [false, true] {
        let dir = common::temp_dir("layout-ring");
        let (mut h, _) = harness_at(&dir, "2048", (900.0, 800.0));
        if theme_key {
            // T switches the theme: both are checked.
            h.key_press(egui::Key::T);
            h.run();
        }
        let dark = h.ctx.theme() == egui::Theme::Dark;
        themes.push(dark);
        // Normal is the speed chosen: its button is filled with the selection's colour.
        let label = tilebox::speed_label("Normal");
        assert!(tab_to(&mut h, &label), "dark {dark}");
        let (_, button) = focused(&h).unwrap();
        let focus = Palette::of(dark).focus;
        let rings = outlines_in(&h, focus);
        // A ring in the focus colour that leaves a gap around the button: what it is drawn
        // beside is the window, not the button's fill (against which the colour is too faint).
        assert!(
            rings.iter().any(|r| r.contains_rect(button.expand(1.5))),
            "dark {dark}: {button:?} not ringed clear of it: {rings:?}"
        );
    }
    assert!(
        themes.contains(&true) && themes.contains(&false),
        "{themes:?}"
    );
}

#[test]
fn a_dialog_taller_than_a_small_window_scrolls_to_its_last_button() {
    use tilebox::screens::codes::{CANCEL_LABEL, PLAY_CODE_LABEL};
    // A window 170 points tall (as a small window zoomed in): the dialog "Play a code", with its
    // text, field and buttons, is taller.
    let window = (360.0, 170.0);
    let dir = common::temp_dir("layout-dialog-scroll");
    let (mut h, zoom) = harness_at(&dir, "unknown-game", window);
    let screen = screen_of(window, zoom);
    h.get_by_label(PLAY_CODE_LABEL).click_accesskit();
    h.run();
    let cancel = |h: &Harness<'_, TileboxApp>| h.get_by_label(CANCEL_LABEL).rect();
    assert!(
        !screen.contains_rect(cancel(&h)),
        "the dialog fits: {:?} in {screen:?}",
        cancel(&h)
    );
    let heading = labels_where(&h, |s| s == PLAY_CODE_LABEL);
    let inside = heading
        .iter()
        .copied()
        .find(|r| screen.contains_rect(*r))
        .expect("the dialog's heading in sight");
    wheel(&mut h, inside.center(), -2000.0);
    assert!(
        screen.expand(0.5).contains_rect(cancel(&h)),
        "{:?} out of {screen:?}",
        cancel(&h)
    );
    h.get_by_label(CANCEL_LABEL).click_accesskit();
    h.run();
    assert!(h.query_by_label(CANCEL_LABEL).is_none());
}

/// The next move's rules above the board take the lines they need, and the board still fits
/// below them: Directional Merges' four examples wrap to several lines in a narrow window.
#[test]
fn the_rules_above_the_board_leave_it_whole_at_every_width() {
    const RULES: &str = "Moving left: 1 + 3 = 4; moving right: 1 + 1 = 2; moving up: 2 + 3 = 5; moving down: 1 + 2 = 3";
    for window in [(360.0, 640.0), (360.0, 520.0), (1920.0, 1080.0)] {
        let dir = common::temp_dir("layout-rules");
        let (h, zoom) = harness_at(&dir, "directional-merges", window);
        let screen = screen_of(window, zoom);
        let rules = labels_where(&h, |s| s == RULES);
        let [rules] = rules.as_slice() else {
            panic!("{window:?}: the rules are shown once: {rules:?}");
        };
        let board = h.get_by_label(tilebox::views::sliding::BOARD_LABEL).rect();
        assert!(
            screen.expand(0.5).contains_rect(board),
            "{window:?}: the board {board:?} is cut off the screen {screen:?}"
        );
        assert!(
            rules.bottom() <= board.top() + 0.5 && screen.expand(0.5).contains_rect(*rules),
            "{window:?}: the rules {rules:?} and the board {board:?}"
        );
        // In the narrow window they take more than one line; the line under the board, how
        // to move, is in sight too.
        if window.0 < 400.0 {
            assert!(rules.height() > 30.0, "{window:?}: {rules:?}");
        }
        let how = labels_where(&h, |s| s.starts_with("Arrow keys, WASD or hjkl"));
        assert!(
            how.iter()
                .any(|r| r.top() >= board.bottom() - 0.5 && screen.expand(0.5).contains_rect(*r)),
            "{window:?}: {how:?} under {board:?}"
        );
    }
}

/// The rows of autoplay's three speeds in the bar: the tops of their buttons.
fn speed_tops(h: &Harness<'_, TileboxApp>) -> Vec<f32> {
    ["Slow", "Normal", "Fast"]
        .map(|s| h.get_by_label(&tilebox::speed_label(s)).rect().top())
        .to_vec()
}

#[test]
fn the_speeds_stay_on_one_row_at_zoom_130_at_every_width() {
    // Zoom 130 (Ctrl+= three times), in windows 360 to 760 pixels wide.
    let dir = common::temp_dir("layout-speeds");
    let (mut h, _) = harness_at(&dir, "2048", (600.0, 760.0));
    for _ in 0..3 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.run();
    }
    assert_zoom(&h, 1.3);
    drop(h);
    for width in (360..=760).step_by(10) {
        let window = (width as f32, 760.0);
        let (h, zoom) = harness_at(&dir, "2048", window);
        assert!(zoom >= 1.3 - 1e-3, "{zoom}");
        let tops = speed_tops(&h);
        assert!(
            tops.iter().all(|t| (t - tops[0]).abs() < 1.0),
            "at {width} px, zoom {zoom}: the speeds are split over rows {tops:?}"
        );
        check_bar(&h, "2048", "2048", window, zoom);
    }
}

#[test]
fn at_380_px_the_assisted_mark_sits_beside_the_score_and_stays_put() {
    let dir = common::temp_dir("layout-assisted-place");
    let (mut h, _) = harness_at(&dir, "2048", (380.0, 700.0));
    let score = |h: &Harness<'_, TileboxApp>| {
        bar_items(h, "2048")
            .into_iter()
            .find(|(s, _)| s.starts_with("Score: "))
            .unwrap()
            .1
    };
    let best = |h: &Harness<'_, TileboxApp>| {
        bar_items(h, "2048")
            .into_iter()
            .find(|(s, _)| s.starts_with("Best: "))
            .unwrap()
    };
    let mark = |h: &Harness<'_, TileboxApp>| {
        h.get_by_label_contains("Assisted game: undo, a hint or autoplay")
            .rect()
    };
    let before = (score(&h).min, best(&h).1.min);
    make_assisted(&mut h);
    // Becoming assisted moves neither box (the best's grows by its assisted best, at its
    // right): the mark's room was kept.
    assert_eq!((score(&h).min, best(&h).1.min), before);
    let first = mark(&h);
    let score_box = score(&h);
    assert!(
        first.center().y > score_box.top() && first.center().y < score_box.bottom(),
        "the mark {first:?} is on the score's row {score_box:?}, not a row of its own"
    );
    assert!(first.left() >= score_box.right(), "{first:?} {score_box:?}");
    // The best widens as the assisted game scores: the mark stays where it is.
    let best_before = best(&h).0;
    for _ in 0..6 {
        for k in ["L", "D", "R", "U"] {
            h.key_press(common::key_of(k));
            h.run();
        }
    }
    assert_ne!(best(&h).0, best_before, "the best changed");
    assert_eq!(mark(&h), first);
}
