//! The rejection message under a field.

use std::rc::Rc;

use yew::prelude::*;

use crate::state::Lab;

#[derive(Properties, PartialEq)]
pub struct NoticeProps {
    pub lab: Rc<Lab>,
    pub field: &'static str,
}

/// The rejection message of one field, if any. Its input points at it with
/// `aria-describedby`; the page's notice list (a live region) is what announces it, once.
#[component]
pub fn Notice(props: &NoticeProps) -> Html {
    match props.lab.notice_for(props.field) {
        Some(e) => html! { <span class="field-error" id={notice_id(props.field)}>{ e.to_string() }</span> },
        None => html! {},
    }
}

/// The id of field `key`'s rejection message.
pub fn notice_id(key: &str) -> String {
    format!("error-{key}")
}
