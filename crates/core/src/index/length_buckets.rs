//! Members (servers) kept in order of a count that moves by one at a time (a queue length),
//! for join-the-shortest-queue with uniformly random ties (GH-RA RES-18).
//!
//! A min-heap would answer "a shortest queue" but not "a uniformly random one among all the
//! shortest", which needs every minimiser; with all queues empty that is every server. Here
//! the members sit in one array sorted by count, with the first position of each count
//! recorded, so a count changing by ±1 is one swap and the minimisers are a prefix slice:
//! O(1) per change and O(1) per random pick.

/// Members `0..n`, each with a count, sorted by count.
#[derive(Debug, Clone)]
pub struct LengthBuckets {
    /// Members in ascending order of count.
    order: Vec<u32>,
    /// Position of each member in `order`.
    pos: Vec<u32>,
    count: Vec<u32>,
    /// `start[c]`: how many members have a count below `c` (so bucket c is
    /// `order[start[c]..start[c + 1]]`). Grows as counts grow.
    start: Vec<u32>,
}

impl LengthBuckets {
    /// `n` members, all with count 0.
    pub fn new(n: usize) -> Self {
        let n32 = u32::try_from(n).expect("member count fits u32");
        Self { order: (0..n32).collect(), pos: (0..n32).collect(), count: vec![0; n], start: vec![0, n32] }
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    pub fn count(&self, member: usize) -> u32 {
        self.count[member]
    }

    /// The members with the smallest count (empty only when there are no members).
    pub fn shortest(&self) -> &[u32] {
        let Some(&first) = self.order.first() else { return &[] };
        let min = self.count[first as usize] as usize;
        &self.order[..self.start[min + 1] as usize]
    }

    /// Adds one to the count of `member`.
    pub fn increment(&mut self, member: usize) {
        let c = self.count[member] as usize;
        if self.start.len() < c + 3 {
            self.start.push(self.order.len() as u32);
        }
        // The last member of bucket c changes places with `member`; the bucket boundary then
        // moves down by one, putting `member` first in bucket c + 1.
        let last = self.start[c + 1] as usize - 1;
        self.swap(self.pos[member] as usize, last);
        self.start[c + 1] -= 1;
        self.count[member] += 1;
    }

    /// Takes one from the count of `member` (which must be positive).
    pub fn decrement(&mut self, member: usize) {
        let c = self.count[member] as usize;
        assert!(c > 0, "count of member {member} is already 0");
        let first = self.start[c] as usize;
        self.swap(self.pos[member] as usize, first);
        self.start[c] += 1;
        self.count[member] -= 1;
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.order.swap(a, b);
        self.pos[self.order[a] as usize] = a as u32;
        self.pos[self.order[b] as usize] = b as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sorted(v: &[u32]) -> Vec<u32> {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn shortest_follows_the_counts() {
        let mut b = LengthBuckets::new(4);
        assert_eq!(sorted(b.shortest()), [0, 1, 2, 3]);
        b.increment(2);
        b.increment(0);
        assert_eq!(sorted(b.shortest()), [1, 3]);
        b.increment(1);
        b.increment(3);
        assert_eq!(sorted(b.shortest()), [0, 1, 2, 3]);
        b.increment(3);
        b.decrement(0);
        assert_eq!(sorted(b.shortest()), [0]);
        assert_eq!(b.count(3), 2);
        assert!(LengthBuckets::new(0).shortest().is_empty());
    }

    proptest! {
        #[test]
        fn matches_a_plain_scan(ops in proptest::collection::vec((0usize..6, any::<bool>()), 0..300)) {
            let mut b = LengthBuckets::new(6);
            let mut counts = [0u32; 6];
            for (member, up) in ops {
                if up {
                    b.increment(member);
                    counts[member] += 1;
                } else if counts[member] > 0 {
                    b.decrement(member);
                    counts[member] -= 1;
                }
                let min = *counts.iter().min().unwrap();
                let expected: Vec<u32> = (0..6).filter(|&m| counts[m as usize] == min).collect();
                prop_assert_eq!(sorted(b.shortest()), expected);
                for (m, &count) in counts.iter().enumerate() {
                    prop_assert_eq!(b.count(m), count);
                }
            }
        }
    }
}
