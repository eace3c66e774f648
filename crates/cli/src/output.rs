//! What the commands share for printing and writing: aligned tables, chart labels, SVG files,
//! the progress bar.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use packlab_plot::Chart;

/// SVG size in pixels: wide enough for a legend and the mark labels.
pub const SVG_SIZE: (u32, u32) = (960, 600);

/// Draws `chart` into an SVG file.
pub fn write_svg(path: &Path, chart: &Chart<'_>) -> Result<()> {
    let svg = packlab_plot::svg(chart, SVG_SIZE).map_err(|e| anyhow!("drawing {}: {e}", path.display()))?;
    fs::write(path, svg).with_context(|| format!("writing {}", path.display()))
}

/// Creates the output directory up front, so a bad path fails before any simulation runs.
pub fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("--out: cannot create directory {}", dir.display()))
}

/// A progress bar on stderr counting finished runs; indicatif hides it when stderr is not a
/// terminal, so pipes and tests see nothing.
pub fn progress(runs: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(runs), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} runs, {elapsed} elapsed, eta {eta}")
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

pub use packlab_core::report::{Table, num};

/// Prints a table and its notes.
pub fn print_table(table: &Table, out: &mut dyn Write) -> std::io::Result<()> {
    write!(out, "{}", table.render())?;
    if !table.notes.is_empty() {
        writeln!(out)?;
        for note in &table.notes {
            writeln!(out, "{note}")?;
        }
    }
    Ok(())
}
