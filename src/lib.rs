//! packlab in the browser: the simulation core stepping live in WebAssembly.
//!
//! * [`race`]: the policies' simulations, stepped in lockstep (no browser API);
//! * [`snapshot`]: the immutable picture of a race that components render;
//! * [`runner`]: drives a race from requestAnimationFrame and publishes snapshots;
//! * [`frame_loop`]: the requestAnimationFrame loop, cancelled on drop;
//! * [`app`], [`chart`], [`stats`]: thin Yew components.

pub mod app;
pub mod chart;
pub mod frame_loop;
pub mod race;
pub mod runner;
pub mod snapshot;
pub mod stats;

/// Mounts the app on `<body>`.
pub fn start() {
    yew::Renderer::<app::App>::new().render();
}
