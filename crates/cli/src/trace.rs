//! `packlab trace stats` and `packlab trace synth`, and the reading of `--trace FILE...` for
//! `run` and `sweep`.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use packlab_core::trace::stats::{TraceStats, classes_csv, stats};
use packlab_core::trace::swf::too_wide;
use packlab_core::trace::synth::{GoogleSynth, SwfSynth};
use packlab_core::trace::{Format, Loaded, OUT_OF_ORDER, Reader, Shared};

use crate::args::{TraceCommand, TraceFormat, TraceStatsArgs, TraceSynthArgs};

pub fn command(command: &TraceCommand, out: &mut dyn Write) -> Result<()> {
    match command {
        TraceCommand::Stats(a) => stats_command(a, out),
        TraceCommand::Synth(a) => synth_command(a, out),
    }
}

/// Chunks read at a time.
const CHUNK: usize = 1 << 20;

/// Reads trace files in order: the part files of one Google trace, one SWF log, or one task
/// CSV, and keeps the trace in the core's library so that a link's `trace=FINGERPRINT` finds
/// it. Shows a progress bar on a terminal.
pub fn read(paths: &[PathBuf], first: Option<u64>) -> Result<Shared> {
    let flag = |p: &Path| format!("--trace {}", p.display());
    if let [path] = paths
        && is_task_csv(path)?
    {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read the file", flag(path)))?;
        let loaded = packlab_core::trace::read_task_csv(&text).map_err(|e| anyhow!("{}: {}", flag(path), e.message))?;
        return Ok(packlab_core::trace::keep(loaded));
    }
    let total: u64 = paths.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let bar = ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template("reading {msg} {bar:30} {bytes}/{total_bytes} ({eta})").expect("a valid template"),
    );
    let mut reader = Reader::new();
    if let Some(n) = first {
        reader = reader.first(n as usize);
    }
    let mut buffer = vec![0u8; CHUNK];
    for path in paths {
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        bar.set_message(name.clone());
        let mut file = File::open(path).with_context(|| format!("{}: cannot open the file", flag(path)))?;
        reader.file(&name).map_err(|e| anyhow!("{}: {}", flag(path), e.message))?;
        loop {
            let n = file.read(&mut buffer).with_context(|| format!("{}: cannot read the file", flag(path)))?;
            if n == 0 {
                break;
            }
            reader.push(&buffer[..n]).map_err(|e| anyhow!("{}: {}", flag(path), e.message))?;
            bar.inc(n as u64);
        }
    }
    bar.finish_and_clear();
    let files = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ");
    let loaded = reader.finish().map_err(|e| anyhow!("--trace {files}: {}", e.message))?;
    Ok(packlab_core::trace::keep(loaded))
}

/// Whether a file is a task CSV ([`packlab_core::trace::is_task_csv`] of its start).
fn is_task_csv(path: &Path) -> Result<bool> {
    let mut head = Vec::with_capacity(packlab_core::trace::HEAD_BYTES);
    let file = File::open(path).with_context(|| format!("--trace {}: cannot open the file", path.display()))?;
    file.take(packlab_core::trace::HEAD_BYTES as u64)
        .read_to_end(&mut head)
        .with_context(|| format!("--trace {}: cannot read the file", path.display()))?;
    Ok(packlab_core::trace::is_task_csv(&head))
}

fn stats_command(args: &TraceStatsArgs, out: &mut dyn Write) -> Result<()> {
    let shared = read(&args.files, args.first)?;
    let loaded = &*shared.0;
    if args.first.is_some() && !matches!(loaded, Loaded::Google(_)) {
        bail!("--first: applies to Google traces only; this is an SWF log");
    }
    if args.classes_out.is_some() && !matches!(loaded, Loaded::Swf(_)) {
        bail!("--classes-out: class tables are fitted to SWF logs; this is a Google trace");
    }
    // The machine an SWF log is fitted to is the cores of the run suggested below.
    if let (Loaded::Swf(_), Some(k)) = (loaded, args.servers)
        && k > u64::from(packlab_core::limits::MAX_CORES)
    {
        bail!("--servers: {} for an SWF log", too_wide(format_args!("'{k}'")));
    }
    let s = stats(loaded, args.servers);
    if let Some(path) = &args.classes_out {
        std::fs::write(path, classes_csv(&s.classes))
            .with_context(|| format!("--classes-out {}: cannot write the file", path.display()))?;
    }
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&s)?)?;
    } else {
        print_stats(&s, args.classes_out.as_deref(), out)?;
    }
    Ok(())
}

fn print_stats(s: &TraceStats, classes_out: Option<&Path>, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "format       {}", s.format)?;
    writeln!(out, "fingerprint  {}", s.fingerprint)?;
    writeln!(out, "lines        {}", s.lines)?;
    writeln!(out, "kept         {}", s.kept)?;
    for (reason, n) in &s.skipped {
        writeln!(out, "skipped      {n:>9}  {reason}")?;
    }
    if s.out_of_order > 0 {
        let (verb, what) = OUT_OF_ORDER;
        writeln!(out, "{verb:<12} {:>9}  {what}", s.out_of_order)?;
    }
    if s.time_unit == "s" {
        writeln!(out, "span         {:.1} s ({:.2} h)", s.span_seconds, s.span_seconds / 3600.0)?;
        writeln!(out, "arrivals     {:.4} per second", s.per_second)?;
        writeln!(out, "mean run     {:.2} s", s.mean_run_seconds)?;
    } else {
        writeln!(out, "span         {:.1} {}", s.span_seconds, s.time_unit)?;
        writeln!(out, "arrivals     {:.4} per time unit", s.per_second)?;
        writeln!(out, "mean run     {:.2} {}", s.mean_run_seconds, s.time_unit)?;
    }
    let google = s.format != Format::Swf.name();
    if google {
        let what = if s.time_unit == "s" {
            "max of normalised CPU and memory"
        } else {
            "the size column, rounded up to a power of 1/2"
        };
        writeln!(out, "mean size    {:.4} ({what})", s.mean_size)?;
    } else {
        writeln!(out, "mean need    {:.2} processors", s.mean_size)?;
    }
    writeln!(out, "{}", if google { "sizes:" } else { "processors:" })?;
    let most = s.histogram.iter().map(|b| b.count).max().unwrap_or(1).max(1);
    for bar in &s.histogram {
        let width = (bar.count * 40).div_ceil(most) as usize;
        writeln!(out, "  {:>14} {:>9}  {}", bar.label, bar.count, "#".repeat(width))?;
    }
    if !s.priorities.is_empty() {
        writeln!(out, "priorities:")?;
        for bar in &s.priorities {
            writeln!(out, "  {:>18} {:>9}", bar.label, bar.count)?;
        }
    }
    match (s.servers, s.offered_load) {
        (Some(l), Some(load)) if google => writeln!(out, "offered load {load:.4} on {l} servers of capacity 1")?,
        (Some(k), Some(load)) => writeln!(out, "offered load {load:.4} on {k} processors")?,
        _ if google => writeln!(out, "offered load: give --servers L")?,
        _ => {}
    }
    if let Some(lambda) = s.lambda_per_mean_run {
        writeln!(
            out,
            "classes      {} (need, share, mean size in mean run times); the log's λ = {lambda:.4} per mean run time",
            s.classes.len()
        )?;
        for c in s.classes.iter().take(12) {
            writeln!(out, "  {:>6} {:>8.4} {:>8.4}", c.need, c.probability, c.mean_size)?;
        }
        if s.classes.len() > 12 {
            writeln!(out, "  … {} more", s.classes.len() - 12)?;
        }
        match classes_out {
            Some(path) => writeln!(
                out,
                "wrote {}: run it with packlab run --preset msfq-d6 --classes-file {} --set cores={} --set load={}",
                path.display(),
                path.display(),
                s.servers.unwrap_or(1),
                packlab_core::format::significant(lambda, 6)
            )?,
            None => writeln!(out, "write the table with --classes-out FILE (for msfq-d6's --classes-file)")?,
        }
    }
    Ok(())
}

fn synth_command(args: &TraceSynthArgs, out: &mut dyn Write) -> Result<()> {
    let flag = format!("--out {}", args.out.display());
    let file = File::create(&args.out).with_context(|| format!("{flag}: cannot create the file"))?;
    let google_only = args.per_second.is_some();
    let swf_only = args.procs.is_some() || args.one_or_all.is_some();
    match args.format {
        TraceFormat::Google if swf_only => bail!("--procs, --one-or-all: these shape an SWF log (--format swf)"),
        TraceFormat::Swf if google_only => bail!("--per-second: this shapes a Google trace (--format google)"),
        _ => {}
    }
    let google = GoogleSynth { per_second: args.per_second.unwrap_or(60.0), ..GoogleSynth::new(args.tasks, args.seed) };
    let procs = args.procs.unwrap_or(128);
    let swf = match args.one_or_all {
        Some(large) => SwfSynth::one_or_all(args.tasks, args.seed, procs, large, args.load.unwrap_or(0.9)),
        None => SwfSynth { max_procs: procs, ..SwfSynth::new(args.tasks, args.seed) },
    };
    let write = |sink: &mut dyn Write| match args.format {
        TraceFormat::Google => google.write(sink),
        TraceFormat::Swf => swf.write(sink),
    };
    let written = if args.out.extension().is_some_and(|e| e == "gz") {
        let mut gzip = flate2::write::GzEncoder::new(BufWriter::new(file), flate2::Compression::default());
        write(&mut gzip).and_then(|()| gzip.finish()?.flush())
    } else {
        let mut plain = BufWriter::new(file);
        write(&mut plain).and_then(|()| plain.flush())
    };
    written.with_context(|| format!("{flag}: cannot write the file"))?;
    writeln!(
        out,
        "wrote {} ({} {}, seed {}, synthetic)",
        args.out.display(),
        args.tasks,
        match args.format {
            TraceFormat::Google => "tasks",
            TraceFormat::Swf => "jobs",
        },
        args.seed
    )?;
    Ok(())
}
