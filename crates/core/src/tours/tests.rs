//! The tours' stories checked on the runs the page plays, and their sentences.

use super::*;
use crate::limits::PAGE_MAX_POINTS;
use crate::link::decode_link;
use crate::view::{LiveRun, Watch};

/// The lanes as the page reads them when a step's run ends: each policy run to the horizon
/// with the page's series, its readings and its verdict.
fn outcomes(link: &str) -> Vec<LaneOutcome> {
    let (decoded, errors) = decode_link(link);
    assert!(errors.is_empty(), "{link}: {errors:?}");
    let scenario = &decoded.scenario;
    decoded
        .policies
        .iter()
        .map(|p| {
            let mut run: Box<dyn LiveRun> = crate::report::live_run(scenario, p, Watch::page(PAGE_MAX_POINTS)).unwrap();
            run.run(scenario.any().window().horizon).unwrap();
            let readings = run.readings();
            LaneOutcome {
                policy: p.to_string(),
                label: scenario.policy_label(p),
                mean_queue: readings.mean_queue,
                verdict: run.verdict().map(|j| j.verdict),
                normalized_reward: readings.mean_reward,
                greedy_reward: scenario.any().reward_reference().map(|r| r.greedy),
                optimal_reward: scenario.any().reward_reference().map(|r| r.optimal),
                recovery: run.recoveries().to_vec(),
                stretches: run.stretches(),
            }
        })
        .collect()
}

/// Every step's link loads, its question is well formed, it highlights a part of the
/// page that exists, and its check holds on the run as the page plays it.
#[test]
fn every_tour_tells_a_true_story() {
    let parts = [
        "lanes",
        "stats",
        "chart-queue",
        "chart-occupancy",
        "chart-job-time",
        "chart-reward",
        "alpha-view",
        "stability-map",
    ];
    assert!(TOURS.iter().flat_map(|t| t.steps).all(|s| parts.contains(&s.highlight)));
    assert!(["PG-RR", "MSFQ", "GH-RA", "PG-AS"].iter().all(|paper| TOURS.iter().any(|t| t.paper == *paper)));
    for t in TOURS {
        assert!(!t.steps.is_empty(), "{}", t.id);
        for (k, step) in t.steps.iter().enumerate() {
            assert!(step.source.starts_with(t.paper), "{} step {} cites its paper", t.id, k + 1);
            if let Some(q) = step.question {
                assert!(q.answer < q.choices.len(), "{} step {}", t.id, k + 1);
            }
            let (decoded, _) = decode_link(step.link);
            // An exercise's step is checked on the learner's script (`exercises`' tests): its
            // link is the exercise's, and its model gives the editor a context.
            if let Some(exercise) = step.check.exercise() {
                assert_eq!((step.link, step.text), (exercise.link, exercise.task), "{}", t.id);
                assert!(decoded.scenario.scripting().is_some(), "{}", t.id);
                assert!(step.state_is_the_checkers(&decoded.scenario), "{}", t.id);
                continue;
            }
            // A step about the map opens it (its link holds `map=`) and is stated from it.
            assert_eq!(step.check.reads_map(), decoded.page.map.is_some(), "{} step {}", t.id, k + 1);
            let (holds, statement) = match &decoded.page.map {
                Some(spec) => {
                    let setup = crate::scenario::Setup {
                        preset: decoded.preset.clone(),
                        scenario: decoded.scenario.clone(),
                        policies: decoded.policies.clone(),
                    };
                    let mut finder = spec.finder(&setup).unwrap();
                    finder.run_all().unwrap();
                    // The comparison can fail: the other way round, it does not hold.
                    if let Check::FrontierBelow { below, at_capacity, within } = step.check {
                        let swapped = Check::FrontierBelow { below: at_capacity, at_capacity: below, within };
                        assert_eq!(swapped.state_map(&finder).unwrap().0, Some(false), "{} step {}", t.id, k + 1);
                    }
                    step.check.state_map(&finder).unwrap()
                }
                None => step.check.state(&outcomes(step.link), &decoded.scenario).unwrap(),
            };
            assert_eq!(holds, Some(true), "{} step {}: {statement}", t.id, k + 1);
            // Every verdict quotes its own run (PG-AS's α question quoted only the theory,
            // though the step plays DRA): a lane's label and a number the table shows.
            let named = outcomes(step.link).iter().any(|l| statement.contains(&l.label));
            assert!(named, "{} step {} quotes no lane of its run: {statement}", t.id, k + 1);
            // The text before the question tells no outcome: how a policy fails waits for
            // the verdict (and `after`).
            // Nor does the tour's title, which the page shows while the question waits.
            for word in [
                "fails",
                "stuck",
                "slower than it arrives",
                "unstable",
                "swings",
                "thousands",
                "keeps it short",
                "tight",
                "all VQS keeps",
            ] {
                let asks = step.question.is_some();
                assert!(!(asks && step.text.contains(word)), "{} step {} gives away '{word}'", t.id, k + 1);
                assert!(!(asks && t.title.contains(word)), "{}'s title gives away '{word}'", t.id);
            }
        }
    }
    assert!(tour("nope").unwrap_err().message.contains("tours are vqs-vs-best-fit"));
    // A tour per paper whose models run scripts asks the learner to write one of its policies.
    let exercised: Vec<&str> =
        TOURS.iter().filter(|t| t.steps.iter().any(|s| s.check.exercise().is_some())).map(|t| t.paper).collect();
    assert_eq!(exercised, ["PG-RR", "MSFQ", "GH-RA"]);
}

impl Step {
    /// An exercise's step is not stated from the race it plays.
    fn state_is_the_checkers(&self, scenario: &Scenario) -> bool {
        self.check.state(&[], scenario).is_err_and(|e| e.message.contains("learner's script"))
    }
}

fn lane(policy: &str, label: &str, queue: f64, unstable: bool) -> LaneOutcome {
    LaneOutcome {
        policy: policy.into(),
        label: label.into(),
        mean_queue: queue,
        verdict: Some(if unstable { Verdict::Unstable } else { Verdict::Stable }),
        normalized_reward: Some(1020.65),
        greedy_reward: Some(1065.33),
        optimal_reward: Some(1100.0),
        recovery: Vec::new(),
        stretches: Vec::new(),
    }
}

/// A recovery from a change at `at` with this band top, peak and drain time.
fn recovered(at: u64, top: f64, peak: f64, drain: Option<f64>) -> crate::metrics::Recovery {
    crate::metrics::Recovery {
        at,
        band_at: at,
        band_window: [at / 2, at],
        band: [0.0, top],
        peak,
        peak_at: at as f64 + 1.0,
        drain,
        cut: false,
    }
}

/// "Which drains first" reads the last change (the return), and a queue not back by the end
/// loses to one that is; "which climbs higher" reads the first change, with its factor.
#[test]
fn surge_checks_read_the_recovery_of_their_change() {
    let any = crate::scenario::preset("pgrr-a1").unwrap().scenario;
    let with = |policy: &str, label: &str, r: Vec<crate::metrics::Recovery>| LaneOutcome {
        recovery: r,
        ..lane(policy, label, 1.0, false)
    };
    let drains = Check::DrainsFirst { first: "bf-js", later: "vqs" };
    let state =
        |b: Vec<_>, v: Vec<_>| drains.state(&[with("bf-js", "BF-J/S", b), with("vqs", "VQS", v)], &any).unwrap();
    let surge = recovered(100, 5.0, 40.0, None);
    let (fast, slow) = (recovered(300, 5.0, 17.0, Some(1408.0)), recovered(300, 9.0, 40.0, Some(18963.0)));
    let (holds, statement) = state(vec![surge.clone(), fast.clone()], vec![surge.clone(), slow.clone()]);
    assert_eq!(holds, Some(true), "{statement}");
    assert!(statement.contains("BF-J/S was back within 0..5 after 1408 slots (peak 17)"), "{statement}");
    assert_eq!(state(vec![surge.clone(), slow.clone()], vec![surge.clone(), fast.clone()]).0, Some(false));
    let never = recovered(300, 9.0, 40.0, None);
    assert_eq!(state(vec![surge.clone(), fast.clone()], vec![surge.clone(), never.clone()]).0, Some(true));
    let (holds, statement) = state(vec![surge.clone(), never.clone()], vec![surge.clone(), fast]);
    assert_eq!(holds, Some(false));
    assert!(statement.contains("not back within 0..9 by the end"), "{statement}");
    assert!(drains.state(&[lane("bf-js", "BF-J/S", 1.0, false), lane("vqs", "VQS", 1.0, false)], &any).is_err());

    let peaks = Check::PeaksHigher { higher: "vqs", lower: "bf-js", factor: 3.0 };
    let state = |v: f64, b: f64| {
        let lanes = [
            with("vqs", "VQS", vec![recovered(100, 5.0, v, None)]),
            with("bf-js", "BF-J/S", vec![recovered(100, 5.0, b, None)]),
        ];
        peaks.state(&lanes, &any).unwrap()
    };
    assert_eq!(state(300.0, 100.0).0, Some(true));
    assert_eq!(state(299.0, 100.0).0, Some(false));
    assert!(state(300.0, 100.0).1.contains("VQS peaked at 300, BF-J/S at 100"));
    assert!(state(300.0, 100.0).1.starts_with("During the surge from 100"));

    // A lost server is a change of the fleet, not a surge (RES-97).
    let mut fleet = crate::scenario::preset("ghra-b3").unwrap().scenario;
    fleet.set("change", "100:servers=5xsmall,3xlarge").unwrap();
    let peaks = Check::PeaksHigher { higher: "mw-local", lower: "alg2-jsq", factor: 10.0 };
    let lanes = [
        with("mw-local", "MW-local", vec![recovered(100, 5.0, 4000.0, None)]),
        with("alg2-jsq", "Alg. 2 (JSQ)", vec![recovered(100, 5.0, 110.0, None)]),
    ];
    let (holds, statement) = peaks.state(&lanes, &fleet).unwrap();
    assert_eq!(holds, Some(true));
    assert_eq!(statement, "After the change at 100: MW-local peaked at 4000, Alg. 2 (JSQ) at 110.");
}

/// A stretch of a loss system from `change` with this reward and these counts.
fn stretch(change: Option<u64>, reward: f64, arrived: u64, rejected: u64) -> crate::metrics::Stretch {
    let from = change.unwrap_or(50) as f64;
    crate::metrics::Stretch { change, from, to: from + 100.0, reward, arrived, rejected }
}

/// "What does a surge do" reads the stretch before the first change and the one after it:
/// it holds only when both the rejected share and the reward (by its factor) rose, and its
/// sentence quotes every stretch as the table shows it.
#[test]
fn the_surge_check_reads_the_stretches_around_the_first_change() {
    let any = crate::scenario::preset("pgas-c3").unwrap().scenario;
    let check = Check::SurgePays { policy: "dra", factor: 1.05 };
    let state = |stretches: Vec<crate::metrics::Stretch>| {
        check.state(&[LaneOutcome { stretches, ..lane("dra", "DRA", 0.0, false) }], &any).unwrap()
    };
    let before = stretch(None, 1038.52, 1000, 49);
    let after = stretch(Some(200), 1035.9, 1000, 42);
    let (holds, said) = state(vec![before.clone(), stretch(Some(100), 1138.64, 3000, 558), after.clone()]);
    assert_eq!(holds, Some(true), "{said}");
    assert_eq!(
        said,
        "DRA: before the surge 1038.52 per server with 4.9% of arrivals rejected; during it from 100 1138.64 per \
         server with 18.6% rejected; from 200 1035.9 per server with 4.2% rejected."
    );
    // The reward rose, but by less than the factor; the reward rose but fewer were rejected.
    assert_eq!(state(vec![before.clone(), stretch(Some(100), 1080.0, 3000, 558)]).0, Some(false));
    assert_eq!(state(vec![before.clone(), stretch(Some(100), 1138.64, 3000, 30)]).0, Some(false));
    // No change, no stretches: the check says so rather than guessing.
    assert!(check.state(&[lane("dra", "DRA", 0.0, false)], &any).is_err());
}

/// "Which queue grows" holds only on the verdicts: a queue ten times longer but stable
/// does not pass, nor one that grows while the other grows too.
#[test]
fn a_growing_queue_is_judged_by_the_verdicts() {
    let any = crate::scenario::Setup::from_preset("pgrr-a1").unwrap().scenario;
    let check = Check::Grows { grows: "vqs", settles: "bf-js" };
    let state = |v: LaneOutcome, b: LaneOutcome| check.state(&[v, b], &any).unwrap();
    let (holds, text) = state(lane("vqs", "VQS (J=2)", 1100.014, true), lane("bf-js", "BF-J/S", 2.84, false));
    assert_eq!(holds, Some(true));
    assert_eq!(
        text,
        "VQS (J=2)'s queue grew (not stable), mean waiting 1\u{202f}100.01; \
         BF-J/S's queue settled (stable), mean waiting 2.84."
    );
    let no = Some(false);
    assert_eq!(state(lane("vqs", "VQS", 100.0, false), lane("bf-js", "BF-J/S", 2.0, false)).0, no, "long, stable");
    assert_eq!(state(lane("vqs", "VQS", 100.0, true), lane("bf-js", "BF-J/S", 50.0, true)).0, no, "both grow");
    assert_eq!(state(lane("vqs", "VQS", 1.0, false), lane("bf-js", "BF-J/S", 50.0, true)).0, no, "the other grows");
    let mut undecided = lane("vqs", "VQS", 100.0, true);
    undecided.verdict = Some(Verdict::Undecided);
    let (holds, text) = state(undecided, lane("bf-js", "BF-J/S", 2.0, false));
    assert_eq!(holds, None, "an undecided verdict decides nothing");
    assert!(text.starts_with("VQS's queue has not shown whether it settles (undecided)"), "{text}");
    assert!(check.state(&[lane("vqs", "VQS", 3.0, true)], &any).is_err());
    let mut no_queue = lane("bf-js", "BF-J/S", 0.0, false);
    no_queue.verdict = None;
    assert!(check.state(&[lane("vqs", "VQS", 3.0, true), no_queue], &any).is_err());
}

/// "Under which do fewer jobs wait" needs both queues stable and the factor between them.
#[test]
fn a_shorter_queue_needs_both_stable() {
    let any = crate::scenario::Setup::from_preset("msfq-d1").unwrap().scenario;
    let check = Check::Shorter { longer: "msf", shorter: "msfq", factor: 5.0 };
    let state = |l: LaneOutcome, s: LaneOutcome| check.state(&[l, s], &any).unwrap();
    let (holds, text) = state(lane("msf", "MSF", 60.0, false), lane("msfq", "MSFQ", 2.5, false));
    assert_eq!(holds, Some(true));
    assert_eq!(
        text,
        "MSFQ's queue settled (stable), mean waiting 2.50; MSF's queue settled (stable), mean waiting 60.00."
    );
    assert_eq!(state(lane("msf", "MSF", 60.0, true), lane("msfq", "MSFQ", 2.5, false)).0, Some(false), "MSF grows");
    assert_eq!(state(lane("msf", "MSF", 10.0, false), lane("msfq", "MSFQ", 2.5, false)).0, Some(false), "4 times");
}

/// The reward sentence quotes the table's "÷ U^(g)" (three decimals) and the note's U^(g).
#[test]
fn the_reward_sentence_quotes_the_table() {
    let any = crate::scenario::Setup::from_preset("pgas-c4").unwrap().scenario;
    let (holds, text) = Check::RewardNearGreedy { policy: "dra", fraction: 0.9 }
        .state(&[lane("dra", "DRA", 0.0, false)], &any)
        .unwrap();
    assert_eq!(holds, Some(true));
    assert_eq!(text, "DRA earned 1\u{202f}020.6 per server, 0.958 of U^(g) = 1\u{202f}065.3.");
}

/// Every value a step's text states is the form's (the scenario's key, or the lanes), in words
/// the text or its question holds; and a step that changes a key or the lanes from the step
/// before states the new value (the run's window, seed and sampling aside).
#[test]
fn every_stated_value_is_the_forms_and_every_change_is_stated() {
    // A step's changes of the load are the run's, stated in the text's words (the form has no
    // field for them: `change` is a link's key).
    let window = ["seed", "horizon", "warmup", "sample_every", "change"];
    for t in TOURS {
        let mut before: Option<crate::link::Link> = None;
        for (k, step) in t.steps.iter().enumerate() {
            let (decoded, _) = decode_link(step.link);
            let lanes: Vec<String> = decoded.policies.iter().map(|p| p.to_string()).collect();
            let words = format!("{} {}", step.text, step.question.map_or("", |q| q.prompt));
            for stated in step.states {
                assert!(
                    words.contains(stated.said),
                    "{} step {}: the text does not say '{}'",
                    t.id,
                    k + 1,
                    stated.said
                );
                let shown = if stated.key == LANES { Some(lanes.join(",")) } else { decoded.scenario.get(stated.key) };
                assert_eq!(shown.as_deref(), Some(stated.value), "{} step {}: {}", t.id, k + 1, stated.key);
            }
            if let Some(last) = &before {
                let said = |key: &str| step.states.iter().any(|s| s.key == key);
                for info in decoded.scenario.keys() {
                    let key = info.key;
                    if !window.contains(&key) && last.scenario.get(key) != decoded.scenario.get(key) {
                        assert!(said(key), "{} step {} changes {key} without saying so", t.id, k + 1);
                    }
                }
                let last_lanes: Vec<String> = last.policies.iter().map(|p| p.to_string()).collect();
                assert!(
                    last_lanes == lanes || said(LANES),
                    "{} step {} changes the lanes without saying so",
                    t.id,
                    k + 1
                );
            }
            before = Some(decoded);
        }
    }
}
