//! The stability map view: where each policy stops being stable, as an interval of the load
//! per value of a second axis, next to the capacity and each policy's proven fraction of it.
//! The map is the core's ([`Finder`]: its rounds, the test's verdicts, the intervals, the
//! chart, the warnings); this view runs each round's runs in the page's Web Workers
//! ([`WorkerPool`]), draws, and links every tested load to the lab at that scenario and load.
//!
//! It refines progressively: the first round tests four loads per policy (a coarse frontier,
//! drawn as soon as it is in), and each round after halves every interval until it is within
//! 2%. The lab's link holds the map (`map=R`, `map_axis=KEY:V1,…`), so the link reproduces it
//! and `packlab stability --link … --reps R` computes the same intervals.

use std::cell::RefCell;
use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::model::table::sig;
use packlab_core::scenario::Setup;
use packlab_core::stability::{
    COVERAGE_RULE, Finder, MAP_MAX_REPS, MapSpec, Status, Verdict, below_proven, not_proven, probed,
};
use yew::prelude::*;

use crate::components::map_chart::{MapChart, point_label};
use crate::dom::page::{current_link, value_of};
use crate::dom::workers::now_ms;
use crate::state::Action;
use crate::sweep::plan::scenario_link;
use crate::sweep::pool::{WorkerPool, on_workers, worker_count};
use crate::sweep::stability::MapRound;
use crate::trace_file;

#[derive(Properties, PartialEq)]
pub struct StabilityViewProps {
    pub setup: Rc<Setup>,
    /// The map the link holds (`None`: closed).
    pub map: Option<MapSpec>,
    pub dispatch: Callback<Action>,
    #[prop_or_default]
    pub theme: packlab_plot::Theme,
    /// Told the finished map (for a tour step about it), and `None` when a new map starts.
    #[prop_or_default]
    pub on_done: Callback<Option<Rc<Finder>>>,
    /// Says what the map did (started, first picture, done, stopped) in the page's live region.
    #[prop_or_default]
    pub on_announce: Callback<String>,
    /// A tour step's map waits for its run to be played: drawn before the prediction, its
    /// intervals would answer the step's question.
    #[prop_or_default]
    pub held: bool,
}

/// Why a map ended before its last round.
#[derive(Debug, Clone, PartialEq)]
enum Ended {
    /// The Stop button, after this many rounds and runs.
    Stopped { rounds: usize, runs: usize },
    /// A worker failed, or a round could not be made.
    Failed(String),
}

impl Ended {
    fn message(&self) -> String {
        match self {
            Ended::Stopped { rounds, runs } => format!(
                "The map was stopped by you after {rounds} round{} ({runs} runs): the intervals below are those \
                 found so far. Map it runs the map again from the start.",
                if *rounds == 1 { "" } else { "s" }
            ),
            Ended::Failed(e) => format!("The map stopped because a run failed: {e}"),
        }
    }
}

/// What a finished map says: done, or done at the run budget with the cells it cut short.
fn done_message(run: &MapRun) -> String {
    let finder = &run.finder;
    let seconds = run.done_ms.map_or(0.0, |d| (d - run.started_ms) / 1000.0);
    let cut = finder.cells.iter().filter(|c| c.status == Status::Budget).count();
    if cut > 0 {
        return format!(
            "The map reached its run budget of {} runs after {} rounds ({seconds:.1} s): {cut} interval{} stopped \
             short of 2%.",
            finder.options.max_runs,
            finder.rounds,
            if cut == 1 { "" } else { "s" }
        );
    }
    let labels = finder.labels();
    let intervals: Vec<String> = finder
        .cells
        .iter()
        .map(|c| {
            let end = |t: Option<packlab_core::stability::Tested>| t.map_or("–".to_string(), |t| sig(t.load));
            format!("{} [{}, {}]", labels[c.policy], end(c.lo), end(c.hi))
        })
        .collect();
    format!("The stability map is done after {} rounds ({seconds:.1} s): {}.", finder.rounds, intervals.join("; "))
}

/// A map under way: the finder, the workers running its current round, and its times.
struct MapRun {
    finder: Finder,
    /// Kept once the map is done (its workers idle) rather than dropped from inside their own
    /// message handler; dropped with the map.
    pool: Option<WorkerPool<MapRound>>,
    workers: usize,
    started_ms: f64,
    /// When the first round's intervals were in: the first picture.
    first_ms: Option<f64>,
    done_ms: Option<f64>,
    ended: Option<Ended>,
}

type Shared = Rc<RefCell<Option<MapRun>>>;

/// What a worker's answer moved: the finished map, and a sentence for the live region.
#[derive(Default)]
struct Advanced {
    done: Option<Rc<Finder>>,
    said: Option<String>,
}

/// After a worker's answer: once the round is complete, the finder takes it in and the
/// workers get the next round, until none is left; then the finished map.
fn advance(shared: &Shared) -> Advanced {
    let mut guard = shared.borrow_mut();
    let mut out = Advanced::default();
    let Some(run) = guard.as_mut() else { return out };
    let Some(pool) = run.pool.as_ref() else { return out };
    let (round, growths, error) = {
        let p = pool.progress.borrow();
        let growths: Option<Vec<_>> = p.results.iter().cloned().collect();
        (p.jobs.0.clone(), growths, p.error.clone())
    };
    if run.ended.is_some() || run.done_ms.is_some() {
        return out;
    }
    if let Some(e) = error {
        let ended = Ended::Failed(e);
        out.said = Some(ended.message());
        run.ended = Some(ended);
        return out;
    }
    let Some(growths) = growths else { return out };
    run.finder.absorb(&round, &growths);
    if run.first_ms.is_none() {
        let first = now_ms();
        run.first_ms = Some(first);
        out.said = Some(format!(
            "The map's first picture is in after {:.1} s; its intervals are being narrowed.",
            (first - run.started_ms) / 1000.0
        ));
    }
    match run.finder.next_round() {
        Ok(Some(next)) => pool.run(MapRound(next)),
        Ok(None) => {
            run.done_ms = Some(now_ms());
            out.said = Some(done_message(run));
            out.done = Some(Rc::new(run.finder.clone()));
        }
        Err(e) => {
            let ended = Ended::Failed(e.to_string());
            out.said = Some(ended.message());
            run.ended = Some(ended);
        }
    }
    out
}

/// Starts the map `spec` of `setup`: the finder and its first round in the workers.
fn start(setup: &Setup, spec: &MapSpec, shared: &Shared, changed: Callback<()>) -> Result<(), ConfigError> {
    let mut finder = spec.finder(setup)?;
    let round = finder.next_round()?;
    let started_ms = now_ms();
    let mut run = MapRun { finder, pool: None, workers: 0, started_ms, first_ms: None, done_ms: None, ended: None };
    match round {
        None => run.done_ms = Some(started_ms),
        Some(round) => {
            run.workers = worker_count(round.len());
            match WorkerPool::start(MapRound(round), setup, run.workers, changed) {
                Ok(pool) => run.pool = Some(pool),
                Err(e) => run.ended = Some(Ended::Failed(e)),
            }
        }
    }
    *shared.borrow_mut() = Some(run);
    Ok(())
}

/// The stability map of a preset whose jobs wait; nothing for the others.
#[component]
pub fn StabilityView(props: &StabilityViewProps) -> Html {
    let setup = &props.setup;
    let shared: Shared = use_mut_ref(|| None);
    let redraw = use_force_update();
    let spec = props.map.clone().unwrap_or_default();
    let reps = use_state(|| spec.reps.to_string());
    let axis = use_state(|| spec.axis.as_ref().map_or(String::new(), |(k, v)| format!("{k}:{v}")));
    let form_error = use_state(|| None::<ConfigError>);
    let start_error = use_state(|| None::<ConfigError>);
    {
        // The map follows the link: a new scenario, new lanes or a new map starts it again.
        let (shared, setup, redraw, on_done) = (shared.clone(), setup.clone(), redraw.clone(), props.on_done.clone());
        let announce = props.on_announce.clone();
        let (reps, axis, start_error) = (reps.clone(), axis.clone(), start_error.clone());
        let held = props.held;
        use_effect_with((scenario_link(setup.as_ref()), props.map.clone(), held), move |(_, map, held)| {
            shared.borrow_mut().take();
            start_error.set(None);
            on_done.emit(None);
            if let Some(spec) = map.as_ref().filter(|_| !held) {
                reps.set(spec.reps.to_string());
                axis.set(spec.axis.as_ref().map_or(String::new(), |(k, v)| format!("{k}:{v}")));
                let again = {
                    let (shared, redraw, on_done, announce) =
                        (shared.clone(), redraw.clone(), on_done.clone(), announce.clone());
                    Callback::from(move |()| {
                        // Told once the map is borrowed no more: the listener may render at once.
                        let advanced = advance(&shared);
                        if let Some(said) = advanced.said {
                            announce.emit(said);
                        }
                        if let Some(map) = advanced.done {
                            on_done.emit(Some(map));
                        }
                        redraw.force_update();
                    })
                };
                match start(&setup, spec, &shared, again) {
                    Err(e) => start_error.set(Some(e)),
                    Ok(()) => {
                        let state = shared.borrow();
                        let said = state.as_ref().map(|run| match &run.ended {
                            Some(ended) => ended.message(),
                            None => format!(
                                "Mapping where each policy stops being stable: round 1 runs in {} worker{}.",
                                run.workers,
                                if run.workers == 1 { "" } else { "s" }
                            ),
                        });
                        drop(state);
                        if let Some(said) = said {
                            announce.emit(said);
                        }
                    }
                }
            }
            redraw.force_update();
        });
    }
    if !setup.scenario.info().queue {
        return html! {};
    }
    let title = "Stability map: where each policy stops being stable";
    let run_map = {
        let (reps, axis, form_error, dispatch) =
            (reps.clone(), axis.clone(), form_error.clone(), props.dispatch.clone());
        Callback::from(move |_: MouseEvent| {
            let spec = MapSpec::parse_reps(&reps, "map replications")
                .and_then(|reps| Ok(MapSpec { reps, axis: MapSpec::parse_axis(&axis, "map axis")? }));
            match spec {
                Ok(spec) => {
                    form_error.set(None);
                    dispatch.emit(Action::SetMap(Some(spec)));
                }
                Err(e) => form_error.set(Some(e)),
            }
        })
    };
    let stop = {
        let (shared, redraw, announce) = (shared.clone(), redraw.clone(), props.on_announce.clone());
        Callback::from(move |_: MouseEvent| {
            let said = shared.borrow_mut().as_mut().and_then(|run| {
                run.pool = None;
                if run.ended.is_some() || run.done_ms.is_some() {
                    return None;
                }
                let ended = Ended::Stopped { rounds: run.finder.rounds, runs: run.finder.runs };
                let said = ended.message();
                run.ended = Some(ended);
                Some(said)
            });
            if let Some(said) = said {
                announce.emit(said);
            }
            redraw.force_update();
        })
    };
    let close = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::SetMap(None)))
    };
    let state = shared.borrow();
    let running = state.as_ref().is_some_and(|r| r.pool.is_some() && r.done_ms.is_none() && r.ended.is_none());
    let body = state.as_ref().map(|run| map_body(run, props.theme));
    drop(state);
    let command = props
        .map
        .as_ref()
        .map(|spec| format!("{}{}", spec.command(&current_link(&scenario_link(setup))), trace_file::trace_flag(setup)));
    let field = |e: &Option<ConfigError>| {
        e.as_ref().map(|e| html! { <p class="field-error" id="map-error" role="alert">{ e.to_string() }</p> })
    };
    html! {
        <details class="stability" id="stability-map" open={props.map.is_some()}>
            <summary>{ title }</summary>
            <p class="hint">
                { "For each policy, the largest load at which its queue stays put, as an interval [lo, hi]: judged \
                   stable at lo, not stable at hi, by how fast the queue grows over replications. Computed in Web \
                   Workers at this page's scenario and lanes, round after round: the first round tests four loads \
                   per policy (a coarse frontier), each later one halves every interval, down to 2%. Dashed: the \
                   capacity and each policy's proven load. Each tested load opens the lab there: click it on the chart, or follow its link in the table." }
            </p>
            <div class="sweep-form">
                <label class="field">
                    <span>{ format!("Replications per load (2 to {MAP_MAX_REPS})") }</span>
                    <input id="map-reps" inputmode="numeric" value={(*reps).clone()}
                        onchange={let reps = reps.clone(); Callback::from(move |e: Event| reps.set(value_of(&e)))} />
                </label>
                <label class="field">
                    <span>{ "Second axis, KEY:V1,V2,… (empty: this scenario)" }</span>
                    <input id="map-axis" placeholder="servers:1,2,4" value={(*axis).clone()}
                        onchange={let axis = axis.clone(); Callback::from(move |e: Event| axis.set(value_of(&e)))} />
                </label>
                <p class="actions">
                    <button type="button" id="map-run" class="primary" onclick={run_map} disabled={running || props.held}
                        aria-describedby={props.held.then_some("map-held")}>{ "Map it" }</button>
                    <button type="button" id="map-stop" onclick={stop} disabled={!running}>{ "Stop" }</button>
                    if props.map.is_some() {
                        <button type="button" id="map-close" onclick={close}>{ "Close the map" }</button>
                    }
                </p>
            </div>
            { field(&form_error) }
            { field(&start_error) }
            if props.held && props.map.is_some() {
                <p class="hint" id="map-held">{ "The map runs when this step plays: make your prediction, then play." }</p>
            }
            { body.unwrap_or_default() }
            if let Some(command) = command {
                <p class="hint">{ "The same map in the command line: " }<code id="map-command">{ command }</code></p>
            }
        </details>
    }
}

/// The map so far: its status, warnings, chart and table.
fn map_body(run: &MapRun, theme: packlab_plot::Theme) -> Html {
    let finder = &run.finder;
    let now = now_ms();
    let seconds = |at: f64| (at - run.started_ms) / 1000.0;
    let on_workers = match &run.pool {
        Some(pool) if run.done_ms.is_none() && run.ended.is_none() => pool.on_workers(),
        _ => on_workers(run.workers),
    };
    let mut status = format!(
        "Round {}: {} runs in {:.1} s {on_workers}",
        finder.rounds,
        finder.runs,
        seconds(run.done_ms.unwrap_or(now)),
    );
    if let Some(first) = run.first_ms {
        status += &format!("; first picture after {:.1} s", seconds(first));
    }
    if run.done_ms.is_some() {
        status += ": done";
    }
    let warnings = below_proven(finder);
    // The theorems' fractions drawn apart, with the hypotheses that fail here.
    let unproven = not_proven(finder);
    let done = run.done_ms.is_some() && run.ended.is_none();
    // How the map ended, when it did not simply narrow every interval.
    let ended = match &run.ended {
        Some(ended) => Some((ended.message(), matches!(ended, Ended::Failed(_)))),
        None if done && finder.cells.iter().any(|c| c.status == Status::Budget) => Some((done_message(run), false)),
        None => None,
    };
    html! {
        <div class="map-body" id="map-body" data-done={done.to_string()} data-rounds={finder.rounds.to_string()}
            data-first-ms={run.first_ms.map(|f| format!("{:.0}", f - run.started_ms)).unwrap_or_default()}
            data-done-ms={run.done_ms.map(|f| format!("{:.0}", f - run.started_ms)).unwrap_or_default()}>
            <p class="status" id="map-status" role="status"
                data-at-a-time={run.pool.as_ref().map(|pool| pool.at_a_time().to_string())}>{ status }</p>
            // Said in the page's live region as it happens; shown here for whoever looks.
            if let Some((message, failed)) = ended {
                <p class={if failed { "field-error" } else { "hint" }} id="map-stopped">{ message }</p>
            }
            if !warnings.is_empty() {
                // The alert on a wrapper: a list keeps its list role (axe: an <li> needs a list).
                <div id="map-below-proven" role="alert">
                    <ul class="map-warnings">
                        { for warnings.iter().map(|w| html! { <li>{ format!("Below a proven boundary: {w}") }</li> }) }
                    </ul>
                </div>
            }
            <MapChart finder={finder.clone()} {theme} />
            if !unproven.is_empty() {
                <ul class="map-notes" id="map-not-proven">
                    { for unproven.iter().map(|n| html! { <li>{ format!("Not proven here: {n}") }</li> }) }
                </ul>
            }
            <MapTable finder={finder.clone()} />
        </div>
    }
}

fn verdict_class(verdict: Verdict) -> (&'static str, &'static str, &'static str) {
    let word = verdict.word();
    match verdict {
        Verdict::Stable => ("verdict stable", "✓", word),
        Verdict::Unstable => ("verdict unstable", "✗", word),
        Verdict::Undecided => ("verdict undecided", "?", word),
    }
}

#[derive(Properties)]
struct MapTableProps {
    finder: Finder,
}

impl PartialEq for MapTableProps {
    /// The table changes with each round.
    fn eq(&self, other: &Self) -> bool {
        self.finder.rounds == other.finder.rounds && self.finder.cells == other.finder.cells
    }
}

/// The intervals, one row per (axis value, policy), with every tested load as a link coloured
/// by its verdict: the map as text, and the way into the lab at any of its points.
#[component]
fn MapTable(props: &MapTableProps) -> Html {
    let finder = &props.finder;
    let labels = finder.labels();
    let axis_label = finder.axis.map(|key| {
        finder.setup.scenario.keys().into_iter().find(|k| k.key == key).map_or(key.to_string(), |k| k.label.to_string())
    });
    let number = |v: Option<f64>| v.map_or("–".to_string(), sig);
    let probed = probed(finder);
    html! {
        <table class="sweep-table map-table" id="map-table">
            <caption>{ "Each tested load: ✓ stable, ✗ not stable, ? undecided; follow one to watch the queue there." }</caption>
            <thead><tr>
                <th scope="col">{ "Policy" }</th>
                if let Some(label) = &axis_label { <th scope="col">{ label }</th> }
                <th scope="col" title={COVERAGE_RULE}>{ "Boundary in" }</th><th scope="col">{ "Search" }</th>
                <th scope="col">{ "Capacity" }</th><th scope="col">{ "Proven" }</th>
                <th scope="col">{ "Loads tested" }</th>
            </tr></thead>
            <tbody>
                { for finder.cells.iter().enumerate().map(|(index, c)| {
                    let (lo, hi) = (c.lo.map(|t| t.load), c.hi.map(|t| t.load));
                    // Where the test places the boundary: lo less its 0.5% resolution, up to hi.
                    let boundary = c.boundary();
                    let interval = format!(
                        "[{}, {}]{}",
                        number(boundary.map(|b| b.0)),
                        number(boundary.map(|b| b.1).filter(|h| h.is_finite())),
                        c.band().map_or(String::new(), |(a, b)| format!(", undecided in [{}, {}]", sig(a), sig(b)))
                    );
                    let status = if c.status == Status::Searching { "searching".to_string() } else { c.status.describe().to_string() };
                    html! {
                        <tr data-policy={finder.setup.policies[c.policy].to_string()} data-label={labels[c.policy].clone()}
                            data-value={finder.values[c.value].to_string()}
                            data-lo={lo.map(|v| v.to_string()).unwrap_or_default()}
                            data-hi={hi.map(|v| v.to_string()).unwrap_or_default()}
                            data-boundary-lo={boundary.map(|b| b.0.to_string()).unwrap_or_default()}
                            data-status={status.clone()}>
                            <th scope="row">{ &labels[c.policy] }</th>
                            if axis_label.is_some() { <td>{ sig(finder.values[c.value]) }</td> }
                            <td>{ interval }</td>
                            <td>{ format!("{status}, {} runs", c.runs) }</td>
                            <td>{ number(c.theory.capacity.as_ref().map(|k| k.load)) }</td>
                            if let Some((stated, why)) = c.theory.not_proven() {
                                <td class="not-proven" title={why}>{ format!("{} not proven here", sig(stated)) }</td>
                            } else {
                                <td>{ number(c.theory.proven_load()) }</td>
                            }
                            <td class="map-loads">
                                { for probed.iter().filter(|p| p.cell == index).map(|p| {
                                    let t = p.tested;
                                    let (class, mark, word) = verdict_class(t.judgement.verdict);
                                    let href = packlab_core::link::map_point(finder, c.value, t.load).map(|q| format!("?{q}")).unwrap_or_default();
                                    let label = point_label(finder, index, t.load, t.judgement.verdict);
                                    html! {
                                        <a class={class} href={href} aria-label={label.clone()} title={label}
                                            data-load={t.load.to_string()} data-verdict={word}>
                                            { format!("{} {mark}", sig(t.load)) }
                                        </a>
                                    }
                                }) }
                            </td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}
