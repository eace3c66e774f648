//! Command-line flags (clap derive).
//!
//! Scenario values (`--seed`, `--horizon`, `--set`, `--load`, `--servers`) are taken as text
//! and parsed by the core's `Scenario::set`, so every range check and error message lives in
//! one place and names the key exactly as the web page and links do.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};

/// packlab: cluster job-scheduling policies from four papers, simulated from the command line.
#[derive(Debug, Parser)]
#[command(name = "packlab", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the presets, or describe one with every key `--set` accepts.
    Presets(PresetsArgs),
    /// List the policies, their labels and parameters.
    Policies,
    /// List the guided tours, with the link each step plays.
    Tours,
    /// List the exercises (write a paper's policy as a script), describe one, or grade
    /// scripts against it with the page's check: `packlab exercise ID --check FILE...`.
    Exercise(crate::exercise::ExerciseArgs),
    /// Run a preset under one or more policies and report the queue statistics.
    Run(RunArgs),
    /// Run a preset over a grid (of loads, or of server counts) and draw its paper's figure.
    Sweep(SweepArgs),
    /// Combine the shards of a sweep (`sweep --shard I/N`) into the sweep's CSV files and chart.
    Merge(MergeArgs),
    /// Where each policy stops being stable: the largest stable load as an interval, per value
    /// of a second key (--axis), with the capacity and the proven loads; a CSV and an SVG.
    Stability(StabilityArgs),
    /// Time the engines: every model's headline cases, or the given presets (over a list of
    /// server counts with --servers).
    Bench(BenchArgs),
    /// Run each model's headline case for many events, checking its invariants and that its
    /// memory stays flat.
    Soak(SoakArgs),
    /// The theory's bounds without simulation, where a model has them: for PG-AS, U^(g) and U*
    /// with the greedy configurations and an optimal LP support (pgas-c2, c4, c6, VM lists), or
    /// the random-collection statistics (pgas-c1).
    Bounds(BoundsArgs),
    /// Workload traces: what a file holds (`stats`), or a synthetic one in a real format
    /// (`synth`).
    #[command(subcommand)]
    Trace(TraceCommand),
}

#[derive(Debug, Subcommand)]
pub enum TraceCommand {
    /// Read trace files (Google task_events parts or an SWF log, plain or gzip) and print what
    /// they hold: kept and skipped counts, span, size or need distribution, offered load. For
    /// SWF, also the job-class table msfq-d6 takes (`--classes-out`).
    Stats(TraceStatsArgs),
    /// Write a synthetic trace in a real format (the distributions of the bundled samples).
    Synth(TraceSynthArgs),
}

#[derive(Debug, Args)]
pub struct TraceStatsArgs {
    /// The files: the part files of one Google trace in time order, or one SWF log.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Google traces: keep the first N qualifying tasks in submit order (the papers replay 10^6).
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub first: Option<u64>,

    /// Offered load for this many servers (Google: capacity 1 each; SWF: the log's MaxProcs).
    #[arg(long, value_name = "L", value_parser = at_least_one)]
    pub servers: Option<u64>,

    /// SWF: write the fitted job-class table (need, probability, mean_size) to this CSV file.
    #[arg(long, value_name = "FILE")]
    pub classes_out: Option<PathBuf>,

    /// Print one JSON object instead of the text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    Google,
    Swf,
}

#[derive(Debug, Args)]
pub struct TraceSynthArgs {
    /// The format to write.
    #[arg(long, value_enum)]
    pub format: TraceFormat,

    /// Tasks (Google) or jobs (SWF) to write.
    #[arg(long, value_name = "N", value_parser = at_least_one)]
    pub tasks: u64,

    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,

    /// Google: tasks submitted per second of trace time (default 60, a cell of about 1000
    /// servers three quarters busy).
    #[arg(long, value_name = "R", value_parser = per_second, allow_hyphen_values = true)]
    pub per_second: Option<f64>,

    /// SWF: the machine's processors (default 128).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=100_000), allow_hyphen_values = true)]
    pub procs: Option<u32>,

    /// SWF: a one-or-all log, this share of the jobs asking for the whole machine and the rest
    /// for one processor, all running 10 min on average (default: mixed needs and run times).
    #[arg(long, value_name = "SHARE", value_parser = share, allow_hyphen_values = true)]
    pub one_or_all: Option<f64>,

    /// SWF, with --one-or-all: the offered load, a fraction of the machine's capacity (default 0.9).
    #[arg(long, value_name = "X", value_parser = offered_load, requires = "one_or_all", allow_hyphen_values = true)]
    pub load: Option<f64>,

    /// The file to write; gzip-compressed when it ends in .gz.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct PresetsArgs {
    /// Describe one preset: its explanation, keys, ranges and policies.
    #[arg(long, value_name = "ID")]
    pub describe: Option<String>,
}

/// Where the scenario comes from and what overrides it; shared by `run` and `sweep`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("source").args(["preset", "link"]).required(true)))]
pub struct ScenarioArgs {
    /// Preset id (see `packlab presets`).
    #[arg(long, value_name = "ID")]
    pub preset: Option<String>,

    /// A packlab page URL or just its query, e.g. '?preset=pgrr-a1&policy=vqs,bf-js&seed=1'.
    /// The other flags apply on top of it; `--policy` replaces the link's policies.
    #[arg(long, value_name = "URL_OR_QUERY", conflicts_with = "preset")]
    pub link: Option<String>,

    /// Policy NAME[:PARAM=VALUE]..., repeatable or comma-separated (default: the preset's).
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,

    /// Random seed (shorthand for `--set seed=N`).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seed: Option<String>,

    /// Slots to simulate (shorthand for `--set horizon=T`). Unless `warmup` is set too, the
    /// warm-up keeps its fraction of the horizon.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub horizon: Option<String>,

    /// Sets a scenario key, repeatable (keys: `packlab presets --describe ID`).
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    pub sets: Vec<String>,

    /// Changes a key while the run plays: from moment T on, KEY has VALUE (e.g. 5000:load=1.3),
    /// repeatable; all of them replace a link's changes (the link key `change`). Keys that can
    /// change: `packlab presets --describe ID`.
    #[arg(long = "change", value_name = "T:KEY=VALUE", allow_hyphen_values = true)]
    pub changes: Vec<String>,

    /// Multiserver-job presets: read the job classes from a CSV file with the columns
    /// need, probability, mean_size (e.g. the Borg table of msfq-d6).
    #[arg(long, value_name = "FILE")]
    pub classes_file: Option<PathBuf>,

    /// Replay a trace: the part files of a Google task_events trace in time order (PG-RR, e.g.
    /// pgrr-a5; PG-AS, e.g. pgas-c5), an SWF log (MSFQ), or PG-AS's CSV of submit_time,
    /// duration, size, priority. Plain or gzip. Unless given, the horizon covers the trace.
    #[arg(long = "trace", alias = "trace-file", value_name = "FILE", num_args = 1..)]
    pub traces: Vec<PathBuf>,

    /// Google traces: keep the first N tasks that finished normally, in submit order (the papers
    /// replay 1000000).
    #[arg(long, value_name = "N", value_parser = at_least_one, requires = "traces")]
    pub trace_tasks: Option<u64>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// Independent replications with seeds seed, seed+1, ...; reports their mean and
    /// Student-t interval.
    #[arg(long, value_name = "R", value_parser = at_least_one, allow_hyphen_values = true)]
    pub reps: Option<u64>,

    /// Print one JSON object per policy per line, and nothing else, on stdout.
    #[arg(long)]
    pub json: bool,

    /// Write the Q(t) trajectory of every policy as CSV and SVG into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Write every policy's decisions with their reasons as CSV (the page's event log): time,
    /// job, server, what, why and the numbers the rule looked at. First seed only.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,

    /// The decisions from this time on (default 0).
    #[arg(long, value_name = "T", requires = "events", value_parser = time_value, allow_hyphen_values = true)]
    pub events_from: Option<f64>,

    /// The decisions up to this time, inclusive (default: the horizon). The run stops there.
    #[arg(long, value_name = "T", requires = "events", value_parser = time_value, allow_hyphen_values = true)]
    pub events_to: Option<f64>,
}

/// A time: a finite number >= 0.
fn time_value(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!("must be a time, a number >= 0 (got '{text}')")),
    }
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// Comma-separated loads, for a sweep against the load (the default of most presets, with
    /// their grids).
    #[arg(long, value_name = "A,B,...", allow_hyphen_values = true)]
    pub load: Option<String>,

    /// Comma-separated server counts L, for a sweep against L (the default of pgas-c3 and
    /// pgas-c5, with their grids).
    #[arg(long, value_name = "L,...", allow_hyphen_values = true)]
    pub servers: Option<String>,

    /// Replications per load and policy, with seeds seed, seed+1, ... (default 5; 1 for a
    /// trace file, which fixes the workload)
    #[arg(long, value_name = "R", value_parser = at_least_one, allow_hyphen_values = true)]
    pub reps: Option<u64>,

    /// Directory for the CSV files and the chart.
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,

    /// Run only shard I of N: every N-th run of the grid from the I-th, written to
    /// DIR/PRESET-shard-I-of-N.jsonl (PRESET: the preset's id); `packlab merge` combines the N
    /// shards into what the whole sweep writes.
    #[arg(long, value_name = "I/N", conflicts_with = "emit")]
    pub shard: Option<packlab_core::sweep::shard::Shard>,

    #[command(flatten)]
    pub emit: EmitArgs,
}

/// The flags of `sweep --emit`: the script that runs a sweep's shards elsewhere.
#[derive(Debug, Args)]
pub struct EmitArgs {
    /// Print, instead of running, a script that runs the sweep in --shards N shards and then
    /// merges them into --out: a Slurm job array (slurm) or a GNU parallel command (parallel).
    #[arg(id = "emit", long = "emit", value_name = "KIND", value_enum, requires = "shards")]
    pub kind: Option<Emit>,

    /// How many shards --emit splits the sweep into.
    #[arg(long, value_name = "N", requires = "emit", value_parser = clap::value_parser!(u64).range(1..=packlab_core::sweep::shard::MAX_SHARDS))]
    pub shards: Option<u64>,

    /// The packlab binary the script runs, by its path on the machines that run the shards
    /// (default: this packlab's own path). The script checks that it runs before submitting.
    #[arg(long, value_name = "PATH", requires = "emit")]
    pub packlab_bin: Option<PathBuf>,

    /// Run at most K shards at once (Slurm: the array's `%K`; GNU parallel: `--jobs K`).
    #[arg(long, value_name = "K", requires = "emit", value_parser = at_least_one)]
    pub max_running: Option<u64>,

    /// Slurm: each job's time limit (sbatch --time): MINUTES, MINUTES:SECONDS, H:MM:SS,
    /// DAYS-H, DAYS-H:MM or DAYS-H:MM:SS. Without it, sbatch reads SBATCH_TIMELIMIT.
    #[arg(long, value_name = "TIME", requires = "emit", value_parser = slurm_time)]
    pub slurm_time: Option<String>,

    /// Slurm: each job's memory (sbatch --mem): a number of megabytes, or with a unit K, M, G
    /// or T. Without it, sbatch reads SBATCH_MEM_PER_NODE.
    #[arg(long, value_name = "SIZE", requires = "emit", value_parser = slurm_mem)]
    pub slurm_mem: Option<String>,

    /// Slurm: the partition the jobs run in (sbatch --partition). Without it, sbatch reads
    /// SBATCH_PARTITION.
    #[arg(long, value_name = "NAME", requires = "emit", value_parser = slurm_name)]
    pub slurm_partition: Option<String>,

    /// Slurm: the account the jobs are charged to (sbatch --account). Without it, sbatch reads
    /// SBATCH_ACCOUNT.
    #[arg(long, value_name = "NAME", requires = "emit", value_parser = slurm_name)]
    pub slurm_account: Option<String>,
}

/// How `--emit` runs the shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// A bash script that submits a Slurm job array (one shard per task) and a merge job that
    /// runs when the shards have ended; `bash FILE merge` and `bash FILE rerun LIST` redo
    /// those steps (docs/slurm.md).
    Slurm,
    /// A GNU parallel command line (add `--sshlogin` to spread it over hosts).
    Parallel,
}

#[derive(Debug, Args)]
pub struct StabilityArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// A second axis: a scenario key and its comma-separated values (the boundary per value),
    /// e.g. servers=1,2,4 or j=2,3,4.
    #[arg(long, value_name = "KEY=V1,V2,...", allow_hyphen_values = true)]
    pub axis: Option<String>,

    /// Replications per load tested, with seeds seed, seed+1, ... (the same for every policy
    /// and load).
    #[arg(long, value_name = "R", value_parser = at_least_two, allow_hyphen_values = true, default_value_t = 8)]
    pub reps: u64,

    /// The intervals are narrowed until hi − lo ≤ this fraction of hi.
    #[arg(long, value_name = "F", value_parser = fraction, allow_hyphen_values = true, default_value_t = 0.02)]
    pub tolerance: f64,

    /// Most runs the map may make; cells still open when a round does not fit are reported as
    /// stopped by the budget.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000_000), default_value_t = 20_000)]
    pub max_runs: u64,

    /// Times an undecided load is run again with the horizon doubled (then counted as not
    /// shown stable).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=6), default_value_t = 2)]
    pub max_doublings: u32,

    /// Directory for the journal, the CSV and the chart.
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,

    /// Make only shard I of N of the next unfinished round (written into --out); then --merge.
    #[arg(long, value_name = "I/N", conflicts_with = "merge")]
    pub shard: Option<packlab_core::sweep::shard::Shard>,

    /// Fold the finished rounds' shard files into the journal, make no runs, and write the map
    /// when no round is left.
    #[arg(long)]
    pub merge: bool,
}

/// An integer >= 2.
fn at_least_two(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 2 => Ok(n),
        _ => Err(format!("must be an integer >= 2: the test's interval is over replications (got '{text}')")),
    }
}

/// A fraction in (0, 1).
fn fraction(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(f) if f > 0.0 && f < 1.0 => Ok(f),
        _ => Err(format!("must be a number in (0, 1), e.g. 0.02 (got '{text}')")),
    }
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard files, or directories holding them (`sweep --shard I/N` writes them).
    #[arg(required = true, value_name = "DIR_OR_FILE")]
    pub paths: Vec<PathBuf>,

    /// Directory for the CSV files and the chart.
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Presets to time, repeatable or comma-separated (default: every model's headline cases).
    #[arg(long = "preset", value_name = "ID")]
    pub presets: Vec<String>,

    /// Only these models' headline cases, repeatable or comma-separated (`packlab presets`
    /// lists the models).
    #[arg(long = "model", value_name = "ID", conflicts_with = "presets")]
    pub models: Vec<String>,

    /// Policies to time, repeatable or comma-separated (default: the case's or the preset's).
    #[arg(long = "policy", value_name = "NAME")]
    pub policies: Vec<String>,

    /// Comma-separated server counts L: one case per count (the key `servers`).
    #[arg(long, value_name = "L,...", allow_hyphen_values = true)]
    pub servers: Option<String>,

    /// The load knob (shorthand for `--set load=X`).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    pub load: Option<String>,

    /// Sets a scenario key, repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE", allow_hyphen_values = true)]
    pub sets: Vec<String>,

    /// Arriving jobs per timed run: at least this many, in whole time units, so up to about 1 % more (default: the case's, 10^6 for a preset).
    #[arg(long, value_name = "N", value_parser = at_least_one, allow_hyphen_values = true)]
    pub jobs: Option<u64>,

    /// Untimed time units before the clock starts (default: the case's; for a preset, until
    /// its warm-up ends or a fifth of the timed jobs have arrived).
    #[arg(long, value_name = "T", value_parser = at_least_one, allow_hyphen_values = true)]
    pub warmup: Option<u64>,

    /// Keep what the page shows of the policies' reasoning (DRA's ranking), to time what the
    /// page pays for it; batch runs leave it off.
    #[arg(long)]
    pub details: bool,

    /// Keep the last N decisions with their reasons, as the page's event log does (400), to
    /// time what explaining costs; batch runs keep none.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub log: u64,

    /// Time every run N times, in rounds (each round runs every case once, so a busy spell of
    /// a shared machine slows all of them alike), and report the fastest and the median.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub repeat: u64,

    /// Print JSON, one object per line: per timed run, or with `--repeat` per case and policy with every run in `runs_ns_per_job`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BoundsArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// The workload scale α (shorthand for `--set load=X`).
    #[arg(long, value_name = "X", allow_hyphen_values = true)]
    pub load: Option<String>,

    /// Print one JSON object, and nothing else, on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct SoakArgs {
    /// Events per model (arrivals, starts, departures, clock ticks).
    #[arg(long, value_name = "N", default_value_t = 100_000_000, value_parser = at_least_one, allow_hyphen_values = true)]
    pub events: u64,

    /// Models to soak, repeatable or comma-separated (default: every model).
    #[arg(long = "model", value_name = "ID")]
    pub models: Vec<String>,

    /// Print one JSON object per model per line.
    #[arg(long)]
    pub json: bool,
}

/// A positive number of at most `hi`, as a flag's value.
fn positive_at_most(text: &str, hi: f64, what: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= hi => Ok(v),
        _ => Err(format!("must be {what}, a number in (0, {hi}] (got '{text}')")),
    }
}

fn per_second(text: &str) -> Result<f64, String> {
    positive_at_most(text, 100_000.0, "tasks per second")
}

fn share(text: &str) -> Result<f64, String> {
    positive_at_most(text, 1.0, "a share of the jobs").and_then(|v| {
        if v < 1.0 { Ok(v) } else { Err(format!("must be a share of the jobs, a number in (0, 1) (got '{text}')")) }
    })
}

fn offered_load(text: &str) -> Result<f64, String> {
    positive_at_most(text, 10.0, "a fraction of the capacity")
}

/// An integer ≥ 1; clap prefixes the flag name to the message.
/// A Slurm time limit, in one of the forms sbatch's `--time` accepts (checked here so a typo
/// is named before anything is submitted).
fn slurm_time(text: &str) -> Result<String, String> {
    let number = |t: &str| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit());
    let clock = |t: &str| {
        let parts: Vec<&str> = t.split(':').collect();
        parts.len() <= 3 && parts.iter().all(|p| number(p))
    };
    let ok = match text.split_once('-') {
        Some((days, rest)) => number(days) && rest.split(':').count() <= 3 && clock(rest),
        None => clock(text),
    };
    if ok {
        Ok(text.to_string())
    } else {
        Err(format!(
            "must be a Slurm time: MINUTES, MINUTES:SECONDS, H:MM:SS, DAYS-H, DAYS-H:MM or DAYS-H:MM:SS (got '{text}')"
        ))
    }
}

/// A Slurm memory size: megabytes, or a number with the unit K, M, G or T.
fn slurm_mem(text: &str) -> Result<String, String> {
    let digits = text.strip_suffix(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']).unwrap_or(text);
    match digits.parse::<u64>() {
        Ok(n) if n >= 1 && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(text.to_string()),
        _ => Err(format!("must be a memory size >= 1: megabytes, or a number with K, M, G or T, as 4G (got '{text}')")),
    }
}

/// A Slurm partition or account name: not empty, no spaces (the script quotes it; Slurm
/// checks that it exists when the script submits).
fn slurm_name(text: &str) -> Result<String, String> {
    if text.is_empty() || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Err(format!("must be a name without spaces (got '{text}')"))
    } else {
        Ok(text.to_string())
    }
}

fn at_least_one(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("must be an integer >= 1 (got '{text}')")),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn flags_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn slurm_values_are_checked() {
        for good in ["30", "30:00", "2:30:00", "1-0", "1-12:00", "2-0:30:00"] {
            assert_eq!(slurm_time(good).as_deref(), Ok(good));
        }
        for bad in ["", "1h", "1:2:3:4", "-5", "1-", "1-2:3:4:5", "1--2", "x:00"] {
            assert!(slurm_time(bad).unwrap_err().contains("DAYS-H:MM:SS"), "{bad}");
        }
        for good in ["500", "4G", "512M", "1t"] {
            assert_eq!(slurm_mem(good).as_deref(), Ok(good));
        }
        for bad in ["", "0", "G", "4GB", "-1G", "1.5G"] {
            assert!(slurm_mem(bad).unwrap_err().contains("K, M, G or T"), "{bad}");
        }
        assert_eq!(slurm_name("gpu,cpu").as_deref(), Ok("gpu,cpu"));
        for bad in ["", "a b", "a\nb"] {
            assert!(slurm_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn at_least_one_rejects_zero_negative_and_text() {
        assert_eq!(at_least_one("3"), Ok(3));
        for bad in ["0", "-1", "x", "", "1.5"] {
            assert!(at_least_one(bad).unwrap_err().contains(">= 1"), "{bad}");
        }
    }
}
