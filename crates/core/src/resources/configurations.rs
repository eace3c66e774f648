//! Feasible configurations of a server (SPEC 1.4): every vector k ∈ Z_+^J of job counts per
//! type whose total demand fits the server's capacity in every resource.
//!
//! GH-RA's MaxWeight baselines pick one of them per server, GH-RA's traffic vector V averages
//! the maximal ones, and PG-AS's MAXREWARD maximises over subsets of them. The enumeration is a
//! depth-first search over types 1..J, with k_j running from 0 up to what the residual
//! capacity allows, so only feasible prefixes are ever extended. Amounts are integers
//! (RES-3), so "fits" is exact.

use super::Resources;

/// Most configurations an enumeration may produce before it gives up (a user's types can be
/// tiny next to the server; the presets have at most a few thousand).
pub const MAX_CONFIGURATIONS: usize = 200_000;

/// Most configurations a whole fleet may have over its distinct server capacities: a fleet of
/// a thousand servers of distinct capacities would otherwise enumerate (and MaxWeight keep)
/// a table each, minutes of work and gigabytes from a link of a few kilobytes.
pub const MAX_FLEET_CONFIGURATIONS: usize = 2_000_000;

/// The configurations of each distinct capacity of a fleet, enumerated under one budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetConfigurations {
    /// Each distinct capacity, in order of first appearance, with its configurations.
    pub distinct: Vec<(Resources, Configurations)>,
    /// For each server, the index of its capacity in `distinct`.
    pub of_server: Vec<usize>,
}

impl FleetConfigurations {
    /// Enumerates the configurations of every distinct capacity in `capacities`: at most
    /// [`MAX_CONFIGURATIONS`] each and [`MAX_FLEET_CONFIGURATIONS`] in all.
    pub fn enumerate(demands: &[Resources], capacities: &[Resources]) -> Result<Self, TooManyConfigurations> {
        let mut distinct: Vec<(Resources, Configurations)> = Vec::new();
        let mut of_server = Vec::with_capacity(capacities.len());
        let mut total = 0;
        for c in capacities {
            let index =
                match distinct.iter().position(|(d, _)| d == c) {
                    Some(i) => i,
                    None => {
                        let left = MAX_FLEET_CONFIGURATIONS - total;
                        let configs = Configurations::enumerate_within(demands, c, left.min(MAX_CONFIGURATIONS))
                            .map_err(|_| TooManyConfigurations {
                                limit: if left < MAX_CONFIGURATIONS {
                                    MAX_FLEET_CONFIGURATIONS
                                } else {
                                    MAX_CONFIGURATIONS
                                },
                            })?;
                        total += configs.len();
                        distinct.push((*c, configs));
                        distinct.len() - 1
                    }
                };
            of_server.push(index);
        }
        Ok(Self { distinct, of_server })
    }
}

/// The feasible configurations of one server capacity for a list of job types, in
/// lexicographic order of the count vectors (the zero configuration first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Configurations {
    types: usize,
    /// Count vectors, `types` entries each, concatenated.
    counts: Vec<u32>,
    /// Whether each configuration is maximal (no single job of any type can be added).
    maximal: Vec<bool>,
}

/// The enumeration would exceed [`MAX_CONFIGURATIONS`] for one server, or
/// [`MAX_FLEET_CONFIGURATIONS`] over a fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyConfigurations {
    pub limit: usize,
}

impl TooManyConfigurations {
    /// What to tell the user, after "the servers have".
    pub fn describe(&self) -> String {
        if self.limit == MAX_FLEET_CONFIGURATIONS {
            format!(
                "more than {} feasible configurations over their distinct capacities; use fewer distinct capacities, \
                 smaller servers or larger VM types",
                self.limit
            )
        } else {
            format!(
                "a server with more than {} feasible configurations; use smaller servers or larger VM types",
                self.limit
            )
        }
    }
}

impl Configurations {
    /// Enumerates every configuration of `capacity` for jobs of the given `demands` (all of
    /// the capacity's dimension, none all zero).
    pub fn enumerate(demands: &[Resources], capacity: &Resources) -> Result<Self, TooManyConfigurations> {
        Self::enumerate_within(demands, capacity, MAX_CONFIGURATIONS)
    }

    /// As [`Configurations::enumerate`] with a custom limit.
    pub fn enumerate_within(
        demands: &[Resources],
        capacity: &Resources,
        limit: usize,
    ) -> Result<Self, TooManyConfigurations> {
        assert!(demands.iter().all(|d| d.dims() == capacity.dims()), "demands and capacity differ in dimension");
        assert!(demands.iter().all(|d| d.as_slice().iter().any(|&a| a > 0)), "a type demands nothing");
        let mut out = Self { types: demands.len(), counts: Vec::new(), maximal: Vec::new() };
        let mut k = vec![0u32; demands.len()];
        let used = Resources::zero(capacity.dims());
        out.search(demands, capacity, 0, used, &mut k, limit)?;
        Ok(out)
    }

    fn search(
        &mut self,
        demands: &[Resources],
        capacity: &Resources,
        j: usize,
        used: Resources,
        k: &mut [u32],
        limit: usize,
    ) -> Result<(), TooManyConfigurations> {
        if j == demands.len() {
            if self.maximal.len() >= limit {
                return Err(TooManyConfigurations { limit });
            }
            self.counts.extend_from_slice(k);
            self.maximal.push(demands.iter().all(|d| !d.fits_with(&used, capacity)));
            return Ok(());
        }
        let mut used_here = used;
        loop {
            self.search(demands, capacity, j + 1, used_here, k, limit)?;
            if !demands[j].fits_with(&used_here, capacity) {
                break;
            }
            used_here = used_here.plus(&demands[j]);
            k[j] += 1;
        }
        k[j] = 0;
        Ok(())
    }

    /// Number of job types J.
    pub fn types(&self) -> usize {
        self.types
    }

    /// Number of feasible configurations, the zero one included.
    pub fn len(&self) -> usize {
        self.maximal.len()
    }

    /// Never true: the zero configuration is always feasible.
    pub fn is_empty(&self) -> bool {
        self.maximal.is_empty()
    }

    /// Configuration `i` as counts per type.
    pub fn get(&self, i: usize) -> &[u32] {
        &self.counts[i * self.types..(i + 1) * self.types]
    }

    pub fn is_maximal(&self, i: usize) -> bool {
        self.maximal[i]
    }

    /// Every configuration, in lexicographic order.
    pub fn iter(&self) -> impl Iterator<Item = &[u32]> {
        self.counts.chunks_exact(self.types.max(1)).take(self.len())
    }

    /// The maximal configurations, in lexicographic order.
    pub fn maximal(&self) -> impl Iterator<Item = &[u32]> {
        self.iter().zip(&self.maximal).filter(|(_, m)| **m).map(|(k, _)| k)
    }

    /// The index of `counts`, if it is a feasible configuration.
    pub fn position(&self, counts: &[u32]) -> Option<usize> {
        // Lexicographic order lets a binary search find it.
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.get(mid).cmp(counts) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The plain average of the maximal configurations: GH-RA's V^ℓ (RES-21).
    pub fn maximal_average(&self) -> Vec<f64> {
        let mut sum = vec![0.0; self.types];
        let mut n = 0.0;
        for k in self.maximal() {
            for (s, &c) in sum.iter_mut().zip(k) {
                *s += f64::from(c);
            }
            n += 1.0;
        }
        sum.iter().map(|s| s / n).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(rows: &[&[u64]]) -> Vec<Resources> {
        rows.iter().map(|r| Resources::from_slice(r).unwrap()).collect()
    }

    /// The EC2 types of SPEC 3.5 in integer units (0.1 GB, 0.5 CPU, 1 GB).
    fn ec2() -> Vec<Resources> {
        vectors(&[&[150, 16, 1690], &[171, 13, 420], &[70, 40, 1690]])
    }

    #[test]
    fn ec2_small_server_has_7_feasible_and_3_maximal() {
        let small = Resources::from_slice(&[300, 60, 4000]).unwrap();
        let c = Configurations::enumerate(&ec2(), &small).unwrap();
        let all: Vec<&[u32]> = c.iter().collect();
        let expected: [&[u32]; 7] =
            [&[0, 0, 0], &[0, 0, 1], &[0, 1, 0], &[0, 1, 1], &[1, 0, 0], &[1, 0, 1], &[2, 0, 0]];
        assert_eq!(all, expected);
        let maximal: Vec<&[u32]> = c.maximal().collect();
        let expected: [&[u32]; 3] = [&[0, 1, 1], &[1, 0, 1], &[2, 0, 0]];
        assert_eq!(maximal, expected);
        assert_eq!(c.maximal_average(), [1.0, 1.0 / 3.0, 2.0 / 3.0]);
    }

    #[test]
    fn ec2_large_server_has_28_feasible_and_6_maximal() {
        let large = Resources::from_slice(&[900, 180, 5000]).unwrap();
        let c = Configurations::enumerate(&ec2(), &large).unwrap();
        assert_eq!(c.len(), 28);
        let maximal: Vec<&[u32]> = c.maximal().collect();
        let expected: [&[u32]; 6] = [&[0, 3, 2], &[0, 4, 1], &[0, 5, 0], &[1, 3, 1], &[1, 4, 0], &[2, 3, 0]];
        assert_eq!(maximal, expected);
        let v = c.maximal_average();
        for (got, want) in v.iter().zip([2.0 / 3.0, 11.0 / 3.0, 2.0 / 3.0]) {
            assert!((got - want).abs() < 1e-12, "{v:?}");
        }
    }

    #[test]
    fn pgas_canonical_example_has_1459_configurations() {
        // SPEC 4.7: (vCPU, GB) = (2,2), (8,32), (4,64), (64,512) on an (80, 640) server.
        let types = vectors(&[&[2, 2], &[8, 32], &[4, 64], &[64, 512]]);
        let c = Configurations::enumerate(&types, &Resources::from_slice(&[80, 640]).unwrap()).unwrap();
        assert_eq!(c.len(), 1459);
        assert_eq!(c.get(0), [0, 0, 0, 0]);
        let i = c.position(&[12, 3, 8, 0]).unwrap();
        assert_eq!(c.get(i), [12, 3, 8, 0]);
        assert!(c.position(&[13, 3, 8, 0]).is_none());
    }

    #[test]
    fn one_resource_example_and_downward_closure() {
        // GH-RA's intro example: capacity 10, sizes 2 and 3.
        let c = Configurations::enumerate(&vectors(&[&[2], &[3]]), &Resources::scalar(10)).unwrap();
        for k in c.iter() {
            assert!(2 * k[0] + 3 * k[1] <= 10);
            for j in 0..2 {
                if k[j] > 0 {
                    let mut down = k.to_vec();
                    down[j] -= 1;
                    assert!(c.position(&down).is_some(), "{k:?} without one type-{j} job");
                }
            }
        }
        // k1 in 0..=5 with k2 up to (10 - 2 k1) / 3: 4 + 3 + 3 + 2 + 1 + 1.
        assert_eq!(c.len(), 14);
        let maximal: Vec<&[u32]> = c.maximal().collect();
        // (1, 2) uses 8 units and still takes a type-1 job; (0, 3) uses 9 and takes nothing.
        let expected: [&[u32]; 4] = [&[0, 3], &[2, 2], &[3, 1], &[5, 0]];
        assert_eq!(maximal, expected);
    }

    #[test]
    fn the_limit_is_reported() {
        let e = Configurations::enumerate_within(&vectors(&[&[1], &[1]]), &Resources::scalar(1000), 100).unwrap_err();
        assert_eq!(e.limit, 100);
    }
}
