//! PG-AS static optimisation (SPEC 4.1, 4.2, 4.5): reward instances, the configuration order
//! ≻ (Definition 2.2), MAXREWARD, the Greedy Placement Algorithm, the global greedy x^(g)\[ρ\]
//! with its reward U^(g)\[ρ\], and the LP optimum U*\[ρ\] (LP (7), and LP (6) for L servers).
//!
//! An instance is J job types with integer demand vectors and integer reward rates on one
//! server capacity (RES-3). Its feasible configurations are enumerated once
//! ([`Configurations`]) and ranked by ≻ once; MAXREWARD(K^{J'}) of every subset J' is then
//! tabulated at construction, so it costs one lookup and never depends on the workload ρ.
//!
//! * [`greedy`]: GPA (finite L, the routine DRA calls on every event) and the global greedy.
//! * [`lp`]: U*\[ρ\] and LP (6) with `microlp`, and an exact certificate of U* by weak duality.
//! * [`packing`]: GPA for DRA on an enumerated instance or on trace types (RES-36 shortcut).
//! * [`instances`]: the paper's instances (C2, C6, the J = 2 worst case) and the C1 random VM
//!   collections with their ratio statistics.
//! * [`rational`]: exact rationals and how `f64` inputs become them.

pub mod alpha;
pub mod greedy;
pub mod instances;
pub mod lp;
pub mod packing;
pub mod rational;

#[cfg(test)]
mod tests;

use std::cmp::Ordering;

use thiserror::Error;

use crate::ConfigError;
use crate::resources::{Configurations, Resources};

pub use alpha::{AlphaCurve, CriticalPoint};
pub use greedy::{GpaStep, GreedySolution};
pub use instances::{CollectionResult, CollectionSummary, MemoryDraw, RandomCollection, Vm, c1_statistics};
pub use lp::{Bounds, LpOptimum, SupportEntry, SweepPoint};
pub use packing::{HomogeneousTypes, Packing};
pub use rational::Rational;

/// Most job types: MAXREWARD is tabulated for all 2^J subsets.
pub const MAX_TYPES: usize = 16;
/// Largest reward rate, in reward units (keeps every U(k) and LP coefficient far from
/// overflow and from f64's 2^53).
pub const MAX_REWARD: u64 = 1_000_000_000;
/// Largest workload ρ_j or job count Ŷ_j the bounds accept (the LP works in `f64`).
pub const MAX_WORKLOAD: f64 = 1e9;

/// Why a bound could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoundsError {
    /// An input out of range (the key names it).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The LP solver gave up. LP (7) is always feasible and bounded, so this is numerical.
    #[error("the LP solver failed: {0}")]
    Solver(String),
}

/// A PG-AS instance (SPEC 4.1): J job types with demand vectors R_j and reward rates u_j on
/// servers of one capacity, with its feasible configurations K.
///
/// Reward rates are integers in units of 1/`reward_denominator` (1 unless set), so every
/// comparison of U(k) is exact and fractional rates such as the worst-case example's
/// u = (1/2, 1/(2(N+1))) are still exact. Every reward this module reports is in those real
/// units, i.e. already divided by the denominator.
#[derive(Debug, Clone)]
pub struct RewardInstance {
    demands: Vec<Resources>,
    rewards: Vec<u64>,
    reward_denominator: u64,
    capacity: Resources,
    configurations: Configurations,
    /// U(k) of every configuration, in reward units.
    config_rewards: Vec<u64>,
    /// Bit j set when the configuration holds a type-j job.
    supports: Vec<u32>,
    /// MAXREWARD(K^{J'}) as a configuration index, for every subset mask J' < 2^J.
    max_reward: Vec<u32>,
    /// Indices of the maximal configurations: the LP's columns (see [`lp`]).
    maximal: Vec<u32>,
    /// K_max: the most jobs one server holds.
    max_jobs: u32,
}

impl RewardInstance {
    /// Validates the instance and enumerates its configurations (SPEC 1.4).
    ///
    /// Errors name the field: `types` (1 to [`MAX_TYPES`] demand vectors of the capacity's
    /// dimension, each using some resource and fitting an empty server), `rewards` (one
    /// integer per type, 1 to [`MAX_REWARD`]), `capacity` (configurations: at most
    /// [`crate::resources::configurations::MAX_CONFIGURATIONS`]).
    pub fn new(demands: Vec<Resources>, rewards: Vec<u64>, capacity: Resources) -> Result<Self, ConfigError> {
        let types = demands.len();
        if !(1..=MAX_TYPES).contains(&types) {
            return Err(ConfigError::new("types", format!("{types} job types; expected 1 to {MAX_TYPES}")));
        }
        for (j, d) in demands.iter().enumerate() {
            let t = j + 1;
            if d.dims() != capacity.dims() {
                return Err(ConfigError::new(
                    "types",
                    format!("type {t} has {} resources; the server has {}", d.dims(), capacity.dims()),
                ));
            }
            if d.as_slice().iter().all(|&a| a == 0) {
                return Err(ConfigError::new(
                    "types",
                    format!("type {t} demands nothing; every type needs some resource"),
                ));
            }
            if !d.le(&capacity) {
                return Err(ConfigError::new(
                    "types",
                    format!(
                        "type {t} demands {:?}, more than the server's {:?}; every type must fit an empty server",
                        d, capacity
                    ),
                ));
            }
        }
        if rewards.len() != types {
            return Err(ConfigError::new(
                "rewards",
                format!("{} rewards for {types} types; expected one per type", rewards.len()),
            ));
        }
        if let Some(j) = rewards.iter().position(|u| !(1..=MAX_REWARD).contains(u)) {
            return Err(ConfigError::new(
                "rewards",
                format!("type {} has reward {}; expected an integer from 1 to {MAX_REWARD}", j + 1, rewards[j]),
            ));
        }
        let configurations = Configurations::enumerate(&demands, &capacity).map_err(|e| {
            ConfigError::new(
                "capacity",
                format!(
                    "more than {} feasible configurations; use fewer or larger types, or a smaller server",
                    e.limit
                ),
            )
        })?;

        let n = configurations.len();
        let mut config_rewards = Vec::with_capacity(n);
        let mut supports = Vec::with_capacity(n);
        let mut max_jobs = 0;
        for k in configurations.iter() {
            // At most MAX_CONFIGURATIONS jobs of a type and rewards ≤ 10^9: no overflow.
            config_rewards.push(k.iter().zip(&rewards).map(|(&c, &u)| u64::from(c) * u).sum());
            supports.push(k.iter().enumerate().filter(|(_, c)| **c > 0).fold(0u32, |m, (j, _)| m | (1 << j)));
            max_jobs = max_jobs.max(k.iter().sum());
        }
        let maximal = (0..n).filter(|&i| configurations.is_maximal(i)).map(|i| i as u32).collect();
        let mut instance = Self {
            demands,
            rewards,
            reward_denominator: 1,
            capacity,
            configurations,
            config_rewards,
            supports,
            max_reward: Vec::new(),
            maximal,
            max_jobs,
        };
        instance.max_reward = instance.tabulate_max_reward();
        Ok(instance)
    }

    /// Reads the reward rates as multiples of 1/`denominator` (1 to [`MAX_REWARD`]).
    pub fn with_reward_denominator(mut self, denominator: u64) -> Result<Self, ConfigError> {
        if !(1..=MAX_REWARD).contains(&denominator) {
            return Err(ConfigError::new(
                "reward_denominator",
                format!("{denominator}; expected an integer from 1 to {MAX_REWARD}"),
            ));
        }
        self.reward_denominator = denominator;
        Ok(self)
    }

    /// MAXREWARD(K^{J'}) for every J' at once: the ≻-best configuration whose support is
    /// exactly m, then a subset-maximum transform over the masks (O(2^J·J)), so each later
    /// query is a lookup (SPEC 4.2: "cache results per subset").
    fn tabulate_max_reward(&self) -> Vec<u32> {
        let types = self.types();
        let mut best = vec![u32::MAX; 1 << types];
        for (i, &m) in self.supports.iter().enumerate() {
            let slot = &mut best[m as usize];
            if *slot == u32::MAX || self.order(i, *slot as usize) == Ordering::Greater {
                *slot = i as u32;
            }
        }
        // The zero configuration (index 0) is the only one with support ∅.
        debug_assert_eq!(best[0], 0);
        for j in 0..types {
            for m in 0..best.len() {
                if m & (1 << j) != 0 {
                    let sub = best[m ^ (1 << j)];
                    let here = best[m];
                    if here == u32::MAX
                        || (sub != u32::MAX && self.order(sub as usize, here as usize) == Ordering::Greater)
                    {
                        best[m] = sub;
                    }
                }
            }
        }
        debug_assert!(best.iter().all(|&b| b != u32::MAX), "the zero configuration is in every K^J'");
        best
    }

    /// Number of job types J.
    pub fn types(&self) -> usize {
        self.demands.len()
    }

    pub fn demands(&self) -> &[Resources] {
        &self.demands
    }

    pub fn capacity(&self) -> &Resources {
        &self.capacity
    }

    /// Reward rates u_j in reward units (see [`RewardInstance::reward_denominator`]).
    pub fn reward_units(&self) -> &[u64] {
        &self.rewards
    }

    /// The reward units are 1/denominator.
    pub fn reward_denominator(&self) -> u64 {
        self.reward_denominator
    }

    /// Reward rate u_j, exactly.
    pub fn reward(&self, j: usize) -> Rational {
        self.units_to_reward(u128::from(self.rewards[j]))
    }

    /// The feasible configurations K (zero included), in lexicographic order.
    pub fn configurations(&self) -> &Configurations {
        &self.configurations
    }

    /// Configuration `i` as counts per type.
    pub fn configuration(&self, i: usize) -> &[u32] {
        self.configurations.get(i)
    }

    /// K_max: the most jobs one server holds (Proposition 3.5's bound uses it).
    pub fn max_jobs(&self) -> u32 {
        self.max_jobs
    }

    /// U(k) = Σ_j u_j·k_j of configuration `i`, exactly.
    pub fn configuration_reward(&self, i: usize) -> Rational {
        self.units_to_reward(u128::from(self.config_rewards[i]))
    }

    /// U(k) of configuration `i` in reward units.
    pub fn configuration_reward_units(&self, i: usize) -> u64 {
        self.config_rewards[i]
    }

    /// U(k) of any count vector, exactly (the vector need not be feasible).
    pub fn reward_of(&self, counts: &[u32]) -> Rational {
        assert_eq!(counts.len(), self.types(), "one count per type");
        self.units_to_reward(counts.iter().zip(&self.rewards).map(|(&c, &u)| u128::from(c) * u128::from(u)).sum())
    }

    fn units_to_reward(&self, units: u128) -> Rational {
        Rational::new(units.into(), self.reward_denominator.into())
    }

    /// The configuration order of Definition 2.2 between configurations `a` and `b`:
    /// `Greater` means a ≻ b (higher U(k); on equal U, larger at the first type where they
    /// differ, so lower type indices are tie-break priorities). Configurations are enumerated
    /// in lexicographic order, so the second key is the index itself.
    pub fn order(&self, a: usize, b: usize) -> Ordering {
        self.config_rewards[a].cmp(&self.config_rewards[b]).then(a.cmp(&b))
    }

    /// ≻ on count vectors of this instance (feasible or not): `Greater` means a ≻ b.
    pub fn order_counts(&self, a: &[u32], b: &[u32]) -> Ordering {
        let u = |k: &[u32]| -> u128 { k.iter().zip(&self.rewards).map(|(&c, &r)| u128::from(c) * u128::from(r)).sum() };
        u(a).cmp(&u(b)).then_with(|| a.cmp(b))
    }

    /// MAXREWARD(K^{J'}) (SPEC 4.2): the ≻-maximal configuration using only the types in the
    /// bitmask `subset` (bit j for type j, 0-based), as a configuration index. The empty set
    /// gives the zero configuration. O(1): the table is built with the instance.
    pub fn max_reward(&self, subset: u64) -> usize {
        let full = (1u64 << self.types()) - 1;
        debug_assert_eq!(subset & !full, 0, "subset has bits beyond the types");
        self.max_reward[(subset & full) as usize] as usize
    }

    /// MAXREWARD(K^{J'}) as counts per type.
    pub fn max_reward_counts(&self, subset: u64) -> &[u32] {
        self.configuration(self.max_reward(subset))
    }

    /// The greedy configuration set K^(g) = {MAXREWARD(K^{J'}) : J' ⊆ J} ∪ {0} (Definition
    /// 3.3), as configuration indices in ≻ order, best first. For analysis and diagnostics.
    pub fn greedy_configuration_set(&self) -> Vec<usize> {
        let mut set: Vec<usize> = self.max_reward.iter().map(|&i| i as usize).collect();
        set.sort_unstable_by(|&a, &b| self.order(b, a));
        set.dedup();
        set
    }

    /// Indices of the maximal configurations.
    pub fn maximal_configurations(&self) -> &[u32] {
        &self.maximal
    }
}

/// The bitmask of all J types.
pub(crate) fn all_types(types: usize) -> u64 {
    (1u64 << types) - 1
}
