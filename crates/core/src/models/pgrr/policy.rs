//! What a PG-RR policy is: the trait, the decisions it hands the engine, and the context it
//! reads the cluster through during a slot's scheduling phase.
//!
//! A policy reads the state and hands back [`PgrrDecision`]s through [`PgrrContext::apply`];
//! the engine's rules run there: the job must be waiting, the server must exist and the job
//! must fit. Nothing lets a policy remove a running job, so non-preemption holds by
//! construction.

use serde::Serialize;

use super::state::{Cluster, JobId, RunningJob, ServerId, SlotState, WaitingJob, WaitingQueue};
use crate::EngineError;
use crate::decisions::{Decision, DecisionLog, short};
use crate::rng::StreamRng;

/// A policy for the slotted engine.
pub trait PgrrPolicy: dyn_clone::DynClone {
    /// Places waiting jobs for the current slot through [`PgrrContext::apply`]. Called once
    /// per slot, after departures and arrivals.
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError>;

    /// The space a job of size `size` occupies once started (VQS rounds tiny jobs up).
    fn occupies(&self, size: u64) -> u64 {
        size
    }

    /// A job joined the queue.
    fn on_arrival(&mut self, _job: &WaitingJob) {}

    /// A job left `server` at the end of its service.
    fn on_departure(&mut self, _job: &RunningJob, _server: ServerId) {}

    /// The server count changed (RES-95): servers `0..cluster.active()` take jobs, the others
    /// drain. Called at the start of the slot of the change, and when the run starts if the
    /// cluster holds servers added later. A policy that finds servers through the cluster's
    /// indexes needs nothing: a draining server offers no room there. One that keeps its own
    /// record of the servers (VQS) must stop offering the draining ones.
    fn on_servers(&mut self, _cluster: &Cluster) {}

    /// The partition depth of the policy's own virtual queues (VQS, VQS-BF): the engine then
    /// counts the waiting jobs by those queues, and the page draws them as queues rather than
    /// as a size histogram.
    fn virtual_queues(&self) -> Option<u8> {
        None
    }
}

// A policy is part of a run's state: the timeline's checkpoints clone it with the engine.
dyn_clone::clone_trait_object!(PgrrPolicy);

/// A built policy, as a policy file's `build` returns it.
pub fn boxed(policy: impl PgrrPolicy + 'static) -> Result<Box<dyn PgrrPolicy>, crate::ConfigError> {
    Ok(Box::new(policy))
}

/// Why a start on `server`, at or past the servers that take jobs, is refused: no such server,
/// or a capacity violation (a draining server has no room, RES-95).
#[cold]
fn refuse_closed(st: &SlotState, job: JobId, server: ServerId) -> EngineError {
    if server as usize >= st.cluster.len() {
        return EngineError::NoSuchServer { server };
    }
    match st.queue.get(job) {
        Some(waiting) => EngineError::CapacityExceeded { job, server, size: waiting.occupies.primary(), residual: 0 },
        None => EngineError::NotWaiting { job },
    }
}

/// What a PG-RR policy asks the engine to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PgrrDecision {
    /// Start waiting job `job` on `server` now. `rule` says why, for the page's "why" label.
    Start { job: JobId, server: ServerId, rule: Rule },
}

/// The rule behind a placement, shown to the user next to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Rule {
    /// The policy chose the server for the job; the text says how ("best fit: the fullest
    /// server it fits").
    Server(&'static str),
    /// The policy chose the job for the server ("largest waiting job that fits this server").
    Job(&'static str),
    /// VQS / VQS-BF: placed while the server runs configuration `config` (an index into
    /// K_RED in canonical order).
    Config { config: u16, step: ConfigStep },
}

/// Which part of a configuration-based placement started the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ConfigStep {
    /// The type-1 job (VQS: in the two-thirds region reserved for it).
    TypeOne,
    /// A job of the configuration's other type.
    ConfigType,
    /// VQS-BF step (iii): best-fit fill from the whole queue.
    BestFitFill,
}

/// A placement the engine applied, with what the user needs to understand it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Placement {
    pub slot: u64,
    pub job: JobId,
    pub server: ServerId,
    /// Space the job occupies.
    pub size: u64,
    pub residual_before: u64,
    pub residual_after: u64,
    pub rule: Rule,
}

impl Placement {
    /// What was placed where, and the rule's reason, as the page says them.
    pub(super) fn describe(&self, capacity: u64, classes: &super::partition::Partition) -> (String, String) {
        let p = self;
        let rule = match p.rule {
            Rule::Server(why) | Rule::Job(why) => why.to_string(),
            Rule::Config { config, step } => {
                let k = super::partition::reduced_configs(classes.j())[config as usize].label();
                match step {
                    ConfigStep::TypeOne => format!("configuration {k}: its type-1 job"),
                    ConfigStep::ConfigType => format!("configuration {k}: one of its jobs"),
                    ConfigStep::BestFitFill => format!("configuration {k}, then best fit into the room left"),
                }
            }
        };
        let what = format!(
            "job {} (size {:.2}, {}) → server {}",
            p.job,
            p.size as f64 / capacity as f64,
            super::partition::bin_name(classes.type_of(p.size)),
            p.server + 1,
        );
        (what, rule)
    }
}

/// Placement `p` of a job that arrived at `arrival`, as the event log shows it.
fn start_decision(p: &Placement, capacity: u64, classes: &super::partition::Partition, arrival: u64) -> Decision {
    let (what, why) = p.describe(capacity, classes);
    let frac = |units: u64| short(units as f64 / capacity as f64);
    Decision::new(p.slot as f64, "start", what, why)
        .job(p.job)
        .server(p.server)
        .bin(classes.type_of(p.size))
        .fact("room before → after", format!("{} → {}", frac(p.residual_before), frac(p.residual_after)))
        .fact("waited", format!("{} slots", p.slot - arrival))
}

/// What the policy sees and may do during the scheduling phase of one slot.
pub struct PgrrContext<'a> {
    pub(crate) slot: u64,
    pub(crate) departed: &'a [ServerId],
    pub(crate) arrivals: &'a [WaitingJob],
    pub(crate) state: &'a mut SlotState,
    pub(crate) last: &'a mut Option<Placement>,
    pub(crate) rng: &'a mut StreamRng,
    pub(crate) log: &'a mut DecisionLog,
}

impl<'a> PgrrContext<'a> {
    /// The current slot t.
    pub fn slot(&self) -> u64 {
        self.slot
    }

    /// Dep(t): servers that lost at least one job this slot, in increasing index order.
    pub fn departed(&self) -> &'a [ServerId] {
        self.departed
    }

    /// Jobs that arrived this slot, in arrival order (some may have started already).
    pub fn arrivals(&self) -> &'a [WaitingJob] {
        self.arrivals
    }

    pub fn cluster(&self) -> &Cluster {
        &self.state.cluster
    }

    pub fn queue(&self) -> &WaitingQueue {
        &self.state.queue
    }

    /// `units` of capacity as a fraction of a server, for notes ("0.42").
    pub fn units(&self, units: u64) -> String {
        short(units as f64 / self.state.cluster.capacity() as f64)
    }

    /// Records a decision that starts no job (a blocked head), when the run keeps a log.
    pub fn record(&mut self, decision: impl FnOnce(f64) -> Decision) {
        let slot = self.slot as f64;
        self.log.record(|| decision(slot));
    }

    /// Whether the run keeps a decision log: format notes only then.
    pub fn explaining(&self) -> bool {
        self.log.explaining()
    }

    /// Whether a note made now would be kept (a decision keeps at most
    /// [`crate::decisions::MAX_NOTES`]): a script formats its notes only then.
    pub fn keeps_notes(&self) -> bool {
        self.log.keeps_notes()
    }

    /// A fact the policy looked at, for the next decision it hands over (the event log and
    /// the inspector show it). Free when the run keeps no log.
    pub fn note(&mut self, label: impl Into<String>, value: impl Into<String>) {
        self.log.note(label, value);
    }

    /// The policy's own random stream (coin flips, random tie-breaks).
    pub fn rng(&mut self) -> &mut StreamRng {
        self.rng
    }

    /// Validates and applies a decision. A refused decision changes nothing.
    pub fn apply(&mut self, decision: PgrrDecision) -> Result<RunningJob, EngineError> {
        let PgrrDecision::Start { job, server, rule } = decision;
        let st = &mut *self.state;
        // A server past the count in force drains or has not been added (RES-95): the same
        // one comparison as "no such server" when the count never changes.
        if server as usize >= st.cluster.active() {
            return Err(refuse_closed(st, job, server));
        }
        let residual_before = st.cluster.residual(server);
        let target = st.cluster.server(server);
        let waiting = match st.queue.remove_if(job, |waiting| target.fits(waiting.occupies.primary())) {
            Some(Ok(waiting)) => waiting,
            Some(Err(waiting)) => {
                return Err(EngineError::CapacityExceeded {
                    job,
                    server,
                    size: waiting.occupies.primary(),
                    residual: residual_before,
                });
            }
            None => return Err(EngineError::NotWaiting { job }),
        };
        let running = RunningJob {
            id: job,
            arrival: waiting.arrival,
            start: self.slot,
            departure: self.slot + waiting.service,
            size: waiting.size,
            occupies: waiting.occupies,
        };
        let key = st.cluster.place(server, running);
        st.departures.push(running.departure, job, key, server);
        st.waiting_by_class[st.classes.type_of(waiting.size.primary())] -= 1;
        if let Rule::Config { config, .. } = rule {
            st.tags[server as usize] = Some(config);
        }
        let placement = Placement {
            slot: self.slot,
            job,
            server,
            size: waiting.occupies.primary(),
            residual_before,
            residual_after: st.cluster.residual(server),
            rule,
        };
        *self.last = Some(placement);
        let (capacity, classes, arrival) = (st.cluster.capacity(), &st.classes, waiting.arrival);
        self.log.record(|| start_decision(&placement, capacity, classes, arrival));
        st.counters.started += 1;
        if waiting.arrival >= st.warmup {
            st.counters.window_started += 1;
            st.counters.window_wait += self.slot - waiting.arrival;
            st.counters.window_waiting_arrivals -= waiting.arrival;
        }
        Ok(running)
    }
}
