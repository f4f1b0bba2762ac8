//! The rule sets: what a rank is worth, how a line moves, how a board scores.

use super::line::{MAX_RANK_2048, MAX_RANK_THREES, slide_2048, slide_threes};
use crate::slide::slide_board;

type LineMove = fn(&mut [Rank], &mut Vec<crate::LineMotion>);
use crate::{Board, BoardError, Direction, Rank, Slide};

/// A sliding-tile rule set, looked up by game id. A new sliding variant is added here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// 2048: rank k is worth 2^k; lines compact and merge equal pairs.
    Twenty48,
    /// Threes: 1, 2, then 3·2^k; lines shift one cell with at most one merge.
    Threes,
}

impl RuleSet {
    /// Every rule set, in the order the games are listed.
    pub const ALL: [RuleSet; 2] = [RuleSet::Twenty48, RuleSet::Threes];

    /// The id of the game kind played by these rules; the games take their
    /// [`tilebox_core::GameInfo::id`] from here. (Hosts find an entry's rule set with
    /// `rules_of`, never by id.)
    pub const fn id(self) -> &'static str {
        match self {
            RuleSet::Twenty48 => "2048",
            RuleSet::Threes => "threes",
        }
    }

    /// The highest rank a tile can reach; tiles of this rank do not merge.
    ///
    /// 2048 stops at 2^57, so that even a full 8×8 board of such tiles sums within a `u64`
    /// (64·2^57 = 2^63). Threes stops at 12288, the original's highest card.
    pub fn max_rank(self) -> Rank {
        match self {
            RuleSet::Twenty48 => MAX_RANK_2048,
            RuleSet::Threes => MAX_RANK_THREES,
        }
    }

    /// The value of a tile of `rank`: 2048 rank k is 2^k; Threes 1 is 1, 2 is 2, rank r ≥ 3 is
    /// 3·2^(r-3); rank 0 (empty) is 0 in both. Ranks above [`RuleSet::max_rank`] never occur in
    /// this rule set's games; they follow the same formula, saturating at `u64::MAX`.
    pub fn value(self, rank: Rank) -> u64 {
        match (self, rank) {
            (_, 0) => 0,
            (RuleSet::Twenty48, k) => pow2(k),
            (RuleSet::Threes, r @ (1 | 2)) => r.into(),
            (RuleSet::Threes, r) => pow2(r - 3).saturating_mul(3),
        }
    }

    /// The rank of a tile worth `value` (0 for 0, an empty cell), or `None` for a value this
    /// game cannot hold: 1, 3 or 6 in 2048, 4 or 5 in Threes, anything above the highest tile.
    pub fn rank_of(self, value: u64) -> Option<Rank> {
        let rank = match (self, value) {
            (_, 0) => 0,
            (RuleSet::Twenty48, v) if v >= 2 && v.is_power_of_two() => log2(v),
            (RuleSet::Threes, v @ (1 | 2)) => log2(v) + 1,
            (RuleSet::Threes, v) if v % 3 == 0 && (v / 3).is_power_of_two() => log2(v / 3) + 3,
            _ => return None,
        };
        (rank <= self.max_rank()).then_some(rank)
    }

    /// A board from rows of values (0 for an empty cell). Checks the shape (rows of one length,
    /// square, side 2 to 8) and then every value, row by row.
    pub fn board_from_values(self, rows: &[Vec<u64>]) -> Result<Board, BoardError> {
        Board::from_rank_rows(rows, |cell, &value| {
            self.rank_of(value).ok_or(BoardError::BadValue {
                row: cell.row,
                col: cell.col,
                value,
            })
        })
    }

    /// The board as rows of values, 0 for an empty cell.
    pub fn values(self, board: &Board) -> Vec<Vec<u64>> {
        board
            .rows()
            .map(|row| row.iter().map(|&rank| self.value(rank)).collect())
            .collect()
    }

    /// Slides every line of `board` toward `dir`. Adds no tile: spawning is the game's part.
    /// `gained` is, for 2048, the sum of the tiles made by merges and, for Threes, how much the
    /// board's score grew.
    pub fn slide(self, board: &Board, dir: Direction) -> Slide {
        let line_move = self.line_move();
        let mut slide = slide_board(board, dir, |line, motions| {
            line_move(line, motions);
            0
        });
        slide.gained = match self {
            RuleSet::Twenty48 => slide
                .motions
                .iter()
                .filter(|m| m.merged)
                .map(|m| self.value(slide.board.rank(m.to)))
                .fold(0, u64::saturating_add),
            RuleSet::Threes => self
                .board_score(&slide.board)
                .saturating_sub(self.board_score(board)),
        };
        slide
    }

    /// Whether any swipe changes the board; a game is over exactly when none does.
    pub fn can_move(self, board: &Board) -> bool {
        self.moving_directions(board).next().is_some()
    }

    /// The swipes that change `board`, in the order of [`Direction::ALL`]: the legal moves of
    /// both games.
    pub(crate) fn moving_directions(self, board: &Board) -> impl Iterator<Item = Direction> + '_ {
        Direction::ALL
            .into_iter()
            .filter(move |&dir| self.slide(board, dir).moved)
    }

    /// The score counted on the board. Threes: each tile 3·2^k scores 3^(k+1), 1s and 2s score 0.
    /// 2048: 0, because its score is accumulated from merges, not read off the board.
    pub fn board_score(self, board: &Board) -> u64 {
        match self {
            RuleSet::Twenty48 => 0,
            RuleSet::Threes => board
                .cells_with_ranks()
                .map(|(_, rank)| threes_tile_score(rank))
                .fold(0, u64::saturating_add),
        }
    }

    /// The board as a grid of right-aligned values, `.` for an empty cell, one line per row.
    /// Columns are at least four characters wide, wider when a value needs it.
    pub fn grid(self, board: &Board) -> String {
        let values = self.values(board);
        let text = |v: u64| {
            if v == 0 {
                ".".to_string()
            } else {
                v.to_string()
            }
        };
        let width = values
            .iter()
            .flatten()
            .map(|&v| text(v).len())
            .max()
            .unwrap_or(0)
            .max(4);
        let mut out = String::new();
        for row in &values {
            let cells: Vec<String> = row
                .iter()
                .map(|&v| format!("{:>width$}", text(v)))
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    fn line_move(self) -> LineMove {
        match self {
            RuleSet::Twenty48 => slide_2048,
            RuleSet::Threes => slide_threes,
        }
    }
}

/// The Threes score of one tile: 3^(r-2) for rank r ≥ 3 (the tile 3·2^k, k = r-3, scores
/// 3^(k+1)); 0 for 1s, 2s and empty cells.
fn threes_tile_score(rank: Rank) -> u64 {
    if rank >= 3 {
        3u64.saturating_pow(u32::from(rank - 2))
    } else {
        0
    }
}

/// 2^k, saturating at `u64::MAX` from k = 64 on.
fn pow2(k: Rank) -> u64 {
    1u64.checked_shl(u32::from(k)).unwrap_or(u64::MAX)
}

/// log2 of a power of two, which is below 64 and so fits a rank.
fn log2(v: u64) -> Rank {
    v.trailing_zeros() as Rank
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::test_util::{board, boards};
    use super::*;
    use crate::{Cell, Motion};

    const T48: RuleSet = RuleSet::Twenty48;
    const TH: RuleSet = RuleSet::Threes;

    /// Slides a one-row board left, and the same row laid out for the three other swipes
    /// (mirrored for right, as a column for up, as a reversed column for down), and checks that
    /// all four give the expected row, laid out the same way.
    fn check_line(rules: RuleSet, input: &[u64], expected: &[u64], gained: u64) {
        let n = input.len();
        for dir in Direction::ALL {
            // Cell (line 0, pos p) for this direction holds input[p]; the rest is empty.
            let mut rows = vec![vec![0; n]; n];
            let mut want = vec![vec![0; n]; n];
            for p in 0..n {
                let c = dir.cell(n, 0, p);
                rows[c.row][c.col] = input[p];
                want[c.row][c.col] = expected[p];
            }
            let before = rules.board_from_values(&rows).unwrap();
            let slide = rules.slide(&before, dir);
            assert_eq!(
                rules.values(&slide.board),
                want,
                "{rules:?} {dir:?} {input:?}"
            );
            assert_eq!(slide.moved, input != expected, "{dir:?} {input:?}");
            assert_eq!(slide.gained, gained, "{dir:?} {input:?}");
            let lines: &[usize] = if slide.moved { &[0] } else { &[] };
            assert_eq!(slide.moved_lines, lines);
        }
    }

    #[test]
    fn rule_examples_for_2048_in_all_four_directions() {
        check_line(T48, &[2, 2, 2, 2], &[4, 4, 0, 0], 8);
        check_line(T48, &[4, 4, 8, 0], &[8, 8, 0, 0], 8);
        check_line(T48, &[2, 0, 2, 4], &[4, 4, 0, 0], 4);
        check_line(T48, &[2, 2, 2, 0], &[4, 2, 0, 0], 4);
        check_line(T48, &[0, 0, 0, 2], &[2, 0, 0, 0], 0);
        check_line(T48, &[2, 4, 2, 4], &[2, 4, 2, 4], 0);
        check_line(T48, &[1024, 1024, 0, 0], &[2048, 0, 0, 0], 2048);
    }

    #[test]
    fn rule_examples_for_threes_in_all_four_directions() {
        // Scores: 3 -> 3, 6 -> 9, 12 -> 27; 1s and 2s 0.
        check_line(TH, &[0, 0, 0, 3], &[0, 0, 3, 0], 0);
        check_line(TH, &[3, 0, 0, 3], &[3, 0, 3, 0], 0);
        check_line(TH, &[0, 3, 3, 0], &[3, 3, 0, 0], 0);
        check_line(TH, &[3, 3, 3, 3], &[6, 3, 3, 0], 9 - 3 - 3);
        check_line(TH, &[1, 2, 1, 2], &[3, 1, 2, 0], 3);
        check_line(TH, &[2, 1, 0, 0], &[3, 0, 0, 0], 3);
        check_line(TH, &[6, 6, 12, 12], &[12, 12, 12, 0], 27 - 9 - 9);
        check_line(TH, &[1, 1, 3, 1], &[1, 1, 3, 1], 0);
        check_line(TH, &[2, 2, 6, 2], &[2, 2, 6, 2], 0);
        check_line(TH, &[1, 1, 2, 2], &[1, 3, 2, 0], 3);
        check_line(TH, &[3, 6, 12, 24], &[3, 6, 12, 24], 0);
    }

    #[test]
    fn every_line_of_a_board_moves_on_its_own() {
        let before = board(
            T48,
            &[&[2, 2, 0, 0], &[0, 0, 0, 0], &[4, 0, 0, 4], &[2, 4, 8, 16]],
        );
        let slide = T48.slide(&before, Direction::Right);
        assert_eq!(
            T48.values(&slide.board),
            [[0, 0, 0, 4], [0, 0, 0, 0], [0, 0, 0, 8], [2, 4, 8, 16]]
        );
        assert_eq!(slide.moved_lines, [0, 2]);
        assert_eq!(slide.gained, 4 + 8);
        // Right swipe: the tile nearer the right wall lands first, the other merges into it.
        assert!(slide.motions.contains(&Motion {
            from: Cell::new(0, 0),
            to: Cell::new(0, 3),
            merged: true
        }));
        assert!(slide.motions.contains(&Motion {
            from: Cell::new(0, 1),
            to: Cell::new(0, 3),
            merged: false
        }));
        assert!(slide.motions.contains(&Motion {
            from: Cell::new(2, 0),
            to: Cell::new(2, 3),
            merged: true
        }));
        assert_eq!(slide.motions.len(), 3);

        let before = board(TH, &[&[1, 0, 0], &[2, 3, 0], &[0, 3, 3]]);
        let slide = TH.slide(&before, Direction::Up);
        // Column 0 merges 1 and 2; column 1 closes its gap at the wall; column 2 steps once.
        assert_eq!(TH.values(&slide.board), [[3, 3, 0], [0, 3, 3], [0, 0, 0]]);
        assert_eq!(slide.moved_lines, [0, 1, 2]);
        let step = |from: (usize, usize), to: (usize, usize), merged| Motion {
            from: Cell::new(from.0, from.1),
            to: Cell::new(to.0, to.1),
            merged,
        };
        assert_eq!(
            slide.motions,
            [
                step((1, 0), (0, 0), true),
                step((1, 1), (0, 1), false),
                step((2, 1), (1, 1), false),
                step((2, 2), (1, 2), false),
            ]
        );
        assert_eq!(slide.gained, 3);
        // Down: column 0 drops into its bottom gap, column 1 merges its 3s, column 2 is already
        // against the wall.
        let slide = TH.slide(&before, Direction::Down);
        assert_eq!(TH.values(&slide.board), [[0, 0, 0], [1, 0, 0], [2, 6, 3]]);
        assert_eq!(slide.moved_lines, [0, 1]);
        assert_eq!(slide.gained, 9 - 3 - 3);
    }

    #[test]
    fn values_and_ranks() {
        assert_eq!(T48.value(0), 0);
        assert_eq!(T48.value(1), 2);
        assert_eq!(T48.value(11), 2048);
        assert_eq!(T48.value(57), 1 << 57);
        assert_eq!(T48.value(255), u64::MAX);
        assert_eq!(TH.value(0), 0);
        assert_eq!(TH.value(1), 1);
        assert_eq!(TH.value(2), 2);
        assert_eq!(TH.value(3), 3);
        assert_eq!(TH.value(4), 6);
        assert_eq!(TH.value(7), 48);
        assert_eq!(TH.value(15), 12288);
        assert_eq!(TH.value(255), u64::MAX);
        for rules in RuleSet::ALL {
            for rank in 0..=rules.max_rank() {
                assert_eq!(
                    rules.rank_of(rules.value(rank)),
                    Some(rank),
                    "{rules:?} {rank}"
                );
            }
            assert_eq!(rules.rank_of(rules.value(rules.max_rank() + 1)), None);
            assert_eq!(rules.rank_of(u64::MAX), None);
        }
        for bad in [1, 3, 6, 12, 1000, 1 << 58, 1 << 63] {
            assert_eq!(T48.rank_of(bad), None, "{bad}");
        }
        for bad in [4, 5, 7, 9, 18, 24576, 1 << 20] {
            assert_eq!(TH.rank_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn each_game_takes_its_id_and_rules_from_its_rule_set() {
        use tilebox_core::Puzzle;
        assert_eq!(super::super::Game2048::INFO.id, T48.id());
        assert_eq!(super::super::Threes::INFO.id, TH.id());
        assert_eq!(
            <super::super::Game2048 as super::super::SlidingGame>::RULES,
            T48
        );
        assert_eq!(
            <super::super::Threes as super::super::SlidingGame>::RULES,
            TH
        );
        assert_ne!(T48.id(), TH.id());
    }

    #[test]
    fn board_from_values_refuses_bad_shapes_and_values() {
        let rows = |rows: &[&[u64]]| rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>();
        for rules in RuleSet::ALL {
            assert_eq!(
                rules.board_from_values(&rows(&[&[2, 0], &[0]])),
                Err(BoardError::Ragged {
                    row: 1,
                    len: 1,
                    expected: 2
                })
            );
            assert_eq!(
                rules.board_from_values(&rows(&[&[2, 0, 0], &[0, 0, 0]])),
                Err(BoardError::NotSquare { rows: 2, cols: 3 })
            );
            assert_eq!(
                rules.board_from_values(&rows(&[&[2]])),
                Err(BoardError::SideOutOfRange(1))
            );
            assert_eq!(
                rules.board_from_values(&vec![vec![0; 9]; 9]),
                Err(BoardError::SideOutOfRange(9))
            );
            assert_eq!(
                rules.board_from_values(&[]),
                Err(BoardError::SideOutOfRange(0))
            );
            assert!(rules.board_from_values(&vec![vec![0; 8]; 8]).is_ok());
        }
        assert_eq!(
            T48.board_from_values(&rows(&[&[2, 0], &[0, 3]])),
            Err(BoardError::BadValue {
                row: 1,
                col: 1,
                value: 3
            })
        );
        assert_eq!(
            T48.board_from_values(&rows(&[&[1, 0], &[0, 0]])),
            Err(BoardError::BadValue {
                row: 0,
                col: 0,
                value: 1
            })
        );
        assert!(
            T48.board_from_values(&rows(&[&[1 << 57, 0], &[0, 0]]))
                .is_ok()
        );
        assert!(matches!(
            T48.board_from_values(&rows(&[&[1 << 58, 0], &[0, 0]])),
            Err(BoardError::BadValue { value, .. }) if value == 1 << 58
        ));
        assert_eq!(
            TH.board_from_values(&rows(&[&[0, 4], &[0, 0]])),
            Err(BoardError::BadValue {
                row: 0,
                col: 1,
                value: 4
            })
        );
        assert!(TH.board_from_values(&rows(&[&[12288, 1], &[2, 3]])).is_ok());
        assert!(matches!(
            TH.board_from_values(&rows(&[&[24576, 0], &[0, 0]])),
            Err(BoardError::BadValue { value: 24576, .. })
        ));
        let err = TH
            .board_from_values(&rows(&[&[0, 4], &[0, 0]]))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "4 at row 0, column 1 is not a tile this game can hold"
        );
    }

    #[test]
    fn threes_board_score_counts_three_and_up() {
        let b = board(
            TH,
            &[
                &[1, 2, 3, 6],
                &[12, 24, 48, 0],
                &[0, 0, 0, 0],
                &[0, 0, 0, 12288],
            ],
        );
        assert_eq!(TH.board_score(&b), 3 + 9 + 27 + 81 + 243 + 3u64.pow(13));
        assert_eq!(T48.board_score(&board(T48, &[&[2, 4], &[2048, 0]])), 0);
    }

    #[test]
    fn capped_tiles_stay_apart() {
        let cap = 1u64 << 57;
        let b = board(T48, &[&[cap, cap], &[cap, cap]]);
        assert!(!T48.can_move(&b));
        let b = board(TH, &[&[12288, 12288], &[12288, 12288]]);
        assert!(!TH.can_move(&b));
        let b = board(TH, &[&[6144, 6144], &[3, 1]]);
        let slide = TH.slide(&b, Direction::Left);
        assert_eq!(TH.values(&slide.board), [[12288, 0], [3, 1]]);
    }

    #[test]
    fn grid_aligns_columns() {
        let b = board(T48, &[&[2, 0], &[0, 16]]);
        assert_eq!(T48.grid(&b), "   2    .\n   .   16\n");
        let b = board(TH, &[&[12288, 0], &[0, 3]]);
        assert_eq!(TH.grid(&b), "12288     .\n    .     3\n");
    }

    /// A random board for `rules`: each cell empty (often), a rank from 1 to `max`, or the rule
    /// set's highest rank, the one that no longer merges.
    fn board_strategy(rules: RuleSet, max: Rank) -> impl Strategy<Value = Board> {
        boards(
            2..=8,
            prop_oneof![2 => Just::<Rank>(0), 3 => 1..=max, 1 => Just(rules.max_rank())],
        )
    }

    fn tile_sum(rules: RuleSet, b: &Board) -> u128 {
        b.cells_with_ranks()
            .map(|(_, k)| u128::from(rules.value(k)))
            .sum()
    }

    proptest! {
        #[test]
        fn a_2048_slide_keeps_the_tile_sum(b in board_strategy(T48, 12), i in 0usize..4) {
            let slide = T48.slide(&b, Direction::ALL[i]);
            prop_assert_eq!(tile_sum(T48, &slide.board), tile_sum(T48, &b));
            let merges = slide.motions.iter().filter(|m| m.merged).count();
            prop_assert_eq!(slide.board.tile_count() + merges, b.tile_count());
            prop_assert_eq!(slide.moved, slide.board != b);
        }

        #[test]
        fn a_threes_slide_moves_tiles_one_cell_with_one_merge_per_line(
            b in board_strategy(TH, 8), i in 0usize..4,
        ) {
            let dir = Direction::ALL[i];
            let slide = TH.slide(&b, dir);
            prop_assert_eq!(slide.moved, slide.board != b);
            let side = b.side();
            for m in &slide.motions {
                let step = m.from.row.abs_diff(m.to.row) + m.from.col.abs_diff(m.to.col);
                prop_assert_eq!(step, 1);
                // Toward the wall: the target is one position nearer along the same line.
                let line = dir.line_of(m.from);
                prop_assert_eq!(dir.line_of(m.to), line);
                let pos = (0..side).find(|&p| dir.cell(side, line, p) == m.from);
                prop_assert!(matches!(pos, Some(p) if p >= 1 && dir.cell(side, line, p - 1) == m.to));
            }
            for line in 0..side {
                let merges = slide
                    .motions
                    .iter()
                    .filter(|m| m.merged && dir.line_of(m.to) == line)
                    .count();
                prop_assert!(merges <= 1);
                // A moved line always frees its far edge, where the next card will enter.
                if slide.moved_lines.contains(&line) {
                    prop_assert_eq!(slide.board.rank(dir.entry_cell(side, line)), 0);
                }
            }
            // Threes conserves the sum of values too (1 + 2 = 3, x + x = 2x).
            prop_assert_eq!(tile_sum(TH, &slide.board), tile_sum(TH, &b));
        }

        #[test]
        fn motions_describe_the_slide(
            b48 in board_strategy(T48, 6),
            b3 in board_strategy(TH, 6),
            i in 0usize..4,
        ) {
            // Replaying the motions on the old board, merging by each rule set's own rule, gives
            // the new board; and the moved lines are the lines of the motions. Each rule set
            // slides boards of its own tiles, its highest (unmergeable) rank included.
            let dir = Direction::ALL[i];
            for (rules, b) in [(T48, b48), (TH, b3)] {
                let slide = rules.slide(&b, dir);
                let mut replay = b.clone();
                for m in &slide.motions {
                    replay.set(m.from, 0);
                }
                for m in &slide.motions {
                    let moving = b.rank(m.from);
                    let made = if m.merged {
                        let here = replay.rank(m.to);
                        match rules {
                            RuleSet::Twenty48 => (here == moving).then_some(moving + 1),
                            RuleSet::Threes => super::super::line::threes_merge(here, moving),
                        }
                    } else {
                        // Nothing stays where a tile moves without merging.
                        (replay.rank(m.to) == 0).then_some(moving)
                    };
                    prop_assert!(made.is_some(), "{:?} {:?}", rules, m);
                    replay.set(m.to, made.unwrap_or(0));
                }
                prop_assert_eq!(&replay, &slide.board);
                let mut lines: Vec<usize> = slide.motions.iter().map(|m| dir.line_of(m.from)).collect();
                lines.dedup();
                prop_assert_eq!(&lines, &slide.moved_lines);
            }
        }
    }
}
