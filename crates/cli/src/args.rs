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
