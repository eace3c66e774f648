//! MSFQ: multiserver jobs on one machine of k cores in continuous time (Grosof et al., "Most
//! Servers First with Quickswap"; SPEC section 5).
//!
//! * [`scenario`]: the scenario and its keys; [`classes`]: job-class tables;
//! * [`state`]: the machine and its per-class queues; [`policy`]: the policy trait, decisions,
//!   observations and context; [`policies`]: one file each;
//! * [`engine`]: the event-driven engine; [`stats`]: streaming measurement; [`live`]: what the
//!   page shows; [`summary`]: the report;
//! * [`bounds`]: the capacity, the theorems' guarantees with their hypotheses, the load marks;
//! * [`theory`]: the paper's analysis of MSF/MSFQ (SPEC 5.6); [`presets`]: Figs. 1-6.

pub mod bounds;
pub mod classes;
pub mod engine;
mod live;
pub mod policies;
pub mod policy;
mod presets;
pub mod scenario;
#[cfg(feature = "script")]
pub mod script;
pub mod state;
pub mod stats;
pub mod summary;
pub mod theory;
pub mod trace;

#[cfg(test)]
mod engine_tests;

pub use classes::{JobClass, JobClasses};
pub use engine::MsfqSim;
pub use policy::{LastStart, MsfqContext, MsfqDecision, MsfqObservation, MsfqPolicy, Status, boxed};
pub use presets::SYNTHETIC_BORG_CLASSES;
pub use scenario::MsfqScenario;
pub use state::{MsfqConfig, MsfqJob, MsfqState};
pub use stats::{ClassStats, MsfqStats, PHASES, PhaseStats};
pub use summary::MsfqSummary;

use crate::ConfigError;
use crate::changes::Shifts;
use crate::keys::Key;
use crate::model::policy::{Policy, PolicySpec};
use crate::model::{
    BenchCase, Capacity, Drawing, Guarantee, JobTime, LoadKnob, LoadMark, Model, ModelInfo, SliderMax, TimeUnit,
};
use crate::model::{Preset, Replay, RunError, RunOutcome, RunReport, Table};
use crate::trace::{Format, Loaded, Shared};
use crate::view::Watch;
use crate::workload::ServiceLaw;

/// The MSFQ model.
pub struct Msfq;

impl Model for Msfq {
    type Scenario = MsfqScenario;
    type Policy = dyn MsfqPolicy;
    type Context = MsfqScenario;
    type Run = MsfqSim;
    type Summary = MsfqSummary;

    const INFO: ModelInfo = ModelInfo {
        id: "msfq",
        name: "MSFQ",
        label: "MSFQ (multiserver jobs, continuous time)",
        time: TimeUnit::Continuous,
        load: LoadKnob {
            name: "Arrival rate λ",
            symbol: "λ",
            axis: "arrival rate λ",
            help: "total arrival rate λ, jobs per time unit",
            slider: SliderMax::PastFirstMark(1.1),
            step: 0.01,
            is_utilization: false,
        },
        job_time: Some(JobTime {
            name: "response time",
            key: "response",
            definition: "completion − arrival (a job still in the system: its time so far), weighted by the class mix",
            title: "Mean response time, running average",
            bin_title: "Mean response time per class, running average",
        }),
        queue: true,
        reward: false,
        drawing: Drawing::Bars,
        classes: "job class",
        replay: Some(Replay {
            formats: &[Format::Swf],
            accept: ".swf,.gz,text/plain",
            files: "an SWF log (plain or gzip)",
            sample: "samples/synthetic-32.swf.gz",
            knob: LoadKnob {
                name: "Traffic scaling 1/β",
                symbol: "1/β",
                axis: "traffic scaling 1/β",
                help: "submit times are divided by 1/β; run times are kept",
                slider: SliderMax::Fixed(3.0),
                step: 0.05,
                is_utilization: false,
            },
            replaces: &["classes", "service"],
            machine: &["cores"],
        }),
        static_bounds: false,
        theory_keys: &[],
        bench: &[
            BenchCase {
                preset: "msfq-d1",
                sets: &[("load", "7")],
                policies: &["msf", "first-fit", "msfq:l=31"],
                warmup: 28_572,
                jobs: 10_000_000,
            },
            BenchCase {
                preset: "msfq-d6",
                sets: &[("load", "4.5")],
                policies: &["adaptive-qs", "static-qs"],
                warmup: 44_445,
                jobs: 10_000_000,
            },
        ],
    };
    const POLICIES: &'static [Policy<Self>] = policies::ALL;
    const KEYS: &'static [Key<MsfqScenario>] = scenario::KEYS;

    fn validate(scenario: &MsfqScenario) -> Result<(), ConfigError> {
        scenario.validate()
    }

    fn load(scenario: &MsfqScenario) -> f64 {
        scenario.load
    }

    /// λ·Σ_j p_j·j·E\[S_j\]/k; for a log, its work over its span.
    fn offered_utilization(scenario: &MsfqScenario) -> f64 {
        match scenario.class_jobs() {
            Ok(Some(jobs)) => jobs.offered_load(scenario.cores, scenario.load),
            _ => scenario.load * scenario.classes.work_per_arrival() / scenario.cores as f64,
        }
    }

    /// With a log the knob is its traffic scaling, and the bounds in λ do not apply.
    fn marks(scenario: &MsfqScenario) -> Vec<LoadMark> {
        if scenario.trace.is_some() { Vec::new() } else { bounds::marks(scenario) }
    }

    fn scripting() -> Option<&'static crate::script::Scripting> {
        // A build without the script engine offers no editor (crate::script::AVAILABLE).
        #[cfg(feature = "script")]
        return Some(&script::SCRIPTING);
        #[cfg(not(feature = "script"))]
        None
    }

    fn capacity(scenario: &MsfqScenario) -> Option<Capacity> {
        bounds::capacity_of(scenario)
    }

    /// MSF and MSFQ are throughput-optimal when every class needs one core or all of them
    /// (Theorems 1 and 3); Static Quickswap is stable below its sufficient condition (Remark 1);
    /// each with its hypotheses checked against the scenario.
    fn guarantee(scenario: &MsfqScenario, spec: &PolicySpec) -> Option<Guarantee> {
        bounds::guarantee_of(scenario, spec)
    }

    fn how_to_read(_: &MsfqScenario) -> &'static str {
        "Each policy runs on the same arrivals (same jobs, classes and service times). The machine's k cores are one \
         bar, filled by the running jobs coloured by class, with the policy's phase above; below, the waiting jobs \
         per class. The charts show the jobs in the system n(t), the running mean response time of every policy \
         (the paper's analysis dashed where it applies) and per class."
    }

    /// The scenario as it runs (a log's fitted classes in place of the table).
    fn context(scenario: &MsfqScenario, _: usize) -> Result<MsfqScenario, ConfigError> {
        scenario.effective()
    }

    fn start(
        _: &MsfqScenario,
        _: &PolicySpec,
        effective: MsfqScenario,
        policy: Box<dyn MsfqPolicy>,
        watch: Watch,
    ) -> Result<MsfqSim, RunError> {
        // The paper's analysis is of Poisson arrivals.
        let analysis = policy
            .analysed_threshold()
            .filter(|_| effective.trace.is_none())
            .and_then(|l| analysis_input(&effective, l));
        let analysis = analysis.and_then(|input| theory::msfq_analysis(&input).ok());
        let shifts =
            Shifts::build(&effective, &effective.window.changes, effective.window.horizon, scenario::KEYS, |s| s.load);
        Ok(MsfqSim::new(effective.engine_config(watch.max_points), policy, effective.window.seed)
            .with_shifts(shifts)
            .with_analysis(analysis)
            .with_log(watch.log))
    }

    fn summarize(scenario: &MsfqScenario, spec: &PolicySpec, run: &MsfqSim) -> RunOutcome<MsfqSummary> {
        summary::summarize(scenario, spec, run)
    }

    fn over_replications(runs: &[&MsfqSummary]) -> MsfqSummary {
        MsfqSummary::over_replications(runs)
    }

    fn table(names: &[String], runs: &[Vec<&RunReport<MsfqSummary>>], _: bool) -> Table {
        summary::table(names, runs)
    }

    fn setting(scenario: &MsfqScenario, first: &RunReport<MsfqSummary>) -> String {
        match &scenario.trace {
            None => summary::setting(first),
            Some(log) => format!(
                "SWF log {} · scaling 1/β = {} · time unit: its mean run time · k = {} cores",
                log.name(),
                crate::report::sig(first.load),
                first.servers
            ),
        }
    }

    fn presets() -> Vec<Preset<MsfqScenario>> {
        presets::presets()
    }

    /// An SWF log, on its machine (the cores its header gives) unless the cores are kept.
    fn replay(scenario: &mut MsfqScenario, shared: &Shared, keep: &[&str]) -> Result<Vec<String>, ConfigError> {
        let Loaded::Swf(log) = &*shared.0 else {
            return Err(ConfigError::new(
                crate::trace::KEY,
                format!("{} is a {} file; MSFQ replays SWF logs", shared.name(), shared.0.format().name()),
            ));
        };
        let mut next = scenario.clone();
        next.trace = Some(shared.clone());
        if !keep.contains(&"cores") {
            next.cores = log.machine();
        }
        let jobs = next.class_jobs()?.expect("a log was set");
        *scenario = next;
        Ok(if jobs.capped > 0 {
            vec![format!(
                "{} jobs of the log asked for more than cores = {} and hold all of them",
                jobs.capped, scenario.cores
            )]
        } else {
            Vec::new()
        })
    }

    fn replaying(scenario: &MsfqScenario) -> bool {
        scenario.trace.is_some()
    }

    /// One time unit past the last arrival under the scaling, rounded up.
    fn trace_horizon(scenario: &MsfqScenario) -> Option<u64> {
        let jobs = scenario.class_jobs().ok()??;
        Some(jobs.span(scenario.load).ceil() as u64 + 1)
    }
}

/// The input of the MSFQ analysis (SPEC 5.6) for threshold `l` on `scenario`, where it
/// applies: exactly the classes {1, k}, exponential service.
pub fn analysis_input(scenario: &MsfqScenario, l: u32) -> Option<theory::MsfqInput> {
    let k = scenario.cores;
    let classes = scenario.classes.as_slice();
    if scenario.service != ServiceLaw::Exponential || k < 2 || classes.len() != 2 {
        return None;
    }
    let (small, large) = (classes[0], classes[1]);
    if small.need != 1 || large.need != k {
        return None;
    }
    Some(theory::MsfqInput {
        k,
        lambda: scenario.load,
        p1: small.probability,
        mu1: 1.0 / small.mean_size,
        muk: 1.0 / large.mean_size,
        l,
    })
}
