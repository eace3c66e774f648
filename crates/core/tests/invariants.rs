//! Property tests over random scenarios and every PG-RR policy: the engine never lets a
//! policy exceed a capacity, lose or duplicate a job, or stop a job before its service ends;
//! and BF-J/S leaves no waiting job that fits a server (SPEC 2.2.3, 6.1 item 3).

use std::collections::BTreeMap;

use packlab_core::model::{Model, start};
use packlab_core::models::pgrr::{JobId, Pgrr, PgrrScenario, ServerId, SizeDist, SlotService, TraceSource};
use packlab_core::policy::PolicySpec;
use packlab_core::view::Watch;
use packlab_core::window::RunWindow;
use proptest::prelude::*;

fn size_dist() -> impl Strategy<Value = SizeDist> {
    prop_oneof![
        (1u32..=900, 0u32..=1000).prop_map(|(lo, w)| {
            let hi = (lo + w).min(1000);
            SizeDist::parse(&format!("uniform:{},{}", lo as f64 / 1000.0, hi as f64 / 1000.0)).unwrap()
        }),
        prop::collection::btree_set(1u32..=100, 1..4).prop_map(|sizes| {
            let n = sizes.len();
            let pairs: Vec<String> = sizes.iter().map(|s| format!("{}@1/{n}", *s as f64 / 100.0)).collect();
            SizeDist::parse(&format!("discrete:{}", pairs.join(","))).unwrap()
        }),
    ]
}

/// Any policy of the model's registry, with any parameters it takes.
fn policy() -> impl Strategy<Value = PolicySpec> {
    (0..Pgrr::POLICIES.len(), prop::collection::vec(any::<usize>(), 8))
        .prop_map(|(i, picks)| PolicySpec::sampled(&Pgrr::INFO, &Pgrr::POLICIES[i].meta, &picks))
}

fn scenario() -> impl Strategy<Value = PgrrScenario> {
    (
        1u32..=6,
        0.2f64..1.4,
        size_dist(),
        prop_oneof![
            (1u32..=30).prop_map(|m| format!("geometric:{m}")),
            (1u32..=30).prop_map(|m| format!("deterministic:{m}"))
        ],
        any::<u64>(),
    )
        .prop_map(|(servers, load, size, service, seed)| PgrrScenario {
            servers,
            load,
            size,
            service: SlotService::parse(&service).unwrap(),
            j: 3,
            trace: TraceSource::None,
            window: RunWindow::new(seed, 400, 0, 10.0),
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_keeps_every_invariant(s in scenario(), p in policy()) {
        let mut sim = start::<Pgrr>(&s, &p, Watch::batch(64)).unwrap();
        // Where and until when each running job was last seen.
        let mut running: BTreeMap<JobId, (ServerId, u64)> = BTreeMap::new();
        let mut departed = 0u64;
        // Service length of every job, as drawn at its arrival.
        let mut service: BTreeMap<JobId, u64> = BTreeMap::new();
        for _ in 0..s.window.horizon {
            sim.step().unwrap();
            let t = sim.slot() - 1;
            service.extend(sim.arrivals().iter().map(|j| (j.id, j.service)));
            let cluster = sim.cluster();
            let mut now: BTreeMap<JobId, (ServerId, u64)> = BTreeMap::new();
            for (id, server) in cluster.servers().iter().enumerate() {
                // Capacity: what the server holds never exceeds it.
                let held: u64 = cluster.jobs_on(id as ServerId).map(|j| j.occupies.primary()).sum();
                prop_assert_eq!(held, server.used().primary());
                prop_assert!(server.used().le(&server.capacity()), "server {} over capacity", id);
                for job in cluster.jobs_on(id as ServerId) {
                    prop_assert!(job.start >= job.arrival && job.departure > t);
                    prop_assert_eq!(job.departure, job.start + service[&job.id], "job {} served for the wrong time", job.id);
                    prop_assert!(now.insert(job.id, (id as ServerId, job.departure)).is_none(), "job {} twice", job.id);
                }
            }
            // Non-preemption: a running job stays on its server until its departure slot.
            for (job, (server, departure)) in &running {
                match now.get(job) {
                    Some(&(s_now, d_now)) => prop_assert_eq!((s_now, d_now), (*server, *departure)),
                    None => {
                        prop_assert_eq!(*departure, t, "job {} left early or late", job);
                        departed += 1;
                    }
                }
            }
            // No job lost or duplicated: waiting + running + departed = arrivals.
            let waiting: Vec<JobId> = sim.queue().iter().map(|j| j.id).collect();
            prop_assert!(waiting.iter().all(|id| !now.contains_key(id)));
            let counters = sim.counters();
            prop_assert_eq!(counters.departed, departed);
            prop_assert_eq!(waiting.len() as u64 + now.len() as u64 + departed, counters.arrivals);
            prop_assert_eq!(counters.started, now.len() as u64 + departed);
            // BF-J/S: after each slot no waiting job fits any server.
            if p.name() == "bf-js"
                && let Some(smallest) = sim.queue().min_size() {
                    prop_assert!(smallest > cluster.max_residual(), "a waiting job fits after BF-J/S");
                }
            running = now;
        }
    }
}
