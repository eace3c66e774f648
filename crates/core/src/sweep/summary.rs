//! A sweep's summary: one row per (policy, grid value, figure) cell, what `packlab sweep`
//! writes to `PRESET-summary.csv` and the Python package's `sweep` returns, from one place.

use serde::Serialize;

use super::{Cell, SweepPlan};

/// One row of the summary: the replications of one (policy, grid value) cell for one figure.
/// `value_x` is the grid value (the CSV names its column after the axis key: `load`,
/// `servers`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryRow {
    pub policy: String,
    pub value_x: f64,
    pub reps: usize,
    /// Which quantity `value` is.
    pub metric: &'static str,
    pub value: f64,
    /// Empty where there is no interval (one run without an interval of its own, as a
    /// replayed log's weighted response time): never -inf and inf.
    pub ci_lo: Option<f64>,
    pub ci_hi: Option<f64>,
    /// The replications' verdict on the queue ("stable", "not stable", "undecided"; empty where
    /// nothing waits).
    pub verdict: &'static str,
    /// The paper's analysis of the figure at this point, where the runs carry one.
    pub analysis: Option<f64>,
}

impl SweepPlan {
    /// The summary's rows, policy-major, then grid value, then figure (the order of `cells`).
    pub fn summary_rows(&self, cells: &[Cell]) -> Vec<SummaryRow> {
        let figures = self.layout.figures();
        cells
            .iter()
            .map(|c| SummaryRow {
                policy: self.setup.policies[c.policy].to_string(),
                value_x: c.value,
                reps: c.summary.reps,
                metric: figures[c.figure].label,
                value: c.summary.value,
                ci_lo: Some(c.summary.ci[0]).filter(|v| v.is_finite()),
                ci_hi: Some(c.summary.ci[1]).filter(|v| v.is_finite()),
                verdict: c.summary.verdict.map_or("", |v| v.verdict.word()),
                analysis: c.summary.analysis,
            })
            .collect()
    }
}
