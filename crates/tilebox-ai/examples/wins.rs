//! How often the AI makes a built-in variant's winning tile: the figure the variants issue sets
//! targets for, without playing every game on to its end as `tilebox-cli bench` does (on the big
//! boards a game goes on for tens of thousands of moves after the win).
//!
//! ```text
//! cargo run --release -p tilebox-ai --example wins -- <variant-id> [games] [ms-per-move] [first-seed]
//! ```
//!
//! Defaults: 20 games, 20 ms a move, seeds from 1 (game `i` is the seed `first-seed + i`, as in
//! `tilebox-cli bench --seed`). Each game is played by [`SlidingPlayer`] (what the app's Hint
//! and Autoplay and `tilebox-cli bench` use) until its winning tile is made or no move is left.
//! Prints one line of JSON: the games, the wins, the win rate, the moves played, the thinking
//! time a move, and the highest tile of each game. Bad arguments are an error (exit status 2).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use tilebox_ai::{Limits, SlidingPlayer};
use tilebox_core::Session;
use tilebox_sliding::{Sliding, builtin_variants};

const USAGE: &str = "usage: wins <variant-id> [games >= 1] [ms-per-move >= 1] [first-seed]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Argument `i` as a number of at least `min`, or `default` when absent.
fn number(args: &[String], i: usize, name: &str, min: u64, default: u64) -> Result<u64, String> {
    match args.get(i) {
        None => Ok(default),
        Some(text) => match text.parse::<u64>() {
            Ok(n) if n >= min => Ok(n),
            _ => Err(format!(
                "{name} must be a whole number from {min}, not {text:?}"
            )),
        },
    }
}

fn run(args: &[String]) -> Result<String, String> {
    if args.len() > 4 {
        return Err(format!("too many arguments: {}", args.len()));
    }
    let id = args.first().ok_or("a variant id is needed")?;
    let variant = builtin_variants()
        .into_iter()
        .find(|v| &v.id == id)
        .ok_or_else(|| format!("no built-in variant {id:?}"))?;
    let games = number(args, 1, "games", 1, 20)?;
    let ms = number(args, 2, "ms-per-move", 1, 20)?;
    let first = number(args, 3, "first-seed", 0, 1)?;
    let limits = Limits::per_move(Duration::from_millis(ms));
    let mut player = SlidingPlayer::new();
    let (mut wins, mut moves, mut thinking) = (0u64, 0u64, Duration::ZERO);
    let mut tops = Vec::new();
    for i in 0..games {
        let mut game = Session::<Sliding>::new(variant.clone(), first.wrapping_add(i))
            .map_err(|e| e.to_string())?;
        while !game.state().won() {
            let start = Instant::now();
            let Some(advice) = player.advise(game.state(), &limits) else {
                break;
            };
            thinking += start.elapsed();
            game.play(advice.best).map_err(|e| e.to_string())?;
            moves += 1;
        }
        wins += u64::from(game.state().won());
        let state = game.state();
        tops.push(state.rules().value(state.board().max_rank()));
    }
    let ms_per_move = thinking.as_secs_f64() * 1000.0 / moves.max(1) as f64;
    Ok(format!(
        "{{\"game\":\"{id}\",\"seed\":{first},\"ms_per_move\":{ms},\"games\":{games},\"wins\":{wins},\"win_rate\":{:.2},\"moves\":{moves},\"mean_ms_per_move\":{ms_per_move:.2},\"top_tiles\":{tops:?}}}",
        wins as f64 / games as f64
    ))
}
