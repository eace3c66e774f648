//! The weight function f of the Poisson clocks (GH-RA §3.2, RES-51): queue j's clock ticks at
//! rate exp(f(Q_j)).

use serde::{Deserialize, Serialize};

use crate::model::policy::{Param, PolicySpec};

/// The parameter `f` of Algorithms 1 and 2.
pub const F: Param = Param::choice(
    "f",
    &["log", "log10", "loglog"],
    "weight function: clocks tick at exp(f(Q)); log = 1+Q, log10 = 10(1+Q) (default), loglog = 1+ln(1+Q)",
)
.no_default();

/// A named weight function. Rates are computed in closed form (exp(f(x)) simplifies for each
/// of them), with `libm` where a logarithm remains, so they are the same on every platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Weight {
    /// f(x) = log(1 + x): rate 1 + Q. The paper's introductory example.
    Log,
    /// f(x) = log(10(1 + x)): rate 10(1 + Q). The paper's simulations (the default).
    #[default]
    Log10,
    /// f(x) = log(1 + log(1 + x)): rate 1 + ln(1 + Q). Grows as o(log x), which is what the
    /// proofs of Theorems 1 and 2 assume (separation of time scales); the paper's own
    /// simulations use the Θ(log x) forms above.
    LogLog,
}

impl Weight {
    pub const ALL: [Weight; 3] = [Weight::Log, Weight::Log10, Weight::LogLog];
    pub const RANGE: &'static str = "log, log10 or loglog";

    /// The name used in policy parameters (`alg1:f=log`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Log => "log",
            Self::Log10 => "log10",
            Self::LogLog => "loglog",
        }
    }

    /// The formula, for people.
    pub fn formula(self) -> &'static str {
        match self {
            Self::Log => "f(x) = log(1+x): rate 1+Q",
            Self::Log10 => "f(x) = log(10(1+x)): rate 10(1+Q)",
            Self::LogLog => "f(x) = log(1+log(1+x)): rate 1+ln(1+Q)",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|w| w.name() == name)
    }

    /// The weight `spec` sets with `f`, or the default.
    pub fn of(spec: &PolicySpec) -> Self {
        spec.param("f").and_then(Self::from_name).unwrap_or_default()
    }

    /// exp(f(q)), the clock rate of a queue holding `q` jobs.
    pub fn rate(self, q: usize) -> f64 {
        let x = q as f64;
        match self {
            Self::Log => 1.0 + x,
            Self::Log10 => 10.0 * (1.0 + x),
            Self::LogLog => 1.0 + libm::log1p(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_exp_of_f() {
        for q in [0usize, 1, 7, 1000] {
            let x = q as f64;
            assert!((Weight::Log.rate(q) - (1.0 + x).ln().exp()).abs() < 1e-9);
            assert!((Weight::Log10.rate(q) - (10.0 * (1.0 + x)).ln().exp()).abs() < 1e-9);
            assert!((Weight::LogLog.rate(q) - (1.0 + (1.0 + x).ln()).ln().exp()).abs() < 1e-9);
        }
        for w in Weight::ALL {
            assert_eq!(Weight::from_name(w.name()), Some(w));
        }
    }
}
