//! The servers of a one-resource slotted cluster and the indexes over them.

use std::cell::RefCell;

use super::running::{RunKey, RunningTable};
use super::{RunningJob, Server, ServerId};
use crate::index::{GroupedIds, MaxTree, prefetch};

/// L identical one-resource servers with two indexes over their residual capacity:
///
/// * servers grouped by residual ([`GroupedIds`]): best fit (smallest residual that still
///   fits, lowest index on ties, SPEC 2.2.2) is one range query over the distinct residuals;
/// * a max segment tree by index: first fit from any position (FIFO-FF, "the next server that
///   could take anything at all", the next empty server) is one descent.
///
/// Both are brought up to date when they are asked, not when a server changes: each keeps the
/// list of servers changed since its last query and re-enters only those. A server that loses
/// a job and takes new ones between two queries (a departure, then the jobs that refill it)
/// is re-entered once, and an index no query needs is never built.
///
/// The server count may change while a run plays (RES-95): servers `0..active` take jobs; the
/// others drain. A draining server offers no room (its capacity is what its jobs hold, see
/// [`Server`]), so both indexes see it full after one re-entry, O(log n), and no query ever
/// returns it; it is gone once it empties. The cluster is built with the most servers the run
/// will have, the ones not yet added closed and empty.
#[derive(Debug, Clone)]
pub struct Cluster {
    servers: Vec<Server>,
    /// The records of the jobs in service; servers keep their keys.
    running: RunningTable,
    capacity: u64,
    by_residual: RefCell<Lazy<ResidualOrder>>,
    residuals: RefCell<Lazy<MaxTree>>,
    used_total: u128,
    /// Servers `0..active` take jobs (all of them unless the count changed, RES-95).
    active: usize,
    /// Servers at or past `active` that still hold jobs.
    draining: usize,
}

/// An index over the servers' residuals, rebuilt or updated on demand.
trait ResidualIndex {
    /// The index of servers with these residuals, each at most `capacity`.
    fn build(residuals: &[u64], capacity: u64) -> Self;
    fn update(&mut self, server: ServerId, residual: u64);
    /// A hint that `server` will soon be re-entered under `residual` ([`prefetch()`]).
    fn prefetch(&self, _server: ServerId, _residual: u64) {}
}

/// Servers by residual, with the residual each server was entered under.
#[derive(Debug, Clone)]
struct ResidualOrder {
    groups: GroupedIds,
    entered: Vec<u64>,
}

impl ResidualIndex for ResidualOrder {
    fn build(residuals: &[u64], capacity: u64) -> Self {
        let mut groups = GroupedIds::new(residuals.len(), capacity);
        for (s, &r) in residuals.iter().enumerate() {
            groups.insert(r, s as ServerId);
        }
        Self { groups, entered: residuals.to_vec() }
    }

    fn update(&mut self, server: ServerId, residual: u64) {
        let old = std::mem::replace(&mut self.entered[server as usize], residual);
        if old != residual {
            self.groups.remove(old, server);
            self.groups.insert(residual, server);
        }
    }

    fn prefetch(&self, server: ServerId, residual: u64) {
        self.groups.prefetch(self.entered[server as usize]);
        self.groups.prefetch(residual);
    }
}

impl ResidualIndex for MaxTree {
    fn build(residuals: &[u64], _: u64) -> Self {
        let mut tree = MaxTree::new(residuals.len());
        for (s, &r) in residuals.iter().enumerate() {
            tree.set(s, r);
        }
        tree
    }

    fn update(&mut self, server: ServerId, residual: u64) {
        self.set(server as usize, residual);
    }
}

/// How many re-entries ahead [`Lazy::get`] asks for the cache lines of the next ones.
const PREFETCH_AHEAD: usize = 8;

/// An index built on first use, plus the servers changed since it was last brought up to date.
#[derive(Debug, Clone)]
struct Lazy<I> {
    index: Option<I>,
    stale: Vec<ServerId>,
    is_stale: Vec<bool>,
    /// Every server's capacity, which bounds the residuals the index is built over.
    capacity: u64,
}

impl<I: ResidualIndex> Lazy<I> {
    fn new(servers: usize, capacity: u64) -> Self {
        Self { index: None, stale: Vec::new(), is_stale: vec![false; servers], capacity }
    }

    fn touch(&mut self, server: ServerId) {
        if self.index.is_some() && !std::mem::replace(&mut self.is_stale[server as usize], true) {
            self.stale.push(server);
        }
    }

    /// The index, up to date with `servers`.
    fn get(&mut self, servers: &[Server]) -> &I {
        if let Some(index) = &mut self.index {
            // After a slot's departures the list is long (about one server per job at 10^4
            // servers) and each re-entry misses the cache where the server's old and new
            // residuals are kept: ask for those of the servers a few places ahead.
            for k in 0..self.stale.len() {
                if let Some(&ahead) = self.stale.get(k + PREFETCH_AHEAD) {
                    index.prefetch(ahead, servers[ahead as usize].residual());
                }
                let s = self.stale[k];
                self.is_stale[s as usize] = false;
                index.update(s, servers[s as usize].residual());
            }
            self.stale.clear();
        }
        self.index.get_or_insert_with(|| {
            let residuals: Vec<u64> = servers.iter().map(Server::residual).collect();
            I::build(&residuals, self.capacity)
        })
    }
}

impl Cluster {
    pub fn new(servers: usize, capacity: u64) -> Self {
        Self {
            servers: vec![Server::new(capacity); servers],
            running: RunningTable::default(),
            capacity,
            by_residual: RefCell::new(Lazy::new(servers, capacity)),
            residuals: RefCell::new(Lazy::new(servers, capacity)),
            used_total: 0,
            active: servers,
            draining: 0,
        }
    }

    /// The servers that take jobs: `0..active()`.
    pub fn active(&self) -> usize {
        self.active
    }

    /// How many servers are in the cluster now: those that take jobs and those that drain.
    pub fn present(&self) -> usize {
        self.active + self.draining
    }

    /// Whether `id` drains or is gone: it takes no job (RES-95).
    pub fn is_closed(&self, id: ServerId) -> bool {
        id as usize >= self.active
    }

    /// Makes servers `0..active` take jobs and the others drain (RES-95): a server past
    /// `active` stops offering room and leaves once its jobs are done; a draining server below
    /// `active` takes jobs again beside the ones it holds; one that had left comes back empty.
    /// O(log n) per server whose state changes.
    pub(crate) fn set_active(&mut self, active: usize) {
        assert!(active <= self.servers.len(), "at most {} servers", self.servers.len());
        for s in active..self.active {
            self.servers[s].close();
            if !self.servers[s].is_empty() {
                self.draining += 1;
            }
            self.touch(s as ServerId);
        }
        for s in self.active..active {
            if !self.servers[s].is_empty() {
                self.draining -= 1;
            }
            self.servers[s].open(self.capacity);
            self.touch(s as ServerId);
        }
        self.active = active;
    }

    pub fn len(&self) -> usize {
        self.servers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.servers.is_empty()
    }

    /// Capacity of every server, in units.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    pub fn servers(&self) -> &[Server] {
        &self.servers
    }

    pub fn server(&self, id: ServerId) -> &Server {
        &self.servers[id as usize]
    }

    /// The jobs in service on server `id`, in the order they started.
    pub fn jobs_on(&self, id: ServerId) -> impl ExactSizeIterator<Item = RunningJob> + '_ {
        self.servers[id as usize].keys().iter().map(|&key| self.running.get(key))
    }

    pub fn residual(&self, id: ServerId) -> u64 {
        self.servers[id as usize].residual()
    }

    /// Sum of the space in use over all servers.
    pub fn used_total(&self) -> u128 {
        self.used_total
    }

    /// The largest residual of any server, from the first-fit tree (a first-fit policy keeps
    /// that tree anyway).
    pub fn max_residual(&self) -> u64 {
        self.residuals.borrow_mut().get(&self.servers).max()
    }

    /// The largest residual of any server, as [`Cluster::max_residual`], from the residual
    /// order best fit keeps: a best-fit policy that asks it keeps one index up to date instead
    /// of two. Re-entering every changed server in the first-fit tree as well was about a tenth
    /// of BF-J's time (issue 35).
    pub fn max_residual_by_fit(&self) -> u64 {
        let mut order = self.by_residual.borrow_mut();
        order.get(&self.servers).groups.largest_key().unwrap_or(0)
    }

    /// Best fit: the server with the smallest residual ≥ `size`; lowest index on ties.
    pub fn best_fit(&self, size: u64) -> Option<ServerId> {
        let mut order = self.by_residual.borrow_mut();
        order.get(&self.servers).groups.first_at_least(size).map(|(_, s)| s)
    }

    /// A hint that [`Cluster::best_fit`] will soon be asked about `size`: the residual index's
    /// bucket where that search starts ([`prefetch()`]). Nothing if the index is not built yet.
    #[inline]
    pub fn prefetch_best_fit(&self, size: u64) {
        if let Some(order) = &self.by_residual.borrow().index {
            order.groups.prefetch(size);
        }
    }

    /// Best fit and its runner-up (the next server in the same order), each with its residual:
    /// what the page's inspector shows of a best-fit decision.
    pub fn best_two_fits(&self, size: u64) -> [Option<(u64, ServerId)>; 2] {
        let mut order = self.by_residual.borrow_mut();
        order.get(&self.servers).groups.first_two_at_least(size)
    }

    /// First fit: the lowest-index server at or after `from` with residual ≥ `size`.
    pub fn first_fit(&self, from: ServerId, size: u64) -> Option<ServerId> {
        self.residuals.borrow_mut().get(&self.servers).first_at_least(from as usize, size).map(|s| s as ServerId)
    }

    /// The lowest-index empty server at or after `from`.
    pub fn next_empty(&self, from: ServerId) -> Option<ServerId> {
        self.first_fit(from, self.capacity)
    }

    /// A hint that `server`'s record will be read soon ([`prefetch()`]).
    #[inline]
    pub(crate) fn prefetch_server(&self, server: ServerId) {
        prefetch(&self.servers[server as usize]);
    }

    /// A hint that `server`'s list of jobs will be read soon; reads the server's record.
    #[inline]
    pub(crate) fn prefetch_jobs(&self, server: ServerId) {
        self.servers[server as usize].prefetch_jobs();
    }

    /// How many jobs are in service on all servers: the records of the table, which the
    /// invariant checks compare with the servers' lists.
    pub fn running_len(&self) -> usize {
        self.running.len()
    }

    /// A hint that the record of the running job under `key` will be read soon.
    #[inline]
    pub(crate) fn prefetch_running(&self, key: RunKey) {
        self.running.prefetch(key);
    }

    /// Starts `job` on `server`; returns the key the departure calendar keeps for it.
    pub(crate) fn place(&mut self, server: ServerId, job: RunningJob) -> RunKey {
        let key = self.running.insert(&job);
        let space = job.occupies.primary();
        self.servers[server as usize].push(key, space);
        self.touch(server);
        self.used_total += space as u128;
        key
    }

    /// Ends the job under `key`, which runs on `server`.
    pub(crate) fn remove(&mut self, server: ServerId, key: RunKey) -> RunningJob {
        let job = self.running.remove(key);
        let space = job.occupies.primary();
        let here = self.servers[server as usize].remove(key, space);
        assert!(here, "departing job {} is on server {server}", job.id);
        // The one comparison a run pays for server-count changes (RES-95).
        if server as usize >= self.active {
            self.drained(server, space);
        }
        self.touch(server);
        self.used_total -= space as u128;
        job
    }

    /// A job of `space` left draining `server`: its capacity follows, and it leaves when empty.
    #[cold]
    fn drained(&mut self, server: ServerId, space: u64) {
        let s = &mut self.servers[server as usize];
        s.shrink(space);
        if s.is_empty() {
            self.draining -= 1;
        }
    }

    fn touch(&mut self, server: ServerId) {
        self.by_residual.get_mut().touch(server);
        self.residuals.get_mut().touch(server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::pgrr::state::JobId;
    use crate::resources::Resources;

    fn job(id: JobId, size: u64) -> RunningJob {
        let r = Resources::scalar(size);
        RunningJob { id, arrival: 0, start: 0, departure: 1, size: r, occupies: r }
    }

    /// SPEC 6.1 item 4, BF-J half: a 0.3 job with residuals (0.35, 0.5, 0.31) goes to the
    /// server with 0.31.
    #[test]
    fn best_fit_takes_the_smallest_residual_that_fits() {
        let mut c = Cluster::new(3, 100);
        c.place(0, job(0, 65));
        let key = c.place(1, job(1, 50));
        c.place(2, job(2, 69));
        assert_eq!(c.best_fit(30), Some(2));
        assert_eq!(c.best_fit(32), Some(0));
        assert_eq!(c.best_fit(51), None);
        assert_eq!(c.first_fit(0, 31), Some(0));
        assert_eq!(c.first_fit(1, 36), Some(1));
        assert_eq!(c.max_residual(), 50);
        assert_eq!(c.max_residual_by_fit(), 50);
        assert_eq!(c.next_empty(0), None);
        assert_eq!(c.remove(1, key).id, 1);
        assert_eq!(c.next_empty(0), Some(1));
        assert_eq!(c.jobs_on(0).map(|j| j.id).collect::<Vec<_>>(), vec![0]);
        assert_eq!(c.used_total(), 134);
    }

    /// The drawing stacks a server's jobs in the order they started; a departure from the
    /// middle keeps the others' order.
    #[test]
    fn a_server_lists_its_jobs_in_start_order_after_a_departure() {
        let mut c = Cluster::new(2, 100);
        c.place(1, job(4, 10));
        let middle = c.place(1, job(2, 20));
        c.place(0, job(3, 5));
        c.place(1, job(6, 30));
        c.remove(1, middle);
        assert_eq!(c.jobs_on(1).map(|j| j.id).collect::<Vec<_>>(), vec![4, 6]);
        assert_eq!(c.server(1).job_count(), 2);
        assert_eq!(c.residual(1), 60);
        assert_eq!(c.running_len(), 3);
    }

    /// RES-95: a draining server leaves both indexes at once, keeps its jobs, and leaves when
    /// they are done; raising the count again opens it beside what it holds.
    #[test]
    fn a_draining_server_is_never_offered_and_leaves_when_empty() {
        let mut c = Cluster::new(3, 100);
        assert_eq!(c.best_fit(10), Some(0), "builds the indexes");
        assert_eq!(c.first_fit(0, 10), Some(0));
        c.place(0, job(0, 90));
        let k1 = c.place(2, job(1, 60));
        c.set_active(2);
        assert_eq!((c.active(), c.present()), (2, 3));
        assert!(c.is_closed(2) && !c.is_closed(1));
        assert_eq!(c.best_fit(10), Some(0));
        assert_eq!(c.best_fit(11), Some(1));
        assert_eq!(c.first_fit(2, 1), None, "server 2 drains");
        assert_eq!(c.max_residual(), 100);
        assert!(!c.server(2).fits(1));
        c.remove(2, k1);
        assert_eq!((c.present(), c.residual(2), c.server(2).is_empty()), (2, 0, true));
        assert_eq!(c.next_empty(0), Some(1));
        c.set_active(3);
        assert_eq!((c.present(), c.next_empty(2)), (3, Some(2)), "back, empty");
        let k2 = c.place(2, job(2, 30));
        c.set_active(1);
        assert_eq!(c.present(), 2, "server 1 was empty: gone at once; server 2 drains");
        c.set_active(3);
        assert_eq!((c.present(), c.residual(2), c.best_fit(70)), (3, 70, Some(2)), "a drain cancelled");
        c.remove(2, k2);
        assert_eq!(c.residual(2), 100);
    }

    #[test]
    fn ties_go_to_the_lowest_index() {
        let c = Cluster::new(4, 10);
        assert_eq!(c.best_fit(3), Some(0));
        assert_eq!(c.next_empty(2), Some(2));
    }
}
