//! `bench`: the AI plays seeded games and the results are summed up as one JSON object.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tilebox_ai::{Engine, Limits};
use tilebox_core::{Puzzle, Session};
use tilebox_sliding::{Board, Direction, Game2048, RuleSet, Threes};
use tilebox_strike9::{Odds, Strike9};

use crate::commands::CliError;

/// How one game went.
#[derive(Debug, Clone, Copy)]
struct Played {
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
/// `games`, `mean_score`, `median_score`, `max_score`, then `reach` (sliding games: for each tile
/// value, the share of games that made it) or `win_rate` (Strike 9), `moves` (over all games)
/// and `mean_ms_per_move` (thinking time).
pub fn run(
    bench: Bench,
    games: u32,
    seed: u64,
    threads: usize,
) -> Result<Map<String, Value>, CliError> {
    let next = AtomicU32::new(0);
    let results = Mutex::new(Vec::new());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, games.max(1) as usize) {
            scope.spawn(|| {
                let mut engine = Engine::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    match bench.play(seed.wrapping_add(u64::from(i)), &mut engine) {
                        Ok(played) => lock(&results).push(played),
                        Err(e) => {
                            lock(&failure).get_or_insert(e);
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = lock(&failure).take() {
        return Err(e);
    }
    Ok(summary(&lock(&results), bench.rules()))
}

/// A poisoned lock only means another game thread panicked; its data is still sound.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn play_sliding<P: Puzzle<Move = Direction>>(
    seed: u64,
    board: fn(&P::State) -> &Board,
    mut best: impl FnMut(&P::State) -> Option<Direction>,
) -> Result<Played, CliError> {
    let mut session = Session::<P>::with_seed(seed)?;
    let mut thinking = Duration::ZERO;
    while !session.status().over {
        let start = Instant::now();
        // The AI answers for every 4×4 game in play; should it ever not, the game ends here.
        let Some(dir) = best(session.state()) else {
            break;
        };
        thinking += start.elapsed();
        session.play(dir).map_err(|e| CliError::Ai(e.to_string()))?;
    }
    Ok(Played {
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
    while let Some(set) = odds.best_move(session.state().open(), session.state().total()) {
        if session.status().over {
            break;
        }
        session.play(set).map_err(|e| CliError::Ai(e.to_string()))?;
    }
    Ok(Played {
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
