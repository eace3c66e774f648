//! Error types of the core. Messages are lowercase and name the offending field.

use thiserror::Error;

/// A scenario, policy or preset value that cannot be used.
///
/// `key` names the field as the user wrote it (a `--set` key, a URL query key, a policy
/// parameter), so the CLI and the web page can point at it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{key}: {message}")]
pub struct ConfigError {
    pub key: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        Self { key: key.into(), message: message.into() }
    }
}

/// Why the engine stopped: a policy asked for something the model forbids (a bug in the
/// policy; the engine refuses the decision instead of corrupting the state), or the run
/// outgrew the memory a simulation may use.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    #[error(
        "more than {limit} jobs are waiting at {}: the load is far beyond what the policy can serve; \
         lower `load` or `horizon`", at.describe()
    )]
    QueueLimit { at: Moment, limit: usize },
    #[error("policy bug: job {job} is not waiting")]
    NotWaiting { job: u64 },
    #[error("policy bug: no job of class {class} is waiting")]
    NoneWaiting { class: u32 },
    #[error("policy bug: a type-{job_type} arrival was routed to no server")]
    Unrouted { job_type: u16 },
    #[error("policy bug: server {server} does not exist")]
    NoSuchServer { server: u32 },
    #[error("policy bug: job {job} of size {size} does not fit server {server} (residual {residual})")]
    CapacityExceeded { job: u64, server: u32, size: u64, residual: u64 },
    #[error("policy bug: no job is arriving, so there is nothing to admit or reject")]
    NoArrival,
    #[error("policy bug: job {job} arrived and was neither admitted nor rejected")]
    Unanswered { job: u64 },
    #[error("policy bug: server {server} has no free slot for a type-{job_type} job")]
    NoSlot { server: u32, job_type: u16 },
    #[error("policy bug: server {server} holds no type-{job_type} job")]
    NoJobOfType { server: u32, job_type: u16 },
    #[error("policy bug: server {server} holds {jobs} jobs; its configuration may change only while it is empty")]
    ServerBusy { server: u32, jobs: u32 },
    #[error("policy bug: configuration {counts} does not fit a server")]
    InfeasibleConfiguration { counts: String },
    #[error("the upper bound's LP failed: {message}")]
    Bound { message: String },
}

/// When something happened, in the model's own time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// A slot of slotted time (PG-RR).
    Slot(u64),
    /// The whole time units elapsed in continuous time.
    Time(u64),
}

impl Moment {
    fn describe(&self) -> String {
        match self {
            Self::Slot(t) => format!("slot {t}"),
            Self::Time(t) => format!("time {t}"),
        }
    }
}
