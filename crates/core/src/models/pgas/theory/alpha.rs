//! PG-AS Fig. 2 as the page draws it live: U^(g)\[αρ\] and U*\[αρ\] against the workload scale α,
//! with the critical points where the greedy parts from the optimum and meets it again (6/7 and
//! 6 on the canonical example, SPEC 4.7).

use serde::{Deserialize, Serialize};

use super::lp::SweepPoint;
use super::{BoundsError, Rational, RewardInstance, rational};

/// Bisection steps per critical point: the grid's spacing over 2^30.
const BISECTIONS: u32 = 30;
/// Two rewards are equal within this relative tolerance. The LP is solved in floating point
/// (its error here is around 10^-12), and near a critical point the gap opens linearly, so a
/// loose tolerance would move the point found: 10^-7 put α = 6 at 5.99997 on the canonical
/// example.
const EQUAL: f64 = 1e-9;

/// The two bounds on a grid of α, and where they part and meet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlphaCurve {
    pub points: Vec<SweepPoint>,
    /// In increasing α.
    pub critical: Vec<CriticalPoint>,
}

/// An α where U^(g) = U* starts or stops holding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriticalPoint {
    pub alpha: f64,
    /// The simplest fraction within 10^-5 (relative) of it, when its denominator is small
    /// ("6/7").
    pub fraction: Option<String>,
    /// True where the greedy falls below the optimum (left of it they are equal), false where
    /// it catches up again.
    pub parting: bool,
}

impl CriticalPoint {
    /// "α = 6/7" or "α = 0.8571".
    pub fn label(&self) -> String {
        match &self.fraction {
            Some(f) => format!("α = {f}"),
            None => format!("α = {:.4}", self.alpha),
        }
    }
}

impl RewardInstance {
    /// U^(g)\[αρ\] and U*\[αρ\] at `steps + 1` evenly spaced α from 0 to `alpha_max`, and the
    /// critical points inside, each found by bisection between the grid points where the two
    /// bounds go from equal to different or back. Costs (steps + 60 per critical point) LP
    /// solves and exact greedy evaluations.
    pub fn alpha_curve(&self, rho: &[Rational], alpha_max: f64, steps: usize) -> Result<AlphaCurve, BoundsError> {
        let alphas: Vec<f64> = (0..=steps).map(|i| alpha_max * i as f64 / steps.max(1) as f64).collect();
        let points = self.sweep(rho, &alphas)?;
        let equal = |p: &SweepPoint| (p.optimal_reward - p.greedy_reward).abs() <= EQUAL * p.optimal_reward.max(1.0);
        let mut critical = Vec::new();
        for pair in points.windows(2) {
            let (left, right) = (&pair[0], &pair[1]);
            if equal(left) == equal(right) {
                continue;
            }
            // Keep `lo` on the left point's side of the change, `hi` on the right point's.
            let (mut lo, mut hi) = (left.alpha, right.alpha);
            for _ in 0..BISECTIONS {
                let mid = 0.5 * (lo + hi);
                let at = &self.sweep(rho, &[mid])?[0];
                if equal(at) == equal(left) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let alpha = 0.5 * (lo + hi);
            let fraction = rational::simplest_within(alpha, 1e-5 * alpha.max(1.0))
                .filter(|q| *q.denom() <= 1000u32.into())
                .map(|q| if q.is_integer() { q.numer().to_string() } else { q.to_string() });
            critical.push(CriticalPoint { alpha, fraction, parting: equal(left) });
        }
        Ok(AlphaCurve { points, critical })
    }
}

#[cfg(test)]
mod tests {
    use crate::models::pgas::theory::instances::{pgas_c2, pgas_c2_rho};

    /// SPEC 4.7: U^(g) = U* for α ≤ 6/7 and α ≥ 6, strictly less in between; at 6/7 both are
    /// 7416/7 and from 6 on 1272.
    #[test]
    fn the_canonical_curve_parts_at_six_sevenths_and_meets_at_six() {
        let curve = pgas_c2().alpha_curve(&pgas_c2_rho(), 10.0, 200).unwrap();
        assert_eq!(curve.points.len(), 201);
        let labels: Vec<String> = curve.critical.iter().map(|c| c.label()).collect();
        assert_eq!(labels, ["α = 6/7", "α = 6"]);
        assert!(curve.critical[0].parting && !curve.critical[1].parting);
        assert!((curve.critical[0].alpha - 6.0 / 7.0).abs() < 1e-6 && (curve.critical[1].alpha - 6.0).abs() < 1e-6);
        let at = |alpha: f64| curve.points.iter().find(|p| (p.alpha - alpha).abs() < 1e-9).unwrap();
        assert!((at(1.0).greedy_reward - 3196.0 / 3.0).abs() < 1e-6 && (at(1.0).optimal_reward - 1236.0).abs() < 1e-4);
        assert!((at(8.0).greedy_reward - 1272.0).abs() < 1e-9);
    }
}
