//! The drawing pieces every screen and view shares: colours and the look of the widgets
//! ([`theme`]), keys turned into commands ([`input`]), what a sliding tile writes at its size
//! ([`tile_label`]), the window of a second copy ([`refusal`]), and a message begun with a
//! capital (`capitalized`).

pub mod input;
pub mod refusal;
pub mod theme;
pub mod tile_label;

/// `text` with its first letter a capital: a message that begins a sentence.
pub(crate) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
