//! packlab-core: the simulation core of packlab.
//!
//! It holds the cluster models of the four source papers (see the README), their scheduling
//! policies, the workload generators, the metrics and the preset scenarios. It has no web or
//! file-system dependencies and builds for `wasm32-unknown-unknown`, so the browser and the
//! native CLI run exactly the same code.
//!
//! Comments cite the implementation spec's resolutions of what the papers leave open by id
//! (`RES-14`); `docs/resolutions.md` restates each one.
//!
//! # Determinism contract
//!
//! * A run is a pure function of its [`scenario::Scenario`], its policy and its seed: the same
//!   inputs give the same trajectory, natively and in WebAssembly, bit for bit.
//! * Every run owns its random numbers. They come from named, portable generators
//!   ([`rng::Streams`]), one stream per source: arrivals, job sizes, service times and policy
//!   coin flips. Switching the policy therefore never changes the arrivals (common random
//!   numbers), and two policies run side by side see the same jobs.
//! * Transcendental functions (`ln`, `exp`) go through the `libm` crate, never through the
//!   platform's math library, whose last bits differ between targets.
//! * Nothing that decides iterates a hash map. Ties are broken by explicit, documented rules
//!   (lowest index, earliest arrival, canonical order).
//! * Slotted time (PG-RR) runs the phases of SPEC 1.1 in a fixed order: departures, arrivals,
//!   scheduling, measurement. The continuous-time engines (MSFQ, GH-RA, PG-AS) order events by
//!   `(time, sequence)` with first-in-first-out ties ([`des`]).
//!
//! # Layout
//!
//! * [`model`]: the model contract, [`model::Model`], and what a model declares (its info,
//!   presets, report); model folders import it and nothing that lists every model.
//! * [`models`]: one folder per model of the papers (PG-RR, MSFQ, GH-RA, PG-AS), each with its
//!   scenario, policies (one file each), engine, statistics, live view, summary, theory and
//!   presets; and the one place that lists them (the [`models::Scenario`] enum and lookups).
//! * [`scenario`]: the scenario of any model, links and the preset catalogue.
//! * [`policy`] ([`model::policy`]): the policy registry and the specs users write (`vqs:j=7`).
//! * [`keys`]: scenario keys, each declared once with its range and form field.
//! * [`window`]: the run window (seed, horizon, warm-up, series grid) every scenario carries.
//! * [`report`]: running to the horizon and the report every model shares.
//! * [`view`]: what the page shows of a live run, the same for every model.
//! * Shared kernels: [`des`] (the event queue and driver of the continuous-time engines),
//!   [`index`] (ordered structures that keep per-event cost logarithmic), [`metrics`] (time
//!   averages, bounded series, confidence intervals, the instability verdict), [`resources`]
//!   (resource vectors and configurations), [`workload`] (samplers), [`rng`] (streams),
//!   [`limits`] and [`error`].

// These docs are for the crate's developers, built with `--document-private-items`
// (scripts/test denies rustdoc warnings there), so links to private items resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod bench;
pub mod changes;
pub mod decisions;
pub mod des;
pub mod error;
pub mod exercises;
pub mod format;
pub mod graph;
pub mod index;
pub mod interned;
pub mod keys;
pub mod limits;
pub mod link;
pub mod metrics;
pub mod model;
pub mod models;
pub mod page;
pub mod report;
pub mod resources;
pub mod rng;
pub mod scenario;
pub mod script;
pub mod stability;
pub mod sweep;
pub mod tours;
pub mod trace;
pub mod view;
pub mod window;
pub mod workload;

pub use error::{ConfigError, EngineError, Moment};
/// The policy registry, part of the model contract ([`model::policy`]).
pub use model::policy;
