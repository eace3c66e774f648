//! The PG-AS scenario (SPEC section 4) and its keys: L servers, VM types with rewards,
//! workload ρ scaled by α, Poisson arrivals at rate α·ρ_j·L with Exp(1) service, or a task
//! trace.

use std::sync::Arc;

use num_traits::Zero;

use super::Pgas;
use super::engine::PgasShift;
use super::state::{Arrivals, PgasConfig};
use super::theory::instances::{VM_SERVER, Vm, pgas_c2, pgas_c2_rho, pgas_c6};
use super::theory::rational::{self, Rational};
use super::theory::{AlphaCurve, BoundsError, HomogeneousTypes, Packing, RewardInstance};
use super::trace::{CAPACITY_UNITS, MAX_TASKS, Trace};
use super::types::{PgasTypes, Rho};
use crate::ConfigError;
use crate::changes::Shifts;
use crate::keys::{Editor, Input, Key};
use crate::model::{ModelScenario, RewardReference, window_keys};
use crate::resources::Resources;
use crate::window::{HasWindow, RunWindow, WindowRules};

/// Fewest tasks the synthetic trace must hold on average: with fewer the draw is often empty
/// and a run has no job type at all.
const MIN_SYNTHETIC_TASKS: f64 = 10.0;
/// Most servers.
pub const MAX_SERVERS: u32 = 100_000;
/// Largest workload scale α.
pub const MAX_LOAD: f64 = 100.0;

/// A loaded trace, shared between the scenario's clones, and the fingerprint links name it by.
/// Two are equal when they have the same name and their parsed tasks the same fingerprint and
/// count (see [`Trace::fingerprint`]).
#[derive(Debug, Clone)]
pub struct TraceRef {
    pub tasks: Arc<Trace>,
    /// The fingerprint of the file the tasks were read from, as `packlab trace stats` prints it
    /// and every model's links name a file; a trace attached without a file is named by its
    /// tasks' fingerprint.
    pub name: u64,
}

impl PartialEq for TraceRef {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && (Arc::ptr_eq(&self.tasks, &other.tasks)
                || (self.tasks.fingerprint() == other.tasks.fingerprint() && self.tasks.len() == other.tasks.len()))
    }
}

/// L servers, a type catalogue, a workload and a run window.
#[derive(Debug, Clone, PartialEq)]
pub struct PgasScenario {
    /// L.
    pub servers: u32,
    pub types: PgasTypes,
    /// ρ per type; `None` takes the catalogue's (C2: 2, 1/2, 4/3, 1; otherwise 1 each).
    pub rho: Option<Rho>,
    /// α: ρ → α·ρ (for a trace: submit times divided by α).
    pub load: f64,
    /// The run window; its series grid may be fractional (Fig. 4 samples every 0.1).
    pub window: RunWindow,
    /// The loaded trace (types = trace); links name it by its fingerprint (`trace=`).
    pub trace: Option<TraceRef>,
}

const WINDOW: [Key<PgasScenario>; 5] = window_keys();

/// The keys of a PG-AS scenario, in the order listings and links use.
pub const KEYS: &[Key<PgasScenario>] = &[
    Key::int(
        "servers",
        1,
        MAX_SERVERS as u64,
        |s: &PgasScenario| s.servers as u64,
        |s: &mut PgasScenario, v| s.servers = v as u32,
    )
    .label("Servers L")
    .help("L, identical servers")
    .changes(
        "servers added from that moment on are empty and take jobs at once; servers removed (the highest-numbered) \
         take no new job and leave once their jobs are done (DRA migrates out of them first); λ and g stay the ones \
         of the starting L",
    )
    // The engine and the policy are built for the most servers the changes reach: a playing
    // race takes a count up to that (a server lost and back), not more.
    .live_within(|s: &PgasScenario, v| {
        crate::keys::more_than(super::engine::most_servers(s.servers as usize, &s.shifts()) as u64, v)
    }),
    Key::text(
        "types",
        PgasTypes::RANGE,
        |s: &PgasScenario| s.types.to_string(),
        |s: &mut PgasScenario, v| {
            s.types = PgasTypes::parse(v)?;
            Ok(())
        },
    )
    .label("Types (c2, c6, trace, or VM types vCPU/GB, …)")
    .help("job types with reward rates")
    .input(Input::Editor(Editor::Types)),
    Key::text(
        "rho",
        Rho::RANGE,
        |s: &PgasScenario| s.rho.as_ref().map_or("default".to_string(), Rho::to_string),
        |s: &mut PgasScenario, v| {
            s.rho = Rho::parse(v)?;
            Ok(())
        },
    )
    .label("Workload ρ per type (default, or a list)")
    .help("workload ρ_j = λ_j/μ_j per server and type (scaled by load)")
    .input(Input::Wide),
    Key::real("load", 0.0, MAX_LOAD, |s: &PgasScenario| s.load, |s: &mut PgasScenario, v| s.load = v)
        .label("Workload scale α")
        .help("workload scale α: arrival rates α·ρ_j·L (a trace: submit times divided by α)")
        .input(Input::Load)
        .changes("every type's arrival rate from that moment on (not while a trace replays)"),
    Key::text(
        "trace",
        "none, or the 16-digit fingerprint of a loaded trace (Google task_events or a task CSV)",
        |s: &PgasScenario| s.trace.as_ref().map_or_else(|| "none".to_string(), |t| format!("{:016x}", t.name)),
        |s: &mut PgasScenario, v| {
            match v.trim() {
                "none" => s.trace = None,
                name => {
                    let (tasks, name) = loaded_trace(name)?;
                    s.attach_named(tasks, name);
                }
            }
            Ok(())
        },
    )
    .label("Trace")
    .help("the trace replayed (types = trace), named by its fingerprint")
    .input(Input::Hidden),
    WINDOW[0],
    WINDOW[1],
    WINDOW[2],
    WINDOW[3],
    WINDOW[4],
];

/// The loaded trace (in [`crate::trace::library`]) named `name`, as PG-AS maps it, and the
/// file's fingerprint. `name` is the file's fingerprint, or (links written before every model
/// named files alike) the fingerprint of its tasks as PG-AS maps them.
fn loaded_trace(name: &str) -> Result<(Trace, u64), ConfigError> {
    let fingerprint = crate::trace::parse_fingerprint(name)?;
    let library = crate::trace::library();
    let mapped = |shared: &crate::trace::Shared| Trace::from_loaded(&shared.0).map(|t| (t, shared.0.fingerprint()));
    library
        .iter()
        .rev()
        .filter(|shared| shared.0.fingerprint() == fingerprint)
        .find_map(mapped)
        .or_else(|| library.iter().rev().filter_map(mapped).find(|(t, _)| t.fingerprint() == fingerprint))
        .ok_or_else(|| crate::trace::not_loaded(name))
}

impl HasWindow for PgasScenario {
    const WINDOW_RULES: WindowRules = WindowRules { max_horizon: 1_000_000_000, whole_grid: false, slotted: false };

    fn window(&self) -> &RunWindow {
        &self.window
    }

    fn window_mut(&mut self) -> &mut RunWindow {
        &mut self.window
    }
}

impl ModelScenario for PgasScenario {
    type Model = Pgas;
}

impl PgasScenario {
    /// Uses `trace` for the job types and arrivals (types become `trace`); links name it by its
    /// tasks' fingerprint (a trace from a loaded file is attached by [`Self::attach_named`]).
    pub fn attach_trace(&mut self, trace: Trace) {
        let name = trace.fingerprint();
        self.attach_named(trace, name);
    }

    /// Uses `trace`, read from the file with fingerprint `name`, for the job types and arrivals.
    pub fn attach_named(&mut self, trace: Trace, name: u64) {
        self.types = PgasTypes::Trace;
        self.rho = None;
        self.trace = Some(TraceRef { tasks: Arc::new(trace), name });
    }

    /// Whether the scenario is PGAS-C1's random collections, which only `bounds` computes.
    pub fn bounds_only(&self) -> bool {
        matches!(self.types, PgasTypes::Random { .. })
    }

    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        match &self.types {
            PgasTypes::Random { .. } | PgasTypes::Trace => {
                if self.rho.is_some() {
                    return Err(ConfigError::new(
                        "rho",
                        format!("types={} sets its own workload; use rho=default", self.types),
                    ));
                }
                if self.types == PgasTypes::Trace && self.trace.is_none() {
                    let tasks = Trace::surges_expected_tasks(self.servers, self.window.horizon as f64 * self.load);
                    if tasks < MIN_SYNTHETIC_TASKS {
                        return Err(ConfigError::new(
                            "load",
                            format!(
                                "the synthetic trace for {} servers over {} time units at load {} would hold about {tasks:.1} \
                                 tasks; it needs at least {MIN_SYNTHETIC_TASKS} on average: raise the load, the horizon or \
                                 the servers",
                                self.servers, self.window.horizon, self.load
                            ),
                        ));
                    }
                    // 90 % of the limit, so the random draw stays under it.
                    let most = 0.9 * MAX_TASKS as f64;
                    if tasks > most {
                        return Err(ConfigError::new(
                            "horizon",
                            format!(
                                "the synthetic trace for {} servers over {} time units at load {} would hold about {:.0} \
                                 tasks, more than the {most:.0} allowed (90% of the {MAX_TASKS}-task limit, leaving room \
                                 for the random draw); shorten the horizon or use fewer servers",
                                self.servers, self.window.horizon, self.load, tasks
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
    /// PG-AS Fig. 2 for this scenario's instance and workload: U^(g) and U* against the
    /// workload scale α on [0, 10] in steps of 0.05, with the critical points; `None` where
    /// there is no instance (a trace, random collections). What the page's α view draws and
    /// a tour checks.
    pub fn alpha_view(&self) -> Option<Result<AlphaCurve, String>> {
        /// The α range and its steps (0.05 apart).
        const ALPHA_MAX: f64 = 10.0;
        const STEPS: usize = 200;
        let instance = self.instance().ok()??;
        let rho = self.base_rho(instance.types());
        Some(instance.alpha_curve(&rho, ALPHA_MAX, STEPS).map_err(|e| e.to_string()))
    }

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

    /// The Poisson arrival rates α·ρ_j·L of `types` enumerated types.
    pub fn arrival_rates(&self, types: usize) -> Vec<f64> {
        self.scaled_rho(types).iter().map(|q| rational::to_f64(q) * self.servers as f64).collect()
    }

    /// U^(g)\[αρ\] and U*\[αρ\] (SPEC 4.6's reference lines), for enumerated types; `None` for a
    /// trace or random collections. One exact greedy and one LP solve.
    pub fn reference(&self) -> Result<Option<RewardReference>, BoundsError> {
        let Some(instance) = self.instance()? else { return Ok(None) };
        let rho = self.scaled_rho(instance.types());
        let greedy = instance.global_greedy(&rho)?.reward_f64();
        let f: Vec<f64> = rho.iter().map(rational::to_f64).collect();
        let optimal = instance.optimum(&f)?.value;
        Ok(Some(RewardReference { greedy, optimal }))
    }

    /// What the engine sets at each moment of the changes: the arrival rates, from the load
    /// read against the starting L (a change of the server count moves no arrival, RES-98),
    /// and the servers that take jobs.
    pub fn shifts(&self) -> Shifts<PgasShift> {
        // The enumerated types' count, without building the instance (none for a trace).
        let types = self.demand_vectors().0.len();
        let servers = self.servers;
        Shifts::build(self, &self.window.changes, self.window.horizon, KEYS, move |now| PgasShift {
            rates: if types == 0 { Vec::new() } else { PgasScenario { servers, ..now.clone() }.arrival_rates(types) },
            servers: now.servers as usize,
        })
    }

    /// The trace the run replays: the loaded one, or the synthetic stand-in (drawn from the
    /// seed over the horizon stretched by α, so it fills the horizon after the compression).
    pub fn trace(&self) -> Option<Arc<Trace>> {
        match (&self.types, &self.trace) {
            (PgasTypes::Trace, Some(t)) => Some(Arc::clone(&t.tasks)),
            (PgasTypes::Trace, None) => {
                Some(Arc::new(Trace::surges(self.servers, self.window.horizon as f64 * self.load, self.window.seed)))
            }
            _ => None,
        }
    }

    /// The offered work per server as a fraction of its capacity: the mean over resources of
    /// Σ_j α·ρ_j·R_j / C for Poisson types, the trace's work over L servers and the horizon.
    pub fn offered_utilization(&self) -> f64 {
        match &self.types {
            PgasTypes::Trace => match &self.trace {
                Some(t) => t.tasks.work() / (f64::from(self.servers) * self.window.horizon as f64),
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
                (super::theory::instances::C2_LISTED.iter().map(|v| [2 * v.vcpu, 2 * v.gb]).collect(), server)
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
            PgasTypes::C2 => super::theory::instances::C2_LISTED
                .iter()
                .map(|v| format!("{} vCPU · {} GB", 2 * v.vcpu, 2 * v.gb))
                .collect(),
            PgasTypes::C6 => ["(0.6, 0.6)", "(0.7, 0.1)", "(0.1, 0.7)"].map(String::from).to_vec(),
            PgasTypes::Vms(vms) => vms.iter().map(|v| format!("{} vCPU · {} GB", v.vcpu, v.gb)).collect(),
            PgasTypes::Trace => self.trace().map_or_else(Vec::new, |t| t.types().iter().map(|c| c.name()).collect()),
            PgasTypes::Random { .. } => Vec::new(),
        }
    }

    /// The engine configuration (after validating).
    pub fn engine_config(&self, max_points: usize) -> Result<PgasConfig, ConfigError> {
        let servers = self.servers as usize;
        let timing = (self.window.warmup as f64, self.window.horizon as f64, self.window.sample_every);
        if let Some(trace) = self.trace() {
            if trace.is_empty() {
                // Validation asks for 10 tasks on average; the draw may still bring none.
                return Err(ConfigError::new(
                    "load",
                    format!(
                        "the synthetic trace drawn from seed {} holds no task; raise the load, the horizon or the servers",
                        self.window.seed
                    ),
                ));
            }
            let types = trace.types();
            let sizes: Vec<u64> = types.iter().map(|c| c.size_units()).collect();
            let factors: Vec<u64> = types.iter().map(|c| c.factor()).collect();
            let homogeneous = HomogeneousTypes::new(CAPACITY_UNITS, sizes.clone(), factors.clone())?;
            return Ok(PgasConfig {
                servers,
                built: servers,
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
                details: false,
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
        let rates = self.arrival_rates(instance.types());
        let resource_names =
            if self.types == PgasTypes::C6 { vec!["resource 1", "resource 2"] } else { vec!["vCPU", "GB"] };
        Ok(PgasConfig {
            servers,
            built: servers,
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
            details: false,
            type_names: self.type_names(),
            resource_names,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{AnyScenario, Scenario};
    use crate::scenario::preset;

    fn c3() -> PgasScenario {
        let Scenario::Pgas(s) = preset("pgas-c3").unwrap().scenario else { panic!("pgas-c3 is a PG-AS scenario") };
        s
    }

    #[test]
    fn keys_round_trip_and_reject_with_ranges() {
        let mut s = c3();
        for k in KEYS {
            let v = k.get(&s);
            k.set(&mut s, &v).unwrap();
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
            let e = AnyScenario::set(&mut s, key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
            assert!(e.message.contains(needle), "{key}={value}: {e}");
        }
        AnyScenario::set(&mut s, "rho", "1,2").unwrap();
        let e = AnyScenario::validate(&s).unwrap_err();
        assert!(e.key == "rho" && e.message.contains("2 entries for 4 types"), "{e}");
        AnyScenario::set(&mut s, "rho", "2, 0.5, 4/3, 1").unwrap();
        assert_eq!(AnyScenario::get(&s, "rho").unwrap(), "2,1/2,4/3,1");
        AnyScenario::validate(&s).unwrap();
        AnyScenario::set(&mut s, "sample_every", "500").unwrap();
        assert_eq!(AnyScenario::validate(&s).unwrap_err().key, "sample_every");
        AnyScenario::set(&mut s, "sample_every", "0.1").unwrap();
        AnyScenario::set(&mut s, "types", "random:50").unwrap();
        assert_eq!(AnyScenario::validate(&s).unwrap_err().key, "rho");
        AnyScenario::set(&mut s, "rho", "default").unwrap();
        AnyScenario::validate(&s).unwrap();
        assert!(s.engine_config(64).unwrap_err().message.contains("random collections"));
        AnyScenario::set(&mut s, "types", "4/16, 32/128").unwrap();
        assert_eq!(AnyScenario::get(&s, "types").unwrap(), "4/16,32/128");
        AnyScenario::validate(&s).unwrap();
    }

    #[test]
    fn c2_reference_lines_at_alpha_1() {
        let r = c3().reference().unwrap().unwrap();
        assert!((r.greedy - 3196.0 / 3.0).abs() < 1e-9 && (r.optimal - 1236.0).abs() < 1e-6, "{r:?}");
        let config = c3().engine_config(64).unwrap();
        let Arrivals::Poisson { rates, .. } = &config.arrivals else { panic!("Poisson") };
        let want = [2.0, 0.5, 4.0 / 3.0, 1.0].map(|r| r * 180.0);
        assert!(rates.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-9), "{rates:?}");
        assert!((c3().offered_utilization() - 0.966).abs() < 0.01);
    }

    #[test]
    fn links_carry_the_keys_and_revert_what_does_not_fit() {
        use crate::link::{decode_link, encode_link};
        use crate::model::policy::PolicySpec;
        let p = preset("pgas-c4").unwrap();
        let mut s = p.scenario.clone();
        s.set("servers", "90").unwrap();
        s.set("rho", "2,1/2,4/3,1/3").unwrap();
        s.set("sample_every", "0.05").unwrap();
        let policies = vec![PolicySpec::parse("dra:g=ln^2").unwrap(), PolicySpec::parse("po-d:d=2").unwrap()];
        let q = encode_link(&p, &policies, &s, &Default::default());
        assert!(q.contains("rho=2,1/2,4/3,1/3") && q.contains("policy=dra:g=ln%5E2,po-d:d=2"), "{q}");
        let (link, errors) = decode_link(&q);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!((link.scenario, link.policies), (s, policies));
        // Four workloads for three types: the link's rho is reverted, the rest loads.
        let (link, errors) = decode_link("preset=pgas-c6&servers=30&rho=1,1,1,1");
        assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["rho"]);
        assert_eq!(
            (link.scenario.get("servers").unwrap(), link.scenario.get("rho").unwrap()),
            ("30".into(), "default".into())
        );
        // A shorter horizon keeps the warm-up's and the grid's fractions.
        let (link, _) = decode_link("preset=pgas-c3&horizon=100");
        assert_eq!(
            (link.scenario.get("warmup").unwrap(), link.scenario.get("sample_every").unwrap()),
            ("25".into(), "0.5".into())
        );
    }

    #[test]
    fn a_trace_scenario_replays_the_trace() {
        let mut s = c3();
        s.attach_trace(Trace::from_csv("0,1,0.5,0\n1,2,0.1,9\n").unwrap());
        AnyScenario::validate(&s).unwrap();
        let config = s.engine_config(64).unwrap();
        assert_eq!(config.type_names, ["p2 · 1/8", "p0 · 1/2"]);
        assert_eq!(config.reward_units, [128 * 9, 512]);
        assert_eq!(config.priorities, Some(vec![2, 0]));
        assert!(s.reference().unwrap().is_none());
    }
}
