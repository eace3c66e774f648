//! A race's trajectory chart: the series the model draws over time (the waiting jobs; PG-AS's
//! R(t)/L with its bounds), one curve per policy, as `packlab run --out` writes it to SVG and
//! the Python package shows it in a notebook.

use packlab_core::metrics::SeriesPoint;
use packlab_core::report::RunOutcome;
use packlab_core::scenario::Setup;
use packlab_core::view::Metric;

use packlab_core::metrics::Recovery;

use crate::{ChangeMarks, Chart, Curve, Ink, LegendAt, Mark, Point, Stroke, recovery_bands};

/// What the chart draws, owned, so a [`Chart`] can borrow it.
#[derive(Debug, Clone, PartialEq)]
pub struct Trajectory {
    title: String,
    x_label: String,
    y_label: &'static str,
    /// The policies' labels and their interval means at each interval's midpoint.
    curves: Vec<(String, Vec<Point>)>,
    warmup: u64,
    horizon: u64,
    y_marks: Vec<(f64, String)>,
    legend_lower_right: bool,
    /// The scenario's changes, and how each policy's queue recovered from them.
    changes: ChangeMarks,
    recoveries: Vec<Vec<Recovery>>,
}

impl Trajectory {
    /// The model's series of `runs` (one per policy of `setup`, in its order).
    pub fn of(setup: &Setup, runs: &[&RunOutcome]) -> Option<Self> {
        let first = &runs.first()?.report;
        let plot = setup.scenario.any().trajectory(first);
        let names = setup.scenario.policy_labels(&setup.policies);
        let curves = names
            .into_iter()
            .zip(runs)
            .map(|(label, o)| {
                let points = series(o, plot.metric).iter().map(|p| Point::new((p.start + p.end) / 2.0, p.mean));
                (label, points.collect())
            })
            .collect();
        let unit = setup.scenario.time_unit().plural();
        // The legend sits top left, right where a label at the end of the warm-up would go, so
        // the line stays unlabelled and the axis caption explains it.
        let x_label =
            if plot.x_note.is_empty() { format!("time ({unit})") } else { format!("time ({unit})   {}", plot.x_note) };
        let changes = ChangeMarks::of(&setup.scenario.any().window().changes);
        let recoveries: Vec<Vec<Recovery>> = runs.iter().map(|o| o.report.recovery.clone()).collect();
        // The legend on the plot lists the curves only: the axis caption says what the changes'
        // lines and the bands are.
        let x_label = match (changes.is_empty(), recoveries.iter().all(Vec::is_empty)) {
            (true, _) => x_label,
            (false, true) => format!("{x_label}   dotted: a change"),
            (false, false) => format!("{x_label}   dotted: a change; shaded: the queue's band until it drained back"),
        };
        Some(Self {
            title: format!("{}: {}", setup.preset.figure, setup.preset.title),
            x_label,
            y_label: plot.y_label,
            curves,
            warmup: first.warmup,
            horizon: first.horizon,
            y_marks: plot.y_marks,
            legend_lower_right: plot.legend_lower_right,
            changes,
            recoveries,
        })
    }

    /// The chart to draw.
    pub fn chart(&self) -> Chart<'_> {
        Chart {
            title: &self.title,
            x_label: &self.x_label,
            y_label: self.y_label,
            curves: self
                .curves
                .iter()
                .enumerate()
                .map(|(i, (label, points))| Curve {
                    label,
                    color: Ink::Policy(i),
                    points,
                    markers: false,
                    stroke: Stroke::Solid,
                })
                .collect(),
            x_marks: (self.warmup > 0)
                .then(|| Mark::new(self.warmup as f64, ""))
                .into_iter()
                .chain(self.changes.marks(self.horizon as f64, false))
                .collect(),
            bands: self
                .recoveries
                .iter()
                .enumerate()
                .flat_map(|(i, r)| recovery_bands(r, Ink::Policy(i), self.horizon as f64))
                .collect(),
            y_marks: self.y_marks.iter().map(|(value, label)| Mark::new(*value, label)).collect(),
            x_range: Some((0.0, self.horizon as f64)),
            legend: if self.legend_lower_right { LegendAt::LowerRight } else { LegendAt::default() },
            ..Chart::default()
        }
    }
}

/// The series of `metric` in a finished run (the queue where the run has no other).
pub fn series(outcome: &RunOutcome, metric: Metric) -> &[SeriesPoint] {
    match metric {
        Metric::Reward => &outcome.reward,
        Metric::InSystem => &outcome.in_system,
        Metric::Occupancy => &outcome.occupancy,
        _ => &outcome.queue,
    }
}
