//! Strike 9's front end: how to play (written from the variant's parameters), why a game ended,
//! and the assistant: the best dice and tiles from the exact table of the variant, the chance
//! of shutting the box (and, for the golf and digits scorings, the expected final score) with
//! best play, and what the last move gave up.

use std::time::Duration;

use serde_json::json;
use tilebox_core::{
    AssistError, Assistant, Fixtures, FrontEnd, Outcome, ParamOption, Player, Puzzle, Session,
};
use tilebox_strike9::{
    Dice, Exact, Objective, OneDie, Scoring, Strike9, Strike9Move, Strike9Params, Strike9State,
    Table, TileSet,
};

/// The front end of Strike 9.
#[derive(Debug, Clone, Copy, Default)]
pub struct Strike9FrontEnd;

/// The number of tiles in words, as How to play says it.
fn tiles_in_words(tiles: u8) -> String {
    match tiles {
        9 => "nine".into(),
        10 => "ten".into(),
        12 => "twelve".into(),
        n => n.to_string(),
    }
}

/// "one die" or "two dice".
fn dice_words(dice: Dice) -> &'static str {
    match dice {
        Dice::One => "one die",
        Dice::Two => "two dice",
    }
}

impl FrontEnd<Strike9> for Strike9FrontEnd {
    fn how_to_play(&self, params: &Strike9Params) -> String {
        let all = tiles_in_words(params.tiles);
        let mut text = String::from("Shut the box! ");
        if params.tiles != 9 {
            text.push_str(&format!("The box holds tiles 1 to {}. ", params.tiles));
        }
        text.push_str("Two dice are rolled for you");
        let one_die = match params.one_die {
            OneDie::Never => None,
            OneDie::HighShut => Some("once every tile above 6 is shut"),
            OneDie::LowTotal => Some("once the open tiles total 6 or less"),
        };
        match one_die {
            None => text.push_str(". "),
            Some(when) => text.push_str(&format!(
                "; {when} you may roll one die instead of two, and you choose before each roll. "
            )),
        }
        text.push_str(
            "Shut open tiles whose numbers add up to exactly the total of the dice: click the tiles",
        );
        if params.tiles == 9 {
            text.push_str(" or press their numbers 1 to 9");
        } else {
            text.push_str(" or press their keys");
        }
        text.push_str(
            "; click a chosen tile again to take it back. Tiles that would go over the total are \
greyed out. The tiles shut as soon as your choice makes the total, and the dice roll again. The \
game ends when no open tiles make the roll",
        );
        match params.score {
            Scoring::Shut => {
                text.push_str(&format!("; shut all {all} to win."));
                if *params != Strike9Params::default() {
                    text.push_str(
                        " Your score is the sum of the tiles you shut: higher is better.",
                    );
                }
            }
            Scoring::Golf => text.push_str(&format!(
                ". Your score is the sum of the tiles left open, 0 if you shut all {all}: lower is \
better, so shut as much as you can."
            )),
            Scoring::Digits => text.push_str(&format!(
                ". Your score is the open tiles in ascending order read as one number (1, 2 and 5 \
open score 125; 1 and 10 score 110), 0 if you shut all {all}: lower is better, so leave few tiles \
open, and small ones."
            )),
        }
        text
    }

    fn end_text(&self, state: &Strike9State) -> Option<String> {
        let total = state.total();
        let mut text = if state.is_won() {
            "Box shut!".to_string()
        } else {
            format!("Rolled {total}: no open tiles add up to {total}.")
        };
        if state.params().score.lower_is_better() {
            text.push_str(&format!(
                " Final score {} (lower is better).",
                state.score()
            ));
        }
        Some(text)
    }

    fn assistant(&self) -> Option<&dyn Assistant<Strike9>> {
        Some(self)
    }

    /// The box, the one-die rule and the scoring, combined freely.
    fn options(&self) -> Vec<ParamOption> {
        vec![
            ParamOption {
                name: "Tiles".into(),
                field: "tiles".into(),
                choices: Strike9Params::BOXES
                    .iter()
                    .map(|&n| (format!("{n} tiles"), json!(n)))
                    .collect(),
            },
            ParamOption {
                name: "One die".into(),
                field: "one_die".into(),
                choices: OneDie::ALL
                    .iter()
                    .map(|&rule| (one_die_label(rule).to_string(), json!(rule)))
                    .collect(),
            },
            ParamOption {
                name: "Scoring".into(),
                field: "score".into(),
                choices: Scoring::ALL
                    .iter()
                    .map(|&score| (scoring_label(score).to_string(), json!(score)))
                    .collect(),
            },
        ]
    }

    fn fixtures(&self) -> Fixtures {
        let unreadable = Outcome::unreadable;
        let rolled =
            || Outcome::Illegal("the dice are rolled: shut open tiles that add up to 5".into());
        Fixtures {
            // Seed 5 starts with a roll of 2 + 3.
            seed: 5,
            nonsense: vec![
                ("".into(), Outcome::Played(0)),
                (" \t ".into(), Outcome::Played(0)),
                ("?".into(), unreadable("?")),
                ("0".into(), unreadable("0")),
                (
                    "-".into(),
                    Outcome::Illegal("no tiles chosen: shut open tiles that add up to 5".into()),
                ),
                ("99".into(), unreadable("99")),
                ("1+1".into(), unreadable("1+1")),
                ("L+R".into(), unreadable("L+R")),
                ("left".into(), unreadable("left")),
                ("\u{1F600}".into(), unreadable("\u{1F600}")),
                ("+".into(), unreadable("+")),
                (
                    "10".into(),
                    Outcome::Illegal("there is no tile 10: the tiles are 1 to 9".into()),
                ),
                // The standard game rolls two dice at once: there is no choice of dice to make.
                ("1d".into(), rolled()),
                ("2d".into(), rolled()),
                ("3d".into(), unreadable("3d")),
                ("2+3".into(), Outcome::Played(1)),
                (
                    "3+2 x".into(),
                    Outcome::Unreadable {
                        position: 2,
                        text: "x".into(),
                        played: 1,
                    },
                ),
            ],
            valid_params: vec![
                json!({}),
                json!({ "tiles": 9, "one_die": "never", "score": "shut" }),
                json!({ "tiles": 10 }),
                json!({ "tiles": 12 }),
                json!({ "tiles": 10, "one_die": "low_total", "score": "digits" }),
                json!({ "one_die": "high_shut", "score": "golf" }),
                json!({ "tiles": 12, "one_die": "high_shut", "score": "shut" }),
                json!({ "score": "digits" }),
            ],
            invalid_params: vec![
                json!({ "tiles": 11 }),
                json!({ "tiles": 0 }),
                json!({ "tiles": 13 }),
                json!({ "tiles": -9 }),
                json!({ "tiles": "9" }),
                json!({ "one_die": "sometimes" }),
                json!({ "one_die": true }),
                json!({ "one_die": "High_Shut" }),
                json!({ "score": "par" }),
                json!({ "score": null }),
                json!({ "colour": 9 }),
                json!({ "tiles": 9, "dice": 1 }),
                json!(null),
                json!([9]),
                json!("golf"),
            ],
        }
    }
}

/// The table of a variant's own objective: the chance of shutting the box for `shut`, the
/// expected final score for `golf` and `digits`. `None` for parameters that are not valid (no
/// game is ever played with them).
fn table_of(params: &Strike9Params) -> Option<&'static Table> {
    Table::shared(params).ok()
}

/// How the options menu names a one-die rule.
fn one_die_label(rule: OneDie) -> &'static str {
    match rule {
        OneDie::Never => "always two dice",
        OneDie::HighShut => "one die once every tile above 6 is shut",
        OneDie::LowTotal => "one die once the open tiles total 6 or less",
    }
}

/// How the options menu names a scoring.
fn scoring_label(score: Scoring) -> &'static str {
    match score {
        Scoring::Shut => "score the shut tiles",
        Scoring::Golf => "golf (lowest wins)",
        Scoring::Digits => "digits (lowest wins)",
    }
}

/// The exact table's player: the dice, and the tiles, that are best for the variant's score
/// (the highest chance of shutting the box, or the lowest expected final score).
struct TablePlayer;

impl Player<Strike9> for TablePlayer {
    fn best_move(
        &mut self,
        state: &Strike9State,
        _: Duration,
    ) -> Result<Option<Strike9Move>, AssistError> {
        if Strike9::status(state).over {
            return Ok(None);
        }
        let table = table_of(state.params()).ok_or_else(|| {
            AssistError::CannotPlay("the table does not cover these parameters".into())
        })?;
        Ok(table.best_in(state))
    }
}

impl Assistant<Strike9> for Strike9FrontEnd {
    /// Every variant is solved exactly: the table plays every valid combination.
    fn plays(&self, params: &Strike9Params) -> bool {
        params.check().is_ok()
    }

    /// Every choice is the player's: hints only.
    fn autoplays(&self) -> bool {
        false
    }

    fn player(&self) -> Box<dyn Player<Strike9>> {
        Box::new(TablePlayer)
    }

    fn commentary(&self, session: &Session<Strike9>) -> Vec<String> {
        let state = session.state();
        let mut lines = Vec::new();
        if !state.is_over() {
            lines.extend(odds_lines(state));
        }
        lines.extend(last_move_line(session));
        lines
    }
}

/// A set as "4 + 5".
pub fn spaced(tiles: TileSet) -> String {
    let parts: Vec<String> = tiles.tiles().map(|t| t.to_string()).collect();
    parts.join(" + ")
}

/// A probability as a percentage, with more digits when it is small.
fn percent(p: f64) -> String {
    let pct = p * 100.0;
    if pct != 0.0 && pct.abs() < 0.1 {
        format!("{pct:.3}%")
    } else {
        format!("{pct:.1}%")
    }
}

/// An expected score, to two decimals.
fn points(score: f64) -> String {
    format!("{score:.2}")
}

/// The value of the position in `table`, with best play from here: before the roll while the
/// dice are chosen, else after this roll.
fn value_now(table: &Table, state: &Strike9State) -> Option<Exact> {
    if state.choosing_dice() {
        table.before_roll(state.open())
    } else {
        table.after_roll(state.open(), state.rolled_dice()?, state.total())
    }
}

/// The chance of shutting the box from the current position with best play, as a sentence.
pub fn odds_line(state: &Strike9State) -> String {
    let chance = Table::shared_chance(state.params())
        .ok()
        .and_then(|t| value_now(t, state))
        .map_or(0.0, Exact::to_f64);
    format!("{} to shut the box with best play", percent(chance))
}

/// The lines about the current position: for `shut`, the chance of shutting the box with best
/// play; for `golf` and `digits`, the expected final score with best play (the play that
/// minimises it) and the chance of shutting the box with the play that maximises that chance.
pub fn odds_lines(state: &Strike9State) -> Vec<String> {
    let params = state.params();
    if !params.score.lower_is_better() {
        return vec![odds_line(state)];
    }
    let mut lines = Vec::new();
    if let Some(expected) = table_of(params).and_then(|t| value_now(t, state)) {
        lines.push(format!(
            "Expected final score with best play: {} (lower is better)",
            points(expected.to_f64())
        ));
    }
    let chance = Table::shared_chance(params)
        .ok()
        .and_then(|t| value_now(t, state))
        .map_or(0.0, Exact::to_f64);
    lines.push(format!(
        "{} to shut the box when playing only to shut it",
        percent(chance)
    ));
    lines
}

/// What the last move of `s` gave up against the best one, as a sentence, in the variant's own
/// objective.
pub fn last_move_line(s: &Session<Strike9>) -> Option<String> {
    let before = s.previous_state()?;
    let played = *s.moves().last()?;
    let table = table_of(before.params())?;
    let open = before.open();
    let (best_text, played_text, best_value, played_value) = match played {
        Strike9Move::Roll(dice) => {
            let best = table.best_dice(open)?;
            (
                dice_words(best).to_string(),
                dice_words(dice).to_string(),
                table.after_choice(open, best)?,
                table.after_choice(open, dice)?,
            )
        }
        Strike9Move::Shut(tiles) => {
            let best = table.best_move(open, before.rolled_dice()?, before.total())?;
            (
                spaced(best),
                spaced(tiles),
                table.after_move(open, best)?,
                table.after_move(open, tiles)?,
            )
        }
    };
    // One table: every value has the same denominator, so the numerators compare exactly.
    let as_good = best_value.numerator() == played_value.numerator();
    let (best_f, played_f) = (best_value.to_f64(), played_value.to_f64());
    // What was given up, subtracted exactly before it becomes a float: expected scores of the
    // digits variants are beyond f64's exact integers, and a worse move must not read "0.00".
    let lost = best_value.numerator().abs_diff(played_value.numerator()) as f64
        / best_value.denominator() as f64;
    let chance = table.objective() == Objective::ShutChance;
    Some(match (played, as_good) {
        (Strike9Move::Roll(_), true) => {
            format!("Rolling {played_text} was the best choice.")
        }
        (Strike9Move::Shut(_), true) => format!(
            "Shutting {played_text} was the best play for {}.",
            before.total()
        ),
        (Strike9Move::Roll(_), false) if chance => format!(
            "Rolling {played_text} gave up {} percentage points: {best_text} would have kept {}, yours kept {}.",
            percent(lost).trim_end_matches('%'),
            percent(best_f),
            percent(played_f)
        ),
        (Strike9Move::Roll(_), false) => format!(
            "Rolling {played_text} gave up {} points of expected score: {best_text} would have left {}, yours left {}.",
            points(lost),
            points(best_f),
            points(played_f)
        ),
        (Strike9Move::Shut(_), false) if chance => format!(
            "Shutting {played_text} gave up {} percentage points: {best_text} would have kept {}, yours kept {}.",
            percent(lost).trim_end_matches('%'),
            percent(best_f),
            percent(played_f)
        ),
        (Strike9Move::Shut(_), false) => format!(
            "Shutting {played_text} gave up {} points of expected score: {best_text} would have left {}, yours left {}.",
            points(lost),
            points(best_f),
            points(played_f)
        ),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Every valid combination of the parameters.
    fn every_params() -> Vec<Strike9Params> {
        Strike9Params::every().collect()
    }

    /// The tiles of a bit mask (tile t is bit t − 1).
    fn tiles_of(mask: u16) -> impl Iterator<Item = u16> {
        (1..=12).filter(move |t| mask & (1 << (t - 1)) != 0)
    }

    /// An independent brute force, in floating point, of the value of `open` before the roll:
    /// the chance of shutting the box (`chance`) or the expected final score, the dice choice
    /// included.
    fn brute(p: &Strike9Params, chance: bool, open: u16, memo: &mut HashMap<u16, f64>) -> f64 {
        if open == 0 {
            return if chance { 1.0 } else { 0.0 };
        }
        if let Some(&v) = memo.get(&open) {
            return v;
        }
        let lost = if chance {
            0.0
        } else if p.score == Scoring::Golf {
            tiles_of(open).sum::<u16>() as f64
        } else {
            tiles_of(open)
                .fold(String::new(), |s, t| s + &t.to_string())
                .parse::<f64>()
                .unwrap()
        };
        let after = |total: u16, memo: &mut HashMap<u16, f64>| -> f64 {
            let mut best: Option<f64> = None;
            let mut sub = open;
            while sub != 0 {
                if tiles_of(sub).sum::<u16>() == total {
                    let v = brute(p, chance, open & !sub, memo);
                    best = Some(match best {
                        None => v,
                        Some(b) if chance => b.max(v),
                        Some(b) => b.min(v),
                    });
                }
                sub = (sub - 1) & open;
            }
            best.unwrap_or(lost)
        };
        let mut two = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                two += after(a + b, memo) / 36.0;
            }
        }
        let one_allowed = match p.one_die {
            OneDie::Never => false,
            OneDie::HighShut => open & !0b11_1111 == 0,
            OneDie::LowTotal => tiles_of(open).sum::<u16>() <= 6,
        };
        let v = if one_allowed {
            let one: f64 = (1..=6).map(|t| after(t, memo) / 6.0).sum();
            if chance { one.max(two) } else { one.min(two) }
        } else {
            two
        };
        memo.insert(open, v);
        v
    }

    fn full(p: &Strike9Params) -> u16 {
        (1u16 << p.tiles) - 1
    }

    #[test]
    fn the_standard_box_keeps_its_figures_and_words() {
        let p = Strike9Params::default();
        let table = Table::shared(&p).unwrap();
        // The published figure for nine tiles and two dice.
        let chance = table.before_roll(p.full_box()).unwrap().to_f64();
        assert_eq!(format!("{chance:.6}"), "0.071432");
        let brute = brute(&p, true, full(&p), &mut HashMap::new());
        assert!((chance - brute).abs() < 1e-12, "{chance} {brute}");
        assert_eq!(
            Strike9FrontEnd.how_to_play(&p),
            "Shut the box! Two dice are rolled for you. Shut open tiles whose numbers add up to \
exactly the total of the dice: click the tiles or press their numbers 1 to 9; click a chosen tile \
again to take it back. Tiles that would go over the total are greyed out. The tiles shut as soon \
as your choice makes the total, and the dice roll again. The game ends when no open tiles make \
the roll; shut all nine to win."
        );
    }

    #[test]
    fn how_to_play_tells_each_variants_box_dice_and_scoring() {
        for p in every_params() {
            let text = Strike9FrontEnd.how_to_play(&p);
            if p.tiles != 9 {
                assert!(
                    text.contains(&format!("tiles 1 to {}", p.tiles)),
                    "{p:?}: {text}"
                );
                assert!(!text.contains("1 to 9;"), "{p:?}: {text}");
            }
            let rule = match p.one_die {
                OneDie::Never => None,
                OneDie::HighShut => {
                    Some("once every tile above 6 is shut you may roll one die instead of two")
                }
                OneDie::LowTotal => {
                    Some("once the open tiles total 6 or less you may roll one die instead of two")
                }
            };
            match rule {
                Some(rule) => assert!(text.contains(rule), "{p:?}: {text}"),
                None => assert!(!text.contains("one die"), "{p:?}: {text}"),
            }
            assert_eq!(
                text.contains("lower is better"),
                p.score != Scoring::Shut,
                "{p:?}: {text}"
            );
            match p.score {
                Scoring::Shut => assert!(text.contains("to win"), "{text}"),
                Scoring::Golf => assert!(text.contains("sum of the tiles left open"), "{text}"),
                Scoring::Digits => assert!(text.contains("125"), "{text}"),
            }
            assert!(!text.contains('\n'), "{text}");
        }
    }

    #[test]
    fn the_tables_match_an_independent_brute_force_on_nine_and_ten_tiles() {
        for p in every_params().into_iter().filter(|p| p.tiles < 12) {
            let chance = Table::shared_chance(&p)
                .unwrap()
                .before_roll(p.full_box())
                .unwrap()
                .to_f64();
            let want = brute(&p, true, full(&p), &mut HashMap::new());
            assert!((chance - want).abs() < 1e-12, "{p:?}: {chance} {want}");
            if p.score != Scoring::Shut {
                let expected = table_of(&p)
                    .unwrap()
                    .before_roll(p.full_box())
                    .unwrap()
                    .to_f64();
                let want = brute(&p, false, full(&p), &mut HashMap::new());
                assert!(
                    (expected - want).abs() < 1e-9 * want.max(1.0),
                    "{p:?}: {expected} {want}"
                );
            }
        }
    }

    #[test]
    fn commentary_gives_the_odds_and_what_a_move_gave_up() {
        // A full box and a roll of 7: shutting 1 + 6 gives up 3.4 points against the 7.
        let state = Strike9State::from_position(TileSet::ALL, [3, 4], 1).unwrap();
        assert_eq!(odds_line(&state), "7.1% to shut the box with best play");
        let mut session = (0..10_000)
            .map(|seed| Session::<Strike9>::with_seed(seed).unwrap())
            .find(|s| s.state().total() == 7)
            .expect("a seed that rolls 7");
        assert_eq!(
            Strike9FrontEnd.commentary(&session),
            ["7.1% to shut the box with best play"]
        );
        session.play_text("1+6").unwrap();
        let lines = Strike9FrontEnd.commentary(&session);
        assert_eq!(
            lines.last().map(String::as_str),
            Some(
                "Shutting 1 + 6 gave up 3.4 percentage points: 7 would have kept 7.1%, yours kept 3.7%."
            ),
            "{lines:?}"
        );
    }

    #[test]
    fn golf_and_digits_commentary_gives_the_expected_score_and_the_chance() {
        for p in every_params()
            .into_iter()
            .filter(|p| p.score != Scoring::Shut)
        {
            let session = Session::<Strike9>::new(p, 3).unwrap();
            let state = session.state();
            let lines = Strike9FrontEnd.commentary(&session);
            assert_eq!(lines.len(), 2, "{lines:?}");
            let expected = value_now(table_of(&p).unwrap(), state).unwrap().to_f64();
            assert_eq!(
                lines[0],
                format!("Expected final score with best play: {expected:.2} (lower is better)")
            );
            let chance = value_now(Table::shared_chance(&p).unwrap(), state)
                .unwrap()
                .to_f64();
            assert_eq!(
                lines[1],
                format!(
                    "{} to shut the box when playing only to shut it",
                    percent(chance)
                )
            );
        }
        // The start of a game before the roll, by brute force: the golf box of nine tiles with
        // one die once 7, 8 and 9 are shut.
        let p = Strike9Params {
            one_die: OneDie::HighShut,
            score: Scoring::Golf,
            ..Strike9Params::default()
        };
        let want = brute(&p, false, full(&p), &mut HashMap::new());
        let got = table_of(&p).unwrap().before_roll(p.full_box()).unwrap();
        assert!((got.to_f64() - want).abs() < 1e-9, "{want}");
    }

    #[test]
    fn figures_by_hand_for_one_tile_left() {
        // Tile 1 alone, one die allowed: one roll in six shuts it, else the game ends with 1
        // open (a golf or digits score of 1): a chance of 1/6 and an expected score of 5/6.
        for score in [Scoring::Golf, Scoring::Digits] {
            let p = Strike9Params {
                one_die: OneDie::HighShut,
                score,
                ..Strike9Params::default()
            };
            let chance = Table::shared_chance(&p).unwrap();
            assert_eq!(
                chance.before_roll(TileSet::first(1)).unwrap().reduced(),
                (1, 6)
            );
            let expected = table_of(&p).unwrap();
            assert_eq!(
                expected.before_roll(TileSet::first(1)).unwrap().reduced(),
                (5, 6)
            );
            let state = Strike9State::from_position_with(&p, TileSet::first(1), &[], 1).unwrap();
            assert_eq!(
                odds_lines(&state),
                [
                    "Expected final score with best play: 0.83 (lower is better)",
                    "16.7% to shut the box when playing only to shut it"
                ]
            );
        }
        // Tile 7 alone with two dice only: 6 rolls in 36 make 7; golf leaves 7 otherwise.
        let p = Strike9Params::default().with_score(Scoring::Golf);
        let seven = TileSet::from_tiles([7]).unwrap();
        assert_eq!(
            table_of(&p).unwrap().before_roll(seven).unwrap().reduced(),
            (35, 6)
        );
    }

    #[test]
    fn a_dice_choice_that_gives_something_up_is_told() {
        // With only tile 1 open and one die allowed, one die shuts it one time in six and two
        // dice never do.
        for score in [Scoring::Shut, Scoring::Golf, Scoring::Digits] {
            let p = Strike9Params {
                one_die: OneDie::HighShut,
                score,
                ..Strike9Params::default()
            };
            let state = Strike9State::from_position_with(&p, TileSet::first(1), &[], 1).unwrap();
            let mut player = TablePlayer;
            assert_eq!(
                player.best_move(&state, Duration::ZERO).unwrap(),
                Some(Strike9Move::Roll(Dice::One))
            );
        }
        let mut seen = [false; 2];
        for p in every_params()
            .into_iter()
            .filter(|p| p.one_die != OneDie::Never && p.tiles == 9)
        {
            let table = table_of(&p).unwrap();
            for seed in 0..200 {
                let mut session = Session::<Strike9>::new(p, seed).unwrap();
                let mut player = TablePlayer;
                while !session.state().is_over() && !session.state().choosing_dice() {
                    let mv = player.best_move(session.state(), Duration::ZERO).unwrap();
                    session.play(mv.unwrap()).unwrap();
                }
                if session.state().is_over() {
                    continue;
                }
                let open = session.state().open();
                let best = table.best_dice(open).unwrap();
                for dice in Dice::BOTH {
                    let mut s = session.clone();
                    s.play(Strike9Move::Roll(dice)).unwrap();
                    let line = last_move_line(&s).unwrap();
                    let words = dice_words(dice);
                    if table.after_choice(open, dice) == table.after_choice(open, best) {
                        assert_eq!(line, format!("Rolling {words} was the best choice."));
                        seen[0] = true;
                    } else {
                        assert!(
                            line.starts_with(&format!("Rolling {words} gave up ")),
                            "{line}"
                        );
                        let unit = if p.score == Scoring::Shut {
                            "percentage points"
                        } else {
                            "points of expected score"
                        };
                        assert!(line.contains(unit), "{line}");
                        assert!(line.contains(dice_words(best)), "{line}");
                        seen[1] = true;
                    }
                }
            }
        }
        assert_eq!(seen, [true, true]);
    }

    #[test]
    fn the_player_plays_every_variant_to_its_end_with_the_tables_moves() {
        for p in every_params() {
            assert!(Strike9FrontEnd.plays(&p), "{p:?}");
            let table = table_of(&p).unwrap();
            let mut player = TablePlayer;
            for seed in 0..5 {
                let mut session = Session::<Strike9>::new(p, seed).unwrap();
                while let Some(mv) = player.best_move(session.state(), Duration::ZERO).unwrap() {
                    let state = session.state();
                    let want = if state.choosing_dice() {
                        table.best_dice(state.open()).map(Strike9Move::Roll)
                    } else {
                        table
                            .best_move(state.open(), state.rolled_dice().unwrap(), state.total())
                            .map(Strike9Move::Shut)
                    };
                    assert_eq!(Some(mv), want);
                    session.play(mv).unwrap();
                }
                assert!(session.status().over);
                let end = Strike9FrontEnd.end_text(session.state()).unwrap();
                if p.score.lower_is_better() {
                    assert!(
                        end.ends_with(&format!(
                            "Final score {} (lower is better).",
                            session.state().score()
                        )),
                        "{end}"
                    );
                } else {
                    assert!(!end.contains("Final score"), "{end}");
                }
            }
        }
        assert!(!Strike9FrontEnd.plays(&Strike9Params {
            tiles: 11,
            ..Strike9Params::default()
        }));
    }

    #[test]
    fn the_player_plays_the_tables_best_move_and_nothing_after_the_end() {
        let mut player = TablePlayer;
        let state = Strike9State::from_position(TileSet::ALL, [4, 5], 1).unwrap();
        let best = player.best_move(&state, Duration::ZERO).unwrap();
        assert_eq!(
            best,
            tilebox_strike9::Odds::shared()
                .best_move(TileSet::ALL, 9)
                .map(Strike9Move::Shut)
        );
        let mut session = Session::<Strike9>::with_seed(3).unwrap();
        while let Some(mv) = player.best_move(session.state(), Duration::ZERO).unwrap() {
            session.play(mv).unwrap();
        }
        assert!(session.status().over);
        assert!(Strike9FrontEnd.end_text(session.state()).is_some());
    }

    /// A worse move never reads as giving up nothing, even where expected scores are beyond
    /// f64's exact integers (the digits of twelve tiles).
    #[test]
    fn what_a_worse_move_gave_up_is_never_zero() {
        let params = Strike9Params {
            tiles: 12,
            one_die: OneDie::Never,
            score: Scoring::Digits,
        };
        let table = Table::shared(&params).unwrap();
        let mut worse = 0;
        for seed in 0..40 {
            let game = Session::<Strike9>::new(params, seed).unwrap();
            let state = game.state();
            let (open, total) = (state.open(), state.total());
            let best = table
                .best_move(open, state.rolled_dice().unwrap(), total)
                .unwrap();
            let best_value = table.after_move(open, best).unwrap();
            for mv in Strike9::legal_moves(state) {
                let Strike9Move::Shut(tiles) = mv else {
                    continue;
                };
                if table.after_move(open, tiles).unwrap().numerator() == best_value.numerator() {
                    continue;
                }
                let mut played = game.clone();
                played.play(mv).unwrap();
                let line = last_move_line(&played).unwrap();
                assert!(line.contains("gave up"), "{line}");
                assert!(!line.contains("gave up 0.00 "), "{line}");
                worse += 1;
            }
        }
        assert!(worse > 0, "no worse move was tried");
    }
}
