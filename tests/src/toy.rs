//! A toy game kind that exists only in the tests, to check that the hosts and the shared tests
//! take any registered kind, not just the ones they were written with.
//!
//! The toy is a row of cells holding pebbles, one to three each at the start (drawn from the
//! seed). A move takes a pebble from a cell, written as the cell's number (`"1"` to `"9"`); a
//! quarter of the time a pebble then rolls from a non-empty cell to any cell (the game's
//! randomness, drawn from the [`GameRng`] in the state). Taking from an empty cell changes
//! nothing. Every move takes one pebble for good, so every game ends, won, once the row is
//! empty; the score is the pebbles taken. Its parameters are the row's length, 4 by default.
//!
//! Its top tile ([`Puzzle::top_tile`]) is the pebbles taken, so that a host's report of the
//! tiles games reached (`tilebox-cli bench`'s `reach`) has something to report.
//!
//! It has no front end of its own: [`registry`] registers it with `.with::<Toy>()` (the plain
//! front end) and a preset of nine cells, so a host shows it in its plain view. For a host's
//! tests of hints and benches, [`ToyCoach`] is a front end with an assistant, registered with
//! [`with_toy_front_end`]: its player plays one entry to its end or refuses it, by the seed, and
//! leaves the other without a player.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tilebox_core::{
    AssistError, Assistant, FrontEnd, GameInfo, GameRng, MoveError, ParamsError, ParseMoveError,
    Player, Puzzle, Registry, Status,
};

/// The toy game kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Toy;

/// How a toy game is set up. Its JSON form is `{"cells": 4}`; a missing `cells` is 4, unknown
/// fields are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ToyParams {
    /// The length of the row, 1 to [`ToyParams::MAX_CELLS`].
    pub cells: usize,
}

impl ToyParams {
    /// The longest row.
    pub const MAX_CELLS: usize = 9;
}

impl Default for ToyParams {
    fn default() -> Self {
        Self { cells: 4 }
    }
}

/// A toy game at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct ToyState {
    pebbles: Vec<u8>,
    taken: u64,
    rng: GameRng,
}

impl ToyState {
    /// The pebbles in each cell, from cell 1.
    pub fn pebbles(&self) -> &[u8] {
        &self.pebbles
    }

    /// The pebbles still in the row.
    pub fn pebbles_left(&self) -> u64 {
        self.pebbles.iter().map(|&n| u64::from(n)).sum()
    }
}

/// The text form: the pebbles of each cell, then the pebbles taken (`2 0 3 1 | taken 4`).
impl fmt::Display for ToyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.pebbles.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{n}")?;
        }
        write!(f, " | taken {}", self.taken)
    }
}

/// Take a pebble from cell `n` (from 1), written `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take(pub usize);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Take {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.as_bytes() {
            [digit @ b'1'..=b'9'] => Ok(Take(usize::from(digit - b'0'))),
            _ => Err(ParseMoveError::new(s, "a move is a cell number, 1 to 9")),
        }
    }
}

impl Puzzle for Toy {
    type Params = ToyParams;
    type State = ToyState;
    type Move = Take;

    const INFO: GameInfo = GameInfo {
        id: "toy",
        title: "Toy",
        description: "Take the pebbles from a row of cells, one at a time (a game of the tests).",
    };

    fn new_game(params: &ToyParams, seed: u64) -> Result<ToyState, ParamsError> {
        if !(1..=ToyParams::MAX_CELLS).contains(&params.cells) {
            return Err(ParamsError(format!(
                "a row of {} cells: the toy has 1 to {}",
                params.cells,
                ToyParams::MAX_CELLS
            )));
        }
        let mut rng = GameRng::from_seed(seed);
        let pebbles = (0..params.cells).map(|_| 1 + rng.below(3) as u8).collect();
        Ok(ToyState {
            pebbles,
            taken: 0,
            rng,
        })
    }

    fn apply(state: &ToyState, mv: &Take) -> Result<ToyState, MoveError> {
        if Self::status(state).over {
            return Err(MoveError::GameOver);
        }
        let cells = state.pebbles.len();
        let cell = mv.0.checked_sub(1).filter(|&i| i < cells).ok_or_else(|| {
            MoveError::Illegal(format!("there is no cell {}: the row has {cells}", mv.0))
        })?;
        if state.pebbles[cell] == 0 {
            return Err(MoveError::NoEffect);
        }
        let mut next = state.clone();
        next.pebbles[cell] -= 1;
        next.taken += 1;
        if next.rng.below(4) == 0 {
            let full: Vec<usize> = (0..cells).filter(|&i| next.pebbles[i] > 0).collect();
            if !full.is_empty() {
                let from = full[next.rng.index(full.len())];
                let to = next.rng.index(cells);
                next.pebbles[from] -= 1;
                next.pebbles[to] += 1;
            }
        }
        Ok(next)
    }

    fn status(state: &ToyState) -> Status {
        let empty = state.pebbles.iter().all(|&n| n == 0);
        Status {
            won: empty,
            over: empty,
        }
    }

    fn score(state: &ToyState) -> u64 {
        state.taken
    }

    fn legal_moves(state: &ToyState) -> Vec<Take> {
        (0..state.pebbles.len())
            .filter(|&i| state.pebbles[i] > 0)
            .map(|i| Take(i + 1))
            .collect()
    }

    fn view(state: &ToyState) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("pebbles".into(), Value::from(state.pebbles.clone()));
        map
    }

    /// The pebbles taken, as the score: a game that took more went further.
    fn top_tile(state: &ToyState) -> Option<u64> {
        Some(state.taken)
    }
}

/// A front end for the toy with an assistant, for a host's tests of hints, autoplay and
/// benches. Its assistant plays rows of up to [`ToyCoach::MAX_CELLS`] cells (the entry `toy`,
/// not `toy-9`); its player takes a pebble from the fullest cell (the first of equals), but
/// counts to [`ToyCoach::MAX_PEBBLES`] only: it refuses a row holding more, with
/// [`AssistError::CannotPlay`], as the 2048 player refuses tiles its board cannot hold. A row of
/// four cells starts with 4 to 12 pebbles, so by its seed a game of `toy` is played to its end
/// or refused at once; every move takes a pebble for good, so a refused game is played once
/// enough pebbles are gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToyCoach;

impl ToyCoach {
    /// The longest row its assistant plays.
    pub const MAX_CELLS: usize = 4;
    /// The most pebbles its player counts: it refuses a row holding more.
    pub const MAX_PEBBLES: u64 = 8;
}

impl FrontEnd<Toy> for ToyCoach {
    fn assistant(&self) -> Option<&dyn Assistant<Toy>> {
        Some(self)
    }
}

impl Assistant<Toy> for ToyCoach {
    fn plays(&self, params: &ToyParams) -> bool {
        params.cells <= Self::MAX_CELLS
    }

    fn player(&self) -> Box<dyn Player<Toy>> {
        Box::new(FromTheFullest)
    }
}

/// [`ToyCoach`]'s player.
struct FromTheFullest;

impl Player<Toy> for FromTheFullest {
    fn best_move(&mut self, state: &ToyState, _: Duration) -> Result<Option<Take>, AssistError> {
        if state.pebbles_left() > ToyCoach::MAX_PEBBLES {
            return Err(AssistError::CannotPlay(format!(
                "the toy's player counts to {} pebbles only",
                ToyCoach::MAX_PEBBLES
            )));
        }
        let mut fullest: Option<(usize, u8)> = None;
        for (i, &n) in state.pebbles.iter().enumerate() {
            if n > fullest.map_or(0, |(_, most)| most) {
                fullest = Some((i, n));
            }
        }
        Ok(fullest.map(|(i, _)| Take(i + 1)))
    }
}

/// The toy's entries added to `registry`: the kind with the plain front end, and a preset of
/// nine cells.
pub fn with_toy(registry: Registry) -> Registry {
    nine_cells(registry.with::<Toy>())
}

/// As [`with_toy`], with a front end of the test's own (fixtures, say, or [`ToyCoach`]) instead
/// of the plain one.
pub fn with_toy_front_end(registry: Registry, front: impl FrontEnd<Toy>) -> Registry {
    nine_cells(registry.kind::<Toy>(front))
}

fn nine_cells(registry: Registry) -> Registry {
    registry.preset::<Toy>(
        "toy-9",
        "Toy (9 cells)",
        "The toy on a row of nine cells.",
        ToyParams {
            cells: ToyParams::MAX_CELLS,
        },
    )
}

/// A registry of the toy alone: its standard entry `toy` and the preset `toy-9`.
pub fn registry() -> Registry {
    with_toy(Registry::new())
}

/// The real catalogue, `tilebox_games::registry()`, followed by the toy's entries: what a host's
/// test gives its registry-taking entry point (`tilebox_cli::run`, the app's launcher) to check
/// that a new kind needs nothing but its registration.
pub fn catalogue_with_toy() -> Registry {
    with_toy(tilebox_games::register(Registry::new()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use tilebox_core::Session;

    use super::*;

    #[test]
    fn every_move_takes_one_pebble_for_good_so_the_game_ends_won_after_the_first_total() {
        for seed in 0..50 {
            let mut game = Session::<Toy>::with_seed(seed).unwrap();
            let total = game.state().pebbles_left();
            assert!(game.state().pebbles().iter().all(|n| (1..=3).contains(n)));
            while let Some(&mv) = Toy::legal_moves(game.state()).first() {
                game.play(mv).unwrap();
            }
            assert_eq!(game.moves().len() as u64, total);
            assert_eq!(game.score(), total);
            assert_eq!(
                game.status(),
                Status {
                    won: true,
                    over: true
                }
            );
            assert_eq!(game.play(Take(1)), Err(MoveError::GameOver));
        }
    }

    #[test]
    fn pebbles_roll_sometimes_and_empty_cells_change_nothing() {
        let rolled = (0..50).any(|seed| {
            let mut game = Session::<Toy>::with_seed(seed).unwrap();
            let before = game.state().pebbles().to_vec();
            game.play(Take(1)).unwrap();
            let mut expected = before;
            expected[0] -= 1;
            game.state().pebbles() != expected
        });
        assert!(rolled, "a pebble rolls after some first moves");
        let mut game = Session::<Toy>::new(ToyParams { cells: 1 }, 3).unwrap();
        while game.play(Take(1)).is_ok() {}
        assert!(game.status().over);
        let mut state = game.state().clone();
        state.pebbles = vec![0, 1];
        assert_eq!(Toy::apply(&state, &Take(1)), Err(MoveError::NoEffect));
        assert_eq!(
            Toy::apply(&state, &Take(3)),
            Err(MoveError::Illegal(
                "there is no cell 3: the row has 2".into()
            ))
        );
    }

    #[test]
    fn moves_read_back_as_written_and_nothing_else_reads() {
        for n in 1..=9 {
            assert_eq!(Take(n).to_string().parse::<Take>(), Ok(Take(n)));
        }
        for bad in ["", "0", "10", "01", "+1", "x", "١"] {
            assert!(bad.parse::<Take>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn params_outside_one_to_nine_cells_are_refused() {
        assert!(Toy::new_game(&ToyParams { cells: 0 }, 1).is_err());
        assert!(Toy::new_game(&ToyParams { cells: 10 }, 1).is_err());
        let nine = Toy::new_game(&ToyParams { cells: 9 }, 1).unwrap();
        assert_eq!(nine.pebbles().len(), 9);
        assert_eq!(
            serde_json::to_value(ToyParams::default()).unwrap(),
            serde_json::json!({ "cells": 4 })
        );
    }

    #[test]
    fn the_top_tile_is_the_pebbles_taken() {
        let mut game = Session::<Toy>::with_seed(4).unwrap();
        assert_eq!(Toy::top_tile(game.state()), Some(0));
        while let Some(&mv) = Toy::legal_moves(game.state()).first() {
            game.play(mv).unwrap();
            assert_eq!(Toy::top_tile(game.state()), Some(game.score()));
        }
        assert_eq!(Toy::top_tile(game.state()), Some(game.moves().len() as u64));
    }

    #[test]
    fn the_coach_plays_short_rows_and_takes_from_the_fullest_cell() {
        let registry = with_toy_front_end(Registry::new(), ToyCoach);
        assert_eq!(registry.ids(), ["toy", "toy-9"]);
        assert!(registry.get("toy-9").unwrap().assistant().is_none());
        let assistant = registry.get("toy").unwrap().assistant().unwrap();
        assert!(assistant.autoplays());
        let mut state = Toy::new_game(&ToyParams::default(), 1).unwrap();
        state.pebbles = vec![1, 3, 0, 3];
        assert_eq!(
            ToyCoach.player().best_move(&state, Duration::ZERO),
            Ok(Some(Take(2))),
            "the first of the fullest cells"
        );
        // The entry's player is the coach's, and plays a game of `toy` to its end.
        let mut game = registry.get("toy").unwrap().new_session(1).unwrap();
        let mut typed = Session::<Toy>::with_seed(1).unwrap();
        let (mut player, mut coach) = (assistant.player(), ToyCoach.player());
        while !game.status().over {
            let best = player
                .best_move(&game.position(), Duration::ZERO)
                .unwrap()
                .unwrap();
            let take = coach.best_move(typed.state(), Duration::ZERO).unwrap();
            assert_eq!(take.map(|t| t.to_string()), Some(best.clone()));
            game.play_text(&best).unwrap();
            typed.play(best.parse().unwrap()).unwrap();
        }
        assert!(typed.status().won);
        state.pebbles = vec![0; 4];
        assert_eq!(
            ToyCoach.player().best_move(&state, Duration::ZERO),
            Ok(None)
        );
    }

    #[test]
    fn the_coach_refuses_a_row_of_more_pebbles_than_it_counts_until_enough_are_taken() {
        let seeds = |many: bool| {
            (0..100).filter(move |&seed| {
                let state = Toy::new_game(&ToyParams::default(), seed).unwrap();
                (state.pebbles_left() > ToyCoach::MAX_PEBBLES) == many
            })
        };
        // Both kinds of row are common.
        assert!(seeds(true).count() >= 20 && seeds(false).count() >= 20);
        for seed in seeds(true) {
            let mut game = Session::<Toy>::with_seed(seed).unwrap();
            let mut player = ToyCoach.player();
            assert_eq!(
                player.best_move(game.state(), Duration::ZERO),
                Err(AssistError::CannotPlay(
                    "the toy's player counts to 8 pebbles only".into()
                ))
            );
            while game.state().pebbles_left() > ToyCoach::MAX_PEBBLES {
                game.play(Toy::legal_moves(game.state())[0]).unwrap();
            }
            assert!(
                player
                    .best_move(game.state(), Duration::ZERO)
                    .unwrap()
                    .is_some()
            );
        }
    }

    #[test]
    fn the_toy_registry_has_the_kind_and_its_preset() {
        let registry = registry();
        assert_eq!(registry.ids(), ["toy", "toy-9"]);
        assert_eq!(registry.groups(), [("Toy", vec![0, 1])]);
        let game = registry.get("toy-9").unwrap().new_session(2).unwrap();
        assert_eq!(game.state_json()["pebbles"].as_array().unwrap().len(), 9);
    }
}
