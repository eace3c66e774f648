//! `packlab sweep` on PG-AS presets: Fig. 2 (U^(g) and U* against α, from the theory, no
//! simulation), Fig. 3 (DRA's normalised reward / U* and / U^(g) against L, replicated runs)
//! and Fig. 5 (each policy's normalised reward against L on a trace).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::metrics::mean_ci;
use packlab_core::models::pgas::theory::Rational;
use packlab_core::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::{Scenario, Setup, Sweep};
use packlab_core::sweep;
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark, Point};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

use crate::args::SweepArgs;
use crate::output::{Table, create_dir, labels, num, print_table, progress, write_svg};
use crate::setup::{replication_seeds, with};
use crate::shard::Grid;

pub fn command(
    args: &SweepArgs,
    setup: &Setup,
    explicit: &[String],
    warmup_note: Option<&str>,
    out: &mut dyn Write,
) -> Result<()> {
    let Scenario::Pgas(s) = &setup.scenario else { bail!("internal: not a PG-AS scenario") };
    let id = setup.preset.id;
    if s.bounds_only() {
        bail!("{id}: random collections have no sweep; run `packlab bounds --preset {id}` for their statistics");
    }
    let grid = match (&args.servers, &setup.preset.sweep) {
        (Some(text), _) => Some(parse_servers(text, setup)?),
        (None, Sweep::Servers { grid }) => Some(grid.clone()),
        (None, _) => None,
    };
    match grid {
        Some(servers) => {
            if args.load.is_some() {
                bail!("--load: a sweep against L runs at the scenario's load; set it with --set load=X");
            }
            against_servers(args, setup, &servers, warmup_note, out)
        }
        None => {
            if args.shard.is_some() || args.emit.is_some() {
                bail!("--shard, --emit: a sweep against α computes bounds from the theory, with no runs to share out");
            }
            if explicit.iter().any(|k| k == "load") {
                bail!("--set load: a sweep against α sets the load itself; give the grid with --load A,B,...");
            }
            against_alpha(args, setup, out)
        }
    }
}

fn parse_servers(text: &str, setup: &Setup) -> Result<Vec<u32>> {
    let mut servers = Vec::new();
    for entry in text.split(',').map(str::trim) {
        if entry.is_empty() {
            bail!("--servers: empty entry in '{text}'; give server counts separated by commas");
        }
        let s = with(&setup.scenario, "servers", entry).map_err(|e| anyhow!("--servers: {e}"))?;
        s.validate().map_err(|e| anyhow!("--servers {entry}: {e}"))?;
        servers.push(entry.parse().expect("checked by the scenario"));
    }
    servers.sort_unstable();
    servers.dedup();
    Ok(servers)
}

/// One row of `<preset>-bounds.csv`.
#[derive(Debug, Serialize)]
struct BoundsRow {
    alpha: f64,
    greedy_reward: f64,
    optimal_reward: f64,
    ratio: f64,
}

/// Fig. 2: U^(g)\[αρ\] and U*\[αρ\] against α, from the theory.
fn against_alpha(args: &SweepArgs, setup: &Setup, out: &mut dyn Write) -> Result<()> {
    let Scenario::Pgas(s) = &setup.scenario else { bail!("internal: not a PG-AS scenario") };
    let id = setup.preset.id;
    let Some(instance) = s.instance()? else {
        bail!("{id}: a trace has no static bounds to sweep; sweep it against L with --servers L,...");
    };
    let alphas: Vec<f64> = match &args.load {
        Some(text) => {
            let mut v = Vec::new();
            for entry in text.split(',').map(str::trim) {
                let scenario = with(&setup.scenario, "load", entry).map_err(|e| anyhow!("--load: {e}"))?;
                v.push(scenario.load());
            }
            v.sort_by(f64::total_cmp);
            v.dedup();
            v
        }
        None => crate::sweep::parse_loads(None, setup)?,
    };
    create_dir(&args.out)?;
    let rho = s.base_rho(instance.types());
    let points = instance.sweep(&rho, &alphas).map_err(|e| anyhow!("{id}: {e}"))?;
    let csv_path = args.out.join(format!("{id}-bounds.csv"));
    let svg_path = args.out.join(format!("{id}.svg"));
    write_csv(
        &csv_path,
        points.iter().map(|p| BoundsRow {
            alpha: p.alpha,
            greedy_reward: p.greedy_reward,
            optimal_reward: p.optimal_reward,
            ratio: p.ratio,
        }),
    )?;

    let greedy: Vec<Point> = points.iter().map(|p| Point::new(p.alpha, p.greedy_reward)).collect();
    let optimal: Vec<Point> = points.iter().map(|p| Point::new(p.alpha, p.optimal_reward)).collect();
    let (lo, hi) = (alphas[0], alphas[alphas.len() - 1]);
    let marks: Vec<_> = setup.scenario.marks().into_iter().filter(|m| m.load >= lo && m.load <= hi).collect();
    let mark_labels: Vec<String> = marks.iter().map(|m| format!("α = {}", packlab_plot::tick(m.load))).collect();
    let meanings: Vec<&str> = marks.iter().map(|m| m.label.as_str()).collect();
    let x_label = if marks.is_empty() {
        "workload scale α (ρ → αρ)".to_string()
    } else {
        format!("workload scale α (ρ → αρ)   (dashed: {})", meanings.join("; "))
    };
    let title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    let chart = Chart {
        title: &title,
        x_label: &x_label,
        y_label: "reward per server",
        curves: vec![
            Curve { label: "U* (LP 7)", color: Ink::Policy(0), points: &optimal, markers: false },
            Curve { label: "U^(g) (global greedy)", color: Ink::Policy(1), points: &greedy, markers: false },
        ],
        x_marks: marks.iter().zip(&mark_labels).map(|(m, label)| Mark::new(m.load, label)).collect(),
        legend: LegendAt::LowerRight,
        ..Chart::default()
    };
    write_svg(&svg_path, &chart)?;

    let p = &setup.preset;
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    writeln!(out, "{} values of α, ρ = ({}); bounds from the theory, no simulation\n", points.len(), rho_text(&rho))?;
    let mut table = Table::new(&["α", "U^(g)", "U*", "U^(g)/U*"]);
    for p in &points {
        table.row(vec![
            packlab_plot::tick(p.alpha),
            format!("{:.3}", p.greedy_reward),
            format!("{:.3}", p.optimal_reward),
            format!("{:.6}", p.ratio),
        ]);
    }
    print_table(&table, out)?;
    let worst = points.iter().min_by(|a, b| a.ratio.total_cmp(&b.ratio)).expect("at least one point");
    writeln!(out, "\nworst ratio {:.6} at α = {}", worst.ratio, packlab_plot::tick(worst.alpha))?;
    writeln!(out, "wrote {}", csv_path.display())?;
    writeln!(out, "wrote {}", svg_path.display())?;
    Ok(())
}

fn rho_text(rho: &[Rational]) -> String {
    rho.iter().map(|q| q.to_string()).collect::<Vec<_>>().join(", ")
}

/// One row of `<preset>-runs.csv`.
#[derive(Debug, Serialize)]
struct RunRow<'a> {
    preset: &'a str,
    policy: String,
    servers: u32,
    rep: u64,
    seed: u64,
    normalized_reward: f64,
    ci_lo: f64,
    ci_hi: f64,
    ratio_to_optimal: Option<f64>,
    ratio_to_greedy: Option<f64>,
    blocking: f64,
    migrations: u64,
    preemptions: u64,
    reconfigurations: u64,
    arrivals: u64,
}

/// One row of `<preset>-summary.csv`: the replications of one (policy, L) cell.
#[derive(Debug, Clone, Serialize)]
struct SummaryRow {
    policy: String,
    servers: u32,
    reps: usize,
    normalized_reward: f64,
    ci_lo: f64,
    ci_hi: f64,
    ratio_to_optimal: Option<f64>,
    ratio_to_optimal_lo: Option<f64>,
    ratio_to_optimal_hi: Option<f64>,
    ratio_to_greedy: Option<f64>,
    ratio_to_greedy_lo: Option<f64>,
    ratio_to_greedy_hi: Option<f64>,
    blocking: f64,
}

/// Figs. 3 and 5: replicated runs at each L.
fn against_servers(
    args: &SweepArgs,
    setup: &Setup,
    servers: &[u32],
    warmup_note: Option<&str>,
    out: &mut dyn Write,
) -> Result<()> {
    let grid = Grid::Servers { servers: servers.to_vec() };
    if let Some(kind) = args.emit {
        return crate::sweep::emit(args, setup, &grid, kind, out);
    }
    let seeds = replication_seeds(setup.scenario.seed(), args.reps)?;
    create_dir(&args.out)?;
    let id = setup.preset.id;
    let tasks: Vec<(&PolicySpec, u32, u64)> = setup
        .policies
        .iter()
        .flat_map(|p| servers.iter().flat_map(move |&l| (0..args.reps).map(move |r| (p, l, r))))
        .collect();
    let mine = args.shard.map_or_else(|| (0..tasks.len()).collect(), |s| s.runs(tasks.len()));
    let bar = progress(mine.len() as u64, id);
    let reports = mine
        .par_iter()
        .map(|&i| {
            let (policy, l, rep) = tasks[i];
            let seed = seeds[rep as usize];
            let scenario = sweep::point(&setup.scenario, sweep::Axis::Servers, f64::from(l), seed)?;
            let outcome =
                run(id, &scenario, policy).with_context(|| format!("policy {policy} at L = {l}, seed {seed}"))?;
            bar.inc(1);
            Ok(serde_json::to_value(&outcome.report)?)
        })
        .collect::<Result<Vec<Value>>>();
    bar.finish_and_clear();
    let reports = reports?;
    if let Some(shard) = args.shard {
        let note = warmup_note.map(String::from);
        return crate::sweep::write_shard(args, setup, grid, shard, tasks.len(), note, &mine, &reports, out);
    }
    finish_servers(setup, warmup_note, servers, args.reps, &reports, &args.out, out)
}

/// What a sweep against L reads of a PG-AS run's `run --json` report.
struct ServerRun {
    policy: String,
    servers: u32,
    seed: u64,
    arrivals: u64,
    normalized_reward: f64,
    normalized_reward_ci95: [f64; 2],
    greedy_reward: Option<f64>,
    optimal_reward: Option<f64>,
    ratio_to_optimal: Option<f64>,
    ratio_to_greedy: Option<f64>,
    overall_blocking: f64,
    migrations: u64,
    preemptions: u64,
    reconfigurations: u64,
}

impl ServerRun {
    fn from_json(id: &str, json: &Value) -> Result<Self> {
        let missing = |key: &str| anyhow!("{id}: a sweep against L needs a PG-AS preset (a run without '{key}')");
        let field = |key: &str| json.get(key).ok_or_else(|| missing(key));
        // JSON writes a NaN as null.
        let number = |key: &str| field(key).map(|v| v.as_f64().unwrap_or(f64::NAN));
        let count = |key: &str| field(key).and_then(|v| v.as_u64().ok_or_else(|| missing(key)));
        let optional = |key: &str| json.get(key).and_then(Value::as_f64);
        let ci = field("normalized_reward_ci95")?;
        let end = |i: usize| ci.get(i).map_or(f64::NAN, |v| v.as_f64().unwrap_or(f64::NAN));
        Ok(Self {
            policy: field("policy")?.as_str().ok_or_else(|| missing("policy"))?.to_string(),
            servers: u32::try_from(count("servers")?).map_err(|_| missing("servers"))?,
            seed: count("seed")?,
            arrivals: count("arrivals")?,
            normalized_reward: number("normalized_reward")?,
            normalized_reward_ci95: [end(0), end(1)],
            greedy_reward: optional("greedy_reward"),
            optimal_reward: optional("optimal_reward"),
            ratio_to_optimal: optional("ratio_to_optimal"),
            ratio_to_greedy: optional("ratio_to_greedy"),
            overall_blocking: number("overall_blocking")?,
            migrations: count("migrations")?,
            preemptions: count("preemptions")?,
            reconfigurations: count("reconfigurations")?,
        })
    }
}

/// Writes a sweep against L's CSV files and chart and prints its table, from the `run --json`
/// reports of its runs in the sweep's order (policy-major, then L, then replication): the
/// same bytes whether the runs were made here or in shards.
pub fn finish_servers(
    setup: &Setup,
    _warmup_note: Option<&str>,
    servers: &[u32],
    reps: u64,
    reports: &[Value],
    dir: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let id = setup.preset.id;
    let expected = setup.policies.len() * servers.len() * reps as usize;
    if reports.len() != expected {
        bail!("{} runs for {expected} (policies × server counts × replications)", reports.len());
    }
    let all: Vec<ServerRun> = reports.iter().map(|r| ServerRun::from_json(id, r)).collect::<Result<_>>()?;
    let runs_path = dir.join(format!("{id}-runs.csv"));
    let summary_path = dir.join(format!("{id}-summary.csv"));
    let svg_path = dir.join(format!("{id}.svg"));
    write_csv(
        &runs_path,
        all.iter().enumerate().map(|(i, m)| RunRow {
            preset: id,
            policy: m.policy.clone(),
            servers: m.servers,
            rep: i as u64 % reps,
            seed: m.seed,
            normalized_reward: m.normalized_reward,
            ci_lo: m.normalized_reward_ci95[0],
            ci_hi: m.normalized_reward_ci95[1],
            ratio_to_optimal: m.ratio_to_optimal,
            ratio_to_greedy: m.ratio_to_greedy,
            blocking: m.overall_blocking,
            migrations: m.migrations,
            preemptions: m.preemptions,
            reconfigurations: m.reconfigurations,
            arrivals: m.arrivals,
        }),
    )?;

    let summary: Vec<SummaryRow> = all
        .chunks(reps as usize)
        .map(|ms| {
            let ci = mean_ci(&ms.iter().map(|m| m.normalized_reward).collect::<Vec<_>>());
            let [lo, hi] = if ms.len() == 1 { ms[0].normalized_reward_ci95 } else { [ci.lo, ci.hi] };
            let scale = |v: f64, r: Option<f64>| r.map(|r| v / r);
            SummaryRow {
                policy: ms[0].policy.clone(),
                servers: ms[0].servers,
                reps: ms.len(),
                normalized_reward: ci.mean,
                ci_lo: lo,
                ci_hi: hi,
                ratio_to_optimal: scale(ci.mean, ms[0].optimal_reward),
                ratio_to_optimal_lo: scale(lo, ms[0].optimal_reward),
                ratio_to_optimal_hi: scale(hi, ms[0].optimal_reward),
                ratio_to_greedy: scale(ci.mean, ms[0].greedy_reward),
                ratio_to_greedy_lo: scale(lo, ms[0].greedy_reward),
                ratio_to_greedy_hi: scale(hi, ms[0].greedy_reward),
                blocking: ms.iter().map(|m| m.overall_blocking).sum::<f64>() / ms.len() as f64,
            }
        })
        .collect();
    write_csv(&summary_path, summary.iter().cloned())?;
    let first = &all[0];
    let reference = first.greedy_reward.zip(first.optimal_reward);
    let names = labels(&setup.policies, &setup.scenario);
    let cells = |p: usize| &summary[p * servers.len()..(p + 1) * servers.len()];

    // The chart: ratios to both bounds where the scenario has them (Fig. 3), else rewards (Fig. 5).
    let point = |x: u32, y: f64, ci: Option<[f64; 2]>| Point {
        x: f64::from(x),
        y,
        interval: ci.filter(|c| c[0].is_finite() && c[1].is_finite()).map(|c| (c[0], c[1])),
    };
    let mut curves_data: Vec<(String, usize, bool, Vec<Point>)> = Vec::new();
    for (p, name) in names.iter().enumerate() {
        let rows = cells(p);
        if reference.is_some() {
            let ci = |lo: Option<f64>, hi: Option<f64>| lo.zip(hi).map(|(a, b)| [a, b]);
            let to_greedy = rows
                .iter()
                .map(|r| {
                    point(
                        r.servers,
                        r.ratio_to_greedy.unwrap_or(f64::NAN),
                        ci(r.ratio_to_greedy_lo, r.ratio_to_greedy_hi),
                    )
                })
                .collect();
            let to_optimal = rows
                .iter()
                .map(|r| {
                    point(
                        r.servers,
                        r.ratio_to_optimal.unwrap_or(f64::NAN),
                        ci(r.ratio_to_optimal_lo, r.ratio_to_optimal_hi),
                    )
                })
                .collect();
            curves_data.push((format!("{name} / U^(g)"), p, true, to_greedy));
            curves_data.push((format!("{name} / U*"), p, false, to_optimal));
        } else {
            let rewards =
                rows.iter().map(|r| point(r.servers, r.normalized_reward, Some([r.ci_lo, r.ci_hi]))).collect();
            curves_data.push((name.clone(), p, true, rewards));
        }
    }
    let ratio_label = reference.map(|(g, o)| format!("U^(g)/U* = {:.3}", g / o));
    let mut y_marks = Vec::new();
    if let (Some((g, o)), Some(label)) = (reference, &ratio_label) {
        y_marks.push(Mark::new(1.0, "1"));
        y_marks.push(Mark::new(g / o, label));
    }
    let title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    let (lo, hi) = (f64::from(servers[0]), f64::from(servers[servers.len() - 1]));
    let span = (hi - lo).max(1.0);
    let y_label =
        if reference.is_some() { "normalised reward / U^(g) (marked) and / U*" } else { "normalised reward R/L" };
    let chart = Chart {
        title: &title,
        x_label: "servers L",
        y_label,
        curves: curves_data
            .iter()
            .map(|(label, color, markers, points)| Curve {
                label,
                color: Ink::Policy(*color),
                points,
                markers: *markers,
            })
            .collect(),
        y_marks,
        x_range: Some((lo - 0.03 * span, hi + 0.05 * span)),
        legend: LegendAt::LowerRight,
        ..Chart::default()
    };
    write_svg(&svg_path, &chart)?;

    let p = &setup.preset;
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    writeln!(
        out,
        "{} values of L × {} × {} replication(s) (seeds from {}) · horizon {} · warm-up {} · α = {}",
        servers.len(),
        if setup.policies.len() == 1 { "1 policy".to_string() } else { format!("{} policies", setup.policies.len()) },
        reps,
        setup.scenario.seed(),
        setup.scenario.horizon(),
        setup.scenario.get("warmup").unwrap_or_default(),
        setup.scenario.load()
    )?;
    if let Some((g, o)) = reference {
        writeln!(
            out,
            "U^(g) = {}, U* = {} per server; cells: reward/L, / U^(g), / U* (± half-width of the 95% interval)\n",
            num(g),
            num(o)
        )?;
    } else {
        writeln!(out, "cells: normalised reward R/L ± half-width of its 95% interval\n")?;
    }
    let mut header = vec!["L".to_string()];
    header.extend(names.iter().cloned());
    let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
    for (k, &l) in servers.iter().enumerate() {
        let mut row = vec![l.to_string()];
        for p in 0..names.len() {
            let r = &cells(p)[k];
            let half = (r.ci_hi - r.ci_lo) / 2.0;
            let spread = if half.is_finite() { format!(" ±{}", num(half)) } else { String::new() };
            let ratios = match (r.ratio_to_greedy, r.ratio_to_optimal) {
                (Some(g), Some(o)) => format!(", {g:.4}, {o:.4}"),
                _ => String::new(),
            };
            row.push(format!("{}{spread}{ratios}", num(r.normalized_reward)));
        }
        table.row(row);
    }
    print_table(&table, out)?;
    writeln!(out)?;
    writeln!(out, "wrote {} ({} runs)", runs_path.display(), reports.len())?;
    writeln!(out, "wrote {}", summary_path.display())?;
    writeln!(out, "wrote {}", svg_path.display())?;
    Ok(())
}

fn write_csv<R: Serialize>(path: &Path, rows: impl Iterator<Item = R>) -> Result<()> {
    let context = || format!("writing {}", path.display());
    let mut w = csv::Writer::from_path(path).with_context(context)?;
    for row in rows {
        w.serialize(row).with_context(context)?;
    }
    w.flush().with_context(context)
}
