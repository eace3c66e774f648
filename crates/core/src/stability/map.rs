//! The map as data: its CSV rows and its chart ([`Graph`]), which the CLI writes as SVG and
//! the page draws, from the finder's cells.

use crate::graph::{Graph, Legend, Line, Mark, Point, Stroke, VerdictPoint};
use crate::model::table::sig;

use super::finder::{Cell, Finder, Tested};

/// The CSV's columns: the axis and its value, the policy, the bracket (the largest load judged
/// stable, the smallest judged not stable), where that places the boundary (`boundary_lo` is
/// `lo` less the test's 0.5% resolution), the undecided band inside the bracket, how the search
/// ended, the runs it took, the test's statistic at each end (the mean growth of the second
/// halves, a fraction of the arrivals), the verdicts that contradicted the bracket, and the
/// theory: the capacity, the proven load (where a theorem's hypotheses all hold), the load a
/// theorem states where they do not, and why not (empty where unknown).
pub const COLUMNS: [&str; 18] = [
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
    "not_proven",
    "why_not_proven",
];

/// What the map's intervals rest on, in a sentence: each verdict's error rate and what the
/// interval can say.
pub const COVERAGE_RULE: &str = "the boundary lies in [boundary_lo, boundary_hi] = [lo - 0.5%, hi + 1%] unless the \
     verdict at lo or at hi is wrong: a load judged stable may sit up to the test's 0.5% resolution past its boundary, \
     one judged not stable up to 1% below it when its queue was still filling at the end of the runs (a margin \
     measured, not proven); each load's verdict is wrong with probability at most 5% (its looks share one budget), \
     and on the boundaries known exactly the intervals contained the exact value in the share docs/stability.md \
     reports";

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
                number(c.theory.not_proven().map(|(load, _)| load)),
                c.theory.not_proven().map_or(String::new(), |(_, why)| why),
            ]
        })
        .collect()
}

/// " at KEY = V" for a cell along an axis, nothing at one scenario.
fn at(finder: &Finder, c: &Cell) -> String {
    finder.axis.map_or(String::new(), |axis| format!(" at {axis} = {}", sig(finder.values[c.value])))
}

/// Where a theorem's fraction is drawn but not proven: one sentence per policy and reason,
/// naming the axis values, the load the theorem states and the hypotheses that fail. "BF-J/S:
/// 0.5 (Theorem 2: BF-J/S is stable below half the capacity), drawn apart: Theorem 2 assumes
/// geometric service (§II; …); this scenario's is fixed (100 slots)".
pub fn not_proven(finder: &Finder) -> Vec<String> {
    let labels = finder.labels();
    // (policy, why) with its cells, in the finder's order.
    let mut groups: Vec<(usize, String, Vec<&Cell>)> = Vec::new();
    for c in &finder.cells {
        let Some((_, why)) = c.theory.not_proven() else { continue };
        match groups.iter_mut().find(|(p, w, _)| *p == c.policy && *w == why) {
            Some((_, _, cells)) => cells.push(c),
            None => groups.push((c.policy, why, vec![c])),
        }
    }
    groups
        .into_iter()
        .map(|(policy, why, cells)| {
            let guarantee = cells[0].theory.guarantee.as_ref().expect("a guarantee not proven");
            let mut loads: Vec<String> = cells.iter().filter_map(|c| c.theory.stated_load()).map(sig).collect();
            loads.dedup();
            let at = match finder.axis {
                Some(axis) => {
                    let values: Vec<String> = cells.iter().map(|c| sig(finder.values[c.value])).collect();
                    format!(" at {axis} = {}", values.join(", "))
                }
                None => String::new(),
            };
            let (label, theorem, claim) = (&labels[policy], guarantee.theorem, guarantee.claim);
            format!("{label}{at}: {} ({theorem}: {claim}), drawn apart: {why}", loads.join(", "))
        })
        .collect()
}

/// Cells whose measured boundary falls below the proven one: judged not stable (`hi`) at a
/// load more than the tolerance below the load the paper proves stable, on a scenario where
/// the theorem's hypotheses hold (a load stated but not proven here warns of nothing). Either
/// a bug or a horizon too short for the queue to settle; each gets a sentence saying which
/// cell and what to try.
pub fn below_proven(finder: &Finder) -> Vec<String> {
    let labels = finder.labels();
    finder
        .cells
        .iter()
        .filter_map(|c| {
            let (hi, proven) = (c.hi?.load, c.theory.proven_load()?);
            (hi < proven * (1.0 - finder.options.tolerance)).then(|| {
                let at = at(finder, c);
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

/// How far either side of its place a policy's own lines run at one scenario (its places are
/// 1 apart): most of its column, clear of its neighbours'.
const COLUMN: f64 = 0.35;

/// The map's chart: per policy, its measured boundary (the bracket as an error bar) against
/// the axis, with the theory: the capacity and each policy's proven load. Along an axis they
/// are unmarked curves (the policy's colour for its proven load); at one scenario, the policies
/// stand side by side at x = 1, 2, …, named there, and the theory is dashed horizontal lines:
/// the capacity all across, each policy's proven load over its own place only.
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
            stroke: Stroke::Solid,
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
                stroke: Stroke::Dashed,
            });
        }
        for (p, label) in labels.iter().enumerate() {
            let proven = theory(p, |c| c.theory.proven_load());
            let stated = theory(p, |c| c.theory.not_proven().map(|(load, _)| load));
            // The failing hypotheses in the legend, where they are the same all along.
            let mut assumes: Vec<String> = finder
                .cells
                .iter()
                .filter(|c| c.policy == p)
                .filter_map(|c| c.theory.guarantee.as_ref()?.assumes())
                .collect();
            assumes.dedup();
            let why = if assumes.len() == 1 { format!(", {}", assumes[0]) } else { String::new() };
            // A line of one point shows only by its marker.
            for (points, stroke, label) in [
                (proven, Stroke::Dashed, format!("{label} (proven)")),
                (stated, Stroke::Dotted, format!("{label} (stated, not proven here{why})")),
            ] {
                if !points.is_empty() {
                    lines.push(Line { label, color: p, markers: points.len() == 1, points, stroke });
                }
            }
        }
    } else {
        if let Some(capacity) = first(0).and_then(|c| c.theory.capacity.as_ref()) {
            y_marks.push(Mark::new(capacity.load, format!("capacity {}", sig(capacity.load))));
        }
        for (p, label) in labels.iter().enumerate() {
            let Some(c) = first(p) else { continue };
            // A policy's theory holds for that policy only: its lines run over its own place.
            let place = (p + 1) as f64;
            let own = (place - COLUMN, place + COLUMN);
            if let Some(proven) = c.theory.proven_load() {
                y_marks.push(Mark::new(proven, format!("{label} proven {}", sig(proven))).of_policy(
                    p,
                    own,
                    Stroke::Dashed,
                ));
            }
            if let (Some((stated, _)), Some(g)) = (c.theory.not_proven(), c.theory.guarantee.as_ref()) {
                let assumes = g.assumes().unwrap_or_default();
                y_marks.push(
                    Mark::new(stated, format!("{label} {}: not proven here, {} {assumes}", sig(stated), g.theorem))
                        .of_policy(p, own, Stroke::Dotted),
                );
            }
        }
    }
    let x_label = match finder.axis {
        Some(key) => {
            finder.setup.scenario.keys().into_iter().find(|k| k.key == key).map_or(key.into(), |k| k.label.into())
        }
        None => "policy".into(),
    };
    let x_range = if along {
        let xs: Vec<f64> = finder.cells.iter().map(x_of).collect();
        let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
        let span = (hi - lo).max(1.0);
        lo.is_finite().then_some((lo - 0.1 * span, hi + 0.1 * span))
    } else {
        // Each policy's column, half a place either side of it.
        Some((0.5, labels.len() as f64 + 0.5))
    };
    let preset = &finder.setup.preset;
    Graph {
        id: "stability",
        title: format!("{}: where each policy stops being stable", preset.id),
        x_label,
        y_label: format!("largest stable {}", knob.name),
        lines,
        y_marks,
        x_range,
        // At one scenario the policies are categories, named at their places.
        x_names: if along { Vec::new() } else { labels.clone() },
        legend: Legend::Below,
        caption: {
            let mut caption = "Each policy's interval, from the largest load judged stable (less the test's 0.5% \
                               resolution) to the smallest judged not stable, with a mark at its middle; each load \
                               tested is a dot, a square or a cross by its verdict (stable, undecided, not stable). \
                               Each verdict is wrong with probability at most 5%."
                .to_string();
            if finder.cells.iter().any(|c| c.theory.not_proven().is_some()) {
                caption += " A theorem's fraction whose hypotheses fail on this scenario is drawn apart, not proven \
                            here (the notes under the chart name the hypothesis).";
            }
            caption
        },
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

    /// Issue 53: at one scenario the policies are categories: the axis names them at their
    /// places (it read "policy (1 to 2)" with ticks at 1.2, 1.4, …), and each policy's proven
    /// load runs over its own place (it ran across every policy's), the capacity all across.
    #[test]
    fn at_one_scenario_the_policies_are_named_and_their_theory_stays_in_their_place() {
        let setup = Setup::from_preset("pgrr-a1").unwrap();
        let finder = Finder::new(&setup, None, Options::default()).unwrap();
        let chart = graph(&finder);
        let labels = finder.labels();
        assert!(labels.len() >= 2, "{labels:?}");
        assert_eq!((chart.x_label.as_str(), &chart.x_names), ("policy", &labels));
        assert_eq!(chart.x_range, Some((0.5, labels.len() as f64 + 0.5)));
        let proven: Vec<_> = chart.y_marks.iter().filter(|m| m.label.contains(" proven ")).collect();
        assert!(!proven.is_empty(), "{:?}", chart.y_marks);
        for m in &proven {
            let p = labels.iter().position(|l| m.label.starts_with(&format!("{l} proven"))).expect(&m.label);
            let (lo, hi) = m.span.expect("a proven load runs over its policy's place");
            let place = (p + 1) as f64;
            assert!(lo > place - 0.5 && hi < place + 0.5 && lo < place && hi > place, "{m:?}");
            assert_eq!((m.color, m.stroke), (Some(p), Some(Stroke::Dashed)), "dashed as proven, in its colour");
        }
        let capacity = chart.y_marks.iter().find(|m| m.label.starts_with("capacity")).expect("the capacity");
        assert_eq!((capacity.span, capacity.color), (None, None));
        // Along an axis the x axis is the axis's numbers, as before.
        let along = Finder::new(&setup, Some(("j", "2,3")), Options::default()).unwrap();
        assert!(graph(&along).x_names.is_empty());
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

    /// pgrr-a2's service is fixed: the theorems' fractions are drawn apart (dotted along an
    /// axis, a mark that says so at one scenario), named with the failing hypothesis in the
    /// notes and the CSV, and a boundary below them warns of nothing.
    #[test]
    fn a_theorem_whose_hypotheses_fail_is_drawn_apart_and_warns_of_nothing() {
        let setup = Setup::from_preset("pgrr-a2").unwrap();
        let mut finder = Finder::new(&setup, None, Options::default()).unwrap();
        let best_fit = finder.labels().iter().position(|l| l == "BF-J/S").expect("pgrr-a2 races BF-J/S");
        assert_eq!(finder.cells[best_fit].theory.proven_load(), None);
        finder.cells[best_fit].hi = Some(tested(0.3, Verdict::Unstable));
        assert!(below_proven(&finder).is_empty(), "{:?}", below_proven(&finder));
        let notes = not_proven(&finder);
        assert_eq!(notes.len(), 3, "{notes:?}");
        let bf = notes.iter().find(|n| n.starts_with("BF-J/S:")).unwrap();
        assert!(
            bf.contains("0.5 (Theorem 2: ") && bf.contains("geometric service") && bf.ends_with("fixed (100 slots)")
        );
        let row = &csv_rows(&finder)[best_fit];
        let column = |name: &str| row[COLUMNS.iter().position(|c| *c == name).unwrap()].as_str();
        assert_eq!((column("proven"), column("not_proven")), ("", "0.5"));
        let why = column("why_not_proven");
        assert!(why.starts_with("Theorem 2 assumes geometric service"), "{why}");
        let chart = graph(&finder);
        let marks: Vec<&str> = chart.y_marks.iter().map(|m| m.label.as_str()).collect();
        assert!(marks.contains(&"BF-J/S 0.5: not proven here, Theorem 2 assumes geometric service"), "{marks:?}");
        // Over BF-J/S's own place only, in its colour.
        let stated = chart.y_marks.iter().find(|m| m.label.starts_with("BF-J/S 0.5")).unwrap();
        let place = (best_fit + 1) as f64;
        let own = Some((place - COLUMN, place + COLUMN));
        assert_eq!((stated.span, stated.color, stated.stroke), (own, Some(best_fit), Some(Stroke::Dotted)));
        assert!(!marks.iter().any(|m| m.contains("proven 0.5")), "{marks:?}");

        // Along J on sizes 0.2 and 0.6: Theorem 3 fails at J = 2 (0.2 < 1/4) and holds at 3.
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.scenario.set("size", "discrete:0.2@0.5,0.6@0.5").unwrap();
        setup.policies.truncate(1);
        let finder = Finder::new(&setup, Some(("j", "2,3")), Options::default()).unwrap();
        let lines = graph(&finder).lines;
        let line = |suffix: &str| lines.iter().find(|l| l.label.ends_with(suffix)).expect(suffix);
        let proven = line("(proven)");
        assert_eq!((proven.stroke, proven.points.len(), proven.points[0].x), (Stroke::Dashed, 1, 3.0));
        let stated = line("(stated, not proven here, assumes every size at least 1/2^J = 0.25)");
        assert_eq!((stated.stroke, stated.points.len(), stated.points[0].x), (Stroke::Dotted, 1, 2.0));
        assert!(proven.markers && stated.markers, "a line of one point shows by its marker");
        let notes = not_proven(&finder);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("VQS (J=2) at j = 2: 0.533333 (Theorem 3: "), "{}", notes[0]);
    }
}
