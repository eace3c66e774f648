//! What a loss system earned and lost between its scenario's changes (RES-94, its loss-system
//! half): nothing waits in PG-AS, so a change shows in the reward it earns and the arrivals it
//! turns away, not in a queue's peak and drain.
//!
//! A run with changes at `c_1 < … < c_n` has `n + 1` **stretches**, `[c_0, c_1)`, `[c_1, c_2)`,
//! …, `[c_n, now)` with `c_0 = 0`: the one before the first change, and one from each change to
//! the next (or to now). Each states the time average of the reward rate per server over it and
//! the arrivals and rejections at arrival in it, measured as the report's own figures are, from
//! the warm-up on: a stretch (or the part of one) before the warm-up counts nothing (its reward
//! is undefined, NaN, if all of it is).
//!
//! The sums are split only where the reward changes and at the changes' moments, never where
//! someone reads them (the same rule as [`super::Level`]'s): the numbers are the same however a
//! run is cut into frames. Memory: one record per change.

use serde::{Deserialize, Serialize};

use super::later;

/// One stretch between changes, as the report gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stretch {
    /// The change that opened it (`None`: the stretch before the first change).
    pub change: Option<u64>,
    /// Where its measurement starts: the change's moment, or the warm-up's end when that is
    /// later (0 before the first change, without a warm-up).
    pub from: f64,
    /// Where it ends: the next change's moment, or the moment the report was made.
    pub to: f64,
    /// Time average of the reward rate per server, R(t)/L, over `[from, to)` (NaN when empty).
    pub reward: f64,
    /// Arrivals in it, and those rejected at arrival (lost).
    pub arrived: u64,
    pub rejected: u64,
}

impl Stretch {
    /// Rejected / arrived (NaN without arrivals).
    pub fn blocking(&self) -> f64 {
        if self.arrived == 0 { f64::NAN } else { self.rejected as f64 / self.arrived as f64 }
    }
}

/// What a run without changes measured up to now, which a watch started there takes over:
/// the reward in force since `since`, its measured integral before `since`, and the arrivals
/// and rejections after the warm-up.
#[derive(Debug, Clone, Copy)]
pub struct SoFar {
    pub value: f64,
    pub since: f64,
    pub area: f64,
    pub arrived: u64,
    pub rejected: u64,
}

/// Follows a loss system's reward and rejections across a run's changes.
#[derive(Debug, Clone)]
pub struct StretchWatch {
    moments: Vec<u64>,
    /// The next change (an index into `moments`).
    next: usize,
    warmup: f64,
    /// The stretch under way: the change that opened it and its start (before the warm-up
    /// clamp).
    change: Option<u64>,
    start: f64,
    /// The reward in force since `since`; `area` covers the measured part of the stretch before
    /// `since`.
    value: f64,
    since: f64,
    area: f64,
    arrived: u64,
    rejected: u64,
    done: Vec<Stretch>,
}

impl StretchWatch {
    /// A watch for changes at `moments` (ascending, distinct), the reward being `value` at 0;
    /// `None` without changes (a run without them pays nothing).
    pub fn new(moments: Vec<u64>, warmup: f64, value: f64) -> Option<Self> {
        if moments.is_empty() {
            return None;
        }
        Some(Self {
            moments,
            next: 0,
            warmup,
            change: None,
            start: 0.0,
            value,
            since: 0.0,
            area: 0.0,
            arrived: 0,
            rejected: 0,
            done: Vec::new(),
        })
    }

    /// The run's changes became `moments` at moment `open`, while it plays (RES-96): those
    /// before `open` are the same, so the stretches made keep their records and the one under
    /// way ends at the first change at or after `open`. A run that had no change yet starts its
    /// watch from what it measured so far (`so_far`, the same sums a watch from 0 would hold).
    pub fn amended(watch: Option<Self>, moments: Vec<u64>, warmup: f64, so_far: SoFar) -> Option<Self> {
        match watch {
            Some(mut w) => {
                w.moments = moments;
                Some(w)
            }
            None => {
                let mut w = Self::new(moments, warmup, so_far.value)?;
                (w.since, w.area, w.arrived, w.rejected) = (so_far.since, so_far.area, so_far.arrived, so_far.rejected);
                Some(w)
            }
        }
    }

    /// The measured start of the stretch under way.
    fn measured_from(&self) -> f64 {
        later(self.start, self.warmup)
    }

    /// Adds the reward in force over `[since, to)` (its measured part) to the area.
    fn integrate(&mut self, to: f64) {
        let from = later(self.since, self.measured_from());
        if to > from {
            self.area += self.value * (to - from);
        }
        if to > self.since {
            self.since = to;
        }
    }

    /// Makes the changes due by `time`: each closes the stretch under way and opens its own.
    fn reach(&mut self, time: f64) {
        while let Some(&at) = self.moments.get(self.next) {
            if at as f64 > time {
                break;
            }
            self.integrate(at as f64);
            let stretch = self.current(at as f64);
            self.done.push(stretch);
            self.next += 1;
            self.change = Some(at);
            self.start = at as f64;
            self.area = 0.0;
            self.arrived = 0;
            self.rejected = 0;
        }
    }

    /// The stretch under way, closed at `to` (the reward in force since `since` read, not
    /// added: reading splits no sum).
    fn current(&self, to: f64) -> Stretch {
        let from = self.measured_from();
        let open = later(self.since, from);
        let area = self.area + if to > open { self.value * (to - open) } else { 0.0 };
        Stretch {
            change: self.change,
            from,
            to,
            reward: if to > from { area / (to - from) } else { f64::NAN },
            arrived: self.arrived,
            rejected: self.rejected,
        }
    }

    /// From `time` on the reward per server is `value`.
    pub fn set(&mut self, time: f64, value: f64) {
        self.reach(time);
        if value != self.value {
            self.integrate(time);
            self.value = value;
        }
    }

    /// An arrival at `time`, `rejected` or not (a change at `time` is made before it).
    pub fn arrival(&mut self, time: f64, rejected: bool) {
        self.reach(time);
        if time >= self.warmup {
            self.arrived += 1;
            self.rejected += u64::from(rejected);
        }
    }

    /// Time has come to `now` with no event (the changes due by then are made).
    pub fn flush(&mut self, now: f64) {
        self.reach(now);
    }

    /// Every stretch so far, the one under way up to `now`.
    pub fn stretches(&self, now: f64) -> Vec<Stretch> {
        let mut all = self.done.clone();
        all.push(self.current(later(now, self.start)));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A surge at 10 and its return at 20: three stretches, each with its own mean and counts,
    /// the part before the warm-up left out.
    #[test]
    fn each_stretch_has_its_mean_and_its_counts() {
        let mut w = StretchWatch::new(vec![10, 20], 4.0, 0.0).unwrap();
        w.set(2.0, 1.0); // before the warm-up: not measured
        w.arrival(3.0, true);
        w.set(6.0, 3.0);
        w.arrival(6.0, false);
        w.arrival(10.0, true); // at the change: after it
        w.set(15.0, 5.0);
        w.arrival(25.0, true);
        let s = w.stretches(30.0);
        assert_eq!(s.len(), 3);
        assert_eq!((s[0].change, s[0].from, s[0].to), (None, 4.0, 10.0));
        assert_eq!(s[0].reward, (1.0 * 2.0 + 3.0 * 4.0) / 6.0);
        assert_eq!((s[0].arrived, s[0].rejected), (1, 0));
        assert_eq!((s[1].change, s[1].from, s[1].to), (Some(10), 10.0, 20.0));
        assert_eq!(s[1].reward, (3.0 * 5.0 + 5.0 * 5.0) / 10.0);
        assert_eq!((s[1].arrived, s[1].rejected, s[1].blocking()), (1, 1, 1.0));
        assert_eq!((s[2].change, s[2].from, s[2].to, s[2].reward), (Some(20), 20.0, 30.0, 5.0));
        assert_eq!((s[2].arrived, s[2].rejected), (1, 1));
    }

    /// Reading (or flushing) between events splits no sum: the same bits however a run is cut.
    #[test]
    fn reading_and_flushing_change_no_bit() {
        let feed = |cuts: &[f64]| {
            let mut w = StretchWatch::new(vec![5, 9], 0.0, 0.0).unwrap();
            let events = [(0.3, 0.7), (1.1, 1.9), (4.7, 0.1), (6.2, 2.3), (8.9, 0.3), (11.4, 1.7)];
            let mut cuts = cuts.iter().peekable();
            for (t, v) in events {
                while let Some(&&c) = cuts.peek().filter(|&&&c| c < t) {
                    w.flush(c);
                    let _ = w.stretches(c);
                    cuts.next();
                }
                w.set(t, v);
            }
            w.stretches(12.0)
        };
        let once = feed(&[]);
        let framed = feed(&[1.0, 2.0, 3.0, 5.0, 7.5, 9.0, 10.0, 11.0]);
        assert_eq!(once, framed);
        assert_eq!(once.len(), 3);
    }

    #[test]
    fn no_changes_no_watch() {
        assert!(StretchWatch::new(Vec::new(), 0.0, 0.0).is_none());
    }
}
