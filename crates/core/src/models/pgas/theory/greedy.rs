//! The greedy solutions of PG-AS (SPEC 4.2): GPA(Ŷ) for L servers, which DRA's CRA calls on
//! every event, and its L → ∞ limit, the global greedy assignment x^(g)\[ρ\] with reward
//! U^(g)\[ρ\] (Proposition 3.1, Definition 3.2).
//!
//! Both repeat one step J times: take k = MAXREWARD(K^S) for the types S still in play, find the
//! type of S that k exhausts first, give k as many servers as that type needs, and drop the type.
//! MAXREWARD is a table lookup (see [`RewardInstance::max_reward`]), so a call is O(J²).

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use super::rational::{self, Rational};
use super::{MAX_TYPES, MAX_WORKLOAD, RewardInstance, all_types};
use crate::ConfigError;

/// One GPA iteration: configuration k\[i\] (an index into the instance's configurations), the
/// type j* it removed from S (0-based), and X\[i\], the servers it gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpaStep {
    pub configuration: usize,
    pub removed_type: usize,
    pub servers: u64,
}

/// The global greedy assignment x^(g)\[ρ\] (SPEC 4.2). Type indices are 0-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GreedySolution {
    /// k^(1..J) as configuration indices, in greedy order.
    pub configurations: Vec<usize>,
    /// k^(1..J) as counts per type.
    pub counts: Vec<Vec<u32>>,
    /// σ: the type removed at each step.
    pub order: Vec<usize>,
    /// z: the share each configuration would get with unlimited servers.
    #[serde(with = "rational::text_vec")]
    pub z: Vec<Rational>,
    /// x^(g): z cut off where the shares reach 1.
    #[serde(with = "rational::text_vec")]
    pub x: Vec<Rational>,
    /// The share left on the empty configuration (1 − Σz when Σz < 1, else 0).
    #[serde(with = "rational::text")]
    pub empty_share: Rational,
    /// I_ρ as in the paper (1-based): x is zero after the first `cutoff` configurations;
    /// J + 1 when Σz < 1.
    pub cutoff: usize,
    /// U^(g)\[ρ\] = Σ_i x_i·U(k^(i)).
    #[serde(with = "rational::text")]
    pub reward: Rational,
}

impl GreedySolution {
    /// U^(g)\[ρ\] as the nearest `f64`.
    pub fn reward_f64(&self) -> f64 {
        rational::to_f64(&self.reward)
    }
}

/// What GPA needs of a remaining count r_j: ⌈r_j / k_j⌉ (possibly ≤ 0; RES-23), its clamp to
/// [0, N], and r_j −= X·k_j. Integers serve DRA's hot path (Ŷ = Y(t) + g(L)·1 is a count);
/// rationals serve real-valued Ŷ such as L·ρ.
trait Remaining {
    type Ceil: Ord;
    fn ceil_div(&self, k: u32) -> Self::Ceil;
    fn clamp(ceil: &Self::Ceil, n: u64) -> u64;
    fn sub_mul(&mut self, x: u64, k: u32);
}

/// Counts small enough that no step can overflow (see [`RewardInstance::gpa_into`]): the same
/// arithmetic as `i128`, without its library calls for division and multiplication (a tenth of
/// DRA's time natively, a sixth in WebAssembly, which has no 128-bit instructions at all).
impl Remaining for i64 {
    type Ceil = i64;
    fn ceil_div(&self, k: u32) -> i64 {
        -(-*self).div_euclid(i64::from(k))
    }
    fn clamp(ceil: &i64, n: u64) -> u64 {
        (*ceil).max(0).unsigned_abs().min(n)
    }
    fn sub_mul(&mut self, x: u64, k: u32) {
        *self -= x as i64 * i64::from(k);
    }
}

impl Remaining for i128 {
    type Ceil = i128;
    fn ceil_div(&self, k: u32) -> i128 {
        let k = i128::from(k);
        -(-*self).div_euclid(k)
    }
    fn clamp(ceil: &i128, n: u64) -> u64 {
        (*ceil).clamp(0, i128::from(n)) as u64
    }
    fn sub_mul(&mut self, x: u64, k: u32) {
        *self -= i128::from(x) * i128::from(k);
    }
}

impl Remaining for Rational {
    type Ceil = BigInt;
    fn ceil_div(&self, k: u32) -> BigInt {
        (self / Rational::from_integer(k.into())).ceil().to_integer()
    }
    fn clamp(ceil: &BigInt, n: u64) -> u64 {
        if ceil.is_negative() { 0 } else { ceil.to_u64().map_or(n, |c| c.min(n)) }
    }
    fn sub_mul(&mut self, x: u64, k: u32) {
        *self -= Rational::from_integer(BigInt::from(x) * BigInt::from(k));
    }
}

impl RewardInstance {
    /// GPA(Ŷ) for `servers` = L servers (SPEC 4.2, RES-22, RES-23), with Ŷ a vector of counts
    /// (DRA calls it with Ŷ = Y(t) + g(L)·1). Returns the J pairs (k\[i\], X\[i\]) in order; the
    /// k\[i\] are all different, and once the servers run out the later X\[i\] are 0 but the k\[i\]
    /// are still listed (CRA needs them). Ties for j* go to the lowest type index (RES-22);
    /// X\[i\] = clamp(⌈r_j*/k\[i\]_j*⌉, 0, N), which handles types over-provisioned by an earlier
    /// configuration (RES-23). Σ X\[i\] ≤ L. O(J²), no allocation beyond the returned vector.
    ///
    /// Entries may be any integers (a negative one reads as already over-provisioned).
    /// Panics if `y_hat` does not have one entry per type.
    pub fn gpa(&self, y_hat: &[i64], servers: u64) -> Vec<GpaStep> {
        let mut out = Vec::with_capacity(self.types());
        self.gpa_into(y_hat, servers, &mut out);
        out
    }

    /// [`RewardInstance::gpa`] into a reused vector (cleared first).
    pub fn gpa_into(&self, y_hat: &[i64], servers: u64, out: &mut Vec<GpaStep>) {
        assert_eq!(y_hat.len(), self.types(), "gpa: one Ŷ entry per type");
        // Each r_j starts at Ŷ_j and only decreases, by X·k_j with Σ X ≤ L and k_j < 2^32: with
        // |Ŷ_j| < 2^61 and L < 2^29 it stays above −2^62, so 64 bits hold every step exactly.
        const SMALL: i64 = 1 << 61;
        if servers < 1 << 29 && y_hat.iter().all(|y| (-SMALL..SMALL).contains(y)) {
            let mut r = [0i64; MAX_TYPES];
            r[..y_hat.len()].copy_from_slice(y_hat);
            self.gpa_steps(&mut r[..self.types()], servers, out);
            return;
        }
        let mut r = [0i128; MAX_TYPES];
        for (r, &y) in r.iter_mut().zip(y_hat) {
            *r = i128::from(y);
        }
        self.gpa_steps(&mut r[..self.types()], servers, out);
    }

    /// GPA(Ŷ) for a real-valued Ŷ (for instance L·ρ), exactly. Same contract as
    /// [`RewardInstance::gpa`].
    pub fn gpa_exact(&self, y_hat: &[Rational], servers: u64) -> Vec<GpaStep> {
        assert_eq!(y_hat.len(), self.types(), "gpa: one Ŷ entry per type");
        let mut r = y_hat.to_vec();
        let mut out = Vec::with_capacity(self.types());
        self.gpa_steps(&mut r, servers, &mut out);
        out
    }

    fn gpa_steps<R: Remaining>(&self, r: &mut [R], servers: u64, out: &mut Vec<GpaStep>) {
        out.clear();
        let mut left = servers;
        let mut set = all_types(self.types());
        while set != 0 {
            let c = self.max_reward(set);
            let k = self.configuration(c);
            let mut best: Option<(R::Ceil, usize)> = None;
            for (j, (&kj, rj)) in k.iter().zip(r.iter()).enumerate() {
                // k ∈ K^S, so k_j > 0 only for types still in S. Strict `<` keeps the lowest
                // index on ties (RES-22).
                if kj > 0 {
                    let need = rj.ceil_div(kj);
                    if best.as_ref().is_none_or(|(b, _)| need < *b) {
                        best = Some((need, j));
                    }
                }
            }
            // Every type fits an empty server and rewards are positive, so MAXREWARD of a
            // non-empty set holds at least one job.
            let (need, removed) = best.expect("MAXREWARD of a non-empty type set is not empty");
            let x = R::clamp(&need, left);
            if x > 0 {
                for (rj, &kj) in r.iter_mut().zip(k) {
                    if kj > 0 {
                        rj.sub_mul(x, kj);
                    }
                }
            }
            left -= x;
            set &= !(1u64 << removed);
            out.push(GpaStep { configuration: c, removed_type: removed, servers: x });
        }
    }

    /// The global greedy assignment x^(g)\[ρ\] and U^(g)\[ρ\] (SPEC 4.2; Proposition 3.1,
    /// Definition 3.2), exactly. ρ is the per-server workload, one non-negative entry per type
    /// (error key `rho`).
    pub fn global_greedy(&self, rho: &[Rational]) -> Result<GreedySolution, ConfigError> {
        self.check_rho(rho)?;
        let types = self.types();
        // residual_i = ρ_i − Σ_{l<step} z_l·k^(l)_i, kept up to date; it never goes negative
        // because z_step is the smallest D_i over the types the step's configuration uses.
        let mut residual = rho.to_vec();
        let mut set = all_types(types);
        let (mut configurations, mut counts, mut order, mut z) = (
            Vec::with_capacity(types),
            Vec::with_capacity(types),
            Vec::with_capacity(types),
            Vec::with_capacity(types),
        );
        while set != 0 {
            let c = self.max_reward(set);
            let k = self.configuration(c);
            let mut best: Option<(Rational, usize)> = None;
            for (j, &kj) in k.iter().enumerate() {
                if kj > 0 {
                    let d = &residual[j] / Rational::from_integer(kj.into());
                    if best.as_ref().is_none_or(|(b, _)| d < *b) {
                        best = Some((d, j));
                    }
                }
            }
            let (share, removed) = best.expect("MAXREWARD of a non-empty type set is not empty");
            debug_assert!(!share.is_negative());
            for (r, &kj) in residual.iter_mut().zip(k) {
                if kj > 0 {
                    *r -= &share * Rational::from_integer(kj.into());
                }
            }
            set &= !(1u64 << removed);
            configurations.push(c);
            counts.push(k.to_vec());
            order.push(removed);
            z.push(share);
        }

        // Cumulate: x follows z until the running sum reaches 1 (at I_ρ), then stops.
        let one = rational::int(1);
        let mut x = Vec::with_capacity(types);
        let mut used = Rational::zero();
        let mut cutoff = types + 1;
        for (i, zi) in z.iter().enumerate() {
            if cutoff <= types {
                x.push(Rational::zero());
            } else if &used + zi >= one {
                x.push(&one - &used);
                used = one.clone();
                cutoff = i + 1;
            } else {
                used += zi;
                x.push(zi.clone());
            }
        }
        let empty_share = &one - &used;
        let units: Rational = x
            .iter()
            .zip(&configurations)
            .map(|(xi, &c)| xi * Rational::from_integer(self.configuration_reward_units(c).into()))
            .sum();
        let reward = units / Rational::from_integer(self.reward_denominator().into());
        Ok(GreedySolution { configurations, counts, order, z, x, empty_share, cutoff, reward })
    }

    /// [`RewardInstance::global_greedy`] for an `f64` workload: each ρ_j is read as the
    /// simplest fraction within 1e-12 relative ([`rational::from_f64`]), so α·(4/3) computed
    /// in floating point keeps the exact instance's ties.
    pub fn global_greedy_f64(&self, rho: &[f64]) -> Result<GreedySolution, ConfigError> {
        self.global_greedy(&rho_from_f64(rho)?)
    }

    /// Checks ρ (or Ŷ): one entry per type, each from 0 to [`MAX_WORKLOAD`].
    pub(crate) fn check_rho(&self, rho: &[Rational]) -> Result<(), ConfigError> {
        if rho.len() != self.types() {
            return Err(ConfigError::new(
                "rho",
                format!("{} entries; expected one per type ({})", rho.len(), self.types()),
            ));
        }
        let max = Rational::from_float(MAX_WORKLOAD).expect("finite");
        if let Some(j) = rho.iter().position(|r| r.is_negative() || *r > max) {
            return Err(ConfigError::new(
                "rho",
                format!("type {} has workload {}; expected a value from 0 to {MAX_WORKLOAD:e}", j + 1, rho[j]),
            ));
        }
        Ok(())
    }
}

/// A workload given as `f64`s, as exact fractions (see [`rational::from_f64`]); error key `rho`
/// for an entry outside 0 to [`MAX_WORKLOAD`] (NaN included).
pub fn rho_from_f64(rho: &[f64]) -> Result<Vec<Rational>, ConfigError> {
    rho.iter()
        .enumerate()
        .map(|(j, &r)| {
            if (0.0..=MAX_WORKLOAD).contains(&r) {
                Ok(rational::from_f64(r).expect("finite"))
            } else {
                Err(ConfigError::new(
                    "rho",
                    format!("type {} has workload {r}; expected a value from 0 to {MAX_WORKLOAD:e}", j + 1),
                ))
            }
        })
        .collect()
}
