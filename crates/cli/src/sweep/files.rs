//! The files a sweep writes: `PRESET-runs.csv` (one row per run), `PRESET-summary.csv` (one
//! row per policy, grid value and figure) and `PRESET.svg` (the figure).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use packlab_core::sweep::{Cell, SweepPlan};
use serde_json::Value;

use crate::output::write_svg;

/// Writes the three files into `dir`; returns their paths (runs, summary, chart).
pub fn write(plan: &SweepPlan, reports: &[Value], cells: &[Cell], dir: &Path) -> Result<Vec<PathBuf>> {
    let id = plan.setup.preset.id;
    let paths =
        vec![dir.join(format!("{id}-runs.csv")), dir.join(format!("{id}-summary.csv")), dir.join(format!("{id}.svg"))];
    write_runs(&paths[0], plan, reports)?;
    write_summary(&paths[1], plan, cells)?;
    write_svg(&paths[2], &packlab_plot::GraphChart::new(&plan.graph(cells)).chart())?;
    Ok(paths)
}

/// The summary CSV, policy-major, then grid value, then figure.
fn write_summary(path: &Path, plan: &SweepPlan, cells: &[Cell]) -> Result<()> {
    let context = || format!("writing {}", path.display());
    // The header is written here: its second column is named after the axis.
    let mut w = csv::WriterBuilder::new().has_headers(false).from_path(path).with_context(context)?;
    let header = ["policy", plan.axis, "reps", "metric", "value", "ci_lo", "ci_hi", "verdict", "analysis"];
    w.write_record(header).with_context(context)?;
    for row in plan.summary_rows(cells) {
        w.serialize(row).with_context(context)?;
    }
    w.flush().with_context(context)
}

/// The runs CSV: one row per run with the figures every model shares, then every number the
/// model's report adds (arrays as `key_1`, `key_2`, …), empty where a run has none.
fn write_runs(path: &Path, plan: &SweepPlan, reports: &[Value]) -> Result<()> {
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
    let axis = plan.axis;
    let flatten = |json: &Value| -> Vec<(String, String)> {
        let mut cells = Vec::new();
        if let Value::Object(map) = json {
            for (key, value) in map {
                if SHARED.contains(&key.as_str())
                    || key == axis
                    || matches!(key.as_str(), "verdict" | "growth" | "servers" | "arrival_rate" | "censored")
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
    // The axis's column after the policy; the load's there too when the axis is another key.
    let mut header: Vec<String> = vec!["preset".into(), "policy".into(), axis.into()];
    if axis != "load" {
        header.push("load".into());
    }
    header.extend(
        [
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
        .map(String::from),
    );
    header.extend(extra.iter().cloned());
    w.write_record(&header).with_context(context)?;
    let reps = plan.seeds.len() as u64;
    for ((i, json), cells) in reports.iter().enumerate().zip(&own) {
        let rep = i as u64 % reps;
        let get =
            |key: &str| json.get(key).map_or(String::new(), |v| v.as_str().map_or_else(|| v.to_string(), String::from));
        let ci = |i: usize| json.get("mean_queue_ci95").and_then(|v| v.get(i)).map_or(String::new(), Value::to_string);
        let mut record = vec![plan.setup.preset.id.to_string(), get("policy"), get(axis)];
        if axis != "load" {
            record.push(get("load"));
        }
        record.extend([rep.to_string(), get("seed"), get("horizon")]);
        record.extend([get("mean_queue"), ci(0), ci(1)]);
        record.extend(["final_queue", "mean_wait", "mean_occupancy", "arrivals", "started", "unstable"].map(get));
        record
            .extend(extra.iter().map(|k| cells.iter().find(|(c, _)| c == k).map_or(String::new(), |(_, v)| v.clone())));
        w.write_record(&record).with_context(context)?;
    }
    w.flush().with_context(context)
}
