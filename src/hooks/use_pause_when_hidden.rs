//! An embedded page's race pauses while it is out of sight (scrolled away, or its tab hidden)
//! and plays on when it is back.

use std::rc::Rc;

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

/// Pauses the race while `root` is off-screen or the tab is hidden, and plays it on when it
/// is visible again, if it was this hook that paused it. Explicit pause and play, not a
/// toggle: the race runs in a worker, and `running` may be a frame old.
#[hook]
pub fn use_pause_when_hidden(root: NodeRef, running: bool, pause: Callback<()>, play: Callback<()>) {
    // Whether the element is on screen and the tab visible; whether we paused the race.
    let state = use_mut_ref(|| (true, true, false));
    let current = use_mut_ref(|| (running, pause.clone(), play.clone()));
    *current.borrow_mut() = (running, pause, play);
    let react = {
        let (state, current) = (state.clone(), current.clone());
        Rc::new(move || {
            let (on_screen, tab_visible, paused_by_us) = *state.borrow();
            let (running, pause, play) = current.borrow().clone();
            let visible = on_screen && tab_visible;
            if !visible && running {
                state.borrow_mut().2 = true;
                pause.emit(());
            } else if visible && paused_by_us && !running {
                state.borrow_mut().2 = false;
                play.emit(());
            } else if visible {
                state.borrow_mut().2 = false;
            }
        })
    };
    use_effect_with(root, move |root| {
        let document = web_sys::window().and_then(|w| w.document());
        let visibility = document.clone().map(|document| {
            let (state, react, doc) = (state.clone(), react.clone(), document.clone());
            EventListener::new(&document, "visibilitychange", move |_| {
                state.borrow_mut().1 = doc.visibility_state() == web_sys::VisibilityState::Visible;
                react();
            })
        });
        let observer = root.cast::<web_sys::Element>().and_then(|element| {
            let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                let Ok(entry) = entries.get(0).dyn_into::<web_sys::IntersectionObserverEntry>() else { return };
                state.borrow_mut().0 = entry.is_intersecting();
                react();
            });
            let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok()?;
            observer.observe(&element);
            Some((observer, callback))
        });
        move || {
            drop(visibility);
            if let Some((observer, callback)) = observer {
                observer.disconnect();
                drop(callback);
            }
        }
    });
}
