//! The shared middle of Tilebox: what every game has in common, and nothing that draws.
//!
//! - [`Puzzle`]: the backend a game implements. Rules are pure functions of a state and a move;
//!   randomness comes from a [`GameRng`] that lives inside the state, so `(seed, moves)` replays any
//!   game on any machine.
//! - [`Session`]: one game being played, generic over any puzzle: undo and redo without limit, the
//!   move log, replay from `(seed, moves)` and a save form ([`SavedGame`]). Written once, here, for
//!   every game.
//! - [`Registry`]: the game kinds a host offers, each with its [`FrontEnd`] (help text, colours,
//!   the [`Assistant`] for hints and autoplay), and the entries, each a kind with a preset of its
//!   parameters ([`Entry`]). [`DynSession`] is the object-safe face of a session of an entry, so
//!   a host holds any game as a trait object and never looks at its id.
//!
//! Games depend on this crate; this crate depends on no game.

mod code;
pub mod date;
mod error;
pub mod files;
mod frontend;
pub mod json_words;
mod puzzle;
mod registry;
mod rng;
mod session;

pub use code::{CodeError, CodePart, DAILY_SEED_BITS, GameCode, daily_seed};
pub use error::{MoveError, ParamsError, ParseMoveError, PlayError, PlayErrorKind};
pub use frontend::{
    AssistError, Assistant, BoardColors, Fixtures, FrontEnd, Outcome, ParamOption, PlainFrontEnd,
    Player, Rgb, TileColors,
};
pub use puzzle::{GameInfo, Puzzle, Status};
pub use registry::{
    DynAssistant, DynPlayer, DynSession, Entry, EntryInfo, GameEnd, Kind, Position, PresetError,
    Registry, Renamed, rules_without,
};
pub use rng::GameRng;
pub use session::{LoadError, SAVE_FORMAT, SavedGame, Session};
