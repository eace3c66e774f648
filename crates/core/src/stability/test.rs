//! The test behind "stable": how fast the queue grows in each half of a run, as a fraction of
//! the arrivals, over replications.

use serde::{Deserialize, Serialize};

use crate::metrics::{BatchFit, SeriesPoint, mean_ci};
use crate::model::RunOutcome;
use crate::models::Summary;

/// Growth a stable verdict must rule out, as a fraction of the arrivals: a queue that keeps
/// 0.5% of the arrivals. A load 1% past a boundary where the policy's throughput saturates
/// keeps about 1% of them, twice this, so the finder's 2% intervals are not narrower than
/// what the test resolves.
pub const RESOLUTION: f64 = 0.005;
/// A growth in the second half below this share of the first half's is slowing down: the
/// queue is still filling towards a level (or an unstable queue's stable part is), and a
/// longer run must tell.
pub const SLOWING: f64 = 0.5;
/// Batches each half is cut into for its regression line.
const BATCHES: usize = 10;

/// The test in a sentence, for tables and captions.
pub const TEST_RULE: &str = "stable when the queue's growth over the second half of the runs, a fraction of the \
     arrivals, is below 0.5% with 95% confidence; unstable when it is above 0.5% and above 0; \
     a longer run decides when the growth slows down between the halves";

/// What one run tells the test: the queue's growth per time unit over each half of the run,
/// divided by the arrival rate (the fraction of the arrivals that stays in the queue).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Growth {
    #[serde(with = "crate::sweep::nan_as_null")]
    pub first: f64,
    #[serde(with = "crate::sweep::nan_as_null")]
    pub second: f64,
}

impl Growth {
    /// The growth of a finished run, on the series its verdict judges: n(t) where the run
    /// records it (the jobs in the system), else Q(t).
    pub fn of(outcome: &RunOutcome<Summary>) -> Self {
        let series = if outcome.in_system.is_empty() { &outcome.queue } else { &outcome.in_system };
        let end = series.last().map_or(0.0, |p| p.end);
        let rate = outcome.report.arrival_rate;
        let per_arrival = |slope: f64| if rate > 0.0 { slope / rate } else { f64::NAN };
        Self { first: per_arrival(slope(series, 0.0, end / 2.0)), second: per_arrival(slope(series, end / 2.0, end)) }
    }
}

/// The least-squares slope of the batch means of the points in `[from, to)` against time
/// (NaN with fewer than five batches).
fn slope(points: &[SeriesPoint], from: f64, to: f64) -> f64 {
    let part: Vec<SeriesPoint> = points.iter().copied().filter(|p| p.start >= from && p.start < to).collect();
    BatchFit::of(&part, BATCHES).map_or(f64::NAN, |fit| fit.slope)
}

/// A verdict on one load: defined with the graphs that draw it, which need not know the test.
pub use crate::graph::Verdict;

/// The test's verdict on the replications of one load, with its statistic.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub verdict: Verdict,
    /// Mean growth over the second halves, a fraction of the arrivals, and its Student-t 95%
    /// interval over the replications.
    pub growth: f64,
    pub ci: [f64; 2],
    /// Mean growth over the first halves.
    pub first: f64,
    pub reps: usize,
}

/// Judges the replications `runs` of one load:
///
/// * **stable** when the 95% interval of the second halves' mean growth lies below
///   [`RESOLUTION`];
/// * **unstable** when it lies above 0, its mean is at least [`RESOLUTION`], and the growth
///   does not slow down between the halves (the second half's is at least [`SLOWING`] times
///   the first's);
/// * **undecided** otherwise: the interval straddles the resolution, or the growth slows down
///   (a queue still filling towards its level, stable or not).
pub fn judge(runs: &[Growth]) -> Judgement {
    let second: Vec<f64> = runs.iter().map(|g| g.second).filter(|g| g.is_finite()).collect();
    let first: Vec<f64> = runs.iter().map(|g| g.first).filter(|g| g.is_finite()).collect();
    let interval = mean_ci(&second);
    let first = mean_ci(&first).mean;
    // Without a first half to compare with (too few points), nothing says the growth slows.
    let slowing = first.is_finite() && interval.mean < SLOWING * first;
    let verdict = if second.len() < 2 {
        Verdict::Undecided
    } else if interval.hi < RESOLUTION {
        Verdict::Stable
    } else if interval.lo > 0.0 && interval.mean >= RESOLUTION && !slowing {
        Verdict::Unstable
    } else {
        Verdict::Undecided
    };
    Judgement { verdict, growth: interval.mean, ci: [interval.lo, interval.hi], first, reps: runs.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(first: f64, second: &[f64]) -> Vec<Growth> {
        second.iter().map(|&s| Growth { first, second: s }).collect()
    }

    #[test]
    fn flat_queues_are_stable_and_steady_growth_unstable() {
        assert_eq!(judge(&runs(0.0, &[0.001, -0.001, 0.0005, -0.0002])).verdict, Verdict::Stable);
        assert_eq!(judge(&runs(0.02, &[0.02, 0.021, 0.019, 0.02])).verdict, Verdict::Unstable);
    }

    #[test]
    fn slowing_or_unclear_growth_is_undecided() {
        // Growth that halves between the halves: still filling.
        assert_eq!(judge(&runs(0.05, &[0.02, 0.021, 0.019, 0.02])).verdict, Verdict::Undecided);
        // Spread too wide to say.
        assert_eq!(judge(&runs(0.0, &[0.03, -0.02, 0.01, -0.01])).verdict, Verdict::Undecided);
        // Growth below the resolution, however significant, counts as stable: the test does not
        // resolve a boundary closer than that.
        assert_eq!(judge(&runs(0.0, &[0.004, 0.0041, 0.0039, 0.004])).verdict, Verdict::Stable);
        assert_eq!(judge(&runs(0.0, &[0.0])).verdict, Verdict::Undecided, "one run has no interval");
    }

    #[test]
    fn the_slope_is_the_growth_per_time_unit() {
        let points: Vec<SeriesPoint> = (0..100)
            .map(|i| SeriesPoint { start: i as f64, end: i as f64 + 1.0, mean: 3.0 + 0.5 * i as f64 })
            .collect();
        assert!((slope(&points, 0.0, 50.0) - 0.5).abs() < 1e-12);
        assert!((slope(&points, 50.0, 100.0) - 0.5).abs() < 1e-12);
        assert!(slope(&points[..3], 0.0, 3.0).is_nan());
    }
}
