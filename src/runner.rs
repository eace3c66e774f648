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
use crate::race::{Race, Setup};
use crate::snapshot::{Phase, Snapshot};

/// Points kept per Q(t) series: enough for a smooth curve, bounded however long it runs.
pub const MAX_POINTS: usize = 1024;
/// Simulated slots per second of wall time while playing (4000 per frame at 60 Hz).
pub const SLOTS_PER_SECOND: f64 = 240_000.0;
/// Wall time the simulation may take per frame, leaving the rest for drawing.
pub const FRAME_BUDGET_MS: f64 = 8.0;
/// Longest frame gap honoured: after a stall (hidden tab, breakpoint) the race resumes at its
/// normal pace instead of catching up.
const MAX_FRAME_GAP_MS: f64 = 100.0;

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
    /// Timestamp of the previous frame while playing.
    last_frame: Cell<Option<f64>>,
    /// Tells the view that a new snapshot is out.
    notify: Box<dyn Fn()>,
}

impl Runner {
    /// A runner for `setup`, ready to play. `notify` is called after each new snapshot.
    pub fn new(setup: Rc<Setup>, notify: impl Fn() + 'static) -> Self {
        let race = Race::new(&setup, MAX_POINTS);
        let snapshot = Rc::new(race.snapshot(Phase::Ready));
        let shared = Shared {
            setup,
            race: RefCell::new(race),
            phase: RefCell::new(Phase::Ready),
            snapshot: RefCell::new(snapshot),
            frames: RefCell::new(None),
            last_frame: Cell::new(None),
            notify: Box::new(notify),
        };
        Self { shared: Rc::new(shared) }
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Rc<Snapshot> {
        self.shared.snapshot.borrow().clone()
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
        let weak: Weak<Shared> = Rc::downgrade(&self.shared);
        let started = FrameLoop::start(move |now| weak.upgrade().is_some_and(|shared| shared.frame(now)));
        match started {
            Ok(frames) => {
                self.shared.last_frame.set(None);
                *self.shared.frames.borrow_mut() = Some(frames);
                self.shared.set_phase(Phase::Running);
            }
            Err(e) => self.shared.set_phase(Phase::Failed(format!("cannot start the animation loop: {e:?}"))),
        }
    }

    pub fn pause(&self) {
        self.shared.frames.borrow_mut().take();
        if *self.shared.phase.borrow() == Phase::Running {
            self.shared.set_phase(Phase::Paused);
        }
    }

    /// Back to slot 0, paused.
    pub fn restart(&self) {
        self.shared.frames.borrow_mut().take();
        *self.shared.race.borrow_mut() = Race::new(&self.shared.setup, MAX_POINTS);
        self.shared.set_phase(Phase::Ready);
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
        let want = (SLOTS_PER_SECOND * gap / 1000.0).ceil() as u64;
        let deadline = clock() + FRAME_BUDGET_MS;
        let result = self.race.borrow_mut().advance(want.max(1), || clock() >= deadline);
        let next = match result {
            Err(e) => Phase::Failed(format!("the simulation stopped: {e}")),
            Ok(_) if self.race.borrow().finished() => Phase::Finished,
            Ok(_) => Phase::Running,
        };
        let again = next == Phase::Running;
        self.set_phase(next);
        again
    }

    fn set_phase(&self, phase: Phase) {
        let snapshot = Rc::new(self.race.borrow().snapshot(phase.clone()));
        *self.phase.borrow_mut() = phase;
        *self.snapshot.borrow_mut() = snapshot;
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
    pub restart: Callback<()>,
}

/// Runs `setup` as a race owned by the calling component.
#[hook]
pub fn use_race(setup: Rc<Setup>) -> RaceHandle {
    let redraw = use_force_update();
    let runner = use_memo(setup, move |setup| Runner::new(setup.clone(), move || redraw.force_update()));
    let toggle = {
        let runner = runner.clone();
        Callback::from(move |()| runner.toggle())
    };
    let restart = {
        let runner = runner.clone();
        Callback::from(move |()| runner.restart())
    };
    RaceHandle { snapshot: runner.snapshot(), toggle, restart }
}
