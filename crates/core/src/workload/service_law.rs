//! The shape of service times in continuous time, shared by the MSFQ and GH-RA models.

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use super::sample;
use crate::ConfigError;

/// The shape of service times in continuous time; class i's service time is its mean size
/// times a draw of mean 1 from this law. Text form: `exponential`, `deterministic` or
/// `hyperexponential:SCV`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum ServiceLaw {
    /// Exp(μ_i), the papers' assumption.
    Exponential,
    /// Exactly the mean size.
    Deterministic,
    /// Two-phase hyperexponential with balanced means and squared coefficient of variation
    /// `scv` ≥ 1: heavier tails than the exponential at the same mean.
    Hyperexponential { scv: f64 },
}

impl ServiceLaw {
    pub const KEY: &'static str = "service";
    pub const RANGE: &'static str = "exponential, deterministic, or hyperexponential:SCV with SCV in [1, 1000]";

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, m);
        match text.trim().split_once(':') {
            None if text.trim() == "exponential" => Ok(Self::Exponential),
            None if text.trim() == "deterministic" => Ok(Self::Deterministic),
            Some(("hyperexponential", v)) => {
                let scv: f64 = v.trim().parse().map_err(|_| err(format!("SCV '{v}' is not a number")))?;
                if !(scv.is_finite() && (1.0..=1000.0).contains(&scv)) {
                    return Err(err(format!("SCV {v} must be in [1, 1000]")));
                }
                Ok(Self::Hyperexponential { scv })
            }
            _ => Err(err(format!("unknown service law '{text}'; use {}", Self::RANGE))),
        }
    }

    /// A service time of mean `mean`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R, mean: f64) -> f64 {
        match *self {
            Self::Exponential => sample::exponential(rng, 1.0 / mean),
            Self::Deterministic => mean,
            Self::Hyperexponential { scv } => {
                // Balanced means: branch i has probability p_i and rate 2·p_i/mean, so each
                // branch carries half the mean; p = (1 ± sqrt((scv−1)/(scv+1)))/2.
                let p = 0.5 * (1.0 + libm::sqrt((scv - 1.0) / (scv + 1.0)));
                let branch = if rng.random::<f64>() < p { p } else { 1.0 - p };
                sample::exponential(rng, 2.0 * branch / mean)
            }
        }
    }
}

impl std::fmt::Display for ServiceLaw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Exponential => write!(f, "exponential"),
            Self::Deterministic => write!(f, "deterministic"),
            Self::Hyperexponential { scv } => write!(f, "hyperexponential:{scv}"),
        }
    }
}

impl TryFrom<String> for ServiceLaw {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<ServiceLaw> for String {
    fn from(s: ServiceLaw) -> Self {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Stream, stream};

    #[test]
    fn service_laws_have_their_mean() {
        let mut rng = stream(2, Stream::Service);
        for law in [ServiceLaw::Exponential, ServiceLaw::Deterministic, ServiceLaw::Hyperexponential { scv: 4.0 }] {
            let n = 200_000;
            let xs: Vec<f64> = (0..n).map(|_| law.sample(&mut rng, 2.0)).collect();
            let m = xs.iter().sum::<f64>() / n as f64;
            let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
            assert!((m - 2.0).abs() < 0.05, "{law}: mean {m}");
            let scv = v / (m * m);
            let want = match law {
                ServiceLaw::Exponential => 1.0,
                ServiceLaw::Deterministic => 0.0,
                ServiceLaw::Hyperexponential { scv } => scv,
            };
            assert!((scv - want).abs() < 0.1 * want.max(0.5), "{law}: scv {scv}");
            assert_eq!(ServiceLaw::parse(&law.to_string()).unwrap(), law);
        }
        assert!(ServiceLaw::parse("hyperexponential:0.5").is_err());
        assert_eq!(ServiceLaw::parse("gamma").unwrap_err().key, "service");
    }
}
