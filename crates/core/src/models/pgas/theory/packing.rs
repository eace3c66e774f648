//! What DRA and the upper bound need of a PG-AS instance: GPA (SPEC 4.2) and the slots of
//! each configuration, either from an enumerated [`RewardInstance`] or from the RES-36
//! shortcut for trace types.
//!
//! Trace types (SPEC 4.7, PGAS-C5) are one-dimensional, of size 2^−m of a server, with reward
//! rate size × factor (1, 3, 9 by priority). A trace has up to 3 × 11 such types and servers of
//! up to 1024 slots, far too many configurations to enumerate. But with the types indexed by
//! priority, then size, descending (RES-36), MAXREWARD of any type set is the homogeneous
//! configuration 2^m × (its first type): no configuration earns more than the top factor per
//! unit of capacity, only full ones of top-priority types reach it, and the ≻ tie-break
//! prefers the most jobs of the lowest index. So GPA allocates ⌈Ŷ_j / 2^{m_j}⌉ servers to
//! each type in index order until servers run out, in O(J).

use std::sync::Arc;

use super::{GpaStep, RewardInstance};
use crate::ConfigError;

/// The configurations of a PG-AS model, as GPA sees them.
#[derive(Debug, Clone)]
pub enum Packing {
    /// An instance whose configurations are enumerated (C2, C6, VM lists).
    Enumerated(Arc<RewardInstance>),
    /// Trace types under RES-36: configuration `j` is 2^{m_j} jobs of type j.
    Homogeneous(HomogeneousTypes),
}

/// One-dimensional types of power-of-two sizes with reward = size × factor, in RES-36 order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomogeneousTypes {
    /// Server capacity in size units (a power of two).
    capacity: u64,
    /// Size of each type in units (a power of two dividing the capacity).
    sizes: Vec<u64>,
    /// Reward factor of each type (per unit of size and time).
    factors: Vec<u64>,
}

impl HomogeneousTypes {
    /// Checks the RES-36 order (factor descending, then size descending, no two types equal)
    /// and that every size is a power of two dividing the capacity (error key `types`).
    pub fn new(capacity: u64, sizes: Vec<u64>, factors: Vec<u64>) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new("types", m);
        if sizes.is_empty() || sizes.len() != factors.len() {
            return Err(err(format!(
                "{} sizes and {} factors; expected one of each per type",
                sizes.len(),
                factors.len()
            )));
        }
        if !capacity.is_power_of_two() {
            return Err(err(format!("capacity {capacity} is not a power of two")));
        }
        for (j, (&s, &f)) in sizes.iter().zip(&factors).enumerate() {
            if !s.is_power_of_two() || s > capacity || f == 0 {
                return Err(err(format!("type {}: size {s} of {capacity}, factor {f}", j + 1)));
            }
        }
        for j in 1..sizes.len() {
            let (a, b) = ((factors[j - 1], sizes[j - 1]), (factors[j], sizes[j]));
            if a <= b {
                return Err(err(format!(
                    "types {} and {} are not in order (priority, then size, descending)",
                    j,
                    j + 1
                )));
            }
        }
        Ok(Self { capacity, sizes, factors })
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    pub fn factors(&self) -> &[u64] {
        &self.factors
    }

    /// Slots of type `j` in its homogeneous configuration: 2^{m_j}.
    pub fn slots(&self, j: usize) -> u32 {
        (self.capacity / self.sizes[j]) as u32
    }
}

impl Packing {
    /// Number of job types J.
    pub fn types(&self) -> usize {
        match self {
            Self::Enumerated(i) => i.types(),
            Self::Homogeneous(h) => h.sizes.len(),
        }
    }

    /// How many configurations GPA can name (indices `0..configurations()`).
    pub fn configurations(&self) -> usize {
        match self {
            Self::Enumerated(i) => i.configurations().len(),
            Self::Homogeneous(h) => h.sizes.len(),
        }
    }

    /// The slots of configuration `c` per type.
    pub fn counts(&self, c: usize) -> Vec<u32> {
        match self {
            Self::Enumerated(i) => i.configuration(c).to_vec(),
            Self::Homogeneous(h) => {
                let mut k = vec![0; h.sizes.len()];
                k[c] = h.slots(c);
                k
            }
        }
    }

    /// GPA(Ŷ) for `servers` servers into `out` (see [`RewardInstance::gpa_into`]): J steps in
    /// order, Σ X ≤ L. O(J²) enumerated (MAXREWARD is a table lookup), O(J) homogeneous.
    pub fn gpa_into(&self, y_hat: &[i64], servers: u64, out: &mut Vec<GpaStep>) {
        match self {
            Self::Enumerated(i) => i.gpa_into(y_hat, servers, out),
            Self::Homogeneous(h) => {
                assert_eq!(y_hat.len(), h.sizes.len(), "gpa: one Ŷ entry per type");
                out.clear();
                let mut left = servers;
                for (j, &y) in y_hat.iter().enumerate() {
                    let slots = i64::from(h.slots(j));
                    // ⌈y / slots⌉ clamped to [0, N] (RES-23).
                    let need = if y <= 0 { 0 } else { ((y + slots - 1) / slots) as u64 };
                    let x = need.min(left);
                    left -= x;
                    out.push(GpaStep { configuration: j, removed_type: j, servers: x });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::Resources;

    /// The shortcut is GPA: on a small trace-like instance enumerated in full, the homogeneous
    /// steps equal RewardInstance's GPA for every Ŷ tried.
    #[test]
    fn homogeneous_shortcut_is_gpa() {
        // Priorities 2, 1, 0 with sizes 1/2 and 1/4 of a capacity of 4 units, RES-36 order.
        let sizes = vec![2, 1, 2, 1, 2, 1];
        let factors = vec![9, 9, 3, 3, 1, 1];
        let h = HomogeneousTypes::new(4, sizes.clone(), factors.clone()).unwrap();
        let demands = sizes.iter().map(|&s| Resources::scalar(s)).collect();
        let rewards = sizes.iter().zip(&factors).map(|(s, f)| s * f).collect();
        let full = Packing::Enumerated(Arc::new(RewardInstance::new(demands, rewards, Resources::scalar(4)).unwrap()));
        let short = Packing::Homogeneous(h);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for seed in 0..400i64 {
            let y: Vec<i64> = (0..6).map(|j| (seed * 7 + j * 13) % 11 - 2).collect();
            let servers = (seed % 9) as u64;
            full.gpa_into(&y, servers, &mut a);
            short.gpa_into(&y, servers, &mut b);
            let counts = |p: &Packing, s: &[GpaStep]| -> Vec<(Vec<u32>, u64)> {
                s.iter().map(|st| (p.counts(st.configuration), st.servers)).collect()
            };
            assert_eq!(counts(&full, &a), counts(&short, &b), "Ŷ = {y:?}, L = {servers}");
        }
    }

    #[test]
    fn res36_order_is_checked() {
        assert!(HomogeneousTypes::new(4, vec![1, 2], vec![9, 9]).is_err());
        assert!(HomogeneousTypes::new(4, vec![2, 2], vec![3, 9]).is_err());
        assert!(HomogeneousTypes::new(4, vec![3], vec![1]).is_err());
        assert!(HomogeneousTypes::new(4, vec![8], vec![1]).is_err());
        assert!(HomogeneousTypes::new(6, vec![2], vec![1]).is_err());
        assert_eq!(HomogeneousTypes::new(1024, vec![1024, 1], vec![9, 1]).unwrap().slots(1), 1024);
    }
}
