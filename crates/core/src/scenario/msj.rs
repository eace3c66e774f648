//! The multiserver-job scenario (MSFQ paper, SPEC section 5).

use serde::{Deserialize, Serialize};

use super::{KeySpec, parse_int, parse_positive};
use crate::ConfigError;
use crate::engine::msj::MsjConfig;
use crate::workload::classes::MAX_CORES;
use crate::workload::{JobClasses, ServiceLaw};

/// Largest horizon in time units.
pub const MAX_HORIZON: u64 = 10_000_000_000;
/// Largest total arrival rate.
pub const MAX_ARRIVAL_RATE: f64 = 1e6;

/// One machine of k cores; Poisson arrivals at total rate λ (the load knob), each job of a
/// class drawn from the class table, holding `need` cores for an exponential (or other)
/// service time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsjScenario {
    /// k.
    pub cores: u32,
    /// λ, total arrivals per time unit.
    pub load: f64,
    pub classes: JobClasses,
    pub service: ServiceLaw,
    pub seed: u64,
    /// Time units simulated.
    pub horizon: u64,
    /// Time units discarded before measuring.
    pub warmup: u64,
    /// Series grid interval in time units.
    pub sample_every: u64,
}

impl MsjScenario {
    pub const KEYS: &'static [KeySpec] = &[
        KeySpec { key: "load", help: "total arrival rate λ (jobs per time unit)", range: "a number in (0, 1000000]" },
        KeySpec { key: "cores", help: "cores k of the machine", range: "an integer in 1..=65536" },
        KeySpec { key: "classes", help: "job classes: server need, probability, mean size", range: JobClasses::RANGE },
        KeySpec {
            key: "service",
            help: "shape of the service times (mean: the class's mean size)",
            range: ServiceLaw::RANGE,
        },
        KeySpec { key: "seed", help: "random seed", range: "an integer in 0..=18446744073709551615" },
        KeySpec { key: "horizon", help: "time units to simulate", range: "an integer in 1..=10000000000" },
        KeySpec { key: "warmup", help: "time units discarded before measuring", range: "an integer below the horizon" },
        KeySpec { key: "sample_every", help: "series grid interval in time units", range: "an integer in 1..=horizon" },
    ];

    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "load" => self.load.to_string(),
            "cores" => self.cores.to_string(),
            "classes" => self.classes.to_string(),
            "service" => self.service.to_string(),
            "seed" => self.seed.to_string(),
            "horizon" => self.horizon.to_string(),
            "warmup" => self.warmup.to_string(),
            "sample_every" => self.sample_every.to_string(),
            _ => return None,
        })
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "load" => self.load = parse_positive(key, value, 0.0, MAX_ARRIVAL_RATE)?,
            "cores" => self.cores = parse_int(key, value, 1, MAX_CORES as u64)? as u32,
            "classes" => self.classes = JobClasses::parse(value)?,
            "service" => self.service = ServiceLaw::parse(value)?,
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
        let need = self.classes.max_need();
        if need > self.cores {
            return Err(ConfigError::new(
                "classes",
                format!(
                    "a class needs {need} cores but the machine has cores = {}; needs must be in 1..=cores",
                    self.cores
                ),
            ));
        }
        Ok(())
    }

    /// The engine configuration.
    pub fn config(&self, max_points: usize) -> MsjConfig {
        MsjConfig {
            cores: self.cores,
            arrival_rate: self.load,
            classes: self.classes.clone(),
            service: self.service,
            warmup: self.warmup as f64,
            horizon: self.horizon as f64,
            sample_every: self.sample_every as f64,
            max_points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, preset};

    #[test]
    fn keys_round_trip_and_reject() {
        let Scenario::Msj(mut s) = preset("msfq-d1").unwrap().scenario else { panic!("msfq-d1 is MSJ") };
        for k in MsjScenario::KEYS {
            let v = s.get(k.key).unwrap();
            s.set(k.key, &v).unwrap();
        }
        for (key, value) in [
            ("cores", "0"),
            ("cores", "-3"),
            ("load", "-1"),
            ("load", "x"),
            ("classes", "1@0.9,64@0.2"),
            ("service", "gamma"),
            ("seed", "abc"),
            ("nonsense", "1"),
        ] {
            let e = s.set(key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
        }
        s.set("classes", "1@0.9,64@0.1").unwrap();
        let e = s.validate().unwrap_err();
        assert_eq!(e.key, "classes");
        assert!(e.message.contains("needs 64 cores"), "{e}");
    }
}
