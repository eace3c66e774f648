//! The race's contracts: lockstep, chunks, checkpoints, exact replay, and explaining.

use super::*;

fn setup(policies: &[&str]) -> Setup {
    let mut setup = Setup::from_preset("pgrr-a1").unwrap();
    setup.policies = policies.iter().map(|p| packlab_core::policy::PolicySpec::parse(p).unwrap()).collect();
    setup.scenario.set("horizon", "1000").unwrap();
    setup.scenario.set("warmup", "100").unwrap();
    setup
}

/// A clock that advances `step` ms at each reading.
fn ticking(step: f64) -> impl Fn() -> f64 {
    let now = std::cell::Cell::new(0.0);
    move || {
        now.set(now.get() + step);
        now.get()
    }
}

#[test]
fn lanes_stay_in_lockstep_and_stop_at_the_horizon() {
    let mut race = Race::new(&setup(&["vqs", "bf-js"]), 64);
    assert_eq!(race.advance(300, f64::INFINITY, || 0.0).unwrap(), 300);
    // A budget spent by the first chunk stops there.
    let chunk = race.chunk;
    let first = race.advance(10_000, 1.0, ticking(1.0)).unwrap();
    assert!(first > 0 && first <= chunk, "{first} of a chunk of {chunk}");
    assert_eq!(race.advance(10_000, f64::INFINITY, || 0.0).unwrap(), 1_000 - 300 - first);
    assert!(race.finished());
    assert_eq!(race.advance(10, f64::INFINITY, || 0.0).unwrap(), 0);
    let snap = race.snapshot(Phase::Finished, 0);
    assert_eq!(snap.slot, 1_000);
    let names: Vec<_> = snap.lanes.iter().map(|l| l.policy.as_str()).collect();
    assert_eq!(names, ["vqs", "bf-js"]);
    assert!(snap.lanes.iter().all(|l| l.slot == 1_000 && l.measured == 900));
    // Common random numbers: both policies saw the same arrivals.
    assert_eq!(snap.lanes[0].arrivals, snap.lanes[1].arrivals);
    assert_eq!(snap.lanes[0].label, "VQS (J=2)");
    // One server: drawn in detail, with the focused lane's bins.
    assert!(snap.detail);
    assert_eq!(snap.bin_labels.len(), 4);
    assert_eq!(snap.bin_series.len(), 4);
}

#[test]
fn chunks_follow_the_cost_of_a_slot() {
    let mut long = setup(&["bf-js"]);
    long.scenario.set("horizon", "100000").unwrap();
    let mut race = Race::new(&long, 64);
    // Cheap slots: chunks double up to the cap.
    race.advance(20_000, f64::INFINITY, || 0.0).unwrap();
    assert_eq!(race.chunk, MAX_CHUNK);
    // Slow ones (every chunk takes 3 ms by this clock): they halve down to one slot.
    let mut race = Race::new(&setup(&["bf-js"]), 64);
    race.chunk = 64;
    race.advance(500, f64::INFINITY, ticking(1.5)).unwrap();
    assert_eq!(race.chunk, 1);
}

#[test]
fn many_servers_are_drawn_compactly() {
    let mut setup = setup(&["bf-js"]);
    setup.scenario.set("servers", "1000").unwrap();
    let mut race = Race::new(&setup, 64);
    race.advance(50, f64::INFINITY, || 0.0).unwrap();
    let snap = race.snapshot(Phase::Paused, 7);
    assert!(!snap.detail);
    assert_eq!(snap.focus, 0);
    assert_eq!(snap.lanes[0].view.servers.len(), 1000);
    assert!(snap.lanes[0].view.servers.iter().all(|s| s.blocks.is_empty()));
}

fn race_of(preset: &str, policies: &[&str], sets: &[(&str, &str)]) -> Race {
    let mut setup = Setup::from_preset(preset).unwrap();
    setup.policies = policies.iter().map(|p| packlab_core::policy::PolicySpec::parse(p).unwrap()).collect();
    for (key, value) in sets {
        setup.scenario.set(key, value).unwrap();
    }
    Race::new(&setup, 64)
}

/// What the page shows of the race, to compare bit for bit: `Debug` writes every float
/// in its shortest round-trip form, and NaN (no mean yet) equals itself.
/// (How far the race went and its checkpoints are left out: they differ, rightly.)
fn at(race: &Race) -> String {
    let s = race.snapshot(Phase::Paused, 0);
    format!("{:?}", (s.now, s.slot, &s.lanes, &s.bin_series, &s.bin_job_time_series))
}

/// The timeline's contract: going back to a moment, or forward again, shows exactly what
/// playing there from the start shows: numbers, series and servers.
#[test]
fn going_back_and_forth_replays_bit_for_bit() {
    // Long enough for checkpoints spaced by their cost to lie along the run.
    for (preset, policies, servers) in
        [("msfq-d1", &["msf", "msfq"][..], "1"), ("pgrr-a1", &["vqs", "bf-js"][..], "50")]
    {
        let sets = [("horizon", "60000"), ("warmup", "100"), ("servers", servers)];
        let sets = if preset == "msfq-d1" { &sets[..2] } else { &sets[..] };
        let mut race = race_of(preset, policies, sets);
        race.advance(60_000, f64::INFINITY, || 0.0).unwrap();
        let end = at(&race);
        assert!(race.checkpoint_usage().0 > 4, "{preset}: checkpoints along the run: {:?}", race.checkpoint_usage());
        race.seek(31_234.0).unwrap();
        let mut fresh = race_of(preset, policies, sets);
        fresh.advance(31_234, f64::INFINITY, || 0.0).unwrap();
        assert_eq!(at(&race), at(&fresh), "{preset}: back to 31234");
        assert_eq!(race.furthest(), 60_000.0);
        race.seek(60_000.0).unwrap();
        assert_eq!(at(&race), end, "{preset}: forward to the end again");
        race.seek(0.0).unwrap();
        assert_eq!(at(&race), at(&race_of(preset, policies, sets)), "{preset}: back to the start");
    }
}

/// In continuous time a step is one event that does something; stepping back returns to
/// the event before, exactly as it was.
#[test]
fn a_step_is_one_event_and_step_back_returns_to_the_one_before() {
    let mut race = race_of("msfq-d1", &["msf", "first-fit"], &[("horizon", "100")]);
    race.advance(20, f64::INFINITY, || 0.0).unwrap();
    let (arrivals, events) = (race.snapshot(Phase::Paused, 0).lanes[0].arrivals, race.events());
    race.step().unwrap();
    let first = (race.now(), at(&race));
    assert!(first.0 > 20.0 && first.0 < 21.0, "msfq-d1 has about 7.5 arrivals per time unit: {}", first.0);
    assert!(race.events() > events);
    // One event: one arrival at most, in every lane.
    assert!(race.snapshot(Phase::Paused, 0).lanes.iter().all(|l| l.arrivals <= arrivals + 1));
    race.step().unwrap();
    assert!(race.now() > first.0);
    race.step_back().unwrap();
    assert_eq!((race.now(), at(&race)), first);
    // Slotted time steps slots.
    let mut slotted = race_of("pgrr-a1", &["bf-js"], &[]);
    slotted.step().unwrap();
    slotted.step().unwrap();
    slotted.step_back().unwrap();
    assert_eq!(slotted.now(), 1.0);
    assert_eq!(at(&slotted), {
        let mut one = race_of("pgrr-a1", &["bf-js"], &[]);
        one.step().unwrap();
        at(&one)
    });
}

/// Checkpoints thin out as the run grows: at most `MAX_CHECKPOINTS`, within the memory
/// budget on an unstable run of many servers, whose queue grows all along, and spaced by
/// what cloning costs against what the race simulates.
#[test]
fn checkpoints_stay_within_their_bounds() {
    use crate::play::checkpoints::{BUDGET_BYTES, BYTES_PER_EVENT, MAX_CHECKPOINTS};
    let sets = [("servers", "1000"), ("load", "1.3"), ("horizon", "3000"), ("warmup", "0")];
    let mut race = race_of("pgrr-a1", &["vqs", "bf-js"], &sets);
    race.advance(3_000, f64::INFINITY, || 0.0).unwrap();
    let (count, bytes) = race.checkpoint_usage();
    let queues: Vec<u64> = race.snapshot(Phase::Paused, 0).lanes.iter().map(|l| l.queue).collect();
    assert!(queues.iter().all(|&q| q > 10_000), "the run is unstable and its queue grows: {queues:?}");
    assert!((2..=MAX_CHECKPOINTS).contains(&count), "{count} checkpoints");
    assert!(bytes <= BUDGET_BYTES && bytes > 1 << 20, "{bytes} bytes");
    // What they cost: about a byte cloned per event simulated, not more (the first clones,
    // before the pace of events is known, are the slack).
    let (cloned, events) = race.checkpoint_cost();
    assert!(cloned <= 2 * BYTES_PER_EVENT * events + (4 << 20), "{cloned} bytes cloned for {events} events");
    let end = at(&race);
    race.seek(2_999.0).unwrap();
    race.seek(3_000.0).unwrap();
    assert_eq!(at(&race), end);
}

/// A stopped race's decisions, made by replaying its last stretch, are exactly the last
/// decisions of a run that logged all along; playing on keeps none.
#[test]
fn explaining_replays_exactly_the_decisions_made() {
    for (preset, policies, horizon) in [
        ("msfq-d1", &["msfq", "msf"][..], "400"),
        ("pgrr-a3", &["bf-js", "vqs"][..], "3000"),
        ("pgas-c3", &["dra"][..], "8"),
        ("ghra-b4", &["alg2-jsq"][..], "30"),
    ] {
        let sets = [("horizon", horizon), ("warmup", "0")];
        let mut race = race_of(preset, policies, &sets);
        let end = race.horizon() * 3 / 4;
        race.advance(end, f64::INFINITY, || 0.0).unwrap();
        assert!(!race.explaining() && race.snapshot(Phase::Paused, 0).lanes.iter().all(|l| l.decisions.is_empty()));
        let before = at(&race);
        race.explain().unwrap();
        let snap = race.snapshot(Phase::Paused, 0);
        for (lane, policy) in snap.lanes.iter().zip(policies) {
            let mut setup = Setup::from_preset(preset).unwrap();
            for (k, v) in sets {
                setup.scenario.set(k, v).unwrap();
            }
            let spec = packlab_core::policy::PolicySpec::parse(policy).unwrap();
            let mut full = live_run(&setup.scenario, &spec, Watch::page(64)).unwrap();
            full.run(end).unwrap();
            let all: Vec<_> = full.decisions().records().iter().cloned().collect();
            let k = lane.decisions.len();
            assert!(k == all.len(), "{preset} {policy}: {k} decisions explained, {} kept all along", all.len());
            assert_eq!(&lane.decisions[..], &all[..], "{preset} {policy}");
        }
        // The state is the same as before explaining, numbers and pictures.
        let mut quiet = at(&race);
        race.quiet();
        assert_ne!(quiet, at(&race), "{preset}: the decisions went with the log");
        quiet = at(&race);
        assert_eq!(quiet, before, "{preset}: explaining moved nothing");
    }
}

/// A script that loops at its 50th call: it stops its own lane, named, and the other runs on.
const LOOPS_LATE: &str = "fn schedule(ctx) {\n  if ctx.slot > 50 {\n    loop { }\n  }\n}\n";

#[test]
fn a_failing_script_stops_its_lane_and_the_others_run_to_the_horizon() {
    let script = packlab_core::script::spec_text(LOOPS_LATE).unwrap();
    let mut race = Race::new(&setup(&["bf-js", &script]), 64);
    assert_eq!(race.advance(10_000, f64::INFINITY, || 0.0).unwrap(), 1_000);
    assert!(race.finished());
    let snap = race.snapshot(Phase::Finished, 0);
    assert_eq!((snap.lanes[0].slot, snap.lanes[0].stopped.as_deref()), (1_000, None));
    let why = snap.lanes[1].stopped.clone().expect("the script's lane stopped");
    assert!(why.contains("script line 1: exceeded 1000000 operations"), "{why}");
    assert!(snap.lanes[1].slot <= 51, "the script's lane stopped at its slot: {}", snap.lanes[1].slot);
    // Going back before the failure runs the lane again, and forward it stops there again.
    race.seek(20.0).unwrap();
    assert_eq!(race.snapshot(Phase::Paused, 0).lanes[1].stopped, None);
    race.seek(900.0).unwrap();
    let again = race.snapshot(Phase::Paused, 0);
    assert_eq!(again.lanes[1].stopped.as_deref(), Some(why.as_str()));
    assert_eq!(again.lanes[0].slot, 900);
    race.explain().unwrap();
    // A lane that fails at its first call: stepping back after the horizon moves the others
    // one slot back, the failed lane staying stopped.
    let at_once = packlab_core::script::spec_text("fn schedule(ctx) {\n  loop { }\n}\n").unwrap();
    let mut race = Race::new(&setup(&["bf-js", &at_once]), 64);
    race.advance(10_000, f64::INFINITY, || 0.0).unwrap();
    race.step_back().unwrap();
    let back = race.snapshot(Phase::Paused, 0);
    assert_eq!(back.lanes[0].slot, 999);
    assert!(back.lanes[1].stopped.is_some());
}

#[test]
fn a_race_of_failing_scripts_only_stops_naming_the_last() {
    let script = packlab_core::script::spec_text(LOOPS_LATE).unwrap();
    let mut race = Race::new(&setup(&[&script]), 64);
    let e = race.advance(10_000, f64::INFINITY, || 0.0).unwrap_err();
    assert!(e.to_string().contains("exceeded 1000000 operations"), "{e}");
    assert!(race.failed_lane().is_some());
    // As any failure: every lane back at the last whole unit the failed one passed.
    assert!(race.slot() <= 51 && !race.finished(), "{}", race.slot());
}

/// Each lane's cost per slot, as a split race places its lanes by: nothing during the warm-up
/// (the browser still recompiling the wasm's hot functions), then the median of the last three
/// windows, so that one window in which a lane's thread waited for a core does not move them.
#[test]
fn costs_wait_out_the_warm_up_and_pass_over_a_window_with_a_wait() {
    use std::cell::Cell;
    let mut race = Race::new(&setup(&["bf-js", "vqs"]), 64);
    // One slot per call: the clock is read at the call's start, the chunk's start, around each
    // lane, and the chunk's end; lane 0 takes 1 ms a slot, lane 1 2 ms, plus any wait.
    let (reads, now, wait) = (Cell::new(0_u64), Cell::new(0.0), Cell::new(0.0));
    let clock = || {
        let read = reads.get();
        reads.set(read + 1);
        match read % 7 {
            3 => now.set(now.get() + 1.0 + wait.replace(0.0)),
            5 => now.set(now.get() + 2.0),
            _ => {}
        }
        now.get()
    };
    let costs = |race: &Race| race.snapshot(Phase::Running, 0).costs;
    // A window is 100 ms of the lanes' time: 34 slots of 3 ms.
    let slots_per_window = 34;
    for _ in 0..(costs::WARMUP_WINDOWS as usize + costs::WINDOWS - 1) * slots_per_window {
        assert_eq!(race.advance(1, f64::INFINITY, clock).unwrap(), 1);
    }
    assert!(costs(&race).is_empty(), "no costs before {} windows past the warm-up", costs::WINDOWS);
    for _ in 0..slots_per_window {
        race.advance(1, f64::INFINITY, clock).unwrap();
    }
    assert_eq!(costs(&race), [1.0, 2.0]);
    // Lane 0's thread waits 300 ms in a slot: that window ends there, and is passed over.
    wait.set(300.0);
    race.advance(1, f64::INFINITY, clock).unwrap();
    assert_eq!(costs(&race), [1.0, 2.0]);
    for _ in 0..slots_per_window {
        race.advance(1, f64::INFINITY, clock).unwrap();
    }
    assert_eq!(costs(&race), [1.0, 2.0]);
}
