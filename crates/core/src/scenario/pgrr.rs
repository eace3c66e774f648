//! The PG-RR scenario (SPEC section 2).

use serde::{Deserialize, Serialize};

use super::{KeySpec, parse_int, parse_positive};
use crate::ConfigError;
use crate::engine::slotted::SlottedConfig;
use crate::model::Partition;
use crate::model::partition::{MAX_J, MIN_J};
use crate::workload::{CAPACITY_UNITS, SizeDist, SlotService};

/// Largest server count accepted.
pub const MAX_SERVERS: u64 = 100_000;
/// Largest mean number of arrivals per slot (keeps one slot's work bounded).
pub const MAX_ARRIVAL_RATE: f64 = 1e6;
/// Largest horizon in slots.
pub const MAX_HORIZON: u64 = 10_000_000_000;

/// L unit-capacity servers in slotted time, Poisson arrivals of jobs with random sizes.
///
/// The load knob is the traffic intensity α = λ·R̄ / (μ·L): the offered work per slot over the
/// cluster's capacity, so α = 1 is the work-conservation bound ρ* ≤ L/R̄ (SPEC 2.3) and
/// λ = α·μ·L/R̄ (the A3/A4 formula, RES-49). The papers' λ values are α = 0.7 for A1 and A6
/// (λ = 0.014 = 1.4μ) and α = 0.918 for A2 (λ = 0.0306).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PgrrScenario {
    pub servers: u32,
    /// α.
    pub load: f64,
    pub size: SizeDist,
    pub service: SlotService,
    /// Partition depth J of the virtual-queue policies (a policy may override it).
    pub j: u8,
    pub seed: u64,
    /// Slots simulated.
    pub horizon: u64,
    /// Slots discarded before measuring.
    pub warmup: u64,
    /// Series grid interval in slots.
    pub sample_every: u64,
}

impl PgrrScenario {
    pub const KEYS: &'static [KeySpec] = &[
        KeySpec {
            key: "load",
            help: "traffic intensity α = λ·R̄/(μ·L); 1 is the work-conservation bound",
            range: "a number in (0, 10]",
        },
        KeySpec { key: "servers", help: "number of servers L", range: "an integer in 1..=100000" },
        KeySpec { key: "size", help: "job-size distribution, as fractions of a server", range: SizeDist::RANGE },
        KeySpec { key: "service", help: "service length in slots", range: SlotService::RANGE },
        KeySpec {
            key: "j",
            help: "partition depth J of VQS and VQS-BF (2J virtual queues)",
            range: "an integer in 2..=20",
        },
        KeySpec { key: "seed", help: "random seed", range: "an integer in 0..=18446744073709551615" },
        KeySpec { key: "horizon", help: "slots to simulate", range: "an integer in 1..=10000000000" },
        KeySpec { key: "warmup", help: "slots discarded before measuring", range: "an integer below the horizon" },
        KeySpec { key: "sample_every", help: "series grid interval in slots", range: "an integer in 1..=horizon" },
    ];

    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "load" => self.load.to_string(),
            "servers" => self.servers.to_string(),
            "size" => self.size.to_string(),
            "service" => self.service.to_string(),
            "j" => self.j.to_string(),
            "seed" => self.seed.to_string(),
            "horizon" => self.horizon.to_string(),
            "warmup" => self.warmup.to_string(),
            "sample_every" => self.sample_every.to_string(),
            _ => return None,
        })
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "load" => self.load = parse_positive(key, value, 0.0, 10.0)?,
            "servers" => self.servers = parse_int(key, value, 1, MAX_SERVERS)? as u32,
            "size" => self.size = SizeDist::parse(value)?,
            "service" => self.service = SlotService::parse(value)?,
            "j" => self.j = parse_int(key, value, MIN_J as u64, MAX_J as u64)? as u8,
            "seed" => self.seed = parse_int(key, value, 0, u64::MAX)?,
            "horizon" => self.horizon = parse_int(key, value, 1, MAX_HORIZON)?,
            "warmup" => self.warmup = parse_int(key, value, 0, MAX_HORIZON - 1)?,
            "sample_every" => self.sample_every = parse_int(key, value, 1, MAX_HORIZON)?,
            _ => {
                let known: Vec<_> = Self::KEYS.iter().map(|k| k.key).collect();
                return Err(ConfigError::new(key, format!("unknown key; known keys: {}", known.join(", "))));
            }
        }
        Ok(())
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        super::check_run_window(self.warmup, self.horizon, self.sample_every)?;
        let rate = self.arrival_rate();
        if rate > MAX_ARRIVAL_RATE {
            return Err(ConfigError::new(
                "load",
                format!("gives λ = {rate:.3e} arrivals per slot; at most {MAX_ARRIVAL_RATE:e} (lower load or servers)"),
            ));
        }
        Ok(())
    }

    /// λ = α·μ·L/R̄, mean arrivals per slot.
    pub fn arrival_rate(&self) -> f64 {
        self.load * self.service.rate() * self.servers as f64 / self.size.mean()
    }

    /// α for a given λ (the inverse of [`PgrrScenario::arrival_rate`]).
    pub fn load_for_rate(&self, rate: f64) -> f64 {
        rate * self.size.mean() / (self.service.rate() * self.servers as f64)
    }

    /// The engine configuration; `classes_j` is the partition used to count waiting jobs by
    /// size class (the policy's J for VQ policies).
    pub fn slotted_config(&self, classes_j: u8, max_points: usize) -> SlottedConfig {
        SlottedConfig {
            servers: self.servers as usize,
            capacity: CAPACITY_UNITS,
            arrival_rate: self.arrival_rate(),
            sizes: self.size.clone(),
            service: self.service,
            warmup: self.warmup,
            sample_every: self.sample_every,
            max_points,
            classes: Partition::new(classes_j, CAPACITY_UNITS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn paper_rates_from_load() {
        let approx = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let crate::scenario::Scenario::Pgrr(a1) = preset("pgrr-a1").unwrap().scenario else {
            unreachable!("a PG-RR preset")
        };
        assert!(approx(a1.arrival_rate(), 0.014));
        let crate::scenario::Scenario::Pgrr(a2) = preset("pgrr-a2").unwrap().scenario else {
            unreachable!("a PG-RR preset")
        };
        assert!((a2.arrival_rate() - 0.0306).abs() < 1e-9);
        let crate::scenario::Scenario::Pgrr(mut a3) = preset("pgrr-a3").unwrap().scenario else {
            unreachable!("a PG-RR preset")
        };
        a3.load = 0.9;
        assert!(approx(a3.arrival_rate(), 0.45));
        assert!(approx(a3.load_for_rate(0.45), 0.9));
    }

    #[test]
    fn keys_round_trip_and_reject() {
        let crate::scenario::Scenario::Pgrr(mut s) = preset("pgrr-a3").unwrap().scenario else {
            unreachable!("a PG-RR preset")
        };
        for k in PgrrScenario::KEYS {
            let v = s.get(k.key).unwrap();
            s.set(k.key, &v).unwrap();
        }
        for (key, value) in [
            ("servers", "-3"),
            ("servers", "0"),
            ("servers", "1.5"),
            ("load", "NaN"),
            ("load", "-1"),
            ("load", "0"),
            ("load", "11"),
            ("j", "1"),
            ("seed", "abc"),
            ("horizon", "0"),
            ("size", "uniform:0.5,1.5"),
            ("nonsense", "1"),
        ] {
            let e = s.set(key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
        }
        s.warmup = s.horizon;
        assert_eq!(s.validate().unwrap_err().key, "warmup");
    }
}
