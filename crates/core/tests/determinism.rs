//! Same scenario + seed ⇒ the same trajectory; policies share their arrivals (common random
//! numbers).

use packlab_core::model::{Model, start};
use packlab_core::models::pgrr::Pgrr;
use packlab_core::models::{Scenario, all_policies};
use packlab_core::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::{preset, preset_for};
use packlab_core::view::{LiveRun, Metric, Watch};

fn json(id: &str, policy: &str, seed: &str) -> String {
    let mut s = preset(id).unwrap().scenario;
    s.set("horizon", "200000").unwrap();
    s.set("warmup", "20000").unwrap();
    s.set("seed", seed).unwrap();
    let out = run(id, &s, &PolicySpec::parse(policy).unwrap()).unwrap();
    serde_json::to_string(&(out.report, out.queue)).unwrap()
}

#[test]
fn same_seed_same_report_and_trajectory() {
    for (id, policy) in [("pgrr-a1", "vqs"), ("pgrr-a3", "bf-js"), ("pgrr-a4", "vqs-bf:ties=random")] {
        assert_eq!(json(id, policy, "11"), json(id, policy, "11"), "{id} {policy}");
        assert_ne!(json(id, policy, "11"), json(id, policy, "12"), "{id} {policy}: the seed must matter");
    }
}

/// Every policy sees the same jobs (id, arrival slot, size, service length) in the same
/// order: arrivals, sizes and service lengths come from their own streams.
#[test]
fn policies_see_the_same_arrivals() {
    let Scenario::Pgrr(s) = preset("pgrr-a3").unwrap().scenario else { unreachable!("a PG-RR preset") };
    let mut sims: Vec<_> = Pgrr::POLICIES
        .iter()
        .map(|p| start::<Pgrr>(&s, &PolicySpec::parse(p.meta.name).unwrap(), Watch::batch(64)).unwrap())
        .collect();
    let mut total = 0;
    for _ in 0..20_000 {
        let mut seen = Vec::new();
        for sim in &mut sims {
            sim.step().unwrap();
            seen.push(sim.arrivals().iter().map(|j| (j.id, j.arrival, j.size, j.service)).collect::<Vec<_>>());
        }
        assert!(seen.windows(2).all(|w| w[0] == w[1]));
        total += seen[0].len();
    }
    assert!(total > 9_000, "the test must see arrivals ({total})");
    // And the policies really differ in what they do with them.
    let queues: Vec<usize> = sims.iter().map(|s| s.queue().len()).collect();
    assert!(queues.windows(2).any(|w| w[0] != w[1]), "{queues:?}");
}

/// Everything a page reads from a run, as bits: the same run read after stepping in other
/// chunks must give the same bits, or a replayed link would differ in the last digits.
fn fingerprint(run: &dyn LiveRun) -> Vec<u64> {
    let r = run.readings();
    let mut bits = vec![run.time(), r.queue_len, r.arrivals, r.mean_queue.to_bits(), r.mean_occupancy.to_bits()];
    bits.extend(r.mean_job_time.map(f64::to_bits));
    bits.extend(r.mean_reward.map(f64::to_bits));
    let bins = run.bin_labels().len();
    let metrics = [Metric::Queue, Metric::Occupancy, Metric::JobTime, Metric::InSystem, Metric::Reward]
        .into_iter()
        .chain((0..bins).flat_map(|b| [Metric::Bin(b), Metric::BinJobTime(b)]));
    for metric in metrics {
        bits.extend(run.series(metric).iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
    }
    bits
}

/// Every registered policy, each with a short run of the first preset it runs on
/// ([`preset_for`]), for the tests that cover every policy. A policy that fits no preset
/// fails them rather than being skipped.
fn every_policy() -> Vec<(PolicySpec, Scenario)> {
    all_policies()
        .map(|(model, meta)| {
            let policy = PolicySpec::parse(meta.name).unwrap();
            let preset = preset_for(&policy)
                .unwrap_or_else(|| panic!("{}: no preset of {} runs it, so it goes unchecked", meta.name, model.name));
            // About the same number of events in every model: PG-AS handles hundreds per time
            // unit, ten times more on its trace (c5, the preset with priorities).
            let horizon = match (model.id, preset.id) {
                ("pgas", "pgas-c5") => 2,
                ("pgas", _) => 20,
                _ => 4_000,
            };
            let mut s = preset.scenario;
            s.set_horizon_scaled(horizon.min(s.horizon())).unwrap();
            (policy, s)
        })
        .collect()
}

/// The page steps a run frame by frame, a different number of time units each frame, keeping
/// details (DRA's ranking); the CLI runs it in one go without them. Neither where the frames
/// fall nor the details may change a single bit of what is measured, for every registered
/// policy on the first preset it runs on.
#[test]
fn every_policy_measures_the_same_bits_stepped_in_chunks_as_in_one_go() {
    for (policy, s) in every_policy() {
        let horizon = s.horizon();
        let mut whole = packlab_core::report::live_run(&s, &policy, Watch::batch(256)).unwrap();
        whole.run(horizon).unwrap();
        let mut chunked = packlab_core::report::live_run(&s, &policy, Watch::page(256)).unwrap();
        for step in [1, 2, 3, 5, 7, 11, 13, 17].iter().cycle() {
            let left = horizon - chunked.time();
            if left == 0 {
                break;
            }
            chunked.run(left.min(*step)).unwrap();
        }
        assert!(whole.readings().arrivals > 10, "{policy}: the run must measure something");
        assert_eq!(fingerprint(&*whole), fingerprint(&*chunked), "{policy}");
    }
}

/// Every registered policy, on the first preset it runs on, replays bit for bit from its
/// scenario and seed, and the seed matters.
#[test]
fn every_policy_replays_bit_for_bit_from_its_seed_and_the_seed_matters() {
    for (policy, s) in every_policy() {
        let report = |seed: u64| {
            let mut s = s.clone();
            s.set("seed", &seed.to_string()).unwrap();
            let out = run("test", &s, &policy).unwrap();
            serde_json::to_string(&(out.report, out.queue, out.reward)).unwrap()
        };
        assert_eq!(report(11), report(11), "{policy}");
        assert_ne!(report(11), report(12), "{policy}: the seed must matter");
    }
}

/// The page's timeline keeps clones of a run as checkpoints and replays from them: a clone run
/// on must give exactly the bits of the original, for every registered policy on the first
/// preset it runs on (a policy that kept shared state, or an engine that left something out of
/// the clone, would differ). Cutting at single events (the page's finest step) changes no bit
/// either.
#[test]
fn every_policy_clone_replays_bit_for_bit_and_event_steps_change_no_bit() {
    for (policy, s) in every_policy() {
        let model = policy.model();
        let horizon = s.horizon();
        let mut original = packlab_core::report::live_run(&s, &policy, Watch::page(256)).unwrap();
        original.run(horizon / 2).unwrap();
        let mut clone = dyn_clone::clone_box(&*original);
        original.run(horizon - horizon / 2).unwrap();
        assert_ne!(fingerprint(&*original), fingerprint(&*clone), "{policy}: the clone is a different moment");
        // The clone goes event by event for a while, as the page's step does, then on.
        let mut events = 0;
        while events < 200 {
            let Some(t) = clone.next_event() else { break };
            assert!(t >= clone.now(), "{policy}: events come in time order");
            clone.run_to(t).unwrap();
            assert_eq!(clone.now(), t.max(clone.now()));
            events += 1;
        }
        assert_eq!(events > 0, model.id != "pgrr", "{policy}: only continuous time has events to step");
        clone.run_to(horizon as f64).unwrap();
        assert_eq!(fingerprint(&*original), fingerprint(&*clone), "{} {policy:?}", model.id);
        assert_eq!(original.view(true), clone.view(true), "{} {policy:?}: the servers as drawn", model.id);
    }
}
