//! The page's keyboard: Space, the arrows, `?`, Escape and `P`, on the whole document.

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Space plays and pauses, the right arrow steps, unless a form field has the focus.
///
/// The listener is installed once, but a scenario change starts a new race with new
/// callbacks: the listener reads the current ones from a cell every render refreshes (it
/// used to keep the first race's, so the keys stopped working after any change).
/// `?` opens the list of shortcuts (`help` gets `None` to toggle, `Some(false)` to close), and
/// Escape closes it.
#[hook]
pub fn use_keyboard(
    toggle: Callback<()>,
    step: Callback<()>,
    back: Callback<()>,
    help: Callback<Option<bool>>,
    present: Callback<()>,
) {
    let current = use_mut_ref(|| (toggle.clone(), step.clone(), back.clone(), help.clone(), present.clone()));
    *current.borrow_mut() = (toggle, step, back, help, present);
    use_effect_with((), move |()| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            // Not passive: space must not also scroll the page.
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&document, "keydown", options, move |event| {
                let Some(event) = event.dyn_ref::<KeyboardEvent>() else { return };
                if event.ctrl_key() || event.meta_key() || event.alt_key() {
                    return;
                }
                let focus = focused_tag(event);
                // A widget with keys of its own (the event log's arrows) keeps them.
                let own_keys = event
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|e| e.closest("[data-keys=own]").ok().flatten())
                    .is_some();
                let typing = matches!(focus.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
                // A focused button or summary already acts on space itself.
                let clicking = matches!(focus.as_str(), "BUTTON" | "SUMMARY");
                // Cloned out of the cell: emitting may render, which refreshes the cell.
                let (toggle, step, back, help, present) = current.borrow().clone();
                match event.key().as_str() {
                    "p" | "P" if !typing => {
                        event.prevent_default();
                        present.emit(());
                    }
                    "?" if !typing => {
                        event.prevent_default();
                        help.emit(None);
                    }
                    "Escape" => help.emit(Some(false)),
                    " " if !typing && !clicking => {
                        event.prevent_default();
                        toggle.emit(());
                    }
                    "ArrowRight" if !typing && !own_keys => {
                        event.prevent_default();
                        step.emit(());
                    }
                    "ArrowLeft" if !typing && !own_keys => {
                        event.prevent_default();
                        back.emit(());
                    }
                    _ => {}
                }
            })
        });
        move || drop(listener)
    });
}

/// The tag of the element the key went to.
fn focused_tag(event: &KeyboardEvent) -> String {
    event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.tag_name()).unwrap_or_default()
}
