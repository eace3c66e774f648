//! `packlab sweep` and `packlab merge`: a paper figure from replicated runs over a grid of one
//! scenario key's values, as the preset defines it: a figure of the runs against the load
//! (PG-RR Fig. 4, MSFQ Figs. 2, 3, 5, 6, GH-RA Figs. 1, 2, 4, 5), against a policy parameter
//! (MSFQ Fig. 4), against the number of servers (PG-AS Figs. 3 and 5), or the theory's curves
//! without runs (PG-AS Fig. 2, [`theory`]).
//!
//! The runs, their order, seeds and scenarios, and how they become the figure are the core's
//! [`SweepPlan`]; this module runs them (in parallel, or one shard of them), writes the files
//! ([`files`]) and prints the table ([`table`]). Figures are read from the runs' JSON reports
//! by field name, so nothing here knows the model whose runs it plots.

mod files;
pub mod shards;
mod slurm;
mod table;
mod theory;

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::ConfigError;
use packlab_core::scenario::{Setup, Sweep};
use packlab_core::sweep::{REPS_KEY, SweepPlan};
use rayon::prelude::*;
use serde_json::Value;

use crate::args::{MergeArgs, ScenarioArgs, SweepArgs};
use crate::output::{create_dir, progress};
use crate::setup::{Resolved, resolve};

pub fn command(args: &SweepArgs, out: &mut dyn Write) -> Result<()> {
    let resolved = resolve(&args.scenario)?;
    // The core says how many replications a sweep makes unless told (one for a trace file).
    let (default_reps, reps_note) = SweepPlan::default_reps(&resolved.setup);
    let reps = args.reps.unwrap_or(default_reps);
    if let Some(note) = crate::setup::trace_reps_note(&args.scenario, reps) {
        eprintln!("{note}");
    }

    for note in &resolved.replay_notes {
        eprintln!("note: {note}");
    }
    let setup = &resolved.setup;
    if let Sweep::Theory { grid } = &setup.preset.sweep
        && args.servers.is_none()
    {
        if args.shard.is_some() || args.emit.kind.is_some() {
            bail!("--shard, --emit: a sweep of the theory has no runs to share out");
        }
        if resolved.explicit.iter().any(|k| k == "load") {
            bail!("--set load: a sweep against the load sets it itself; give the grid with --load A,B,...");
        }
        return theory::command(setup, args.load.as_deref(), grid, &args.out, out);
    }
    let plan = plan(&resolved, args, reps)?;
    // What the sweep chose for itself, said with its table (on stderr when stdout is a script).
    let notes = plan.grid_note().into_iter().chain(reps_note.filter(|_| args.reps.is_none()).map(String::from));
    for note in notes {
        match args.emit.kind {
            Some(_) => eprintln!("note: {note}"),
            None => writeln!(out, "({note})")?,
        }
    }
    if let Some(kind) = args.emit.kind {
        return shards::emit(args, &plan, kind, out);
    }
    create_dir(&args.out)?;
    let mine = args.shard.map_or_else(|| (0..plan.len()).collect(), |s| s.runs(plan.len()));
    let reports = run(&plan, &mine)?;
    if let Some(shard) = args.shard {
        return shards::write(args, &plan, shard, resolved.warmup_note, &mine, &reports, out);
    }
    finish(&plan, resolved.warmup_note.as_deref(), &reports, &args.out, out)
}

/// The sweep's plan: the axis and grid from the flags (`--load`, `--servers`) or the preset's,
/// checked by the scenario's keys; errors name the flag.
fn plan(resolved: &Resolved, args: &SweepArgs, reps: u64) -> Result<SweepPlan> {
    let (axis, grid, flag) = match (&args.load, &args.servers) {
        (Some(_), Some(_)) => bail!("--load, --servers: a sweep has one axis; give one of them"),
        (Some(loads), None) => (Some("load"), Some(loads.as_str()), "--load"),
        (None, Some(servers)) => (Some("servers"), Some(servers.as_str()), "--servers"),
        (None, None) => (None, None, "sweep"),
    };
    let axis_key = axis.or(match &resolved.setup.preset.sweep {
        Sweep::Runs { axis, .. } => Some(*axis),
        _ => None,
    });
    if let Some(key) = axis_key
        && resolved.explicit.iter().any(|k| k == key)
    {
        let flag = if key == "servers" { "--servers" } else { "--load" };
        bail!("--set {key}: a sweep sets {key} itself; give the grid with {flag} A,B,...");
    }
    SweepPlan::new(&resolved.setup, axis, grid, reps).map_err(|e: ConfigError| match e.key.as_str() {
        REPS_KEY => anyhow!("--reps: {}", e.message),
        "sweep" => anyhow!("{}", e.message),
        key if Some(key) == axis => anyhow!("{flag}: {key}: {}", e.message),
        key => anyhow!("{flag}: {key}: {}", e.message),
    })
}

/// Makes the runs `mine` of `plan`, in parallel, and returns their `run --json` reports.
fn run(plan: &SweepPlan, mine: &[usize]) -> Result<Vec<Value>> {
    let bar = progress(mine.len() as u64, plan.setup.preset.id);
    let reports = mine
        .par_iter()
        .map(|&i| {
            let task = plan.task(i);
            let outcome = plan.run(i).with_context(|| {
                format!(
                    "policy {} at {} {}, seed {}",
                    plan.setup.policies[task.policy], plan.axis, plan.values[task.value], plan.seeds[task.rep]
                )
            })?;
            bar.inc(1);
            Ok(serde_json::to_value(&outcome.report)?)
        })
        .collect::<Result<Vec<Value>>>();
    bar.finish_and_clear();
    reports
}

/// `packlab merge`: the shards of one sweep, combined into its CSV files and chart.
pub fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<()> {
    let (header, reports) = shards::read(&args.paths)?;
    let scenario = ScenarioArgs {
        preset: None,
        link: Some(header.link.clone()),
        policies: Vec::new(),
        seed: None,
        horizon: None,
        sets: Vec::new(),
        changes: Vec::new(),
        classes_file: None,
        traces: header.trace_files.iter().map(Into::into).collect(),
        trace_tasks: header.trace_tasks,
    };
    let Resolved { setup, .. } = resolve(&scenario).context("the shards' sweep")?;
    let grid: Vec<String> = header.grid.values.iter().map(f64::to_string).collect();
    let plan = SweepPlan::new(&setup, Some(&header.grid.axis), Some(&grid.join(",")), header.reps)
        .map_err(|e| anyhow!("the shards' sweep: {e}"))?;
    if plan.len() != header.runs {
        bail!("the shards' sweep: {} runs in the header, {} in its plan", header.runs, plan.len());
    }
    create_dir(&args.out)?;
    finish(&plan, header.warmup_note.as_deref(), &reports, &args.out, out)
}

/// Writes a sweep's CSV files and chart and prints its table, from the `run --json` reports of
/// its runs in the plan's order: the same bytes whether the runs were made here or in shards.
fn finish(
    plan: &SweepPlan,
    warmup_note: Option<&str>,
    reports: &[Value],
    dir: &std::path::Path,
    out: &mut dyn Write,
) -> Result<()> {
    if reports.len() != plan.len() {
        bail!("{} runs for {} (policies × grid values × replications)", reports.len(), plan.len());
    }
    let runs: Vec<Option<_>> = reports.iter().map(|r| Some(plan.sweep_run(r))).collect();
    let cells = plan.cells(&runs);
    let written = files::write(plan, reports, &cells, dir)?;
    table::print(plan, warmup_note, &cells, out)?;
    writeln!(out)?;
    writeln!(out, "wrote {} ({} runs)", written[0].display(), reports.len())?;
    for path in &written[1..] {
        writeln!(out, "wrote {}", path.display())?;
    }
    Ok(())
}

/// The sweep's scenario and policies as the link (`?…`) its shards and scripts carry.
fn link_of(setup: &Setup) -> String {
    format!(
        "?{}",
        packlab_core::link::encode_link(&setup.preset, &setup.policies, &setup.scenario, &Default::default())
    )
}
