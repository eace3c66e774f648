//! Sweeps: a figure of a paper from replicated runs over a grid of one scenario key's values,
//! the same in `packlab sweep` (runs in parallel, or in shards on many machines, then `merge`)
//! and in the page (runs in Web Workers). One plan ([`SweepPlan`]) says which runs make up the
//! grid, with which seeds and scenarios, and how they become the figure, so the page's curve
//! is the CLI's, number for number.

mod plan;
mod run;
pub mod shard;
mod summary;

pub use plan::{Cell, DEFAULT_REPS, Layout, REPS_KEY, SweepLine, SweepPlan, Task, parse_grid, point, replication_seed};
pub use run::{CellSummary, FigureValue, SweepRun, figure_of, summarise};
pub use summary::SummaryRow;
