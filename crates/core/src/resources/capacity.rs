//! The capacity along a direction: how far a vector of mean jobs in service per type can grow
//! along a given direction before it leaves the capacity region Σ_kind n_kind·conv(K_kind), K
//! the configurations that fit one server of a kind (PG-RR §III, GH-RA §II, the MSFQ paper's
//! schedules). Every model's capacity is one: PG-RR's along the size mix (one kind: a server,
//! per server), MSFQ's along the classes' work (one machine), GH-RA's along V (its fleet).
//!
//! The region is down-closed (a configuration less a job still fits), so only the maximal
//! configurations matter: t·d ≤ Σ x·k componentwise is the same as t·d in the region.

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// Servers of one kind: how many, and their (maximal) configurations, jobs per type.
#[derive(Debug, Clone, PartialEq)]
pub struct Kind<'a> {
    pub count: f64,
    pub configurations: Vec<&'a [u32]>,
}

/// The largest t such that t·`direction` lies in the capacity region of `kinds`: the LP
/// max t s.t. t·d_j ≤ Σ_kind Σ_k x_{kind,k}·k_j for every type j, Σ_k x_{kind,k} ≤ n_kind,
/// x ≥ 0 (x_{kind,k}: how many servers of the kind hold configuration k, on average over
/// time). `None` if the direction is zero or the solver fails.
pub fn along(direction: &[f64], kinds: &[Kind<'_>]) -> Option<f64> {
    if !direction.iter().any(|&d| d > 0.0) || direction.iter().any(|d| !d.is_finite() || *d < 0.0) {
        return None;
    }
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let t = lp.add_var(1.0, (0.0, f64::INFINITY));
    let shares: Vec<Vec<_>> = kinds
        .iter()
        .map(|kind| kind.configurations.iter().map(|_| lp.add_var(0.0, (0.0, f64::INFINITY))).collect())
        .collect();
    for (j, &d) in direction.iter().enumerate().filter(|(_, d)| **d > 0.0) {
        let mut row = vec![(t, d)];
        for (kind, xs) in kinds.iter().zip(&shares) {
            row.extend(
                kind.configurations.iter().zip(xs).filter(|(k, _)| k[j] > 0).map(|(k, &x)| (x, -f64::from(k[j]))),
            );
        }
        lp.add_constraint(row.as_slice(), ComparisonOp::Le, 0.0);
    }
    for (kind, xs) in kinds.iter().zip(&shares) {
        let row: Vec<_> = xs.iter().map(|&x| (x, 1.0)).collect();
        if !row.is_empty() {
            lp.add_constraint(row.as_slice(), ComparisonOp::Le, kind.count);
        }
    }
    let value = *lp.solve().ok()?.var_value(t);
    value.is_finite().then_some(value)
}

/// Most configurations [`along_by_pricing`] adds before it gives up.
pub const MAX_PRICING_ROUNDS: usize = 500;

/// [`along`] for one kind of `count` servers whose configurations are too many to list, from
/// `best(w)`, the configuration k of largest w·k for weights w ≥ 0 (a knapsack). It solves the
/// dual, min over w ≥ 0 with w·d = 1 of n·max_k w·k (the support of the region in direction w
/// over w's share of d), with the configurations found so far as its constraints, and adds
/// the one `best` finds as long as it beats the bound; when none does, the restricted
/// optimum's w is feasible for the full dual, so its value is the capacity. `None` if the
/// solver fails or the rounds run out.
pub fn along_by_pricing(direction: &[f64], count: f64, best: impl FnMut(&[f64]) -> Vec<u32>) -> Option<f64> {
    pricing(direction, count, best).map(|(value, _)| value)
}

/// [`along_by_pricing`] with the configurations it found, over which the primal LP reaches
/// the same value (the tests' certificate).
pub fn pricing(
    direction: &[f64],
    count: f64,
    mut best: impl FnMut(&[f64]) -> Vec<u32>,
) -> Option<(f64, Vec<Vec<u32>>)> {
    if !direction.iter().any(|&d| d > 0.0) || direction.iter().any(|d| !d.is_finite() || *d < 0.0) {
        return None;
    }
    let types = direction.len();
    // Each type alone, as many as fit: every weight then has a configuration that values it.
    let mut found: Vec<Vec<u32>> = (0..types)
        .map(|j| {
            let mut w = vec![0.0; types];
            w[j] = 1.0;
            best(&w)
        })
        .collect();
    for _ in 0..MAX_PRICING_ROUNDS {
        let mut lp = Problem::new(OptimizationDirection::Minimize);
        let z = lp.add_var(1.0, (0.0, f64::INFINITY));
        let w: Vec<_> = (0..types).map(|_| lp.add_var(0.0, (0.0, f64::INFINITY))).collect();
        let share: Vec<_> = w.iter().zip(direction).filter(|(_, d)| **d > 0.0).map(|(&v, &d)| (v, d)).collect();
        lp.add_constraint(share.as_slice(), ComparisonOp::Eq, 1.0);
        for k in &found {
            let mut row = vec![(z, 1.0)];
            row.extend(w.iter().zip(k).filter(|(_, n)| **n > 0).map(|(&v, &n)| (v, -count * f64::from(n))));
            lp.add_constraint(row.as_slice(), ComparisonOp::Ge, 0.0);
        }
        let solution = lp.solve().ok()?;
        let bound = *solution.var_value(z);
        let weights: Vec<f64> = w.iter().map(|&v| solution.var_value(v).max(0.0)).collect();
        let next = best(&weights);
        let value = count * next.iter().zip(&weights).map(|(&n, w)| f64::from(n) * w).sum::<f64>();
        if value <= bound * (1.0 + 1e-12) + 1e-12 || found.contains(&next) {
            return bound.is_finite().then_some((bound, found));
        }
        found.push(next);
    }
    None
}

/// The largest value w·u of a schedule u on `cores` cores for classes of the given `needs`
/// (Σ_i need_i·u_i ≤ cores), with the schedule: an unbounded knapsack by dynamic programming
/// over the cores used, O(cores × classes). MSFQ's pricing oracle.
pub fn best_schedule(cores: u32, needs: &[u32], weights: &[f64]) -> Vec<u32> {
    let cores = cores as usize;
    // best[c]: the largest value in c cores; last[c]: the class added last there (None: a
    // core left idle, or nothing).
    let mut best = vec![0.0f64; cores + 1];
    let mut last: Vec<Option<usize>> = vec![None; cores + 1];
    for c in 1..=cores {
        best[c] = best[c - 1];
        for (i, (&need, &w)) in needs.iter().zip(weights).enumerate() {
            let need = need as usize;
            if need <= c && w > 0.0 && best[c - need] + w > best[c] {
                best[c] = best[c - need] + w;
                last[c] = Some(i);
            }
        }
    }
    let mut counts = vec![0u32; needs.len()];
    let mut c = cores;
    while c > 0 {
        match last[c] {
            Some(i) => {
                counts[i] += 1;
                c -= needs[i] as usize;
            }
            None => c -= 1,
        }
    }
    counts
}

/// A second computation of [`along`] for the tests, sharing nothing with it but the
/// question: the dual's minimum, min over w ≥ 0 with w·d = 1 of Σ_kind n_kind·max_k w·k, found
/// by trying every vertex of the arrangement it lives on. The function is convex and
/// piecewise linear in w, so its minimum over the simplex {w ≥ 0, w·d = 1} is at a point where
/// J − 1 independent equations hold among w_j = 0 and the ties w·k = w·k' between two
/// configurations of one kind; each choice of J − 1 of them, with w·d = 1, is solved and the
/// function evaluated there. No LP solver: Gaussian elimination only.
#[cfg(test)]
pub fn along_by_vertices(direction: &[f64], kinds: &[(f64, Vec<Vec<u32>>)]) -> f64 {
    let types = direction.len();
    let mut equations: Vec<Vec<f64>> = (0..types)
        .map(|j| {
            let mut e = vec![0.0; types];
            e[j] = 1.0;
            e
        })
        .collect();
    for (_, configs) in kinds {
        for (a, k) in configs.iter().enumerate() {
            for l in &configs[a + 1..] {
                let e: Vec<f64> = k.iter().zip(l).map(|(&x, &y)| f64::from(x) - f64::from(y)).collect();
                if e.iter().any(|&v| v != 0.0) && !equations.contains(&e) {
                    equations.push(e);
                }
            }
        }
    }
    let value = |w: &[f64]| -> f64 {
        kinds
            .iter()
            .map(|(n, configs)| {
                n * configs
                    .iter()
                    .map(|k| k.iter().zip(w).map(|(&c, w)| f64::from(c) * w).sum::<f64>())
                    .fold(0.0, f64::max)
            })
            .sum()
    };
    let mut lowest = f64::INFINITY;
    let mut chosen = Vec::new();
    let mut visit = |rows: &[usize]| {
        // Rows: the chosen equations = 0, and w·d = 1.
        let mut m: Vec<Vec<f64>> = rows.iter().map(|&r| [equations[r].clone(), vec![0.0]].concat()).collect();
        m.push([direction.to_vec(), vec![1.0]].concat());
        if let Some(w) = solve(m).filter(|w| w.iter().all(|&x| x >= -1e-12)) {
            let w: Vec<f64> = w.iter().map(|x| x.max(0.0)).collect();
            lowest = lowest.min(value(&w));
        }
    };
    combinations(equations.len(), types - 1, &mut chosen, 0, &mut visit);
    lowest
}

/// Calls `visit` with every `size`-subset of 0..n, in increasing order.
#[cfg(test)]
fn combinations(n: usize, size: usize, chosen: &mut Vec<usize>, from: usize, visit: &mut impl FnMut(&[usize])) {
    if chosen.len() == size {
        visit(chosen);
        return;
    }
    for i in from..n {
        chosen.push(i);
        combinations(n, size, chosen, i + 1, visit);
        chosen.pop();
    }
}

/// Solves the square system whose augmented rows are `m` by Gaussian elimination with partial
/// pivoting; `None` if it is singular.
#[cfg(test)]
fn solve(mut m: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = m.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (_, row) in m.iter_mut().enumerate().filter(|(r, _)| *r != col) {
            let factor = row[col] / pivot_row[col];
            for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                *x -= factor * p;
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// Every configuration of one server that fits and takes no further job, by brute force over
/// the counts (the tests' own enumeration, independent of [`super::Configurations`]).
#[cfg(test)]
pub fn brute_maximal(demands: &[Vec<u64>], capacity: &[u64]) -> Vec<Vec<u32>> {
    let fits = |k: &[u32]| {
        (0..capacity.len())
            .all(|r| k.iter().zip(demands).map(|(&n, d)| u64::from(n) * d[r]).sum::<u64>() <= capacity[r])
    };
    let most: Vec<u32> = demands
        .iter()
        .map(|d| d.iter().zip(capacity).filter(|(a, _)| **a > 0).map(|(a, c)| (c / a) as u32).min().unwrap_or(0))
        .collect();
    let mut out = Vec::new();
    let mut k = vec![0u32; demands.len()];
    loop {
        if fits(&k)
            && (0..k.len()).all(|j| {
                let mut more = k.clone();
                more[j] += 1;
                !fits(&more)
            })
        {
            out.push(k.clone());
        }
        // The next count vector, odometer order.
        let mut j = 0;
        loop {
            if j == k.len() {
                return out;
            }
            if k[j] < most[j] {
                k[j] += 1;
                break;
            }
            k[j] = 0;
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_2_and_3_on_10_exit_along_v_on_the_facet_2k1_plus_3k2_eq_10() {
        // GH-RA §I-A: one server of capacity 10, sizes 2 and 3. V = the mean of the maximal
        // configurations (0,3), (2,2), (3,1), (5,0) = (2.5, 1.5); the facet through (2,2) and
        // (5,0) is 2k1 + 3k2 = 10, which V·ζ meets at ζ = 10 / 9.5 = 20/19.
        let maximal = brute_maximal(&[vec![2], vec![3]], &[10]);
        assert_eq!(maximal, [vec![5, 0], vec![3, 1], vec![2, 2], vec![0, 3]]);
        let kind = Kind { count: 1.0, configurations: maximal.iter().map(Vec::as_slice).collect() };
        let lp = along(&[2.5, 1.5], &[kind]).unwrap();
        assert!((lp - 20.0 / 19.0).abs() < 1e-9, "{lp}");
        let vertices = along_by_vertices(&[2.5, 1.5], &[(1.0, maximal.clone())]);
        assert!((vertices - 20.0 / 19.0).abs() < 1e-12, "{vertices}");
        // By pricing with a brute-force oracle: the same.
        let oracle = |w: &[f64]| {
            maximal
                .iter()
                .max_by(|a, b| {
                    let v = |k: &Vec<u32>| k.iter().zip(w).map(|(&n, w)| f64::from(n) * w).sum::<f64>();
                    v(a).total_cmp(&v(b))
                })
                .unwrap()
                .clone()
        };
        let priced = along_by_pricing(&[2.5, 1.5], 1.0, oracle).unwrap();
        assert!((priced - 20.0 / 19.0).abs() < 1e-9, "{priced}");
    }

    #[test]
    fn servers_add_their_regions_and_a_zero_direction_has_none() {
        let maximal = brute_maximal(&[vec![2], vec![3]], &[10]);
        let kind = || Kind { count: 3.0, configurations: maximal.iter().map(Vec::as_slice).collect() };
        // Three such servers along 3V: the same ζ.
        let lp = along(&[7.5, 4.5], &[kind()]).unwrap();
        assert!((lp - 20.0 / 19.0).abs() < 1e-9, "{lp}");
        assert_eq!(along(&[0.0, 0.0], &[kind()]), None);
        // A type no configuration holds: nothing along a direction that needs it.
        let only_twos = [vec![5u32, 0]];
        let twos = Kind { count: 1.0, configurations: only_twos.iter().map(Vec::as_slice).collect() };
        assert_eq!(along(&[1.0, 1.0], &[twos]), Some(0.0));
    }

    #[test]
    fn the_knapsack_finds_the_best_schedule() {
        // 10 cores, needs 4 and 6: (1,1) fills them and wins when a 6 is worth more than a 4;
        // two 4s win when it is worth less.
        assert_eq!(best_schedule(10, &[4, 6], &[1.0, 1.5]), [1, 1]);
        assert_eq!(best_schedule(10, &[4, 6], &[1.0, 0.1]), [2, 0]);
        assert_eq!(best_schedule(3, &[2], &[1.0]), [1]);
        // Brute force over small machines.
        for cores in 1..=12u32 {
            let needs = [1u32, 3, 5];
            let w = [0.3, 1.1, 1.7];
            let got = best_schedule(cores, &needs, &w);
            let value = |u: &[u32]| u.iter().zip(&w).map(|(&n, w)| f64::from(n) * w).sum::<f64>();
            let brute = brute_maximal(&[vec![1], vec![3], vec![5]], &[u64::from(cores)])
                .iter()
                .map(|u| value(u))
                .fold(0.0, f64::max);
            assert!(got.iter().zip(&needs).map(|(n, d)| n * d).sum::<u32>() <= cores);
            assert!((value(&got) - brute).abs() < 1e-12, "{cores}: {got:?}");
        }
    }
}
