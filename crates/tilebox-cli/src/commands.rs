//! What each command does: read its arguments, call the game crates, write the answer.

use std::io::{self, BufRead, Write};

use serde_json::{Value, json};
use std::time::Duration;
use thiserror::Error;

use tilebox_ai::{Advice, Engine, Limits};
use tilebox_core::{GameEntry, ParamsError, PlayError, Puzzle, Registry, Session};
use tilebox_sliding::{BoardError, Direction, Game2048, RuleSet, Threes};
use tilebox_strike9::{Odds, TileError, TileSet, addends};

use crate::args::Command;
use crate::bench::{self, Bench};

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
    #[error("{game} is not a sliding game (slide works on: {known})", game = Quoted(.0), known = sliding_ids())]
    NotSliding(String),
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
    /// A game that cannot be set up (never with the standard parameters).
    #[error(transparent)]
    Params(#[from] ParamsError),
    /// A needed option is missing, or one was given that does not apply.
    #[error("{0}")]
    Usage(&'static str),
    /// The position has no move to advise.
    #[error("{0}")]
    NoMove(String),
    /// The AI player cannot search this board: its 64-bit board holds tiles up to 32768.
    #[error("the AI cannot play this board (tiles above 32768)")]
    AiCannotPlay,
    /// The AI player chose a move the game refused.
    #[error("the AI player stopped: {0}")]
    Ai(String),
    /// The system would not start a bench thread.
    #[error("cannot start a game thread: {0}")]
    Thread(io::Error),
    /// A bench thread panicked (a bug): what it said.
    #[error("a game thread failed: {0}")]
    ThreadFailed(String),
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
            | CliError::AiCannotPlay
            | CliError::Ai(_)
            | CliError::Thread(_)
            | CliError::ThreadFailed(_)
            | CliError::Io(_) => 1,
            CliError::UnknownGame { .. }
            | CliError::NotSliding(_)
            | CliError::BadDirection(_)
            | CliError::BoardSyntax { .. }
            | CliError::Board { .. }
            | CliError::NotUtf8(_)
            | CliError::Tiles(_)
            | CliError::Play(_)
            | CliError::Params(_)
            | CliError::Usage(_)
            | CliError::NoMove(_) => 2,
        }
    }
}

/// Text the user gave, shown in quotes with line breaks and other control characters escaped,
/// so that a message stays on one line.
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}'", self.0.escape_debug())
    }
}

fn sliding_ids() -> String {
    RuleSet::ALL.map(RuleSet::id).join(", ")
}

/// Thinking time of a sliding hint when `--ms` is not given.
const HINT_MS: u64 = 200;

/// Runs one command, reading stdin from `input` and writing to `out`.
pub fn run(command: Command, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), CliError> {
    let registry = tilebox_games::registry();
    match command {
        Command::List => {
            for entry in registry.games() {
                writeln!(out, "{}\t{}", entry.info.id, entry.info.title)?;
            }
        }
        Command::New { game, seed } => {
            let seed = seed.unwrap_or_else(rand::random);
            let session = find(&registry, &game)?.new_session(seed)?;
            writeln!(out, "{}", session.state_json())?;
        }
        Command::Play { game, seed, moves } => {
            let mut session = find(&registry, &game)?.new_session(seed)?;
            session.play_text(&moves)?;
            writeln!(out, "{}", session.state_json())?;
        }
        Command::Slide {
            game,
            direction,
            board,
        } => {
            let rules = match RuleSet::from_id(&game) {
                Some(rules) => rules,
                None => {
                    find(&registry, &game)?;
                    return Err(CliError::NotSliding(game));
                }
            };
            let dir: Direction = direction
                .parse()
                .map_err(|_| CliError::BadDirection(direction.clone()))?;
            if board == "-" {
                // All or nothing: a bad line anywhere leaves stdout empty.
                for answer in slide_lines(rules, dir, input)? {
                    writeln!(out, "{answer}")?;
                }
            } else {
                writeln!(out, "{}", slide(rules, dir, &board, "")?)?;
            }
        }
        Command::Hint {
            game,
            seed,
            moves,
            ms,
            open,
            total,
        } => {
            let best = match game.as_str() {
                "2048" | "threes" => {
                    if open.is_some() || total.is_some() {
                        return Err(CliError::Usage(
                            "--open and --total are for hint strike9 (hint 2048 and hint threes take --seed, --moves and --ms)",
                        ));
                    }
                    let seed =
                        seed.ok_or(CliError::Usage("hint needs --seed N (and --moves MOVES)"))?;
                    let moves = moves.as_deref().unwrap_or("");
                    let limits = Limits::per_move(Duration::from_millis(ms.unwrap_or(HINT_MS)));
                    if game == "2048" {
                        sliding_hint::<Game2048>(seed, moves, |s| {
                            Engine::new().advise_2048(s, &limits)
                        })?
                    } else {
                        sliding_hint::<Threes>(seed, moves, |s| {
                            Engine::new().advise_threes(s, &limits)
                        })?
                    }
                }
                "strike9" => {
                    if seed.is_some() || moves.is_some() || ms.is_some() {
                        return Err(CliError::Usage(
                            "--seed, --moves and --ms are for hint 2048 and hint threes (hint strike9 takes --open and --total)",
                        ));
                    }
                    let total =
                        total.ok_or(CliError::Usage("hint strike9 needs --total N (2 to 12)"))?;
                    let open = match open {
                        Some(text) => parse_tiles(&text)?,
                        None => TileSet::ALL,
                    };
                    Odds::shared()
                        .best_move(open, total)
                        .ok_or_else(|| {
                            CliError::NoMove(format!("no open tiles add up to {total}"))
                        })?
                        .to_string()
                }
                _ => return Err(unknown(&registry, &game)),
            };
            writeln!(out, "{best}")?;
        }
        Command::Odds { open } => {
            let chance = Odds::shared().before_roll(parse_tiles(&open)?);
            writeln!(out, "{chance:.6}")?;
        }
        Command::Bench {
            game,
            games,
            ms_per_move,
            seed,
            threads,
        } => {
            let limits = || -> Result<Limits, CliError> {
                let ms = ms_per_move.ok_or(CliError::Usage("bench needs --ms-per-move M"))?;
                Ok(Limits::per_move(Duration::from_millis(ms)))
            };
            let which = match game.as_str() {
                "2048" => Bench::Twenty48(limits()?),
                "threes" => Bench::Threes(limits()?),
                "strike9" => Bench::Strike9,
                _ => return Err(unknown(&registry, &game)),
            };
            // More threads than games would have nothing to do.
            let threads = threads.min(games);
            let mut report = serde_json::Map::new();
            report.insert("game".into(), game.into());
            report.insert("seed".into(), seed.into());
            if !matches!(which, Bench::Strike9) {
                report.insert("ms_per_move".into(), ms_per_move.into());
            }
            report.insert("threads".into(), threads.into());
            report.extend(bench::run(which, games, seed, threads)?);
            writeln!(out, "{}", Value::Object(report))?;
        }
        Command::Addends { total, open } => {
            for set in addends(total, parse_tiles(&open)?) {
                writeln!(out, "{set}")?;
            }
        }
    }
    Ok(())
}

/// The registry entry for `id`, or an error listing the ids there are.
fn find<'r>(registry: &'r Registry, id: &str) -> Result<&'r GameEntry, CliError> {
    registry.get(id).ok_or_else(|| unknown(registry, id))
}

fn unknown(registry: &Registry, id: &str) -> CliError {
    CliError::UnknownGame {
        id: id.to_string(),
        known: registry.ids().join(", "),
    }
}

/// The AI's move, as a letter, for a sliding game replayed from `seed` and `moves`.
fn sliding_hint<P: Puzzle<Move = Direction>>(
    seed: u64,
    moves: &str,
    advise: impl FnOnce(&P::State) -> Option<Advice>,
) -> Result<String, CliError> {
    let mut session = Session::<P>::with_seed(seed)?;
    session.play_text(moves)?;
    if session.status().over {
        return Err(CliError::NoMove(
            "the game is over: there is no move".into(),
        ));
    }
    // The game is in play, so a move exists: only a board the AI cannot hold stops it.
    let advice = advise(session.state()).ok_or(CliError::AiCannotPlay)?;
    Ok(advice.best.to_string())
}

/// The `slide` answers for stdin's boards, one a line (from 1; blank lines skipped), read to
/// the end unless a line is bad.
fn slide_lines(
    rules: RuleSet,
    dir: Direction,
    input: &mut dyn BufRead,
) -> Result<Vec<String>, CliError> {
    let mut answers = Vec::new();
    let mut bytes = Vec::new();
    for line in 1.. {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => break,
            Ok(_) => {}
            Err(source) => return Err(CliError::Read { line, source }),
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| CliError::NotUtf8(line))?;
        if !text.trim().is_empty() {
            answers.push(slide(rules, dir, text, &format!("line {line}: "))?);
        }
    }
    Ok(answers)
}

/// One `slide` answer as a JSON line.
fn slide(rules: RuleSet, dir: Direction, text: &str, place: &str) -> Result<String, CliError> {
    let rows: Vec<Vec<u64>> = serde_json::from_str(text).map_err(|e| CliError::BoardSyntax {
        place: place.to_string(),
        reason: json_reason(&e),
    })?;
    let board = rules
        .board_from_values(&rows)
        .map_err(|source| CliError::Board {
            place: place.to_string(),
            source,
        })?;
    let slide = rules.slide(&board, dir);
    let answer = json!({
        "board": rules.values(&slide.board),
        "moved": slide.moved,
        "gained": slide.gained,
    });
    Ok(answer.to_string())
}

/// What the JSON reader said, its place given as a character (from 1) when the board is on
/// one line: "line 1" would clash with the line of stdin the board came from.
fn json_reason(e: &serde_json::Error) -> String {
    let text = e.to_string();
    if e.line() == 1 {
        let place = format!(" at line 1 column {}", e.column());
        if let Some(what) = text.strip_suffix(&place) {
            return format!("{what} at character {}", e.column());
        }
    }
    text
}

/// Reads `1,2,3` as a tile set; an empty list is no open tile.
fn parse_tiles(text: &str) -> Result<TileSet, CliError> {
    let tiles = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u8>().map_err(|_| {
                CliError::Tiles(format!("{} is not a tile (tiles are 1 to 9)", Quoted(t)))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    TileSet::from_tiles(tiles).map_err(|e: TileError| CliError::Tiles(e.to_string()))
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
            known: "2048".into(),
        };
        assert_eq!(
            err.to_string(),
            r"unknown game 'a\nb' (the games are: 2048)"
        );
    }

    #[test]
    fn a_board_the_ai_cannot_search_is_not_bad_input() {
        // The AI's 64-bit board refuses tiles above 32768; none arises from a new game, so the
        // refusal is simulated. It must not be reported as bad input (status 2).
        let err = sliding_hint::<Game2048>(1, "", |_| None).expect_err("no advice");
        assert!(matches!(err, CliError::AiCannotPlay), "{err}");
        assert_eq!(err.exit_code(), 1);
        assert!(err.to_string().contains("32768"), "{err}");
    }

    #[test]
    fn json_places_on_one_line_are_characters() {
        let err = slide(RuleSet::Twenty48, Direction::Left, "[[2,2],x", "line 3: ")
            .expect_err("not JSON");
        // `x` is the 8th character.
        assert_eq!(
            err.to_string(),
            "line 3: the board is not JSON rows of whole numbers: expected value at character 8"
        );
        // Over several lines the reader's own line and column stay.
        let err =
            slide(RuleSet::Twenty48, Direction::Left, "[[2,2],\n x", "").expect_err("not JSON");
        assert!(err.to_string().ends_with("at line 2 column 2"), "{err}");
    }
}
