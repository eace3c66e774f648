//! The slotted engine of PG-RR (SPEC 1.1).
//!
//! Each slot runs, in this order:
//!
//! 1. **departures**: jobs whose departure slot is now leave; `Dep(t)` lists their servers;
//! 2. **arrivals**: A(t) ~ Poisson(λ) jobs join the queue in generation order;
//! 3. **scheduling**: the policy starts waiting jobs through [`SlotContext::apply`];
//! 4. **service**: a job started in slot t with length S departs at the start of slot t+S;
//! 5. **measurement**: Q(t), the number still waiting, and the occupancy are recorded.
//!
//! Service lengths are drawn when a job arrives (from the service stream, in arrival order)
//! rather than when it starts. The law is the same, and every policy then serves job *i*
//! for the same time, which keeps common random numbers exact across policies.
//!
//! RES-1 offers a second order (departures at the end of the slot). With lengths counted as
//! here, a job frees its space for the scheduling phase of slot t+S under either order, so
//! Q(t) is identical; only an occupancy reading taken between the two would differ. packlab
//! therefore runs the default order only.

mod calendar;
mod cluster;
mod live;
mod queue;

use calendar::DepartureCalendar;

use serde::{Deserialize, Serialize};

pub use cluster::Cluster;
pub use queue::WaitingQueue;

use crate::EngineError;
use crate::metrics::{Series, SeriesPoint};
use crate::model::{JobId, Partition, Resources, RunningJob, ServerId, WaitingJob};
use crate::policy::{Decision, Rule, SlottedPolicy};
use crate::rng::{StreamRng, Streams};
use crate::workload::{ServiceSampler, SizeDist, SlotService, sample};

/// Most jobs a run may hold waiting (about a gigabyte of state). An overloaded system grows
/// its queue without bound; the run stops with [`EngineError::QueueLimit`] instead of
/// exhausting memory.
pub const MAX_WAITING: usize = 5_000_000;

/// Everything the slotted engine needs to know about the system, in resolved numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct SlottedConfig {
    pub servers: usize,
    /// Capacity of each server in units.
    pub capacity: u64,
    /// λ, mean arrivals per slot.
    pub arrival_rate: f64,
    pub sizes: SizeDist,
    pub service: SlotService,
    /// Slots discarded before measuring.
    pub warmup: u64,
    /// Grid interval of the series, in slots.
    pub sample_every: u64,
    /// Series merge pairwise beyond this many points.
    pub max_points: usize,
    /// Partition used to count waiting jobs per size class (the virtual queues of VQS).
    pub classes: Partition,
}

/// A placement the engine applied, with what the user needs to understand it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// What the policy sees and may do during the scheduling phase of one slot.
pub struct SlotContext<'a> {
    slot: u64,
    departed: &'a [ServerId],
    arrivals: &'a [WaitingJob],
    state: &'a mut SlotState,
    rng: &'a mut StreamRng,
}

impl<'a> SlotContext<'a> {
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

    /// The policy's own random stream (coin flips, random tie-breaks).
    pub fn rng(&mut self) -> &mut StreamRng {
        self.rng
    }

    /// Validates and applies a decision. A refused decision changes nothing.
    pub fn apply(&mut self, decision: Decision) -> Result<RunningJob, EngineError> {
        let Decision::Start { job, server, rule } = decision;
        let st = &mut *self.state;
        if server as usize >= st.cluster.len() {
            return Err(EngineError::NoSuchServer { server });
        }
        let waiting = st.queue.get(job).ok_or(EngineError::NotWaiting { job })?;
        let residual_before = st.cluster.residual(server);
        if !st.cluster.server(server).fits(&waiting.occupies) {
            return Err(EngineError::CapacityExceeded {
                job,
                server,
                size: waiting.occupies.primary(),
                residual: residual_before,
            });
        }
        st.queue.remove(job);
        let running = RunningJob {
            id: job,
            arrival: waiting.arrival,
            start: self.slot,
            departure: self.slot + waiting.service,
            size: waiting.size,
            occupies: waiting.occupies,
        };
        st.cluster.place(server, running);
        st.departures.push(running.departure, job, server);
        st.waiting_by_class[st.classes.type_of(waiting.size.primary())] -= 1;
        if let Rule::Config { config, .. } = rule {
            st.tags[server as usize] = Some(config);
        }
        st.last = Some(Placement {
            slot: self.slot,
            job,
            server,
            size: waiting.occupies.primary(),
            residual_before,
            residual_after: st.cluster.residual(server),
            rule,
        });
        st.counters.started += 1;
        if waiting.arrival >= st.warmup {
            st.counters.window_started += 1;
            st.counters.window_wait += self.slot - waiting.arrival;
        }
        Ok(running)
    }
}

/// The mutable state of a slotted run.
#[derive(Debug, Clone)]
struct SlotState {
    cluster: Cluster,
    queue: WaitingQueue,
    departures: DepartureCalendar,
    /// The configuration each server was running when it last received a job (VQS, VQS-BF),
    /// cleared when it empties.
    tags: Vec<Option<u16>>,
    classes: Partition,
    waiting_by_class: Vec<u64>,
    last: Option<Placement>,
    warmup: u64,
    counters: Counters,
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
}

/// A slotted simulation: one policy on one scenario with one seed.
pub struct SlottedSim {
    config: SlottedConfig,
    policy: Box<dyn SlottedPolicy>,
    streams: Streams,
    /// Draws `config.service`.
    service: ServiceSampler,
    state: SlotState,
    slot: u64,
    next_job: JobId,
    departed: Vec<ServerId>,
    arrivals: Vec<WaitingJob>,
    /// Scratch list of this slot's departures.
    leaving: Vec<(JobId, ServerId)>,
    measure: Measurements,
}

/// Time averages and series, updated every slot with integer sums.
#[derive(Debug, Clone)]
struct Measurements {
    window_slots: u64,
    queue_sum: u128,
    used_sum: u128,
    queue: Series,
    occupancy: Series,
    by_class: Vec<Series>,
    /// Sums over the open series interval.
    open_queue: u128,
    open_used: u128,
    open_classes: Vec<u64>,
    open_from: u64,
}

impl SlottedSim {
    pub fn new(config: SlottedConfig, policy: Box<dyn SlottedPolicy>, seed: u64) -> Self {
        let classes = config.classes.types();
        let service = config.service.sampler();
        let series = || Series::new(config.sample_every as f64, config.max_points);
        let state = SlotState {
            cluster: Cluster::new(config.servers, config.capacity),
            queue: WaitingQueue::default(),
            departures: DepartureCalendar::new(config.service.mean()),
            tags: vec![None; config.servers],
            classes: config.classes,
            waiting_by_class: vec![0; classes],
            last: None,
            warmup: config.warmup,
            counters: Counters::default(),
        };
        let measure = Measurements {
            window_slots: 0,
            queue_sum: 0,
            used_sum: 0,
            queue: series(),
            occupancy: series(),
            by_class: (0..classes).map(|_| series()).collect(),
            open_queue: 0,
            open_used: 0,
            open_classes: vec![0; classes],
            open_from: 0,
        };
        Self {
            config,
            policy,
            streams: Streams::new(seed),
            service,
            state,
            slot: 0,
            next_job: 0,
            departed: Vec::new(),
            arrivals: Vec::new(),
            leaving: Vec::new(),
            measure,
        }
    }

    pub fn config(&self) -> &SlottedConfig {
        &self.config
    }

    /// Slots simulated so far (the next slot to run).
    pub fn slot(&self) -> u64 {
        self.slot
    }

    pub fn cluster(&self) -> &Cluster {
        &self.state.cluster
    }

    pub fn queue(&self) -> &WaitingQueue {
        &self.state.queue
    }

    pub fn counters(&self) -> Counters {
        self.state.counters
    }

    pub fn last_placement(&self) -> Option<Placement> {
        self.state.last
    }

    /// The jobs that arrived in the last slot run, as generated (identical for every policy
    /// with the same scenario and seed, except `occupies`, which the policy decides).
    pub fn arrivals(&self) -> &[WaitingJob] {
        &self.arrivals
    }

    /// Waiting jobs per size class.
    pub fn waiting_by_class(&self) -> &[u64] {
        &self.state.waiting_by_class
    }

    /// Configuration tag of each server (VQS, VQS-BF), `None` while empty.
    pub fn tags(&self) -> &[Option<u16>] {
        &self.state.tags
    }

    /// Runs one slot.
    pub fn step(&mut self) -> Result<(), EngineError> {
        let t = self.slot;
        self.depart(t);
        self.arrive(t);
        let mut ctx = SlotContext {
            slot: t,
            departed: &self.departed,
            arrivals: &self.arrivals,
            state: &mut self.state,
            rng: &mut self.streams.policy,
        };
        self.policy.schedule(&mut ctx)?;
        self.measure(t);
        self.slot += 1;
        if self.state.queue.len() > MAX_WAITING {
            return Err(EngineError::QueueLimit { slot: t, limit: MAX_WAITING });
        }
        Ok(())
    }

    /// Runs `slots` slots.
    pub fn run(&mut self, slots: u64) -> Result<(), EngineError> {
        for _ in 0..slots {
            self.step()?;
        }
        Ok(())
    }

    /// Runs until `slot()` reaches `until`.
    pub fn run_until(&mut self, until: u64) -> Result<(), EngineError> {
        while self.slot < until {
            self.step()?;
        }
        Ok(())
    }

    fn depart(&mut self, t: u64) {
        self.departed.clear();
        let st = &mut self.state;
        st.departures.take(t, &mut self.leaving);
        for &(job, server) in &self.leaving {
            let done = st.cluster.remove(server, job);
            debug_assert_eq!(done.departure, t);
            self.policy.on_departure(&done, server);
            st.counters.departed += 1;
            if st.cluster.server(server).is_empty() {
                st.tags[server as usize] = None;
            }
            self.departed.push(server);
        }
        self.departed.sort_unstable();
        self.departed.dedup();
    }

    fn arrive(&mut self, t: u64) {
        self.arrivals.clear();
        let count = sample::poisson(&mut self.streams.arrivals, self.config.arrival_rate);
        let st = &mut self.state;
        for _ in 0..count {
            let size = self.config.sizes.sample(&mut self.streams.sizes);
            let service = self.service.sample(&mut self.streams.service);
            let job = WaitingJob {
                id: self.next_job,
                arrival: t,
                size: Resources::scalar(size),
                occupies: Resources::scalar(self.policy.occupies(size)),
                service,
            };
            self.next_job += 1;
            st.queue.push(job);
            st.waiting_by_class[st.classes.type_of(size)] += 1;
            self.policy.on_arrival(&job);
            self.arrivals.push(job);
            st.counters.arrivals += 1;
            if t >= st.warmup {
                st.counters.window_arrivals += 1;
            }
        }
    }

    fn measure(&mut self, t: u64) {
        let m = &mut self.measure;
        let q = self.state.queue.len() as u128;
        let used = self.state.cluster.used_total();
        if t >= self.config.warmup {
            m.window_slots += 1;
            m.queue_sum += q;
            m.used_sum += used;
        }
        m.open_queue += q;
        m.open_used += used;
        for (acc, n) in m.open_classes.iter_mut().zip(&self.state.waiting_by_class) {
            *acc += n;
        }
        let end = t + 1;
        if end as f64 >= m.queue.next_boundary() {
            let (from, to) = (m.open_from as f64, end as f64);
            let total = self.config.servers as f64 * self.config.capacity as f64;
            m.queue.add_integral(from, to, m.open_queue as f64);
            m.occupancy.add_integral(from, to, m.open_used as f64 / total);
            for (series, acc) in m.by_class.iter_mut().zip(&mut m.open_classes) {
                series.add_integral(from, to, *acc as f64);
                *acc = 0;
            }
            m.open_queue = 0;
            m.open_used = 0;
            m.open_from = end;
        }
    }

    /// Mean number of waiting jobs over the measurement window so far.
    pub fn mean_queue(&self) -> f64 {
        self.measure.queue_sum as f64 / self.measure.window_slots.max(1) as f64
    }

    /// Mean fraction of the total capacity in use over the measurement window so far.
    pub fn mean_occupancy(&self) -> f64 {
        let total = self.config.servers as f64 * self.config.capacity as f64;
        self.measure.used_sum as f64 / total / self.measure.window_slots.max(1) as f64
    }

    /// Slots measured so far (after the warm-up).
    pub fn window_slots(&self) -> u64 {
        self.measure.window_slots
    }

    /// Q(t) as interval means.
    pub fn queue_series(&self) -> &[SeriesPoint] {
        self.measure.queue.points()
    }

    /// Occupancy (fraction of total capacity) as interval means.
    pub fn occupancy_series(&self) -> &[SeriesPoint] {
        self.measure.occupancy.points()
    }

    /// Waiting jobs of each size class, as interval means.
    pub fn class_series(&self, class: usize) -> &[SeriesPoint] {
        self.measure.by_class[class].points()
    }

    /// Current series grid interval in slots.
    pub fn series_interval(&self) -> f64 {
        self.measure.queue.interval()
    }
}

/// Hand-built states for policy unit tests: place running jobs and queue waiting jobs
/// directly, then run one scheduling phase.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::rng::{Stream, stream};

    pub(crate) struct Harness {
        state: SlotState,
        rng: StreamRng,
        departed: Vec<ServerId>,
        arrivals: Vec<WaitingJob>,
        next_job: JobId,
    }

    impl Harness {
        pub fn new(servers: usize, capacity: u64) -> Self {
            let classes = Partition::new(2, capacity);
            let state = SlotState {
                cluster: Cluster::new(servers, capacity),
                queue: WaitingQueue::default(),
                departures: DepartureCalendar::new(100.0),
                tags: vec![None; servers],
                classes,
                waiting_by_class: vec![0; classes.types()],
                last: None,
                warmup: 0,
                counters: Counters::default(),
            };
            Self { state, rng: stream(0, Stream::Policy), departed: Vec::new(), arrivals: Vec::new(), next_job: 0 }
        }

        /// A job of `size` running on `server` (for stateless policies).
        pub fn running(&mut self, server: ServerId, size: u64) {
            let r = Resources::scalar(size);
            let job = RunningJob { id: self.next_job, arrival: 0, start: 0, departure: u64::MAX, size: r, occupies: r };
            self.next_job += 1;
            self.state.cluster.place(server, job);
        }

        /// A waiting job of `size`, announced to `policy` and listed as this slot's arrival.
        pub fn waiting(&mut self, size: u64, policy: &mut dyn SlottedPolicy) -> JobId {
            let id = self.next_job;
            self.next_job += 1;
            let job = WaitingJob {
                id,
                arrival: 0,
                size: Resources::scalar(size),
                occupies: Resources::scalar(policy.occupies(size)),
                service: 1_000,
            };
            self.state.queue.push(job);
            self.state.waiting_by_class[self.state.classes.type_of(size)] += 1;
            policy.on_arrival(&job);
            self.arrivals.push(job);
            id
        }

        /// Marks `server` as having had a departure this slot.
        pub fn departed(&mut self, server: ServerId) {
            self.departed.push(server);
            self.departed.sort_unstable();
        }

        /// Forgets this slot's arrivals (they become old waiting jobs).
        pub fn next_slot(&mut self) {
            self.arrivals.clear();
            self.departed.clear();
        }

        pub fn context(&mut self) -> SlotContext<'_> {
            SlotContext {
                slot: 1,
                departed: &self.departed,
                arrivals: &self.arrivals,
                state: &mut self.state,
                rng: &mut self.rng,
            }
        }

        pub fn schedule(&mut self, policy: &mut dyn SlottedPolicy) -> Result<(), EngineError> {
            let mut ctx = self.context();
            policy.schedule(&mut ctx)
        }

        pub fn server_of(&self, job: JobId) -> Option<ServerId> {
            (0..self.state.cluster.len() as ServerId)
                .find(|&s| self.state.cluster.server(s).jobs().iter().any(|j| j.id == job))
        }

        pub fn waiting_ids(&self) -> Vec<JobId> {
            self.state.queue.iter().map(|j| j.id).collect()
        }

        pub fn cluster(&self) -> &Cluster {
            &self.state.cluster
        }
    }
}
