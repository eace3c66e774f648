//! `packlab bench-pgas`: events per second of the PG-AS engine at L = 1000 (issue 6: DRA must
//! run well at L = 1000). An event is an arrival or a departure, with everything the policy does
//! for it (CRA, migrations, reassignments, preemptions).
//!
//! One run at a time, as `bench`: parallel runs would time the contention for the 2 cores.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::report::pgas_sim;
use packlab_core::scenario::{Scenario, preset};
use serde::Serialize;

use crate::args::BenchPgasArgs;
use crate::setup::with;

/// (preset, policies): the C2 collection at α = 1 (Poisson), and the synthetic trace.
const CASES: [(&str, &[&str]); 2] = [("pgas-c3", &["dra", "po-d"]), ("pgas-c5", &["dra", "dra-preempt", "po-d"])];
/// Untimed time units before the clock starts: the system fills from empty in about 5.
const WARMUP: u64 = 5;
/// Events per time unit and server of the synthetic trace under DRA (9.6 arrivals, of which
/// about 60% are admitted and depart), rounded down so the trace outlasts the timed run.
const TRACE_EVENTS_PER_SERVER: f64 = 12.0;

#[derive(Debug, Serialize)]
struct BenchRow {
    preset: &'static str,
    servers: u64,
    policy: String,
    events: u64,
    seconds: f64,
    events_per_s: f64,
    ns_per_event: f64,
    /// Migrations, reassignments and preemptions per timed event.
    migrations_per_event: f64,
    reconfigurations_per_event: f64,
    preemptions_per_event: f64,
    normalized_reward: f64,
}

pub fn command(args: &BenchPgasArgs, out: &mut dyn Write) -> Result<()> {
    if !args.json {
        writeln!(
            out,
            "L = {}, {WARMUP} untimed time units, then {} events (arrivals + departures) timed\n",
            args.servers, args.events
        )?;
        writeln!(
            out,
            "{:<8}  {:<12}  {:>10}  {:>10}  {:>9}  {:>9}  {:>9}  {:>9}  {:>9}",
            "preset", "policy", "events", "events/s", "ns/event", "migr./ev", "reconf/ev", "preempt/ev", "reward/L"
        )?;
    }
    for (id, policies) in CASES {
        let mut scenario = with(&preset(id)?.scenario, "servers", args.servers)?;
        if id == "pgas-c5" {
            // The synthetic trace must hold enough events for the timed run.
            let horizon =
                (args.events as f64 / (TRACE_EVENTS_PER_SERVER * args.servers as f64) + 2.0 * WARMUP as f64).ceil();
            scenario = with(&with(&scenario, "horizon", horizon)?, "warmup", WARMUP)?;
        } else {
            scenario = with(&with(&scenario, "horizon", 1_000_000_000u64)?, "warmup", WARMUP)?;
        }
        scenario.validate().with_context(|| format!("{id} at L = {}", args.servers))?;
        let Scenario::Pgas(s) = scenario else { bail!("{id} is not a PG-AS preset") };
        for name in policies {
            let policy = PolicySpec::parse(name)?;
            let mut sim = pgas_sim(&s, &policy, 64)?;
            sim.run_until(WARMUP as f64).with_context(|| format!("{id} {name}"))?;
            let before = sim.stats().clone();
            let clock = Instant::now();
            let events = sim.run_events(args.events).with_context(|| format!("{id} {name}"))?;
            let seconds = clock.elapsed().as_secs_f64();
            let st = sim.stats();
            let per = |a: u64, b: u64| (a - b) as f64 / events.max(1) as f64;
            let row = BenchRow {
                preset: id,
                servers: args.servers,
                policy: policy.to_string(),
                events,
                seconds,
                events_per_s: events as f64 / seconds,
                ns_per_event: seconds * 1e9 / events.max(1) as f64,
                migrations_per_event: per(st.migrations, before.migrations),
                reconfigurations_per_event: per(st.reconfigurations, before.reconfigurations),
                preemptions_per_event: per(st.preemptions, before.preemptions),
                normalized_reward: sim.normalized_reward(),
            };
            if args.json {
                writeln!(out, "{}", serde_json::to_string(&row)?)?;
            } else {
                writeln!(
                    out,
                    "{:<8}  {:<12}  {:>10}  {:>10.3e}  {:>9.1}  {:>9.4}  {:>9.4}  {:>9.4}  {:>9.2}",
                    row.preset,
                    row.policy,
                    row.events,
                    row.events_per_s,
                    row.ns_per_event,
                    row.migrations_per_event,
                    row.reconfigurations_per_event,
                    row.preemptions_per_event,
                    row.normalized_reward
                )?;
            }
            out.flush()?;
        }
    }
    Ok(())
}
