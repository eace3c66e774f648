//! The VM-scheduling engine (GH-RA, SPEC 3): L servers with capacity vectors over several
//! resources (memory, CPU, storage), J VM types with demand vectors, Poisson arrivals per
//! type, service that is never interrupted, continuous time.
//!
//! Jobs wait either in one central FIFO queue per type or in per-server queues, one per type
//! (the distributed architecture); the policy says which by routing each arrival. Policies
//! start jobs, and *dummy* jobs (placeholders that hold capacity like a real job of their type
//! and leave after a service time, GH-RA §3.2.1), through [`VmContext::start`]; the engine
//! checks that the job waits where the policy says and that it fits the server in every
//! resource, real and dummy jobs counted. Nothing lets a policy stop a running job.
//!
//! Poisson clocks (one per queue, rate exp(f(Q))) are armed with [`VmContext::set_clock`]:
//! a new tick at now + Exp(rate) replaces any pending one, which is then dropped when it
//! reaches the front of the event queue (lazy invalidation, SPEC 1.1). By memorylessness this
//! is exactly a clock whose rate changed.
//!
//! Common random numbers: inter-arrival times come from the arrivals stream, types from the
//! sizes stream and service times from the service stream, all drawn when the job arrives,
//! so job i is the same job under every policy. Everything a policy draws (servers, ties,
//! clock ticks, dummy service times) comes from its own stream.

mod live;
mod stats;

use std::collections::VecDeque;

use crate::EngineError;
use crate::engine::des::{Clocks, EventQueue, Tick};
use crate::model::Resources;
use crate::rng::{StreamRng, Streams};
use crate::workload::{ServiceLaw, sample};

pub use stats::VmStats;

/// Most jobs a run may hold waiting before it stops with [`EngineError::QueueLimit`].
pub const MAX_WAITING: usize = 5_000_000;

/// The system in resolved numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct VmConfig {
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

impl VmConfig {
    pub fn servers(&self) -> usize {
        self.capacities.len()
    }

    pub fn types(&self) -> usize {
        self.demands.len()
    }
}

/// A waiting job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VmJob {
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
pub enum VmEvent {
    /// Time 0, before anything else.
    Begin,
    /// A job joined `queue` (where the policy routed it).
    Arrival { queue: QueueRef },
    /// A job of `job_type` (a dummy or not) left `server`.
    Departure { server: u32, job_type: u16, dummy: bool },
    /// The clock of `queue` ticked.
    Tick { queue: QueueRef },
}

#[derive(Debug, Clone, Copy)]
enum Event {
    Arrival,
    Departure { server: u32, job_type: u16, dummy: bool },
    Tick(Tick),
}

/// What policies read: servers, what runs on them, and the queues.
#[derive(Debug, Clone)]
pub struct VmState {
    capacities: Vec<Resources>,
    demands: Vec<Resources>,
    /// Per server, the resources held by its real and dummy jobs.
    used: Vec<Resources>,
    /// Running jobs per `server * J + type`, real and dummy.
    real: Vec<u32>,
    dummy: Vec<u32>,
    /// Jobs (real or dummy) on each server.
    jobs: Vec<u32>,
    /// Central queues `0..J`, then server ℓ's queues at `J + ℓ·J ..`.
    queues: Vec<VecDeque<VmJob>>,
    waiting_by_type: Vec<usize>,
    waiting_at: Vec<usize>,
    waiting_total: usize,
    /// Servers holding at least one job.
    occupied: usize,
    /// Each queue's clock rate, where the policy set one (for the page's readout).
    rates: Vec<f64>,
    /// The configuration each server runs, where the policy keeps one (MaxWeight).
    configurations: Vec<Option<Vec<u32>>>,
}

impl VmState {
    pub fn servers(&self) -> usize {
        self.capacities.len()
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

    fn index(&self, queue: QueueRef) -> usize {
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

    /// The configuration `server` runs, if the policy announced one.
    pub fn configuration(&self, server: usize) -> Option<&[u32]> {
        self.configurations[server].as_deref()
    }
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
pub struct VmContext<'a> {
    now: f64,
    state: &'a mut VmState,
    events: &'a mut EventQueue<Event>,
    clocks: &'a mut Clocks,
    stats: &'a mut VmStats,
    last: &'a mut Option<LastStart>,
    policy_rng: &'a mut StreamRng,
    service: ServiceLaw,
    mean_service: &'a [f64],
}

impl VmContext<'_> {
    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &VmState {
        self.state
    }

    /// The policy's own random numbers.
    pub fn rng(&mut self) -> &mut StreamRng {
        self.policy_rng
    }

    /// Starts a job of `job_type` on `server`: the head of the central queue, the head of
    /// the server's own queue, or a new dummy. `why` is the rule, shown to the user.
    /// Refused, changing nothing, if there is no such job or it does not fit.
    pub fn start(
        &mut self,
        server: u32,
        job_type: usize,
        source: Source,
        why: &'static str,
    ) -> Result<(), EngineError> {
        let st = &mut *self.state;
        let (l, j) = (server as usize, job_type);
        if l >= st.servers() {
            return Err(EngineError::NoSuchServer { server });
        }
        if j >= st.types() {
            return Err(EngineError::NoneWaiting { class: j as u32 });
        }
        let queue = match source {
            Source::Central => Some(QueueRef::Central { job_type: j as u16 }),
            Source::Local => Some(QueueRef::Local { server, job_type: j as u16 }),
            Source::Dummy => None,
        };
        let job = match queue {
            Some(q) => *st.queues[st.index(q)].front().ok_or(EngineError::NoneWaiting { class: j as u32 })?,
            None => VmJob {
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
        self.events.push(self.now + job.service, Event::Departure { server, job_type: j as u16, dummy });
        self.stats.started(self.now, j, (!dummy).then_some(&job), st);
        *self.last = Some(LastStart { time: self.now, server, job_type: j as u16, source, why });
        Ok(())
    }

    /// Arms the Poisson clock of `queue` at `rate` (> 0): its next tick comes at now +
    /// Exp(rate), replacing any tick pending.
    pub fn set_clock(&mut self, queue: QueueRef, rate: f64) {
        debug_assert!(rate > 0.0 && rate.is_finite(), "clock rate {rate}");
        let i = self.state.index(queue);
        self.state.rates[i] = rate;
        let tick = self.clocks.reset(i as u32);
        self.events.push(self.now + sample::exponential(&mut *self.policy_rng, rate), Event::Tick(tick));
    }

    /// Shows the configuration `server` now runs (MaxWeight), on the page.
    pub fn set_configuration(&mut self, server: usize, configuration: &[u32]) {
        let slot = &mut self.state.configurations[server];
        if slot.as_deref() != Some(configuration) {
            *slot = Some(configuration.to_vec());
        }
    }

    /// Counts one refresh: a moment at which the policy's refresh rule re-selected
    /// configurations (SPEC 3.4's diagnostic).
    pub fn record_refresh(&mut self) {
        self.stats.refreshes += 1;
    }
}

/// A policy of the VM-scheduling model.
pub trait VmPolicy {
    /// Reacts to an event the engine has just applied (an arrival is already in the queue
    /// [`VmPolicy::route`] chose; a departed job has already left its server).
    fn on_event(&mut self, event: VmEvent, ctx: &mut VmContext<'_>) -> Result<(), EngineError>;

    /// Whether jobs wait at the servers (the distributed architecture) rather than in
    /// central queues.
    fn distributed(&self) -> bool {
        false
    }

    /// The server whose own queue an arriving job of `job_type` joins (distributed
    /// architecture only; central queues never ask).
    fn route(&mut self, _job_type: usize, _ctx: &mut VmContext<'_>) -> u32 {
        unreachable!("a policy with central queues is never asked to route")
    }
}

/// A VM-scheduling simulation.
pub struct VmSim {
    config: VmConfig,
    policy: Box<dyn VmPolicy>,
    state: VmState,
    events: EventQueue<Event>,
    clocks: Clocks,
    streams: Streams,
    stats: VmStats,
    now: f64,
    next_id: u64,
    last: Option<LastStart>,
    /// Whether jobs wait at the servers (the policy's architecture).
    distributed: bool,
    /// Cumulative arrival probabilities per type, for drawing the type of an arrival.
    type_cdf: Vec<f64>,
    total_rate: f64,
    /// Events handled, and clock ticks dropped as stale (for benchmarks).
    handled: u64,
    stale: u64,
}

impl VmSim {
    pub fn new(config: VmConfig, policy: Box<dyn VmPolicy>, seed: u64) -> Result<Self, EngineError> {
        let (l, j) = (config.servers(), config.types());
        let state = VmState {
            capacities: config.capacities.clone(),
            demands: config.demands.clone(),
            used: config.capacities.iter().map(|c| Resources::zero(c.dims())).collect(),
            real: vec![0; l * j],
            dummy: vec![0; l * j],
            jobs: vec![0; l],
            queues: vec![VecDeque::new(); j * (l + 1)],
            waiting_by_type: vec![0; j],
            waiting_at: vec![0; l],
            waiting_total: 0,
            occupied: 0,
            rates: vec![0.0; j * (l + 1)],
            configurations: vec![None; l],
        };
        let total_rate: f64 = config.arrival_rates.iter().sum();
        let mut acc = 0.0;
        let type_cdf = config
            .arrival_rates
            .iter()
            .map(|r| {
                acc += r / total_rate;
                acc
            })
            .collect();
        let mut streams = Streams::new(seed);
        let mut events = EventQueue::new();
        if total_rate > 0.0 {
            events.push(sample::exponential(&mut streams.arrivals, total_rate), Event::Arrival);
        }
        let stats = VmStats::new(&config);
        let distributed = policy.distributed();
        let mut sim = Self {
            distributed,
            clocks: Clocks::new(j * (l + 1)),
            config,
            policy,
            state,
            events,
            streams,
            stats,
            now: 0.0,
            next_id: 0,
            last: None,
            type_cdf,
            total_rate,
            handled: 0,
            stale: 0,
        };
        sim.dispatch(VmEvent::Begin)?;
        Ok(sim)
    }

    pub fn config(&self) -> &VmConfig {
        &self.config
    }

    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &VmState {
        &self.state
    }

    pub fn stats(&self) -> &VmStats {
        &self.stats
    }

    pub fn last_start(&self) -> Option<&LastStart> {
        self.last.as_ref()
    }

    /// Events handled so far (arrivals, departures, clock ticks), and the stale clock ticks
    /// dropped on the way (lazy invalidation).
    pub fn events(&self) -> (u64, u64) {
        (self.handled, self.stale)
    }

    fn context(&mut self) -> (VmContext<'_>, &mut Box<dyn VmPolicy>) {
        (
            VmContext {
                now: self.now,
                state: &mut self.state,
                events: &mut self.events,
                clocks: &mut self.clocks,
                stats: &mut self.stats,
                last: &mut self.last,
                policy_rng: &mut self.streams.policy,
                service: self.config.service,
                mean_service: &self.config.mean_service,
            },
            &mut self.policy,
        )
    }

    fn dispatch(&mut self, event: VmEvent) -> Result<(), EngineError> {
        let (mut ctx, policy) = self.context();
        policy.on_event(event, &mut ctx)
    }

    /// Processes every event up to time `until` (inclusive) and brings the time averages
    /// up to `until`.
    pub fn run_until(&mut self, until: f64) -> Result<(), EngineError> {
        while let Some(t) = self.events.peek_time() {
            if t > until {
                break;
            }
            let (t, event) = self.events.pop().expect("peeked");
            let event = match event {
                Event::Tick(tick) if !self.clocks.is_current(tick) => {
                    self.stale += 1;
                    continue;
                }
                Event::Tick(tick) => {
                    self.now = t;
                    VmEvent::Tick { queue: self.queue_of_clock(tick.clock as usize) }
                }
                Event::Arrival => {
                    self.now = t;
                    self.arrive()?
                }
                Event::Departure { server, job_type, dummy } => {
                    self.now = t;
                    self.depart(server as usize, job_type as usize, dummy);
                    VmEvent::Departure { server, job_type, dummy }
                }
            };
            self.handled += 1;
            self.dispatch(event)?;
        }
        if until > self.now {
            self.now = until;
        }
        self.stats.flush(self.now);
        Ok(())
    }

    fn queue_of_clock(&self, i: usize) -> QueueRef {
        let j = self.state.types();
        if i < j {
            QueueRef::Central { job_type: i as u16 }
        } else {
            QueueRef::Local { server: (i / j - 1) as u32, job_type: (i % j) as u16 }
        }
    }

    fn arrive(&mut self) -> Result<VmEvent, EngineError> {
        if self.state.waiting_total >= MAX_WAITING {
            return Err(EngineError::QueueLimit { slot: self.now as u64, limit: MAX_WAITING });
        }
        let u = sample::open_unit(&mut self.streams.sizes);
        let j = self.type_cdf.iter().position(|&c| u < c).unwrap_or(self.type_cdf.len() - 1);
        let service = self.config.service.sample(&mut self.streams.service, self.config.mean_service[j]);
        let job = VmJob { id: self.next_id, arrival: self.now, service };
        self.next_id += 1;
        let next = self.now + sample::exponential(&mut self.streams.arrivals, self.total_rate);
        self.events.push(next, Event::Arrival);

        let (mut ctx, policy) = self.context();
        let target = policy.distributed().then(|| policy.route(j, &mut ctx));
        let queue = match target {
            None => QueueRef::Central { job_type: j as u16 },
            Some(server) => {
                let l = server as usize;
                if l >= self.state.servers() {
                    return Err(EngineError::NoSuchServer { server });
                }
                if !self.state.fits_empty(j, l) {
                    // A job routed to a server it can never fit would wait forever.
                    return Err(EngineError::CapacityExceeded {
                        job: job.id,
                        server,
                        size: self.state.demands[j].primary(),
                        residual: self.state.capacities[l].primary(),
                    });
                }
                QueueRef::Local { server, job_type: j as u16 }
            }
        };
        let st = &mut self.state;
        let i = st.index(queue);
        st.queues[i].push_back(job);
        st.waiting_by_type[j] += 1;
        st.waiting_total += 1;
        if let QueueRef::Local { server, .. } = queue {
            st.waiting_at[server as usize] += 1;
        }
        self.stats.arrived(self.now, j, &self.state);
        Ok(VmEvent::Arrival { queue })
    }

    fn depart(&mut self, server: usize, job_type: usize, dummy: bool) {
        let st = &mut self.state;
        let slot = server * st.types() + job_type;
        if dummy {
            st.dummy[slot] -= 1;
        } else {
            st.real[slot] -= 1;
        }
        st.used[server] = st.used[server].minus(&st.demands[job_type]);
        st.jobs[server] -= 1;
        if st.jobs[server] == 0 {
            st.occupied -= 1;
        }
        self.stats.departed(self.now, job_type, dummy, st);
    }
}

#[cfg(test)]
mod tests;
