//! The playback bar: play or pause, step, back, reset, the speed, the progress and the measured
//! pace, and the timeline under them.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::timeline::Timeline;
use crate::dom::page::value_of;
use crate::play::snapshot::{Phase, Shown, Snapshot};
use crate::state::Action;
use crate::state::Speed;
use packlab_core::format::group_digits;

#[derive(Properties, PartialEq)]
pub struct PlaybackProps {
    pub snapshot: Rc<Snapshot>,
    pub speed: Speed,
    pub dispatch: Callback<Action>,
    pub on_toggle: Callback<()>,
    pub on_step: Callback<()>,
    pub on_back: Callback<()>,
    /// Goes to a time within the run so far (the timeline).
    pub on_seek: Callback<f64>,
    pub on_restart: Callback<()>,
    /// Opens the list of keyboard shortcuts.
    pub on_help: Callback<()>,
    /// The page's link, to which "Link to this moment" adds the time.
    pub query: String,
    /// The moment a jump on the timeline is replaying to, until the race shows it: a long
    /// run's replay can take seconds, and the page says it works meanwhile.
    #[prop_or_default]
    pub seeking: Option<f64>,
    /// The scenario's changes, which the timeline marks.
    #[prop_or_default]
    pub changes: Rc<[packlab_core::changes::Change]>,
}

/// Play/pause, step, reset, speed, progress and the measured pace.
#[component]
pub fn Playback(props: &PlaybackProps) -> Html {
    let s = &props.snapshot;
    // While playing, the timeline moves when the run has gone a 300th of its length further,
    // not every frame: redrawing the scrubber sixty times a second took frame time from the
    // simulation. Stopped, it shows the moment exactly.
    let timeline = use_mut_ref(|| s.clone());
    {
        let mut shown = timeline.borrow_mut();
        let moved = (s.now - shown.now).abs() >= s.furthest.max(1.0) / 300.0;
        if s.phase != Phase::Running || moved || shown.phase != s.phase {
            *shown = s.clone();
        }
    }
    let timeline = Shown(timeline.borrow().clone());
    let (label, pressed) = match s.phase {
        Phase::Running => ("Pause", true),
        Phase::Finished => ("Run again", false),
        Phase::Ready => ("Play", false),
        _ => ("Resume", false),
    };
    let failed = matches!(s.phase, Phase::Failed(_));
    let toggle = props.on_toggle.reform(|_: MouseEvent| ());
    let step = props.on_step.reform(|_: MouseEvent| ());
    let back = props.on_back.reform(|_: MouseEvent| ());
    let restart = props.on_restart.reform(|_: MouseEvent| ());
    let speed = props.dispatch.reform(|e: Event| Action::SetSpeed(value_of(&e)));
    let mut choices = Speed::CHOICES.to_vec();
    if !choices.contains(&props.speed) {
        choices.push(props.speed);
    }
    let (rate, simulating, thread) = match (&s.rate, &s.phase) {
        (Some(r), Phase::Running) => (
            format!(
                "{:.0} frames/s · {} {}/s",
                r.fps,
                group_digits(r.slots_per_second.round() as u64),
                s.model.time.plural()
            ),
            format!("{:.1}", r.simulating_ms),
            Some(if r.worker { "worker" } else { "page" }),
        ),
        _ => (String::new(), String::new(), None),
    };
    // At a set pace, a machine that plays less than nine tenths of it says so (the pace of a
    // race is what it is chosen for: a lecture's ten seconds).
    let lagging = match (&s.rate, &s.phase, props.speed.rate(s.horizon)) {
        (Some(r), Phase::Running, Some(want)) if r.slots_per_second < 0.9 * want => Some(format!(
            "This machine cannot keep this pace: {} of {} {}/s",
            group_digits(r.slots_per_second.round() as u64),
            group_digits(want.round() as u64),
            s.model.time.plural()
        )),
        _ => None,
    };
    let workers = s.rate.map_or(0, |r| r.workers);
    let thread_title = thread.map(|t| match (t, workers) {
        ("worker", 2..) => {
            format!("Simulated in {workers} Web Workers, each running some of the lanes; the page only draws")
        }
        ("worker", _) => "Simulated in a Web Worker; the page only draws".to_string(),
        _ => "Simulated on the page's own thread, between frames".to_string(),
    });
    html! {
        <div class="playback" aria-busy={props.seeking.is_some().then_some("true")}>
            <button id="play" class="primary" onclick={toggle} disabled={failed}
                aria-pressed={pressed.to_string()} title="Space">{ label }</button>
            <button id="back" onclick={back} disabled={s.now <= 0.0}
                title={format!("Left arrow: back one {}", step_unit(s))}>{ "◀ Back" }</button>
            <button id="step" onclick={step} disabled={failed || s.phase == Phase::Finished}
                title={format!("Right arrow: on one {}", step_unit(s))}>{ "Step ▶" }</button>
            <button id="restart" onclick={restart} disabled={s.slot == 0}>{ "Reset" }</button>
            <button id="shortcuts" class="small" onclick={props.on_help.reform(|_: MouseEvent| ())}
                title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">{ "?" }</button>
            <label class="speed">
                <span>{ "Speed" }</span>
                <select id="speed" name={packlab_core::page::SPEED} onchange={speed}>
                    { for choices.iter().map(|c| html! {
                        <option value={c.to_string()} selected={*c == props.speed}>{ c.label(s.model.time.plural()) }</option>
                    }) }
                </select>
            </label>
            <div class="progress">
                <progress max="1" value={s.progress().to_string()} aria-label="Progress to the horizon" />
                <span class="slots">
                    { format!(
                        "{} {} of {}",
                        s.model.time.prefix(),
                        group_digits(s.slot),
                        group_digits(s.horizon)
                    ) }
                </span>
                if let Some(t) = props.seeking {
                    <span id="seeking" class="seeking">
                        { format!("going to {} {}…", s.model.time.prefix(), packlab_core::format::moment(t)) }
                    </span>
                }
                <span id="rate" class="rate" data-simulating-ms={simulating} data-thread={thread}
                    data-workers={thread.map(|_| workers.max(1).to_string())}
                    title={thread_title}>{ rate }</span>
                if let Some(note) = lagging {
                    <span id="pace-lag" class="rate">{ note }</span>
                }
            </div>
            <Timeline snapshot={timeline} on_seek={props.on_seek.clone()} query={props.query.clone()}
                changes={props.changes.clone()} />
        </div>
    }
}

/// What one step is: a slot, or an event in continuous time.
fn step_unit(s: &Snapshot) -> &'static str {
    match s.model.time {
        packlab_core::model::TimeUnit::Slots => "slot",
        packlab_core::model::TimeUnit::Continuous => "event",
    }
}
