//! GH-RA: VMs of several types on servers with memory, CPU and storage, Poisson clocks and
//! dummy jobs, in continuous time (Ghaderi, "Randomized algorithms for scheduling VMs in the
//! cloud"; SPEC section 3).
//!
//! * [`scenario`]: the scenario and its keys; [`vms`]: fleets and VM catalogues;
//! * [`state`]: servers, queues and clocks policies read; [`policy`]: the policy trait,
//!   decisions, observations and context; [`policies`]: one file each;
//! * [`engine`]: the event-driven engine; [`stats`]: streaming measurement; [`live`]: what the
//!   page shows; [`summary`]: the report;
//! * [`theory`]: the traffic vector and the LOSS system's law; [`presets`]: the paper's figures.

pub mod engine;
mod fleet_changes;
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
mod ticks;
pub mod vms;

#[cfg(test)]
mod engine_tests;
#[cfg(test)]
mod thinning_tests;

pub use engine::GhraSim;
pub use policies::Weight;
pub use policy::{GhraContext, GhraDecision, GhraObservation, GhraPolicy, LastStart, boxed};
pub use scenario::GhraScenario;
pub use state::{GhraConfig, GhraEvent, GhraJob, GhraState, QueueRef, Source};
pub use stats::GhraStats;
pub use summary::GhraSummary;
pub use ticks::ClockMode;
pub use vms::{Fleet, ServerKind, VmCatalog};

use crate::ConfigError;
use crate::keys::Key;
use crate::model::policy::{Policy, PolicySpec};
use crate::model::{
    BenchCase, Capacity, Drawing, Guarantee, JobTime, LoadKnob, LoadMark, Model, ModelInfo, SliderMax, TimeUnit,
};
use crate::model::{Preset, RunError, RunOutcome, RunReport, Table};
use crate::view::Watch;

/// The GH-RA model.
pub struct Ghra;

impl Model for Ghra {
    type Scenario = GhraScenario;
    type Policy = dyn GhraPolicy;
    type Context = GhraScenario;
    type Run = GhraSim;
    type Summary = GhraSummary;

    const INFO: ModelInfo = ModelInfo {
        id: "ghra",
        name: "GH-RA",
        label: "GH-RA (VM scheduling on multi-resource servers, continuous time)",
        time: TimeUnit::Continuous,
        load: LoadKnob {
            name: "Traffic intensity ζ",
            symbol: "ζ",
            axis: "traffic intensity ζ",
            help: "arrival rates λ = ζ·V, V the average maximal configuration summed over the servers",
            slider: SliderMax::Fixed(1.2),
            step: 0.01,
            is_utilization: false,
        },
        job_time: Some(JobTime {
            name: "delay",
            key: "delay",
            definition: "start of service − arrival (a job still waiting: its wait so far)",
            title: "Mean delay until service, running average",
            bin_title: "Mean delay per VM type, running average",
        }),
        queue: true,
        reward: false,
        drawing: Drawing::Bars,
        classes: "VM type",
        replay: None,
        static_bounds: false,
        theory_keys: &[],
        bench: &[
            BenchCase {
                preset: "ghra-b4",
                sets: &[("load", "0.9"), ("warmup", "0")],
                // Issue 57's targets: Algorithms 1 and 2 (JSQ, power-of-two) on both fleets.
                policies: &["alg2-jsq", "alg2-po2", "alg1", "mw-local"],
                warmup: 500,
                jobs: 1_000_000,
            },
            BenchCase {
                preset: "ghra-b3",
                sets: &[("load", "0.9"), ("warmup", "0")],
                policies: &["alg2-jsq", "alg2-po2", "alg1"],
                warmup: 500,
                jobs: 1_000_000,
            },
        ],
    };
    const POLICIES: &'static [Policy<Self>] = policies::ALL;
    const KEYS: &'static [Key<GhraScenario>] = scenario::KEYS;

    fn validate(scenario: &GhraScenario) -> Result<(), ConfigError> {
        scenario.validate()
    }

    fn load(scenario: &GhraScenario) -> f64 {
        scenario.load
    }

    fn offered_utilization(scenario: &GhraScenario) -> f64 {
        scenario.offered_occupancy()
    }

    /// The capacity: beyond it no policy is stable; Algorithms 1 and 2 are stable below it
    /// (Theorems 1 and 2, under their hypotheses).
    fn marks(scenario: &GhraScenario) -> Vec<LoadMark> {
        Self::capacity(scenario).map_or_else(Vec::new, |c| {
            let zeta = crate::model::table::sig(c.load);
            let short = if (c.load - 1.0).abs() < 1e-9 { "ζ = 1" } else { "ζ*" };
            vec![LoadMark { load: c.load, label: format!("capacity region boundary ζ = {zeta}"), short }]
        })
    }

    /// The largest ζ with ζ·V in the capacity region: the LP over the fleet's configurations
    /// (1 for the EC2 fleets, 20/19 for sizes 2 and 3 on capacity 10). Whatever the service
    /// law: no policy keeps a larger ζ stable, and one that holds the LP's configurations for
    /// long frames, emptying servers between them, keeps every smaller ζ stable (RES-76).
    fn capacity(scenario: &GhraScenario) -> Option<Capacity> {
        let load = theory::capacity(&scenario.types.demands(), &scenario.servers.capacities()).ok()??;
        Some(Capacity { load, source: "LP over the fleet's configurations along V" })
    }

    /// Algorithms 1 and 2 are throughput-optimal (Theorems 1 and 2), with their hypotheses
    /// checked against the scenario and the policy's weight function.
    fn guarantee(scenario: &GhraScenario, spec: &PolicySpec) -> Option<Guarantee> {
        theory::guarantee(scenario, spec.name(), Weight::of(spec))
    }

    fn how_to_read(_: &GhraScenario) -> &'static str {
        "Each policy runs on the same arrivals (same VMs and service times). Each server is a group of bars, one \
         per resource, stacked by its VMs coloured by type; hatched blocks are dummy jobs (from 100 servers on, \
         each server is one square, darker the fuller it is). Below, the waiting VMs per type. The charts show the total queue, the occupancy and the running mean delay until service; the \
         dashed vertical line ends the warm-up."
    }

    /// The policies are built for the most servers the run's changes reach (RES-97).
    fn context(scenario: &GhraScenario, _: usize) -> Result<GhraScenario, ConfigError> {
        Ok(GhraScenario { servers: scenario.largest_fleet(), ..scenario.clone() })
    }

    fn start(
        scenario: &GhraScenario,
        _: &PolicySpec,
        _: GhraScenario,
        policy: Box<dyn GhraPolicy>,
        watch: Watch,
    ) -> Result<GhraSim, RunError> {
        // The engine is built with the largest fleet of the run, its first servers (the
        // starting fleet) taking jobs (RES-97); λ is the starting fleet's.
        let mut config = scenario.engine_config(watch.max_points)?;
        let largest = scenario.largest_fleet();
        config.capacities = largest.capacities();
        config.server_names = largest.names();
        let active = scenario.servers.len();
        Ok(GhraSim::built(config, policy, scenario.window.seed, active)?
            .with_log(watch.log)
            .with_shifts(scenario.shifts()))
    }

    fn summarize(scenario: &GhraScenario, spec: &PolicySpec, run: &GhraSim) -> RunOutcome<GhraSummary> {
        summary::summarize(scenario, spec, run)
    }

    fn over_replications(runs: &[&GhraSummary]) -> GhraSummary {
        GhraSummary::over_replications(runs)
    }

    fn table(names: &[String], runs: &[Vec<&RunReport<GhraSummary>>], _: bool) -> Table {
        summary::table(names, runs)
    }

    fn setting(scenario: &GhraScenario, first: &RunReport<GhraSummary>) -> String {
        summary::setting(scenario, first)
    }

    fn presets() -> Vec<Preset<GhraScenario>> {
        presets::presets()
    }

    fn scripting() -> Option<&'static crate::script::Scripting> {
        // A build without the script engine offers no editor (crate::script::AVAILABLE).
        #[cfg(feature = "script")]
        return Some(&script::SCRIPTING);
        #[cfg(not(feature = "script"))]
        None
    }
}
