//! packlab's charts, drawn with plotters on any backend.
//!
//! The same functions draw to a `<canvas>` in the browser (plotters-canvas) and to SVG files
//! in the CLI and in golden tests, so a figure looks the same wherever it is made.
//!
//! Colours come from the Okabe–Ito palette, which stays distinguishable under the common
//! colour-vision deficiencies; every series also gets its own marker shape.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// Okabe–Ito colours (yellow left out: too faint on white), in series order.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];

/// The colour of series `i`, as CSS hex (for legends drawn outside the chart).
pub fn css_color(i: usize) -> String {
    let RGBColor(r, g, b) = PALETTE[i % PALETTE.len()];
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A data point, with an optional confidence interval drawn as an error bar.
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

/// One labelled curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve<'a> {
    pub label: &'a str,
    /// Palette index.
    pub color: usize,
    pub points: &'a [Point],
    /// Draw a marker at each point (sweeps) or only the line (trajectories).
    pub markers: bool,
}

/// A reference value drawn as a dashed line across the chart, e.g. a capacity bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark<'a> {
    pub value: f64,
    pub label: &'a str,
}

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LegendAt {
    #[default]
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
}

/// A chart description; [`draw`] renders it.
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
    /// Fixed x range; by default the data and marks decide.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range; by default the data and marks decide.
    pub y_range: Option<(f64, f64)>,
    pub legend: LegendAt,
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws `chart` filling `area`.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>) -> DrawResult<DB> {
    area.fill(&WHITE)?;
    let (x_lo, x_hi) = chart.x_range.unwrap_or_else(|| padded(x_extent(chart), false));
    let (y_lo, y_hi) = chart.y_range.unwrap_or_else(|| padded(y_extent(chart), chart.log_y));
    let (x_lo, x_hi) = nonempty(x_lo, x_hi);
    let (y_lo, y_hi) = nonempty(y_lo, y_hi);
    if chart.log_y {
        let floor = y_lo.max(f64::MIN_POSITIVE);
        draw_in(area, chart, x_lo..x_hi, (floor..y_hi.max(floor * 10.0)).log_scale(), floor)
    } else {
        draw_in(area, chart, x_lo..x_hi, y_lo..y_hi, f64::NEG_INFINITY)
    }
}

fn draw_in<DB, Y>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart<'_>,
    x: std::ops::Range<f64>,
    y: Y,
    y_floor: f64,
) -> DrawResult<DB>
where
    DB: DrawingBackend,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let (x_lo, x_hi) = (x.start, x.end);
    // As many labels as fit: about one per 90 px across, one per 32 px up.
    let (width, height) = area.dim_in_pixel();
    let (x_labels, y_labels) = ((width as usize / 90).clamp(2, 10), (height as usize / 32).clamp(2, 10));
    // The title's font shrinks (18 down to 11 px) until it fits across: a phone's chart is
    // about 350 px wide, where an 18 px title of 40 characters would be cut at both ends.
    let title_size = (11..=18)
        .rev()
        .find(|&size| {
            area.estimate_text_size(chart.title, &("sans-serif", size).into_text_style(area))
                .is_ok_and(|(w, _)| w + 16 <= width)
        })
        .unwrap_or(11);
    let mut ctx = ChartBuilder::on(area)
        .caption(chart.title, ("sans-serif", title_size))
        .margin(12)
        .margin_right(28)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(x, y)?;
    ctx.configure_mesh()
        .x_desc(chart.x_label)
        .y_desc(chart.y_label)
        .light_line_style(RGBColor(0xEE, 0xEE, 0xEE))
        .label_style(("sans-serif", 13))
        .x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .draw()?;
    let clamp = |v: f64| v.max(y_floor);
    let (y_min, y_max) = {
        let r = ctx.plotting_area().get_y_range();
        (r.start, r.end)
    };
    let mark_style = ShapeStyle { color: RGBColor(0x55, 0x55, 0x55).to_rgba(), filled: false, stroke_width: 1 };
    let mark_font = ("sans-serif", 12).into_font().color(&RGBColor(0x33, 0x33, 0x33));
    let label_width =
        |label: &str| area.estimate_text_size(label, &mark_font).map_or(6 * label.len() as i32, |(w, _)| w as i32);
    // Where each label goes: marks close together get their labels stacked (x marks) or put
    // side by side (y marks) instead of printed over each other.
    let x_labels: Vec<_> =
        chart.x_marks.iter().map(|m| (ctx.backend_coord(&(m.value, y_max)).0, label_width(m.label))).collect();
    let x_rows = stack_labels(&x_labels);
    for (m, row) in chart.x_marks.iter().zip(x_rows) {
        ctx.draw_series(DashedLineSeries::new([(m.value, clamp(y_min)), (m.value, y_max)], 6, 4, mark_style))?;
        // A few pixels right of the line and below the top border, a row lower per crowding.
        ctx.draw_series(std::iter::once(
            EmptyElement::at((m.value, y_max)) + Text::new(m.label.to_string(), (4, 4 + 14 * row), mark_font.clone()),
        ))?;
    }
    let y_labels: Vec<_> =
        chart.y_marks.iter().map(|m| (ctx.backend_coord(&(x_lo, clamp(m.value))).1, label_width(m.label))).collect();
    let y_offsets = side_by_side(&y_labels);
    for (m, dx) in chart.y_marks.iter().zip(y_offsets) {
        ctx.draw_series(DashedLineSeries::new([(x_lo, clamp(m.value)), (x_hi, clamp(m.value))], 6, 4, mark_style))?;
        ctx.draw_series(std::iter::once(
            EmptyElement::at((x_lo, clamp(m.value))) + Text::new(m.label.to_string(), (4 + dx, -16), mark_font.clone()),
        ))?;
    }
    // The legend lists as many curves as fit in the plot's height (an entry is about 20 px),
    // then says how many more there are, rather than running off the chart.
    let plot_height = {
        let (top, bottom) = (ctx.backend_coord(&(x_lo, y_max)).1, ctx.backend_coord(&(x_lo, clamp(y_min))).1);
        (bottom - top).max(0) as usize
    };
    let fit = (plot_height.saturating_sub(12) / LEGEND_ROW).max(1);
    let listed = if chart.curves.len() <= fit { chart.curves.len() } else { fit - 1 };
    for (i, curve) in chart.curves.iter().enumerate() {
        let color = PALETTE[curve.color % PALETTE.len()];
        let line = ShapeStyle { color: color.to_rgba(), filled: false, stroke_width: 2 };
        let points: Vec<(f64, f64)> = curve.points.iter().map(|p| (p.x, clamp(p.y))).collect();
        let shape = curve.color % 4;
        let legend_marker = curve.markers.then_some(shape);
        let drawn = ctx.draw_series(LineSeries::new(points.iter().copied(), line))?;
        if i < listed {
            drawn.label(curve.label).legend(move |(x, y)| {
                EmptyElement::at((x, y)) + PathElement::new([(-8, 0), (8, 0)], line) + marker(legend_marker, color)
            });
        }
        for p in curve.points.iter().filter_map(|p| p.interval.map(|(lo, hi)| (p.x, lo, hi))) {
            let (x, lo, hi) = p;
            ctx.draw_series(std::iter::once(PathElement::new([(x, clamp(lo)), (x, clamp(hi))], line)))?;
        }
        if curve.markers {
            ctx.draw_series(points.iter().map(|&(x, y)| EmptyElement::at((x, y)) + marker(Some(shape), color)))?;
        }
    }
    if listed < chart.curves.len() {
        ctx.draw_series(std::iter::empty::<PathElement<(f64, f64)>>())?
            .label(format!("and {} more", chart.curves.len() - listed))
            .legend(|(x, y)| EmptyElement::at((x, y)));
    }
    if !chart.curves.is_empty() {
        ctx.configure_series_labels()
            .position(match chart.legend {
                LegendAt::UpperLeft => SeriesLabelPosition::UpperLeft,
                LegendAt::UpperRight => SeriesLabelPosition::UpperRight,
                LegendAt::LowerLeft => SeriesLabelPosition::LowerLeft,
                LegendAt::LowerRight => SeriesLabelPosition::LowerRight,
            })
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(0xBB, 0xBB, 0xBB))
            .label_font(("sans-serif", 13))
            .draw()?;
    }
    Ok(())
}

/// Height of a legend entry in pixels (13 px text and the spacing plotters puts between).
const LEGEND_ROW: usize = 20;

/// Rows for labels drawn to the right of vertical lines at pixel columns `labels` (x, width):
/// each label takes the first row where it clears the labels already placed.
fn stack_labels(labels: &[(i32, i32)]) -> Vec<i32> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by_key(|&i| labels[i].0);
    let mut row_ends: Vec<i32> = Vec::new();
    let mut rows = vec![0; labels.len()];
    for i in order {
        let (x, width) = labels[i];
        let row = row_ends.iter().position(|&end| end + 6 <= x).unwrap_or(row_ends.len());
        if row == row_ends.len() {
            row_ends.push(0);
        }
        row_ends[row] = x + 4 + width;
        rows[i] = row as i32;
    }
    rows
}

/// Shifts, in pixels, for labels drawn above horizontal lines at pixel rows `labels` (y,
/// width): a label less than a text line from an earlier one goes to its right.
fn side_by_side(labels: &[(i32, i32)]) -> Vec<i32> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by_key(|&i| labels[i].0);
    let mut shifts = vec![0; labels.len()];
    let mut previous: Option<(i32, i32)> = None; // (y, right end of its label)
    for i in order {
        let (y, width) = labels[i];
        let shift = match previous {
            Some((py, end)) if y - py < 14 => end + 12,
            _ => 0,
        };
        shifts[i] = shift;
        previous = Some((y, shift + width));
    }
    shifts
}

/// A marker of one of four shapes, so curves differ by more than colour; `None` draws
/// nothing (curves without markers).
fn marker<DB: DrawingBackend>(shape: Option<usize>, color: RGBColor) -> DynElement<'static, DB, (i32, i32)> {
    let style = ShapeStyle { color: color.to_rgba(), filled: true, stroke_width: 1 };
    let Some(shape) = shape else {
        return Circle::new((0, 0), 0, ShapeStyle { color: TRANSPARENT, filled: false, stroke_width: 0 }).into_dyn();
    };
    match shape {
        0 => Circle::new((0, 0), 4, style).into_dyn(),
        1 => TriangleMarker::new((0, 0), 5, style).into_dyn(),
        2 => Rectangle::new([(-3, -3), (3, 3)], style).into_dyn(),
        _ => Cross::new((0, 0), 4, ShapeStyle { filled: false, stroke_width: 2, ..style }).into_dyn(),
    }
}

/// Tick labels without trailing zeros, short enough that ten fit under a narrow chart:
/// `5000`, `20k`, `0.95`, `1.5M`.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    let trim = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if a >= 1e9 {
        trim(format!("{:.2}", v / 1e9)) + "G"
    } else if a >= 1e6 {
        trim(format!("{:.2}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        trim(format!("{:.1}", v / 1e3)) + "k"
    } else if a >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if a >= 1.0 {
        trim(format!("{v:.2}"))
    } else {
        trim(format!("{v:.4}"))
    }
}

fn x_extent(chart: &Chart<'_>) -> (f64, f64) {
    let xs =
        chart.curves.iter().flat_map(|c| c.points.iter().map(|p| p.x)).chain(chart.x_marks.iter().map(|m| m.value));
    extent(xs)
}

fn y_extent(chart: &Chart<'_>) -> (f64, f64) {
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
fn padded((lo, hi): (f64, f64), log: bool) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return if log { (0.1, 10.0) } else { (0.0, 1.0) };
    }
    if log { (lo / 2.0, hi * 2.0) } else { (lo, hi + 0.08 * (hi - lo).max(f64::EPSILON)) }
}

fn nonempty(lo: f64, hi: f64) -> (f64, f64) {
    if hi > lo { (lo, hi) } else { (lo - 0.5, lo + 0.5 + hi.abs() * 0.1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(chart: &Chart<'_>) -> String {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
            draw(&root, chart).unwrap();
            root.present().unwrap();
        }
        out
    }

    #[test]
    fn draws_curves_marks_and_legend() {
        let a = [Point::new(0.0, 1.0), Point { x: 1.0, y: 3.0, interval: Some((2.0, 4.0)) }];
        let b = [Point::new(0.0, 2.0), Point::new(1.0, 0.5)];
        let chart = Chart {
            title: "Q(t)",
            x_label: "slot",
            y_label: "waiting jobs",
            curves: vec![
                Curve { label: "VQS", color: 0, points: &a, markers: true },
                Curve { label: "BF-J/S", color: 1, points: &b, markers: false },
            ],
            x_marks: vec![Mark { value: 0.5, label: "α = 1" }],
            ..Chart::default()
        };
        let out = svg(&chart);
        assert!(out.contains("VQS") && out.contains("BF-J/S") && out.contains("α = 1"));
        assert!(
            out.contains("#0072B2") || out.contains("#0072b2") || out.contains("rgb(0,114,178)"),
            "palette colour missing"
        );
    }

    #[test]
    fn log_axis_and_empty_charts_do_not_fail() {
        let a = [Point::new(0.85, 0.0), Point::new(0.9, 10.0), Point::new(0.95, 1000.0)];
        svg(&Chart {
            log_y: true,
            curves: vec![Curve { label: "x", color: 3, points: &a, markers: true }],
            ..Chart::default()
        });
        svg(&Chart::default());
        let flat = [Point::new(1.0, 5.0)];
        svg(&Chart {
            curves: vec![Curve { label: "flat", color: 2, points: &flat, markers: false }],
            ..Chart::default()
        });
    }

    #[test]
    fn ticks_read_well() {
        assert_eq!(tick(20000.0), "20k");
        assert_eq!(tick(12500.0), "12.5k");
        assert_eq!(tick(5000.0), "5000");
        assert_eq!(tick(200000.0), "200k");
        assert_eq!(tick(2_000_000.0), "2M");
        assert_eq!(tick(1_500_000.0), "1.5M");
        assert_eq!(tick(0.95), "0.95");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(0.001), "0.001");
    }

    #[test]
    fn close_mark_labels_do_not_overprint() {
        // Three vertical lines 10 px apart with 50 px labels: three rows; a far one: row 0.
        assert_eq!(stack_labels(&[(100, 50), (110, 50), (300, 40), (120, 50)]), [0, 1, 0, 2]);
        // Two horizontal lines at the same height: side by side; a distant one stays left.
        assert_eq!(side_by_side(&[(50, 40), (50, 30), (200, 10)]), [0, 52, 0]);
    }

    #[test]
    fn a_long_legend_says_how_many_it_leaves_out() {
        let points = [Point::new(0.0, 1.0), Point::new(1.0, 2.0)];
        let labels: Vec<String> = (0..30).map(|i| format!("class {i}")).collect();
        let curves = labels.iter().map(|l| Curve { label: l, color: 0, points: &points, markers: false }).collect();
        let out = svg(&Chart { curves, ..Chart::default() });
        assert!(out.contains("class 0") && !out.contains("class 29"), "a 400 px chart cannot list 30 curves");
        assert!(out.contains(" more<") || out.contains(" more"), "the legend says what it left out");
    }

    #[test]
    fn css_colors() {
        assert_eq!(css_color(0), "#0072b2");
        assert_eq!(css_color(7), "#0072b2");
    }
}
