//! The controls: preset, policies, scenario keys (with a size-distribution editor), and the
//! playback bar. They only dispatch [`Action`]s; the reducer in [`crate::state`] decides.

use std::rc::Rc;

use packlab_core::ConfigError;
use packlab_core::keys::{Editor, Input, KeyInfo};
use packlab_core::models::msfq::JobClasses;
use packlab_core::models::{LoadMark, SliderMax, policies_of};
use packlab_core::policy::{Param, ParamKind};
use packlab_core::scenario::presets;
use packlab_core::trace::Loaded;
use packlab_core::trace::stats::{TraceStats, stats};
use wasm_bindgen::JsCast;
use web_sys::{Blob, HtmlInputElement};
use yew::prelude::*;

use crate::bounds::collections_only;
use crate::dom::page::value_of;
use crate::format::{group_digits, moment};
use crate::play::snapshot::{Phase, Shown, Snapshot};
use crate::play::worker::client::RaceWorker;
use crate::state::speed::{SPEED_KEY, Speed};
use crate::state::{Action, Lab, MAX_POLICIES};
use crate::trace_file::{self, Progress};

#[derive(Properties, PartialEq)]
pub struct LabControlsProps {
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
    pub marks: Rc<[LoadMark]>,
}

/// Preset, policies and every scenario key the model's table puts in the form.
#[component]
pub fn ScenarioControls(props: &LabControlsProps) -> Html {
    let lab = &props.lab;
    let setup = &lab.setup;
    let on_preset = props.dispatch.reform(|e: Event| Action::ChoosePreset(value_of(&e)));
    let reset = props.dispatch.reform(|_: MouseEvent| Action::ResetScenario);
    let collections = collections_only(&setup.scenario);
    // A replayed trace (PG-RR, MSFQ) brings its own sizes, services and classes: their fields
    // would only mislead, so they leave the form while it replays.
    let traced = setup.scenario.info().id != "pgas" && setup.scenario.get("trace").is_some_and(|t| t != "none");
    let keys: Vec<KeyInfo> = setup
        .scenario
        .keys()
        .into_iter()
        .filter(|k| !(traced && matches!(k.key, "size" | "service" | "classes")))
        .collect();
    let unit = setup.scenario.time_unit().plural();
    let field = |k: &KeyInfo| {
        let label = if k.key == "horizon" { format!("{} ({unit})", k.label) } else { k.label.to_string() };
        let kind = if k.input == Input::Number { "number" } else { "text" };
        html! { <KeyField name={k.key} {label} {kind} lab={lab.clone()} dispatch={props.dispatch.clone()} /> }
    };
    // Short fields in a grid, then the wide ones and the editors on rows of their own.
    let compact = keys.iter().filter(|k| matches!(k.input, Input::Number | Input::Text | Input::Load));
    let wide = keys.iter().filter(|k| matches!(k.input, Input::Wide | Input::Editor(_)));
    html! {
        <form class="scenario" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <label class="field wide">
                <span>{ "Preset" }</span>
                <select id="preset" onchange={on_preset}>
                    { for presets().iter().map(|p| html! {
                        <option value={p.id} selected={p.id == setup.preset.id}>
                            { format!("{} · {}", p.figure, p.title) }
                        </option>
                    }) }
                </select>
            </label>
            if collections {
                // PGAS-C1 solves random collections exactly: only they and the seed enter.
                <div class="fields">
                    { for keys.iter().filter(|k| k.key == "seed").map(field) }
                </div>
                <div class="classes">
                    <KeyField name="types" label="Collections (random:N, or random:N:per-value)" kind="text"
                        lab={lab.clone()} dispatch={props.dispatch.clone()} />
                </div>
            } else {
                <PolicyPicker lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                <div class="fields">
                    { for compact.map(|k| match k.input {
                        Input::Load => html! {
                            <LoadField lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                        },
                        _ => field(k),
                    }) }
                </div>
                if traced {
                    <p class="hint" id="from-trace">{ "Job sizes, service times and classes come from the trace; set \
                        the trace to none for the model's own." }</p>
                }
                { for wide.map(|k| match k.input {
                    Input::Editor(Editor::Sizes) => html! {
                        <SizeEditor lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                    },
                    Input::Editor(Editor::Classes) => html! {
                        <ClassEditor lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                    },
                    Input::Editor(Editor::Types) | Input::Editor(Editor::Trace) => html! {
                        <div class="classes">
                            { field(k) }
                            <TraceFiles lab={lab.clone()} dispatch={props.dispatch.clone()} marks={props.marks.clone()} />
                        </div>
                    },
                    _ => html! { <div class="classes">{ field(k) }</div> },
                }) }
            }
            <p class="actions">
                <button type="button" id="reset-scenario" onclick={reset}>{ "Preset values" }</button>
            </p>
        </form>
    }
}

/// One checkbox per policy of the model, then one row per lane racing: its parameters (from
/// the registry, with their ranges), a button adding another lane of the same policy, and
/// one removing the lane. At most [`MAX_POLICIES`] lanes.
#[component]
fn PolicyPicker(props: &LabControlsProps) -> Html {
    let chosen = &props.lab.setup.policies;
    let full = chosen.len() >= MAX_POLICIES;
    html! {
        <fieldset class="policies" id="policies">
            <legend>{ format!("Policies (1 to {MAX_POLICIES} lanes, side by side)") }</legend>
            <div class="checks">
                { for policies_of(props.lab.setup.scenario.info().id).map(|meta| {
                    let checked = chosen.iter().any(|p| p.name() == meta.name);
                    let name = meta.name;
                    let toggle = props.dispatch.reform(move |_: Event| Action::TogglePolicy(name));
                    html! {
                        <label class="check" title={meta.summary}>
                            <input type="checkbox" name="policy" value={meta.name} {checked}
                                disabled={full && !checked} onchange={toggle} />
                            // A long name may break after its "+" (DRA+Preemption) in a narrow column.
                            <span>{ for meta.label.split_inclusive('+').map(|part| html! { <>{ part }<wbr /></> }) }</span>
                        </label>
                    }
                }) }
            </div>
            <ol class="lanes-setup" id="lanes-setup" aria-label="Lanes and their parameters">
                { for chosen.iter().enumerate().map(|(lane, spec)| html! {
                    <LaneRow key={spec.to_string()} {lane} lab={props.lab.clone()} dispatch={props.dispatch.clone()} />
                }) }
            </ol>
            <Notice lab={props.lab.clone()} field="policy" />
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
struct LaneRowProps {
    lane: usize,
    lab: Rc<Lab>,
    dispatch: Callback<Action>,
}

/// One lane: its label, a field per parameter (empty means the default, shown greyed), and
/// buttons to add another lane of the policy or remove this one.
#[component]
fn LaneRow(props: &LaneRowProps) -> Html {
    let setup = &props.lab.setup;
    let Some(spec) = setup.policies.get(props.lane) else { return html! {} };
    let lane = props.lane;
    let label = setup.scenario.policy_label(spec);
    let name = spec.name();
    let full = setup.policies.len() >= MAX_POLICIES;
    let alone = setup.policies.len() == 1;
    let add = props.dispatch.reform(move |_: MouseEvent| Action::AddPolicy(name));
    let remove = props.dispatch.reform(move |_: MouseEvent| Action::RemovePolicy(lane));
    let field = |param: &'static Param| {
        let key = param.key;
        let id = format!("lane-{}-{key}", lane + 1);
        let onchange = props.dispatch.reform(move |e: Event| Action::SetPolicyParam {
            lane,
            key: key.into(),
            value: value_of(&e),
        });
        let title = format!("{} ({})", param.help, param.range());
        let caption = param.symbol.unwrap_or(key);
        let input = match param.kind {
            ParamKind::Choice(options) => {
                let current = spec.param_or_default(key).unwrap_or_default();
                html! {
                    <select {id} {onchange} title={title.clone()} aria-label={format!("{label}: {key}")}>
                        if param.default.is_none() {
                            <option value="" selected={current.is_empty()}>{ "default" }</option>
                        }
                        { for options.iter().map(|o| html! { <option value={*o} selected={*o == current}>{ *o }</option> }) }
                    </select>
                }
            }
            _ => {
                // Empty means the default: the value the policy would use is the placeholder.
                let value = spec.param(key).unwrap_or_default().to_string();
                let placeholder = setup
                    .scenario
                    .policy_param(&spec.with_param(key, "").unwrap_or(spec.clone()), key)
                    .unwrap_or_else(|| "default".into());
                let numeric = matches!(param.kind, ParamKind::Int { .. } | ParamKind::ScenarioInt { .. });
                html! {
                    <input {id} {onchange} {value} title={title.clone()} size="5" placeholder={placeholder}
                        inputmode={numeric.then_some("numeric")} aria-label={format!("{label}: {key}")} />
                }
            }
        };
        html! { <label class="param" {title}><span>{ caption }</span>{ input }</label> }
    };
    html! {
        <li class="lane-setup" data-policy={spec.to_string()}>
            <span class="lane-name">{ format!("{}. {label}", lane + 1) }</span>
            { for spec.meta().params.iter().map(field) }
            <span class="lane-buttons">
                <button type="button" class="add-lane" onclick={add} disabled={full}
                    title={format!("race another {} lane, to set other parameters", spec.meta().label)}
                    aria-label={format!("add another {} lane", spec.meta().label)}>{ "+" }</button>
                <button type="button" class="remove-lane" onclick={remove} disabled={alone}
                    aria-label={format!("remove lane {} ({label})", lane + 1)}>{ "×" }</button>
            </span>
        </li>
    }
}

#[derive(Properties, PartialEq)]
pub struct KeyFieldProps {
    /// The scenario key (`servers`, `load`, …).
    pub name: &'static str,
    pub label: AttrValue,
    /// The input type.
    pub kind: &'static str,
    pub lab: Rc<Lab>,
    pub dispatch: Callback<Action>,
}

/// An input for one scenario key. A rejected value stays in the box, with the message under
/// it, until it is fixed; the scenario keeps its last valid value meanwhile.
#[component]
pub fn KeyField(props: &KeyFieldProps) -> Html {
    let draft = use_state(|| None::<String>);
    let key = props.name;
    let current = props.lab.setup.scenario.get(key).unwrap_or_default();
    let rejected = props.lab.notice_for(key).is_some();
    let value = if rejected { (*draft).clone().unwrap_or(current) } else { current };
    let help = props.lab.setup.scenario.keys().into_iter().find(|k| k.key == key).map(|k| k.help).unwrap_or_default();
    let onchange = {
        let (dispatch, draft) = (props.dispatch.clone(), draft.clone());
        Callback::from(move |e: Event| {
            let value = value_of(&e);
            draft.set(Some(value.clone()));
            dispatch.emit(Action::Set { key: key.to_string(), value });
        })
    };
    html! {
        <label class="field">
            <span title={help}>{ props.label.clone() }</span>
            <input id={format!("field-{key}")} name={key} type={props.kind} {value} {onchange}
                aria-invalid={rejected.to_string()} aria-describedby={rejected.then(|| notice_id(key))}
                inputmode={(props.kind == "number").then_some("numeric")} />
            <Notice lab={props.lab.clone()} field={key} />
        </label>
    }
}

/// The load α: a slider with the theory's marks, and the exact value.
#[component]
fn LoadField(props: &LabControlsProps) -> Html {
    let load = props.lab.setup.scenario.load();
    let slide = props.dispatch.reform(|e: Event| Action::Set { key: "load".into(), value: value_of(&e) });
    // A fixed end, or a little past the capacity bound (the first mark), so the slider can
    // show the unstable side too.
    let knob = props.lab.setup.scenario.info().load;
    let (mut name, mut title, step) = (knob.name, knob.help, knob.step);
    // A replayed trace (PG-RR, MSFQ) takes the knob as its traffic scaling.
    if props.lab.setup.scenario.get("trace").is_some_and(|t| t != "none")
        && props.lab.setup.scenario.info().id != "pgas"
    {
        (name, title) = ("Traffic scaling 1/β", "submit times are divided by 1/β; durations are kept");
    }
    let max = match knob.slider {
        SliderMax::Fixed(max) => max,
        SliderMax::PastFirstMark(factor) => {
            let bound = props.marks.first().map_or(2.0 * load, |m| m.load);
            (factor * bound * 100.0).ceil() / 100.0
        }
    };
    let marks: Vec<String> = props
        .marks
        .iter()
        .map(|m| {
            if m.label.contains("α =") || m.label.contains("λ =") || m.label.contains("ζ =") {
                m.label.clone()
            } else {
                format!("{} = {}", m.label, packlab_plot::tick(m.load))
            }
        })
        .collect();
    html! {
        <div class="field load">
            <label for="field-load"><span {title}>{ name }</span></label>
            <div class="load-row">
                <input type="range" id="load-slider" min="0.05" max={max.to_string()} step={step.to_string()}
                    value={load.to_string()} list="load-marks" onchange={slide} aria-label={format!("{name} slider")} />
                <KeyField name="load" label="" kind="text" lab={props.lab.clone()} dispatch={props.dispatch.clone()} />
            </div>
            <datalist id="load-marks">
                { for props.marks.iter().map(|m| html! { <option value={m.load.to_string()} label={m.label.clone()} /> }) }
            </datalist>
            <p class="hint">{ marks.join(" · ") }</p>
        </div>
    }
}

/// The change handler of a file input: reads the chosen file and dispatches what `parse` makes
/// of its text, or its error (prefixed "uploaded CSV:") as a notice on the error's key.
fn csv_upload(
    dispatch: &Callback<Action>,
    parse: impl Fn(&str) -> Result<Action, ConfigError> + 'static,
) -> Callback<Event> {
    let (dispatch, parse) = (dispatch.clone(), Rc::new(parse));
    Callback::from(move |e: Event| {
        let Some(input) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let (dispatch, parse) = (dispatch.clone(), parse.clone());
        wasm_bindgen_futures::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            let text = text.ok().and_then(|t| t.as_string()).unwrap_or_default();
            match parse(&text) {
                Ok(action) => dispatch.emit(action),
                Err(mut e) => {
                    e.message = format!("uploaded CSV: {}", e.message);
                    dispatch.emit(Action::Reject(e));
                }
            }
        });
    })
}

/// The job classes of the multiserver-job model: the `classes` key as text, and a CSV upload
/// (need, probability, mean_size per line) for tables such as Borg's (msfq-d6).
#[component]
fn ClassEditor(props: &LabControlsProps) -> Html {
    // The CSV becomes the `classes` key's text form; a bad table shows its message (naming the
    // line) under the field.
    let upload = csv_upload(&props.dispatch, |text| {
        JobClasses::from_csv(text).map(|classes| Action::Set { key: "classes".into(), value: classes.to_string() })
    });
    html! {
        <div class="classes">
            <KeyField name="classes" label="Job classes (need@probability@mean size, …)" kind="text"
                lab={props.lab.clone()} dispatch={props.dispatch.clone()} />
            <label class="field">
                <span>{ "…or upload a CSV (need, probability, mean_size)" }</span>
                <input type="file" id="classes-file" accept=".csv,text/csv" onchange={upload} />
            </label>
        </div>
    }
}

/// A trace file to replay: Google task_events parts (PG-RR, PG-AS), an SWF log (MSFQ) or, for
/// PG-AS, its task CSV; picked, dropped on the box, or the bundled synthetic sample. The file
/// is read streaming with a progress bar (see [`crate::trace_file`]); its summary stays shown.
/// A bad file is named by file, line and field under the box.
#[component]
fn TraceFiles(props: &LabControlsProps) -> Html {
    let progress = use_state(|| None::<Progress>);
    let summary = use_state(|| None::<Rc<TraceStats>>);
    let scenario = &props.lab.setup.scenario;
    let model = scenario.info().id;
    let (accept, sample, what) = match model {
        "msfq" => (".swf,.gz,text/plain", "samples/synthetic-128.swf", "an SWF log"),
        "pgas" => (
            ".csv,.gz,text/csv",
            "samples/google-task-events.csv.gz",
            "Google task_events part files, or a CSV of submit time, duration, size, priority",
        ),
        _ => {
            (".csv,.gz,text/csv", "samples/google-task-events.csv.gz", "Google task_events part files (plain or gzip)")
        }
    };
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
    let loaded = match scenario {
        packlab_core::scenario::Scenario::Pgas(s) => s.trace.as_ref().map(|t| t.0.len()),
        _ => None,
    };
    let loaded = scenario.get("trace").filter(|t| t.len() == 16).map(|t| match loaded {
        Some(n) => format!("{n} tasks of trace {t} loaded: links name it so"),
        None => format!("trace {t} loaded: links name it so"),
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
    let servers = servers.filter(|_| matches!(loaded, Loaded::Google(_) | Loaded::TaskCsv(_)));
    let stats = stats(&loaded, servers);
    let kept = packlab_core::trace::keep(loaded);
    if let Some(worker) = worker {
        worker.has_trace(kept.name());
    }
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

#[derive(Properties, PartialEq)]
struct TraceSummaryProps {
    stats: Rc<TraceStats>,
}

/// What a loaded trace holds: counts, span, the size or need histogram, the offered load.
#[component]
fn TraceSummary(props: &TraceSummaryProps) -> Html {
    let s = &props.stats;
    let most = s.histogram.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
    let (width, height) = (12.0, 48.0);
    let skipped: Vec<String> = s.skipped.iter().map(|(r, n)| format!("{r} {}", group_digits(*n))).collect();
    let (unit, per) = (s.time_unit, if s.time_unit == "s" { "second" } else { "time unit" });
    html! {
        <div class="trace-summary" id="trace-summary">
            <p>
                { format!("{}: {} kept", s.format, group_digits(s.kept)) }
                if !skipped.is_empty() { { format!("; skipped {}", skipped.join(", ")) } }
            </p>
            <p>{ format!(
                "span {:.1} {unit}, {:.3} arrivals per {per}, mean run {:.1} {unit}, mean {} {:.3}{}",
                s.span_seconds,
                s.per_second,
                s.mean_run_seconds,
                if s.priorities.is_empty() { "need" } else { "size" },
                s.mean_size,
                match (s.servers, s.offered_load) {
                    (Some(l), Some(load)) => format!(", offered load {load:.3} on {l}"),
                    _ => String::new(),
                }
            ) }</p>
            <p class="hint">{ if s.priorities.is_empty() {
                "jobs by processors: 1, 2, 3–4, 5–8, …"
            } else {
                "tasks by size: (1/2, 1], (1/4, 1/2], … down to 1/1024"
            } }</p>
            <svg class="trace-histogram" role="img" width={(width * s.histogram.len() as f64).to_string()}
                height={height.to_string()}
                aria-label={format!("{} by {}", if s.priorities.is_empty() { "jobs" } else { "tasks" },
                    if s.priorities.is_empty() { "processors" } else { "size" })}>
                { for s.histogram.iter().enumerate().map(|(i, bar)| {
                    let h = (bar.count as f64 / most * (height - 2.0)).max(if bar.count > 0 { 1.0 } else { 0.0 });
                    html! {
                        <rect x={(i as f64 * width + 1.0).to_string()} y={(height - h).to_string()}
                            width={(width - 2.0).to_string()} height={h.to_string()}>
                            <title>{ format!("{}: {}", bar.label, group_digits(bar.count)) }</title>
                        </rect>
                    }
                }) }
            </svg>
            <p class="hint">{ format!("fingerprint {}", s.fingerprint) }</p>
        </div>
    }
}

/// What the size editor is editing.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeDraft {
    Uniform { lo: String, hi: String },
    Discrete(Vec<(String, String)>),
}

impl SizeDraft {
    /// From the `size` key's text (`uniform:LO,HI` or `discrete:S@P,...`).
    pub fn from_text(text: &str) -> Self {
        match text.split_once(':') {
            Some(("uniform", rest)) => {
                let (lo, hi) = rest.split_once(',').unwrap_or((rest, ""));
                SizeDraft::Uniform { lo: lo.into(), hi: hi.into() }
            }
            Some((_, rest)) => SizeDraft::Discrete(
                rest.split(',')
                    .map(|pair| {
                        let (s, p) = pair.split_once('@').unwrap_or((pair, ""));
                        (s.to_string(), p.to_string())
                    })
                    .collect(),
            ),
            None => SizeDraft::Uniform { lo: String::new(), hi: String::new() },
        }
    }

    /// The `size` key's text.
    pub fn to_text(&self) -> String {
        match self {
            SizeDraft::Uniform { lo, hi } => format!("uniform:{},{}", lo.trim(), hi.trim()),
            SizeDraft::Discrete(rows) => {
                let pairs: Vec<String> = rows.iter().map(|(s, p)| format!("{}@{}", s.trim(), p.trim())).collect();
                format!("discrete:{}", pairs.join(","))
            }
        }
    }
}

/// A change to the size draft from an input's new value.
type DraftEdit = dyn Fn(&mut SizeDraft, String);

/// The job-size distribution: uniform on [a, b], or a table of sizes and probabilities.
#[component]
fn SizeEditor(props: &LabControlsProps) -> Html {
    let current = props.lab.setup.scenario.get("size").unwrap_or_default();
    let draft = use_state(|| SizeDraft::from_text(&current));
    {
        // A new preset, a reset or a link replaces the draft.
        let draft = draft.clone();
        use_effect_with(current.clone(), move |text| draft.set(SizeDraft::from_text(text)));
    }
    let edit = |f: Rc<DraftEdit>| {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let mut next = (*draft).clone();
            f(&mut next, value_of(&e));
            draft.set(next);
        })
    };
    let kind = edit(Rc::new(|d, v| {
        *d = if v == "uniform" {
            SizeDraft::Uniform { lo: "0.1".into(), hi: "0.9".into() }
        } else {
            SizeDraft::Discrete(vec![("0.4".into(), "1/2".into()), ("0.6".into(), "1/2".into())])
        }
    }));
    let apply = {
        let (draft, dispatch) = (draft.clone(), props.dispatch.clone());
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::Set { key: "size".into(), value: draft.to_text() }))
    };
    let body = match &*draft {
        SizeDraft::Uniform { lo, hi } => html! {
            <div class="size-row">
                <label>{ "from " }<input id="size-lo" size="6" value={lo.clone()}
                    onchange={edit(Rc::new(|d, v| if let SizeDraft::Uniform { lo, .. } = d { *lo = v }))} /></label>
                <label>{ " to " }<input id="size-hi" size="6" value={hi.clone()}
                    onchange={edit(Rc::new(|d, v| if let SizeDraft::Uniform { hi, .. } = d { *hi = v }))} /></label>
            </div>
        },
        SizeDraft::Discrete(rows) => html! {
            <table class="size-table">
                <thead><tr><th>{ "size" }</th><th>{ "probability" }</th><th /></tr></thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, (s, p))| html! {
                        <tr key={i}>
                            <td><input size="6" aria-label={format!("size {}", i + 1)} value={s.clone()}
                                onchange={edit(Rc::new(move |d, v| if let SizeDraft::Discrete(r) = d { r[i].0 = v }))} /></td>
                            <td><input size="6" aria-label={format!("probability {}", i + 1)} value={p.clone()}
                                onchange={edit(Rc::new(move |d, v| if let SizeDraft::Discrete(r) = d { r[i].1 = v }))} /></td>
                            <td><button type="button" aria-label={format!("remove row {}", i + 1)} disabled={rows.len() == 1}
                                onclick={let draft = draft.clone(); Callback::from(move |_: MouseEvent| {
                                    let mut next = (*draft).clone();
                                    if let SizeDraft::Discrete(r) = &mut next { r.remove(i); }
                                    draft.set(next);
                                })}>{ "×" }</button></td>
                        </tr>
                    }) }
                </tbody>
                <tfoot><tr><td colspan="3">
                    <button type="button" onclick={let draft = draft.clone(); Callback::from(move |_: MouseEvent| {
                        let mut next = (*draft).clone();
                        if let SizeDraft::Discrete(r) = &mut next { r.push((String::new(), String::new())); }
                        draft.set(next);
                    })}>{ "+ size" }</button>
                </td></tr></tfoot>
            </table>
        },
    };
    let is_uniform = matches!(*draft, SizeDraft::Uniform { .. });
    html! {
        <fieldset class="size" id="size-editor">
            <legend>{ "Job sizes (fractions of a server)" }</legend>
            <select id="size-kind" aria-label="Size distribution" onchange={kind}>
                <option value="uniform" selected={is_uniform}>{ "uniform on [a, b]" }</option>
                <option value="discrete" selected={!is_uniform}>{ "discrete values" }</option>
            </select>
            { body }
            <button type="button" id="size-apply" onclick={apply}>{ "Apply sizes" }</button>
            <code class="hint">{ format!("size={current}") }</code>
            <Notice lab={props.lab.clone()} field="size" />
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
pub struct NoticeProps {
    pub lab: Rc<Lab>,
    pub field: &'static str,
}

/// The rejection message of one field, if any. Its input points at it with
/// `aria-describedby`; the page's notice list (a live region) is what announces it, once.
#[component]
pub fn Notice(props: &NoticeProps) -> Html {
    match props.lab.notice_for(props.field) {
        Some(e) => html! { <span class="field-error" id={notice_id(props.field)}>{ e.to_string() }</span> },
        None => html! {},
    }
}

/// The id of field `key`'s rejection message.
pub fn notice_id(key: &str) -> String {
    format!("error-{key}")
}

#[derive(Properties, PartialEq)]
pub struct PlaybackProps {
    pub snapshot: Rc<Snapshot>,
    pub speed: Speed,
    pub dispatch: Callback<Action>,
    pub on_toggle: Callback<()>,
    pub on_step: Callback<()>,
    pub on_back: Callback<()>,
    /// Goes to a time within the run so far (the timeline).
    pub on_seek: Callback<f64>,
    pub on_restart: Callback<()>,
    /// Opens the list of keyboard shortcuts.
    pub on_help: Callback<()>,
    /// The page's link, to which "Link to this moment" adds the time.
    pub query: String,
}

/// Play/pause, step, reset, speed, progress and the measured pace.
#[component]
pub fn Playback(props: &PlaybackProps) -> Html {
    let s = &props.snapshot;
    // While playing, the timeline moves when the run has gone a 300th of its length further,
    // not every frame: redrawing the scrubber sixty times a second took frame time from the
    // simulation. Stopped, it shows the moment exactly.
    let timeline = use_mut_ref(|| s.clone());
    {
        let mut shown = timeline.borrow_mut();
        let moved = (s.now - shown.now).abs() >= s.furthest.max(1.0) / 300.0;
        if s.phase != Phase::Running || moved || shown.phase != s.phase {
            *shown = s.clone();
        }
    }
    let timeline = Shown(timeline.borrow().clone());
    let (label, pressed) = match s.phase {
        Phase::Running => ("Pause", true),
        Phase::Finished => ("Run again", false),
        Phase::Ready => ("Play", false),
        _ => ("Resume", false),
    };
    let failed = matches!(s.phase, Phase::Failed(_));
    let toggle = props.on_toggle.reform(|_: MouseEvent| ());
    let step = props.on_step.reform(|_: MouseEvent| ());
    let back = props.on_back.reform(|_: MouseEvent| ());
    let restart = props.on_restart.reform(|_: MouseEvent| ());
    let speed = props.dispatch.reform(|e: Event| Action::SetSpeed(value_of(&e)));
    let mut choices = Speed::CHOICES.to_vec();
    if !choices.contains(&props.speed) {
        choices.push(props.speed);
    }
    let (rate, simulating, thread) = match (&s.rate, &s.phase) {
        (Some(r), Phase::Running) => (
            format!(
                "{:.0} frames/s · {} {}/s",
                r.fps,
                group_digits(r.slots_per_second.round() as u64),
                s.model.time.plural()
            ),
            format!("{:.1}", r.simulating_ms),
            Some(if r.worker { "worker" } else { "page" }),
        ),
        _ => (String::new(), String::new(), None),
    };
    let thread_title = thread.map(|t| match t {
        "worker" => "Simulated in a Web Worker; the page only draws",
        _ => "Simulated on the page's own thread, between frames",
    });
    html! {
        <div class="playback">
            <button id="play" class="primary" onclick={toggle} disabled={failed}
                aria-pressed={pressed.to_string()} title="Space">{ label }</button>
            <button id="back" onclick={back} disabled={failed || s.now <= 0.0}
                title={format!("Left arrow: back one {}", step_unit(s))}>{ "◀ Back" }</button>
            <button id="step" onclick={step} disabled={failed || s.phase == Phase::Finished}
                title={format!("Right arrow: on one {}", step_unit(s))}>{ "Step ▶" }</button>
            <button id="restart" onclick={restart} disabled={s.slot == 0}>{ "Reset" }</button>
            <button id="shortcuts" class="small" onclick={props.on_help.reform(|_: MouseEvent| ())}
                title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">{ "?" }</button>
            <label class="speed">
                <span>{ "Speed" }</span>
                <select id="speed" name={SPEED_KEY} onchange={speed}>
                    { for choices.iter().map(|c| html! {
                        <option value={c.to_string()} selected={*c == props.speed}>{ c.label(s.model.time.plural()) }</option>
                    }) }
                </select>
            </label>
            <div class="progress">
                <progress max="1" value={s.progress().to_string()} aria-label="Progress to the horizon" />
                <span class="slots">
                    { format!(
                        "{} {} of {}",
                        s.model.time.prefix(),
                        group_digits(s.slot),
                        group_digits(s.horizon)
                    ) }
                </span>
                <span id="rate" class="rate" data-simulating-ms={simulating} data-thread={thread}
                    title={thread_title}>{ rate }</span>
            </div>
            <Timeline snapshot={timeline} on_seek={props.on_seek.clone()} query={props.query.clone()} />
        </div>
    }
}

/// What one step is: a slot, or an event in continuous time.
fn step_unit(s: &Snapshot) -> &'static str {
    match s.model.time {
        packlab_core::models::TimeUnit::Slots => "slot",
        packlab_core::models::TimeUnit::Continuous => "event",
    }
}

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub snapshot: Shown,
    pub on_seek: Callback<f64>,
    pub query: String,
}

/// The run so far as a scrubber: drag or click to go back to any moment (the race replays it
/// exactly from its checkpoints), then play on. A link can open at the moment shown.
#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let s = &props.snapshot.0;
    let unit = s.model.time;
    let furthest = s.furthest.floor().max(s.now.ceil());
    let seek = props.on_seek.reform(|e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        input.value_as_number()
    });
    // A moment between two whole units (a step to an event) is written exactly.
    let now = moment(s.now);
    let (count, bytes) = s.checkpoints;
    let memory = format!(
        "Going back replays from the nearest of {count} checkpoints ({:.1} MB, at most {} MB).",
        bytes as f64 / 1e6,
        crate::play::checkpoints::BUDGET_BYTES >> 20
    );
    let link = {
        let separator = if props.query.is_empty() { "" } else { "&" };
        // Exactly this moment: an event's time prints as the shortest text that reads back to it.
        format!("?{}{separator}{}={}", props.query, crate::state::link::TIME_KEY, s.now)
    };
    // Whole units in slotted time; any moment in continuous time, so the knob sits where the
    // run is after a step to an event.
    let step = if unit == packlab_core::models::TimeUnit::Slots { "1" } else { "any" };
    let end = group_digits(furthest as u64);
    html! {
        <div class="timeline" id="timeline" data-now={s.now.to_string()} data-furthest={s.furthest.to_string()}
            data-checkpoints={count.to_string()} data-checkpoint-bytes={bytes.to_string()}>
            <label for="scrubber" class="timeline-label" title="Drag or click to go back to any moment of the run so far; ← steps back">
                { "Timeline" }</label>
            <span class="end">{ "0" }</span>
            <input type="range" id="scrubber" min="0" max={furthest.to_string()} {step} value={s.now.to_string()}
                disabled={furthest <= 0.0} oninput={seek} title={memory}
                aria-valuetext={format!("{} {now}", unit.prefix())} />
            <span class="end" title="How far the run has got">{ end }</span>
            <span class="now">{ format!("{} {now}", unit.prefix()) }</span>
            <a id="moment-link" class="small" href={link}
                title="This page's link, opening at this moment">{ "Link to this moment" }</a>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_drafts_round_trip() {
        for text in ["uniform:0.1,0.9", "discrete:0.4@1/2,0.6@1/2", "discrete:0.2@0.25"] {
            assert_eq!(SizeDraft::from_text(text).to_text(), text);
        }
        let mut d = SizeDraft::from_text("discrete:0.4@1/2,0.6@1/2");
        if let SizeDraft::Discrete(rows) = &mut d {
            rows.push(("0.1".into(), " 0 ".into()));
        }
        assert_eq!(d.to_text(), "discrete:0.4@1/2,0.6@1/2,0.1@0");
    }
}
