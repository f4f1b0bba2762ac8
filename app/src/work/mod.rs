//! The work done beside the window: the AI on a thread of its own ([`advisor`]), the trainer's
//! lessons ([`trainer`]), hints and autoplay driven on a game (`assist`), the clock of
//! autoplay's moves and a replay's steps ([`pace`]), and each frame's cost in the log
//! ([`frame_times`]).

pub mod advisor;
pub(crate) mod assist;
pub mod frame_times;
pub mod pace;
pub mod trainer;
