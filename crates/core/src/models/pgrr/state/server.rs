//! Servers: a capacity and the jobs in service.

use super::{JobId, RunningJob};
use crate::index::prefetch;
use crate::resources::Resources;

/// Servers are numbered 0..L; ties between servers go to the lowest index (SPEC RES-4).
pub type ServerId = u32;

/// One server of a one-resource cluster. Only the engine mutates it, so its capacity can
/// never be exceeded and no job can leave before its departure time.
///
/// It keeps its numbers as plain `u64`s rather than [`Resources`] (40 bytes each): a server
/// takes 40 bytes and a job on it 48, against 104 and 112. A cluster of 10^4 servers runs
/// some 10^5 jobs, every start and departure reads one server's list, and at that size the
/// general types spent a tenth of BF-J/S's time in cache misses and copies (issue 19).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    capacity: u64,
    used: u64,
    jobs: Vec<Held>,
}

/// What a server keeps of a running job: a [`RunningJob`] with one-resource sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Held {
    id: JobId,
    arrival: u64,
    start: u64,
    departure: u64,
    size: u64,
    occupies: u64,
}

impl Held {
    fn of(job: &RunningJob) -> Self {
        debug_assert!(job.size.dims() == 1 && job.occupies.dims() == 1, "PG-RR jobs need one resource");
        Self {
            id: job.id,
            arrival: job.arrival,
            start: job.start,
            departure: job.departure,
            size: job.size.primary(),
            occupies: job.occupies.primary(),
        }
    }

    fn job(self) -> RunningJob {
        RunningJob {
            id: self.id,
            arrival: self.arrival,
            start: self.start,
            departure: self.departure,
            size: Resources::scalar(self.size),
            occupies: Resources::scalar(self.occupies),
        }
    }
}

impl Server {
    pub fn new(capacity: u64) -> Self {
        Self { capacity, used: 0, jobs: Vec::new() }
    }

    pub fn capacity(&self) -> Resources {
        Resources::scalar(self.capacity)
    }

    pub fn used(&self) -> Resources {
        Resources::scalar(self.used)
    }

    /// Free space.
    #[inline]
    pub fn residual(&self) -> u64 {
        self.capacity - self.used
    }

    /// The jobs in service, in the order they started.
    pub fn jobs(&self) -> impl ExactSizeIterator<Item = RunningJob> + '_ {
        self.jobs.iter().map(|held| held.job())
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// A hint that the list of jobs will be read soon.
    #[inline]
    pub(crate) fn prefetch_jobs(&self) {
        prefetch(self.jobs.as_ptr());
    }

    /// Whether a job occupying `space` fits beside the jobs in service.
    #[inline]
    pub fn fits(&self, space: u64) -> bool {
        space <= self.residual()
    }

    /// Adds a job; the caller has checked [`Server::fits`].
    pub(crate) fn push(&mut self, job: RunningJob) {
        let held = Held::of(&job);
        debug_assert!(self.fits(held.occupies));
        self.used += held.occupies;
        self.jobs.push(held);
    }

    /// Removes a job. A server holds few jobs (at most capacity / smallest size), so the
    /// linear search is bounded by the server, not by the system.
    pub(crate) fn remove(&mut self, id: JobId) -> Option<RunningJob> {
        let at = self.jobs.iter().position(|j| j.id == id)?;
        let held = self.jobs.remove(at); // keeps placement order for drawing
        self.used -= held.occupies;
        Some(held.job())
    }
}
