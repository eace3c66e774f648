//! The report of a GH-RA run (SPEC 3.4): the delay until service, the total queue, the dummy
//! jobs' share of the capacity and MaxWeight's refreshes.

use serde::Serialize;

use super::GhraScenario;
use super::engine::GhraSim;
use crate::model::Replications;
use crate::model::policy::PolicySpec;
use crate::model::report::{summarise_reps, verdict, verdict_note, window_ci};
use crate::model::table::{Table, interval, num, percent, sig};

type RunReport = crate::model::RunReport<GhraSummary>;
type RunOutcome = crate::model::RunOutcome<GhraSummary>;

/// What a GH-RA run adds to [`RunReport`] (SPEC 3.4). The delay is start − arrival
/// of the real jobs that arrived after the warm-up; those still waiting at the horizon
/// (`censored`) count with their wait so far, a lower bound.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GhraSummary {
    /// Mean delay until service starts (censored jobs: their wait so far).
    pub mean_delay: f64,
    /// Batch-means 95% interval of the mean delay (20 batches by arrival time); a Student-t
    /// interval over replications with `--reps`.
    pub mean_delay_ci95: [f64; 2],
    /// Time average of Σ_j Q_j(t), waiting jobs only (the same as `mean_queue`).
    pub mean_total_queue: f64,
    /// Mean over resources of the fraction of the fleet's capacity held by dummy jobs.
    pub dummy_share: f64,
    /// Dummy jobs started (warm-up included).
    pub dummies_started: u64,
    /// MaxWeight refreshes (moments its refresh rule re-selected configurations).
    pub refreshes: u64,
}

impl GhraSummary {
    /// Replications, by the rule of [`crate::model::report`]: the mean delay with its
    /// interval, means, and counts summed.
    pub fn over_replications(runs: &[&GhraSummary]) -> Self {
        let reps = Replications::new(runs).expect("at least one replication");
        let (mean_delay, mean_delay_ci95) = reps.headline(|m| m.mean_delay, |m| m.mean_delay_ci95);
        Self {
            mean_delay,
            mean_delay_ci95,
            mean_total_queue: reps.mean(|m| m.mean_total_queue),
            dummy_share: reps.mean(|m| m.dummy_share),
            dummies_started: reps.total(|m| m.dummies_started),
            refreshes: reps.total(|m| m.refreshes),
        }
    }
}

/// Summarises a VM-scheduling simulation at its current time.
pub fn summarize(s: &GhraScenario, policy: &PolicySpec, sim: &GhraSim) -> RunOutcome {
    let stats = sim.stats();
    let now = sim.now();
    let warmup = s.window.warmup as f64;
    let queue = stats.waiting.points().to_vec();
    let queue_ci = window_ci(&queue, warmup);
    let watch = sim.verdict();
    let mean_queue = stats.waiting.mean(now, warmup);
    let metrics = GhraSummary {
        mean_delay: stats.mean_delay(now),
        mean_delay_ci95: stats.mean_delay_ci(now),
        mean_total_queue: mean_queue,
        dummy_share: stats.dummy_share.mean(now, warmup),
        dummies_started: stats.dummies_started,
        refreshes: stats.refreshes,
    };
    let report = RunReport {
        preset: String::new(),
        policy: policy.to_string(),
        seed: s.window.seed,
        horizon: now as u64,
        warmup: s.window.warmup,
        load: s.load,
        arrival_rate: sim.config().arrival_rates.iter().sum(),
        servers: s.servers.len() as u32,
        mean_queue,
        mean_queue_ci95: [queue_ci.lo, queue_ci.hi],
        final_queue: sim.state().waiting_total() as u64,
        arrivals: stats.arrivals,
        started: stats.started,
        mean_wait: metrics.mean_delay,
        censored: stats.window_arrivals - stats.window_started,
        mean_occupancy: stats.occupancy.mean(now, warmup),
        unstable: watch.judgement().unstable(),
        verdict: Some(watch.judgement()),
        growth: Some(watch.growth()),
        recovery: stats.waiting.recoveries().to_vec(),
        stretches: Vec::new(),
        summary: metrics,
    };
    RunOutcome {
        report,
        queue,
        occupancy: stats.occupancy.points().to_vec(),
        in_system: Vec::new(),
        reward: Vec::new(),
    }
}

/// The `run` table: delay, total queue and dummy jobs (SPEC 3.4) of each policy (`names`),
/// from its runs. With replications, each figure is the mean over them and the intervals are
/// Student t over the replications.
pub fn table(names: &[String], runs: &[Vec<&RunReport>]) -> Table {
    let mut table = Table::new(&[
        "policy",
        "mean delay",
        "95% interval",
        "mean queue",
        "95% interval",
        "final queue",
        "occupancy",
        "dummies",
        "refreshes",
        "verdict",
    ])
    .left(9);
    for (name, runs) in names.iter().zip(runs) {
        let own: Vec<RunReport> = runs.iter().map(|r| (*r).clone()).collect();
        let Some(r) = summarise_reps(&own, GhraSummary::over_replications) else { continue };
        let m = &r.summary;
        table.row(vec![
            name.clone(),
            num(m.mean_delay),
            interval(m.mean_delay_ci95),
            num(r.mean_queue),
            interval(r.mean_queue_ci95),
            num(r.final_queue),
            percent(r.mean_occupancy),
            percent(m.dummy_share),
            num(m.refreshes as f64 / runs.len() as f64),
            verdict(runs),
        ]);
    }
    for note in [
        "mean delay: time from arrival to the start of service, jobs that arrived after the warm-up",
        "mean queue: time average of Σ_j Q_j(t), waiting jobs only; intervals: batch means (Student t with --reps)",
        "occupancy / dummies: mean over resources of the fleet's capacity held by real / dummy jobs",
        "refreshes: MaxWeight's configuration re-selections",
    ] {
        table.note(note);
    }
    table.note(verdict_note("Q(t)", runs.first().map_or(1, Vec::len)));
    table
}

/// The run's setting for the header line: "ζ = 0.9 · λ = 31.5 jobs per time unit · servers …".
pub fn setting(s: &GhraScenario, first: &RunReport) -> String {
    format!("ζ = {} · λ = {} jobs per time unit · servers {}", sig(first.load), sig(first.arrival_rate), s.servers)
}
