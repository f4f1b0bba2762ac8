//! Tilebox in a browser page: the entry point of the app built for `wasm32-unknown-unknown`
//! (`tools/web/build.sh` builds it and writes the page). The page's `index.html` has a canvas
//! with the id `tilebox`; the generated script's `init()` calls [`page::start`] (wasm-bindgen's
//! start function), which runs the same `TileboxApp` as the desktop in that canvas, its files
//! kept in the browser's storage.
//!
//! On the desktop this crate is empty: the desktop app's entry is `app/src/main.rs`.

#[cfg(target_arch = "wasm32")]
mod page;
