//! Guided tours, written as data next to the presets: each tells one paper's headline story in
//! a few steps. A step shows a scenario (a link), may ask the learner to predict, plays the
//! run to its horizon, then checks the outcome and states it with the run's own numbers.
//!
//! The checks are tested here on the CLI's reports; the page states them from its own
//! statistics, which are the same numbers (the browser test compares both).

use crate::ConfigError;
use crate::report::sig;
use crate::scenario::Scenario;

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
    /// What to look at, in two or three sentences.
    pub text: &'static str,
    /// The scenario, lanes and horizon, as a link query; the step plays it to the horizon.
    pub link: &'static str,
    /// A question to answer before playing, if any.
    pub question: Option<Question>,
    /// The part of the page to look at: `lanes`, `stats`, a chart's canvas id (`chart-queue`,
    /// `chart-occupancy`, `chart-job-time`, `chart-reward`) or PG-AS's `alpha-view`.
    pub highlight: &'static str,
    /// What the run must show.
    pub check: Check,
}

/// A prediction to make before the run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Question {
    pub prompt: &'static str,
    pub choices: &'static [&'static str],
    /// The index of the right choice.
    pub answer: usize,
}

/// The outcome a step expects, on the numbers the page shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// Lane `high`'s mean queue (mean jobs in system, for multiserver jobs) is at least
    /// `factor` times lane `low`'s.
    QueueAbove { high: &'static str, low: &'static str, factor: f64 },
    /// Lane `policy`'s normalised reward is at least `fraction` of U^(g), the global greedy's.
    RewardNearGreedy { policy: &'static str, fraction: f64 },
    /// PG-AS Fig. 2's curve of the scenario has these critical points, where U^(g) parts from
    /// U* and where it meets it again (`α = 6/7`, `α = 6`), whatever the race does.
    CriticalPoints { labels: &'static [&'static str] },
}

/// One lane's numbers at the end of a run, as a check reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneOutcome {
    /// The policy as links write it (`vqs`, `bf-js`).
    pub policy: String,
    /// As the page names it (`VQS (J=2)`).
    pub label: String,
    pub mean_queue: f64,
    pub normalized_reward: Option<f64>,
    /// U^(g) per server, where the workload has it.
    pub greedy_reward: Option<f64>,
}

impl Check {
    /// Whether the outcome holds, and a sentence saying what happened, with the numbers of
    /// the run (`lanes`) or of the scenario's theory.
    pub fn state(&self, lanes: &[LaneOutcome], scenario: &Scenario) -> Result<(bool, String), ConfigError> {
        let lane = |policy: &str| {
            lanes.iter().find(|l| l.policy == policy).ok_or_else(|| {
                ConfigError::new("tour", format!("the step's check names '{policy}', which does not race"))
            })
        };
        match *self {
            Check::QueueAbove { high, low, factor } => {
                let (h, l) = (lane(high)?, lane(low)?);
                let holds = h.mean_queue >= factor * l.mean_queue;
                let ratio = if l.mean_queue > 0.0 { h.mean_queue / l.mean_queue } else { f64::INFINITY };
                Ok((
                    holds,
                    format!(
                        "{}'s mean queue was {} against {} for {}: {} times as long.",
                        h.label,
                        sig(round2(h.mean_queue)),
                        sig(round2(l.mean_queue)),
                        l.label,
                        if ratio.is_finite() { sig(ratio.round()) } else { "infinitely many".into() }
                    ),
                ))
            }
            Check::RewardNearGreedy { policy, fraction } => {
                let p = lane(policy)?;
                let (Some(reward), Some(greedy)) = (p.normalized_reward, p.greedy_reward) else {
                    return Err(ConfigError::new("tour", format!("{policy} has no reward or U^(g) to compare")));
                };
                let share = reward / greedy;
                Ok((
                    share >= fraction,
                    format!(
                        "{} earned {} per server, {:.1}% of U^(g) = {}.",
                        p.label,
                        sig(round2(reward)),
                        100.0 * share,
                        sig(round2(greedy))
                    ),
                ))
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
                Ok((
                    found == labels,
                    format!(
                        "U^(g) equals U* up to {} and again from {}.",
                        found.first().map_or("?", String::as_str),
                        found.get(1).map_or("?", String::as_str)
                    ),
                ))
            }
        }
    }
}

/// Two decimals, as the statistics table shows them.
fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Every tour, one per paper at least.
pub const TOURS: &[Tour] = &[
    Tour {
        id: "vqs-vs-best-fit",
        title: "Rounding loses capacity, best fit gets stuck",
        paper: "PG-RR",
        steps: &[
            Step {
                text: "One server, jobs of size 0.4 or 0.6, at α = 0.7 of the capacity. VQS rounds each job up to \
                       its cell of the partition and guarantees only 2/3 of the capacity; best fit packs a 0.4 \
                       with a 0.6 and fills the server.",
                link: "preset=pgrr-a1&policy=vqs,bf-js&seed=1&horizon=200000",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which policy's queue will grow?",
                    choices: &["VQS", "BF-J/S", "both", "neither"],
                    answer: 0,
                }),
                check: Check::QueueAbove { high: "vqs", low: "bf-js", factor: 10.0 },
            },
            Step {
                text: "Now sizes 0.2 (two thirds of the jobs) and 0.5, served for exactly 100 slots. Best fit \
                       refills the server with 0.2 + 0.2 + 0.5, 90% full, and serves each size a little slower \
                       than it arrives; VQS alternates five 0.2s and two 0.5s. Best fit's guarantee is only 1/2.",
                link: "preset=pgrr-a2&policy=vqs,bf-js&seed=1&horizon=2000000",
                highlight: "chart-queue",
                question: Some(Question {
                    prompt: "Which policy's queue will grow this time?",
                    choices: &["VQS", "BF-J/S", "both", "neither"],
                    answer: 1,
                }),
                check: Check::QueueAbove { high: "bf-js", low: "vqs", factor: 10.0 },
            },
        ],
    },
    Tour {
        id: "msf-swings",
        title: "Most Servers First swings; Quickswap keeps it short",
        paper: "MSFQ",
        steps: &[Step {
            text: "32 cores; a tenth of the jobs need all 32. MSF keeps every core busy, yet it alternates long \
                   phases of large jobs and of small jobs, and the number in system swings into the thousands. \
                   MSFQ swaps back to large jobs as soon as fewer than ℓ = 31 small jobs run.",
            link: "preset=msfq-d1&policy=msf,msfq:l=31&seed=1&horizon=100000",
            highlight: "chart-queue",
            question: Some(Question {
                prompt: "Both keep the cores about as busy. Which has fewer jobs in the system?",
                choices: &["MSF", "MSFQ", "about the same"],
                answer: 1,
            }),
            check: Check::QueueAbove { high: "msf", low: "msfq:l=31", factor: 5.0 },
        }],
    },
    Tour {
        id: "mw-local-mixed-fleet",
        title: "MaxWeight with local refresh fails on a mixed fleet",
        paper: "GH-RA",
        steps: &[Step {
            text: "Servers of different sizes. MaxWeight that re-plans a server only when it empties keeps stale \
                   configurations on the busy servers; Algorithm 2's Poisson clocks keep choosing afresh and \
                   route by join-the-shortest-queue.",
            link: "preset=ghra-b3&policy=mw-local,alg2-jsq&seed=1",
            highlight: "chart-queue",
            question: Some(Question {
                prompt: "Which queue builds up?",
                choices: &["MaxWeight, local refresh", "Algorithm 2", "neither"],
                answer: 0,
            }),
            check: Check::QueueAbove { high: "mw-local", low: "alg2-jsq", factor: 10.0 },
        }],
    },
    Tour {
        id: "dra-approaches-greedy",
        title: "DRA climbs to the global greedy's reward",
        paper: "PG-AS",
        steps: &[
            Step {
                text: "180 empty servers. DRA reserves slots for the types that arrive and grows the greedy \
                   configurations; power-of-d packs greedily without reserving. U^(g), the global greedy's \
                   reward, is what DRA tends to as L grows; the LP optimum U* is out of reach of any greedy \
                   packing.",
                link: "preset=pgas-c4&policy=dra,po-d&seed=1",
                highlight: "chart-reward",
                question: Some(Question {
                    prompt: "How close to U^(g) does DRA get within 50 time units?",
                    choices: &["within 10%", "about half", "far below"],
                    answer: 0,
                }),
                check: Check::RewardNearGreedy { policy: "dra", fraction: 0.9 },
            },
            Step {
                text: "Why is DRA's target U^(g) and not U*? The α view at the foot of the page scales the workload: \
                   at low α the greedy packing serves everything and equals the optimum; from some α on, every \
                   server can run the best configuration full and they meet again. In between the greedy runs \
                   out of the small types the optimum mixes in.",
                link: "preset=pgas-c2&policy=dra&seed=1&horizon=20",
                highlight: "alpha-view",
                question: Some(Question {
                    prompt: "Over which range of α does U^(g) fall below U*?",
                    choices: &["from α = 6/7 to α = 6", "everywhere", "only above α = 6"],
                    answer: 0,
                }),
                check: Check::CriticalPoints { labels: &["α = 6/7", "α = 6"] },
            },
        ],
    },
];

/// The tour called `id`, or a message listing them.
pub fn tour(id: &str) -> Result<&'static Tour, ConfigError> {
    TOURS.iter().find(|t| t.id == id.trim()).ok_or_else(|| {
        let ids: Vec<&str> = TOURS.iter().map(|t| t.id).collect();
        ConfigError::new("tour", format!("unknown tour '{}'; tours are {}", id.trim(), ids.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::decode_link;
    use crate::report::{RunReport, run};

    fn outcomes(link: &str) -> Vec<LaneOutcome> {
        let (decoded, errors) = decode_link(link);
        assert!(errors.is_empty(), "{link}: {errors:?}");
        decoded
            .policies
            .iter()
            .map(|p| {
                let report: RunReport = run(decoded.preset.id, &decoded.scenario, p).unwrap().report;
                let json = serde_json::to_value(&report).unwrap();
                LaneOutcome {
                    policy: p.to_string(),
                    label: decoded.scenario.policy_label(p),
                    mean_queue: report.mean_queue,
                    normalized_reward: json.get("normalized_reward").and_then(|v| v.as_f64()),
                    greedy_reward: json.get("greedy_reward").and_then(|v| v.as_f64()),
                }
            })
            .collect()
    }

    /// Every step's link loads, its question is well formed, it highlights a part of the
    /// page that exists, and its check holds on the run.
    #[test]
    fn every_tour_tells_a_true_story() {
        let parts =
            ["lanes", "stats", "chart-queue", "chart-occupancy", "chart-job-time", "chart-reward", "alpha-view"];
        assert!(TOURS.iter().flat_map(|t| t.steps).all(|s| parts.contains(&s.highlight)));
        assert!(["PG-RR", "MSFQ", "GH-RA", "PG-AS"].iter().all(|paper| TOURS.iter().any(|t| t.paper == *paper)));
        for t in TOURS {
            assert!(!t.steps.is_empty(), "{}", t.id);
            for (k, step) in t.steps.iter().enumerate() {
                if let Some(q) = step.question {
                    assert!(q.answer < q.choices.len(), "{} step {}", t.id, k + 1);
                }
                let (decoded, _) = decode_link(step.link);
                let (holds, statement) = step.check.state(&outcomes(step.link), &decoded.scenario).unwrap();
                assert!(holds, "{} step {}: {statement}", t.id, k + 1);
            }
        }
        assert!(tour("nope").unwrap_err().message.contains("tours are vqs-vs-best-fit"));
    }

    #[test]
    fn statements_say_the_numbers() {
        let lane = |policy: &str, label: &str, q: f64| LaneOutcome {
            policy: policy.into(),
            label: label.into(),
            mean_queue: q,
            normalized_reward: Some(1020.65),
            greedy_reward: Some(1065.33),
        };
        let check = Check::QueueAbove { high: "vqs", low: "bf-js", factor: 10.0 };
        let any = crate::scenario::Setup::from_preset("pgrr-a1").unwrap().scenario;
        let (holds, text) =
            check.state(&[lane("vqs", "VQS (J=2)", 100.014), lane("bf-js", "BF-J/S", 2.84)], &any).unwrap();
        assert!(holds);
        assert_eq!(text, "VQS (J=2)'s mean queue was 100.01 against 2.84 for BF-J/S: 35 times as long.");
        let (holds, _) = check.state(&[lane("vqs", "VQS", 3.0), lane("bf-js", "BF-J/S", 2.0)], &any).unwrap();
        assert!(!holds);
        assert!(check.state(&[lane("vqs", "VQS", 3.0)], &any).is_err());
        let (holds, text) =
            Check::RewardNearGreedy { policy: "dra", fraction: 0.9 }.state(&[lane("dra", "DRA", 0.0)], &any).unwrap();
        assert!(holds);
        assert_eq!(text, "DRA earned 1020.65 per server, 95.8% of U^(g) = 1065.33.");
    }
}
