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
    /// The spread search answers as `binary_search` does, found or not, on any increasing
    /// positions, evenly spread or not.
    #[test]
    fn spread_search_is_binary_search(gaps in prop::collection::vec(prop_oneof![1u64..3, 1u64..1000], 0..300), probe in 0u64..400_000) {
        let mut sorted = Vec::new();
        let mut pos = 0;
        for gap in gaps {
            pos += gap;
            sorted.push(pos);
        }
        for p in [probe, probe % (pos + 2)].into_iter().chain(sorted.iter().flat_map(|&s| [s - 1, s, s + 1])) {
            let expect = sorted.binary_search(&p);
            prop_assert_eq!(search_spread(&sorted, p, None), expect, "{}", p);
            for near in [0, sorted.len() / 3, sorted.len().saturating_sub(1), usize::MAX] {
                let at = Cell::new(near);
                prop_assert_eq!(search_spread(&sorted, p, Some(Finger { at: &at, offset: 0 })), expect, "{} from {}", p, near);
            }
        }
    }

    /// Random pushes and removals agree with a plain vector model, across many window
    /// slides, whether the index is searched all along or only at the end (its tree built
    /// late, after the window has slid).
    #[test]
    fn matches_a_vector_model(ops in prop::collection::vec((any::<bool>(), 0u64..10, 0u64..4), 1..1500)) {
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
                // A refusal leaves it; then it goes.
                prop_assert_eq!(q.remove_if(victim.0, |_, _| false), Some(Err((victim.1, victim.0))));
                prop_assert_eq!(q.remove_if(victim.0, |k, p| k == victim.1 && p == victim.0), Some(Ok((victim.1, victim.0))));
                prop_assert_eq!(q.remove_if(victim.0, |_, _| true), None);
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

/// Long enough to compact several times (at least `MIN_DEAD` removals each): the block
/// minima and their holder counts, rebuilt at each compaction and kept through pushes and
/// removals in between, answer as a plain vector does. Few distinct keys, so blocks share
/// their minimum; removals from the head and from anywhere.
#[test]
fn block_minima_survive_compactions() {
    let mut q = FifoIndex::new();
    let mut model: Vec<(u64, u64)> = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut pos, mut compactions, mut capacity) = (0, 0, 0);
    for step in 0..40_000 {
        let r = next();
        // Grow to a few thousand entries, then shrink, then grow again.
        let push_odds = if (step / 10_000) % 2 == 0 { 6 } else { 3 };
        if model.is_empty() || r % 10 < push_odds {
            let key = (r >> 8) % 3;
            q.push(pos, key, pos);
            model.push((pos, key));
            pos += 1 + (r >> 16) % 2;
        } else {
            let at = if (r >> 8) % 2 == 0 { 0 } else { (r >> 16) as usize % model.len() };
            let (victim, key) = model.remove(at);
            assert_eq!(q.remove(victim), Some((key, victim)));
        }
        if q.keys.len() < capacity {
            compactions += 1;
        }
        capacity = q.keys.len();
        assert_eq!(q.min_key(), model.iter().map(|(_, k)| *k).min());
        let from = model.get(model.len() / 2).map_or(0, |(p, _)| *p);
        for bound in [0, 1, u64::MAX] {
            let expect = model.iter().find(|(p, k)| *p >= from && *k <= bound).map(|(p, k)| (*p, *k, *p));
            assert_eq!(q.first_at_most(from, bound), expect, "step {step}, bound {bound}");
        }
    }
    assert!(compactions >= 3, "only {compactions} compactions");
}

/// A queue served in FIFO order (removals from the head only, as VQS's virtual queues)
/// compacts by dropping whole blocks at its head: its block minima and holder counts then
/// stay what a rebuild from the keys gives, and searches answer as a plain vector does.
#[test]
fn fifo_removals_drop_the_head() {
    let mut q = FifoIndex::new();
    let mut model: std::collections::VecDeque<(u64, u64)> = Default::default();
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let (mut pos, mut dropped) = (0, 0);
    for step in 0..30_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let push_odds = if (step / 7_500) % 2 == 0 { 6 } else { 4 };
        if model.is_empty() || state % 10 < push_odds {
            let key = (state >> 8) % 3;
            q.push(pos, key, pos);
            model.push_back((pos, key));
            pos += 1 + (state >> 16) % 2;
        } else {
            let (victim, key) = model.pop_front().unwrap();
            let before = q.keys.len();
            assert_eq!(q.remove(victim), Some((key, victim)));
            if q.keys.len() < before {
                dropped += 1;
                assert!(q.start < BLOCK, "step {step}: {} dead entries left at the front", q.start);
            }
        }
        let from = model.get(model.len() / 3).map_or(0, |(p, _)| *p);
        for bound in [0, 1] {
            let expect = model.iter().find(|(p, k)| *p >= from && *k <= bound).map(|(p, k)| (*p, *k, *p));
            assert_eq!(q.first_at_most(from, bound), expect, "step {step}, bound {bound}");
        }
        assert_eq!(q.min_key(), model.iter().map(|(_, k)| *k).min());
        let (built, rebuilt) = (q.minima.get().unwrap(), BlockMinima::of(&q.keys));
        let blocks = q.keys.len().div_ceil(BLOCK);
        for b in 0..blocks {
            assert_eq!(built.tree.get(b), rebuilt.tree.get(b), "step {step}, block {b}");
            assert_eq!(built.holders[b], rebuilt.holders[b], "step {step}, block {b}");
        }
        assert_eq!(built.tree.min(), rebuilt.tree.min(), "step {step}");
    }
    assert!(dropped >= 3, "only {dropped} compactions");
}
