//! `packlab bounds`: the theory's static bounds at a scenario, without simulation, as its model
//! computes them (PG-AS: U^(g) and U* with the greedy configurations and an optimal LP
//! support, both certified exact; or the statistics of random VM collections).

use std::io::Write;

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::models::all;

use crate::args::BoundsArgs;
use crate::setup::resolve;

pub fn command(args: &BoundsArgs, out: &mut dyn Write) -> Result<()> {
    let setup = resolve(&args.scenario)?.setup;
    let mut scenario = setup.scenario.clone();
    if let Some(load) = &args.load {
        scenario.set("load", load).context("--load")?;
        scenario.validate().map_err(|e| anyhow!("--load {load}: {e}"))?;
    }
    let p = &setup.preset;
    let Some(bounds) = scenario.any().bounds() else {
        let with: Vec<String> =
            all().into_iter().filter(|m| m.static_bounds).map(|m| format!("{} ({}-…)", m.name, m.id)).collect();
        bail!(
            "--preset {}: {} has no static bounds; `packlab bounds` takes presets of {}",
            p.id,
            scenario.info().name,
            with.join(", ")
        );
    };
    let bounds = bounds.map_err(|e| anyhow!("{}: {e}", p.id))?;
    if args.json {
        let mut json = serde_json::Map::new();
        json.insert("preset".into(), p.id.into());
        if let serde_json::Value::Object(fields) = bounds.json {
            json.extend(fields);
        }
        writeln!(out, "{}", serde_json::Value::Object(json))?;
        return Ok(());
    }
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    write!(out, "{}", bounds.text)?;
    Ok(())
}
