//! A run's verdict as it plays: the queue recorded in [`BLOCKS`] blocks of the horizon, and
//! the verdict looked at when whole blocks reach each of [`LOOKS`]' moments.
//!
//! The blocks are the watch's own, not the run's series: a series merges its points when it
//! fills, at a length the page and the CLI choose differently, while the verdict must be the
//! same wherever the run is made. Block sums are split only at block boundaries and where the
//! value changes, never where someone reads them, so no bit depends on how a run is stepped.

use serde::{Deserialize, Serialize};

use super::verdict::{ERROR_BUDGET, Growth, Judgement, Reason, Verdict, judge};
use super::{SeriesPoint, earlier};

/// Blocks a horizon is cut into.
pub const BLOCKS: u32 = 128;

/// The looks of a run: after how many of its [`BLOCKS`] blocks, and the share of the error
/// budget each spends: at 35% and 50% of the horizon, then every eighth of it to the end; the
/// last look, which sees the most, spends half. Nothing is looked at in the first third: there
/// a queue near its boundary is still filling (or has not yet begun to grow), and looks at 17%
/// and 25% were the ones that misjudged most when measured (docs/stability.md). An answer
/// stands once two looks in a row give it, so the looks are denser late, where the last can
/// be confirmed by the one before.
pub const LOOKS: [(u32, f64); 6] =
    [(45, 1.0 / 16.0), (64, 1.0 / 16.0), (80, 1.0 / 8.0), (96, 1.0 / 8.0), (112, 1.0 / 8.0), (128, 1.0 / 2.0)];

/// The watch on one run's queue: its blocks, its looks so far and the verdict they gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictWatch {
    /// Block length in time units (a whole number of slots in slotted time).
    width: f64,
    /// Arrivals per time unit: the growth is per arrival.
    rate: f64,
    blocks: Vec<SeriesPoint>,
    open_integral: f64,
    /// How far the open block has been fed.
    fed: f64,
    /// The next look, an index into [`LOOKS`].
    next: usize,
    /// The test's answer at the last look, before confirmation.
    candidate: Verdict,
    judgement: Judgement,
    /// The run's growth at its last look: what replications of it are judged on together.
    growth: Growth,
}

impl VerdictWatch {
    /// The watch of a run of `horizon` time units with `rate` arrivals per time unit; in
    /// slotted time (`slotted`) blocks are whole slots.
    pub fn new(horizon: f64, rate: f64, slotted: bool) -> Self {
        let width = if slotted { (horizon / f64::from(BLOCKS)).floor().max(1.0) } else { horizon / f64::from(BLOCKS) };
        let width = if width > 0.0 { width } else { 1.0 };
        let mut watch = Self {
            width,
            rate,
            blocks: Vec::new(),
            open_integral: 0.0,
            fed: 0.0,
            next: 0,
            candidate: Verdict::Undecided,
            judgement: Judgement::before(LOOKS.len() as u32, f64::NAN),
            growth: Growth::NONE,
        };
        watch.judgement.next = watch.look_time(0);
        watch
    }

    /// The verdict as of the last look.
    pub fn judgement(&self) -> Judgement {
        self.judgement
    }

    /// The growth measured at the last look.
    pub fn growth(&self) -> Growth {
        self.growth
    }

    /// The moment of look `i`, NaN past the last.
    fn look_time(&self, i: usize) -> f64 {
        LOOKS.get(i).map_or(f64::NAN, |&(blocks, _)| f64::from(blocks) * self.width)
    }

    fn boundary(&self) -> f64 {
        (self.blocks.len() + 1) as f64 * self.width
    }

    /// Adds `value`, held from where the watch was fed up to `to`.
    pub fn add(&mut self, to: f64, value: f64) {
        while self.fed < to && self.next < LOOKS.len() {
            let boundary = self.boundary();
            let until = earlier(to, boundary);
            self.open_integral += value * (until - self.fed);
            self.fed = until;
            if until >= boundary {
                self.close(boundary);
            }
        }
    }

    /// Closes the blocks that ended by `now`, `value` held since the watch was last fed (what
    /// a read between changes needs, adding pieces that end on block boundaries only).
    pub fn flush(&mut self, now: f64, value: f64) {
        while self.next < LOOKS.len() && self.boundary() <= now {
            let boundary = self.boundary();
            self.add(boundary, value);
        }
    }

    /// One slot's value, in slotted time (slot `t` covers `[t, t + 1)`; slots come in order).
    pub fn add_slot(&mut self, value: f64) {
        if self.next >= LOOKS.len() {
            return;
        }
        self.open_integral += value;
        self.fed += 1.0;
        let boundary = self.boundary();
        if self.fed >= boundary {
            self.close(boundary);
        }
    }

    fn close(&mut self, end: f64) {
        let start = end - self.width;
        self.blocks.push(SeriesPoint { start, end, mean: self.open_integral / self.width });
        self.open_integral = 0.0;
        if self.blocks.len() as u32 == LOOKS[self.next].0 {
            self.look(end);
        }
    }

    /// Look `self.next`, at `now`: the test's answer stands only when the look before gave the
    /// same; until then the verdict reads undecided, waiting for the next look to confirm it.
    /// A queue near its boundary drifts for stretches in either direction, and a single look
    /// took such a stretch for a trend in about one run in five when measured (docs/stability.md).
    fn look(&mut self, now: f64) {
        let (_, share) = LOOKS[self.next];
        self.growth = Growth::of(&self.blocks, now, self.rate);
        let mut judgement = judge(&[self.growth], ERROR_BUDGET * share);
        let candidate = judgement.verdict;
        if candidate.is_decided() && candidate != self.candidate {
            judgement.verdict = Verdict::Undecided;
            let contradicts = self.judgement.verdict.is_decided();
            judgement.reason = if contradicts { Reason::Conflict } else { Reason::Unconfirmed };
        }
        self.candidate = candidate;
        self.next += 1;
        judgement.look = self.next as u32;
        judgement.looks = LOOKS.len() as u32;
        judgement.at = now;
        judgement.next = self.look_time(self.next);
        self.judgement = judgement;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A watch fed `f(t)` per slot over `horizon` slots.
    fn slotted(horizon: u64, rate: f64, f: impl Fn(f64) -> f64) -> VerdictWatch {
        let mut w = VerdictWatch::new(horizon as f64, rate, true);
        for t in 0..horizon {
            w.add_slot(f(t as f64));
        }
        w
    }

    #[test]
    fn looks_come_at_their_moments_and_spend_the_whole_budget() {
        let budget: f64 = LOOKS.iter().map(|l| l.1).sum();
        assert!((budget - 1.0).abs() < 1e-12);
        let mut w = VerdictWatch::new(12_800.0, 1.0, true);
        assert_eq!((w.judgement().look, w.judgement().next), (0, 4_500.0));
        for t in 0..6_400 {
            w.add_slot((t % 7) as f64);
        }
        let j = w.judgement();
        assert_eq!((j.look, j.looks, j.at, j.next), (2, 6, 6_400.0, 8_000.0));
    }

    #[test]
    fn a_flat_queue_is_stable_and_a_growing_one_not() {
        let flat = slotted(100_000, 1.0, |t| 5.0 + ((t * 0.37).sin() * 3.0).round());
        assert_eq!(flat.judgement().verdict, Verdict::Stable, "{:?}", flat.judgement());
        let growing = slotted(100_000, 1.0, |t| 0.05 * t + ((t * 0.37).sin() * 3.0).round());
        assert_eq!(growing.judgement().verdict, Verdict::Unstable, "{:?}", growing.judgement());
        assert!((growing.growth().second - 0.05).abs() < 1e-3);
    }

    #[test]
    fn a_queue_still_filling_is_not_called_unstable() {
        // √t: growth that slows down from the first half to the second.
        let filling = slotted(100_000, 1.0, |t| 3.0 * t.sqrt());
        let j = filling.judgement();
        assert_ne!(j.verdict, Verdict::Unstable, "{j:?}");
    }

    #[test]
    fn a_verdict_never_turns_over_at_one_look() {
        // Flat for the first half, then growing: an early stable verdict must pass through
        // undecided on its way to not stable.
        let horizon = 128_000;
        let mut w = VerdictWatch::new(horizon as f64, 1.0, true);
        let mut seen = vec![];
        for t in 0..horizon {
            let t = t as f64;
            w.add_slot(if t < 64_000.0 { 2.0 + (t * 0.37).sin().round() } else { (t - 64_000.0) * 0.2 });
            if seen.last() != Some(&w.judgement().verdict) {
                seen.push(w.judgement().verdict);
            }
        }
        for pair in seen.windows(2) {
            assert!(!(pair[0].is_decided() && pair[1].is_decided()), "{seen:?}");
        }
        assert!(seen.contains(&Verdict::Stable) && seen.last() == Some(&Verdict::Unstable), "{seen:?}");
    }

    #[test]
    fn reading_between_changes_changes_no_bit() {
        let feed = |reads: bool| {
            let mut w = VerdictWatch::new(1_000.0, 2.0, false);
            let mut value = 0.0;
            for i in 0..4_000 {
                let now = i as f64 * 0.25 + 0.1;
                if reads && i % 3 == 0 {
                    w.flush(now, value);
                }
                w.add(now, value);
                value = ((i * 7919) % 13) as f64;
            }
            w.flush(1_000.0, value);
            w
        };
        assert_eq!(feed(true), feed(false));
        assert_eq!(feed(false).judgement().look, 6);
    }
}
