//! A piecewise-constant quantity measured in continuous time (SPEC 1.6): its time average
//! over the measured window and, optionally, a bounded series of interval means.

use super::{Recovery, RecoveryWatch, Series, SeriesPoint, VerdictWatch};

/// A piecewise-constant quantity: its value since the last change, its integral over the
/// measured window and, optionally, a series of interval means.
///
/// The sums are split only where the value changes and at the series' grid boundaries, never
/// at the moments someone reads them. Floating-point addition is not associative, so a split
/// at a frame boundary would change the last bits: a link replayed in other frame sizes, or
/// the page against the CLI's one-go run, would then disagree in the last digits.
#[derive(Debug, Clone)]
pub struct Level {
    value: f64,
    /// When the value last changed: `area` covers the measured part of `[0, since)`.
    since: f64,
    area: f64,
    warmup: f64,
    series: Option<Series>,
    /// How far the series has been fed: `since`, or a later grid boundary that
    /// [`Level::flush`] closed while the value held.
    fed: f64,
    /// The verdict on this quantity as a queue, where it is the one the run is judged on.
    watch: Option<Box<VerdictWatch>>,
    /// How this quantity, as the run's queue, recovered from each change of the scenario
    /// (RES-94): only in a run with changes, so a run without them pays one branch per change
    /// of value.
    recovery: Option<Box<RecoveryWatch>>,
}

impl Level {
    /// A level that is 0 until first set (a count, an occupancy).
    pub fn new(warmup: f64, series: Option<Series>) -> Self {
        Self { value: 0.0, since: 0.0, area: 0.0, warmup, series, fed: 0.0, watch: None, recovery: None }
    }

    /// The same level, judged as the run's queue by `watch`.
    pub fn judged(self, watch: VerdictWatch) -> Self {
        Self { watch: Some(Box::new(watch)), ..self }
    }

    /// Follows this level, as the run's queue, across the scenario's changes at `moments`
    /// (none: no watch). Set before the run starts.
    pub fn recovering(&mut self, moments: Vec<u64>) {
        self.recovery = RecoveryWatch::new(moments, self.value).map(Box::new);
    }

    /// The run's changes became `moments` at moment `open`, while it plays (RES-94's watch,
    /// [`RecoveryWatch::amended`]).
    pub fn recovering_amended(&mut self, moments: Vec<u64>, open: u64) {
        let watch = self.recovery.take().map(|w| *w);
        self.recovery = RecoveryWatch::amended(watch, moments, open, self.value).map(Box::new);
    }

    /// How this level recovered from each change made so far (empty without changes).
    pub fn recoveries(&self) -> &[Recovery] {
        self.recovery.as_deref().map_or(&[], RecoveryWatch::recoveries)
    }

    /// The verdict on this level as a queue, where it is judged.
    pub fn watch(&self) -> Option<&VerdictWatch> {
        self.watch.as_deref()
    }

    /// A running mean of measured jobs: undefined (NaN) until the first job is measured, so
    /// its series points are NaN ("no data yet") rather than a response time of 0. Only its
    /// series is meant to be read.
    pub fn running_mean(warmup: f64, series: Option<Series>) -> Self {
        Self { value: f64::NAN, ..Self::new(warmup, series) }
    }

    /// Changes the value at `now`.
    pub fn set(&mut self, now: f64, value: f64) {
        // `!=` is also true when the old value is NaN, as a running mean's is at first.
        if value != self.value {
            self.integrate(now);
            self.value = value;
            if let Some(r) = &mut self.recovery {
                r.observe(now, value);
            }
        }
    }

    /// Adds the current value over `[since, now)` to the integral and the series.
    fn integrate(&mut self, now: f64) {
        if now > self.since {
            if let Some(s) = &mut self.series {
                s.add(self.fed, now, self.value);
            }
            if let Some(w) = &mut self.watch {
                w.add(now, self.value);
            }
            let from = super::later(self.since, self.warmup);
            if now > from {
                self.area += self.value * (now - from);
            }
            self.since = now;
            self.fed = now;
        }
    }

    /// Closes the series' grid intervals that ended by `now`, so a live chart moves on through
    /// a stretch without events. The pieces it adds end on grid boundaries, where the series
    /// splits the sums anyway, so no bit depends on when this is called.
    pub fn flush(&mut self, now: f64) {
        if let Some(w) = &mut self.watch {
            w.flush(now, self.value);
        }
        // The value held since its last change: the watch makes the changes due by `now`
        // (a stretch without events may pass one) and reads nothing new otherwise.
        if let Some(r) = &mut self.recovery {
            r.observe(now, self.value);
        }
        let Some(s) = &mut self.series else { return };
        while s.next_boundary() <= now {
            let boundary = s.next_boundary();
            s.add(self.fed, boundary, self.value);
            self.fed = boundary;
        }
    }

    pub fn value(&self) -> f64 {
        self.value
    }

    /// The value, since when it holds, and the measured integral before that: what a watch
    /// that starts mid-run takes over to add the same sums in the same order.
    pub fn parts(&self) -> (f64, f64, f64) {
        (self.value, self.since, self.area)
    }

    /// Time average over `[warmup, now)`, without mutating.
    pub fn mean(&self, now: f64, warmup: f64) -> f64 {
        let from = super::later(self.since, warmup);
        let area = self.area + if now > from { self.value * (now - from) } else { 0.0 };
        if now > warmup { area / (now - warmup) } else { f64::NAN }
    }

    pub fn points(&self) -> &[SeriesPoint] {
        self.series.as_ref().map_or(&[], |s| s.points())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading between changes, as a page does every frame, leaves every bit as it was.
    #[test]
    fn flushing_between_changes_changes_no_bit() {
        let changes = [(0.3, 2.0), (1.7, 5.0), (4.1, 1.0), (9.95, 3.0), (10.0, 0.0), (17.3, 4.0)];
        let run = |flushes: &[f64]| {
            let mut level = Level::new(1.1, Some(Series::new(0.7, 8)));
            let mut flushes = flushes.iter().copied().peekable();
            for &(t, v) in &changes {
                while let Some(f) = flushes.next_if(|&f| f < t) {
                    level.flush(f);
                }
                level.set(t, v);
            }
            level.flush(20.0);
            let points: Vec<_> = level.points().iter().map(|p| (p.start, p.end, p.mean.to_bits())).collect();
            (level.mean(20.0, 1.1).to_bits(), points)
        };
        let reference = run(&[]);
        assert!(reference.1.len() >= 4, "the series merged down to its last points: {:?}", reference.1);
        let thirds: Vec<f64> = (1..60).map(|i| i as f64 / 3.0).collect();
        assert_eq!(run(&thirds), reference);
        assert_eq!(run(&[0.7, 1.4, 2.0999, 2.1, 5.0, 12.0]), reference);
    }
}
