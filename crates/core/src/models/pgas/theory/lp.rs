//! The LP optimum of PG-AS (SPEC 4.2): U*\[ρ\] (LP (7)) and F*(L, Ŷ) (LP (6)), solved with
//! `microlp`, an exact certificate of the optimum by weak duality, and the bounds a page or
//! the CLI shows next to each other (U^(g), U*, their ratio) with a sweep over α.
//!
//! LP (6): maximise Σ_j u_j Y_j s.t. Y_j ≤ Ŷ_j, Σ_k X_k k_j ≥ Y_j, Σ_k X_k = L, X, Y ≥ 0;
//! LP (7) is L = 1, Ŷ = ρ. Only the **maximal** configurations are columns: every feasible k
//! lies below a maximal k' (componentwise), and moving X_k's weight to k' keeps every
//! constraint (coverage only grows, Y is unchanged), so the optimum is the same. For C2 this
//! keeps 87 of the 1459 columns. The support reported is therefore made of maximal
//! configurations, possibly over-covering some types (Σ_k X_k k_j > Y_j).
//!
//! Exactness. `microlp` works in floating point. [`RewardInstance::optimum_exact`] also solves
//! the dual, min over w ∈ [0, u] of L·max_k w·k + Σ_j Ŷ_j (u_j − w_j), rounds both solutions
//! to the simplest nearby fractions and evaluates them exactly: any X ≥ 0 with Σ X = L gives a
//! lower bound Σ_j u_j min(Ŷ_j, Σ_k X_k k_j), any w ≥ 0 an upper bound. When the two meet, the
//! common value is U* exactly, whatever the solver's rounding.

use microlp::{ComparisonOp, OptimizationDirection, Problem};
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use super::greedy::{GreedySolution, rho_from_f64};
use super::rational::{self, Rational};
use super::{BoundsError, MAX_WORKLOAD, RewardInstance};
use crate::ConfigError;

/// A weight below this (relative to L) is zero in the reported support.
const SUPPORT_TOLERANCE: f64 = 1e-9;

/// A configuration with positive weight in an optimal LP solution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupportEntry {
    /// Configuration index in the instance's enumeration.
    pub configuration: usize,
    pub counts: Vec<u32>,
    /// X_k: a share of the servers for LP (7), a number of servers for LP (6).
    pub weight: f64,
    /// X_k exactly, when the optimum is certified.
    #[serde(with = "rational::text_opt", default, skip_serializing_if = "Option::is_none")]
    pub exact_weight: Option<Rational>,
}

/// An optimal solution of LP (7) or LP (6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LpOptimum {
    /// The optimum: U*\[ρ\] for LP (7), F*(L, Ŷ) for LP (6).
    pub value: f64,
    /// The optimum exactly, when certified (see the module docs).
    #[serde(with = "rational::text_opt", default, skip_serializing_if = "Option::is_none")]
    pub exact_value: Option<Rational>,
    /// The configurations with positive weight, in enumeration order.
    pub support: Vec<SupportEntry>,
    /// Y_j: the jobs of each type served.
    pub served: Vec<f64>,
}

/// U^(g)\[ρ\] next to U*\[ρ\] (SPEC 4.5-4.6): what `packlab bounds` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bounds {
    /// ρ as the exact fractions used.
    #[serde(with = "rational::text_vec")]
    pub rho: Vec<Rational>,
    pub greedy_reward: f64,
    pub optimal_reward: f64,
    /// U^(g)/U* (1 when U* = 0). At most 1: x^(g) is a feasible point of LP (7), so a float
    /// ratio above 1 is solver rounding and is cut to 1.
    pub ratio: f64,
    pub greedy: GreedySolution,
    pub optimum: LpOptimum,
}

/// One point of an α sweep: ρ → α·ρ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub alpha: f64,
    pub greedy_reward: f64,
    pub optimal_reward: f64,
    pub ratio: f64,
}

/// The primal solution in the solver's terms: value in reward units, weights by column.
struct Primal {
    value_units: f64,
    weights: Vec<(usize, f64)>,
    served: Vec<f64>,
}

impl RewardInstance {
    /// U*\[ρ\], the optimum of LP (7) (SPEC 4.2), with an optimal support. ρ: one entry per type
    /// from 0 to [`MAX_WORKLOAD`] (error key `rho`). One `microlp` solve.
    pub fn optimum(&self, rho: &[f64]) -> Result<LpOptimum, BoundsError> {
        self.check_rho_f64(rho, "rho")?;
        self.lp_solution(rho, 1.0)
    }

    /// U*\[ρ\] with the exact value and weights certified by weak duality (see the module docs):
    /// two solves and exact arithmetic over the maximal configurations. `exact_value` is `None`
    /// only if the rounded solutions fail to meet (never seen on the fixtures).
    pub fn optimum_exact(&self, rho: &[Rational]) -> Result<LpOptimum, BoundsError> {
        self.check_rho(rho)?;
        self.lp_solution_exact(rho, &rational::int(1))
    }

    /// F*(L, Ŷ), the optimum of LP (6) for `servers` = L servers and job counts Ŷ (SPEC 4.2,
    /// 4.4: the "upper bound" baseline with Ŷ from an infinite-server replay). Weights are
    /// numbers of servers. Errors: key `y_hat` for a bad Ŷ (entries from 0 to
    /// [`MAX_WORKLOAD`]), `servers` for L < 0 or not finite.
    pub fn lp_bound(&self, y_hat: &[f64], servers: f64) -> Result<LpOptimum, BoundsError> {
        self.check_rho_f64(y_hat, "y_hat")?;
        if !(servers.is_finite() && servers >= 0.0) {
            return Err(ConfigError::new("servers", format!("{servers}; expected a finite number ≥ 0")).into());
        }
        self.lp_solution(y_hat, servers)
    }

    /// [`RewardInstance::lp_bound`] with an optimal dual w (real reward units, w_j ∈ [0, u_j]):
    /// by weak duality F*(L', Ŷ') ≤ L'·max_k w·k + Σ_j Ŷ'_j (u_j − w_j) for **every** L' and Ŷ',
    /// with equality at (L, Ŷ). The upper-bound baseline (SPEC 4.4) keeps these certificates to
    /// evaluate LP (6) along a run without re-solving it at every event. Two solves.
    pub fn lp_bound_with_dual(&self, y_hat: &[f64], servers: f64) -> Result<(LpOptimum, Vec<f64>), BoundsError> {
        let optimum = self.lp_bound(y_hat, servers)?;
        let denominator = self.reward_denominator() as f64;
        let w = self.solve_dual(y_hat, servers)?.into_iter().map(|w| w / denominator).collect();
        Ok((optimum, w))
    }

    /// [`RewardInstance::lp_bound`] with the certified exact value.
    pub fn lp_bound_exact(&self, y_hat: &[Rational], servers: u64) -> Result<LpOptimum, BoundsError> {
        self.check_rho(y_hat).map_err(|e| ConfigError::new("y_hat", e.message))?;
        self.lp_solution_exact(y_hat, &Rational::from_integer(servers.into()))
    }

    /// U^(g)\[ρ\] (exact greedy) and U*\[ρ\] (one solve) with their ratio; ρ as `f64`s is read as
    /// the simplest fractions within 1e-12 relative (see [`super::rational::from_f64`]).
    pub fn bounds(&self, rho: &[f64]) -> Result<Bounds, BoundsError> {
        let exact = rho_from_f64(rho)?;
        let greedy = self.global_greedy(&exact)?;
        let f: Vec<f64> = exact.iter().map(rational::to_f64).collect();
        let optimum = self.lp_solution(&f, 1.0)?;
        let greedy_reward = greedy.reward_f64();
        let ratio = ratio_of(greedy_reward, optimum.value);
        Ok(Bounds { rho: exact, greedy_reward, optimal_reward: optimum.value, ratio, greedy, optimum })
    }

    /// [`RewardInstance::bounds`] with U* certified exact; the ratio is then computed exactly.
    pub fn bounds_exact(&self, rho: &[Rational]) -> Result<Bounds, BoundsError> {
        let greedy = self.global_greedy(rho)?;
        let optimum = self.optimum_exact(rho)?;
        let greedy_reward = greedy.reward_f64();
        let ratio = match &optimum.exact_value {
            Some(opt) if !opt.is_zero() => rational::to_f64(&(&greedy.reward / opt)),
            _ => ratio_of(greedy_reward, optimum.value),
        };
        Ok(Bounds { rho: rho.to_vec(), greedy_reward, optimal_reward: optimum.value, ratio, greedy, optimum })
    }

    /// U^(g) and U* along ρ → α·ρ for each α (SPEC 4.7's Fig. 2 sweep). Each α is read as the
    /// simplest fraction within 1e-12 relative, so 6/7 typed as 0.857142857142857 is 6/7.
    /// One exact greedy and one LP solve per point.
    pub fn sweep(&self, rho: &[Rational], alphas: &[f64]) -> Result<Vec<SweepPoint>, BoundsError> {
        self.check_rho(rho)?;
        let alpha_q = alphas
            .iter()
            .enumerate()
            .map(|(i, &a)| {
                (0.0..=MAX_WORKLOAD).contains(&a).then(|| rational::from_f64(a).expect("finite")).ok_or_else(|| {
                    ConfigError::new(
                        "alpha",
                        format!("point {} is {a}; expected a value from 0 to {MAX_WORKLOAD:e}", i + 1),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        alphas
            .iter()
            .zip(alpha_q)
            .map(|(&alpha, a)| {
                let scaled: Vec<Rational> = rho.iter().map(|r| r * &a).collect();
                let greedy = self.global_greedy(&scaled)?.reward_f64();
                let f: Vec<f64> = scaled.iter().map(rational::to_f64).collect();
                let optimal = self.lp_solution(&f, 1.0)?.value;
                Ok(SweepPoint {
                    alpha,
                    greedy_reward: greedy,
                    optimal_reward: optimal,
                    ratio: ratio_of(greedy, optimal),
                })
            })
            .collect()
    }

    fn check_rho_f64(&self, rho: &[f64], key: &str) -> Result<(), ConfigError> {
        if rho.len() != self.types() {
            return Err(ConfigError::new(
                key,
                format!("{} entries; expected one per type ({})", rho.len(), self.types()),
            ));
        }
        if let Some(j) = rho.iter().position(|r| !(r.is_finite() && *r >= 0.0)) {
            return Err(ConfigError::new(key, format!("type {} has {}; expected a finite value ≥ 0", j + 1, rho[j])));
        }
        Ok(())
    }

    fn lp_solution(&self, bound: &[f64], total: f64) -> Result<LpOptimum, BoundsError> {
        Ok(self.to_optimum(self.solve_primal(bound, total)?))
    }

    fn to_optimum(&self, primal: Primal) -> LpOptimum {
        LpOptimum {
            value: primal.value_units / self.reward_denominator() as f64,
            exact_value: None,
            support: primal
                .weights
                .iter()
                .map(|&(c, w)| SupportEntry {
                    configuration: c,
                    counts: self.configuration(c).to_vec(),
                    weight: w,
                    exact_weight: None,
                })
                .collect(),
            served: primal.served,
        }
    }

    fn lp_solution_exact(&self, bound: &[Rational], total: &Rational) -> Result<LpOptimum, BoundsError> {
        let bound_f: Vec<f64> = bound.iter().map(rational::to_f64).collect();
        let total_f = rational::to_f64(total);
        let primal = self.solve_primal(&bound_f, total_f)?;
        let dual = self.solve_dual(&bound_f, total_f)?;
        let certified = self.certify(bound, total, &primal, &dual);
        let mut out = self.to_optimum(primal);
        if let Some((value_units, weights)) = certified {
            let value = value_units / Rational::from_integer(self.reward_denominator().into());
            out.value = rational::to_f64(&value);
            out.exact_value = Some(value);
            out.support = weights
                .into_iter()
                .filter(|(_, w)| !w.is_zero())
                .map(|(c, w)| SupportEntry {
                    configuration: c,
                    counts: self.configuration(c).to_vec(),
                    weight: rational::to_f64(&w),
                    exact_weight: Some(w),
                })
                .collect();
            // Y_j = min(Ŷ_j, coverage_j) for the exact weights.
            let mut cover = vec![Rational::zero(); self.types()];
            for e in &out.support {
                for (cj, &k) in cover.iter_mut().zip(&e.counts) {
                    *cj += e.exact_weight.as_ref().expect("set above") * Rational::from_integer(k.into());
                }
            }
            out.served = cover.iter().zip(bound).map(|(c, b)| rational::to_f64(c.min(b))).collect();
        }
        Ok(out)
    }

    /// LP (6) over the maximal configurations; objective in reward units.
    fn solve_primal(&self, bound: &[f64], total: f64) -> Result<Primal, BoundsError> {
        let mut lp = Problem::new(OptimizationDirection::Maximize);
        let columns = self.maximal_configurations();
        let weights: Vec<_> = columns.iter().map(|_| lp.add_var(0.0, (0.0, f64::INFINITY))).collect();
        let served: Vec<_> =
            self.reward_units().iter().zip(bound).map(|(&u, &b)| lp.add_var(u as f64, (0.0, b))).collect();
        for (j, &y) in served.iter().enumerate() {
            let mut row: Vec<_> = columns
                .iter()
                .zip(&weights)
                .filter_map(|(&c, &x)| {
                    let kj = self.configuration(c as usize)[j];
                    (kj > 0).then_some((x, f64::from(kj)))
                })
                .collect();
            row.push((y, -1.0));
            lp.add_constraint(row.as_slice(), ComparisonOp::Ge, 0.0);
        }
        let all: Vec<_> = weights.iter().map(|&x| (x, 1.0)).collect();
        lp.add_constraint(all.as_slice(), ComparisonOp::Eq, total);
        let solution = lp.solve().map_err(|e| BoundsError::Solver(e.to_string()))?;
        let cut = SUPPORT_TOLERANCE * total.max(1.0);
        Ok(Primal {
            value_units: solution.objective(),
            weights: columns
                .iter()
                .zip(&weights)
                .map(|(&c, &x)| (c as usize, *solution.var_value(x)))
                .filter(|&(_, w)| w > cut)
                .collect(),
            served: served.iter().map(|&y| *solution.var_value(y)).collect(),
        })
    }

    /// The dual of LP (6): minimise L·θ − Σ_j Ŷ_j w_j (+ Σ_j Ŷ_j u_j) over w ∈ [0, u],
    /// θ ≥ w·k for every maximal k. Returns w in reward units.
    fn solve_dual(&self, bound: &[f64], total: f64) -> Result<Vec<f64>, BoundsError> {
        let mut lp = Problem::new(OptimizationDirection::Minimize);
        let w: Vec<_> = self.reward_units().iter().zip(bound).map(|(&u, &b)| lp.add_var(-b, (0.0, u as f64))).collect();
        let theta = lp.add_var(total, (0.0, f64::INFINITY));
        for &c in self.maximal_configurations() {
            let mut row: Vec<_> = self
                .configuration(c as usize)
                .iter()
                .zip(&w)
                .filter(|(k, _)| **k > 0)
                .map(|(&k, &wj)| (wj, -f64::from(k)))
                .collect();
            row.push((theta, 1.0));
            lp.add_constraint(row.as_slice(), ComparisonOp::Ge, 0.0);
        }
        let solution = lp.solve().map_err(|e| BoundsError::Solver(e.to_string()))?;
        Ok(w.iter().map(|&v| *solution.var_value(v)).collect())
    }

    /// Rounds the primal weights and the dual w to nearby simple fractions (at a few
    /// tolerances), bounds the optimum from below and above exactly, and returns the value
    /// (in reward units) with the primal weights when the best bounds meet.
    fn certify(
        &self,
        bound: &[Rational],
        total: &Rational,
        primal: &Primal,
        dual: &[f64],
    ) -> Option<(Rational, Vec<(usize, Rational)>)> {
        const TOLERANCES: [f64; 4] = [1e-9, 1e-7, 1e-11, 1e-5];
        let total_f = rational::to_f64(total).max(1.0);
        let mut best_low: Option<(Rational, Vec<(usize, Rational)>)> = None;
        for tol in TOLERANCES {
            let Some(weights) = self.round_weights(&primal.weights, total, tol * total_f) else { continue };
            let low = self.primal_value(bound, &weights);
            if best_low.as_ref().is_none_or(|(b, _)| low > *b) {
                best_low = Some((low, weights));
            }
        }
        let (low, weights) = best_low?;
        for tol in TOLERANCES {
            let w: Vec<Rational> = dual
                .iter()
                .zip(self.reward_units())
                .map(|(&v, &u)| {
                    let q = rational::simplest_within(v, tol * (u as f64).max(1.0)).unwrap_or_else(Rational::zero);
                    q.max(Rational::zero()).min(Rational::from_integer(u.into()))
                })
                .collect();
            if self.dual_value(bound, total, &w) == low {
                return Some((low, weights));
            }
        }
        None
    }

    /// The weights as simple fractions, the last adjusted so they sum to L exactly; `None` if
    /// that makes it negative.
    fn round_weights(&self, weights: &[(usize, f64)], total: &Rational, tol: f64) -> Option<Vec<(usize, Rational)>> {
        let (&(last, _), rest) = weights.split_last()?;
        let mut out: Vec<(usize, Rational)> = rest
            .iter()
            .map(|&(c, w)| (c, rational::simplest_within(w, tol).unwrap_or_else(Rational::zero).max(Rational::zero())))
            .collect();
        let used: Rational = out.iter().map(|(_, w)| w).sum();
        let rest_weight = total - used;
        if rest_weight < Rational::zero() {
            return None;
        }
        out.push((last, rest_weight));
        Some(out)
    }

    /// Σ_j u_j min(Ŷ_j, Σ_k X_k k_j) in reward units: LP (6)'s objective at X, a lower bound.
    pub(super) fn primal_value(&self, bound: &[Rational], weights: &[(usize, Rational)]) -> Rational {
        let mut cover = vec![Rational::zero(); self.types()];
        for (c, w) in weights {
            for (cj, &k) in cover.iter_mut().zip(self.configuration(*c)) {
                if k > 0 {
                    *cj += w * Rational::from_integer(k.into());
                }
            }
        }
        cover
            .iter()
            .zip(bound)
            .zip(self.reward_units())
            .map(|((c, b), &u)| c.min(b) * Rational::from_integer(u.into()))
            .sum()
    }

    /// L·max_k w·k + Σ_j Ŷ_j (u_j − w_j) in reward units: the dual objective at w, an upper
    /// bound for any w ≥ 0 (max over maximal k suffices since w ≥ 0).
    fn dual_value(&self, bound: &[Rational], total: &Rational, w: &[Rational]) -> Rational {
        // Common denominator, so the scan over configurations is integer arithmetic.
        let denom = w.iter().fold(BigInt::from(1), |d, q| num_integer::Integer::lcm(&d, q.denom()));
        let numer: Vec<BigInt> = w.iter().map(|q| (q * Rational::from_integer(denom.clone())).to_integer()).collect();
        let small: Option<Vec<i64>> = numer.iter().map(|n| n.to_i64()).collect();
        let best = match small {
            // i64 numerators times u32 counts, summed over at most 16 types: fits i128.
            Some(a) => {
                let best = self
                    .maximal_configurations()
                    .iter()
                    .map(|&c| {
                        self.configuration(c as usize)
                            .iter()
                            .zip(&a)
                            .map(|(&k, &aj)| i128::from(k) * i128::from(aj))
                            .sum::<i128>()
                    })
                    .max()
                    .unwrap_or(0);
                BigInt::from(best)
            }
            None => self
                .maximal_configurations()
                .iter()
                .map(|&c| {
                    self.configuration(c as usize)
                        .iter()
                        .zip(&numer)
                        .map(|(&k, aj)| aj * BigInt::from(k))
                        .sum::<BigInt>()
                })
                .max()
                .unwrap_or_else(BigInt::zero),
        };
        let theta = Rational::new(best, denom);
        let rest: Rational = bound
            .iter()
            .zip(w)
            .zip(self.reward_units())
            .map(|((b, wj), &u)| b * (Rational::from_integer(u.into()) - wj))
            .sum();
        total * theta + rest
    }
}

/// greedy / optimal, 1 when the optimum is 0, never above 1 (see [`Bounds::ratio`]).
fn ratio_of(greedy: f64, optimal: f64) -> f64 {
    if optimal <= 0.0 { 1.0 } else { (greedy / optimal).min(1.0) }
}
