//! The state of a PG-RR cluster as policies read it: the servers with their jobs, the waiting
//! queue, the departure calendar, and the counts of a run.

mod calendar;
mod cluster;
mod job;
mod queue;
mod running;
mod server;

pub(crate) use calendar::DepartureCalendar;
pub use cluster::Cluster;
pub use job::{JobId, RunningJob, WaitingJob};
pub use queue::WaitingQueue;
pub(crate) use running::RunKey;
pub use server::{Server, ServerId};

use serde::{Deserialize, Serialize};

use super::partition::Partition;

/// The mutable state of a slotted run: what the engine owns and a policy's decisions change.
#[derive(Debug, Clone)]
pub struct SlotState {
    pub(crate) cluster: Cluster,
    pub(crate) queue: WaitingQueue,
    pub(crate) departures: DepartureCalendar,
    /// The configuration each server was running when it last received a job (VQS, VQS-BF),
    /// cleared when it empties.
    pub(crate) tags: Vec<Option<u16>>,
    /// The partition the waiting jobs are counted by (the policy's virtual queues, or the
    /// scenario's size classes).
    pub(crate) classes: Partition,
    pub(crate) waiting_by_class: Vec<u64>,
    pub(crate) warmup: u64,
    pub(crate) counters: Counters,
}

impl SlotState {
    pub(crate) fn new(servers: usize, capacity: u64, classes: Partition, mean_service: f64, warmup: u64) -> Self {
        Self {
            cluster: Cluster::new(servers, capacity),
            queue: WaitingQueue::default(),
            departures: DepartureCalendar::new(mean_service),
            tags: vec![None; servers],
            classes,
            waiting_by_class: vec![0; classes.types()],
            warmup,
            counters: Counters::default(),
        }
    }
}

/// Job counts and sums of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    pub arrivals: u64,
    pub started: u64,
    pub departed: u64,
    /// Jobs that arrived at or after the warm-up.
    pub window_arrivals: u64,
    /// Of those, the ones that have started.
    pub window_started: u64,
    /// Their total waiting time in slots (start − arrival).
    pub window_wait: u64,
    /// The arrival slots of the measured jobs still waiting, summed: at slot t they have
    /// waited (window_arrivals − window_started)·t − this so far.
    pub window_waiting_arrivals: u64,
}

impl Counters {
    /// The mean wait at `slot` of the jobs that arrived after the warm-up, those still waiting
    /// counted with their wait so far (the rule of every model, [`crate::metrics::JobTimes`];
    /// here in whole slots, exactly). 0 before the first measured arrival.
    pub fn mean_wait(&self, slot: u64) -> f64 {
        let waiting = self.window_arrivals - self.window_started;
        let so_far = (waiting * slot).saturating_sub(self.window_waiting_arrivals);
        (self.window_wait + so_far) as f64 / self.window_arrivals.max(1) as f64
    }
}
