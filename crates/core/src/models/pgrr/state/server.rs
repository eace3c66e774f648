//! Servers: a capacity vector and the jobs in service.

use super::{JobId, RunningJob};
use crate::resources::Resources;

/// Servers are numbered 0..L; ties between servers go to the lowest index (SPEC RES-4).
pub type ServerId = u32;

/// One server of a cluster. Only the engine mutates it, so its capacity can never be
/// exceeded and no job can leave before its departure time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    capacity: Resources,
    used: Resources,
    jobs: Vec<RunningJob>,
}

impl Server {
    pub fn new(capacity: Resources) -> Self {
        Self { capacity, used: Resources::zero(capacity.dims()), jobs: Vec::new() }
    }

    pub fn capacity(&self) -> Resources {
        self.capacity
    }

    pub fn used(&self) -> Resources {
        self.used
    }

    /// Free space in the first dimension.
    pub fn residual(&self) -> u64 {
        self.capacity.primary() - self.used.primary()
    }

    pub fn jobs(&self) -> &[RunningJob] {
        &self.jobs
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    pub fn fits(&self, demand: &Resources) -> bool {
        demand.fits_with(&self.used, &self.capacity)
    }

    /// Adds a job; the caller has checked [`Server::fits`].
    pub(crate) fn push(&mut self, job: RunningJob) {
        debug_assert!(self.fits(&job.occupies));
        self.used = self.used.plus(&job.occupies);
        self.jobs.push(job);
    }

    /// Removes a job. A server holds few jobs (at most capacity / smallest size), so the
    /// linear search is bounded by the server, not by the system.
    pub(crate) fn remove(&mut self, id: JobId) -> Option<RunningJob> {
        let at = self.jobs.iter().position(|j| j.id == id)?;
        let job = self.jobs.remove(at); // keeps placement order for drawing
        self.used = self.used.minus(&job.occupies);
        Some(job)
    }
}
