//! DRA's reservation factor g(L) (PG-AS §4; SPEC 4.3, RES-24): the empty slots it keeps per
//! type. The theory needs g(L) = ω(log L) and o(L); the paper's example is (log L)^{1+ε} and its
//! experiments do not say which they used, so the default is ⌈(ln L)^1.5⌉ (12 at L = 180, 19 at
//! L = 1000). A constant or another power of ln L can be given instead.

use serde::{Deserialize, Serialize};

use crate::model::policy::{Param, PolicySpec};

/// The parameter `g` of DRA and DRA+Preemption.
pub const G: Param = Param::text(
    "g",
    ReservationFactor::RANGE,
    |text| ReservationFactor::parse(text).map(ReservationFactor::name).ok_or_else(String::new),
    "reservation factor g(L): empty slots kept per type (default ⌈(ln L)^1.5⌉)",
)
.symbol("g");

/// g(L): a constant, or ⌈(ln L)^p⌉ with p in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReservationFactor {
    Constant(u32),
    LogPower { hundredths: u16 },
}

impl Default for ReservationFactor {
    fn default() -> Self {
        Self::LogPower { hundredths: 150 }
    }
}

impl ReservationFactor {
    pub const RANGE: &'static str =
        "an integer in 0..=1000000, or ln^P with P in 0.01..=4 in steps of 0.01 (default ln^1.5)";

    /// g at `servers` = L.
    pub fn at(self, servers: usize) -> u64 {
        match self {
            Self::Constant(g) => u64::from(g),
            Self::LogPower { hundredths } => {
                let ln = libm::log(servers.max(1) as f64);
                libm::ceil(libm::pow(ln, f64::from(hundredths) / 100.0)) as u64
            }
        }
    }

    /// `12` or `ln^1.5`.
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        if let Some(p) = t.strip_prefix("ln^") {
            let p: f64 = p.parse().ok()?;
            let hundredths = libm::round(p * 100.0);
            // P is kept in hundredths: a P that is not a whole number of them (or rounds to 0,
            // like 1e-12) is refused rather than shown later as another value.
            return ((1.0..=400.0).contains(&hundredths) && (hundredths / 100.0 - p).abs() < 1e-9)
                .then_some(Self::LogPower { hundredths: hundredths as u16 });
        }
        t.parse().ok().filter(|g| *g <= 1_000_000).map(Self::Constant)
    }

    /// The factor `spec` sets with `g`, or the default.
    pub fn of(spec: &PolicySpec) -> Self {
        spec.param("g").and_then(Self::parse).unwrap_or_default()
    }

    pub fn name(self) -> String {
        match self {
            Self::Constant(g) => g.to_string(),
            Self::LogPower { hundredths } => format!("ln^{}", f64::from(hundredths) / 100.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn res24_values_and_forms() {
        let g = ReservationFactor::default();
        assert_eq!((g.at(180), g.at(1000), g.at(12), g.at(1)), (12, 19, 4, 0));
        assert_eq!(ReservationFactor::parse("ln^1.5"), Some(g));
        assert_eq!(ReservationFactor::parse("ln^2").unwrap().at(100), 22);
        assert_eq!(ReservationFactor::parse("7"), Some(ReservationFactor::Constant(7)));
        for bad in ["-1", "ln^0", "ln^5", "ln^1.234", "x", "2000000", "ln^1e-12", "ln^0.004"] {
            assert_eq!(ReservationFactor::parse(bad), None, "{bad}");
        }
        assert_eq!(g.name(), "ln^1.5");
        assert_eq!(
            ReservationFactor::parse(&ReservationFactor::Constant(3).name()),
            Some(ReservationFactor::Constant(3))
        );
    }
}
