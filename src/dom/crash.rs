//! What the page shows if the app panics: a visible message with a link back to the preset,
//! instead of a page that silently stops. Every known input error is named by the core before
//! it can get here (the fuzz targets check that); this is the last line for what nobody
//! foresaw.

use wasm_bindgen::JsCast;

/// The id of the element that carries the message.
pub const CRASH_ID: &str = "crash";

/// Installs the panic hook: the panic goes to the console and onto the page.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&message.as_str().into());
        show(&message);
    }));
}

/// Puts the crash message at the top of the page, with a link that reopens the current
/// preset (or the start page) without the rest of the link. Idempotent: a second panic
/// replaces the message.
pub fn show(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = document.body() else { return };
    let preset = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|search| web_sys::UrlSearchParams::new_with_str(&search).ok())
        .and_then(|params| params.get("preset"))
        .filter(|id| id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
    let href = preset.as_ref().map_or_else(|| "?".to_string(), |id| format!("?preset={id}"));

    let old = document.get_element_by_id(CRASH_ID);
    let Ok(panel) = document.create_element("div") else { return };
    panel.set_id(CRASH_ID);
    panel.set_class_name("crash");
    let _ = panel.set_attribute("role", "alert");
    let Ok(text) = document.create_element("p") else { return };
    text.set_text_content(Some(&format!(
        "packlab stopped on an internal error and cannot go on in this page: {message}. Please report the link \
         that led here."
    )));
    let _ = panel.append_child(&text);
    if let Ok(link) = document.create_element("a") {
        let _ = link.set_attribute("href", &href);
        link.set_text_content(Some(if preset.is_some() { "Reset to the preset" } else { "Reload packlab" }));
        let _ = panel.append_child(&link);
    }
    match old {
        Some(old) => {
            let _ = old.replace_with_with_node_1(&panel);
        }
        None => {
            let first = body.first_child();
            let _ = body.insert_before(&panel, first.as_ref());
        }
    }
    if let Ok(element) = panel.dyn_into::<web_sys::HtmlElement>() {
        let _ = element.focus();
    }
}
