//! The transposition table: a fixed-size, always-replace hash table of searched positions.
//!
//! An entry remembers a position (the board and up to 16 more bits of state, such as the Threes
//! deck and preview), the depth it was searched to, whether that search was complete (no leaf of
//! it was evaluated for lack of depth), and its value. A lookup hits only for the same position
//! searched at least as deep. Entries are tagged with the search that wrote them, so a new
//! search ignores old entries without clearing the table: every search's result is a function of
//! its input alone, whatever the table held before.

/// One slot: the board, then the value's bits, the extra key, the depth byte and the search tag.
type Slot = [u64; 2];

/// The deepest depth an entry records; the depth byte's top bit is the "complete" flag.
pub const MAX_TABLE_DEPTH: u8 = 0x7F;

/// The depth byte's flag for a complete search.
const COMPLETE: u8 = 0x80;

/// What the table knows of a position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// The position's value.
    pub value: f32,
    /// Whether the search that found the value evaluated no leaf for lack of depth (every leaf
    /// was lost or below the probability cut-off). A search that reuses an incomplete entry has
    /// depth-limited leaves too, though it does not visit them.
    pub complete: bool,
}

/// A transposition table.
#[derive(Debug, Clone)]
pub struct TransTable {
    slots: Vec<Slot>,
    /// `slots.len() - 1`; the length is a power of two.
    mask: u64,
    /// The tag of the current search; never 0, which marks an empty slot.
    generation: u8,
}

impl TransTable {
    /// A table of `2^bits` slots (16 bytes each), `bits` clamped to 10..=26.
    pub fn new(bits: u32) -> Self {
        let bits = bits.clamp(10, 26);
        let len = 1usize << bits;
        Self {
            // Zeroed memory: every slot starts empty (generation 0).
            slots: vec![[0, 0]; len],
            mask: (len - 1) as u64,
            generation: 0,
        }
    }

    /// Starts a new search: entries written before are ignored from now on.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The tags wrapped: old entries could pass for new ones, so clear them.
            self.slots.fill([0, 0]);
            self.generation = 1;
        }
    }

    #[inline]
    fn index(&self, board: u64, extra: u16) -> usize {
        let h = (board ^ (u64::from(extra) << 48 | u64::from(extra)))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h ^ (h >> 29)) & self.mask) as usize
    }

    /// The entry for this position if it was searched at least `depth` deep (at most
    /// [`MAX_TABLE_DEPTH`]).
    #[inline]
    pub fn get(&self, board: u64, extra: u16, depth: u8) -> Option<Entry> {
        let [key, meta] = *self.slots.get(self.index(board, extra))?;
        let stored_extra = (meta >> 32) as u16;
        let depth_byte = (meta >> 48) as u8;
        let tag = (meta >> 56) as u8;
        (key == board
            && tag == self.generation
            && stored_extra == extra
            && depth_byte & MAX_TABLE_DEPTH >= depth)
            .then(|| Entry {
                value: f32::from_bits(meta as u32),
                complete: depth_byte & COMPLETE != 0,
            })
    }

    /// Stores an entry for a position searched `depth` deep (at most [`MAX_TABLE_DEPTH`]),
    /// replacing whatever shared the slot.
    #[inline]
    pub fn put(&mut self, board: u64, extra: u16, depth: u8, entry: Entry) {
        let flag = if entry.complete { COMPLETE } else { 0 };
        let depth_byte = depth.min(MAX_TABLE_DEPTH) | flag;
        let meta = u64::from(entry.value.to_bits())
            | (u64::from(extra) << 32)
            | (u64::from(depth_byte) << 48)
            | (u64::from(self.generation) << 56);
        let index = self.index(board, extra);
        if let Some(slot) = self.slots.get_mut(index) {
            *slot = [board, meta];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: f32, complete: bool) -> Entry {
        Entry { value, complete }
    }

    #[test]
    fn hits_only_the_same_position_at_enough_depth_in_the_same_search() {
        let mut tt = TransTable::new(10);
        tt.new_search();
        tt.put(0x1234, 7, 3, entry(1.5, false));
        assert_eq!(tt.get(0x1234, 7, 3), Some(entry(1.5, false)));
        assert_eq!(tt.get(0x1234, 7, 2), Some(entry(1.5, false)));
        assert_eq!(tt.get(0x1234, 7, 4), None);
        assert_eq!(tt.get(0x1234, 8, 3), None);
        assert_eq!(tt.get(0x1235, 7, 3), None);
        tt.put(0x1234, u16::MAX, MAX_TABLE_DEPTH, entry(-1.0, false));
        assert_eq!(
            tt.get(0x1234, u16::MAX, MAX_TABLE_DEPTH),
            Some(entry(-1.0, false))
        );
        tt.new_search();
        assert_eq!(tt.get(0x1234, 7, 3), None);
        // 255 more searches wrap the tag; the table is cleared rather than confused.
        for _ in 0..255 {
            tt.new_search();
        }
        assert_eq!(tt.get(0x1234, 7, 3), None);
    }

    #[test]
    fn the_complete_flag_is_kept_apart_from_the_depth() {
        let mut tt = TransTable::new(10);
        tt.new_search();
        tt.put(9, 0, MAX_TABLE_DEPTH, entry(-2.0, true));
        assert_eq!(tt.get(9, 0, MAX_TABLE_DEPTH), Some(entry(-2.0, true)));
        tt.put(9, 0, 5, entry(3.0, true));
        assert_eq!(tt.get(9, 0, 5), Some(entry(3.0, true)));
        // The flag does not pass for depth: 5 plies do not answer 6.
        assert_eq!(tt.get(9, 0, 6), None);
        tt.put(9, 0, 5, entry(3.0, false));
        assert_eq!(tt.get(9, 0, 1), Some(entry(3.0, false)));
    }
}
