//! The VM-scheduling engine (GH-RA, SPEC 3): L servers with capacity vectors over several
//! resources (memory, CPU, storage), J VM types with demand vectors, Poisson arrivals per
//! type, service that is never interrupted, continuous time.
//!
//! Jobs wait either in one central FIFO queue per type or in per-server queues, one per type
//! (the distributed architecture); the policy says which by routing each arrival. Policies
//! start jobs, and *dummy* jobs (placeholders that hold capacity like a real job of their type
//! and leave after a service time, GH-RA §3.2.1), through [`GhraDecision::Start`](super::GhraDecision::Start); the engine
//! checks that the job waits where the policy says and that it fits the server in every
//! resource, real and dummy jobs counted. Nothing lets a policy stop a running job.
//!
//! Poisson clocks (one per queue, rate exp(f(Q))) are armed with [`GhraContext::set_clock`].
//! The engine simulates only their ticks that act, drawn from the superposition of the clocks
//! that find room (thinning; [`super::ticks`] says why this is the same process in law): the
//! heap holds arrivals and departures, and the next tick is kept beside it.
//!
//! Common random numbers: inter-arrival times come from the arrivals stream, types from the
//! sizes stream and service times from the service stream, all drawn when the job arrives,
//! so job i is the same job under every policy. Everything a policy draws (servers, ties,
//! clock ticks, dummy service times) comes from its own stream.

use crate::changes::{self, Shifts};
use crate::decisions::{Decision, DecisionLog};
use std::collections::VecDeque;

use super::policy::{GhraContext, GhraPolicy, LastStart};
use super::state::{Event, GhraConfig, GhraEvent, GhraJob, GhraState, QueueRef};
use super::stats::GhraStats;
use super::ticks::{ClockMode, Ticks};
use super::vms::Fleet;
use crate::des::{EventDriven, EventQueue, run_until};
use crate::limits::MAX_WAITING;
use crate::metrics::VerdictWatch;
use crate::resources::Resources;
use crate::rng::Streams;
use crate::workload::sample;
use crate::{EngineError, Moment};

/// A VM-scheduling simulation.
#[derive(Clone)]
pub struct GhraSim {
    pub(super) config: GhraConfig,
    pub(super) policy: Box<dyn GhraPolicy>,
    pub(super) state: GhraState,
    /// Departures (and, every tick simulated, clock ticks). The next arrival and the next
    /// thinned tick are kept beside it: one of each is ever pending, so a heap push and pop
    /// per job are saved.
    pub(super) events: EventQueue<Event>,
    pub(super) next_arrival: Option<f64>,
    pub(super) ticks: Ticks,
    pub(super) streams: Streams,
    pub(super) stats: GhraStats,
    pub(super) now: f64,
    pub(super) next_id: u64,
    pub(super) last: Option<LastStart>,
    /// The configuration each server runs, where the policy reports one (MaxWeight).
    pub(super) configurations: Vec<Option<Vec<u32>>>,
    /// Whether jobs wait at the servers (the policy's architecture).
    pub(super) distributed: bool,
    /// Cumulative arrival probabilities per type, for drawing the type of an arrival.
    pub(super) type_cdf: Vec<f64>,
    pub(super) total_rate: f64,
    /// Events handled, and clock ticks dropped as stale ([`ClockMode::EveryTick`]; for
    /// benchmarks).
    pub(super) handled: u64,
    pub(super) stale: u64,
    /// The last decisions, when the run keeps them ([`crate::view::Watch::log`]).
    pub(super) log: DecisionLog,
    /// The arrival rates and the servers that take jobs from each moment of the scenario's
    /// changes on ([`crate::changes`]).
    pub(super) shifts: Shifts<GhraShift>,
}

/// What a moment of the scenario's changes sets (RES-93, RES-97).
#[derive(Debug, Clone, PartialEq)]
pub struct GhraShift {
    /// λ_j, from the load read against the starting fleet.
    pub rates: Vec<f64>,
    /// The fleet from then on: servers `0..fleet.len()` take jobs; the others drain.
    pub fleet: Fleet,
}

impl GhraSim {
    pub fn new(config: GhraConfig, policy: Box<dyn GhraPolicy>, seed: u64) -> Result<Self, EngineError> {
        let l = config.servers();
        Self::built(config, policy, seed, l)
    }

    /// A run whose fleet changes while it plays (RES-97): `config` has the most servers its
    /// changes reach (the policy is built for as many), and servers `0..active` take jobs at
    /// the start; the others are not there until a change adds them. With `active` every
    /// server it is [`GhraSim::new`], and until a change the run is the one on the first
    /// `active` servers alone, bit for bit.
    pub fn built(
        config: GhraConfig,
        policy: Box<dyn GhraPolicy>,
        seed: u64,
        active: usize,
    ) -> Result<Self, EngineError> {
        let (l, j) = (config.servers(), config.types());
        Self::with_mode(config, policy, seed, Ticks::new(l, j, ClockMode::Thinned), active)
    }

    fn with_mode(
        config: GhraConfig,
        policy: Box<dyn GhraPolicy>,
        seed: u64,
        ticks: Ticks,
        active: usize,
    ) -> Result<Self, EngineError> {
        let (l, j) = (config.servers(), config.types());
        let active = active.clamp(1, l);
        // A server not there yet has no room at all: no fit index, clock or routing sees it.
        let capacities = (0..l)
            .map(|s| if s < active { config.capacities[s] } else { Resources::zero(config.capacities[s].dims()) })
            .collect();
        let state = GhraState {
            active,
            capacities,
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
        };
        let (type_cdf, total_rate) = sample::type_cdf(&config.arrival_rates);
        let mut streams = Streams::new(seed);
        let next_arrival = (total_rate > 0.0).then(|| sample::exponential(&mut streams.arrivals, total_rate));
        let stats = GhraStats::new(&config, active);
        let distributed = policy.distributed();
        let mut sim = Self {
            distributed,
            ticks,
            config,
            policy,
            state,
            events: EventQueue::new(),
            next_arrival,
            streams,
            stats,
            now: 0.0,
            next_id: 0,
            last: None,
            configurations: vec![None; l],
            type_cdf,
            total_rate,
            handled: 0,
            stale: 0,
            log: DecisionLog::new(0),
            shifts: Shifts::default(),
        };
        sim.ticks.set_active(active, &sim.state);
        sim.dispatch(GhraEvent::Begin)?;
        sim.ticks.settle(0.0);
        Ok(sim)
    }

    /// The same run with every tick of every clock simulated, one heap event each: the
    /// engine before its ticks were thinned, kept as the reference the thinned clocks are
    /// tested against (same law, other draws; [`super::ticks`]).
    pub fn every_tick(config: GhraConfig, policy: Box<dyn GhraPolicy>, seed: u64) -> Result<Self, EngineError> {
        let (l, j) = (config.servers(), config.types());
        Self::with_mode(config, policy, seed, Ticks::new(l, j, ClockMode::EveryTick), l)
    }

    /// How the clocks are simulated.
    pub fn clock_mode(&self) -> ClockMode {
        self.ticks.mode()
    }

    pub fn config(&self) -> &GhraConfig {
        &self.config
    }

    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &GhraState {
        &self.state
    }

    /// Whether Q(t) grows: the verdict the report and the page state.
    /// The verdict on the waiting jobs: the one the report and the page state.
    pub fn verdict(&self) -> &VerdictWatch {
        self.stats.waiting.watch().expect("the waiting jobs are judged")
    }

    pub fn stats(&self) -> &GhraStats {
        &self.stats
    }

    /// Checks what the engine guarantees whatever the policy does: every server holds its
    /// jobs' demands and no more than its capacity, the queues add up, and every real job
    /// that arrived waits, runs or has left (dummies never count).
    pub fn check_invariants(&self) -> Result<(), String> {
        let st = &self.state;
        for l in 0..st.servers() {
            let mut used = Resources::zero(st.capacity(l).dims());
            let mut jobs = 0;
            for j in 0..st.types() {
                for _ in 0..st.running(l, j) {
                    used = used.plus(st.demand(j));
                    jobs += 1;
                }
            }
            if used != st.used[l] || !used.le(st.capacity(l)) || jobs != st.jobs_on(l) {
                return Err(format!(
                    "server {l}: its jobs use {used:?}, it records {:?} of {:?}",
                    st.used[l],
                    st.capacity(l)
                ));
            }
        }
        let queued: usize = st.queues.iter().map(std::collections::VecDeque::len).sum();
        let running_real: u64 = st.real.iter().map(|&n| u64::from(n)).sum();
        let s = &self.stats;
        if queued != st.waiting_total()
            || s.arrivals != queued as u64 + s.started
            || s.started != running_real + s.completed
        {
            return Err(format!(
                "{} arrivals but {queued} waiting, {running_real} running, {} completed",
                s.arrivals, s.completed
            ));
        }
        Ok(())
    }

    pub fn last_start(&self) -> Option<&LastStart> {
        self.last.as_ref()
    }

    /// Events handled so far (arrivals, departures, clock ticks), and the stale clock ticks
    /// dropped on the way (lazy invalidation).
    pub fn events(&self) -> (u64, u64) {
        (self.handled, self.stale)
    }

    pub(super) fn context(&mut self) -> (GhraContext<'_>, &mut Box<dyn GhraPolicy>) {
        (
            GhraContext {
                now: self.now,
                state: &mut self.state,
                events: &mut self.events,
                ticks: &mut self.ticks,
                stats: &mut self.stats,
                last: &mut self.last,
                configurations: &mut self.configurations,
                policy_rng: &mut self.streams.policy,
                service: self.config.service,
                mean_service: &self.config.mean_service,
                log: &mut self.log,
                type_names: &self.config.type_names,
                resource_names: &self.config.resource_names,
            },
            &mut self.policy,
        )
    }

    // Inlined into the event loop: out of line, since the fleet changes made the loop larger,
    // it cost a run without changes 1.3 % more instructions (cachegrind, ghra-b4 Algorithm 2).
    #[inline]
    pub(super) fn dispatch(&mut self, event: GhraEvent) -> Result<(), EngineError> {
        // Notes belong to the decisions of the reaction that made them: forget what the last
        // one noted without deciding (before the call, so its result is returned in place).
        self.log.drop_notes();
        let (mut ctx, policy) = self.context();
        policy.on_event(event, &mut ctx)
    }

    /// Processes every event up to time `until` (inclusive) and brings the time averages
    /// up to `until`.
    /// Keeps the last `capacity` decisions with their reasons (the page's event log).
    pub fn with_log(mut self, capacity: usize) -> Self {
        self.log = DecisionLog::new(capacity);
        self
    }

    /// Changes the arrival rates and the servers that take jobs at the moments of `shifts`
    /// (the scenario's changes), and follows Q(t) across them. A change to more servers than
    /// the run is [`built`](GhraSim::built) with adds as many as there are.
    pub fn with_shifts(mut self, shifts: Shifts<GhraShift>) -> Self {
        self.stats.waiting.recovering(shifts.moments());
        self.shifts = shifts;
        self
    }

    pub fn run_until(&mut self, until: f64) -> Result<(), EngineError> {
        run_until(self, until)
    }

    /// The configuration `server` runs, if the policy reported one.
    pub fn configuration(&self, server: usize) -> Option<&[u32]> {
        self.configurations[server].as_deref()
    }

    fn queue_of_clock(&self, i: usize) -> QueueRef {
        let j = self.state.types();
        if i < j {
            QueueRef::Central { job_type: i as u16 }
        } else {
            QueueRef::Local { server: (i / j - 1) as u32, job_type: (i % j) as u16 }
        }
    }

    fn arrive(&mut self) -> Result<GhraEvent, EngineError> {
        if self.state.waiting_total >= MAX_WAITING {
            return Err(EngineError::QueueLimit { at: Moment::Time(self.now as u64), limit: MAX_WAITING });
        }
        let u = sample::open_unit(&mut self.streams.sizes);
        let j = self.type_cdf.iter().position(|&c| u < c).unwrap_or(self.type_cdf.len() - 1);
        let service = self.config.service.sample(&mut self.streams.service, self.config.mean_service[j]);
        let job = GhraJob { id: self.next_id, arrival: self.now, service };
        self.next_id += 1;
        self.next_arrival = Some(self.now + sample::exponential(&mut self.streams.arrivals, self.total_rate));

        // The routing's notes are its own: not those of a clock tick that started nothing.
        self.log.drop_notes();
        let (mut ctx, policy) = self.context();
        let target = match policy.distributed() {
            true => Some(policy.route(j, &mut ctx)?),
            false => None,
        };
        let queue = match target {
            None => QueueRef::Central { job_type: j as u16 },
            Some(server) => {
                let l = server as usize;
                if l >= self.state.active {
                    return Err(self.state.refused(server, job.id, j));
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
        if let QueueRef::Local { server, .. } = queue {
            let (now, length) = (self.now, st.queues[i].len());
            self.log.record(|| {
                Decision::new(
                    now,
                    "route",
                    format!("job {} ({}) joins server {}'s queue", job.id, self.config.type_names[j], server + 1),
                    "the policy's routing",
                )
                .job(job.id)
                .server(server)
                .bin(j)
                .fact("queue there now", length.to_string())
            });
        }
        self.log.drop_notes();
        st.waiting_total += 1;
        if let QueueRef::Local { server, .. } = queue {
            st.waiting_at[server as usize] += 1;
        }
        self.stats.arrived(self.now, j, &self.state);
        Ok(GhraEvent::Arrival { queue })
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
        if server >= st.active {
            // A draining server's room leaves with its job (RES-97).
            self.drained(server, job_type);
        }
        self.ticks.server_changed(server, &self.state);
    }

    /// The clock tick due now: the next acting tick of the superposed clocks, or (every tick
    /// simulated) a clock's own tick off the heap, `None` when that one finds no room.
    fn tick(&mut self, every: Option<crate::des::Tick>) -> Option<GhraEvent> {
        let Some(tick) = every else {
            let (queue, server) = self.ticks.fire(self.now, &self.state, &mut self.streams.policy);
            debug_assert!(self.state.fits(queue.job_type(), server as usize), "a thinned tick finds room");
            return Some(GhraEvent::Tick { queue, server });
        };
        let clock = tick.clock as usize;
        let (state, events, rng) = (&self.state, &mut self.events, &mut self.streams.policy);
        let server = self.ticks.every_tick_fired(clock, self.now, state, events, rng);
        let queue = self.queue_of_clock(clock);
        self.state.fits(queue.job_type(), server as usize).then_some(GhraEvent::Tick { queue, server })
    }
}

impl EventDriven for GhraSim {
    fn next_time(&self) -> Option<f64> {
        let (heap, tick) = (self.events.peek_time(), self.ticks.next());
        match (heap, self.next_arrival) {
            (Some(h), Some(a)) => Some(tick.map_or(h.min(a), |t| t.min(h.min(a)))),
            (h, a) => match h.or(a) {
                Some(e) => Some(tick.map_or(e, |t| t.min(e))),
                None => tick,
            },
        }
    }

    fn step(&mut self) -> Result<(), EngineError> {
        // The earliest of the heap's next event, the next arrival and the superposed clocks'
        // next tick; at equal times in that order.
        let (heap, arrival, tick) = (self.events.peek_time(), self.next_arrival, self.ticks.next());
        let heap_first = heap.is_some_and(|h| arrival.is_none_or(|a| h <= a) && tick.is_none_or(|t| h <= t));
        let event = if heap_first {
            let Some((t, event)) = self.events.pop() else { unreachable!("peeked") };
            match event {
                Event::Tick(tick) if !self.ticks.is_current(tick) => {
                    self.stale += 1;
                    return Ok(());
                }
                Event::Tick(tick) => {
                    self.now = t;
                    let Some(event) = self.tick(Some(tick)) else {
                        // A tick that found no room: it changed nothing.
                        self.handled += 1;
                        return Ok(());
                    };
                    event
                }
                Event::Departure { server, job_type, dummy } => {
                    self.now = t;
                    self.depart(server as usize, job_type as usize, dummy);
                    GhraEvent::Departure { server, job_type, dummy }
                }
            }
        } else if let Some(a) = arrival.filter(|&a| tick.is_none_or(|t| a <= t)) {
            self.now = a;
            self.arrive()?
        } else if let Some(t) = tick {
            self.now = t;
            self.tick(None).expect("an acting tick finds room")
        } else {
            return Ok(());
        };
        self.handled += 1;
        self.dispatch(event)?;
        self.ticks.settle(self.now);
        Ok(())
    }

    fn now(&self) -> f64 {
        self.now
    }

    fn advance(&mut self, time: f64) {
        self.now = time;
        self.stats.flush(self.now);
    }

    fn next_shift(&self) -> f64 {
        self.shifts.next_time()
    }

    /// New arrival rates: the types' probabilities follow them, and the pending arrival is
    /// rescaled to the new total rate (RES-93); the same rates change nothing. Then the servers
    /// that take jobs (RES-97); the same count changes nothing.
    fn shift(&mut self) -> Result<(), EngineError> {
        let at = self.shifts.next_time();
        let Some(GhraShift { rates, fleet }) = self.shifts.take().cloned() else { return Ok(()) };
        if rates != self.config.arrival_rates && rates.len() == self.config.arrival_rates.len() {
            let (cdf, total) = sample::type_cdf(&rates);
            let old = self.total_rate;
            self.config.arrival_rates = rates;
            // A load is positive, so an arrival is always pending.
            self.next_arrival = self.next_arrival.map(|due| changes::rescale(due, at, old, total));
            self.type_cdf = cdf;
            self.total_rate = total;
        }
        // A fleet past the built one was refused when the run took it (`check_shifts`).
        let servers = fleet.len().clamp(1, self.state.servers());
        if servers != self.state.active {
            self.now = self.now.max(at);
            self.set_servers(servers)?;
        }
        Ok(())
    }

    fn follow_changes(&mut self, moments: Vec<u64>, open: u64) {
        self.stats.waiting.recovering_amended(moments, open);
    }

    /// A playing run is built for the fleets its changes had when it started (RES-97): a new
    /// list's fleets must be the first servers of that one.
    fn check_shifts(&self) -> Result<(), crate::ConfigError> {
        let built = &self.config.capacities;
        for (at, shift) in self.shifts.moments().into_iter().zip(self.shifts.values()) {
            let fleet = shift.fleet.capacities();
            if fleet.len() > built.len() || fleet.iter().zip(built).any(|(a, b)| a != b) {
                return Err(crate::ConfigError::new(
                    changes::KEY,
                    format!(
                        "entry '{at}:servers={}': the run was built for the servers of its fleets when it started \
                         ({} servers, the first ones kept and the last ones added); start it again to change more",
                        shift.fleet,
                        built.len()
                    ),
                ));
            }
        }
        Ok(())
    }
}
