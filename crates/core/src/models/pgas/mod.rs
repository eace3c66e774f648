//! PG-AS: a loss system with slots and rewards in continuous time (Psychas & Ghaderi, "A
//! theory of auto-scaling for resource reservation in cloud services"; SPEC section 4).
//!
//! * [`scenario`]: the scenario and its keys; [`types`]: type catalogues and workloads;
//!   [`trace`]: task traces;
//! * [`state`]: configurations, slots and jobs policies read; [`policy`]: the policy trait,
//!   decisions, observations and context; [`policies`]: one file each;
//! * [`engine`]: the event-driven engine; [`stats`]: streaming measurement; [`live`]: what the
//!   page shows; [`summary`]: the report;
//! * [`theory`]: greedy packing, the LP bounds U^(g) and U*, the paper's instances;
//!   [`presets`]: the paper's figures.

pub mod engine;
mod live;
pub mod policies;
pub mod policy;
mod presets;
pub mod scenario;
pub mod state;
pub mod stats;
pub mod summary;
pub mod theory;
pub mod trace;
pub mod types;
mod views;

#[cfg(test)]
mod engine_tests;

pub use engine::PgasSim;
pub use policy::{
    ActionKind, LastAction, PgasContext, PgasDecision, PgasObservation, PgasPolicy, Ranked, Ranking, ServerClass, boxed,
};
pub use scenario::{PgasScenario, TraceRef};
pub use state::{Arrivals, ConfigId, PgasConfig, PgasState};
pub use stats::PgasStats;
pub use summary::PgasSummary;
pub use trace::{Task, Trace, TraceType};
pub use types::{PgasTypes, Rho};

use crate::ConfigError;
use crate::graph::Graph;
use crate::keys::Key;
use crate::model::policy::{Policy, PolicySpec};
use crate::model::{BenchCase, Drawing, LoadKnob, LoadMark, Model, ModelInfo, RewardReference, SliderMax, TimeUnit};
use crate::model::{Preset, Replay, RunError, RunOutcome, RunReport, Table, TheorySweep, Trajectory};
use crate::trace::{Format, Shared};
use crate::view::Watch;

/// The PG-AS model.
pub struct Pgas;

impl Model for Pgas {
    type Scenario = PgasScenario;
    type Policy = dyn PgasPolicy;
    type Context = PgasConfig;
    type Run = PgasSim;
    type Summary = PgasSummary;

    const INFO: ModelInfo = ModelInfo {
        id: "pgas",
        name: "PG-AS",
        label: "PG-AS (reward-maximising reservation, a loss system with slots, continuous time)",
        time: TimeUnit::Continuous,
        load: LoadKnob {
            name: "Workload scale α",
            symbol: "α",
            axis: "workload scale α",
            help: "arrival rates α·ρ_j·L (a trace: submit times divided by α)",
            slider: SliderMax::Fixed(10.0),
            step: 0.05,
            is_utilization: false,
        },
        job_time: None,
        queue: false,
        reward: true,
        drawing: Drawing::Slots,
        classes: "VM type",
        replay: Some(Replay {
            formats: &[Format::Google, Format::TaskCsv],
            accept: ".csv,.gz,text/csv",
            files: "Google task_events part files, or a CSV of submit time, duration, size, priority",
            sample: "samples/google-task-events.csv.gz",
            knob: LoadKnob {
                name: "Time compression α",
                symbol: "α",
                axis: "time compression α",
                help: "submit times are divided by α; durations are kept",
                slider: SliderMax::Fixed(3.0),
                step: 0.05,
                is_utilization: false,
            },
            replaces: &["rho"],
            machine: &[],
        }),
        static_bounds: true,
        theory_keys: &["types", "rho", "seed"],
        bench: &[
            BenchCase {
                preset: "pgas-c3",
                sets: &[("servers", "1000"), ("horizon", "1000000000"), ("warmup", "5")],
                policies: &["dra", "po-d"],
                warmup: 5,
                jobs: 1_000_000,
            },
            BenchCase {
                preset: "pgas-c5",
                // The synthetic trace brings about 9 600 tasks per time unit at L = 1000: 10^6
                // jobs after the warm-up fit in 120 time units, well inside the trace's limit.
                sets: &[("servers", "1000"), ("horizon", "120"), ("warmup", "5")],
                policies: &["dra", "dra-preempt", "po-d"],
                warmup: 5,
                jobs: 1_000_000,
            },
        ],
    };
    const POLICIES: &'static [Policy<Self>] = policies::ALL;
    const KEYS: &'static [Key<PgasScenario>] = scenario::KEYS;

    fn validate(scenario: &PgasScenario) -> Result<(), ConfigError> {
        scenario.validate()
    }

    fn load(scenario: &PgasScenario) -> f64 {
        scenario.load
    }

    fn offered_utilization(scenario: &PgasScenario) -> f64 {
        scenario.offered_utilization()
    }

    /// On the worst-case collection C2, Fig. 2's critical points α = 6/7 (below it the greedy
    /// serves everything, U^(g) = U*) and α = 6 (from it every server runs the best
    /// configuration full); none for other types.
    fn marks(scenario: &PgasScenario) -> Vec<LoadMark> {
        if scenario.types != PgasTypes::C2 || scenario.rho.is_some() {
            return Vec::new();
        }
        vec![
            LoadMark { load: 6.0 / 7.0, label: "U^(g) = U* up to α = 6/7".into(), short: "α = 6/7" },
            LoadMark { load: 6.0, label: "U^(g) = U* = 1272 from α = 6".into(), short: "α = 6" },
        ]
    }

    fn how_to_read(scenario: &PgasScenario) -> &'static str {
        match scenario.types {
            PgasTypes::Random { .. } => {
                "Nothing is simulated here: each random collection of VM types is solved exactly, for the global \
                 greedy's reward U^(g) and the LP optimum U*, and the chart sorts the ratios U^(g)/U* with the \
                 theorems' 1 − 1/e and 1/2 dashed. The seed and the number of collections choose the collections; \
                 the servers, α, the horizon and the policies do not enter."
            }
            PgasTypes::Trace => {
                "Each policy replays the same tasks; a task is admitted into a free slot of its type or lost. Below \
                 100 servers each server is a grid of its deployed slots: a filled square per job, a hollow square \
                 per reserved empty slot, coloured by type, and an arrow shows the last migration; from 100 servers \
                 on (pgas-c5's L = 1000 included) each server is one square, darker the fuller it is (by its fullest \
                 resource). Below, the jobs in service per type and the share of each type lost. The reward chart \
                 shows R(t)/L of every policy; a trace has no arrival rates, so there is no U^(g) or U* to draw and \
                 no α chart."
            }
            _ => {
                "Each policy sees the same arrivals; a job is admitted into a free slot of its type or lost. Below \
                 100 servers each server is a grid of its deployed slots: a filled square per job, a hollow square \
                 per reserved empty slot, coloured by type, and an arrow shows the last migration; from 100 servers \
                 on (the presets' L = 100 and 180 included) each server is one square, darker the fuller it is (by \
                 its fullest resource). Below, the jobs in service per type and the share of each type lost. The \
                 reward chart shows R(t)/L against the global greedy's U^(g) and the LP optimum U*; the α chart \
                 shows both bounds against the workload scale."
            }
        }
    }

    /// U^(g) and U* at the scenario's α·ρ; none for a trace or random collections, or if the
    /// LP fails.
    fn reward_reference(scenario: &PgasScenario) -> Option<RewardReference> {
        scenario.reference().ok().flatten()
    }

    /// The engine and the policy are built for the most servers the run will have (RES-98).
    fn context(scenario: &PgasScenario, max_points: usize) -> Result<PgasConfig, ConfigError> {
        let config = scenario.engine_config(max_points)?;
        let built = engine::most_servers(config.servers, &scenario.shifts());
        Ok(PgasConfig { built, ..config })
    }

    fn start(
        scenario: &PgasScenario,
        _: &PolicySpec,
        config: PgasConfig,
        policy: Box<dyn PgasPolicy>,
        watch: Watch,
    ) -> Result<PgasSim, RunError> {
        let shifts = scenario.shifts();
        Ok(PgasSim::new(PgasConfig { details: watch.details, ..config }, policy, scenario.window.seed)?
            .with_log(watch.log)
            .with_shifts(shifts))
    }

    fn summarize(scenario: &PgasScenario, spec: &PolicySpec, run: &PgasSim) -> RunOutcome<PgasSummary> {
        summary::summarize(scenario, spec, run)
    }

    fn over_replications(runs: &[&PgasSummary]) -> PgasSummary {
        PgasSummary::over_replications(runs)
    }

    fn table(names: &[String], runs: &[Vec<&RunReport<PgasSummary>>], _: bool) -> Table {
        summary::table(names, runs)
    }

    fn setting(scenario: &PgasScenario, first: &RunReport<PgasSummary>) -> String {
        summary::setting(scenario, first)
    }

    fn trajectory(first: &RunReport<PgasSummary>) -> Trajectory {
        summary::trajectory(first)
    }

    fn presets() -> Vec<Preset<PgasScenario>> {
        presets::presets()
    }

    /// A Google trace or a task CSV, mapped to PG-AS's types (sizes rounded up to powers of
    /// 1/2, priorities by the trace's bands); types become `trace`.
    fn replay(scenario: &mut PgasScenario, shared: &Shared, _keep: &[&str]) -> Result<Vec<String>, ConfigError> {
        let trace = Trace::from_loaded(&shared.0).ok_or_else(|| {
            ConfigError::new(
                crate::trace::KEY,
                format!(
                    "{} is a {} file; PG-AS replays Google task_events traces and task CSVs",
                    shared.name(),
                    shared.0.format().name()
                ),
            )
        })?;
        scenario.attach_named(trace, shared.0.fingerprint());
        Ok(Vec::new())
    }

    /// The server count changes over a trace too: the file's arrivals are untouched (RES-98).
    const CHANGES_WHILE_REPLAYING: &'static [&'static str] = &["servers"];

    fn replaying(scenario: &PgasScenario) -> bool {
        scenario.trace.is_some()
    }

    /// The synthetic trace's time is compressed by α too.
    fn traffic_scaled(scenario: &PgasScenario) -> bool {
        scenario.types == PgasTypes::Trace
    }

    /// The last submit time divided by α, rounded up.
    fn trace_horizon(scenario: &PgasScenario) -> Option<u64> {
        let trace = scenario.trace.as_ref()?;
        Some((trace.tasks.span() / scenario.load).ceil().max(1.0) as u64)
    }

    fn theory_only(scenario: &PgasScenario) -> bool {
        scenario.bounds_only()
    }

    fn theory(scenario: &PgasScenario) -> Vec<Result<Graph, String>> {
        views::graphs(scenario)
    }

    fn bounds(scenario: &PgasScenario) -> Option<Result<crate::model::Bounds, ConfigError>> {
        Some(views::bounds(scenario))
    }

    fn theory_sweep(scenario: &PgasScenario, grid: &[f64]) -> Result<TheorySweep, ConfigError> {
        views::theory_sweep(scenario, grid)
    }

    /// A policy's own check only: building its context (GPA over the enumerated
    /// configurations) is too costly to do for every check of a link or a form field.
    fn check_policy(scenario: &PgasScenario, spec: &PolicySpec) -> Result<(), ConfigError> {
        let policy = Self::policy_of(spec)?;
        policy.check.map_or(Ok(()), |check| check(spec, scenario))
    }
}
