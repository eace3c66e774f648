//! The small immutable picture of a race that the components render. The race session
//! ([`crate::play::session`]) publishes a new one each animation frame; components never touch the simulations themselves.

use std::rc::Rc;

use packlab_core::decisions::Decision;
use packlab_core::metrics::{Judgement, Recovery, Stretch};
use packlab_core::model::{JobTime, ModelInfo, RewardReference};
use packlab_core::scenario::Setup;
use packlab_core::view::ClusterView;
use packlab_plot::Point;
use serde::{Deserialize, Serialize};

/// Where the race is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Built, not started.
    Ready,
    Running,
    Paused,
    /// Reached the horizon.
    Finished,
    /// Stopped by an error, with the message to show.
    Failed(String),
}

/// One policy's numbers and picture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaneStats {
    /// The policy as the CLI and links write it (`vqs`, `bf-js`).
    pub policy: String,
    /// The policy as the papers and the chart name it (`VQS (J=2)`).
    pub label: String,
    /// Palette index, shared by the charts, the legend and the server view.
    pub color: usize,
    /// Slots simulated.
    pub slot: u64,
    /// Jobs waiting now.
    pub queue: u64,
    /// Time-average number of waiting jobs after the warm-up (the CLI's `mean_queue`).
    pub mean_queue: f64,
    /// The verdict on the queue as of the run's last look (the CLI's `verdict` at the
    /// horizon); `None` where nothing waits.
    pub verdict: Option<Judgement>,
    /// Time-average occupied fraction of the capacity after the warm-up.
    pub mean_occupancy: f64,
    /// Mean per-job time of the measured jobs (response time, delay: [`Snapshot::job_time`]),
    /// in models that measure one.
    pub mean_job_time: Option<f64>,
    /// The paper's analytic mean response time and its chart label, where one exists.
    pub analysis: Option<(f64, String)>,
    /// The running mean per-job time after the warm-up (empty without one).
    pub job_time_series: Rc<[Point]>,
    /// Slots measured so far (after the warm-up); 0 while warming up.
    pub measured: u64,
    pub arrivals: u64,
    /// Q(t) as interval means, at interval midpoints.
    pub queue_series: Rc<[Point]>,
    /// The normalised reward (time average of R(t)/L after the warm-up), in models with
    /// rewards (PG-AS).
    pub mean_reward: Option<f64>,
    /// R(t)/L as interval means at their midpoints (empty without rewards).
    pub reward_series: Rc<[Point]>,
    /// n(t), jobs waiting or running, where the model's figures plot it (else empty).
    pub in_system_series: Rc<[Point]>,
    /// Running average of the occupied fraction of the capacity since slot 0.
    pub occupancy_series: Rc<[Point]>,
    /// Servers, queue bins and the last placement.
    pub view: Rc<ClusterView>,
    /// The lane's last decisions with their reasons, oldest first (the event log).
    pub decisions: Rc<[Decision]>,
    /// Why this lane stopped while the others run on (its script failed), if it did.
    pub stopped: Option<String>,
    /// How its queue recovered from each change of the scenario made so far (RES-94).
    pub recovery: Rc<[Recovery]>,
    /// In a loss system, its reward and rejections before the first change and from each
    /// change made so far on.
    pub stretches: Rc<[Stretch]>,
}

/// Measured pace of the page while playing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Animation frames per second.
    pub fps: f64,
    /// Simulated slots per second (each lane).
    pub slots_per_second: f64,
    /// Wall time spent simulating per frame shown, in ms (on the page's thread: the frame
    /// budget in use, at full speed).
    pub simulating_ms: f64,
    /// Whether the race runs in the race worker (else on the page's thread).
    pub worker: bool,
    /// How many workers it runs in, one part of its lanes in each ([`crate::play::split`]).
    pub workers: u32,
}

/// Everything the page shows of a race at one moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Slots every lane has run.
    pub slot: u64,
    /// The exact time: `slot`, or in continuous time after a step, the time of the event.
    pub now: f64,
    /// The furthest time the race has reached, which the timeline covers.
    pub furthest: f64,
    /// Checkpoints the timeline keeps, and the bytes they hold.
    pub checkpoints: (usize, u64),
    pub horizon: u64,
    pub warmup: u64,
    /// The model racing: its time unit, whether jobs wait, what it measures per job and how
    /// its servers are drawn. Fixed for a race, so the set of charts does not change while it
    /// runs.
    #[serde(with = "model_by_id")]
    pub model: &'static ModelInfo,
    /// The reward chart's reference lines, U^(g) and U* per server (PG-AS).
    pub reward: Option<RewardReference>,
    pub phase: Phase,
    pub lanes: Vec<LaneStats>,
    /// Names of the queue bins (virtual queues or size classes).
    pub bin_labels: Rc<[String]>,
    /// The lane whose per-bin series are in `bin_series`.
    pub focus: usize,
    pub bin_series: Vec<Rc<[Point]>>,
    /// The focused lane's running mean per-job time per bin (class), where the model
    /// measures it per class.
    pub bin_job_time_series: Vec<Rc<[Point]>>,
    /// The analysis's E\[T^(j)\] per bin for the focused lane, with its label (empty where
    /// there is none).
    pub bin_analysis: Vec<(f64, String)>,
    /// Whether servers are drawn job by job (else as a heat strip of fills).
    pub detail: bool,
    /// Frames and slots per second over the last second of play.
    pub rate: Option<Rate>,
    /// Each lane's wall ms per slot while playing, measured where it runs (empty until
    /// measured): how a race split over workers places its lanes ([`crate::play::split`]).
    pub costs: Vec<f64>,
}

impl Snapshot {
    /// The race of `setup` before it is made ([`crate::play::use_race`]'s `after_first_paint`):
    /// time 0, ready, and no lanes yet. Nothing here is simulated, so it is cheap; only the
    /// first stage of the lab, which draws no lane, shows it.
    pub fn before_race(setup: &Setup) -> Self {
        let s = &setup.scenario;
        Self {
            slot: 0,
            now: 0.0,
            furthest: 0.0,
            checkpoints: (0, 0),
            horizon: s.horizon(),
            warmup: s.warmup(),
            model: s.info(),
            // Worked out with the race (PG-AS's U*); no chart shows it before.
            reward: None,
            phase: Phase::Ready,
            lanes: Vec::new(),
            bin_labels: Rc::from([]),
            focus: 0,
            bin_series: Vec::new(),
            bin_job_time_series: Vec::new(),
            bin_analysis: Vec::new(),
            detail: false,
            rate: None,
            costs: Vec::new(),
        }
    }

    /// The snapshot as the race worker sends it to the page (postcard: compact and quick to
    /// read back, which matters at a thousand servers and sixty snapshots a second).
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        postcard::to_allocvec(self).map_err(|e| format!("cannot write a snapshot: {e}"))
    }

    /// A snapshot from [`Snapshot::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        postcard::from_bytes(bytes).map_err(|e| format!("cannot read a snapshot: {e}"))
    }

    /// The per-job time the model measures, if any (response time, delay).
    pub fn job_time(&self) -> Option<JobTime> {
        self.model.job_time
    }

    /// Whether jobs wait in this model (PG-AS's loss system has no queue).
    pub fn queues(&self) -> bool {
        self.model.queue
    }

    /// The message to show, if the race failed.
    pub fn error(&self) -> Option<&str> {
        match &self.phase {
            Phase::Failed(message) => Some(message),
            _ => None,
        }
    }

    /// Fraction of the horizon done, in [0, 1].
    pub fn progress(&self) -> f64 {
        if self.horizon == 0 { 1.0 } else { (self.slot as f64 / self.horizon as f64).min(1.0) }
    }
}

/// A snapshot handed to a component that need not follow every frame, compared by identity
/// (a snapshot's own `PartialEq` compares every number): the same `Shown` twice skips the
/// redraw.
#[derive(Debug, Clone)]
pub struct Shown(pub Rc<Snapshot>);

impl PartialEq for Shown {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A snapshot's model travels as its id (`pgrr`) and is the catalogue's own entry again when
/// read back, so the page compares and reads it as before.
mod model_by_id {
    use packlab_core::model::ModelInfo;
    use packlab_core::models::all;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(model: &&'static ModelInfo, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(model.id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<&'static ModelInfo, D::Error> {
        let id = String::deserialize(deserializer)?;
        all().into_iter().find(|m| m.id == id).ok_or_else(|| serde::de::Error::custom(format!("no model '{id}'")))
    }
}
