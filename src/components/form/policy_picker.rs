//! The policy picker: one checkbox per policy of the model, then one row per lane racing.

use yew::prelude::*;

use packlab_core::models::policies_of;
use packlab_core::script;

use crate::components::form::LabControlsProps;
use crate::components::form::field_notice::Notice;
use crate::components::form::lane_row::LaneRow;
use crate::state::{Action, MAX_POLICIES};

/// One checkbox per policy of the model, then one row per lane racing: its parameters (from
/// the registry, with their ranges), a button adding another lane of the same policy, and
/// one removing the lane. At most [`MAX_POLICIES`] lanes.
#[component]
pub fn PolicyPicker(props: &LabControlsProps) -> Html {
    let chosen = &props.lab.setup.policies;
    let full = chosen.len() >= MAX_POLICIES;
    html! {
        <fieldset class="policies" id="policies">
            <legend>{ format!("Policies (1 to {MAX_POLICIES} lanes, side by side)") }</legend>
            <div class="checks">
                { for policies_of(props.lab.setup.scenario.info().id).map(|meta| {
                    let checked = chosen.iter().any(|p| p.name() == meta.name);
                    let name = meta.name;
                    let toggle = props.dispatch.reform(move |_: Event| Action::TogglePolicy(name));
                    // The scripted policy is offered as what it is to a user: a rule of their own.
                    let label = if name == script::NAME { script::PICKER_LABEL } else { meta.label };
                    html! {
                        <label class="check" title={meta.summary}>
                            <input type="checkbox" name="policy" value={meta.name} {checked}
                                disabled={full && !checked} onchange={toggle}
                                aria-describedby={(full && !checked).then_some("lanes-full")} />
                            // A long name may break after its "+" (DRA+Preemption) in a narrow column.
                            <span>{ for label.split_inclusive('+').map(|part| html! { <>{ part }<wbr /></> }) }</span>
                        </label>
                    }
                }) }
            </div>
            <ol class="lanes-setup" id="lanes-setup" aria-label="Lanes and their parameters">
                { for chosen.iter().enumerate().map(|(lane, spec)| html! {
                    <LaneRow key={spec.to_string()} {lane} lab={props.lab.clone()} dispatch={props.dispatch.clone()} />
                }) }
            </ol>
            // Why a control is greyed out: a disabled control says nothing by itself.
            if full {
                <p class="hint" id="lanes-full">{ format!("{MAX_POLICIES} lanes race, the most the page runs side by \
                    side: remove one (×) to add another.") }</p>
            }
            if chosen.len() == 1 {
                <p class="hint" id="lanes-one">{ "One lane races: a race needs at least one, so it cannot be removed." }</p>
            }
            <Notice lab={props.lab.clone()} field="policy" />
        </fieldset>
    }
}
