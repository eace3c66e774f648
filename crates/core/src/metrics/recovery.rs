//! How a lane recovers from each change of its scenario (RES-94): the queue's peak after the
//! change and its drain time, back within the band it held before after its peak.
//!
//! **The band** of a change at moment `c` is the range, lowest to highest, of the queue read at
//! whole moments in the second half of the time since the previous change (or since 0):
//! `[p + (c - p)/2, c)`, `p` the previous change's moment. At most [`MAX_SAMPLES`] readings
//! are kept (every `stride`-th moment on a longer stretch), so memory stays bounded. While a
//! change has not drained, the queue before the next one is a transient, not a band: the next
//! change keeps the band of the undrained one (`band_at` says whose band it is).
//!
//! **The peak** is the largest queue from the change until the next change (or the run's
//! end). **The drain time** is the time from the change to the first moment after the peak
//! that the queue is back at or below the band's top. A queue whose peak stayed within the band
//! drained at once (0); one not back after its peak when the next change comes is "not drained
//! before the next change". After the peak, not after the first rise: during a surge the queue
//! climbs with dips back into the band, which are not a recovery.
//!
//! The engine calls [`RecoveryWatch::observe`] whenever its queue may have changed; a run
//! without changes has no watch at all.

use serde::{Deserialize, Serialize};

/// Most readings of the queue kept for one band.
pub const MAX_SAMPLES: u64 = 4096;

/// A change's recovery, as the report gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recovery {
    /// The change's moment.
    pub at: u64,
    /// The moment of the change whose band this is (`at`, unless an earlier change had not
    /// drained when this one came).
    pub band_at: u64,
    /// The stretch the band was read over, `[from, to)`.
    pub band_window: [u64; 2],
    /// The band: lowest and highest queue read there.
    pub band: [f64; 2],
    /// The largest queue from the change until the next one (or until now).
    pub peak: f64,
    /// When the peak was first reached.
    pub peak_at: f64,
    /// Time from the change until the queue was back within the band after its peak; `None`
    /// while it is not.
    pub drain: Option<f64>,
    /// Whether a later change came before the queue drained.
    pub cut: bool,
}

impl Recovery {
    /// The drain time in words.
    pub fn drain_text(&self) -> String {
        match (self.drain, self.cut) {
            (Some(d), _) => format!("{d}"),
            (None, true) => "not drained before the next change".into(),
            (None, false) => "not drained yet".into(),
        }
    }
}

/// The band being read before the next change.
#[derive(Debug, Clone)]
struct Reading {
    from: u64,
    stride: u64,
    next: u64,
    lo: f64,
    hi: f64,
    any: bool,
}

impl Reading {
    fn new(previous: u64, at: u64) -> Self {
        let from = previous + (at - previous) / 2;
        let stride = (at - from).div_ceil(MAX_SAMPLES).max(1);
        Self { from, stride, next: from, lo: f64::INFINITY, hi: f64::NEG_INFINITY, any: false }
    }

    /// Reads the queue `q`, in force until `until` (exclusive), at the moments due before
    /// `until` and `end`.
    fn read(&mut self, q: f64, until: f64, end: u64) {
        while self.next < end && (self.next as f64) < until {
            self.lo = self.lo.min(q);
            self.hi = self.hi.max(q);
            self.any = true;
            self.next += self.stride;
        }
    }
}

/// Follows the queue across a run's changes.
#[derive(Debug, Clone)]
pub struct RecoveryWatch {
    moments: Vec<u64>,
    /// The next change (an index into `moments`).
    next: usize,
    reading: Reading,
    /// The queue in force since the last observation.
    last: f64,
    done: Vec<Recovery>,
}

impl RecoveryWatch {
    /// A watch for changes at `moments` (ascending, distinct); `None` without changes.
    pub fn new(moments: Vec<u64>, start: f64) -> Option<Self> {
        let first = *moments.first()?;
        Some(Self { reading: Reading::new(0, first), moments, next: 0, last: start, done: Vec::new() })
    }

    /// The watch of a run whose changes became `moments` at moment `open` (a change made while
    /// the run plays, RES-96), the queue being `q`: the changes before `open` are the same and
    /// keep their records; a band still to read whose change moved is read from the moments
    /// still ahead only (none for a change at `open` itself, whose band is then the queue in
    /// force, as a change at 0). A link of the changes, run from the start, reads every band.
    pub fn amended(watch: Option<Self>, moments: Vec<u64>, open: u64, q: f64) -> Option<Self> {
        let (mut w, fresh) = match watch {
            Some(w) => (w, false),
            None => (Self::new(moments.clone(), q)?, true),
        };
        let upcoming = moments.get(w.next).copied();
        if let Some(at) = upcoming.filter(|&at| fresh || w.moments.get(w.next) != Some(&at)) {
            let previous = w.next.checked_sub(1).map_or(0, |i| moments[i]);
            let mut reading = Reading::new(previous, at);
            if open > reading.from {
                reading.next = reading.from + (open - reading.from).div_ceil(reading.stride) * reading.stride;
            }
            w.reading = reading;
        }
        w.moments = moments;
        Some(w)
    }

    /// From `time` on the queue is `q`.
    pub fn observe(&mut self, time: f64, q: f64) {
        while let Some(&at) = self.moments.get(self.next) {
            if (at as f64) > time {
                break;
            }
            self.reading.read(self.last, at as f64, at);
            self.begin(at);
        }
        if let Some(&at) = self.moments.get(self.next) {
            self.reading.read(self.last, time, at);
        }
        self.track(time, q);
        self.last = q;
    }

    /// The change at `at` is made: its band is read (or kept from an undrained change), and
    /// its recovery starts with the queue in force.
    fn begin(&mut self, at: u64) {
        let undrained = self.done.last().filter(|r| r.drain.is_none()).cloned();
        if let Some(previous) = self.done.last_mut().filter(|r| r.drain.is_none()) {
            previous.cut = true;
        }
        let r = &self.reading;
        let (band_at, band_window, band) = match undrained {
            Some(u) => (u.band_at, u.band_window, u.band),
            // No reading (a change at 0): the queue in force is the band.
            None if !r.any => (at, [at, at], [self.last, self.last]),
            None => (at, [r.from, at], [r.lo, r.hi]),
        };
        let above = self.last > band[1];
        self.done.push(Recovery {
            at,
            band_at,
            band_window,
            band,
            peak: self.last,
            peak_at: at as f64,
            drain: (!above).then_some(0.0),
            cut: false,
        });
        self.next += 1;
        if let Some(&following) = self.moments.get(self.next) {
            self.reading = Reading::new(at, following);
        }
    }

    fn track(&mut self, time: f64, q: f64) {
        let Some(r) = self.done.last_mut() else { return };
        if q > r.peak {
            r.peak = q;
            r.peak_at = time;
            if q > r.band[1] {
                // A new peak above the band: the drain is measured from after it.
                r.drain = None;
            }
        } else if r.drain.is_none() && q <= r.band[1] {
            r.drain = Some(time - r.at as f64);
        }
    }

    /// Each change made so far, with its recovery up to now.
    pub fn recoveries(&self) -> &[Recovery] {
        &self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slotted queue: `q(t)` at each slot.
    fn watch(moments: &[u64], q: impl Fn(u64) -> f64, end: u64) -> Vec<Recovery> {
        let mut w = RecoveryWatch::new(moments.to_vec(), 0.0).unwrap();
        for t in 0..end {
            w.observe(t as f64, q(t));
        }
        w.recoveries().to_vec()
    }

    #[test]
    fn a_surge_and_its_return() {
        // 2..=4 before the surge at 100; it climbs to 300 until 200, then falls by 2 a slot.
        let q = |t: u64| match t {
            0..100 => 2.0 + (t % 3) as f64,
            100..200 => 4.0 + 3.0 * (t - 100) as f64,
            _ => (301.0 - 2.0 * (t - 200) as f64).max(3.0),
        };
        let r = watch(&[100, 200], q, 400);
        assert_eq!((r[0].band_window, r[0].band), ([50, 100], [2.0, 4.0]));
        assert_eq!((r[0].peak, r[0].drain, r[0].cut), (301.0, None, true));
        assert_eq!(r[0].drain_text(), "not drained before the next change");
        // The return keeps the surge's band (it had not drained) and drains when q <= 4.
        assert_eq!((r[1].band_at, r[1].band), (100, [2.0, 4.0]));
        assert_eq!(r[1].peak, 301.0);
        // 301 - 2k <= 4 first at k = 149 (q = 3).
        assert_eq!(r[1].drain, Some(149.0));
    }

    #[test]
    fn a_queue_that_stays_in_its_band_drains_at_once() {
        let r = watch(&[50], |t| (t % 4) as f64, 100);
        assert_eq!((r[0].band, r[0].drain), ([0.0, 3.0], Some(0.0)));
    }

    #[test]
    fn long_stretches_keep_bounded_readings() {
        let mut w = RecoveryWatch::new(vec![10_000_000], 0.0).unwrap();
        w.observe(0.0, 1.0);
        w.observe(9_999_999.5, 7.0);
        w.observe(10_000_000.5, 9.0);
        let r = &w.recoveries()[0];
        assert_eq!((r.band_window, r.band, r.peak), ([5_000_000, 10_000_000], [1.0, 1.0], 9.0));
        assert!(w.reading.stride >= 5_000_000 / MAX_SAMPLES);
    }

    /// A change made while the run plays (RES-96) on a run that had none: its band is the
    /// queue in force (no reading is left before it), then peak and drain as usual.
    #[test]
    fn a_change_made_live_reads_its_band_from_what_is_ahead() {
        let mut w = RecoveryWatch::amended(None, vec![100], 100, 7.0).unwrap();
        w.observe(100.0, 9.0);
        w.observe(101.0, 7.0);
        let r = &w.recoveries()[0];
        assert_eq!((r.at, r.band, r.peak, r.drain), (100, [7.0, 7.0], 9.0, Some(1.0)));
        // Moved to a later moment before it is made, the band is read from `open` on.
        let mut w = RecoveryWatch::new(vec![100], 0.0).unwrap();
        w.observe(80.0, 3.0);
        let mut w = RecoveryWatch::amended(Some(w), vec![200], 90, 3.0).unwrap();
        w.observe(150.0, 5.0);
        w.observe(200.0, 5.0);
        let r = &w.recoveries()[0];
        assert_eq!((r.at, r.band_window, r.band), (200, [100, 200], [3.0, 5.0]));
    }
}
