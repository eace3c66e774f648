//! `packlab bench-vm`: events per second of the VM-scheduling engine (issue: Algorithm 2 at
//! 100 servers, GHRA-B4), with MaxWeight and the mixed fleet of B3 for comparison.
//!
//! One run at a time, as `bench`: parallel runs would time the contention for the 2 cores.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::report::vm_sim;
use packlab_core::scenario::{Scenario, preset};
use serde::Serialize;

use crate::args::BenchVmArgs;

/// (preset, ζ, policies) timed.
const CASES: [(&str, f64, &[&str]); 2] =
    [("ghra-b4", 0.9, &["alg2-jsq", "alg2-po2", "mw-local"]), ("ghra-b3", 0.9, &["alg2-jsq", "alg1"])];
/// Untimed time units before the clock starts, to reach the working level of the queues.
const WARMUP: f64 = 500.0;

#[derive(Debug, Serialize)]
struct BenchRow {
    preset: &'static str,
    servers: usize,
    load: f64,
    policy: String,
    /// Simulated time units timed.
    time_units: f64,
    /// Events handled: arrivals, departures (real and dummy) and clock ticks.
    events: u64,
    /// Clock ticks dropped as stale on the way (lazy invalidation).
    stale: u64,
    jobs: u64,
    seconds: f64,
    events_per_s: f64,
    ns_per_event: f64,
    jobs_per_s: f64,
    /// Waiting jobs when the clock stopped.
    final_queue: u64,
    mean_delay: f64,
}

pub fn command(args: &BenchVmArgs, out: &mut dyn Write) -> Result<()> {
    if !args.json {
        writeln!(
            out,
            "{} time units per timed run after {WARMUP} untimed ones; events = arrivals + departures (real and dummy) + clock ticks\n",
            args.time
        )?;
        writeln!(
            out,
            "{:<8}  {:>7}  {:>4}  {:<10}  {:>11}  {:>9}  {:>8}  {:>9}  {:>7}  {:>7}",
            "preset", "servers", "ζ", "policy", "events", "events/s", "ns/event", "jobs/s", "queue", "delay"
        )?;
    }
    for (id, load, policies) in CASES {
        let mut scenario = preset(id)?.scenario;
        scenario.set("load", &load.to_string())?;
        // Delays are measured from time 0; the untimed warm-up below is what settles the queues.
        scenario.set("warmup", "0")?;
        let Scenario::Vm(s) = scenario else { bail!("{id} is not a VM-scheduling preset") };
        for name in policies {
            let policy = PolicySpec::parse(name)?;
            let mut sim = vm_sim(&s, &policy, 64)?;
            sim.run_until(WARMUP).with_context(|| format!("{id} {name}"))?;
            let (events_before, stale_before) = sim.events();
            let jobs_before = sim.stats().arrivals;
            let clock = Instant::now();
            sim.run_until(WARMUP + args.time).with_context(|| format!("{id} {name}"))?;
            let seconds = clock.elapsed().as_secs_f64();
            let (events, stale) = sim.events();
            let (events, stale) = (events - events_before, stale - stale_before);
            let jobs = sim.stats().arrivals - jobs_before;
            let row = BenchRow {
                preset: id,
                servers: s.servers.len(),
                load,
                policy: policy.to_string(),
                time_units: args.time,
                events,
                stale,
                jobs,
                seconds,
                events_per_s: events as f64 / seconds,
                ns_per_event: seconds * 1e9 / events as f64,
                jobs_per_s: jobs as f64 / seconds,
                final_queue: sim.state().waiting_total() as u64,
                mean_delay: sim.mean_delay(),
            };
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&row)?)?;
            } else {
                writeln!(
                    out,
                    "{:<8}  {:>7}  {:>4}  {:<10}  {:>11}  {:>9.3e}  {:>8.1}  {:>9.3e}  {:>7}  {:>7.2}",
                    row.preset,
                    row.servers,
                    row.load,
                    row.policy,
                    row.events,
                    row.events_per_s,
                    row.ns_per_event,
                    row.jobs_per_s,
                    row.final_queue,
                    row.mean_delay
                )?;
            }
            out.flush()?;
        }
    }
    Ok(())
}
