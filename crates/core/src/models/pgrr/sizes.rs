//! Job-size distributions for one-resource models (PG-RR), in integer units of a server's
//! capacity.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::workload::sample;

/// Integer units per server capacity in PG-RR (SPEC RES-3).
///
/// 2^14 · 10^6: every decimal size with up to six digits is exact (0.4 + 0.6 fills a server
/// exactly), and so is the rounding target 2^-J of VQS for every J ≤ 20. Continuous
/// distributions are drawn on this grid; a step of 6·10^-11 of the capacity is far below the
/// 10^-12-relative tolerance SPEC 1.3 allows for floating point.
pub const CAPACITY_UNITS: u64 = 16_384 * 1_000_000;

/// Decimal digits accepted in a size or a probability bound.
const MAX_DECIMALS: usize = 6;

/// A job-size distribution on (0, 1] of the capacity, stored in [`CAPACITY_UNITS`].
///
/// Its text form is used by presets, `--set size=…` and URL links:
/// `uniform:0.01,0.19` or `discrete:0.4@0.5,0.6@0.5` (size@probability, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SizeDist {
    /// Uniform on the grid points of `[lo, hi]` (units, inclusive).
    Uniform { lo: u64, hi: u64 },
    /// Finitely many sizes with probabilities.
    Discrete(Discrete),
}

/// Sizes with probabilities; built only through [`SizeDist::parse`] or [`SizeDist::discrete`],
/// which check them.
#[derive(Debug, Clone, PartialEq)]
pub struct Discrete {
    sizes: Vec<u64>,
    /// Probabilities as the user wrote them (`2/3` stays `2/3` in links).
    texts: Vec<String>,
    probs: Vec<f64>,
    cdf: Vec<f64>,
}

impl Discrete {
    pub fn sizes(&self) -> &[u64] {
        &self.sizes
    }

    pub fn probs(&self) -> &[f64] {
        &self.probs
    }
}

impl SizeDist {
    /// The key used in error messages.
    pub const KEY: &'static str = "size";
    pub const RANGE: &'static str = "uniform:LO,HI with 0 < LO <= HI <= 1, or discrete:S@P,... with sizes in (0, 1] (at most 6 decimals) and probabilities (decimals or fractions a/b) summing to 1";

    /// Uniform on `[lo, hi]`, given as fractions of the capacity.
    pub fn uniform(lo: &str, hi: &str) -> Result<Self, ConfigError> {
        let lo_u = parse_fraction(lo)?;
        let hi_u = parse_fraction(hi)?;
        if lo_u > hi_u {
            return Err(err(format!("uniform bounds {lo} > {hi}; need LO <= HI")));
        }
        Ok(Self::Uniform { lo: lo_u, hi: hi_u })
    }

    /// Discrete sizes (fractions of the capacity) with probabilities.
    pub fn discrete(pairs: &[(&str, &str)]) -> Result<Self, ConfigError> {
        if pairs.is_empty() {
            return Err(err("discrete: at least one size@probability pair is needed"));
        }
        let mut sizes = Vec::with_capacity(pairs.len());
        let mut probs = Vec::with_capacity(pairs.len());
        let mut texts = Vec::with_capacity(pairs.len());
        for (s, p) in pairs {
            let size = parse_fraction(s)?;
            if sizes.contains(&size) {
                return Err(err(format!("size {s} is listed twice")));
            }
            let prob = crate::workload::parse_probability(p).map_err(err)?;
            if !(prob.is_finite() && prob > 0.0 && prob <= 1.0) {
                return Err(err(format!("probability {p} must be in (0, 1]")));
            }
            sizes.push(size);
            probs.push(prob);
            texts.push(p.trim().to_string());
        }
        let total: f64 = probs.iter().sum();
        if (total - 1.0).abs() > 1e-6 {
            return Err(err(format!("probabilities sum to {total}, must sum to 1")));
        }
        let mut cdf = Vec::with_capacity(probs.len());
        let mut acc = 0.0;
        for p in &probs {
            acc += p / total;
            cdf.push(acc);
        }
        *cdf.last_mut().expect("non-empty") = 1.0;
        Ok(Self::Discrete(Discrete { sizes, texts, probs, cdf }))
    }

    /// Parses the text form (see the type docs).
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let text = text.trim();
        let (kind, rest) = text.split_once(':').ok_or_else(|| err(format!("'{text}' is not a distribution")))?;
        match kind.trim() {
            "uniform" => {
                let (lo, hi) = rest.split_once(',').ok_or_else(|| err(format!("'{text}': uniform needs LO,HI")))?;
                Self::uniform(lo, hi)
            }
            "discrete" => {
                let pairs = rest
                    .split(',')
                    .map(|pair| pair.split_once('@').ok_or_else(|| err(format!("'{pair}' is not SIZE@PROBABILITY"))))
                    .collect::<Result<Vec<_>, _>>()?;
                Self::discrete(&pairs)
            }
            other => Err(err(format!("unknown distribution '{other}'"))),
        }
    }

    /// Draws one size in units.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        match self {
            Self::Uniform { lo, hi } => sample::uniform_int(rng, *lo, *hi),
            Self::Discrete(d) => {
                let u = rng.random::<f64>();
                let i = d.cdf.partition_point(|c| *c <= u).min(d.sizes.len() - 1);
                d.sizes[i]
            }
        }
    }

    /// Mean size as a fraction of the capacity (R̄ in PG-RR).
    pub fn mean(&self) -> f64 {
        match self {
            Self::Uniform { lo, hi } => (*lo as f64 + *hi as f64) / 2.0 / CAPACITY_UNITS as f64,
            Self::Discrete(d) => {
                d.sizes.iter().zip(&d.probs).map(|(s, p)| *s as f64 * p).sum::<f64>() / CAPACITY_UNITS as f64
            }
        }
    }

    /// Smallest possible size in units.
    pub fn min(&self) -> u64 {
        match self {
            Self::Uniform { lo, .. } => *lo,
            Self::Discrete(d) => *d.sizes.iter().min().expect("non-empty"),
        }
    }

    /// Largest possible size in units.
    pub fn max(&self) -> u64 {
        match self {
            Self::Uniform { hi, .. } => *hi,
            Self::Discrete(d) => *d.sizes.iter().max().expect("non-empty"),
        }
    }
}

impl std::fmt::Display for SizeDist {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Uniform { lo, hi } => write!(f, "uniform:{},{}", format_fraction(*lo), format_fraction(*hi)),
            Self::Discrete(d) => {
                write!(f, "discrete:")?;
                for (i, (s, p)) in d.sizes.iter().zip(&d.texts).enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{}@{}", format_fraction(*s), p)?;
                }
                Ok(())
            }
        }
    }
}

impl TryFrom<String> for SizeDist {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<SizeDist> for String {
    fn from(d: SizeDist) -> Self {
        d.to_string()
    }
}

fn err(message: impl Into<String>) -> ConfigError {
    ConfigError::new(SizeDist::KEY, message)
}

/// Parses a decimal fraction of the capacity in (0, 1] exactly into units.
pub fn parse_fraction(text: &str) -> Result<u64, ConfigError> {
    let t = text.trim();
    let bad = || err(format!("size '{t}' must be a decimal in (0, 1] with at most {MAX_DECIMALS} decimals"));
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || frac.len() > MAX_DECIMALS
        || int.len() > 1
    {
        return Err(bad());
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().map_err(|_| bad())? };
    let mut micro = int * 1_000_000;
    if !frac.is_empty() {
        let digits: u64 = frac.parse().map_err(|_| bad())?;
        micro += digits * 10u64.pow((MAX_DECIMALS - frac.len()) as u32);
    }
    if micro == 0 || micro > 1_000_000 {
        return Err(bad());
    }
    Ok(micro * (CAPACITY_UNITS / 1_000_000))
}

/// Formats units as a fraction of the capacity: exact decimals when possible.
pub fn format_fraction(units: u64) -> String {
    let step = CAPACITY_UNITS / 1_000_000;
    if units.is_multiple_of(step) {
        let micro = units / step;
        let s = format!("{}.{:06}", micro / 1_000_000, micro % 1_000_000);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{}", units as f64 / CAPACITY_UNITS as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};

    #[test]
    fn decimals_are_exact() {
        assert_eq!(parse_fraction("0.4").unwrap() + parse_fraction("0.6").unwrap(), CAPACITY_UNITS);
        assert_eq!(parse_fraction("1").unwrap(), CAPACITY_UNITS);
        assert_eq!(parse_fraction(".5").unwrap(), CAPACITY_UNITS / 2);
        assert_eq!(format_fraction(parse_fraction("0.45").unwrap()), "0.45");
        assert_eq!(format_fraction(CAPACITY_UNITS), "1");
        // 2^-20 of the capacity is a whole number of units.
        assert_eq!(CAPACITY_UNITS % (1 << 20), 0);
        for bad in ["0", "1.5", "-0.2", "abc", "0.1234567", "", "NaN", "1e-3"] {
            assert!(parse_fraction(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_round_trip_and_errors() {
        for text in ["uniform:0.01,0.19", "discrete:0.4@0.5,0.6@0.5", "discrete:0.2@2/3,0.5@1/3"] {
            let d = SizeDist::parse(text).unwrap();
            assert_eq!(SizeDist::parse(&d.to_string()).unwrap(), d);
        }
        for bad in [
            "uniform:0.2,0.1",
            "discrete:0.4@0.5",
            "discrete:0.4@0.5,0.4@0.5",
            "discrete:0.4@-1,0.6@2",
            "normal:0,1",
            "uniform:0.1",
            "discrete:1.2@1",
        ] {
            let e = SizeDist::parse(bad).unwrap_err();
            assert_eq!(e.key, "size", "{bad}");
        }
    }

    #[test]
    fn sampling_matches_the_distribution() {
        let d = SizeDist::parse("discrete:0.2@2/3,0.5@1/3").unwrap();
        assert!((d.mean() - 0.3).abs() < 1e-6);
        let mut rng = stream(9, Stream::Sizes);
        let n = 60_000;
        let small = (0..n).filter(|_| d.sample(&mut rng) == parse_fraction("0.2").unwrap()).count();
        assert!((small as f64 / n as f64 - 2.0 / 3.0).abs() < 0.01);
        let u = SizeDist::parse("uniform:0.1,0.9").unwrap();
        let mean = (0..n).map(|_| u.sample(&mut rng) as f64).sum::<f64>() / n as f64 / CAPACITY_UNITS as f64;
        assert!((mean - 0.5).abs() < 0.005);
    }
}
