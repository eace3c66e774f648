//! The state of a GH-RA cluster as policies read it: servers with capacity vectors, what runs
//! on them, the queues; the events of the engine.

use std::collections::VecDeque;

use crate::des::Tick;
use crate::resources::Resources;
use crate::workload::ServiceLaw;

/// The system in resolved numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct GhraConfig {
    /// Capacity vector of each server.
    pub capacities: Vec<Resources>,
    /// Demand vector of each VM type.
    pub demands: Vec<Resources>,
    /// λ_j, arrivals of each type per time unit (zero for none).
    pub arrival_rates: Vec<f64>,
    /// 1/μ_j, the mean service time of each type.
    pub mean_service: Vec<f64>,
    pub service: ServiceLaw,
    pub warmup: f64,
    /// The planned end of the run (batches of the delay interval split `[warmup, horizon)`).
    pub horizon: f64,
    pub sample_every: f64,
    pub max_points: usize,
    /// Names of the types (bins) and of each server's kind, for the page.
    pub type_names: Vec<String>,
    pub server_names: Vec<String>,
    /// Names of the resources (none for one-resource models).
    pub resource_names: Vec<&'static str>,
}

impl GhraConfig {
    pub fn servers(&self) -> usize {
        self.capacities.len()
    }

    pub fn types(&self) -> usize {
        self.demands.len()
    }
}

/// A waiting job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GhraJob {
    /// Jobs are numbered in arrival order.
    pub id: u64,
    pub arrival: f64,
    /// Its service time, drawn at arrival (common random numbers).
    pub service: f64,
}

/// A queue: the central one of a type, or a server's own queue of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QueueRef {
    Central { job_type: u16 },
    Local { server: u32, job_type: u16 },
}

impl QueueRef {
    pub fn job_type(self) -> usize {
        match self {
            Self::Central { job_type } | Self::Local { job_type, .. } => job_type as usize,
        }
    }
}

/// Where a started job comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The head of the central queue of its type.
    Central,
    /// The head of the server's own queue of its type.
    Local,
    /// A dummy job, created on the spot.
    Dummy,
}

/// What a policy reacts to; the engine has applied it already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GhraEvent {
    /// Time 0, before anything else.
    Begin,
    /// A job joined `queue` (where the policy routed it).
    Arrival { queue: QueueRef },
    /// A job of `job_type` (a dummy or not) left `server`.
    Departure { server: u32, job_type: u16, dummy: bool },
    /// The clock of `queue` ticked and tried `server` (its own, or for a central queue a
    /// uniformly random one), where a job of the queue's type fits: the engine passes on only
    /// the ticks that find room, the others change nothing.
    Tick { queue: QueueRef, server: u32 },
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    Departure { server: u32, job_type: u16, dummy: bool },
    Tick(Tick),
}

/// What policies read: servers, what runs on them, and the queues.
#[derive(Debug, Clone)]
pub struct GhraState {
    pub(crate) capacities: Vec<Resources>,
    pub(crate) demands: Vec<Resources>,
    /// Per server, the resources held by its real and dummy jobs.
    pub(crate) used: Vec<Resources>,
    /// Running jobs per `server * J + type`, real and dummy.
    pub(crate) real: Vec<u32>,
    pub(crate) dummy: Vec<u32>,
    /// Jobs (real or dummy) on each server.
    pub(crate) jobs: Vec<u32>,
    /// Central queues `0..J`, then server ℓ's queues at `J + ℓ·J ..`.
    pub(crate) queues: Vec<VecDeque<GhraJob>>,
    pub(crate) waiting_by_type: Vec<usize>,
    pub(crate) waiting_at: Vec<usize>,
    pub(crate) waiting_total: usize,
    /// Servers holding at least one job.
    pub(crate) occupied: usize,
    /// Each queue's clock rate, where the policy set one (for the page's readout).
    pub(crate) rates: Vec<f64>,
    /// Servers `0..active` take jobs; the others, up to [`GhraState::servers`], drain or are
    /// not there yet (a change of the fleet while the run plays, RES-97). A draining server
    /// has no room (its capacity is what its jobs hold), one not there has none at all.
    pub(crate) active: usize,
}

impl GhraState {
    /// The servers the run is built with: the most its changes reach (RES-97). Those from
    /// [`GhraState::active`] on take no job.
    pub fn servers(&self) -> usize {
        self.capacities.len()
    }

    /// The servers that take jobs, `0..active`: every server, unless the fleet changed while
    /// the run plays (RES-97).
    pub fn active(&self) -> usize {
        self.active
    }

    pub fn types(&self) -> usize {
        self.demands.len()
    }

    pub fn capacity(&self, server: usize) -> &Resources {
        &self.capacities[server]
    }

    pub fn demand(&self, job_type: usize) -> &Resources {
        &self.demands[job_type]
    }

    /// Whether one more job of `job_type` fits `server` now, real and dummy jobs counted.
    pub fn fits(&self, job_type: usize, server: usize) -> bool {
        self.demands[job_type].fits_with(&self.used[server], &self.capacities[server])
    }

    /// Whether a job of `job_type` fits `server` when it is empty (RES-17: only such
    /// servers may queue the type).
    pub fn fits_empty(&self, job_type: usize, server: usize) -> bool {
        self.demands[job_type].le(&self.capacities[server])
    }

    /// Real jobs of `job_type` running on `server`.
    pub fn real(&self, server: usize, job_type: usize) -> u32 {
        self.real[server * self.types() + job_type]
    }

    /// Dummy jobs of `job_type` on `server`.
    pub fn dummies(&self, server: usize, job_type: usize) -> u32 {
        self.dummy[server * self.types() + job_type]
    }

    /// Jobs of `job_type`, real or dummy, on `server`.
    pub fn running(&self, server: usize, job_type: usize) -> u32 {
        self.real(server, job_type) + self.dummies(server, job_type)
    }

    /// Jobs, real or dummy, on `server`.
    pub fn jobs_on(&self, server: usize) -> u32 {
        self.jobs[server]
    }

    /// Whether no server holds a job.
    pub fn all_servers_empty(&self) -> bool {
        self.occupied == 0
    }

    /// What a job of `job_type` placed or routed on `server`, past the servers that take jobs,
    /// is refused with: no such server, or (draining or not there yet) no room (RES-97).
    pub(crate) fn refused(&self, server: u32, job: u64, job_type: usize) -> crate::EngineError {
        match (server as usize) < self.servers() {
            true => crate::EngineError::CapacityExceeded {
                job,
                server,
                size: self.demands[job_type].primary(),
                residual: 0,
            },
            false => crate::EngineError::NoSuchServer { server },
        }
    }

    pub(crate) fn index(&self, queue: QueueRef) -> usize {
        match queue {
            QueueRef::Central { job_type } => job_type as usize,
            QueueRef::Local { server, job_type } => self.types() * (1 + server as usize) + job_type as usize,
        }
    }

    /// Jobs waiting in `queue`.
    pub fn queue_len(&self, queue: QueueRef) -> usize {
        self.queues.get(self.index(queue)).map_or(0, VecDeque::len)
    }

    /// Jobs of `job_type` waiting anywhere (Q_j).
    pub fn waiting_of_type(&self, job_type: usize) -> usize {
        self.waiting_by_type[job_type]
    }

    /// Jobs waiting in `server`'s own queues.
    pub fn waiting_at(&self, server: usize) -> usize {
        self.waiting_at[server]
    }

    /// Σ_j Q_j.
    pub fn waiting_total(&self) -> usize {
        self.waiting_total
    }

    /// The rate the policy last set for `queue`'s clock.
    pub fn clock_rate(&self, queue: QueueRef) -> Option<f64> {
        self.rates.get(self.index(queue)).copied().filter(|r| *r > 0.0)
    }
}
