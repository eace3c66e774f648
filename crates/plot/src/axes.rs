//! The axes: their ranges (from the data and the reference lines, with headroom) and their
//! tick labels.

use crate::chart::Chart;

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
