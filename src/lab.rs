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
use packlab_core::scenario::{PAGE_KEYS, Scenario, Setup, decode_link, encode_link};
use packlab_core::tours::{self, Step as TourStep, Tour};
use packlab_core::trace::{self, Loaded, Shared};
use yew::Reducible;

use crate::chart::ChartKind;

/// Most policies that race side by side.
pub const MAX_POLICIES: usize = 4;
/// The page's own link key (the CLI accepts and ignores it).
pub const SPEED_KEY: &str = "speed";

/// How fast the simulation runs while playing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Speed {
    /// The whole run, to the horizon, in this many seconds of wall time: the pace a story
    /// is told at, whatever the model, its time unit or the horizon.
    Duration(u32),
    /// Simulated slots (or time units) per second of wall time.
    PerSecond(u64),
    /// As many slots as each frame's time budget allows.
    Max,
}

impl Speed {
    /// Every preset plays its whole run in 30 s: long enough to watch the story (a queue
    /// that grows, a reward that converges), short enough for a lecture. Before, the default
    /// was 10^5 slots/s, which ended pgas-c6 in 0.18 s and pgrr-a2 after 200 s.
    pub const DEFAULT: Speed = Speed::Duration(30);
    /// Fastest explicit rate; beyond it, `max` says what is meant.
    pub const TOP_RATE: u64 = 10_000_000;
    /// Longest run duration: an hour.
    pub const LONGEST: u32 = 3_600;
    /// The choices the speed menu offers (a link may hold any rate or duration in range).
    pub const CHOICES: [Speed; 12] = [
        Speed::Duration(10),
        Speed::Duration(30),
        Speed::Duration(60),
        Speed::Duration(180),
        Speed::Duration(600),
        Speed::PerSecond(10),
        Speed::PerSecond(100),
        Speed::PerSecond(1_000),
        Speed::PerSecond(10_000),
        Speed::PerSecond(100_000),
        Speed::PerSecond(1_000_000),
        Speed::Max,
    ];

    /// Parses `max`, a duration `30s` (1..=3600 seconds) or a whole number of slots per
    /// second in 1..=10^7.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        let wrong = || {
            ConfigError::new(
                SPEED_KEY,
                format!(
                    "must be max, a run duration in seconds such as 30s (1s..={}s), or slots per second, an \
                     integer in 1..={} (got '{text}')",
                    Self::LONGEST,
                    Self::TOP_RATE
                ),
            )
        };
        if let Some(seconds) = text.strip_suffix('s') {
            return match seconds.trim().parse::<u32>() {
                Ok(s) if (1..=Self::LONGEST).contains(&s) => Ok(Speed::Duration(s)),
                _ => Err(wrong()),
            };
        }
        match text.parse::<u64>() {
            Ok(rate) if (1..=Self::TOP_RATE).contains(&rate) => Ok(Speed::PerSecond(rate)),
            _ => Err(wrong()),
        }
    }

    /// Simulated time units per second of wall time for a run of `horizon` units, or `None`
    /// for as fast as possible.
    pub fn rate(self, horizon: u64) -> Option<f64> {
        match self {
            Speed::Duration(seconds) => Some(horizon as f64 / f64::from(seconds)),
            Speed::PerSecond(rate) => Some(rate as f64),
            Speed::Max => None,
        }
    }

    /// For people: "whole run in 30 s", "100 000 slots/s", "as fast as possible"; `unit`
    /// names the time unit ("slots", "time units").
    pub fn label(self, unit: &str) -> String {
        match self {
            Speed::Duration(seconds) if seconds % 60 == 0 => format!("whole run in {} min", seconds / 60),
            Speed::Duration(seconds) => format!("whole run in {seconds} s"),
            Speed::PerSecond(rate) => format!("{} {unit}/s", crate::format::group_digits(rate)),
            Speed::Max => "as fast as possible".into(),
        }
    }
}

impl fmt::Display for Speed {
    /// The link form: `max` or the rate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::Duration(seconds) => write!(f, "{seconds}s"),
            Speed::PerSecond(rate) => write!(f, "{rate}"),
            Speed::Max => f.write_str("max"),
        }
    }
}

/// The link key that shows the page embedded (`embed=1`): chosen views only, for an iframe.
pub const EMBED_KEY: &str = "embed";
/// The views an embedded page shows (`views=lanes,queue`).
pub const VIEWS_KEY: &str = "views";

/// The link keys of a guided tour and its step (`tour=msf-swings&step=2`, steps from 1).
pub const TOUR_KEY: &str = "tour";
/// The moment a link opens at (`t=1200`): the page plays there at full speed and pauses.
pub const TIME_KEY: &str = "t";
pub const STEP_KEY: &str = "step";

/// Where a guided tour is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TourAt {
    pub tour: &'static Tour,
    /// From 0.
    pub step: usize,
}

impl TourAt {
    pub fn step(&self) -> &'static TourStep {
        &self.tour.steps[self.step]
    }
}

/// The link key of the colour theme (`theme=dark`).
pub const THEME_KEY: &str = "theme";
/// The link key of presenter mode (`present=1`).
pub const PRESENT_KEY: &str = "present";

/// The page's colours: the system's choice (`prefers-color-scheme`) unless one is picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeChoice {
    #[default]
    Auto,
    Light,
    Dark,
    HighContrast,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 4] =
        [ThemeChoice::Auto, ThemeChoice::Light, ThemeChoice::Dark, ThemeChoice::HighContrast];

    /// The link form, also the `data-theme` of the page.
    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
            ThemeChoice::HighContrast => "high-contrast",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "as the system",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
            ThemeChoice::HighContrast => "high contrast",
        }
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        Self::ALL.into_iter().find(|t| t.name() == text.trim()).ok_or_else(|| {
            ConfigError::new(THEME_KEY, format!("must be auto, light, dark or high-contrast (got '{}')", text.trim()))
        })
    }

    /// Whether the colours are dark: picked so, or following a system that prefers them.
    pub fn is_dark(self, system_dark: bool) -> bool {
        self == ThemeChoice::Dark || (self == ThemeChoice::Auto && system_dark)
    }

    /// The chart theme, with `system_dark` saying what the system prefers.
    pub fn chart_theme(self, system_dark: bool, presenting: bool) -> packlab_plot::Theme {
        let theme = match self {
            _ if self.is_dark(system_dark) => packlab_plot::Theme::DARK,
            ThemeChoice::HighContrast => packlab_plot::Theme::HIGH_CONTRAST,
            _ => packlab_plot::Theme::LIGHT,
        };
        if presenting { theme.presenting() } else { theme }
    }
}

/// A part of the page an embedded page can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The statistics table.
    Stats,
    /// Each policy's cluster.
    Lanes,
    Chart(ChartKind),
}

impl View {
    /// Every view, in the order of the page.
    pub fn all() -> Vec<View> {
        let mut views = vec![View::Stats, View::Lanes];
        views.extend(ChartKind::ALL.iter().map(|&k| View::Chart(k)));
        views
    }

    pub fn name(self) -> &'static str {
        match self {
            View::Stats => "stats",
            View::Lanes => "lanes",
            View::Chart(kind) => kind.name(),
        }
    }

    /// A comma-separated list of view names, each once.
    pub fn parse_list(text: &str) -> Result<Vec<View>, ConfigError> {
        let all = View::all();
        let mut views = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some(view) = all.iter().find(|v| v.name() == name) else {
                let names: Vec<&str> = all.iter().map(|v| v.name()).collect();
                return Err(ConfigError::new(
                    VIEWS_KEY,
                    format!("'{name}' is not a view; views are {} (comma-separated)", names.join(", ")),
                ));
            };
            if !views.contains(view) {
                views.push(*view);
            }
        }
        Ok(views)
    }
}

/// How an embedded page shows the lab: the views chosen (empty: the lanes and the model's
/// first chart).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Embed {
    pub views: Vec<View>,
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
    /// Shown inside an iframe, with chosen views only (`embed=1`).
    pub embed: Option<Embed>,
    pub theme: ThemeChoice,
    /// Presenter mode: large type, thick lines, the controls folded away (`present=1`, `P`).
    pub present: bool,
    /// The landing view: every preset as a card (a link without any key opens it).
    pub gallery: bool,
    /// The guided tour under way, if any (its step set the scenario; editing leaves it be).
    pub tour: Option<TourAt>,
    /// The moment the link opens at (`t=`), until the scenario changes: a slot, or any time in
    /// continuous time (a step to an event lands between whole units).
    pub open_at: Option<f64>,
}

/// What the controls can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Switch to a preset: its scenario and policies; the speed stays. Leaves the gallery.
    ChoosePreset(String),
    /// Back to the gallery of presets.
    ShowGallery,
    /// Start the tour called so, at its first step.
    StartTour(&'static str),
    /// Go to step `k` (from 0) of the tour under way.
    TourStep(usize),
    /// Leave the tour, keeping the scenario on screen.
    LeaveTour,
    /// Set one scenario key from its text form (the `--set` keys).
    Set {
        key: String,
        value: String,
    },
    /// Add the policy of this name without parameters, or remove every lane of it (there is
    /// always at least one lane, at most [`MAX_POLICIES`]).
    TogglePolicy(&'static str),
    /// Add one more lane of this policy, without parameters, next to the ones racing (a
    /// policy can race several times with different parameters: msfq-d4's ℓ = 0, 2, 8, 31).
    AddPolicy(&'static str),
    /// Remove lane `lane`.
    RemovePolicy(usize),
    /// Set parameter `key` of lane `lane` from its text; empty text goes back to the default.
    SetPolicyParam {
        lane: usize,
        key: String,
        value: String,
    },
    SetSpeed(String),
    /// Pick the colour theme from its link form.
    SetTheme(String),
    /// Presenter mode on or off.
    TogglePresent,
    /// Back to the preset's own values, keeping the policies and the seed.
    ResetScenario,
    /// Forget the notices.
    Dismiss,
    /// Input the page itself found bad before it became a key (an uploaded file).
    Reject(ConfigError),
    /// Replay a task trace (PG-AS): its types and arrivals replace the scenario's.
    AttachTrace(Rc<Trace>),
    /// Replay a trace file read in the page (kept in the core's library, so links name it by
    /// its fingerprint): a Google trace on PG-RR or PG-AS, a task CSV on PG-AS, an SWF log on
    /// MSFQ (with `cores` its machine). The horizon is set to cover the trace.
    LoadTrace(Shared),
}

impl Lab {
    /// The state a link describes: a full URL or just its query. Every bad key becomes a
    /// notice and the rest loads.
    pub fn from_link(input: &str) -> Self {
        let (link, errors) = decode_link(input, PAGE_KEYS);
        // A link without policies races what choosing its preset races.
        let policies = if link.named_policies { link.policies } else { raced_policies(&link.policies) };
        let mut lab = Lab {
            setup: Rc::new(Setup { preset: link.preset, scenario: link.scenario, policies }),
            speed: Speed::DEFAULT,
            notices: Vec::new(),
            embed: None,
            theme: ThemeChoice::Auto,
            present: false,
            gallery: link_is_bare(input),
            tour: None,
            open_at: None,
        };
        // One notice per key, saying everything the link got wrong about it (`policy=msf,dra`
        // on a PG-RR preset names both).
        for error in errors {
            match lab.notices.iter_mut().find(|n| n.key == error.key) {
                Some(earlier) => earlier.message = format!("{}; {}", earlier.message, error.message),
                None => lab.notices.push(error),
            }
        }
        if lab.setup.policies.len() > MAX_POLICIES {
            lab.notice(too_many_policies());
            Rc::make_mut(&mut lab.setup).policies.truncate(MAX_POLICIES);
        }
        let mut views = Vec::new();
        for (key, value) in &link.extras {
            let result = match key.as_str() {
                SPEED_KEY => Speed::parse(value).map(|speed| lab.speed = speed),
                EMBED_KEY => match value.trim() {
                    "1" | "true" => {
                        lab.embed = Some(Embed::default());
                        Ok(())
                    }
                    "0" | "false" => {
                        lab.embed = None;
                        Ok(())
                    }
                    other => Err(ConfigError::new(EMBED_KEY, format!("must be 1 or 0 (got '{other}')"))),
                },
                VIEWS_KEY => View::parse_list(value).map(|v| views = v),
                THEME_KEY => ThemeChoice::parse(value).map(|t| lab.theme = t),
                PRESENT_KEY => match value.trim() {
                    "1" | "true" => {
                        lab.present = true;
                        Ok(())
                    }
                    "0" | "false" => Ok(()),
                    other => Err(ConfigError::new(PRESENT_KEY, format!("must be 1 or 0 (got '{other}')"))),
                },
                TIME_KEY => {
                    let horizon = lab.setup.scenario.horizon();
                    let info = lab.setup.scenario.info();
                    let slotted = info.time == packlab_core::models::TimeUnit::Slots;
                    value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|t| (0.0..=horizon as f64).contains(t) && (!slotted || t.fract() == 0.0))
                        .map(|t| lab.open_at = Some(t))
                        .ok_or_else(|| {
                            let kind = if slotted {
                                format!("a whole number of {}", info.time.plural())
                            } else {
                                format!("a number of {}", info.time.plural())
                            };
                            ConfigError::new(
                                TIME_KEY,
                                format!(
                                    "must be a moment of the run, {kind} in 0..={horizon} (got '{}')",
                                    value.trim()
                                ),
                            )
                        })
                }
                _ => Ok(()),
            };
            if let Err(e) = result {
                lab.notice(e);
            }
        }
        if let Some(embed) = &mut lab.embed {
            embed.views = views;
        }
        // A tour's step sets the scenario, whatever else the link says.
        let tour = link.extras.iter().rev().find(|(k, _)| k == TOUR_KEY).map(|(_, v)| v.clone());
        if let Some(id) = tour {
            let step = link.extras.iter().rev().find(|(k, _)| k == STEP_KEY).map(|(_, v)| v.clone());
            match tours::tour(&id) {
                Ok(tour) => {
                    let count = tour.steps.len();
                    let k = match step.as_deref().map(str::trim) {
                        None => Ok(0),
                        Some(text) => {
                            text.parse::<usize>().ok().filter(|k| (1..=count).contains(k)).map(|k| k - 1).ok_or_else(
                                || {
                                    ConfigError::new(
                                        STEP_KEY,
                                        format!("must be a step of the tour, an integer in 1..={count} (got '{text}')"),
                                    )
                                },
                            )
                        }
                    };
                    match k {
                        Ok(k) => lab.go_to(TourAt { tour, step: k }),
                        Err(e) => {
                            lab.notice(e);
                            lab.go_to(TourAt { tour, step: 0 });
                        }
                    }
                }
                Err(e) => lab.notice(e),
            }
        }
        lab
    }

    /// The link query (without `?`) that reproduces this state; empty for the gallery.
    pub fn query(&self) -> String {
        if self.gallery {
            return String::new();
        }
        let s = &self.setup;
        let mut extras =
            if self.speed == Speed::DEFAULT { Vec::new() } else { vec![(SPEED_KEY, self.speed.to_string())] };
        if let Some(at) = &self.tour {
            extras.push((TOUR_KEY, at.tour.id.to_string()));
            extras.push((STEP_KEY, (at.step + 1).to_string()));
        }
        if self.theme != ThemeChoice::Auto {
            extras.push((THEME_KEY, self.theme.name().into()));
        }
        if self.present {
            extras.push((PRESENT_KEY, "1".into()));
        }
        if let Some(t) = self.open_at {
            extras.push((TIME_KEY, t.to_string()));
        }
        if let Some(embed) = &self.embed {
            extras.push((EMBED_KEY, "1".into()));
            if !embed.views.is_empty() {
                let names: Vec<&str> = embed.views.iter().map(|v| v.name()).collect();
                extras.push((VIEWS_KEY, names.join(",")));
            }
        }
        encode_link(&s.preset, &s.policies, &s.scenario, &extras)
    }

    /// The link query of this state opening at moment `t` (none: from time 0).
    pub fn query_at(&self, t: Option<f64>) -> String {
        Lab { open_at: t, ..self.clone() }.query()
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

    fn load_trace(&mut self, shared: Shared) {
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
            (Scenario::Pgrr(_), Loaded::Google(_)) | (Scenario::Msfq(_), Loaded::Swf(_)) => {}
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
        if let Loaded::Swf(log) = &*shared.0 {
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
    fn go_to(&mut self, at: TourAt) {
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

    fn notice(&mut self, error: ConfigError) {
        self.clear(&error.key.clone());
        self.notices.push(error);
    }

    fn clear(&mut self, key: &str) {
        self.notices.retain(|n| n.key != key);
    }
}

/// Whether a link (a full URL or its query) has no key at all: the page's own address,
/// which opens the gallery.
fn link_is_bare(input: &str) -> bool {
    let input = input.trim();
    let query = match input.split_once('?') {
        Some((_, query)) => query,
        None if input.contains("://") => "",
        None => input,
    };
    query.split('#').next().unwrap_or("").trim_matches('&').is_empty()
}

fn too_many_policies() -> ConfigError {
    ConfigError::new("policy", format!("at most {MAX_POLICIES} policies run side by side"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_parse_and_print() {
        assert_eq!(Speed::parse("max").unwrap(), Speed::Max);
        assert_eq!(Speed::parse("250").unwrap(), Speed::PerSecond(250));
        assert_eq!(Speed::parse(" 45s ").unwrap(), Speed::Duration(45));
        for bad in ["0", "-1", "fast", "10000001", "0s", "3601s", "s", "1.5s", "-3s"] {
            let e = Speed::parse(bad).unwrap_err();
            assert_eq!(e.key, "speed");
            assert!(e.message.contains("1..=10000000") && e.message.contains("1s..=3600s"), "{e}");
        }
        assert_eq!(Speed::Duration(30).rate(2_000_000), Some(2_000_000.0 / 30.0));
        assert_eq!(Speed::PerSecond(7).rate(2_000_000), Some(7.0));
        assert_eq!(Speed::Max.rate(1), None);
        assert_eq!(Speed::Duration(30).label("slots"), "whole run in 30 s");
        assert_eq!(Speed::Duration(180).label("slots"), "whole run in 3 min");
        for s in Speed::CHOICES {
            assert_eq!(Speed::parse(&s.to_string()).unwrap(), s);
        }
    }
}
