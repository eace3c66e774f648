//! Policies racing on the same scenario and seed: the simulation side of the page, free of any
//! browser API so it can be tested anywhere. Each lane is a [`LiveRun`], so any model the core
//! offers races here unchanged.

use std::rc::Rc;

use packlab_core::EngineError;
use packlab_core::metrics::SeriesPoint;
use packlab_core::models::{ModelInfo, RewardReference};
use packlab_core::report::live_run;
use packlab_core::view::{Analysis, LiveRun, Metric, Watch};
use packlab_plot::Point;

use crate::snapshot::{LaneStats, Phase, Snapshot};
use packlab_core::scenario::Setup;

/// Most slots each lane runs between two looks at the clock.
pub const MAX_CHUNK: u64 = 4096;
/// Wall time one chunk should take, in ms: short enough that a frame ends close to its
/// budget whatever a slot costs (from 0.1 µs with one server to 0.1 ms with a thousand),
/// long enough that reading the clock costs nothing.
const CHUNK_TARGET_MS: f64 = 0.5;

/// Below this many servers a lane draws every job; from here on, a heat strip of fills.
pub const DETAIL_LIMIT: usize = 100;

/// One policy's simulation.
struct Lane {
    policy: String,
    label: String,
    run: Box<dyn LiveRun>,
    /// The paper's analysis, where one exists (SPEC 5.6): E[T] and E[T^(j)] per class.
    analysis: Option<Analysis>,
}

/// The simulations of every policy of a [`Setup`], stepped in lockstep: after any call, all
/// lanes have run the same number of slots (unless a policy failed).
pub struct Race {
    horizon: u64,
    warmup: u64,
    model: &'static ModelInfo,
    /// U^(g) and U* at the scenario's workload (PG-AS), solved once per race.
    reward: Option<RewardReference>,
    lanes: Vec<Lane>,
    bin_labels: Rc<[String]>,
    /// Whether the lanes draw every job (few servers) or a heat strip.
    detail: bool,
    /// Slots per chunk, adapted to what a slot costs (see [`CHUNK_TARGET_MS`]).
    chunk: u64,
}

impl Race {
    /// Builds one simulation per policy. `max_points` bounds each series, so the history kept
    /// for the charts stays the same size however long the race runs.
    pub fn new(setup: &Setup, max_points: usize) -> Self {
        let s = &setup.scenario;
        let lanes: Vec<Lane> = setup
            .policies
            .iter()
            // The lab's reducer and the link decoder admit only policies of the scenario's
            // model that fit it, so building cannot fail here; a lane that did is left out.
            .filter_map(|spec| {
                let run = live_run(s, spec, Watch::page(max_points)).ok()?;
                let analysis = run.analysis();
                Some(Lane { policy: spec.to_string(), label: s.policy_label(spec), run, analysis })
            })
            .collect();
        let bin_labels = lanes.first().map_or_else(Vec::new, |l| l.run.bin_labels()).into();
        let detail = lanes.first().is_some_and(|l| l.run.view(false).servers.len() < DETAIL_LIMIT);
        Self {
            horizon: s.horizon(),
            warmup: s.warmup(),
            model: s.info(),
            reward: s.any().reward_reference(),
            lanes,
            bin_labels,
            detail,
            chunk: 1,
        }
    }

    /// Slots every lane has run.
    pub fn slot(&self) -> u64 {
        self.lanes.iter().map(|l| l.run.time()).min().unwrap_or(0)
    }

    pub fn horizon(&self) -> u64 {
        self.horizon
    }

    /// Whether the race has reached the scenario's horizon.
    pub fn finished(&self) -> bool {
        self.slot() >= self.horizon
    }

    /// Runs up to `slots` more slots in every lane, stopping early at the horizon or once
    /// `budget_ms` of wall time (read from `clock`, in ms) is spent. Returns the slots run.
    pub fn advance(&mut self, slots: u64, budget_ms: f64, clock: impl Fn() -> f64) -> Result<u64, EngineError> {
        let start = clock();
        let mut done = 0;
        loop {
            let n = self.chunk.min(slots - done).min(self.horizon.saturating_sub(self.slot()));
            if n == 0 {
                return Ok(done);
            }
            let chunk_start = clock();
            for lane in &mut self.lanes {
                lane.run.run(n)?;
            }
            done += n;
            let now = clock();
            let took = now - chunk_start;
            if n == self.chunk && took < CHUNK_TARGET_MS / 2.0 {
                self.chunk = (self.chunk * 2).min(MAX_CHUNK);
            } else if took > CHUNK_TARGET_MS * 2.0 {
                self.chunk = (self.chunk / 2).max(1);
            }
            if now - start >= budget_ms {
                return Ok(done);
            }
        }
    }

    /// The race as the page shows it. `focus` is the lane whose per-bin series are included
    /// (one lane's, to keep a snapshot small).
    pub fn snapshot(&self, phase: Phase, focus: usize) -> Snapshot {
        let detail = self.detail;
        let lanes = self
            .lanes
            .iter()
            .enumerate()
            .map(|(color, lane)| {
                let run = &lane.run;
                let r = run.readings();
                LaneStats {
                    policy: lane.policy.clone(),
                    label: lane.label.clone(),
                    color,
                    slot: run.time(),
                    queue: r.queue_len,
                    mean_queue: r.mean_queue,
                    mean_occupancy: r.mean_occupancy,
                    mean_job_time: r.mean_job_time,
                    analysis: lane.analysis.as_ref().map(|a| (a.mean_response, format!("{} analysis", lane.label))),
                    // From the first interval with a measured job on (before, there is no mean).
                    job_time_series: self.measured_points(run.series(Metric::JobTime)),
                    in_system_series: points(run.series(Metric::InSystem)),
                    measured: r.measured,
                    arrivals: r.arrivals,
                    queue_series: points(run.series(Metric::Queue)),
                    mean_reward: r.mean_reward,
                    reward_series: points(run.series(Metric::Reward)),
                    occupancy_series: running_mean(run.series(Metric::Occupancy)),
                    view: Rc::new(run.view(detail)),
                }
            })
            .collect();
        let focus = focus.min(self.lanes.len().saturating_sub(1));
        let bins = 0..self.bin_labels.len();
        let focused = self.lanes.get(focus);
        let bin_series = focused
            .map(|lane| bins.clone().map(|b| points(lane.run.series(Metric::Bin(b)))).collect())
            .unwrap_or_default();
        let bin_job_time_series = focused
            .map(|lane| bins.map(|b| self.measured_points(lane.run.series(Metric::BinJobTime(b)))).collect())
            .unwrap_or_default();
        // Labelled as the analysis of its class: the legend lists the class's curve too.
        let bin_analysis = focused
            .and_then(|lane| lane.analysis.as_ref())
            .map(|a| a.by_bin.iter().zip(self.bin_labels.iter()).map(|(&v, l)| (v, format!("{l} analysis"))).collect())
            .unwrap_or_default();
        Snapshot {
            slot: self.slot(),
            horizon: self.horizon,
            warmup: self.warmup,
            model: self.model,
            reward: self.reward,
            phase,
            lanes,
            bin_labels: self.bin_labels.clone(),
            focus,
            bin_series,
            bin_job_time_series,
            bin_analysis,
            detail,
            rate: None,
        }
    }
}

impl Race {
    /// A running mean of measured jobs at interval midpoints, from its first interval with a
    /// measured job on (before, the core's running mean is NaN: there is nothing to plot).
    fn measured_points(&self, series: &[SeriesPoint]) -> Rc<[Point]> {
        series
            .iter()
            .filter(|p| p.end > self.warmup as f64 && p.mean.is_finite())
            .map(|p| Point::new(0.5 * (p.start + p.end), p.mean))
            .collect()
    }
}

/// The running average of a series of interval means, at each interval's end: what a long
/// run's time average converges to, and where the papers' bounds apply. (The intervals of a
/// series all have the same length, so the running average is the mean of the points.)
fn running_mean(series: &[SeriesPoint]) -> Rc<[Point]> {
    let mut sum = 0.0;
    series
        .iter()
        .enumerate()
        .map(|(i, p)| {
            sum += p.mean;
            Point::new(p.end, sum / (i + 1) as f64)
        })
        .collect()
}

/// Interval means at their midpoints, for drawing.
fn points(series: &[SeriesPoint]) -> Rc<[Point]> {
    series.iter().map(|p| Point::new(0.5 * (p.start + p.end), p.mean)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(policies: &[&str]) -> Setup {
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.policies = policies.iter().map(|p| packlab_core::policy::PolicySpec::parse(p).unwrap()).collect();
        setup.scenario.set("horizon", "1000").unwrap();
        setup.scenario.set("warmup", "100").unwrap();
        setup
    }

    /// A clock that advances `step` ms at each reading.
    fn ticking(step: f64) -> impl Fn() -> f64 {
        let now = std::cell::Cell::new(0.0);
        move || {
            now.set(now.get() + step);
            now.get()
        }
    }

    #[test]
    fn lanes_stay_in_lockstep_and_stop_at_the_horizon() {
        let mut race = Race::new(&setup(&["vqs", "bf-js"]), 64);
        assert_eq!(race.advance(300, f64::INFINITY, || 0.0).unwrap(), 300);
        // A budget spent by the first chunk stops there.
        let chunk = race.chunk;
        assert_eq!(race.advance(10_000, 1.0, ticking(1.0)).unwrap(), chunk);
        assert_eq!(race.advance(10_000, f64::INFINITY, || 0.0).unwrap(), 1_000 - 300 - chunk);
        assert!(race.finished());
        assert_eq!(race.advance(10, f64::INFINITY, || 0.0).unwrap(), 0);
        let snap = race.snapshot(Phase::Finished, 0);
        assert_eq!(snap.slot, 1_000);
        let names: Vec<_> = snap.lanes.iter().map(|l| l.policy.as_str()).collect();
        assert_eq!(names, ["vqs", "bf-js"]);
        assert!(snap.lanes.iter().all(|l| l.slot == 1_000 && l.measured == 900));
        // Common random numbers: both policies saw the same arrivals.
        assert_eq!(snap.lanes[0].arrivals, snap.lanes[1].arrivals);
        assert_eq!(snap.lanes[0].label, "VQS (J=2)");
        // One server: drawn in detail, with the focused lane's bins.
        assert!(snap.detail);
        assert_eq!(snap.bin_labels.len(), 4);
        assert_eq!(snap.bin_series.len(), 4);
    }

    #[test]
    fn chunks_follow_the_cost_of_a_slot() {
        let mut long = setup(&["bf-js"]);
        long.scenario.set("horizon", "100000").unwrap();
        let mut race = Race::new(&long, 64);
        // Cheap slots: chunks double up to the cap.
        race.advance(20_000, f64::INFINITY, || 0.0).unwrap();
        assert_eq!(race.chunk, MAX_CHUNK);
        // Slow ones (every chunk takes 3 ms by this clock): they halve down to one slot.
        let mut race = Race::new(&setup(&["bf-js"]), 64);
        race.chunk = 64;
        race.advance(500, f64::INFINITY, ticking(1.5)).unwrap();
        assert_eq!(race.chunk, 1);
    }

    #[test]
    fn many_servers_are_drawn_compactly() {
        let mut setup = setup(&["bf-js"]);
        setup.scenario.set("servers", "1000").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(50, f64::INFINITY, || 0.0).unwrap();
        let snap = race.snapshot(Phase::Paused, 7);
        assert!(!snap.detail);
        assert_eq!(snap.focus, 0);
        assert_eq!(snap.lanes[0].view.servers.len(), 1000);
        assert!(snap.lanes[0].view.servers.iter().all(|s| s.blocks.is_empty()));
    }
}
