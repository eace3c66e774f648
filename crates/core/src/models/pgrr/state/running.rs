//! The jobs in service on all servers, in one table.

use super::{JobId, RunningJob};
use crate::index::prefetch;
use crate::resources::Resources;

/// Where a running job's record is in [`RunningTable`]. A key is reused once its job leaves.
///
/// 32 bits: a key exists per running job and each record takes 48 bytes, so running out of
/// keys would need 200 GB of records first.
pub(crate) type RunKey = u32;

/// The records of the running jobs of every server, each reached by its key.
///
/// A server keeps only the keys of its jobs (four bytes each, ten jobs to a cache line) and
/// the departure calendar keeps each job's key. A departure then reads the job's record
/// directly, one line the engine can ask for ahead of time, and finds the key in the server's
/// short list; when servers held the records themselves, a departure scanned and shifted
/// several lines of records per server at 10^4 servers (issue 35). Freed keys are taken
/// last-in first-out, so a job starting in the slot where another left writes a record that
/// is still in the cache.
#[derive(Debug, Clone, Default)]
pub(crate) struct RunningTable {
    held: Vec<Held>,
    free: Vec<RunKey>,
}

/// What the table keeps of a running job: a [`RunningJob`] with one-resource sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Held {
    id: JobId,
    arrival: u64,
    start: u64,
    departure: u64,
    size: u64,
    occupies: u64,
}

impl RunningTable {
    /// Stores `job` and returns its key.
    pub fn insert(&mut self, job: &RunningJob) -> RunKey {
        debug_assert!(job.size.dims() == 1 && job.occupies.dims() == 1, "PG-RR jobs need one resource");
        let held = Held {
            id: job.id,
            arrival: job.arrival,
            start: job.start,
            departure: job.departure,
            size: job.size.primary(),
            occupies: job.occupies.primary(),
        };
        match self.free.pop() {
            Some(key) => {
                self.held[key as usize] = held;
                key
            }
            None => {
                let key = RunKey::try_from(self.held.len()).expect("fewer than 2^32 jobs in service");
                self.held.push(held);
                key
            }
        }
    }

    /// The job under `key`, which must be in service.
    pub fn get(&self, key: RunKey) -> RunningJob {
        let held = self.held[key as usize];
        RunningJob {
            id: held.id,
            arrival: held.arrival,
            start: held.start,
            departure: held.departure,
            size: Resources::scalar(held.size),
            occupies: Resources::scalar(held.occupies),
        }
    }

    /// Takes the job under `key` out of service; its key may be handed out again.
    pub fn remove(&mut self, key: RunKey) -> RunningJob {
        let job = self.get(key);
        self.free.push(key);
        job
    }

    /// How many jobs are in service.
    pub fn len(&self) -> usize {
        self.held.len() - self.free.len()
    }

    /// A hint that the record under `key` will be read soon ([`prefetch()`]).
    #[inline]
    pub fn prefetch(&self, key: RunKey) {
        if let Some(held) = self.held.get(key as usize) {
            prefetch(held);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(id: JobId, size: u64) -> RunningJob {
        let r = Resources::scalar(size);
        RunningJob { id, arrival: id, start: id + 1, departure: id + 5, size: r, occupies: r }
    }

    #[test]
    fn a_freed_key_is_handed_out_next_and_records_come_back_whole() {
        let mut table = RunningTable::default();
        let (a, b) = (table.insert(&job(7, 30)), table.insert(&job(8, 40)));
        assert_ne!(a, b);
        assert_eq!(table.len(), 2);
        assert_eq!(table.remove(a), job(7, 30));
        assert_eq!(table.len(), 1);
        // Last in, first out: the next job reuses the key just freed.
        let c = table.insert(&job(9, 50));
        assert_eq!(c, a);
        assert_eq!(table.get(c), job(9, 50));
        assert_eq!(table.get(b), job(8, 40));
        assert_eq!(table.len(), 2);
    }
}
