//! Fixtures of SPEC 4.5, 4.7 and 6.1 items 8-9, and properties of random small instances.

use num_traits::{Signed, ToPrimitive};
use proptest::prelude::*;

use super::instances::*;
use super::rational::{self, Rational, int, ratio};
use super::*;

fn r(a: &[u64]) -> Resources {
    Resources::from_slice(a).unwrap()
}

fn scaled(rho: &[Rational], alpha: &Rational) -> Vec<Rational> {
    rho.iter().map(|x| x * alpha).collect()
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol
}

/// Relative closeness, for microlp's floating-point optimum (SPEC: 1e-6 relative).
fn rel_close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-6 * want.abs().max(1.0)
}

// ---------------------------------------------------------------- MAXREWARD and ≻

#[test]
fn c6_intro_example() {
    // SPEC 4.7 C6: MAXREWARD = (0,1,1) with U = 6; over {type 1} = (1,0,0) with U = 4.
    let c6 = pgas_c6();
    assert_eq!(c6.max_reward_counts(0b111), [0, 1, 1]);
    assert_eq!(c6.configuration_reward(c6.max_reward(0b111)), int(6));
    assert_eq!(c6.max_reward_counts(0b001), [1, 0, 0]);
    assert_eq!(c6.configuration_reward(c6.max_reward(0b001)), int(4));
    // Types 2 and 3 alone: one job each, and the tie between (0,1,0) and (0,0,1) is not
    // reached because together they fit.
    assert_eq!(c6.max_reward_counts(0b110), [0, 1, 1]);
    assert_eq!(c6.max_reward_counts(0), [0, 0, 0]);
}

#[test]
fn c2_configurations_and_max_reward() {
    let c2 = pgas_c2();
    assert_eq!(c2.configurations().len(), 1459);
    assert_eq!(c2.max_reward_counts(0b1111), [12, 3, 8, 0]);
    assert_eq!(c2.configuration_reward(c2.max_reward(0b1111)), int(1272));
    assert_eq!(c2.reward_units(), [18, 96, 96, 1024]);
    // K_max: forty (2, 2) VMs fill the 80 vCPUs.
    assert_eq!(c2.max_jobs(), 40);
    // The LP's columns: the maximal configurations only (see `lp`).
    assert_eq!(c2.maximal_configurations().len(), 87);
    // K^(g) in ≻ order, the empty configuration last.
    let set: Vec<Vec<u32>> = c2.greedy_configuration_set().iter().map(|&i| c2.configuration(i).to_vec()).collect();
    assert_eq!(set.first().unwrap(), &[12, 3, 8, 0]);
    assert_eq!(set.last().unwrap(), &[0, 0, 0, 0]);
    for k in [[0, 7, 6, 0], [0, 0, 2, 1], [0, 0, 0, 1]] {
        assert!(set.contains(&k.to_vec()), "{k:?} in K^(g)");
    }
    for w in c2.greedy_configuration_set().windows(2) {
        assert_eq!(c2.order(w[0], w[1]), Ordering::Greater);
    }
}

#[test]
fn order_breaks_reward_ties_by_the_lowest_type() {
    // Definition 2.2: equal U, then larger at the first type where they differ.
    let c2 = pgas_c2();
    // (0,1,0,0) and (0,0,1,0) both earn 96: type 2 first.
    assert_eq!(c2.order_counts(&[0, 1, 0, 0], &[0, 0, 1, 0]), Ordering::Greater);
    assert_eq!(c2.order_counts(&[0, 0, 1, 0], &[0, 1, 0, 0]), Ordering::Less);
    // A higher reward wins whatever the counts: 1272 against 1024.
    assert_eq!(c2.order_counts(&[12, 3, 8, 0], &[0, 0, 0, 1]), Ordering::Greater);
    assert_eq!(c2.order_counts(&[1, 0, 0, 0], &[1, 0, 0, 0]), Ordering::Equal);
    // The index order agrees with the count order.
    let (a, b) =
        (c2.configurations().position(&[0, 1, 0, 0]).unwrap(), c2.configurations().position(&[0, 0, 1, 0]).unwrap());
    assert_eq!(c2.order(a, b), Ordering::Greater);
}

/// MAXREWARD(K^{J'}) by a plain scan of K under ≻.
fn scan_max_reward(instance: &RewardInstance, subset: u64) -> usize {
    (0..instance.configurations().len())
        .filter(|&i| instance.configuration(i).iter().enumerate().all(|(j, &c)| c == 0 || subset & (1 << j) != 0))
        .max_by(|&a, &b| instance.order(a, b))
        .unwrap()
}

#[test]
fn max_reward_table_matches_a_scan_on_c2() {
    let c2 = pgas_c2();
    for subset in 0..16 {
        assert_eq!(c2.max_reward(subset), scan_max_reward(&c2, subset), "subset {subset:04b}");
    }
    // The greedy's second configuration (SPEC 4.7).
    assert_eq!(c2.max_reward_counts(0b1110), [0, 7, 6, 0]);
}

// ---------------------------------------------------------------- global greedy and U*

#[test]
fn c2_greedy_at_alpha_1() {
    // SPEC 4.7: k = (12,3,8,0), (0,7,6,0), (0,0,2,1), (0,0,0,1); σ = (1,2,3,4);
    // z = (1/6,0,0,1); x = (1/6,0,0,5/6); U^(g) = 3196/3.
    let c2 = pgas_c2();
    let g = c2.global_greedy(&pgas_c2_rho()).unwrap();
    let expected: Vec<Vec<u32>> = vec![vec![12, 3, 8, 0], vec![0, 7, 6, 0], vec![0, 0, 2, 1], vec![0, 0, 0, 1]];
    assert_eq!(g.counts, expected);
    assert_eq!(g.order, [0, 1, 2, 3]);
    assert_eq!(g.z, [ratio(1, 6), int(0), int(0), int(1)]);
    assert_eq!(g.z.iter().sum::<Rational>(), ratio(7, 6));
    assert_eq!(g.x, [ratio(1, 6), int(0), int(0), ratio(5, 6)]);
    assert_eq!(g.cutoff, 4);
    assert_eq!(g.empty_share, int(0));
    assert_eq!(g.reward, ratio(3196, 3));
    assert!(close(g.reward_f64(), 1_065.333_333, 1e-6));
}

#[test]
fn c2_optimum_at_alpha_1() {
    // SPEC 4.7: U* = 1236, ratio 0.861920; one optimal support is
    // {(0,0,2,1): 1/3, (2,1,1,1): 1/2, (6,0,1,1): 1/6}.
    let c2 = pgas_c2();
    let rho = pgas_c2_rho();
    let fast = c2.optimum(&rho.iter().map(rational::to_f64).collect::<Vec<_>>()).unwrap();
    assert!(rel_close(fast.value, 1236.0), "{}", fast.value);
    let exact = c2.optimum_exact(&rho).unwrap();
    assert_eq!(exact.exact_value, Some(int(1236)));
    // Whatever support the solver picks, its exact weights reach the optimum.
    let weights: Vec<(usize, Rational)> =
        exact.support.iter().map(|e| (e.configuration, e.exact_weight.clone().unwrap())).collect();
    assert_eq!(weights.iter().map(|(_, w)| w).sum::<Rational>(), int(1));
    assert_eq!(c2.primal_value(&rho, &weights), int(1236));
    // SPEC's support reaches it too.
    let pos = |k: &[u32]| c2.configurations().position(k).unwrap();
    let spec =
        [(pos(&[0, 0, 2, 1]), ratio(1, 3)), (pos(&[2, 1, 1, 1]), ratio(1, 2)), (pos(&[6, 0, 1, 1]), ratio(1, 6))];
    assert_eq!(c2.primal_value(&rho, &spec), int(1236));
    let b = c2.bounds_exact(&rho).unwrap();
    assert!(close(b.ratio, 0.861_920, 5e-7), "{}", b.ratio);
}

/// The α table of SPEC 4.7 (U^(g), U*), printed to 3 decimals.
const ALPHA_TABLE: [(i64, i64, f64, f64); 10] = [
    (1, 2, 618.0, 618.0),
    (7, 8, 1060.167, 1081.5),
    (9, 10, 1061.2, 1112.4),
    (11, 10, 1069.467, 1238.0),
    (3, 2, 1086.0, 1246.0),
    (2, 1, 1106.667, 1253.44),
    (3, 1, 1148.0, 1258.08),
    (4, 1, 1189.333, 1262.72),
    (5, 1, 1230.667, 1267.36),
    (6, 1, 1272.0, 1272.0),
];

#[test]
fn c2_alpha_table() {
    let c2 = pgas_c2();
    let rho = pgas_c2_rho();
    for (n, d, greedy, optimal) in ALPHA_TABLE {
        let b = c2.bounds_exact(&scaled(&rho, &ratio(n, d))).unwrap();
        let opt = b.optimum.exact_value.clone().expect("certified");
        assert!(close(b.greedy_reward, greedy, 5e-4), "α = {n}/{d}: U^(g) = {}", b.greedy.reward);
        assert!(close(rational::to_f64(&opt), optimal, 5e-4), "α = {n}/{d}: U* = {opt}");
        assert!(rel_close(b.optimal_reward, optimal), "α = {n}/{d}");
    }
    // The exact values behind the rounded ones.
    let g = |n, d| c2.global_greedy(&scaled(&rho, &ratio(n, d))).unwrap().reward;
    assert_eq!(g(7, 8), ratio(6361, 6));
    assert_eq!(g(11, 10), ratio(16042, 15));
    assert_eq!(g(2, 1), ratio(3320, 3));
    let opt = |n, d| c2.optimum_exact(&scaled(&rho, &ratio(n, d))).unwrap().exact_value.unwrap();
    assert_eq!(opt(2, 1), ratio(31336, 25));
}

#[test]
fn c2_ratio_next_to_alpha_1() {
    // SPEC 4.7: 0.99 → 0.87029; 1.01 → 0.86212.
    let c2 = pgas_c2();
    let rho = pgas_c2_rho();
    let ratio_at = |a: Rational| c2.bounds_exact(&scaled(&rho, &a)).unwrap().ratio;
    assert!(close(ratio_at(ratio(99, 100)), 0.870_29, 5e-6));
    assert!(close(ratio_at(ratio(101, 100)), 0.862_12, 5e-6));
}

#[test]
fn c2_critical_points() {
    // SPEC 4.7: U^(g) = U* for α ≤ 6/7 (both 7416/7 at 6/7) and for α ≥ 6 (both 1272),
    // strictly below in between; the worst ratio is at α = 1.
    let c2 = pgas_c2();
    let rho = pgas_c2_rho();
    let at_six_sevenths = c2.bounds_exact(&scaled(&rho, &ratio(6, 7))).unwrap();
    assert_eq!(at_six_sevenths.greedy.reward, ratio(7416, 7));
    assert_eq!(at_six_sevenths.optimum.exact_value, Some(ratio(7416, 7)));
    let at_six = c2.bounds_exact(&scaled(&rho, &int(6))).unwrap();
    assert_eq!(at_six.greedy.reward, int(1272));
    assert_eq!(at_six.optimum.exact_value, Some(int(1272)));
    // Just inside the gap on both sides: strictly below, exactly.
    for a in [ratio(6, 7) + ratio(1, 1000), int(6) - ratio(1, 1000)] {
        let b = c2.bounds_exact(&scaled(&rho, &a)).unwrap();
        assert!(b.greedy.reward < b.optimum.exact_value.unwrap(), "α = {a}");
    }
    // The 0.05 grid over [0, 10] plus 6/7 and 6.
    let mut alphas: Vec<f64> = (0..=200).map(|i| f64::from(i) * 0.05).collect();
    alphas.extend([6.0 / 7.0, 6.0]);
    let points = c2.sweep(&rho, &alphas).unwrap();
    for p in &points {
        let equal = rel_close(p.greedy_reward, p.optimal_reward);
        let outside = p.alpha <= 6.0 / 7.0 + 1e-12 || p.alpha >= 6.0 - 1e-12;
        assert_eq!(equal, outside, "α = {}: {} vs {}", p.alpha, p.greedy_reward, p.optimal_reward);
        assert!(p.greedy_reward <= p.optimal_reward * (1.0 + 1e-9));
        assert!(p.ratio >= 0.5);
    }
    let worst = points.iter().min_by(|a, b| a.ratio.total_cmp(&b.ratio)).unwrap();
    assert_eq!(worst.alpha, 1.0);
    assert_eq!(points[0].greedy_reward, 0.0);
    assert_eq!(points[0].ratio, 1.0);
}

#[test]
fn c2_listed_tuples_on_a_half_server_halve_every_reward() {
    // SPEC 4.7, RES-34: U^(g) = 1598/3 and U* = 618, the ratio unchanged.
    let half = pgas_c2_listed_half_server();
    assert_eq!(half.configurations().len(), 1459);
    let b = half.bounds_exact(&pgas_c2_rho()).unwrap();
    assert_eq!(b.greedy.reward, ratio(1598, 3));
    assert_eq!(b.optimum.exact_value, Some(int(618)));
    assert!(close(b.ratio, 0.861_920, 5e-7));
}

#[test]
fn worst_case_two_types_at_n_20() {
    // SPEC 4.5: U^(g) = 0.75, U* = 1/2 + 20/42 = 0.976190, ratio 0.768293, in the paper's
    // reward units (u_1 = 1/2, u_2 = 1/42), held as integers over the denominator 42.
    let (instance, rho) = worst_case_two_types(20).unwrap();
    assert_eq!(instance.reward_denominator(), 42);
    assert_eq!(instance.reward(0), ratio(1, 2));
    assert_eq!(instance.reward(1), ratio(1, 42));
    let b = instance.bounds_exact(&rho).unwrap();
    assert_eq!(b.greedy.reward, ratio(3, 4));
    assert_eq!(b.optimum.exact_value, Some(ratio(1, 2) + ratio(20, 42)));
    assert!(close(b.optimal_reward, 0.976_190, 5e-7));
    assert!(close(b.ratio, 0.768_293, 5e-7));
    // MAXREWARD is two type-1 jobs; the optimum runs (1, N) everywhere.
    assert_eq!(instance.max_reward_counts(0b11), [2, 0]);
    assert_eq!(b.optimum.support.iter().map(|e| e.counts.clone()).collect::<Vec<_>>(), [vec![1, 20]]);
}

#[test]
fn worst_case_ratio_tends_to_three_quarters() {
    // ratio = 3(N+1) / (2(2N+1)), decreasing to 3/4.
    for n in [1u64, 5, 50, 200] {
        let (instance, rho) = worst_case_two_types(n).unwrap();
        let b = instance.bounds_exact(&rho).unwrap();
        let n = n as i64;
        assert_eq!(&b.greedy.reward / b.optimum.exact_value.unwrap(), ratio(3 * (n + 1), 2 * (2 * n + 1)), "N = {n}");
    }
    assert!(worst_case_two_types(0).is_err());
}

// ---------------------------------------------------------------- GPA

#[test]
fn gpa_on_c2_at_l_6000() {
    // SPEC 6.1-9: GPA(6000·ρ) with g = 0 gives X = (1000, 0, 0, 5000) for (12,3,8,0),
    // (0,7,6,0), (0,0,2,1), (0,0,0,1); types 1, 2, 3 tie at 1000 and the lowest goes.
    let c2 = pgas_c2();
    let steps = c2.gpa(&[12_000, 3_000, 8_000, 6_000], 6000);
    let counts: Vec<&[u32]> = steps.iter().map(|s| c2.configuration(s.configuration)).collect();
    assert_eq!(counts, [&[12, 3, 8, 0][..], &[0, 7, 6, 0], &[0, 0, 2, 1], &[0, 0, 0, 1]]);
    assert_eq!(steps.iter().map(|s| s.servers).collect::<Vec<_>>(), [1000, 0, 0, 5000]);
    assert_eq!(steps.iter().map(|s| s.removed_type).collect::<Vec<_>>(), [0, 1, 2, 3]);
    // The exact (rational) variant agrees on L·ρ.
    let l_rho = scaled(&pgas_c2_rho(), &int(6000));
    assert_eq!(c2.gpa_exact(&l_rho, 6000), steps);
}

#[test]
fn gpa_follows_the_global_greedy() {
    // Proposition 3.5 / SPEC 6.1-9: |X̂_{k(i)} − L·x^(g)_{k(i)}| ≤ (K_max + 1)^(i−1), Σ X̂ ≤ L.
    let c2 = pgas_c2();
    let bound_base = i128::from(c2.max_jobs()) + 1;
    for (n, d) in [(1, 1), (1, 2), (6, 7), (2, 1), (6, 1), (9, 1)] {
        let rho = scaled(&pgas_c2_rho(), &ratio(n, d));
        let g = c2.global_greedy(&rho).unwrap();
        for l in [600u64, 6000] {
            let steps = c2.gpa_exact(&scaled(&rho, &int(l as i64)), l);
            assert!(steps.iter().map(|s| s.servers).sum::<u64>() <= l);
            for (i, (&k, x)) in g.configurations.iter().zip(&g.x).enumerate() {
                let got: u64 = steps.iter().filter(|s| s.configuration == k).map(|s| s.servers).sum();
                let diff = (Rational::from_integer(got.into()) - x * int(l as i64)).abs();
                assert!(
                    diff <= Rational::from_integer(bound_base.pow(i as u32).into()),
                    "α = {n}/{d}, L = {l}, step {i}: {got} vs {x}·L"
                );
            }
        }
    }
}

#[test]
fn gpa_always_lists_j_configurations() {
    let c2 = pgas_c2();
    // No servers: every X is 0, but the J different configurations are still produced.
    let steps = c2.gpa(&[12_000, 3_000, 8_000, 6_000], 0);
    assert_eq!(steps.len(), 4);
    assert!(steps.iter().all(|s| s.servers == 0));
    let mut configs: Vec<usize> = steps.iter().map(|s| s.configuration).collect();
    configs.dedup();
    assert_eq!(configs.len(), 4);
    // Nothing to serve: nothing placed.
    assert!(c2.gpa(&[0, 0, 0, 0], 100).iter().all(|s| s.servers == 0));
    // A type over-provisioned by an earlier configuration (RES-23): 10 servers of
    // (12,3,8,0) hold 80 type-3 jobs for 73, so type 3 needs ⌈−7/6⌉ = −1 servers of
    // (0,7,6,0). The argmin is taken before the clamp, so type 3 (−1) goes before type 2 (0),
    // and both get 0 servers.
    let steps = c2.gpa(&[120, 30, 73, 0], 50);
    assert_eq!(steps.iter().map(|s| s.servers).collect::<Vec<_>>(), [10, 0, 0, 0]);
    assert_eq!(steps.iter().map(|s| s.removed_type).collect::<Vec<_>>(), [0, 2, 1, 3]);
    assert_eq!(c2.configuration(steps[2].configuration), [0, 2, 0, 1]);
    // Servers run out: X is cut at what is left.
    let steps = c2.gpa(&[12_000, 3_000, 8_000, 6_000], 1500);
    assert_eq!(steps.iter().map(|s| s.servers).collect::<Vec<_>>(), [1000, 0, 0, 500]);
    // gpa_into reuses the vector.
    let mut out = vec![GpaStep { configuration: 9, removed_type: 9, servers: 9 }; 7];
    c2.gpa_into(&[12_000, 3_000, 8_000, 6_000], 6000, &mut out);
    assert_eq!(out, c2.gpa(&[12_000, 3_000, 8_000, 6_000], 6000));
}

// ---------------------------------------------------------------- LP (6)

#[test]
fn lp6_is_l_times_lp7() {
    let c2 = pgas_c2();
    let rho = pgas_c2_rho();
    let l = 180u64;
    let y_hat: Vec<f64> = rho.iter().map(|r| rational::to_f64(r) * l as f64).collect();
    let fast = c2.lp_bound(&y_hat, l as f64).unwrap();
    assert!(rel_close(fast.value, 1236.0 * 180.0), "{}", fast.value);
    assert!(close(fast.support.iter().map(|e| e.weight).sum::<f64>(), 180.0, 1e-6));
    let exact = c2.lp_bound_exact(&scaled(&rho, &int(180)), l).unwrap();
    assert_eq!(exact.exact_value, Some(int(1236 * 180)));
    // Ŷ beyond what L servers hold: the bound saturates at L·max U(k).
    let big = c2.lp_bound_exact(&[int(1_000_000), int(1_000_000), int(1_000_000), int(1_000_000)], 10).unwrap();
    assert_eq!(big.exact_value, Some(int(12_720)));
    // Fractional Ŷ are fine (an infinite-server replay counts jobs, but the LP does not care).
    assert!(c2.lp_bound(&[0.5, 0.0, 0.0, 0.0], 1.0).unwrap().value > 8.99);
    assert!(c2.lp_bound(&[1.0, 1.0, 1.0, 1.0], -1.0).is_err());
}

// ---------------------------------------------------------------- validation and serde

#[test]
fn invalid_instances_are_named() {
    let cap = r(&[10, 10]);
    let key = |e: ConfigError| e.key;
    assert_eq!(key(RewardInstance::new(vec![], vec![], cap).unwrap_err()), "types");
    assert_eq!(key(RewardInstance::new(vec![r(&[1, 1]); 17], vec![1; 17], cap).unwrap_err()), "types");
    assert_eq!(key(RewardInstance::new(vec![r(&[1])], vec![1], cap).unwrap_err()), "types");
    assert_eq!(key(RewardInstance::new(vec![r(&[0, 0])], vec![1], cap).unwrap_err()), "types");
    let too_big = RewardInstance::new(vec![r(&[11, 1])], vec![1], cap).unwrap_err();
    assert_eq!(too_big.key, "types");
    assert!(too_big.message.contains("type 1") && too_big.message.contains("fit"), "{}", too_big.message);
    assert_eq!(key(RewardInstance::new(vec![r(&[1, 1])], vec![1, 2], cap).unwrap_err()), "rewards");
    let zero = RewardInstance::new(vec![r(&[1, 1])], vec![0], cap).unwrap_err();
    assert_eq!(zero.key, "rewards");
    assert!(zero.message.contains("1 to 1000000000"), "{}", zero.message);
    let many = RewardInstance::new(vec![r(&[1]), r(&[1])], vec![1, 1], r(&[1000])).unwrap_err();
    assert_eq!(many.key, "capacity");
    let ok = RewardInstance::new(vec![r(&[1, 1])], vec![1], cap).unwrap();
    assert_eq!(key(ok.clone().with_reward_denominator(0).unwrap_err()), "reward_denominator");
    for e in [
        ok.global_greedy(&[int(-1)]).unwrap_err(),
        ok.global_greedy(&[int(1), int(1)]).unwrap_err(),
        ok.global_greedy_f64(&[f64::NAN]).unwrap_err(),
        ok.global_greedy_f64(&[2e9]).unwrap_err(),
    ] {
        assert_eq!(e.key, "rho");
        assert!(!e.message.starts_with(|c: char| c.is_uppercase()), "lowercase message: {}", e.message);
    }
    assert!(matches!(ok.optimum(&[-1.0]), Err(BoundsError::Config(e)) if e.key == "rho"));
    assert!(matches!(ok.lp_bound(&[1.0, 2.0], 1.0), Err(BoundsError::Config(e)) if e.key == "y_hat"));
    assert!(matches!(ok.lp_bound(&[1.0], f64::INFINITY), Err(BoundsError::Config(e)) if e.key == "servers"));
    assert!(matches!(ok.sweep(&[int(1)], &[-1.0]), Err(BoundsError::Config(e)) if e.key == "alpha"));
}

#[test]
fn bounds_serialise_for_the_cli() {
    let c2 = pgas_c2();
    let b = c2.bounds(&[2.0, 0.5, 4.0 / 3.0, 1.0]).unwrap();
    // f64 inputs become the intended fractions, so the greedy is the exact one.
    assert_eq!(b.rho, pgas_c2_rho());
    assert_eq!(b.greedy.reward, ratio(3196, 3));
    assert!(rel_close(b.optimal_reward, 1236.0));
    let json: serde_json::Value = serde_json::to_value(&b).unwrap();
    assert_eq!(json["rho"][2], "4/3");
    assert_eq!(json["greedy"]["reward"], "3196/3");
    assert_eq!(json["greedy"]["x"][3], "5/6");
    assert_eq!(json["greedy"]["counts"][0], serde_json::json!([12, 3, 8, 0]));
    assert!(json["greedy_reward"].as_f64().unwrap() > 1065.33);
    assert!(json["ratio"].as_f64().unwrap() < 0.862);
    assert!(json["optimum"]["support"].as_array().unwrap().iter().all(|e| e["counts"].is_array()));
    assert!(json["optimum"].get("exact_value").is_none(), "only certified optima carry it");
    let back: Bounds = serde_json::from_value(json).unwrap();
    assert_eq!(back, b);
    let exact = serde_json::to_value(c2.bounds_exact(&pgas_c2_rho()).unwrap()).unwrap();
    assert_eq!(exact["optimum"]["exact_value"], "1236");
    let steps = serde_json::to_string(&c2.gpa(&[1, 1, 1, 1], 3)).unwrap();
    assert!(steps.starts_with(r#"[{"configuration":"#), "{steps}");
}

// ---------------------------------------------------------------- C1 random collections

#[test]
fn c1_collections_follow_table_1() {
    let a = random_collections(7, 50, MemoryDraw::ByCategory);
    assert_eq!(a, random_collections(7, 50, MemoryDraw::ByCategory), "same seed, same collections");
    assert_ne!(a, random_collections(8, 50, MemoryDraw::ByCategory));
    let mut categories = [0usize; 5];
    for c in &a {
        assert_eq!(c.vms.len(), 6);
        for (i, vm) in c.vms.iter().enumerate() {
            let small = [2, 4, 8].contains(&vm.vcpu);
            assert_eq!(small, i < 3, "3 small then 3 large: {vm:?}");
            assert!(small || [32, 64].contains(&vm.vcpu));
            let per = vm.gb / vm.vcpu;
            assert_eq!(per * vm.vcpu, vm.gb);
            categories[[1, 2, 4, 8, 16].iter().position(|&p| p == per).unwrap()] += 1;
            assert!(vm.gb <= VM_SERVER.gb);
        }
        assert!(c.rho.iter().all(|r| *r >= ratio(1, 5) && *r <= int(2)));
    }
    // By category, 4 GB/vCPU (Regular) is a third of the draws.
    assert!((70..130).contains(&categories[2]), "{categories:?}");
}

#[test]
fn c1_statistics_are_plausible() {
    // SPEC 4.7 reports (with the paper's random numbers) 23 of 50 at ratio 1, mean 0.972,
    // minimum ≥ 0.86; ours differ with the draws, so only the qualitative claims are checked:
    // no ratio below 1 − 1/e (nor 1/2, Theorem 3.7), ratios at most 1, a good share exactly 1,
    // a high mean. Seeds 1-6 give 5-12 exact, means 0.930-0.951, minima 0.845-0.863.
    let (results, summary) = c1_statistics(1, 50, MemoryDraw::ByCategory).unwrap();
    assert_eq!(summary.count, 50);
    assert!(results.iter().all(|r| r.ratio <= 1.0 && r.greedy_reward <= r.optimal_reward * (1.0 + 1e-9)));
    assert_eq!(summary.below_guarantee, 0);
    assert!(summary.min_ratio >= summary.guarantee && summary.min_ratio >= 0.5, "{summary:?}");
    assert!((0.9..1.0).contains(&summary.mean_ratio), "{summary:?}");
    assert!((3..=40).contains(&summary.ratio_one), "{summary:?}");
    assert!((summary.guarantee - 0.632_120_558_8).abs() < 1e-9);
    // The tolerance for "exactly 1" separates exact ties from real gaps: certify both kinds.
    let collections = random_collections(1, 50, MemoryDraw::ByCategory);
    let one = results.iter().position(|r| r.ratio >= 1.0 - RATIO_ONE_TOLERANCE).unwrap();
    let below = results.iter().position(|r| r.ratio < 1.0 - RATIO_ONE_TOLERANCE).unwrap();
    for (i, equal) in [(one, true), (below, false)] {
        let instance = collections[i].instance();
        let b = instance.bounds_exact(&collections[i].rho).unwrap();
        let opt = b.optimum.exact_value.expect("certified");
        assert_eq!(b.greedy.reward == opt, equal, "collection {i}");
    }
    let (_, other) = c1_statistics(1, 50, MemoryDraw::PerValue).unwrap();
    assert_eq!(other.below_guarantee, 0);
}

// ---------------------------------------------------------------- properties

/// A small random instance: 1-3 types, 1-2 resources, capacity 6-24.
fn small_instance() -> impl Strategy<Value = (RewardInstance, Vec<Rational>)> {
    (1usize..=3, 1usize..=2, 6u64..=24)
        .prop_flat_map(|(types, dims, cap)| {
            (
                proptest::collection::vec(proptest::collection::vec(0u64..=cap, dims), types),
                proptest::collection::vec(1u64..=30, types),
                proptest::collection::vec(0i64..=40, types),
                Just(cap),
                Just(dims),
            )
        })
        .prop_filter_map("every type demands something", |(demands, rewards, rho, cap, dims)| {
            if demands.iter().any(|d| d.iter().all(|&a| a == 0)) {
                return None;
            }
            let demands = demands.iter().map(|d| r(d)).collect();
            let instance = RewardInstance::new(demands, rewards, r(&vec![cap; dims])).ok()?;
            Some((instance, rho.iter().map(|&q| ratio(q, 8)).collect()))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Theorem 3.7: U^(g) ≥ U*/2; x^(g) is feasible for LP (7), so U^(g) ≤ U*; Theorem 3.9 for
    /// J = 2 (every 2-type instance has the monotone greedy property): U^(g) ≥ (1 − 1/e)·U*.
    /// U* is certified exact, so these are exact comparisons.
    #[test]
    fn greedy_is_within_half_of_the_optimum((instance, rho) in small_instance()) {
        let b = instance.bounds_exact(&rho).unwrap();
        let opt = b.optimum.exact_value.clone().expect("certified");
        prop_assert!(rel_close(b.optimal_reward, rational::to_f64(&opt)));
        prop_assert!(b.greedy.reward <= opt);
        prop_assert!(&b.greedy.reward * int(2) >= opt);
        if instance.types() == 2 {
            prop_assert!(b.ratio >= 1.0 - libm::exp(-1.0) - 1e-12, "ratio {}", b.ratio);
        }
        // Shares: x sums to 1 with the empty configuration, stops at I_ρ.
        let total: Rational = b.greedy.x.iter().sum::<Rational>() + &b.greedy.empty_share;
        prop_assert_eq!(total, int(1));
        prop_assert!(b.greedy.x.iter().skip(b.greedy.cutoff).all(|x| *x == int(0)));
    }

    /// The MAXREWARD table is the ≻-maximum of each K^{J'} (checked by a scan).
    #[test]
    fn max_reward_table_is_the_scan((instance, _) in small_instance()) {
        for subset in 0..(1u64 << instance.types()) {
            prop_assert_eq!(instance.max_reward(subset), scan_max_reward(&instance, subset));
        }
    }

    /// GPA: J distinct configurations, Σ X ≤ L, integer and rational inputs agree.
    #[test]
    fn gpa_is_well_formed((instance, rho) in small_instance(), servers in 0u64..50) {
        let counts: Vec<i64> = rho.iter().map(|q| q.ceil().to_integer().to_i64().unwrap()).collect();
        let steps = instance.gpa(&counts, servers);
        prop_assert_eq!(steps.len(), instance.types());
        prop_assert!(steps.iter().map(|s| s.servers).sum::<u64>() <= servers);
        let mut configs: Vec<usize> = steps.iter().map(|s| s.configuration).collect();
        configs.sort_unstable();
        configs.dedup();
        prop_assert_eq!(configs.len(), instance.types());
        let exact: Vec<Rational> = counts.iter().map(|&c| int(c)).collect();
        prop_assert_eq!(instance.gpa_exact(&exact, servers), steps);
    }

    /// GPA agrees with its exact rational form for any counts and server numbers: negative
    /// ones, and ones too large for its 64-bit arithmetic, which then works in 128 bits.
    #[test]
    fn gpa_is_exact_for_any_counts(
        (instance, _) in small_instance(),
        shifts in proptest::collection::vec(prop_oneof![-60i64..60, any::<i64>(), Just(1 << 61), Just(-(1 << 61))], 4),
        servers in prop_oneof![0u64..60, Just((1 << 29) - 1), Just(1 << 29), any::<u64>()],
    ) {
        let counts: Vec<i64> = (0..instance.types()).map(|j| shifts[j % shifts.len()]).collect();
        let exact: Vec<Rational> = counts.iter().map(|&c| int(c)).collect();
        prop_assert_eq!(instance.gpa(&counts, servers), instance.gpa_exact(&exact, servers));
    }
}
