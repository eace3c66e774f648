//! `packlab bench`: how fast the engines run, in jobs and events per second of wall time.
//!
//! Without `--preset` it times every model's headline cases (each model declares them,
//! [`packlab_core::model::ModelInfo::bench`]); with presets, those presets under their own
//! or the given policies, optionally over a list of server counts. Runs one at a time on
//! purpose: parallel runs would compete for cores and caches and the timings would measure
//! the contention instead of the engine.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::bench::{Timing, Warmup, time_run};
use packlab_core::model::BenchCase;
use packlab_core::models::all;
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::{Scenario, Setup};
use packlab_core::view::Watch;
use serde::Serialize;

use crate::args::BenchArgs;
use crate::setup::{parse_policies, with};

/// Series points kept; the benchmark reads none, so keep them few.
const MAX_POINTS: usize = 64;
/// Arriving jobs timed per run when neither the case nor `--jobs` says.
const DEFAULT_JOBS: u64 = 1_000_000;

/// One case under one policy: its fastest timed run, and every run's cost per job.
#[derive(Debug, Serialize)]
struct BenchRow {
    preset: String,
    /// The keys the case sets, `key=value` joined by spaces.
    setting: String,
    policy: String,
    /// The fastest of the runs (the only one without `--repeat`).
    #[serde(flatten)]
    timing: Timing,
    /// ns per job of every run, in the order they ran.
    runs_ns_per_job: Vec<f64>,
    ns_per_job_median: f64,
}

impl BenchRow {
    /// The row of a case's first run.
    fn first(case: &Case, policy: &PolicySpec, timing: Timing) -> Self {
        Self {
            preset: case.preset.clone(),
            setting: case.setting.clone(),
            policy: policy.brief(),
            runs_ns_per_job: vec![timing.ns_per_job],
            ns_per_job_median: timing.ns_per_job,
            timing,
        }
    }

    /// Takes in one more run of the same case and policy.
    fn add(&mut self, timing: Timing) {
        self.runs_ns_per_job.push(timing.ns_per_job);
        let mut sorted = self.runs_ns_per_job.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        self.ns_per_job_median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
        if timing.ns_per_job < self.timing.ns_per_job {
            self.timing = timing;
        }
    }
}

/// A case to time: a scenario and its policies.
struct Case {
    preset: String,
    setting: String,
    scenario: Scenario,
    policies: Vec<PolicySpec>,
    /// Untimed time units, or `None`: until the scenario's warm-up ends or a fifth of the
    /// timed jobs have arrived, whichever comes first.
    warmup: Option<u64>,
    jobs: u64,
}

pub fn command(args: &BenchArgs, out: &mut dyn Write) -> Result<()> {
    let cases = cases(args)?;
    let repeated = args.repeat > 1;
    if !args.json {
        writeln!(out, "untimed warm-up, then at least the given number of arriving jobs timed")?;
        writeln!(out, "events: arrivals + starts + departures (slotted), arrivals + departures + clock ticks")?;
        writeln!(out, "queue: jobs waiting at the end; ↑ marks a queue that grew while timed (an unstable case)")?;
        if repeated {
            writeln!(
                out,
                "each run timed {} times in rounds; the figures are the fastest run's, `median` the median ns/job",
                args.repeat
            )?;
        }
        writeln!(out)?;
        let mut header = vec!["preset", "setting", "policy", "jobs", "time", "events", "events/s", "jobs/s", "ns/job"];
        if repeated {
            header.push("median");
        }
        header.push("queue");
        writeln!(out, "{}", line(&header))?;
    }
    let runs: Vec<(&Case, &PolicySpec)> =
        cases.iter().flat_map(|case| case.policies.iter().map(move |policy| (case, policy))).collect();
    let mut rows: Vec<Option<BenchRow>> = runs.iter().map(|_| None).collect();
    for round in 1..=args.repeat {
        for ((case, policy), row) in runs.iter().zip(&mut rows) {
            let watch = Watch { max_points: MAX_POINTS, details: args.details, log: args.log as usize };
            let timing = time_one(case, policy, watch)
                .with_context(|| format!("{} {}, policy {}", case.preset, case.setting, policy.brief()))?;
            match row {
                Some(row) => row.add(timing),
                None => *row = Some(BenchRow::first(case, policy, timing)),
            }
            // Rows print when their last round is done; without --repeat, each as it comes
            // (a run takes seconds).
            if round == args.repeat {
                let row = row.as_ref().expect("timed in the first round");
                print_row(row, args.json, repeated, out)?;
                out.flush()?;
            }
        }
    }
    Ok(())
}

fn print_row(row: &BenchRow, json: bool, repeated: bool, out: &mut dyn Write) -> Result<()> {
    if json {
        writeln!(out, "{}", serde_json::to_string(row)?)?;
        return Ok(());
    }
    let t = &row.timing;
    // A queue that grew while timed is flagged: its cost per job is not a steady state's.
    let queue = if t.growing { format!("{} ↑", t.final_queue) } else { t.final_queue.to_string() };
    let mut cells = vec![
        row.preset.clone(),
        row.setting.clone(),
        row.policy.clone(),
        t.jobs.to_string(),
        t.time.to_string(),
        t.events.to_string(),
        format!("{:.3e}", t.events_per_s),
        format!("{:.3e}", t.jobs_per_s),
        format!("{:.1}", t.ns_per_job),
    ];
    if repeated {
        cells.push(format!("{:.1}", row.ns_per_job_median));
    }
    cells.push(queue);
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    writeln!(out, "{}", line(&cells))?;
    Ok(())
}

/// What to time before the flags are applied: a model's headline case (its preset with its
/// keys and policies, [`Setup::of_bench_case`]) or a preset the user named.
struct Plan {
    setup: Setup,
    /// The keys the case sets, for the row's setting.
    sets: Vec<(String, String)>,
    warmup: Option<u64>,
    jobs: Option<u64>,
}

impl Plan {
    fn of_case(case: &BenchCase) -> Result<Self> {
        Ok(Self {
            setup: Setup::of_bench_case(case).map_err(|e| anyhow!("{}: {e}", case.preset))?,
            sets: case.sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            warmup: Some(case.warmup),
            jobs: Some(case.jobs),
        })
    }

    fn of_preset(id: &str) -> Result<Self> {
        let setup = Setup::from_preset(id).map_err(|e| anyhow!("--preset: {}", e.message))?;
        Ok(Self { setup, sets: Vec::new(), warmup: None, jobs: None })
    }
}

/// The cases the flags ask for: the given presets (each over `--servers`, if given), or the
/// headline cases of every model (of `--model`'s only, if given).
fn cases(args: &BenchArgs) -> Result<Vec<Case>> {
    let given = parse_policies(&args.policies)?;
    let mut sets: Vec<(String, String)> = Vec::new();
    if let Some(load) = &args.load {
        sets.push(("load".into(), load.clone()));
    }
    for pair in &args.sets {
        let (key, value) = pair.split_once('=').ok_or_else(|| anyhow!("--set '{pair}': expected KEY=VALUE"))?;
        sets.push((key.trim().into(), value.trim().into()));
    }
    let servers: Vec<String> = match &args.servers {
        Some(text) => {
            let list: Vec<String> = text.split(',').map(|s| s.trim().to_string()).collect();
            if list.iter().any(String::is_empty) {
                bail!("--servers: empty entry in '{text}'; give server counts separated by commas");
            }
            list
        }
        None => Vec::new(),
    };
    let ids: Vec<String> = args.presets.iter().flat_map(|p| p.split(',')).map(|s| s.trim().to_string()).collect();
    let plans: Vec<Plan> = if ids.is_empty() {
        let models = all();
        let wanted: Vec<&str> = args.models.iter().flat_map(|m| m.split(',')).map(str::trim).collect();
        if let Some(unknown) = wanted.iter().find(|w| !models.iter().any(|m| m.id == **w)) {
            let ids: Vec<&str> = models.iter().map(|m| m.id).collect();
            bail!("--model: no model '{unknown}'; models: {}", ids.join(", "));
        }
        // Given policies pick the models that have them: `bench --policy msf` times MSFQ's
        // headline cases, not every model's.
        let chosen: Vec<_> = models
            .iter()
            .filter(|m| wanted.is_empty() || wanted.contains(&m.id))
            .filter(|m| given.iter().all(|p| p.model().id == m.id))
            .collect();
        if chosen.is_empty() {
            let names: Vec<String> = given.iter().map(|p| format!("{} ({})", p.name(), p.model().label)).collect();
            bail!(
                "--policy: {} belong to different models; time them one model at a time, or name presets with --preset",
                names.join(", ")
            );
        }
        chosen.into_iter().flat_map(|m| m.bench.iter().map(Plan::of_case)).collect::<Result<_>>()?
    } else {
        ids.iter().map(|id| Plan::of_preset(id)).collect::<Result<_>>()?
    };
    let mut cases = Vec::new();
    for plan in plans {
        let p = &plan.setup.preset;
        let scales: Vec<Option<&String>> =
            if servers.is_empty() { vec![None] } else { servers.iter().map(Some).collect() };
        for scale in scales {
            let mut scenario = plan.setup.scenario.clone();
            let mut keys: Vec<(String, String)> = plan.sets.clone();
            for (key, value) in &sets {
                scenario = with(&scenario, key, value).map_err(|e| anyhow!("--set {key}={value}: {e}"))?;
                keys.retain(|(k, _)| k != key);
                keys.push((key.clone(), value.clone()));
            }
            if let Some(value) = scale {
                scenario = with(&scenario, "servers", value).map_err(|e| anyhow!("--servers: {e}"))?;
                keys.retain(|(k, _)| k != "servers");
                keys.push(("servers".into(), value.clone()));
            }
            scenario.validate().map_err(|e| anyhow!("{}: {e}", p.id))?;
            let policies = if given.is_empty() { plan.setup.policies.clone() } else { given.clone() };
            for policy in &policies {
                scenario.check_policy(policy).map_err(|e| anyhow!("--policy: {}", e.message))?;
            }
            let setting: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
            cases.push(Case {
                preset: p.id.to_string(),
                setting: setting.join(" "),
                scenario,
                policies,
                warmup: args.warmup.or(plan.warmup),
                jobs: args.jobs.or(plan.jobs).unwrap_or(DEFAULT_JOBS),
            });
        }
    }
    Ok(cases)
}

/// A fixed-width row: rows are printed one by one, before the widest value is known. The
/// cells are those of the header: nine, then `median` with `--repeat`, then the queue.
fn line(cells: &[&str]) -> String {
    const WIDTHS: [(usize, bool); 9] =
        [(8, false), (24, false), (12, false), (9, true), (9, true), (10, true), (9, true), (9, true), (7, true)];
    let mut text = String::new();
    for (i, cell) in cells.iter().enumerate() {
        // The columns after the ninth (median, queue) are right-aligned and 7 wide.
        let (width, right) = WIDTHS.get(i).copied().unwrap_or((7, true));
        if i > 0 {
            text.push_str("  ");
        }
        if right {
            text.push_str(&format!("{cell:>width$}"));
        } else {
            text.push_str(&format!("{cell:<width$}"));
        }
    }
    text
}

/// Times one policy on one case: the untimed warm-up, then whole time units until `jobs`
/// more jobs have arrived ([`packlab_core::bench::time_run`], as the page's wasm times it).
fn time_one(case: &Case, policy: &PolicySpec, watch: Watch) -> Result<Timing> {
    let mut run = live_run(&case.scenario, policy, watch)?;
    let warmup = match case.warmup {
        Some(units) => Warmup::Units(units),
        None => Warmup::UntilOrFifth { until: case.scenario.warmup() },
    };
    let clock = Instant::now();
    Ok(time_run(run.as_mut(), warmup, case.jobs, &mut || clock.elapsed().as_secs_f64())?)
}
