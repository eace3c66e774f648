//! The continuous-time engines' shared kernel (SPEC 1.1): the event queue, versioned clocks,
//! and the one driver loop every continuous-time engine runs ([`run_until`]).
//!
//! Events are ordered by `(time, sequence)`: the earliest time first and, at equal times, the
//! order in which they were scheduled (first in, first out). Times are `f64` compared with
//! `total_cmp`, so the order is total and the same on every platform.
//!
//! Clocks whose rate depends on the state (the Poisson clocks of GH-RA) are handled by
//! **resampling with lazy invalidation**: each clock carries a version; changing its rate
//! bumps the version and schedules a fresh event, and events of an older version are dropped
//! when they reach the front. Memorylessness makes this exact, and it keeps every operation a
//! heap push or pop, O(log n).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One scheduled event. `key` packs `(time, seq)` into one integer ordered as
/// `time.total_cmp`, then `seq` (see [`time_key`]), so the heap compares one integer per step;
/// the time is recovered from the key when the event is popped.
#[derive(Debug, Clone, Copy)]
struct Entry<E> {
    key: u128,
    event: E,
}

/// The bits of `time` as an unsigned integer in the order of `f64::total_cmp`: every bit of a
/// negative number flipped, only the sign bit of a positive one.
fn time_key(time: f64) -> u64 {
    let bits = time.to_bits();
    if bits >> 63 == 1 { !bits } else { bits | (1 << 63) }
}

/// The inverse of [`time_key`].
fn key_time(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 { key & !(1 << 63) } else { !key })
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the earliest `(time, seq)` first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// A priority queue of events keyed by `(time, sequence)`.
#[derive(Debug, Clone)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self { heap: BinaryHeap::new(), next_seq: 0 }
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules `event` at `time` (not NaN). An infinite time is an event that never comes:
    /// the next arrival at a rate so small (a load of 1e-320) that its gap overflows.
    pub fn push(&mut self, time: f64, event: E) {
        debug_assert!(!time.is_nan(), "event time {time}");
        let key = (u128::from(time_key(time)) << 64) | u128::from(self.next_seq);
        self.heap.push(Entry { key, event });
        self.next_seq += 1;
    }

    /// The time of the next event.
    pub fn peek_time(&self) -> Option<f64> {
        self.heap.peek().map(|e| key_time((e.key >> 64) as u64))
    }

    /// Removes and returns the next event.
    pub fn pop(&mut self) -> Option<(f64, E)> {
        self.heap.pop().map(|e| (key_time((e.key >> 64) as u64), e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

/// Versions of state-dependent clocks, for lazy invalidation.
///
/// A clock's event carries the version it was scheduled under; [`Clocks::is_current`] tells
/// whether it still stands. [`Clocks::reset`] makes every earlier event of that clock stale.
#[derive(Debug, Clone, Default)]
pub struct Clocks {
    versions: Vec<u64>,
}

/// The identity of one clock event: which clock, and the version it was scheduled under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    pub clock: u32,
    pub version: u64,
}

impl Clocks {
    pub fn new(clocks: usize) -> Self {
        Self { versions: vec![0; clocks] }
    }

    /// Invalidates the pending event of `clock` and returns the tick for its next one.
    pub fn reset(&mut self, clock: u32) -> Tick {
        let v = &mut self.versions[clock as usize];
        *v += 1;
        Tick { clock, version: *v }
    }

    /// Whether `tick` is the clock's latest scheduled event.
    pub fn is_current(&self, tick: Tick) -> bool {
        self.versions[tick.clock as usize] == tick.version
    }
}

/// A continuous-time engine, as the driver steps it: one event at a time.
pub trait EventDriven {
    /// The time of the next event, if any (stale events included: [`EventDriven::step`]
    /// drops them).
    fn next_time(&self) -> Option<f64>;
    /// Takes the next event off the queue and handles it, with the policy's reaction; a stale
    /// event (an invalidated clock tick or timer) is dropped without moving time.
    fn step(&mut self) -> Result<(), crate::EngineError>;
    /// The current time.
    fn now(&self) -> f64;
    /// Moves time forward to `time` (no event in between) and brings the time averages and
    /// series up to it.
    fn advance(&mut self, time: f64);
    /// When the scenario's next change is due (infinite when none is left,
    /// [`crate::changes::Shifts::next_time`]).
    fn next_shift(&self) -> f64 {
        f64::INFINITY
    }
    /// Makes the change due at [`EventDriven::next_shift`]: a change of the load touches no
    /// time average and draws no random number (RES-93); a change of GH-RA's fleet routes the
    /// jobs waiting at removed servers again, which a policy may refuse (RES-97).
    fn shift(&mut self) -> Result<(), crate::EngineError> {
        Ok(())
    }
    /// The run's changes became `moments` at moment `open` (a knob moved while it plays): what
    /// follows the changes besides the shifts (the recovery of the judged queue) follows them.
    fn follow_changes(&mut self, _moments: Vec<u64>, _open: u64) {}
    /// Whether the run, as it was built, can make the changes it was just given (a playing
    /// run's, RES-96); an error names the entry it cannot make.
    fn check_shifts(&self) -> Result<(), crate::ConfigError> {
        Ok(())
    }
}

/// The [`crate::view::LiveRun`] methods every continuous-time engine implements alike, from
/// its clock (the field `now` and `run_until`) and its decision log (the field `log`).
macro_rules! continuous_live_run {
    () => {
        fn run(&mut self, units: u64) -> Result<(), $crate::EngineError> {
            let until = self.time() + units;
            self.run_until(until as f64)
        }

        fn time(&self) -> u64 {
            self.now as u64
        }

        fn now(&self) -> f64 {
            self.now
        }

        fn next_event(&self) -> Option<f64> {
            $crate::des::EventDriven::next_time(self)
        }

        fn run_to(&mut self, time: f64) -> Result<(), $crate::EngineError> {
            // An endless time would never stop handling arrivals.
            if time.is_finite() { self.run_until(time) } else { Ok(()) }
        }

        fn decisions(&self) -> &$crate::decisions::DecisionLog {
            &self.log
        }

        fn set_log(&mut self, capacity: usize) {
            self.log.set_capacity(capacity);
        }

        fn open_moment(&self) -> u64 {
            $crate::model::TimeUnit::Continuous.open_moment(self.now)
        }

        fn set_changes(&mut self, changes: &$crate::changes::Changes) -> Result<(), $crate::ConfigError> {
            let open = self.open_moment();
            let before = self.shifts.clone();
            self.shifts.amend(changes, open)?;
            if let Err(e) = $crate::des::EventDriven::check_shifts(self) {
                self.shifts = before;
                return Err(e);
            }
            $crate::des::EventDriven::follow_changes(self, self.shifts.moments(), open);
            Ok(())
        }
    };
}
pub(crate) use continuous_live_run;

/// Handles every event up to time `until` (inclusive), then brings the time averages up to
/// `until`. The same loop for every continuous-time engine, so where a run is cut (a page's
/// frame, the horizon) never changes what happens between the cuts.
///
/// A change due at a moment is made before the events at that moment: one comparison per
/// event, with the next change's moment only.
pub fn run_until(engine: &mut impl EventDriven, until: f64) -> Result<(), crate::EngineError> {
    loop {
        let next = engine.next_time();
        let shift = engine.next_shift();
        if shift <= until && next.is_none_or(|t| shift <= t) {
            engine.shift()?;
            continue;
        }
        match next {
            Some(t) if t <= until => engine.step()?,
            _ => break,
        }
    }
    engine.advance(until.max(engine.now()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_and_fifo_ties() {
        let mut q = EventQueue::new();
        q.push(2.0, 'c');
        q.push(1.0, 'a');
        q.push(2.0, 'd');
        q.push(1.0, 'b');
        q.push(0.5, 'z');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ['z', 'a', 'b', 'c', 'd']);
        assert!(q.is_empty());
    }

    /// The packed key orders times exactly as `f64::total_cmp`, with which the engines' event
    /// order (and so every trajectory) was defined, and gives every time back bit for bit.
    #[test]
    fn packed_time_key_orders_as_total_cmp_and_round_trips() {
        let times = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -f64::MIN_POSITIVE,
            -5e-324,
            -0.0,
            0.0,
            5e-324,
            f64::MIN_POSITIVE,
            1e-300,
            0.1,
            1.0,
            1.0000000000000002,
            7.5,
            1e300,
            f64::INFINITY,
        ];
        for a in times {
            assert_eq!(key_time(time_key(a)).to_bits(), a.to_bits(), "{a}");
            for b in times {
                assert_eq!(time_key(a).cmp(&time_key(b)), a.total_cmp(&b), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn stale_clock_events_are_recognised() {
        let mut clocks = Clocks::new(2);
        let mut q = EventQueue::new();
        let first = clocks.reset(0);
        q.push(5.0, first);
        // The rate changes: a new event replaces the first, which is left in the heap.
        let second = clocks.reset(0);
        q.push(3.0, second);
        q.push(4.0, clocks.reset(1));
        let live: Vec<(f64, u32)> = std::iter::from_fn(|| q.pop())
            .filter(|(_, tick)| clocks.is_current(*tick))
            .map(|(t, tick)| (t, tick.clock))
            .collect();
        assert_eq!(live, [(3.0, 0), (4.0, 1)]);
    }
}
