//! Jobs: waiting in a queue, or running on a server.

use serde::{Deserialize, Serialize};

use crate::resources::Resources;

/// Jobs are numbered 0, 1, 2, … in the order they are generated, so comparing ids compares
/// arrival order (the FIFO and tie-break rules of SPEC RES-4 rely on this).
pub type JobId = u64;

/// A job in the waiting queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingJob {
    pub id: JobId,
    /// Arrival time (slot number in slotted time).
    pub arrival: u64,
    /// The size drawn from the size distribution.
    pub size: Resources,
    /// The space the job occupies once started: its size, or the size rounded up by the
    /// policy (VQS rounds jobs of size at most 2^-J up to 2^-J, SPEC RES-6).
    pub occupies: Resources,
    /// Service length in slots, drawn when the job arrives so that every policy serves the
    /// same job for the same time (common random numbers).
    pub service: u64,
}

/// A job running on a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunningJob {
    pub id: JobId,
    pub arrival: u64,
    pub start: u64,
    /// The first slot in which the job no longer occupies its server.
    pub departure: u64,
    pub size: Resources,
    pub occupies: Resources,
}
