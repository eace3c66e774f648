//! Checkpoints of a race, so the page can go back to any earlier moment.
//!
//! A run is a pure function of its link, so any moment can be recomputed from time 0; the
//! checkpoints make that quick. Every [`Checkpoints::spacing`] time units the race leaves a
//! clone of all its lanes here. When more than [`MAX_CHECKPOINTS`] are kept, or they hold more
//! than [`BUDGET_BYTES`], every other one is dropped and the spacing doubles: the checkpoints
//! stay evenly spread over the run so far, their number and memory stay bounded however long
//! the run, and going back replays at most two spacings, a small fraction of the run.
//! Replaying is exact: a clone run on gives the original's bits
//! (`crates/core/tests/determinism.rs`).
//!
//! Cloning costs time while the race plays, so checkpoints are also spaced by what they cost:
//! at most [`BYTES_PER_EVENT`] bytes cloned per event the lanes simulate between two of them.
//! A large cluster's state (a megabyte at L = 1000) is then cloned every ten thousand slots or
//! so rather than 24 times per doubling of the run, which cost the page about 6 % of its pace
//! (a clone copies a byte in roughly the time an event takes fifty). Going back then replays at
//! most two spacings: about 2 / [`BYTES_PER_EVENT`] events per byte of a checkpoint, a few
//! hundred milliseconds for a megabyte, whatever the length of the run.

use packlab_core::view::LiveRun;

use crate::play::memory::allocated_during;

/// Most checkpoints kept.
pub const MAX_CHECKPOINTS: usize = 48;
/// Most bytes the checkpoints hold together (measured by [`crate::play::memory`]), besides the one
/// being added.
pub const BUDGET_BYTES: u64 = 64 << 20;
/// Most bytes cloned per event simulated since the previous checkpoint.
pub const BYTES_PER_EVENT: u64 = 2;

/// The lanes of a race at one whole time unit.
struct Checkpoint {
    at: u64,
    runs: Vec<Box<dyn LiveRun>>,
    bytes: u64,
}

/// The checkpoints of one race, oldest first; the first is always time 0.
pub struct Checkpoints {
    kept: Vec<Checkpoint>,
    spacing: u64,
    bytes: u64,
    /// Most bytes the checkpoints hold: [`BUDGET_BYTES`], or its share in one part of a race
    /// split over several workers.
    budget: u64,
    /// Bytes cloned since the start, kept or since dropped: what checkpointing has cost.
    cloned: u64,
}

impl Checkpoints {
    /// Starts with the race at time 0.
    pub fn new<'a>(runs: impl IntoIterator<Item = &'a (dyn LiveRun + 'static)>) -> Self {
        let mut checkpoints = Self { kept: Vec::new(), spacing: 1, bytes: 0, budget: BUDGET_BYTES, cloned: 0 };
        checkpoints.push(0, runs);
        checkpoints
    }

    /// The checkpoints of one of `parts` parts of a race: a share of the budget, so that the
    /// parts together hold no more than a whole race.
    pub fn share(&mut self, parts: u64) {
        self.budget = BUDGET_BYTES / parts.max(1);
    }

    /// Time units between checkpoints.
    pub fn spacing(&self) -> u64 {
        self.spacing
    }

    /// How many are kept and the bytes they hold.
    pub fn usage(&self) -> (usize, u64) {
        (self.kept.len(), self.bytes)
    }

    /// Bytes cloned since the start.
    pub fn cloned(&self) -> u64 {
        self.cloned
    }

    /// When the next checkpoint is due: the next multiple of the spacing after the latest.
    pub fn next_due(&self) -> u64 {
        let latest = self.kept.last().map_or(0, |c| c.at);
        (latest / self.spacing + 1) * self.spacing
    }

    /// Keeps the lanes at `at` if a checkpoint is due there (the race calls this at every
    /// whole time unit it stops at).
    pub fn offer<'a>(&mut self, at: u64, runs: impl IntoIterator<Item = &'a (dyn LiveRun + 'static)>) {
        if at == self.next_due() {
            self.push(at, runs);
        }
    }

    fn push<'a>(&mut self, at: u64, runs: impl IntoIterator<Item = &'a (dyn LiveRun + 'static)>) {
        // Quiet, whatever the lanes were doing: a replay from here keeps no log unless asked.
        let (runs, bytes): (Vec<Box<dyn LiveRun>>, u64) = allocated_during(|| {
            runs.into_iter()
                .map(|r| {
                    let mut run = dyn_clone::clone_box(r);
                    run.set_log(0);
                    run
                })
                .collect()
        });
        // The lanes' events per time unit so far: what a spacing buys in simulation.
        let events: u64 = runs.iter().map(|r| r.readings().events).sum();
        let per_unit = events as f64 / at.max(1) as f64;
        self.kept.push(Checkpoint { at, runs, bytes });
        self.bytes += bytes;
        self.cloned += bytes;
        // Spaced by their cost: the next clone no sooner than the events it is worth. (The
        // kept ones stay where they are; thinning later drops those off the wider grid.)
        if per_unit > 0.0 {
            while (bytes as f64) > (BYTES_PER_EVENT as f64) * per_unit * self.spacing as f64 {
                self.spacing *= 2;
            }
        }
        while (self.kept.len() > MAX_CHECKPOINTS || self.bytes > self.budget) && self.kept.len() > 1 {
            self.thin();
        }
    }

    /// Drops every checkpoint off the doubled spacing's grid (time 0 stays).
    fn thin(&mut self) {
        self.spacing *= 2;
        let spacing = self.spacing;
        self.kept.retain(|c| c.at % spacing == 0);
        self.bytes = self.kept.iter().map(|c| c.bytes).sum();
    }

    /// The latest checkpoint at or before `time`: its time and clones of its lanes to run on.
    pub fn restore(&self, time: f64) -> (u64, Vec<Box<dyn LiveRun>>) {
        let c = self.kept.iter().rev().find(|c| c.at as f64 <= time).unwrap_or(&self.kept[0]);
        (c.at, c.runs.clone())
    }

    /// Gives every checkpoint the scenario's new `changes` (a knob moved while the race plays,
    /// [`crate::play::race::Race::amend`]): one whose lanes passed a moment where the changes
    /// differ belonged to the future the race leaves, and goes (time 0 always takes them: a
    /// change is never made live at 0).
    pub fn amend(&mut self, changes: &packlab_core::changes::Changes) {
        self.kept.retain_mut(|c| c.runs.iter_mut().all(|r| r.set_changes(changes).is_ok()));
        self.bytes = self.kept.iter().map(|c| c.bytes).sum();
    }

    /// The time of the latest checkpoint at or before `time`.
    pub fn latest_at_or_before(&self, time: f64) -> u64 {
        self.kept.iter().rev().find(|c| c.at as f64 <= time).map_or(0, |c| c.at)
    }
}
