//! One lane racing: its label, a field per parameter of its policy, and the buttons that add a
//! lane of the policy or remove this one.

use std::rc::Rc;

use packlab_core::policy::{Param, ParamKind};
use packlab_core::script;
use yew::prelude::*;

use crate::components::form::script_editor::ScriptEditor;
use crate::dom::page::value_of;
use crate::state::{Action, Lab, MAX_POLICIES};

#[derive(Properties, PartialEq)]
pub struct LaneRowProps {
    pub lane: usize,
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// One lane: its label, a field per parameter (empty means the default, shown greyed), and
/// buttons to add another lane of the policy or remove this one.
#[component]
pub fn LaneRow(props: &LaneRowProps) -> Html {
    // Whether the script editor is open (a hook: before any early return).
    let editing = use_state(|| false);
    let setup = &props.lab.setup;
    let Some(spec) = setup.policies.get(props.lane) else { return html! {} };
    let lane = props.lane;
    let label = setup.scenario.policy_label(spec);
    let name = spec.name();
    let full = setup.policies.len() >= MAX_POLICIES;
    let alone = setup.policies.len() == 1;
    let add = props.dispatch.reform(move |_: MouseEvent| Action::AddPolicy(name));
    // The button clicked goes with its lane: the focus moves to the lane now in its place
    // (or the one before), never back to the top of the page.
    let remove = props.dispatch.reform(move |_: MouseEvent| {
        let row = |n: usize| format!(".lane-setup:nth-child({n}) .remove-lane:not([disabled])");
        crate::dom::focus::focus_first_later(vec![
            row(lane + 1),
            row(lane.max(1)),
            ".lane-setup .add-lane:not([disabled])".into(),
            "#policies input".into(),
        ]);
        Action::RemovePolicy(lane)
    });
    // A scripted lane edits its script in the editor, not as the text of its `src` key.
    let scripting = (name == script::NAME).then(|| setup.scenario.scripting()).flatten();
    let editor = scripting.map(|scripting| {
        let open = {
            let editing = editing.clone();
            Callback::from(move |_: MouseEvent| editing.set(true))
        };
        let on_close = {
            let editing = editing.clone();
            Callback::from(move |()| editing.set(false))
        };
        let on_apply = {
            let (editing, dispatch) = (editing.clone(), props.dispatch.clone());
            Callback::from(move |source: String| {
                editing.set(false);
                // The new script re-keys this lane's row, so the button that opened the editor
                // is gone when the editor closes: the focus goes to the new row's button once
                // it is drawn.
                crate::dom::focus::focus_first_later(vec![
                    format!(".lane-setup:nth-child({}) .edit-script", lane + 1),
                    ".lane-setup .edit-script".into(),
                    "#policies input".into(),
                ]);
                dispatch.emit(Action::SetPolicyParam {
                    lane,
                    key: "src".into(),
                    value: script::source::encode(&source),
                });
            })
        };
        let source = scripting.source_of(spec).unwrap_or_default();
        html! {
            <>
                <button type="button" class="edit-script" onclick={open}
                    aria-label={format!("Edit script of lane {} ({label})", lane + 1)}>{ "Edit script…" }</button>
                if *editing {
                    <ScriptEditor lane={lane + 1} label={label.clone()} {source} {scripting} {on_apply} {on_close} />
                }
            </>
        }
    });
    let field = |param: &'static Param| {
        let key = param.key;
        let id = format!("lane-{}-{key}", lane + 1);
        let onchange = props.dispatch.reform(move |e: Event| Action::SetPolicyParam {
            lane,
            key: key.into(),
            value: value_of(&e),
        });
        let title = format!("{} ({})", param.help, param.range());
        let caption = param.symbol.unwrap_or(key);
        let input = match param.kind {
            ParamKind::Choice(options) => {
                let current = spec.param_or_default(key).unwrap_or_default();
                html! {
                    <select {id} {onchange} title={title.clone()} aria-label={format!("{label}: {key}")}>
                        if param.default.is_none() {
                            <option value="" selected={current.is_empty()}>{ "default" }</option>
                        }
                        { for options.iter().map(|o| html! { <option value={*o} selected={*o == current}>{ *o }</option> }) }
                    </select>
                }
            }
            _ => {
                // Empty means the default: the value the policy would use is the placeholder.
                let value = spec.param(key).unwrap_or_default().to_string();
                let placeholder = setup
                    .scenario
                    .policy_param(&spec.with_param(key, "").unwrap_or(spec.clone()), key)
                    .unwrap_or_else(|| "default".into());
                let numeric = matches!(param.kind, ParamKind::Int { .. } | ParamKind::ScenarioInt { .. });
                html! {
                    <input {id} {onchange} {value} title={title.clone()} size="5" placeholder={placeholder}
                        inputmode={numeric.then_some("numeric")} aria-label={format!("{label}: {key}")} />
                }
            }
        };
        html! { <label class="param" {title}><span>{ caption }</span>{ input }</label> }
    };
    html! {
        <li class="lane-setup" data-policy={spec.to_string()}>
            <span class="lane-name">{ format!("{}. {label}", lane + 1) }</span>
            { for spec.meta().params.iter().filter(|_| scripting.is_none()).map(field) }
            { for editor }
            <span class="lane-buttons">
                <button type="button" class="add-lane" onclick={add} disabled={full}
                    aria-describedby={full.then_some("lanes-full")}
                    title={format!("race another {} lane, to set other parameters", spec.meta().label)}
                    aria-label={format!("add another {} lane", spec.meta().label)}>{ "+" }</button>
                <button type="button" class="remove-lane" onclick={remove} disabled={alone}
                    aria-describedby={alone.then_some("lanes-one")}
                    aria-label={format!("remove lane {} ({label})", lane + 1)}>{ "×" }</button>
            </span>
        </li>
    }
}
