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
use packlab_core::stability::{Finder, MAP_MAX_REPS, MapSpec, Status, Tested, Verdict, below_proven, graph};
use packlab_plot::GraphChart;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
use crate::dom::page::{current_link, value_of};
use crate::dom::workers::now_ms;
use crate::state::Action;
use crate::sweep::plan::scenario_link;
use crate::sweep::pool::{WorkerPool, worker_count};
use crate::sweep::stability::MapRound;

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
    error: Option<String>,
}

type Shared = Rc<RefCell<Option<MapRun>>>;

/// After a worker's answer: once the round is complete, the finder takes it in and the
/// workers get the next round, until none is left; then the finished map.
fn advance(shared: &Shared) -> Option<Rc<Finder>> {
    let mut guard = shared.borrow_mut();
    let run = guard.as_mut()?;
    let pool = run.pool.as_ref()?;
    let (round, growths, error) = {
        let p = pool.progress.borrow();
        let growths: Option<Vec<_>> = p.results.iter().cloned().collect();
        (p.jobs.0.clone(), growths, p.error.clone())
    };
    if let Some(e) = error {
        run.error.get_or_insert(e);
        return None;
    }
    if run.done_ms.is_some() {
        return None;
    }
    run.finder.absorb(&round, &growths?);
    run.first_ms.get_or_insert_with(now_ms);
    match run.finder.next_round() {
        Ok(Some(next)) => pool.run(MapRound(next)),
        Ok(None) => {
            run.done_ms = Some(now_ms());
            return Some(Rc::new(run.finder.clone()));
        }
        Err(e) => run.error = Some(e.to_string()),
    }
    None
}

/// Starts the map `spec` of `setup`: the finder and its first round in the workers.
fn start(setup: &Setup, spec: &MapSpec, shared: &Shared, changed: Callback<()>) -> Result<(), ConfigError> {
    let mut finder = spec.finder(setup)?;
    let round = finder.next_round()?;
    let started_ms = now_ms();
    let mut run = MapRun { finder, pool: None, workers: 0, started_ms, first_ms: None, done_ms: None, error: None };
    match round {
        None => run.done_ms = Some(started_ms),
        Some(round) => {
            run.workers = worker_count(round.len());
            match WorkerPool::start(MapRound(round), run.workers, changed) {
                Ok(pool) => run.pool = Some(pool),
                Err(e) => run.error = Some(e),
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
    let canvas = use_node_ref();
    let spec = props.map.clone().unwrap_or_default();
    let reps = use_state(|| spec.reps.to_string());
    let axis = use_state(|| spec.axis.as_ref().map_or(String::new(), |(k, v)| format!("{k}:{v}")));
    let form_error = use_state(|| None::<ConfigError>);
    let start_error = use_state(|| None::<ConfigError>);
    {
        // The map follows the link: a new scenario, new lanes or a new map starts it again.
        let (shared, setup, redraw, on_done) = (shared.clone(), setup.clone(), redraw.clone(), props.on_done.clone());
        let (reps, axis, start_error) = (reps.clone(), axis.clone(), start_error.clone());
        use_effect_with((scenario_link(setup.as_ref()), props.map.clone()), move |(_, map)| {
            shared.borrow_mut().take();
            start_error.set(None);
            on_done.emit(None);
            if let Some(spec) = map {
                reps.set(spec.reps.to_string());
                axis.set(spec.axis.as_ref().map_or(String::new(), |(k, v)| format!("{k}:{v}")));
                let again = {
                    let (shared, redraw, on_done) = (shared.clone(), redraw.clone(), on_done.clone());
                    Callback::from(move |()| {
                        // Told once the map is borrowed no more: the listener may render at once.
                        if let Some(map) = advance(&shared) {
                            on_done.emit(Some(map));
                        }
                        redraw.force_update();
                    })
                };
                if let Err(e) = start(&setup, spec, &shared, again) {
                    start_error.set(Some(e));
                }
            }
            redraw.force_update();
        });
    }
    {
        // The chart follows the rounds: the core's chart of the map, `packlab stability`'s SVG.
        let (shared, canvas, theme) = (shared.clone(), canvas.clone(), props.theme);
        use_effect(move || {
            if let (Some(run), Some(canvas)) = (shared.borrow().as_ref(), canvas.cast::<HtmlCanvasElement>()) {
                let graph = graph(&run.finder);
                let size = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
                let figure = GraphChart::new(&graph);
                let chart = packlab_plot::Chart { theme, ..figure.chart() };
                if let Err(e) = draw(&canvas, size, &chart) {
                    web_sys::console::warn_1(&e.into());
                }
            }
        });
    }
    if !setup.scenario.info().queue {
        return html! {};
    }
    let title = "Stability map: where each policy stops being stable";
    if setup.scenario.any().replaying() {
        return html! {
            <details class="stability" id="stability-map">
                <summary>{ title }</summary>
                <p class="hint">
                    { "This run replays a trace file, which the page's workers do not hold. The map from the command \
                       line: " }
                    <code>{ format!("packlab stability --link '?{}' --trace FILE…", scenario_link(setup)) }</code>
                </p>
            </details>
        };
    }
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
        let (shared, redraw) = (shared.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(run) = shared.borrow_mut().as_mut() {
                run.pool = None;
                run.error.get_or_insert_with(|| "stopped".into());
            }
            redraw.force_update();
        })
    };
    let close = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::SetMap(None)))
    };
    let state = shared.borrow();
    let running = state.as_ref().is_some_and(|r| r.pool.is_some() && r.done_ms.is_none() && r.error.is_none());
    let body = state.as_ref().map(|run| map_body(run, &canvas));
    drop(state);
    let command = props.map.as_ref().map(|spec| spec.command(&current_link(&scenario_link(setup))));
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
                   capacity and each policy's proven load. Each tested load opens the lab there." }
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
                    <button type="button" id="map-run" class="primary" onclick={run_map} disabled={running}>{ "Map it" }</button>
                    <button type="button" id="map-stop" onclick={stop} disabled={!running}>{ "Stop" }</button>
                    if props.map.is_some() {
                        <button type="button" id="map-close" onclick={close}>{ "Close the map" }</button>
                    }
                </p>
            </div>
            { field(&form_error) }
            { field(&start_error) }
            { body.unwrap_or_default() }
            if let Some(command) = command {
                <p class="hint">{ "The same map in the command line: " }<code id="map-command">{ command }</code></p>
            }
        </details>
    }
}

/// The map so far: its status, warnings, chart and table.
fn map_body(run: &MapRun, canvas: &NodeRef) -> Html {
    let finder = &run.finder;
    let now = now_ms();
    let seconds = |at: f64| (at - run.started_ms) / 1000.0;
    let mut status = format!(
        "Round {}: {} runs in {:.1} s on {} worker{}",
        finder.rounds,
        finder.runs,
        seconds(run.done_ms.unwrap_or(now)),
        run.workers,
        if run.workers == 1 { "" } else { "s" }
    );
    if let Some(first) = run.first_ms {
        status += &format!("; first picture after {:.1} s", seconds(first));
    }
    if run.done_ms.is_some() {
        status += ": done";
    }
    let chart = graph(finder);
    let warnings = below_proven(finder);
    let done = run.done_ms.is_some() && run.error.is_none();
    html! {
        <div class="map-body" id="map-body" data-done={done.to_string()} data-rounds={finder.rounds.to_string()}
            data-first-ms={run.first_ms.map(|f| format!("{:.0}", f - run.started_ms)).unwrap_or_default()}
            data-done-ms={run.done_ms.map(|f| format!("{:.0}", f - run.started_ms)).unwrap_or_default()}>
            <p class="status" id="map-status" role="status">{ status }</p>
            if let Some(e) = &run.error {
                <p class="field-error" id="map-stopped" role="alert">{ format!("The map stopped: {e}") }</p>
            }
            if !warnings.is_empty() {
                <ul class="map-warnings" id="map-below-proven" role="alert">
                    { for warnings.iter().map(|w| html! { <li>{ format!("Below a proven boundary: {w}") }</li> }) }
                </ul>
            }
            <figure class="chart">
                <canvas ref={canvas.clone()} id="chart-stability" role="img" aria-label={chart.description.clone()} />
                <figcaption>{ chart.caption.clone() }</figcaption>
            </figure>
            <MapTable finder={finder.clone()} />
        </div>
    }
}

/// The loads judged in cell `index`, by load, each load's last verdict (a longer horizon's).
fn tested_in(finder: &Finder, index: usize) -> Vec<Tested> {
    let mut tested: Vec<Tested> = Vec::new();
    for (_, t) in finder.tested.iter().filter(|(c, _)| *c == index) {
        match tested.iter_mut().find(|s| s.load == t.load) {
            Some(earlier) => *earlier = *t,
            None => tested.push(*t),
        }
    }
    tested.sort_by(|a, b| a.load.total_cmp(&b.load));
    tested
}

fn verdict_class(verdict: Verdict) -> (&'static str, &'static str, &'static str) {
    match verdict {
        Verdict::Stable => ("verdict stable", "✓", "stable"),
        Verdict::Unstable => ("verdict unstable", "✗", "unstable"),
        Verdict::Undecided => ("verdict undecided", "?", "undecided"),
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
    html! {
        <table class="sweep-table map-table" id="map-table">
            <caption>{ "Each tested load: ✓ stable, ✗ not stable, ? undecided; follow one to watch the queue there." }</caption>
            <thead><tr>
                <th scope="col">{ "Policy" }</th>
                if let Some(label) = &axis_label { <th scope="col">{ label }</th> }
                <th scope="col">{ "Interval [lo, hi]" }</th><th scope="col">{ "Search" }</th>
                <th scope="col">{ "Capacity" }</th><th scope="col">{ "Proven" }</th>
                <th scope="col">{ "Loads tested" }</th>
            </tr></thead>
            <tbody>
                { for finder.cells.iter().enumerate().map(|(index, c)| {
                    let (lo, hi) = (c.lo.map(|t| t.load), c.hi.map(|t| t.load));
                    let interval = format!("[{}, {}]{}", number(lo), number(hi),
                        if c.hi_undecided { " (hi undecided)" } else { "" });
                    let status = if c.status == Status::Searching { "searching".to_string() } else { c.status.describe().to_string() };
                    html! {
                        <tr data-policy={finder.setup.policies[c.policy].to_string()} data-label={labels[c.policy].clone()}
                            data-value={finder.values[c.value].to_string()}
                            data-lo={lo.map(|v| v.to_string()).unwrap_or_default()}
                            data-hi={hi.map(|v| v.to_string()).unwrap_or_default()}
                            data-status={status.clone()}>
                            <th scope="row">{ &labels[c.policy] }</th>
                            if axis_label.is_some() { <td>{ sig(finder.values[c.value]) }</td> }
                            <td>{ interval }</td>
                            <td>{ format!("{status}, {} runs", c.runs) }</td>
                            <td>{ number(c.theory.capacity.as_ref().map(|k| k.load)) }</td>
                            <td>{ number(c.theory.proven_load()) }</td>
                            <td class="map-loads">
                                { for tested_in(finder, index).into_iter().map(|t| {
                                    let (class, mark, word) = verdict_class(t.judgement.verdict);
                                    let href = packlab_core::link::map_point(finder, c.value, t.load).map(|q| format!("?{q}")).unwrap_or_default();
                                    let label = format!("{} at load {}: {word}; open the lab there", labels[c.policy], sig(t.load));
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
