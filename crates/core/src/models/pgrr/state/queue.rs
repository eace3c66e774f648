//! The central waiting queue of the slotted engine.

use std::cell::OnceCell;

use super::{JobId, WaitingJob};
use crate::index::{FifoIndex, SizeOrder};

/// Waiting jobs, indexed two ways:
///
/// * in arrival order (job ids increase with arrival), with "the earliest job after a given
///   one that needs at most c" in O(log n) — first fit without blocking and BF-J walk the
///   queue with it instead of scanning;
/// * by occupied space, first come first served among equal sizes ([`SizeOrder`]): the
///   largest job that fits a residual r, earliest arrival on ties (SPEC 2.2.1, RES-4), is one
///   range query over the distinct sizes.
///
/// Each index is built by the first query that needs it and kept up to date from then on, so
/// a policy pays only for the questions it asks (VQS and VQS-BF keep their own queues and ask
/// this one almost nothing).
#[derive(Debug, Clone, Default)]
pub struct WaitingQueue {
    fifo: FifoIndex<WaitingJob>,
    by_size: OnceCell<SizeOrder>,
}

impl WaitingQueue {
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    pub fn get(&self, id: JobId) -> Option<WaitingJob> {
        self.fifo.get(id).map(|(_, job)| job)
    }

    pub fn contains(&self, id: JobId) -> bool {
        self.get(id).is_some()
    }

    /// The oldest waiting job.
    pub fn head(&self) -> Option<WaitingJob> {
        self.fifo.head().map(|(_, _, job)| job)
    }

    /// The largest job with occupied space ≤ `room`; earliest arrival among equals.
    pub fn largest_fitting(&self, room: u64) -> Option<WaitingJob> {
        let (_, id) = self.by_size().largest_at_most(room)?;
        self.get(id)
    }

    /// The earliest job with id ≥ `from` whose occupied space is ≤ `room`.
    pub fn first_fitting(&self, from: JobId, room: u64) -> Option<WaitingJob> {
        self.fifo.first_at_most(from, room).map(|(_, _, job)| job)
    }

    /// The smallest occupied space of any waiting job.
    pub fn min_size(&self) -> Option<u64> {
        self.by_size().min_size()
    }

    /// Waiting jobs in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = WaitingJob> + '_ {
        self.fifo.iter().map(|(_, _, job)| job)
    }

    pub(crate) fn push(&mut self, job: WaitingJob) {
        let size = job.occupies.primary();
        self.fifo.push(job.id, size, job);
        if let Some(by_size) = self.by_size.get_mut() {
            by_size.insert(size, job.id);
        }
    }

    pub(crate) fn remove(&mut self, id: JobId) -> Option<WaitingJob> {
        let (size, job) = self.fifo.remove(id)?;
        if let Some(by_size) = self.by_size.get_mut() {
            by_size.remove(size, id);
        }
        Some(job)
    }

    fn by_size(&self) -> &SizeOrder {
        self.by_size.get_or_init(|| {
            let mut by_size = SizeOrder::new();
            for (id, size, _) in self.fifo.iter() {
                by_size.insert(size, id);
            }
            by_size
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::Resources;

    fn job(id: JobId, size: u64) -> WaitingJob {
        let r = Resources::scalar(size);
        WaitingJob { id, arrival: id, size: r, occupies: r, service: 1 }
    }

    /// SPEC 6.1 item 4, BF-S half: residual 0.5 and sizes {0.3, 0.45, 0.6, 0.45′}: the earlier
    /// 0.45 is chosen, then nothing fits the 0.05 left.
    #[test]
    fn largest_fitting_prefers_the_earlier_of_equals() {
        let mut q = WaitingQueue::default();
        for (id, s) in [(0, 30), (1, 45), (2, 60), (3, 45)] {
            q.push(job(id, s));
        }
        let first = q.largest_fitting(50).unwrap();
        assert_eq!(first.id, 1);
        q.remove(first.id);
        assert_eq!(q.largest_fitting(5), None);
        assert_eq!(q.first_fitting(0, 44).unwrap().id, 0);
        assert_eq!(q.first_fitting(1, 50).unwrap().id, 3);
        assert_eq!(q.min_size(), Some(30));
        assert_eq!(q.head().unwrap().id, 0);
    }
}
