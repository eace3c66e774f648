//! Virtual queues (SPEC 2.2.4) and the per-server bookkeeping VQS and VQS-BF share.

use rand::RngExt;

use crate::index::FifoIndex;
use crate::model::policy::{Param, PolicySpec};
use crate::models::pgrr::partition::{self, Config, MAX_J, MIN_J, Partition, reduced_configs};
use crate::models::pgrr::state::{JobId, ServerId, WaitingJob, WaitingQueue};
use crate::models::pgrr::{CAPACITY_UNITS, PgrrContext, PgrrScenario};
use crate::rng::StreamRng;

/// The parameters of the virtual-queue policies (SPEC RES-6..10), shared by VQS and VQS-BF.
pub(super) const J: Param =
    Param::int("j", MIN_J as u64, MAX_J as u64, "partition depth J (default: the scenario's j)")
        .symbol("J")
        .always_in_label();
pub(super) const TIES: Param =
    Param::choice("ties", &["first", "random"], "how max-weight ties are broken (default first)");
pub(super) const WEIGHTS: Param = Param::choice(
    "weights",
    &["current", "snapshot"],
    "queue counts used when several servers renew in one slot (default current)",
);
pub(super) const SMALL: Param =
    Param::choice("small", &["round", "real"], "space taken by jobs of size <= 2^-J (default round)");
pub(super) const FILL: Param =
    Param::choice("fill", &["skip", "strict"], "FIFO walk of the configuration's queue (default skip)");

/// J when a policy does not set it: the scenario's.
pub(super) fn resolve_j(key: &str, scenario: &PgrrScenario) -> Option<String> {
    (key == "j").then(|| scenario.j.to_string())
}

/// RES-8: how ties in the max-weight configuration choice are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ties {
    /// The first maximiser in canonical order (default).
    #[default]
    First,
    /// Uniformly at random among the maximisers (policy stream).
    Random,
}

/// RES-9: which queue counts drive the configuration choice when several servers renew in
/// one slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weights {
    /// The current counts, after placements made earlier in the slot (default).
    #[default]
    Current,
    /// A snapshot taken right after the arrivals.
    Snapshot,
}

/// RES-10: how VQS fills from the configuration's virtual queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fill {
    /// Walk the queue in FIFO order and place every job that fits (default).
    #[default]
    Skip,
    /// Stop at the first job that does not fit.
    Strict,
}

/// RES-6: the space taken by jobs of size at most 2^-J.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SmallJobs {
    /// Rounded up to 2^-J (default).
    #[default]
    Round,
    /// Their real size.
    Real,
}

/// The options of a virtual-queue policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VqOptions {
    pub ties: Ties,
    pub weights: Weights,
    pub fill: Fill,
    pub small: SmallJobs,
}

impl VqOptions {
    /// The options `spec` sets (the others at their defaults).
    pub fn of(spec: &PolicySpec) -> Self {
        Self {
            ties: if spec.is("ties", "random") { Ties::Random } else { Ties::First },
            weights: if spec.is("weights", "snapshot") { Weights::Snapshot } else { Weights::Current },
            fill: if spec.is("fill", "strict") { Fill::Strict } else { Fill::Skip },
            small: if spec.is("small", "real") { SmallJobs::Real } else { SmallJobs::Round },
        }
    }
}

/// The partition of `spec`'s J (or the scenario's) over a PG-RR server.
pub(super) fn partition(spec: &PolicySpec, scenario: &PgrrScenario) -> Partition {
    let j = spec.int("j").map_or(scenario.j, |j| j as u8);
    Partition::new(j, CAPACITY_UNITS)
}

/// One queue per partition type, holding waiting jobs by id. Q_j counts waiting jobs only
/// (RES-7).
///
/// What a policy asks of the queues decides what they keep:
///
/// * VQS walks a queue in arrival order ("the earliest job no larger than c"), so each type
///   keeps its jobs in a [`FifoIndex`] by id, keyed by the space they take; its segment tree
///   also gives the smallest job.
/// * VQS-BF asks for "the largest job of type t that fits". The types are intervals of the
///   space a job takes, so that is a range query on the engine's waiting queue by size, and
///   the virtual queues keep only their counts: no second copy of every waiting job.
#[derive(Debug, Clone)]
pub(crate) struct VirtualQueues {
    partition: Partition,
    counts: Vec<u64>,
    /// The sum of `counts`: whether any queue holds a job, without a look at each.
    waiting: u64,
    /// Per type, its jobs in arrival order (VQS only).
    arrival_order: Option<Vec<FifoIndex<()>>>,
}

impl VirtualQueues {
    pub fn new(partition: Partition, in_arrival_order: bool) -> Self {
        let n = partition.types();
        let arrival_order = in_arrival_order.then(|| vec![FifoIndex::new(); n]);
        Self { partition, counts: vec![0; n], waiting: 0, arrival_order }
    }

    /// Q: waiting jobs per type.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    pub fn len(&self, t: usize) -> u64 {
        self.counts[t]
    }

    /// Waiting jobs of every type.
    pub fn waiting(&self) -> u64 {
        self.waiting
    }

    pub fn push(&mut self, job: &WaitingJob) {
        let t = self.partition.type_of(job.size.primary());
        self.counts[t] += 1;
        self.waiting += 1;
        if let Some(queues) = &mut self.arrival_order {
            queues[t].push(job.id, job.occupies.primary(), ());
        }
    }

    /// Removes a waiting job of the given size.
    pub fn remove(&mut self, id: JobId, size: u64) {
        self.remove_of_type(id, self.partition.type_of(size));
    }

    /// Removes a waiting job of type `t`, for a caller that knows it (VQS takes jobs from a
    /// queue it names, and the type of a size is a few dozen instructions per start).
    pub fn remove_of_type(&mut self, id: JobId, t: usize) {
        self.counts[t] -= 1;
        self.waiting -= 1;
        if let Some(queues) = &mut self.arrival_order {
            let removed = queues[t].remove(id);
            debug_assert!(removed.is_some(), "job {id} is not in virtual queue {t}");
        }
    }

    fn fifo(&self, t: usize) -> &FifoIndex<()> {
        &self.arrival_order.as_ref().expect("only VQS walks its queues in arrival order")[t]
    }

    /// The oldest job of queue `t`: `(position, space, id)`; the position is the id.
    pub fn head(&self, t: usize) -> Option<(u64, u64, JobId)> {
        self.fifo(t).head().map(|(id, size, ())| (id, size, id))
    }

    /// The earliest job of queue `t` at position ≥ `from` that takes at most `room`.
    pub fn first_fitting(&self, t: usize, from: u64, room: u64) -> Option<(u64, u64, JobId)> {
        self.fifo(t).first_at_most(from, room).map(|(id, size, ())| (id, size, id))
    }

    /// The smallest space taken by a job of queue `t`.
    pub fn min_size(&self, t: usize) -> Option<u64> {
        self.fifo(t).min_key()
    }

    /// The largest job of type `t` in `queue` that takes at most `room`; earliest arrival on
    /// ties. A type is an interval of the space jobs take (rounding small jobs up to 2^-J
    /// keeps them in their type), so the largest job no larger than `min(room, top of t)` is
    /// of type t or of a smaller type, and in the second case type t has none that fits.
    /// A queue with no job is answered without asking the waiting queue's size index: VQS-BF
    /// asks for the configuration's types at every server it fills, mostly of queues that are
    /// empty then.
    pub fn largest_fitting(&self, t: usize, room: u64, queue: &WaitingQueue) -> Option<JobId> {
        if self.counts[t] == 0 {
            return None;
        }
        let job = queue.largest_fitting(room.min(self.partition.largest_of(t)))?;
        (self.partition.type_of(job.occupies.primary()) == t).then_some(job.id)
    }
}

/// The max-weight choice over K_RED (SPEC 2.2.6) and what VQS and VQS-BF need to know about
/// the jobs inside each server.
///
/// A server's configuration changes only while it is empty, so counting, per server, the
/// type-1 jobs and the jobs of its configuration's other type is enough: O(L) memory rather
/// than a count per server and type.
#[derive(Debug, Clone)]
pub(crate) struct Configurations {
    pub partition: Partition,
    pub configs: Vec<Config>,
    /// `configs` as the terms of their weights, for the renewal's argmax.
    terms: Vec<Term>,
    ties: Ties,
    /// What each server holds, one record per server: a start or departure reads and writes
    /// one cache line, where five vectors indexed by server were five (a fifth of VQS's
    /// first-level cache misses at L = 1000).
    servers: Vec<ServerBook>,
}

/// ⟨k, Q⟩ = `one`·Q_1 + `count`·Q_`other` for one configuration k: the renewal's argmax reads
/// these, where reading [`Config`]s (an `Option` and a flag) cost about twice as much.
#[derive(Debug, Clone, Copy)]
struct Term {
    one: u64,
    other: usize,
    count: u64,
}

impl Term {
    fn of(k: &Config) -> Self {
        let (other, count) = k.other.map_or((0, 0), |(t, c)| (t, u64::from(c)));
        Self { one: u64::from(k.type1), other, count }
    }

    #[inline]
    fn weight(&self, weights: &[u64]) -> u64 {
        self.one * weights[1] + self.count * weights[self.other]
    }
}

/// What [`Configurations`] knows of one server.
#[derive(Debug, Clone, Copy, Default)]
struct ServerBook {
    /// Space taken by jobs of types other than 1.
    other_used: u64,
    /// Type-1 jobs in the server.
    type_one: u32,
    /// Jobs of the active configuration's other type.
    config_type: u32,
    /// Jobs in the server.
    jobs: u32,
    /// The active configuration, set when the empty server renews and cleared when it empties.
    active: Option<u16>,
    /// The active configuration's other type, [`NO_TYPE`] when there is none: a departure
    /// asks it without a look at the configuration.
    other: u8,
}

/// [`ServerBook::other`] of a server without a configuration or whose configuration has
/// only its type-1 job.
const NO_TYPE: u8 = u8::MAX;

impl Configurations {
    pub fn new(partition: Partition, servers: usize, ties: Ties) -> Self {
        let configs = reduced_configs(partition.j());
        let terms = configs.iter().map(Term::of).collect();
        let book = ServerBook { other: NO_TYPE, ..ServerBook::default() };
        Self { partition, configs, terms, ties, servers: vec![book; servers] }
    }

    /// argmax over K_RED of ⟨k, Q⟩: the first maximiser in canonical order, or a uniform one
    /// among the maximisers (RES-8).
    pub fn argmax(&self, weights: &[u64], rng: &mut StreamRng) -> u16 {
        match self.ties {
            Ties::First => self.heaviest(weights),
            Ties::Random => {
                let all: Vec<usize> = self.maximisers(weights).map(|(i, _)| i).collect();
                all[rng.random_range(0..all.len() as u64) as usize] as u16
            }
        }
    }

    /// [`partition::heaviest`] from the terms: the first maximiser in canonical order.
    fn heaviest(&self, weights: &[u64]) -> u16 {
        let mut best = (0, self.terms[0].weight(weights));
        for (i, term) in self.terms.iter().enumerate().skip(1) {
            let w = term.weight(weights);
            if w > best.1 {
                best = (i, w);
            }
        }
        debug_assert_eq!(best.0, partition::heaviest(&self.configs, weights));
        best.0 as u16
    }

    /// Notes what a renewal looked at (the page's inspector): the virtual queues, the
    /// heaviest configurations by ⟨k, Q⟩ and the one chosen. Only when the run explains.
    pub fn explain_renewal(&self, ctx: &mut PgrrContext<'_>, weights: &[u64], choice: u16) {
        if !ctx.explaining() {
            return;
        }
        let queues: Vec<String> = weights
            .iter()
            .enumerate()
            .filter(|(_, q)| **q > 0)
            .map(|(t, q)| format!("{} {q}", partition::bin_name(t)))
            .collect();
        let mut ranked: Vec<(u64, &Config)> = self.configs.iter().map(|k| (k.weight(weights), k)).collect();
        ranked.sort_by_key(|(w, _)| std::cmp::Reverse(*w));
        let top: Vec<String> = ranked.iter().take(4).map(|(w, k)| format!("{} {w}", k.label())).collect();
        let chosen = self.configs[choice as usize];
        ctx.note(partition::QUEUES_NOTE, if queues.is_empty() { "none".into() } else { queues.join(", ") });
        ctx.note("heaviest configurations ⟨k, Q⟩", top.join(", "));
        ctx.note("renewal: the argmax", format!("{} (weight {})", chosen.label(), chosen.weight(weights)));
    }

    /// The maximisers of ⟨k, Q⟩ for `weights`, with their indexes.
    pub fn maximisers<'s>(&'s self, weights: &'s [u64]) -> impl Iterator<Item = (usize, &'s Config)> + 's {
        let best = self.configs.iter().map(|k| k.weight(weights)).max().unwrap_or(0);
        self.configs.iter().enumerate().filter(move |(_, k)| k.weight(weights) == best)
    }

    pub fn is_empty(&self, server: ServerId) -> bool {
        self.servers[server as usize].jobs == 0
    }

    /// The active configuration of `server` (an index into `configs`), `None` while it is
    /// empty and has not renewed.
    pub fn active(&self, server: ServerId) -> Option<u16> {
        self.servers[server as usize].active
    }

    /// Sets the configuration an empty server renews with.
    pub fn set_active(&mut self, server: ServerId, config: u16) {
        let book = &mut self.servers[server as usize];
        book.active = Some(config);
        book.other = self.configs[config as usize].other.map_or(NO_TYPE, |(t, _)| t as u8);
    }

    /// Space taken in `server` by jobs of types other than 1.
    pub fn other_used(&self, server: ServerId) -> u64 {
        self.servers[server as usize].other_used
    }

    /// Type-1 jobs in `server`.
    pub fn type_one(&self, server: ServerId) -> u32 {
        self.servers[server as usize].type_one
    }

    /// Jobs of the active configuration's other type in `server`, however they got there.
    pub fn config_type(&self, server: ServerId) -> u32 {
        self.servers[server as usize].config_type
    }

    /// Records a job of size `size` (occupying `occupies`) entering (+1) or leaving (−1)
    /// `server`, which has an active configuration.
    #[inline]
    pub fn record(&mut self, server: ServerId, size: u64, occupies: u64, entering: bool) {
        self.record_of_type(server, self.partition.type_of(size), occupies, entering);
    }

    /// [`Configurations::record`] for a job of type `t`.
    pub fn record_of_type(&mut self, server: ServerId, t: usize, occupies: u64, entering: bool) {
        let book = &mut self.servers[server as usize];
        let is_config_type = usize::from(book.other) == t;
        let step = |v: &mut u32| if entering { *v += 1 } else { *v -= 1 };
        step(&mut book.jobs);
        if t == 1 {
            step(&mut book.type_one);
        } else if entering {
            book.other_used += occupies;
        } else {
            book.other_used -= occupies;
        }
        if is_config_type {
            step(&mut book.config_type);
        }
        if book.jobs == 0 {
            // An empty server renews before it takes its next job.
            book.active = None;
            book.other = NO_TYPE;
        }
    }
}
