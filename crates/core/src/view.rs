//! What a live display shows of a running simulation, in terms every model shares: servers
//! filled by blocks of jobs, the waiting queue as bins, the last placement and why it
//! happened, and the metric series.
//!
//! The browser draws from these and nothing else, so a new model plugs into the page by
//! implementing [`LiveRun`]; the page never looks inside an engine.

use serde::{Deserialize, Serialize};

use crate::EngineError;
use crate::decisions::DecisionLog;
use crate::metrics::{Judgement, SeriesPoint};
use crate::resources::MAX_RESOURCES;

/// Decisions a page's run keeps: the event log's length.
pub const PAGE_LOG: usize = 400;

/// How a run is watched: what it keeps besides its statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watch {
    /// Points per series before a series halves its resolution.
    pub max_points: usize,
    /// Whether the run keeps what only the page shows of the policy's reasoning (DRA's
    /// ranking of the servers). Batch runs (CLI, bench) leave it off and pay nothing for it;
    /// it never changes the trajectory.
    pub details: bool,
    /// Decisions kept with their reasons (the event log, the inspector); 0 keeps none, and
    /// policies then format no reasons at all.
    pub log: usize,
}

impl Watch {
    /// A run read only for its numbers.
    pub const fn batch(max_points: usize) -> Self {
        Self { max_points, details: false, log: 0 }
    }

    /// A run the page draws.
    pub const fn page(max_points: usize) -> Self {
        Self { max_points, details: true, log: PAGE_LOG }
    }

    /// The same, keeping the last `log` decisions.
    pub const fn with_log(self, log: usize) -> Self {
        Self { log, ..self }
    }
}

/// A running simulation as the page steps and reads it, whatever its model.
pub trait LiveRun: dyn_clone::DynClone {
    /// Runs `units` more time units (slots in slotted time).
    fn run(&mut self, units: u64) -> Result<(), EngineError>;
    /// Time units simulated so far (whole units: the exact time is [`LiveRun::now`]).
    fn time(&self) -> u64;
    /// The exact time reached: the slot in slotted time; in continuous time, where the run
    /// was last cut, which [`LiveRun::run_to`] may leave between two whole units.
    fn now(&self) -> f64 {
        self.time() as f64
    }
    /// In continuous time, when the next pending event falls (a stale clock tick included:
    /// running to it handles nothing). `None` in slotted time, whose step is the slot, and
    /// when nothing is pending.
    fn next_event(&self) -> Option<f64> {
        None
    }
    /// Handles every event up to `time` (inclusive) and brings the time averages up to it.
    /// Slotted runs run the whole slots up to `time`. Where a run is cut changes no bit of
    /// its trajectory, so the page may stop at any event and play on.
    fn run_to(&mut self, time: f64) -> Result<(), EngineError> {
        let target = if time.is_finite() { time.max(0.0).floor() as u64 } else { return Ok(()) };
        self.run(target.saturating_sub(self.time()))
    }
    /// The figures of this moment.
    fn readings(&self) -> Readings;
    /// The verdict on the queue as of the run's last look ([`crate::metrics::VerdictWatch`]
    /// on what the model's report judges: Q(t), or n(t) where the paper's figures plot it), the
    /// same the report states at the horizon; `None` in a model where nothing waits (a loss
    /// system).
    fn verdict(&self) -> Option<Judgement> {
        None
    }
    /// How the queue the verdict reads recovered from each change of the scenario made so far
    /// (RES-94), as the report gives it at the horizon; empty without changes, and in a model
    /// where nothing waits.
    fn recoveries(&self) -> &[crate::metrics::Recovery] {
        &[]
    }
    /// In a loss system, the reward and the rejections before the first change and from each
    /// change made so far on, up to now, as the report gives them at the horizon; empty without
    /// changes, and in a model with a queue (its recoveries say how a change went).
    fn stretches(&self) -> Vec<crate::metrics::Stretch> {
        Vec::new()
    }
    /// A measured quantity over time, as interval means (empty where the model has none).
    fn series(&self, metric: Metric) -> &[SeriesPoint];
    /// Names of the queue bins, in bin order (virtual queues, size classes, types).
    fn bin_labels(&self) -> Vec<String>;
    /// The picture of this moment. Without `detail`, servers carry their fill but no blocks
    /// (what a compact view of many servers needs, at a fraction of the cost).
    fn view(&self, detail: bool) -> ClusterView;
    /// What the paper's analysis predicts for this run, where one applies (SPEC 5.6).
    fn analysis(&self) -> Option<Analysis> {
        None
    }
    /// The last decisions, with what the policy looked at (empty unless the run was started
    /// with [`Watch::log`] or [`LiveRun::set_log`] turned the log on).
    fn decisions(&self) -> &DecisionLog;
    /// Keeps the last `capacity` decisions from now on (0: none), forgetting those kept. The
    /// page turns the log on only where it shows it: recording never changes the trajectory.
    fn set_log(&mut self, capacity: usize);
    /// Checks the model's invariants on the state (capacity, conservation of jobs), the ones
    /// the engine guarantees whatever the policy does: `packlab soak` and the fuzz targets ask.
    fn check_invariants(&self) -> Result<(), String>;
    /// The first whole moment at which a change can still be made (RES-96): the slot under
    /// way in slotted time; in continuous time the first whole moment after now (a change is
    /// made before the events of its moment, and those of now may be handled already).
    fn open_moment(&self) -> u64;
    /// Takes `changes` (the scenario's, checked by its `validate`) in place of those the run
    /// started with, from [`LiveRun::open_moment`] on: a knob moved while the run plays. The
    /// changes before that moment are made and must be the same, or this refuses naming them;
    /// the run so far is then the run of `changes` from the start, and it goes on as that run
    /// (bit for bit, `crates/core/tests/changes.rs`).
    fn set_changes(&mut self, changes: &crate::changes::Changes) -> Result<(), crate::ConfigError>;
}

// A run is a value: the page's timeline keeps clones of it as checkpoints and replays from
// them, which determinism makes exact.
dyn_clone::clone_trait_object!(LiveRun);

/// The figures of a run at one moment. Time averages are over the measured window (after the
/// warm-up) so far.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Readings {
    /// Jobs waiting now.
    pub queue_len: u64,
    /// Time average of the queue length.
    pub mean_queue: f64,
    /// Time average of the occupied fraction of the total capacity.
    pub mean_occupancy: f64,
    /// Time units measured so far.
    pub measured: u64,
    /// Jobs generated so far (the same for every policy on the same scenario and seed).
    pub arrivals: u64,
    /// Events handled so far: arrivals, starts and departures in slotted time; arrivals,
    /// departures and clock ticks in continuous time (what a benchmark divides by).
    pub events: u64,
    /// The mean per-job time of the measured jobs, where the model measures one
    /// ([`crate::model::ModelInfo::job_time`] says which) and has measured a job: the
    /// response time of MSFQ (weighted by the nominal class mix, SPEC RES-45), the delay until
    /// service of GH-RA.
    pub mean_job_time: Option<f64>,
    /// The time average of R(t)/L, R(t) = Σ_j u_j Y_j(t), where the model earns rewards (PG-AS).
    pub mean_reward: Option<f64>,
}

/// A quantity a run measures over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Q(t), jobs waiting.
    Queue,
    /// Occupied fraction of the total capacity.
    Occupancy,
    /// The running mean per-job time.
    JobTime,
    /// n(t), jobs waiting or in service (MSFQ's figures).
    InSystem,
    /// R(t)/L (PG-AS).
    Reward,
    /// Jobs of bin `b` (waiting, or in service in a loss model).
    Bin(usize),
    /// The running mean per-job time of bin `b`'s jobs (a class, a type).
    BinJobTime(usize),
}

/// What the paper's analysis says of a run: E\[T\] and, per bin, E\[T^(j)\].
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub mean_response: f64,
    /// In bin order.
    pub by_bin: Vec<f64>,
}

/// One moment of a cluster.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ClusterView {
    pub servers: Vec<ServerView>,
    /// The resources drawn as one bar each per server (GH-RA: memory, CPU, storage); empty
    /// for one-resource models, which draw a single unnamed bar.
    #[serde(deserialize_with = "crate::interned::static_strs")]
    pub resources: Vec<&'static str>,
    /// A line of live readings under the servers, where the policy has some (GH-RA: the
    /// rates of its Poisson clocks).
    pub readout: Option<String>,
    /// What the drawing's marks mean, where the model needs it said (hatched dummies, slot
    /// grids, the compact view's shades).
    pub legend: Option<String>,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum BinsKind {
    /// The policy's virtual queues (VQS, VQS-BF).
    Queues,
    /// A histogram of the single queue by size class.
    #[default]
    Sizes,
    /// The jobs in service per type, for a loss model that has no queue (PG-AS).
    InService,
}

impl BinsKind {
    /// What the bins count, in words (the server view's description for screen readers).
    pub fn words(self) -> &'static str {
        match self {
            Self::Queues => "virtual queues",
            Self::Sizes => "waiting jobs by size class",
            Self::InService => "jobs in service by type",
        }
    }
}

/// One server: how full it is, and (in detail) the jobs filling it, in placement order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
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
    /// The job's id, where the model draws jobs one by one (the inspector finds its
    /// decision by it).
    pub job: Option<u64>,
}

/// The most recent placement and a sentence on why the policy chose it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Why {
    /// When: the slot, or the exact time in continuous time.
    pub time: f64,
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
        Self { shares, bin, dummy: false, reserved: false, last, job: None }
    }

    /// The same, naming its job.
    pub fn with_job(self, job: u64) -> Self {
        Self { job: Some(job), ..self }
    }

    /// Its share of the first (or only) resource.
    pub fn share(&self) -> f32 {
        self.shares[0]
    }
}
