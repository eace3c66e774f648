//! An input for one scenario key, keeping a rejected value in the box until it is fixed.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::form::field_notice::{Notice, notice_id};
use crate::dom::page::value_of;
use crate::state::{Action, Lab};

#[derive(Properties, PartialEq)]
pub struct KeyFieldProps {
    /// The scenario key (`servers`, `load`, …).
    pub name: &'static str,
    pub label: AttrValue,
    /// The input type.
    pub kind: &'static str,
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
    /// The moment whose value a key that changes shows (the race's end by default).
    #[prop_or(u64::MAX)]
    pub in_force_at: u64,
}

/// An input for one scenario key. A rejected value stays in the box, with the message under
/// it, until it is fixed; the scenario keeps its last valid value meanwhile.
#[component]
pub fn KeyField(props: &KeyFieldProps) -> Html {
    let draft = use_state(|| None::<String>);
    let key = props.name;
    // A key that changes shows the value in force at the moment on screen: after going back
    // before a change, the value before it.
    let scenario = &props.lab.setup.scenario;
    let changed = scenario.any().window().changes.value_at(key, props.in_force_at).map(str::to_string);
    let current = changed.or_else(|| scenario.get(key)).unwrap_or_default();
    let rejected = props.lab.notice_for(key).is_some();
    let value = if rejected { (*draft).clone().unwrap_or(current) } else { current };
    let help = props.lab.setup.scenario.keys().into_iter().find(|k| k.key == key).map(|k| k.help).unwrap_or_default();
    let onchange = {
        let (dispatch, draft) = (props.dispatch.clone(), draft.clone());
        Callback::from(move |e: Event| {
            let value = value_of(&e);
            draft.set(Some(value.clone()));
            dispatch.emit(Action::Set { key: key.to_string(), value });
        })
    };
    html! {
        <label class="field">
            <span title={help}>{ props.label.clone() }</span>
            <input id={format!("field-{key}")} name={key} type={props.kind} {value} {onchange}
                aria-invalid={rejected.to_string()} aria-describedby={rejected.then(|| notice_id(key))}
                inputmode={(props.kind == "number").then_some("numeric")} />
            // The trace's message shows once, by the file drop where logs arrive: an id is
            // the page's only once.
            if key != packlab_core::trace::KEY { <Notice lab={props.lab.clone()} field={key} /> }
        </label>
    }
}
