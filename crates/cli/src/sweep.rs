//! `packlab sweep`: a paper figure from replicated runs over a grid, as the preset defines it
//! ([`Sweep`]): a figure of the runs against the load (PG-RR Fig. 4, MSFQ Figs. 2, 3, 5, 6,
//! GH-RA Figs. 1, 2, 4, 5), a figure against a policy parameter, one curve per load (MSFQ
//! Fig. 4), or PG-AS's sweeps against L and its bounds against α ([`crate::sweep_pgas`]).
//!
//! Figures are read from the runs' JSON reports by field name, so a sweep needs to know
//! nothing of the model whose runs it plots.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::{Figure, Plot, Setup, Sweep, encode_link};
use packlab_core::sweep::{self, GridError, SweepRun};
use packlab_plot::{Chart, Curve, Ink, Mark, Point};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use crate::args::{MergeArgs, ScenarioArgs, SweepArgs};
use crate::output::{Table, create_dir, labels, num, print_table, progress, write_svg};
use crate::setup::{Resolved, replication_seeds, resolve};
use crate::shard::{self, Emit, Grid, Header, Shard};

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
    /// The paper's analysis of the figure at this load, where the runs carry one (MSFQ's
    /// SPEC 5.6 for MSF and MSFQ).
    analysis: Option<f64>,
}

/// The layout of a sweep's chart and table.
#[derive(Debug, Clone, PartialEq)]
enum Layout {
    /// One curve per policy and figure against the load.
    AgainstLoad { figures: Vec<Figure>, y_label: &'static str },
    /// `figure` against the policies' value of parameter `key`, one curve per load.
    AgainstParameter { key: &'static str, axis: &'static str, figure: Figure },
}

/// One curve of a sweep: its cells with their x values.
struct Line<'a> {
    label: String,
    color: usize,
    markers: bool,
    cells: Vec<(f64, &'a SummaryRow)>,
}

impl Layout {
    /// What the preset's plot becomes for the chosen policies: against a parameter only when
    /// every policy has it.
    fn of(setup: &Setup, plot: Plot) -> Self {
        match plot {
            Plot::Curves { figures, y_label } => Self::AgainstLoad { figures: figures.to_vec(), y_label },
            Plot::AgainstParameter { key, axis, figure } => {
                if setup.policies.iter().all(|p| p.meta().params.iter().any(|param| param.key == key)) {
                    Self::AgainstParameter { key, axis, figure }
                } else {
                    Self::AgainstLoad { figures: vec![figure], y_label: figure.label }
                }
            }
        }
    }

    /// The figures summarised per cell, in the order of the summary rows.
    fn figures(&self) -> Vec<Figure> {
        match self {
            Self::AgainstLoad { figures, .. } => figures.clone(),
            Self::AgainstParameter { figure, .. } => vec![*figure],
        }
    }

    fn x_label(&self, setup: &Setup) -> &'static str {
        match self {
            Self::AgainstParameter { axis, .. } => axis,
            Self::AgainstLoad { .. } => setup.scenario.info().load.axis,
        }
    }

    fn y_label(&self) -> &'static str {
        match self {
            Self::AgainstLoad { y_label, .. } => y_label,
            Self::AgainstParameter { figure, .. } => figure.label,
        }
    }

    /// Several figures per policy (MSFQ Fig. 3's phases): one colour per figure.
    fn grouped(&self) -> bool {
        matches!(self, Self::AgainstLoad { figures, .. } if figures.len() > 1)
    }

    /// The curves of `summary` (policy-major, then load, then figure).
    fn lines<'a>(&self, setup: &Setup, loads: &[f64], summary: &'a [SummaryRow]) -> Vec<Line<'a>> {
        let names = labels(&setup.policies, &setup.scenario);
        let per_cell = self.figures().len();
        let cell =
            |policy: usize, load: usize, figure: usize| &summary[(policy * loads.len() + load) * per_cell + figure];
        let by_load = |policy: usize, figure: usize| -> Vec<(f64, &'a SummaryRow)> {
            loads.iter().enumerate().map(|(k, &x)| (x, cell(policy, k, figure))).collect()
        };
        match self {
            Self::AgainstLoad { figures, .. } if figures.len() == 1 => names
                .into_iter()
                .enumerate()
                .map(|(p, label)| Line { label, color: p, markers: true, cells: by_load(p, 0) })
                .collect(),
            // Colour says the figure; markers tell the policies apart (the first without).
            Self::AgainstLoad { figures, .. } => names
                .iter()
                .enumerate()
                .flat_map(|(p, name)| {
                    figures.iter().enumerate().map(move |(i, f)| Line {
                        label: format!("{name} {}", f.label),
                        color: i,
                        markers: p > 0,
                        cells: by_load(p, i),
                    })
                })
                .collect(),
            &Self::AgainstParameter { key, .. } => {
                let value = |p: &PolicySpec| {
                    setup.scenario.policy_param(p, key).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN)
                };
                let mut order: Vec<usize> = (0..setup.policies.len()).collect();
                order.sort_by(|&a, &b| value(&setup.policies[a]).total_cmp(&value(&setup.policies[b])));
                loads
                    .iter()
                    .enumerate()
                    .map(|(k, load)| Line {
                        label: format!("{} = {load}", setup.scenario.info().load.symbol),
                        color: k,
                        markers: true,
                        cells: order.iter().map(|&p| (value(&setup.policies[p]), cell(p, k, 0))).collect(),
                    })
                    .collect()
            }
        }
    }
}

pub fn command(args: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    let Resolved { setup, explicit, warmup_note } = resolve(&args.scenario)?;
    if let Some(note) = crate::setup::trace_reps_note(&args.scenario, args.reps) {
        eprintln!("{note}");
    }
    match &setup.preset.sweep {
        Sweep::Load { .. } => {}
        Sweep::Servers { .. } | Sweep::Theory { .. } => {
            return crate::sweep_pgas::command(args, &setup, &explicit, warmup_note.as_deref(), out);
        }
        Sweep::Unavailable(why) => bail!("{}: {why}", setup.preset.id),
    };
    if args.servers.is_some() {
        bail!("--servers: this preset sweeps the load (--load); sweeps against L are PG-AS's (pgas-c3, pgas-c5)");
    }
    if explicit.iter().any(|k| k == "load") {
        bail!("--set load: a sweep sets the load itself; give the grid with --load A,B,...");
    }
    let loads = parse_loads(args.load.as_deref(), &setup)?;
    let grid = Grid::Load { loads: loads.clone() };
    if let Some(kind) = args.emit {
        return emit(args, &setup, &grid, kind, out);
    }
    let seeds = replication_seeds(setup.scenario.seed(), args.reps)?;
    create_dir(&args.out)?;

    let tasks: Vec<(&PolicySpec, f64, u64)> = setup
        .policies
        .iter()
        .flat_map(|p| loads.iter().flat_map(move |&l| (0..args.reps).map(move |r| (p, l, r))))
        .collect();
    let mine = args.shard.map_or_else(|| (0..tasks.len()).collect(), |s| s.runs(tasks.len()));
    let bar = progress(mine.len() as u64, setup.preset.id);
    let reports = mine
        .par_iter()
        .map(|&i| {
            let (policy, load, rep) = tasks[i];
            let scenario = sweep::point(&setup.scenario, sweep::Axis::Load, load, seeds[rep as usize])?;
            let outcome = run(setup.preset.id, &scenario, policy)
                .with_context(|| format!("policy {policy} at load {load}, seed {}", seeds[rep as usize]))?;
            bar.inc(1);
            Ok(serde_json::to_value(&outcome.report)?)
        })
        .collect::<Result<Vec<Value>>>();
    bar.finish_and_clear();
    let reports = reports?;
    if let Some(shard) = args.shard {
        return write_shard(args, &setup, grid, shard, tasks.len(), warmup_note, &mine, &reports, out);
    }
    finish(&setup, warmup_note.as_deref(), &loads, args.reps, &reports, &args.out, out)
}

/// Writes the runs `runs` of a sharded sweep and says what the other shards and the merge are.
#[allow(clippy::too_many_arguments)]
pub fn write_shard(
    args: &SweepArgs,
    setup: &Setup,
    grid: Grid,
    shard: Shard,
    total: usize,
    warmup_note: Option<String>,
    runs: &[usize],
    reports: &[Value],
    out: &mut dyn Write,
) -> Result<()> {
    let header = Header {
        packlab: env!("CARGO_PKG_VERSION").to_string(),
        link: link_of(setup),
        trace_files: args.scenario.traces.clone(),
        trace_tasks: args.scenario.trace_tasks,
        grid,
        reps: args.reps,
        runs: total,
        shard: [shard.index, shard.count],
        warmup_note,
    };
    let path = shard::write(&args.out, setup.preset.id, &header, runs, reports)?;
    writeln!(out, "wrote {} ({} of the sweep's {total} runs, shard {shard})", path.display(), runs.len())?;
    writeln!(out, "when all {} shards are done: packlab merge DIR... --out DIR", shard.count)?;
    Ok(())
}

/// The sweep's scenario and policies as the link (`?…`) its shards and scripts carry.
fn link_of(setup: &Setup) -> String {
    format!("?{}", encode_link(&setup.preset, &setup.policies, &setup.scenario, &[]))
}

/// `--emit`: the script that runs the sweep in shards and merges them.
pub fn emit(args: &SweepArgs, setup: &Setup, grid: &Grid, kind: Emit, out: &mut dyn Write) -> Result<()> {
    let count = args.shards.context("--emit needs --shards N")?;
    let mut sweep_args = vec!["--link".to_string(), link_of(setup)];
    if !args.scenario.traces.is_empty() {
        sweep_args.push("--trace".to_string());
        sweep_args.extend(args.scenario.traces.iter().map(|t| t.display().to_string()));
    }
    if let Some(n) = args.scenario.trace_tasks {
        sweep_args.extend(["--trace-tasks".to_string(), n.to_string()]);
    }
    let list = |values: Vec<String>| values.join(",");
    match grid {
        Grid::Load { loads } => sweep_args.extend(["--load".into(), list(loads.iter().map(f64::to_string).collect())]),
        Grid::Servers { servers } => {
            sweep_args.extend(["--servers".into(), list(servers.iter().map(u32::to_string).collect())])
        }
    }
    sweep_args.extend(["--reps".into(), args.reps.to_string()]);
    write!(out, "{}", shard::emit(kind, setup.preset.id, &sweep_args, count, &args.out))?;
    Ok(())
}

/// `packlab merge`: the shards of one sweep, combined into its CSV files and chart.
pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<()> {
    let (header, reports) = shard::read(&args.paths)?;
    let scenario = ScenarioArgs {
        preset: None,
        link: Some(header.link.clone()),
        policies: Vec::new(),
        seed: None,
        horizon: None,
        sets: Vec::new(),
        classes_file: None,
        traces: header.trace_files.clone(),
        trace_tasks: header.trace_tasks,
    };
    let Resolved { setup, .. } = resolve(&scenario).context("the shards' sweep")?;
    create_dir(&args.out)?;
    let note = header.warmup_note.as_deref();
    match &header.grid {
        Grid::Load { loads } => finish(&setup, note, loads, header.reps, &reports, &args.out, out),
        Grid::Servers { servers } => {
            crate::sweep_pgas::finish_servers(&setup, note, servers, header.reps, &reports, &args.out, out)
        }
    }
}

/// Writes a load sweep's CSV files and chart and prints its table, from the `run --json`
/// reports of its runs in the sweep's order (policy-major, then load, then replication):
/// the same bytes whether the runs were made here or in shards.
pub fn finish(
    setup: &Setup,
    warmup_note: Option<&str>,
    loads: &[f64],
    reps: u64,
    reports: &[Value],
    dir: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let Sweep::Load { plot, .. } = &setup.preset.sweep else { bail!("{}: not a sweep of the load", setup.preset.id) };
    let expected = setup.policies.len() * loads.len() * reps as usize;
    if reports.len() != expected {
        bail!("{} runs for {expected} (policies × loads × replications)", reports.len());
    }
    let id = setup.preset.id;
    let [runs_path, summary_path, svg_path] = files(dir, id);
    write_runs(&runs_path, id, reps, reports)?;

    // Runs are policy-major, then load, then replication, so each cell is one chunk; its
    // summary rows follow in the layout's figure order.
    let layout = Layout::of(setup, *plot);
    let figures = layout.figures();
    let runs: Vec<SweepRun> = reports.iter().map(|r| SweepRun::from_json(r, &figures)).collect();
    let summary: Vec<SummaryRow> = reports
        .chunks(reps as usize)
        .zip(runs.chunks(reps as usize))
        .flat_map(|(cell, runs)| figures.iter().enumerate().map(move |(i, f)| summarise(cell, runs, i, f)))
        .collect::<Result<_>>()?;
    write_csv(&summary_path, summary.iter().cloned())?;
    let lines = layout.lines(setup, loads, &summary);
    write_chart(&svg_path, setup, &layout, loads, &lines)?;

    print_summary(setup, warmup_note, &layout, loads, reps, &lines, out)?;
    writeln!(out)?;
    writeln!(out, "wrote {} ({} runs)", runs_path.display(), reports.len())?;
    writeln!(out, "wrote {}", summary_path.display())?;
    writeln!(out, "wrote {}", svg_path.display())?;
    Ok(())
}

/// The loads of the grid, each checked by the scenario's own `load` key and relations, then
/// sorted (the chart's x axis) with duplicates removed.
pub fn parse_loads(text: Option<&str>, setup: &Setup) -> Result<Vec<f64>> {
    let range = setup.scenario.keys().into_iter().find(|k| k.key == "load").map_or(String::new(), |k| k.range);
    let entries: Vec<String> = match text {
        Some(text) => text.split(',').map(|s| s.trim().to_string()).collect(),
        None => match &setup.preset.sweep {
            Sweep::Load { grid, .. } | Sweep::Theory { grid } => grid.iter().map(|l| l.to_string()).collect(),
            Sweep::Servers { .. } | Sweep::Unavailable(_) => vec![setup.scenario.load().to_string()],
        },
    };
    sweep::parse_loads(&entries.join(","), &setup.scenario).map_err(|e| match e {
        GridError::EmptyEntry => {
            anyhow!("--load: empty entry in '{}'; give loads separated by commas, each {range}", text.unwrap_or(""))
        }
        GridError::Rejected(e) => anyhow!("--load: {e}"),
        GridError::Invalid { entry, error } => anyhow!("--load {entry}: {error}"),
    })
}

/// The replications of one cell, figure `index` of `figures`, summarised as the page's sweep
/// view summarises them ([`packlab_core::sweep::summarise`]).
fn summarise(cell: &[Value], runs: &[SweepRun], index: usize, figure: &Figure) -> Result<SummaryRow> {
    let first = cell.first().context("internal: an empty cell")?;
    let summary = sweep::summarise(runs, index).context("internal: an empty cell")?;
    Ok(SummaryRow {
        policy: first.get("policy").and_then(Value::as_str).context("a run without its policy")?.to_string(),
        load: first.get("load").and_then(Value::as_f64).context("a run without its load")?,
        reps: summary.reps,
        metric: figure.label,
        value: summary.value,
        ci_lo: summary.ci[0],
        ci_hi: summary.ci[1],
        unstable_reps: summary.unstable_reps,
        analysis: summary.analysis,
    })
}

/// `<preset>-runs.csv`: one row per run with the figures every model shares, then every
/// number the model's report adds (arrays as `key_1`, `key_2`, …), empty where a run has none.
fn write_runs(path: &Path, id: &str, reps: u64, reports: &[Value]) -> Result<()> {
    const SHARED: [&str; 14] = [
        "policy",
        "load",
        "seed",
        "horizon",
        "mean_queue",
        "mean_queue_ci95",
        "final_queue",
        "mean_wait",
        "mean_occupancy",
        "arrivals",
        "started",
        "unstable",
        "preset",
        "warmup",
    ];
    let flatten = |json: &Value| -> Vec<(String, String)> {
        let mut cells = Vec::new();
        if let Value::Object(map) = json {
            for (key, value) in map {
                if SHARED.contains(&key.as_str())
                    || matches!(key.as_str(), "trend" | "servers" | "arrival_rate" | "censored")
                {
                    continue;
                }
                match value {
                    Value::Number(n) => cells.push((key.clone(), n.to_string())),
                    Value::Bool(b) => cells.push((key.clone(), b.to_string())),
                    Value::Array(items) if items.iter().all(Value::is_number) => {
                        cells.extend(items.iter().enumerate().map(|(i, v)| (format!("{key}_{}", i + 1), v.to_string())))
                    }
                    _ => {}
                }
            }
        }
        cells
    };
    let own: Vec<Vec<(String, String)>> = reports.iter().map(flatten).collect();
    let mut extra: Vec<String> = Vec::new();
    for (key, _) in own.iter().flatten() {
        if !extra.contains(key) {
            extra.push(key.clone());
        }
    }
    let context = || format!("writing {}", path.display());
    let mut w = csv::Writer::from_path(path).with_context(context)?;
    let mut header: Vec<String> = [
        "preset",
        "policy",
        "load",
        "rep",
        "seed",
        "horizon",
        "mean_queue",
        "ci_lo",
        "ci_hi",
        "final_queue",
        "mean_wait",
        "mean_occupancy",
        "arrivals",
        "started",
        "unstable",
    ]
    .map(String::from)
    .to_vec();
    header.extend(extra.iter().cloned());
    w.write_record(&header).with_context(context)?;
    for ((i, json), cells) in reports.iter().enumerate().zip(&own) {
        let rep = i as u64 % reps;
        let get =
            |key: &str| json.get(key).map_or(String::new(), |v| v.as_str().map_or_else(|| v.to_string(), String::from));
        let ci = |i: usize| json.get("mean_queue_ci95").and_then(|v| v.get(i)).map_or(String::new(), Value::to_string);
        let mut record = vec![id.to_string(), get("policy"), get("load"), rep.to_string(), get("seed"), get("horizon")];
        record.extend([get("mean_queue"), ci(0), ci(1)]);
        record.extend(["final_queue", "mean_wait", "mean_occupancy", "arrivals", "started", "unstable"].map(get));
        record
            .extend(extra.iter().map(|k| cells.iter().find(|(c, _)| c == k).map_or(String::new(), |(_, v)| v.clone())));
        w.write_record(&record).with_context(context)?;
    }
    w.flush().with_context(context)
}

fn write_csv<R: Serialize>(path: &Path, rows: impl Iterator<Item = R>) -> Result<()> {
    let context = || format!("writing {}", path.display());
    let mut w = csv::Writer::from_path(path).with_context(context)?;
    for row in rows {
        w.serialize(row).with_context(context)?;
    }
    w.flush().with_context(context)
}

/// The theory's marks inside the swept range, or just past its end (within 10% of the grid's
/// largest load: the curves blow up towards such a bound, and the line says why), left to
/// right: (load, short symbol for the chart, meaning for the axis caption).
fn marks(setup: &Setup, loads: &[f64]) -> Vec<(f64, &'static str, String)> {
    let (lo, hi) = (loads[0], loads[loads.len() - 1]);
    let mut marks: Vec<_> = setup
        .scenario
        .marks()
        .into_iter()
        .filter(|m| m.load >= lo - 1e-9 && m.load <= hi / 0.9 + 1e-9)
        .map(|m| (m.load, m.short, m.label))
        .collect();
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));
    marks
}

fn write_chart(path: &Path, setup: &Setup, layout: &Layout, loads: &[f64], lines: &[Line<'_>]) -> Result<()> {
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
    // not at low load, where its approximations fail). A chart of several figures per policy
    // has curves enough already; its analysis is in the table and the summary CSV.
    let analysis: Vec<(usize, String, Vec<Point>)> = if layout.grouped() {
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
    let marks = match layout {
        Layout::AgainstParameter { .. } => Vec::new(),
        Layout::AgainstLoad { .. } => marks(setup, loads),
    };
    let mut x_label = layout.x_label(setup).to_string();
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
        y_label: &format!("{} (log scale)", layout.y_label()),
        curves: lines
            .iter()
            .zip(&points)
            // A curve with nothing to draw (a phase the policy never visits) stays out of the legend.
            .filter(|(_, points)| !points.is_empty())
            .map(|(line, points)| Curve {
                label: &line.label,
                color: Ink::Policy(line.color),
                points,
                markers: line.markers,
            })
            .chain(analysis.iter().map(|(color, label, points)| Curve {
                label,
                color: Ink::Policy(*color),
                points,
                markers: false,
            }))
            .collect(),
        x_marks: marks.iter().map(|&(value, label, _)| Mark::new(value, label)).collect(),
        log_y: true,
        x_range: Some((lo - 0.03 * span, hi + 0.08 * span)),
        ..Chart::default()
    };
    write_svg(path, &chart)
}

fn print_summary(
    setup: &Setup,
    warmup_note: Option<&str>,
    layout: &Layout,
    loads: &[f64],
    reps: u64,
    lines: &[Line<'_>],
    out: &mut dyn Write,
) -> Result<()> {
    let p = &setup.preset;
    let unit = setup.scenario.time_unit().plural();
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    writeln!(
        out,
        "{} × {} × {} (seeds from {}) · horizon {} {unit} · warm-up {} {unit}",
        plural(loads.len() as u64, "load"),
        plural(setup.policies.len() as u64, "policy"),
        plural(reps, "replication"),
        setup.scenario.seed(),
        setup.scenario.horizon(),
        setup.scenario.warmup()
    )?;
    if let Some(note) = warmup_note {
        writeln!(out, "({note})")?;
    }
    let interval = if reps > 1 { "Student t over the replications" } else { "batch means of the run" };
    writeln!(
        out,
        "\n{} ± half-width of its 95% interval ({interval}); * = unstable in most replications",
        layout.y_label()
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
    let table = if layout.grouped() {
        // One row per load and policy, one column per figure: all curves side by side would
        // not fit a terminal.
        let figures = layout.figures();
        let mut header = vec![layout.x_label(setup).to_string(), "policy".to_string()];
        header.extend(figures.iter().map(|f| f.label.to_string()));
        let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
        for (k, x) in xs.iter().enumerate() {
            for (policy, group) in labels(&setup.policies, &setup.scenario).iter().zip(lines.chunks(figures.len())) {
                let mut row = vec![x.to_string(), policy.clone()];
                row.extend(group.iter().map(|line| cell_text(line.cells[k].1)));
                table.row(row);
            }
        }
        table
    } else {
        let mut header = vec![layout.x_label(setup).to_string()];
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
    print_table(&table, out)?;
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
    use crate::args::ScenarioArgs;

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "policy"), "1 policy");
        assert_eq!(plural(3, "policy"), "3 policies");
        assert_eq!(plural(2, "load"), "2 loads");
    }

    #[test]
    fn marks_inside_the_range_and_the_bound_near_it() {
        let args = ScenarioArgs {
            preset: Some("pgrr-a1".into()),
            link: None,
            policies: vec![],
            seed: None,
            horizon: None,
            sets: vec![],
            classes_file: None,
            traces: Vec::new(),
            trace_tasks: None,
        };
        let setup = resolve(&args).unwrap().setup;
        let loads = |v: &[f64]| marks(&setup, v).into_iter().map(|(l, _, _)| l).collect::<Vec<_>>();
        assert_eq!(loads(&[0.85, 0.99]), [1.0]);
        assert_eq!(loads(&[0.5, 0.7]), [0.5, 2.0 / 3.0]);
        assert_eq!(loads(&[0.6, 0.95]), [2.0 / 3.0, 1.0]);
        assert_eq!(loads(&[0.5, 0.9]), [0.5, 2.0 / 3.0, 1.0]);
        assert!(loads(&[0.7, 0.8]).is_empty());
    }
}
