//! The central waiting queue of the slotted engine.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use super::{JobId, WaitingJob};
use crate::index::{FifoIndex, SizeOrder};
use crate::models::pgrr::CAPACITY_UNITS;
use crate::resources::Resources;

/// What the queue keeps of a waiting job besides its id (the position) and the space it
/// occupies (the key): 16 bytes where a [`WaitingJob`] takes 104. The size (at most
/// [`CAPACITY_UNITS`] < 2^35) shares a word with the service length; a service too long for
/// the remaining 29 bits (over 5·10^8 slots, which no paper's scenario comes near) is kept
/// exactly in [`WaitingQueue::long_services`] instead.
#[derive(Debug, Clone, Copy)]
struct Stored {
    arrival: u64,
    size_and_service: u64,
}

const SIZE_BITS: u32 = 35;
const SIZE_MASK: u64 = (1 << SIZE_BITS) - 1;
/// Service lengths from this one up are kept aside.
const LONG_SERVICE: u64 = (1 << (64 - SIZE_BITS)) - 1;
const _: () = assert!(CAPACITY_UNITS <= SIZE_MASK);

impl Stored {
    #[inline]
    fn size(self) -> u64 {
        self.size_and_service & SIZE_MASK
    }

    /// The service length, or `None` if it is kept aside.
    #[inline]
    fn service(self) -> Option<u64> {
        let service = self.size_and_service >> SIZE_BITS;
        (service < LONG_SERVICE).then_some(service)
    }
}

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
    fifo: FifoIndex<Stored>,
    by_size: OnceCell<SizeOrder>,
    /// Service lengths of waiting jobs too long to pack into [`Stored`].
    long_services: BTreeMap<JobId, u64>,
}

impl WaitingQueue {
    pub fn len(&self) -> usize {
        self.fifo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fifo.is_empty()
    }

    #[inline]
    pub fn get(&self, id: JobId) -> Option<WaitingJob> {
        self.fifo.get(id).map(|(occupies, stored)| self.job(id, occupies, stored))
    }

    pub fn contains(&self, id: JobId) -> bool {
        self.get(id).is_some()
    }

    /// The oldest waiting job.
    pub fn head(&self) -> Option<WaitingJob> {
        self.fifo.head().map(|(id, occupies, stored)| self.job(id, occupies, stored))
    }

    /// The largest job with occupied space ≤ `room`; earliest arrival among equals.
    #[inline]
    pub fn largest_fitting(&self, room: u64) -> Option<WaitingJob> {
        let (_, id) = self.by_size().largest_at_most(room)?;
        self.get(id)
    }

    /// The earliest job with id ≥ `from` whose occupied space is ≤ `room`.
    pub fn first_fitting(&self, from: JobId, room: u64) -> Option<WaitingJob> {
        self.fifo.first_at_most(from, room).map(|(id, occupies, stored)| self.job(id, occupies, stored))
    }

    /// The smallest occupied space of any waiting job.
    pub fn min_size(&self) -> Option<u64> {
        self.by_size().min_size()
    }

    /// Waiting jobs in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = WaitingJob> + '_ {
        self.fifo.iter().map(|(id, occupies, stored)| self.job(id, occupies, stored))
    }

    pub(crate) fn push(&mut self, job: WaitingJob) {
        let occupies = job.occupies.primary();
        let size = job.size.primary();
        assert!(size <= SIZE_MASK, "job sizes are at most the capacity");
        let packed = if job.service < LONG_SERVICE {
            job.service
        } else {
            self.long_services.insert(job.id, job.service);
            LONG_SERVICE
        };
        self.fifo.push(job.id, occupies, Stored { arrival: job.arrival, size_and_service: size | packed << SIZE_BITS });
        if let Some(by_size) = self.by_size.get_mut() {
            by_size.insert(occupies, job.id);
        }
    }

    #[cfg(test)]
    pub(crate) fn remove(&mut self, id: JobId) -> Option<WaitingJob> {
        self.remove_if(id, |_| true).map(|removed| removed.expect("nothing refused"))
    }

    /// Removes waiting job `id` if `take` accepts it (the engine: if it fits its server), in
    /// one lookup: `Some(Ok(job))` when removed, `Some(Err(job))` when refused (it still
    /// waits), `None` when it is not waiting.
    #[inline]
    pub(crate) fn remove_if(
        &mut self,
        id: JobId,
        take: impl FnOnce(&WaitingJob) -> bool,
    ) -> Option<Result<WaitingJob, WaitingJob>> {
        let long_services = &self.long_services;
        let outcome =
            self.fifo.remove_if(id, |occupies, stored| take(&Self::job_of(long_services, id, occupies, stored)))?;
        let (occupies, stored) = match outcome {
            Ok(removed) => removed,
            Err((occupies, stored)) => return Some(Err(self.job(id, occupies, stored))),
        };
        let job = self.job(id, occupies, stored);
        if let Some(by_size) = self.by_size.get_mut() {
            by_size.remove(occupies, id);
        }
        if stored.service().is_none() {
            self.long_services.remove(&id);
        }
        Some(Ok(job))
    }

    /// The waiting job at `id` from what the queue keeps of it.
    #[inline]
    fn job(&self, id: JobId, occupies: u64, stored: Stored) -> WaitingJob {
        Self::job_of(&self.long_services, id, occupies, stored)
    }

    #[inline]
    fn job_of(long_services: &BTreeMap<JobId, u64>, id: JobId, occupies: u64, stored: Stored) -> WaitingJob {
        WaitingJob {
            id,
            arrival: stored.arrival,
            size: Resources::scalar(stored.size()),
            occupies: Resources::scalar(occupies),
            service: stored
                .service()
                .unwrap_or_else(|| *long_services.get(&id).expect("a service too long to pack is kept aside")),
        }
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

    /// Service lengths too long to pack come back exactly, and are forgotten with their job.
    #[test]
    fn long_services_round_trip() {
        let mut q = WaitingQueue::default();
        let services = [0, 1, LONG_SERVICE - 1, LONG_SERVICE, LONG_SERVICE + 1, u64::MAX];
        for (id, &service) in services.iter().enumerate() {
            q.push(WaitingJob { service, ..job(id as JobId, CAPACITY_UNITS - id as u64) });
        }
        for (id, &service) in services.iter().enumerate() {
            let got = q.get(id as JobId).unwrap();
            assert_eq!((got.service, got.size.primary()), (service, CAPACITY_UNITS - id as u64));
        }
        assert_eq!(q.long_services.len(), 3);
        for id in 0..services.len() as JobId {
            assert_eq!(q.remove(id).unwrap().service, services[id as usize]);
        }
        assert!(q.long_services.is_empty() && q.is_empty());
    }
}
