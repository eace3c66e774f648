//! The lab's state: which scenario runs, with which policies, at what speed (everything a
//! link holds), and the actions that change it. Plain data with no browser API, so the
//! reducer and the link codec are tested natively and in the browser alike.
//!
//! Bad input never throws anything away silently: a rejected value leaves the scenario as it
//! was and adds a notice that names the key and its allowed range, shown until it is fixed
//! or dismissed.
//!
//! * here: the [`Lab`] itself, the [`Action`]s, and the lanes a preset races;
//! * [`reducer`]: what each action does;
//! * [`link`]: the link codec, the state a link describes and back;
//! * the page's own keys are the core's ([`packlab_core::page`]); here only what the page
//!   makes of them: [`theme`] (the chart theme) and [`views`] (the embedded page's views).

use std::rc::Rc;

use packlab_core::ConfigError;
pub use packlab_core::page::{Speed, TourAt};
use packlab_core::policy::PolicySpec;
use packlab_core::scenario::Setup;
use packlab_core::trace;

pub mod link;
pub mod reducer;
pub mod theme;
pub mod views;

#[cfg(test)]
mod tests;

use theme::ThemeChoice;
use views::Embed;

/// Most policies that race side by side.
pub const MAX_POLICIES: usize = 4;

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

/// A lab compared by identity, as a key for `use_memo` of what follows from the lab alone (its
/// links, the command line): the page re-renders sixty times a second while a race plays, and
/// each link is the whole scenario written out. The app makes a new `Rc<Lab>` for each state, and
/// the memo holds the old one, so no other lab can take its address.
#[derive(Clone)]
pub struct SameLab(pub Rc<Lab>);

impl PartialEq for SameLab {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
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
    /// The predictions of the tour under way, by step: right or not, once its run ended.
    pub predictions: Vec<Option<bool>>,
    /// The tour just finished, with its predictions, for its closing summary.
    pub finished_tour: Option<(&'static packlab_core::tours::Tour, Vec<Option<bool>>)>,
    /// The stability map, open and computed (`map=`, `map_axis=`).
    pub map: Option<packlab_core::stability::MapSpec>,
    /// The learner's script on an exercise's step, once applied (`attempt=`): the step's
    /// editor and Check start from it, and the link carries it.
    pub attempt: Option<String>,
    /// A log refused because a lane cannot replay it (MSFQ on a log of many needs): it
    /// replays as soon as that lane leaves, without loading the file again.
    pub pending_trace: Option<packlab_core::trace::Shared>,
    /// What the last knob moved while the race played did (RES-96), said on the page and to
    /// screen readers until the scenario changes otherwise.
    pub live_note: Option<Rc<str>>,
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
    /// Leave the tour, keeping the scenario on screen (from its last step: with a summary).
    LeaveTour,
    /// The run of step `step` ended: whether the prediction was right (`None`: no question,
    /// or none made).
    TourPredicted {
        step: usize,
        right: Option<bool>,
    },
    /// Close the summary of a finished tour.
    CloseTourSummary,
    /// The learner applied this script in the exercise of the step on screen.
    Attempt(String),
    /// Set one scenario key from its text form (the `--set` keys).
    Set {
        key: String,
        value: String,
    },
    /// A key that can change, moved while the race plays: from moment `at` (the race's open
    /// moment, RES-96) on it has `value`, in place of the changes from `at` on.
    ChangeLive {
        key: String,
        value: String,
        at: u64,
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
    /// Open the stability map with these replications and axis (into the link), or close it.
    SetMap(Option<packlab_core::stability::MapSpec>),
    /// Back to the preset's own values, keeping the policies and the seed.
    ResetScenario,
    /// Forget the notices.
    Dismiss,
    /// Input the page itself found bad before it became a key (an uploaded file).
    Reject(ConfigError),
    /// Replay a trace file read in the page (kept in the core's library, so links name it by
    /// its fingerprint), as the scenario's model replays it ([`packlab_core::scenario::Scenario::replay`]):
    /// at its recorded pace, the horizon covering its arrivals.
    LoadTrace(trace::Shared),
}

impl Lab {
    /// The notice about `key`, if its last input was rejected.
    pub fn notice_for(&self, key: &str) -> Option<&ConfigError> {
        self.notices.iter().find(|n| n.key == key)
    }

    /// Whether the lab runs a script: a scripted lane, an exercise's step (its check races the
    /// learner's script) or an exercise's attempt. The page's first download has no script
    /// engine and loads the build that has one for such a lab (docs/web.md, "Less to download").
    pub fn needs_scripts(&self) -> bool {
        self.setup.policies.iter().any(|p| p.name() == packlab_core::script::NAME)
            || self.tour.is_some_and(|at| at.step().check.exercise().is_some())
            || self.attempt.is_some()
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
