//! What a line move reports: the tiles that moved along one line, as positions counted from the
//! wall. The line moves themselves are in [`crate::Rules`] (one per motion), and
//! [`crate::slide`] maps the four directions onto them.

/// A tile that moved along a line, as positions counted from the wall.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineMotion {
    /// Where the tile was.
    pub from: usize,
    /// Where it ended, alone or merged into the tile that ended there.
    pub to: usize,
    /// It merged into the tile that ended at `to`: the tiles farther from the wall that join the
    /// one nearest it (one for a 2-tile rule, two for a 3-tile rule).
    pub merged: bool,
}
