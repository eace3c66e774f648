//! Running a scenario to its horizon and summarising it: what the CLI prints and the tests
//! check. A report has a part every model shares and the model's own [`Summary`], serialised
//! into the same JSON object.

mod table;

use serde::Serialize;
use thiserror::Error;

pub use table::{Table, interval, num, percent, sig};

use crate::limits::BATCH_MAX_POINTS;
use crate::metrics::{SeriesPoint, TrendVerdict, batch_means_ci, mean_ci};
use crate::models::{Scenario, Summary};
use crate::policy::PolicySpec;
use crate::view::{LiveRun, Watch};
use crate::{ConfigError, EngineError};

/// Why a run could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A run of `policy` on `scenario` that the page can step and draw, whatever the model.
pub fn live_run(scenario: &Scenario, policy: &PolicySpec, watch: Watch) -> Result<Box<dyn LiveRun>, RunError> {
    scenario.check_policy(policy)?;
    scenario.any().live_run(policy, watch)
}

/// Runs `scenario` under `policy` to its horizon.
pub fn run(preset: &str, scenario: &Scenario, policy: &PolicySpec) -> Result<RunOutcome, RunError> {
    scenario.validate()?;
    scenario.check_policy(policy)?;
    let mut outcome = scenario.any().run_to_horizon(policy, BATCH_MAX_POINTS)?;
    outcome.report.preset = preset.to_string();
    Ok(outcome)
}

/// The summary of one run: the part every model shares, then the model's own.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    pub preset: String,
    pub policy: String,
    pub seed: u64,
    pub horizon: u64,
    pub warmup: u64,
    /// The load knob.
    pub load: f64,
    /// λ, arrivals per time unit (slot).
    pub arrival_rate: f64,
    /// Servers (cores for MSFQ).
    pub servers: u32,
    /// Time-average number of waiting jobs over the measurement window.
    pub mean_queue: f64,
    /// Batch-means 95% interval of `mean_queue` (20 batches).
    pub mean_queue_ci95: [f64; 2],
    /// Jobs waiting at the horizon.
    pub final_queue: u64,
    pub arrivals: u64,
    pub started: u64,
    /// Mean wait (start − arrival) of the jobs that arrived in the window and started.
    pub mean_wait: f64,
    /// Jobs that arrived in the window and were still waiting (or, for MSFQ, in the system) at
    /// the horizon (censored).
    pub censored: u64,
    /// Mean fraction of the total capacity in use.
    pub mean_occupancy: f64,
    /// The instability verdict (see [`crate::metrics::trend_verdict`]).
    pub unstable: bool,
    pub trend: TrendVerdict,
    #[serde(flatten)]
    pub summary: Summary,
}

/// A finished run with its series.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub report: RunReport,
    pub queue: Vec<SeriesPoint>,
    pub occupancy: Vec<SeriesPoint>,
    /// n(t), jobs in the system (MSFQ runs; empty otherwise).
    pub in_system: Vec<SeriesPoint>,
    /// R(t)/L (PG-AS runs; empty otherwise).
    pub reward: Vec<SeriesPoint>,
}

/// What `run --out` draws over time for a model: which series, and how it is labelled.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    pub metric: crate::view::Metric,
    /// After each policy's name in the CSV header: "" or " reward/L".
    pub column_suffix: &'static str,
    pub y_label: &'static str,
    /// Horizontal reference lines, with their labels.
    pub y_marks: Vec<(f64, String)>,
    /// What the dashed lines mean, after the x axis's name.
    pub x_note: String,
    /// Whether the legend goes to the lower right (the curves climb to the top).
    pub legend_lower_right: bool,
}

/// "stable", "UNSTABLE", or with replications "stable (1/5 unstable)": the majority verdict of
/// one policy's runs.
pub fn verdict(runs: &[&RunReport]) -> String {
    let unstable = runs.iter().filter(|r| r.unstable).count();
    match (runs.len(), unstable) {
        (1, 0) => "stable".to_string(),
        (1, _) => "UNSTABLE".to_string(),
        (n, u) => format!("{} ({u}/{n} unstable)", if 2 * u > n { "UNSTABLE" } else { "stable" }),
    }
}

/// The batch-means 95% interval (20 batches) of a series' points after the warm-up.
pub(crate) fn window_ci(series: &[SeriesPoint], warmup: f64) -> crate::metrics::Interval {
    let window: Vec<SeriesPoint> = series.iter().copied().filter(|p| p.start >= warmup).collect();
    batch_means_ci(&window, crate::limits::BATCHES)
}

/// Replications of one policy, summarised (`packlab run --reps`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepsReport {
    pub preset: String,
    pub policy: String,
    /// The first seed; replication r uses seed + r.
    pub seed: u64,
    pub seeds: Vec<u64>,
    pub reps: usize,
    pub horizon: u64,
    pub warmup: u64,
    pub load: f64,
    pub arrival_rate: f64,
    pub servers: u32,
    /// Mean over replications of each run's mean queue.
    pub mean_queue: f64,
    /// Student-t 95% interval over the replications.
    pub mean_queue_ci95: [f64; 2],
    /// Mean over replications of the queue at the horizon.
    pub final_queue: f64,
    /// Totals over replications.
    pub arrivals: u64,
    pub started: u64,
    pub mean_wait: f64,
    pub mean_occupancy: f64,
    /// Majority verdict, and how many replications were judged unstable.
    pub unstable: bool,
    pub unstable_reps: usize,
    /// The model's own figures, over the replications (each model says how it averages).
    #[serde(flatten)]
    pub summary: Option<Summary>,
}

/// Summarises replications of the same preset and policy (at least one).
pub fn summarise_reps(runs: &[RunReport]) -> Option<RepsReport> {
    let first = runs.first()?;
    let mean = |f: fn(&RunReport) -> f64| runs.iter().map(f).sum::<f64>() / runs.len() as f64;
    let ci = mean_ci(&runs.iter().map(|r| r.mean_queue).collect::<Vec<_>>());
    let unstable_reps = runs.iter().filter(|r| r.unstable).count();
    Some(RepsReport {
        preset: first.preset.clone(),
        policy: first.policy.clone(),
        seed: first.seed,
        seeds: runs.iter().map(|r| r.seed).collect(),
        reps: runs.len(),
        horizon: first.horizon,
        warmup: first.warmup,
        load: first.load,
        arrival_rate: first.arrival_rate,
        servers: first.servers,
        mean_queue: ci.mean,
        mean_queue_ci95: [ci.lo, ci.hi],
        final_queue: mean(|r| r.final_queue as f64),
        arrivals: runs.iter().map(|r| r.arrivals).sum(),
        started: runs.iter().map(|r| r.started).sum(),
        mean_wait: mean(|r| r.mean_wait),
        mean_occupancy: mean(|r| r.mean_occupancy),
        unstable: 2 * unstable_reps > runs.len(),
        unstable_reps,
        summary: Summary::over_replications(&runs.iter().map(|r| &r.summary).collect::<Vec<_>>()),
    })
}
