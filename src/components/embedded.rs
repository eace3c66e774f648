//! The embedded page (`embed=1`): the lab inside an iframe, with the chosen views only.

use std::rc::Rc;

use yew::prelude::*;

use crate::charts::kind::ChartKind;
use crate::components::announcer::Announcer;
use crate::components::charts::Charts;
use crate::components::keyboard_help::KeyboardHelp;
use crate::components::lanes::Lanes;
use crate::components::playback::Playback;
use crate::components::stats_table::StatsTable;
use crate::dom::page::current_link;
use crate::hooks::use_lab_race::{LabRace, use_lab_race, use_load_marks};
use crate::hooks::use_pause_when_hidden::use_pause_when_hidden;
use crate::play::snapshot::Phase;
use crate::state::Action;
use crate::state::views::View;
use crate::state::{Lab, SameLab};

#[derive(Properties, PartialEq)]
pub struct EmbeddedLabProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// The lab inside an iframe (`embed=1`): a playback bar, the chosen views sized to the frame,
/// and a link to the whole page. It pauses while it is off-screen or its tab is hidden, and
/// plays on when it is back, if it was playing.
#[component]
pub fn EmbeddedLab(props: &EmbeddedLabProps) -> Html {
    let lab = &props.lab;
    let setup = lab.setup.clone();
    let LabRace { race, text, reduced_motion, help, toggle_help, theme, intent, seeking } =
        use_lab_race(lab, &props.dispatch, false);
    let marks = use_load_marks(&setup, true);
    let root = use_node_ref();
    use_pause_when_hidden(root.clone(), race.snapshot.phase == Phase::Running, race.pause.clone(), race.play.clone());
    let snapshot = &race.snapshot;
    let load = *use_memo(setup.clone(), |s| s.scenario.offered_utilization());
    let changes = use_memo(setup.clone(), |s| crate::charts::live::change_marks(s));
    let views = lab.embed.as_ref().map(|e| e.views.clone()).unwrap_or_default();
    // By default the lanes and the model's first chart.
    let views: Vec<View> = if views.is_empty() {
        let first = ChartKind::ALL.iter().find(|k| k.applies(snapshot)).map(|&k| View::Chart(k));
        std::iter::once(View::Lanes).chain(first).collect()
    } else {
        views
    };
    let charts: Rc<[ChartKind]> = views
        .iter()
        .filter_map(|v| match v {
            View::Chart(kind) => Some(*kind),
            _ => None,
        })
        .collect();
    // The links, written once per state of the lab rather than in every frame.
    let links = use_memo(SameLab(lab.clone()), |SameLab(lab)| {
        (current_link(&Lab { embed: None, ..(**lab).clone() }.query()), lab.query_at(None))
    });
    let (full_link, from_start) = (*links).clone();
    let preset = &setup.preset;
    html! {
        <main class="embed" ref={root} aria-label={format!("packlab: {}", preset.title)} data-race-thread={race.thread}>
            if *help {
                <KeyboardHelp on_close={toggle_help.reform(|_| Some(false))} />
            }
            <header class="embed-head">
                <span class="figure">{ preset.figure }</span>
                <h1 class="embed-title">{ preset.title }</h1>
                <a id="open-full" class="open-full" href={full_link} target="_blank" rel="noopener">
                    { "Open in packlab ↗" }
                </a>
            </header>
            <Playback snapshot={text.clone()} speed={lab.speed} dispatch={props.dispatch.clone()}
                on_toggle={race.toggle.clone()} on_step={race.step.clone()} on_back={race.back.clone()}
                on_seek={race.seek.clone()} query={from_start} on_restart={race.restart.clone()}
                on_help={toggle_help.reform(|()| Some(true))} {seeking} />
            <Announcer snapshot={snapshot.clone()} {intent} />
            if let Some(message) = snapshot.error() {
                <p class="error" role="alert">{ message.to_string() }</p>
            }
            if views.contains(&View::Stats) {
                <StatsTable lanes={text.lanes.clone()} warmup={snapshot.warmup}
                    unit={snapshot.model.time.plural()} job_time={snapshot.job_time()}
                    queues={snapshot.queues()} rewards={snapshot.model.reward} reward={snapshot.reward} />
            }
            if views.contains(&View::Lanes) {
                <Lanes frames={race.frames.clone()} text={text.clone()} {reduced_motion} />
            }
            if !charts.is_empty() {
                <div class="charts">
                    <Charts frames={race.frames.clone()} marks={marks} {load} on_focus={race.focus.clone()}
                        {reduced_motion} only={charts} {theme} {changes} />
                </div>
            }
        </main>
    }
}
