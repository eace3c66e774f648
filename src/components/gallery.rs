//! The landing view: every preset as a card, grouped by paper, with its figure, its one
//! sentence and its thumbnail (the first moments of its race). A card opens the lab on its
//! preset; the lab's brand link comes back here.
//!
//! The markup is [`crate::first_paint::gallery::markup`], the same the first picture shows
//! before the wasm runs, and the thumbnails are pictures drawn when the page was built
//! (`first-paint/ID.svg`), loaded after the cards and only once scrolled to: the gallery
//! computes nothing on a phone.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct GalleryProps {
    pub dispatch: Callback<Action>,
}

/// Every preset, by paper. A card is a plain link (`?preset=ID`, `?tour=ID`): a click opens it
/// in the page; a click that opens a new tab or window is left to the browser.
#[component]
pub fn Gallery(props: &GalleryProps) -> Html {
    let markup = use_memo((), |()| AttrValue::from(crate::first_paint::gallery::markup(true)));
    let onclick = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: MouseEvent| {
            if e.button() != 0 || e.ctrl_key() || e.meta_key() || e.shift_key() || e.alt_key() {
                return;
            }
            let card = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|t| t.closest("li.card a").ok().flatten())
                .and_then(|a| a.parent_element());
            let Some(card) = card else { return };
            let action = match (card.get_attribute("data-preset"), card.get_attribute("data-tour")) {
                (Some(preset), _) => Action::ChoosePreset(preset),
                (None, Some(id)) => match packlab_core::tours::tour(&id) {
                    Ok(tour) => Action::StartTour(tour.id),
                    Err(_) => return,
                },
                (None, None) => return,
            };
            e.prevent_default();
            dispatch.emit(action);
        })
    };
    html! {
        <div class="gallery-host" {onclick}>{ Html::from_html_unchecked((*markup).clone()) }</div>
    }
}
