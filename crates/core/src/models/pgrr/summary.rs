//! The report of a PG-RR run: the shared figures only (PG-RR's papers plot the queue).

use serde::Serialize;

use super::PgrrScenario;
use super::engine::PgrrSim;
use crate::model::policy::PolicySpec;
use crate::model::report::{summarise_reps, verdict, verdict_note, window_ci};
use crate::model::table::{Table, interval, num, percent, sig};

type RunReport = crate::model::RunReport<PgrrSummary>;
type RunOutcome = crate::model::RunOutcome<PgrrSummary>;

/// What PG-RR adds to a run's report: nothing beyond the shared figures.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct PgrrSummary {}

/// Summarises a slotted simulation at its current slot.
pub fn summarize(s: &PgrrScenario, policy: &PolicySpec, sim: &PgrrSim) -> RunOutcome {
    let counters = sim.counters();
    let queue = sim.queue_series().to_vec();
    let ci = window_ci(&queue, s.window.warmup as f64);
    let watch = sim.verdict();
    let report = RunReport {
        preset: String::new(),
        policy: policy.to_string(),
        seed: s.window.seed,
        horizon: sim.slot(),
        warmup: s.window.warmup,
        load: s.load,
        arrival_rate: s.arrival_rate(),
        servers: s.servers,
        mean_queue: sim.mean_queue(),
        mean_queue_ci95: [ci.lo, ci.hi],
        final_queue: sim.queue().len() as u64,
        arrivals: counters.arrivals,
        started: counters.started,
        mean_wait: counters.mean_wait(sim.slot()),
        censored: counters.window_arrivals - counters.window_started,
        mean_occupancy: sim.mean_occupancy(),
        unstable: watch.judgement().unstable(),
        verdict: Some(watch.judgement()),
        growth: Some(watch.growth()),
        recovery: sim.recoveries().to_vec(),
        stretches: Vec::new(),
        summary: PgrrSummary {},
    };
    RunOutcome { report, queue, occupancy: sim.occupancy_series().to_vec(), in_system: Vec::new(), reward: Vec::new() }
}

/// The `run` table: the queue statistics of each policy (`names`), from its runs in seed
/// order; with `replicated` (`--reps`), means over the runs and a Student-t interval.
pub fn table(names: &[String], runs: &[Vec<&RunReport>], replicated: bool) -> Table {
    let mut table =
        Table::new(&["policy", "mean queue", "95% interval", "final queue", "mean wait", "occupancy", "verdict"])
            .left(6);
    for (name, runs) in names.iter().zip(runs) {
        let row = if replicated {
            let own: Vec<RunReport> = runs.iter().map(|r| (*r).clone()).collect();
            let Some(r) = summarise_reps(&own, |_| PgrrSummary {}) else { continue };
            vec![
                name.clone(),
                num(r.mean_queue),
                interval(r.mean_queue_ci95),
                num(r.final_queue),
                num(r.mean_wait),
                percent(r.mean_occupancy),
                verdict(runs),
            ]
        } else {
            let r = runs[0];
            vec![
                name.clone(),
                num(r.mean_queue),
                interval(r.mean_queue_ci95),
                r.final_queue.to_string(),
                num(r.mean_wait),
                percent(r.mean_occupancy),
                verdict(runs),
            ]
        };
        table.row(row);
    }
    let notes: [&str; 3] = if runs.first().is_some_and(|r| r.len() > 1) {
        [
            "mean queue: time average of the waiting jobs after the warm-up, averaged over the replications",
            "95% interval: Student t over the replications; final queue: mean over the replications",
            "mean wait: slots from arrival to start, a job still waiting counted with its wait so far",
        ]
    } else {
        [
            "mean queue: time average of the waiting jobs after the warm-up",
            "95% interval: batch means over 20 batches of the measured window",
            "mean wait: slots from arrival to start, a job still waiting counted with its wait so far",
        ]
    };
    notes.into_iter().for_each(|n| table.note(n));
    table.note(verdict_note("Q(t)", runs.first().map_or(1, Vec::len)));
    table
}

/// The run's setting for the header line: "load α = 0.7 · λ = 0.014 arrivals/slot · 1 server".
pub fn setting(first: &RunReport) -> String {
    let servers = if first.servers == 1 { "1 server".to_string() } else { format!("{} servers", first.servers) };
    format!("load α = {} · λ = {} arrivals/slot · {servers}", sig(first.load), sig(first.arrival_rate))
}

/// The setting of a trace run: "trace synthetic · scaling 1/β = 1.2 · λ = 6.7 arrivals/slot · 1000 servers".
pub fn trace_setting(trace: &str, first: &RunReport) -> String {
    format!(
        "trace {trace} · scaling 1/β = {} · λ = {} arrivals/slot · {} server{}",
        sig(first.load),
        sig(first.arrival_rate),
        first.servers,
        if first.servers == 1 { "" } else { "s" }
    )
}
