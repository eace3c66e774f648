//! What a chart is made of: curves of points, reference lines, where the legend goes, and
//! the theme; plain data, which [`draw`](crate::draw()) renders.

pub use packlab_core::graph::{Stroke, VerdictPoint};

use crate::ink::Ink;
use crate::theme::Theme;

/// A data point, with an optional confidence interval drawn as an error bar.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
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

/// One labelled curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve<'a> {
    pub label: &'a str,
    pub color: Ink,
    pub points: &'a [Point],
    /// Draw a marker at each point (sweeps) or only the line (trajectories).
    pub markers: bool,
    /// Solid; dashed ([`CURVE_DASH`]): a bound the theory proves, not a measurement; dotted
    /// ([`CURVE_DOT`]): what a theorem states where its hypotheses fail, not proven here.
    pub stroke: Stroke,
}

/// The dash of a dashed curve, in pixels drawn and skipped: longer than the reference lines'
/// (6, 4) so a dashed curve and a reference line at the same height stay told apart.
pub const CURVE_DASH: (u32, u32) = (10, 5);

/// The dots of a dotted curve: short marks far apart, told apart from every dash at a glance.
pub const CURVE_DOT: (u32, u32) = (2, 5);

/// The dash of a curve's stroke, `None` for a solid one.
pub fn stroke_dash(stroke: Stroke) -> Option<(u32, u32)> {
    match stroke {
        Stroke::Solid => None,
        Stroke::Dashed => Some(CURVE_DASH),
        Stroke::Dotted => Some(CURVE_DOT),
    }
}

/// A reference value drawn as a dashed line across the chart, e.g. a capacity bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark<'a> {
    pub value: f64,
    pub label: &'a str,
    /// Grey for a bound; a policy's or a class's colour for its own analysis.
    pub ink: Ink,
    /// Where across the plot a horizontal line runs (x from, to), for a bound of one category
    /// (a policy's proven load on the stability map, over its own place); `None`: all across.
    pub over: Option<(f64, f64)>,
    /// Drawn as a curve of this stroke would be ([`stroke_dash`]: a policy's proven load
    /// dashed, a load not proven here dotted) instead of a reference line's own dash.
    pub stroke: Option<Stroke>,
}

impl<'a> Mark<'a> {
    /// A grey reference line.
    pub fn new(value: f64, label: &'a str) -> Self {
        Self { value, label, ink: Ink::Reference, over: None, stroke: None }
    }

    /// A reference line in the colour of what it belongs to.
    pub fn inked(value: f64, label: &'a str, ink: Ink) -> Self {
        Self { value, label, ink, over: None, stroke: None }
    }
}

/// A shaded rectangle behind the curves: x from, to and y from, to, in the chart's units (the
/// band a queue held before a change of the run, from the change until it drained back).
/// Bands with the same label share one legend entry, listed with the grey sample: their
/// colours are their curves'.
#[derive(Debug, Clone, PartialEq)]
pub struct Band<'a> {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub label: &'a str,
    pub ink: Ink,
}

/// How opaque a band's fill is (its legend sample twice as opaque, to read at its size).
pub(crate) const BAND_OPACITY: f64 = 0.18;

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LegendAt {
    #[default]
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
    /// Under the plot, off the data, in rows as wide as the chart. The reference lines are
    /// listed there too, each with its own dash, instead of labelled on the plot where the
    /// curves would strike their labels through; lines without markers get a few, staggered
    /// from curve to curve, so a curve hidden under another still shows.
    Below,
}

/// A chart description; [`draw`](crate::draw()) renders it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Chart<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub curves: Vec<Curve<'a>>,
    /// Vertical reference lines at x values.
    pub x_marks: Vec<Mark<'a>>,
    /// Horizontal reference lines at y values.
    pub y_marks: Vec<Mark<'a>>,
    /// Logarithmic y axis (non-positive values are clamped to the smallest positive one).
    pub log_y: bool,
    /// Names of categories at x = 1, 2, …: the x axis is then ticked at those places only,
    /// each with its name (the stability map's policies); empty for a numeric axis.
    pub x_names: &'a [String],
    /// Fixed x range; by default the data and marks decide.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range; by default the data and marks decide.
    pub y_range: Option<(f64, f64)>,
    pub legend: LegendAt,
    pub theme: Theme,
    /// Points coloured and shaped by a verdict, drawn over the curves (the stability map's
    /// tested loads), in the theme's verdict colours.
    pub verdicts: &'a [VerdictPoint],
    /// Shaded rectangles drawn under everything else.
    pub bands: Vec<Band<'a>>,
}
