//! The map as data: its CSV rows and its chart ([`Graph`]), which the CLI writes as SVG and
//! the page draws, from the finder's cells.

use crate::graph::{Graph, Legend, Line, Mark, Point, VerdictPoint};
use crate::model::table::sig;

use super::finder::{Cell, Finder, Tested};

/// The CSV's columns: the axis and its value, the policy, the bracket (the largest load judged
/// stable, the smallest judged not stable), where that places the boundary (`boundary_lo` is
/// `lo` less the test's 0.5% resolution), the undecided band inside the bracket, how the search
/// ended, the runs it took, the test's statistic at each end (the mean growth of the second
/// halves, a fraction of the arrivals), the verdicts that contradicted the bracket, and the
/// theory (capacity and proven load, empty where unknown).
pub const COLUMNS: [&str; 16] = [
    "axis",
    "value",
    "policy",
    "lo",
    "hi",
    "boundary_lo",
    "boundary_hi",
    "undecided_lo",
    "undecided_hi",
    "status",
    "runs",
    "growth_lo",
    "growth_hi",
    "conflicts",
    "capacity",
    "proven",
];

/// What the map's intervals rest on, in a sentence: each verdict's error rate and what the
/// interval can say.
pub const COVERAGE_RULE: &str = "the boundary lies in [boundary_lo, boundary_hi] unless the verdict at lo or at hi \
     is wrong; each load's verdict is wrong with probability at most 5% (its looks share one budget), and on the \
     boundaries known exactly the intervals contained the exact value in the share docs/stability.md reports";

/// A number for the CSV: exact (Rust's shortest round trip), empty when absent.
fn number(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite()).map_or(String::new(), |v| v.to_string())
}

/// The CSV's rows, one per cell, in the finder's order (axis value, then policy).
pub fn csv_rows(finder: &Finder) -> Vec<Vec<String>> {
    let labels = finder.labels();
    finder
        .cells
        .iter()
        .map(|c| {
            vec![
                finder.axis.unwrap_or("").to_string(),
                number(Some(finder.values[c.value])),
                labels[c.policy].clone(),
                number(c.lo.map(|t| t.load)),
                number(c.hi.map(|t| t.load)),
                number(c.boundary().map(|b| b.0)),
                number(c.boundary().map(|b| b.1)),
                number(c.band().map(|b| b.0)),
                number(c.band().map(|b| b.1)),
                c.status.describe().to_string(),
                c.runs.to_string(),
                number(c.lo.map(|t| t.judgement.growth)),
                number(c.hi.map(|t| t.judgement.growth)),
                c.conflicts.to_string(),
                number(c.theory.capacity.as_ref().map(|c| c.load)),
                number(c.theory.proven_load()),
            ]
        })
        .collect()
}

/// Cells whose measured boundary falls below the proven one: judged not stable (`hi`) at a
/// load more than the tolerance below the load the paper proves stable. Either a bug or a
/// horizon too short for the queue to settle; each gets a sentence saying which cell and what
/// to try.
pub fn below_proven(finder: &Finder) -> Vec<String> {
    let labels = finder.labels();
    finder
        .cells
        .iter()
        .filter_map(|c| {
            let (hi, proven) = (c.hi?.load, c.theory.proven_load()?);
            (hi < proven * (1.0 - finder.options.tolerance)).then(|| {
                let at =
                    finder.axis.map_or(String::new(), |axis| format!(" at {axis} = {}", sig(finder.values[c.value])));
                format!(
                    "{}{at}: not shown stable at load {}, below its proven {}: a bug, or a horizon too short for \
                     the queue to settle (try a longer --horizon)",
                    labels[c.policy],
                    sig(hi),
                    sig(proven)
                )
            })
        })
        .collect()
}

/// A cell's boundary as a point: where the test places it ([`Cell::boundary`]), its middle
/// with the interval; from 0 to hi when nothing was stable, at lo when nothing was unstable.
/// `None` before a verdict.
fn boundary(cell: &Cell, x: f64) -> Option<Point> {
    let (lo, hi) = match cell.boundary()? {
        (lo, hi) if hi.is_finite() => (lo, hi),
        _ => (cell.lo?.load, cell.lo?.load),
    };
    Some(Point { x, y: (lo + hi) / 2.0, interval: Some((lo, hi)) })
}

/// Where cell `c` stands across the chart: its axis value, or its policy's place (1, 2, …)
/// at one scenario.
fn x_of(finder: &Finder, c: &Cell) -> f64 {
    if finder.axis.is_some() { finder.values[c.value] } else { (c.policy + 1) as f64 }
}

/// Each cell's boundary on the chart ([`graph`]'s points with their intervals), with the
/// cell's index: what a click on an interval of the page's chart opens.
pub fn boundaries(finder: &Finder) -> Vec<(usize, Point)> {
    finder.cells.iter().enumerate().filter_map(|(i, c)| Some((i, boundary(c, x_of(finder, c))?))).collect()
}

/// A tested load as the map shows it: its cell, where it stands across the chart (its load is
/// the height) and its last verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Probed {
    pub cell: usize,
    pub x: f64,
    pub tested: Tested,
}

/// Every load tested, once per cell (its last verdict: a longer horizon's), cell by cell and
/// by load: the chart's coloured points ([`graph`]) and the table's links. Along an axis the
/// policies' points stand side by side around the axis value, a quarter of the axis values'
/// smallest gap wide in all, so one policy's verdicts do not hide another's.
pub fn probed(finder: &Finder) -> Vec<Probed> {
    let policies = finder.setup.policies.len();
    let gap = {
        let mut values: Vec<f64> = finder.values.iter().copied().filter(|v| v.is_finite()).collect();
        values.sort_by(f64::total_cmp);
        values.windows(2).map(|w| w[1] - w[0]).filter(|g| *g > 0.0).fold(f64::INFINITY, f64::min)
    };
    let spread =
        if finder.axis.is_some() && policies > 1 { 0.25 * if gap.is_finite() { gap } else { 1.0 } } else { 0.0 };
    let mut out = Vec::new();
    for (index, c) in finder.cells.iter().enumerate() {
        let x = x_of(finder, c) + spread * ((c.policy as f64 + 0.5) / policies as f64 - 0.5);
        let mut tested: Vec<Tested> = Vec::new();
        for (_, t) in finder.tested.iter().filter(|(cell, _)| *cell == index) {
            match tested.iter_mut().find(|s| s.load == t.load) {
                Some(earlier) => *earlier = *t,
                None => tested.push(*t),
            }
        }
        tested.sort_by(|a, b| a.load.total_cmp(&b.load));
        out.extend(tested.into_iter().map(|tested| Probed { cell: index, x, tested }));
    }
    out
}

/// The map's chart: per policy, its measured boundary (the bracket as an error bar) against
/// the axis, with the theory: the capacity and each policy's proven load. Along an axis they
/// are unmarked curves (the policy's colour for its proven load); at one scenario, the policies
/// stand side by side at x = 1, 2, … and the theory is dashed horizontal lines.
pub fn graph(finder: &Finder) -> Graph {
    let labels = finder.labels();
    let knob = finder.setup.scenario.any().load_knob();
    let along = finder.axis.is_some();
    let x_of = |c: &Cell| x_of(finder, c);
    let mut lines: Vec<Line> = labels
        .iter()
        .enumerate()
        .map(|(p, label)| Line {
            label: label.clone(),
            color: p,
            points: finder.cells.iter().filter(|c| c.policy == p).filter_map(|c| boundary(c, x_of(c))).collect(),
            markers: true,
            dashed: false,
        })
        .collect();
    let mut y_marks = Vec::new();
    let first = |p: usize| finder.cells.iter().find(|c| c.policy == p);
    if along {
        let theory = |p: usize, value: fn(&Cell) -> Option<f64>| -> Vec<Point> {
            finder.cells.iter().filter(|c| c.policy == p).filter_map(|c| Some(Point::new(x_of(c), value(c)?))).collect()
        };
        let capacity = theory(0, |c| c.theory.capacity.as_ref().map(|k| k.load));
        if !capacity.is_empty() {
            lines.push(Line {
                label: "capacity".into(),
                color: labels.len(),
                points: capacity,
                markers: false,
                dashed: true,
            });
        }
        for (p, label) in labels.iter().enumerate() {
            let proven = theory(p, |c| c.theory.proven_load());
            if !proven.is_empty() {
                lines.push(Line {
                    label: format!("{label} (proven)"),
                    color: p,
                    points: proven,
                    markers: false,
                    dashed: true,
                });
            }
        }
    } else {
        if let Some(capacity) = first(0).and_then(|c| c.theory.capacity.as_ref()) {
            y_marks.push(Mark::new(capacity.load, format!("capacity {}", sig(capacity.load))));
        }
        for (p, label) in labels.iter().enumerate() {
            if let Some(proven) = first(p).and_then(|c| c.theory.proven_load()) {
                y_marks.push(Mark::new(proven, format!("{label} proven {}", sig(proven))));
            }
        }
    }
    let x_label = match finder.axis {
        Some(key) => {
            finder.setup.scenario.keys().into_iter().find(|k| k.key == key).map_or(key.into(), |k| k.label.into())
        }
        None => format!("policy (1 to {})", labels.len()),
    };
    let xs: Vec<f64> = finder.cells.iter().map(x_of).collect();
    let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let span = (hi - lo).max(1.0);
    let preset = &finder.setup.preset;
    Graph {
        id: "stability",
        title: format!("{}: where each policy stops being stable", preset.id),
        x_label,
        y_label: format!("largest stable {}", knob.name),
        lines,
        y_marks,
        x_range: lo.is_finite().then_some((lo - 0.1 * span, hi + 0.1 * span)),
        legend: Legend::Below,
        caption: "Each policy's interval, from the largest load judged stable (less the test's 0.5% resolution) to \
                  the smallest judged not stable, with a mark at its middle; each load tested is a dot, a square or \
                  a cross by its verdict (stable, undecided, not stable). Each verdict is wrong with probability at \
                  most 5%."
            .into(),
        description: format!("The largest stable {} of each policy, with the capacity and the proven loads", knob.name),
        verdicts: probed(finder)
            .iter()
            .map(|p| VerdictPoint { x: p.x, y: p.tested.load, verdict: p.tested.judgement.verdict })
            .collect(),
        ..Graph::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Setup;
    use crate::stability::{Judgement, Options, Tested, Verdict};

    fn tested(load: f64, verdict: Verdict) -> Tested {
        let judgement = Judgement { verdict, ..Judgement::before(6, f64::NAN) };
        Tested { load, judgement, doublings: 0 }
    }

    #[test]
    fn a_boundary_below_the_proven_one_is_said() {
        let setup = Setup::from_preset("pgrr-a1").unwrap();
        let mut finder = Finder::new(&setup, None, Options::default()).unwrap();
        let vqs = finder.labels().iter().position(|l| l.starts_with("VQS")).expect("pgrr-a1 races VQS");
        // VQS is proven stable up to 2/3 of A1's capacity of 1.
        let cell = &mut finder.cells[vqs];
        (cell.lo, cell.hi) = (Some(tested(0.66, Verdict::Stable)), Some(tested(0.67, Verdict::Unstable)));
        assert!(below_proven(&finder).is_empty(), "{:?}", below_proven(&finder));
        finder.cells[vqs].hi = Some(tested(0.6, Verdict::Unstable));
        let said = below_proven(&finder);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("VQS") && said[0].contains("0.6") && said[0].contains("0.666667"), "{}", said[0]);
    }
}
