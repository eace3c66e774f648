//! VQS: virtual queue scheduling.
//!
//! PG-RR §4, "VQS" (SPEC 2.2.6). Waiting jobs are split into 2J virtual queues by the
//! universal partition. Every slot, servers in index order:
//!
//! * an empty server picks the configuration k of K_RED with the largest ⟨k, Q⟩ (it re-picks
//!   every slot while it stays empty, so a choice made on empty queues never sticks);
//! * if k has a type-1 job, two thirds of the server are reserved for one type-1 job: the head
//!   of VQ_1 enters when the server holds none; other jobs may use only the remaining third;
//! * the configuration's other queue VQ_j is walked in FIFO order and every job that still
//!   fits the unreserved room is placed (RES-10; `fill=strict` stops at the first misfit).
//!
//! Jobs of size at most 2^-J occupy 2^-J (RES-6). VQS is stable below (2/3)ρ* (Theorem 3).
//!
//! Instead of visiting all L servers per slot, the policy keeps, per type j, a max segment
//! tree of the unreserved room of the non-empty servers whose configuration uses j, and bit
//! sets of the servers still missing their type-1 job and of the empty ones ([`IdSet`]: the
//! next member is three word reads, where a tree of flags walked twenty nodes, and these were
//! half of the questions). The next server that can take anything is the minimum over those
//! indexes, found in O(J log L); servers that cannot take anything are exactly the ones the
//! full loop would leave unchanged. Within one slot's pass each tree's answer is kept
//! ([`Candidates`]) until the pass moves past it or the size it was asked for changes, so a
//! pass asks each tree about once per placing server rather than 2J times. A departure does not
//! touch the indexes: it marks its server, and the next pass judges each marked server from its
//! own state when it gets there ([`Vqs::places`]), then re-enters it once, mostly with the room
//! it had before the departure.

use super::virtual_queues::{
    Configurations, FILL, Fill, J, SMALL, SmallJobs, TIES, VirtualQueues, VqOptions, WEIGHTS, Weights, partition, resolve_j,
};
use crate::models::pgrr::partition::{Config, Partition};
use crate::models::pgrr::state::{Cluster, JobId, RunningJob, ServerId, WaitingJob};
use crate::models::pgrr::{ConfigStep, Pgrr, boxed, PgrrContext, PgrrDecision, PgrrPolicy, Rule};
use crate::model::policy::Policy;
use crate::EngineError;
use crate::index::{IdSet, MaxTree};

pub const POLICY: Policy<Pgrr> = Policy::new(
    "vqs",
    "VQS",
    "virtual queues per size class; an empty server picks the max-weight configuration of K_RED (PG-RR)",
    |spec, scenario| boxed(Vqs::new(partition(spec, scenario), scenario.servers as usize, VqOptions::of(spec))),
)
.params(&[J, TIES, WEIGHTS, SMALL, FILL])
.resolve(resolve_j);

/// Virtual queue scheduling with parameter J.
#[derive(Debug, Clone)]
pub struct Vqs {
    options: VqOptions,
    queues: VirtualQueues,
    configs: Configurations,
    /// Per type t: three times the unreserved room of each non-empty server whose
    /// configuration's other type is t (thirds keep the 1/3 reservation exact).
    room_for: Vec<MaxTree>,
    /// The tree each server is currently entered in.
    room_tree: Vec<Option<usize>>,
    /// The non-empty servers whose configuration has a type-1 job but which hold none.
    wants_type_one: IdSet,
    /// The empty servers: the policy's own copy of what the cluster knows, updated only when a
    /// server empties or takes its first job rather than at every start and departure.
    empty: IdSet,
    /// Servers that lost jobs since they were last re-entered in the indexes above (cleared by
    /// [`Vqs::refresh`]). A bit set hands them out in index order, as the pass visits servers,
    /// without sorting a list and walking a cursor along it at every pass.
    ///
    /// A departure only adds room, and most servers that lose a job take one back of the same
    /// size in the next pass: re-entering them at the departure and again at the start moved
    /// two tree leaves and back, about a tenth of VQS's time (issue 35). So a departure only
    /// marks its server, and the pass looks at each marked server itself when it gets there:
    /// its stale entries show less room than it has, so an index never offers it wrongly, and
    /// once filled it is re-entered once, mostly with the room it had.
    marked: IdSet,
    /// Per type t, during a pass: the bound room tree t is asked for, three times
    /// [`Vqs::needed`]`(t)`, or [`NOTHING`] when queue t has no job. It changes only when a
    /// start takes a job from queue t, so the pass computes it there rather than asking every
    /// queue before every question.
    need: Vec<u64>,
    /// Counts the changes of [`Vqs::need`] in a pass, for [`Candidates::by_index`].
    need_changes: u32,
    /// Scratch space of a scheduling pass.
    found: Candidates,
    /// Servers `0..active` take jobs; the others drain and are in no index (RES-95).
    active: ServerId,
}

impl Vqs {
    pub fn new(partition: Partition, servers: usize, options: VqOptions) -> Self {
        Self {
            options,
            queues: VirtualQueues::new(partition, true),
            configs: Configurations::new(partition, servers, options.ties),
            room_for: (0..partition.types()).map(|_| MaxTree::new(servers)).collect(),
            room_tree: vec![None; servers],
            wants_type_one: IdSet::new(servers),
            empty: {
                let mut empty = IdSet::new(servers);
                (0..servers).for_each(|s| {
                    empty.insert(s as ServerId);
                });
                empty
            },
            marked: IdSet::new(servers),
            need: vec![NOTHING; partition.types()],
            need_changes: 0,
            found: Candidates::default(),
            active: servers as ServerId,
        }
    }

    fn config(&self, server: ServerId) -> (u16, Config) {
        let at = self.configs.active(server).expect("a server with jobs has a configuration");
        (at, self.configs.configs[at as usize])
    }

    /// Three times the room left for the configuration's other type.
    fn room_thirds(&self, server: ServerId, k: &Config) -> u64 {
        let capacity = self.configs.partition.capacity();
        let other = self.configs.other_used(server);
        if k.type1 { capacity.saturating_sub(3 * other) } else { 3 * (capacity - other) }
    }

    /// Re-enters `server` in the candidate indexes after its contents changed. Only entries
    /// that change are written: most starts and departures move one tree leaf, not four.
    fn refresh(&mut self, server: ServerId) {
        let s = server as usize;
        self.marked.remove(server);
        let (tree, room, wants, empty) = self.entries(server);
        let old = std::mem::replace(&mut self.room_tree[s], tree);
        if let Some(t) = old
            && old != tree
        {
            self.room_for[t].set(s, 0);
        }
        if let Some(t) = tree
            && self.room_for[t].get(s) != room
        {
            self.room_for[t].set(s, room);
        }
        set_flag(&mut self.wants_type_one, server, wants);
        set_flag(&mut self.empty, server, empty);
    }

    /// What the indexes should hold for `server`: the room tree it belongs in with its room
    /// there (in thirds), whether it still wants its type-1 job, and whether it is an empty
    /// server that takes jobs.
    fn entries(&self, server: ServerId) -> (Option<usize>, u64, bool, bool) {
        // A draining server keeps its configuration until it empties, but is offered nothing
        // and renews none (RES-95).
        if server >= self.active {
            return (None, 0, false, false);
        }
        if self.configs.is_empty(server) {
            return (None, 0, false, true);
        }
        let (_, k) = self.config(server);
        let (tree, room) = k.other.map_or((None, 0), |(t, _)| (Some(t), self.room_thirds(server, &k)));
        (tree, room, k.type1 && self.configs.type_one(server) == 0, false)
    }

    /// Whether the indexes hold what [`Vqs::entries`] says for `server` (debug checks).
    #[cfg(debug_assertions)]
    fn indexed_right(&self, server: ServerId) -> bool {
        let s = server as usize;
        let (tree, room, wants, empty) = self.entries(server);
        self.room_tree[s] == tree
            && tree.is_none_or(|t| self.room_for[t].get(s) == room)
            && self.wants_type_one.contains(server) == wants
            && self.empty.contains(server) == empty
    }

    /// Whether an empty server renewing now would place a job: some configuration the choice
    /// rule can pick has a non-empty queue (every job of such a queue fits an empty server).
    ///
    /// With the current counts as weights (the default) that is whether any job waits: every
    /// type has a positive count in some configuration of K_RED (the test
    /// `every_type_is_in_some_configuration`), so the heaviest weight is positive exactly when
    /// a queue holds a job, and then every maximiser has a job of its own to place. That spares
    /// a pass over K_RED about every other start (a twentieth of VQS's instructions).
    fn empty_server_places(&self, weights: &[u64]) -> bool {
        if self.options.weights == Weights::Current {
            debug_assert_eq!(self.queues.waiting() > 0, self.a_maximiser_places(weights));
            return self.queues.waiting() > 0;
        }
        self.a_maximiser_places(weights)
    }

    /// [`Vqs::empty_server_places`] by a pass over the maximisers of `weights`.
    fn a_maximiser_places(&self, weights: &[u64]) -> bool {
        let q = &self.queues;
        self.configs
            .maximisers(weights)
            .any(|(_, k)| (k.type1 && q.len(1) > 0) || k.other.is_some_and(|(t, _)| q.len(t) > 0))
    }

    /// The size of the job a fill from queue `t` would take first if there is room for it.
    #[inline(always)]
    fn needed(&self, t: usize) -> Option<u64> {
        match self.options.fill {
            Fill::Skip => self.queues.min_size(t),
            Fill::Strict => self.queues.head(t).map(|(_, size, _)| size),
        }
    }

    /// [`Vqs::need`] of queue `t` as the queue stands. Inlined: every start asks it, and the
    /// call cost as much as the question.
    #[inline(always)]
    fn needed_thirds(&self, t: usize) -> u64 {
        self.needed(t).map_or(NOTHING, |size| 3 * size)
    }

    /// Whether `server` would place a job now, from its own state rather than the indexes:
    /// what [`Vqs::next_server_by_index`] asks of the indexes, for one server.
    fn places(&self, server: ServerId, weights: &[u64]) -> bool {
        if server >= self.active {
            return false;
        }
        if self.configs.is_empty(server) {
            return self.empty_server_places(weights);
        }
        let (_, k) = self.config(server);
        let wants_type_one = k.type1 && self.configs.type_one(server) == 0 && self.queues.len(1) > 0;
        wants_type_one
            || k.other.is_some_and(|(t, _)| self.needed(t).is_some_and(|size| self.room_thirds(server, &k) >= 3 * size))
    }

    /// The lowest-index server at or after `from` that would place a job: the first of what
    /// the indexes offer and the marked servers ([`Vqs::marked`]) that would. A marked server
    /// that would not is re-entered as the pass reaches it. `found` holds the indexes' answers
    /// of earlier calls in the same pass; they stay right, since a marked server re-entered
    /// at or after `from` neither places nor fits any bound asked.
    fn next_server(
        &mut self,
        from: ServerId,
        snapshot: Option<&[u64]>,
        found: &mut Candidates,
    ) -> Option<ServerId> {
        loop {
            let next = self.next_server_by_index(from, snapshot, found);
            let Some(stale) = self.marked.first_from(from) else { return next };
            if next.is_some_and(|n| n < stale) {
                return next;
            }
            if self.places(stale, snapshot.unwrap_or(self.queues.counts())) {
                return Some(stale);
            }
            self.refresh(stale);
            // Its re-entry may have changed the indexes at or after `from` (rarely: a few
            // times per thousand passes).
            found.by_index = None;
        }
    }

    /// The lowest-index server at or after `from` that the indexes say would place a job:
    /// the answer of the previous call when it still holds ([`Candidates::by_index`]).
    fn next_server_by_index(
        &self,
        from: ServerId,
        snapshot: Option<&[u64]>,
        found: &mut Candidates,
    ) -> Option<ServerId> {
        if let Some((changes, answer)) = found.by_index
            && changes == self.need_changes
            && answer.is_none_or(|s| s >= from)
        {
            debug_assert_eq!(answer, self.next_server_by_index_afresh(from, snapshot, &mut found.clone()));
            return answer;
        }
        let answer = self.next_server_by_index_afresh(from, snapshot, found);
        found.by_index = Some((self.need_changes, answer));
        answer
    }

    /// [`Vqs::next_server_by_index`] from the indexes.
    fn next_server_by_index_afresh(
        &self,
        from: ServerId,
        snapshot: Option<&[u64]>,
        found: &mut Candidates,
    ) -> Option<ServerId> {
        let mut next: Option<ServerId> = None;
        let mut consider = |s: Option<ServerId>| {
            if let Some(s) = s {
                next = Some(next.map_or(s, |n| n.min(s)));
            }
        };
        debug_assert!((0..self.need.len()).all(|t| self.need[t] == self.needed_thirds(t)));
        for ((tree, &bound), asked) in self.room_for.iter().zip(&self.need).zip(&mut found.room) {
            if bound != NOTHING {
                consider(asked.first_at_least(tree, from, bound));
            }
        }
        if self.queues.len(1) > 0 {
            consider(self.wants_type_one.first_from(from));
        }
        // An empty server comes first only if it lies before every other candidate; only then
        // is the configuration choice (a pass over K_RED) worth evaluating.
        if let Some(empty) = self.empty.first_from(from)
            && next.is_none_or(|n| empty < n)
            && self.empty_server_places(snapshot.unwrap_or(self.queues.counts()))
        {
            next = Some(empty);
        }
        next
    }

    /// Starts `job`, taken from virtual queue `t`, on `server`.
    fn start(
        &mut self,
        ctx: &mut PgrrContext<'_>,
        (job, t): (JobId, usize),
        server: ServerId,
        rule: Rule,
    ) -> Result<(), EngineError> {
        let running = ctx.apply(PgrrDecision::Start { job, server, rule })?;
        debug_assert_eq!(self.configs.partition.type_of(running.size.primary()), t);
        self.queues.remove_of_type(job, t);
        let need = self.needed_thirds(t);
        if need != self.need[t] {
            self.need[t] = need;
            self.need_changes = self.need_changes.wrapping_add(1);
        }
        self.configs.record_of_type(server, t, running.occupies.primary(), true);
        self.refresh(server);
        Ok(())
    }

    /// VQS_fill (SPEC 2.2.6).
    fn fill(&mut self, ctx: &mut PgrrContext<'_>, server: ServerId) -> Result<(), EngineError> {
        let (config, k) = self.config(server);
        let rule = |step| Rule::Config { config, step };
        if k.type1
            && self.configs.type_one(server) == 0
            && let Some((_, _, job)) = self.queues.head(1)
        {
            self.start(ctx, (job, 1), server, rule(ConfigStep::TypeOne))?;
        }
        if let Some((t, _)) = k.other {
            let mut from = 0;
            loop {
                let room = self.room_thirds(server, &k) / 3;
                let next = match self.options.fill {
                    // A room smaller than every job of the queue ends the walk without a
                    // search (the search would end at the queue's tail).
                    Fill::Skip if self.queues.min_size(t).is_none_or(|smallest| smallest > room) => None,
                    Fill::Skip => self.queues.first_fitting(t, from, room),
                    Fill::Strict => self.queues.head(t).filter(|&(_, size, _)| size <= room),
                };
                let Some((position, _, job)) = next else { break };
                self.start(ctx, (job, t), server, rule(ConfigStep::ConfigType))?;
                from = position + 1;
            }
        }
        Ok(())
    }
}

/// Adds `server` to `set` or takes it out.
#[inline]
fn set_flag(set: &mut IdSet, server: ServerId, member: bool) {
    if member {
        set.insert(server);
    } else {
        set.remove(server);
    }
}

/// What one scheduling pass has learnt from the room trees, one [`Asked`] per tree.
///
/// A pass visits servers in increasing order and changes the indexes only at the server it
/// fills, which then lies behind every later question. So an answer r found from position f
/// for a bound b stays the answer from any later f′ ≤ r for the same b: the entries in
/// [f′, r) are the ones that did not qualify, unchanged since. (No answer stays no answer
/// likewise.) The answers are dropped at the end of the pass, since departures and arrivals
/// change the indexes between passes.
///
/// The same argument holds for the answer of all the indexes together
/// ([`Vqs::next_server_by_index`]) while what the pass asks of them stays the same. Everything
/// it asks follows from [`Vqs::need`]: the bounds; whether queue 1 holds a job (its bound is
/// not [`NOTHING`]); and whether an empty server would place (any job waits, or with
/// `weights=snapshot` a maximiser has a non-empty queue). So that answer, `by_index`, holds
/// until `need` changes (counted by [`Vqs::need_changes`]) or the pass re-enters a marked
/// server that places nothing, which may change the indexes at or after the position asked.
/// Most starts leave every bound as it was (the smallest job of a queue stays there while
/// others of its size wait), and asking the indexes afresh before every server was about a
/// fifth of VQS's pass (issue 57).
#[derive(Debug, Clone, Default)]
struct Candidates {
    room: Vec<Asked>,
    /// [`Vqs::need_changes`] when the indexes were last asked, and their answer.
    by_index: Option<(u32, Option<ServerId>)>,
}

impl Candidates {
    /// Forgets every answer, for a new pass over `types` room indexes.
    fn forget(&mut self, types: usize) {
        self.room.clear();
        self.room.resize(types, Asked::default());
        self.by_index = None;
    }
}

/// [`Vqs::need`] of a queue with no job: no room tree is asked for it.
const NOTHING: u64 = u64::MAX;

/// The bound last asked of one index in a pass, and its answer.
#[derive(Debug, Clone, Copy, Default)]
struct Asked(Option<(u64, Option<ServerId>)>);

impl Asked {
    /// `tree.first_at_least(from, bound)`, from the last answer when it still holds.
    fn first_at_least(&mut self, tree: &MaxTree, from: ServerId, bound: u64) -> Option<ServerId> {
        if let Some((asked, answer)) = self.0
            && asked == bound
            && answer.is_none_or(|s| s >= from)
        {
            return answer;
        }
        let answer = tree.first_at_least(from as usize, bound).map(|s| s as ServerId);
        self.0 = Some((bound, answer));
        answer
    }
}

impl PgrrPolicy for Vqs {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        let snapshot = (self.options.weights == Weights::Snapshot).then(|| self.queues.counts().to_vec());
        let mut from = 0;
        // Reused from pass to pass (an allocation per slot shows at L = 100, in WebAssembly
        // above all); a pass that fails leaves an empty one, which `forget` sizes again.
        let mut found = std::mem::take(&mut self.found);
        found.forget(self.room_for.len());
        for t in 0..self.need.len() {
            self.need[t] = self.needed_thirds(t);
        }
        // A pass that fails leaves its marked servers to the next one.
        #[cfg(debug_assertions)]
        let was_marked = self.marked.ids();
        while let Some(server) = self.next_server(from, snapshot.as_deref(), &mut found) {
            if self.configs.is_empty(server) {
                let weights = snapshot.as_deref().unwrap_or(self.queues.counts());
                let choice = self.configs.argmax(weights, ctx.rng());
                // Asked here: the call alone cost more than the question.
                if ctx.explaining() {
                    self.configs.explain_renewal(ctx, weights, choice);
                }
                self.configs.set_active(server, choice);
            }
            self.fill(ctx, server)?;
            if self.marked.contains(server) {
                // A marked server that placed nothing after all (its renewal chose otherwise).
                self.refresh(server);
            }
            from = server + 1;
        }
        // The pass went past every marked server and re-entered each.
        debug_assert!(self.marked.is_empty());
        #[cfg(debug_assertions)]
        debug_assert!(was_marked.iter().all(|&s| self.indexed_right(s)));
        self.found = found;
        Ok(())
    }

    fn occupies(&self, size: u64) -> u64 {
        match self.options.small {
            SmallJobs::Round => self.configs.partition.rounded(size),
            SmallJobs::Real => size,
        }
    }

    fn on_arrival(&mut self, job: &WaitingJob) {
        self.queues.push(job);
    }

    fn virtual_queues(&self) -> Option<u8> {
        Some(self.configs.partition.j())
    }

    fn on_departure(&mut self, job: &RunningJob, server: ServerId) {
        self.configs.record(server, job.size.primary(), job.occupies.primary(), false);
        // Re-entered when the next pass reaches it ([`Vqs::marked`]).
        self.marked.insert(server);
    }

    /// Each server re-entered under the new count: O(L log L) once per change.
    fn on_servers(&mut self, cluster: &Cluster) {
        self.active = cluster.active() as ServerId;
        for s in 0..self.room_tree.len() {
            self.refresh(s as ServerId);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::pgrr::CAPACITY_UNITS;
    use crate::models::pgrr::engine::testing::Harness;

    fn with_config(config: &str) -> (Vqs, Harness, Vec<JobId>) {
        let partition = Partition::new(2, CAPACITY_UNITS);
        let mut vqs = Vqs::new(partition, 1, VqOptions::default());
        let mut h = Harness::new(1, CAPACITY_UNITS);
        let size = 3 * CAPACITY_UNITS / 10;
        let jobs = (0..2).map(|_| h.waiting(size, &mut vqs)).collect();
        let at = vqs.configs.configs.iter().position(|k| k.label() == config).unwrap();
        vqs.configs.set_active(0, at as u16);
        (vqs, h, jobs)
    }

    /// What [`Vqs::empty_server_places`] relies on with the current counts: each type t has
    /// k_t > 0 in some configuration of K_RED, for every J.
    #[test]
    fn every_type_is_in_some_configuration() {
        for j in crate::models::pgrr::partition::MIN_J..=crate::models::pgrr::partition::MAX_J {
            let configs = crate::models::pgrr::partition::reduced_configs(j);
            for t in 0..2 * j as usize {
                assert!(configs.iter().any(|k| k.count(t) > 0), "J = {j}: type {t} in no configuration");
            }
        }
    }

    /// SPEC 6.1 item 6: under e1+e3 with VQ_1 empty only a third of the server is open to the
    /// two 0.3 jobs, so exactly one starts; under 3e3 both start.
    #[test]
    fn the_type_one_reservation_holds_when_its_queue_is_empty() {
        let (mut vqs, mut h, jobs) = with_config("e1+e3");
        vqs.fill(&mut h.context(), 0).unwrap();
        assert_eq!(h.waiting_ids(), vec![jobs[1]]);

        let (mut vqs, mut h, _) = with_config("3e3");
        vqs.fill(&mut h.context(), 0).unwrap();
        assert!(h.waiting_ids().is_empty());
    }

    /// RES-10: the default walk skips a job that does not fit and takes a later one;
    /// `fill=strict` stops at the first misfit.
    #[test]
    fn fifo_walk_skips_or_stops() {
        let partition = Partition::new(2, CAPACITY_UNITS);
        let units = |x: f64| (x * CAPACITY_UNITS as f64).round() as u64;
        for (fill, expected_waiting) in [(Fill::Skip, 1), (Fill::Strict, 2)] {
            let options = VqOptions { fill, ..VqOptions::default() };
            let mut vqs = Vqs::new(partition, 1, options);
            let mut h = Harness::new(1, CAPACITY_UNITS);
            // 0.15 already runs under 2e2, leaving 0.85 for type-2 jobs (sizes in (1/3, 1/2]).
            let at = vqs.configs.configs.iter().position(|k| k.label() == "2e2").unwrap();
            vqs.configs.set_active(0, at as u16);
            h.running(0, units(0.15));
            vqs.configs.record(0, units(0.15), units(0.15), true);
            for s in [0.45, 0.5, 0.4] {
                h.waiting(units(s), &mut vqs);
            }
            vqs.fill(&mut h.context(), 0).unwrap();
            // 0.45 fits (0.4 left); 0.5 does not; the default walk still places 0.4.
            assert_eq!(h.waiting_ids().len(), expected_waiting, "{fill:?}");
        }
    }
}
