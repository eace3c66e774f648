//! `packlab soak`: each model's headline case run for many events (10^8 by default), its
//! invariants checked at every tenth of the way, and its resident memory read there too: it
//! must stay flat once the run is under way (series halve their resolution when full, response
//! times go to a bounded sketch, nothing is kept per finished job).

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::models::all;
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::Setup;
use packlab_core::view::{LiveRun, Watch};
use serde::Serialize;

use crate::args::SoakArgs;

/// Checkpoints per run: the invariants are checked and the memory read at each.
const CHECKPOINTS: u64 = 10;
/// Growth allowed between the second checkpoint and the last: a run is "flat" when its
/// resident memory grew by at most this many bytes or this fraction, whichever is larger.
const FLAT_BYTES: u64 = 8 << 20;
const FLAT_FRACTION: f64 = 0.10;

#[derive(Debug, Serialize)]
struct SoakRow {
    model: &'static str,
    preset: &'static str,
    policy: String,
    events: u64,
    seconds: f64,
    /// Resident memory at the second checkpoint and at the end, in bytes (`None` where the
    /// operating system does not say).
    rss_early: Option<u64>,
    rss_end: Option<u64>,
    flat: Option<bool>,
    final_queue: u64,
}

pub fn command(args: &SoakArgs, out: &mut dyn Write) -> Result<()> {
    let wanted: Vec<String> = args.models.iter().flat_map(|m| m.split(',')).map(|s| s.trim().to_string()).collect();
    let models: Vec<_> = all().into_iter().filter(|m| wanted.is_empty() || wanted.iter().any(|w| w == m.id)).collect();
    if let Some(unknown) = wanted.iter().find(|w| !all().iter().any(|m| m.id == w.as_str())) {
        let ids: Vec<&str> = all().iter().map(|m| m.id).collect();
        bail!("--model: no model '{unknown}'; models: {}", ids.join(", "));
    }
    if !args.json {
        writeln!(out, "{} events per model; invariants and resident memory checked at every tenth\n", args.events)?;
        writeln!(
            out,
            "{:<6} {:<8} {:<10} {:>11} {:>8} {:>10} {:>10} {:>6}  {:>8}",
            "model", "preset", "policy", "events", "seconds", "rss early", "rss end", "flat", "queue"
        )?;
    }
    let mut failed = Vec::new();
    for model in models {
        let case = model.bench.first().ok_or_else(|| anyhow!("model {} has no headline case", model.id))?;
        let Setup { mut scenario, policies, .. } =
            Setup::of_bench_case(case).map_err(|e| anyhow!("{}: {e}", case.preset))?;
        // Long enough for the events asked for; the warm-up and grid stay as they were.
        scenario.set("horizon", "1000000000").map_err(|e| anyhow!("{}: {e}", case.preset))?;
        scenario.validate().map_err(|e| anyhow!("{}: {e}", case.preset))?;
        let policy = policies.first().ok_or_else(|| anyhow!("{}: no policy to run", case.preset))?.clone();
        let row = soak_one(model.id, case.preset, &scenario, &policy, args.events)
            .with_context(|| format!("{} {}", case.preset, policy))?;
        if row.flat == Some(false) {
            failed.push(format!("{}: memory grew from {:?} to {:?} bytes", row.model, row.rss_early, row.rss_end));
        }
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&row)?)?;
        } else {
            let mb = |b: Option<u64>| b.map_or("n/a".to_string(), |b| format!("{:.1} MB", b as f64 / 1e6));
            let flat = match row.flat {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "n/a",
            };
            writeln!(
                out,
                "{:<6} {:<8} {:<10} {:>11} {:>8.1} {:>10} {:>10} {:>6}  {:>8}",
                row.model,
                row.preset,
                row.policy,
                row.events,
                row.seconds,
                mb(row.rss_early),
                mb(row.rss_end),
                flat,
                row.final_queue
            )?;
        }
        out.flush()?;
    }
    if !failed.is_empty() {
        bail!("memory did not stay flat: {}", failed.join("; "));
    }
    Ok(())
}

fn soak_one(
    model: &'static str,
    preset: &'static str,
    scenario: &packlab_core::scenario::Scenario,
    policy: &PolicySpec,
    events: u64,
) -> Result<SoakRow> {
    let mut run = live_run(scenario, policy, Watch::batch(256))?;
    let clock = Instant::now();
    let mut rss = Vec::new();
    for checkpoint in 1..=CHECKPOINTS {
        advance_to(run.as_mut(), events * checkpoint / CHECKPOINTS)?;
        run.check_invariants().map_err(|e| anyhow!("invariant broken after {} events: {e}", run.readings().events))?;
        rss.push(resident_bytes());
    }
    let (early, end) = (rss[1], rss[rss.len() - 1]);
    let flat = early.zip(end).map(|(a, b)| b <= a + FLAT_BYTES.max((a as f64 * FLAT_FRACTION) as u64));
    Ok(SoakRow {
        model,
        preset,
        policy: policy.to_string(),
        events: run.readings().events,
        seconds: clock.elapsed().as_secs_f64(),
        rss_early: early,
        rss_end: end,
        flat,
        final_queue: run.readings().queue_len,
    })
}

/// Runs whole time units until at least `events` events were handled, in chunks that grow
/// while they bring few events.
fn advance_to(run: &mut dyn LiveRun, events: u64) -> Result<()> {
    let mut chunk = 1;
    while run.readings().events < events {
        let before = run.readings().events;
        run.run(chunk)?;
        let brought = run.readings().events - before;
        if brought == 0 && chunk > 1 << 20 {
            bail!("the run stopped bringing events after {before}");
        }
        if brought < events / 1000 {
            chunk *= 2;
        }
    }
    Ok(())
}

/// Resident memory of this process, from `/proc/self/statm` (Linux); `None` elsewhere.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}
