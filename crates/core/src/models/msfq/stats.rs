//! Streaming measurement of a multiserver-job run (SPEC 1.6, 5.4): time averages of levels
//! that change at events, per-class response times, a bounded percentile sketch and the
//! MSFQ phase durations. Memory stays flat with the run length: no per-job records are kept.

use hdrhistogram::Histogram;

use super::state::{MsfqConfig, MsfqJob, MsfqState};
use crate::limits::BATCHES;
use crate::metrics::{JobTimes, Level, Series, VerdictWatch};

/// Response times enter the percentile sketch in units of 10^-3 time units.
const SKETCH_SCALE: f64 = 1_000.0;
/// Phases 1..=4 of MSF/MSFQ plus 0, parked (idle).
pub const PHASES: usize = 5;

/// Per-class counts and times over the measured window (jobs that arrived after the
/// warm-up); a job not yet started or completed counts with its time so far ([`JobTimes`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClassStats {
    pub arrivals: u64,
    pub started: u64,
    pub completed: u64,
    /// Waits (arrival to start).
    pub waits: JobTimes,
    /// Response times (arrival to completion).
    pub responses: JobTimes,
    /// The same per batch of arrival times.
    pub batches: [JobTimes; BATCHES],
}

impl ClassStats {
    /// E\[T^(j)\] at `now`; NaN before the class's first measured arrival.
    pub fn mean_response(&self, now: f64) -> f64 {
        self.responses.mean(now)
    }
}

/// Visits of the MSF/MSFQ phases (SPEC 5.4): lengths H_i of the visits that started after
/// the warm-up, and the parked (idle) time. A zero-length visit counts (phase 1 when no large
/// job came during phases 2-4 is one, in the paper's analysis too) unless it is part of the
/// machine's full cycle on an empty system, which ends in parking at the same instant (RES-40):
/// that cycle serves nothing and is no visit of any phase (it read E\[H1\] 15-20 % low at λ = 4,
/// where the system empties often).
#[derive(Debug, Clone)]
pub struct PhaseStats {
    warmup: f64,
    open: Option<(u8, f64)>,
    pub visits: [u64; PHASES],
    pub time: [f64; PHASES],
    /// Zero-length visits closed at `instant`, counted once the machine does not park then.
    zero_length: [u64; PHASES],
    instant: f64,
}

impl PhaseStats {
    fn new(warmup: f64) -> Self {
        Self { warmup, open: None, visits: [0; PHASES], time: [0.0; PHASES], zero_length: [0; PHASES], instant: 0.0 }
    }

    fn close(&mut self, now: f64) {
        if now != self.instant {
            self.count_zero_length();
            self.instant = now;
        }
        if let Some((phase, since)) = self.open.take()
            && since >= self.warmup
        {
            if now == since {
                self.zero_length[phase as usize] += 1;
            } else {
                self.visits[phase as usize] += 1;
                self.time[phase as usize] += now - since;
            }
        }
    }

    /// The zero-length visits held back are visits after all: the machine did not park.
    fn count_zero_length(&mut self) {
        for (visits, zero) in self.visits.iter_mut().zip(&mut self.zero_length) {
            *visits += std::mem::take(zero);
        }
    }

    /// Closes the current visit and opens one of `phase`.
    pub fn enter(&mut self, now: f64, phase: u8) {
        debug_assert!((1..=4).contains(&phase));
        self.close(now);
        self.open = Some((phase, now));
    }

    /// The system emptied: the visits of the cycle just run on it (all at this instant) did
    /// not really happen; idle time begins.
    pub fn park(&mut self, now: f64) {
        if let Some((_, since)) = self.open
            && since == now
        {
            self.open = None;
        }
        self.close(now);
        self.zero_length = [0; PHASES];
        self.open = Some((0, now));
    }

    /// The phase now, 0 when parked; `None` if the policy has no phases.
    pub fn current(&self) -> Option<u8> {
        self.open.map(|(p, _)| p)
    }

    /// Whether any phase was ever entered (only MSF and MSFQ on one-or-all classes).
    pub fn tracked(&self) -> bool {
        self.open.is_some()
    }

    /// E[H_1..H_4] over completed visits.
    pub fn means(&self) -> [f64; 4] {
        std::array::from_fn(|i| {
            let n = self.visits[i + 1] + self.zero_length[i + 1];
            if n == 0 { 0.0 } else { self.time[i + 1] / n as f64 }
        })
    }

    /// m_1..m_4: fractions of the non-idle time spent in each phase.
    pub fn fractions(&self) -> [f64; 4] {
        let busy: f64 = self.time[1..].iter().sum();
        std::array::from_fn(|i| if busy > 0.0 { self.time[i + 1] / busy } else { 0.0 })
    }

    /// Time parked on an empty system.
    pub fn idle(&self) -> f64 {
        self.time[0]
    }
}

/// Everything measured during a run.
#[derive(Debug, Clone)]
pub struct MsfqStats {
    warmup: f64,
    horizon: f64,
    /// Waiting jobs Q(t).
    pub waiting: Level,
    /// Jobs in the system n(t) (SPEC 5.4, Fig. 1).
    pub in_system: Level,
    /// Busy fraction of the cores.
    pub busy: Level,
    /// The running mean response time E\[T\] of the measured jobs (nominal class mix), as it
    /// stood over time: what the page plots next to the analysis.
    pub running_response: Level,
    /// The running E\[T^(j)\] of each class after the warm-up (the page's per-class curves).
    pub class_running_response: Vec<Level>,
    /// Waiting jobs per class (the page's queue bins).
    pub class_waiting: Vec<Level>,
    /// Jobs in the system per class (Little's law per class).
    pub class_in_system: Vec<Level>,
    pub classes: Vec<ClassStats>,
    /// Response times of the measured jobs, 3 significant digits.
    pub sketch: Histogram<u64>,
    pub phases: PhaseStats,
    probabilities: Vec<f64>,
    /// p_j · E\[T^(j)\] of each class as last computed (NaN before its first measured job), so a
    /// completion recomputes one term of the running E\[T\], not every class's mean.
    weighted_response: Vec<f64>,
    /// b / k for every busy core count b, so an event looks the fraction up instead of
    /// dividing (the same values, computed once).
    busy_fraction: Vec<f64>,
    /// All arrivals and starts, warm-up included.
    pub arrivals: u64,
    pub started: u64,
    pub completed: u64,
}

impl MsfqStats {
    pub(super) fn new(config: &MsfqConfig) -> Self {
        let series = || Some(Series::new(config.sample_every, config.max_points));
        let n = config.classes.len();
        let w = config.warmup;
        Self {
            warmup: w,
            horizon: config.horizon,
            waiting: Level::new(w, series()),
            in_system: Level::new(w, series()).judged(VerdictWatch::new(config.horizon, config.arrival_rate, false)),
            busy: Level::new(w, series()),
            running_response: Level::running_mean(w, series()),
            class_running_response: (0..n).map(|_| Level::running_mean(w, series())).collect(),
            probabilities: config.classes.as_slice().iter().map(|c| c.probability).collect(),
            weighted_response: config.classes.as_slice().iter().map(|c| c.probability * f64::NAN).collect(),
            busy_fraction: (0..=config.cores).map(|b| b as f64 / config.cores as f64).collect(),
            class_waiting: (0..n).map(|_| Level::new(w, series())).collect(),
            class_in_system: (0..n).map(|_| Level::new(w, None)).collect(),
            classes: vec![ClassStats::default(); n],
            sketch: Histogram::new(3).expect("3 significant digits are supported"),
            phases: PhaseStats::new(w),
            arrivals: 0,
            started: 0,
            completed: 0,
        }
    }

    pub(super) fn arrived(&mut self, now: f64, class: usize, st: &MsfqState) {
        self.arrivals += 1;
        if now >= self.warmup {
            let b = self.batch(now);
            let c = &mut self.classes[class];
            c.arrivals += 1;
            c.waits.arrived(now);
            c.responses.arrived(now);
            c.batches[b].arrived(now);
            self.record_running(now, class);
        }
        self.waiting.set(now, st.waiting_total as f64);
        self.in_system.set(now, (st.waiting_total + st.running_total) as f64);
        self.class_waiting[class].set(now, st.waiting[class].len() as f64);
        self.class_in_system[class].set(now, (st.waiting[class].len() + st.in_service[class] as usize) as f64);
    }

    pub(super) fn started(&mut self, now: f64, class: usize, job: &MsfqJob, st: &MsfqState) {
        self.started += 1;
        if job.arrival >= self.warmup {
            let c = &mut self.classes[class];
            c.started += 1;
            c.waits.finished(job.arrival, now);
        }
        self.waiting.set(now, st.waiting_total as f64);
        self.busy.set(now, self.busy_fraction[(st.cores - st.free) as usize]);
        self.class_waiting[class].set(now, st.waiting[class].len() as f64);
    }

    pub(super) fn completed(&mut self, now: f64, class: usize, arrival: f64, st: &MsfqState) {
        self.completed += 1;
        if arrival >= self.warmup {
            let response = now - arrival;
            let b = self.batch(arrival);
            let c = &mut self.classes[class];
            c.completed += 1;
            c.responses.finished(arrival, now);
            c.batches[b].finished(arrival, now);
            self.record_running(now, class);
            // The sketch grows its range as needed (auto-resize); should that ever fail, the
            // value is clamped to the range rather than lost. The means above stay exact.
            let value = ((response * SKETCH_SCALE) as u64).max(1);
            if self.sketch.record(value).is_err() {
                self.sketch.saturating_record(value);
            }
        }
        self.in_system.set(now, (st.waiting_total + st.running_total) as f64);
        self.busy.set(now, self.busy_fraction[(st.cores - st.free) as usize]);
        self.class_in_system[class].set(now, (st.waiting[class].len() + st.in_service[class] as usize) as f64);
    }

    /// The running E\[T^(j)\] of `class` and the running E\[T\] after an event of the class.
    /// The other classes' terms are as of their last event (their open jobs aged since): the
    /// curve is drawn from these; the readings and the report compute E\[T\] at their moment.
    fn record_running(&mut self, now: f64, class: usize) {
        let mean = self.classes[class].mean_response(now);
        self.class_running_response[class].set(now, mean);
        self.weighted_response[class] = self.probabilities[class] * mean;
        let running: f64 = self.weighted_response.iter().sum();
        if running.is_finite() {
            self.running_response.set(now, running);
        }
    }

    fn batch(&self, arrival: f64) -> usize {
        let span = self.horizon - self.warmup;
        if span <= 0.0 {
            return 0;
        }
        (((arrival - self.warmup) / span * BATCHES as f64) as usize).min(BATCHES - 1)
    }

    /// Brings every level up to `now`.
    pub(super) fn flush(&mut self, now: f64) {
        for level in [&mut self.waiting, &mut self.in_system, &mut self.busy, &mut self.running_response] {
            level.flush(now);
        }
        for level in
            self.class_waiting.iter_mut().chain(&mut self.class_in_system).chain(&mut self.class_running_response)
        {
            level.flush(now);
        }
    }

    /// The q-quantile of the completed measured jobs' response times (NaN before the first
    /// completion): a quantile of times so far would be no bound of anything, so the jobs still
    /// in the system are left out here, and only here.
    pub fn response_quantile(&self, q: f64) -> f64 {
        if self.sketch.is_empty() { f64::NAN } else { self.sketch.value_at_quantile(q) as f64 / SKETCH_SCALE }
    }
}

#[cfg(test)]
mod tests {
    use super::PhaseStats;

    /// RES-40: the zero-length visits of the cycle the machine runs on an empty system before
    /// it parks are no visits; a zero-length visit in a busy cycle is one.
    #[test]
    fn a_cycle_on_an_empty_system_is_no_visit() {
        let mut p = PhaseStats::new(0.0);
        p.enter(0.0, 1);
        p.enter(10.0, 2);
        // Phase 2 lasts 0 (fewer than k small jobs) in a busy cycle: a visit.
        p.enter(10.0, 3);
        p.enter(14.0, 4);
        // The system empties at 16: 4 → 1 → 2 → 3 → 4 → 1 at once, then it parks.
        for phase in [1, 2, 3, 4, 1] {
            p.enter(16.0, phase);
        }
        p.park(16.0);
        p.enter(20.0, 1);
        p.enter(25.0, 2);
        // Idle once; phase 1 twice, 2 once (at 10), 3 and 4 once each: none from the cycle at 16.
        assert_eq!(p.visits, [1, 2, 1, 1, 1], "visits: {:?}", p.visits);
        assert_eq!(p.means(), [7.5, 0.0, 4.0, 2.0]);
        assert_eq!(p.idle(), 4.0);
    }
}
