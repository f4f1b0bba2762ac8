//! One game being played: undo, redo, the move log, replays and saves, for every puzzle at once.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use thiserror::Error;

use crate::{MoveError, ParamsError, PlayError, PlayErrorKind, Puzzle, Status};

/// The error for the move at `index` (from 0) of a sequence, written `text`.
fn failed_at(index: usize, text: &str, kind: impl Into<PlayErrorKind>) -> PlayError {
    PlayError {
        position: index + 1,
        text: text.to_string(),
        kind: kind.into(),
    }
}

/// A revision no session of this program has had yet (see [`Session::revision`]).
fn next_revision() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The version of [`SavedGame`] this build writes and reads.
pub const SAVE_FORMAT: u32 = 1;

/// A saved game that cannot be restored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoadError {
    /// The save names a game this build does not know.
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    /// The save names a different game than the one asked to load it.
    #[error("this save is for '{found}', not '{expected}'")]
    WrongGame {
        /// The game that was asked to load the save.
        expected: String,
        /// The game the save names.
        found: String,
    },
    /// The save was written by a newer (or unknown) version of the save format.
    #[error("save format {0} is not supported (this build reads format {supported})", supported = SAVE_FORMAT)]
    UnsupportedFormat(u32),
    /// The save is not valid JSON of the save form (see [`SavedGame::from_json`]).
    #[error("the save cannot be read: {0}")]
    Malformed(String),
    /// The game's parameters in the save are not valid.
    #[error(transparent)]
    Params(#[from] ParamsError),
    /// Replaying the saved moves failed at some move.
    #[error("the saved moves do not replay: {0}")]
    Replay(#[from] PlayError),
}

/// A game in progress, as it is written to disk: the parameters, the seed and the moves.
/// Loading replays the moves, so a save can never hold a state the rules could not reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Version of this form, [`SAVE_FORMAT`] when written by this build.
    pub format: u32,
    /// The game's id.
    pub game: String,
    /// The game's parameters, in the game's own serde form.
    pub params: serde_json::Value,
    /// The seed the game started from.
    pub seed: u64,
    /// The moves played, in order, in their text form.
    pub moves: Vec<String>,
    /// Moves that were undone and can be redone, the next one to redo first.
    #[serde(default)]
    pub redo: Vec<String>,
}

impl SavedGame {
    /// Reads a save from its JSON text, looking at `format` first: a save from a newer build
    /// gives [`LoadError::UnsupportedFormat`] whatever else it holds, and anything else that is
    /// not a save of this format gives [`LoadError::Malformed`]. The game itself is checked when
    /// the save is loaded ([`Session::load`], [`crate::Registry::load`]).
    pub fn from_json(text: &str) -> Result<SavedGame, LoadError> {
        let malformed = |e: serde_json::Error| LoadError::Malformed(e.to_string());
        let value: serde_json::Value = serde_json::from_str(text).map_err(malformed)?;
        let format = value
            .get("format")
            .and_then(serde_json::Value::as_u64)
            .and_then(|f| u32::try_from(f).ok())
            .ok_or_else(|| LoadError::Malformed("no save format number".into()))?;
        if format != SAVE_FORMAT {
            return Err(LoadError::UnsupportedFormat(format));
        }
        serde_json::from_value(value).map_err(malformed)
    }
}

/// Every how many moves a session keeps the state reached ([`Session`]).
const KEEP_EVERY: usize = 64;

/// One game of `P` being played.
///
/// Keeps the state reached every [`KEEP_EVERY`] moves, the current state and the one before it,
/// so that a game of millions of moves holds a move and a fraction of a state a move, not a
/// state a move; undo replays at most [`KEEP_EVERY`] moves from the state kept before it, which
/// gives the same states again because the random generator lives in the state. Undo is
/// unlimited; redo replays the undone moves.
pub struct Session<P: Puzzle> {
    params: P::Params,
    seed: u64,
    /// `kept[i]` is the state after `i * KEEP_EVERY` moves (`kept[0]` the start), for every
    /// such number of moves played.
    kept: Vec<P::State>,
    /// The state after the moves played.
    current: P::State,
    /// The state before the last move, if there was one.
    previous: Option<P::State>,
    moves: Vec<P::Move>,
    /// Undone moves, the next one to redo last.
    redo: Vec<P::Move>,
    /// See [`Session::revision`].
    revision: u64,
}

// Written out rather than derived: a derive would ask `P` itself, a unit struct, to be Clone/Debug.
impl<P: Puzzle> Clone for Session<P> {
    fn clone(&self) -> Self {
        Self {
            params: self.params.clone(),
            seed: self.seed,
            kept: self.kept.clone(),
            current: self.current.clone(),
            previous: self.previous.clone(),
            moves: self.moves.clone(),
            redo: self.redo.clone(),
            revision: self.revision,
        }
    }
}

impl<P: Puzzle> std::fmt::Debug for Session<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("game", &P::INFO.id)
            .field("params", &self.params)
            .field("seed", &self.seed)
            .field("moves", &self.moves)
            .field("redo", &self.redo)
            .finish_non_exhaustive()
    }
}

impl<P: Puzzle> Session<P> {
    /// A new game with these parameters and this seed.
    pub fn new(params: P::Params, seed: u64) -> Result<Self, ParamsError> {
        let start = P::new_game(&params, seed)?;
        Ok(Self {
            params,
            seed,
            kept: vec![start.clone()],
            current: start,
            previous: None,
            moves: Vec::new(),
            redo: Vec::new(),
            revision: next_revision(),
        })
    }

    /// A new standard game (default parameters) from this seed.
    pub fn with_seed(seed: u64) -> Result<Self, ParamsError> {
        Self::new(P::Params::default(), seed)
    }

    /// The game `(params, seed)` after `moves`, each of which must be accepted.
    ///
    /// Strict, unlike [`Session::play_text`]: a move that changes nothing fails the replay
    /// ([`MoveError::NoEffect`]) instead of being skipped. A move log or a save only ever holds
    /// moves that were accepted, so such a move means the log does not belong to these
    /// parameters and this seed, and replaying on would give a different game.
    pub fn replay(
        params: P::Params,
        seed: u64,
        moves: impl IntoIterator<Item = P::Move>,
    ) -> Result<Self, LoadError> {
        let mut session = Self::new(params, seed)?;
        for (i, mv) in moves.into_iter().enumerate() {
            session
                .play(mv.clone())
                .map_err(|e| failed_at(i, &mv.to_string(), e))?;
        }
        Ok(session)
    }

    /// The state the game `(params, seed)` comes to after `moves`, in their text form, replayed
    /// as strictly as [`Session::replay`] (a save of them loads to this state), each read as it
    /// comes: no session is made and no state but the last is kept, so a game is checked
    /// against its record quickly.
    pub fn replay_to_end<'a>(
        params: &P::Params,
        seed: u64,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<P::State, LoadError> {
        let mut state = P::new_game(params, seed)?;
        for (i, text) in moves.into_iter().enumerate() {
            let mv: P::Move = text.parse().map_err(|e| failed_at(i, text, e))?;
            state = P::apply(&state, &mv).map_err(|e| failed_at(i, text, e))?;
        }
        Ok(state)
    }

    /// The parameters the game was set up with.
    pub fn params(&self) -> &P::Params {
        &self.params
    }

    /// The seed the game started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// A number that changes with every change of the game (a move, undo, redo), drawn from
    /// one counter for the whole program, so that two sessions share a revision only when one
    /// is a clone of the other at the same position: an answer worked out for one revision (a
    /// hint, say) is for a position that is gone once the revision changes. Not part of the
    /// game and not saved.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The current state.
    pub fn state(&self) -> &P::State {
        &self.current
    }

    /// The state before the last move, if there was one.
    pub fn previous_state(&self) -> Option<&P::State> {
        self.previous.as_ref()
    }

    /// The state after the first `n` moves played (`n` at most their number), replayed from
    /// the state kept before it; `None` if a move does not replay (the rules are pure, so it
    /// does).
    fn state_after(&self, n: usize) -> Option<P::State> {
        let from = n / KEEP_EVERY;
        let mut state = self.kept.get(from)?.clone();
        for mv in self.moves.get(from * KEEP_EVERY..n)? {
            state = P::apply(&state, mv).ok()?;
        }
        Some(state)
    }

    /// The moves played so far (not counting undone ones).
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Won, over or playing.
    pub fn status(&self) -> Status {
        P::status(self.state())
    }

    /// The current score.
    pub fn score(&self) -> u64 {
        P::score(self.state())
    }

    /// Every state reached, from the start to now, replayed from the states kept.
    ///
    /// For tests only: it replays and clones every state (slow and large on a long game). It
    /// stays public because the tests of the games' crates (tilebox-sliding, tilebox-strike9)
    /// compare histories with it; no host calls it.
    pub fn history(&self) -> Vec<P::State> {
        (0..=self.moves.len())
            .map_while(|n| {
                if n == self.moves.len() {
                    Some(self.current.clone())
                } else {
                    self.state_after(n)
                }
            })
            .collect()
    }

    /// Makes `next`, the state after `mv`, the current state.
    fn advance(&mut self, mv: P::Move, next: P::State) {
        self.previous = Some(std::mem::replace(&mut self.current, next));
        self.moves.push(mv);
        if self.moves.len().is_multiple_of(KEEP_EVERY) {
            self.kept.push(self.current.clone());
        }
        self.revision = next_revision();
    }

    /// Plays `mv`. On success the redo list is cleared; on refusal nothing changes.
    pub fn play(&mut self, mv: P::Move) -> Result<&P::State, MoveError> {
        let next = P::apply(self.state(), &mv)?;
        self.advance(mv, next);
        self.redo.clear();
        Ok(self.state())
    }

    /// Plays a sequence of moves written as text (see [`Puzzle::split_moves`]), as a player or a
    /// script types them.
    ///
    /// A move that changes nothing ([`MoveError::NoEffect`]) is skipped, as in the games
    /// themselves: it is not recorded and not counted. (Replaying a move log is strict instead,
    /// see [`Session::replay`].) Stops at the first move that cannot be read or is refused, and
    /// says which; the moves before it stay played. Returns how many moves were played.
    pub fn play_text(&mut self, text: &str) -> Result<usize, PlayError> {
        let mut played = 0;
        for (i, token) in P::split_moves(text).into_iter().enumerate() {
            let mv: P::Move = token.parse().map_err(|e| failed_at(i, token, e))?;
            match self.play(mv) {
                Ok(_) => played += 1,
                Err(MoveError::NoEffect) => {}
                Err(e) => return Err(failed_at(i, token, e)),
            }
        }
        Ok(played)
    }

    /// Whether there is a move to undo.
    pub fn can_undo(&self) -> bool {
        !self.moves.is_empty()
    }

    /// Whether there is an undone move to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes back the last move. Returns false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(mv) = self.moves.pop() else {
            return false;
        };
        // The state kept after the move undone goes with it.
        if self.kept.len() > self.moves.len() / KEEP_EVERY + 1 {
            self.kept.pop();
        }
        let before = self.moves.len().checked_sub(1);
        let previous = before.and_then(|n| self.state_after(n));
        match self.previous.take() {
            Some(state) => self.current = state,
            // Cannot be: a move played has its state before it. Replayed all the same.
            None => {
                if let Some(state) = self.state_after(self.moves.len()) {
                    self.current = state;
                }
            }
        }
        self.previous = previous;
        self.redo.push(mv);
        self.revision = next_revision();
        true
    }

    /// Plays again the last undone move. Returns false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(mv) = self.redo.pop() else {
            return false;
        };
        match P::apply(self.state(), &mv) {
            Ok(next) => {
                self.advance(mv, next);
                true
            }
            // Rules are deterministic, so a move that was accepted here before is accepted again;
            // if a rule ever disagreed, dropping the redo list is the safe answer.
            Err(_) => {
                self.redo.clear();
                self.revision = next_revision();
                false
            }
        }
    }

    /// The save form of this session: parameters, seed, moves and redo list.
    pub fn save(&self) -> SavedGame {
        SavedGame {
            format: SAVE_FORMAT,
            game: P::INFO.id.to_string(),
            // Params are plain data; should serialising ever fail, the default marks it.
            params: serde_json::to_value(&self.params).unwrap_or_default(),
            seed: self.seed,
            moves: self.moves.iter().map(ToString::to_string).collect(),
            redo: self.redo.iter().rev().map(ToString::to_string).collect(),
        }
    }

    /// Restores a session from its save form by replaying it. Fails, without panicking, on a
    /// save for another game, a newer format, bad parameters or moves that do not replay. The
    /// replay is strict ([`Session::replay`]): a saved move that changes nothing is an error.
    pub fn load(saved: &SavedGame) -> Result<Self, LoadError> {
        if saved.format == SAVE_FORMAT && saved.game != P::INFO.id {
            return Err(LoadError::WrongGame {
                expected: P::INFO.id.to_string(),
                found: saved.game.clone(),
            });
        }
        Self::restore(saved, &P::Params::default())
    }

    /// Restores a session from its save form whatever game id the save names: for a registry
    /// entry, which checks its own id (a preset's saves name the preset, not the kind).
    /// Otherwise as [`Session::load`]. The save's params are read over `preset`
    /// ([`Puzzle::read_params`]).
    pub(crate) fn restore(saved: &SavedGame, preset: &P::Params) -> Result<Self, LoadError> {
        Self::restore_texts(
            saved,
            preset,
            &mut saved.moves.iter().map(String::as_str),
            &mut saved.redo.iter().map(String::as_str),
        )
    }

    /// [`Session::restore`] with the save's moves and redo list given apart, as texts (`saved`'s
    /// own lists are not read): a host reads a long save's moves into a compact form of its own
    /// rather than a string each.
    pub(crate) fn restore_texts(
        saved: &SavedGame,
        preset: &P::Params,
        moves: &mut dyn Iterator<Item = &str>,
        redo: &mut dyn Iterator<Item = &str>,
    ) -> Result<Self, LoadError> {
        if saved.format != SAVE_FORMAT {
            return Err(LoadError::UnsupportedFormat(saved.format));
        }
        let params = P::read_params(preset, &saved.params)?;
        let parse =
            |(i, text): (usize, &str)| text.parse::<P::Move>().map_err(|e| failed_at(i, text, e));
        // Replay the redo moves too, which checks them, then go back to where the save was.
        let played = moves
            .enumerate()
            .map(parse)
            .collect::<Result<Vec<_>, _>>()?;
        let count = played.len();
        let undone = redo
            .enumerate()
            .map(|(i, text)| parse((count + i, text)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut session = Self::replay(params, saved.seed, played.into_iter().chain(undone))?;
        session.back_to(count);
        Ok(session)
    }

    /// Takes back every move after the first `n`, as that many undos do, at once.
    fn back_to(&mut self, n: usize) {
        if n >= self.moves.len() {
            return;
        }
        let undone = self.moves.split_off(n);
        self.redo.extend(undone.into_iter().rev());
        self.kept.truncate(n / KEEP_EVERY + 1);
        if let Some(state) = self.state_after(n) {
            self.current = state;
        }
        self.previous = n.checked_sub(1).and_then(|before| self.state_after(before));
        self.revision = next_revision();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::fmt;
    use std::str::FromStr;

    use super::*;
    use crate::{GameInfo, GameRng, ParseMoveError};

    /// A tiny game for testing the session layer: a counter that a move adds 1 to 3 to, plus a
    /// random bonus; adding 0 changes nothing, and the game is over at the goal (its params,
    /// 20 by default) or more.
    pub(crate) struct Counter;

    #[derive(Debug, Clone, PartialEq)]
    pub(crate) struct CounterState {
        pub(crate) value: u32,
        goal: u32,
        rng: GameRng,
    }

    impl fmt::Display for CounterState {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "counter {}", self.value)
        }
    }

    #[derive(Debug, Clone, Copy, PartialEq)]
    pub(crate) struct Add(pub(crate) u32);

    impl fmt::Display for Add {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}", self.0)
        }
    }

    impl FromStr for Add {
        type Err = ParseMoveError;
        fn from_str(s: &str) -> Result<Self, Self::Err> {
            match s.parse() {
                Ok(n @ 0..=3) => Ok(Add(n)),
                _ => Err(ParseMoveError::new(s, "expected 0 to 3")),
            }
        }
    }

    impl Puzzle for Counter {
        type Params = u32;
        type State = CounterState;
        type Move = Add;
        const INFO: GameInfo = GameInfo {
            id: "counter",
            title: "Counter",
            description: "Count to twenty.",
        };

        fn new_game(goal: &u32, seed: u64) -> Result<CounterState, ParamsError> {
            // 0, the default of u32, is the standard goal.
            let goal = if *goal == 0 { 20 } else { *goal };
            Ok(CounterState {
                value: 0,
                goal,
                rng: GameRng::from_seed(seed),
            })
        }

        fn apply(state: &CounterState, mv: &Add) -> Result<CounterState, MoveError> {
            if state.value >= state.goal {
                return Err(MoveError::GameOver);
            }
            if mv.0 == 0 {
                return Err(MoveError::NoEffect);
            }
            let mut next = state.clone();
            next.value += mv.0 + next.rng.below(2);
            Ok(next)
        }

        fn status(state: &CounterState) -> Status {
            Status {
                won: state.value == state.goal,
                over: state.value >= state.goal,
            }
        }

        fn score(state: &CounterState) -> u64 {
            state.value.into()
        }

        fn legal_moves(state: &CounterState) -> Vec<Add> {
            if state.value >= state.goal {
                Vec::new()
            } else {
                vec![Add(1), Add(2), Add(3)]
            }
        }

        fn view(state: &CounterState) -> serde_json::Map<String, serde_json::Value> {
            let mut map = serde_json::Map::new();
            map.insert("value".into(), state.value.into());
            map
        }
    }

    #[test]
    fn undo_and_redo_walk_the_history_and_redo_gives_the_same_states() {
        let mut s = Session::<Counter>::with_seed(5).unwrap();
        s.play_text("1 2 3").unwrap();
        let after = s.state().clone();
        assert!(s.undo() && s.undo() && s.undo());
        assert!(!s.undo());
        assert_eq!(s.state().value, 0);
        assert!(s.redo() && s.redo() && s.redo());
        assert!(!s.redo());
        assert_eq!(s.state(), &after);
    }

    #[test]
    fn a_long_game_keeps_a_state_every_so_many_moves_and_undo_gives_the_same_states() {
        let mut s = Session::<Counter>::new(10_000, 5).unwrap();
        let mut states = vec![s.state().clone()];
        for _ in 0..300 {
            s.play(Add(1)).unwrap();
            states.push(s.state().clone());
        }
        // Not a state a move: one every KEEP_EVERY, the current one and the one before it.
        assert_eq!(s.kept.len(), 300 / KEEP_EVERY + 1);
        assert_eq!(s.history(), states);
        for n in (0..300).rev() {
            assert!(s.undo());
            assert_eq!(s.state(), &states[n], "undone to {n}");
            assert_eq!(s.previous_state(), n.checked_sub(1).map(|p| &states[p]));
            assert_eq!(s.kept.len(), n / KEEP_EVERY + 1);
        }
        for (n, state) in states.iter().enumerate().skip(1) {
            assert!(s.redo());
            assert_eq!(s.state(), state, "redone to {n}");
        }
        // A save with a long redo list goes back to where it was at once.
        for _ in 0..200 {
            s.undo();
        }
        let back = Session::<Counter>::load(&s.save()).unwrap();
        assert_eq!(back.state(), &states[100]);
        assert_eq!(back.previous_state(), Some(&states[99]));
        assert_eq!(back.kept.len(), 100 / KEEP_EVERY + 1);
        assert_eq!(back.save(), s.save());
    }

    #[test]
    fn a_new_move_clears_redo() {
        let mut s = Session::<Counter>::with_seed(5).unwrap();
        s.play(Add(1)).unwrap();
        s.undo();
        assert!(s.can_redo());
        s.play(Add(2)).unwrap();
        assert!(!s.can_redo());
    }

    #[test]
    fn play_text_skips_no_effect_moves_and_names_the_bad_one() {
        let mut s = Session::<Counter>::with_seed(1).unwrap();
        assert_eq!(s.play_text("1 0 2"), Ok(2));
        assert_eq!(s.moves().len(), 2);
        let err = s.play_text("1 x").unwrap_err();
        assert_eq!(err.position, 2);
        assert_eq!(err.text, "x");
        assert!(matches!(err.kind, PlayErrorKind::Parse(_)));
        // the move before the bad one stays played
        assert_eq!(s.moves().len(), 3);
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        let mut s = Session::<Counter>::with_seed(1).unwrap();
        s.play_text(&"3 ".repeat(10)).unwrap_err();
        assert!(s.status().over);
        assert_eq!(s.play(Add(1)), Err(MoveError::GameOver));
    }

    #[test]
    fn save_and_load_round_trip_with_redo() {
        let mut s = Session::<Counter>::with_seed(9).unwrap();
        s.play_text("1 2 3 1").unwrap();
        s.undo();
        s.undo();
        let saved = s.save();
        assert_eq!(saved.moves, ["1", "2"]);
        assert_eq!(saved.redo, ["3", "1"]);
        let json = serde_json::to_string(&saved).unwrap();
        let mut back = Session::<Counter>::load(&serde_json::from_str(&json).unwrap()).unwrap();
        assert_eq!(back.history(), s.history());
        assert!(back.redo() && s.redo());
        assert_eq!(back.state(), s.state());
    }

    #[test]
    fn bad_saves_are_refused_with_a_reason() {
        let mut saved = Session::<Counter>::with_seed(9).unwrap().save();
        saved.moves = vec!["1".into(), "7".into()];
        let err = Session::<Counter>::load(&saved).unwrap_err();
        assert!(err.to_string().contains("move 2 ('7')"), "{err}");

        saved.moves.clear();
        saved.format = 99;
        assert_eq!(
            Session::<Counter>::load(&saved).unwrap_err(),
            LoadError::UnsupportedFormat(99)
        );

        saved.format = SAVE_FORMAT;
        saved.game = "chess".into();
        assert!(matches!(
            Session::<Counter>::load(&saved),
            Err(LoadError::WrongGame { .. })
        ));
    }

    #[test]
    fn a_move_that_changes_nothing_is_skipped_when_typed_but_fails_a_replay_or_a_load() {
        let mut typed = Session::<Counter>::with_seed(1).unwrap();
        assert_eq!(typed.play_text("1 0 2"), Ok(2));
        assert_eq!(typed.moves(), [Add(1), Add(2)]);

        let refused = LoadError::Replay(PlayError {
            position: 2,
            text: "0".into(),
            kind: PlayErrorKind::Move(MoveError::NoEffect),
        });
        let replayed = Session::<Counter>::replay(0, 1, [Add(1), Add(0), Add(2)]);
        assert_eq!(replayed.err(), Some(refused.clone()));

        let mut saved = typed.save();
        saved.moves = vec!["1".into(), "0".into(), "2".into()];
        assert_eq!(Session::<Counter>::load(&saved).err(), Some(refused));
        // In the redo list too: its moves are replayed, and counted after the played ones.
        saved.moves = vec!["1".into()];
        saved.redo = vec!["0".into()];
        assert!(matches!(
            Session::<Counter>::load(&saved),
            Err(LoadError::Replay(PlayError { position: 2, .. }))
        ));
    }

    #[test]
    fn from_json_reads_the_format_first() {
        let mut s = Session::<Counter>::with_seed(9).unwrap();
        s.play_text("1 2 3").unwrap();
        s.undo();
        let saved = s.save();
        let json = serde_json::to_string(&saved).unwrap();
        assert_eq!(SavedGame::from_json(&json), Ok(saved));
        // Older saves had no redo list.
        let old = r#"{"format":1,"game":"counter","params":null,"seed":3,"moves":["1"]}"#;
        assert_eq!(SavedGame::from_json(old).map(|g| g.redo.len()), Ok(0));

        // A newer format is named as such, however different its shape.
        for newer in [
            r#"{"format":2,"game":"counter","seed":"big","log":[]}"#,
            r#"{"format":4294967295}"#,
        ] {
            assert!(
                matches!(
                    SavedGame::from_json(newer),
                    Err(LoadError::UnsupportedFormat(f)) if f > SAVE_FORMAT
                ),
                "{newer}"
            );
        }
        // Anything else that is not a save of this format is malformed, with serde's reason.
        for bad in [
            "",
            "not json",
            "[1]",
            r#"{"game":"counter"}"#,
            r#"{"format":"1"}"#,
            r#"{"format":-1}"#,
            r#"{"format":4294967296}"#,
            r#"{"format":1,"game":"counter","params":null,"seed":-3,"moves":[]}"#,
            r#"{"format":1,"game":"counter","params":null,"seed":3}"#,
            r#"{"format":1,"game":"counter","params":null,"seed":3,"moves":[1]}"#,
        ] {
            let err = SavedGame::from_json(bad).unwrap_err();
            assert!(matches!(err, LoadError::Malformed(_)), "{bad}: {err:?}");
            assert!(err.to_string().starts_with("the save cannot be read: "));
            assert!(!err.to_string().contains('\n'), "{err}");
        }
    }

    #[test]
    fn replay_gives_the_same_states_as_play() {
        let mut s = Session::<Counter>::with_seed(3).unwrap();
        s.play_text("3 1 2 2").unwrap();
        let r = Session::<Counter>::replay(0, 3, s.moves().to_vec()).unwrap();
        assert_eq!(r.history(), s.history());
    }
}
