//! PG-AS Fig. 2 on the page: the global greedy's reward U^(g)\[αρ\] and the LP optimum U*\[αρ\]
//! against the workload scale α, computed in WebAssembly by the core (an LP solve per point)
//! once per type catalogue and workload, with the critical points where the two part and meet
//! and the scenario's current α marked.

use std::rc::Rc;

use packlab_core::models::pgas::PgasTypes;
use packlab_core::models::pgas::theory::{AlphaCurve, CollectionResult, CollectionSummary, SweepPoint, c1_statistics};
use packlab_core::scenario::Scenario;
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark, Point};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::chart::draw;
use crate::dom::page::{client_size, draw_and_follow_resizes};
use crate::export::{ImageFormat, export_size, save_chart};

/// The α range of the figure (the paper's Fig. 2 runs to 10).
const ALPHA_MAX: f64 = 10.0;

/// The curve of `scenario`'s instance and workload, or `None` where there is no instance (a
/// trace, random collections, another model).
pub fn alpha_curve(scenario: &Scenario) -> Option<Result<AlphaCurve, String>> {
    let Scenario::Pgas(s) = scenario else { return None };
    s.alpha_view()
}

/// One sentence on the curve: where greedy is optimal and where it is worst.
pub fn summary(curve: &AlphaCurve) -> String {
    let worst = curve.points.iter().filter(|p| p.optimal_reward > 0.0).min_by(|a, b| a.ratio.total_cmp(&b.ratio));
    let parts: Vec<String> = curve.critical.iter().map(|c| c.label()).collect();
    let equal = match parts.as_slice() {
        [] => "U^(g) = U* over the whole range".to_string(),
        [a, b] => format!("U^(g) = U* up to {a} and from {b} on, U^(g) < U* between"),
        _ => format!("U^(g) and U* part or meet at {}", parts.join(", ")),
    };
    match worst {
        Some(w) if w.ratio < 1.0 - 1e-9 => {
            format!("{equal}; the worst ratio U^(g)/U* on the grid is {:.4}, at α = {}", w.ratio, w.alpha)
        }
        _ => equal,
    }
}

/// The α chart; `figure` says whether the types are the paper's Fig. 2 collection.
fn chart<'a>(
    curve: &'a AlphaCurve,
    points: &'a [Vec<Point>; 2],
    labels: &'a [String],
    alpha: f64,
    figure: bool,
) -> Chart<'a> {
    Chart {
        title: if figure {
            "Bounds against the workload scale α (PG-AS Fig. 2)"
        } else {
            "Bounds against the workload scale α"
        },
        x_label: "workload scale α",
        y_label: "reward per server",
        curves: vec![
            Curve { label: "U* (LP optimum)", color: Ink::Policy(1), points: &points[1], markers: false },
            Curve { label: "U^(g) (global greedy)", color: Ink::Policy(0), points: &points[0], markers: false },
        ],
        x_marks: curve
            .critical
            .iter()
            .zip(labels)
            .map(|(c, label)| Mark::new(c.alpha, label))
            // This scenario's α, unlabelled (the caption names it): a label would sit on a
            // critical point's when α is near one.
            .chain(std::iter::once(Mark::new(alpha, "")))
            .collect(),
        x_range: Some((0.0, ALPHA_MAX)),
        legend: LegendAt::Below,
        ..Chart::default()
    }
}

#[derive(Properties, PartialEq)]
pub struct AlphaChartProps {
    pub scenario: Rc<Scenario>,
    /// The file name exports start with.
    pub name: String,
}

/// The α chart, with a line on what it shows; nothing for scenarios without an instance.
#[component]
pub fn AlphaChart(props: &AlphaChartProps) -> Html {
    let canvas = use_node_ref();
    // The curve depends only on the types and the base workload, not on α, L or the seed.
    let key = (props.scenario.get("types").unwrap_or_default(), props.scenario.get("rho").unwrap_or_default());
    let curve = {
        let scenario = props.scenario.clone();
        use_memo(key, move |_| alpha_curve(&scenario))
    };
    let alpha = props.scenario.load();
    let figure = matches!(&*props.scenario, Scenario::Pgas(s) if s.types == PgasTypes::C2);
    let prepared = use_memo(curve.clone(), |curve| {
        let Some(Ok(curve)) = &**curve else { return None };
        let line =
            |f: fn(&SweepPoint) -> f64| curve.points.iter().map(|p| Point::new(p.alpha, f(p))).collect::<Vec<_>>();
        let labels: Vec<String> = curve.critical.iter().map(|c| c.label()).collect();
        Some(Rc::new(([line(|p| p.greedy_reward), line(|p| p.optimal_reward)], labels)))
    });
    {
        let (canvas, curve, prepared) = (canvas.clone(), curve.clone(), prepared.clone());
        use_effect_with((prepared.clone(), alpha.to_bits(), figure), move |_| {
            let redraw = move || {
                if let (Some(Ok(curve)), Some(prepared), Some(canvas)) =
                    (&*curve, &*prepared, canvas.cast::<HtmlCanvasElement>())
                {
                    let (points, labels) = &**prepared;
                    if let Err(e) = draw(&canvas, client_size(&canvas), &chart(curve, points, labels, alpha, figure)) {
                        web_sys::console::warn_1(&e.into());
                    }
                }
            };
            draw_and_follow_resizes(redraw)
        });
    }
    let save = |format: ImageFormat| {
        let (name, curve, prepared) = (props.name.clone(), curve.clone(), prepared.clone());
        Callback::from(move |_: MouseEvent| {
            let (Some(Ok(curve)), Some(prepared)) = (&*curve, &*prepared) else { return };
            let (points, labels) = &**prepared;
            let chart = chart(curve, points, labels, alpha, figure);
            let base = format!("{name}-chart-alpha");
            if let Err(e) = save_chart(&chart, export_size("chart-alpha"), &base, format) {
                web_sys::console::warn_1(&e.into());
            }
        })
    };
    match &*curve {
        None => html! {},
        Some(Err(message)) => html! { <p class="error" role="alert">{ format!("α chart: {message}") }</p> },
        Some(Ok(c)) => {
            let critical: Vec<String> = c.critical.iter().map(|p| p.alpha.to_string()).collect();
            html! {
                <div class="chart-box wide">
                    <figure class="chart" id="alpha-view" data-critical={critical.join(",")}>
                        <canvas ref={canvas} id="chart-alpha" role="img"
                            aria-label="Line chart of the greedy reward U^(g) and the LP optimum U* against the workload scale α, with the critical points and the current α as dashed lines" />
                        <figcaption>
                            { summary(c) }
                            { format!(". Dashed: those points and this scenario's α = {alpha}. Computed here, in \
                                       WebAssembly, one LP per point.") }
                            <button type="button" id="export-chart-alpha" class="small" onclick={save(ImageFormat::Png)}>{ "PNG" }</button>
                            <button type="button" id="export-chart-alpha-svg" class="small" onclick={save(ImageFormat::Svg)}>{ "SVG" }</button>
                        </figcaption>
                    </figure>
                </div>
            }
        }
    }
}

/// Whether `scenario` is PGAS-C1's random collections, which the page shows as statistics
/// instead of a race.
pub fn collections_only(scenario: &Scenario) -> bool {
    matches!(scenario, Scenario::Pgas(s) if s.bounds_only())
}

/// The C1 statistics of `scenario`'s random collections (`None` for other scenarios).
fn collections(scenario: &Scenario) -> Option<Result<(Vec<CollectionResult>, CollectionSummary), String>> {
    let Scenario::Pgas(s) = scenario else { return None };
    let PgasTypes::Random { collections, memory } = s.types else { return None };
    Some(c1_statistics(s.window.seed, collections as usize, memory).map_err(|e| e.to_string()))
}

/// The collections' ratios U^(g)/U*, sorted, as points 1, 2, ….
fn sorted_ratios(results: &[CollectionResult]) -> Vec<Point> {
    let mut ratios: Vec<f64> = results.iter().map(|r| r.ratio).collect();
    ratios.sort_by(f64::total_cmp);
    ratios.iter().enumerate().map(|(i, &r)| Point::new((i + 1) as f64, r)).collect()
}

/// The sorted ratios against the guarantees of PG-AS's Theorems 3.7 and 3.9.
fn collections_chart<'a>(points: &'a [Point], summary: &CollectionSummary) -> Chart<'a> {
    Chart {
        title: "U^(g)/U* of each random collection, sorted",
        x_label: "collection (sorted by ratio)",
        y_label: "U^(g) / U*",
        curves: vec![Curve { label: "ratio", color: Ink::Policy(0), points, markers: true }],
        y_marks: vec![Mark::new(summary.guarantee, "1 − 1/e (Theorem 3.9)"), Mark::new(0.5, "1/2 (Theorem 3.7)")],
        y_range: Some((0.45, 1.02)),
        legend: LegendAt::Below,
        ..Chart::default()
    }
}

#[derive(Properties, PartialEq)]
pub struct CollectionsViewProps {
    pub scenario: Rc<Scenario>,
    pub name: String,
}

/// PGAS-C1 (PG-AS §7.1): U^(g)/U* of random VM collections, computed here, as a sorted chart
/// of the ratios with Theorem 3.9's 1 − 1/e and Theorem 3.7's 1/2, and the summary numbers
/// (also as `data-*` attributes of `#collections`).
#[component]
pub fn CollectionsView(props: &CollectionsViewProps) -> Html {
    let canvas = use_node_ref();
    let key = (props.scenario.get("types").unwrap_or_default(), props.scenario.seed());
    let stats = {
        let scenario = props.scenario.clone();
        use_memo(key, move |_| collections(&scenario))
    };
    {
        let (canvas, stats) = (canvas.clone(), stats.clone());
        use_effect_with(stats.clone(), move |_| {
            let redraw = move || {
                let (Some(Ok((results, summary))), Some(canvas)) = (&*stats, canvas.cast::<HtmlCanvasElement>()) else {
                    return;
                };
                let points = sorted_ratios(results);
                if let Err(e) = draw(&canvas, client_size(&canvas), &collections_chart(&points, summary)) {
                    web_sys::console::warn_1(&e.into());
                }
            };
            draw_and_follow_resizes(redraw)
        });
    }
    let save = |format: ImageFormat| {
        let (name, stats) = (props.name.clone(), stats.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(Ok((results, summary))) = &*stats else { return };
            let points = sorted_ratios(results);
            let base = format!("{name}-chart-collections");
            let size = export_size("chart-collections");
            if let Err(e) = save_chart(&collections_chart(&points, summary), size, &base, format) {
                web_sys::console::warn_1(&e.into());
            }
        })
    };
    match &*stats {
        None => html! {},
        Some(Err(message)) => html! { <p class="error" role="alert">{ format!("collections: {message}") }</p> },
        Some(Ok((_, s))) => html! {
            <section id="collections" class="collections" aria-label="Random collections"
                data-count={s.count.to_string()} data-ratio-one={s.ratio_one.to_string()}
                data-mean-ratio={s.mean_ratio.to_string()} data-min-ratio={s.min_ratio.to_string()}
                data-below-guarantee={s.below_guarantee.to_string()}>
                <p>{ format!(
                    "{} collections (seed {}): U^(g) = U* in {}, mean ratio {:.3}, minimum {:.3}; {} below 1 − 1/e = {:.3}. \
                     This preset computes bounds only, no simulation: change the seed for other collections. The \
                     paper reports 23 of 50 at ratio 1, mean 0.972 and minimum ≥ 0.86 with its own random draws.",
                    s.count, props.scenario.seed(), s.ratio_one, s.mean_ratio, s.min_ratio, s.below_guarantee, s.guarantee
                ) }</p>
                <figure class="chart">
                    <canvas ref={canvas} id="chart-collections" role="img"
                        aria-label="The ratio U^(g)/U* of each random collection, sorted, with 1 − 1/e and 1/2 as dashed lines" />
                    <figcaption>
                        { "Computed here, in WebAssembly: the exact global greedy and an LP per collection." }
                        <button type="button" id="export-chart-collections" class="small" onclick={save(ImageFormat::Png)}>{ "PNG" }</button>
                        <button type="button" id="export-chart-collections-svg" class="small" onclick={save(ImageFormat::Svg)}>{ "SVG" }</button>
                    </figcaption>
                </figure>
            </section>
        },
    }
}
