//! The CSS size of a canvas, from a ResizeObserver rather than from `clientWidth`.
//!
//! A canvas is drawn right after the frame's DOM updates (the stats, the progress), when the
//! page's layout is stale: reading `clientWidth` there makes the browser lay the page out on
//! the spot, in every frame. A ResizeObserver reports the size after the browser's own layout,
//! and only when it changes (a window resize, a change in the number of lanes).

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, ResizeObserver, ResizeObserverEntry};
use yew::prelude::*;

/// A canvas's CSS width and height in pixels, rounded as `clientWidth` rounds; `None` until
/// the first report.
pub type CssSize = Rc<Cell<Option<(f64, f64)>>>;

/// The size of `canvas`, as last reported, or read from the layout if none has come yet.
pub fn css_size(canvas: &HtmlCanvasElement, size: &CssSize) -> (f64, f64) {
    size.get().unwrap_or_else(|| (f64::from(canvas.client_width()), f64::from(canvas.client_height())))
}

/// The size of the canvas in `node`, kept up to date; `changed` receives each new size
/// (including the first report, once the canvas is laid out).
#[hook]
pub fn use_canvas_size(node: NodeRef, changed: Callback<(f64, f64)>) -> CssSize {
    let size: CssSize = (*use_memo((), |()| Rc::new(Cell::new(None)))).clone();
    {
        let size = size.clone();
        use_effect_with(node, move |node| {
            let observing = node.cast::<HtmlCanvasElement>().and_then(|canvas| {
                let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    let Ok(entry) = entries.get(0).dyn_into::<ResizeObserverEntry>() else { return };
                    let rect = entry.content_rect();
                    let new = (rect.width().round(), rect.height().round());
                    if size.replace(Some(new)) != Some(new) {
                        changed.emit(new);
                    }
                });
                let observer = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
                observer.observe(&canvas);
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
    size
}
