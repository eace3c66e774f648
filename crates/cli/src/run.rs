//! `packlab run`: one preset, several policies, optional replications, in parallel.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use packlab_core::metrics::{Recovery, SeriesPoint, Stretch};
use packlab_core::policy::PolicySpec;
use packlab_core::report::{RepsReport, RunOutcome, RunReport, recovery_table, run_at, stretch_table, summarise_reps};
use packlab_core::scenario::Setup;
use packlab_plot::Trajectory;
use rayon::prelude::*;
use serde::Serialize;

use crate::args::RunArgs;
use crate::output::{create_dir, print_table, progress, write_svg};
use crate::setup::{Resolved, replication_seeds, resolve, with};

pub fn command(args: &RunArgs, out: &mut dyn Write) -> Result<()> {
    let Resolved { setup, warmup_note, replay_notes, at, .. } = resolve(&args.scenario)?;
    // A link's `t=`: every run stops there, and the numbers are the page's at that moment.
    let at_note = at.map(|t| {
        format!(
            "at {} {} (the link's t): the numbers of that moment, as the page shows them paused there, not of the \
             whole run",
            setup.scenario.time_unit().prefix(),
            packlab_core::format::moment(t)
        )
    });
    // With --json, stdout carries only the JSON lines: the notes go to stderr.
    if args.json {
        for note in replay_notes.iter().chain(&at_note) {
            eprintln!("note: {note}");
        }
    }
    let seeds = replication_seeds(setup.scenario.seed(), args.reps.unwrap_or(1))?;
    if let Some(note) = crate::setup::trace_reps_note(&args.scenario, seeds.len() as u64) {
        eprintln!("{note}");
    }
    if let Some(dir) = &args.out {
        create_dir(dir)?;
    }

    let per_policy = run_all(&setup, &seeds, at)?;
    let reps: Option<Vec<RepsReport>> = match args.reps {
        Some(_) => Some(per_policy.iter().map(|runs| reps_report(runs.as_slice())).collect::<Result<_>>()?),
        None => None,
    };

    if args.json {
        for (i, runs) in per_policy.iter().enumerate() {
            match &reps {
                Some(reps) => json_line(out, &reps[i])?,
                None => json_line(out, &runs[0].report)?,
            }
        }
    } else {
        let notes: Vec<String> = at_note.into_iter().chain(replay_notes).collect();
        print_human(&setup, warmup_note.as_deref(), &notes, &per_policy, reps.as_deref(), out)?;
    }

    if let Some(file) = &args.events {
        let written = crate::events::write(file, &setup, args.events_from.unwrap_or(0.0), args.events_to)?;
        let mut stderr = std::io::stderr();
        let sink: &mut dyn Write = if args.json { &mut stderr } else { out };
        writeln!(sink, "wrote {} ({written} decisions)", file.display())?;
    }

    if let Some(dir) = &args.out {
        let first: Vec<&RunOutcome> = per_policy.iter().map(|runs| &runs[0]).collect();
        let written = write_trajectory(dir, &setup, &first)?;
        // With --json, stdout carries only the JSON lines.
        let mut stderr = std::io::stderr();
        let sink: &mut dyn Write = if args.json { &mut stderr } else { out };
        for path in written {
            writeln!(sink, "wrote {}", path.display())?;
        }
    }
    Ok(())
}

/// Runs every (policy, replication) pair in parallel; returns the runs grouped by policy, in
/// policy order, replications in seed order; each to moment `at` if given, else to the horizon.
fn run_all(setup: &Setup, seeds: &[u64], at: Option<f64>) -> Result<Vec<Vec<RunOutcome>>> {
    let tasks: Vec<(&PolicySpec, u64)> =
        setup.policies.iter().flat_map(|p| seeds.iter().map(move |&s| (p, s))).collect();
    let bar = progress(tasks.len() as u64, setup.preset.id);
    let outcomes = tasks
        .par_iter()
        .map(|&(policy, seed)| {
            let scenario = with(&setup.scenario, "seed", seed)?;
            let outcome = run_at(setup.preset.id, &scenario, policy, at).with_context(|| format!("policy {policy}"))?;
            bar.inc(1);
            Ok(outcome)
        })
        .collect::<Result<Vec<_>>>();
    bar.finish_and_clear();
    let mut outcomes = outcomes?.into_iter();
    Ok(setup.policies.iter().map(|_| outcomes.by_ref().take(seeds.len()).collect()).collect())
}

/// The replication summary. With a single replication there is no spread to build a
/// Student-t interval from, so the run's own batch-means interval stands in for it.
fn reps_report(runs: &[RunOutcome]) -> Result<RepsReport> {
    let reports: Vec<RunReport> = runs.iter().map(|o| o.report.clone()).collect();
    let mut summary = summarise_reps(&reports).context("internal: a policy without runs")?;
    if reports.len() == 1 {
        summary.mean_queue_ci95 = reports[0].mean_queue_ci95;
    }
    Ok(summary)
}

fn json_line(out: &mut dyn Write, value: &impl Serialize) -> Result<()> {
    writeln!(out, "{}", serde_json::to_string(value)?)?;
    Ok(())
}

fn print_human(
    setup: &Setup,
    warmup_note: Option<&str>,
    replay_notes: &[String],
    per_policy: &[Vec<RunOutcome>],
    reps: Option<&[RepsReport]>,
    out: &mut dyn Write,
) -> Result<()> {
    let p = &setup.preset;
    let first = &per_policy[0][0].report;
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    let seeds = match reps {
        Some(r) if r[0].reps > 1 => {
            format!("seeds {}..={} ({} replications)", first.seed, r[0].seeds[r[0].reps - 1], r[0].reps)
        }
        _ => format!("seed {}", first.seed),
    };
    let unit = setup.scenario.time_unit().plural();
    writeln!(
        out,
        "{seeds} · horizon {} {unit} · warm-up {} {unit} · {}",
        first.horizon,
        first.warmup,
        setup.scenario.any().setting(first)
    )?;
    if let Some(note) = warmup_note {
        writeln!(out, "({note})")?;
    }
    for note in replay_notes {
        writeln!(out, "({note})")?;
    }
    writeln!(out)?;

    let names = setup.scenario.policy_labels(&setup.policies);
    let runs: Vec<Vec<&RunReport>> = per_policy.iter().map(|runs| runs.iter().map(|o| &o.report).collect()).collect();
    let table = setup.scenario.any().table(&names, &runs, reps.is_some());
    print_table(&table, out)?;
    let recoveries: Vec<&[Recovery]> = runs.iter().map(|r| r[0].recovery.as_slice()).collect();
    if let Some(table) = recovery_table(&names, &recoveries) {
        writeln!(out, "\nrecovery after each change (first seed):")?;
        print_table(&table, out)?;
    }
    let stretches: Vec<&[Stretch]> = runs.iter().map(|r| r[0].stretches.as_slice()).collect();
    if let Some(table) = stretch_table(&names, &stretches) {
        writeln!(out, "\nreward and rejections between the changes (first seed):")?;
        print_table(&table, out)?;
    }
    Ok(())
}

/// Writes `<preset>-trajectory.csv` and `.svg` for the given runs (one per policy): the series
/// the model draws over time (the waiting jobs; PG-AS's R(t)/L with its bounds).
fn write_trajectory(dir: &Path, setup: &Setup, runs: &[&RunOutcome]) -> Result<Vec<std::path::PathBuf>> {
    let id = setup.preset.id;
    let csv_path = dir.join(format!("{id}-trajectory.csv"));
    let svg_path = dir.join(format!("{id}-trajectory.svg"));
    let plot = setup.scenario.any().trajectory(&runs[0].report);
    let all: Vec<&[SeriesPoint]> = runs.iter().map(|o| packlab_plot::series(o, plot.metric)).collect();
    let first = all[0];
    // Every policy runs the same horizon on the same grid, so the series line up point by
    // point; check rather than trust it, since a mismatch would shift columns silently.
    for points in &all {
        if points.len() != first.len() || points.iter().zip(first.iter()).any(|(a, b)| a.start != b.start) {
            bail!("internal: the policies' series are on different grids; cannot tabulate them");
        }
    }

    let mut w = csv::Writer::from_path(&csv_path).with_context(|| format!("writing {}", csv_path.display()))?;
    let mut header = vec!["start".to_string(), "end".to_string()];
    header.extend(setup.policies.iter().map(|p| format!("{p}{}", plot.column_suffix)));
    w.write_record(&header)?;
    for (k, point) in first.iter().enumerate() {
        let mut record = vec![point.start.to_string(), point.end.to_string()];
        record.extend(all.iter().map(|points| points[k].mean.to_string()));
        w.write_record(&record)?;
    }
    w.flush().with_context(|| format!("writing {}", csv_path.display()))?;

    let chart = Trajectory::of(setup, runs).context("internal: a race without runs")?;
    write_svg(&svg_path, &chart.chart())?;
    Ok(vec![csv_path, svg_path])
}
