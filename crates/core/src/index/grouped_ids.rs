//! Small ids grouped by a key: "the smallest key at least x, and its lowest id".

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

/// Ids in `0..n` (servers), each under one `u64` key (its residual capacity), answering "the
/// smallest key ≥ x, and the lowest id under it" (best fit: the fullest server that fits, the
/// lowest index among equals, SPEC 2.2.2).
///
/// It answers what an ordered set of `(key, id)` answers, with one map entry per distinct key.
/// When jobs come in a few sizes (the papers' A1, A2, A6) servers share a few residuals, and
/// moving a server from one to another is a lookup in a map of a few entries and two bit flips;
/// when every server has a residual of its own the cost is that of the ordered set.
#[derive(Debug, Clone)]
pub struct GroupedIds {
    groups: BTreeMap<u64, Group>,
    /// Ids are below this.
    n: usize,
}

/// The ids under one key (boxed beyond one, so that a map entry stays two words).
#[derive(Debug, Clone)]
enum Group {
    One(u32),
    /// Sorted, at most [`FEW`] ids.
    #[allow(clippy::box_collection, reason = "a boxed Vec keeps the enum, and each map entry, two words")]
    Few(Box<Vec<u32>>),
    Many(Box<Bits>),
}

/// Largest sorted list before a group turns into a bit set ...
const FEW: usize = 64;
/// ... and the size at which a bit set turns back (apart, so that a group at the threshold
/// does not convert back and forth).
const BACK_TO_FEW: usize = 16;

impl GroupedIds {
    /// Ids `0..n`, none present.
    pub fn new(n: usize) -> Self {
        assert!(n <= Bits::CAPACITY, "at most {} ids", Bits::CAPACITY);
        Self { groups: BTreeMap::new(), n }
    }

    /// Puts `id` under `key`; it must not be present under any key.
    pub fn insert(&mut self, key: u64, id: u32) {
        debug_assert!((id as usize) < self.n);
        let group = match self.groups.entry(key) {
            Entry::Vacant(v) => {
                v.insert(Group::One(id));
                return;
            }
            Entry::Occupied(o) => o.into_mut(),
        };
        match group {
            Group::One(other) => {
                let mut ids = vec![*other, id];
                ids.sort_unstable();
                *group = Group::Few(Box::new(ids));
            }
            Group::Few(ids) => {
                let at = ids.binary_search(&id).expect_err("id inserted twice");
                if ids.len() < FEW {
                    ids.insert(at, id);
                } else {
                    let mut bits = Box::new(Bits::new(self.n));
                    for &i in ids.iter().chain([&id]) {
                        bits.insert(i);
                    }
                    *group = Group::Many(bits);
                }
            }
            Group::Many(bits) => bits.insert(id),
        }
    }

    /// Takes `id` out from under `key`; false if it is not there.
    pub fn remove(&mut self, key: u64, id: u32) -> bool {
        let Entry::Occupied(mut entry) = self.groups.entry(key) else { return false };
        let emptied = match entry.get_mut() {
            Group::One(only) => {
                if *only != id {
                    return false;
                }
                true
            }
            Group::Few(ids) => {
                let Ok(at) = ids.binary_search(&id) else { return false };
                ids.remove(at);
                if ids.len() == 1 {
                    let last = ids[0];
                    *entry.get_mut() = Group::One(last);
                }
                false
            }
            Group::Many(bits) => {
                if !bits.remove(id) {
                    return false;
                }
                if bits.len < BACK_TO_FEW {
                    let ids = bits.ids();
                    *entry.get_mut() = Group::Few(Box::new(ids));
                }
                false
            }
        };
        if emptied {
            entry.remove();
        }
        true
    }

    /// The smallest key ≥ `x` and the lowest id under it.
    pub fn first_at_least(&self, x: u64) -> Option<(u64, u32)> {
        self.groups.range(x..).next().map(|(&key, group)| (key, group.lowest()))
    }

    /// What [`GroupedIds::first_at_least`] answers, and the runner-up: the next id under the
    /// same key, else the lowest id under the next key (for explaining a best fit).
    pub fn first_two_at_least(&self, x: u64) -> [Option<(u64, u32)>; 2] {
        let mut groups = self.groups.range(x..);
        let Some((&key, group)) = groups.next() else { return [None, None] };
        let first = group.lowest();
        let second = group.after(first).map(|id| (key, id)).or_else(|| groups.next().map(|(&k, g)| (k, g.lowest())));
        [Some((key, first)), second]
    }
}

impl Group {
    /// The lowest id above `id` in the group.
    fn after(&self, id: u32) -> Option<u32> {
        match self {
            Group::One(_) => None,
            Group::Few(ids) => ids.iter().copied().find(|&i| i > id),
            Group::Many(bits) => bits.after(id),
        }
    }

    fn lowest(&self) -> u32 {
        match self {
            Group::One(id) => *id,
            Group::Few(ids) => ids[0],
            Group::Many(bits) => bits.lowest().expect("a group is never empty"),
        }
    }
}

/// A set of ids below [`Bits::CAPACITY`] as a three-level bit map: the lowest member is three
/// `trailing_zeros` away, and adding or removing one touches at most three words.
#[derive(Debug, Clone)]
struct Bits {
    words: Vec<u64>,
    /// Bit w: `words[w]` is non-zero.
    summary: Vec<u64>,
    /// Bit s: `summary[s]` is non-zero.
    top: u64,
    len: usize,
}

impl Bits {
    const CAPACITY: usize = 64 * 64 * 64;

    fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        Self { words: vec![0; words], summary: vec![0; words.div_ceil(64)], top: 0, len: 0 }
    }

    fn insert(&mut self, id: u32) {
        let (w, s) = (id as usize / 64, id as usize / 4096);
        debug_assert_eq!(self.words[w] & (1 << (id % 64)), 0);
        self.words[w] |= 1 << (id % 64);
        self.summary[s] |= 1 << (w % 64);
        self.top |= 1 << s;
        self.len += 1;
    }

    fn remove(&mut self, id: u32) -> bool {
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

    fn lowest(&self) -> Option<u32> {
        if self.top == 0 {
            return None;
        }
        let s = self.top.trailing_zeros() as usize;
        let w = s * 64 + self.summary[s].trailing_zeros() as usize;
        Some((w * 64) as u32 + self.words[w].trailing_zeros())
    }

    /// The lowest member above `id`: its own word first, then the words after it (a walk
    /// only explanations take, never a scheduling decision).
    fn after(&self, id: u32) -> Option<u32> {
        let w = id as usize / 64;
        let above = self.words[w] & (u64::MAX << (id % 64)) & !(1 << (id % 64));
        if above != 0 {
            return Some((w * 64) as u32 + above.trailing_zeros());
        }
        self.words
            .iter()
            .enumerate()
            .skip(w + 1)
            .find(|(_, word)| **word != 0)
            .map(|(v, word)| (v * 64) as u32 + word.trailing_zeros())
    }

    /// The members in increasing order.
    fn ids(&self) -> Vec<u32> {
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

    #[test]
    fn smallest_key_at_least_then_lowest_id() {
        let mut g = GroupedIds::new(10);
        for (id, key) in [(0, 35), (1, 50), (2, 31), (3, 31), (4, 100)] {
            g.insert(key, id);
        }
        assert_eq!(g.first_at_least(30), Some((31, 2)));
        assert!(g.remove(31, 2));
        assert_eq!(g.first_at_least(30), Some((31, 3)));
        assert!(!g.remove(31, 2));
        assert_eq!(g.first_at_least(51), Some((100, 4)));
        assert_eq!(g.first_at_least(101), None);
    }

    proptest! {
        /// Against an ordered set of (key, id), through every representation of a group (many
        /// ids under few keys, one id under many keys).
        #[test]
        fn matches_an_ordered_set(
            n in 1usize..300,
            keys in 1u64..8,
            ops in prop::collection::vec((0usize..300, 0u64..8, 0u64..9), 1..800),
        ) {
            let mut g = GroupedIds::new(n);
            let mut key_of: Vec<Option<u64>> = vec![None; n];
            let mut model: BTreeSet<(u64, u32)> = BTreeSet::new();
            for (id, key, x) in ops {
                let (id, key) = (id % n, key % keys);
                match key_of[id] {
                    Some(old) => {
                        prop_assert!(g.remove(old, id as u32));
                        prop_assert!(!g.remove(old, id as u32));
                        model.remove(&(old, id as u32));
                        key_of[id] = None;
                    }
                    None => {
                        g.insert(key, id as u32);
                        model.insert((key, id as u32));
                        key_of[id] = Some(key);
                    }
                }
                prop_assert_eq!(g.first_at_least(x), model.range((x, 0)..).next().copied());
                let mut two = model.range((x, 0)..).copied();
                prop_assert_eq!(g.first_two_at_least(x), [two.next(), two.next()]);
            }
        }
    }
}
