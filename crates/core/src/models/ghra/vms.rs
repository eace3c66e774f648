//! The VM types and server fleets of the GH-RA model (SPEC 3.1, 3.5), as scenario values.
//!
//! Amounts are integers (RES-3). The EC2 instances of the paper's simulations are given in
//! 0.1 GB of memory, 0.5 EC2 CPU units and 1 GB of storage, so their fits are exact:
//!
//! | VM type        | memory | CPU | storage |
//! |----------------|--------|-----|---------|
//! | Standard XL    | 150    | 16  | 1690    |
//! | High-Memory XL | 171    | 13  | 420     |
//! | High-CPU XL    | 70     | 40  | 1690    |
//! | small server   | 300    | 60  | 4000    |
//! | large server   | 900    | 180 | 5000    |
//!
//! Written forms: `types=ec2` or demand vectors `types=2,3` (one resource) /
//! `types=150/16/1690,171/13/420`; `servers=5xsmall,5xlarge` or capacities `servers=1x10`,
//! `servers=2x300/60/4000`.

use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::resources::{MAX_RESOURCES, Resources};

/// Most servers a fleet may have.
pub const MAX_SERVERS: u32 = 1000;
/// Most VM types.
pub const MAX_TYPES: usize = 8;

/// The names of the EC2 resources, in vector order.
pub const EC2_RESOURCES: [&str; 3] = ["memory", "CPU", "storage"];

/// The VM types of a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum VmCatalog {
    /// The three EC2 instances of SPEC 3.5.
    Ec2,
    /// Demand vectors in integer units, one per type.
    Custom(Vec<Resources>),
}

impl VmCatalog {
    pub const KEY: &'static str = "types";
    pub const RANGE: &'static str = "ec2, or demand vectors of 1 to 4 integers a/b/c separated by commas (at most 8)";

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("ec2") {
            return Ok(Self::Ec2);
        }
        let err = |m: String| ConfigError::new(Self::KEY, m);
        let demands = t
            .split(',')
            .enumerate()
            .map(|(i, part)| {
                parse_vector(part).map_err(|m| err(format!("type {}: {m}; expected {}", i + 1, Self::RANGE)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if demands.len() > MAX_TYPES {
            return Err(err(format!("{} types; at most {MAX_TYPES}", demands.len())));
        }
        if demands.iter().any(|d| d.dims() != demands[0].dims()) {
            return Err(err("every type needs the same number of resources".to_string()));
        }
        if let Some(i) = demands.iter().position(|d| d.as_slice().iter().all(|&a| a == 0)) {
            return Err(err(format!("type {} demands nothing; every type needs some resource", i + 1)));
        }
        Ok(Self::Custom(demands))
    }

    pub fn demands(&self) -> Vec<Resources> {
        match self {
            Self::Ec2 => [[150, 16, 1690], [171, 13, 420], [70, 40, 1690]]
                .iter()
                .map(|v| Resources::from_slice(v).expect("three resources"))
                .collect(),
            Self::Custom(d) => d.clone(),
        }
    }

    /// Short names of the types, for bins and tables.
    pub fn names(&self) -> Vec<String> {
        match self {
            Self::Ec2 => ["Standard XL", "High-Memory XL", "High-CPU XL"].map(String::from).to_vec(),
            // One resource: the size says it all; several: the number and the demand vector.
            Self::Custom(d) if d[0].dims() == 1 => d.iter().map(|r| format!("size {}", r.primary())).collect(),
            Self::Custom(d) => d.iter().enumerate().map(|(i, r)| format!("type {} ({})", i + 1, vector(r))).collect(),
        }
    }

    /// Names of the resource dimensions (none for one-resource types).
    pub fn resources(&self) -> Vec<&'static str> {
        const GENERIC: [&str; MAX_RESOURCES] = ["resource 1", "resource 2", "resource 3", "resource 4"];
        match self {
            Self::Ec2 => EC2_RESOURCES.to_vec(),
            Self::Custom(d) if d[0].dims() == 1 => Vec::new(),
            Self::Custom(d) => GENERIC[..d[0].dims()].to_vec(),
        }
    }
}

impl std::fmt::Display for VmCatalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Ec2 => write!(f, "ec2"),
            Self::Custom(d) => write!(f, "{}", d.iter().map(vector).collect::<Vec<_>>().join(",")),
        }
    }
}

impl TryFrom<String> for VmCatalog {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, ConfigError> {
        Self::parse(&s)
    }
}

impl From<VmCatalog> for String {
    fn from(c: VmCatalog) -> String {
        c.to_string()
    }
}

/// A kind of server in a fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerKind {
    /// SPEC 3.5's small EC2 host: 30 GB, 30 CPU units, 4000 GB.
    Small,
    /// SPEC 3.5's large EC2 host: 90 GB, 90 CPU units, 5000 GB.
    Large,
    Custom(Resources),
}

impl ServerKind {
    pub fn capacity(self) -> Resources {
        match self {
            Self::Small => Resources::from_slice(&[300, 60, 4000]).expect("three resources"),
            Self::Large => Resources::from_slice(&[900, 180, 5000]).expect("three resources"),
            Self::Custom(c) => c,
        }
    }

    /// For people: "small", "large", "capacity 30/30/4000".
    pub fn describe(self) -> String {
        match self {
            Self::Custom(c) => format!("capacity {}", vector(&c)),
            named => named.name(),
        }
    }

    /// The written form (`small`, `large`, `30/30/4000`).
    pub fn name(self) -> String {
        match self {
            Self::Small => "small".to_string(),
            Self::Large => "large".to_string(),
            Self::Custom(c) => vector(&c),
        }
    }
}

/// Servers as groups of identical ones, in server order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Fleet {
    groups: Vec<(u32, ServerKind)>,
}

impl Fleet {
    pub const KEY: &'static str = "servers";
    pub const RANGE: &'static str = "groups COUNTxKIND separated by commas, KIND = small, large or a capacity a/b/c (e.g. 5xsmall,5xlarge); 1..=1000 servers";

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new(Self::KEY, format!("{m}; expected {}", Self::RANGE));
        let mut groups = Vec::new();
        for part in text.trim().split(',') {
            let part = part.trim();
            let (count, kind) =
                part.split_once(['x', 'X']).ok_or_else(|| err(format!("'{part}' is not COUNTxKIND")))?;
            let count: u32 = count.trim().parse().map_err(|_| err(format!("count '{count}' is not a whole number")))?;
            if count == 0 {
                return Err(err(format!("'{part}' has no servers")));
            }
            let kind = match kind.trim().to_ascii_lowercase().as_str() {
                "small" => ServerKind::Small,
                "large" => ServerKind::Large,
                other if other.starts_with(|c: char| c.is_ascii_digit()) => {
                    ServerKind::Custom(parse_vector(other).map_err(|m| err(format!("'{part}': {m}")))?)
                }
                other => {
                    return Err(err(format!("'{part}': the kind '{other}' is not small, large or a capacity a/b/c")));
                }
            };
            groups.push((count, kind));
        }
        let total: u64 = groups.iter().map(|&(n, _)| u64::from(n)).sum();
        if total > u64::from(MAX_SERVERS) {
            return Err(err(format!("{total} servers")));
        }
        let dims = groups[0].1.capacity().dims();
        if groups.iter().any(|(_, k)| k.capacity().dims() != dims) {
            return Err(err("every server needs the same number of resources".to_string()));
        }
        Ok(Self { groups })
    }

    /// Capacity vector of each server, in server order.
    pub fn capacities(&self) -> Vec<Resources> {
        self.groups.iter().flat_map(|&(n, kind)| std::iter::repeat_n(kind.capacity(), n as usize)).collect()
    }

    /// What each server is, for people ("small", "capacity 10"), in server order.
    pub fn names(&self) -> Vec<String> {
        self.groups.iter().flat_map(|&(n, kind)| std::iter::repeat_n(kind.describe(), n as usize)).collect()
    }

    pub fn len(&self) -> usize {
        self.groups.iter().map(|&(n, _)| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of resources of its servers.
    pub fn dims(&self) -> usize {
        self.groups[0].1.capacity().dims()
    }
}

impl std::fmt::Display for Fleet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.groups.iter().map(|&(n, kind)| format!("{n}x{}", kind.name())).collect();
        write!(f, "{}", parts.join(","))
    }
}

impl TryFrom<String> for Fleet {
    type Error = ConfigError;
    fn try_from(s: String) -> Result<Self, ConfigError> {
        Self::parse(&s)
    }
}

impl From<Fleet> for String {
    fn from(f: Fleet) -> String {
        f.to_string()
    }
}

/// `a/b/c` → a vector of 1 to 4 integer amounts.
fn parse_vector(text: &str) -> Result<Resources, String> {
    let amounts = text
        .trim()
        .split('/')
        .map(|a| a.trim().parse::<u64>().map_err(|_| format!("'{}' is not a whole number", a.trim())))
        .collect::<Result<Vec<u64>, _>>()?;
    if amounts.iter().any(|&a| a > 1_000_000_000) {
        return Err("amounts must be at most 1000000000".to_string());
    }
    Resources::from_slice(&amounts).ok_or_else(|| format!("{} amounts; 1 to {MAX_RESOURCES} per vector", amounts.len()))
}

fn vector(r: &Resources) -> String {
    r.as_slice().iter().map(u64::to_string).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleets_and_catalogs_round_trip() {
        for text in ["5xsmall,5xlarge", "100xsmall", "1x10", "2x300/60/4000,1xlarge"] {
            assert_eq!(Fleet::parse(text).unwrap().to_string(), text);
        }
        let f = Fleet::parse("5xsmall,5xlarge").unwrap();
        assert_eq!(f.len(), 10);
        assert_eq!(f.capacities()[5].as_slice(), [900, 180, 5000]);
        assert_eq!(f.names()[4], "small");
        assert_eq!(Fleet::parse("2x10").unwrap().names(), ["capacity 10", "capacity 10"]);
        assert_eq!(VmCatalog::parse("2,3").unwrap().names(), ["size 2", "size 3"]);
        assert_eq!(VmCatalog::parse("1/2,3/4").unwrap().names(), ["type 1 (1/2)", "type 2 (3/4)"]);
        for text in ["ec2", "2,3", "150/16/1690,70/40/1690"] {
            assert_eq!(VmCatalog::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(VmCatalog::Ec2.demands()[1].as_slice(), [171, 13, 420]);
        assert_eq!(VmCatalog::Ec2.resources(), ["memory", "CPU", "storage"]);
        assert!(VmCatalog::parse("2,3").unwrap().resources().is_empty());
    }

    #[test]
    fn bad_fleets_and_catalogs_are_named() {
        for (text, needle) in [
            ("5small", "COUNTxKIND"),
            ("0xsmall", "no servers"),
            ("1001xsmall", "1001 servers"),
            ("2xhuge", "the kind 'huge' is not small, large or a capacity"),
            ("2x10/big", "'big' is not a whole number"),
            ("1x10,1xsmall", "same number of resources"),
            ("1x1/2/3/4/5", "5 amounts"),
        ] {
            let e = Fleet::parse(text).unwrap_err();
            assert_eq!(e.key, "servers");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
        for (text, needle) in [("2,x", "type 2"), ("2,3/4", "same number"), ("0,3", "demands nothing"), ("", "type 1")]
        {
            let e = VmCatalog::parse(text).unwrap_err();
            assert_eq!(e.key, "types");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }
}
