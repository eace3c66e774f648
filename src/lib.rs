//! packlab in the browser: the simulation core stepping live in WebAssembly.
//!
//! * [`state`]: the state of the controls, its reducer and the link codec (no browser API);
//! * [`play`]: playing a run: the race in lockstep, its commands, the race worker, the
//!   session a component plays it through, checkpoints, snapshots;
//! * [`components`]: the views and panels, one per file, that draw and dispatch; none of them
//!   simulates;
//! * [`hooks`]: hooks several components use;
//! * [`charts`], [`cluster`]: what the live charts plot and how they and the clusters are
//!   drawn on canvases;
//! * [`sweep`]: a preset's swept figure, run in Web Workers;
//! * [`export`]: the series as CSV and the charts as PNG or SVG;
//! * [`trace_file`]: reading a trace file in the page, streaming;
//! * [`dom`]: the DOM and worker plumbing the page shares, and the message a panic leaves;
//! * [`bench`](mod@bench): the engines timed in WebAssembly (`npm run bench:wasm`).

// These docs are for the crate's developers, built with `--document-private-items`
// (scripts/test denies rustdoc warnings there), so links to private items resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod bench;
pub mod charts;
pub mod cluster;
pub mod components;
pub mod dom;
pub mod export;
pub mod hooks;
pub mod play;
pub mod state;
pub mod sweep;
pub mod trace_file;

/// Mounts the app on `<body>`, with a panic hook that shows what happened on the page. In a
/// Web Worker (the race's and the sweep's, which load this same module) there is no page:
/// only the clock is lent, there as here.
pub fn start() {
    // Scripts' wall-clock safety net (the core has no clock of its own in the browser); their
    // budget proper counts operations and needs none.
    packlab_core::script::set_clock(dom::workers::now_ms);
    if web_sys::window().is_none() {
        return;
    }
    dom::crash::install();
    yew::Renderer::<components::app::App>::new().render();
}
