//! What the commands share for printing and writing: aligned tables, chart labels, SVG files,
//! the progress bar.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use packlab_core::policy::PolicySpec;
use packlab_core::scenario::Scenario;
use packlab_plot::Chart;
use plotters::prelude::{IntoDrawingArea, SVGBackend};

/// SVG size in pixels: wide enough for a legend and the mark labels.
pub const SVG_SIZE: (u32, u32) = (960, 600);

/// Chart and table labels ("VQS (J=7)"). Two specs can share a label (`vqs` and
/// `vqs:ties=random`); those get their spec appended so a legend never shows two equal names.
pub fn labels(policies: &[PolicySpec], scenario: &Scenario) -> Vec<String> {
    let plain: Vec<String> = policies.iter().map(|p| scenario.policy_label(p)).collect();
    plain
        .iter()
        .zip(policies)
        .map(
            |(label, spec)| {
                if plain.iter().filter(|l| *l == label).count() > 1 {
                    format!("{label} [{spec}]")
                } else {
                    label.clone()
                }
            },
        )
        .collect()
}

/// Draws `chart` into an SVG file.
pub fn write_svg(path: &Path, chart: &Chart<'_>) -> Result<()> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SVG_SIZE).into_drawing_area();
        packlab_plot::draw(&root, chart).map_err(|e| anyhow!("drawing {}: {e}", path.display()))?;
        root.present().map_err(|e| anyhow!("drawing {}: {e}", path.display()))?;
    }
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

/// A 95% interval as "[lo, hi]" with the precision of the mean.
pub fn interval([lo, hi]: [f64; 2]) -> String {
    format!("[{}, {}]", num(lo), num(hi))
}

/// A rate or load with six significant digits and no float noise (0.014, not
/// 0.013999999999999999).
pub fn sig(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (5 - v.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

/// A number with two decimals, or "-inf"/"inf"/"NaN" spelled out (intervals of a single
/// value are unbounded).
pub fn num(v: f64) -> String {
    if v.is_finite() { format!("{v:.2}") } else { format!("{v}") }
}

/// A text table: numbers right-aligned, the first column and any [`Table::left`] column
/// left-aligned, two spaces between columns.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Columns of words rather than numbers, aligned left.
    left: Vec<usize>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Self { header: header.iter().map(|h| h.to_string()).collect(), rows: Vec::new(), left: vec![0] }
    }

    /// Aligns column `i` to the left (the first column always is).
    pub fn left(mut self, i: usize) -> Self {
        self.left.push(i);
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn print(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let width = |i: usize| {
            std::iter::once(&self.header).chain(&self.rows).filter_map(|r| r.get(i)).map(|c| c.chars().count()).max()
        };
        let widths: Vec<usize> = (0..self.header.len()).map(|i| width(i).unwrap_or(0)).collect();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(
                    |(i, (cell, &w))| {
                        if self.left.contains(&i) { format!("{cell:<w$}") } else { format!("{cell:>w$}") }
                    },
                )
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_labels_get_their_spec() {
        let p: Vec<_> = ["vqs", "vqs:ties=random", "bf-js"].iter().map(|s| PolicySpec::parse(s).unwrap()).collect();
        assert_eq!(
            labels(&p, &packlab_core::scenario::preset("pgrr-a1").unwrap().scenario),
            ["VQS (J=2) [vqs]", "VQS (J=2) [vqs:ties=random]", "BF-J/S"]
        );
    }

    #[test]
    fn table_aligns_columns() {
        let mut t = Table::new(&["policy", "mean"]);
        t.row(vec!["VQS (J=2)".into(), "1.50".into()]);
        t.row(vec!["BF-J/S".into(), "12.25".into()]);
        let mut out = Vec::new();
        t.print(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "policy      mean\nVQS (J=2)   1.50\nBF-J/S     12.25\n");
    }

    #[test]
    fn significant_digits_hide_float_noise() {
        assert_eq!(sig(0.013999999999999999), "0.014");
        assert_eq!(sig(0.030600000000000002), "0.0306");
        assert_eq!(sig(9500.0), "9500");
        assert_eq!(sig(0.475), "0.475");
        assert_eq!(sig(123456.7), "123457");
    }

    #[test]
    fn numbers_and_unbounded_intervals() {
        assert_eq!(interval([1.0, 2.345]), "[1.00, 2.35]");
        assert_eq!(interval([f64::NEG_INFINITY, f64::INFINITY]), "[-inf, inf]");
    }
}
