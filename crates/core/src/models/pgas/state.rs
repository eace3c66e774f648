//! The state of a PG-AS loss system as policies read it: each server's configuration and the
//! jobs in its slots, the jobs in the system and the reward they earn.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::theory::Packing;
use super::trace::Trace;
use crate::resources::Resources;

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
pub struct PgasConfig {
    /// L, identical servers (at the start: a change of the count moves it, RES-98).
    pub servers: usize,
    /// The servers the engine and the policy are built for: the most servers the run's
    /// changes reach (`servers` without changes), so memory stays bounded by the key's range.
    pub built: usize,
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
    /// Whether the engine keeps DRA's ranking of the servers for the page ([`Watch`]).
    ///
    /// [`Watch`]: crate::view::Watch
    pub details: bool,
    pub type_names: Vec<String>,
    pub resource_names: Vec<&'static str>,
}

impl PgasConfig {
    pub fn types(&self) -> usize {
        self.demands.len()
    }

    /// u_j as a real number.
    pub fn reward(&self, j: usize) -> f64 {
        self.reward_units[j] as f64 / self.reward_denominator as f64
    }
}

/// A running job: where it is, its type, when it arrived (its id) and the version of its slab
/// entry (a preempted job's departure event is then stale).
#[derive(Debug, Clone, Copy)]
pub(crate) struct JobRecord {
    /// `NO_SERVER` for a job admitted without a server.
    pub(crate) server: u32,
    pub(crate) job_type: u16,
    pub(crate) id: u64,
    /// Position in its (server, type) list.
    pub(crate) pos: u32,
    pub(crate) generation: u32,
    pub(crate) alive: bool,
}

pub(crate) const NO_SERVER: u32 = u32::MAX;
pub(crate) const NO_CONFIG: ConfigId = u32::MAX;

/// The state policies read.
#[derive(Debug, Clone)]
pub struct PgasState {
    pub(crate) types: usize,
    pub(crate) capacity: Resources,
    pub(crate) demands: Vec<Resources>,
    /// Each server's configuration (`NO_CONFIG`: none).
    pub(crate) config_of: Vec<ConfigId>,
    /// Interned configurations: slot counts per type, and their demand.
    pub(crate) configs: Vec<Vec<u32>>,
    pub(crate) config_ids: BTreeMap<Vec<u32>, ConfigId>,
    /// k̂: jobs per `server * J + type`, and their job records.
    pub(crate) placed: Vec<u32>,
    pub(crate) lists: Vec<Vec<u32>>,
    pub(crate) jobs_on: Vec<u32>,
    pub(crate) used: Vec<Resources>,
    /// Y_j: type-j jobs in the system.
    pub(crate) in_system: Vec<u64>,
    /// Σ_j u_j Y_j in reward units.
    pub(crate) reward_units: u64,
    pub(crate) unit_rewards: Vec<u64>,
    /// Deployed slots of all configured servers, and the jobs in them.
    pub(crate) deployed: u64,
    pub(crate) filled: u64,
    pub(crate) jobs: Vec<JobRecord>,
    pub(crate) free_records: Vec<u32>,
    /// Per configuration, its servers in the order they were given it, oldest first, with the
    /// stamp of that moment; and each server's stamp. (A server's index in its configuration,
    /// which DRA's ranks and groups are defined by, is its distance from the newest.)
    pub(crate) members: Vec<Vec<(u64, u32)>>,
    pub(crate) joined: Vec<u64>,
    pub(crate) next_stamp: u64,
    /// Servers `0..active` take jobs; the others drain while they hold jobs, then leave
    /// (RES-98).
    pub(crate) active: usize,
    /// Servers at or past `active` that still hold jobs.
    pub(crate) draining: usize,
}

impl PgasState {
    /// The empty system of `config`: no server configured, no job.
    pub(crate) fn new(config: &PgasConfig) -> Self {
        let (l, j) = (config.built.max(config.servers), config.types());
        Self {
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
            members: Vec::new(),
            joined: vec![0; l],
            next_stamp: 0,
            active: config.servers,
            draining: 0,
        }
    }

    /// Servers `0..servers` take jobs from now on (RES-98): those past it that hold jobs
    /// drain, the empty ones leave (no configuration); those brought back take jobs again, a
    /// draining one beside the jobs it holds. O(servers moved), at a change only.
    pub(crate) fn set_active(&mut self, servers: usize) {
        let old = self.active;
        for s in servers..old {
            if self.jobs_on[s] > 0 {
                // It keeps its configuration while it drains, but counts in none (DRA's X_k).
                self.draining += 1;
                self.unlist(s);
            } else {
                self.vacate(s);
            }
        }
        for s in old..servers.min(self.servers_built()) {
            if self.jobs_on[s] > 0 {
                // Back before it emptied: its configuration's newest server again.
                self.draining -= 1;
                if self.config_of[s] != NO_CONFIG {
                    self.join(s, self.config_of[s]);
                }
            }
        }
        self.active = servers;
    }

    /// Takes `server` out of its configuration's list of members (none if it is not in it).
    fn unlist(&mut self, server: usize) {
        let c = self.config_of[server];
        if let Some(list) = self.members.get_mut(c as usize)
            && let Ok(at) = list.binary_search(&(self.joined[server], server as u32))
        {
            list.remove(at);
        }
    }

    /// The empty `server`, taking no job, leaves: it has no configuration any more.
    fn vacate(&mut self, server: usize) {
        let c = self.config_of[server];
        if c == NO_CONFIG {
            return;
        }
        self.unlist(server);
        self.deployed -= u64::from(self.configs[c as usize].iter().sum::<u32>());
        self.config_of[server] = NO_CONFIG;
    }

    /// The empty `server` now runs `configuration`, as its newest member.
    pub(crate) fn join(&mut self, server: usize, configuration: ConfigId) {
        let old = self.config_of[server];
        if old != NO_CONFIG {
            let list = &mut self.members[old as usize];
            if let Ok(at) = list.binary_search(&(self.joined[server], server as u32)) {
                list.remove(at);
            }
        }
        if self.members.len() <= configuration as usize {
            self.members.resize(configuration as usize + 1, Vec::new());
        }
        self.joined[server] = self.next_stamp;
        self.members[configuration as usize].push((self.next_stamp, server as u32));
        self.next_stamp += 1;
        self.config_of[server] = configuration;
    }

    /// Where `server` stands in its configuration: its position from the oldest member, and
    /// how many servers run the configuration.
    pub fn position(&self, server: usize) -> Option<(usize, usize)> {
        let list = self.members.get(self.configuration(server)? as usize)?;
        let at = list.binary_search(&(self.joined[server], server as u32)).ok()?;
        Some((at, list.len()))
    }

    /// The servers that take jobs: GPA's N, power-of-d's population, the bound's L (RES-98).
    pub fn servers(&self) -> usize {
        self.active
    }

    /// The servers the run was built for (the most its changes reach): servers at or past
    /// [`Self::servers`] take no job, and hold jobs only while they drain.
    pub fn servers_built(&self) -> usize {
        self.config_of.len()
    }

    /// Whether `server` takes new jobs.
    pub fn takes_jobs(&self, server: usize) -> bool {
        server < self.active
    }

    /// Whether `server` takes no new job but still holds jobs (it leaves once they are done).
    pub fn is_draining(&self, server: usize) -> bool {
        server >= self.active && self.jobs_on[server] > 0
    }

    /// The servers present: those that take jobs and those still draining.
    pub fn present(&self) -> usize {
        self.active + self.draining
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

    pub(crate) fn slot_index(&self, server: usize, job_type: usize) -> usize {
        server * self.types + job_type
    }

    /// The youngest (latest arrived) type-j job on `server`, as a record index.
    pub(crate) fn youngest(&self, server: usize, job_type: usize) -> Option<u32> {
        self.lists[self.slot_index(server, job_type)].iter().copied().max_by_key(|&r| self.jobs[r as usize].id)
    }

    pub(crate) fn add_to_server(&mut self, record: u32, server: usize) {
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

    pub(crate) fn remove_from_server(&mut self, record: u32) {
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
        if self.jobs_on[server] == 0 && server >= self.active {
            // A draining server's last job: it leaves (RES-98).
            self.draining -= 1;
            self.vacate(server);
        }
    }

    /// Y_j and the reward after a job of type j entered (+1) or left (−1) the system.
    pub(crate) fn count(&mut self, job_type: usize, entered: bool) {
        if entered {
            self.in_system[job_type] += 1;
            self.reward_units += self.unit_rewards[job_type];
        } else {
            self.in_system[job_type] -= 1;
            self.reward_units -= self.unit_rewards[job_type];
        }
    }
}

/// Whether a type-j job may enter `server`: a free type-j slot, or free capacity on a server
/// without configuration.
pub(crate) fn room_for(st: &PgasState, server: usize, j: usize) -> bool {
    match st.configuration(server) {
        Some(c) => st.placed(server, j) < st.configs[c as usize][j],
        None => st.fits(j, server),
    }
}
