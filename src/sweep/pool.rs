//! The Web Workers that run a batch of tasks (`www/sweep-worker.js`, each on the page's own
//! wasm): a sweep's runs, or a stability map's round after round ([`Jobs`]), one task each
//! at a time, with what they have done so far; dropped, they stop. No more tasks run at once
//! than the batch's share of the cores ([`crate::dom::cores`]): fewer while a race plays. A
//! batch of a scenario that replays a trace file hands each worker the file first (the page
//! keeps its files, [`crate::trace_file::files_of`]), as the race workers get it.

use std::cell::RefCell;
use std::rc::Rc;

use packlab_core::scenario::Setup;
use packlab_core::sweep::SweepRun;
use packlab_core::trace;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use crate::dom::cores::{BatchTicket, batch_share};
use crate::dom::workers::{asset_url, module_urls, now_ms, worker_init};
use crate::sweep::plan::PageSweep;

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

/// A batch of tasks the workers run: each task as the JSON its worker function reads, and
/// what it answers.
pub trait Jobs: 'static {
    /// What one task answers.
    type Out: DeserializeOwned + Clone + 'static;
    /// The worker's function for these tasks (`www/sweep-worker.js` knows each).
    const KIND: &'static str;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Task `i` as JSON.
    fn task(&self, i: usize) -> String;
    /// Task `i` for an error message ("VQS at load 0.9, seed 3: ").
    fn describe(&self, i: usize) -> String;
}

impl Jobs for PageSweep {
    type Out = SweepRun;
    const KIND: &'static str = "sweep";

    fn len(&self) -> usize {
        self.plan.len()
    }

    fn task(&self, i: usize) -> String {
        serde_json::to_string(&PageSweep::task(self, i)).unwrap_or_default()
    }

    fn describe(&self, i: usize) -> String {
        let plan = &self.plan;
        let t = plan.task(i);
        format!(
            "{} at {} {}, seed {}: ",
            plan.setup.policies[t.policy], plan.axis, plan.values[t.value], plan.seeds[t.rep]
        )
    }
}

/// What the workers have done so far.
pub(crate) struct Progress<J: Jobs> {
    pub(crate) jobs: J,
    /// The next task to hand out.
    pub(crate) next: usize,
    pub(crate) results: Vec<Option<J::Out>>,
    pub(crate) done: usize,
    pub(crate) error: Option<String>,
    pub(crate) started_ms: f64,
    pub(crate) finished_ms: Option<f64>,
    /// Tasks handed out and not answered yet.
    pub(crate) in_flight: usize,
    /// Workers without a task while tasks are left: held back by the batch's share.
    idle: Vec<Worker>,
    /// The batch's place among what uses the cores, while it has tasks to run.
    ticket: Option<BatchTicket>,
}

/// Web Workers running a batch of tasks, one task each at a time; dropped, they stop.
pub struct WorkerPool<J: Jobs = PageSweep> {
    pub(crate) workers: Vec<Worker>,
    _listeners: Vec<Closure<dyn FnMut(MessageEvent)>>,
    pub(crate) progress: Rc<RefCell<Progress<J>>>,
    changed: Callback<()>,
}

impl<J: Jobs> WorkerPool<J> {
    /// Starts `workers` workers on the tasks of `jobs`, the runs of `setup` (its trace file
    /// handed to each worker first); `changed` is called after each answer.
    pub(crate) fn start(jobs: J, setup: &Setup, workers: usize, changed: Callback<()>) -> Result<Self, String> {
        let trace = trace_message(setup)?;
        let (js, wasm) = module_urls().ok_or("cannot find the page's wasm module")?;
        let script = asset_url("sweep-worker.js").ok_or("cannot find sweep-worker.js")?;
        let progress = Rc::new(RefCell::new(Progress {
            results: vec![None; jobs.len()],
            jobs,
            next: 0,
            done: 0,
            error: None,
            started_ms: now_ms(),
            finished_ms: None,
            in_flight: 0,
            idle: Vec::new(),
            ticket: None,
        }));
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let mut pool =
            Self { workers: Vec::new(), _listeners: Vec::new(), progress: progress.clone(), changed: changed.clone() };
        let init = worker_init(&js, &wasm)?;
        for _ in 0..workers.max(1) {
            let worker =
                Worker::new_with_options(&script, &options).map_err(|e| format!("cannot start a worker: {e:?}"))?;
            let (progress, changed, me) = (progress.clone(), changed.clone(), worker.clone());
            let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let text = event.data().as_string().unwrap_or_default();
                let answer: Result<Answer, _> = serde_json::from_str(&text);
                let leaving = {
                    let mut p = progress.borrow_mut();
                    p.in_flight = p.in_flight.saturating_sub(1);
                    match answer {
                        Ok(Answer { id, run: Some(run), .. }) if (0..p.results.len() as i64).contains(&id) => {
                            match serde_json::from_str::<J::Out>(&run) {
                                Ok(run) => {
                                    p.results[id as usize] = Some(run);
                                    p.done += 1;
                                }
                                Err(e) => p.error = Some(format!("a worker's answer: {e}")),
                            }
                        }
                        Ok(Answer { id, error: Some(e), .. }) => {
                            let what =
                                usize::try_from(id).ok().filter(|&id| id < p.jobs.len()).map(|id| p.jobs.describe(id));
                            p.error = Some(format!("{}{e}", what.unwrap_or_default()));
                        }
                        _ => p.error = Some(format!("a worker answered '{text}'")),
                    }
                    if p.done == p.results.len() && p.finished_ms.is_none() {
                        p.finished_ms = Some(now_ms());
                    }
                    // A batch done or failed leaves the cores to the others.
                    if p.under_way() { None } else { p.ticket.take() }
                };
                // Outside the borrow: leaving tells the batches.
                drop(leaving);
                hand_out(&progress, &me);
                changed.emit(());
            });
            worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
            worker.post_message(&init).map_err(|e| format!("cannot talk to a worker: {e:?}"))?;
            // Read before any task: the worker handles its messages one after the other.
            if let Some(trace) = &trace {
                worker.post_message(trace).map_err(|e| format!("cannot hand a worker the trace: {e:?}"))?;
            }
            pool.workers.push(worker);
            pool._listeners.push(listener);
        }
        pool.progress.borrow_mut().idle = pool.workers.clone();
        pool.join_cores();
        hand_out_to_idle(&pool.progress);
        Ok(pool)
    }

    /// Takes the batch's place among what uses the cores: told when its share changes, it
    /// hands out tasks to the workers it held back, and redraws.
    fn join_cores(&self) {
        let (progress, changed) = (Rc::downgrade(&self.progress), self.changed.clone());
        let ticket = BatchTicket::join(move || {
            if let Some(progress) = progress.upgrade() {
                hand_out_to_idle(&progress);
                changed.emit(());
            }
        });
        // The last round's place, if any, leaves outside the borrow: leaving tells the batches.
        let last = self.progress.borrow_mut().ticket.replace(ticket);
        drop(last);
    }

    /// Tasks the pool runs at a time: its workers, or while its batch is under way and a race
    /// plays, fewer ([`crate::dom::cores`]).
    pub(crate) fn at_a_time(&self) -> usize {
        let n = self.workers.len();
        if self.progress.borrow().under_way() { n.min(batch_share()) } else { n }
    }

    /// Where the status says the tasks run: "on 2 workers", and while a race holds some of them
    /// back, "on 2 workers, 1 at a time while the race plays".
    pub(crate) fn on_workers(&self) -> String {
        let (n, k) = (self.workers.len(), self.at_a_time());
        let on = on_workers(n);
        if k < n { format!("{on}, {k} at a time while the race plays") } else { on }
    }

    /// Hands the workers a new batch (a stability map's next round) once the last one is
    /// done: they are idle then, and keep their loaded wasm.
    pub(crate) fn run(&self, jobs: J) {
        {
            let mut p = self.progress.borrow_mut();
            p.results = vec![None; jobs.len()];
            p.jobs = jobs;
            p.next = 0;
            p.done = 0;
            p.error = None;
            p.finished_ms = None;
            p.in_flight = 0;
            p.idle = self.workers.clone();
        }
        self.join_cores();
        hand_out_to_idle(&self.progress);
    }
}

/// The message handing a worker the files of the trace `setup` replays, if it replays one.
fn trace_message(setup: &Setup) -> Result<Option<JsValue>, String> {
    if !setup.scenario.any().replaying() {
        return Ok(None);
    }
    let name = setup.scenario.get(trace::KEY).unwrap_or_default();
    let files = crate::trace_file::files_of(&name).ok_or_else(|| {
        format!("the files of trace {name} are not held by this page any more: pick or drop them again")
    })?;
    crate::trace_file::worker_message(&files).map(Some).ok_or_else(|| "cannot hand the workers the trace".to_string())
}

/// "on 1 worker", "on 2 workers".
pub(crate) fn on_workers(n: usize) -> String {
    format!("on {n} worker{}", if n == 1 { "" } else { "s" })
}

impl<J: Jobs> Progress<J> {
    /// Whether the batch still has tasks to run (not done, not failed).
    fn under_way(&self) -> bool {
        self.finished_ms.is_none() && self.error.is_none()
    }
}

/// Gives waiting workers tasks while the batch's share allows.
fn hand_out_to_idle<J: Jobs>(progress: &Rc<RefCell<Progress<J>>>) {
    loop {
        let worker = {
            let mut p = progress.borrow_mut();
            if p.in_flight >= batch_share() {
                return;
            }
            match p.idle.pop() {
                Some(worker) => worker,
                None => return,
            }
        };
        hand_out(progress, &worker);
    }
}

/// Gives `worker` the next task, unless the batch failed or has none left; holds it back while
/// the batch already runs its share of tasks.
fn hand_out<J: Jobs>(progress: &Rc<RefCell<Progress<J>>>, worker: &Worker) {
    let message = {
        let mut p = progress.borrow_mut();
        if p.error.is_some() || p.next >= p.results.len() {
            return;
        }
        if p.in_flight >= batch_share() {
            p.idle.push(worker.clone());
            return;
        }
        let id = p.next;
        p.next += 1;
        p.in_flight += 1;
        let task = p.jobs.task(id);
        serde_json::json!({ "id": id, "task": task, "kind": J::KIND }).to_string()
    };
    if worker.post_message(&JsValue::from_str(&message)).is_err() {
        progress.borrow_mut().error = Some("cannot talk to a worker".into());
    }
}

impl<J: Jobs> Drop for WorkerPool<J> {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

/// Workers to start: one per core the browser reports, at least one, at most one per task.
pub(crate) fn worker_count(tasks: usize) -> usize {
    crate::dom::workers::cores().min(tasks.max(1))
}
