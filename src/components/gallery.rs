//! The landing view: every preset as a card, grouped by paper, with its figure, its one
//! sentence and a live thumbnail (the first moments of its race, drawn as the curve its page
//! plots). A card opens the lab on its preset; the lab's brand link comes back here.
//!
//! Thumbnails are computed one card at a time, each within a small time budget, after the
//! cards are on screen, so the gallery shows at once and never holds the page up.

use std::rc::Rc;

use packlab_core::models::all as all_models;
use packlab_core::scenario::{Preset, presets};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use crate::dom::workers::now_ms;
use crate::play::race::Race;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::{Action, preset_setup};

/// Simulation time a thumbnail may take, in ms.
const THUMBNAIL_BUDGET_MS: f64 = 25.0;
/// Thumbnail size in CSS pixels.
const THUMBNAIL: (f64, f64) = (240.0, 64.0);

#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    pub dispatch: Callback<Action>,
}

/// Every preset, by paper.
#[component]
pub fn Gallery(props: &GalleryProps) -> Html {
    let all = presets();
    html! {
        <main class="gallery" id="gallery" aria-labelledby="gallery-title">
            <section class="gallery-intro">
                <h1 id="gallery-title" tabindex="-1">{ "Every figure of the papers, live" }</h1>
                <p>{ "Pick a figure: its scenario opens in the lab, ready to play, with every control at hand. The \
                      thumbnails are the first moments of each run, simulated here." }</p>
            </section>
            <section class="paper tours" aria-label="Guided tours">
                <h2>{ "Guided tours: predict, run, check" }</h2>
                <ul class="cards">
                    { for packlab_core::tours::TOURS.iter().map(|tour| {
                        let id = tour.id;
                        let start = props.dispatch.reform(move |e: MouseEvent| {
                            e.prevent_default();
                            Action::StartTour(id)
                        });
                        html! {
                            <li class="card" data-tour={id}>
                                <a href={format!("?tour={id}")} onclick={start}>
                                    <span class="figure">{ format!("Tour · {}", tour.paper) }</span>
                                    <span class="card-title">{ tour.title }</span>
                                    <span class="card-summary">{ format!("{} step{}", tour.steps.len(),
                                        if tour.steps.len() == 1 { "" } else { "s" }) }</span>
                                </a>
                            </li>
                        }
                    }) }
                </ul>
            </section>
            { for all_models().into_iter().map(|model| {
                let cards: Vec<&Preset> = all.iter().filter(|p| p.scenario.info().id == model.id).collect();
                html! {
                    <section class="paper" aria-label={model.label} data-model={model.id}>
                        <h2>{ model.label }</h2>
                        <ul class="cards">
                            { for cards.into_iter().enumerate().map(|(i, preset)| html! {
                                <Card key={preset.id} id={preset.id} order={i} dispatch={props.dispatch.clone()} />
                            }) }
                        </ul>
                    </section>
                }
            }) }
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct CardProps {
    id: &'static str,
    /// The card's place in its section: thumbnails are computed in this order.
    order: usize,
    dispatch: Callback<Action>,
}

/// One preset: a link to its page, with its thumbnail.
#[component]
fn Card(props: &CardProps) -> Html {
    let Ok(preset) = packlab_core::scenario::preset(props.id) else { return html! {} };
    let canvas = use_node_ref();
    {
        let (canvas, id, order) = (canvas.clone(), props.id, props.order);
        use_effect_with((), move |()| {
            // Staggered, so the cards paint first and the thumbnails follow one by one.
            let timer = Closure::once(move || draw_thumbnail(&canvas, id));
            let handle = web_sys::window().and_then(|w| {
                w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    timer.as_ref().unchecked_ref(),
                    40 + 60 * order as i32,
                )
                .ok()
            });
            move || {
                if let (Some(handle), Some(window)) = (handle, web_sys::window()) {
                    window.clear_timeout_with_handle(handle);
                }
                drop(timer);
            }
        });
    }
    let id = props.id;
    let open = props.dispatch.reform(move |e: MouseEvent| {
        e.prevent_default();
        Action::ChoosePreset(id.to_string())
    });
    html! {
        <li class="card" data-preset={id}>
            <a href={format!("?preset={id}")} onclick={open}>
                <span class="figure">{ preset.figure }</span>
                <span class="card-title">{ preset.title }</span>
                <canvas ref={canvas} class="thumbnail" role="img"
                    aria-label={format!("The first moments of {}", preset.title)} />
                <span class="card-summary">{ preset.summary }</span>
            </a>
        </li>
    }
}

/// Runs preset `id` for a moment and draws each lane's main curve (the queue, n(t) or the
/// reward) as a small line in its policy's colour; bounds-only presets say so instead.
fn draw_thumbnail(canvas: &NodeRef, id: &str) {
    let Some(canvas) = canvas.cast::<HtmlCanvasElement>() else { return };
    let Ok(setup) = preset_setup(id) else { return };
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (w, h) = THUMBNAIL;
    canvas.set_width((w * ratio) as u32);
    canvas.set_height((h * ratio) as u32);
    let Some(ctx) = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    if setup.scenario.any().theory_only() {
        ctx.set_fill_style_str("#5b6472");
        ctx.set_font("12px system-ui, sans-serif");
        let _ = ctx.fill_text("bounds only: computed, not simulated", 4.0, h / 2.0);
        canvas.set_attribute("data-drawn", "bounds").ok();
        return;
    }
    let mut race = Race::new(&setup, 96);
    if race.advance(u64::MAX, THUMBNAIL_BUDGET_MS, now_ms).is_err() {
        return;
    }
    let snapshot = race.snapshot(Phase::Paused, 0);
    let curves = main_curves(&snapshot);
    let top = curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)).fold(f64::MIN_POSITIVE, f64::max);
    let right = curves.iter().flat_map(|c| c.1.iter().map(|p| p.0)).fold(f64::MIN_POSITIVE, f64::max);
    for (color, points) in &curves {
        ctx.set_stroke_style_str(&packlab_plot::css_color(*color));
        ctx.set_line_width(1.5);
        ctx.begin_path();
        for (i, &(x, y)) in points.iter().enumerate() {
            let (px, py) = (x / right * (w - 2.0) + 1.0, h - 2.0 - y / top * (h - 6.0));
            if i == 0 {
                ctx.move_to(px, py);
            } else {
                ctx.line_to(px, py);
            }
        }
        ctx.stroke();
    }
    canvas.set_attribute("data-drawn", &snapshot.slot.to_string()).ok();
}

/// A thumbnail's curve: (time, value) points.
type Line = Rc<[(f64, f64)]>;

/// Each lane's colour and the curve its page plots first: the reward of a loss system, n(t)
/// of multiserver jobs, else the queue.
fn main_curves(snapshot: &Snapshot) -> Vec<(usize, Line)> {
    snapshot
        .lanes
        .iter()
        .map(|lane| {
            let series = if snapshot.model.reward {
                &lane.reward_series
            } else if !lane.in_system_series.is_empty() {
                &lane.in_system_series
            } else {
                &lane.queue_series
            };
            (lane.color, series.iter().map(|p| (p.x, p.y)).collect())
        })
        .collect()
}
