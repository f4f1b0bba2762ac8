//! What each command does: read its arguments, ask the registry for the game, write the answer.
//!
//! No game is known here by its id: an entry is found in the registry, and what it can do is
//! asked of it (its assistant, its sliding rule set, whether it is of the Strike 9 kind and its
//! assistant plays it, for the exact table).

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use tilebox_core::date::Date;
use tilebox_core::{DynAssistant, DynSession, Entry, Registry};
use tilebox_sliding::{Direction, Rules, rules_of};
use tilebox_strike9::{Dice, Strike9, Strike9Params, Table, TileError, TileSet, addends};

use crate::args::{Command, DEFAULT_MS};
use crate::bench::{self, Starts};
use crate::error::{CliError, Quoted, assist_error};

/// Where a command tells what is not its answer: `train`'s progress, a player's warning (a
/// network file refused, so the heuristic plays).
pub struct Notes<'a> {
    /// The stream.
    pub stderr: &'a mut dyn Write,
    /// Whether it is a terminal (`train`'s line is redrawn) or not (a line now and then).
    pub terminal: bool,
}

impl Notes<'_> {
    /// Writes each warning on a line of its own, `warning: …`; a closed stderr is no one to
    /// tell.
    fn warn(&mut self, warnings: &[String]) {
        for w in warnings {
            let _ = writeln!(self.stderr, "warning: {w}");
        }
        let _ = self.stderr.flush();
    }
}

/// Runs one command on the games of `registry`, reading stdin from `input` and writing to
/// `out`, and what is not its answer to `notes`.
pub fn run(
    registry: &Registry,
    command: Command,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    mut notes: Notes<'_>,
) -> Result<(), CliError> {
    match command {
        Command::Train {
            game,
            games,
            threads,
            seed,
            network,
            learning,
        } => {
            let request = crate::train::Request {
                game,
                games,
                threads,
                seed,
                network: network.map(Into::into),
                learning: learning.map(Into::into),
            };
            crate::train::run(
                registry,
                &request,
                &crate::variant::data_dir(),
                notes.terminal,
                out,
                notes.stderr,
            )?;
        }
        Command::List => {
            for entry in registry.entries() {
                writeln!(out, "{}\t{}", entry.id(), entry.title())?;
            }
        }
        Command::New {
            game,
            seed,
            params,
            code,
        } => {
            let session = new_game(registry, game.as_deref(), seed, params.as_deref(), code)?;
            writeln!(out, "{}", session.state_json())?;
        }
        Command::Play {
            game,
            seed,
            moves,
            params,
            code,
        } => {
            let mut session = new_game(registry, game.as_deref(), seed, params.as_deref(), code)?;
            session.play_text(&moves)?;
            writeln!(out, "{}", session.state_json())?;
        }
        Command::Code { game, seed, params } => {
            let entry = find_any(registry, &game)?;
            let session = Game::of(&entry, params.as_deref())?.start(seed)?;
            writeln!(out, "{}", registry.code_of(&*session))?;
        }
        Command::Daily { game, date } => {
            let entry = find_any(registry, &game)?;
            let date = match date {
                Some(text) => text.parse()?,
                None => today(),
            };
            writeln!(out, "{}", registry.daily_code(&entry, date))?;
        }
        Command::Slide {
            game,
            direction,
            board,
            turn,
        } => {
            let entry = find(registry, &game)?;
            let rules = rules_of(entry).ok_or_else(|| CliError::NotSliding {
                id: game.clone(),
                known: ids_where(registry, |e| rules_of(e).is_some()),
            })?;
            let dir: Direction = direction
                .parse()
                .map_err(|_| CliError::BadDirection(direction.clone()))?;
            // The rules of that move: where some hold on some moves or directions only, those.
            let rules = rules.on_move(dir, turn).clone();
            if board == "-" {
                // All or nothing: a bad line anywhere leaves stdout empty.
                for answer in slide_lines(&rules, dir, input)? {
                    writeln!(out, "{answer}")?;
                }
            } else {
                writeln!(out, "{}", slide(&rules, dir, &board, "")?)?;
            }
        }
        Command::Hint {
            game,
            seed,
            moves,
            ms,
            open,
            total,
            params,
        } => {
            let chosen = Game::find(registry, &game, params.as_deref())?;
            let entry = chosen.entry;
            let best = if open.is_some() || total.is_some() {
                let table_params = strike9_params(&chosen).filter(|_| chosen.has_table());
                let Some(table_params) = table_params else {
                    let known = ids_where(registry, has_table);
                    return Err(if entry.is::<Strike9>() {
                        CliError::NotCovered { id: game, known }
                    } else {
                        CliError::NotStrike9 { id: game, known }
                    });
                };
                if seed.is_some() || moves.is_some() || ms.is_some() {
                    return Err(CliError::Usage(
                        "--open and --total give a position, --seed, --moves and --ms a game to replay: give one or the other".into(),
                    ));
                }
                table_hint(&table_params, open.as_deref(), total)?
            } else {
                let assistant = chosen.assistant_for(registry, "hint")?;
                let seed = seed.ok_or_else(|| {
                    CliError::Usage(if chosen.has_table() {
                        "hint needs --seed N (and --moves MOVES), or --total N (and --open 1,2,…)"
                            .into()
                    } else {
                        "hint needs --seed N (and --moves MOVES)".into()
                    })
                })?;
                let budget = Duration::from_millis(ms.unwrap_or(DEFAULT_MS));
                player_hint(
                    &chosen,
                    &*assistant,
                    seed,
                    moves.as_deref().unwrap_or(""),
                    budget,
                    &mut notes,
                )?
            };
            writeln!(out, "{best}")?;
        }
        Command::Odds { game, open, params } => {
            let table_params = match game {
                Some(id) => {
                    let chosen = Game::find(registry, &id, params.as_deref())?;
                    strike9_params(&chosen).ok_or_else(|| CliError::NoOdds {
                        id,
                        known: ids_where(registry, |e| e.is::<Strike9>()),
                    })?
                }
                None => standard_params(params.as_deref())?,
            };
            for line in odds(&table_params, open.as_deref())? {
                writeln!(out, "{line}")?;
            }
        }
        Command::Bench {
            game,
            games,
            ms_per_move,
            seed,
            threads,
            until_win,
            each,
            params,
        } => {
            let chosen = Game::find(registry, &game, params.as_deref())?;
            let assistant = chosen.assistant_for(registry, "bench")?;
            // More threads than games would have nothing to do.
            let threads = threads.min(games);
            let mut report = serde_json::Map::new();
            report.insert("game".into(), game.into());
            if let Some(params) = &chosen.params {
                report.insert("params".into(), params.clone());
            }
            report.insert("seed".into(), seed.into());
            report.insert("ms_per_move".into(), ms_per_move.into());
            report.insert("threads".into(), threads.into());
            let until = if until_win {
                report.insert("until_win".into(), true.into());
                bench::Until::Win
            } else {
                bench::Until::Over
            };
            // Each game's line is written as it ends, so that a long bench shows its progress
            // and keeps its finished games should it be stopped.
            let mut line = |game: Value| -> Result<(), CliError> {
                if each {
                    writeln!(out, "{game}")?;
                    out.flush()?;
                }
                Ok(())
            };
            let plan = bench::Plan {
                games,
                seed,
                threads,
                budget: Duration::from_millis(ms_per_move),
                until,
            };
            let played = bench::run(&chosen, &*assistant, plan, &mut line)?;
            notes.warn(&played.warnings);
            if let Some(evaluation) = played.evaluation {
                report.insert("player".into(), evaluation.into());
            }
            report.extend(played.summary);
            writeln!(out, "{}", Value::Object(report))?;
        }
        Command::Variant { command } => crate::variant::run(registry, command, out)?,
        Command::Addends { total, open } => {
            for set in addends(total, parse_tiles(&open, 9)?) {
                writeln!(out, "{set}")?;
            }
        }
    }
    Ok(())
}

/// The registry entry for `id`, or an error listing the ids there are.
fn find<'r>(registry: &'r Registry, id: &str) -> Result<&'r Entry, CliError> {
    registry.get(id).ok_or_else(|| CliError::UnknownGame {
        id: id.to_string(),
        known: ids_where(registry, |_| true),
    })
}

/// The entry `id` of `registry`, one of its combinations of options included (a game code
/// may name one), or an error listing the ids there are.
fn find_any(registry: &Registry, id: &str) -> Result<Entry, CliError> {
    registry
        .entry_or_combination(id)
        .ok_or_else(|| CliError::UnknownGame {
            id: id.to_string(),
            known: ids_where(registry, |_| true),
        })
}

/// The new game of `new` and `play`: the game of `code` when it is given, else the entry
/// `game` with `params`, from `seed` (a random one when none is given).
fn new_game(
    registry: &Registry,
    game: Option<&str>,
    seed: Option<u64>,
    params: Option<&str>,
    code: Option<String>,
) -> Result<Box<dyn DynSession>, CliError> {
    if let Some(code) = code {
        return Ok(registry.start_code(&code.parse()?)?);
    }
    let game = Game::find(registry, game.unwrap_or_default(), params)?;
    game.start(seed.unwrap_or_else(rand::random))
}

/// Today, in UTC, by the system's clock.
fn today() -> Date {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    Date::of_unix(i64::try_from(seconds).unwrap_or(i64::MAX))
}

/// The game a command plays: an entry of the registry, with the parameters of `--params` in
/// place of its preset when they are given (checked when the game is found).
pub(crate) struct Game<'r> {
    /// The entry.
    pub(crate) entry: &'r Entry,
    /// The parameters of `--params`, as JSON; `None` for the entry's preset.
    pub(crate) params: Option<Value>,
}

impl<'r> Game<'r> {
    /// The entry `id` of `registry` with the parameters `params` (JSON text) if given: an error
    /// when there is no such entry, when `params` is not JSON, or when the entry's kind refuses
    /// it (an unknown field, a value out of range).
    fn find(registry: &'r Registry, id: &str, params: Option<&str>) -> Result<Self, CliError> {
        Game::of(find(registry, id)?, params)
    }

    /// `entry` with the parameters `params` (JSON text) if given: an error when `params` is
    /// not JSON or the entry's kind refuses it.
    fn of(entry: &'r Entry, params: Option<&str>) -> Result<Self, CliError> {
        let params = params.map(parse_params).transpose()?;
        let game = Game { entry, params };
        // A game is started once to ask the kind whether it takes the parameters.
        game.start(0)?;
        Ok(game)
    }

    /// A new game from `seed`, with the parameters given or the entry's preset.
    pub(crate) fn start(&self, seed: u64) -> Result<Box<dyn DynSession>, CliError> {
        match &self.params {
            None => Ok(self.entry.new_session(seed)?),
            Some(params) => self
                .entry
                .with_params(params, seed)
                .map_err(|e| CliError::BadParams(one_line(&e.0))),
        }
    }

    /// The assistant of the game's parameters, if its kind has one that plays them.
    fn assistant(&self) -> Option<Arc<dyn DynAssistant>> {
        match &self.params {
            None => self.entry.assistant(),
            Some(_) => self.start(0).ok()?.assistant(),
        }
    }

    /// The game's assistant, for `command`, or an error naming the entries that have one.
    fn assistant_for(
        &self,
        registry: &Registry,
        command: &'static str,
    ) -> Result<Arc<dyn DynAssistant>, CliError> {
        self.assistant().ok_or_else(|| CliError::NoPlayer {
            command,
            id: self.entry.id().to_string(),
            known: ids_where(registry, |e| e.assistant().is_some()),
        })
    }

    /// Whether `hint --open/--total` answers for this game from Strike 9's exact tables: it is
    /// of the Strike 9 kind and its assistant plays its parameters.
    fn has_table(&self) -> bool {
        self.entry.is::<Strike9>() && self.assistant().is_some()
    }
}

impl Starts for Game<'_> {
    fn entry(&self) -> &Entry {
        self.entry
    }

    fn start(&self, seed: u64) -> Result<Box<dyn DynSession>, CliError> {
        Game::start(self, seed)
    }
}

/// Reads `--params` as JSON.
fn parse_params(text: &str) -> Result<Value, CliError> {
    serde_json::from_str(text)
        .map_err(|e| CliError::BadParams(format!("not JSON: {}", json_reason(&e))))
}

/// A message on one line: line breaks become spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The Strike 9 parameters of `game`, or `None` when it is of another kind.
fn strike9_params(game: &Game<'_>) -> Option<Strike9Params> {
    match &game.params {
        None => game.entry.params::<Strike9>().copied(),
        Some(params) => serde_json::from_value(params.clone()).ok(),
    }
}

/// The Strike 9 parameters of `odds` without a game id: the standard game's, or `params` (JSON
/// text) read as the kind reads them.
fn standard_params(params: Option<&str>) -> Result<Strike9Params, CliError> {
    let Some(text) = params else {
        return Ok(Strike9Params::default());
    };
    let params: Strike9Params = serde_json::from_value(parse_params(text)?)
        .map_err(|e| CliError::BadParams(one_line(&e.to_string())))?;
    params
        .check()
        .map_err(|e| CliError::BadParams(one_line(&e.0)))?;
    Ok(params)
}

/// The lines of `odds` for the game of `params` with `open` (default: the whole box) open: the
/// chance of shutting the box with the play that maximises it (6 decimals), and for the golf
/// and digits scorings the expected final score with the play that minimises it (4 decimals).
fn odds(params: &Strike9Params, open: Option<&str>) -> Result<Vec<String>, CliError> {
    let open = match open {
        Some(text) => parse_tiles(text, params.tiles)?,
        None => params.full_box(),
    };
    let value = |table: &Table| {
        table
            .before_roll(open)
            .map(|v| v.to_f64())
            .ok_or_else(|| CliError::Tiles(format!("{open} is not in the box")))
    };
    let mut lines = vec![format!("{:.6}", value(Table::shared_chance(params)?)?)];
    if params.score.lower_is_better() {
        lines.push(format!("{:.4}", value(Table::shared(params)?)?));
    }
    Ok(lines)
}

/// The ids of the entries that pass `keep`, comma-separated, for messages; "none" when there
/// is none.
fn ids_where(registry: &Registry, keep: impl Fn(&Entry) -> bool) -> String {
    let ids: Vec<&str> = registry
        .entries()
        .iter()
        .filter(|e| keep(e))
        .map(Entry::id)
        .collect();
    if ids.is_empty() {
        "none".to_string()
    } else {
        ids.join(", ")
    }
}

/// Whether `hint --open/--total` answers for `entry`'s preset from Strike 9's exact tables:
/// the entry is of the Strike 9 kind and its assistant plays its parameters.
fn has_table(entry: &Entry) -> bool {
    entry.is::<Strike9>() && entry.assistant().is_some()
}

/// `hint --open/--total` for the game of `params`: with `total`, the best tiles to shut for
/// that roll with `open` (default all) open, for the game's scoring; without, where the choice
/// of dice is pending with these tiles open, `1d` or `2d`.
fn table_hint(
    params: &Strike9Params,
    open: Option<&str>,
    total: Option<u32>,
) -> Result<String, CliError> {
    let open = match open {
        Some(text) => parse_tiles(text, params.tiles)?,
        None => params.full_box(),
    };
    let table = Table::shared(params)?;
    let Some(total) = total else {
        if !params.one_die_allowed(open) {
            return Err(CliError::Usage(
                if params.one_die == tilebox_strike9::OneDie::Never {
                    "hint with --open needs --total N (2 to 12)".into()
                } else {
                    format!(
                        "hint needs --total N here: with {} open there is no choice of one die or two",
                        list_or_none(open)
                    )
                },
            ));
        }
        return Ok(table
            .best_dice(open)
            .map_or_else(|| Dice::Two.to_string(), |d| d.to_string()));
    };
    let dice = if total >= 2 {
        Dice::Two
    } else if params.one_die_allowed(open) {
        Dice::One
    } else {
        return Err(CliError::Usage(format!(
            "--total {total} is a roll of one die, which this game does not allow with {} open: two dice make 2..=12",
            list_or_none(open)
        )));
    };
    Ok(table
        .best_move(open, dice, total)
        .ok_or_else(|| CliError::NoMove(format!("no open tiles add up to {total}")))?
        .to_string())
}

/// Tiles as "1, 2, 5", or "no tiles".
fn list_or_none(tiles: TileSet) -> String {
    if tiles.is_empty() {
        "no tiles".into()
    } else {
        tiles
            .tiles()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The AI player's move, in its text form, for the game of `entry` replayed from `seed` and
/// `moves`, thinking for `budget`.
fn player_hint(
    game: &Game<'_>,
    assistant: &dyn DynAssistant,
    seed: u64,
    moves: &str,
    budget: Duration,
    notes: &mut Notes<'_>,
) -> Result<String, CliError> {
    let mut session = game.start(seed)?;
    session.play_text(moves)?;
    if session.status().over {
        return Err(CliError::NoMove(
            "the game is over: there is no move".into(),
        ));
    }
    let mut player = assistant.player();
    let best = player.best_move(&session.position(), budget);
    notes.warn(&player.warnings());
    match best {
        Ok(Some(best)) => Ok(best),
        Ok(None) => Err(CliError::Ai("it has no move in a game in play".into())),
        Err(err) => Err(assist_error(err)),
    }
}

/// The `slide` answers for stdin's boards, one a line (from 1; blank lines skipped), read to
/// the end unless a line is bad.
fn slide_lines(
    rules: &Rules,
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
fn slide(rules: &Rules, dir: Direction, text: &str, place: &str) -> Result<String, CliError> {
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

/// Reads `1,2,3` as a set of tiles of a box of `n`; an empty list is no open tile. An empty
/// item (`",,,"`, `"1,,2"`, `"1,"`) is refused.
fn parse_tiles(text: &str, n: u8) -> Result<TileSet, CliError> {
    if text.trim().is_empty() {
        return TileSet::from_tiles_in(Vec::new(), n).map_err(|e| CliError::Tiles(e.to_string()));
    }
    let tiles = text
        .split(',')
        .map(str::trim)
        .map(|t| {
            if t.is_empty() {
                return Err(CliError::Tiles(format!(
                    "{} is not a list of tiles: an item between commas is empty (write tiles \
                     as 1,2,3)",
                    Quoted(text)
                )));
            }
            t.parse::<u8>().map_err(|_| {
                CliError::Tiles(format!("{} is not a tile (tiles are 1 to {n})", Quoted(t)))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    TileSet::from_tiles_in(tiles, n).map_err(|e: TileError| CliError::Tiles(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_places_on_one_line_are_characters() {
        let err = slide(
            &tilebox_sliding::builtin_rules("2048").unwrap(),
            Direction::Left,
            "[[2,2],x",
            "line 3: ",
        )
        .expect_err("not JSON");
        // `x` is the 8th character.
        assert_eq!(
            err.to_string(),
            "line 3: the board is not JSON rows of whole numbers: expected value at character 8"
        );
        // Over several lines the reader's own line and column stay.
        let err = slide(
            &tilebox_sliding::builtin_rules("2048").unwrap(),
            Direction::Left,
            "[[2,2],\n x",
            "",
        )
        .expect_err("not JSON");
        assert!(err.to_string().ends_with("at line 2 column 2"), "{err}");
    }
}
