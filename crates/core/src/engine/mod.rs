//! Simulation engines.
//!
//! * [`slotted`]: slotted time (PG-RR), phases per slot as in SPEC 1.1.
//!
//! The continuous-time discrete-event engine of the other three models arrives with them; it
//! will order events by `(time, sequence)` and share the model, workload and metrics modules.
//! Engines own the state; policies only read it and hand back decisions, which the engine
//! validates (capacity, non-preemption) before applying.

pub mod slotted;
