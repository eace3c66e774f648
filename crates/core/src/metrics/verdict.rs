//! The instability verdict of a run.
//!
//! A stable queue fluctuates around a level; an unstable one grows roughly linearly. The
//! verdict looks at the second half of the run, where the start-up transient has faded:
//!
//! 1. the interval means of Q(t) in the second half are grouped into (up to) 20 batches;
//! 2. an ordinary least-squares line is fitted to the batch means against time;
//! 3. the run is **unstable** when the slope is significantly positive (t-statistic ≥ 3 on
//!    the batch residuals), the fitted rise over the half is at least 20% of the mean level
//!    there, and the rise is at least 2 jobs.
//!
//! The second and third conditions stop two kinds of false alarms: a long stable run makes
//! even a tiny upward wobble "significant", and a near-empty queue can rise from 0.1 to 0.3
//! jobs by chance. Linear growth from an empty start rises by 2/3 of its second-half level, so
//! growth that is real clears 20% easily. Like any finite-horizon test it can miss a very
//! slow drift; the tests pin it on the presets with the horizons they use.

use serde::{Deserialize, Serialize};

use super::SeriesPoint;

/// Batches the second half is cut into.
const BATCHES: usize = 20;
const MIN_T_STAT: f64 = 3.0;
const MIN_RELATIVE_RISE: f64 = 0.2;
const MIN_ABSOLUTE_RISE: f64 = 2.0;

/// The test in a sentence, for a table's note.
pub const VERDICT_RULE: &str = "UNSTABLE when the queue grows over the second half of the run so far";

/// A verdict as reports word it.
pub fn verdict_word(unstable: bool) -> &'static str {
    if unstable { "UNSTABLE" } else { "stable" }
}

/// The outcome of the trend test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TrendVerdict {
    pub unstable: bool,
    /// Fitted growth per time unit over the second half.
    pub slope: f64,
    pub t_stat: f64,
    /// Fitted rise over the second half.
    pub rise: f64,
    /// Mean level over the second half.
    pub level: f64,
}

impl TrendVerdict {
    fn undecided() -> Self {
        Self { unstable: false, slope: 0.0, t_stat: 0.0, rise: 0.0, level: 0.0 }
    }
}

/// A least-squares line through the means of `batches` consecutive batches of `points` (each
/// batch's mean weighted by its points' lengths, placed at the batch's middle). `None` with
/// fewer than five batches. The verdict and the stability map's growth both fit this line.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchFit {
    pub slope: f64,
    /// The batches' middles and means, and their averages.
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    pub mean_x: f64,
    pub mean_y: f64,
    /// Σ (x − mean_x)².
    pub sxx: f64,
}

impl BatchFit {
    pub fn of(points: &[SeriesPoint], batches: usize) -> Option<Self> {
        let batches = batches.min(points.len());
        if batches < 5 {
            return None;
        }
        let (xs, ys): (Vec<f64>, Vec<f64>) = (0..batches)
            .map(|b| {
                let group = &points[b * points.len() / batches..(b + 1) * points.len() / batches];
                let len: f64 = group.iter().map(|p| p.end - p.start).sum();
                let mean = group.iter().map(|p| p.mean * (p.end - p.start)).sum::<f64>() / len;
                ((group[0].start + group[group.len() - 1].end) / 2.0, mean)
            })
            .unzip();
        let n = batches as f64;
        let mean_x = xs.iter().sum::<f64>() / n;
        let mean_y = ys.iter().sum::<f64>() / n;
        let sxx: f64 = xs.iter().map(|x| (x - mean_x) * (x - mean_x)).sum();
        let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mean_x) * (y - mean_y)).sum();
        Some(Self { slope: sxy / sxx, xs, ys, mean_x, mean_y, sxx })
    }
}

/// Applies the test to the points of a series covering `[0, end)`.
pub fn trend_verdict(points: &[SeriesPoint], end: f64) -> TrendVerdict {
    let half: Vec<SeriesPoint> = points.iter().copied().filter(|p| p.start >= end / 2.0).collect();
    let Some(BatchFit { slope, xs, ys, mean_x: mx, mean_y: my, sxx }) = BatchFit::of(&half, BATCHES) else {
        return TrendVerdict::undecided();
    };
    let n = xs.len() as f64;
    let residual: f64 = xs.iter().zip(&ys).map(|(x, y)| (y - my - slope * (x - mx)).powi(2)).sum();
    let se = (residual / (n - 2.0) / sxx).sqrt();
    let t_stat = if se > 0.0 {
        slope / se
    } else if slope > 0.0 {
        f64::INFINITY
    } else {
        0.0
    };
    let span = half[half.len() - 1].end - half[0].start;
    let rise = slope * span;
    let unstable = t_stat >= MIN_T_STAT && rise >= MIN_RELATIVE_RISE * my.max(0.0) && rise >= MIN_ABSOLUTE_RISE;
    TrendVerdict { unstable, slope, t_stat, rise, level: my }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(f: impl Fn(f64) -> f64, n: usize) -> Vec<SeriesPoint> {
        (0..n).map(|i| SeriesPoint { start: i as f64, end: i as f64 + 1.0, mean: f(i as f64) }).collect()
    }

    #[test]
    fn linear_growth_is_unstable() {
        let v = trend_verdict(&points(|t| 0.01 * t + (t * 7.3).sin(), 4000), 4000.0);
        assert!(v.unstable, "{v:?}");
        assert!((v.slope - 0.01).abs() < 0.001);
    }

    #[test]
    fn a_flat_noisy_level_is_stable() {
        let v = trend_verdict(&points(|t| 20.0 + 5.0 * (t * 7.3).sin(), 4000), 4000.0);
        assert!(!v.unstable, "{v:?}");
    }

    #[test]
    fn a_tiny_significant_drift_on_a_high_level_is_stable() {
        let v = trend_verdict(&points(|t| 100.0 + 1e-4 * t, 4000), 4000.0);
        assert!(!v.unstable, "{v:?}");
    }

    #[test]
    fn too_short_is_undecided() {
        assert!(!trend_verdict(&points(|t| t, 6), 6.0).unstable);
    }
}
