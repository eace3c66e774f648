//! Confidence intervals.

use serde::{Deserialize, Serialize};

use super::SeriesPoint;

/// A mean with a two-sided 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
    /// Number of independent values (replications or batches) behind it.
    pub n: usize,
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom.
///
/// Exact table values for df ≤ 30, then interpolation in 1/df towards the normal quantile
/// (error below 10^-3, far under the sampling error of any interval built on it).
pub fn student_t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    const KNOTS: [(f64, f64); 4] = [(30.0, 2.042), (60.0, 2.000), (120.0, 1.980), (f64::INFINITY, 1.960)];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let x = 1.0 / df as f64;
            let seg = KNOTS.windows(2).find(|w| df as f64 <= w[1].0).expect("last knot is infinite");
            let (x0, y0) = (1.0 / seg[0].0, seg[0].1);
            let (x1, y1) = (1.0 / seg[1].0, seg[1].1);
            y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        }
    }
}

/// Mean and t-based 95% interval of independent values. With fewer than two values the
/// interval is unbounded.
pub fn mean_ci(values: &[f64]) -> Interval {
    let n = values.len();
    if n == 0 {
        return Interval { mean: f64::NAN, lo: f64::NEG_INFINITY, hi: f64::INFINITY, n };
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return Interval { mean, lo: f64::NEG_INFINITY, hi: f64::INFINITY, n };
    }
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
    let half = student_t_975(n - 1) * (var / n as f64).sqrt();
    Interval { mean, lo: mean - half, hi: mean + half, n }
}

/// Batch-means interval of a time average: the points are cut into `batches` consecutive
/// groups of (almost) equal length, each group's time-weighted mean is one value.
pub fn batch_means_ci(points: &[SeriesPoint], batches: usize) -> Interval {
    let batches = batches.min(points.len()).max(1);
    let means: Vec<f64> = (0..batches)
        .map(|b| {
            let group = &points[b * points.len() / batches..(b + 1) * points.len() / batches];
            let (sum, len) =
                group.iter().fold((0.0, 0.0), |(s, l), p| (s + p.mean * (p.end - p.start), l + (p.end - p.start)));
            sum / len
        })
        .collect();
    mean_ci(&means)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles() {
        assert_eq!(student_t_975(4), 2.776);
        assert!((student_t_975(40) - 2.021).abs() < 2e-3);
        assert!((student_t_975(100) - 1.984).abs() < 2e-3);
        assert!((student_t_975(100_000) - 1.960).abs() < 1e-3);
    }

    #[test]
    fn interval_of_known_values() {
        let ci = mean_ci(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(ci.mean, 3.0);
        let half = 2.776 * (2.5f64 / 5.0).sqrt();
        assert!((ci.hi - 3.0 - half).abs() < 1e-12);
        assert!(mean_ci(&[1.0]).hi.is_infinite());
    }
}
