//! The boundary finder: per (axis value, policy) cell, a bracket [lo, hi] of the load with
//! the policy judged stable at lo and unstable at hi, narrowed in rounds. Each round is a set
//! of sweep plans ([`SweepPlan`]: one policy, one load, the replications), whose verdicts
//! decide the next round's loads, so a round runs anywhere a sweep does: in one process, in
//! Web Workers, or split into shards.

use serde::Serialize;

use crate::ConfigError;
use crate::keys::{HORIZON, LOAD};
use crate::model::StabilityTheory;
use crate::model::{Figure, RunError};
use crate::scenario::{Scenario, Setup};
use crate::sweep::{Layout, REPS_KEY, SweepPlan, parse_grid, point, replication_seed};

use super::test::{Growth, Judgement, Verdict, judge};

/// The first round's loads, as fractions of the capacity (or of the scenario's load where the
/// capacity is unknown). They avoid the fractions the papers prove (1/2, 2/3, 0.9, 1) by a few
/// percent, so that no first probe sits on a boundary, where no finite run decides; four are
/// enough, since bisection halves a bracket for a probe while a denser first round pays a
/// probe for every point (RES-58).
pub const FIRST_ROUND: [f64; 4] = [0.47, 0.69, 0.87, 1.04];

/// How the finder is run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Options {
    /// Replications per load (at least 2: the test's interval is over them).
    pub reps: u64,
    /// A bracket is narrow enough when hi − lo ≤ tolerance × hi.
    pub tolerance: f64,
    /// Runs the finder may make in all; cells still searching when the next round does not
    /// fit are reported as stopped by the budget.
    pub max_runs: usize,
    /// Times an undecided load is run again with the horizon doubled.
    pub max_doublings: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self { reps: 8, tolerance: 0.02, max_runs: 20_000, max_doublings: 2 }
    }
}

/// A load tested, with the test's judgement and the horizon it took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Tested {
    pub load: f64,
    pub judgement: Judgement,
    /// The horizon was the scenario's × 2^doublings.
    pub doublings: u32,
}

/// Where a cell's search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Searching,
    /// The bracket is within the tolerance.
    Narrowed,
    /// The run budget ran out first.
    Budget,
    /// Stable at the load key's largest value.
    StableEverywhere,
    /// Unstable down to 1% of the starting load.
    UnstableEverywhere,
}

impl Status {
    /// What the status says, for tables.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Searching => "searching",
            Self::Narrowed => "narrowed",
            Self::Budget => "stopped by the run budget",
            Self::StableEverywhere => "stable up to the largest load",
            Self::UnstableEverywhere => "unstable at every load tried",
        }
    }
}

/// One (axis value, policy) cell of the map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Index into the axis values and the policies.
    pub value: usize,
    pub policy: usize,
    /// The largest load judged stable below `hi`, and the smallest judged unstable.
    pub lo: Option<Tested>,
    pub hi: Option<Tested>,
    /// Whether `hi` is a load no run of the longest horizon decided (counted as not stable).
    pub hi_undecided: bool,
    pub status: Status,
    pub runs: usize,
    /// Verdicts that contradicted the bracket (stable above hi, unstable below lo).
    pub conflicts: usize,
    pub theory: StabilityTheory,
    /// A load still to run with a longer horizon: (load, doublings).
    #[serde(skip)]
    retry: Option<(f64, u32)>,
}

impl Cell {
    /// The bracket's width relative to its upper end, where both ends exist.
    pub fn relative_width(&self) -> Option<f64> {
        let (lo, hi) = (self.lo?.load, self.hi?.load);
        Some((hi - lo) / hi)
    }
}

/// One load to test in a round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Probe {
    pub cell: usize,
    pub load: f64,
    pub doublings: u32,
}

/// A round: its probes, each a sweep plan of its replications.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    pub index: usize,
    pub probes: Vec<Probe>,
    plans: Vec<SweepPlan>,
    reps: usize,
}

impl Round {
    /// Runs in the round: probes × replications, probe-major.
    pub fn len(&self) -> usize {
        self.probes.len() * self.reps
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Run `i`'s probe and replication.
    pub fn task(&self, i: usize) -> (usize, usize) {
        (i / self.reps, i % self.reps)
    }

    /// The scenario of run `i`.
    pub fn scenario(&self, i: usize) -> Result<Scenario, ConfigError> {
        let (probe, rep) = self.task(i);
        let plan = &self.plans[probe];
        plan.scenario(plan.task(rep))
    }

    /// Makes run `i` and measures its growth.
    pub fn run(&self, i: usize) -> Result<Growth, RunError> {
        let (probe, rep) = self.task(i);
        Ok(Growth::of(&self.plans[probe].run(rep)?))
    }
}

/// The finder: the map's setup, its cells, and the runs made so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Finder {
    pub setup: Setup,
    /// The second axis (a scenario key) and its values; without one, no key and the one value
    /// NaN.
    pub axis: Option<&'static str>,
    pub values: Vec<f64>,
    pub options: Options,
    pub cells: Vec<Cell>,
    pub rounds: usize,
    pub runs: usize,
    /// The scenario at each axis value.
    scenarios: Vec<Scenario>,
    seeds: Vec<u64>,
}

impl Finder {
    /// The finder for `setup`'s policies, along `axis` at the comma-separated `grid` (errors
    /// name the key), or at the scenario alone. Refuses a model whose jobs do not wait.
    pub fn new(setup: &Setup, axis: Option<(&str, &str)>, options: Options) -> Result<Self, ConfigError> {
        if !setup.scenario.any().info().queue {
            return Err(ConfigError::new(
                "stability",
                format!("{}: nothing waits in this model, so there is no queue to be stable", setup.preset.id),
            ));
        }
        if options.reps < 2 {
            return Err(ConfigError::new(REPS_KEY, "must be at least 2: the test's interval is over replications"));
        }
        if !(options.tolerance > 0.0 && options.tolerance < 1.0) {
            return Err(ConfigError::new("tolerance", "must be in (0, 1): the bracket's width over its upper end"));
        }
        let seed = setup.scenario.seed();
        let seeds =
            (0..options.reps).map(|r| replication_seed(seed, r)).collect::<Option<Vec<u64>>>().ok_or_else(|| {
                ConfigError::new(REPS_KEY, format!("seed {seed} + {} replications overflows", options.reps))
            })?;
        let (axis, values, scenarios) = match axis {
            None => (None, vec![f64::NAN], vec![setup.scenario.clone()]),
            Some((key, grid)) => {
                let keys = setup.scenario.keys();
                let key = keys.iter().find(|k| k.key == key && k.key != LOAD).map(|k| k.key).ok_or_else(|| {
                    let names: Vec<&str> = keys.iter().map(|k| k.key).filter(|k| *k != LOAD).collect();
                    ConfigError::new("axis", format!("no key '{key}' to map along; the keys are {}", names.join(", ")))
                })?;
                let values = parse_grid(grid, &setup.scenario, key)?;
                let scenarios =
                    values.iter().map(|&v| point(setup, key, v, seed)).collect::<Result<Vec<_>, ConfigError>>()?;
                (Some(key), values, scenarios)
            }
        };
        let mut cells = Vec::new();
        for (value, scenario) in scenarios.iter().enumerate() {
            for (policy, spec) in setup.policies.iter().enumerate() {
                scenario.check_policy(spec)?;
                let theory = scenario.any().stability_theory(spec);
                cells.push(Cell {
                    value,
                    policy,
                    lo: None,
                    hi: None,
                    hi_undecided: false,
                    status: Status::Searching,
                    runs: 0,
                    conflicts: 0,
                    theory,
                    retry: None,
                });
            }
        }
        Ok(Self { setup: setup.clone(), axis, values, options, cells, rounds: 0, runs: 0, scenarios, seeds })
    }

    /// The load the first round's fractions multiply: the capacity, or the scenario's load.
    fn scale(&self, cell: &Cell) -> f64 {
        cell.theory.capacity.as_ref().map_or_else(|| self.scenarios[cell.value].any().load(), |c| c.load)
    }

    /// The loads a cell tests next: its retry, the first round's grid, or the bracket's middle
    /// (or a step out of it while one end is missing). Marks cells that are done.
    fn next_loads(&mut self, index: usize) -> Vec<(f64, u32)> {
        let scale = self.scale(&self.cells[index]);
        let tolerance = self.options.tolerance;
        let cell = &mut self.cells[index];
        if cell.status != Status::Searching {
            return Vec::new();
        }
        if let Some(retry) = cell.retry {
            return vec![retry];
        }
        match (cell.lo, cell.hi) {
            (None, None) => FIRST_ROUND.iter().map(|f| (f * scale, 0)).collect(),
            (Some(lo), Some(hi)) if hi.load - lo.load <= tolerance * hi.load => {
                cell.status = Status::Narrowed;
                Vec::new()
            }
            (Some(lo), Some(hi)) => vec![((lo.load + hi.load) / 2.0, 0)],
            (None, Some(hi)) if hi.load < 0.01 * scale => {
                cell.status = Status::UnstableEverywhere;
                Vec::new()
            }
            (None, Some(hi)) => vec![(hi.load / 2.0, 0)],
            (Some(lo), None) => vec![(lo.load * 1.25, 0)],
        }
    }

    /// The next round, or `None` when every cell is done (or the budget cannot pay for it:
    /// the cells still searching are then stopped by the budget).
    pub fn next_round(&mut self) -> Result<Option<Round>, ConfigError> {
        let mut probes = Vec::new();
        let mut plans = Vec::new();
        for index in 0..self.cells.len() {
            for (load, doublings) in self.next_loads(index) {
                let cell = &self.cells[index];
                let base = &self.scenarios[cell.value];
                let mut scenario = base.clone();
                if doublings > 0 {
                    let horizon = base.any().window().horizon.saturating_mul(1 << doublings);
                    scenario.set(HORIZON, &horizon.to_string())?;
                    scenario.follow(base, &self.setup.preset.scenario, &[HORIZON])?;
                }
                // A load past the key's range ends the search upwards.
                let mut probe_scenario = scenario.clone();
                if probe_scenario.set(LOAD, &load.to_string()).and_then(|()| probe_scenario.validate()).is_err() {
                    self.cells[index].status =
                        if cell.lo.is_some() { Status::StableEverywhere } else { Status::UnstableEverywhere };
                    continue;
                }
                let setup = Setup {
                    preset: self.setup.preset.clone(),
                    scenario,
                    policies: vec![self.setup.policies[cell.policy].clone()],
                };
                plans.push(SweepPlan {
                    setup,
                    axis: LOAD,
                    values: vec![load],
                    seeds: self.seeds.clone(),
                    layout: Layout::AgainstAxis {
                        figures: vec![Figure::MEAN_QUEUE],
                        y_label: Figure::MEAN_QUEUE.label,
                        references: Vec::new(),
                    },
                });
                probes.push(Probe { cell: index, load, doublings });
            }
        }
        let round = Round { index: self.rounds, probes, plans, reps: self.seeds.len() };
        if round.is_empty() {
            return Ok(None);
        }
        if self.runs + round.len() > self.options.max_runs {
            for cell in self.cells.iter_mut().filter(|c| c.status == Status::Searching) {
                cell.status = Status::Budget;
            }
            return Ok(None);
        }
        Ok(Some(round))
    }

    /// Takes a round's results (its runs' growths, in its order) and moves the brackets.
    pub fn absorb(&mut self, round: &Round, growths: &[Growth]) {
        let reps = self.seeds.len();
        for (k, probe) in round.probes.iter().enumerate() {
            let judgement = judge(&growths[k * reps..(k + 1) * reps]);
            let tested = Tested { load: probe.load, judgement, doublings: probe.doublings };
            let max_doublings = self.options.max_doublings;
            let cell = &mut self.cells[probe.cell];
            cell.runs += reps;
            cell.retry = None;
            match judgement.verdict {
                Verdict::Undecided if probe.doublings < max_doublings => {
                    cell.retry = Some((probe.load, probe.doublings + 1));
                }
                Verdict::Stable => {
                    if cell.hi.is_some_and(|hi| probe.load >= hi.load) {
                        cell.conflicts += 1;
                    } else if cell.lo.is_none_or(|lo| probe.load > lo.load) {
                        cell.lo = Some(tested);
                    }
                }
                // Unstable, or undecided at the longest horizon: not shown stable.
                verdict => {
                    if cell.lo.is_some_and(|lo| probe.load <= lo.load) {
                        cell.conflicts += 1;
                    } else if cell.hi.is_none_or(|hi| probe.load < hi.load) {
                        cell.hi = Some(tested);
                        cell.hi_undecided = verdict == Verdict::Undecided;
                    }
                }
            }
        }
        self.runs += round.len();
        self.rounds += 1;
    }

    /// Runs every round to the end in this process, one run after another (the CLI runs a
    /// round's runs in parallel itself).
    pub fn run_all(&mut self) -> Result<(), RunError> {
        while let Some(round) = self.next_round()? {
            let growths = (0..round.len()).map(|i| round.run(i)).collect::<Result<Vec<_>, _>>()?;
            self.absorb(&round, &growths);
        }
        Ok(())
    }

    /// The policies' labels, in order.
    pub fn labels(&self) -> Vec<String> {
        self.setup.scenario.policy_labels(&self.setup.policies)
    }
}
