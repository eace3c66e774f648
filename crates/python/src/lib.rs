//! packlab in Python: the simulation core as the extension module `packlab._packlab`, which
//! the pure-Python package `packlab` (python/packlab) wraps.
//!
//! Nothing here simulates, checks or resolves anything itself: a request goes through the
//! core's [`resolve`] (as the CLI's flags do), runs through the core's
//! [`run_at`](packlab_core::report::run_at) (as `packlab run` does), and a report reaches Python
//! as the same JSON `packlab run --json` prints, so every number is the CLI's, digit for digit.

mod batch;
mod policy;
mod race;

use packlab_core::ConfigError;
use packlab_core::model::report::RunError;
use packlab_core::models::{all_policies, policies_of};
use packlab_core::policy::PolicySpec;
use packlab_core::scenario::resolve::{Names, Request, Setting, Source, resolve};
use packlab_core::scenario::{preset, presets as all_presets};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

pub use race::Race;

/// The package's names for the inputs the core's errors name (the arguments of `run`).
const NAMES: Names = Names { preset: "preset", link: "link", policy: "policy", horizon: "horizon" };

/// A bad value from the user: a `ValueError` with the core's message (it names the key).
pub(crate) fn value_error(e: ConfigError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A run that failed: a bad setting is a `ValueError`, an engine's refusal (a policy's invalid
/// decision, a budget spent) a `RuntimeError`; both carry the core's message.
pub(crate) fn run_error(e: RunError) -> PyErr {
    match e {
        RunError::Config(e) => value_error(e),
        RunError::Engine(e) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// Python's `json.loads(text)`: reports cross as the CLI's JSON, so floats keep every digit.
pub(crate) fn from_json<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Every preset: a list of dicts with `id`, `title`, `figure`, `summary` and `model`.
#[pyfunction]
fn presets(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for p in all_presets() {
        let d = PyDict::new(py);
        d.set_item("id", p.id)?;
        d.set_item("title", p.title)?;
        d.set_item("figure", p.figure)?;
        d.set_item("summary", p.summary)?;
        d.set_item("model", p.scenario.info().id)?;
        list.append(d)?;
    }
    Ok(list)
}

/// What `packlab presets --describe ID` says of a preset, as a dict: the texts, the default
/// policies, every key with its value, help and range, and the model's policies with their
/// parameters.
#[pyfunction]
fn describe<'py>(py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyDict>> {
    let p = preset(id).map_err(value_error)?;
    let d = PyDict::new(py);
    d.set_item("id", p.id)?;
    d.set_item("title", p.title)?;
    d.set_item("figure", p.figure)?;
    d.set_item("summary", p.summary)?;
    d.set_item("explanation", p.explanation)?;
    d.set_item("model", p.scenario.info().id)?;
    let defaults: Vec<String> = p.policies.iter().map(ToString::to_string).collect();
    d.set_item("policies", defaults)?;
    let keys = PyList::empty(py);
    for k in p.scenario.keys() {
        let key = PyDict::new(py);
        key.set_item("key", k.key)?;
        key.set_item("value", p.scenario.get(k.key).unwrap_or_default())?;
        key.set_item("help", k.help)?;
        key.set_item("range", &k.range)?;
        keys.append(key)?;
    }
    d.set_item("keys", keys)?;
    let policies = PyList::empty(py);
    for meta in policies_of(p.scenario.info().id) {
        let m = PyDict::new(py);
        m.set_item("name", meta.name)?;
        m.set_item("label", meta.label)?;
        m.set_item("summary", meta.summary)?;
        m.set_item("default", p.policies.iter().any(|s| s.name() == meta.name))?;
        let params = PyList::empty(py);
        for param in meta.params {
            let q = PyDict::new(py);
            q.set_item("key", param.key)?;
            q.set_item("range", param.range())?;
            q.set_item("help", param.help)?;
            params.append(q)?;
        }
        m.set_item("params", params)?;
        policies.append(m)?;
    }
    d.set_item("model_policies", policies)?;
    Ok(d)
}

/// Every policy name of every model, with its model: `(model, name, label, summary)`.
#[pyfunction]
fn policies() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    all_policies().map(|(model, meta)| (model.id, meta.name, meta.label, meta.summary)).collect()
}

/// The policy specs of `policy`: one spec text, a comma-separated list, a Python policy object
/// (one with the model's decision method), or a list of these; duplicates keep the first, as
/// links and `--policy` do. Objects are registered with the core for as long as what is made
/// of them keeps the registrations returned; `objects` false refuses them.
fn policy_specs(policy: &Bound<'_, PyAny>, objects: bool) -> PyResult<(Vec<PolicySpec>, Vec<policy::Registered>)> {
    let items: Vec<Bound<'_, PyAny>> = if policy.is_instance_of::<PyString>() {
        vec![policy.clone()]
    } else if let Ok(list) = policy.cast::<PyList>() {
        list.iter().collect()
    } else if let Ok(tuple) = policy.cast::<pyo3::types::PyTuple>() {
        tuple.iter().collect()
    } else {
        vec![policy.clone()]
    };
    let mut texts = Vec::new();
    let mut registered = Vec::new();
    for item in &items {
        match item.cast::<PyString>() {
            Ok(text) => texts.push(text.to_str()?.to_string()),
            Err(_) if objects => {
                let (spec, registration) = policy::register(item)?;
                texts.push(spec);
                registered.push(registration);
            }
            Err(_) => {
                return Err(PyValueError::new_err(
                    "policy: a Python policy object races only in packlab.run; give names here (packlab.policies())",
                ));
            }
        }
    }
    let mut out = Vec::new();
    for text in &texts {
        for entry in text.split(',') {
            if entry.trim().is_empty() {
                return Err(PyValueError::new_err(format!(
                    "policy: empty entry in '{text}'; give names separated by commas (packlab.policies())"
                )));
            }
            let spec = PolicySpec::parse(entry).map_err(|e| PyValueError::new_err(format!("policy: {}", e.message)))?;
            if !out.contains(&spec) {
                out.push(spec);
            }
        }
    }
    Ok((out, registered))
}

/// A key's value as the core parses it: text as it is, numbers and booleans as Python writes
/// them (`0.9`, `1e-05`, `True` as `true`).
pub(crate) fn key_value(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.extract::<bool>()
        && value.is_instance_of::<pyo3::types::PyBool>()
    {
        return Ok(b.to_string());
    }
    Ok(value.str()?.to_str()?.to_string())
}

/// `link_or_preset`: a link (anything with `=` or `?`, as the page's address bar holds) or a
/// preset id.
fn source(text: &str) -> Source<'_> {
    if text.contains('=') || text.contains('?') { Source::Link(text) } else { Source::Preset(text) }
}

/// Resolves `link_or_preset` with the policies and keys, as `packlab run`'s flags are.
fn resolved(
    link_or_preset: &str,
    policy: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    horizon: Option<&Bound<'_, PyAny>>,
    keys: Option<&Bound<'_, PyDict>>,
    objects: bool,
) -> PyResult<(packlab_core::scenario::resolve::Resolved, Vec<policy::Registered>)> {
    let (policies, registered) = match policy.map(|p| policy_specs(p, objects)).transpose()? {
        Some((specs, registered)) => (Some(specs), registered),
        None => (None, Vec::new()),
    };
    let mut settings = Vec::new();
    let mut set = |key: &str, value: &Bound<'_, PyAny>| -> PyResult<()> {
        settings.push(Setting::Value { key: key.to_string(), value: key_value(value)?, label: None });
        Ok(())
    };
    if let Some(seed) = seed {
        set("seed", seed)?;
    }
    if let Some(horizon) = horizon {
        set("horizon", horizon)?;
    }
    if let Some(keys) = keys {
        for (key, value) in keys.iter() {
            set(key.cast::<PyString>()?.to_str()?, &value)?;
        }
    }
    let request = Request { source: source(link_or_preset), policies, settings, trace: None };
    Ok((resolve(request, NAMES).map_err(value_error)?, registered))
}

/// Resolves and runs a race: `run(link_or_preset, policy=None, seed=None, horizon=None,
/// **keys)`. The policies run on common random numbers (same seed, same arrivals), each to the
/// horizon, or to a link's `t=` as `packlab run --link` does.
#[pyfunction]
#[pyo3(signature = (link_or_preset, policy=None, seed=None, horizon=None, **keys))]
fn run(
    link_or_preset: &str,
    policy: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    horizon: Option<&Bound<'_, PyAny>>,
    keys: Option<&Bound<'_, PyDict>>,
) -> PyResult<Race> {
    let (resolved, registered) = resolved(link_or_preset, policy, seed, horizon, keys, true)?;
    Ok(Race::new(resolved, registered))
}

/// A paper's figure from replicated runs over a grid, as `packlab sweep` makes it:
/// `sweep(link_or_preset, policy=None, seed=None, horizon=None, axis=None, grid=None,
/// reps=None, progress=None, **keys)`; `progress(done, total, what)` is called between batches.
#[pyfunction]
#[pyo3(signature = (link_or_preset, policy=None, seed=None, horizon=None, axis=None, grid=None, reps=None, progress=None, **keys))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
fn sweep<'py>(
    py: Python<'py>,
    link_or_preset: &str,
    policy: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    horizon: Option<&Bound<'_, PyAny>>,
    axis: Option<&str>,
    grid: Option<&Bound<'_, PyAny>>,
    reps: Option<u64>,
    progress: Option<&Bound<'_, PyAny>>,
    keys: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (resolved, _) = resolved(link_or_preset, policy, seed, horizon, keys, false)?;
    batch::sweep(py, resolved, axis, grid, reps, progress)
}

/// Where each policy stops being stable, as `packlab stability` finds it: `stability(
/// link_or_preset, policy=None, seed=None, horizon=None, axis=None, reps=None, tolerance=None,
/// max_runs=None, max_doublings=None, progress=None, **keys)`, `axis` as `"servers=1,2,4"`;
/// the finder's settings left out are the core's defaults, `packlab stability`'s.
#[pyfunction]
#[pyo3(signature = (link_or_preset, policy=None, seed=None, horizon=None, axis=None, reps=None, tolerance=None, max_runs=None, max_doublings=None, progress=None, **keys))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
fn stability<'py>(
    py: Python<'py>,
    link_or_preset: &str,
    policy: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    horizon: Option<&Bound<'_, PyAny>>,
    axis: Option<&str>,
    reps: Option<u64>,
    tolerance: Option<f64>,
    max_runs: Option<usize>,
    max_doublings: Option<u32>,
    progress: Option<&Bound<'_, PyAny>>,
    keys: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (resolved, _) = resolved(link_or_preset, policy, seed, horizon, keys, false)?;
    let default = packlab_core::stability::Options::default();
    let options = packlab_core::stability::Options {
        reps: reps.unwrap_or(default.reps),
        tolerance: tolerance.unwrap_or(default.tolerance),
        max_runs: max_runs.unwrap_or(default.max_runs),
        max_doublings: max_doublings.unwrap_or(default.max_doublings),
    };
    batch::stability(py, resolved, axis, options, progress)
}

#[pymodule]
fn _packlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(policies, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(sweep, m)?)?;
    m.add_function(wrap_pyfunction!(stability, m)?)?;
    m.add_class::<Race>()?;
    Ok(())
}
