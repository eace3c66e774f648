//! `packlab bench`: the slotted engine's cost per job as the cluster grows.
//!
//! Runs one at a time on purpose: parallel runs would compete for cores and caches and the
//! timings would measure the contention instead of the engine.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::report::slotted_sim;
use packlab_core::scenario::{Scenario, preset};
use serde::Serialize;

use crate::args::BenchArgs;
use crate::setup::{parse_policies, with};

/// Untimed slots before the clock starts: twenty mean service times, enough to fill the
/// servers and reach the queue's working level at α = 0.95.
const WARMUP_SLOTS: u64 = 2_000;
/// Series points kept; the benchmark reads none, so keep them few.
const MAX_POINTS: usize = 64;

/// One timed run.
#[derive(Debug, Serialize)]
struct BenchRow {
    servers: u32,
    policy: String,
    jobs: u64,
    slots: u64,
    events: u64,
    seconds: f64,
    events_per_s: f64,
    jobs_per_s: f64,
    ns_per_job: f64,
    /// Jobs waiting when the clock stopped, to tell a flat cost from a growing queue.
    final_queue: u64,
}

pub fn command(args: &BenchArgs, out: &mut dyn Write) -> Result<()> {
    let policies = parse_policies(&args.policies)?;
    let base = preset(&args.preset).map_err(|e| anyhow!("--preset: {e}"))?.scenario;
    if !matches!(base, Scenario::Pgrr(_)) {
        bail!("--preset {}: the slotted benchmark runs PG-RR presets only (bench-msj times the others)", args.preset);
    }
    let base = with(&base, "load", args.load).map_err(|e| anyhow!("--load: {e}"))?;
    let mut scenarios = Vec::new();
    for entry in args.servers.split(',').map(str::trim) {
        if entry.is_empty() {
            bail!("--servers: empty entry in '{}'; give server counts separated by commas", args.servers);
        }
        let s = with(&base, "servers", entry).map_err(|e| anyhow!("--servers: {e}"))?;
        s.validate().map_err(|e| anyhow!("--servers {entry}: {e}"))?;
        scenarios.push(s);
    }

    if !args.json {
        writeln!(
            out,
            "{} at load α = {}, {WARMUP_SLOTS} warm-up slots untimed, then at least {} arriving jobs timed",
            args.preset, args.load, args.jobs
        )?;
        writeln!(out, "events = arrivals + starts + departures in the timed part\n")?;
    }
    if !args.json {
        writeln!(out, "{}", line(["L", "policy", "jobs", "slots", "events", "events/s", "jobs/s", "ns/job", "queue"]))?;
    }
    for policy in &policies {
        for scenario in &scenarios {
            let row = time_one(scenario, policy, args.jobs)?;
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&row)?)?;
            } else {
                writeln!(
                    out,
                    "{}",
                    line([
                        &row.servers.to_string(),
                        &row.policy,
                        &row.jobs.to_string(),
                        &row.slots.to_string(),
                        &row.events.to_string(),
                        &format!("{:.3e}", row.events_per_s),
                        &format!("{:.3e}", row.jobs_per_s),
                        &format!("{:.1}", row.ns_per_job),
                        &row.final_queue.to_string(),
                    ])
                )?;
            }
            // Each run takes seconds: show it as it comes rather than all at the end.
            out.flush()?;
        }
    }
    Ok(())
}

/// A fixed-width row: rows are printed one by one, before the widest value is known.
fn line(cells: [&str; 9]) -> String {
    let [l, policy, jobs, slots, events, eps, jps, ns, queue] = cells;
    format!("{l:>6}  {policy:<12}  {jobs:>9}  {slots:>8}  {events:>10}  {eps:>9}  {jps:>9}  {ns:>7}  {queue:>7}")
}

fn time_one(scenario: &Scenario, policy: &PolicySpec, jobs: u64) -> Result<BenchRow> {
    let Scenario::Pgrr(s) = scenario else { bail!("the slotted benchmark runs PG-RR scenarios only") };
    let mut sim = slotted_sim(s, policy, MAX_POINTS);
    sim.run(WARMUP_SLOTS).with_context(|| format!("policy {policy}, L = {}", s.servers))?;
    let before = sim.counters();
    let slot0 = sim.slot();
    let clock = Instant::now();
    // Whole slots: stop at the first slot boundary after `jobs` arrivals.
    while sim.counters().arrivals - before.arrivals < jobs {
        sim.step().with_context(|| format!("policy {policy}, L = {}", s.servers))?;
    }
    let seconds = clock.elapsed().as_secs_f64();
    let after = sim.counters();
    let arrived = after.arrivals - before.arrivals;
    let events = arrived + (after.started - before.started) + (after.departed - before.departed);
    Ok(BenchRow {
        servers: s.servers,
        policy: policy.to_string(),
        jobs: arrived,
        slots: sim.slot() - slot0,
        events,
        seconds,
        events_per_s: events as f64 / seconds,
        jobs_per_s: arrived as f64 / seconds,
        ns_per_job: seconds * 1e9 / arrived as f64,
        final_queue: sim.queue().len() as u64,
    })
}
