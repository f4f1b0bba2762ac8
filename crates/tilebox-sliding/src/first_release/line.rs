//! The two line moves, each written once over a slice of ranks ordered from the wall outward.
//! [`crate::slide`] maps the four directions onto them.

pub(crate) use crate::LineMotion;
use crate::Rank;

/// The highest 2048 rank, 2^57. A full 8×8 board of such tiles sums to 2^63, so every value and
/// the sum of any board fit in a `u64`. Tiles of this rank do not merge.
pub(crate) const MAX_RANK_2048: Rank = 57;

/// The highest Threes rank, 12288 (3·2^12), the original's highest card; two of them do not
/// merge (nneonneo/threes-ai `threes.cpp` merges equal ranks only below this one).
pub(crate) const MAX_RANK_THREES: Rank = 15;

/// 2048: compact the line toward the wall, then walking outward merge each pair of equal
/// neighbours once. A tile takes part in at most one merge, so `[4,4,8]` gives `[8,8]`.
pub(crate) fn slide_2048(line: &mut [Rank], motions: &mut Vec<LineMotion>) {
    // `out` is the next free position; `open` is true while the tile at `out - 1` may still take
    // a merge (it is not itself the result of one).
    let mut out: usize = 0;
    let mut open = false;
    for from in 0..line.len() {
        let rank = line[from];
        if rank == 0 {
            continue;
        }
        line[from] = 0;
        match out.checked_sub(1) {
            Some(to) if open && line[to] == rank && rank < MAX_RANK_2048 => {
                line[to] = rank + 1;
                open = false;
                motions.push(LineMotion {
                    from,
                    to,
                    merged: true,
                });
            }
            _ => {
                // `out <= from` always holds: every tile seen fills at most one position.
                line[out] = rank;
                if out != from {
                    motions.push(LineMotion {
                        from,
                        to: out,
                        merged: false,
                    });
                }
                out += 1;
                open = true;
            }
        }
    }
}

/// The rank two adjacent Threes tiles make, if they merge: 1 and 2 make 3; two equal tiles of
/// 3 or more make the next rank, up to [`MAX_RANK_THREES`].
pub(crate) fn threes_merge(a: Rank, b: Rank) -> Option<Rank> {
    match (a, b) {
        (1, 2) | (2, 1) => Some(3),
        _ if a == b && (3..MAX_RANK_THREES).contains(&a) => Some(a + 1),
        _ => None,
    }
}

/// Threes: the line shifts by at most one cell. Walking from the wall, the first position that
/// is either empty with a tile somewhere behind it, or holds a tile the next one merges with,
/// takes the next tile; every tile behind moves one step; the far cell empties. One merge at
/// most, never a cascade.
pub(crate) fn slide_threes(line: &mut [Rank], motions: &mut Vec<LineMotion>) {
    let n = line.len();
    let Some(i) = (0..n.saturating_sub(1)).find(|&i| {
        let here = line[i];
        let next = line[i + 1];
        if here == 0 {
            line[i + 1..].iter().any(|&r| r != 0)
        } else {
            threes_merge(here, next).is_some()
        }
    }) else {
        return;
    };
    // `i + 1 < n` by the range searched above.
    let target = line[i];
    // An empty `target` never merges, so this is either the merge or the plain step.
    line[i] = threes_merge(target, line[i + 1]).unwrap_or(line[i + 1]);
    for from in i + 1..n {
        if line[from] != 0 {
            motions.push(LineMotion {
                from,
                to: from - 1,
                merged: from == i + 1 && target != 0,
            });
        }
        if from > i + 1 {
            line[from - 1] = line[from];
        }
    }
    line[n - 1] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        f: fn(&mut [Rank], &mut Vec<LineMotion>),
        line: &[Rank],
    ) -> (Vec<Rank>, Vec<LineMotion>) {
        let mut line = line.to_vec();
        let mut motions = Vec::new();
        f(&mut line, &mut motions);
        (line, motions)
    }

    fn mv(from: usize, to: usize, merged: bool) -> LineMotion {
        LineMotion { from, to, merged }
    }

    #[test]
    fn merges_in_2048_follow_the_rule_examples() {
        // Ranks: 1 = 2, 2 = 4, 3 = 8. rules.md: [2,2,2,2] -> [4,4,0,0].
        let (line, motions) = run(slide_2048, &[1, 1, 1, 1]);
        assert_eq!(line, [2, 2, 0, 0]);
        assert_eq!(motions, [mv(1, 0, true), mv(2, 1, false), mv(3, 1, true)]);
        // [4,4,8,0] -> [8,8,0,0]: the new 8 does not merge again.
        let (line, motions) = run(slide_2048, &[2, 2, 3, 0]);
        assert_eq!(line, [3, 3, 0, 0]);
        assert_eq!(motions, [mv(1, 0, true), mv(2, 1, false)]);
        // [2,0,2,4] -> [4,4,0,0]: compacting comes first.
        let (line, motions) = run(slide_2048, &[1, 0, 1, 2]);
        assert_eq!(line, [2, 2, 0, 0]);
        assert_eq!(motions, [mv(2, 0, true), mv(3, 1, false)]);
        // [2,2,2,0] -> [4,2,0,0]: merging goes from the wall.
        let (line, _) = run(slide_2048, &[1, 1, 1, 0]);
        assert_eq!(line, [2, 1, 0, 0]);
    }

    #[test]
    fn a_packed_line_without_pairs_does_not_move_in_2048() {
        let (line, motions) = run(slide_2048, &[1, 2, 1, 2]);
        assert_eq!(line, [1, 2, 1, 2]);
        assert!(motions.is_empty());
        let (line, motions) = run(slide_2048, &[0, 0, 0, 0]);
        assert_eq!(line, [0, 0, 0, 0]);
        assert!(motions.is_empty());
    }

    #[test]
    fn capped_2048_tiles_do_not_merge() {
        let cap = MAX_RANK_2048;
        let (line, motions) = run(slide_2048, &[cap, cap, 0, cap - 1]);
        assert_eq!(line, [cap, cap, cap - 1, 0]);
        assert_eq!(motions, [mv(3, 2, false)]);
        let (line, _) = run(slide_2048, &[cap - 1, cap - 1]);
        assert_eq!(line, [cap, 0]);
    }

    #[test]
    fn threes_shifts_follow_the_rule_examples() {
        // Ranks: 1 = 1, 2 = 2, 3 = 3, 4 = 6. rules.md: [0,0,0,3] -> [0,0,3,0].
        let (line, motions) = run(slide_threes, &[0, 0, 0, 3]);
        assert_eq!(line, [0, 0, 3, 0]);
        assert_eq!(motions, [mv(3, 2, false)]);
        // [3,0,0,3] -> [3,0,3,0]
        let (line, _) = run(slide_threes, &[3, 0, 0, 3]);
        assert_eq!(line, [3, 0, 3, 0]);
        // [0,3,3,0] -> [3,3,0,0]: the gap comes first.
        let (line, motions) = run(slide_threes, &[0, 3, 3, 0]);
        assert_eq!(line, [3, 3, 0, 0]);
        assert_eq!(motions, [mv(1, 0, false), mv(2, 1, false)]);
        // [3,3,3,3] -> [6,3,3,0]
        let (line, motions) = run(slide_threes, &[3, 3, 3, 3]);
        assert_eq!(line, [4, 3, 3, 0]);
        assert_eq!(motions, [mv(1, 0, true), mv(2, 1, false), mv(3, 2, false)]);
        // [1,2,1,2] -> [3,1,2,0]
        let (line, _) = run(slide_threes, &[1, 2, 1, 2]);
        assert_eq!(line, [3, 1, 2, 0]);
    }

    #[test]
    fn threes_never_merges_1_1_or_2_2_or_unequal_tiles() {
        for stuck in [
            [1, 1, 3, 1],
            [2, 2, 3, 2],
            [3, 4, 3, 4],
            [1, 3, 2, 3],
            [3, 1, 3, 2],
        ] {
            let (line, motions) = run(slide_threes, &stuck);
            assert_eq!(line, stuck);
            assert!(motions.is_empty());
        }
        // A tile with nothing but empty cells behind it stays put.
        let (line, motions) = run(slide_threes, &[3, 0, 0, 0]);
        assert_eq!(line, [3, 0, 0, 0]);
        assert!(motions.is_empty());
    }

    #[test]
    fn threes_merges_2_1_and_equal_tiles_of_three_or_more() {
        assert_eq!(threes_merge(2, 1), Some(3));
        assert_eq!(threes_merge(1, 2), Some(3));
        assert_eq!(threes_merge(3, 3), Some(4));
        assert_eq!(threes_merge(14, 14), Some(15));
        assert_eq!(threes_merge(1, 1), None);
        assert_eq!(threes_merge(2, 2), None);
        assert_eq!(threes_merge(0, 0), None);
        assert_eq!(threes_merge(3, 0), None);
        assert_eq!(threes_merge(MAX_RANK_THREES, MAX_RANK_THREES), None);
        let cap = MAX_RANK_THREES;
        let (line, motions) = run(slide_threes, &[cap, cap, 0]);
        assert_eq!(line, [cap, cap, 0]);
        assert!(motions.is_empty());
    }
}
