//! Share and export: the link to this run, the same run as a command, and the exports (the
//! series as CSV, each chart as PNG or SVG).

use std::rc::Rc;

use packlab_core::model::LoadMark;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::charts::kind::ChartKind;
use crate::charts::live::chart;
use crate::dom::page::current_link;
use crate::export::{self, ImageFormat};
use crate::play::frames::Frames;
use crate::play::snapshot::Snapshot;

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    /// The race as the lab last rendered it (which charts apply, their names).
    pub snapshot: Rc<Snapshot>,
    /// Every snapshot: an export is of the frame on screen when its button is pressed, which
    /// a playing race has drawn since the lab rendered.
    pub frames: Frames,
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
    /// The scenario's changes, as the charts mark them.
    #[prop_or_default]
    pub changes: Rc<packlab_plot::ChangeMarks>,
    /// Whether the race's charts are on the page (their PNG buttons).
    #[prop_or(true)]
    pub charts: bool,
}

/// The link to this run, a Copy button, and the exports.
#[component]
pub fn ShareAndExport(props: &ShareProps) -> Html {
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
        let (frames, name, status, link, seed) =
            (props.frames.clone(), props.name.clone(), status.clone(), link.clone(), props.seed);
        Callback::from(move |_: MouseEvent| report(&status, export::save_csv(&frames.latest(), &name, &link, seed)))
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
                        let (frames, marks, load) = (props.frames.clone(), props.marks.clone(), props.load);
                        let changes = props.changes.clone();
                        let (base, status) = (format!("{}-{}", props.name, kind.id()), status.clone());
                        Callback::from(move |_: MouseEvent| {
                            let snapshot = frames.latest();
                            let chart = chart(kind, &snapshot, &marks, load, &changes);
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

/// The name of chart `kind`, for its export buttons.
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
