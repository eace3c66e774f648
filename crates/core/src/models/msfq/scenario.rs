//! The multiserver-job scenario (MSFQ paper, SPEC section 5) and its keys.

use super::Msfq;
use super::classes::{JobClasses, MAX_CORES};
use std::sync::Arc;

use super::state::MsfqConfig;
use super::trace::ClassJobs;
use crate::ConfigError;
use crate::keys::{Editor, Input, Key, KeyFile};
use crate::model::{ModelScenario, window_keys};
use crate::trace::{self, Loaded, Shared};
use crate::window::{HasWindow, RunWindow, WindowRules};
use crate::workload::ServiceLaw;

/// Largest total arrival rate.
pub const MAX_ARRIVAL_RATE: f64 = 1e6;

/// One machine of k cores; Poisson arrivals at total rate λ (the load knob), each job of a
/// class drawn from the class table, holding `need` cores for an exponential (or other)
/// service time.
#[derive(Debug, Clone, PartialEq)]
pub struct MsfqScenario {
    /// k.
    pub cores: u32,
    /// λ, total arrivals per time unit.
    pub load: f64,
    pub classes: JobClasses,
    pub service: ServiceLaw,
    /// An SWF log replayed instead of the Poisson arrivals: its jobs, classed by need, replace
    /// the class table, and `load` is its traffic scaling 1/β.
    pub trace: Option<Shared>,
    pub window: RunWindow,
}

const WINDOW: [Key<MsfqScenario>; 5] = window_keys();

/// The keys of an MSFQ scenario, in the order listings and links use.
pub const KEYS: &[Key<MsfqScenario>] = &[
    Key::real("load", 0.0, MAX_ARRIVAL_RATE, |s: &MsfqScenario| s.load, |s: &mut MsfqScenario, v| s.load = v)
        .label("Arrival rate λ")
        .help("total arrival rate λ (jobs per time unit)")
        .input(Input::Load)
        .changes("the arrival rate λ from that moment on (not while a trace replays)"),
    Key::int(
        "cores",
        1,
        MAX_CORES as u64,
        |s: &MsfqScenario| s.cores as u64,
        |s: &mut MsfqScenario, v| s.cores = v as u32,
    )
    .label("Cores k")
    .help("cores k of the machine")
    // Why not by draining, as PG-RR's servers: docs/resolutions.md, RES-99.
    .fixed(
        "the job classes and the policies are defined by k: the one-or-all class needs every core, and MSFQ's \
         phases, nMSR's schedules and Quickswap's thresholds are set in k",
    ),
    Key::text(
        "classes",
        JobClasses::RANGE,
        |s: &MsfqScenario| s.classes.to_string(),
        |s: &mut MsfqScenario, v| {
            s.classes = JobClasses::parse(v)?;
            Ok(())
        },
    )
    .label("Job classes")
    .help("job classes: server need, probability, mean size")
    .input(Input::Editor(Editor::Classes))
    .file(KeyFile {
        holds: "a CSV of need, probability, mean_size",
        accept: ".csv,text/csv",
        read: |text| JobClasses::from_csv(text).map(|classes| classes.to_string()),
    }),
    Key::text(
        "service",
        ServiceLaw::RANGE,
        |s: &MsfqScenario| s.service.to_string(),
        |s: &mut MsfqScenario, v| {
            s.service = ServiceLaw::parse(v)?;
            Ok(())
        },
    )
    .label("Service law")
    .help("shape of the service times (mean: the class's mean size)"),
    Key::text(
        "trace",
        "none, or the 16-digit fingerprint of a loaded SWF log",
        |s: &MsfqScenario| s.trace.as_ref().map_or_else(|| "none".to_string(), Shared::name),
        |s: &mut MsfqScenario, v| {
            s.trace = match v.trim() {
                "none" => None,
                name => {
                    let shared = trace::find(name)?;
                    if !matches!(&*shared.0, Loaded::Swf(_)) {
                        return Err(ConfigError::new(
                            trace::KEY,
                            format!(
                                "{name} is a {} file; MSFQ replays SWF logs (Google traces run in PG-RR and PG-AS)",
                                shared.0.format().name()
                            ),
                        ));
                    }
                    Some(shared)
                }
            };
            Ok(())
        },
    )
    .label("Trace")
    .help("replay an SWF log instead of Poisson arrivals (classes and services then come from it)")
    .input(Input::Editor(Editor::Trace)),
    WINDOW[0],
    WINDOW[1],
    WINDOW[2],
    WINDOW[3],
    WINDOW[4],
];

impl HasWindow for MsfqScenario {
    const WINDOW_RULES: WindowRules = WindowRules { max_horizon: 10_000_000_000, whole_grid: true, slotted: false };

    fn window(&self) -> &RunWindow {
        &self.window
    }

    fn window_mut(&mut self) -> &mut RunWindow {
        &mut self.window
    }
}

impl ModelScenario for MsfqScenario {
    type Model = Msfq;
}

impl MsfqScenario {
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        if self.trace.is_some() {
            // The log's classes are fitted to the cores, so no need exceeds them.
            return self.effective().map(drop);
        }
        let need = self.classes.max_need();
        if need > self.cores {
            return Err(ConfigError::new(
                "classes",
                format!(
                    "a class needs {need} cores but the machine has cores = {}; needs must be in 1..=cores",
                    self.cores
                ),
            ));
        }
        Ok(())
    }

    /// The log's jobs, when the arrivals come from one.
    pub fn class_jobs(&self) -> Result<Option<ClassJobs>, ConfigError> {
        match self.trace.as_ref().map(|t| &*t.0) {
            None => Ok(None),
            Some(Loaded::Swf(log)) => ClassJobs::from_swf(log, self.cores).map(Some),
            Some(_) => Err(ConfigError::new(trace::KEY, "MSFQ replays SWF logs")),
        }
    }

    /// The scenario as it runs: with a log, its fitted class table in place of `classes` (the
    /// policies are built for the classes the jobs come in).
    pub fn effective(&self) -> Result<MsfqScenario, ConfigError> {
        let mut s = self.clone();
        if let Some(jobs) = self.class_jobs()? {
            s.classes = jobs.table;
        }
        Ok(s)
    }

    /// The engine configuration.
    pub fn engine_config(&self, max_points: usize) -> MsfqConfig {
        let trace = self.class_jobs().ok().flatten().map(|jobs| (Arc::new(jobs), self.load));
        MsfqConfig {
            cores: self.cores,
            arrival_rate: trace.as_ref().map_or(self.load, |(jobs, scaling)| jobs.rate(*scaling)),
            trace,
            classes: self.classes.clone(),
            service: self.service,
            warmup: self.window.warmup as f64,
            horizon: self.window.horizon as f64,
            sample_every: self.window.sample_every,
            max_points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{AnyScenario, Scenario};
    use crate::scenario::preset;

    #[test]
    fn keys_round_trip_and_reject() {
        let Scenario::Msfq(mut s) = preset("msfq-d1").unwrap().scenario else { panic!("msfq-d1 is MSFQ") };
        for k in KEYS {
            let v = k.get(&s);
            k.set(&mut s, &v).unwrap();
        }
        for (key, value) in [
            ("cores", "0"),
            ("cores", "-3"),
            ("load", "-1"),
            ("load", "x"),
            ("classes", "1@0.9,64@0.2"),
            ("service", "gamma"),
            ("seed", "abc"),
            ("nonsense", "1"),
        ] {
            let e = AnyScenario::set(&mut s, key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
        }
        AnyScenario::set(&mut s, "classes", "1@0.9,64@0.1").unwrap();
        let e = AnyScenario::validate(&s).unwrap_err();
        assert_eq!(e.key, "classes");
        assert!(e.message.contains("needs 64 cores"), "{e}");
    }
}
