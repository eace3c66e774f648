//! The preset catalogue: every figure and instability example of the papers (SPEC 2.5, 7).
//! Each model declares its own presets (`models/*/presets.rs`, [`crate::model::Preset`]);
//! this is the catalogue of all of them and the lookup.

use super::Scenario;
use crate::ConfigError;
use crate::model::policy::PolicySpec;

pub use crate::model::{Figure, Plot, Reference, Sweep};

/// A one-click scenario of any model with the policies it compares.
pub type Preset = crate::model::Preset<Scenario>;

/// The preset with this id (case-insensitive).
pub fn preset(id: &str) -> Result<Preset, ConfigError> {
    let id = id.trim().to_ascii_lowercase();
    presets().into_iter().find(|p| p.id == id).ok_or_else(|| {
        let ids: Vec<_> = presets().iter().map(|p| p.id).collect();
        ConfigError::new("preset", format!("unknown preset '{id}'; known: {}", ids.join(", ")))
    })
}

/// All presets, model by model, in catalogue order.
pub fn presets() -> Vec<Preset> {
    crate::models::all_presets()
}

/// What runs: a preset, its scenario with the user's changes, and the policies raced on it.
/// The page's state and the CLI's resolved flags both hold one.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    pub preset: Preset,
    pub scenario: Scenario,
    pub policies: Vec<PolicySpec>,
}

impl Setup {
    /// The preset `id` as it comes, with all its own policies.
    pub fn from_preset(id: &str) -> Result<Self, ConfigError> {
        let preset = preset(id)?;
        Ok(Self { scenario: preset.scenario.clone(), policies: preset.policies.clone(), preset })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_valid() {
        let all = presets();
        assert_eq!(
            all.iter().map(|p| p.id).collect::<Vec<_>>(),
            [
                "pgrr-a1", "pgrr-a2", "pgrr-a3", "pgrr-a4", "pgrr-a5", "pgrr-a6", "msfq-d1", "msfq-d2", "msfq-d3",
                "msfq-d4", "msfq-d5", "msfq-d6", "ghra-b0", "ghra-b1", "ghra-b2", "ghra-b3", "ghra-b4", "ghra-b5",
                "pgas-c1", "pgas-c2", "pgas-c3", "pgas-c4", "pgas-c5", "pgas-c6"
            ]
        );
        for p in &all {
            p.scenario.validate().unwrap();
            assert!(!p.policies.is_empty());
            assert!(p.id.starts_with(p.scenario.info().id), "{}: a preset's id starts with its model's", p.id);
            for policy in &p.policies {
                p.scenario.check_policy(policy).unwrap();
            }
        }
        assert_eq!(preset("PGRR-A1").unwrap().id, "pgrr-a1");
        assert_eq!(preset("pgrr-a9").unwrap_err().key, "preset");
    }
}
