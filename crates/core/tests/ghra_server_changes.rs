//! Changes of GH-RA's fleet while a run plays (RES-97): before the change a run is bit for bit
//! the run without it, a change to the current fleet changes nothing, the arrivals are the same
//! jobs (common random numbers), a removed server takes no new job (real or dummy), hands its
//! waiting jobs to the others and empties, added servers take jobs, and the recovery of Q(t) is
//! reported per change; for every registered GH-RA policy.

use packlab_core::des::EventDriven;
use packlab_core::model::start;
use packlab_core::models::ghra::{Ghra, GhraScenario, GhraSim};
use packlab_core::models::{Scenario, all_policies};
use packlab_core::policy::PolicySpec;
use packlab_core::report::{live_run, run};
use packlab_core::scenario::preset;
use packlab_core::view::{LiveRun, Metric, Watch};

const HORIZON: u64 = 3_000;
/// The starting fleet: ten small EC2 servers (ghra-b2).
const FLEET: &str = "10xsmall";

/// ghra-b2 at ζ = 0.8, short: a busy fleet, so a removed server holds jobs and has a queue.
fn scenario(changes: &str) -> Scenario {
    let mut s = preset("ghra-b2").unwrap().scenario;
    for (key, value) in [("servers", FLEET), ("load", "0.8"), ("change", changes)] {
        s.set(key, value).unwrap();
    }
    s.set_horizon_scaled(HORIZON).unwrap();
    s.validate().unwrap_or_else(|e| panic!("{changes}: {e}"));
    s
}

fn ghra(s: &Scenario) -> &GhraScenario {
    let Scenario::Ghra(s) = s else { panic!("a GH-RA scenario") };
    s
}

/// Every GH-RA policy of the registry (the scripted one runs its default script).
fn policies() -> Vec<PolicySpec> {
    let all: Vec<_> = all_policies()
        .filter(|(model, _)| model.id == "ghra")
        .map(|(_, meta)| PolicySpec::parse(meta.name).unwrap())
        .collect();
    assert!(all.len() >= 5, "{all:?}");
    all
}

/// What a page reads of a run at `time`, as bits (as `changes.rs`).
fn fingerprint(s: &Scenario, policy: &PolicySpec, time: f64) -> Vec<u64> {
    let mut run = live_run(s, policy, Watch::page(256)).unwrap();
    run.run_to(time).unwrap();
    bits(&*run)
}

/// What a page reads of `run` where it is, as bits.
fn bits(run: &dyn LiveRun) -> Vec<u64> {
    let r = run.readings();
    let mut bits =
        vec![run.time(), r.queue_len, r.arrivals, r.events, r.mean_queue.to_bits(), r.mean_occupancy.to_bits()];
    bits.push(r.mean_job_time.unwrap_or(f64::NAN).to_bits());
    for metric in [Metric::Queue, Metric::Occupancy, Metric::JobTime] {
        bits.extend(run.series(metric).iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
    }
    bits
}

#[test]
fn before_the_change_a_run_is_the_run_without_it_and_the_jobs_stay_the_same() {
    let plain = scenario("");
    for (changes, first) in [("1000:servers=6xsmall;2000:servers=12xsmall", 1000), ("700:servers=13xsmall", 700)] {
        let changed = scenario(changes);
        for policy in policies() {
            // Every event before the change's moment (at it, the change comes first).
            let before = first as f64 - 1e-9;
            let (a, b) = (fingerprint(&plain, &policy, before), fingerprint(&changed, &policy, before));
            assert!(a == b, "{policy}: {changes}: differ at {:?}", a.iter().zip(&b).position(|(x, y)| x != y));
            let end = HORIZON as f64;
            let (a, b) = (fingerprint(&plain, &policy, end), fingerprint(&changed, &policy, end));
            assert_ne!(a, b, "{policy}: {changes} must change what follows");
            // Same arrivals: a change of the fleet draws nothing of the arrivals stream.
            assert_eq!(a[2], b[2], "{policy}: {changes}: arrivals");
        }
    }
}

#[test]
fn a_change_to_the_current_fleet_changes_nothing() {
    let plain = scenario("");
    let same = scenario(&format!("0:servers={FLEET};1500:servers={FLEET}"));
    for policy in policies() {
        let end = HORIZON as f64;
        assert!(fingerprint(&plain, &policy, end) == fingerprint(&same, &policy, end), "{policy}");
    }
}

fn sim(s: &Scenario, policy: &PolicySpec) -> GhraSim {
    start::<Ghra>(ghra(s), policy, Watch::batch(64)).unwrap()
}

/// Jobs (real and dummy) on each server.
fn jobs(run: &GhraSim) -> Vec<u32> {
    (0..run.state().servers()).map(|l| run.state().jobs_on(l)).collect()
}

/// Removing 4 of 10 servers at 1000: from then on no job, real or dummy, starts on servers
/// 6..10, their own queues are empty, each only loses jobs and they are all empty well before
/// 2000. Growing to 12 at 2000: the new servers 10 and 11 take jobs, and so do the re-added ones.
#[test]
fn removed_servers_drain_and_added_servers_take_jobs() {
    let s = scenario("1000:servers=6xsmall;2000:servers=12xsmall");
    for policy in policies() {
        let mut run = sim(&s, &policy);
        assert_eq!((run.state().servers(), run.state().active()), (12, 10), "{policy}: built for the most servers");
        run.run_until(1000.0).unwrap();
        assert!(jobs(&run)[10..].iter().all(|&n| n == 0), "{policy}: servers not yet added hold nothing");
        let mut before = jobs(&run);
        assert!(before[6..10].iter().any(|&n| n > 0), "{policy}: a busy fleet at the change");
        let mut left_at = None;
        while run.next_time().is_some_and(|t| t < 2000.0) {
            EventDriven::step(&mut run).unwrap();
            if run.now() < 1000.0 {
                continue;
            }
            assert_eq!(run.state().active(), 6, "{policy}");
            if let Some(last) = run.last_start().filter(|l| l.time == run.now()) {
                assert!(last.server < 6, "{policy}: a start on removed server {} at {}", last.server, run.now());
            }
            let now = jobs(&run);
            for l in 6..12 {
                assert!(now[l] <= before[l], "{policy}: server {l} took a job at {}", run.now());
                assert_eq!(run.state().waiting_at(l), 0, "{policy}: server {l} keeps no queue");
            }
            before = now;
            if left_at.is_none() && before[6..].iter().all(|&n| n == 0) {
                left_at = Some(run.now());
            }
        }
        run.check_invariants().unwrap_or_else(|e| panic!("{policy}: {e}"));
        let left_at = left_at.unwrap_or_else(|| panic!("{policy}: the removed servers emptied by 2000"));
        assert!(left_at < 1100.0, "{policy}: the removed servers emptied at {left_at}");
        run.run_until(2100.0).unwrap();
        run.check_invariants().unwrap();
        assert_eq!(run.state().active(), 12);
        // MW-global re-chooses only when the whole system empties; every other policy fills
        // the new servers at once.
        let busy = jobs(&run)[6..].iter().filter(|&&n| n > 0).count();
        assert!(busy >= 5, "{policy}: {busy} of the 6 added servers run jobs: {:?}", jobs(&run));
        run.run_until(HORIZON as f64).unwrap();
        run.check_invariants().unwrap();
    }
}

/// The decision log agrees: after a removal no start or dummy names a server past the fleet,
/// and once the removed servers have left the drawing has the servers that stay.
#[test]
fn no_decision_starts_a_job_on_a_removed_server() {
    let s = scenario("500:servers=3xsmall");
    for policy in policies() {
        let mut run = live_run(&s, &policy, Watch::page(64)).unwrap();
        run.set_log(1 << 16);
        run.run(1000).unwrap();
        let starts: Vec<_> = run
            .decisions()
            .records()
            .iter()
            .filter(|d| (d.action == "start" || d.action == "dummy") && d.time >= 500.0)
            .collect();
        assert!(!starts.is_empty(), "{policy}");
        assert!(starts.iter().all(|d| d.server.is_some_and(|s| s < 3)), "{policy}");
        let view = run.view(true);
        assert_eq!(view.servers.len(), 3, "{policy}: the removed servers have left the drawing");
    }
}

/// The drawing while servers drain (RES-97): the kept servers, then the removed ones up to the
/// last holding jobs, labelled "draining" (after MaxWeight's configuration) or "left" once
/// empty; their fill is what their jobs hold of the server's own capacity.
#[test]
fn the_drawing_labels_draining_servers_until_they_leave() {
    let s = scenario("1000:servers=6xsmall");
    for name in ["alg2-jsq", "mw-local"] {
        let policy = PolicySpec::parse(name).unwrap();
        let mut run = live_run(&s, &policy, Watch::page(64)).unwrap();
        run.run(1000).unwrap();
        run.run_to(1000.01).unwrap();
        let view = run.view(true);
        assert!(view.servers.len() > 6, "{name}: servers still draining are drawn");
        for (id, server) in view.servers.iter().enumerate().skip(6) {
            let label = server.label.as_deref().unwrap_or_default();
            assert!(label.ends_with("draining") || label == "left", "{name}: server {id}: {label}");
            assert_eq!(label == "left", server.blocks.is_empty(), "{name}: server {id}: {label}");
            assert!(server.fill < 1.0 + 1e-6, "{name}: server {id}: fill {}", server.fill);
        }
        assert!(view.servers.iter().take(6).all(|s| !s.label.as_deref().unwrap_or_default().contains("draining")));
    }
}

/// Losing servers and getting them back reports a recovery per change: the loss's queue climbs
/// above the band it held, and after the return the queue drains back into it.
#[test]
fn recovery_is_reported_per_change() {
    let mut s = scenario("1000:servers=7xsmall;1500:servers=10xsmall");
    s.set("load", "0.7").unwrap();
    s.set_horizon_scaled(6_000).unwrap();
    for name in ["alg2-jsq", "alg1", "mw-local"] {
        let policy = PolicySpec::parse(name).unwrap();
        let recovery = run("ghra-b2", &s, &policy).unwrap().report.recovery;
        assert_eq!(recovery.len(), 2, "{name}: {recovery:?}");
        let (lost, back) = (&recovery[0], &recovery[1]);
        assert!(lost.peak > lost.band[1], "{name}: {lost:?}");
        assert!(back.drain.is_some(), "{name}: drained after the return: {back:?}");
    }
}

/// A fleet change must keep the servers' kinds and numbers: only the end of the fleet comes and
/// goes; others are refused naming the entry (RES-97). Memory stays bounded: the run is built
/// for the largest fleet, which the key's own range bounds (1000 servers).
#[test]
fn a_change_that_reorders_the_fleet_is_refused_naming_the_entry() {
    let mut s = preset("ghra-b3").unwrap().scenario;
    s.set("change", "100:servers=5xlarge").unwrap();
    let e = s.validate().unwrap_err();
    assert_eq!(e.key, "change");
    assert!(e.message.contains("entry '100:servers=5xlarge'") && e.message.contains("server 1"), "{e}");
    s.set("change", "100:servers=5xsmall,3xlarge;200:servers=5xsmall,6xlarge").unwrap();
    s.validate().unwrap();
    s.set("change", "100:servers=1001xsmall").unwrap();
    let e = s.validate().unwrap_err();
    assert!(e.message.contains("100:servers=1001xsmall") && e.message.contains("1..=1000"), "{e}");
    let keys = s.keys();
    let servers = keys.iter().find(|k| k.key == "servers").unwrap();
    assert!(servers.changes.is_some() && servers.live, "servers change live, within the built fleet");
}

/// A playing run is built for the largest fleet its changes had when it started (RES-97): the
/// fleet is a live knob within it (`Key::live_within`: a bigger one starts the page's race
/// again, the note naming the built fleet), and a list given to the run that needs more
/// servers is refused naming the entry and leaves the run as it was.
#[test]
fn a_playing_run_takes_no_more_servers_than_it_was_built_for() {
    let s = scenario("");
    for (fleet, refused) in [("12xsmall", true), ("10xsmall,1xlarge", true), ("10xsmall", false), ("6xsmall", false)] {
        let said = s.any().live_refusal("servers", fleet);
        let expected = refused.then(|| format!("this race was built for the fleet {FLEET}"));
        assert_eq!(said, expected, "{fleet}");
    }
    assert_eq!(s.any().live_refusal("servers", "not a fleet"), None, "the key's own check names it");
    // A fleet reached by a change counts: the run is built for the largest.
    let grown = scenario("2500:servers=12xsmall");
    assert_eq!(grown.any().live_refusal("servers", "12xsmall"), None);
    let said = grown.any().live_refusal("servers", "13xsmall").unwrap();
    assert_eq!(said, "this race was built for the fleet 12xsmall");

    let policy = PolicySpec::parse("alg2-jsq").unwrap();
    let mut run = live_run(&s, &policy, Watch::page(256)).unwrap();
    run.run(100).unwrap();
    let more = packlab_core::changes::Changes::parse("500:servers=12xsmall").unwrap();
    let refused = run.set_changes(&more).unwrap_err();
    assert!(refused.message.contains("entry '500:servers=12xsmall'"), "{}", refused.message);
    assert!(refused.message.contains("10 servers"), "{}", refused.message);
    run.run_to(HORIZON as f64).unwrap();
    assert!(bits(&*run) == fingerprint(&s, &policy, HORIZON as f64), "the refused list left nothing behind");
}

/// Four servers lost and back, each change given while the run plays at its open moment (the
/// page's knob): the run is the link's run with both changes from the start, bit for bit, for
/// every policy, with the run's moment inside the drain and the return.
#[test]
fn a_fleet_lost_and_back_while_the_run_plays_is_the_links_run() {
    for policy in policies() {
        let mut run = live_run(&scenario(""), &policy, Watch::page(256)).unwrap();
        run.run_to(700.5).unwrap();
        let lost = format!("{}:servers=6xsmall", run.open_moment());
        run.set_changes(&packlab_core::changes::Changes::parse(&lost).unwrap()).unwrap();
        run.run_to(1_400.25).unwrap();
        let both = format!("{lost};{}:servers={FLEET}", run.open_moment());
        run.set_changes(&packlab_core::changes::Changes::parse(&both).unwrap()).unwrap();
        let link = scenario(&both);
        run.run_to(1_800.0).unwrap();
        assert!(bits(&*run) == fingerprint(&link, &policy, 1_800.0), "{policy}: {both}, at 1800");
        run.run_to(HORIZON as f64).unwrap();
        let end = fingerprint(&link, &policy, HORIZON as f64);
        assert!(bits(&*run) == end, "{policy}: {both}, at the horizon");
        assert!(end != fingerprint(&scenario(""), &policy, HORIZON as f64), "{policy}: the changes change the run");
    }
}
