//! Drawing a chart: the plot with its axes, grid, reference lines, curves, intervals and
//! markers, and the legend on the plot or under it.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use crate::DrawResult;
use crate::axes::{Places, nonempty, padded, tick, x_extent, y_extent};
use crate::chart::{BAND_OPACITY, Chart, LegendAt, stroke_dash};
use crate::frame::Frame;
use crate::ink::{CASING, Ink};
use crate::legend::{LEGEND_ROW, draw_legend, lay_out_legend, legend_entries};
use crate::markers::{draw_markers, marker, staggered, verdict_marker, verdict_patch};
use crate::marks::{mark_dashes, side_by_side, stack_labels};
use crate::theme::Theme;

/// What drawing returns with the plot's [`Frame`].
type Framed<DB> = Result<Frame, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws `chart` filling `area`.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>) -> DrawResult<DB> {
    draw_framed(area, chart).map(|_| ())
}

/// Draws `chart` filling `area`, and says where its plot landed: what a page hit-tests a
/// pointer against.
pub fn draw_framed<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>) -> Framed<DB> {
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

fn draw_plot<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>) -> Framed<DB> {
    let (x_lo, x_hi) = chart.x_range.unwrap_or_else(|| padded(x_extent(chart), false));
    let (x_lo, x_hi) = nonempty(x_lo, x_hi);
    if chart.x_names.is_empty() {
        return with_y(area, chart, x_lo..x_hi);
    }
    // Categories stand at 1, 2, …: ticks there only (plotters would put them at 1.2, 1.4, …).
    with_y(area, chart, Places::new(x_lo, x_hi, chart.x_names.len()))
}

fn with_y<DB, X>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>, x: X) -> Framed<DB>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let (y_lo, y_hi) = chart.y_range.unwrap_or_else(|| padded(y_extent(chart), chart.log_y));
    let (y_lo, y_hi) = nonempty(y_lo, y_hi);
    if chart.log_y {
        let floor = y_lo.max(f64::MIN_POSITIVE);
        draw_in(area, chart, x, (floor..y_hi.max(floor * 10.0)).log_scale(), floor)
    } else {
        draw_in(area, chart, x, y_lo..y_hi, f64::NEG_INFINITY)
    }
}

fn draw_in<DB, X, Y>(area: &DrawingArea<DB, Shift>, chart: &Chart<'_>, x: X, y: Y, y_floor: f64) -> Framed<DB>
where
    DB: DrawingBackend,
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    // As many labels as fit: about one per 90 px across, one per 32 px up.
    let (width, height) = area.dim_in_pixel();
    let (x_labels, y_labels) = ((width as usize / 90).clamp(2, 10), (height as usize / 32).clamp(2, 10));
    // The title's font shrinks (18 down to 12 px) until it fits across: a phone's chart is
    // about 350 px wide, where an 18 px title of 40 characters would be cut at both ends. No
    // smaller: text under 12 px is not legible on a phone (issue 55).
    let theme = chart.theme;
    let title_size = (theme.size(12)..=theme.size(18))
        .rev()
        .find(|&size| {
            area.estimate_text_size(chart.title, &("sans-serif", size).into_text_style(area))
                .is_ok_and(|(w, _)| w + 16 <= width)
        })
        .unwrap_or(theme.size(12));
    let grow = |size: i32| (f64::from(size) * theme.text_scale).round() as i32;
    let mut ctx = ChartBuilder::on(area)
        .caption(chart.title, ("sans-serif", title_size).into_font().color(&theme.ink))
        .margin(12)
        .margin_right(28)
        .x_label_area_size(grow(42))
        .y_label_area_size(grow(64))
        .build_cartesian_2d(x, y)?;
    let (x_lo, x_hi) = {
        let r = ctx.plotting_area().get_x_range();
        (r.start, r.end)
    };
    // A category's name at its place; a number elsewhere.
    let names = chart.x_names;
    let x_tick = |v: &f64| names.get((v.round() as usize).wrapping_sub(1)).map_or_else(|| tick(*v), String::clone);
    let labels = ("sans-serif", theme.size(13)).into_font().color(&theme.ink);
    let mut mesh = ctx.configure_mesh();
    mesh.x_desc(chart.x_label)
        .y_desc(chart.y_label)
        .light_line_style(theme.fine_grid)
        .label_style(labels.clone())
        .x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(&x_tick)
        .y_label_formatter(&|v| tick(*v));
    // The light theme keeps plotters' own axis and grid (the CLI's SVGs stay as they were).
    if theme != Theme::LIGHT {
        mesh.bold_line_style(theme.grid).axis_style(theme.ink).axis_desc_style(labels);
    }
    if !names.is_empty() {
        // No grid line through the categories' places, where their intervals stand.
        mesh.disable_x_mesh();
    }
    mesh.draw()?;
    let clamp = |v: f64| v.max(y_floor);
    let (y_min, y_max) = {
        let r = ctx.plotting_area().get_y_range();
        (r.start, r.end)
    };
    let frame = {
        let (left, bottom) = ctx.backend_coord(&(x_lo, y_min));
        let (right, top) = ctx.backend_coord(&(x_hi, y_max));
        Frame {
            x: (x_lo, x_hi),
            y: (y_min, y_max),
            pixels_x: (f64::from(left), f64::from(right)),
            pixels_y: (f64::from(bottom), f64::from(top)),
            log_y: chart.log_y,
        }
    };
    // The bands first, under the lines and curves, light enough that a curve crossing one
    // keeps its contrast.
    for band in &chart.bands {
        let fill = theme.color(band.ink).mix(BAND_OPACITY).filled();
        let corners = [(band.x.0, clamp(band.y.0)), (band.x.1, clamp(band.y.1))];
        ctx.draw_series(std::iter::once(Rectangle::new(corners, fill)))?;
    }
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
    // A mark over one category runs over its place only, its label at its start.
    let across = |m: &crate::chart::Mark<'_>| m.over.unwrap_or((x_lo, x_hi));
    let y_labels: Vec<_> = chart
        .y_marks
        .iter()
        .map(|m| (ctx.backend_coord(&(across(m).0, clamp(m.value))).1, label_width(m.label)))
        .collect();
    let y_offsets = side_by_side(&y_labels);
    let y_dashes = dashes.iter().copied().skip(chart.x_marks.len());
    for ((m, dx), (size, gap)) in chart.y_marks.iter().zip(y_offsets).zip(y_dashes) {
        let (from, to) = across(m);
        let line = [(from, clamp(m.value)), (to, clamp(m.value))];
        ctx.draw_series(DashedLineSeries::new(line, size, gap, mark_style(m.ink)))?;
        if !below {
            ctx.draw_series(std::iter::once(
                EmptyElement::at((from, clamp(m.value)))
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
        let drawn = match stroke_dash(curve.stroke) {
            Some((size, gap)) => ctx.draw_series(DashedLineSeries::new(points.iter().copied(), size, gap, line))?,
            None => ctx.draw_series(LineSeries::new(points.iter().copied(), line))?,
        };
        if i < listed && !below {
            drawn.label(curve.label).legend(move |(x, y)| {
                EmptyElement::at((x, y)) + PathElement::new([(-8, 0), (8, 0)], line) + marker(legend_marker, ink)
            });
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
    // The verdicts over everything else, each on a patch of the background so it stands out
    // of the lines it sits on.
    ctx.draw_series(
        chart
            .verdicts
            .iter()
            .map(|v| EmptyElement::at((v.x, clamp(v.y))) + verdict_patch(&theme) + verdict_marker(v.verdict, &theme)),
    )?;
    // The intervals and their middle marks over the verdicts: a map's interval is what it
    // found, and the loads tested along it must not hide it.
    for curve in &chart.curves {
        let line =
            ShapeStyle { color: theme.color(curve.color).to_rgba(), filled: false, stroke_width: theme.line_width };
        let intervals: Vec<(f64, f64, f64)> =
            curve.points.iter().filter_map(|p| p.interval.map(|(lo, hi)| (p.x, lo, hi))).collect();
        for &(x, lo, hi) in &intervals {
            ctx.draw_series(std::iter::once(PathElement::new([(x, clamp(lo)), (x, clamp(hi))], line)))?;
        }
        if curve.markers && !intervals.is_empty() {
            let at: Vec<(f64, f64)> = curve.points.iter().map(|p| (p.x, clamp(p.y))).collect();
            draw_markers(&mut ctx, &at, curve.color.shape(), curve.color)?;
        }
    }
    if below {
        return Ok(frame);
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
    Ok(frame)
}
