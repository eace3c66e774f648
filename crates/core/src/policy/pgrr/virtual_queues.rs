//! Virtual queues (SPEC 2.2.4) and the per-server bookkeeping VQS and VQS-BF share.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use rand::RngExt;

use crate::index::FifoIndex;
use crate::model::{Config, JobId, Partition, ServerId, WaitingJob, partition::reduced_configs};
use crate::policy::spec::Ties;
use crate::rng::StreamRng;

/// One FIFO queue per partition type, holding waiting jobs by id.
///
/// Each queue is indexed in arrival order (with "earliest job no larger than c", for the VQS
/// walk) and by size (largest fitting job, for VQS-BF). Q_j counts waiting jobs only (RES-7).
#[derive(Debug, Clone)]
pub(crate) struct VirtualQueues {
    partition: Partition,
    fifo: Vec<FifoIndex<JobId>>,
    by_size: Vec<BTreeSet<(u64, Reverse<JobId>)>>,
    next_position: Vec<u64>,
    /// Queue and position of every waiting job.
    place: BTreeMap<JobId, (usize, u64)>,
    counts: Vec<u64>,
}

impl VirtualQueues {
    pub fn new(partition: Partition) -> Self {
        let n = partition.types();
        Self {
            partition,
            fifo: vec![FifoIndex::new(); n],
            by_size: vec![BTreeSet::new(); n],
            next_position: vec![0; n],
            place: BTreeMap::new(),
            counts: vec![0; n],
        }
    }

    /// Q: waiting jobs per type.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    pub fn len(&self, t: usize) -> u64 {
        self.counts[t]
    }

    pub fn push(&mut self, job: &WaitingJob) {
        let t = self.partition.type_of(job.size.primary());
        let pos = self.next_position[t];
        self.next_position[t] += 1;
        let size = job.occupies.primary();
        self.fifo[t].push(pos, size, job.id);
        self.by_size[t].insert((size, Reverse(job.id)));
        self.place.insert(job.id, (t, pos));
        self.counts[t] += 1;
    }

    pub fn remove(&mut self, id: JobId) {
        let (t, pos) = self.place.remove(&id).expect("job is in a virtual queue");
        let (size, _) = self.fifo[t].remove(pos).expect("position is live");
        self.by_size[t].remove(&(size, Reverse(id)));
        self.counts[t] -= 1;
    }

    /// The oldest job of queue `t` and its position.
    pub fn head(&self, t: usize) -> Option<(u64, u64, JobId)> {
        self.fifo[t].head()
    }

    /// The earliest job of queue `t` at position ≥ `from` that takes at most `room`.
    pub fn first_fitting(&self, t: usize, from: u64, room: u64) -> Option<(u64, u64, JobId)> {
        self.fifo[t].first_at_most(from, room)
    }

    /// The largest job of queue `t` that takes at most `room`; earliest arrival on ties.
    pub fn largest_fitting(&self, t: usize, room: u64) -> Option<JobId> {
        self.by_size[t].range(..=(room, Reverse(0))).next_back().map(|&(_, Reverse(id))| id)
    }

    /// The smallest space taken by a job of queue `t`.
    pub fn min_size(&self, t: usize) -> Option<u64> {
        self.by_size[t].first().map(|&(s, _)| s)
    }
}

/// The max-weight choice over K_RED (SPEC 2.2.6) and the job types inside each server.
#[derive(Debug, Clone)]
pub(crate) struct Configurations {
    pub partition: Partition,
    pub configs: Vec<Config>,
    ties: Ties,
    /// Active configuration of each server, set when an empty server renews.
    pub active: Vec<Option<u16>>,
    /// Jobs of each type in each server: `types · server + type`.
    in_server: Vec<u32>,
    /// Space taken by jobs of types other than 1, per server.
    pub other_used: Vec<u64>,
    /// Jobs in each server.
    jobs: Vec<u32>,
}

impl Configurations {
    pub fn new(partition: Partition, servers: usize, ties: Ties) -> Self {
        Self {
            partition,
            configs: reduced_configs(partition.j()),
            ties,
            active: vec![None; servers],
            in_server: vec![0; servers * partition.types()],
            other_used: vec![0; servers],
            jobs: vec![0; servers],
        }
    }

    /// argmax over K_RED of ⟨k, Q⟩: the first maximiser in canonical order, or a uniform one
    /// among the maximisers (RES-8).
    pub fn argmax(&self, weights: &[u64], rng: &mut StreamRng) -> u16 {
        let best = self.configs.iter().map(|k| k.weight(weights)).max().expect("K_RED is not empty");
        let mut maximisers = self.configs.iter().enumerate().filter(|(_, k)| k.weight(weights) == best);
        match self.ties {
            Ties::First => maximisers.next().expect("a maximiser exists").0 as u16,
            Ties::Random => {
                let all: Vec<usize> = maximisers.map(|(i, _)| i).collect();
                all[rng.random_range(0..all.len() as u64) as usize] as u16
            }
        }
    }

    /// The maximisers of ⟨k, Q⟩ for `weights`.
    pub fn maximisers<'s>(&'s self, weights: &'s [u64]) -> impl Iterator<Item = &'s Config> + 's {
        let best = self.configs.iter().map(|k| k.weight(weights)).max().unwrap_or(0);
        self.configs.iter().filter(move |k| k.weight(weights) == best)
    }

    pub fn is_empty(&self, server: ServerId) -> bool {
        self.jobs[server as usize] == 0
    }

    pub fn count(&self, server: ServerId, t: usize) -> u32 {
        self.in_server[server as usize * self.partition.types() + t]
    }

    /// Records a job of size `size` (occupying `occupies`) entering (+1) or leaving (−1)
    /// `server`.
    pub fn record(&mut self, server: ServerId, size: u64, occupies: u64, entering: bool) {
        let t = self.partition.type_of(size);
        let at = server as usize * self.partition.types() + t;
        let other = &mut self.other_used[server as usize];
        if entering {
            self.jobs[server as usize] += 1;
            self.in_server[at] += 1;
            if t != 1 {
                *other += occupies;
            }
        } else {
            self.jobs[server as usize] -= 1;
            if self.jobs[server as usize] == 0 {
                // An empty server renews before it takes its next job.
                self.active[server as usize] = None;
            }
            self.in_server[at] -= 1;
            if t != 1 {
                *other -= occupies;
            }
        }
    }
}
