//! The n-tuple network: evaluations a second, and whole training moves a second.
//!
//! Run: `cargo bench -p tilebox-ai --bench network`

fn main() {}
