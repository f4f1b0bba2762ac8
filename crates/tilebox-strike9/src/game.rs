//! The game: [`Strike9`], its parameters and its state, and the [`Puzzle`] rules between them.

use std::fmt;
use std::str::FromStr;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use tilebox_core::{GameInfo, GameRng, MoveError, ParamsError, ParseMoveError, Puzzle, Status};

use crate::{Dice, TileSet, addends};

/// Strike 9: Shut the Box, with nine tiles and two dice by default.
///
/// Tiles 1 to 9 start open and two dice are rolled. A move shuts open tiles that add up to the
/// roll, then the dice roll again. Shutting every tile wins; a roll that no set of open tiles
/// adds up to ends the game at once. The score is the sum of the shut tiles, 0 to 45. The
/// variants ([`Strike9Params`]) have 10 or 12 tiles, let the player roll one die late in the
/// game, and score by what is left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strike9;

/// When the player may roll one die instead of two.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OneDie {
    /// Never: two dice on every roll (`"never"`, the default).
    #[default]
    Never,
    /// Once every tile above 6 is shut (`"high_shut"`).
    HighShut,
    /// Once the open tiles total 6 or less (`"low_total"`).
    LowTotal,
}

impl OneDie {
    /// Every rule, the default first.
    pub const ALL: [OneDie; 3] = [OneDie::Never, OneDie::HighShut, OneDie::LowTotal];
}

/// How a game is scored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// The sum of the shut tiles; higher is better (`"shut"`, the default).
    #[default]
    Shut,
    /// The sum of the tiles left open, 0 when the box is shut; lower is better (`"golf"`).
    Golf,
    /// The open tiles in ascending order read as one number (1, 2, 5 → 125; 1, 10 → 110), 0
    /// when the box is shut; lower is better (`"digits"`).
    Digits,
}

impl Scoring {
    /// Every scoring, the default first.
    pub const ALL: [Scoring; 3] = [Scoring::Shut, Scoring::Golf, Scoring::Digits];
}

impl Scoring {
    /// Whether a lower score is the better one (golf and digits).
    pub fn lower_is_better(self) -> bool {
        self != Scoring::Shut
    }
}

/// The number of tiles of the standard box.
const STANDARD_TILES: u8 = 9;

/// How a game of Strike 9 is set up: the box (9, 10 or 12 tiles), when one die may be rolled,
/// and the scoring. The default is the standard game, nine tiles, always two dice, the shut
/// tiles' sum as the score; its JSON is `{}`, since fields at their default are not written.
///
/// Unknown fields are refused, so that a save made with a variant this build does not know is
/// not replayed under the wrong rules. A box of another size is refused when a game starts
/// ([`Strike9Params::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Strike9Params {
    /// How many tiles, 1 to `tiles`: 9, 10 or 12.
    #[serde(skip_serializing_if = "is_standard_tiles")]
    pub tiles: u8,
    /// When the player may roll one die instead of two.
    #[serde(skip_serializing_if = "is_default")]
    pub one_die: OneDie,
    /// How the game is scored.
    #[serde(skip_serializing_if = "is_default")]
    pub score: Scoring,
}

/// The fields of [`Strike9Params`] as read: each optional, unknown ones refused.
#[derive(Deserialize)]
#[serde(default, deny_unknown_fields)]
struct ParamsFields {
    tiles: u8,
    one_die: OneDie,
    score: Scoring,
}

impl Default for ParamsFields {
    fn default() -> Self {
        let Strike9Params {
            tiles,
            one_die,
            score,
        } = Strike9Params::default();
        ParamsFields {
            tiles,
            one_die,
            score,
        }
    }
}

/// Reads an object only: a derived reader would also take a list of the fields in order
/// (`[12]`), which no one writes on purpose.
impl<'de> Deserialize<'de> for Strike9Params {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectOnly;

        impl<'de> Visitor<'de> for ObjectOnly {
            type Value = Strike9Params;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of Strike 9 parameters")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Strike9Params, A::Error> {
                let fields = ParamsFields::deserialize(MapAccessDeserializer::new(map))?;
                Ok(Strike9Params {
                    tiles: fields.tiles,
                    one_die: fields.one_die,
                    score: fields.score,
                })
            }
        }

        deserializer.deserialize_map(ObjectOnly)
    }
}

fn is_standard_tiles(tiles: &u8) -> bool {
    *tiles == STANDARD_TILES
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

impl Default for Strike9Params {
    fn default() -> Self {
        Strike9Params {
            tiles: STANDARD_TILES,
            one_die: OneDie::Never,
            score: Scoring::Shut,
        }
    }
}

impl Strike9Params {
    /// The boxes there are: 9, 10 or 12 tiles.
    pub const BOXES: [u8; 3] = [9, 10, 12];

    /// Every valid combination of the parameters (27), the default first.
    pub fn every() -> impl Iterator<Item = Strike9Params> {
        Self::BOXES.into_iter().flat_map(|tiles| {
            OneDie::ALL.into_iter().flat_map(move |one_die| {
                Scoring::ALL.into_iter().map(move |score| Strike9Params {
                    tiles,
                    one_die,
                    score,
                })
            })
        })
    }

    /// These parameters with another scoring.
    #[must_use]
    pub fn with_score(self, score: Scoring) -> Self {
        Strike9Params { score, ..self }
    }

    /// Refuses a box that is not 9, 10 or 12 tiles.
    pub fn check(&self) -> Result<(), ParamsError> {
        if Self::BOXES.contains(&self.tiles) {
            Ok(())
        } else {
            Err(ParamsError(format!(
                "a box has 9, 10 or 12 tiles, not {}",
                self.tiles
            )))
        }
    }

    /// Every tile of the box, 1 to `tiles`.
    pub fn full_box(&self) -> TileSet {
        TileSet::first(self.tiles)
    }

    /// Whether the player may roll one die with these tiles open: never with nothing open (the
    /// game is won), else as [`OneDie`] says.
    pub fn one_die_allowed(&self, open: TileSet) -> bool {
        !open.is_empty()
            && match self.one_die {
                OneDie::Never => false,
                OneDie::HighShut => open.is_subset(TileSet::first(6)),
                OneDie::LowTotal => open.sum() <= 6,
            }
    }

    /// The score with these tiles open (see [`Scoring`]); tiles outside the box count as shut.
    pub fn score_of(&self, open: TileSet) -> u64 {
        let open = open.intersection(self.full_box());
        match self.score {
            Scoring::Shut => self.full_box().difference(open).sum().into(),
            Scoring::Golf => open.sum().into(),
            Scoring::Digits => open.tiles().fold(0, |number, tile| {
                let shift = if tile >= 10 { 100 } else { 10 };
                number * shift + u64::from(tile)
            }),
        }
    }
}

/// A move of Strike 9: the dice to roll, where the player has that choice, or the tiles to shut
/// for the roll.
///
/// The text form is `1d` or `2d` for the dice and the tiles joined by `+` (`4+5`, see
/// [`TileSet`]) for the tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strike9Move {
    /// Roll one die or two.
    Roll(Dice),
    /// Shut these tiles.
    Shut(TileSet),
}

impl Strike9Move {
    /// The tiles the move shuts; none for a roll.
    pub fn tiles(self) -> TileSet {
        match self {
            Strike9Move::Roll(_) => TileSet::EMPTY,
            Strike9Move::Shut(tiles) => tiles,
        }
    }
}

impl From<TileSet> for Strike9Move {
    fn from(tiles: TileSet) -> Self {
        Strike9Move::Shut(tiles)
    }
}

impl From<Dice> for Strike9Move {
    fn from(dice: Dice) -> Self {
        Strike9Move::Roll(dice)
    }
}

impl fmt::Display for Strike9Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Strike9Move::Roll(dice) => dice.fmt(f),
            Strike9Move::Shut(tiles) => tiles.fmt(f),
        }
    }
}

impl FromStr for Strike9Move {
    type Err = ParseMoveError;

    /// Reads `1d` or `2d`, or tiles joined by `+` in any order (`4+5`, `5+4`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(dice) = s.parse::<Dice>() {
            return Ok(Strike9Move::Roll(dice));
        }
        s.parse::<TileSet>().map(Strike9Move::Shut).map_err(|e| {
            if e.reason.starts_with("expected") {
                ParseMoveError::new(
                    s,
                    "expected tiles joined by '+' (such as 4+5), or 1d or 2d for the dice",
                )
            } else {
                e
            }
        })
    }
}

/// A game of Strike 9 at one moment: the rules it is played by, the open tiles, the current roll
/// (or the pending choice of dice) and the dice's random stream.
///
/// The roll stays shown after the game ends: the one that could not be made, or the one the box
/// was shut with.
#[derive(Debug, Clone, PartialEq)]
pub struct Strike9State {
    params: Strike9Params,
    open: TileSet,
    /// The dice of the roll; only the first `rolled` count, the rest are 0.
    dice: [u8; 2],
    /// How many dice were rolled: 0 while the player chooses, else 1 or 2.
    rolled: usize,
    /// Decided when the state is made (by the enumerator), never changed after.
    status: Status,
    rng: GameRng,
}

impl Strike9State {
    /// A position of the standard game made by hand: these open tiles and this roll of two dice,
    /// with the dice to come drawn from `seed`. For tests, puzzles and tutorials; a normal game
    /// starts with [`Puzzle::new_game`]. Whether the game is over is decided here, as after any
    /// roll.
    ///
    /// Fails when a die is not 1 to 6 or a tile is not one of 1 to 9.
    pub fn from_position(open: TileSet, dice: [u8; 2], seed: u64) -> Result<Self, ParamsError> {
        Self::from_position_with(&Strike9Params::default(), open, &dice, seed)
    }

    /// A position of any variant made by hand: these open tiles and these dice (none while the
    /// player chooses one die or two, one die where the variant allows it, or two).
    ///
    /// Fails on invalid parameters, a tile outside the box, a die that is not 1 to 6, or dice
    /// the variant does not allow there: one die, or none (a pending choice), where one die is not
    /// allowed; more than two dice. One die is also accepted with every tile shut, as the roll
    /// that shut the box.
    pub fn from_position_with(
        params: &Strike9Params,
        open: TileSet,
        dice: &[u8],
        seed: u64,
    ) -> Result<Self, ParamsError> {
        params.check()?;
        if !open.is_subset(params.full_box()) {
            let outside = open.difference(params.full_box());
            return Err(ParamsError(format!(
                "{outside} is not in a box of tiles 1 to {}",
                params.tiles
            )));
        }
        if let Some(die) = dice.iter().find(|d| !(1..=6).contains(*d)) {
            return Err(ParamsError(format!("a die shows 1 to 6, not {die}")));
        }
        let one_allowed = params.one_die_allowed(open) || open.is_empty();
        let (rolled, pair) = match *dice {
            [] if params.one_die_allowed(open) => (0, [0, 0]),
            [a] if one_allowed => (1, [a, 0]),
            [a, b] => (2, [a, b]),
            [] | [_] => {
                return Err(ParamsError(format!(
                    "{} here: one die is not allowed with {} open",
                    if dice.is_empty() {
                        "the dice must be rolled"
                    } else {
                        "two dice are rolled"
                    },
                    list_or_none(open)
                )));
            }
            _ => return Err(ParamsError(format!("{} dice: one or two", dice.len()))),
        };
        Ok(Self::judged(
            *params,
            open,
            pair,
            rolled,
            GameRng::from_seed(seed),
        ))
    }

    /// The state with these tiles open after this roll (or pending choice), its status decided.
    fn judged(
        params: Strike9Params,
        open: TileSet,
        dice: [u8; 2],
        rolled: usize,
        rng: GameRng,
    ) -> Self {
        let total: u32 = dice.iter().take(rolled).copied().map(u32::from).sum();
        let status = if open.is_empty() {
            Status {
                won: true,
                over: true,
            }
        } else if rolled > 0 && addends(total, open).is_empty() {
            Status {
                won: false,
                over: true,
            }
        } else {
            Status::PLAYING
        };
        Self {
            params,
            open,
            dice,
            rolled,
            status,
            rng,
        }
    }

    /// The state after `open` is left with `rng`: the next roll of two dice, or the choice of
    /// dice where one die is allowed, or nothing once the box is shut (`last` stays shown).
    fn next(
        params: Strike9Params,
        open: TileSet,
        mut rng: GameRng,
        last: ([u8; 2], usize),
    ) -> Self {
        if open.is_empty() {
            return Self::judged(params, open, last.0, last.1, rng);
        }
        if params.one_die_allowed(open) {
            return Self::judged(params, open, [0, 0], 0, rng);
        }
        let dice = roll(&mut rng, Dice::Two);
        Self::judged(params, open, dice, 2, rng)
    }

    /// The rules this game is played by.
    pub fn params(&self) -> &Strike9Params {
        &self.params
    }

    /// The tiles still open.
    pub fn open(&self) -> TileSet {
        self.open
    }

    /// The tiles shut so far.
    pub fn shut(&self) -> TileSet {
        self.params.full_box().difference(self.open)
    }

    /// The dice of the current roll, each 1 to 6: two, one (where the player chose one die), or
    /// none while the player chooses.
    pub fn dice(&self) -> &[u8] {
        self.dice.get(..self.rolled).unwrap_or(&[])
    }

    /// The dice of the current roll, one die or two; `None` while the player chooses.
    pub fn rolled_dice(&self) -> Option<Dice> {
        match self.dice().len() {
            0 => None,
            1 => Some(Dice::One),
            _ => Some(Dice::Two),
        }
    }

    /// Whether the player is to choose one die or two before the roll.
    pub fn choosing_dice(&self) -> bool {
        self.rolled == 0 && !self.status.over
    }

    /// The current roll: the sum of the dice, 2 to 12 with two dice, 1 to 6 with one, 0 while
    /// the player chooses.
    pub fn total(&self) -> u32 {
        self.dice().iter().copied().map(u32::from).sum()
    }

    /// The score (see [`Scoring`]): by default the sum of the shut tiles, 0 to 45.
    pub fn score(&self) -> u64 {
        self.params.score_of(self.open)
    }

    /// Won (and over), lost (over), or playing.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Whether the game has ended, won or lost.
    pub fn is_over(&self) -> bool {
        self.status.over
    }

    /// Whether every tile is shut.
    pub fn is_won(&self) -> bool {
        self.status.won
    }

    /// The moves: `1d` and `2d` while the player chooses the dice, else the sets of open tiles
    /// for the roll (see [`addends`]); empty when the game is over.
    pub fn legal_moves(&self) -> Vec<Strike9Move> {
        if self.status.over {
            Vec::new()
        } else if self.choosing_dice() {
            Dice::BOTH.into_iter().map(Strike9Move::Roll).collect()
        } else {
            addends(self.total(), self.open)
                .into_iter()
                .map(Strike9Move::Shut)
                .collect()
        }
    }
}

/// The text form, for example:
///
/// ```text
/// open  1 2 3 . 5 6 . . 9
/// dice  3 + 4 = 7
/// score 19
/// ```
///
/// with a last line `shut the box!` or `no open tiles add up to 7` once the game has ended. Tiles
/// 10 to 12 take two columns (` .` when shut). One die shows as `die   4`; a pending choice as
/// `dice  to choose: 1d (one die) or 2d (two dice)`. Golf and digits scores say that lower is
/// better.
impl fmt::Display for Strike9State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("open ")?;
        for tile in 1..=self.params.tiles {
            match (self.open.contains(tile), tile >= 10) {
                (true, _) => write!(f, " {tile}")?,
                (false, false) => f.write_str(" .")?,
                (false, true) => f.write_str("  .")?,
            }
        }
        match *self.dice() {
            [a, b] => write!(f, "\ndice  {a} + {b} = {}", self.total())?,
            [a] => write!(f, "\ndie   {a}")?,
            _ => f.write_str("\ndice  to choose: 1d (one die) or 2d (two dice)")?,
        }
        write!(f, "\nscore {}", self.score())?;
        if self.params.score.lower_is_better() {
            f.write_str(", lower is better")?;
        }
        if self.status.won {
            f.write_str("\nshut the box!")?;
        } else if self.status.over {
            write!(f, "\nno open tiles add up to {}", self.total())?;
        }
        Ok(())
    }
}

/// Rolls one die or two: each die is the generator's `below(6) + 1`, first die first.
fn roll(rng: &mut GameRng, dice: Dice) -> [u8; 2] {
    let mut die = || u8::try_from(rng.below(6) + 1).unwrap_or(1);
    let first = die();
    match dice {
        Dice::One => [first, 0],
        Dice::Two => [first, die()],
    }
}

/// "4", "4 and 9", "4, 6 and 9".
fn list_tiles(set: TileSet) -> String {
    let tiles: Vec<String> = set.tiles().map(|t| t.to_string()).collect();
    match tiles.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => tiles.join(""),
    }
}

/// [`list_tiles`], or "no tile".
fn list_or_none(set: TileSet) -> String {
    if set.is_empty() {
        "no tile".into()
    } else {
        list_tiles(set)
    }
}

/// Why shutting `mv` is refused for a roll of `total` from `open` in a box of `tiles`, if it is.
fn refuse_shut(open: TileSet, tiles: u8, total: u32, mv: TileSet) -> Option<String> {
    if mv.is_empty() {
        return Some(format!(
            "no tiles chosen: shut open tiles that add up to {total}"
        ));
    }
    let outside = mv.difference(TileSet::first(tiles));
    if let Some(tile) = outside.tiles().next() {
        return Some(format!(
            "there is no tile {tile}: the tiles are 1 to {tiles}"
        ));
    }
    let already_shut = mv.difference(open);
    if !already_shut.is_empty() {
        let (noun, verb) = if already_shut.len() == 1 {
            ("tile", "is")
        } else {
            ("tiles", "are")
        };
        return Some(format!(
            "{noun} {} {verb} already shut",
            list_tiles(already_shut)
        ));
    }
    let sum = mv.sum();
    (sum != total).then(|| {
        if mv.len() == 1 {
            format!("tile {mv} makes {sum}, the roll is {total}")
        } else {
            format!("{mv} sums to {sum}, the roll is {total}")
        }
    })
}

impl Puzzle for Strike9 {
    type Params = Strike9Params;
    type State = Strike9State;
    type Move = Strike9Move;

    const INFO: GameInfo = GameInfo {
        id: "strike9",
        title: "Strike 9",
        description: "Shut the Box with nine tiles and two dice: shut tiles that add up to each roll.",
    };

    fn new_game(params: &Strike9Params, seed: u64) -> Result<Strike9State, ParamsError> {
        params.check()?;
        let rng = GameRng::from_seed(seed);
        Ok(Strike9State::next(
            *params,
            params.full_box(),
            rng,
            ([0, 0], 0),
        ))
    }

    fn apply(state: &Strike9State, mv: &Strike9Move) -> Result<Strike9State, MoveError> {
        if state.status.over {
            return Err(MoveError::GameOver);
        }
        let total = state.total();
        match *mv {
            Strike9Move::Roll(dice) => {
                if !state.choosing_dice() {
                    return Err(MoveError::Illegal(format!(
                        "the dice are rolled: shut open tiles that add up to {total}"
                    )));
                }
                let mut rng = state.rng.clone();
                let rolled = roll(&mut rng, dice);
                Ok(Strike9State::judged(
                    state.params,
                    state.open,
                    rolled,
                    dice.count(),
                    rng,
                ))
            }
            Strike9Move::Shut(tiles) => {
                if state.choosing_dice() {
                    return Err(MoveError::Illegal(
                        "roll first: choose 1d (one die) or 2d (two dice)".into(),
                    ));
                }
                if let Some(reason) = refuse_shut(state.open, state.params.tiles, total, tiles) {
                    return Err(MoveError::Illegal(reason));
                }
                Ok(Strike9State::next(
                    state.params,
                    state.open.difference(tiles),
                    state.rng.clone(),
                    (state.dice, state.rolled),
                ))
            }
        }
    }

    fn status(state: &Strike9State) -> Status {
        state.status
    }

    fn score(state: &Strike9State) -> u64 {
        state.score()
    }

    /// Golf and digits scores: lower is better.
    fn lower_is_better(params: &Strike9Params) -> bool {
        params.score.lower_is_better()
    }

    fn legal_moves(state: &Strike9State) -> Vec<Strike9Move> {
        state.legal_moves()
    }

    /// The tiles still open.
    fn tiles_left(state: &Strike9State) -> Option<u32> {
        u32::try_from(state.open.len()).ok()
    }

    fn view(state: &Strike9State) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert(
            "open".into(),
            Value::Array(state.open.tiles().map(Value::from).collect()),
        );
        map.insert(
            "dice".into(),
            Value::Array(state.dice().iter().copied().map(Value::from).collect()),
        );
        map.insert("total".into(), state.total().into());
        map
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tilebox_core::{Registry, Session};

    use super::*;

    fn set(text: &str) -> TileSet {
        text.parse().unwrap()
    }

    fn shut(text: &str) -> Strike9Move {
        Strike9Move::Shut(set(text))
    }

    /// The legal moves, all of them sets of tiles.
    fn shuts(state: &Strike9State) -> Vec<TileSet> {
        Strike9::legal_moves(state)
            .into_iter()
            .map(|mv| match mv {
                Strike9Move::Shut(tiles) => tiles,
                Strike9Move::Roll(_) => panic!("a choice of dice in {state}"),
            })
            .collect()
    }

    fn new(seed: u64) -> Strike9State {
        Strike9::new_game(&Strike9Params::default(), seed).unwrap()
    }

    /// Plays until the game ends, choosing with `choose` among the legal moves; returns every
    /// state from the start.
    fn play_out(seed: u64, mut choose: impl FnMut(&[TileSet]) -> usize) -> Vec<Strike9State> {
        let mut states = vec![new(seed)];
        while let Some(state) = states.last().filter(|s| !s.is_over()) {
            let moves = shuts(state);
            let mv = moves[choose(&moves) % moves.len()];
            let next = Strike9::apply(state, &mv.into()).unwrap();
            states.push(next);
        }
        states
    }

    /// The moves that shut the box from `state`, if any: a depth-first search over every choice.
    fn winning_line(state: &Strike9State) -> Option<Vec<TileSet>> {
        if state.is_won() {
            return Some(Vec::new());
        }
        for mv in shuts(state) {
            let next = Strike9::apply(state, &mv.into()).unwrap();
            if let Some(mut line) = winning_line(&next) {
                line.insert(0, mv);
                return Some(line);
            }
        }
        None
    }

    /// A roll drawn straight from the generator, as the rules say: each die `below(6) + 1`.
    fn draw(rng: &mut GameRng) -> [u8; 2] {
        let a = rng.below(6) + 1;
        let b = rng.below(6) + 1;
        [a as u8, b as u8]
    }

    #[test]
    fn info() {
        assert_eq!(Strike9::INFO.id, "strike9");
        assert_eq!(Strike9::INFO.title, "Strike 9");
        assert!(!Strike9::INFO.description.contains('\n'));
    }

    #[test]
    fn a_new_game_has_every_tile_open_and_the_first_roll() {
        for seed in 0..50 {
            let state = new(seed);
            let mut rng = GameRng::from_seed(seed);
            assert_eq!(state.dice(), draw(&mut rng));
            assert_eq!(state.open(), TileSet::ALL);
            assert_eq!(state.shut(), TileSet::EMPTY);
            assert_eq!(Strike9::score(&state), 0);
            assert_eq!(Strike9::status(&state), Status::PLAYING);
            assert_eq!(shuts(&state), addends(state.total(), TileSet::ALL));
        }
    }

    #[test]
    fn a_legal_move_shuts_its_tiles_and_rolls_again() {
        let seed = 42;
        let mut rng = GameRng::from_seed(seed);
        let start = new(seed);
        assert_eq!(start.dice(), draw(&mut rng));
        for mv in shuts(&start) {
            let next = Strike9::apply(&start, &mv.into()).unwrap();
            assert_eq!(next.open(), TileSet::ALL.difference(mv));
            assert_eq!(next.shut(), mv);
            assert_eq!(Strike9::score(&next), u64::from(start.total()));
            // The next roll is the next draw of the same stream.
            assert_eq!(next.dice(), draw(&mut rng.clone()));
        }
    }

    #[test]
    fn illegal_moves_are_refused_with_the_reason_and_change_nothing() {
        // 9 shut, 4 + 5 rolled.
        let state = Strike9State::from_position(TileSet::ALL.without(9), [4, 5], 1).unwrap();
        let before = state.clone();
        let refused = |mv: &str| match Strike9::apply(&state, &shut(mv)) {
            Err(MoveError::Illegal(reason)) => reason,
            other => panic!("{mv}: {other:?}"),
        };
        assert_eq!(refused("9"), "tile 9 is already shut");
        assert_eq!(refused("9+8"), "tile 9 is already shut");
        let state2 = Strike9State::from_position(set("1+2+3"), [2, 4], 1).unwrap();
        assert_eq!(
            Strike9::apply(&state2, &shut("4+5+7")),
            Err(MoveError::Illegal(
                "tiles 4, 5 and 7 are already shut".into()
            ))
        );
        assert_eq!(
            Strike9::apply(&state2, &shut("3+4")),
            Err(MoveError::Illegal("tile 4 is already shut".into()))
        );
        assert_eq!(refused("4+3"), "3+4 sums to 7, the roll is 9");
        assert_eq!(refused("1+2+3+4"), "1+2+3+4 sums to 10, the roll is 9");
        assert_eq!(refused("5"), "tile 5 makes 5, the roll is 9");
        assert_eq!(
            refused("-"),
            "no tiles chosen: shut open tiles that add up to 9"
        );
        assert_eq!(state, before);
        // And the right sets are accepted.
        for mv in ["4+5", "1+8", "2+3+4"] {
            assert!(Strike9::apply(&state, &shut(mv)).is_ok(), "{mv}");
        }
    }

    #[test]
    fn a_loss_is_decided_right_after_the_roll() {
        // Search for a lost game: always shut the first legal set.
        let lost = (0..1000)
            .map(|seed| play_out(seed, |_| 0))
            .find(|states| states.last().is_some_and(|s| !s.is_won()))
            .expect("some seed loses");
        let last = lost.last().unwrap();
        let before = &lost[lost.len() - 2];
        // The move before was accepted while playing; its result is already over.
        assert!(!before.is_over());
        assert_eq!(
            last.status(),
            Status {
                won: false,
                over: true
            }
        );
        assert!(!last.open().is_empty());
        assert!(addends(last.total(), last.open()).is_empty());
        // Brute force: no subset of the open tiles adds up to the roll.
        for mask in 1u16..512 {
            let s = TileSet::from_bits(mask << 1).unwrap();
            assert!(!s.is_subset(last.open()) || s.sum() != last.total());
        }
        assert!(Strike9::legal_moves(last).is_empty());
        assert!(last.legal_moves().is_empty());
        for mv in addends(last.total(), TileSet::ALL) {
            assert_eq!(Strike9::apply(last, &mv.into()), Err(MoveError::GameOver));
        }
        assert_eq!(
            Strike9::apply(last, &last.open().into()),
            Err(MoveError::GameOver)
        );
        assert_eq!(
            Strike9::apply(last, &Dice::One.into()),
            Err(MoveError::GameOver)
        );
        let text = last.to_string();
        assert!(
            text.ends_with(&format!("\nno open tiles add up to {}", last.total())),
            "{text}"
        );
        assert_eq!(u64::from(last.shut().sum()), Strike9::score(last));
    }

    #[test]
    fn a_shut_box_is_won_and_over() {
        let (seed, line) = (0..5000)
            .find_map(|seed| winning_line(&new(seed)).map(|line| (seed, line)))
            .expect("some seed can be won");
        let mut state = new(seed);
        assert!(line.len() <= 9);
        for (i, mv) in line.iter().enumerate() {
            let next = Strike9::apply(&state, &(*mv).into()).unwrap();
            if i + 1 == line.len() {
                // No roll after the box is shut: the winning roll stays shown.
                assert_eq!(next.dice(), state.dice());
            }
            state = next;
        }
        assert_eq!(
            Strike9::status(&state),
            Status {
                won: true,
                over: true
            }
        );
        assert_eq!(state.open(), TileSet::EMPTY);
        assert_eq!(state.shut(), TileSet::ALL);
        assert_eq!(Strike9::score(&state), 45);
        assert!(Strike9::legal_moves(&state).is_empty());
        assert_eq!(Strike9::apply(&state, &shut("9")), Err(MoveError::GameOver));
        assert!(state.to_string().ends_with("\nscore 45\nshut the box!"));
    }

    #[test]
    fn the_tiles_left_are_the_open_tiles_to_the_end() {
        // Through a session of the registry, as the history asks: every tile open at the start,
        // fewer by the tiles each move shuts, none when the box is shut.
        let registry = Registry::new().with::<Strike9>();
        let entry = registry.get("strike9").unwrap();
        let (seed, line) = (0..5000)
            .find_map(|seed| winning_line(&new(seed)).map(|line| (seed, line)))
            .expect("some seed can be won");
        let mut game = entry.new_session(seed).unwrap();
        assert_eq!(game.tiles_left(), Some(9));
        let mut left = 9;
        for mv in line {
            game.play_text(&mv.to_string()).unwrap();
            left -= mv.len() as u32;
            assert_eq!(game.tiles_left(), Some(left));
        }
        assert_eq!(game.tiles_left(), Some(0));
        assert!(game.status().won);
        // A lost game keeps its open tiles; a box of twelve starts with twelve.
        let lost = (0..1000)
            .map(|seed| play_out(seed, |_| 0))
            .find(|states| states.last().is_some_and(|s| !s.is_won()))
            .expect("some seed loses");
        let last = lost.last().unwrap();
        assert_eq!(Strike9::tiles_left(last), Some(last.open().len() as u32));
        assert!(Strike9::tiles_left(last) > Some(0));
        let twelve = Strike9Params {
            tiles: 12,
            ..Strike9Params::default()
        };
        let game = entry
            .with_params(&serde_json::to_value(twelve).unwrap(), 1)
            .unwrap();
        assert_eq!(game.tiles_left(), Some(12));
    }

    #[test]
    fn the_same_seed_and_moves_give_the_same_states() {
        for seed in [0, 1, 7, u64::MAX] {
            let a = play_out(seed, |moves| moves.len() / 2);
            let mut b = vec![new(seed)];
            for pair in a.windows(2) {
                let mv = pair[0].open().difference(pair[1].open());
                b.push(Strike9::apply(b.last().unwrap(), &mv.into()).unwrap());
            }
            assert_eq!(a, b);
        }
        assert_ne!(
            (0..20).map(|s| new(s).dice().to_vec()).collect::<Vec<_>>(),
            (20..40).map(|s| new(s).dice().to_vec()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn text_form() {
        let state = Strike9State::from_position(set("1+2+3+5+6+9"), [3, 4], 0).unwrap();
        assert_eq!(
            state.to_string(),
            "open  1 2 3 . 5 6 . . 9\ndice  3 + 4 = 7\nscore 19"
        );
        let lost = Strike9State::from_position(set("1+2"), [6, 6], 0).unwrap();
        assert_eq!(
            lost.to_string(),
            "open  1 2 . . . . . . .\ndice  6 + 6 = 12\nscore 42\nno open tiles add up to 12"
        );
        let won = Strike9State::from_position(TileSet::EMPTY, [1, 2], 0).unwrap();
        assert_eq!(
            won.to_string(),
            "open  . . . . . . . . .\ndice  1 + 2 = 3\nscore 45\nshut the box!"
        );
    }

    #[test]
    fn view_shows_open_tiles_dice_and_total() {
        let state = Strike9State::from_position(set("2+4+9"), [5, 6], 0).unwrap();
        let view = Value::Object(Strike9::view(&state));
        assert_eq!(
            view,
            serde_json::json!({ "open": [2, 4, 9], "dice": [5, 6], "total": 11 })
        );
    }

    #[test]
    fn from_position_checks_the_dice_and_judges_the_roll() {
        assert!(Strike9State::from_position(TileSet::ALL, [0, 3], 0).is_err());
        assert!(Strike9State::from_position(TileSet::ALL, [3, 7], 0).is_err());
        let playing = Strike9State::from_position(set("3+4"), [3, 4], 0).unwrap();
        assert_eq!(playing.status(), Status::PLAYING);
        assert_eq!(playing.legal_moves(), [shut("3+4")]);
        let stuck = Strike9State::from_position(set("3+4"), [3, 3], 0).unwrap();
        assert!(stuck.is_over() && !stuck.is_won());
    }

    #[test]
    fn params_serde_round_trip_and_refuse_unknown_options() {
        let json = serde_json::to_value(Strike9Params::default()).unwrap();
        assert_eq!(json, serde_json::json!({}));
        assert_eq!(
            serde_json::from_value::<Strike9Params>(json).unwrap(),
            Strike9Params::default()
        );
        for bad in [
            serde_json::json!({ "colour": 12 }),
            serde_json::json!({ "tiles": 300 }),
            serde_json::json!({ "one_die": "always" }),
            serde_json::json!({ "score": "Shut" }),
            serde_json::json!([12]),
            serde_json::json!(null),
            serde_json::json!(9),
        ] {
            assert!(
                serde_json::from_value::<Strike9Params>(bad.clone()).is_err(),
                "{bad}"
            );
        }
        let all = Strike9Params {
            tiles: 12,
            one_die: OneDie::LowTotal,
            score: Scoring::Digits,
        };
        let json = serde_json::json!({ "tiles": 12, "one_die": "low_total", "score": "digits" });
        assert_eq!(serde_json::to_value(all).unwrap(), json);
        assert_eq!(serde_json::from_value::<Strike9Params>(json).unwrap(), all);
        let golf = serde_json::json!({ "one_die": "high_shut", "score": "golf" });
        let read: Strike9Params = serde_json::from_value(golf.clone()).unwrap();
        assert_eq!(read.tiles, 9);
        assert_eq!(serde_json::to_value(read).unwrap(), golf);
        let never = serde_json::json!({ "one_die": "never", "score": "shut", "tiles": 9 });
        let read: Strike9Params = serde_json::from_value(never).unwrap();
        assert_eq!(read, Strike9Params::default());
        assert_eq!(serde_json::to_value(read).unwrap(), serde_json::json!({}));
        // Other boxes are read, and refused when a game starts.
        let eleven: Strike9Params =
            serde_json::from_value(serde_json::json!({ "tiles": 11 })).unwrap();
        let err = Strike9::new_game(&eleven, 1).unwrap_err();
        assert_eq!(err.0, "a box has 9, 10 or 12 tiles, not 11");
    }

    #[test]
    fn sessions_replay_save_and_load() {
        let states = play_out(5, |moves| moves.len() - 1);
        let moves: Vec<String> = states
            .windows(2)
            .map(|p| p[0].open().difference(p[1].open()).to_string())
            .collect();
        let mut session = Session::<Strike9>::with_seed(5).unwrap();
        assert_eq!(session.play_text(&moves.join(" ")), Ok(moves.len()));
        assert_eq!(session.history(), &states[..]);
        session.undo();
        let back = Session::<Strike9>::load(&session.save()).unwrap();
        assert_eq!(back.history(), session.history());

        let registry = Registry::new().with::<Strike9>();
        let mut game = registry.get("strike9").unwrap().new_session(5).unwrap();
        let json = game.state_json();
        assert_eq!(json["game"], "strike9");
        assert_eq!(json["total"], states[0].total());
        assert_eq!(json["open"], serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 9]));
        assert_eq!(
            game.legal_moves(),
            addends(states[0].total(), TileSet::ALL)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
        assert!(game.play_text("-").is_err());
    }

    fn variant(tiles: u8, one_die: OneDie, score: Scoring) -> Strike9Params {
        Strike9Params {
            tiles,
            one_die,
            score,
        }
    }

    fn illegal(state: &Strike9State, mv: &str) -> String {
        match Strike9::apply(state, &mv.parse().unwrap()) {
            Err(MoveError::Illegal(reason)) => reason,
            other => panic!("{mv}: {other:?}"),
        }
    }

    #[test]
    fn moves_read_and_write_tiles_and_dice() {
        for text in ["1d", "2d", "4+5", "9", "1+11+12", "10"] {
            let mv: Strike9Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
        }
        assert_eq!("1d".parse(), Ok(Strike9Move::Roll(Dice::One)));
        assert_eq!(" 2d ".parse(), Ok(Strike9Move::Roll(Dice::Two)));
        assert_eq!("5+4".parse(), Ok(Strike9Move::Shut(set("4+5"))));
        assert_eq!("12+10".parse::<Strike9Move>().unwrap().to_string(), "10+12");
        assert_eq!(Strike9Move::from(Dice::One).tiles(), TileSet::EMPTY);
        assert_eq!(Strike9Move::from(set("4+5")).tiles(), set("4+5"));
        for bad in ["", "3d", "d", "x", "4+", "1d+2"] {
            let err = bad.parse::<Strike9Move>().unwrap_err();
            assert!(err.reason.contains("1d or 2d"), "{bad}: {}", err.reason);
        }
        let err = "13".parse::<Strike9Move>().unwrap_err();
        assert_eq!(err.reason, "there is no tile 13: the tiles are 1 to 12");
        let err = "4+4".parse::<Strike9Move>().unwrap_err();
        assert_eq!(err.reason, "tile 4 is given twice");
    }

    #[test]
    fn scores_and_the_one_die_rules() {
        let digits = variant(12, OneDie::Never, Scoring::Digits);
        assert_eq!(digits.score_of(set("1+2+5")), 125);
        assert_eq!(digits.score_of(set("1+10")), 110);
        assert_eq!(digits.score_of(set("10+11+12")), 101_112);
        assert_eq!(digits.score_of(TileSet::first(12)), 123_456_789_101_112);
        assert_eq!(digits.score_of(TileSet::EMPTY), 0);
        let golf = variant(10, OneDie::Never, Scoring::Golf);
        assert_eq!(golf.score_of(set("1+10")), 11);
        assert_eq!(golf.score_of(TileSet::EMPTY), 0);
        let shut = variant(12, OneDie::Never, Scoring::Shut);
        assert_eq!(shut.score_of(TileSet::EMPTY), 78);
        assert_eq!(shut.score_of(set("1+12")), 65);
        assert_eq!(Strike9Params::default().score_of(set("1+2")), 42);
        // The best-score table keeps the lowest golf and digits score.
        assert!(!Strike9::lower_is_better(&Strike9Params::default()));
        assert!(!Strike9::lower_is_better(&shut));
        assert!(Strike9::lower_is_better(&golf));
        assert!(Strike9::lower_is_better(&digits));
        assert!(!Scoring::Shut.lower_is_better());
        assert!(Scoring::Golf.lower_is_better() && Scoring::Digits.lower_is_better());

        let high = variant(12, OneDie::HighShut, Scoring::Shut);
        assert!(high.one_die_allowed(set("1+2+3+4+5+6")));
        assert!(!high.one_die_allowed(set("1+7")));
        assert!(!high.one_die_allowed(set("6+12")));
        assert!(!high.one_die_allowed(TileSet::EMPTY));
        let low = variant(9, OneDie::LowTotal, Scoring::Shut);
        assert!(low.one_die_allowed(set("1+5")));
        assert!(low.one_die_allowed(set("6")));
        assert!(!low.one_die_allowed(set("1+6")));
        assert!(!low.one_die_allowed(TileSet::EMPTY));
        let never = Strike9Params::default();
        assert!(!never.one_die_allowed(set("1")));
    }

    #[test]
    fn every_combination_is_listed_once_the_default_first_and_each_is_valid() {
        let all: Vec<Strike9Params> = Strike9Params::every().collect();
        assert_eq!(
            all.len(),
            Strike9Params::BOXES.len() * OneDie::ALL.len() * Scoring::ALL.len()
        );
        assert_eq!(all[0], Strike9Params::default());
        for (i, p) in all.iter().enumerate() {
            assert!(!all[..i].contains(p), "{p:?} twice");
            assert!(Strike9::new_game(p, 1).is_ok(), "{p:?}");
        }
    }

    #[test]
    fn a_variant_starts_with_its_full_box_and_the_same_first_roll() {
        for tiles in Strike9Params::BOXES {
            for one_die in OneDie::ALL {
                let params = variant(tiles, one_die, Scoring::Golf);
                for seed in 0..10 {
                    let state = Strike9::new_game(&params, seed).unwrap();
                    assert_eq!(state.open(), TileSet::first(tiles));
                    assert_eq!(state.shut(), TileSet::EMPTY);
                    assert_eq!(state.dice(), new(seed).dice());
                    assert_eq!(state.params(), &params);
                    assert_eq!(
                        Strike9::score(&state),
                        u64::from(TileSet::first(tiles).sum())
                    );
                }
            }
        }
        for bad in [0, 8, 11, 13] {
            let params = variant(bad, OneDie::Never, Scoring::Shut);
            assert!(Strike9::new_game(&params, 1).is_err());
        }
    }

    #[test]
    fn the_dice_are_chosen_before_the_roll_where_one_die_is_allowed() {
        let params = variant(9, OneDie::HighShut, Scoring::Golf);
        let seed = 11;
        let pending = Strike9State::from_position_with(&params, set("1+2+3"), &[], seed).unwrap();
        assert!(pending.choosing_dice());
        assert_eq!(pending.status(), Status::PLAYING);
        assert_eq!(pending.dice(), &[] as &[u8]);
        assert_eq!(pending.total(), 0);
        assert_eq!(
            Strike9::legal_moves(&pending),
            [Strike9Move::Roll(Dice::One), Strike9Move::Roll(Dice::Two)]
        );
        assert_eq!(
            Value::Object(Strike9::view(&pending)),
            serde_json::json!({ "open": [1, 2, 3], "dice": [], "total": 0 })
        );
        assert_eq!(
            pending.to_string(),
            "open  1 2 3 . . . . . .\ndice  to choose: 1d (one die) or 2d (two dice)\nscore 6, lower is better"
        );
        assert_eq!(
            illegal(&pending, "1+2"),
            "roll first: choose 1d (one die) or 2d (two dice)"
        );

        let one = Strike9::apply(&pending, &Dice::One.into()).unwrap();
        let mut rng = GameRng::from_seed(seed);
        let first = rng.below(6) + 1;
        assert_eq!(one.dice(), &[first as u8]);
        assert_eq!(one.total(), first);
        assert!(!one.choosing_dice());
        assert!(one.to_string().contains(&format!("\ndie   {first}\n")));
        assert_eq!(
            illegal(&one, "2d"),
            format!("the dice are rolled: shut open tiles that add up to {first}")
        );
        let two = Strike9::apply(&pending, &Dice::Two.into()).unwrap();
        assert_eq!(two.dice(), draw(&mut GameRng::from_seed(seed)));
        assert_eq!(
            Value::Object(Strike9::view(&two))["dice"],
            serde_json::json!(two.dice())
        );

        // A move that leaves a box where one die is allowed hands the choice back.
        let rolled = Strike9State::from_position_with(&params, set("1+2+3+9"), &[4, 5], 3).unwrap();
        let after = Strike9::apply(&rolled, &shut("9")).unwrap();
        assert!(after.choosing_dice());
        assert_eq!(after.open(), set("1+2+3"));
        assert_eq!(Strike9::score(&after), 6);
        // ... and one where it is not rolls two dice at once, from the same stream.
        let rolled = Strike9State::from_position_with(&params, set("1+2+3+9"), &[2, 2], 3).unwrap();
        let after = Strike9::apply(&rolled, &shut("1+3")).unwrap();
        assert_eq!(after.dice(), draw(&mut GameRng::from_seed(3)));
        let low = variant(9, OneDie::LowTotal, Scoring::Shut);
        let rolled = Strike9State::from_position_with(&low, set("1+2+7"), &[3, 4], 3).unwrap();
        assert!(!rolled.choosing_dice());
        let after = Strike9::apply(&rolled, &shut("7")).unwrap();
        assert!(after.choosing_dice());
        assert_eq!(illegal(&rolled, "1+2"), "1+2 sums to 3, the roll is 7");
    }

    #[test]
    fn one_die_that_shuts_the_box_stays_shown_and_one_that_misses_loses() {
        let params = variant(10, OneDie::LowTotal, Scoring::Digits);
        let one = Strike9State::from_position_with(&params, set("4"), &[4], 0).unwrap();
        let won = Strike9::apply(&one, &shut("4")).unwrap();
        assert!(won.is_won());
        assert_eq!(won.dice(), &[4]);
        assert_eq!(Strike9::score(&won), 0);
        assert!(
            won.to_string()
                .ends_with("\ndie   4\nscore 0, lower is better\nshut the box!")
        );
        let lost = Strike9State::from_position_with(&params, set("1+5"), &[3], 0).unwrap();
        assert!(lost.is_over() && !lost.is_won());
        assert_eq!(Strike9::score(&lost), 15);
        assert!(lost.to_string().ends_with("\nno open tiles add up to 3"));
        assert!(Strike9::legal_moves(&lost).is_empty());
        assert_eq!(
            Strike9::apply(&lost, &Dice::One.into()),
            Err(MoveError::GameOver)
        );
    }

    #[test]
    fn positions_by_hand_are_checked() {
        let low = variant(9, OneDie::LowTotal, Scoring::Shut);
        let err = |p: &Strike9Params, open: &str, dice: &[u8]| {
            Strike9State::from_position_with(p, set(open), dice, 0)
                .unwrap_err()
                .0
        };
        assert_eq!(
            err(&variant(11, OneDie::Never, Scoring::Shut), "1", &[1, 2]),
            "a box has 9, 10 or 12 tiles, not 11"
        );
        assert_eq!(
            err(&low, "1+10", &[1, 2]),
            "10 is not in a box of tiles 1 to 9"
        );
        assert_eq!(err(&low, "1", &[1, 7]), "a die shows 1 to 6, not 7");
        assert_eq!(
            err(&low, "1+9", &[]),
            "the dice must be rolled here: one die is not allowed with 1 and 9 open"
        );
        assert_eq!(
            err(&low, "1+9", &[3]),
            "two dice are rolled here: one die is not allowed with 1 and 9 open"
        );
        assert_eq!(err(&low, "1", &[1, 2, 3]), "3 dice: one or two");
        assert_eq!(
            err(&Strike9Params::default(), "1", &[]),
            "the dice must be rolled here: one die is not allowed with 1 open"
        );
        assert!(Strike9State::from_position_with(&low, set("1+5"), &[], 0).is_ok());
        assert!(Strike9State::from_position_with(&low, set("1+5"), &[2], 0).is_ok());
        assert!(Strike9State::from_position_with(&low, set("1+5"), &[2, 4], 0).is_ok());
        assert!(Strike9State::from_position_with(&low, TileSet::EMPTY, &[2], 0).is_ok());
        assert!(Strike9State::from_position(set("10"), [1, 2], 0).is_err());
    }

    #[test]
    fn bigger_boxes_print_two_digit_tiles_and_refuse_tiles_they_lack() {
        let params = variant(12, OneDie::Never, Scoring::Shut);
        let state =
            Strike9State::from_position_with(&params, set("1+2+10+12"), &[5, 6], 0).unwrap();
        assert_eq!(
            state.to_string(),
            "open  1 2 . . . . . . . 10  . 12\ndice  5 + 6 = 11\nscore 53"
        );
        let digits = variant(12, OneDie::Never, Scoring::Digits);
        let state =
            Strike9State::from_position_with(&digits, set("1+2+10+12"), &[5, 6], 0).unwrap();
        assert!(
            state
                .to_string()
                .ends_with("\nscore 121012, lower is better")
        );
        assert_eq!(state.legal_moves(), [shut("1+10")]);
        let ten = variant(10, OneDie::Never, Scoring::Shut);
        let state = Strike9State::from_position_with(&ten, set("1+10"), &[5, 6], 0).unwrap();
        assert_eq!(
            illegal(&state, "11"),
            "there is no tile 11: the tiles are 1 to 10"
        );
        assert_eq!(illegal(&state, "10"), "tile 10 makes 10, the roll is 11");
        assert!(Strike9::apply(&state, &shut("1+10")).unwrap().is_won());
    }

    proptest! {
        #[test]
        fn move_texts_round_trip_and_reading_never_panics(
            mask in 1u16..4096,
            one in any::<bool>(),
            text in "\\PC{0,20}",
        ) {
            let tiles = Strike9Move::Shut(TileSet::from_bits(mask << 1).unwrap());
            prop_assert_eq!(tiles.to_string().parse::<Strike9Move>(), Ok(tiles));
            let dice = Strike9Move::Roll(if one { Dice::One } else { Dice::Two });
            prop_assert_eq!(dice.to_string().parse::<Strike9Move>(), Ok(dice));
            let _ = text.parse::<Strike9Move>();
        }
    }

    proptest! {
        #[test]
        fn random_play_keeps_every_invariant_and_ends_within_nine_moves(
            seed in any::<u64>(),
            choices in proptest::collection::vec(any::<usize>(), 9),
        ) {
            let mut state = new(seed);
            let mut played = 0;
            for choice in choices {
                prop_assert!((1..=6).contains(&state.dice()[0]));
                prop_assert!((1..=6).contains(&state.dice()[1]));
                prop_assert_eq!(state.total(), u32::from(state.dice()[0] + state.dice()[1]));
                prop_assert_eq!(state.open().union(state.shut()), TileSet::ALL);
                prop_assert!(state.open().intersection(state.shut()).is_empty());
                prop_assert_eq!(Strike9::score(&state), u64::from(state.shut().sum()));
                prop_assert_eq!(Strike9::score(&state), u64::from(45 - state.open().sum()));
                prop_assert_eq!(state.is_won(), state.open().is_empty());
                let moves = shuts(&state);
                prop_assert_eq!(state.is_over(), moves.is_empty());
                if state.is_over() {
                    prop_assert!(state.is_won() || addends(state.total(), state.open()).is_empty());
                    break;
                }
                prop_assert_eq!(&moves, &addends(state.total(), state.open()));
                let mv = moves[choice % moves.len()];
                let next = Strike9::apply(&state, &mv.into()).unwrap();
                prop_assert_eq!(next.open(), state.open().difference(mv));
                state = next;
                played += 1;
            }
            prop_assert!(state.is_over(), "not over after {} moves", played);
            prop_assert!(played <= 9);
            prop_assert!((1..=6).contains(&state.dice()[0]));
            prop_assert!((1..=6).contains(&state.dice()[1]));
        }
    }
}
