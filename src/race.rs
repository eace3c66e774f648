//! Policies racing on the same scenario and seed: the simulation side of the page, free of any
//! browser API so it can be tested anywhere.

use std::rc::Rc;

use packlab_core::EngineError;
use packlab_core::engine::slotted::SlottedSim;
use packlab_core::policy::PolicySpec;
use packlab_core::report::{RunError, slotted_sim};
use packlab_core::scenario::{PgrrScenario, Preset, Scenario, preset};
use packlab_plot::Point;

use crate::snapshot::{LaneStats, Phase, Snapshot};

/// Slots each lane runs between two looks at the clock: small enough to keep a frame within
/// its budget, large enough that reading the clock costs nothing.
pub const CHUNK: u64 = 256;

/// What to run: a preset and the policies that race on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub preset: Preset,
    pub scenario: PgrrScenario,
    pub policies: Vec<PolicySpec>,
}

impl Setup {
    /// Looks up preset `id` and parses the policy names (`vqs`, `bf-js:…`).
    pub fn load(id: &str, policies: &[&str]) -> Result<Self, RunError> {
        let preset = preset(id)?;
        preset.scenario.validate()?;
        let Scenario::Pgrr(scenario) = preset.scenario.clone();
        let policies = policies.iter().map(|p| PolicySpec::parse(p)).collect::<Result<Vec<_>, _>>()?;
        Ok(Self { preset, scenario, policies })
    }
}

/// One policy's simulation.
struct Lane {
    spec: PolicySpec,
    label: String,
    sim: SlottedSim,
}

/// The simulations of every policy of a [`Setup`], stepped in lockstep: after any call, all
/// lanes have run the same number of slots (unless a policy failed).
pub struct Race {
    horizon: u64,
    warmup: u64,
    lanes: Vec<Lane>,
}

impl Race {
    /// Builds one simulation per policy. `max_points` bounds each Q(t) series, so the history
    /// kept for the chart stays the same size however long the race runs.
    pub fn new(setup: &Setup, max_points: usize) -> Self {
        let s = &setup.scenario;
        let lanes = setup
            .policies
            .iter()
            .map(|spec| Lane { spec: *spec, label: spec.label(s.j), sim: slotted_sim(s, spec, max_points) })
            .collect();
        Self { horizon: s.horizon, warmup: s.warmup, lanes }
    }

    /// Slots every lane has run.
    pub fn slot(&self) -> u64 {
        self.lanes.iter().map(|l| l.sim.slot()).min().unwrap_or(0)
    }

    pub fn horizon(&self) -> u64 {
        self.horizon
    }

    /// Whether the race has reached the scenario's horizon.
    pub fn finished(&self) -> bool {
        self.slot() >= self.horizon
    }

    /// Runs up to `slots` more slots in every lane, in chunks of [`CHUNK`], stopping early at
    /// the horizon or as soon as `out_of_time()` says the frame's budget is spent. Returns the
    /// slots run.
    pub fn advance(&mut self, slots: u64, mut out_of_time: impl FnMut() -> bool) -> Result<u64, EngineError> {
        let mut done = 0;
        loop {
            let n = CHUNK.min(slots - done).min(self.horizon.saturating_sub(self.slot()));
            if n == 0 {
                return Ok(done);
            }
            for lane in &mut self.lanes {
                lane.sim.run(n)?;
            }
            done += n;
            if out_of_time() {
                return Ok(done);
            }
        }
    }

    /// The race as the page shows it.
    pub fn snapshot(&self, phase: Phase) -> Snapshot {
        let lanes = self
            .lanes
            .iter()
            .enumerate()
            .map(|(color, lane)| {
                let sim = &lane.sim;
                let series: Vec<Point> =
                    sim.queue_series().iter().map(|p| Point::new(0.5 * (p.start + p.end), p.mean)).collect();
                LaneStats {
                    policy: lane.spec.to_string(),
                    label: lane.label.clone(),
                    color,
                    slot: sim.slot(),
                    queue: sim.queue().len() as u64,
                    mean_queue: sim.mean_queue(),
                    measured: sim.window_slots(),
                    arrivals: sim.counters().arrivals,
                    series: Rc::from(series),
                }
            })
            .collect();
        Snapshot { slot: self.slot(), horizon: self.horizon, warmup: self.warmup, phase, lanes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_stay_in_lockstep_and_stop_at_the_horizon() {
        let mut setup = Setup::load("pgrr-a1", &["vqs", "bf-js"]).unwrap();
        setup.scenario.horizon = 1_000;
        setup.scenario.warmup = 100;
        let mut race = Race::new(&setup, 64);
        assert_eq!(race.advance(300, || false).unwrap(), 300);
        let mut calls = 0;
        // A spent budget stops after one chunk.
        assert_eq!(
            race.advance(10_000, || {
                calls += 1;
                true
            })
            .unwrap(),
            CHUNK
        );
        assert_eq!(calls, 1);
        assert_eq!(race.advance(10_000, || false).unwrap(), 1_000 - 300 - CHUNK);
        assert!(race.finished());
        assert_eq!(race.advance(10, || false).unwrap(), 0);
        let snap = race.snapshot(Phase::Finished);
        assert_eq!(snap.slot, 1_000);
        let names: Vec<_> = snap.lanes.iter().map(|l| l.policy.as_str()).collect();
        assert_eq!(names, ["vqs", "bf-js"]);
        assert!(snap.lanes.iter().all(|l| l.slot == 1_000 && l.measured == 900));
        // Common random numbers: both policies saw the same arrivals.
        assert_eq!(snap.lanes[0].arrivals, snap.lanes[1].arrivals);
        assert_eq!(snap.lanes[0].label, "VQS (J=2)");
    }

    #[test]
    fn bad_names_are_errors_not_panics() {
        assert!(Setup::load("pgrr-a9", &["vqs"]).unwrap_err().to_string().contains("unknown preset"));
        assert!(Setup::load("pgrr-a1", &["nope"]).unwrap_err().to_string().contains("unknown policy"));
    }
}
