//! The keyboard help: every shortcut of the page, in a dialog over it.

use yew::prelude::*;

use crate::dom::focus::{focused, restore_focus, trap_tab};

#[derive(Properties, PartialEq)]
pub struct KeyboardHelpProps {
    pub on_close: Callback<()>,
}

/// Every shortcut of the page, over it; `?` or the button opens it, Escape or Close shuts it.
///
/// A modal dialog as WAI-ARIA's pattern has it: it takes the focus, Tab and Shift+Tab stay in
/// it, and closing gives the focus back to what had it before (the *?* button, or whatever
/// the `?` key was pressed on).
#[component]
pub fn KeyboardHelp(props: &KeyboardHelpProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let button = use_node_ref();
    let dialog = use_node_ref();
    {
        let button = button.clone();
        use_effect_with((), move |()| {
            let opener = focused();
            if let Some(b) = button.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            move || restore_focus(opener, &["#shortcuts".into(), "#play".into(), "main h1".into()])
        });
    }
    // Tab past the last control comes back to the first, Shift+Tab before the first to the last.
    let trap = {
        let dialog = dialog.clone();
        Callback::from(move |e: KeyboardEvent| trap_tab(&dialog, &e))
    };
    html! {
        <div class="overlay" id="keyboard-help" role="dialog" aria-modal="true" aria-labelledby="keyboard-help-title"
            ref={dialog} onkeydown={trap}>
            <div class="dialog">
                <h2 id="keyboard-help-title">{ "Keyboard shortcuts" }</h2>
                <table>
                    <tbody>
                        { for SHORTCUTS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
                <p class="hint">{ "Space and the arrow act unless a text field or a menu has the focus." }</p>
                <button type="button" ref={button} id="keyboard-help-close" class="primary" onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}

/// The page's shortcuts, as the help lists them.
pub const SHORTCUTS: [(&str, &str); 6] = [
    ("Space", "play or pause"),
    ("→", "step: one slot, or one event in continuous time (an arrival, a departure, a clock tick)"),
    ("←", "step back: one slot, or to the event before; drag the timeline to go further back"),
    ("?", "this list"),
    ("Escape", "close this list"),
    ("Tab", "from the top: Skip to Play, then the controls in order"),
];
