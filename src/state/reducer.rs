//! The reducer: what each [`Action`] does to the [`Lab`]. A rejected value leaves the state as
//! it was and becomes a notice naming the key and its allowed range.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::models::pgas::Trace;
use packlab_core::policy::{self, PolicySpec};
use packlab_core::scenario::{PAGE_KEYS, Scenario, Setup, decode_link};
use packlab_core::tours;
use packlab_core::trace;
use yew::Reducible;

use crate::state::speed::{SPEED_KEY, Speed};
use crate::state::theme::{THEME_KEY, ThemeChoice};
use crate::state::tour::TourAt;
use crate::state::{Action, Lab, MAX_POLICIES, preset_setup, too_many_policies};

impl Lab {
    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::ChoosePreset(id) => match preset_setup(&id) {
                Ok(setup) => {
                    self.setup = Rc::new(setup);
                    self.notices.clear();
                    self.gallery = false;
                }
                Err(e) => self.notice(e),
            },
            Action::ShowGallery => self.gallery = true,
            Action::TourStep(k) => {
                if let Some(at) = self.tour
                    && k < at.tour.steps.len()
                {
                    self.go_to(TourAt { tour: at.tour, step: k });
                }
            }
            Action::LeaveTour => self.tour = None,
            Action::StartTour(id) => match tours::tour(id) {
                Ok(tour) => self.go_to(TourAt { tour, step: 0 }),
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
                if policies.iter().any(|p| p.name() == name) {
                    if policies.iter().all(|p| p.name() == name) {
                        self.notice(ConfigError::new("policy", "at least one policy must run"));
                    } else {
                        self.clear("policy");
                        Rc::make_mut(&mut self.setup).policies.retain(|p| p.name() != name);
                    }
                } else {
                    self.add_policy(name);
                }
            }
            Action::AddPolicy(name) => self.add_policy(name),
            Action::RemovePolicy(lane) => {
                if self.setup.policies.len() == 1 {
                    self.notice(ConfigError::new("policy", "at least one policy must run"));
                } else if lane < self.setup.policies.len() {
                    self.clear("policy");
                    Rc::make_mut(&mut self.setup).policies.remove(lane);
                }
            }
            Action::SetPolicyParam { lane, key, value } => {
                let Some(spec) = self.setup.policies.get(lane) else { return };
                let scenario = &self.setup.scenario;
                let label = scenario.policy_label(spec);
                let result = spec.with_param(&key, &value).and_then(|next| {
                    scenario.check_policy(&next)?;
                    self.refuse_twice(&next, Some(lane))?;
                    Ok(next)
                });
                match result {
                    Ok(next) => {
                        self.clear("policy");
                        Rc::make_mut(&mut self.setup).policies[lane] = next;
                    }
                    // Say which lane: two lanes of one policy share their parameter names.
                    Err(mut e) => {
                        e.message = format!("lane {} ({label}), {key}: {}", lane + 1, e.message);
                        self.notice(e);
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
            Action::SetTheme(text) => match ThemeChoice::parse(&text) {
                Ok(theme) => {
                    self.clear(THEME_KEY);
                    self.theme = theme;
                }
                Err(e) => self.notice(e),
            },
            Action::TogglePresent => self.present = !self.present,
            Action::Dismiss => self.notices.clear(),
            Action::Reject(error) => self.notice(error),
            Action::LoadTrace(shared) => self.load_trace(shared),
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

    fn load_trace(&mut self, shared: trace::Shared) {
        let for_pgas = if let Scenario::Pgas(_) = &self.setup.scenario { shared.0.for_pgas() } else { None };
        match (&self.setup.scenario, &*shared.0) {
            (Scenario::Pgas(s), _) if for_pgas.is_some() => {
                let trace = for_pgas.expect("checked");
                let horizon = (trace.span() / s.load).ceil().max(1.0);
                self.apply(Action::AttachTrace(Rc::new(trace)));
                if self.notice_for(trace::KEY).is_none() {
                    self.apply(Action::Set { key: "horizon".into(), value: (horizon as u64).to_string() });
                }
                return;
            }
            (Scenario::Pgrr(_), trace::Loaded::Google(_)) | (Scenario::Msfq(_), trace::Loaded::Swf(_)) => {}
            (scenario, loaded) => {
                return self.notice(ConfigError::new(
                    trace::KEY,
                    format!(
                        "{} is a {} file; Google task_events traces replay on PG-RR and PG-AS, SWF logs on MSFQ",
                        scenario.info().name,
                        loaded.format().name()
                    ),
                ));
            }
        }
        self.apply(Action::Set { key: trace::KEY.into(), value: shared.name() });
        if self.setup.scenario.get(trace::KEY).as_deref() != Some(shared.name().as_str()) {
            return;
        }
        // An SWF log runs on its machine: the cores its header gives.
        if let trace::Loaded::Swf(log) = &*shared.0 {
            self.apply(Action::Set { key: "cores".into(), value: log.machine().to_string() });
        }
        // The horizon covers the trace under the scaling: one unit past its last arrival (the
        // jobs as the scenario now maps them).
        let span = match &self.setup.scenario {
            Scenario::Pgrr(s) => s.slot_jobs().ok().flatten().map(|jobs| jobs.span(s.load) as f64),
            Scenario::Msfq(s) => s.class_jobs().ok().flatten().map(|jobs| jobs.span(s.load).ceil()),
            _ => None,
        };
        if let Some(span) = span {
            self.apply(Action::Set { key: "horizon".into(), value: (span as u64 + 1).to_string() });
        }
    }

    /// Shows step `at` of a tour: its link's scenario and lanes, the rest of the page as it is.
    pub(super) fn go_to(&mut self, at: TourAt) {
        let (link, errors) = decode_link(at.step().link, PAGE_KEYS);
        // Tours are tested to load cleanly; say so should one ever not.
        for e in errors {
            self.notice(e);
        }
        self.setup = Rc::new(Setup { preset: link.preset, scenario: link.scenario, policies: link.policies });
        self.gallery = false;
        self.tour = Some(at);
    }

    /// Adds a lane of policy `name` without parameters, if there is room, it fits the
    /// scenario and no lane races it already.
    fn add_policy(&mut self, name: &str) {
        if self.setup.policies.len() >= MAX_POLICIES {
            return self.notice(too_many_policies());
        }
        let result = PolicySpec::parse(name).and_then(|spec| {
            self.setup.scenario.check_policy(&spec)?;
            self.refuse_twice(&spec, None)?;
            Ok(spec)
        });
        match result {
            Ok(spec) => {
                self.clear("policy");
                Rc::make_mut(&mut self.setup).policies.push(spec);
            }
            Err(e) => self.notice(e),
        }
    }

    /// Refuses a spec that another lane than `lane` races already: two lanes of one spec
    /// would draw the same numbers under the same label.
    fn refuse_twice(&self, spec: &PolicySpec, lane: Option<usize>) -> Result<(), ConfigError> {
        let other = self.setup.policies.iter().enumerate().find(|(i, p)| *p == spec && Some(*i) != lane);
        match other {
            Some((i, p)) => Err(ConfigError::new(
                "policy",
                format!(
                    "lane {} already races {} ({spec}); give one of them other parameters first",
                    i + 1,
                    self.setup.scenario.policy_label(p)
                ),
            )),
            None => Ok(()),
        }
    }
}

impl Reducible for Lab {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::unwrap_or_clone(self);
        let setup = next.setup.clone();
        next.apply(action);
        // A link's moment belongs to its run: a new scenario starts from time 0.
        if next.setup != setup {
            next.open_at = None;
        }
        Rc::new(next)
    }
}
