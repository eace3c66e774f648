//! The report of a PG-AS run (SPEC 4.6): the normalised reward with its interval and its
//! ratios to U^(g) and U*, blocking per type, migrations, preemptions and reconfigurations.

use std::collections::BTreeMap;

use serde::Serialize;

use super::PgasScenario;
use super::engine::PgasSim;
use super::state::Arrivals;
use crate::limits::BATCHES;
use crate::metrics::{SeriesPoint, batch_means_ci};
use crate::model::policy::PolicySpec;
use crate::model::table::{Table, interval, num, sig};
use crate::model::{Replications, Trajectory};

type RunReport = crate::model::RunReport<PgasSummary>;
type RunOutcome = crate::model::RunOutcome<PgasSummary>;
use crate::view::Metric;

/// What a PG-AS run adds to [`RunReport`] (SPEC 4.6). Rewards are time averages over
/// `[warmup, horizon)`; counts are of events after the warm-up.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PgasSummary {
    /// Time average of R(t) = Σ_j u_j Y_j(t) (for the upper bound: of UB(t)).
    pub reward_rate: f64,
    /// reward_rate / L: the normalised reward.
    pub normalized_reward: f64,
    /// Batch-means 95% interval of the normalised reward (20 batches); Student t over the
    /// replications with `--reps`.
    pub normalized_reward_ci95: [f64; 2],
    /// U^(g) and U* at the scenario's α·ρ (none for a trace).
    pub greedy_reward: Option<f64>,
    pub optimal_reward: Option<f64>,
    /// normalized_reward / U* and / U^(g).
    pub ratio_to_optimal: Option<f64>,
    pub ratio_to_greedy: Option<f64>,
    /// Blocking probability per type (rejected / arrived), keyed by type name.
    pub blocking: BTreeMap<String, f64>,
    /// Blocking over all arrivals.
    pub overall_blocking: f64,
    pub migrations: u64,
    pub preemptions: u64,
    /// Total size of the preempted jobs, in servers.
    pub preempted_size: f64,
    /// Configuration changes (reassigned empty servers).
    pub reconfigurations: u64,
    /// Time averages of |RG| and of the deployed empty slots per server.
    pub mean_reject_group: f64,
    pub mean_reserved_slots: f64,
    /// Jobs admitted (the whole run).
    pub admitted: u64,
}

impl PgasSummary {
    /// Replications, by the rule of [`crate::model::report`]: the normalised reward with its
    /// interval, means, counts summed, and the bounds (which do not depend on the seed).
    pub fn over_replications(runs: &[&PgasSummary]) -> Self {
        let reps = Replications::new(runs).expect("at least one replication");
        let first = reps.first();
        let (normalized_reward, normalized_reward_ci95) =
            reps.headline(|m| m.normalized_reward, |m| m.normalized_reward_ci95);
        let ratio = |reference: Option<f64>| reference.map(|r| normalized_reward / r);
        Self {
            reward_rate: reps.mean(|m| m.reward_rate),
            normalized_reward,
            normalized_reward_ci95,
            greedy_reward: first.greedy_reward,
            optimal_reward: first.optimal_reward,
            ratio_to_optimal: ratio(first.optimal_reward),
            ratio_to_greedy: ratio(first.greedy_reward),
            blocking: reps.mean_map(|m| &m.blocking),
            overall_blocking: reps.mean(|m| m.overall_blocking),
            migrations: reps.total(|m| m.migrations),
            preemptions: reps.total(|m| m.preemptions),
            preempted_size: reps.mean(|m| m.preempted_size),
            reconfigurations: reps.total(|m| m.reconfigurations),
            mean_reject_group: reps.mean(|m| m.mean_reject_group),
            mean_reserved_slots: reps.mean(|m| m.mean_reserved_slots),
            admitted: reps.total(|m| m.admitted),
        }
    }
}

/// Summarises a PG-AS simulation at its current time.
pub fn summarize(s: &PgasScenario, policy: &PolicySpec, sim: &PgasSim) -> RunOutcome {
    let stats = sim.stats();
    let now = sim.now();
    let warmup = s.window.warmup as f64;
    let servers = f64::from(s.servers);
    let reward = stats.reward.points().to_vec();
    let window: Vec<SeriesPoint> = reward.iter().copied().filter(|p| p.start >= warmup).collect();
    let ci = batch_means_ci(&window, BATCHES);
    let normalized = stats.normalized_reward(now);
    // Bounds of a valid scenario's instance: a solver failure only loses the ratios.
    let reference = s.reference().ok().flatten();
    let names = &sim.config().type_names;
    let metrics = PgasSummary {
        reward_rate: normalized * servers,
        normalized_reward: normalized,
        normalized_reward_ci95: [ci.lo, ci.hi],
        greedy_reward: reference.map(|r| r.greedy),
        optimal_reward: reference.map(|r| r.optimal),
        ratio_to_optimal: reference.map(|r| normalized / r.optimal),
        ratio_to_greedy: reference.map(|r| normalized / r.greedy),
        blocking: names.iter().cloned().zip(stats.blocking()).collect(),
        overall_blocking: stats.overall_blocking(),
        migrations: stats.window_migrations,
        preemptions: stats.window_preemptions,
        preempted_size: stats.window_preempted_size as f64 / sim.config().capacity.primary() as f64,
        reconfigurations: stats.window_reconfigurations,
        mean_reject_group: stats.reject_group.mean(now, warmup),
        mean_reserved_slots: stats.reserved.mean(now, warmup),
        admitted: stats.admitted,
    };
    let arrival_rate = match &sim.config().arrivals {
        Arrivals::Poisson { rates, .. } => rates.iter().sum(),
        Arrivals::Trace { .. } => stats.arrivals as f64 / now.max(f64::MIN_POSITIVE),
    };
    let report = RunReport {
        preset: String::new(),
        policy: policy.to_string(),
        seed: s.window.seed,
        horizon: now as u64,
        warmup: s.window.warmup,
        load: s.load,
        arrival_rate,
        servers: s.servers,
        mean_queue: 0.0,
        mean_queue_ci95: [0.0, 0.0],
        final_queue: 0,
        arrivals: stats.arrivals,
        started: stats.admitted,
        mean_wait: 0.0,
        censored: 0,
        mean_occupancy: stats.occupancy.mean(now, warmup),
        unstable: false,
        verdict: None,
        growth: None,
        recovery: Vec::new(),
        stretches: stats.stretches(now),
        summary: metrics,
    };
    RunOutcome {
        report,
        queue: Vec::new(),
        occupancy: stats.occupancy.points().to_vec(),
        in_system: stats.in_system.points().to_vec(),
        reward,
    }
}

fn summaries<'a>(runs: &[&'a RunReport]) -> Vec<&'a PgasSummary> {
    runs.iter().map(|r| &r.summary).collect()
}

/// A count of the replications `n` as the table shows it: per run.
fn per_run(total: u64, n: usize) -> String {
    if n == 1 { total.to_string() } else { num(total as f64 / n as f64) }
}

/// The `run` table: normalised reward, its ratios to the bounds, blocking and the DRA
/// diagnostics (SPEC 4.6) of each policy (`names`), from its runs. With replications, figures
/// are means and the interval is Student t.
pub fn table(names: &[String], runs: &[Vec<&RunReport>]) -> Table {
    let mut table = Table::new(&[
        "policy",
        "reward/L",
        "95% interval",
        "/ U*",
        "/ U^(g)",
        "blocking",
        "migrations",
        "preemptions",
        "reconfig.",
        "mean |RG|",
        "empty slots/L",
    ]);
    for (name, runs) in names.iter().zip(runs) {
        let ms = summaries(runs);
        if ms.is_empty() {
            continue;
        }
        let m = PgasSummary::over_replications(&ms);
        let ratio = |r: Option<f64>| r.map_or("–".to_string(), |r| format!("{r:.4}"));
        table.row(vec![
            name.clone(),
            num(m.normalized_reward),
            interval(m.normalized_reward_ci95),
            ratio(m.ratio_to_optimal),
            ratio(m.ratio_to_greedy),
            format!("{:.2}%", 100.0 * m.overall_blocking),
            per_run(m.migrations, ms.len()),
            per_run(m.preemptions, ms.len()),
            per_run(m.reconfigurations, ms.len()),
            num(m.mean_reject_group),
            num(m.mean_reserved_slots),
        ]);
    }
    if let Some(m) = runs.first().and_then(|r| summaries(r).first().copied())
        && let (Some(g), Some(o)) = (m.greedy_reward, m.optimal_reward)
    {
        table.note(format!(
            "U^(g) = {} (global greedy), U* = {} (LP 7) per server at this α·ρ; ratio {:.6}",
            num(g),
            num(o),
            g / o
        ));
    }
    for note in [
        "reward/L: time average of R(t)/L = Σ_j u_j Y_j(t)/L after the warm-up (upper bound: of LP (6) on an infinite-server system)",
        "95% interval: batch means over 20 batches (Student t over replications with --reps); counts are after the warm-up, per run",
        "blocking: rejected/arrived; reconfig.: empty servers given another configuration; |RG|: DRA's reject group",
    ] {
        table.note(note);
    }
    table
}

/// The run's setting for the header line: "load α = 1 · L = 180 servers · types c2 · … arrivals
/// per time unit".
pub fn setting(s: &PgasScenario, first: &RunReport) -> String {
    format!(
        "load α = {} · L = {} servers · types {} · {} arrivals per time unit",
        sig(first.load),
        first.servers,
        s.types,
        sig(first.arrival_rate)
    )
}

/// R(t)/L of every policy, with U^(g) and U* as dashed lines (PG-AS Fig. 4).
pub fn trajectory(first: &RunReport) -> Trajectory {
    let mut y_marks = Vec::new();
    let m = &first.summary;
    if let Some(g) = m.greedy_reward {
        y_marks.push((g, format!("U^(g) = {}", num(g))));
    }
    if let Some(o) = m.optimal_reward {
        y_marks.push((o, format!("U* = {}", num(o))));
    }
    let x_note = if first.warmup > 0 {
        format!("(dashed: end of the warm-up at {}; U^(g) and U* per server)", first.warmup)
    } else {
        "(dashed: U^(g) and U* per server)".to_string()
    };
    Trajectory {
        metric: Metric::Reward,
        column_suffix: " reward/L",
        y_label: "reward rate per server R(t)/L",
        y_marks,
        x_note,
        legend_lower_right: true,
    }
}
