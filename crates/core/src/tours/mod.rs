//! Guided tours, written as data next to the presets: each tells one paper's headline story in
//! a few steps. A step shows a scenario (a link), may ask the learner to predict, plays the
//! run to its horizon, then checks the outcome and states it with the run's own numbers.
//!
//! The checks are tested here on the CLI's reports; the page states them from its own
//! statistics, which are the same numbers (the browser test compares both).

use crate::ConfigError;
use crate::changes::Changes;
use crate::exercises::Exercise;
use crate::format::{format_mean, group_decimal};
use crate::metrics::{Recovery, Stretch, Verdict};
use crate::model::table::{share, sig};
use crate::scenario::Scenario;
use crate::stability::Finder;
use std::fmt::Write as _;

/// A guided tour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tour {
    /// The name in links (`tour=ID`) and in `packlab tours`.
    pub id: &'static str,
    pub title: &'static str,
    /// The paper whose story it tells.
    pub paper: &'static str,
    pub steps: &'static [Step],
}

/// One step of a tour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// What to look at, in two or three sentences, without giving the answer away.
    pub text: &'static str,
    /// Why the run came out as it did, shown with the verdict (empty: the verdict says it all).
    pub after: &'static str,
    /// The scenario, lanes and horizon, as a link query; the step plays it to the horizon (and
    /// opens the stability map where it holds `map=`).
    pub link: &'static str,
    /// A question to answer before playing, if any.
    pub question: Option<Question>,
    /// The part of the page to look at: `lanes`, `stats`, a chart's canvas id (`chart-queue`,
    /// `chart-occupancy`, `chart-job-time`, `chart-reward`) or PG-AS's `alpha-view`.
    pub highlight: &'static str,
    /// What the run must show.
    pub check: Check,
    /// Where in the paper the step's story and claims come from (section, figure), for whoever
    /// checks the text; not shown.
    pub source: &'static str,
    /// The values the text states, each as the form shows it: a step's numbers must be the
    /// form's, and a step that changes a key or the lanes from the step before says so.
    pub states: &'static [Stated],
}

/// A value a step's text states: the form's key (or `lanes`, the policies as links write
/// them), its value as the form shows it, and the words of the text that state it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stated {
    pub key: &'static str,
    pub value: &'static str,
    pub said: &'static str,
}

/// The key of [`Stated`] that names the lanes racing rather than a scenario key.
pub const LANES: &str = "lanes";

/// A prediction to make before the run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Question {
    pub prompt: &'static str,
    pub choices: &'static [&'static str],
    /// The index of the right choice.
    pub answer: usize,
}

/// The outcome a step expects, on what the page shows: the stats table's numbers and verdicts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// "Which queue will grow?": lane `grows` is judged not stable (its queue grows over the
    /// second half of the run) and lane `settles` stable. A queue that is merely long does not
    /// pass; an undecided verdict decides nothing.
    Grows { grows: &'static str, settles: &'static str },
    /// "Which has fewer jobs waiting?": both lanes are judged stable, and lane `longer`'s mean
    /// waiting is at least `factor` times lane `shorter`'s.
    Shorter { longer: &'static str, shorter: &'static str, factor: f64 },
    /// Lane `policy`'s normalised reward is at least `fraction` of U^(g), the global greedy's.
    RewardNearGreedy { policy: &'static str, fraction: f64 },
    /// PG-AS Fig. 2's curve of the scenario has these critical points, where U^(g) parts from
    /// U* and where it meets it again (`α = 6/7`, `α = 6`), whatever the race does.
    CriticalPoints { labels: &'static [&'static str] },
    /// The stability map's frontier of lane `policy` (the middle of its interval [lo, hi]) is
    /// within `within` (relative) of `fraction` of the capacity. Stated from the finished map
    /// ([`Check::state_map`]), not from the race.
    Frontier { policy: &'static str, fraction: f64, within: f64 },
    /// The stability map's interval of lane `below` lies wholly under lane `at_capacity`'s
    /// (its hi below the other's lo), and `at_capacity`'s frontier (the middle of its interval)
    /// is within `within` (relative) of the capacity: one policy keeps the capacity, the other
    /// loses part of it. Stated from the finished map ([`Check::state_map`]).
    FrontierBelow { below: &'static str, at_capacity: &'static str, within: f64 },
    /// "Which queue drains first once the load comes back?": at the run's last change (the
    /// return), lane `first`'s queue is back within the band it held before the surge (RES-94)
    /// and lane `later`'s is not, or took longer.
    DrainsFirst { first: &'static str, later: &'static str },
    /// "Whose queue climbs higher during the surge?": from the run's first change to the next,
    /// lane `higher`'s queue peaks at least `factor` times as high as lane `lower`'s.
    PeaksHigher { higher: &'static str, lower: &'static str, factor: f64 },
    /// "What does a surge do to a loss system's rejections and reward?": in the stretch from
    /// the run's first change to the next (the surge, RES-94's loss-system half), lane `policy`
    /// turns away a larger share of its arrivals than before it and still earns at least
    /// `factor` times its reward per server before it. Stated with every stretch of the lane.
    SurgePays { policy: &'static str, factor: f64 },
    /// The learner writes the exercise's policy as a script, and the exercise's checker races
    /// it against the reference on the step's arrivals ([`crate::exercises::Checker`]): not a
    /// check of the race the step plays.
    Exercise(&'static Exercise),
}

/// One lane's numbers at the end of a run, as a check reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneOutcome {
    /// The policy as links write it (`vqs`, `bf-js`).
    pub policy: String,
    /// As the page names it (`VQS (J=2)`).
    pub label: String,
    /// The mean waiting (the stats table's "Mean waiting").
    pub mean_queue: f64,
    /// The run's verdict on its queue ([`crate::view::LiveRun::verdict`]); `None` where
    /// nothing waits.
    pub verdict: Option<Verdict>,
    pub normalized_reward: Option<f64>,
    /// U^(g) per server, where the workload has it.
    pub greedy_reward: Option<f64>,
    /// U* per server (the LP optimum), where the workload has it.
    pub optimal_reward: Option<f64>,
    /// How its queue recovered from each change of the scenario (empty without changes).
    pub recovery: Vec<Recovery>,
    /// In a loss system, its reward and rejections before the first change and from each
    /// change on (empty without changes).
    pub stretches: Vec<Stretch>,
}

impl Check {
    /// Whether the outcome holds (`None`: a verdict it rests on is not yet decided), and a
    /// sentence saying what happened, with the numbers of the run (`lanes`) or of the
    /// scenario's theory.
    pub fn state(&self, lanes: &[LaneOutcome], scenario: &Scenario) -> Result<(Option<bool>, String), ConfigError> {
        let lane = |policy: &str| {
            lanes.iter().find(|l| l.policy == policy).ok_or_else(|| {
                ConfigError::new("tour", format!("the step's check names '{policy}', which does not race"))
            })
        };
        match *self {
            Check::Grows { grows, settles } => {
                let (g, s) = (lane(grows)?, lane(settles)?);
                let (gv, sv) = (verdict(g)?, verdict(s)?);
                let holds = decided(&[gv, sv]).then_some(gv == Verdict::Unstable && sv == Verdict::Stable);
                Ok((holds, format!("{}; {}.", queue_outcome(g, gv), queue_outcome(s, sv))))
            }
            Check::Shorter { longer, shorter, factor } => {
                let (l, s) = (lane(longer)?, lane(shorter)?);
                let (lv, sv) = (verdict(l)?, verdict(s)?);
                let holds = decided(&[lv, sv])
                    .then_some(lv == Verdict::Stable && sv == Verdict::Stable && l.mean_queue >= factor * s.mean_queue);
                Ok((holds, format!("{}; {}.", queue_outcome(s, sv), queue_outcome(l, lv))))
            }
            Check::RewardNearGreedy { policy, fraction } => {
                let p = lane(policy)?;
                let (Some(reward), Some(greedy)) = (p.normalized_reward, p.greedy_reward) else {
                    return Err(ConfigError::new("tour", format!("{policy} has no reward or U^(g) to compare")));
                };
                // The table's "÷ U^(g)" column (three decimals) and the note's U^(g) (one).
                let share = format!("{:.3}", reward / greedy);
                Ok((
                    Some(reward / greedy >= fraction),
                    format!(
                        "{} earned {} per server, {share} of U^(g) = {}.",
                        p.label,
                        group_decimal(reward, 1),
                        group_decimal(greedy, 1)
                    ),
                ))
            }
            Check::DrainsFirst { first, later } => {
                let unit = scenario.info().time.plural();
                let (f, l) = (lane(first)?, lane(later)?);
                let (rf, rl) = (last_change(f)?, last_change(l)?);
                let holds = match (rf.drain, rl.drain) {
                    (Some(a), Some(b)) => a < b,
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                Ok((
                    Some(holds),
                    format!(
                        "After the load came back at {}: {}; {}.",
                        rf.at,
                        drained(f, rf, unit),
                        drained(l, rl, unit)
                    ),
                ))
            }
            Check::PeaksHigher { higher, lower, factor } => {
                let (h, l) = (lane(higher)?, lane(lower)?);
                let (rh, rl) = (first_change(h)?, first_change(l)?);
                // A surge is a change of the load; a lost server is one of the servers.
                let changes = scenario.any().get(crate::changes::KEY).and_then(|c| Changes::parse(&c).ok());
                let key = changes.as_ref().and_then(|c| c.iter().find(|c| c.at == rh.at).map(|c| c.key.clone()));
                let during = match key.as_deref() {
                    Some("load") | None => "During the surge from",
                    Some(_) => "After the change at",
                };
                Ok((
                    Some(rh.peak >= factor * rl.peak),
                    format!(
                        "{during} {}: {} peaked at {}, {} at {}.",
                        rh.at,
                        h.label,
                        sig(rh.peak),
                        l.label,
                        sig(rl.peak)
                    ),
                ))
            }
            Check::SurgePays { policy, factor } => {
                let l = lane(policy)?;
                let [before, surge, ..] = l.stretches.as_slice() else {
                    return Err(ConfigError::new(
                        "tour",
                        format!("{} has no stretch before and after a change of its load", l.label),
                    ));
                };
                let holds = surge.blocking() > before.blocking() && surge.reward >= factor * before.reward;
                let mut said = format!(
                    "{}: before the surge {} per server with {} of arrivals rejected; during it from {} {} per \
                     server with {} rejected",
                    l.label,
                    sig(before.reward),
                    share(before.blocking()),
                    surge.change.unwrap_or_default(),
                    sig(surge.reward),
                    share(surge.blocking())
                );
                for after in &l.stretches[2..] {
                    let _ = write!(
                        said,
                        "; from {} {} per server with {} rejected",
                        after.change.unwrap_or_default(),
                        sig(after.reward),
                        share(after.blocking())
                    );
                }
                said.push('.');
                Ok((Some(holds), said))
            }
            Check::Frontier { .. } | Check::FrontierBelow { .. } => {
                Err(ConfigError::new("tour", "this step's outcome is the stability map's, stated when it is done"))
            }
            Check::Exercise(_) => {
                Err(ConfigError::new("tour", "this step's outcome is the check of the learner's script"))
            }
            Check::CriticalPoints { labels } => {
                // The theory's graph against the load marks its critical points.
                let graph = scenario
                    .any()
                    .theory()
                    .into_iter()
                    .next()
                    .ok_or_else(|| ConfigError::new("tour", "this scenario's theory draws no curve against the load"))?
                    .map_err(|e| ConfigError::new("tour", e))?;
                let found: Vec<String> = graph.x_marks.iter().map(|m| m.label.clone()).collect();
                let mut statement = format!(
                    "U^(g) equals U* up to {} and again from {}.",
                    found.first().map_or("?", String::as_str),
                    found.get(1).map_or("?", String::as_str)
                );
                // The run says the same at its own α, in the table's numbers: what DRA earns
                // tends to U^(g), below U* where they differ.
                let run =
                    lanes.iter().find_map(|l| Some((l, l.normalized_reward?, l.greedy_reward?, l.optimal_reward?)));
                if let Some((lane, reward, greedy, optimal)) = run {
                    let (g, o) = (group_decimal(greedy, 1), group_decimal(optimal, 1));
                    let relation = if g == o {
                        "equal to"
                    } else if greedy < optimal {
                        "below"
                    } else {
                        "above"
                    };
                    statement.push_str(&format!(
                        " At this run's α, {} earned {} per server, U^(g) = {g}, {relation} U* = {o}.",
                        lane.label,
                        group_decimal(reward, 1)
                    ));
                }
                Ok((Some(found == labels), statement))
            }
        }
    }
}

impl Check {
    /// Whether the outcome is the stability map's ([`Check::state_map`]) rather than the race's.
    pub fn reads_map(&self) -> bool {
        matches!(self, Check::Frontier { .. } | Check::FrontierBelow { .. })
    }

    /// The exercise the step sets, if it asks the learner to write a policy.
    pub fn exercise(&self) -> Option<&'static Exercise> {
        match *self {
            Check::Exercise(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the finished map puts the frontiers where [`Check::Frontier`] or
    /// [`Check::FrontierBelow`] expects, and a sentence with the map's intervals (each lane's,
    /// at the map's first axis value), the capacity and the proven load.
    pub fn state_map(&self, finder: &Finder) -> Result<(Option<bool>, String), ConfigError> {
        let labels = finder.labels();
        let index = |policy: &str| {
            finder.setup.policies.iter().position(|p| p.to_string() == policy).ok_or_else(|| {
                ConfigError::new("tour", format!("the step's check names '{policy}', which the map does not run"))
            })
        };
        let cells = || finder.cells.iter().filter(|c| c.value == 0);
        let cell_of = |index: usize| cells().find(|c| c.policy == index).expect("the map has a cell per lane");
        let interval = |c: &crate::stability::Cell| c.boundary().filter(|(_, hi)| hi.is_finite());
        // The frontier the sentence starts from.
        let first = match *self {
            Check::Frontier { policy, .. } | Check::FrontierBelow { below: policy, .. } => index(policy)?,
            _ => return Err(ConfigError::new("tour", "this step's outcome is the race's, not the map's")),
        };
        let cell = cell_of(first);
        let (Some((lo, hi)), Some(capacity)) = (interval(cell), cell.theory.capacity.as_ref()) else {
            return Err(ConfigError::new(
                "tour",
                format!("{} has no interval or no capacity to compare", labels[first]),
            ));
        };
        // The numbers the map's table shows, so the statement can be checked against the page.
        let mut statement = format!(
            "{}'s frontier lies in [{}, {}], the capacity is {}",
            labels[first],
            sig(lo),
            sig(hi),
            sig(capacity.load)
        );
        if let Some(proven) = cell.theory.proven_load() {
            statement += &format!(" and its proven load {}", sig(proven));
        }
        for other in cells().filter(|c| c.policy != first) {
            match (interval(other), other.lo) {
                (Some((lo, hi)), _) => {
                    statement += &format!("; {}'s in [{}, {}]", labels[other.policy], sig(lo), sig(hi))
                }
                (None, Some(lo)) => statement += &format!("; {} stable up to {}", labels[other.policy], sig(lo.load)),
                _ => {}
            }
        }
        // Where the map places a frontier against an expected place, `target` give or take
        // `within` of it: an interval inside that band places it there, one clear of it
        // elsewhere; one that straddles an edge of it (an undecided band reaching past it)
        // decides neither way, and the sentence says so.
        let mut place = |label: &str, (lo, hi): (f64, f64), target: f64, within: f64| {
            let (low, high) = (target * (1.0 - within), target * (1.0 + within));
            if low <= lo && hi <= high {
                Some(true)
            } else if hi < low || lo > high {
                Some(false)
            } else {
                statement += &format!(
                    "; {label}'s interval reaches past {}-{}, so the map does not place its frontier",
                    sig(low),
                    sig(high)
                );
                None
            }
        };
        let holds = match *self {
            Check::FrontierBelow { at_capacity, within, .. } => {
                let top = index(at_capacity)?;
                let (top_lo, top_hi) = interval(cell_of(top))
                    .ok_or_else(|| ConfigError::new("tour", format!("{} has no interval to compare", labels[top])))?;
                let at_top = place(&labels[top], (top_lo, top_hi), capacity.load, within);
                // Below it only when the intervals are apart; overlapping, the map cannot tell.
                let below = if hi < top_lo {
                    Some(true)
                } else if lo > top_hi {
                    Some(false)
                } else {
                    None
                };
                match (below, at_top) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                }
            }
            Check::Frontier { fraction, within, .. } => {
                place(&labels[first], (lo, hi), fraction * capacity.load, within)
            }
            _ => unreachable!("a map's check, matched above"),
        };
        statement.push('.');
        Ok((holds, statement))
    }
}

/// Whether every verdict is decided: a check resting on an undecided one says so instead.
fn decided(verdicts: &[Verdict]) -> bool {
    verdicts.iter().all(|v| v.is_decided())
}

/// A lane's recovery from the run's first change, which a surge check needs.
fn first_change(lane: &LaneOutcome) -> Result<&Recovery, ConfigError> {
    lane.recovery.first().ok_or_else(|| no_change(lane))
}

/// A lane's recovery from the run's last change (the load's return after a surge).
fn last_change(lane: &LaneOutcome) -> Result<&Recovery, ConfigError> {
    lane.recovery.last().ok_or_else(|| no_change(lane))
}

fn no_change(lane: &LaneOutcome) -> ConfigError {
    ConfigError::new("tour", format!("{} has no change of its load to recover from", lane.label))
}

/// How a lane's queue drained after a change, in the recovery table's own numbers.
fn drained(lane: &LaneOutcome, r: &Recovery, unit: &str) -> String {
    let band = format!("{}..{}", sig(r.band[0]), sig(r.band[1]));
    match r.drain {
        Some(d) => format!("{} was back within {band} after {} {unit} (peak {})", lane.label, sig(d), sig(r.peak)),
        None => format!("{} was not back within {band} by the end (peak {})", lane.label, sig(r.peak)),
    }
}

/// A lane's verdict, which a queue check needs.
fn verdict(lane: &LaneOutcome) -> Result<Verdict, ConfigError> {
    lane.verdict.ok_or_else(|| {
        ConfigError::new("tour", format!("{} has no queue to judge: nothing waits in this model", lane.label))
    })
}

/// What a lane's queue did, with the table's verdict and mean waiting.
fn queue_outcome(lane: &LaneOutcome, verdict: Verdict) -> String {
    format!(
        "{}'s queue {} ({}), mean waiting {}",
        lane.label,
        match verdict {
            Verdict::Unstable => "grew",
            Verdict::Stable => "settled",
            Verdict::Undecided => "has not shown whether it settles",
        },
        verdict.word(),
        format_mean(lane.mean_queue, 1)
    )
}

/// The tour called `id`, or a message listing them.
pub fn tour(id: &str) -> Result<&'static Tour, ConfigError> {
    TOURS.iter().find(|t| t.id == id.trim()).ok_or_else(|| {
        let ids: Vec<&str> = TOURS.iter().map(|t| t.id).collect();
        ConfigError::new("tour", format!("unknown tour '{}'; tours are {}", id.trim(), ids.join(", ")))
    })
}

mod list;
pub use list::TOURS;

#[cfg(test)]
mod tests;
