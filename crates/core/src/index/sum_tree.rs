//! Non-negative weights over fixed positions, with their total and "the position holding the
//! cumulative point u": drawing one position with probability proportional to its weight
//! in O(log n) (the superposed Poisson clocks of GH-RA draw which clock ticks this way).

/// A binary segment tree of `f64` weights over positions `0..len`.
///
/// Every inner node is recomputed as the sum of its two children whenever a leaf below it
/// changes, never adjusted by a difference, so a sum carries no rounding drift however many
/// updates came before: the same weights give the same total bit for bit, whatever their
/// history (a run replayed from a checkpoint, or natively and in WebAssembly).
#[derive(Debug, Clone)]
pub struct SumTree {
    len: usize,
    /// Leaves at `size..size + len` (the rest zero), node `i`'s children at `2i` and `2i + 1`,
    /// the root at 1.
    nodes: Vec<f64>,
    size: usize,
}

impl SumTree {
    /// `len` positions, all of weight 0.
    pub fn new(len: usize) -> Self {
        let size = len.max(1).next_power_of_two();
        Self { len, nodes: vec![0.0; 2 * size], size }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, pos: usize) -> f64 {
        self.nodes[self.size + pos]
    }

    /// The sum of all weights.
    pub fn total(&self) -> f64 {
        self.nodes[1]
    }

    /// Sets the weight at `pos` (finite, ≥ 0). Nothing above it is touched when it is
    /// unchanged.
    pub fn set(&mut self, pos: usize, weight: f64) {
        assert!(pos < self.len, "position {pos} out of range 0..{}", self.len);
        debug_assert!(weight >= 0.0 && weight.is_finite(), "weight {weight}");
        let mut at = self.size + pos;
        if self.nodes[at].to_bits() == weight.to_bits() {
            return;
        }
        self.nodes[at] = weight;
        // Each parent is its two children's sum. The new sum is carried up in a register
        // rather than read back from the node just written; addition is commutative in IEEE
        // 754, so `sum + sibling` has the bits of `left + right` either way.
        let mut sum = weight;
        while at > 1 {
            sum += self.nodes[at ^ 1];
            at /= 2;
            self.nodes[at] = sum;
        }
    }

    /// The position whose cumulative range holds `u` (0 ≤ u < total), and `u`'s offset within
    /// its weight. Positions of weight 0 are never returned; if rounding puts `u` at or past
    /// the end of a range, the walk keeps to the last positive weight on its side, so the
    /// answer is always a position of positive weight (None only when the total is 0).
    pub fn find(&self, mut u: f64) -> Option<(usize, f64)> {
        if self.total() <= 0.0 {
            return None;
        }
        let mut at = 1;
        while at < self.size {
            let (left, right) = (self.nodes[2 * at], self.nodes[2 * at + 1]);
            if (u >= left && right > 0.0) || left <= 0.0 {
                u = (u - left).max(0.0);
                at = 2 * at + 1;
            } else {
                at *= 2;
            }
        }
        Some((at - self.size, u.min(self.nodes[at])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_each_position_by_its_share() {
        let mut t = SumTree::new(5);
        for (i, w) in [1.0, 0.0, 2.0, 0.5, 0.0].into_iter().enumerate() {
            t.set(i, w);
        }
        assert_eq!(t.total(), 3.5);
        assert_eq!(t.find(0.0), Some((0, 0.0)));
        assert_eq!(t.find(0.99).map(|f| f.0), Some(0));
        assert_eq!(t.find(1.0), Some((2, 0.0)));
        assert_eq!(t.find(2.99).map(|f| f.0), Some(2));
        assert_eq!(t.find(3.0), Some((3, 0.0)));
        // Past the end (rounding): the last positive weight, never a zero one.
        assert_eq!(t.find(3.5).map(|f| f.0), Some(3));
        assert_eq!(t.find(1e9).map(|f| f.0), Some(3));
        t.set(0, 0.0);
        t.set(2, 0.0);
        t.set(3, 0.0);
        assert_eq!((t.total(), t.find(0.0)), (0.0, None));
    }

    proptest! {
        /// The total is the plain sum of the weights whatever the order of the updates, and
        /// `find` agrees with a linear scan of the cumulative sums.
        #[test]
        fn agrees_with_a_scan(
            updates in prop::collection::vec((0usize..13, prop_oneof![Just(0.0), 0.0f64..50.0]), 1..80),
            points in prop::collection::vec(0.0f64..1.0, 1..20),
        ) {
            let mut t = SumTree::new(13);
            let mut w = [0.0f64; 13];
            for (i, x) in updates {
                t.set(i, x);
                w[i] = x;
            }
            let mut fresh = SumTree::new(13);
            for (i, x) in w.iter().enumerate() {
                fresh.set(i, *x);
            }
            prop_assert_eq!(t.total().to_bits(), fresh.total().to_bits());
            let total = t.total();
            for p in points {
                let u = p * total;
                let found = t.find(u);
                if total == 0.0 {
                    prop_assert_eq!(found, None);
                    continue;
                }
                let (pos, _) = found.unwrap();
                prop_assert!(w[pos] > 0.0);
                let before: f64 = w[..pos].iter().sum();
                // Within rounding of the scan's answer.
                prop_assert!(u >= before - 1e-9 * total && u <= before + w[pos] + 1e-9 * total, "u {} at {} [{}, {})", u, pos, before, before + w[pos]);
            }
        }
    }
}
