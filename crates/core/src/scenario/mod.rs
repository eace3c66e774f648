//! Scenarios: the one type behind presets, CLI flags, form fields and URL links.
//!
//! Every scenario key has a row in its model's key table ([`crate::keys`]), the same for
//! `--set KEY=VALUE`, the URL query and the form; [`Scenario::set`] parses and range-checks
//! one key and names it in its error. Links encode and decode scenarios ([`link`]); presets
//! are the papers' figures ([`presets`](mod@presets)).

mod link;
mod presets;

pub use link::{Link, PAGE_KEYS, decode_link, encode_link, run_command, shell_quote};
pub use presets::{Figure, Plot, Preset, Setup, Sweep, preset, presets};

use crate::ConfigError;
use crate::keys::KeyInfo;
pub use crate::models::Scenario;
use crate::models::{JobTime, LoadMark, ModelInfo, TimeUnit};
use crate::policy::PolicySpec;

impl Scenario {
    /// The model this scenario belongs to.
    pub fn info(&self) -> &'static ModelInfo {
        self.any().info()
    }

    /// The keys this scenario accepts, in order.
    pub fn keys(&self) -> Vec<KeyInfo> {
        self.any().keys()
    }

    /// Current value of `key` in its text form.
    pub fn get(&self, key: &str) -> Option<String> {
        self.any().get(key)
    }

    /// Parses and sets one key. On error the scenario is unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        self.any_mut().set(key, value)
    }

    /// Checks the relations between keys (each key alone is checked by [`Scenario::set`]).
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.any().validate()
    }

    pub fn seed(&self) -> u64 {
        self.any().window().seed
    }

    pub fn horizon(&self) -> u64 {
        self.any().window().horizon
    }

    pub fn warmup(&self) -> u64 {
        self.any().window().warmup
    }

    /// The model's load knob (α for PG-RR, λ for MSFQ, ζ for GH-RA, the workload scale α for
    /// PG-AS).
    pub fn load(&self) -> f64 {
        self.any().load()
    }

    /// The offered work as a fraction of the capacity; a stable policy's occupancy tends to it.
    pub fn offered_utilization(&self) -> f64 {
        self.any().offered_utilization()
    }

    /// The theory's marks on the load knob.
    pub fn marks(&self) -> Vec<LoadMark> {
        self.any().marks()
    }

    /// The per-job time the model measures, if any.
    pub fn job_time(&self) -> Option<JobTime> {
        self.info().job_time
    }

    pub fn time_unit(&self) -> TimeUnit {
        self.info().time
    }

    /// The name papers and charts give `policy` in this scenario, e.g. "VQS (J=2)".
    pub fn policy_label(&self, policy: &PolicySpec) -> String {
        self.any().policy_label(policy)
    }

    /// The value `policy` uses for its parameter `key`: the given one, or what it takes in this
    /// scenario when not given (MSFQ's ℓ = k − 1).
    pub fn policy_param(&self, policy: &PolicySpec, key: &str) -> Option<String> {
        self.any().policy_param(policy, key)
    }

    /// Checks that `policy` belongs to this scenario's model and that its parameters fit the
    /// scenario (e.g. MSFQ's ℓ < k).
    pub fn check_policy(&self, policy: &PolicySpec) -> Result<(), ConfigError> {
        self.any().check_policy(policy)
    }

    /// Sets the horizon and scales the warm-up and the series grid by the same factor, so the
    /// discarded fraction and the number of series points stay as they were. This is what a
    /// user who only changes the run length expects (`--horizon`, the page's horizon field).
    pub fn set_horizon_scaled(&mut self, horizon: u64) -> Result<(), ConfigError> {
        let mut scaled = self.clone();
        scaled.set("horizon", &horizon.to_string())?;
        let rules = scaled.any().window_rules();
        let window = *self.any().window();
        *scaled.any_mut().window_mut() = window.scaled(horizon, rules);
        *self = scaled;
        Ok(())
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
            if !explicit.contains(&key)
                && let Some(value) = scaled.get(key)
            {
                self.set(key, &value)?;
                warmup |= key == "warmup";
            }
        }
        Ok(warmup)
    }

    /// The keys that give this scenario when set on `base`, with their values, in key order:
    /// those whose values differ, and with another horizon also the warm-up and the series
    /// grid, since setting the horizon alone rescales them ([`Scenario::follow_horizon`]).
    pub fn overrides_from(&self, base: &Scenario) -> Vec<(&'static str, String)> {
        let new_horizon = self.horizon() != base.horizon();
        self.keys()
            .iter()
            .filter_map(|k| {
                let mine = self.get(k.key)?;
                let differs = base.get(k.key).as_deref() != Some(mine.as_str());
                let follows_horizon = new_horizon && ["warmup", "sample_every"].contains(&k.key);
                (differs || follows_horizon).then_some((k.key, mine))
            })
            .collect()
    }
}
