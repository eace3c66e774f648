//! The axes: their ranges (from the data and the reference lines, with headroom) and their
//! tick labels.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;

use crate::chart::Chart;

/// An x axis of categories standing at 1, 2, …, n (the stability map's policies): ticked at
/// those places only, where plotters' own float axis would tick 1.2, 1.4, …; no finer grid.
/// The chart's formatter writes each place's name.
pub(crate) struct Places {
    range: RangedCoordf64,
    count: usize,
}

impl Places {
    pub(crate) fn new(lo: f64, hi: f64, count: usize) -> Self {
        Self { range: (lo..hi).into(), count }
    }
}

impl Ranged for Places {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.range.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() { Vec::new() } else { (1..=self.count).map(|i| i as f64).collect() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.range()
    }
}

/// Tick labels without trailing zeros, short enough that ten fit under a narrow chart:
/// `5000`, `20k`, `0.95`, `1.5M`.
pub fn tick(v: f64) -> String {
    packlab_core::model::table::tick(v)
}

pub(crate) fn x_extent(chart: &Chart<'_>) -> (f64, f64) {
    let xs =
        chart.curves.iter().flat_map(|c| c.points.iter().map(|p| p.x)).chain(chart.x_marks.iter().map(|m| m.value));
    extent(xs)
}

pub(crate) fn y_extent(chart: &Chart<'_>) -> (f64, f64) {
    let ys = chart
        .curves
        .iter()
        .flat_map(|c| {
            c.points.iter().flat_map(|p| [Some(p.y), p.interval.map(|i| i.0), p.interval.map(|i| i.1)]).flatten()
        })
        .chain(chart.y_marks.iter().map(|m| m.value))
        .filter(|y| !chart.log_y || *y > 0.0);
    let (lo, hi) = extent(ys);
    if chart.log_y { (lo, hi) } else { (lo.min(0.0), hi) }
}

fn extent(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// Adds headroom above the data (and below it on log axes).
pub(crate) fn padded((lo, hi): (f64, f64), log: bool) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return if log { (0.1, 10.0) } else { (0.0, 1.0) };
    }
    if log { (lo / 2.0, hi * 2.0) } else { (lo, hi + 0.08 * (hi - lo).max(f64::EPSILON)) }
}

pub(crate) fn nonempty(lo: f64, hi: f64) -> (f64, f64) {
    if hi > lo { (lo, hi) } else { (lo - 0.5, lo + 0.5 + hi.abs() * 0.1) }
}
