//! Tables of run figures as every front end prints them, and the number formats they use.

/// A text table: numbers right-aligned, the first column and any [`Table::left`] column
/// left-aligned, two spaces between columns; notes below it explain the columns.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Columns of words rather than numbers, aligned left.
    pub left: Vec<usize>,
    /// Lines printed under the table.
    pub notes: Vec<String>,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        Self { header: header.iter().map(|h| h.to_string()).collect(), left: vec![0], ..Self::default() }
    }

    /// Aligns column `i` to the left (the first column always is).
    pub fn left(mut self, i: usize) -> Self {
        self.left.push(i);
        self
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// The aligned rows, header first, one per line (without the notes).
    pub fn render(&self) -> String {
        let width = |i: usize| {
            std::iter::once(&self.header).chain(&self.rows).filter_map(|r| r.get(i)).map(|c| c.chars().count()).max()
        };
        let widths: Vec<usize> = (0..self.header.len()).map(|i| width(i).unwrap_or(0)).collect();
        let mut out = String::new();
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
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out
    }
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

/// A number with two decimals, "-inf"/"inf" spelled out (intervals of a single value are
/// unbounded), or "—" for no value at all (a quantile of no completed job): a reader of the
/// table is not told "NaN".
pub fn num(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.2}")
    } else if v.is_nan() {
        "—".into()
    } else {
        format!("{v}")
    }
}

/// A percentage with one decimal.
pub fn percent(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// A share as a percentage with one decimal, or "—" for none (a share of no arrivals).
pub fn share(v: f64) -> String {
    if v.is_nan() { "—".into() } else { percent(v) }
}

/// `1234567` → `1 234 567`: the page's grouping, in tables too.
pub use crate::format::group_digits;

/// A short label for an axis tick or a chart mark: 1.5k, 2M, 0.25, 6.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    let trim = |s: String| if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if a >= 1e9 {
        trim(format!("{:.2}", v / 1e9)) + "G"
    } else if a >= 1e6 {
        trim(format!("{:.2}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        trim(format!("{:.1}", v / 1e3)) + "k"
    } else if a >= 100.0 || v == v.trunc() {
        format!("{v:.0}")
    } else if a >= 1.0 {
        trim(format!("{v:.2}"))
    } else {
        trim(format!("{v:.4}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns_columns() {
        let mut t = Table::new(&["policy", "mean"]);
        t.row(vec!["VQS (J=2)".into(), "1.50".into()]);
        t.row(vec!["BF-J/S".into(), "12.25".into()]);
        assert_eq!(t.render(), "policy      mean\nVQS (J=2)   1.50\nBF-J/S     12.25\n");
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
        assert_eq!(num(f64::NAN), "—", "no value, in words a reader knows");
    }
}
