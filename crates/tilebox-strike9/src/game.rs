//! The game: [`Strike9`], its parameters and its state, and the [`Puzzle`] rules between them.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tilebox_core::{GameInfo, GameRng, MoveError, ParamsError, Puzzle, Status};

use crate::{TileSet, addends};

/// Strike 9: Shut the Box with nine tiles and two dice.
///
/// Tiles 1 to 9 start open and two dice are rolled. A move shuts open tiles that add up to the
/// roll, then the dice roll again. Shutting every tile wins; a roll that no set of open tiles
/// adds up to ends the game at once. The score is the sum of the shut tiles, 0 to 45.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strike9;

/// How a game of Strike 9 is set up. There are no options yet; the variants of Shut the Box
/// (one die late in the game, 10 or 12 tiles, golf scoring) would go here.
///
/// Unknown fields are refused, so that a save made with a variant this build does not know is
/// not replayed under the wrong rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strike9Params {}

/// A game of Strike 9 at one moment: the open tiles, the current roll and the dice's random
/// stream.
///
/// The roll stays shown after the game ends: the one that could not be made, or the one the box
/// was shut with.
#[derive(Debug, Clone, PartialEq)]
pub struct Strike9State {
    open: TileSet,
    dice: [u8; 2],
    /// Decided when the state is made (by the enumerator), never changed after.
    status: Status,
    rng: GameRng,
}

impl Strike9State {
    /// A position made by hand: these open tiles and this roll, with the dice to come drawn
    /// from `seed`. For tests, puzzles and tutorials; a normal game starts with
    /// [`Puzzle::new_game`]. Whether the game is over is decided here, as after any roll.
    ///
    /// Fails when a die is not 1 to 6.
    pub fn from_position(open: TileSet, dice: [u8; 2], seed: u64) -> Result<Self, ParamsError> {
        if let Some(die) = dice.iter().find(|d| !(1..=6).contains(*d)) {
            return Err(ParamsError(format!("a die shows 1 to 6, not {die}")));
        }
        Ok(Self::judged(open, dice, GameRng::from_seed(seed)))
    }

    /// The state with these tiles open after this roll, its status decided.
    fn judged(open: TileSet, dice: [u8; 2], rng: GameRng) -> Self {
        let total = u32::from(dice[0]) + u32::from(dice[1]);
        let status = if open.is_empty() {
            Status {
                won: true,
                over: true,
            }
        } else if addends(total, open).is_empty() {
            Status {
                won: false,
                over: true,
            }
        } else {
            Status::PLAYING
        };
        Self {
            open,
            dice,
            status,
            rng,
        }
    }

    /// The tiles still open.
    pub fn open(&self) -> TileSet {
        self.open
    }

    /// The tiles shut so far.
    pub fn shut(&self) -> TileSet {
        self.open.complement()
    }

    /// The two dice of the current roll, each 1 to 6.
    pub fn dice(&self) -> [u8; 2] {
        self.dice
    }

    /// The current roll: the sum of the dice, 2 to 12.
    pub fn total(&self) -> u32 {
        self.dice.iter().copied().map(u32::from).sum()
    }

    /// The score: the sum of the shut tiles, 0 to 45.
    pub fn score(&self) -> u32 {
        self.shut().sum()
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

    /// The moves for the current roll (see [`addends`]); empty when the game is over.
    pub fn legal_moves(&self) -> Vec<TileSet> {
        if self.status.over {
            Vec::new()
        } else {
            addends(self.total(), self.open)
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
/// with a last line `shut the box!` or `no open tiles add up to 7` once the game has ended.
impl fmt::Display for Strike9State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("open ")?;
        for tile in 1..=9u8 {
            if self.open.contains(tile) {
                write!(f, " {tile}")?;
            } else {
                f.write_str(" .")?;
            }
        }
        let [a, b] = self.dice;
        write!(f, "\ndice  {a} + {b} = {}", self.total())?;
        write!(f, "\nscore {}", self.score())?;
        if self.status.won {
            f.write_str("\nshut the box!")?;
        } else if self.status.over {
            write!(f, "\nno open tiles add up to {}", self.total())?;
        }
        Ok(())
    }
}

/// Rolls two dice.
fn roll(rng: &mut GameRng) -> [u8; 2] {
    let mut die = || u8::try_from(rng.below(6) + 1).unwrap_or(1);
    let first = die();
    [first, die()]
}

/// "4", "4 and 9", "4, 6 and 9".
fn list_tiles(set: TileSet) -> String {
    let tiles: Vec<String> = set.tiles().map(|t| t.to_string()).collect();
    match tiles.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => tiles.join(""),
    }
}

impl Puzzle for Strike9 {
    type Params = Strike9Params;
    type State = Strike9State;
    type Move = TileSet;

    const INFO: GameInfo = GameInfo {
        id: "strike9",
        title: "Strike 9",
        description: "Shut the Box with nine tiles and two dice: shut tiles that add up to each roll.",
    };

    fn new_game(_params: &Strike9Params, seed: u64) -> Result<Strike9State, ParamsError> {
        let mut rng = GameRng::from_seed(seed);
        let dice = roll(&mut rng);
        Ok(Strike9State::judged(TileSet::ALL, dice, rng))
    }

    fn apply(state: &Strike9State, mv: &TileSet) -> Result<Strike9State, MoveError> {
        if state.status.over {
            return Err(MoveError::GameOver);
        }
        let total = state.total();
        if mv.is_empty() {
            return Err(MoveError::Illegal(format!(
                "no tiles chosen: shut open tiles that add up to {total}"
            )));
        }
        let already_shut = mv.difference(state.open);
        if !already_shut.is_empty() {
            let (tiles, verb) = if already_shut.len() == 1 {
                ("tile", "is")
            } else {
                ("tiles", "are")
            };
            return Err(MoveError::Illegal(format!(
                "{tiles} {} {verb} already shut",
                list_tiles(already_shut)
            )));
        }
        let sum = mv.sum();
        if sum != total {
            return Err(MoveError::Illegal(if mv.len() == 1 {
                format!("tile {mv} makes {sum}, the roll is {total}")
            } else {
                format!("{mv} sums to {sum}, the roll is {total}")
            }));
        }
        let open = state.open.difference(*mv);
        let mut rng = state.rng.clone();
        // A shut box is won: no roll follows, and the winning roll stays shown.
        let dice = if open.is_empty() {
            state.dice
        } else {
            roll(&mut rng)
        };
        Ok(Strike9State::judged(open, dice, rng))
    }

    fn status(state: &Strike9State) -> Status {
        state.status
    }

    fn score(state: &Strike9State) -> u64 {
        state.score().into()
    }

    fn legal_moves(state: &Strike9State) -> Vec<TileSet> {
        state.legal_moves()
    }

    fn view(state: &Strike9State) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert(
            "open".into(),
            Value::Array(state.open.tiles().map(Value::from).collect()),
        );
        map.insert(
            "dice".into(),
            Value::Array(state.dice.iter().copied().map(Value::from).collect()),
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

    fn new(seed: u64) -> Strike9State {
        Strike9::new_game(&Strike9Params::default(), seed).unwrap()
    }

    /// Plays until the game ends, choosing with `choose` among the legal moves; returns every
    /// state from the start.
    fn play_out(seed: u64, mut choose: impl FnMut(&[TileSet]) -> usize) -> Vec<Strike9State> {
        let mut states = vec![new(seed)];
        while let Some(state) = states.last().filter(|s| !s.is_over()) {
            let moves = Strike9::legal_moves(state);
            let mv = moves[choose(&moves) % moves.len()];
            let next = Strike9::apply(state, &mv).unwrap();
            states.push(next);
        }
        states
    }

    /// The moves that shut the box from `state`, if any: a depth-first search over every choice.
    fn winning_line(state: &Strike9State) -> Option<Vec<TileSet>> {
        if state.is_won() {
            return Some(Vec::new());
        }
        for mv in Strike9::legal_moves(state) {
            let next = Strike9::apply(state, &mv).unwrap();
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
            assert_eq!(
                Strike9::legal_moves(&state),
                addends(state.total(), TileSet::ALL)
            );
        }
    }

    #[test]
    fn a_legal_move_shuts_its_tiles_and_rolls_again() {
        let seed = 42;
        let mut rng = GameRng::from_seed(seed);
        let start = new(seed);
        assert_eq!(start.dice(), draw(&mut rng));
        for mv in Strike9::legal_moves(&start) {
            let next = Strike9::apply(&start, &mv).unwrap();
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
        let refused = |mv: &str| match Strike9::apply(&state, &set(mv)) {
            Err(MoveError::Illegal(reason)) => reason,
            other => panic!("{mv}: {other:?}"),
        };
        assert_eq!(refused("9"), "tile 9 is already shut");
        assert_eq!(refused("9+8"), "tile 9 is already shut");
        let state2 = Strike9State::from_position(set("1+2+3"), [2, 4], 1).unwrap();
        assert_eq!(
            Strike9::apply(&state2, &set("4+5+7")),
            Err(MoveError::Illegal(
                "tiles 4, 5 and 7 are already shut".into()
            ))
        );
        assert_eq!(
            Strike9::apply(&state2, &set("3+4")),
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
            assert!(Strike9::apply(&state, &set(mv)).is_ok(), "{mv}");
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
            assert_eq!(Strike9::apply(last, &mv), Err(MoveError::GameOver));
        }
        assert_eq!(Strike9::apply(last, &last.open()), Err(MoveError::GameOver));
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
            let next = Strike9::apply(&state, mv).unwrap();
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
        assert_eq!(Strike9::apply(&state, &set("9")), Err(MoveError::GameOver));
        assert!(state.to_string().ends_with("\nscore 45\nshut the box!"));
    }

    #[test]
    fn the_same_seed_and_moves_give_the_same_states() {
        for seed in [0, 1, 7, u64::MAX] {
            let a = play_out(seed, |moves| moves.len() / 2);
            let mut b = vec![new(seed)];
            for pair in a.windows(2) {
                let mv = pair[0].open().difference(pair[1].open());
                b.push(Strike9::apply(b.last().unwrap(), &mv).unwrap());
            }
            assert_eq!(a, b);
        }
        assert_ne!(
            (0..20).map(|s| new(s).dice()).collect::<Vec<_>>(),
            (20..40).map(|s| new(s).dice()).collect::<Vec<_>>()
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
        assert_eq!(playing.legal_moves(), [set("3+4")]);
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
        assert!(
            serde_json::from_value::<Strike9Params>(serde_json::json!({ "tiles": 12 })).is_err()
        );
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
                let moves = Strike9::legal_moves(&state);
                prop_assert_eq!(state.is_over(), moves.is_empty());
                if state.is_over() {
                    prop_assert!(state.is_won() || addends(state.total(), state.open()).is_empty());
                    break;
                }
                prop_assert_eq!(&moves, &addends(state.total(), state.open()));
                let mv = moves[choice % moves.len()];
                let next = Strike9::apply(&state, &mv).unwrap();
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
