//! The decision log (issue 15): every registered policy explains its decisions when the run
//! keeps a log, with the numbers its rule looked at, and keeps nothing otherwise.

use packlab_core::models::all_policies;
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::{Scenario, preset, preset_for};
use packlab_core::view::{LiveRun, Watch};

/// A short run of the first preset `policy` runs on ([`preset_for`]); a policy that fits no
/// preset fails the test rather than being skipped.
fn short(policy: &PolicySpec) -> Scenario {
    let model = policy.model();
    let preset = preset_for(policy)
        .unwrap_or_else(|| panic!("{policy}: no preset of {} runs it, so it goes unchecked", model.name));
    // PG-AS handles hundreds of arrivals per time unit, ten times more on its trace (c5).
    let horizon = match (model.id, preset.id) {
        ("pgas", "pgas-c5") => 2,
        ("pgas", _) => 20,
        _ => 2_000,
    };
    let mut s = preset.scenario;
    s.set_horizon_scaled(horizon.min(s.horizon())).unwrap();
    s
}

fn logged(s: &Scenario, policy: &str, log: usize) -> Box<dyn LiveRun> {
    let mut run = live_run(s, &PolicySpec::parse(policy).unwrap(), Watch::batch(64).with_log(log)).unwrap();
    run.run(s.horizon()).unwrap();
    run
}

/// Every registered policy, on the first preset it runs on, records decisions with what and
/// why, numbered without gaps in a bounded log; without a log it keeps none and counts the same.
#[test]
fn every_policy_records_numbered_explained_decisions_and_none_without_a_log() {
    for (model, meta) in all_policies() {
        let s = short(&PolicySpec::parse(meta.name).unwrap());
        let run = logged(&s, meta.name, 50);
        let log = run.decisions();
        // The upper bound admits without servers or policy: it still says so.
        assert!(log.count() > 0, "{} {}: no decision recorded", model.id, meta.name);
        assert!(log.records().len() <= 50, "{}: the log is bounded", meta.name);
        let seqs: Vec<u64> = log.records().iter().map(|d| d.seq).collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1) && *seqs.last().unwrap() == log.count(), "{}", meta.name);
        for d in log.records() {
            assert!(!d.what.is_empty() && !d.why.is_empty(), "{} {d:?}", meta.name);
            assert!(d.time <= s.horizon() as f64 && d.time >= 0.0);
        }
        // Off: nothing kept, and the same decisions counted.
        let off = logged(&s, meta.name, 0);
        assert_eq!((off.decisions().records().len(), off.decisions().count()), (0, log.count()), "{}", meta.name);
    }
}

/// The numbers a rule looked at, for one policy of each model.
#[test]
fn rules_show_what_they_compared() {
    let cases = [
        ("pgrr-a3", "bf-js", "runner-up"),
        ("pgrr-a3", "bf-js", "largest that fits"),
        ("pgrr-a1", "vqs", "renewal: the argmax"),
        ("pgrr-a1", "vqs", "heaviest configurations ⟨k, Q⟩"),
        ("msfq-d1", "msfq", "small jobs in the system n₁"),
        ("ghra-b1", "alg1", "server drawn uniformly"),
        ("ghra-b4", "alg2-jsq", "routing"),
        ("pgas-c3", "dra", "I*: the first rank whose configuration got fewer servers than its target (J if none)"),
    ];
    for (id, policy, label) in cases {
        let mut s = preset(id).unwrap().scenario;
        s.set_horizon_scaled(if id.starts_with("pgas") { 20 } else { 2_000 }.min(s.horizon())).unwrap();
        let run = logged(&s, policy, 2_000);
        let found = run.decisions().records().iter().find(|d| d.facts.iter().any(|f| f.label == label));
        let d = found.unwrap_or_else(|| panic!("{id} {policy}: no decision notes '{label}'"));
        assert!(d.facts.iter().all(|f| !f.value.is_empty()), "{d:?}");
    }
}
