//! Where a chart's plot landed on its drawing area, so a page can tell what a pointer is over
//! from the very layout the chart was drawn with, rather than working the layout out again.

/// The plot's data ranges and the pixels they were drawn at ([`draw_framed`](crate::draw_framed)):
/// the x range's ends at `pixels_x`, the y range's at `pixels_y` (bottom, then top).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Frame {
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub pixels_x: (f64, f64),
    pub pixels_y: (f64, f64),
    /// The y axis is logarithmic: pixels follow ln y.
    pub log_y: bool,
}

impl Frame {
    /// The pixel of data point (x, y), in the drawing area's pixels (a canvas's CSS pixels).
    pub fn pixel(&self, x: f64, y: f64) -> (f64, f64) {
        let along = |v: f64, (lo, hi): (f64, f64), (from, to): (f64, f64)| {
            let share = if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };
            from + share * (to - from)
        };
        let y = if self.log_y {
            let ln = |v: f64| v.max(f64::MIN_POSITIVE).ln();
            along(ln(y), (ln(self.y.0), ln(self.y.1)), self.pixels_y)
        } else {
            along(y, self.y, self.pixels_y)
        };
        (along(x, self.x, self.pixels_x), y)
    }

    /// Whether pixel (px, py) lies on the plot, within `slack` pixels of its edges.
    pub fn contains(&self, (px, py): (f64, f64), slack: f64) -> bool {
        let within = |v: f64, (a, b): (f64, f64)| v >= a.min(b) - slack && v <= a.max(b) + slack;
        within(px, self.pixels_x) && within(py, self.pixels_y)
    }

    /// The index of the point (of `points`, in data coordinates) nearest pixel `at`, if one is
    /// within `radius` pixels.
    pub fn nearest(&self, points: impl IntoIterator<Item = (f64, f64)>, at: (f64, f64), radius: f64) -> Option<usize> {
        points
            .into_iter()
            .map(|(x, y)| self.pixel(x, y))
            .enumerate()
            .map(|(i, (px, py))| (i, (px - at.0).hypot(py - at.1)))
            .filter(|(_, d)| *d <= radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}
