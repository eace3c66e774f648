//! The PG-AS bounds give identical results natively and in WebAssembly: U* (LP 7, microlp in
//! floating point), U^(g) (exact rationals), Fig. 2's α sweep, the exact certificate and LP (6)
//! with its dual. The constants were computed natively; this test runs on both targets
//! (`cargo test`, and `cargo test --target wasm32-unknown-unknown` under
//! wasm-bindgen-test-runner), so any difference in the solver's arithmetic fails one of them.

use packlab_core::models::pgas::theory::instances::{pgas_c2, pgas_c2_rho};
use packlab_core::models::pgas::theory::rational::{self, Rational};
use wasm_bindgen_test::wasm_bindgen_test;

fn fingerprint(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, v| (h ^ v).wrapping_mul(0x0000_0100_0000_01B3))
}

/// Fig. 2's grid: 0.05 to 10 by 0.05, and 6/7.
fn alphas() -> Vec<f64> {
    let mut grid: Vec<f64> = (1..=200).map(|i| f64::from(i) / 20.0).collect();
    grid.push(6.0 / 7.0);
    grid
}

const U_STAR_BITS: u64 = 0x4093_5000_0000_0000;
const U_GREEDY_BITS: u64 = 0x4090_a555_5555_5555;
const SWEEP_FINGERPRINT: u64 = 0xc635_a1fe_f555_d7e0;
const LP6_FINGERPRINT: u64 = 0x22fd_1a9b_4cdb_f792;

#[wasm_bindgen_test(unsupported = test)]
fn lp_results_are_identical_native_and_in_wasm() {
    let c2 = pgas_c2();
    let rho = pgas_c2_rho();
    let f: Vec<f64> = rho.iter().map(rational::to_f64).collect();
    let u_star = c2.optimum(&f).unwrap().value;
    let u_greedy = c2.global_greedy(&rho).unwrap().reward_f64();
    assert_eq!(
        (u_star.to_bits(), u_greedy.to_bits()),
        (U_STAR_BITS, U_GREEDY_BITS),
        "U* {u_star:?} U^(g) {u_greedy:?}: {:#x} {:#x}",
        u_star.to_bits(),
        u_greedy.to_bits()
    );

    let sweep = c2.sweep(&rho, &alphas()).unwrap();
    let fp =
        fingerprint(sweep.iter().flat_map(|p| {
            [p.alpha.to_bits(), p.greedy_reward.to_bits(), p.optimal_reward.to_bits(), p.ratio.to_bits()]
        }));
    assert_eq!(fp, SWEEP_FINGERPRINT, "sweep fingerprint {fp:#x}");

    // The certified optimum is exact on both targets, whatever the solver's last bits.
    let exact = c2.bounds_exact(&rho).unwrap();
    assert_eq!(exact.greedy.reward, rational::ratio(3196, 3));
    assert_eq!(exact.optimum.exact_value, Some(rational::int(1236)));
    let support: Vec<(Vec<u32>, Rational)> =
        exact.optimum.support.iter().map(|e| (e.counts.clone(), e.exact_weight.clone().unwrap())).collect();
    assert!(support.contains(&(vec![0, 0, 2, 1], rational::ratio(1, 3))), "{support:?}");

    // LP (6) on L = 180 servers at an Ŷ off the mean, with its dual (the upper bound's certificates).
    let (optimum, dual) = c2.lp_bound_with_dual(&[350.0, 97.0, 251.0, 171.0], 180.0).unwrap();
    let fp = fingerprint(
        std::iter::once(optimum.value.to_bits())
            .chain(optimum.support.iter().map(|e| e.weight.to_bits()))
            .chain(dual.iter().map(|w| w.to_bits())),
    );
    assert_eq!(fp, LP6_FINGERPRINT, "LP (6) fingerprint {fp:#x}");
}
