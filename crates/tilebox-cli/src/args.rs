//! The command line, as clap reads it.

use clap::{Parser, Subcommand};

/// Play, replay and inspect Tilebox games.
#[derive(Debug, Parser)]
#[command(name = "tilebox-cli", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands. Their output is a stable interface: see the README.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games, one per line: <id><TAB><title>.
    List,
    /// Print the initial state of a new game as one line of JSON.
    New {
        /// Game id (see `list`).
        game: String,
        /// Seed of the game; a random one when omitted (it is in the JSON).
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
    },
    /// Start a seeded game, apply MOVES in order, print the final state as one line of JSON.
    Play {
        /// Game id (see `list`).
        game: String,
        /// Seed of the game.
        #[arg(long, value_name = "N")]
        seed: u64,
        /// Sliding games: letters L R U D, either case, spaces ignored; a move that changes
        /// nothing is skipped. Strike 9: space-separated tile sets joined by '+' ("9 4+5").
        #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
        moves: String,
    },
    /// Slide a board once, without a spawn; print {"board":[[…]],"moved":bool,"gained":N}.
    Slide {
        /// A sliding game: 2048 or threes.
        game: String,
        /// left, right, up or down (or L, R, U, D).
        direction: String,
        /// JSON rows, 0 for empty, e.g. [[0,2,2,4],[0,0,0,0],[2,0,0,0],[4,4,4,4]]; `-` reads
        /// one board per line from stdin and prints one result per line.
        #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
        board: String,
    },
    /// Print every set of distinct open tiles summing to TOTAL, one per line (e.g. 1+8).
    Addends {
        /// The total to reach.
        total: u32,
        /// The open tiles, comma-separated.
        #[arg(long, value_name = "1,2,…", default_value = "1,2,3,4,5,6,7,8,9")]
        open: String,
    },
}
