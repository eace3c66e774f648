//! Sweeps split across machines.
//!
//! `sweep … --shard I/N` runs the runs of the grid whose index is I − 1 modulo N (a
//! deterministic slice; round robin, so every shard gets a share of every load and policy)
//! and writes them to `<preset>-shard-I-of-N.jsonl` in `--out`: a first line describing the
//! sweep ([`Header`]), then one line per run with its index and its `run --json` report.
//! `merge DIR…` reads the N files of one sweep and writes exactly what the sweep writes on one
//! machine: the same CSV and SVG, byte for byte, because both are made from the same JSON
//! reports by the same code (serde_json prints and reads floats exactly). `sweep … --emit
//! slurm|parallel --shards N` prints the script that runs the N shards and then the merge.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most shards a sweep is split into.
pub const MAX_SHARDS: u64 = 100_000;

/// Shard `index` of `count` (1-based), as `--shard I/N` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let wrong = || format!("must be I/N with 1 <= I <= N <= {MAX_SHARDS}, e.g. 2/8 (got '{text}')");
        let (i, n) = text.trim().split_once('/').ok_or_else(wrong)?;
        let (index, count) =
            (i.trim().parse::<u64>().map_err(|_| wrong())?, n.trim().parse::<u64>().map_err(|_| wrong())?);
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(wrong());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The indices of the runs this shard makes, of `total`.
    pub fn runs(&self, total: usize) -> Vec<usize> {
        ((self.index - 1) as usize..total).step_by(self.count as usize).collect()
    }
}

/// The grid a sweep runs over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "against", rename_all = "snake_case")]
pub enum Grid {
    Load { loads: Vec<f64> },
    Servers { servers: Vec<u32> },
}

/// What a shard file says about its sweep: enough for `merge` to rebuild the sweep and to
/// check that the files belong together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// packlab's version: shards of different versions may differ.
    pub packlab: String,
    /// The scenario and policies, as a link (`sweep --link` reads it back).
    pub link: String,
    /// The trace files the scenario replays (a link names a trace but cannot carry it), read
    /// again by `merge`, and how many of its tasks were kept.
    #[serde(default)]
    pub trace_files: Vec<PathBuf>,
    #[serde(default)]
    pub trace_tasks: Option<u64>,
    pub grid: Grid,
    pub reps: u64,
    /// Runs in the whole sweep.
    pub runs: usize,
    /// `[I, N]`.
    pub shard: [u64; 2],
    /// The note the sweep prints about its warm-up, if any.
    #[serde(default)]
    pub warmup_note: Option<String>,
}

impl Header {
    /// The same sweep, whatever the shard.
    fn sweep(&self) -> (&str, &str, &[PathBuf], Option<u64>, &Grid, u64, usize, u64) {
        (
            &self.packlab,
            &self.link,
            &self.trace_files,
            self.trace_tasks,
            &self.grid,
            self.reps,
            self.runs,
            self.shard[1],
        )
    }
}

/// One run in a shard file.
#[derive(Debug, Serialize, Deserialize)]
struct Run {
    run: usize,
    report: Value,
}

/// The shard file of `shard` of sweep `id` in `dir`.
pub fn file_name(id: &str, shard: Shard) -> String {
    format!("{id}-shard-{}-of-{}.jsonl", shard.index, shard.count)
}

/// Writes a shard file: the header, then the runs `runs` (indices) with their reports.
pub fn write(dir: &Path, id: &str, header: &Header, runs: &[usize], reports: &[Value]) -> Result<PathBuf> {
    let shard = Shard { index: header.shard[0], count: header.shard[1] };
    let path = dir.join(file_name(id, shard));
    let context = || format!("writing {}", path.display());
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).with_context(context)?);
    writeln!(out, "{}", serde_json::to_string(header)?).with_context(context)?;
    for (&run, report) in runs.iter().zip(reports) {
        let line = serde_json::to_string(&Run { run, report: report.clone() })?;
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
    let files = shard_files(paths)?;
    let mut header: Option<Header> = None;
    let mut shards: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let mut reports: Vec<Option<Value>> = Vec::new();
    for file in &files {
        let name = file.display();
        let reader = BufReader::new(std::fs::File::open(file).with_context(|| format!("reading {name}"))?);
        let mut lines = reader.lines().enumerate();
        let first = match lines.next() {
            Some((_, line)) => line.with_context(|| format!("reading {name}"))?,
            None => bail!("{name}: empty; a shard file starts with its sweep's header"),
        };
        let this: Header =
            serde_json::from_str(&first).map_err(|e| anyhow!("{name}: line 1 is not a packlab shard header: {e}"))?;
        let [index, count] = this.shard;
        match &header {
            None => {
                reports = vec![None; this.runs];
                header = Some(this.clone());
            }
            Some(h) if h.sweep() != this.sweep() => bail!(
                "{name}: a shard of another sweep than {} (its link, grid, replications, shard count or packlab \
                 version differ)",
                shards.values().next().map_or(String::new(), |p| p.display().to_string())
            ),
            Some(_) => {}
        }
        if index == 0 || index > count {
            bail!("{name}: shard {index}/{count} is not a shard I/N with 1 <= I <= N");
        }
        if let Some(other) = shards.insert(index, file.clone()) {
            bail!("{name}: shard {index}/{count} is given twice (also {})", other.display());
        }
        let expected = Shard { index, count }.runs(reports.len());
        let mut seen = 0;
        for (i, line) in lines {
            let line = line.with_context(|| format!("reading {name}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let run: Run = serde_json::from_str(&line).map_err(|e| anyhow!("{name}: line {}: {e}", i + 1))?;
            if !expected.contains(&run.run) {
                bail!("{name}: line {}: run {} does not belong to shard {index}/{count}", i + 1, run.run);
            }
            if reports[run.run].replace(run.report).is_some() {
                bail!("{name}: line {}: run {} appears twice", i + 1, run.run);
            }
            seen += 1;
        }
        if seen != expected.len() {
            bail!("{name}: {seen} of the shard's {} runs; was it cut short?", expected.len());
        }
    }
    let header = header.ok_or_else(|| anyhow!("no shard files given"))?;
    let count = header.shard[1];
    let missing: Vec<String> =
        (1..=count).filter(|i| !shards.contains_key(i)).map(|i| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
        bail!(
            "{} of {count} shards missing: {}{}",
            missing.len(),
            shown.join(", "),
            if missing.len() > shown.len() { ", …" } else { "" }
        );
    }
    let reports =
        reports.into_iter().collect::<Option<Vec<Value>>>().ok_or_else(|| anyhow!("internal: a run is missing"))?;
    Ok((header, reports))
}

/// How `--emit` runs the shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// A bash script that submits a Slurm job array (one shard per task) and a merge job that
    /// waits for it.
    Slurm,
    /// A GNU parallel command line (add `--sshlogin` to spread it over hosts).
    Parallel,
}

/// Quotes `text` for a POSIX shell.
pub fn quote(text: &str) -> String {
    packlab_core::scenario::shell_quote(text)
}

/// The script or command line running `count` shards of the sweep whose arguments (without
/// `--shard` and `--out`) are `sweep_args`, then merging them into `out`.
pub fn emit(kind: Emit, id: &str, sweep_args: &[String], count: u64, out: &Path) -> String {
    let args: Vec<String> = sweep_args.iter().map(|a| quote(a)).collect();
    let args = args.join(" ");
    let out_dir = quote(&out.display().to_string());
    match kind {
        Emit::Slurm => format!(
            r#"#!/usr/bin/env bash
# packlab sweep {id} in {count} shards on Slurm: run this script with bash (not sbatch). It
# submits a job array of {count} tasks, one shard each, then a merge job that starts when every
# task has succeeded. Set PACKLAB to the packlab binary if it is not on the PATH of the nodes;
# the output directory must be on a file system the nodes share.
set -euo pipefail
PACKLAB=${{PACKLAB:-packlab}}
OUT={out_dir}
mkdir -p "$OUT/shards" "$OUT/logs"
array=$(sbatch --parsable --job-name=packlab-{id} --array=1-{count} --output="$OUT/logs/shard-%a.log" \
  --export=ALL,PACKLAB="$PACKLAB",OUT="$OUT" <<'SHARD'
#!/usr/bin/env bash
#SBATCH --ntasks=1
set -euo pipefail
"$PACKLAB" sweep {args} --shard "$SLURM_ARRAY_TASK_ID/{count}" --out "$OUT/shards"
SHARD
)
sbatch --parsable --job-name=packlab-{id}-merge --dependency=afterok:"$array" --output="$OUT/logs/merge.log" \
  --export=ALL,PACKLAB="$PACKLAB",OUT="$OUT" <<'MERGE'
#!/usr/bin/env bash
#SBATCH --ntasks=1
set -euo pipefail
"$PACKLAB" merge "$OUT/shards" --out "$OUT"
MERGE
echo "submitted job array $array ({count} shards) and its merge; results in $OUT"
"#
        ),
        Emit::Parallel => format!(
            "# packlab sweep {id} in {count} shards with GNU parallel, then the merge (add --sshlogin HOST,... \
             and a shared OUT to spread the shards over hosts)\n\
             mkdir -p {out_dir}/shards && parallel --quote --halt now,fail=1 packlab sweep {args} --shard {{}}/{count} \
             --out {out_dir}/shards ::: $(seq 1 {count}) && packlab merge {out_dir}/shards --out {out_dir}\n"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_slice_the_runs() {
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { index: 2, count: 8 });
        assert_eq!(" 1 / 1 ".parse::<Shard>().unwrap(), Shard { index: 1, count: 1 });
        for bad in ["0/3", "4/3", "x/3", "3", "1/0", "1/100001", "-1/3", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("1 <= I <= N <= 100000"), "{bad}: {e}");
        }
        let all: Vec<usize> = (1..=3).flat_map(|i| Shard { index: i, count: 3 }.runs(10)).collect();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "the shards cover every run once");
        assert_eq!(Shard { index: 2, count: 3 }.runs(10), [1, 4, 7]);
        assert!(Shard { index: 5, count: 8 }.runs(3).is_empty());
    }

    #[test]
    fn quoting_survives_a_shell() {
        assert_eq!(quote("pgrr-a1"), "pgrr-a1");
        assert_eq!(quote("http://x/?preset=a&seed=1"), "'http://x/?preset=a&seed=1'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
