//! The PG-AS scenario (SPEC section 4): L servers, VM types with rewards, workload ρ scaled by
//! α, Poisson arrivals at rate α·ρ_j·L with Exp(1) service, or a task trace.

use std::sync::Arc;

use num_traits::{Signed, Zero};
use serde::{Deserialize, Serialize};

use super::{KeySpec, parse_int, parse_positive};
use crate::ConfigError;
use crate::engine::reservation::{Arrivals, ReservationConfig};
use crate::model::Resources;
use crate::theory::pgas::instances::{MemoryDraw, VM_SERVER, Vm, pgas_c2, pgas_c2_rho, pgas_c6};
use crate::theory::pgas::rational::{self, Rational};
use crate::theory::pgas::{BoundsError, HomogeneousTypes, MAX_TYPES, Packing, RewardInstance};
use crate::workload::Trace;
use crate::workload::trace::{CAPACITY_UNITS, MAX_TASKS};

/// Most servers.
pub const MAX_SERVERS: u32 = 100_000;
/// Largest horizon in time units.
pub const MAX_HORIZON: u64 = 1_000_000_000;
/// Largest workload scale α.
pub const MAX_LOAD: f64 = 100.0;
/// Largest per-type workload ρ_j.
pub const MAX_RHO: f64 = 1000.0;
/// Most random collections of PGAS-C1.
pub const MAX_COLLECTIONS: u32 = 10_000;

/// The job types of a PG-AS scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum PgasTypes {
    /// The worst-case collection of Fig. 2-4 (RES-34, doubled tuples).
    C2,
    /// The intro example: server (1, 1), types (0.6, 0.6), (0.7, 0.1), (0.1, 0.7).
    C6,
    /// VM types (vCPU, GB) with the reward 8·vCPU + GB, on an 80 vCPU / 640 GB server.
    Vms(Vec<Vm>),
    /// PGAS-C1: `collections` random collections of 3 small and 3 large VMs (bounds only).
    Random { collections: u32, memory: MemoryDraw },
    /// The types of a task trace (priority × size, RES-35/36): the loaded trace, or the
    /// synthetic stand-in when none is loaded.
    Trace,
}

impl PgasTypes {
    pub const KEY: &'static str = "types";
    pub const RANGE: &'static str = "c2, c6, trace, random:N[:per-value] (N collections, bounds only), or 1 to 16 VM \
                                     types VCPU/GB separated by commas (server 80/640, reward 8·vCPU + GB)";

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let t = text.trim().to_ascii_lowercase();
        let err = |m: String| ConfigError::new(Self::KEY, format!("{m}; expected {}", Self::RANGE));
        match t.as_str() {
            "c2" => return Ok(Self::C2),
            "c6" => return Ok(Self::C6),
            "trace" => return Ok(Self::Trace),
            _ => {}
        }
        if let Some(rest) = t.strip_prefix("random:") {
            let (n, memory) = match rest.split_once(':') {
                Some((n, "per-value")) => (n, MemoryDraw::PerValue),
                Some((n, "by-category")) => (n, MemoryDraw::ByCategory),
                Some((_, other)) => return Err(err(format!("memory draw '{other}' is not per-value or by-category"))),
                None => (rest, MemoryDraw::ByCategory),
            };
            let collections = n
                .parse()
                .ok()
                .filter(|c| (1..=MAX_COLLECTIONS).contains(c))
                .ok_or_else(|| err(format!("'{n}' collections is not an integer in 1..={MAX_COLLECTIONS}")))?;
            return Ok(Self::Random { collections, memory });
        }
        let vms = t
            .split(',')
            .enumerate()
            .map(|(i, part)| {
                let bad = || err(format!("type {} '{}' is not VCPU/GB", i + 1, part.trim()));
                let (cpu, gb) = part.trim().split_once('/').ok_or_else(bad)?;
                let vm = Vm::new(cpu.trim().parse().map_err(|_| bad())?, gb.trim().parse().map_err(|_| bad())?);
                if vm.vcpu == 0 && vm.gb == 0 || vm.vcpu > VM_SERVER.vcpu || vm.gb > VM_SERVER.gb {
                    return Err(err(format!(
                        "type {} ({}/{}) must use some of and fit the {}/{} server",
                        i + 1,
                        vm.vcpu,
                        vm.gb,
                        VM_SERVER.vcpu,
                        VM_SERVER.gb
                    )));
                }
                Ok(vm)
            })
            .collect::<Result<Vec<_>, _>>()?;
        if vms.len() > MAX_TYPES {
            return Err(err(format!("{} types; at most {MAX_TYPES}", vms.len())));
        }
        Ok(Self::Vms(vms))
    }
}

impl std::fmt::Display for PgasTypes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::C2 => write!(f, "c2"),
            Self::C6 => write!(f, "c6"),
            Self::Trace => write!(f, "trace"),
            Self::Random { collections, memory: MemoryDraw::ByCategory } => write!(f, "random:{collections}"),
            Self::Random { collections, memory: MemoryDraw::PerValue } => write!(f, "random:{collections}:per-value"),
            Self::Vms(vms) => {
                write!(f, "{}", vms.iter().map(|v| format!("{}/{}", v.vcpu, v.gb)).collect::<Vec<_>>().join(","))
            }
        }
    }
}

impl TryFrom<String> for PgasTypes {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, ConfigError> {
        Self::parse(&s)
    }
}

impl From<PgasTypes> for String {
    fn from(t: PgasTypes) -> String {
        t.to_string()
    }
}

/// A workload vector ρ, one exact fraction per type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Rho(pub Vec<Rational>);

impl Rho {
    pub const KEY: &'static str = "rho";
    pub const RANGE: &'static str = "default, or one workload per type: decimals or fractions a/b in [0, 1000], \
                                     separated by commas";

    /// `None` for `default`.
    pub fn parse(text: &str) -> Result<Option<Self>, ConfigError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("default") {
            return Ok(None);
        }
        let err = |m: String| ConfigError::new(Self::KEY, format!("{m}; expected {}", Self::RANGE));
        let values = t
            .split(',')
            .enumerate()
            .map(|(i, part)| {
                let part = part.trim();
                let bad = || err(format!("entry {} '{part}' is not a number in [0, {MAX_RHO}]", i + 1));
                let q = match part.split_once('/') {
                    Some((a, b)) => {
                        let (a, b): (i64, i64) =
                            (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
                        if b == 0 {
                            return Err(bad());
                        }
                        rational::ratio(a, b)
                    }
                    None => {
                        let v: f64 = part.parse().map_err(|_| bad())?;
                        if !v.is_finite() {
                            return Err(bad());
                        }
                        rational::from_f64(v).ok_or_else(bad)?
                    }
                };
                if q.is_negative() || q > rational::int(MAX_RHO as i64) {
                    return Err(bad());
                }
                Ok(q)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Self(values)))
    }
}

impl std::fmt::Display for Rho {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.iter().map(|q| q.to_string()).collect::<Vec<_>>().join(","))
    }
}

impl TryFrom<String> for Rho {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, ConfigError> {
        Self::parse(&s)?.ok_or_else(|| ConfigError::new(Self::KEY, "'default' is not a stored workload"))
    }
}

impl From<Rho> for String {
    fn from(r: Rho) -> String {
        r.to_string()
    }
}

/// A loaded trace, shared between the scenario's clones. Two are equal when their parsed tasks
/// have the same fingerprint and count (see [`Trace::fingerprint`]).
#[derive(Debug, Clone)]
pub struct TraceRef(pub Arc<Trace>);

impl PartialEq for TraceRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.fingerprint() == other.0.fingerprint() && self.0.len() == other.0.len())
    }
}

/// U^(g) and U* at the scenario's α·ρ: the reference lines of the reward charts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RewardReference {
    /// U^(g)[αρ], the global greedy's normalised reward (what DRA tends to as L grows).
    pub greedy: f64,
    /// U*[αρ], the optimum of LP (7).
    pub optimal: f64,
}

/// L servers, a type catalogue, a workload and a run window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PgasScenario {
    /// L.
    pub servers: u32,
    pub types: PgasTypes,
    /// ρ per type; `None` takes the catalogue's (C2: 2, 1/2, 4/3, 1; otherwise 1 each).
    pub rho: Option<Rho>,
    /// α: ρ → α·ρ (for a trace: submit times divided by α).
    pub load: f64,
    pub seed: u64,
    pub horizon: u64,
    pub warmup: u64,
    /// Series grid interval in time units (may be fractional: Fig. 4 samples every 0.1).
    pub sample_every: f64,
    /// The loaded trace (types = trace); not part of links or presets.
    #[serde(skip)]
    pub trace: Option<TraceRef>,
}

impl PgasScenario {
    pub const KEYS: &'static [KeySpec] = &[
        KeySpec { key: "servers", help: "L, identical servers", range: "an integer in 1..=100000" },
        KeySpec { key: "types", help: "job types with reward rates", range: PgasTypes::RANGE },
        KeySpec {
            key: "rho", help: "workload ρ_j = λ_j/μ_j per server and type (scaled by load)", range: Rho::RANGE
        },
        KeySpec {
            key: "load",
            help: "workload scale α: arrival rates α·ρ_j·L (a trace: submit times divided by α)",
            range: "a number in (0, 100]",
        },
        KeySpec { key: "seed", help: "random seed", range: "an integer in 0..=18446744073709551615" },
        KeySpec { key: "horizon", help: "time units to simulate", range: "an integer in 1..=1000000000" },
        KeySpec { key: "warmup", help: "time units discarded before measuring", range: "an integer below the horizon" },
        KeySpec { key: "sample_every", help: "series grid interval in time units", range: "a number in (0, horizon]" },
    ];

    pub fn get(&self, key: &str) -> Option<String> {
        Some(match key {
            "servers" => self.servers.to_string(),
            "types" => self.types.to_string(),
            "rho" => self.rho.as_ref().map_or("default".to_string(), Rho::to_string),
            "load" => self.load.to_string(),
            "seed" => self.seed.to_string(),
            "horizon" => self.horizon.to_string(),
            "warmup" => self.warmup.to_string(),
            "sample_every" => self.sample_every.to_string(),
            _ => return None,
        })
    }

    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match key {
            "servers" => self.servers = parse_int(key, value, 1, u64::from(MAX_SERVERS))? as u32,
            "types" => self.types = PgasTypes::parse(value)?,
            "rho" => self.rho = Rho::parse(value)?,
            "load" => self.load = parse_positive(key, value, 0.0, MAX_LOAD)?,
            "seed" => self.seed = parse_int(key, value, 0, u64::MAX)?,
            "horizon" => self.horizon = parse_int(key, value, 1, MAX_HORIZON)?,
            "warmup" => self.warmup = parse_int(key, value, 0, MAX_HORIZON - 1)?,
            "sample_every" => self.sample_every = parse_positive(key, value, 0.0, MAX_HORIZON as f64)?,
            _ => {
                let known: Vec<_> = Self::KEYS.iter().map(|k| k.key).collect();
                return Err(ConfigError::new(key, format!("unknown key; known keys: {}", known.join(", "))));
            }
        }
        Ok(())
    }

    /// Uses `trace` for the job types and arrivals (types become `trace`).
    pub fn attach_trace(&mut self, trace: Trace) {
        self.types = PgasTypes::Trace;
        self.rho = None;
        self.trace = Some(TraceRef(Arc::new(trace)));
    }

    /// Whether the scenario is PGAS-C1's random collections, which only `bounds` computes.
    pub fn bounds_only(&self) -> bool {
        matches!(self.types, PgasTypes::Random { .. })
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.warmup >= self.horizon {
            return Err(ConfigError::new(
                "warmup",
                format!("must be below the horizon ({} >= {})", self.warmup, self.horizon),
            ));
        }
        if self.sample_every > self.horizon as f64 {
            return Err(ConfigError::new(
                "sample_every",
                format!("must be at most the horizon ({} > {})", self.sample_every, self.horizon),
            ));
        }
        match &self.types {
            PgasTypes::Random { .. } | PgasTypes::Trace => {
                if self.rho.is_some() {
                    return Err(ConfigError::new(
                        "rho",
                        format!("types={} sets its own workload; use rho=default", self.types),
                    ));
                }
                if self.types == PgasTypes::Trace && self.trace.is_none() {
                    let tasks = Trace::surges_expected_tasks(self.servers, self.horizon as f64 * self.load);
                    if tasks > 0.9 * MAX_TASKS as f64 {
                        return Err(ConfigError::new(
                            "horizon",
                            format!(
                                "the synthetic trace for {} servers over {} time units at load {} would hold about {:.0} \
                                 tasks, more than {MAX_TASKS}; shorten the horizon or use fewer servers",
                                self.servers, self.horizon, self.load, tasks
                            ),
                        ));
                    }
                }
                Ok(())
            }
            _ => {
                let instance = self.instance()?.expect("an enumerated catalogue");
                if let Some(rho) = &self.rho
                    && rho.0.len() != instance.types()
                {
                    return Err(ConfigError::new(
                        "rho",
                        format!(
                            "{} entries for {} types; give one per type (or default)",
                            rho.0.len(),
                            instance.types()
                        ),
                    ));
                }
                Ok(())
            }
        }
    }

    /// The enumerated instance of the types (`None` for a trace or random collections).
    pub fn instance(&self) -> Result<Option<Arc<RewardInstance>>, ConfigError> {
        let to_types = |e: ConfigError| ConfigError::new("types", e.message);
        Ok(match &self.types {
            PgasTypes::C2 => Some(Arc::new(pgas_c2())),
            PgasTypes::C6 => Some(Arc::new(pgas_c6())),
            PgasTypes::Vms(vms) => Some(Arc::new(RewardInstance::from_vms(vms, VM_SERVER).map_err(to_types)?)),
            PgasTypes::Random { .. } | PgasTypes::Trace => None,
        })
    }

    /// ρ at α = 1: the given one, or the catalogue's default.
    pub fn base_rho(&self, types: usize) -> Vec<Rational> {
        match (&self.rho, &self.types) {
            (Some(rho), _) => rho.0.clone(),
            (None, PgasTypes::C2) => pgas_c2_rho(),
            (None, _) => vec![rational::int(1); types],
        }
    }

    /// α·ρ exactly (α read as the simplest fraction within 1e-12, so 6/7 typed as decimals is
    /// 6/7).
    pub fn scaled_rho(&self, types: usize) -> Vec<Rational> {
        let alpha = rational::from_f64(self.load).unwrap_or_else(Rational::zero);
        self.base_rho(types).iter().map(|r| r * &alpha).collect()
    }

    /// U^(g)[αρ] and U*[αρ] (SPEC 4.6's reference lines), for enumerated types; `None` for a
    /// trace or random collections. One exact greedy and one LP solve.
    pub fn reference(&self) -> Result<Option<RewardReference>, BoundsError> {
        let Some(instance) = self.instance()? else { return Ok(None) };
        let rho = self.scaled_rho(instance.types());
        let greedy = instance.global_greedy(&rho)?.reward_f64();
        let f: Vec<f64> = rho.iter().map(rational::to_f64).collect();
        let optimal = instance.optimum(&f)?.value;
        Ok(Some(RewardReference { greedy, optimal }))
    }

    /// The trace the run replays: the loaded one, or the synthetic stand-in (drawn from the
    /// seed over the horizon stretched by α, so it fills the horizon after the compression).
    pub fn trace(&self) -> Option<Arc<Trace>> {
        match (&self.types, &self.trace) {
            (PgasTypes::Trace, Some(t)) => Some(Arc::clone(&t.0)),
            (PgasTypes::Trace, None) => {
                Some(Arc::new(Trace::surges(self.servers, self.horizon as f64 * self.load, self.seed)))
            }
            _ => None,
        }
    }

    /// The offered work per server as a fraction of its capacity: the mean over resources of
    /// Σ_j α·ρ_j·R_j / C for Poisson types, the trace's work over L servers and the horizon.
    pub fn offered_utilization(&self) -> f64 {
        match &self.types {
            PgasTypes::Trace => match &self.trace {
                Some(t) => t.0.work() / (f64::from(self.servers) * self.horizon as f64),
                // The synthetic stand-in offers 1.255 servers' work per server on average.
                None => 1.255 * self.load,
            },
            PgasTypes::Random { .. } => f64::NAN,
            _ => {
                // From the demand vectors alone: no configuration enumeration (the page asks
                // for this on every render).
                let (demands, cap) = self.demand_vectors();
                let rho = self.scaled_rho(demands.len());
                (0..cap.len())
                    .map(|d| {
                        demands
                            .iter()
                            .zip(&rho)
                            .map(|(r, q)| rational::to_f64(q) * r[d] as f64 / cap[d] as f64)
                            .sum::<f64>()
                    })
                    .sum::<f64>()
                    / cap.len() as f64
            }
        }
    }

    /// Demand vectors and server capacity of the enumerated catalogues, without building the
    /// instance (empty for a trace or random collections).
    fn demand_vectors(&self) -> (Vec<[u64; 2]>, [u64; 2]) {
        let vm = |v: &Vm| [v.vcpu, v.gb];
        let server = [VM_SERVER.vcpu, VM_SERVER.gb];
        match &self.types {
            PgasTypes::C2 => {
                (crate::theory::pgas::instances::C2_LISTED.iter().map(|v| [2 * v.vcpu, 2 * v.gb]).collect(), server)
            }
            PgasTypes::C6 => (vec![[6, 6], [7, 1], [1, 7]], [10, 10]),
            PgasTypes::Vms(vms) => (vms.iter().map(vm).collect(), server),
            PgasTypes::Random { .. } | PgasTypes::Trace => (Vec::new(), server),
        }
    }

    /// Names of the types, for bins and tables. For `types=trace` without a loaded trace this
    /// draws the synthetic one (tens of milliseconds at L = 1000).
    pub fn type_names(&self) -> Vec<String> {
        match &self.types {
            PgasTypes::C2 => crate::theory::pgas::instances::C2_LISTED
                .iter()
                .map(|v| format!("{} vCPU · {} GB", 2 * v.vcpu, 2 * v.gb))
                .collect(),
            PgasTypes::C6 => ["(0.6, 0.6)", "(0.7, 0.1)", "(0.1, 0.7)"].map(String::from).to_vec(),
            PgasTypes::Vms(vms) => vms.iter().map(|v| format!("{} vCPU · {} GB", v.vcpu, v.gb)).collect(),
            PgasTypes::Trace => self.trace().map_or_else(Vec::new, |t| t.types().iter().map(|c| c.name()).collect()),
            PgasTypes::Random { .. } => Vec::new(),
        }
    }

    /// The engine configuration (after [`PgasScenario::validate`]).
    pub fn config(&self, max_points: usize) -> Result<ReservationConfig, ConfigError> {
        let servers = self.servers as usize;
        let timing = (self.warmup as f64, self.horizon as f64, self.sample_every);
        if let Some(trace) = self.trace() {
            let types = trace.types();
            let sizes: Vec<u64> = types.iter().map(|c| c.size_units()).collect();
            let factors: Vec<u64> = types.iter().map(|c| c.factor()).collect();
            let homogeneous = HomogeneousTypes::new(CAPACITY_UNITS, sizes.clone(), factors.clone())?;
            return Ok(ReservationConfig {
                servers,
                capacity: Resources::scalar(CAPACITY_UNITS),
                demands: sizes.iter().map(|&s| Resources::scalar(s)).collect(),
                reward_units: sizes.iter().zip(&factors).map(|(s, f)| s * f).collect(),
                reward_denominator: CAPACITY_UNITS,
                priorities: Some(types.iter().map(|c| c.priority).collect()),
                packing: Packing::Homogeneous(homogeneous),
                arrivals: Arrivals::Trace { trace: Arc::clone(&trace), time_scale: self.load },
                warmup: timing.0,
                horizon: timing.1,
                sample_every: timing.2,
                max_points,
                type_names: types.iter().map(|c| c.name()).collect(),
                resource_names: Vec::new(),
            });
        }
        let Some(instance) = self.instance()? else {
            return Err(ConfigError::new(
                "types",
                format!(
                    "types={} is {} random collections for `packlab bounds` (PGAS-C1); a simulation needs one \
                     instance: c2, c6, a VM list or trace",
                    self.types,
                    match self.types {
                        PgasTypes::Random { collections, .. } => collections,
                        _ => 0,
                    }
                ),
            ));
        };
        let rho = self.scaled_rho(instance.types());
        let rates = rho.iter().map(|q| rational::to_f64(q) * servers as f64).collect();
        let resource_names =
            if self.types == PgasTypes::C6 { vec!["resource 1", "resource 2"] } else { vec!["vCPU", "GB"] };
        Ok(ReservationConfig {
            servers,
            capacity: *instance.capacity(),
            demands: instance.demands().to_vec(),
            reward_units: instance.reward_units().to_vec(),
            reward_denominator: instance.reward_denominator(),
            priorities: None,
            arrivals: Arrivals::Poisson { rates, mean_service: vec![1.0; instance.types()] },
            packing: Packing::Enumerated(instance),
            warmup: timing.0,
            horizon: timing.1,
            sample_every: timing.2,
            max_points,
            type_names: self.type_names(),
            resource_names,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Scenario, preset};

    fn c3() -> PgasScenario {
        let Scenario::Pgas(s) = preset("pgas-c3").unwrap().scenario else { panic!("pgas-c3 is a PG-AS scenario") };
        s
    }

    #[test]
    fn keys_round_trip_and_reject_with_ranges() {
        let mut s = c3();
        for k in PgasScenario::KEYS {
            let v = s.get(k.key).unwrap();
            s.set(k.key, &v).unwrap();
        }
        for (key, value, needle) in [
            ("servers", "0", "1..=100000"),
            ("servers", "100001", "1..=100000"),
            ("load", "0", "(0, 100]"),
            ("load", "101", "(0, 100]"),
            ("types", "c9", "is not VCPU/GB"),
            ("types", "2/2,90/10", "fit the 80/640 server"),
            ("types", "random:0", "1..=10000"),
            ("types", "random:5:odd", "per-value"),
            ("rho", "1,x", "entry 2 'x'"),
            ("rho", "-1", "entry 1"),
            ("rho", "1/0", "entry 1"),
            ("sample_every", "0", "(0, 1000000000]"),
            ("cores", "4", "unknown key"),
        ] {
            let e = s.set(key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
            assert!(e.message.contains(needle), "{key}={value}: {e}");
        }
        s.set("rho", "1,2").unwrap();
        let e = s.validate().unwrap_err();
        assert!(e.key == "rho" && e.message.contains("2 entries for 4 types"), "{e}");
        s.set("rho", "2, 0.5, 4/3, 1").unwrap();
        assert_eq!(s.get("rho").unwrap(), "2,1/2,4/3,1");
        s.validate().unwrap();
        s.set("sample_every", "500").unwrap();
        assert_eq!(s.validate().unwrap_err().key, "sample_every");
        s.set("sample_every", "0.1").unwrap();
        s.set("types", "random:50").unwrap();
        assert_eq!(s.validate().unwrap_err().key, "rho");
        s.set("rho", "default").unwrap();
        s.validate().unwrap();
        assert!(s.config(64).unwrap_err().message.contains("random collections"));
        s.set("types", "4/16, 32/128").unwrap();
        assert_eq!(s.get("types").unwrap(), "4/16,32/128");
        s.validate().unwrap();
    }

    #[test]
    fn c2_reference_lines_at_alpha_1() {
        let r = c3().reference().unwrap().unwrap();
        assert!((r.greedy - 3196.0 / 3.0).abs() < 1e-9 && (r.optimal - 1236.0).abs() < 1e-6, "{r:?}");
        let config = c3().config(64).unwrap();
        let Arrivals::Poisson { rates, .. } = &config.arrivals else { panic!("Poisson") };
        let want = [2.0, 0.5, 4.0 / 3.0, 1.0].map(|r| r * 180.0);
        assert!(rates.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9), "{rates:?}");
        assert!((c3().offered_utilization() - 0.966).abs() < 0.01);
    }

    #[test]
    fn links_carry_the_keys_and_revert_what_does_not_fit() {
        use crate::policy::PolicySpec;
        use crate::scenario::{decode_link, encode_link};
        let p = preset("pgas-c4").unwrap();
        let mut s = p.scenario.clone();
        s.set("servers", "90").unwrap();
        s.set("rho", "2,1/2,4/3,1/3").unwrap();
        s.set("sample_every", "0.05").unwrap();
        let policies = vec![PolicySpec::parse("dra:g=ln^2").unwrap(), PolicySpec::parse("po-d:d=2").unwrap()];
        let q = encode_link(&p, &policies, &s, &[]);
        assert!(q.contains("rho=2,1/2,4/3,1/3") && q.contains("policy=dra:g=ln%5E2,po-d:d=2"), "{q}");
        let (link, errors) = decode_link(&q, &[]);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!((link.scenario, link.policies), (s, policies));
        // Four workloads for three types: the link's rho is reverted, the rest loads.
        let (link, errors) = decode_link("preset=pgas-c6&servers=30&rho=1,1,1,1", &[]);
        assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["rho"]);
        assert_eq!(
            (link.scenario.get("servers").unwrap(), link.scenario.get("rho").unwrap()),
            ("30".into(), "default".into())
        );
        // A shorter horizon keeps the warm-up's and the grid's fractions.
        let (link, _) = decode_link("preset=pgas-c3&horizon=100", &[]);
        assert_eq!(
            (link.scenario.get("warmup").unwrap(), link.scenario.get("sample_every").unwrap()),
            ("25".into(), "0.5".into())
        );
    }

    #[test]
    fn a_trace_scenario_replays_the_trace() {
        let mut s = c3();
        s.attach_trace(Trace::from_csv("0,1,0.5,0\n1,2,0.1,9\n").unwrap());
        s.validate().unwrap();
        let config = s.config(64).unwrap();
        assert_eq!(config.type_names, ["p2 · 1/8", "p0 · 1/2"]);
        assert_eq!(config.reward_units, [128 * 9, 512]);
        assert_eq!(config.priorities, Some(vec![2, 0]));
        assert!(s.reference().unwrap().is_none());
    }
}
