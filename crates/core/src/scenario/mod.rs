//! Scenarios: the one type behind presets, CLI flags, form fields and URL links.
//!
//! Every scenario key has a row in its model's key table ([`crate::keys`]), the same for
//! `--set KEY=VALUE`, the URL query and the form; [`Scenario::set`] parses and range-checks
//! one key and names it in its error. Links encode and decode scenarios ([`crate::link`]);
//! presets are the papers' figures ([`presets`](mod@presets)).

mod presets;
pub mod resolve;

pub use presets::{Figure, Plot, Preset, Reference, Setup, Sweep, preset, preset_for, presets};

use crate::ConfigError;
use crate::keys::{HORIZON, KeyInfo, LOAD, SAMPLE_EVERY, WARMUP};
use crate::model::LoadKnob;
use crate::model::policy::PolicySpec;
use crate::model::{JobTime, LoadMark, ModelInfo, TimeUnit};
pub use crate::models::Scenario;
use crate::trace::Shared;

/// The offered loads, as fractions of the capacity, of a replay's sweep without a grid
/// ([`Scenario::replay_grid`]): from well below the capacity to just past it (RES-92).
pub const REPLAY_SWEEP_LOADS: [f64; 9] = [0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05];

/// How a replay runs ([`Scenario::replay_status`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplayStatus {
    pub knob: &'static LoadKnob,
    pub scaling: f64,
    /// The file's work over its span at this scaling, as a fraction of the capacity.
    pub offered: f64,
    /// Whether the offered load passes the capacity: the queue grows while the file lasts.
    pub overloaded: bool,
}

impl ReplayStatus {
    /// "replays at 1/β = 1: offered load 0.84 of the capacity" (with a warning when overloaded).
    pub fn describe(&self) -> String {
        let scaling = crate::model::table::sig(self.scaling);
        let offered = format!("{:.2}", self.offered);
        if self.overloaded {
            format!(
                "replays at {} = {scaling}: offered load {offered} of the capacity, more than the machine can serve \
                 (the queue grows while the file lasts; lower {} to replay it at its recorded pace)",
                self.knob.symbol, self.knob.symbol
            )
        } else {
            format!("replays at {} = {scaling}: offered load {offered} of the capacity", self.knob.symbol)
        }
    }
}

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

    /// What the page's script editor offers for the model's `script` policy: what `ctx` holds
    /// and the starting points; `None` for a model without scripted policies.
    pub fn scripting(&self) -> Option<&'static crate::script::Scripting> {
        self.any().scripting()
    }

    /// The value `policy` uses for its parameter `key`: the given one, or what it takes in this
    /// scenario when not given (MSFQ's ℓ = k − 1).
    pub fn policy_param(&self, policy: &PolicySpec, key: &str) -> Option<String> {
        self.any().policy_param(policy, key)
    }

    /// The names tables and legends give `policies` ("VQS (J=7)"). Two specs can share a label
    /// (`vqs` and `vqs:ties=random`); those get their spec appended, so a legend never shows
    /// two equal names.
    pub fn policy_labels(&self, policies: &[PolicySpec]) -> Vec<String> {
        let plain: Vec<String> = policies.iter().map(|p| self.policy_label(p)).collect();
        plain
            .iter()
            .zip(policies)
            .map(|(label, spec)| {
                if plain.iter().filter(|l| *l == label).count() > 1 {
                    format!("{label} [{spec}]")
                } else {
                    label.clone()
                }
            })
            .collect()
    }

    /// Checks that `policy` belongs to this scenario's model and that its parameters fit the
    /// scenario (e.g. MSFQ's ℓ < k).
    pub fn check_policy(&self, policy: &PolicySpec) -> Result<(), ConfigError> {
        self.any().check_policy(policy)
    }

    /// Splits `policies` into those that can run this scenario and, for each one that cannot,
    /// why, in one sentence with the fix (MSFQ on a log of many needs). The page and the CLI
    /// race the first and say the second, so one policy that cannot replay a log stops only its
    /// own lane (RES-90).
    pub fn runnable(&self, policies: &[PolicySpec]) -> (Vec<PolicySpec>, Vec<ConfigError>) {
        let mut run = Vec::new();
        let mut refused = Vec::new();
        for policy in policies {
            match self.check_policy(policy) {
                Ok(()) => run.push(policy.clone()),
                Err(e) => refused.push(e),
            }
        }
        (run, refused)
    }

    /// Sets the horizon and scales the warm-up and the series grid by the same factor, so the
    /// discarded fraction and the number of series points stay as they were. This is what a
    /// user who only changes the run length expects (`--horizon`, the page's horizon field).
    pub fn set_horizon_scaled(&mut self, horizon: u64) -> Result<(), ConfigError> {
        let mut scaled = self.clone();
        scaled.set("horizon", &horizon.to_string())?;
        let rules = scaled.any().window_rules();
        let window = self.any().window().clone();
        *scaled.any_mut().window_mut() = window.scaled(horizon, rules);
        *self = scaled;
        Ok(())
    }

    /// After keys were set on `before` (those in `explicit` by the user), keeps what follows
    /// them, the same in the CLI, links, the page and every point of a sweep:
    ///
    /// 1. **A replay's horizon follows its scaling.** If the horizon covered the replayed
    ///    file's arrivals before (it was [`AnyScenario::trace_horizon`]), it covers them now: a
    ///    new traffic scaling moves the last arrival.
    /// 2. **The warm-up and the series grid keep their fraction.** If the horizon changed, each
    ///    of them that was at the preset's fraction of the old horizon is put at that fraction
    ///    of the new one ([`crate::window::RunWindow::scaled`] of `preset`'s window); one that
    ///    was set to another value stays.
    ///
    /// Keys in `explicit` stay as they are. Returns whether the warm-up moved.
    ///
    /// [`AnyScenario::trace_horizon`]: crate::models::AnyScenario::trace_horizon
    pub fn follow(&mut self, before: &Scenario, preset: &Scenario, explicit: &[&str]) -> Result<bool, ConfigError> {
        let given = |key: &str| explicit.contains(&key);
        if !given(HORIZON)
            && before.any().trace_horizon() == Some(before.horizon())
            && let Some(covering) = self.any().trace_horizon()
            && covering != self.horizon()
        {
            self.set(HORIZON, &covering.to_string())?;
        }
        if self.horizon() == before.horizon() {
            return Ok(false);
        }
        let rules = preset.any().window_rules();
        let fraction = |horizon: u64| {
            let mut at = preset.clone();
            *at.any_mut().window_mut() = preset.any().window().scaled(horizon, rules);
            at
        };
        let (was, now) = (fraction(before.horizon()), fraction(self.horizon()));
        let mut warmup = false;
        for key in [WARMUP, SAMPLE_EVERY] {
            if !given(key)
                && before.get(key) == was.get(key)
                && let Some(value) = now.get(key)
                && self.get(key).as_ref() != Some(&value)
            {
                self.set(key, &value)?;
                warmup |= key == WARMUP;
            }
        }
        Ok(warmup)
    }

    /// Replays the loaded trace file `trace`: the model attaches it (with what the file fixes,
    /// such as an SWF log's machine); the traffic scaling is 1 (the file at its recorded pace)
    /// unless `keep` holds the load or the load already was a traffic scaling (a trace
    /// replayed: a link's or a preset's scaling stays); the horizon covers its arrivals unless
    /// `keep` holds it; the warm-up and the series grid then follow ([`Scenario::follow`]).
    /// Keys in `keep` (the user's) stay.
    /// Returns the model's notes. A file the model does not replay is refused, naming the
    /// models that do.
    pub fn replay(&mut self, trace: &Shared, keep: &[&str], preset: &Scenario) -> Result<Vec<String>, ConfigError> {
        let format = trace.0.format();
        let info = self.info();
        if !info.replay.as_ref().is_some_and(|r| r.formats.contains(&format)) {
            let takers: Vec<String> = crate::models::all()
                .into_iter()
                .filter(|m| m.replay.as_ref().is_some_and(|r| r.formats.contains(&format)))
                .map(|m| m.name.to_string())
                .collect();
            let what = match info.replay.as_ref() {
                Some(r) => format!("{} replays {}", info.name, r.files),
                None => format!("{} replays no trace files", info.name),
            };
            return Err(ConfigError::new(
                crate::trace::KEY,
                format!("this is a {} file; {what} (it replays in {})", format.name(), takers.join(" and ")),
            ));
        }
        let before = self.clone();
        let mut next = self.clone();
        let notes = next.any_mut().replay(trace, keep)?;
        // A load that was the model's own (MSFQ's λ, PG-RR's α) means nothing to a file.
        if !keep.contains(&LOAD) && !before.any().traffic_scaled() {
            next.set(LOAD, "1")?;
        }
        if !keep.contains(&HORIZON)
            && let Some(covering) = next.any().trace_horizon()
        {
            next.set(HORIZON, &covering.to_string()).map_err(|e| {
                ConfigError::new(
                    crate::trace::KEY,
                    format!("its arrivals at this scaling need a horizon of {covering}; {}: {}", e.key, e.message),
                )
            })?;
        }
        let mut explicit: Vec<&str> = keep.to_vec();
        explicit.push(HORIZON);
        next.follow(&before, preset, &explicit)?;
        *self = next;
        Ok(notes)
    }

    /// Stops replaying a trace file: the keys the file set when it started replaying (its
    /// machine, the scaling, the horizon: what [`Scenario::link_overrides`] carries) go back to
    /// the preset's, and what follows them follows (the warm-up, the grid). Leaving the file's
    /// machine would leave a scenario the preset's classes or fleet may not fit (a log on 8
    /// processors, a preset whose classes need 32). A scenario that replays nothing stays.
    pub fn stop_replay(&mut self, preset: &Scenario) -> Result<(), ConfigError> {
        let Some(replay) = self.info().replay.as_ref().filter(|_| self.any().replaying()) else { return Ok(()) };
        let carried: Vec<&str> = [LOAD, HORIZON].into_iter().chain(replay.machine.iter().copied()).collect();
        let before = self.clone();
        let mut next = self.clone();
        next.set(crate::trace::KEY, "none")?;
        for key in &carried {
            if let Some(value) = preset.get(key) {
                next.set(key, &value)?;
            }
        }
        next.follow(&before, preset, &carried)?;
        *self = next;
        Ok(())
    }

    /// The loaded file that `name` (the trace key's value: a fingerprint, or an older name
    /// the model still reads) stands for, to replay with [`Scenario::replay`] as a dropped file
    /// (RES-91); `None` for "none". An error when the model refuses the name.
    pub fn named_trace(&self, name: &str) -> Result<Option<Shared>, ConfigError> {
        let mut named = self.clone();
        named.set(crate::trace::KEY, name)?;
        match named.get(crate::trace::KEY).filter(|n| n != "none") {
            Some(file) => crate::trace::find(&file).map(Some),
            None => Ok(None),
        }
    }

    /// How a replay runs, when a trace file replays: the scaling, the offered load it makes
    /// (the file's work over its span at that scaling, as a fraction of the capacity) and
    /// whether that is more than the machine can serve.
    pub fn replay_status(&self) -> Option<ReplayStatus> {
        if !self.any().replaying() {
            return None;
        }
        let offered = self.offered_utilization();
        Some(ReplayStatus { knob: self.any().load_knob(), scaling: self.load(), offered, overloaded: offered > 1.0 })
    }

    /// [`Scenario::overrides_from`] for a link or a command line: a replay's also carries the
    /// keys the file sets when it starts replaying (its machine, the scaling, the horizon),
    /// equal to the preset's or not, since opening it replays the file again and would
    /// otherwise put the file's own values there (RES-91).
    pub fn link_overrides(&self, base: &Scenario) -> Vec<(&'static str, String)> {
        let mut pairs = self.overrides_from(base);
        let Some(replay) = self.info().replay.as_ref().filter(|_| self.any().replaying()) else { return pairs };
        let carried: Vec<&str> = [LOAD, HORIZON].into_iter().chain(replay.machine.iter().copied()).collect();
        for key in self.keys().iter().map(|k| k.key).filter(|k| carried.contains(k)) {
            if !pairs.iter().any(|(k, _)| *k == key)
                && let Some(value) = self.get(key)
            {
                pairs.push((key, value));
            }
        }
        let order: Vec<&str> = self.keys().iter().map(|k| k.key).collect();
        pairs.sort_by_key(|(k, _)| order.iter().position(|o| o == k));
        pairs
    }

    /// A replay's sweep when no grid is given: the traffic scalings 1/β that put the file's
    /// offered load at [`REPLAY_SWEEP_LOADS`] of the capacity, to three significant digits
    /// (RES-92). `None` when no file replays or it offers no work.
    pub fn replay_grid(&self) -> Option<Vec<f64>> {
        let per_scaling = self.replay_capacity_scaling()?;
        let mut grid: Vec<f64> = REPLAY_SWEEP_LOADS
            .iter()
            .filter_map(|u| format!("{:.2e}", u * per_scaling).parse::<f64>().ok())
            .filter(|v| self.clone().set(LOAD, &v.to_string()).is_ok())
            .collect();
        grid.dedup();
        (!grid.is_empty()).then_some(grid)
    }

    /// The traffic scaling at which the replayed file offers exactly the capacity (its work
    /// over its span grows with the scaling, in proportion); `None` when no file replays.
    pub fn replay_capacity_scaling(&self) -> Option<f64> {
        let status = self.replay_status()?;
        let at = status.scaling / status.offered;
        (at.is_finite() && at > 0.0).then_some(at)
    }

    /// What a replay's sweep says of its grid: "1/β from 0.34 to 1.2: offered load 0.3 to 1.05
    /// of the capacity (the file's own pace, 1/β = 1, offers 0.90)".
    pub fn replay_grid_note(&self, grid: &[f64]) -> Option<String> {
        let status = self.replay_status()?;
        let per = status.offered / status.scaling;
        let sig = crate::model::table::sig;
        let (first, last) = (grid.first()?, grid.last()?);
        Some(format!(
            "the trace's sweep: {} from {} to {} ({} points), offered load {:.2} to {:.2} of the capacity, from well \
             below to just past it (the file at its own pace, {} = 1, offers {:.2}); --load A,B,... gives another grid",
            status.knob.symbol,
            sig(*first),
            sig(*last),
            grid.len(),
            first * per,
            last * per,
            status.knob.symbol,
            per
        ))
    }

    /// The keys that give this scenario when set on `base`, with their values, in key order:
    /// those whose values differ, and with another horizon also the warm-up and the series
    /// grid, since setting the horizon alone rescales them ([`Scenario::follow`]).
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
