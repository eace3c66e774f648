//! Segment trees over a fixed number of positions.

/// Minimum segment tree over positions `0..len` holding `u64` keys.
///
/// Answers "the first position at or after `from` whose key is at most `bound`" in
/// O(log len). Unused positions hold `u64::MAX`.
#[derive(Debug, Clone)]
pub struct MinTree {
    len: usize,
    /// Number of leaves, a power of two ≥ len. Node 1 is the root; leaves start at `size`.
    size: usize,
    nodes: Vec<u64>,
}

impl MinTree {
    /// A tree over `len` positions, all holding `u64::MAX`.
    pub fn new(len: usize) -> Self {
        let size = len.max(1).next_power_of_two();
        Self { len, size, nodes: vec![u64::MAX; 2 * size] }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, pos: usize) -> u64 {
        self.nodes[self.size + pos]
    }

    pub fn set(&mut self, pos: usize, key: u64) {
        assert!(pos < self.len, "position {pos} out of range 0..{}", self.len);
        let mut i = self.size + pos;
        self.nodes[i] = key;
        // Carry the minimum up; stop where an ancestor already holds it (nothing above can
        // change then).
        let mut m = key;
        while i > 1 {
            m = m.min(self.nodes[i ^ 1]);
            i /= 2;
            if self.nodes[i] == m {
                break;
            }
            self.nodes[i] = m;
        }
    }

    /// The smallest key (`u64::MAX` if none is set).
    pub fn min(&self) -> u64 {
        self.nodes[1]
    }

    /// The first position `p ≥ from` with `key(p) ≤ bound`.
    ///
    /// Bottom-up: climb from the leaf at `from` to the first node right of it whose subtree
    /// holds a key ≤ `bound`, then descend to that subtree's leftmost such leaf. Both walks
    /// are loops over at most log₂(len) levels, with no recursion.
    pub fn first_at_most(&self, from: usize, bound: u64) -> Option<usize> {
        if from >= self.len || self.nodes[1] > bound {
            return None;
        }
        let mut i = self.size + from;
        if self.nodes[i] > bound {
            loop {
                // A right child's right neighbour lies under another parent: climb first.
                while i & 1 == 1 {
                    if i == 1 {
                        return None;
                    }
                    i >>= 1;
                }
                i += 1;
                if self.nodes[i] <= bound {
                    break;
                }
            }
            while i < self.size {
                i *= 2;
                if self.nodes[i] > bound {
                    i += 1;
                }
            }
        }
        let pos = i - self.size;
        // Positions past `len` hold u64::MAX; they match only a bound of u64::MAX, and then
        // no earlier position did.
        (pos < self.len).then_some(pos)
    }
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
        #[test]
        fn agrees_with_a_scan(keys in prop::collection::vec(0u64..20, 1..40), from in 0usize..45, bound in 0u64..20) {
            let mut t = MinTree::new(keys.len());
            for (i, k) in keys.iter().enumerate() { t.set(i, *k); }
            let expect = keys.iter().enumerate().skip(from).find(|(_, k)| **k <= bound).map(|(i, _)| i);
            prop_assert_eq!(t.first_at_most(from, bound), expect);
        }
    }
}
