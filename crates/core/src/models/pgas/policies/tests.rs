//! Discriminating scenarios: tiny traces where each policy must choose known servers.

use super::{UpperBound, dra};
use crate::decisions::Decision;
use crate::model::Model;
use crate::model::policy::PolicySpec;
use crate::models::Scenario;
use crate::models::pgas::{Pgas, PgasConfig, PgasScenario, PgasSim, Trace};
use crate::scenario::preset;

/// `policy` on the scenario `s`, reporting DRA's classification of the servers (the tests
/// read it) and keeping the last `log` decisions with their notes.
fn simulate(s: &PgasScenario, policy: &str, log: usize) -> PgasSim {
    let config = s.engine_config(64).unwrap();
    let spec = PolicySpec::parse(policy).unwrap();
    let built = (Pgas::policy(&spec).unwrap().build)(&spec, &config).unwrap();
    PgasSim::new(PgasConfig { details: true, ..config }, built, 1).unwrap().with_log(log)
}

/// `servers` servers replaying the trace `csv` under `policy`, up to time `until`.
fn replay(csv: &str, servers: u32, policy: &str, until: f64) -> PgasSim {
    replay_logged(csv, servers, policy, until, 0)
}

/// [`replay`], keeping the last `log` decisions.
fn replay_logged(csv: &str, servers: u32, policy: &str, until: f64, log: usize) -> PgasSim {
    let Scenario::Pgas(mut s) = preset("pgas-c5").unwrap().scenario else { panic!("PG-AS") };
    s.servers = servers;
    s.attach_trace(Trace::from_csv(csv).unwrap());
    let mut sim = simulate(&s, policy, log);
    sim.run_until(until).unwrap();
    sim.check_invariants().unwrap();
    sim
}

/// Jobs per server (all types).
fn placement(sim: &PgasSim) -> Vec<u32> {
    (0..sim.state().servers()).map(|l| sim.state().jobs_on(l)).collect()
}

#[test]
fn dra_reserves_ahead_fills_the_oldest_server_and_migrates_out_of_the_reject_group() {
    // One type, half a server each (two slots per server), g = 1, three servers. Five jobs
    // arrive; the first two leave at t = 1 and 2, the third at 3, the last two stay.
    let csv = "0,1,0.5,0\n0.1,1.9,0.5,0\n0.2,2.8,0.5,0\n0.3,50,0.5,0\n0.4,50,0.5,0\n";
    // Ŷ = Y + 1 asks for ⌈(Y + 1)/2⌉ servers: server 1 (index 1 of the empty configuration)
    // is deployed first, then server 2, then server 3 (RES-26); each arrival takes the oldest
    // ranked server with a free slot (RES-28).
    let sim = replay(csv, 3, "dra:g=1", 0.5);
    assert_eq!(placement(&sim), [2, 2, 1]);
    assert_eq!(sim.stats().reconfigurations, 3);
    // t = 2: Y = 3 wants two servers; the newest (server 3, holding one job) is the reject group.
    let sim = replay(csv, 3, "dra:g=1", 2.5);
    assert_eq!(placement(&sim), [0, 2, 1]);
    assert!(sim.classify(2).unwrap().reject_group && !sim.classify(1).unwrap().reject_group);
    assert_eq!(sim.reject_group(), 1);
    assert_eq!(sim.stats().migrations, 0);
    // t = 3: a job leaves server 2 (accept group): server 3's job moves into the freed slot.
    let sim = replay(csv, 3, "dra:g=1", 3.5);
    assert_eq!(placement(&sim), [0, 2, 0]);
    assert_eq!(sim.stats().migrations, 1);
    // With g = 0 nothing is reserved ahead of the first arrival: it is rejected (RES-24 says
    // why g must grow with L).
    let sim = replay(csv, 3, "dra:g=0", 0.05);
    assert_eq!((sim.stats().rejected, sim.stats().admitted), (1, 0));
}

/// The value of the note `label` in `d`.
fn fact<'a>(d: &'a Decision, label: &str) -> Option<&'a str> {
    d.facts.iter().find(|f| f.label == label).map(|f| f.value.as_str())
}

/// The (server, rank) pairs a DRA note names, servers and ranks from 1: "server 3 (rank 2 =
/// J + 1, unranked, …)" or "server 3: rank 1, …"; a server said to be "unranked" without a
/// number has rank `types` + 1.
fn ranks_named(note: &str, types: usize) -> Vec<(usize, u32)> {
    let digits = |t: &str| t.chars().take_while(char::is_ascii_digit).collect::<String>();
    let mut found = Vec::new();
    for part in note.split("server ").skip(1) {
        let server: usize = digits(part).parse().unwrap();
        let rank = match part.find("rank ").map(|r| digits(&part[r + 5..])) {
            Some(n) if !n.is_empty() => n.parse().unwrap(),
            _ if part.contains("unranked") => types as u32 + 1,
            _ => panic!("no rank for server {server} in {note:?}"),
        };
        found.push((server, rank));
    }
    found
}

#[test]
fn dra_notes_a_surplus_server_as_unranked_and_the_reject_group_above_i_star() {
    // The trace of the test above. At t = 2 one configuration (two slots) is GPA's only one,
    // with X̂ = 2 of its three servers: server 3, the newest, is a surplus server. Its
    // configuration is in GPA's list, yet it is unranked (rank J + 1 = 2), and as the index-1
    // server of rank 2 > I* = 1 it is the reject group.
    let csv = "0,1,0.5,0\n0.1,1.9,0.5,0\n0.2,2.8,0.5,0\n0.3,50,0.5,0\n0.4,50,0.5,0\n";
    let sim = replay(csv, 3, "dra:g=1", 2.5);
    assert_eq!(sim.state().configuration(2), sim.state().configuration(1));
    assert_eq!(sim.classify(1).unwrap().rank, 1);
    let surplus = sim.classify(2).unwrap();
    assert!(surplus.rank == 2 && surplus.index == 1 && surplus.reject_group, "{surplus:?}");
    // t = 3: the departure from server 2 pulls server 3's job; the note must rank server 3 as
    // the policy does, not by its configuration's place in GPA's list (rank 1 ≤ I*).
    let sim = replay_logged(csv, 3, "dra:g=1", 3.5, 64);
    let migration = sim.log.records().iter().find(|d| d.action == "migrate").expect("a migration");
    let source = fact(migration, dra::SOURCE).expect("the source noted");
    assert!(source.contains("unranked"), "{source}");
    assert_eq!(ranks_named(source, 1), [(3, 2)], "{source}");
    assert_eq!(ranks_named(fact(migration, dra::FREED).unwrap(), 1), [(2, 1)]);
    // The migration notes I* too, so that "rank > I*" can be read off it.
    let i_star: u32 = fact(migration, dra::I_STAR).expect("I* noted").parse().unwrap();
    assert_eq!(i_star, 1);
}

#[test]
fn dra_notes_the_ranks_the_policy_decided_by() {
    // A busy run on few servers, where departures leave surplus servers behind: every rank a
    // note names is the rank the server had when the decision was made, I* is the one CRA
    // last computed, and every migration's source ranks above I* (the reject group).
    let Scenario::Pgas(mut s) = preset("pgas-c3").unwrap().scenario else { panic!("PG-AS") };
    s.servers = 24;
    let mut sim = simulate(&s, "dra", 256);
    let types = sim.state().types();
    let (mut checked, mut unranked, mut migrations) = (0, 0, 0);
    for _ in 0..6_000 {
        let before: Vec<u32> = (0..sim.state().servers()).map(|l| sim.classify(l).unwrap().rank).collect();
        let i_star = sim.ranking.as_ref().unwrap().i_star as u32 + 1;
        let seen = sim.log.count();
        if sim.run_events(1).unwrap() == 0 {
            break;
        }
        for d in sim.log.since(seen) {
            if let Some(noted) = fact(d, dra::I_STAR) {
                assert_eq!(noted, i_star.to_string(), "{d:?}");
            }
            for label in [dra::CHOSEN, dra::FREED, dra::SOURCE] {
                for (server, rank) in fact(d, label).map(|n| ranks_named(n, types)).unwrap_or_default() {
                    assert_eq!(rank, before[server - 1], "server {server} at t = {}: {d:?}", d.time);
                    checked += 1;
                    unranked += usize::from(rank as usize > types);
                }
            }
            if let Some(source) = fact(d, dra::SOURCE) {
                let (_, rank) = ranks_named(source, types)[0];
                assert!(rank > i_star, "a reject-group source ranks above I* = {i_star}: {d:?}");
                migrations += 1;
            }
        }
    }
    assert!(checked > 1_000 && unranked > 0 && migrations > 0, "{checked} ranks, {unranked} unranked, {migrations}");
}

#[test]
fn dra_preempt_evicts_the_smallest_free_jobs_for_a_priority_arrival() {
    // Types (RES-36 order): priority 1 of half a server, priority 0 of a quarter. g = 1 deploys
    // one server per type. Two priority-0 jobs fill half of server 2; three priority-1 jobs
    // come: two fill server 1, the third finds no slot. Preempting both priority-0 jobs (size
    // 1/2 = g·s_j) empties server 2, CRA redeploys it for priority 1 and the retry succeeds.
    let csv = "0,10,0.25,0\n0.1,10,0.25,0\n0.2,10,0.5,2\n0.3,10,0.5,2\n0.4,10,0.5,2\n";
    let sim = replay(csv, 2, "dra-preempt:g=1", 1.0);
    let s = sim.stats();
    assert_eq!((s.preemptions, s.admitted, s.rejected), (2, 5, 0));
    assert_eq!((sim.state().in_system(0), sim.state().in_system(1)), (3, 0));
    // Plain DRA rejects the third priority-1 job and keeps the free ones.
    let sim = replay(csv, 2, "dra:g=1", 1.0);
    let s = sim.stats();
    assert_eq!((s.preemptions, s.rejected), (0, 1));
    assert_eq!((sim.state().in_system(0), sim.state().in_system(1)), (2, 2));
    // A priority-0 arrival never preempts.
    let csv = "0,10,0.5,2\n0.1,10,0.5,2\n0.2,10,0.5,2\n0.3,10,0.25,0\n0.4,10,0.25,0\n0.5,10,0.25,0\n0.6,10,0.25,0\n0.7,10,0.25,0\n";
    assert_eq!(replay(csv, 2, "dra-preempt:g=1", 1.0).stats().preemptions, 0);
}

#[test]
fn power_of_d_takes_the_least_loaded_server_and_rejects_what_fits_nowhere() {
    // d ≥ L: every server is sampled. Half-server jobs: the first two go to different servers
    // (the second to the empty one), the next two fill them, the fifth is rejected.
    let csv = "0,10,0.5,0\n0.1,10,0.5,0\n0.2,10,0.5,0\n0.3,10,0.5,0\n0.4,10,0.5,0\n";
    let sim = replay(csv, 2, "po-d:d=5", 0.15);
    assert_eq!(placement(&sim), [1, 1]);
    let sim = replay(csv, 2, "po-d:d=5", 1.0);
    assert_eq!(placement(&sim), [2, 2]);
    assert_eq!((sim.stats().admitted, sim.stats().rejected), (4, 1));
    // A job that fits nowhere on an empty-ish pair: a full-server job after one half job per server.
    let csv = "0,10,0.5,0\n0.1,10,0.5,0\n0.2,10,1,2\n";
    assert_eq!(replay(csv, 2, "po-d", 1.0).stats().rejected, 1);
}

#[test]
fn upper_bound_is_the_fractional_knapsack_on_trace_types() {
    // One server; active at t = 1: a priority-2 half (factor 9) and three priority-0 halves:
    // UB = 9·0.5 + 1·min(1.5, 0.5) = 5 (RES-30).
    let csv = "0,5,0.5,9\n0,5,0.5,0\n0,5,0.5,0\n0,5,0.5,0\n";
    let sim = replay(csv, 1, "upper-bound", 1.0);
    assert_eq!(sim.stats().reward.value(), 5.0);
    assert_eq!(sim.stats().admitted, 4);
    // With three servers everything fits: 4.5 + 1.5 = 6 per 3 servers.
    let sim = replay(csv, 3, "upper-bound", 1.0);
    assert_eq!(sim.stats().reward.value() * 3.0, 6.0);
}

#[test]
fn upper_bound_certificates_give_lp6_exactly() {
    // On C6 with no refresh throttle, every recorded UB(t) is F*(L, Ŷ(t)) from a fresh solve or
    // from cached certificates that meet; compare with LP (6) solved directly.
    let Scenario::Pgas(s) = preset("pgas-c6").unwrap().scenario else { panic!("PG-AS") };
    let s = PgasScenario { servers: 7, ..s };
    let config = s.engine_config(64).unwrap();
    let crate::models::pgas::theory::Packing::Enumerated(instance) = config.packing.clone() else {
        panic!("enumerated")
    };
    let mut sim = PgasSim::new(config.clone(), Box::new(UpperBound::new(&config.packing, 7, 0.0)), 5).unwrap();
    let mut checked = 0;
    for _ in 0..400 {
        sim.run_events(1).unwrap();
        let y: Vec<f64> = (0..3).map(|j| sim.state().in_system(j) as f64).collect();
        let direct = instance.lp_bound(&y, 7.0).unwrap().value;
        let recorded = sim.stats().reward.value() * 7.0;
        assert!((recorded - direct).abs() <= 1e-6 * direct.max(1.0), "Ŷ = {y:?}: {recorded} vs {direct}");
        checked += 1;
    }
    assert_eq!(checked, 400);
}
