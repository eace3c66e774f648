//! Where the keyboard focus goes when what held it leaves the page: a removed lane's button, a
//! gallery card once the lab opens, a dialog once it closes. Focus left on `<body>` sends a
//! keyboard or screen-reader user back to the top of the page, so it is always put somewhere.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::HtmlElement;

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// Focuses the first element matching one of `selectors` that takes the focus, in order;
/// whether one did. A closed `<details>` around it (a phone's folded scenario sheet) is opened
/// first: an element it hides takes no focus, and `focus()` says nothing of that.
pub fn focus_first(selectors: &[String]) -> bool {
    let Some(document) = document() else { return false };
    for selector in selectors {
        let found = document.query_selector(selector).ok().flatten().and_then(|e| e.dyn_into::<HtmlElement>().ok());
        if let Some(element) = found {
            reveal(&element);
            let _ = element.focus();
            if document.active_element().is_some_and(|active| active == *element.unchecked_ref::<web_sys::Element>()) {
                return true;
            }
        }
    }
    false
}

/// Opens every closed `<details>` that holds `element`.
fn reveal(element: &web_sys::Element) {
    let mut closed = element.closest("details:not([open])").ok().flatten();
    while let Some(details) = closed {
        let _ = details.set_attribute("open", "");
        closed = details.closest("details:not([open])").ok().flatten();
    }
}

/// [`focus_first`] once the page has drawn what the current event changed (the next task:
/// Yew renders in a microtask, before it).
pub fn focus_first_later(selectors: Vec<String>) {
    let Some(window) = web_sys::window() else { return };
    let callback = Closure::once_into_js(move || {
        focus_first(&selectors);
    });
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0);
}

/// Whether the focus is nowhere in particular: on `<body>` or on nothing.
pub fn focus_lost() -> bool {
    let Some(document) = document() else { return false };
    match document.active_element() {
        None => true,
        Some(active) => document.body().is_some_and(|body| active == *body.unchecked_ref::<web_sys::Element>()),
    }
}

/// The element that has the focus, to give it back later (a dialog's opener).
pub fn focused() -> Option<HtmlElement> {
    document()?.active_element()?.dyn_into::<HtmlElement>().ok()
}

/// Gives the focus back to `element` if it is still on the page, else to the first of
/// `fallback` found.
pub fn restore_focus(element: Option<HtmlElement>, fallback: &[String]) {
    match element.filter(|e| e.is_connected() && !focus_is_body(e)) {
        Some(e) => {
            let _ = e.focus();
        }
        None => {
            focus_first(fallback);
        }
    }
}

fn focus_is_body(element: &HtmlElement) -> bool {
    document().and_then(|d| d.body()).is_some_and(|body| body == *element)
}

/// Sets the document's title (what a tab, the history and a screen reader name the page by).
pub fn set_title(title: &str) {
    if let Some(document) = document() {
        document.set_title(title);
    }
}

/// Keeps Tab and Shift+Tab inside `dialog` (WAI-ARIA's modal dialog pattern): past its last
/// control the focus comes back to the first, before the first it goes to the last.
pub fn trap_tab(dialog: &yew::NodeRef, e: &web_sys::KeyboardEvent) {
    if e.key() != "Tab" {
        return;
    }
    let Some(dialog) = dialog.cast::<web_sys::Element>() else { return };
    let Ok(controls) = dialog.query_selector_all("button:not([disabled]), a[href], input, select, textarea, summary")
    else {
        return;
    };
    let nth = |i: u32| controls.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok());
    let (Some(first), Some(last)) = (nth(0), nth(controls.length().saturating_sub(1))) else { return };
    let active = focused();
    let at = |el: &HtmlElement| active.as_ref() == Some(el);
    let inside = active.as_ref().is_some_and(|a| dialog.contains(Some(a)));
    if e.shift_key() && (at(&first) || !inside) {
        e.prevent_default();
        let _ = last.focus();
    } else if !e.shift_key() && (at(&last) || !inside) {
        e.prevent_default();
        let _ = first.focus();
    }
}
