//! PG-RR's bounds in units of the load α (SPEC 2.3).

use crate::models::LoadMark;

/// The work-conservation bound α = 1 and the guarantees of BF-J/S (ρ*/2, Theorem 2) and
/// VQS/VQS-BF ((2/3)ρ*, Theorems 3-4), taking ρ* at the work-conservation bound. Where the
/// capacity ρ* is below L/R̄ the guarantees scale with it.
pub fn marks(capacity_alpha: f64) -> Vec<LoadMark> {
    vec![
        LoadMark { load: 1.0, label: "work-conservation bound α = 1".into(), short: "α = 1" },
        LoadMark { load: capacity_alpha / 2.0, label: "BF-J/S guarantee ρ*/2".into(), short: "ρ*/2" },
        LoadMark { load: 2.0 * capacity_alpha / 3.0, label: "VQS guarantee (2/3)ρ*".into(), short: "(2/3)ρ*" },
    ]
}

/// Most server configurations [`capacity`] enumerates before giving up (small sizes among
/// many classes make the count explode; the LP is then not worth solving in a page).
pub const MAX_CONFIGURATIONS: usize = 20_000;

/// The capacity ρ* on the load knob α for discrete sizes: the largest α for which the rates
/// of the size classes lie in L·conv(K), K the configurations that fit a server (SPEC 2.3).
/// The LP over the maximal configurations, x_k the fraction of servers in configuration k:
/// maximise α subject to α·p_i/R̄ ≤ Σ_k x_k·n_{k,i} for every class i and Σ_k x_k ≤ 1 (λ/μ =
/// α·L/R̄ jobs are in service on average, shared among L servers). `None` for a continuous
/// law, or past [`MAX_CONFIGURATIONS`].
pub fn capacity(sizes: &[u64], probs: &[f64], server: u64) -> Option<f64> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let configurations = maximal_configurations(sizes, server)?;
    let mean = sizes.iter().zip(probs).map(|(&s, p)| s as f64 * p).sum::<f64>() / server as f64;
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let alpha = lp.add_var(1.0, (0.0, f64::INFINITY));
    let shares: Vec<_> = configurations.iter().map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    for (i, p) in probs.iter().enumerate() {
        let mut row: Vec<_> =
            configurations.iter().zip(&shares).filter(|(c, _)| c[i] > 0).map(|(c, &x)| (x, -f64::from(c[i]))).collect();
        row.push((alpha, p / mean));
        lp.add_constraint(row.as_slice(), ComparisonOp::Le, 0.0);
    }
    let total: Vec<_> = shares.iter().map(|&x| (x, 1.0)).collect();
    lp.add_constraint(total.as_slice(), ComparisonOp::Le, 1.0);
    let solution = lp.solve().ok()?;
    let value = *solution.var_value(alpha);
    value.is_finite().then_some(value)
}

/// Every configuration (jobs per size class) that fits a server of `server` units and takes
/// no further job, or `None` past [`MAX_CONFIGURATIONS`]. Depth-first over the classes; a
/// configuration is maximal when the smallest size no longer fits in what is left.
fn maximal_configurations(sizes: &[u64], server: u64) -> Option<Vec<Vec<u32>>> {
    let smallest = *sizes.iter().min()?;
    let mut found = Vec::new();
    let mut counts = vec![0u32; sizes.len()];
    fn walk(
        class: usize,
        room: u64,
        sizes: &[u64],
        smallest: u64,
        counts: &mut Vec<u32>,
        found: &mut Vec<Vec<u32>>,
    ) -> bool {
        if class == sizes.len() {
            if room < smallest {
                found.push(counts.clone());
            }
            return found.len() <= MAX_CONFIGURATIONS;
        }
        for n in (0..=room / sizes[class]).rev() {
            counts[class] = n as u32;
            if !walk(class + 1, room - n * sizes[class], sizes, smallest, counts, found) {
                return false;
            }
        }
        counts[class] = 0;
        true
    }
    walk(0, server, sizes, smallest, &mut counts, &mut found).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capacity_of_the_instability_examples_is_the_work_conservation_bound() {
        let u = 1_000_000;
        // A1: 0.4 + 0.6 fills a server; A2: five 0.2s or two 0.5s do.
        let a1 = capacity(&[4 * u / 10, 6 * u / 10], &[0.5, 0.5], u).unwrap();
        assert!((a1 - 1.0).abs() < 1e-9, "{a1}");
        let a2 = capacity(&[2 * u / 10, 5 * u / 10], &[2.0 / 3.0, 1.0 / 3.0], u).unwrap();
        assert!((a2 - 1.0).abs() < 1e-9, "{a2}");
        // Only one 0.6 fits: at most 0.6 of the work-conservation bound.
        let big = capacity(&[6 * u / 10], &[1.0], u).unwrap();
        assert!((big - 0.6).abs() < 1e-9, "{big}");
        assert_eq!(maximal_configurations(&[u / 1000], u).map(|c| c.len()), Some(1));
    }
}
