//! Service-length distributions in slotted time.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::workload::sample;

/// Service length of a job in slots (SPEC 2.1). Text form: `geometric:100` (mean in slots)
/// or `deterministic:100`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SlotService {
    /// Geometric on {1, 2, …} with the given mean (μ = 1/mean): each slot in service the job
    /// leaves with probability μ.
    Geometric { mean: f64 },
    /// Exactly this many slots.
    Deterministic { slots: u64 },
}

impl SlotService {
    pub const KEY: &'static str = "service";
    pub const RANGE: &'static str =
        "geometric:MEAN with MEAN in [1, 1e9], or deterministic:SLOTS with SLOTS an integer in 1..=1000000000";

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, m);
        let (kind, value) = text
            .trim()
            .split_once(':')
            .ok_or_else(|| err(format!("'{text}' is not a service distribution; use {}", Self::RANGE)))?;
        match kind.trim() {
            "geometric" => {
                let mean: f64 = value.trim().parse().map_err(|_| err(format!("mean '{value}' is not a number")))?;
                if !(mean.is_finite() && (1.0..=1e9).contains(&mean)) {
                    return Err(err(format!("mean {value} must be in [1, 1e9] slots")));
                }
                Ok(Self::Geometric { mean })
            }
            "deterministic" => {
                let slots: u64 =
                    value.trim().parse().map_err(|_| err(format!("'{value}' is not a whole number of slots")))?;
                if !(1..=1_000_000_000).contains(&slots) {
                    return Err(err(format!("{slots} slots must be in 1..=1000000000")));
                }
                Ok(Self::Deterministic { slots })
            }
            other => Err(err(format!("unknown service distribution '{other}'; use {}", Self::RANGE))),
        }
    }

    pub fn mean(&self) -> f64 {
        match self {
            Self::Geometric { mean } => *mean,
            Self::Deterministic { slots } => *slots as f64,
        }
    }

    /// μ, the service rate per slot.
    pub fn rate(&self) -> f64 {
        1.0 / self.mean()
    }

    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        self.sampler().sample(rng)
    }

    /// A sampler for many draws: the geometric law's logarithm is worked out once.
    pub fn sampler(&self) -> ServiceSampler {
        match self {
            Self::Geometric { mean } => ServiceSampler::Geometric(sample::Geometric::new(1.0 / mean)),
            Self::Deterministic { slots } => ServiceSampler::Deterministic(*slots),
        }
    }
}

/// Draws service lengths of one [`SlotService`], the same numbers as [`SlotService::sample`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ServiceSampler {
    Geometric(sample::Geometric),
    Deterministic(u64),
}

impl ServiceSampler {
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        match self {
            Self::Geometric(g) => g.sample(rng),
            Self::Deterministic(slots) => *slots,
        }
    }
}

impl std::fmt::Display for SlotService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Geometric { mean } => write!(f, "geometric:{mean}"),
            Self::Deterministic { slots } => write!(f, "deterministic:{slots}"),
        }
    }
}

impl TryFrom<String> for SlotService {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<SlotService> for String {
    fn from(s: SlotService) -> Self {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(SlotService::parse("geometric:100").unwrap(), SlotService::Geometric { mean: 100.0 });
        assert_eq!(SlotService::parse("deterministic:100").unwrap().mean(), 100.0);
        for bad in ["geometric:0.5", "geometric:NaN", "deterministic:0", "deterministic:1.5", "exp:3", "100"] {
            assert_eq!(SlotService::parse(bad).unwrap_err().key, "service", "{bad}");
        }
    }
}
