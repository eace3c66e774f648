//! Hand-built states for policy unit tests: place running jobs and queue waiting jobs
//! directly, then run one scheduling phase.

use super::*;
use crate::models::pgrr::state::RunningJob;
use crate::rng::{Stream, StreamRng, stream};

pub(crate) struct Harness {
    state: SlotState,
    last: Option<Placement>,
    rng: StreamRng,
    log: crate::decisions::DecisionLog,
    departed: Vec<ServerId>,
    arrivals: Vec<WaitingJob>,
    next_job: JobId,
}

impl Harness {
    pub fn new(servers: usize, capacity: u64) -> Self {
        let state = SlotState::new(servers, capacity, Partition::new(2, capacity), 100.0, 0);
        Self {
            state,
            last: None,
            rng: stream(0, Stream::Policy),
            log: crate::decisions::DecisionLog::new(16),
            departed: Vec::new(),
            arrivals: Vec::new(),
            next_job: 0,
        }
    }

    /// A job of `size` running on `server` (for stateless policies).
    pub fn running(&mut self, server: ServerId, size: u64) {
        let r = Resources::scalar(size);
        let job = RunningJob { id: self.next_job, arrival: 0, start: 0, departure: u64::MAX, size: r, occupies: r };
        self.next_job += 1;
        self.state.cluster.place(server, job);
    }

    /// A waiting job of `size`, announced to `policy` and listed as this slot's arrival.
    pub fn waiting(&mut self, size: u64, policy: &mut dyn PgrrPolicy) -> JobId {
        let id = self.next_job;
        self.next_job += 1;
        let job = WaitingJob {
            id,
            arrival: 0,
            size: Resources::scalar(size),
            occupies: Resources::scalar(policy.occupies(size)),
            service: 1_000,
        };
        self.state.queue.push(job);
        self.state.waiting_by_class[self.state.classes.type_of(size)] += 1;
        policy.on_arrival(&job);
        self.arrivals.push(job);
        id
    }

    /// Marks `server` as having had a departure this slot.
    pub fn departed(&mut self, server: ServerId) {
        self.departed.push(server);
        self.departed.sort_unstable();
    }

    /// Servers `0..active` take jobs, the others drain (RES-95).
    pub fn set_active(&mut self, active: usize) {
        self.state.cluster.set_active(active);
    }

    /// Forgets this slot's arrivals (they become old waiting jobs).
    pub fn next_slot(&mut self) {
        self.arrivals.clear();
        self.departed.clear();
    }

    pub fn context(&mut self) -> PgrrContext<'_> {
        PgrrContext {
            slot: 1,
            departed: &self.departed,
            arrivals: &self.arrivals,
            state: &mut self.state,
            last: &mut self.last,
            rng: &mut self.rng,
            log: &mut self.log,
        }
    }

    pub fn schedule(&mut self, policy: &mut dyn PgrrPolicy) -> Result<(), EngineError> {
        let mut ctx = self.context();
        policy.schedule(&mut ctx)
    }

    pub fn server_of(&self, job: JobId) -> Option<ServerId> {
        (0..self.state.cluster.len() as ServerId).find(|&s| self.state.cluster.jobs_on(s).any(|j| j.id == job))
    }

    pub fn waiting_ids(&self) -> Vec<JobId> {
        self.state.queue.iter().map(|j| j.id).collect()
    }

    pub fn cluster(&self) -> &Cluster {
        &self.state.cluster
    }
}
