//! Changes of PG-AS's server count while a run plays (RES-98): before the change a run is bit
//! for bit the run without it, a change to the current count changes nothing, the arrivals
//! are the same jobs (common random numbers), a removed server takes no new job and no
//! configuration, keeps its jobs and leaves once empty (DRA migrating out of it first), added
//! servers take jobs; for every registered PG-AS policy.

use packlab_core::des::EventDriven;
use packlab_core::model::start;
use packlab_core::models::pgas::{ActionKind, Pgas, PgasScenario, PgasSim};
use packlab_core::models::{Scenario, all_policies};
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::preset;
use packlab_core::view::{Metric, Watch};

/// Servers at the start.
const L: usize = 24;
const HORIZON: u64 = 100;

/// `preset` on 24 servers, short: pgas-c3 (C2 at α = 1, every server busy) or pgas-c5 (the
/// synthetic trace with priorities, which DRA+Preemption needs).
fn scenario(preset_id: &str, changes: &str) -> Scenario {
    let mut s = preset(preset_id).unwrap().scenario;
    for (key, value) in [("servers", L.to_string()), ("horizon", HORIZON.to_string()), ("warmup", "10".into())] {
        s.set(key, &value).unwrap();
    }
    if preset_id == "pgas-c5" {
        // Enough synthetic tasks on 24 servers over 100 time units.
        s.set("load", "4").unwrap();
    }
    s.set("change", changes).unwrap();
    s.validate().unwrap_or_else(|e| panic!("{preset_id} {changes}: {e}"));
    s
}

fn pgas(s: &Scenario) -> &PgasScenario {
    let Scenario::Pgas(s) = s else { panic!("a PG-AS scenario") };
    s
}

/// Every PG-AS policy of the registry with the preset it runs on (DRA+Preemption needs the
/// trace's priorities; the others run on both).
fn cases() -> Vec<(&'static str, PolicySpec)> {
    let names: Vec<&str> = all_policies().filter(|(m, _)| m.id == "pgas").map(|(_, meta)| meta.name).collect();
    assert!(names.len() >= 4, "{names:?}");
    let mut cases = Vec::new();
    for name in names {
        if name != "dra-preempt" {
            cases.push(("pgas-c3", PolicySpec::parse(name).unwrap()));
        }
        cases.push(("pgas-c5", PolicySpec::parse(name).unwrap()));
    }
    cases
}

/// What a page reads of a run at `time`, as bits.
fn fingerprint(s: &Scenario, policy: &PolicySpec, time: f64) -> Vec<u64> {
    let mut run = live_run(s, policy, Watch::page(256)).unwrap();
    run.run_to(time).unwrap();
    let r = run.readings();
    let mut bits = vec![r.arrivals, r.events, r.mean_occupancy.to_bits(), r.mean_reward.unwrap_or(f64::NAN).to_bits()];
    for metric in [Metric::Reward, Metric::Occupancy, Metric::Bin(0)] {
        bits.extend(run.series(metric).iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
    }
    bits
}

#[test]
fn before_the_change_a_run_is_the_run_without_it_and_the_jobs_stay_the_same() {
    for (changes, first) in [("40:servers=15;70:servers=30", 40.0), ("30:servers=31", 30.0)] {
        for (id, policy) in cases() {
            let (plain, changed) = (scenario(id, ""), scenario(id, changes));
            // Every event before the change's moment (at it, the change comes first).
            let before = first - 1e-9;
            let (a, b) = (fingerprint(&plain, &policy, before), fingerprint(&changed, &policy, before));
            assert!(a == b, "{id} {policy}: {changes}: differ at {:?}", a.iter().zip(&b).position(|(x, y)| x != y));
            let end = HORIZON as f64;
            let (a, b) = (fingerprint(&plain, &policy, end), fingerprint(&changed, &policy, end));
            assert_ne!(a, b, "{id} {policy}: {changes} must change what follows");
            // Same arrivals: a change of the count draws nothing of the arrival streams.
            assert_eq!(a[0], b[0], "{id} {policy}: {changes}: arrivals");
        }
    }
}

#[test]
fn a_change_to_the_current_count_changes_nothing() {
    for (id, policy) in cases() {
        let (plain, same) = (scenario(id, ""), scenario(id, &format!("0:servers={L};50:servers={L}")));
        let end = HORIZON as f64;
        assert!(fingerprint(&plain, &policy, end) == fingerprint(&same, &policy, end), "{id} {policy}");
    }
}

fn sim(s: &Scenario, policy: &PolicySpec) -> PgasSim {
    start::<Pgas>(pgas(s), policy, Watch::batch(64)).unwrap()
}

fn jobs(run: &PgasSim) -> Vec<u32> {
    (0..run.state().servers_built()).map(|l| run.state().jobs_on(l)).collect()
}

/// A server lost and back: 8 of 24 servers removed at 30 and brought back at 60. Event by
/// event, no job is admitted or migrated into a server that takes no job, a removed server
/// only loses jobs, is configured by nobody once empty, and every invariant holds; after the
/// return the servers take jobs again. Under DRA the removed servers empty by migration too.
#[test]
fn a_server_lost_and_back_drains_and_takes_jobs_again() {
    for (id, policy) in cases() {
        let s = scenario(id, "30:servers=16;60:servers=24");
        let mut run = sim(&s, &policy);
        assert_eq!((run.state().servers_built(), run.state().servers()), (L, L), "{id} {policy}");
        run.run_until(30.0).unwrap();
        let mut before = jobs(&run);
        let unlimited = policy.name() == "upper-bound";
        assert!(unlimited || before[16..].iter().any(|&n| n > 0), "{id} {policy}: busy servers at the change");
        let (mut drained_by_migration, mut left_at) = (0, None);
        while run.next_time().is_some_and(|t| t < 60.0) {
            EventDriven::step(&mut run).unwrap();
            if run.now() < 30.0 {
                continue;
            }
            assert_eq!(run.state().servers(), 16, "{id} {policy}");
            if let Some(a) = run.last_action().filter(|a| a.time == run.now())
                && let Some(server) = a.server
            {
                assert!(
                    server < 16 || a.what == ActionKind::Preempted,
                    "{id} {policy}: {a:?} into a server that takes no job"
                );
                if let ActionKind::Migrated { from } = a.what {
                    drained_by_migration += u32::from(from >= 16);
                }
            }
            let now = jobs(&run);
            for l in 16..L {
                assert!(now[l] <= before[l], "{id} {policy}: server {l} took a job at {}", run.now());
                assert!(now[l] > 0 || run.state().configuration(l).is_none(), "{id} {policy}: server {l} left");
            }
            before = now;
            if left_at.is_none() && before[16..].iter().all(|&n| n == 0) {
                left_at = Some(run.now());
            }
            run.check_invariants().unwrap_or_else(|e| panic!("{id} {policy} at {}: {e}", run.now()));
        }
        assert!(left_at.is_some(), "{id} {policy}: the removed servers emptied by 60");
        if policy.name() == "dra" && id == "pgas-c3" {
            assert!(drained_by_migration > 0, "{id} {policy}: DRA migrates out of draining servers");
        }
        run.run_until(HORIZON as f64).unwrap();
        run.check_invariants().unwrap_or_else(|e| panic!("{id} {policy}: {e}"));
        assert_eq!(run.state().servers(), L);
        let busy = jobs(&run)[16..].iter().filter(|&&n| n > 0).count();
        assert!(unlimited || busy >= 4, "{id} {policy}: {busy} of the 8 servers back run jobs: {:?}", jobs(&run));
    }
}

/// The drawing while servers drain: the servers that take jobs, then the removed ones up to the
/// last holding jobs, labelled "draining" (after DRA's configuration) or "left" once empty; once
/// they have all left, the drawing has the servers that stay. The reward is per server present.
#[test]
fn the_drawing_labels_draining_servers_until_they_leave() {
    for name in ["dra", "po-d"] {
        let policy = PolicySpec::parse(name).unwrap();
        let s = scenario("pgas-c3", "30:servers=16");
        let mut run = live_run(&s, &policy, Watch::page(64)).unwrap();
        run.run_to(30.001).unwrap();
        let view = run.view(true);
        assert!(view.servers.len() > 16, "{name}: servers still draining are drawn");
        for (id, server) in view.servers.iter().enumerate().skip(16) {
            let label = server.label.as_deref().unwrap_or_default();
            assert!(label.ends_with("draining") || label == "left", "{name}: server {id}: {label}");
        }
        assert!(view.servers.iter().take(16).all(|s| !s.label.as_deref().unwrap_or_default().contains("draining")));
        run.run_to(HORIZON as f64).unwrap();
        assert_eq!(run.view(true).servers.len(), 16, "{name}: the removed servers have left the drawing");
    }
}

/// Memory stays bounded: the run is built for the most servers its changes reach, within the
/// key's range (a count past it is refused naming the entry). The count changes from a link and
/// live, up to the built size.
#[test]
fn the_run_is_built_for_the_most_servers_its_changes_reach() {
    let s = scenario("pgas-c3", "30:servers=40;60:servers=10");
    let run = sim(&s, &PolicySpec::parse("dra").unwrap());
    assert_eq!((run.state().servers_built(), run.state().servers()), (40, L));
    let mut s = preset("pgas-c3").unwrap().scenario;
    s.set("change", "100:servers=100001").unwrap();
    let e = s.validate().unwrap_err();
    assert!(e.key == "change" && e.message.contains("100:servers=100001") && e.message.contains("1..=100000"), "{e}");
    let keys = s.keys();
    let servers = keys.iter().find(|k| k.key == "servers").unwrap();
    assert!(servers.changes.is_some() && servers.live, "servers changes from a link and live");
}

/// A playing run is built for the most servers its changes had when it started (RES-96, RES-98):
/// a list needing more is refused naming the entry and leaves the run as it was; fewer are taken,
/// and the run goes on as the run that had them from the start, bit for bit.
#[test]
fn a_playing_run_takes_no_more_servers_than_it_was_built_for() {
    for (id, policy) in cases() {
        let s = scenario(id, "");
        let mut run = live_run(&s, &policy, Watch::page(256)).unwrap();
        run.run(20).unwrap();
        let more = packlab_core::changes::Changes::parse("50:servers=25").unwrap();
        let refused = run.set_changes(&more).unwrap_err();
        assert!(refused.message.contains("entry '50:servers=25'"), "{}", refused.message);
        assert!(refused.message.contains("24 servers"), "{}", refused.message);
        let lost_and_back = packlab_core::changes::Changes::parse("40:servers=12;70:servers=24").unwrap();
        run.set_changes(&lost_and_back).unwrap();
        run.run_to(HORIZON as f64).unwrap();
        let r = run.readings();
        let mut bits =
            vec![r.arrivals, r.events, r.mean_occupancy.to_bits(), r.mean_reward.unwrap_or(f64::NAN).to_bits()];
        for metric in [Metric::Reward, Metric::Occupancy, Metric::Bin(0)] {
            bits.extend(run.series(metric).iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
        }
        let link = scenario(id, "40:servers=12;70:servers=24");
        assert!(bits == fingerprint(&link, &policy, HORIZON as f64), "{id} {policy}");
    }
}
