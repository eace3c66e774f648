//! Web Workers that run the page's own wasm (the race worker, a sweep's workers): where the
//! page's module and the workers' scripts are, the first message a worker gets, and the clock
//! the page and the workers share.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The page's wasm-bindgen module and wasm file, as www/boot.js loaded them: its tag names the
/// build that runs (the first download, or the build with the script engine once boot.js has
/// switched to it), and a worker must get the glue of the module it is sent.
pub fn module_urls() -> Option<(String, String)> {
    let document = web_sys::window()?.document()?;
    let tag = document.query_selector("script[data-wasm]").ok()??;
    let base = document.base_uri().ok()??;
    let absolute = |attr: &str| web_sys::Url::new_with_base(&tag.get_attribute(attr)?, &base).ok().map(|u| u.href());
    Some((absolute("data-js")?, absolute("data-wasm")?))
}

/// The first message to a worker that runs the page's wasm (the race worker, a sweep's):
/// `{init: {js, wasm, module}}`. The page's compiled `WebAssembly.Module` goes along, so the
/// worker instantiates it without fetching and compiling the wasm again; the URL is there for a
/// worker that gets no module.
pub fn worker_init(js: &str, wasm: &str) -> Result<JsValue, String> {
    let fields = [("js", JsValue::from_str(js)), ("wasm", JsValue::from_str(wasm)), ("module", wasm_bindgen::module())];
    js_object(&fields)
        .and_then(|fields| js_object(&[("init", fields)]))
        .map_err(|e| format!("cannot describe the module to a worker: {e:?}"))
}

/// A JS object with these fields: a message to a worker that carries more than JSON can (a
/// compiled module, blobs).
pub fn js_object(fields: &[(&str, JsValue)]) -> Result<JsValue, JsValue> {
    let object = js_sys::Object::new();
    for (key, value) in fields {
        js_sys::Reflect::set(&object, &JsValue::from_str(key), value)?;
    }
    Ok(object.into())
}

/// The URL of a file next to the page.
pub fn asset_url(file: &str) -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    web_sys::Url::new_with_base(file, &base).ok().map(|u| u.href())
}

/// `performance.now()`, in ms: on the page and in a worker alike (a worker has no window, so
/// the clock is looked up on the global object).
pub fn now_ms() -> f64 {
    thread_local! {
        static PERFORMANCE: Option<web_sys::Performance> =
            js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance")).ok().and_then(|p| p.dyn_into().ok());
    }
    PERFORMANCE.with(|p| p.as_ref().map_or(0.0, web_sys::Performance::now))
}

/// The cores the browser reports (`navigator.hardwareConcurrency`), at least 1 and at most 16:
/// how many workers the page runs at once.
pub fn cores() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, 16)
}
