//! The job types of a PG-AS scenario and their workload ρ, as keys write them.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::theory::MAX_TYPES;
use super::theory::instances::{MemoryDraw, VM_SERVER, Vm};
use super::theory::rational::{self, Rational};
use crate::ConfigError;

/// Largest per-type workload ρ_j.
pub const MAX_RHO: f64 = 1000.0;
/// Most random collections of PGAS-C1.
pub const MAX_COLLECTIONS: u32 = 10_000;

/// The job types of a PG-AS scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// A workload vector ρ, one exact fraction per type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rho(pub Vec<Rational>);

impl Rho {
    pub const KEY: &'static str = "rho";
    pub const RANGE: &'static str = "default, or one workload per type: decimals or fractions a/b in [0, 1000], \
                                     0 or at least 1e-6, separated by commas";

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
                let bad =
                    || err(format!("entry {} '{part}' is not a number in [0, {MAX_RHO}], 0 or at least 1e-6", i + 1));
                let q = match part.split_once('/') {
                    // Big integers, so every fraction this prints reads back.
                    Some((a, b)) => {
                        let (a, b): (BigInt, BigInt) =
                            (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
                        if b.is_zero() {
                            return Err(bad());
                        }
                        Rational::new(a, b)
                    }
                    None => {
                        let v: f64 = part.parse().map_err(|_| bad())?;
                        if !v.is_finite() {
                            return Err(bad());
                        }
                        rational::from_f64(v).ok_or_else(bad)?
                    }
                };
                // Nonzero workloads below 1e-6 are refused: they bring no job in any run and
                // would be printed as fractions of hundreds of digits.
                if q.is_negative()
                    || q > rational::int(MAX_RHO as i64)
                    || (!q.is_zero() && q < rational::ratio(1, 1_000_000))
                {
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
