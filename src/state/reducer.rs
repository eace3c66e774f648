//! The reducer: what each [`Action`] does to the [`Lab`]. A rejected value leaves the state as
//! it was and becomes a notice naming the key and its allowed range.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::changes;
use packlab_core::link::decode_link;
use packlab_core::page::{SPEED, THEME};
use packlab_core::policy::{self, PolicySpec};
use packlab_core::scenario::Setup;
use packlab_core::tours;
use packlab_core::trace;
use yew::Reducible;

use crate::state::theme::ThemeChoice;
use crate::state::{Action, Lab, MAX_POLICIES, Speed, TourAt, preset_setup, too_many_policies};

impl Lab {
    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::ChoosePreset(id) => match preset_setup(&id) {
                Ok(setup) => {
                    self.setup = Rc::new(setup);
                    self.pending_trace = None;
                    self.notices.clear();
                    self.gallery = false;
                    self.finished_tour = None;
                    // Another preset's map is another computation: the user opens it.
                    self.map = None;
                }
                Err(e) => self.notice(e),
            },
            Action::ShowGallery => {
                self.gallery = true;
                self.finished_tour = None;
            }
            Action::TourStep(k) => {
                if let Some(at) = self.tour
                    && k < at.tour.steps.len()
                {
                    self.go_to(TourAt { tour: at.tour, step: k });
                }
            }
            Action::LeaveTour => {
                self.attempt = None;
                // From the last step the tour is finished: its summary replaces the panel.
                if let Some(at) = self.tour.take()
                    && at.step + 1 == at.tour.steps.len()
                {
                    let mut predictions = std::mem::take(&mut self.predictions);
                    predictions.resize(at.tour.steps.len(), None);
                    self.finished_tour = Some((at.tour, predictions));
                }
            }
            Action::TourPredicted { step, right } => {
                if self.predictions.len() <= step {
                    self.predictions.resize(step + 1, None);
                }
                self.predictions[step] = right;
            }
            Action::CloseTourSummary => self.finished_tour = None,
            Action::Attempt(source) => {
                if self.tour.is_some_and(|at| at.step().check.exercise().is_some()) {
                    self.attempt = Some(source);
                }
            }
            Action::StartTour(id) => match tours::tour(id) {
                Ok(tour) => {
                    self.predictions.clear();
                    self.finished_tour = None;
                    self.go_to(TourAt { tour, step: 0 });
                }
                Err(e) => self.notice(e),
            },
            // A log named by its fingerprint replays as a dropped one: on its machine at its
            // own pace (the core's rule, as in links and the CLI).
            Action::Set { key, value }
                if key == trace::KEY && value.trim() != "none" && self.setup.scenario.info().replay.is_some() =>
            {
                match self.setup.scenario.named_trace(&value) {
                    Ok(Some(shared)) => self.load_trace(shared),
                    Ok(None) => {}
                    Err(e) => self.notice(e),
                }
            }
            Action::Set { key, value } => {
                if key == trace::KEY {
                    self.pending_trace = None;
                }
                let mut scenario = self.setup.scenario.clone();
                // What follows the key follows as in the CLI and links (the core's rule): a
                // replay's horizon its scaling, the warm-up and grid the horizon.
                let (before, preset) = (&self.setup.scenario, &self.setup.preset.scenario);
                let result = if key == trace::KEY && value.trim() == "none" {
                    // The file's machine and pace go with it (the core's rule).
                    scenario.stop_replay(preset)
                } else {
                    scenario
                        .set(&key, &value)
                        .and_then(|()| scenario.follow(before, preset, &[key.as_str()]).map(|_| ()))
                };
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
            Action::ChangeLive { key, value, at } => self.change_live(key, value, at),
            Action::TogglePolicy(name) => {
                let policies = &self.setup.policies;
                if policies.iter().any(|p| p.name() == name) {
                    if policies.iter().all(|p| p.name() == name) {
                        self.notice(ConfigError::new("policy", "at least one policy must run"));
                    } else {
                        self.clear("policy");
                        Rc::make_mut(&mut self.setup).policies.retain(|p| p.name() != name);
                        self.retry_trace();
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
                    self.retry_trace();
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
                    self.clear(SPEED);
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
                self.pending_trace = None;
                self.notices.retain(|n| n.key == "policy" || n.key == SPEED);
            }
            Action::SetTheme(text) => match ThemeChoice::parse(&text) {
                Ok(theme) => {
                    self.clear(THEME);
                    self.theme = theme;
                }
                Err(e) => self.notice(e),
            },
            Action::TogglePresent => self.present = !self.present,
            Action::SetMap(map) => self.map = map,
            Action::Dismiss => self.notices.clear(),
            Action::Reject(error) => self.notice(error),
            Action::LoadTrace(shared) => self.load_trace(shared),
        }
    }

    /// Replays a loaded trace file on the scenario, as its model replays it (the core's rule,
    /// as `--trace` in the CLI): at its recorded pace (1/β = 1) unless the load already was a
    /// traffic scaling, the horizon covering its arrivals, the warm-up following; what the user
    /// set apart from the load stays.
    fn load_trace(&mut self, shared: trace::Shared) {
        let mut scenario = self.setup.scenario.clone();
        let policies = &self.setup.policies;
        let preset = &self.setup.preset.scenario;
        // The window follows the file; the trace is what changes.
        let follows = ["load", "horizon", "warmup", "sample_every", "trace"];
        let keep: Vec<&str> =
            scenario.overrides_from(preset).into_iter().map(|(k, _)| k).filter(|k| !follows.contains(k)).collect();
        let result = scenario.replay(&shared, &keep, preset).and_then(|_| scenario.validate());
        // A lane that cannot replay the log is named in one sentence with the fix (the core's);
        // the log waits until that lane leaves, then replays without being loaded again.
        let (_, refused) = scenario.runnable(policies);
        self.pending_trace = None;
        match result {
            Ok(()) if !refused.is_empty() => {
                let why: Vec<String> = refused.into_iter().map(|e| e.message).collect();
                self.notice(ConfigError::new(
                    trace::KEY,
                    format!("{} (the log replays once that lane is unticked)", why.join("; ")),
                ));
                self.pending_trace = Some(shared);
            }
            Ok(()) => {
                self.clear(trace::KEY);
                Rc::make_mut(&mut self.setup).scenario = scenario;
            }
            Err(mut e) => {
                if e.key != trace::KEY {
                    e.message = format!("loaded trace: {}: {}", e.key, e.message);
                    e.key = trace::KEY.to_string();
                }
                self.notice(e);
            }
        }
    }

    /// Makes `key` = `value` a change at moment `at` of the playing race, in place of the
    /// changes from `at` on (the core's rule, [`packlab_core::changes::Changes::made_at`]); the
    /// race takes the new list where it is (RES-96). A refusal names the key moved.
    fn change_live(&mut self, key: String, value: String, at: u64) {
        // A change the playing race cannot take (more servers than it was built for) is still
        // made at its moment, but the race starts again from 0 to take it (the session sees
        // the same refusal).
        let refused = self.setup.scenario.any().live_refusal(&key, value.trim());
        let mut scenario = self.setup.scenario.clone();
        let old = scenario.any().window().changes.clone();
        let changes = old.made_at(at, &key, value.trim());
        let result = scenario.set(changes::KEY, &changes.to_string()).and_then(|()| scenario.validate());
        match result {
            Ok(()) => {
                self.clear(&key);
                self.clear(changes::KEY);
                let replaced = old.iter().filter(|c| c.at >= at).count();
                let time = scenario.time_unit();
                let label = scenario.keys().iter().find(|k| k.key == key).map_or(key.clone(), |k| k.label.to_string());
                let then = match &refused {
                    None => "the race goes on from there".to_string(),
                    Some(why) => format!("{why}, so it starts again from 0 with the change"),
                };
                self.live_note = Some(Rc::from(format!(
                    "{label} {} from {} {} on{}; {then}.",
                    value.trim(),
                    time.prefix(),
                    packlab_core::format::group_digits(at),
                    match replaced {
                        0 => String::new(),
                        n => format!(" (in place of the {n} change{} after it)", if n == 1 { "" } else { "s" }),
                    }
                )));
                Rc::make_mut(&mut self.setup).scenario = scenario;
            }
            Err(mut e) => {
                if e.key != key {
                    e.message = format!("{}: {}", e.key, e.message);
                    e.key = key;
                }
                self.notice(e);
            }
        }
    }

    /// Replays the log that waited for a lane to leave, now that one did.
    fn retry_trace(&mut self) {
        if let Some(shared) = self.pending_trace.take() {
            self.load_trace(shared);
        }
    }

    /// Shows step `at` of a tour: its link's scenario and lanes, the rest of the page as it is.
    pub(super) fn go_to(&mut self, at: TourAt) {
        let (link, errors) = decode_link(at.step().link);
        // Tours are tested to load cleanly; say so should one ever not.
        for e in errors {
            self.notice(e);
        }
        self.setup = Rc::new(Setup { preset: link.preset, scenario: link.scenario, policies: link.policies });
        self.gallery = false;
        self.tour = Some(at);
        self.pending_trace = None;
        // A script belongs to the exercise it was written for.
        self.attempt = None;
        // A step that shows the stability map opens it; the others close it.
        self.map = link.page.map;
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
        let live = matches!(action, Action::ChangeLive { .. });
        next.apply(action);
        // A link's moment belongs to its run: a new scenario starts from time 0.
        if next.setup != setup {
            next.open_at = None;
            if !live {
                next.live_note = None;
            }
        }
        Rc::new(next)
    }
}
