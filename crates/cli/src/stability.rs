//! `packlab stability`: where each policy stops being stable, as a bracket of the load per
//! value of a second scenario key, with the theory's capacity and proven loads: a CSV and an
//! SVG. The finder, its test and its rounds are the core's ([`packlab_core::stability`]); this
//! module runs the rounds (in parallel, or one shard of a round) and writes the files.
//!
//! Rounds are journalled in `DIR/PRESET-stability.jsonl` (a header, then each finished
//! round's growths), so a map resumes where it stopped and its shards agree on the round.
//! `--shard I/N` makes shard I's share of the first unfinished round and writes it to
//! `DIR/PRESET-stability-round-R-shard-I-of-N.jsonl`; `--merge` folds the finished rounds'
//! shard files into the journal and, when no round is left, writes the map. The sweep's shard
//! format and merge check the files ([`packlab_core::sweep::shard`]).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::stability::{
    COLUMNS, COVERAGE_RULE, Finder, Growth, Options, Probe, Round, TEST_RULE, below_proven, csv_rows, graph, not_proven,
};
use packlab_core::sweep::shard::{Grid, Header, Shard, ShardFile, ShardRun, merge};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::args::StabilityArgs;
use crate::output::{Table, create_dir, print_table, progress, write_svg};
use crate::setup::resolve;

/// The journal's first line: what map it is, so a resumed or sharded map is the same one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Journal {
    packlab: String,
    /// The test the verdicts came from ([`VERDICT_TEST`]): a journal of another test's rounds
    /// would resume a different search.
    #[serde(default)]
    test: String,
    link: String,
    axis: Option<String>,
    /// The axis values; `None` for the scenario alone (NaN, which JSON cannot hold).
    values: Vec<Option<f64>>,
    options: JournalOptions,
}

/// The test of this version's journals: looks within one error budget, undecided loads
/// bounding nothing.
const VERDICT_TEST: &str = "growth test, 5% per load over its looks";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct JournalOptions {
    reps: u64,
    tolerance: f64,
    max_runs: usize,
    max_doublings: u32,
}

/// A finished round in the journal.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RoundLine {
    round: usize,
    growths: Vec<Growth>,
}

pub fn command(args: &StabilityArgs, out: &mut dyn Write) -> Result<()> {
    let resolved = resolve(&args.scenario)?;
    let setup = &resolved.setup;
    if resolved.explicit.iter().any(|k| k == "load") {
        bail!("--set load: the stability map moves the load itself");
    }
    let axis = match &args.axis {
        None => None,
        Some(text) => Some(text.split_once('=').ok_or_else(|| {
            anyhow!("--axis '{text}': expected KEY=V1,V2,..., e.g. servers=1,2,4 (keys: packlab presets --describe ID)")
        })?),
    };
    let options = Options {
        reps: args.reps,
        tolerance: args.tolerance,
        max_runs: usize::try_from(args.max_runs).unwrap_or(usize::MAX),
        max_doublings: args.max_doublings,
    };
    let mut finder = Finder::new(setup, axis.map(|(k, v)| (k.trim(), v.trim())), options).map_err(|e| {
        let flag = match e.key.as_str() {
            "reps" => "--reps".to_string(),
            "tolerance" => "--tolerance".to_string(),
            "stability" => "--preset".to_string(),
            key => format!("--axis: {key}"),
        };
        anyhow!("{flag}: {}", e.message)
    })?;
    create_dir(&args.out)?;
    let id = setup.preset.id;
    let journal = Journal {
        packlab: Header::VERSION.to_string(),
        test: VERDICT_TEST.to_string(),
        link: link_of(&finder),
        axis: finder.axis.map(str::to_string),
        values: finder.values.iter().map(|v| v.is_finite().then_some(*v)).collect(),
        options: JournalOptions {
            reps: options.reps,
            tolerance: options.tolerance,
            max_runs: options.max_runs,
            max_doublings: options.max_doublings,
        },
    };
    let journal_path = args.out.join(format!("{id}-stability.jsonl"));
    replay(&journal_path, &journal, &mut finder)?;
    // Shards only read the journal (several write at once); the rest fold finished rounds in.
    let keep = args.shard.is_none();
    let replaying = setup.scenario.any().replaying();
    let mut copies = Copies::default();
    while let Some(round) = finder.next_round()? {
        let runs = match read_shards(&args.out, id, &journal, &round)? {
            Some(runs) => runs,
            None if args.merge => {
                writeln!(out, "round {} is not finished: run its shards (--shard I/N), then --merge", round.index)?;
                return Ok(());
            }
            None => match args.shard {
                Some(shard) => return write_shard(&args.out, id, &journal, &round, shard, out),
                None if replaying => run_replay(&round, id, &mut copies)?,
                None => run(&round, &(0..round.len()).collect::<Vec<_>>(), id)?,
            },
        };
        if keep {
            append(&journal_path, &journal, &RoundLine { round: round.index, growths: runs.clone() })?;
        }
        finder.absorb(&round, &runs);
    }
    if args.shard.is_some() {
        writeln!(out, "the map is complete; write it with --merge (or without --shard)")?;
        return Ok(());
    }
    if replaying {
        writeln!(out, "{}", copies.say(options.reps))?;
    }
    finish(&finder, &args.out, out)
}

/// What [`run_replay`] found, over every round: each tested run's first two replications
/// (a load at a horizon, for one policy), and how many runs were made or copied. A probe's
/// replications can come in several rounds (its first look, then more), so its first two are
/// remembered from round to round.
#[derive(Debug, Default)]
struct Copies {
    firsts: std::collections::HashMap<(usize, u64, u32), [Option<Growth>; 2]>,
    made: usize,
    copied: usize,
}

/// A probe's run as [`Copies`] remembers it: its cell (policy and axis value), load and horizon.
fn probe_key(probe: &Probe) -> (usize, u64, u32) {
    (probe.cell, probe.load.to_bits(), probe.doublings)
}

impl Copies {
    /// The note a map of a log prints: how many loads replayed identically and what that means
    /// for the test, whose interval is over the replications.
    fn say(&self, reps: u64) -> String {
        let loads = self.firsts.len();
        let identical = self.firsts.values().filter(|pair| self.identical(pair).is_some()).count();
        if loads == 0 {
            return "(a log replays the same every time: this run made no new runs; the journal's are as they were)"
                .into();
        }
        if identical == 0 {
            return format!(
                "(a log replays the same arrivals every time, but at every load tested ({}) the policy's own random \
                 choices made its first two replications differ: all {} runs were made, none copied, and the test \
                 judges them as {reps} runs)",
                loads, self.made
            );
        }
        let same = if identical == loads {
            format!("at every load tested ({})", loads)
        } else {
            format!("at {} of the {} loads tested", identical, loads)
        };
        let copied = if self.copied == 0 {
            format!("with {reps} replications there was none left to copy ({} runs made)", self.made)
        } else {
            format!("made twice and copied ({} runs made, {} copied)", self.made, self.copied)
        };
        format!(
            "(a log replays the same every time: {same} its first two replications came out identical, so its \
             replications are one run, {copied}; the test judges identical replications as the one run they are, \
             on its own batches' interval, not as {reps} runs)"
        )
    }

    /// The run a probe's replications all are, where its first two came out identical.
    fn identical(&self, pair: &[Option<Growth>; 2]) -> Option<Growth> {
        match pair {
            [Some(a), Some(b)] if same_run(a, b) => Some(*a),
            _ => None,
        }
    }
}

/// Whether two runs' growths are the same run's: every figure equal to the bit.
fn same_run(a: &Growth, b: &Growth) -> bool {
    let bits = |g: &Growth| [g.first.to_bits(), g.second.to_bits(), g.se.to_bits(), g.level.to_bits(), u64::from(g.df)];
    bits(a) == bits(b)
}

/// Makes the runs of `round` of a map of a replayed log. A log fixes the arrivals, so the
/// replications of a load differ only in the policy's own random choices (ties, sampling), and
/// most policies make none: the first two replications of each load are made, and where they
/// come out identical the rest are the same run, copied rather than made again (in this round
/// or a later one); elsewhere the rest are made. The growths are those making every run would
/// give.
fn run_replay(round: &Round, id: &str, copies: &mut Copies) -> Result<Vec<Growth>> {
    // Each run's probe and its replication among all the probe's (not only this round's).
    let tasks: Vec<(usize, usize)> = (0..round.len())
        .map(|i| {
            let (probe, k) = round.task(i);
            (probe, round.probes[probe].reps.0 + k)
        })
        .collect();
    let key = |i: usize| probe_key(&round.probes[tasks[i].0]);
    let mut growths: Vec<Option<Growth>> = vec![None; round.len()];
    let first: Vec<usize> = (0..round.len()).filter(|&i| tasks[i].1 < 2).collect();
    for (&i, g) in first.iter().zip(run(round, &first, id)?) {
        growths[i] = Some(g);
        copies.firsts.entry(key(i)).or_default()[tasks[i].1] = Some(g);
    }
    copies.made += first.len();
    let copy = |i: usize| copies.firsts.get(&key(i)).and_then(|pair| copies.identical(pair));
    let rest: Vec<usize> = (0..round.len()).filter(|&i| tasks[i].1 >= 2 && copy(i).is_none()).collect();
    for i in 0..round.len() {
        if tasks[i].1 >= 2 && growths[i].is_none() {
            growths[i] = copy(i);
        }
    }
    let copied = (0..round.len()).filter(|&i| tasks[i].1 >= 2 && growths[i].is_some()).count();
    for (&i, g) in rest.iter().zip(run(round, &rest, id)?) {
        growths[i] = Some(g);
    }
    copies.copied += copied;
    copies.made += rest.len();
    growths.into_iter().map(|g| g.ok_or_else(|| anyhow!("internal: a run of round {} not made", round.index))).collect()
}

/// The map's scenario and policies as a link.
fn link_of(finder: &Finder) -> String {
    let s = &finder.setup;
    format!("?{}", packlab_core::link::encode_link(&s.preset, &s.policies, &s.scenario, &Default::default()))
}

/// Makes the runs `mine` of `round` in parallel; their growths, in order.
fn run(round: &Round, mine: &[usize], id: &str) -> Result<Vec<Growth>> {
    let bar = progress(mine.len() as u64, &format!("{id} round {}", round.index));
    let growths = mine
        .par_iter()
        .map(|&i| {
            let (probe, rep) = round.task(i);
            let growth = round.run(i).with_context(|| {
                let p = round.probes[probe];
                format!("round {} at load {} (replication {rep})", round.index, p.load)
            })?;
            bar.inc(1);
            Ok(growth)
        })
        .collect::<Result<Vec<_>>>();
    bar.finish_and_clear();
    growths
}

/// Replays the journal's rounds into `finder`, or starts the journal.
fn replay(path: &Path, journal: &Journal, finder: &mut Finder) -> Result<()> {
    let name = path.display().to_string();
    if !path.exists() {
        let text = format!("{}\n", serde_json::to_string(journal)?);
        return std::fs::write(path, text).with_context(|| format!("writing {name}"));
    }
    let reader = BufReader::new(std::fs::File::open(path).with_context(|| format!("reading {name}"))?);
    let mut lines = reader.lines().enumerate();
    let first = lines.next().map(|(_, l)| l).transpose()?.unwrap_or_default();
    let theirs: Journal =
        serde_json::from_str(&first).map_err(|e| anyhow!("{name}: line 1 is not a map's header: {e}"))?;
    if &theirs != journal {
        bail!(
            "--out: {name} is the journal of another map (its link, axis, options, test or version differ); give another --out or remove it"
        );
    }
    for (i, line) in lines {
        let line = line.with_context(|| format!("reading {name}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let done: RoundLine = serde_json::from_str(&line).map_err(|e| anyhow!("{name}: line {}: {e}", i + 1))?;
        let round = finder.next_round()?.ok_or_else(|| anyhow!("{name}: line {}: a round after the last", i + 1))?;
        if done.round != round.index || done.growths.len() != round.len() {
            bail!(
                "{name}: line {}: round {} with {} runs; the map's round {} has {}",
                i + 1,
                done.round,
                done.growths.len(),
                round.index,
                round.len()
            );
        }
        finder.absorb(&round, &done.growths);
    }
    Ok(())
}

/// Appends a finished round to the journal.
fn append(path: &Path, _: &Journal, line: &RoundLine) -> Result<()> {
    let mut file =
        std::fs::OpenOptions::new().append(true).open(path).with_context(|| format!("writing {}", path.display()))?;
    writeln!(file, "{}", serde_json::to_string(line)?).with_context(|| format!("writing {}", path.display()))
}

/// The shard header of `round`: the sweep's, its grid naming the round.
fn header(journal: &Journal, round: &Round, shard: Shard) -> Header {
    Header {
        packlab: journal.packlab.clone(),
        link: journal.link.clone(),
        trace_files: Vec::new(),
        trace_tasks: None,
        grid: Grid {
            axis: format!("stability round {}", round.index),
            values: round.probes.iter().map(|p| p.load).collect(),
        },
        reps: journal.options.reps,
        runs: round.len(),
        shard: [shard.index, shard.count],
        warmup_note: None,
    }
}

fn shard_prefix(id: &str, round: usize) -> String {
    format!("{id}-stability-round-{round}-shard-")
}

/// Makes this shard's share of `round` and writes it.
fn write_shard(
    dir: &Path,
    id: &str,
    journal: &Journal,
    round: &Round,
    shard: Shard,
    out: &mut dyn Write,
) -> Result<()> {
    let mine = shard.runs(round.len());
    let growths = run(round, &mine, id)?;
    let path = dir.join(format!("{}{}-of-{}.jsonl", shard_prefix(id, round.index), shard.index, shard.count));
    let mut text = serde_json::to_string(&header(journal, round, shard))? + "\n";
    for (&run, growth) in mine.iter().zip(&growths) {
        text += &serde_json::to_string(&ShardRun { run, report: serde_json::to_value(growth)? })?;
        text.push('\n');
    }
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    writeln!(
        out,
        "wrote {} ({} of round {}'s {} runs, shard {shard})",
        path.display(),
        mine.len(),
        round.index,
        round.len()
    )?;
    writeln!(out, "when all {} shards are done: the same command with --merge, then the shards again", shard.count)?;
    Ok(())
}

/// The growths of `round` from its shard files in `dir`, once all of them are there (`None`
/// while none or only some are).
fn read_shards(dir: &Path, id: &str, journal: &Journal, round: &Round) -> Result<Option<Vec<Growth>>> {
    let prefix = shard_prefix(id, round.index);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".jsonl"))
        })
        .collect();
    paths.sort();
    let mut files = Vec::new();
    let mut count = None;
    for path in &paths {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {name}"))?;
        let mut lines = text.lines().enumerate();
        let first = lines.next().map(|(_, l)| l).unwrap_or_default();
        let header: Header = serde_json::from_str(first).map_err(|e| anyhow!("{name}: line 1: {e}"))?;
        if header != self::header(journal, round, Shard { index: header.shard[0], count: header.shard[1] }) {
            bail!("{name}: a shard of another map or round; remove it");
        }
        count = Some(header.shard[1]);
        let runs = lines
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                serde_json::from_str::<ShardRun>(l)
                    .map(|r| (i + 1, r))
                    .map_err(|e| anyhow!("{name}: line {}: {e}", i + 1))
            })
            .collect::<Result<Vec<_>>>()?;
        files.push(ShardFile { name, header, runs });
    }
    if count.is_none_or(|n| (files.len() as u64) < n) {
        return Ok(None);
    }
    let (_, reports) = merge(files).map_err(|e| anyhow!(e))?;
    let growths = reports.into_iter().map(serde_json::from_value).collect::<Result<Vec<Growth>, _>>()?;
    Ok(Some(growths))
}

/// Writes the CSV and the SVG and prints the table.
fn finish(finder: &Finder, dir: &Path, out: &mut dyn Write) -> Result<()> {
    let id = finder.setup.preset.id;
    let (csv_path, svg_path) = (dir.join(format!("{id}-stability.csv")), dir.join(format!("{id}-stability.svg")));
    let rows = csv_rows(finder);
    let context = || format!("writing {}", csv_path.display());
    let mut w = csv::Writer::from_path(&csv_path).with_context(context)?;
    w.write_record(COLUMNS).with_context(context)?;
    for row in &rows {
        w.write_record(row).with_context(context)?;
    }
    w.flush().with_context(context)?;
    write_svg(&svg_path, &packlab_plot::GraphChart::new(&graph(finder)).chart())?;
    let shown: Vec<usize> = [
        "policy",
        "value",
        "lo",
        "hi",
        "boundary_lo",
        "boundary_hi",
        "undecided_lo",
        "undecided_hi",
        "status",
        "runs",
        "capacity",
        "proven",
        "not_proven",
    ]
    .iter()
    .filter_map(|name| COLUMNS.iter().position(|c| c == name))
    .collect();
    let header: Vec<&str> = shown.iter().map(|&i| COLUMNS[i]).collect();
    let mut table = Table::new(&header).left(8);
    for row in &rows {
        table.row(shown.iter().map(|&i| row[i].clone()).collect());
    }
    table.notes.push(format!("test: {TEST_RULE}"));
    table.notes.push(format!("boundary: {COVERAGE_RULE}"));
    table.notes.push("growth: the queue's growth over the runs' second halves, a fraction of the arrivals".into());
    print_table(&table, out)?;
    for warning in below_proven(finder) {
        writeln!(out, "below a proven boundary: {warning}")?;
    }
    for note in not_proven(finder) {
        writeln!(out, "not proven here: {note}")?;
    }
    writeln!(out)?;
    writeln!(out, "{} rounds, {} runs", finder.rounds, finder.runs)?;
    writeln!(out, "wrote {}", csv_path.display())?;
    writeln!(out, "wrote {}", svg_path.display())?;
    Ok(())
}
