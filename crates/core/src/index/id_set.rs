//! A set of small ids with "the lowest member at or after i" in three word reads.

/// A set of ids below [`IdSet::CAPACITY`] as a three-level bit map: the lowest member, or the
/// lowest at or after an id, is at most three `trailing_zeros` away, and adding or removing one
/// touches at most three words. Where a segment tree over 0/1 flags ("the next empty server")
/// walks up to 2·log₂ n nodes, this reads three words.
#[derive(Debug, Clone)]
pub struct IdSet {
    words: Vec<u64>,
    /// Bit w: `words[w]` is non-zero.
    summary: Vec<u64>,
    /// Bit s: `summary[s]` is non-zero.
    top: u64,
    len: usize,
}

impl IdSet {
    pub const CAPACITY: usize = 64 * 64 * 64;

    /// Ids `0..n` (at most [`IdSet::CAPACITY`]), none present.
    pub fn new(n: usize) -> Self {
        assert!(n <= Self::CAPACITY, "at most {} ids", Self::CAPACITY);
        let words = n.div_ceil(64);
        Self { words: vec![0; words], summary: vec![0; words.div_ceil(64)], top: 0, len: 0 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `id`; false if it was present.
    pub fn insert(&mut self, id: u32) -> bool {
        let (w, s) = (id as usize / 64, id as usize / 4096);
        if self.words[w] & (1 << (id % 64)) != 0 {
            return false;
        }
        self.words[w] |= 1 << (id % 64);
        self.summary[s] |= 1 << (w % 64);
        self.top |= 1 << s;
        self.len += 1;
        true
    }

    /// Takes `id` out; false if it was absent.
    pub fn remove(&mut self, id: u32) -> bool {
        let (w, s) = (id as usize / 64, id as usize / 4096);
        let bit = 1 << (id % 64);
        if self.words[w] & bit == 0 {
            return false;
        }
        self.words[w] &= !bit;
        if self.words[w] == 0 {
            self.summary[s] &= !(1 << (w % 64));
            if self.summary[s] == 0 {
                self.top &= !(1 << s);
            }
        }
        self.len -= 1;
        true
    }

    pub fn lowest(&self) -> Option<u32> {
        if self.top == 0 {
            return None;
        }
        let s = self.top.trailing_zeros() as usize;
        let w = s * 64 + self.summary[s].trailing_zeros() as usize;
        Some((w * 64) as u32 + self.words[w].trailing_zeros())
    }

    pub fn highest(&self) -> Option<u32> {
        if self.top == 0 {
            return None;
        }
        let s = (u64::BITS - 1 - self.top.leading_zeros()) as usize;
        let w = s * 64 + (u64::BITS - 1 - self.summary[s].leading_zeros()) as usize;
        Some((w * 64) as u32 + (u64::BITS - 1 - self.words[w].leading_zeros()))
    }

    pub fn contains(&self, id: u32) -> bool {
        self.words.get(id as usize / 64).is_some_and(|word| word & (1 << (id % 64)) != 0)
    }

    /// The lowest member ≥ `id`: the rest of its word, else the next non-zero word its summary
    /// word names, else the next summary word the top names. Three levels, never a scan.
    pub fn first_from(&self, id: u32) -> Option<u32> {
        /// The bits of `word` at positions ≥ `bit` (0 when `bit` is 64).
        fn from(word: u64, bit: usize) -> u64 {
            word & u64::MAX.checked_shl(bit as u32).unwrap_or(0)
        }
        let w = id as usize / 64;
        let word = from(*self.words.get(w)?, id as usize % 64);
        if word != 0 {
            return Some((w * 64) as u32 + word.trailing_zeros());
        }
        let s = w / 64;
        let later = from(self.summary[s], w % 64 + 1);
        let w = if later != 0 {
            s * 64 + later.trailing_zeros() as usize
        } else {
            let top = from(self.top, s + 1);
            if top == 0 {
                return None;
            }
            let s = top.trailing_zeros() as usize;
            s * 64 + self.summary[s].trailing_zeros() as usize
        };
        Some((w * 64) as u32 + self.words[w].trailing_zeros())
    }

    /// The members in increasing order.
    pub fn ids(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.len);
        for (w, &word) in self.words.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                out.push((w * 64) as u32 + word.trailing_zeros());
                word &= word - 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The bit map's "lowest member ≥ id" across words and summary words, against a
        /// sorted set.
        #[test]
        fn first_from_matches_a_set(
            n in 1usize..IdSet::CAPACITY,
            ids in prop::collection::vec(any::<u32>(), 0..200),
            queries in prop::collection::vec(any::<u32>(), 1..100),
        ) {
            let mut bits = IdSet::new(n);
            let mut model = BTreeSet::new();
            for id in ids {
                let id = id % n as u32;
                if model.insert(id) {
                    bits.insert(id);
                }
            }
            for q in queries {
                let q = q % (n as u32 + 2);
                prop_assert_eq!(bits.first_from(q), model.range(q..).next().copied());
                prop_assert_eq!(bits.contains(q), model.contains(&q));
            }
            prop_assert_eq!(bits.lowest(), model.first().copied());
            prop_assert_eq!(bits.highest(), model.last().copied());
        }
    }
}
