//! The model contract: what a model of one paper declares and does, so that everything else
//! in packlab (the catalogue, links, sweeps, the CLI and the page) can ask it instead of
//! naming it.
//!
//! A model folder (`crate::models::<id>`) implements [`Model`] for its type and imports only
//! this contract and the shared kernels; the list of all models ([`crate::models`]) imports the
//! model folders. So no model depends on another, and nothing below the list depends on it.
//!
//! * [`Model`]: the types, metadata and operations of a model;
//! * [`info`]: [`ModelInfo`], what it shows the world (names, units, load knob, drawing,
//!   benchmark cases, trace replay);
//! * [`policy`]: the policy registry: what a policy file declares, and the specs users write;
//! * [`preset`]: a model's presets and the sweeps that draw their figures;
//! * [`report`]: the report of a run and the rule for combining replications;
//! * [`stability`]: the capacity and the policies' proven stability regions;
//! * [`table`]: text tables and number formats.

pub mod info;
pub mod policy;
pub mod preset;
pub mod report;
pub mod stability;
pub mod table;

use std::fmt;

use serde::Serialize;

pub use info::{
    BenchCase, Drawing, JobTime, LoadKnob, LoadMark, ModelInfo, Replay, RewardReference, SliderMax, TimeUnit,
};
pub use preset::{Figure, Plot, Preset, Reference, Sweep};
pub use report::{Replications, RepsReport, RunError, RunOutcome, RunReport, Trajectory};
pub use stability::{Capacity, Guarantee, Hypothesis, StabilityTheory};
pub use table::Table;

use crate::ConfigError;
use crate::graph::Graph;
use crate::keys::Key;
use crate::trace::Shared;
use crate::view::{LiveRun, Metric, Watch};
use crate::window::{HasWindow, RunWindow};
use policy::{Policy, PolicySpec};

/// A model of one paper: its types, its metadata and how a run is made and summarised.
pub trait Model: Sized + 'static {
    type Scenario: ModelScenario<Model = Self>;
    /// The model's policy trait object (`dyn PgrrPolicy`).
    type Policy: ?Sized;
    /// What a policy's `build` reads: the scenario, or what the engine makes of it.
    type Context;
    /// A run: the engine with its policy, which the page steps and draws.
    type Run: LiveRun + 'static;
    /// What the model adds to a run's report (`run --json`).
    type Summary: Serialize + Clone + PartialEq + fmt::Debug;

    const INFO: ModelInfo;
    /// Every policy of the model, in catalogue order.
    const POLICIES: &'static [Policy<Self>];
    /// Every key of the scenario, the run window's included.
    const KEYS: &'static [Key<Self::Scenario>];

    /// Checks the relations between keys beyond the run window's (each key alone is checked
    /// when it is set).
    fn validate(scenario: &Self::Scenario) -> Result<(), ConfigError>;
    /// The load knob's value (the key `load`).
    fn load(scenario: &Self::Scenario) -> f64;
    /// The offered work as a fraction of the capacity: what a stable policy's occupancy tends to.
    fn offered_utilization(scenario: &Self::Scenario) -> f64;
    /// The theory's marks on the load knob.
    fn marks(scenario: &Self::Scenario) -> Vec<LoadMark>;
    /// How to read the page for this scenario: what the server views, bins and charts show.
    fn how_to_read(scenario: &Self::Scenario) -> &'static str;

    /// The reference lines of the reward chart, in models that earn rewards.
    fn reward_reference(_: &Self::Scenario) -> Option<RewardReference> {
        None
    }
    /// The build context of a run with series of at most `max_points` points.
    fn context(scenario: &Self::Scenario, max_points: usize) -> Result<Self::Context, ConfigError>;
    /// A run of `policy` (built from `spec` in `context`) at time 0, keeping what `watch`
    /// asks for.
    fn start(
        scenario: &Self::Scenario,
        spec: &PolicySpec,
        context: Self::Context,
        policy: Box<Self::Policy>,
        watch: Watch,
    ) -> Result<Self::Run, RunError>;
    /// The report of `run` at its current time.
    fn summarize(scenario: &Self::Scenario, spec: &PolicySpec, run: &Self::Run) -> RunOutcome<Self::Summary>;
    /// The model's own figures over replications, by the rule of [`report`]'s docs.
    fn over_replications(runs: &[&Self::Summary]) -> Self::Summary;
    /// The `run` table: a row per policy (`names`) from its runs, in seed order;
    /// `replicated`: whether replications were asked for (`--reps`).
    fn table(names: &[String], runs: &[Vec<&RunReport<Self::Summary>>], replicated: bool) -> Table;
    /// What a run's header line says of the setting, after the seeds and the run window.
    fn setting(scenario: &Self::Scenario, first: &RunReport<Self::Summary>) -> String;

    /// What `run --out` draws over time: the waiting jobs, unless the model says otherwise.
    fn trajectory(first: &RunReport<Self::Summary>) -> Trajectory {
        queue_trajectory(Self::INFO.time, first.warmup)
    }
    /// The model's presets, in catalogue order.
    fn presets() -> Vec<Preset<Self::Scenario>>;

    /// Makes `scenario` replay the loaded trace file `trace` (a model with
    /// [`ModelInfo::replay`]): sets its trace key and what the file fixes (the log's machine,
    /// the task types), except the keys in `keep`, which the user set. Returns notes for the
    /// user (jobs capped at the machine). The caller sets the scaling and the horizon
    /// ([`crate::scenario::Scenario::replay`]). Refuses a file the model does not replay,
    /// saying which it does.
    fn replay(scenario: &mut Self::Scenario, trace: &Shared, keep: &[&str]) -> Result<Vec<String>, ConfigError> {
        let _ = (scenario, keep);
        Err(ConfigError::new(
            crate::trace::KEY,
            format!("{} does not replay trace files ({} given)", Self::INFO.name, trace.0.format().name()),
        ))
    }
    /// The keys whose change means the same while a trace replays (PG-AS's server count: the
    /// file's arrivals are untouched, RES-98); no other key can change then.
    const CHANGES_WHILE_REPLAYING: &'static [&'static str] = &[];
    /// Whether the scenario replays a trace file (not a synthetic stand-in).
    fn replaying(_: &Self::Scenario) -> bool {
        false
    }
    /// Whether the load knob is a trace's traffic scaling now ([`Replay::knob`]): a trace
    /// replays, a file or a synthetic stand-in.
    fn traffic_scaled(scenario: &Self::Scenario) -> bool {
        Self::replaying(scenario)
    }
    /// The horizon that covers the replayed file's arrivals at the scenario's scaling; `None`
    /// when no file replays.
    fn trace_horizon(_: &Self::Scenario) -> Option<u64> {
        None
    }

    /// Whether the scenario is the theory's alone (no race: PG-AS's random collections).
    fn theory_only(_: &Self::Scenario) -> bool {
        false
    }
    /// The graphs the theory draws for this scenario without simulating (PG-AS's bounds
    /// against α), each or its error; they depend only on [`ModelInfo::theory_keys`].
    fn theory(_: &Self::Scenario) -> Vec<Result<Graph, String>> {
        Vec::new()
    }
    /// `packlab bounds`: the theory's static bounds at the scenario, as text and as JSON; `None`
    /// for a model without them.
    fn bounds(_: &Self::Scenario) -> Option<Result<Bounds, ConfigError>> {
        None
    }
    /// A sweep of the theory over the loads `grid` (a preset's [`Sweep::Theory`]).
    fn theory_sweep(_: &Self::Scenario, _: &[f64]) -> Result<TheorySweep, ConfigError> {
        Err(ConfigError::new("sweep", format!("{} has no theory to sweep", Self::INFO.name)))
    }

    /// The capacity on the load knob (the largest load any policy keeps stable), where the
    /// model knows it in closed form or by its LP; `None` where it does not (a trace, a size
    /// law without an LP), and in a model where nothing waits.
    fn capacity(_: &Self::Scenario) -> Option<Capacity> {
        None
    }
    /// The fraction of the capacity a paper proves `spec` keeps stable on this scenario, if
    /// one does.
    fn guarantee(_: &Self::Scenario, _: &PolicySpec) -> Option<Guarantee> {
        None
    }

    /// What the page's script editor offers for this model's `script` policy: what `ctx`
    /// holds and the starting points; `None` for a model without scripted policies.
    fn scripting() -> Option<&'static crate::script::Scripting> {
        None
    }

    /// The registry entry of `spec`, if it is one of this model's policies.
    fn policy(spec: &PolicySpec) -> Option<&'static Policy<Self>> {
        Self::POLICIES.iter().find(|p| p.meta.name == spec.name())
    }

    /// The registry entry of `spec` if it is one of this model's policies with parameters it
    /// takes (a spec of a shared name, `script:f=log`, may carry another model's parameters).
    fn policy_of(spec: &PolicySpec) -> Result<&'static Policy<Self>, ConfigError> {
        let policy = Self::policy(spec).ok_or_else(|| wrong_model::<Self>(spec))?;
        spec.check_params(policy.meta.params, Self::INFO.name)?;
        Ok(policy)
    }

    /// Checks that `spec` is one of this model's policies and fits `scenario`.
    fn check_policy(scenario: &Self::Scenario, spec: &PolicySpec) -> Result<(), ConfigError> {
        let policy = Self::policy_of(spec)?;
        // Without the engine a script is kept as its link wrote it (its parameters checked
        // above: the source's encoding and length); the page loads the build with the engine
        // for a lab with a scripted lane, and that build compiles it (docs/web.md, "Less to
        // download"). Refused here, the lane was dropped before the page could ask.
        #[cfg(not(feature = "script"))]
        if policy.meta.name == crate::script::NAME {
            return crate::script::unbuilt(spec);
        }
        match policy.check {
            Some(check) => check(spec, scenario),
            None => (policy.build)(spec, &Self::context(scenario, 2)?).map(drop),
        }
    }
}

/// Links a scenario type to its model.
pub trait ModelScenario: HasWindow + Clone + PartialEq + fmt::Debug {
    type Model: Model<Scenario = Self>;
}

/// `packlab bounds`'s answer: what it prints, and its `--json` line.
#[derive(Debug, Clone, PartialEq)]
pub struct Bounds {
    pub text: String,
    pub json: serde_json::Value,
}

/// A sweep of the theory over loads: a CSV (its columns and rows), the table printed, and the
/// graph drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct TheorySweep {
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<f64>>,
    /// What is printed: lines before the table, the table, lines after it.
    pub head: Vec<String>,
    pub table: Table,
    pub tail: Vec<String>,
    pub graph: Graph,
}

/// The error of a policy of another model than `M`.
pub(crate) fn wrong_model<M: Model>(spec: &PolicySpec) -> ConfigError {
    let names: Vec<&str> = M::POLICIES.iter().map(|p| p.meta.name).collect();
    // A shared name (`script`) belongs to several models: the spec's is only the first of them.
    let whose = if spec.meta().shared {
        format!("{} is not a policy of this model", spec.name())
    } else {
        format!("{} is a policy of {}", spec.name(), spec.model().label)
    };
    ConfigError::new(
        crate::model::policy::KEY,
        format!("{whose}; this scenario is {} and takes {}", M::INFO.label, names.join(", ")),
    )
}

/// The waiting jobs over time, with the end of the warm-up: what `run --out` draws unless the
/// model says otherwise.
pub fn queue_trajectory(time: TimeUnit, warmup: u64) -> Trajectory {
    let x_note =
        if warmup > 0 { format!("(dashed: end of the warm-up, {warmup} {})", time.plural()) } else { String::new() };
    Trajectory {
        metric: Metric::Queue,
        column_suffix: "",
        y_label: "waiting jobs",
        y_marks: Vec::new(),
        x_note,
        legend_lower_right: false,
    }
}

/// A run of `spec` on `scenario`, at time 0.
pub fn start<M: Model>(scenario: &M::Scenario, spec: &PolicySpec, watch: Watch) -> Result<M::Run, RunError> {
    let policy = M::policy_of(spec)?;
    let context = M::context(scenario, watch.max_points)?;
    let built = (policy.build)(spec, &context)?;
    M::start(scenario, spec, context, built, watch)
}

/// The keys of a model's scenario type, for building `KEYS` from the model's rows and the
/// run window's.
pub const fn window_keys<S: HasWindow>() -> [Key<S>; 5] {
    RunWindow::keys::<S>()
}
