//! The report of an MSFQ run (SPEC 5.4): response times overall, weighted and per class, their
//! percentiles, jobs in the system, the phases of MSF/MSFQ, and the paper's analysis.

use std::collections::BTreeMap;

use serde::Serialize;

use super::MsfqScenario;
use super::engine::MsfqSim;
use super::theory::MsfqAnalysis;
use crate::limits::BATCHES;
use crate::metrics::{JobTimes, mean_ci};
use crate::model::Replications;
use crate::model::policy::PolicySpec;
use crate::model::report::{verdict, verdict_note, window_ci};
use crate::model::table::{Table, interval, num, percent, sig};

type RunReport = crate::model::RunReport<MsfqSummary>;
type RunOutcome = crate::model::RunOutcome<MsfqSummary>;

/// What an MSFQ run adds to [`RunReport`] (SPEC 5.4). Means are over the jobs that arrived
/// after the warm-up, those still in the system at the horizon counted with their time so far
/// (`censored` counts them; [`crate::metrics::JobTimes`]); the percentiles are of the completed
/// ones.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MsfqSummary {
    /// E\[T\] = Σ_j p_j E\[T^(j)\] with the nominal class probabilities (RES-45).
    pub mean_response: f64,
    /// Batch-means 95% interval of E\[T\] (20 batches by arrival time).
    pub mean_response_ci95: [f64; 2],
    /// E[T^w] = Σ_j (ρ_j/ρ) E\[T^(j)\], ρ_j = j·λ_j/μ_j.
    pub weighted_mean_response: f64,
    /// The plain mean over all measured jobs with the empirical class mix, a job still in the
    /// system counted with its time so far (censored at the horizon), as every mean here.
    pub mean_response_all_jobs: f64,
    /// E\[T^(j)\] keyed by server need.
    pub mean_response_by_class: BTreeMap<String, f64>,
    pub p50_response: f64,
    pub p95_response: f64,
    pub p99_response: f64,
    /// Time-average number of jobs in the system, overall and per class (Little's law:
    /// λ_j·E\[T^(j)\]).
    pub mean_in_system: f64,
    pub mean_in_system_by_class: BTreeMap<String, f64>,
    /// E[H_1..H_4] for MSF and MSFQ on one-or-all classes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_means: Option<[f64; 4]>,
    /// m_1..m_4, the fractions of non-idle time in each phase.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_fractions: Option<[f64; 4]>,
    /// The paper's analysis for the same setting (SPEC 5.6: MSF and MSFQ on one-or-all
    /// classes with exponential service, where its approximation holds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<MsfqAnalysis>,
    /// Fraction of the core-time in use after the warm-up.
    pub utilization: f64,
    /// Jobs completed (warm-up included).
    pub completed: u64,
}

/// Summarises a multiserver-job simulation at its current time.
pub fn summarize(s: &MsfqScenario, policy: &PolicySpec, sim: &MsfqSim) -> RunOutcome {
    let stats = sim.stats();
    let now = sim.now();
    let warmup = s.window.warmup as f64;
    let classes = sim.config.classes.as_slice();
    let key = |need: u32| need.to_string();
    let by_class: Vec<f64> = stats.classes.iter().map(|c| c.mean_response(now)).collect();
    let weight_sum: f64 = classes.iter().map(|c| c.probability * c.need as f64 * c.mean_size).sum();
    let weighted =
        classes.iter().zip(&by_class).map(|(c, t)| c.probability * c.need as f64 * c.mean_size / weight_sum * t).sum();
    let nominal = |t: &[f64]| classes.iter().zip(t).map(|(c, t)| c.probability * t).sum::<f64>();
    // E[T] per batch of arrival times, for the batch-means interval.
    let batches: Vec<f64> = (0..BATCHES)
        .filter_map(|b| {
            let t: Vec<f64> = stats.classes.iter().map(|c| c.batches[b].mean(now)).collect();
            let m = nominal(&t);
            m.is_finite().then_some(m)
        })
        .collect();
    let ci = mean_ci(&batches);
    let completed: u64 = stats.classes.iter().map(|c| c.completed).sum();
    let window_arrivals: u64 = stats.classes.iter().map(|c| c.arrivals).sum();
    let all_jobs = stats.classes.iter().fold(JobTimes::default(), |all, c| all.plus(&c.responses));
    let waits = stats.classes.iter().fold(JobTimes::default(), |all, c| all.plus(&c.waits));
    let one_or_all_phases = stats.phases.tracked();
    let metrics = MsfqSummary {
        mean_response: nominal(&by_class),
        mean_response_ci95: [ci.lo, ci.hi],
        weighted_mean_response: weighted,
        mean_response_all_jobs: all_jobs.mean(now),
        mean_response_by_class: classes.iter().zip(&by_class).map(|(c, t)| (key(c.need), *t)).collect(),
        p50_response: stats.response_quantile(0.50),
        p95_response: stats.response_quantile(0.95),
        p99_response: stats.response_quantile(0.99),
        mean_in_system: stats.in_system.mean(now, warmup),
        mean_in_system_by_class: classes
            .iter()
            .zip(&stats.class_in_system)
            .map(|(c, l)| (key(c.need), l.mean(now, warmup)))
            .collect(),
        phase_means: one_or_all_phases.then(|| stats.phases.means()),
        phase_fractions: one_or_all_phases.then(|| stats.phases.fractions()),
        analysis: sim.analysis().copied(),
        utilization: stats.busy.mean(now, warmup),
        completed: stats.completed,
    };
    let in_system = sim.in_system_series().to_vec();
    let watch = sim.verdict();
    let queue = stats.waiting.points().to_vec();
    let queue_ci = window_ci(&queue, warmup);
    let report = RunReport {
        preset: String::new(),
        policy: policy.to_string(),
        seed: s.window.seed,
        horizon: now as u64,
        warmup: s.window.warmup,
        load: s.load,
        arrival_rate: sim.config.arrival_rate,
        servers: s.cores,
        mean_queue: sim.mean_queue(),
        mean_queue_ci95: [queue_ci.lo, queue_ci.hi],
        final_queue: sim.state().waiting_total() as u64,
        arrivals: stats.arrivals,
        started: stats.started,
        mean_wait: waits.mean(now),
        censored: window_arrivals - completed,
        mean_occupancy: metrics.utilization,
        unstable: watch.judgement().unstable(),
        verdict: Some(watch.judgement()),
        growth: Some(watch.growth()),
        recovery: stats.in_system.recoveries().to_vec(),
        stretches: Vec::new(),
        summary: metrics,
    };
    RunOutcome { report, queue, occupancy: stats.busy.points().to_vec(), in_system, reward: Vec::new() }
}

impl MsfqSummary {
    /// Replications of one setting: every value is the mean over the runs (percentiles the
    /// mean of each run's percentile, counts the total), and `mean_response_ci95` becomes the
    /// Student-t interval over the replications, which unlike one run's batch means does not
    /// lean on the batches being independent. The analysis does not depend on the seed.
    pub fn over_replications(runs: &[&MsfqSummary]) -> Self {
        let reps = Replications::new(runs).expect("at least one replication");
        let (mean_response, mean_response_ci95) = reps.headline(|m| m.mean_response, |m| m.mean_response_ci95);
        Self {
            mean_response,
            mean_response_ci95,
            weighted_mean_response: reps.mean(|m| m.weighted_mean_response),
            mean_response_all_jobs: reps.mean(|m| m.mean_response_all_jobs),
            mean_response_by_class: reps.mean_map(|m| &m.mean_response_by_class),
            p50_response: reps.mean(|m| m.p50_response),
            p95_response: reps.mean(|m| m.p95_response),
            p99_response: reps.mean(|m| m.p99_response),
            mean_in_system: reps.mean(|m| m.mean_in_system),
            mean_in_system_by_class: reps.mean_map(|m| &m.mean_in_system_by_class),
            phase_means: reps.mean_array(|m| m.phase_means),
            phase_fractions: reps.mean_array(|m| m.phase_fractions),
            analysis: reps.first().analysis,
            utilization: reps.mean(|m| m.utilization),
            completed: reps.total(|m| m.completed),
        }
    }
}

fn summaries<'a>(runs: &[&'a RunReport]) -> Vec<&'a MsfqSummary> {
    runs.iter().map(|r| &r.summary).collect()
}

/// The `run` table: response times (SPEC 5.4) of each policy (`names`), from its runs. With
/// replications, each figure is the mean over them and the interval is Student t over the
/// replications' E\[T\].
pub fn table(names: &[String], runs: &[Vec<&RunReport>]) -> Table {
    let mut classes: Vec<String> = runs
        .first()
        .and_then(|r| summaries(r).first().map(|m| m.mean_response_by_class.keys().cloned().collect()))
        .unwrap_or_default();
    // The map orders its keys as text (1, 128, 16, 2, …); the columns go by need.
    classes.sort_by_key(|c| c.parse::<u64>().unwrap_or(u64::MAX));
    let mut header = vec!["policy".to_string(), "E[T]".into(), "95% interval".into(), "E[T^w]".into()];
    header.extend(classes.iter().map(|c| format!("E[T] need {c}")));
    header.extend(["p95".into(), "in system".into(), "utilisation".into(), "verdict".into()]);
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut table = Table::new(&header_refs).left(header.len() - 1);
    for (name, runs) in names.iter().zip(runs) {
        let ms = summaries(runs);
        if ms.is_empty() {
            continue;
        }
        // One run's figures, or the replications' means with a Student-t interval.
        let m = MsfqSummary::over_replications(&ms);
        let mut row =
            vec![name.clone(), num(m.mean_response), interval(m.mean_response_ci95), num(m.weighted_mean_response)];
        row.extend(classes.iter().map(|c| num(m.mean_response_by_class.get(c).copied().unwrap_or(f64::NAN))));
        row.extend([num(m.p95_response), num(m.mean_in_system), percent(m.utilization), verdict(runs)]);
        table.row(row);
    }
    for note in [
        "E[T]: mean response time (completion − arrival; a job still in the system: its time so far) weighted by the nominal class mix; E[T^w]: weighted by load share",
        "95% interval: batch means over 20 arrival-time batches (Student t over replications with --reps)",
        "in system: time-average n(t)",
    ] {
        table.note(note);
    }
    table.note(verdict_note("n(t)", runs.first().map_or(1, Vec::len)));
    table
}

/// The run's setting for the header line: "λ = 7.5 jobs per time unit · k = 32 cores".
pub fn setting(first: &RunReport) -> String {
    format!("λ = {} jobs per time unit · k = {} cores", sig(first.load), first.servers)
}
