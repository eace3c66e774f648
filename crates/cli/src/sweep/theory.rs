//! A sweep of the theory over loads, with no runs (PG-AS Fig. 2): the model computes the
//! curves ([`packlab_core::model::Model::theory_sweep`]); this writes its CSV and chart and
//! prints its table.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use packlab_core::scenario::Setup;
use packlab_core::sweep::parse_grid;

use crate::output::{create_dir, print_table, write_svg};

pub fn command(setup: &Setup, loads: Option<&str>, grid: &[f64], dir: &Path, out: &mut dyn Write) -> Result<()> {
    let id = setup.preset.id;
    let alphas = match loads {
        Some(text) => parse_grid(text, &setup.scenario, "load").map_err(|e| anyhow!("--load: {e}"))?,
        None => grid.to_vec(),
    };
    let sweep = setup.scenario.any().theory_sweep(&alphas).map_err(|e| anyhow!("{id}: {e}"))?;
    create_dir(dir)?;
    let csv_path = dir.join(format!("{id}-bounds.csv"));
    let svg_path = dir.join(format!("{id}.svg"));
    {
        let context = || format!("writing {}", csv_path.display());
        let mut w = csv::WriterBuilder::new().has_headers(false).from_path(&csv_path).with_context(context)?;
        w.write_record(&sweep.columns).with_context(context)?;
        for row in &sweep.rows {
            w.serialize(row).with_context(context)?;
        }
        w.flush().with_context(context)?;
    }
    let mut graph = sweep.graph.clone();
    graph.title = format!("{}: {}", setup.preset.figure, setup.preset.title);
    write_svg(&svg_path, &packlab_plot::GraphChart::new(&graph).chart())?;

    let p = &setup.preset;
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    for line in &sweep.head {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    print_table(&sweep.table, out)?;
    writeln!(out)?;
    for line in &sweep.tail {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "wrote {}", csv_path.display())?;
    writeln!(out, "wrote {}", svg_path.display())?;
    Ok(())
}
