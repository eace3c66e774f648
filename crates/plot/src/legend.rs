//! The legend under the plot: the curves, then the labelled reference lines with their dashes,
//! in rows as wide as the chart.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::DrawResult;
use crate::chart::{BAND_OPACITY, Chart, stroke_dash};
use crate::ink::{CASING, Ink};
use crate::markers::{marker, marker_outline, verdict_marker, verdict_patch};
use crate::marks::mark_dashes;
use crate::theme::Theme;
use packlab_core::stability::Verdict;

/// Height of a legend entry in pixels (13 px text and the spacing plotters puts between).
pub(crate) const LEGEND_ROW: usize = 20;

/// What a legend entry shows next to its label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Sample {
    /// A curve's line, with its marker.
    Line(Ink),
    /// A reference line's dash.
    Dash(Ink, (u32, u32)),
    /// A verdict's marker.
    Verdict(Verdict),
    /// A band's shading.
    Patch(Ink),
}

/// The verdicts' legend labels, in the order listed.
pub(crate) const VERDICT_LABELS: [(&str, Verdict); 3] = [
    ("tested, stable", Verdict::Stable),
    ("tested, undecided", Verdict::Undecided),
    ("tested, not stable", Verdict::Unstable),
];

/// The legend of a chart with its legend below: its curves, then its labelled reference lines.
pub(crate) fn legend_entries<'a>(chart: &Chart<'a>) -> Vec<(&'a str, Sample)> {
    let curves = chart
        .curves
        .iter()
        .map(|c| (c.label, stroke_dash(c.stroke).map_or(Sample::Line(c.color), |dash| Sample::Dash(c.color, dash))));
    let marks = chart
        .x_marks
        .iter()
        .chain(&chart.y_marks)
        .zip(mark_dashes(chart))
        .filter(|(m, _)| !m.label.is_empty())
        .map(|(m, dash)| (m.label, Sample::Dash(m.ink, dash)));
    let verdicts = VERDICT_LABELS.iter().filter(|_| !chart.verdicts.is_empty()).map(|&(l, v)| (l, Sample::Verdict(v)));
    // One entry per band label, in grey: the bands take their curves' colours.
    let mut band_labels: Vec<&'a str> = Vec::new();
    for band in chart.bands.iter().filter(|b| !b.label.is_empty()) {
        if !band_labels.contains(&band.label) {
            band_labels.push(band.label);
        }
    }
    let bands = band_labels.into_iter().map(|l| (l, Sample::Patch(Ink::Reference)));
    curves.chain(marks).chain(bands).chain(verdicts).collect()
}

/// A legend entry's place: its row and its x offset in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Placed {
    pub(crate) row: i32,
    pub(crate) x: i32,
}

/// Width of a legend sample, and the space after an entry.
const SAMPLE_WIDTH: i32 = 26;
const ENTRY_GAP: i32 = 16;
const LEGEND_FONT: u32 = 13;

/// Entries in rows across `width`, each as wide as its sample and label.
pub(crate) fn lay_out_legend<DB: DrawingBackend>(
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
pub(crate) fn place_in_rows(widths: &[i32], room: i32) -> Vec<Placed> {
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

pub(crate) fn draw_legend<DB: DrawingBackend>(
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
            Sample::Verdict(verdict) => {
                let at = EmptyElement::at((x + SAMPLE_WIDTH / 2, y));
                area.draw(&(at + verdict_patch(theme) + verdict_marker(verdict, theme)))?;
            }
            Sample::Patch(ink) => {
                let fill = theme.color(ink).mix(BAND_OPACITY * 2.0).filled();
                area.draw(&Rectangle::new([(x, y - 6), (x + SAMPLE_WIDTH, y + 6)], fill))?;
            }
        }
        area.draw(&Text::new(label.to_string(), (x + SAMPLE_WIDTH + 6, y - row * 7 / 20), font.clone()))?;
    }
    Ok(())
}
