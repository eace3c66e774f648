//! Waiting jobs by size, first come first served among equal sizes.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, VecDeque};

/// Job ids: numbered in arrival order, so comparing them compares arrival.
type JobId = u64;

/// Job ids grouped by size: "the largest size at most r, and its earliest job" (best fit from
/// a server's view, SPEC 2.2.1) is one ordered-map lookup and a look at a queue's head.
///
/// It holds the same set as an ordered set of `(size, Reverse(id))` and answers the same
/// questions, with one map entry per distinct size instead of one per job. With the papers'
/// discrete size laws (two sizes in A1, A2 and A6) a job's arrival and start are an append and
/// a pop next to a lookup in a map of a few entries; with continuous sizes each size holds one
/// job and the cost is that of the ordered set.
///
/// Memory is what the waiting-queue limit multiplies (issue 18): a map entry is two words (a
/// size and either its only job's id or the index of a shared queue), and a shared queue
/// holds one word per job, its liveness in the top bit. Emptied shared queues are reused, so a
/// size that comes and goes every slot allocates nothing.
///
/// Ids of one size are kept in increasing order (ids increase with arrival). Every policy
/// starts the earliest job of a size first, which pops the head; removing any other job leaves
/// a tombstone that is dropped when it reaches the head, and a queue with more tombstones than
/// jobs is compacted, so a removal costs O(log n) amortised in any order.
#[derive(Debug, Clone, Default)]
pub struct SizeOrder {
    /// Size → its only job's id, or `SHARED | i` for the jobs in `shared[i]`.
    buckets: BTreeMap<u64, u64>,
    shared: Vec<Shared>,
    /// Indices of emptied entries of `shared`, for reuse.
    free: Vec<usize>,
    len: usize,
}

/// Marks a bucket value as the index of a shared queue, and a shared queue's entry as removed.
/// Job ids stay below 2^63 (one per arrival).
const SHARED: u64 = 1 << 63;
const REMOVED: u64 = 1 << 63;

/// The ids of one size in increasing order, removed ones flagged (the head is always live),
/// and the number of live ones.
#[derive(Debug, Clone, Default)]
struct Shared {
    ids: VecDeque<u64>,
    live: usize,
}

/// Emptied shared queues that keep their memory for reuse; beyond these, an emptied queue's
/// memory is returned.
const SPARE: usize = 16;

impl SizeOrder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds job `id` of size `size`; `id` must exceed every id of that size present.
    pub fn insert(&mut self, size: u64, id: JobId) {
        assert!(id < SHARED, "job ids stay below 2^63");
        self.len += 1;
        let value = match self.buckets.entry(size) {
            Entry::Vacant(v) => {
                v.insert(id);
                return;
            }
            Entry::Occupied(o) => o.into_mut(),
        };
        if *value & SHARED == 0 {
            let first = *value;
            assert!(id > first, "ids of one size must increase");
            let i = self.free.pop().unwrap_or_else(|| {
                self.shared.push(Shared::default());
                self.shared.len() - 1
            });
            let shared = &mut self.shared[i];
            shared.ids.extend([first, id]);
            shared.live = 2;
            *value = SHARED | i as u64;
        } else {
            let shared = &mut self.shared[(*value & !SHARED) as usize];
            assert!(shared.ids.back().is_none_or(|&last| id > last & !REMOVED), "ids of one size must increase");
            shared.ids.push_back(id);
            shared.live += 1;
        }
    }

    /// Removes job `id` of size `size`; false if it is not here.
    pub fn remove(&mut self, size: u64, id: JobId) -> bool {
        let Entry::Occupied(entry) = self.buckets.entry(size) else { return false };
        let value = *entry.get();
        if value & SHARED == 0 {
            if value != id {
                return false;
            }
            entry.remove();
        } else {
            let i = (value & !SHARED) as usize;
            let shared = &mut self.shared[i];
            if !shared.remove(id) {
                return false;
            }
            if shared.live == 0 {
                entry.remove();
                shared.ids.clear();
                if self.free.len() >= SPARE {
                    shared.ids = VecDeque::new();
                }
                self.free.push(i);
            }
        }
        self.len -= 1;
        true
    }

    /// The largest size at most `room`, with its earliest job: `(size, id)`.
    #[inline]
    pub fn largest_at_most(&self, room: u64) -> Option<(u64, JobId)> {
        self.buckets.range(..=room).next_back().map(|(&size, &value)| (size, self.head(value)))
    }

    /// The smallest size present.
    #[inline]
    pub fn min_size(&self) -> Option<u64> {
        self.buckets.first_key_value().map(|(&size, _)| size)
    }

    /// The earliest live id of a bucket.
    #[inline]
    fn head(&self, value: u64) -> JobId {
        if value & SHARED == 0 {
            value
        } else {
            *self.shared[(value & !SHARED) as usize].ids.front().expect("a bucket is never empty")
        }
    }
}

impl Shared {
    fn remove(&mut self, id: JobId) -> bool {
        if self.ids.front() == Some(&id) {
            self.ids.pop_front();
        } else {
            // Removed entries keep their id's order under the flag, so the search masks it.
            let Ok(at) = self.ids.binary_search_by_key(&id, |&entry| entry & !REMOVED) else { return false };
            if self.ids[at] & REMOVED != 0 {
                return false;
            }
            self.ids[at] |= REMOVED;
        }
        self.live -= 1;
        while self.ids.front().is_some_and(|&entry| entry & REMOVED != 0) {
            self.ids.pop_front();
        }
        if self.ids.len() > 2 * self.live + 8 {
            self.ids.retain(|&entry| entry & REMOVED == 0);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn largest_fitting_then_earliest() {
        let mut s = SizeOrder::new();
        for (id, size) in [(0, 30), (1, 45), (2, 60), (3, 45)] {
            s.insert(size, id);
        }
        assert_eq!(s.largest_at_most(50), Some((45, 1)));
        assert!(s.remove(45, 1));
        assert_eq!(s.largest_at_most(50), Some((45, 3)));
        assert!(!s.remove(45, 1));
        assert_eq!(s.largest_at_most(29), None);
        assert_eq!(s.min_size(), Some(30));
        assert_eq!(s.len(), 3);
    }

    proptest! {
        /// Against an ordered set of (size, Reverse(id)), with removals in the policies' order
        /// and in any order.
        #[test]
        fn matches_an_ordered_set(ops in prop::collection::vec((0u8..3, 0u64..6, 0usize..50), 1..600)) {
            let mut s = SizeOrder::new();
            let mut model: BTreeSet<(u64, Reverse<JobId>)> = BTreeSet::new();
            let mut next = 0;
            for (op, size, pick) in ops {
                if op == 0 || model.is_empty() {
                    s.insert(size, next);
                    model.insert((size, Reverse(next)));
                    next += 1;
                } else {
                    let (size, id) = if op == 1 {
                        // The earliest job of the largest size that fits, as the policies do.
                        let fitting = model.range(..=(size, Reverse(0))).next_back().copied();
                        let (size, Reverse(id)) = fitting.unwrap_or(*model.first().unwrap());
                        (size, id)
                    } else {
                        let &(size, Reverse(id)) = model.iter().nth(pick % model.len()).unwrap();
                        (size, id)
                    };
                    prop_assert!(s.remove(size, id));
                    prop_assert!(!s.remove(size, id));
                    model.remove(&(size, Reverse(id)));
                }
                prop_assert_eq!(s.len(), model.len());
                prop_assert_eq!(s.min_size(), model.first().map(|&(size, _)| size));
                for room in 0..7 {
                    let expect = model.range(..=(room, Reverse(0))).next_back().map(|&(size, Reverse(id))| (size, id));
                    prop_assert_eq!(s.largest_at_most(room), expect);
                }
            }
        }
    }
}
