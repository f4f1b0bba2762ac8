//! What the two sliding kinds share in their front ends: the AI player, and the nonsense that
//! is not a swipe.

use std::time::Duration;

use tilebox_ai::{Engine, Limits};
use tilebox_core::{AssistError, Outcome, Player, Puzzle};
use tilebox_sliding::Direction;

/// The AI's player for sliding game `P`: the expectimax engine with its table kept between
/// questions, and the search of `P` it runs.
pub(crate) struct AiPlayer<P: Puzzle> {
    engine: Engine,
    search: fn(&mut Engine, &P::State, &Limits) -> Option<tilebox_ai::Advice>,
    /// Why it cannot play a board, in a sentence.
    limit: &'static str,
}

impl<P: Puzzle<Move = Direction>> AiPlayer<P> {
    pub(crate) fn new(
        search: fn(&mut Engine, &P::State, &Limits) -> Option<tilebox_ai::Advice>,
        limit: &'static str,
    ) -> Self {
        Self {
            engine: Engine::new(),
            search,
            limit,
        }
    }
}

impl<P: Puzzle<Move = Direction>> Player<P> for AiPlayer<P> {
    fn best_move(
        &mut self,
        state: &P::State,
        budget: Duration,
    ) -> Result<Option<Direction>, AssistError> {
        if P::legal_moves(state).is_empty() {
            return Ok(None);
        }
        // The game is in play, so a move exists: only a board the AI cannot hold stops it.
        match (self.search)(&mut self.engine, state, &Limits::per_move(budget)) {
            Some(advice) => Ok(Some(advice.best)),
            None => Err(AssistError::CannotPlay(self.limit.to_string())),
        }
    }
}

/// Nonsense typed into a sliding game's start, and what it must give. Sliding games read every
/// character as a move (a whole direction word excepted); at seed 5 a left swipe moves tiles in
/// both sliding games.
pub(crate) fn nonsense() -> Vec<(String, Outcome)> {
    let unreadable = Outcome::unreadable;
    vec![
        ("".into(), Outcome::Played(0)),
        (" \t ".into(), Outcome::Played(0)),
        ("?".into(), unreadable("?")),
        ("0".into(), unreadable("0")),
        ("-".into(), unreadable("-")),
        ("99".into(), unreadable("9")),
        ("1+1".into(), unreadable("1")),
        (
            "L+R".into(),
            Outcome::Unreadable {
                position: 2,
                text: "+".into(),
                played: 1,
            },
        ),
        ("left".into(), Outcome::Played(1)),
        ("\u{1F600}".into(), unreadable("\u{1F600}")),
        ("+".into(), unreadable("+")),
        ("10".into(), unreadable("1")),
    ]
}

/// The seed the nonsense is typed into.
pub(crate) const NONSENSE_SEED: u64 = 5;
