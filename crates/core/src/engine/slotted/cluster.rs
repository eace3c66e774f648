//! The servers of a one-resource slotted cluster and the indexes over them.

use std::collections::BTreeSet;

use crate::index::MaxTree;
use crate::model::{JobId, Resources, RunningJob, Server, ServerId};

/// L identical one-resource servers with two indexes over their residual capacity:
///
/// * an ordered set of `(residual, id)`: best fit (smallest residual that still fits, lowest
///   index on ties, SPEC 2.2.2) is one range query;
/// * a max segment tree by index: first fit from any position (FIFO-FF, and "the next server
///   that could take anything at all") is one descent.
#[derive(Debug, Clone)]
pub struct Cluster {
    servers: Vec<Server>,
    capacity: u64,
    by_residual: BTreeSet<(u64, ServerId)>,
    residuals: MaxTree,
    used_total: u128,
}

impl Cluster {
    pub fn new(servers: usize, capacity: u64) -> Self {
        let mut residuals = MaxTree::new(servers);
        for s in 0..servers {
            residuals.set(s, capacity);
        }
        Self {
            servers: vec![Server::new(Resources::scalar(capacity)); servers],
            capacity,
            by_residual: (0..servers as ServerId).map(|s| (capacity, s)).collect(),
            residuals,
            used_total: 0,
        }
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

    pub fn residual(&self, id: ServerId) -> u64 {
        self.servers[id as usize].residual()
    }

    /// Sum of the space in use over all servers.
    pub fn used_total(&self) -> u128 {
        self.used_total
    }

    /// The largest residual of any server.
    pub fn max_residual(&self) -> u64 {
        self.residuals.max()
    }

    /// Best fit: the server with the smallest residual ≥ `size`; lowest index on ties.
    pub fn best_fit(&self, size: u64) -> Option<ServerId> {
        self.by_residual.range((size, 0)..).next().map(|&(_, s)| s)
    }

    /// First fit: the lowest-index server at or after `from` with residual ≥ `size`.
    pub fn first_fit(&self, from: ServerId, size: u64) -> Option<ServerId> {
        self.residuals.first_at_least(from as usize, size).map(|s| s as ServerId)
    }

    /// The lowest-index empty server at or after `from`.
    pub fn next_empty(&self, from: ServerId) -> Option<ServerId> {
        self.by_residual.range((self.capacity, from)..).next().map(|&(_, s)| s)
    }

    pub(crate) fn place(&mut self, server: ServerId, job: RunningJob) {
        self.update(server, |s| s.push(job));
        self.used_total += job.occupies.primary() as u128;
    }

    pub(crate) fn remove(&mut self, server: ServerId, job: JobId) -> RunningJob {
        let mut removed = None;
        self.update(server, |s| removed = s.remove(job));
        let job = removed.expect("departing job is on its server");
        self.used_total -= job.occupies.primary() as u128;
        job
    }

    fn update(&mut self, server: ServerId, change: impl FnOnce(&mut Server)) {
        let s = &mut self.servers[server as usize];
        self.by_residual.remove(&(s.residual(), server));
        change(s);
        let residual = s.residual();
        self.by_residual.insert((residual, server));
        self.residuals.set(server as usize, residual);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        c.place(1, job(1, 50));
        c.place(2, job(2, 69));
        assert_eq!(c.best_fit(30), Some(2));
        assert_eq!(c.best_fit(32), Some(0));
        assert_eq!(c.best_fit(51), None);
        assert_eq!(c.first_fit(0, 31), Some(0));
        assert_eq!(c.first_fit(1, 36), Some(1));
        assert_eq!(c.max_residual(), 50);
        assert_eq!(c.next_empty(0), None);
        c.remove(1, 1);
        assert_eq!(c.next_empty(0), Some(1));
        assert_eq!(c.used_total(), 134);
    }

    #[test]
    fn ties_go_to_the_lowest_index() {
        let c = Cluster::new(4, 10);
        assert_eq!(c.best_fit(3), Some(0));
        assert_eq!(c.next_empty(2), Some(2));
    }
}
