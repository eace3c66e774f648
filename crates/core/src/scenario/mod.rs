//! Scenarios: the one serde type behind presets, CLI flags, form fields and URL links.
//!
//! Every scenario field has a string key (the same for `--set KEY=VALUE`, the URL query and
//! the form) with a documented range; [`Scenario::set`] parses and range-checks one key and
//! names it in its error.

mod link;
mod msj;
mod pgas;
mod pgrr;
mod presets;
mod vm;

use serde::{Deserialize, Serialize};

pub use link::{Link, PAGE_KEYS, decode_link, encode_link};
pub use msj::MsjScenario;
pub use pgas::{PgasScenario, PgasTypes, RewardReference, Rho, TraceRef};
pub use pgrr::PgrrScenario;
pub use presets::{Preset, preset, presets, server_grid};
pub use vm::VmScenario;

use crate::ConfigError;
use crate::policy::{Model, PolicyKind, PolicySpec};

/// A settable key of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySpec {
    pub key: &'static str,
    /// What it means.
    pub help: &'static str,
    /// Allowed values.
    pub range: &'static str,
}

/// The time per job a model measures, for tables, charts and the page's stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobTime {
    /// For people: "response time", "delay".
    pub name: &'static str,
    /// In attribute names and JSON: `data-mean-response`, `data-mean-delay`.
    pub key: &'static str,
    /// What is measured.
    pub definition: &'static str,
    /// Chart titles: the running mean of every policy, and per bin (class or type) of one.
    pub title: &'static str,
    pub bin_title: &'static str,
}

/// A full scenario. One variant per model; later models add theirs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum Scenario {
    /// PG-RR: jobs of random size on L unit servers, slotted time.
    Pgrr(PgrrScenario),
    /// MSFQ: multiserver jobs on one machine of k cores, continuous time.
    Msj(MsjScenario),
    /// GH-RA: VMs on servers with several resources, continuous time.
    Vm(VmScenario),
    /// PG-AS: a loss system with slots and rewards, continuous time.
    Pgas(PgasScenario),
}

impl Scenario {
    /// The keys this scenario accepts.
    pub fn keys(&self) -> &'static [KeySpec] {
        match self {
            Self::Pgrr(_) => PgrrScenario::KEYS,
            Self::Msj(_) => MsjScenario::KEYS,
            Self::Vm(_) => VmScenario::KEYS,
            Self::Pgas(_) => PgasScenario::KEYS,
        }
    }

    /// Current value of `key` in its text form.
    pub fn get(&self, key: &str) -> Option<String> {
        match self {
            Self::Pgrr(s) => s.get(key),
            Self::Msj(s) => s.get(key),
            Self::Vm(s) => s.get(key),
            Self::Pgas(s) => s.get(key),
        }
    }

    /// Parses and sets one key. On error the scenario is unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        match self {
            Self::Pgrr(s) => s.set(key, value),
            Self::Msj(s) => s.set(key, value),
            Self::Vm(s) => s.set(key, value),
            Self::Pgas(s) => s.set(key, value),
        }
    }

    /// Checks the relations between fields (each field alone is checked by [`Scenario::set`]).
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self {
            Self::Pgrr(s) => s.validate(),
            Self::Msj(s) => s.validate(),
            Self::Vm(s) => s.validate(),
            Self::Pgas(s) => s.validate(),
        }
    }

    pub fn seed(&self) -> u64 {
        match self {
            Self::Pgrr(s) => s.seed,
            Self::Msj(s) => s.seed,
            Self::Vm(s) => s.seed,
            Self::Pgas(s) => s.seed,
        }
    }

    /// The name papers and charts give `policy` in this scenario, e.g. "VQS (J=2)".
    pub fn policy_label(&self, policy: &PolicySpec) -> String {
        match self {
            Self::Pgrr(s) => policy.label(s.j),
            Self::Msj(_) | Self::Vm(_) | Self::Pgas(_) => policy.label(0),
        }
    }

    /// The preset's load knob (α for PG-RR, λ for multiserver jobs, ζ for VMs, the workload
    /// scale α for PG-AS).
    pub fn load(&self) -> f64 {
        match self {
            Self::Pgrr(s) => s.load,
            Self::Msj(s) => s.load,
            Self::Vm(s) => s.load,
            Self::Pgas(s) => s.load,
        }
    }

    pub fn horizon(&self) -> u64 {
        match self {
            Self::Pgrr(s) => s.horizon,
            Self::Msj(s) => s.horizon,
            Self::Vm(s) => s.horizon,
            Self::Pgas(s) => s.horizon,
        }
    }

    /// Sets the horizon and scales the warm-up and the series grid by the same factor, so the
    /// discarded fraction and the number of series points stay as they were. This is what a
    /// user who only changes the run length expects (`--horizon`, the page's horizon field).
    pub fn set_horizon_scaled(&mut self, horizon: u64) -> Result<(), ConfigError> {
        let old = self.horizon();
        let factor = |v: u64| (v as u128 * horizon as u128 / old as u128) as u64;
        let mut scaled = self.clone();
        scaled.set("horizon", &horizon.to_string())?;
        let (warmup, sample_every) = match &mut scaled {
            Self::Pgrr(s) => (&mut s.warmup, &mut s.sample_every),
            Self::Msj(s) => (&mut s.warmup, &mut s.sample_every),
            Self::Vm(s) => (&mut s.warmup, &mut s.sample_every),
            Self::Pgas(s) => {
                s.warmup = factor(s.warmup);
                s.sample_every *= horizon as f64 / old as f64;
                *self = scaled;
                return Ok(());
            }
        };
        *warmup = factor(*warmup);
        *sample_every = factor(*sample_every).max(1);
        *self = scaled;
        Ok(())
    }

    /// The offered work as a fraction of the capacity: α for PG-RR, λ·Σ_j p_j·j·E[S_j]/k for
    /// multiserver jobs, the mean over resources of Σ_j ρ_j·r_j / capacity for VMs. A stable
    /// policy's occupancy converges to it.
    pub fn offered_utilization(&self) -> f64 {
        match self {
            Self::Pgrr(s) => s.load,
            Self::Msj(s) => s.load * s.classes.work_per_arrival() / s.cores as f64,
            Self::Vm(s) => s.offered_occupancy(),
            Self::Pgas(s) => s.offered_utilization(),
        }
    }

    /// The model this scenario belongs to.
    pub fn model(&self) -> Model {
        match self {
            Self::Pgrr(_) => Model::Pgrr,
            Self::Msj(_) => Model::Msj,
            Self::Vm(_) => Model::Vm,
            Self::Pgas(_) => Model::Pgas,
        }
    }

    /// The per-job time the model measures: the multiserver-job model's response time, the
    /// VM model's delay until service; PG-RR's page shows queues only, PG-AS rewards.
    pub fn job_time(&self) -> Option<JobTime> {
        match self {
            Self::Pgrr(_) | Self::Pgas(_) => None,
            Self::Msj(_) => Some(JobTime {
                name: "response time",
                key: "response",
                definition: "completion − arrival, weighted by the class mix",
                title: "Mean response time, running average",
                bin_title: "Mean response time per class, running average",
            }),
            Self::Vm(_) => Some(JobTime {
                name: "delay",
                key: "delay",
                definition: "start of service − arrival",
                title: "Mean delay until service, running average",
                bin_title: "Mean delay per VM type, running average",
            }),
        }
    }

    /// Whether jobs wait in the model: PG-AS's loss system admits or rejects, with no queue.
    pub fn has_queue(&self) -> bool {
        !matches!(self, Self::Pgas(_))
    }

    /// What the time unit is called ("slots" or "time units").
    pub fn time_unit(&self) -> &'static str {
        match self {
            Self::Pgrr(_) => "slots",
            Self::Msj(_) | Self::Vm(_) | Self::Pgas(_) => "time units",
        }
    }

    /// Checks that `policy` belongs to this scenario's model and that its parameters fit
    /// the scenario (e.g. MSFQ's ℓ < k).
    pub fn check_policy(&self, policy: &PolicySpec) -> Result<(), ConfigError> {
        if policy.kind.model() != self.model() {
            let names: Vec<_> = PolicyKind::of_model(self.model()).map(|k| k.name()).collect();
            return Err(ConfigError::new(
                PolicySpec::KEY,
                format!(
                    "{} is a policy of {}; this scenario is {} and takes {}",
                    policy.kind.name(),
                    policy.kind.model().label(),
                    self.model().label(),
                    names.join(", ")
                ),
            ));
        }
        match self {
            Self::Pgrr(_) => Ok(()),
            Self::Msj(s) => policy.build_msj(s.cores, &s.classes, s.load).map(|_| ()),
            Self::Vm(s) => policy.build_vm(&s.types.demands(), &s.servers.capacities()).map(|_| ()),
            Self::Pgas(s) => {
                if policy.kind == PolicyKind::DraPreempt && s.types != PgasTypes::Trace {
                    return Err(ConfigError::new(PolicySpec::KEY, PolicySpec::PREEMPT_NEEDS_PRIORITIES));
                }
                Ok(())
            }
        }
    }

    /// After keys were set on top of `base`: if the horizon changed, scales the warm-up and
    /// the series grid as [`Scenario::set_horizon_scaled`] would, except the ones the user set
    /// (`explicit`). Returns whether the warm-up was rescaled. The CLI and links share this
    /// rule, so `?horizon=T` means on the page what `--horizon T` means on the command line.
    pub fn follow_horizon(&mut self, base: &Scenario, explicit: &[&str]) -> Result<bool, ConfigError> {
        if self.horizon() == base.horizon() {
            return Ok(false);
        }
        let mut scaled = base.clone();
        scaled.set_horizon_scaled(self.horizon())?;
        let mut warmup = false;
        for key in ["warmup", "sample_every"] {
            if !explicit.contains(&key) {
                let value = scaled.get(key).expect("a key of every scenario");
                self.set(key, &value)?;
                warmup |= key == "warmup";
            }
        }
        Ok(warmup)
    }

    /// Keys whose values differ from `base`, with their values, in key order.
    pub fn overrides_from(&self, base: &Scenario) -> Vec<(&'static str, String)> {
        self.keys()
            .iter()
            .filter_map(|k| {
                let mine = self.get(k.key)?;
                (base.get(k.key).as_deref() != Some(mine.as_str())).then_some((k.key, mine))
            })
            .collect()
    }
}

/// Parses an integer key within `range`.
pub(crate) fn parse_int(key: &str, value: &str, lo: u64, hi: u64) -> Result<u64, ConfigError> {
    let bad = || ConfigError::new(key, format!("must be an integer in {lo}..={hi} (got '{value}')"));
    let v: u64 = value.trim().parse().map_err(|_| bad())?;
    if (lo..=hi).contains(&v) { Ok(v) } else { Err(bad()) }
}

/// Parses a finite number in `(lo, hi]`.
pub(crate) fn parse_positive(key: &str, value: &str, lo: f64, hi: f64) -> Result<f64, ConfigError> {
    let bad = || ConfigError::new(key, format!("must be a number in ({lo}, {hi}] (got '{value}')"));
    let v: f64 = value.trim().parse().map_err(|_| bad())?;
    if v.is_finite() && v > lo && v <= hi { Ok(v) } else { Err(bad()) }
}

/// The relations every model's run window must satisfy: the warm-up ends before the horizon,
/// and the series grid has at least one interval.
pub(crate) fn check_run_window(warmup: u64, horizon: u64, sample_every: u64) -> Result<(), ConfigError> {
    if warmup >= horizon {
        return Err(ConfigError::new("warmup", format!("must be below the horizon ({warmup} >= {horizon})")));
    }
    if sample_every > horizon {
        return Err(ConfigError::new(
            "sample_every",
            format!("must be at most the horizon ({sample_every} > {horizon})"),
        ));
    }
    Ok(())
}
