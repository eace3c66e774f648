//! The VM-scheduling scenario (GH-RA, SPEC section 3) and its keys.

use super::Ghra;
use super::engine::GhraShift;
use super::state::GhraConfig;
use super::vms::{Fleet, VmCatalog};
use crate::ConfigError;
use crate::changes::Shifts;
use crate::keys::{Input, Key};
use crate::model::{ModelScenario, window_keys};
use crate::window::{HasWindow, RunWindow, WindowRules};
use crate::workload::ServiceLaw;

/// Largest traffic intensity ζ (beyond the capacity, 1 for the EC2 fleets, every policy is
/// unstable; a little beyond shows it).
pub const MAX_LOAD: f64 = 10.0;

/// L servers with capacity vectors (a fleet of kinds), J VM types with demand vectors,
/// Poisson arrivals λ = ζ·V (V: the average maximal configuration summed over the servers,
/// RES-21), service of mean 1.
#[derive(Debug, Clone, PartialEq)]
pub struct GhraScenario {
    /// ζ, the traffic intensity: λ = ζ·V.
    pub load: f64,
    pub servers: Fleet,
    pub types: VmCatalog,
    /// Shape of the service times (mean 1 for every type).
    pub service: ServiceLaw,
    pub window: RunWindow,
}

const WINDOW: [Key<GhraScenario>; 5] = window_keys();

/// The keys of a GH-RA scenario, in the order listings and links use.
pub const KEYS: &[Key<GhraScenario>] = &[
    Key::real("load", 0.0, MAX_LOAD, |s: &GhraScenario| s.load, |s: &mut GhraScenario, v| s.load = v)
        .label("Traffic intensity ζ")
        .help("traffic intensity ζ: arrival rates λ = ζ·V, V the servers' average maximal configurations summed")
        .input(Input::Load)
        .changes("every type's arrival rate from that moment on (the mix stays)"),
    Key::text(
        "servers",
        Fleet::RANGE,
        |s: &GhraScenario| s.servers.to_string(),
        |s: &mut GhraScenario, v| {
            s.servers = Fleet::parse(v)?;
            Ok(())
        },
    )
    .label("Servers (COUNTxKIND, …: small, large or a/b/c)")
    .help("the fleet: groups of servers of a kind")
    .input(Input::Wide)
    .changes(
        "the fleet from that moment on, the starting one with servers removed from its end or added after it \
         (e.g. 5xsmall,3xlarge from 5xsmall,5xlarge): servers added are empty and take jobs at once; servers removed \
         (the highest-numbered) take no new job, their waiting jobs join other servers' queues, and they leave once \
         their jobs are done; λ stays the one the load gave with the starting fleet",
    )
    // The engine and the policy are built for the largest fleet of the changes: a playing race
    // takes its first servers (a server lost and back), not more.
    .live_within(|s: &GhraScenario, v| s.live_refusal(v)),
    Key::text(
        "types",
        VmCatalog::RANGE,
        |s: &GhraScenario| s.types.to_string(),
        |s: &mut GhraScenario, v| {
            s.types = VmCatalog::parse(v)?;
            Ok(())
        },
    )
    .label("VM types (ec2, or demand vectors a/b/c, …)")
    .help("VM types: demand vectors (EC2: memory, CPU, storage)")
    .input(Input::Wide),
    Key::text(
        "service",
        ServiceLaw::RANGE,
        |s: &GhraScenario| s.service.to_string(),
        |s: &mut GhraScenario, v| {
            s.service = ServiceLaw::parse(v)?;
            Ok(())
        },
    )
    .label("Service law")
    .help("shape of the service times (mean 1)"),
    WINDOW[0],
    WINDOW[1],
    WINDOW[2],
    WINDOW[3],
    WINDOW[4],
];

impl HasWindow for GhraScenario {
    const WINDOW_RULES: WindowRules = WindowRules { max_horizon: 1_000_000_000, whole_grid: true, slotted: false };

    fn window(&self) -> &RunWindow {
        &self.window
    }

    fn window_mut(&mut self) -> &mut RunWindow {
        &mut self.window
    }
}

impl ModelScenario for GhraScenario {
    type Model = Ghra;
}

impl GhraScenario {
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
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
        self.traffic_vector().map(|_| ())?;
        self.check_fleets()
    }

    /// The changes of `servers` (RES-97): each fleet is the starting one with servers removed
    /// from its end or added after it, so every fleet of the run is the first servers of the
    /// largest (its servers keep their numbers and kinds).
    fn check_fleets(&self) -> Result<(), ConfigError> {
        let largest = self.largest_fleet().capacities();
        let changes = self.window.changes.iter().filter(|c| c.key == Fleet::KEY);
        for (entry, fleet) in std::iter::once((None, self.servers.clone()))
            .chain(changes.filter_map(|c| Fleet::parse(&c.value).ok().map(|f| (Some(c), f))))
        {
            let capacities = fleet.capacities();
            let Some(l) = capacities.iter().zip(&largest).position(|(a, b)| a != b) else { continue };
            let entry = entry.or_else(|| self.window.changes.iter().find(|c| c.key == Fleet::KEY));
            let Some(entry) = entry else { continue };
            return Err(ConfigError::new(
                crate::changes::KEY,
                format!(
                    "entry '{entry}': server {} is {} here and {} in another fleet of the run; a change of servers \
                     removes servers from the end of the starting fleet ({}) or adds servers after it, so the servers \
                     kept keep their numbers and kinds",
                    l + 1,
                    fleet.names()[l],
                    self.largest_fleet().names()[l],
                    self.servers
                ),
            ));
        }
        Ok(())
    }

    /// The largest fleet of the run: the starting one or a change's, the most servers (the
    /// first of them on a tie). The engine is built with it (RES-97).
    pub fn largest_fleet(&self) -> Fleet {
        let changes = self.window.changes.iter().filter(|c| c.key == Fleet::KEY);
        changes
            .filter_map(|c| Fleet::parse(&c.value).ok())
            .fold(self.servers.clone(), |most, f| if f.len() > most.len() { f } else { most })
    }

    /// Why a run of this scenario, already playing, cannot take the fleet `value` (RES-97): it
    /// was built for [`GhraScenario::largest_fleet`], and takes only fleets that are its first
    /// servers. `None` for one of those, and for a value that is not a fleet (the key's own
    /// check names that).
    fn live_refusal(&self, value: &str) -> Option<String> {
        let fleet = Fleet::parse(value).ok()?.capacities();
        let built = self.largest_fleet();
        let within = fleet.len() <= built.len() && fleet.iter().zip(built.capacities()).all(|(a, b)| *a == b);
        (!within).then(|| format!("this race was built for the fleet {built}"))
    }

    /// What the engine sets at each moment of the changes: λ, from the load read against the
    /// starting fleet (a change of the fleet moves no arrival, RES-97), and the servers that
    /// take jobs.
    pub fn shifts(&self) -> Shifts<GhraShift> {
        let start = self.servers.clone();
        Shifts::build(self, &self.window.changes, self.window.horizon, KEYS, move |now: &GhraScenario| GhraShift {
            rates: GhraScenario { servers: start.clone(), ..now.clone() }.arrival_rates().unwrap_or_default(),
            fleet: now.servers.clone(),
        })
    }

    /// V (RES-21), or an error naming `servers` when a server has too many configurations.
    pub fn traffic_vector(&self) -> Result<Vec<f64>, ConfigError> {
        super::theory::traffic_vector(&self.types.demands(), &self.servers.capacities())
            .map_err(|e| ConfigError::new("servers", format!("the servers have {}", e.describe())))
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

    /// The engine configuration (after validating).
    pub fn engine_config(&self, max_points: usize) -> Result<GhraConfig, ConfigError> {
        let demands = self.types.demands();
        Ok(GhraConfig {
            capacities: self.servers.capacities(),
            arrival_rates: self.arrival_rates()?,
            mean_service: vec![1.0; demands.len()],
            demands,
            service: self.service,
            warmup: self.window.warmup as f64,
            horizon: self.window.horizon as f64,
            sample_every: self.window.sample_every,
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
    use crate::models::{AnyScenario, Scenario};
    use crate::scenario::preset;

    #[test]
    fn keys_round_trip_and_reject() {
        let Scenario::Ghra(mut s) = preset("ghra-b3").unwrap().scenario else { panic!("ghra-b3 is GH-RA") };
        for k in KEYS {
            let v = k.get(&s);
            k.set(&mut s, &v).unwrap();
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
            let e = AnyScenario::set(&mut s, key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
        }
        AnyScenario::set(&mut s, "types", "2,3").unwrap();
        let e = AnyScenario::validate(&s).unwrap_err();
        assert_eq!(e.key, "types");
        assert!(e.message.contains("must match"), "{e}");
        AnyScenario::set(&mut s, "servers", "2x10").unwrap();
        AnyScenario::set(&mut s, "types", "2,11").unwrap();
        let e = AnyScenario::validate(&s).unwrap_err();
        assert!(e.message.contains("type 2 (size 11) fits no server"), "{e}");
        AnyScenario::set(&mut s, "servers", "2x10/10").unwrap();
        AnyScenario::set(&mut s, "types", "2/2,11/1").unwrap();
        let e = AnyScenario::validate(&s).unwrap_err();
        assert!(e.message.starts_with("type 2 (11/1) fits no server"), "{e}");
        AnyScenario::set(&mut s, "servers", "2x10").unwrap();
        AnyScenario::set(&mut s, "types", "2,3").unwrap();
        AnyScenario::validate(&s).unwrap();
        let rates = s.arrival_rates().unwrap();
        // Maximal configurations of capacity 10 with sizes 2 and 3: (0,3), (2,2), (3,1), (5,0).
        let v = [2.5, 1.5];
        assert!(rates.iter().zip(v).all(|(r, v)| (r - 2.0 * s.load * v).abs() < 1e-12), "{rates:?}");
    }
}
