//! `packlab sweep`: a paper figure from replicated runs over a grid of loads: the mean queue,
//! response time or delay against the load (PG-RR Fig. 4, MSFQ Figs. 2, 5, 6, GH-RA Figs. 1, 2,
//! 4, 5), MSF/MSFQ phase durations
//! against λ (MSFQ Fig. 3) or E[T] against the threshold ℓ, one curve per λ (MSFQ Fig. 4).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::metrics::mean_ci;
use packlab_core::policy::{Model, PolicyKind, PolicySpec};
use packlab_core::report::{RunReport, run, summarise_reps};
use packlab_core::scenario::Scenario;
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
    /// VM-scheduling runs: delay until service and the dummy jobs' share of the capacity.
    mean_delay: Option<f64>,
    dummy_share: Option<f64>,
}

/// What a sweep draws against the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Metric {
    MeanQueue,
    /// Mean delay until service starts (GH-RA Figs. 1, 2, 5).
    MeanDelay,
    MeanResponse,
    WeightedMeanResponse,
    /// E[H_i] of MSF/MSFQ, i in 0..4 (MSFQ Fig. 3).
    Phase(usize),
}

impl Metric {
    /// PG-RR Fig. 4 plots the mean queue; MSFQ Fig. 2 the mean response time; Figs. 5 and 6
    /// the weighted one.
    fn default_for(setup: &Setup) -> Self {
        match setup.scenario.model() {
            Model::Pgrr => Self::MeanQueue,
            Model::Msj if matches!(setup.preset.id, "msfq-d5" | "msfq-d6") => Self::WeightedMeanResponse,
            Model::Msj => Self::MeanResponse,
            // GH-RA Fig. 4 plots the average total queue; Figs. 1, 2 and 5 the mean delay.
            Model::Vm if matches!(setup.preset.id, "ghra-b3" | "ghra-b4") => Self::MeanQueue,
            Model::Vm => Self::MeanDelay,
            // PG-AS sweeps go through `sweep_pgas`.
            Model::Pgas => Self::MeanQueue,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::MeanQueue => "mean waiting jobs",
            Self::MeanDelay => "mean delay until service",
            Self::MeanResponse => "mean response time E[T]",
            Self::WeightedMeanResponse => "weighted mean response time E[T^w]",
            Self::Phase(i) => ["E[H1]", "E[H2]", "E[H3]", "E[H4]"][i],
        }
    }

    /// The run's value and, where the run has one, its own 95% interval.
    /// The analysis's value of this metric, where there is one.
    fn of_analysis(self, a: &MsfqAnalysis) -> Option<f64> {
        match self {
            Self::MeanQueue | Self::MeanDelay => None,
            Self::MeanResponse => Some(a.mean_response),
            Self::WeightedMeanResponse => Some(a.weighted_mean_response),
            Self::Phase(i) => Some(a.phase_means[i]),
        }
    }

    fn of(self, r: &RunReport) -> (f64, [f64; 2]) {
        let unbounded = [f64::NEG_INFINITY, f64::INFINITY];
        if let (Self::MeanDelay, Some(m)) = (self, &r.vm) {
            return (m.mean_delay, m.mean_delay_ci95);
        }
        match (self, &r.msj) {
            (Self::MeanResponse, Some(m)) => (m.mean_response, m.mean_response_ci95),
            (Self::WeightedMeanResponse, Some(m)) => (m.weighted_mean_response, unbounded),
            // A policy without phases (only MSF and MSFQ have them) has no value.
            (Self::Phase(i), m) => (m.as_ref().and_then(|m| m.phase_means).map_or(f64::NAN, |h| h[i]), unbounded),
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

/// The layout of a sweep's chart and table: the paper figure it reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Figure {
    /// One curve per policy against the load: PG-RR Fig. 4, MSFQ Figs. 2, 5 and 6.
    AgainstLoad(Metric),
    /// MSFQ Fig. 3: E[H1..H4] against λ, one curve per policy and phase.
    Phases,
    /// MSFQ Fig. 4: E[T] against the threshold ℓ, one curve per λ (every policy is MSFQ(ℓ)).
    AgainstThreshold,
}

/// The phases of MSF/MSFQ's cycle (SPEC 5.4 H_1..H_4).
const PHASES: usize = 4;

/// One curve of a sweep: its cells with their x values.
struct Line<'a> {
    label: String,
    color: usize,
    markers: bool,
    cells: Vec<(f64, &'a SummaryRow)>,
}

impl Figure {
    fn of(setup: &Setup) -> Self {
        match setup.preset.id {
            "msfq-d3" => Self::Phases,
            "msfq-d4" if setup.policies.iter().all(|p| p.kind == PolicyKind::Msfq) => Self::AgainstThreshold,
            _ => Self::AgainstLoad(Metric::default_for(setup)),
        }
    }

    /// The metrics summarised per cell, in the order of the summary rows.
    fn metrics(self) -> Vec<Metric> {
        match self {
            Self::AgainstLoad(metric) => vec![metric],
            Self::Phases => (0..PHASES).map(Metric::Phase).collect(),
            Self::AgainstThreshold => vec![Metric::MeanResponse],
        }
    }

    fn x_label(self, setup: &Setup) -> &'static str {
        match (self, setup.scenario.model()) {
            (Self::AgainstThreshold, _) => "threshold ℓ (0 = MSF)",
            (_, Model::Pgrr) => "load α",
            (_, Model::Msj) => "arrival rate λ",
            (_, Model::Vm) => "traffic intensity ζ",
            (_, Model::Pgas) => "workload scale α",
        }
    }

    fn y_label(self) -> &'static str {
        match self {
            Self::AgainstLoad(metric) => metric.label(),
            Self::Phases => "mean phase duration E[H_i]",
            Self::AgainstThreshold => Metric::MeanResponse.label(),
        }
    }

    /// The curves of `summary` (policy-major, then load, then metric).
    fn lines<'a>(self, setup: &Setup, loads: &[f64], summary: &'a [SummaryRow]) -> Vec<Line<'a>> {
        let names = labels(&setup.policies, &setup.scenario);
        let per_metric = self.metrics().len();
        let cell =
            |policy: usize, load: usize, metric: usize| &summary[(policy * loads.len() + load) * per_metric + metric];
        let by_load = |policy: usize, metric: usize| -> Vec<(f64, &'a SummaryRow)> {
            loads.iter().enumerate().map(|(k, &x)| (x, cell(policy, k, metric))).collect()
        };
        match self {
            Self::AgainstLoad(_) => names
                .into_iter()
                .enumerate()
                .map(|(p, label)| Line { label, color: p, markers: true, cells: by_load(p, 0) })
                .collect(),
            // Colour says the phase; markers tell the policies apart (the first without).
            Self::Phases => names
                .iter()
                .enumerate()
                .flat_map(|(p, name)| {
                    (0..PHASES).map(move |i| Line {
                        label: format!("{name} {}", Metric::Phase(i).label()),
                        color: i,
                        markers: p > 0,
                        cells: by_load(p, i),
                    })
                })
                .collect(),
            Self::AgainstThreshold => {
                let cores = match &setup.scenario {
                    Scenario::Msj(s) => s.cores,
                    Scenario::Pgrr(_) | Scenario::Vm(_) | Scenario::Pgas(_) => {
                        unreachable!("MSFQ policies run on the multiserver-job model")
                    }
                };
                let threshold = |p: &PolicySpec| f64::from(p.msj.l.unwrap_or(cores - 1));
                let mut order: Vec<usize> = (0..setup.policies.len()).collect();
                order.sort_by(|&a, &b| threshold(&setup.policies[a]).total_cmp(&threshold(&setup.policies[b])));
                loads
                    .iter()
                    .enumerate()
                    .map(|(k, load)| Line {
                        label: format!("λ = {load}"),
                        color: k,
                        markers: true,
                        cells: order.iter().map(|&p| (threshold(&setup.policies[p]), cell(p, k, 0))).collect(),
                    })
                    .collect()
            }
        }
    }
}

pub fn command(args: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    let setup = resolve(&args.scenario)?;
    if setup.scenario.model() == Model::Pgas {
        return crate::sweep_pgas::command(args, &setup, out);
    }
    if args.servers.is_some() {
        bail!("--servers: only PG-AS sweeps run against L; this preset sweeps the load (--load)");
    }
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
        mean_delay: r.vm.as_ref().map(|m| m.mean_delay),
        dummy_share: r.vm.as_ref().map(|m| m.dummy_share),
    });
    write_csv(&runs_path, rows)?;

    // Tasks are policy-major, then load, then replication, so each cell is one chunk; its
    // summary rows follow in the figure's metric order.
    let figure = Figure::of(&setup);
    let metrics = figure.metrics();
    let summary: Vec<SummaryRow> =
        reports.chunks(args.reps as usize).flat_map(|cell| metrics.iter().map(move |&m| summarise(cell, m))).collect();
    write_csv(&summary_path, summary.iter().cloned())?;
    let lines = figure.lines(&setup, &loads, &summary);
    write_chart(&svg_path, &setup, figure, &loads, &lines)?;

    print_summary(&setup, figure, &loads, args.reps, &lines, out)?;
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

fn write_chart(path: &Path, setup: &Setup, figure: Figure, loads: &[f64], lines: &[Line<'_>]) -> Result<()> {
    let points: Vec<Vec<Point>> = lines
        .iter()
        .map(|line| {
            line.cells
                .iter()
                // The y axis is logarithmic: a phase never visited (MSF's phase 4) has no point.
                .filter(|(_, c)| c.value.is_finite() && c.value > 0.0)
                .map(|&(x, c)| Point {
                    x,
                    y: c.value,
                    // An unbounded interval (one value) has nothing to draw.
                    interval: (c.ci_lo.is_finite() && c.ci_hi.is_finite()).then_some((c.ci_lo, c.ci_hi)),
                })
                .collect()
        })
        .collect();
    // The analysis as an unmarked line in its curve's colour, where it answers (SPEC 5.6 does
    // not at low load, where its approximations fail). Fig. 3 has eight curves already; its
    // analysis is in the table and the summary CSV.
    let analysis: Vec<(usize, String, Vec<Point>)> = if figure == Figure::Phases {
        Vec::new()
    } else {
        lines
            .iter()
            .filter_map(|line| {
                let points: Vec<Point> = line
                    .cells
                    .iter()
                    .filter_map(|&(x, c)| c.analysis.map(|y| Point { x, y, interval: None }))
                    .collect();
                (!points.is_empty()).then(|| (line.color, format!("{} (analysis)", line.label), points))
            })
            .collect()
    };
    let marks = match (figure, setup.scenario.model()) {
        (Figure::AgainstThreshold, _) => Vec::new(),
        (_, Model::Pgrr) => marks(loads),
        // The capacity bound (and Static QS's bound where lower), drawn when the grid nears it.
        (_, Model::Msj) => load_marks(&setup.scenario)
            .into_iter()
            .filter(|m| m.load <= 1.1 * loads[loads.len() - 1])
            .map(|m| (m.load, "λ max", m.label))
            .collect(),
        // ζ = 1, the boundary of the capacity region, when the grid comes near it.
        (_, Model::Vm) => load_marks(&setup.scenario)
            .into_iter()
            .filter(|m| m.load <= 1.1 * loads[loads.len() - 1])
            .map(|m| (m.load, "ζ = 1", m.label))
            .collect(),
        (_, Model::Pgas) => Vec::new(),
    };
    let mut x_label = figure.x_label(setup).to_string();
    if !marks.is_empty() {
        let meanings: Vec<&str> = marks.iter().map(|(_, _, meaning)| meaning.as_str()).collect();
        x_label.push_str(&format!("   (dashed: {})", meanings.join("; ")));
    }
    // Pad both ends: by default the range starts at the first x, which puts the first markers
    // and error bars on the y axis; the right end leaves room for a mark's label.
    let xs = lines.iter().flat_map(|l| l.cells.iter().map(|(x, _)| *x));
    let lo = xs.clone().fold(f64::INFINITY, f64::min);
    let hi = marks.iter().map(|m| m.0).fold(xs.fold(f64::NEG_INFINITY, f64::max), f64::max);
    let span = (hi - lo).max(0.05);
    let title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    let chart = Chart {
        title: &title,
        x_label: &x_label,
        y_label: &format!("{} (log scale)", figure.y_label()),
        curves: lines
            .iter()
            .zip(&points)
            // A curve with nothing to draw (a phase the policy never visits) stays out of the legend.
            .filter(|(_, points)| !points.is_empty())
            .map(|(line, points)| Curve { label: &line.label, color: line.color, points, markers: line.markers })
            .chain(analysis.iter().map(|(color, label, points)| Curve { label, color: *color, points, markers: false }))
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
    figure: Figure,
    loads: &[f64],
    reps: u64,
    lines: &[Line<'_>],
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
        figure.y_label()
    )?;
    let cell_text = |c: &SummaryRow| {
        if !c.value.is_finite() {
            return "–".to_string();
        }
        let star = if 2 * c.unstable_reps > c.reps { "*" } else { "" };
        let analysis = c.analysis.map_or(String::new(), |a| format!(" (analysis {})", num(a)));
        let half = (c.ci_hi - c.ci_lo) / 2.0;
        let spread = if half.is_finite() { format!(" ±{}", num(half)) } else { String::new() };
        format!("{}{spread}{star}{analysis}", num(c.value))
    };
    let mut xs: Vec<f64> = lines.iter().flat_map(|l| l.cells.iter().map(|(x, _)| *x)).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let table = if figure == Figure::Phases {
        // One row per load and policy, one column per phase: eight curves side by side would
        // not fit a terminal.
        let mut header = vec![figure.x_label(setup).to_string(), "policy".to_string()];
        header.extend((0..PHASES).map(|i| Metric::Phase(i).label().to_string()));
        let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
        for (k, x) in xs.iter().enumerate() {
            for (policy, phases) in labels(&setup.policies, &setup.scenario).iter().zip(lines.chunks(PHASES)) {
                let mut row = vec![x.to_string(), policy.clone()];
                row.extend(phases.iter().map(|line| cell_text(line.cells[k].1)));
                table.row(row);
            }
        }
        table
    } else {
        let mut header = vec![figure.x_label(setup).to_string()];
        header.extend(lines.iter().map(|l| l.label.clone()));
        let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
        for x in xs {
            let mut row = vec![x.to_string()];
            for line in lines {
                row.push(line.cells.iter().find(|(cx, _)| *cx == x).map_or(String::new(), |(_, c)| cell_text(c)));
            }
            table.row(row);
        }
        table
    };
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
