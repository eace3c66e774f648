//! Routing an arriving job to a server's own queue (GH-RA §3.2.2): join the shortest queue
//! of its type, or the shorter of two sampled ones (power of two), among the servers that
//! could hold one job of the type when empty (RES-17). Ties are broken uniformly at random
//! and the two sampled servers are distinct (RES-18); `alg2-jsq:ties=lowest` takes the
//! lowest-numbered of the tied servers instead, a rule a script can state exactly (RES-70).
//!
//! Algorithm 2 and the MaxWeight baselines (RES-19) share it. Each type keeps its eligible
//! servers in [`LengthBuckets`], so a routing decision costs O(1) however many servers there
//! are.

use crate::index::{LengthBuckets, MinTree};
use crate::models::ghra::GhraState;
use crate::rng::StreamRng;
use crate::workload::sample;

/// How an arrival picks among the eligible servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Routing {
    /// Join the shortest queue of the type, a uniformly random one on ties.
    Jsq,
    /// Join the shortest queue of the type, the lowest-numbered server on ties.
    JsqLowest,
    /// Sample two distinct eligible servers, join the shorter.
    PowerOfTwo,
}

/// Per-type queue lengths of the eligible servers.
#[derive(Debug, Clone)]
pub struct Router {
    routing: Routing,
    /// Eligible servers of each type.
    eligible: Vec<Vec<u32>>,
    /// `member[j][ℓ]`: server ℓ's position in `eligible[j]` (u32::MAX if not eligible).
    member: Vec<Vec<u32>>,
    lengths: Vec<LengthBuckets>,
    /// With [`Routing::JsqLowest`], each type's queue lengths by position in `eligible`
    /// (ascending server numbers), so the lowest-numbered shortest is one O(log n) search.
    by_number: Vec<MinTree>,
}

impl Router {
    /// Every type must fit some server when empty (the scenario checks it). Only the servers
    /// that take jobs are eligible (RES-97), with the queue lengths they have now: built again
    /// when the fleet changes (O(L·J) and the jobs waiting, at a change only).
    pub fn new(routing: Routing, state: &GhraState) -> Self {
        let eligible: Vec<Vec<u32>> = (0..state.types())
            .map(|j| (0..state.active()).filter(|&l| state.fits_empty(j, l)).map(|l| l as u32).collect())
            .collect();
        let member = eligible
            .iter()
            .map(|servers| {
                let mut m = vec![u32::MAX; state.servers()];
                for (i, &l) in servers.iter().enumerate() {
                    m[l as usize] = i as u32;
                }
                m
            })
            .collect();
        let lengths = eligible.iter().map(|s| LengthBuckets::new(s.len())).collect();
        let by_number = match routing {
            Routing::JsqLowest => eligible
                .iter()
                .map(|s| {
                    let mut tree = MinTree::new(s.len());
                    (0..s.len()).for_each(|m| tree.set(m, 0));
                    tree
                })
                .collect(),
            Routing::Jsq | Routing::PowerOfTwo => Vec::new(),
        };
        let mut router = Self { routing, eligible, member, lengths, by_number };
        for j in 0..state.types() {
            for m in 0..router.eligible[j].len() {
                let server = router.eligible[j][m];
                for _ in 0..state.queue_len(crate::models::ghra::QueueRef::Local { server, job_type: j as u16 }) {
                    router.count(j, m, 1);
                }
            }
        }
        router
    }

    /// Whether `server` may queue jobs of `job_type`.
    pub fn is_eligible(&self, job_type: usize, server: usize) -> bool {
        self.member[job_type][server] != u32::MAX
    }

    /// The servers that may queue jobs of `job_type`.
    pub fn eligible(&self, job_type: usize) -> &[u32] {
        &self.eligible[job_type]
    }

    /// Picks the server for an arriving job of `job_type` and counts the job in its queue;
    /// `why`, when given, says what the choice looked at (the page's inspector).
    pub fn route(&mut self, job_type: usize, rng: &mut StreamRng, why: Option<&mut String>) -> u32 {
        let lengths = &self.lengths[job_type];
        let pick = |rng: &mut StreamRng, n: usize| sample::uniform_int(rng, 0, n as u64 - 1) as usize;
        let member = match self.routing {
            Routing::Jsq => {
                let shortest = lengths.shortest();
                let member = shortest[if shortest.len() > 1 { pick(rng, shortest.len()) } else { 0 }] as usize;
                if let Some(why) = why {
                    *why = format!(
                        "JSQ: shortest queue {} among {} eligible servers, {} tied (one drawn at random)",
                        lengths.count(member),
                        lengths.len(),
                        shortest.len()
                    );
                }
                member
            }
            Routing::JsqLowest => {
                let tree = &self.by_number[job_type];
                let member = tree.first_at_most(0, tree.min()).expect("a type has an eligible server");
                if let Some(why) = why {
                    *why = format!(
                        "JSQ: shortest queue {} among {} eligible servers, {} tied (the lowest-numbered)",
                        lengths.count(member),
                        lengths.len(),
                        lengths.shortest().len()
                    );
                }
                member
            }
            Routing::PowerOfTwo => {
                let n = lengths.len();
                if n == 1 {
                    0
                } else {
                    let a = pick(rng, n);
                    // A uniform second server among the other n − 1.
                    let b = (a + 1 + pick(rng, n - 1)) % n;
                    if let Some(why) = why {
                        let server = |m: usize| self.eligible[job_type][m] + 1;
                        *why = format!(
                            "power of two: sampled server {} (queue {}) and server {} (queue {}), joins the shorter",
                            server(a),
                            lengths.count(a),
                            server(b),
                            lengths.count(b)
                        );
                    }
                    match lengths.count(a).cmp(&lengths.count(b)) {
                        std::cmp::Ordering::Less => a,
                        std::cmp::Ordering::Greater => b,
                        std::cmp::Ordering::Equal => [a, b][pick(rng, 2)],
                    }
                }
            }
        };
        self.count(job_type, member, 1);
        self.eligible[job_type][member]
    }

    /// Moves the queue length of `eligible[job_type][member]` by `by` (±1).
    fn count(&mut self, job_type: usize, member: usize, by: i8) {
        let lengths = &mut self.lengths[job_type];
        if by > 0 {
            lengths.increment(member)
        } else {
            lengths.decrement(member)
        }
        if let Some(tree) = self.by_number.get_mut(job_type) {
            tree.set(member, u64::from(lengths.count(member)));
        }
    }

    /// The eligible servers whose `job_type` queue is the shortest, in the order JSQ draws
    /// among them (a scripted routing sees the same list, so a uniform pick is JSQ itself).
    pub fn shortest(&self, job_type: usize) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.lengths[job_type].shortest().iter().map(move |&m| self.eligible[job_type][m as usize])
    }

    /// A job of `job_type` joined `server`'s queue by a choice made elsewhere (a script).
    pub fn joined(&mut self, job_type: usize, server: u32) {
        let member = self.member[job_type][server as usize];
        debug_assert_ne!(member, u32::MAX, "server {server} does not queue type {job_type}");
        self.count(job_type, member as usize, 1);
    }

    /// A job of `job_type` left `server`'s queue (it started).
    pub fn left(&mut self, job_type: usize, server: u32) {
        let member = self.member[job_type][server as usize];
        debug_assert_ne!(member, u32::MAX, "server {server} does not queue type {job_type}");
        self.count(job_type, member as usize, -1);
    }
}
