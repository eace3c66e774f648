//! The boundary finder: per (axis value, policy) cell, a bracket [lo, hi] of the load with
//! the policy judged stable at lo and not stable at hi, narrowed in rounds. Loads the test
//! leaves undecided at the longest horizon bound nothing: they form a band inside the bracket
//! that the search narrows around from both sides. Each round is a set
//! of sweep plans ([`SweepPlan`]: one policy, one load, the replications), whose verdicts
//! decide the next round's loads, so a round runs anywhere a sweep does: in one process, in
//! Web Workers, or split into shards.

use serde::Serialize;

use crate::ConfigError;
use crate::keys::{HORIZON, LOAD, SEED};
use crate::model::StabilityTheory;
use crate::model::{Figure, RunError};
use crate::scenario::{Scenario, Setup};
use crate::sweep::{Layout, REPS_KEY, SweepPlan, parse_grid, point, replication_seed};

use super::test::{Judgement, Verdict, boundary_ceiling, boundary_floor, look_budget, measure};
use crate::metrics::{Growth, judge};

/// The first round's loads, as fractions of the capacity (or of the scenario's load where the
/// capacity is unknown). They avoid the fractions the papers prove (1/2, 2/3, 0.9, 1) by a few
/// percent, so that no first probe sits on a boundary, where no finite run decides; four are
/// enough, since bisection halves a bracket for a probe while a denser first round pays a
/// probe for every point (RES-58).
pub const FIRST_ROUND: [f64; 4] = [0.47, 0.69, 0.87, 1.04];

/// How the finder is run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Options {
    /// Replications per load (at least 2: the test's interval is over them). A load is first
    /// judged on the first half of them, and on all of them only if that does not decide.
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
    /// Narrowed around loads no run of the longest horizon decided: the boundary lies in the
    /// bracket, somewhere the test cannot place within the run budget.
    Undecidable,
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
            Self::Undecidable => "narrowed to an undecided band",
        }
    }
}

/// One (axis value, policy) cell of the map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// Index into the axis values and the policies.
    pub value: usize,
    pub policy: usize,
    /// The largest load judged stable below `hi`, and the smallest judged not stable.
    pub lo: Option<Tested>,
    pub hi: Option<Tested>,
    /// Loads no run of the longest horizon decided, in the order judged.
    pub undecided: Vec<Tested>,
    pub status: Status,
    pub runs: usize,
    /// Verdicts that contradicted the bracket (stable above hi, unstable below lo).
    pub conflicts: usize,
    pub theory: StabilityTheory,
    /// A load to run again: more replications, or a longer horizon.
    #[serde(skip)]
    retry: Option<Retry>,
}

impl Cell {
    /// The bracket's width relative to its upper end, where both ends exist.
    pub fn relative_width(&self) -> Option<f64> {
        let (lo, hi) = (self.lo?.load, self.hi?.load);
        Some((hi - lo) / hi)
    }

    /// The smallest and largest undecided loads inside the bracket (above `lo`, below `hi`,
    /// where they exist).
    pub fn band(&self) -> Option<(f64, f64)> {
        let inside = |load: f64| self.lo.is_none_or(|lo| load > lo.load) && self.hi.is_none_or(|hi| load < hi.load);
        self.undecided.iter().map(|t| t.load).filter(|&l| inside(l)).fold(None, |band, l| match band {
            None => Some((l, l)),
            Some((a, b)) => Some((a.min(l), b.max(l))),
        })
    }

    /// Where the boundary lies as the test places it: above `lo` less the test's resolution
    /// (a load judged stable may be up to 0.5% past its boundary, [`boundary_floor`]) and
    /// below `hi` plus the margin for a queue still filling at the end of its runs (1%,
    /// [`boundary_ceiling`]); from 0 without `lo`, unbounded without `hi`. `None` before a
    /// decided verdict.
    pub fn boundary(&self) -> Option<(f64, f64)> {
        match (self.lo, self.hi) {
            (None, None) => None,
            (lo, hi) => Some((
                lo.map_or(0.0, |t| boundary_floor(t.load)),
                hi.map_or(f64::INFINITY, |t| boundary_ceiling(t.load)),
            )),
        }
    }
}

/// A load whose replications so far did not decide: the next replications to add at the same
/// horizon (`from` on), or a longer horizon.
#[derive(Debug, Clone, PartialEq)]
struct Retry {
    load: f64,
    doublings: u32,
    from: usize,
    earlier: Vec<Growth>,
}

/// One load to test in a round, with the replications (seed indices `reps.0..reps.1`) it adds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Probe {
    pub cell: usize,
    pub load: f64,
    pub doublings: u32,
    pub reps: (usize, usize),
}

/// A round: its probes, each a sweep plan of its replications.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    pub index: usize,
    pub probes: Vec<Probe>,
    pub(super) plans: Vec<SweepPlan>,
    /// Where each probe's runs start, then the round's length.
    offsets: Vec<usize>,
}

impl Round {
    /// Runs in the round: each probe's replications, probe after probe.
    pub fn len(&self) -> usize {
        self.offsets.last().copied().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Run `i`'s probe, and its replication among the probe's.
    pub fn task(&self, i: usize) -> (usize, usize) {
        let probe = self.offsets.partition_point(|&o| o <= i) - 1;
        (probe, i - self.offsets[probe])
    }

    /// What run `i` is made of: its probe's set-up (the horizon as doubled, one policy), its load
    /// and its seed ([`crate::link::RunTask`] carries them to a worker).
    pub fn run_of(&self, i: usize) -> (&Setup, f64, u64) {
        let (probe, rep) = self.task(i);
        let plan = &self.plans[probe];
        (&plan.setup, plan.values[0], plan.seeds[rep])
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
        let plan = &self.plans[probe];
        let task = plan.task(rep);
        measure(plan.setup.preset.id, &plan.scenario(task)?, &plan.setup.policies[task.policy])
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
    /// Every load judged so far, with its cell's index, in the order judged (a load run again
    /// with a longer horizon appears once per horizon): what the page colours by verdict.
    pub tested: Vec<(usize, Tested)>,
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
                if key == SEED {
                    return Err(ConfigError::new(
                        "axis",
                        "the map gives replication r the seed + r itself: set the first seed with seed, not along the axis",
                    ));
                }
                let key = keys.iter().find(|k| k.key == key && k.key != LOAD).map(|k| k.key).ok_or_else(|| {
                    let names: Vec<&str> = keys.iter().map(|k| k.key).filter(|k| ![LOAD, SEED].contains(k)).collect();
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
                    undecided: Vec::new(),
                    status: Status::Searching,
                    runs: 0,
                    conflicts: 0,
                    theory,
                    retry: None,
                });
            }
        }
        Ok(Self {
            setup: setup.clone(),
            axis,
            values,
            options,
            cells,
            rounds: 0,
            runs: 0,
            tested: Vec::new(),
            scenarios,
            seeds,
        })
    }

    /// The load the first round's fractions multiply: the capacity; for a replayed file, the
    /// scaling at which it offers the capacity (RES-92); else the scenario's load.
    fn scale(&self, cell: &Cell) -> f64 {
        let scenario = &self.scenarios[cell.value];
        cell.theory
            .capacity
            .as_ref()
            .map(|c| c.load)
            .or_else(|| scenario.replay_capacity_scaling())
            .unwrap_or_else(|| scenario.any().load())
    }

    /// Replications a load is judged on first.
    fn first_reps(&self) -> usize {
        self.seeds.len().div_ceil(2).max(2).min(self.seeds.len())
    }

    /// The loads a cell tests next: its retry, the first round's grid, or the middle of each
    /// gap of the bracket wider than the tolerance (around the undecided band, if any), or a
    /// step out of it while an end is missing; with the horizon's doublings and the
    /// replications. Marks cells that are done.
    fn next_loads(&mut self, index: usize) -> Vec<(f64, u32, (usize, usize))> {
        let first = self.first_reps();
        let all = self.seeds.len();
        let scale = self.scale(&self.cells[index]);
        let tolerance = self.options.tolerance;
        let cell = &mut self.cells[index];
        if cell.status != Status::Searching {
            return Vec::new();
        }
        if let Some(retry) = &cell.retry {
            let to = if retry.from == 0 { first } else { all };
            return vec![(retry.load, retry.doublings, (retry.from, to))];
        }
        let fresh = |load: f64| (load, 0, (0, first));
        let band = cell.band();
        let (lo, hi) = (cell.lo.map(|t| t.load), cell.hi.map(|t| t.load));
        if lo.is_none() && hi.is_none() && band.is_none() {
            return FIRST_ROUND.iter().map(|f| fresh(f * scale)).collect();
        }
        let mut loads = Vec::new();
        // The lowest and highest loads known on each side of the band.
        let below = band.map_or(hi, |b| Some(b.0));
        let above = band.map_or(lo, |b| Some(b.1));
        match (lo, below) {
            (None, Some(low)) if low < 0.01 * scale => {
                cell.status = Status::UnstableEverywhere;
                return Vec::new();
            }
            (None, Some(low)) => loads.push(fresh(low / 2.0)),
            (Some(lo), Some(low)) if low - lo > tolerance * hi.unwrap_or(low) => loads.push(fresh((lo + low) / 2.0)),
            _ => {}
        }
        match (above, hi) {
            (Some(high), None) => loads.push(fresh(high * 1.25)),
            (Some(high), Some(hi)) if band.is_some() && hi - high > tolerance * hi => {
                loads.push(fresh((high + hi) / 2.0))
            }
            _ => {}
        }
        if loads.is_empty() {
            cell.status = if band.is_some() { Status::Undecidable } else { Status::Narrowed };
        }
        loads
    }

    /// The next round, or `None` when every cell is done (or the budget cannot pay for it:
    /// the cells still searching are then stopped by the budget).
    pub fn next_round(&mut self) -> Result<Option<Round>, ConfigError> {
        let mut probes = Vec::new();
        let mut plans = Vec::new();
        let mut offsets = vec![0];
        for index in 0..self.cells.len() {
            for (load, doublings, reps) in self.next_loads(index) {
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
                match probe_scenario.set(LOAD, &load.to_string()).and_then(|()| probe_scenario.validate()) {
                    Ok(()) => {}
                    Err(e) if e.key == LOAD => {
                        self.cells[index].status = match (cell.lo, cell.band()) {
                            (_, Some(_)) => Status::Undecidable,
                            (Some(_), None) => Status::StableEverywhere,
                            (None, None) => Status::UnstableEverywhere,
                        };
                        continue;
                    }
                    Err(e) => return Err(e),
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
                    seeds: self.seeds[reps.0..reps.1].to_vec(),
                    layout: Layout::AgainstAxis {
                        figures: vec![Figure::MEAN_QUEUE],
                        y_label: Figure::MEAN_QUEUE.label,
                        references: Vec::new(),
                    },
                });
                offsets.push(offsets.last().copied().unwrap_or(0) + reps.1 - reps.0);
                probes.push(Probe { cell: index, load, doublings, reps });
            }
        }
        let round = Round { index: self.rounds, probes, plans, offsets };
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

    /// Takes a round's results (its runs' growths, in its order) and moves the brackets. Each
    /// look at a load spends [`look_budget`] of the error budget.
    pub fn absorb(&mut self, round: &Round, growths: &[Growth]) {
        let all = self.seeds.len();
        let max_doublings = self.options.max_doublings;
        let alpha = look_budget(max_doublings);
        for (k, probe) in round.probes.iter().enumerate() {
            let cell = &mut self.cells[probe.cell];
            let new = &growths[round.offsets[k]..round.offsets[k + 1]];
            cell.runs += new.len();
            // The replications of this load and horizon so far, the earlier stage's first.
            let mut runs = match cell.retry.take() {
                Some(r) if r.load == probe.load && r.doublings == probe.doublings => r.earlier,
                _ => Vec::new(),
            };
            runs.extend_from_slice(new);
            let judgement = judge(&runs, alpha);
            let tested = Tested { load: probe.load, judgement, doublings: probe.doublings };
            if judgement.verdict == Verdict::Undecided && probe.reps.1 < all {
                cell.retry =
                    Some(Retry { load: probe.load, doublings: probe.doublings, from: probe.reps.1, earlier: runs });
                continue;
            }
            self.tested.push((probe.cell, tested));
            let cell = &mut self.cells[probe.cell];
            match judgement.verdict {
                Verdict::Undecided if probe.doublings < max_doublings => {
                    cell.retry =
                        Some(Retry { load: probe.load, doublings: probe.doublings + 1, from: 0, earlier: Vec::new() });
                }
                // Undecided at the longest horizon: neither end, a point of the band.
                Verdict::Undecided => cell.undecided.push(tested),
                Verdict::Stable => {
                    if cell.hi.is_some_and(|hi| probe.load >= hi.load) {
                        cell.conflicts += 1;
                    } else if cell.lo.is_none_or(|lo| probe.load > lo.load) {
                        cell.lo = Some(tested);
                    }
                }
                Verdict::Unstable => {
                    if cell.lo.is_some_and(|lo| probe.load <= lo.load) {
                        cell.conflicts += 1;
                    } else if cell.hi.is_none_or(|hi| probe.load < hi.load) {
                        cell.hi = Some(tested);
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

    /// The lab at axis value `value` and `load`, racing the map's policies: where a user
    /// watches the queue grow or settle at a point of the map ([`crate::link::map_point`] is its
    /// link).
    pub fn lab_setup(&self, value: usize, load: f64) -> Result<Setup, ConfigError> {
        let base = self.scenarios.get(value).ok_or_else(|| ConfigError::new("axis", "no such axis value"))?;
        let mut scenario = base.clone();
        scenario.set(LOAD, &load.to_string())?;
        scenario.follow(base, &self.setup.preset.scenario, &[LOAD])?;
        Ok(Setup { scenario, ..self.setup.clone() })
    }

    /// The policies' labels, in order.
    pub fn labels(&self) -> Vec<String> {
        self.setup.scenario.policy_labels(&self.setup.policies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::policy::PolicySpec;

    fn quick(policy: &str) -> Finder {
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.policies = vec![PolicySpec::parse(policy).unwrap()];
        let before = setup.scenario.clone();
        setup.scenario.set(HORIZON, "200000").unwrap();
        setup.scenario.follow(&before, &before, &[HORIZON]).unwrap();
        let options = Options { reps: 4, tolerance: 0.1, ..Options::default() };
        Finder::new(&setup, None, options).unwrap()
    }

    #[test]
    fn a_coarse_search_brackets_vqs_near_two_thirds_and_repeats_itself() {
        let mut finder = quick("vqs");
        finder.run_all().unwrap();
        let cell = &finder.cells[0];
        assert!(matches!(cell.status, Status::Narrowed | Status::Undecidable), "{cell:?}");
        let (lo, hi) = cell.boundary().unwrap();
        assert!(lo <= 2.0 / 3.0 && (2.0 / 3.0..=0.8).contains(&hi), "[{lo}, {hi}] holds 2/3");
        // Narrowed around the undecided loads, if any, to the tolerance.
        let (low, high) = cell.band().unwrap_or((hi, hi));
        let (lo_load, hi_load) = (cell.lo.unwrap().load, cell.hi.unwrap().load);
        assert!(low - lo_load <= 0.1 * hi_load && hi_load - high <= 0.1 * hi_load, "{cell:?}");
        assert_eq!(cell.theory.proven_load(), Some(2.0 / 3.0));
        let mut again = quick("vqs");
        again.run_all().unwrap();
        assert_eq!(again.cells, finder.cells, "same scenario and seeds, same map");
    }

    #[test]
    fn rounds_number_their_runs_probe_after_probe() {
        let mut finder = quick("bf-js");
        let round = finder.next_round().unwrap().unwrap();
        assert_eq!(round.probes.len(), FIRST_ROUND.len());
        assert_eq!(round.len(), FIRST_ROUND.len() * 2, "the first stage is half of 4 replications");
        assert_eq!((round.task(0), round.task(1), round.task(2), round.task(7)), ((0, 0), (0, 1), (1, 0), (3, 1)));
        assert!(finder.clone().next_round().unwrap().is_some());
        finder.options.max_runs = 3;
        assert_eq!(finder.next_round().unwrap(), None, "the budget cannot pay for a round");
        assert_eq!(finder.cells[0].status, Status::Budget);
    }

    #[test]
    fn a_map_needs_a_queue_replications_and_a_key() {
        let setup = Setup::from_preset("pgas-c3").unwrap();
        assert_eq!(Finder::new(&setup, None, Options::default()).unwrap_err().key, "stability");
        let setup = Setup::from_preset("pgrr-a1").unwrap();
        let one = Options { reps: 1, ..Options::default() };
        assert_eq!(Finder::new(&setup, None, one).unwrap_err().key, REPS_KEY);
        assert_eq!(Finder::new(&setup, Some(("load", "1,2")), Options::default()).unwrap_err().key, "axis");
        let seeds = Finder::new(&setup, Some(("seed", "1,2,3")), Options::default()).unwrap_err();
        assert!(seeds.key == "axis" && seeds.message.contains("replication r"), "{seeds}");
        assert_eq!(Finder::new(&setup, Some(("servers", "0")), Options::default()).unwrap_err().key, "servers");
        let map = Finder::new(&setup, Some(("servers", "1,2")), Options::default()).unwrap();
        assert_eq!((map.values.clone(), map.cells.len()), (vec![1.0, 2.0], 2 * setup.policies.len()));
    }
}
