//! Playing a run: the policies' simulations stepped in lockstep, the commands of play, where the
//! race runs (the race worker, or the page's frames), and the snapshots the components render.
//! Nothing here draws.
//!
//! * [`race`]: the lanes of a race stepped in lockstep, going back and explaining (no browser
//!   API);
//! * [`checkpoints`]: clones of the race along the run, to go back to any moment, weighed by
//!   [`memory`], the counting allocator;
//! * [`snapshot`]: the immutable picture of a race that components render;
//! * [`player`]: a race in play: the controls' commands and slices of play at a speed;
//! * [`worker`]: the race worker, its own side and the page's;
//! * [`session`]: a race shown on the page, wherever it runs, with its latest snapshot;
//! * [`use_race`]: the hook a component plays its race with, and [`frames`], the snapshots
//!   for what draws every frame while that component renders at its text's pace;
//! * [`frame_loop`], [`frame_budget`]: the requestAnimationFrame loop of a race played on the
//!   page, and the share of a frame it may take.

pub mod checkpoints;
pub mod frame_budget;
pub mod frame_loop;
pub mod frames;
pub mod memory;
pub mod player;
pub mod race;
pub mod session;
pub mod snapshot;
pub mod split;
pub mod use_race;
pub mod worker;
