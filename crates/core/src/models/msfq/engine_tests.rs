//! Engine invariants of the multiserver-job model.

use crate::view::Watch;
use proptest::prelude::*;

use super::classes::JobClasses;
use super::{Msfq, MsfqContext, MsfqDecision, MsfqPolicy, MsfqScenario, MsfqSim};
use crate::EngineError;
use crate::model::policy::PolicySpec;
use crate::model::{Model, start};
use crate::window::RunWindow;
use crate::workload::ServiceLaw;

fn config(cores: u32, classes: &str, load: f64) -> MsfqScenario {
    MsfqScenario {
        cores,
        load,
        classes: JobClasses::parse(classes).unwrap(),
        service: ServiceLaw::Exponential,
        trace: None,
        window: RunWindow::new(1, 1_000, 0, 10.0),
    }
}

fn sim(mut scenario: MsfqScenario, policy: &str, seed: u64) -> MsfqSim {
    scenario.window.seed = seed;
    start::<Msfq>(&scenario, &PolicySpec::parse(policy).unwrap(), Watch::batch(64)).unwrap()
}

fn names(skip: &str) -> Vec<&'static str> {
    Msfq::POLICIES.iter().map(|p| p.meta.name).filter(|n| *n != skip).collect()
}

/// Cores in use equal the needs of the running jobs, never more than k; every arrival is
/// waiting, running or completed.
fn check_invariants(sim: &MsfqSim) {
    if let Err(e) = sim.check_invariants() {
        panic!("{e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn invariants_hold_for_every_policy(
        seed in 0u64..1000,
        cores in 2u32..20,
        load in 0.5f64..12.0,
        policy in 0usize..16,
    ) {
        let names = names("");
        let name = names[policy % names.len()];
        // One-or-all classes so that MSFQ applies too.
        let mut s = sim(config(cores, &format!("1@0.7,{cores}@0.3"), load), name, seed);
        for step in 1..=40 {
            s.run_until(step as f64 * 5.0).unwrap();
            check_invariants(&s);
        }
    }

    #[test]
    fn invariants_hold_with_general_classes(seed in 0u64..1000, load in 0.5f64..6.0, policy in 0usize..16) {
        let names = names("msfq");
        let name = names[policy % names.len()];
        let mut s = sim(config(15, "1@0.5,3@0.25,5@0.2,15@0.05", load), name, seed);
        for step in 1..=40 {
            s.run_until(step as f64 * 5.0).unwrap();
            check_invariants(&s);
        }
    }
}

#[test]
fn same_seed_same_path_and_common_arrivals() {
    let a = {
        let mut s = sim(config(8, "1@0.8,8@0.2", 3.0), "first-fit", 7);
        s.run_until(2_000.0).unwrap();
        s
    };
    let b = {
        let mut s = sim(config(8, "1@0.8,8@0.2", 3.0), "first-fit", 7);
        s.run_until(2_000.0).unwrap();
        s
    };
    assert_eq!(a.stats().classes[1], b.stats().classes[1]);
    // Another policy sees the same arrivals.
    let mut c = sim(config(8, "1@0.8,8@0.2", 3.0), "msf", 7);
    c.run_until(2_000.0).unwrap();
    assert_eq!(a.stats().arrivals, c.stats().arrivals);
    assert_eq!(
        a.stats().classes.iter().map(|x| x.arrivals).collect::<Vec<_>>(),
        c.stats().classes.iter().map(|x| x.arrivals).collect::<Vec<_>>()
    );
}

/// A policy bug is refused, not applied: starting a job that does not fit.
#[test]
fn the_engine_refuses_a_job_that_does_not_fit() {
    #[derive(Clone)]
    struct Greedy;
    impl MsfqPolicy for Greedy {
        fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
            if ctx.state().waiting(1) > 0 {
                ctx.apply(MsfqDecision::Start { class: 1, why: "test" })?;
            }
            Ok(())
        }
    }
    let config = config(4, "1@0.5,4@0.5", 5.0).engine_config(64);
    let mut s = MsfqSim::new(config, Box::new(Greedy), 1);
    let e = s.run_until(100.0).unwrap_err();
    assert!(matches!(e, EngineError::CapacityExceeded { .. }), "{e}");
}

#[test]
fn event_times_advance_and_levels_integrate() {
    let mut s = sim(config(4, "1@1", 2.0), "fcfs", 3);
    s.run_until(10_000.0).unwrap();
    // M/M/4 with λ = 2, μ = 1: utilisation λ/(kμ) = 0.5.
    let u = s.stats().busy.mean(s.now(), 0.0);
    assert!((u - 0.5).abs() < 0.02, "{u}");
    assert_eq!(s.now(), 10_000.0);
}

/// RES-57: a job still in the system counts with its time so far: the response times are over
/// every measured arrival, the open ones included, and E[T] is their nominal mix at `now`.
#[test]
fn jobs_in_the_system_count_with_their_time_so_far() {
    let mut s = sim(config(4, "1@0.5,4@0.5", 0.9), "fcfs", 3);
    s.run_until(500.0).unwrap();
    let now = s.now();
    let stats = s.stats();
    let all = stats.classes.iter().fold(crate::metrics::JobTimes::default(), |a, c| a.plus(&c.responses));
    let arrivals: u64 = stats.classes.iter().map(|c| c.arrivals).sum();
    let completed: u64 = stats.classes.iter().map(|c| c.completed).sum();
    assert_eq!((all.finished_count(), all.open_count()), (completed, arrivals - completed));
    assert!(all.open_count() > 0, "the run ends with jobs in the system");
    // Counting the open jobs with their times so far weighs them in: the mean is not the
    // completed jobs' mean.
    let mean = all.mean(now);
    assert!(mean.is_finite() && mean != all.mean_finished(), "{mean} vs {}", all.mean_finished());
    assert_eq!(
        s.mean_response(),
        s.config
            .classes
            .as_slice()
            .iter()
            .zip(&stats.classes)
            .map(|(c, k)| c.probability * k.mean_response(now))
            .sum::<f64>()
    );
}
