//! packlab in the browser: the simulation core stepping live in WebAssembly.
//!
//! * [`state`]: the state of the controls, its reducer and the link codec (no browser API);
//! * [`play`]: playing a run: the race in lockstep, its commands, the race worker, the
//!   session a component plays it through, checkpoints, snapshots;
//! * [`dom`]: the DOM and worker plumbing the page shares, and the message a panic leaves;
//! * [`format`]: numbers for people;
//! * [`sweep`]: a preset's swept figure, run in Web Workers;
//! * [`gallery`]: the landing view, every preset as a card with a live thumbnail;
//! * [`app`], [`controls`], [`cluster`], [`chart`], [`stats`], [`export`]: components that
//!   draw and dispatch; none of them simulates.

// These docs are for the crate's developers, built with `--document-private-items`
// (scripts/test denies rustdoc warnings there), so links to private items resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod app;
pub mod bench;
pub mod bounds;
pub mod canvas_size;
pub mod chart;
pub mod cluster;
pub mod controls;
pub mod dom;
pub mod export;
pub mod format;
pub mod gallery;
pub mod inspector;
pub mod play;
pub mod state;
pub mod stats;
pub mod sweep;
pub mod trace_file;

/// Mounts the app on `<body>`, with a panic hook that shows what happened on the page. In a
/// Web Worker (the sweep's, which loads this same module) there is no page: nothing to do.
pub fn start() {
    if web_sys::window().is_none() {
        return;
    }
    dom::crash::install();
    yew::Renderer::<app::App>::new().render();
}
