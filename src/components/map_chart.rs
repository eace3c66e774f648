//! The stability map's chart: the core's chart of the map ([`graph`], `packlab stability`'s
//! SVG) on a canvas, every tested load coloured by its verdict, and a click on a tested load
//! or on an interval opening the lab at that scenario and load. What the pointer is over is
//! found from the [`Frame`] the drawing itself reports, so the hit areas are where the marks
//! were drawn. The map's table holds the same points as links, for the keyboard.

use std::cell::RefCell;
use std::rc::Rc;

use packlab_core::model::table::sig;
use packlab_core::stability::{Finder, Verdict, boundaries, graph, probed};
use packlab_plot::{Frame, GraphChart};
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw_framed;

/// How near a tested load's mark a click must be, in CSS pixels (a mark is 10 to 14 wide).
const POINT_RADIUS: f64 = 10.0;
/// How near an interval's bar a click must be, across it, in CSS pixels.
const BAR_SLACK: f64 = 6.0;

#[derive(Properties)]
pub struct MapChartProps {
    pub finder: Finder,
    pub theme: packlab_plot::Theme,
}

impl PartialEq for MapChartProps {
    /// The chart changes with each round and with the theme.
    fn eq(&self, other: &Self) -> bool {
        self.theme == other.theme
            && self.finder.rounds == other.finder.rounds
            && self.finder.cells == other.finder.cells
            && self.finder.tested == other.finder.tested
    }
}

/// A point of the map under the pointer: the cell, the load tested there and its verdict.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Target {
    cell: usize,
    load: f64,
    verdict: Verdict,
}

/// What is at pixel `at`: the nearest tested load within [`POINT_RADIUS`], else the interval
/// whose bar passes within [`BAR_SLACK`], at its nearer end (both ends are tested loads).
fn target_at(finder: &Finder, frame: &Frame, at: (f64, f64)) -> Option<Target> {
    let points = probed(finder);
    if let Some(i) = frame.nearest(points.iter().map(|p| (p.x, p.tested.load)), at, POINT_RADIUS) {
        let p = &points[i];
        return Some(Target { cell: p.cell, load: p.tested.load, verdict: p.tested.judgement.verdict });
    }
    boundaries(finder).into_iter().find_map(|(cell, point)| {
        let (lo, hi) = point.interval?;
        let (x, y_lo) = frame.pixel(point.x, lo);
        let (_, y_hi) = frame.pixel(point.x, hi);
        let across = (at.0 - x).abs() <= BAR_SLACK;
        let along = at.1 >= y_lo.min(y_hi) - BAR_SLACK && at.1 <= y_lo.max(y_hi) + BAR_SLACK;
        if !(across && along) {
            return None;
        }
        let c = &finder.cells[cell];
        let ends = [c.lo, c.hi].into_iter().flatten();
        let nearer = ends.min_by(|a, b| {
            let off = |load: f64| (frame.pixel(point.x, load).1 - at.1).abs();
            off(a.load).total_cmp(&off(b.load))
        })?;
        Some(Target { cell, load: nearer.load, verdict: nearer.judgement.verdict })
    })
}

/// The verdict as an identifier, in `data-verdict` attributes and class names (the words
/// people read are [`Verdict::word`]'s).
pub fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Stable => "stable",
        Verdict::Unstable => "unstable",
        Verdict::Undecided => "undecided",
    }
}

/// What a point says of itself (the table's link says the same).
pub fn point_label(finder: &Finder, cell: usize, load: f64, verdict: Verdict) -> String {
    let policy = &finder.labels()[finder.cells[cell].policy];
    format!("{policy} at load {}: {}; open the lab there", sig(load), verdict.word())
}

/// The lab's address at a point of the map (relative: `?…`).
fn lab_href(finder: &Finder, target: Target) -> Option<String> {
    packlab_core::link::map_point(finder, finder.cells[target.cell].value, target.load).ok().map(|q| format!("?{q}"))
}

/// The pointer's position on the canvas, in CSS pixels.
fn pointer(e: &MouseEvent) -> (f64, f64) {
    (f64::from(e.offset_x()), f64::from(e.offset_y()))
}

/// The map's chart on a canvas, its tested loads clickable.
#[component]
pub fn MapChart(props: &MapChartProps) -> Html {
    let canvas = use_node_ref();
    // The frame of the last drawing, and the finder it was drawn from.
    let drawn: Rc<RefCell<Option<(Frame, Finder)>>> = use_mut_ref(|| None);
    let chart = graph(&props.finder);
    {
        let (canvas, drawn, finder, theme) = (canvas.clone(), drawn.clone(), props.finder.clone(), props.theme);
        use_effect(move || {
            let Some(canvas) = canvas.cast::<HtmlCanvasElement>() else { return };
            let graph = graph(&finder);
            let size = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
            let figure = GraphChart::new(&graph);
            let chart = packlab_plot::Chart { theme, ..figure.chart() };
            match draw_framed(&canvas, size, &chart) {
                Ok(frame) => {
                    // Where each tested load was drawn, for whoever reads the page (a test).
                    let points: Vec<serde_json::Value> = probed(&finder)
                        .iter()
                        .map(|p| {
                            let (x, y) = frame.pixel(p.x, p.tested.load);
                            serde_json::json!({
                                "x": x, "y": y, "load": p.tested.load,
                                "verdict": verdict_word(p.tested.judgement.verdict),
                                "policy": finder.setup.policies[finder.cells[p.cell].policy].to_string(),
                            })
                        })
                        .collect();
                    let _ = canvas.set_attribute("data-points", &serde_json::Value::Array(points).to_string());
                    *drawn.borrow_mut() = Some((frame, finder));
                }
                Err(e) => web_sys::console::warn_1(&e.into()),
            }
        });
    }
    let onclick = {
        let drawn = drawn.clone();
        Callback::from(move |e: MouseEvent| {
            let href = drawn.borrow().as_ref().and_then(|(frame, finder)| {
                target_at(finder, frame, pointer(&e)).and_then(|target| lab_href(finder, target))
            });
            if let (Some(href), Some(window)) = (href, web_sys::window()) {
                let _ = window.location().set_href(&href);
            }
        })
    };
    let onmousemove = {
        let drawn = drawn.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(canvas) = e.target().and_then(|t| t.dyn_into::<HtmlCanvasElement>().ok()) else { return };
            let said = drawn.borrow().as_ref().and_then(|(frame, finder)| {
                target_at(finder, frame, pointer(&e)).map(|t| point_label(finder, t.cell, t.load, t.verdict))
            });
            let _ = canvas.set_attribute("data-pointing", if said.is_some() { "true" } else { "false" });
            canvas.set_title(&said.unwrap_or_default());
        })
    };
    html! {
        <figure class="chart">
            <canvas ref={canvas} id="chart-stability" role="img" aria-label={chart.description.clone()}
                {onclick} {onmousemove} />
            <figcaption>
                { chart.caption.clone() }
                { " A click on a tested load or an interval opens the lab there; the table below has the same points as links." }
            </figcaption>
        </figure>
    }
}
