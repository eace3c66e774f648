//! Hand-built states on which each PG-RR policy must make a known choice (SPEC 6.1 items
//! 3-6), in the style of a discriminating-scenario table.

use crate::model::Model;
use crate::model::policy::PolicySpec;
use crate::models::Scenario;
use crate::models::pgrr::engine::testing::Harness;
use crate::models::pgrr::{CAPACITY_UNITS, JobId, Pgrr, PgrrPolicy, ServerId};
use crate::scenario::preset;

const C: u64 = 100;

/// Policy `spec` built for `servers` servers, J = 2 (capacities are the harness's).
fn build(spec: &str, servers: u32) -> Box<dyn PgrrPolicy> {
    let Scenario::Pgrr(mut scenario) = preset("pgrr-a1").unwrap().scenario else { panic!("a PG-RR preset") };
    scenario.servers = servers;
    let spec = PolicySpec::parse(spec).unwrap();
    (Pgrr::policy(&spec).unwrap().build)(&spec, &scenario).unwrap()
}

/// Residuals (35, 50, 31) out of 100; waiting jobs a = 30 and b = 45, in that order;
/// server 1 had a departure this slot (for BF-J/S).
fn discriminating_state(policy: &mut dyn PgrrPolicy) -> (Harness, JobId, JobId) {
    let mut h = Harness::new(3, C);
    h.running(0, 65);
    h.running(1, 50);
    h.running(2, 69);
    let a = h.waiting(30, policy);
    let b = h.waiting(45, policy);
    h.departed(1);
    (h, a, b)
}

#[test]
fn each_policy_picks_its_server() {
    // (policy, server of a, server of b)
    let table: [(&str, ServerId, ServerId); 5] = [
        // BF-J: a to the smallest residual that fits (31), b to 50.
        ("bf-j", 2, 1),
        // BF-S: server 0 (35) takes the largest fitting job, a; server 1 takes b.
        ("bf-s", 0, 1),
        // BF-J/S: the departed server 1 takes the largest job, b; then a goes by BF-J to 31.
        ("bf-js", 2, 1),
        // FIFO-FF: a to the first server with room (0), then b to 1.
        ("fifo-ff", 0, 1),
        ("fifo-ff-skip", 0, 1),
    ];
    for (kind, server_a, server_b) in table {
        let mut policy = build(kind, 3);
        let (mut h, a, b) = discriminating_state(policy.as_mut());
        h.schedule(policy.as_mut()).unwrap();
        assert_eq!(h.server_of(a), Some(server_a), "{kind} placed a");
        assert_eq!(h.server_of(b), Some(server_b), "{kind} placed b");
    }
}

/// SPEC 6.1 item 4: residual 0.5, queue {0.3, 0.45, 0.6, 0.45′}: BF-S takes the earlier 0.45
/// and then nothing fits the 0.05 left.
#[test]
fn best_fit_server_view_takes_the_earlier_of_two_equal_jobs() {
    let mut policy = build("bf-s", 1);
    let mut h = Harness::new(1, C);
    h.running(0, 50);
    let ids: Vec<JobId> = [30, 45, 60, 45].iter().map(|s| h.waiting(*s, policy.as_mut())).collect();
    h.schedule(policy.as_mut()).unwrap();
    assert_eq!(h.server_of(ids[1]), Some(0));
    assert_eq!(h.waiting_ids(), vec![ids[0], ids[2], ids[3]]);
    assert_eq!(h.cluster().residual(0), 5);
}

/// SPEC 6.1 item 4, BF-J: a 0.3 job with residuals (0.35, 0.5, 0.31) goes to the 0.31 server.
#[test]
fn best_fit_job_view_takes_the_fullest_server() {
    let mut policy = build("bf-j", 3);
    let mut h = Harness::new(3, C);
    h.running(0, 65);
    h.running(1, 50);
    h.running(2, 69);
    let job = h.waiting(30, policy.as_mut());
    h.schedule(policy.as_mut()).unwrap();
    assert_eq!(h.server_of(job), Some(2));
}

/// SPEC 6.1 item 5: a head job that fits nowhere blocks FIFO-FF; the skip variant goes on.
#[test]
fn fifo_first_fit_blocks_at_the_head() {
    for (kind, placed) in [("fifo-ff", false), ("fifo-ff-skip", true)] {
        let mut policy = build(kind, 2);
        let mut h = Harness::new(2, C);
        h.running(0, 70);
        h.running(1, 80);
        let head = h.waiting(50, policy.as_mut());
        let small = h.waiting(20, policy.as_mut());
        h.schedule(policy.as_mut()).unwrap();
        assert_eq!(h.server_of(head), None, "{kind}");
        assert_eq!(h.server_of(small).is_some(), placed, "{kind}");
    }
}

/// SPEC 6.1 item 3 on a hand-built state: after BF-J/S, no waiting job fits any server, even
/// when old jobs wait and only some servers had departures.
#[test]
fn best_fit_combined_leaves_nothing_that_fits() {
    let mut policy = build("bf-js", 3);
    let mut h = Harness::new(3, C);
    h.running(0, 90);
    h.running(1, 95);
    h.running(2, 20);
    // Old jobs that fit nowhere before the departure on server 2 (which freed 80).
    for s in [40, 30, 15] {
        h.waiting(s, policy.as_mut());
    }
    h.next_slot();
    h.departed(2);
    for s in [5, 25, 8] {
        h.waiting(s, policy.as_mut());
    }
    h.schedule(policy.as_mut()).unwrap();
    // Server 2 took 40, 30 and 8 (80 free); arrival 5 went to server 1; 15 and 25 fit nowhere.
    let cluster = h.cluster();
    let max_residual = (0..3).map(|s| cluster.residual(s)).max().unwrap();
    assert_eq!(h.waiting_ids().len(), 2);
    assert!(max_residual < 15, "a waiting job still fits");
}

/// VQS and VQS-BF on one server with two 0.4 jobs and one 0.6 job waiting (J = 2: 0.6 is
/// type 1, 0.4 type 2): both pick 2e2; VQS stops at 0.8, VQS-BF's best-fit step adds the 0.6
/// only when a 0.4 is missing.
#[test]
fn virtual_queue_policies_on_the_a1_sizes() {
    let f = |x: f64| (x * CAPACITY_UNITS as f64).round() as u64;
    let mut vqs = build("vqs:j=2", 1);
    let mut h = Harness::new(1, CAPACITY_UNITS);
    let big = h.waiting(f(0.6), vqs.as_mut());
    let small: Vec<_> = (0..2).map(|_| h.waiting(f(0.4), vqs.as_mut())).collect();
    h.schedule(vqs.as_mut()).unwrap();
    assert_eq!(h.waiting_ids(), vec![big]);
    assert!(small.iter().all(|j| h.server_of(*j) == Some(0)));

    let mut vqs_bf = build("vqs-bf:j=2", 1);
    let mut h = Harness::new(1, CAPACITY_UNITS);
    let big = h.waiting(f(0.6), vqs_bf.as_mut());
    let small = h.waiting(f(0.4), vqs_bf.as_mut());
    h.schedule(vqs_bf.as_mut()).unwrap();
    assert_eq!(h.server_of(big), Some(0));
    assert_eq!(h.server_of(small), Some(0));
    assert_eq!(h.cluster().residual(0), 0);
}

/// The engine's rules (policy.rs): a job that does not fit, a job that is not waiting and a
/// server that does not exist are refused with what was wrong, and a refusal changes nothing.
#[test]
fn the_engine_refuses_what_breaks_its_rules() {
    use crate::EngineError;
    use crate::models::pgrr::{PgrrDecision, Rule};
    let rule = Rule::Job("test");
    let mut policy = build("bf-js", 3);
    let (mut h, a, b) = discriminating_state(&mut *policy);
    let start = |h: &mut Harness, job, server| h.context().apply(PgrrDecision::Start { job, server, rule });
    // b = 45 does not fit server 0 (room 35).
    assert_eq!(start(&mut h, b, 0), Err(EngineError::CapacityExceeded { job: b, server: 0, size: 45, residual: 35 }));
    assert_eq!(h.waiting_ids(), vec![a, b]);
    assert_eq!(start(&mut h, 99, 0), Err(EngineError::NotWaiting { job: 99 }));
    assert_eq!(start(&mut h, a, 3), Err(EngineError::NoSuchServer { server: 3 }));
    assert_eq!(h.waiting_ids(), vec![a, b]);
    // Then b starts where it fits, once.
    assert_eq!(start(&mut h, b, 1).map(|r| r.id), Ok(b));
    assert_eq!(start(&mut h, b, 1), Err(EngineError::NotWaiting { job: b }));
    assert_eq!((h.waiting_ids(), h.server_of(b)), (vec![a], Some(1)));
}

/// RES-95: the engine refuses a start on a draining server as a capacity violation, and on a
/// server that does not exist as such; a refused start changes nothing.
#[test]
fn a_start_on_a_draining_server_is_refused() {
    use crate::EngineError;
    use crate::models::pgrr::{PgrrDecision, Rule};
    let mut policy = build("bf-j", 3);
    let mut h = Harness::new(3, C);
    h.running(2, 10);
    let a = h.waiting(30, policy.as_mut());
    h.set_active(2);
    let rule = Rule::Server("test");
    let refused = h.context().apply(PgrrDecision::Start { job: a, server: 2, rule });
    assert!(matches!(refused, Err(EngineError::CapacityExceeded { server: 2, residual: 0, .. })), "{refused:?}");
    let missing = h.context().apply(PgrrDecision::Start { job: a, server: 3, rule });
    assert!(matches!(missing, Err(EngineError::NoSuchServer { server: 3 })), "{missing:?}");
    assert_eq!(h.waiting_ids(), vec![a]);
    h.schedule(policy.as_mut()).unwrap();
    assert_eq!(h.server_of(a), Some(0), "best fit among the servers that take jobs");
}
