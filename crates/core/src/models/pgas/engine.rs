//! The loss model with slots of PG-AS (SPEC 4.1): L identical servers, J job types with demand
//! vectors and reward rates, arrivals that are admitted into a slot or lost, continuous time.
//!
//! Each server ℓ has a **configuration** k^ℓ (its deployed slots, counts per type) or none,
//! and a placement k̂^ℓ (its filled slots). A job of type j occupies a free type-j slot of a
//! configured server, or, on a server without configuration (power-of-d), any room left in
//! its capacity. There is no waiting room: a policy answers every arrival with
//! [`Admit`](super::PgasDecision::Admit) or [`Reject`](super::PgasDecision::Reject), and may
//! migrate a running job between servers, preempt one (it is lost), or give an **empty** server
//! another configuration.
//!
//! Policies hand back [`PgasDecision`](super::PgasDecision)s through [`PgasContext::apply`];
//! the engine checks each one against the model and refuses it, changing nothing, if it breaks
//! a rule: the slot must be free (k̂_j < k_j), a configuration must fit the server and may
//! change only while the server holds no job, a migrated or preempted job must be there. So
//! k̂ ≤ k and "a configuration changes only on an empty server" hold by construction (SPEC 4.3's
//! invariants; [`PgasSim::check_invariants`] re-derives them for the tests).
//!
//! Arrivals come from one of two sources, both with common random numbers: Poisson arrivals at
//! rate λ_j per type, the type drawn from the sizes stream, the service time from the service
//! stream and the gap from the arrivals stream, all at arrival (job i is the same job under every
//! policy); or a task trace, whose submit times (divided by the workload scale α) and durations
//! are replayed. A migrated job keeps its remaining service time (RES-53). Departures due at the
//! time of an arrival are processed first (RES-2).
//!
//! Costs: an arrival or a departure is one heap operation on the departure events (at most one
//! per job in service, plus stale ones of preempted jobs) plus the policy's work; applying a
//! decision is O(1), except that migrating or preempting picks the youngest job of its type on
//! the server, a scan of that server's jobs of that type (at most K_max).

use super::policy::{LastAction, Pending, PgasContext, PgasPolicy, Ranking, ServerClass};
use super::state::{Arrivals, NO_CONFIG, NO_SERVER, PgasConfig, PgasState};
use super::stats::PgasStats;
use crate::EngineError;
use crate::changes::{self, Shifts};
use crate::decisions::DecisionLog;
use crate::des::{EventDriven, EventQueue, run_until};
use crate::resources::Resources;
use crate::rng::Streams;
use crate::workload::sample;

/// A PG-AS loss-model simulation.
#[derive(Clone)]
pub struct PgasSim {
    pub(super) config: PgasConfig,
    pub(super) policy: Box<dyn PgasPolicy>,
    pub(super) state: PgasState,
    pub(super) departures: EventQueue<(u32, u32)>,
    pub(super) streams: Streams,
    pub(super) stats: PgasStats,
    pub(super) now: f64,
    pub(super) next_id: u64,
    /// The next arrival time (infinite when none is left) and, for a trace, its task.
    pub(super) next_arrival: f64,
    pub(super) cursor: usize,
    pub(super) type_cdf: Vec<f64>,
    pub(super) total_rate: f64,
    pub(super) last: Option<LastAction>,
    pub(super) reported: Option<f64>,
    /// DRA's ranking as it last reported it, when the run keeps details.
    pub(super) ranking: Option<Ranking>,
    /// |RG| as DRA last reported it.
    pub(super) reject_group: usize,
    pub(super) unlimited: bool,
    /// The last decisions, when the run keeps them ([`crate::view::Watch::log`]).
    pub(super) log: DecisionLog,
    /// The arrival rates and the servers that take jobs from each moment of the scenario's
    /// changes on ([`crate::changes`]).
    pub(super) shifts: Shifts<PgasShift>,
}

/// What a moment of the scenario's changes sets (RES-93, RES-98).
#[derive(Debug, Clone, PartialEq)]
pub struct PgasShift {
    /// λ_j per type (Poisson arrivals; ignored while a trace replays), read against the
    /// starting L.
    pub rates: Vec<f64>,
    /// Servers that take jobs (the others drain).
    pub servers: usize,
}

/// The most servers a run starting with `servers` has under `shifts`: what the engine and the
/// policy are built for ([`PgasConfig::built`]).
pub fn most_servers(servers: usize, shifts: &Shifts<PgasShift>) -> usize {
    shifts.values().map(|s| s.servers).fold(servers, usize::max)
}

impl PgasSim {
    pub fn new(config: PgasConfig, policy: Box<dyn PgasPolicy>, seed: u64) -> Result<Self, EngineError> {
        let state = PgasState::new(&config);
        let (type_cdf, total_rate) = match &config.arrivals {
            Arrivals::Poisson { rates, .. } => sample::type_cdf(rates),
            Arrivals::Trace { .. } => (Vec::new(), 0.0),
        };
        let mut streams = Streams::new(seed);
        let next_arrival = match &config.arrivals {
            Arrivals::Poisson { .. } if total_rate > 0.0 => sample::exponential(&mut streams.arrivals, total_rate),
            Arrivals::Poisson { .. } => f64::INFINITY,
            Arrivals::Trace { trace, time_scale } => {
                trace.tasks().first().map_or(f64::INFINITY, |t| t.submit / time_scale)
            }
        };
        let stats = PgasStats::new(&config);
        let unlimited = policy.unlimited();
        let mut sim = Self {
            config,
            policy,
            state,
            departures: EventQueue::new(),
            streams,
            stats,
            now: 0.0,
            next_id: 0,
            next_arrival,
            cursor: 0,
            type_cdf,
            total_rate,
            last: None,
            reported: None,
            ranking: None,
            reject_group: 0,
            unlimited,
            log: DecisionLog::new(0),
            shifts: Shifts::default(),
        };
        let (mut ctx, policy) = sim.context(None);
        policy.begin(&mut ctx)?;
        sim.record();
        Ok(sim)
    }

    pub fn config(&self) -> &PgasConfig {
        &self.config
    }

    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &PgasState {
        &self.state
    }

    pub fn stats(&self) -> &PgasStats {
        &self.stats
    }

    pub fn last_action(&self) -> Option<&LastAction> {
        self.last.as_ref()
    }

    /// How DRA classifies `server` (rank, index, group), from its last reported ranking and
    /// the order servers were given their configurations; `None` under other policies.
    pub fn classify(&self, server: usize) -> Option<ServerClass> {
        let ranking = self.ranking.as_ref()?;
        let configuration = self.state.configuration(server)?;
        let (position, members) = self.state.position(server)?;
        Some(ranking.class(configuration, position, members, self.state.types()))
    }

    /// The reject group's size as the policy last reported it.
    pub fn reject_group(&self) -> usize {
        self.reject_group
    }

    fn context(&mut self, pending: Option<Pending>) -> (PgasContext<'_>, &mut Box<dyn PgasPolicy>) {
        (
            PgasContext {
                now: self.now,
                state: &mut self.state,
                departures: &mut self.departures,
                stats: &mut self.stats,
                last: &mut self.last,
                policy_rng: &mut self.streams.policy,
                pending,
                unlimited: self.unlimited,
                reported: &mut self.reported,
                ranking: &mut self.ranking,
                reject_group: &mut self.reject_group,
                details: self.config.details,
                log: &mut self.log,
                type_names: &self.config.type_names,
                rule: None,
            },
            &mut self.policy,
        )
    }

    /// The time of the next event (infinite when none is left).
    fn next_event(&self) -> f64 {
        self.departures.peek_time().map_or(self.next_arrival, |d| d.min(self.next_arrival))
    }

    /// Processes every event up to time `until` (inclusive) and brings the time averages up to
    /// `until`.
    /// Keeps the last `capacity` decisions with their reasons (the page's event log).
    pub fn with_log(mut self, capacity: usize) -> Self {
        self.log = DecisionLog::new(capacity);
        self
    }

    /// Changes the arrival rates and the server count at the moments of `shifts` (the
    /// scenario's changes), and follows the reward and the rejections across them. The run
    /// must have been built for the most servers they reach ([`PgasConfig::built`],
    /// [`most_servers`]); a count past that is made the built one.
    pub fn with_shifts(mut self, shifts: Shifts<PgasShift>) -> Self {
        self.stats.stretching(shifts.moments());
        self.shifts = shifts;
        self
    }

    pub fn run_until(&mut self, until: f64) -> Result<(), EngineError> {
        run_until(self, until)
    }

    /// Runs `events` more arrivals and departures (the benchmark's unit), or fewer if none are
    /// left, and returns how many ran. Time averages are brought up to the last event.
    pub fn run_events(&mut self, events: u64) -> Result<u64, EngineError> {
        let start = self.stats.arrivals + self.stats.departures;
        while self.stats.arrivals + self.stats.departures - start < events && self.next_event() < f64::INFINITY {
            self.step()?;
        }
        self.stats.flush(self.now);
        Ok(self.stats.arrivals + self.stats.departures - start)
    }

    /// Records the reward and the other levels after an event.
    fn record(&mut self) {
        // The servers present move at a change of the count and when a draining server
        // leaves: the per-server figures follow them (RES-98). One comparison otherwise.
        if self.state.present() != self.stats.present() {
            self.stats.set_present(self.now, &self.state);
        }
        let reward = if self.unlimited {
            self.reported.unwrap_or(0.0)
        } else {
            self.state.reward_units as f64 / self.config.reward_denominator as f64
        };
        self.stats.levels(self.now, reward, self.reject_group(), &self.state);
    }

    fn arrive(&mut self) -> Result<(), EngineError> {
        let (job_type, service) = match &self.config.arrivals {
            Arrivals::Poisson { mean_service, .. } => {
                let u = sample::open_unit(&mut self.streams.sizes);
                let j = self.type_cdf.iter().position(|&c| u <= c).unwrap_or(self.type_cdf.len() - 1);
                let service = sample::exponential(&mut self.streams.service, 1.0 / mean_service[j]);
                self.next_arrival = self.now + sample::exponential(&mut self.streams.arrivals, self.total_rate);
                (j, service)
            }
            Arrivals::Trace { trace, time_scale } => {
                let task = trace.tasks()[self.cursor];
                self.cursor += 1;
                self.next_arrival = trace.tasks().get(self.cursor).map_or(f64::INFINITY, |t| t.submit / time_scale);
                (task.job_type as usize, task.duration)
            }
        };
        let pending = Pending { id: self.next_id, job_type, service };
        self.next_id += 1;
        self.stats.arrived(self.now, job_type);
        let rejected = self.stats.rejected;
        let (mut ctx, policy) = self.context(Some(pending));
        policy.on_arrival(job_type, &mut ctx)?;
        if ctx.pending.is_some() {
            return Err(EngineError::Unanswered { job: pending.id });
        }
        self.stats.answered(self.now, self.stats.rejected > rejected);
        // Notes belong to the decisions of the reaction that made them.
        self.log.drop_notes();
        Ok(())
    }

    fn depart(&mut self, record: u32) -> Result<(), EngineError> {
        let job = self.state.jobs[record as usize];
        let j = job.job_type as usize;
        let server = (job.server != NO_SERVER).then_some(job.server);
        if server.is_some() {
            self.state.remove_from_server(record);
        }
        let slot = &mut self.state.jobs[record as usize];
        slot.alive = false;
        slot.generation = slot.generation.wrapping_add(1);
        self.state.free_records.push(record);
        self.state.count(j, false);
        self.stats.departed(self.now, j, &self.state, server.is_some());
        // Notes belong to the decisions of the reaction that made them (see `arrive`).
        self.log.drop_notes();
        let (mut ctx, policy) = self.context(None);
        policy.on_departure(j, server, &mut ctx)
    }

    /// Servers `0..servers` take jobs from now on; the others drain (RES-98). No draw: the
    /// arrivals, types and services are the run's without the change. The policy follows
    /// ([`PgasPolicy::on_servers`]: DRA re-reserves at once), and the levels are recorded.
    fn set_servers(&mut self, servers: usize) -> Result<(), EngineError> {
        self.state.set_active(servers);
        let (mut ctx, policy) = self.context(None);
        policy.on_servers(servers, &mut ctx)?;
        self.log.drop_notes();
        self.record();
        Ok(())
    }

    /// Re-derives SPEC 4.3's invariants from the job records (O(L·J + jobs), for tests):
    /// k̂ ≤ k on every configured server, jobs within capacity on the others, k̂ and Y equal
    /// the jobs actually recorded, and the reward equals Σ_j u_j Y_j.
    pub fn check_invariants(&self) -> Result<(), String> {
        let st = &self.state;
        let (l, j) = (st.servers_built(), st.types);
        let mut placed = vec![0u32; l * j];
        let mut in_system = vec![0u64; j];
        for job in st.jobs.iter().filter(|r| r.alive) {
            in_system[job.job_type as usize] += 1;
            if job.server != NO_SERVER {
                placed[job.server as usize * j + job.job_type as usize] += 1;
            }
        }
        if placed != st.placed {
            return Err("k̂ differs from the jobs on the servers".into());
        }
        if in_system != st.in_system {
            return Err(format!("Y = {:?} but the jobs in the system are {in_system:?}", st.in_system));
        }
        for s in 0..l {
            let mut used = Resources::zero(st.capacity.dims());
            for t in 0..j {
                for _ in 0..placed[s * j + t] {
                    used = used.plus(&st.demands[t]);
                }
                if st.lists[s * j + t].len() != placed[s * j + t] as usize {
                    return Err(format!("server {s}: the job list of type {t} is out of step"));
                }
            }
            if used != st.used[s] || !used.le(&st.capacity) {
                return Err(format!("server {s}: used {:?} of {:?}", st.used[s], st.capacity));
            }
            if let Some(c) = st.configuration(s)
                && let Some(t) = (0..j).find(|&t| placed[s * j + t] > st.configs[c as usize][t])
            {
                return Err(format!(
                    "server {s}: k̂_{t} = {} > k_{t} = {}",
                    placed[s * j + t],
                    st.configs[c as usize][t]
                ));
            }
        }
        // Past the servers that take jobs: draining servers hold jobs, the others have left
        // and hold no configuration (RES-98).
        if (st.active..l).filter(|&s| st.jobs_on[s] > 0).count() != st.draining {
            return Err(format!("{} servers counted draining, not the ones holding jobs", st.draining));
        }
        if let Some(s) = (st.active..l).find(|&s| st.jobs_on[s] == 0 && st.config_of[s] != NO_CONFIG) {
            return Err(format!("server {s} has left but keeps a configuration"));
        }
        let reward: u64 = (0..j).map(|t| in_system[t] * st.unit_rewards[t]).sum();
        if reward != st.reward_units {
            return Err("the reward differs from Σ_j u_j Y_j".into());
        }
        Ok(())
    }
}

impl EventDriven for PgasSim {
    fn next_time(&self) -> Option<f64> {
        let t = self.next_event();
        (t < f64::INFINITY).then_some(t)
    }

    /// Processes the next event: a departure (departures first on ties, RES-2; a stale one of
    /// a preempted job is dropped) or an arrival.
    fn step(&mut self) -> Result<(), EngineError> {
        if self.departures.peek_time().is_some_and(|d| d <= self.next_arrival) {
            let Some((t, (record, generation))) = self.departures.pop() else { return Ok(()) };
            let job = self.state.jobs[record as usize];
            if !job.alive || job.generation != generation {
                return Ok(());
            }
            self.now = t;
            self.depart(record)?;
        } else {
            self.now = self.next_arrival;
            self.arrive()?;
        }
        self.record();
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
    /// rescaled to the new total rate (RES-93); the same rates change nothing. Then the
    /// servers that take jobs (RES-98); the same count changes nothing.
    fn shift(&mut self) -> Result<(), EngineError> {
        let at = self.shifts.next_time();
        let Some(PgasShift { rates: new, servers }) = self.shifts.take().cloned() else { return Ok(()) };
        if let Arrivals::Poisson { rates, .. } = &mut self.config.arrivals
            && new != *rates
            && new.len() == rates.len()
        {
            let (cdf, total) = sample::type_cdf(&new);
            *rates = new;
            self.next_arrival = changes::rescale(self.next_arrival, at, self.total_rate, total);
            self.type_cdf = cdf;
            self.total_rate = total;
        }
        // A count past the built one was refused when the run took it (`check_shifts`).
        let servers = servers.clamp(1, self.state.servers_built());
        if servers != self.state.servers() {
            self.now = self.now.max(at);
            self.set_servers(servers)?;
        }
        Ok(())
    }

    fn follow_changes(&mut self, moments: Vec<u64>, _open: u64) {
        self.stats.stretching_amended(moments);
    }

    /// A playing run is built for the most servers its changes reached when it started
    /// (RES-98): a new list may not go past them.
    fn check_shifts(&self) -> Result<(), crate::ConfigError> {
        let built = self.state.servers_built();
        for (at, shift) in self.shifts.moments().into_iter().zip(self.shifts.values()) {
            if shift.servers > built {
                return Err(crate::ConfigError::new(
                    changes::KEY,
                    format!(
                        "entry '{at}:servers={}': a playing run takes no change to more than the {built} servers it \
                         was built for; open a link with the change instead",
                        shift.servers
                    ),
                ));
            }
        }
        Ok(())
    }
}
