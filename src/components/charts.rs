//! The live charts that apply to the model (or those an embedded page chose), each with the
//! picker of the policy it focuses on where it shows one.

use std::rc::Rc;

use packlab_core::model::LoadMark;
use yew::prelude::*;

use crate::charts::kind::ChartKind;
use crate::components::live_chart::{LiveChart, RUNNING_REDRAW_MS};
use crate::dom::page::value_of;
use crate::play::frames::{Frames, use_frames};
use crate::play::snapshot::Snapshot;

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    /// The race's snapshots: the charts render with each (and redraw in turns, at most
    /// twenty times a second while it plays), not only when the lab does.
    pub frames: Frames,
    pub marks: Rc<[LoadMark]>,
    pub load: f64,
    pub on_focus: Callback<usize>,
    pub reduced_motion: bool,
    /// The charts to show, in the page's order; all that apply when `None`.
    #[prop_or_default]
    pub only: Option<Rc<[ChartKind]>>,
    #[prop_or_default]
    pub theme: packlab_plot::Theme,
    /// The scenario's changes, marked on every chart.
    #[prop_or_default]
    pub changes: Rc<packlab_plot::ChangeMarks>,
}

/// The live charts that apply to the model (or the chosen ones), each with its focus picker.
#[component]
pub fn Charts(props: &ChartsProps) -> Html {
    let snapshot = &use_frames(&props.frames);
    let chosen = |k: &ChartKind| props.only.as_ref().is_none_or(|only| only.contains(k));
    html! {
        { for ChartKind::ALL.iter().filter(|k| k.applies(snapshot) && chosen(k)).map(|&kind| html! {
            <div class="chart-box" key={kind.id()}>
                if kind.focused() {
                    <FocusPicker snapshot={snapshot.clone()} on_focus={props.on_focus.clone()} {kind} />
                }
                <LiveChart {kind} snapshot={snapshot.clone()} marks={props.marks.clone()} load={props.load} changes={props.changes.clone()}
                    min_interval_ms={if props.reduced_motion { 500.0 } else { RUNNING_REDRAW_MS }} theme={props.theme} />
            </div>
        }) }
    }
}

#[derive(Properties, PartialEq)]
pub struct FocusPickerProps {
    pub snapshot: Rc<Snapshot>,
    pub on_focus: Callback<usize>,
    pub kind: ChartKind,
}

/// Which policy the per-bin charts show (one choice for all of them).
#[component]
fn FocusPicker(props: &FocusPickerProps) -> Html {
    let on_focus = props.on_focus.reform(|e: Event| value_of(&e).parse().unwrap_or(0));
    let (id, text) = match props.kind {
        ChartKind::ClassJobTime => ("focus-job-time", "Classes of "),
        _ => ("focus", "Bins of "),
    };
    html! {
        <label class="focus">
            { text }
            <select {id} onchange={on_focus}>
                { for props.snapshot.lanes.iter().enumerate().map(|(i, l)| html! {
                    <option value={i.to_string()} selected={i == props.snapshot.focus}>{ &l.label }</option>
                }) }
            </select>
        </label>
    }
}
