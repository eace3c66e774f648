//! What the app and `www/boot.js` tell each other: the first picture is done with (the app
//! drew its own), and the build with the script engine is wanted (a script is used in the
//! page's first download, which leaves it out). boot.js keeps its side on `window.packlab`.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

use crate::dom::focus::focus_first;

/// Removes the first picture (`#first-paint`, drawn before the wasm ran), now that the app
/// shows its own. If the keyboard focus was in it (a card's link tabbed to while the wasm
/// loaded), it goes to the same link in the app, else to the view's heading.
pub fn first_picture_done() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(shell) = document.get_element_by_id("first-paint") else { return };
    let focused = document.active_element().filter(|e| shell.contains(Some(e)));
    let href = focused.as_ref().and_then(|e| e.get_attribute("href"));
    shell.remove();
    if let Some(root) = document.document_element() {
        let _ = root.remove_attribute("data-first");
    }
    if focused.is_some() {
        let mut targets: Vec<String> = href.map(|h| format!("#app a[href=\"{h}\"]")).into_iter().collect();
        targets.push("main h1".into());
        focus_first(&targets);
    }
}

/// `window.packlab`, where boot.js keeps what it offers the app.
fn packlab() -> Option<JsValue> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &JsValue::from_str("packlab")).ok().filter(|v| v.is_object())
}

/// Asks boot.js for the build with the script engine: it loads it, takes this app down
/// ([`crate::stop_page`]) and starts that one on the same address, which holds the whole lab.
/// `focus`: where the keyboard focus goes in the new app (the first selector that matches).
/// The promise settles when the new app runs, or fails with why it could not load.
pub fn load_scripts(focus: &[String]) -> Result<js_sys::Promise, String> {
    let packlab = packlab().ok_or("the page was not started by boot.js")?;
    let upgrade = js_sys::Reflect::get(&packlab, &JsValue::from_str("loadScripts"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("boot.js offers no way to load the script engine")?;
    let targets: js_sys::Array = focus.iter().map(|s| JsValue::from_str(s)).collect();
    upgrade
        .call1(&packlab, &targets)
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
        .ok_or_else(|| "the script engine could not be asked for".to_string())
}

/// Where the focus goes in an app started in place of another (boot.js keeps the selectors
/// [`load_scripts`] gave it): moved there once, on the app's first render.
pub fn take_resumed_focus() {
    let Some(packlab) = packlab() else { return };
    let key = JsValue::from_str("resumeFocus");
    let Ok(list) = js_sys::Reflect::get(&packlab, &key) else { return };
    let Ok(list) = list.dyn_into::<js_sys::Array>() else { return };
    let _ = js_sys::Reflect::delete_property(packlab.unchecked_ref::<js_sys::Object>(), &key);
    let targets: Vec<String> = list.iter().filter_map(|s| s.as_string()).collect();
    crate::dom::focus::focus_first_later(targets);
}

/// The element the app mounts on: `#app` (index.html), else `<body>`.
pub fn app_root() -> Option<web_sys::Element> {
    let document = web_sys::window()?.document()?;
    document.get_element_by_id("app").or_else(|| document.body().map(|b| b.unchecked_into::<HtmlElement>().into()))
}
