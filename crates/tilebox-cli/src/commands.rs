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

/// Everything that can go wrong, each with the message the user sees.
#[derive(Debug, Error)]
pub enum CliError {
    /// No game has this id.
    #[error("unknown game '{id}' (the games are: {known})")]
    UnknownGame {
        /// The id given.
        id: String,
        /// The ids there are, comma-separated.
        known: String,
    },
    /// `slide` was asked for a game that does not slide.
    #[error("'{0}' is not a sliding game (slide works on: {known})", known = sliding_ids())]
    NotSliding(String),
    /// A direction that is not one.
    #[error("'{0}' is not a direction (expected left, right, up or down)")]
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
    /// A tile list that is not one.
    #[error("--open: {0}")]
    Tiles(String),
    /// A move that could not be read or played.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A game that cannot be set up (never with the standard parameters).
    #[error(transparent)]
    Params(#[from] ParamsError),
    /// A needed option is missing.
    #[error("{0}")]
    Missing(&'static str),
    /// The position has no move to advise.
    #[error("{0}")]
    NoMove(String),
    /// The AI player failed to finish a game.
    #[error("the AI player stopped: {0}")]
    Ai(String),
    /// Reading stdin or writing stdout failed.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl CliError {
    /// 1 when the output could not be written, 2 for bad input of any kind.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Io(_) => 1,
            _ => 2,
        }
    }
}

fn sliding_ids() -> String {
    RuleSet::ALL.map(RuleSet::id).join(", ")
}

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
                for (i, line) in input.lines().enumerate() {
                    let line = line?;
                    if !line.trim().is_empty() {
                        writeln!(
                            out,
                            "{}",
                            slide(rules, dir, &line, &format!("line {}: ", i + 1))?
                        )?;
                    }
                }
            } else {
                writeln!(out, "{}", slide(rules, dir, &board, "")?)?;
            }
        }
        Command::Hint {
            game,
            seed,
            moves,
            open,
            total,
            ms,
        } => {
            let limits = Limits::per_move(Duration::from_millis(ms));
            let best = match game.as_str() {
                "2048" => sliding_hint::<Game2048>(seed, &moves, |s| {
                    Engine::new().advise_2048(s, &limits)
                })?,
                "threes" => sliding_hint::<Threes>(seed, &moves, |s| {
                    Engine::new().advise_threes(s, &limits)
                })?,
                "strike9" => {
                    let total = total.ok_or(CliError::Missing("hint strike9 needs --total N"))?;
                    Odds::shared()
                        .best_move(parse_tiles(&open)?, total)
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
                let ms = ms_per_move.ok_or(CliError::Missing("bench needs --ms-per-move M"))?;
                Ok(Limits::per_move(Duration::from_millis(ms)))
            };
            let which = match game.as_str() {
                "2048" => Bench::Twenty48(limits()?),
                "threes" => Bench::Threes(limits()?),
                "strike9" => Bench::Strike9,
                _ => return Err(unknown(&registry, &game)),
            };
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
    seed: Option<u64>,
    moves: &str,
    advise: impl FnOnce(&P::State) -> Option<Advice>,
) -> Result<String, CliError> {
    let seed = seed.ok_or(CliError::Missing("hint needs --seed N (and --moves MOVES)"))?;
    let mut session = Session::<P>::with_seed(seed)?;
    session.play_text(moves)?;
    if session.status().over {
        return Err(CliError::NoMove(
            "the game is over: there is no move".into(),
        ));
    }
    let advice = advise(session.state())
        .ok_or_else(|| CliError::NoMove("the AI has no move for this board".into()))?;
    Ok(advice.best.to_string())
}

/// One `slide` answer as a JSON line.
fn slide(rules: RuleSet, dir: Direction, text: &str, place: &str) -> Result<String, CliError> {
    let rows: Vec<Vec<u64>> = serde_json::from_str(text).map_err(|e| CliError::BoardSyntax {
        place: place.to_string(),
        reason: e.to_string(),
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

/// Reads `1,2,3` as a tile set; an empty list is no open tile.
fn parse_tiles(text: &str) -> Result<TileSet, CliError> {
    let tiles = text
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u8>()
                .map_err(|_| CliError::Tiles(format!("'{t}' is not a tile (tiles are 1 to 9)")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    TileSet::from_tiles(tiles).map_err(|e: TileError| CliError::Tiles(e.to_string()))
}
