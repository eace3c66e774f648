//! `packlab sweep`: mean queue against load, the x axis of PG-RR Fig. 4.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::metrics::mean_ci;
use packlab_core::policy::Model;
use packlab_core::policy::PolicySpec;
use packlab_core::report::{RunReport, run, summarise_reps};
use packlab_core::theory::msfq::MsfqAnalysis;
use packlab_core::theory::{load_marks, pgrr_marks};
use packlab_plot::{Chart, Curve, Mark, Point};
use rayon::prelude::*;
use serde::Serialize;

use crate::args::SweepArgs;
use crate::output::{Table, create_dir, labels, num, progress, write_svg};
use crate::setup::{Setup, replication_seeds, resolve, with};

/// One row of `<preset>-runs.csv`.
#[derive(Debug, Serialize)]
struct RunRow<'a> {
    preset: &'a str,
    policy: String,
    load: f64,
    rep: u64,
    seed: u64,
    horizon: u64,
    mean_queue: f64,
    ci_lo: f64,
    ci_hi: f64,
    final_queue: u64,
    mean_wait: f64,
    mean_occupancy: f64,
    arrivals: u64,
    started: u64,
    unstable: bool,
    /// Multiserver-job runs: response times (empty for PG-RR).
    mean_response: Option<f64>,
    weighted_mean_response: Option<f64>,
    p95_response: Option<f64>,
    h1: Option<f64>,
    h2: Option<f64>,
    h3: Option<f64>,
    h4: Option<f64>,
}

/// What a sweep draws against the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Metric {
    MeanQueue,
    MeanResponse,
    WeightedMeanResponse,
}

impl Metric {
    /// PG-RR Fig. 4 plots the mean queue; MSFQ Fig. 2 the mean response time; Figs. 5 and 6
    /// the weighted one.
    fn default_for(setup: &Setup) -> Self {
        match setup.scenario.model() {
            Model::Pgrr => Self::MeanQueue,
            Model::Msj if matches!(setup.preset.id, "msfq-d5" | "msfq-d6") => Self::WeightedMeanResponse,
            Model::Msj => Self::MeanResponse,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::MeanQueue => "mean waiting jobs",
            Self::MeanResponse => "mean response time E[T]",
            Self::WeightedMeanResponse => "weighted mean response time E[T^w]",
        }
    }

    /// The run's value and, where the run has one, its own 95% interval.
    /// The analysis's value of this metric, where there is one.
    fn of_analysis(self, a: &MsfqAnalysis) -> Option<f64> {
        match self {
            Self::MeanQueue => None,
            Self::MeanResponse => Some(a.mean_response),
            Self::WeightedMeanResponse => Some(a.weighted_mean_response),
        }
    }

    fn of(self, r: &RunReport) -> (f64, [f64; 2]) {
        let unbounded = [f64::NEG_INFINITY, f64::INFINITY];
        match (self, &r.msj) {
            (Self::MeanResponse, Some(m)) => (m.mean_response, m.mean_response_ci95),
            (Self::WeightedMeanResponse, Some(m)) => (m.weighted_mean_response, unbounded),
            _ => (r.mean_queue, r.mean_queue_ci95),
        }
    }
}

/// One row of `<preset>-summary.csv`: the replications of one (policy, load) cell.
#[derive(Debug, Clone, Serialize)]
struct SummaryRow {
    policy: String,
    load: f64,
    reps: usize,
    /// Which quantity `value` is.
    metric: &'static str,
    value: f64,
    ci_lo: f64,
    ci_hi: f64,
    unstable_reps: usize,
    /// The paper's analysis of the metric at this load (SPEC 5.6; MSF and MSFQ only).
    analysis: Option<f64>,
}

pub fn command(args: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    let setup = resolve(&args.scenario)?;
    if setup.explicit.iter().any(|k| k == "load") {
        bail!("--set load: a sweep sets the load itself; give the grid with --load A,B,...");
    }
    let loads = parse_loads(args.load.as_deref(), &setup)?;
    let seeds = replication_seeds(setup.scenario.seed(), args.reps)?;
    create_dir(&args.out)?;

    let tasks: Vec<(&PolicySpec, f64, u64)> = setup
        .policies
        .iter()
        .flat_map(|p| loads.iter().flat_map(move |&l| (0..args.reps).map(move |r| (p, l, r))))
        .collect();
    let bar = progress(tasks.len() as u64, setup.preset.id);
    let reports = tasks
        .par_iter()
        .map(|&(policy, load, rep)| {
            let scenario = with(&with(&setup.scenario, "load", load)?, "seed", seeds[rep as usize])?;
            let outcome = run(setup.preset.id, &scenario, policy)
                .with_context(|| format!("policy {policy} at load {load}, seed {}", seeds[rep as usize]))?;
            bar.inc(1);
            Ok(outcome.report)
        })
        .collect::<Result<Vec<RunReport>>>();
    bar.finish_and_clear();
    let reports = reports?;

    let id = setup.preset.id;
    let [runs_path, summary_path, svg_path] = files(&args.out, id);

    let rows = tasks.iter().zip(&reports).map(|(&(_, _, rep), r)| RunRow {
        preset: id,
        policy: r.policy.clone(),
        load: r.load,
        rep,
        seed: r.seed,
        horizon: r.horizon,
        mean_queue: r.mean_queue,
        ci_lo: r.mean_queue_ci95[0],
        ci_hi: r.mean_queue_ci95[1],
        final_queue: r.final_queue,
        mean_wait: r.mean_wait,
        mean_occupancy: r.mean_occupancy,
        arrivals: r.arrivals,
        started: r.started,
        unstable: r.unstable,
        mean_response: r.msj.as_ref().map(|m| m.mean_response),
        weighted_mean_response: r.msj.as_ref().map(|m| m.weighted_mean_response),
        p95_response: r.msj.as_ref().map(|m| m.p95_response),
        h1: r.msj.as_ref().and_then(|m| m.phase_means).map(|h| h[0]),
        h2: r.msj.as_ref().and_then(|m| m.phase_means).map(|h| h[1]),
        h3: r.msj.as_ref().and_then(|m| m.phase_means).map(|h| h[2]),
        h4: r.msj.as_ref().and_then(|m| m.phase_means).map(|h| h[3]),
    });
    write_csv(&runs_path, rows)?;

    // Tasks are policy-major, then load, then replication, so each cell is one chunk.
    let metric = Metric::default_for(&setup);
    let summary: Vec<SummaryRow> = reports.chunks(args.reps as usize).map(|cell| summarise(cell, metric)).collect();
    write_csv(&summary_path, summary.iter().cloned())?;
    write_chart(&svg_path, &setup, &loads, &summary, metric)?;

    print_summary(&setup, &loads, args.reps, &summary, metric, out)?;
    writeln!(out)?;
    writeln!(out, "wrote {} ({} runs)", runs_path.display(), reports.len())?;
    writeln!(out, "wrote {}", summary_path.display())?;
    writeln!(out, "wrote {}", svg_path.display())?;
    Ok(())
}

/// The loads of the grid, each checked by the scenario's own `load` key and relations, then
/// sorted (the chart's x axis) with duplicates removed.
fn parse_loads(text: Option<&str>, setup: &Setup) -> Result<Vec<f64>> {
    let range = setup.scenario.keys().iter().find(|k| k.key == "load").map_or("a positive number", |k| k.range);
    let entries: Vec<String> = match text {
        Some(text) => text.split(',').map(|s| s.trim().to_string()).collect(),
        None => setup.preset.load_grid.iter().map(|l| l.to_string()).collect(),
    };
    let mut loads = Vec::with_capacity(entries.len());
    for entry in &entries {
        if entry.is_empty() {
            bail!("--load: empty entry in '{}'; give loads separated by commas, each {range}", text.unwrap_or(""));
        }
        let scenario = with(&setup.scenario, "load", entry).map_err(|e| anyhow!("--load: {e}"))?;
        scenario.validate().map_err(|e| anyhow!("--load {entry}: {e}"))?;
        loads.push(scenario.load());
    }
    loads.sort_by(f64::total_cmp);
    loads.dedup();
    Ok(loads)
}

/// The replications of one cell. A single replication has no spread for a Student-t
/// interval, so its batch-means interval stands in.
fn summarise(cell: &[RunReport], metric: Metric) -> SummaryRow {
    let reps = summarise_reps(cell);
    let values: Vec<f64> = cell.iter().map(|r| metric.of(r).0).collect();
    let ci = mean_ci(&values);
    let [ci_lo, ci_hi] = if cell.len() == 1 { metric.of(&cell[0]).1 } else { [ci.lo, ci.hi] };
    SummaryRow {
        policy: reps.policy,
        load: reps.load,
        reps: reps.reps,
        metric: metric.label(),
        value: ci.mean,
        ci_lo,
        ci_hi,
        unstable_reps: reps.unstable_reps,
        analysis: cell[0].msj.as_ref().and_then(|m| m.analysis.as_ref()).and_then(|a| metric.of_analysis(a)),
    }
}

fn write_csv<R: Serialize>(path: &Path, rows: impl Iterator<Item = R>) -> Result<()> {
    let context = || format!("writing {}", path.display());
    let mut w = csv::Writer::from_path(path).with_context(context)?;
    for row in rows {
        w.serialize(row).with_context(context)?;
    }
    w.flush().with_context(context)
}

/// Theory marks inside the swept range: (load, short label for the chart, meaning for the
/// axis caption). α = 1 is drawn whenever the grid comes within 10% of it: the queues of
/// Fig. 4 blow up towards that bound, and the line says why.
fn marks(loads: &[f64]) -> Vec<(f64, &'static str, String)> {
    let (lo, hi) = (loads[0], loads[loads.len() - 1]);
    // The chart writes a mark's label to the right of its line, where a long one runs off the
    // plot at the right edge; so the line gets a short symbol and the caption the meaning.
    let short = |load: f64| match load {
        1.0 => "α = 1",
        0.5 => "ρ*/2",
        _ => "(2/3)ρ*",
    };
    let mut marks: Vec<_> = pgrr_marks(1.0)
        .into_iter()
        .filter(|m| (m.load >= lo - 1e-9 && m.load <= hi + 1e-9) || (m.load == 1.0 && hi >= 0.9))
        .map(|m| (m.load, short(m.load), m.label))
        .collect();
    // Left to right, so the caption reads in the order the lines appear.
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));
    marks
}

fn write_chart(path: &Path, setup: &Setup, loads: &[f64], summary: &[SummaryRow], metric: Metric) -> Result<()> {
    let names = labels(&setup.policies, &setup.scenario);
    let points: Vec<Vec<Point>> = summary
        .chunks(loads.len())
        .map(|cells| {
            cells
                .iter()
                .map(|c| Point {
                    x: c.load,
                    y: c.value,
                    // An unbounded interval (one value) has nothing to draw.
                    interval: (c.ci_lo.is_finite() && c.ci_hi.is_finite()).then_some((c.ci_lo, c.ci_hi)),
                })
                .collect()
        })
        .collect();
    // The analysis as an unmarked line in its policy's colour, where it answers (SPEC 5.6 does
    // not at low load, where its approximations fail).
    let analysis: Vec<(usize, String, Vec<Point>)> = summary
        .chunks(loads.len())
        .enumerate()
        .filter_map(|(i, cells)| {
            let points: Vec<Point> =
                cells.iter().filter_map(|c| c.analysis.map(|y| Point { x: c.load, y, interval: None })).collect();
            (!points.is_empty()).then(|| (i, format!("{} (analysis)", names[i]), points))
        })
        .collect();
    let marks = match setup.scenario.model() {
        Model::Pgrr => marks(loads),
        // The capacity bound (and Static QS's bound where lower), drawn when the grid nears it.
        Model::Msj => load_marks(&setup.scenario)
            .into_iter()
            .filter(|m| m.load <= 1.1 * loads[loads.len() - 1])
            .map(|m| (m.load, "λ max", m.label))
            .collect(),
    };
    let mut x_label =
        if setup.scenario.model() == Model::Pgrr { "load α".to_string() } else { "arrival rate λ".to_string() };
    if !marks.is_empty() {
        let meanings: Vec<&str> = marks.iter().map(|(_, _, meaning)| meaning.as_str()).collect();
        x_label.push_str(&format!("   (dashed: {})", meanings.join("; ")));
    }
    // Pad both ends: by default the range starts at the first load, which puts the first
    // markers and error bars on the y axis; the right end leaves room for a mark's label.
    let lo = loads[0];
    let hi = marks.iter().map(|m| m.0).fold(loads[loads.len() - 1], f64::max);
    let span = (hi - lo).max(0.05);
    let title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    let chart = Chart {
        title: &title,
        x_label: &x_label,
        y_label: &format!("{} (log scale)", metric.label()),
        curves: names
            .iter()
            .zip(&points)
            .enumerate()
            .map(|(i, (label, points))| Curve { label, color: i, points, markers: true })
            .chain(analysis.iter().map(|(i, label, points)| Curve { label, color: *i, points, markers: false }))
            .collect(),
        x_marks: marks.iter().map(|&(value, label, _)| Mark { value, label }).collect(),
        log_y: true,
        x_range: Some((lo - 0.03 * span, hi + 0.08 * span)),
        ..Chart::default()
    };
    write_svg(path, &chart)
}

fn print_summary(
    setup: &Setup,
    loads: &[f64],
    reps: u64,
    summary: &[SummaryRow],
    metric: Metric,
    out: &mut dyn Write,
) -> Result<()> {
    let p = &setup.preset;
    let unit = setup.scenario.time_unit();
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    writeln!(
        out,
        "{} × {} × {} (seeds from {}) · horizon {} {unit} · warm-up {} {unit}",
        plural(loads.len() as u64, "load"),
        plural(setup.policies.len() as u64, "policy"),
        plural(reps, "replication"),
        setup.scenario.seed(),
        setup.scenario.horizon(),
        setup.scenario.get("warmup").unwrap_or_default()
    )?;
    if let Some(note) = &setup.warmup_note {
        writeln!(out, "({note})")?;
    }
    let interval = if reps > 1 { "Student t over the replications" } else { "batch means of the run" };
    writeln!(
        out,
        "\n{} ± half-width of its 95% interval ({interval}); * = unstable in most replications",
        metric.label()
    )?;
    let names = labels(&setup.policies, &setup.scenario);
    let mut header = vec!["load".to_string()];
    header.extend(names);
    let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
    for (k, load) in loads.iter().enumerate() {
        let mut row = vec![load.to_string()];
        for cells in summary.chunks(loads.len()) {
            let c = &cells[k];
            let star = if 2 * c.unstable_reps > c.reps { "*" } else { "" };
            let analysis = c.analysis.map_or(String::new(), |a| format!(" (analysis {})", num(a)));
            row.push(format!("{} ±{}{star}{analysis}", num(c.value), num((c.ci_hi - c.ci_lo) / 2.0)));
        }
        table.row(row);
    }
    table.print(out)?;
    Ok(())
}

/// "1 load", "2 loads", "3 policies".
fn plural(n: u64, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        (_, None) => format!("{n} {noun}s"),
    }
}

/// The output files of a sweep: runs, summary, chart.
fn files(dir: &Path, preset: &str) -> [PathBuf; 3] {
    [
        dir.join(format!("{preset}-runs.csv")),
        dir.join(format!("{preset}-summary.csv")),
        dir.join(format!("{preset}.svg")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "policy"), "1 policy");
        assert_eq!(plural(3, "policy"), "3 policies");
        assert_eq!(plural(2, "load"), "2 loads");
    }

    #[test]
    fn marks_inside_the_range_and_the_bound_near_it() {
        let loads = |v: &[f64]| marks(v).into_iter().map(|(l, _, _)| l).collect::<Vec<_>>();
        assert_eq!(loads(&[0.85, 0.99]), [1.0]);
        assert_eq!(loads(&[0.5, 0.7]), [0.5, 2.0 / 3.0]);
        assert_eq!(loads(&[0.6, 0.95]), [2.0 / 3.0, 1.0]);
        assert!(loads(&[0.7, 0.8]).is_empty());
    }
}
