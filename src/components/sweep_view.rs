//! The sweep view: the form (loads or server counts, replications), the swept figure drawn as
//! its points complete, the table of points, and the same sweep as a command.

use std::rc::Rc;

use packlab_core::scenario::Setup;
use packlab_core::sweep::{self, Axis};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
use crate::dom::page::{page_address, value_of};
use crate::dom::workers::now_ms;
use crate::export::{ImageFormat, export_size, save_chart};
use crate::format::group_digits;
use crate::sweep::figure::{curves_of, sweep_chart, sweep_what};
use crate::sweep::plan::{Cell, MAX_REPS, SweepPlan};
use crate::sweep::pool::{WorkerPool, worker_count};

#[derive(Properties, PartialEq)]
pub struct SweepViewProps {
    pub setup: Rc<Setup>,
    /// The page's link query.
    pub query: String,
    /// Base name of exported files.
    pub name: String,
}

/// The sweep view of a preset that sweeps the load; nothing for the others.
#[component]
pub fn SweepView(props: &SweepViewProps) -> Html {
    let setup = &props.setup;
    let axis = sweep::default_grid(setup).map(|(axis, _)| axis);
    let grid = sweep::default_grid(setup)
        .filter(|_| !sweep::plotted_figures(setup).is_empty())
        .map(|(_, g)| g.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(","));
    let loads = use_state(|| grid.clone().unwrap_or_default());
    let reps = use_state(|| "2".to_string());
    let error = use_state(|| None::<String>);
    let pool = use_mut_ref(|| None::<(SweepPlan, WorkerPool)>);
    let redraw = use_force_update();
    let canvas = use_node_ref();
    {
        // A new scenario or new lanes: the sweep belonged to the old ones.
        let (pool, loads, error, grid) = (pool.clone(), loads.clone(), error.clone(), grid.clone());
        use_effect_with(props.query.clone(), move |_| {
            pool.borrow_mut().take();
            loads.set(grid.unwrap_or_default());
            error.set(None);
        });
    }
    let Some(_) = grid else { return html! {} };
    // A trace file lives in this page only; the workers load the wasm afresh and could not
    // find it. The command line reads the files itself.
    if setup.scenario.get("trace").is_some_and(|t| t.len() == 16) {
        return html! {
            <details class="sweep" id="sweep">
                <summary>{ format!("The paper's figure: {} against {}", sweep_what(setup), against(axis)) }</summary>
                <p class="hint" id="sweep-trace">
                    { "This run replays a trace file, which the page's sweep workers do not hold. The same sweep \
                       from the command line: " }
                    <code>{ format!("packlab sweep --link '?{}' --trace FILE…", props.query) }</code>
                </p>
            </details>
        };
    }
    let start = {
        let (setup, query, loads, reps, error, pool) =
            (setup.clone(), props.query.clone(), loads.clone(), reps.clone(), error.clone(), pool.clone());
        let redraw = redraw.clone();
        Callback::from(move |_: MouseEvent| {
            pool.borrow_mut().take();
            let plan = match SweepPlan::new(&setup, &query, &loads, &reps) {
                Ok(plan) => plan,
                Err(e) => return error.set(Some(e.to_string())),
            };
            let tasks = plan.tasks();
            let workers = worker_count(tasks.len());
            let again = redraw.clone();
            match WorkerPool::start(tasks, workers, Callback::from(move |()| again.force_update())) {
                Ok(workers) => {
                    error.set(None);
                    *pool.borrow_mut() = Some((plan, workers));
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
    let (cells, status, command, running, failed) = match &*state {
        None => (Vec::new(), String::new(), None, false, None),
        Some((plan, workers)) => {
            let p = workers.progress.borrow();
            let cells = plan.cells(&p.results);
            let seconds = (p.finished_ms.unwrap_or_else(now_ms) - p.started_ms) / 1000.0;
            let status = format!(
                "{} of {} runs in {seconds:.1} s on {} workers{}",
                group_digits(p.done as u64),
                group_digits(p.tasks.len() as u64),
                workers.workers.len(),
                if p.finished_ms.is_some() { ": done" } else { "" }
            );
            let origin = page_address();
            (cells, status, Some(plan.command(&origin)), p.finished_ms.is_none() && p.error.is_none(), p.error.clone())
        }
    };
    let plan = state.as_ref().map(|(plan, _)| plan.clone());
    drop(state);
    // The chart follows the cells (a point appears when its replications are done).
    let marks: Vec<(f64, String)> = setup.scenario.marks().into_iter().map(|m| (m.load, m.label)).collect();
    {
        let (canvas, setup, plan, cells, marks) =
            (canvas.clone(), setup.clone(), plan.clone(), cells.clone(), marks.clone());
        use_effect(move || {
            if let (Some(plan), Some(canvas)) = (plan, canvas.cast::<HtmlCanvasElement>()) {
                let curves = curves_of(&plan, &cells);
                let size = (f64::from(canvas.client_width()), f64::from(canvas.client_height()));
                if let Err(e) = draw(
                    &canvas,
                    size,
                    &sweep_chart(&setup, &plan, &curves, &marks, cells.iter().find_map(|c| c.bounds)),
                ) {
                    web_sys::console::warn_1(&e.into());
                }
            }
        });
    }
    let save = |format: ImageFormat| {
        let (setup, plan, cells, marks) = (setup.clone(), plan.clone(), cells.clone(), marks.clone());
        let base = format!("{}-sweep", props.name);
        Callback::from(move |_: MouseEvent| {
            let Some(plan) = &plan else { return };
            let curves = curves_of(plan, &cells);
            let chart = sweep_chart(&setup, plan, &curves, &marks, cells.iter().find_map(|c| c.bounds));
            if let Err(e) = save_chart(&chart, export_size("chart-sweep"), &base, format) {
                web_sys::console::warn_1(&e.into());
            }
        })
    };
    let done = plan.as_ref().is_some_and(|p| {
        !running && failed.is_none() && cells.len() == p.figures.len() * p.values.len() * p.policies.len()
    });
    html! {
        <details class="sweep" id="sweep" data-done={done.to_string()}>
            <summary>{ format!("The paper's figure: {} against {}, in this page", sweep_what(setup), against(axis)) }</summary>
            <p class="hint">
                { format!("Runs the grid of {} with replications (seeds seed, seed + 1, …) in Web Workers, one per \
                   core, at this page's scenario and lanes; each point is the mean of its replications with its 95% \
                   interval, drawn when they are done. The same numbers as the command below.", grid_words(axis)) }
            </p>
            <div class="sweep-form">
                <label class="field">
                    <span>{ axis.map_or("Loads", |a| if a == Axis::Servers { "Server counts L" } else { "Loads" }) }</span>
                    <input id="sweep-loads" value={(*loads).clone()}
                        onchange={let loads = loads.clone(); Callback::from(move |e: Event| loads.set(value_of(&e)))} />
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
                <p class="status" id="sweep-status" role="status">{ status }</p>
                <figure class="chart">
                    <canvas ref={canvas} id="chart-sweep" role="img"
                        aria-label="Line chart of the swept figure against the load, one line per policy, with 95% intervals" />
                    <figcaption>
                        <button type="button" id="export-chart-sweep" class="small" onclick={save(ImageFormat::Png)}>{ "PNG" }</button>
                        <button type="button" id="export-chart-sweep-svg" class="small" onclick={save(ImageFormat::Svg)}>{ "SVG" }</button>
                    </figcaption>
                </figure>
                <SweepTable plan={plan.clone().map(Rc::new)} cells={Rc::new(cells)} />
            }
            if let Some(command) = command {
                <p class="hint">{ "The same in the command line: " }<code id="sweep-command">{ command }</code></p>
            }
        </details>
    }
}

/// The x axis in the section's title.
fn against(axis: Option<Axis>) -> &'static str {
    match axis {
        Some(Axis::Servers) => "the number of servers L",
        _ => "the load",
    }
}

fn grid_words(axis: Option<Axis>) -> &'static str {
    match axis {
        Some(Axis::Servers) => "server counts",
        _ => "loads",
    }
}

/// The grid's column in the table.
fn axis_name(axis: Axis) -> &'static str {
    match axis {
        Axis::Load => "Load",
        Axis::Servers => "Servers L",
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
    html! {
        <table class="sweep-table" id="sweep-table">
            <thead><tr>
                <th>{ "Policy" }</th><th>{ axis_name(plan.axis) }</th><th>{ "Figure" }</th><th>{ "Mean" }</th>
                <th>{ "95% interval" }</th>
                // A loss system (PG-AS, swept against L) has no queue to be unstable.
                if plan.axis == Axis::Load { <th>{ "Unstable runs" }</th> }
            </tr></thead>
            <tbody>
                { for props.cells.iter().map(|c| {
                    let s = &c.summary;
                    html! {
                        <tr data-policy={plan.policies[c.policy].to_string()} data-value-x={c.value.to_string()}
                            data-figure={plan.figures[c.figure].key} data-value={s.value.to_string()}
                            data-ci-lo={s.ci[0].to_string()} data-ci-hi={s.ci[1].to_string()}>
                            <td>{ &plan.labels[c.policy] }</td>
                            <td>{ c.value.to_string() }</td>
                            <td>{ plan.figures[c.figure].label }</td>
                            <td>{ format!("{:.3}", s.value) }</td>
                            <td>{ format!("[{:.3}, {:.3}]", s.ci[0], s.ci[1]) }</td>
                            if plan.axis == Axis::Load { <td>{ format!("{} of {}", s.unstable_reps, s.reps) }</td> }
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}
