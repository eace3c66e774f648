//! The canvas of one lane: its cluster, redrawn when a new view arrives and when its size
//! changes; a click tells the inspector what it points at.

use std::rc::Rc;

use packlab_core::view::ClusterView;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::cluster::layout::{Hit, ServerStyle, hit};
use crate::cluster::paint::{describe, draw};
use crate::hooks::use_backdrop::use_backdrop;
use crate::hooks::use_canvas_size::{css_size, use_canvas_size};
use crate::hooks::use_staged::{in_a_task_of_its_own, mark};

#[derive(Properties, PartialEq)]
pub struct ClusterCanvasProps {
    pub view: Rc<ClusterView>,
    pub bin_labels: Rc<[String]>,
    pub detail: bool,
    /// Skip redraws closer together than this (for `prefers-reduced-motion`), in ms.
    #[prop_or_default]
    pub min_interval_ms: f64,
    #[prop_or_default]
    pub style: ServerStyle,
    /// Told what a click points at (the inspector).
    #[prop_or_default]
    pub on_hit: Option<Callback<Hit>>,
    /// Whether the race plays: the canvas's label then says to pause instead of describing a
    /// cluster that changes every frame, as the charts' summaries do.
    #[prop_or_default]
    pub playing: bool,
}

/// The canvas of one lane, redrawn when a new view arrives and when its size changes.
#[component]
pub fn ClusterCanvas(props: &ClusterCanvasProps) -> Html {
    let canvas = use_node_ref();
    let last_draw = use_mut_ref(|| f64::NEG_INFINITY);
    let latest = use_mut_ref(|| (props.view.clone(), props.bin_labels.clone(), props.detail, props.style));
    *latest.borrow_mut() = (props.view.clone(), props.bin_labels.clone(), props.detail, props.style);
    // A change of theme changes what shows behind the opaque canvas: it draws again.
    let themes_seen = use_mut_ref(|| 0_u32);
    let render = use_force_update();
    let backdrop = use_backdrop({
        let themes_seen = themes_seen.clone();
        Callback::from(move |()| {
            *themes_seen.borrow_mut() += 1;
            render.force_update();
        })
    });
    let redraw = {
        let (canvas, latest) = (canvas.clone(), latest.clone());
        move |size: (f64, f64)| {
            if let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                let (view, labels, detail, style) = &*latest.borrow();
                if let Err(e) = draw(&canvas, size, view, labels, *detail, *style, &backdrop.colour(&canvas)) {
                    web_sys::console::warn_1(&e.into());
                }
            }
        }
    };
    // A new size (the first report once the canvas is laid out, a window resized) is drawn
    // in a task of its own: the first reports come in the frame that shows the app, whose
    // layout is long already (docs/web.md, "The first render, in stages").
    let on_resize = {
        let redraw = redraw.clone();
        Callback::from(move |size| {
            let redraw = redraw.clone();
            in_a_task_of_its_own(move || {
                mark("packlab lane");
                redraw(size);
            });
        })
    };
    let size = use_canvas_size(canvas.clone(), on_resize, false);
    {
        let (canvas, min_interval) = (canvas.clone(), props.min_interval_ms);
        use_effect_with((props.view.clone(), *themes_seen.borrow()), move |_| {
            let now = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
            // Not before the canvas's size is known: its first report draws the lane (drawn here
            // too, each lane was drawn twice as the lab opened, first after a forced layout).
            if size.get().is_some()
                && now - *last_draw.borrow() >= min_interval
                && let Some(element) = canvas.cast::<HtmlCanvasElement>()
            {
                *last_draw.borrow_mut() = now;
                redraw(css_size(&element, &size));
            }
        });
    }
    // Rewriting the label sixty times a second tells a screen reader nothing it can keep up
    // with, and makes the browser rebuild the canvas's accessible node every frame.
    let title = if props.playing {
        format!("{} servers: playing, pause to hear how full they are.", props.view.servers.len())
    } else {
        describe(&props.view, &props.bin_labels)
    };
    let onclick = props.on_hit.clone().map(|on_hit| {
        let (view, detail, style) = (props.view.clone(), props.detail, props.style);
        Callback::from(move |e: MouseEvent| {
            let canvas: HtmlCanvasElement = e.target_unchecked_into();
            let width = f64::from(canvas.client_width());
            if let Some(hit) = hit(&view, style, width, detail, f64::from(e.offset_x()), f64::from(e.offset_y())) {
                on_hit.emit(hit);
            }
        })
    });
    let clickable = onclick.as_ref().map(|_| "clickable");
    html! {
        <canvas ref={canvas} class={classes!("cluster", clickable)} role="img" aria-label={title} {onclick}
            title={onclick_title(props.on_hit.is_some())} />
    }
}

/// The canvas's tooltip when clicks inspect.
fn onclick_title(inspects: bool) -> Option<&'static str> {
    inspects.then_some("Click a server, a job or a bin to see the decisions behind it")
}
