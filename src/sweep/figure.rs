//! The swept figure as a chart: one curve per policy and figure, each point the mean of its
//! replications with its 95% interval, against the load (with the theory's marks) or against
//! the number of servers (with PG-AS's bounds).

use packlab_core::scenario::{Plot, Setup, Sweep};
use packlab_core::sweep::{self, Axis};
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark, Point};

use crate::sweep::plan::{Cell, SweepPlan};

/// The curves of the completed cells: one per policy and figure, with 95% intervals.
pub fn curves_of(plan: &SweepPlan, cells: &[Cell]) -> Vec<(String, usize, Vec<Point>)> {
    let several = plan.figures.len() > 1;
    let mut curves = Vec::new();
    for (p, label) in plan.labels.iter().enumerate() {
        for (f, figure) in plan.figures.iter().enumerate() {
            let points: Vec<Point> = cells
                .iter()
                .filter(|c| c.policy == p && c.figure == f && c.summary.value.is_finite())
                .map(|c| {
                    let [lo, hi] = c.summary.ci;
                    let interval = (lo.is_finite() && hi.is_finite()).then_some((lo, hi));
                    Point { x: c.value, y: c.summary.value, interval }
                })
                .collect();
            let name = if several { format!("{label} {}", figure.label) } else { label.clone() };
            curves.push((name, p * plan.figures.len() + f, points));
        }
    }
    curves
}

/// The chart of a sweep so far.
pub fn sweep_chart<'a>(
    setup: &'a Setup,
    plan: &SweepPlan,
    curves: &'a [(String, usize, Vec<Point>)],
    marks: &'a [(f64, String)],
    bounds: Option<[f64; 2]>,
) -> Chart<'a> {
    let values = &plan.values;
    let (lo, hi) = (values.first().copied().unwrap_or(0.0), values.last().copied().unwrap_or(1.0));
    let pad = ((hi - lo) * 0.04).max(0.005);
    // Against the load, the theory's load marks; against L, PG-AS's bounds per server.
    let (x_label, x_marks) = match plan.axis {
        Axis::Load => (
            setup.scenario.info().load.axis,
            marks.iter().filter(|(x, _)| *x >= lo && *x <= hi).map(|(x, label)| Mark::new(*x, label)).collect(),
        ),
        Axis::Servers => ("servers L", Vec::new()),
    };
    let y_marks = bounds.map_or_else(Vec::new, |[greedy, optimal]| {
        vec![Mark::new(greedy, "U^(g) greedy"), Mark::new(optimal, "U* LP optimum")]
    });
    Chart {
        title: "The swept figure: each point the mean over its replications",
        x_label,
        y_label: sweep_what(setup),
        curves: curves
            .iter()
            .map(|(label, color, points)| Curve { label, color: Ink::Policy(*color), points, markers: true })
            .collect(),
        x_marks,
        y_marks,
        x_range: Some((lo - pad, hi + pad)),
        legend: LegendAt::Below,
        ..Chart::default()
    }
}

/// "mean waiting jobs", "mean response time", … for the summary line.
pub fn sweep_what(setup: &Setup) -> &'static str {
    match &setup.preset.sweep {
        Sweep::Load { plot: Plot::Curves { y_label, .. }, .. } => y_label,
        Sweep::Load { plot: Plot::AgainstParameter { figure, .. }, .. } => figure.label,
        Sweep::Servers { .. } => sweep::NORMALIZED_REWARD.label,
        _ => "",
    }
}
