//! The page: controls on one side; the race (playback, stats, each policy's cluster, the
//! charts) on the other; the link and exports below. State lives in one reducer
//! ([`Lab`]); the URL follows it, so the address bar is always a link to what is on screen.

use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use packlab_core::models::{Drawing, LoadMark};
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::bounds::{AlphaChart, CollectionsView, collections_only};
use crate::chart::{self, ChartKind, LiveChart, RUNNING_REDRAW_MS};
use crate::cluster::Hit;
use crate::cluster::{ClusterCanvas, ServerStyle};
use crate::controls::{Playback, ScenarioControls};
use crate::dom::page::{current_link, location_search, prefers_reduced_motion, value_of};
use crate::export::{self, ImageFormat};
use crate::format::moment;
use crate::gallery::Gallery;
use crate::inspector::{EventLog, Inspect};
use crate::play::snapshot::Phase;
use crate::play::snapshot::Snapshot;
use crate::play::use_race::use_race;
use crate::state::theme::ThemeChoice;
use crate::state::tour::TourAt;
use crate::state::views::View;
use crate::state::{Action, Lab};
use crate::stats::{Stats, Swatch};
use crate::sweep::SweepView;
use packlab_core::scenario::{Scenario, Setup, run_command};
use packlab_core::tours::LaneOutcome;

/// The root component: the lab as the address bar describes it.
#[component]
pub fn App() -> Html {
    let lab = use_reducer(|| Lab::from_link(&location_search()));
    let dispatch = {
        let lab = lab.clone();
        Callback::from(move |action| lab.dispatch(action))
    };
    // The address bar follows the state (replaceState: no history entry per keystroke).
    use_effect_with(lab.query(), |query| {
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{query}")));
        }
    });
    // The theme, whether its colours are dark, and presenter mode are attributes of the
    // document (style.css reads them).
    let system_dark = use_system_dark();
    use_effect_with((lab.theme, lab.present, system_dark), |(theme, present, system_dark)| {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let dark = theme.is_dark(*system_dark);
            let _ = root.set_attribute("data-theme", theme.name());
            let _ = root.set_attribute("data-dark", if dark { "1" } else { "0" });
            let _ = root.set_attribute("data-present", if *present { "1" } else { "0" });
        }
    });
    // One copy of the state per render, shared by the components below.
    let state = Rc::new((*lab).clone());
    if state.embed.is_some() {
        return html! {
            <>
                <Notices lab={state.clone()} dispatch={dispatch.clone()} />
                <EmbeddedLab lab={state} {dispatch} />
            </>
        };
    }
    html! {
        <>
            <header class="masthead">
                // The first Tab stop: Play is otherwise behind every control of the scenario.
                <a class="skip" href="#play" onclick={Callback::from(focus_play)}>{ "Skip to Play" }</a>
                <a class="brand" href="?" id="gallery-link" title="Every preset, by paper"
                    onclick={dispatch.reform(|e: MouseEvent| { e.prevent_default(); Action::ShowGallery })}>
                    { "packlab" }
                </a>
                <span class="tagline">{ "cluster job scheduling, simulated in your browser" }</span>
                <span class="view-options">
                    <label>
                        <span>{ "Colours" }</span>
                        <select id="theme" onchange={dispatch.reform(|e: Event| Action::SetTheme(value_of(&e)))}>
                            { for ThemeChoice::ALL.iter().map(|t| html! {
                                <option value={t.name()} selected={*t == state.theme}>{ t.label() }</option>
                            }) }
                        </select>
                    </label>
                    <button type="button" id="present" aria-pressed={state.present.to_string()} title="P"
                        onclick={dispatch.reform(|_: MouseEvent| Action::TogglePresent)}>
                        { if state.present { "Leave presenter mode" } else { "Present" } }
                    </button>
                </span>
            </header>
            <Notices lab={state.clone()} dispatch={dispatch.clone()} />
            if state.gallery {
                <Gallery {dispatch} />
            } else {
                <Workbench lab={state} {dispatch} />
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoticesProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// Every rejected key, named with its allowed range, above everything else.
#[component]
fn Notices(props: &NoticesProps) -> Html {
    if props.lab.notices.is_empty() {
        return html! {};
    }
    let dismiss = props.dispatch.reform(|_: MouseEvent| Action::Dismiss);
    html! {
        <div id="notices" class="notices" role="alert">
            <p>{ "Some values were not accepted; the rest loaded:" }</p>
            <ul>
                { for props.lab.notices.iter().map(|n| html! { <li>{ n.to_string() }</li> }) }
            </ul>
            <button type="button" onclick={dismiss}>{ "Dismiss" }</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct LabProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// What the full page and the embedded one both run: the race, the theory's load marks, the
/// keyboard and its help, and the chart theme.
struct LabRace {
    race: crate::play::use_race::RaceHandle,
    marks: Rc<[LoadMark]>,
    reduced_motion: bool,
    help: UseStateHandle<bool>,
    /// `None` toggles the keyboard help, `Some(open)` sets it.
    toggle_help: Callback<Option<bool>>,
    theme: packlab_plot::Theme,
}

#[hook]
fn use_lab_race(lab: &Lab, dispatch: &Callback<Action>) -> LabRace {
    let setup = lab.setup.clone();
    let race = use_race(setup.clone(), lab.speed, lab.open_at);
    let marks = use_memo(setup, |s| Rc::<[LoadMark]>::from(s.scenario.marks()));
    let reduced_motion = *use_memo((), |()| prefers_reduced_motion());
    let help = use_state(|| false);
    let toggle_help = {
        let help = help.clone();
        Callback::from(move |open: Option<bool>| help.set(open.unwrap_or(!*help)))
    };
    use_keyboard(
        race.toggle.clone(),
        race.step.clone(),
        race.back.clone(),
        toggle_help.clone(),
        present_toggle(dispatch, lab.present),
    );
    let theme = lab.theme.chart_theme(use_system_dark(), lab.present);
    LabRace { race, marks: (*marks).clone(), reduced_motion, help, toggle_help, theme }
}

/// The lab itself: explanation, controls and the race.
#[component]
fn Workbench(props: &LabProps) -> Html {
    let lab = &props.lab;
    let setup = lab.setup.clone();
    let LabRace { race, marks, reduced_motion, help, toggle_help, theme } = use_lab_race(lab, &props.dispatch);
    let snapshot = &race.snapshot;
    let preset = &setup.preset;
    // The offered fraction of the capacity, drawn on the occupancy chart (once per scenario:
    // for a trace it goes over every task).
    let load = *use_memo(setup.clone(), |s| s.scenario.offered_utilization());
    let name = format!("packlab-{}", preset.id);
    // PGAS-C1's random collections are bounds only: statistics in place of a race.
    let collections = collections_only(&setup.scenario);
    // During a tour, its step says what is on screen.
    let edited = if lab.tour.is_some() { None } else { edited_note(&setup) };
    let inspect = use_state(Inspect::default);
    let on_inspect = {
        let inspect = inspect.clone();
        use_callback((), move |next: Inspect, _| inspect.set(next))
    };
    // What the event log shows: the race as it last stopped.
    let playing = snapshot.phase == Phase::Running;
    let logged = use_mut_ref(|| snapshot.clone());
    if !playing {
        *logged.borrow_mut() = snapshot.clone();
    }
    let logged = crate::play::snapshot::Shown(logged.borrow().clone());
    let on_hit = {
        let (inspect, snapshot) = (inspect.clone(), snapshot.clone());
        Callback::from(move |(lane, hit): (usize, Hit)| inspect.set(Inspect::after_hit(&snapshot, lane, hit)))
    };
    html! {
        <main class="lab" data-highlight={lab.tour.map(|at| at.step().highlight)} data-race-thread={race.thread}>
            if *help {
                <KeyboardHelp on_close={toggle_help.reform(|_| Some(false))} />
            }

            <section class="intro" aria-labelledby="preset-title">
                <p class="figure">{ preset.figure }</p>
                <h1 id="preset-title">{ preset.title }</h1>
                <p class={classes!("summary", edited.is_some().then_some("stale"))}>{ preset.summary }</p>
                if let Some(edited) = edited {
                    <p id="edited" class="edited" role="status">{ edited }</p>
                }
                if lab.present {
                    <p class="present-cues" id="present-cues">
                        <kbd>{ "Space" }</kbd>{ " play or pause · " }<kbd>{ "←" }</kbd>{ " " }<kbd>{ "→" }</kbd>{ " step · " }
                        <kbd>{ "P" }</kbd>{ " leave presenter mode · " }<kbd>{ "?" }</kbd>{ " keys" }
                    </p>
                }
                <details class="explain">
                    <summary>{ "What am I looking at?" }</summary>
                    <p>{ preset.explanation }</p>
                    <p>{ setup.scenario.any().how_to_read() }</p>
                </details>
            </section>
            <aside class="controls" aria-label="Scenario">
                <ScenarioControls lab={lab.clone()} dispatch={props.dispatch.clone()} marks={marks.clone()} />
            </aside>
            <section class="run" aria-label="Live simulation">
                if collections {
                    <CollectionsView scenario={Rc::new(setup.scenario.clone())} name={name.clone()} />
                } else {
                    if let Some(at) = lab.tour {
                        <TourPanel key={format!("{}-{}", at.tour.id, at.step)} {at} snapshot={snapshot.clone()}
                            scenario={Rc::new(setup.scenario.clone())}
                            dispatch={props.dispatch.clone()} on_play={race.toggle.clone()} />
                    }
                    <Playback snapshot={snapshot.clone()} speed={lab.speed} dispatch={props.dispatch.clone()}
                        on_toggle={race.toggle.clone()} on_step={race.step.clone()} on_back={race.back.clone()}
                        on_seek={race.seek.clone()} query={lab.query_at(None)} on_restart={race.restart.clone()}
                        on_help={toggle_help.reform(|()| Some(true))} />
                    if let Some(note) = &race.restarted {
                        <p id="restarted" class="hint restarted" role="status">{ note.to_string() }</p>
                    }
                    if let Some(message) = snapshot.error() {
                        <p class="error" role="alert">{ message.to_string() }</p>
                    }
                    <Stats lanes={snapshot.lanes.clone()} warmup={snapshot.warmup}
                        unit={snapshot.model.time.plural()} job_time={snapshot.job_time()}
                        queues={snapshot.queues()} rewards={snapshot.model.reward} reward={snapshot.reward} />
                    <p class="hint colour-key">
                        { "Colours: each policy has its own, on its lane's top edge and its lines (solid); jobs, \
                           bins and their lines take light colours outlined in grey, one per " }
                        { class_word(snapshot.model.id) }{ "." }
                    </p>
                    <Lanes snapshot={snapshot.clone()} {reduced_motion} on_hit={Some(on_hit)} />
                    <EventLog snapshot={logged} {playing} inspect={*inspect} {on_inspect}
                        link={lab.query()} name={name.clone()} />
                    <div class="charts">
                        <Charts snapshot={snapshot.clone()} marks={marks.clone()} {load}
                            on_focus={race.focus.clone()} {reduced_motion} {theme} />
                        if snapshot.model.reward {
                            <AlphaChart scenario={Rc::new(setup.scenario.clone())} name={name.clone()} />
                        }
                    </div>
                    <SweepView setup={setup.clone()} query={lab.query()} name={name.clone()} />
                }
                <ShareAndExport snapshot={snapshot.clone()} query={lab.query()} {name} charts={!collections}
                    seed={setup.scenario.seed()} marks={marks.clone()} {load}
                    command={run_command(&setup.preset, &setup.policies, &setup.scenario)}
                    traced={matches!(&setup.scenario, Scenario::Pgas(s) if s.trace.is_some())
                        || setup.scenario.get("trace").is_some_and(|t| t.len() == 16)} />
            </section>
        </main>
    }
}

/// The lab inside an iframe (`embed=1`): a playback bar, the chosen views sized to the frame,
/// and a link to the whole page. It pauses while it is off-screen or its tab is hidden, and
/// plays on when it is back, if it was playing.
#[component]
fn EmbeddedLab(props: &LabProps) -> Html {
    let lab = &props.lab;
    let setup = lab.setup.clone();
    let LabRace { race, marks, reduced_motion, help, toggle_help, theme } = use_lab_race(lab, &props.dispatch);
    let root = use_node_ref();
    use_pause_when_hidden(root.clone(), race.snapshot.phase == Phase::Running, race.pause.clone(), race.play.clone());
    let snapshot = &race.snapshot;
    let load = *use_memo(setup.clone(), |s| s.scenario.offered_utilization());
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
    let full = Lab { embed: None, ..(**lab).clone() };
    let preset = &setup.preset;
    html! {
        <main class="embed" ref={root} aria-label={format!("packlab: {}", preset.title)} data-race-thread={race.thread}>
            if *help {
                <KeyboardHelp on_close={toggle_help.reform(|_| Some(false))} />
            }
            <header class="embed-head">
                <span class="figure">{ preset.figure }</span>
                <span class="embed-title">{ preset.title }</span>
                <a id="open-full" class="open-full" href={current_link(&full.query())} target="_blank" rel="noopener">
                    { "Open in packlab ↗" }
                </a>
            </header>
            <Playback snapshot={snapshot.clone()} speed={lab.speed} dispatch={props.dispatch.clone()}
                on_toggle={race.toggle.clone()} on_step={race.step.clone()} on_back={race.back.clone()}
                        on_seek={race.seek.clone()} query={lab.query_at(None)} on_restart={race.restart.clone()}
                on_help={toggle_help.reform(|()| Some(true))} />
            if let Some(message) = snapshot.error() {
                <p class="error" role="alert">{ message.to_string() }</p>
            }
            if views.contains(&View::Stats) {
                <Stats lanes={snapshot.lanes.clone()} warmup={snapshot.warmup}
                    unit={snapshot.model.time.plural()} job_time={snapshot.job_time()}
                    queues={snapshot.queues()} rewards={snapshot.model.reward} reward={snapshot.reward} />
            }
            if views.contains(&View::Lanes) {
                <Lanes snapshot={snapshot.clone()} {reduced_motion} />
            }
            if !charts.is_empty() {
                <div class="charts">
                    <Charts snapshot={snapshot.clone()} marks={marks} {load} on_focus={race.focus.clone()}
                        {reduced_motion} only={charts} {theme} />
                </div>
            }
        </main>
    }
}

/// Pauses the race while `root` is off-screen or the tab is hidden, and plays it on when it
/// is visible again, if it was this hook that paused it. Explicit pause and play, not a
/// toggle: the race runs in a worker, and `running` may be a frame old.
#[hook]
fn use_pause_when_hidden(root: NodeRef, running: bool, pause: Callback<()>, play: Callback<()>) {
    // Whether the element is on screen and the tab visible; whether we paused the race.
    let state = use_mut_ref(|| (true, true, false));
    let current = use_mut_ref(|| (running, pause.clone(), play.clone()));
    *current.borrow_mut() = (running, pause, play);
    let react = {
        let (state, current) = (state.clone(), current.clone());
        Rc::new(move || {
            let (on_screen, tab_visible, paused_by_us) = *state.borrow();
            let (running, pause, play) = current.borrow().clone();
            let visible = on_screen && tab_visible;
            if !visible && running {
                state.borrow_mut().2 = true;
                pause.emit(());
            } else if visible && paused_by_us && !running {
                state.borrow_mut().2 = false;
                play.emit(());
            } else if visible {
                state.borrow_mut().2 = false;
            }
        })
    };
    use_effect_with(root, move |root| {
        let document = web_sys::window().and_then(|w| w.document());
        let visibility = document.clone().map(|document| {
            let (state, react, doc) = (state.clone(), react.clone(), document.clone());
            EventListener::new(&document, "visibilitychange", move |_| {
                state.borrow_mut().1 = doc.visibility_state() == web_sys::VisibilityState::Visible;
                react();
            })
        });
        let observer = root.cast::<web_sys::Element>().and_then(|element| {
            let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                let Ok(entry) = entries.get(0).dyn_into::<web_sys::IntersectionObserverEntry>() else { return };
                state.borrow_mut().0 = entry.is_intersecting();
                react();
            });
            let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok()?;
            observer.observe(&element);
            Some((observer, callback))
        });
        move || {
            drop(visibility);
            if let Some((observer, callback)) = observer {
                observer.disconnect();
                drop(callback);
            }
        }
    });
}

#[derive(Properties, PartialEq)]
struct TourPanelProps {
    at: TourAt,
    snapshot: Rc<Snapshot>,
    scenario: Rc<Scenario>,
    dispatch: Callback<Action>,
    on_play: Callback<()>,
}

/// A guided tour's step: what to look at, a prediction to make, the run, then what happened,
/// stated with the run's own numbers, and the way on.
#[component]
fn TourPanel(props: &TourPanelProps) -> Html {
    let at = props.at;
    let (tour, step) = (at.tour, at.step());
    let count = tour.steps.len();
    let answer = use_state(|| None::<usize>);
    let snapshot = &props.snapshot;
    let outcome = (snapshot.phase == Phase::Finished).then(|| {
        let lanes: Vec<LaneOutcome> = snapshot
            .lanes
            .iter()
            .map(|l| LaneOutcome {
                policy: l.policy.clone(),
                label: l.label.clone(),
                mean_queue: l.mean_queue,
                normalized_reward: l.mean_reward,
                greedy_reward: snapshot.reward.map(|r| r.greedy),
            })
            .collect();
        step.check.state(&lanes, &props.scenario)
    });
    let go = |k: usize| props.dispatch.reform(move |_: MouseEvent| Action::TourStep(k));
    let leave = props.dispatch.reform(|_: MouseEvent| Action::LeaveTour);
    let play = props.on_play.reform(|_: MouseEvent| ());
    let can_play = matches!(snapshot.phase, Phase::Ready | Phase::Paused);
    html! {
        <section class="tour" id="tour" aria-label="Guided tour" data-tour={tour.id} data-step={(at.step + 1).to_string()}>
            <p class="tour-head">
                <span class="figure">{ format!("Tour · {}", tour.paper) }</span>
                <strong>{ tour.title }</strong>
                <span class="hint">{ format!("step {} of {count}", at.step + 1) }</span>
            </p>
            <p>{ step.text }</p>
            if let Some(q) = step.question {
                <fieldset class="tour-question" id="tour-question">
                    <legend>{ q.prompt }</legend>
                    { for q.choices.iter().enumerate().map(|(i, choice)| {
                        let pick = { let answer = answer.clone(); Callback::from(move |_: Event| answer.set(Some(i))) };
                        html! {
                            <label class="check">
                                <input type="radio" name="tour-answer" value={i.to_string()}
                                    checked={*answer == Some(i)} onchange={pick} />
                                <span>{ *choice }</span>
                            </label>
                        }
                    }) }
                </fieldset>
            }
            if can_play {
                <p><button type="button" id="tour-play" class="primary" onclick={play}>
                    { if snapshot.slot == 0 { "Play this step" } else { "Play on" } }</button></p>
            }
            { match outcome {
                Some(Ok((holds, statement))) => {
                    let verdict = match (step.question, *answer) {
                        (Some(q), Some(a)) if a == q.answer => format!("You predicted {}: right. ", q.choices[a]),
                        (Some(q), Some(a)) => format!("You predicted {}; the run says {}. ", q.choices[a], q.choices[q.answer]),
                        _ => String::new(),
                    };
                    html! {
                        <p class="tour-check" id="tour-check" role="status" data-holds={holds.to_string()}>
                            { verdict }{ statement }
                            if !holds { { " (not what this step expects: the scenario was changed)" } }
                        </p>
                    }
                }
                Some(Err(e)) => html! { <p class="tour-check" id="tour-check" role="status">{ e.message }</p> },
                None => html! {},
            } }
            <p class="tour-nav">
                <button type="button" id="tour-back" onclick={go(at.step.saturating_sub(1))} disabled={at.step == 0}>{ "Back" }</button>
                if at.step + 1 < count {
                    <button type="button" id="tour-next" onclick={go(at.step + 1)}>{ "Next step" }</button>
                }
                <button type="button" id="tour-leave" onclick={leave}>
                    { if at.step + 1 == count { "Finish the tour" } else { "Leave the tour" } }
                </button>
            </p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct LanesProps {
    pub snapshot: Rc<Snapshot>,
    pub reduced_motion: bool,
    /// Told which lane was clicked and where (the inspector); clicks do nothing without.
    #[prop_or_default]
    pub on_hit: Option<Callback<(usize, Hit)>>,
}

/// Each policy's cluster, edged in its colour, with the sentence on its last placement.
#[component]
pub fn Lanes(props: &LanesProps) -> Html {
    let snapshot = &props.snapshot;
    // What the time of the last placement is called: a slot, or t in continuous time.
    let time_word = snapshot.model.time.prefix();
    let style = match snapshot.model.drawing {
        Drawing::Slots => ServerStyle::Slots,
        Drawing::Bars => ServerStyle::Bars,
    };
    html! {
        <div class="lanes">
            { for snapshot.lanes.iter().enumerate().map(|(i, lane)| html! {
                <article class={classes!("lane", format!("policy-{}", lane.color % 7))} key={lane.policy.clone()}
                    data-lane={lane.policy.clone()}>
                    <h2><Swatch color={lane.color} markers=true />{ &lane.label }</h2>
                    <ClusterCanvas view={lane.view.clone()} bin_labels={snapshot.bin_labels.clone()}
                        detail={snapshot.detail} min_interval_ms={if props.reduced_motion { 500.0 } else { 0.0 }}
                        {style} on_hit={props.on_hit.as_ref().map(|on_hit| on_hit.reform(move |hit| (i, hit)))} />
                    <p class="why">{ lane.view.last.as_ref().map_or_else(
                        || "No job placed yet.".to_string(),
                        |w| format!("{} {}: {}", time_word, moment(w.time), w.text)) }</p>
                    if let Some(readout) = &lane.view.readout {
                        <p class="readout">{ readout }</p>
                    }
                    if let Some(legend) = &lane.view.legend {
                        <p class="legend">{ legend }</p>
                    }
                </article>
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub snapshot: Rc<Snapshot>,
    pub marks: Rc<[LoadMark]>,
    pub load: f64,
    pub on_focus: Callback<usize>,
    pub reduced_motion: bool,
    /// The charts to show, in the page's order; all that apply when `None`.
    #[prop_or_default]
    pub only: Option<Rc<[ChartKind]>>,
    #[prop_or_default]
    pub theme: packlab_plot::Theme,
}

/// The live charts that apply to the model (or the chosen ones), each with its focus picker.
#[component]
pub fn Charts(props: &ChartsProps) -> Html {
    let snapshot = &props.snapshot;
    let chosen = |k: &ChartKind| props.only.as_ref().is_none_or(|only| only.contains(k));
    html! {
        { for ChartKind::ALL.iter().filter(|k| k.applies(snapshot) && chosen(k)).map(|&kind| html! {
            <div class="chart-box" key={kind.id()}>
                if kind.focused() {
                    <FocusPicker snapshot={snapshot.clone()} on_focus={props.on_focus.clone()} {kind} />
                }
                <LiveChart {kind} snapshot={snapshot.clone()} marks={props.marks.clone()} load={props.load}
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

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub snapshot: Rc<Snapshot>,
    pub query: String,
    /// Base name of exported files.
    pub name: String,
    /// The run's seed, written into the CSV's header lines.
    pub seed: u64,
    /// `packlab run …` for this scenario, and whether it replays an uploaded trace (which
    /// the command cannot carry).
    pub command: String,
    pub traced: bool,
    /// The theory's load marks and the offered load, as the charts draw them.
    pub marks: Rc<[LoadMark]>,
    pub load: f64,
    /// Whether the race's charts are on the page (their PNG buttons).
    #[prop_or(true)]
    pub charts: bool,
}

/// The link to this run, a Copy button, and the exports.
#[component]
fn ShareAndExport(props: &ShareProps) -> Html {
    let status = use_state(String::new);
    let link = current_link(&props.query);
    let copy = |text: String, what: &'static str| {
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else { return };
            let promise = clipboard.write_text(&text);
            let status = status.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(_) => status.set(format!("{what} copied.")),
                    Err(_) => status.set(format!("The browser refused the clipboard: select the {what} and copy it.")),
                }
            });
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            input.select();
        }
    });
    let report = |status: &UseStateHandle<String>, result: Result<(), String>| {
        status.set(result.err().unwrap_or_default());
    };
    let csv = {
        let (snapshot, name, status, link, seed) =
            (props.snapshot.clone(), props.name.clone(), status.clone(), link.clone(), props.seed);
        Callback::from(move |_: MouseEvent| report(&status, export::save_csv(&snapshot, &name, &link, seed)))
    };
    html! {
        <section class="share" aria-label="Share and export">
            <label class="link">
                <span>{ "Link to this run" }</span>
                <input id="link" readonly=true value={link.clone()} onfocus={select_all.clone()} />
            </label>
            <label class="link">
                <span title="packlab run with the same scenario, policies and seed: the same numbers, natively">
                    { "The same run from the command line" }
                </span>
                <input id="command" readonly=true value={props.command.clone()} onfocus={select_all} />
                if props.traced {
                    <span class="hint">{ "The trace file is not in the command: add --trace FILE (the files you loaded, in the same order)." }</span>
                }
            </label>
            <div class="buttons">
                <button type="button" id="copy-link" class="primary" onclick={copy(link, "link")}>{ "Copy link" }</button>
                <button type="button" id="copy-command" onclick={copy(props.command.clone(), "command")}>{ "Copy command" }</button>
                if props.charts {
                    <button type="button" id="export-csv" onclick={csv}>{ "Series (CSV)" }</button>
                }
                { for ChartKind::ALL.iter().filter(|k| props.charts && k.applies(&props.snapshot)).map(|&kind| {
                    let save = |format: ImageFormat| {
                        let (snapshot, marks, load) = (props.snapshot.clone(), props.marks.clone(), props.load);
                        let (base, status) = (format!("{}-{}", props.name, kind.id()), status.clone());
                        Callback::from(move |_: MouseEvent| {
                            let chart = chart::chart(kind, &snapshot, &marks, load);
                            report(&status, export::save_chart(&chart, export::export_size(kind.id()), &base, format));
                        })
                    };
                    let id = kind.id();
                    html! {
                        <span class="export-group" role="group" aria-label={chart_name(kind, &props.snapshot)}>
                            <span>{ chart_name(kind, &props.snapshot) }</span>
                            <button type="button" id={format!("export-{id}")} onclick={save(ImageFormat::Png)}
                                title="PNG at twice the size on the page">{ "PNG" }</button>
                            <button type="button" id={format!("export-{id}-svg")} onclick={save(ImageFormat::Svg)}>{ "SVG" }</button>
                        </span>
                    }
                }) }
            </div>
            <p class="status" role="status">{ (*status).clone() }</p>
        </section>
    }
}

/// What the preset's title and summary no longer describe, once the scenario or the lanes
/// were changed: the values that differ from the preset's, by their field names, and the
/// lanes if they are not the preset's. `None` while the header is true. (A new seed, horizon
/// or grid leaves the description true.)
pub fn edited_note(setup: &Setup) -> Option<String> {
    let keys = setup.scenario.keys();
    let label = |key: &str| keys.iter().find(|k| k.key == key).map_or(key.to_string(), |k| k.label.to_string());
    let mut changes: Vec<String> = setup
        .scenario
        .overrides_from(&setup.preset.scenario)
        .into_iter()
        .filter(|(key, _)| !["seed", "horizon", "warmup", "sample_every"].contains(key))
        .map(|(key, value)| format!("{} = {value}", label(key)))
        .collect();
    let preset_lanes = crate::state::preset_setup(setup.preset.id).map(|s| s.policies).unwrap_or_default();
    if setup.policies != preset_lanes {
        let names: Vec<String> = setup.policies.iter().map(|p| setup.scenario.policy_label(p)).collect();
        changes.push(format!("lanes {}", names.join(", ")));
    }
    (!changes.is_empty()).then(|| {
        format!(
            "Edited: {}. The summary above and \"What am I looking at?\" describe the preset's own values: \
             \"Preset values\" restores them, choosing the preset again its lanes too.",
            changes.join(" · ")
        )
    })
}

/// What a model's light colours stand for.
fn class_word(model: &str) -> &'static str {
    match model {
        "pgrr" => "virtual queue or size class",
        "msfq" => "job class",
        "ghra" | "pgas" => "VM type",
        _ => "class",
    }
}

fn chart_name(kind: ChartKind, snapshot: &Snapshot) -> String {
    let job_time = snapshot.job_time().map_or("", |t| t.name);
    match kind {
        ChartKind::Queue => "Queue chart".into(),
        ChartKind::Occupancy => "Occupancy chart".into(),
        ChartKind::Bins => "Bins chart".into(),
        ChartKind::JobTime => format!("Mean {job_time} chart"),
        ChartKind::ClassJobTime => format!("Per-class {job_time} chart"),
        ChartKind::Reward => "Reward chart".into(),
    }
}

#[derive(Properties, PartialEq)]
struct KeyboardHelpProps {
    on_close: Callback<()>,
}

/// Every shortcut of the page, over it; `?` or the button opens it, Escape or Close shuts it.
#[component]
fn KeyboardHelp(props: &KeyboardHelpProps) -> Html {
    let close = props.on_close.reform(|_: MouseEvent| ());
    let button = use_node_ref();
    {
        // The dialog takes the focus, so Escape and Tab act in it.
        let button = button.clone();
        use_effect_with((), move |()| {
            if let Some(b) = button.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    html! {
        <div class="overlay" id="keyboard-help" role="dialog" aria-modal="true" aria-labelledby="keyboard-help-title">
            <div class="dialog">
                <h2 id="keyboard-help-title">{ "Keyboard shortcuts" }</h2>
                <table>
                    <tbody>
                        { for SHORTCUTS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
                <p class="hint">{ "Space and the arrow act unless a text field or a menu has the focus." }</p>
                <button type="button" ref={button} id="keyboard-help-close" class="primary" onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}

/// The page's shortcuts, as the help lists them.
pub const SHORTCUTS: [(&str, &str); 6] = [
    ("Space", "play or pause"),
    ("→", "step: one slot, or one event in continuous time (an arrival, a departure, a clock tick)"),
    ("←", "step back: one slot, or to the event before; drag the timeline to go further back"),
    ("?", "this list"),
    ("Escape", "close this list"),
    ("Tab", "from the top: Skip to Play, then the controls in order"),
];

/// Space plays and pauses, the right arrow steps, unless a form field has the focus.
///
/// The listener is installed once, but a scenario change starts a new race with new
/// callbacks: the listener reads the current ones from a cell every render refreshes (it
/// used to keep the first race's, so the keys stopped working after any change).
/// `?` opens the list of shortcuts (`help` gets `None` to toggle, `Some(false)` to close), and
/// Escape closes it.
#[hook]
fn use_keyboard(
    toggle: Callback<()>,
    step: Callback<()>,
    back: Callback<()>,
    help: Callback<Option<bool>>,
    present: Callback<()>,
) {
    let current = use_mut_ref(|| (toggle.clone(), step.clone(), back.clone(), help.clone(), present.clone()));
    *current.borrow_mut() = (toggle, step, back, help, present);
    use_effect_with((), move |()| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            // Not passive: space must not also scroll the page.
            let options = EventListenerOptions::enable_prevent_default();
            EventListener::new_with_options(&document, "keydown", options, move |event| {
                let Some(event) = event.dyn_ref::<KeyboardEvent>() else { return };
                if event.ctrl_key() || event.meta_key() || event.alt_key() {
                    return;
                }
                let focus = focused_tag(event);
                let typing = matches!(focus.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
                // A focused button or summary already acts on space itself.
                let clicking = matches!(focus.as_str(), "BUTTON" | "SUMMARY");
                // Cloned out of the cell: emitting may render, which refreshes the cell.
                let (toggle, step, back, help, present) = current.borrow().clone();
                match event.key().as_str() {
                    "p" | "P" if !typing => {
                        event.prevent_default();
                        present.emit(());
                    }
                    "?" if !typing => {
                        event.prevent_default();
                        help.emit(None);
                    }
                    "Escape" => help.emit(Some(false)),
                    " " if !typing && !clicking => {
                        event.prevent_default();
                        toggle.emit(());
                    }
                    "ArrowRight" if !typing => {
                        event.prevent_default();
                        step.emit(());
                    }
                    "ArrowLeft" if !typing => {
                        event.prevent_default();
                        back.emit(());
                    }
                    _ => {}
                }
            })
        });
        move || drop(listener)
    });
}

/// The tag of the element the key went to.
fn focused_tag(event: &KeyboardEvent) -> String {
    event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.tag_name()).unwrap_or_default()
}

/// Moves the keyboard focus to the Play button (the skip link's target), without touching the
/// address, which holds the scenario.
fn focus_play(event: MouseEvent) {
    event.prevent_default();
    let play = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("play"));
    if let Some(play) = play.and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = play.focus();
    }
}

/// Whether the system asks for dark colours, following its changes while the page is open.
#[hook]
fn use_system_dark() -> bool {
    let query =
        use_memo((), |()| web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten()));
    let dark = use_state(|| query.as_ref().as_ref().is_some_and(|m| m.matches()));
    {
        let dark = dark.clone();
        use_effect_with((), move |()| {
            let listener = query.as_ref().as_ref().map(|m| {
                let list = m.clone();
                EventListener::new(m, "change", move |_| dark.set(list.matches()))
            });
            move || drop(listener)
        });
    }
    *dark
}

/// `P`: presenter mode on or off, full screen with it where the browser allows (a key press
/// lets a page ask for it).
fn present_toggle(dispatch: &Callback<Action>, presenting: bool) -> Callback<()> {
    let dispatch = dispatch.clone();
    Callback::from(move |()| {
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            if presenting {
                if document.fullscreen_element().is_some() {
                    document.exit_fullscreen();
                }
            } else if let Some(root) = document.document_element() {
                // Refused outside a user gesture or in an iframe without allowfullscreen:
                // presenter mode works in the window all the same.
                let _ = root.request_fullscreen();
            }
        }
        dispatch.emit(Action::TogglePresent);
    })
}
