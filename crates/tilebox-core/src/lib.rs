//! The shared middle of Tilebox: what every game has in common, and nothing that draws.
//!
//! - [`Puzzle`]: the backend a game implements. Rules are pure functions of a state and a move;
//!   randomness comes from a [`GameRng`] that lives inside the state, so `(seed, moves)` replays any
//!   game on any machine.
//! - [`Session`]: one game being played, generic over any puzzle: undo and redo without limit, the
//!   move log, replay from `(seed, moves)` and a save form ([`SavedGame`]). Written once, here, for
//!   every game.
//! - [`DynSession`] and [`Registry`]: the object-safe face of a session, so that a host (the app,
//!   the CLI) can hold any game as a trait object and list the games it knows.
//!
//! Games depend on this crate; this crate depends on no game.

mod error;
mod puzzle;
mod registry;
mod rng;
mod session;

pub use error::{LoadError, MoveError, ParamsError, ParseMoveError, PlayError, PlayErrorKind};
pub use puzzle::{GameInfo, Puzzle, Status};
pub use registry::{DynSession, GameEntry, Registry};
pub use rng::GameRng;
pub use session::{SAVE_FORMAT, SavedGame, Session};
