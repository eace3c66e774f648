//! The plan of a sweep: its grid, seeds and runs in order, the scenario of each run, and how
//! the runs become the figure. `packlab sweep`, its shards and `merge`, and the page's sweep
//! workers all follow it, so they make the same runs and draw the same curves.

use std::collections::BTreeSet;

use crate::ConfigError;
use crate::graph::{Graph, Legend, Line, Mark, Point, Stroke};
use crate::keys::{LOAD, SEED};
use crate::model::policy::PolicySpec;
use crate::model::{Figure, Plot, Reference, Sweep};
use crate::report::{RunError, RunOutcome, run};
use crate::scenario::{Scenario, Setup};

use super::run::{CellSummary, SweepRun, summarise};

/// The key errors about the number of replications name.
pub const REPS_KEY: &str = "reps";

/// Replications per point of a sweep unless told (a replay's: [`SweepPlan::default_reps`]).
pub const DEFAULT_REPS: u64 = 5;

/// The seed of replication `rep` of a sweep seeded with `seed`: `seed + rep`, or `None` if
/// that overflows.
pub fn replication_seed(seed: u64, rep: u64) -> Option<u64> {
    seed.checked_add(rep)
}

/// A sweep: the runs of a grid of one scenario key's values, for every policy, with
/// replications.
///
/// The runs are policy-major, then grid value, then replication ([`SweepPlan::task`]);
/// replication `r` runs with seed `seed + r`. The scenario of a run is the setup's with the
/// key at its value and the seed, everything that follows them following as in a run
/// ([`point`]), so each point's numbers are those of `packlab run … --set KEY=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPlan {
    /// The preset, the scenario every point starts from, and the policies.
    pub setup: Setup,
    /// The scenario key along the x axis.
    pub axis: &'static str,
    /// Its values, increasing.
    pub values: Vec<f64>,
    /// One per replication: seed, seed + 1, …
    pub seeds: Vec<u64>,
    pub layout: Layout,
}

/// One run of a sweep: its policy, grid value and replication (indices).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Task {
    pub policy: usize,
    pub value: usize,
    pub rep: usize,
}

/// How a sweep's figures are plotted.
#[derive(Debug, Clone, PartialEq)]
pub enum Layout {
    /// One curve per policy and figure against the axis (several figures per policy: one
    /// colour per figure, markers tell the policies apart), with reference lines.
    AgainstAxis { figures: Vec<Figure>, y_label: &'static str, references: Vec<Reference> },
    /// `figure` against the policies' value of parameter `key`, one curve per grid value.
    AgainstParameter { key: &'static str, x_label: &'static str, figure: Figure },
}

impl Layout {
    /// The preset's plot for the chosen policies: against a parameter only when every policy
    /// has it.
    fn of(policies: &[PolicySpec], plot: Plot) -> Self {
        match plot {
            Plot::Curves { figures, y_label, references } => {
                Self::AgainstAxis { figures: figures.to_vec(), y_label, references: references.to_vec() }
            }
            Plot::AgainstParameter { key, axis, figure } => {
                if policies.iter().all(|p| p.meta().params.iter().any(|param| param.key == key)) {
                    Self::AgainstParameter { key, x_label: axis, figure }
                } else {
                    Self::AgainstAxis { figures: vec![figure], y_label: figure.label, references: Vec::new() }
                }
            }
        }
    }

    /// The figures summarised per cell, in order.
    pub fn figures(&self) -> Vec<Figure> {
        match self {
            Self::AgainstAxis { figures, .. } => figures.clone(),
            Self::AgainstParameter { figure, .. } => vec![*figure],
        }
    }

    pub fn references(&self) -> &[Reference] {
        match self {
            Self::AgainstAxis { references, .. } => references,
            Self::AgainstParameter { .. } => &[],
        }
    }

    pub fn y_label(&self) -> &'static str {
        match self {
            Self::AgainstAxis { y_label, .. } => y_label,
            Self::AgainstParameter { figure, .. } => figure.label,
        }
    }

    /// Several figures per policy (MSFQ Fig. 3's phases): one colour per figure.
    pub fn grouped(&self) -> bool {
        matches!(self, Self::AgainstAxis { figures, .. } if figures.len() > 1)
    }
}

/// A (policy, grid value, figure) point of the figure, once its replications are done.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub policy: usize,
    /// The grid value's index and value.
    pub index: usize,
    pub value: f64,
    pub figure: usize,
    pub summary: CellSummary,
    /// The plot's references in its first run.
    pub references: Vec<f64>,
}

/// One curve of the figure: its label, colour, whether it is marked, and its cells with their
/// x values.
#[derive(Debug, Clone)]
pub struct SweepLine<'a> {
    pub label: String,
    pub color: usize,
    pub markers: bool,
    pub cells: Vec<(f64, &'a Cell)>,
}

/// The scenario of one grid point: `setup`'s with `axis` at `value` and seed `seed`, what
/// follows them following ([`Scenario::follow`]: a replay's horizon its scaling, the warm-up
/// its fraction), exactly as `packlab run` makes it from the same keys.
pub fn point(setup: &Setup, axis: &str, value: f64, seed: u64) -> Result<Scenario, ConfigError> {
    let mut scenario = setup.scenario.clone();
    scenario.set(axis, &value.to_string())?;
    scenario.set(SEED, &seed.to_string())?;
    scenario.follow(&setup.scenario, &setup.preset.scenario, &[axis, SEED])?;
    Ok(scenario)
}

impl SweepPlan {
    /// The sweep of `setup` along `axis` (by default the preset's) over `grid` (comma-separated
    /// values; by default the preset's grid, or the scenario's value of another axis) with
    /// `reps` replications. Each value is checked by the scenario's own key and relations
    /// (errors name the axis key, or [`REPS_KEY`]); presets that sweep no runs are refused
    /// (key `sweep`).
    pub fn new(setup: &Setup, axis: Option<&str>, grid: Option<&str>, reps: u64) -> Result<Self, ConfigError> {
        let (default_axis, default_grid, plot) = match &setup.preset.sweep {
            Sweep::Runs { axis, grid, plot } => (*axis, grid.clone(), *plot),
            Sweep::Theory { .. } => {
                return Err(ConfigError::new(
                    "sweep",
                    format!("{} sweeps the theory, with no runs (packlab sweep draws it)", setup.preset.id),
                ));
            }
            Sweep::Unavailable(why) => return Err(ConfigError::new("sweep", format!("{}: {why}", setup.preset.id))),
        };
        let axis = match axis {
            None => default_axis,
            Some(key) => {
                let keys = setup.scenario.keys();
                keys.iter().find(|k| k.key == key).map(|k| k.key).ok_or_else(|| {
                    let names: Vec<&str> = keys.iter().map(|k| k.key).collect();
                    ConfigError::new("sweep", format!("no key '{key}' to sweep; the keys are {}", names.join(", ")))
                })?
            }
        };
        let values = match grid {
            Some(text) => parse_grid(text, &setup.scenario, axis)?,
            // A replay's load is its traffic scaling: a preset's grid of its own λ or α means
            // nothing to it, so the grid is around the file's own offered load (RES-92). A
            // preset swept in scalings already (PG-RR Fig. 5) keeps its grid.
            None if axis == default_axis && axis == LOAD && !setup.preset.scenario.any().traffic_scaled() => {
                setup.scenario.replay_grid().unwrap_or(default_grid)
            }
            None if axis == default_axis => default_grid,
            None => vec![setup.scenario.get(axis).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)],
        };
        if reps == 0 {
            return Err(ConfigError::new(REPS_KEY, "must be at least 1"));
        }
        let seed = setup.scenario.seed();
        let seeds = (0..reps).map(|r| replication_seed(seed, r)).collect::<Option<Vec<u64>>>().ok_or_else(|| {
            ConfigError::new(REPS_KEY, format!("seed {seed} + {reps} replications overflows a 64-bit seed"))
        })?;
        Ok(Self { layout: Layout::of(&setup.policies, plot), setup: setup.clone(), axis, values, seeds })
    }

    /// What the sweep says of its grid when it chose one around a replayed file's load.
    pub fn grid_note(&self) -> Option<String> {
        let replayed = self.axis == LOAD && self.setup.scenario.replay_grid().as_deref() == Some(&self.values[..]);
        if replayed { self.setup.scenario.replay_grid_note(&self.values) } else { None }
    }

    /// The replications a sweep of `setup` makes unless told: one for a replayed file, whose
    /// workload is the file's in every replication (they would differ only in the policies' own
    /// random choices), else [`DEFAULT_REPS`]; with what to say of the one (RES-92).
    pub fn default_reps(setup: &Setup) -> (u64, Option<&'static str>) {
        if setup.scenario.any().replaying() {
            (
                1,
                Some(
                    "one run per point: a trace file fixes the workload, so replications would repeat it and differ \
                     only in the policies' own random choices (--reps N runs them)",
                ),
            )
        } else {
            (DEFAULT_REPS, None)
        }
    }

    /// Runs in the sweep.
    pub fn len(&self) -> usize {
        self.setup.policies.len() * self.values.len() * self.seeds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Run `i` of the sweep, in its order.
    pub fn task(&self, i: usize) -> Task {
        let reps = self.seeds.len();
        let per_policy = self.values.len() * reps;
        Task { policy: i / per_policy, value: i % per_policy / reps, rep: i % reps }
    }

    /// The scenario of run `task`.
    pub fn scenario(&self, task: Task) -> Result<Scenario, ConfigError> {
        point(&self.setup, self.axis, self.values[task.value], self.seeds[task.rep])
    }

    /// Makes run `i` to its horizon.
    pub fn run(&self, i: usize) -> Result<RunOutcome, RunError> {
        let task = self.task(i);
        run(self.setup.preset.id, &self.scenario(task)?, &self.setup.policies[task.policy])
    }

    /// What run `i` contributes to the figure, from its `run --json` report.
    pub fn sweep_run(&self, report: &serde_json::Value) -> SweepRun {
        SweepRun::from_json(report, &self.layout.figures(), self.layout.references())
    }

    /// The x axis's name: the load knob as it is meant now ("traffic scaling 1/β" while a
    /// trace replays), or the key's label.
    pub fn x_label(&self) -> String {
        match &self.layout {
            Layout::AgainstParameter { x_label, .. } => x_label.to_string(),
            Layout::AgainstAxis { .. } if self.axis == LOAD => self.setup.scenario.any().load_knob().axis.to_string(),
            Layout::AgainstAxis { .. } => self.key_label(),
        }
    }

    /// The axis key's label ("Servers L"), or the load knob's name.
    pub fn key_label(&self) -> String {
        if self.axis == LOAD {
            return self.setup.scenario.any().load_knob().name.to_string();
        }
        self.setup
            .scenario
            .keys()
            .into_iter()
            .find(|k| k.key == self.axis)
            .map_or(self.axis.to_string(), |k| k.label.to_string())
    }

    /// The cells whose replications are all in `results` (indexed as the runs are).
    pub fn cells(&self, results: &[Option<SweepRun>]) -> Vec<Cell> {
        let reps = self.seeds.len();
        let mut cells = Vec::new();
        for policy in 0..self.setup.policies.len() {
            for (index, &value) in self.values.iter().enumerate() {
                let at = (policy * self.values.len() + index) * reps;
                let Some(runs) = results.get(at..at + reps).and_then(|r| r.iter().cloned().collect::<Option<Vec<_>>>())
                else {
                    continue;
                };
                for figure in 0..self.layout.figures().len() {
                    if let Some(summary) = summarise(&runs, figure) {
                        let references = runs[0].references.clone();
                        cells.push(Cell { policy, index, value, figure, summary, references });
                    }
                }
            }
        }
        cells
    }

    /// The policies as the figure names them.
    pub fn labels(&self) -> Vec<String> {
        self.setup.scenario.policy_labels(&self.setup.policies)
    }

    /// The figure's curves from its cells: per policy and figure against the axis, or one per
    /// grid value against the policies' parameter.
    pub fn lines<'a>(&self, cells: &'a [Cell]) -> Vec<SweepLine<'a>> {
        let names = self.labels();
        let cell = |policy: usize, index: usize, figure: usize| {
            cells.iter().find(|c| c.policy == policy && c.index == index && c.figure == figure)
        };
        let along = |policy: usize, figure: usize| -> Vec<(f64, &'a Cell)> {
            (0..self.values.len()).filter_map(|k| cell(policy, k, figure).map(|c| (c.value, c))).collect()
        };
        match &self.layout {
            Layout::AgainstAxis { figures, .. } if figures.len() == 1 => names
                .into_iter()
                .enumerate()
                .map(|(p, label)| SweepLine { label, color: p, markers: true, cells: along(p, 0) })
                .collect(),
            // Colour says the figure; markers tell the policies apart (the first without).
            Layout::AgainstAxis { figures, .. } => names
                .iter()
                .enumerate()
                .flat_map(|(p, name)| {
                    figures.iter().enumerate().map(move |(i, f)| SweepLine {
                        label: format!("{name} {}", f.label),
                        color: i,
                        markers: p > 0,
                        cells: along(p, i),
                    })
                })
                .collect(),
            &Layout::AgainstParameter { key, .. } => {
                let scenario = &self.setup.scenario;
                let value = |p: &PolicySpec| {
                    scenario.policy_param(p, key).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN)
                };
                let policies = &self.setup.policies;
                let mut order: Vec<usize> = (0..policies.len()).collect();
                order.sort_by(|&a, &b| value(&policies[a]).total_cmp(&value(&policies[b])));
                let symbol =
                    if self.axis == LOAD { scenario.any().load_knob().symbol.to_string() } else { self.key_label() };
                self.values
                    .iter()
                    .enumerate()
                    .map(|(k, v)| SweepLine {
                        label: format!("{symbol} = {v}"),
                        color: k,
                        markers: true,
                        cells: order.iter().filter_map(|&p| cell(p, k, 0).map(|c| (value(&policies[p]), c))).collect(),
                    })
                    .collect()
            }
        }
    }

    /// The theory's load marks inside the swept range, or just past its end (within 10% of
    /// the grid's largest value: the curves blow up towards such a bound, and the line says
    /// why), left to right: (value, short symbol, meaning). None but for a sweep of the load.
    pub fn marks(&self) -> Vec<(f64, &'static str, String)> {
        if self.axis != LOAD || matches!(self.layout, Layout::AgainstParameter { .. }) || self.values.is_empty() {
            return Vec::new();
        }
        let (lo, hi) = (self.values[0], self.values[self.values.len() - 1]);
        let mut marks: Vec<_> = self
            .setup
            .scenario
            .marks()
            .into_iter()
            .filter(|m| m.load >= lo - 1e-9 && m.load <= hi / 0.9 + 1e-9)
            .map(|m| (m.load, m.short, m.label))
            .collect();
        marks.sort_by(|a, b| a.0.total_cmp(&b.0));
        marks
    }

    /// The figure: every curve with its 95% intervals (and the paper's analysis, unmarked, in
    /// its curve's colour where it answers), the theory's marks and the references, on a
    /// logarithmic y axis for the queues and times that blow up near a bound.
    pub fn graph(&self, cells: &[Cell]) -> Graph {
        let lines = self.lines(cells);
        let log_y = self.log_y();
        let points = |line: &SweepLine<'_>| -> Vec<Point> {
            line.cells
                .iter()
                // On a logarithmic axis a value of 0 (a phase never visited) has no point.
                .filter(|(_, c)| c.summary.value.is_finite() && (!log_y || c.summary.value > 0.0))
                .map(|&(x, c)| {
                    let [lo, hi] = c.summary.ci;
                    // An unbounded interval (one value) has nothing to draw.
                    Point { x, y: c.summary.value, interval: (lo.is_finite() && hi.is_finite()).then_some((lo, hi)) }
                })
                .collect()
        };
        let mut curves: Vec<Line> = lines
            .iter()
            .map(|line| Line {
                label: line.label.clone(),
                color: line.color,
                points: points(line),
                markers: line.markers,
                stroke: Stroke::Solid,
            })
            // A curve with nothing to draw (a phase the policy never visits) stays out of the legend.
            .filter(|line| !line.points.is_empty())
            .collect();
        // A chart of several figures per policy has curves enough; its analysis is in the table.
        if !self.layout.grouped() {
            curves.extend(lines.iter().filter_map(|line| {
                let points: Vec<Point> =
                    line.cells.iter().filter_map(|&(x, c)| c.summary.analysis.map(|y| Point::new(x, y))).collect();
                (!points.is_empty()).then(|| Line {
                    label: format!("{} (analysis)", line.label),
                    color: line.color,
                    points,
                    markers: false,
                    stroke: Stroke::Solid,
                })
            }));
        }
        let marks = self.marks();
        let mut x_label = self.x_label();
        if !marks.is_empty() {
            let meanings: Vec<&str> = marks.iter().map(|(_, _, meaning)| meaning.as_str()).collect();
            x_label.push_str(&format!("   (dashed: {})", meanings.join("; ")));
        }
        let y_marks = self
            .references(cells)
            .into_iter()
            .filter(|(r, _)| r.line)
            .map(|(r, v)| Mark::new(v, format!("{} = {}", r.label, crate::model::table::sig(v))))
            .collect();
        // Pad both ends: by default the range starts at the first x, which puts the first
        // markers and error bars on the y axis; the right end leaves room for a mark's label.
        let xs = lines.iter().flat_map(|l| l.cells.iter().map(|(x, _)| *x));
        let lo = xs.clone().fold(f64::INFINITY, f64::min);
        let hi = marks.iter().map(|m| m.0).fold(xs.fold(f64::NEG_INFINITY, f64::max), f64::max);
        let span = (hi - lo).max(0.05 * hi.abs().max(1.0));
        let preset = &self.setup.preset;
        Graph {
            id: "sweep",
            title: format!("{}: {}", preset.figure, preset.title),
            x_label,
            y_label: if log_y {
                format!("{} (log scale)", self.layout.y_label())
            } else {
                self.layout.y_label().into()
            },
            lines: curves,
            x_marks: marks.iter().map(|&(value, label, _)| Mark::new(value, label)).collect(),
            y_marks,
            x_range: (lo.is_finite() && hi.is_finite()).then_some((lo - 0.03 * span, hi + 0.08 * span)),
            log_y,
            legend: if log_y { Legend::UpperLeft } else { Legend::LowerRight },
            caption: "Each point is the mean of its replications, with its 95% interval.".into(),
            description: format!(
                "Line chart of {} against {}, one line per policy, with 95% intervals",
                self.layout.y_label(),
                self.x_label()
            ),
            ..Graph::default()
        }
    }

    /// The references the sweep states, with their values in its first run (those it has).
    pub fn references(&self, cells: &[Cell]) -> Vec<(Reference, f64)> {
        let Some(first) = cells.first() else { return Vec::new() };
        self.layout
            .references()
            .iter()
            .copied()
            .zip(first.references.iter().copied())
            .filter(|(_, v)| v.is_finite())
            .collect()
    }

    /// Queues and times grow without bound near a stability limit, so they are drawn on a
    /// logarithmic axis; ratios and rewards, which stay near 1, on a linear one.
    fn log_y(&self) -> bool {
        !self.layout.figures().iter().any(|f| f.per.is_some() || f.key.contains("reward"))
    }

    /// The runs of shard `index` of `count` (1-based): round robin, so every shard gets a share
    /// of every policy and grid value.
    pub fn shard_runs(&self, index: u64, count: u64) -> Vec<usize> {
        ((index - 1) as usize..self.len()).step_by(count as usize).collect()
    }

    /// The distinct grid values across the cells (for tables), in order.
    pub fn xs(lines: &[SweepLine<'_>]) -> Vec<f64> {
        let set: BTreeSet<u64> = lines.iter().flat_map(|l| l.cells.iter().map(|(x, _)| x.to_bits())).collect();
        let mut xs: Vec<f64> = set.into_iter().map(f64::from_bits).collect();
        xs.sort_by(f64::total_cmp);
        xs
    }
}

/// The values of a comma-separated list for key `axis`, each checked by the scenario's own key
/// and relations, then sorted with duplicates removed. Errors name the key.
pub fn parse_grid(text: &str, base: &Scenario, axis: &str) -> Result<Vec<f64>, ConfigError> {
    let range = base.keys().into_iter().find(|k| k.key == axis).map_or(String::new(), |k| k.range);
    let mut values = Vec::new();
    for entry in text.split(',').map(str::trim) {
        if entry.is_empty() {
            return Err(ConfigError::new(
                axis,
                format!("an entry is empty in '{text}'; give values separated by commas, each {range}"),
            ));
        }
        let mut scenario = base.clone();
        scenario.set(axis, entry)?;
        scenario.validate().map_err(|e| ConfigError::new(axis, format!("{entry}: {}: {}", e.key, e.message)))?;
        // The key took it, so it reads back as the number it is.
        values.push(scenario.get(axis).and_then(|v| v.parse::<f64>().ok()).ok_or_else(|| {
            ConfigError::new(axis, format!("'{entry}' is not a number; a sweep's axis takes numbers"))
        })?);
    }
    values.sort_by(f64::total_cmp);
    values.dedup();
    Ok(values)
}
