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
use web_sys::{
    HtmlCanvasElement, IntersectionObserver, IntersectionObserverEntry, ResizeObserver, ResizeObserverEntry,
};
use yew::prelude::*;

/// A canvas's CSS width and height in pixels, rounded as `clientWidth` rounds; `None` until
/// the first report.
pub type CssSize = Rc<Cell<Option<(f64, f64)>>>;

/// The size of `canvas`, as last reported, or read from the layout if none has come yet.
pub fn css_size(canvas: &HtmlCanvasElement, size: &CssSize) -> (f64, f64) {
    size.get().unwrap_or_else(|| (f64::from(canvas.client_width()), f64::from(canvas.client_height())))
}

/// The size of the canvas in `node`, kept up to date; `changed` receives each new size
/// (including the first report, once the canvas is laid out). With `on_view`, the size is
/// followed only from the first time the canvas is on screen: until then it stays `None`, so
/// the canvas is not drawn (a phone's charts, below its first screen or swiped away: drawing
/// them as the lab opened was most of its blocking time, docs/web.md).
#[hook]
pub fn use_canvas_size(node: NodeRef, changed: Callback<(f64, f64)>, on_view: bool) -> CssSize {
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
                if !on_view {
                    observer.observe(&canvas);
                    return Some((observer, callback, None));
                }
                // The size is followed from the canvas's first time on screen.
                let (resize, target) = (observer.clone(), canvas.clone());
                let seen = Closure::<dyn FnMut(js_sys::Array, IntersectionObserver)>::new(
                    move |entries: js_sys::Array, watch: IntersectionObserver| {
                        let on_screen =
                            entries.iter().any(|e| e.unchecked_into::<IntersectionObserverEntry>().is_intersecting());
                        if on_screen {
                            watch.disconnect();
                            resize.observe(&target);
                        }
                    },
                );
                let watch = IntersectionObserver::new(seen.as_ref().unchecked_ref()).ok()?;
                watch.observe(&canvas);
                Some((observer, callback, Some((watch, seen))))
            });
            move || {
                if let Some((observer, callback, watching)) = observing {
                    observer.disconnect();
                    drop(callback);
                    if let Some((watch, seen)) = watching {
                        watch.disconnect();
                        drop(seen);
                    }
                }
            }
        });
    }
    size
}
