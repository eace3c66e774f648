//! The multiserver-job engine (MSFQ paper, SPEC 5): one machine with k cores, jobs that hold
//! `need` cores for their whole run, continuous time.
//!
//! Events come from the [`crate::des::EventQueue`]: the next arrival and
//! one completion per running job, so the heap never holds more than k + 1 events. After
//! every arrival and every completion the policy runs its admission routine (RES-55) through
//! [`MsfqContext::apply`]; the engine checks that the job fits in the free cores and never
//! lets a policy stop a running job (non-preemption by construction).
//!
//! Waiting jobs sit in one FIFO queue per class (RES-37: first come, first served within a
//! class, for every policy), so "the oldest waiting job of class c" is a queue head and every
//! policy decision costs O(number of classes), never a scan of the waiting jobs.
//!
//! Common random numbers: inter-arrival times come from the arrivals stream, classes from
//! the sizes stream and service times from the service stream, all drawn when the job
//! arrives. Job i is therefore the same job, with the same service time, under every policy.

use super::policy::{LastStart, MsfqContext, MsfqPolicy, Status};
use super::state::{Event, MsfqConfig, MsfqJob, MsfqState};
use super::stats::MsfqStats;
use crate::changes::{self, Shifts};
use crate::decisions::DecisionLog;
use crate::des::{EventDriven, EventQueue, run_until};
use crate::limits::MAX_WAITING;
use crate::metrics::{SeriesPoint, VerdictWatch};
use crate::rng::Streams;
use crate::workload::sample;
use crate::{EngineError, Moment};

use super::theory::MsfqAnalysis;

/// A multiserver-job simulation.
#[derive(Clone)]
pub struct MsfqSim {
    pub(super) config: MsfqConfig,
    pub(super) policy: Box<dyn MsfqPolicy>,
    pub(super) state: MsfqState,
    pub(super) events: EventQueue<Event>,
    pub(super) streams: Streams,
    pub(super) stats: MsfqStats,
    pub(super) now: f64,
    pub(super) next_id: u64,
    pub(super) last: Option<LastStart>,
    /// What the policy last reported doing.
    pub(super) status: Option<Status>,
    pub(super) timer_version: u64,
    /// The paper's analysis of this run, where it applies (SPEC 5.6).
    pub(super) analysis: Option<MsfqAnalysis>,
    /// The last decisions, when the run keeps them ([`crate::view::Watch::log`]).
    pub(super) log: DecisionLog,
    /// λ from each moment of the scenario's changes on ([`crate::changes`]).
    pub(super) shifts: Shifts<f64>,
    /// When the pending arrival is due, and its version ([`Event::Arrival`]).
    pub(super) arrival_due: f64,
    pub(super) arrival_version: u32,
}

impl MsfqSim {
    pub fn new(config: MsfqConfig, policy: Box<dyn MsfqPolicy>, seed: u64) -> Self {
        let needs: Vec<u32> = config.classes.as_slice().iter().map(|c| c.need).collect();
        let state = MsfqState::new(config.cores, needs);
        let mut streams = Streams::new(seed);
        let mut events = EventQueue::new();
        let mut arrival_due = f64::INFINITY;
        match &config.trace {
            Some((jobs, scaling)) => {
                if !jobs.is_empty() {
                    events.push(jobs.time(0, *scaling), Event::Arrival { version: 0 });
                }
            }
            None => {
                arrival_due = sample::exponential(&mut streams.arrivals, config.arrival_rate);
                events.push(arrival_due, Event::Arrival { version: 0 });
            }
        }
        let stats = MsfqStats::new(&config);
        let mut sim = Self {
            config,
            policy,
            state,
            events,
            streams,
            stats,
            now: 0.0,
            next_id: 0,
            last: None,
            status: None,
            timer_version: 0,
            analysis: None,
            log: DecisionLog::new(0),
            shifts: Shifts::default(),
            arrival_due,
            arrival_version: 0,
        };
        let (mut ctx, policy) = sim.context();
        policy.on_start(&mut ctx);
        sim
    }

    /// Keeps the last `capacity` decisions with their reasons (the page's event log).
    pub fn with_log(mut self, capacity: usize) -> Self {
        self.log = DecisionLog::new(capacity);
        self
    }

    /// Changes λ at the moments of `shifts` (the scenario's changes), and follows n(t) (the
    /// queue MSFQ is judged on) across them.
    pub fn with_shifts(mut self, shifts: Shifts<f64>) -> Self {
        self.stats.in_system.recovering(shifts.moments());
        self.shifts = shifts;
        self
    }

    /// Attaches the paper's analysis of this run.
    pub fn with_analysis(mut self, analysis: Option<MsfqAnalysis>) -> Self {
        self.analysis = analysis;
        self
    }

    pub fn analysis(&self) -> Option<&MsfqAnalysis> {
        self.analysis.as_ref()
    }

    fn context(&mut self) -> (MsfqContext<'_>, &mut Box<dyn MsfqPolicy>) {
        let ctx = MsfqContext {
            now: self.now,
            state: &mut self.state,
            events: &mut self.events,
            stats: &mut self.stats,
            last: &mut self.last,
            status: &mut self.status,
            policy_rng: &mut self.streams.policy,
            timer_version: &mut self.timer_version,
            log: &mut self.log,
        };
        (ctx, &mut self.policy)
    }

    pub fn config(&self) -> &MsfqConfig {
        &self.config
    }

    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &MsfqState {
        &self.state
    }

    pub fn stats(&self) -> &MsfqStats {
        &self.stats
    }

    /// Checks what the engine guarantees whatever the policy does: the busy cores are the
    /// running jobs' needs and at most k, and every job that arrived waits, runs or has left.
    pub fn check_invariants(&self) -> Result<(), String> {
        let st = &self.state;
        let busy: u32 = (0..st.classes()).map(|c| st.need(c) * st.in_service(c)).sum();
        if busy != st.busy() || busy > st.cores() {
            return Err(format!("{busy} cores held by running jobs, {} recorded busy of {}", st.busy(), st.cores()));
        }
        let waiting: usize = (0..st.classes()).map(|c| st.waiting(c)).sum();
        let s = &self.stats;
        if waiting != st.waiting_total()
            || s.arrivals != s.completed + st.running_total() as u64 + waiting as u64
            || s.started != s.completed + st.running_total() as u64
        {
            return Err(format!(
                "{} arrivals but {waiting} waiting, {} running, {} completed",
                s.arrivals,
                st.running_total(),
                s.completed
            ));
        }
        Ok(())
    }

    pub fn last_start(&self) -> Option<&LastStart> {
        self.last.as_ref()
    }

    /// What the policy last reported doing.
    pub fn status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    /// Processes every event up to time `until` (inclusive) and brings the time averages
    /// up to `until`.
    pub fn run_until(&mut self, until: f64) -> Result<(), EngineError> {
        run_until(self, until)
    }

    fn arrive(&mut self) -> Result<(), EngineError> {
        if self.state.waiting_total >= MAX_WAITING {
            return Err(EngineError::QueueLimit { at: Moment::Time(self.now as u64), limit: MAX_WAITING });
        }
        let (class, service) = match &self.config.trace {
            Some((jobs, _)) => {
                let i = self.next_id as usize;
                (jobs.class(i), jobs.service(i))
            }
            None => {
                let classes = &self.config.classes;
                let class = classes.sample(&mut self.streams.sizes);
                let mean = classes.as_slice()[class].mean_size;
                (class, self.config.service.sample(&mut self.streams.service, mean))
            }
        };
        let job = MsfqJob { id: self.next_id, arrival: self.now, service };
        self.next_id += 1;
        self.state.waiting[class].push_back(job);
        self.state.waiting_total += 1;
        self.stats.arrived(self.now, class, &self.state);
        match &self.config.trace {
            // The log's next job, if any: job i is the i-th arrival.
            Some((jobs, scaling)) => {
                let i = self.next_id as usize;
                if i < jobs.len() {
                    self.events.push(jobs.time(i, *scaling).max(self.now), Event::Arrival { version: 0 });
                }
            }
            None => {
                let next = self.now + sample::exponential(&mut self.streams.arrivals, self.config.arrival_rate);
                self.arrival_due = next;
                self.events.push(next, Event::Arrival { version: self.arrival_version });
            }
        }
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

    /// Whether n(t) grows (MSFQ's figures plot jobs in system): the verdict the report and
    /// the page state.
    /// The verdict on n(t), the jobs in the system: the one the report and the page state.
    pub fn verdict(&self) -> &VerdictWatch {
        self.stats.in_system.watch().expect("n(t) is judged")
    }

    /// n(t) as interval means.
    pub fn in_system_series(&self) -> &[SeriesPoint] {
        self.stats.in_system.points()
    }
}

impl EventDriven for MsfqSim {
    fn next_time(&self) -> Option<f64> {
        self.events.peek_time()
    }

    fn step(&mut self) -> Result<(), EngineError> {
        let Some((t, event)) = self.events.pop() else { return Ok(()) };
        if matches!(event, Event::Timer { version } if version != self.timer_version)
            || matches!(event, Event::Arrival { version } if version != self.arrival_version)
        {
            return Ok(());
        }
        self.now = t;
        match event {
            Event::Arrival { .. } => self.arrive()?,
            Event::Completion { class, arrival } => self.complete(class as usize, arrival),
            Event::Timer { .. } => {}
        }
        // Notes belong to the decisions of the reaction that made them: forget what the last
        // reaction noted without deciding. (Here rather than after `admit`: holding its result
        // across a call cost 5 % of a batch run, a store the next load waited on.)
        self.log.drop_notes();
        let (mut ctx, policy) = self.context();
        if matches!(event, Event::Timer { .. }) {
            policy.on_timer(&mut ctx);
        }
        policy.admit(&mut ctx)
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

    /// The pending arrival is rescaled to the new rate (RES-93); a change to the same rate
    /// leaves the event where it is.
    fn shift(&mut self) -> Result<(), EngineError> {
        let at = self.shifts.next_time();
        let Some(&rate) = self.shifts.take() else { return Ok(()) };
        let old = self.config.arrival_rate;
        if self.config.trace.is_some() || rate == old {
            return Ok(());
        }
        self.config.arrival_rate = rate;
        self.arrival_due = changes::rescale(self.arrival_due, at, old, rate);
        self.arrival_version += 1;
        self.events.push(self.arrival_due, Event::Arrival { version: self.arrival_version });
        Ok(())
    }

    fn follow_changes(&mut self, moments: Vec<u64>, open: u64) {
        self.stats.in_system.recovering_amended(moments, open);
    }
}
