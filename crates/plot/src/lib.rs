//! packlab's charts, drawn with plotters on any backend.
//!
//! The same functions draw to a `<canvas>` in the browser (plotters-canvas) and to SVG files
//! in the CLI and in golden tests, so a figure looks the same wherever it is made.
//!
//! Two palettes, so a colour says one thing: policies take the Okabe–Ito colours, drawn as
//! solid lines; job classes, size bins and VM types take Paul Tol's light colours, drawn as
//! lines cased in dark grey (light colours alone are faint on white). Both stay
//! distinguishable under the common colour-vision deficiencies, and every series also gets
//! its own marker shape.
//!
//! The crate's files, each re-exported here (`packlab_plot::{Chart, Curve, draw, …}`):
//!
//! * `chart.rs`: what a chart is made of ([`Chart`], [`Curve`], [`Mark`], [`Point`],
//!   [`LegendAt`]);
//! * `ink.rs`: the palettes and what a series stands for ([`Ink`]);
//! * `theme.rs`: the colours and weights a chart is drawn with ([`Theme`]);
//! * `draw.rs`: [`draw()`], the plot with its axes, curves and reference lines;
//! * `frame.rs`: where the plot landed ([`Frame`]), for telling what a pointer is over;
//! * `axes.rs`: the axes' ranges and their tick labels ([`tick`]);
//! * `marks.rs`: where the reference lines' labels go, and their dashes;
//! * `markers.rs`: the marker shapes of the series;
//! * `legend.rs`: the legend drawn under the plot;
//! * `graph.rs`: a chart the core describes as data ([`GraphChart`]);
//! * `trajectory.rs`: a race's series over time, one curve per policy ([`Trajectory`]).

use plotters::prelude::{DrawingAreaErrorKind, DrawingBackend};

mod axes;
mod changes;
mod chart;
mod draw;
mod frame;
mod graph;
mod ink;
mod legend;
mod markers;
mod marks;
mod theme;
mod trajectory;

pub use axes::tick;
pub use changes::{BAND_LABEL, CHANGE_LABEL, ChangeMarks, recovery_bands};
pub use chart::{Band, CURVE_DASH, CURVE_DOT, Chart, Curve, LegendAt, Mark, Point, Stroke, VerdictPoint, stroke_dash};
pub use draw::{draw, draw_framed};
pub use frame::Frame;
pub use graph::GraphChart;
pub use ink::{CASING, CLASS_PALETTE, Ink, PALETTE, casing_css, css_color};
pub use theme::Theme;
pub use trajectory::{Trajectory, series};

/// `chart` drawn as an SVG document of `size` pixels (the CLI's files, a notebook's display).
pub fn svg(chart: &Chart<'_>, size: (u32, u32)) -> Result<String, String> {
    use plotters::prelude::{IntoDrawingArea, SVGBackend};
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        draw(&root, chart).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text)
}

/// What drawing on a backend returns.
type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

#[cfg(test)]
mod tests;
