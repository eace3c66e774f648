//! The closed list of policies, their names and parameters (`vqs:j=7`), and how to build
//! them.

use serde::{Deserialize, Serialize};

use super::SlottedPolicy;
use super::pgrr::{BfJ, BfJs, BfS, FifoFf, Vqs, VqsBf};
use crate::ConfigError;
use crate::model::partition::{MAX_J, MIN_J, Partition};

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
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 7] =
        [Self::BfJ, Self::BfS, Self::BfJs, Self::Vqs, Self::VqsBf, Self::FifoFf, Self::FifoFfSkip];

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

/// A policy with its parameters, written `name[:key=value]...`, e.g. `vqs:j=7:ties=random`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PolicySpec {
    pub kind: PolicyKind,
    pub vq: VqOptions,
}

impl PolicySpec {
    pub const KEY: &'static str = "policy";

    pub fn new(kind: PolicyKind) -> Self {
        Self { kind, vq: VqOptions::default() }
    }

    pub fn with_j(kind: PolicyKind, j: u8) -> Self {
        Self { kind, vq: VqOptions { j: Some(j), ..VqOptions::default() } }
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
                _ => unreachable!("checked against the parameter list"),
            }
        }
        Ok(spec)
    }

    /// J used by this policy, given the scenario's default.
    pub fn j(&self, scenario_j: u8) -> u8 {
        self.vq.j.unwrap_or(scenario_j)
    }

    /// A chart label such as "VQS (J=7)".
    pub fn label(&self, scenario_j: u8) -> String {
        if self.kind.uses_virtual_queues() {
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
        }
    }
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
        ] {
            let e = PolicySpec::parse(text).unwrap_err();
            assert_eq!(e.key, "policy");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }
}
