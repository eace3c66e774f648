//! PG-AS Fig. 2 on the page: the global greedy's reward U^(g)\[αρ\] and the LP optimum U*\[αρ\]
//! against the workload scale α, computed in WebAssembly by the core (an LP solve per point)
//! once per type catalogue and workload, with the critical points where the two part and meet
//! and the scenario's current α marked.

use std::rc::Rc;

use packlab_core::models::pgas::PgasTypes;
use packlab_core::models::pgas::theory::{AlphaCurve, SweepPoint};
use packlab_core::scenario::Scenario;
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark, Point};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
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
