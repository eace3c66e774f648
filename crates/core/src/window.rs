//! The run window every scenario carries: seed, horizon, warm-up and series grid.
//!
//! It is one struct, flattened into each model's scenario, with its keys declared once here
//! ([`RunWindow::keys`]); the model says only how long a run may be and whether its time is
//! slotted ([`WindowRules`]).

use crate::ConfigError;
use crate::changes::{self, Changes};
use crate::keys::Key;

/// Seed and time span of a run, and what changes while it plays.
#[derive(Debug, Clone, PartialEq)]
pub struct RunWindow {
    pub seed: u64,
    /// Time units (slots) simulated.
    pub horizon: u64,
    /// Time units discarded before measuring.
    pub warmup: u64,
    /// Series grid interval in time units. A whole number for every model except PG-AS,
    /// whose Fig. 4 samples every 0.1 ([`WindowRules::whole_grid`]).
    pub sample_every: f64,
    /// Changes of keys at moments of the run ([`crate::changes`]), checked against the
    /// model's keys by the scenario's `validate`.
    pub changes: Changes,
}

/// What a model allows of its run window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowRules {
    /// Longest horizon.
    pub max_horizon: u64,
    /// Whether the series grid is a whole number of time units (slotted time must be; the
    /// continuous-time models that began with whole grids keep them, so that scaling the
    /// horizon rounds the grid as it always did).
    pub whole_grid: bool,
    /// Whether time comes in slots (the keys' help then says "slots").
    pub slotted: bool,
}

/// A scenario with a run window (every model's).
pub trait HasWindow: Sized + 'static {
    const WINDOW_RULES: WindowRules;
    fn window(&self) -> &RunWindow;
    fn window_mut(&mut self) -> &mut RunWindow;
}

impl RunWindow {
    /// A window without changes.
    pub const fn new(seed: u64, horizon: u64, warmup: u64, sample_every: f64) -> Self {
        Self { seed, horizon, warmup, sample_every, changes: Changes::NONE }
    }

    /// The keys of the window, for a scenario type `S`: `seed`, `horizon`, `warmup`,
    /// `sample_every`, `change`, with the ranges of `S`'s rules.
    pub const fn keys<S: HasWindow>() -> [Key<S>; 5] {
        let max = S::WINDOW_RULES.max_horizon;
        let [simulate, discard, grid_help] = if S::WINDOW_RULES.slotted {
            ["slots to simulate", "slots discarded before measuring", "series grid interval in slots"]
        } else {
            ["time units to simulate", "time units discarded before measuring", "series grid interval in time units"]
        };
        let grid = if S::WINDOW_RULES.whole_grid {
            Key::int(
                "sample_every",
                1,
                max,
                |s: &S| s.window().sample_every as u64,
                |s: &mut S, v| s.window_mut().sample_every = v as f64,
            )
        } else {
            Key::real(
                "sample_every",
                0.0,
                max as f64,
                |s: &S| s.window().sample_every,
                |s: &mut S, v| s.window_mut().sample_every = v,
            )
        };
        [
            Key::int("seed", 0, u64::MAX, |s: &S| s.window().seed, |s: &mut S, v| s.window_mut().seed = v)
                .label("Seed")
                .help("random seed"),
            Key::int("horizon", 1, max, |s: &S| s.window().horizon, |s: &mut S, v| s.window_mut().horizon = v)
                .label("Horizon")
                .help(simulate),
            Key::int("warmup", 0, max - 1, |s: &S| s.window().warmup, |s: &mut S, v| s.window_mut().warmup = v)
                .help(discard)
                .relation("below the horizon")
                .hidden(),
            grid.help(grid_help).relation("at most the horizon").hidden(),
            Key::text(
                changes::KEY,
                changes::RANGE,
                |s: &S| s.window().changes.to_string(),
                |s: &mut S, v| {
                    s.window_mut().changes = Changes::parse(v)?;
                    Ok(())
                },
            )
            .help("changes while the run plays: from moment T on, KEY has VALUE")
            .hidden(),
        ]
    }

    /// The relations between the window's fields: the warm-up ends before the horizon, and
    /// the series grid has at least one interval.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.warmup >= self.horizon {
            return Err(ConfigError::new(
                "warmup",
                format!("must be below the horizon ({} >= {})", self.warmup, self.horizon),
            ));
        }
        if self.sample_every > self.horizon as f64 {
            return Err(ConfigError::new(
                "sample_every",
                format!("must be at most the horizon ({} > {})", self.sample_every, self.horizon),
            ));
        }
        Ok(())
    }

    /// The window with another horizon, its warm-up and grid scaled by the same factor so the
    /// discarded fraction and the number of series points stay as they were (what a user who
    /// only changes the run length expects: `--horizon`, `?horizon=`). Whole values round
    /// down; a whole grid stays at least 1.
    pub fn scaled(&self, horizon: u64, rules: WindowRules) -> Self {
        let old = self.horizon;
        let factor = |v: u64| (v as u128 * horizon as u128 / old as u128) as u64;
        let sample_every = if rules.whole_grid {
            factor(self.sample_every as u64).max(1) as f64
        } else {
            self.sample_every * (horizon as f64 / old as f64)
        };
        Self { horizon, warmup: factor(self.warmup), sample_every, ..self.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHOLE: WindowRules = WindowRules { max_horizon: 1000, whole_grid: true, slotted: false };
    const REAL: WindowRules = WindowRules { max_horizon: 1000, whole_grid: false, slotted: false };

    #[test]
    fn scaling_keeps_fractions_and_rounds_whole_grids_down() {
        let w = RunWindow::new(1, 1000, 100, 10.0);
        let s = w.scaled(333, WHOLE);
        assert_eq!((s.horizon, s.warmup, s.sample_every), (333, 33, 3.0));
        assert_eq!(w.scaled(10, WHOLE).sample_every, 1.0, "a whole grid stays at least 1");
        let r = RunWindow { sample_every: 0.1, ..w.clone() }.scaled(500, REAL);
        assert!((r.sample_every - 0.05).abs() < 1e-15);
    }

    #[test]
    fn relations_are_named() {
        let w = RunWindow::new(1, 10, 10, 1.0);
        assert_eq!(w.validate().unwrap_err().key, "warmup");
        let w = RunWindow { warmup: 0, sample_every: 11.0, ..w };
        assert_eq!(w.validate().unwrap_err().key, "sample_every");
    }
}
