//! Marker shapes, so series differ by more than colour: one of four per series, a class's
//! outlined in dark grey; and the few markers a plain line gets with the legend below.

use plotters::coord::CoordTranslate;
use plotters::prelude::*;

use crate::DrawResult;
use crate::chart::Point;
use crate::ink::{CASING, Ink};
use crate::theme::Theme;
use packlab_core::stability::Verdict;

/// A marker of one of four shapes, so curves differ by more than colour; `None` draws
/// nothing (curves without markers). A class's light colour is outlined in dark grey: its
/// marker is this, drawn over [`marker_outline`].
pub(crate) fn marker<DB: DrawingBackend>(shape: Option<usize>, ink: Ink) -> DynElement<'static, DB, (i32, i32)> {
    let style = ShapeStyle { color: ink.rgb().to_rgba(), filled: true, stroke_width: 1 };
    shaped(shape, style, 0)
}

/// The dark outline under a class's marker (nothing for a policy's).
pub(crate) fn marker_outline<DB: DrawingBackend>(
    shape: Option<usize>,
    ink: Ink,
) -> DynElement<'static, DB, (i32, i32)> {
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
pub(crate) fn draw_markers<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
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
pub(crate) const STAGGERED_MARKERS: usize = 8;

pub(crate) fn staggered(points: &[Point], i: usize, n: usize, (lo, hi): (f64, f64)) -> impl Iterator<Item = &Point> {
    let step = (hi - lo) / STAGGERED_MARKERS as f64;
    let offset = (i as f64 + 0.5) / n.max(1) as f64;
    (0..STAGGERED_MARKERS).filter_map(move |k| {
        let target = lo + (k as f64 + offset) * step;
        let at = points.partition_point(|p| p.x < target);
        // The nearest point at or after the target, if it is within half a spacing.
        points.get(at).filter(|p| points.len() > 1 && p.x - target <= step / 2.0 && p.y.is_finite())
    })
}

/// A verdict's marker in the theme's colour: a dot for stable, a cross for not stable, a
/// square for undecided, so the verdicts differ by more than colour. Drawn over
/// [`verdict_patch`].
pub(crate) fn verdict_marker<DB: DrawingBackend>(
    verdict: Verdict,
    theme: &Theme,
) -> DynElement<'static, DB, (i32, i32)> {
    let color = theme.verdict(verdict).to_rgba();
    let filled = ShapeStyle { color, filled: true, stroke_width: 1 };
    match verdict {
        Verdict::Stable => Circle::new((0, 0), 5, filled).into_dyn(),
        Verdict::Unstable => Cross::new((0, 0), 5, ShapeStyle { color, filled: false, stroke_width: 3 }).into_dyn(),
        Verdict::Undecided => Rectangle::new([(-4, -4), (4, 4)], filled).into_dyn(),
    }
}

/// The patch of background under a verdict's marker, so it stands out of the lines it sits on.
pub(crate) fn verdict_patch<DB: DrawingBackend>(theme: &Theme) -> DynElement<'static, DB, (i32, i32)> {
    Circle::new((0, 0), 7, ShapeStyle { color: theme.background.to_rgba(), filled: true, stroke_width: 1 }).into_dyn()
}
