//! The web side of the storage seam: the player's files kept by name in a store of keys and
//! texts, as a browser's `localStorage` keeps them, in the same JSON formats as the files on the
//! desktop ([`super::storage::Storage::in_keys`]).
//!
//! A file `saves/2048.json` of the data folder is the key `tilebox/saves/2048.json`; its text is
//! the file's bytes, which are UTF-8 (JSON, or the history's JSON lines). There is no temporary
//! file and no rename: setting a key replaces its text whole in one step, as an atomic write
//! does. [`MemoryKeys`] is the same store in memory, for the tests of this side on the desktop;
//! [`LocalStorage`] is the browser's.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

/// The prefix of every key Tilebox keeps: other pages of the same site keep theirs apart.
pub const PREFIX: &str = "tilebox/";

/// A store of texts by key, as `localStorage` is. Each call is one step: a text is set whole or
/// not at all.
pub trait Keys: Send + Sync {
    /// The text kept under `key`, if any. `Err` says in words why the store cannot be read.
    fn get(&self, key: &str) -> Result<Option<String>, String>;
    /// Keeps `text` under `key`, replacing what was there. `Err` (a full store, say) leaves
    /// what was there.
    fn set(&self, key: &str, text: &str) -> Result<(), String>;
    /// Forgets `key`.
    fn remove(&self, key: &str) -> Result<(), String>;
    /// Every key kept, in no particular order.
    fn keys(&self) -> Vec<String>;
}

/// Texts by key in memory: the web side of the storage seam, as the desktop's tests run it.
#[derive(Debug, Default)]
pub struct MemoryKeys {
    texts: Mutex<BTreeMap<String, String>>,
    /// How many characters it holds at most, counting keys and texts (as a browser bounds its
    /// storage): a `set` past it is refused.
    limit: Option<usize>,
}

impl MemoryKeys {
    /// An empty store that holds at most `limit` characters of keys and texts.
    pub fn with_limit(limit: usize) -> Self {
        Self {
            limit: Some(limit),
            ..Self::default()
        }
    }

    fn texts(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        self.texts.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Keys for MemoryKeys {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        Ok(self.texts().get(key).cloned())
    }

    fn set(&self, key: &str, text: &str) -> Result<(), String> {
        let mut texts = self.texts();
        if let Some(limit) = self.limit {
            let others: usize = texts
                .iter()
                .filter(|(k, _)| k.as_str() != key)
                .map(|(k, t)| k.len() + t.len())
                .sum();
            if others + key.len() + text.len() > limit {
                return Err("the browser's storage for this page is full".to_string());
            }
        }
        texts.insert(key.to_string(), text.to_string());
        Ok(())
    }

    fn remove(&self, key: &str) -> Result<(), String> {
        self.texts().remove(key);
        Ok(())
    }

    fn keys(&self) -> Vec<String> {
        self.texts().keys().cloned().collect()
    }
}

/// The browser's `localStorage` of the page's site. It holds nothing itself: each call asks the
/// page's window for its storage, so it is the same store in every part of the app.
#[cfg(target_arch = "wasm32")]
#[derive(Debug, Default, Clone, Copy)]
pub struct LocalStorage;

#[cfg(target_arch = "wasm32")]
impl LocalStorage {
    fn storage() -> Result<web_sys::Storage, String> {
        web_sys::window()
            .ok_or("the page has no window")?
            .local_storage()
            .ok()
            .flatten()
            .ok_or_else(|| "the browser keeps no storage for this page".to_string())
    }
}

#[cfg(target_arch = "wasm32")]
fn js_words(error: wasm_bindgen::JsValue) -> String {
    // A full store is a QuotaExceededError: said in words a player reads.
    let text = format!("{error:?}");
    if text.contains("Quota") {
        "the browser's storage for this page is full".to_string()
    } else {
        format!("the browser refused: {text}")
    }
}

#[cfg(target_arch = "wasm32")]
impl Keys for LocalStorage {
    fn get(&self, key: &str) -> Result<Option<String>, String> {
        Self::storage()?.get_item(key).map_err(js_words)
    }

    fn set(&self, key: &str, text: &str) -> Result<(), String> {
        Self::storage()?.set_item(key, text).map_err(js_words)
    }

    fn remove(&self, key: &str) -> Result<(), String> {
        Self::storage()?.remove_item(key).map_err(js_words)
    }

    fn keys(&self) -> Vec<String> {
        let Ok(storage) = Self::storage() else {
            return Vec::new();
        };
        let len = storage.length().unwrap_or(0);
        (0..len)
            .filter_map(|i| storage.key(i).ok().flatten())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_past_the_limit_is_refused_and_keeps_what_was_there() {
        let keys = MemoryKeys::with_limit(20);
        keys.set("a", "0123456789").unwrap();
        assert!(keys.set("b", "0123456789").is_err());
        assert_eq!(keys.get("a").unwrap().as_deref(), Some("0123456789"));
        assert_eq!(keys.get("b").unwrap(), None);
        // Replacing a text counts the new one only.
        keys.set("a", "abcdefghijklmnopqr").unwrap();
        assert_eq!(keys.keys(), vec!["a".to_string()]);
    }
}
