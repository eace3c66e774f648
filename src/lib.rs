//! packlab in the browser: the simulation core stepping live in WebAssembly.
//!
//! * [`lab`]: the state of the controls, its reducer and the link codec (no browser API);
//! * [`race`]: the policies' simulations, stepped in lockstep (no browser API);
//! * [`snapshot`]: the immutable picture of a race that components render;
//! * [`driver`]: a race in play: the controls' commands and slices of play at a speed;
//! * [`runner`]: plays a race for the page and publishes its snapshots;
//! * [`race_thread`], [`race_host`]: the race worker, from the page's side and its own;
//! * [`frame_loop`]: the requestAnimationFrame loop, cancelled on drop;
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
pub mod driver;
pub mod export;
pub mod format;
pub mod frame_loop;
pub mod gallery;
pub mod inspector;
pub mod lab;
pub mod memory;
pub mod race;
pub mod race_host;
pub mod race_thread;
pub mod runner;
pub mod snapshot;
pub mod stats;
pub mod sweep;
pub mod timeline;
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
