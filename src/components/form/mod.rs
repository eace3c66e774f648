//! The scenario form: policies and their lanes, and every scenario key the model's
//! table puts in the form, with the editors some keys have (sizes, classes, trace files). The
//! fields only dispatch [`Action`]s; the reducer in [`crate::state`] decides.
//!
//! * here: [`ScenarioControls`], the form, and the props its parts share;
//! * [`policy_picker`], [`lane_row`]: the policies and the lanes racing, with their parameters;
//! * [`key_field`], [`field_notice`]: one key's input, and its rejection message;
//! * [`load_field`]: the load slider with the theory's marks;
//! * [`size_editor`], [`class_editor`]: the job sizes, and a table key with its file (the job
//!   classes);
//! * [`trace_files`], [`trace_summary`]: a trace file to replay, and what it holds.

use std::rc::Rc;

use packlab_core::keys::{Editor, Input, KeyInfo};
use packlab_core::model::LoadMark;
use yew::prelude::*;

use crate::state::{Action, Lab};

pub mod class_editor;
pub mod field_notice;
pub mod key_field;
pub mod lane_row;
pub mod load_field;
pub mod policy_picker;
pub mod script_editor;
pub mod size_editor;
pub mod trace_files;
pub mod trace_summary;

use class_editor::TableEditor;
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
    /// A tour's question waits for the run: the preset menu names figures only, and the load
    /// slider shows no marks (their titles and the theory's loads would tell the answer).
    #[prop_or_default]
    pub asking: bool,
    /// The moment whose values the keys that change show (the last change at or before the
    /// moment on screen; the race's end by default).
    #[prop_or(u64::MAX)]
    pub in_force_at: u64,
}

/// Policies and every scenario key the model's table puts in the form (the preset is picked in
/// the header: [`crate::components::preset_picker`]).
#[component]
pub fn ScenarioControls(props: &LabControlsProps) -> Html {
    let lab = &props.lab;
    let setup = &lab.setup;
    let reset = props.dispatch.reform(|_: MouseEvent| Action::ResetScenario);
    let info = setup.scenario.info();
    // A scenario that is the theory's alone: only the keys its theory reads.
    let theory_only = setup.scenario.any().theory_only();
    // A replayed trace file brings what the model says it replaces (sizes, services,
    // classes): their fields would only mislead, so they leave the form while it replays.
    let replaced: &[&str] = match &info.replay {
        Some(r) if setup.scenario.any().replaying() => r.replaces,
        _ => &[],
    };
    let all_keys = setup.scenario.keys();
    let replaced_labels: Vec<&str> = all_keys.iter().filter(|k| replaced.contains(&k.key)).map(|k| k.label).collect();
    let keys: Vec<KeyInfo> = all_keys.into_iter().filter(|k| !replaced.contains(&k.key)).collect();
    let unit = setup.scenario.time_unit().plural();
    let field = |k: &KeyInfo| {
        let label = if k.key == "horizon" { format!("{} ({unit})", k.label) } else { k.label.to_string() };
        let kind = if k.input == Input::Number { "number" } else { "text" };
        html! {
            <KeyField name={k.key} {label} {kind} lab={lab.clone()} dispatch={props.dispatch.clone()}
                in_force_at={props.in_force_at} />
        }
    };
    // Short fields in a grid, then the wide ones and the editors on rows of their own.
    let compact = keys.iter().filter(|k| matches!(k.input, Input::Number | Input::Text | Input::Load));
    let wide = keys.iter().filter(|k| matches!(k.input, Input::Wide | Input::Editor(_)));
    html! {
        <form class="scenario" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            if theory_only {
                // Nothing is simulated: only the keys the theory reads enter.
                <div class="fields">
                    { for keys.iter().filter(|k| info.theory_keys.contains(&k.key)).map(field) }
                </div>
            } else {
                <PolicyPicker lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                <div class="fields">
                    { for compact.map(|k| match k.input {
                        Input::Load => html! {
                            <LoadField lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()}
                                asking={props.asking} in_force_at={props.in_force_at} />
                        },
                        _ => field(k),
                    }) }
                </div>
                if !replaced_labels.is_empty() {
                    <p class="hint" id="from-trace">{ format!("{} come from the trace file; \"Preset values\" brings \
                        back the model's own.", replaced_labels.join(", ")) }</p>
                }
                { for wide.map(|k| match k.input {
                    Input::Editor(Editor::Sizes) => html! {
                        <SizeEditor lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                    },
                    Input::Editor(Editor::Classes) => html! {
                        <TableEditor lab={lab.clone()} dispatch={props.dispatch.clone()} key_info={k.clone()} />
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
