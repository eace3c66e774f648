//! Segment trees over a fixed number of positions.

/// Children per node of [`MinTree`]: eight `u64`s, 64 bytes side by side.
const FANOUT: usize = 8;

/// Minimum tree over positions `0..len` holding `u64` keys.
///
/// Answers "the first position at or after `from` whose key is at most `bound`" in
/// O(log len). Unused positions hold `u64::MAX`.
///
/// Each node has eight children, stored side by side: level 0 holds the keys, and each level
/// above holds the minimum of each run of eight entries below, up to a top level of eight
/// entries. At L = 1000 that is four levels where a binary tree has ten, and the eight
/// entries a step reads lie side by side (one or two cache lines). A binary tree's walk took
/// an unpredictable branch per level, and VQS's room trees asked about once per job
/// (issue 19).
#[derive(Debug, Clone)]
pub struct MinTree {
    len: usize,
    /// All levels, the keys first; every level's length is a multiple of [`FANOUT`].
    nodes: Vec<u64>,
    /// Where each level starts in `nodes`, and one past the last level's end.
    starts: Vec<usize>,
    /// The minimum of the top level: the smallest key.
    root: u64,
}

impl MinTree {
    /// A tree over `len` positions, all holding `u64::MAX`.
    pub fn new(len: usize) -> Self {
        let mut starts = vec![0];
        let mut width = len.max(1).next_multiple_of(FANOUT);
        loop {
            starts.push(starts[starts.len() - 1] + width);
            if width == FANOUT {
                break;
            }
            width = (width / FANOUT).next_multiple_of(FANOUT);
        }
        Self { len, nodes: vec![u64::MAX; starts[starts.len() - 1]], starts, root: u64::MAX }
    }

    /// A tree over `len` positions holding `keys` at `0..keys.len()` and `u64::MAX` after
    /// them, built bottom up in O(len) (setting the keys one by one climbs from each).
    pub fn from_keys(len: usize, keys: &[u64]) -> Self {
        assert!(keys.len() <= len, "{} keys for {len} positions", keys.len());
        let mut tree = Self::new(len);
        tree.nodes[..keys.len()].copy_from_slice(keys);
        for level in 1..=tree.levels() {
            let (below, above) = (tree.starts[level - 1], tree.starts[level]);
            for run in 0..(above - below) / FANOUT {
                let min = min_of(&tree.nodes[below + run * FANOUT..below + (run + 1) * FANOUT]);
                if level == tree.levels() {
                    tree.root = min;
                } else {
                    tree.nodes[above + run] = min;
                }
            }
        }
        tree
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, pos: usize) -> u64 {
        self.nodes[pos]
    }

    pub fn set(&mut self, pos: usize, key: u64) {
        assert!(pos < self.len, "position {pos} out of range 0..{}", self.len);
        let (mut old, mut new) = (std::mem::replace(&mut self.nodes[pos], key), key);
        // Carry the change up while it changes the parent's minimum. A lower key is the
        // parent's new minimum if below it; a higher one matters only if the old key was the
        // minimum, and then the run of eight is read again.
        let mut at = pos;
        for level in 1..=self.levels() {
            let run = self.starts[level - 1] + (at & !(FANOUT - 1));
            at /= FANOUT;
            // Above the top level of eight is the root.
            let top = level == self.levels();
            let min = if top { self.root } else { self.nodes[self.starts[level] + at] };
            let carried = if new < min {
                new
            } else if old == min && new > old {
                min_of(&self.nodes[run..run + FANOUT])
            } else {
                return;
            };
            if carried == min {
                return;
            }
            if top {
                self.root = carried;
            } else {
                self.nodes[self.starts[level] + at] = carried;
            }
            (old, new) = (min, carried);
        }
    }

    /// The smallest key (`u64::MAX` if none is set).
    pub fn min(&self) -> u64 {
        self.root
    }

    fn levels(&self) -> usize {
        self.starts.len() - 1
    }

    /// The first position `p ≥ from` with `key(p) ≤ bound`.
    ///
    /// Climb: look at the rest of `from`'s run of eight, then at the runs to its right one
    /// level up, and so on, to the first entry whose subtree holds a key ≤ `bound`; then
    /// descend to that subtree's leftmost such key. Both walks are loops over the levels.
    pub fn first_at_most(&self, from: usize, bound: u64) -> Option<usize> {
        if from >= self.len || self.root > bound {
            return None;
        }
        let (mut level, mut at) = (0, from);
        loop {
            let (start, end) = (self.starts[level], self.starts[level + 1]);
            // `at` can reach or pass the level's end when the run before it was the last; what
            // lies past it is padding.
            if start + at < end {
                let run = start + (at & !(FANOUT - 1));
                if let Some(i) = first_at_most_in(&self.nodes[run..run + FANOUT], at % FANOUT, bound) {
                    at = (at & !(FANOUT - 1)) + i;
                    break;
                }
            }
            level += 1;
            if level == self.levels() {
                return None;
            }
            at = at / FANOUT + 1;
        }
        while level > 0 {
            level -= 1;
            let run = self.starts[level] + at * FANOUT;
            let i = first_at_most_in(&self.nodes[run..run + FANOUT], 0, bound)
                .expect("a parent's key is its children's minimum");
            at = at * FANOUT + i;
        }
        // A safeguard: positions past `len` hold u64::MAX, which no bound below u64::MAX
        // matches, and a bound of u64::MAX is answered by `from` itself.
        (at < self.len).then_some(at)
    }
}

/// The smallest of one run of keys.
#[inline]
fn min_of(run: &[u64]) -> u64 {
    run.iter().fold(u64::MAX, |min, &key| if key < min { key } else { min })
}

/// The first index `≥ from` of one run of eight keys whose key is at most `bound`: every key
/// compared at once into a bit mask, with no branch per key.
#[inline]
fn first_at_most_in(run: &[u64], from: usize, bound: u64) -> Option<usize> {
    let mut mask = 0u32;
    for (i, &key) in run.iter().enumerate() {
        mask |= u32::from(key <= bound) << i;
    }
    mask &= u32::MAX << from;
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// Maximum segment tree: "the first position at or after `from` whose key is at least
/// `bound`". Stored as a [`MinTree`] of complemented keys. Unused positions hold 0.
#[derive(Debug, Clone)]
pub struct MaxTree(MinTree);

impl MaxTree {
    pub fn new(len: usize) -> Self {
        Self(MinTree::new(len))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, pos: usize) -> u64 {
        u64::MAX - self.0.get(pos)
    }

    pub fn set(&mut self, pos: usize, key: u64) {
        self.0.set(pos, u64::MAX - key);
    }

    /// The largest key (0 if none is set).
    pub fn max(&self) -> u64 {
        u64::MAX - self.0.min()
    }

    /// The first position `p ≥ from` with `key(p) ≥ bound`.
    pub fn first_at_least(&self, from: usize, bound: u64) -> Option<usize> {
        self.0.first_at_most(from, u64::MAX - bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_first_position_at_most() {
        let mut t = MinTree::new(5);
        for (i, k) in [7, 3, 9, 3, 1].into_iter().enumerate() {
            t.set(i, k);
        }
        assert_eq!(t.first_at_most(0, 3), Some(1));
        assert_eq!(t.first_at_most(2, 3), Some(3));
        assert_eq!(t.first_at_most(0, 0), None);
        assert_eq!(t.first_at_most(5, 100), None);
        assert_eq!(t.min(), 1);
    }

    #[test]
    fn max_tree_mirrors() {
        let mut t = MaxTree::new(3);
        t.set(0, 4);
        t.set(2, 9);
        assert_eq!(t.first_at_least(0, 5), Some(2));
        assert_eq!(t.first_at_least(0, 4), Some(0));
        assert_eq!(t.get(1), 0);
        assert_eq!(t.max(), 9);
    }

    proptest! {
        /// A tree built from its keys at once is the tree their `set`s build.
        #[test]
        fn from_keys_is_set_one_by_one(
            len in prop_oneof![1usize..20, 56usize..72, 500usize..600],
            keys in prop::collection::vec(0u64..50, 0..600),
        ) {
            let keys = &keys[..keys.len().min(len)];
            let keys: Vec<u64> = keys.iter().map(|&k| if k == 49 { u64::MAX } else { k }).collect();
            let mut by_set = MinTree::new(len);
            for (i, &k) in keys.iter().enumerate() { by_set.set(i, k); }
            let built = MinTree::from_keys(len, &keys);
            prop_assert_eq!(&built.nodes, &by_set.nodes);
            prop_assert_eq!(built.root, by_set.root);
        }

        #[test]
        fn agrees_with_a_scan(keys in prop::collection::vec(0u64..20, 1..40), from in 0usize..45, bound in 0u64..20) {
            let mut t = MinTree::new(keys.len());
            for (i, k) in keys.iter().enumerate() { t.set(i, *k); }
            let expect = keys.iter().enumerate().skip(from).find(|(_, k)| **k <= bound).map(|(i, _)| i);
            prop_assert_eq!(t.first_at_most(from, bound), expect);
        }

        /// Keys raised and lowered at random over up to four levels, the top one part empty
        /// or not (lengths on both sides of 8, 64 and 512): every query agrees with a scan.
        #[test]
        fn agrees_with_a_scan_after_updates(
            len in prop_oneof![1usize..20, 56usize..72, 500usize..600],
            updates in prop::collection::vec((0usize..600, 0u64..50), 0..400),
            queries in prop::collection::vec((0usize..610, 0u64..50), 1..40),
        ) {
            let mut t = MinTree::new(len);
            let mut keys = vec![u64::MAX; len];
            for (pos, key) in updates {
                let (pos, key) = (pos % len, if key == 49 { u64::MAX } else { key });
                t.set(pos, key);
                keys[pos] = key;
            }
            prop_assert_eq!(t.min(), keys.iter().copied().min().unwrap());
            for (from, bound) in queries.into_iter().chain([(0, u64::MAX), (len - 1, u64::MAX), (len, u64::MAX)]) {
                let expect = keys.iter().enumerate().skip(from).find(|(_, k)| **k <= bound).map(|(i, _)| i);
                prop_assert_eq!(t.first_at_most(from, bound), expect, "from {} bound {}", from, bound);
            }
            for (pos, key) in keys.iter().enumerate() {
                prop_assert_eq!(t.get(pos), *key);
            }
        }
    }
}
