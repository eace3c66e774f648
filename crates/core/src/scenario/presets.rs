//! The preset catalogue: every figure and instability example of the papers (SPEC 2.5, 7).
//! Each model declares its own presets (`models/*/presets.rs`, [`crate::model::Preset`]);
//! this is the catalogue of all of them and the lookup.

use super::Scenario;
use crate::ConfigError;
use crate::model::BenchCase;
use crate::model::policy::PolicySpec;

pub use crate::model::{Figure, Plot, Reference, Sweep};

/// A one-click scenario of any model with the policies it compares.
pub type Preset = crate::model::Preset<Scenario>;

/// The preset with this id (case-insensitive).
pub fn preset(id: &str) -> Result<Preset, ConfigError> {
    let id = id.trim().to_ascii_lowercase();
    crate::models::find_preset(&id).ok_or_else(|| {
        let ids: Vec<_> = presets().iter().map(|p| p.id).collect();
        ConfigError::new("preset", format!("unknown preset '{id}'; known: {}", ids.join(", ")))
    })
}

/// All presets, model by model, in catalogue order.
pub fn presets() -> Vec<Preset> {
    crate::models::all_presets()
}

/// The first preset, in catalogue order, that `policy` runs on: one of its model whose
/// scenario it fits and that simulates (not a preset of the theory alone, as PG-AS's random
/// collections). Tests that cover every policy take their scenario from here, so a policy that
/// does not fit its model's first preset (DRA+Preemption needs priorities) is still covered.
/// `None` when no preset fits it.
pub fn preset_for(policy: &PolicySpec) -> Option<Preset> {
    presets().into_iter().find(|p| !p.scenario.any().theory_only() && p.scenario.check_policy(policy).is_ok())
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

    /// A model's benchmark case ([`BenchCase`]) as a setup: its preset with the case's keys
    /// set, racing the case's policies, or the preset's own when the case names none.
    pub fn of_bench_case(case: &BenchCase) -> Result<Self, ConfigError> {
        let mut setup = Self::from_preset(case.preset)?;
        for (key, value) in case.sets {
            setup.scenario.set(key, value)?;
        }
        setup.scenario.validate()?;
        if !case.policies.is_empty() {
            setup.policies = case.policies.iter().map(|p| PolicySpec::parse(p)).collect::<Result<_, _>>()?;
        }
        Ok(setup)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_valid() {
        let all = presets();
        let ids: Vec<&str> = all.iter().map(|p| p.id).collect();
        // Every figure of the four papers, in this order (a model added later lists its own
        // presets after its place in the list of models).
        let papers = [
            "pgrr-a1", "pgrr-a2", "pgrr-a3", "pgrr-a4", "pgrr-a5", "pgrr-a6", "msfq-d1", "msfq-d2", "msfq-d3",
            "msfq-d4", "msfq-d5", "msfq-d6", "ghra-b0", "ghra-b1", "ghra-b2", "ghra-b3", "ghra-b4", "ghra-b5",
            "pgas-c1", "pgas-c2", "pgas-c3", "pgas-c4", "pgas-c5", "pgas-c6",
        ];
        let kept: Vec<&str> = ids.iter().copied().filter(|id| papers.contains(id)).collect();
        assert_eq!(kept, papers);
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "preset ids are unique: {ids:?}");
        for p in &all {
            p.scenario.validate().unwrap();
            assert!(!p.policies.is_empty());
            assert!(p.id.starts_with(p.scenario.info().id), "{}: a preset's id starts with its model's", p.id);
            for policy in &p.policies {
                p.scenario.check_policy(policy).unwrap();
            }
        }
        assert_eq!(preset("PGRR-A1").unwrap().id, "pgrr-a1");
        // Every policy runs on some preset of its model.
        for (model, meta) in crate::models::all_policies() {
            let spec = PolicySpec::parse(meta.name).unwrap();
            if meta.name == crate::script::NAME {
                // The scripted policy is every queueing model's: some preset of each runs it.
                let runs =
                    all.iter().any(|p| p.scenario.info().id == model.id && p.scenario.check_policy(&spec).is_ok());
                assert!(runs, "{} has no preset that runs a script", model.id);
                continue;
            }
            let found = preset_for(&spec);
            assert_eq!(found.map(|p| p.scenario.info().id), Some(model.id), "{}", meta.name);
        }
        assert_eq!(preset("pgrr-a9").unwrap_err().key, "preset");
    }
}
