//! A sweep as plain data (tested natively): the grid of the page's scenario with its
//! replications ([`SweepPlan`]), the runs it takes ([`SweepTask`], run by [`run_task`] in a
//! worker), and the points complete so far ([`Cell`]).

use packlab_core::ConfigError;
use packlab_core::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::{Figure, Setup, decode_link};
use packlab_core::sweep::{self, Axis, CellSummary, GridError, SweepRun};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::state::speed::SPEED_KEY;

/// Most replications per point the page runs.
pub const MAX_REPS: u64 = 50;
/// Most runs in one sweep (policies × loads × replications): the results stay small, but a
/// bigger grid belongs to the CLI.
pub const MAX_RUNS: usize = 2_000;

/// One run of the grid, as a worker receives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepTask {
    /// The page's link query: the scenario, as `packlab sweep --link` reads it.
    pub link: String,
    pub policy: String,
    /// What the grid varies, and its value at this point.
    pub axis: Axis,
    pub value: f64,
    pub seed: u64,
}

/// Runs one task: the link's scenario at the task's load and seed, under its policy, to the
/// horizon; the figures the link's preset plots.
pub fn run_task(task: &SweepTask) -> Result<SweepRun, String> {
    let (link, errors) = decode_link(&task.link, &[SPEED_KEY]);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    let setup = Setup { preset: link.preset, scenario: link.scenario, policies: link.policies };
    let scenario = sweep::point(&setup.scenario, task.axis, task.value, task.seed).map_err(|e| e.to_string())?;
    let policy = PolicySpec::parse(&task.policy).map_err(|e| e.to_string())?;
    let outcome = run(setup.preset.id, &scenario, &policy).map_err(|e| e.to_string())?;
    Ok(SweepRun::of(&outcome.report, &sweep::plotted_figures(&setup)))
}

/// [`run_task`] for the worker: a task as JSON in, a [`SweepRun`] as JSON out.
#[wasm_bindgen]
pub fn run_sweep_task(task: &str) -> Result<String, JsValue> {
    let task: SweepTask = serde_json::from_str(task).map_err(|e| JsValue::from_str(&format!("bad task: {e}")))?;
    let run = run_task(&task).map_err(|e| JsValue::from_str(&e))?;
    serde_json::to_string(&run).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// A sweep to run: the grid of the page's scenario, with the preset's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPlan {
    pub link: String,
    pub policies: Vec<PolicySpec>,
    /// The policies as the charts name them.
    pub labels: Vec<String>,
    pub axis: Axis,
    /// The grid: loads, or numbers of servers.
    pub values: Vec<f64>,
    /// One per replication: seed, seed + 1, …
    pub seeds: Vec<u64>,
    pub figures: Vec<Figure>,
}

/// One point of the figure: a (policy, grid value, figure) cell once its replications are
/// done.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub policy: usize,
    pub value: f64,
    pub figure: usize,
    pub summary: CellSummary,
    /// PG-AS's U^(g) and U* per server at this point, where the workload has them.
    pub bounds: Option<[f64; 2]>,
}

impl SweepPlan {
    /// The sweep of `setup` (whose link is `query`) over the grid `grid` (comma-separated
    /// loads, or numbers of servers for PG-AS's sweeps against L) with `reps` replications.
    /// Bad text is named with the field and its range.
    pub fn new(setup: &Setup, query: &str, grid: &str, reps: &str) -> Result<Self, ConfigError> {
        let figures = sweep::plotted_figures(setup);
        let Some((axis, _)) = sweep::default_grid(setup).filter(|_| !figures.is_empty()) else {
            return Err(ConfigError::new("sweep", format!("{} has no sweep of runs", setup.preset.id)));
        };
        let key = axis.key();
        let range = setup.scenario.keys().into_iter().find(|k| k.key == key).map_or(String::new(), |k| k.range);
        let field = grid_field(axis);
        let values = sweep::parse_grid(grid, &setup.scenario, axis).map_err(|e| match e {
            GridError::EmptyEntry => {
                ConfigError::new(field, format!("an entry is empty; give values separated by commas, each {range}"))
            }
            GridError::Rejected(e) => ConfigError::new(field, e.message),
            GridError::Invalid { entry, error } => {
                ConfigError::new(field, format!("{entry}: {}: {}", error.key, error.message))
            }
        })?;
        let reps = reps.trim();
        let reps = reps.parse::<u64>().ok().filter(|r| (1..=MAX_REPS).contains(r)).ok_or_else(|| {
            ConfigError::new("replications", format!("must be an integer in 1..={MAX_REPS} (got '{reps}')"))
        })?;
        let seed = setup.scenario.seed();
        let seeds = (0..reps)
            .map(|r| sweep::replication_seed(seed, r))
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| ConfigError::new("replications", format!("seed {seed} + {reps} overflows a 64-bit seed")))?;
        let runs = setup.policies.len() * values.len() * seeds.len();
        if runs > MAX_RUNS {
            return Err(ConfigError::new(
                "replications",
                format!(
                    "{runs} runs (policies × loads × replications); the page runs at most {MAX_RUNS}: use `packlab \
                     sweep` for more"
                ),
            ));
        }
        Ok(Self {
            link: query.to_string(),
            labels: setup.policies.iter().map(|p| setup.scenario.policy_label(p)).collect(),
            policies: setup.policies.clone(),
            axis,
            values,
            seeds,
            figures,
        })
    }

    /// The runs, policy-major, then grid value, then replication (the CLI's order): a point's
    /// replications run together, so points complete one after another.
    pub fn tasks(&self) -> Vec<SweepTask> {
        let mut tasks = Vec::with_capacity(self.policies.len() * self.values.len() * self.seeds.len());
        for policy in &self.policies {
            for &value in &self.values {
                for &seed in &self.seeds {
                    let (link, policy, axis) = (self.link.clone(), policy.to_string(), self.axis);
                    tasks.push(SweepTask { link, policy, axis, value, seed });
                }
            }
        }
        tasks
    }

    /// The cells whose replications are all in `results` (indexed as [`Self::tasks`]).
    pub fn cells(&self, results: &[Option<SweepRun>]) -> Vec<Cell> {
        let reps = self.seeds.len();
        let mut cells = Vec::new();
        for (policy, _) in self.policies.iter().enumerate() {
            for (k, &value) in self.values.iter().enumerate() {
                let at = (policy * self.values.len() + k) * reps;
                let Some(runs) = results.get(at..at + reps).and_then(|r| r.iter().cloned().collect::<Option<Vec<_>>>())
                else {
                    continue;
                };
                for figure in 0..self.figures.len() {
                    if let Some(summary) = sweep::summarise(&runs, figure) {
                        cells.push(Cell { policy, value, figure, summary, bounds: runs[0].bounds });
                    }
                }
            }
        }
        cells
    }

    /// The command that computes the same figure natively.
    pub fn command(&self, origin: &str) -> String {
        let values: Vec<String> = self.values.iter().map(|l| l.to_string()).collect();
        let flag = match self.axis {
            Axis::Load => "--load",
            Axis::Servers => "--servers",
        };
        format!("packlab sweep --link '{origin}?{}' {flag} {} --reps {}", self.link, values.join(","), self.seeds.len())
    }
}

/// The name of the grid's field, in messages and on the page.
fn grid_field(axis: Axis) -> &'static str {
    match axis {
        Axis::Load => "sweep loads",
        Axis::Servers => "sweep servers",
    }
}
