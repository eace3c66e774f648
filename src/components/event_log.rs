//! The event log: the last decisions of every lane with their one-line reasons, filtered by
//! lane, job, server or bin ([`Inspect`]), with the decision picked shown in the
//! [inspector](crate::components::inspector) beside it. Its CSV has the columns of
//! `packlab run --events`.
//!
//! The decisions come from the core ([`packlab_core::decisions`]) in each snapshot; this
//! module only filters and draws them.

use packlab_core::decisions::{CSV_HEADER, Decision};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::cluster::layout::Hit;
use crate::components::inspector::{Picked, inspector};
use crate::dom::page::download;
use crate::play::snapshot::{Shown, Snapshot};
use packlab_core::format::moment;

/// Rows the log shows, newest first (the CSV has every decision kept).
const ROWS: usize = 60;

/// What the person is looking at: the filters and the decision picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Inspect {
    /// One lane (its index), or every lane.
    pub lane: Option<usize>,
    pub job: Option<u64>,
    /// A server, by index (shown from 1).
    pub server: Option<u32>,
    pub bin: Option<u16>,
    /// The decision in the inspector: its lane and number.
    pub picked: Option<(usize, u64)>,
}

impl Inspect {
    /// Whether `d` of lane `lane` passes the filters.
    fn admits(&self, lane: usize, d: &Decision) -> bool {
        self.lane.is_none_or(|l| l == lane)
            && self.job.is_none_or(|j| d.job == Some(j))
            && self.server.is_none_or(|s| d.server == Some(s) || d.from == Some(s))
            && self.bin.is_none_or(|b| d.bin == Some(b))
    }

    /// What a click on lane `lane`'s canvas asks: its server's, job's or bin's decisions,
    /// with the latest of them picked.
    pub fn after_hit(snapshot: &Snapshot, lane: usize, hit: Hit) -> Self {
        let mut next = match hit {
            // A job: every lane's decisions about it, side by side.
            Hit::Job { job, .. } => Inspect { job: Some(job), ..Inspect::default() },
            Hit::Server(s) => Inspect { lane: Some(lane), server: Some(s as u32), ..Inspect::default() },
            Hit::Bin(b) => Inspect { lane: Some(lane), bin: Some(b as u16), ..Inspect::default() },
            // A job the model does not name: the decisions of its kind on its server.
            Hit::Block { server, bin } => {
                Inspect { lane: Some(lane), server: Some(server as u32), bin: Some(bin as u16), ..Inspect::default() }
            }
        };
        let in_lane = Inspect { lane: Some(lane), ..next };
        next.picked = rows(snapshot, &in_lane).first().map(|(l, d)| (*l, d.seq));
        next
    }
}

/// The decisions passing the filters, newest first (by time, then lane, then number).
fn rows<'s>(snapshot: &'s Snapshot, inspect: &Inspect) -> Vec<(usize, &'s Decision)> {
    let mut rows: Vec<(usize, &Decision)> = snapshot
        .lanes
        .iter()
        .enumerate()
        .flat_map(|(l, lane)| lane.decisions.iter().map(move |d| (l, d)))
        .filter(|(l, d)| inspect.admits(*l, d))
        .collect();
    rows.sort_by(|a, b| b.1.time.total_cmp(&a.1.time).then(b.0.cmp(&a.0)).then(b.1.seq.cmp(&a.1.seq)));
    rows
}

/// The kept decisions passing the filters, oldest first, as `packlab run --events` writes them
/// (with the page's provenance lines first).
pub fn decisions_csv(snapshot: &Snapshot, inspect: &Inspect, link: &str) -> Result<String, csv::Error> {
    let head = format!("# packlab {} decisions\n# link: {link}\n", env!("CARGO_PKG_VERSION")).into_bytes();
    let mut out = csv::Writer::from_writer(head);
    out.write_record(CSV_HEADER)?;
    for (l, lane) in snapshot.lanes.iter().enumerate() {
        for d in lane.decisions.iter().filter(|d| inspect.admits(l, d)) {
            out.write_record(d.csv_fields(&lane.policy, &snapshot.bin_labels))?;
        }
    }
    let bytes = out.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of text is UTF-8"))
}

#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// The race as it last stopped: while it plays, the page hands the log the same snapshot
    /// every frame, so the log is not drawn again sixty times a second for nothing (it keeps no
    /// decisions while playing).
    pub snapshot: Shown,
    /// Whether the race plays: the log then says how to see decisions instead of listing them.
    pub playing: bool,
    pub inspect: Inspect,
    pub on_inspect: Callback<Inspect>,
    /// The page's link, for the CSV's header.
    pub link: String,
    /// The file name's stem.
    pub name: String,
}

/// The event log with its filters, and the inspector beside it.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let s = &props.snapshot.0;
    let inspect = props.inspect;
    let all = if props.playing { Vec::new() } else { rows(s, &inspect) };
    let time = s.model.time.prefix();
    let set = |f: fn(&mut Inspect, String)| {
        let on_inspect = props.on_inspect.clone();
        move |value: String| {
            let mut next = inspect;
            f(&mut next, value);
            next.picked = None;
            on_inspect.emit(next);
        }
    };
    let on_lane = {
        let set = set(|i, v| i.lane = v.parse().ok());
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_job = {
        let set = set(|i, v| i.job = v.trim().parse().ok());
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let on_server = {
        let set = set(|i, v| i.server = v.trim().parse::<u32>().ok().filter(|&s| s >= 1).map(|s| s - 1));
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let clear = props.on_inspect.reform(|_: MouseEvent| Inspect::default());
    let export = {
        let (snapshot, link, name) = (s.clone(), props.link.clone(), props.name.clone());
        Callback::from(move |_: MouseEvent| {
            let saved = decisions_csv(&snapshot, &inspect, &link)
                .map_err(|e| format!("cannot write the CSV: {e}"))
                .and_then(|csv| {
                    let href = format!("data:text/csv;charset=utf-8,{}", js_sys::encode_uri_component(&csv));
                    download(&format!("{name}-decisions.csv"), &href)
                });
            if let Err(e) = saved {
                web_sys::console::warn_1(&e.into());
            }
        })
    };
    // The decision picked, or the newest one shown when none is. One picked but no longer kept
    // (the run went back before it) is said so, rather than silently showing another.
    let picked = match inspect.picked {
        Some((l, seq)) => match s.lanes.get(l).and_then(|lane| lane.decisions.iter().find(|d| d.seq == seq)) {
            Some(d) => Picked::Decision(l, d),
            None => Picked::Gone(l, seq),
        },
        None => all.first().map_or(Picked::Nothing, |&(l, d)| Picked::Decision(l, d)),
    };
    let kept: usize = s.lanes.iter().map(|l| l.decisions.len()).sum();
    let shown_picked =
        all.iter().take(ROWS).any(|&(l, d)| matches!(picked, Picked::Decision(pl, pd) if pl == l && pd.seq == d.seq));
    let bin_chip = inspect.bin.map(|b| s.bin_labels.get(usize::from(b)).cloned().unwrap_or_default());
    html! {
        <section class="event-log" id="event-log" aria-label="Decisions" data-rows={all.len().to_string()}>
            <h2>{ "Decisions, and why" }</h2>
            <p class="hint">
                { "Each policy's last decisions with the rule that made them. Click one to see what the rule \
                   looked at; click a server, a job or a bin in a lane to see its decisions." }
            </p>
            <div class="log-filters">
                <label>{ "Lane " }
                    <select id="log-lane" onchange={on_lane}>
                        <option value="" selected={inspect.lane.is_none()}>{ "all" }</option>
                        { for s.lanes.iter().enumerate().map(|(i, lane)| html! {
                            <option value={i.to_string()} selected={inspect.lane == Some(i)}>{ &lane.label }</option>
                        }) }
                    </select>
                </label>
                <label>{ "Job " }
                    <input id="log-job" type="number" min="0" step="1" placeholder="any" onchange={on_job}
                        value={inspect.job.map(|j| j.to_string()).unwrap_or_default()} />
                </label>
                <label>{ "Server " }
                    <input id="log-server" type="number" min="1" step="1" placeholder="any" onchange={on_server}
                        value={inspect.server.map(|s| (s + 1).to_string()).unwrap_or_default()} />
                </label>
                if let Some(bin) = bin_chip {
                    <span class="chip" id="log-bin">{ format!("bin {bin}") }</span>
                }
                <button type="button" class="small" id="log-clear" onclick={clear}>{ "Clear" }</button>
                <button type="button" class="small" id="log-export" onclick={export}
                    title="The decisions kept, with these filters, as CSV (the columns of packlab run --events)">
                    { "Export CSV" }</button>
                <span class="hint" id="log-count">{
                    if all.len() > ROWS {
                        format!("the newest {ROWS} of {} ({kept} kept); filter by lane, job or server for the rest", all.len())
                    } else {
                        format!("{} of {kept} kept", all.len())
                    }
                }</span>
            </div>
            <div class="log-and-inspector">
                // One Tab stop: the row picked (or the newest) takes it, and the arrows move
                // between rows, picking as they go (the listbox pattern). The page's own keys
                // (→ steps the run) stay out of it.
                <ol class="log" id="log" data-keys="own" onkeydown={Callback::from(move_in_log)}
                    aria-label="Decisions, newest first: up and down arrows move between them">
                    { for all.iter().take(ROWS).enumerate().map(|(row, &(l, d))| {
                        let lane = &s.lanes[l];
                        let selected = matches!(picked, Picked::Decision(pl, pd) if pl == l && pd.seq == d.seq);
                        let stop = selected || (row == 0 && !shown_picked);
                        let pick = {
                            let (on_inspect, seq) = (props.on_inspect.clone(), d.seq);
                            Callback::from(move |_: MouseEvent| on_inspect.emit(Inspect { picked: Some((l, seq)), ..inspect }))
                        };
                        html! {
                            <li class={classes!("decision", format!("policy-{}", lane.color % 7), selected.then_some("picked"))}
                                data-lane={lane.policy.clone()} data-seq={d.seq.to_string()} data-time={d.time.to_string()}
                                data-action={d.action} data-job={d.job.map(|j| j.to_string())}
                                data-server={d.server.map(|s| (s + 1).to_string())}>
                                <button type="button" onclick={pick} aria-pressed={selected.to_string()}
                                    tabindex={if stop { "0" } else { "-1" }}>
                                    <span class="when">{ format!("{time} {}", moment(d.time)) }</span>
                                    <span class="who">{ &lane.label }</span>
                                    <span class="what">{ &d.what }</span>
                                </button>
                            </li>
                        }
                    }) }
                    if all.is_empty() {
                        <li class="empty">{
                            if props.playing {
                                "Pause to see the decisions: playing keeps none (it would slow the run), and \
                                 pausing replays the last stretch exactly to find them."
                            } else {
                                "No decision kept matches: play on, step, or clear the filters."
                            }
                        }</li>
                    }
                </ol>
                { inspector(s, picked) }
            </div>
        </section>
    }
}

/// ↑ and ↓ (and Home, End) in the log: the focus goes to the row above or below, which is
/// picked, as a click would.
fn move_in_log(e: KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let key = e.key();
    if !matches!(key.as_str(), "ArrowUp" | "ArrowDown" | "Home" | "End") {
        return;
    }
    e.prevent_default();
    // Yew delegates events, so the current target is not the list: find it from the row.
    let target = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let Some(list) = target.and_then(|t| t.closest("ol.log").ok().flatten()) else { return };
    let Ok(buttons) = list.query_selector_all("li.decision > button") else { return };
    let count = buttons.length();
    if count == 0 {
        return;
    }
    let active = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
    let at =
        (0..count).find(|&i| buttons.item(i).is_some_and(|b| active.as_ref().is_some_and(|a| b.contains(Some(a)))));
    let next = match (key.as_str(), at) {
        ("Home", _) | ("ArrowDown", None) | ("ArrowUp", None) => 0,
        ("End", _) => count - 1,
        ("ArrowDown", Some(i)) => (i + 1).min(count - 1),
        (_, Some(i)) => i.saturating_sub(1),
        _ => 0,
    };
    if let Some(button) = buttons.item(next).and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = button.focus();
        button.click();
    }
}
