//! Whether the system asks for dark colours (`prefers-color-scheme`), followed while the page is
//! open.

use gloo_events::EventListener;
use yew::prelude::*;

/// Whether the system asks for dark colours, following its changes while the page is open.
#[hook]
pub fn use_system_dark() -> bool {
    let query =
        use_memo((), |()| web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten()));
    let dark = use_state(|| query.as_ref().as_ref().is_some_and(|m| m.matches()));
    {
        let dark = dark.clone();
        use_effect_with((), move |()| {
            let listener = query.as_ref().as_ref().map(|m| {
                let list = m.clone();
                EventListener::new(m, "change", move |_| dark.set(list.matches()))
            });
            move || drop(listener)
        });
    }
    *dark
}
