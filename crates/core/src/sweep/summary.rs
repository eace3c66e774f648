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
    pub ci_lo: f64,
    pub ci_hi: f64,
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
                ci_lo: c.summary.ci[0],
                ci_hi: c.summary.ci[1],
                verdict: c.summary.verdict.map_or("", |v| v.verdict.word()),
                analysis: c.summary.analysis,
            })
            .collect()
    }
}
