//! Strike 9: Shut the Box with nine tiles and two dice, after sts10/strike-9, and its variants.
//!
//! Tiles 1 to 9 start open and two dice are rolled. A move shuts any set of distinct open tiles
//! that adds up to the roll; then the dice roll again. Shutting every tile wins. Right after a
//! roll that no set of open tiles adds up to, the game is lost, and says so at once. The score is
//! the sum of the shut tiles, 0 to 45.
//!
//! The variants ([`Strike9Params`]) have 10 or 12 tiles, let the player choose one die or two
//! before the roll late in the game ([`OneDie`], the moves `1d` and `2d`), and score by the tiles
//! left open ([`Scoring`]: `golf`, `digits`; lower is better).
//!
//! - [`TileSet`]: a set of tiles 1 to 12 as a bitmask; the board, and the move (`4+5`).
//! - [`Dice`]: one die or two, the choice before a roll where a variant allows one die.
//! - [`addends`]: the exhaustive enumerator of every set of open tiles making a total, in
//!   lexicographic order. The legal moves are its answer for the roll, and game-over detection
//!   is its answer being empty.
//! - [`Strike9`]: the [`tilebox_core::Puzzle`] implementation, with [`Strike9Params`],
//!   [`Strike9State`] and [`Strike9Move`]. Dice come only from the [`tilebox_core::GameRng`]
//!   inside the state.
//! - [`Table`]: any variant solved exactly, the chance of shutting the box or the expected final
//!   score from every position with best play, the best dice and the best move.
//! - [`Odds`]: the standard box's table read as probabilities, for the hosts of the standard
//!   game.
//! - [`Selection`]: the tiles picked so far during a roll, for front ends: clicking adds or takes
//!   back a tile, refuses one that would go past the roll, and hands back the move once the
//!   selection makes the roll.

mod addends;
mod dice;
mod game;
mod odds;
mod selection;
pub mod table;
mod tiles;

pub use addends::addends;
pub use dice::Dice;
pub use game::{OneDie, Scoring, Strike9, Strike9Move, Strike9Params, Strike9State};
pub use odds::{Odds, roll_chance};
pub use selection::{SelectError, Selection, SelectionStep};
pub use table::{Exact, Objective, Table};
pub use tiles::{MAX_TILE, MIN_TILE, TileError, TileSet, Tiles};
