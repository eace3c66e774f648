//! How each model's queue recovers from a change (RES-94): a surge past the frontier and back
//! reports, per change, the band before it, the peak after it and the drain time, in every model
//! with a queue; the page's live run and the batch report say the same, however the run is cut
//! into frames; a run without changes reports nothing.

use packlab_core::metrics::Recovery;
use packlab_core::policy::PolicySpec;
use packlab_core::report::{live_run, run};
use packlab_core::scenario::preset;
use packlab_core::view::Watch;

/// `id` with its horizon cut to `horizon` and `changes` set.
fn scenario(id: &str, horizon: u64, changes: &str) -> packlab_core::models::Scenario {
    let mut s = preset(id).unwrap().scenario.clone();
    s.set_horizon_scaled(horizon).unwrap();
    if !changes.is_empty() {
        s.set("change", changes).unwrap();
    }
    s.validate().unwrap();
    s
}

/// The recoveries of the live run stepped `frame` units at a time, as the page plays it.
fn live(s: &packlab_core::models::Scenario, policy: &PolicySpec, frame: u64) -> Vec<Recovery> {
    let mut run = live_run(s, policy, Watch::page(64)).unwrap();
    while run.time() < s.horizon() {
        run.run(frame.min(s.horizon() - run.time())).unwrap();
    }
    run.recoveries().to_vec()
}

/// A surge past the frontier at a quarter of the run and back at half: the surge's queue
/// climbs above the band it held, and the return drains back into that band before the end.
fn surge_and_back(id: &str, policy: &str, normal: f64, surge: f64, horizon: u64) -> Vec<Recovery> {
    let changes = format!("{}:load={surge};{}:load={normal}", horizon / 4, horizon / 2);
    let mut s = scenario(id, horizon, &changes);
    s.set("load", &normal.to_string()).unwrap();
    let policy = PolicySpec::parse(policy).unwrap();
    let batch = run(id, &s, &policy).unwrap().report.recovery;
    assert_eq!(batch.len(), 2, "{id} {policy}: a recovery per change");
    for frame in [1, 37, horizon / 7] {
        assert_eq!(live(&s, &policy, frame), batch, "{id} {policy}: the page's frames of {frame}");
    }
    let (up, down) = (&batch[0], &batch[1]);
    assert_eq!((up.at, up.band_window), (horizon / 4, [horizon / 8, horizon / 4]), "{id} {policy}");
    assert!(up.peak > up.band[1], "{id} {policy}: the surge rises above its band: {up:?}");
    assert!(up.peak_at >= up.at as f64 && up.peak_at <= down.at as f64, "{id} {policy}: {up:?}");
    assert!(up.cut && up.drain.is_none(), "{id} {policy}: still above its band at the return: {up:?}");
    // The return keeps the surge's band (the surge had not drained) and drains into it.
    assert_eq!((down.band_at, down.band), (up.at, up.band), "{id} {policy}");
    let drain = down.drain.unwrap_or_else(|| panic!("{id} {policy}: drained before the end: {down:?}"));
    assert!(drain > 0.0 && drain < (horizon / 2) as f64, "{id} {policy}: {down:?}");
    batch
}

#[test]
fn pgrr_surge_past_the_frontier_and_back() {
    surge_and_back("pgrr-a1", "bf-js", 0.5, 1.3, 40_000);
}

/// MSFQ reads n(t), the jobs in the system, as its verdict does: MSF on msfq-d1 is stable below
/// λ = 7.805 (MSFQ, Thm 1).
#[test]
fn msfq_surge_past_the_frontier_and_back() {
    surge_and_back("msfq-d1", "msf", 6.0, 9.0, 20_000);
}

/// GH-RA reads Q(t), the waiting jobs, past ζ = 1 and back.
#[test]
fn ghra_surge_past_capacity_and_back() {
    surge_and_back("ghra-b1", "alg2-jsq", 0.6, 1.4, 20_000);
}

#[test]
fn without_changes_nothing_is_reported() {
    for id in ["pgrr-a1", "msfq-d1", "ghra-b1", "pgas-c2"] {
        let s = scenario(id, 2_000, "");
        let policy = preset(id).unwrap().policies[0].clone();
        assert!(run(id, &s, &policy).unwrap().report.recovery.is_empty(), "{id}");
        assert!(live(&s, &policy, 100).is_empty(), "{id}");
    }
}

/// PG-AS is a loss system: nothing waits, so there is no queue to recover (its reward chart
/// shows the change); the report says nothing rather than a queue of 0.
#[test]
fn a_loss_system_reports_no_recovery() {
    let s = scenario("pgas-c2", 40, "10:load=1.5;20:load=0.5");
    let policy = preset("pgas-c2").unwrap().policies[0].clone();
    assert!(run("pgas-c2", &s, &policy).unwrap().report.recovery.is_empty());
}

/// A surge made while the run plays (a page's knob, RES-96) is followed in every model with a
/// queue: the amended run reports a recovery per change, with the peaks of the link that had the
/// changes from the start (a peak reads only the queue after its change; the band of a change
/// made live is read from the moment it was made, so only the link's reads it in full).
#[test]
fn a_surge_made_live_is_followed_like_the_links() {
    for (id, policy, normal, surge, horizon) in [
        ("pgrr-a1", "bf-js", 0.5, 1.3, 40_000),
        ("msfq-d1", "msf", 6.0, 9.0, 20_000),
        ("ghra-b1", "alg2-jsq", 0.6, 1.4, 20_000),
    ] {
        let changes = format!("{}:load={surge};{}:load={normal}", horizon / 4, horizon / 2);
        let mut plain = scenario(id, horizon, "");
        plain.set("load", &normal.to_string()).unwrap();
        let mut linked = plain.clone();
        linked.set("change", &changes).unwrap();
        let policy = PolicySpec::parse(policy).unwrap();
        let link = run(id, &linked, &policy).unwrap().report.recovery;

        let mut live = live_run(&plain, &policy, Watch::page(64)).unwrap();
        live.run(horizon / 8).unwrap();
        live.set_changes(&packlab_core::changes::Changes::parse(&changes).unwrap()).unwrap();
        live.run(horizon - live.time()).unwrap();
        let made = live.recoveries();
        assert_eq!(made.len(), 2, "{id}: {made:?}");
        for (m, l) in made.iter().zip(&link) {
            assert_eq!(
                (m.at, m.peak.to_bits(), m.peak_at.to_bits()),
                (l.at, l.peak.to_bits(), l.peak_at.to_bits()),
                "{id}"
            );
        }
    }
}

/// PG-AS is a loss system: its report reads each change in the reward and the rejections of
/// the stretches between the changes (no queue, no recovery). A surge (α 1 to 3) and its return:
/// three stretches, the surge's with more rejected and more earned per server; the page's frames
/// of any size and a surge made live give the link's numbers, bit for bit.
#[test]
fn pgas_surge_reads_in_the_stretches_between_the_changes() {
    let (horizon, policy) = (80, PolicySpec::parse("dra").unwrap());
    let changes = "40:load=3;60:load=1";
    let mut plain = scenario("pgas-c3", horizon, "");
    plain.set("servers", "48").unwrap();
    let mut linked = plain.clone();
    linked.set("change", changes).unwrap();
    let report = run("pgas-c3", &linked, &policy).unwrap().report;
    assert!(report.recovery.is_empty(), "nothing waits: no recovery");
    let batch = report.stretches;
    assert_eq!(batch.len(), 3, "{batch:?}");
    let at: Vec<_> = batch.iter().map(|s| (s.change, s.from, s.to)).collect();
    assert_eq!(at, [(None, 20.0, 40.0), (Some(40), 40.0, 60.0), (Some(60), 60.0, 80.0)], "from the warm-up on");
    let (before, surge) = (&batch[0], &batch[1]);
    assert!(surge.blocking() > before.blocking() && surge.reward > before.reward, "{batch:?}");
    let total: u64 = batch.iter().map(|s| s.arrived).sum();
    assert_eq!(total, report.arrivals - batch_arrivals_before_warmup(&plain, &policy), "every measured arrival once");

    for frame in [1, 7, horizon / 7] {
        let mut live = live_run(&linked, &policy, Watch::page(64)).unwrap();
        while live.time() < horizon {
            live.run(frame.min(horizon - live.time())).unwrap();
            assert!(live.stretches().len() <= 3);
        }
        assert_eq!(live.stretches(), batch, "the page's frames of {frame}");
    }
    let mut live = live_run(&plain, &policy, Watch::page(64)).unwrap();
    live.run(30).unwrap();
    assert!(live.stretches().is_empty(), "no change yet: nothing to read");
    live.set_changes(&packlab_core::changes::Changes::parse(changes).unwrap()).unwrap();
    live.run(horizon - live.time()).unwrap();
    assert_eq!(live.stretches(), batch, "a surge made live at 30 reads as the link's");
}

/// The arrivals before the warm-up, which no stretch counts: the run to the warm-up alone.
fn batch_arrivals_before_warmup(s: &packlab_core::models::Scenario, policy: &PolicySpec) -> u64 {
    let mut live = live_run(s, policy, Watch::page(64)).unwrap();
    live.run(s.any().window().warmup).unwrap();
    live.readings().arrivals
}
