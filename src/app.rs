//! The page: a preset, its explanation, and its policies racing live.

use std::rc::Rc;

use yew::prelude::*;

use crate::chart::QueueChart;
use crate::race::Setup;
use crate::runner::use_race;
use crate::snapshot::{Phase, Snapshot};
use crate::stats::{Stats, group_digits};

/// The preset the page opens with.
pub const PRESET: &str = "pgrr-a1";
/// The policies it races, as the CLI names them.
pub const POLICIES: [&str; 2] = ["vqs", "bf-js"];

/// The root component.
#[component]
pub fn App() -> Html {
    let setup = use_memo((), |()| Setup::load(PRESET, &POLICIES).map(Rc::new).map_err(|e| e.to_string()));
    html! {
        <>
            <header class="masthead">
                <span class="brand">{ "packlab" }</span>
                <span class="tagline">{ "cluster job scheduling, simulated in your browser" }</span>
            </header>
            <main>
                { match &*setup {
                    Ok(setup) => html! { <Lab setup={setup.clone()} /> },
                    Err(message) => html! { <ErrorNote message={message.clone()} /> },
                } }
            </main>
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct LabProps {
    pub setup: Rc<Setup>,
}

/// A preset with its explanation, controls, chart and stats.
#[component]
pub fn Lab(props: &LabProps) -> Html {
    let race = use_race(props.setup.clone());
    let preset = &props.setup.preset;
    let snapshot = &race.snapshot;
    html! {
        <>
            <section class="preset" aria-labelledby="preset-title">
                <p class="figure">{ preset.figure }</p>
                <h1 id="preset-title">{ preset.title }</h1>
                <p class="explanation">{ preset.explanation }</p>
            </section>
            <section class="panel" aria-label="Live simulation">
                <Controls snapshot={snapshot.clone()} on_toggle={race.toggle} on_restart={race.restart} />
                if let Some(message) = snapshot.error() {
                    <ErrorNote message={message.to_string()} />
                }
                <QueueChart snapshot={snapshot.clone()} />
                <Stats lanes={snapshot.lanes.clone()} warmup={snapshot.warmup} />
            </section>
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub snapshot: Rc<Snapshot>,
    pub on_toggle: Callback<()>,
    pub on_restart: Callback<()>,
}

/// Play/pause, restart and progress.
#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let s = &props.snapshot;
    let (label, pressed) = match s.phase {
        Phase::Running => ("Pause", true),
        Phase::Finished => ("Run again", false),
        Phase::Ready if s.slot == 0 => ("Play", false),
        _ => ("Resume", false),
    };
    let failed = matches!(s.phase, Phase::Failed(_));
    let toggle = props.on_toggle.reform(|_: MouseEvent| ());
    let restart = props.on_restart.reform(|_: MouseEvent| ());
    html! {
        <div class="controls">
            <button id="play" class="primary" onclick={toggle} disabled={failed}
                aria-pressed={pressed.to_string()}>{ label }</button>
            <button id="restart" onclick={restart} disabled={s.slot == 0}>{ "Restart" }</button>
            <div class="progress">
                <progress max="1" value={s.progress().to_string()} aria-label="Progress to the horizon" />
                <span class="slots">
                    { format!("slot {} of {}", group_digits(s.slot), group_digits(s.horizon)) }
                </span>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ErrorNoteProps {
    pub message: AttrValue,
}

/// A visible error.
#[component]
pub fn ErrorNote(props: &ErrorNoteProps) -> Html {
    html! { <p class="error" role="alert">{ props.message.clone() }</p> }
}
