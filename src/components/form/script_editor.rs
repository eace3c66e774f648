//! The script editor: a lane's own policy, written in the page.
//!
//! A modal dialog over the page: the lane's script in a text area, checked by the core as the
//! user types (a syntax error is named with its line, and *Go to line* selects that line),
//! the model's starting points to begin from, and what `ctx` holds. *Apply* hands the script
//! to the lane as its `src` parameter (the core's link-safe text), so the link carries it.

use packlab_core::script::{self, Scripting};
use wasm_bindgen::JsCast;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::dom::focus::{focused, restore_focus, trap_tab};

#[derive(Properties, PartialEq)]
pub struct ScriptEditorProps {
    /// The lane's number from 1 and label, for the title.
    pub lane: usize,
    pub label: String,
    /// The script the lane runs now.
    pub source: String,
    pub scripting: &'static Scripting,
    /// The script, once the user applies it.
    pub on_apply: Callback<String>,
    pub on_close: Callback<()>,
    /// The title instead of "Lane N: label" (an exercise's editor).
    #[prop_or_default]
    pub heading: Option<AttrValue>,
    /// Whether to offer the starting points (an exercise's editor does not: they hold the
    /// answer).
    #[prop_or(true)]
    pub starters: bool,
    /// What Apply does, said when the script compiles.
    #[prop_or(AttrValue::Static("The script compiles; Apply runs it in this lane."))]
    pub applies: AttrValue,
}

/// The editor's dialog. It takes the focus (the text area), keeps Tab inside, and gives the
/// focus back to the button that opened it when it closes.
#[component]
pub fn ScriptEditor(props: &ScriptEditorProps) -> Html {
    let text = use_state(|| props.source.clone());
    let area = use_node_ref();
    let dialog = use_node_ref();
    {
        let area = area.clone();
        use_effect_with((), move |()| {
            let opener = focused();
            if let Some(a) = area.cast::<web_sys::HtmlElement>() {
                let _ = a.focus();
            }
            move || restore_focus(opener, &[".edit-script".into(), "#policies input".into()])
        });
    }
    // The core's verdict on the text as it stands: compiled, `fn schedule(ctx)` defined, and
    // top-level code run under the limits and the budget (at most a tenth of a second or so,
    // once per text, not on every render). Its messages come escaped from the core.
    let problems = use_memo((*text).clone(), |text| script::check(text));
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) {
                text.set(area.value());
            }
        })
    };
    let start_from = {
        let text = text.clone();
        let starters = props.scripting.starters;
        Callback::from(move |e: Event| {
            let chosen = crate::dom::page::value_of(&e).parse::<usize>().ok();
            if let Some(starter) = chosen.and_then(|i| starters.get(i)) {
                text.set(starter.source.to_string());
            }
        })
    };
    let go_to = |line: usize| {
        let area = area.clone();
        let text = text.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(element) = area.cast::<HtmlTextAreaElement>() else { return };
            let (start, end) = line_span(&text, line);
            let _ = element.focus();
            let _ = element.set_selection_range(start as u32, end as u32);
        })
    };
    let apply = {
        let (text, on_apply) = (text.clone(), props.on_apply.clone());
        Callback::from(move |_: MouseEvent| on_apply.emit((*text).clone()))
    };
    let close = props.on_close.reform(|_: MouseEvent| ());
    let keys = {
        let (dialog, on_close) = (dialog.clone(), props.on_close.clone());
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                on_close.emit(());
            } else {
                trap_tab(&dialog, &e);
            }
        })
    };
    let status = match problems.first() {
        None => {
            html! { <p id="script-status" class="script-ok">{ props.applies.clone() }</p> }
        }
        Some(problem) => html! {
            <p id="script-status" class="script-error">
                { problem.to_string() }
                if let Some(line) = problem.line {
                    { " " }<button type="button" class="goto-line" onclick={go_to(line)}>{ format!("Go to line {line}") }</button>
                }
            </p>
        },
    };
    html! {
        <div class="overlay" id="script-editor" role="dialog" aria-modal="true" aria-labelledby="script-editor-title"
            ref={dialog} onkeydown={keys}>
            <div class="dialog script-dialog">
                <h2 id="script-editor-title">{ props.heading.clone().unwrap_or_else(|| format!("Lane {}: {}", props.lane, props.label).into()) }</h2>
                if props.starters {
                <label class="script-start">
                    <span>{ "Start from" }</span>
                    <select id="script-start" onchange={start_from}>
                        <option value="" selected=true>{ "(keep the text below)" }</option>
                        { for props.scripting.starters.iter().enumerate().map(|(i, s)| html! {
                            <option value={i.to_string()}>{ s.name() }</option>
                        }) }
                    </select>
                </label>
                }
                <label for="script-source" class="script-label">
                    { format!("Script: define fn schedule(ctx); at most {} bytes", script::MAX_SOURCE_BYTES) }
                </label>
                <textarea id="script-source" ref={area} value={(*text).clone()} {oninput} rows="18" cols="72"
                    spellcheck="false" autocomplete="off" aria-describedby="script-status" />
                <div aria-live="polite">{ status }</div>
                <details class="script-context">
                    <summary>{ "What ctx holds" }</summary>
                    <pre>{ props.scripting.context }</pre>
                </details>
                <p class="script-buttons">
                    <button type="button" id="script-apply" class="primary" onclick={apply}
                        disabled={!problems.is_empty()}>{ "Apply" }</button>
                    <button type="button" id="script-cancel" onclick={close}>{ "Cancel" }</button>
                </p>
            </div>
        </div>
    }
}

/// The UTF-16 offsets (what a text area's selection counts) of line `line` (from 1) of `text`.
fn line_span(text: &str, line: usize) -> (usize, usize) {
    let mut start = 0;
    for (i, l) in text.split('\n').enumerate() {
        let length = l.encode_utf16().count();
        if i + 1 == line {
            return (start, start + length);
        }
        start += length + 1;
    }
    (start, start)
}

#[cfg(test)]
mod tests {
    use super::line_span;

    #[test]
    fn a_line_is_found_by_its_number_in_utf16_units() {
        let text = "fn schedule(ctx) {\n  // é ≤\n}";
        assert_eq!(line_span(text, 1), (0, 18));
        assert_eq!(line_span(text, 2), (19, 27));
        assert_eq!(line_span(text, 3), (28, 29));
        assert_eq!(line_span(text, 9), (30, 30));
    }
}
