//! The state of an MSFQ machine as policies read it: cores, classes, the per-class FIFO
//! queues and the jobs in service; the events of the engine.

use std::collections::VecDeque;
use std::sync::Arc;

use super::classes::JobClasses;
use super::trace::ClassJobs;
use crate::workload::ServiceLaw;

/// The system in resolved numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct MsfqConfig {
    /// k, the cores of the machine.
    pub cores: u32,
    /// λ, total arrivals per time unit.
    pub arrival_rate: f64,
    pub classes: JobClasses,
    pub service: ServiceLaw,
    /// Time discarded before measuring.
    pub warmup: f64,
    /// The planned end of the run (per-job batches for the confidence interval split
    /// `[warmup, horizon)` into equal parts).
    pub horizon: f64,
    /// Grid interval of the series.
    pub sample_every: f64,
    /// Series merge pairwise beyond this many points.
    pub max_points: usize,
    /// An SWF log replayed instead of the Poisson arrivals, with its traffic scaling 1/β; its
    /// classes are `classes`.
    pub trace: Option<(Arc<ClassJobs>, f64)>,
}

/// A waiting job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MsfqJob {
    /// Jobs are numbered in arrival order, so ids compare arrival times.
    pub id: u64,
    pub arrival: f64,
    /// Its service time, drawn at arrival (common random numbers).
    pub service: f64,
}

/// The engine's events.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    /// The next arrival. Only the latest version counts: a change of the load reschedules it
    /// (RES-93) and the older one is dropped when it reaches the front.
    Arrival {
        version: u32,
    },
    Completion {
        class: u16,
        arrival: f64,
    },
    /// The policy's timer (nMSR's schedule changes). Only the latest one set counts: an
    /// older version is dropped when it reaches the front (lazy invalidation).
    Timer {
        version: u64,
    },
}

/// What policies read: cores, classes, queues and jobs in service.
#[derive(Debug, Clone)]
pub struct MsfqState {
    pub(crate) cores: u32,
    pub(crate) free: u32,
    pub(crate) needs: Vec<u32>,
    pub(crate) waiting: Vec<VecDeque<MsfqJob>>,
    pub(crate) in_service: Vec<u32>,
    pub(crate) waiting_total: usize,
    pub(crate) running_total: usize,
}

impl MsfqState {
    /// k.
    pub fn cores(&self) -> u32 {
        self.cores
    }

    /// Cores not held by a running job.
    pub fn free(&self) -> u32 {
        self.free
    }

    pub fn busy(&self) -> u32 {
        self.cores - self.free
    }

    /// Number of classes; classes are indexed by ascending need.
    pub fn classes(&self) -> usize {
        self.needs.len()
    }

    pub fn need(&self, class: usize) -> u32 {
        self.needs[class]
    }

    /// Waiting jobs of `class`.
    pub fn waiting(&self, class: usize) -> usize {
        self.waiting[class].len()
    }

    /// Running jobs of `class`.
    pub fn in_service(&self, class: usize) -> u32 {
        self.in_service[class]
    }

    /// The oldest waiting job of `class`.
    pub fn head(&self, class: usize) -> Option<&MsfqJob> {
        self.waiting[class].front()
    }

    pub fn waiting_total(&self) -> usize {
        self.waiting_total
    }

    pub fn running_total(&self) -> usize {
        self.running_total
    }

    /// Whether no job waits or runs.
    pub fn is_empty(&self) -> bool {
        self.waiting_total == 0 && self.running_total == 0
    }

    /// A state with the given counts (ids in class order), for policy tests.
    #[cfg(test)]
    pub(crate) fn from_counts(cores: u32, needs: &[u32], waiting: &[usize], in_service: &[u32]) -> Self {
        let mut id = 0;
        let queues = waiting
            .iter()
            .map(|&n| {
                (0..n)
                    .map(|_| {
                        id += 1;
                        MsfqJob { id, arrival: 0.0, service: 1.0 }
                    })
                    .collect()
            })
            .collect();
        let busy: u32 = needs.iter().zip(in_service).map(|(n, u)| n * u).sum();
        Self {
            cores,
            free: cores - busy,
            needs: needs.to_vec(),
            waiting: queues,
            in_service: in_service.to_vec(),
            waiting_total: waiting.iter().sum(),
            running_total: in_service.iter().map(|&u| u as usize).sum(),
        }
    }

    /// The class of the oldest waiting job among classes that `accept`.
    pub fn oldest_where(&self, accept: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.classes()).filter(|&c| accept(c)).filter_map(|c| self.head(c).map(|j| (j.id, c))).min().map(|(_, c)| c)
    }
}

impl MsfqState {
    /// An empty machine of `cores` cores with classes of these needs.
    pub(crate) fn new(cores: u32, needs: Vec<u32>) -> Self {
        let n = needs.len();
        Self {
            cores,
            free: cores,
            needs,
            waiting: vec![VecDeque::new(); n],
            in_service: vec![0; n],
            waiting_total: 0,
            running_total: 0,
        }
    }
}
