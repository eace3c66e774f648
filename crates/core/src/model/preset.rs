//! A model's presets: each figure and instability example of its paper, with the sweep that
//! draws the figure. A model declares them for its own scenario type; the catalogue of every
//! model's ([`crate::scenario::presets`]) holds them as [`crate::scenario::Preset`]s.

use crate::model::policy::PolicySpec;

/// A one-click scenario with the policies it compares, for scenarios of type `S`.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset<S> {
    /// Lower-case id, starting with the model's id: `pgrr-a1`.
    pub id: &'static str,
    pub title: &'static str,
    /// The paper figure or result it reproduces.
    pub figure: &'static str,
    /// One line on what it shows.
    pub summary: &'static str,
    /// A short paragraph for "What am I looking at?".
    pub explanation: &'static str,
    pub scenario: S,
    pub policies: Vec<PolicySpec>,
    /// What `packlab sweep` draws for it: the paper's figure.
    pub sweep: Sweep,
}

impl<S> Preset<S> {
    /// The same preset with its scenario converted (a model's scenario into any model's).
    pub fn map<T>(self, f: impl FnOnce(S) -> T) -> Preset<T> {
        let Preset { id, title, figure, summary, explanation, scenario, policies, sweep } = self;
        Preset { id, title, figure, summary, explanation, scenario: f(scenario), policies, sweep }
    }
}

/// A preset's sweep: what varies along the x axis, its default grid, and what is plotted.
#[derive(Debug, Clone, PartialEq)]
pub enum Sweep {
    /// Replicated runs over a grid of values of the scenario key `axis` (the load knob, the
    /// number of servers L, …), the rest of the scenario as it is.
    Runs { axis: &'static str, grid: Vec<f64>, plot: Plot },
    /// The theory's curves over a grid of loads, no simulation (PG-AS Fig. 2): the model's
    /// [`crate::model::Model::theory_sweep`].
    Theory { grid: Vec<f64> },
    /// No sweep; the text says what to run instead.
    Unavailable(&'static str),
}

impl Sweep {
    /// Runs over a grid of loads.
    pub fn load(grid: &[f64], plot: Plot) -> Self {
        Self::Runs { axis: crate::keys::LOAD, grid: grid.to_vec(), plot }
    }
}

/// What a sweep of runs plots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plot {
    /// One curve per policy and figure against the axis, on a y axis labelled `y_label`
    /// (several figures: one colour each, markers tell the policies apart, as MSFQ Fig. 3's
    /// phases), with horizontal reference lines read from the runs.
    Curves { figures: &'static [Figure], y_label: &'static str, references: &'static [Reference] },
    /// `figure` against the value of the policies' parameter `key`, one curve per value of the
    /// axis (MSFQ Fig. 4: E\[T\] against ℓ). Falls back to `figure` against the axis when some
    /// policy has no such parameter.
    AgainstParameter { key: &'static str, axis: &'static str, figure: Figure },
}

impl Plot {
    /// One curve per policy of `figure`.
    pub const fn one(figure: &'static Figure) -> Self {
        Self::Curves { figures: std::slice::from_ref(figure), y_label: figure.label, references: &[] }
    }
}

/// A figure of a run's report, named by its JSON field (`run --json`), so a sweep reads any
/// model's figures without knowing the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure {
    /// The field: `mean_queue`, `mean_response`, `phase_means`.
    pub key: &'static str,
    /// The element of an array field (`phase_means[0]`).
    pub index: Option<usize>,
    /// The field of the run's own 95% interval, if it has one.
    pub ci: Option<&'static str>,
    /// A field the figure is divided by, the same in every run of a cell (PG-AS's reward per
    /// server over its bound U*): the cell's mean and interval are divided by it.
    pub per: Option<&'static str>,
    /// The axis label or legend entry: "mean waiting jobs".
    pub label: &'static str,
}

impl Figure {
    pub const MEAN_QUEUE: Figure =
        Figure { key: "mean_queue", index: None, ci: Some("mean_queue_ci95"), per: None, label: "mean waiting jobs" };
}

/// A number a sweep states with its figure, read from its first run: `key` (over `per`); drawn
/// as a horizontal line when `line` (a bound in the units of the y axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    pub label: &'static str,
    pub key: &'static str,
    pub per: Option<&'static str>,
    pub line: bool,
}
