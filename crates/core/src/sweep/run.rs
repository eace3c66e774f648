//! What one run contributes to a sweep, and how the replications of a cell are summarised.
//! A run's figures are read from its JSON report by field name ([`Figure`]), so a sweep knows
//! nothing of the model whose runs it plots.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::metrics::nulls::{interval_as_nulls, nan_as_null, nans_as_nulls};
use crate::metrics::{Growth, Judgement, judge_runs, mean_ci};
use crate::model::{Figure, Reference};
use crate::report::RunReport;

/// What one run contributes to a sweep: per figure, its value and the run's own 95%
/// interval, and the paper's analysis where the run carries one; its verdict; and the values
/// of the plot's reference lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepRun {
    pub figures: Vec<FigureValue>,
    /// The run's verdict at its last look, and its growth there (what replications are
    /// judged on together); `None` where nothing waits.
    #[serde(default)]
    pub verdict: Option<Judgement>,
    #[serde(default)]
    pub growth: Option<Growth>,
    /// The plot's references (horizontal lines) in this run, NaN where it has none.
    #[serde(default, with = "nans_as_nulls")]
    pub references: Vec<f64>,
}

/// One figure of one run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FigureValue {
    /// NaN where the run has no such figure (the phases of a policy without them); JSON has
    /// no NaN, so it travels as `null`.
    #[serde(with = "nan_as_null")]
    pub value: f64,
    /// The run's own interval, unbounded where it has none.
    #[serde(with = "interval_as_nulls")]
    pub ci: [f64; 2],
    #[serde(default)]
    pub analysis: Option<f64>,
    /// What the figure is divided by ([`Figure::per`]) in this run.
    #[serde(default)]
    pub per: Option<f64>,
}

impl SweepRun {
    /// The figures `figures` and references `references` of `report`.
    pub fn of(report: &RunReport, figures: &[Figure], references: &[Reference]) -> Self {
        Self::from_json(&serde_json::to_value(report).unwrap_or(Value::Null), figures, references)
    }

    /// The figures and references of a report as `run --json` writes it (a sweep's shards
    /// carry their runs so).
    pub fn from_json(json: &Value, figures: &[Figure], references: &[Reference]) -> Self {
        let number = |key: &str| json.get(key).and_then(Value::as_f64);
        let figures = figures
            .iter()
            .map(|figure| {
                let (value, ci) = figure_of(json, figure);
                // The analysis does not depend on the seed, but every run carries it.
                let analysis = json.get("analysis").map(|a| figure_of(a, figure).0).filter(|a| a.is_finite());
                FigureValue { value, ci, analysis, per: figure.per.and_then(number) }
            })
            .collect();
        let references = references
            .iter()
            .map(|r| {
                let value = number(r.key).unwrap_or(f64::NAN);
                r.per.map_or(value, |per| value / number(per).unwrap_or(f64::NAN))
            })
            .collect();
        fn field<T: serde::de::DeserializeOwned>(json: &Value, key: &str) -> Option<T> {
            json.get(key).cloned().and_then(|v| serde_json::from_value(v).ok())
        }
        SweepRun { figures, verdict: field(json, "verdict"), growth: field(json, "growth"), references }
    }
}

/// A figure of a run's JSON report: its value (NaN where the run has none) and the run's own
/// 95% interval (unbounded where it has none).
pub fn figure_of(json: &Value, figure: &Figure) -> (f64, [f64; 2]) {
    let field = |key: &str| json.get(key);
    let mut value = field(figure.key);
    if let Some(i) = figure.index {
        value = value.and_then(|v| v.get(i));
    }
    let value = value.and_then(Value::as_f64).unwrap_or(f64::NAN);
    let ci = figure
        .ci
        .and_then(field)
        .and_then(|v| Some([v.get(0)?.as_f64()?, v.get(1)?.as_f64()?]))
        .unwrap_or([f64::NEG_INFINITY, f64::INFINITY]);
    (value, ci)
}

/// The replications of one (policy, grid value) cell for one figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellSummary {
    pub reps: usize,
    /// The mean over the replications.
    pub value: f64,
    /// Student-t 95% interval over the replications; a single replication has no spread, so
    /// its own interval stands in.
    pub ci: [f64; 2],
    /// The replications' verdict ([`crate::metrics::judge_runs`]).
    pub verdict: Option<Judgement>,
    /// The paper's analysis at this load, where the runs carry one (the first run's).
    pub analysis: Option<f64>,
}

/// Summarises figure `figure` (an index into the runs' figures) over the replications `runs`
/// of a cell, by the rule of [`crate::model::report`]: the mean with its Student-t interval,
/// or a single run's own; then divided by the figure's divisor ([`Figure::per`], the first
/// run's: it does not depend on the seed). `None` for an empty cell.
pub fn summarise(runs: &[SweepRun], figure: usize) -> Option<CellSummary> {
    let first = runs.first()?.figures.get(figure)?;
    let values: Vec<f64> = runs.iter().map(|r| r.figures.get(figure).map_or(f64::NAN, |f| f.value)).collect();
    let interval = mean_ci(&values);
    let ci = if runs.len() == 1 { first.ci } else { [interval.lo, interval.hi] };
    let per = first.per.unwrap_or(1.0);
    Some(CellSummary {
        reps: runs.len(),
        value: interval.mean / per,
        ci: [ci[0] / per, ci[1] / per],
        verdict: judge_runs(&runs.iter().map(|r| (r.verdict, r.growth)).collect::<Vec<_>>()),
        analysis: first.analysis,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_travels_as_json_and_back_unchanged() {
        let json = serde_json::json!({
            "mean_queue": 2.5, "mean_queue_ci95": [2.0, 3.0], "unstable": true,
            "growth": {"first": 0.02, "second": 0.021, "se": 0.001, "df": 8},
            "normalized_reward": 6.0, "optimal_reward": 8.0, "greedy_reward": 4.0
        });
        let none = Figure { key: "no_such_field", index: None, ci: None, per: None, label: "none" };
        let ratio = Figure { key: "normalized_reward", per: Some("optimal_reward"), ..none };
        let refs = [Reference { label: "g/o", key: "greedy_reward", per: Some("optimal_reward"), line: true }];
        let sweep_run = SweepRun::from_json(&json, &[Figure::MEAN_QUEUE, none, ratio], &refs);
        assert_eq!((sweep_run.figures[0].value, sweep_run.figures[0].ci), (2.5, [2.0, 3.0]));
        assert!(sweep_run.figures[1].value.is_nan());
        assert_eq!((sweep_run.figures[2].value, sweep_run.figures[2].per), (6.0, Some(8.0)));
        assert_eq!(sweep_run.growth.map(|g| g.second), Some(0.021));
        assert_eq!(sweep_run.references.as_slice(), &[0.5][..]);
        let text = serde_json::to_string(&sweep_run).unwrap();
        let back: SweepRun = serde_json::from_str(&text).unwrap();
        assert_eq!(back.figures[0], sweep_run.figures[0]);
        assert!(back.figures[1].value.is_nan() && back.figures[1].ci == [f64::NEG_INFINITY, f64::INFINITY]);
        assert_eq!(summarise(&[back], 2).unwrap().value, 0.75, "divided by its divisor");
    }

    #[test]
    fn replications_give_a_student_t_interval_and_one_run_its_own() {
        let run = |value: f64, growth: f64| SweepRun {
            figures: vec![FigureValue { value, ci: [value - 1.0, value + 1.0], analysis: Some(7.0), per: None }],
            verdict: Some(crate::metrics::judge(
                &[Growth { first: growth, second: growth, se: 0.0, df: 8, level: f64::NAN }],
                0.05,
            )),
            growth: Some(Growth { first: growth, second: growth, se: 0.0, df: 8, level: f64::NAN }),
            references: Vec::new(),
        };
        let one = summarise(&[run(4.0, 0.0)], 0).unwrap();
        assert_eq!((one.value, one.ci, one.analysis), (4.0, [3.0, 5.0], Some(7.0)));
        assert_eq!(one.verdict.map(|v| v.verdict), Some(crate::metrics::Verdict::Stable), "one run: its own verdict");
        let two = summarise(&[run(4.0, 0.03), run(6.0, 0.031)], 0).unwrap();
        let interval = mean_ci(&[4.0, 6.0]);
        assert_eq!((two.value, two.ci, two.reps), (5.0, [interval.lo, interval.hi], 2));
        let verdict = two.verdict.unwrap();
        assert_eq!((verdict.verdict, verdict.runs), (crate::metrics::Verdict::Unstable, 2), "judged together");
        assert_eq!(summarise(&[], 0), None);
        assert_eq!(summarise(&[run(1.0, 0.0)], 3), None);
    }
}
