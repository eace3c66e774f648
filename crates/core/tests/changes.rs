//! Changes while a run plays (RES-93): before its first change a run is bit for bit the run
//! without changes, a change to the current value changes nothing, and a change does change
//! what follows; for every registered policy of every model, on the first preset it runs on.

use packlab_core::models::{Scenario, all_policies};
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::preset_for;
use packlab_core::view::{LiveRun, Metric, Watch};

/// What a page reads of a run, as bits (as `determinism.rs`).
fn fingerprint(run: &dyn LiveRun) -> Vec<u64> {
    let r = run.readings();
    let mut bits = vec![run.time(), r.queue_len, r.arrivals, r.mean_queue.to_bits(), r.mean_occupancy.to_bits()];
    bits.extend(r.mean_job_time.map(f64::to_bits));
    bits.extend(r.mean_reward.map(f64::to_bits));
    for metric in [Metric::Queue, Metric::Occupancy, Metric::JobTime, Metric::InSystem, Metric::Reward] {
        bits.extend(run.series(metric).iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
    }
    bits
}

fn every_policy() -> Vec<(PolicySpec, Scenario)> {
    all_policies()
        .filter_map(|(model, meta)| {
            let policy = PolicySpec::parse(meta.name).unwrap();
            let preset = preset_for(&policy).unwrap_or_else(|| panic!("{}: no preset runs it", meta.name));
            let horizon = match (model.id, preset.id) {
                ("pgas", "pgas-c5") => 2,
                ("pgas", _) => 20,
                _ => 4_000,
            };
            let mut s = preset.scenario;
            s.set_horizon_scaled(horizon.min(s.horizon())).unwrap();
            // A replayed trace has no rate to change.
            (!s.any().traffic_scaled()).then_some((policy, s))
        })
        .collect()
}

fn with_changes(s: &Scenario, changes: &str) -> Scenario {
    let mut s = s.clone();
    s.set("change", changes).unwrap();
    s.validate().unwrap_or_else(|e| panic!("{changes}: {e}"));
    s
}

fn at(s: &Scenario, policy: &PolicySpec, time: u64) -> Vec<u64> {
    let mut run = live_run(s, policy, Watch::page(256)).unwrap();
    run.run(time).unwrap();
    fingerprint(&*run)
}

#[test]
fn before_the_first_change_a_run_is_the_run_without_changes() {
    let mut checked = 0;
    for (policy, s) in every_policy() {
        let horizon = s.horizon();
        let (first, second) = (horizon / 2, horizon * 3 / 4);
        let load = s.any().load();
        let changed = with_changes(&s, &format!("{first}:load={};{second}:load={}", load * 1.5, load * 0.5));
        assert_eq!(at(&s, &policy, first), at(&changed, &policy, first), "{policy}: before the change");
        let (plain, moved) = (at(&s, &policy, horizon), at(&changed, &policy, horizon));
        assert_ne!(plain, moved, "{policy}: the change must change what follows");
        checked += 1;
    }
    assert!(checked > 20, "every model's policies ({checked})");
}

#[test]
fn a_change_to_the_current_value_changes_nothing() {
    for (policy, s) in every_policy() {
        let horizon = s.horizon();
        let load = s.get("load").unwrap();
        let same = with_changes(&s, &format!("0:load={load};{}:load={load}", horizon / 3));
        assert_eq!(at(&s, &policy, horizon), at(&same, &policy, horizon), "{policy}");
    }
}

/// Lanes of a race see the same jobs across a change: the arrivals after it are the same for
/// every policy (common random numbers).
#[test]
fn lanes_keep_common_random_numbers_across_a_change() {
    for id in ["pgrr-a1", "msfq-d1", "ghra-b1", "pgas-c2"] {
        let Ok(p) = packlab_core::scenario::preset(id) else { panic!("{id}") };
        let mut s = p.scenario.clone();
        s.set_horizon_scaled(s.horizon().min(2_000)).unwrap();
        let horizon = s.horizon();
        let s = with_changes(&s, &format!("{}:load={}", horizon / 4, s.any().load() * 1.3));
        let arrivals: Vec<u64> = p
            .policies
            .iter()
            .map(|policy| {
                let mut run = live_run(&s, policy, Watch::batch(64)).unwrap();
                run.run(horizon).unwrap();
                run.readings().arrivals
            })
            .collect();
        assert!(arrivals.windows(2).all(|w| w[0] == w[1]), "{id}: {arrivals:?}");
    }
}
