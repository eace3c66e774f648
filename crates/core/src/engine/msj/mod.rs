//! The multiserver-job engine (MSFQ paper, SPEC 5): one machine with k cores, jobs that hold
//! `need` cores for their whole run, continuous time.
//!
//! Events come from the [`EventQueue`](crate::engine::des::EventQueue): the next arrival and
//! one completion per running job, so the heap never holds more than k + 1 events. After
//! every arrival and every completion the policy runs its admission routine (RES-55) through
//! [`MsjContext::start`]; the engine checks that the job fits in the free cores and never
//! lets a policy stop a running job (non-preemption by construction).
//!
//! Waiting jobs sit in one FIFO queue per class (RES-37: first come, first served within a
//! class, for every policy), so "the oldest waiting job of class c" is a queue head and every
//! policy decision costs O(number of classes), never a scan of the waiting jobs.
//!
//! Common random numbers: inter-arrival times come from the arrivals stream, classes from
//! the sizes stream and service times from the service stream, all drawn when the job
//! arrives. Job i is therefore the same job, with the same service time, under every policy.

mod live;
mod stats;

use std::collections::VecDeque;

use crate::EngineError;
use crate::engine::des::EventQueue;
use crate::metrics::SeriesPoint;
use crate::rng::{StreamRng, Streams};
use crate::workload::{JobClasses, ServiceLaw, sample};

pub use stats::{BATCHES, ClassStats, MsjStats, PHASES, PhaseStats};

/// Most jobs a run may hold waiting before it stops with [`EngineError::QueueLimit`].
pub const MAX_WAITING: usize = 5_000_000;

/// The system in resolved numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct MsjConfig {
    /// k, the cores of the machine.
    pub cores: u32,
    /// λ, total arrivals per time unit.
    pub arrival_rate: f64,
    pub classes: JobClasses,
    pub service: ServiceLaw,
    /// Time discarded before measuring.
    pub warmup: f64,
    /// The planned end of the run (per-job batches for the confidence interval split
    /// `[warmup, horizon)` into equal parts).
    pub horizon: f64,
    /// Grid interval of the series.
    pub sample_every: f64,
    /// Series merge pairwise beyond this many points.
    pub max_points: usize,
}

/// A waiting job.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MsjJob {
    /// Jobs are numbered in arrival order, so ids compare arrival times.
    pub id: u64,
    pub arrival: f64,
    /// Its service time, drawn at arrival (common random numbers).
    pub service: f64,
}

#[derive(Debug, Clone, Copy)]
enum Event {
    Arrival,
    Completion {
        class: u16,
        arrival: f64,
    },
    /// The policy's timer (nMSR's schedule changes). Only the latest one set counts: an
    /// older version is dropped when it reaches the front (lazy invalidation).
    Timer {
        version: u64,
    },
}

/// What policies read: cores, classes, queues and jobs in service.
#[derive(Debug, Clone)]
pub struct MsjState {
    cores: u32,
    free: u32,
    needs: Vec<u32>,
    waiting: Vec<VecDeque<MsjJob>>,
    in_service: Vec<u32>,
    waiting_total: usize,
    running_total: usize,
}

impl MsjState {
    /// k.
    pub fn cores(&self) -> u32 {
        self.cores
    }

    /// Cores not held by a running job.
    pub fn free(&self) -> u32 {
        self.free
    }

    pub fn busy(&self) -> u32 {
        self.cores - self.free
    }

    /// Number of classes; classes are indexed by ascending need.
    pub fn classes(&self) -> usize {
        self.needs.len()
    }

    pub fn need(&self, class: usize) -> u32 {
        self.needs[class]
    }

    /// Waiting jobs of `class`.
    pub fn waiting(&self, class: usize) -> usize {
        self.waiting[class].len()
    }

    /// Running jobs of `class`.
    pub fn in_service(&self, class: usize) -> u32 {
        self.in_service[class]
    }

    /// The oldest waiting job of `class`.
    pub fn head(&self, class: usize) -> Option<&MsjJob> {
        self.waiting[class].front()
    }

    pub fn waiting_total(&self) -> usize {
        self.waiting_total
    }

    pub fn running_total(&self) -> usize {
        self.running_total
    }

    /// Whether no job waits or runs.
    pub fn is_empty(&self) -> bool {
        self.waiting_total == 0 && self.running_total == 0
    }

    /// A state with the given counts (ids in class order), for policy tests.
    #[cfg(test)]
    pub(crate) fn from_counts(cores: u32, needs: &[u32], waiting: &[usize], in_service: &[u32]) -> Self {
        let mut id = 0;
        let queues = waiting
            .iter()
            .map(|&n| {
                (0..n)
                    .map(|_| {
                        id += 1;
                        MsjJob { id, arrival: 0.0, service: 1.0 }
                    })
                    .collect()
            })
            .collect();
        let busy: u32 = needs.iter().zip(in_service).map(|(n, u)| n * u).sum();
        Self {
            cores,
            free: cores - busy,
            needs: needs.to_vec(),
            waiting: queues,
            in_service: in_service.to_vec(),
            waiting_total: waiting.iter().sum(),
            running_total: in_service.iter().map(|&u| u as usize).sum(),
        }
    }

    /// The class of the oldest waiting job among classes that `accept`.
    pub fn oldest_where(&self, accept: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.classes()).filter(|&c| accept(c)).filter_map(|c| self.head(c).map(|j| (j.id, c))).min().map(|(_, c)| c)
    }
}

/// A policy for the multiserver-job model.
pub trait MsjPolicy {
    /// The admission routine, run after every arrival and every completion (RES-55).
    fn admit(&mut self, ctx: &mut MsjContext<'_>) -> Result<(), EngineError>;

    /// Called once at time 0, before any event, so a policy can set its first timer.
    fn on_start(&mut self, _ctx: &mut MsjContext<'_>) {}

    /// The timer set with [`MsjContext::set_timer`] fired; the admission routine runs right
    /// after.
    fn on_timer(&mut self, _ctx: &mut MsjContext<'_>) {}

    /// What the policy is doing now, for the page (e.g. "phase 2: small jobs").
    fn status(&self) -> Option<String> {
        None
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
pub struct MsjContext<'a> {
    now: f64,
    state: &'a mut MsjState,
    events: &'a mut EventQueue<Event>,
    stats: &'a mut MsjStats,
    last: &'a mut Option<LastStart>,
    policy_rng: &'a mut StreamRng,
    timer_version: &'a mut u64,
}

impl MsjContext<'_> {
    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &MsjState {
        self.state
    }

    /// Starts the oldest waiting job of `class` (FCFS within a class, RES-37). `why` is the
    /// rule, shown to the user. Refused, changing nothing, if the class has no waiting job or
    /// the job needs more cores than are free.
    pub fn start(&mut self, class: usize, why: &'static str) -> Result<(), EngineError> {
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
        Ok(())
    }

    /// Records that the policy's phase machine entered `phase` (1..=4, SPEC 5.4 H_i).
    pub fn enter_phase(&mut self, phase: u8) {
        self.stats.phases.enter(self.now, phase);
    }

    /// Records that the policy parked on an empty system (RES-40): idle time, not a phase.
    pub fn park(&mut self) {
        self.stats.phases.park(self.now);
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

/// A multiserver-job simulation.
pub struct MsjSim {
    config: MsjConfig,
    policy: Box<dyn MsjPolicy>,
    state: MsjState,
    events: EventQueue<Event>,
    streams: Streams,
    stats: MsjStats,
    now: f64,
    next_id: u64,
    last: Option<LastStart>,
    timer_version: u64,
}

impl MsjSim {
    pub fn new(config: MsjConfig, policy: Box<dyn MsjPolicy>, seed: u64) -> Self {
        let needs: Vec<u32> = config.classes.as_slice().iter().map(|c| c.need).collect();
        let n = needs.len();
        let state = MsjState {
            cores: config.cores,
            free: config.cores,
            needs,
            waiting: vec![VecDeque::new(); n],
            in_service: vec![0; n],
            waiting_total: 0,
            running_total: 0,
        };
        let mut streams = Streams::new(seed);
        let mut events = EventQueue::new();
        events.push(sample::exponential(&mut streams.arrivals, config.arrival_rate), Event::Arrival);
        let stats = MsjStats::new(&config);
        let mut sim =
            Self { config, policy, state, events, streams, stats, now: 0.0, next_id: 0, last: None, timer_version: 0 };
        let Self { policy, state, events, stats, last, streams, timer_version, .. } = &mut sim;
        policy.on_start(&mut MsjContext {
            now: 0.0,
            state,
            events,
            stats,
            last,
            policy_rng: &mut streams.policy,
            timer_version,
        });
        sim
    }

    pub fn config(&self) -> &MsjConfig {
        &self.config
    }

    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &MsjState {
        &self.state
    }

    pub fn stats(&self) -> &MsjStats {
        &self.stats
    }

    pub fn last_start(&self) -> Option<&LastStart> {
        self.last.as_ref()
    }

    pub fn policy_status(&self) -> Option<String> {
        self.policy.status()
    }

    /// Processes every event up to time `until` (inclusive) and brings the time averages
    /// up to `until`.
    pub fn run_until(&mut self, until: f64) -> Result<(), EngineError> {
        while let Some(t) = self.events.peek_time() {
            if t > until {
                break;
            }
            let (t, event) = self.events.pop().expect("peeked");
            if matches!(event, Event::Timer { version } if version != self.timer_version) {
                continue;
            }
            self.now = t;
            match event {
                Event::Arrival => self.arrive()?,
                Event::Completion { class, arrival } => self.complete(class as usize, arrival),
                Event::Timer { .. } => {}
            }
            let mut ctx = MsjContext {
                now: self.now,
                state: &mut self.state,
                events: &mut self.events,
                stats: &mut self.stats,
                last: &mut self.last,
                policy_rng: &mut self.streams.policy,
                timer_version: &mut self.timer_version,
            };
            if matches!(event, Event::Timer { .. }) {
                self.policy.on_timer(&mut ctx);
            }
            self.policy.admit(&mut ctx)?;
        }
        if until > self.now {
            self.now = until;
        }
        self.stats.flush(self.now);
        Ok(())
    }

    fn arrive(&mut self) -> Result<(), EngineError> {
        if self.state.waiting_total >= MAX_WAITING {
            return Err(EngineError::QueueLimit { slot: self.now as u64, limit: MAX_WAITING });
        }
        let classes = &self.config.classes;
        let class = classes.sample(&mut self.streams.sizes);
        let mean = classes.as_slice()[class].mean_size;
        let service = self.config.service.sample(&mut self.streams.service, mean);
        let job = MsjJob { id: self.next_id, arrival: self.now, service };
        self.next_id += 1;
        self.state.waiting[class].push_back(job);
        self.state.waiting_total += 1;
        self.stats.arrived(self.now, class, &self.state);
        let next = self.now + sample::exponential(&mut self.streams.arrivals, self.config.arrival_rate);
        self.events.push(next, Event::Arrival);
        Ok(())
    }

    fn complete(&mut self, class: usize, arrival: f64) {
        let st = &mut self.state;
        st.free += st.needs[class];
        st.in_service[class] -= 1;
        st.running_total -= 1;
        self.stats.completed(self.now, class, arrival, st);
    }

    /// Mean number of waiting jobs after the warm-up, up to now.
    pub fn mean_queue(&self) -> f64 {
        self.stats.waiting.mean(self.now, self.config.warmup)
    }

    /// n(t) as interval means.
    pub fn in_system_series(&self) -> &[SeriesPoint] {
        self.stats.in_system.points()
    }
}

#[cfg(test)]
mod tests;
