//! Scheduling policies. One file per policy, each opening with the rule it implements and
//! the paper section it comes from.
//!
//! A policy reads the engine's state and hands back [`Decision`]s; the engine validates each
//! one (the job is waiting, the server exists, the job fits) before applying it. Nothing in
//! the trait lets a policy remove a running job, so non-preemption holds by construction.
//! Metrics and drawing never go through the policy.

pub mod ghra;
pub mod msj;
pub mod pgas;
pub mod pgrr;
mod spec;

use serde::{Deserialize, Serialize};

pub use spec::{CycleOrder, Model, MsjOptions, PgasOptions, PolicyKind, PolicySpec, VmOptions, VqOptions};

use crate::EngineError;
use crate::engine::slotted::SlotContext;
use crate::model::{JobId, RunningJob, ServerId, WaitingJob};

/// What a policy asks the engine to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// Start waiting job `job` on `server` now. `rule` says why, for the page's "why" label.
    Start { job: JobId, server: ServerId, rule: Rule },
}

/// The rule behind a placement, shown to the user next to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rule {
    /// BF-S: the largest waiting job that fits this server.
    LargestFit,
    /// BF-J: the server with the smallest residual that fits this job.
    BestServer,
    /// FIFO-FF: the lowest-index server that fits this job.
    FirstFit,
    /// VQS / VQS-BF: placed while the server runs configuration `config` (an index into
    /// K_RED in canonical order).
    Config { config: u16, step: ConfigStep },
}

/// Which part of a configuration-based placement started the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConfigStep {
    /// The type-1 job (VQS: in the two-thirds region reserved for it).
    TypeOne,
    /// A job of the configuration's other type.
    ConfigType,
    /// VQS-BF step (iii): best-fit fill from the whole queue.
    BestFitFill,
}

/// A policy for the slotted engine (PG-RR).
pub trait SlottedPolicy {
    /// Places waiting jobs for the current slot through [`SlotContext::apply`]. Called once per
    /// slot, after departures and arrivals.
    fn schedule(&mut self, ctx: &mut SlotContext<'_>) -> Result<(), EngineError>;

    /// The space a job of size `size` occupies once started (VQS rounds tiny jobs up).
    fn occupies(&self, size: u64) -> u64 {
        size
    }

    /// A job joined the queue.
    fn on_arrival(&mut self, _job: &WaitingJob) {}

    /// A job left `server` at the end of its service.
    fn on_departure(&mut self, _job: &RunningJob, _server: ServerId) {}

    /// Whether the policy keeps virtual queues by size class (VQS, VQS-BF); the page then
    /// draws the waiting jobs as those queues rather than as a size histogram.
    fn keeps_virtual_queues(&self) -> bool {
        false
    }
}
