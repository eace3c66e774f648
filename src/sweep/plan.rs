//! A sweep the page runs: the core's plan ([`SweepPlan`]) of the page's scenario, within the
//! page's limits, and the tasks its workers run. A worker gets the scenario as a link and the
//! plan's grid, rebuilds the same plan and makes one of its runs ([`run_task`]), so the page's
//! numbers are those of `packlab sweep --link LINK …`.

use std::cell::RefCell;

use packlab_core::ConfigError;
use packlab_core::link::{decode_link, encode_link};
use packlab_core::page::PageSettings;
use packlab_core::scenario::Setup;
use packlab_core::sweep::{REPS_KEY, SweepPlan, SweepRun};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

/// Most replications per point the page runs.
pub const MAX_REPS: u64 = 50;
/// Most runs in one sweep (policies × grid values × replications): the results stay small, but
/// a bigger grid belongs to the CLI.
pub const MAX_RUNS: usize = 2_000;
/// The page's name of the grid's field, in messages.
pub const GRID_FIELD: &str = "sweep grid";

/// A sweep of the page's scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct PageSweep {
    pub plan: SweepPlan,
    /// The scenario and lanes as a link (the page's keys left out: they change nothing here).
    pub link: String,
}

/// The link of `setup` alone, without the page's own keys: what a sweep of it depends on.
pub fn scenario_link(setup: &Setup) -> String {
    encode_link(&setup.preset, &setup.policies, &setup.scenario, &PageSettings::default())
}

impl PageSweep {
    /// The sweep of `setup` over `grid` (comma-separated values of the preset's axis) with
    /// `reps` replications, as the page's fields give them; bad text is named with the field
    /// and its range.
    pub fn new(setup: &Setup, grid: &str, reps: &str) -> Result<Self, ConfigError> {
        let reps = reps.trim();
        let count = reps.parse::<u64>().ok().filter(|r| (1..=MAX_REPS).contains(r)).ok_or_else(|| {
            ConfigError::new("replications", format!("must be an integer in 1..={MAX_REPS} (got '{reps}')"))
        })?;
        let plan = SweepPlan::new(setup, None, Some(grid), count).map_err(|e| match e.key.as_str() {
            REPS_KEY => ConfigError::new("replications", e.message),
            "sweep" => e,
            key => ConfigError::new(GRID_FIELD, format!("{key}: {}", e.message)),
        })?;
        if plan.len() > MAX_RUNS {
            return Err(ConfigError::new(
                "replications",
                format!(
                    "{} runs (policies × grid values × replications); the page runs at most {MAX_RUNS}: use `packlab \
                     sweep` for more",
                    plan.len()
                ),
            ));
        }
        Ok(Self { link: scenario_link(setup), plan })
    }

    /// The task of run `index`, for a worker.
    pub fn task(&self, index: usize) -> SweepTask {
        let grid: Vec<String> = self.plan.values.iter().map(f64::to_string).collect();
        SweepTask {
            link: self.link.clone(),
            axis: self.plan.axis.to_string(),
            grid: grid.join(","),
            reps: self.plan.seeds.len() as u64,
            index,
        }
    }

    /// The command that computes the same figure natively.
    pub fn command(&self, origin: &str) -> String {
        let values: Vec<String> = self.plan.values.iter().map(f64::to_string).collect();
        let flag = if self.plan.axis == "servers" { "--servers" } else { "--load" };
        format!(
            "packlab sweep --link '{origin}?{}' {flag} {} --reps {}",
            self.link,
            values.join(","),
            self.plan.seeds.len()
        )
    }
}

/// One run of a sweep, as a worker receives it: the scenario's link, the plan's axis, grid and
/// replications, and the run's index in the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepTask {
    pub link: String,
    pub axis: String,
    pub grid: String,
    pub reps: u64,
    pub index: usize,
}

/// A worker's last plan, with the task it was built for (its index apart).
type Cached = (SweepTask, SweepPlan);

thread_local! {
    /// The plan of the worker's last task: the tasks of a sweep share it.
    static PLAN: RefCell<Option<Cached>> = const { RefCell::new(None) };
}

/// Runs one task: the plan of its link and grid (the page's, rebuilt the same), its run
/// `index` to the horizon, and what that run contributes to the figure.
pub fn run_task(task: &SweepTask) -> Result<SweepRun, String> {
    let key = SweepTask { index: 0, ..task.clone() };
    let plan = PLAN.with(|cell| {
        if let Some((k, plan)) = &*cell.borrow()
            && *k == key
        {
            return Ok(plan.clone());
        }
        let (link, errors) = decode_link(&task.link);
        if let Some(e) = errors.first() {
            return Err(e.to_string());
        }
        let setup = Setup { preset: link.preset, scenario: link.scenario, policies: link.policies };
        let plan = SweepPlan::new(&setup, Some(&task.axis), Some(&task.grid), task.reps).map_err(|e| e.to_string())?;
        *cell.borrow_mut() = Some((key, plan.clone()));
        Ok(plan)
    })?;
    if task.index >= plan.len() {
        return Err(format!("run {} of a sweep of {}", task.index, plan.len()));
    }
    let outcome = plan.run(task.index).map_err(|e| e.to_string())?;
    Ok(plan.sweep_run(&serde_json::to_value(&outcome.report).map_err(|e| e.to_string())?))
}

/// [`run_task`] for the worker: a task as JSON in, a [`SweepRun`] as JSON out.
#[wasm_bindgen]
pub fn run_sweep_task(task: &str) -> Result<String, JsValue> {
    let task: SweepTask = serde_json::from_str(task).map_err(|e| JsValue::from_str(&format!("bad task: {e}")))?;
    let run = run_task(&task).map_err(|e| JsValue::from_str(&e))?;
    serde_json::to_string(&run).map_err(|e| JsValue::from_str(&e.to_string()))
}
