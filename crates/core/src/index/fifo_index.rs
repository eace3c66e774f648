//! A FIFO queue that can find "the earliest element no larger than c" in O(log n).

use std::cell::{Cell, OnceCell};

use super::MinTree;

/// Entries per block of the search tree: the tree holds one minimum per block, and a search
/// scans at most two blocks besides its O(log n) walk.
const BLOCK: usize = 16;

/// Removed entries kept at least before a compaction.
const MIN_DEAD: usize = 1024;

/// A first-in-first-out sequence of items, each with a `u64` key (a job size), addressed by
/// increasing positions (job ids or per-queue sequence numbers).
///
/// Entries are stored densely in push order, three parallel vectors (positions, keys, items);
/// a position is found by a search that starts next to the entry found last, when the position
/// sought is close to that one's, else where it would be if the positions were evenly spread
/// ([`search_spread`]). A removed entry leaves a tombstone (key `u64::MAX`),
/// and the vectors are compacted when tombstones reach a quarter of the live entries, so memory
/// follows the number of items present (16 bytes plus the item's size per item, up to half as
/// much again for tombstones and growth slack), however long ago the oldest one arrived. Removals and compactions cost O(log n)
/// amortised.
///
/// "The earliest item after a position whose key is at most `bound`" is answered by a segment
/// tree over block minima, built by the first search and kept up to date from then on: a
/// queue that is only ever looked up by position (the engine's waiting queue under a policy
/// that keeps its own queues) never pays for it.
#[derive(Debug, Clone)]
pub struct FifoIndex<T> {
    positions: Vec<u64>,
    /// Key of each entry, `u64::MAX` for a removed one.
    keys: Vec<u64>,
    items: Vec<T>,
    /// Entries before this one are all removed.
    start: usize,
    len: usize,
    /// The minimum of each block of keys and how many entries hold it, once searched.
    minima: OnceCell<BlockMinima>,
    /// The next position accepted by `push` must be at least this.
    next: u64,
    /// The entry the last search found (or where it would be): where the next one starts when
    /// it looks for a position close by.
    finger: Cell<usize>,
}

impl<T: Copy> Default for FifoIndex<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> FifoIndex<T> {
    pub fn new() -> Self {
        Self {
            positions: Vec::new(),
            keys: Vec::new(),
            items: Vec::new(),
            start: 0,
            len: 0,
            minima: OnceCell::new(),
            next: 0,
            finger: Cell::new(0),
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
        let entry = self.keys.len();
        if entry == self.keys.capacity() {
            // Grow by a quarter rather than double: memory stays within 25% of what the
            // entries need, and pushes stay O(1) amortised.
            let more = (entry / 4).max(64);
            self.positions.reserve_exact(more);
            self.keys.reserve_exact(more);
            self.items.reserve_exact(more);
        }
        self.positions.push(pos);
        self.keys.push(key);
        self.items.push(item);
        self.len += 1;
        self.next = pos + 1;
        if let Some(minima) = self.minima.get_mut() {
            if entry / BLOCK < minima.blocks() {
                minima.pushed(entry / BLOCK, key);
            } else {
                // Out of room: a tree twice as large (O(1) amortised per push).
                self.minima = OnceCell::new();
                self.minima();
            }
        }
    }

    #[inline]
    pub fn get(&self, pos: u64) -> Option<(u64, T)> {
        let entry = self.entry(pos)?;
        Some((self.keys[entry], self.items[entry]))
    }

    pub fn remove(&mut self, pos: u64) -> Option<(u64, T)> {
        let entry = self.entry(pos)?;
        Some(self.remove_entry(entry))
    }

    /// Removes the item at `pos` if `take` accepts its key and item: `Some(Ok(..))` when
    /// removed, `Some(Err(..))` when refused (it stays), `None` when there is none. One
    /// search, where `get` then `remove` would be two.
    pub fn remove_if(&mut self, pos: u64, take: impl FnOnce(u64, T) -> bool) -> Option<Result<(u64, T), (u64, T)>> {
        let entry = self.entry(pos)?;
        let (key, item) = (self.keys[entry], self.items[entry]);
        Some(if take(key, item) { Ok(self.remove_entry(entry)) } else { Err((key, item)) })
    }

    fn remove_entry(&mut self, entry: usize) -> (u64, T) {
        let (key, item) = (self.keys[entry], self.items[entry]);
        self.keys[entry] = u64::MAX;
        self.len -= 1;
        if let Some(minima) = self.minima.get_mut() {
            minima.removed(&self.keys, entry / BLOCK, key);
        }
        while self.start < self.keys.len() && self.keys[self.start] == u64::MAX {
            self.start += 1;
        }
        // Compacting once removed entries outnumber a quarter of the live ones keeps a long
        // queue's vectors within 25% of what its entries need, at five moves per removal
        // amortised; a short queue waits for `MIN_DEAD` removals, so that a stable run, whose
        // queue empties and refills all the time, compacts rarely.
        let dead = self.keys.len() - self.len;
        if dead > self.len / 4 && dead >= MIN_DEAD {
            self.compact();
        }
        (key, item)
    }

    /// The oldest item: `(position, key, item)`.
    pub fn head(&self) -> Option<(u64, u64, T)> {
        (self.start < self.keys.len())
            .then(|| (self.positions[self.start], self.keys[self.start], self.items[self.start]))
    }

    /// The earliest item at a position `≥ from` whose key is at most `bound`.
    pub fn first_at_most(&self, from: u64, bound: u64) -> Option<(u64, u64, T)> {
        let first = self.search(from).unwrap_or_else(|at| at);
        // Keys are below u64::MAX, which marks removed entries: a bound of u64::MAX must not
        // find those.
        let entry = self.first_entry_at_most(first, bound.min(u64::MAX - 1))?;
        Some((self.positions[entry], self.keys[entry], self.items[entry]))
    }

    /// The smallest key of any item.
    pub fn min_key(&self) -> Option<u64> {
        let min = self.minima().tree.min();
        (min < u64::MAX).then_some(min)
    }

    /// Items in FIFO order: `(position, key, item)`.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64, T)> + '_ {
        (self.start..self.keys.len())
            .filter(|&e| self.keys[e] < u64::MAX)
            .map(|e| (self.positions[e], self.keys[e], self.items[e]))
    }

    /// The live entry at `pos`, by a search over the stored positions.
    #[inline]
    fn entry(&self, pos: u64) -> Option<usize> {
        let entry = self.search(pos).ok()?;
        (self.keys[entry] < u64::MAX).then_some(entry)
    }

    /// `binary_search` for `pos` among the stored positions, as an entry index, starting at the
    /// finger when it is close. Searches come in runs close together: a policy that serves a
    /// virtual queue in FIFO order removes jobs a few entries apart from the engine's queue.
    /// There the ids are not evenly spread (the oldest part of VQS's growing queue holds one type
    /// only), and a guess from the spread alone landed thousands of entries away.
    #[inline]
    fn search(&self, pos: u64) -> Result<usize, usize> {
        // The head or before it, answered here as `search_spread` would first: a queue served
        // in FIFO order (VQS's virtual queues) removes its head, and VQS's walk starts there;
        // the call itself cost more than the comparison (a fiftieth of VQS's instructions).
        if let Some(&head) = self.positions.get(self.start)
            && pos <= head
        {
            return if pos == head { Ok(self.start) } else { Err(self.start) };
        }
        let found =
            search_spread(&self.positions[self.start..], pos, Some(Finger { at: &self.finger, offset: self.start }));
        found.map(|at| self.start + at).map_err(|at| self.start + at)
    }

    /// The first entry `≥ first` with a key at most `bound`: the rest of `first`'s block, then
    /// the first later block whose minimum qualifies.
    fn first_entry_at_most(&self, first: usize, bound: u64) -> Option<usize> {
        let scan = |from: usize, block: usize| {
            let end = ((block + 1) * BLOCK).min(self.keys.len());
            (from..end).find(|&e| self.keys[e] <= bound)
        };
        if first >= self.keys.len() {
            return None;
        }
        let block = first / BLOCK;
        if let Some(entry) = scan(first, block) {
            return Some(entry);
        }
        let next = self.minima().tree.first_at_most(block + 1, bound)?;
        scan(next * BLOCK, next)
    }

    fn minima(&self) -> &BlockMinima {
        self.minima.get_or_init(|| BlockMinima::of(&self.keys))
    }

    /// Drops the removed entries, in place (no second copy of the vectors at any moment), and
    /// returns memory beyond a quarter of slack; a searched index stays searchable.
    fn compact(&mut self) {
        if self.keys.len() - self.len == self.start {
            self.drop_head();
            return;
        }
        // Slices of one length, so that the reads at `e` need no bounds checks (the engine's
        // queue under VQS, whose removals are scattered, compacts often).
        let n = self.keys.len();
        let (positions, keys, items) = (&mut self.positions[..n], &mut self.keys[..n], &mut self.items[..n]);
        let mut kept = 0;
        for e in self.start..n {
            let key = keys[e];
            if key < u64::MAX {
                positions[kept] = positions[e];
                keys[kept] = key;
                items[kept] = items[e];
                kept += 1;
            }
        }
        let room = kept + kept / 4;
        self.positions.truncate(kept);
        self.keys.truncate(kept);
        self.items.truncate(kept);
        if self.keys.capacity() > 2 * room.max(64) {
            self.positions.shrink_to(room);
            self.keys.shrink_to(room);
            self.items.shrink_to(room);
        }
        self.start = 0;
        self.finger.set(0);
        if self.minima.take().is_some() {
            self.minima();
        }
    }

    /// [`FifoIndex::compact`] when every removed entry lies before `start`, as in a queue
    /// served in FIFO order (VQS's virtual queues): the whole blocks before `start` go in one
    /// move of each vector, and the block minima after them move down unchanged, where
    /// compacting entry by entry and rescanning every block was a twentieth of VQS's
    /// instructions. Fewer than [`BLOCK`] removed entries stay at the front.
    fn drop_head(&mut self) {
        let dropped = self.start - self.start % BLOCK;
        self.positions.drain(..dropped);
        self.keys.drain(..dropped);
        self.items.drain(..dropped);
        let n = self.keys.len();
        let room = n + n / 4;
        if self.keys.capacity() > 2 * room.max(64) {
            self.positions.shrink_to(room);
            self.keys.shrink_to(room);
            self.items.shrink_to(room);
        }
        self.start -= dropped;
        self.finger.set(self.start);
        if let Some(minima) = self.minima.get_mut() {
            *minima = minima.without_first(dropped / BLOCK, n.div_ceil(BLOCK));
        }
    }
}

/// The smallest key of each block, in a segment tree for "the first block after b whose
/// minimum is at most c", and how many of the block's entries hold it.
///
/// The count spares the block's scan at most removals: a removed key above the minimum leaves
/// it, and so does one equal to it while another entry still holds it. Only the last holder's
/// leaving rescans the block. VQS's virtual queues hold few distinct sizes, so most removals
/// take a minimum that others share (a scan of the block at every removal, 16 unsigned 64-bit
/// comparisons that SSE2 can only emulate, was the larger part of a removal's cost).
#[derive(Debug, Clone)]
struct BlockMinima {
    tree: MinTree,
    /// Entries of each block whose key is the block's minimum (0 for a block with no live
    /// entry).
    holders: Vec<u8>,
}

impl BlockMinima {
    /// The minima of `keys`' blocks, with room for as many blocks again.
    fn of(keys: &[u64]) -> Self {
        let blocks = keys.len().div_ceil(BLOCK);
        let room = (2 * blocks).max(4);
        let mut holders = vec![0; room];
        let minima: Vec<u64> = keys
            .chunks(BLOCK)
            .zip(&mut holders)
            .map(|(block, holders)| {
                let (min, count) = block_minimum(block);
                *holders = count;
                min
            })
            .collect();
        Self { tree: MinTree::from_keys(room, &minima), holders }
    }

    /// The minima of the blocks from `first` on, `blocks` of them, moved to the front, with
    /// room for as many again (what [`BlockMinima::of`] gives once the entries before block
    /// `first` are dropped).
    fn without_first(&self, first: usize, blocks: usize) -> Self {
        let room = (2 * blocks).max(4);
        let kept = first..first + blocks;
        let minima: Vec<u64> = kept.clone().map(|b| self.tree.get(b)).collect();
        let mut holders = self.holders[kept].to_vec();
        holders.resize(room, 0);
        Self { tree: MinTree::from_keys(room, &minima), holders }
    }

    /// How many blocks the tree has room for.
    fn blocks(&self) -> usize {
        self.tree.len()
    }

    /// Entered `key` into `block`.
    fn pushed(&mut self, block: usize, key: u64) {
        let min = self.tree.get(block);
        if key < min {
            self.tree.set(block, key);
            self.holders[block] = 1;
        } else if key == min {
            self.holders[block] += 1;
        }
    }

    /// Took `key` out of `block`, whose keys are now `keys`' (the removed one a tombstone).
    #[inline]
    fn removed(&mut self, keys: &[u64], block: usize, key: u64) {
        if key == self.tree.get(block) {
            self.holders[block] -= 1;
            if self.holders[block] == 0 {
                self.rescan(keys, block);
            }
        }
    }

    #[cold]
    fn rescan(&mut self, keys: &[u64], block: usize) {
        let (min, holders) = block_minimum(&keys[block * BLOCK..((block + 1) * BLOCK).min(keys.len())]);
        self.holders[block] = holders;
        self.tree.set(block, min);
    }
}

/// The smallest key of one block and how many entries hold it.
fn block_minimum(block: &[u64]) -> (u64, u8) {
    let (mut min, mut holders) = (u64::MAX, 0);
    for &key in block {
        if key < min {
            (min, holders) = (key, 1);
        } else if key == min {
            holders += 1;
        }
    }
    // Tombstones (u64::MAX) are nobody's minimum.
    (min, if min == u64::MAX { 0 } else { holders })
}

/// A search starts at the finger when the position sought is at most this far from the
/// finger's: the answer is then at most this many entries away (positions strictly increase),
/// a few cache lines.
const NEAR: u64 = 64;

/// `binary_search` over strictly increasing integers (job ids with the removed ones compacted
/// away). It starts at the finger if `pos` is within [`NEAR`] of the position there, else
/// where `pos` would be if the positions were evenly spread. It gallops outwards from there and
/// finishes with a binary search of the bracket. That reads O(log d) entries near the guess, d
/// its distance from the answer, where a plain binary search of a queue of 10^5 jobs reads 17
/// entries spread over the whole vector (those cache misses were a tenth of VQS's time per job,
/// issue 19). Same answer as `binary_search`.
#[inline]
fn search_spread(sorted: &[u64], pos: u64, finger: Option<Finger<'_>>) -> Result<usize, usize> {
    let n = sorted.len();
    let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else { return Err(0) };
    if pos <= first {
        return if pos == first { Ok(0) } else { Err(0) };
    }
    if pos >= last {
        return if pos == last { Ok(n - 1) } else { Err(n) };
    }
    // first < pos < last: the guess lies in 0..n−1. A float is exact enough for a guess and
    // spares a 128-bit division.
    let near =
        finger.and_then(|f| f.at.get().checked_sub(f.offset)).filter(|&f| f < n && sorted[f].abs_diff(pos) <= NEAR);
    let guess = near.unwrap_or_else(|| ((pos - first) as f64 / (last - first) as f64 * (n - 1) as f64) as usize);
    let guess = guess.min(n - 2);
    // Gallop to a bracket lo..=hi holding the answer.
    let (mut lo, mut hi);
    let mut step = 1;
    if sorted[guess] < pos {
        (lo, hi) = (guess, guess + 1);
        while hi < n && sorted[hi] < pos {
            lo = hi;
            hi = (hi + step).min(n);
            step *= 2;
        }
        lo += 1;
    } else {
        (lo, hi) = (guess, guess);
        while lo > 0 && sorted[lo] >= pos {
            hi = lo;
            lo = lo.saturating_sub(step);
            step *= 2;
        }
        if sorted[lo] < pos {
            lo += 1;
        }
    }
    let found = match sorted[lo..(hi + 1).min(n)].binary_search(&pos) {
        Ok(at) => Ok(lo + at),
        Err(at) => Err(lo + at),
    };
    if let Some(f) = finger {
        f.at.set(f.offset + found.unwrap_or_else(|at| at));
    }
    found
}

/// Where the last search that needed one ended, as an entry index, and the index of the
/// slice's first entry. Searches answered at either end leave it alone: they cost nothing.
#[derive(Clone, Copy)]
struct Finger<'a> {
    at: &'a Cell<usize>,
    offset: usize,
}

#[cfg(test)]
mod tests;
