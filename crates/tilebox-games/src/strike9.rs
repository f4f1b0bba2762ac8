//! Strike 9's front end: how to play, why a game ended, and the assistant: the best tiles to
//! shut from the exact odds table, the chance of shutting the box with best play, and what the
//! last move gave up.

use std::time::Duration;

use serde_json::json;
use tilebox_core::{AssistError, Assistant, Fixtures, FrontEnd, Outcome, Player, Puzzle, Session};
use tilebox_strike9::{Odds, Strike9, Strike9Move, Strike9Params, Strike9State, TileSet};

/// The front end of Strike 9.
#[derive(Debug, Clone, Copy, Default)]
pub struct Strike9FrontEnd;

impl FrontEnd<Strike9> for Strike9FrontEnd {
    fn how_to_play(&self, _: &Strike9Params) -> String {
        "Shut the box! Two dice are rolled for you. Shut open tiles whose numbers add up to \
exactly the total of the dice: click the tiles or press their numbers 1 to 9; click a chosen tile \
again to take it back. Tiles that would go over the total are greyed out. The tiles shut as soon \
as your choice makes the total, and the dice roll again. The game ends when no open tiles make \
the roll; shut all nine to win."
            .to_string()
    }

    fn end_text(&self, state: &Strike9State) -> Option<String> {
        let total = state.total();
        Some(if state.is_won() {
            "Box shut!".to_string()
        } else {
            format!("Rolled {total}: no open tiles add up to {total}.")
        })
    }

    fn assistant(&self) -> Option<&dyn Assistant<Strike9>> {
        Some(self)
    }

    fn fixtures(&self) -> Fixtures {
        let unreadable = Outcome::unreadable;
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
                json!({ "tiles": 12 }),
                json!({ "tiles": 10, "one_die": "low_total", "score": "digits" }),
                json!({ "one_die": "high_shut", "score": "golf" }),
            ],
            invalid_params: vec![
                json!({ "tiles": 11 }),
                json!({ "one_die": "sometimes" }),
                json!({ "score": "par" }),
                json!({ "colour": 9 }),
                json!(null),
                json!([9]),
            ],
        }
    }
}

/// The exact table's player: the move with the highest chance of shutting the box.
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
        Ok(Odds::shared()
            .best_move(state.open(), state.total())
            .map(Strike9Move::Shut))
    }
}

impl Assistant<Strike9> for Strike9FrontEnd {
    /// The table is solved for the standard box of nine tiles.
    fn plays(&self, params: &Strike9Params) -> bool {
        *params == Strike9Params::default()
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
            lines.push(odds_line(state));
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

/// The chance of shutting the box from the current position with best play, as a sentence.
pub fn odds_line(state: &Strike9State) -> String {
    let p = Odds::shared().after_roll(state.open(), state.total());
    format!("{} to shut the box with best play", percent(p))
}

/// What the last move of `s` gave up against the best one, as a sentence.
pub fn last_move_line(s: &Session<Strike9>) -> Option<String> {
    let before = s.previous_state()?;
    let played = s.moves().last()?.tiles();
    let odds = Odds::shared();
    let open = before.open();
    let best = odds.best_move(open, before.total())?;
    let best_p = odds.after_move(open, best);
    let played_p = odds.after_move(open, played);
    Some(if best_p - played_p <= 1e-12 {
        format!(
            "Shutting {} was the best play for {}.",
            spaced(played),
            before.total()
        )
    } else {
        format!(
            "Shutting {} gave up {} percentage points: {} would have kept {}, yours kept {}.",
            spaced(played),
            percent(best_p - played_p).trim_end_matches('%'),
            spaced(best),
            percent(best_p),
            percent(played_p)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_player_plays_the_tables_best_move_and_nothing_after_the_end() {
        let mut player = TablePlayer;
        let state = Strike9State::from_position(TileSet::ALL, [4, 5], 1).unwrap();
        let best = player.best_move(&state, Duration::ZERO).unwrap();
        assert_eq!(
            best,
            Odds::shared()
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
}
