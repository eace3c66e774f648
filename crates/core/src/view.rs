//! What a live display shows of a running simulation, in terms every model shares: servers
//! filled by blocks of jobs, the waiting queue as bins, the last placement and why it
//! happened, and the metric series.
//!
//! The browser draws from these and nothing else, so a new model plugs into the page by
//! implementing [`LiveRun`]; the page never looks inside an engine.

use crate::EngineError;
use crate::metrics::SeriesPoint;
use crate::model::MAX_RESOURCES;

/// A running simulation as the page steps and reads it.
pub trait LiveRun {
    /// Runs `units` more time units (slots in slotted time).
    fn run(&mut self, units: u64) -> Result<(), EngineError>;
    /// Time units simulated so far.
    fn time(&self) -> u64;
    /// Jobs waiting now.
    fn queue_len(&self) -> u64;
    /// Time-average of the queue length after the warm-up.
    fn mean_queue(&self) -> f64;
    /// Time-average of the occupied fraction of the total capacity after the warm-up.
    fn mean_occupancy(&self) -> f64;
    /// Time units measured so far (after the warm-up).
    fn measured(&self) -> u64;
    /// Jobs generated so far (the same for every policy on the same scenario and seed).
    fn arrivals(&self) -> u64;
    /// Q(t) as interval means.
    fn queue_series(&self) -> &[SeriesPoint];
    /// Occupied fraction of the total capacity as interval means.
    fn occupancy_series(&self) -> &[SeriesPoint];
    /// Names of the queue bins, in bin order (virtual queues, or size classes).
    fn bin_labels(&self) -> Vec<String>;
    /// Waiting jobs of bin `bin` as interval means.
    fn bin_series(&self, bin: usize) -> &[SeriesPoint];
    /// The picture of this moment. Without `detail`, servers carry their fill but no blocks
    /// (what a compact view of many servers needs, at a fraction of the cost).
    fn view(&self, detail: bool) -> ClusterView;
    /// The mean per-job time of the measured jobs, where the model measures one
    /// ([`crate::scenario::Scenario::job_time`] says which): the response time of the
    /// multiserver-job model (weighted by the nominal class mix, SPEC RES-45), the delay until
    /// service of the VM model.
    fn mean_job_time(&self) -> Option<f64> {
        None
    }
    /// The running mean per-job time over time (empty where the model has none).
    fn job_time_series(&self) -> &[SeriesPoint] {
        &[]
    }
    /// The running mean per-job time of the jobs of bin `bin` (a job class), where the model
    /// measures it per class.
    fn bin_job_time_series(&self, _bin: usize) -> &[SeriesPoint] {
        &[]
    }
    /// n(t), jobs waiting or in service, where the model's figures plot it (the
    /// multiserver-job model); empty otherwise.
    fn in_system_series(&self) -> &[SeriesPoint] {
        &[]
    }
    /// The normalised reward after the warm-up: the time average of R(t)/L, R(t) = Σ_j u_j
    /// Y_j(t), where the model earns rewards (PG-AS).
    fn mean_reward(&self) -> Option<f64> {
        None
    }
    /// R(t)/L as interval means (empty where the model earns no reward).
    fn reward_series(&self) -> &[SeriesPoint] {
        &[]
    }
}

/// One moment of a cluster.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClusterView {
    pub servers: Vec<ServerView>,
    /// The resources drawn as one bar each per server (GH-RA: memory, CPU, storage); empty
    /// for one-resource models, which draw a single unnamed bar.
    pub resources: Vec<&'static str>,
    /// A line of live readings under the servers, where the policy has some (GH-RA: the
    /// rates of its Poisson clocks).
    pub readout: Option<String>,
    /// What the bins are: `Queues` for policies that keep virtual queues, `Sizes` when the
    /// bins are only a histogram of the waiting jobs by size class.
    pub bins_kind: BinsKind,
    /// Waiting jobs per bin (jobs in service, for [`BinsKind::InService`]), in the order of
    /// [`LiveRun::bin_labels`].
    pub bins: Vec<u64>,
    /// A short note under each bin where the model has one (PG-AS: the share of the type's
    /// jobs lost), in bin order; empty otherwise.
    pub bin_notes: Vec<String>,
    /// The most recent placement, with the reason for it.
    pub last: Option<Why>,
}

/// What the queue bins stand for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BinsKind {
    /// The policy's virtual queues (VQS, VQS-BF).
    Queues,
    /// A histogram of the single queue by size class.
    #[default]
    Sizes,
    /// The jobs in service per type, for a loss model that has no queue (PG-AS).
    InService,
}

/// One server: how full it is, and (in detail) the jobs filling it, in placement order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ServerView {
    /// Occupied fraction of the capacity, in [0, 1] (the fullest resource's, with several).
    pub fill: f32,
    pub blocks: Vec<Block>,
    /// What the server runs, if the policy says (VQS: the configuration, e.g. "e1+2e5").
    pub label: Option<String>,
    /// Jobs waiting in this server's own queues, where queues are per server (GH-RA's
    /// distributed architecture).
    pub waiting: Option<u64>,
}

/// A running job as drawn: its share of each resource of the server (one for one-resource
/// models) and its bin (the colour).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Block {
    pub shares: [f32; MAX_RESOURCES],
    pub bin: u16,
    /// A placeholder job that holds capacity but is no real work (GH-RA's dummy jobs).
    pub dummy: bool,
    /// A deployed slot that holds no job (PG-AS: reserved for a future arrival of its type,
    /// `bin`); its shares are the room it reserves.
    pub reserved: bool,
    /// Whether this job is the last one placed.
    pub last: bool,
}

/// The most recent placement and a sentence on why the policy chose it.
#[derive(Debug, Clone, PartialEq)]
pub struct Why {
    pub time: u64,
    pub server: u32,
    /// Where the job came from, when the event moved a running job (PG-AS's migrations).
    pub from: Option<u32>,
    pub text: String,
}

impl Block {
    /// A job of a one-resource model taking `share` of its server.
    pub fn scalar(share: f32, bin: u16, last: bool) -> Self {
        let mut shares = [0.0; MAX_RESOURCES];
        shares[0] = share;
        Self { shares, bin, dummy: false, reserved: false, last }
    }

    /// Its share of the first (or only) resource.
    pub fn share(&self) -> f32 {
        self.shares[0]
    }
}
