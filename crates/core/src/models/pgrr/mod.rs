//! PG-RR: jobs of random size on L unit servers in slotted time (Psychas & Ghaderi,
//! "Scheduling jobs with random resource requirements in computing clusters"; SPEC section 2).
//!
//! * [`scenario`]: the scenario and its keys; [`sizes`]: job-size distributions;
//! * [`state`]: the cluster, the waiting queue and the departure calendar policies read;
//! * [`policy`]: the policy trait, its decisions and context; [`policies`]: one file each;
//! * [`engine`]: the slotted engine; [`live`]: what the page shows; [`summary`]: the report;
//! * [`partition`]: the universal partition and reduced configurations of the VQ policies;
//! * [`theory`]: the load marks; [`presets`]: the paper's figures.

pub mod engine;
mod live;
pub mod partition;
pub mod policies;
pub mod policy;
mod presets;
pub mod scenario;
#[cfg(feature = "script")]
pub mod script;
pub mod service;
pub mod sizes;
pub mod state;
pub mod summary;
pub mod theory;
pub mod trace;

pub use engine::{PgrrConfig, PgrrSim};
pub use policy::{ConfigStep, PgrrContext, PgrrDecision, PgrrPolicy, Placement, Rule, boxed};
pub use scenario::PgrrScenario;
pub use service::{ServiceSampler, SlotService};
pub use sizes::{CAPACITY_UNITS, SizeDist};
pub use state::{JobId, RunningJob, ServerId, WaitingJob};
pub use summary::PgrrSummary;
pub use trace::{SlotJobs, TraceSource};

use crate::ConfigError;
use crate::changes::Shifts;
use crate::keys::Key;
use crate::model::policy::{Policy, PolicySpec};
use crate::model::{
    BenchCase, Capacity, Drawing, Guarantee, LoadKnob, LoadMark, Model, ModelInfo, SliderMax, TimeUnit,
};
use crate::model::{Preset, Replay, RunError, RunOutcome, RunReport, Table};
use crate::trace::{Format, Shared};
use crate::view::Watch;

/// The PG-RR model.
pub struct Pgrr;

impl Model for Pgrr {
    type Scenario = PgrrScenario;
    type Policy = dyn PgrrPolicy;
    type Context = PgrrScenario;
    type Run = PgrrSim;
    type Summary = PgrrSummary;

    const INFO: ModelInfo = ModelInfo {
        id: "pgrr",
        name: "PG-RR",
        label: "PG-RR (random-size jobs, slotted)",
        time: TimeUnit::Slots,
        load: LoadKnob {
            name: "Load α",
            symbol: "α",
            axis: "load α",
            help: "traffic intensity α = λ·R̄/(μ·L)",
            slider: SliderMax::Fixed(1.2),
            step: 0.01,
            is_utilization: true,
        },
        job_time: None,
        queue: true,
        reward: false,
        drawing: Drawing::Bars,
        classes: "virtual queue or size class",
        replay: Some(Replay {
            formats: &[Format::Google],
            accept: ".csv,.gz,text/csv",
            files: "Google task_events part files (plain or gzip)",
            sample: "samples/google-task-events.csv.gz",
            knob: LoadKnob {
                name: "Traffic scaling 1/β",
                symbol: "1/β",
                axis: "traffic scaling 1/β",
                help: "submit times are divided by 1/β; durations are kept",
                slider: SliderMax::Fixed(3.0),
                step: 0.05,
                is_utilization: false,
            },
            replaces: &["size", "service"],
            machine: &[],
        }),
        static_bounds: false,
        theory_keys: &[],
        bench: &[
            BenchCase {
                preset: "pgrr-a3",
                sets: &[("load", "0.95"), ("servers", "10")],
                policies: &["bf-js", "vqs-bf"],
                warmup: 2_000,
                jobs: 1_000_000,
            },
            BenchCase {
                preset: "pgrr-a3",
                sets: &[("load", "0.95"), ("servers", "1000")],
                policies: &["bf-js", "vqs-bf"],
                warmup: 2_000,
                jobs: 1_000_000,
            },
            BenchCase {
                preset: "pgrr-a1",
                sets: &[("load", "0.7"), ("servers", "1000")],
                policies: &["bf-js", "vqs"],
                warmup: 2_000,
                jobs: 1_000_000,
            },
        ],
    };
    const POLICIES: &'static [Policy<Self>] = policies::ALL;
    const KEYS: &'static [Key<PgrrScenario>] = scenario::KEYS;

    fn validate(scenario: &PgrrScenario) -> Result<(), ConfigError> {
        scenario.validate()
    }

    fn load(scenario: &PgrrScenario) -> f64 {
        scenario.load
    }

    fn offered_utilization(scenario: &PgrrScenario) -> f64 {
        scenario.offered_utilization()
    }

    /// With a trace the knob is the traffic scaling 1/β, and the bounds in α do not apply.
    fn marks(scenario: &PgrrScenario) -> Vec<LoadMark> {
        if scenario.trace.is_none() { theory::marks(scenario) } else { Vec::new() }
    }

    fn scripting() -> Option<&'static crate::script::Scripting> {
        // A build without the script engine offers no editor (crate::script::AVAILABLE).
        #[cfg(feature = "script")]
        return Some(&script::SCRIPTING);
        #[cfg(not(feature = "script"))]
        None
    }

    fn capacity(scenario: &PgrrScenario) -> Option<Capacity> {
        theory::capacity_of(scenario)
    }

    /// Theorem 2 (BF-J/S keeps half the capacity) and Theorems 3-4 (VQS and VQS-BF keep 2/3),
    /// with their hypotheses checked against the scenario and the policy's J.
    fn guarantee(scenario: &PgrrScenario, spec: &PolicySpec) -> Option<Guarantee> {
        let j = spec.int("j").map_or(scenario.j, |j| j as u8);
        theory::guarantee(scenario, spec.name(), j)
    }

    fn how_to_read(_: &PgrrScenario) -> &'static str {
        "Each policy runs on the same arrivals (same jobs, sizes and service times). Its servers are bars filled by \
         their jobs, coloured by size class, the job placed last outlined (from 100 servers on, each server is one \
         square, darker when fuller); below them, the waiting jobs per virtual queue (VQS, VQS-BF) or per size \
         class, and under the drawing a sentence on why the last job went where it did. VQS and VQS-BF label each \
         server, and name in that sentence, its configuration in the paper's notation: e_i is one job of type i, \
         and type i waits in virtual queue VQi, both counted from 0 as in the paper (the bins under the servers \
         are VQ0, VQ1, …, each with its interval of sizes). So 2e2 is two jobs of VQ2 (sizes in (1/3, 1/2]) and \
         e1+e3 one job of VQ1 (sizes in (1/2, 2/3], with 2/3 of the server kept for it) plus one of VQ3. On the \
         charts, the dashed vertical line ends the warm-up; on the occupancy chart, dashed lines mark the offered \
         load and the papers' guarantees."
    }

    fn context(scenario: &PgrrScenario, _: usize) -> Result<PgrrScenario, ConfigError> {
        Ok(scenario.clone())
    }

    fn start(
        scenario: &PgrrScenario,
        _: &PolicySpec,
        _: PgrrScenario,
        policy: Box<dyn PgrrPolicy>,
        watch: Watch,
    ) -> Result<PgrrSim, RunError> {
        let config = scenario.engine_config(policy.virtual_queues(), watch.max_points)?;
        let shifts = Shifts::build(
            scenario,
            &scenario.window.changes,
            scenario.window.horizon,
            scenario::KEYS,
            PgrrScenario::arrival_rate,
        );
        Ok(PgrrSim::new(config, policy, scenario.window.seed).with_log(watch.log).with_shifts(shifts))
    }

    fn summarize(scenario: &PgrrScenario, spec: &PolicySpec, run: &PgrrSim) -> RunOutcome<PgrrSummary> {
        summary::summarize(scenario, spec, run)
    }

    fn over_replications(_: &[&PgrrSummary]) -> PgrrSummary {
        PgrrSummary {}
    }

    fn table(names: &[String], runs: &[Vec<&RunReport<PgrrSummary>>], replicated: bool) -> Table {
        summary::table(names, runs, replicated)
    }

    fn setting(scenario: &PgrrScenario, first: &RunReport<PgrrSummary>) -> String {
        match &scenario.trace {
            TraceSource::None => summary::setting(first),
            trace => summary::trace_setting(&trace.name(), first),
        }
    }

    fn presets() -> Vec<Preset<PgrrScenario>> {
        presets::presets()
    }

    fn replay(scenario: &mut PgrrScenario, trace: &Shared, _keep: &[&str]) -> Result<Vec<String>, ConfigError> {
        scenario.trace = TraceSource::replay(trace)?;
        Ok(Vec::new())
    }

    fn replaying(scenario: &PgrrScenario) -> bool {
        matches!(scenario.trace, TraceSource::File(..))
    }

    /// The synthetic trace scales its traffic too.
    fn traffic_scaled(scenario: &PgrrScenario) -> bool {
        !scenario.trace.is_none()
    }

    /// One slot past the last arrival under the scaling.
    fn trace_horizon(scenario: &PgrrScenario) -> Option<u64> {
        match &scenario.trace {
            TraceSource::File(_, jobs) => Some(jobs.span(scenario.load) + 1),
            _ => None,
        }
    }
}
