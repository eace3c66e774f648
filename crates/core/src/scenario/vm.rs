//! The VM-scheduling scenario (GH-RA, SPEC section 3).

use serde::{Deserialize, Serialize};

use super::{KeySpec, parse_int, parse_positive};
use crate::ConfigError;
use crate::engine::vm::VmConfig;
use crate::workload::{Fleet, ServiceLaw, VmCatalog};

/// Largest horizon in time units.
pub const MAX_HORIZON: u64 = 1_000_000_000;
/// Largest traffic intensity ζ (beyond 1 every policy is unstable; a little beyond shows it).
pub const MAX_LOAD: f64 = 10.0;

/// L servers with capacity vectors (a fleet of kinds), J VM types with demand vectors,
/// Poisson arrivals λ = ζ·V (V: the average maximal configuration summed over the servers,
/// RES-21), service of mean 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmScenario {
    /// ζ, the traffic intensity: λ = ζ·V.
    pub load: f64,
    pub servers: Fleet,
    pub types: VmCatalog,
    /// Shape of the service times (mean 1 for every type).
    pub service: ServiceLaw,
    pub seed: u64,
    pub horizon: u64,
    pub warmup: u64,
    pub sample_every: u64,
}

impl VmScenario {
    pub const KEYS: &'static [KeySpec] = &[
        KeySpec {
            key: "load",
            help: "traffic intensity ζ: arrival rates λ = ζ·V, V on the capacity region's boundary",
            range: "a number in (0, 10]",
        },
        KeySpec { key: "servers", help: "the fleet: groups of servers of a kind", range: Fleet::RANGE },
        KeySpec { key: "types", help: "VM types: demand vectors (EC2: memory, CPU, storage)", range: VmCatalog::RANGE },
        KeySpec { key: "service", help: "shape of the service times (mean 1)", range: ServiceLaw::RANGE },
        KeySpec { key: "seed", help: "random seed", range: "an integer in 0..=18446744073709551615" },
        KeySpec { key: "horizon", help: "time units to simulate", range: "an integer in 1..=1000000000" },
        KeySpec { key: "warmup", help: "time units discarded before measuring", range: "an integer below the horizon" },
        KeySpec { key: "sample_every", help: "series grid interval in time units", range: "an integer in 1..=horizon" },
    ];

    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "load" => self.load.to_string(),
            "servers" => self.servers.to_string(),
            "types" => self.types.to_string(),
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
            "load" => self.load = parse_positive(key, value, 0.0, MAX_LOAD)?,
            "servers" => self.servers = Fleet::parse(value)?,
            "types" => self.types = VmCatalog::parse(value)?,
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
        let demands = self.types.demands();
        let capacities = self.servers.capacities();
        let (types, servers) = (demands[0].dims(), self.servers.dims());
        if types != servers {
            return Err(ConfigError::new(
                "types",
                format!("types demand {types} resources but the servers have {servers}; they must match"),
            ));
        }
        if let Some(j) = (0..demands.len()).find(|&j| !capacities.iter().any(|c| demands[j].le(c))) {
            // Demand vectors are already named "type N (a/b/c)"; sizes and EC2 types are not.
            let name = &self.types.names()[j];
            let label = if name.starts_with("type ") { name.clone() } else { format!("type {} ({name})", j + 1) };
            return Err(ConfigError::new(
                "types",
                format!("{label} fits no server, even an empty one; every type must fit some server"),
            ));
        }
        self.traffic_vector().map(|_| ())
    }

    /// V (RES-21), or an error naming `servers` when a server has too many configurations.
    pub fn traffic_vector(&self) -> Result<Vec<f64>, ConfigError> {
        crate::theory::ghra::traffic_vector(&self.types.demands(), &self.servers.capacities()).map_err(|e| {
            ConfigError::new(
                "servers",
                format!(
                    "a server has more than {} feasible configurations; use smaller servers or larger VM types",
                    e.limit
                ),
            )
        })
    }

    /// λ_j = ζ·V_j.
    pub fn arrival_rates(&self) -> Result<Vec<f64>, ConfigError> {
        Ok(self.traffic_vector()?.iter().map(|v| self.load * v).collect())
    }

    /// The mean over resources of the fraction of the fleet's capacity that the offered
    /// work ρ_j = λ_j/μ_j would hold: what a stable policy's real-job occupancy tends to.
    pub fn offered_occupancy(&self) -> f64 {
        let Ok(rates) = self.arrival_rates() else { return f64::NAN };
        let demands = self.types.demands();
        let capacities = self.servers.capacities();
        let dims = demands[0].dims();
        (0..dims)
            .map(|d| {
                let work: f64 = rates.iter().zip(&demands).map(|(r, v)| r * v.as_slice()[d] as f64).sum();
                let total: f64 = capacities.iter().map(|c| c.as_slice()[d] as f64).sum();
                work / total
            })
            .sum::<f64>()
            / dims as f64
    }

    /// The engine configuration (after [`VmScenario::validate`]).
    pub fn config(&self, max_points: usize) -> Result<VmConfig, ConfigError> {
        let demands = self.types.demands();
        Ok(VmConfig {
            capacities: self.servers.capacities(),
            arrival_rates: self.arrival_rates()?,
            mean_service: vec![1.0; demands.len()],
            demands,
            service: self.service,
            warmup: self.warmup as f64,
            horizon: self.horizon as f64,
            sample_every: self.sample_every as f64,
            max_points,
            type_names: self.types.names(),
            server_names: self.servers.names(),
            resource_names: self.types.resources(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, preset};

    #[test]
    fn keys_round_trip_and_reject() {
        let Scenario::Vm(mut s) = preset("ghra-b3").unwrap().scenario else { panic!("ghra-b3 is a VM scenario") };
        for k in VmScenario::KEYS {
            let v = s.get(k.key).unwrap();
            s.set(k.key, &v).unwrap();
        }
        for (key, value) in [
            ("load", "0"),
            ("load", "11"),
            ("servers", "-3"),
            ("servers", "0xsmall"),
            ("types", "ec3"),
            ("service", "gamma"),
            ("seed", "abc"),
            ("cores", "4"),
        ] {
            let e = s.set(key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
        }
        s.set("types", "2,3").unwrap();
        let e = s.validate().unwrap_err();
        assert_eq!(e.key, "types");
        assert!(e.message.contains("must match"), "{e}");
        s.set("servers", "2x10").unwrap();
        s.set("types", "2,11").unwrap();
        let e = s.validate().unwrap_err();
        assert!(e.message.contains("type 2 (size 11) fits no server"), "{e}");
        s.set("servers", "2x10/10").unwrap();
        s.set("types", "2/2,11/1").unwrap();
        let e = s.validate().unwrap_err();
        assert!(e.message.starts_with("type 2 (11/1) fits no server"), "{e}");
        s.set("servers", "2x10").unwrap();
        s.set("types", "2,3").unwrap();
        s.validate().unwrap();
        let rates = s.arrival_rates().unwrap();
        // Maximal configurations of capacity 10 with sizes 2 and 3: (0,3), (2,2), (3,1), (5,0).
        let v = [2.5, 1.5];
        assert!(rates.iter().zip(v).all(|(r, v)| (r - 2.0 * s.load * v).abs() < 1e-12), "{rates:?}");
    }
}
