//! Whether a CSS media query matches, followed while the page is open: the system's dark
//! colours, and the narrow layout whose controls open in a sheet (style.css draws both; the
//! page's markup follows them where a role or a focus depends on it).

use gloo_events::EventListener;
use yew::prelude::*;

/// A phone, upright or on its side, or a tablet upright: the scenario's controls are a fold
/// opened on demand (www/phone.css has the same query).
pub const NARROW: &str = "(max-width: 52rem), (max-height: 32rem) and (max-width: 64rem)";

/// A phone, upright or on its side: the lanes and the charts are rows swiped one at a time
/// (www/phone.css has the same query; a tablet upright has room for two of each).
pub const SWIPED: &str = "(max-width: 40rem), (max-height: 32rem) and (max-width: 64rem)";

/// Whether `query` matches, following its changes while the page is open.
#[hook]
pub fn use_media(query: &'static str) -> bool {
    let list = use_memo(query, |query| web_sys::window().and_then(|w| w.match_media(query).ok().flatten()));
    let matches = use_state(|| list.as_ref().as_ref().is_some_and(|m| m.matches()));
    {
        let matches = matches.clone();
        use_effect_with(list, move |list| {
            let listener = list.as_ref().as_ref().map(|m| {
                let watched = m.clone();
                EventListener::new(m, "change", move |_| matches.set(watched.matches()))
            });
            move || drop(listener)
        });
    }
    *matches
}
