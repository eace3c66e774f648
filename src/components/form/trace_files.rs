//! A trace file to replay: picked, dropped, or the bundled sample, read streaming with a
//! progress bar, and shared with the race worker.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::trace::{self, stats::TraceStats};
use wasm_bindgen::JsCast;
use web_sys::{Blob, HtmlInputElement};
use yew::prelude::*;

use crate::components::form::LabControlsProps;
use crate::components::form::field_notice::Notice;
use crate::components::form::trace_summary::TraceSummary;
use crate::play::worker::client::RaceWorker;
use crate::state::Action;
use crate::trace_file::{self, Progress};

/// A trace file to replay, as the model says it replays them (Google task_events parts, an SWF
/// log, a task CSV): picked, dropped on the box, or the model's bundled synthetic sample. The
/// file is read streaming with a progress bar (see [`crate::trace_file`]); its summary stays
/// shown, and while it replays, the scaling and the offered load it makes. A bad file is named
/// by file, line and field under the box.
#[component]
pub fn TraceFiles(props: &LabControlsProps) -> Html {
    let progress = use_state(|| None::<Progress>);
    let summary = use_state(|| None::<Rc<TraceStats>>);
    let scenario = &props.lab.setup.scenario;
    let Some(replay) = &scenario.info().replay else { return html! {} };
    let (accept, sample, what) = (replay.accept, replay.sample, replay.files);
    let servers = scenario.get("servers").and_then(|v| v.parse::<u64>().ok());
    let load = {
        let (dispatch, progress, summary) = (props.dispatch.clone(), progress.clone(), summary.clone());
        Rc::new(move |files: Vec<(String, Blob)>| {
            let (dispatch, progress, summary) = (dispatch.clone(), progress.clone(), summary.clone());
            wasm_bindgen_futures::spawn_local(async move {
                progress.set(Some(Progress { read: 0.0, total: files.iter().map(|(_, b)| b.size()).sum() }));
                let result = load_files(&files, servers, |p| progress.set(Some(p))).await;
                progress.set(None);
                match result {
                    Ok((action, stats)) => {
                        summary.set(stats.map(Rc::new));
                        dispatch.emit(action);
                    }
                    Err(e) => dispatch.emit(Action::Reject(e)),
                }
            });
        })
    };
    let pick = {
        let load = load.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let Some(list) = input.files() else { return };
            load(blobs(&list));
        })
    };
    let drop = {
        let load = load.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(list) = e.data_transfer().and_then(|d| d.files()) {
                load(blobs(&list));
            }
        })
    };
    let try_sample = {
        let (load, dispatch) = (load.clone(), props.dispatch.clone());
        Callback::from(move |_: MouseEvent| {
            let (load, dispatch) = (load.clone(), dispatch.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match fetch_blob(sample).await {
                    Ok(blob) => load(vec![(sample.rsplit('/').next().unwrap_or(sample).to_string(), blob)]),
                    Err(e) => dispatch.emit(Action::Reject(e)),
                }
            });
        })
    };
    // While a file replays: its fingerprint (links name it so) and how it runs.
    let status = scenario.replay_status();
    let loaded = status.map(|_| {
        let name = scenario.get(trace::KEY).unwrap_or_default();
        format!("trace {name} loaded: links name it so")
    });
    html! {
        <div class="trace-files" id="trace-drop" ondragover={Callback::from(|e: DragEvent| e.prevent_default())}
            ondrop={drop}>
            <label class="field">
                <span>{ format!("…or replay a trace: {what}; pick or drop files here") }</span>
                <input type="file" id="trace-file" multiple=true {accept} onchange={pick} />
            </label>
            <button type="button" id="trace-sample" onclick={try_sample}>{ "Try the bundled sample (synthetic)" }</button>
            if let Some(p) = *progress {
                <progress id="trace-progress" max={p.total.max(1.0).to_string()} value={p.read.to_string()}></progress>
            }
            <span class="hint">{ loaded.unwrap_or_else(|| "a link to a loaded trace names it by its fingerprint and asks \
                for the file where it is opened".to_string()) }</span>
            if let Some(status) = status {
                <p id="replay-status" class={classes!("replay-status", status.overloaded.then_some("warning"))}
                    role="status" data-scaling={status.scaling.to_string()} data-offered={status.offered.to_string()}
                    data-overloaded={status.overloaded.to_string()}>
                    { format!("The file {}.", status.describe()) }
                </p>
            }
            <Notice lab={props.lab.clone()} field="trace" />
            if let Some(stats) = (*summary).clone() {
                <TraceSummary {stats} />
            }
        </div>
    }
}

/// Reads picked or dropped files as one trace and says what to do with it.
async fn load_files(
    files: &[(String, Blob)],
    servers: Option<u64>,
    progress: impl Fn(Progress),
) -> Result<(Action, Option<TraceStats>), ConfigError> {
    // The race worker reads the same files at the same time, so that a race replaying them
    // can run there too.
    let worker = RaceWorker::share_trace(files);
    let loaded = trace_file::load(files, progress).await?;
    let servers = servers.filter(|_| matches!(loaded, trace::Loaded::Google(_) | trace::Loaded::TaskCsv(_)));
    let stats = trace::stats::stats(&loaded, servers);
    let kept = trace::keep(loaded);
    if let Some(worker) = worker {
        worker.has_trace(kept.name());
    }
    // Kept for the workers of a sweep or a map of the trace, which start later.
    trace_file::remember(kept.name(), files.to_vec());
    Ok((Action::LoadTrace(kept), Some(stats)))
}

fn blobs(list: &web_sys::FileList) -> Vec<(String, Blob)> {
    (0..list.length()).filter_map(|i| list.get(i)).map(|f| (f.name(), Blob::from(f))).collect()
}

async fn fetch_blob(path: &str) -> Result<Blob, ConfigError> {
    let fail = |why: String| ConfigError::new("trace", format!("the sample {path} could not be fetched ({why})"));
    let window = web_sys::window().ok_or_else(|| fail("no window".into()))?;
    let response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(path)).await.map_err(|e| fail(format!("{e:?}")))?;
    let response: web_sys::Response = response.dyn_into().map_err(|e| fail(format!("{e:?}")))?;
    if !response.ok() {
        return Err(fail(format!("HTTP {}", response.status())));
    }
    let blob = response.blob().map_err(|e| fail(format!("{e:?}")))?;
    wasm_bindgen_futures::JsFuture::from(blob)
        .await
        .map_err(|e| fail(format!("{e:?}")))?
        .dyn_into()
        .map_err(|e| fail(format!("{e:?}")))
}
