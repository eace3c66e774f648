//! The models of the papers, one folder each, and the one place that dispatches over them.
//!
//! A model is a vertical slice: its scenario and keys, its policy trait, decisions and
//! context, `policies/` (one file per policy), its engine and statistics, its live view, its
//! summary, its theory and its presets. It implements [`Model`]; the `models!` list at the
//! bottom of this file is the only place that names every model, and it generates the
//! [`Scenario`] and [`Summary`] enums and the lookups the CLI, the page and the tests use.
//! Adding a model is its folder plus one line there.

pub mod ghra;
pub mod msfq;
pub mod pgas;
pub mod pgrr;

use std::fmt;

use serde::Serialize;

use crate::ConfigError;
use crate::keys::{Key, KeyInfo, unknown_key};
use crate::policy::{Policy, PolicyMeta, PolicySpec};
use crate::report::{RunError, RunOutcome, RunReport, Table, Trajectory};
use crate::scenario::Preset;
use crate::view::{LiveRun, Metric, Watch};
use crate::window::{HasWindow, RunWindow, WindowRules};

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
    fn summarize(scenario: &Self::Scenario, spec: &PolicySpec, run: &Self::Run) -> RunOutcome;
    /// The mean over replications of their summaries.
    fn over_replications(runs: &[&Self::Summary]) -> Self::Summary;
    /// The `run` table: a row per policy (`names`) from its runs, in seed order;
    /// `replicated`: whether replications were asked for (`--reps`).
    fn table(names: &[String], runs: &[Vec<&RunReport>], replicated: bool) -> Table;
    /// What a run's header line says of the setting, after the seeds and the run window.
    fn setting(scenario: &Self::Scenario, first: &RunReport) -> String;

    /// What `run --out` draws over time: the waiting jobs, unless the model says otherwise.
    fn trajectory(first: &RunReport) -> Trajectory {
        let unit = Self::INFO.time.plural();
        let x_note = if first.warmup > 0 {
            format!("(dashed: end of the warm-up, {} {unit})", first.warmup)
        } else {
            String::new()
        };
        Trajectory {
            metric: Metric::Queue,
            column_suffix: "",
            y_label: "waiting jobs",
            y_marks: Vec::new(),
            x_note,
            legend_lower_right: false,
        }
    }
    /// The model's presets, in catalogue order.
    fn presets() -> Vec<Preset>;

    /// The registry entry of `spec`, if it is one of this model's policies.
    fn policy(spec: &PolicySpec) -> Option<&'static Policy<Self>> {
        Self::POLICIES.iter().find(|p| p.meta.name == spec.name())
    }

    /// Checks that `spec` is one of this model's policies and fits `scenario`.
    fn check_policy(scenario: &Self::Scenario, spec: &PolicySpec) -> Result<(), ConfigError> {
        let policy = Self::policy(spec).ok_or_else(|| wrong_model(&Self::INFO, spec))?;
        match policy.check {
            Some(check) => check(spec, scenario),
            None => (policy.build)(spec, &Self::context(scenario, 2)?).map(drop),
        }
    }
}

/// Links a scenario type to its model.
pub trait ModelScenario: HasWindow + Clone + PartialEq + fmt::Debug + Into<Scenario> {
    type Model: Model<Scenario = Self>;
}

pub(crate) fn wrong_model(model: &ModelInfo, spec: &PolicySpec) -> ConfigError {
    let names: Vec<&str> = policies_of(model.id).map(|p| p.name).collect();
    ConfigError::new(
        crate::policy::KEY,
        format!(
            "{} is a policy of {}; this scenario is {} and takes {}",
            spec.name(),
            spec.model().label,
            model.label,
            names.join(", ")
        ),
    )
}

/// What a model shows the world: names, units and the texts and charts of the page.
#[derive(Debug, PartialEq)]
pub struct ModelInfo {
    /// The id used for folders, preset prefixes and `Scenario`'s variants: `pgrr`.
    pub id: &'static str,
    /// The paper's short name: "PG-RR".
    pub name: &'static str,
    /// What the model is, for listings: "PG-RR (random-size jobs, slotted)".
    pub label: &'static str,
    pub time: TimeUnit,
    pub load: LoadKnob,
    /// The per-job time the model measures, if any.
    pub job_time: Option<JobTime>,
    /// Whether jobs wait (a loss system admits or rejects).
    pub queue: bool,
    /// Whether runs earn rewards (PG-AS).
    pub reward: bool,
    /// How the page draws a server.
    pub drawing: Drawing,
    /// What `packlab bench` times by default: the engine's headline cases.
    pub bench: &'static [BenchCase],
}

/// A case `packlab bench` times: a preset with some keys set and its policies, after an
/// untimed warm-up that brings the queues to their working level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchCase {
    pub preset: &'static str,
    pub sets: &'static [(&'static str, &'static str)],
    /// Policy specs; empty for the preset's own.
    pub policies: &'static [&'static str],
    /// Untimed time units before the clock starts.
    pub warmup: u64,
    /// Arriving jobs timed, unless `--jobs` says otherwise.
    pub jobs: u64,
}

/// Slots or continuous time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Slots,
    Continuous,
}

impl TimeUnit {
    /// "slots" or "time units".
    pub fn plural(self) -> &'static str {
        match self {
            Self::Slots => "slots",
            Self::Continuous => "time units",
        }
    }

    /// The x axis of time charts: "slot" or "time".
    pub fn axis(self) -> &'static str {
        match self {
            Self::Slots => "slot",
            Self::Continuous => "time",
        }
    }

    /// Before a time value in the page's readouts: "slot 120" or "t = 120".
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Slots => "slot",
            Self::Continuous => "t =",
        }
    }
}

/// The load knob of a model, as the page's slider and the sweeps' axis show it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadKnob {
    /// The slider's label: "Load α".
    pub name: &'static str,
    /// The symbol: "α".
    pub symbol: &'static str,
    /// A sweep's x axis: "load α".
    pub axis: &'static str,
    pub help: &'static str,
    pub slider: SliderMax,
    pub step: f64,
    /// Whether the knob is the offered fraction of the capacity, so that its marks (the
    /// papers' guarantees) can be drawn on the occupancy chart too (PG-RR's α).
    pub is_utilization: bool,
}

/// Where the load slider ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SliderMax {
    Fixed(f64),
    /// A factor past the theory's first mark (the capacity), so the unstable side shows too.
    PastFirstMark(f64),
}

/// How the page draws a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawing {
    /// A bar per resource, stacked by the jobs.
    Bars,
    /// Slot grids: deployed slots, filled or reserved (PG-AS).
    Slots,
}

/// The time per job a model measures, for tables, charts and the page's stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobTime {
    /// For people: "response time", "delay".
    pub name: &'static str,
    /// In attribute names and JSON: `data-mean-response`, `data-mean-delay`.
    pub key: &'static str,
    /// What is measured.
    pub definition: &'static str,
    /// Chart titles: the running mean of every policy, and per bin (class or type) of one.
    pub title: &'static str,
    pub bin_title: &'static str,
}

/// The reference lines of a reward chart (PG-AS): the global greedy's normalised reward U^(g),
/// what DRA tends to as L grows, and the LP optimum U*, what no policy can beat.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RewardReference {
    pub greedy: f64,
    pub optimal: f64,
}

/// A load value the theory marks, with its meaning.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadMark {
    pub load: f64,
    pub label: String,
    /// A short symbol for a chart's line ("α = 1", "ρ*/2"), where the label would not fit.
    pub short: &'static str,
}

/// A scenario of any model, as the rest of packlab handles it: through the model's keys,
/// policies and runs. Implemented for every model's scenario type.
pub trait AnyScenario {
    fn info(&self) -> &'static ModelInfo;
    fn keys(&self) -> Vec<KeyInfo>;
    fn get(&self, key: &str) -> Option<String>;
    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError>;
    fn window(&self) -> &RunWindow;
    fn window_mut(&mut self) -> &mut RunWindow;
    fn window_rules(&self) -> WindowRules;
    fn validate(&self) -> Result<(), ConfigError>;
    fn load(&self) -> f64;
    fn offered_utilization(&self) -> f64;
    fn marks(&self) -> Vec<LoadMark>;
    fn how_to_read(&self) -> &'static str;
    fn reward_reference(&self) -> Option<RewardReference>;
    fn check_policy(&self, spec: &PolicySpec) -> Result<(), ConfigError>;
    fn policy_label(&self, spec: &PolicySpec) -> String;
    fn policy_param(&self, spec: &PolicySpec, key: &str) -> Option<String>;
    fn live_run(&self, spec: &PolicySpec, watch: Watch) -> Result<Box<dyn LiveRun>, RunError>;
    fn table(&self, names: &[String], runs: &[Vec<&RunReport>], replicated: bool) -> Table;
    fn setting(&self, first: &RunReport) -> String;
    fn trajectory(&self, first: &RunReport) -> Trajectory;
    fn run_to_horizon(&self, spec: &PolicySpec, max_points: usize) -> Result<RunOutcome, RunError>;
}

impl<S: ModelScenario> AnyScenario for S {
    fn info(&self) -> &'static ModelInfo {
        &S::Model::INFO
    }

    fn keys(&self) -> Vec<KeyInfo> {
        S::Model::KEYS.iter().map(KeyInfo::from).collect()
    }

    fn get(&self, key: &str) -> Option<String> {
        S::Model::KEYS.iter().find(|k| k.key == key).map(|k| k.get(self))
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        let keys = S::Model::KEYS;
        keys.iter().find(|k| k.key == key).ok_or_else(|| unknown_key(keys, key))?.set(self, value)
    }

    fn window(&self) -> &RunWindow {
        HasWindow::window(self)
    }

    fn window_mut(&mut self) -> &mut RunWindow {
        HasWindow::window_mut(self)
    }

    fn window_rules(&self) -> WindowRules {
        S::WINDOW_RULES
    }

    fn validate(&self) -> Result<(), ConfigError> {
        HasWindow::window(self).validate()?;
        S::Model::validate(self)
    }

    fn load(&self) -> f64 {
        S::Model::load(self)
    }

    fn offered_utilization(&self) -> f64 {
        S::Model::offered_utilization(self)
    }

    fn marks(&self) -> Vec<LoadMark> {
        S::Model::marks(self)
    }

    fn how_to_read(&self) -> &'static str {
        S::Model::how_to_read(self)
    }

    fn reward_reference(&self) -> Option<RewardReference> {
        S::Model::reward_reference(self)
    }

    fn check_policy(&self, spec: &PolicySpec) -> Result<(), ConfigError> {
        S::Model::check_policy(self, spec)
    }

    fn policy_label(&self, spec: &PolicySpec) -> String {
        match S::Model::policy(spec) {
            Some(policy) => spec.label_with(|key| (policy.resolve)(key, self)),
            None => spec.label_with(|_| None),
        }
    }

    fn policy_param(&self, spec: &PolicySpec, key: &str) -> Option<String> {
        let resolved = || S::Model::policy(spec).and_then(|p| (p.resolve)(key, self));
        spec.param(key).map(str::to_string).or_else(resolved).or_else(|| spec.param_or_default(key).map(str::to_string))
    }

    fn live_run(&self, spec: &PolicySpec, watch: Watch) -> Result<Box<dyn LiveRun>, RunError> {
        Ok(Box::new(start::<S::Model>(self, spec, watch)?))
    }

    fn table(&self, names: &[String], runs: &[Vec<&RunReport>], replicated: bool) -> Table {
        S::Model::table(names, runs, replicated)
    }

    fn setting(&self, first: &RunReport) -> String {
        S::Model::setting(self, first)
    }

    fn trajectory(&self, first: &RunReport) -> Trajectory {
        S::Model::trajectory(first)
    }

    fn run_to_horizon(&self, spec: &PolicySpec, max_points: usize) -> Result<RunOutcome, RunError> {
        let mut run = start::<S::Model>(self, spec, Watch::batch(max_points))?;
        run.run(HasWindow::window(self).horizon)?;
        Ok(S::Model::summarize(self, spec, &run))
    }
}

/// A run of `spec` on `scenario`, at time 0.
pub fn start<M: Model>(scenario: &M::Scenario, spec: &PolicySpec, watch: Watch) -> Result<M::Run, RunError> {
    let policy = M::policy(spec).ok_or_else(|| wrong_model(&M::INFO, spec))?;
    let context = M::context(scenario, watch.max_points)?;
    let built = (policy.build)(spec, &context)?;
    M::start(scenario, spec, context, built, watch)
}

/// The keys of a model's scenario type, for building `KEYS` from the model's rows and the
/// run window's.
pub const fn window_keys<S: HasWindow>() -> [Key<S>; 4] {
    RunWindow::keys::<S>()
}

/// Lists every model once and generates what dispatches over them: the [`Scenario`] and
/// [`Summary`] enums, their conversions, and the lookups over all models.
macro_rules! models {
    ($($variant:ident => $model:ty),+ $(,)?) => {
        /// A scenario of any model: the one type behind presets, CLI flags, form fields and
        /// links. Every operation goes through the model's [`AnyScenario`].
        #[derive(Debug, Clone, PartialEq)]
        pub enum Scenario {
            $($variant(<$model as Model>::Scenario),)+
        }

        impl Scenario {
            /// The model-independent view of this scenario.
            pub fn any(&self) -> &dyn AnyScenario {
                match self {
                    $(Self::$variant(s) => s,)+
                }
            }

            pub fn any_mut(&mut self) -> &mut dyn AnyScenario {
                match self {
                    $(Self::$variant(s) => s,)+
                }
            }
        }

        $(impl From<<$model as Model>::Scenario> for Scenario {
            fn from(s: <$model as Model>::Scenario) -> Self {
                Self::$variant(s)
            }
        })+

        /// What a model adds to a run's report, serialised into the same JSON object.
        #[derive(Debug, Clone, PartialEq, Serialize)]
        #[serde(untagged)]
        pub enum Summary {
            $($variant(<$model as Model>::Summary),)+
        }

        impl Summary {
            /// The mean over replications of the same model's summaries (`None` if they mix
            /// models, which no caller does).
            pub fn over_replications(runs: &[&Summary]) -> Option<Summary> {
                match runs.first()? {
                    $(Summary::$variant(_) => {
                        #[allow(irrefutable_let_patterns)]
                        let own: Option<Vec<_>> =
                            runs.iter().map(|r| if let Summary::$variant(s) = r { Some(s) } else { None }).collect();
                        Some(Summary::$variant(<$model as Model>::over_replications(&own?)))
                    })+
                }
            }
        }

        /// Every model, in catalogue order.
        pub fn all() -> Vec<&'static ModelInfo> {
            vec![$(&<$model as Model>::INFO),+]
        }

        /// The policies of every model, in catalogue order, with their model.
        pub fn all_policies() -> impl Iterator<Item = (&'static ModelInfo, &'static PolicyMeta)> {
            let mut all = Vec::new();
            $(all.extend(<$model as Model>::POLICIES.iter().map(|p| (&<$model as Model>::INFO, &p.meta)));)+
            all.into_iter()
        }

        /// Every preset, model by model in catalogue order.
        pub fn all_presets() -> Vec<Preset> {
            let mut all = Vec::new();
            $(all.extend(<$model as Model>::presets());)+
            all
        }
    };
}

models! {
    Pgrr => pgrr::Pgrr,
    Msfq => msfq::Msfq,
    Ghra => ghra::Ghra,
    Pgas => pgas::Pgas,
}

/// The policies of the model with this id.
pub fn policies_of(model: &str) -> impl Iterator<Item = &'static PolicyMeta> + '_ {
    all_policies().filter(move |(m, _)| m.id == model).map(|(_, p)| p)
}

/// The policy called `name`, with its model.
pub fn find_policy(name: &str) -> Option<(&'static ModelInfo, &'static PolicyMeta)> {
    all_policies().find(|(_, p)| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    /// `packlab bench` without arguments runs every model's headline cases: each must name a
    /// preset of its model, set valid keys and race policies that fit.
    #[test]
    fn every_bench_case_builds() {
        for model in all() {
            assert!(!model.bench.is_empty(), "{} has no bench case", model.id);
            for case in model.bench {
                let mut scenario = preset(case.preset).unwrap().scenario;
                assert_eq!(scenario.info().id, model.id, "{}", case.preset);
                for (key, value) in case.sets {
                    scenario.set(key, value).unwrap_or_else(|e| panic!("{} {key}={value}: {e}", case.preset));
                }
                scenario.validate().unwrap_or_else(|e| panic!("{}: {e}", case.preset));
                for name in case.policies {
                    let spec = PolicySpec::parse(name).unwrap();
                    scenario.check_policy(&spec).unwrap_or_else(|e| panic!("{} {name}: {e}", case.preset));
                }
            }
        }
    }

    /// A policy's name picks its model (`find_policy`), so no two models may share one; and
    /// every preset id starts with its model's id.
    #[test]
    fn names_are_unique_and_presets_carry_their_model() {
        let mut names: Vec<&str> = all_policies().map(|(_, p)| p.name).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "a policy name is used twice");
        for p in all_presets() {
            assert!(p.id.starts_with(&format!("{}-", p.scenario.info().id)), "{}", p.id);
        }
    }
}
