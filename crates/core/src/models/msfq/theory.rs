//! The paper's approximate mean response time of MSFQ(ℓ) (and MSF, ℓ = 0) in the one-or-all
//! case (SPEC 5.6): the "analysis" curves of Fig. 2, drawn next to the simulations.
//!
//! It rests on the paper's approximations (at least one large job at the start of phase 1, at
//! least k small jobs at the start of phase 2), so it is accurate at high load and breaks down at
//! low load; see [`msfq_analysis`] for where it refuses to answer.
//!
//! Only plain arithmetic is used (no `exp`/`ln`), so native and WebAssembly builds agree bit for
//! bit without going through `libm`.

use serde::{Deserialize, Serialize};

use super::classes::MAX_CORES;

/// Inputs: k cores, total arrival rate lambda, fraction p1 of small (1-core) jobs (the rest need
/// all k cores), service rates mu1 (small) and muk (large), MSFQ threshold l in 0..=k-1 (l = 0 is
/// MSF).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MsfqInput {
    pub k: u32,
    pub lambda: f64,
    pub p1: f64,
    pub mu1: f64,
    pub muk: f64,
    pub l: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MsfqAnalysis {
    /// E\[T\] with the nominal weights p1, 1 − p1 (SPEC 5.4, RES-45).
    pub mean_response: f64,
    /// E[T^(1)].
    pub mean_response_small: f64,
    /// E[T^(k)].
    pub mean_response_large: f64,
    /// E[T^w], weighted by load shares ρ_j = j·λ_j/μ_j (SPEC 5.4).
    pub weighted_mean_response: f64,
    /// E[H1..H4].
    pub phase_means: [f64; 4],
    /// m1..m4, the fraction of (non-idle) time in each phase (paper Lemma 1).
    pub phase_fractions: [f64; 4],
}

/// The fixed point stops when no moment changes by more than this, relative to its size (SPEC 5.6
/// step 4). Relative because E[N_2^S²] reaches 1e8 and more near the stability bound, where an
/// absolute 1e-12 is below one unit in the last place and could never be met.
const TOLERANCE: f64 = 1e-12;

/// The map iterated in step 4 is affine and contracts by r_L·r_S / ((1 − r_L)(1 − r_S)) per
/// sweep, which tends to 1 at the stability bound: 1e-12 takes about 28 / (1 − factor) sweeps
/// (about 120 at λ = 7.5 and 6,000 at λ = 7.8 for the D2 preset). A sweep is a few dozen flops,
/// so the cap bounds the work to a fraction of a second (optimised) and only bites within about
/// 1e-6 (relative) of the bound.
const MAX_ITERATIONS: u32 = 10_000_000;

/// The one-or-all stability bound on total λ: 1 / (p1/(k mu1) + (1-p1)/muk) (SPEC 5.3,
/// Theorems 1 and 3: λ_1/(kμ_1) + λ_k/μ_k < 1).
pub fn one_or_all_lambda_max(k: u32, p1: f64, mu1: f64, muk: f64) -> f64 {
    1.0 / (p1 / (k as f64 * mu1) + (1.0 - p1) / muk)
}

/// Mean response times, phase means and phase fractions of MSFQ(ℓ) by SPEC 5.6 (the paper's
/// Section 5.3–5.4 with the errata of RES-47).
///
/// Errors name the offending input and its allowed range, e.g. "l must be in 0..=31 (got 40)",
/// and "unstable: λ1/(kμ1) + λk/μk = 1.0122 ≥ 1" outside the stability region (SPEC 5.3). Two
/// more cases are refused rather than answered with impossible numbers:
/// * at low load the fixed point can give E[N_2^S] ≤ k − 1, i.e. a phase 2 of non-positive mean
///   length, because the approximation assumes at least k small jobs at the start of phase 2 (for
///   k = 32, p1 = 0.9, μ = 1 this happens below λ ≈ 4.61 with ℓ = 31 and λ ≈ 3.77 with ℓ = 0, so
///   the D2 sweep's λ = 4 and 4.5 have no MSFQ(31) analysis point);
/// * the fixed point does not settle within the iteration cap (only right at the stability
///   bound), or the numbers overflow.
pub fn msfq_analysis(input: &MsfqInput) -> Result<MsfqAnalysis, String> {
    analyse(input, MAX_ITERATIONS)
}

fn validate(input: &MsfqInput) -> Result<(), String> {
    let MsfqInput { k, lambda, p1, mu1, muk, l } = *input;
    if !(2..=MAX_CORES).contains(&k) {
        return Err(format!("k must be in 2..={MAX_CORES} (got {k})"));
    }
    if !(lambda.is_finite() && lambda > 0.0) {
        return Err(format!("lambda must be in (0, ∞) (got {lambda})"));
    }
    if !(p1 > 0.0 && p1 < 1.0) {
        return Err(format!("p1 must be in (0, 1) (got {p1})"));
    }
    for (name, mu) in [("mu1", mu1), ("muk", muk)] {
        if !(mu.is_finite() && mu > 0.0) {
            return Err(format!("{name} must be in (0, ∞) (got {mu})"));
        }
    }
    if l > k - 1 {
        return Err(format!("l must be in 0..={} (got {l})", k - 1));
    }
    let load = p1 * lambda / (k as f64 * mu1) + (1.0 - p1) * lambda / muk;
    if load >= 1.0 {
        let max = one_or_all_lambda_max(k, p1, mu1, muk);
        return Err(format!("unstable: λ1/(kμ1) + λk/μk = {load:.4} ≥ 1 (lambda must be below {max:.6})"));
    }
    Ok(())
}

/// First and second moments, E\[X\] and E\[X²\], of a phase length or a job count.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Moments {
    m1: f64,
    m2: f64,
}

impl Moments {
    /// X + Y for independent X and Y.
    fn plus_independent(self, other: Moments) -> Moments {
        Moments { m1: self.m1 + other.m1, m2: self.m2 + other.m2 + 2.0 * self.m1 * other.m1 }
    }

    /// The sum of N i.i.d. copies of `part`, N independent of them (the paper's N □ X):
    /// E = E\[N\]·E\[X\], E\[·²\] = E\[N\]·E\[X²\] + (E\[N²\] − E\[N\])·E\[X\]².
    fn random_sum(count: Moments, part: Moments) -> Moments {
        Moments { m1: count.m1 * part.m1, m2: count.m1 * part.m2 + (count.m2 - count.m1) * part.m1 * part.m1 }
    }

    /// Poisson(rate) arrivals during an interval of length `interval`:
    /// E = rate·E\[T\], E\[·²\] = rate·E\[T\] + rate²·E\[T²\].
    fn arrivals(rate: f64, interval: Moments) -> Moments {
        Moments { m1: rate * interval.m1, m2: rate * interval.m1 + rate * rate * interval.m2 }
    }

    /// Exp(rate).
    fn exponential(rate: f64) -> Moments {
        Moments { m1: 1.0 / rate, m2: 2.0 / (rate * rate) }
    }

    /// An M/M/1 busy period, arrivals at `arrival`, service at `service` (SPEC 5.6 step 1):
    /// 1/(μ − λ) and 2/(μ²(1 − ρ)³).
    fn busy_period(arrival: f64, service: f64) -> Moments {
        let rho = arrival / service;
        Moments {
            m1: 1.0 / (service - arrival),
            m2: 2.0 / (service * service * (1.0 - rho) * (1.0 - rho) * (1.0 - rho)),
        }
    }

    /// Largest change of either moment relative to its size (see [`TOLERANCE`]).
    fn change(self, previous: Moments) -> f64 {
        let rel = |new: f64, old: f64| (new - old).abs() / new.abs().max(1.0);
        rel(self.m1, previous.m1).max(rel(self.m2, previous.m2))
    }
}

/// Phase 4: ℓ small jobs finish one by one, the j-th last at rate jμ_1 (SPEC 5.6 step 2,
/// paper Lemma 8).
fn phase4(l: u32, mu1: f64) -> Moments {
    (1..=l).fold(Moments { m1: 0.0, m2: 0.0 }, |sum, j| sum.plus_independent(Moments::exponential(j as f64 * mu1)))
}

/// Phase 3: the passage from k − 1 down to ℓ small jobs, a sum of independent passages
/// H_{3,j} from j to j − 1 (SPEC 5.6 step 3, paper Lemma 7). H_{3,k} is the M/M/1 busy period
/// at rate kμ_1; below k, the first event is an arrival with probability p = a/(a + b), after
/// which the passage restarts behind an H_{3,j+1}.
fn phase3(k: u32, l: u32, l1: f64, mu1: f64) -> Moments {
    let top = Moments::busy_period(l1, k as f64 * mu1);
    let (mut h1_next, mut h2_next) = (top.m1, top.m2);
    let (mut mean, mut variance) = (0.0, 0.0);
    for j in (l + 1..k).rev() {
        let (a, b) = (l1, j as f64 * mu1);
        let p = a / (a + b);
        let h1 = (1.0 + a * h1_next) / b;
        let h2 = ((a + b) / b)
            * (2.0 / ((a + b) * (a + b)) + 2.0 * p * (h1_next + h1) / (a + b) + p * (h2_next + 2.0 * h1_next * h1));
        mean += h1;
        variance += h2 - h1 * h1;
        (h1_next, h2_next) = (h1, h2);
    }
    Moments { m1: mean, m2: variance + mean * mean }
}

/// T3S, the mean response time of a small job arriving in phase 3 (SPEC 5.6 step 6, paper
/// Lemma 4).
///
/// During phase 3 the small-job count n is the M/M/k birth–death chain (births λ_1, deaths
/// min(n, k)·μ_1) started at k − 1 and absorbed at ℓ. By PASTA an arrival sees n = j with
/// probability proportional to t_j, the expected time spent in j before absorption, and then
/// takes (k + (j − k + 1)⁺)/(kμ_1): its own service, after j − k + 1 departures at rate kμ_1
/// when all k cores are busy.
///
/// Lemma 4's visit counts C_j follow from counting crossings of the edge j−1 ↔ j, which is
/// crossed downwards once more than upwards when the start k − 1 is at or above j, and equally
/// often when it is below: with d_j = min(j, k)·μ_1,
/// * C_j·d_j/(λ_1 + d_j) = C_{j−1}·λ_1/(λ_1 + d_{j−1}) + 1{j ≤ k − 1}, C_ℓ = 0 (absorbing);
///
/// which is the paper's recursion for ℓ + 1 ≤ j ≤ k. Above k it gives C_j = (λ_1/(kμ_1))·C_{j−1}
/// — geometric; the lemma's statement prints C_k in place of C_{j−1}, which would make the sums
/// diverge (its proof has the right ratio). We sum that tail in closed form. Here
/// t_j = C_j/(λ_1 + d_j), i.e. t_j·d_j is the number of downward crossings. The tests check the
/// result against a direct linear solve of the truncated chain.
fn phase3_small_response(k: u32, l: u32, l1: f64, mu1: f64) -> f64 {
    if l + 1 > k - 1 {
        // ℓ = k − 1: phase 3 is empty (m3 = 0), the value is never weighted. A job arriving there
        // would start at once.
        return 1.0 / mu1;
    }
    let kf = k as f64;
    let response = |j: u32| (kf + (j as f64 - kf + 1.0).max(0.0)) / (kf * mu1);
    let (mut time, mut weighted) = (0.0, 0.0);
    // Expected upward crossings into the current state j; none into ℓ + 1 from the absorbing ℓ.
    let mut up = 0.0;
    let mut t_j = 0.0;
    for j in l + 1..=k {
        let d = j as f64 * mu1;
        let down = up + if j < k { 1.0 } else { 0.0 };
        t_j = down / d;
        time += t_j;
        weighted += t_j * response(j);
        // Each visit to j leaves upwards with probability λ_1/(λ_1 + d): t_j·λ_1 crossings.
        up = t_j * l1;
    }
    // j = k + i, i ≥ 1: t_j = r^i·t_k with r = λ_1/(kμ_1) < 1 (stability), response
    // (k + 1 + i)/(kμ_1); Σ r^i = r/(1 − r), Σ i·r^i = r/(1 − r)².
    let r = l1 / (kf * mu1);
    let geometric = r / (1.0 - r);
    let geometric_i = geometric / (1.0 - r);
    time += t_j * geometric;
    weighted += t_j * ((kf + 1.0) * geometric + geometric_i) / (kf * mu1);
    weighted / time
}

/// The mean response time of an M/G/1 with exceptional first service, for the jobs that do not
/// get it, plus their own service (SPEC 5.6 step 6, Remark 2 and Lemma 2): W/(1 − p) + own.
fn efs_response(lambda: f64, regular: Moments, first: Moments, own: f64) -> f64 {
    let load = lambda * regular.m1;
    let w = lambda * regular.m2 / (2.0 * (1.0 - load))
        + lambda * (first.m2 - regular.m2) / (2.0 * (1.0 - load + lambda * first.m1));
    let p = (1.0 - load) / (1.0 - load + lambda * first.m1);
    w / (1.0 - p) + own
}

/// The parameters that stay fixed through the iteration.
struct Model {
    k: f64,
    l1: f64,
    lk: f64,
    /// M/M/1 busy period of small jobs served k at a time (rate kμ_1).
    small_busy: Moments,
    /// M/M/1 busy period of large jobs.
    large_busy: Moments,
    h3: Moments,
    h4: Moments,
}

/// One pass of SPEC 5.6 step 4 round the cycle 2 → 3 → 4 → 1, from the small jobs at the start
/// of phase 2 to those at the start of the next phase 2.
#[derive(Debug, Clone, Copy)]
struct Cycle {
    /// N_2^S, the input.
    n2: Moments,
    /// M = N_2^S − k + 1, the jobs phase 2 serves before it ends with k − 1 left (RES-47).
    m: Moments,
    h1: Moments,
    h2: Moments,
    /// H2 + H3 + H4, independent parts.
    t234: Moments,
    /// H4 + H1, correlated: a long phase 4 lets more large jobs in.
    t41: Moments,
    /// N_1^L.
    n1: Moments,
    /// The next N_2^S.
    n2_next: Moments,
}

impl Model {
    fn cycle(&self, n2: Moments) -> Cycle {
        let k1 = self.k - 1.0;
        let m = Moments { m1: n2.m1 - k1, m2: n2.m2 - 2.0 * k1 * n2.m1 + k1 * k1 };
        let h2 = Moments::random_sum(m, self.small_busy);
        let t234 = h2.plus_independent(self.h3).plus_independent(self.h4);
        let n1 = Moments::arrivals(self.lk, t234);
        let h1 = Moments::random_sum(n1, self.large_busy);
        // E[H4·H1] = E[H4·E[H1 | H2, H3, H4]] = b_L1·λ_k·E[H4·(H2 + H3 + H4)].
        let h4h1 = self.large_busy.m1 * self.lk * (self.h4.m1 * h2.m1 + self.h4.m1 * self.h3.m1 + self.h4.m2);
        let t41 = Moments { m1: self.h4.m1 + h1.m1, m2: self.h4.m2 + 2.0 * h4h1 + h1.m2 };
        let n2_next = Moments::arrivals(self.l1, t41);
        Cycle { n2, m, h1, h2, t234, t41, n1, n2_next }
    }
}

fn analyse(input: &MsfqInput, max_iterations: u32) -> Result<MsfqAnalysis, String> {
    validate(input)?;
    let MsfqInput { k, lambda, p1, mu1, muk, l } = *input;
    let kf = k as f64;
    let (l1, lk) = (p1 * lambda, (1.0 - p1) * lambda);
    let (r_s, r_l) = (l1 / (kf * mu1), lk / muk);
    let model = Model {
        k: kf,
        l1,
        lk,
        small_busy: Moments::busy_period(l1, kf * mu1),
        large_busy: Moments::busy_period(lk, muk),
        h3: phase3(k, l, l1, mu1),
        h4: phase4(l, mu1),
    };

    // SPEC 5.6 step 4: start from E[N1] = 1 and E[N2] = k (as point masses, so the second
    // moments are the squares; the contraction forgets the start anyway).
    let mut n1 = Moments { m1: 1.0, m2: 1.0 };
    let mut n2 = Moments { m1: kf, m2: kf * kf };
    let mut converged = None;
    for _ in 0..max_iterations {
        let cycle = model.cycle(n2);
        let change = cycle.n1.change(n1).max(cycle.n2_next.change(n2));
        if !change.is_finite() {
            return Err(overflow(input));
        }
        if change < TOLERANCE {
            converged = Some(cycle);
            break;
        }
        (n1, n2) = (cycle.n1, cycle.n2_next);
    }
    let Some(c) = converged else {
        return Err(format!(
            "the fixed point of the paper's approximation did not settle to {TOLERANCE:e} within \
             {max_iterations} iterations; lambda = {lambda} is too close to the stability bound {:.6}",
            one_or_all_lambda_max(k, p1, mu1, muk)
        ));
    };
    if c.m.m1 <= 0.0 {
        return Err(format!(
            "outside the approximation: at lambda = {lambda} the fixed point gives E[N2] = {:.3} ≤ k − 1 = {}, a \
             phase 2 of non-positive mean length (the approximation assumes at least k small jobs at the start of \
             phase 2, which fails at low load)",
            c.n2.m1,
            k - 1
        ));
    }

    // Step 5 (paper Lemma 1).
    let phase_means = [c.h1.m1, c.h2.m1, model.h3.m1, model.h4.m1];
    let total: f64 = phase_means.iter().sum();
    let phase_fractions = phase_means.map(|e| e / total);
    let [m1, m2, m3, m4] = phase_fractions;

    // Step 6. Large jobs: in phase 1 they queue behind the N_1^L present at its start, an EFS
    // whose first service is N_1^L □ S_k; in phases 2–4 they wait out the rest of H2 + H3 + H4
    // and the large work that arrived since it began.
    let t1l = efs_response(
        lk,
        Moments::exponential(muk),
        Moments { m1: c.n1.m1 / muk, m2: (c.n1.m2 + c.n1.m1) / (muk * muk) },
        1.0 / muk,
    );
    let t234l = (r_l + 1.0) * c.t234.m2 / (2.0 * c.t234.m1) + 1.0 / muk;
    // Small jobs: in phase 2 they queue behind M jobs served k at a time; in phases 4 and 1 they
    // wait out the rest of H4 + H1 and the small work that arrived since it began.
    let small_slot = kf * mu1;
    let t2s = efs_response(
        l1,
        Moments::exponential(small_slot),
        Moments { m1: c.m.m1 / small_slot, m2: (c.m.m2 + c.m.m1) / (small_slot * small_slot) },
        1.0 / mu1,
    );
    let t14s = (r_s + 1.0) * c.t41.m2 / (2.0 * c.t41.m1) + 1.0 / mu1;
    let t3s = phase3_small_response(k, l, l1, mu1);

    // Step 7 and SPEC 5.4.
    let large = t1l * m1 + t234l * (m2 + m3 + m4);
    let small = t14s * (m1 + m4) + t2s * m2 + t3s * m3;
    let (rho_small, rho_large) = (l1 / mu1, kf * lk / muk);
    let analysis = MsfqAnalysis {
        mean_response: p1 * small + (1.0 - p1) * large,
        mean_response_small: small,
        mean_response_large: large,
        weighted_mean_response: (rho_small * small + rho_large * large) / (rho_small + rho_large),
        phase_means,
        phase_fractions,
    };
    let finite = [analysis.mean_response, analysis.mean_response_small, analysis.mean_response_large]
        .iter()
        .chain(&[analysis.weighted_mean_response])
        .chain(&analysis.phase_means)
        .chain(&analysis.phase_fractions)
        .all(|x| x.is_finite());
    if !finite {
        return Err(overflow(input));
    }
    Ok(analysis)
}

fn overflow(input: &MsfqInput) -> String {
    format!(
        "the analysis overflows f64 for k = {}, lambda = {}, p1 = {}, mu1 = {}, muk = {}, l = {} (phase lengths \
         beyond 1e308)",
        input.k, input.lambda, input.p1, input.mu1, input.muk, input.l
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d2(lambda: f64, l: u32) -> MsfqInput {
        MsfqInput { k: 32, lambda, p1: 0.9, mu1: 1.0, muk: 1.0, l }
    }

    /// SPEC 5.6's reference table (k = 32, p_1 = 0.9, μ = 1): E[T], E[T^(1)], E[T^(32)] and the
    /// four phase means, printed to 3 decimals. We require 0.001 relative, and also half a unit in
    /// the last printed digit (5e-4), i.e. that our numbers round to the printed ones.
    #[test]
    fn reproduces_the_reference_table() {
        #[rustfmt::skip]
        let rows: [(f64, u32, [f64; 7]); 5] = [
            (6.0, 31, [12.165, 12.874, 5.783, 7.936, 1.263, 0.0, 4.027]),
            (7.0, 31, [26.923, 28.767, 10.321, 20.761, 4.870, 0.0, 4.027]),
            (7.5, 31, [70.957, 76.209, 23.689, 58.723, 15.547, 0.0, 4.027]),
            (7.0, 0, [324.546, 342.120, 166.381, 594.768, 144.593, 110.308, 0.0]),
            (7.5, 0, [1205.441, 1289.320, 450.538, 2368.264, 631.872, 157.549, 0.0]),
        ];
        let names = ["E[T]", "E[T^(1)]", "E[T^(32)]", "E[H1]", "E[H2]", "E[H3]", "E[H4]"];
        for (lambda, l, reference) in rows {
            let a = msfq_analysis(&d2(lambda, l)).unwrap();
            let [h1, h2, h3, h4] = a.phase_means;
            let got = [a.mean_response, a.mean_response_small, a.mean_response_large, h1, h2, h3, h4];
            for ((name, got), want) in names.iter().zip(got).zip(reference) {
                let error = (got - want).abs();
                assert!(error <= 1e-3 * want.abs() || error == 0.0, "λ={lambda} ℓ={l} {name}: {got} vs {want}");
                assert!(error <= 5e-4 + 1e-9, "λ={lambda} ℓ={l} {name}: {got} does not round to {want}");
            }
        }
    }

    #[test]
    fn stability_bound_and_phase_four() {
        assert!((one_or_all_lambda_max(32, 0.9, 1.0, 1.0) - 7.80488).abs() < 1e-5);
        let a = msfq_analysis(&d2(7.0, 31)).unwrap();
        // H_31 = Σ_{j=1}^{31} 1/j (SPEC 5.3).
        assert!((a.phase_means[3] - 4.0272).abs() < 1e-4, "{}", a.phase_means[3]);
        assert_eq!(a.phase_means[2], 0.0, "no phase 3 when ℓ = k − 1");
        let m = msfq_analysis(&d2(7.0, 0)).unwrap();
        assert_eq!(m.phase_means[3], 0.0, "no phase 4 for MSF");
        for a in [a, m] {
            assert!((a.phase_fractions.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let total: f64 = a.phase_means.iter().sum();
            assert!((a.phase_fractions[0] - a.phase_means[0] / total).abs() < 1e-15);
            // Phase 1 is a busy period of the large work that arrived in H2 + H3 + H4, so m1 is
            // exactly the large jobs' load r_L = 0.7.
            assert!((a.phase_fractions[0] - 0.7).abs() < 1e-12, "{}", a.phase_fractions[0]);
        }
    }

    /// SPEC 5.4: ρ_1 = λ_1/μ_1 and ρ_32 = 32·λ_32/μ_32, so for the D2 preset the weights are 0.9/4.1
    /// and 3.2/4.1 whatever λ is.
    #[test]
    fn weighted_mean_uses_load_shares() {
        let a = msfq_analysis(&d2(6.0, 31)).unwrap();
        let want = (0.9 * a.mean_response_small + 3.2 * a.mean_response_large) / 4.1;
        assert!((a.weighted_mean_response - want).abs() < 1e-12 * want);
        assert!((a.mean_response - (0.9 * a.mean_response_small + 0.1 * a.mean_response_large)).abs() < 1e-12);
        // MSF favours large jobs, which shows in E[T^w] (SPEC 5.5).
        assert!(a.weighted_mean_response < a.mean_response);
    }

    #[test]
    fn rejects_bad_inputs() {
        let cases = [
            (MsfqInput { l: 40, ..d2(6.0, 0) }, "l must be in 0..=31 (got 40)"),
            (MsfqInput { l: 32, ..d2(6.0, 0) }, "l must be in 0..=31 (got 32)"),
            (MsfqInput { k: 1, l: 0, ..d2(6.0, 0) }, "k must be in 2..=65536 (got 1)"),
            (MsfqInput { k: 70_000, ..d2(6.0, 0) }, "k must be in 2..=65536 (got 70000)"),
            (d2(0.0, 31), "lambda must be in (0, ∞) (got 0)"),
            (d2(-1.0, 31), "lambda must be in (0, ∞) (got -1)"),
            (d2(f64::NAN, 31), "lambda must be in (0, ∞) (got NaN)"),
            (d2(f64::INFINITY, 31), "lambda must be in (0, ∞) (got inf)"),
            (MsfqInput { p1: 1.0, ..d2(6.0, 31) }, "p1 must be in (0, 1) (got 1)"),
            (MsfqInput { p1: 0.0, ..d2(6.0, 31) }, "p1 must be in (0, 1) (got 0)"),
            (MsfqInput { p1: f64::NAN, ..d2(6.0, 31) }, "p1 must be in (0, 1) (got NaN)"),
            (MsfqInput { mu1: 0.0, ..d2(6.0, 31) }, "mu1 must be in (0, ∞) (got 0)"),
            (MsfqInput { muk: -2.0, ..d2(6.0, 31) }, "muk must be in (0, ∞) (got -2)"),
            (d2(7.9, 31), "unstable: λ1/(kμ1) + λk/μk = 1.0122 ≥ 1 (lambda must be below 7.804878)"),
            (
                d2(one_or_all_lambda_max(32, 0.9, 1.0, 1.0) * (1.0 + 1e-9), 31),
                "unstable: λ1/(kμ1) + λk/μk = 1.0000 ≥ 1",
            ),
        ];
        for (input, want) in cases {
            let error = msfq_analysis(&input).unwrap_err();
            assert!(error.starts_with(want), "{input:?}: {error}");
        }
    }

    /// The approximation needs E[N_2^S] > k − 1; at λ = 4 with ℓ = 31 the fixed point gives
    /// E[N_2^S] ≈ 23.5 and E[H2] ≈ −0.26, which we refuse rather than report.
    #[test]
    fn refuses_low_load_outside_the_approximation() {
        let error = msfq_analysis(&d2(4.0, 31)).unwrap_err();
        assert!(
            error.starts_with("outside the approximation: at lambda = 4 the fixed point gives E[N2] = 23.532"),
            "{error}"
        );
        assert!(msfq_analysis(&d2(4.0, 0)).is_ok(), "MSF's long phases keep E[N2] ≈ 41.6 > 31");
        assert!(msfq_analysis(&d2(5.0, 31)).is_ok());
    }

    #[test]
    fn iteration_cap_is_an_error() {
        let error = analyse(&d2(7.5, 31), 10).unwrap_err();
        assert!(error.contains("did not settle") && error.contains("within 10 iterations"), "{error}");
        // Close to the bound the full cap still converges.
        let near = msfq_analysis(&d2(7.8, 0)).unwrap();
        assert!(near.mean_response > 1e4);
    }

    /// Expected time in each transient state ℓ+1..=top of the phase-3 chain (births λ below
    /// `top`, deaths min(j, k)μ), and expected absorption time from each state, by two
    /// tridiagonal solves. `top` truncates the infinite chain.
    fn chain_solve(k: u32, l: u32, lambda: f64, mu: f64, top: u32, start: u32) -> (Vec<f64>, Vec<f64>) {
        let states: Vec<u32> = (l + 1..=top).collect();
        let n = states.len();
        let up = |i: usize| if i + 1 < n { lambda } else { 0.0 };
        let down = |i: usize| states[i].min(k) as f64 * mu;
        let thomas = |sub: &dyn Fn(usize) -> f64, sup: &dyn Fn(usize) -> f64, rhs: &dyn Fn(usize) -> f64| {
            // Row i: sub(i)·x[i−1] + (up(i) + down(i))·x[i] + sup(i)·x[i+1] = rhs(i).
            let (mut c, mut d) = (vec![0.0; n], vec![0.0; n]);
            for i in 0..n {
                let diag = up(i) + down(i) - if i > 0 { sub(i) * c[i - 1] } else { 0.0 };
                c[i] = if i + 1 < n { sup(i) / diag } else { 0.0 };
                d[i] = (rhs(i) - if i > 0 { sub(i) * d[i - 1] } else { 0.0 }) / diag;
            }
            let mut x = vec![0.0; n];
            for i in (0..n).rev() {
                x[i] = d[i] - if i + 1 < n { c[i] * x[i + 1] } else { 0.0 };
            }
            x
        };
        let s = states.iter().position(|&j| j == start).unwrap();
        // Occupation times t: t_i(λ_i + d_i) − t_{i−1}λ_{i−1} − t_{i+1}d_{i+1} = 1{i = start}.
        let times = thomas(&|i| -up(i - 1), &|i| -down(i + 1), &|i| if i == s { 1.0 } else { 0.0 });
        // Absorption times g: g_i(λ_i + d_i) − λ_i g_{i+1} − d_i g_{i−1} = 1.
        let absorb = thomas(&|i| -down(i), &|i| -up(i), &|_| 1.0);
        (times, absorb)
    }

    /// T3S (Lemma 4's C_j with the geometric tail) and the phase-3 moments of SPEC 5.6 step 3
    /// against a direct solve of the absorbing birth–death chain, where waiting matters
    /// (r_S = 0.75).
    #[test]
    fn phase_three_matches_a_direct_solve() {
        let (k, lambda, mu) = (4, 3.0, 1.0);
        for l in [0, 1, 2] {
            let (t, g) = chain_solve(k, l, lambda, mu, k + 400, k - 1);
            let states = l + 1..=k + 400;
            let response = |j: u32| (k as f64 + (j as f64 - k as f64 + 1.0).max(0.0)) / (k as f64 * mu);
            let time: f64 = t.iter().sum();
            let direct = states.clone().zip(&t).map(|(j, t)| t * response(j)).sum::<f64>() / time;
            let ours = phase3_small_response(k, l, lambda, mu);
            assert!((ours - direct).abs() < 1e-12 * direct, "ℓ={l}: {ours} vs {direct}");
            assert!(ours > 1.1 / mu, "arrivals in phase 3 do wait here: {ours}");
            // E[τ²] = 2·Σ_j t_j·g_j for the absorption time τ.
            let second = 2.0 * t.iter().zip(&g).map(|(t, g)| t * g).sum::<f64>();
            let h3 = phase3(k, l, lambda, mu);
            assert!((h3.m1 - time).abs() < 1e-12 * time, "ℓ={l}: E[H3] {} vs {time}", h3.m1);
            assert!((h3.m2 - second).abs() < 1e-10 * second, "ℓ={l}: E[H3²] {} vs {second}", h3.m2);
        }
        // The D2 preset under MSF: few arrivals in phase 3 find all 32 cores busy.
        let msf = phase3_small_response(32, 0, 6.3, 1.0);
        let (t, _) = chain_solve(32, 0, 6.3, 1.0, 32 + 200, 31);
        let direct = (1..=232u32).zip(&t).map(|(j, t)| t * (32.0 + (j as f64 - 31.0).max(0.0)) / 32.0).sum::<f64>()
            / t.iter().sum::<f64>();
        assert!((msf - direct).abs() < 1e-12 && msf > 1.0 && msf < 1.001, "{msf} vs {direct}");
    }
}
