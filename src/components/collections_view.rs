//! PGAS-C1 (PG-AS §7.1) on the page: U^(g)/U* of random VM collections, computed here, in place
//! of a race.

use std::rc::Rc;

use packlab_core::models::pgas::PgasTypes;
use packlab_core::models::pgas::theory::{CollectionResult, CollectionSummary, c1_statistics};
use packlab_core::scenario::Scenario;
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark, Point};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
use crate::dom::page::{client_size, draw_and_follow_resizes};
use crate::export::{ImageFormat, export_size, save_chart};

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
