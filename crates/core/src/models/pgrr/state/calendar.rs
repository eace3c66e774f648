//! The departure calendar of the slotted engine.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::running::RunKey;
use super::{JobId, ServerId};

/// Departures by slot: a ring of buckets (a timing wheel) for the near future and a heap for
/// the rare departures beyond it.
///
/// With many jobs in service a binary heap of all departures costs a cache-missing O(log n)
/// per pop, which dominated large clusters. Here a departure due within `window` slots is
/// one push onto its slot's bucket, and the engine empties exactly one bucket per slot.
/// The window is several mean service times, so only the tail of the service distribution
/// goes through the heap, and each such job moves to the wheel once.
#[derive(Debug, Clone)]
pub(crate) struct DepartureCalendar {
    /// Each departure as the running job's key and its server: eight bytes, so a bucket of
    /// eight departures is one cache line.
    buckets: Vec<Vec<(RunKey, ServerId)>>,
    /// `window - 1`; the window is a power of two.
    mask: u64,
    /// Departures at or after `next + window`, earliest first, ties by job id.
    far: BinaryHeap<Reverse<(u64, JobId, RunKey, ServerId)>>,
    /// The next slot to be taken; every bucket holds departures in `[next, next + window)`.
    next: u64,
}

impl DepartureCalendar {
    /// A calendar sized for service lengths of about `mean_service` slots.
    pub fn new(mean_service: f64) -> Self {
        let window = ((4.0 * mean_service).ceil() as u64).clamp(64, 1 << 16).next_power_of_two();
        Self { buckets: vec![Vec::new(); window as usize], mask: window - 1, far: BinaryHeap::new(), next: 0 }
    }

    fn window(&self) -> u64 {
        self.mask + 1
    }

    /// Schedules `job`, running under `key`, to leave `server` at the start of `slot` (≥ the
    /// next slot to take).
    pub fn push(&mut self, slot: u64, job: JobId, key: RunKey, server: ServerId) {
        debug_assert!(slot >= self.next, "departure in the past");
        if slot < self.next + self.window() {
            self.buckets[(slot & self.mask) as usize].push((key, server));
        } else {
            self.far.push(Reverse((slot, job, key, server)));
        }
    }

    /// Moves the departures of slot `t` into `out`, in the order they were scheduled.
    /// Slots must be taken one after another, starting at 0.
    pub fn take(&mut self, t: u64, out: &mut Vec<(RunKey, ServerId)>) {
        debug_assert_eq!(t, self.next, "slots are taken in order");
        out.clear();
        std::mem::swap(out, &mut self.buckets[(t & self.mask) as usize]);
        self.next = t + 1;
        // The slot t + window now enters the window: pull its far departures in.
        let horizon = self.next + self.window();
        while let Some(&Reverse((slot, _, key, server))) = self.far.peek() {
            if slot >= horizon {
                break;
            }
            self.far.pop();
            self.buckets[(slot & self.mask) as usize].push((key, server));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_and_far_departures_come_out_on_their_slot() {
        let mut c = DepartureCalendar::new(10.0); // window 64
        // Keys 10 + id, so that the test sees keys and ids kept apart.
        c.push(3, 1, 11, 0);
        c.push(3, 2, 12, 1);
        c.push(200, 3, 13, 0);
        c.push(64, 4, 14, 2);
        c.push(200, 0, 15, 2);
        let mut out = Vec::new();
        let mut seen = Vec::new();
        for t in 0..=200 {
            c.take(t, &mut out);
            seen.extend(out.iter().map(|&(key, server)| (t, key, server)));
        }
        // Far departures of one slot come in by job id, whatever order they were pushed in.
        assert_eq!(seen, vec![(3, 11, 0), (3, 12, 1), (64, 14, 2), (200, 15, 2), (200, 13, 0)]);
    }
}
