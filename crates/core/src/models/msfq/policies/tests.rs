//! Exact checks of the multiserver-job policies (SPEC 6.1 items 11-13).

use super::adaptive_qs::AdaptiveQs;
use crate::model::policy::PolicySpec;
use crate::model::{Model, start};
use crate::models::Scenario;
use crate::models::msfq::{Msfq, MsfqScenario, MsfqSim, MsfqState};
use crate::scenario::preset;
use crate::view::Watch;

fn d1(load: f64, horizon: u64) -> MsfqScenario {
    let Scenario::Msfq(mut s) = preset("msfq-d1").unwrap().scenario else { panic!("msfq-d1 is MSFQ") };
    s.load = load;
    s.window.horizon = horizon;
    s.window.warmup = horizon / 10;
    s.window.sample_every = (horizon / 100) as f64;
    s
}

fn run(s: &MsfqScenario, policy: &str) -> MsfqSim {
    let mut sim = start::<Msfq>(s, &PolicySpec::parse(policy).unwrap(), Watch::batch(256)).unwrap();
    sim.run_until(s.window.horizon as f64).unwrap();
    sim
}

/// Everything that differs between two sample paths: exact sums of waits and response times
/// per class, the counts, and the time-average number in system.
fn fingerprint(sim: &MsfqSim) -> Vec<u64> {
    let st = sim.stats();
    let mut out = vec![st.arrivals, st.started, st.completed, sim.stats().in_system.mean(sim.now(), 0.0).to_bits()];
    for c in &st.classes {
        out.extend([c.started, c.completed, c.waits.mean(sim.now()).to_bits(), c.responses.mean(sim.now()).to_bits()]);
    }
    out
}

/// SPEC 6.1-11: MSF and MSFQ(0) give the same sample path, phases included.
#[test]
fn msf_is_msfq_with_threshold_zero() {
    for load in [5.0, 7.5] {
        let s = d1(load, 20_000);
        let (msf, msfq) = (run(&s, "msf"), run(&s, "msfq:l=0"));
        assert_eq!(fingerprint(&msf), fingerprint(&msfq), "λ = {load}");
        assert_eq!(msf.stats().phases.visits, msfq.stats().phases.visits);
        assert_eq!(msf.stats().phases.time, msfq.stats().phases.time);
        assert!(msf.stats().phases.visits[1] > 3, "λ = {load}: {:?}", msf.stats().phases.visits);
    }
}

/// SPEC 6.1-12: Static Quickswap with cycle (k, 1) and threshold ℓ + 1 is MSFQ(ℓ).
#[test]
fn static_quickswap_is_msfq_on_one_or_all() {
    let s = d1(7.0, 10_000);
    for l in [0, 1, 15, 31] {
        let msfq = run(&s, &format!("msfq:l={l}"));
        let sqs = run(&s, &format!("static-qs:l={}", l + 1));
        assert_eq!(fingerprint(&msfq), fingerprint(&sqs), "ℓ = {l}");
    }
}

/// SPEC 6.1-13: the Adaptive Quickswap trigger.
#[test]
fn adaptive_quickswap_trigger() {
    let needs = [1, 3, 5, 15];
    // In service: one class-5 job; waiting: one class-15 job, no class-5 job.
    let st = MsfqState::from_counts(15, &needs, &[0, 0, 0, 1], &[0, 0, 1, 0]);
    assert!(AdaptiveQs::trigger(&st));
    // A waiting class-5 job: class 5 is in service and has a waiting job.
    let st = MsfqState::from_counts(15, &needs, &[0, 0, 1, 1], &[0, 0, 1, 0]);
    assert!(!AdaptiveQs::trigger(&st));
    // Nothing waits: no trigger.
    let st = MsfqState::from_counts(15, &needs, &[0, 0, 0, 0], &[0, 0, 1, 0]);
    assert!(!AdaptiveQs::trigger(&st));
}

#[test]
fn oldest_where_picks_the_earliest_head() {
    // Ids are given in class order: class 0 holds 1, 2; class 2 holds 3.
    let st = MsfqState::from_counts(8, &[1, 2, 4], &[2, 0, 1], &[0, 0, 0]);
    assert_eq!(st.oldest_where(|_| true), Some(0));
    assert_eq!(st.oldest_where(|c| c > 0), Some(2));
    assert_eq!(st.oldest_where(|c| c == 1), None);
}

/// The policies keep their defining orders on the same arrivals: FCFS never starts a job
/// while an older one waits; MSF and First-Fit serve everyone at a light load.
#[test]
fn every_policy_serves_a_light_load() {
    let s = d1(1.0, 5_000);
    for policy in Msfq::POLICIES {
        let sim = run(&s, policy.meta.name);
        let st = sim.stats();
        assert!(st.completed + 40 > st.arrivals, "{}: {} of {}", policy.meta.name, st.completed, st.arrivals);
    }
}

/// Bad parameters name the policy, the parameter and the range.
#[test]
fn parameters_out_of_range_are_refused() {
    let s = Scenario::Msfq(d1(7.0, 1_000));
    for (policy, needle) in [
        ("msfq:l=32", "l must be an integer in 0..=31"),
        ("static-qs:l=0", "l must be an integer in 1..=32"),
        ("static-qs:l=33", "in 1..=32"),
        ("vqs", "is a policy of PG-RR"),
    ] {
        let e = s.check_policy(&PolicySpec::parse(policy).unwrap()).unwrap_err();
        assert_eq!(e.key, "policy");
        assert!(e.message.contains(needle), "{policy}: {e}");
    }
    let d5 = preset("msfq-d5").unwrap().scenario;
    let e = d5.check_policy(&PolicySpec::parse("msfq").unwrap()).unwrap_err();
    assert!(e.message.contains("one-or-all"), "{e}");
}
