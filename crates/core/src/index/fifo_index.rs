//! A FIFO queue that can find "the earliest element no larger than c" in O(log n).

use std::cell::OnceCell;

use super::MinTree;

/// A first-in-first-out sequence of items, each with a `u64` key (a job size), addressed by
/// increasing positions (job ids or per-queue sequence numbers).
///
/// Besides lookup by position, it answers "the earliest item after a position whose key is at
/// most `bound`" with a segment tree over a sliding window of positions. The window slides
/// forward as the oldest items leave, so memory follows the span between the oldest and the
/// newest item, not the total ever pushed.
///
/// The segment tree is built by the first search and kept up to date from then on: a queue
/// that is only ever looked up by position (the engine's waiting queue under a policy that
/// keeps its own queues) never pays for it.
#[derive(Debug, Clone)]
pub struct FifoIndex<T> {
    /// Position of window slot 0.
    base: u64,
    /// Key of each window slot, `u64::MAX` where no item is.
    keys: Vec<u64>,
    items: Vec<Option<T>>,
    /// The keys as a segment tree, once searched.
    tree: OnceCell<MinTree>,
    len: usize,
    /// The next position accepted by `push` must be at least this.
    next: u64,
}

impl<T: Copy> Default for FifoIndex<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> FifoIndex<T> {
    const MIN_WINDOW: usize = 64;

    pub fn new() -> Self {
        Self {
            base: 0,
            keys: vec![u64::MAX; Self::MIN_WINDOW],
            items: vec![None; Self::MIN_WINDOW],
            tree: OnceCell::new(),
            len: 0,
            next: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `item` at `pos`, which must exceed every position pushed before.
    pub fn push(&mut self, pos: u64, key: u64, item: T) {
        assert!(pos >= self.next, "positions must increase");
        assert!(key < u64::MAX, "key u64::MAX is reserved");
        if pos - self.base >= self.items.len() as u64 {
            self.rebuild(pos);
        }
        let slot = (pos - self.base) as usize;
        self.set_key(slot, key);
        self.items[slot] = Some(item);
        self.len += 1;
        self.next = pos + 1;
    }

    pub fn get(&self, pos: u64) -> Option<(u64, T)> {
        let slot = self.slot(pos)?;
        self.items[slot].map(|item| (self.keys[slot], item))
    }

    pub fn remove(&mut self, pos: u64) -> Option<(u64, T)> {
        let slot = self.slot(pos)?;
        let item = self.items[slot].take()?;
        let key = self.keys[slot];
        self.set_key(slot, u64::MAX);
        self.len -= 1;
        Some((key, item))
    }

    /// The oldest item: `(position, key, item)`.
    pub fn head(&self) -> Option<(u64, u64, T)> {
        self.first_at_most(0, u64::MAX - 1)
    }

    /// The earliest item at a position `≥ from` whose key is at most `bound`.
    pub fn first_at_most(&self, from: u64, bound: u64) -> Option<(u64, u64, T)> {
        let from = from.saturating_sub(self.base) as usize;
        let slot = self.tree().first_at_most(from, bound)?;
        let item = self.items[slot].expect("a set key has an item");
        Some((self.base + slot as u64, self.keys[slot], item))
    }

    /// The smallest key of any item.
    pub fn min_key(&self) -> Option<u64> {
        let min = self.tree().min();
        (min < u64::MAX).then_some(min)
    }

    /// Items in FIFO order: `(position, key, item)`.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64, T)> + '_ {
        self.items
            .iter()
            .zip(&self.keys)
            .enumerate()
            .filter_map(move |(slot, (item, &key))| item.map(|it| (self.base + slot as u64, key, it)))
    }

    fn tree(&self) -> &MinTree {
        self.tree.get_or_init(|| {
            let mut tree = MinTree::new(self.keys.len());
            for (slot, &key) in self.keys.iter().enumerate() {
                if key < u64::MAX {
                    tree.set(slot, key);
                }
            }
            tree
        })
    }

    fn set_key(&mut self, slot: usize, key: u64) {
        self.keys[slot] = key;
        if let Some(tree) = self.tree.get_mut() {
            tree.set(slot, key);
        }
    }

    fn slot(&self, pos: u64) -> Option<usize> {
        let off = pos.checked_sub(self.base)?;
        (off < self.items.len() as u64).then_some(off as usize)
    }

    /// Slides the window so that it starts at the oldest live item and holds `pos` with room
    /// to spare. The new window is at least twice the live span, so rebuilds cost O(1) per
    /// push amortised.
    fn rebuild(&mut self, pos: u64) {
        let oldest = self.items.iter().position(Option::is_some);
        let start = oldest.map_or(pos, |slot| self.base + slot as u64);
        let span = (pos - start + 1) as usize;
        let window = (2 * span).next_power_of_two().max(Self::MIN_WINDOW);
        let mut keys = vec![u64::MAX; window];
        let mut items = vec![None; window];
        for (p, key, item) in self.iter() {
            let slot = (p - start) as usize;
            keys[slot] = key;
            items[slot] = Some(item);
        }
        self.base = start;
        self.keys = keys;
        self.items = items;
        // A searched index stays searchable: rebuild its tree over the new window.
        if self.tree.take().is_some() {
            self.tree();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn head_and_search() {
        let mut q = FifoIndex::new();
        q.push(0, 5, 'a');
        q.push(1, 2, 'b');
        q.push(4, 3, 'c');
        assert_eq!(q.head(), Some((0, 5, 'a')));
        assert_eq!(q.first_at_most(0, 3), Some((1, 2, 'b')));
        assert_eq!(q.first_at_most(2, 3), Some((4, 3, 'c')));
        assert_eq!(q.remove(1), Some((2, 'b')));
        assert_eq!(q.first_at_most(0, 3), Some((4, 3, 'c')));
        assert_eq!(q.remove(1), None);
        assert_eq!(q.len(), 2);
    }

    proptest! {
        /// Random pushes and removals agree with a plain vector model, across many window
        /// slides, whether the index is searched all along or only at the end (its tree built
        /// late, after the window has slid).
        #[test]
        fn matches_a_vector_model(ops in prop::collection::vec((any::<bool>(), 0u64..10, 0u64..4), 1..400)) {
            let mut q = FifoIndex::new();
            let mut late = FifoIndex::new();
            let mut model: Vec<(u64, u64)> = Vec::new();
            let mut pos = 0;
            for (push, key, gap) in ops {
                if push || model.is_empty() {
                    pos += gap;
                    q.push(pos, key, pos);
                    late.push(pos, key, pos);
                    model.push((pos, key));
                    pos += 1;
                } else {
                    let victim = model.remove((key as usize) % model.len());
                    prop_assert_eq!(q.remove(victim.0), Some((victim.1, victim.0)));
                    prop_assert_eq!(late.remove(victim.0), Some((victim.1, victim.0)));
                }
                prop_assert_eq!(q.len(), model.len());
                prop_assert_eq!(q.min_key(), model.iter().map(|(_, k)| *k).min());
                let expect = model.iter().find(|(_, k)| *k <= 4).map(|(p, k)| (*p, *k, *p));
                prop_assert_eq!(q.first_at_most(0, 4), expect);
                prop_assert_eq!(q.head(), model.first().map(|(p, k)| (*p, *k, *p)));
            }
            for (from, bound) in [(0, 4), (pos / 2, 2), (0, 9)] {
                let expect = model.iter().find(|(p, k)| *p >= from && *k <= bound).map(|(p, k)| (*p, *k, *p));
                prop_assert_eq!(late.first_at_most(from, bound), expect);
            }
            let all: Vec<_> = late.iter().map(|(p, k, _)| (p, k)).collect();
            prop_assert_eq!(all, model);
        }
    }
}
