//! How fast a race plays ([`Speed`]), and its link key.

use std::fmt;

use packlab_core::ConfigError;

use crate::format::group_digits;

/// The page's own link key of the speed (the CLI accepts and ignores it).
pub const SPEED_KEY: &str = "speed";

/// How fast the simulation runs while playing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Speed {
    /// The whole run, to the horizon, in this many seconds of wall time: the pace a story
    /// is told at, whatever the model, its time unit or the horizon.
    Duration(u32),
    /// Simulated slots (or time units) per second of wall time.
    PerSecond(u64),
    /// As many slots as each frame's time budget allows.
    Max,
}

impl Speed {
    /// Every preset plays its whole run in 30 s: long enough to watch the story (a queue
    /// that grows, a reward that converges), short enough for a lecture. Before, the default
    /// was 10^5 slots/s, which ended pgas-c6 in 0.18 s and pgrr-a2 after 200 s.
    pub const DEFAULT: Speed = Speed::Duration(30);
    /// Fastest explicit rate; beyond it, `max` says what is meant.
    pub const TOP_RATE: u64 = 10_000_000;
    /// Longest run duration: an hour.
    pub const LONGEST: u32 = 3_600;
    /// The choices the speed menu offers (a link may hold any rate or duration in range).
    pub const CHOICES: [Speed; 12] = [
        Speed::Duration(10),
        Speed::Duration(30),
        Speed::Duration(60),
        Speed::Duration(180),
        Speed::Duration(600),
        Speed::PerSecond(10),
        Speed::PerSecond(100),
        Speed::PerSecond(1_000),
        Speed::PerSecond(10_000),
        Speed::PerSecond(100_000),
        Speed::PerSecond(1_000_000),
        Speed::Max,
    ];

    /// Parses `max`, a duration `30s` (1..=3600 seconds) or a whole number of slots per
    /// second in 1..=10^7.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        let wrong = || {
            ConfigError::new(
                SPEED_KEY,
                format!(
                    "must be max, a run duration in seconds such as 30s (1s..={}s), or slots per second, an \
                     integer in 1..={} (got '{text}')",
                    Self::LONGEST,
                    Self::TOP_RATE
                ),
            )
        };
        if let Some(seconds) = text.strip_suffix('s') {
            return match seconds.trim().parse::<u32>() {
                Ok(s) if (1..=Self::LONGEST).contains(&s) => Ok(Speed::Duration(s)),
                _ => Err(wrong()),
            };
        }
        match text.parse::<u64>() {
            Ok(rate) if (1..=Self::TOP_RATE).contains(&rate) => Ok(Speed::PerSecond(rate)),
            _ => Err(wrong()),
        }
    }

    /// Simulated time units per second of wall time for a run of `horizon` units, or `None`
    /// for as fast as possible.
    pub fn rate(self, horizon: u64) -> Option<f64> {
        match self {
            Speed::Duration(seconds) => Some(horizon as f64 / f64::from(seconds)),
            Speed::PerSecond(rate) => Some(rate as f64),
            Speed::Max => None,
        }
    }

    /// For people: "whole run in 30 s", "100 000 slots/s", "as fast as possible"; `unit`
    /// names the time unit ("slots", "time units").
    pub fn label(self, unit: &str) -> String {
        match self {
            Speed::Duration(seconds) if seconds % 60 == 0 => format!("whole run in {} min", seconds / 60),
            Speed::Duration(seconds) => format!("whole run in {seconds} s"),
            Speed::PerSecond(rate) => format!("{} {unit}/s", group_digits(rate)),
            Speed::Max => "as fast as possible".into(),
        }
    }
}

impl fmt::Display for Speed {
    /// The link form: `max` or the rate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::Duration(seconds) => write!(f, "{seconds}s"),
            Speed::PerSecond(rate) => write!(f, "{rate}"),
            Speed::Max => f.write_str("max"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_parse_and_print() {
        assert_eq!(Speed::parse("max").unwrap(), Speed::Max);
        assert_eq!(Speed::parse("250").unwrap(), Speed::PerSecond(250));
        assert_eq!(Speed::parse(" 45s ").unwrap(), Speed::Duration(45));
        for bad in ["0", "-1", "fast", "10000001", "0s", "3601s", "s", "1.5s", "-3s"] {
            let e = Speed::parse(bad).unwrap_err();
            assert_eq!(e.key, "speed");
            assert!(e.message.contains("1..=10000000") && e.message.contains("1s..=3600s"), "{e}");
        }
        assert_eq!(Speed::Duration(30).rate(2_000_000), Some(2_000_000.0 / 30.0));
        assert_eq!(Speed::PerSecond(7).rate(2_000_000), Some(7.0));
        assert_eq!(Speed::Max.rate(1), None);
        assert_eq!(Speed::Duration(30).label("slots"), "whole run in 30 s");
        assert_eq!(Speed::Duration(180).label("slots"), "whole run in 3 min");
        for s in Speed::CHOICES {
            assert_eq!(Speed::parse(&s.to_string()).unwrap(), s);
        }
    }
}
