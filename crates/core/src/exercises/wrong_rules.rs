//! Checks that discriminate: every plausible wrong rule fails its exercise, and each
//! exercise's scenario puts the rule to work many times, not once.
//!
//! The wrong rules are scripts in `wrong/<exercise id>/`, one file each, written as a learner
//! might (first fit for best fit, ties to the highest server, one start per event…); the test
//! reads the whole folder, so a rule added there is checked without naming it here, and the
//! CLI's tests grade the same folder as a lecturer grades submissions. The probes
//! (`probes/*.rhai`) are the right rule that notes, before each decision, where another rule
//! would have decided otherwise; counting those notes over the check's run says how often the
//! scenario tells the rules apart.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::*;
use crate::link::scenario_of;

/// The wrong rules of `exercise`, as (file name, source), in name order.
pub(super) fn wrong_rules(exercise: &Exercise) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/exercises/wrong").join(exercise.id);
    let mut rules: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    rules.sort();
    rules
}

/// The rules the issue names, each of which must be among the exercise's wrong rules.
fn named(exercise: &Exercise) -> &'static [&'static str] {
    match exercise.id {
        "write-best-fit" => &[
            "fifo_first_fit.rhai",
            "first_fit_skip.rhai",
            "worst_fit.rhai",
            "ties_to_highest.rhai",
            "largest_first.rhai",
        ],
        "write-msf" => &["fcfs.rhai", "one_start_per_event.rhai", "fewest_first.rhai", "blocking.rhai"],
        "write-jsq" => &["ties_to_highest.rhai", "total_queue.rhai", "random_ties.rhai", "first_eligible.rhai"],
        other => panic!("no wrong rules named for {other}"),
    }
}

fn check(exercise: &Exercise, source: &str) -> Verdict {
    Checker::new(exercise, &scenario_of(exercise.link).unwrap(), source).unwrap().run()
}

/// Every wrong rule fails, with a decision that differs or a run the engine stopped; the
/// shipped answer passes on the same scenario.
#[test]
fn every_wrong_rule_fails_and_the_answer_passes() {
    for e in EXERCISES {
        let rules = wrong_rules(e);
        for name in named(e) {
            assert!(rules.iter().any(|(n, _)| n == name), "{}: no wrong rule {name}", e.id);
        }
        for (name, source) in &rules {
            let verdict = check(e, source);
            eprintln!("{} {name}: {}", e.id, verdict.sentence(e.reference, "at"));
            assert!(!verdict.passed(), "{}: the wrong rule {name} passed: {verdict:?}", e.id);
        }
        assert!(check(e, super::tests::answer(e)).passed(), "{}: the answer fails", e.id);
    }
}

/// A probe's note and the fewest decisions that must carry it.
type Least = (&'static str, u64);

/// The decisions of `probe` (a script) on `exercise`'s scenario, and how many carry each of the
/// probe's notes.
fn notes(exercise: &Exercise, probe: &str) -> (u64, BTreeMap<String, u64>) {
    use crate::report::live_run;
    use crate::view::Watch;
    let scenario = scenario_of(exercise.link).unwrap();
    let spec = PolicySpec::parse(&crate::script::spec_text(probe).unwrap()).unwrap();
    let mut run = live_run(&scenario, &spec, Watch::batch(64).with_log(1 << 20)).unwrap();
    run.run_to(scenario.horizon() as f64).unwrap();
    assert!(run.decisions().count() < 1 << 20, "the log kept every decision");
    let mut counts = BTreeMap::new();
    let mut decisions = 0;
    for d in run.decisions().records().iter().filter(|d| compared(d)) {
        decisions += 1;
        for fact in &d.facts {
            *counts.entry(fact.label.clone()).or_insert(0) += 1;
        }
    }
    (decisions, counts)
}

/// Each exercise's scenario tells the right rule from the wrong ones many times over: the
/// probe, which is the right rule (it passes), notes where another rule would have decided
/// otherwise, and each such note comes back at least `least` times. The counts are in
/// docs/scripts.md.
#[test]
fn the_check_puts_the_rule_to_work_many_times() {
    let cases: [(&Exercise, &str, &[Least]); 3] = [
        (
            &BEST_FIT,
            include_str!("probes/best_fit.rhai"),
            // First fit, worst fit and ties to the highest pick another server; the FIFO
            // rules hold back a job behind one that waits.
            &[("first fit", 100), ("worst fit", 100), ("tied", 15), ("behind a job that waits", 1000)],
        ),
        (
            &MSF,
            include_str!("probes/msf.rhai"),
            // One start per event and per class, fewest first; blocking at a class that waits.
            &[("starts", 50), ("classes", 30), ("past a class that waits", 1000)],
        ),
        (
            &JSQ,
            include_str!("probes/jsq.rhai"),
            // Ties; the total queue elsewhere; the first eligible elsewhere; servers the job
            // cannot go to.
            &[("tied", 1000), ("total queue", 1000), ("first eligible", 1000), ("ineligible", 100)],
        ),
    ];
    for (e, probe, least) in cases {
        assert!(check(e, probe).passed(), "{}: the probe is the right rule", e.id);
        let (decisions, counts) = notes(e, probe);
        eprintln!("{}: {decisions} decisions, {counts:?}", e.id);
        for (label, at_least) in least {
            let n = counts.get(*label).copied().unwrap_or(0);
            assert!(n >= *at_least, "{}: {label} on {n} decisions of {decisions}, fewer than {at_least}", e.id);
        }
    }
}
