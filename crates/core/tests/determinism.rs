//! Same scenario + seed ⇒ the same trajectory; policies share their arrivals (common random
//! numbers).

use packlab_core::policy::{Model, PolicyKind, PolicySpec};
use packlab_core::report::{run, slotted_sim};
use packlab_core::scenario::{Scenario, preset};

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
    let mut sims: Vec<_> =
        PolicyKind::of_model(Model::Pgrr).map(|k| slotted_sim(&s, &PolicySpec::new(k), 64)).collect();
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
fn fingerprint(run: &dyn packlab_core::view::LiveRun) -> Vec<u64> {
    let mut bits = vec![run.time(), run.queue_len(), run.arrivals(), run.mean_queue().to_bits()];
    bits.push(run.mean_occupancy().to_bits());
    bits.extend(run.mean_job_time().map(f64::to_bits));
    bits.extend(run.mean_reward().map(f64::to_bits));
    let series = [run.queue_series(), run.occupancy_series(), run.job_time_series(), run.reward_series()];
    for points in series.into_iter().chain((0..run.bin_labels().len()).map(|b| run.bin_series(b))) {
        bits.extend(points.iter().flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()]));
    }
    bits
}

/// The page steps a run frame by frame, a different number of time units each frame; the CLI
/// runs it in one go. Where the frames fall must not change a single bit of what is measured.
#[test]
fn stepping_in_chunks_changes_no_bit() {
    for (id, policy) in [
        ("msfq-d1", "msfq"),
        ("msfq-d5", "adaptive-qs"),
        ("ghra-b3", "alg2-jsq"),
        ("ghra-b3", "mw-local"),
        ("pgas-c4", "dra"),
    ] {
        let mut s = preset(id).unwrap().scenario;
        s.set_horizon_scaled(4_000).unwrap();
        let policy = PolicySpec::parse(policy).unwrap();
        let mut whole = packlab_core::report::live_run(&s, &policy, 256).unwrap();
        whole.run(4_000).unwrap();
        let mut chunked = packlab_core::report::live_run(&s, &policy, 256).unwrap();
        for step in [1, 2, 3, 5, 7, 11, 13, 17].iter().cycle() {
            let left = 4_000 - chunked.time();
            if left == 0 {
                break;
            }
            chunked.run(left.min(*step)).unwrap();
        }
        let points = whole.queue_series().len().max(whole.reward_series().len());
        assert!(whole.arrivals() > 1_000 && points > 10, "{id}: the run must measure something");
        assert_eq!(fingerprint(&*whole), fingerprint(&*chunked), "{id} {policy:?}");
    }
}
