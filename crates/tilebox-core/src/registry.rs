//! The object-safe face of a session, and the registry of games a host can offer.

use std::any::Any;

use serde_json::{Map, Value};

use crate::{GameInfo, LoadError, ParamsError, PlayError, Puzzle, SavedGame, Session, Status};

/// A session of any game, as a trait object. Every [`Session`] is one.
///
/// Moves cross this boundary in their text form. A host that knows a game's concrete type (the
/// app's board views) can reach the typed [`Session`] through [`DynSession::as_any`].
pub trait DynSession: Send {
    /// Id, title and description of the game.
    fn info(&self) -> GameInfo;
    /// The seed the game started from.
    fn seed(&self) -> u64;
    /// How many moves have been played (undone ones not counted).
    fn move_count(&self) -> usize;
    /// Won, over or playing.
    fn status(&self) -> Status;
    /// The current score.
    fn score(&self) -> u64;
    /// The text form of the current state.
    fn text(&self) -> String;
    /// The current state as one JSON object: `game`, `seed`, `moves`, `score`, `won`, `over`,
    /// then what the game shows (see [`Puzzle::view`]).
    fn state_json(&self) -> Value;
    /// The legal moves, in their text form.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a sequence of moves written as text; see [`Session::play_text`].
    fn play_text(&mut self, text: &str) -> Result<usize, PlayError>;
    /// Takes back the last move; false when there is none.
    fn undo(&mut self) -> bool;
    /// Plays again the last undone move; false when there is none.
    fn redo(&mut self) -> bool;
    /// Whether there is a move to undo.
    fn can_undo(&self) -> bool;
    /// Whether there is a move to redo.
    fn can_redo(&self) -> bool;
    /// A fresh game with the same parameters and a new seed.
    fn restart(&mut self, seed: u64) -> Result<(), ParamsError>;
    /// The save form.
    fn save(&self) -> SavedGame;
    /// The typed session, for hosts that know the game.
    fn as_any(&self) -> &dyn Any;
    /// The typed session, mutably.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<P: Puzzle> DynSession for Session<P> {
    fn info(&self) -> GameInfo {
        P::INFO
    }

    fn seed(&self) -> u64 {
        Session::seed(self)
    }

    fn move_count(&self) -> usize {
        self.moves().len()
    }

    fn status(&self) -> Status {
        Session::status(self)
    }

    fn score(&self) -> u64 {
        Session::score(self)
    }

    fn text(&self) -> String {
        self.state().to_string()
    }

    fn state_json(&self) -> Value {
        let status = Session::status(self);
        let mut map = Map::new();
        map.insert("game".into(), P::INFO.id.into());
        map.insert("seed".into(), Session::seed(self).into());
        map.insert("moves".into(), self.moves().len().into());
        map.insert("score".into(), Session::score(self).into());
        map.insert("won".into(), status.won.into());
        map.insert("over".into(), status.over.into());
        map.extend(P::view(self.state()));
        Value::Object(map)
    }

    fn legal_moves(&self) -> Vec<String> {
        P::legal_moves(self.state())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn play_text(&mut self, text: &str) -> Result<usize, PlayError> {
        Session::play_text(self, text)
    }

    fn undo(&mut self) -> bool {
        Session::undo(self)
    }

    fn redo(&mut self) -> bool {
        Session::redo(self)
    }

    fn can_undo(&self) -> bool {
        Session::can_undo(self)
    }

    fn can_redo(&self) -> bool {
        Session::can_redo(self)
    }

    fn restart(&mut self, seed: u64) -> Result<(), ParamsError> {
        *self = Session::new(self.params().clone(), seed)?;
        Ok(())
    }

    fn save(&self) -> SavedGame {
        Session::save(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// How to make and restore sessions of one game, without knowing its type.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// Id, title and description.
    pub info: GameInfo,
    new_session: fn(u64) -> Result<Box<dyn DynSession>, ParamsError>,
    load: fn(&SavedGame) -> Result<Box<dyn DynSession>, LoadError>,
}

impl std::fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEntry")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl GameEntry {
    /// The entry for puzzle `P`.
    pub fn of<P: Puzzle>() -> Self {
        Self {
            info: P::INFO,
            new_session: |seed| Ok(Box::new(Session::<P>::with_seed(seed)?)),
            load: |saved| Ok(Box::new(Session::<P>::load(saved)?)),
        }
    }

    /// A new standard game from `seed`.
    pub fn new_session(&self, seed: u64) -> Result<Box<dyn DynSession>, ParamsError> {
        (self.new_session)(seed)
    }

    /// Restores a saved game of this kind.
    pub fn load(&self, saved: &SavedGame) -> Result<Box<dyn DynSession>, LoadError> {
        (self.load)(saved)
    }
}

/// The games a host offers, in the order it lists them.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    entries: Vec<GameEntry>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds puzzle `P`.
    ///
    /// Ids must be unique: registering a second game under an id already taken is a bug in the
    /// host's catalogue. Debug builds (and so every test) stop on it with a panic naming the id;
    /// release builds keep the first game and ignore the second rather than fail.
    #[must_use]
    pub fn with<P: Puzzle>(mut self) -> Self {
        let taken = self.get(P::INFO.id).is_some();
        debug_assert!(!taken, "game id '{}' registered twice", P::INFO.id);
        if !taken {
            self.entries.push(GameEntry::of::<P>());
        }
        self
    }

    /// Every game, in registration order.
    pub fn games(&self) -> &[GameEntry] {
        &self.entries
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Option<&GameEntry> {
        self.entries.iter().find(|e| e.info.id == id)
    }

    /// The ids of every game, in order, for messages such as "expected one of …".
    pub fn ids(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.info.id).collect()
    }

    /// Restores a saved game of whichever game it names.
    pub fn load(&self, saved: &SavedGame) -> Result<Box<dyn DynSession>, LoadError> {
        self.get(&saved.game)
            .ok_or_else(|| LoadError::UnknownGame(saved.game.clone()))?
            .load(saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tests::Counter;

    #[test]
    fn registry_lists_makes_and_loads_games_through_trait_objects() {
        let registry = Registry::new().with::<Counter>();
        assert_eq!(registry.ids(), ["counter"]);
        let entry = registry.get("counter").unwrap();
        let mut game = entry.new_session(11).unwrap();
        assert_eq!(game.play_text("1 2").unwrap(), 2);
        let json = game.state_json();
        assert_eq!(json["game"], "counter");
        assert_eq!(json["moves"], 2);
        assert_eq!(json["seed"], 11);
        assert_eq!(json["value"], game.score());
        let back = registry.load(&game.save()).unwrap();
        assert_eq!(back.text(), game.text());
        assert!(game.as_any().downcast_ref::<Session<Counter>>().is_some());

        let mut saved = game.save();
        saved.game = "nope".into();
        assert_eq!(
            registry.load(&saved).err(),
            Some(LoadError::UnknownGame("nope".into()))
        );
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "game id 'counter' registered twice")]
    fn registering_an_id_twice_stops_debug_builds() {
        let _ = Registry::new().with::<Counter>().with::<Counter>();
    }

    #[test]
    fn restart_keeps_the_game_and_clears_the_history() {
        let mut game = GameEntry::of::<Counter>().new_session(1).unwrap();
        game.play_text("3").unwrap();
        game.restart(2).unwrap();
        assert_eq!(game.seed(), 2);
        assert_eq!(game.move_count(), 0);
        assert!(!game.can_undo());
    }
}
