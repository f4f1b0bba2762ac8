//! Strike 9: Shut the Box with nine tiles and two dice, after sts10/strike-9.
//!
//! Tiles 1 to 9 start open and two dice are rolled. A move shuts any set of distinct open tiles
//! that adds up to the roll; then the dice roll again. Shutting every tile wins. Right after a
//! roll that no set of open tiles adds up to, the game is lost, and says so at once. The score is
//! the sum of the shut tiles, 0 to 45.
//!
//! - [`TileSet`]: a set of tiles as a bitmask; the board, and the move (`4+5`).
//! - [`addends`]: the exhaustive enumerator of every set of open tiles making a total, in
//!   lexicographic order. The legal moves are its answer for the roll, and game-over detection
//!   is its answer being empty.
//! - [`Strike9`]: the [`tilebox_core::Puzzle`] implementation, with [`Strike9Params`] and
//!   [`Strike9State`]. Dice come only from the [`tilebox_core::GameRng`] inside the state.
//! - [`Odds`]: the game solved exactly, the chance of shutting the box from every position with
//!   best play, and the best move for a roll (hints).
//! - [`Selection`]: the tiles picked so far during a roll, for front ends: clicking adds or takes
//!   back a tile, refuses one that would go past the roll, and hands back the move once the
//!   selection makes the roll.

mod addends;
mod game;
mod odds;
mod selection;
mod tiles;

pub use addends::addends;
pub use game::{Strike9, Strike9Params, Strike9State};
pub use odds::{Odds, roll_chance};
pub use selection::{SelectError, Selection, SelectionStep};
pub use tiles::{MAX_TILE, MIN_TILE, TileError, TileSet, Tiles};
