//! A seeded stream of game-like packed boards: the one generator of the tests and the benches
//! (which include this file by path, so it uses nothing from the crate).

/// Boards packed as in `bitboard` (four bits a cell): every cell a rank in `1..=max`, then
/// `empties` cells drawn at random emptied (the same cell may be drawn twice, so a board may
/// have fewer). The same seed gives the same boards.
pub fn boards(seed: u64, empties: usize, max: u64) -> impl Iterator<Item = u64> {
    // xorshift64: fast, seeded, and good enough to spread boards around.
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    std::iter::repeat_with(move || {
        let mut b = 0u64;
        for cell in 0..16 {
            b |= (1 + next() % max) << (4 * cell);
        }
        for _ in 0..empties {
            b &= !(0xF << (4 * (next() % 16)));
        }
        b
    })
}
