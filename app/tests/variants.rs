//! Strike 9's variants in the real app, driven by labels and keys: boxes of 10 and 12 tiles, the
//! choice of one die or two, its hint, and bests where lower is better. The entries are presets
//! of a registry built here (the catalogue with them added).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{harness_over, read_json_file, temp_dir, write_save};
use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tilebox::TileboxApp;
use tilebox_core::{Puzzle, Registry, Session};
use tilebox_strike9::{OneDie, Scoring, Strike9, Strike9Params, Strike9State, Table};

type App = Harness<'static, TileboxApp>;

const TEN: &str = "test-ten";
const TWELVE: &str = "test-twelve";
const GOLF: &str = "test-golf";
const GOLF_TITLE: &str = "Golf Box";

fn params(tiles: u8, one_die: OneDie, score: Scoring) -> Strike9Params {
    Strike9Params {
        tiles,
        one_die,
        score,
    }
}

fn golf() -> Strike9Params {
    params(9, OneDie::HighShut, Scoring::Golf)
}

/// The catalogue with a 10-tile, a 12-tile and a golf box (9 tiles, one die once 7 to 9 are
/// shut) added.
fn registry() -> Registry {
    tilebox_games::register(Registry::new())
        .preset::<Strike9>(
            TEN,
            "Ten Box",
            "Ten tiles.",
            params(10, OneDie::Never, Scoring::Shut),
        )
        .preset::<Strike9>(
            TWELVE,
            "Twelve Box",
            "Twelve tiles.",
            params(12, OneDie::Never, Scoring::Shut),
        )
        .preset::<Strike9>(GOLF, GOLF_TITLE, "Golf scoring.", golf())
}

/// Writes `session` as the game in progress of entry `id`.
fn save_as(dir: &Path, id: &str, session: &Session<Strike9>) {
    let mut saved = session.save();
    saved.game = id.to_string();
    write_save(dir, &saved);
}

fn state(h: &App, id: &str) -> Strike9State {
    h.state()
        .session(id)
        .unwrap()
        .as_any()
        .downcast_ref::<Session<Strike9>>()
        .unwrap()
        .state()
        .clone()
}

fn moves(h: &App, id: &str) -> Vec<String> {
    h.state()
        .session(id)
        .map(|s| s.save().moves)
        .unwrap_or_default()
}

/// How many tiles speak, and checks that tiles 1 to `n` do, open or shut as the game has them.
fn assert_tiles(h: &App, id: &str, n: u8) {
    let st = state(h, id);
    for t in 1..=n {
        let shut = !st.open().contains(t);
        h.get_by_label(&tilebox::views::strike9::tile_label(t, shut));
    }
    let spoken = common::spoken_all(h)
        .into_iter()
        .filter(|(text, _)| text.starts_with("tile "))
        .count();
    assert_eq!(spoken, usize::from(n), "{id}");
}

/// A seed of `params` whose first rolls are `totals`, each shut as the single tile of that
/// number.
fn seed_rolling(params: Strike9Params, totals: &[u32]) -> u64 {
    (0..200_000u64)
        .find(|&seed| {
            let mut s = Session::<Strike9>::new(params, seed).unwrap();
            totals.iter().all(|&t| {
                let ok = s.state().total() == t && !s.status().over;
                ok && s.play(t.to_string().parse().unwrap()).is_ok()
            })
        })
        .unwrap()
}

#[test]
fn a_ten_tile_box_speaks_ten_tiles_and_0_picks_tile_10() {
    let dir = temp_dir("ten");
    let p = params(10, OneDie::Never, Scoring::Shut);
    let seed = seed_rolling(p, &[10]);
    save_as(&dir, TEN, &Session::new(p, seed).unwrap());
    let mut h = harness_over(registry(), &dir, Some(TEN));
    assert_tiles(&h, TEN, 10);
    h.key_press(Key::Num0);
    h.run();
    assert_eq!(moves(&h, TEN), ["10"]);
    h.get_by_label("tile 10, shut");
    assert_tiles(&h, TEN, 10);
    // How to play names the key of tile 10.
    h.key_press(Key::F1);
    h.run();
    h.get_by_label_contains("0 picks tile 10");
}

#[test]
fn a_twelve_tile_box_speaks_twelve_tiles_and_minus_and_equals_pick_11_and_12() {
    let dir = temp_dir("twelve");
    let p = params(12, OneDie::Never, Scoring::Shut);
    let seed = seed_rolling(p, &[12, 11]);
    save_as(&dir, TWELVE, &Session::new(p, seed).unwrap());
    let mut h = harness_over(registry(), &dir, Some(TWELVE));
    assert_tiles(&h, TWELVE, 12);
    h.get_by_label("tile 12, open").rect();
    // The twelve tiles fit the window.
    let width = h.ctx.content_rect().width();
    for t in [1, 12] {
        let rect = h.get_by_label(&format!("tile {t}, open")).rect();
        assert!(rect.left() >= 0.0 && rect.right() <= width, "{t}: {rect:?}");
    }
    h.key_press(Key::Equals);
    h.run();
    assert_eq!(moves(&h, TWELVE), ["12"]);
    h.key_press(Key::Minus);
    h.run();
    assert_eq!(moves(&h, TWELVE), ["12", "11"]);
    h.get_by_label("tile 11, shut");
    h.get_by_label("tile 12, shut");
    assert_tiles(&h, TWELVE, 12);
    h.key_press(Key::F1);
    h.run();
    h.get_by_label_contains("- (minus) picks 11 and = (equals) picks 12");
}

#[test]
fn keys_beyond_the_standard_box_pick_nothing_in_it() {
    let dir = temp_dir("nine-keys");
    let mut h = harness_over(registry(), &dir, Some("strike9"));
    assert_tiles(&h, "strike9", 9);
    for key in [Key::Num0, Key::Minus, Key::Equals, Key::O, Key::W] {
        h.key_press(key);
        h.run();
    }
    assert!(moves(&h, "strike9").is_empty());
    assert_eq!(h.state().message("strike9"), None);
    assert!(h.query_by_label("Roll one die (O)").is_none());
}

/// A game of the golf box (one die once 7 to 9 are shut) where the choice of dice is pending,
/// played by shutting the highest tiles first, whose best choice per the exact table is
/// `want` (any if `None`).
fn choosing_game(want: Option<tilebox_strike9::Dice>) -> Session<Strike9> {
    (0..5000u64)
        .find_map(|seed| {
            let mut s = Session::<Strike9>::new(golf(), seed).unwrap();
            while !s.state().choosing_dice() {
                let mv = Strike9::legal_moves(s.state())
                    .into_iter()
                    .max_by_key(|m| m.tiles().tiles().max())?;
                s.play(mv).unwrap();
            }
            let best = Table::shared(&golf()).unwrap().best_dice(s.state().open());
            (want.is_none() || best == want).then_some(s)
        })
        .unwrap()
}

#[test]
fn the_dice_choice_shows_two_buttons_with_their_keys_and_plays_1d_or_2d() {
    let dir = temp_dir("dice-choice");
    let session = choosing_game(None);
    let before = session.moves().len();
    save_as(&dir, GOLF, &session);
    let mut h = harness_over(registry(), &dir, Some(GOLF));
    h.get_by_label("Roll one die (O)");
    h.get_by_label("Roll two dice (W)");
    h.get_by_label_contains("Roll one die or two");
    let dice_shown = common::spoken_all(&h)
        .into_iter()
        .any(|(text, _)| text.starts_with("Dice ") || text.starts_with("Die "));
    assert!(!dice_shown, "no dice yet");
    // Tiles wait for the dice.
    let open = state(&h, GOLF).open();
    let t = open.tiles().next().unwrap();
    h.get_by_label(&format!("tile {t}, open")).click();
    h.run();
    assert_eq!(moves(&h, GOLF).len(), before);
    assert_eq!(
        h.state().message(GOLF),
        Some("Choose one die or two first.")
    );

    // O rolls one die, drawn as one.
    h.key_press(Key::O);
    h.run();
    assert_eq!(moves(&h, GOLF).last().unwrap(), "1d");
    let st = state(&h, GOLF);
    let [d] = st.dice() else {
        panic!("one die: {:?}", st.dice())
    };
    h.get_by_label(&format!("Die {d}: total {d}"));
    assert!(h.query_by_label("Roll one die (O)").is_none());

    // Undo, then W rolls two.
    h.key_press(Key::U);
    h.run();
    h.get_by_label("Roll two dice (W)");
    h.key_press(Key::W);
    h.run();
    assert_eq!(moves(&h, GOLF).last().unwrap(), "2d");
    let st = state(&h, GOLF);
    let [a, b] = st.dice() else {
        panic!("two dice: {:?}", st.dice())
    };
    h.get_by_label(&format!("Dice {a} and {b}: total {}", st.total()));

    // And the buttons by click.
    for (label, mv) in [("Roll one die (O)", "1d"), ("Roll two dice (W)", "2d")] {
        h.key_press(Key::U);
        h.run();
        h.get_by_label(label).click();
        h.run();
        assert_eq!(moves(&h, GOLF).last().unwrap(), mv, "{label}");
        assert_eq!(moves(&h, GOLF).len(), before + 1);
    }

    // How to play says the keys.
    h.key_press(Key::F1);
    h.run();
    h.get_by_label_contains("O or \"Roll one die\", W or \"Roll two dice\"");
}

/// Steps frames (with a short real pause, for the AI's thread) until `done` holds.
fn step_until(h: &mut App, mut done: impl FnMut(&App) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(start.elapsed() < Duration::from_secs(20), "gave up waiting");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_hint_names_and_rings_the_best_choice_of_dice_and_goes_with_the_roll() {
    use tilebox_strike9::Dice;
    for want in Dice::BOTH {
        let dir = temp_dir("dice-hint");
        let session = choosing_game(Some(want));
        save_as(&dir, GOLF, &session);
        let mut h = harness_over(registry(), &dir, Some(GOLF));
        let (line, label) = match want {
            Dice::One => ("Hint: roll one die", "Roll one die (O)"),
            Dice::Two => ("Hint: roll two dice", "Roll two dice (W)"),
        };
        h.key_press(Key::H);
        step_until(&mut h, |h| h.query_by_label(line).is_some());
        // The hint is played as a player would: its button.
        let entry = registry().get(GOLF).unwrap().clone();
        assert_eq!(
            tilebox::views::for_entry(&entry).inputs_for(&want.to_string()),
            [tilebox::views::PlayInput::Click(label.to_string())]
        );
        common::play_as_player(&mut h, &entry, &want.to_string());
        assert_eq!(moves(&h, GOLF).last().unwrap(), &want.to_string());
        assert!(
            h.query_by_label(line).is_none(),
            "the hint goes with the roll"
        );
    }
}

/// Golf games of the golf box that end on their next move (shutting the highest tiles first),
/// with the final score each ends with: one game for each of the first distinct final scores
/// found, at most `n`.
fn nearly_finished_golf_games(n: usize) -> Vec<(Session<Strike9>, String, u64)> {
    let mut found: Vec<(Session<Strike9>, String, u64)> = Vec::new();
    for seed in 0..5000u64 {
        let pick = |st: &Strike9State| {
            Strike9::legal_moves(st)
                .into_iter()
                .max_by_key(|m| (m.tiles().tiles().max(), m.to_string()))
        };
        let Some((s, last)) =
            common::play_until::<Strike9>(golf(), seed, pick, |status| status.over)
        else {
            continue;
        };
        let mut end = Session::<Strike9>::replay(golf(), seed, s.moves().to_vec()).unwrap();
        end.play(last.parse().unwrap()).unwrap();
        let score = end.score();
        if found.iter().all(|(_, _, sc)| *sc != score) {
            found.push((s, last, score));
        }
        if found.len() == n {
            break;
        }
    }
    found
}

fn lowest_on_disk(dir: &Path, id: &str) -> Option<u64> {
    read_json_file(&dir.join("scores.json"))["games"][id]["lowest"].as_u64()
}

/// Finishes the golf game `session` (one move before its end) in the app over `dir`, by the
/// player's inputs; returns the harness, on the finished game.
fn finish(dir: &Path, session: &Session<Strike9>, last: &str) -> App {
    save_as(dir, GOLF, session);
    let mut h = harness_over(registry(), dir, Some(GOLF));
    let entry = registry().get(GOLF).unwrap().clone();
    common::play_as_player(&mut h, &entry, last);
    assert!(h.state().session(GOLF).unwrap().status().over);
    h
}

#[test]
fn a_lower_is_better_best_is_the_lowest_finished_score_in_the_file_the_bar_and_the_cards() {
    let dir = temp_dir("golf-best");
    // The previous release's score table: its bests stay as they were, higher is better.
    let release =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/release-0.1.0/scores.json");
    std::fs::copy(&release, dir.join("scores.json")).unwrap();

    let mut games = nearly_finished_golf_games(3);
    assert_eq!(
        games.len(),
        3,
        "three golf games with different final scores"
    );
    games.sort_by_key(|(_, _, score)| *score);
    let [
        (low, low_last, low_score),
        (mid, mid_last, mid_score),
        (high, high_last, high_score),
    ] = <[_; 3]>::try_from(games).ok().unwrap();

    // A game in progress sets no best: none yet, not 0 nor its running score.
    save_as(&dir, GOLF, &mid);
    let h = harness_over(registry(), &dir, Some(GOLF));
    let running = h.state().session(GOLF).unwrap().score();
    assert!(running > 0);
    h.get_by_label("Best: none yet, lower is better");
    h.get_by_label(&format!("Score: {running}"));
    assert_eq!(lowest_on_disk(&dir, GOLF), None);
    drop(h);

    // The first finished game sets it.
    let h = finish(&dir, &mid, &mid_last);
    assert_eq!(lowest_on_disk(&dir, GOLF), Some(mid_score));
    h.get_by_label(&format!("Best: {mid_score}, lower is better"));
    drop(h);

    // A higher final score keeps it; a lower one lowers it.
    let h = finish(&dir, &high, &high_last);
    assert_eq!(lowest_on_disk(&dir, GOLF), Some(mid_score));
    h.get_by_label(&format!("Best: {mid_score}, lower is better"));
    drop(h);
    let mut h = finish(&dir, &low, &low_last);
    assert_eq!(lowest_on_disk(&dir, GOLF), Some(low_score));
    h.get_by_label(&format!("Best: {low_score}, lower is better"));
    assert!(low_score < mid_score && mid_score < high_score);

    let scores = read_json_file(&dir.join("scores.json"));
    assert_eq!(scores["games"][GOLF]["played"], 3);
    // The release's entries are untouched: their bests, higher is better, and no lowest.
    let old = read_json_file(&release);
    for id in ["2048", "strike9", "threes"] {
        assert_eq!(scores["games"][id], old["games"][id], "{id}");
    }

    // The launcher: the golf box's card, and its group's, say the lowest and that lower is
    // better; the standard box keeps its best of the release.
    // Escape leads to the group's list, then to the games.
    for _ in 0..2 {
        h.key_press(Key::Escape);
        h.run();
    }
    assert_eq!(h.state().screen(), tilebox::Screen::Launcher);
    let registry = registry();
    let golf_card = common::entry_card_lines(&mut h, &registry, GOLF);
    // A golf game that shuts the box (final score 0) is won.
    let won = [low_score, mid_score, high_score]
        .iter()
        .filter(|&&s| s == 0)
        .count();
    let line = format!("Best {low_score} (lower is better)   ·   Played 3   ·   Won {won}");
    assert!(golf_card.contains(&line), "{golf_card:?}");
    let nine_card = common::entry_card_lines(&mut h, &registry, "strike9");
    assert!(
        nine_card.iter().any(|l| l.starts_with("Best 45   ·   ")),
        "{nine_card:?}"
    );
    let group = common::card_lines(&h, "Play Strike 9");
    let group_line = group.iter().find(|l| l.contains("versions")).unwrap();
    assert!(
        group_line.contains("Best 45 in Strike 9")
            && group_line.contains(&format!(
                "Best {low_score} (lower is better) in {GOLF_TITLE}"
            )),
        "{group_line}"
    );
}
