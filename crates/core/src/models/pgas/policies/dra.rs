//! DRA, the Dynamic Reservation Algorithm (PG-AS §4, Algorithm 2; SPEC 4.3, RES-24..29).
//!
//! After every admission and every departure, CRA recomputes GPA(Ŷ) with Ŷ = Y(t) + g(L)·1 and
//! classifies the servers: the X̂\[i\] servers of configuration k\[i\] with the highest indices (the
//! longest in it) get rank i (RES-25); if k\[i\] has fewer than X̂\[i\] servers, empty unranked
//! servers are reassigned to it (RES-26's preference order) until it has them or none is left,
//! and I* is the first i that stays short. The reject group RG is the index-1 (newest) server of
//! every configuration whose rank exceeds I* (RES-27, literally: other unranked servers stay in
//! the accept group AG). An arrival of type j goes to an AG server with a free type-j slot —
//! smallest rank, then highest index, then lowest id (RES-28) — or is rejected (then no CRA).
//! A departure from an AG server pulls one type-j job from the RG server with the largest rank,
//! then fewest jobs, then lowest id (RES-29) into the freed slot.
//!
//! # Cost per event
//!
//! No event scans the L servers. Servers are kept per configuration in a list ordered by the
//! time they joined it (oldest first), so a server's index is a binary search away, and "the
//! ranked servers of k" are a prefix of that list; per configuration and type an ordered set
//! holds the servers with a free slot of that type, and another the empty servers. With C the
//! configurations in use (at most |K^(g)| ≤ 2^J, in practice a handful):
//!
//! * CRA: GPA, O(J²) (O(J) for trace types), then O(J) to re-rank — ranks and the reject group
//!   are derived from the per-configuration targets, never written per server — plus, per
//!   configuration still short of its target, one O(C log L) search for an empty server;
//! * an arrival: O((J + C) log L) to find the accept-group server, O(log L) to fill the slot;
//! * a departure: O(C) to find the migration source, O(log L) per set touched;
//! * a reassignment (amortised: servers empty one at a time): O(J log L + X_k), the X_k from
//!   removing the server from its old configuration's list;
//! * after a change of the server count (RES-98), a job leaving a draining server: O(J log L)
//!   to move that server among the migration sources, kept per type by (jobs held, id).

use std::collections::BTreeSet;

use super::reservation_factor::{G, ReservationFactor};
use crate::EngineError;
use crate::models::pgas::theory::{GpaStep, Packing};
use crate::models::pgas::{
    ConfigId, Pgas, PgasConfig, PgasContext, PgasDecision, PgasObservation, PgasPolicy, PgasState, Ranked, boxed,
};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgas> = Policy::new(
    "dra",
    "DRA",
    "reserve g(L) empty slots per type in GPA's greedy configurations; admit only into reserved slots, migrate out of \
     the reject group (PG-AS §4)",
    |spec, config: &PgasConfig| {
        // g is the starting L's (RES-98); the arrays are sized for the most servers the run has.
        let g = ReservationFactor::of(spec).at(config.servers);
        boxed(Dra::new(config.packing.clone(), config.built.max(config.servers), g))
    },
)
.params(&[G]);

pub(super) const NONE: u32 = u32::MAX;

/// The inspector's labels for what DRA looked at. I* is CRA's (PG-AS §4): the first i whose
/// k\[i\] could not be given X̂\[i\] servers, J when every one was.
pub(crate) const I_STAR: &str = "I*: the first rank whose configuration got fewer servers than its target (J if none)";
pub(crate) const CHOSEN: &str = "the server chosen";
pub(crate) const FREED: &str = "slot freed by the departure";
pub(crate) const SOURCE: &str = "source: the reject-group server with the largest rank, then fewest jobs";

/// The servers of one configuration, as DRA tracks them.
#[derive(Debug, Clone)]
pub(super) struct Conf {
    slots: Vec<u32>,
    /// (join stamp, server), oldest first: the server at position p has index X − p.
    members: Vec<(u64, u32)>,
    /// Per type: the servers with a free slot of that type.
    free: Vec<BTreeSet<(u64, u32)>>,
    /// The servers holding no job.
    empty: BTreeSet<(u64, u32)>,
    /// Its position i in the last GPA list (`NONE` if absent), and how many of its servers
    /// (the oldest) are ranked i: min(X̂\[i\], X).
    gpa_pos: u32,
    target: u32,
    /// Its position in `in_use` (`NONE` while it has no server).
    in_use_at: u32,
}

/// DRA and, with preemption, DRA+Preemption ([`super::dra_preempt`]).
#[derive(Debug, Clone)]
pub struct Dra {
    pub(super) packing: Packing,
    pub(super) g: u64,
    pub(super) types: usize,
    /// Priorities and sizes of the types, for DRA+Preemption (None: plain DRA).
    pub(super) preemption: Option<(Vec<u8>, Vec<u64>)>,
    confs: Vec<Conf>,
    /// Engine configuration of each packing configuration (`NONE` until used).
    engine_id: Vec<u32>,
    pub(super) conf_of: Vec<ConfigId>,
    stamp_of: Vec<u64>,
    next_stamp: u64,
    /// Configurations that have servers.
    in_use: Vec<ConfigId>,
    /// The last GPA: k\[i\] as engine configurations, and X̂\[i\].
    list: Vec<ConfigId>,
    xhat: Vec<u64>,
    steps: Vec<GpaStep>,
    y_hat: Vec<i64>,
    /// I* − 1 (0-based): J − 1 when every k\[i\] got its servers.
    i_star: usize,
    /// Scratch: the ranking reported after each CRA.
    ranked: Vec<Ranked>,
    /// Servers `0..active` take jobs (RES-98); the empty configuration, which added servers get.
    pub(super) active: usize,
    pub(super) zero: ConfigId,
    /// Per type: the draining servers holding a job of it, by (jobs held, id): the migration
    /// sources ahead of the reject group, fewest jobs first (RES-98, RES-29's order).
    pub(super) draining: Vec<BTreeSet<(u32, u32)>>,
}

impl Dra {
    /// DRA on `servers` servers with reservation factor `g` (SPEC 4.3).
    pub fn new(packing: Packing, servers: usize, g: u64) -> Self {
        let types = packing.types();
        Self {
            engine_id: vec![NONE; packing.configurations()],
            packing,
            g,
            types,
            preemption: None,
            confs: Vec::new(),
            conf_of: vec![NONE; servers],
            stamp_of: vec![0; servers],
            next_stamp: 0,
            in_use: Vec::new(),
            list: Vec::new(),
            xhat: Vec::new(),
            steps: Vec::with_capacity(types),
            y_hat: vec![0; types],
            i_star: types.saturating_sub(1),
            ranked: Vec::with_capacity(types),
            active: 0,
            zero: 0,
            draining: vec![BTreeSet::new(); types],
        }
    }

    /// The engine id of `counts`, with its tracking structures.
    fn intern(&mut self, counts: &[u32], ctx: &mut PgasContext<'_>) -> Result<ConfigId, EngineError> {
        let id = ctx.configuration(counts)?;
        while self.confs.len() <= id as usize {
            let slots = ctx.state().slots(self.confs.len() as ConfigId).to_vec();
            self.confs.push(Conf {
                slots,
                members: Vec::new(),
                free: vec![BTreeSet::new(); self.types],
                empty: BTreeSet::new(),
                gpa_pos: NONE,
                target: 0,
                in_use_at: NONE,
            });
        }
        Ok(id)
    }

    fn engine_config(
        &mut self,
        packing_config: usize,
        ctx: &mut PgasContext<'_>,
    ) -> Result<ConfigId, EngineError> {
        let id = self.engine_id[packing_config];
        if id != NONE {
            return Ok(id);
        }
        let id = self.intern(&self.packing.counts(packing_config), ctx)?;
        self.engine_id[packing_config] = id;
        Ok(id)
    }

    /// 0-based position of `server` in its configuration's list (0 = oldest).
    fn pos(&self, server: u32) -> usize {
        let conf = &self.confs[self.conf_of[server as usize] as usize];
        let stamp = self.stamp_of[server as usize];
        conf.members.binary_search_by_key(&stamp, |m| m.0).expect("a member of its configuration")
    }

    /// Index (1 = newest) of the member with `stamp` in `conf`.
    fn index_of(conf: &Conf, stamp: u64) -> usize {
        conf.members.len() - conf.members.binary_search_by_key(&stamp, |m| m.0).expect("a member")
    }

    /// 0-based rank: the GPA position of its configuration if it is among the ranked (oldest
    /// `target`) servers of it, J when unranked.
    pub(super) fn rank(&self, server: u32) -> usize {
        let Some(conf) = self.confs.get(self.conf_of[server as usize] as usize) else { return self.types };
        if conf.gpa_pos != NONE && self.pos(server) < conf.target as usize { conf.gpa_pos as usize } else { self.types }
    }

    /// Rank of the newest server of `conf`: ranked only when all its servers are.
    fn newest_rank(&self, conf: &Conf) -> usize {
        if conf.gpa_pos != NONE && conf.target as usize >= conf.members.len() {
            conf.gpa_pos as usize
        } else {
            self.types
        }
    }

    fn newest_is_rejected(&self, conf: &Conf) -> bool {
        !conf.members.is_empty() && self.newest_rank(conf) > self.i_star
    }

    /// Whether `server` is in the reject group: index 1 and rank > I*.
    pub(super) fn is_rejected(&self, server: u32) -> bool {
        let Some(conf) = self.confs.get(self.conf_of[server as usize] as usize) else { return false };
        conf.members.last().is_some_and(|m| m.1 == server) && self.newest_is_rejected(conf)
    }

    /// Bookkeeping after a type-j job entered `server`.
    pub(super) fn filled(&mut self, server: u32, job_type: usize, st: &PgasState) {
        let key = (self.stamp_of[server as usize], server);
        let conf = &mut self.confs[self.conf_of[server as usize] as usize];
        if st.free_slots(server as usize, job_type) == 0 {
            conf.free[job_type].remove(&key);
        }
        if st.jobs_on(server as usize) == 1 {
            conf.empty.remove(&key);
        }
    }

    /// Bookkeeping after a type-j job left `server`.
    pub(super) fn freed(&mut self, server: u32, job_type: usize, st: &PgasState) {
        if self.is_draining(server) {
            return self.drained_one(server, job_type, st);
        }
        let key = (self.stamp_of[server as usize], server);
        let conf = &mut self.confs[self.conf_of[server as usize] as usize];
        if st.free_slots(server as usize, job_type) == 1 {
            conf.free[job_type].insert(key);
        }
        if st.jobs_on(server as usize) == 0 {
            conf.empty.insert(key);
        }
    }

    /// Puts `server` into configuration `c`, as its newest member (index 1): an empty one, or
    /// (RES-98) a draining one brought back with the jobs it holds.
    pub(super) fn join(&mut self, server: u32, c: ConfigId, st: &PgasState) {
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        self.stamp_of[server as usize] = stamp;
        self.conf_of[server as usize] = c;
        let conf = &mut self.confs[c as usize];
        conf.members.push((stamp, server));
        for (j, &k) in conf.slots.iter().enumerate() {
            if k > st.placed(server as usize, j) {
                conf.free[j].insert((stamp, server));
            }
        }
        if st.jobs_on(server as usize) == 0 {
            conf.empty.insert((stamp, server));
        }
        if conf.in_use_at == NONE {
            conf.in_use_at = self.in_use.len() as u32;
            self.in_use.push(c);
        }
    }

    /// Takes the empty `server` out of its configuration; the rest keep their order.
    pub(super) fn leave(&mut self, server: u32) {
        let c = self.conf_of[server as usize];
        let p = self.pos(server);
        let key = (self.stamp_of[server as usize], server);
        let conf = &mut self.confs[c as usize];
        conf.members.remove(p);
        for set in &mut conf.free {
            set.remove(&key);
        }
        conf.empty.remove(&key);
        if conf.members.is_empty() {
            let at = conf.in_use_at as usize;
            conf.in_use_at = NONE;
            self.in_use.swap_remove(at);
            if let Some(&moved) = self.in_use.get(at) {
                self.confs[moved as usize].in_use_at = at as u32;
            }
        }
    }

    fn reassign(&mut self, server: u32, c: ConfigId, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        ctx.apply(PgasDecision::Reconfigure { server, configuration: c })?;
        self.leave(server);
        self.join(server, c, ctx.state());
        Ok(())
    }

    /// RES-26: an empty, still unranked server to reassign to k\[i\]: (1) one whose configuration
    /// is not in GPA's list (the empty configuration included), (2) a surplus server of a listed
    /// configuration, (3) one of a configuration listed after i, the last first; within a class
    /// the lowest index, then the lowest id.
    fn pick_empty(&self, i: usize) -> Option<u32> {
        let mut best: Option<((u8, usize, usize), u32)> = None;
        for &c in &self.in_use {
            let conf = &self.confs[c as usize];
            let Some(&(stamp, server)) = conf.empty.last() else { continue };
            // The newest empty server is the one of lowest index.
            let index = Self::index_of(conf, stamp);
            let key = if conf.gpa_pos == NONE {
                (1, 0, index)
            } else {
                let at = conf.gpa_pos as usize;
                let surplus = conf.members.len().saturating_sub(self.xhat[at] as usize);
                if at == i {
                    continue;
                } else if index <= surplus {
                    (2, 0, index)
                } else if at > i {
                    (3, self.types - at, index)
                } else {
                    continue;
                }
            };
            if best.is_none_or(|b| (key, server) < b) {
                best = Some((key, server));
            }
        }
        best.map(|b| b.1)
    }

    /// CRA(Y + g·1) (SPEC 4.3), then reports |RG|.
    pub(super) fn cra(&mut self, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        let servers = ctx.state().servers() as u64;
        for (j, y) in self.y_hat.iter_mut().enumerate() {
            *y = ctx.state().in_system(j) as i64 + self.g as i64;
        }
        self.packing.gpa_into(&self.y_hat, servers, &mut self.steps);
        for &c in &self.list {
            let conf = &mut self.confs[c as usize];
            conf.gpa_pos = NONE;
            conf.target = 0;
        }
        self.list.clear();
        self.xhat.clear();
        for i in 0..self.steps.len() {
            let step = self.steps[i];
            let c = self.engine_config(step.configuration, ctx)?;
            self.confs[c as usize].gpa_pos = i as u32;
            self.list.push(c);
            self.xhat.push(step.servers);
        }
        self.i_star = self.types - 1;
        for i in 0..self.list.len() {
            let c = self.list[i];
            while (self.confs[c as usize].members.len() as u64) < self.xhat[i] {
                match self.pick_empty(i) {
                    Some(server) => self.reassign(server, c, ctx)?,
                    None => {
                        self.i_star = self.i_star.min(i);
                        break;
                    }
                }
            }
            let conf = &mut self.confs[c as usize];
            conf.target = self.xhat[i].min(conf.members.len() as u64) as u32;
        }
        let rejected = self.in_use.iter().filter(|&&c| self.newest_is_rejected(&self.confs[c as usize])).count();
        debug_assert!(rejected <= self.in_use.len(), "at most one reject-group server per configuration");
        ctx.observe(PgasObservation::RejectGroup(rejected));
        if ctx.keeps_details() {
            self.ranked.clear();
            for (i, &c) in self.list.iter().enumerate() {
                self.ranked.push(Ranked { configuration: c, position: i as u32, target: self.confs[c as usize].target });
            }
            ctx.observe(PgasObservation::Ranking { ranked: &self.ranked, i_star: self.i_star });
        }
        Ok(())
    }

    /// AG_j (RES-28): among accept-group servers with a free type-j slot, the smallest rank,
    /// then the highest index (the oldest), then the lowest id.
    pub(super) fn accept_server(&self, job_type: usize) -> Option<u32> {
        // Ranked servers, rank by rank: the oldest of k[i] with a free slot, if it is ranked.
        for (i, &c) in self.list.iter().enumerate() {
            let conf = &self.confs[c as usize];
            if conf.slots[job_type] == 0 || conf.target == 0 {
                continue;
            }
            let threshold = conf.members[conf.target as usize - 1].0;
            if let Some(&(stamp, server)) = conf.free[job_type].first() {
                let newest = conf.members.last().is_some_and(|m| m.1 == server);
                // A ranked index-1 server is in the reject group when its rank exceeds I*; then
                // it is also the only one of k[i] with a free slot (all older ones are full).
                if stamp <= threshold && !(newest && i > self.i_star) {
                    return Some(server);
                }
            }
        }
        // Unranked servers other than index 1 stay in the accept group (RES-27).
        let mut best: Option<(usize, u32)> = None;
        for &c in &self.in_use {
            let conf = &self.confs[c as usize];
            if conf.slots[job_type] == 0 {
                continue;
            }
            let from = if conf.target > 0 { conf.members[conf.target as usize - 1].0 + 1 } else { 0 };
            let Some(&(stamp, server)) = conf.free[job_type].range((from, 0)..).next() else { continue };
            if conf.members.last().is_some_and(|m| m.1 == server) {
                continue;
            }
            let index = Self::index_of(conf, stamp);
            if best.is_none_or(|(bi, bs)| index > bi || (index == bi && server < bs)) {
                best = Some((index, server));
            }
        }
        best.map(|b| b.1)
    }

    /// RG_j (RES-29): the reject-group server holding a type-j job with the largest rank, then
    /// the fewest jobs, then the lowest id.
    fn migration_source(&self, job_type: usize, st: &PgasState) -> Option<u32> {
        // Draining servers first (RES-98): DRA empties them as it empties the reject group.
        if let Some(&(_, server)) = self.draining[job_type].first() {
            return Some(server);
        }
        let mut best: Option<(std::cmp::Reverse<usize>, u32, u32)> = None;
        for &c in &self.in_use {
            let conf = &self.confs[c as usize];
            let Some(&(_, server)) = conf.members.last() else { continue };
            if !self.newest_is_rejected(conf) || st.placed(server as usize, job_type) == 0 {
                continue;
            }
            let key = (std::cmp::Reverse(self.newest_rank(conf)), st.jobs_on(server as usize), server);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        best.map(|b| b.2)
    }

    /// A server's rank in words, from [`Dra::rank`] (the rank the policy decides by): "rank i"
    /// for a ranked server, "rank J + 1, unranked" for the others, surplus servers of a listed
    /// configuration (beyond its X̂\[i\] oldest) included.
    fn rank_words(&self, server: u32) -> String {
        if self.is_draining(server) {
            return "draining: removed by a change of the server count".to_string();
        }
        match self.rank(server) {
            r if r < self.types => format!("rank {}", r + 1),
            r => format!("rank {} = J + 1, unranked", r + 1),
        }
    }

    /// Notes I* as CRA defines it: the first rank whose configuration got fewer servers than
    /// its target.
    fn note_i_star(&self, ctx: &mut PgasContext<'_>) {
        ctx.note(I_STAR, (self.i_star + 1).to_string());
    }

    /// Notes what an arrival's decision looked at: GPA's ranked configurations with their
    /// targets, I*, and the rank of the server chosen (the page's inspector).
    fn explain(&self, server: Option<u32>, ctx: &mut PgasContext<'_>) {
        let show = |slots: &[u32]| format!("({})", slots.iter().map(u32::to_string).collect::<Vec<_>>().join(","));
        let ranked: Vec<String> = self
            .list
            .iter()
            .zip(&self.xhat)
            .take(4)
            .enumerate()
            .map(|(i, (&c, &x))| format!("k[{}] = {} on {x}", i + 1, show(&self.confs[c as usize].slots)))
            .collect();
        let more = if self.list.len() > 4 { format!(", … {} in all", self.list.len()) } else { String::new() };
        ctx.note("GPA's configurations k[i] and targets X̂[i]", format!("{}{more}", ranked.join(", ")));
        self.note_i_star(ctx);
        if let Some(server) = server
            && let Some(conf) = self.confs.get(self.conf_of[server as usize] as usize)
        {
            let mut rank = self.rank_words(server);
            if self.rank(server) == self.types {
                // Only a configuration's newest server joins the reject group (RES-27).
                rank.push_str(", yet in the accept group (not its configuration's newest server)");
            }
            ctx.note(CHOSEN, format!("server {}: {rank}, configuration {}", server + 1, show(&conf.slots)));
        }
    }

    /// Notes why a departure moved a job from `from` to `to`: the slot freed in the accept
    /// group, I*, and the reject-group server chosen by RES-29's order.
    #[cold]
    #[inline(never)]
    fn explain_migration(&self, from: u32, to: u32, job_type: usize, ctx: &mut PgasContext<'_>) {
        let freed = format!("server {} ({}, accept group): a type-{} slot", to + 1, self.rank_words(to), job_type + 1);
        let source =
            format!("server {} ({}, {} jobs)", from + 1, self.rank_words(from), ctx.state().jobs_on(from as usize));
        ctx.note(FREED, freed);
        self.note_i_star(ctx);
        ctx.note(SOURCE, source);
    }

    /// Admits the arriving type-j job into `server` and runs CRA.
    pub(super) fn admit(
        &mut self,
        server: u32,
        job_type: usize,
        ctx: &mut PgasContext<'_>,
    ) -> Result<(), EngineError> {
        ctx.apply(PgasDecision::Admit { server })?;
        self.filled(server, job_type, ctx.state());
        self.cra(ctx)
    }
}

impl PgasPolicy for Dra {
    /// Initialisation (SPEC 4.3): every server gets the empty configuration, indexed in server
    /// id order (server 1 has index 1), then CRA.
    fn begin(&mut self, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        let zero = self.intern(&vec![0; self.types], ctx)?;
        self.zero = zero;
        let servers = ctx.state().servers() as u32;
        self.active = servers as usize;
        for server in (0..servers).rev() {
            ctx.apply(PgasDecision::Reconfigure { server, configuration: zero })?;
            self.join(server, zero, ctx.state());
        }
        self.cra(ctx)
    }

    /// A change of the server count (RES-98, [`Dra::change_servers`]), then CRA.
    fn on_servers(&mut self, servers: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        self.change_servers(servers, ctx)?;
        self.cra(ctx)
    }

    fn on_arrival(&mut self, job_type: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        let accept = self.accept_server(job_type);
        if ctx.explaining() {
            self.explain(accept, ctx);
        }
        match accept {
            Some(server) => self.admit(server, job_type, ctx),
            None if self.preemption.is_some() => self.preempt_for(job_type, ctx),
            // A rejection changes nothing, so CRA does not run (RES-29).
            None => ctx.apply(PgasDecision::Reject),
        }
    }

    fn on_departure(
        &mut self,
        job_type: usize,
        server: Option<u32>,
        ctx: &mut PgasContext<'_>,
    ) -> Result<(), EngineError> {
        let Some(server) = server else { return Ok(()) };
        self.freed(server, job_type, ctx.state());
        // Migrate only into a slot freed on an accept-group server (RES-29), never into a
        // draining one (RES-98).
        if !self.is_rejected(server)
            && !self.is_draining(server)
            && let Some(from) = self.migration_source(job_type, ctx.state())
        {
            if ctx.explaining() {
                self.explain_migration(from, server, job_type, ctx);
            }
            ctx.apply(PgasDecision::Migrate { job_type: job_type as u16, from, to: server })?;
            self.freed(from, job_type, ctx.state());
            self.filled(server, job_type, ctx.state());
        }
        self.cra(ctx)
    }
}
