//! The keyboard help: every shortcut of the page, in a dialog over it.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct KeyboardHelpProps {
    pub on_close: Callback<()>,
}

/// Every shortcut of the page, over it; `?` or the button opens it, Escape or Close shuts it.
#[component]
pub fn KeyboardHelp(props: &KeyboardHelpProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let button = use_node_ref();
    {
        // The dialog takes the focus, so Escape and Tab act in it.
        let button = button.clone();
        use_effect_with((), move |()| {
            if let Some(b) = button.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    html! {
        <div class="overlay" id="keyboard-help" role="dialog" aria-modal="true" aria-labelledby="keyboard-help-title">
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
