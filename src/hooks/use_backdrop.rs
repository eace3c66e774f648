//! The colour behind a canvas, for a canvas drawn opaque.
//!
//! A lane's canvas is drawn anew in every frame of a playing race. Drawn with an alpha
//! channel, the software compositor blends it over the page each frame; drawn opaque
//! (`alpha: false`), it copies it: about a quarter less of the compositor's work in a race of
//! two lanes, time that went to the workers (docs/speed.md, "Opaque lanes"). An opaque canvas
//! must paint what showed through it: the first background colour at or above it, which the
//! theme sets. So the colour is read once and again when the document's theme attributes
//! change (src/components/app.rs sets them), and the canvas is then redrawn.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Element, MutationObserver, MutationObserverInit};
use yew::prelude::*;

/// The document's attributes that style.css picks the colours by.
const THEME_ATTRIBUTES: [&str; 3] = ["data-theme", "data-dark", "data-present"];

/// What shows where nothing is painted: the page's own light background.
const FALLBACK: &str = "#ffffff";

/// The colour behind a canvas, read when first asked and after each change of theme.
#[derive(Clone, Default)]
pub struct Backdrop(Rc<RefCell<Option<String>>>);

impl Backdrop {
    /// The colour behind `element`: its own background colour or, where that is transparent,
    /// its nearest ancestor's.
    pub fn colour(&self, element: &Element) -> String {
        self.0.borrow_mut().get_or_insert_with(|| backdrop_of(element)).clone()
    }

    fn forget(&self) {
        self.0.borrow_mut().take();
    }
}

/// The first opaque background colour at or above `element`.
fn backdrop_of(element: &Element) -> String {
    let Some(window) = web_sys::window() else { return FALLBACK.into() };
    let mut at = Some(element.clone());
    while let Some(element) = at {
        let colour = window
            .get_computed_style(&element)
            .ok()
            .flatten()
            .and_then(|style| style.get_property_value("background-color").ok())
            .unwrap_or_default();
        if !colour.is_empty() && !transparent(&colour) {
            return colour;
        }
        at = element.parent_element();
    }
    FALLBACK.into()
}

/// Whether a computed colour (`rgb(…)` or `rgba(…)`) is fully transparent.
fn transparent(colour: &str) -> bool {
    colour == "transparent"
        || colour.strip_prefix("rgba(").and_then(|rest| rest.strip_suffix(')')).is_some_and(|channels| {
            channels.rsplit(',').next().is_some_and(|alpha| alpha.trim().parse::<f64>().is_ok_and(|a| a == 0.0))
        })
}

/// The colour behind a canvas; `changed` is told when the theme changed it (the canvas then
/// draws again).
#[hook]
pub fn use_backdrop(changed: Callback<()>) -> Backdrop {
    let backdrop = (*use_memo((), |()| Backdrop::default())).clone();
    {
        let backdrop = backdrop.clone();
        use_effect_with((), move |()| {
            let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element());
            let observing = root.and_then(|root| {
                let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| {
                    backdrop.forget();
                    changed.emit(());
                });
                let observer = MutationObserver::new(callback.as_ref().unchecked_ref()).ok()?;
                let options = MutationObserverInit::new();
                options.set_attributes(true);
                options.set_attribute_filter(
                    &THEME_ATTRIBUTES.iter().map(|&a| JsValue::from_str(a)).collect::<js_sys::Array>(),
                );
                observer.observe_with_options(&root, &options).ok()?;
                Some((observer, callback))
            });
            move || {
                if let Some((observer, callback)) = observing {
                    observer.disconnect();
                    drop(callback);
                }
            }
        });
    }
    backdrop
}

#[cfg(test)]
mod tests {
    use super::transparent;

    #[test]
    fn only_a_zero_alpha_is_transparent() {
        assert!(transparent("rgba(0, 0, 0, 0)"));
        assert!(transparent("transparent"));
        assert!(!transparent("rgb(255, 255, 255)"));
        assert!(!transparent("rgba(28, 33, 41, 0.5)"));
        assert!(!transparent("rgb(238, 241, 244)"));
    }
}
