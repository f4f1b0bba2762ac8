//! `bench`: an entry's AI player plays seeded games and the results are summed up as one JSON
//! object.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tilebox_core::{AssistError, DynAssistant, DynPlayer, DynSession, Entry};
use tilebox_sliding::{Rules, rules_of};

use crate::error::{CliError, Quoted, assist_error};

/// What bench plays: an entry's preset, or a game of it with other parameters.
pub trait Starts: Sync {
    /// The entry.
    fn entry(&self) -> &Entry;
    /// A new game from `seed`.
    fn start(&self, seed: u64) -> Result<Box<dyn DynSession>, CliError>;
}

impl Starts for Entry {
    fn entry(&self) -> &Entry {
        self
    }

    fn start(&self, seed: u64) -> Result<Box<dyn DynSession>, CliError> {
        Ok(self.new_session(seed)?)
    }
}

/// Where each game of a bench stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// At the end of the game: no move left (or the box shut).
    Over,
    /// At the win, when the game has one and it comes before the end; the figure the targets
    /// of the variants are set in, without the long play after a win on a big board.
    Win,
}

/// The name of bench threads: a panic in one is reported as an error, not by the panic hook.
pub const WORKER_NAME: &str = "tilebox-bench";

/// How one game went.
#[derive(Debug, Clone, Copy)]
struct Played {
    /// The game's seed.
    seed: u64,
    /// False when the player could not search a position of the game before its end (2048
    /// tiles above 32768); the figures are the game's when it stopped.
    finished: bool,
    score: u64,
    /// The highest tile on the board at the end, for games whose sessions report one.
    top_tile: Option<u64>,
    won: bool,
    moves: u64,
    thinking: Duration,
}

/// What a bench plays: `games` games, game `i` from seed `seed + i`, on `threads` threads at
/// once, the player thinking `budget` a move, each game played until `until`.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub games: u32,
    pub seed: u64,
    pub threads: u32,
    pub budget: Duration,
    pub until: Until,
}

/// Plays the games of `plan` of `game`, each thread with a player of its own from `assistant`.
/// The summary: `games`, `unfinished`, `mean_score`, `median_score`, `max_score`, then `reach`
/// when every game's session reports its top tile (for each tile value, the share of games that
/// made it) or `win_rate` otherwise, then `moves` (over all games) and `mean_ms_per_move`
/// (thinking time). As each game ends, `each` is called on the calling thread with that game's
/// own line (see [`game_line`]); an error from it stops the bench.
pub fn run(
    game: &dyn Starts,
    assistant: &dyn DynAssistant,
    plan: Plan,
    each: &mut dyn FnMut(Value) -> Result<(), CliError>,
) -> Result<Bench, CliError> {
    let Plan {
        games,
        seed,
        threads,
        budget,
        until,
    } = plan;
    let games = u64::from(games);
    // The next game to play; 64 bits so that threads counting past the end never wrap.
    let next = AtomicU64::new(0);
    let stop = || next.store(games, Ordering::Relaxed);
    let work = |done: &Sender<Played>| -> Result<Thread, CliError> {
        let mut player = assistant.player();
        let mut played = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= games {
                return Ok(Thread {
                    played,
                    evaluation: player.evaluation(),
                    warnings: player.warnings(),
                });
            }
            let one = play(game, &mut *player, seed.wrapping_add(i), budget, until)?;
            // The calling thread is there to receive until every thread has returned.
            let _ = done.send(one);
            played.push(one);
        }
    };
    let rules = rules_of(game.entry());
    let threads = on_threads(threads, stop, work, |one| {
        each(game_line(&one, rules.as_ref()))
    })?;
    let mut results = Vec::new();
    let mut evaluation = None;
    let mut warnings: Vec<String> = Vec::new();
    for thread in threads {
        results.extend(thread.played);
        // Every player asks the same players folder: they agree, unless one played nothing.
        evaluation = evaluation.or(thread.evaluation);
        for w in thread.warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    Ok(Bench {
        summary: summary(&results, rules),
        evaluation,
        warnings,
    })
}

/// What one bench thread played, and what its player says.
struct Thread {
    played: Vec<Played>,
    evaluation: Option<&'static str>,
    warnings: Vec<String>,
}

/// A bench's outcome.
pub struct Bench {
    /// The summary of the games (see [`run`]).
    pub summary: Map<String, Value>,
    /// Which evaluation the players used, for players that have more than one.
    pub evaluation: Option<&'static str>,
    /// What the players had to tell, each line once.
    pub warnings: Vec<String>,
}

/// One game of `game` from `seed`, every move the player's, until `until`.
fn play(
    game: &dyn Starts,
    player: &mut dyn DynPlayer,
    seed: u64,
    budget: Duration,
    until: Until,
) -> Result<Played, CliError> {
    let mut session = game.start(seed)?;
    let mut thinking = Duration::ZERO;
    let mut finished = true;
    let stops = |status: tilebox_core::Status| status.over || (until == Until::Win && status.won);
    while !stops(session.status()) {
        let start = Instant::now();
        let best = match player.best_move(&session.position(), budget) {
            Ok(Some(best)) => best,
            Ok(None) => return Err(CliError::Ai("it has no move in a game in play".into())),
            // A position the player cannot search (a 2048 tile above 32768): the game is
            // counted as unfinished, with the figures it has.
            Err(AssistError::CannotPlay(_)) => {
                finished = false;
                break;
            }
            Err(err) => return Err(assist_error(err)),
        };
        thinking += start.elapsed();
        // A player answers one move. play_text skips a move that changes nothing (a player
        // that chose one would never finish) and plays every move of a text holding several:
        // either is the player's failure.
        let played = session
            .play_text(&best)
            .map_err(|e| CliError::Ai(e.to_string()))?;
        let answer = Quoted(&best);
        match played {
            1 => {}
            0 => {
                return Err(CliError::Ai(format!(
                    "its move {answer} changes nothing in a game in play"
                )));
            }
            n => {
                return Err(CliError::Ai(format!(
                    "its answer {answer} is {n} moves, not one"
                )));
            }
        }
    }
    Ok(Played {
        seed,
        finished,
        score: session.score(),
        top_tile: session.top_tile(),
        won: session.status().won,
        moves: session.move_count() as u64,
        thinking,
    })
}

/// Runs `work` on `threads` threads at once and gathers what each returned; what the threads
/// send on the way is handed to `each`, on the calling thread, as it comes. A thread the system
/// will not start, a thread's error, a thread's panic and an error of `each` are all errors, in
/// that order of precedence (the first thread's first); each calls `stop` first, to tell the
/// threads to finish early. After an error of `each`, it is not called again.
fn on_threads<T: Send, M: Send>(
    threads: u32,
    stop: impl Fn() + Sync,
    work: impl Fn(&Sender<M>) -> Result<T, CliError> + Sync,
    mut each: impl FnMut(M) -> Result<(), CliError>,
) -> Result<Vec<T>, CliError> {
    let job = |sent: &Sender<M>| {
        let result = panic::catch_unwind(AssertUnwindSafe(|| work(sent)))
            .unwrap_or_else(|p| Err(panicked(&*p)));
        if result.is_err() {
            stop();
        }
        result
    };
    thread::scope(|scope| {
        let mut failure = None;
        let mut handles = Vec::new();
        let (sender, received) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            let job = &job;
            match thread::Builder::new()
                .name(WORKER_NAME.into())
                .spawn_scoped(scope, move || job(&sender))
            {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    stop();
                    failure = Some(CliError::Thread(e));
                    break;
                }
            }
        }
        // Each thread holds a sender until it returns: the messages end when the last one does.
        drop(sender);
        let mut unsaid = None;
        for message in received {
            if unsaid.is_none()
                && let Err(e) = each(message)
            {
                stop();
                unsaid = Some(e);
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
        // A thread's failure says more than the output that could not take its line.
        match failure.or(unsaid) {
            Some(e) => Err(e),
            None => Ok(results),
        }
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

/// One game's line of `--each`: `seed`, `finished`, `score`, `top_tile` for a game whose session
/// reports one (the tile as `reach` names it), `won`, `moves` and `ms_per_move` (its thinking
/// time a move).
fn game_line(game: &Played, rules: Option<&Rules>) -> Value {
    let mut out = Map::new();
    out.insert("seed".into(), game.seed.into());
    out.insert("finished".into(), game.finished.into());
    out.insert("score".into(), game.score.into());
    if let Some(top) = game.top_tile {
        out.insert("top_tile".into(), tile_text(top, rules).into());
    }
    out.insert("won".into(), game.won.into());
    out.insert("moves".into(), game.moves.into());
    let ms = game.thinking.as_secs_f64() * 1000.0 / game.moves.max(1) as f64;
    out.insert("ms_per_move".into(), round(ms).into());
    Value::Object(out)
}

/// A tile as the board shows it: its value, or its label (10's `-8`).
fn tile_text(value: u64, rules: Option<&Rules>) -> String {
    rules.map_or_else(|| value.to_string(), |r| r.variant().tile_text(value))
}

/// The summary of `results` (see [`run`]); `rules`, the sliding rule set of the entry if it has
/// one, lists the tile values of `reach` between the games' top tiles.
fn summary(results: &[Played], rules: Option<Rules>) -> Map<String, Value> {
    let n = results.len().max(1) as f64;
    let mut scores: Vec<u64> = results.iter().map(|r| r.score).collect();
    scores.sort_unstable();
    // Sums of scores are taken in f64: two u64 scores may not add up in a u64.
    let median = match scores.len() {
        0 => 0.0,
        len if len % 2 == 1 => scores[len / 2] as f64,
        len => (scores[len / 2 - 1] as f64 + scores[len / 2] as f64) / 2.0,
    };
    let total: f64 = scores.iter().map(|&s| s as f64).sum();
    let moves: u64 = results.iter().map(|r| r.moves).sum();
    let thinking: Duration = results.iter().map(|r| r.thinking).sum();
    let unfinished = results.iter().filter(|r| !r.finished).count();
    let mut out = Map::new();
    out.insert("games".into(), results.len().into());
    out.insert("unfinished".into(), unfinished.into());
    out.insert("mean_score".into(), round(total / n).into());
    out.insert("median_score".into(), median.into());
    out.insert(
        "max_score".into(),
        scores.last().copied().unwrap_or(0).into(),
    );
    let tops: Option<Vec<u64>> = results.iter().map(|r| r.top_tile).collect();
    match tops {
        Some(tops) if !tops.is_empty() => {
            // Every tile value from the highest one all games made up to the highest any game
            // made, each with the share of games whose highest tile is at or above it on the
            // ladder (on a ladder of numbers, a game that made a tile made every smaller one on
            // the way; a labelled ladder's tiles are counted by their place on it, docs/cli.md).
            let reach: Map<String, Value> = reach_values(&tops, rules.clone())
                .into_iter()
                .map(|value| {
                    let made = tops.iter().filter(|&&t| t >= value).count() as f64;
                    (tile_text(value, rules.as_ref()), round(made / n).into())
                })
                .collect();
            out.insert("reach".into(), reach.into());
        }
        _ => {
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

/// The tile values `reach` reports, ascending: from the lowest top tile to the highest, every
/// value of the rule set between them; without a rule set, the top tiles the games made.
fn reach_values(tops: &[u64], rules: Option<Rules>) -> Vec<u64> {
    let low = tops.iter().copied().min().unwrap_or(0);
    let high = tops.iter().copied().max().unwrap_or(0);
    if let Some(rules) = rules
        && let (Some(low), Some(high)) = (rules.rank_of(low), rules.rank_of(high))
    {
        return (low..=high).map(|rank| rules.value(rank)).collect();
    }
    let mut values = tops.to_vec();
    values.sort_unstable();
    values.dedup();
    values
}

/// Four decimals: enough for a report, and stable to read.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::common::{game_keys, keys_of, summary_keys};
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};
    use tilebox_core::{Position, Puzzle, Registry};
    use tilebox_sliding::{Sliding, builtin_rules};
    use tilebox_strike9::Strike9;

    /// The catalogue's first entry of kind `P` that has an AI player.
    fn played_entry<P: Puzzle>(registry: &Registry) -> &Entry {
        registry
            .entries()
            .iter()
            .find(|e| e.is::<P>() && e.assistant().is_some())
            .unwrap_or_else(|| panic!("an entry of {} with a player", P::INFO.title))
    }

    #[test]
    fn every_thread_runs_the_work_once() {
        let runs = AtomicU64::new(0);
        let mut sent = Vec::new();
        let results = on_threads(
            3,
            || {},
            |to: &Sender<u64>| {
                let run = runs.fetch_add(1, Ordering::Relaxed);
                to.send(run * 10).expect("the calling thread receives");
                Ok(run)
            },
            |message| {
                sent.push(message);
                Ok(())
            },
        )
        .expect("no thread fails");
        let mut seen = results.clone();
        seen.sort_unstable();
        assert_eq!(seen, [0, 1, 2]);
        // What each thread sent reached the calling thread, once.
        sent.sort_unstable();
        assert_eq!(sent, [0, 10, 20]);
    }

    #[test]
    fn an_error_on_the_calling_thread_stops_the_threads() {
        let stopped = AtomicBool::new(false);
        let result: Result<Vec<()>, CliError> = on_threads(
            2,
            || stopped.store(true, Ordering::Relaxed),
            |to: &Sender<()>| {
                to.send(()).expect("the calling thread receives");
                Ok(())
            },
            |()| Err(CliError::Ai("the line could not be written".into())),
        );
        assert!(matches!(result, Err(CliError::Ai(_))), "{result:?}");
        assert!(stopped.load(Ordering::Relaxed));
        // A thread's own failure comes before the calling thread's.
        let mut calls = 0;
        let result: Result<Vec<()>, CliError> = on_threads(
            2,
            || {},
            |to: &Sender<()>| {
                to.send(()).expect("the calling thread receives");
                Err(CliError::AiCannotPlay("too big".into()))
            },
            |()| {
                calls += 1;
                Err(CliError::Ai("the line could not be written".into()))
            },
        );
        assert!(
            matches!(result, Err(CliError::AiCannotPlay(_))),
            "{result:?}"
        );
        assert_eq!(calls, 1, "not called again after its error");
    }

    #[test]
    fn a_panicking_thread_is_an_error_and_stops_the_others() {
        let stopped = AtomicBool::new(false);
        let result: Result<Vec<()>, CliError> = on_threads(
            2,
            || stopped.store(true, Ordering::Relaxed),
            |_: &Sender<()>| panic!("boom\nagain"),
            |()| Ok(()),
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
            |_: &Sender<()>| Err(CliError::AiCannotPlay("too big".into())),
            |()| Ok(()),
        );
        assert!(
            matches!(result, Err(CliError::AiCannotPlay(_))),
            "{result:?}"
        );
        assert!(stopped.load(Ordering::Relaxed));
    }

    /// A player whose answer in every position is what `answer` says of it.
    fn player(
        answer: impl FnMut(&Position, Duration) -> Result<Option<String>, AssistError> + Send,
    ) -> impl DynPlayer {
        struct Answers<F>(F);
        impl<F> DynPlayer for Answers<F>
        where
            F: FnMut(&Position, Duration) -> Result<Option<String>, AssistError> + Send,
        {
            fn best_move(
                &mut self,
                position: &Position,
                budget: Duration,
            ) -> Result<Option<String>, AssistError> {
                (self.0)(position, budget)
            }
        }
        Answers(answer)
    }

    /// A player that asks a real one for its first `moves` answers, then finds every position
    /// beyond it (as the 2048 AI does with tiles above 32768).
    fn gives_up_after(mut inner: Box<dyn DynPlayer>, mut moves: usize) -> impl DynPlayer {
        player(move |position, budget| {
            if moves == 0 {
                return Err(AssistError::CannotPlay("too big".into()));
            }
            moves -= 1;
            inner.best_move(position, budget)
        })
    }

    #[test]
    fn a_game_the_ai_cannot_play_on_is_counted_as_unfinished() {
        let registry = tilebox_games::registry();
        let entry = played_entry::<Sliding>(&registry);
        let assistant = entry.assistant().expect("it has a player");
        // The moves the real player chose, kept: a timed search need not choose them again.
        let chosen = Arc::new(Mutex::new(Vec::new()));
        let mut inner = assistant.player();
        let kept = Arc::clone(&chosen);
        let recording = player(move |position, budget| {
            let answer = inner.best_move(position, budget)?;
            if let (Some(mv), Ok(mut kept)) = (&answer, kept.lock()) {
                kept.push(mv.clone());
            }
            Ok(answer)
        });
        let mut three = gives_up_after(Box::new(recording), 3);
        let played =
            play(entry, &mut three, 5, Duration::from_millis(1), Until::Over).expect("it starts");
        assert!(!played.finished);
        assert_eq!(played.moves, 3);
        // The session's own figures after those three moves.
        let mut session = entry.new_session(5).expect("it starts");
        let chosen = chosen.lock().expect("not poisoned").clone();
        assert_eq!(chosen.len(), 3);
        for mv in &chosen {
            session.play_text(mv).expect("a legal move");
        }
        assert_eq!(played.score, session.score());
        assert_eq!(played.top_tile, session.top_tile());

        let mut at_once = gives_up_after(assistant.player(), 0);
        let whole = play(entry, &mut at_once, 5, Duration::ZERO, Until::Over).expect("it starts");
        assert!(!whole.finished);
        assert_eq!(whole.moves, 0);

        let report = summary(&[played, whole], rules_of(entry));
        assert_eq!(report["games"], 2);
        assert_eq!(report["unfinished"], 2);
        assert_eq!(keys_of(&report), summary_keys("reach"));
    }

    #[test]
    fn a_player_that_fails_stops_the_bench() {
        let registry = tilebox_games::registry();
        let entry = registry.get("threes").expect("threes");
        let mut refused = player(|_, _| Ok(Some("X".into())));
        let err =
            play(entry, &mut refused, 1, Duration::ZERO, Until::Over).expect_err("X is no move");
        assert!(matches!(err, CliError::Ai(_)), "{err}");
        assert_eq!(err.exit_code(), 1);
        let mut nothing = player(|_, _| Ok(None));
        let err =
            play(entry, &mut nothing, 1, Duration::ZERO, Until::Over).expect_err("a game in play");
        assert!(matches!(err, CliError::Ai(_)), "{err}");
    }

    #[test]
    fn a_player_must_answer_exactly_one_move_that_changes_the_game() {
        let registry = tilebox_games::registry();
        let entry = played_entry::<Sliding>(&registry);
        // A new game in which one of the four slides changes nothing.
        let (seed, still) = (0..100)
            .find_map(|seed| {
                ["L", "R", "U", "D"].into_iter().find_map(|dir| {
                    let mut game = entry.new_session(seed).expect("its preset");
                    (game.play_text(dir).expect("a direction") == 0).then_some((seed, dir))
                })
            })
            .expect("a new game a slide does not change");
        let mut stuck = player(|_, _| Ok(Some(still.into())));
        let err = play(entry, &mut stuck, seed, Duration::ZERO, Until::Over)
            .expect_err("it changes nothing");
        assert_eq!(
            err.to_string(),
            format!("the AI player stopped: its move '{still}' changes nothing in a game in play")
        );
        assert_eq!(err.exit_code(), 1);
        // An answer of several moves, which play_text would play one by one.
        let several = "LURD";
        let count = entry
            .new_session(seed)
            .expect("its preset")
            .play_text(several)
            .expect("directions");
        assert!(count >= 2, "{several} plays {count} moves from seed {seed}");
        let mut greedy = player(move |_, _| Ok(Some(several.into())));
        let err =
            play(entry, &mut greedy, seed, Duration::ZERO, Until::Over).expect_err("not one move");
        assert_eq!(
            err.to_string(),
            format!("the AI player stopped: its answer '{several}' is {count} moves, not one")
        );
    }

    #[test]
    fn scores_too_big_to_add_in_u64_are_summed_up_in_f64() {
        let game = |score| Played {
            seed: 0,
            finished: true,
            score,
            top_tile: None,
            won: false,
            moves: 1,
            thinking: Duration::ZERO,
        };
        // 2^64 - 1 and 2^64 - 2: their sum overflows a u64; their mean and median are 2^64 in
        // f64, as are those of the pair with a third game as big.
        let top = u64::MAX as f64;
        let report = summary(&[game(u64::MAX), game(u64::MAX - 1)], None);
        assert_eq!(report["median_score"], serde_json::json!(top));
        assert_eq!(report["mean_score"], serde_json::json!(top));
        assert_eq!(report["max_score"], u64::MAX);
        let report = summary(&[game(u64::MAX); 3], None);
        assert_eq!(report["median_score"], serde_json::json!(top));
        assert_eq!(report["mean_score"], serde_json::json!(top));
        // Small scores as ever: the median of an even count is the mean of the middle two.
        let report = summary(&[game(1), game(4), game(2), game(9)], None);
        assert_eq!(report["median_score"], 3.0);
        assert_eq!(report["mean_score"], 4.0);
    }

    #[test]
    fn strike9_games_play_to_their_end() {
        let registry = tilebox_games::registry();
        let entry = played_entry::<Strike9>(&registry);
        let mut player = entry.assistant().expect("the table plays").player();
        let mut results = Vec::new();
        for seed in 0..50 {
            let played = play(entry, &mut *player, seed, Duration::ZERO, Until::Over)
                .expect("it has a move");
            assert!(played.finished);
            assert!(played.moves >= 1 && played.moves <= 9);
            assert_eq!(played.top_tile, None);
            // The score is the sum of the shut tiles: 45 exactly when the box is shut.
            assert_eq!(played.won, played.score == 45);
            results.push(played);
        }
        let report = summary(&results, rules_of(entry));
        assert_eq!(keys_of(&report), summary_keys("win_rate"));
        let wins = results.iter().filter(|r| r.won).count() as f64;
        assert_eq!(report["win_rate"], round(wins / 50.0));
    }

    #[test]
    fn reach_lists_every_tile_of_the_rules_between_the_top_tiles() {
        assert_eq!(
            reach_values(&[4096, 1024, 4096], builtin_rules("2048")),
            [1024, 2048, 4096]
        );
        assert_eq!(
            reach_values(&[2, 12], builtin_rules("threes")),
            [2, 3, 6, 12]
        );
        // Without a rule set, the top tiles themselves.
        assert_eq!(reach_values(&[9, 5, 9], None), [5, 9]);
        let game = |top| Played {
            seed: 0,
            finished: true,
            score: 0,
            top_tile: Some(top),
            won: false,
            moves: 1,
            thinking: Duration::ZERO,
        };
        let report = summary(&[game(1024), game(4096)], builtin_rules("2048"));
        assert_eq!(
            report["reach"],
            serde_json::json!({"1024": 1.0, "2048": 0.5, "4096": 0.5})
        );
    }

    #[test]
    fn a_games_line_gives_its_seed_and_figures() {
        let game = Played {
            seed: 41,
            finished: false,
            score: 60_000,
            top_tile: Some(4096),
            won: true,
            moves: 3,
            thinking: Duration::from_millis(50),
        };
        let line = game_line(&game, builtin_rules("2048").as_ref());
        assert_eq!(
            line,
            serde_json::json!({"seed": 41, "finished": false, "score": 60_000,
                "top_tile": "4096", "won": true, "moves": 3, "ms_per_move": 16.6667})
        );
        assert_eq!(
            keys_of(line.as_object().expect("an object")),
            game_keys(true)
        );
        // A game without a top tile (Strike 9) has no such key.
        let box_shut = Played {
            top_tile: None,
            moves: 0,
            ..game
        };
        let line = game_line(&box_shut, None);
        assert!(line.get("top_tile").is_none(), "{line}");
        assert_eq!(line["ms_per_move"], 50.0);
    }
}
