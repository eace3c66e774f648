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
    // Tab indents, as in code editors; Escape and then Tab leaves the text area (the way out
    // of CodeMirror and Monaco on the web), and a second Escape closes the dialog. Said in the
    // live region, since nothing else shows the change.
    let tab_leaves = use_state_eq(|| false);
    let gutter = use_node_ref();
    let on_area_keys = {
        let (text, tab_leaves) = (text.clone(), tab_leaves.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(area) = e.target().and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok()) else { return };
            match e.key().as_str() {
                "Escape" if !*tab_leaves => {
                    // Not the dialog's Escape yet: this one lets Tab out.
                    e.prevent_default();
                    e.stop_propagation();
                    tab_leaves.set(true);
                }
                "Tab" if !*tab_leaves && !e.ctrl_key() && !e.alt_key() && !e.meta_key() => {
                    e.prevent_default();
                    e.stop_propagation();
                    if let Some((value, start, end)) = indent(&area, e.shift_key()) {
                        area.set_value(&value);
                        let _ = area.set_selection_range(start, end);
                        text.set(value);
                    }
                }
                "Tab" | "Shift" => {}
                _ => tab_leaves.set(false),
            }
        })
    };
    let on_blur = {
        let tab_leaves = tab_leaves.clone();
        Callback::from(move |_: FocusEvent| tab_leaves.set(false))
    };
    // The line numbers follow the text area's scrolling.
    let on_scroll = {
        let gutter = gutter.clone();
        Callback::from(move |e: Event| {
            let area = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
            if let (Some(area), Some(gutter)) = (area, gutter.cast::<web_sys::HtmlElement>()) {
                gutter.set_scroll_top(area.scroll_top());
            }
        })
    };
    let line_count = text.split('\n').count();
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
                <p class="hint" id="script-keys">{ "Tab indents and Shift+Tab outdents; Escape, then Tab, leaves the \
                    script; Escape twice closes the editor." }</p>
                <div class="script-code">
                    // The numbers are for the eye: a screen reader has the line in the status's
                    // "Go to line" and in its own line reading.
                    <pre class="script-gutter" ref={gutter} aria-hidden="true">
                        { (1..=line_count).map(|n| n.to_string()).collect::<Vec<_>>().join("\n") }
                    </pre>
                    <textarea id="script-source" ref={area} value={(*text).clone()} {oninput} rows="18" cols="72"
                        spellcheck="false" autocomplete="off" aria-describedby="script-status script-keys"
                        onkeydown={on_area_keys} onblur={on_blur} onscroll={on_scroll} />
                </div>
                <div aria-live="polite">
                    if *tab_leaves {
                        <p id="script-tab-mode" class="hint">{ "Tab now moves the focus out of the script; Escape again closes the editor." }</p>
                    }
                    { status }
                </div>
                <details class="script-context">
                    <summary>{ "What ctx holds" }</summary>
                    <pre>{ props.scripting.context }</pre>
                </details>
                <p class="script-buttons">
                    <button type="button" id="script-apply" class="primary" onclick={apply}
                        disabled={!problems.is_empty()} aria-describedby="script-status">{ "Apply" }</button>
                    <button type="button" id="script-cancel" onclick={close}>{ "Cancel" }</button>
                </p>
            </div>
        </div>
    }
}

/// One indent step: what Tab inserts, and Shift+Tab takes from a line's start.
const INDENT: &str = "    ";

/// The text area's text with its selection indented (Tab) or outdented (Shift+Tab), and the
/// selection after it (UTF-16 offsets). Tab with nothing selected inserts one step at the caret.
fn indent(area: &HtmlTextAreaElement, outdent: bool) -> Option<(String, u32, u32)> {
    let value: Vec<u16> = area.value().encode_utf16().collect();
    let (start, end) = (area.selection_start().ok()?? as usize, area.selection_end().ok()?? as usize);
    let (edited, start, end) = indent_units(&value, start.min(value.len()), end.min(value.len()), outdent);
    Some((String::from_utf16_lossy(&edited), start as u32, end as u32))
}

/// [`indent`] on the text as UTF-16 units: the new text and selection.
fn indent_units(value: &[u16], start: usize, end: usize, outdent: bool) -> (Vec<u16>, usize, usize) {
    let step: Vec<u16> = INDENT.encode_utf16().collect();
    let newline = u16::from(b'\n');
    if !outdent && start == end {
        let mut edited = value[..start].to_vec();
        edited.extend(&step);
        edited.extend(&value[start..]);
        return (edited, start + step.len(), start + step.len());
    }
    // Every line the selection touches.
    let first = value[..start].iter().rposition(|&c| c == newline).map_or(0, |i| i + 1);
    let (mut edited, mut new_start, mut new_end) = (value[..first].to_vec(), start, end);
    let (mut at, last) = (first, end.max(start));
    for line in value[first..].split(|&c| c == newline) {
        let line_start = at;
        at += line.len() + 1;
        // A selection that ends at a line's start leaves that line be.
        let touched = line_start <= last && !(line_start == last && last > start && line_start > first);
        if !touched {
            edited.extend(line);
        } else if outdent {
            let spaces = line.iter().take(step.len()).take_while(|&&c| c == u16::from(b' ')).count();
            edited.extend(&line[spaces..]);
            if line_start <= start {
                new_start -= spaces.min(start - line_start);
            }
            new_end -= spaces.min(end - line_start);
        } else {
            edited.extend(&step);
            edited.extend(line);
            if line_start <= start {
                new_start += step.len();
            }
            new_end += step.len();
        }
        edited.push(newline);
    }
    edited.pop();
    (edited, new_start, new_end)
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
    use super::{indent_units, line_span};

    fn units(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn tab_indents_the_caret_or_the_lines_selected_and_shift_tab_outdents() {
        let text = "a\n  b\nc";
        // The caret after "a": four spaces there.
        let (edited, s, e) = indent_units(&units(text), 1, 1, false);
        assert_eq!((String::from_utf16_lossy(&edited), s, e), ("a    \n  b\nc".into(), 5, 5));
        // "a" to "b" selected: both lines indented, the selection grows with them.
        let (edited, s, e) = indent_units(&units(text), 0, 5, false);
        assert_eq!((String::from_utf16_lossy(&edited), s, e), ("    a\n      b\nc".into(), 4, 13));
        // Shift+Tab on line 2: its two spaces go.
        let (edited, s, e) = indent_units(&units(text), 4, 4, true);
        assert_eq!((String::from_utf16_lossy(&edited), s, e), ("a\nb\nc".into(), 2, 2));
    }

    #[test]
    fn a_line_is_found_by_its_number_in_utf16_units() {
        let text = "fn schedule(ctx) {\n  // é ≤\n}";
        assert_eq!(line_span(text, 1), (0, 18));
        assert_eq!(line_span(text, 2), (19, 27));
        assert_eq!(line_span(text, 3), (28, 29));
        assert_eq!(line_span(text, 9), (30, 30));
    }
}
