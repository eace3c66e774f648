//! The workbench, the full page's lab: the preset's explanation, the scenario form, and the
//! race (playback, stats, each policy's cluster, the event log, the charts, the sweep) with the
//! link and exports below.

use std::rc::Rc;

use packlab_core::link::run_command;
use packlab_core::scenario::Setup;
use yew::prelude::*;

use crate::cluster::layout::Hit;
use crate::components::announcer::Announcer;
use crate::components::charts::Charts;
use crate::components::event_log::{EventLog, Inspect};
use crate::components::form::ScenarioControls;
use crate::components::keyboard_help::KeyboardHelp;
use crate::components::lanes::Lanes;
use crate::components::playback::Playback;
use crate::components::record::Record;
use crate::components::recovery_table::RecoveryTable;
use crate::components::share::ShareAndExport;
use crate::components::stability_view::StabilityView;
use crate::components::stats_table::StatsTable;
use crate::components::sweep_view::SweepView;
use crate::components::theory_view::TheoryView;
use crate::components::tour_panel::{TourPanel, TourSummary};
use crate::hooks::use_lab_race::{LabRace, use_lab_race, use_load_marks};
use crate::hooks::use_media::{NARROW, use_media};
use crate::hooks::use_staged::use_staged;
use crate::play::snapshot::{Phase, Shown};
use crate::state::{Action, Lab, SameLab};

#[derive(Properties, PartialEq)]
pub struct WorkbenchProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// The lab itself: explanation, controls and the race.
#[component]
pub fn Workbench(props: &WorkbenchProps) -> Html {
    let lab = &props.lab;
    let setup = lab.setup.clone();
    // The race is made after the first frame (`use_race`), in a task of its own.
    let LabRace { race, text, reduced_motion, help, toggle_help, theme, intent, seeking } =
        use_lab_race(lab, &props.dispatch, true);
    let snapshot = &race.snapshot;
    let form_dispatch = crate::hooks::use_live_knobs::use_live_knobs(lab, &props.dispatch, &race.frames);
    let changes = use_memo(setup.clone(), |s| s.scenario.any().window().changes.iter().cloned().collect::<Rc<[_]>>());
    let change_marks = use_memo(setup.clone(), |s| crate::charts::live::change_marks(s));
    // The form shows the values in force at the moment on screen: those of the last change at
    // or before the moment a knob moved now would change (so it renders again only when the
    // race crosses a change).
    let open = snapshot.model.time.open_moment(snapshot.now);
    let in_force_at = changes.iter().rev().map(|c| c.at).find(|&at| at <= open).unwrap_or(0);
    let narrow = use_media(NARROW);
    // The first screen in four (the preset's words; the tour's step and Play; once the race
    // is made, the stats; the lanes), then the theory's marks and the offered load worked
    // out, then the event log and the charts, then the sweep and the map, then the exports,
    // then the scenario's form, each render a task of its own (`use_staged`: one render of it
    // all blocked a phone for 0.4 s). The first picture stays until the first screen is whole:
    // the app renders out of sight until then, so nothing shifts as its parts arrive.
    let drawn = use_staged("stage", 9, 3, race.started);
    use_effect_with(drawn >= 4, |&whole| {
        if whole {
            crate::dom::boot::first_picture_done();
        }
    });
    // An app started in place of the first download (which loaded the script engine for a
    // scripted lane or an exercise) gives the focus back once the form with the lane's editor
    // button is drawn: earlier, the control it names is not there yet.
    use_effect_with(drawn >= 9, |&whole| {
        if whole {
            crate::dom::boot::take_resumed_focus();
        }
    });
    let preset = &setup.preset;
    let marks = use_load_marks(&setup, drawn >= 5);
    // The offered fraction of the capacity, drawn on the occupancy chart (once per scenario:
    // for a trace it goes over every task), from the fifth stage on like the marks.
    let load = *use_memo((setup.clone(), drawn >= 5), |(s, wanted)| match wanted {
        true => s.scenario.offered_utilization(),
        false => 0.0,
    });
    let name = format!("packlab-{}", preset.id);
    // A scenario that is the theory's alone (PG-AS's random collections): its graphs in place
    // of a race.
    let theory_only = setup.scenario.any().theory_only();
    // During a tour, its step says what is on screen, and its summary after it.
    let written = use_memo(SameLab(lab.clone()), |SameLab(lab)| Written::of(lab));
    let edited = written.edited.clone();
    // The stability map once done, for a tour step about it.
    let finished_map = use_state_eq(|| None::<Rc<packlab_core::stability::Finder>>);
    // A new tour step restarts the race because the step set a new scenario, not because the
    // person changed one: no "the scenario changed" banner for it.
    let step_shown = use_mut_ref(|| lab.tour);
    let stepped = std::mem::replace(&mut *step_shown.borrow_mut(), lab.tour) != lab.tour;
    // Whether the step's run was played: a step about the map runs the map only then, so that
    // its intervals do not answer the question before the prediction.
    let played = use_mut_ref(|| false);
    if stepped {
        *played.borrow_mut() = false;
    }
    if snapshot.phase == Phase::Running {
        *played.borrow_mut() = true;
    }
    // While a tour's question waits for the run's answer (the race's end, or the map's for a
    // step about the map), whatever names the answer waits too: the preset's title, summary and
    // explanation, the preset menu's titles, the load slider's marks, the theory's marks
    // (main[data-asking]) and the map's intervals.
    let answered = |at: &crate::state::TourAt| match at.step().check.reads_map() {
        true => finished_map.is_some(),
        false => snapshot.phase == Phase::Finished,
    };
    let asking = lab.tour.filter(|at| at.step().question.is_some() && !answered(at));
    let map_held = asking.is_some_and(|at| at.step().check.reads_map()) && !*played.borrow();
    let quiet_note = use_mut_ref(|| None::<Rc<str>>);
    if stepped {
        *quiet_note.borrow_mut() = race.restarted.clone();
    }
    let restarted = race.restarted.clone().filter(|note| {
        lab.tour.is_none() || !quiet_note.borrow().as_ref().is_some_and(|quiet| Rc::ptr_eq(quiet, note))
    });
    // What the Record control or the stability map last asked the status line to say.
    let announcement = use_state(|| None::<Rc<str>>);
    let on_announcement = {
        let announcement = announcement.clone();
        use_callback((), move |said: String, _| announcement.set(Some(Rc::from(said))))
    };
    let inspect = use_state(Inspect::default);
    let on_map_done = {
        let finished_map = finished_map.clone();
        Callback::from(move |map| finished_map.set(map))
    };
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
    let logged = Shown(logged.borrow().clone());
    // After going back, the link to share is the moment on screen (`t=`): the run so far
    // reaches further, and a link without `t` would open at its start.
    let rewound = !playing && snapshot.now < snapshot.furthest;
    let share_query = if rewound { lab.query_at(Some(snapshot.now)) } else { written.query.clone() };
    // A click on a lane is about the frame on screen, which may be newer than this render.
    let on_hit = {
        let (inspect, frames) = (inspect.clone(), race.frames.clone());
        Callback::from(move |(lane, hit): (usize, Hit)| inspect.set(Inspect::after_hit(&frames.latest(), lane, hit)))
    };
    html! {
        <main class="lab" data-highlight={lab.tour.map(|at| at.step().highlight)} data-race-thread={race.thread}
            data-asking={asking.is_some().then_some("1")} data-drawing={(drawn < 9).then_some("1")}>
            if *help {
                <KeyboardHelp on_close={toggle_help.reform(|_| Some(false))} />
            }

            <section class="intro" aria-labelledby="preset-title">
                if let Some(at) = asking {
                    <p class="figure">{ format!("Tour · {}", at.tour.paper) }</p>
                    <h1 id="preset-title" tabindex="-1">{ at.tour.title }</h1>
                    <p class="summary">{ "The preset's name and summary show once the run has answered the question." }</p>
                } else {
                    <p class="figure">{ preset.figure }</p>
                    <h1 id="preset-title" tabindex="-1">{ preset.title }</h1>
                    <p class={classes!("summary", edited.is_some().then_some("stale"))}>{ preset.summary }</p>
                }
                if let Some(edited) = edited {
                    <p id="edited" class="edited" role="status">{ edited }</p>
                }
                if lab.present {
                    <p class="present-cues" id="present-cues">
                        <kbd>{ "Space" }</kbd>{ " play or pause · " }<kbd>{ "←" }</kbd>{ " " }<kbd>{ "→" }</kbd>{ " step · " }
                        <kbd>{ "P" }</kbd>{ " leave presenter mode · " }<kbd>{ "?" }</kbd>{ " keys" }
                    </p>
                }
                if asking.is_none() {
                    <details class="explain">
                        <summary>{ "What am I looking at?" }</summary>
                        <p>{ preset.explanation }</p>
                        <p>{ setup.scenario.any().how_to_read() }</p>
                    </details>
                }
            </section>
            <section class="run" aria-label="Live simulation">
                if theory_only {
                    <TheoryView scenario={Rc::new(setup.scenario.clone())} name={name.clone()} />
                } else if drawn >= 2 {
                    if let Some((tour, predictions)) = &lab.finished_tour {
                        <TourSummary tour={*tour} predictions={predictions.clone()} dispatch={props.dispatch.clone()} />
                    }
                    if let Some(at) = lab.tour {
                        <TourPanel key={format!("{}-{}", at.tour.id, at.step)} {at} snapshot={snapshot.clone()}
                            scenario={Rc::new(setup.scenario.clone())}
                            dispatch={props.dispatch.clone()} on_play={race.toggle.clone()}
                            map={(*finished_map).clone()} attempt={lab.attempt.clone()} />
                    }
                    <Playback snapshot={text.clone()} speed={lab.speed} dispatch={props.dispatch.clone()}
                        on_toggle={race.toggle.clone()} on_step={race.step.clone()} on_back={race.back.clone()}
                        on_seek={race.seek.clone()} query={written.from_start.clone()} on_restart={race.restart.clone()}
                        on_help={toggle_help.reform(|()| Some(true))} {seeking} changes={(*changes).clone()} />
                    <Record query={share_query.clone()} on_announce={on_announcement.clone()} />
                    <Announcer snapshot={snapshot.clone()} intent={intent.clone()} note={(*announcement).clone()} />
                    if let Some(note) = &restarted {
                        <p id="restarted" class="hint restarted" role="status">{ note.to_string() }</p>
                    }
                    if let Some(note) = &lab.live_note {
                        <p id="live-change" class="hint" role="status">{ note.to_string() }</p>
                    }
                    if let Some(message) = snapshot.error() {
                        <p class="error" role="alert">{ message.to_string() }</p>
                    }
                    if drawn >= 3 {
                        <StatsTable lanes={text.lanes.clone()} warmup={snapshot.warmup}
                            unit={snapshot.model.time.plural()} job_time={snapshot.job_time()}
                            queues={snapshot.queues()} rewards={snapshot.model.reward} reward={snapshot.reward} />
                        <RecoveryTable lanes={text.lanes.clone()} />
                        <p class="hint colour-key">
                            { "Colours: each policy has its own, on its lane's top edge and its lines (solid); \
                               jobs, bins and their lines take light colours outlined in grey, one per " }
                            { snapshot.model.classes }{ "." }
                        </p>
                    }
                    if drawn >= 4 {
                        <Lanes frames={race.frames.clone()} text={text.clone()} {reduced_motion} on_hit={Some(on_hit)} />
                    }
                    if drawn >= 6 {
                        <EventLog snapshot={logged} {playing} inspect={*inspect} {on_inspect}
                            link={written.query.clone()} name={name.clone()} />
                        <div class="charts">
                            <Charts frames={race.frames.clone()} marks={marks.clone()} {load}
                                on_focus={race.focus.clone()} {reduced_motion} {theme}
                                changes={change_marks.clone()} />
                            <TheoryView scenario={Rc::new(setup.scenario.clone())} name={name.clone()} />
                        </div>
                    }
                    if drawn >= 7 {
                        <SweepView setup={setup.clone()} query={written.query.clone()} name={name.clone()} {theme} />
                        <StabilityView setup={setup.clone()} map={lab.map.clone()} dispatch={props.dispatch.clone()}
                            {theme} on_done={on_map_done} on_announce={on_announcement.clone()} held={map_held} />
                    }
                }
                if drawn >= 8 {
                    <ShareAndExport snapshot={snapshot.clone()} frames={race.frames.clone()} query={share_query} {name} charts={!theory_only}
                        seed={setup.scenario.seed()} marks={marks.clone()} {load} changes={change_marks.clone()}
                        command={written.command.clone()}
                        traced={setup.scenario.any().replaying()} />
                }
            </section>
            // After the run in the page's order (Play is the first control a Tab reaches), though
            // the layout draws it on the left.
            // On a phone the scenario's controls fold away under the run, opened when asked for
            // (the preset picker stays in the header); a wide screen shows them beside it.
            <aside class="controls" aria-label="Scenario">
                <details class="scenario-sheet" open={!narrow}>
                    <summary>{ "Change the scenario" }</summary>
                    if drawn >= 9 {
                        <ScenarioControls lab={lab.clone()} dispatch={form_dispatch} marks={marks.clone()} {in_force_at}
                            asking={asking.is_some()} />
                    }
                </details>
            </aside>
        </main>
    }
}

/// What the workbench writes out of the lab alone, once per state of the lab rather than in
/// every frame of a playing race.
struct Written {
    /// The lab's link ([`Lab::query`]).
    query: String,
    /// Its link from time 0, to which "Link to this moment" adds the time.
    from_start: String,
    /// The command line that runs the same scenario.
    command: String,
    /// What the preset's description no longer says ([`edited_note`]); none during a tour.
    edited: Option<String>,
}

impl Written {
    fn of(lab: &Lab) -> Self {
        let setup = &lab.setup;
        Self {
            query: lab.query(),
            from_start: lab.query_at(None),
            command: run_command(&setup.preset, &setup.policies, &setup.scenario),
            edited: if lab.tour.is_some() || lab.finished_tour.is_some() { None } else { edited_note(setup) },
        }
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
