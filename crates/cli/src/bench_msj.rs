//! `packlab bench-msj`: jobs per second of the multiserver-job engine (issue: MSF, First-Fit
//! and MSFQ at k = 32 on msfq-d1 at λ = 7; Adaptive Quickswap at k = 2048 with 26 classes).
//!
//! One run at a time, as `bench`: parallel runs would time the contention for the 2 cores.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::report::msj_sim;
use packlab_core::scenario::{Scenario, preset};
use serde::Serialize;

use crate::args::BenchMsjArgs;

/// (preset, λ, policies) timed.
const CASES: [(&str, f64, &[&str]); 2] =
    [("msfq-d1", 7.0, &["msf", "first-fit", "msfq:l=31"]), ("msfq-d6", 4.5, &["adaptive-qs", "static-qs"])];
/// Untimed arrivals before the clock starts, to reach the working level of the queues.
const WARMUP_JOBS: f64 = 200_000.0;

#[derive(Debug, Serialize)]
struct BenchRow {
    preset: &'static str,
    cores: u32,
    classes: usize,
    load: f64,
    policy: String,
    jobs: u64,
    events: u64,
    seconds: f64,
    jobs_per_s: f64,
    ns_per_job: f64,
    /// Waiting jobs when the clock stopped (a flat cost must not hide a tiny queue).
    final_queue: u64,
    mean_response: f64,
}

pub fn command(args: &BenchMsjArgs, out: &mut dyn Write) -> Result<()> {
    if !args.json {
        writeln!(
            out,
            "{} jobs per timed run after {WARMUP_JOBS} untimed ones; events = arrivals + completions\n",
            args.jobs
        )?;
        writeln!(
            out,
            "{:<8}  {:>5}  {:>7}  {:>4}  {:<12}  {:>10}  {:>9}  {:>7}  {:>7}  {:>8}",
            "preset", "k", "classes", "λ", "policy", "jobs", "jobs/s", "ns/job", "queue", "E[T]"
        )?;
    }
    for (id, load, policies) in CASES {
        let mut scenario = preset(id)?.scenario;
        scenario.set("load", &load.to_string())?;
        let Scenario::Msj(s) = scenario else { bail!("{id} is not a multiserver-job preset") };
        for name in policies {
            let policy = PolicySpec::parse(name)?;
            let mut sim = msj_sim(&s, &policy, 64)?;
            let warm = WARMUP_JOBS / load;
            sim.run_until(warm).with_context(|| format!("{id} {name}"))?;
            let before = (sim.stats().arrivals, sim.stats().completed);
            // Time in chunks of simulated time until `jobs` arrivals; a chunk is ~10^5 jobs.
            let chunk = 100_000.0 / load;
            let mut until = warm;
            let clock = Instant::now();
            while sim.stats().arrivals - before.0 < args.jobs {
                until += chunk;
                sim.run_until(until).with_context(|| format!("{id} {name}"))?;
            }
            let seconds = clock.elapsed().as_secs_f64();
            let jobs = sim.stats().arrivals - before.0;
            let events = jobs + sim.stats().completed - before.1;
            let row = BenchRow {
                preset: id,
                cores: s.cores,
                classes: s.classes.len(),
                load,
                policy: policy.to_string(),
                jobs,
                events,
                seconds,
                jobs_per_s: jobs as f64 / seconds,
                ns_per_job: seconds * 1e9 / jobs as f64,
                final_queue: sim.state().waiting_total() as u64,
                mean_response: sim.mean_response(),
            };
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&row)?)?;
            } else {
                writeln!(
                    out,
                    "{:<8}  {:>5}  {:>7}  {:>4}  {:<12}  {:>10}  {:>9.3e}  {:>7.1}  {:>7}  {:>8.2}",
                    row.preset,
                    row.cores,
                    row.classes,
                    row.load,
                    row.policy,
                    row.jobs,
                    row.jobs_per_s,
                    row.ns_per_job,
                    row.final_queue,
                    row.mean_response
                )?;
            }
            out.flush()?;
        }
    }
    Ok(())
}
