//! A player that learns: an n-tuple network over the ladder positions of a 4×4 sliding board,
//! trained by afterstate self-play, by temporal coherence in two stages or by TD(0) (Szubert &
//! Jaśkowski, "Temporal difference learning of n-tuple networks for the game 2048", 2014;
//! Jaśkowski 2018 for temporal coherence and stages; Yeh et al. 2016 for the 4×6-tuples; moporgic's
//! TDL2048 for the indexing). Our own code, written from the papers.
//!
//! The network itself ([`Layout`], [`Network`] while training, [`PlayNetwork`] while playing,
//! the board as it reads it, [`pack`]) is named here; it is defined below the generic search,
//! which plays with it, in the crate's `network` module. Here are what learning adds: the
//! self-play ([`train`]), the weights file ([`file`](mod@file)), the players folder
//! ([`players`]) and a run kept in its file ([`run`]), which play and train through the generic
//! search and the sliding player; and the play itself (`play`: the sliding player's searches
//! with a network, on bitboards where they apply).

mod course;
mod fast;
pub mod file;
mod play;
pub mod players;
pub mod run;
#[cfg(test)]
mod tests;
pub mod train;

/// For the network's search's tests, which play the fast path's tables.
#[cfg(test)]
pub(crate) use fast::Fast;

pub use crate::network::{
    Compiled, Layout, LayoutError, MAX_STAGES, MAX_TUPLE, MAX_TUPLES, MAX_WEIGHTS, Network,
    NetworkSize, PlayNetwork, Quantized, SECOND_STAGE, SIDE, SYMMETRIES, WeightTable, pack,
    preview_class, train_on_huge_pages, trainable,
};
