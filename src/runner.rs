//! Drives a [`Race`] from requestAnimationFrame and publishes snapshots to Yew.
//!
//! The engine stays out of the component tree: [`Runner`] owns the simulations behind
//! `Rc<RefCell<_>>`, steps them in each animation frame within a time budget, and keeps the
//! latest [`Snapshot`]; [`use_race`] re-renders the component when a new one is published.
//! Dropping the runner (the component unmounts, or the setup changes) cancels the loop.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use yew::prelude::*;

use crate::frame_loop::{FrameLoop, now_ms};
use crate::lab::Speed;
use crate::race::Race;
use crate::snapshot::{Phase, Rate, Snapshot};
use packlab_core::scenario::Setup;

/// Points kept per series: enough for a smooth curve, bounded however long it runs.
pub const MAX_POINTS: usize = 1024;
/// Longest frame gap honoured: after a stall (hidden tab, breakpoint) the race resumes at its
/// normal pace instead of catching up.
const MAX_FRAME_GAP_MS: f64 = 100.0;
/// The rate meter's window.
const METER_WINDOW_MS: f64 = 1000.0;

/// The wall time the simulation may take in a frame: what a 60 Hz frame leaves after the rest
/// of the frame's work on the main thread.
///
/// That rest (the page's drawing, the browser's style, layout and paint) depends on the
/// scenario, the machine and what else runs on it: about 5 ms at 1000 servers on a 2-core
/// machine, more when other programs compete for the cores. Rather than guess it, the runner
/// measures it each frame ([`FrameLoop`] reports when the frame's rendering is done), and the
/// budget is one frame minus [`FrameBudget::SLACK_MS`] minus its mean over the last
/// [`FrameBudget::WINDOW`] frames, within `MIN_MS..=MAX_MS`. The slack absorbs the variation
/// from frame to frame (the charts take turns, so a frame redraws at most one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameBudget {
    ms: f64,
    /// The main thread's work besides the simulation in recent frames, in ms.
    recent: [f64; Self::WINDOW],
    next: usize,
}

impl FrameBudget {
    pub const START_MS: f64 = 9.0;
    pub const MIN_MS: f64 = 3.0;
    pub const MAX_MS: f64 = 14.0;
    /// One frame at 60 Hz.
    pub const FRAME_MS: f64 = 1000.0 / 60.0;
    /// Kept free in every frame for what the measurement misses (compositing, input, timers).
    pub const SLACK_MS: f64 = 2.0;
    pub const WINDOW: usize = 8;

    pub fn ms(&self) -> f64 {
        self.ms
    }

    /// Takes the main thread's work besides the simulation in the last frame, in ms. A stall
    /// (a hidden tab, a breakpoint) says nothing about the frame's cost and is ignored.
    pub fn after_frame(&mut self, other_ms: f64) {
        if !(0.0..MAX_FRAME_GAP_MS).contains(&other_ms) {
            return;
        }
        self.recent[self.next] = other_ms;
        self.next = (self.next + 1) % Self::WINDOW;
        let mean = self.recent.iter().sum::<f64>() / Self::WINDOW as f64;
        self.ms = (Self::FRAME_MS - Self::SLACK_MS - mean).clamp(Self::MIN_MS, Self::MAX_MS);
    }
}

impl Default for FrameBudget {
    fn default() -> Self {
        let other = Self::FRAME_MS - Self::SLACK_MS - Self::START_MS;
        Self { ms: Self::START_MS, recent: [other; Self::WINDOW], next: 0 }
    }
}

/// Owns a race and its animation loop.
pub struct Runner {
    shared: Rc<Shared>,
}

struct Shared {
    setup: Rc<Setup>,
    race: RefCell<Race>,
    phase: RefCell<Phase>,
    snapshot: RefCell<Rc<Snapshot>>,
    frames: RefCell<Option<FrameLoop>>,
    speed: Cell<Speed>,
    /// The lane whose per-bin series the snapshot carries.
    focus: Cell<usize>,
    /// Timestamp of the previous frame while playing.
    last_frame: Cell<Option<f64>>,
    budget: Cell<FrameBudget>,
    /// When the current frame's tick started and how long its simulation took, in ms.
    tick: Cell<(f64, f64)>,
    /// Fraction of a slot owed from earlier frames (slow speeds run less than one per frame).
    owed: Cell<f64>,
    /// Where playing stops by itself: the moment a link opens at (`t=`), reached at full
    /// speed.
    stop_at: Cell<Option<f64>>,
    meter: RefCell<Meter>,
    /// Tells the view that a new snapshot is out.
    notify: Box<dyn Fn()>,
}

/// Frames and slots counted over a window of play.
#[derive(Default)]
struct Meter {
    since: Option<f64>,
    frames: u32,
    slots: u64,
    /// Wall time spent simulating, in ms.
    simulating: f64,
    rate: Option<Rate>,
}

impl Meter {
    fn count(&mut self, now: f64, slots: u64, simulating: f64) {
        let since = *self.since.get_or_insert(now);
        self.frames += 1;
        self.slots += slots;
        self.simulating += simulating;
        let span = now - since;
        if span >= METER_WINDOW_MS {
            self.rate = Some(Rate {
                fps: f64::from(self.frames) * 1000.0 / span,
                slots_per_second: self.slots as f64 * 1000.0 / span,
                simulating_ms: self.simulating / f64::from(self.frames),
            });
            (self.since, self.frames, self.slots, self.simulating) = (Some(now), 0, 0, 0.0);
        }
    }
}

impl Runner {
    /// A runner for `setup`, ready to play. `notify` is called after each new snapshot.
    pub fn new(setup: Rc<Setup>, speed: Speed, notify: impl Fn() + 'static) -> Self {
        let race = Race::new(&setup, MAX_POINTS);
        let snapshot = Rc::new(race.snapshot(Phase::Ready, 0));
        let shared = Shared {
            setup,
            race: RefCell::new(race),
            phase: RefCell::new(Phase::Ready),
            snapshot: RefCell::new(snapshot),
            frames: RefCell::new(None),
            speed: Cell::new(speed),
            focus: Cell::new(0),
            last_frame: Cell::new(None),
            budget: Cell::new(FrameBudget::default()),
            tick: Cell::new((0.0, 0.0)),
            owed: Cell::new(0.0),
            stop_at: Cell::new(None),
            meter: RefCell::new(Meter::default()),
            notify: Box::new(notify),
        };
        Self { shared: Rc::new(shared) }
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Rc<Snapshot> {
        self.shared.snapshot.borrow().clone()
    }

    pub fn set_speed(&self, speed: Speed) {
        self.shared.speed.set(speed);
    }

    /// Chooses the lane whose per-bin series are published.
    pub fn set_focus(&self, lane: usize) {
        self.shared.focus.set(lane);
        let phase = self.shared.phase.borrow().clone();
        self.shared.publish(phase);
    }

    /// Play ⇄ pause; at the horizon, runs the race again from slot 0.
    pub fn toggle(&self) {
        let phase = self.shared.phase.borrow().clone();
        match phase {
            Phase::Running => self.pause(),
            Phase::Ready | Phase::Paused => self.play(),
            Phase::Finished => {
                self.restart();
                self.play();
            }
            Phase::Failed(_) => {}
        }
    }

    /// Starts or resumes the animation loop.
    pub fn play(&self) {
        if self.shared.race.borrow().finished() {
            return;
        }
        let weak: Weak<Shared> = Rc::downgrade(&self.shared);
        let after = weak.clone();
        let started = FrameLoop::start(
            move |now| weak.upgrade().is_some_and(|shared| shared.frame(now)),
            move |done| {
                if let Some(shared) = after.upgrade() {
                    shared.rendered(done);
                }
            },
        );
        match started {
            Ok(frames) => {
                self.shared.last_frame.set(None);
                *self.shared.meter.borrow_mut() = Meter::default();
                *self.shared.frames.borrow_mut() = Some(frames);
                self.shared.publish(Phase::Running);
            }
            Err(e) => self.shared.publish(Phase::Failed(format!("cannot start the animation loop: {e:?}"))),
        }
    }

    pub fn pause(&self) {
        self.shared.frames.borrow_mut().take();
        if *self.shared.phase.borrow() == Phase::Running {
            self.shared.publish(Phase::Paused);
        }
    }

    /// Pauses and runs one step: a slot, or in continuous time the next event.
    pub fn step(&self) {
        self.move_paused(|race| race.step());
    }

    /// Pauses and goes one step back: a slot, or the previous event.
    pub fn step_back(&self) {
        self.move_paused(Race::step_back);
    }

    /// Pauses and goes to `time` within the run so far (the timeline's scrubber).
    pub fn seek(&self, time: f64) {
        self.move_paused(|race| race.seek(time));
    }

    /// Plays at full speed up to `time` and pauses there: a link's `t=`.
    pub fn open_at(&self, time: f64) {
        self.shared.stop_at.set(Some(time));
        self.play();
    }

    fn move_paused(&self, go: impl FnOnce(&mut Race) -> Result<(), packlab_core::EngineError>) {
        // Stopped without publishing: the move publishes (and explains) once, where it lands.
        self.shared.frames.borrow_mut().take();
        if *self.shared.phase.borrow() == Phase::Running {
            *self.shared.phase.borrow_mut() = Phase::Paused;
        }
        self.shared.stop_at.set(None);
        if matches!(*self.shared.phase.borrow(), Phase::Failed(_)) {
            return;
        }
        let result = go(&mut self.shared.race.borrow_mut());
        let phase = match result {
            Err(e) => Phase::Failed(format!("the simulation stopped: {e}")),
            Ok(()) if self.shared.race.borrow().finished() => Phase::Finished,
            Ok(()) => Phase::Paused,
        };
        self.shared.publish(phase);
    }

    /// Back to slot 0, paused.
    pub fn restart(&self) {
        self.shared.frames.borrow_mut().take();
        *self.shared.race.borrow_mut() = Race::new(&self.shared.setup, MAX_POINTS);
        self.shared.owed.set(0.0);
        self.shared.stop_at.set(None);
        self.shared.publish(Phase::Ready);
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.shared.frames.borrow_mut().take();
    }
}

impl Shared {
    /// One animation frame: advance the race within the budget, then publish. Returns whether
    /// to keep going.
    fn frame(&self, now: f64) -> bool {
        let started = clock();
        let gap =
            self.last_frame.replace(Some(now)).map_or(1000.0 / 60.0, |last| (now - last).clamp(0.0, MAX_FRAME_GAP_MS));
        let stop_at = self.stop_at.get();
        let want = match (stop_at, self.speed.get().rate(self.setup.scenario.horizon())) {
            // Whole units at full speed, then the rest exactly (below).
            (Some(stop), _) => (stop.floor() as u64).saturating_sub(self.race.borrow().slot()),
            (None, None) => u64::MAX,
            (None, Some(rate)) => {
                let due = self.owed.get() + rate * gap / 1000.0;
                let whole = due.floor();
                self.owed.set(due - whole);
                whole as u64
            }
        };
        let result = self.race.borrow_mut().advance(want, self.budget.get().ms(), clock);
        let simulated = clock() - started;
        self.tick.set((started, simulated));
        if let Ok(slots) = result {
            self.meter.borrow_mut().count(now, slots, simulated);
        }
        let mut next = self.after(result);
        if let Some(stop) = stop_at.filter(|stop| self.race.borrow().slot() >= stop.floor() as u64) {
            self.stop_at.set(None);
            // A moment between whole units (a link to an event) is reached event by event.
            let short_of_it = stop > self.race.borrow().now();
            if next == Phase::Running
                && short_of_it
                && let Err(e) = self.race.borrow_mut().seek(stop)
            {
                next = Phase::Failed(format!("the simulation stopped: {e}"));
            }
            if next == Phase::Running {
                next = Phase::Paused;
            }
        }
        let again = next == Phase::Running;
        self.publish(next);
        again
    }

    /// The frame that started with the last tick is rendered, at `done` (ms): the main
    /// thread's work besides the simulation sets the next frames' budget.
    fn rendered(&self, done: f64) {
        let (started, simulated) = self.tick.get();
        let mut budget = self.budget.get();
        budget.after_frame(done - started - simulated);
        self.budget.set(budget);
    }

    /// The phase after an advance.
    fn after(&self, result: Result<u64, packlab_core::EngineError>) -> Phase {
        match result {
            Err(e) => {
                self.frames.borrow_mut().take();
                Phase::Failed(format!("the simulation stopped: {e}"))
            }
            Ok(_) if self.race.borrow().finished() => Phase::Finished,
            // A stepped race that had not started is now paused; a running one runs on.
            Ok(_) => match self.phase.borrow().clone() {
                Phase::Ready => Phase::Paused,
                other => other,
            },
        }
    }

    /// Publishes the race in `phase`. A race that stops is explained first (its decision log
    /// made by replay, [`Race::explain`]); a playing one keeps no log.
    fn publish(&self, phase: Phase) {
        let phase = match phase {
            Phase::Running => {
                let mut race = self.race.borrow_mut();
                if race.explaining() {
                    race.quiet();
                }
                phase
            }
            Phase::Failed(_) => phase,
            stopped => match self.race.borrow_mut().explain() {
                Ok(()) => stopped,
                Err(e) => {
                    self.frames.borrow_mut().take();
                    Phase::Failed(format!("the simulation stopped: {e}"))
                }
            },
        };
        let mut snapshot = self.race.borrow().snapshot(phase.clone(), self.focus.get());
        snapshot.rate = self.meter.borrow().rate;
        *self.phase.borrow_mut() = phase;
        *self.snapshot.borrow_mut() = Rc::new(snapshot);
        (self.notify)();
    }
}

/// Milliseconds on the animation-frame clock.
fn clock() -> f64 {
    now_ms()
}

/// What a new race does once shown.
#[derive(Default)]
enum Start {
    #[default]
    Nothing,
    /// Play on: the race it replaced was playing.
    Play,
    /// Play to this time and pause: the link's `t=`.
    OpenAt(f64),
}

/// What a component gets from [`use_race`].
pub struct RaceHandle {
    pub snapshot: Rc<Snapshot>,
    /// Why the race is at time 0 though the person had run it: the scenario changed mid-run
    /// (said once per new race; a change used to restart the run silently).
    pub restarted: Option<Rc<str>>,
    pub toggle: Callback<()>,
    pub step: Callback<()>,
    pub back: Callback<()>,
    /// Goes to a time within the run so far.
    pub seek: Callback<f64>,
    pub restart: Callback<()>,
    pub focus: Callback<usize>,
}

/// Runs `setup` as a race owned by the calling component, at `speed` (changing the speed
/// keeps the race; changing the setup starts a new one). A new race opens at `open_at` when
/// the link asks (`t=`): it plays there at full speed and pauses.
///
/// A new setup while the old race had run says so in [`RaceHandle::restarted`]; if the old
/// race was playing, the new one plays on from time 0.
#[hook]
pub fn use_race(setup: Rc<Setup>, speed: Speed, open_at: Option<f64>) -> RaceHandle {
    let redraw = use_force_update();
    let runner = use_memo(setup, move |setup| Runner::new(setup.clone(), speed, move || redraw.force_update()));
    runner.set_speed(speed);
    // The race this component showed last, its state when it was replaced, and what the new
    // one still has to start doing (in an effect, not while rendering).
    let last = use_mut_ref(|| None::<(Rc<Runner>, Option<Rc<str>>, Start)>);
    let restarted = {
        let mut last = last.borrow_mut();
        match &*last {
            Some((shown, note, _)) if Rc::ptr_eq(shown, &runner) => note.clone(),
            previous => {
                let old = previous.as_ref().map(|(shown, _, _)| shown.snapshot());
                let note = old.as_ref().filter(|o| o.slot > 0).map(|o| {
                    let time = o.model.time;
                    Rc::from(format!(
                        "The scenario changed at {} {}, so the run started again from 0 with the new values{}.",
                        time.prefix(),
                        crate::stats::group_digits(o.slot),
                        if o.phase == Phase::Running { " and plays on" } else { "" }
                    ))
                });
                let start = match open_at {
                    Some(t) if old.is_none() => Start::OpenAt(t),
                    _ if old.is_some_and(|o| o.phase == Phase::Running) => Start::Play,
                    _ => Start::Nothing,
                };
                *last = Some((runner.clone(), note.clone(), start));
                note
            }
        }
    };
    {
        let last = last.clone();
        use_effect(move || {
            // Taken out of the cell first: playing publishes, which may render.
            let start = last.borrow_mut().as_mut().map(|(runner, _, start)| (runner.clone(), std::mem::take(start)));
            match start {
                Some((runner, Start::Play)) => runner.play(),
                Some((runner, Start::OpenAt(t))) => runner.open_at(t),
                _ => {}
            }
        });
    }
    let call = |f: fn(&Runner)| {
        let runner = runner.clone();
        Callback::from(move |()| f(&runner))
    };
    let focus = {
        let runner = runner.clone();
        Callback::from(move |lane| runner.set_focus(lane))
    };
    let seek = {
        let runner = runner.clone();
        Callback::from(move |time| runner.seek(time))
    };
    RaceHandle {
        snapshot: runner.snapshot(),
        restarted,
        toggle: call(Runner::toggle),
        step: call(Runner::step),
        back: call(Runner::step_back),
        seek,
        restart: call(Runner::restart),
        focus,
    }
}

#[cfg(test)]
mod tests {
    use super::FrameBudget;

    #[test]
    fn the_budget_is_what_recent_frames_leave() {
        let mut b = FrameBudget::default();
        assert_eq!(b.ms(), FrameBudget::START_MS);
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(4.0);
        }
        let full = FrameBudget::FRAME_MS - FrameBudget::SLACK_MS;
        assert!((b.ms() - (full - 4.0)).abs() < 1e-9);
        // A costly frame weighs for a window of frames, by its share of the window.
        b.after_frame(12.0);
        assert!((b.ms() - (full - 5.0)).abs() < 1e-9);
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(4.0);
        }
        assert!((b.ms() - (full - 4.0)).abs() < 1e-9);
        // Within bounds, and a stall changes nothing.
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(30.0);
        }
        assert_eq!(b.ms(), FrameBudget::MIN_MS);
        b.after_frame(5_000.0);
        b.after_frame(f64::NAN);
        assert_eq!(b.ms(), FrameBudget::MIN_MS);
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(0.0);
        }
        assert_eq!(b.ms(), FrameBudget::MAX_MS);
    }
}
