//! MSFQ: multiserver jobs on one machine of k cores in continuous time (Grosof et al., "Most
//! Servers First with Quickswap"; SPEC section 5).
//!
//! * [`scenario`]: the scenario and its keys; [`classes`]: job-class tables;
//! * [`state`]: the machine and its per-class queues; [`policy`]: the policy trait, decisions,
//!   observations and context; [`policies`]: one file each;
//! * [`engine`]: the event-driven engine; [`stats`]: streaming measurement; [`live`]: what the
//!   page shows; [`summary`]: the report;
//! * [`theory`]: the paper's analysis of MSF/MSFQ (SPEC 5.6); [`presets`]: Figs. 1-6.

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
        if scenario.trace.is_some() { Vec::new() } else { marks(scenario.cores, &scenario.classes) }
    }

    fn scripting() -> Option<&'static crate::script::Scripting> {
        // A build without the script engine offers no editor (crate::script::AVAILABLE).
        #[cfg(feature = "script")]
        return Some(&script::SCRIPTING);
        #[cfg(not(feature = "script"))]
        None
    }

    fn capacity(scenario: &MsfqScenario) -> Option<Capacity> {
        if scenario.trace.is_some() {
            return None;
        }
        let load = schedule_capacity(scenario.cores, &scenario.classes)?;
        Some(Capacity { load, source: "LP over the maximal schedules" })
    }

    /// MSF and MSFQ are throughput-optimal when every class needs one core or all of them
    /// (Theorems 1 and 3); Static Quickswap is stable below its sufficient condition (Remark 1).
    fn guarantee(scenario: &MsfqScenario, spec: &PolicySpec) -> Option<Guarantee> {
        let one_or_all = scenario.classes.as_slice().iter().all(|c| c.need == 1 || c.need == scenario.cores);
        match spec.name() {
            "msf" if one_or_all => {
                Some(Guarantee { fraction: 1.0, claim: "Theorem 1: MSF is throughput-optimal for one-or-all jobs" })
            }
            "msfq" if one_or_all => {
                Some(Guarantee { fraction: 1.0, claim: "Theorem 3: MSFQ is throughput-optimal for one-or-all jobs" })
            }
            "static-qs" => {
                let capacity = schedule_capacity(scenario.cores, &scenario.classes)?;
                let fraction = (quickswap_bound(scenario.cores, &scenario.classes) / capacity).min(1.0);
                Some(Guarantee { fraction, claim: "Remark 1: Static Quickswap's sufficient condition" })
            }
            _ => None,
        }
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
        Ok(MsfqSim::new(effective.engine_config(watch.max_points), policy, effective.window.seed)
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

/// Load marks in units of λ (SPEC 5.3): the capacity bound Σ_j j·λ_j/(k·μ_j) < 1, beyond
/// which no policy is stable (for one-or-all classes MSF and MSFQ reach it: Theorems 1 and 3),
/// and, where it is lower, Static Quickswap's sufficient condition Σ_j λ_j/(⌊k/j⌋·μ_j) < 1
/// (Remark 1).
pub fn marks(cores: u32, classes: &JobClasses) -> Vec<LoadMark> {
    let capacity = capacity(cores, classes);
    let mut marks =
        vec![LoadMark { load: capacity, label: format!("capacity bound λ = {capacity:.4}"), short: "λ max" }];
    let quickswap = quickswap_bound(cores, classes);
    if quickswap < capacity * (1.0 - 1e-9) {
        marks.push(LoadMark {
            load: quickswap,
            label: format!("Static QS stable below λ = {quickswap:.4}"),
            short: "λ max",
        });
    }
    marks
}

/// Static Quickswap's sufficient condition Σ_j λ_j/(⌊k/j⌋·μ_j) < 1 as a total arrival rate.
fn quickswap_bound(cores: u32, classes: &JobClasses) -> f64 {
    1.0 / classes.as_slice().iter().map(|c| c.probability * c.mean_size / (cores / c.need) as f64).sum::<f64>()
}

/// The capacity: the largest total arrival rate λ for which the classes' work λ·p_i·E\[S_i\]
/// fits a time-sharing of the maximal schedules (Σ_m π_m·u_{m,i} ≥ λ·p_i·E\[S_i\], Σ π_m = 1).
/// It equals k / Σ_j p_j·j·E\[S_j\] when schedules can fill every core (one-or-all classes);
/// `None` past the nMSR enumeration's limit.
pub fn schedule_capacity(cores: u32, classes: &JobClasses) -> Option<f64> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let needs: Vec<u32> = classes.as_slice().iter().map(|c| c.need).collect();
    let schedules = policies::nmsr::maximal_schedules(cores, &needs)?;
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let lambda = lp.add_var(1.0, (0.0, f64::INFINITY));
    let shares: Vec<_> = schedules.iter().map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    for (i, class) in classes.as_slice().iter().enumerate() {
        let mut row: Vec<_> =
            schedules.iter().zip(&shares).filter(|(u, _)| u[i] > 0).map(|(u, &pi)| (pi, -f64::from(u[i]))).collect();
        row.push((lambda, class.probability * class.mean_size));
        lp.add_constraint(row.as_slice(), ComparisonOp::Le, 0.0);
    }
    let total: Vec<_> = shares.iter().map(|&pi| (pi, 1.0)).collect();
    lp.add_constraint(total.as_slice(), ComparisonOp::Le, 1.0);
    let value = *lp.solve().ok()?.var_value(lambda);
    value.is_finite().then_some(value)
}

/// The largest total arrival rate any policy can sustain: k / Σ_j p_j·j·E\[S_j\].
pub fn capacity(cores: u32, classes: &JobClasses) -> f64 {
    cores as f64 / classes.work_per_arrival()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_of_the_presets() {
        let one_or_all = JobClasses::parse("1@0.9,32@0.1").unwrap();
        let m = marks(32, &one_or_all);
        assert_eq!(m.len(), 1);
        assert!((m[0].load - 7.80488).abs() < 1e-5, "{}", m[0].load);
        let four = JobClasses::parse("1@0.5,3@0.25,5@0.2,15@0.05").unwrap();
        let m = marks(15, &four);
        assert_eq!(m.len(), 1, "every need divides 15");
        assert!((m[0].load - 5.0).abs() < 1e-9);
        // k = 3, needs 1 and 2: capacity 3 / (0.5 + 1) = 2; Static QS runs one 2-core job at a
        // time, 1 / (0.5/3 + 0.5/1) = 1.5.
        let odd = JobClasses::parse("1@0.5,2@0.5").unwrap();
        let m = marks(3, &odd);
        assert_eq!(m.len(), 2);
        assert!((m[0].load - 2.0).abs() < 1e-9 && (m[1].load - 1.5).abs() < 1e-9);
        // The LP agrees where schedules fill the machine, and is lower where they cannot:
        // only one 2-core job fits on 3 cores.
        for (k, classes) in [(32, &one_or_all), (15, &four), (3, &odd)] {
            let lp = schedule_capacity(k, classes).unwrap();
            assert!((lp - capacity(k, classes)).abs() < 1e-6, "{k}: {lp}");
        }
        let two = JobClasses::parse("2@1").unwrap();
        assert!((schedule_capacity(3, &two).unwrap() - 1.0).abs() < 1e-9);
    }
}
