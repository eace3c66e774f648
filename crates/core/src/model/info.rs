//! What a model shows the world: its names, units, load knob, drawing and benchmark cases,
//! and what its trace replay takes.

use serde::{Deserialize, Serialize};

use crate::trace::Format;

/// What a model shows the world: names, units and the texts and charts of the page.
#[derive(Debug, PartialEq)]
pub struct ModelInfo {
    /// The id used for folders, preset prefixes and `Scenario`'s variants: `pgrr`.
    pub id: &'static str,
    /// The paper's short name: "PG-RR".
    pub name: &'static str,
    /// What the model is, for listings: "PG-RR (random-size jobs, slotted)".
    pub label: &'static str,
    pub time: TimeUnit,
    pub load: LoadKnob,
    /// The per-job time the model measures, if any.
    pub job_time: Option<JobTime>,
    /// Whether jobs wait (a loss system admits or rejects).
    pub queue: bool,
    /// Whether runs earn rewards (PG-AS).
    pub reward: bool,
    /// How the page draws a server.
    pub drawing: Drawing,
    /// What `packlab bench` times by default: the engine's headline cases.
    pub bench: &'static [BenchCase],
    /// What the bins and the jobs' light colours stand for: "job class", "VM type".
    pub classes: &'static str,
    /// How the model replays a recorded workload, if it does.
    pub replay: Option<Replay>,
    /// Whether its theory has static bounds without simulation (`packlab bounds`,
    /// [`crate::model::Model::bounds`]).
    pub static_bounds: bool,
    /// The scenario keys its theory's graphs depend on ([`crate::model::Model::theory`]): the
    /// page computes them again only when one of these changes.
    pub theory_keys: &'static [&'static str],
}

/// How a model replays a recorded workload: what files it takes, what they replace, and what
/// its load knob means meanwhile. The page's trace box and the CLI's `--trace` read this; the
/// model's [`crate::model::Model::replay`] does the attaching.
#[derive(Debug, PartialEq)]
pub struct Replay {
    /// The formats it replays.
    pub formats: &'static [Format],
    /// What the page's file picker accepts: ".swf,.gz,text/plain".
    pub accept: &'static str,
    /// What to give it, for the picker's label: "an SWF log".
    pub files: &'static str,
    /// The bundled sample, a path in the repository and next to the page.
    pub sample: &'static str,
    /// The load knob while a file replays: the traffic scaling.
    pub knob: LoadKnob,
    /// Keys whose values come from the file while it replays (they leave the page's form).
    pub replaces: &'static [&'static str],
    /// Keys the file sets when it starts replaying, unless the user set them (an SWF log's
    /// machine: MSFQ's cores). A link of a replay always carries them, with the scaling and
    /// the horizon, so that it replays to the digit whatever the preset says (RES-91).
    pub machine: &'static [&'static str],
}

/// A case `packlab bench` times: a preset with some keys set and its policies, after an
/// untimed warm-up that brings the queues to their working level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchCase {
    pub preset: &'static str,
    pub sets: &'static [(&'static str, &'static str)],
    /// Policy specs; empty for the preset's own.
    pub policies: &'static [&'static str],
    /// Untimed time units before the clock starts.
    pub warmup: u64,
    /// Arriving jobs timed, unless `--jobs` says otherwise.
    pub jobs: u64,
}

/// Slots or continuous time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Slots,
    Continuous,
}

impl TimeUnit {
    /// "slots" or "time units".
    pub fn plural(self) -> &'static str {
        match self {
            Self::Slots => "slots",
            Self::Continuous => "time units",
        }
    }

    /// The x axis of time charts: "slot" or "time".
    pub fn axis(self) -> &'static str {
        match self {
            Self::Slots => "slot",
            Self::Continuous => "time",
        }
    }

    /// Before a time value in the page's readouts: "slot 120" or "t = 120".
    /// The first whole moment at which a run at time `now` can still take a change (RES-96):
    /// the slot under way in slotted time; in continuous time the first whole moment after
    /// `now` (a change is made before the events of its moment, and those of `now` may be
    /// handled). [`crate::view::LiveRun::open_moment`] of every engine, and the moment a
    /// page's knob makes.
    pub fn open_moment(self, now: f64) -> u64 {
        match self {
            Self::Slots => now as u64,
            Self::Continuous => now.floor() as u64 + 1,
        }
    }

    pub fn prefix(self) -> &'static str {
        match self {
            Self::Slots => "slot",
            Self::Continuous => "t =",
        }
    }
}

/// The load knob of a model, as the page's slider and the sweeps' axis show it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadKnob {
    /// The slider's label: "Load α".
    pub name: &'static str,
    /// The symbol: "α".
    pub symbol: &'static str,
    /// A sweep's x axis: "load α".
    pub axis: &'static str,
    pub help: &'static str,
    pub slider: SliderMax,
    pub step: f64,
    /// Whether the knob is the offered fraction of the capacity, so that its marks (the
    /// papers' guarantees) can be drawn on the occupancy chart too (PG-RR's α).
    pub is_utilization: bool,
}

/// Where the load slider ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SliderMax {
    Fixed(f64),
    /// A factor past the theory's first mark (the capacity), so the unstable side shows too.
    PastFirstMark(f64),
}

/// How the page draws a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawing {
    /// A bar per resource, stacked by the jobs.
    Bars,
    /// Slot grids: deployed slots, filled or reserved (PG-AS).
    Slots,
}

/// The time per job a model measures, for tables, charts and the page's stats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobTime {
    /// For people: "response time", "delay".
    pub name: &'static str,
    /// In attribute names and JSON: `data-mean-response`, `data-mean-delay`.
    pub key: &'static str,
    /// What is measured.
    pub definition: &'static str,
    /// Chart titles: the running mean of every policy, and per bin (class or type) of one.
    pub title: &'static str,
    pub bin_title: &'static str,
}

/// The reference lines of a reward chart (PG-AS): the global greedy's normalised reward U^(g),
/// what DRA tends to as L grows, and the LP optimum U*, what no policy can beat.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RewardReference {
    pub greedy: f64,
    pub optimal: f64,
}

/// A load value the theory marks, with its meaning.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadMark {
    pub load: f64,
    pub label: String,
    /// A short symbol for a chart's line ("α = 1", "ρ*/2"), where the label would not fit.
    pub short: &'static str,
}
