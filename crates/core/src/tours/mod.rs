//! Guided tours, written as data next to the presets: each tells one paper's headline story in
//! a few steps. A step shows a scenario (a link), may ask the learner to predict, plays the
//! run to its horizon, then checks the outcome and states it with the run's own numbers.
//!
//! The checks are tested here on the CLI's reports; the page states them from its own
//! statistics, which are the same numbers (the browser test compares both).

use crate::ConfigError;
use crate::exercises::{self, Exercise};
use crate::format::{format_mean, group_decimal};
use crate::metrics::Verdict;
use crate::model::table::sig;
use crate::scenario::Scenario;
use crate::stability::Finder;

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
}

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

/// Every tour, one per paper at least.
pub const TOURS: &[Tour] = &[
    Tour {
        id: "vqs-vs-best-fit",
        title: "Rounding against best fit on one server",
        paper: "PG-RR",
        steps: &[
            Step {
                text: "One server, jobs of size 0.4 or 0.6, at α = 0.7 of the capacity. VQS rounds each job up to \
                       its cell of the partition and guarantees only 2/3 of the capacity; best fit packs a 0.4 \
                       with a 0.6 and fills the server.",
                after: "",
                link: "preset=pgrr-a1&policy=vqs,bf-js&seed=1",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which policy's queue will grow?",
                    choices: &["VQS", "BF-J/S", "both", "neither"],
                    answer: 0,
                }),
                check: Check::Grows { grows: "vqs", settles: "bf-js" },
                source: "PG-RR (journal) §VII-A example 1, Fig. 3a; the 2/3 bound: §V",
            },
            Step {
                text: "Now sizes 0.2 (two thirds of the jobs) and 0.5, and every job is served for exactly 100 \
                       slots, not for a random time. The load is the same 0.7 of the capacity; VQS still rounds \
                       each job up to its cell, best fit still packs each server as full as it can. The papers' \
                       guarantees assume geometric service times.",
                after: "Why: best fit refills the server with 0.2 + 0.2 + 0.5, 90% full, and serves each size a \
                        little slower than it arrives; VQS alternates five 0.2s and two 0.5s. Best fit is \
                        guaranteed 1/2 of the capacity when service times are geometric; the paper puts this \
                        example's failure down to the fixed ones.",
                link: "preset=pgrr-a2&policy=vqs,bf-js&seed=1&horizon=2000000",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which policy's queue will grow this time?",
                    choices: &["VQS", "BF-J/S", "both", "neither"],
                    answer: 1,
                }),
                check: Check::Grows { grows: "bf-js", settles: "vqs" },
                source: "PG-RR (journal) §VII-A example 2 and the paragraph after it, Fig. 3b; the 1/2 bound: \
                         §IV, under §II's geometric service times",
            },
            Step {
                text: "Back to one server and sizes 0.4 and 0.6. The stability map under the charts runs each \
                       policy at many loads and narrows down the largest load at which its queue stays put: its \
                       frontier. The theorem promises VQS at least 2/3 of the capacity, whatever the sizes; the \
                       map shows what it keeps on this mix, and best fit's next to it.",
                after: "Why: VQS rounds each 0.4 up to half the server and each 0.6 up to all of it, so a server \
                        never holds a 0.4 beside a 0.6, and the rounded jobs take 3/2 of the room the real ones \
                        need: on this mix the 2/3 the theorem promises is all VQS keeps. Best fit pairs a 0.4 \
                        with a 0.6 and keeps the whole capacity. Follow a tested load in the map's table to watch \
                        the queue there.",
                link: "preset=pgrr-a1&policy=vqs,bf-js&seed=1&horizon=1000000&map=4",
                highlight: "stability-map",
                question: Some(Question {
                    prompt: "Where will VQS's frontier sit on this mix?",
                    choices: &[
                        "at 2/3 of the capacity, what the theorem promises",
                        "between 2/3 and the capacity",
                        "at the capacity, as best fit's",
                    ],
                    answer: 0,
                }),
                check: Check::Frontier { policy: "vqs", fraction: 2.0 / 3.0, within: 0.05 },
                source: "PG-RR (journal) §V (Theorem 3: VQS keeps 2/3 of the capacity) and §VII-A example 1 \
                         (the bound is tight on A1's mix)",
            },
        ],
    },
    Tour {
        id: "msf-swings",
        title: "Most Servers First against Quickswap",
        paper: "MSFQ",
        steps: &[
            Step {
                text: "32 cores; a tenth of the jobs need all 32. MSF (most servers first) always starts the jobs \
                   that need the most cores. MSFQ with ℓ = 31 stops starting small jobs as soon as at most ℓ of \
                   them are left (n₁ ≤ 31), lets those finish, then serves the large jobs.",
                after: "Why: MSF keeps every core busy, yet it alternates long phases of large jobs and of small \
                    jobs, and the number in system swings into the thousands; MSFQ's quick switch keeps both \
                    phases short.",
                link: "preset=msfq-d1&policy=msf,msfq:l=31&seed=1&horizon=400000",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Both keep the cores about as busy. Under which do fewer jobs wait?",
                    choices: &["MSF", "MSFQ", "about the same"],
                    answer: 1,
                }),
                check: Check::Shorter { longer: "msf", shorter: "msfq:l=31", factor: 5.0 },
                source: "MSFQ §1 Fig. 1 (k = 32, ℓ = k − 1), §4.1 (MSF's phases), §4.2 (phase 3 ends when n₁ ≤ ℓ)",
            },
            Step {
                text: "The same 32 cores and the same mix of jobs. The stability map under the charts runs each \
                   policy at many arrival rates and narrows down the largest at which its queue stays put: its \
                   frontier. No policy can keep more than k / E[need × size] = 32 / 4.1 = 7.805 jobs per time \
                   unit, the capacity; the first step ran both at 7.5, just below it, MSF with a long queue.",
                after: "Why: when every job needs one core or all of them, MSFQ never leaves idle for long a core \
                    that a waiting job could use, and Theorem 3 proves it throughput-optimal: its queue stays put \
                    up to the capacity. So does MSF's (Theorem 1: MSF is MSFQ with ℓ = 0), but look at its row: \
                    near and past the capacity its phases grow with its queue (a phase of large jobs serves one \
                    per time unit while 7.8 arrive), so no run of the map's length decides there, and the map \
                    says so with an undecided band rather than guess. Follow a tested load in the map's table \
                    to watch the queue there.",
                link: "preset=msfq-d1&policy=msf,msfq:l=31&seed=1&horizon=400000&map=4",
                highlight: "stability-map",
                question: Some(Question {
                    prompt: "Where will MSFQ's frontier sit on this mix?",
                    choices: &[
                        "at the capacity, 7.805",
                        "near 7.5, where MSF's queue was so long in the first step",
                        "well below 7.5",
                    ],
                    answer: 0,
                }),
                check: Check::Frontier { policy: "msfq:l=31", fraction: 1.0, within: 0.05 },
                source: "MSFQ §5.1 (Theorem 3: MSFQ is throughput-optimal for every ℓ; Theorem 1, ℓ = 0, is MSF: §4.2), \
                     §1 Fig. 1 (k = 32, λ = 7.5 close to the limit 7.805)",
            },
        ],
    },
    Tour {
        id: "mw-local-mixed-fleet",
        title: "MaxWeight with local refresh on a mixed fleet",
        paper: "GH-RA",
        steps: &[
            Step {
                text: "Servers of different sizes. MaxWeight that re-plans a server only when it empties keeps \
                       stale configurations on the busy servers; Algorithm 2's Poisson clocks keep choosing afresh \
                       and route by join-the-shortest-queue.",
                after: "",
                link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which queue builds up?",
                    choices: &["MaxWeight, local refresh", "Algorithm 2", "neither"],
                    answer: 0,
                }),
                check: Check::Grows { grows: "mw-local", settles: "alg2-jsq" },
                source: "GH-RA §VII-B (10 servers of two sizes, ζ = 0.9: MW-local unstable, Algorithm 2 stable)",
            },
            Step {
                text: "The same five small and five large servers. The stability map under the charts runs each \
                       policy at many traffic intensities ζ and narrows down the largest at which its queue stays \
                       put: its frontier. ζ = 1 is the boundary of the capacity region, and Theorem 2 proves that \
                       Algorithm 2 keeps all of it when its weights grow slower than log Q (the map draws that \
                       line apart: these clocks are the paper's simulations', which grow as log Q); whether \
                       MaxWeight with local refresh keeps it on servers of two sizes, the paper leaves open. The \
                       first step ran both at ζ = 0.9.",
                after: "Why: MaxWeight with local refresh picks a server's configuration only when the server is \
                        empty, and a busy large server is seldom empty, so it keeps serving a mix chosen for \
                        queues long gone: part of the capacity region is lost, and the first step's ζ = 0.9 lies \
                        beyond its frontier. Algorithm 2's clocks and dummy jobs keep every server's configuration \
                        following its queues, so its frontier is the boundary. Follow a tested load in the map's \
                        table to watch the queue there.",
                link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1&map=4",
                highlight: "stability-map",
                question: Some(Question {
                    prompt: "Where will the frontier of MaxWeight with local refresh sit against Algorithm 2's?",
                    choices: &[
                        "below it: MaxWeight loses part of the capacity region",
                        "at the same place, the boundary ζ = 1",
                        "above it",
                    ],
                    answer: 0,
                }),
                check: Check::FrontierBelow { below: "mw-local", at_capacity: "alg2-jsq", within: 0.05 },
                source: "GH-RA §VII-B (MW-local's stability on a heterogeneous fleet is open; Fig. 3 at ζ = 0.9), \
                         §IV Theorem 2 (Algorithm 2 is throughput-optimal), §II (the capacity region C)",
            },
        ],
    },
    Tour {
        id: "dra-approaches-greedy",
        title: "DRA climbs to the global greedy's reward",
        paper: "PG-AS",
        steps: &[
            Step {
                text: "180 empty servers. DRA reserves slots for the types that arrive and grows the greedy \
                   configurations; power-of-d packs greedily without reserving. U^(g), the global greedy's \
                   reward, is what DRA tends to as L grows; the LP optimum U* can be higher (in the paper's \
                   Fig. 2 example, U^(g) falls to about 0.86 of U*).",
                after: "",
                link: "preset=pgas-c4&policy=dra,po-d&seed=1",
                highlight: "chart-reward",
                question: Some(Question {
                    prompt: "How close to U^(g) does DRA get within 50 time units?",
                    choices: &["within 10%", "about half", "far below"],
                    answer: 0,
                }),
                check: Check::RewardNearGreedy { policy: "dra", fraction: 0.9 },
                source: "PG-AS §4 (DRA; Theorem 4.1: its limit is U^(g)), §7.1 Fig. 4 (L = 180); ≈ 0.862 of U* at α = 1: §7.1 \
                         after Fig. 2",
            },
            Step {
                text: "Why is DRA's target U^(g) and not U*? The α view at the foot of the page scales the workload: \
                   at low α the greedy packing serves everything and equals the optimum; from some α on, every \
                   server can run the best configuration full and they meet again. In between the greedy runs \
                   out of the small types the optimum mixes in.",
                after: "",
                link: "preset=pgas-c2&policy=dra&seed=1&horizon=20",
                highlight: "alpha-view",
                question: Some(Question {
                    prompt: "Over which range of α does U^(g) fall below U*?",
                    choices: &["from α = 6/7 to α = 6", "everywhere", "only above α = 6"],
                    answer: 0,
                }),
                check: Check::CriticalPoints { labels: &["α = 6/7", "α = 6"] },
                source: "PG-AS §7.1, Fig. 2 and the paragraph after it (critical points α = 6/7 and α = 6)",
            },
        ],
    },
    // The exercises, a tour each (a new exercise is one more such entry).
    Tour {
        id: exercises::BEST_FIT.id,
        title: "Write best fit yourself",
        paper: "PG-RR",
        steps: &[exercise_step(&exercises::BEST_FIT)],
    },
    Tour {
        id: exercises::MSF.id,
        title: "Write Most Servers First yourself",
        paper: "MSFQ",
        steps: &[exercise_step(&exercises::MSF)],
    },
    Tour {
        id: exercises::JSQ.id,
        title: "Write join the shortest queue yourself",
        paper: "GH-RA",
        steps: &[exercise_step(&exercises::JSQ)],
    },
];

/// The step of an exercise: its task, on its scenario (the reference racing alone, to play).
const fn exercise_step(exercise: &'static Exercise) -> Step {
    Step {
        text: exercise.task,
        after: "",
        link: exercise.link,
        question: None,
        highlight: "lanes",
        check: Check::Exercise(exercise),
        source: exercise.source,
    }
}

/// The tour called `id`, or a message listing them.
pub fn tour(id: &str) -> Result<&'static Tour, ConfigError> {
    TOURS.iter().find(|t| t.id == id.trim()).ok_or_else(|| {
        let ids: Vec<&str> = TOURS.iter().map(|t| t.id).collect();
        ConfigError::new("tour", format!("unknown tour '{}'; tours are {}", id.trim(), ids.join(", ")))
    })
}

#[cfg(test)]
mod tests;
