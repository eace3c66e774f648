//! Running a scenario to its horizon and summarising it: what the CLI prints and the tests
//! check.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::slotted::SlottedSim;
use crate::metrics::{SeriesPoint, TrendVerdict, batch_means_ci, mean_ci, trend_verdict};
use crate::policy::PolicySpec;
use crate::scenario::{PgrrScenario, Scenario};
use crate::view::LiveRun;
use crate::{ConfigError, EngineError};

/// Points kept per series in batch runs (the default grid gives 2000 for 2·10^6 slots).
pub const BATCH_MAX_POINTS: usize = 4096;

/// Why a run could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Builds (without running) the slotted simulation of a PG-RR scenario under `policy`.
/// A run of `policy` on `scenario` that the page can step and draw, whatever the model.
pub fn live_run(scenario: &Scenario, policy: &PolicySpec, max_points: usize) -> Box<dyn LiveRun> {
    match scenario {
        Scenario::Pgrr(s) => Box::new(slotted_sim(s, policy, max_points)),
    }
}

pub fn slotted_sim(scenario: &PgrrScenario, policy: &PolicySpec, max_points: usize) -> SlottedSim {
    let j = policy.j(scenario.j);
    let config = scenario.slotted_config(j, max_points);
    let built = policy.build(scenario.j, config.servers, config.capacity);
    SlottedSim::new(config, built, scenario.seed)
}

/// The summary of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub preset: String,
    pub policy: String,
    pub seed: u64,
    pub horizon: u64,
    pub warmup: u64,
    /// The load knob (α).
    pub load: f64,
    /// λ, arrivals per slot.
    pub arrival_rate: f64,
    pub servers: u32,
    /// Time-average number of waiting jobs over the measurement window.
    pub mean_queue: f64,
    /// Batch-means 95% interval of `mean_queue` (20 batches).
    pub mean_queue_ci95: [f64; 2],
    /// Jobs waiting at the horizon.
    pub final_queue: u64,
    pub arrivals: u64,
    pub started: u64,
    /// Mean wait (start − arrival, in slots) of the jobs that arrived in the window and started.
    pub mean_wait: f64,
    /// Jobs that arrived in the window and were still waiting at the horizon (censored).
    pub censored: u64,
    /// Mean fraction of the total capacity in use.
    pub mean_occupancy: f64,
    /// The instability verdict (see [`crate::metrics::trend_verdict`]).
    pub unstable: bool,
    pub trend: TrendVerdict,
}

/// A finished run with its series.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub report: RunReport,
    pub queue: Vec<SeriesPoint>,
    pub occupancy: Vec<SeriesPoint>,
}

/// Runs `scenario` under `policy` to its horizon.
pub fn run(preset: &str, scenario: &Scenario, policy: &PolicySpec) -> Result<RunOutcome, RunError> {
    scenario.validate()?;
    let Scenario::Pgrr(s) = scenario;
    let mut sim = slotted_sim(s, policy, BATCH_MAX_POINTS);
    sim.run_until(s.horizon)?;
    Ok(outcome(preset, s, policy, &sim))
}

/// Summarises a slotted simulation at its current slot.
pub fn outcome(preset: &str, s: &PgrrScenario, policy: &PolicySpec, sim: &SlottedSim) -> RunOutcome {
    let counters = sim.counters();
    let queue = sim.queue_series().to_vec();
    let window: Vec<SeriesPoint> = queue.iter().copied().filter(|p| p.start >= s.warmup as f64).collect();
    let ci = batch_means_ci(&window, 20);
    let trend = trend_verdict(&queue, sim.slot() as f64);
    let report = RunReport {
        preset: preset.to_string(),
        policy: policy.to_string(),
        seed: s.seed,
        horizon: sim.slot(),
        warmup: s.warmup,
        load: s.load,
        arrival_rate: s.arrival_rate(),
        servers: s.servers,
        mean_queue: sim.mean_queue(),
        mean_queue_ci95: [ci.lo, ci.hi],
        final_queue: sim.queue().len() as u64,
        arrivals: counters.arrivals,
        started: counters.started,
        mean_wait: counters.window_wait as f64 / counters.window_started.max(1) as f64,
        censored: counters.window_arrivals - counters.window_started,
        mean_occupancy: sim.mean_occupancy(),
        unstable: trend.unstable,
        trend,
    };
    RunOutcome { report, queue, occupancy: sim.occupancy_series().to_vec() }
}

/// Replications of one policy, summarised (`packlab run --reps`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// Summarises replications of the same preset and policy.
pub fn summarise_reps(runs: &[RunReport]) -> RepsReport {
    assert!(!runs.is_empty(), "at least one replication");
    let first = &runs[0];
    let mean = |f: fn(&RunReport) -> f64| runs.iter().map(f).sum::<f64>() / runs.len() as f64;
    let ci = mean_ci(&runs.iter().map(|r| r.mean_queue).collect::<Vec<_>>());
    let unstable_reps = runs.iter().filter(|r| r.unstable).count();
    RepsReport {
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
    }
}
