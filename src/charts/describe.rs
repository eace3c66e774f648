//! A chart in words, for whoever cannot see the canvas: each line's latest value, where it
//! started, and whether it rises, falls or holds over the last stretch, with the dashed
//! references. The canvas names what is plotted; this says what it shows.

use packlab_core::format::group_decimal;
use packlab_plot::{Chart, Point, Stroke};

/// What a reader of `chart` learns from looking: `"Waiting jobs Q(t) (waiting jobs against
/// slot). VQS (J=2): 120 now, 3.00 at the start, rising; BF-J/S: 2.10 now, 1.90 at the start,
/// level. Dashed: capacity 1.00."`
pub fn describe(chart: &Chart<'_>) -> String {
    let mut parts: Vec<String> = chart
        .curves
        .iter()
        .filter(|c| !c.points.is_empty())
        .map(|c| {
            let (first, last) = (&c.points[0], &c.points[c.points.len() - 1]);
            format!("{}: {} now, {} at the start, {}", c.label, number(last.y), number(first.y), trend(c.points))
        })
        .collect();
    if parts.is_empty() {
        return format!("{}: nothing plotted yet.", chart.title);
    }
    let marks: Vec<String> = chart.y_marks.iter().map(|m| format!("{} {}", m.label, number(m.value))).collect();
    let mut text = format!("{} ({} against {}). ", chart.title, chart.y_label, chart.x_label);
    text.push_str(&std::mem::take(&mut parts).join("; "));
    text.push('.');
    if !marks.is_empty() {
        text.push_str(&format!(" Dashed: {}.", marks.join(", ")));
    }
    // The run's changes, dotted, and the bands shaded after them.
    let changes: Vec<String> =
        chart.x_marks.iter().filter(|m| m.stroke == Some(Stroke::Dotted)).map(|m| group_decimal(m.value, 0)).collect();
    if let Some((last, before)) = changes.split_last() {
        let at = if before.is_empty() { last.clone() } else { format!("{} and {last}", before.join(", ")) };
        text.push_str(&format!(" Dotted: a change of the run, at {} {at}.", chart.x_label));
    }
    if let Some(band) = chart.bands.first() {
        text.push_str(&format!(" {}{}.", band.label[..1].to_uppercase(), &band.label[1..]));
    }
    text
}

/// Two decimals below 100, none above, digits grouped.
fn number(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    group_decimal(x, if x.abs() >= 100.0 { 0 } else { 2 })
}

/// Rising, falling or level over the last quarter of the points against the quarter before,
/// by 5 % of the larger mean (a level line at 0 stays level).
pub fn trend(points: &[Point]) -> &'static str {
    if points.len() < 8 {
        return "too early for a trend";
    }
    let quarter = points.len() / 4;
    let mean = |p: &[Point]| p.iter().map(|p| p.y).sum::<f64>() / p.len() as f64;
    let late = mean(&points[points.len() - quarter..]);
    let before = mean(&points[points.len() - 2 * quarter..points.len() - quarter]);
    let scale = late.abs().max(before.abs());
    if scale == 0.0 || (late - before).abs() <= 0.05 * scale {
        "level"
    } else if late > before {
        "rising"
    } else {
        "falling"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(f: impl Fn(f64) -> f64) -> Vec<Point> {
        (0..40).map(|i| Point::new(f64::from(i), f(f64::from(i)))).collect()
    }

    #[test]
    fn trends_are_named() {
        assert_eq!(trend(&line(|x| x)), "rising");
        assert_eq!(trend(&line(|x| 100.0 - x)), "falling");
        assert_eq!(trend(&line(|_| 3.0)), "level");
        assert_eq!(trend(&line(|_| 0.0)), "level");
        assert_eq!(trend(&line(|x| x)[..4]), "too early for a trend");
    }
}
