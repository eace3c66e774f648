//! The scenario form: preset, policies and their lanes, and every scenario key the model's
//! table puts in the form, with the editors some keys have (sizes, classes, trace files). The
//! fields only dispatch [`Action`]s; the reducer in [`crate::state`] decides.
//!
//! * here: [`ScenarioControls`], the form, and the props its parts share;
//! * [`policy_picker`], [`lane_row`]: the policies and the lanes racing, with their parameters;
//! * [`key_field`], [`field_notice`]: one key's input, and its rejection message;
//! * [`load_field`]: the load slider with the theory's marks;
//! * [`size_editor`], [`class_editor`]: the job sizes and the job classes;
//! * [`trace_files`], [`trace_summary`]: a trace file to replay, and what it holds.

use std::rc::Rc;

use packlab_core::keys::{Editor, Input, KeyInfo};
use packlab_core::models::LoadMark;
use packlab_core::scenario::presets;
use yew::prelude::*;

use crate::components::collections_view::collections_only;
use crate::dom::page::value_of;
use crate::state::{Action, Lab};

pub mod class_editor;
pub mod field_notice;
pub mod key_field;
pub mod lane_row;
pub mod load_field;
pub mod policy_picker;
pub mod size_editor;
pub mod trace_files;
pub mod trace_summary;

use class_editor::ClassEditor;
use key_field::KeyField;
use load_field::LoadField;
use policy_picker::PolicyPicker;
use size_editor::SizeEditor;
use trace_files::TraceFiles;

/// What the parts of the form that edit the scenario get: the lab, the way to change it, and
/// the theory's load marks.
#[derive(Properties, PartialEq)]
pub struct LabControlsProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
    pub marks: Rc<[LoadMark]>,
}

/// Preset, policies and every scenario key the model's table puts in the form.
#[component]
pub fn ScenarioControls(props: &LabControlsProps) -> Html {
    let lab = &props.lab;
    let setup = &lab.setup;
    let on_preset = props.dispatch.reform(|e: Event| Action::ChoosePreset(value_of(&e)));
    let reset = props.dispatch.reform(|_: MouseEvent| Action::ResetScenario);
    let collections = collections_only(&setup.scenario);
    // A replayed trace (PG-RR, MSFQ) brings its own sizes, services and classes: their fields
    // would only mislead, so they leave the form while it replays.
    let traced = setup.scenario.info().id != "pgas" && setup.scenario.get("trace").is_some_and(|t| t != "none");
    let keys: Vec<KeyInfo> = setup
        .scenario
        .keys()
        .into_iter()
        .filter(|k| !(traced && matches!(k.key, "size" | "service" | "classes")))
        .collect();
    let unit = setup.scenario.time_unit().plural();
    let field = |k: &KeyInfo| {
        let label = if k.key == "horizon" { format!("{} ({unit})", k.label) } else { k.label.to_string() };
        let kind = if k.input == Input::Number { "number" } else { "text" };
        html! { <KeyField name={k.key} {label} {kind} lab={lab.clone()} dispatch={props.dispatch.clone()} /> }
    };
    // Short fields in a grid, then the wide ones and the editors on rows of their own.
    let compact = keys.iter().filter(|k| matches!(k.input, Input::Number | Input::Text | Input::Load));
    let wide = keys.iter().filter(|k| matches!(k.input, Input::Wide | Input::Editor(_)));
    html! {
        <form class="scenario" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <label class="field wide">
                <span>{ "Preset" }</span>
                <select id="preset" onchange={on_preset}>
                    { for presets().iter().map(|p| html! {
                        <option value={p.id} selected={p.id == setup.preset.id}>
                            { format!("{} · {}", p.figure, p.title) }
                        </option>
                    }) }
                </select>
            </label>
            if collections {
                // PGAS-C1 solves random collections exactly: only they and the seed enter.
                <div class="fields">
                    { for keys.iter().filter(|k| k.key == "seed").map(field) }
                </div>
                <div class="classes">
                    <KeyField name="types" label="Collections (random:N, or random:N:per-value)" kind="text"
                        lab={lab.clone()} dispatch={props.dispatch.clone()} />
                </div>
            } else {
                <PolicyPicker lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                <div class="fields">
                    { for compact.map(|k| match k.input {
                        Input::Load => html! {
                            <LoadField lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                        },
                        _ => field(k),
                    }) }
                </div>
                if traced {
                    <p class="hint" id="from-trace">{ "Job sizes, service times and classes come from the trace; set \
                        the trace to none for the model's own." }</p>
                }
                { for wide.map(|k| match k.input {
                    Input::Editor(Editor::Sizes) => html! {
                        <SizeEditor lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                    },
                    Input::Editor(Editor::Classes) => html! {
                        <ClassEditor lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                    },
                    Input::Editor(Editor::Types) | Input::Editor(Editor::Trace) => html! {
                        <div class="classes">
                            { field(k) }
                            <TraceFiles lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                        </div>
                    },
                    _ => html! { <div class="classes">{ field(k) }</div> },
                }) }
            }
            <p class="actions">
                <button type="button" id="reset-scenario" onclick={reset}>{ "Preset values" }</button>
            </p>
        </form>
    }
}
