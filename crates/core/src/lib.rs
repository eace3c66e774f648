//! packlab-core: the simulation core of packlab.
//!
//! It holds the cluster models of the four source papers (see `SPEC.md`), their scheduling
//! policies, the workload generators, the metrics and the preset scenarios. It has no web or
//! file-system dependencies and builds for `wasm32-unknown-unknown`, so the browser and the
//! native CLI run exactly the same code.
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
//!   scheduling, measurement. The continuous-time engine (later models) orders events by
//!   `(time, sequence)` with first-in-first-out ties.
//!
//! # Layout
//!
//! * [`model`]: jobs, servers and resource vectors in integer units (SPEC RES-3).
//! * [`index`]: the ordered structures that keep per-job cost logarithmic.
//! * [`workload`]: arrival, size and service samplers.
//! * [`engine`]: the slotted engine that validates and applies policy decisions.
//! * [`policy`]: one file per policy, each citing the paper section it implements.
//! * [`metrics`]: time averages, bounded series, confidence intervals, the instability verdict.
//! * [`scenario`]: the serde scenario type shared by presets, CLI flags and URL links.
//! * [`theory`]: the papers' bounds, drawn next to the simulations.
//! * [`view`]: what the page shows of a live run, the same for every model.

pub mod engine;
pub mod error;
pub mod index;
pub mod metrics;
pub mod model;
pub mod policy;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod theory;
pub mod view;
pub mod workload;

pub use error::{ConfigError, EngineError};
