//! Whether a CSS media query matches, followed while the page is open: the system's dark
//! colours, and the narrow layout whose controls open in a sheet (style.css draws both; the
//! page's markup follows them where a role or a focus depends on it).

use gloo_events::EventListener;
use yew::prelude::*;

/// Below this width the scenario's controls are a sheet opened on demand, and the live charts
/// show one at a time (style.css has the same breakpoint).
pub const NARROW: &str = "(max-width: 52rem)";

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
