//! Sweeps split across machines: the files of `sweep … --shard I/N` and `merge`, and the
//! scripts of `--emit`.
//!
//! `sweep … --shard I/N` makes the runs of the plan whose index is I − 1 modulo N and writes
//! them to `PRESET-shard-I-of-N.jsonl` in `--out`: a first line describing the sweep
//! ([`Header`]), then one line per run with its index and its `run --json` report. `merge
//! DIR…` reads the N files of one sweep ([`packlab_core::sweep::shard::merge`] checks them)
//! and writes exactly what the sweep writes on one machine. `sweep … --emit slurm|parallel
//! --shards N` prints the script that runs the N shards and then the merge ([`slurm`] for
//! Slurm's).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::sweep::SweepPlan;
use packlab_core::sweep::shard::{Grid, Header, Shard, ShardFile, ShardRun, merge};
use serde_json::Value;

use super::slurm;
use crate::args::{Emit, SweepArgs};

/// Writes the runs `runs` of a sharded sweep and says what the other shards and the merge are.
pub fn write(
    args: &SweepArgs,
    plan: &SweepPlan,
    shard: Shard,
    warmup_note: Option<String>,
    runs: &[usize],
    reports: &[Value],
    out: &mut dyn Write,
) -> Result<()> {
    let header = Header {
        packlab: Header::VERSION.to_string(),
        link: super::link_of(&plan.setup),
        trace_files: args.scenario.traces.iter().map(|p| p.display().to_string()).collect(),
        trace_tasks: args.scenario.trace_tasks,
        grid: Grid { axis: plan.axis.to_string(), values: plan.values.clone() },
        reps: plan.seeds.len() as u64,
        runs: plan.len(),
        shard: [shard.index, shard.count],
        warmup_note,
    };
    let path = write_file(&args.out, plan.setup.preset.id, &header, runs, reports)?;
    writeln!(out, "wrote {} ({} of the sweep's {} runs, shard {shard})", path.display(), runs.len(), plan.len())?;
    writeln!(out, "when all {} shards are done: packlab merge DIR... --out DIR", shard.count)?;
    Ok(())
}

/// The shard file of `shard` of sweep `id` in `dir`.
pub fn file_name(id: &str, shard: Shard) -> String {
    format!("{id}-shard-{}-of-{}.jsonl", shard.index, shard.count)
}

/// Writes a shard file: the header, then the runs `runs` (indices) with their reports.
fn write_file(dir: &Path, id: &str, header: &Header, runs: &[usize], reports: &[Value]) -> Result<PathBuf> {
    let shard = Shard { index: header.shard[0], count: header.shard[1] };
    let path = dir.join(file_name(id, shard));
    let context = || format!("writing {}", path.display());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).with_context(context)?);
    writeln!(out, "{}", serde_json::to_string(header)?).with_context(context)?;
    for (&run, report) in runs.iter().zip(reports) {
        let line = serde_json::to_string(&ShardRun { run, report: report.clone() })?;
        writeln!(out, "{line}").with_context(context)?;
    }
    out.flush().with_context(context)?;
    Ok(path)
}

/// The shard files among `paths`: files as given, and the `*-shard-*-of-*.jsonl` files in the
/// directories given.
fn shard_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).with_context(|| format!("reading {}", path.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.contains("-shard-") && n.ends_with(".jsonl"))
                })
                .collect();
            if found.is_empty() {
                bail!("{}: no shard files (*-shard-I-of-N.jsonl) in this directory", path.display());
            }
            found.sort();
            files.extend(found);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            bail!("{}: no such file or directory", path.display());
        }
    }
    Ok(files)
}

/// Reads the shard files among `paths`: they must be the N shards of one sweep, each once,
/// complete. Returns the sweep's header (of its first shard) and every run's report, in the
/// sweep's order.
pub fn read(paths: &[PathBuf]) -> Result<(Header, Vec<Value>)> {
    let mut files = Vec::new();
    for file in shard_files(paths)? {
        let name = file.display().to_string();
        let reader = BufReader::new(std::fs::File::open(&file).with_context(|| format!("reading {name}"))?);
        let mut lines = reader.lines().enumerate();
        let first = match lines.next() {
            Some((_, line)) => line.with_context(|| format!("reading {name}"))?,
            None => bail!("{name}: empty; a shard file starts with its sweep's header"),
        };
        let header: Header =
            serde_json::from_str(&first).map_err(|e| anyhow!("{name}: line 1 is not a packlab shard header: {e}"))?;
        let mut runs = Vec::new();
        for (i, line) in lines {
            let line = line.with_context(|| format!("reading {name}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let run: ShardRun = serde_json::from_str(&line).map_err(|e| anyhow!("{name}: line {}: {e}", i + 1))?;
            runs.push((i + 1, run));
        }
        files.push(ShardFile { name, header, runs });
    }
    merge(files).map_err(|e| anyhow!(e))
}

/// `--emit`: the script that runs the sweep in shards and merges them.
pub fn emit(args: &SweepArgs, plan: &SweepPlan, kind: Emit, out: &mut dyn Write) -> Result<()> {
    let opts = &args.emit;
    let count = opts.shards.context("--emit needs --shards N")?;
    // The script runs elsewhere, later: every path in it is absolute, resolved here and now.
    let absolute = |path: &Path, flag: &str| {
        std::path::absolute(path).with_context(|| format!("{flag} {}: cannot make the path absolute", path.display()))
    };
    let packlab = match &opts.packlab_bin {
        Some(path) => absolute(path, "--packlab-bin")?,
        None => std::env::current_exe().context("finding this packlab's own path; give it with --packlab-bin PATH")?,
    };
    let out_dir = absolute(&args.out, "--out")?;
    let mut sweep_args = vec!["--link".to_string(), super::link_of(&plan.setup)];
    if !args.scenario.traces.is_empty() {
        sweep_args.push("--trace".to_string());
        for trace in &args.scenario.traces {
            sweep_args.push(absolute(trace, "--trace")?.display().to_string());
        }
    }
    if let Some(n) = args.scenario.trace_tasks {
        sweep_args.extend(["--trace-tasks".to_string(), n.to_string()]);
    }
    let values: Vec<String> = plan.values.iter().map(f64::to_string).collect();
    let flag = if plan.axis == "servers" { "--servers" } else { "--load" };
    sweep_args.extend([flag.into(), values.join(",")]);
    sweep_args.extend(["--reps".into(), plan.seeds.len().to_string()]);
    let id = plan.setup.preset.id;
    let sbatch_opts: Vec<String> = [
        ("--slurm-time", "--time", &opts.slurm_time),
        ("--slurm-mem", "--mem", &opts.slurm_mem),
        ("--slurm-partition", "--partition", &opts.slurm_partition),
        ("--slurm-account", "--account", &opts.slurm_account),
    ]
    .into_iter()
    .filter_map(|(flag, option, value)| value.as_ref().map(|v| (flag, format!("{option}={v}"))))
    .map(|(flag, option)| match kind {
        Emit::Slurm => Ok(option),
        Emit::Parallel => Err(anyhow!("{flag}: only for --emit slurm (GNU parallel has no sbatch)")),
    })
    .collect::<Result<_>>()?;
    let text = match kind {
        Emit::Slurm => slurm::Script {
            id,
            shards: count,
            packlab: &packlab,
            out: &out_dir,
            sweep_args: &sweep_args,
            sbatch_opts: &sbatch_opts,
            max_running: opts.max_running,
        }
        .text(),
        Emit::Parallel => parallel(id, &packlab, &sweep_args, count, &out_dir, opts.max_running),
    };
    write!(out, "{text}")?;
    Ok(())
}

/// Quotes `text` for a POSIX shell.
pub fn quote(text: &str) -> String {
    packlab_core::link::shell_quote(text)
}

/// The GNU parallel command line running `count` shards of the sweep whose arguments (without
/// `--shard` and `--out`) are `sweep_args` with the binary `packlab`, then merging them into
/// `out`; at most `jobs` at once.
fn parallel(id: &str, packlab: &Path, sweep_args: &[String], count: u64, out: &Path, jobs: Option<u64>) -> String {
    let args: Vec<String> = sweep_args.iter().map(|a| quote(a)).collect();
    let args = args.join(" ");
    let bin = quote(&packlab.display().to_string());
    let out_dir = quote(&out.display().to_string());
    let shards = quote(&out.join("shards").display().to_string());
    let jobs = jobs.map(|k| format!("--jobs {k} ")).unwrap_or_default();
    format!(
        "# packlab sweep {id} in {count} shards with GNU parallel, then the merge (add --sshlogin HOST,... \
         and a shared OUT to spread the shards over hosts; the binary must then be at the same path there)\n\
         mkdir -p {shards} && parallel --quote --halt now,fail=1 {jobs}{bin} sweep {args} --shard {{}}/{count} \
         --out {shards} ::: $(seq 1 {count}) && {bin} merge {shards} --out {out_dir}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_a_shell() {
        assert_eq!(quote("pgrr-a1"), "pgrr-a1");
        assert_eq!(quote("http://x/?preset=a&seed=1"), "'http://x/?preset=a&seed=1'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
