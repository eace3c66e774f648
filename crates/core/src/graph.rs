//! A chart described as data: what the core computes for a figure (the theory's curves, a
//! sweep's points with their intervals), which the CLI writes as SVG and the page draws on a
//! canvas (`packlab_plot::Chart::from`), so the two front ends draw the same figure from one
//! description.

/// A chart: its lines, reference marks, axes and what to say about it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Graph {
    /// A short name for file names and element ids: `alpha` (`chart-alpha`, `…-chart-alpha.svg`).
    pub id: &'static str,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub lines: Vec<Line>,
    /// Vertical dashed lines at x values, with their labels (empty: unlabelled).
    pub x_marks: Vec<Mark>,
    /// Horizontal dashed lines.
    pub y_marks: Vec<Mark>,
    pub x_range: Option<(f64, f64)>,
    /// Names of categories standing at x = 1, 2, …, when the x axis is not a number (the
    /// stability map's policies at one scenario): the axis is ticked at those places only,
    /// each with its name. Empty: a numeric axis.
    pub x_names: Vec<String>,
    pub y_range: Option<(f64, f64)>,
    pub log_y: bool,
    pub legend: Legend,
    /// A sentence or two under the chart: what it shows.
    pub caption: String,
    /// The chart for a screen reader.
    pub description: String,
    /// Figures a test or a script may read off the page, as the page's `data-*` attributes
    /// (`data-critical`).
    pub data: Vec<(&'static str, String)>,
    /// Whether the x axis is the scenario's load knob, so the page can mark the scenario's own
    /// value on it.
    pub x_is_load: bool,
    /// Points coloured by a verdict, drawn over the lines: the stability map's tested loads.
    pub verdicts: Vec<VerdictPoint>,
}

/// A point coloured (and shaped) by the verdict at it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerdictPoint {
    pub x: f64,
    pub y: f64,
    pub verdict: Verdict,
}

/// The stability test's verdict on one load ([`crate::metrics::judge`]), as a map draws it.
pub use crate::metrics::Verdict;

/// One line of a graph.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: String,
    /// The policy colour it takes (an index into the palette).
    pub color: usize,
    pub points: Vec<Point>,
    /// Whether its points are marked (else a plain line).
    pub markers: bool,
    pub stroke: Stroke,
}

/// How a line is drawn: what kind of thing it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Stroke {
    /// Something measured or computed for this scenario.
    #[default]
    Solid,
    /// A bound the theory proves here (a capacity, a proven fraction of it).
    Dashed,
    /// What a theorem states where one of its hypotheses fails on this scenario: not proven
    /// here (the chart's caption or notes say which hypothesis).
    Dotted,
}

/// A point, with its 95% interval where it has one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub interval: Option<(f64, f64)>,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Self {
        Self { x, y, interval: None }
    }
}

/// A reference line.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub value: f64,
    pub label: String,
    /// Where across the chart a horizontal line runs (x from, to): a bound that holds for one
    /// category only (a policy's proven load on the map) runs over its own place. `None`: all
    /// across.
    pub span: Option<(f64, f64)>,
    /// The policy colour it takes (an index into the palette), for a line that belongs to one
    /// policy; `None`: the grey of a bound that belongs to none.
    pub color: Option<usize>,
    /// A policy's line is drawn as its curve would be: dashed where proven, dotted where a
    /// theorem's hypotheses fail ([`Stroke`]); `None`: the reference lines' own dashes.
    pub stroke: Option<Stroke>,
}

impl Mark {
    /// A grey line all across.
    pub fn new(value: f64, label: impl Into<String>) -> Self {
        Self { value, label: label.into(), span: None, color: None, stroke: None }
    }

    /// The line of policy `color`, over x from `lo` to `hi` only, drawn with `stroke`.
    pub fn of_policy(self, color: usize, (lo, hi): (f64, f64), stroke: Stroke) -> Self {
        Self { span: Some((lo, hi)), color: Some(color), stroke: Some(stroke), ..self }
    }
}

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Legend {
    #[default]
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
    /// Under the plot, off the data.
    Below,
}
