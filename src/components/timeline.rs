//! The timeline: the run so far as a scrubber, to go back to any moment, and a link to the
//! moment shown.

use std::rc::Rc;

use packlab_core::changes::Change;
use yew::prelude::*;

use crate::play::checkpoints::BUDGET_BYTES;
use crate::play::snapshot::Shown;
use packlab_core::format::{group_digits, moment};
use packlab_core::page::TIME as TIME_KEY;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub snapshot: Shown,
    pub on_seek: Callback<f64>,
    pub query: String,
    /// The scenario's changes: each is marked, and a click (or Enter) goes to its moment.
    #[prop_or_default]
    pub changes: Rc<[Change]>,
}

/// The run so far as a scrubber: drag or click to go back to any moment (the race replays it
/// exactly from its checkpoints), then play on. A link can open at the moment shown.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let s = &props.snapshot.0;
    let unit = s.model.time;
    let furthest = s.furthest.floor().max(s.now.ceil());
    let seek = props.on_seek.reform(|e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        input.value_as_number()
    });
    // A moment between two whole units (a step to an event) is written exactly.
    let now = moment(s.now);
    let (count, bytes) = s.checkpoints;
    let memory = format!(
        "Going back replays from the nearest of {count} checkpoints ({:.1} MB, at most {} MB).",
        bytes as f64 / 1e6,
        BUDGET_BYTES >> 20
    );
    let link = {
        let separator = if props.query.is_empty() { "" } else { "&" };
        // Exactly this moment: an event's time prints as the shortest text that reads back to it.
        format!("?{}{separator}{}={}", props.query, TIME_KEY, s.now)
    };
    // Whole units in slotted time; any moment in continuous time, so the knob sits where the
    // run is after a step to an event.
    let step = if unit == packlab_core::model::TimeUnit::Slots { "1" } else { "any" };
    let end = group_digits(furthest as u64);
    let said = |c: &Change| format!("{} {}: {} = {}", unit.prefix(), group_digits(c.at), c.key, c.value);
    // Each change a tick on the scrubber, and a button to go to it (reached by Tab, its
    // moment and value in its text; one not reached yet waits).
    let marks = props.changes.iter().map(|c| {
        let go = props.on_seek.reform({
            let at = c.at as f64;
            move |_: MouseEvent| at
        });
        html! {
            <button type="button" class="small change-mark" onclick={go} disabled={c.at as f64 > furthest}
                title={format!("Go to this change: {}", said(c))}>{ said(c) }</button>
        }
    });
    html! {
        <>
        <div class="timeline" id="timeline" data-now={s.now.to_string()} data-furthest={s.furthest.to_string()}
            data-checkpoints={count.to_string()} data-checkpoint-bytes={bytes.to_string()}>
            <label for="scrubber" class="timeline-label" title="Drag or click to go back to any moment of the run so far; ← steps back">
                { "Timeline" }</label>
            <span class="end">{ "0" }</span>
            <input type="range" id="scrubber" min="0" max={furthest.to_string()} {step} value={s.now.to_string()}
                disabled={furthest <= 0.0} oninput={seek} title={memory}
                list={(!props.changes.is_empty()).then_some("change-ticks")}
                aria-valuetext={format!("{} {now}", unit.prefix())} />
            <span class="end" title="How far the run has got">{ end }</span>
            <span class="now">{ format!("{} {now}", unit.prefix()) }</span>
            <a id="moment-link" class="small" href={link}
                title="This page's link, opening at this moment">{ "Link to this moment" }</a>
        </div>
            if !props.changes.is_empty() {
                <datalist id="change-ticks">
                    { for props.changes.iter().map(|c| html! { <option value={c.at.to_string()} label={said(c)} /> }) }
                </datalist>
                <div class="timeline-changes" id="timeline-changes" role="group" aria-label="Changes of the run">
                    <span>{ "Changes:" }</span>
                    { for marks }
                </div>
            }
        </>
    }
}
