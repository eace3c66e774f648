//! What a run of any model reports: the figures every model shares and the model's own
//! summary `S`, serialised into one JSON object (`run --json`); the finished run's series; and
//! the one rule for combining replications.
//!
//! # Replications
//!
//! Every model combines the runs of `run --reps` (and `sweep --reps`) by the same rule
//! ([`Replications`]):
//!
//! * a **count** (arrivals, jobs started or completed, migrations, refreshes) is the
//!   **total** over the replications;
//! * a **rate, mean, fraction or time** is the **mean** over the replications;
//! * a run's **headline figure** (the mean queue, E\[T\], the mean delay, the normalised
//!   reward) is the mean with a **Student-t 95% interval** over the replications; a single
//!   run keeps its own batch-means interval;
//! * what does not depend on the seed (the theory's bounds, an analysis) is the first run's.

use serde::Serialize;
use thiserror::Error;

use crate::limits::BATCHES;
use crate::metrics::{Growth, Interval, Judgement, SeriesPoint, batch_means_ci, mean_ci};
use crate::view::Metric;
use crate::{ConfigError, EngineError};

/// Why a run could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The summary of one run: the part every model shares, then the model's own `S`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport<S> {
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
    /// Whether the queue was judged not stable ([`crate::metrics::judge`]): `verdict`'s
    /// word is "not stable".
    pub unstable: bool,
    /// The verdict on the queue at the run's last look, with what it rests on; `None` where
    /// nothing waits.
    pub verdict: Option<Judgement>,
    /// The queue's growth at that look, per arrival: what replications are judged on.
    pub growth: Option<Growth>,
    /// How the queue recovered from each change of the scenario (none without changes, and
    /// then not written).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recovery: Vec<crate::metrics::Recovery>,
    /// In a loss system (PG-AS), the reward and the rejections before the first change and
    /// from each change on (none without changes, and then not written).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stretches: Vec<crate::metrics::Stretch>,
    #[serde(flatten)]
    pub summary: S,
}

impl<S> RunReport<S> {
    /// The same report with its model part converted (a model's summary into any model's).
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> RunReport<T> {
        let RunReport {
            preset,
            policy,
            seed,
            horizon,
            warmup,
            load,
            arrival_rate,
            servers,
            mean_queue,
            mean_queue_ci95,
            final_queue,
            arrivals,
            started,
            mean_wait,
            censored,
            mean_occupancy,
            unstable,
            verdict,
            growth,
            recovery,
            stretches,
            summary,
        } = self;
        RunReport {
            preset,
            policy,
            seed,
            horizon,
            warmup,
            load,
            arrival_rate,
            servers,
            mean_queue,
            mean_queue_ci95,
            final_queue,
            arrivals,
            started,
            mean_wait,
            censored,
            mean_occupancy,
            unstable,
            verdict,
            growth,
            recovery,
            stretches,
            summary: f(summary),
        }
    }
}

/// A finished run with its series.
#[derive(Debug, Clone)]
pub struct RunOutcome<S> {
    pub report: RunReport<S>,
    pub queue: Vec<SeriesPoint>,
    pub occupancy: Vec<SeriesPoint>,
    /// n(t), jobs in the system (MSFQ runs; empty otherwise).
    pub in_system: Vec<SeriesPoint>,
    /// R(t)/L (PG-AS runs; empty otherwise).
    pub reward: Vec<SeriesPoint>,
}

impl<S> RunOutcome<S> {
    /// The same outcome with its report's model part converted.
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> RunOutcome<T> {
        let RunOutcome { report, queue, occupancy, in_system, reward } = self;
        RunOutcome { report: report.map(f), queue, occupancy, in_system, reward }
    }
}

/// What `run --out` draws over time for a model: which series, and how it is labelled.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    pub metric: Metric,
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

/// The verdict on one policy's runs: a single run's own (its last look), or its replications
/// judged together on their growths ([`crate::metrics::judge`], the whole error budget at one
/// look); `None` where nothing waits.
pub fn judge_runs<S>(runs: &[&RunReport<S>]) -> Option<Judgement> {
    crate::metrics::judge_runs(&runs.iter().map(|r| (r.verdict, r.growth)).collect::<Vec<_>>())
}

/// "stable", "not stable" or "undecided": [`judge_runs`] in a word ("–" where nothing waits).
pub fn verdict<S>(runs: &[&RunReport<S>]) -> String {
    judge_runs(runs).map_or("–", |j| j.verdict.word()).to_string()
}

/// The note under a run table's verdict column: the test, on `series` (Q(t), n(t)), for
/// `reps` replications of each policy.
pub fn verdict_note(series: &str, reps: usize) -> String {
    let over = if reps > 1 {
        "the replications' growths at the horizon judged together (Student t, 5% error)"
    } else {
        "looked at 6 times from a third of the run on, an answer standing once two looks in a row give it"
    };
    format!(
        "verdict: stable when {series} keeps less than 0.5% of the arrivals (its growth over the second half), not \
         stable when it keeps more and does not slow down, else undecided; {over} (docs/stability.md)"
    )
}

/// The batch-means 95% interval (20 batches) of a series' points after the warm-up.
pub fn window_ci(series: &[SeriesPoint], warmup: f64) -> Interval {
    let window: Vec<SeriesPoint> = series.iter().copied().filter(|p| p.start >= warmup).collect();
    batch_means_ci(&window, BATCHES)
}

/// The replications of one policy (at least one), combined by the module's rule.
#[derive(Debug, Clone, Copy)]
pub struct Replications<'a, T> {
    runs: &'a [&'a T],
}

impl<'a, T> Replications<'a, T> {
    /// `None` without runs.
    pub fn new(runs: &'a [&'a T]) -> Option<Self> {
        (!runs.is_empty()).then_some(Self { runs })
    }

    pub fn len(&self) -> usize {
        self.runs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The first run: for what does not depend on the seed.
    pub fn first(&self) -> &'a T {
        self.runs[0]
    }

    /// A count: the total over the replications.
    pub fn total(&self, f: impl Fn(&T) -> u64) -> u64 {
        self.runs.iter().map(|r| f(r)).sum()
    }

    /// A rate, mean, fraction or time: the mean over the replications.
    pub fn mean(&self, f: impl Fn(&T) -> f64) -> f64 {
        self.runs.iter().map(|r| f(r)).sum::<f64>() / self.runs.len() as f64
    }

    /// The headline figure: its mean, with the Student-t 95% interval over the replications,
    /// or a single run's own interval `own`.
    pub fn headline(&self, f: impl Fn(&T) -> f64, own: impl Fn(&T) -> [f64; 2]) -> (f64, [f64; 2]) {
        let ci = mean_ci(&self.runs.iter().map(|r| f(r)).collect::<Vec<_>>());
        let interval = if self.runs.len() > 1 { [ci.lo, ci.hi] } else { own(self.runs[0]) };
        (ci.mean, interval)
    }

    /// The mean of each entry of a map the runs share (per class, per type): the first run's keys.
    pub fn mean_map(
        &self,
        f: impl Fn(&T) -> &std::collections::BTreeMap<String, f64>,
    ) -> std::collections::BTreeMap<String, f64> {
        f(self.runs[0]).keys().map(|k| (k.clone(), self.mean(|r| f(r).get(k).copied().unwrap_or(f64::NAN)))).collect()
    }

    /// The mean of each element of an array every run has; `None` if some run has none.
    pub fn mean_array<const N: usize>(&self, f: impl Fn(&T) -> Option<[f64; N]>) -> Option<[f64; N]> {
        let arrays: Vec<[f64; N]> = self.runs.iter().filter_map(|r| f(r)).collect();
        (arrays.len() == self.runs.len())
            .then(|| std::array::from_fn(|i| arrays.iter().map(|a| a[i]).sum::<f64>() / arrays.len() as f64))
    }
}

/// Replications of one policy, summarised (`packlab run --reps`): the shared figures by the
/// module's rule, and the model's own `S` by its `over_replications`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RepsReport<S> {
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
    /// Student-t 95% interval over the replications (a single run: its own).
    pub mean_queue_ci95: [f64; 2],
    /// Mean over replications of the queue at the horizon.
    pub final_queue: f64,
    /// Totals over replications.
    pub arrivals: u64,
    pub started: u64,
    pub mean_wait: f64,
    pub mean_occupancy: f64,
    /// The replications judged together ([`judge_runs`]): whether not stable, and the
    /// judgement; how many replications were judged not stable each on its own.
    pub unstable: bool,
    pub verdict: Option<Judgement>,
    pub unstable_reps: usize,
    /// The model's own figures, over the replications.
    #[serde(flatten)]
    pub summary: S,
}

/// Summarises replications of the same preset and policy (at least one); `over` combines the
/// model's own summaries.
pub fn summarise_reps<S>(runs: &[RunReport<S>], over: impl FnOnce(&[&S]) -> S) -> Option<RepsReport<S>> {
    let all: Vec<&RunReport<S>> = runs.iter().collect();
    let reps = Replications::new(&all)?;
    let first = reps.first();
    let (mean_queue, mean_queue_ci95) = reps.headline(|r| r.mean_queue, |r| r.mean_queue_ci95);
    let unstable_reps = runs.iter().filter(|r| r.unstable).count();
    let verdict = judge_runs(&all);
    let summaries: Vec<&S> = runs.iter().map(|r| &r.summary).collect();
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
        mean_queue,
        mean_queue_ci95,
        final_queue: reps.mean(|r| r.final_queue as f64),
        arrivals: reps.total(|r| r.arrivals),
        started: reps.total(|r| r.started),
        mean_wait: reps.mean(|r| r.mean_wait),
        mean_occupancy: reps.mean(|r| r.mean_occupancy),
        unstable: verdict.is_some_and(|v| v.unstable()),
        verdict,
        unstable_reps,
        summary: over(&summaries),
    })
}
