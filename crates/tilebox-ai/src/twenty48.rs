//! The 2048 search's chance node: after a move, a 2 or a 4 appears in an empty cell.

use tilebox_sliding::Direction;

use crate::bitboard::{Bits, count_empty, tables_2048};
use crate::heuristic::{eval_2048, loss_2048};
use crate::search::{Deepening, Expectimax, NetworkValue, Rules};

/// The chance that a new tile is a 4 (rank 2) rather than a 2 (rank 1).
pub(crate) const FOUR_CHANCE: f32 = 0.1;

/// 2048 for the expectimax search. The player knows nothing besides the board.
pub(crate) struct Rules2048;

impl Rules for Rules2048 {
    type Known = ();

    fn prepare(&self) {
        tables_2048();
        eval_2048(0);
    }

    #[inline]
    fn eval(&self, board: Bits, (): ()) -> f32 {
        eval_2048(board)
    }

    fn loss(&self, root: Bits) -> f32 {
        loss_2048(root)
    }

    #[inline]
    fn key((): ()) -> u16 {
        0
    }

    /// The board the move leaves.
    type Moved = Bits;

    #[inline]
    fn slide(&self, board: Bits, dir: Direction) -> Option<Bits> {
        let after = tables_2048().slide(board, dir);
        (after != board).then_some(after)
    }

    /// The tile's arrival after the move: every empty cell alike, a 2 nine times in ten, else a
    /// 4. With no ply left the board is evaluated as the move left it.
    #[inline]
    fn chance(
        search: &mut Expectimax<'_, Self>,
        after: Bits,
        (): (),
        plies: u32,
        prob: f32,
    ) -> f32 {
        let empty = count_empty(after);
        if plies == 0 || empty == 0 {
            // (No empty cell cannot follow a move that changed the board.)
            search.stop.depth_cut = true;
            return eval_2048(after);
        }
        let share = prob / empty as f32;
        let two = 1.0 - FOUR_CHANCE;
        let mut total = 0.0f32;
        let mut free = after;
        let mut tile: u64 = 1;
        for _ in 0..16 {
            if free & 0xF == 0 {
                total += two * search.turn(after | tile, (), plies - 1, share * two);
                total += FOUR_CHANCE
                    * search.turn(after | (tile << 1), (), plies - 1, share * FOUR_CHANCE);
            }
            free >>= 4;
            tile <<= 4;
        }
        total / empty as f32
    }
}

/// A 4×4 ladder's moves and spawns as tables, as [`LadderNet`] reads them: the trainer's fast
/// path's (`ntuple`'s `Fast`), whose variants are 2048 and its kin.
pub(crate) trait LadderMoves {
    /// The move `d` (in `Direction::ALL` order) of `board`: the board after, the points it
    /// earns, and whether it would make a rank beyond 15 (the board then unchanged).
    fn slide(&self, board: Bits, d: usize) -> (Bits, f32, bool);

    /// The tiles that spawn, as ranks with their weights, and the weights' total.
    fn spawns(&self) -> (&[(u8, u32)], u32);
}

/// 2048 and its kin (the trainer's fast path: a 4×4 ladder whose tiles spawn by
/// weights on any empty cell, with no preview) for the network's search: the variant's own
/// moves and spawns as tables, the boards valued by a network of afterstates
/// ([`NetworkValue`]), each move earning its points. A move that would make a tile beyond a
/// nibble's rank 15 is not searched (the player searches no position where one can be made at
/// the root: [`LadderNet::fits`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LadderNet<'a, M> {
    fast: &'a M,
    network: NetworkValue<'a>,
    /// The tiles that spawn, as ranks, and their chances; `count` of them.
    tiles: [(u8, f32); 16],
    count: usize,
}

impl<'a, M: LadderMoves> LadderNet<'a, M> {
    /// The search of `fast`'s variant with `network` (trained on it).
    pub(crate) fn new(fast: &'a M, network: NetworkValue<'a>) -> Self {
        let (weights, total) = fast.spawns();
        let mut tiles = [(0u8, 0f32); 16];
        let mut count = 0;
        for (slot, &(rank, w)) in tiles.iter_mut().zip(weights) {
            *slot = (rank, w as f32 / total.max(1) as f32);
            count += 1;
        }
        Self {
            fast,
            network,
            tiles,
            count,
        }
    }

    /// Whether every move from `board` stays within ranks of a nibble.
    pub(crate) fn fits(&self, board: Bits) -> bool {
        (0..4).all(|d| !self.fast.slide(board, d).2)
    }

    #[inline]
    fn value(&self, after: Bits) -> f32 {
        self.network.value(after, 0)
    }
}

impl<M: LadderMoves> Rules for LadderNet<'_, M> {
    type Known = ();

    const DEEPENING: Deepening = Deepening::ByMove;

    /// A turn costs a few of the network's values, and a chance node whose boards are all
    /// valued, not searched, dozens to hundreds: the clock (some 25 ns a look) is read at each
    /// (a search given 20 ms overran it by a third when it read it every 64 of each).
    const CLOCK_EVERY: u64 = 1;

    fn prepare(&self) {}

    /// The best move's points and afterstate's value; a lost position's when none moves.
    fn eval(&self, board: Bits, (): ()) -> f32 {
        let mut best = f32::NEG_INFINITY;
        for dir in Direction::ALL {
            if let Some((after, points)) = self.slide(board, dir) {
                best = best.max(points + self.value(after));
            }
        }
        if best == f32::NEG_INFINITY { 0.0 } else { best }
    }

    /// A lost game earns nothing more: the values count the points still to come.
    fn loss(&self, _: Bits) -> f32 {
        0.0
    }

    #[inline]
    fn key((): ()) -> u16 {
        0
    }

    /// The board the move leaves and the points it earns.
    type Moved = (Bits, f32);

    #[inline]
    fn slide(&self, board: Bits, dir: Direction) -> Option<(Bits, f32)> {
        let d = Direction::ALL.iter().position(|&x| x == dir).unwrap_or(0);
        let (after, points, over) = self.fast.slide(board, d);
        (after != board && !over).then_some((after, points))
    }

    #[inline]
    fn points(&self, &(_, points): &(Bits, f32)) -> f32 {
        points
    }

    /// A tile's arrival after the move: every empty cell alike, each tile by its weight. With
    /// no ply left the board is valued as the move left it.
    #[inline]
    fn chance(
        search: &mut Expectimax<'_, Self>,
        (after, _): (Bits, f32),
        (): (),
        plies: u32,
        prob: f32,
    ) -> f32 {
        let game = search.game;
        let empty = count_empty(after);
        if plies == 0 || empty == 0 {
            search.stop.depth_cut = true;
            return game.value(after);
        }
        // A chance node costs a few of the network's values: the clock is read between them.
        if search.stop.poll() {
            return 0.0;
        }
        let share = prob / empty as f32;
        let mut total = 0.0f32;
        let mut free = after;
        for cell in 0..16 {
            if free & 0xF == 0 {
                if search.stop.aborted {
                    return 0.0;
                }
                for &(rank, p) in &game.tiles[..game.count] {
                    let next = after | u64::from(rank) << (4 * cell);
                    total += p * search.turn(next, (), plies - 1, share * p);
                }
            }
            free >>= 4;
        }
        total / empty as f32
    }
}

#[cfg(test)]
mod tests {
    use tilebox_core::Session;
    use tilebox_sliding::{Board, Cell, Rules, Sliding, builtin_rules, builtin_variant};

    use super::*;
    use crate::bitboard::{cell_offset, move_2048, rank_at};
    use crate::heuristic::loss_2048;
    use crate::network::PlayNetwork;
    use crate::ntuple::Fast;
    use crate::sample::boards;
    use crate::testing::{bits_of, chi_square, to_board};
    use crate::{Engine, Limits};

    #[allow(non_snake_case)]
    fn RULES() -> Rules {
        builtin_rules("2048").unwrap()
    }

    /// Plays seeded games of the engine (the AI choosing at depth 2) and checks every new
    /// tile against the model: a 2 or a 4 in a cell the move left empty, the board otherwise
    /// as the move left it; and, over all steps, 4s and cells about as often as the model
    /// predicts (chi-square with generous bounds; fixed seeds, so deterministic).
    #[test]
    fn the_engine_spawns_only_what_the_model_expects_at_the_rates_it_expects() {
        let mut fours = [[0.0; 2]; 2];
        let mut cells = [[0.0; 16]; 2];
        let (seen, expected) = (0, 1);
        for seed in 0..30 {
            let mut engine = Engine::with_table_bits(14);
            let mut game = Session::<Sliding>::new(builtin_variant("2048").unwrap(), seed).unwrap();
            while let Some(advice) = engine.advise_2048(game.state(), &Limits::fixed_depth(2)) {
                let was = bits_of(game.state().board());
                game.play(advice.best).unwrap();
                let now = bits_of(game.state().board());
                let slid = move_2048(was, advice.best);
                let Cell { row, col } = game.state().last_spawn().unwrap();
                assert_eq!(rank_at(slid, row, col), 0, "{row} {col}");
                let rank = rank_at(now, row, col);
                assert!(rank == 1 || rank == 2, "{rank}");
                assert_eq!(now, slid | u64::from(rank) << cell_offset(row, col));
                let empty = f64::from(count_empty(slid));
                for i in (0..16).filter(|i| (slid >> (4 * i)) & 0xF == 0) {
                    cells[expected][i] += 1.0 / empty;
                }
                cells[seen][4 * row + col] += 1.0;
                fours[expected][0] += 1.0 - f64::from(FOUR_CHANCE);
                fours[expected][1] += f64::from(FOUR_CHANCE);
                fours[seen][usize::from(rank - 1)] += 1.0;
            }
        }
        let spawns = fours[seen][0] + fours[seen][1];
        assert!(spawns > 10_000.0, "{spawns}");
        // Bounds about the 99.9% points for 1 and 15 degrees of freedom (10.8, 37.7); a model
        // with 4s one time in 8 or 12 fails the first.
        let fours = chi_square(&fours[seen], &fours[expected], 5.0);
        let cells = chi_square(&cells[seen], &cells[expected], 5.0);
        eprintln!("{spawns} spawns; chi-square: fours {fours:.2}, cells {cells:.2}");
        assert!(fours < 10.8 && cells < 37.7);
    }

    /// Expectimax written plainly from the rules on the engine's boards (`Rules::slide`,
    /// tiles put in by value), the same plies as the search, leaves scored by the same
    /// `eval_2048` and a lost position by the same `loss_2048`.
    struct Naive {
        loss: f64,
    }

    fn eval(board: &Board) -> f64 {
        f64::from(eval_2048(bits_of(board)))
    }

    impl Naive {
        fn root(&self, board: &Board, plies: u32) -> Vec<f64> {
            Direction::ALL
                .into_iter()
                .map(|dir| RULES().slide(board, dir))
                .filter(|slide| slide.moved)
                .map(|slide| self.spawn(&slide.board, plies - 1))
                .collect()
        }

        fn turn(&self, board: &Board, plies: u32) -> f64 {
            if plies == 0 {
                return eval(board);
            }
            let values = self.root(board, plies);
            values.into_iter().reduce(f64::max).unwrap_or(self.loss)
        }

        /// A 2 (nine times in ten) or a 4 in an empty cell, each cell alike.
        fn spawn(&self, board: &Board, plies: u32) -> f64 {
            if plies == 0 {
                return eval(board);
            }
            let empty: Vec<_> = board.empty_cells().collect();
            let mut sum = 0.0;
            for cell in &empty {
                for (value, p) in [(2, 0.9), (4, 0.1)] {
                    let mut values = RULES().values(board);
                    values[cell.row][cell.col] = value;
                    let next = RULES().board_from_values(&values).unwrap();
                    sum += p * self.turn(&next, plies - 1);
                }
            }
            sum / empty.len() as f64
        }
    }

    /// The search at a fixed depth with no probability cut-off is plain expectimax: at 1 to 4
    /// plies it agrees with [`Naive`] to f32 precision. (Up to 4 plies the only player turns
    /// that use the table are those 2 plies down, so every entry is stored and looked up at
    /// the same depth; without the cut-off, the probability a value was found at does not
    /// matter either: the table changes nothing. Deeper, or with the cut-off, it approximates;
    /// see [`crate::search::Expectimax`].)
    #[test]
    fn the_search_is_plain_expectimax_at_a_fixed_depth() {
        let mut compared = 0;
        for bits in boards(17, 7, 9).take(16) {
            let board = to_board(&RULES(), bits);
            let naive = Naive {
                loss: f64::from(loss_2048(bits)),
            };
            for depth in 1..=4 {
                let limits = Limits {
                    time: None,
                    max_depth: depth,
                    min_probability: 0.0,
                };
                let expected = naive.root(&board, depth);
                let Some(advice) = Engine::with_table_bits(16).advise_2048_bits(bits, &limits)
                else {
                    assert!(expected.is_empty());
                    continue;
                };
                let what = format!("depth {depth} on {:?}", crate::bitboard::decode(bits));
                compared +=
                    crate::testing::assert_values_match(&advice.values, &expected, 1e-5, &what);
            }
        }
        assert!(compared > 150, "{compared}");
    }

    /// Expectimax with a network written plainly from the rules on the engine's boards: each
    /// move earns the engine's points, the tile arrives by the variant's weights in each empty
    /// cell alike, a search that stops after a move values the board the move left by the
    /// network, one that stops at a player's turn takes the best move's points and value, and
    /// a lost position is worth 0.
    struct NaiveNet<'a> {
        rules: Rules,
        network: &'a PlayNetwork,
    }

    impl NaiveNet<'_> {
        fn root(&self, board: &Board, plies: u32) -> Vec<f64> {
            Direction::ALL
                .into_iter()
                .map(|dir| self.rules.slide(board, dir))
                .filter(|slide| slide.moved)
                .map(|slide| slide.gained as f64 + self.spawn(&slide.board, plies - 1))
                .collect()
        }

        fn turn(&self, board: &Board, plies: u32) -> f64 {
            let values = self.root(board, plies.max(1));
            values.into_iter().reduce(f64::max).unwrap_or(0.0)
        }

        fn spawn(&self, board: &Board, plies: u32) -> f64 {
            if plies == 0 {
                let packed = crate::network::pack(board).unwrap();
                return f64::from(self.network.value(packed, 0));
            }
            let empty: Vec<_> = board.empty_cells().collect();
            let weights = self.rules.spawn_weights();
            let total: f64 = weights.iter().map(|&(_, w)| f64::from(w)).sum();
            let mut sum = 0.0;
            for cell in &empty {
                for &(rank, w) in weights {
                    let mut values = self.rules.values(board);
                    values[cell.row][cell.col] = self.rules.value(rank);
                    let next = self.rules.board_from_values(&values).unwrap();
                    sum += f64::from(w) / total * self.turn(&next, plies - 1);
                }
            }
            sum / empty.len() as f64
        }
    }

    /// The network's search of 2048 and a kin (2584, Fibonacci) at a fixed depth with no
    /// probability cut-off is plain expectimax with the network ([`NaiveNet`]), at 1, 3 and 5
    /// plies: one, two and three whole moves. (No board is met at two depths: every tile that
    /// arrives adds to the sum of the tiles, so the table changes nothing.)
    #[test]
    fn the_network_search_is_plain_expectimax_at_a_fixed_depth() {
        let network = crate::testing::small_network(false, 3);
        let mut compared = 0;
        for id in ["2048", "2584"] {
            let rules = builtin_rules(id).unwrap();
            let variant = builtin_variant(id).unwrap();
            let model = crate::VariantModel::new(&rules, 1);
            let fast = Fast::new(&variant, &rules, &model).unwrap();
            let game = LadderNet::new(&fast, NetworkValue::new(&network, |_| [0; 32]));
            let naive = NaiveNet {
                rules: rules.clone(),
                network: &network,
            };
            for (i, bits) in boards(29, 11, 6).take(6).enumerate() {
                let board = to_board(&rules, bits);
                for depth in [1, 3, 5].into_iter().take(if i < 2 { 3 } else { 2 }) {
                    let limits = Limits {
                        time: None,
                        max_depth: depth,
                        min_probability: 0.0,
                    };
                    let expected = naive.root(&board, depth);
                    let Some(advice) = Engine::with_table_bits(16).advise(&game, bits, (), &limits)
                    else {
                        assert!(expected.is_empty());
                        continue;
                    };
                    let what = format!("{id} depth {depth}");
                    compared +=
                        crate::testing::assert_values_match(&advice.values, &expected, 1e-4, &what);
                }
            }
        }
        assert!(compared > 40, "{compared}");
    }
}
