//! What an MSFQ policy is: the trait, the decisions it hands the engine, what it reports
//! about itself, and the context it reads the machine through.
//!
//! A policy answers each arrival and each completion with its admission routine (RES-55),
//! applying [`MsfqDecision`]s through [`MsfqContext::apply`]: the engine starts the oldest
//! waiting job of the class (RES-37) and refuses one that does not fit. Nothing lets a policy
//! stop a running job, so non-preemption holds by construction. What the policy is doing (its
//! phase, the class it serves) it reports with [`MsfqContext::observe`]; the engine's
//! statistics and the page read those reports, never the policy.

use std::fmt;

use super::state::{Event, MsfqState};
use super::stats::MsfqStats;
use crate::EngineError;
use crate::decisions::{Decision, DecisionLog, short};
use crate::des::EventQueue;
use crate::rng::StreamRng;

/// A policy for the multiserver-job model.
pub trait MsfqPolicy: dyn_clone::DynClone {
    /// The admission routine, run after every arrival and every completion (RES-55).
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError>;

    /// Called once at time 0, before any event, so a policy can set its first timer and
    /// report its first status.
    fn on_start(&mut self, _ctx: &mut MsfqContext<'_>) {}

    /// The timer set with [`MsfqContext::set_timer`] fired; the admission routine runs right
    /// after.
    fn on_timer(&mut self, _ctx: &mut MsfqContext<'_>) {}

    /// The MSFQ threshold ℓ this policy is, where it is MSF (ℓ = 0) or MSFQ(ℓ) with the strict
    /// phase 4: the policies the paper's analysis covers (SPEC 5.6).
    fn analysed_threshold(&self) -> Option<u32> {
        None
    }
}

// A policy is part of a run's state: the timeline's checkpoints clone it with the engine.
dyn_clone::clone_trait_object!(MsfqPolicy);

/// A built policy, as a policy file's `build` returns it.
pub fn boxed(policy: impl MsfqPolicy + 'static) -> Result<Box<dyn MsfqPolicy>, crate::ConfigError> {
    Ok(Box::new(policy))
}

/// What an MSFQ policy asks the engine to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MsfqDecision {
    /// Start the oldest waiting job of `class` (FCFS within a class, RES-37). `why` is the
    /// rule, shown to the user.
    Start { class: usize, why: &'static str },
}

/// What a policy reports about itself.
#[derive(Debug, Clone, PartialEq)]
pub enum MsfqObservation {
    /// The phase machine entered phase `1..=4` (SPEC 5.4's H_i are measured from these).
    Phase(u8),
    /// The phase machine parked on an empty system (RES-40): idle time, not a phase.
    Park,
    /// What the policy is doing now, for the page.
    Status(Status),
}

/// What a policy is doing, as the page labels the machine.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// The phase machine waits for work.
    Idle,
    /// MSF/MSFQ's phase 1..=4.
    Phase(u8),
    /// Static Quickswap serves (or drains) the class of this need.
    Serving { need: u32, draining: bool },
    /// Adaptive Quickswap fills like MSF.
    Filling,
    /// Adaptive Quickswap drains until the largest waiting job, of this need, fits.
    DrainingFor { need: u32 },
    /// Any other description.
    Text(String),
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Idle => write!(f, "idle"),
            Self::Phase(phase) => {
                let what = match phase {
                    1 => "large jobs",
                    2 => "small jobs, k at once",
                    3 => "small jobs down to ℓ",
                    _ => "draining small jobs",
                };
                write!(f, "phase {phase}: {what}")
            }
            Self::Serving { need, draining: false } => write!(f, "serving need {need}"),
            Self::Serving { need, draining: true } => write!(f, "draining need {need}"),
            Self::Filling => write!(f, "filling (MSF)"),
            Self::DrainingFor { need } => write!(f, "draining for need {need}"),
            Self::Text(text) => write!(f, "{text}"),
        }
    }
}

/// The most recent start, for the page's "why".
#[derive(Debug, Clone, PartialEq)]
pub struct LastStart {
    pub time: f64,
    pub class: usize,
    pub free_before: u32,
    pub why: &'static str,
}

/// What a policy sees and may do in its admission routine.
pub struct MsfqContext<'a> {
    pub(crate) now: f64,
    pub(crate) state: &'a mut MsfqState,
    pub(crate) events: &'a mut EventQueue<Event>,
    pub(crate) stats: &'a mut MsfqStats,
    pub(crate) last: &'a mut Option<LastStart>,
    pub(crate) status: &'a mut Option<Status>,
    pub(crate) policy_rng: &'a mut StreamRng,
    pub(crate) timer_version: &'a mut u64,
    pub(crate) log: &'a mut DecisionLog,
}

impl MsfqContext<'_> {
    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &MsfqState {
        self.state
    }

    /// Validates and applies a decision; a refused one changes nothing: the class must have a
    /// waiting job and it must fit in the free cores.
    pub fn apply(&mut self, decision: MsfqDecision) -> Result<(), EngineError> {
        let MsfqDecision::Start { class, why } = decision;
        let st = &mut *self.state;
        let need = *st.needs.get(class).ok_or(EngineError::NoSuchServer { server: class as u32 })?;
        let Some(&job) = st.waiting[class].front() else {
            return Err(EngineError::NoneWaiting { class: class as u32 });
        };
        if need > st.free {
            return Err(EngineError::CapacityExceeded {
                job: job.id,
                server: 0,
                size: need as u64,
                residual: st.free as u64,
            });
        }
        st.waiting[class].pop_front();
        let free_before = st.free;
        st.free -= need;
        st.in_service[class] += 1;
        st.waiting_total -= 1;
        st.running_total += 1;
        self.events.push(self.now + job.service, Event::Completion { class: class as u16, arrival: job.arrival });
        self.stats.started(self.now, class, &job, st);
        *self.last = Some(LastStart { time: self.now, class, free_before, why });
        let (now, free, waiting) = (self.now, st.free, st.waiting[class].len());
        self.log.record(|| {
            let cores = if need == 1 { "1 core".to_string() } else { format!("{need} cores") };
            Decision::new(now, "start", format!("job {} (needs {cores}) starts", job.id), why)
                .job(job.id)
                .server(0)
                .bin(class)
                .fact("free cores before → after", format!("{free_before} → {free}"))
                .fact("still waiting of its class", waiting.to_string())
                .fact("waited", format!("{} time units", short(now - job.arrival)))
        });
        Ok(())
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

    /// A fact the policy looked at, for the next decision (free when no log is kept).
    pub fn note(&mut self, label: impl Into<String>, value: impl Into<String>) {
        self.log.note(label, value);
    }

    /// Records a decision that starts no job (a phase change), when the run keeps a log.
    pub fn record(&mut self, decision: impl FnOnce(f64) -> Decision) {
        let now = self.now;
        self.log.record(|| decision(now));
    }

    /// Reports what the policy is doing: its phase for the statistics, its status for the page.
    pub fn observe(&mut self, observation: MsfqObservation) {
        match observation {
            MsfqObservation::Phase(phase) => {
                self.stats.phases.enter(self.now, phase);
                *self.status = Some(Status::Phase(phase));
            }
            MsfqObservation::Park => {
                self.stats.phases.park(self.now);
                *self.status = Some(Status::Idle);
            }
            MsfqObservation::Status(status) => *self.status = Some(status),
        }
    }

    /// The policy's own random numbers (its stream, so arrivals and service times stay the
    /// same whatever it draws).
    pub fn rng(&mut self) -> &mut StreamRng {
        self.policy_rng
    }

    /// Sets the policy's timer to fire `delay` from now, replacing any timer set before.
    pub fn set_timer(&mut self, delay: f64) {
        *self.timer_version += 1;
        self.events.push(self.now + delay, Event::Timer { version: *self.timer_version });
    }
}
