//! The lab's state: which scenario runs, with which policies, at what speed (everything a
//! link holds), and the actions that change it. Plain data with no browser API, so the
//! reducer and the link codec are tested natively and in the browser alike.
//!
//! Bad input never throws anything away silently: a rejected value leaves the scenario as it
//! was and adds a notice that names the key and its allowed range, shown until it is fixed
//! or dismissed.

use std::fmt;
use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::models::pgas::Trace;
use packlab_core::policy::{self, PolicySpec};
use packlab_core::scenario::{Scenario, Setup, decode_link, encode_link};
use yew::Reducible;

/// Most policies that race side by side.
pub const MAX_POLICIES: usize = 4;
/// The page's own link key (the CLI accepts and ignores it).
pub const SPEED_KEY: &str = "speed";

/// How fast the simulation runs while playing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    /// Simulated slots per second of wall time.
    PerSecond(u64),
    /// As many slots as each frame's time budget allows.
    Max,
}

impl Speed {
    pub const DEFAULT: Speed = Speed::PerSecond(100_000);
    /// Fastest explicit rate; beyond it, `max` says what is meant.
    pub const TOP_RATE: u64 = 10_000_000;
    /// The choices the speed menu offers (a link may hold any rate in range).
    pub const CHOICES: [Speed; 8] = [
        Speed::PerSecond(10),
        Speed::PerSecond(100),
        Speed::PerSecond(1_000),
        Speed::PerSecond(10_000),
        Speed::PerSecond(100_000),
        Speed::PerSecond(1_000_000),
        Speed::PerSecond(10_000_000),
        Speed::Max,
    ];

    /// Parses `max` or a whole number of slots per second in 1..=10^7.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        match text.parse::<u64>() {
            Ok(rate) if (1..=Self::TOP_RATE).contains(&rate) => Ok(Speed::PerSecond(rate)),
            _ => Err(ConfigError::new(
                SPEED_KEY,
                format!("must be max or slots per second, an integer in 1..={} (got '{text}')", Self::TOP_RATE),
            )),
        }
    }

    /// For people: "100 000 slots/s", "as fast as possible"; `unit` names the time unit
    /// ("slots", "time units").
    pub fn label(self, unit: &str) -> String {
        match self {
            Speed::PerSecond(rate) => format!("{} {unit}/s", crate::stats::group_digits(rate)),
            Speed::Max => "as fast as possible".into(),
        }
    }
}

impl fmt::Display for Speed {
    /// The link form: `max` or the rate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::PerSecond(rate) => write!(f, "{rate}"),
            Speed::Max => f.write_str("max"),
        }
    }
}

/// What the page races when preset `id` is chosen: the preset as it comes, with its own
/// policies (four of them for msfq-d4's eight thresholds: [`raced_policies`]).
pub fn preset_setup(id: &str) -> Result<Setup, ConfigError> {
    let setup = Setup::from_preset(id)?;
    Ok(Setup { policies: raced_policies(&setup.policies), ..setup })
}

/// The policies of a preset that the page races: all of them, or for a preset that compares
/// more than [`MAX_POLICIES`] the first, the last and evenly spaced ones between.
fn raced_policies(all: &[PolicySpec]) -> Vec<PolicySpec> {
    if all.len() <= MAX_POLICIES {
        all.to_vec()
    } else {
        (0..MAX_POLICIES).map(|i| all[i * (all.len() - 1) / (MAX_POLICIES - 1)].clone()).collect()
    }
}

/// The whole state of the controls.
#[derive(Debug, Clone, PartialEq)]
pub struct Lab {
    pub setup: Rc<Setup>,
    pub speed: Speed,
    /// Rejected input, newest last, at most one per key.
    pub notices: Vec<ConfigError>,
}

/// What the controls can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Switch to a preset: its scenario and policies; the speed stays.
    ChoosePreset(String),
    /// Set one scenario key from its text form (the `--set` keys).
    Set {
        key: String,
        value: String,
    },
    /// Add or remove the policy of this name, without parameters (there is always at least
    /// one, at most [`MAX_POLICIES`]).
    TogglePolicy(&'static str),
    SetSpeed(String),
    /// Back to the preset's own values, keeping the policies and the seed.
    ResetScenario,
    /// Forget the notices.
    Dismiss,
    /// Input the page itself found bad before it became a key (an uploaded file).
    Reject(ConfigError),
    /// Replay an uploaded task trace (PG-AS): its types and arrivals replace the scenario's.
    /// A trace is not part of a link (a link without one replays the synthetic trace).
    AttachTrace(Rc<Trace>),
}

impl Lab {
    /// The state a link describes: a full URL or just its query. Every bad key becomes a
    /// notice and the rest loads.
    pub fn from_link(input: &str) -> Self {
        let (link, errors) = decode_link(input, &[SPEED_KEY]);
        // A link without policies races what choosing its preset races.
        let policies = if link.named_policies { link.policies } else { raced_policies(&link.policies) };
        let mut lab = Lab {
            setup: Rc::new(Setup { preset: link.preset, scenario: link.scenario, policies }),
            speed: Speed::DEFAULT,
            notices: Vec::new(),
        };
        for error in errors {
            lab.notice(error);
        }
        if lab.setup.policies.len() > MAX_POLICIES {
            lab.notice(too_many_policies());
            Rc::make_mut(&mut lab.setup).policies.truncate(MAX_POLICIES);
        }
        for (key, value) in &link.extras {
            match Speed::parse(value) {
                Ok(speed) if key == SPEED_KEY => lab.speed = speed,
                Ok(_) => {}
                Err(e) => lab.notice(e),
            }
        }
        lab
    }

    /// The link query (without `?`) that reproduces this state.
    pub fn query(&self) -> String {
        let s = &self.setup;
        let extras = if self.speed == Speed::DEFAULT { Vec::new() } else { vec![(SPEED_KEY, self.speed.to_string())] };
        encode_link(&s.preset, &s.policies, &s.scenario, &extras)
    }

    /// The notice about `key`, if its last input was rejected.
    pub fn notice_for(&self, key: &str) -> Option<&ConfigError> {
        self.notices.iter().find(|n| n.key == key)
    }

    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::ChoosePreset(id) => match preset_setup(&id) {
                Ok(setup) => {
                    self.setup = Rc::new(setup);
                    self.notices.clear();
                }
                Err(e) => self.notice(e),
            },
            Action::Set { key, value } => {
                let mut scenario = self.setup.scenario.clone();
                // A new horizon alone keeps the warm-up's and the grid's fractions (the
                // core's rule, as for `--horizon` and links); other keys leave it alone.
                let result = scenario
                    .set(&key, &value)
                    .and_then(|()| scenario.follow_horizon(&self.setup.scenario, &[key.as_str()]).map(|_| ()));
                let policies = &self.setup.policies;
                let result = result
                    .and_then(|()| scenario.validate())
                    .and_then(|()| policies.iter().try_for_each(|p| scenario.check_policy(p)));
                match result {
                    Ok(()) => {
                        self.clear(&key);
                        Rc::make_mut(&mut self.setup).scenario = scenario;
                    }
                    Err(mut e) => {
                        // Name the field the person edited, whichever relation failed; a
                        // running policy that cannot take the new value is said as such.
                        if e.key == policy::KEY && key != policy::KEY {
                            e.message =
                                format!("a running policy cannot take this value ({}); remove it first", e.message);
                            e.key = key;
                        } else if e.key != key {
                            e.message = format!("{}: {}", e.key, e.message);
                            e.key = key;
                        }
                        self.notice(e);
                    }
                }
            }
            Action::TogglePolicy(name) => {
                let policies = &self.setup.policies;
                if let Some(at) = policies.iter().position(|p| p.name() == name) {
                    if policies.len() == 1 {
                        self.notice(ConfigError::new("policy", "at least one policy must run"));
                    } else {
                        self.clear("policy");
                        Rc::make_mut(&mut self.setup).policies.remove(at);
                    }
                } else if policies.len() >= MAX_POLICIES {
                    self.notice(too_many_policies());
                } else {
                    match PolicySpec::parse(name).and_then(|p| self.setup.scenario.check_policy(&p).map(|()| p)) {
                        Ok(spec) => {
                            self.clear("policy");
                            Rc::make_mut(&mut self.setup).policies.push(spec);
                        }
                        Err(e) => self.notice(e),
                    }
                }
            }
            Action::SetSpeed(text) => match Speed::parse(&text) {
                Ok(speed) => {
                    self.clear(SPEED_KEY);
                    self.speed = speed;
                }
                Err(e) => self.notice(e),
            },
            Action::ResetScenario => {
                let setup = Rc::make_mut(&mut self.setup);
                let seed = setup.scenario.seed().to_string();
                setup.scenario = setup.preset.scenario.clone();
                // A seed that was valid stays valid.
                let _ = setup.scenario.set("seed", &seed);
                self.notices.retain(|n| n.key == "policy" || n.key == SPEED_KEY);
            }
            Action::Dismiss => self.notices.clear(),
            Action::Reject(error) => self.notice(error),
            Action::AttachTrace(trace) => {
                let mut scenario = self.setup.scenario.clone();
                let Scenario::Pgas(s) = &mut scenario else {
                    self.notice(ConfigError::new(Trace::KEY, "a task trace belongs to a PG-AS preset (pgas-c5)"));
                    return;
                };
                s.attach_trace((*trace).clone());
                let policies = &self.setup.policies;
                match scenario.validate().and_then(|()| policies.iter().try_for_each(|p| scenario.check_policy(p))) {
                    Ok(()) => {
                        self.clear(Trace::KEY);
                        Rc::make_mut(&mut self.setup).scenario = scenario;
                    }
                    Err(mut e) => {
                        e.message = format!("uploaded trace: {}: {}", e.key, e.message);
                        e.key = Trace::KEY.to_string();
                        self.notice(e);
                    }
                }
            }
        }
    }

    fn notice(&mut self, error: ConfigError) {
        self.clear(&error.key.clone());
        self.notices.push(error);
    }

    fn clear(&mut self, key: &str) {
        self.notices.retain(|n| n.key != key);
    }
}

fn too_many_policies() -> ConfigError {
    ConfigError::new("policy", format!("at most {MAX_POLICIES} policies run side by side"))
}

impl Reducible for Lab {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_parse_and_print() {
        assert_eq!(Speed::parse("max").unwrap(), Speed::Max);
        assert_eq!(Speed::parse("250").unwrap(), Speed::PerSecond(250));
        for bad in ["0", "-1", "fast", "10000001"] {
            let e = Speed::parse(bad).unwrap_err();
            assert_eq!(e.key, "speed");
            assert!(e.message.contains("1..=10000000"), "{e}");
        }
        for s in Speed::CHOICES {
            assert_eq!(Speed::parse(&s.to_string()).unwrap(), s);
        }
    }
}
