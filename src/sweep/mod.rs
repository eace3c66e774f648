//! A preset's swept figure (mean queue against the load, E\[T\] against λ, …)
//! computed in the page, with replications, in Web Workers, one per core, drawn with 95%
//! intervals as its points complete. It is `packlab sweep --link LINK --load … --reps R`,
//! number for number: the plan (grid, seeds, runs, summaries and the figure) is the core's
//! ([`packlab_core::sweep::SweepPlan`]), and each worker runs the page's own wasm.
//!
//! * [`plan`]: [`PageSweep`](plan::PageSweep), the core's plan within the page's limits
//!   (tested natively), and the tasks;
//! * [`pool`]: [`WorkerPool`](pool::WorkerPool), the browser's part. A worker is
//!   `www/sweep-worker.js`: it imports the page's wasm-bindgen module, whose `main` does nothing
//!   outside a window, and answers each task with [`run_sweep_task`](plan::run_sweep_task).
//!
//! * [`stability`]: a stability map's rounds as the pool's jobs, and the worker's function.
//!
//! The views are [`crate::components::sweep_view`] and [`crate::components::stability_view`].

pub mod plan;
pub mod pool;
pub mod stability;
