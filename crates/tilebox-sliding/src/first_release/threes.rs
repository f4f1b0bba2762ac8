//! Threes: one-step slides, cards from a 12-card deck (and now and then a bonus card) entering at
//! the far edge of a line that moved, and a score counted on the board.

use std::fmt;

use serde_json::{Map, Value};
use tilebox_core::{GameInfo, GameRng, MoveError, ParamsError, Puzzle, Status};

use super::deck::{Deck, draw_card};
use super::{RuleSet, SlidingGame, SlidingParams};
use crate::{Board, Cell, Direction, Rank};

const RULES: RuleSet = RuleSet::Threes;

/// The game Threes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threes;

/// How a game of Threes is set up: the board's side, see [`SlidingParams`].
pub type ThreesParams = SlidingParams;

/// The next card as the player sees it: a bonus card's value stays hidden.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NextCard {
    /// A 1.
    One,
    /// A 2.
    Two,
    /// A 3.
    Three,
    /// A bonus card, 6 or more; shown as "+".
    Bonus,
}

impl NextCard {
    /// What a player is told of a card of this rank.
    fn of_rank(rank: Rank) -> NextCard {
        match rank {
            1 => NextCard::One,
            2 => NextCard::Two,
            3 => NextCard::Three,
            _ => NextCard::Bonus,
        }
    }
}

impl fmt::Display for NextCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NextCard::One => "1",
            NextCard::Two => "2",
            NextCard::Three => "3",
            NextCard::Bonus => "+",
        })
    }
}

/// A game of Threes at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreesState {
    board: Board,
    /// The rank of the card that enters after the next move; 4 or more only for a bonus card.
    /// Hidden: players see [`NextCard`].
    next: Rank,
    deck: Deck,
    last_entry: Option<Cell>,
    rng: GameRng,
}

impl ThreesState {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The score of the board: each tile 3·2^k scores 3^(k+1); 1s and 2s score 0.
    pub fn score(&self) -> u64 {
        RULES.board_score(&self.board)
    }

    /// The next card, as the player sees it.
    pub fn next(&self) -> NextCard {
        NextCard::of_rank(self.next)
    }

    /// How many 1s, 2s and 3s are left in the deck, the previewed card already drawn;
    /// `[0, 0, 0]` when the next deck card starts a fresh deck.
    ///
    /// Only the counts, never the order: this is what a player counting cards knows, since every
    /// deck card is seen (dealt at the start or shown as the preview) and a deck is four of each.
    pub fn deck_remaining(&self) -> [u8; 3] {
        self.deck.counts()
    }

    /// The cell where the last card entered; `None` at the start of a game.
    pub fn last_entry(&self) -> Option<Cell> {
        self.last_entry
    }

    /// A state holding `board` with `next` (a rank) to come, for tests that need a position no
    /// seed is known to reach.
    #[cfg(test)]
    pub(crate) fn from_board(board: Board, next: Rank, seed: u64) -> Self {
        Self {
            board,
            next,
            deck: Deck::new(),
            last_entry: None,
            rng: GameRng::from_seed(seed),
        }
    }
}

impl fmt::Display for ThreesState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "score {}", self.score())?;
        writeln!(f, "next {}", self.next())?;
        write!(f, "{}", RULES.grid(&self.board))
    }
}

/// How many cards a new game deals onto a board of `side`: 9 of the 16 cells in the original,
/// and the same share, rounded to the nearest card, on other sides (2 on 2×2, 5 on 3×3, 14 on
/// 5×5, 20 on 6×6, 28 on 7×7, 36 on 8×8). Boards that take more than the deck's 12 cards keep
/// drawing through a rebuilt deck, as the game always does.
pub(crate) fn starting_cards(side: usize) -> usize {
    (side * side * 9 + 8) / 16
}

impl Puzzle for Threes {
    type Params = ThreesParams;
    type State = ThreesState;
    type Move = Direction;

    const INFO: GameInfo = GameInfo {
        id: RULES.id(),
        title: "Threes",
        description: "Slide cards one step: 1 and 2 make 3, equal cards from 3 up add together.",
    };

    fn new_game(params: &ThreesParams, seed: u64) -> Result<ThreesState, ParamsError> {
        let mut board = super::start_board(params.side)?;
        let mut rng = GameRng::from_seed(seed);
        let mut deck = Deck::new();
        // Distinct random cells: a shuffled list of every cell, dealt from the front.
        let mut cells: Vec<Cell> = board.empty_cells().collect();
        rng.shuffle(&mut cells);
        for &cell in cells.iter().take(starting_cards(params.side)) {
            let card = deck.draw(&mut rng);
            board.set(cell, card);
        }
        let next = draw_card(&mut deck, board.max_rank(), &mut rng);
        Ok(ThreesState {
            board,
            next,
            deck,
            last_entry: None,
            rng,
        })
    }

    fn apply(state: &ThreesState, mv: &Direction) -> Result<ThreesState, MoveError> {
        let slide = RULES.slide(&state.board, *mv);
        let mut next = state.clone();
        let pick = next.rng.index(slide.moved_lines.len());
        let Some(&line) = slide.moved_lines.get(pick) else {
            return Err(super::refusal(RULES, &state.board));
        };
        // The far edge of a moved line is always empty: the whole line stepped toward the wall.
        let entry = mv.entry_cell(state.board.side(), line);
        next.board = slide.board;
        next.board.set(entry, state.next);
        next.last_entry = Some(entry);
        // "Highest" is measured on the board the new card joined. The sources measure it just
        // before (Threesus) or just after (threes-ai) the card goes in, which is the same: a card
        // entering is at most 3 or a bonus of at most highest/8, so it never changes whether the
        // highest tile is 48 or more, nor what that tile is.
        next.next = draw_card(&mut next.deck, next.board.max_rank(), &mut next.rng);
        Ok(next)
    }

    fn status(state: &ThreesState) -> Status {
        Status {
            won: false,
            over: !RULES.can_move(&state.board),
        }
    }

    fn score(state: &ThreesState) -> u64 {
        state.score()
    }

    fn legal_moves(state: &ThreesState) -> Vec<Direction> {
        RULES.moving_directions(&state.board).collect()
    }

    fn view(state: &ThreesState) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("board".into(), super::board_view(RULES, &state.board));
        map.insert("next".into(), state.next().to_string().into());
        map
    }

    fn top_tile(state: &ThreesState) -> Option<u64> {
        Some(RULES.value(state.board.max_rank()))
    }

    fn split_moves(text: &str) -> Vec<&str> {
        crate::direction::split_moves(text)
    }
}

impl SlidingGame for Threes {
    const RULES: RuleSet = RULES;

    fn board(state: &ThreesState) -> &Board {
        &state.board
    }

    fn next_card(state: &ThreesState) -> Option<String> {
        Some(state.next().to_string())
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

    fn new(side: usize, seed: u64) -> ThreesState {
        Threes::new_game(&ThreesParams { side }, seed).unwrap()
    }

    /// How many of each card, 1 to 3, are in `ranks`.
    fn count(ranks: impl IntoIterator<Item = Rank>) -> [usize; 3] {
        let mut n = [0; 3];
        for r in ranks {
            if let Some(slot) = usize::from(r).checked_sub(1).and_then(|i| n.get_mut(i)) {
                *slot += 1;
            }
        }
        n
    }

    #[test]
    fn a_new_game_deals_nine_cards_from_one_deck_then_draws_the_next() {
        for seed in 0..200 {
            let s = new(4, seed);
            assert_eq!(s.board().tile_count(), 9);
            assert!(s.board().max_rank() <= 3);
            assert!(s.next() != NextCard::Bonus);
            // 9 dealt + 1 next + 2 left = one full deck.
            assert_eq!(s.deck.len(), 2);
            let left = s.deck_remaining();
            assert_eq!(left.iter().sum::<u8>(), 2);
            let seen = count(s.board().cells_with_ranks().map(|(_, r)| r).chain([s.next]));
            for i in 0..3 {
                assert_eq!(usize::from(left[i]) + seen[i], 4, "card {}", i + 1);
            }
            let mut rest = s.deck.clone();
            let mut rng = GameRng::from_seed(0);
            let cards = s.board().cells_with_ranks().map(|(_, r)| r).chain([
                s.next,
                rest.draw(&mut rng),
                rest.draw(&mut rng),
            ]);
            assert_eq!(count(cards), [4, 4, 4]);
            assert_eq!(Threes::status(&s), Status::PLAYING);
            assert!(s.last_entry().is_none());
        }
    }

    #[test]
    fn other_sides_deal_the_same_share_of_cells() {
        for (side, cards) in [(2, 2), (3, 5), (4, 9), (5, 14), (6, 20), (7, 28), (8, 36)] {
            assert_eq!(starting_cards(side), cards);
            for seed in 0..10 {
                let s = new(side, seed);
                assert_eq!(s.board().tile_count(), cards, "side {side}");
                assert!(s.board().max_rank() <= 3);
            }
        }
        for side in [0, 1, 9] {
            assert!(Threes::new_game(&ThreesParams { side }, 1).is_err());
        }
        let p: ThreesParams = serde_json::from_str("{}").unwrap();
        assert_eq!(p.side, 4);
    }

    #[test]
    fn the_next_card_enters_at_the_far_edge_of_a_moved_line() {
        // Left swipe: row 0 merges 1 and 2, row 2 closes a gap; rows 1 and 3 cannot move.
        let start = ThreesState::from_board(
            board(&[&[1, 2, 3, 0], &[3, 6, 3, 6], &[0, 3, 0, 0], &[1, 1, 6, 2]]),
            2,
            0,
        );
        let slid = board(&[&[3, 3, 0, 0], &[3, 6, 3, 6], &[3, 0, 0, 0], &[1, 1, 6, 2]]);
        let mut rows = [0u32; 4];
        for seed in 0..400 {
            let s = ThreesState {
                rng: GameRng::from_seed(seed),
                ..start.clone()
            };
            let after = Threes::apply(&s, &Direction::Left).unwrap();
            let cell = after.last_entry().unwrap();
            assert_eq!(
                cell.col, 3,
                "the far edge of a left swipe is the last column"
            );
            assert_eq!(after.board().rank(cell), 2, "the previewed card");
            let mut without = after.board().clone();
            without.set(cell, 0);
            assert_eq!(without, slid);
            rows[cell.row] += 1;
        }
        assert_eq!(rows[1] + rows[3], 0);
        assert!((150..250).contains(&rows[0]), "{rows:?}");
        assert_eq!(rows[0] + rows[2], 400);
    }

    #[test]
    fn each_swipe_enters_from_its_own_far_edge() {
        let start = ThreesState::from_board(board(&[&[0, 0, 0], &[0, 3, 0], &[0, 0, 0]]), 1, 5);
        for (dir, cell) in [
            (Direction::Left, Cell::new(1, 2)),
            (Direction::Right, Cell::new(1, 0)),
            (Direction::Up, Cell::new(2, 1)),
            (Direction::Down, Cell::new(0, 1)),
        ] {
            let after = Threes::apply(&start, &dir).unwrap();
            assert_eq!(after.last_entry(), Some(cell), "{dir:?}");
            assert_eq!(after.board().rank(cell), 1);
            assert_eq!(after.board().tile_count(), 2);
        }
    }

    #[test]
    fn refused_moves_and_the_end() {
        let start = ThreesState::from_board(board(&[&[3, 6], &[0, 0]]), 3, 1);
        assert_eq!(
            Threes::apply(&start, &Direction::Left),
            Err(MoveError::NoEffect)
        );
        assert_eq!(
            Threes::apply(&start, &Direction::Right),
            Err(MoveError::NoEffect)
        );
        assert_eq!(
            Threes::apply(&start, &Direction::Up),
            Err(MoveError::NoEffect)
        );
        assert_eq!(Threes::legal_moves(&start), [Direction::Down]);

        let stuck = ThreesState::from_board(board(&[&[1, 3], &[3, 1]]), 3, 1);
        assert!(Threes::legal_moves(&stuck).is_empty());
        assert_eq!(
            Threes::status(&stuck),
            Status {
                won: false,
                over: true
            }
        );
        for dir in Direction::ALL {
            assert_eq!(Threes::apply(&stuck, &dir), Err(MoveError::GameOver));
        }
        // Full, but 1 and 2 side by side merge.
        let full = ThreesState::from_board(board(&[&[1, 2], &[6, 3]]), 3, 1);
        assert!(!Threes::status(&full).over);
        assert_eq!(
            Threes::legal_moves(&full),
            [Direction::Left, Direction::Right]
        );
        // 1s next to 1s and 2s next to 2s do not.
        let ones = ThreesState::from_board(board(&[&[1, 1], &[1, 1]]), 3, 1);
        assert!(Threes::status(&ones).over);
    }

    #[test]
    fn score_is_counted_on_the_board() {
        let s = ThreesState::from_board(board(&[&[1, 2, 3], &[6, 12, 0], &[0, 0, 48]]), 3, 1);
        assert_eq!(s.score(), 3 + 9 + 27 + 243);
        assert_eq!(Threes::score(&s), s.score());
    }

    #[test]
    fn bonus_cards_are_shown_as_plus_and_their_value_stays_hidden() {
        // Highest 192: bonus cards may be 6, 12 or 24.
        let start = ThreesState::from_board(
            board(&[&[192, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 0], &[0, 0, 0, 3]]),
            1,
            0,
        );
        let mut bonus_seen = 0;
        let mut placed = Vec::new();
        for seed in 0..2000 {
            let s = ThreesState {
                rng: GameRng::from_seed(seed),
                ..start.clone()
            };
            let after = Threes::apply(&s, &Direction::Left).unwrap();
            if after.next() == NextCard::Bonus {
                bonus_seen += 1;
                assert!(after.to_string().contains("\nnext +\n"));
                let view = Threes::view(&after);
                assert_eq!(view["next"], "+");
                assert_eq!(view.len(), 2, "only the board and the preview");
                // Playing it shows the value that was hidden.
                let played = Threes::apply(&after, &Direction::Right).unwrap();
                let cell = played.last_entry().unwrap();
                placed.push(RULES.value(played.board().rank(cell)));
            }
        }
        // 2000 draws at 1/21: about 95.
        assert!((50..150).contains(&bonus_seen), "{bonus_seen}");
        assert!(placed.iter().all(|v| [6, 12, 24].contains(v)), "{placed:?}");
        for v in [6, 12, 24] {
            assert!(placed.contains(&v), "{v} never came");
        }
    }

    #[test]
    fn text_and_view() {
        let s = ThreesState::from_board(
            board(&[
                &[1, 0, 0, 3],
                &[0, 12, 0, 0],
                &[0, 0, 2, 0],
                &[0, 0, 0, 768],
            ]),
            3,
            1,
        );
        assert_eq!(
            s.to_string(),
            format!(
                "score {}\nnext 3\n   1    .    .    3\n   .   12    .    .\n   .    .    2    .\n   .    .    .  768\n",
                3 + 27 + 3u64.pow(9)
            )
        );
        let view = Threes::view(&s);
        assert_eq!(
            view["board"],
            serde_json::json!([[1, 0, 0, 3], [0, 12, 0, 0], [0, 0, 2, 0], [0, 0, 0, 768]])
        );
        assert_eq!(view["next"], "3");
        let shown: Vec<String> = [
            NextCard::One,
            NextCard::Two,
            NextCard::Three,
            NextCard::Bonus,
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(shown, ["1", "2", "3", "+"]);
    }

    #[test]
    fn same_seed_same_game_and_other_seeds_differ() {
        // Short enough that neither game ends (repeated four times, seed 42 is over by move 46).
        let moves = "LURDLLURDDRULDRU".repeat(2);
        let play = |seed| {
            let mut s = Session::<Threes>::with_seed(seed).unwrap();
            s.play_text(&moves).unwrap();
            s
        };
        assert_eq!(play(42).history(), play(42).history());
        assert!(play(42).history().len() > 20);
        let boards = |seed| -> Vec<Board> {
            play(seed)
                .history()
                .iter()
                .map(|s| s.board().clone())
                .collect()
        };
        assert_ne!(boards(42), boards(43));
        let mut a = Session::<Threes>::with_seed(9).unwrap();
        let mut b = Session::<Threes>::with_seed(9).unwrap();
        a.play_text("LLur").unwrap();
        b.play_text("L L U R").unwrap();
        assert_eq!(a.history(), b.history());
    }

    /// A random board with mostly small cards and some high ones, so bonus cards come up.
    fn any_board() -> impl Strategy<Value = Board> {
        boards(
            2..=6,
            prop_oneof![3 => Just::<Rank>(0), 6 => 1..=3 as Rank, 2 => 4..=9 as Rank, 1 => Just(RULES.max_rank())],
        )
    }

    proptest! {
        #[test]
        fn random_play_keeps_every_rule(
            start in any_board(),
            next in 1..=3 as Rank,
            seed in any::<u64>(),
            moves in proptest::collection::vec(0usize..4, 0..60),
        ) {
            let mut state = ThreesState::from_board(start, next, seed);
            for i in moves {
                let dir = Direction::ALL[i];
                let side = state.board().side();
                let slide = RULES.slide(state.board(), dir);
                let over = Direction::ALL.iter().all(|&d| RULES.slide(state.board(), d).board == *state.board());
                prop_assert_eq!(Threes::status(&state).over, over);
                prop_assert!(!Threes::status(&state).won);
                prop_assert_eq!(Threes::legal_moves(&state).is_empty(), over);
                match Threes::apply(&state, &dir) {
                    Ok(after) => {
                        prop_assert!(slide.moved);
                        let cell = after.last_entry().unwrap_or(Cell::new(99, 99));
                        // At the far edge of a line that moved, which the slide left empty.
                        let line = dir.line_of(cell);
                        prop_assert!(slide.moved_lines.contains(&line));
                        prop_assert_eq!(cell, dir.entry_cell(side, line));
                        prop_assert_eq!(slide.board.rank(cell), 0);
                        let mut without = after.board().clone();
                        without.set(cell, 0);
                        prop_assert_eq!(&without, &slide.board);
                        // The card that entered is the one that was previewed.
                        let card = after.board().rank(cell);
                        match state.next() {
                            NextCard::One => prop_assert_eq!(card, 1),
                            NextCard::Two => prop_assert_eq!(card, 2),
                            NextCard::Three => prop_assert_eq!(card, 3),
                            NextCard::Bonus => {
                                // 6 up to highest/8 of the board it was drawn for.
                                let highest = RULES.value(state.board().max_rank());
                                prop_assert!(highest >= 48);
                                let v = RULES.value(card);
                                prop_assert!(v >= 6 && v <= highest / 8, "{} with highest {}", v, highest);
                            }
                        }
                        prop_assert_eq!(after.score(), RULES.board_score(after.board()));
                        prop_assert!(after.next() != NextCard::Bonus || after.board().max_rank() >= 7);
                        state = after;
                    }
                    Err(e) => {
                        prop_assert!(!slide.moved);
                        prop_assert_eq!(&slide.board, state.board());
                        let want = if over { MoveError::GameOver } else { MoveError::NoEffect };
                        prop_assert_eq!(e, want);
                    }
                }
            }
        }

        #[test]
        fn deck_cards_come_four_of_each_per_twelve_in_play(seed in any::<u64>()) {
            // Below 48 there are no bonus cards, so the cards dealt and entered, one after the
            // other, are the deck's order: every block of twelve holds four of each.
            let mut s = Session::<Threes>::new(ThreesParams { side: 8 }, seed)
                .unwrap_or_else(|e| panic!("{e}"));
            let mut cards: Vec<Rank> = s.state().board().cells_with_ranks().map(|(_, r)| r).filter(|&r| r > 0).collect();
            // 36 dealt: three full decks; the next card opens a fourth.
            prop_assert_eq!(cards.len(), 36);
            prop_assert_eq!(count(cards.iter().copied()), [12, 12, 12]);
            cards.clear();
            let mut dirs = Direction::ALL.iter().cycle();
            while cards.len() < 48 && s.state().board().max_rank() < 7 {
                let Some(&dir) = dirs.next() else { break };
                let before = s.state().next;
                if s.play(dir).is_ok() {
                    cards.push(before);
                } else if Threes::status(s.state()).over {
                    break;
                }
            }
            for block in cards.chunks_exact(12) {
                prop_assert_eq!(count(block.iter().copied()), [4, 4, 4]);
            }
            // Reaching 48 takes far longer than this on a board this size, so the check above
            // covers at least two whole decks.
            prop_assert!(cards.len() >= 24, "only {} cards", cards.len());
        }
    }
}
