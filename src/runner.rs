//! Plays a race for the page and publishes its snapshots to Yew.
//!
//! The engine stays out of the component tree: [`Runner`] owns the race (in the race worker,
//! or here), keeps the latest [`Snapshot`], and [`use_race`] re-renders the component when a
//! new one is published. Dropping the runner (the component unmounts, or the setup changes)
//! stops the race.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use yew::prelude::*;

use crate::dom::workers::now_ms;
use crate::driver::{Command, Driver, MAX_FRAME_GAP_MS};
use crate::frame_loop::FrameLoop;
use crate::lab::Speed;
use crate::race_host::link_of;
use crate::race_thread::{Listener, RaceThread, RemoteRace};
use crate::snapshot::{Phase, Snapshot};
use packlab_core::scenario::Setup;

pub use crate::driver::MAX_POINTS;

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

/// Owns a race and shows it: the latest [`Snapshot`], and the commands of the controls.
///
/// The race runs in the race worker when one can start ([`Runner::threaded`]): the main
/// thread then only draws the snapshots the worker sends, one per animation frame at most.
/// Otherwise (no worker, a trace file the worker was not given or could not read, the
/// runner's own browser tests) it runs here, inside requestAnimationFrame, within a frame
/// budget ([`FrameBudget`]). Both run the same [`Driver`], so the commands mean the same and
/// the trajectory is the same.
pub struct Runner {
    shared: Rc<Shared>,
}

struct Shared {
    snapshot: RefCell<Rc<Snapshot>>,
    /// Tells the view that a new snapshot is out.
    notify: Box<dyn Fn()>,
    engine: RefCell<Engine>,
    /// The speed last asked for (a worker is told only when it changes).
    speed: Cell<Speed>,
    /// The animation loop of a race played here.
    frames: RefCell<Option<FrameLoop>>,
    budget: Cell<FrameBudget>,
    /// When the current frame's tick started and how long its simulation took, in ms.
    tick: Cell<(f64, f64)>,
}

/// Where the race runs.
enum Engine {
    /// Here, on the main thread.
    Here(Driver),
    /// In the race worker, which has not answered yet. The driver here made the first
    /// snapshot; it takes over, with the commands sent so far, if the worker cannot run the
    /// race.
    Starting { driver: Driver, sent: Vec<Command>, remote: Rc<RemoteRace> },
    /// In the race worker.
    Worker(Rc<RemoteRace>),
}

impl Runner {
    /// A runner that plays `setup` on the main thread. `notify` is called after each new
    /// snapshot.
    pub fn new(setup: Rc<Setup>, speed: Speed, notify: impl Fn() + 'static) -> Self {
        Self::with(Driver::new(setup, speed), speed, Box::new(notify), None)
    }

    /// A runner that plays `setup` in the race worker where it can, else here.
    pub fn threaded(setup: Rc<Setup>, speed: Speed, notify: impl Fn() + 'static) -> Self {
        let driver = Driver::new(setup.clone(), speed);
        let thread = RaceThread::get()
            .inspect_err(|e| {
                web_sys::console::warn_1(&format!("packlab: the race runs on the page's thread: {e}").into())
            })
            .ok()
            .filter(|thread| worker_can_run(thread, &setup));
        Self::with(driver, speed, Box::new(notify), thread.as_ref())
    }

    /// A runner whose first snapshot is `driver`'s; with `thread`, the race is started in the
    /// worker and `driver` stands by until the worker answers.
    fn with(driver: Driver, speed: Speed, notify: Box<dyn Fn()>, thread: Option<&Rc<RaceThread>>) -> Self {
        let snapshot = Rc::new(driver.snapshot());
        let setup = driver.setup().clone();
        let shared = Rc::new_cyclic(|me: &Weak<Shared>| {
            let engine = match thread {
                Some(thread) => {
                    let remote = thread.start(&setup, speed, ToRunner(me.clone()));
                    Engine::Starting { driver, sent: Vec::new(), remote }
                }
                None => Engine::Here(driver),
            };
            Shared {
                snapshot: RefCell::new(snapshot),
                notify,
                engine: RefCell::new(engine),
                speed: Cell::new(speed),
                frames: RefCell::new(None),
                budget: Cell::new(FrameBudget::default()),
                tick: Cell::new((0.0, 0.0)),
            }
        });
        Self { shared }
    }

    /// Whether the race runs in the race worker (once the worker has answered).
    pub fn in_worker(&self) -> bool {
        matches!(*self.shared.engine.borrow(), Engine::Worker(_))
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Rc<Snapshot> {
        self.shared.snapshot.borrow().clone()
    }

    pub fn set_speed(&self, speed: Speed) {
        if self.shared.speed.replace(speed) != speed {
            self.shared.send(Command::Speed(speed));
        }
    }

    /// Chooses the lane whose per-bin series are published.
    pub fn set_focus(&self, lane: usize) {
        self.shared.send(Command::Focus(lane));
    }

    /// Play ⇄ pause; at the horizon, runs the race again from slot 0.
    pub fn toggle(&self) {
        self.shared.send(Command::Toggle);
    }

    /// Starts or resumes playing.
    pub fn play(&self) {
        self.shared.send(Command::Play);
    }

    pub fn pause(&self) {
        self.shared.send(Command::Pause);
    }

    /// Pauses and runs one step: a slot, or in continuous time the next event.
    pub fn step(&self) {
        self.shared.send(Command::Step);
    }

    /// Pauses and goes one step back: a slot, or the previous event.
    pub fn step_back(&self) {
        self.shared.send(Command::Back);
    }

    /// Pauses and goes to `time` within the run so far (the timeline's scrubber).
    pub fn seek(&self, time: f64) {
        self.shared.send(Command::Seek(time));
    }

    /// Plays at full speed up to `time` and pauses there: a link's `t=`.
    pub fn open_at(&self, time: f64) {
        self.shared.send(Command::OpenAt(time));
    }

    /// Back to slot 0, paused.
    pub fn restart(&self) {
        self.shared.send(Command::Restart);
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.shared.frames.borrow_mut().take();
        if let Engine::Worker(remote) | Engine::Starting { remote, .. } = &*self.shared.engine.borrow() {
            remote.end();
        }
    }
}

impl Shared {
    /// Carries out `command` where the race runs.
    fn send(self: &Rc<Self>, command: Command) {
        let changed = {
            let mut engine = self.engine.borrow_mut();
            match &mut *engine {
                Engine::Here(driver) => Some(driver.apply(command)),
                Engine::Starting { sent, remote, .. } => {
                    sent.push(command);
                    remote.command(command);
                    None
                }
                Engine::Worker(remote) => {
                    remote.command(command);
                    None
                }
            }
        };
        // Here, the loop follows the driver and the change is shown at once; the worker
        // answers with a snapshot of its own.
        if let Some(changed) = changed {
            self.follow_driver();
            if changed {
                self.publish_here();
            }
        }
    }

    /// Starts or stops the animation loop of a race played here, as its driver now plays
    /// or not.
    fn follow_driver(self: &Rc<Self>) {
        let playing = matches!(&*self.engine.borrow(), Engine::Here(d) if d.playing());
        if !playing {
            self.frames.borrow_mut().take();
            return;
        }
        if self.frames.borrow().as_ref().is_some_and(FrameLoop::is_running) {
            return;
        }
        let weak: Weak<Shared> = Rc::downgrade(self);
        let after = weak.clone();
        let started = FrameLoop::start(
            move |now| weak.upgrade().is_some_and(|shared| shared.frame_here(now)),
            move |done| {
                if let Some(shared) = after.upgrade() {
                    shared.rendered(done);
                }
            },
        );
        match started {
            Ok(frames) => *self.frames.borrow_mut() = Some(frames),
            Err(e) => {
                if let Engine::Here(driver) = &mut *self.engine.borrow_mut() {
                    driver.fail(format!("cannot start the animation loop: {e:?}"));
                }
                self.publish_here();
            }
        }
    }

    /// One animation frame of a race played here: a slice of play within the frame budget,
    /// then the snapshot. Returns whether to keep going.
    fn frame_here(&self, now: f64) -> bool {
        let started = now_ms();
        let again = {
            let mut engine = self.engine.borrow_mut();
            let Engine::Here(driver) = &mut *engine else { return false };
            let (again, simulated) = driver.slice(now, self.budget.get().ms(), now_ms);
            self.tick.set((started, simulated));
            again
        };
        self.publish_here();
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

    /// Shows the snapshot of a race played here.
    fn publish_here(&self) {
        let snapshot = match &*self.engine.borrow() {
            Engine::Here(driver) => driver.snapshot(),
            _ => return,
        };
        self.show(snapshot);
    }

    /// Shows `snapshot`. No borrow of the engine is held: the view may render at once and
    /// ask for the speed.
    fn show(&self, snapshot: Snapshot) {
        *self.snapshot.borrow_mut() = Rc::new(snapshot);
        (self.notify)();
    }

    /// A snapshot the worker sent, in an animation frame. The first one means the worker
    /// runs the race: the driver here is no longer needed.
    fn shown_by_worker(&self, snapshot: Snapshot) {
        {
            let mut engine = self.engine.borrow_mut();
            if let Engine::Starting { remote, .. } = &*engine {
                let remote = remote.clone();
                *engine = Engine::Worker(remote);
            }
        }
        self.show(snapshot);
    }

    /// The worker cannot run the race: before it ran any, the race goes on here with the
    /// commands sent so far; after, the race stops with `message`.
    fn worker_failed(self: &Rc<Self>, message: String) {
        let mut engine = self.engine.borrow_mut();
        let Engine::Starting { remote, .. } = &*engine else {
            drop(engine);
            let mut snapshot = (**self.snapshot.borrow()).clone();
            snapshot.phase = Phase::Failed(format!("the simulation stopped: {message}"));
            self.show(snapshot);
            return;
        };
        let remote = remote.clone();
        let Engine::Starting { mut driver, sent, .. } = std::mem::replace(&mut *engine, Engine::Worker(remote)) else {
            unreachable!("matched just above")
        };
        web_sys::console::warn_1(&format!("packlab: the race runs on the page's thread: {message}").into());
        for command in sent {
            driver.apply(command);
        }
        *engine = Engine::Here(driver);
        drop(engine);
        self.follow_driver();
        self.publish_here();
    }
}

/// Whether the worker can rebuild `setup` from its link: a trace file the link names by
/// fingerprint must be one the worker was given (a file loaded before the worker existed, or
/// while it could not be reached, is only the page's).
fn worker_can_run(thread: &RaceThread, setup: &Setup) -> bool {
    let link = link_of(setup);
    link.split('&')
        .filter_map(|pair| pair.strip_prefix("trace="))
        .filter(|v| packlab_core::trace::parse_fingerprint(v).is_ok())
        .all(|fingerprint| thread.knows_trace(fingerprint))
}

/// The runner as the race worker's listener.
struct ToRunner(Weak<Shared>);

impl Listener for ToRunner {
    fn show(&self, snapshot: Snapshot) {
        if let Some(shared) = self.0.upgrade() {
            shared.shown_by_worker(snapshot);
        }
    }

    fn failed(&self, message: String) {
        if let Some(shared) = self.0.upgrade() {
            shared.worker_failed(message);
        }
    }
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
    /// Pauses if playing; plays if paused (never restarts a finished run, unlike `toggle`).
    pub pause: Callback<()>,
    pub play: Callback<()>,
    pub step: Callback<()>,
    pub back: Callback<()>,
    /// Goes to a time within the run so far.
    pub seek: Callback<f64>,
    pub restart: Callback<()>,
    pub focus: Callback<usize>,
    /// Where the race runs: `worker` (the race worker) or `page` (the page's own thread, also
    /// while the worker has not answered yet).
    pub thread: &'static str,
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
    let runner = use_memo(setup, move |setup| Runner::threaded(setup.clone(), speed, move || redraw.force_update()));
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
                        crate::format::group_digits(o.slot),
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
        thread: if runner.in_worker() { "worker" } else { "page" },
        snapshot: runner.snapshot(),
        restarted,
        toggle: call(Runner::toggle),
        pause: call(Runner::pause),
        play: call(Runner::play),
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
