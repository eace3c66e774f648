//! Drives a [`Race`] from requestAnimationFrame and publishes snapshots to Yew.
//!
//! The engine stays out of the component tree: [`Runner`] owns the simulations behind
//! `Rc<RefCell<_>>`, steps them in each animation frame within a time budget, and keeps the
//! latest [`Snapshot`]; [`use_race`] re-renders the component when a new one is published.
//! Dropping the runner (the component unmounts, or the setup changes) cancels the loop.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use yew::prelude::*;

use crate::frame_loop::FrameLoop;
use crate::lab::{Setup, Speed};
use crate::race::Race;
use crate::snapshot::{Phase, Rate, Snapshot};

/// Points kept per series: enough for a smooth curve, bounded however long it runs.
pub const MAX_POINTS: usize = 1024;
/// Wall time the simulation may take per frame, leaving the rest of a 60 Hz frame (16.7 ms)
/// for drawing: measured at 1000 servers, drawing takes 2-4 ms.
pub const FRAME_BUDGET_MS: f64 = 9.0;
/// Longest frame gap honoured: after a stall (hidden tab, breakpoint) the race resumes at its
/// normal pace instead of catching up.
const MAX_FRAME_GAP_MS: f64 = 100.0;
/// The rate meter's window.
const METER_WINDOW_MS: f64 = 1000.0;

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
    /// Fraction of a slot owed from earlier frames (slow speeds run less than one per frame).
    owed: Cell<f64>,
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
    rate: Option<Rate>,
}

impl Meter {
    fn count(&mut self, now: f64, slots: u64) {
        let since = *self.since.get_or_insert(now);
        self.frames += 1;
        self.slots += slots;
        let span = now - since;
        if span >= METER_WINDOW_MS {
            self.rate = Some(Rate {
                fps: f64::from(self.frames) * 1000.0 / span,
                slots_per_second: self.slots as f64 * 1000.0 / span,
            });
            (self.since, self.frames, self.slots) = (Some(now), 0, 0);
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
            owed: Cell::new(0.0),
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
        let started = FrameLoop::start(move |now| weak.upgrade().is_some_and(|shared| shared.frame(now)));
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

    /// Pauses and runs exactly one slot.
    pub fn step(&self) {
        self.pause();
        if matches!(*self.shared.phase.borrow(), Phase::Failed(_) | Phase::Finished) {
            return;
        }
        let result = self.shared.race.borrow_mut().advance(1, f64::INFINITY, clock);
        self.shared.publish(self.shared.after(result));
    }

    /// Back to slot 0, paused.
    pub fn restart(&self) {
        self.shared.frames.borrow_mut().take();
        *self.shared.race.borrow_mut() = Race::new(&self.shared.setup, MAX_POINTS);
        self.shared.owed.set(0.0);
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
        let gap =
            self.last_frame.replace(Some(now)).map_or(1000.0 / 60.0, |last| (now - last).clamp(0.0, MAX_FRAME_GAP_MS));
        let want = match self.speed.get() {
            Speed::Max => u64::MAX,
            Speed::PerSecond(rate) => {
                let due = self.owed.get() + rate as f64 * gap / 1000.0;
                let whole = due.floor();
                self.owed.set(due - whole);
                whole as u64
            }
        };
        let result = self.race.borrow_mut().advance(want, FRAME_BUDGET_MS, clock);
        if let Ok(slots) = result {
            self.meter.borrow_mut().count(now, slots);
        }
        let next = self.after(result);
        let again = next == Phase::Running;
        self.publish(next);
        again
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

    fn publish(&self, phase: Phase) {
        let mut snapshot = self.race.borrow().snapshot(phase.clone(), self.focus.get());
        snapshot.rate = self.meter.borrow().rate;
        *self.phase.borrow_mut() = phase;
        *self.snapshot.borrow_mut() = Rc::new(snapshot);
        (self.notify)();
    }
}

/// Milliseconds on the animation-frame clock.
fn clock() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What a component gets from [`use_race`].
pub struct RaceHandle {
    pub snapshot: Rc<Snapshot>,
    pub toggle: Callback<()>,
    pub step: Callback<()>,
    pub restart: Callback<()>,
    pub focus: Callback<usize>,
}

/// Runs `setup` as a race owned by the calling component, at `speed` (changing the speed
/// keeps the race; changing the setup starts a new one).
#[hook]
pub fn use_race(setup: Rc<Setup>, speed: Speed) -> RaceHandle {
    let redraw = use_force_update();
    let runner = use_memo(setup, move |setup| Runner::new(setup.clone(), speed, move || redraw.force_update()));
    runner.set_speed(speed);
    let call = |f: fn(&Runner)| {
        let runner = runner.clone();
        Callback::from(move |()| f(&runner))
    };
    let focus = {
        let runner = runner.clone();
        Callback::from(move |lane| runner.set_focus(lane))
    };
    RaceHandle {
        snapshot: runner.snapshot(),
        toggle: call(Runner::toggle),
        step: call(Runner::step),
        restart: call(Runner::restart),
        focus,
    }
}
