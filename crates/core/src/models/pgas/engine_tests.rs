use std::sync::Arc;

use proptest::prelude::*;

use super::state::{Arrivals, PgasConfig};
use super::theory::{Packing, RewardInstance};
use super::{ConfigId, Pgas, PgasContext, PgasDecision, PgasPolicy, PgasSim, Trace};
use crate::EngineError;
use crate::model::Model;
use crate::model::policy::PolicySpec;
use crate::resources::Resources;

/// `spec` built for the system of `config`.
fn build(spec: &PolicySpec, config: &PgasConfig) -> Box<dyn PgasPolicy> {
    (Pgas::policy(spec).unwrap().build)(spec, config).unwrap()
}

/// Two servers of capacity 4, types of size 2 (reward 3) and 1 (reward 1).
fn tiny(rates: &[f64]) -> PgasConfig {
    let demands = vec![Resources::scalar(2), Resources::scalar(1)];
    let instance = RewardInstance::new(demands.clone(), vec![3, 1], Resources::scalar(4)).unwrap();
    PgasConfig {
        servers: 2,
        built: 2,
        capacity: Resources::scalar(4),
        demands,
        reward_units: vec![3, 1],
        reward_denominator: 1,
        priorities: None,
        packing: Packing::Enumerated(Arc::new(instance)),
        arrivals: Arrivals::Poisson { rates: rates.to_vec(), mean_service: vec![1.0; rates.len()] },
        warmup: 0.0,
        horizon: 10.0,
        sample_every: 1.0,
        max_points: 64,
        details: true,
        type_names: vec!["a".into(), "b".into()],
        resource_names: Vec::new(),
    }
}

type Step = Box<dyn FnMut(usize, &mut PgasContext<'_>) -> Result<(), EngineError>>;

/// A policy that runs `begin` at time 0 and `arrive` on each arrival. (Its clones, which no
/// test makes, would share the closures.)
#[derive(Clone)]
struct Script {
    begin: std::rc::Rc<std::cell::RefCell<Step>>,
    arrive: std::rc::Rc<std::cell::RefCell<Step>>,
}

impl PgasPolicy for Script {
    fn begin(&mut self, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        (self.begin.borrow_mut())(0, ctx)
    }
    fn on_arrival(&mut self, job_type: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        (self.arrive.borrow_mut())(job_type, ctx)
    }
}

fn script(begin: Step, arrive: Step) -> Box<dyn PgasPolicy> {
    Box::new(Script { begin: std::rc::Rc::new(begin.into()), arrive: std::rc::Rc::new(arrive.into()) })
}

fn nothing() -> Step {
    Box::new(|_, _| Ok(()))
}

fn at_begin(step: Step) -> Option<EngineError> {
    PgasSim::new(tiny(&[1.0, 1.0]), script(step, nothing()), 1).err()
}

/// The first error of a run whose arrivals are answered by `arrive`, after `begin`.
fn on_arrival(begin: Step, arrive: Step) -> Option<EngineError> {
    let mut sim = PgasSim::new(tiny(&[5.0, 5.0]), script(begin, arrive), 1).unwrap();
    sim.run_until(10.0).err()
}

/// Server 0 runs one slot of each type, server 1 none: (1, 1) and (0, 0).
fn deploy() -> Step {
    Box::new(|_, ctx| {
        let k = ctx.configuration(&[1, 1])?;
        let zero = ctx.configuration(&[0, 0])?;
        ctx.apply(PgasDecision::Reconfigure { server: 0, configuration: k })?;
        ctx.apply(PgasDecision::Reconfigure { server: 1, configuration: zero })
    })
}

#[test]
fn the_engine_refuses_what_the_model_forbids() {
    // No arrival to answer at time 0.
    assert_eq!(at_begin(Box::new(|_, ctx| ctx.apply(PgasDecision::Reject))), Some(EngineError::NoArrival));
    assert_eq!(at_begin(Box::new(|_, ctx| ctx.apply(PgasDecision::Admit { server: 0 }))), Some(EngineError::NoArrival));
    // (3, 0) needs 6 of 4 units; a count vector of the wrong length is no configuration.
    assert!(matches!(
        at_begin(Box::new(|_, ctx| ctx.configuration(&[3, 0]).map(|_| ()))),
        Some(EngineError::InfeasibleConfiguration { .. })
    ));
    assert!(matches!(
        at_begin(Box::new(|_, ctx| ctx.configuration(&[1]).map(|_| ()))),
        Some(EngineError::InfeasibleConfiguration { .. })
    ));
    assert!(matches!(
        at_begin(Box::new(|_, ctx| ctx.apply(PgasDecision::Reconfigure { server: 0, configuration: 7 }))),
        Some(EngineError::InfeasibleConfiguration { .. })
    ));
    assert_eq!(
        at_begin(Box::new(|_, ctx| ctx.apply(PgasDecision::Preempt { server: 0, job_type: 0 }))),
        Some(EngineError::NoJobOfType { server: 0, job_type: 0 })
    );
    assert_eq!(
        at_begin(Box::new(|_, ctx| ctx.apply(PgasDecision::Migrate { job_type: 1, from: 0, to: 1 }))),
        Some(EngineError::NoJobOfType { server: 0, job_type: 1 })
    );
    assert_eq!(
        at_begin(Box::new(|_, ctx| ctx.apply(PgasDecision::Migrate { job_type: 1, from: 0, to: 5 }))),
        Some(EngineError::NoSuchServer { server: 5 })
    );

    // An arrival must be answered, once.
    assert!(matches!(on_arrival(deploy(), nothing()), Some(EngineError::Unanswered { job: 0 })));
    let twice: Step = Box::new(|_, ctx| {
        ctx.apply(PgasDecision::Reject)?;
        ctx.apply(PgasDecision::Reject)
    });
    assert_eq!(on_arrival(deploy(), twice), Some(EngineError::NoArrival));
    // Server 1 deploys no slot; without configuration a server takes what fits, but only the
    // upper bound admits without a server.
    assert!(matches!(
        on_arrival(deploy(), Box::new(|_, ctx| ctx.apply(PgasDecision::Admit { server: 1 }))),
        Some(EngineError::NoSlot { server: 1, .. })
    ));
    assert!(matches!(
        on_arrival(deploy(), Box::new(|_, ctx| ctx.apply(PgasDecision::AdmitUnplaced))),
        Some(EngineError::NoSlot { .. })
    ));
    // Server 0 has one slot per type: the second job of a type finds it taken.
    let fill: Step = Box::new(|_, ctx| ctx.apply(PgasDecision::Admit { server: 0 }));
    assert!(matches!(on_arrival(deploy(), fill), Some(EngineError::NoSlot { server: 0, .. })));
    // A configuration may change only on an empty server.
    let reconfigure_busy: Step = Box::new(|_, ctx| {
        if ctx.state().jobs_on(0) == 0 {
            return ctx.apply(PgasDecision::Admit { server: 0 });
        }
        let zero = ctx.configuration(&[0, 0])?;
        ctx.apply(PgasDecision::Reconfigure { server: 0, configuration: zero })
    });
    assert!(matches!(on_arrival(deploy(), reconfigure_busy), Some(EngineError::ServerBusy { server: 0, jobs: 1 })));
    // Migration needs a free slot of the type at the destination.
    let migrate: Step = Box::new(|_, ctx| {
        if ctx.state().jobs_on(0) == 0 {
            return ctx.apply(PgasDecision::Admit { server: 0 });
        }
        let j = (0..2).find(|&j| ctx.state().placed(0, j) > 0).unwrap() as u16;
        ctx.apply(PgasDecision::Migrate { job_type: j, from: 0, to: 1 })
    });
    assert!(matches!(on_arrival(deploy(), migrate), Some(EngineError::NoSlot { server: 1, .. })));
    // Without configuration, capacity is the limit: two size-2 jobs fit a server, a third not.
    let free: Step =
        Box::new(
            |j, ctx| {
                if j == 0 { ctx.apply(PgasDecision::Admit { server: 0 }) } else { ctx.apply(PgasDecision::Reject) }
            },
        );
    let mut sim = PgasSim::new(tiny(&[5.0, 0.0]), script(nothing(), free), 1).unwrap();
    let e = sim.run_until(10.0).unwrap_err();
    assert!(matches!(e, EngineError::NoSlot { server: 0, job_type: 0 }), "{e}");
    assert_eq!(sim.state().placed(0, 0), 2);
    sim.check_invariants().unwrap();
}

#[test]
fn a_migrated_job_keeps_its_departure_and_a_preempted_one_never_departs() {
    // Server 0 deploys two size-1 slots, server 1 too; every type-1 job goes to server 0, and
    // the first arrival after it holds two is moved to server 1; the third is preempted.
    let begin: Step = Box::new(|_, ctx| {
        let k = ctx.configuration(&[0, 2])?;
        ctx.apply(PgasDecision::Reconfigure { server: 0, configuration: k })?;
        ctx.apply(PgasDecision::Reconfigure { server: 1, configuration: k })
    });
    let arrive: Step = Box::new(|_, ctx| {
        let st = ctx.state();
        match (st.placed(0, 1), st.placed(1, 1)) {
            (2, 0) => {
                ctx.apply(PgasDecision::Migrate { job_type: 1, from: 0, to: 1 })?;
                ctx.apply(PgasDecision::Admit { server: 0 })
            }
            (2, 2) => {
                ctx.apply(PgasDecision::Preempt { server: 1, job_type: 1 })?;
                ctx.apply(PgasDecision::Reject)
            }
            (p, _) if p < 2 => ctx.apply(PgasDecision::Admit { server: 0 }),
            _ => ctx.apply(PgasDecision::Admit { server: 1 }),
        }
    });
    let mut sim = PgasSim::new(tiny(&[0.0, 2.0]), script(begin, arrive), 7).unwrap();
    sim.run_until(50.0).unwrap();
    sim.check_invariants().unwrap();
    let s = sim.stats();
    assert!(s.migrations > 0 && s.preemptions > 0, "{} {}", s.migrations, s.preemptions);
    assert_eq!(s.arrivals, s.admitted + s.rejected);
    let in_system: u64 = (0..2).map(|j| sim.state().in_system(j)).sum();
    assert_eq!(s.admitted, s.departures + s.preemptions + in_system);
}

fn small_instance() -> impl Strategy<Value = (Vec<Vec<u64>>, Vec<u64>, Vec<u64>)> {
    (1usize..=2, 1usize..=3).prop_flat_map(|(dims, types)| {
        (
            proptest::collection::vec(proptest::collection::vec(1u64..=6, dims), types),
            proptest::collection::vec(1u64..=9, types),
            proptest::collection::vec(6u64..=12, dims),
        )
    })
}

/// A run of `policy` on random types, checking SPEC 4.3's invariants after every event.
fn check_run(config: PgasConfig, policy: &PolicySpec, seed: u64, events: u64) -> Result<(), TestCaseError> {
    let built = build(policy, &config);
    let dra = matches!(policy.name(), "dra" | "dra-preempt");
    let mut sim = PgasSim::new(PgasConfig { details: true, ..config }, built, seed).unwrap();
    for _ in 0..events {
        if sim.run_events(1).unwrap() == 0 {
            break;
        }
        sim.check_invariants().map_err(TestCaseError::fail)?;
        let s = sim.stats();
        let st = sim.state();
        let in_system: u64 = (0..st.types()).map(|j| st.in_system(j)).sum();
        // No job is lost except by rejection or preemption.
        prop_assert_eq!(s.arrivals, s.admitted + s.rejected);
        prop_assert_eq!(s.admitted, s.departures + s.preemptions + in_system);
        if dra {
            // At most one reject-group server per configuration, and |RG| as reported.
            let mut rejected: Vec<ConfigId> = (0..st.servers())
                .filter(|&l| sim.classify(l).unwrap().reject_group)
                .map(|l| st.configuration(l).unwrap())
                .collect();
            let count = rejected.len();
            rejected.sort_unstable();
            rejected.dedup();
            prop_assert_eq!(rejected.len(), count, "two reject-group servers share a configuration");
            prop_assert_eq!(count, sim.reject_group());
            // Every server is configured; ranks run 1..=J+1 and index 1..=X_k.
            for l in 0..st.servers() {
                let class = sim.classify(l).unwrap();
                prop_assert!(class.rank >= 1 && class.rank as usize <= st.types() + 1);
                let c = st.configuration(l).unwrap();
                let members = (0..st.servers()).filter(|&m| st.configuration(m) == Some(c)).count();
                prop_assert!(class.index >= 1 && class.index as usize <= members);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// SPEC 6.1-10: k̂ ≤ k, configurations change only on empty servers (the engine refuses
    /// anything else, and an error fails the run), at most one RG server per configuration, Y
    /// matches the jobs in the servers, no job lost but by rejection, for DRA (any g),
    /// power-of-d and the upper bound on random instances.
    #[test]
    fn dra_invariants_hold_on_random_instances(
        (demands, rewards, capacity) in small_instance(),
        servers in 1usize..=8,
        rho in proptest::collection::vec(0.2f64..3.0, 3),
        g in 0u32..4,
        seed in 0u64..1000,
    ) {
        let to_res = |v: &[u64]| Resources::from_slice(v).unwrap();
        let demands: Vec<Resources> = demands.iter().map(|d| to_res(d)).collect();
        let capacity = to_res(&capacity);
        prop_assume!(demands.iter().all(|d| d.le(&capacity)));
        let types = demands.len();
        let instance = RewardInstance::new(demands.clone(), rewards.clone(), capacity).unwrap();
        let config = PgasConfig {
            servers,
            built: servers,
            capacity,
            demands,
            reward_units: rewards,
            reward_denominator: 1,
            priorities: None,
            packing: Packing::Enumerated(Arc::new(instance)),
            arrivals: Arrivals::Poisson {
                rates: rho[..types].iter().map(|r| r * servers as f64).collect(),
                mean_service: vec![1.0; types],
            },
            warmup: 0.0,
            horizon: 1e9,
            sample_every: 1.0,
            max_points: 64,
            details: true,
            type_names: (0..types).map(|j| j.to_string()).collect(),
            resource_names: Vec::new(),
        };
        for policy in [format!("dra:g={g}"), "po-d:d=2".to_string(), "upper-bound".to_string()] {
            check_run(config.clone(), &PolicySpec::parse(&policy).unwrap(), seed, 400)?;
        }
    }

    /// The same for DRA and DRA+Preemption on random traces (homogeneous configurations,
    /// priorities, trace durations that migrations must keep).
    #[test]
    fn dra_invariants_hold_on_random_traces(
        tasks in proptest::collection::vec((0u32..400, 1u32..300, 0usize..4, 0u8..12), 1..120),
        servers in 1u32..=5,
        g in 0u32..4,
    ) {
        let sizes = ["1", "0.5", "0.25", "0.1"];
        let text: String = tasks
            .iter()
            .map(|(submit, duration, size, priority)| {
                format!("{},{},{},{priority}\n", f64::from(*submit) / 100.0, f64::from(*duration) / 100.0, sizes[*size])
            })
            .collect();
        let mut s = crate::scenario::preset("pgas-c5").unwrap().scenario;
        s.set("servers", &servers.to_string()).unwrap();
        let crate::scenario::Scenario::Pgas(mut p) = s else { panic!("pgas-c5 is a PG-AS scenario") };
        p.attach_trace(Trace::from_csv(&text).unwrap());
        let config = p.engine_config(64).unwrap();
        for policy in [format!("dra:g={g}"), format!("dra-preempt:g={g}"), "po-d".to_string(), "upper-bound".to_string()] {
            check_run(config.clone(), &PolicySpec::parse(&policy).unwrap(), 1, 1000)?;
        }
    }
}

#[test]
fn same_seed_same_run_and_the_same_arrivals_under_every_policy() {
    let s = crate::scenario::preset("pgas-c6").unwrap().scenario;
    let crate::scenario::Scenario::Pgas(p) = s else { panic!("PG-AS") };
    let run = |policy: &str| {
        let spec = PolicySpec::parse(policy).unwrap();
        let mut sim =
            PgasSim::new(p.engine_config(64).unwrap(), build(&spec, &p.engine_config(64).unwrap()), 3).unwrap();
        sim.run_until(20.0).unwrap();
        let per_type: Vec<u64> = (0..3).map(|j| sim.stats().type_in_system[j].value() as u64).collect();
        (sim.stats().arrivals, sim.stats().admitted, per_type, sim.stats().reward.value().to_bits())
    };
    assert_eq!(run("dra"), run("dra"));
    let (dra, po_d) = (run("dra"), run("po-d"));
    assert_eq!(dra.0, po_d.0, "common random numbers: the same jobs arrive");
    assert_ne!((dra.1, dra.3), (po_d.1, po_d.3));
}
