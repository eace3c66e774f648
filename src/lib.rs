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
//! * [`first_paint`]: the page's first picture, written when the page is built;
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
pub mod first_paint;
pub mod hooks;
pub mod play;
pub mod state;
pub mod sweep;
pub mod trace_file;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

thread_local! {
    /// The app on the page, until [`stop_page`] takes it down.
    static APP: RefCell<Option<yew::AppHandle<components::app::App>>> = const { RefCell::new(None) };
}

/// What the binary's `main` does when the wasm is instantiated: on a page, installs the panic
/// hook that shows what happened. In a Web Worker (the race's and the sweep's load this same
/// module) there is no page: only the clock is lent, there as here. The app itself is mounted
/// by [`mount_page`], which www/boot.js calls in a task of its own: instantiating the wasm and
/// drawing the page are each a long task on a slow phone, and one after the other they would
/// block it for longer.
pub fn start() {
    // Scripts' wall-clock safety net (the core has no clock of its own in the browser); their
    // budget proper counts operations and needs none.
    packlab_core::script::set_clock(dom::workers::now_ms);
    if web_sys::window().is_none() {
        return;
    }
    dom::crash::install();
}

/// Mounts the app on `#app` (else `<body>`): www/boot.js calls it once the wasm is ready.
#[wasm_bindgen]
pub fn mount_page() {
    if APP.with_borrow(Option::is_some) {
        return;
    }
    let Some(root) = dom::boot::app_root() else { return };
    let handle = yew::Renderer::<components::app::App>::with_root(root).render();
    APP.set(Some(handle));
}

/// Takes the app down (its races, workers and listeners stop), for the build with the script
/// engine to start in its place ([`dom::boot::load_scripts`]).
#[wasm_bindgen]
pub fn stop_page() {
    if let Some(handle) = APP.take() {
        handle.destroy();
    }
}
