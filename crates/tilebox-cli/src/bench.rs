//! `bench`: the AI plays seeded games and the results are summed up as one JSON object.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tilebox_ai::{Engine, Limits};
use tilebox_core::{Puzzle, Session};
use tilebox_sliding::{Board, Direction, Game2048, RuleSet, Threes};
use tilebox_strike9::{Odds, Strike9};

use crate::commands::CliError;

/// The name of bench threads: a panic in one is reported as an error, not by the panic hook.
pub const WORKER_NAME: &str = "tilebox-bench";

/// How one game went.
#[derive(Debug, Clone, Copy)]
struct Played {
    /// False when the AI could not play a board of the game before its end (2048 tiles above
    /// 32768); the figures are the game's when it stopped.
    finished: bool,
    score: u64,
    /// The rank of the highest tile reached (sliding games).
    top_rank: Option<u8>,
    won: bool,
    moves: u64,
    thinking: Duration,
}

/// What to bench: a game and its player.
#[derive(Debug, Clone, Copy)]
pub enum Bench {
    /// 2048 with the expectimax player at this budget a move.
    Twenty48(Limits),
    /// Threes with the card-counting expectimax player at this budget a move.
    Threes(Limits),
    /// Strike 9 with the exact table's best move.
    Strike9,
}

impl Bench {
    /// The sliding rule set, whose tiles `reach` reports; None for Strike 9.
    fn rules(self) -> Option<RuleSet> {
        match self {
            Bench::Twenty48(_) => Some(RuleSet::Twenty48),
            Bench::Threes(_) => Some(RuleSet::Threes),
            Bench::Strike9 => None,
        }
    }

    fn play(self, seed: u64, engine: &mut Engine) -> Result<Played, CliError> {
        match self {
            Bench::Twenty48(limits) => play_sliding::<Game2048>(
                seed,
                |s| s.board(),
                |s| engine.advise_2048(s, &limits).map(|a| a.best),
            ),
            Bench::Threes(limits) => play_sliding::<Threes>(
                seed,
                |s| s.board(),
                |s| engine.advise_threes(s, &limits).map(|a| a.best),
            ),
            Bench::Strike9 => play_strike9(seed),
        }
    }
}

/// Plays `games` games, game `i` from seed `seed + i`, on `threads` threads; the summary:
/// `games`, then `unfinished` (sliding games), `mean_score`, `median_score`, `max_score`, then
/// `reach` (sliding games: for each tile value, the share of games that made it) or `win_rate`
/// (Strike 9), `moves` (over all games) and `mean_ms_per_move` (thinking time).
pub fn run(
    bench: Bench,
    games: u32,
    seed: u64,
    threads: u32,
) -> Result<Map<String, Value>, CliError> {
    let games = u64::from(games);
    // The next game to play; 64 bits so that threads counting past the end never wrap.
    let next = AtomicU64::new(0);
    let stop = || next.store(games, Ordering::Relaxed);
    let work = || -> Result<Vec<Played>, CliError> {
        let mut engine = Engine::new();
        let mut played = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= games {
                return Ok(played);
            }
            played.push(bench.play(seed.wrapping_add(i), &mut engine)?);
        }
    };
    let results = on_threads(threads, stop, work)?.concat();
    Ok(summary(&results, bench.rules()))
}

/// Runs `work` on `threads` threads at once and gathers what each returned. A thread the system
/// will not start, a thread's error and a thread's panic are all errors (the first one seen);
/// each calls `stop` first, to tell the other threads to finish early.
fn on_threads<T: Send>(
    threads: u32,
    stop: impl Fn() + Sync,
    work: impl Fn() -> Result<T, CliError> + Sync,
) -> Result<Vec<T>, CliError> {
    let job = || {
        let result =
            panic::catch_unwind(AssertUnwindSafe(&work)).unwrap_or_else(|p| Err(panicked(&*p)));
        if result.is_err() {
            stop();
        }
        result
    };
    thread::scope(|scope| {
        let mut failure = None;
        let mut handles = Vec::new();
        for _ in 0..threads {
            match thread::Builder::new()
                .name(WORKER_NAME.into())
                .spawn_scoped(scope, job)
            {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    stop();
                    failure = Some(CliError::Thread(e));
                    break;
                }
            }
        }
        let mut results = Vec::new();
        for handle in handles {
            match handle.join().unwrap_or_else(|p| Err(panicked(&*p))) {
                Ok(result) => results.push(result),
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        failure.map_or(Ok(results), Err)
    })
}

/// A thread's panic as an error, with the panic's message.
fn panicked(payload: &(dyn Any + Send)) -> CliError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    CliError::ThreadFailed(message.escape_debug().to_string())
}

fn play_sliding<P: Puzzle<Move = Direction>>(
    seed: u64,
    board: fn(&P::State) -> &Board,
    mut best: impl FnMut(&P::State) -> Option<Direction>,
) -> Result<Played, CliError> {
    let mut session = Session::<P>::with_seed(seed)?;
    let mut thinking = Duration::ZERO;
    let mut finished = true;
    while !session.status().over {
        let start = Instant::now();
        // The game is in play, so only a board the AI cannot hold (2048 tiles above 32768)
        // leaves it without a move: the game is counted as unfinished.
        let Some(dir) = best(session.state()) else {
            finished = false;
            break;
        };
        thinking += start.elapsed();
        session.play(dir).map_err(|e| CliError::Ai(e.to_string()))?;
    }
    Ok(Played {
        finished,
        score: session.score(),
        top_rank: Some(board(session.state()).max_rank()),
        won: session.status().won,
        moves: session.moves().len() as u64,
        thinking,
    })
}

fn play_strike9(seed: u64) -> Result<Played, CliError> {
    let odds = Odds::shared();
    let mut session = Session::<Strike9>::with_seed(seed)?;
    let start = Instant::now();
    while !session.status().over {
        let (open, total) = (session.state().open(), session.state().total());
        // The game ends as soon as no open tiles make the roll, so a game in play has a move.
        let set = odds.best_move(open, total).ok_or_else(|| {
            CliError::Ai(format!(
                "the table has no move for a roll of {total} with {open} open"
            ))
        })?;
        session.play(set).map_err(|e| CliError::Ai(e.to_string()))?;
    }
    Ok(Played {
        finished: true,
        score: session.score(),
        top_rank: None,
        won: session.status().won,
        moves: session.moves().len() as u64,
        thinking: start.elapsed(),
    })
}

fn summary(results: &[Played], rules: Option<RuleSet>) -> Map<String, Value> {
    let n = results.len().max(1) as f64;
    let mut scores: Vec<u64> = results.iter().map(|r| r.score).collect();
    scores.sort_unstable();
    let median = match scores.len() {
        0 => 0.0,
        len if len % 2 == 1 => scores[len / 2] as f64,
        len => (scores[len / 2 - 1] + scores[len / 2]) as f64 / 2.0,
    };
    let moves: u64 = results.iter().map(|r| r.moves).sum();
    let thinking: Duration = results.iter().map(|r| r.thinking).sum();
    let mut out = Map::new();
    out.insert("games".into(), results.len().into());
    if rules.is_some() {
        let unfinished = results.iter().filter(|r| !r.finished).count();
        out.insert("unfinished".into(), unfinished.into());
    }
    out.insert(
        "mean_score".into(),
        round(scores.iter().sum::<u64>() as f64 / n).into(),
    );
    out.insert("median_score".into(), median.into());
    out.insert(
        "max_score".into(),
        scores.last().copied().unwrap_or(0).into(),
    );
    match rules {
        Some(rules) => {
            // Every tile value from the highest one all games made up to the highest any game
            // made, each with the share of games that made it (a game that made a tile made
            // every smaller one on the way).
            let tops: Vec<u8> = results.iter().filter_map(|r| r.top_rank).collect();
            let low = tops.iter().copied().min().unwrap_or(0);
            let high = tops.iter().copied().max().unwrap_or(0);
            let reach: Map<String, Value> = (low..=high)
                .map(|rank| {
                    let made = tops.iter().filter(|&&t| t >= rank).count() as f64;
                    (rules.value(rank).to_string(), round(made / n).into())
                })
                .collect();
            out.insert("reach".into(), reach.into());
        }
        None => {
            let wins = results.iter().filter(|r| r.won).count() as f64;
            out.insert("win_rate".into(), round(wins / n).into());
        }
    }
    out.insert("moves".into(), moves.into());
    out.insert(
        "mean_ms_per_move".into(),
        round(thinking.as_secs_f64() * 1000.0 / moves.max(1) as f64).into(),
    );
    out
}

/// Four decimals: enough for a report, and stable to read.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn every_thread_runs_the_work_once() {
        let runs = AtomicU64::new(0);
        let results = on_threads(3, || {}, || Ok(runs.fetch_add(1, Ordering::Relaxed)))
            .expect("no thread fails");
        let mut seen = results.clone();
        seen.sort_unstable();
        assert_eq!(seen, [0, 1, 2]);
    }

    #[test]
    fn a_panicking_thread_is_an_error_and_stops_the_others() {
        let stopped = AtomicBool::new(false);
        let result: Result<Vec<()>, CliError> = on_threads(
            2,
            || stopped.store(true, Ordering::Relaxed),
            || panic!("boom\nagain"),
        );
        match result {
            Err(CliError::ThreadFailed(message)) => assert_eq!(message, r"boom\nagain"),
            other => panic!("expected a thread failure, got {other:?}"),
        }
        assert!(stopped.load(Ordering::Relaxed));
    }

    #[test]
    fn a_failing_game_is_the_error_and_stops_the_others() {
        let stopped = AtomicBool::new(false);
        let result: Result<Vec<()>, CliError> = on_threads(
            2,
            || stopped.store(true, Ordering::Relaxed),
            || Err(CliError::AiCannotPlay),
        );
        assert!(matches!(result, Err(CliError::AiCannotPlay)), "{result:?}");
        assert!(stopped.load(Ordering::Relaxed));
    }

    #[test]
    fn a_game_the_ai_cannot_play_on_is_counted_as_unfinished() {
        // The AI's refusal (a 2048 tile above 32768) is simulated after three moves.
        let mut asked = 0;
        let played = play_sliding::<Game2048>(
            5,
            |s| s.board(),
            |s| {
                asked += 1;
                let legal = Game2048::legal_moves(s);
                if asked <= 3 {
                    legal.first().copied()
                } else {
                    None
                }
            },
        )
        .expect("the game starts");
        assert!(!played.finished);
        assert_eq!(played.moves, 3);
        let whole = play_sliding::<Game2048>(5, |s| s.board(), |_| None).expect("starts");
        assert!(!whole.finished);
        assert_eq!(whole.moves, 0);

        let report = summary(&[played, whole], Some(RuleSet::Twenty48));
        assert_eq!(report["games"], 2);
        assert_eq!(report["unfinished"], 2);
        let keys: Vec<&str> = report.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "games",
                "unfinished",
                "mean_score",
                "median_score",
                "max_score",
                "reach",
                "moves",
                "mean_ms_per_move"
            ]
        );
    }

    #[test]
    fn strike9_games_play_to_their_end() {
        for seed in 0..50 {
            let played = play_strike9(seed).expect("the table always has a move");
            assert!(played.finished);
            assert!(played.moves >= 1 && played.moves <= 9);
            // The score is the sum of the shut tiles: 45 exactly when the box is shut.
            assert_eq!(played.won, played.score == 45);
        }
    }
}
