//! Running a scenario to its horizon and summarising it: what the CLI prints and the tests
//! check.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::msj::BATCHES;
use crate::engine::msj::MsjSim;
use crate::engine::reservation::ReservationSim;
use crate::engine::slotted::SlottedSim;
use crate::engine::vm::VmSim;
use crate::metrics::{SeriesPoint, TrendVerdict, batch_means_ci, mean_ci, trend_verdict};
use crate::policy::PolicySpec;
use crate::scenario::{MsjScenario, PgasScenario, PgrrScenario, Scenario, VmScenario};
use crate::view::LiveRun;
use crate::{ConfigError, EngineError};

/// Points kept per series in batch runs (the default grid gives 2000 for 2·10^6 slots).
pub const BATCH_MAX_POINTS: usize = 4096;

/// Why a run could not be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RunError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// A run of `policy` on `scenario` that the page can step and draw, whatever the model.
pub fn live_run(scenario: &Scenario, policy: &PolicySpec, max_points: usize) -> Result<Box<dyn LiveRun>, RunError> {
    scenario.check_policy(policy)?;
    Ok(match scenario {
        Scenario::Pgrr(s) => Box::new(slotted_sim(s, policy, max_points)),
        Scenario::Msj(s) => Box::new(msj_sim(s, policy, max_points)?),
        Scenario::Vm(s) => Box::new(vm_sim(s, policy, max_points)?),
        Scenario::Pgas(s) => Box::new(pgas_sim(s, policy, max_points)?),
    })
}

/// Builds (without running) the PG-AS simulation of `scenario` under `policy`.
pub fn pgas_sim(scenario: &PgasScenario, policy: &PolicySpec, max_points: usize) -> Result<ReservationSim, RunError> {
    let config = scenario.config(max_points)?;
    let built = policy.build_pgas(&config)?;
    Ok(ReservationSim::new(config, built, scenario.seed)?)
}

/// Builds (without running) the VM-scheduling simulation of `scenario` under `policy`.
pub fn vm_sim(scenario: &VmScenario, policy: &PolicySpec, max_points: usize) -> Result<VmSim, RunError> {
    let config = scenario.config(max_points)?;
    let built = policy.build_vm(&config.demands, &config.capacities)?;
    Ok(VmSim::new(config, built, scenario.seed)?)
}

/// Builds (without running) the multiserver-job simulation of `scenario` under `policy`.
pub fn msj_sim(scenario: &MsjScenario, policy: &PolicySpec, max_points: usize) -> Result<MsjSim, ConfigError> {
    let built = policy.build_msj(scenario.cores, &scenario.classes, scenario.load)?;
    Ok(MsjSim::new(scenario.config(max_points), built, scenario.seed))
}

/// Builds (without running) the slotted simulation of a PG-RR scenario under `policy`.
pub fn slotted_sim(scenario: &PgrrScenario, policy: &PolicySpec, max_points: usize) -> SlottedSim {
    let j = policy.j(scenario.j);
    let config = scenario.slotted_config(j, max_points);
    let built = policy.build(scenario.j, config.servers, config.capacity);
    SlottedSim::new(config, built, scenario.seed)
}

/// The summary of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    pub preset: String,
    pub policy: String,
    pub seed: u64,
    pub horizon: u64,
    pub warmup: u64,
    /// The load knob (α).
    pub load: f64,
    /// λ, arrivals per slot.
    pub arrival_rate: f64,
    pub servers: u32,
    /// Time-average number of waiting jobs over the measurement window.
    pub mean_queue: f64,
    /// Batch-means 95% interval of `mean_queue` (20 batches).
    pub mean_queue_ci95: [f64; 2],
    /// Jobs waiting at the horizon.
    pub final_queue: u64,
    pub arrivals: u64,
    pub started: u64,
    /// Mean wait (start − arrival, in slots) of the jobs that arrived in the window and started.
    pub mean_wait: f64,
    /// Jobs that arrived in the window and were still waiting at the horizon (censored).
    pub censored: u64,
    /// Mean fraction of the total capacity in use.
    pub mean_occupancy: f64,
    /// The instability verdict (see [`crate::metrics::trend_verdict`]).
    pub unstable: bool,
    pub trend: TrendVerdict,
    /// Response-time metrics of the multiserver-job model.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub msj: Option<MsjMetrics>,
    /// Delay and dummy-job metrics of the VM-scheduling model.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub vm: Option<VmMetrics>,
    /// Reward metrics of the PG-AS loss model.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub pgas: Option<PgasMetrics>,
}

/// What a PG-AS run adds to [`RunReport`] (SPEC 4.6). Rewards are time averages over
/// `[warmup, horizon)`; counts are of events after the warm-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PgasMetrics {
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

impl PgasMetrics {
    /// Replications: means over the runs (counts averaged too, so they stay per run), and a
    /// Student-t interval of the normalised reward over them.
    pub fn over_replications(runs: &[&PgasMetrics]) -> Self {
        let n = runs.len() as f64;
        let mean = |f: fn(&PgasMetrics) -> f64| runs.iter().map(|m| f(m)).sum::<f64>() / n;
        let ci = mean_ci(&runs.iter().map(|m| m.normalized_reward).collect::<Vec<_>>());
        let first = runs[0];
        let ratio = |reference: Option<f64>| reference.map(|r| ci.mean / r);
        let count = |f: fn(&PgasMetrics) -> u64| (runs.iter().map(|m| f(m)).sum::<u64>() as f64 / n).round() as u64;
        Self {
            reward_rate: mean(|m| m.reward_rate),
            normalized_reward: ci.mean,
            normalized_reward_ci95: if runs.len() > 1 { [ci.lo, ci.hi] } else { first.normalized_reward_ci95 },
            greedy_reward: first.greedy_reward,
            optimal_reward: first.optimal_reward,
            ratio_to_optimal: ratio(first.optimal_reward),
            ratio_to_greedy: ratio(first.greedy_reward),
            blocking: first
                .blocking
                .keys()
                .map(|k| (k.clone(), runs.iter().map(|m| m.blocking[k]).sum::<f64>() / n))
                .collect(),
            overall_blocking: mean(|m| m.overall_blocking),
            migrations: count(|m| m.migrations),
            preemptions: count(|m| m.preemptions),
            preempted_size: mean(|m| m.preempted_size),
            reconfigurations: count(|m| m.reconfigurations),
            mean_reject_group: mean(|m| m.mean_reject_group),
            mean_reserved_slots: mean(|m| m.mean_reserved_slots),
            admitted: count(|m| m.admitted),
        }
    }
}

/// What a VM-scheduling run adds to [`RunReport`] (SPEC 3.4). The delay is start − arrival
/// of the real jobs that arrived after the warm-up; those still waiting at the horizon
/// (`censored`) count with their wait so far, a lower bound.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VmMetrics {
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

impl VmMetrics {
    /// Replications: means over the runs, counts summed, and a Student-t interval of the mean
    /// delay over them.
    pub fn over_replications(runs: &[&VmMetrics]) -> Self {
        let n = runs.len() as f64;
        let mean = |f: fn(&VmMetrics) -> f64| runs.iter().map(|m| f(m)).sum::<f64>() / n;
        let ci = mean_ci(&runs.iter().map(|m| m.mean_delay).collect::<Vec<_>>());
        Self {
            mean_delay: ci.mean,
            mean_delay_ci95: if runs.len() > 1 { [ci.lo, ci.hi] } else { runs[0].mean_delay_ci95 },
            mean_total_queue: mean(|m| m.mean_total_queue),
            dummy_share: mean(|m| m.dummy_share),
            dummies_started: runs.iter().map(|m| m.dummies_started).sum(),
            refreshes: runs.iter().map(|m| m.refreshes).sum(),
        }
    }
}

/// What a multiserver-job run adds to [`RunReport`] (SPEC 5.4). Means are over the jobs
/// that arrived after the warm-up and completed by the horizon (`censored` counts the rest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsjMetrics {
    /// E[T] = Σ_j p_j E[T^(j)] with the nominal class probabilities (RES-45).
    pub mean_response: f64,
    /// Batch-means 95% interval of E[T] (20 batches by arrival time).
    pub mean_response_ci95: [f64; 2],
    /// E[T^w] = Σ_j (ρ_j/ρ) E[T^(j)], ρ_j = j·λ_j/μ_j.
    pub weighted_mean_response: f64,
    /// The plain mean over all completed jobs (the empirical class mix).
    pub mean_response_all_jobs: f64,
    /// E[T^(j)] keyed by server need.
    pub mean_response_by_class: BTreeMap<String, f64>,
    pub p50_response: f64,
    pub p95_response: f64,
    pub p99_response: f64,
    /// Time-average number of jobs in the system, overall and per class (Little's law:
    /// λ_j·E[T^(j)]).
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<crate::theory::msfq::MsfqAnalysis>,
    /// Fraction of the core-time in use after the warm-up.
    pub utilization: f64,
    /// Jobs completed (warm-up included).
    pub completed: u64,
}

/// A finished run with its series.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub report: RunReport,
    pub queue: Vec<SeriesPoint>,
    pub occupancy: Vec<SeriesPoint>,
    /// n(t), jobs in the system (multiserver-job runs; empty otherwise).
    pub in_system: Vec<SeriesPoint>,
    /// R(t)/L (PG-AS runs; empty otherwise).
    pub reward: Vec<SeriesPoint>,
}

/// Runs `scenario` under `policy` to its horizon.
pub fn run(preset: &str, scenario: &Scenario, policy: &PolicySpec) -> Result<RunOutcome, RunError> {
    scenario.validate()?;
    scenario.check_policy(policy)?;
    match scenario {
        Scenario::Pgrr(s) => {
            let mut sim = slotted_sim(s, policy, BATCH_MAX_POINTS);
            sim.run_until(s.horizon)?;
            Ok(outcome(preset, s, policy, &sim))
        }
        Scenario::Msj(s) => {
            let mut sim = msj_sim(s, policy, BATCH_MAX_POINTS)?;
            sim.run_until(s.horizon as f64)?;
            Ok(msj_outcome(preset, s, policy, &sim))
        }
        Scenario::Vm(s) => {
            let mut sim = vm_sim(s, policy, BATCH_MAX_POINTS)?;
            sim.run_until(s.horizon as f64)?;
            Ok(vm_outcome(preset, s, policy, &sim))
        }
        Scenario::Pgas(s) => {
            let mut sim = pgas_sim(s, policy, BATCH_MAX_POINTS)?;
            sim.run_until(s.horizon as f64)?;
            Ok(pgas_outcome(preset, s, policy, &sim))
        }
    }
}

/// Summarises a PG-AS simulation at its current time.
pub fn pgas_outcome(preset: &str, s: &PgasScenario, policy: &PolicySpec, sim: &ReservationSim) -> RunOutcome {
    let stats = sim.stats();
    let now = sim.now();
    let warmup = s.warmup as f64;
    let servers = f64::from(s.servers);
    let reward = stats.reward.points().to_vec();
    let window: Vec<SeriesPoint> = reward.iter().copied().filter(|p| p.start >= warmup).collect();
    let ci = batch_means_ci(&window, crate::engine::reservation::BATCHES);
    let normalized = stats.normalized_reward(now);
    // Bounds of a valid scenario's instance: a solver failure only loses the ratios.
    let reference = s.reference().ok().flatten();
    let names = &sim.config().type_names;
    let metrics = PgasMetrics {
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
        crate::engine::reservation::Arrivals::Poisson { rates, .. } => rates.iter().sum(),
        crate::engine::reservation::Arrivals::Trace { .. } => stats.arrivals as f64 / now.max(f64::MIN_POSITIVE),
    };
    let report = RunReport {
        preset: preset.to_string(),
        policy: policy.to_string(),
        seed: s.seed,
        horizon: now as u64,
        warmup: s.warmup,
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
        trend: trend_verdict(&[], now),
        msj: None,
        vm: None,
        pgas: Some(metrics),
    };
    RunOutcome {
        report,
        queue: Vec::new(),
        occupancy: stats.occupancy.points().to_vec(),
        in_system: stats.in_system.points().to_vec(),
        reward,
    }
}

/// The batch-means 95% interval (20 batches) of a series' points after the warm-up.
fn window_ci(series: &[SeriesPoint], warmup: f64) -> crate::metrics::Interval {
    let window: Vec<SeriesPoint> = series.iter().copied().filter(|p| p.start >= warmup).collect();
    batch_means_ci(&window, 20)
}

/// Summarises a VM-scheduling simulation at its current time.
pub fn vm_outcome(preset: &str, s: &VmScenario, policy: &PolicySpec, sim: &VmSim) -> RunOutcome {
    let stats = sim.stats();
    let now = sim.now();
    let warmup = s.warmup as f64;
    let queue = stats.waiting.points().to_vec();
    let queue_ci = window_ci(&queue, warmup);
    let trend = trend_verdict(&queue, now);
    let mean_queue = stats.waiting.mean(now, warmup);
    let metrics = VmMetrics {
        mean_delay: stats.mean_delay(now),
        mean_delay_ci95: stats.mean_delay_ci(now),
        mean_total_queue: mean_queue,
        dummy_share: stats.dummy_share.mean(now, warmup),
        dummies_started: stats.dummies_started,
        refreshes: stats.refreshes,
    };
    let report = RunReport {
        preset: preset.to_string(),
        policy: policy.to_string(),
        seed: s.seed,
        horizon: now as u64,
        warmup: s.warmup,
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
        unstable: trend.unstable,
        trend,
        msj: None,
        vm: Some(metrics),
        pgas: None,
    };
    RunOutcome {
        report,
        queue,
        occupancy: stats.occupancy.points().to_vec(),
        in_system: Vec::new(),
        reward: Vec::new(),
    }
}

/// Summarises a multiserver-job simulation at its current time.
pub fn msj_outcome(preset: &str, s: &MsjScenario, policy: &PolicySpec, sim: &MsjSim) -> RunOutcome {
    let stats = sim.stats();
    let now = sim.now();
    let warmup = s.warmup as f64;
    let classes = s.classes.as_slice();
    let key = |need: u32| need.to_string();
    let by_class: Vec<f64> = stats.classes.iter().map(|c| c.mean_response()).collect();
    let weight_sum: f64 = classes.iter().map(|c| c.probability * c.need as f64 * c.mean_size).sum();
    let weighted =
        classes.iter().zip(&by_class).map(|(c, t)| c.probability * c.need as f64 * c.mean_size / weight_sum * t).sum();
    let nominal = |t: &[f64]| classes.iter().zip(t).map(|(c, t)| c.probability * t).sum::<f64>();
    // E[T] per batch of arrival times, for the batch-means interval.
    let batches: Vec<f64> = (0..BATCHES)
        .filter_map(|b| {
            let t: Vec<f64> = stats
                .classes
                .iter()
                .map(|c| if c.batch_count[b] == 0 { f64::NAN } else { c.batch_sum[b] / c.batch_count[b] as f64 })
                .collect();
            let m = nominal(&t);
            m.is_finite().then_some(m)
        })
        .collect();
    let ci = mean_ci(&batches);
    let completed: u64 = stats.classes.iter().map(|c| c.completed).sum();
    let window_arrivals: u64 = stats.classes.iter().map(|c| c.arrivals).sum();
    let window_started: u64 = stats.classes.iter().map(|c| c.started).sum();
    let response_sum: f64 = stats.classes.iter().map(|c| c.response_sum).sum();
    let one_or_all_phases = stats.phases.tracked();
    let metrics = MsjMetrics {
        mean_response: nominal(&by_class),
        mean_response_ci95: [ci.lo, ci.hi],
        weighted_mean_response: weighted,
        mean_response_all_jobs: response_sum / completed.max(1) as f64,
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
        analysis: crate::theory::analytic_mean_response(&Scenario::Msj(s.clone()), policy),
        utilization: stats.busy.mean(now, warmup),
        completed: stats.completed,
    };
    let in_system = sim.in_system_series().to_vec();
    let trend = trend_verdict(&in_system, now);
    let window_waits: f64 = stats.classes.iter().map(|c| c.wait_sum).sum();
    let queue = stats.waiting.points().to_vec();
    let queue_ci = window_ci(&queue, warmup);
    let report = RunReport {
        preset: preset.to_string(),
        policy: policy.to_string(),
        seed: s.seed,
        horizon: now as u64,
        warmup: s.warmup,
        load: s.load,
        arrival_rate: s.load,
        servers: s.cores,
        mean_queue: sim.mean_queue(),
        mean_queue_ci95: [queue_ci.lo, queue_ci.hi],
        final_queue: sim.state().waiting_total() as u64,
        arrivals: stats.arrivals,
        started: stats.started,
        mean_wait: window_waits / window_started.max(1) as f64,
        censored: window_arrivals - completed,
        mean_occupancy: metrics.utilization,
        unstable: trend.unstable,
        trend,
        msj: Some(metrics),
        vm: None,
        pgas: None,
    };
    RunOutcome { report, queue, occupancy: stats.busy.points().to_vec(), in_system, reward: Vec::new() }
}

/// Summarises a slotted simulation at its current slot.
pub fn outcome(preset: &str, s: &PgrrScenario, policy: &PolicySpec, sim: &SlottedSim) -> RunOutcome {
    let counters = sim.counters();
    let queue = sim.queue_series().to_vec();
    let ci = window_ci(&queue, s.warmup as f64);
    let trend = trend_verdict(&queue, sim.slot() as f64);
    let report = RunReport {
        preset: preset.to_string(),
        policy: policy.to_string(),
        seed: s.seed,
        horizon: sim.slot(),
        warmup: s.warmup,
        load: s.load,
        arrival_rate: s.arrival_rate(),
        servers: s.servers,
        mean_queue: sim.mean_queue(),
        mean_queue_ci95: [ci.lo, ci.hi],
        final_queue: sim.queue().len() as u64,
        arrivals: counters.arrivals,
        started: counters.started,
        mean_wait: counters.window_wait as f64 / counters.window_started.max(1) as f64,
        censored: counters.window_arrivals - counters.window_started,
        mean_occupancy: sim.mean_occupancy(),
        unstable: trend.unstable,
        trend,
        msj: None,
        vm: None,
        pgas: None,
    };
    RunOutcome { report, queue, occupancy: sim.occupancy_series().to_vec(), in_system: Vec::new(), reward: Vec::new() }
}

/// Replications of one policy, summarised (`packlab run --reps`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepsReport {
    pub preset: String,
    pub policy: String,
    /// The first seed; replication r uses seed + r.
    pub seed: u64,
    pub seeds: Vec<u64>,
    pub reps: usize,
    pub horizon: u64,
    pub warmup: u64,
    pub load: f64,
    pub arrival_rate: f64,
    pub servers: u32,
    /// Mean over replications of each run's mean queue.
    pub mean_queue: f64,
    /// Student-t 95% interval over the replications.
    pub mean_queue_ci95: [f64; 2],
    /// Mean over replications of the queue at the horizon.
    pub final_queue: f64,
    /// Totals over replications.
    pub arrivals: u64,
    pub started: u64,
    pub mean_wait: f64,
    pub mean_occupancy: f64,
    /// Majority verdict, and how many replications were judged unstable.
    pub unstable: bool,
    pub unstable_reps: usize,
    /// Response-time metrics of the multiserver-job model, averaged over the replications
    /// (see [`MsjMetrics::over_replications`]).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub msj: Option<MsjMetrics>,
    /// Delay metrics of the VM-scheduling model, averaged over the replications.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub vm: Option<VmMetrics>,
    /// Reward metrics of the PG-AS model, averaged over the replications.
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub pgas: Option<PgasMetrics>,
}

impl MsjMetrics {
    /// Replications of one setting: every value is the mean over the runs (percentiles the
    /// mean of each run's percentile, counts the total), and `mean_response_ci95` becomes the
    /// Student-t interval over the replications, which unlike one run's batch means does not
    /// lean on the batches being independent. The analysis does not depend on the seed.
    pub fn over_replications(runs: &[&MsjMetrics]) -> Self {
        let n = runs.len() as f64;
        let mean = |f: fn(&MsjMetrics) -> f64| runs.iter().map(|m| f(m)).sum::<f64>() / n;
        let mean_map = |f: fn(&MsjMetrics) -> &BTreeMap<String, f64>| -> BTreeMap<String, f64> {
            f(runs[0]).keys().map(|k| (k.clone(), runs.iter().map(|m| f(m)[k]).sum::<f64>() / n)).collect()
        };
        let mean_array = |f: fn(&MsjMetrics) -> Option<[f64; 4]>| -> Option<[f64; 4]> {
            let arrays: Vec<[f64; 4]> = runs.iter().filter_map(|m| f(m)).collect();
            (arrays.len() == runs.len()).then(|| std::array::from_fn(|i| arrays.iter().map(|a| a[i]).sum::<f64>() / n))
        };
        let ci = mean_ci(&runs.iter().map(|m| m.mean_response).collect::<Vec<_>>());
        Self {
            mean_response: ci.mean,
            mean_response_ci95: if runs.len() > 1 { [ci.lo, ci.hi] } else { runs[0].mean_response_ci95 },
            weighted_mean_response: mean(|m| m.weighted_mean_response),
            mean_response_all_jobs: mean(|m| m.mean_response_all_jobs),
            mean_response_by_class: mean_map(|m| &m.mean_response_by_class),
            p50_response: mean(|m| m.p50_response),
            p95_response: mean(|m| m.p95_response),
            p99_response: mean(|m| m.p99_response),
            mean_in_system: mean(|m| m.mean_in_system),
            mean_in_system_by_class: mean_map(|m| &m.mean_in_system_by_class),
            phase_means: mean_array(|m| m.phase_means),
            phase_fractions: mean_array(|m| m.phase_fractions),
            analysis: runs[0].analysis,
            utilization: mean(|m| m.utilization),
            completed: runs.iter().map(|m| m.completed).sum(),
        }
    }
}

/// Summarises replications of the same preset and policy.
pub fn summarise_reps(runs: &[RunReport]) -> RepsReport {
    assert!(!runs.is_empty(), "at least one replication");
    let first = &runs[0];
    let mean = |f: fn(&RunReport) -> f64| runs.iter().map(f).sum::<f64>() / runs.len() as f64;
    let ci = mean_ci(&runs.iter().map(|r| r.mean_queue).collect::<Vec<_>>());
    let unstable_reps = runs.iter().filter(|r| r.unstable).count();
    RepsReport {
        preset: first.preset.clone(),
        policy: first.policy.clone(),
        seed: first.seed,
        seeds: runs.iter().map(|r| r.seed).collect(),
        reps: runs.len(),
        horizon: first.horizon,
        warmup: first.warmup,
        load: first.load,
        arrival_rate: first.arrival_rate,
        servers: first.servers,
        mean_queue: ci.mean,
        mean_queue_ci95: [ci.lo, ci.hi],
        final_queue: mean(|r| r.final_queue as f64),
        arrivals: runs.iter().map(|r| r.arrivals).sum(),
        started: runs.iter().map(|r| r.started).sum(),
        mean_wait: mean(|r| r.mean_wait),
        mean_occupancy: mean(|r| r.mean_occupancy),
        unstable: 2 * unstable_reps > runs.len(),
        unstable_reps,
        msj: runs
            .iter()
            .map(|r| r.msj.as_ref())
            .collect::<Option<Vec<&MsjMetrics>>>()
            .map(|m| MsjMetrics::over_replications(&m)),
        vm: runs
            .iter()
            .map(|r| r.vm.as_ref())
            .collect::<Option<Vec<&VmMetrics>>>()
            .map(|m| VmMetrics::over_replications(&m)),
        pgas: runs
            .iter()
            .map(|r| r.pgas.as_ref())
            .collect::<Option<Vec<&PgasMetrics>>>()
            .map(|m| PgasMetrics::over_replications(&m)),
    }
}
