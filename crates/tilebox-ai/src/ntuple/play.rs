//! The learning player's play: [`SlidingPlayer::advise_learned`], the sliding player's search
//! with a network as its evaluation. On bitboards for Threes ([`ThreesNet`]) and for the
//! variants of the trainer's fast path, 2048 and its kin ([`LadderNet`] on [`Fast`]'s tables),
//! deepening by whole moves and spending the time given; the generic player's search for the
//! other 4×4 variants. It sits here, beside the fast path whose tables it reads, above the
//! sliding player whose engines it drives.

use std::sync::Arc;

use tilebox_sliding::SlidingState;

use super::fast::{Fast, standard_indices};
use crate::bitboard::{self, Bits};
use crate::generic::{GenericEngine, Grid, Learned, SlidingModel};
use crate::network::{self, PlayNetwork};
use crate::search::NetworkValue;
use crate::threes::ThreesNet;
use crate::twenty48::{LadderMoves, LadderNet};
use crate::{Advice, Bitboard, Engine, Limits, SlidingPlayer, VariantModel};

/// A variant's rules as the network's bitboard search reads them.
#[derive(Debug)]
enum BitboardRules {
    /// 2048 and its kin: the trainer's fast path's tables.
    Ladder(Fast),
    /// Threes: what each tile counts on the board.
    Threes([f32; 16]),
    /// Neither: the generic search plays it.
    Neither,
}

impl BitboardRules {
    /// Those of `state`'s variant.
    fn of(state: &SlidingState) -> BitboardRules {
        let rules = state.rules();
        let variant = rules.variant();
        if Bitboard::of(variant) == Some(Bitboard::Threes) {
            // The points a move earns are read off the board's tiles, as Threes scores; a
            // variant that plays as Threes but counts merges is the generic search's.
            return match rules.scores_board() {
                true => BitboardRules::Threes(crate::threes::tile_points(rules)),
                false => BitboardRules::Neither,
            };
        }
        network::trainable(variant)
            .then(|| Fast::new(variant, rules, &VariantModel::new(rules, 1)))
            .flatten()
            .map_or(BitboardRules::Neither, BitboardRules::Ladder)
    }
}

/// The fast path's tables as the network's bitboard search reads them.
impl LadderMoves for Fast {
    #[inline]
    fn slide(&self, board: Bits, d: usize) -> (Bits, f32, bool) {
        Fast::slide(self, board, d)
    }

    fn spawns(&self) -> (&[(u8, u32)], u32) {
        Fast::spawns(self)
    }
}

impl SlidingPlayer {
    /// The best move for `state` within `limits`, the search's leaves valued by `network`
    /// (trained on this state's variant: the caller checks, see
    /// [`super::file::load_player`]) rather than by the heuristic, on every 4×4
    /// variant: on bitboards for Threes and for 2048 and its kin (the trainer's fast path:
    /// weighted spawns on any empty cell, no preview), deepening by whole moves and spending
    /// its time ([`crate::search::Deepening::ByMove`]); the generic player's search
    /// ([`GenericEngine::advise_learned`]) for the others, and where a tile beyond a nibble's
    /// rank 15 is on the board or can be made. `None` only when no swipe moves.
    pub fn advise_learned(
        &mut self,
        state: &SlidingState,
        limits: &Limits,
        network: &Arc<PlayNetwork>,
    ) -> Option<Advice> {
        if state.rules().has_move_rules() || state.rules().has_pipeline() {
            // No network learns such rules (`ntuple::trainable`).
            return self.advise(state, limits);
        }
        if state.lost() {
            return None;
        }
        if let Some(advice) = self.advise_learned_bitboard(state, limits, network) {
            return Some(advice);
        }
        let model = VariantModel::of_state(state);
        let later = model
            .later_tiles()
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|_| state.rules().variant().preview)
            .map_or(0, |(rank, _)| rank.clamp(1, 15));
        let learned = Learned {
            network: Arc::clone(network),
            first: network::preview_class(state),
            later,
        };
        self.generic
            .get_or_insert_with(GenericEngine::new)
            .advise_learned(
                &model,
                &Grid::from_board_by(state.board(), |r| model.grid_rank(r)),
                limits,
                &learned,
            )
    }

    /// The network's bitboard search's answer, when one plays this variant (Threes, or a
    /// variant of the trainer's fast path) and the board and its moves fit four bits a cell;
    /// `None` otherwise (and when no move is legal).
    pub(crate) fn advise_learned_bitboard(
        &mut self,
        state: &SlidingState,
        limits: &Limits,
        network: &PlayNetwork,
    ) -> Option<Advice> {
        let variant = state.rules().variant();
        let bits = bitboard::encode(state.board())?;
        let known = self
            .learned
            .as_ref()
            .filter(|(v, _)| v == variant)
            .and_then(|(_, tables)| Arc::clone(tables).downcast::<BitboardRules>().ok());
        let tables = match known {
            Some(tables) => tables,
            None => {
                let tables = Arc::new(BitboardRules::of(state));
                self.learned = Some((variant.clone(), tables.clone()));
                tables
            }
        };
        let engine = self.bitboard.get_or_insert_with(Engine::new);
        match &*tables {
            BitboardRules::Ladder(fast) => {
                let game = LadderNet::new(fast, NetworkValue::new(network, standard_indices));
                if !game.fits(bits) {
                    return None;
                }
                engine.advise(&game, bits, (), limits)
            }
            BitboardRules::Threes(points) => {
                let known = crate::sliding::threes_known(state)?;
                let game = ThreesNet::new(NetworkValue::new(network, standard_indices), points);
                engine.advise(&game, bits, known, limits)
            }
            BitboardRules::Neither => None,
        }
    }
}
