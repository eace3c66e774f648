//! The preset picker in the header: one tap from the top of the lab on a phone, whatever the
//! page has scrolled to (the scenario's other controls are further down, or in a sheet).

use std::rc::Rc;

use packlab_core::scenario::presets;
use yew::prelude::*;

use crate::dom::page::value_of;
use crate::state::{Action, Lab};

#[derive(Properties, PartialEq)]
pub struct PresetPickerProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// Every preset by its figure and title. While a tour's step asks its question, by figure
/// only: the titles state what the run is about to show.
#[component]
pub fn PresetPicker(props: &PresetPickerProps) -> Html {
    let lab = &props.lab;
    let asking = lab.tour.is_some_and(|at| at.step().question.is_some());
    let on_preset = props.dispatch.reform(|e: Event| Action::ChoosePreset(value_of(&e)));
    html! {
        <label class="preset-pick">
            <span>{ "Preset" }</span>
            <select id="preset" onchange={on_preset}>
                { for presets().iter().map(|p| html! {
                    <option value={p.id} selected={p.id == lab.setup.preset.id}>
                        { if asking { p.figure.to_string() } else { format!("{} · {}", p.figure, p.title) } }
                    </option>
                }) }
            </select>
        </label>
    }
}
