//! Command-line flags (clap derive).
//!
//! Scenario values (`--seed`, `--horizon`, `--set`, `--load`, `--servers`) are taken as text
//! and parsed by the core's `Scenario::set`, so every range check and error message lives in
//! one place and names the key exactly as the web page and links do.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand};

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
    /// Run a preset under one or more policies and report the queue statistics.
    Run(RunArgs),
    /// Run a preset over a grid of loads and draw mean queue against load.
    Sweep(SweepArgs),
    /// Time the slotted engine on large clusters (pgrr-a3 at load 0.95).
    Bench(BenchArgs),
    /// Time the multiserver-job engine: MSF, First-Fit and MSFQ on msfq-d1 at λ = 7 (k = 32),
    /// Adaptive Quickswap on msfq-d6 (k = 2048, 26 classes).
    BenchMsj(BenchMsjArgs),
    /// Time the VM-scheduling engine: Algorithm 2 and MW-local on ghra-b4 (100 servers) at
    /// ζ = 0.9, and the mixed fleet of ghra-b3.
    BenchVm(BenchVmArgs),
    /// PG-AS bounds without simulation: U^(g) and U* with the greedy configurations and an
    /// optimal LP support (pgas-c2, c4, c6, VM lists), or the random-collection statistics
    /// (pgas-c1).
    Bounds(BoundsArgs),
    /// Time the PG-AS engine: DRA and power-of-d events per second at L = 1000 (pgas-c3's
    /// collection at α = 1, and the pgas-c5 synthetic trace with DRA+Preemption).
    BenchPgas(BenchPgasArgs),
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

    /// Multiserver-job presets: read the job classes from a CSV file with the columns
    /// need, probability, mean_size (e.g. the Borg table of msfq-d6).
    #[arg(long, value_name = "FILE")]
    pub classes_file: Option<PathBuf>,

    /// PG-AS presets: replay a task trace, a CSV with the columns submit_time, duration, size
    /// (fraction of a server), priority (0-11). Sets types=trace and, unless given, a horizon
    /// that covers the trace.
    #[arg(long, value_name = "FILE")]
    pub trace_file: Option<PathBuf>,
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
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,

    /// Comma-separated loads (default: the preset's load grid).
    #[arg(long, value_name = "A,B,...", allow_hyphen_values = true)]
    pub load: Option<String>,

    /// PG-AS: comma-separated server counts L for a sweep against L (default: the preset's
    /// grid, pgas-c3 and pgas-c5).
    #[arg(long, value_name = "L,...", allow_hyphen_values = true)]
    pub servers: Option<String>,

    /// Replications per load and policy, with seeds seed, seed+1, ...
    #[arg(long, value_name = "R", value_parser = at_least_one, allow_hyphen_values = true, default_value_t = 5)]
    pub reps: u64,

    /// Directory for the CSV files and the chart.
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// A PG-RR preset: its sizes, service and policies' parameters.
    #[arg(long, value_name = "ID", default_value = "pgrr-a3")]
    pub preset: String,

    /// Load α, the fraction of the work-conservation bound (close to 1 the queue and the
    /// packing work peak).
    #[arg(long, value_name = "A", allow_hyphen_values = true, default_value_t = 0.95)]
    pub load: f64,

    /// Comma-separated server counts L.
    #[arg(long, value_name = "L,...", default_value = "10,100,1000,10000", allow_hyphen_values = true)]
    pub servers: String,

    /// Policies to time, repeatable or comma-separated.
    #[arg(long = "policy", value_name = "NAME", default_value = "bf-js,vqs-bf")]
    pub policies: Vec<String>,

    /// Arriving jobs per timed run (rounded up to whole slots).
    #[arg(long, value_name = "N", value_parser = at_least_one, allow_hyphen_values = true, default_value_t = 1_000_000)]
    pub jobs: u64,

    /// Print one JSON object per timed run per line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchMsjArgs {
    /// Jobs per timed run (arrivals; the run stops at the first event after that many).
    #[arg(long, value_name = "N", value_parser = at_least_one, allow_hyphen_values = true, default_value_t = 10_000_000)]
    pub jobs: u64,

    /// Print one JSON object per timed run per line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchVmArgs {
    /// Simulated time units per timed run (B4 has about 6000 events per time unit).
    #[arg(long, value_name = "T", value_parser = positive_time, allow_hyphen_values = true, default_value_t = 2000.0)]
    pub time: f64,

    /// Print one JSON object per timed run per line.
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
pub struct BenchPgasArgs {
    /// Arrivals and departures per timed run.
    #[arg(long, value_name = "N", value_parser = at_least_one, allow_hyphen_values = true, default_value_t = 2_000_000)]
    pub events: u64,

    /// Servers L.
    #[arg(long, value_name = "L", value_parser = at_least_one, allow_hyphen_values = true, default_value_t = 1000)]
    pub servers: u64,

    /// Print one JSON object per timed run per line.
    #[arg(long)]
    pub json: bool,
}

/// A number of time units in (0, 10^7].
fn positive_time(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 1e7 => Ok(t),
        _ => Err(format!("must be a number of time units in (0, 10000000] (got '{text}')")),
    }
}

/// An integer ≥ 1; clap prefixes the flag name to the message.
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
    fn at_least_one_rejects_zero_negative_and_text() {
        assert_eq!(at_least_one("3"), Ok(3));
        for bad in ["0", "-1", "x", "", "1.5"] {
            assert!(at_least_one(bad).unwrap_err().contains(">= 1"), "{bad}");
        }
    }
}
