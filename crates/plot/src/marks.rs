//! The reference lines' labels on the plot, placed so they do not print over each other, and
//! the dash of each line (its own, with the legend below).

use crate::chart::{Chart, LegendAt, stroke_dash};

/// Rows for labels drawn to the right of vertical lines at pixel columns `labels` (x, width):
/// each label takes the first row where it clears the labels already placed.
pub(crate) fn stack_labels(labels: &[(i32, i32)]) -> Vec<i32> {
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
pub(crate) fn side_by_side(labels: &[(i32, i32)]) -> Vec<i32> {
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

/// The dash (length, gap in pixels) of each reference line, x marks first: all alike on a
/// chart that labels them on the plot; with the legend below, each labelled line its own, so
/// its legend entry tells it apart. Unlabelled lines (the warm-up) keep the plain dash.
pub(crate) fn mark_dashes(chart: &Chart<'_>) -> Vec<(u32, u32)> {
    const PLAIN: (u32, u32) = (6, 4);
    const OWN: [(u32, u32); 5] = [(6, 4), (2, 3), (12, 4), (4, 8), (1, 5)];
    let mut next = 0;
    chart
        .x_marks
        .iter()
        .chain(&chart.y_marks)
        .map(|m| {
            // A policy's line takes its curve's dash: its colour tells it apart.
            if let Some(stroke) = m.stroke {
                return stroke_dash(stroke).unwrap_or(PLAIN);
            }
            if chart.legend != LegendAt::Below || m.label.is_empty() {
                return PLAIN;
            }
            next += 1;
            OWN[(next - 1) % OWN.len()]
        })
        .collect()
}
