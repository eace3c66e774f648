//! Samplers built only on uniform draws and `libm`, so they give the same numbers natively
//! and in WebAssembly (see the determinism contract in the crate docs).
//!
//! `rand_distr` would do the job, but its floating-point functions come from `std` or `libm`
//! depending on features that any other crate in the build can switch on; a shared link must
//! replay bit for bit, so the few samplers we need are written here against `libm` directly.

use rand::{Rng, RngExt};

/// A uniform draw in (0, 1].
pub fn open_unit<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    1.0 - rng.random::<f64>()
}

/// Poisson(λ) by inversion, in pieces of mean at most 16 (a sum of independent Poisson
/// counts is Poisson). The cost is O(1 + λ), i.e. O(1) per arriving job, and `exp(-piece)`
/// never underflows.
pub fn poisson<R: Rng + ?Sized>(rng: &mut R, lambda: f64) -> u64 {
    const PIECE: f64 = 16.0;
    debug_assert!(lambda.is_finite() && lambda >= 0.0);
    let mut total = 0;
    let mut rest = lambda;
    while rest > 0.0 {
        let piece = rest.min(PIECE);
        rest -= piece;
        total += poisson_inversion(rng, piece);
    }
    total
}

fn poisson_inversion<R: Rng + ?Sized>(rng: &mut R, lambda: f64) -> u64 {
    let u = rng.random::<f64>();
    let mut k = 0;
    let mut p = libm::exp(-lambda);
    let mut cdf = p;
    // `p > 0` ends the walk if rounding keeps the cumulative sum just below u.
    while u >= cdf && p > 0.0 {
        k += 1;
        p *= lambda / k as f64;
        cdf += p;
    }
    k
}

/// Geometric on {1, 2, …} with success probability `p`: P(S = s) = (1−p)^(s−1) p, mean 1/p
/// (SPEC 1.5; note the support starts at 1). Inversion: S = ⌈ln U / ln(1−p)⌉.
pub fn geometric<R: Rng + ?Sized>(rng: &mut R, p: f64) -> u64 {
    Geometric::new(p).sample(rng)
}

/// [`geometric`] with ln(1−p) worked out once, for drawing many lengths with one `p`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometric {
    p: f64,
    ln_q: f64,
}

impl Geometric {
    pub fn new(p: f64) -> Self {
        debug_assert!(p > 0.0 && p <= 1.0);
        Self { p, ln_q: libm::log1p(-p) }
    }

    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        if self.p >= 1.0 {
            return 1;
        }
        let u = open_unit(rng);
        // `ceil` is exact on every target (IEEE 754 defines it), so the standard one keeps runs
        // bit for bit; in WebAssembly it is one instruction where `libm::ceil` is a call.
        let s = (libm::log(u) / self.ln_q).ceil();
        if s < 1.0 {
            1
        } else if s >= u64::MAX as f64 {
            u64::MAX
        } else {
            s as u64
        }
    }
}

/// The cumulative probabilities of a Poisson superposition's types and its total rate, for
/// arrival rates `rates` (GH-RA's and PG-AS's arrivals, at the start and at each change).
pub fn type_cdf(rates: &[f64]) -> (Vec<f64>, f64) {
    let total: f64 = rates.iter().sum();
    let mut acc = 0.0;
    let cdf = rates
        .iter()
        .map(|r| {
            acc += r / total;
            acc
        })
        .collect();
    (cdf, total)
}

/// Exp(rate).
pub fn exponential<R: Rng + ?Sized>(rng: &mut R, rate: f64) -> f64 {
    -libm::log(open_unit(rng)) / rate
}

/// Uniform integer in `lo..=hi`.
pub fn uniform_int<R: Rng + ?Sized>(rng: &mut R, lo: u64, hi: u64) -> u64 {
    rng.random_range(lo..=hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};

    fn mean_var(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        (m, xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0))
    }

    #[test]
    fn poisson_moments() {
        let mut rng = stream(3, Stream::Arrivals);
        for lambda in [0.014, 0.5, 3.0, 40.0, 950.0] {
            let n = 40_000;
            let xs: Vec<f64> = (0..n).map(|_| poisson(&mut rng, lambda) as f64).collect();
            let (m, v) = mean_var(&xs);
            let se = (lambda / n as f64).sqrt();
            assert!((m - lambda).abs() < 5.0 * se, "lambda {lambda}: mean {m}");
            assert!((v / lambda - 1.0).abs() < 0.06, "lambda {lambda}: variance {v}");
        }
    }

    #[test]
    fn geometric_moments_and_support() {
        let mut rng = stream(4, Stream::Service);
        let p = 0.01;
        let xs: Vec<f64> = (0..100_000).map(|_| geometric(&mut rng, p) as f64).collect();
        assert!(xs.iter().all(|x| *x >= 1.0));
        let (m, v) = mean_var(&xs);
        assert!((m - 100.0).abs() < 1.5, "mean {m}");
        assert!((v / ((1.0 - p) / (p * p)) - 1.0).abs() < 0.05, "variance {v}");
        // P(S = 1) = p.
        let ones = xs.iter().filter(|x| **x == 1.0).count() as f64 / xs.len() as f64;
        assert!((ones - p).abs() < 0.002);
        assert_eq!(geometric(&mut rng, 1.0), 1);
    }

    #[test]
    fn exponential_mean() {
        let mut rng = stream(5, Stream::Service);
        let xs: Vec<f64> = (0..100_000).map(|_| exponential(&mut rng, 2.0)).collect();
        let (m, _) = mean_var(&xs);
        assert!((m - 0.5).abs() < 0.01);
    }
}
