//! [`Selection`]: the tiles a player has picked so far during a roll. Interface state, not game
//! state (what sgt-puzzles calls `game_ui`), kept here so that its rules are pure and tested.

use thiserror::Error;

use crate::{Strike9State, TileSet};

/// The tiles picked so far for the current roll, before they add up to it.
///
/// A selection belongs to one roll: start again from [`Selection::default`] after every move,
/// undo or new game. One kept by mistake is still safe: [`Selection::current`] reads it against
/// the state, dropping tiles that are no longer open, and dropping the whole selection when it
/// no longer falls short of the roll (after an undo to a smaller roll, say).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Selection(TileSet);

/// What a click on a tile led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SelectionStep {
    /// The selection is not yet the roll: keep selecting.
    Selecting(Selection),
    /// The selection adds up to the roll: these tiles are the move to play (then start a new
    /// selection).
    Shut(TileSet),
}

/// Why a click on a tile was refused. The selection is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum SelectError {
    /// The tile is already shut.
    #[error("tile {0} is already shut")]
    Shut(u8),
    /// Adding the tile would take the selection past the roll.
    #[error("adding {tile} to {sum} goes past the roll of {total}")]
    Overshoot {
        /// The tile clicked.
        tile: u8,
        /// The sum of the selection before the click.
        sum: u32,
        /// The roll.
        total: u32,
    },
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// There is no such tile in this box.
    #[error("there is no tile {0} in the box")]
    NoSuchTile(u8),
    /// The dice are not rolled yet: the player is to choose one die or two first.
    #[error("roll first: choose one die or two")]
    ChooseDice,
}

impl Selection {
    /// The tiles selected, as picked (see [`Selection::current`] for what they mean in a state).
    pub fn tiles(self) -> TileSet {
        self.0
    }

    /// The sum of the tiles selected, as picked.
    pub fn sum(self) -> u32 {
        self.0.sum()
    }

    /// The selection as it stands in `state`, what a front end shows and what clicks build on:
    /// the picked tiles that are still open, or none at all when those add up to the roll or
    /// more. A selection made for this roll always falls short of it (reaching it shuts the
    /// tiles), so one that does not was made for another roll.
    pub fn current(self, state: &Strike9State) -> TileSet {
        let open = self.0.intersection(state.open());
        if open.sum() < state.total() {
            open
        } else {
            TileSet::EMPTY
        }
    }

    /// A click on `tile`, on the selection as it stands in `state` ([`Selection::current`]).
    ///
    /// A selected tile is taken back. An open tile is added, unless it would take the sum past
    /// the roll ([`SelectError::Overshoot`]); when the selection then makes the roll exactly, the
    /// result is [`SelectionStep::Shut`] with the move to play. A shut tile is refused
    /// ([`SelectError::Shut`]), as is any click once the game is over ([`SelectError::GameOver`]),
    /// a number that is not a tile of the box ([`SelectError::NoSuchTile`]), and any tile while
    /// the player is to choose the dice ([`SelectError::ChooseDice`]).
    pub fn toggle(self, state: &Strike9State, tile: u8) -> Result<SelectionStep, SelectError> {
        if !state.params().full_box().contains(tile) {
            return Err(SelectError::NoSuchTile(tile));
        }
        if state.is_over() {
            return Err(SelectError::GameOver);
        }
        if state.choosing_dice() {
            return Err(SelectError::ChooseDice);
        }
        let current = self.current(state);
        if current.contains(tile) {
            return Ok(SelectionStep::Selecting(Selection(current.without(tile))));
        }
        if !state.open().contains(tile) {
            return Err(SelectError::Shut(tile));
        }
        let sum = current.sum();
        let total = state.total();
        let after = sum + u32::from(tile);
        if after > total {
            return Err(SelectError::Overshoot { tile, sum, total });
        }
        let next = current.with(tile);
        Ok(if after == total {
            SelectionStep::Shut(next)
        } else {
            SelectionStep::Selecting(Selection(next))
        })
    }

    /// The open tiles, not selected, that can be added without going past the roll; the others
    /// are shown disabled. Empty once the game is over and while the dice are to be chosen.
    pub fn selectable(self, state: &Strike9State) -> TileSet {
        if state.is_over() || state.choosing_dice() {
            return TileSet::EMPTY;
        }
        let current = self.current(state);
        let room = state.total().saturating_sub(current.sum());
        state
            .open()
            .difference(current)
            .tiles()
            .filter(|&t| u32::from(t) <= room)
            .fold(TileSet::EMPTY, TileSet::with)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tilebox_core::{MoveError, Puzzle};

    use super::*;
    use crate::{OneDie, Strike9, Strike9Params};

    fn set(text: &str) -> TileSet {
        text.parse().unwrap()
    }

    fn position(open: &str, dice: [u8; 2]) -> Strike9State {
        Strike9State::from_position(set(open), dice, 0).unwrap()
    }

    fn selecting(step: Result<SelectionStep, SelectError>) -> Selection {
        match step {
            Ok(SelectionStep::Selecting(s)) => s,
            other => panic!("expected to keep selecting, got {other:?}"),
        }
    }

    #[test]
    fn picking_tiles_up_to_the_roll_returns_the_move() {
        // 4 + 5 = 9 with every tile open.
        let state = position("1+2+3+4+5+6+7+8+9", [4, 5]);
        let s = Selection::default();
        assert_eq!(s.tiles(), TileSet::EMPTY);
        let s = selecting(s.toggle(&state, 2));
        let s = selecting(s.toggle(&state, 6));
        assert_eq!(s.tiles(), set("2+6"));
        assert_eq!(s.sum(), 8);
        assert_eq!(s.toggle(&state, 1), Ok(SelectionStep::Shut(set("1+2+6"))));
        // The move it returns is one the game accepts.
        assert!(Strike9::apply(&state, &set("1+2+6").into()).is_ok());
        // A single tile that is the roll shuts at once.
        assert_eq!(
            Selection::default().toggle(&state, 9),
            Ok(SelectionStep::Shut(set("9")))
        );
    }

    #[test]
    fn a_selected_tile_is_taken_back() {
        let state = position("1+2+3+4+5+6+7+8+9", [6, 6]);
        let s = selecting(Selection::default().toggle(&state, 3));
        let s = selecting(s.toggle(&state, 5));
        let s = selecting(s.toggle(&state, 3));
        assert_eq!(s.tiles(), set("5"));
        let s = selecting(s.toggle(&state, 5));
        assert_eq!(s, Selection::default());
    }

    #[test]
    fn overshooting_is_refused_and_the_selection_kept() {
        let state = position("1+2+3+4+5+6+7+8+9", [2, 3]);
        let s = selecting(Selection::default().toggle(&state, 3));
        assert_eq!(
            s.toggle(&state, 4),
            Err(SelectError::Overshoot {
                tile: 4,
                sum: 3,
                total: 5
            })
        );
        assert_eq!(
            SelectError::Overshoot {
                tile: 4,
                sum: 3,
                total: 5
            }
            .to_string(),
            "adding 4 to 3 goes past the roll of 5"
        );
        assert_eq!(
            Selection::default().toggle(&state, 9),
            Err(SelectError::Overshoot {
                tile: 9,
                sum: 0,
                total: 5
            })
        );
        assert_eq!(s.tiles(), set("3"));
        assert_eq!(s.toggle(&state, 2), Ok(SelectionStep::Shut(set("2+3"))));
    }

    #[test]
    fn shut_tiles_numbers_that_are_not_tiles_and_ended_games_are_refused() {
        let state = position("1+2+3+5+6+9", [3, 4]);
        let s = Selection::default();
        assert_eq!(s.toggle(&state, 4), Err(SelectError::Shut(4)));
        assert_eq!(SelectError::Shut(4).to_string(), "tile 4 is already shut");
        for t in [0, 10, 12, 13, 255] {
            assert_eq!(s.toggle(&state, t), Err(SelectError::NoSuchTile(t)));
        }
        assert_eq!(
            SelectError::NoSuchTile(10).to_string(),
            "there is no tile 10 in the box"
        );
        let lost = position("1+2", [6, 6]);
        assert_eq!(s.toggle(&lost, 1), Err(SelectError::GameOver));
        assert_eq!(s.selectable(&lost), TileSet::EMPTY);
        let won = position("-", [1, 1]);
        assert_eq!(s.toggle(&won, 1), Err(SelectError::GameOver));
    }

    #[test]
    fn selectable_leaves_out_selected_shut_and_overshooting_tiles() {
        // 4, 7, 8 shut; roll 7.
        let state = position("1+2+3+5+6+9", [3, 4]);
        let s = Selection::default();
        assert_eq!(s.selectable(&state), set("1+2+3+5+6"));
        let s = selecting(s.toggle(&state, 2));
        // 2 selected, 5 of the roll left: 1, 3 and 5 fit; 6 and 9 overshoot.
        assert_eq!(s.selectable(&state), set("1+3+5"));
        let s = selecting(s.toggle(&state, 3));
        assert_eq!(s.selectable(&state), set("1"));
    }

    #[test]
    fn a_stale_selection_drops_tiles_no_longer_open() {
        let before = position("1+2+3+4+5+6+7+8+9", [6, 6]);
        let s = selecting(Selection::default().toggle(&before, 3));
        let s = selecting(s.toggle(&before, 4));
        // The box moved on without this selection: 3 and 4 were shut, roll 5.
        let after = position("1+2+5+6+7+8+9", [2, 3]);
        assert_eq!(s.selectable(&after), set("1+2+5"));
        assert_eq!(s.toggle(&after, 5), Ok(SelectionStep::Shut(set("5"))));
        assert_eq!(s.toggle(&after, 3), Err(SelectError::Shut(3)));
    }

    #[test]
    fn a_selection_kept_across_an_undo_to_a_smaller_roll_starts_again() {
        // 3 + 4 picked toward a 12; an undo brings back the same open tiles with a roll of 5.
        let twelve = position("1+2+3+4+5+6+7+8+9", [6, 6]);
        let s = selecting(Selection::default().toggle(&twelve, 3));
        let s = selecting(s.toggle(&twelve, 4));
        assert_eq!(s.current(&twelve), set("3+4"));
        let five = position("1+2+3+4+5+6+7+8+9", [2, 3]);
        // 3 + 4 = 7 is past 5: nothing of it stands, so nothing is out of reach because of it.
        assert_eq!(s.current(&five), TileSet::EMPTY);
        assert_eq!(s.selectable(&five), set("1+2+3+4+5"));
        assert_eq!(s.toggle(&five, 5), Ok(SelectionStep::Shut(set("5"))));
        assert_eq!(
            s.toggle(&five, 4),
            Ok(SelectionStep::Selecting(Selection(set("4"))))
        );
        // Exactly the new roll is stale too: a live selection never reaches its roll unshut.
        let seven = position("1+2+3+4+5+6+7+8+9", [3, 4]);
        assert_eq!(s.current(&seven), TileSet::EMPTY);
        assert_eq!(
            s.toggle(&seven, 3),
            Ok(SelectionStep::Selecting(Selection(set("3"))))
        );
        // A larger roll keeps it.
        let eleven = position("1+2+3+4+5+6+7+8+9", [5, 6]);
        assert_eq!(s.current(&eleven), set("3+4"));
        assert_eq!(
            s.toggle(&eleven, 4),
            Ok(SelectionStep::Selecting(Selection(set("3"))))
        );
    }

    #[test]
    fn a_pending_choice_of_dice_refuses_tiles_and_a_bigger_box_takes_its_own() {
        let params = Strike9Params {
            tiles: 12,
            one_die: OneDie::LowTotal,
            ..Strike9Params::default()
        };
        let pending = Strike9State::from_position_with(&params, set("1+5"), &[], 0).unwrap();
        let s = Selection::default();
        assert_eq!(s.toggle(&pending, 1), Err(SelectError::ChooseDice));
        assert_eq!(s.toggle(&pending, 2), Err(SelectError::ChooseDice));
        assert_eq!(s.toggle(&pending, 13), Err(SelectError::NoSuchTile(13)));
        assert_eq!(s.selectable(&pending), TileSet::EMPTY);
        assert_eq!(s.current(&pending), TileSet::EMPTY);
        assert_eq!(
            SelectError::ChooseDice.to_string(),
            "roll first: choose one die or two"
        );
        let rolled = Strike9State::from_position_with(&params, set("1+11+12"), &[6, 6], 0).unwrap();
        assert_eq!(s.selectable(&rolled), set("1+11+12"));
        let s = selecting(s.toggle(&rolled, 11));
        assert_eq!(s.toggle(&rolled, 1), Ok(SelectionStep::Shut(set("1+11"))));
        assert_eq!(
            Selection::default().toggle(&rolled, 12),
            Ok(SelectionStep::Shut(set("12")))
        );
        let one = Strike9State::from_position_with(&params, set("1+5"), &[5], 0).unwrap();
        assert_eq!(
            Selection::default().toggle(&one, 5),
            Ok(SelectionStep::Shut(set("5")))
        );
    }

    proptest! {
        /// Clicking selectable tiles (or taking back selected ones) never gives anything but a
        /// selection under the roll or a legal move; clicking anything else is refused. Halfway
        /// through, the box may move on under a selection that was kept (another roll, as after
        /// an undo, or tiles shut), and all of this still holds.
        #[test]
        fn clicks_agree_with_selectable_and_with_the_game(
            seed in any::<u64>(),
            later in any::<u64>(),
            shut_first in any::<bool>(),
            switch in 0usize..30,
            clicks in proptest::collection::vec(0u8..=10, 0..30),
        ) {
            let mut state = Strike9::new_game(&Default::default(), seed).unwrap();
            let mut other = Strike9::new_game(&Default::default(), later).unwrap();
            if shut_first {
                let first = Strike9::legal_moves(&other).first().copied();
                if let Some(mv) = first {
                    other = Strike9::apply(&other, &mv).unwrap();
                }
            }
            let mut s = Selection::default();
            for (i, tile) in clicks.into_iter().enumerate() {
                if i == switch {
                    state = other.clone();
                }
                let current = s.current(&state);
                prop_assert!(current.is_subset(state.open()));
                prop_assert!(current.sum() < state.total() || state.is_over());
                let selectable = s.selectable(&state);
                prop_assert!(selectable.intersection(current).is_empty());
                let step = s.toggle(&state, tile);
                match step {
                    Ok(SelectionStep::Selecting(next)) => {
                        prop_assert!(selectable.contains(tile) || current.contains(tile));
                        prop_assert!(next.sum() < state.total());
                        prop_assert!(next.tiles().is_subset(state.open()));
                        s = next;
                    }
                    Ok(SelectionStep::Shut(mv)) => {
                        prop_assert!(selectable.contains(tile));
                        prop_assert!(Strike9::apply(&state, &mv.into()).is_ok());
                        prop_assert!(Strike9::legal_moves(&state).contains(&mv.into()));
                        s = Selection::default();
                    }
                    Err(SelectError::Overshoot { sum, total, .. }) => {
                        prop_assert!(!selectable.contains(tile));
                        prop_assert!(state.open().contains(tile) && !current.contains(tile));
                        prop_assert_eq!((sum, total), (current.sum(), state.total()));
                    }
                    Err(SelectError::NoSuchTile(t)) => prop_assert!(t == 0 || t > 9),
                    Err(SelectError::ChooseDice) => prop_assert!(state.choosing_dice()),
                    Err(SelectError::Shut(t)) => prop_assert!(!state.open().contains(t)),
                    Err(SelectError::GameOver) => prop_assert!(state.is_over()),
                }
            }
            // Playing a selection that is not the roll is refused by the game.
            let current = s.current(&state);
            if !current.is_empty() && !state.is_over() {
                let refused = Strike9::apply(&state, &current.into());
                prop_assert!(matches!(refused, Err(MoveError::Illegal(_))));
            }
        }
    }
}
