//! Small ids grouped by a key: "the smallest key at least x, and its lowest id".

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::{IdSet, prefetch};

/// Ids in `0..n` (servers), each under one key in `0..=max_key` (its residual capacity),
/// answering "the smallest key ≥ x, and the lowest id under it" (best fit: the fullest server
/// that fits, the lowest index among equals, SPEC 2.2.2).
///
/// It answers what an ordered set of `(key, id)` answers, with one entry per distinct key:
///
/// * the ids under one key form a [`Group`]. When jobs come in a few sizes (the papers' A1, A2,
///   A6) servers share a few residuals, and moving a server from one to another is a short
///   search and two bit flips;
/// * the distinct keys are spread over buckets by their leading bits ([`bucket_of`]: finer
///   near zero), each holding its keys sorted, and a three-level bit map flags the buckets
///   that hold any. "The smallest key ≥ x" looks in x's bucket and then in the next one the
///   bit map names: a few words and one short list. An ordered map of the 10^4 distinct residuals of pgrr-a3
///   at L = 10^4 walked four or five B-tree nodes per change and moved their entries, a quarter
///   of BF-J/S's time (issue 19).
///
/// A bucket that collects more than [`SORTED_MAX`] keys (residuals crowded into one bucket's
/// interval) turns into an ordered map, so no operation costs more than
/// O(log n) whatever the keys.
#[derive(Debug, Clone)]
pub struct GroupedIds {
    buckets: Vec<Bucket>,
    /// Bit b: `buckets[b]` holds a key.
    occupied: IdSet,
    /// Leading bits of a key that choose its bucket ([`bucket_of`]).
    kept: u32,
    /// Ids are below this.
    n: usize,
    /// Emptied lists of sorted buckets, kept for the next bucket that needs one: at 10^4 servers
    /// buckets go between one key and two all the time, and each change allocated or freed a
    /// list. At most [`SPARE_MAX`].
    spare: Vec<Vec<(u64, Group)>>,
}

/// Emptied lists kept for reuse (each a few dozen bytes).
const SPARE_MAX: usize = 256;

/// The keys whose high bits are one bucket's, each with its ids.
///
/// One key is kept in place, not in a list of its own: at 10^4 servers most buckets in use hold
/// one residual, and a list cost a second cache miss (and an allocation) on every re-entry
/// (issue 35). The enum stays four words either way.
#[derive(Debug, Clone)]
enum Bucket {
    Empty,
    One(u64, Group),
    /// Sorted by key, at least two and at most [`SORTED_MAX`] entries.
    Sorted(Vec<(u64, Group)>),
    Map(BTreeMap<u64, Group>),
}

/// Keys in a sorted bucket before it becomes a map ...
const SORTED_MAX: usize = 32;
/// ... and the size at which a map turns back (apart, so that a bucket at the threshold does
/// not convert back and forth).
const BACK_TO_SORTED: usize = 8;

/// The ids under one key (boxed beyond one, so that an entry stays small).
#[derive(Debug, Clone)]
enum Group {
    One(u32),
    /// Sorted, at most [`few`] ids.
    #[allow(clippy::box_collection, reason = "a boxed Vec keeps the enum two words")]
    Few(Box<Vec<u32>>),
    Many(Box<IdSet>),
}

/// Largest sorted list before a group of ids below `n` turns into a bit set.
///
/// A bit set flips one bit where a sorted list searches and moves its tail, but it takes n/8
/// bytes whatever it holds. So lists stay short where bit sets are small, and never longer than
/// 64 ids, which bounds a list's move. At 64 for every n, the few residuals of pgrr-a1 at
/// L = 1000 kept groups of dozens of servers as lists, whose inserts and removals were a sixth
/// of BF-J's time; at 8 there, BF-J runs about 10 % faster (issue 35). Up to 16 384 ids a bit
/// set takes at most about eight times the list it replaces; beyond, lists stop at 64. Every
/// bit set holds more than `few` ids, so together they take at most n²/(8·(few + 1)) bytes:
/// 14 kB at 1000 servers, 19 MB at the largest cluster (10^5 servers), as before.
fn few(n: usize) -> usize {
    (n / 256).clamp(8, 64)
}

/// The size at which a bit set turns back into a list: apart from [`few`], so that a group at
/// the threshold does not convert back and forth, and at least 2, since a list holds two or more.
fn back_to_few(n: usize) -> usize {
    (few(n) / 4).max(3)
}

/// What taking an id out of a group did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Removal {
    /// The id was not there.
    Absent,
    Removed,
    /// It was the last one: the group must go.
    Emptied,
}

impl GroupedIds {
    /// Ids `0..n` under keys `0..=max_key`, none present.
    pub fn new(n: usize, max_key: u64) -> Self {
        assert!(n <= IdSet::CAPACITY, "at most {} ids", IdSet::CAPACITY);
        // 2^(kept - 1) buckets per octave: about n/16, between 16 and 1024.
        let kept = (n.next_power_of_two().trailing_zeros()).clamp(7, 13) - 2;
        let buckets = bucket_of(max_key, kept) + 1;
        Self { buckets: vec![Bucket::Empty; buckets], occupied: IdSet::new(buckets), kept, n, spare: Vec::new() }
    }

    /// Puts `id` under `key`; it must not be present under any key.
    pub fn insert(&mut self, key: u64, id: u32) {
        debug_assert!((id as usize) < self.n);
        let b = self.bucket_of(key).expect("key within the maximum");
        if self.buckets[b].is_empty() {
            self.occupied.insert(b as u32);
        }
        self.buckets[b].insert(key, id, self.n, &mut self.spare);
    }

    /// Takes `id` out from under `key`; false if it is not there.
    pub fn remove(&mut self, key: u64, id: u32) -> bool {
        let Some(b) = self.bucket_of(key) else { return false };
        let taken = self.buckets[b].remove(key, id, self.n, &mut self.spare);
        if self.buckets[b].is_empty() {
            self.occupied.remove(b as u32);
        }
        taken
    }

    /// A hint that `key`'s bucket will be read soon ([`prefetch()`]).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(b) = self.bucket_of(key) {
            prefetch(&self.buckets[b]);
        }
    }

    /// The smallest key ≥ `x` and the lowest id under it.
    #[inline]
    pub fn first_at_least(&self, x: u64) -> Option<(u64, u32)> {
        self.group_at_least(x).map(|(key, group)| (key, group.lowest()))
    }

    /// The largest key (`None` when no id is present): the last key of the last bucket that
    /// holds any.
    #[inline]
    pub fn largest_key(&self) -> Option<u64> {
        let last = self.occupied.highest()?;
        self.buckets[last as usize].last_key()
    }

    /// What [`GroupedIds::first_at_least`] answers, and the runner-up: the next id under the
    /// same key, else the lowest id under the next key (for explaining a best fit).
    pub fn first_two_at_least(&self, x: u64) -> [Option<(u64, u32)>; 2] {
        let Some((key, group)) = self.group_at_least(x) else { return [None, None] };
        let first = group.lowest();
        let second = group.after(first).map(|id| (key, id)).or_else(|| {
            let next = self.group_at_least(key.checked_add(1)?)?;
            Some((next.0, next.1.lowest()))
        });
        [Some((key, first)), second]
    }

    /// The bucket of `key`, if it is within the maximum.
    #[inline]
    fn bucket_of(&self, key: u64) -> Option<usize> {
        let b = bucket_of(key, self.kept);
        (b < self.buckets.len()).then_some(b)
    }

    /// The smallest key ≥ `x` with its group: in x's bucket, else the first of the next
    /// bucket that holds any.
    #[inline]
    fn group_at_least(&self, x: u64) -> Option<(u64, &Group)> {
        let b = self.bucket_of(x)?;
        if self.occupied.contains(b as u32)
            && let Some(found) = self.buckets[b].first_at_least(x)
        {
            return Some(found);
        }
        let next = self.occupied.first_from(b as u32 + 1)?;
        self.buckets[next as usize].first_at_least(0)
    }
}

/// The bucket of `key` when buckets keep its `kept` leading bits, the way a float keeps its
/// exponent and mantissa: keys below 2^kept have a bucket each, and every octave
/// [2^e, 2^(e+1)) above is cut into 2^(kept-1) buckets of equal width. Increasing in `key`, so
/// buckets in order hold keys in order; and fine near zero, where best fit leaves most
/// residuals (on pgrr-a3 at L = 10^4, half of them below 4·10^-4 of a server).
#[inline]
fn bucket_of(key: u64, kept: u32) -> usize {
    let length = u64::BITS - key.leading_zeros();
    if length <= kept {
        key as usize
    } else {
        let dropped = length - kept;
        ((dropped as usize) << (kept - 1)) + (key >> dropped) as usize
    }
}

impl Bucket {
    fn is_empty(&self) -> bool {
        matches!(self, Bucket::Empty)
    }

    fn insert(&mut self, key: u64, id: u32, n: usize, spare: &mut Vec<Vec<(u64, Group)>>) {
        match self {
            Bucket::Empty => *self = Bucket::One(key, Group::One(id)),
            Bucket::One(only, group) if *only == key => group.insert(id, n),
            Bucket::One(..) => {
                let Bucket::One(only, group) = std::mem::replace(self, Bucket::Empty) else { unreachable!() };
                let (first, second) = if only < key {
                    ((only, group), (key, Group::One(id)))
                } else {
                    ((key, Group::One(id)), (only, group))
                };
                let mut entries = spare.pop().unwrap_or_default();
                entries.extend([first, second]);
                *self = Bucket::Sorted(entries);
            }
            Bucket::Sorted(entries) => match entries.binary_search_by_key(&key, |&(k, _)| k) {
                Ok(at) => entries[at].1.insert(id, n),
                Err(at) if entries.len() < SORTED_MAX => entries.insert(at, (key, Group::One(id))),
                Err(_) => {
                    let mut map: BTreeMap<u64, Group> = std::mem::take(entries).into_iter().collect();
                    map.insert(key, Group::One(id));
                    *self = Bucket::Map(map);
                }
            },
            Bucket::Map(map) => match map.entry(key) {
                Entry::Vacant(vacant) => {
                    vacant.insert(Group::One(id));
                }
                Entry::Occupied(group) => group.into_mut().insert(id, n),
            },
        }
    }

    fn remove(&mut self, key: u64, id: u32, n: usize, spare: &mut Vec<Vec<(u64, Group)>>) -> bool {
        let taken = match self {
            Bucket::Empty => Removal::Absent,
            Bucket::One(only, group) => {
                if *only != key {
                    return false;
                }
                let taken = group.remove(id, n);
                if taken == Removal::Emptied {
                    *self = Bucket::Empty;
                }
                taken
            }
            Bucket::Sorted(entries) => {
                let Ok(at) = entries.binary_search_by_key(&key, |&(k, _)| k) else { return false };
                let taken = entries[at].1.remove(id, n);
                if taken == Removal::Emptied {
                    entries.remove(at);
                    if entries.len() == 1 {
                        let (only, group) = entries.pop().expect("one entry");
                        if spare.len() < SPARE_MAX {
                            spare.push(std::mem::take(entries));
                        }
                        *self = Bucket::One(only, group);
                    }
                }
                taken
            }
            Bucket::Map(map) => {
                let Entry::Occupied(mut group) = map.entry(key) else { return false };
                let taken = group.get_mut().remove(id, n);
                if taken == Removal::Emptied {
                    group.remove();
                    if map.len() < BACK_TO_SORTED {
                        *self = Bucket::Sorted(std::mem::take(map).into_iter().collect());
                    }
                }
                taken
            }
        };
        taken != Removal::Absent
    }

    /// The bucket's largest key.
    #[inline]
    fn last_key(&self) -> Option<u64> {
        match self {
            Bucket::Empty => None,
            Bucket::One(key, _) => Some(*key),
            Bucket::Sorted(entries) => entries.last().map(|&(key, _)| key),
            Bucket::Map(map) => map.last_key_value().map(|(&key, _)| key),
        }
    }

    /// The smallest key ≥ `x` in the bucket, with its group.
    #[inline]
    fn first_at_least(&self, x: u64) -> Option<(u64, &Group)> {
        match self {
            Bucket::Empty => None,
            Bucket::One(key, group) => (*key >= x).then_some((*key, group)),
            Bucket::Sorted(entries) => {
                let at = entries.partition_point(|&(k, _)| k < x);
                entries.get(at).map(|(key, group)| (*key, group))
            }
            Bucket::Map(map) => map.range(x..).next().map(|(&key, group)| (key, group)),
        }
    }
}

impl Group {
    /// Adds `id` (below `n`), which must not be present.
    fn insert(&mut self, id: u32, n: usize) {
        match self {
            Group::One(other) => {
                let mut ids = vec![*other, id];
                ids.sort_unstable();
                *self = Group::Few(Box::new(ids));
            }
            Group::Few(ids) => {
                let at = ids.binary_search(&id).expect_err("id inserted twice");
                if ids.len() < few(n) {
                    ids.insert(at, id);
                } else {
                    let mut bits = Box::new(IdSet::new(n));
                    for &i in ids.iter().chain([&id]) {
                        bits.insert(i);
                    }
                    *self = Group::Many(bits);
                }
            }
            Group::Many(bits) => {
                let added = bits.insert(id);
                debug_assert!(added, "id inserted twice");
            }
        }
    }

    fn remove(&mut self, id: u32, n: usize) -> Removal {
        match self {
            Group::One(only) => {
                if *only == id {
                    Removal::Emptied
                } else {
                    Removal::Absent
                }
            }
            Group::Few(ids) => {
                let Ok(at) = ids.binary_search(&id) else { return Removal::Absent };
                ids.remove(at);
                if ids.len() == 1 {
                    *self = Group::One(ids[0]);
                }
                Removal::Removed
            }
            Group::Many(bits) => {
                if !bits.remove(id) {
                    return Removal::Absent;
                }
                if bits.len() < back_to_few(n) {
                    *self = Group::Few(Box::new(bits.ids()));
                }
                Removal::Removed
            }
        }
    }

    /// The lowest id above `id` in the group.
    fn after(&self, id: u32) -> Option<u32> {
        match self {
            Group::One(_) => None,
            Group::Few(ids) => ids.iter().copied().find(|&i| i > id),
            Group::Many(bits) => bits.first_from(id + 1),
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn smallest_key_at_least_then_lowest_id() {
        let mut g = GroupedIds::new(10, 100);
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

    /// Keys crowded into one bucket turn it into a map beyond `SORTED_MAX`, and back below
    /// `BACK_TO_SORTED`, answering the same all along.
    #[test]
    fn a_crowded_bucket_becomes_a_map_and_back() {
        let mut g = GroupedIds::new(100, u64::MAX);
        let base = 1 << 60;
        let is_map = |g: &GroupedIds| matches!(g.buckets[g.bucket_of(base).unwrap()], Bucket::Map(_));
        for id in 0..40 {
            g.insert(base + 2 * id as u64, id);
        }
        assert!(is_map(&g));
        assert_eq!(g.first_at_least(base + 1), Some((base + 2, 1)));
        for id in 0..35 {
            assert!(g.remove(base + 2 * id as u64, id));
        }
        assert!(!is_map(&g));
        assert_eq!(g.first_at_least(base + 1), Some((base + 70, 35)));
        assert_eq!(g.first_two_at_least(base + 78), [Some((base + 78, 39)), None]);
        assert_eq!(g.first_at_least(0), Some((base + 70, 35)));
    }

    /// A bucket keeps one key in place and stays four words, so the bucket table is no larger
    /// for it.
    #[test]
    fn a_bucket_is_four_words() {
        assert_eq!(std::mem::size_of::<Bucket>(), 32);
        let mut g = GroupedIds::new(10, 1000);
        g.insert(500, 3);
        assert!(matches!(g.buckets[g.bucket_of(500).unwrap()], Bucket::One(500, _)));
        g.insert(501, 4);
        assert!(matches!(g.buckets[g.bucket_of(500).unwrap()], Bucket::Sorted(_)));
        assert!(g.remove(500, 3));
        assert!(matches!(g.buckets[g.bucket_of(500).unwrap()], Bucket::One(501, _)));
        assert!(!g.remove(500, 4));
        assert!(g.remove(501, 4));
        assert!(matches!(g.buckets[g.bucket_of(500).unwrap()], Bucket::Empty));
        assert_eq!(g.first_at_least(0), None);
    }

    /// Lists stay short (at most 64 ids), a bit set stays within about eight times the list it
    /// replaces up to 16 384 ids, and the two thresholds stay apart.
    #[test]
    fn lists_stay_short_and_bit_sets_small() {
        for n in [1, 100, 1000, 2048, 4096, 10_000, 16_384, 100_000, IdSet::CAPACITY] {
            let (few, back) = (few(n), back_to_few(n));
            assert!((8..=64).contains(&few), "n = {n}");
            assert!((2..few).contains(&back), "n = {n}");
            if n <= 16_384 {
                assert!(n.div_ceil(8) <= 8 * 4 * few + 8, "n = {n}");
            }
        }
        assert_eq!(few(1000), 8);
        assert_eq!(few(100_000), 64);
    }

    /// Against an ordered set of (key, id), through `ops` of (id, key, query): an id present
    /// is taken out (and cannot be taken twice), an absent one is put under the key.
    fn check_against_a_set(
        n: usize,
        max_key: u64,
        ops: impl IntoIterator<Item = (usize, u64, u64)>,
    ) -> Result<(), TestCaseError> {
        let mut g = GroupedIds::new(n, max_key);
        let mut key_of: Vec<Option<u64>> = vec![None; n];
        let mut model: BTreeSet<(u64, u32)> = BTreeSet::new();
        for (id, key, x) in ops {
            let id = id % n;
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
            prop_assert_eq!(g.largest_key(), model.last().map(|&(key, _)| key));
            let mut two = model.range((x, 0)..).copied();
            prop_assert_eq!(g.first_two_at_least(x), [two.next(), two.next()]);
        }
        Ok(())
    }

    proptest! {
        /// Through every representation of a group: many ids under few keys, one id under
        /// many keys.
        #[test]
        fn matches_an_ordered_set(
            n in 1usize..300,
            keys in 1u64..8,
            ops in prop::collection::vec((0usize..300, 0u64..8, 0u64..9), 1..800),
        ) {
            check_against_a_set(n, 7, ops.into_iter().map(|(id, key, x)| (id, key % keys, x)))?;
        }

        /// Through every representation of a bucket: keys spread over the whole range (one
        /// or two per bucket), crowded into one bucket until it becomes a map and back, and
        /// queries past the largest key.
        #[test]
        fn buckets_match_an_ordered_set(
            n in 1usize..3000,
            max_key in prop_oneof![Just(0u64), 1u64..5000, Just(16_000_000_000u64), Just(u64::MAX)],
            crowd in any::<bool>(),
            ops in prop::collection::vec((0usize..3000, any::<u64>(), any::<u64>()), 1..1500),
        ) {
            // Crowded keys share their high bits: at most 64 values from one spot.
            let spot = max_key / 3;
            let key = |k: u64| if crowd { (spot + k % 64).min(max_key) } else { k % max_key.saturating_add(1).max(1) };
            let ops = ops.into_iter().map(|(id, k, x)| (id, key(k), if x % 4 == 0 { x } else { key(x) }));
            check_against_a_set(n, max_key, ops)?;
        }
    }
}
