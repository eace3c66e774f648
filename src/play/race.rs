//! Policies racing on the same scenario and seed: the simulation side of the page, free of any
//! browser API so it can be tested anywhere. Each lane is a [`LiveRun`], so any model the core
//! offers races here unchanged.

use std::cell::RefCell;
use std::rc::Rc;

use packlab_core::EngineError;
use packlab_core::decisions::Decision;
use packlab_core::metrics::SeriesPoint;
use packlab_core::model::{ModelInfo, RewardReference, TimeUnit};
use packlab_core::report::live_run;
use packlab_core::view::{Analysis, LiveRun, Metric, PAGE_LOG, Watch};
use packlab_plot::Point;

use packlab_core::scenario::Setup;

use crate::play::checkpoints::Checkpoints;
use crate::play::snapshot::{LaneStats, Phase, Snapshot};
use costs::CostMeter;

/// Most slots each lane runs between two looks at the clock.
pub const MAX_CHUNK: u64 = 4096;
/// Wall time one chunk should take, in ms: short enough that a frame ends close to its
/// budget whatever a slot costs (from 0.1 µs with one server to 0.1 ms with a thousand),
/// long enough that reading the clock costs nothing.
const CHUNK_TARGET_MS: f64 = 0.5;

/// Below this many servers a lane draws every job; from here on, a heat strip of fills.
pub const DETAIL_LIMIT: usize = 100;

/// When a log was read: its count, the run's time (bits) and how many decisions it kept.
type LogKey = (u64, u64, usize);

/// One policy's simulation.
struct Lane {
    policy: String,
    label: String,
    run: Box<dyn LiveRun>,
    /// The paper's analysis, where one exists (SPEC 5.6): E\[T\] and E\[T^(j)\] per class.
    analysis: Option<Analysis>,
    /// The decisions last published, with the count, time and length they were read at: a
    /// snapshot copies the log only when it moved (a run is deterministic, so the same moment,
    /// count and length after going back and forth is the same log).
    published: RefCell<(LogKey, Rc<[Decision]>)>,
    /// Why the lane stopped while the others run on (its script failed), and the time its
    /// run had reached cleanly before the call that failed.
    stopped: Option<(f64, String)>,
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
    /// Clones of the lanes along the run so far, to go back to any moment.
    checkpoints: Checkpoints,
    /// The furthest time reached: what the timeline covers.
    furthest: f64,
    /// The policy whose run stopped the race (the waiting-job limit), to name it.
    failed: Option<String>,
    /// Whether these lanes are one of several parts of a race split over workers
    /// ([`crate::play::split`]): the lanes of the other parts may run on when all of these
    /// stopped on their scripts.
    part: bool,
    /// Each lane's wall time per slot while it plays: what places the lanes of a race split
    /// over workers ([`crate::play::split::place`]).
    costs: CostMeter,
    /// The scenario's changes the lanes make ([`Race::amend`] replaces them while it plays).
    changes: packlab_core::changes::Changes,
}

/// Events a step passes over at most looking for one that changes something (stale clock
/// ticks change nothing).
const MAX_SILENT_EVENTS: usize = 10_000;

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
                // Quiet: the decision log is made when the race stops ([`Race::explain`]).
                let run = live_run(s, spec, Watch::page(max_points).with_log(0)).ok()?;
                let analysis = run.analysis();
                Some(Lane {
                    policy: spec.to_string(),
                    label: s.policy_label(spec),
                    run,
                    analysis,
                    published: RefCell::new(((0, 0, 0), Rc::from([]))),
                    stopped: None,
                })
            })
            .collect();
        let bin_labels = lanes.first().map_or_else(Vec::new, |l| l.run.bin_labels()).into();
        let detail = lanes.first().is_some_and(|l| l.run.view(false).servers.len() < DETAIL_LIMIT);
        let checkpoints = Checkpoints::new(lanes.iter().map(|l| &*l.run));
        let costs = CostMeter::new(lanes.len());
        Self {
            horizon: s.horizon(),
            warmup: s.warmup(),
            model: s.info(),
            reward: s.any().reward_reference(),
            lanes,
            bin_labels,
            detail,
            chunk: 1,
            checkpoints,
            furthest: 0.0,
            failed: None,
            part: false,
            costs,
            changes: s.any().window().changes.clone(),
        }
    }

    /// The same race as one part of a race split over several workers: when every lane here
    /// stopped on its script, the race here is over (its lanes stay stopped) instead of failing,
    /// since the other parts' lanes run on ([`crate::play::split`] leaves such a part out of
    /// the moment it shows).
    /// `parts` is how many parts the race has: this one keeps its share of the checkpoint
    /// budget.
    pub fn into_part(mut self, parts: u64) -> Self {
        self.part = true;
        self.checkpoints.share(parts);
        self
    }

    /// The lanes still running: all but those whose script stopped them.
    fn running(&self) -> impl Iterator<Item = &Lane> {
        self.lanes.iter().filter(|l| l.stopped.is_none())
    }

    /// The exact time every running lane has reached (between whole units after a step to an
    /// event).
    pub fn now(&self) -> f64 {
        self.running().map(|l| l.run.now()).fold(f64::INFINITY, f64::min).min(self.horizon as f64)
    }

    /// The furthest time reached so far.
    pub fn furthest(&self) -> f64 {
        self.furthest
    }

    /// How many checkpoints are kept and the bytes they hold.
    pub fn checkpoint_usage(&self) -> (usize, u64) {
        self.checkpoints.usage()
    }

    /// Bytes cloned for checkpoints since the start, and events the lanes simulated: what
    /// checkpointing cost against what the race did.
    pub fn checkpoint_cost(&self) -> (u64, u64) {
        (self.checkpoints.cloned(), self.lanes.iter().map(|l| l.run.readings().events).sum())
    }

    /// Slots every lane has run. A race without lanes (a preset of bounds only) is over
    /// before it starts: nothing would ever move it, and seeking in it must not wait for that.
    pub fn slot(&self) -> u64 {
        self.running().map(|l| l.run.time()).min().unwrap_or(self.horizon)
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
            let n = n.min(self.until_checkpoint());
            if n == 0 {
                return Ok(done);
            }
            let chunk_start = clock();
            self.run_lanes(n, Some(&clock))?;
            done += n;
            let now = clock();
            let took = now - chunk_start;
            // Judged per slot: a chunk cut short by a checkpoint says what a full one costs.
            let full = took * self.chunk as f64 / n as f64;
            if full < CHUNK_TARGET_MS / 2.0 {
                self.chunk = (self.chunk * 2).min(MAX_CHUNK);
            } else if took > CHUNK_TARGET_MS * 2.0 {
                self.chunk = (self.chunk / 2).max(1);
            }
            if now - start >= budget_ms {
                return Ok(done);
            }
        }
    }

    /// Runs `n` whole time units in every lane (from the last whole unit when a step left the
    /// lanes between two), leaving a checkpoint where one is due.
    /// With `clock`, while playing, the wall time each lane takes is measured too.
    fn run_lanes(&mut self, n: u64, clock: Option<&dyn Fn() -> f64>) -> Result<(), EngineError> {
        for i in 0..self.lanes.len() {
            if self.lanes[i].stopped.is_some() {
                continue;
            }
            let before = self.lanes[i].run.now();
            let start = clock.map(|c| c());
            if let Err(e) = self.lanes[i].run.run(n) {
                self.lane_failed(i, before, e)?;
            }
            if let (Some(clock), Some(start)) = (clock, start) {
                self.costs.spent(i, clock() - start);
            }
        }
        if clock.is_some() {
            self.costs.chunk(n);
        }
        let at = self.slot();
        self.checkpoints.offer(at, self.lanes.iter().map(|l| &*l.run));
        self.furthest = self.furthest.max(self.now());
        Ok(())
    }

    /// Lane `i` failed with `e`, having run cleanly to `before`. A script's failure stops that
    /// lane only, with its message, while another lane runs (issue 34: a hostile script must
    /// not stop the race); any other failure (the waiting-job limit) stops the race.
    fn lane_failed(&mut self, i: usize, before: f64, e: EngineError) -> Result<(), EngineError> {
        if matches!(e, EngineError::Script { .. }) {
            self.lanes[i].stopped = Some((before, e.to_string()));
            if self.running().next().is_some() || self.part {
                return Ok(());
            }
            // The last lane running failed: the race stops, as for any other failure.
            for lane in &mut self.lanes {
                lane.stopped = None;
            }
        }
        self.stop_together(i);
        Err(e)
    }

    /// Gives the lanes `runs`, the checkpoint taken at `at`. A stopped lane runs again when
    /// the checkpoint is from before the call that failed (it will fail there again, the run
    /// being deterministic); a later checkpoint holds its failed run, which stays stopped. (The
    /// checkpoint's time decides, not the run's: a run that failed at once is at the same
    /// time as the clean one before it.)
    fn restore(&mut self, (at, runs): (u64, Vec<Box<dyn LiveRun>>)) {
        for (lane, run) in self.lanes.iter_mut().zip(runs) {
            if lane.stopped.as_ref().is_some_and(|(before, _)| at as f64 <= *before) {
                lane.stopped = None;
            }
            lane.run = run;
        }
    }

    /// Lane `i` stopped (the waiting-job limit) partway through a chunk the lanes before it
    /// had run whole: every lane goes back to the last whole unit the failed one passed, so
    /// the numbers on screen are of one moment (they stood 59 slots apart), and the race
    /// remembers which policy stopped it.
    fn stop_together(&mut self, i: usize) {
        self.failed = Some(self.lanes[i].label.clone());
        let last = self.lanes[i].run.time().saturating_sub(1) as f64;
        self.restore(self.checkpoints.restore(last));
        // Every lane passed `last` before (or fails earlier, which names that lane instead).
        let _ = self.run_forward(last);
    }

    /// The policy whose run stopped the race, if one did.
    pub fn failed_lane(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Whole units until the next checkpoint is due (chunks stop there), at least 1.
    fn until_checkpoint(&self) -> u64 {
        self.checkpoints.next_due().saturating_sub(self.slot()).max(1)
    }

    /// The events handled so far, over all lanes: a step has done something when it moved.
    fn events(&self) -> u64 {
        self.running().map(|l| l.run.readings().events).sum()
    }

    /// When the next pending event of any lane falls (continuous time).
    fn next_event(&self) -> Option<f64> {
        self.running().filter_map(|l| l.run.next_event()).reduce(f64::min)
    }

    /// Every lane handles its events up to `time`; a whole time may take a checkpoint.
    fn run_lanes_to(&mut self, time: f64) -> Result<(), EngineError> {
        for i in 0..self.lanes.len() {
            if self.lanes[i].stopped.is_some() {
                continue;
            }
            let before = self.lanes[i].run.now();
            if let Err(e) = self.lanes[i].run.run_to(time) {
                self.lane_failed(i, before, e)?;
            }
        }
        if time == time.floor() {
            let at = self.slot();
            self.checkpoints.offer(at, self.lanes.iter().map(|l| &*l.run));
        }
        self.furthest = self.furthest.max(self.now());
        Ok(())
    }

    /// The page's Step: one slot in slotted time; in continuous time, up to the next event of
    /// any lane that changes something (an arrival, a departure, a clock tick), so the step
    /// shows one decision rather than a whole time unit of them.
    pub fn step(&mut self) -> Result<(), EngineError> {
        if self.model.time == TimeUnit::Slots {
            return self.advance(1, f64::INFINITY, || 0.0).map(drop);
        }
        let (horizon, events) = (self.horizon as f64, self.events());
        for _ in 0..MAX_SILENT_EVENTS {
            let Some(t) = self.next_event() else { break };
            self.run_lanes_to(t.min(horizon))?;
            if t >= horizon || self.events() != events {
                break;
            }
        }
        Ok(())
    }

    /// Goes to time `target` (within the run): back from the latest checkpoint before it, or
    /// forward from where the race is, whichever is closer; then replays exactly.
    pub fn seek(&mut self, target: f64) -> Result<(), EngineError> {
        let target = if target.is_nan() { 0.0 } else { target.clamp(0.0, self.horizon as f64) };
        let now = self.now();
        if target < now || self.checkpoints.latest_at_or_before(target) as f64 > now {
            self.restore(self.checkpoints.restore(target));
        }
        self.run_forward(target)
    }

    /// Runs every lane on to `target` (not before where they are), leaving checkpoints.
    fn run_forward(&mut self, target: f64) -> Result<(), EngineError> {
        let whole = target.floor() as u64;
        while self.slot() < whole {
            let n = (whole - self.slot()).min(self.until_checkpoint());
            self.run_lanes(n, None)?;
        }
        if target > self.now() {
            self.run_lanes_to(target)?;
        }
        Ok(())
    }

    /// Whether the lanes keep their decision logs.
    pub fn explaining(&self) -> bool {
        self.lanes.iter().all(|l| l.run.decisions().explaining())
    }

    /// Gives every lane its last [`PAGE_LOG`] decisions at this moment, and keeps logging
    /// from here on (steps, going back): what the event log and the inspector show when the
    /// race stops.
    ///
    /// Playing keeps no log, since formatting every decision's reasons costs several times
    /// the decision (`packlab bench --log`). The log is made here instead by replaying the
    /// last stretch, from the checkpoint before it, with the log on: the run is deterministic
    /// and recording changes nothing, so these are exactly the decisions the run made. The
    /// stretch is sized from the slowest lane's pace of decisions so far to hold a full log,
    /// and widened twice, fourfold each time, while a lane lately decided less often than
    /// that; a lane that decides rarely may then show fewer decisions than the log holds,
    /// rather than the page replaying the whole run.
    pub fn explain(&mut self) -> Result<(), EngineError> {
        if self.explaining() {
            return Ok(());
        }
        let now = self.now();
        // Decisions are counted even unlogged: their pace so far sizes the stretch.
        let per_unit = self
            .lanes
            .iter()
            .map(|l| l.run.decisions().count() as f64 / now.max(1.0))
            .filter(|&pace| pace > 0.0)
            .fold(f64::INFINITY, f64::min);
        let mut width = (1.2 * PAGE_LOG as f64 / per_unit).ceil().clamp(1.0, now.max(1.0));
        for _ in 0..3 {
            let from = (now - width).max(0.0).floor();
            self.seek(from)?;
            for lane in &mut self.lanes {
                lane.run.set_log(PAGE_LOG);
            }
            self.run_forward(now)?;
            let full = self.lanes.iter().all(|l| {
                let log = l.run.decisions();
                log.records().len() as u64 >= log.count().min(PAGE_LOG as u64)
            });
            if full || from == 0.0 {
                break;
            }
            width *= 4.0;
        }
        Ok(())
    }

    /// Stops the lanes' decision logs (the race plays on at full pace).
    pub fn quiet(&mut self) {
        for lane in &mut self.lanes {
            lane.run.set_log(0);
        }
    }

    /// The page's Step back: one slot, or back to the previous event that changed something
    /// in continuous time.
    pub fn step_back(&mut self) -> Result<(), EngineError> {
        let now = self.now();
        if now <= 0.0 {
            return Ok(());
        }
        if self.model.time == TimeUnit::Slots {
            return self.seek(now - 1.0);
        }
        // Look back over a widening window for the last event before now that did something.
        let mut width = 1.0;
        loop {
            let from = (now - width).max(0.0);
            self.seek(from)?;
            let (mut events, mut last) = (self.events(), None);
            while let Some(t) = self.next_event().filter(|&t| t < now) {
                self.run_lanes_to(t)?;
                let moved = self.events();
                if moved != events {
                    (events, last) = (moved, Some(t));
                }
            }
            match last {
                Some(t) if self.now() == t => return Ok(()),
                Some(t) => return self.seek(t),
                None if from == 0.0 => return self.seek(0.0),
                None => width *= 2.0,
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
                    verdict: run.verdict(),
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
                    decisions: lane.decisions(),
                    stopped: lane.stopped.as_ref().map(|(_, why)| why.clone()),
                    recovery: Rc::from(run.recoveries()),
                    stretches: Rc::from(run.stretches()),
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
            now: self.now(),
            furthest: self.furthest,
            checkpoints: self.checkpoints.usage(),
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
            costs: self.costs.costs().to_vec(),
        }
    }
}

impl Lane {
    /// The run's kept decisions, copied only when the log moved since the last snapshot.
    fn decisions(&self) -> Rc<[Decision]> {
        let log = self.run.decisions();
        let key = (log.count(), self.run.now().to_bits(), log.records().len());
        let mut published = self.published.borrow_mut();
        if published.0 != key {
            *published = (key, log.records().iter().cloned().collect());
        }
        published.1.clone()
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

mod changes;
mod costs;
#[cfg(test)]
mod tests;
