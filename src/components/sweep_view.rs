//! The sweep view: the form (loads or server counts, replications), the swept figure drawn as
//! its points complete, the table of points, and the same sweep as a command.

use std::rc::Rc;

use packlab_core::metrics::VERDICT_RULE;
use packlab_core::scenario::Setup;
use packlab_core::sweep::{Cell, SweepPlan};
use packlab_plot::GraphChart;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
use crate::dom::page::{page_address, value_of};
use crate::dom::workers::now_ms;
use crate::export::{ImageFormat, export_size, save_chart};
use crate::sweep::plan::{MAX_REPS, PageSweep, scenario_link};
use crate::sweep::pool::{WorkerPool, worker_count};
use crate::trace_file;
use packlab_core::format::group_digits;

#[derive(Properties, PartialEq)]
pub struct SweepViewProps {
    pub setup: Rc<Setup>,
    /// The page's link query.
    pub query: String,
    /// Base name of exported files.
    pub name: String,
    /// The page's colours: the swept figure is drawn in them, as the live charts are (exports
    /// keep the light one, for paper).
    #[prop_or_default]
    pub theme: packlab_plot::Theme,
}

/// The sweep view of a preset that sweeps runs over a grid; nothing for the others.
#[component]
pub fn SweepView(props: &SweepViewProps) -> Html {
    let setup = &props.setup;
    // What the sweep depends on: the scenario and lanes, not the page's own keys (changing the
    // theme or the speed keeps a sweep under way).
    let scenario = scenario_link(setup);
    let preview = SweepPlan::new(setup, None, None, 1).ok();
    let grid = preview.as_ref().map(|p| p.values.iter().map(f64::to_string).collect::<Vec<_>>().join(","));
    let values = use_state(|| grid.clone().unwrap_or_default());
    // A trace file fixes the workload: one run per point, as `packlab sweep` makes by default
    // (more only repeat it, differing in the policies' own random choices).
    let default_reps = if setup.scenario.any().replaying() { "1" } else { "2" };
    let reps = use_state(|| default_reps.to_string());
    let error = use_state(|| None::<String>);
    let pool = use_mut_ref(|| None::<WorkerPool>);
    let redraw = use_force_update();
    let canvas = use_node_ref();
    {
        // A new scenario or new lanes: the sweep belonged to the old ones.
        let (pool, values, error, grid) = (pool.clone(), values.clone(), error.clone(), grid.clone());
        let (reps, replaying) = (reps.clone(), setup.scenario.any().replaying());
        use_effect_with(scenario, move |_| {
            pool.borrow_mut().take();
            values.set(grid.unwrap_or_default());
            if replaying {
                reps.set("1".into());
            }
            error.set(None);
        });
    }
    let Some(preview) = preview else { return html! {} };
    let what = preview.layout.y_label();
    let against = preview.key_label();
    // A replayed file: the grid the core chose around its offered load, said as the CLI says it.
    let grid_note = preview.grid_note();
    let start = {
        let (setup, values, reps, error, pool) =
            (setup.clone(), values.clone(), reps.clone(), error.clone(), pool.clone());
        let redraw = redraw.clone();
        Callback::from(move |_: MouseEvent| {
            pool.borrow_mut().take();
            let sweep = match PageSweep::new(&setup, &values, &reps) {
                Ok(sweep) => sweep,
                Err(e) => return error.set(Some(e.to_string())),
            };
            let workers = worker_count(sweep.plan.len());
            let again = redraw.clone();
            match WorkerPool::start(sweep, &setup, workers, Callback::from(move |()| again.force_update())) {
                Ok(workers) => {
                    error.set(None);
                    *pool.borrow_mut() = Some(workers);
                }
                Err(e) => error.set(Some(e)),
            }
            redraw.force_update();
        })
    };
    let stop = {
        let (pool, redraw) = (pool.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            pool.borrow_mut().take();
            redraw.force_update();
        })
    };
    let state = pool.borrow();
    let at_a_time = state.as_ref().map(|pool| pool.at_a_time().to_string());
    let in_flight = state.as_ref().map(|pool| pool.progress.borrow().in_flight.to_string());
    let (plan, cells, status, command, running, failed) = match &*state {
        None => (None, Vec::new(), String::new(), None, false, None),
        Some(workers) => {
            let p = workers.progress.borrow();
            let cells = p.jobs.plan.cells(&p.results);
            let seconds = (p.finished_ms.unwrap_or_else(now_ms) - p.started_ms) / 1000.0;
            let status = format!(
                "{} of {} runs in {seconds:.1} s {}{}",
                group_digits(p.done as u64),
                group_digits(p.results.len() as u64),
                workers.on_workers(),
                if p.finished_ms.is_some() { ": done" } else { "" }
            );
            let command = format!("{}{}", p.jobs.command(&page_address()), trace_file::trace_flag(&p.jobs.plan.setup));
            let running = p.finished_ms.is_none() && p.error.is_none();
            (Some(Rc::new(p.jobs.plan.clone())), cells, status, Some(command), running, p.error.clone())
        }
    };
    drop(state);
    let cells = Rc::new(cells);
    // The chart follows the cells (a point appears when its replications are done): the
    // core's figure, the one `packlab sweep` writes as SVG.
    {
        let (canvas, plan, cells, theme) = (canvas.clone(), plan.clone(), cells.clone(), props.theme);
        use_effect(move || {
            if let (Some(plan), Some(canvas)) = (plan, canvas.cast::<HtmlCanvasElement>()) {
                let graph = plan.graph(&cells);
                let size = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
                let figure = GraphChart::new(&graph);
                let chart = packlab_plot::Chart { theme, ..figure.chart() };
                if let Err(e) = draw(&canvas, size, &chart) {
                    web_sys::console::warn_1(&e.into());
                }
            }
        });
    }
    let save = |format: ImageFormat| {
        let (plan, cells) = (plan.clone(), cells.clone());
        let base = format!("{}-sweep", props.name);
        Callback::from(move |_: MouseEvent| {
            let Some(plan) = &plan else { return };
            let graph = plan.graph(&cells);
            if let Err(e) = save_chart(&GraphChart::new(&graph).chart(), export_size("chart-sweep"), &base, format) {
                web_sys::console::warn_1(&e.into());
            }
        })
    };
    let done = plan.as_ref().is_some_and(|p| {
        !running
            && failed.is_none()
            && cells.len() == p.layout.figures().len() * p.values.len() * p.setup.policies.len()
    });
    let grid_label =
        if preview.axis == "servers" { "Server counts L".to_string() } else { format!("Values of {against}") };
    html! {
        <details class="sweep" id="sweep" data-done={done.to_string()} data-axis={preview.axis}>
            <summary>{ format!("The paper's figure: {what} against {against}, in this page") }</summary>
            <p class="hint">
                { format!("Runs the grid of {against} with replications (seeds seed, seed + 1, …) in Web Workers, one \
                   per core (fewer at a time while the race above plays: it comes first), at this page's scenario \
                   and lanes; each point is the mean of its replications with its \
                   95% interval, drawn when they are done. The same numbers as the command below.") }
            </p>
            if let Some(note) = grid_note {
                // The core's sentence names the CLI's flag for another grid; here it is the field.
                <p class="hint" id="sweep-grid-note">
                    { format!("This page replays a trace file: {}; the field below gives another grid.",
                        note.split("; --load").next().unwrap_or(&note)) }
                </p>
            }
            <div class="sweep-form">
                <label class="field">
                    <span>{ grid_label }</span>
                    <input id="sweep-loads" value={(*values).clone()}
                        onchange={let values = values.clone(); Callback::from(move |e: Event| values.set(value_of(&e)))} />
                </label>
                <label class="field">
                    <span>{ format!("Replications (1 to {MAX_REPS})") }</span>
                    <input id="sweep-reps" inputmode="numeric" value={(*reps).clone()}
                        onchange={let reps = reps.clone(); Callback::from(move |e: Event| reps.set(value_of(&e)))} />
                </label>
                <p class="actions">
                    <button type="button" id="sweep-run" class="primary" onclick={start} disabled={running}>{ "Run the sweep" }</button>
                    <button type="button" id="sweep-stop" onclick={stop} disabled={!running}>{ "Stop" }</button>
                </p>
            </div>
            if let Some(message) = &*error {
                <p class="field-error" id="sweep-error" role="alert">{ message }</p>
            }
            if let Some(message) = &failed {
                <p class="error" role="alert">{ format!("The sweep stopped: {message}") }</p>
            }
            if plan.is_some() {
                <p class="status" id="sweep-status" role="status" data-at-a-time={at_a_time}
                    data-in-flight={in_flight}>{ status }</p>
                <figure class="chart">
                    <canvas ref={canvas} id="chart-sweep" role="img"
                        aria-label={format!("Line chart of {what} against {against}, one line per policy, with 95% intervals")} />
                    <figcaption>
                        <button type="button" id="export-chart-sweep" class="small" onclick={save(ImageFormat::Png)}>{ "PNG" }</button>
                        <button type="button" id="export-chart-sweep-svg" class="small" onclick={save(ImageFormat::Svg)}>{ "SVG" }</button>
                    </figcaption>
                </figure>
                <SweepTable plan={plan.clone()} cells={cells.clone()} />
            }
            if let Some(command) = command {
                <p class="hint">{ "The same in the command line: " }<code id="sweep-command">{ command }</code></p>
            }
        </details>
    }
}

#[derive(Properties, PartialEq)]
struct SweepTableProps {
    plan: Option<Rc<SweepPlan>>,
    cells: Rc<Vec<Cell>>,
}

/// The completed points, one row each, with their numbers as data attributes.
#[component]
fn SweepTable(props: &SweepTableProps) -> Html {
    let Some(plan) = &props.plan else { return html! {} };
    let figures = plan.layout.figures();
    let labels = plan.labels();
    // A loss system has no queue to be unstable.
    let queues = plan.setup.scenario.info().queue;
    html! {
        <table class="sweep-table" id="sweep-table">
            <thead><tr>
                <th>{ "Policy" }</th><th>{ plan.key_label() }</th><th>{ "Figure" }</th><th>{ "Mean" }</th>
                <th>{ "95% interval" }</th>
                if queues { <th title={VERDICT_RULE}>{ "Verdict" }</th> }
            </tr></thead>
            <tbody>
                { for props.cells.iter().map(|c| {
                    let s = &c.summary;
                    html! {
                        <tr data-policy={plan.setup.policies[c.policy].to_string()} data-value-x={c.value.to_string()}
                            data-figure={figures[c.figure].label} data-value={s.value.to_string()}
                            data-ci-lo={s.ci[0].to_string()} data-ci-hi={s.ci[1].to_string()}>
                            <td>{ &labels[c.policy] }</td>
                            <td>{ c.value.to_string() }</td>
                            <td>{ figures[c.figure].label }</td>
                            <td>{ format!("{:.3}", s.value) }</td>
                            <td>{ format!("[{:.3}, {:.3}]", s.ci[0], s.ci[1]) }</td>
                            if queues {
                                <td title={s.verdict.map(|j| j.explain("time"))}>
                                    { s.verdict.map_or("–", |j| j.verdict.word()) }
                                </td>
                            }
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}
