//! The exhaustive addend enumerator: every set of open tiles that makes a roll.

use crate::TileSet;

/// Every set of distinct tiles from `open` summing to `total`, exhaustively enumerated.
///
/// The sets come in lexicographic order of their ascending tile lists (the order of
/// [`TileSet`]): for 9 with every tile open, `1+2+6`, `1+3+5`, `1+8`, `2+3+4`, `2+7`, `3+6`,
/// `4+5`, `9`. A total of 0 gives no set, since a move shuts at least one tile; so does a total
/// above what the open tiles add up to.
///
/// It is a depth-first walk over the open tiles in ascending order: a set is extended only by
/// tiles above its largest, and a branch stops as soon as the next tile would overshoot.
pub fn addends(total: u32, open: TileSet) -> Vec<TileSet> {
    let mut found = Vec::new();
    if total == 0 || total > open.sum() {
        return found;
    }
    let tiles: Vec<u8> = open.tiles().collect();
    walk(&tiles, total, TileSet::EMPTY, &mut found);
    found
}

/// Extends `chosen` (which falls short of the total by `left`, more than 0) with each of
/// `tiles` in turn, ascending, and then with the tiles after it.
fn walk(tiles: &[u8], left: u32, chosen: TileSet, found: &mut Vec<TileSet>) {
    for (i, &tile) in tiles.iter().enumerate() {
        let tile_value = u32::from(tile);
        // Tiles ascend, so once one overshoots every later one does too.
        if tile_value > left {
            break;
        }
        let next = chosen.with(tile);
        if tile_value == left {
            // Any longer set with this prefix would overshoot.
            found.push(next);
        } else {
            walk(&tiles[i + 1..], left - tile_value, next, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The ascending tile list of a 9-bit mask where bit `t - 1` is tile `t`, built without
    /// `TileSet`.
    fn list_of(mask: u16) -> Vec<u8> {
        (1u8..=9).filter(|t| mask & (1 << (t - 1)) != 0).collect()
    }

    fn tile_lists(sets: &[TileSet]) -> Vec<Vec<u8>> {
        sets.iter().map(|s| s.tiles().collect()).collect()
    }

    #[test]
    fn agrees_with_brute_force_over_every_open_set_and_total_in_order() {
        // Every subset of 1..=9, as (ascending tile list, sum), computed independently.
        let subsets: Vec<(Vec<u8>, u32)> = (0u16..512)
            .map(|mask| {
                let list = list_of(mask);
                let sum = list.iter().map(|&t| u32::from(t)).sum();
                (list, sum)
            })
            .collect();
        let mut checked = 0;
        for open_mask in 0u16..512 {
            let open_list = list_of(open_mask);
            let open = TileSet::from_tiles(open_list.iter().copied()).unwrap();
            for total in 0..=46 {
                let mut expected: Vec<Vec<u8>> = subsets
                    .iter()
                    .filter(|(list, sum)| {
                        *sum == total
                            && !list.is_empty()
                            && list.iter().all(|t| open_list.contains(t))
                    })
                    .map(|(list, _)| list.clone())
                    .collect();
                expected.sort();
                let got = addends(total, open);
                // Same sets, each once, in lexicographic order.
                assert_eq!(tile_lists(&got), expected, "total {total}, open {open}");
                // The order is also the order of `TileSet`.
                assert!(got.windows(2).all(|w| w[0] < w[1]));
                checked += 1;
            }
        }
        assert_eq!(checked, 512 * 47);
    }

    #[test]
    fn the_rules_example_for_nine() {
        let got = addends(9, TileSet::ALL);
        let as_set: BTreeSet<Vec<u8>> = tile_lists(&got).into_iter().collect();
        let expected: BTreeSet<Vec<u8>> = [
            vec![9],
            vec![1, 8],
            vec![2, 7],
            vec![3, 6],
            vec![4, 5],
            vec![1, 2, 6],
            vec![1, 3, 5],
            vec![2, 3, 4],
        ]
        .into_iter()
        .collect();
        assert_eq!(as_set, expected);
        assert_eq!(got.len(), 8);
    }

    #[test]
    fn the_rules_example_for_nine_comes_in_lexicographic_order() {
        let text: Vec<String> = addends(9, TileSet::ALL)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            text,
            ["1+2+6", "1+3+5", "1+8", "2+3+4", "2+7", "3+6", "4+5", "9"]
        );
    }

    #[test]
    fn edges() {
        assert!(addends(0, TileSet::ALL).is_empty());
        assert!(addends(0, TileSet::EMPTY).is_empty());
        assert!(addends(7, TileSet::EMPTY).is_empty());
        assert_eq!(addends(45, TileSet::ALL), [TileSet::ALL]);
        assert!(addends(46, TileSet::ALL).is_empty());
        assert!(addends(u32::MAX, TileSet::ALL).is_empty());
        let one_two = TileSet::from_tiles([1, 2]).unwrap();
        assert_eq!(addends(3, one_two), [one_two]);
        assert!(addends(4, one_two).is_empty());
        // Every total from two dice can be made with all tiles open.
        for total in 2..=12 {
            assert!(!addends(total, TileSet::ALL).is_empty(), "{total}");
        }
    }
}
