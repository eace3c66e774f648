//! The loss model with slots of PG-AS (SPEC 4.1): L identical servers, J job types with demand
//! vectors and reward rates, arrivals that are admitted into a slot or lost, continuous time.
//!
//! Each server ℓ has a **configuration** k^ℓ (its deployed slots, counts per type) or none,
//! and a placement k̂^ℓ (its filled slots). A job of type j occupies a free type-j slot of a
//! configured server, or, on a server without configuration (power-of-d), any room left in
//! its capacity. There is no waiting room: a policy answers every arrival with
//! [`Decision::Admit`] or [`Decision::Reject`], and may migrate a running job between servers,
//! preempt one (it is lost), or give an **empty** server another configuration.
//!
//! Policies hand back [`Decision`]s through [`ReservationContext::apply`]; the engine checks
//! each one against the model and refuses it, changing nothing, if it breaks a rule: the slot
//! must be free (k̂_j < k_j), a configuration must fit the server and may change only while
//! the server holds no job, a migrated or preempted job must be there. So k̂ ≤ k and "a
//! configuration changes only on an empty server" hold by construction (SPEC 4.3's invariants;
//! [`ReservationSim::check_invariants`] re-derives them for the tests).
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

mod live;
mod stats;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::EngineError;
use crate::engine::des::EventQueue;
use crate::model::Resources;
use crate::rng::{StreamRng, Streams};
use crate::theory::pgas::Packing;
use crate::workload::{Trace, sample};

pub use stats::{BATCHES, ReservationStats};

/// A configuration as the engine knows it: an index into its table of interned count vectors.
pub type ConfigId = u32;

/// Where jobs come from.
#[derive(Debug, Clone)]
pub enum Arrivals {
    /// Poisson arrivals of rate `rates[j]` per time unit for type j (λ_j·L, scaled by α), with
    /// exponential service of mean `mean_service[j]`.
    Poisson { rates: Vec<f64>, mean_service: Vec<f64> },
    /// A task trace, replayed with its submit times divided by `time_scale` (the workload scale α).
    Trace { trace: Arc<Trace>, time_scale: f64 },
}

/// The system in resolved numbers.
#[derive(Debug, Clone)]
pub struct ReservationConfig {
    /// L, identical servers.
    pub servers: usize,
    /// The capacity of one server.
    pub capacity: Resources,
    /// R_j, the demand vector of each type.
    pub demands: Vec<Resources>,
    /// u_j = `reward_units[j]` / `reward_denominator` per unit of time in service.
    pub reward_units: Vec<u64>,
    pub reward_denominator: u64,
    /// Priority class of each type (trace types: 0, 1, 2); `None` when types have none.
    pub priorities: Option<Vec<u8>>,
    /// The configurations GPA chooses from (DRA, upper bound).
    pub packing: Packing,
    pub arrivals: Arrivals,
    pub warmup: f64,
    pub horizon: f64,
    pub sample_every: f64,
    pub max_points: usize,
    pub type_names: Vec<String>,
    pub resource_names: Vec<&'static str>,
}

impl ReservationConfig {
    pub fn types(&self) -> usize {
        self.demands.len()
    }

    /// u_j as a real number.
    pub fn reward(&self, j: usize) -> f64 {
        self.reward_units[j] as f64 / self.reward_denominator as f64
    }
}

/// What a policy may ask for. The arriving job is the one [`ReservationPolicy::on_arrival`] is
/// answering; "the youngest" is the running job of that type on that server that arrived last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Admit the arriving job into a free slot of its type on `server` (on a server without
    /// configuration: into its free capacity).
    Admit { server: u32 },
    /// Admit the arriving job without a server: the infinite-server system of the upper
    /// bound (SPEC 4.4), for a policy whose [`ReservationPolicy::unlimited`] is true.
    AdmitUnplaced,
    /// The arriving job is lost.
    Reject,
    /// Move the youngest type-`job_type` job of `from` into a free slot of `to`; it keeps its
    /// remaining service time.
    Migrate { job_type: u16, from: u32, to: u32 },
    /// Remove the youngest type-`job_type` job of `server`; it is lost (DRA+Preemption).
    Preempt { server: u32, job_type: u16 },
    /// Give the empty `server` the configuration `configuration` (see
    /// [`ReservationContext::configuration`]).
    Reconfigure { server: u32, configuration: ConfigId },
}

/// A running job: where it is, its type, when it arrived (its id) and the version of its slab
/// entry (a preempted job's departure event is then stale).
#[derive(Debug, Clone, Copy)]
struct JobRecord {
    /// `NO_SERVER` for a job admitted without a server.
    server: u32,
    job_type: u16,
    id: u64,
    /// Position in its (server, type) list.
    pos: u32,
    generation: u32,
    alive: bool,
}

const NO_SERVER: u32 = u32::MAX;
const NO_CONFIG: ConfigId = u32::MAX;

/// The state policies read.
#[derive(Debug, Clone)]
pub struct ReservationState {
    types: usize,
    capacity: Resources,
    demands: Vec<Resources>,
    /// Each server's configuration (`NO_CONFIG`: none).
    config_of: Vec<ConfigId>,
    /// Interned configurations: slot counts per type, and their demand.
    configs: Vec<Vec<u32>>,
    config_ids: BTreeMap<Vec<u32>, ConfigId>,
    /// k̂: jobs per `server * J + type`, and their job records.
    placed: Vec<u32>,
    lists: Vec<Vec<u32>>,
    jobs_on: Vec<u32>,
    used: Vec<Resources>,
    /// Y_j: type-j jobs in the system.
    in_system: Vec<u64>,
    /// Σ_j u_j Y_j in reward units.
    reward_units: u64,
    unit_rewards: Vec<u64>,
    /// Deployed slots of all configured servers, and the jobs in them.
    deployed: u64,
    filled: u64,
    jobs: Vec<JobRecord>,
    free_records: Vec<u32>,
}

impl ReservationState {
    pub fn servers(&self) -> usize {
        self.config_of.len()
    }

    pub fn types(&self) -> usize {
        self.types
    }

    pub fn capacity(&self) -> &Resources {
        &self.capacity
    }

    pub fn demand(&self, job_type: usize) -> &Resources {
        &self.demands[job_type]
    }

    /// The configuration of `server`, if it has one.
    pub fn configuration(&self, server: usize) -> Option<ConfigId> {
        let c = self.config_of[server];
        (c != NO_CONFIG).then_some(c)
    }

    /// Slots per type of configuration `id`.
    pub fn slots(&self, id: ConfigId) -> &[u32] {
        &self.configs[id as usize]
    }

    /// Configurations interned so far (ids `0..configurations()`).
    pub fn configurations(&self) -> usize {
        self.configs.len()
    }

    /// k̂_j^ℓ: type-j jobs on `server`.
    pub fn placed(&self, server: usize, job_type: usize) -> u32 {
        self.placed[server * self.types + job_type]
    }

    /// Free (deployed, unfilled) type-j slots of `server`; 0 without configuration.
    pub fn free_slots(&self, server: usize, job_type: usize) -> u32 {
        match self.configuration(server) {
            Some(c) => self.configs[c as usize][job_type] - self.placed(server, job_type),
            None => 0,
        }
    }

    /// Jobs on `server`.
    pub fn jobs_on(&self, server: usize) -> u32 {
        self.jobs_on[server]
    }

    /// Resources held on `server`.
    pub fn used(&self, server: usize) -> &Resources {
        &self.used[server]
    }

    /// Whether a type-j job fits the free capacity of `server` (ignoring slots).
    pub fn fits(&self, job_type: usize, server: usize) -> bool {
        self.demands[job_type].fits_with(&self.used[server], &self.capacity)
    }

    /// Σ_d used_d / C_d: the load power-of-d compares.
    pub fn load(&self, server: usize) -> f64 {
        self.used[server].as_slice().iter().zip(self.capacity.as_slice()).map(|(&u, &c)| u as f64 / c as f64).sum()
    }

    /// Y_j, type-j jobs in the system.
    pub fn in_system(&self, job_type: usize) -> u64 {
        self.in_system[job_type]
    }

    /// Σ_j u_j Y_j in reward units (divide by the denominator for the reward rate).
    pub fn reward_units(&self) -> u64 {
        self.reward_units
    }

    /// Deployed slots that hold no job, over all servers.
    pub fn reserved_empty_slots(&self) -> u64 {
        self.deployed - self.filled
    }

    fn slot_index(&self, server: usize, job_type: usize) -> usize {
        server * self.types + job_type
    }

    /// The youngest (latest arrived) type-j job on `server`, as a record index.
    fn youngest(&self, server: usize, job_type: usize) -> Option<u32> {
        self.lists[self.slot_index(server, job_type)].iter().copied().max_by_key(|&r| self.jobs[r as usize].id)
    }

    fn add_to_server(&mut self, record: u32, server: usize) {
        let j = self.jobs[record as usize].job_type as usize;
        let i = self.slot_index(server, j);
        self.jobs[record as usize].server = server as u32;
        self.jobs[record as usize].pos = self.lists[i].len() as u32;
        self.lists[i].push(record);
        self.placed[i] += 1;
        self.jobs_on[server] += 1;
        self.used[server] = self.used[server].plus(&self.demands[j]);
        if self.config_of[server] != NO_CONFIG {
            self.filled += 1;
            debug_assert!(self.placed[i] <= self.configs[self.config_of[server] as usize][j], "k̂ ≤ k");
        }
    }

    fn remove_from_server(&mut self, record: u32) {
        let job = self.jobs[record as usize];
        let (server, j) = (job.server as usize, job.job_type as usize);
        let i = self.slot_index(server, j);
        let list = &mut self.lists[i];
        list.swap_remove(job.pos as usize);
        if let Some(&moved) = list.get(job.pos as usize) {
            self.jobs[moved as usize].pos = job.pos;
        }
        self.placed[i] -= 1;
        self.jobs_on[server] -= 1;
        self.used[server] = self.used[server].minus(&self.demands[j]);
        if self.config_of[server] != NO_CONFIG {
            self.filled -= 1;
        }
    }

    /// Y_j and the reward after a job of type j entered (+1) or left (−1) the system.
    fn count(&mut self, job_type: usize, entered: bool) {
        if entered {
            self.in_system[job_type] += 1;
            self.reward_units += self.unit_rewards[job_type];
        } else {
            self.in_system[job_type] -= 1;
            self.reward_units -= self.unit_rewards[job_type];
        }
    }
}

/// What the page shows of the last decision.
#[derive(Debug, Clone, PartialEq)]
pub struct LastAction {
    pub time: f64,
    pub server: Option<u32>,
    pub job_type: u16,
    pub what: ActionKind,
}

/// The kind of the last decision worth showing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    Admitted,
    Rejected,
    Migrated { from: u32 },
    Preempted,
}

/// The job a policy is answering.
#[derive(Debug, Clone, Copy)]
struct Pending {
    id: u64,
    job_type: usize,
    service: f64,
}

/// What a policy sees and may do while it handles an event.
pub struct ReservationContext<'a> {
    now: f64,
    state: &'a mut ReservationState,
    departures: &'a mut EventQueue<(u32, u32)>,
    stats: &'a mut ReservationStats,
    last: &'a mut Option<LastAction>,
    policy_rng: &'a mut StreamRng,
    pending: Option<Pending>,
    unlimited: bool,
    /// The reward rate the policy reports instead of Σ_j u_j Y_j (upper bound).
    reported: &'a mut Option<f64>,
    /// The reject group's size, as the policy last reported it.
    reject_group: &'a mut usize,
}

impl ReservationContext<'_> {
    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &ReservationState {
        self.state
    }

    /// The policy's own random numbers.
    pub fn rng(&mut self) -> &mut StreamRng {
        self.policy_rng
    }

    /// The id of `counts` as a configuration, interned on first use. Refused if it has the
    /// wrong length or does not fit one server.
    pub fn configuration(&mut self, counts: &[u32]) -> Result<ConfigId, EngineError> {
        let st = &mut *self.state;
        if let Some(&id) = st.config_ids.get(counts) {
            return Ok(id);
        }
        let mut total = Resources::zero(st.capacity.dims());
        let fits = counts.len() == st.types
            && counts.iter().zip(&st.demands).all(|(&k, d)| {
                (0..k).all(|_| {
                    let ok = d.fits_with(&total, &st.capacity);
                    if ok {
                        total = total.plus(d);
                    }
                    ok
                })
            });
        if !fits {
            return Err(EngineError::InfeasibleConfiguration { counts: format!("{counts:?}") });
        }
        let id = st.configs.len() as ConfigId;
        st.configs.push(counts.to_vec());
        st.config_ids.insert(counts.to_vec(), id);
        Ok(id)
    }

    /// Applies one decision, or refuses it (changing nothing) if the model forbids it.
    pub fn apply(&mut self, decision: Decision) -> Result<(), EngineError> {
        let now = self.now;
        let st = &mut *self.state;
        let servers = st.servers();
        let check_server =
            |s: u32| if (s as usize) < servers { Ok(s as usize) } else { Err(EngineError::NoSuchServer { server: s }) };
        match decision {
            Decision::Admit { server } => {
                let pending = self.pending.ok_or(EngineError::NoArrival)?;
                let l = check_server(server)?;
                let j = pending.job_type;
                if !room_for(st, l, j) {
                    return Err(EngineError::NoSlot { server, job_type: j as u16 });
                }
                let record = self.new_record(pending, server);
                self.state.add_to_server(record, l);
                self.admitted(pending, Some(server), record);
            }
            Decision::AdmitUnplaced => {
                let pending = self.pending.ok_or(EngineError::NoArrival)?;
                if !self.unlimited {
                    return Err(EngineError::NoSlot { server: NO_SERVER, job_type: pending.job_type as u16 });
                }
                let record = self.new_record(pending, NO_SERVER);
                self.admitted(pending, None, record);
            }
            Decision::Reject => {
                let pending = self.pending.take().ok_or(EngineError::NoArrival)?;
                self.stats.rejected(now, pending.job_type);
                *self.last = Some(LastAction {
                    time: now,
                    server: None,
                    job_type: pending.job_type as u16,
                    what: ActionKind::Rejected,
                });
            }
            Decision::Migrate { job_type, from, to } => {
                let (a, b) = (check_server(from)?, check_server(to)?);
                let j = job_type as usize;
                if j >= st.types {
                    return Err(EngineError::NoJobOfType { server: from, job_type });
                }
                if a == b {
                    return Err(EngineError::NoSlot { server: to, job_type });
                }
                let record = st.youngest(a, j).ok_or(EngineError::NoJobOfType { server: from, job_type })?;
                if !room_for(st, b, j) {
                    return Err(EngineError::NoSlot { server: to, job_type });
                }
                st.remove_from_server(record);
                st.add_to_server(record, b);
                self.stats.migrated(now, st);
                *self.last =
                    Some(LastAction { time: now, server: Some(to), job_type, what: ActionKind::Migrated { from } });
            }
            Decision::Preempt { server, job_type } => {
                let l = check_server(server)?;
                let j = job_type as usize;
                let record = (j < st.types)
                    .then(|| st.youngest(l, j))
                    .flatten()
                    .ok_or(EngineError::NoJobOfType { server, job_type })?;
                st.remove_from_server(record);
                let job = &mut st.jobs[record as usize];
                job.alive = false;
                job.generation = job.generation.wrapping_add(1);
                st.free_records.push(record);
                st.count(j, false);
                self.stats.preempted(now, j, st);
                *self.last =
                    Some(LastAction { time: now, server: Some(server), job_type, what: ActionKind::Preempted });
            }
            Decision::Reconfigure { server, configuration } => {
                let l = check_server(server)?;
                if configuration as usize >= st.configs.len() {
                    return Err(EngineError::InfeasibleConfiguration { counts: format!("id {configuration}") });
                }
                if st.jobs_on[l] > 0 {
                    return Err(EngineError::ServerBusy { server, jobs: st.jobs_on[l] });
                }
                let old = st.config_of[l];
                if old != configuration {
                    if old != NO_CONFIG {
                        st.deployed -= u64::from(st.configs[old as usize].iter().sum::<u32>());
                    }
                    st.deployed += u64::from(st.configs[configuration as usize].iter().sum::<u32>());
                    st.config_of[l] = configuration;
                    // Deploying a first configuration is no change of one.
                    if old != NO_CONFIG {
                        self.stats.reconfigured(now, st);
                    }
                }
            }
        }
        Ok(())
    }

    /// Reports the reward rate to record instead of Σ_j u_j Y_j (the upper bound's UB(t)).
    pub fn report_reward(&mut self, reward: f64) {
        *self.reported = Some(reward);
    }

    /// Reports the size of the reject group (DRA), for the metrics and the page.
    pub fn report_reject_group(&mut self, size: usize) {
        *self.reject_group = size;
    }

    fn new_record(&mut self, pending: Pending, server: u32) -> u32 {
        let st = &mut *self.state;
        let record =
            JobRecord { server, job_type: pending.job_type as u16, id: pending.id, pos: 0, generation: 0, alive: true };
        match st.free_records.pop() {
            Some(r) => {
                let generation = st.jobs[r as usize].generation;
                st.jobs[r as usize] = JobRecord { generation, ..record };
                r
            }
            None => {
                st.jobs.push(record);
                (st.jobs.len() - 1) as u32
            }
        }
    }

    fn admitted(&mut self, pending: Pending, server: Option<u32>, record: u32) {
        self.pending = None;
        let j = pending.job_type;
        self.state.count(j, true);
        let generation = self.state.jobs[record as usize].generation;
        self.departures.push(self.now + pending.service, (record, generation));
        self.stats.admitted(self.now, j, self.state, server.is_some());
        *self.last = Some(LastAction { time: self.now, server, job_type: j as u16, what: ActionKind::Admitted });
    }
}

/// Whether a type-j job may enter `server`: a free type-j slot, or free capacity on a server
/// without configuration.
fn room_for(st: &ReservationState, server: usize, j: usize) -> bool {
    match st.configuration(server) {
        Some(c) => st.placed(server, j) < st.configs[c as usize][j],
        None => st.fits(j, server),
    }
}

/// A policy of the PG-AS loss model.
pub trait ReservationPolicy {
    /// A job of `job_type` arrived: answer with [`Decision::Admit`], [`Decision::AdmitUnplaced`]
    /// or [`Decision::Reject`] (exactly one), possibly after other decisions.
    fn on_arrival(&mut self, job_type: usize, ctx: &mut ReservationContext<'_>) -> Result<(), EngineError>;

    /// Time 0, before any arrival (DRA deploys its initial configurations here).
    fn begin(&mut self, _ctx: &mut ReservationContext<'_>) -> Result<(), EngineError> {
        Ok(())
    }

    /// A job of `job_type` left `server` (`None`: it had no server) at the end of its service;
    /// the engine has removed it already.
    fn on_departure(
        &mut self,
        _job_type: usize,
        _server: Option<u32>,
        _ctx: &mut ReservationContext<'_>,
    ) -> Result<(), EngineError> {
        Ok(())
    }

    /// Whether the policy admits everything without servers (the upper bound's infinite-server
    /// system); its reward is then what it reports with [`ReservationContext::report_reward`].
    fn unlimited(&self) -> bool {
        false
    }

    /// How the policy classifies `server` right now (DRA: rank, index, group), for the page.
    fn classify(&self, _server: usize) -> Option<ServerClass> {
        None
    }
}

/// A server as DRA sees it (SPEC 4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerClass {
    /// 1..=J: the position of its configuration in GPA's list; J + 1: unranked.
    pub rank: u32,
    /// Its index among the servers of its configuration (1 = most recently assigned).
    pub index: u32,
    /// Whether it is in the reject group.
    pub reject_group: bool,
}

/// A PG-AS loss-model simulation.
pub struct ReservationSim {
    config: ReservationConfig,
    policy: Box<dyn ReservationPolicy>,
    state: ReservationState,
    departures: EventQueue<(u32, u32)>,
    streams: Streams,
    stats: ReservationStats,
    now: f64,
    next_id: u64,
    /// The next arrival time (infinite when none is left) and, for a trace, its task.
    next_arrival: f64,
    cursor: usize,
    type_cdf: Vec<f64>,
    total_rate: f64,
    last: Option<LastAction>,
    reported: Option<f64>,
    reject_group: usize,
    unlimited: bool,
}

impl ReservationSim {
    pub fn new(config: ReservationConfig, policy: Box<dyn ReservationPolicy>, seed: u64) -> Result<Self, EngineError> {
        let (l, j) = (config.servers, config.types());
        let state = ReservationState {
            types: j,
            capacity: config.capacity,
            demands: config.demands.clone(),
            config_of: vec![NO_CONFIG; l],
            configs: Vec::new(),
            config_ids: BTreeMap::new(),
            placed: vec![0; l * j],
            lists: vec![Vec::new(); l * j],
            jobs_on: vec![0; l],
            used: vec![Resources::zero(config.capacity.dims()); l],
            in_system: vec![0; j],
            reward_units: 0,
            unit_rewards: config.reward_units.clone(),
            deployed: 0,
            filled: 0,
            jobs: Vec::new(),
            free_records: Vec::new(),
        };
        let (type_cdf, total_rate) = match &config.arrivals {
            Arrivals::Poisson { rates, .. } => {
                let total: f64 = rates.iter().sum();
                let mut acc = 0.0;
                (
                    rates
                        .iter()
                        .map(|r| {
                            acc += r / total;
                            acc
                        })
                        .collect(),
                    total,
                )
            }
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
        let stats = ReservationStats::new(&config);
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
            reject_group: 0,
            unlimited,
        };
        let (mut ctx, policy) = sim.context(None);
        policy.begin(&mut ctx)?;
        sim.record();
        Ok(sim)
    }

    pub fn config(&self) -> &ReservationConfig {
        &self.config
    }

    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &ReservationState {
        &self.state
    }

    pub fn stats(&self) -> &ReservationStats {
        &self.stats
    }

    pub fn last_action(&self) -> Option<&LastAction> {
        self.last.as_ref()
    }

    /// The policy's classification of `server` (DRA), for views and tests.
    pub fn classify(&self, server: usize) -> Option<ServerClass> {
        self.policy.classify(server)
    }

    /// The reject group's size as the policy last reported it.
    pub fn reject_group(&self) -> usize {
        self.reject_group
    }

    fn context(&mut self, pending: Option<Pending>) -> (ReservationContext<'_>, &mut Box<dyn ReservationPolicy>) {
        (
            ReservationContext {
                now: self.now,
                state: &mut self.state,
                departures: &mut self.departures,
                stats: &mut self.stats,
                last: &mut self.last,
                policy_rng: &mut self.streams.policy,
                pending,
                unlimited: self.unlimited,
                reported: &mut self.reported,
                reject_group: &mut self.reject_group,
            },
            &mut self.policy,
        )
    }

    /// The time of the next event (infinite when none is left).
    fn next_time(&self) -> f64 {
        self.departures.peek_time().map_or(self.next_arrival, |d| d.min(self.next_arrival))
    }

    /// Processes the next event: a departure (departures first on ties, RES-2; a stale one of
    /// a preempted job is dropped) or an arrival.
    fn step(&mut self) -> Result<(), EngineError> {
        if self.departures.peek_time().is_some_and(|d| d <= self.next_arrival) {
            let (t, (record, generation)) = self.departures.pop().expect("peeked");
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

    /// Processes every event up to time `until` (inclusive) and brings the time averages up to
    /// `until`.
    pub fn run_until(&mut self, until: f64) -> Result<(), EngineError> {
        loop {
            let t = self.next_time();
            if t == f64::INFINITY || t > until {
                break;
            }
            self.step()?;
        }
        if until > self.now {
            self.now = until;
        }
        self.stats.flush(self.now);
        Ok(())
    }

    /// Runs `events` more arrivals and departures (the benchmark's unit), or fewer if none are
    /// left, and returns how many ran. Time averages are brought up to the last event.
    pub fn run_events(&mut self, events: u64) -> Result<u64, EngineError> {
        let start = self.stats.arrivals + self.stats.departures;
        while self.stats.arrivals + self.stats.departures - start < events && self.next_time() < f64::INFINITY {
            self.step()?;
        }
        self.stats.flush(self.now);
        Ok(self.stats.arrivals + self.stats.departures - start)
    }

    /// Records the reward and the other levels after an event.
    fn record(&mut self) {
        let reward = if self.unlimited {
            self.reported.unwrap_or(0.0)
        } else {
            self.state.reward_units as f64 / self.config.reward_denominator as f64
        };
        self.stats.levels(self.now, reward, self.reject_group, &self.state);
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
        let (mut ctx, policy) = self.context(Some(pending));
        policy.on_arrival(job_type, &mut ctx)?;
        if ctx.pending.is_some() {
            return Err(EngineError::Unanswered { job: pending.id });
        }
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
        let (mut ctx, policy) = self.context(None);
        policy.on_departure(j, server, &mut ctx)
    }

    /// Re-derives SPEC 4.3's invariants from the job records (O(L·J + jobs), for tests):
    /// k̂ ≤ k on every configured server, jobs within capacity on the others, k̂ and Y equal
    /// the jobs actually recorded, and the reward equals Σ_j u_j Y_j.
    pub fn check_invariants(&self) -> Result<(), String> {
        let st = &self.state;
        let (l, j) = (st.servers(), st.types);
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
        let reward: u64 = (0..j).map(|t| in_system[t] * st.unit_rewards[t]).sum();
        if reward != st.reward_units {
            return Err("the reward differs from Σ_j u_j Y_j".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
