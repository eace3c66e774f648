//! Time series of interval means with bounded memory.

use serde::{Deserialize, Serialize};

/// The mean of a piecewise-constant quantity over `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    pub start: f64,
    pub end: f64,
    pub mean: f64,
}

/// A series of interval means on a regular grid.
///
/// Each point is the time average of the quantity over one grid interval, not a sample at an
/// instant, so plots show no aliasing and the batch-means statistics can reuse the points.
/// When the series reaches `max_points`, neighbouring points merge pairwise and the interval
/// doubles. A merged point is still the exact mean over its (longer) interval, so a live view
/// can run for hours in constant memory without losing correctness.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Series {
    interval: f64,
    max_points: usize,
    points: Vec<SeriesPoint>,
    open_start: f64,
    open_integral: f64,
}

impl Series {
    /// A series with the given grid interval, merging down to at most `max_points` (≥ 2).
    pub fn new(interval: f64, max_points: usize) -> Self {
        assert!(interval > 0.0 && max_points >= 2);
        Self { interval, max_points: max_points & !1, points: Vec::new(), open_start: 0.0, open_integral: 0.0 }
    }

    /// Current grid interval (grows when points merge).
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// Completed points.
    pub fn points(&self) -> &[SeriesPoint] {
        &self.points
    }

    /// Adds `value` held over `[from, to)`. Calls must cover time contiguously from 0.
    pub fn add(&mut self, mut from: f64, to: f64, value: f64) {
        while from < to {
            let boundary = self.open_start + self.interval;
            let until = super::earlier(to, boundary);
            self.open_integral += value * (until - from);
            from = until;
            if until >= boundary {
                self.close(boundary);
            }
        }
    }

    /// Adds the sum of a quantity over `[from, to)` directly, when the caller accumulated it
    /// (the slotted engine sums integers per slot). The interval must end on a grid boundary or
    /// stay inside the open interval.
    pub fn add_integral(&mut self, from: f64, to: f64, integral: f64) {
        debug_assert!(from >= self.open_start - 1e-9 && to <= self.open_start + self.interval + 1e-9);
        self.open_integral += integral;
        if to >= self.open_start + self.interval {
            self.close(self.open_start + self.interval);
        }
    }

    /// The next grid boundary: callers that accumulate sums flush there.
    pub fn next_boundary(&self) -> f64 {
        self.open_start + self.interval
    }

    fn close(&mut self, end: f64) {
        let start = self.open_start;
        self.points.push(SeriesPoint { start, end, mean: self.open_integral / (end - start) });
        self.open_start = end;
        self.open_integral = 0.0;
        if self.points.len() >= self.max_points {
            self.merge_pairs();
        }
    }

    fn merge_pairs(&mut self) {
        let merged = self
            .points
            .chunks_exact(2)
            .map(|p| {
                let (a, b) = (p[0], p[1]);
                let (wa, wb) = (a.end - a.start, b.end - b.start);
                SeriesPoint { start: a.start, end: b.end, mean: (a.mean * wa + b.mean * wb) / (wa + wb) }
            })
            .collect();
        self.points = merged;
        // `max_points` is even, so every point merged and the open interval starts on the new,
        // twice as coarse grid.
        self.interval *= 2.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_means_and_merging_stay_exact() {
        let mut s = Series::new(1.0, 4);
        for t in 0..16 {
            s.add(t as f64, t as f64 + 1.0, t as f64);
        }
        // 16 unit points merged down: intervals doubled until fewer than 4 points remain.
        let pts = s.points();
        assert!(pts.len() < 4 && !pts.is_empty());
        let total: f64 = pts.iter().map(|p| p.mean * (p.end - p.start)).sum();
        let covered = pts.last().unwrap().end;
        assert_eq!(total, (0..covered as u64).sum::<u64>() as f64);
        for w in pts.windows(2) {
            assert_eq!(w[0].end, w[1].start);
        }
    }

    #[test]
    fn splits_values_across_boundaries() {
        let mut s = Series::new(2.0, 100);
        s.add(0.0, 3.0, 1.0);
        s.add(3.0, 4.0, 5.0);
        assert_eq!(
            s.points(),
            &[SeriesPoint { start: 0.0, end: 2.0, mean: 1.0 }, SeriesPoint { start: 2.0, end: 4.0, mean: 3.0 }]
        );
    }
}
