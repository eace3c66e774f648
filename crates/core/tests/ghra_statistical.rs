//! Statistical tests of the VM-scheduling model (GH-RA; SPEC 3.5's expected outcomes, 6.2-6
//! Little's law), with fixed seeds. The LOSS product form (SPEC 6.2-1) is tested next to the
//! engine (`models::ghra::engine_tests`), where the state between events is visible.

use packlab_core::models::ghra::GhraSummary;
use packlab_core::models::{Summary, policies_of};
use packlab_core::policy::PolicySpec;
use packlab_core::report::{RunReport, run};
use packlab_core::scenario::preset;

fn report(id: &str, policy: &str, settings: &[(&str, &str)]) -> RunReport {
    let mut scenario = preset(id).unwrap().scenario;
    for (k, v) in settings {
        scenario.set(k, v).unwrap();
    }
    run(id, &scenario, &PolicySpec::parse(policy).unwrap()).unwrap().report
}

/// Whether `value`, with its own batch-means 95% interval `ci`, agrees with a `reference`
/// value of SPEC 3.5: the result of an independent simulation of the same rules, one run of
/// the same length. The reference carries the same sampling error as the run, so the two
/// differ by at most √2 times the run's half-width (the 95% bound on a difference of two such
/// estimates).
fn agrees(value: f64, ci: [f64; 2], reference: f64) -> bool {
    let half = (ci[1] - ci[0]) / 2.0;
    assert!(half > 0.0 && half < 0.1 * value.abs(), "the interval {ci:?} of {value} is too wide to test");
    (value - reference).abs() <= std::f64::consts::SQRT_2 * half
}

fn vm(r: &RunReport) -> &GhraSummary {
    let Summary::Ghra(m) = &r.summary else { panic!("a GH-RA run") };
    m
}

/// GH-RA Fig. 3 (SPEC 3.5, B3): on 5 small + 5 large servers at ζ = 0.9, MaxWeight with local
/// refresh grows without bound while Algorithm 2's mean queue agrees with the reference
/// simulation's 50 jobs within the run's interval ([`agrees`]).
#[test]
fn mixed_fleet_local_refresh_grows_and_algorithm_2_queues_50() {
    let mw = report("ghra-b3", "mw-local", &[]);
    let alg2 = report("ghra-b3", "alg2-jsq", &[]);
    assert!(mw.unstable, "MW-local: {:?}", mw.verdict);
    let slope = mw.growth.unwrap().second * mw.arrival_rate;
    assert!(slope > 0.3, "MW-local grows by {slope} jobs per time unit");
    assert!(!alg2.unstable, "Alg. 2: {:?}", alg2.verdict);
    assert!(
        agrees(alg2.mean_queue, alg2.mean_queue_ci95, 50.0),
        "Alg. 2 mean queue {} (95% interval {:?}), the reference 50",
        alg2.mean_queue,
        alg2.mean_queue_ci95
    );
    assert!(mw.final_queue > 20 * alg2.final_queue, "{} vs {}", mw.final_queue, alg2.final_queue);
}

/// GH-RA Figs. 1 and 2 (SPEC 3.5, B1/B2 at ζ = 0.8, T = 5000): Algorithm 2's mean delay is
/// below MaxWeight with global refresh, and the gap widens from 2 to 10 servers, because
/// global refresh times (every server empty at once) become rare; Algorithm 2's delays agree
/// with the reference simulation's 3.4 (2 servers) and 1.9 (10 servers) within the runs'
/// intervals ([`agrees`]).
#[test]
fn global_refresh_delay_gap_widens_and_algorithm_2_delays_match_the_reference() {
    let settings = [("load", "0.8"), ("horizon", "5000"), ("warmup", "500")];
    let delay = |id: &str, policy: &str| {
        let r = report(id, policy, &settings);
        (vm(&r).mean_delay, vm(&r).mean_delay_ci95)
    };
    let ((mw2, _), (alg2_2, ci2)) = (delay("ghra-b1", "mw-global"), delay("ghra-b1", "alg2-jsq"));
    let ((mw10, _), (alg2_10, ci10)) = (delay("ghra-b2", "mw-global"), delay("ghra-b2", "alg2-jsq"));
    assert!(alg2_2 < mw2, "2 servers: Alg. 2 {alg2_2} vs MW-global {mw2}");
    assert!(alg2_10 < mw10, "10 servers: Alg. 2 {alg2_10} vs MW-global {mw10}");
    assert!(mw10 - alg2_10 > 5.0 * (mw2 - alg2_2), "gaps: 2 servers {}, 10 servers {}", mw2 - alg2_2, mw10 - alg2_10);
    assert!(agrees(alg2_2, ci2, 3.4), "2 servers: Alg. 2 delay {alg2_2} (95% interval {ci2:?}), the reference 3.4");
    assert!(
        agrees(alg2_10, ci10, 1.9),
        "10 servers: Alg. 2 delay {alg2_10} (95% interval {ci10:?}), the reference 1.9"
    );
}

/// SPEC 6.2-6: the time-average number waiting equals the arrival rate times the mean delay
/// (Little's law for the queue), for every registered GH-RA policy on a stable setting.
#[test]
fn littles_law_holds_for_the_waiting_jobs_of_every_policy() {
    let policies: Vec<&str> = policies_of("ghra").map(|p| p.name).collect();
    assert!(!policies.is_empty());
    for policy in policies {
        let r = report("ghra-b1", policy, &[("load", "0.7"), ("horizon", "40000"), ("warmup", "2000")]);
        let little = r.arrival_rate * vm(&r).mean_delay;
        assert!((r.mean_queue / little - 1.0).abs() < 0.02, "{policy}: L = {} vs λW = {little}", r.mean_queue);
    }
}

/// Dummy jobs hold capacity but are never real work: Algorithm 2's dummies take a share of
/// the fleet, its real-job occupancy is the offered load, and MaxWeight has none.
#[test]
fn dummies_fill_idle_room_but_are_not_counted_as_work() {
    let alg2 = report("ghra-b1", "alg2-jsq", &[("load", "0.6"), ("horizon", "20000")]);
    let mw = report("ghra-b1", "mw-local", &[("load", "0.6"), ("horizon", "20000")]);
    let offered = preset("ghra-b1").unwrap().scenario;
    let mut offered = offered.clone();
    offered.set("load", "0.6").unwrap();
    let expected = offered.offered_utilization();
    for r in [&alg2, &mw] {
        assert!((r.mean_occupancy / expected - 1.0).abs() < 0.03, "{}: {} vs {expected}", r.policy, r.mean_occupancy);
    }
    assert!(vm(&alg2).dummy_share > 0.05 && vm(&alg2).dummies_started > 1000, "{:?}", vm(&alg2));
    assert_eq!((vm(&mw).dummy_share, vm(&mw).dummies_started), (0.0, 0));
}
