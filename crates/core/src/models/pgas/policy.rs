//! What a PG-AS policy is: the trait, the decisions it hands the engine, what it reports
//! about itself, and the context it reads the system through.
//!
//! A policy answers every arrival with [`PgasDecision::Admit`] or [`PgasDecision::Reject`], and
//! may migrate a running job, preempt one, or give an **empty** server another configuration.
//! The engine checks each decision against the model and refuses it, changing nothing, if it
//! breaks a rule: the slot must be free (k̂_j < k_j), a configuration must fit the server and
//! may change only while the server holds no job, a migrated or preempted job must be there.

use super::state::{ConfigId, JobRecord, NO_CONFIG, NO_SERVER, PgasState, room_for};
use super::stats::PgasStats;
use crate::EngineError;
use crate::decisions::{Decision, DecisionLog, short};
use crate::des::EventQueue;
use crate::resources::Resources;
use crate::rng::StreamRng;

/// A built policy, as a policy file's `build` returns it.
pub fn boxed(policy: impl PgasPolicy + 'static) -> Result<Box<dyn PgasPolicy>, crate::ConfigError> {
    Ok(Box::new(policy))
}

/// What a policy reports about itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PgasObservation<'a> {
    /// The reward rate to record instead of Σ_j u_j Y_j (the upper bound's UB(t)).
    Reward(f64),
    /// |RG|, the reject group's size after DRA's CRA (a statistic, `mean_reject_group`).
    RejectGroup(usize),
    /// DRA's ranking after CRA (SPEC 4.3): the configurations of GPA's list with their rank
    /// and how many of their servers (the oldest) are ranked, and I* − 1 (0-based). Only the
    /// page reads it: report it only when [`PgasContext::keeps_details`] says so.
    Ranking { ranked: &'a [Ranked], i_star: usize },
}

/// A configuration of GPA's list as DRA ranks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranked {
    pub configuration: ConfigId,
    /// Its 0-based position in GPA's list: the rank of its ranked servers, less one.
    pub position: u32,
    /// How many of its servers, the oldest first, are ranked: min(X̂\[i\], X).
    pub target: u32,
}

/// DRA's last reported ranking.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ranking {
    pub ranked: Vec<Ranked>,
    pub i_star: usize,
}

impl Ranking {
    /// How DRA sees a server of `configuration` at `position` (0 = its oldest server) among
    /// `members` servers, with `types` job types (SPEC 4.3, RES-25..27): its rank (1..=J, J + 1
    /// unranked), its index (1 = newest) and whether it is in the reject group (the newest
    /// server of a configuration whose newest rank exceeds I*).
    pub fn class(&self, configuration: ConfigId, position: usize, members: usize, types: usize) -> ServerClass {
        let entry = self.ranked.iter().find(|r| r.configuration == configuration);
        let rank = match entry {
            Some(e) if position < e.target as usize => e.position as usize,
            _ => types,
        };
        let newest_rank = match entry {
            Some(e) if e.target as usize >= members => e.position as usize,
            _ => types,
        };
        ServerClass {
            rank: rank as u32 + 1,
            index: (members - position) as u32,
            reject_group: position + 1 == members && newest_rank > self.i_star,
        }
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

/// What a PG-AS policy asks the engine to do. The arriving job is the one [`PgasPolicy::on_arrival`] is
/// answering; "the youngest" is the running job of that type on that server that arrived last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PgasDecision {
    /// Admit the arriving job into a free slot of its type on `server` (on a server without
    /// configuration: into its free capacity).
    Admit { server: u32 },
    /// Admit the arriving job without a server: the infinite-server system of the upper
    /// bound (SPEC 4.4), for a policy whose [`PgasPolicy::unlimited`] is true.
    AdmitUnplaced,
    /// The arriving job is lost.
    Reject,
    /// Move the youngest type-`job_type` job of `from` into a free slot of `to`; it keeps its
    /// remaining service time.
    Migrate { job_type: u16, from: u32, to: u32 },
    /// Remove the youngest type-`job_type` job of `server`; it is lost (DRA+Preemption).
    Preempt { server: u32, job_type: u16 },
    /// Give the empty `server` the configuration `configuration` (see
    /// [`PgasContext::configuration`]).
    Reconfigure { server: u32, configuration: ConfigId },
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
pub(crate) struct Pending {
    pub(crate) id: u64,
    pub(crate) job_type: usize,
    pub(crate) service: f64,
}

/// What a policy sees and may do while it handles an event.
pub struct PgasContext<'a> {
    pub(crate) now: f64,
    pub(crate) state: &'a mut PgasState,
    pub(crate) departures: &'a mut EventQueue<(u32, u32)>,
    pub(crate) stats: &'a mut PgasStats,
    pub(crate) last: &'a mut Option<LastAction>,
    pub(crate) policy_rng: &'a mut StreamRng,
    pub(crate) pending: Option<Pending>,
    pub(crate) unlimited: bool,
    /// The reward rate the policy reports instead of Σ_j u_j Y_j (upper bound).
    pub(crate) reported: &'a mut Option<f64>,
    /// DRA's ranking as it last reported it.
    pub(crate) ranking: &'a mut Option<Ranking>,
    /// |RG| as DRA last reported it.
    pub(crate) reject_group: &'a mut usize,
    pub(crate) details: bool,
    pub(crate) log: &'a mut DecisionLog,
    pub(crate) type_names: &'a [String],
    /// The rule behind this reaction's admission or rejection, as the policy names it
    /// ([`PgasContext::rule`]); the engine's wording for DRA's slots otherwise.
    pub(crate) rule: Option<&'static str>,
}

impl PgasContext<'_> {
    pub fn now(&self) -> f64 {
        self.now
    }

    pub fn state(&self) -> &PgasState {
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
    pub fn apply(&mut self, decision: PgasDecision) -> Result<(), EngineError> {
        let now = self.now;
        let st = &mut *self.state;
        let (servers, active) = (st.servers_built(), st.servers());
        let check_server =
            |s: u32| if (s as usize) < servers { Ok(s as usize) } else { Err(EngineError::NoSuchServer { server: s }) };
        // A server past the count that takes jobs (draining, or not there) gets no job and no
        // configuration (RES-98); one being drained may still give its jobs away.
        let check_taking = |s: u32, job_type: u16| {
            let l = check_server(s)?;
            if l < active { Ok(l) } else { Err(EngineError::NoSlot { server: s, job_type }) }
        };
        match decision {
            PgasDecision::Admit { server } => {
                let pending = self.pending.ok_or(EngineError::NoArrival)?;
                let j = pending.job_type;
                let l = check_taking(server, j as u16)?;
                if !room_for(st, l, j) {
                    return Err(EngineError::NoSlot { server, job_type: j as u16 });
                }
                let record = self.new_record(pending, server);
                self.state.add_to_server(record, l);
                self.admitted(pending, Some(server), record);
            }
            PgasDecision::AdmitUnplaced => {
                let pending = self.pending.ok_or(EngineError::NoArrival)?;
                if !self.unlimited {
                    return Err(EngineError::NoSlot { server: NO_SERVER, job_type: pending.job_type as u16 });
                }
                let record = self.new_record(pending, NO_SERVER);
                self.admitted(pending, None, record);
            }
            PgasDecision::Reject => {
                let pending = self.pending.take().ok_or(EngineError::NoArrival)?;
                self.stats.rejected(now, pending.job_type);
                let name = &self.type_names[pending.job_type];
                let why = self.rule.unwrap_or("no accepting server has a free slot of its type");
                self.log.record(|| {
                    Decision::new(now, "reject", format!("job {} ({name}) is rejected", pending.id), why)
                        .job(pending.id)
                        .bin(pending.job_type)
                });
                *self.last = Some(LastAction {
                    time: now,
                    server: None,
                    job_type: pending.job_type as u16,
                    what: ActionKind::Rejected,
                });
            }
            PgasDecision::Migrate { job_type, from, to } => {
                let (a, b) = (check_server(from)?, check_taking(to, job_type)?);
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
                let (id, name) = (st.jobs[record as usize].id, &self.type_names[j]);
                self.log.record(|| {
                    Decision::new(
                        now,
                        "migrate",
                        format!("job {id} ({name}): server {} → server {}", from + 1, to + 1),
                        "a departure freed a slot of its type outside the reject group",
                    )
                    .job(id)
                    .server(to)
                    .from_server(from)
                    .bin(j)
                });
                *self.last =
                    Some(LastAction { time: now, server: Some(to), job_type, what: ActionKind::Migrated { from } });
            }
            PgasDecision::Preempt { server, job_type } => {
                let l = check_server(server)?;
                let j = job_type as usize;
                let record = (j < st.types)
                    .then(|| st.youngest(l, j))
                    .flatten()
                    .ok_or(EngineError::NoJobOfType { server, job_type })?;
                st.remove_from_server(record);
                let (id, name) = (st.jobs[record as usize].id, &self.type_names[j]);
                self.log.record(|| {
                    Decision::new(
                        now,
                        "preempt",
                        format!("job {id} ({name}) on server {} is preempted", server + 1),
                        "its slot goes to a job of higher priority",
                    )
                    .job(id)
                    .server(server)
                    .bin(j)
                });
                let job = &mut st.jobs[record as usize];
                job.alive = false;
                job.generation = job.generation.wrapping_add(1);
                st.free_records.push(record);
                st.count(j, false);
                self.stats.preempted(now, j, st);
                *self.last =
                    Some(LastAction { time: now, server: Some(server), job_type, what: ActionKind::Preempted });
            }
            PgasDecision::Reconfigure { server, configuration } => {
                let l = check_server(server)?;
                if l >= active {
                    return Err(EngineError::NoSuchServer { server });
                }
                if configuration as usize >= st.configs.len() {
                    return Err(EngineError::InfeasibleConfiguration { counts: format!("id {configuration}") });
                }
                if st.jobs_on[l] > 0 {
                    return Err(EngineError::ServerBusy { server, jobs: st.jobs_on[l] });
                }
                let old = st.config_of[l];
                st.join(l, configuration);
                if old != configuration {
                    if old != NO_CONFIG {
                        st.deployed -= u64::from(st.configs[old as usize].iter().sum::<u32>());
                    }
                    st.deployed += u64::from(st.configs[configuration as usize].iter().sum::<u32>());
                    // Deploying a first configuration is no change of one.
                    if old != NO_CONFIG {
                        self.stats.reconfigured(now, st);
                    }
                }
            }
        }
        Ok(())
    }

    /// Reports what the policy is doing, for the statistics and the page.
    /// Whether the run keeps what only the page shows (the ranking): a policy can skip
    /// preparing such observations when not.
    pub fn keeps_details(&self) -> bool {
        self.details
    }

    pub fn observe(&mut self, observation: PgasObservation<'_>) {
        match observation {
            PgasObservation::Reward(reward) => *self.reported = Some(reward),
            PgasObservation::RejectGroup(size) => *self.reject_group = size,
            PgasObservation::Ranking { ranked, i_star } if self.details => {
                let ranking = self.ranking.get_or_insert_with(Ranking::default);
                ranking.ranked.clear();
                ranking.ranked.extend_from_slice(ranked);
                ranking.i_star = i_star;
            }
            PgasObservation::Ranking { .. } => {}
        }
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
        let (now, name, st, rule) = (self.now, &self.type_names[j], &*self.state, self.rule);
        self.log.record(|| {
            let d = match server {
                Some(s) => {
                    let l = s as usize;
                    let d = Decision::new(
                        now,
                        "admit",
                        format!("job {} ({name}) → server {}", pending.id, s + 1),
                        rule.unwrap_or("admitted into a free slot of its type"),
                    )
                    .server(s);
                    // Slots exist where the server has a configuration (DRA's reservations).
                    if st.configuration(l).is_some() {
                        d.fact("free slots of its type left there", st.free_slots(l, j).to_string())
                    } else {
                        d.fact("load there now (Σ used/capacity)", short(st.load(l)))
                    }
                }
                None => Decision::new(
                    now,
                    "admit",
                    format!("job {} ({name}) admitted", pending.id),
                    rule.unwrap_or("the bound admits without servers"),
                ),
            };
            d.job(pending.id).bin(j)
        });
    }

    /// Whether the run keeps a decision log: format notes only then.
    pub fn explaining(&self) -> bool {
        self.log.explaining()
    }

    /// A fact the policy looked at, for the next decision (free when no log is kept).
    pub fn note(&mut self, label: impl Into<String>, value: impl Into<String>) {
        self.log.note(label, value);
    }

    /// Names the rule behind the admission or rejection that follows, for the event log: a
    /// policy that does not reserve slots says what it does instead (power-of-d).
    pub fn rule(&mut self, why: &'static str) {
        self.rule = Some(why);
    }
}

/// A policy of the PG-AS loss model.
pub trait PgasPolicy: dyn_clone::DynClone {
    /// A job of `job_type` arrived: answer with [`PgasDecision::Admit`], [`PgasDecision::AdmitUnplaced`]
    /// or [`PgasDecision::Reject`] (exactly one), possibly after other decisions.
    fn on_arrival(&mut self, job_type: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError>;

    /// Time 0, before any arrival (DRA deploys its initial configurations here).
    fn begin(&mut self, _ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        Ok(())
    }

    /// A job of `job_type` left `server` (`None`: it had no server) at the end of its service;
    /// the engine has removed it already.
    fn on_departure(
        &mut self,
        _job_type: usize,
        _server: Option<u32>,
        _ctx: &mut PgasContext<'_>,
    ) -> Result<(), EngineError> {
        Ok(())
    }

    /// The servers that take jobs became `0..servers` (a change of the count, RES-98): the
    /// engine has made the others drain or leave ([`PgasState::servers`] is the new count). A
    /// policy that keeps its own view of the servers follows here; the others read the state.
    fn on_servers(&mut self, _servers: usize, _ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        Ok(())
    }

    /// Whether the policy admits everything without servers (the upper bound's infinite-server
    /// system); its reward is then what it reports with [`PgasObservation::Reward`].
    fn unlimited(&self) -> bool {
        false
    }
}

// A policy is part of a run's state: the timeline's checkpoints clone it with the engine.
dyn_clone::clone_trait_object!(PgasPolicy);
