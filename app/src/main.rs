//! The Tilebox app (work in progress: see issue 3).
fn main() {}
