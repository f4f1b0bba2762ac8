//! The real app, driven by its accessible labels and by keys, as a player would.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{card_count, card_lines, cell_count, harness, key_of, temp_dir, write_save};
use egui::{Key, Modifiers, Vec2};
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::json;
use tilebox::{Screen, views};
use tilebox_core::{Puzzle, Session};
use tilebox_sliding::Sliding;
use tilebox_strike9::{Strike9, TileSet};

fn moves_of(h: &egui_kittest::Harness<'_, tilebox::TileboxApp>, id: &str) -> Vec<String> {
    h.state()
        .session(id)
        .map(|s| s.save().moves)
        .unwrap_or_default()
}

/// Presses the four arrows in turn until one moves; returns the move played.
fn play_one_sliding_move(
    h: &mut egui_kittest::Harness<'_, tilebox::TileboxApp>,
    id: &str,
) -> String {
    let before = moves_of(h, id).len();
    for mv in ["L", "D", "R", "U"] {
        h.key_press(key_of(mv));
        h.run();
        let after = moves_of(h, id);
        if after.len() > before {
            return after.last().unwrap().clone();
        }
    }
    panic!("no arrow key moved the board");
}

#[test]
fn the_launcher_shows_a_card_per_group_and_a_group_a_card_per_entry_each_with_its_stats() {
    let dir = temp_dir("launcher");
    let registry = tilebox_games::registry();
    // Different numbers for every entry, so that each card can only show its own.
    let mut games = serde_json::Map::new();
    for (i, entry) in registry.entries().iter().enumerate() {
        let i = i as u64;
        games.insert(
            entry.id().to_string(),
            json!({ "best": 1000 + i, "played": 20 + 3 * i, "won": 1 + i, "lowest": 500 + i }),
        );
    }
    let scores = json!({ "version": 1, "games": games });
    std::fs::write(dir.join("scores.json"), scores.to_string()).unwrap();
    let stats = |id: &str| {
        let s = &scores["games"][id];
        (
            s["best"].as_u64().unwrap(),
            s["played"].as_u64().unwrap(),
            s["won"].as_u64().unwrap(),
        )
    };

    // An entry's best as its card says it: the lowest where lower is better.
    let best_of = |i: usize| {
        let entry = &registry.entries()[i];
        let s = &scores["games"][entry.id()];
        if entry.lower_is_better() {
            format!("Best {} (lower is better)", s["lowest"].as_u64().unwrap())
        } else {
            format!("Best {}", s["best"].as_u64().unwrap())
        }
    };

    let mut h = harness(&dir, None);
    assert_eq!(h.state().screen(), Screen::Launcher);
    let groups = registry.groups();
    assert!(!groups.is_empty());
    for (title, members) in &groups {
        let lines = card_lines(&h, &format!("Play {title}"));
        if let [only] = members.as_slice() {
            // A game of one entry: its card is the entry's.
            let (_, played, won) = stats(registry.entries()[*only].id());
            let line = format!("{}   ·   Played {played}   ·   Won {won}", best_of(*only));
            assert!(lines.contains(&line), "{title}: {lines:?}");
        } else {
            // A game of several: how many versions, the highest best and where it was made,
            // and what they add up to.
            let (played, won) = members.iter().fold((0, 0), |(p, w), &i| {
                let (_, played, won) = stats(registry.entries()[i].id());
                (p + played, w + won)
            });
            // The highest best of the versions where higher is better, the lowest of those
            // where lower is, each with where it was made.
            let lower = |i: &&usize| registry.entries()[**i].lower_is_better();
            let top = members
                .iter()
                .filter(|i| !lower(i))
                .max_by_key(|&&i| stats(registry.entries()[i].id()).0);
            let bottom = members
                .iter()
                .filter(lower)
                .min_by_key(|&&i| scores["games"][registry.entries()[i].id()]["lowest"].as_u64());
            let bests: Vec<String> = top
                .into_iter()
                .chain(bottom)
                .map(|&i| format!("{} in {}", best_of(i), registry.entries()[i].title()))
                .collect();
            // Counts with their thousands separated, as everywhere ("Played 10,030").
            let line = format!(
                "{} versions   ·   {}   ·   Played {}   ·   Won {}",
                members.len(),
                bests.join("   ·   "),
                tilebox::ui::theme::thousands(played),
                tilebox::ui::theme::thousands(won)
            );
            assert!(lines.contains(&line), "{title}: {lines:?}");
        }
    }
    // No card for anything else: the cards are exactly the groups.
    assert_eq!(card_count(&h), groups.len());

    // Each group of several entries lists them, each with its own numbers.
    for (g, (title, members)) in groups.iter().enumerate() {
        if members.len() < 2 {
            continue;
        }
        h.get_by_label(&format!("Play {title}")).click_accesskit();
        h.run();
        assert_eq!(h.state().screen(), Screen::Group(g));
        for &i in members {
            let entry = &registry.entries()[i];
            let (_, played, won) = stats(entry.id());
            let lines = card_lines(&h, &format!("Play {}", entry.title()));
            let line = format!("{}   ·   Played {played}   ·   Won {won}", best_of(i));
            assert!(lines.contains(&line), "{}: {lines:?}", entry.id());
        }
        assert_eq!(card_count(&h), members.len());
        h.get_by_label("Back").click();
        h.run();
        assert_eq!(h.state().screen(), Screen::Launcher);
    }
}

/// The group of the launcher titled `title`: its index and its entries' indices.
fn group_of(title: &str) -> (usize, Vec<usize>) {
    tilebox_games::registry()
        .groups()
        .into_iter()
        .enumerate()
        .find(|(_, (t, _))| *t == title)
        .map(|(g, (_, members))| (g, members))
        .unwrap()
}

/// The key of card `n` (from 1).
fn digit(n: usize) -> Key {
    [
        Key::Num1,
        Key::Num2,
        Key::Num3,
        Key::Num4,
        Key::Num5,
        Key::Num6,
        Key::Num7,
        Key::Num8,
        Key::Num9,
    ][n - 1]
}

/// The best score of `id` in the score file on disk (0 when it has none).
fn best_on_disk(dir: &std::path::Path, id: &str) -> u64 {
    common::settle();
    let text = std::fs::read_to_string(dir.join("scores.json")).unwrap();
    let scores: serde_json::Value = serde_json::from_str(&text).unwrap();
    scores["games"][id]["best"].as_u64().unwrap_or(0)
}

#[test]
fn the_2048_card_opens_its_boards_each_a_game_of_its_own_and_escape_goes_back() {
    let dir = temp_dir("boards");
    let registry = tilebox_games::registry();
    let (group, members) = group_of("2048");
    assert!(members.len() > 1);
    let mut h = harness(&dir, None);

    // The 2048 card opens the list of boards; Escape and Back go back to the games.
    h.get_by_label("Play 2048").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(group));
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);
    h.key_press(digit(group + 1));
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(group));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);

    // "2048 (5×5)" opens its board: side × side cells, each with its label.
    h.get_by_label("Play 2048").click();
    h.run();
    h.get_by_label("Play 2048 (5×5)").click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2048-5x5"));
    let side = registry
        .get("2048-5x5")
        .unwrap()
        .params::<Sliding>()
        .unwrap()
        .side;
    assert_eq!(cell_count(&h), side * side);
    for row in 1..=side {
        for col in 1..=side {
            h.get_by_label_contains(&format!("row {row}, column {col}: "));
        }
    }

    // A move that scores counts for this board only: on disk and on the cards.
    while h.state().session("2048-5x5").unwrap().score() == 0 {
        play_one_sliding_move(&mut h, "2048-5x5");
    }
    let score = h.state().session("2048-5x5").unwrap().score();
    assert_eq!(best_on_disk(&dir, "2048-5x5"), score);
    for entry in registry.entries() {
        if entry.id() != "2048-5x5" {
            assert_eq!(best_on_disk(&dir, entry.id()), 0, "{}", entry.id());
        }
    }
    // Escape goes back to the list of boards, where each card has its own best.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(group));
    for &i in &members {
        let entry = &registry.entries()[i];
        let best = if entry.id() == "2048-5x5" { score } else { 0 };
        let lines = card_lines(&h, &format!("Play {}", entry.title()));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("Best {best}   ·"))),
            "{}: {lines:?}",
            entry.id()
        );
    }
    // Its game is kept under its own id; no other board has a save yet.
    common::settle();
    assert!(dir.join("saves/2048-5x5.json").exists());
    assert!(!dir.join("saves/2048.json").exists());

    // Escape again goes to the games, where the 2048 card shows the best of its boards, the
    // board it was made on, and the game in progress.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);
    let lines = card_lines(&h, "Play 2048");
    let line = format!(
        "{} versions   ·   Best {score} in 2048 (5×5)   ·   Played 0   ·   Won 0   ·   In progress: 1",
        members.len()
    );
    assert!(lines.contains(&line), "{lines:?}");

    // Each board answers to its number, in the order of the list; Escape from a board goes
    // back to the list, and Escape there to the games.
    for (n, &i) in members.iter().enumerate() {
        h.key_press(digit(group + 1));
        h.run();
        assert_eq!(h.state().screen(), Screen::Group(group));
        h.key_press(digit(n + 1));
        h.run();
        let entry = &registry.entries()[i];
        assert_eq!(h.state().current_game(), Some(entry.id()));
        // The board has the entry's side.
        let side = entry.params::<Sliding>().unwrap().side;
        assert_eq!(cell_count(&h), side * side, "{}", entry.id());
        h.key_press(Key::Escape);
        h.run();
        assert_eq!(h.state().screen(), Screen::Group(group));
        h.key_press(Key::Escape);
        h.run();
        assert_eq!(h.state().screen(), Screen::Launcher);
    }
}

#[test]
fn games_open_by_click_and_by_number_and_escape_or_back_keeps_them() {
    let dir = temp_dir("open");
    let mut h = harness(&dir, None);
    let (group, _) = group_of("2048");

    h.get_by_label("Play 2048").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(group));
    h.get_by_label("Play 2048").click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2048"));
    let played = play_one_sliding_move(&mut h, "2048");
    // Escape from a board of 2048 goes back to its list of boards; Back there to the games.
    h.key_press(Key::Escape);
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(group));
    h.get_by_label("Play 2048 (3×3)").click();
    h.run();
    assert_eq!(h.state().current_game(), Some("2048-3x3"));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(group));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);

    h.key_press(Key::Num2);
    h.run();
    assert_eq!(h.state().current_game(), Some("threes"));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().screen(), Screen::Launcher);

    // Strike 9's card (after 2048, Threes, 2584, 2187, 1024 and the 2048 Power Compendium):
    // the game, or the list of its versions, the standard box first.
    h.key_press(Key::Num7);
    h.run();
    if let Screen::Group(_) = h.state().screen() {
        h.key_press(Key::Num1);
        h.run();
    }
    assert_eq!(h.state().current_game(), Some("strike9"));
    while h.state().screen() != Screen::Launcher {
        h.key_press(Key::Escape);
        h.run();
    }

    // 2048 was kept, move and all.
    h.key_press(Key::Num1);
    h.run();
    h.key_press(Key::Num1);
    h.run();
    assert_eq!(h.state().current_game(), Some("2048"));
    assert_eq!(moves_of(&h, "2048"), vec![played]);
}

#[test]
fn sliding_moves_by_arrows_wasd_and_hjkl_with_undo_and_redo() {
    let dir = temp_dir("keys");
    let mut h = harness(&dir, Some("2048"));
    play_one_sliding_move(&mut h, "2048");
    play_one_sliding_move(&mut h, "2048");
    // WASD and hjkl reach the same moves: at least one of each set moves a fresh board.
    for set in [
        [Key::A, Key::S, Key::D, Key::W],
        [Key::H, Key::J, Key::L, Key::K],
    ] {
        let before = moves_of(&h, "2048").len();
        for k in set {
            h.key_press(k);
            h.run();
        }
        assert!(moves_of(&h, "2048").len() > before, "{set:?} moved nothing");
    }
    let all = moves_of(&h, "2048");
    let n = all.len();

    h.key_press(Key::U);
    h.run();
    assert_eq!(moves_of(&h, "2048").len(), n - 1);
    h.key_press_modifiers(Modifiers::CTRL, Key::Z);
    h.run();
    assert_eq!(moves_of(&h, "2048").len(), n - 2);
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(moves_of(&h, "2048").len(), n - 3);

    h.key_press_modifiers(Modifiers::SHIFT, Key::U);
    h.run();
    assert_eq!(moves_of(&h, "2048").len(), n - 2);
    h.key_press_modifiers(Modifiers::CTRL, Key::Y);
    h.run();
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(moves_of(&h, "2048"), all);
}

#[test]
fn a_drag_on_the_board_is_a_move() {
    let dir = temp_dir("drag");
    let mut h = harness(&dir, Some("threes"));
    let board = h.get_by_label(views::sliding::BOARD_LABEL).rect();
    let c = board.center();
    let d = board.width() * 0.3;
    for (mv, delta) in [
        ("L", Vec2::new(-d, 0.0)),
        ("D", Vec2::new(0.0, d)),
        ("R", Vec2::new(d, 0.0)),
        ("U", Vec2::new(0.0, -d)),
    ] {
        h.drag_at(c);
        h.step();
        h.hover_at(c + delta * 0.5);
        h.step();
        h.hover_at(c + delta);
        h.step();
        h.drop_at(c + delta);
        h.run();
        let moves = moves_of(&h, "threes");
        if !moves.is_empty() {
            assert_eq!(moves, vec![mv.to_string()]);
            return;
        }
    }
    panic!("no drag moved the board");
}

/// Drags on the sliding board: in Threes (the `step` motion) the cards that would move follow
/// the drag and letting go plays the move only past a third of a cell; in 2048 (the `slide`
/// motion) a drag is a swipe, played when let go.
mod drag {
    use egui::{Pos2, Vec2};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use tilebox::TileboxApp;
    use tilebox::views::sliding::{BOARD_LABEL, SWIPE_MIN};
    use tilebox_core::{Puzzle, Session};
    use tilebox_sliding::{Direction, Sliding};

    use crate::common::{self, key_of};

    type App = Harness<'static, TileboxApp>;

    fn text(h: &App, id: &str) -> String {
        h.state().session(id).unwrap().text()
    }

    fn move_count(h: &App, id: &str) -> usize {
        h.state().session(id).unwrap().move_count()
    }

    /// A drag `dir`'s way, `d` points long, from the board's centre: pressed, moved there in
    /// two steps, and held (not let go). Returns where it is held.
    fn drag_and_hold(h: &mut App, dir: Direction, d: f32) -> Pos2 {
        let board = h.get_by_label(BOARD_LABEL).rect();
        let delta = match dir {
            Direction::Left => Vec2::new(-d, 0.0),
            Direction::Right => Vec2::new(d, 0.0),
            Direction::Up => Vec2::new(0.0, -d),
            Direction::Down => Vec2::new(0.0, d),
        };
        let c = board.center();
        h.hover_at(c);
        h.step();
        h.drag_at(c);
        h.step();
        h.hover_at(c + delta * 0.5);
        h.step();
        h.hover_at(c + delta);
        h.step();
        c + delta
    }

    /// A drag long enough for a swipe, and shorter than a third of a cell of the 4×4 board.
    fn short_drag(h: &App) -> f32 {
        let d = SWIPE_MIN + 4.0;
        let cell = h.get_by_label(BOARD_LABEL).rect().width() / 4.0;
        assert!(d < cell / 3.0 - 4.0, "the board is too small: {cell}");
        d
    }

    /// A drag of more than a cell of the 4×4 board.
    fn long_drag(h: &App) -> f32 {
        h.get_by_label(BOARD_LABEL).rect().width() * 0.3
    }

    fn let_go(h: &mut App, at: Pos2) {
        h.drop_at(at);
        h.run();
    }

    /// A seed of `id` whose first board can move `dir`'s way, or cannot (`can` false).
    fn seed_where(id: &str, dir: Direction, can: bool) -> u64 {
        (0..2000u64)
            .find(|&seed| {
                let s = Session::<Sliding>::new(common::variant(id), seed).unwrap();
                Sliding::legal_moves(s.state()).contains(&dir) == can
            })
            .unwrap_or_else(|| panic!("no seed of {id} where {dir:?} is {can}"))
    }

    #[test]
    fn a_short_drag_in_threes_snaps_back_and_plays_nothing() {
        let seed = seed_where("threes", Direction::Left, true);
        let (_dir, mut h) = super::open_sliding("threes", seed);
        let before = text(&h, "threes");
        // The cards follow, short of the third of a cell that plays.
        let d = short_drag(&h);
        let at = drag_and_hold(&mut h, Direction::Left, d);
        assert_eq!(text(&h, "threes"), before);
        let_go(&mut h, at);
        assert_eq!(move_count(&h, "threes"), 0);
        assert_eq!(text(&h, "threes"), before);
    }

    #[test]
    fn a_long_drag_in_threes_plays_the_move_of_the_arrow_key_when_let_go() {
        for dir in Direction::ALL {
            let seed = seed_where("threes", dir, true);
            let (_dir, mut h) = super::open_sliding("threes", seed);
            let before = text(&h, "threes");
            // More than a cell: the cards have followed all the way.
            let d = long_drag(&h);
            let at = drag_and_hold(&mut h, dir, d);
            // Held: nothing is played yet.
            assert_eq!(move_count(&h, "threes"), 0, "{dir:?}");
            assert_eq!(text(&h, "threes"), before, "{dir:?}");
            let_go(&mut h, at);
            assert_eq!(move_count(&h, "threes"), 1, "{dir:?}");

            // The same game played with the arrow key.
            let (_dir, mut k) = super::open_sliding("threes", seed);
            k.key_press(key_of(&dir.to_string()));
            k.run();
            assert_eq!(move_count(&k, "threes"), 1, "{dir:?}");
            assert_eq!(text(&h, "threes"), text(&k, "threes"), "{dir:?}");
            assert_ne!(text(&h, "threes"), before, "{dir:?}");
        }
    }

    #[test]
    fn a_drag_in_threes_the_way_the_board_cannot_move_plays_nothing() {
        let dir = Direction::ALL
            .into_iter()
            .find(|&d| {
                (0..2000u64).any(|seed| {
                    let s = Session::<Sliding>::new(common::variant("threes"), seed).unwrap();
                    !Sliding::legal_moves(s.state()).contains(&d)
                })
            })
            .unwrap();
        let seed = seed_where("threes", dir, false);
        let (_dir, mut h) = super::open_sliding("threes", seed);
        let before = text(&h, "threes");
        let d = long_drag(&h);
        let at = drag_and_hold(&mut h, dir, d);
        let_go(&mut h, at);
        assert_eq!(move_count(&h, "threes"), 0);
        assert_eq!(text(&h, "threes"), before);
        assert!(h.state().message("threes").is_none());
    }

    #[test]
    fn a_short_drag_in_2048_is_a_swipe_played_when_let_go() {
        let seed = seed_where("2048", Direction::Left, true);
        let (_dir, mut h) = super::open_sliding("2048", seed);
        let before = text(&h, "2048");
        // The drag too short to play Threes' move: in 2048 it is a swipe.
        let d = short_drag(&h);
        let at = drag_and_hold(&mut h, Direction::Left, d);
        assert_eq!(move_count(&h, "2048"), 0);
        assert_eq!(text(&h, "2048"), before);
        let_go(&mut h, at);
        assert_eq!(move_count(&h, "2048"), 1);
        assert_eq!(
            h.state().session("2048").unwrap().last_move().as_deref(),
            Some("L")
        );
    }
}

#[test]
fn threes_shows_the_next_card() {
    let dir = temp_dir("next");
    let h = harness(&dir, Some("threes"));
    h.get_by_label_contains("Next card: ");
}

#[test]
fn new_game_asks_first_when_a_game_is_in_progress() {
    let dir = temp_dir("new");
    let mut h = harness(&dir, Some("2048"));

    // Nothing to lose yet: no question.
    let seed = h.state().session("2048").unwrap().seed();
    h.key_press(Key::N);
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_ne!(h.state().session("2048").unwrap().seed(), seed);

    play_one_sliding_move(&mut h, "2048");
    let seed = h.state().session("2048").unwrap().seed();
    h.key_press(Key::N);
    h.run();
    h.get_by_label("Start a new game?");
    h.get_by_label("No, keep playing").click();
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_eq!(moves_of(&h, "2048").len(), 1);
    assert_eq!(h.state().session("2048").unwrap().seed(), seed);

    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("Yes, start a new game").click();
    h.run();
    assert!(moves_of(&h, "2048").is_empty());
    assert_ne!(h.state().session("2048").unwrap().seed(), seed);
    // The abandoned game counts as played.
    assert_eq!(h.state().scores().get("2048").played, 1);
}

/// A seed whose first roll is between 4 and 8.
fn strike9_seed() -> (u64, u32) {
    (0..1000u64)
        .find_map(|seed| {
            let s = Session::<Strike9>::with_seed(seed).unwrap();
            let total = s.state().total();
            (4..=8).contains(&total).then_some((seed, total))
        })
        .unwrap()
}

#[test]
fn strike9_selection_refuses_overshoot_takes_back_and_shuts_on_the_exact_sum() {
    let dir = temp_dir("strike9");
    let (seed, total) = strike9_seed();
    write_save(&dir, &Session::<Strike9>::with_seed(seed).unwrap().save());
    let mut h = harness(&dir, Some("strike9"));
    let [d1, d2]: [u8; 2] = {
        let s = h.state().session("strike9").unwrap();
        s.as_any()
            .downcast_ref::<Session<Strike9>>()
            .unwrap()
            .state()
            .dice()
            .try_into()
            .unwrap()
    };
    h.get_by_label(&format!("Dice {d1} and {d2}: total {total}"));

    // 9 is more than the roll: shown disabled, and refused.
    assert!(
        h.get_by_label("tile 9, open")
            .accesskit_node()
            .is_disabled()
    );
    assert!(
        !h.get_by_label("tile 1, open")
            .accesskit_node()
            .is_disabled()
    );
    h.get_by_label("tile 1, open").click();
    h.run();
    h.get_by_label_contains("Selected 1 = 1 of");
    h.get_by_label("tile 9, open").click();
    h.run();
    h.get_by_label_contains("would go past");
    h.get_by_label_contains("Selected 1 = 1 of");
    assert!(moves_of(&h, "strike9").is_empty());

    // Clicking a selected tile takes it back.
    h.get_by_label("tile 1, open").click();
    h.run();
    h.get_by_label_contains("Pick open tiles that add up to");

    // 1 (by key) and total - 1 (by click) make the roll: they shut at once.
    h.key_press(Key::Num1);
    h.run();
    let other = u8::try_from(total - 1).unwrap();
    h.get_by_label(&format!("tile {other}, open")).click();
    h.run();
    assert_eq!(moves_of(&h, "strike9").len(), 1);
    let s = h.state().session("strike9").unwrap();
    let state = s
        .as_any()
        .downcast_ref::<Session<Strike9>>()
        .unwrap()
        .state();
    assert_eq!(state.shut(), TileSet::from_tiles([1, other]).unwrap());
    // Shut tiles say so to a screen reader.
    h.get_by_label("tile 1, shut");
    h.get_by_label(&format!("tile {other}, shut"));
}

/// Plays the first legal move until the game is over; returns the session one move before.
fn nearly_over<P: Puzzle>(seed: u64) -> (Session<P>, String) {
    common::play_until::<P>(P::Params::default(), seed, common::first_legal::<P>, |st| {
        st.over
    })
    .unwrap()
}

#[test]
fn the_last_move_of_2048_shows_game_over_and_counts_the_game() {
    let dir = temp_dir("over2048");
    let (session, last) = nearly_over::<Sliding>(7);
    write_save(&dir, &session.save());
    let mut h = harness(&dir, Some("2048"));
    assert!(h.query_by_label("Game over").is_none());
    h.key_press(key_of(&last));
    h.run();
    h.get_by_label("Game over");
    h.get_by_label_contains("Final score");
    let score = h.state().session("2048").unwrap().score();
    let stats = h.state().scores().get("2048");
    assert_eq!((stats.best, stats.played), (score, 1));

    // Take back the last move, then play it again: the game is not counted twice.
    h.get_by_label("Take back the last move").click();
    h.run();
    assert!(h.query_by_label("Game over").is_none());
    h.key_press(key_of(&last));
    h.run();
    assert_eq!(h.state().scores().get("2048").played, 1);

    // Over: N starts a new game without a question.
    h.get_by_label("Play again").click();
    h.run();
    assert!(moves_of(&h, "2048").is_empty());
    assert!(h.query_by_label("Game over").is_none());
}

#[test]
fn strike9_announces_a_roll_that_cannot_be_made() {
    let dir = temp_dir("over9");
    let (session, last) = nearly_over::<Strike9>(3);
    write_save(&dir, &session.save());
    let mut h = harness(&dir, Some("strike9"));
    let tiles: TileSet = last.parse().unwrap();
    for t in tiles.tiles() {
        h.get_by_label(&format!("tile {t}, open")).click();
        h.run();
    }
    let s = h.state().session("strike9").unwrap();
    assert!(s.status().over);
    let total = s
        .as_any()
        .downcast_ref::<Session<Strike9>>()
        .unwrap()
        .state()
        .total();
    assert!(!s.status().won);
    h.get_by_label("Game over");
    let text = format!("Rolled {total}: no open tiles add up to {total}.");
    assert!(h.get_all_by_label_contains(&text).count() >= 1);
}

/// A Strike 9 game that shuts the box: the seed and the moves.
fn strike9_win() -> (Session<Strike9>, String) {
    for seed in 0..20_000u64 {
        let mut s = Session::<Strike9>::with_seed(seed).unwrap();
        loop {
            // Prefer shutting the biggest tiles first, a decent strategy.
            let moves = Strike9::legal_moves(s.state());
            let Some(mv) = moves.into_iter().max_by_key(|m| m.tiles().tiles().max()) else {
                break;
            };
            let mut next = s.clone();
            next.play(mv).unwrap();
            if next.status().won {
                return (s, mv.to_string());
            }
            if next.status().over {
                break;
            }
            s = next;
        }
    }
    panic!("no winning seed found");
}

#[test]
fn shutting_the_box_shows_the_win() {
    let dir = temp_dir("win9");
    let (session, last) = strike9_win();
    write_save(&dir, &session.save());
    let mut h = harness(&dir, Some("strike9"));
    let tiles: TileSet = last.parse().unwrap();
    for t in tiles.tiles() {
        h.key_press(tilebox::views::strike9::tile_key(t).unwrap());
        h.run();
    }
    assert!(h.state().session("strike9").unwrap().status().won);
    h.get_by_label("You win!");
    assert!(h.get_all_by_label_contains("Box shut!").count() >= 1);
    let stats = h.state().scores().get("strike9");
    assert_eq!((stats.won, stats.played, stats.best), (1, 1, 45));
}

#[test]
fn help_and_theme_toggle() {
    let dir = temp_dir("help");
    let mut h = harness(&dir, Some("threes"));
    assert!(h.query_by_label_contains("A 1 and a 2 make a 3").is_none());
    h.get_by_label("How to play").click();
    h.run();
    h.get_by_label_contains("A 1 and a 2 make a 3");
    h.key_press(Key::F1);
    h.run();
    assert!(h.query_by_label_contains("A 1 and a 2 make a 3").is_none());

    h.get_by_label("Theme: system").click();
    h.run();
    h.get_by_label("Theme: light");
    h.key_press(Key::T);
    h.run();
    h.get_by_label("Theme: dark");
    // The choice is kept.
    drop(h);
    let h = harness(&dir, None);
    h.get_by_label("Theme: dark");
}

#[test]
fn making_2048_shows_the_win_once_then_keep_going() {
    let dir = temp_dir("win2048");
    let (session, last) = common::nearly_2048();
    let id = common::write_entry_save(&dir, &session);
    let mut h = harness(&dir, Some(&id));
    assert!(h.query_by_label("You win!").is_none());
    h.key_press(key_of(&last));
    h.run();
    h.get_by_label("You win!");
    h.get_by_label("Start a new game");
    h.get_by_label("Keep going").click();
    h.run();
    assert!(h.query_by_label("You win!").is_none());
    play_one_sliding_move(&mut h, &id);
    assert!(h.query_by_label("You win!").is_none());
    // A win counts as a game played at once: won never exceeds played.
    let stats = h.state().scores().get(&id);
    assert_eq!((stats.won, stats.played), (1, 1));
    // The win counts for that board only.
    for entry in tilebox_games::registry().entries() {
        if entry.id() != id {
            assert_eq!(h.state().scores().get(entry.id()).won, 0, "{}", entry.id());
        }
    }
}

/// A 2048 game on a board large enough for the simple player to win, then lose: one move
/// before the end.
fn won_then_nearly_over() -> (Session<Sliding>, String) {
    ["2048-5x5", "2048-6x6", "2048-8x8"]
        .into_iter()
        .flat_map(|id| (0..20).map(move |seed| (id, seed)))
        .find_map(|(id, seed)| {
            let (s, last) = common::play_until::<Sliding>(
                common::variant(id),
                seed,
                common::by_order,
                |status| status.over,
            )?;
            s.status().won.then_some((s, last))
        })
        .expect("a game that is won and then lost")
}

#[test]
fn a_game_of_2048_won_kept_going_and_lost_ends_with_game_over() {
    let dir = temp_dir("won-then-over");
    let (session, last) = won_then_nearly_over();
    // A save from before tallies: its win was seen, since the game went on from it.
    let id = common::write_entry_save(&dir, &session);
    let mut h = harness(&dir, Some(&id));
    assert!(h.query_by_label("You win!").is_none());
    h.key_press(key_of(&last));
    h.run();
    assert!(h.state().session(&id).unwrap().status().over);
    h.get_by_label("Game over");
    assert!(h.query_by_label("You win!").is_none());
    h.get_by_label_contains("Final score");
    assert_eq!(h.state().scores().get(&id).played, 1);
}

#[test]
fn moves_wait_while_the_win_is_shown() {
    let dir = temp_dir("win-waits");
    let (session, last) = common::nearly_2048();
    let id = common::write_entry_save(&dir, &session);
    let mut h = harness(&dir, Some(&id));
    h.key_press(key_of(&last));
    h.run();
    h.get_by_label("You win!");
    let n = moves_of(&h, &id).len();
    for key in [
        Key::ArrowLeft,
        Key::ArrowRight,
        Key::ArrowUp,
        Key::ArrowDown,
    ] {
        h.key_press(key);
        h.run();
    }
    let board = h.get_by_label(views::sliding::BOARD_LABEL).rect();
    h.drag_at(board.center());
    h.step();
    h.hover_at(board.center() + Vec2::new(board.width() * 0.3, 0.0));
    h.step();
    h.drop_at(board.center() + Vec2::new(board.width() * 0.3, 0.0));
    h.run();
    assert_eq!(moves_of(&h, &id).len(), n);
    h.get_by_label("You win!");
    // Undo still works under the message, and takes the win back off the board.
    h.key_press(Key::U);
    h.run();
    assert_eq!(moves_of(&h, &id).len(), n - 1);
    assert!(h.query_by_label("You win!").is_none());
}

#[test]
fn threes_shows_game_over_with_the_final_score() {
    let dir = temp_dir("over-threes");
    let (session, last) = common::play_until::<Sliding>(
        common::variant("threes"),
        5,
        common::first_legal::<Sliding>,
        |st| st.over,
    )
    .unwrap();
    assert_eq!(common::write_entry_save(&dir, &session), "threes");
    let mut h = harness(&dir, Some("threes"));
    assert!(h.query_by_label("Game over").is_none());
    h.key_press(key_of(&last));
    h.run();
    h.get_by_label("Game over");
    let score = h.state().session("threes").unwrap().score();
    h.get_by_label_contains(&format!("Final score: {score}."));
    let stats = h.state().scores().get("threes");
    assert_eq!((stats.played, stats.won), (1, 0));
}

#[test]
fn each_of_wasd_and_hjkl_plays_its_own_direction() {
    // A fresh 2048 game where every direction moves the board.
    let seed = (0..1000u64)
        .find(|&seed| {
            let s = Session::<Sliding>::with_seed(seed).unwrap();
            Sliding::legal_moves(s.state()).len() == 4
        })
        .unwrap();
    let dir = temp_dir("wasd");
    write_save(&dir, &Session::<Sliding>::with_seed(seed).unwrap().save());
    let mut h = harness(&dir, Some("2048"));
    for (key, mv) in [
        (Key::A, "L"),
        (Key::D, "R"),
        (Key::W, "U"),
        (Key::S, "D"),
        (Key::H, "L"),
        (Key::L, "R"),
        (Key::K, "U"),
        (Key::J, "D"),
        (Key::ArrowLeft, "L"),
        (Key::ArrowRight, "R"),
        (Key::ArrowUp, "U"),
        (Key::ArrowDown, "D"),
    ] {
        h.key_press(key);
        h.run();
        assert_eq!(moves_of(&h, "2048"), vec![mv.to_string()], "{key:?}");
        h.key_press(Key::U);
        h.run();
        assert!(moves_of(&h, "2048").is_empty());
    }
}

#[test]
fn a_second_key_pressed_while_the_tiles_slide_is_played_too() {
    let dir = temp_dir("during-anim");
    // Frames 10 ms apart: a slide lasts 10 frames.
    let mut h = common::harness_stepping(&dir, Some("2048"), 0.01);
    let first = h.state().session("2048").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&first));
    h.step();
    assert_eq!(moves_of(&h, "2048"), vec![first.clone()]);
    let second = h.state().session("2048").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&second));
    h.step();
    assert_eq!(moves_of(&h, "2048"), vec![first, second]);
}

#[test]
fn the_new_game_question_answers_to_y_n_escape_and_return() {
    let dir = temp_dir("question-keys");
    let mut h = harness(&dir, Some("2048"));
    play_one_sliding_move(&mut h, "2048");
    let seed = h.state().session("2048").unwrap().seed();

    // N asks; the N that asked is not taken as the answer. N again, or Escape, says no.
    for no in [Key::N, Key::Escape] {
        h.key_press(Key::N);
        h.run();
        h.get_by_label("Start a new game?");
        h.key_press(no);
        h.run();
        assert!(h.query_by_label("Start a new game?").is_none(), "{no:?}");
        assert_eq!(h.state().current_game(), Some("2048"), "{no:?}");
        assert_eq!(h.state().session("2048").unwrap().seed(), seed);
        assert_eq!(moves_of(&h, "2048").len(), 1);
    }
    // Return gives the default answer, the safe one: no. The destructive answer takes Y or
    // the button.
    h.key_press(Key::N);
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_eq!(h.state().session("2048").unwrap().seed(), seed);
    h.key_press(Key::N);
    h.run();
    h.get_by_label("Start a new game?");
    h.key_press(Key::Y);
    h.run();
    assert!(h.query_by_label("Start a new game?").is_none());
    assert_ne!(h.state().session("2048").unwrap().seed(), seed);
    assert_eq!(h.state().scores().get("2048").played, 1);
}

#[test]
fn new_game_asks_first_when_the_only_moves_were_taken_back() {
    let dir = temp_dir("redo-asks");
    let mut h = harness(&dir, Some("2048"));
    play_one_sliding_move(&mut h, "2048");
    h.key_press(Key::U);
    h.run();
    assert!(moves_of(&h, "2048").is_empty());
    h.key_press(Key::N);
    h.run();
    h.get_by_label("Start a new game?");
}

#[test]
fn every_cell_of_every_sliding_board_speaks_what_it_holds() {
    let registry = tilebox_games::registry();
    let mut boards = 0;
    for entry in registry.entries() {
        let id = entry.id();
        let dir = temp_dir("cells");
        let mut h = harness(&dir, Some(id));
        if h.state().session(id).unwrap().state_json()["board"].is_null() {
            // Not a game of cells (Strike 9 has tiles, checked on their own).
            assert_eq!(common::cell_count(&h), 0, "{id}");
            continue;
        }
        common::assert_cells_speak(&h, id);
        // After a move, the labels follow the board.
        let before = h.state().session(id).unwrap().state_json()["board"].clone();
        play_one_sliding_move(&mut h, id);
        assert_ne!(
            h.state().session(id).unwrap().state_json()["board"],
            before,
            "{id}"
        );
        common::assert_cells_speak(&h, id);
        boards += 1;
    }
    assert!(boards > 0, "no sliding board in the registry");
}

/// The app open on a game of the built-in sliding variant `id` from `seed`, no move played.
fn open_sliding(
    id: &str,
    seed: u64,
) -> (
    common::TestDir,
    egui_kittest::Harness<'static, tilebox::TileboxApp>,
) {
    let dir = temp_dir(id);
    let mut saved = Session::<Sliding>::new(common::variant(id), seed)
        .unwrap()
        .save();
    saved.game = id.to_string();
    common::write_save(&dir, &saved);
    let h = harness(&dir, Some(id));
    (dir, h)
}

/// A labelled variant's tiles show and speak their labels, not their numbers: 10's first board
/// from seed 3 holds two -1s (tile number 2), and its entry names tiles by label.
#[test]
fn labelled_tiles_speak_their_labels() {
    let (_dir, h) = open_sliding("10", 3);
    let state = h.state().session("10").unwrap().state_json();
    assert_eq!(state["board"][2][0], 2, "tile number 2 is -1");
    h.get_by_label("row 3, column 1: -1");
    h.get_by_label("row 5, column 3: -1");
    assert!(h.query_by_label("row 3, column 1: 2").is_none());
    let registry = tilebox_games::registry();
    let entry = registry.get("10").unwrap();
    assert_eq!(entry.tile_text(2), "-1");
    assert_eq!(entry.tile_text(19), "10");
    assert_eq!(registry.get("2048").unwrap().tile_text(2048), "2048");
}

/// Where the rules change from move to move (2592: pairs, then triples), the game says those of
/// the next move above the board, and a move turns them over.
#[test]
fn the_next_moves_rules_show_above_the_board() {
    let (_dir, mut h) = open_sliding("2592", 1);
    h.get_by_label("Move 1: two tiles merge");
    let first = Sliding::legal_moves(
        h.state()
            .session("2592")
            .unwrap()
            .as_any()
            .downcast_ref::<Session<Sliding>>()
            .unwrap()
            .state(),
    )[0];
    h.key_press(key_of(&first.to_string()));
    h.run();
    assert_eq!(h.state().session("2592").unwrap().move_count(), 1);
    h.get_by_label("Move 2: three tiles in a row merge");
    assert!(h.query_by_label("Move 1: two tiles merge").is_none());
}

/// A mode whose counters decide the game shows them above the board, as the Compendium's stat
/// boxes do: 378's goal, Mod 27's modulus.
#[test]
fn the_counters_a_mode_shows_are_above_the_board() {
    let (_dir, h) = open_sliding("378", 1);
    h.get_by_label("Goal: 6 · Goals reached: 0");
    let (_dir, h) = open_sliding("mod-27", 1);
    h.get_by_label("Modulus: 3");
}

/// Checks that each of the tiles of a Strike 9 box (9, 10 or 12, as the game's params have it)
/// says whether it is open or shut, as the session's open tiles (`state_json()["open"]`) have
/// it; returns the open tiles.
fn assert_tiles_speak(h: &egui_kittest::Harness<'_, tilebox::TileboxApp>, id: &str) -> Vec<u64> {
    let n = h.state().session(id).unwrap().params_json()["tiles"]
        .as_u64()
        .unwrap_or(9);
    let open: Vec<u64> = h.state().session(id).unwrap().state_json()["open"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap())
        .collect();
    for t in 1..=n {
        let label = if open.contains(&t) {
            format!("tile {t}, open")
        } else {
            format!("tile {t}, shut")
        };
        h.get_by_label(&label);
    }
    let tiles = common::spoken_all(h)
        .into_iter()
        .filter(|(text, _)| text.starts_with("tile "))
        .count();
    assert_eq!(tiles as u64, n, "{id}");
    open
}

#[test]
fn every_tile_of_strike9_says_whether_it_is_open_or_shut() {
    let registry = tilebox_games::registry();
    let mut games = 0;
    for entry in registry.entries().iter().filter(|e| e.is::<Strike9>()) {
        let id = entry.id();
        let dir = temp_dir("tiles");
        let mut h = harness(&dir, Some(id));
        let tiles = entry.params::<Strike9>().unwrap().tiles;
        assert_eq!(assert_tiles_speak(&h, id).len(), usize::from(tiles));
        // Shut tiles, by their labels, until some are shut and the game goes on, or it ends; a
        // choice of dice on the way is made by its button.
        let (mut shut, mut played) = (0, 0);
        while shut < 2 && !h.state().session(id).unwrap().status().over {
            let mv = h.state().session(id).unwrap().legal_moves()[0].clone();
            played += 1;
            let Ok(tiles) = mv.parse::<TileSet>() else {
                common::play_as_player(&mut h, entry, &mv);
                assert_eq!(moves_of(&h, id).len(), played, "{id}");
                continue;
            };
            for t in tiles.tiles() {
                h.get_by_label(&format!("tile {t}, open")).click();
                h.run();
            }
            shut += 1;
            assert_eq!(moves_of(&h, id).len(), played, "{id}");
            let open = assert_tiles_speak(&h, id);
            for t in tiles.tiles() {
                assert!(!open.contains(&u64::from(t)), "{id}: {t} still open");
            }
        }
        games += 1;
    }
    assert!(games > 0, "no Strike 9 in the registry");
}

#[test]
fn a_toy_kind_known_only_to_the_tests_is_listed_played_counted_and_saved_in_the_plain_view() {
    use tilebox_tests::toy;
    // The real catalogue with the toy after it, as a host's test is meant to take it.
    let registry = toy::catalogue_with_toy();
    let (toy_group, toy_entries) = registry
        .groups()
        .into_iter()
        .enumerate()
        .find(|(_, (title, _))| *title == "Toy")
        .map(|(g, (_, members))| (g, members))
        .expect("the toy's group");
    let dir = temp_dir("toy");
    let mut h = common::harness_over(registry.clone(), &dir, None);

    // The launcher lists it after the real games, by its number too.
    assert_eq!(card_count(&h), registry.groups().len());
    for (title, _) in registry.groups() {
        h.get_by_label(&format!("Play {title}"));
    }
    h.key_press(digit(toy_group + 1));
    h.run();
    assert_eq!(h.state().screen(), Screen::Group(toy_group));
    assert_eq!(card_count(&h), toy_entries.len());
    h.get_by_label("Play Toy");
    h.get_by_label("Play Toy (9 cells)").click();
    h.run();
    assert_eq!(h.state().current_game(), Some("toy-9"));

    // The plain view: the game's text, and a button per legal move.
    let text = h.state().session("toy-9").unwrap().text();
    h.get_by_label(&text);
    let start = common::pebbles(&h, "toy-9");
    assert_eq!(start.len(), 9);
    for (cell, &n) in start.iter().enumerate() {
        let label = format!("Move {}", cell + 1);
        assert_eq!(h.query_by_label(&label).is_some(), n > 0, "{label}");
    }

    // A click on a move plays it: played, counted and saved.
    let cell = start.iter().position(|&n| n > 0).unwrap() + 1;
    h.get_by_label(&format!("Move {cell}")).click();
    h.run();
    let s = h.state().session("toy-9").unwrap();
    assert_eq!(s.save().moves, vec![cell.to_string()]);
    assert_eq!(s.score(), 1);
    h.get_by_label(&s.text());
    let scores = common::read_json_file(&dir.join("scores.json"));
    assert_eq!(scores["games"]["toy-9"]["best"], 1);
    let saved = common::read_json_file(&dir.join("saves/toy-9.json"));
    assert_eq!(saved["game"], "toy-9");
    assert_eq!(saved["params"], json!({ "cells": 9 }));
    assert_eq!(saved["moves"], json!([cell.to_string()]));
    let text = s.text();
    drop(h);

    // It resumes after a restart, with undo.
    let mut h = common::harness_over(registry.clone(), &dir, Some("toy-9"));
    assert_eq!(h.state().session("toy-9").unwrap().text(), text);
    h.key_press(Key::U);
    h.run();
    assert_eq!(h.state().session("toy-9").unwrap().move_count(), 0);
    h.key_press_modifiers(Modifiers::SHIFT, Key::U);
    h.run();

    // Played to its end by its buttons, it counts once, as played and won: among the assisted
    // games, since undo was used; the unassisted best stays the one reached before the undo.
    let mut moves = 1;
    while let Some(mv) = h
        .state()
        .session("toy-9")
        .unwrap()
        .legal_moves()
        .first()
        .cloned()
    {
        h.get_by_label(&format!("Move {mv}")).click();
        h.run();
        moves += 1;
        assert_eq!(h.state().session("toy-9").unwrap().move_count(), moves);
    }
    let s = h.state().session("toy-9").unwrap();
    assert!(s.status().over && s.status().won);
    let total: u64 = start.iter().sum();
    assert_eq!(s.score(), total);
    h.get_by_label("You win!");
    let scores = common::read_json_file(&dir.join("scores.json"));
    assert_eq!(
        scores["games"]["toy-9"],
        json!({ "best": 1, "played": 0, "won": 0,
                "assisted_best": total, "assisted_played": 1, "assisted_won": 1 })
    );
    // The toy's other entry, and every real game, are untouched.
    for entry in registry.entries() {
        if entry.id() != "toy-9" {
            assert!(scores["games"][entry.id()].is_null(), "{}", entry.id());
        }
    }
}

#[test]
fn the_commentary_of_every_entry_is_shown_under_its_board_and_follows_the_moves() {
    let registry = tilebox_games::registry();
    let mut commented = 0;
    for entry in registry.entries() {
        let id = entry.id();
        let dir = temp_dir("commentary");
        let mut h = harness(&dir, Some(id));
        let mut lines = h.state().session(id).unwrap().commentary();
        for line in &lines {
            h.get_by_label(line);
        }
        let mv = h.state().session(id).unwrap().legal_moves()[0].clone();
        common::play_as_player(&mut h, entry, &mv);
        assert_eq!(moves_of(&h, id), vec![mv], "{id}");
        let after = h.state().session(id).unwrap().commentary();
        for line in &after {
            h.get_by_label(line);
        }
        lines.extend(after);
        commented += usize::from(!lines.is_empty());
    }
    // Strike 9's odds and what a move gave up, today.
    assert!(commented > 0, "no entry has commentary");
}

/// Every text the app says, counted.
fn spoken_counts(
    h: &egui_kittest::Harness<'_, tilebox::TileboxApp>,
) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for (text, _) in common::spoken_all(h) {
        *counts.entry(text).or_insert(0) += 1;
    }
    counts
}

#[test]
fn how_to_play_shows_each_entrys_rules_then_the_shared_and_the_assistants_controls_once() {
    let registry = tilebox_games::registry();
    for entry in registry.entries() {
        let id = entry.id();
        let dir = temp_dir("how-to-play");
        let mut h = harness(&dir, Some(id));
        let rules = entry.how_to_play();
        assert!(h.query_by_label(&rules).is_none(), "{id}");
        let closed = spoken_counts(&h);
        h.get_by_label("How to play").click();
        h.run();
        // The entry's rules, found by their label.
        h.get_by_label(&rules);

        // What the panel adds is its heading, the rules (which say how to play a move), the
        // controls every game shares, and the assistant's line where the game has one: each
        // once, and nothing else (no second account of the keys).
        let mut added = spoken_counts(&h);
        for (text, n) in &closed {
            let left = added.get(text).copied().unwrap_or(0).saturating_sub(*n);
            added.insert(text.clone(), left);
        }
        added.retain(|_, n| *n > 0);
        let view = views::for_entry(entry);
        let mut expected = vec![
            "How to play".to_string(),
            rules.clone(),
            tilebox::screens::help::COMMON_CONTROLS.to_string(),
        ];
        // The view's controls beyond the rules (the keys of a bigger box, a choice of dice).
        expected.extend(view.controls_help(h.state().session(id).unwrap()));
        if let Some(assistant) = h.state().session(id).unwrap().assistant() {
            expected.push(tilebox::screens::help::assist_controls(
                view.plain_h_hints(),
                view.hint_looks(),
                assistant.autoplays(),
                view.commentary_help(),
            ));
        }
        let mut got: Vec<String> = added.keys().cloned().collect();
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "{id}");
        assert!(added.values().all(|&n| n == 1), "{id}: {added:?}");
    }
}

#[test]
fn strike9_how_to_play_says_what_the_line_under_the_tiles_tells() {
    let dir = temp_dir("how-to-play-9");
    let mut h = harness(&dir, Some("strike9"));
    h.key_press(Key::F1);
    h.run();
    let line = h
        .get_by_label_contains("H or Shift+H: hint (")
        .value()
        .unwrap_or_default();
    assert!(
        line.starts_with("H or Shift+H: hint (a ring around the best tiles to shut"),
        "{line}"
    );
    assert!(
        line.contains(
            "The line under the tiles gives your chance of shutting the box with best play, \
and what your last move gave up"
        ),
        "{line}"
    );
}

/// A seed of Strike 9 whose first three rolls are each a single open tile, each another than
/// the ones before: the three totals.
fn strike9_single_tile_rolls() -> (u64, [u32; 3]) {
    (0..5000u64)
        .find_map(|seed| {
            let mut s = Session::<Strike9>::with_seed(seed).unwrap();
            let mut totals = [0; 3];
            for total in &mut totals {
                *total = s.state().total();
                if s.status().over || !s.state().open().contains(*total as u8) {
                    return None;
                }
                s.play(total.to_string().parse().unwrap()).unwrap();
            }
            Some((seed, totals))
        })
        .unwrap()
}

#[test]
fn strike9_keeps_the_digits_pressed_after_a_shut_for_the_next_rolls_and_shows_the_result() {
    let dir = temp_dir("strike9-keys");
    let (seed, totals) = strike9_single_tile_rolls();
    write_save(&dir, &Session::<Strike9>::with_seed(seed).unwrap().save());
    // Frames a second apart: the "+N" of a move is over by the next frame, so nothing but the
    // shell asks for the frame after a move.
    let mut h = common::harness_stepping(&dir, Some("strike9"), 1.0);
    h.run();
    // Three digits in one frame: the first shuts its tile, the others are picked from the next
    // rolls, one a frame; the last is played on a frame no input asked for.
    for t in totals {
        h.input_mut().events.push(egui::Event::Key {
            key: digit(t as usize),
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::NONE,
        });
    }
    h.run();
    assert_eq!(
        moves_of(&h, "strike9"),
        totals.map(|t| t.to_string()).to_vec()
    );
    // The screen shows the game after the last move: its tiles shut, its new roll.
    for t in totals {
        h.get_by_label(&format!("tile {t}, shut"));
    }
    let json = h.state().session("strike9").unwrap().state_json();
    let dice = json["dice"].as_array().unwrap();
    h.get_by_label(&format!(
        "Dice {} and {}: total {}",
        dice[0], dice[1], json["total"]
    ));
}

#[test]
fn a_swipe_begun_before_an_undo_is_not_played_after_it() {
    let dir = temp_dir("drag-undo");
    let mut h = harness(&dir, Some("threes"));
    let mv = h.state().session("threes").unwrap().legal_moves()[0].clone();
    h.key_press(key_of(&mv));
    h.run();
    assert_eq!(moves_of(&h, "threes"), vec![mv.clone()]);

    // A swipe the way of that move, begun on the board; U while it is under way.
    let board = h.get_by_label(views::sliding::BOARD_LABEL).rect();
    let c = board.center();
    let d = board.width() * 0.3;
    let delta = match mv.as_str() {
        "L" => Vec2::new(-d, 0.0),
        "R" => Vec2::new(d, 0.0),
        "U" => Vec2::new(0.0, -d),
        _ => Vec2::new(0.0, d),
    };
    h.drag_at(c);
    h.step();
    h.hover_at(c + delta * 0.5);
    h.step();
    h.key_press(Key::U);
    h.step();
    assert!(moves_of(&h, "threes").is_empty());
    h.hover_at(c + delta);
    h.step();
    h.drop_at(c + delta);
    h.run();
    // The undo stands: the swipe was begun on the board before it, and is dropped.
    assert!(moves_of(&h, "threes").is_empty());
    assert!(h.state().session("threes").unwrap().can_redo());
}
