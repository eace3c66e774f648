//! What a GH-RA policy is: the trait, the decisions it hands the engine, what it reports
//! about itself, and the context it reads the cluster through.
//!
//! Policies start jobs and *dummy* jobs (placeholders that hold capacity like a real job of
//! their type and leave after a service time, GH-RA §3.2.1) with [`GhraDecision::Start`]; the
//! engine checks that the job waits where the policy says and that it fits the server in
//! every resource, real and dummy jobs counted. Nothing lets a policy stop a running job.
//! Poisson clocks are armed with [`GhraContext::set_clock`]; what the policy runs (MaxWeight's
//! configurations, its refreshes) it reports with [`GhraContext::observe`].

use super::state::{Event, GhraEvent, GhraJob, GhraState, QueueRef, Source};
use super::stats::GhraStats;
use super::ticks::Ticks;
use crate::EngineError;
use crate::decisions::{Decision, DecisionLog, short};
use crate::des::EventQueue;
use crate::rng::StreamRng;
use crate::workload::ServiceLaw;

/// A built policy, as a policy file's `build` returns it.
pub fn boxed(policy: impl GhraPolicy + 'static) -> Result<Box<dyn GhraPolicy>, crate::ConfigError> {
    Ok(Box::new(policy))
}

/// What a GH-RA policy asks the engine to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GhraDecision {
    /// Start a job of `job_type` on `server`: the head of the central queue, the head of the
    /// server's own queue, or a new dummy (`source`). `why` is the rule, shown to the user.
    Start { server: u32, job_type: usize, source: Source, why: &'static str },
}

/// What a policy reports about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GhraObservation<'a> {
    /// `server` now runs the configuration with these counts per type (MaxWeight).
    Configuration { server: usize, counts: &'a [u32] },
    /// A moment at which the refresh rule re-selected configurations (SPEC 3.4's diagnostic).
    Refresh,
}

/// The most recent start, for the page's "why".
#[derive(Debug, Clone, PartialEq)]
pub struct LastStart {
    pub time: f64,
    pub server: u32,
    pub job_type: u16,
    pub source: Source,
    pub why: &'static str,
}

/// What a policy sees and may do when it handles an event.
pub struct GhraContext<'a> {
    pub(crate) now: f64,
    pub(crate) state: &'a mut GhraState,
    pub(crate) events: &'a mut EventQueue<Event>,
    pub(crate) ticks: &'a mut Ticks,
    pub(crate) stats: &'a mut GhraStats,
    pub(crate) last: &'a mut Option<LastStart>,
    pub(crate) configurations: &'a mut [Option<Vec<u32>>],
    pub(crate) policy_rng: &'a mut StreamRng,
    pub(crate) service: ServiceLaw,
    pub(crate) mean_service: &'a [f64],
    pub(crate) log: &'a mut DecisionLog,
    /// The VM types' and resources' names, for the event log.
    pub(crate) type_names: &'a [String],
    pub(crate) resource_names: &'a [&'static str],
}

impl GhraContext<'_> {
    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &GhraState {
        self.state
    }

    /// The policy's own random numbers.
    pub fn rng(&mut self) -> &mut StreamRng {
        self.policy_rng
    }

    /// Validates and applies a decision; a refused one changes nothing: the job must wait
    /// where the decision says (or be a dummy), and fit the server in every resource.
    pub fn apply(&mut self, decision: GhraDecision) -> Result<(), EngineError> {
        let GhraDecision::Start { server, job_type, source, why } = decision;
        let st = &mut *self.state;
        let (l, j) = (server as usize, job_type);
        if j >= st.types() {
            return Err(EngineError::NoneWaiting { class: j as u32 });
        }
        if l >= st.active {
            // Past the servers that take jobs (one comparison, as the bound check it replaces):
            // no such server, or a draining or absent one with no room (RES-97).
            let head = match source {
                Source::Central => st.queues[j].front(),
                Source::Local if l < st.servers() => {
                    st.queues[st.index(QueueRef::Local { server, job_type: j as u16 })].front()
                }
                Source::Local | Source::Dummy => None,
            };
            return Err(st.refused(server, head.map_or(u64::MAX, |job| job.id), j));
        }
        let queue = match source {
            Source::Central => Some(QueueRef::Central { job_type: j as u16 }),
            Source::Local => Some(QueueRef::Local { server, job_type: j as u16 }),
            Source::Dummy => None,
        };
        let job = match queue {
            Some(q) => *st.queues[st.index(q)].front().ok_or(EngineError::NoneWaiting { class: j as u32 })?,
            None => GhraJob {
                id: u64::MAX,
                arrival: self.now,
                service: self.service.sample(&mut *self.policy_rng, self.mean_service[j]),
            },
        };
        if !st.fits(j, l) {
            let d = st.demands[j];
            let (size, residual) = (0..d.dims())
                .find(|&r| st.used[l].as_slice()[r] + d.as_slice()[r] > st.capacities[l].as_slice()[r])
                .map(|r| (d.as_slice()[r], st.capacities[l].as_slice()[r] - st.used[l].as_slice()[r]))
                .unwrap_or((0, 0));
            return Err(EngineError::CapacityExceeded { job: job.id, server, size, residual });
        }
        if let Some(q) = queue {
            let i = st.index(q);
            st.queues[i].pop_front();
            st.waiting_by_type[j] -= 1;
            st.waiting_total -= 1;
            if let QueueRef::Local { server, .. } = q {
                st.waiting_at[server as usize] -= 1;
            }
        }
        let dummy = source == Source::Dummy;
        st.used[l] = st.used[l].plus(&st.demands[j]);
        let slot = l * st.types() + j;
        if dummy {
            st.dummy[slot] += 1;
        } else {
            st.real[slot] += 1;
        }
        if st.jobs[l] == 0 {
            st.occupied += 1;
        }
        st.jobs[l] += 1;
        self.ticks.server_changed(l, st);
        self.events.push(self.now + job.service, Event::Departure { server, job_type: j as u16, dummy });
        self.stats.started(self.now, j, (!dummy).then_some(&job), st);
        *self.last = Some(LastStart { time: self.now, server, job_type: j as u16, source, why });
        let (now, name, resources) = (self.now, &self.type_names[j], self.resource_names);
        self.log.record(|| {
            let (what, action) = match source {
                Source::Dummy => (format!("a dummy {name} starts on server {}", server + 1), "dummy"),
                Source::Central | Source::Local => {
                    (format!("job {} ({name}) starts on server {}", job.id, server + 1), "start")
                }
            };
            let used = st.used[l]
                .as_slice()
                .iter()
                .zip(st.capacities[l].as_slice())
                .zip(resources)
                .map(|((u, c), r)| format!("{r} {u}/{c}"));
            let d = Decision::new(now, action, what, why)
                .server(server)
                .bin(j)
                .fact("server use after, used/capacity", used.collect::<Vec<_>>().join(", "))
                .fact("waiting of its type", st.waiting_by_type[j].to_string());
            if dummy { d } else { d.job(job.id).fact("waited", format!("{} time units", short(now - job.arrival))) }
        });
        Ok(())
    }

    /// Records a decision that starts no job (a routing, a configuration), when the run keeps
    /// a log.
    pub fn record(&mut self, decision: impl FnOnce(f64) -> Decision) {
        let now = self.now;
        self.log.record(|| decision(now));
    }

    /// The rate queue `queue`'s Poisson clock runs at, as last armed.
    pub fn clock_rate(&self, queue: QueueRef) -> f64 {
        self.state.rates[self.state.index(queue)]
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

    /// Arms the Poisson clock of `queue` at `rate` (> 0): from now on it ticks at that rate
    /// (a Poisson clock is memoryless, so this is also the paper's re-drawn clock, RES-50).
    /// At a tick the clock tries one server, its own for a server's queue and a uniformly
    /// random one of all for a central queue, and the policy hears of the tick
    /// ([`GhraEvent::Tick`]) only if a job of the queue's type fits there: a tick that finds
    /// no room changes nothing, so the engine does not simulate it (`ticks.rs`).
    pub fn set_clock(&mut self, queue: QueueRef, rate: f64) {
        debug_assert!(rate > 0.0 && rate.is_finite(), "clock rate {rate}");
        let i = self.state.index(queue);
        self.state.rates[i] = rate;
        self.ticks.arm(i, self.now, self.state, self.events, self.policy_rng);
    }

    /// How many servers a job of `job_type` fits now, while central clocks run (for the
    /// page's explanation of a central clock's server draw).
    pub fn servers_with_room(&self, job_type: usize) -> Option<usize> {
        self.ticks.room_for(job_type)
    }

    /// Reports what the policy is doing, for the statistics and the page.
    pub fn observe(&mut self, observation: GhraObservation<'_>) {
        match observation {
            GhraObservation::Configuration { server, counts } => {
                let slot = &mut self.configurations[server];
                if slot.as_deref() != Some(counts) {
                    *slot = Some(counts.to_vec());
                }
            }
            GhraObservation::Refresh => self.stats.refreshes += 1,
        }
    }
}

/// A policy of the GH-RA model.
pub trait GhraPolicy: dyn_clone::DynClone {
    /// Reacts to an event the engine has just applied (an arrival is already in the queue
    /// [`GhraPolicy::route`] chose; a departed job has already left its server).
    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError>;

    /// Whether jobs wait at the servers (the distributed architecture) rather than in
    /// central queues.
    fn distributed(&self) -> bool {
        false
    }

    /// The server whose own queue an arriving job of `job_type` joins (distributed
    /// architecture only; central queues are never asked). The engine checks the server
    /// exists and could hold the job when empty; a policy that cannot route (or a script that
    /// failed) answers an error, and the run stops rather than lose the job.
    fn route(&mut self, job_type: usize, _ctx: &mut GhraContext<'_>) -> Result<u32, EngineError> {
        Err(EngineError::Unrouted { job_type: job_type as u16 })
    }

    /// The servers that take jobs changed from `0..old` to `0..ctx.state().active()` (RES-97).
    /// The engine has already closed the removed ones (no room; the jobs waiting in their own
    /// queues are taken out and will be routed again, after this call, as arrivals) and opened
    /// the added ones (empty). A policy that keeps its own view of the servers (a router, clocks
    /// armed per server) brings it up to date; one that reads the state needs nothing.
    fn on_servers(&mut self, _old: usize, _ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        Ok(())
    }
}

// A policy is part of a run's state: the timeline's checkpoints clone it with the engine.
dyn_clone::clone_trait_object!(GhraPolicy);
