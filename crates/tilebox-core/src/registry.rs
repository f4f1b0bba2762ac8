//! The registry of what a host offers: game kinds, each with its front end, and entries, each
//! a kind with a preset of its parameters. Also the object-safe face of a session
//! ([`DynSession`]), so a host can hold a game of any kind without knowing its type.
//!
//! A kind is a [`Puzzle`] type (2048, Threes, Strike 9). An entry is a value: an id, a title, a
//! description, the kind, and the parameters it starts games with. One kind can be registered
//! many times (2048 on 3×3 to 8×8 boards); best scores, statistics and saves belong to an entry,
//! by its id.

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::{
    AssistError, BoardColors, Fixtures, FrontEnd, GameInfo, LoadError, ParamOption, ParamsError,
    PlainFrontEnd, PlayError, Player, Puzzle, SavedGame, Session, Status, TileColors,
};

/// Why [`Registry::add_preset`] refused an entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// Another entry has this id.
    #[error("the id {0:?} is taken")]
    Taken(String),
    /// The entry's kind is not registered (a bug in the host's catalogue).
    #[error("the game kind {0:?} is not registered")]
    UnknownKind(String),
}

/// What an entry says of itself in lists and menus.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EntryInfo {
    /// Stable identifier, used on the command line, in save files and in the score table
    /// (`2048`, `2048-5x5`, `threes`).
    pub id: String,
    /// Name shown to players ("2048 (5×5)").
    pub title: String,
    /// One line saying what the game is.
    pub description: String,
    /// The title of the group the launcher lists it under: its kind's title ("2048"), or for a
    /// sliding variant the title of the root of its `based_on` chain.
    pub group: String,
    /// The heading it is listed under on its group's page, if the group is a catalogue of
    /// several pages (the 2048 Power Compendium's "Page 1: powers of numbers"); `None` for most.
    pub section: Option<String>,
}

/// An id that no longer names the game it named: that game is now the entry `to`, and what a
/// player keeps under `from` (saves, scores, history, codes) belongs to it. Two things rename a
/// game: a new built-in that takes the id of a player's own variant file (the file's game keeps
/// its rules under a new id; `from` then names the built-in too), and a new preset that plays a
/// combination of options (the combination's id, [`Registry::combinations`], now names the
/// preset).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Renamed {
    /// The id the game had.
    pub from: String,
    /// The id of the entry that plays it now.
    pub to: String,
    /// One line for the player, to be said once: what moved where, and why.
    pub notice: String,
}

/// A copy of a game's current state, to hand to an assistant's player on another thread.
pub struct Position {
    entry: String,
    state: Box<dyn Any + Send>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("entry", &self.entry)
            .finish_non_exhaustive()
    }
}

impl Position {
    /// The id of the entry whose game this is.
    pub fn entry(&self) -> &str {
        &self.entry
    }
}

/// A session of any game, as a trait object.
///
/// Moves cross this boundary in their text form. A view written for one kind `P` reaches the
/// typed [`Session<P>`] through [`DynSession::as_any`].
pub trait DynSession: Send {
    /// The entry this game is of.
    fn entry(&self) -> &Entry;
    /// Id, title, description and group of the entry.
    fn info(&self) -> &EntryInfo {
        self.entry().info()
    }
    /// The game's parameters, as JSON.
    fn params_json(&self) -> Value;
    /// The seed the game started from.
    fn seed(&self) -> u64;
    /// How many moves have been played (undone ones not counted).
    fn move_count(&self) -> usize;
    /// Changes with every change of the game (a move, undo, redo, a new game), and is never
    /// the same for two positions in one run of a program (see [`Session::revision`]): an
    /// answer worked out for one revision is for a position that is gone once the revision
    /// changes.
    fn revision(&self) -> u64;
    /// Won, over or playing.
    fn status(&self) -> Status;
    /// The current score.
    fn score(&self) -> u64;
    /// Whether a lower score is the better one in this game (see [`Puzzle::lower_is_better`],
    /// for the game's own parameters).
    fn lower_is_better(&self) -> bool {
        false
    }
    /// The text form of the current state.
    fn text(&self) -> String;
    /// The current state as one JSON object: `game` (the entry's id), `seed`, `moves`, `score`,
    /// `won`, `over`, then what the game shows (see [`Puzzle::view`]).
    fn state_json(&self) -> Value;
    /// The legal moves, in their text form.
    fn legal_moves(&self) -> Vec<String>;
    /// The last move played, in its text form.
    fn last_move(&self) -> Option<String>;
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
    /// A fresh game of the entry (its preset's parameters) from a new seed.
    fn restart(&mut self, seed: u64) -> Result<(), ParamsError>;
    /// The save form, under the entry's id.
    fn save(&self) -> SavedGame;
    /// The highest tile on the board, for games whose tiles have values.
    fn top_tile(&self) -> Option<u64>;
    /// The tiles still to be cleared, for games whose aim is to clear them (see
    /// [`Puzzle::tiles_left`]).
    fn tiles_left(&self) -> Option<u32>;
    /// Why the game ended, in a sentence (see [`FrontEnd::end_text`]).
    fn end_text(&self) -> Option<String>;
    /// Hints and autoplay for this game, if its kind has an assistant that plays its
    /// parameters (those of the game, which a save or a game code may carry, not the entry's
    /// preset).
    fn assistant(&self) -> Option<Arc<dyn DynAssistant>>;
    /// The assistant's lines about the position (see [`crate::Assistant::commentary`]); none
    /// when the game has no assistant.
    fn commentary(&self) -> Vec<String>;
    /// A copy of the current state for an assistant's player.
    fn position(&self) -> Position;
    /// The typed [`Session<P>`], for a view written for kind `P`.
    fn as_any(&self) -> &dyn Any;
}

/// What a game came to, as [`DynSession`] says it: its score, won or over, its highest tile
/// and the tiles left ([`Entry::replay_end`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameEnd {
    /// The score.
    pub score: u64,
    /// Won, over or playing.
    pub status: Status,
    /// The highest tile, for games whose tiles have values.
    pub top_tile: Option<u64>,
    /// The tiles still to be cleared, for games whose aim is to clear them.
    pub tiles_left: Option<u32>,
}

/// A session of kind `P` played as an entry.
struct EntrySession<P: Puzzle> {
    entry: Entry,
    front: Arc<dyn FrontEnd<P>>,
    session: Session<P>,
}

impl<P: Puzzle> DynSession for EntrySession<P> {
    fn entry(&self) -> &Entry {
        &self.entry
    }

    fn params_json(&self) -> Value {
        params_to_json::<P>(self.session.params())
    }

    fn seed(&self) -> u64 {
        self.session.seed()
    }

    fn move_count(&self) -> usize {
        self.session.moves().len()
    }

    fn revision(&self) -> u64 {
        self.session.revision()
    }

    fn status(&self) -> Status {
        self.session.status()
    }

    fn score(&self) -> u64 {
        self.session.score()
    }

    fn lower_is_better(&self) -> bool {
        P::lower_is_better(self.session.params())
    }

    fn text(&self) -> String {
        self.session.state().to_string()
    }

    fn state_json(&self) -> Value {
        let status = self.session.status();
        let mut map = Map::new();
        map.insert("game".into(), self.entry.id().into());
        map.insert("seed".into(), self.session.seed().into());
        map.insert("moves".into(), self.session.moves().len().into());
        map.insert("score".into(), self.session.score().into());
        map.insert("won".into(), status.won.into());
        map.insert("over".into(), status.over.into());
        map.extend(P::view(self.session.state()));
        Value::Object(map)
    }

    fn legal_moves(&self) -> Vec<String> {
        P::legal_moves(self.session.state())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn last_move(&self) -> Option<String> {
        self.session.moves().last().map(ToString::to_string)
    }

    fn play_text(&mut self, text: &str) -> Result<usize, PlayError> {
        self.session.play_text(text)
    }

    fn undo(&mut self) -> bool {
        self.session.undo()
    }

    fn redo(&mut self) -> bool {
        self.session.redo()
    }

    fn can_undo(&self) -> bool {
        self.session.can_undo()
    }

    fn can_redo(&self) -> bool {
        self.session.can_redo()
    }

    fn restart(&mut self, seed: u64) -> Result<(), ParamsError> {
        // A new game of the entry is its preset, whatever params this game was loaded with.
        let params = self
            .entry
            .params::<P>()
            .unwrap_or_else(|| self.session.params())
            .clone();
        self.session = Session::new(params, seed)?;
        Ok(())
    }

    fn save(&self) -> SavedGame {
        let mut saved = self.session.save();
        saved.game = self.entry.id().to_string();
        saved
    }

    fn top_tile(&self) -> Option<u64> {
        P::top_tile(self.session.state())
    }

    fn tiles_left(&self) -> Option<u32> {
        P::tiles_left(self.session.state())
    }

    fn end_text(&self) -> Option<String> {
        if self.session.status().over {
            self.front.end_text(self.session.state())
        } else {
            None
        }
    }

    fn assistant(&self) -> Option<Arc<dyn DynAssistant>> {
        assistant_for(&self.front, self.session.params())
    }

    fn commentary(&self) -> Vec<String> {
        match self.front.assistant() {
            Some(assistant) if assistant.plays(self.session.params()) => {
                assistant.commentary(&self.session)
            }
            _ => Vec::new(),
        }
    }

    fn position(&self) -> Position {
        Position {
            entry: self.entry.id().to_string(),
            state: Box::new(self.session.state().clone()),
        }
    }

    fn as_any(&self) -> &dyn Any {
        &self.session
    }
}

/// The erased assistant of `front`, if it has one that plays `params`.
fn assistant_for<P: Puzzle>(
    front: &Arc<dyn FrontEnd<P>>,
    params: &P::Params,
) -> Option<Arc<dyn DynAssistant>> {
    let plays = front.assistant().is_some_and(|a| a.plays(params));
    plays.then(|| {
        Arc::new(AssistantOf::<P> {
            front: Arc::clone(front),
        }) as Arc<dyn DynAssistant>
    })
}

/// Params as JSON. Params are plain data; should serialising ever fail, `null` marks it.
fn params_to_json<P: Puzzle>(params: &P::Params) -> Value {
    serde_json::to_value(params).unwrap_or_default()
}

/// The hints and autoplay of an entry, for hosts that do not know its type.
pub trait DynAssistant: Send + Sync {
    /// Whether it offers autoplay as well as hints.
    fn autoplays(&self) -> bool;
    /// A new player: keep it, it may learn between questions.
    fn player(&self) -> Box<dyn DynPlayer>;
}

/// A player of one kind of game, for hosts that do not know its type.
pub trait DynPlayer: Send {
    /// The best move in `position`, in its text form, thinking for about `budget`: `Ok(None)`
    /// when the game has no move left.
    fn best_move(
        &mut self,
        position: &Position,
        budget: Duration,
    ) -> Result<Option<String>, AssistError>;

    /// Which evaluation its last move used ([`crate::Player::evaluation`]); `None` by default.
    fn evaluation(&self) -> Option<&'static str> {
        None
    }

    /// What it has to tell once ([`crate::Player::warnings`]); empty by default.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}

struct AssistantOf<P: Puzzle> {
    front: Arc<dyn FrontEnd<P>>,
}

impl<P: Puzzle> DynAssistant for AssistantOf<P> {
    fn autoplays(&self) -> bool {
        self.front.assistant().is_some_and(|a| a.autoplays())
    }

    fn player(&self) -> Box<dyn DynPlayer> {
        Box::new(PlayerOf::<P> {
            player: self.front.assistant().map(|a| a.player()),
        })
    }
}

struct PlayerOf<P: Puzzle> {
    player: Option<Box<dyn Player<P>>>,
}

impl<P: Puzzle> DynPlayer for PlayerOf<P> {
    fn best_move(
        &mut self,
        position: &Position,
        budget: Duration,
    ) -> Result<Option<String>, AssistError> {
        let state = position
            .state
            .downcast_ref::<P::State>()
            .ok_or(AssistError::WrongGame)?;
        let player = self
            .player
            .as_mut()
            .ok_or_else(|| AssistError::CannotPlay("this game has no player".into()))?;
        Ok(player.best_move(state, budget)?.map(|mv| mv.to_string()))
    }

    fn evaluation(&self) -> Option<&'static str> {
        self.player.as_ref().and_then(|p| p.evaluation())
    }

    fn warnings(&self) -> Vec<String> {
        self.player
            .as_ref()
            .map(|p| p.warnings())
            .unwrap_or_default()
    }
}

/// What an entry does, for its kind `P`.
trait EntryOps: Send + Sync {
    fn kind(&self) -> GameInfo;
    fn kind_type(&self) -> TypeId;
    fn params_any(&self) -> &dyn Any;
    fn params_json(&self) -> Value;
    fn lower_is_better(&self) -> bool;
    fn new_session(&self, entry: &Entry, seed: u64) -> Result<Box<dyn DynSession>, ParamsError>;
    fn with_params(
        &self,
        entry: &Entry,
        params: &Value,
        seed: u64,
    ) -> Result<Box<dyn DynSession>, ParamsError>;
    fn load(&self, entry: &Entry, saved: &SavedGame) -> Result<Box<dyn DynSession>, LoadError>;
    fn replay_end(
        &self,
        seed: u64,
        moves: &mut dyn Iterator<Item = &str>,
    ) -> Result<GameEnd, LoadError>;
    fn load_texts(
        &self,
        entry: &Entry,
        saved: &SavedGame,
        moves: &mut dyn Iterator<Item = &str>,
        redo: &mut dyn Iterator<Item = &str>,
    ) -> Result<Box<dyn DynSession>, LoadError>;
    fn how_to_play(&self) -> String;
    fn tile_text(&self, value: u64) -> String;
    fn tile_colors(&self, value: u64) -> TileColors;
    fn board_colors(&self, dark: bool) -> BoardColors;
    fn assistant(&self) -> Option<Arc<dyn DynAssistant>>;
    fn options(&self) -> Vec<ParamOption>;
    fn name_fields(&self) -> &'static [&'static str];
    /// The same kind and front end with other preset params (given as JSON), checked.
    fn with_preset(&self, params: &Value) -> Result<Arc<dyn EntryOps>, ParamsError>;
}

/// An entry's preset params, made the first time something needs them, once, by whichever
/// thread asks first.
type Preset<P> = LazyLock<<P as Puzzle>::Params, Box<dyn FnOnce() -> <P as Puzzle>::Params + Send>>;

struct EntryOf<P: Puzzle> {
    params: Preset<P>,
    /// What [`Puzzle::lower_is_better`] says of the params, known without making them: a
    /// launcher asks it of every entry.
    lower_is_better: bool,
    front: Arc<dyn FrontEnd<P>>,
}

impl<P: Puzzle> EntryOf<P> {
    /// An entry whose params are at hand.
    fn given(params: P::Params, front: Arc<dyn FrontEnd<P>>) -> Self {
        Self {
            lower_is_better: P::lower_is_better(&params),
            params: LazyLock::new(Box::new(move || params)),
            front,
        }
    }

    fn wrap(&self, entry: &Entry, session: Session<P>) -> Box<dyn DynSession> {
        Box::new(EntrySession {
            entry: entry.clone(),
            front: Arc::clone(&self.front),
            session,
        })
    }
}

impl<P: Puzzle> EntryOps for EntryOf<P> {
    fn kind(&self) -> GameInfo {
        P::INFO
    }

    fn kind_type(&self) -> TypeId {
        TypeId::of::<P>()
    }

    fn params_any(&self) -> &dyn Any {
        &*self.params
    }

    fn params_json(&self) -> Value {
        params_to_json::<P>(&*self.params)
    }

    fn lower_is_better(&self) -> bool {
        self.lower_is_better
    }

    fn new_session(&self, entry: &Entry, seed: u64) -> Result<Box<dyn DynSession>, ParamsError> {
        Ok(self.wrap(entry, Session::new((*self.params).clone(), seed)?))
    }

    fn with_params(
        &self,
        entry: &Entry,
        params: &Value,
        seed: u64,
    ) -> Result<Box<dyn DynSession>, ParamsError> {
        let params = P::read_params(&*self.params, params)?;
        Ok(self.wrap(entry, Session::new(params, seed)?))
    }

    fn load(&self, entry: &Entry, saved: &SavedGame) -> Result<Box<dyn DynSession>, LoadError> {
        self.load_texts(
            entry,
            saved,
            &mut saved.moves.iter().map(String::as_str),
            &mut saved.redo.iter().map(String::as_str),
        )
    }

    fn replay_end(
        &self,
        seed: u64,
        moves: &mut dyn Iterator<Item = &str>,
    ) -> Result<GameEnd, LoadError> {
        let state = Session::<P>::replay_to_end(&self.params, seed, moves)?;
        Ok(GameEnd {
            score: P::score(&state),
            status: P::status(&state),
            top_tile: P::top_tile(&state),
            tiles_left: P::tiles_left(&state),
        })
    }

    fn load_texts(
        &self,
        entry: &Entry,
        saved: &SavedGame,
        moves: &mut dyn Iterator<Item = &str>,
        redo: &mut dyn Iterator<Item = &str>,
    ) -> Result<Box<dyn DynSession>, LoadError> {
        if saved.game != entry.id() {
            return Err(LoadError::WrongGame {
                expected: entry.id().to_string(),
                found: saved.game.clone(),
            });
        }
        let session = Session::restore_texts(saved, &*self.params, moves, redo)?;
        Ok(self.wrap(entry, session))
    }

    fn how_to_play(&self) -> String {
        self.front.how_to_play(&*self.params)
    }

    fn tile_text(&self, value: u64) -> String {
        self.front.tile_text(&*self.params, value)
    }

    fn tile_colors(&self, value: u64) -> TileColors {
        self.front.tile_colors(&*self.params, value)
    }

    fn board_colors(&self, dark: bool) -> BoardColors {
        self.front.board_colors(&*self.params, dark)
    }

    fn assistant(&self) -> Option<Arc<dyn DynAssistant>> {
        assistant_for(&self.front, &*self.params)
    }

    fn options(&self) -> Vec<ParamOption> {
        self.front.options()
    }

    fn name_fields(&self) -> &'static [&'static str] {
        P::NAME_FIELDS
    }

    fn with_preset(&self, params: &Value) -> Result<Arc<dyn EntryOps>, ParamsError> {
        let params = P::read_params(&*self.params, params)?;
        // The rules say whether they can start a game with them.
        P::new_game(&params, 0)?;
        Ok(Arc::new(EntryOf::<P>::given(
            params,
            Arc::clone(&self.front),
        )))
    }
}

/// One game a host offers: an id, a title, a description, a kind and a preset of that kind's
/// parameters. Cheap to clone.
#[derive(Clone)]
pub struct Entry {
    info: Arc<EntryInfo>,
    ops: Arc<dyn EntryOps>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("info", &self.info)
            .field("params", &self.ops.params_json())
            .finish_non_exhaustive()
    }
}

impl Entry {
    /// Id, title, description and group.
    pub fn info(&self) -> &EntryInfo {
        &self.info
    }

    /// The entry's id.
    pub fn id(&self) -> &str {
        &self.info.id
    }

    /// The entry's title.
    pub fn title(&self) -> &str {
        &self.info.title
    }

    /// The kind this entry is a preset of.
    pub fn kind(&self) -> GameInfo {
        self.ops.kind()
    }

    /// The type of the kind, for a host that keeps something per kind (the app's views).
    pub fn kind_type(&self) -> TypeId {
        self.ops.kind_type()
    }

    /// Whether this entry is of kind `P`.
    pub fn is<P: Puzzle>(&self) -> bool {
        self.kind_type() == TypeId::of::<P>()
    }

    /// The preset's parameters, typed, when the entry is of kind `P`.
    pub fn params<P: Puzzle>(&self) -> Option<&P::Params> {
        self.ops.params_any().downcast_ref::<P::Params>()
    }

    /// The preset's parameters, as JSON (as they are in saves).
    pub fn params_json(&self) -> Value {
        self.ops.params_json()
    }

    /// Whether a lower score is the better one in this entry's games (its preset's parameters,
    /// see [`Puzzle::lower_is_better`]): its best is the lowest score of a finished game.
    pub fn lower_is_better(&self) -> bool {
        self.ops.lower_is_better()
    }

    /// A new game of this entry from `seed`.
    pub fn new_session(&self, seed: u64) -> Result<Box<dyn DynSession>, ParamsError> {
        self.ops.new_session(self, seed)
    }

    /// A new game of this entry's kind with other parameters (given as JSON), counted under
    /// this entry.
    pub fn with_params(
        &self,
        params: &Value,
        seed: u64,
    ) -> Result<Box<dyn DynSession>, ParamsError> {
        self.ops.with_params(self, params, seed)
    }

    /// Restores a saved game of this entry. The save's own parameters are used (a game keeps
    /// the rules it was started with).
    pub fn load(&self, saved: &SavedGame) -> Result<Box<dyn DynSession>, LoadError> {
        self.ops.load(self, saved)
    }

    /// What the game of this entry (its preset's parameters) from `seed` comes to after
    /// `moves`, replayed as strictly as a save is loaded: [`Entry::load`] of a save of them with
    /// the entry's parameters gives a game of this end, or the same error. Quicker than a load:
    /// the parameters are not written out and read back, and no state but the last is kept.
    pub fn replay_end<'a>(
        &self,
        seed: u64,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<GameEnd, LoadError> {
        self.ops.replay_end(seed, &mut moves.into_iter())
    }

    /// [`Entry::load`] with the save's moves and redo list (the next to redo first) given
    /// apart, as texts; `saved`'s own lists are not read. For a host that reads a long save's
    /// moves into a compact form of its own rather than a string each.
    pub fn load_texts(
        &self,
        saved: &SavedGame,
        moves: &mut dyn Iterator<Item = &str>,
        redo: &mut dyn Iterator<Item = &str>,
    ) -> Result<Box<dyn DynSession>, LoadError> {
        self.ops.load_texts(self, saved, moves, redo)
    }

    /// How to play this entry, in a few sentences.
    pub fn how_to_play(&self) -> String {
        self.ops.how_to_play()
    }

    /// What a tile worth `value` shows: its number or its label.
    pub fn tile_text(&self, value: u64) -> String {
        self.ops.tile_text(value)
    }

    /// The colours of a tile worth `value`.
    pub fn tile_colors(&self, value: u64) -> TileColors {
        self.ops.tile_colors(value)
    }

    /// The colours of the board.
    pub fn board_colors(&self, dark: bool) -> BoardColors {
        self.ops.board_colors(dark)
    }

    /// The parameters a player may combine freely in this entry's kind (see
    /// [`crate::FrontEnd::options`]).
    pub fn options(&self) -> Vec<ParamOption> {
        self.ops.options()
    }

    /// The fields of its params that name a game rather than make its rules
    /// ([`Puzzle::NAME_FIELDS`]).
    pub fn name_fields(&self) -> &'static [&'static str] {
        self.ops.name_fields()
    }

    /// `params` without the fields that name a game ([`Entry::name_fields`]): the rules, for
    /// comparing two games of this entry's kind.
    pub fn rules_json(&self, params: &Value) -> Value {
        rules_without(params, self.name_fields())
    }

    /// Hints and autoplay, if the entry's kind has an assistant that plays its preset. (A
    /// game loaded with other parameters asks [`DynSession::assistant`].)
    pub fn assistant(&self) -> Option<Arc<dyn DynAssistant>> {
        self.ops.assistant()
    }
}

/// `params` without the fields `names` (a kind's [`Puzzle::NAME_FIELDS`]): the rules alone. The
/// one place where a game's names are told from its rules: [`Entry::rules_json`], the codes of
/// a player's own entries and the sliding kind's `Variant::same_rules` all ask it.
pub fn rules_without(params: &Value, names: &[&str]) -> Value {
    let mut rules = params.clone();
    if let Value::Object(fields) = &mut rules {
        fields.retain(|field, _| !names.contains(&field.as_str()));
    }
    rules
}

/// A registered kind, for tests and tools that go over kinds rather than entries.
trait KindOps: Send + Sync {
    fn info(&self) -> GameInfo;
    fn kind_type(&self) -> TypeId;
    fn fixtures(&self) -> Fixtures;
    /// The front end, as `Arc<dyn FrontEnd<P>>`, for presets of this kind.
    fn front(&self) -> &dyn Any;
}

struct KindOf<P: Puzzle> {
    front: Arc<dyn FrontEnd<P>>,
}

impl<P: Puzzle> KindOps for KindOf<P> {
    fn info(&self) -> GameInfo {
        P::INFO
    }

    fn kind_type(&self) -> TypeId {
        TypeId::of::<P>()
    }

    fn fixtures(&self) -> Fixtures {
        self.front.fixtures()
    }

    fn front(&self) -> &dyn Any {
        &self.front
    }
}

/// A registered kind of game: its info and its test fixtures.
#[derive(Clone)]
pub struct Kind {
    ops: Arc<dyn KindOps>,
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kind")
            .field("info", &self.ops.info())
            .finish_non_exhaustive()
    }
}

impl Kind {
    /// The kind's id, title and description (those of its standard entry).
    pub fn info(&self) -> GameInfo {
        self.ops.info()
    }

    /// The kind's type.
    pub fn kind_type(&self) -> TypeId {
        self.ops.kind_type()
    }

    /// The fixtures its front end supplies to the shared tests.
    pub fn fixtures(&self) -> Fixtures {
        self.ops.fixtures()
    }
}

/// The kinds and entries a host offers, in the order it lists them.
#[derive(Clone, Default)]
pub struct Registry {
    kinds: Vec<Kind>,
    entries: Vec<Entry>,
    /// The places in `entries` in the order of their ids, for finding one by a binary search
    /// (a start registers a hundred entries, each checked against those before it).
    by_id: Vec<usize>,
    /// The games the catalogue renamed ([`Registry::rename`]).
    renamed: Vec<Renamed>,
    /// A player's own entries and the built-in each one's codes name
    /// ([`Registry::set_code_base`]).
    code_bases: Vec<(String, String)>,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("entries", &self.ids())
            .finish_non_exhaustive()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds kind `P` with the plain front end, and its standard entry.
    #[must_use]
    pub fn with<P: Puzzle>(self) -> Self {
        self.kind::<P>(PlainFrontEnd)
    }

    /// Adds kind `P` with its front end, and its standard entry: the kind's id, title and
    /// description ([`Puzzle::INFO`]) with the default parameters.
    ///
    /// Ids must be unique: registering a kind or an entry under an id already taken is a bug in
    /// the host's catalogue. Debug builds (and so every test) stop on it with a panic naming the
    /// id; release builds keep the first and ignore the second rather than fail.
    #[must_use]
    pub fn kind<P: Puzzle>(mut self, front: impl FrontEnd<P>) -> Self {
        let taken = self
            .kinds
            .iter()
            .any(|k| k.kind_type() == TypeId::of::<P>());
        debug_assert!(!taken, "game kind '{}' registered twice", P::INFO.id);
        if taken {
            return self;
        }
        let front: Arc<dyn FrontEnd<P>> = Arc::new(front);
        self.kinds.push(Kind {
            ops: Arc::new(KindOf::<P> {
                front: Arc::clone(&front),
            }),
        });
        let info = P::INFO;
        self.push_entry(
            EntryInfo {
                id: info.id.to_string(),
                title: info.title.to_string(),
                description: info.description.to_string(),
                group: info.title.to_string(),
                section: None,
            },
            EntryOf::<P>::given(P::Params::default(), front),
        )
    }

    /// Adds an entry of kind `P` (registered before) that starts its games with `params`, in
    /// its kind's group. The same rules about ids hold as for [`Registry::kind`]; a preset of a
    /// kind not registered is a bug too, and is ignored in release builds.
    #[must_use]
    pub fn preset<P: Puzzle>(
        self,
        id: &str,
        title: &str,
        description: &str,
        params: P::Params,
    ) -> Self {
        self.preset_in::<P>(
            EntryInfo {
                id: id.to_string(),
                title: title.to_string(),
                description: description.to_string(),
                group: P::INFO.title.to_string(),
                section: None,
            },
            params,
        )
    }

    /// As [`Registry::preset`], with the whole [`EntryInfo`]: the launcher lists the entry under
    /// `info.group` (the sliding variants group under the root of their `based_on` chain).
    #[must_use]
    pub fn preset_in<P: Puzzle>(self, info: EntryInfo, params: P::Params) -> Self {
        self.catalogue_entry::<P>(info, |front| EntryOf::given(params, front))
    }

    /// As [`Registry::preset_in`], with params made by `read` only when something first needs
    /// them (a game, its help, its colours, [`Entry::params`]), once, by whichever thread asks
    /// first: a catalogue of presets kept in files lists them all without reading one.
    /// `lower_is_better` is what [`Puzzle::lower_is_better`] says of the params `read` makes,
    /// which a launcher asks of every entry.
    #[must_use]
    pub fn lazy_preset_in<P: Puzzle>(
        self,
        info: EntryInfo,
        lower_is_better: bool,
        read: impl FnOnce() -> P::Params + Send + 'static,
    ) -> Self {
        self.catalogue_entry::<P>(info, |front| EntryOf {
            params: LazyLock::new(Box::new(read)),
            lower_is_better,
            front,
        })
    }

    /// Adds an entry of the host's catalogue, which the same rules about ids hold for as for
    /// [`Registry::kind`]; a preset of a kind not registered is a bug too, and is ignored in
    /// release builds.
    fn catalogue_entry<P: Puzzle>(
        mut self,
        info: EntryInfo,
        ops: impl FnOnce(Arc<dyn FrontEnd<P>>) -> EntryOf<P>,
    ) -> Self {
        // For the debug builds' messages only: a start registers a hundred entries.
        let id = if cfg!(debug_assertions) {
            info.id.clone()
        } else {
            String::new()
        };
        match self.add::<P>(info, ops) {
            Ok(()) => {}
            Err(PresetError::Taken(_)) => {
                debug_assert!(false, "game id '{id}' registered twice");
            }
            Err(PresetError::UnknownKind(kind)) => {
                debug_assert!(
                    false,
                    "preset '{id}' of kind '{kind}', which is not registered"
                );
            }
        }
        self
    }

    /// Adds an entry of kind `P` (registered before) unless its id is taken or the kind is not
    /// registered: for entries a player wrote (variant files), which may be wrong without the
    /// catalogue being so.
    pub fn add_preset<P: Puzzle>(
        &mut self,
        info: EntryInfo,
        params: P::Params,
    ) -> Result<(), PresetError> {
        self.add::<P>(info, |front| EntryOf::given(params, front))
    }

    /// Adds the entry `info` of kind `P` whose `ops` are made with the kind's front end, unless
    /// its id is taken or the kind is not registered.
    fn add<P: Puzzle>(
        &mut self,
        info: EntryInfo,
        ops: impl FnOnce(Arc<dyn FrontEnd<P>>) -> EntryOf<P>,
    ) -> Result<(), PresetError> {
        let front = self
            .kinds
            .iter()
            .find(|k| k.kind_type() == TypeId::of::<P>())
            .and_then(|k| k.ops.front().downcast_ref::<Arc<dyn FrontEnd<P>>>())
            .cloned()
            .ok_or_else(|| PresetError::UnknownKind(P::INFO.id.to_string()))?;
        let slot = self
            .slot(&info.id)
            .err()
            .ok_or(PresetError::Taken(info.id.clone()))?;
        self.insert_at(slot, info, ops(front));
        Ok(())
    }

    fn push_entry<P: Puzzle>(mut self, info: EntryInfo, ops: EntryOf<P>) -> Self {
        match self.slot(&info.id) {
            Err(slot) => self.insert_at(slot, info, ops),
            Ok(_) => debug_assert!(false, "game id '{}' registered twice", info.id),
        }
        self
    }

    /// Where `id` is in [`Registry::by_id`]: `Ok` with its place there when an entry has it,
    /// `Err` with the place it would take.
    fn slot(&self, id: &str) -> Result<usize, usize> {
        self.by_id
            .binary_search_by(|&i| self.entries.get(i).map_or("", Entry::id).cmp(id))
    }

    /// Adds an entry at the end of the list, its id at `slot` of the index.
    fn insert_at(&mut self, slot: usize, info: EntryInfo, ops: impl EntryOps + 'static) {
        self.by_id.insert(slot, self.entries.len());
        self.entries.push(Entry {
            info: Arc::new(info),
            ops: Arc::new(ops),
        });
    }

    /// Every entry, in registration order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every kind, in registration order.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// The entry with this id.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        let i = *self.by_id.get(self.slot(id).ok()?)?;
        self.entries.get(i)
    }

    /// The ids of every entry, in order, for messages such as "expected one of …".
    pub fn ids(&self) -> Vec<&str> {
        self.entries.iter().map(Entry::id).collect()
    }

    /// The entries grouped by [`EntryInfo::group`], groups in the order of their first entry
    /// and entries in registration order: the indices into [`Registry::entries`].
    pub fn groups(&self) -> Vec<(&str, Vec<usize>)> {
        let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
        for (i, entry) in self.entries.iter().enumerate() {
            let group = entry.info.group.as_str();
            match groups.iter_mut().find(|(g, _)| *g == group) {
                Some((_, members)) => members.push(i),
                None => groups.push((group, vec![i])),
            }
        }
        groups
    }

    /// The combinations of the options of every kind that has some ([`crate::FrontEnd::options`]),
    /// other than those a registered entry already plays: an entry each, in the kind's group,
    /// with an id made of the kind's id and the choices' values (`strike9-12-low_total-digits`),
    /// so that each combination keeps its own scores and game in progress. They are not in
    /// [`Registry::entries`]: a host offers them through its menu of options.
    pub fn combinations(&self) -> Vec<Entry> {
        self.every_combination()
            .into_iter()
            .filter_map(|(combination, named)| named.is_none().then_some(combination))
            .collect()
    }

    /// Records that the game `renamed.from` is now the entry `renamed.to` (the catalogue does,
    /// for a player's variant file whose id a built-in took). Ignored unless `to` is an entry.
    pub fn rename(&mut self, renamed: Renamed) {
        if self.get(&renamed.to).is_some() && !self.renamed.contains(&renamed) {
            self.renamed.push(renamed);
        }
    }

    /// Records that the codes of entry `own`, a player's own (a variant file), name the entry
    /// `base` instead, one every Tilebox has (the built-in at the root of the file's `based_on`
    /// chain), with the params where they differ from it ([`Registry::code_of`]), so that they
    /// play on any machine. Ignored unless both are entries of one kind.
    pub fn set_code_base(&mut self, own: &str, base: &str) {
        let same_kind = match (self.get(own), self.get(base)) {
            (Some(own), Some(base)) => own.kind_type() == base.kind_type(),
            _ => false,
        };
        if same_kind && own != base {
            self.code_bases.retain(|(o, _)| o != own);
            self.code_bases.push((own.to_string(), base.to_string()));
        }
    }

    /// The entry the codes of entry `own` name in its place ([`Registry::set_code_base`]).
    pub fn code_base(&self, own: &str) -> Option<&Entry> {
        let (_, base) = self.code_bases.iter().find(|(o, _)| o == own)?;
        self.get(base)
    }

    /// The player's own entries whose codes name `base` ([`Registry::set_code_base`]).
    pub(crate) fn based_on_in_codes(&self, base: &str) -> impl Iterator<Item = &Entry> {
        self.code_bases
            .iter()
            .filter(move |(_, b)| b == base)
            .filter_map(|(own, _)| self.get(own))
    }

    /// Every game renamed: those the catalogue recorded ([`Registry::rename`]), then each
    /// combination of options a named entry plays, from the combination's id to the entry's
    /// (a preset added after players had played its combination takes its saves, scores,
    /// history and codes). A host moves what it keeps under `from` to `to` and says the
    /// notice once; where `from` is still an entry's id (a built-in took a player's id), only
    /// what was kept before the rename is the player's, which [`Registry::entry_for`] tells
    /// by the game's params.
    pub fn renamed(&self) -> Vec<Renamed> {
        let mut all = self.renamed.clone();
        for (combination, named) in self.every_combination() {
            let Some(named) = named else { continue };
            if combination.id() != named.id() {
                all.push(Renamed {
                    from: combination.id().to_string(),
                    to: named.id().to_string(),
                    notice: format!(
                        "{} is now {}: its games and scores are there.",
                        combination.title(),
                        named.title()
                    ),
                });
            }
        }
        all
    }

    /// The entry a game of `game` played with `params` belongs to (a save, a line of history,
    /// a code's game): where a game once called `game` was renamed and `params` are its entry's
    /// own, that entry (a player's variant that kept its game under a new id); else the entry
    /// or combination `game`; else the entry `game` was renamed to.
    pub fn entry_for(&self, game: &str, params: &Value) -> Option<Entry> {
        let moved: Vec<Entry> = self
            .renamed()
            .into_iter()
            .filter(|r| r.from == game)
            .filter_map(|r| self.live(&r.to))
            .collect();
        if let Some(own) = moved.iter().find(|e| e.params_json() == *params) {
            return Some(own.clone());
        }
        self.live(game).or_else(|| moved.into_iter().next())
    }

    /// The entry `id`: one of [`Registry::entries`], or one of [`Registry::combinations`];
    /// failing those, the entry a game of that id was renamed to ([`Registry::renamed`]).
    pub fn entry_or_combination(&self, id: &str) -> Option<Entry> {
        self.live(id).or_else(|| {
            self.renamed()
                .into_iter()
                .find(|r| r.from == id)
                .and_then(|r| self.live(&r.to))
        })
    }

    /// The entry or combination `id`, renames aside.
    fn live(&self, id: &str) -> Option<Entry> {
        self.get(id)
            .cloned()
            .or_else(|| self.combinations().into_iter().find(|e| e.id() == id))
    }

    /// Every combination of options with the named entry that plays it, if one does.
    fn every_combination(&self) -> Vec<(Entry, Option<&Entry>)> {
        let mut found = Vec::new();
        for kind in &self.kinds {
            let Some(standard) = self
                .entries
                .iter()
                .find(|e| e.kind_type() == kind.kind_type())
            else {
                continue;
            };
            let options = standard.options();
            if options.is_empty() {
                continue;
            }
            // Every combination, as an odometer: the last option turns fastest.
            let mut picks = vec![0usize; options.len()];
            'combinations: loop {
                found.extend(self.combination(standard, &options, &picks));
                for i in (0..options.len()).rev() {
                    picks[i] += 1;
                    if picks[i] < options[i].choices.len() {
                        continue 'combinations;
                    }
                    picks[i] = 0;
                }
                break;
            }
        }
        found
    }

    /// The entry for `picks` (a choice index per option) of `standard`'s kind, with the
    /// registered entry that plays those params if one does; `None` if the kind refuses them.
    fn combination(
        &self,
        standard: &Entry,
        options: &[ParamOption],
        picks: &[usize],
    ) -> Option<(Entry, Option<&Entry>)> {
        let mut params = standard.params_json();
        let fields = params.as_object_mut()?;
        let mut values = Vec::new();
        let mut labels = Vec::new();
        for (option, &pick) in options.iter().zip(picks) {
            let (label, value) = option.choices.get(pick)?;
            fields.insert(option.field.clone(), value.clone());
            values.push(match value {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            });
            labels.push(label.as_str());
        }
        let ops = standard.ops.with_preset(&params).ok()?;
        // Compare params as the kind writes them, so that defaults left out compare equal.
        let written = ops.params_json();
        let named = self
            .entries
            .iter()
            .find(|e| e.kind_type() == standard.kind_type() && e.params_json() == written);
        let kind = standard.kind();
        let combination = Entry {
            info: Arc::new(EntryInfo {
                id: format!("{}-{}", kind.id, values.join("-")),
                // Short enough for a title bar: the values, "Strike 9 (12, low total, digits)".
                title: format!("{} ({})", kind.title, values.join(", ").replace('_', " ")),
                description: format!("Your own combination: {}.", labels.join(", ")),
                group: standard.info.group.clone(),
                section: standard.info.section.clone(),
            }),
            ops,
        };
        Some((combination, named))
    }

    /// Restores a saved game of the entry it belongs to ([`Registry::entry_for`]: the entry it
    /// names, or the one its game was renamed to).
    pub fn load(&self, saved: &SavedGame) -> Result<Box<dyn DynSession>, LoadError> {
        let entry = self
            .entry_for(&saved.game, &saved.params)
            .ok_or_else(|| LoadError::UnknownGame(saved.game.clone()))?;
        if entry.id() == saved.game {
            return entry.load(saved);
        }
        entry.load(&SavedGame {
            game: entry.id().to_string(),
            ..saved.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Assistant;
    use crate::session::tests::{Add, Counter, CounterState};

    /// Counter's front end: an assistant that adds 3, and a help text with the goal.
    struct CounterFront;

    struct AddThree;

    impl Player<Counter> for AddThree {
        fn best_move(
            &mut self,
            state: &CounterState,
            _: Duration,
        ) -> Result<Option<Add>, AssistError> {
            Ok((state.value < 20).then_some(Add(3)))
        }
    }

    impl Assistant<Counter> for CounterFront {
        fn plays(&self, params: &u32) -> bool {
            *params == 0
        }
        fn player(&self) -> Box<dyn Player<Counter>> {
            Box::new(AddThree)
        }
        fn commentary(&self, session: &Session<Counter>) -> Vec<String> {
            vec![format!("{} to go", 20 - session.state().value.min(20))]
        }
    }

    impl FrontEnd<Counter> for CounterFront {
        fn how_to_play(&self, goal: &u32) -> String {
            format!("Count to {}.", if *goal == 0 { 20 } else { *goal })
        }
        fn assistant(&self) -> Option<&dyn Assistant<Counter>> {
            Some(self)
        }
        fn end_text(&self, state: &CounterState) -> Option<String> {
            Some(format!("Reached {}.", state.value))
        }
    }

    fn registry() -> Registry {
        Registry::new()
            .kind::<Counter>(CounterFront)
            .preset::<Counter>("counter-30", "Counter to 30", "Count further.", 30)
    }

    #[test]
    fn entries_list_make_and_load_games_through_trait_objects() {
        let registry = registry();
        assert_eq!(registry.ids(), ["counter", "counter-30"]);
        assert_eq!(registry.groups(), [("Counter", vec![0, 1])]);
        assert_eq!(registry.kinds().len(), 1);
        let entry = registry.get("counter").unwrap();
        assert!(entry.is::<Counter>());
        assert_eq!(entry.params::<Counter>(), Some(&0));
        // Higher is better unless the kind says otherwise.
        assert!(!entry.lower_is_better());
        let mut game = entry.new_session(11).unwrap();
        assert!(!game.lower_is_better());
        assert_eq!(game.play_text("1 2").unwrap(), 2);
        assert_eq!(game.last_move().as_deref(), Some("2"));
        // A kind that says nothing of tiles left has none.
        assert_eq!(game.tiles_left(), None);
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
    fn a_preset_plays_with_its_params_and_saves_under_its_own_id() {
        let registry = registry();
        let entry = registry.get("counter-30").unwrap();
        assert_eq!(entry.params::<Counter>(), Some(&30));
        assert_eq!(entry.params_json(), serde_json::json!(30));
        assert_eq!(entry.how_to_play(), "Count to 30.");
        let mut game = entry.new_session(4).unwrap();
        game.play_text(&"3 ".repeat(7)).unwrap();
        assert!(game.score() >= 21 && !game.status().over, "{}", game.text());
        let saved = game.save();
        assert_eq!(saved.game, "counter-30");
        assert_eq!(saved.params, serde_json::json!(30));
        let back = registry.load(&saved).unwrap();
        assert_eq!(back.info().id, "counter-30");
        assert_eq!(back.text(), game.text());
        // The standard entry refuses the preset's save, and the other way round.
        let standard = registry.get("counter").unwrap();
        assert!(matches!(
            standard.load(&saved),
            Err(LoadError::WrongGame { .. })
        ));
    }

    /// A lazy preset is listed, grouped and ranked without its params, which are made once,
    /// the first time something needs them, whichever thread asks.
    #[test]
    fn a_lazy_preset_makes_its_params_once_when_first_needed() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let made = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&made);
        let info = EntryInfo {
            id: "counter-40".into(),
            title: "Counter to 40".into(),
            description: "Count further still.".into(),
            group: "Counter".into(),
            section: None,
        };
        let registry = registry().lazy_preset_in::<Counter>(info, false, move || {
            counter.fetch_add(1, Ordering::SeqCst);
            40
        });
        let entry = registry.get("counter-40").unwrap().clone();
        assert_eq!(entry.title(), "Counter to 40");
        assert!(!entry.lower_is_better());
        assert_eq!(registry.groups(), [("Counter", vec![0, 1, 2])]);
        assert!(registry.renamed().is_empty());
        assert_eq!(made.load(Ordering::SeqCst), 0);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let entry = entry.clone();
                std::thread::spawn(move || entry.params::<Counter>().copied())
            })
            .collect();
        for thread in threads {
            assert_eq!(thread.join().unwrap(), Some(40));
        }
        assert_eq!(entry.how_to_play(), "Count to 40.");
        let game = entry.new_session(3).unwrap();
        assert_eq!(registry.load(&game.save()).unwrap().info().id, "counter-40");
        assert_eq!(made.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn the_assistant_is_offered_for_the_params_it_plays() {
        let registry = registry();
        let standard = registry.get("counter").unwrap();
        assert!(registry.get("counter-30").unwrap().assistant().is_none());
        let assistant = standard.assistant().unwrap();
        assert!(assistant.autoplays());
        let mut game = standard.new_session(2).unwrap();
        let mut player = assistant.player();
        let best = player
            .best_move(&game.position(), Duration::ZERO)
            .unwrap()
            .unwrap();
        assert_eq!(best, "3");
        assert_eq!(game.commentary(), ["20 to go"]);
        game.play_text(&best).unwrap();
        let other = registry.get("counter-30").unwrap().new_session(2).unwrap();
        assert!(other.commentary().is_empty());
        while !game.status().over {
            game.play_text("3").unwrap();
        }
        assert_eq!(game.end_text(), Some(format!("Reached {}.", game.score())));
        assert_eq!(player.best_move(&game.position(), Duration::ZERO), Ok(None));
    }

    #[test]
    fn revisions_change_with_every_change_and_never_repeat() {
        let entry = registry().get("counter").unwrap().clone();
        let mut game = entry.new_session(1).unwrap();
        let other = entry.new_session(1).unwrap();
        let mut seen = vec![game.revision(), other.revision()];
        game.play_text("1").unwrap();
        seen.push(game.revision());
        game.undo();
        seen.push(game.revision());
        game.redo();
        seen.push(game.revision());
        game.restart(1).unwrap();
        seen.push(game.revision());
        let mut unique = seen.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "{seen:?}");
        // A refused move changes nothing.
        let before = game.revision();
        assert!(game.play_text("9").is_err());
        assert_eq!(game.revision(), before);
    }

    #[test]
    fn entries_are_found_by_id_whatever_the_order_they_came_in() {
        let ids = ["m", "b", "zz", "a", "counter-5", "y", "counter-10", "c"];
        let mut registry = registry();
        for (goal, id) in (1..).zip(ids) {
            let info = EntryInfo {
                id: id.to_string(),
                title: id.to_uppercase(),
                description: String::new(),
                group: "Counter".to_string(),
                section: None,
            };
            assert_eq!(registry.add_preset::<Counter>(info, goal), Ok(()));
        }
        // Listed in the order they came, each found by its id with its own params.
        assert_eq!(registry.ids()[2..], ids);
        for (goal, id) in (1..).zip(ids) {
            let entry = registry.get(id).unwrap();
            assert_eq!((entry.id(), entry.params::<Counter>()), (id, Some(&goal)));
        }
        for missing in ["", "0", "counter-3", "d", "zzz"] {
            assert!(registry.get(missing).is_none(), "{missing}");
        }
        let again = EntryInfo {
            id: "y".to_string(),
            title: "Again".to_string(),
            description: String::new(),
            group: "Counter".to_string(),
            section: None,
        };
        assert_eq!(
            registry.add_preset::<Counter>(again, 99),
            Err(PresetError::Taken("y".to_string()))
        );
        assert_eq!(registry.get("y").unwrap().params::<Counter>(), Some(&6));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "game id 'counter-30' registered twice")]
    fn registering_an_id_twice_stops_debug_builds() {
        let _ = registry().preset::<Counter>("counter-30", "Again", "Again.", 31);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "game kind 'counter' registered twice")]
    fn registering_a_kind_twice_stops_debug_builds() {
        let _ = Registry::new().with::<Counter>().with::<Counter>();
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "which is not registered")]
    fn a_preset_of_an_unregistered_kind_stops_debug_builds() {
        let _ = Registry::new().preset::<Counter>("c", "C", "C.", 3);
    }

    #[test]
    fn restart_keeps_the_entry_and_its_params_and_clears_the_history() {
        let registry = registry();
        let mut game = registry.get("counter-30").unwrap().new_session(1).unwrap();
        game.play_text("3").unwrap();
        game.restart(2).unwrap();
        assert_eq!(game.seed(), 2);
        assert_eq!(game.move_count(), 0);
        assert!(!game.can_undo());
        assert_eq!(game.info().id, "counter-30");
        assert_eq!(game.params_json(), serde_json::json!(30));
    }

    #[test]
    fn a_game_loaded_with_other_params_keeps_them_its_assistant_follows_them_and_a_new_game_is_the_preset()
     {
        let registry = registry();
        let standard = registry.get("counter").unwrap();
        let preset = registry.get("counter-30").unwrap();
        // A save of the standard entry that carries the preset's params (as a game code may).
        let mut saved = preset.new_session(6).unwrap().save();
        saved.game = "counter".into();
        let mut game = standard.load(&saved).unwrap();
        assert_eq!(game.params_json(), serde_json::json!(30));
        assert!(standard.assistant().is_some());
        assert!(
            game.assistant().is_none(),
            "the assistant plays goal 20 only"
        );
        assert!(game.commentary().is_empty());
        game.restart(7).unwrap();
        assert_eq!(game.params_json(), standard.params_json());
        assert!(game.assistant().is_some());
        assert_eq!(game.commentary(), ["20 to go"]);
    }
}
