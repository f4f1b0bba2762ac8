//! The command line, as clap reads it.

use clap::{Parser, Subcommand};

/// The most threads `bench --threads` accepts: each one holds a 16 MiB search table, and more
/// threads than cores only share the cores.
pub const MAX_THREADS: u32 = 64;

/// The AI's thinking time a move, in milliseconds, when `hint --ms` or `bench --ms-per-move` is
/// not given.
pub const DEFAULT_MS: u64 = 200;

/// The games `train --games` runs to when not given.
pub const DEFAULT_TRAIN_GAMES: u64 = 100_000;

/// The networks `train --network` makes ([`tilebox_ai::ntuple::NetworkSize`], named for the
/// command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NetworkSize {
    /// The 4×6-tuples (Yeh et al.), 67 million weights.
    Standard,
    /// The outer and inner rows as 4-tuples, 131,072 weights.
    Small,
}

/// How `train --learning` has a new run learn ([`tilebox_ai::ntuple::train::Rule`], named for
/// the command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Learning {
    /// Temporal coherence, in two stages (the second from 16384 in 2048).
    Tc,
    /// TD(0), in one stage (the release before's, and TDL2048's `-t` run).
    Td0,
}

impl From<Learning> for tilebox_ai::ntuple::train::Rule {
    fn from(learning: Learning) -> Self {
        match learning {
            Learning::Tc => tilebox_ai::ntuple::train::Rule::Coherence,
            Learning::Td0 => tilebox_ai::ntuple::train::Rule::Td0,
        }
    }
}

impl From<NetworkSize> for tilebox_ai::ntuple::NetworkSize {
    fn from(size: NetworkSize) -> Self {
        match size {
            NetworkSize::Standard => tilebox_ai::ntuple::NetworkSize::Standard,
            NetworkSize::Small => tilebox_ai::ntuple::NetworkSize::Small,
        }
    }
}

/// Play, replay and inspect Tilebox games.
#[derive(Debug, Parser)]
#[command(name = "tilebox-cli", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

// Numeric options allow negative numbers so that `--seed -1` is reported as an invalid value
// rather than as an unknown option.

/// The commands. Their output is a stable interface: see `docs/cli.md`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games (every entry of the catalogue, the player's variants included), one per
    /// line: <id><TAB><title>; each variant file refused is a line on stderr.
    List,
    /// Print the initial state of a new game as one line of JSON.
    New {
        /// Game id (see `list`); not with --code.
        #[arg(required_unless_present = "code")]
        game: Option<String>,
        /// Seed of the game; a random one when omitted (it is in the JSON).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        seed: Option<u64>,
        /// The game's parameters as a JSON object, instead of the entry's preset (fields left
        /// out take the kind's defaults), e.g. '{"tiles":12}'.
        #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
        params: Option<String>,
        /// A game code (see `code`): its game, seed and parameters, instead of <GAME>, --seed
        /// and --params.
        #[arg(
            long,
            value_name = "CODE",
            allow_hyphen_values = true,
            conflicts_with_all = ["game", "seed", "params"]
        )]
        code: Option<String>,
    },
    /// Start a seeded game, apply MOVES in order, print the final state as one line of JSON.
    Play {
        /// Game id (see `list`); not with --code.
        #[arg(required_unless_present = "code")]
        game: Option<String>,
        /// Seed of the game; not with --code.
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            required_unless_present = "code"
        )]
        seed: Option<u64>,
        /// Sliding games: letters L R U D, either case, spaces ignored; a move that changes
        /// nothing is skipped. Strike 9: space-separated tile sets joined by '+' ("9 4+5"), and
        /// 1d or 2d for the dice where the game lets the player choose.
        #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
        moves: String,
        /// The game's parameters as a JSON object, instead of the entry's preset (fields left
        /// out take the kind's defaults), e.g. '{"tiles":12}'.
        #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
        params: Option<String>,
        /// A game code (see `code`): its game, seed and parameters, instead of <GAME>, --seed
        /// and --params.
        #[arg(
            long,
            value_name = "CODE",
            allow_hyphen_values = true,
            conflicts_with_all = ["game", "seed", "params"]
        )]
        code: Option<String>,
    },
    /// Print the code of a game: a short text that `new --code` and `play --code` (and the
    /// app's "Play a code") start that game from.
    Code {
        /// Game id (see `list`; the app's combinations of options too).
        game: String,
        /// Seed of the game.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        seed: u64,
        /// The game's parameters as a JSON object, instead of the entry's preset (fields left
        /// out take the kind's defaults), e.g. '{"tiles":12}'.
        #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
        params: Option<String>,
    },
    /// Print the code of a day's daily game: one game a day for each game id, the same for
    /// everyone.
    Daily {
        /// Game id (see `list`; the app's combinations of options too).
        game: String,
        /// The day, YYYY-MM-DD (default: today, in UTC).
        #[arg(long, value_name = "YYYY-MM-DD", allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Slide a board once, without a spawn; print {"board":[[…]],"moved":bool,"gained":N}.
    Slide {
        /// Game id of a sliding game (see `list`).
        game: String,
        /// left, right, up or down (or L, R, U, D).
        direction: String,
        /// JSON rows, 0 for empty, e.g. [[0,2,2,4],[0,0,0,0],[2,0,0,0],[4,4,4,4]]; `-` reads
        /// one board per line from stdin and prints one result per line (nothing unless every
        /// line is good).
        #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
        board: String,
        /// The move's number, the moves played before it (default 0, a game's first move): it
        /// matters only where rules hold on some moves only (2592)
        #[arg(long, value_name = "N", default_value_t = 0)]
        turn: u64,
    },
    /// Print every set of distinct open tiles summing to TOTAL, one per line (e.g. 1+8).
    Addends {
        /// The total to reach.
        #[arg(allow_negative_numbers = true)]
        total: u32,
        /// The open tiles, comma-separated.
        #[arg(
            long,
            value_name = "1,2,…",
            default_value = "1,2,3,4,5,6,7,8,9",
            allow_hyphen_values = true
        )]
        open: String,
    },
    /// Print the AI's best move for the game of --seed after --moves (games with an AI
    /// player); or, for Strike 9, the exact table's best tiles for --total with --open (or,
    /// without --total, 1d or 2d where the choice of dice is pending).
    Hint {
        /// Game id (see `list`).
        game: String,
        /// Seed of the game to replay.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        seed: Option<u64>,
        /// The moves played since, as for `play` (default: none).
        #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
        moves: Option<String>,
        /// Thinking time in milliseconds (default: 200).
        #[arg(long, value_name = "M", allow_negative_numbers = true)]
        ms: Option<u64>,
        /// Strike 9 without --seed: the open tiles, comma-separated (default: every tile of the
        /// box).
        #[arg(long, value_name = "1,2,…", allow_hyphen_values = true)]
        open: Option<String>,
        /// Strike 9 without --seed: the roll, 2 to 12 (1 to 6 with one die, where the game
        /// allows one).
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = parse_total
        )]
        total: Option<u32>,
        /// The game's parameters as a JSON object, instead of the entry's preset (fields left
        /// out take the kind's defaults), e.g. '{"tiles":12}'.
        #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
        params: Option<String>,
    },
    /// Print the chance of shutting the box with best play, before the roll (6 decimals); for a
    /// game scored golf or digits, a second line: the expected final score with best play (4
    /// decimals). Strike 9 games only; the standard game when no id is given.
    Odds {
        /// Game id of a Strike 9 game (see `list`); the standard game when omitted.
        game: Option<String>,
        /// The open tiles, comma-separated (default: every tile of the box).
        #[arg(long, value_name = "1,2,…", allow_hyphen_values = true)]
        open: Option<String>,
        /// The game's parameters as a JSON object, instead of the entry's preset (fields left
        /// out take the kind's defaults), e.g. '{"tiles":12}'.
        #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
        params: Option<String>,
    },
    /// Play N games with the AI player (game i uses seed S+i) and print one JSON object of
    /// results (games with an AI player).
    Bench {
        /// Game id (see `list`).
        game: String,
        /// How many games (at least 1).
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = clap::value_parser!(u32).range(1..)
        )]
        games: u32,
        /// Thinking time per move in milliseconds, handed to the AI player (Strike 9's exact
        /// table ignores it).
        #[arg(
            long,
            value_name = "M",
            default_value_t = DEFAULT_MS,
            allow_negative_numbers = true
        )]
        ms_per_move: u64,
        /// Seed of the first game.
        #[arg(long, value_name = "S", allow_negative_numbers = true)]
        seed: u64,
        /// Games played at once, each on its own thread: 1 to 64, and no more than the games.
        #[arg(
            long,
            value_name = "T",
            default_value_t = 1,
            allow_negative_numbers = true,
            value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_THREADS))
        )]
        threads: u32,
        /// Stop each game at its win instead of playing it to the end.
        #[arg(long)]
        until_win: bool,
        /// Print a line of JSON for each game as it ends (its seed, score, top tile, moves),
        /// before the summary: a long bench can be watched, and benches of other seeds combined.
        #[arg(long)]
        each: bool,
        /// The game's parameters as a JSON object, instead of the entry's preset (fields left
        /// out take the kind's defaults), e.g. '{"tiles":12}'.
        #[arg(long, value_name = "JSON", allow_hyphen_values = true)]
        params: Option<String>,
    },
    /// Train the learning player of a 4×4 sliding game by self-play: its network is saved to
    /// players/<id>.weights in the data directory at least every minute and at the end, and a
    /// rerun resumes it. Progress on stderr; one line of JSON at the end.
    Train {
        /// Game id of a 4×4 sliding game (see `list`).
        game: String,
        /// The games the run is to have played in all, the resumed ones included.
        #[arg(
            long,
            value_name = "N",
            default_value_t = DEFAULT_TRAIN_GAMES,
            allow_negative_numbers = true
        )]
        games: u64,
        /// Games played at once, each thread on the shared network (1 to 64; more than 1 is
        /// faster but not reproducible).
        #[arg(
            long,
            value_name = "T",
            default_value_t = 1,
            allow_negative_numbers = true,
            value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_THREADS))
        )]
        threads: u32,
        /// Seed of a new run (default 0); a resumed run keeps its own.
        #[arg(long, value_name = "S", allow_negative_numbers = true)]
        seed: Option<u64>,
        /// The network of a new run: standard (4×6-tuples, 1.5 GiB while training by tc, 256
        /// MiB by td0) or small (two 4-tuples: quick, weak); a resumed run keeps its own.
        #[arg(long, value_name = "SIZE")]
        network: Option<NetworkSize>,
        /// How a new run learns: tc (temporal coherence in two stages, the second from the
        /// ladder's 14th tile: the default) or td0 (TD(0) in one stage); a resumed run keeps
        /// its own.
        #[arg(long, value_name = "RULE")]
        learning: Option<Learning>,
    },
    /// Show a sliding variant's complete description, or check a variant file.
    Variant {
        /// `show <id>` or `check <file>`.
        #[command(subcommand)]
        command: crate::variant::VariantCommand,
    },
}

/// Reads `--total`: a roll of one die (1 to 6) or two (2 to 12). Whether one die may make it is
/// the game's to say; the message for a number out of range is the one clap gives for 2 to 12.
fn parse_total(text: &str) -> Result<u32, String> {
    let n: i64 = text
        .parse()
        .map_err(|e: std::num::ParseIntError| e.to_string())?;
    u32::try_from(n)
        .ok()
        .filter(|n| (1..=12).contains(n))
        .ok_or_else(|| format!("{n} is not in 2..=12"))
}
