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

mod graph;

pub use graph::GraphChart;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;

/// Okabe–Ito colours (yellow left out: too faint on white), in series order: policies.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
];

/// Paul Tol's "light" colours, for classes, size bins and VM types. The order puts the light
/// colours least like the policies' first (yellow, cyan, pear), so a lane whose jobs are of
/// class 1 or 2 does not take on a policy's colour.
pub const CLASS_PALETTE: [RGBColor; 8] = [
    RGBColor(0xEE, 0xDD, 0x88), // light yellow
    RGBColor(0x99, 0xDD, 0xFF), // light cyan
    RGBColor(0xBB, 0xCC, 0x33), // pear
    RGBColor(0xFF, 0xAA, 0xBB), // pink
    RGBColor(0x44, 0xBB, 0x99), // mint
    RGBColor(0xEE, 0x88, 0x66), // orange
    RGBColor(0x77, 0xAA, 0xDD), // light blue
    RGBColor(0xAA, 0xAA, 0x00), // olive
];

/// The dark grey that cases class lines and outlines class blocks.
pub const CASING: RGBColor = RGBColor(0x44, 0x44, 0x44);
/// Reference lines (bounds, offered load).
const REFERENCE: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// The colour of series `i`, as CSS hex (for legends drawn outside the chart).
pub fn css_color(i: usize) -> String {
    Ink::Policy(i).css()
}

/// The casing of class lines and the outline of class blocks, as CSS hex.
pub fn casing_css() -> String {
    let RGBColor(r, g, b) = CASING;
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The colours and weights a chart is drawn with: the light theme of papers and the CLI's
/// SVGs, a dark one, a high-contrast one, and any of them for presenting (thicker lines,
/// larger text, for the back of a lecture hall).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    /// Titles, ticks, axes.
    pub ink: RGBColor,
    /// Legend and reference-line labels.
    pub text: RGBColor,
    /// The major and minor grid lines.
    pub grid: RGBColor,
    pub fine_grid: RGBColor,
    /// Reference lines (bounds, offered load).
    pub reference: RGBColor,
    /// Width of the curves in pixels.
    pub line_width: u32,
    /// Text sizes are multiplied by it.
    pub text_scale: f64,
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        ink: RGBColor(0x00, 0x00, 0x00),
        text: RGBColor(0x22, 0x22, 0x22),
        grid: RGBColor(0xCC, 0xCC, 0xCC),
        fine_grid: RGBColor(0xEE, 0xEE, 0xEE),
        reference: REFERENCE,
        line_width: 2,
        text_scale: 1.0,
    };
    pub const DARK: Theme = Theme {
        background: RGBColor(0x16, 0x1A, 0x21),
        ink: RGBColor(0xE6, 0xE9, 0xEE),
        text: RGBColor(0xD4, 0xD8, 0xDE),
        grid: RGBColor(0x44, 0x4B, 0x56),
        fine_grid: RGBColor(0x24, 0x29, 0x31),
        reference: RGBColor(0xA8, 0xB0, 0xBB),
        line_width: 2,
        text_scale: 1.0,
    };
    pub const HIGH_CONTRAST: Theme = Theme {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        ink: RGBColor(0x00, 0x00, 0x00),
        text: RGBColor(0x00, 0x00, 0x00),
        grid: RGBColor(0x66, 0x66, 0x66),
        fine_grid: RGBColor(0xBB, 0xBB, 0xBB),
        reference: RGBColor(0x00, 0x00, 0x00),
        line_width: 3,
        text_scale: 1.0,
    };

    /// The same colours with lines and text for a projector.
    pub const fn presenting(self) -> Theme {
        Theme { line_width: self.line_width + 2, text_scale: 1.45, ..self }
    }

    /// The colour `ink` takes on this theme: a reference line takes the theme's, and a black
    /// series turns to the theme's ink on a dark background.
    pub fn color(&self, ink: Ink) -> RGBColor {
        match ink {
            Ink::Reference => self.reference,
            _ if ink.rgb() == RGBColor(0, 0, 0) => self.ink,
            _ => ink.rgb(),
        }
    }

    /// A text size on this theme.
    fn size(&self, size: u32) -> u32 {
        (f64::from(size) * self.text_scale).round() as u32
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::LIGHT
    }
}

/// What a curve or a reference line stands for, which decides its colour and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ink {
    /// Policy `i`: Okabe–Ito, a solid line.
    Policy(usize),
    /// Class, size bin or VM type `i`: Tol's light colours, a line cased in dark grey.
    Class(usize),
    /// A reference value (a bound, the offered load): grey.
    Reference,
}

impl Ink {
    pub fn rgb(self) -> RGBColor {
        match self {
            Ink::Policy(i) => PALETTE[i % PALETTE.len()],
            Ink::Class(i) => CLASS_PALETTE[i % CLASS_PALETTE.len()],
            Ink::Reference => REFERENCE,
        }
    }

    /// As CSS hex.
    pub fn css(self) -> String {
        let RGBColor(r, g, b) = self.rgb();
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// The marker shape (one of four), so series differ by more than colour.
    fn shape(self) -> usize {
        match self {
            Ink::Policy(i) | Ink::Class(i) => i % 4,
            Ink::Reference => 0,
        }
    }
}

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
}

/// A reference value drawn as a dashed line across the chart, e.g. a capacity bound.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark<'a> {
    pub value: f64,
    pub label: &'a str,
    /// Grey for a bound; a policy's or a class's colour for its own analysis.
    pub ink: Ink,
}

impl<'a> Mark<'a> {
    /// A grey reference line.
    pub fn new(value: f64, label: &'a str) -> Self {
        Self { value, label, ink: Ink::Reference }
    }

    /// A reference line in the colour of what it belongs to.
    pub fn inked(value: f64, label: &'a str, ink: Ink) -> Self {
        Self { value, label, ink }
    }
}

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
    pub theme: Theme,
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws `chart` filling `area`.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>) -> DrawResult<DB> {
    area.fill(&chart.theme.background)?;
    if chart.legend == LegendAt::Below {
        // The legend's rows first, from the bottom up; the plot takes what is left.
        let entries = legend_entries(chart);
        let (width, height) = area.dim_in_pixel();
        let placed = lay_out_legend(area, &entries, width, &chart.theme);
        let rows = placed.iter().map(|p| p.row + 1).max().unwrap_or(0);
        let row = chart.theme.size(LEGEND_ROW as u32) as i32;
        let legend_height = if rows == 0 { 0 } else { rows * row + 6 };
        let legend_height = legend_height.min(height as i32 / 2);
        let (plot, legend) = area.split_vertically(height as i32 - legend_height);
        draw_legend(&legend, &entries, &placed, &chart.theme)?;
        return draw_plot(&plot, chart);
    }
    draw_plot(area, chart)
}

fn draw_plot<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>) -> DrawResult<DB> {
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
    let theme = chart.theme;
    let title_size = (theme.size(11)..=theme.size(18))
        .rev()
        .find(|&size| {
            area.estimate_text_size(chart.title, &("sans-serif", size).into_text_style(area))
                .is_ok_and(|(w, _)| w + 16 <= width)
        })
        .unwrap_or(theme.size(11));
    let grow = |size: i32| (f64::from(size) * theme.text_scale).round() as i32;
    let mut ctx = ChartBuilder::on(area)
        .caption(chart.title, ("sans-serif", title_size).into_font().color(&theme.ink))
        .margin(12)
        .margin_right(28)
        .x_label_area_size(grow(42))
        .y_label_area_size(grow(64))
        .build_cartesian_2d(x, y)?;
    let labels = ("sans-serif", theme.size(13)).into_font().color(&theme.ink);
    let mut mesh = ctx.configure_mesh();
    mesh.x_desc(chart.x_label)
        .y_desc(chart.y_label)
        .light_line_style(theme.fine_grid)
        .label_style(labels.clone())
        .x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v));
    // The light theme keeps plotters' own axis and grid (the CLI's SVGs stay as they were).
    if theme != Theme::LIGHT {
        mesh.bold_line_style(theme.grid).axis_style(theme.ink).axis_desc_style(labels);
    }
    mesh.draw()?;
    let clamp = |v: f64| v.max(y_floor);
    let (y_min, y_max) = {
        let r = ctx.plotting_area().get_y_range();
        (r.start, r.end)
    };
    let below = chart.legend == LegendAt::Below;
    let mark_style = |ink: Ink| ShapeStyle { color: theme.color(ink).to_rgba(), filled: false, stroke_width: 1 };
    let mark_ink = if theme == Theme::LIGHT { RGBColor(0x33, 0x33, 0x33) } else { theme.text };
    let mark_font = ("sans-serif", theme.size(12)).into_font().color(&mark_ink);
    let label_width =
        |label: &str| area.estimate_text_size(label, &mark_font).map_or(6 * label.len() as i32, |(w, _)| w as i32);
    // With the legend below, each labelled line has the dash of its legend entry and no label
    // on the plot. Otherwise marks close together get their labels stacked (x marks) or put
    // side by side (y marks) instead of printed over each other.
    let dashes = mark_dashes(chart);
    let x_labels: Vec<_> =
        chart.x_marks.iter().map(|m| (ctx.backend_coord(&(m.value, y_max)).0, label_width(m.label))).collect();
    let x_rows = stack_labels(&x_labels);
    for ((m, row), (size, gap)) in chart.x_marks.iter().zip(x_rows).zip(dashes.iter().copied()) {
        let line = [(m.value, clamp(y_min)), (m.value, y_max)];
        ctx.draw_series(DashedLineSeries::new(line, size, gap, mark_style(m.ink)))?;
        if !below {
            // A few pixels right of the line and below the top border, a row lower per crowding.
            ctx.draw_series(std::iter::once(
                EmptyElement::at((m.value, y_max))
                    + Text::new(m.label.to_string(), (4, 4 + 14 * row), mark_font.clone()),
            ))?;
        }
    }
    let y_labels: Vec<_> =
        chart.y_marks.iter().map(|m| (ctx.backend_coord(&(x_lo, clamp(m.value))).1, label_width(m.label))).collect();
    let y_offsets = side_by_side(&y_labels);
    let y_dashes = dashes.iter().copied().skip(chart.x_marks.len());
    for ((m, dx), (size, gap)) in chart.y_marks.iter().zip(y_offsets).zip(y_dashes) {
        let line = [(x_lo, clamp(m.value)), (x_hi, clamp(m.value))];
        ctx.draw_series(DashedLineSeries::new(line, size, gap, mark_style(m.ink)))?;
        if !below {
            ctx.draw_series(std::iter::once(
                EmptyElement::at((x_lo, clamp(m.value)))
                    + Text::new(m.label.to_string(), (4 + dx, -16), mark_font.clone()),
            ))?;
        }
    }
    // The legend lists as many curves as fit in the plot's height (an entry is about 20 px),
    // then says how many more there are, rather than running off the chart.
    let plot_height = {
        let (top, bottom) = (ctx.backend_coord(&(x_lo, y_max)).1, ctx.backend_coord(&(x_lo, clamp(y_min))).1);
        (bottom - top).max(0) as usize
    };
    let fit = (plot_height.saturating_sub(12) / LEGEND_ROW).max(1);
    let listed = if below || chart.curves.len() <= fit { chart.curves.len() } else { fit - 1 };
    for (i, curve) in chart.curves.iter().enumerate() {
        let (ink, color) = (curve.color, theme.color(curve.color));
        let line = ShapeStyle { color: color.to_rgba(), filled: false, stroke_width: theme.line_width };
        let points: Vec<(f64, f64)> = curve.points.iter().map(|p| (p.x, clamp(p.y))).collect();
        let shape = ink.shape();
        let legend_marker = curve.markers.then_some(shape);
        if let Ink::Class(_) = ink {
            let casing = ShapeStyle { color: CASING.to_rgba(), filled: false, stroke_width: theme.line_width + 2 };
            ctx.draw_series(LineSeries::new(points.iter().copied(), casing))?;
        }
        let drawn = ctx.draw_series(LineSeries::new(points.iter().copied(), line))?;
        if i < listed && !below {
            drawn.label(curve.label).legend(move |(x, y)| {
                EmptyElement::at((x, y)) + PathElement::new([(-8, 0), (8, 0)], line) + marker(legend_marker, ink)
            });
        }
        for p in curve.points.iter().filter_map(|p| p.interval.map(|(lo, hi)| (p.x, lo, hi))) {
            let (x, lo, hi) = p;
            ctx.draw_series(std::iter::once(PathElement::new([(x, clamp(lo)), (x, clamp(hi))], line)))?;
        }
        if curve.markers {
            let at: Vec<(f64, f64)> = points.clone();
            draw_markers(&mut ctx, &at, shape, ink)?;
        } else if below {
            let at: Vec<(f64, f64)> =
                staggered(curve.points, i, chart.curves.len(), (x_lo, x_hi)).map(|p| (p.x, clamp(p.y))).collect();
            draw_markers(&mut ctx, &at, shape, ink)?;
        }
    }
    if below {
        return Ok(());
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
                LegendAt::LowerRight | LegendAt::Below => SeriesLabelPosition::LowerRight,
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
/// nothing (curves without markers). A class's light colour is outlined in dark grey: its
/// marker is this, drawn over [`marker_outline`].
fn marker<DB: DrawingBackend>(shape: Option<usize>, ink: Ink) -> DynElement<'static, DB, (i32, i32)> {
    let style = ShapeStyle { color: ink.rgb().to_rgba(), filled: true, stroke_width: 1 };
    shaped(shape, style, 0)
}

/// The dark outline under a class's marker (nothing for a policy's).
fn marker_outline<DB: DrawingBackend>(shape: Option<usize>, ink: Ink) -> DynElement<'static, DB, (i32, i32)> {
    let style = ShapeStyle { color: CASING.to_rgba(), filled: true, stroke_width: 1 };
    shaped(shape.filter(|_| matches!(ink, Ink::Class(_))), style, 1)
}

/// Shape `shape` in `style`, `grow` pixels larger all round.
fn shaped<DB: DrawingBackend>(
    shape: Option<usize>,
    style: ShapeStyle,
    grow: i32,
) -> DynElement<'static, DB, (i32, i32)> {
    let Some(shape) = shape else {
        return Circle::new((0, 0), 0, ShapeStyle { color: TRANSPARENT, filled: false, stroke_width: 0 }).into_dyn();
    };
    let g = grow;
    match shape {
        0 => Circle::new((0, 0), 4 + g as u32, style).into_dyn(),
        1 => TriangleMarker::new((0, 0), 5 + g as u32, style).into_dyn(),
        2 => Rectangle::new([(-3 - g, -3 - g), (3 + g, 3 + g)], style).into_dyn(),
        _ => Cross::new((0, 0), 4 + g as u32, ShapeStyle { filled: false, stroke_width: 2 + 2 * g as u32, ..style })
            .into_dyn(),
    }
}

/// Markers of shape `shape` at `at`, a class's over their dark outlines.
fn draw_markers<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    ctx: &mut ChartContext<'_, DB, CT>,
    at: &[(f64, f64)],
    shape: usize,
    ink: Ink,
) -> DrawResult<DB> {
    if let Ink::Class(_) = ink {
        ctx.draw_series(at.iter().map(|&(x, y)| EmptyElement::at((x, y)) + marker_outline(Some(shape), ink)))?;
    }
    ctx.draw_series(at.iter().map(|&(x, y)| EmptyElement::at((x, y)) + marker(Some(shape), ink)))?;
    Ok(())
}

/// Markers a line without markers gets with the legend below: this many across the x range,
/// curve `i` of `n` offset by `i/n` of the spacing, so two curves on top of each other show
/// both their markers.
const STAGGERED_MARKERS: usize = 8;

fn staggered(points: &[Point], i: usize, n: usize, (lo, hi): (f64, f64)) -> impl Iterator<Item = &Point> {
    let step = (hi - lo) / STAGGERED_MARKERS as f64;
    let offset = (i as f64 + 0.5) / n.max(1) as f64;
    (0..STAGGERED_MARKERS).filter_map(move |k| {
        let target = lo + (k as f64 + offset) * step;
        let at = points.partition_point(|p| p.x < target);
        // The nearest point at or after the target, if it is within half a spacing.
        points.get(at).filter(|p| points.len() > 1 && p.x - target <= step / 2.0 && p.y.is_finite())
    })
}

/// The dash (length, gap in pixels) of each reference line, x marks first: all alike on a
/// chart that labels them on the plot; with the legend below, each labelled line its own, so
/// its legend entry tells it apart. Unlabelled lines (the warm-up) keep the plain dash.
fn mark_dashes(chart: &Chart<'_>) -> Vec<(u32, u32)> {
    const PLAIN: (u32, u32) = (6, 4);
    const OWN: [(u32, u32); 5] = [(6, 4), (2, 3), (12, 4), (4, 8), (1, 5)];
    let mut next = 0;
    chart
        .x_marks
        .iter()
        .chain(&chart.y_marks)
        .map(|m| {
            if chart.legend != LegendAt::Below || m.label.is_empty() {
                return PLAIN;
            }
            next += 1;
            OWN[(next - 1) % OWN.len()]
        })
        .collect()
}

/// What a legend entry shows next to its label.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sample {
    /// A curve's line, with its marker.
    Line(Ink),
    /// A reference line's dash.
    Dash(Ink, (u32, u32)),
}

/// The legend of a chart with its legend below: its curves, then its labelled reference lines.
fn legend_entries<'a>(chart: &Chart<'a>) -> Vec<(&'a str, Sample)> {
    let curves = chart.curves.iter().map(|c| (c.label, Sample::Line(c.color)));
    let marks = chart
        .x_marks
        .iter()
        .chain(&chart.y_marks)
        .zip(mark_dashes(chart))
        .filter(|(m, _)| !m.label.is_empty())
        .map(|(m, dash)| (m.label, Sample::Dash(m.ink, dash)));
    curves.chain(marks).collect()
}

/// A legend entry's place: its row and its x offset in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Placed {
    row: i32,
    x: i32,
}

/// Width of a legend sample, and the space after an entry.
const SAMPLE_WIDTH: i32 = 26;
const ENTRY_GAP: i32 = 16;
const LEGEND_FONT: u32 = 13;

/// Entries in rows across `width`, each as wide as its sample and label.
fn lay_out_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(&str, Sample)],
    width: u32,
    theme: &Theme,
) -> Vec<Placed> {
    let font = ("sans-serif", theme.size(LEGEND_FONT)).into_text_style(area);
    let widths: Vec<i32> = entries
        .iter()
        .map(|(label, _)| {
            let text = area.estimate_text_size(label, &font).map_or(7 * label.len() as i32, |(w, _)| w as i32);
            SAMPLE_WIDTH + 6 + text
        })
        .collect();
    place_in_rows(&widths, width as i32 - 2 * LEGEND_MARGIN)
}

/// Left and right margin of the legend below.
const LEGEND_MARGIN: i32 = 12;

/// Entries of these widths in rows of `room` pixels, in order; an entry wider than a row
/// gets a row of its own.
fn place_in_rows(widths: &[i32], room: i32) -> Vec<Placed> {
    let (mut row, mut x) = (0, 0);
    widths
        .iter()
        .map(|&w| {
            if x > 0 && x + w > room {
                (row, x) = (row + 1, 0);
            }
            let placed = Placed { row, x };
            x += w + ENTRY_GAP;
            placed
        })
        .collect()
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(&str, Sample)],
    placed: &[Placed],
    theme: &Theme,
) -> DrawResult<DB> {
    let font = ("sans-serif", theme.size(LEGEND_FONT)).into_font().color(&theme.text);
    let row = theme.size(LEGEND_ROW as u32) as i32;
    let rows = area.dim_in_pixel().1 as i32 / row;
    for ((label, sample), at) in entries.iter().zip(placed).filter(|(_, at)| at.row < rows.max(1)) {
        let (x, y) = (LEGEND_MARGIN + at.x, 2 + at.row * row + row / 2);
        match *sample {
            Sample::Line(ink) => {
                let width = theme.line_width;
                if let Ink::Class(_) = ink {
                    let casing = ShapeStyle { color: CASING.to_rgba(), filled: false, stroke_width: width + 2 };
                    area.draw(&PathElement::new([(x, y), (x + SAMPLE_WIDTH, y)], casing))?;
                }
                let line = ShapeStyle { color: theme.color(ink).to_rgba(), filled: false, stroke_width: width };
                area.draw(&PathElement::new([(x, y), (x + SAMPLE_WIDTH, y)], line))?;
                let at = (x + SAMPLE_WIDTH / 2, y);
                if let Ink::Class(_) = ink {
                    area.draw(&(EmptyElement::at(at) + marker_outline(Some(ink.shape()), ink)))?;
                }
                area.draw(&(EmptyElement::at(at) + marker(Some(ink.shape()), ink)))?;
            }
            Sample::Dash(ink, (size, gap)) => {
                let style = ShapeStyle { color: theme.color(ink).to_rgba(), filled: false, stroke_width: 2 };
                let mut from = x;
                while from < x + SAMPLE_WIDTH {
                    let to = (from + size as i32).min(x + SAMPLE_WIDTH);
                    area.draw(&PathElement::new([(from, y), (to, y)], style))?;
                    from = to + gap as i32;
                }
            }
        }
        area.draw(&Text::new(label.to_string(), (x + SAMPLE_WIDTH + 6, y - row * 7 / 20), font.clone()))?;
    }
    Ok(())
}

/// Tick labels without trailing zeros, short enough that ten fit under a narrow chart:
/// `5000`, `20k`, `0.95`, `1.5M`.
pub fn tick(v: f64) -> String {
    packlab_core::model::table::tick(v)
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
                Curve { label: "VQS", color: Ink::Policy(0), points: &a, markers: true },
                Curve { label: "BF-J/S", color: Ink::Policy(1), points: &b, markers: false },
            ],
            x_marks: vec![Mark::new(0.5, "α = 1")],
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
            curves: vec![Curve { label: "x", color: Ink::Policy(3), points: &a, markers: true }],
            ..Chart::default()
        });
        svg(&Chart::default());
        let flat = [Point::new(1.0, 5.0)];
        svg(&Chart {
            curves: vec![Curve { label: "flat", color: Ink::Class(2), points: &flat, markers: false }],
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
        let curves =
            labels.iter().map(|l| Curve { label: l, color: Ink::Policy(0), points: &points, markers: false }).collect();
        let out = svg(&Chart { curves, ..Chart::default() });
        assert!(out.contains("class 0") && !out.contains("class 29"), "a 400 px chart cannot list 30 curves");
        assert!(out.contains(" more<") || out.contains(" more"), "the legend says what it left out");
    }

    #[test]
    fn css_colors() {
        assert_eq!(css_color(0), "#0072b2");
        assert_eq!(css_color(7), "#0072b2");
        assert_eq!(Ink::Class(0).css(), "#eedd88");
        // No class colour is a policy colour.
        assert!(CLASS_PALETTE.iter().all(|c| !PALETTE.contains(c)));
    }

    #[test]
    fn the_legend_below_lists_curves_and_reference_lines_off_the_plot() {
        let a = [Point::new(0.0, 1.0), Point::new(10.0, 3.0)];
        let chart = Chart {
            title: "Occupancy",
            curves: vec![
                Curve { label: "VQS (J=2)", color: Ink::Policy(0), points: &a, markers: false },
                Curve { label: "VQ1", color: Ink::Class(0), points: &a, markers: false },
            ],
            x_marks: vec![Mark::new(2.0, "")],
            y_marks: vec![Mark::new(0.5, "1/2 guarantee"), Mark::inked(2.0, "VQS analysis", Ink::Policy(0))],
            legend: LegendAt::Below,
            ..Chart::default()
        };
        let out = svg(&chart);
        for label in ["VQS (J=2)", "VQ1", "1/2 guarantee", "VQS analysis"] {
            assert_eq!(out.matches(label).count(), 1, "{label} once, in the legend");
        }
        // The class line is cased: its colour over the dark grey.
        assert!(out.to_lowercase().contains("#eedd88") && out.to_lowercase().contains("#444444"));
        // Each labelled line has its own dash; the unlabelled warm-up line the plain one.
        assert_eq!(mark_dashes(&chart), [(6, 4), (6, 4), (2, 3)]);
    }

    #[test]
    fn legend_rows_wrap_and_markers_stagger() {
        let placed = place_in_rows(&[100, 100, 100, 300], 250);
        let rows: Vec<(i32, i32)> = placed.iter().map(|p| (p.row, p.x)).collect();
        assert_eq!(rows, [(0, 0), (0, 116), (1, 0), (2, 0)]);
        // Two identical curves get their markers at different points.
        let points: Vec<Point> = (0..=100).map(|i| Point::new(f64::from(i), 1.0)).collect();
        let first: Vec<f64> = staggered(&points, 0, 2, (0.0, 100.0)).map(|p| p.x).collect();
        let second: Vec<f64> = staggered(&points, 1, 2, (0.0, 100.0)).map(|p| p.x).collect();
        assert_eq!(first.len(), STAGGERED_MARKERS);
        assert!(first.iter().all(|x| !second.contains(x)), "{first:?} {second:?}");
    }
}
