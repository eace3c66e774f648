//! A sweep split across machines: shard `I/N` makes the runs whose index is I − 1 modulo N,
//! and the N shard files merge into exactly the runs of the whole sweep, in its order.
//!
//! A shard file (the CLI writes and reads it) is a first line describing the sweep
//! ([`Header`]), then one line per run with its index and its `run --json` report
//! ([`ShardRun`]). [`merge`] checks that the files are the N shards of one sweep, each once,
//! complete, and puts their runs in order: the same reports, so the same CSV and SVG, byte for
//! byte, as one machine makes (serde_json prints and reads floats exactly).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

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
    /// The indices of the runs this shard makes, of `total`: round robin, so every shard gets
    /// a share of every policy and grid value.
    pub fn runs(&self, total: usize) -> Vec<usize> {
        ((self.index - 1) as usize..total).step_by(self.count as usize).collect()
    }
}

/// The grid of a sweep: the scenario key along its axis and its values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    pub axis: String,
    pub values: Vec<f64>,
}

/// What a shard file says about its sweep: enough to rebuild the sweep and to check that the
/// files belong together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// packlab's version: shards of different versions may differ.
    pub packlab: String,
    /// The scenario and policies, as a link (`sweep --link` reads it back).
    pub link: String,
    /// The trace files the scenario replays (a link names a trace but cannot carry it), read
    /// again by `merge`, and how many of its tasks were kept.
    #[serde(default)]
    pub trace_files: Vec<String>,
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
    /// This packlab's version, for [`Header::packlab`].
    pub const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    /// The same sweep, whatever the shard.
    fn sweep(&self) -> (&str, &str, &[String], Option<u64>, &Grid, u64, usize, u64) {
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShardRun {
    pub run: usize,
    pub report: Value,
}

/// One shard file as read: its name (for messages), header and runs with their line numbers.
#[derive(Debug, Clone)]
pub struct ShardFile {
    pub name: String,
    pub header: Header,
    pub runs: Vec<(usize, ShardRun)>,
}

/// Merges the shard files of one sweep: they must be its N shards, each once, complete.
/// Returns the sweep's header (of its first shard) and every run's report, in the sweep's
/// order; or what is wrong, naming the file and line.
pub fn merge(files: Vec<ShardFile>) -> Result<(Header, Vec<Value>), String> {
    let mut first: Option<(Header, String)> = None;
    let mut shards: BTreeMap<u64, String> = BTreeMap::new();
    let mut reports: Vec<Option<Value>> = Vec::new();
    for file in files {
        let name = file.name;
        let [index, count] = file.header.shard;
        match &first {
            None => {
                reports = vec![None; file.header.runs];
                first = Some((file.header.clone(), name.clone()));
            }
            Some((h, other)) if h.sweep() != file.header.sweep() => {
                return Err(format!(
                    "{name}: a shard of another sweep than {other} (its link, grid, replications, shard count or \
                     packlab version differ)"
                ));
            }
            Some(_) => {}
        }
        if index == 0 || index > count {
            return Err(format!("{name}: shard {index}/{count} is not a shard I/N with 1 <= I <= N"));
        }
        if let Some(other) = shards.insert(index, name.clone()) {
            return Err(format!("{name}: shard {index}/{count} is given twice (also {other})"));
        }
        let expected = Shard { index, count }.runs(reports.len());
        let mut seen = 0;
        for (line, run) in file.runs {
            if !expected.contains(&run.run) {
                return Err(format!("{name}: line {line}: run {} does not belong to shard {index}/{count}", run.run));
            }
            if reports[run.run].replace(run.report).is_some() {
                return Err(format!("{name}: line {line}: run {} appears twice", run.run));
            }
            seen += 1;
        }
        if seen != expected.len() {
            return Err(format!("{name}: {seen} of the shard's {} runs; was it cut short?", expected.len()));
        }
    }
    let (header, _) = first.ok_or("no shard files given")?;
    let count = header.shard[1];
    let missing: Vec<String> =
        (1..=count).filter(|i| !shards.contains_key(i)).map(|i| format!("{i}/{count}")).collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(String::as_str).collect();
        return Err(format!(
            "{} of {count} shards missing: {}{}",
            missing.len(),
            shown.join(", "),
            if missing.len() > shown.len() { ", …" } else { "" }
        ));
    }
    let reports = reports.into_iter().collect::<Option<Vec<Value>>>().ok_or("internal: a run is missing")?;
    Ok((header, reports))
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
    fn a_merge_wants_every_shard_once_and_whole() {
        let header = |i: u64| Header {
            packlab: Header::VERSION.into(),
            link: "?preset=pgrr-a1".into(),
            trace_files: Vec::new(),
            trace_tasks: None,
            grid: Grid { axis: "load".into(), values: vec![0.5] },
            reps: 1,
            runs: 3,
            shard: [i, 2],
            warmup_note: None,
        };
        let file = |i: u64, runs: &[usize]| ShardFile {
            name: format!("s{i}"),
            header: header(i),
            runs: runs.iter().map(|&r| (r + 2, ShardRun { run: r, report: Value::from(r) })).collect(),
        };
        let (_, reports) = merge(vec![file(2, &[1]), file(1, &[0, 2])]).unwrap();
        assert_eq!(reports, [Value::from(0), Value::from(1), Value::from(2)]);
        assert!(merge(vec![file(1, &[0, 2])]).unwrap_err().contains("1 of 2 shards missing: 2/2"));
        assert!(merge(vec![file(1, &[0])]).unwrap_err().contains("cut short"));
        assert!(merge(vec![file(1, &[0, 2]), file(1, &[0, 2])]).unwrap_err().contains("given twice"));
        assert!(merge(vec![file(1, &[1])]).unwrap_err().contains("does not belong"));
        let mut other = file(2, &[1]);
        other.header.reps = 2;
        assert!(merge(vec![file(1, &[0, 2]), other]).unwrap_err().contains("another sweep"));
    }
}
