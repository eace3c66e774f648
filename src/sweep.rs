//! The sweep view: a preset's swept figure (mean queue against the load, E\[T\] against λ, …)
//! computed in the page, with replications, in Web Workers, one per core, drawn with 95%
//! intervals as its points complete. It is `packlab sweep --link LINK --load … --reps R`,
//! number for number: the grid, the seeds and the summaries are the core's
//! ([`packlab_core::sweep`]), and each worker runs the page's own wasm.
//!
//! [`SweepPlan`] is plain data (tested natively); [`WorkerPool`] and [`SweepView`] are the
//! browser's part. A worker is `www/sweep-worker.js`: it imports the page's wasm-bindgen
//! module, whose `main` does nothing outside a window, and answers each task with
//! [`run_sweep_task`].

use std::cell::RefCell;
use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::{Figure, Plot, Setup, Sweep, decode_link};
use packlab_core::sweep::{self, Axis, CellSummary, GridError, SweepRun};
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark, Point};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::prelude::*;

use crate::chart::draw;
use crate::dom::page::{page_address, value_of};
use crate::dom::workers::{asset_url, module_urls, now_ms, worker_init};
use crate::export::{ImageFormat, export_size, save_chart};
use crate::format::group_digits;
use crate::state::speed::SPEED_KEY;

/// Most replications per point the page runs.
pub const MAX_REPS: u64 = 50;
/// Most runs in one sweep (policies × loads × replications): the results stay small, but a
/// bigger grid belongs to the CLI.
pub const MAX_RUNS: usize = 2_000;

/// One run of the grid, as a worker receives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepTask {
    /// The page's link query: the scenario, as `packlab sweep --link` reads it.
    pub link: String,
    pub policy: String,
    /// What the grid varies, and its value at this point.
    pub axis: Axis,
    pub value: f64,
    pub seed: u64,
}

/// What a worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Answer {
    /// The task's index; -1 when the worker could not start.
    id: i64,
    #[serde(default)]
    run: Option<String>,
    #[serde(default)]
    error: Option<String>,
}

/// Runs one task: the link's scenario at the task's load and seed, under its policy, to the
/// horizon; the figures the link's preset plots.
pub fn run_task(task: &SweepTask) -> Result<SweepRun, String> {
    let (link, errors) = decode_link(&task.link, &[SPEED_KEY]);
    if let Some(e) = errors.first() {
        return Err(e.to_string());
    }
    let setup = Setup { preset: link.preset, scenario: link.scenario, policies: link.policies };
    let scenario = sweep::point(&setup.scenario, task.axis, task.value, task.seed).map_err(|e| e.to_string())?;
    let policy = PolicySpec::parse(&task.policy).map_err(|e| e.to_string())?;
    let outcome = run(setup.preset.id, &scenario, &policy).map_err(|e| e.to_string())?;
    Ok(SweepRun::of(&outcome.report, &sweep::plotted_figures(&setup)))
}

/// [`run_task`] for the worker: a task as JSON in, a [`SweepRun`] as JSON out.
#[wasm_bindgen]
pub fn run_sweep_task(task: &str) -> Result<String, JsValue> {
    let task: SweepTask = serde_json::from_str(task).map_err(|e| JsValue::from_str(&format!("bad task: {e}")))?;
    let run = run_task(&task).map_err(|e| JsValue::from_str(&e))?;
    serde_json::to_string(&run).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// A sweep to run: the grid of the page's scenario, with the preset's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPlan {
    pub link: String,
    pub policies: Vec<PolicySpec>,
    /// The policies as the charts name them.
    pub labels: Vec<String>,
    pub axis: Axis,
    /// The grid: loads, or numbers of servers.
    pub values: Vec<f64>,
    /// One per replication: seed, seed + 1, …
    pub seeds: Vec<u64>,
    pub figures: Vec<Figure>,
}

/// One point of the figure: a (policy, grid value, figure) cell once its replications are
/// done.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub policy: usize,
    pub value: f64,
    pub figure: usize,
    pub summary: CellSummary,
    /// PG-AS's U^(g) and U* per server at this point, where the workload has them.
    pub bounds: Option<[f64; 2]>,
}

impl SweepPlan {
    /// The sweep of `setup` (whose link is `query`) over the grid `grid` (comma-separated
    /// loads, or numbers of servers for PG-AS's sweeps against L) with `reps` replications.
    /// Bad text is named with the field and its range.
    pub fn new(setup: &Setup, query: &str, grid: &str, reps: &str) -> Result<Self, ConfigError> {
        let figures = sweep::plotted_figures(setup);
        let Some((axis, _)) = sweep::default_grid(setup).filter(|_| !figures.is_empty()) else {
            return Err(ConfigError::new("sweep", format!("{} has no sweep of runs", setup.preset.id)));
        };
        let key = axis.key();
        let range = setup.scenario.keys().into_iter().find(|k| k.key == key).map_or(String::new(), |k| k.range);
        let field = grid_field(axis);
        let values = sweep::parse_grid(grid, &setup.scenario, axis).map_err(|e| match e {
            GridError::EmptyEntry => {
                ConfigError::new(field, format!("an entry is empty; give values separated by commas, each {range}"))
            }
            GridError::Rejected(e) => ConfigError::new(field, e.message),
            GridError::Invalid { entry, error } => {
                ConfigError::new(field, format!("{entry}: {}: {}", error.key, error.message))
            }
        })?;
        let reps = reps.trim();
        let reps = reps.parse::<u64>().ok().filter(|r| (1..=MAX_REPS).contains(r)).ok_or_else(|| {
            ConfigError::new("replications", format!("must be an integer in 1..={MAX_REPS} (got '{reps}')"))
        })?;
        let seed = setup.scenario.seed();
        let seeds = (0..reps)
            .map(|r| sweep::replication_seed(seed, r))
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| ConfigError::new("replications", format!("seed {seed} + {reps} overflows a 64-bit seed")))?;
        let runs = setup.policies.len() * values.len() * seeds.len();
        if runs > MAX_RUNS {
            return Err(ConfigError::new(
                "replications",
                format!(
                    "{runs} runs (policies × loads × replications); the page runs at most {MAX_RUNS}: use `packlab \
                     sweep` for more"
                ),
            ));
        }
        Ok(Self {
            link: query.to_string(),
            labels: setup.policies.iter().map(|p| setup.scenario.policy_label(p)).collect(),
            policies: setup.policies.clone(),
            axis,
            values,
            seeds,
            figures,
        })
    }

    /// The runs, policy-major, then grid value, then replication (the CLI's order): a point's
    /// replications run together, so points complete one after another.
    pub fn tasks(&self) -> Vec<SweepTask> {
        let mut tasks = Vec::with_capacity(self.policies.len() * self.values.len() * self.seeds.len());
        for policy in &self.policies {
            for &value in &self.values {
                for &seed in &self.seeds {
                    let (link, policy, axis) = (self.link.clone(), policy.to_string(), self.axis);
                    tasks.push(SweepTask { link, policy, axis, value, seed });
                }
            }
        }
        tasks
    }

    /// The cells whose replications are all in `results` (indexed as [`Self::tasks`]).
    pub fn cells(&self, results: &[Option<SweepRun>]) -> Vec<Cell> {
        let reps = self.seeds.len();
        let mut cells = Vec::new();
        for (policy, _) in self.policies.iter().enumerate() {
            for (k, &value) in self.values.iter().enumerate() {
                let at = (policy * self.values.len() + k) * reps;
                let Some(runs) = results.get(at..at + reps).and_then(|r| r.iter().cloned().collect::<Option<Vec<_>>>())
                else {
                    continue;
                };
                for figure in 0..self.figures.len() {
                    if let Some(summary) = sweep::summarise(&runs, figure) {
                        cells.push(Cell { policy, value, figure, summary, bounds: runs[0].bounds });
                    }
                }
            }
        }
        cells
    }

    /// The command that computes the same figure natively.
    pub fn command(&self, origin: &str) -> String {
        let values: Vec<String> = self.values.iter().map(|l| l.to_string()).collect();
        let flag = match self.axis {
            Axis::Load => "--load",
            Axis::Servers => "--servers",
        };
        format!("packlab sweep --link '{origin}?{}' {flag} {} --reps {}", self.link, values.join(","), self.seeds.len())
    }
}

/// The name of the grid's field, in messages and on the page.
fn grid_field(axis: Axis) -> &'static str {
    match axis {
        Axis::Load => "sweep loads",
        Axis::Servers => "sweep servers",
    }
}

/// The curves of the completed cells: one per policy and figure, with 95% intervals.
fn curves_of(plan: &SweepPlan, cells: &[Cell]) -> Vec<(String, usize, Vec<Point>)> {
    let several = plan.figures.len() > 1;
    let mut curves = Vec::new();
    for (p, label) in plan.labels.iter().enumerate() {
        for (f, figure) in plan.figures.iter().enumerate() {
            let points: Vec<Point> = cells
                .iter()
                .filter(|c| c.policy == p && c.figure == f && c.summary.value.is_finite())
                .map(|c| {
                    let [lo, hi] = c.summary.ci;
                    let interval = (lo.is_finite() && hi.is_finite()).then_some((lo, hi));
                    Point { x: c.value, y: c.summary.value, interval }
                })
                .collect();
            let name = if several { format!("{label} {}", figure.label) } else { label.clone() };
            curves.push((name, p * plan.figures.len() + f, points));
        }
    }
    curves
}

/// The chart of a sweep so far.
fn sweep_chart<'a>(
    setup: &'a Setup,
    plan: &SweepPlan,
    curves: &'a [(String, usize, Vec<Point>)],
    marks: &'a [(f64, String)],
    bounds: Option<[f64; 2]>,
) -> Chart<'a> {
    let values = &plan.values;
    let (lo, hi) = (values.first().copied().unwrap_or(0.0), values.last().copied().unwrap_or(1.0));
    let pad = ((hi - lo) * 0.04).max(0.005);
    // Against the load, the theory's load marks; against L, PG-AS's bounds per server.
    let (x_label, x_marks) = match plan.axis {
        Axis::Load => (
            setup.scenario.info().load.axis,
            marks.iter().filter(|(x, _)| *x >= lo && *x <= hi).map(|(x, label)| Mark::new(*x, label)).collect(),
        ),
        Axis::Servers => ("servers L", Vec::new()),
    };
    let y_marks = bounds.map_or_else(Vec::new, |[greedy, optimal]| {
        vec![Mark::new(greedy, "U^(g) greedy"), Mark::new(optimal, "U* LP optimum")]
    });
    Chart {
        title: "The swept figure: each point the mean over its replications",
        x_label,
        y_label: sweep_what(setup),
        curves: curves
            .iter()
            .map(|(label, color, points)| Curve { label, color: Ink::Policy(*color), points, markers: true })
            .collect(),
        x_marks,
        y_marks,
        x_range: Some((lo - pad, hi + pad)),
        legend: LegendAt::Below,
        ..Chart::default()
    }
}

/// What the workers have done so far.
#[derive(Default)]
struct Progress {
    tasks: Vec<SweepTask>,
    /// The next task to hand out.
    next: usize,
    results: Vec<Option<SweepRun>>,
    done: usize,
    error: Option<String>,
    started_ms: f64,
    finished_ms: Option<f64>,
}

/// Web Workers running the tasks of a sweep, one task each at a time; dropped, they stop.
pub struct WorkerPool {
    workers: Vec<Worker>,
    _listeners: Vec<Closure<dyn FnMut(MessageEvent)>>,
    progress: Rc<RefCell<Progress>>,
}

impl WorkerPool {
    /// Starts `workers` workers on `tasks`; `changed` is called after each answer.
    fn start(tasks: Vec<SweepTask>, workers: usize, changed: Callback<()>) -> Result<Self, String> {
        let (js, wasm) = module_urls().ok_or("cannot find the page's wasm module")?;
        let script = asset_url("sweep-worker.js").ok_or("cannot find sweep-worker.js")?;
        let progress = Rc::new(RefCell::new(Progress {
            results: vec![None; tasks.len()],
            tasks,
            started_ms: now_ms(),
            ..Progress::default()
        }));
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let mut pool = Self { workers: Vec::new(), _listeners: Vec::new(), progress: progress.clone() };
        let init = worker_init(&js, &wasm)?;
        for _ in 0..workers.max(1) {
            let worker =
                Worker::new_with_options(&script, &options).map_err(|e| format!("cannot start a worker: {e:?}"))?;
            let (progress, changed, me) = (progress.clone(), changed.clone(), worker.clone());
            let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let text = event.data().as_string().unwrap_or_default();
                let answer: Result<Answer, _> = serde_json::from_str(&text);
                {
                    let mut p = progress.borrow_mut();
                    match answer {
                        Ok(Answer { id, run: Some(run), .. }) if (0..p.results.len() as i64).contains(&id) => {
                            match serde_json::from_str::<SweepRun>(&run) {
                                Ok(run) => {
                                    p.results[id as usize] = Some(run);
                                    p.done += 1;
                                }
                                Err(e) => p.error = Some(format!("a worker's answer: {e}")),
                            }
                        }
                        Ok(Answer { id, error: Some(e), .. }) => {
                            let task = usize::try_from(id).ok().and_then(|id| p.tasks.get(id));
                            let what = task
                                .map(|t| format!("{} at {} {}, seed {}: ", t.policy, t.axis.key(), t.value, t.seed));
                            p.error = Some(format!("{}{e}", what.unwrap_or_default()));
                        }
                        _ => p.error = Some(format!("a worker answered '{text}'")),
                    }
                    if p.done == p.tasks.len() && p.finished_ms.is_none() {
                        p.finished_ms = Some(now_ms());
                    }
                }
                hand_out(&progress, &me);
                changed.emit(());
            });
            worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
            worker.post_message(&init).map_err(|e| format!("cannot talk to a worker: {e:?}"))?;
            pool.workers.push(worker);
            pool._listeners.push(listener);
        }
        for worker in &pool.workers {
            hand_out(&pool.progress, worker);
        }
        Ok(pool)
    }
}

/// Gives `worker` the next task, unless the sweep failed or has none left.
fn hand_out(progress: &Rc<RefCell<Progress>>, worker: &Worker) {
    let message = {
        let mut p = progress.borrow_mut();
        if p.error.is_some() || p.next >= p.tasks.len() {
            return;
        }
        let id = p.next;
        p.next += 1;
        let task = serde_json::to_string(&p.tasks[id]).unwrap_or_default();
        serde_json::json!({ "id": id, "task": task }).to_string()
    };
    if worker.post_message(&JsValue::from_str(&message)).is_err() {
        progress.borrow_mut().error = Some("cannot talk to a worker".into());
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

/// Workers to start: one per core the browser reports, at least one, at most one per task.
fn worker_count(tasks: usize) -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, 16).min(tasks.max(1))
}

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

/// "mean waiting jobs", "mean response time", … for the summary line.
fn sweep_what(setup: &Setup) -> &'static str {
    match &setup.preset.sweep {
        Sweep::Load { plot: Plot::Curves { y_label, .. }, .. } => y_label,
        Sweep::Load { plot: Plot::AgainstParameter { figure, .. }, .. } => figure.label,
        Sweep::Servers { .. } => sweep::NORMALIZED_REWARD.label,
        _ => "",
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
