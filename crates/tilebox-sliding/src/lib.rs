//! One sliding-tile engine, driven by data: 2048, Threes and every other sliding variant.
//!
//! A [`Variant`] describes a game as `docs/variants.md` says: the ladder of tile values, the
//! merge rules, the motion, the spawns, the start, the preview, the win and the score. The
//! built-in variants are data files ([`builtin_variants`]), read by the same code as a player's
//! own ([`load_dir`], which refuses a bad file with one line naming the file and the field,
//! [`Refusal`]).
//!
//! A board ([`Board`]) is a square grid of tile *ranks*, ladder positions from 1 (0 is empty),
//! so no value can overflow and one grid serves every variant. [`Rules`] is a variant compiled
//! for play: what a rank is worth and how a single line moves (merge tables, one line routine per
//! motion, over a slice of ranks ordered from the wall outward); a single routine maps the four
//! [`Direction`]s onto that line move and reports what moved ([`Slide`], [`Motion`]).
//!
//! On top sits one game kind, [`Sliding`], a [`tilebox_core::Puzzle`] whose params are a
//! [`Variant`]. Its states carry their own [`tilebox_core::GameRng`], so a seed and a list of
//! moves replay a game exactly; 2048 and Threes give exactly the games of the first release.

mod board;
mod builtin;
pub mod condition;
mod direction;
mod engine;
#[cfg(test)]
mod first_release;
mod line;
mod load;
pub mod numtheory;
mod slide;
mod sliding;
pub mod variant;

pub use board::{Board, BoardError, Cell, Rank};
pub use builtin::{
    Builtin, COMPENDIUM, COMPENDIUM_PAGES, builtin, builtin_group, builtin_ladder, builtin_rules,
    builtin_variant, builtin_variants, builtins,
};
pub use direction::Direction;
pub use engine::{Rules, move_order};
pub use line::LineMotion;
pub use load::{
    Bases, Kinds, Loaded, MAX_FILE_BYTES, Refusal, check_file, check_file_with_id, free_id,
    load_dir, load_texts, read_bounded, renamed_id,
};
pub use slide::{Motion, Slide, slide_board};
pub use sliding::{NextCard, Sliding, SlidingState};
pub use variant::{Variant, VariantError};

/// The rules of a registry entry of the [`Sliding`] kind (its preset's variant, compiled);
/// `None` for an entry of another kind.
pub fn rules_of(entry: &tilebox_core::Entry) -> Option<Rules> {
    entry
        .params::<Sliding>()
        .and_then(|v| Rules::cached(v).ok())
}
