//! The closed list of policies, their names and parameters (`vqs:j=7`), and how to build
//! them.

use serde::{Deserialize, Serialize};

use super::SlottedPolicy;
use super::ghra::{Alg1, Alg2, MaxWeight, Refresh, Routing, Weight};
use super::msj::{AdaptiveQs, Fcfs, FirstFit, Msf, Msfq, Nmsr, StaticQs};
use super::pgas::{Dra, PowerOfD, ReservationFactor, UpperBound};
use super::pgrr::{BfJ, BfJs, BfS, FifoFf, Vqs, VqsBf};
use crate::ConfigError;
use crate::engine::msj::MsjPolicy;
use crate::engine::reservation::{ReservationConfig, ReservationPolicy};
use crate::engine::vm::VmPolicy;
use crate::model::Resources;
use crate::model::partition::{MAX_J, MIN_J, Partition};
use crate::workload::JobClasses;

/// Every policy packlab knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PolicyKind {
    BfJ,
    BfS,
    BfJs,
    Vqs,
    VqsBf,
    FifoFf,
    FifoFfSkip,
    Fcfs,
    FirstFit,
    Msf,
    Msfq,
    StaticQs,
    AdaptiveQs,
    Nmsr,
    Alg1,
    Alg2Jsq,
    Alg2Po2,
    MwGlobal,
    MwLocal,
    Dra,
    DraPreempt,
    PowerOfD,
    UpperBound,
}

/// The models of the papers; each policy belongs to one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Model {
    /// PG-RR: jobs of random size on unit servers, slotted time.
    Pgrr,
    /// MSFQ: multiserver jobs on one machine of k cores, continuous time.
    Msj,
    /// GH-RA: VMs on servers with several resources, Poisson clocks, continuous time.
    Vm,
    /// PG-AS: a loss system with slots and rewards, continuous time.
    Pgas,
}

impl Model {
    pub const ALL: [Model; 4] = [Model::Pgrr, Model::Msj, Model::Vm, Model::Pgas];

    pub fn label(self) -> &'static str {
        match self {
            Self::Pgrr => "PG-RR (random-size jobs, slotted)",
            Self::Msj => "MSJ (multiserver jobs, continuous time)",
            Self::Vm => "GH-RA (VM scheduling on multi-resource servers, continuous time)",
            Self::Pgas => "PG-AS (reward-maximising reservation, a loss system with slots, continuous time)",
        }
    }
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 23] = [
        Self::BfJ,
        Self::BfS,
        Self::BfJs,
        Self::Vqs,
        Self::VqsBf,
        Self::FifoFf,
        Self::FifoFfSkip,
        Self::Fcfs,
        Self::FirstFit,
        Self::Msf,
        Self::Msfq,
        Self::StaticQs,
        Self::AdaptiveQs,
        Self::Nmsr,
        Self::Alg1,
        Self::Alg2Jsq,
        Self::Alg2Po2,
        Self::MwGlobal,
        Self::MwLocal,
        Self::Dra,
        Self::DraPreempt,
        Self::PowerOfD,
        Self::UpperBound,
    ];

    pub fn model(self) -> Model {
        match self {
            Self::BfJ | Self::BfS | Self::BfJs | Self::Vqs | Self::VqsBf | Self::FifoFf | Self::FifoFfSkip => {
                Model::Pgrr
            }
            Self::Fcfs | Self::FirstFit | Self::Msf | Self::Msfq | Self::StaticQs | Self::AdaptiveQs | Self::Nmsr => {
                Model::Msj
            }
            Self::Alg1 | Self::Alg2Jsq | Self::Alg2Po2 | Self::MwGlobal | Self::MwLocal => Model::Vm,
            Self::Dra | Self::DraPreempt | Self::PowerOfD | Self::UpperBound => Model::Pgas,
        }
    }

    /// The policies of `model`, in catalogue order.
    pub fn of_model(model: Model) -> impl Iterator<Item = PolicyKind> {
        Self::ALL.into_iter().filter(move |k| k.model() == model)
    }

    /// The name used by the CLI and in links.
    pub fn name(self) -> &'static str {
        match self {
            Self::BfJ => "bf-j",
            Self::BfS => "bf-s",
            Self::BfJs => "bf-js",
            Self::Vqs => "vqs",
            Self::VqsBf => "vqs-bf",
            Self::FifoFf => "fifo-ff",
            Self::FifoFfSkip => "fifo-ff-skip",
            Self::Fcfs => "fcfs",
            Self::FirstFit => "first-fit",
            Self::Msf => "msf",
            Self::Msfq => "msfq",
            Self::StaticQs => "static-qs",
            Self::AdaptiveQs => "adaptive-qs",
            Self::Nmsr => "nmsr",
            Self::Alg1 => "alg1",
            Self::Alg2Jsq => "alg2-jsq",
            Self::Alg2Po2 => "alg2-po2",
            Self::MwGlobal => "mw-global",
            Self::MwLocal => "mw-local",
            Self::Dra => "dra",
            Self::DraPreempt => "dra-preempt",
            Self::PowerOfD => "po-d",
            Self::UpperBound => "upper-bound",
        }
    }

    /// The name used in the papers and on charts.
    pub fn label(self) -> &'static str {
        match self {
            Self::BfJ => "BF-J",
            Self::BfS => "BF-S",
            Self::BfJs => "BF-J/S",
            Self::Vqs => "VQS",
            Self::VqsBf => "VQS-BF",
            Self::FifoFf => "FIFO-FF",
            Self::FifoFfSkip => "FIFO-FF-skip",
            Self::Fcfs => "FCFS",
            Self::FirstFit => "First-Fit",
            Self::Msf => "MSF",
            Self::Msfq => "MSFQ",
            Self::StaticQs => "Static QS",
            Self::AdaptiveQs => "Adaptive QS",
            Self::Nmsr => "nMSR (approx.)",
            Self::Alg1 => "Alg. 1",
            Self::Alg2Jsq => "Alg. 2 (JSQ)",
            Self::Alg2Po2 => "Alg. 2 (Po2)",
            Self::MwGlobal => "MW-global",
            Self::MwLocal => "MW-local",
            Self::Dra => "DRA",
            Self::DraPreempt => "DRA+Preemption",
            Self::PowerOfD => "Power-of-d",
            Self::UpperBound => "Upper bound",
        }
    }

    /// One line on what the policy does.
    pub fn summary(self) -> &'static str {
        match self {
            Self::BfJ => "each waiting job, oldest first, goes to the fullest server it fits (PG-RR §2.2.2)",
            Self::BfS => "each server, lowest index first, takes the largest waiting job that fits (PG-RR §2.2.1)",
            Self::BfJs => "BF-S on servers that had departures, then BF-J for the new arrivals (PG-RR §2.2.3)",
            Self::Vqs => {
                "virtual queues per size class; an empty server picks the max-weight configuration of K_RED (PG-RR §2.2.6)"
            }
            Self::VqsBf => "VQS configurations, then a best-fit fill of the leftover room (PG-RR §2.2.7)",
            Self::FifoFf => {
                "oldest job first into the lowest-index server it fits; blocks when it fits nowhere (§2.2.8)"
            }
            Self::FifoFfSkip => "first fit in arrival order, skipping jobs that fit nowhere (§2.2.8 variant)",
            Self::Fcfs => "the oldest job starts when it fits; everything behind it waits (MSFQ §2)",
            Self::FirstFit => "backfilling: every waiting job that fits starts, oldest first (MSFQ §2)",
            Self::Msf => "most servers first: the largest waiting job that fits starts (MSFQ §2)",
            Self::Msfq => {
                "MSF with Quickswap: large jobs, then small ones down to the threshold l, then swap (MSFQ §3, one-or-all)"
            }
            Self::StaticQs => "serve one class at a time in a fixed cycle, swap when busy cores drop below l (MSFQ §5)",
            Self::AdaptiveQs => {
                "MSF fill; when a class starves while served classes are empty, drain for the largest job (MSFQ §5)"
            }
            Self::Nmsr => {
                "APPROXIMATION (RES-44): time-share the maximal schedules by LP fractions, non-preemptively (MSFQ §2)"
            }
            Self::Alg1 => {
                "central queues; type j's Poisson clock (rate exp(f(Q_j))) tries a random server: head job or a dummy (GH-RA Alg. 1)"
            }
            Self::Alg2Jsq => {
                "join the shortest queue at a server; each server's type-j clock starts the head job or a dummy (GH-RA Alg. 2)"
            }
            Self::Alg2Po2 => "Algorithm 2 with power-of-two routing: the shorter of two random queues (GH-RA Remark 1)",
            Self::MwGlobal => {
                "JSQ to server queues; max-weight configurations re-chosen only when every server is empty (GH-RA §VII)"
            }
            Self::MwLocal => {
                "JSQ to server queues; a server re-chooses its max-weight configuration whenever it is empty (GH-RA §VII)"
            }
            Self::Dra => {
                "reserve g(L) empty slots per type in GPA's greedy configurations; admit only into reserved slots, migrate out of the reject group (PG-AS §4)"
            }
            Self::DraPreempt => {
                "DRA that preempts the smallest priority-0 jobs for a priority-1/2 arrival it would reject (PG-AS §7.2, RES-31)"
            }
            Self::PowerOfD => {
                "the least loaded of d random servers, if the job fits; no reservation (PG-AS §7.2, [58])"
            }
            Self::UpperBound => {
                "LP (6) on the jobs of an infinite-server system: no policy earns more on these arrivals (PG-AS §7.2)"
            }
        }
    }

    pub fn uses_virtual_queues(self) -> bool {
        matches!(self, Self::Vqs | Self::VqsBf)
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// RES-8: how ties in the max-weight configuration choice are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Ties {
    /// The first maximiser in canonical order (default).
    #[default]
    First,
    /// Uniformly at random among the maximisers (policy stream).
    Random,
}

/// RES-9: which queue counts drive the configuration choice when several servers renew in
/// one slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Weights {
    /// The current counts, after placements made earlier in the slot (default).
    #[default]
    Current,
    /// A snapshot taken right after the arrivals.
    Snapshot,
}

/// RES-10: how VQS fills from the configuration's virtual queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Fill {
    /// Walk the queue in FIFO order and place every job that fits (default).
    #[default]
    Skip,
    /// Stop at the first job that does not fit.
    Strict,
}

/// RES-6: the space taken by jobs of size at most 2^-J.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SmallJobs {
    /// Rounded up to 2^-J (default).
    #[default]
    Round,
    /// Their real size.
    Real,
}

/// Parameters of the virtual-queue policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VqOptions {
    /// Partition depth J; `None` takes the scenario's `j`.
    pub j: Option<u8>,
    pub ties: Ties,
    pub weights: Weights,
    pub fill: Fill,
    pub small: SmallJobs,
}

/// RES-41: the order in which Static Quickswap cycles through the classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CycleOrder {
    /// Descending server need, MSF's priority (default).
    #[default]
    Descending,
    Ascending,
}

/// Parameters of the multiserver-job policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MsjOptions {
    /// MSFQ: ℓ in 0..=k−1 (default k − 1); Static QS: ℓ in servers, 1..=k (default k).
    pub l: Option<u32>,
    /// MSFQ-C (RES-39 option): phase 4 admits small jobs while no large job waits.
    pub open_phase4: bool,
    /// Static QS cycle (RES-41).
    pub order: CycleOrder,
    /// Adaptive QS: freeze the draining target when the trigger fires (RES-43 option).
    pub frozen: bool,
    /// nMSR: τ, the mean cycle length in whole time units (default 10·max E[S], RES-44).
    pub tau: Option<u32>,
}

/// Parameters of the VM-scheduling policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct VmOptions {
    /// Algorithms 1 and 2: the weight function f (RES-51; `None` is log10, the paper's).
    pub weight: Option<Weight>,
}

/// Parameters of the PG-AS policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PgasOptions {
    /// DRA, DRA+Preemption: the reservation factor g(L) (RES-24; `None`: ⌈(ln L)^1.5⌉).
    pub g: Option<ReservationFactor>,
    /// Power-of-d: d (`None`: 5).
    pub d: Option<u32>,
}

/// A policy with its parameters, written `name[:key=value]...`, e.g. `vqs:j=7:ties=random`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PolicySpec {
    pub kind: PolicyKind,
    pub vq: VqOptions,
    pub msj: MsjOptions,
    pub vm: VmOptions,
    pub pgas: PgasOptions,
}

impl PolicySpec {
    pub const KEY: &'static str = "policy";

    pub fn new(kind: PolicyKind) -> Self {
        Self {
            kind,
            vq: VqOptions::default(),
            msj: MsjOptions::default(),
            vm: VmOptions::default(),
            pgas: PgasOptions::default(),
        }
    }

    pub fn with_j(kind: PolicyKind, j: u8) -> Self {
        Self { vq: VqOptions { j: Some(j), ..VqOptions::default() }, ..Self::new(kind) }
    }

    /// A multiserver-job policy with threshold `l`.
    pub fn with_l(kind: PolicyKind, l: u32) -> Self {
        Self { msj: MsjOptions { l: Some(l), ..MsjOptions::default() }, ..Self::new(kind) }
    }

    /// Parameters each policy accepts: `(name, allowed values, meaning)`.
    pub fn parameters(kind: PolicyKind) -> &'static [(&'static str, &'static str, &'static str)] {
        const VQS: [(&str, &str, &str); 5] = [
            ("j", "an integer in 2..=20", "partition depth J (default: the scenario's j)"),
            ("ties", "first or random", "how max-weight ties are broken (RES-8, default first)"),
            (
                "weights",
                "current or snapshot",
                "queue counts used when several servers renew in one slot (RES-9, default current)",
            ),
            ("small", "round or real", "space taken by jobs of size <= 2^-J (RES-6, default round)"),
            ("fill", "skip or strict", "FIFO walk of the configuration's queue (RES-10, default skip)"),
        ];
        match kind {
            PolicyKind::Vqs => &VQS,
            PolicyKind::VqsBf => &VQS[..4],
            PolicyKind::Msfq => &[
                ("l", "an integer in 0..=k-1", "threshold ℓ on small jobs; 0 is MSF (default k-1)"),
                (
                    "phase4",
                    "strict or open",
                    "open: MSFQ-C, small jobs start in phase 4 while no large job waits (RES-39)",
                ),
            ],
            PolicyKind::StaticQs => &[
                ("l", "an integer in 1..=k", "swap when fewer than min(l, i·⌊k/i⌋) cores are busy (RES-42, default k)"),
                (
                    "order",
                    "desc or asc",
                    "cycle through the classes by descending or ascending need (RES-41, default desc)",
                ),
            ],
            PolicyKind::Nmsr => &[(
                "tau",
                "an integer in 1..=1000000",
                "mean cycle length τ in time units (default 10·max E[S], RES-44); switches cost draining time",
            )],
            PolicyKind::Alg1 | PolicyKind::Alg2Jsq | PolicyKind::Alg2Po2 => &[(
                "f",
                Weight::RANGE,
                "weight function: clocks tick at exp(f(Q)); log = 1+Q, log10 = 10(1+Q) (default), loglog = 1+ln(1+Q) (RES-51)",
            )],
            PolicyKind::AdaptiveQs => &[(
                "target",
                "recompute or frozen",
                "draining target recomputed at each event, or frozen when the trigger fires (RES-43)",
            )],
            PolicyKind::Dra | PolicyKind::DraPreempt => &[(
                "g",
                ReservationFactor::RANGE,
                "reservation factor g(L): empty slots kept per type (RES-24, default ⌈(ln L)^1.5⌉)",
            )],
            PolicyKind::PowerOfD => &[("d", "an integer in 1..=1000", "servers sampled per arrival (default 5)")],
            _ => &[],
        }
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, m);
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or("").trim();
        let kind = PolicyKind::from_name(name).ok_or_else(|| {
            let names: Vec<_> = PolicyKind::ALL.iter().map(|k| k.name()).collect();
            err(format!("unknown policy '{name}'; known: {}", names.join(", ")))
        })?;
        let mut spec = Self::new(kind);
        let allowed = Self::parameters(kind);
        for part in parts {
            let (key, value) =
                part.split_once('=').ok_or_else(|| err(format!("{name}: parameter '{part}' is not KEY=VALUE")))?;
            let (key, value) = (key.trim(), value.trim());
            let Some((_, range, _)) = allowed.iter().find(|(k, _, _)| *k == key) else {
                let names: Vec<_> = allowed.iter().map(|(k, _, _)| *k).collect();
                return Err(err(if names.is_empty() {
                    format!("{name} takes no parameters (got '{key}')")
                } else {
                    format!("{name} has no parameter '{key}'; it takes {}", names.join(", "))
                }));
            };
            let bad = || err(format!("{name}: {key} must be {range} (got '{value}')"));
            let o = &mut spec.vq;
            match key {
                "j" => {
                    let j: u8 = value.parse().map_err(|_| bad())?;
                    if !(MIN_J..=MAX_J).contains(&j) {
                        return Err(bad());
                    }
                    o.j = Some(j);
                }
                "ties" => o.ties = pick(value, [("first", Ties::First), ("random", Ties::Random)]).ok_or_else(bad)?,
                "weights" => {
                    o.weights =
                        pick(value, [("current", Weights::Current), ("snapshot", Weights::Snapshot)]).ok_or_else(bad)?
                }
                "small" => {
                    o.small = pick(value, [("round", SmallJobs::Round), ("real", SmallJobs::Real)]).ok_or_else(bad)?
                }
                "fill" => o.fill = pick(value, [("skip", Fill::Skip), ("strict", Fill::Strict)]).ok_or_else(bad)?,
                // The upper bound depends on the scenario's k; `build_msj` checks it.
                "l" => spec.msj.l = Some(value.parse().map_err(|_| bad())?),
                "phase4" => spec.msj.open_phase4 = pick(value, [("strict", false), ("open", true)]).ok_or_else(bad)?,
                "order" => {
                    spec.msj.order = pick(value, [("desc", CycleOrder::Descending), ("asc", CycleOrder::Ascending)])
                        .ok_or_else(bad)?
                }
                "f" => spec.vm.weight = Some(Weight::from_name(value).ok_or_else(bad)?),
                "target" => spec.msj.frozen = pick(value, [("recompute", false), ("frozen", true)]).ok_or_else(bad)?,
                "g" => spec.pgas.g = Some(ReservationFactor::parse(value).ok_or_else(bad)?),
                "d" => {
                    let d: u32 = value.parse().map_err(|_| bad())?;
                    if !(1..=1000).contains(&d) {
                        return Err(bad());
                    }
                    spec.pgas.d = Some(d);
                }
                "tau" => {
                    let tau: u32 = value.parse().map_err(|_| bad())?;
                    if !(1..=1_000_000).contains(&tau) {
                        return Err(bad());
                    }
                    spec.msj.tau = Some(tau);
                }
                _ => unreachable!("checked against the parameter list"),
            }
        }
        Ok(spec)
    }

    /// J used by this policy, given the scenario's default.
    pub fn j(&self, scenario_j: u8) -> u8 {
        self.vq.j.unwrap_or(scenario_j)
    }

    /// A chart label such as "VQS (J=7)" or "MSFQ (ℓ=31)".
    pub fn label(&self, scenario_j: u8) -> String {
        if let Some(weight) = self.vm.weight.filter(|w| *w != Weight::default()) {
            format!("{} (f={})", self.kind.label(), weight.name())
        } else if let Some(d) = self.pgas.d {
            format!("{} (d={d})", self.kind.label())
        } else if let Some(g) = self.pgas.g {
            format!("{} (g={})", self.kind.label(), g.name())
        } else if let Some(l) = self.msj.l {
            format!("{} (ℓ={l})", self.kind.label())
        } else if self.kind.uses_virtual_queues() {
            format!("{} (J={})", self.kind.label(), self.j(scenario_j))
        } else {
            self.kind.label().to_string()
        }
    }

    /// Builds the policy for a cluster of `servers` servers of `capacity` units.
    pub fn build(&self, scenario_j: u8, servers: usize, capacity: u64) -> Box<dyn SlottedPolicy> {
        let partition = || Partition::new(self.j(scenario_j), capacity);
        match self.kind {
            PolicyKind::BfJ => Box::new(BfJ),
            PolicyKind::BfS => Box::new(BfS),
            PolicyKind::BfJs => Box::new(BfJs),
            PolicyKind::Vqs => Box::new(Vqs::new(partition(), servers, self.vq)),
            PolicyKind::VqsBf => Box::new(VqsBf::new(partition(), servers, self.vq)),
            PolicyKind::FifoFf => Box::new(FifoFf { blocking: true }),
            PolicyKind::FifoFfSkip => Box::new(FifoFf { blocking: false }),
            // Every entry point checks the policy against the scenario's model first
            // (`Scenario::check_policy`), so a PG-RR engine never receives one of these.
            other => unreachable!("{} is not a PG-RR policy", other.name()),
        }
    }
}

impl PolicySpec {
    /// Builds a multiserver-job policy for `cores` cores and `classes`, checking the
    /// parameters whose range depends on them.
    pub fn build_msj(
        &self,
        cores: u32,
        classes: &JobClasses,
        arrival_rate: f64,
    ) -> Result<Box<dyn MsjPolicy>, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, format!("{}: {m}", self.kind.name()));
        let one_or_all = classes.is_one_or_all(cores);
        let needs: Vec<u32> = classes.as_slice().iter().map(|c| c.need).collect();
        let o = self.msj;
        Ok(match self.kind {
            PolicyKind::Fcfs => Box::new(Fcfs),
            PolicyKind::FirstFit => Box::new(FirstFit),
            PolicyKind::Msf => Box::new(Msf::new(one_or_all && cores > 1)),
            PolicyKind::Msfq => {
                if !one_or_all || cores < 2 {
                    return Err(err(format!(
                        "MSFQ is defined for the one-or-all case only (needs 1 and k = {cores}, k >= 2; classes are \
                         {classes}); use static-qs or adaptive-qs for general classes"
                    )));
                }
                let l = o.l.unwrap_or(cores - 1);
                if l >= cores {
                    return Err(err(format!("l must be an integer in 0..={} (k - 1) (got {l})", cores - 1)));
                }
                Box::new(Msfq::new(l, o.open_phase4))
            }
            PolicyKind::StaticQs => {
                let l = o.l.unwrap_or(cores);
                if !(1..=cores).contains(&l) {
                    return Err(err(format!("l must be an integer in 1..={cores} (k) (got {l})")));
                }
                let mut cycle: Vec<usize> = (0..needs.len()).collect();
                if o.order == CycleOrder::Descending {
                    cycle.reverse();
                }
                Box::new(StaticQs::new(cycle, l, needs))
            }
            PolicyKind::AdaptiveQs => Box::new(AdaptiveQs::new(o.frozen, needs)),
            PolicyKind::Nmsr => Box::new(Nmsr::new(cores, classes, arrival_rate, o.tau.map(f64::from))?),
            other => return Err(err(format!("{} is a {} policy", other.name(), other.model().label()))),
        })
    }
}

impl PolicySpec {
    /// Builds a VM-scheduling policy for servers of the given capacities and VM types of the
    /// given demands.
    pub fn build_vm(&self, demands: &[Resources], capacities: &[Resources]) -> Result<Box<dyn VmPolicy>, ConfigError> {
        let weight = self.vm.weight.unwrap_or_default();
        let maxweight = |refresh| {
            MaxWeight::new(refresh, demands, capacities).map_err(|e| {
                ConfigError::new(
                    Self::KEY,
                    format!(
                        "{}: a server has more than {} feasible configurations to choose from; use fewer, larger VM \
                         types or smaller servers",
                        self.kind.name(),
                        e.limit
                    ),
                )
            })
        };
        Ok(match self.kind {
            PolicyKind::Alg1 => Box::new(Alg1::new(weight)),
            PolicyKind::Alg2Jsq => Box::new(Alg2::new(weight, Routing::Jsq)),
            PolicyKind::Alg2Po2 => Box::new(Alg2::new(weight, Routing::PowerOfTwo)),
            PolicyKind::MwGlobal => Box::new(maxweight(Refresh::Global)?),
            PolicyKind::MwLocal => Box::new(maxweight(Refresh::Local)?),
            other => {
                return Err(ConfigError::new(
                    Self::KEY,
                    format!("{} is a {} policy", other.name(), other.model().label()),
                ));
            }
        })
    }
}

impl PolicySpec {
    /// Builds a PG-AS policy for the model `config`. DRA+Preemption needs types with priorities
    /// (a trace's); the error names the key `policy`.
    pub fn build_pgas(&self, config: &ReservationConfig) -> Result<Box<dyn ReservationPolicy>, ConfigError> {
        let g = || self.pgas.g.unwrap_or_default().at(config.servers);
        let packing = config.packing.clone();
        Ok(match self.kind {
            PolicyKind::Dra => Box::new(Dra::new(packing, config.servers, g())),
            PolicyKind::DraPreempt => {
                let Some(priorities) = config.priorities.clone() else {
                    return Err(ConfigError::new(Self::KEY, Self::PREEMPT_NEEDS_PRIORITIES));
                };
                let sizes = config.demands.iter().map(Resources::primary).collect();
                Box::new(Dra::with_preemption(packing, config.servers, g(), priorities, sizes))
            }
            PolicyKind::PowerOfD => Box::new(PowerOfD::new(self.pgas.d.unwrap_or(super::pgas::DEFAULT_D))),
            PolicyKind::UpperBound => {
                Box::new(UpperBound::new(&config.packing, config.servers, config.sample_every / 10.0))
            }
            other => {
                return Err(ConfigError::new(
                    Self::KEY,
                    format!("{} is a {} policy", other.name(), other.model().label()),
                ));
            }
        })
    }

    pub const PREEMPT_NEEDS_PRIORITIES: &'static str = "dra-preempt preempts priority-0 jobs for priority-1 and -2 \
                                                         arrivals (RES-31); only trace types have priorities: use \
                                                         types=trace (pgas-c5)";
}

fn pick<T: Copy, const N: usize>(value: &str, options: [(&str, T); N]) -> Option<T> {
    options.iter().find(|(name, _)| *name == value).map(|(_, v)| *v)
}

impl std::fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.kind.name())?;
        if self.kind.uses_virtual_queues() {
            let o = &self.vq;
            if let Some(j) = o.j {
                write!(f, ":j={j}")?;
            }
            if o.ties == Ties::Random {
                write!(f, ":ties=random")?;
            }
            if o.weights == Weights::Snapshot {
                write!(f, ":weights=snapshot")?;
            }
            if o.small == SmallJobs::Real {
                write!(f, ":small=real")?;
            }
            if o.fill == Fill::Strict {
                write!(f, ":fill=strict")?;
            }
        }
        let o = &self.msj;
        if let Some(l) = o.l {
            write!(f, ":l={l}")?;
        }
        if o.open_phase4 {
            write!(f, ":phase4=open")?;
        }
        if o.order == CycleOrder::Ascending {
            write!(f, ":order=asc")?;
        }
        if o.frozen {
            write!(f, ":target=frozen")?;
        }
        if let Some(tau) = o.tau {
            write!(f, ":tau={tau}")?;
        }
        if let Some(weight) = self.vm.weight {
            write!(f, ":f={}", weight.name())?;
        }
        if let Some(g) = self.pgas.g {
            write!(f, ":g={}", g.name())?;
        }
        if let Some(d) = self.pgas.d {
            write!(f, ":d={d}")?;
        }
        Ok(())
    }
}

impl TryFrom<String> for PolicySpec {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<PolicySpec> for String {
    fn from(p: PolicySpec) -> Self {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in PolicyKind::ALL {
            let spec = PolicySpec::new(kind);
            assert_eq!(PolicySpec::parse(&spec.to_string()).unwrap(), spec);
        }
        for text in ["msfq:l=31:phase4=open", "static-qs:l=15:order=asc", "adaptive-qs:target=frozen", "alg1:f=log"] {
            assert_eq!(PolicySpec::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(PolicySpec::parse("msfq:l=31").unwrap().label(2), "MSFQ (ℓ=31)");
        let spec = PolicySpec::parse("vqs:j=7:ties=random:weights=snapshot:small=real:fill=strict").unwrap();
        assert_eq!(spec.to_string(), "vqs:j=7:ties=random:weights=snapshot:small=real:fill=strict");
        assert_eq!(spec.label(2), "VQS (J=7)");
    }

    #[test]
    fn bad_names_and_parameters_are_named() {
        for (text, needle) in [
            ("lifo", "unknown policy 'lifo'"),
            ("vqs:j=1", "j must be"),
            ("vqs:j=x", "j must be"),
            ("vqs:k=3", "no parameter 'k'"),
            ("bf-js:j=3", "takes no parameters"),
            ("vqs-bf:fill=strict", "no parameter 'fill'"),
            ("vqs:j", "not KEY=VALUE"),
            ("msfq:l=-1", "l must be"),
            ("msf:l=3", "takes no parameters"),
            ("static-qs:order=up", "order must be"),
            ("alg2-jsq:f=cube", "f must be log, log10 or loglog"),
            ("mw-local:f=log", "takes no parameters"),
        ] {
            let e = PolicySpec::parse(text).unwrap_err();
            assert_eq!(e.key, "policy");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }
}
