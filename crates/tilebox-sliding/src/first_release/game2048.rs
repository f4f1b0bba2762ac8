//! 2048 (gabrielecirulli/2048): compact-and-merge slides, a 2 or a 4 after every move, a win at
//! 2048 that lets play go on.

use std::fmt;

use serde_json::{Map, Value};
use tilebox_core::{GameInfo, GameRng, MoveError, ParamsError, Puzzle, Status};

use serde::{Deserialize, Serialize};

use super::{RuleSet, SlidingGame, SlidingParams};
use crate::{Board, Cell, Direction, Rank};

const RULES: RuleSet = RuleSet::Twenty48;

/// The rank of the winning tile of the original, 2048 = 2^11.
#[cfg(test)]
const WIN_RANK: Rank = 11;

/// The rank of the lowest winning tile, 8: a 4 can spawn, so only a merge makes an 8.
const MIN_WIN_RANK: Rank = 3;

/// The winning tile of the original game.
pub const STANDARD_WIN: u64 = 2048;

/// The game 2048.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game2048;

/// How a game of 2048 is set up: the board's side and the tile that wins. Its JSON form is
/// `{"side": 4}`, with `"win"` when it is not 2048 (`{"side": 3, "win": 512}`), so saves of
/// the standard game read as they always have. A missing `side` is 4, a missing `win` 2048;
/// unknown fields are refused (see [`SlidingParams`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Game2048Params {
    /// Rows and columns of the board, 2 to 8; 4 is the original game.
    pub side: usize,
    /// The tile whose making wins: a power of two from 8 to 2^57 (not 4, which a spawn can put
    /// on the board without a merge). The win is announced once and the game goes on.
    #[serde(skip_serializing_if = "is_standard_win")]
    pub win: u64,
}

fn is_standard_win(win: &u64) -> bool {
    *win == STANDARD_WIN
}

impl Default for Game2048Params {
    fn default() -> Self {
        Self {
            side: SlidingParams::default().side,
            win: STANDARD_WIN,
        }
    }
}

impl Game2048Params {
    /// The original game on a board of this side.
    pub fn with_side(side: usize) -> Self {
        Self {
            side,
            ..Self::default()
        }
    }

    /// The rank of the winning tile, or the parameter error to report.
    fn win_rank(&self) -> Result<Rank, ParamsError> {
        match RULES.rank_of(self.win) {
            Some(rank) if rank >= MIN_WIN_RANK => Ok(rank),
            _ => Err(ParamsError(format!(
                "the winning tile {} is not a power of two from 8 to 2^57",
                self.win
            ))),
        }
    }
}

/// A game of 2048 at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Game2048State {
    board: Board,
    score: u64,
    won: bool,
    win_rank: Rank,
    last_spawn: Option<Cell>,
    rng: GameRng,
}

impl Game2048State {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The score: the sum of every tile made by a merge so far (saturating).
    pub fn score(&self) -> u64 {
        self.score
    }

    /// Whether the winning tile (2048 in the original) has been made. Stays true once it is.
    pub fn won(&self) -> bool {
        self.won
    }

    /// The cell of the tile added after the last move; `None` at the start of a game.
    pub fn last_spawn(&self) -> Option<Cell> {
        self.last_spawn
    }

    /// A state holding `board`, for tests that need a position no seed is known to reach.
    #[cfg(test)]
    pub(crate) fn from_board(board: Board, seed: u64) -> Self {
        Self {
            won: board.max_rank() >= WIN_RANK,
            win_rank: WIN_RANK,
            board,
            score: 0,
            last_spawn: None,
            rng: GameRng::from_seed(seed),
        }
    }
}

impl fmt::Display for Game2048State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "score {}", self.score)?;
        write!(f, "{}", RULES.grid(&self.board))
    }
}

/// Adds a tile to a random empty cell: 2 with probability 0.9, 4 otherwise. Draws the value
/// before the cell, in the original's order (`game_manager.js`, `addRandomTile`). Returns the
/// cell, or `None` when the board is full.
fn spawn(board: &mut Board, rng: &mut GameRng) -> Option<Cell> {
    let empty: Vec<Cell> = board.empty_cells().collect();
    if empty.is_empty() {
        return None;
    }
    let rank = if rng.chance(9, 10) { 1 } else { 2 };
    let cell = *empty.get(rng.index(empty.len()))?;
    board.set(cell, rank);
    Some(cell)
}

impl Puzzle for Game2048 {
    type Params = Game2048Params;
    type State = Game2048State;
    type Move = Direction;

    const INFO: GameInfo = GameInfo {
        id: RULES.id(),
        title: "2048",
        description: "Slide the tiles and merge equal pairs to make a 2048 tile.",
    };

    fn new_game(params: &Game2048Params, seed: u64) -> Result<Game2048State, ParamsError> {
        let mut board = super::start_board(params.side)?;
        let win_rank = params.win_rank()?;
        let mut rng = GameRng::from_seed(seed);
        spawn(&mut board, &mut rng);
        spawn(&mut board, &mut rng);
        Ok(Game2048State {
            board,
            score: 0,
            won: false,
            win_rank,
            last_spawn: None,
            rng,
        })
    }

    fn apply(state: &Game2048State, mv: &Direction) -> Result<Game2048State, MoveError> {
        let slide = RULES.slide(&state.board, *mv);
        if !slide.moved {
            return Err(super::refusal(RULES, &state.board));
        }
        let mut next = state.clone();
        next.board = slide.board;
        next.score = state.score.saturating_add(slide.gained);
        next.won = state.won || next.board.max_rank() >= state.win_rank;
        // A slide that moved frees a cell (a merge) or keeps the count of empty cells (a tile
        // moved into a gap), so there is always room.
        next.last_spawn = spawn(&mut next.board, &mut next.rng);
        Ok(next)
    }

    fn status(state: &Game2048State) -> Status {
        Status {
            won: state.won,
            over: !RULES.can_move(&state.board),
        }
    }

    fn score(state: &Game2048State) -> u64 {
        state.score
    }

    fn legal_moves(state: &Game2048State) -> Vec<Direction> {
        RULES.moving_directions(&state.board).collect()
    }

    fn view(state: &Game2048State) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("board".into(), super::board_view(RULES, &state.board));
        map
    }

    fn top_tile(state: &Game2048State) -> Option<u64> {
        Some(RULES.value(state.board.max_rank()))
    }

    fn split_moves(text: &str) -> Vec<&str> {
        crate::direction::split_moves(text)
    }
}

impl SlidingGame for Game2048 {
    const RULES: RuleSet = RULES;

    fn board(state: &Game2048State) -> &Board {
        &state.board
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tilebox_core::Session;

    use super::super::test_util::boards;
    use super::*;

    fn board(rows: &[&[u64]]) -> Board {
        super::super::test_util::board(RULES, rows)
    }

    fn new(side: usize, seed: u64) -> Game2048State {
        Game2048::new_game(&Game2048Params::with_side(side), seed).unwrap()
    }

    /// Checks that `after` is `slid` plus exactly one 2 or 4 in a cell empty in `slid`, at
    /// `after.last_spawn()`.
    fn assert_one_spawn(slid: &Board, after: &Game2048State) {
        let cell = after.last_spawn().unwrap();
        assert_eq!(slid.rank(cell), 0);
        assert!(matches!(after.board().rank(cell), 1 | 2));
        let mut without = after.board().clone();
        without.set(cell, 0);
        assert_eq!(&without, slid);
    }

    #[test]
    fn a_new_game_has_two_tiles_of_2_or_4() {
        for side in 2..=8 {
            for seed in 0..20 {
                let s = new(side, seed);
                assert_eq!(s.board().side(), side);
                assert_eq!(s.board().tile_count(), 2);
                assert!(s.board().max_rank() <= 2);
                assert_eq!(s.score(), 0);
                assert!(!s.won());
                assert_eq!(Game2048::status(&s), Status::PLAYING);
            }
        }
    }

    #[test]
    fn params_default_to_four_and_refuse_bad_sides() {
        assert_eq!(Game2048Params::default().side, 4);
        let p: Game2048Params = serde_json::from_str("{}").unwrap();
        assert_eq!(p, Game2048Params::default());
        let p: Game2048Params = serde_json::from_str(r#"{"side": 6}"#).unwrap();
        assert_eq!(p.side, 6);
        for side in [0, 1, 9, 100] {
            let err = Game2048::new_game(&Game2048Params::with_side(side), 1).unwrap_err();
            assert!(err.to_string().contains(&side.to_string()), "{err}");
        }
    }

    #[test]
    fn the_winning_tile_is_a_param_written_only_when_it_is_not_2048() {
        let standard = Game2048Params::default();
        assert_eq!(standard.win, 2048);
        assert_eq!(
            serde_json::to_value(&standard).unwrap(),
            serde_json::json!({ "side": 4 })
        );
        let small = Game2048Params { side: 3, win: 512 };
        let json = serde_json::to_value(&small).unwrap();
        assert_eq!(json, serde_json::json!({ "side": 3, "win": 512 }));
        assert_eq!(
            serde_json::from_value::<Game2048Params>(json).unwrap(),
            small
        );
        for win in [0, 2, 3, 4, 100, 1 << 58] {
            let params = Game2048Params { side: 4, win };
            let err = Game2048::new_game(&params, 1).unwrap_err();
            assert!(err.to_string().contains(&win.to_string()), "{err}");
        }
    }

    #[test]
    fn a_game_to_512_is_won_by_making_512_and_not_before() {
        let params = Game2048Params { side: 2, win: 512 };
        let mut state = Game2048::new_game(&params, 1).unwrap();
        state.board = board(&[&[128, 128], &[0, 0]]);
        let after = Game2048::apply(&state, &Direction::Left).unwrap();
        assert!(!after.won(), "256 does not win");
        let mut state = after;
        state.board = board(&[&[256, 256], &[0, 0]]);
        let after = Game2048::apply(&state, &Direction::Left).unwrap();
        assert!(after.won() && Game2048::status(&after).won);
        assert_eq!(Game2048::top_tile(&after), Some(512));
    }

    #[test]
    fn a_move_slides_scores_and_spawns_one_tile() {
        let start = Game2048State::from_board(
            board(&[&[2, 2, 2, 2], &[4, 4, 8, 0], &[2, 0, 2, 4], &[2, 2, 2, 0]]),
            3,
        );
        let after = Game2048::apply(&start, &Direction::Left).unwrap();
        let slid = board(&[&[4, 4, 0, 0], &[8, 8, 0, 0], &[4, 4, 0, 0], &[4, 2, 0, 0]]);
        assert_one_spawn(&slid, &after);
        assert_eq!(after.score(), 8 + 8 + 4 + 4);
        assert_eq!(Game2048::score(&after), after.score());

        // The same rows as columns, swiped up.
        let start = Game2048State::from_board(
            board(&[&[2, 4, 2, 2], &[2, 4, 0, 2], &[2, 8, 2, 2], &[2, 0, 4, 0]]),
            3,
        );
        let after = Game2048::apply(&start, &Direction::Up).unwrap();
        let slid = board(&[&[4, 8, 4, 4], &[4, 8, 4, 2], &[0, 0, 0, 0], &[0, 0, 0, 0]]);
        assert_one_spawn(&slid, &after);
        assert_eq!(after.score(), 24);
    }

    #[test]
    fn making_2048_wins_once_and_play_goes_on() {
        let start = Game2048State::from_board(board(&[&[1024, 1024], &[0, 0]]), 1);
        assert!(!start.won());
        let after = Game2048::apply(&start, &Direction::Right).unwrap();
        assert!(after.won());
        assert_eq!(after.board().rank(Cell::new(0, 1)), WIN_RANK);
        assert_eq!(after.score(), 2048);
        let status = Game2048::status(&after);
        assert!(status.won && !status.over);
        let later = Game2048::apply(&after, &Direction::Down).unwrap();
        assert!(later.won() && Game2048::status(&later).won);
    }

    #[test]
    fn a_move_that_changes_nothing_is_refused_and_spawns_nothing() {
        let start = Game2048State::from_board(board(&[&[2, 4], &[0, 0]]), 1);
        assert_eq!(
            Game2048::apply(&start, &Direction::Up),
            Err(MoveError::NoEffect)
        );
        assert_eq!(
            Game2048::apply(&start, &Direction::Left),
            Err(MoveError::NoEffect)
        );
        assert_eq!(
            Game2048::apply(&start, &Direction::Right),
            Err(MoveError::NoEffect)
        );
        assert!(Game2048::apply(&start, &Direction::Down).is_ok());
        assert_eq!(Game2048::legal_moves(&start), [Direction::Down]);
    }

    #[test]
    fn the_game_ends_when_no_move_changes_the_board() {
        let stuck = Game2048State::from_board(board(&[&[2, 4], &[4, 2]]), 1);
        assert!(Game2048::legal_moves(&stuck).is_empty());
        assert_eq!(
            Game2048::status(&stuck),
            Status {
                won: false,
                over: true
            }
        );
        for dir in Direction::ALL {
            assert_eq!(Game2048::apply(&stuck, &dir), Err(MoveError::GameOver));
        }
        // A full board with one pair is not over.
        let full = Game2048State::from_board(board(&[&[2, 4], &[4, 4]]), 1);
        assert!(!Game2048::status(&full).over);
        // Won and over together.
        let done = Game2048State::from_board(board(&[&[2048, 4], &[4, 2]]), 1);
        assert_eq!(
            Game2048::status(&done),
            Status {
                won: true,
                over: true
            }
        );
    }

    #[test]
    fn fours_are_about_one_spawn_in_ten() {
        let mut fours = 0;
        let mut spawns = 0;
        for seed in 0..2000 {
            let s = new(4, seed);
            for (_, rank) in s.board().cells_with_ranks() {
                match rank {
                    0 => {}
                    2 => {
                        fours += 1;
                        spawns += 1;
                    }
                    _ => spawns += 1,
                }
            }
        }
        assert_eq!(spawns, 4000);
        // Expected 400, standard deviation about 19.
        assert!((320..480).contains(&fours), "{fours} fours in {spawns}");
    }

    #[test]
    fn spawned_cells_are_spread_over_the_empty_cells() {
        // From a board with one tile, the spawn may land on any of the 15 other cells.
        let start = Game2048State::from_board(
            board(&[&[0, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 2]]),
            0,
        );
        let mut hits = [0u32; 16];
        for seed in 0..3000 {
            let s = Game2048State {
                rng: GameRng::from_seed(seed),
                ..start.clone()
            };
            let after = Game2048::apply(&s, &Direction::Left).unwrap();
            let c = after.last_spawn().unwrap();
            hits[c.row * 4 + c.col] += 1;
        }
        assert_eq!(hits[12], 0, "the slid tile's cell is taken");
        for (i, &n) in hits.iter().enumerate().filter(|&(i, _)| i != 12) {
            assert!((120..280).contains(&n), "cell {i}: {n}");
        }
    }

    #[test]
    fn text_and_view() {
        let mut s = Game2048State::from_board(
            board(&[
                &[2, 0, 0, 4],
                &[0, 16, 0, 0],
                &[0, 0, 2048, 0],
                &[0, 0, 0, 0],
            ]),
            1,
        );
        s.score = 16;
        assert_eq!(
            s.to_string(),
            "score 16\n   2    .    .    4\n   .   16    .    .\n   .    . 2048    .\n   .    .    .    .\n"
        );
        let view = Game2048::view(&s);
        assert_eq!(view.len(), 1);
        assert_eq!(
            view["board"],
            serde_json::json!([[2, 0, 0, 4], [0, 16, 0, 0], [0, 0, 2048, 0], [0, 0, 0, 0]])
        );
    }

    #[test]
    fn sessions_read_packed_and_spaced_moves() {
        let mut a = Session::<Game2048>::with_seed(7).unwrap();
        let mut b = Session::<Game2048>::with_seed(7).unwrap();
        a.play_text("LLur").unwrap();
        b.play_text("L L U R").unwrap();
        assert_eq!(a.history(), b.history());
        let mut c = Session::<Game2048>::with_seed(7).unwrap();
        c.play_text("left l up Right").unwrap();
        assert_eq!(c.history(), a.history());
        assert!(a.play_text("LX").is_err());
    }

    #[test]
    fn same_seed_same_game_and_other_seeds_differ() {
        let moves = "LURDLLURDDRULDRU".repeat(4);
        let play = |seed| {
            let mut s = Session::<Game2048>::with_seed(seed).unwrap();
            s.play_text(&moves).unwrap();
            s
        };
        assert_eq!(play(42).history(), play(42).history());
        let boards = |seed| -> Vec<Board> {
            play(seed)
                .history()
                .iter()
                .map(|s| s.board().clone())
                .collect()
        };
        assert_ne!(boards(42), boards(43));
    }

    /// A random dense board: full or nearly, from few ranks, so that stuck boards are common.
    fn dense_board() -> impl Strategy<Value = Board> {
        boards(2..=5, prop_oneof![1 => Just::<Rank>(0), 8 => 1..=5 as Rank])
    }

    proptest! {
        #[test]
        fn random_play_keeps_every_rule(
            seed in any::<u64>(),
            side in 2usize..=6,
            moves in proptest::collection::vec(0usize..4, 0..80),
        ) {
            let mut state = new(side, seed);
            for i in moves {
                let dir = Direction::ALL[i];
                let slide = RULES.slide(state.board(), dir);
                let over = Direction::ALL.iter().all(|&d| !RULES.slide(state.board(), d).moved);
                prop_assert_eq!(Game2048::status(&state).over, over);
                prop_assert_eq!(Game2048::legal_moves(&state).is_empty(), over);
                match Game2048::apply(&state, &dir) {
                    Ok(next) => {
                        prop_assert!(slide.moved);
                        let cell = next.last_spawn().unwrap_or(Cell::new(99, 99));
                        prop_assert_eq!(slide.board.rank(cell), 0);
                        prop_assert!(matches!(next.board().rank(cell), 1 | 2));
                        let mut without = next.board().clone();
                        without.set(cell, 0);
                        prop_assert_eq!(&without, &slide.board);
                        prop_assert_eq!(next.score(), state.score() + slide.gained);
                        prop_assert!(next.won() || !state.won());
                        state = next;
                    }
                    Err(e) => {
                        prop_assert!(!slide.moved);
                        let want = if over { MoveError::GameOver } else { MoveError::NoEffect };
                        prop_assert_eq!(e, want);
                    }
                }
            }
        }

        #[test]
        fn over_exactly_when_no_direction_changes_the_board(b in dense_board()) {
            let state = Game2048State::from_board(b.clone(), 0);
            let moving: Vec<Direction> = Direction::ALL
                .into_iter()
                .filter(|&d| RULES.slide(&b, d).board != b)
                .collect();
            prop_assert_eq!(Game2048::status(&state).over, moving.is_empty());
            prop_assert_eq!(Game2048::legal_moves(&state), moving.clone());
            // Without an empty cell and without two equal neighbours, and only then, it is over;
            // an empty board (which no game reaches) moves nowhere either.
            let side = b.side();
            let pair = (0..side).any(|r| (0..side).any(|c| {
                let here = b.rank(Cell::new(r, c));
                here == b.rank(Cell::new(r, c + 1)) || here == b.rank(Cell::new(r + 1, c))
            }));
            prop_assert_eq!(
                moving.is_empty(),
                b.tile_count() == 0 || (b.tile_count() == side * side && !pair)
            );
            for dir in Direction::ALL {
                if !moving.contains(&dir) {
                    let want = if moving.is_empty() { MoveError::GameOver } else { MoveError::NoEffect };
                    prop_assert_eq!(Game2048::apply(&state, &dir), Err(want));
                }
            }
        }
    }
}
