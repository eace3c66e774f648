//! `&'static str` fields read back from serialized data.
//!
//! Decisions and cluster views name their action and resources with `&'static str` (a few
//! fixed words, free to copy). The page's race worker sends them to the page serialized, and
//! the page reads them back: each distinct word is leaked once and shared from then on, so the
//! memory this takes is bounded by the vocabulary (a dozen words), not by the data read.

use std::collections::BTreeSet;
use std::sync::Mutex;

use serde::{Deserialize, Deserializer};

/// A `&'static str` under a name serde's derive does not see through: it would otherwise take
/// the field for one borrowed from the input and require the input to live forever.
pub type Word = &'static str;

static WORDS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// `word` as a `&'static str`: the one kept for it, or a new one kept from now on.
pub fn intern(word: &str) -> &'static str {
    // A panic while the lock was held cannot leave the set half-changed: keep using it.
    let mut words = WORDS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&kept) = words.get(word) {
        return kept;
    }
    let kept: &'static str = Box::leak(word.to_owned().into_boxed_str());
    words.insert(kept);
    kept
}

/// Serde's `deserialize_with` for a `&'static str` field.
pub fn static_str<'de, D: Deserializer<'de>>(deserializer: D) -> Result<&'static str, D::Error> {
    let word = String::deserialize(deserializer)?;
    Ok(intern(&word))
}

/// Serde's `deserialize_with` for a `Vec<&'static str>` field.
pub fn static_strs<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<&'static str>, D::Error> {
    let words = Vec::<String>::deserialize(deserializer)?;
    Ok(words.iter().map(|w| intern(w)).collect())
}

#[cfg(test)]
mod tests {
    use super::intern;

    #[test]
    fn a_word_is_kept_once() {
        let a = intern(&String::from("migrate"));
        let b = intern(&String::from("migrate"));
        assert_eq!(a, "migrate");
        assert!(std::ptr::eq(a, b), "the second read shares the first one's copy");
    }
}
