//! Everything the commands refuse or fail at, each with the message the user sees and its exit
//! status: one type, [`CliError`], which every command returns (`variant`'s own refusals,
//! [`VariantCliError`], inside it).

use std::io;

use thiserror::Error;
use tilebox_core::date::DateError;
use tilebox_core::{AssistError, CodeError, ParamsError, PlayError, Puzzle};
use tilebox_sliding::{BoardError, Refusal};
use tilebox_strike9::Strike9;

/// Everything that can go wrong, each with the message the user sees (one line: text the user
/// gave is shown through [`Quoted`]).
#[derive(Debug, Error)]
pub enum CliError {
    /// No game has this id.
    #[error("unknown game {name} (the games are: {known})", name = Quoted(.id))]
    UnknownGame {
        /// The id given.
        id: String,
        /// The ids there are, comma-separated.
        known: String,
    },
    /// `slide` was asked for a game that does not slide.
    #[error("{game} is not a sliding game (slide works on: {known})", game = Quoted(.id))]
    NotSliding {
        /// The id given.
        id: String,
        /// The ids of the sliding games, comma-separated.
        known: String,
    },
    /// `hint` or `bench` was asked for a game no AI player plays.
    #[error("{game} has no AI player ({command} works on: {known})", game = Quoted(.id))]
    NoPlayer {
        /// The command.
        command: &'static str,
        /// The id given.
        id: String,
        /// The ids of the games with a player, comma-separated.
        known: String,
    },
    /// `hint --open/--total` was asked for a game that is not of the Strike 9 kind.
    #[error(
        "--open and --total are for the {title} table (games: {known}); hint {game} takes --seed, --moves and --ms",
        title = Strike9::INFO.title,
        game = Quoted(.id)
    )]
    NotStrike9 {
        /// The id given.
        id: String,
        /// The ids of the games the table plays, comma-separated.
        known: String,
    },
    /// `hint --open/--total` was asked for a Strike 9 game whose parameters the tables do not
    /// cover (its assistant does not play them).
    #[error(
        "--open and --total are for the {title} table, which does not cover {game} (it covers the games its assistant plays: {known})",
        title = Strike9::INFO.title,
        game = Quoted(.id)
    )]
    NotCovered {
        /// The id given.
        id: String,
        /// The ids of the games the table plays, comma-separated.
        known: String,
    },
    /// `odds` was asked for a game that is not of the Strike 9 kind.
    #[error(
        "odds is for the {title} games (games: {known}), not {game}",
        title = Strike9::INFO.title,
        game = Quoted(.id)
    )]
    NoOdds {
        /// The id given.
        id: String,
        /// The ids of the Strike 9 games, comma-separated.
        known: String,
    },
    /// `--params` that are not JSON, or parameters the game refuses.
    #[error("--params: {0}")]
    BadParams(String),
    /// A game code that is not one, is mistyped, or is of a game there is not.
    #[error("--code: {0}")]
    BadCode(#[from] CodeError),
    /// `--date` that is not a date.
    #[error("--date: {0}")]
    BadDate(#[from] DateError),
    /// A direction that is not one.
    #[error("{dir} is not a direction (expected left, right, up or down)", dir = Quoted(.0))]
    BadDirection(String),
    /// A board that is not JSON rows of whole numbers.
    #[error("{place}the board is not JSON rows of whole numbers: {reason}")]
    BoardSyntax {
        /// "line N: " when reading boards from stdin.
        place: String,
        /// What the JSON reader said.
        reason: String,
    },
    /// A board the game cannot hold.
    #[error("{place}{source}")]
    Board {
        /// "line N: " when reading boards from stdin.
        place: String,
        /// What is wrong with it.
        source: BoardError,
    },
    /// Bytes on stdin that are not UTF-8 text.
    #[error("line {0}: the input is not UTF-8 text")]
    NotUtf8(usize),
    /// Stdin could not be read.
    #[error("line {line}: cannot read stdin: {source}")]
    Read {
        /// The line (from 1) being read.
        line: usize,
        /// What the system said.
        source: io::Error,
    },
    /// A tile list that is not one.
    #[error("--open: {0}")]
    Tiles(String),
    /// A move that could not be read or played.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A game that cannot be set up (never with the catalogue's parameters).
    #[error(transparent)]
    Params(#[from] ParamsError),
    /// A needed option is missing, or one was given that does not apply.
    #[error("{0}")]
    Usage(String),
    /// The position has no move to advise.
    #[error("{0}")]
    NoMove(String),
    /// The AI player cannot search this position (a 2048 tile above 32768): its reason.
    #[error("{0}")]
    AiCannotPlay(String),
    /// The AI player failed: it chose a move the game refused, or none in a game in play.
    #[error("the AI player stopped: {0}")]
    Ai(String),
    /// The system would not start a bench thread.
    #[error("cannot start a game thread: {0}")]
    Thread(io::Error),
    /// A bench thread panicked (a bug): what it said.
    #[error("a game thread failed: {0}")]
    ThreadFailed(String),
    /// `variant show` of an id that is no sliding variant, or `variant check` of a refused
    /// file.
    #[error(transparent)]
    Variant(#[from] VariantCliError),
    /// `train` cannot go on: its weights file is refused, or cannot be saved.
    #[error(transparent)]
    Train(#[from] tilebox_ai::ntuple::run::RunError),
    /// Writing stdout failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] io::Error),
}

impl CliError {
    /// 2 for bad input of any kind; 1 when the tool cannot do its work for another reason
    /// (stdin unreadable, output unwritable, threads, the AI).
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Read { .. }
            | CliError::AiCannotPlay(_)
            | CliError::Ai(_)
            | CliError::Thread(_)
            | CliError::ThreadFailed(_)
            | CliError::Train(_)
            | CliError::Io(_) => 1,
            CliError::UnknownGame { .. }
            | CliError::NotSliding { .. }
            | CliError::NoPlayer { .. }
            | CliError::NotStrike9 { .. }
            | CliError::NotCovered { .. }
            | CliError::NoOdds { .. }
            | CliError::BadParams(_)
            | CliError::BadCode(_)
            | CliError::BadDate(_)
            | CliError::BadDirection(_)
            | CliError::BoardSyntax { .. }
            | CliError::Board { .. }
            | CliError::NotUtf8(_)
            | CliError::Tiles(_)
            | CliError::Play(_)
            | CliError::Params(_)
            | CliError::Usage(_)
            | CliError::NoMove(_)
            | CliError::Variant(_) => 2,
        }
    }
}

/// Text the user gave, shown in quotes with line breaks and other control characters escaped,
/// so that a message stays on one line, and bounded as every refusal bounds it
/// (`tilebox_core::json_words::bounded`).
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = tilebox_core::json_words::bounded(&self.0.escape_debug().to_string());
        write!(f, "'{text}'")
    }
}

/// What `variant` refuses (status 2).
#[derive(Debug, Error)]
pub enum VariantCliError {
    /// No entry has this id.
    #[error("unknown variant {name} (the sliding variants are: {known})", name = Quoted(.id))]
    Unknown {
        /// The id given.
        id: String,
        /// The ids of the sliding variants, comma-separated.
        known: String,
    },
    /// The entry is not of the sliding kind.
    #[error("{game} is not a sliding variant (variant show works on: {known})", game = Quoted(.id))]
    NotSliding {
        /// The id given.
        id: String,
        /// The ids of the sliding variants, comma-separated.
        known: String,
    },
    /// The file is refused, as the loader would refuse it: one line naming the file and the
    /// field.
    #[error("{0}")]
    Refused(Refusal),
}

/// What a player's refusal is reported as: a position it cannot search is the player's limit
/// (status 1, its reason as the message); anything else is its failure.
pub(crate) fn assist_error(err: AssistError) -> CliError {
    match err {
        AssistError::CannotPlay(reason) => CliError::AiCannotPlay(reason),
        other => CliError::Ai(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_stays_on_one_line() {
        assert_eq!(Quoted("a\nb").to_string(), r"'a\nb'");
        assert_eq!(Quoted("x\r\ty").to_string(), r"'x\r\ty'");
        assert_eq!(Quoted("left").to_string(), "'left'");
        let err = CliError::UnknownGame {
            id: "a\nb".into(),
            known: "x, y".into(),
        };
        assert_eq!(
            err.to_string(),
            r"unknown game 'a\nb' (the games are: x, y)"
        );
    }

    #[test]
    fn a_board_the_ai_cannot_search_is_not_bad_input() {
        // The AI's 64-bit board refuses tiles above 32768; none arises from a new game, so the
        // refusal is handed over as the player gives it. It must not be reported as bad input
        // (status 2), and its reason is the message.
        let err = assist_error(AssistError::CannotPlay(
            "the AI cannot play this board: tiles above 32768".into(),
        ));
        assert!(matches!(err, CliError::AiCannotPlay(_)), "{err}");
        assert_eq!(err.exit_code(), 1);
        assert_eq!(
            err.to_string(),
            "the AI cannot play this board: tiles above 32768"
        );
        let err = assist_error(AssistError::WrongGame);
        assert!(matches!(err, CliError::Ai(_)), "{err}");
        assert_eq!(err.exit_code(), 1);
    }
}
