//! The notices: every rejected key, named with its allowed range, above everything else.

use std::rc::Rc;

use yew::prelude::*;

use crate::state::{Action, Lab};

#[derive(Properties, PartialEq)]
pub struct NoticesProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// Every rejected key, named with its allowed range, above everything else.
#[component]
pub fn Notices(props: &NoticesProps) -> Html {
    if props.lab.notices.is_empty() {
        return html! {};
    }
    let dismiss = props.dispatch.reform(|_: MouseEvent| Action::Dismiss);
    html! {
        <div id="notices" class="notices" role="alert">
            <p>{ "Some values were not accepted; the rest loaded:" }</p>
            <ul>
                { for props.lab.notices.iter().map(|n| html! { <li>{ n.to_string() }</li> }) }
            </ul>
            <button type="button" onclick={dismiss}>{ "Dismiss" }</button>
        </div>
    }
}
