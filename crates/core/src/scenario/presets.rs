//! The preset catalogue: every figure and instability example of the papers (SPEC 2.5, 7).
//! Each model declares its own presets (`models/*/presets.rs`); this is the type and the
//! lookup.

use super::Scenario;
use crate::ConfigError;
use crate::policy::PolicySpec;

/// A one-click scenario with the policies it compares.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Lower-case SPEC id, e.g. `pgrr-a1`.
    pub id: &'static str,
    pub title: &'static str,
    /// The paper figure or result it reproduces.
    pub figure: &'static str,
    /// One line on what it shows.
    pub summary: &'static str,
    /// A short paragraph for "What am I looking at?".
    pub explanation: &'static str,
    pub scenario: Scenario,
    pub policies: Vec<PolicySpec>,
    /// What `packlab sweep` draws for it: the paper's figure.
    pub sweep: Sweep,
}

/// A preset's sweep: the x axis with its grid, and what is plotted.
#[derive(Debug, Clone, PartialEq)]
pub enum Sweep {
    /// Replicated runs over a grid of loads.
    Load { grid: Vec<f64>, plot: Plot },
    /// Replicated runs over a grid of server counts L at the scenario's load: each policy's
    /// normalised reward, and its ratios to U^(g) and U* (PG-AS Figs. 3 and 5).
    Servers { grid: Vec<u32> },
    /// The theory's U^(g) and U* over a grid of loads, no simulation (PG-AS Fig. 2).
    Theory { grid: Vec<f64> },
    /// No sweep; the text says what to run instead.
    Unavailable(&'static str),
}

/// What a load sweep plots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plot {
    /// One curve per policy and figure against the load, on a y axis labelled `y_label`
    /// (several figures: one colour each, markers tell the policies apart, as MSFQ Fig. 3's
    /// phases).
    Curves { figures: &'static [Figure], y_label: &'static str },
    /// `figure` against the value of the policies' parameter `key`, one curve per load (MSFQ
    /// Fig. 4: E\[T\] against ℓ). Falls back to `figure` against the load when some policy has
    /// no such parameter.
    AgainstParameter { key: &'static str, axis: &'static str, figure: Figure },
}

/// A figure of a run's report, named by its JSON field (`run --json`), so a sweep reads any
/// model's figures without knowing the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure {
    /// The field: `mean_queue`, `mean_response`, `phase_means`.
    pub key: &'static str,
    /// The element of an array field (`phase_means[0]`).
    pub index: Option<usize>,
    /// The field of the run's own 95% interval, if it has one.
    pub ci: Option<&'static str>,
    /// The axis label: "mean waiting jobs".
    pub label: &'static str,
}

impl Figure {
    pub const MEAN_QUEUE: Figure =
        Figure { key: "mean_queue", index: None, ci: Some("mean_queue_ci95"), label: "mean waiting jobs" };
}

impl Plot {
    /// One curve per policy of `figure` against the load.
    pub const fn one(figure: &'static Figure) -> Self {
        Self::Curves { figures: std::slice::from_ref(figure), y_label: figure.label }
    }
}

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
