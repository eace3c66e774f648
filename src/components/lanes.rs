//! The lanes: each policy's cluster, edged in its colour, with the sentence on its last
//! placement.

use std::rc::Rc;

use packlab_core::model::Drawing;
use yew::prelude::*;

use crate::cluster::layout::{Hit, ServerStyle};
use crate::components::cluster_canvas::ClusterCanvas;
use crate::components::swatch::Swatch;
use crate::hooks::use_media::{SWIPED, use_media};
use crate::play::frames::{Frames, use_frames};
use crate::play::snapshot::{Phase, Snapshot};
use packlab_core::format::moment;

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    /// The race as the canvases draw it, every frame: this component renders with each
    /// snapshot, not only when the lab does.
    pub frames: Frames,
    /// The race as the sentences under them say it ([`crate::hooks::use_text_pace`]).
    pub text: Rc<Snapshot>,
    pub reduced_motion: bool,
    /// Told which lane was clicked and where (the inspector); clicks do nothing without.
    #[prop_or_default]
    pub on_hit: Option<Callback<(usize, Hit)>>,
}

/// Each policy's cluster, edged in its colour, with the sentence on its last placement.
#[component]
pub fn Lanes(props: &LanesProps) -> Html {
    let snapshot = &use_frames(&props.frames);
    // What the time of the last placement is called: a slot, or t in continuous time.
    let time_word = snapshot.model.time.prefix();
    let style = match snapshot.model.drawing {
        Drawing::Slots => ServerStyle::Slots,
        Drawing::Bars => ServerStyle::Bars,
    };
    // A lane's sentences, from the text's snapshot of the same race (the text shows a new race
    // at once, so its lanes are these).
    let said = |i: usize| props.text.lanes.get(i).unwrap_or(&snapshot.lanes[i]);
    // On a phone the lanes are a row swiped one at a time (www/phone.css): a scrolled region,
    // which the keyboard must reach too.
    let narrow = use_media(SWIPED);
    html! {
        <div class="lanes" tabindex={narrow.then_some("0")} role={narrow.then_some("region")}
            aria-label={narrow.then_some("Lanes, one per policy: swipe or scroll sideways")}>
            { for snapshot.lanes.iter().enumerate().map(|(i, lane)| html! {
                <article class={classes!("lane", format!("policy-{}", lane.color % 7))} key={lane.policy.clone()}
                    data-lane={lane.policy.clone()}>
                    <h2><Swatch color={lane.color} markers=true />{ &lane.label }</h2>
                    <ClusterCanvas view={lane.view.clone()} bin_labels={snapshot.bin_labels.clone()}
                        detail={snapshot.detail} min_interval_ms={if props.reduced_motion { 500.0 } else { 0.0 }}
                        {style} playing={snapshot.phase == Phase::Running} on_hit={props.on_hit.as_ref().map(|on_hit| on_hit.reform(move |hit| (i, hit)))} />
                    <p class="why">{ said(i).view.last.as_ref().map_or_else(
                        || "No job placed yet.".to_string(),
                        |w| format!("{} {}: {}", time_word, moment(w.time), w.text)) }</p>
                    if let Some(readout) = &said(i).view.readout {
                        <p class="readout">{ readout }</p>
                    }
                    if let Some(legend) = &said(i).view.legend {
                        <p class="legend">{ legend }</p>
                    }
                </article>
            }) }
        </div>
    }
}
