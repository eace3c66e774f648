//! A load sweep, the same in the CLI (`packlab sweep`, runs in parallel with rayon) and in the
//! page (runs in Web Workers): which runs make up the grid, with which seeds, what each run
//! contributes to the figure, and how replications are summarised. One source, so the page's
//! curve is the CLI's, number for number.
//!
//! The grid is policy-major, then load, then replication; replication `r` runs with seed
//! `seed + r`. A run's figures are read from its JSON report by field name ([`Figure`]), so
//! the sweep knows nothing of the model whose runs it plots.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ConfigError;
use crate::metrics::mean_ci;
use crate::report::RunReport;
use crate::scenario::{Figure, Plot, Scenario, Setup, Sweep};

/// The seed of replication `rep` of a sweep seeded with `seed`: `seed + rep`, or `None` if
/// that overflows.
pub fn replication_seed(seed: u64, rep: u64) -> Option<u64> {
    seed.checked_add(rep)
}

/// What a sweep varies along its x axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    /// The load knob (α, λ, ζ): most swept figures.
    Load,
    /// The number of servers L, at the scenario's load (PG-AS Figs. 3 and 5).
    Servers,
}

impl Axis {
    /// The scenario key it sets.
    pub fn key(self) -> &'static str {
        match self {
            Axis::Load => "load",
            Axis::Servers => "servers",
        }
    }
}

/// The scenario of one grid point: `base` with `axis` at `value` (set through its key, as a
/// link or `--set` would) and `seed`.
pub fn point(base: &Scenario, axis: Axis, value: f64, seed: u64) -> Result<Scenario, ConfigError> {
    let mut scenario = base.clone();
    scenario.set(axis.key(), &value.to_string())?;
    scenario.set("seed", &seed.to_string())?;
    Ok(scenario)
}

/// What the preset sweeps and its default grid, if it sweeps by running (a sweep of the
/// theory's bounds has no runs).
pub fn default_grid(setup: &Setup) -> Option<(Axis, Vec<f64>)> {
    match &setup.preset.sweep {
        Sweep::Load { grid, .. } => Some((Axis::Load, grid.clone())),
        Sweep::Servers { grid } => Some((Axis::Servers, grid.iter().map(|&l| f64::from(l)).collect())),
        Sweep::Theory { .. } | Sweep::Unavailable(_) => None,
    }
}

/// The normalised reward R/L of a PG-AS run, what its sweeps against L plot.
pub const NORMALIZED_REWARD: Figure = Figure {
    key: "normalized_reward",
    index: None,
    ci: Some("normalized_reward_ci95"),
    label: "normalised reward R/L",
};

/// Why a list of loads was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum GridError {
    /// An empty entry (`0.5,,0.7`).
    EmptyEntry,
    /// An entry the `load` key refuses.
    Rejected(ConfigError),
    /// An entry the scenario cannot run at (its relations to the other keys).
    Invalid { entry: String, error: ConfigError },
}

/// The loads of a comma-separated list, each checked by the scenario's own `load` key and
/// relations, then sorted (the x axis) with duplicates removed.
pub fn parse_loads(text: &str, base: &Scenario) -> Result<Vec<f64>, GridError> {
    parse_grid(text, base, Axis::Load)
}

/// The values of a comma-separated list for `axis`, each checked by the scenario's own key
/// and relations, then sorted with duplicates removed.
pub fn parse_grid(text: &str, base: &Scenario, axis: Axis) -> Result<Vec<f64>, GridError> {
    let mut values = Vec::new();
    for entry in text.split(',').map(str::trim) {
        if entry.is_empty() {
            return Err(GridError::EmptyEntry);
        }
        let mut scenario = base.clone();
        scenario.set(axis.key(), entry).map_err(GridError::Rejected)?;
        scenario.validate().map_err(|error| GridError::Invalid { entry: entry.to_string(), error })?;
        values.push(match axis {
            Axis::Load => scenario.load(),
            // The key took it, so it reads back as the number of servers it is.
            Axis::Servers => scenario.get("servers").and_then(|v| v.parse().ok()).unwrap_or(f64::NAN),
        });
    }
    values.sort_by(f64::total_cmp);
    values.dedup();
    Ok(values)
}

/// The figures a sweep of the preset plots, in the order of its summary rows: the curves'
/// figures, the one figure plotted against a parameter, or the normalised reward against L.
pub fn plotted_figures(setup: &Setup) -> Vec<Figure> {
    match &setup.preset.sweep {
        Sweep::Load { plot: Plot::Curves { figures, .. }, .. } => figures.to_vec(),
        Sweep::Load { plot: Plot::AgainstParameter { figure, .. }, .. } => vec![*figure],
        Sweep::Servers { .. } => vec![NORMALIZED_REWARD],
        _ => Vec::new(),
    }
}

/// What one run contributes to a sweep: per figure, its value and the run's own 95%
/// interval, and the paper's analysis where the run carries one; and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepRun {
    pub figures: Vec<FigureValue>,
    pub unstable: bool,
    /// PG-AS's U^(g) and U* per server, where the run's workload has them.
    #[serde(default)]
    pub bounds: Option<[f64; 2]>,
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
}

impl SweepRun {
    /// The figures `figures` of `report`.
    pub fn of(report: &RunReport, figures: &[Figure]) -> Self {
        Self::from_json(&serde_json::to_value(report).unwrap_or(Value::Null), figures)
    }

    /// The figures `figures` of a report as `run --json` writes it (a sweep's shards carry
    /// their runs so).
    pub fn from_json(json: &Value, figures: &[Figure]) -> Self {
        let figures = figures
            .iter()
            .map(|figure| {
                let (value, ci) = figure_of(json, figure);
                // The analysis does not depend on the seed, but every run carries it.
                let analysis = json.get("analysis").map(|a| figure_of(a, figure).0).filter(|a| a.is_finite());
                FigureValue { value, ci, analysis }
            })
            .collect();
        let bound = |key: &str| json.get(key).and_then(Value::as_f64);
        SweepRun {
            figures,
            unstable: json.get("unstable").and_then(Value::as_bool).unwrap_or(false),
            bounds: bound("greedy_reward").zip(bound("optimal_reward")).map(|(g, o)| [g, o]),
        }
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

/// The replications of one (policy, load) cell for one figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellSummary {
    pub reps: usize,
    /// The mean over the replications.
    pub value: f64,
    /// Student-t 95% interval over the replications; a single replication has no spread, so
    /// its own interval stands in.
    pub ci: [f64; 2],
    pub unstable_reps: usize,
    /// The paper's analysis at this load, where the runs carry one (the first run's).
    pub analysis: Option<f64>,
}

/// Summarises figure `figure` (an index into the runs' figures) over the replications `runs`
/// of a cell; `None` for an empty cell.
pub fn summarise(runs: &[SweepRun], figure: usize) -> Option<CellSummary> {
    let first = runs.first()?.figures.get(figure)?;
    let values: Vec<f64> = runs.iter().map(|r| r.figures.get(figure).map_or(f64::NAN, |f| f.value)).collect();
    let interval = mean_ci(&values);
    Some(CellSummary {
        reps: runs.len(),
        value: interval.mean,
        ci: if runs.len() == 1 { first.ci } else { [interval.lo, interval.hi] },
        unstable_reps: runs.iter().filter(|r| r.unstable).count(),
        analysis: first.analysis,
    })
}

/// Serialises NaN as `null` and reads `null` back as NaN.
mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() { s.serialize_f64(*v) } else { s.serialize_none() }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

/// Serialises an interval's infinite ends as `null`, read back as -inf and +inf.
mod interval_as_nulls {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64; 2], s: S) -> Result<S::Ok, S::Error> {
        let end = |x: f64| x.is_finite().then_some(x);
        serde::Serialize::serialize(&[end(v[0]), end(v[1])], s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
        let [lo, hi] = <[Option<f64>; 2]>::deserialize(d)?;
        Ok([lo.unwrap_or(f64::NEG_INFINITY), hi.unwrap_or(f64::INFINITY)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::PolicySpec;
    use crate::report::run;

    #[test]
    fn a_run_travels_as_json_and_back_unchanged() {
        let setup = Setup::from_preset("pgrr-a4").unwrap();
        let mut base = setup.scenario.clone();
        base.set_horizon_scaled(4000).unwrap();
        let scenario = point(&base, Axis::Load, 0.8, replication_seed(1, 2).unwrap()).unwrap();
        assert_eq!((scenario.load(), scenario.seed()), (0.8, 3));
        let report = run("pgrr-a4", &scenario, &PolicySpec::parse("bf-js").unwrap()).unwrap().report;
        let figures = [Figure::MEAN_QUEUE, Figure { key: "no_such_field", index: None, ci: None, label: "none" }];
        let sweep_run = SweepRun::of(&report, &figures);
        assert_eq!(sweep_run.figures[0].value, report.mean_queue);
        assert_eq!(sweep_run.figures[0].ci, report.mean_queue_ci95);
        assert!(sweep_run.figures[1].value.is_nan());
        let text = serde_json::to_string(&sweep_run).unwrap();
        let back: SweepRun = serde_json::from_str(&text).unwrap();
        assert_eq!(back.figures[0], sweep_run.figures[0]);
        assert!(back.figures[1].value.is_nan() && back.figures[1].ci == [f64::NEG_INFINITY, f64::INFINITY]);
    }

    #[test]
    fn replications_give_a_student_t_interval_and_one_run_its_own() {
        let run = |value: f64, unstable: bool| SweepRun {
            figures: vec![FigureValue { value, ci: [value - 1.0, value + 1.0], analysis: Some(7.0) }],
            unstable,
            bounds: None,
        };
        let one = summarise(&[run(4.0, false)], 0).unwrap();
        assert_eq!((one.value, one.ci, one.unstable_reps, one.analysis), (4.0, [3.0, 5.0], 0, Some(7.0)));
        let two = summarise(&[run(4.0, true), run(6.0, false)], 0).unwrap();
        let interval = mean_ci(&[4.0, 6.0]);
        assert_eq!((two.value, two.ci, two.reps, two.unstable_reps), (5.0, [interval.lo, interval.hi], 2, 1));
        assert_eq!(summarise(&[], 0), None);
        assert_eq!(summarise(&[run(1.0, false)], 3), None);
    }
}
