//! The load knob: a slider with the theory's marks, and the exact value.

use yew::prelude::*;

use packlab_core::model::SliderMax;

use crate::components::form::LabControlsProps;
use crate::components::form::key_field::KeyField;
use crate::dom::page::value_of;
use crate::state::Action;

/// The load knob (α, λ, ζ, or a replay's traffic scaling): a slider with the theory's marks,
/// and the exact value.
#[component]
pub fn LoadField(props: &LabControlsProps) -> Html {
    // The load in force at the moment on screen: its last change's by then, else the scenario's.
    let scenario = &props.lab.setup.scenario;
    let changed = scenario.any().window().changes.value_at("load", props.in_force_at).and_then(|v| v.parse().ok());
    let load = changed.unwrap_or_else(|| scenario.load());
    let slide = props.dispatch.reform(|e: Event| Action::Set { key: "load".into(), value: value_of(&e) });
    // A fixed end, or a little past the capacity bound (the first mark), so the slider can
    // show the unstable side too.
    // The model's knob, or a replay's traffic scaling while a trace file replays.
    let knob = props.lab.setup.scenario.any().load_knob();
    let (name, title, step) = (knob.name, knob.help, knob.step);
    let max = match knob.slider {
        SliderMax::Fixed(max) => max,
        SliderMax::PastFirstMark(factor) => {
            let bound = props.marks.first().map_or(2.0 * load, |m| m.load);
            (factor * bound * 100.0).ceil() / 100.0
        }
    };
    let marks: Vec<String> = props
        .marks
        .iter()
        .map(|m| {
            if m.label.contains("α =") || m.label.contains("λ =") || m.label.contains("ζ =") {
                m.label.clone()
            } else {
                format!("{} = {}", m.label, packlab_plot::tick(m.load))
            }
        })
        .collect();
    html! {
        <div class="field load">
            <label for="field-load"><span {title}>{ name }</span></label>
            <div class="load-row">
                <input type="range" id="load-slider" min="0.05" max={max.to_string()} step={step.to_string()}
                    value={load.to_string()} list={(!props.asking).then_some("load-marks")} onchange={slide}
                    aria-label={format!("{name} slider")} />
                <KeyField name="load" label="" kind="text" lab={props.lab.clone()} dispatch={props.dispatch.clone()}
                    in_force_at={props.in_force_at} />
            </div>
            if !props.asking {
                <datalist id="load-marks">
                    { for props.marks.iter().map(|m| html! { <option value={m.load.to_string()} label={m.label.clone()} /> }) }
                </datalist>
                <p class="hint">{ marks.join(" · ") }</p>
            }
            <p class="hint">
                { "Moved while the race plays, the load changes from the moment on screen and the race goes on; \
                   after going back, it replaces the changes after that moment. The link keeps every change." }
            </p>
        </div>
    }
}
