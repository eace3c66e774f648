//! The charts drawn to SVG and read back, and their layout rules.

use plotters::prelude::*;

use crate::legend::place_in_rows;
use crate::markers::{STAGGERED_MARKERS, staggered};
use crate::marks::{mark_dashes, side_by_side, stack_labels};
use crate::*;

fn svg(chart: &Chart<'_>) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
        draw(&root, chart).unwrap();
        root.present().unwrap();
    }
    out
}

#[test]
fn draws_curves_marks_and_legend() {
    let a = [Point::new(0.0, 1.0), Point { x: 1.0, y: 3.0, interval: Some((2.0, 4.0)) }];
    let b = [Point::new(0.0, 2.0), Point::new(1.0, 0.5)];
    let chart = Chart {
        title: "Q(t)",
        x_label: "slot",
        y_label: "waiting jobs",
        curves: vec![
            Curve { label: "VQS", color: Ink::Policy(0), points: &a, markers: true, stroke: Stroke::Solid },
            Curve { label: "BF-J/S", color: Ink::Policy(1), points: &b, markers: false, stroke: Stroke::Solid },
        ],
        x_marks: vec![Mark::new(0.5, "α = 1")],
        ..Chart::default()
    };
    let out = svg(&chart);
    assert!(out.contains("VQS") && out.contains("BF-J/S") && out.contains("α = 1"));
    assert!(
        out.contains("#0072B2") || out.contains("#0072b2") || out.contains("rgb(0,114,178)"),
        "palette colour missing"
    );
}

#[test]
fn log_axis_and_empty_charts_do_not_fail() {
    let a = [Point::new(0.85, 0.0), Point::new(0.9, 10.0), Point::new(0.95, 1000.0)];
    svg(&Chart {
        log_y: true,
        curves: vec![Curve { label: "x", color: Ink::Policy(3), points: &a, markers: true, stroke: Stroke::Solid }],
        ..Chart::default()
    });
    svg(&Chart::default());
    let flat = [Point::new(1.0, 5.0)];
    svg(&Chart {
        curves: vec![Curve {
            label: "flat",
            color: Ink::Class(2),
            points: &flat,
            markers: false,
            stroke: Stroke::Solid,
        }],
        ..Chart::default()
    });
}

#[test]
fn ticks_read_well() {
    assert_eq!(tick(20000.0), "20k");
    assert_eq!(tick(12500.0), "12.5k");
    assert_eq!(tick(5000.0), "5000");
    assert_eq!(tick(200000.0), "200k");
    assert_eq!(tick(2_000_000.0), "2M");
    assert_eq!(tick(1_500_000.0), "1.5M");
    assert_eq!(tick(0.95), "0.95");
    assert_eq!(tick(2.5), "2.5");
    assert_eq!(tick(0.0), "0");
    assert_eq!(tick(0.001), "0.001");
}

#[test]
fn close_mark_labels_do_not_overprint() {
    // Three vertical lines 10 px apart with 50 px labels: three rows; a far one: row 0.
    assert_eq!(stack_labels(&[(100, 50), (110, 50), (300, 40), (120, 50)]), [0, 1, 0, 2]);
    // Two horizontal lines at the same height: side by side; a distant one stays left.
    assert_eq!(side_by_side(&[(50, 40), (50, 30), (200, 10)]), [0, 52, 0]);
}

#[test]
fn a_long_legend_says_how_many_it_leaves_out() {
    let points = [Point::new(0.0, 1.0), Point::new(1.0, 2.0)];
    let labels: Vec<String> = (0..30).map(|i| format!("class {i}")).collect();
    let curves = labels
        .iter()
        .map(|l| Curve { label: l, color: Ink::Policy(0), points: &points, markers: false, stroke: Stroke::Solid })
        .collect();
    let out = svg(&Chart { curves, ..Chart::default() });
    assert!(out.contains("class 0") && !out.contains("class 29"), "a 400 px chart cannot list 30 curves");
    assert!(out.contains(" more<") || out.contains(" more"), "the legend says what it left out");
}

#[test]
fn css_colors() {
    assert_eq!(css_color(0), "#0072b2");
    assert_eq!(css_color(7), "#0072b2");
    assert_eq!(Ink::Class(0).css(), "#eedd88");
    // No class colour is a policy colour.
    assert!(CLASS_PALETTE.iter().all(|c| !PALETTE.contains(c)));
}

#[test]
fn the_legend_below_lists_curves_and_reference_lines_off_the_plot() {
    let a = [Point::new(0.0, 1.0), Point::new(10.0, 3.0)];
    let chart = Chart {
        title: "Occupancy",
        curves: vec![
            Curve { label: "VQS (J=2)", color: Ink::Policy(0), points: &a, markers: false, stroke: Stroke::Solid },
            Curve { label: "VQ1", color: Ink::Class(0), points: &a, markers: false, stroke: Stroke::Solid },
        ],
        x_marks: vec![Mark::new(2.0, "")],
        y_marks: vec![Mark::new(0.5, "1/2 guarantee"), Mark::inked(2.0, "VQS analysis", Ink::Policy(0))],
        legend: LegendAt::Below,
        ..Chart::default()
    };
    let out = svg(&chart);
    for label in ["VQS (J=2)", "VQ1", "1/2 guarantee", "VQS analysis"] {
        assert_eq!(out.matches(label).count(), 1, "{label} once, in the legend");
    }
    // The class line is cased: its colour over the dark grey.
    assert!(out.to_lowercase().contains("#eedd88") && out.to_lowercase().contains("#444444"));
    // Each labelled line has its own dash; the unlabelled warm-up line the plain one.
    assert_eq!(mark_dashes(&chart), [(6, 4), (6, 4), (2, 3)]);
}

#[test]
fn legend_rows_wrap_and_markers_stagger() {
    let placed = place_in_rows(&[100, 100, 100, 300], 250);
    let rows: Vec<(i32, i32)> = placed.iter().map(|p| (p.row, p.x)).collect();
    assert_eq!(rows, [(0, 0), (0, 116), (1, 0), (2, 0)]);
    // Two identical curves get their markers at different points.
    let points: Vec<Point> = (0..=100).map(|i| Point::new(f64::from(i), 1.0)).collect();
    let first: Vec<f64> = staggered(&points, 0, 2, (0.0, 100.0)).map(|p| p.x).collect();
    let second: Vec<f64> = staggered(&points, 1, 2, (0.0, 100.0)).map(|p| p.x).collect();
    assert_eq!(first.len(), STAGGERED_MARKERS);
    assert!(first.iter().all(|x| !second.contains(x)), "{first:?} {second:?}");
}

/// A dashed curve (a theory bound) is drawn in pieces, a solid one in one stroke, a dotted one
/// (a bound not proven here) in more, shorter pieces: the same curve in the same colour, drawn
/// each way, differs in the count of its colour's strokes.
#[test]
fn a_dashed_curve_is_drawn_in_dashes_and_a_dotted_one_in_dots() {
    let points = [Point::new(0.0, 0.5), Point::new(1.0, 0.7), Point::new(2.0, 0.6)];
    let strokes = |stroke: Stroke| {
        let out = svg(&Chart {
            curves: vec![Curve { label: "proven", color: Ink::Policy(2), points: &points, markers: false, stroke }],
            legend: LegendAt::UpperRight,
            ..Chart::default()
        });
        let colour = Ink::Policy(2).css();
        out.lines()
            .filter(|l| {
                (l.contains("<polyline") || l.contains("<line")) && l.to_lowercase().contains(&colour.to_lowercase())
            })
            .count()
    };
    let (solid, dashed, dotted) = (strokes(Stroke::Solid), strokes(Stroke::Dashed), strokes(Stroke::Dotted));
    assert!(dashed > solid + 5, "dashed {dashed} strokes, solid {solid}");
    assert!(dotted > dashed + 5, "dotted {dotted} strokes, dashed {dashed}");
}

/// WCAG's contrast ratio of two colours.
fn contrast(a: RGBColor, b: RGBColor) -> f64 {
    let luminance = |RGBColor(r, g, b): RGBColor| {
        let f = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    };
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn verdict_colours_stand_out_in_every_theme() {
    use packlab_core::stability::Verdict;
    for theme in [Theme::LIGHT, Theme::DARK, Theme::HIGH_CONTRAST] {
        for v in [Verdict::Stable, Verdict::Unstable, Verdict::Undecided] {
            let ratio = contrast(theme.verdict(v), theme.background);
            assert!(ratio >= 3.0, "{v:?} on {:?}: {ratio:.2}", theme.background);
        }
    }
    assert_eq!(Theme::LIGHT.verdict_css(Verdict::Unstable), "#b2182b");
}

/// The frame a chart is drawn in puts each verdict where the drawing put its marker: the
/// page's clicks are hit-tested against the drawing's own layout.
#[test]
fn the_frame_places_points_where_they_are_drawn() {
    use packlab_core::stability::Verdict;
    let verdicts = [
        VerdictPoint { x: 1.0, y: 0.5, verdict: Verdict::Stable },
        VerdictPoint { x: 2.0, y: 0.9, verdict: Verdict::Unstable },
    ];
    let line = [Point::new(1.0, 0.2), Point::new(2.0, 1.0)];
    let chart = Chart {
        curves: vec![Curve {
            label: "VQS",
            color: Ink::Policy(0),
            points: &line,
            markers: true,
            stroke: Stroke::Solid,
        }],
        verdicts: &verdicts,
        legend: LegendAt::Below,
        ..Chart::default()
    };
    let mut out = String::new();
    let frame = {
        let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
        let frame = draw_framed(&root, &chart).unwrap();
        root.present().unwrap();
        frame
    };
    // The stable verdict's dots: circles of radius 5 in the light theme's green, one on the plot
    // and one in the legend.
    let attr = |line: &str, name: &str| -> f64 {
        let from = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        line[from..].split('"').next().unwrap().parse().unwrap()
    };
    let dots: Vec<(f64, f64)> = out
        .lines()
        .filter(|l| l.contains("<circle") && l.contains("r=\"5\"") && l.to_lowercase().contains("#1b7837"))
        .map(|l| (attr(l, "cx"), attr(l, "cy")))
        .collect();
    assert_eq!(dots.len(), 2, "{dots:?}");
    let (px, py) = frame.pixel(1.0, 0.5);
    let drawn = dots.iter().any(|&(cx, cy)| (px - cx).abs() <= 1.0 && (py - cy).abs() <= 1.0);
    assert!(drawn, "({px}, {py}) against {dots:?}");
    assert!(out.contains("tested, not stable"), "the verdicts are in the legend");
    assert_eq!(frame.nearest(verdicts.iter().map(|v| (v.x, v.y)), (px + 3.0, py - 2.0), 8.0), Some(0));
    assert_eq!(frame.nearest(verdicts.iter().map(|v| (v.x, v.y)), (px + 30.0, py), 8.0), None);
    assert!(frame.contains((px, py), 0.0) && !frame.contains((-5.0, py), 0.0));
}

/// A map's interval is drawn over the loads tested along it (issue 53: the verdicts' marks hid
/// the intervals): in the SVG, the interval's vertical bar comes after the verdict's mark.
#[test]
fn intervals_are_drawn_over_the_verdicts() {
    use packlab_core::stability::Verdict;
    let points = [Point { x: 1.0, y: 3.0, interval: Some((2.0, 4.0)) }];
    let verdicts = [VerdictPoint { x: 1.0, y: 3.0, verdict: Verdict::Stable }];
    let chart = Chart {
        curves: vec![Curve {
            label: "VQS",
            color: Ink::Policy(0),
            points: &points,
            markers: true,
            stroke: Stroke::Solid,
        }],
        verdicts: &verdicts,
        x_range: Some((0.0, 2.0)),
        y_range: Some((0.0, 5.0)),
        ..Chart::default()
    };
    let out = svg(&chart);
    let theme = Theme::default();
    let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    let verdict = out.rfind(&format!("fill=\"{}\"", hex(theme.verdict(Verdict::Stable)))).expect("the verdict's mark");
    let policy = hex(theme.color(Ink::Policy(0)));
    // The bar: a line of the policy's colour whose two ends share their x.
    let bar =
        out.match_indices("<polyline")
            .map(|(at, _)| at)
            .filter(|&at| {
                let element = &out[at..at + out[at..].find("/>").unwrap()];
                let xs: Vec<&str> =
                    element.split("points=\"").nth(1).and_then(|p| p.split('"').next()).map_or(vec![], |p| {
                        p.split_whitespace().map(|xy| xy.split(',').next().unwrap_or("")).collect()
                    });
                element.contains(&policy) && xs.len() == 2 && xs[0] == xs[1]
            })
            .last()
            .expect("the interval's bar");
    assert!(bar > verdict, "the interval is drawn under the verdict's mark");
}

/// The stability map at one scenario, drawn (issue 53): the x axis names each policy at its
/// place, with no ticks between (it read 1, 1.2, 1.4, … under "policy (1 to 2)"), and each
/// policy's proven load is drawn over its own place only (it ran across every policy's).
#[test]
fn the_map_names_its_policies_and_keeps_each_proven_line_in_its_place() {
    use packlab_core::scenario::Setup;
    use packlab_core::stability::{Finder, Options, graph};
    let setup = Setup::from_preset("pgrr-a1").unwrap();
    let finder = Finder::new(&setup, None, Options::default()).unwrap();
    let g = graph(&finder);
    let figure = GraphChart::new(&g);
    let chart = figure.chart();
    let mut out = String::new();
    let frame = {
        let root = SVGBackend::with_string(&mut out, (640, 400)).into_drawing_area();
        let frame = draw_framed(&root, &chart).unwrap();
        root.present().unwrap();
        frame
    };
    let attr = |element: &str, name: &str| -> Option<f64> {
        let from = element.find(&format!(" {name}=\""))? + name.len() + 3;
        element[from..].split('"').next()?.parse().ok()
    };
    // The texts just under the plot: the x axis's tick labels.
    let bottom = frame.pixels_y.0;
    let ticks: Vec<(f64, String)> = out
        .split("<text")
        .skip(1)
        .filter_map(|t| {
            let (x, y) = (attr(t, "x")?, attr(t, "y")?);
            let text = t.split('>').nth(1)?.split('<').next()?.trim().to_string();
            (y > bottom && y < bottom + 30.0).then_some((x, text))
        })
        .collect();
    let names: Vec<&str> = ticks.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(names, finder.labels(), "the x axis's ticks");
    // Each name under its place.
    for (i, (x, _)) in ticks.iter().enumerate() {
        let place = frame.pixel((i + 1) as f64, 0.0).0;
        assert!((x - place).abs() < 60.0, "tick {i} at {x}, its place at {place}");
    }
    // Each proven load: dashes in its policy's colour at its height, over its place only, with
    // the dash of a proven curve (not another reference line's, which could read as dotted).
    let dashes = mark_dashes(&chart);
    for (m, dash) in g.y_marks.iter().zip(&dashes).filter(|(m, _)| m.label.contains(" proven ")) {
        assert_eq!(*dash, CURVE_DASH, "{}", m.label);
        let p = m.color.expect("a policy's proven load");
        let colour = Ink::Policy(p).css().to_lowercase();
        let y = frame.pixel(1.0, m.value).1;
        let xs: Vec<f64> = out
            .split("<polyline")
            .skip(1)
            .map(|e| &e[..e.find("/>").unwrap_or(e.len())])
            .filter(|e| e.to_lowercase().contains(&colour))
            .filter_map(|e| e.split("points=\"").nth(1)?.split('"').next())
            .filter_map(|points| {
                let xy: Vec<(f64, f64)> = points
                    .split_whitespace()
                    .filter_map(|xy| xy.split_once(',').and_then(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?))))
                    .collect();
                let level = xy.len() == 2 && xy.iter().all(|&(_, py)| (py - y).abs() <= 1.0);
                level.then(|| xy.iter().map(|&(x, _)| x).collect::<Vec<f64>>())
            })
            .flatten()
            .collect();
        assert!(!xs.is_empty(), "{}: no dashes in its colour at its height", m.label);
        let (from, to) = (frame.pixel(p as f64 + 0.5, 0.0).0, frame.pixel(p as f64 + 1.5, 0.0).0);
        assert!(xs.iter().all(|&x| x >= from && x <= to), "{}: dashes at {xs:?}, its place {from} to {to}", m.label);
    }
}

/// A run's changes (issue 54): each a dotted line, one legend entry for them all below the plot
/// and each labelled on it otherwise, and the bands shaded under the curves, one legend entry.
#[test]
fn changes_are_dotted_and_bands_shaded_under_the_curves() {
    use packlab_core::changes::Changes;
    let changes = Changes::parse("5000:load=1.3;12000:load=0.5").unwrap();
    let marks = ChangeMarks::of(&changes);
    let below: Vec<Mark<'_>> = marks.marks(20_000.0, true).collect();
    assert_eq!(below.iter().map(|m| m.value).collect::<Vec<_>>(), [5_000.0, 12_000.0]);
    assert!(below.iter().all(|m| m.stroke == Some(Stroke::Dotted)));
    assert_eq!(below[0].label, CHANGE_LABEL);
    assert_eq!(below[1].label, "");
    let on_plot: Vec<&str> = marks.marks(20_000.0, false).map(|m| m.label).collect();
    assert_eq!(on_plot, ["load = 1.3", "load = 0.5"]);
    assert_eq!(marks.marks(6_000.0, true).count(), 1, "only the changes reached");
    let q = [Point::new(0.0, 1.0), Point::new(20_000.0, 3.0)];
    let band = |x, ink| Band { x, y: (0.0, 2.0), label: BAND_LABEL, ink };
    let chart = Chart {
        curves: vec![Curve {
            label: "BF-J/S",
            color: Ink::Policy(1),
            points: &q,
            markers: false,
            stroke: Stroke::Solid,
        }],
        x_marks: below,
        bands: vec![band((5_000.0, 7_000.0), Ink::Policy(1)), band((12_000.0, 12_500.0), Ink::Policy(1))],
        legend: LegendAt::Below,
        ..Chart::default()
    };
    let out = svg(&chart);
    assert_eq!(out.matches("band until back in it").count(), 1, "one legend entry for the bands");
    assert_eq!(out.matches(CHANGE_LABEL).count(), 1);
    // Both bands filled translucently in the lane's colour, before (under) its curve.
    let fills = out.matches("opacity=\"0.18\" fill=\"#D55E00\"").count();
    assert_eq!(fills, 2, "{out}");
    let first_band = out.find("opacity=\"0.18\"").unwrap();
    let curve = out.rfind("<polyline").unwrap();
    assert!(first_band < curve, "bands under the curve");
    assert_eq!(mark_dashes(&chart), [CURVE_DOT, CURVE_DOT]);
}
