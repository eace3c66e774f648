//! The page as the browser holds it: its address, the value an input reports, what the system
//! prefers, the size of an element, and files saved through a download link (the page makes no
//! network request for them).

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};
use yew::events::Event;

/// The value of the input or select that fired `e`.
pub fn value_of(e: &Event) -> String {
    let target = e.target();
    if let Some(input) = target.clone().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok()) {
        return input.value();
    }
    target
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlSelectElement>(t).ok())
        .map(|s| s.value())
        .unwrap_or_default()
}

/// The query of the page's address, with its `?` (empty without one).
pub fn location_search() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The page's address without its query: origin and path.
pub fn page_address() -> String {
    let location = web_sys::window().map(|w| w.location());
    location.and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))).unwrap_or_default()
}

/// The page's address with `query`.
pub fn current_link(query: &str) -> String {
    format!("{}?{query}", page_address())
}

/// Whether the system asks for less motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// The canvas's CSS size, read from the layout: for charts that redraw only when their inputs or
/// the window change, not every frame, so the read costs nothing that matters.
pub fn client_size(canvas: &HtmlCanvasElement) -> (f64, f64) {
    (f64::from(canvas.client_width()), f64::from(canvas.client_height()))
}

/// The canvas's 2D context, opaque (`alpha: false`): whoever draws on it fills it first, and the
/// compositor then copies the canvas rather than blending it over the page in every frame
/// (docs/speed.md, "Opaque lanes"). A context keeps the attributes it was first asked for, so a
/// later plain `getContext("2d")` (plotters-canvas's) gets this one.
pub fn opaque_2d(canvas: &HtmlCanvasElement) -> Option<web_sys::CanvasRenderingContext2d> {
    let opaque = web_sys::ContextAttributes2d::new();
    opaque.set_alpha(false);
    canvas.get_context_with_context_options("2d", &opaque).ok().flatten().and_then(|c| c.dyn_into().ok())
}

/// Draws now and again whenever the window resizes, until the returned destructor runs (an
/// effect's cleanup).
pub fn draw_and_follow_resizes(redraw: impl Fn() + 'static) -> impl FnOnce() {
    redraw();
    let listener = web_sys::window().map(|w| EventListener::new(&w, "resize", move |_| redraw()));
    move || drop(listener)
}

/// Saves `href` (a data URL) as `filename` through a temporary download link.
pub fn download(filename: &str, href: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let anchor: HtmlAnchorElement =
        document.create_element("a").ok().and_then(|a| a.dyn_into().ok()).ok_or("cannot make a link")?;
    anchor.set_href(href);
    anchor.set_download(filename);
    anchor.click();
    Ok(())
}
