//! Changes of PG-RR's server count while a run plays (RES-95): before the change a run is bit
//! for bit the run without it, a change to the current count changes nothing, the arrivals
//! are the same jobs (common random numbers), a removed server finishes its jobs, takes no new
//! one and then holds none, and added servers take jobs; for every registered PG-RR policy.

use packlab_core::model::start;
use packlab_core::models::pgrr::{Pgrr, PgrrScenario, PgrrSim, ServerId};
use packlab_core::models::{Scenario, all_policies};
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::preset;
use packlab_core::view::{Metric, Watch};

/// Servers at the start.
const L: u32 = 8;
const HORIZON: u64 = 6_000;

/// pgrr-a1 on 8 servers at load 0.85, short: a busy cluster, so a removed server holds jobs.
fn scenario(changes: &str) -> Scenario {
    let mut s = preset("pgrr-a1").unwrap().scenario;
    for (key, value) in [("servers", L.to_string()), ("load", "0.85".into()), ("change", changes.into())] {
        s.set(key, &value).unwrap();
    }
    s.set_horizon_scaled(HORIZON).unwrap();
    s.validate().unwrap_or_else(|e| panic!("{changes}: {e}"));
    s
}

fn pgrr(s: &Scenario) -> &PgrrScenario {
    let Scenario::Pgrr(s) = s else { panic!("a PG-RR scenario") };
    s
}

/// Every PG-RR policy of the registry (the scripted one runs its default script).
fn policies() -> Vec<PolicySpec> {
    let all: Vec<_> = all_policies()
        .filter(|(model, _)| model.id == "pgrr")
        .map(|(_, meta)| PolicySpec::parse(meta.name).unwrap())
        .collect();
    assert!(all.len() >= 8, "{all:?}");
    all
}

/// What a page reads of a run, as bits (as `changes.rs`).
fn fingerprint(s: &Scenario, policy: &PolicySpec, time: u64) -> Vec<u64> {
    let mut run = live_run(s, policy, Watch::page(256)).unwrap();
    run.run(time).unwrap();
    let r = run.readings();
    let mut bits = vec![run.time(), r.queue_len, r.arrivals, r.mean_queue.to_bits(), r.mean_occupancy.to_bits()];
    for metric in [Metric::Queue, Metric::Occupancy] {
        bits.extend(run.series(metric).iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
    }
    bits
}

#[test]
fn before_the_change_a_run_is_the_run_without_it_and_the_jobs_stay_the_same() {
    let plain = scenario("");
    for (changes, first) in [("2000:servers=5;4000:servers=11", 2000), ("1500:servers=12;3500:servers=3", 1500)] {
        let changed = scenario(changes);
        for policy in policies() {
            assert_eq!(
                fingerprint(&plain, &policy, first),
                fingerprint(&changed, &policy, first),
                "{policy}: {changes}"
            );
            let (a, b) = (fingerprint(&plain, &policy, HORIZON), fingerprint(&changed, &policy, HORIZON));
            assert_ne!(a, b, "{policy}: {changes} must change what follows");
            // Same arrivals: the count (and so every draw of the arrivals stream) is the run's
            // without the change.
            assert_eq!(a[2], b[2], "{policy}: {changes}: arrivals");
        }
    }
}

#[test]
fn a_change_to_the_current_count_changes_nothing() {
    let plain = scenario("");
    let same = scenario(&format!("0:servers={L};3000:servers={L}"));
    for policy in policies() {
        assert_eq!(fingerprint(&plain, &policy, HORIZON), fingerprint(&same, &policy, HORIZON), "{policy}");
    }
}

fn sim(s: &Scenario, policy: &PolicySpec) -> PgrrSim {
    start::<Pgrr>(pgrr(s), policy, Watch::batch(64)).unwrap()
}

/// Jobs on server `s` as (id, start).
fn jobs(run: &PgrrSim, s: usize) -> Vec<(u64, u64)> {
    run.cluster().jobs_on(s as ServerId).map(|j| (j.id, j.start)).collect()
}

/// Removing 5 of 8 servers at 2000: the three kept ones and nothing else take jobs; each removed
/// server only loses jobs, never one started at or after 2000, and is empty well before the
/// horizon. Raising the count to 11 at 4000: servers 3..11 take jobs again, the new ones
/// 8, 9 and 10 among them.
#[test]
fn removed_servers_drain_and_added_servers_take_jobs() {
    let s = scenario("2000:servers=3;4000:servers=11");
    for policy in policies() {
        let mut run = sim(&s, &policy);
        assert_eq!((run.cluster().len(), run.cluster().active()), (11, 8), "{policy}: room for the most servers");
        run.run_until(2000).unwrap();
        let held: Vec<Vec<(u64, u64)>> = (0..11).map(|s| jobs(&run, s)).collect();
        assert!((8..11).all(|s| held[s].is_empty()), "{policy}: servers not yet added hold nothing");
        assert!((3..8).any(|s| !held[s].is_empty()), "{policy}: a busy cluster at the change");
        let mut before = held;
        let mut drained_at = None;
        while run.slot() < 4000 {
            run.step().unwrap();
            run.check_invariants().unwrap_or_else(|e| panic!("{policy}: {e}"));
            for (s, was) in before.iter_mut().enumerate().skip(3) {
                let now = jobs(&run, s);
                assert!(now.iter().all(|j| was.contains(j)), "{policy}: server {s} took a job at {}", run.slot() - 1);
                *was = now;
            }
            if drained_at.is_none() && (3..11).all(|s| before[s].is_empty()) {
                drained_at = Some(run.slot());
                assert_eq!(run.cluster().present(), 3, "{policy}");
            }
        }
        assert!(drained_at.is_some(), "{policy}: the removed servers emptied by 4000");
        run.run_until(HORIZON).unwrap();
        run.check_invariants().unwrap();
        let added = (3..11).filter(|&s| jobs(&run, s).iter().any(|&(_, start)| start >= 4000)).count();
        let new = (8..11).filter(|&s| jobs(&run, s).iter().any(|&(_, start)| start >= 4000)).count();
        assert!(added >= 6 && new >= 1, "{policy}: {added} re-added servers and {new} new ones run jobs");
    }
}

/// The decision log agrees: no start names a server at or past the count in force.
#[test]
fn no_decision_starts_a_job_on_a_draining_server() {
    let s = scenario("1000:servers=2");
    for policy in policies() {
        let mut run = live_run(&s, &policy, Watch::page(64)).unwrap();
        run.set_log(1 << 14);
        run.run(HORIZON).unwrap();
        let starts: Vec<_> =
            run.decisions().records().iter().filter(|d| d.action == "start" && d.time >= 1000.0).collect();
        assert!(!starts.is_empty(), "{policy}");
        assert!(starts.iter().all(|d| d.server.is_some_and(|s| s < 2)), "{policy}");
        let view = run.view(true);
        assert_eq!(view.servers.len(), 2, "{policy}: the removed servers have left the drawing");
    }
}

/// The occupancy after a removal is over the capacity present: with 2 of 8 servers left and a
/// queue that never empties, the kept servers stay busy and the measured occupancy rises.
#[test]
fn occupancy_is_over_the_servers_present() {
    let policy = PolicySpec::parse("bf-js").unwrap();
    let (plain, cut) = (scenario(""), scenario("100:servers=2"));
    let (a, b) = (fingerprint(&plain, &policy, HORIZON), fingerprint(&cut, &policy, HORIZON));
    let occupancy = |bits: &[u64]| f64::from_bits(bits[4]);
    assert!(occupancy(&b) > occupancy(&a) && occupancy(&b) <= 1.0, "{} {}", occupancy(&a), occupancy(&b));
}

/// The drawing while servers drain (RES-95): the kept servers, then the draining ones up to
/// the last holding jobs, labelled "draining" (after VQS's configuration), or "left" once
/// empty; their fill is what their jobs hold.
#[test]
fn the_drawing_labels_draining_servers_until_they_leave() {
    let s = scenario("2000:servers=3");
    for name in ["bf-js", "vqs"] {
        let policy = PolicySpec::parse(name).unwrap();
        let mut run = live_run(&s, &policy, Watch::page(64)).unwrap();
        run.run(2001).unwrap();
        let view = run.view(true);
        assert!(view.servers.len() > 3, "{name}: servers still draining are drawn");
        for (id, server) in view.servers.iter().enumerate().skip(3) {
            let label = server.label.as_deref().unwrap_or_default();
            let held: f32 = server.blocks.iter().map(|b| b.shares[0]).sum();
            assert!(label.ends_with("draining") || label == "left", "{name}: server {id}: {label}");
            assert_eq!(label == "left", server.blocks.is_empty(), "{name}: server {id}: {label}");
            assert!((server.fill - held).abs() < 1e-5, "{name}: server {id}: fill {} holds {held}", server.fill);
        }
        assert!(view.servers.iter().take(3).all(|s| !s.label.as_deref().unwrap_or_default().contains("draining")));
    }
}

/// A playing run is built for the most servers its changes reach when it starts (RES-95), so a
/// server count is a live knob up to that size only (`Key::live_within`: past it the page starts
/// the race again, saying why), and a list given to a playing run that needs more servers is
/// refused naming the size; fewer are taken, and a server lost and back while the run plays
/// gives the run of the link with both changes, bit for bit.
#[test]
fn a_playing_run_takes_no_more_servers_than_it_was_built_for() {
    let s = scenario("");
    let servers = s.keys().into_iter().find(|k| k.key == "servers").unwrap();
    assert!(servers.changes.is_some() && servers.live, "servers change live, up to the built size");
    assert!(s.keys().into_iter().find(|k| k.key == "load").unwrap().live, "the load is a live knob");
    let policy = PolicySpec::parse("bf-js").unwrap();
    let mut run = live_run(&s, &policy, Watch::page(64)).unwrap();
    run.run(100).unwrap();
    let built = pgrr(&s).servers;
    let said = s.any().live_refusal("servers", &(built + 1).to_string()).expect("more than built is refused");
    assert_eq!(said, format!("this race was built for at most {built}"));
    assert_eq!(s.any().live_refusal("servers", &built.to_string()), None);
    assert_eq!(s.any().live_refusal("servers", "1"), None);
    assert_eq!(s.any().live_refusal("load", "0.9"), None);
    let more = packlab_core::changes::Changes::parse(&format!("500:servers={}", built + 1)).unwrap();
    let refused = run.set_changes(&more).unwrap_err();
    assert!(refused.message.contains(&format!("the {built} servers it was built for")), "{}", refused.message);
    // The run is as it was: the refused list left nothing behind.
    run.run(1_000).unwrap();
    let mut plain = live_run(&s, &policy, Watch::page(64)).unwrap();
    plain.run(1_100).unwrap();
    assert_eq!(run.readings(), plain.readings());
    // Two servers lost at 1 500 and back at 3 000, each given while the run plays.
    let lost = format!("1500:servers={}", built - 2);
    run.set_changes(&packlab_core::changes::Changes::parse(&lost).unwrap()).unwrap();
    run.run(1_000).unwrap(); // to slot 2 100
    let both = format!("{lost};3000:servers={built}");
    run.set_changes(&packlab_core::changes::Changes::parse(&both).unwrap()).unwrap();
    run.run(2_900).unwrap(); // to slot 5 000
    let mut link = live_run(&scenario(&both), &policy, Watch::page(64)).unwrap();
    link.run(5_000).unwrap();
    assert_eq!(run.readings(), link.readings());
}
