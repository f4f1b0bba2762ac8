//! A training game's course between its stretches of play: the restarts it may still make
//! (Matsuzaki's, [`super::train`]) and how its first play ended. Shared by the engine's path
//! ([`super::train`]) and the bitboards' ([`super::fast`]), below both.

/// The most times a game is played again ([`super::train::Method::Restarts`]).
pub const MAX_RESTARTS: u64 = 8;

/// The fewest moves a stretch of play has for the game to be played again from its middle.
pub const MIN_STRETCH: usize = 64;

/// One game played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// Its index in the run (its seed's position).
    pub index: u64,
    /// Its final score (of its first play, from the start).
    pub score: u64,
    /// Whether it made the winning tile (in its first play).
    pub won: bool,
    /// Moves played and learned from, restarts included.
    pub moves: u64,
}

/// The seed of restart `restart` (1, 2, …) of a game seeded `seed`.
pub fn restart_seed(seed: u64, restart: u64) -> u64 {
    seed ^ restart.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A game in play between its stretches: what it has learned from and how it stands.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Course {
    index: u64,
    /// The game's seed.
    pub(crate) seed: u64,
    moves: u64,
    /// The score and win of the game's first play, from its start, once it ended.
    pub(crate) first: Option<(u64, bool)>,
    /// Restarts made.
    pub(crate) restarts: u64,
    /// Where the stretch under way began, in the path (its start and the position after each
    /// of its moves).
    began: usize,
}

impl Course {
    pub(crate) fn new(index: u64, seed: u64) -> Course {
        Course {
            index,
            seed,
            moves: 0,
            first: None,
            restarts: 0,
            began: 0,
        }
    }

    /// Counts a stretch of `played` moves, which ended where `end` says (the score and win, read
    /// for the first stretch only); returns where the path is played again from (its middle,
    /// which the path is cut back to and reseeded), or `None` when the game is over.
    pub(crate) fn stretch_done(
        &mut self,
        played: u64,
        keep: bool,
        end: impl FnOnce() -> (u64, bool),
    ) -> Option<usize> {
        self.moves += played;
        self.first.get_or_insert_with(end);
        let stretch = usize::try_from(played).unwrap_or(usize::MAX);
        if !keep || self.restarts == MAX_RESTARTS || stretch < MIN_STRETCH {
            return None;
        }
        self.restarts += 1;
        let middle = self.began + stretch / 2;
        self.began = middle;
        Some(middle)
    }

    /// The game as it ended.
    pub(crate) fn game(&self) -> Game {
        let (score, won) = self.first.unwrap_or_default();
        Game {
            index: self.index,
            score,
            won,
            moves: self.moves,
        }
    }
}
