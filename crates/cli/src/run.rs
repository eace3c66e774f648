//! `packlab run`: one preset, several policies, optional replications, in parallel.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::report::{
    MsjMetrics, PgasMetrics, RepsReport, RunOutcome, RunReport, VmMetrics, run, summarise_reps,
};
use packlab_plot::{Chart, Curve, Mark, Point};
use rayon::prelude::*;
use serde::Serialize;

use crate::args::RunArgs;
use crate::output::{Table, create_dir, interval, labels, num, progress, sig, write_svg};
use crate::setup::{Setup, replication_seeds, resolve, with};

pub fn command(args: &RunArgs, out: &mut dyn Write) -> Result<()> {
    let setup = resolve(&args.scenario)?;
    let seeds = replication_seeds(setup.scenario.seed(), args.reps.unwrap_or(1))?;
    if let Some(dir) = &args.out {
        create_dir(dir)?;
    }

    let per_policy = run_all(&setup, &seeds)?;
    let reps: Option<Vec<RepsReport>> =
        args.reps.map(|_| per_policy.iter().map(|runs| reps_report(runs.as_slice())).collect());

    if args.json {
        for (i, runs) in per_policy.iter().enumerate() {
            match &reps {
                Some(reps) => json_line(out, &reps[i])?,
                None => json_line(out, &runs[0].report)?,
            }
        }
    } else {
        print_human(&setup, &per_policy, reps.as_deref(), out)?;
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
/// policy order, replications in seed order.
fn run_all(setup: &Setup, seeds: &[u64]) -> Result<Vec<Vec<RunOutcome>>> {
    let tasks: Vec<(&PolicySpec, u64)> =
        setup.policies.iter().flat_map(|p| seeds.iter().map(move |&s| (p, s))).collect();
    let bar = progress(tasks.len() as u64, setup.preset.id);
    let outcomes = tasks
        .par_iter()
        .map(|&(policy, seed)| {
            let scenario = with(&setup.scenario, "seed", seed)?;
            let outcome = run(setup.preset.id, &scenario, policy).with_context(|| format!("policy {policy}"))?;
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
fn reps_report(runs: &[RunOutcome]) -> RepsReport {
    let reports: Vec<RunReport> = runs.iter().map(|o| o.report.clone()).collect();
    let mut summary = summarise_reps(&reports);
    if reports.len() == 1 {
        summary.mean_queue_ci95 = reports[0].mean_queue_ci95;
    }
    summary
}

fn json_line(out: &mut dyn Write, value: &impl Serialize) -> Result<()> {
    writeln!(out, "{}", serde_json::to_string(value)?)?;
    Ok(())
}

fn print_human(
    setup: &Setup,
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
    let unit = setup.scenario.time_unit();
    match &first.msj {
        None if first.pgas.is_some() => writeln!(
            out,
            "{seeds} · horizon {} {unit} · warm-up {} {unit} · load α = {} · L = {} servers · types {} · {} arrivals per time unit",
            first.horizon,
            first.warmup,
            sig(first.load),
            first.servers,
            setup.scenario.get("types").unwrap_or_default(),
            sig(first.arrival_rate)
        )?,
        None if first.vm.is_some() => writeln!(
            out,
            "{seeds} · horizon {} {unit} · warm-up {} {unit} · ζ = {} · λ = {} jobs per time unit · servers {}",
            first.horizon,
            first.warmup,
            sig(first.load),
            sig(first.arrival_rate),
            setup.scenario.get("servers").unwrap_or_default()
        )?,
        None => {
            let servers =
                if first.servers == 1 { "1 server".to_string() } else { format!("{} servers", first.servers) };
            writeln!(
                out,
                "{seeds} · horizon {} {unit} · warm-up {} {unit} · load α = {} · λ = {} arrivals/slot · {servers}",
                first.horizon,
                first.warmup,
                sig(first.load),
                sig(first.arrival_rate)
            )?;
        }
        Some(_) => writeln!(
            out,
            "{seeds} · horizon {} {unit} · warm-up {} {unit} · λ = {} jobs per time unit · k = {} cores",
            first.horizon,
            first.warmup,
            sig(first.load),
            first.servers
        )?,
    }
    if let Some(note) = &setup.warmup_note {
        writeln!(out, "({note})")?;
    }
    writeln!(out)?;

    let names = labels(&setup.policies, &setup.scenario);
    if first.msj.is_some() {
        return print_msj(&names, per_policy, out);
    }
    if first.vm.is_some() {
        return print_vm(&names, per_policy, out);
    }
    if first.pgas.is_some() {
        return print_pgas(&names, per_policy, out);
    }
    let mut table =
        Table::new(&["policy", "mean queue", "95% interval", "final queue", "mean wait", "occupancy", "verdict"])
            .left(6);
    for (i, runs) in per_policy.iter().enumerate() {
        let row = match reps {
            Some(reps) => {
                let r = &reps[i];
                let verdict = if r.unstable { "UNSTABLE" } else { "stable" };
                vec![
                    names[i].clone(),
                    num(r.mean_queue),
                    interval(r.mean_queue_ci95),
                    num(r.final_queue),
                    num(r.mean_wait),
                    format!("{:.1}%", 100.0 * r.mean_occupancy),
                    format!("{verdict} ({}/{} unstable)", r.unstable_reps, r.reps),
                ]
            }
            None => {
                let r = &runs[0].report;
                vec![
                    names[i].clone(),
                    num(r.mean_queue),
                    interval(r.mean_queue_ci95),
                    r.final_queue.to_string(),
                    num(r.mean_wait),
                    format!("{:.1}%", 100.0 * r.mean_occupancy),
                    if r.unstable { "UNSTABLE" } else { "stable" }.to_string(),
                ]
            }
        };
        table.row(row);
    }
    table.print(out)?;
    writeln!(out)?;
    let many = reps.is_some_and(|r| r[0].reps > 1);
    let notes: [&str; 3] = if many {
        [
            "mean queue: time average of the waiting jobs after the warm-up, averaged over the replications",
            "95% interval: Student t over the replications; final queue: mean over the replications",
            "mean wait: slots from arrival to start; verdict: UNSTABLE when Q(t) grows over the second half",
        ]
    } else {
        [
            "mean queue: time average of the waiting jobs after the warm-up",
            "95% interval: batch means over 20 batches of the measured window",
            "mean wait: slots from arrival to start; verdict: UNSTABLE when Q(t) grows over the second half",
        ]
    };
    for note in notes {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

/// The multiserver-job table: response times (SPEC 5.4). With replications, each figure is
/// the mean over them and the interval is Student t over the replications' E[T].
fn print_msj(names: &[String], per_policy: &[Vec<RunOutcome>], out: &mut dyn Write) -> Result<()> {
    let classes: Vec<String> =
        per_policy[0][0].report.msj.as_ref().expect("an MSJ run").mean_response_by_class.keys().cloned().collect();
    let mut header = vec!["policy".to_string(), "E[T]".into(), "95% interval".into(), "E[T^w]".into()];
    header.extend(classes.iter().map(|c| format!("E[T] need {c}")));
    header.extend(["p95".into(), "in system".into(), "utilisation".into(), "verdict".into()]);
    let header_refs: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut table = Table::new(&header_refs).left(header.len() - 1);
    for (i, runs) in per_policy.iter().enumerate() {
        let ms: Vec<&MsjMetrics> = runs.iter().map(|o| o.report.msj.as_ref().expect("an MSJ run")).collect();
        // One run's figures, or the replications' means with a Student-t interval.
        let m = MsjMetrics::over_replications(&ms);
        let mut row =
            vec![names[i].clone(), num(m.mean_response), interval(m.mean_response_ci95), num(m.weighted_mean_response)];
        row.extend(classes.iter().map(|c| num(m.mean_response_by_class[c])));
        row.extend([
            num(m.p95_response),
            num(m.mean_in_system),
            format!("{:.1}%", 100.0 * m.utilization),
            verdict(runs),
        ]);
        table.row(row);
    }
    table.print(out)?;
    writeln!(out)?;
    for note in [
        "E[T]: mean response time (completion − arrival) weighted by the nominal class mix; E[T^w]: weighted by load share",
        "95% interval: batch means over 20 arrival-time batches (Student t over replications with --reps)",
        "in system: time-average n(t); verdict: UNSTABLE when n(t) grows over the second half",
    ] {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

/// "stable", "UNSTABLE", or with replications "stable (1/5 unstable)": the majority verdict.
fn verdict(runs: &[RunOutcome]) -> String {
    let unstable = runs.iter().filter(|o| o.report.unstable).count();
    match (runs.len(), unstable) {
        (1, 0) => "stable".to_string(),
        (1, _) => "UNSTABLE".to_string(),
        (n, u) => format!("{} ({u}/{n} unstable)", if 2 * u > n { "UNSTABLE" } else { "stable" }),
    }
}

/// The VM-scheduling table: delay, total queue and dummy jobs (SPEC 3.4). With replications,
/// each figure is the mean over them and the intervals are Student t over the replications.
fn print_vm(names: &[String], per_policy: &[Vec<RunOutcome>], out: &mut dyn Write) -> Result<()> {
    let mut table = Table::new(&[
        "policy",
        "mean delay",
        "95% interval",
        "mean queue",
        "95% interval",
        "final queue",
        "occupancy",
        "dummies",
        "refreshes",
        "verdict",
    ])
    .left(9);
    for (i, runs) in per_policy.iter().enumerate() {
        let ms: Vec<&VmMetrics> = runs.iter().map(|o| o.report.vm.as_ref().expect("a VM run")).collect();
        let m = VmMetrics::over_replications(&ms);
        let r = reps_report(runs);
        table.row(vec![
            names[i].clone(),
            num(m.mean_delay),
            interval(m.mean_delay_ci95),
            num(r.mean_queue),
            interval(r.mean_queue_ci95),
            num(r.final_queue),
            format!("{:.1}%", 100.0 * r.mean_occupancy),
            format!("{:.1}%", 100.0 * m.dummy_share),
            num(m.refreshes as f64 / runs.len() as f64),
            verdict(runs),
        ]);
    }
    table.print(out)?;
    writeln!(out)?;
    for note in [
        "mean delay: time from arrival to the start of service, jobs that arrived after the warm-up",
        "mean queue: time average of Σ_j Q_j(t), waiting jobs only; intervals: batch means (Student t with --reps)",
        "occupancy / dummies: mean over resources of the fleet's capacity held by real / dummy jobs",
        "refreshes: MaxWeight's configuration re-selections; verdict: UNSTABLE when Q(t) grows over the second half",
    ] {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

/// The PG-AS table: normalised reward, its ratios to the bounds, blocking and the DRA
/// diagnostics (SPEC 4.6). With replications, figures are means and the interval is Student t.
fn print_pgas(names: &[String], per_policy: &[Vec<RunOutcome>], out: &mut dyn Write) -> Result<()> {
    let mut table = Table::new(&[
        "policy",
        "reward/L",
        "95% interval",
        "/ U*",
        "/ U^(g)",
        "blocking",
        "migrations",
        "preemptions",
        "reconfig.",
        "mean |RG|",
        "empty slots/L",
    ]);
    for (i, runs) in per_policy.iter().enumerate() {
        let ms: Vec<&PgasMetrics> = runs.iter().map(|o| o.report.pgas.as_ref().expect("a PG-AS run")).collect();
        let m = PgasMetrics::over_replications(&ms);
        let ratio = |r: Option<f64>| r.map_or("–".to_string(), |r| format!("{r:.4}"));
        table.row(vec![
            names[i].clone(),
            num(m.normalized_reward),
            interval(m.normalized_reward_ci95),
            ratio(m.ratio_to_optimal),
            ratio(m.ratio_to_greedy),
            format!("{:.2}%", 100.0 * m.overall_blocking),
            m.migrations.to_string(),
            m.preemptions.to_string(),
            m.reconfigurations.to_string(),
            num(m.mean_reject_group),
            num(m.mean_reserved_slots),
        ]);
    }
    table.print(out)?;
    writeln!(out)?;
    let m = per_policy[0][0].report.pgas.as_ref().expect("a PG-AS run");
    if let (Some(g), Some(o)) = (m.greedy_reward, m.optimal_reward) {
        writeln!(
            out,
            "U^(g) = {} (global greedy), U* = {} (LP 7) per server at this α·ρ; ratio {:.6}",
            num(g),
            num(o),
            g / o
        )?;
    }
    for note in [
        "reward/L: time average of R(t)/L = Σ_j u_j Y_j(t)/L after the warm-up (upper bound: of LP (6) on an infinite-server system)",
        "95% interval: batch means over 20 batches (Student t over replications with --reps); counts are after the warm-up",
        "blocking: rejected/arrived; reconfig.: empty servers given another configuration; |RG|: DRA's reject group",
    ] {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

/// Writes `<preset>-trajectory.csv` and `.svg` for the given runs (one per policy).
fn write_trajectory(dir: &Path, setup: &Setup, runs: &[&RunOutcome]) -> Result<Vec<std::path::PathBuf>> {
    let id = setup.preset.id;
    let csv_path = dir.join(format!("{id}-trajectory.csv"));
    let svg_path = dir.join(format!("{id}-trajectory.svg"));
    if runs[0].report.pgas.is_some() {
        write_reward_trajectory(&csv_path, &svg_path, setup, runs)?;
        return Ok(vec![csv_path, svg_path]);
    }
    let queue = &runs[0].queue;
    // Every policy runs the same horizon on the same grid, so the series line up point by
    // point; check rather than trust it, since a mismatch would shift columns silently.
    for r in runs {
        if r.queue.len() != queue.len() || r.queue.iter().zip(queue).any(|(a, b)| a.start != b.start) {
            bail!("internal: the policies' Q(t) series are on different grids; cannot tabulate them");
        }
    }

    let mut w = csv::Writer::from_path(&csv_path).with_context(|| format!("writing {}", csv_path.display()))?;
    let mut header = vec!["start".to_string(), "end".to_string()];
    header.extend(setup.policies.iter().map(|p| p.to_string()));
    w.write_record(&header)?;
    for (k, point) in queue.iter().enumerate() {
        let mut record = vec![point.start.to_string(), point.end.to_string()];
        record.extend(runs.iter().map(|r| r.queue[k].mean.to_string()));
        w.write_record(&record)?;
    }
    w.flush().with_context(|| format!("writing {}", csv_path.display()))?;

    let names = labels(&setup.policies, &setup.scenario);
    // Each interval mean is drawn at the interval's midpoint.
    let points: Vec<Vec<Point>> =
        runs.iter().map(|r| r.queue.iter().map(|p| Point::new((p.start + p.end) / 2.0, p.mean)).collect()).collect();
    let title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    let warmup = runs[0].report.warmup;
    // The legend sits top left, right where a label at the end of the warm-up would go, so
    // the line stays unlabelled and the axis caption explains it.
    let unit = setup.scenario.time_unit();
    let x_label = if warmup > 0 {
        format!("time ({unit})   (dashed: end of the warm-up, {warmup} {unit})")
    } else {
        format!("time ({unit})")
    };
    let chart = Chart {
        title: &title,
        x_label: &x_label,
        y_label: "waiting jobs",
        curves: names
            .iter()
            .zip(&points)
            .enumerate()
            .map(|(i, (label, points))| Curve { label, color: i, points, markers: false })
            .collect(),
        x_marks: if warmup > 0 { vec![Mark { value: warmup as f64, label: "" }] } else { vec![] },
        x_range: Some((0.0, runs[0].report.horizon as f64)),
        ..Chart::default()
    };
    write_svg(&svg_path, &chart)?;
    Ok(vec![csv_path, svg_path])
}

/// PG-AS Fig. 4: R(t)/L of every policy as CSV and SVG, with U^(g) and U* as dashed lines.
fn write_reward_trajectory(csv_path: &Path, svg_path: &Path, setup: &Setup, runs: &[&RunOutcome]) -> Result<()> {
    let reward = &runs[0].reward;
    for r in runs {
        if r.reward.len() != reward.len() || r.reward.iter().zip(reward).any(|(a, b)| a.start != b.start) {
            bail!("internal: the policies' R(t) series are on different grids; cannot tabulate them");
        }
    }
    let mut w = csv::Writer::from_path(csv_path).with_context(|| format!("writing {}", csv_path.display()))?;
    let mut header = vec!["start".to_string(), "end".to_string()];
    header.extend(setup.policies.iter().map(|p| format!("{p} reward/L")));
    w.write_record(&header)?;
    for (k, point) in reward.iter().enumerate() {
        let mut record = vec![point.start.to_string(), point.end.to_string()];
        record.extend(runs.iter().map(|r| r.reward[k].mean.to_string()));
        w.write_record(&record)?;
    }
    w.flush().with_context(|| format!("writing {}", csv_path.display()))?;

    let names = labels(&setup.policies, &setup.scenario);
    let points: Vec<Vec<Point>> =
        runs.iter().map(|r| r.reward.iter().map(|p| Point::new((p.start + p.end) / 2.0, p.mean)).collect()).collect();
    let m = runs[0].report.pgas.as_ref().expect("a PG-AS run");
    let greedy = m.greedy_reward.map(|g| format!("U^(g) = {}", num(g)));
    let optimal = m.optimal_reward.map(|o| format!("U* = {}", num(o)));
    let mut y_marks = Vec::new();
    if let (Some(g), Some(label)) = (m.greedy_reward, &greedy) {
        y_marks.push(Mark { value: g, label });
    }
    if let (Some(o), Some(label)) = (m.optimal_reward, &optimal) {
        y_marks.push(Mark { value: o, label });
    }
    let title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    let warmup = runs[0].report.warmup;
    let unit = setup.scenario.time_unit();
    let x_label = if warmup > 0 {
        format!("time ({unit})   (dashed: end of the warm-up at {warmup}; U^(g) and U* per server)")
    } else {
        format!("time ({unit})   (dashed: U^(g) and U* per server)")
    };
    let chart = Chart {
        title: &title,
        x_label: &x_label,
        y_label: "reward rate per server R(t)/L",
        curves: names
            .iter()
            .zip(&points)
            .enumerate()
            .map(|(i, (label, points))| Curve { label, color: i, points, markers: false })
            .collect(),
        x_marks: if warmup > 0 { vec![Mark { value: warmup as f64, label: "" }] } else { vec![] },
        y_marks,
        x_range: Some((0.0, runs[0].report.horizon as f64)),
        legend: packlab_plot::LegendAt::LowerRight,
        ..Chart::default()
    };
    write_svg(svg_path, &chart)
}
