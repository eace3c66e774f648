//! A race: the resolved scenario and its policies, run as `packlab run` runs them (the
//! reports, the series), or stepped as the page steps them (`step`, `readings`).

use packlab_core::limits::BATCH_MAX_POINTS;
use packlab_core::link::encode_link;
use packlab_core::page::PageSettings;
use packlab_core::report::{RunOutcome, RunReport, Table, live_run, run_at};
use packlab_core::scenario::resolve::Resolved;
use packlab_core::view::{LiveRun, Metric, Watch};
use packlab_plot::Trajectory;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{from_json, run_error};

/// The size of the chart in pixels, as the CLI draws it.
const SVG_SIZE: (u32, u32) = (960, 600);

/// Text safe inside HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The metrics `series` knows, by the name Python gives them.
const METRICS: [(&str, Metric); 4] = [
    ("queue", Metric::Queue),
    ("occupancy", Metric::Occupancy),
    ("in_system", Metric::InSystem),
    ("reward", Metric::Reward),
];

fn metric(name: &str) -> PyResult<Metric> {
    METRICS.iter().find(|(n, _)| *n == name).map(|(_, m)| *m).ok_or_else(|| {
        let names: Vec<&str> = METRICS.iter().map(|(n, _)| *n).collect();
        PyValueError::new_err(format!("metric: '{name}' is not one of {}", names.join(", ")))
    })
}

/// `error` with `prefix: ` before its message, of the same exception type.
fn prefixed(prefix: &str, error: PyErr, py: Python<'_>) -> PyErr {
    let message = format!("{prefix}: {}", error.value(py));
    if error.is_instance_of::<PyValueError>(py) {
        PyValueError::new_err(message)
    } else {
        PyRuntimeError::new_err(message)
    }
}

/// Several policies on one scenario and seed (common random numbers).
// Unsendable: a live run is a boxed trait object the core does not promise to be `Send`.
#[pyclass(module = "packlab", unsendable)]
pub struct Race {
    resolved: Resolved,
    /// The runs to the horizon (or the link's moment), one per policy, made on first use.
    outcomes: Option<Vec<RunOutcome>>,
    /// The stepped runs, one per policy, made by the first `step`.
    live: Option<Vec<Box<dyn LiveRun>>>,
    /// The Python policies among the lanes, registered with the core while the race lives.
    _policies: Vec<crate::policy::Registered>,
}

impl Race {
    fn title(&self) -> String {
        let p = &self.resolved.setup.preset;
        format!("{}: {} ({})", p.id, p.title, p.figure)
    }

    fn report_table(&mut self, py: Python<'_>) -> PyResult<Table> {
        let names = self.labels();
        self.outcomes(py)?;
        let outcomes = self.outcomes.as_deref().unwrap_or_default();
        let runs: Vec<Vec<&RunReport>> = outcomes.iter().map(|o| vec![&o.report]).collect();
        Ok(self.resolved.setup.scenario.any().table(&names, &runs, false))
    }

    pub fn new(resolved: Resolved, policies: Vec<crate::policy::Registered>) -> Self {
        Self { resolved, outcomes: None, live: None, _policies: policies }
    }

    fn outcomes(&mut self, py: Python<'_>) -> PyResult<&[RunOutcome]> {
        if self.outcomes.is_none() {
            let Resolved { setup, at, .. } = &self.resolved;
            // Named as `packlab run` names it: "policy dra: types: ...".
            let outcomes = py.detach(|| {
                setup
                    .policies
                    .iter()
                    .map(|p| run_at(setup.preset.id, &setup.scenario, p, *at).map_err(|e| (p.to_string(), e)))
                    .collect::<Result<_, _>>()
            });
            let outcomes = outcomes.map_err(|(policy, e)| prefixed(&format!("policy {policy}"), run_error(e), py))?;
            self.outcomes = Some(outcomes);
        }
        Ok(self.outcomes.as_deref().expect("made above"))
    }

    fn live(&mut self) -> PyResult<&mut Vec<Box<dyn LiveRun>>> {
        if self.live.is_none() {
            let setup = &self.resolved.setup;
            let runs = setup
                .policies
                .iter()
                .map(|p| live_run(&setup.scenario, p, Watch::batch(BATCH_MAX_POINTS)))
                .collect::<Result<_, _>>()
                .map_err(run_error)?;
            self.live = Some(runs);
        }
        Ok(self.live.as_mut().expect("made above"))
    }
}

#[pymethods]
impl Race {
    /// The preset's id.
    #[getter]
    fn preset(&self) -> &'static str {
        self.resolved.setup.preset.id
    }

    /// The policies' specs, in lane order.
    #[getter]
    fn policies(&self) -> Vec<String> {
        self.resolved.setup.policies.iter().map(ToString::to_string).collect()
    }

    /// The policies' names as the charts label them, in lane order.
    #[getter]
    fn labels(&self) -> Vec<String> {
        let setup = &self.resolved.setup;
        setup.scenario.policy_labels(&setup.policies)
    }

    /// Every key of the scenario with its value, as `packlab presets --describe` lists them.
    #[getter]
    fn scenario<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let scenario = &self.resolved.setup.scenario;
        for k in scenario.keys() {
            d.set_item(k.key, scenario.get(k.key).unwrap_or_default())?;
        }
        Ok(d)
    }

    /// What the resolution says: the warm-up rescaled, policies left out.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.resolved.warmup_note.iter().chain(&self.resolved.replay_notes).cloned().collect()
    }

    /// The link that opens this race in the page (a query; put it after the page's address).
    #[getter]
    fn link(&self) -> String {
        let setup = &self.resolved.setup;
        format!("?{}", encode_link(&setup.preset, &setup.policies, &setup.scenario, &PageSettings::default()))
    }

    /// One dict per lane with the fields of `packlab run --json`, the same numbers.
    #[getter]
    fn reports<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for outcome in self.outcomes(py)? {
            let text = serde_json::to_string(&outcome.report).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            list.append(from_json(py, &text)?)?;
        }
        Ok(list)
    }

    /// A series of the whole runs as interval means: `{"start": [...], "end": [...], label:
    /// [...] per lane}` (`queue`, `occupancy`, `in_system` for MSFQ, `reward` for PG-AS).
    #[pyo3(signature = (metric_name = "queue"))]
    fn series<'py>(&mut self, py: Python<'py>, metric_name: &str) -> PyResult<Bound<'py, PyDict>> {
        let m = metric(metric_name)?;
        let labels = self.labels();
        let pick = |o: &RunOutcome| match m {
            Metric::Occupancy => o.occupancy.clone(),
            Metric::InSystem => o.in_system.clone(),
            Metric::Reward => o.reward.clone(),
            _ => o.queue.clone(),
        };
        let all: Vec<_> = self.outcomes(py)?.iter().map(pick).collect();
        let d = PyDict::new(py);
        let first = all.first().cloned().unwrap_or_default();
        d.set_item("start", first.iter().map(|p| p.start).collect::<Vec<_>>())?;
        d.set_item("end", first.iter().map(|p| p.end).collect::<Vec<_>>())?;
        for (label, points) in labels.iter().zip(&all) {
            d.set_item(label, points.iter().map(|p| p.mean).collect::<Vec<_>>())?;
        }
        Ok(d)
    }

    /// `series(metric)` as a pandas DataFrame (pandas is not a dependency: install it).
    #[pyo3(name = "to_pandas", signature = (metric_name = "queue"))]
    fn pandas_frame<'py>(&mut self, py: Python<'py>, metric_name: &str) -> PyResult<Bound<'py, PyAny>> {
        let series = self.series(py, metric_name)?;
        py.import("pandas")?.call_method1("DataFrame", (series,))
    }

    /// Steps every lane to time `until` (inclusive, as the page's timeline does; at most the
    /// horizon), or by `by` time units from where they are. Returns the time reached.
    #[pyo3(signature = (until = None, by = None))]
    fn step(&mut self, until: Option<f64>, by: Option<f64>) -> PyResult<f64> {
        let horizon = self.resolved.setup.scenario.horizon() as f64;
        let runs = self.live()?;
        let now = runs.first().map_or(0.0, |r| r.now());
        let target = match (until, by) {
            (Some(t), None) => t,
            (None, Some(d)) => now + d,
            (None, None) => horizon,
            (Some(_), Some(_)) => return Err(PyValueError::new_err("step: give until or by, not both")),
        };
        if !target.is_finite() || target < 0.0 {
            return Err(PyValueError::new_err(format!("until: must be a time in 0..={horizon}, not {target}")));
        }
        let target = target.min(horizon);
        // With the interpreter held: a live run is not `Send` (and a Python policy needs it).
        runs.iter_mut().try_for_each(|r| r.run_to(target)).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(runs.first().map_or(0.0, |r| r.now()))
    }

    /// The figures of this moment, one dict per lane, as the page's readouts show them.
    fn readings<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let labels = self.labels();
        let list = PyList::empty(py);
        for (label, run) in labels.iter().zip(self.live()?.iter()) {
            let r = run.readings();
            let d = PyDict::new(py);
            d.set_item("policy", label)?;
            d.set_item("time", run.now())?;
            d.set_item("queue_len", r.queue_len)?;
            d.set_item("mean_queue", r.mean_queue)?;
            d.set_item("mean_occupancy", r.mean_occupancy)?;
            d.set_item("measured", r.measured)?;
            d.set_item("arrivals", r.arrivals)?;
            d.set_item("events", r.events)?;
            d.set_item("mean_job_time", r.mean_job_time)?;
            d.set_item("mean_reward", r.mean_reward)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// The trajectory chart `packlab run --out` draws, as an SVG document.
    fn svg(&mut self, py: Python<'_>) -> PyResult<String> {
        self.outcomes(py)?;
        let runs: Vec<&RunOutcome> = self.outcomes.iter().flatten().collect();
        let chart = Trajectory::of(&self.resolved.setup, &runs)
            .ok_or_else(|| PyRuntimeError::new_err("internal: a race without runs"))?;
        packlab_plot::svg(&chart.chart(), SVG_SIZE).map_err(PyRuntimeError::new_err)
    }

    /// The table `packlab run` prints, as text.
    fn table(&mut self, py: Python<'_>) -> PyResult<String> {
        Ok(self.report_table(py)?.render())
    }

    /// A notebook's display: the table `packlab run` prints, the trajectory chart, and the link
    /// that opens the race in the page.
    fn _repr_html_(&mut self, py: Python<'_>) -> PyResult<String> {
        let table = self.report_table(py)?;
        let mut html = String::from("<div class=\"packlab-race\">");
        html += &format!("<p><strong>{}</strong></p><table><thead><tr>", escape(&self.title()));
        for h in &table.header {
            html += &format!("<th>{}</th>", escape(h));
        }
        html += "</tr></thead><tbody>";
        for row in &table.rows {
            html += "<tr>";
            for cell in row {
                html += &format!("<td>{}</td>", escape(cell));
            }
            html += "</tr>";
        }
        html += "</tbody></table>";
        for note in &table.notes {
            html += &format!("<p><small>{}</small></p>", escape(note));
        }
        html += &self.svg(py)?;
        let link = self.link();
        html += &format!("<p>In the page: <code>{}</code></p></div>", escape(&link));
        Ok(html)
    }

    fn __repr__(&self) -> String {
        format!("<packlab race {} {}>", self.resolved.setup.preset.id, self.policies().join(","))
    }
}
