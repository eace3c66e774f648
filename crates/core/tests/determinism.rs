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
