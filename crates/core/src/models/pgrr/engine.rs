//! The slotted engine of PG-RR (SPEC 1.1).
//!
//! Each slot runs, in this order:
//!
//! 1. **departures**: jobs whose departure slot is now leave; `Dep(t)` lists their servers;
//! 2. **arrivals**: A(t) ~ Poisson(λ) jobs join the queue in generation order;
//! 3. **scheduling**: the policy starts waiting jobs through [`PgrrContext::apply`];
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

use super::partition::Partition;
use super::policy::{PgrrContext, PgrrPolicy, Placement};
use super::service::{ServiceSampler, SlotService};
use super::sizes::SizeDist;
use super::state::{Cluster, Counters, JobId, RunKey, ServerId, SlotState, WaitingJob, WaitingQueue};
use super::trace::{TraceCursor, TraceJobs};
use crate::changes::Shifts;
use crate::decisions::DecisionLog;
use crate::limits::MAX_WAITING;
use crate::metrics::{Recovery, RecoveryWatch, Series, SeriesPoint, VerdictWatch};
use crate::resources::Resources;
use crate::rng::Streams;
use crate::workload::sample;
use crate::{EngineError, Moment};

/// How many departures ahead the departure loop asks for a server's list of jobs (and twice as
/// many for its record): far enough that a line from memory arrives before it is read (a
/// departure takes tens of nanoseconds once its lines are there), near enough that a slot's
/// few hundred lines stay in the first-level cache until then.
const PREFETCH_AHEAD: usize = 8;

/// Everything the slotted engine needs to know about the system, in resolved numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct PgrrConfig {
    pub servers: usize,
    /// Capacity of each server in units.
    pub capacity: u64,
    /// λ, mean arrivals per slot.
    pub arrival_rate: f64,
    pub sizes: SizeDist,
    pub service: SlotService,
    /// Slots discarded before measuring.
    pub warmup: u64,
    /// Slots the run is planned for: the verdict's looks fall at fractions of it.
    pub horizon: u64,
    /// Grid interval of the series, in slots.
    pub sample_every: u64,
    /// Series merge pairwise beyond this many points.
    pub max_points: usize,
    /// Partition used to count waiting jobs per size class (the virtual queues of VQS).
    pub classes: Partition,
    /// A trace to replay instead of the Poisson arrivals (PGRR-A5), with its traffic scaling
    /// 1/β. The trace's jobs carry their own sizes and services.
    pub trace: Option<(TraceJobs, f64)>,
}

/// The mean service length the departure calendar is sized for.
fn mean_service(config: &PgrrConfig) -> f64 {
    config.trace.as_ref().map_or(config.service.mean(), |(jobs, _)| jobs.summary().mean_service())
}

/// The most servers a run starting with `servers` has under `shifts`: the cluster's size.
pub fn most_servers(servers: usize, shifts: &Shifts<Shift>) -> usize {
    shifts.values().map(|s| s.servers).fold(servers, usize::max)
}

/// A slotted simulation: one policy on one scenario with one seed.
#[derive(Clone)]
pub struct PgrrSim {
    pub(super) config: PgrrConfig,
    pub(super) policy: Box<dyn PgrrPolicy>,
    pub(super) streams: Streams,
    /// Draws `config.service`.
    pub(super) service: ServiceSampler,
    pub(super) state: SlotState,
    /// The last placement, with its rule.
    pub(super) last: Option<Placement>,
    pub(super) slot: u64,
    pub(super) next_job: JobId,
    pub(super) departed: Vec<ServerId>,
    pub(super) arrivals: Vec<WaitingJob>,
    /// Scratch list of this slot's departures.
    pub(super) leaving: Vec<(RunKey, ServerId)>,
    /// Where the run is in its trace, with the traffic scaling, when it replays one.
    pub(super) traced: Option<(TraceCursor, f64)>,
    pub(super) measure: Measurements,
    /// The last decisions, when the run keeps them ([`crate::view::Watch::log`]).
    pub(super) log: DecisionLog,
    /// λ and the server count from each moment of the scenario's changes on
    /// ([`crate::changes`]).
    pub(super) shifts: Shifts<Shift>,
}

/// What a moment of the scenario's changes sets (RES-93, RES-95).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shift {
    /// λ, mean arrivals per slot.
    pub arrival_rate: f64,
    /// Servers that take jobs (the others drain).
    pub servers: usize,
}

/// Time averages and series, updated every slot with integer sums.
#[derive(Debug, Clone)]
pub(super) struct Measurements {
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
    /// The verdict on Q(t).
    verdict: VerdictWatch,
    /// Q(t) across the scenario's changes (none without changes).
    recovery: Option<RecoveryWatch>,
    /// The capacity of the servers present, summed like `used_sum` and `open_used`: kept from
    /// the first change of the server count on, which then becomes the occupancy's
    /// denominator (RES-95). `None` keeps the fixed L·capacity, to the bit.
    offered: Option<Offered>,
}

/// Sums of the capacity present, once the server count has changed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Offered {
    window: u128,
    open: u128,
}

impl PgrrSim {
    pub fn new(config: PgrrConfig, policy: Box<dyn PgrrPolicy>, seed: u64) -> Self {
        let classes = config.classes.types();
        let service = config.service.sampler();
        let series = || Series::new(config.sample_every as f64, config.max_points);
        let state =
            SlotState::new(config.servers, config.capacity, config.classes, mean_service(&config), config.warmup);
        let traced = config.trace.as_ref().map(|(jobs, scaling)| (jobs.cursor(), *scaling));
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
            verdict: VerdictWatch::new(config.horizon as f64, config.arrival_rate, true),
            recovery: None,
            offered: None,
        };
        Self {
            config,
            policy,
            streams: Streams::new(seed),
            service,
            state,
            last: None,
            slot: 0,
            next_job: 0,
            departed: Vec::new(),
            arrivals: Vec::new(),
            leaving: Vec::new(),
            traced,
            measure,
            log: DecisionLog::new(0),
            shifts: Shifts::default(),
        }
    }

    /// Changes λ and the server count at the moments of `shifts` (the scenario's changes).
    /// The cluster is built with the most servers the run will have (the policy must have been
    /// built for as many, [`most_servers`]): the ones past `config.servers` stay closed until a
    /// change adds them (RES-95). Call before the first step.
    pub fn with_shifts(mut self, shifts: Shifts<Shift>) -> Self {
        self.measure.recovery = RecoveryWatch::new(shifts.moments(), 0.0);
        let most = most_servers(self.config.servers, &shifts);
        if most > self.state.cluster.len() {
            let c = &self.config;
            self.state = SlotState::new(most, c.capacity, c.classes, mean_service(c), c.warmup);
            self.state.cluster.set_active(c.servers);
            self.policy.on_servers(&self.state.cluster);
        }
        self.shifts = shifts;
        self
    }

    /// Takes `changes` from the slot under way on ([`crate::view::LiveRun::set_changes`]);
    /// the recovery watch follows the new moments.
    pub fn set_changes(&mut self, changes: &crate::changes::Changes) -> Result<(), crate::ConfigError> {
        let before = self.shifts.clone();
        self.shifts.amend(changes, self.slot)?;
        // The cluster and the policy's indexes were built for the most servers the changes
        // reached when the run started (RES-95): a playing run cannot grow past them.
        let built = self.state.cluster.len();
        if most_servers(self.config.servers, &self.shifts) > built {
            self.shifts = before;
            return Err(crate::ConfigError::new(
                crate::changes::KEY,
                format!(
                    "a playing run takes no change to more than the {built} servers it was built for; open a link with the change instead"
                ),
            ));
        }
        let watch = self.measure.recovery.take();
        let q = self.state.queue.len() as f64;
        self.measure.recovery = RecoveryWatch::amended(watch, self.shifts.moments(), self.slot, q);
        Ok(())
    }

    /// How Q(t) recovered from each change made so far.
    pub fn recoveries(&self) -> &[Recovery] {
        self.measure.recovery.as_ref().map_or(&[], |r| r.recoveries())
    }

    /// Keeps the last `capacity` decisions with their reasons (the page's event log).
    pub fn with_log(mut self, capacity: usize) -> Self {
        self.log = DecisionLog::new(capacity);
        self
    }

    pub fn config(&self) -> &PgrrConfig {
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

    /// Checks what the engine guarantees whatever the policy does, from the state alone:
    /// every server holds what its jobs occupy and no more than its capacity, no running job
    /// is past its departure, and every job that arrived waits, runs or has left, once.
    pub fn check_invariants(&self) -> Result<(), String> {
        let t = self.slot();
        let mut running = 0u64;
        let cluster = self.cluster();
        for (id, server) in cluster.servers().iter().enumerate() {
            let jobs = || cluster.jobs_on(id as ServerId);
            let held: u64 = jobs().map(|j| j.occupies.primary()).sum();
            if held != server.used().primary() || !server.used().le(&server.capacity()) {
                return Err(format!(
                    "server {id}: its jobs occupy {held}, it records {:?} of {:?}",
                    server.used(),
                    server.capacity()
                ));
            }
            if let Some(job) = jobs().find(|j| j.start < j.arrival || j.departure < t) {
                return Err(format!("server {id}: job {} started before arriving or outstayed its service", job.id));
            }
            running += server.job_count() as u64;
        }
        if cluster.running_len() as u64 != running {
            return Err(format!("the servers list {running} running jobs, the table holds {}", cluster.running_len()));
        }
        let c = self.counters();
        let waiting = self.queue().len() as u64;
        if waiting + running + c.departed != c.arrivals || c.started != running + c.departed {
            return Err(format!(
                "{} arrivals but {waiting} waiting, {running} running and {} departed ({} started)",
                c.arrivals, c.departed, c.started
            ));
        }
        Ok(())
    }

    pub fn last_placement(&self) -> Option<Placement> {
        self.last
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
        // A change of the load takes effect with the slot's arrivals: the draws of earlier
        // slots are the run's without it, and the same λ draws the same counts (RES-93).
        if t == self.shifts.next_at()
            && let Some(&shift) = self.shifts.take()
        {
            self.config.arrival_rate = shift.arrival_rate;
            if shift.servers != self.state.cluster.active() {
                self.set_servers(shift.servers);
            }
        }
        self.depart(t);
        self.arrive(t);
        let mut ctx = PgrrContext {
            slot: t,
            departed: &self.departed,
            arrivals: &self.arrivals,
            state: &mut self.state,
            last: &mut self.last,
            rng: &mut self.streams.policy,
            log: &mut self.log,
        };
        self.policy.schedule(&mut ctx)?;
        // Notes belong to the decisions of the slot that made them.
        self.log.drop_notes();
        self.measure(t);
        self.slot += 1;
        if self.state.queue.len() > MAX_WAITING {
            return Err(EngineError::QueueLimit { at: Moment::Slot(t), limit: MAX_WAITING });
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

    /// Servers `0..servers` take jobs from this slot on; the others drain (RES-95). No draw:
    /// the arrivals, sizes and services are the run's without the change.
    fn set_servers(&mut self, servers: usize) {
        let m = &mut self.measure;
        if m.offered.is_none() {
            // Until now the capacity present was L·capacity in every slot.
            let total = self.config.servers as u128 * self.config.capacity as u128;
            let open = (self.slot - m.open_from) as u128;
            m.offered = Some(Offered { window: total * m.window_slots as u128, open: total * open });
        }
        let cluster = &mut self.state.cluster;
        cluster.set_active(servers);
        for s in servers..cluster.len() {
            if cluster.server(s as ServerId).is_empty() {
                self.state.tags[s] = None;
            }
        }
        self.policy.on_servers(cluster);
    }

    fn depart(&mut self, t: u64) {
        self.departed.clear();
        let st = &mut self.state;
        st.departures.take(t, &mut self.leaving);
        for (k, &(key, server)) in self.leaving.iter().enumerate() {
            // Each departure reads the job's record, its server's record, then the server's
            // list of keys: cache misses at 10^4 servers, the last two in turn. Asking for the
            // servers' records further ahead, and for the rest nearer, lets the misses overlap.
            if let Some(&(_, ahead)) = self.leaving.get(k + 2 * PREFETCH_AHEAD) {
                st.cluster.prefetch_server(ahead);
            }
            if let Some(&(ahead_key, ahead)) = self.leaving.get(k + PREFETCH_AHEAD) {
                st.cluster.prefetch_running(ahead_key);
                st.cluster.prefetch_jobs(ahead);
            }
            let done = st.cluster.remove(server, key);
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
        if let Some((mut cursor, scaling)) = self.traced.take() {
            while let Some((size, service)) = cursor.next_by(t, scaling) {
                self.admit(t, size, service);
            }
            self.traced = Some((cursor, scaling));
            return;
        }
        let count = sample::poisson(&mut self.streams.arrivals, self.config.arrival_rate);
        for _ in 0..count {
            let size = self.config.sizes.sample(&mut self.streams.sizes);
            let service = self.service.sample(&mut self.streams.service);
            self.admit(t, size, service);
        }
    }

    /// A job of `size` units and `service` slots joins the queue in slot `t`.
    fn admit(&mut self, t: u64, size: u64, service: u64) {
        let st = &mut self.state;
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
            st.counters.window_waiting_arrivals += t;
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
        if let Some(o) = &mut m.offered {
            let present = self.state.cluster.present() as u128 * self.config.capacity as u128;
            o.open += present;
            if t >= self.config.warmup {
                o.window += present;
            }
        }
        m.verdict.add_slot(q as f64);
        if let Some(r) = &mut m.recovery {
            r.observe(t as f64, q as f64);
        }
        for (acc, n) in m.open_classes.iter_mut().zip(&self.state.waiting_by_class) {
            *acc += n;
        }
        let end = t + 1;
        if end as f64 >= m.queue.next_boundary() {
            let (from, to) = (m.open_from as f64, end as f64);
            m.queue.add_integral(from, to, m.open_queue as f64);
            let occupied = match &mut m.offered {
                None => m.open_used as f64 / (self.config.servers as f64 * self.config.capacity as f64),
                // The interval's mean over the capacity present, times its length.
                Some(o) => (to - from) * m.open_used as f64 / std::mem::take(&mut o.open).max(1) as f64,
            };
            m.occupancy.add_integral(from, to, occupied);
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
    /// Once the server count has changed, over the capacity present slot by slot (RES-95).
    pub fn mean_occupancy(&self) -> f64 {
        if let Some(o) = &self.measure.offered {
            return self.measure.used_sum as f64 / o.window.max(1) as f64;
        }
        let total = self.config.servers as f64 * self.config.capacity as f64;
        self.measure.used_sum as f64 / total / self.measure.window_slots.max(1) as f64
    }

    /// Slots measured so far (after the warm-up).
    pub fn window_slots(&self) -> u64 {
        self.measure.window_slots
    }

    /// The verdict on Q(t): the one the report and the page state.
    pub fn verdict(&self) -> &VerdictWatch {
        &self.measure.verdict
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

#[cfg(test)]
#[path = "engine_testing.rs"]
pub(crate) mod testing;
