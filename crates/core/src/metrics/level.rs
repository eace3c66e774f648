//! A piecewise-constant quantity measured in continuous time (SPEC 1.6): its time average
//! over the measured window and, optionally, a bounded series of interval means.

use super::{Series, SeriesPoint};

/// A piecewise-constant quantity: its value since the last change, its integral over the
/// measured window and, optionally, a series of interval means.
#[derive(Debug, Clone)]
pub struct Level {
    value: f64,
    since: f64,
    area: f64,
    warmup: f64,
    series: Option<Series>,
}

impl Level {
    pub fn new(warmup: f64, series: Option<Series>) -> Self {
        Self { value: 0.0, since: 0.0, area: 0.0, warmup, series }
    }

    /// Changes the value at `now`.
    pub fn set(&mut self, now: f64, value: f64) {
        if value != self.value {
            self.flush(now);
            self.value = value;
        }
    }

    /// Brings the integral and the series up to `now`.
    pub fn flush(&mut self, now: f64) {
        if now > self.since {
            if let Some(s) = &mut self.series {
                s.add(self.since, now, self.value);
            }
            let from = self.since.max(self.warmup);
            if now > from {
                self.area += self.value * (now - from);
            }
            self.since = now;
        }
    }

    pub fn value(&self) -> f64 {
        self.value
    }

    /// Time average over `[warmup, now)`, without mutating.
    pub fn mean(&self, now: f64, warmup: f64) -> f64 {
        let from = self.since.max(warmup);
        let area = self.area + if now > from { self.value * (now - from) } else { 0.0 };
        if now > warmup { area / (now - warmup) } else { f64::NAN }
    }

    pub fn points(&self) -> &[SeriesPoint] {
        self.series.as_ref().map_or(&[], |s| s.points())
    }
}
