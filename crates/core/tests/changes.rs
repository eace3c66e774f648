//! Changes while a run plays (RES-93): before its first change a run is bit for bit the run
//! without changes, a change to the current value changes nothing, and a change does change
//! what follows; for every registered policy of every model, on the first preset it runs on.

use packlab_core::changes::Changes;
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

/// The changes of `s` as a run takes them.
fn changes_of(s: &Scenario) -> Changes {
    Changes::parse(&s.get("change").unwrap()).unwrap()
}

/// A knob moved while a run plays (RES-96): the run amended at its open moment goes on bit for
/// bit as the run that had the change from the start, a second change later too; a change to
/// the value in force changes nothing.
#[test]
fn a_change_made_while_the_run_plays_is_the_run_that_had_it_from_the_start() {
    let mut checked = 0;
    for (policy, s) in every_policy() {
        let horizon = s.horizon();
        let load = s.any().load();
        let mut run = live_run(&s, &policy, Watch::page(256)).unwrap();
        run.run(horizon / 3).unwrap();
        let first = run.open_moment();
        let surge = with_changes(&s, &format!("{first}:load={}", load * 1.5));
        run.set_changes(&changes_of(&surge)).unwrap_or_else(|e| panic!("{policy}: {e}"));
        run.run(horizon * 2 / 3 - run.time()).unwrap();
        let second = run.open_moment();
        let back = with_changes(&s, &format!("{first}:load={};{second}:load={load}", load * 1.5));
        run.set_changes(&changes_of(&back)).unwrap();
        run.run(horizon - run.time()).unwrap();
        assert_eq!(fingerprint(&*run), at(&back, &policy, horizon), "{policy}: amended at {first} and {second}");

        let mut same = live_run(&s, &policy, Watch::page(256)).unwrap();
        same.run(horizon / 2).unwrap();
        let now = same.open_moment();
        same.set_changes(&changes_of(&with_changes(&s, &format!("{now}:load={}", s.get("load").unwrap())))).unwrap();
        same.run(horizon - same.time()).unwrap();
        assert_eq!(fingerprint(&*same), at(&s, &policy, horizon), "{policy}: the same load at {now}");
        checked += 1;
    }
    assert!(checked > 20, "every model's policies ({checked})");
}

/// Changes already made cannot be taken back by a playing run: the run says which are made.
#[test]
fn a_playing_run_refuses_changes_that_differ_before_it() {
    for id in ["pgrr-a1", "msfq-d1", "ghra-b1", "pgas-c2"] {
        let p = packlab_core::scenario::preset(id).unwrap();
        let mut s = p.scenario.clone();
        s.set_horizon_scaled(s.horizon().min(2_000)).unwrap();
        let horizon = s.horizon();
        let early = format!("{}:load={}", horizon / 4, s.any().load() * 1.2);
        let s = with_changes(&s, &early);
        let mut run = live_run(&s, &p.policies[0], Watch::batch(64)).unwrap();
        run.run(horizon / 2).unwrap();
        let e = run.set_changes(&Changes::NONE).unwrap_err();
        assert_eq!(e.key, "change");
        assert!(e.message.contains(&early) && e.message.contains("must stay"), "{id}: {e}");
        // The same made changes with a later one are taken.
        let later = Changes::parse(&format!("{early};{}:load=0.3", run.open_moment())).unwrap();
        run.set_changes(&later).unwrap();
    }
}

#[test]
fn a_knob_moved_at_a_moment_replaces_the_changes_after_it() {
    let c = Changes::parse("100:load=1.3;200:load=0.5;300:load=0.9").unwrap();
    assert_eq!(c.made_at(200, "load", "0.7").to_string(), "100:load=1.3;200:load=0.7");
    assert_eq!(c.made_at(150, "load", "2").to_string(), "100:load=1.3;150:load=2");
    assert_eq!(c.first_difference(&c.made_at(250, "load", "1")), Some(250));
    assert_eq!(c.first_difference(&c), None);
    assert_eq!(c.value_at("load", 250), Some("0.5"));
    assert_eq!(c.value_at("load", 50), None);
}
