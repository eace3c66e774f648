//! What the scenario's theory draws without simulating (PG-AS's bounds against α, its random
//! collections' ratios), as the model describes it ([`packlab_core::graph::Graph`]): computed
//! in WebAssembly by the core, again only when the keys the theory depends on change, drawn as
//! the CLI draws it, with the scenario's own load marked where the x axis is the load.

use std::rc::Rc;

use packlab_core::graph::{Graph, Mark};
use packlab_core::scenario::Scenario;
use packlab_plot::GraphChart;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
use crate::dom::page::{client_size, draw_and_follow_resizes};
use crate::export::{ImageFormat, export_size, save_chart};

#[derive(Properties, PartialEq)]
pub struct TheoryViewProps {
    pub scenario: Rc<Scenario>,
    /// The file name exports start with.
    pub name: String,
}

/// Every graph of the scenario's theory; nothing for a scenario whose model has none.
#[component]
pub fn TheoryView(props: &TheoryViewProps) -> Html {
    let scenario = &props.scenario;
    // The graphs depend only on the keys the model names, not on the seed or L, say.
    let key: Vec<String> = scenario.info().theory_keys.iter().map(|k| scenario.get(k).unwrap_or_default()).collect();
    let graphs = {
        let scenario = scenario.clone();
        use_memo(key, move |_| scenario.any().theory())
    };
    let load = scenario.load();
    let symbol = scenario.any().load_knob().symbol;
    html! {
        <>
            { for graphs.iter().map(|graph| match graph {
                Ok(graph) => html! {
                    <TheoryGraph graph={Rc::new(graph.clone())} {load} {symbol} name={props.name.clone()} />
                },
                Err(message) => html! { <p class="error" role="alert">{ format!("The theory's chart: {message}") }</p> },
            }) }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct TheoryGraphProps {
    graph: Rc<Graph>,
    /// The scenario's load, marked when the x axis is the load knob, and the knob's symbol.
    load: f64,
    symbol: &'static str,
    name: String,
}

/// One graph: a canvas that follows the window's size, its caption and its exports.
#[component]
fn TheoryGraph(props: &TheoryGraphProps) -> Html {
    let canvas = use_node_ref();
    // The scenario's load, unlabelled (the caption names it): a label would sit on another
    // mark's when the load is near one.
    let graph = use_memo((props.graph.clone(), props.load.to_bits()), |(graph, _)| {
        let mut graph = (**graph).clone();
        if graph.x_is_load {
            graph.x_marks.push(Mark::new(props.load, ""));
        }
        Rc::new(graph)
    });
    {
        let (canvas, graph) = (canvas.clone(), graph.clone());
        use_effect_with(graph.clone(), move |_| {
            let redraw = move || {
                if let Some(canvas) = canvas.cast::<HtmlCanvasElement>()
                    && let Err(e) = draw(&canvas, client_size(&canvas), &GraphChart::new(&graph).chart())
                {
                    web_sys::console::warn_1(&e.into());
                }
            };
            draw_and_follow_resizes(redraw)
        });
    }
    let id = graph.id;
    let save = |format: ImageFormat| {
        let (graph, base) = (graph.clone(), format!("{}-chart-{id}", props.name));
        Callback::from(move |_: MouseEvent| {
            let chart = GraphChart::new(&graph);
            if let Err(e) = save_chart(&chart.chart(), export_size(&format!("chart-{id}")), &base, format) {
                web_sys::console::warn_1(&e.into());
            }
        })
    };
    let mut figure = html! {
        <figure class="chart" id={format!("{id}-view")}>
            <canvas ref={canvas} id={format!("chart-{id}")} role="img" aria-label={graph.description.clone()} />
            <figcaption>
                { &graph.caption }
                if graph.x_is_load {
                    { format!(" Dashed too: this scenario's {} = {}.", props.symbol, props.load) }
                }
                <button type="button" id={format!("export-chart-{id}")} class="small" onclick={save(ImageFormat::Png)}>{ "PNG" }</button>
                <button type="button" id={format!("export-chart-{id}-svg")} class="small" onclick={save(ImageFormat::Svg)}>{ "SVG" }</button>
            </figcaption>
        </figure>
    };
    if let yew::virtual_dom::VNode::VTag(tag) = &mut figure {
        let tag = std::rc::Rc::make_mut(tag);
        for (key, value) in &graph.data {
            tag.add_attribute(key, value.clone());
        }
    }
    html! { <div class="chart-box wide">{ figure }</div> }
}
