//! Simulation engines.
//!
//! * [`slotted`]: slotted time (PG-RR), phases per slot as in SPEC 1.1.
//!
//! * [`des`]: the continuous-time event queue, ordered by `(time, sequence)`, with versioned
//!   clocks for lazy invalidation (SPEC 1.1).
//! * [`msj`]: the multiserver-job model of the MSFQ paper on that event queue.
//! * [`vm`]: the VM-scheduling model of GH-RA (queues, Poisson clocks, dummy jobs).
//! * [`reservation`]: the PG-AS loss model with slots (DRA, its variants and baselines).
//!
//! Engines own the state; policies only read it and hand back decisions, which the engine
//! validates (capacity, non-preemption) before applying.

pub mod des;
pub mod msj;
pub mod reservation;
pub mod slotted;
pub mod vm;
