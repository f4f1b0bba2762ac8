//! Strike 9 (being written).
