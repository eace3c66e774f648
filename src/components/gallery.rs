//! The landing view: every preset as a card, grouped by paper, with its figure, its one
//! sentence and a live thumbnail (the first moments of its race, drawn as the curve its page
//! plots). A card opens the lab on its preset; the lab's brand link comes back here.
//!
//! Thumbnails are computed one card at a time after the cards are on screen, in the browser's
//! idle time and in slices of a few milliseconds ([`crate::components::thumbnails`]), so the
//! gallery shows at once and its thumbnails never hold the page up for long.

use packlab_core::models::all as all_models;
use packlab_core::scenario::{Preset, presets};
use yew::prelude::*;

use crate::components::thumbnails::Thumbnails;
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    pub dispatch: Callback<Action>,
}

/// Every preset, by paper.
#[component]
pub fn Gallery(props: &GalleryProps) -> Html {
    let all = presets();
    // Once the cards are on the page: their thumbnails, one after another, in idle time.
    use_effect_with((), |()| {
        let thumbnails = Thumbnails::start();
        move || drop(thumbnails)
    });
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
                            { for cards.into_iter().map(|preset| html! {
                                <Card key={preset.id} id={preset.id} dispatch={props.dispatch.clone()} />
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
    dispatch: Callback<Action>,
}

/// One preset: a link to its page, with its thumbnail.
#[component]
fn Card(props: &CardProps) -> Html {
    let Ok(preset) = packlab_core::scenario::preset(props.id) else { return html! {} };
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
                <canvas class="thumbnail" role="img"
                    aria-label={format!("The first moments of {}", preset.title)} />
                <span class="card-summary">{ preset.summary }</span>
            </a>
        </li>
    }
}
