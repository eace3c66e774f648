//! Servers: a capacity and the jobs in service.

use super::running::RunKey;
use crate::index::prefetch;
use crate::resources::Resources;

/// Servers are numbered 0..L; ties between servers go to the lowest index (SPEC RES-4).
pub type ServerId = u32;

/// One server of a one-resource cluster. Only the engine mutates it, so its capacity can
/// never be exceeded and no job can leave before its departure time.
///
/// It keeps its numbers as plain `u64`s rather than [`Resources`] (40 bytes each), and its
/// jobs as keys into the cluster's table of running jobs ([`super::Cluster::jobs_on`]): a
/// cluster of 10^4 servers runs some 10^5 jobs, every start and departure reads one server's
/// list, and at that size a longer record is a cache miss more (issues 19 and 35).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// The capacity it offers: the cluster's, or while it drains after a change of the server
    /// count, what its jobs hold (so no job fits and every index sees it full, RES-95).
    capacity: u64,
    used: u64,
    /// The keys of the jobs in service, in the order they started (the drawing's order).
    jobs: Vec<RunKey>,
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

    /// How many jobs are in service.
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// The keys of the jobs in service, in the order they started.
    pub(crate) fn keys(&self) -> &[RunKey] {
        &self.jobs
    }

    /// A hint that the list of jobs will be read soon.
    #[inline]
    pub(crate) fn prefetch_jobs(&self) {
        prefetch(self.jobs.as_ptr());
    }

    /// Stops offering room: it drains (RES-95). Its capacity becomes what it holds.
    pub(crate) fn close(&mut self) {
        self.capacity = self.used;
    }

    /// Offers `capacity` again (a drain cancelled, or a server added).
    pub(crate) fn open(&mut self, capacity: u64) {
        self.capacity = capacity;
    }

    /// Takes what a departing job held off a draining server's capacity, which stays at what
    /// its jobs hold.
    pub(crate) fn shrink(&mut self, space: u64) {
        self.capacity -= space;
    }

    /// Whether a job occupying `space` fits beside the jobs in service.
    #[inline]
    pub fn fits(&self, space: u64) -> bool {
        space <= self.residual()
    }

    /// Adds the job under `key` occupying `space`; the caller has checked [`Server::fits`].
    pub(crate) fn push(&mut self, key: RunKey, space: u64) {
        debug_assert!(self.fits(space));
        self.used += space;
        self.jobs.push(key);
    }

    /// Removes the job under `key`, which occupied `space`. A server holds few jobs (at most
    /// capacity / smallest size), so the linear search is bounded by the server, not by the
    /// system. Returns whether the job was here.
    pub(crate) fn remove(&mut self, key: RunKey, space: u64) -> bool {
        let Some(at) = self.jobs.iter().position(|&k| k == key) else { return false };
        self.jobs.remove(at); // keeps placement order for drawing
        self.used -= space;
        true
    }
}
