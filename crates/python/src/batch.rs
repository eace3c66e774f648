//! `sweep` and `stability`: many runs, made as the CLI makes them (the core's [`SweepPlan`]
//! and stability [`Finder`]), on every core, with a progress callback and Ctrl-C between
//! batches of runs.

use packlab_core::ConfigError;
use packlab_core::model::report::RunError;
use packlab_core::scenario::resolve::Resolved;
use packlab_core::stability::{COLUMNS, Finder, Options, below_proven, csv_rows, not_proven};
use packlab_core::sweep::SweepPlan;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::{from_json, value_error};

/// Makes the runs `0..count` with `run` on every core, a batch of one run per core at a
/// time; between batches it tells `progress` (done, total, what) and lets Python handle a
/// signal (Ctrl-C raises `KeyboardInterrupt` there, with no run left going). Results in order.
fn run_many<T: Send>(
    py: Python<'_>,
    count: usize,
    what: &str,
    progress: Option<&Bound<'_, PyAny>>,
    run: impl Fn(usize) -> Result<T, Failure> + Sync,
) -> PyResult<Vec<T>> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut out = Vec::with_capacity(count);
    let mut start = 0;
    while start < count {
        let batch: Vec<usize> = (start..count.min(start + cores)).collect();
        let results: Vec<Result<T, Failure>> = py.detach(|| {
            std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .iter()
                    .map(|&i| {
                        let run = &run;
                        scope.spawn(move || run(i))
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a run does not panic")).collect()
            })
        });
        for result in results {
            out.push(result.map_err(Failure::into_py)?);
        }
        start += batch.len();
        if let Some(progress) = progress {
            progress.call1((out.len(), count, what))?;
        }
        py.check_signals()?;
    }
    Ok(out)
}

/// A run that failed, as text that can cross threads without the interpreter: `what` run (as
/// the CLI names it), then the core's message; a bad setting becomes a `ValueError`, an
/// engine's refusal a `RuntimeError`.
pub struct Failure {
    config: bool,
    message: String,
}

impl Failure {
    fn of(what: String, e: RunError) -> Self {
        Self { config: matches!(e, RunError::Config(_)), message: format!("{what}: {e}") }
    }

    fn into_py(self) -> PyErr {
        if self.config { PyValueError::new_err(self.message) } else { PyRuntimeError::new_err(self.message) }
    }
}

/// A grid as the core reads it: a list of numbers, or their text `a,b,c`.
fn grid_text(grid: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = grid.cast::<PyString>() {
        return Ok(text.to_str()?.to_string());
    }
    let values: Vec<Bound<'_, PyAny>> =
        grid.extract().map_err(|_| PyValueError::new_err("grid: give a list of values, or their text a,b,c"))?;
    let texts: Vec<String> = values.iter().map(crate::key_value).collect::<PyResult<_>>()?;
    Ok(texts.join(","))
}

/// The sweep of `resolved` (the preset's axis and grid unless given): its runs' reports (the
/// fields of `packlab run --json`, in the plan's order: policy, grid value, replication) and
/// its summary (the rows of `PRESET-summary.csv`, the grid value under the axis's name).
pub fn sweep<'py>(
    py: Python<'py>,
    resolved: Resolved,
    axis: Option<&str>,
    grid: Option<&Bound<'_, PyAny>>,
    reps: Option<u64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let setup = &resolved.setup;
    let (default_reps, reps_note) = SweepPlan::default_reps(setup);
    let grid = grid.map(grid_text).transpose()?;
    let plan = SweepPlan::new(setup, axis, grid.as_deref(), reps.unwrap_or(default_reps)).map_err(value_error)?;
    if resolved.explicit.iter().any(|k| k == plan.axis) {
        let key = plan.axis;
        return Err(value_error(ConfigError::new(
            key,
            format!("a sweep sets {key} itself; give the grid with grid=[...]"),
        )));
    }
    let outcomes = run_many(py, plan.len(), setup.preset.id, progress, |i| {
        let task = plan.task(i);
        plan.run(i).map(|o| o.report).map_err(|e| {
            let policy = &plan.setup.policies[task.policy];
            let at =
                format!("policy {policy} at {} {}, seed {}", plan.axis, plan.values[task.value], plan.seeds[task.rep]);
            Failure::of(at, e)
        })
    })?;
    let reports: Vec<serde_json::Value> =
        outcomes.iter().map(serde_json::to_value).collect::<Result<_, _>>().map_err(json_error)?;
    let runs: Vec<_> = reports.iter().map(|r| Some(plan.sweep_run(r))).collect();
    let cells = plan.cells(&runs);
    let mut summary = Vec::new();
    for row in plan.summary_rows(&cells) {
        let value = serde_json::to_value(row).map_err(json_error)?;
        // The grid value under the axis's name, in its place, as the CSV's header has it.
        let named: serde_json::Map<String, serde_json::Value> = value
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (if k == "value_x" { plan.axis.to_string() } else { k.clone() }, v.clone()))
            .collect();
        let value = serde_json::Value::Object(named);
        summary.push(value);
    }
    let d = PyDict::new(py);
    d.set_item("preset", setup.preset.id)?;
    d.set_item("axis", plan.axis)?;
    d.set_item("values", plan.values.clone())?;
    d.set_item("seeds", plan.seeds.clone())?;
    let notes: Vec<String> = resolved
        .warmup_note
        .iter()
        .chain(&resolved.replay_notes)
        .cloned()
        .chain(plan.grid_note())
        .chain(reps_note.filter(|_| reps.is_none()).map(String::from))
        .collect();
    d.set_item("notes", notes)?;
    d.set_item("runs", from_json(py, &serde_json::to_string(&reports).map_err(json_error)?)?)?;
    d.set_item("summary", from_json(py, &serde_json::to_string(&summary).map_err(json_error)?)?)?;
    Ok(d)
}

fn json_error(e: serde_json::Error) -> PyErr {
    PyRuntimeError::new_err(format!("internal: {e}"))
}

/// The stability map of `resolved` (`packlab stability`): its rows with the columns of
/// `PRESET-stability.csv` (numbers as numbers, empty cells as `None`), the rounds and runs it
/// took, and the warnings the CLI prints.
pub fn stability<'py>(
    py: Python<'py>,
    resolved: Resolved,
    axis: Option<&str>,
    options: Options,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    if resolved.explicit.iter().any(|k| k == "load") {
        return Err(value_error(ConfigError::new("load", "the stability map moves the load itself")));
    }
    let axis = match axis {
        None => None,
        Some(text) => Some(text.split_once('=').ok_or_else(|| {
            PyValueError::new_err(format!(
                "axis: '{text}': expected KEY=V1,V2,..., e.g. servers=1,2,4 (keys: packlab.describe(id))"
            ))
        })?),
    };
    let mut finder =
        Finder::new(&resolved.setup, axis.map(|(k, v)| (k.trim(), v.trim())), options).map_err(value_error)?;
    let id = resolved.setup.preset.id;
    while let Some(round) = finder.next_round().map_err(value_error)? {
        let what = format!("{id} round {}", round.index);
        let growths = run_many(py, round.len(), &what, progress, |i| {
            round.run(i).map_err(|e| {
                let (probe, rep) = round.task(i);
                let at = format!("round {} at load {} (replication {rep})", round.index, round.probes[probe].load);
                Failure::of(at, e)
            })
        })?;
        finder.absorb(&round, &growths);
    }
    let rows = PyList::empty(py);
    for row in csv_rows(&finder) {
        let d = PyDict::new(py);
        for (column, text) in COLUMNS.iter().zip(row) {
            let value: Bound<'_, PyAny> = if text.is_empty() {
                py.None().into_bound(py)
            } else {
                match (text.parse::<i64>(), text.parse::<f64>()) {
                    (Ok(n), _) => n.into_pyobject(py)?.into_any(),
                    (_, Ok(x)) => x.into_pyobject(py)?.into_any(),
                    _ => PyString::new(py, &text).into_any(),
                }
            };
            d.set_item(*column, value)?;
        }
        rows.append(d)?;
    }
    let d = PyDict::new(py);
    d.set_item("preset", id)?;
    d.set_item("columns", COLUMNS.to_vec())?;
    d.set_item("rows", rows)?;
    d.set_item("rounds", finder.rounds)?;
    d.set_item("runs", finder.runs)?;
    d.set_item("below_proven", below_proven(&finder))?;
    d.set_item("not_proven", not_proven(&finder))?;
    Ok(d)
}
